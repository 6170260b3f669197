"""The shared golden cases (tests/golden/*.tsv, format in tests/golden/README.md), row by row,
through the Python API. A missing or empty golden file fails; it is never skipped."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

import numpy
import pytest

import geoloc
from geoloc import Status

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


def _cases(golden_dir: Path, name: str) -> List[Case]:
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


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "case" in metafunc.fixturenames:
        golden_dir = metafunc.config.geoloc_golden_dir  # type: ignore[attr-defined]
        cases = [c for name in COLUMNS for c in _cases(golden_dir, name)]
        ids = []
        for c in cases:
            label = c.file[:-4]
            if c.row is not None and c.row.get("name"):
                label += "-" + c.row["name"]
            ids.append("%s:%d" % (label, c.line))
        metafunc.parametrize("case", cases, ids=ids)


# --------------------------------------------------------------------------------------------
# Checking one row per file kind
# --------------------------------------------------------------------------------------------


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


def check_coord_parse(r: Dict[str, Optional[str]]) -> None:
    if r["status"] == "OK":
        assert geoloc.parse_coord(r["input"]) == (float(r["lat"]), float(r["lon"]))
    else:
        expect_failure(r["status"], lambda: geoloc.parse_coord(r["input"]))


def check_coord_format(r: Dict[str, Optional[str]]) -> None:
    assert geoloc.format_coord((float(r["lat"]), float(r["lon"])), r["style"]) == r["expected"]


def check_distance(r: Dict[str, Optional[str]]) -> None:
    a = (float(r["lat1"]), float(r["lon1"]))
    b = (float(r["lat2"]), float(r["lon2"]))
    expected, rel = float(r["expected"]), float(r["rel_tol"])
    got = geoloc.distance(a, b, r["unit"])
    assert close(got, expected, rel), (got, expected)
    back = geoloc.distance(b, a, r["unit"])
    assert close(back, expected, rel), (back, expected)


def check_distance_text(r: Dict[str, Optional[str]]) -> None:
    assert geoloc.distance_text(float(r["meters"]), r["unit"]) == r["expected"]


def split_list(field: Optional[str], sep: str) -> List[Optional[str]]:
    if field is None:
        return [None]
    if field == "":
        return []
    return [None if item == NULL else item for item in field.split(sep)]


def parse_legs(field: str) -> List[Tuple[Optional[int], Optional[int], float]]:
    legs = []
    for item in split_list(field, ";"):
        ends, dist = item.split("=", 1)
        src, dst = ends.split(">", 1)
        legs.append((None if int(src) < 0 else int(src), None if int(dst) < 0 else int(dst), float(dist)))
    return legs


def check_mileage(r: Dict[str, Optional[str]]) -> None:
    stops = split_list(r["stops"], " | ")
    assert r["round_trip"] in ("0", "1")

    def run() -> geoloc.Mileage:
        return geoloc.mileage(r["home"], stops, round_trip=r["round_trip"] == "1", unit=r["unit"])

    if r["status"] not in ("OK", "E_HOME_INVALID"):
        expect_failure(r["status"], run)
        return
    m = run()
    if r["status"] == "E_HOME_INVALID":
        assert m.home_problem and m.home_problem.strip()
    else:
        assert m.home_problem is None
    assert m.text == r["text"]
    assert math.isclose(m.total, float(r["total"]), rel_tol=1e-12, abs_tol=1e-12), (m.total, r["total"])
    assert m.stops_used == int(r["stops_used"])
    assert m.skipped == tuple(int(i) for i in split_list(r["skipped"], ","))
    expected_legs = parse_legs(r["legs"])
    assert len(m.legs) == len(expected_legs)
    for leg, (src, dst, dist) in zip(m.legs, expected_legs):
        assert (leg.from_index, leg.to_index) == (src, dst)
        assert math.isclose(leg.distance, dist, rel_tol=1e-12, abs_tol=1e-12), (leg, dist)


def check_eta(r: Dict[str, Optional[str]]) -> None:
    def run() -> int:
        return geoloc.eta_minutes(float(r["distance"]), float(r["speed_per_hour"]), r["unit"], float(r["detour"]))

    if r["status"] == "OK":
        got = run()
        assert type(got) is int
        assert got == int(r["minutes"])
    else:
        expect_failure(r["status"], run)


def check_weather(r: Dict[str, Optional[str]]) -> None:
    code = int(r["code"])
    assert geoloc.weather_label(code, r["daylight"]) == r["label"]
    assert geoloc.is_documented_weather_code(code) == (r["label"] != "Unknown")

    def run() -> str:
        return geoloc.weather_condition(code, float(r["temperature"]), r["given"], r["shown"], r["daylight"])

    if r["status"] in ("OK", "E_UNKNOWN_CODE"):
        assert run() == r["text"]
    else:
        expect_failure(r["status"], run)


def check_address(r: Dict[str, Optional[str]]) -> None:
    parts = []
    for item in split_list(r["parts"], " | "):
        assert item is not None and "=" in item, "part %r is not key=value" % item
        key, value = item.split("=", 1)
        parts.append((key, None if value == NULL else value))
    assert geoloc.format_address(parts, r["style"]) == r["expected"]


def check_us_state(r: Dict[str, Optional[str]]) -> None:
    name, code = r["name"], r["code"]
    assert geoloc.us_state_code(name) == code
    assert geoloc.us_state_name(code) == name
    assert geoloc.us_state_code(name.upper()) == code
    assert geoloc.us_state_code(name.lower()) == code
    assert geoloc.us_state_name(code.lower()) == name
    assert geoloc.us_state_code(code.lower()) == code  # a valid code is accepted too
    assert geoloc.us_state_name(name.lower()) == name  # and a valid name


def _angle_diff(a: float, b: float) -> float:
    d = math.fmod(a - b, 360.0)
    return abs(d - 360 if d > 180 else d + 360 if d <= -180 else d)


def _azi_tol(s12: float) -> float:
    # 1e-9 degrees, or the angle that moves the far end of the line sideways by 15 nm.
    return max(1e-9, math.degrees(15e-9 / abs(s12)) if s12 else 360.0)


def check_geodesic_inverse(r: Dict[str, Optional[str]]) -> None:
    a, b = (float(r["lat1"]), float(r["lon1"])), (float(r["lat2"]), float(r["lon2"]))
    got = geoloc.geodesic_inverse(a, b)
    s12 = float(r["s12_m"])
    assert abs(got.distance - s12) <= 15e-9, (got, s12)
    assert geoloc.distance(a, b, model="wgs84") == got.distance
    if r["case"] not in ("antipodal", "identical"):  # no unique shortest path there
        assert _angle_diff(got.azi1, float(r["azi1_deg"])) <= _azi_tol(s12), got
        assert _angle_diff(got.azi2, float(r["azi2_deg"])) <= _azi_tol(s12), got


def check_geodesic_direct(r: Dict[str, Optional[str]]) -> None:
    s12 = float(r["s12_m"])
    got = geoloc.geodesic_direct((float(r["lat1"]), float(r["lon1"])), float(r["azi1"]), s12)
    lat2 = float(r["lat2"])
    assert abs(got.lat - lat2) <= 1e-11 and -180 <= got.lon < 180, got
    if abs(lat2) < 90 - 1e-9:  # longitude and azimuth mean nothing at a pole
        assert _angle_diff(got.lon, float(r["lon2"])) <= 1e-11, got
        assert _angle_diff(got.azi2, float(r["azi2"])) <= _azi_tol(s12), got


CHECKERS: Dict[str, Callable[[Dict[str, Optional[str]]], None]] = {
    "coord_parse.tsv": check_coord_parse,
    "coord_format.tsv": check_coord_format,
    "distance.tsv": check_distance,
    "distance_text.tsv": check_distance_text,
    "mileage.tsv": check_mileage,
    "eta.tsv": check_eta,
    "weather.tsv": check_weather,
    "address.tsv": check_address,
    "us_states.tsv": check_us_state,
    "geodesic_inverse.tsv": check_geodesic_inverse,
    "geodesic_direct.tsv": check_geodesic_direct,
}


def test_golden_row(case: Case) -> None:
    if case.problem is not None:
        pytest.fail(case.problem)
    CHECKERS[case.file](case.row)


# --------------------------------------------------------------------------------------------
# Whole-file checks
# --------------------------------------------------------------------------------------------


def test_every_golden_file_has_a_checker(golden_dir: Path) -> None:
    assert set(CHECKERS) == set(COLUMNS)
    present = {p.name for p in golden_dir.glob("*.tsv")}
    unchecked = present - set(CHECKERS)
    assert not unchecked, "golden files without a Python checker: %s" % sorted(unchecked)
    missing = set(CHECKERS) - present
    assert not missing, "golden files missing: %s" % sorted(missing)


def _distance_rows(golden_dir: Path) -> List[Dict[str, Optional[str]]]:
    cases = _cases(golden_dir, "distance.tsv")
    problems = [c.problem for c in cases if c.problem]
    if problems:
        pytest.fail("; ".join(problems))
    return [c.row for c in cases]


def test_golden_distance_batch(golden_dir: Path) -> None:
    """Every distance case again, through distance_pairs and distance_one_to_many per unit."""
    rows = _distance_rows(golden_dir)
    for unit in geoloc.Unit:
        mine = [r for r in rows if r["unit"] == unit.name]
        if not mine:
            continue
        a = numpy.array([[float(r["lat1"]), float(r["lon1"])] for r in mine])
        b = numpy.array([[float(r["lat2"]), float(r["lon2"])] for r in mine])
        expected = numpy.array([float(r["expected"]) for r in mine])
        rel = numpy.array([float(r["rel_tol"]) for r in mine])
        got = geoloc.distance_pairs(a, b, unit)
        bad = numpy.abs(got - expected) > rel * numpy.maximum(expected, 1e-300) + 1e-9
        assert not bad.any(), list(zip(got[bad], expected[bad]))
        for i in range(len(mine)):
            one = geoloc.distance_one_to_many(a[i], b[i : i + 1], unit)
            assert close(one[0], expected[i], rel[i])
