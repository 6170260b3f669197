"""The shared golden cases (tests/golden/*.tsv, format in tests/golden/README.md) as pytest cases:
the reader every capability's test module uses for its own files. A missing or empty golden file
fails; it is never skipped."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

import pytest

import geoloc
from geoloc import Status

GOLDEN_DIR = Path(__file__).resolve().parents[2] / "tests" / "golden"

#: The golden files of each capability; every .tsv of tests/golden is in exactly one.
FILES_BY_CAPABILITY: Dict[str, Tuple[str, ...]] = {
    "core": ("coord_parse.tsv", "coord_format.tsv", "distance_text.tsv"),
    "distance": ("distance.tsv", "geodesic_inverse.tsv", "geodesic_direct.tsv"),
    "route": ("mileage.tsv", "eta.tsv"),
    "weather": ("weather.tsv",),
    "address": ("address.tsv", "us_states.tsv"),
    "geocoding": ("reverse_geocode.tsv", "reverse_geocode_localities.tsv"),
    "time": ("timezones.tsv", "locality_zones.tsv"),
    # Geocoding's search by name: a reference set scored per group against its accuracy goals
    # (test_search.py reads it), not row by row.
    "search": ("search.tsv",),
}

NULL = "<NULL>"

COLUMNS: Dict[str, Tuple[str, ...]] = {
    "coord_parse.tsv": ("input", "status", "lat", "lon"),
    "coord_format.tsv": ("lat", "lon", "style", "expected"),
    "distance.tsv": ("lat1", "lon1", "lat2", "lon2", "unit", "expected", "rel_tol"),
    "distance_text.tsv": ("meters", "unit", "expected"),
    "mileage.tsv": (
        "name", "home", "stops", "round_trip", "unit", "status", "text", "total", "stops_used",
        "skipped", "legs",
    ),
    "eta.tsv": ("distance", "speed_per_hour", "unit", "detour", "status", "minutes"),
    "weather.tsv": ("code", "temperature", "given", "shown", "daylight", "status", "label", "text"),
    "address.tsv": ("name", "style", "parts", "expected"),
    "us_states.tsv": ("name", "code"),
    "reverse_geocode.tsv": ("lat", "lon", "style", "max_distance_m", "name", "text"),
    "reverse_geocode_localities.tsv": ("kind", "lat", "lon", "expect_id", "name", "country", "population", "how"),
    "timezones.tsv": ("case", "lat", "lon", "zone", "utc_offset_hours"),
    "locality_zones.tsv": ("case", "lat", "lon", "geonameid", "zone", "geonames_zone"),
    "search.tsv": ("group", "query", "mode", "id", "rank", "name", "country", "how"),
    "geodesic_inverse.tsv": ("case", "lat1", "lon1", "lat2", "lon2", "s12_m", "azi1_deg", "azi2_deg"),
    "geodesic_direct.tsv": ("case", "lat1", "lon1", "azi1", "s12_m", "lat2", "lon2", "azi2"),
}

EXCEPTIONS = {
    "E_NULL_ARGUMENT": geoloc.NullArgumentError,
    "E_NOT_FINITE": geoloc.NotFiniteError,
    "E_OUT_OF_RANGE": geoloc.OutOfRangeError,
    "E_INVALID_ARGUMENT": geoloc.InvalidArgumentError,
    "E_PARSE": geoloc.ParseError,
    "E_BUFFER_TOO_SMALL": geoloc.BufferTooSmallError,
    "E_INVALID_UTF8": geoloc.InvalidUTF8Error,
    "E_COUNT_TOO_LARGE": geoloc.CountTooLargeError,
    "E_NO_HOME": geoloc.NoHomeError,
    "E_HOME_INVALID": geoloc.HomeInvalidError,
    "E_UNKNOWN_CODE": geoloc.UnknownCodeError,
    "E_NOT_FOUND": geoloc.NotFoundError,
    "E_UNSUPPORTED": geoloc.UnsupportedError,
    "E_NO_MEMORY": geoloc.NoMemoryError,
    "E_INTERNAL": geoloc.InternalError,
}


# --------------------------------------------------------------------------------------------
# Reading the files
# --------------------------------------------------------------------------------------------


def unescape(field: str) -> Optional[str]:
    """A raw field: "<NULL>" is None; \\t, \\n and \\\\ are tab, newline and backslash."""
    if field == NULL:
        return None
    out = []
    i = 0
    while i < len(field):
        ch = field[i]
        if ch == "\\" and i + 1 < len(field) and field[i + 1] in "tn\\":
            out.append({"t": "\t", "n": "\n", "\\": "\\"}[field[i + 1]])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


class Table(NamedTuple):
    header: Tuple[str, ...]
    # (line number, raw fields)
    rows: List[Tuple[int, List[str]]]


def read_table(path: Path) -> Table:
    """The header and the rows of a golden file (comments and blank lines left out)."""
    header: Optional[Tuple[str, ...]] = None
    rows: List[Tuple[int, List[str]]] = []
    with path.open(encoding="utf-8", newline="") as f:
        for number, line in enumerate(f, start=1):
            line = line.rstrip("\r\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if header is None:
                header = tuple(fields)
            else:
                rows.append((number, fields))
    return Table(header or (), rows)


class Case(NamedTuple):
    file: str
    line: int
    row: Optional[Dict[str, Optional[str]]]
    problem: Optional[str]


def cases(golden_dir: Path, name: str) -> List[Case]:
    path = golden_dir / name
    if not path.is_file():
        return [Case(name, 0, None, "%s is missing" % path)]
    table = read_table(path)
    if table.header != COLUMNS[name]:
        return [Case(name, 0, None, "%s has columns %s, expected %s" % (path, table.header, COLUMNS[name]))]
    if not table.rows:
        return [Case(name, 0, None, "%s has no cases" % path)]
    cases = []
    for line, fields in table.rows:
        if len(fields) != len(table.header):
            cases.append(Case(name, line, None, "%s:%d has %d fields, expected %d" % (path, line, len(fields), len(table.header))))
        else:
            cases.append(Case(name, line, {k: unescape(v) for k, v in zip(table.header, fields)}, None))
    return cases


def parametrize(capability: str) -> Callable:
    """pytest.mark.parametrize("case", ...) over every row of the capability's golden files."""
    found = [c for name in FILES_BY_CAPABILITY[capability] for c in cases(GOLDEN_DIR, name)]
    ids = []
    for c in found:
        label = c.file[:-4]
        if c.row is not None and c.row.get("name"):
            label += "-" + c.row["name"]
        ids.append("%s:%d" % (label, c.line))
    return pytest.mark.parametrize("case", found, ids=ids)


def check_row(case: Case, checkers: Dict[str, Callable[[Dict[str, Optional[str]]], None]]) -> None:
    if case.problem is not None:
        pytest.fail(case.problem)
    checkers[case.file](case.row)


def expect_failure(status: str, call: Callable[[], object]) -> geoloc.GeolocError:
    cls = EXCEPTIONS[status]
    with pytest.raises(geoloc.GeolocError) as info:
        call()
    err = info.value
    assert type(err) is cls, "expected %s, got %s: %s" % (cls.__name__, type(err).__name__, err)
    assert err.status == Status[status]
    assert err.message.strip(), "empty message"
    return err


def close(got: float, expected: float, rel: float = 1e-12) -> bool:
    return abs(got - expected) <= rel * max(abs(expected), 1e-300) + 1e-9


def split_list(field: Optional[str], sep: str) -> List[Optional[str]]:
    if field is None:
        return [None]
    if field == "":
        return []
    return [None if item == NULL else item for item in field.split(sep)]
