"""Place sets and regions: the set, its loaders, radius, nearest and region queries.

Each object owns one C handle (``geoloc_places``, ``geoloc_region``, ``geoloc_gazetteer``) and
frees it exactly once: on ``close()``, at the end of a ``with`` block, or when it is garbage
collected. A closed object raises ValueError when used; its pointer never reaches the library
again. Handles are immutable, so any number of threads may query one object at once (the GIL is
released during each library call); ``close()`` from one thread while others are in a call waits
for nothing: the handle is freed by the last call to finish.
"""

from __future__ import annotations

import ctypes
import dataclasses
import json
import operator
import os
from collections.abc import Mapping
from ctypes import POINTER, Structure, byref, c_bool, c_char, c_char_p, c_double, c_int, c_size_t, sizeof
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Tuple, TypeVar, Union

import numpy

from . import _ffi
from ._enums import AddressStyle, Model, Unit, coerce
from ._errors import (
    BufferTooSmallError,
    CountTooLargeError,
    GeolocError,
    InternalError,
    InvalidUTF8Error,
    NotFoundError,
    OutOfRangeError,
)
from ._ffi import ENUM, STATUS, TEXT_OUT, CCoord
from ._core import (
    MAX_COUNT,
    CLoadLimits,
    CLoadOptions,
    PathLike,
    _blob,
    _count_arg,
    _load_limits,
    _load_options,
    _path,
    Coord,
    CoordLike,
    IdLike,
    ModelLike,
    TextIn,
    UnitLike,
    _coord,
    _coords_ptr,
    _decode,
    _float,
    _id_text,
    _integer,
    _Handle,
    _Owner,
    _points,
    _text,
    _text_result,
    _Using,
)

class CMatch(Structure):
    """geoloc_match: a place's index in its set and its distance in the unit of the query."""

    _fields_ = [("index", c_size_t), ("distance", c_double)]


class CPlaces(Structure):
    """geoloc_places (opaque)."""


class CRegion(Structure):
    """geoloc_region (opaque)."""

PlacesPtr = POINTER(CPlaces)
RegionPtr = POINTER(CRegion)
_matches_out = POINTER(CMatch)  # caller-owned array of geoloc_match or None



_ffi.declare({
    "geoloc_places_create": (
        STATUS,
        (
            POINTER(CCoord),
            POINTER(c_char_p),
            POINTER(c_char_p),
            c_size_t,
            POINTER(c_char_p),
            c_size_t,
            POINTER(c_char_p),
            POINTER(PlacesPtr),
        ),
        True,
    ),
    "geoloc_places_load_csv": (STATUS, (c_char_p, POINTER(CLoadOptions), POINTER(PlacesPtr)), True),
    "geoloc_places_parse_csv": (
        STATUS,
        (c_char_p, c_size_t, POINTER(CLoadOptions), POINTER(PlacesPtr)),
        True,
    ),
    "geoloc_places_load_geojson": (STATUS, (c_char_p, POINTER(CLoadOptions), POINTER(PlacesPtr)), True),
    "geoloc_places_parse_geojson": (
        STATUS,
        (c_char_p, c_size_t, POINTER(CLoadOptions), POINTER(PlacesPtr)),
        True,
    ),
    "geoloc_places_save": (STATUS, (PlacesPtr, c_char_p), True),
    "geoloc_places_open": (STATUS, (c_char_p, POINTER(PlacesPtr)), True),
    "geoloc_places_load_limited": (
        STATUS,
        (c_char_p, c_int, POINTER(CLoadOptions), POINTER(CLoadLimits), POINTER(PlacesPtr)),
        True,
    ),
    "geoloc_places_parse_limited": (
        STATUS,
        (c_char_p, c_size_t, c_int, POINTER(CLoadOptions), POINTER(CLoadLimits), POINTER(PlacesPtr)),
        True,
    ),
    "geoloc_places_issue_total": (STATUS, (PlacesPtr, POINTER(c_size_t)), True),
    "geoloc_places_destroy": (None, (PlacesPtr,), False),
    "geoloc_places_count": (STATUS, (PlacesPtr, POINTER(c_size_t)), True),
    "geoloc_places_issue_count": (STATUS, (PlacesPtr, POINTER(c_size_t)), True),
    "geoloc_places_issue": (
        STATUS,
        (PlacesPtr, c_size_t, POINTER(c_size_t), TEXT_OUT, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_places_coord": (STATUS, (PlacesPtr, c_size_t, POINTER(CCoord)), True),
    "geoloc_places_coords": (STATUS, (PlacesPtr, POINTER(CCoord), c_size_t, POINTER(c_size_t)), True),
    "geoloc_places_id": (
        STATUS,
        (PlacesPtr, c_size_t, TEXT_OUT, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_places_name": (
        STATUS,
        (PlacesPtr, c_size_t, TEXT_OUT, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_places_ids": (
        STATUS,
        (PlacesPtr, c_size_t, c_size_t, TEXT_OUT, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_places_names": (
        STATUS,
        (PlacesPtr, c_size_t, c_size_t, TEXT_OUT, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_places_attribute_count": (STATUS, (PlacesPtr, POINTER(c_size_t)), True),
    "geoloc_places_attribute_name": (
        STATUS,
        (PlacesPtr, c_size_t, TEXT_OUT, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_places_attribute": (
        STATUS,
        (PlacesPtr, c_size_t, c_char_p, TEXT_OUT, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_places_within": (
        STATUS,
        (PlacesPtr, CCoord, c_double, ENUM, ENUM, c_size_t, _matches_out, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_places_within_many": (
        STATUS,
        (PlacesPtr, POINTER(CCoord), c_size_t, c_double, ENUM, ENUM, c_size_t, POINTER(c_size_t), _matches_out, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_places_nearest": (
        STATUS,
        (PlacesPtr, CCoord, c_size_t, ENUM, ENUM, c_double, _matches_out, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_places_nearest_many": (
        STATUS,
        (PlacesPtr, POINTER(CCoord), c_size_t, c_size_t, ENUM, ENUM, c_double, POINTER(c_size_t), POINTER(c_double)),
        True,
    ),
    "geoloc_region_from_wkt": (STATUS, (c_char_p, POINTER(RegionPtr)), True),
    "geoloc_region_from_geojson": (STATUS, (c_char_p, POINTER(RegionPtr)), True),
    "geoloc_region_destroy": (None, (RegionPtr,), False),
    "geoloc_region_contains": (STATUS, (RegionPtr, CCoord, POINTER(c_bool)), True),
    "geoloc_places_in_region": (
        STATUS,
        (
            PlacesPtr,
            RegionPtr,
            POINTER(CCoord),
            ENUM,
            ENUM,
            c_size_t,
            _matches_out,
            c_size_t,
            POINTER(c_size_t),
        ),
        True,
    ),
})


_lib = _ffi.lib  # looked up through this module, so a test can watch the calls

StyleLike = Union[AddressStyle, int, str]

#: How many places' ids or names ids() and names() read in one library call.
TEXT_SLICE = 1 << 16

#: The capacity of the first call of a query without a smaller limit; a query with more results
#: is called once more with exactly the count the library reported.
FIRST_CAPACITY = 64

#: numpy's view of geoloc_match, to turn a filled array into tuples in one step.
_MATCH_DTYPE = numpy.dtype([("index", numpy.uintp), ("distance", numpy.float64)], align=True)
assert _MATCH_DTYPE.itemsize == ctypes.sizeof(CMatch)


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------


class Match(NamedTuple):
    """A query result: the place's index in its set and its distance from the query point, in the
    unit the query asked for (0 for :meth:`Places.in_region` without an origin)."""

    index: int  # type: ignore[assignment]  # the field hides tuple.index, as it did in 0.2
    distance: float


class LoadIssue(NamedTuple):
    """A record a loader skipped: the 1-based line where a CSV record starts or the 0-based index
    of a GeoJSON feature, and why it was skipped."""

    record: int
    reason: str


@dataclasses.dataclass(frozen=True)
class Place:
    """One place of a set, with every field (:meth:`Places.place`)."""

    #: Its index in the set.
    index: int
    #: Latitude and longitude in degrees, longitude in [-180, 180).
    coord: Coord
    #: Its id: as given or loaded, else the 1-based index (sets from arrays, CSV) or the 0-based
    #: feature index (GeoJSON), as text.
    id: str
    #: Its name, "" if it has none.
    name: str
    #: Every attribute name of the set -> this place's value, None where it has none.
    attributes: Dict[str, Optional[str]] = dataclasses.field(hash=False)

    @property
    def lat(self) -> float:
        return self.coord.lat

    @property
    def lon(self) -> float:
        return self.coord.lon




# --------------------------------------------------------------------------------------------
# Argument conversion
# --------------------------------------------------------------------------------------------


_LOAD_CSV = 0  # geoloc_load_format
_LOAD_GEOJSON = 1


def _text_column(
    values: Any, n: int, what: str, convert: Callable[[Any, str], Optional[bytes]] = _text
) -> List[Optional[bytes]]:
    """n texts (str, bytes or None each; for ids also ints, see :func:`_id_text`) as bytes for a
    ``const char *const *`` array.

    All-str columns take one fast pass, and so do integer arrays of ids; anything else, or a
    problem, goes through ``convert`` item by item, which says which entry is wrong."""
    if isinstance(values, (str, bytes)) or values is None:
        raise TypeError("%s must be a sequence of %d texts, not %s" % (what, n, type(values).__name__))
    if convert is _id_text and isinstance(values, numpy.ndarray) and values.dtype.kind in "iu" and values.ndim == 1:
        if values.shape[0] != n:
            raise ValueError("%s has %d entries for %d coordinates" % (what, values.shape[0], n))
        return [b"%d" % v for v in values.tolist()]
    items = list(values)
    if len(items) != n:
        raise ValueError("%s has %d entries for %d coordinates" % (what, len(items), n))
    try:
        encoded = [None if v is None else v.encode("utf-8") for v in items]
    except (AttributeError, UnicodeEncodeError):
        encoded = None  # not all str: the slow path finds the culprit
    if encoded is not None and all(type(v) is str or v is None for v in items):
        if not any(b"\0" in v for v in encoded if v is not None):
            return encoded
    return [convert(v, "%s[%d]" % (what, i)) for i, v in enumerate(items)]


def _region_text(value: Any, what: str) -> Optional[bytes]:
    if isinstance(value, Mapping):
        value = json.dumps(value, allow_nan=False)
    return _text(value, what)


def _check_only(call: Callable[[Any, int, Any], Any]) -> List[Match]:
    """For a query that wants no result: the library still checks every argument."""
    count = c_size_t(0)
    try:
        call(None, 0, byref(count))
    except BufferTooSmallError:
        pass
    return []


def _gather(call: Callable[[Any, int, Any], Any], first_capacity: int) -> "numpy.ndarray[Any, Any]":
    """Runs ``call(out, cap, count)`` under the library's result-buffer contract, into a numpy
    buffer of geoloc_match rows; the rows found.

    The first call gets ``first_capacity`` slots; when the query has more results the library
    says how many (*count) and returns GEOLOC_E_BUFFER_TOO_SMALL, which is not an error here:
    the call is made once more with exactly that many slots.
    """
    cap = first_capacity
    count = c_size_t(0)
    for _ in range(4):
        out = numpy.empty(cap, dtype=_MATCH_DTYPE)
        try:
            call(out.ctypes.data_as(_matches_out) if cap else None, cap, byref(count))
        except BufferTooSmallError:
            if count.value <= cap:
                raise
            cap = count.value
            continue
        n = count.value
        if n > cap:  # pragma: no cover - a library bug
            raise InternalError("the library reported %d results for a buffer of %d" % (n, cap))
        return out[:n]
    raise InternalError("the result count kept changing between calls (last %d)" % count.value)  # pragma: no cover


def _matches(call: Callable[[Any, int, Any], Any], first_capacity: int) -> List[Match]:
    """As :func:`_gather`, as a list of :class:`Match`."""
    return list(map(Match._make, _gather(call, first_capacity).tolist()))


_R = TypeVar("_R")
#: How a query's results are gathered: (the query, the first capacity) -> a list or two arrays.
_Collect = Callable[[Callable[[Any, int, Any], Any], int], _R]
#: The same for a query that wants no result (limit 0): only its arguments are checked.
_None = Callable[[Callable[[Any, int, Any], Any]], _R]


def _match_arrays(
    call: Callable[[Any, int, Any], Any], first_capacity: int
) -> Tuple["numpy.ndarray[Any, Any]", "numpy.ndarray[Any, Any]"]:
    """As :func:`_gather`: ``(indices, distances)`` as int64 and float64 arrays, with no Python
    object per result."""
    rows = _gather(call, first_capacity)
    return rows["index"].astype(numpy.int64), rows["distance"].copy()


def _no_arrays(call: Callable[[Any, int, Any], Any]) -> Tuple["numpy.ndarray[Any, Any]", "numpy.ndarray[Any, Any]"]:
    _check_only(call)
    return numpy.empty(0, dtype=numpy.int64), numpy.empty(0, dtype=numpy.float64)


# --------------------------------------------------------------------------------------------
# Places
# --------------------------------------------------------------------------------------------


class Places(_Handle):
    """An immutable set of places (a coordinate, an id, a name and string attributes) with a
    spatial index, searched by radius (:meth:`within`), k nearest (:meth:`nearest`) or region
    (:meth:`in_region`). Results come nearest first, ties in index order, by the exact distance
    of the model asked for (the value :func:`geoloc.distance` gives).

    Make one with :meth:`from_arrays`, :meth:`from_records`, :meth:`load_csv`,
    :meth:`parse_csv`, :meth:`load_geojson` or :meth:`parse_geojson`; close it with
    :meth:`close` or ``with``. ``len(places)`` is the number of places, ``places[i]`` (negative
    indices count from the end) and iteration give :class:`Place` records.

    Attributes: :meth:`attribute` returns None for a place without a value and raises
    NotFoundError for a name the set does not have (see :attr:`attribute_names`).
    """

    _gazetteer: Optional[_Handle]  # the gazetteer a borrowed set belongs to, else None
    _count: int
    _attribute_names: Tuple[str, ...]
    _attribute_keys: "frozenset[bytes]"
    _issues: Tuple[LoadIssue, ...]
    _issue_total: int

    def __init__(self) -> None:
        raise TypeError(
            "use Places.from_arrays, from_records, load_csv, parse_csv, load_geojson or parse_geojson"
        )

    @classmethod
    def _adopt(cls, ptr: Any, borrowed_from: Optional[_Handle] = None) -> "Places":
        """Wraps a new handle (or a gazetteer's set, which is never destroyed from here)."""
        self = object.__new__(cls)
        self._gazetteer = borrowed_from  # keeps the gazetteer object alive as long as this view
        if borrowed_from is None:
            self._owner = _Owner(ptr, _lib.geoloc_places_destroy, "Places")
        else:
            self._owner = _Owner(ptr, None, "Places", parent=borrowed_from._owner)
        try:
            self._read_header(ptr)
        except BaseException:
            self._owner.close()
            raise
        return self

    def _read_header(self, ptr: Any) -> None:
        # The set never changes: its size, attribute names and issues are read once.
        count = c_size_t()
        _lib.geoloc_places_count(ptr, byref(count))
        self._count = count.value
        _lib.geoloc_places_attribute_count(ptr, byref(count))
        names = []
        for j in range(count.value):

            def name_of(buf: Any, cap: int, needed: Any, j: int = j) -> Any:
                return _lib.geoloc_places_attribute_name(ptr, j, buf, cap, needed)

            names.append(_text_result(name_of))
        self._attribute_names = tuple(names)
        self._attribute_keys = frozenset(name.encode("utf-8") for name in names)
        _lib.geoloc_places_issue_count(ptr, byref(count))
        issues = []
        record = c_size_t()
        for i in range(count.value):

            def issue_of(buf: Any, cap: int, needed: Any, i: int = i) -> Any:
                return _lib.geoloc_places_issue(ptr, i, byref(record), buf, cap, needed)

            reason = _text_result(issue_of)  # sets record too
            issues.append(LoadIssue(record.value, reason))
        self._issues = tuple(issues)
        _lib.geoloc_places_issue_total(ptr, byref(count))
        self._issue_total = count.value

    # ---- making one ------------------------------------------------------------------------

    @classmethod
    def from_arrays(
        cls,
        coords: Any,
        ids: Optional[Iterable[Optional[IdLike]]] = None,
        names: Optional[Iterable[Optional[TextIn]]] = None,
        attributes: Optional[Mapping[TextIn, Sequence[Optional[TextIn]]]] = None,
    ) -> "Places":
        """A set from an (n, 2) array-like of (lat, lon) rows in degrees (or a :class:`LatLon`
        of two columns).

        ``ids`` and ``names`` are None or n texts (an entry may be None: the id is then the
        1-based index as text, the name ""). An id may also be an integer (a Python int, a numpy
        integer, or an integer array for all ids): it is its decimal text, so ``42`` is the id
        ``"42"`` and :meth:`id` reads it back as that text. ``attributes`` maps each attribute name to n values
        (None for absent). Raises ValueError for sequences of the wrong length,
        NotFiniteError / OutOfRangeError naming the first bad coordinate ("coords[7]: ..."),
        InvalidArgumentError for duplicate attribute names, InvalidUTF8Error.
        """
        pts = _points(coords, "coords")
        n = pts.shape[0]
        keep: List[Any] = [pts]  # everything the call points into

        def texts(values: Any, what: str, convert: Callable[[Any, str], Optional[bytes]] = _text) -> Any:
            if values is None:
                return None
            array = (ctypes.c_char_p * max(n, 1))(*_text_column(values, n, what, convert))
            keep.append(array)
            return array

        id_array = texts(ids, "ids", _id_text)
        name_array = texts(names, "names")
        attr_names = None
        attr_values = None
        n_attrs = 0
        if attributes is not None:
            if not isinstance(attributes, Mapping):
                raise TypeError("attributes must be a mapping of name -> values, not %s" % type(attributes).__name__)
            keys = [_text(k, "attribute name") for k in attributes.keys()]
            n_attrs = len(keys)
            flat: List[Optional[bytes]] = [None] * (n * n_attrs)
            for j, (key, values) in enumerate(attributes.items()):
                flat[j::n_attrs] = _text_column(values, n, "attributes[%r]" % (key,))
            attr_names = (ctypes.c_char_p * max(n_attrs, 1))(*keys)
            attr_values = (ctypes.c_char_p * max(n * n_attrs, 1))(*flat)
            keep.extend((attr_names, attr_values))
        out = PlacesPtr()
        _lib.geoloc_places_create(
            _coords_ptr(pts) if n else None, id_array, name_array, n, attr_names, n_attrs, attr_values, byref(out)
        )
        return cls._adopt(out)

    @classmethod
    def from_records(cls, records: Iterable[Any]) -> "Places":
        """A set from records: mappings with the keys ``lat`` / ``latitude``, ``lon`` / ``lng``
        / ``longitude``, optionally ``id`` and ``name``, every other key an attribute (values
        text or None; a key a record lacks is absent for it), or sequences
        ``(lat, lon[, id[, name]])``. An id may be an int (its decimal text, as in
        :meth:`from_arrays`). Errors name the record: "record 3 id must be ...",
        "record 7: latitude 91 is outside [-90, 90]"."""
        coords: List[Tuple[Any, Any]] = []
        ids: List[Optional[TextIn]] = []
        names: List[Optional[TextIn]] = []
        columns: Dict[Any, Dict[int, Any]] = {}
        lat_keys = ("lat", "latitude")
        lon_keys = ("lon", "lng", "longitude")
        def coord_of(lat: Any, lon: Any, i: int) -> Tuple[float, float]:
            return _float(lat, "record %d latitude" % i), _float(lon, "record %d longitude" % i)

        for i, rec in enumerate(records):
            if isinstance(rec, Mapping):
                lat_key = next((k for k in lat_keys if k in rec), None)
                lon_key = next((k for k in lon_keys if k in rec), None)
                if lat_key is None or lon_key is None:
                    raise ValueError("record %d has no %s" % (i, "latitude" if lat_key is None else "longitude"))
                coords.append(coord_of(rec[lat_key], rec[lon_key], i))
                ids.append(rec.get("id"))
                names.append(rec.get("name"))
                for key, value in rec.items():
                    if key in (lat_key, lon_key, "id", "name"):
                        continue
                    columns.setdefault(key, {})[i] = value
            else:
                wrong = "record %d must be a mapping or a (lat, lon, ...) sequence, not %s" % (i, type(rec).__name__)
                if isinstance(rec, (str, bytes)):
                    raise TypeError(wrong)
                try:
                    fields = list(rec)
                except TypeError:
                    raise TypeError(wrong) from None
                if not 2 <= len(fields) <= 4:
                    raise ValueError("record %d must be (lat, lon[, id[, name]]), not %d fields" % (i, len(fields)))
                coords.append(coord_of(fields[0], fields[1], i))
                ids.append(fields[2] if len(fields) > 2 else None)
                names.append(fields[3] if len(fields) > 3 else None)
        n = len(coords)
        # Each text is checked here, so a wrong one is named by its record, not by the column
        # from_arrays would build from it.
        id_bytes = [_id_text(v, "record %d id" % i) for i, v in enumerate(ids)]
        name_bytes = [_text(v, "record %d name" % i) for i, v in enumerate(names)]
        attributes = {
            key: [_text(col.get(i), "record %d attribute %r" % (i, key)) for i in range(n)]
            for key, col in columns.items()
        }
        try:
            return cls.from_arrays(
                numpy.array(coords, dtype=numpy.float64).reshape(n, 2),
                ids=id_bytes if any(v is not None for v in id_bytes) else None,
                names=name_bytes if any(v is not None for v in name_bytes) else None,
                attributes=attributes or None,
            )
        except GeolocError as err:
            # The library names the coordinate "coords[i]": to the caller it is record i.
            if err.message.startswith("coords[") and "]" in err.message:
                message = "record " + err.message[len("coords["):].replace("]", "", 1)
                raise type(err)(message, err.status) from None
            raise

    @classmethod
    def load_csv(
        cls,
        path: PathLike,
        *,
        strict: bool = False,
        latitude_column: Optional[TextIn] = None,
        longitude_column: Optional[TextIn] = None,
        id_column: Optional[TextIn] = None,
        name_column: Optional[TextIn] = None,
        delimiter: Optional[TextIn] = None,
        max_issues: Optional[int] = None,
        max_places: Optional[int] = None,
        max_bytes: Optional[int] = None,
        max_records: Optional[int] = None,
    ) -> "Places":
        """Places from a CSV file (RFC 4180, a header row naming the columns).

        The coordinate columns are found by the usual names (lat, latitude, y; lon, lng, long,
        longitude, x) unless named; the id column is id, geonameid or place_id (else the 1-based
        record number), the name column name or title; every other column is an attribute.
        ``delimiter`` None means ',' unless the header has a tab and no comma. Records that
        cannot be used are skipped and listed in :attr:`issues` with their line number; with
        ``strict`` the first one raises ParseError (or InvalidUTF8Error) instead.
        At most ``max_issues`` records are listed (default 1,000; :attr:`issue_total` counts
        them all), and more than ``max_places`` places (default GEOLOC_MAX_COUNT) raise
        CountTooLargeError, as do a file of more than ``max_bytes`` bytes or more than
        ``max_records`` records, usable or not (defaults GEOLOC_MAX_COUNT: see
        geoloc_load_limits).
        Raises NotFoundError (no such file), InvalidArgumentError (unreadable, no header or no
        coordinate columns, duplicate column names).
        """
        options = _load_options(strict, latitude_column, longitude_column, id_column, name_column, delimiter)
        out = PlacesPtr()
        limits = _load_limits(max_issues, max_places, max_bytes, max_records)
        _lib.geoloc_places_load_limited(_path(path), _LOAD_CSV, byref(options), byref(limits), byref(out))
        return cls._adopt(out)

    @classmethod
    def parse_csv(
        cls,
        text: TextIn,
        *,
        strict: bool = False,
        latitude_column: Optional[TextIn] = None,
        longitude_column: Optional[TextIn] = None,
        id_column: Optional[TextIn] = None,
        name_column: Optional[TextIn] = None,
        delimiter: Optional[TextIn] = None,
        max_issues: Optional[int] = None,
        max_places: Optional[int] = None,
        max_bytes: Optional[int] = None,
        max_records: Optional[int] = None,
    ) -> "Places":
        """As :meth:`load_csv`, from CSV text (str, or bytes the library checks as UTF-8)."""
        data = _blob(text, "text")
        options = _load_options(strict, latitude_column, longitude_column, id_column, name_column, delimiter)
        out = PlacesPtr()
        limits = _load_limits(max_issues, max_places, max_bytes, max_records)
        _lib.geoloc_places_parse_limited(data, len(data), _LOAD_CSV, byref(options), byref(limits), byref(out))
        return cls._adopt(out)

    @classmethod
    def load_geojson(
        cls,
        path: PathLike,
        *,
        strict: bool = False,
        id_column: Optional[TextIn] = None,
        name_column: Optional[TextIn] = None,
        max_issues: Optional[int] = None,
        max_places: Optional[int] = None,
        max_bytes: Optional[int] = None,
        max_records: Optional[int] = None,
    ) -> "Places":
        """Places from a GeoJSON file: a FeatureCollection of Point features, or one Feature.

        Properties become attributes (strings as they are, other values as compact JSON text,
        null as absent); the id is the ``id_column`` property, else the feature's "id", else the
        0-based feature index; the name the ``name_column`` property, else name or title.
        Unusable features are listed in :attr:`issues` by index, or raise ParseError with
        ``strict``. Malformed JSON raises ParseError (the message gives line and column).
        """
        options = _load_options(strict, None, None, id_column, name_column, None)
        out = PlacesPtr()
        limits = _load_limits(max_issues, max_places, max_bytes, max_records)
        _lib.geoloc_places_load_limited(_path(path), _LOAD_GEOJSON, byref(options), byref(limits), byref(out))
        return cls._adopt(out)

    @classmethod
    def parse_geojson(
        cls,
        text: Union[TextIn, Mapping[str, Any]],
        *,
        strict: bool = False,
        id_column: Optional[TextIn] = None,
        name_column: Optional[TextIn] = None,
        max_issues: Optional[int] = None,
        max_places: Optional[int] = None,
        max_bytes: Optional[int] = None,
        max_records: Optional[int] = None,
    ) -> "Places":
        """As :meth:`load_geojson`, from GeoJSON text or an already decoded mapping."""
        if isinstance(text, Mapping):
            text = json.dumps(text, allow_nan=False)
        data = _blob(text, "text")
        options = _load_options(strict, None, None, id_column, name_column, None)
        out = PlacesPtr()
        limits = _load_limits(max_issues, max_places, max_bytes, max_records)
        _lib.geoloc_places_parse_limited(data, len(data), _LOAD_GEOJSON, byref(options), byref(limits), byref(out))
        return cls._adopt(out)

    # ---- saving and opening ------------------------------------------------------------------

    def save(self, path: PathLike) -> None:
        """Saves the set (coordinates, ids, names, attributes and its index) to one file.

        :meth:`open` maps the file back in milliseconds, in this process or any other, and the
        reopened set answers every query exactly as this one. The format is versioned and
        checksummed (see ARCHITECTURE.md); the file is written under a temporary name and
        renamed over ``path``, so a process that has the earlier file open keeps reading it.
        Raises InvalidArgumentError (the file cannot be written), InvalidUTF8Error.
        """
        with self._use() as ptr:
            _lib.geoloc_places_save(ptr, _path(path))

    @classmethod
    def open(cls, path: PathLike) -> "Places":
        """A set saved by :meth:`save`, mapped read-only (mmap): nothing is parsed or rebuilt,
        and every process that opens the file shares its pages.

        Raises NotFoundError (no such file), ParseError (not a place file, truncated or
        corrupted: the message says which), UnsupportedError (a newer format version or another
        byte order), InvalidArgumentError (not a regular file).
        """
        out = PlacesPtr()
        _lib.geoloc_places_open(_path(path), byref(out))
        return cls._adopt(out)

    # ---- reading it ------------------------------------------------------------------------

    def _use(self) -> _Using:
        return _Using(self._owner, "Places")

    def __len__(self) -> int:
        self._check_open()
        return self._count

    def _index(self, i: Any) -> int:
        if isinstance(i, bool):
            raise TypeError("a place index must be an int, not bool")
        try:
            index = operator.index(i)
        except TypeError:
            raise TypeError("a place index must be an int, not %s" % type(i).__name__) from None
        self._check_open()
        n = self._count
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("place index %d is out of range for %d places" % (i, n))
        return index

    @property
    def issues(self) -> Tuple[LoadIssue, ...]:
        """The records a loader skipped, in file order (empty for sets made from arrays)."""
        self._check_open()
        return self._issues

    @property
    def issue_total(self) -> int:
        """How many records the loader skipped in all, those beyond ``max_issues`` included."""
        self._check_open()
        return self._issue_total

    @property
    def attribute_names(self) -> Tuple[str, ...]:
        """The set's attribute names, in column / first-seen order."""
        self._check_open()
        return self._attribute_names

    def coord(self, i: int) -> Coord:
        """The coordinate of place ``i`` (longitude reduced to [-180, 180)). IndexError outside the set."""
        index = self._index(i)
        out = CCoord()
        with self._use() as ptr:
            _lib.geoloc_places_coord(ptr, index, byref(out))
        return Coord(out.lat, out.lon)

    def id(self, i: int) -> str:
        """The id of place ``i``."""
        index = self._index(i)
        with self._use() as ptr:
            return _text_result(lambda buf, cap, needed: _lib.geoloc_places_id(ptr, index, buf, cap, needed))

    def name(self, i: int) -> str:
        """The name of place ``i`` ("" if it has none)."""
        index = self._index(i)
        with self._use() as ptr:
            return _text_result(lambda buf, cap, needed: _lib.geoloc_places_name(ptr, index, buf, cap, needed))

    def ids(self) -> List[str]:
        """Every place's id, in index order (``ids()[i] == id(i)``): a few library calls
        (geoloc_places_ids), not one per place."""
        return self._all_texts(_lib.geoloc_places_ids)

    def names(self) -> List[str]:
        """Every place's name ("" for none), in index order (``names()[i] == name(i)``)."""
        return self._all_texts(_lib.geoloc_places_names)

    def _all_texts(self, fn: Any) -> List[str]:
        # Slices of TEXT_SLICE places, each one call into one buffer of NUL-terminated texts
        # (two when the buffer was too small), decoded and split in one step.
        self._check_open()
        needed = c_size_t(0)
        cap = 0
        buf: Any = None
        out: List[str] = []
        with self._use() as ptr:
            for first in range(0, self._count, TEXT_SLICE):
                count = min(TEXT_SLICE, self._count - first)
                if cap < 16 * count:
                    cap = 16 * count
                    buf = ctypes.create_string_buffer(cap)
                try:
                    fn(ptr, first, count, buf, cap, byref(needed))
                except BufferTooSmallError:
                    if needed.value <= cap:  # pragma: no cover - a library bug
                        raise
                    cap = needed.value
                    buf = ctypes.create_string_buffer(cap)
                    fn(ptr, first, count, buf, cap, byref(needed))
                texts = _decode(ctypes.string_at(buf, needed.value - 1)).split("\0")
                if len(texts) != count:  # pragma: no cover - a library bug
                    raise InternalError("the library wrote %d texts for %d places" % (len(texts), count))
                out.extend(texts)
        return out

    def attribute(self, i: int, name: TextIn) -> Optional[str]:
        """The value of attribute ``name`` of place ``i``; None when this place has no value.

        Raises NotFoundError when the set has no attribute of that name (:attr:`attribute_names`
        lists them), IndexError for an index outside the set."""
        index = self._index(i)
        key = _text(name, "attribute name")
        with self._use() as ptr:

            def call(buf: Any, cap: int, needed: Any) -> Any:
                return _lib.geoloc_places_attribute(ptr, index, key, buf, cap, needed)

            if key not in self._attribute_keys:
                # Not one of the set's names: the library says why (no such attribute, not UTF-8).
                return _text_result(call)
            try:
                return _text_result(call)
            except NotFoundError:
                return None

    def attributes(self, i: int) -> Dict[str, Optional[str]]:
        """Every attribute of place ``i``: name -> value, None where it has none."""
        index = self._index(i)
        return {name: self.attribute(index, name) for name in self._attribute_names}

    def place(self, i: int) -> Place:
        """Every field of place ``i``."""
        index = self._index(i)
        return Place(index, self.coord(index), self.id(index), self.name(index), self.attributes(index))

    def __getitem__(self, i: int) -> Place:
        return self.place(i)

    def __iter__(self) -> Iterator[Place]:
        for i in range(len(self)):
            yield self.place(i)

    def coords(self) -> numpy.ndarray:
        """Every coordinate as a float64 array of shape (n, 2) (longitudes in [-180, 180))."""
        self._check_open()
        out = numpy.empty((self._count, 2), dtype=numpy.float64)
        count = c_size_t(0)
        with self._use() as ptr:
            _lib.geoloc_places_coords(ptr, out.ctypes.data_as(POINTER(CCoord)), self._count, byref(count))
        return out

    # ---- queries ---------------------------------------------------------------------------

    def within(
        self,
        center: CoordLike,
        radius: float,
        unit: UnitLike = Unit.METERS,
        model: ModelLike = Model.SPHERE,
        limit: Optional[int] = None,
    ) -> List[Match]:
        """Every place within ``radius`` (in ``unit``, >= 0) of ``center``: the geofence.

        Nearest first, ties in index order, distances in ``unit``. Correct across the
        antimeridian and at the poles; radius 0 finds places exactly at the centre, half the
        Earth or more finds every place. ``limit`` keeps the nearest that many (None: all).
        Raises NotFiniteError, OutOfRangeError (latitude, negative radius), InvalidArgumentError.
        """
        return self._within(_matches, _check_only, center, radius, unit, model, limit)

    def within_arrays(
        self,
        center: CoordLike,
        radius: float,
        unit: UnitLike = Unit.METERS,
        model: ModelLike = Model.SPHERE,
        limit: Optional[int] = None,
    ) -> Tuple["numpy.ndarray[Any, Any]", "numpy.ndarray[Any, Any]"]:
        """:meth:`within` as two arrays, ``(indices, distances)`` (int64 and float64, the same
        order), with no Python object per result: the form for large results (as fast as
        :meth:`within_many` for one centre). Arguments and errors as :meth:`within`."""
        return self._within(_match_arrays, _no_arrays, center, radius, unit, model, limit)

    def _within(
        self, collect: "_Collect[_R]", none: "_None[_R]", center: CoordLike, radius: float, unit: UnitLike,
        model: ModelLike, limit: Optional[int],
    ) -> _R:
        c = _coord(center, "center")
        r = _float(radius, "radius")
        u = coerce(Unit, unit, "unit")
        m = coerce(Model, model, "model")
        lim = 0 if limit is None else _count_arg(limit, "limit")
        with self._use() as ptr:

            def query(out: Any, cap: int, count: Any, lim: int = lim) -> Any:
                return _lib.geoloc_places_within(ptr, c, r, m, u, lim, out, cap, count)

            if limit is not None and lim == 0:  # none wanted: the arguments are still checked
                return none(lambda out, cap, count: query(out, cap, count, 1))
            return collect(query, min(lim or FIRST_CAPACITY, self._count))

    def nearest(
        self,
        point: CoordLike,
        k: int = 1,
        unit: UnitLike = Unit.METERS,
        model: ModelLike = Model.SPHERE,
        max_distance: Optional[float] = None,
    ) -> List[Match]:
        """The ``k`` places nearest to ``point``, exactly, nearest first, ties in index order,
        distances in ``unit``; fewer when the set is smaller or ``max_distance`` (in ``unit``;
        None for no bound) leaves fewer. Raises as :meth:`within`."""
        return self._nearest(_matches, point, k, unit, model, max_distance)

    def nearest_arrays(
        self,
        point: CoordLike,
        k: int = 1,
        unit: UnitLike = Unit.METERS,
        model: ModelLike = Model.SPHERE,
        max_distance: Optional[float] = None,
    ) -> Tuple["numpy.ndarray[Any, Any]", "numpy.ndarray[Any, Any]"]:
        """:meth:`nearest` as two arrays, ``(indices, distances)`` (int64 and float64), with no
        Python object per result. Arguments and errors as :meth:`nearest`."""
        return self._nearest(_match_arrays, point, k, unit, model, max_distance)

    def _nearest(
        self, collect: "_Collect[_R]", point: CoordLike, k: int, unit: UnitLike, model: ModelLike,
        max_distance: Optional[float],
    ) -> _R:
        p = _coord(point, "point")
        kk = _count_arg(k, "k")
        u = coerce(Unit, unit, "unit")
        m = coerce(Model, model, "model")
        md = float("inf") if max_distance is None else _float(max_distance, "max_distance")
        with self._use() as ptr:
            return collect(
                lambda out, cap, count: _lib.geoloc_places_nearest(ptr, p, kk, m, u, md, out, cap, count),
                min(kk, self._count),
            )

    def within_many(
        self,
        centers: Any,
        radius: float,
        unit: UnitLike = Unit.METERS,
        model: ModelLike = Model.SPHERE,
        limit: Optional[int] = None,
    ) -> Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
        """Radius search for many centres in one library call (no Python loop).

        ``centers`` is an (n, 2) array-like or a :class:`LatLon` of two columns. Returns ``(offsets, indices, distances)``: centre
        i's matches, as :meth:`within` gives them, are ``indices[offsets[i]:offsets[i + 1]]``
        and the same slice of ``distances`` (in ``unit``); ``offsets`` has n + 1 entries."""
        pts = _points(centers, "centers")
        n = pts.shape[0]
        r = _float(radius, "radius")
        u = coerce(Unit, unit, "unit")
        m = coerce(Model, model, "model")
        lim = 0 if limit is None else _count_arg(limit, "limit")
        offsets = numpy.zeros(n + 1, dtype=numpy.int64)
        count = c_size_t(0)
        cap = max(16 * n, 64)
        with self._use() as ptr:
            while True:
                out = (CMatch * cap)()
                try:
                    _lib.geoloc_places_within_many(
                        ptr, _coords_ptr(pts) if n else None, n, r, m, u, lim,
                        offsets.ctypes.data_as(POINTER(c_size_t)), out, cap, byref(count),
                    )
                    break
                except BufferTooSmallError:
                    cap = count.value  # the total is known now: one more call fits it
        total = count.value
        matches = numpy.frombuffer(out, dtype=numpy.dtype([("index", numpy.uint64), ("distance", numpy.float64)]), count=total)
        return offsets, matches["index"].astype(numpy.int64), matches["distance"].copy()

    def nearest_many(
        self,
        points: Any,
        k: int = 1,
        unit: UnitLike = Unit.METERS,
        model: ModelLike = Model.SPHERE,
        max_distance: Optional[float] = None,
    ) -> Tuple[numpy.ndarray, numpy.ndarray]:
        """The ``k`` nearest places to each of many points in one library call (no Python loop).

        ``points`` is an (n, 2) array-like or a :class:`LatLon` of two columns. Returns ``(indices, distances)``, both of shape
        (n, k): row i holds point i's matches as :meth:`nearest` gives them, padded with index -1
        and distance ``inf`` where fewer than ``k`` exist."""
        pts = _points(points, "points")
        n = pts.shape[0]
        kk = _count_arg(k, "k")
        u = coerce(Unit, unit, "unit")
        m = coerce(Model, model, "model")
        md = float("inf") if max_distance is None else _float(max_distance, "max_distance")
        indices = numpy.empty((n, kk), dtype=numpy.int64)  # SIZE_MAX padding reads as -1
        distances = numpy.empty((n, kk), dtype=numpy.float64)
        with self._use() as ptr:
            _lib.geoloc_places_nearest_many(
                ptr, _coords_ptr(pts) if n else None, n, kk, m, u, md,
                indices.ctypes.data_as(POINTER(c_size_t)), distances.ctypes.data_as(POINTER(c_double)),
            )
        return indices, distances

    def in_region(
        self,
        region: "Region",
        origin: Optional[CoordLike] = None,
        unit: UnitLike = Unit.METERS,
        model: ModelLike = Model.SPHERE,
        limit: Optional[int] = None,
    ) -> List[Match]:
        """The places inside ``region`` (boundary included): nearest first from ``origin`` with
        distances in ``unit`` (ties in index order), or without an origin in index order with
        distance 0. ``limit`` keeps the first that many (None: all)."""
        return self._in_region(_matches, _check_only, region, origin, unit, model, limit)

    def in_region_arrays(
        self,
        region: "Region",
        origin: Optional[CoordLike] = None,
        unit: UnitLike = Unit.METERS,
        model: ModelLike = Model.SPHERE,
        limit: Optional[int] = None,
    ) -> Tuple["numpy.ndarray[Any, Any]", "numpy.ndarray[Any, Any]"]:
        """:meth:`in_region` as two arrays, ``(indices, distances)`` (int64 and float64), with
        no Python object per result. Arguments and errors as :meth:`in_region`."""
        return self._in_region(_match_arrays, _no_arrays, region, origin, unit, model, limit)

    def _in_region(
        self, collect: "_Collect[_R]", none: "_None[_R]", region: "Region", origin: Optional[CoordLike],
        unit: UnitLike, model: ModelLike, limit: Optional[int],
    ) -> _R:
        if not isinstance(region, Region):
            raise TypeError("region must be a Region, not %s" % type(region).__name__)
        o = None if origin is None else _coord(origin, "origin")
        u = coerce(Unit, unit, "unit")
        m = coerce(Model, model, "model")
        lim = 0 if limit is None else _count_arg(limit, "limit")
        o_ref = None if o is None else byref(o)
        with self._use() as ptr, region._use() as rptr:

            def query(out: Any, cap: int, count: Any, lim: int = lim) -> Any:
                return _lib.geoloc_places_in_region(ptr, rptr, o_ref, m, u, lim, out, cap, count)

            if limit is not None and lim == 0:  # none wanted: the arguments are still checked
                return none(lambda out, cap, count: query(out, cap, count, 1))
            return collect(query, min(lim or FIRST_CAPACITY, self._count))

    def __repr__(self) -> str:
        if self.closed:
            return "<geoloc.Places closed>"
        extra = " (of a Gazetteer)" if self._gazetteer is not None else ""
        return "<geoloc.Places %d places, %d attributes, %d issues%s>" % (
            self._count,
            len(self._attribute_names),
            len(self._issues),
            extra,
        )


# --------------------------------------------------------------------------------------------
# Regions
# --------------------------------------------------------------------------------------------


class Region(_Handle):
    """A polygonal region (Polygon or MultiPolygon, x = longitude, y = latitude, degrees) prepared
    for point-in-polygon tests. Edges are straight in longitude/latitude; a polygon is not
    wrapped across the antimeridian. Immutable; close with :meth:`close` or ``with``."""

    def __init__(self) -> None:
        raise TypeError("use Region.from_wkt or Region.from_geojson")

    @classmethod
    def _adopt(cls, ptr: Any) -> "Region":
        self = object.__new__(cls)
        self._owner = _Owner(ptr, _lib.geoloc_region_destroy, "Region")
        return self

    @classmethod
    def from_wkt(cls, wkt: TextIn) -> "Region":
        """A region from WKT, e.g. "POLYGON((-90 38, -88 38, -88 40, -90 40, -90 38))".
        Raises ParseError (with GEOS's reason), InvalidArgumentError (not a Polygon or
        MultiPolygon, empty, invalid), OutOfRangeError (a vertex beyond ±90 / ±180)."""
        out = RegionPtr()
        _lib.geoloc_region_from_wkt(_text(wkt, "wkt"), byref(out))
        return cls._adopt(out)

    @classmethod
    def from_geojson(cls, geojson: Union[TextIn, Mapping[str, Any]]) -> "Region":
        """A region from GeoJSON text or a decoded mapping: a Polygon or MultiPolygon geometry,
        or a Feature or FeatureCollection of them. Raises as :meth:`from_wkt`."""
        out = RegionPtr()
        _lib.geoloc_region_from_geojson(_region_text(geojson, "geojson"), byref(out))
        return cls._adopt(out)

    def _use(self) -> _Using:
        return _Using(self._owner, "Region")

    def contains(self, coord: CoordLike) -> bool:
        """Whether ``coord`` lies in the region, its boundary included."""
        c = _coord(coord)
        inside = c_bool()
        with self._use() as ptr:
            _lib.geoloc_region_contains(ptr, c, byref(inside))
        return inside.value

    def __contains__(self, coord: CoordLike) -> bool:
        return self.contains(coord)

    def __repr__(self) -> str:
        return "<geoloc.Region%s>" % (" closed" if self.closed else "")
