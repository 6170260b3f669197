"""Time at a place: the time zone at a point (the shipped time-zone map), and local time."""

from __future__ import annotations

import threading
from ctypes import POINTER, Structure, byref, c_bool, c_char_p, c_int8, c_size_t, c_uint16
from typing import Any, List, NamedTuple, Optional

import numpy

from . import _ffi
from ._ffi import STATUS, TEXT_OUT, CCoord
from ._core import CoordLike, _coord, _coords_ptr, _points, _Handle, _Owner, _text, _text_result, _Using
from ._places import PathLike, _path

# ---------------------------------------------------------------------------------------------
# The zone at a point
# ---------------------------------------------------------------------------------------------


class CTimeZones(Structure):
    """geoloc_timezones (opaque)."""


TimeZonesPtr = POINTER(CTimeZones)


class CTimeZone(Structure):
    """geoloc_timezone."""

    _fields_ = [("zone", c_uint16), ("nautical", c_bool), ("utc_offset_hours", c_int8)]


_ffi.declare({
    "geoloc_timezones_open": (STATUS, (c_char_p, POINTER(TimeZonesPtr)), True),
    "geoloc_timezones_destroy": (None, (TimeZonesPtr,), False),
    "geoloc_timezones_count": (STATUS, (TimeZonesPtr, POINTER(c_size_t)), True),
    "geoloc_timezones_name": (STATUS, (TimeZonesPtr, c_uint16, TEXT_OUT, c_size_t, POINTER(c_size_t)), True),
    "geoloc_timezones_find": (STATUS, (TimeZonesPtr, c_char_p, POINTER(c_uint16)), True),
    "geoloc_timezones_version": (STATUS, (TimeZonesPtr, TEXT_OUT, c_size_t, POINTER(c_size_t)), True),
    "geoloc_timezone_at": (STATUS, (TimeZonesPtr, CCoord, POINTER(CTimeZone)), True),
    "geoloc_timezone_at_many": (STATUS, (TimeZonesPtr, POINTER(CCoord), c_size_t, POINTER(c_uint16)), True),
    "geoloc_timezone_name_at": (STATUS, (TimeZonesPtr, CCoord, TEXT_OUT, c_size_t, POINTER(c_size_t)), True),
})

_lib = _ffi.lib


class TimeZone(NamedTuple):
    """The zone at a point: its IANA name, its number in the map, whether it is a nautical zone
    (Etc/GMT±N, Etc/GMT, Etc/UTC) and, for a nautical zone, its offset from UTC in hours as people
    read it (+5 for "Etc/GMT-5", whose IANA name carries the opposite, POSIX sign); None for any
    other zone, whose offset depends on the date."""

    name: str
    zone: int
    nautical: bool
    utc_offset_hours: Optional[int]


class TimeZones(_Handle):
    """A time-zone map: the IANA zone of any point on Earth, on land, in territorial waters and at
    sea, exact to the boundary polygons it was built from (the shipped one: timezone-boundary-
    builder 2026c, (c) OpenStreetMap contributors, ODbL 1.0). The file is mapped read-only and
    shared between processes; lookups take no lock. Rules where the polygons do not settle it:
    a point on a border counts as west of it; where polygons of several zones overlap, the zone of
    smallest area wins; where none covers a point, the nautical zone of its longitude."""

    _names: Optional[List[str]] = None
    _names_array: Optional["numpy.ndarray[Any, Any]"] = None

    def __init__(self) -> None:
        raise TypeError("use TimeZones.open(path=None)")

    @classmethod
    def open(cls, path: Optional[PathLike] = None) -> "TimeZones":
        """Opens a map file (written by tools/gen_timezones.py), or with ``path`` None the shipped
        one, looked for at $GEOLOC_TIMEZONES, beside the library, then in the source tree; it is
        opened once per process and shared. Raises NotFoundError (the message names every path
        tried), ParseError (not a map, truncated or corrupted), UnsupportedError (a newer format)."""
        out = TimeZonesPtr()
        _lib.geoloc_timezones_open(_path(path), byref(out))
        self = object.__new__(cls)
        self._owner = _Owner(out, _lib.geoloc_timezones_destroy, "TimeZones")
        return self

    def _use(self) -> _Using:
        return _Using(self._owner, "TimeZones")

    @property
    def names(self) -> List[str]:
        """Every zone's name, by zone number (code-point order)."""
        if self._names is None:
            count = c_size_t(0)
            with self._use() as ptr:
                _lib.geoloc_timezones_count(ptr, byref(count))
                names = [
                    _text_result(lambda buf, cap, needed: _lib.geoloc_timezones_name(ptr, z, buf, cap, needed))
                    for z in range(count.value)
                ]
            self._names = names
            self._names_array = numpy.array(names, dtype=object)
        return self._names

    @property
    def version(self) -> str:
        """The boundary release the map was built from ("2026c")."""
        with self._use() as ptr:
            return _text_result(lambda buf, cap, needed: _lib.geoloc_timezones_version(ptr, buf, cap, needed))

    def name(self, zone: int) -> str:
        """The name of zone number ``zone``. Raises OutOfRangeError."""
        return self.names[zone] if 0 <= zone < len(self.names) else self._name_checked(zone)

    def _name_checked(self, zone: int) -> str:
        with self._use() as ptr:
            return _text_result(lambda buf, cap, needed: _lib.geoloc_timezones_name(ptr, zone, buf, cap, needed))

    def find(self, name: str) -> int:
        """The number of the zone named ``name`` (exactly). Raises NotFoundError."""
        out = c_uint16(0)
        with self._use() as ptr:
            _lib.geoloc_timezones_find(ptr, _text(name, "name"), byref(out))
        return out.value

    def zone_at(self, coord: CoordLike) -> str:
        """The name of the zone at ``coord`` ((lat, lon) degrees): "America/Chicago", or at sea
        "Etc/GMT+5" (UTC-5: mind the sign; :meth:`info_at` gives the offset as people read it).
        Raises NotFiniteError, OutOfRangeError."""
        return self.names[self.zone_id_at(coord)]

    def zone_id_at(self, coord: CoordLike) -> int:
        """The number of the zone at ``coord`` (an index into :attr:`names`)."""
        out = CTimeZone()
        c = _coord(coord)
        with self._use() as ptr:
            _lib.geoloc_timezone_at(ptr, c, byref(out))
        return out.zone

    def info_at(self, coord: CoordLike) -> TimeZone:
        """The zone at ``coord`` with its number, whether it is nautical and a nautical zone's
        offset from UTC as people read it."""
        out = CTimeZone()
        c = _coord(coord)
        with self._use() as ptr:
            _lib.geoloc_timezone_at(ptr, c, byref(out))
        return TimeZone(self.names[out.zone], out.zone, bool(out.nautical),
                        int(out.utc_offset_hours) if out.nautical else None)

    def zone_ids_at(self, points: Any) -> "numpy.ndarray[Any, Any]":
        """The zone numbers of every row of ``points`` (an (n, 2) array-like of (lat, lon)
        degrees, or a :class:`LatLon`; a C-contiguous float64 array is passed without a copy), in
        one library call: a uint16 array of shape (n,). Raises NotFiniteError / OutOfRangeError
        naming the first bad row (``points[7]: ...``); nothing is computed unless all pass."""
        pts = _points(points, "points")
        n = pts.shape[0]
        self._check_open()
        out = numpy.empty(n, dtype=numpy.uint16)
        if n:
            with self._use() as ptr:
                _lib.geoloc_timezone_at_many(ptr, _coords_ptr(pts), n, out.ctypes.data_as(POINTER(c_uint16)))
        return out

    def zones_at(self, points: Any) -> "numpy.ndarray[Any, Any]":
        """The zone names of every row of ``points``, as :meth:`zone_ids_at` then the names: a
        numpy array of str (dtype object) of shape (n,)."""
        ids = self.zone_ids_at(points)
        self.names
        assert self._names_array is not None
        return self._names_array[ids]

    def __repr__(self) -> str:
        return "<geoloc.TimeZones%s>" % (" closed" if self.closed else "")


_shared_lock = threading.Lock()
_shared: Optional[TimeZones] = None


def shared_timezones() -> TimeZones:
    """The shipped time-zone map, opened on first use and kept for the process (reopened if
    someone closed it). What :func:`timezone_at` uses."""
    global _shared
    with _shared_lock:
        if _shared is None or _shared.closed:
            _shared = TimeZones.open(None)
        return _shared


def timezone_at(coord: CoordLike) -> str:
    """The IANA zone at ``coord`` on the shipped map: ``timezone_at((41.88, -87.63))`` is
    "America/Chicago". See :meth:`TimeZones.zone_at`."""
    return shared_timezones().zone_at(coord)


def timezone_at_many(points: Any) -> "numpy.ndarray[Any, Any]":
    """The IANA zones of every row of ``points`` (shape (n, 2)) on the shipped map, in one call:
    a numpy array of str. See :meth:`TimeZones.zones_at`."""
    return shared_timezones().zones_at(points)


# ---------------------------------------------------------------------------------------------
# Local time
# ---------------------------------------------------------------------------------------------
