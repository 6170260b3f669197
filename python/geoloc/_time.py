"""Time: the time zone at a point, and local time from the IANA time zone rules.

The zone at a point: the IANA zone of any coordinate on the shipped time-zone map
(timezone-boundary-builder 2026c, ODbL), exact to its polygons (:func:`timezone_at`, numpy
batches with :func:`timezone_at_many`, a map handle :class:`TimeZones`); and the local time
there (:func:`local_time_at`: the zone at the point, then its rules).

For a zone name ("America/Chicago", a link such as "US/Central", "UTC") and an instant (Unix
seconds): the UTC offset, daylight saving time, the abbreviation, the local date and time and
the next transition (:func:`local_time`); "2026-11-24 14:05 CST" (:func:`local_time_text`);
many instants of one zone in one library call, as numpy arrays (:func:`local_times`,
:func:`local_dates`: a track's fixes by day); and a local date and time read back to instants,
with the ambiguous and skipped times of a transition reported (:func:`resolve_local_time`).

The rules: the release the library ships (data/time/zoneinfo.rules, in the package beside
libgeoloc.so), or the system's /usr/share/zoneinfo when it holds a newer release
(:func:`tzdata_version`, :func:`tzdata_source`). The environment variables GEOLOC_TZRULES (the
compiled file) and GEOLOC_ZONEINFO (the system directory; "none" hides it) are read at the first
call that needs a zone. Results equal Python's zoneinfo on the same release. The rules are those
of include/geoloc.h, section 9.
"""

from __future__ import annotations

import ctypes
import operator
import threading
from ctypes import (
    POINTER, Structure, byref, c_bool, c_char, c_char_p, c_double, c_int, c_int8, c_int32, c_int64, c_size_t, c_uint16,
    c_void_p,
)
from datetime import datetime, timedelta, timezone
from typing import Any, Dict, List, NamedTuple, Optional, Union

import numpy

from . import _ffi, _geocoding, _tracking
from ._core import (
    MAX_COUNT, CoordLike, PathLike, _coord, _coords_ptr, _Handle, _path, _points, _text, _text_result,
)
from ._enums import Model, coerce
from ._errors import BufferTooSmallError, CountTooLargeError, InvalidArgumentError
from ._ffi import ENUM, STATUS, TEXT_OUT, CCoord

__all__ = [
    "TIME_MIN",
    "TIME_MAX",
    "TIME_STYLES",
    "LOCAL_TIME_DTYPE",
    "LocalTime",
    "LocalInstants",
    "local_time",
    "local_time_text",
    "local_times",
    "local_dates",
    "resolve_local_time",
    "tzif_local_time",
    "time_zone_names",
    "tzdata_version",
    "tzdata_source",
    "TimeZone",
    "TimeZones",
    "shared_timezones",
    "timezone_at",
    "timezone_at_many",
    "PlaceTime",
    "local_time_at",
    "local_times_at",
    "locality_zones",
    "LocalityTime",
    "locality_time",
    "fix_local_times",
    "LOCAL_DAY_DTYPE",
    "track_local_days",
]

# --------------------------------------------------------------------------------------------
# Local time
# --------------------------------------------------------------------------------------------

#: The first and last instants local time is computed for (0001-01-01T00:00:00Z and
#: 9999-12-31T23:59:59Z, Unix seconds).
TIME_MIN = -62135596800
TIME_MAX = 253402300799

#: The text styles, by name (their index is the C geoloc_time_style).
TIME_STYLES = ("minutes", "seconds", "iso8601", "12_hour")

#: The C geoloc_local_time as a numpy dtype (64 bytes): what :func:`local_times` returns.
#: ``next_transition`` is 2**63 - 1 when there is none.
LOCAL_TIME_DTYPE = numpy.dtype(
    [("instant", numpy.int64), ("next_transition", numpy.int64), ("utc_offset_s", numpy.int32),
     ("year", numpy.int32), ("month", numpy.int32), ("day", numpy.int32), ("hour", numpy.int32),
     ("minute", numpy.int32), ("second", numpy.int32), ("weekday", numpy.int32), ("day_of_year", numpy.int32),
     ("is_dst", numpy.bool_), ("abbreviation", "S11")]
)
assert LOCAL_TIME_DTYPE.itemsize == 64

_NO_TRANSITION = (1 << 63) - 1


class CLocalTime(Structure):
    _fields_ = [
        ("instant", c_int64), ("next_transition", c_int64), ("utc_offset_s", c_int32),
        ("year", c_int32), ("month", c_int32), ("day", c_int32), ("hour", c_int32), ("minute", c_int32),
        ("second", c_int32), ("weekday", c_int32), ("day_of_year", c_int32),
        ("is_dst", c_bool), ("abbreviation", c_char * 11),
    ]


class CLocalDateTime(Structure):
    _fields_ = [(n, c_int32) for n in ("year", "month", "day", "hour", "minute", "second")]


class CLocalInstants(Structure):
    _fields_ = [("before", c_int64), ("after", c_int64), ("transition", c_int64), ("kind", c_int),
                ("offset_before_s", c_int32), ("offset_after_s", c_int32)]


assert ctypes.sizeof(CLocalTime) == 64

_TEXT_ARGS = (TEXT_OUT, c_size_t, POINTER(c_size_t))

_ffi.declare({
    "geoloc_local_time_at": (STATUS, (c_char_p, c_int64, POINTER(CLocalTime)), True),
    "geoloc_local_times": (STATUS, (c_char_p, POINTER(c_double), c_size_t, POINTER(CLocalTime)), True),
    "geoloc_local_time_text": (STATUS, (c_char_p, c_int64, ENUM) + _TEXT_ARGS, True),
    "geoloc_local_time_resolve": (STATUS, (c_char_p, POINTER(CLocalDateTime), POINTER(CLocalInstants)), True),
    "geoloc_tzif_local_time": (STATUS, (c_void_p, c_size_t, c_int64, POINTER(CLocalTime)), True),
    "geoloc_time_zone_names": (STATUS, _TEXT_ARGS, True),
    "geoloc_tzdata_version": (STATUS, _TEXT_ARGS, True),
    "geoloc_tzdata_source": (STATUS, _TEXT_ARGS, True),
})

_lib = _ffi.lib  # looked up through this module, so a test can watch the calls


class LocalTime(NamedTuple):
    """What a zone's clocks show at an instant."""

    instant: int
    #: Seconds east of UTC (Chicago in winter: -21600).
    utc_offset_s: int
    is_dst: bool
    #: "CST", "+0330".
    abbreviation: str
    year: int
    month: int
    day: int
    hour: int
    minute: int
    second: int
    #: ISO 8601: 1 Monday .. 7 Sunday.
    weekday: int
    day_of_year: int
    #: The next instant at which the offset, DST or abbreviation changes; None when none does.
    next_transition: Optional[int]

    def datetime(self) -> datetime:
        """The local time as an aware datetime with a fixed offset named by the abbreviation
        (year 1 to 9999 only, as datetime allows)."""
        tz = timezone(timedelta(seconds=self.utc_offset_s), self.abbreviation)
        return datetime(self.year, self.month, self.day, self.hour, self.minute, self.second, tzinfo=tz)


class LocalInstants(NamedTuple):
    """A local date and time read back to instants.

    ``kind`` is "unique" (the clocks showed it once), "ambiguous" (twice: they were set back
    over it) or "skipped" (never: they were set forward over it). ``before`` and ``after`` read
    it with the offset before and after the transition (zoneinfo's fold=0 and fold=1): for
    "ambiguous" the first and second occurrences; for "skipped" an instant after the transition
    and one before it."""

    kind: str
    before: int
    after: int
    #: The transition's instant (None for "unique").
    transition: Optional[int]
    offset_before_s: int
    offset_after_s: int

    @property
    def instant(self) -> Optional[int]:
        """The instant when the local time is unique, else None."""
        return self.before if self.kind == "unique" else None


_KINDS = ("unique", "ambiguous", "skipped")


def _zone(zone: Any) -> bytes:
    data = _text(zone, "zone")
    if data is None:
        raise TypeError("zone must be a str (an IANA name such as 'America/Chicago'), not None")
    return data


def _instant(value: Any, what: str = "instant") -> int:
    """Unix seconds: an int (or an aware datetime, rounded down to a whole second)."""
    if isinstance(value, datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise InvalidArgumentError("%s is a naive datetime: give it a tzinfo, or pass Unix seconds" % what)
        delta = value - datetime(1970, 1, 1, tzinfo=timezone.utc)
        return delta.days * 86400 + delta.seconds
    if isinstance(value, bool) or value is None:
        raise TypeError("%s must be Unix seconds (an int), not %s" % (what, type(value).__name__))
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError("%s must be Unix seconds (an int) or an aware datetime, not %s" % (what, type(value).__name__)) from None
    if not -(1 << 63) <= number < (1 << 63):
        return TIME_MAX + 1 if number > 0 else TIME_MIN - 1  # the library names the range
    return number


def _style(style: Union[int, str]) -> int:
    if isinstance(style, str):
        key = style.lower().replace("-", "_")
        if key in ("12h", "twelve_hour"):
            key = "12_hour"
        if key not in TIME_STYLES:
            raise InvalidArgumentError("style %r is not one of %s" % (style, ", ".join(TIME_STYLES)))
        return TIME_STYLES.index(key)
    if isinstance(style, bool):
        raise TypeError("style must be a name or an int, not bool")
    return operator.index(style)


def _local_time(c: CLocalTime) -> LocalTime:
    return LocalTime(
        c.instant, c.utc_offset_s, bool(c.is_dst), c.abbreviation.decode("ascii"), c.year, c.month, c.day, c.hour,
        c.minute, c.second, c.weekday, c.day_of_year, None if c.next_transition == _NO_TRANSITION else c.next_transition)


def local_time(zone: str, instant: Any) -> LocalTime:
    """The local time in ``zone`` at ``instant`` (Unix seconds, or an aware datetime).

    >>> local_time("America/Chicago", 1795550709).abbreviation
    'CST'
    """
    out = CLocalTime()
    _lib.geoloc_local_time_at(_zone(zone), _instant(instant), byref(out))
    return _local_time(out)


def local_time_text(zone: str, instant: Any, style: Union[int, str] = "minutes") -> str:
    """The local time as text: "2026-11-24 14:05 CST" (style "minutes"), "... 14:05:09 CST"
    ("seconds"), "2026-11-24T14:05:09-06:00" ("iso8601"), "2:05 PM CST" ("12_hour")."""
    z, t, s = _zone(zone), _instant(instant), _style(style)
    return _text_result(lambda buf, cap, needed: _lib.geoloc_local_time_text(z, t, s, buf, cap, needed))


def _times(times: Any) -> numpy.ndarray:
    arr = numpy.ascontiguousarray(times, dtype=numpy.float64)
    if arr.ndim != 1:
        raise ValueError("times must be one-dimensional, not of shape %s" % (arr.shape,))
    if arr.shape[0] > MAX_COUNT:
        raise CountTooLargeError("times has %d values, more than GEOLOC_MAX_COUNT (%d)" % (arr.shape[0], MAX_COUNT))
    return arr


def local_times(zone: str, times: Any) -> numpy.ndarray:
    """The local times of many instants of one zone, in one library call: a structured array of
    :data:`LOCAL_TIME_DTYPE` (fields instant, next_transition, utc_offset_s, year, month, day,
    hour, minute, second, weekday, day_of_year, is_dst, abbreviation as bytes).

    ``times``: Unix seconds, any 1-D array-like of numbers (a fix array's time column), each
    rounded down to a whole second. A NaN or an instant outside the years 1-9999 raises, naming
    its index."""
    z = _zone(zone)
    arr = _times(times)
    out = numpy.zeros(arr.shape[0], dtype=LOCAL_TIME_DTYPE)
    _lib.geoloc_local_times(z, arr.ctypes.data_as(POINTER(c_double)), arr.shape[0], out.ctypes.data_as(POINTER(CLocalTime)))
    return out


def local_dates(zone: str, times: Any) -> numpy.ndarray:
    """The local date of each instant in ``zone`` (a track's fixes by the day they were on
    there): numpy ``datetime64[D]``, from one library call."""
    lt = local_times(zone, times)
    days = (lt["instant"] + lt["utc_offset_s"].astype(numpy.int64)) // 86400
    return days.astype("datetime64[D]")


def resolve_local_time(zone: str, year: Any, month: int = 1, day: int = 1, hour: int = 0, minute: int = 0,
                       second: int = 0) -> LocalInstants:
    """Reads a local date and time of ``zone`` back to instants (a naive datetime may stand for
    the fields: ``resolve_local_time("America/New_York", datetime(2026, 3, 8, 2, 30))``). The
    ambiguous and skipped times of a transition are reported in ``kind``, never guessed."""
    if isinstance(year, datetime):
        if year.tzinfo is not None:
            raise InvalidArgumentError("give a naive datetime (the zone's local time), not an aware one")
        d = year
        year, month, day, hour, minute, second = d.year, d.month, d.day, d.hour, d.minute, d.second
    fields = []
    for name, value in zip(("year", "month", "day", "hour", "minute", "second"), (year, month, day, hour, minute, second)):
        if isinstance(value, bool):
            raise TypeError("%s must be an int, not bool" % name)
        number = operator.index(value)
        fields.append(max(min(number, 1 << 30), -(1 << 30)))  # the library names the range
    local = CLocalDateTime(*fields)
    out = CLocalInstants()
    _lib.geoloc_local_time_resolve(_zone(zone), byref(local), byref(out))
    kind = _KINDS[out.kind]
    return LocalInstants(kind, out.before, out.after, None if kind == "unique" else out.transition,
                         out.offset_before_s, out.offset_after_s)


def tzif_local_time(data: bytes, instant: Any) -> LocalTime:
    """The local time at ``instant`` by the rules of a TZif file's bytes (RFC 8536: a file of
    /usr/share/zoneinfo, or one an app carries). A malformed file raises ParseError naming the
    fault; leap-second ("right/") files raise UnsupportedError."""
    raw = bytes(data)
    buf = ctypes.create_string_buffer(raw, len(raw) or 1)
    out = CLocalTime()
    _lib.geoloc_tzif_local_time(buf, len(raw), _instant(instant), byref(out))
    return _local_time(out)


def time_zone_names() -> List[str]:
    """Every zone name the rules know (zones and links), sorted."""
    return _text_result(_lib.geoloc_time_zone_names).splitlines()


def tzdata_version() -> str:
    """The IANA release of the rules in use ("2026f")."""
    return _text_result(_lib.geoloc_tzdata_version)


def tzdata_source() -> str:
    """Where zones are read from first: the compiled rules file, or the system directory when
    it holds the newer release."""
    return _text_result(_lib.geoloc_tzdata_source)


# --------------------------------------------------------------------------------------------
# The zone at a point
# --------------------------------------------------------------------------------------------


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

    _destroy = staticmethod(lambda p: _lib.geoloc_timezones_destroy(p))
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
        self._own(out)
        return self

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
        return int(out.zone)

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
        names: "numpy.ndarray[Any, Any]" = self._names_array[ids]
        return names

    def local_time_at(self, coord: CoordLike, instant: Any) -> "PlaceTime":
        """The zone at ``coord`` on this map and its local time at ``instant`` (Unix seconds,
        or an aware datetime). See :func:`local_time_at`."""
        with self._use() as ptr:
            return _place_time(ptr, coord, instant)

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


# --------------------------------------------------------------------------------------------
# Local time at a point
# --------------------------------------------------------------------------------------------

_ffi.declare({
    "geoloc_local_time_at_point": (STATUS, (TimeZonesPtr, CCoord, c_int64, POINTER(CLocalTime)) + _TEXT_ARGS, True),
})


class PlaceTime(NamedTuple):
    """The zone at a point and its local time there: ``zone`` is the IANA name ("Asia/Kathmandu";
    at sea "Etc/GMT+10", which is UTC-10: ``local_time.utc_offset_s`` gives the offset as people
    read it), ``local_time`` a :class:`LocalTime`."""

    zone: str
    local_time: LocalTime


def _place_time(ptr: Any, coord: CoordLike, instant: Any) -> PlaceTime:
    c, t = _coord(coord), _instant(instant)
    out = CLocalTime()
    zone = _text_result(lambda buf, cap, needed: _lib.geoloc_local_time_at_point(ptr, c, t, byref(out), buf, cap, needed))
    return PlaceTime(zone, _local_time(out))


def local_time_at(point: CoordLike, instant: Any, timezones: Optional[TimeZones] = None) -> PlaceTime:
    """The local time at ``point`` ((lat, lon) degrees) at ``instant`` (Unix seconds, or an aware
    datetime): the zone at the point on the shipped map (or ``timezones``), then that zone's IANA
    rules, in one library call.

    >>> local_time_at((27.7172, 85.3240), 1795550709)
    PlaceTime(zone='Asia/Kathmandu', local_time=LocalTime(instant=1795550709, utc_offset_s=20700, ...))

    Raises NotFiniteError / OutOfRangeError (the point, the instant), NotFoundError (no shipped
    map, no rules)."""
    if timezones is not None:
        return timezones.local_time_at(point, instant)
    return _place_time(None, point, instant)


# --------------------------------------------------------------------------------------------
# Beside the other capabilities: local times at many points; the zones of a reverse geocode
# --------------------------------------------------------------------------------------------


class CLocalityZone(Structure):
    """geoloc_locality_zone."""

    _fields_ = [("zone", CTimeZone), ("place_zone", CTimeZone)]


_ffi.declare({
    "geoloc_local_times_at_points": (
        STATUS, (TimeZonesPtr, POINTER(CCoord), POINTER(c_double), c_size_t, POINTER(CLocalTime), POINTER(c_uint16)), True),
    "geoloc_reverse_geocode_zones": (
        STATUS, (_geocoding.GazetteerPtr, TimeZonesPtr, POINTER(CCoord), c_size_t, POINTER(_geocoding.CReverseOptions),
                 POINTER(_geocoding.CLocality), POINTER(CLocalityZone)), True),
})


def _map_or_shipped(timezones: Optional[TimeZones]) -> TimeZones:
    return shared_timezones() if timezones is None else timezones


def local_times_at(points: Any, times: Any, timezones: Optional[TimeZones] = None,
                   with_zones: bool = False) -> Any:
    """The local time at each row of ``points`` ((n, 2) (lat, lon) degrees) at the instant of the
    same row of ``times`` (Unix seconds, a fix array's time column; each rounded down to a whole
    second), in one library call: a structured array of :data:`LOCAL_TIME_DTYPE`, as
    :func:`local_times` gives for one zone. A track that crosses zones gets each fix's own local
    time; ``lt["year"], lt["month"], lt["day"]`` are the local dates.

    With ``with_zones=True``, a pair ``(local_times, zones)``: the zone names (numpy str).
    The zones are the shipped map's, or ``timezones``'. Raises NotFiniteError / OutOfRangeError
    naming the first bad point or time (nothing is computed unless all pass), ValueError when the
    lengths differ."""
    pts = _points(points, "points")
    arr = _times(times)
    n = pts.shape[0]
    if arr.shape[0] != n:
        raise ValueError("points has %d rows but times has %d" % (n, arr.shape[0]))
    tz = _map_or_shipped(timezones)
    out = numpy.zeros(n, dtype=LOCAL_TIME_DTYPE)
    ids = numpy.zeros(n, dtype=numpy.uint16)
    with tz._use() as ptr:
        _lib.geoloc_local_times_at_points(ptr, _coords_ptr(pts), arr.ctypes.data_as(POINTER(c_double)), n,
                                          out.ctypes.data_as(POINTER(CLocalTime)), ids.ctypes.data_as(POINTER(c_uint16)))
    if not with_zones:
        return out
    tz.names
    assert tz._names_array is not None
    return out, tz._names_array[ids]


def locality_zones(points: Any, gazetteer: Optional[Any] = None, timezones: Optional[TimeZones] = None, *,
                   max_distance_m: Optional[float] = None,
                   country_reach_m: Optional[float] = None) -> Dict[str, "numpy.ndarray[Any, Any]"]:
    """Where each row of ``points`` is and its zones, in one library call: the arrays of
    :meth:`Gazetteer.localities` (``locality``, ``distance_m``, ... ; the shipped gazetteer, or
    ``gazetteer``) and ``zone``, the zone at the point (the clocks where it is: what "what time is
    it here" means, also with no locality), and ``place_zone``, the zone at the named place's
    coordinate (the locality, else the nearest place), as numpy str arrays; ``zone_id`` and
    ``place_zone_id`` are their numbers on the map (uint16). The two differ only where a point is
    nearer a town across a zone border. Errors as :meth:`Gazetteer.localities`."""
    g = _geocoding.shared_gazetteer() if gazetteer is None else gazetteer
    tz = _map_or_shipped(timezones)
    pts = _points(points, "points")
    n = pts.shape[0]
    out = (_geocoding.CLocality * max(n, 1))()
    zones = numpy.zeros((n, 2, 4), dtype=numpy.uint8)
    if n:
        with g._use() as gp, tz._use() as tp:
            _lib.geoloc_reverse_geocode_zones(
                gp, tp, _coords_ptr(pts), n, _geocoding._options(max_distance_m, country_reach_m, False), out,
                zones.ctypes.data_as(POINTER(CLocalityZone)))
    ids = zones[:, :, :2].copy().view(numpy.uint16).reshape(n, 2)
    tz.names
    assert tz._names_array is not None
    return {
        **_geocoding._locality_arrays(out, n),
        "zone": tz._names_array[ids[:, 0]],
        "place_zone": tz._names_array[ids[:, 1]],
        "zone_id": ids[:, 0].copy(),
        "place_zone_id": ids[:, 1].copy(),
    }


class LocalityTime(NamedTuple):
    """A reverse geocode with its zones and the local time there (:func:`locality_time`)."""

    #: The reverse geocode (:meth:`Gazetteer.reverse`): text, names, distances.
    place: Any
    #: The zone at the point: the clocks where it is ("America/Phoenix").
    zone: str
    #: The zone at the named place's coordinate ("America/Denver" for a Navajo Nation town).
    place_zone: str
    #: The local time at the point, in ``zone``.
    local_time: LocalTime

    def text(self, style: Union[int, str] = "12_hour") -> str:
        """"Kayenta, AZ, 2:05 PM MDT": the place's text and the local time."""
        return "%s, %s" % (self.place.text, local_time_text(self.zone, self.local_time.instant, style))


def locality_time(point: CoordLike, instant: Any, gazetteer: Optional[Any] = None,
                  timezones: Optional[TimeZones] = None, style: Any = "CITY_STATE") -> LocalityTime:
    """"Where am I and what time is it here": the reverse geocode of ``point`` (the shipped
    gazetteer, or ``gazetteer``; an address ``style``), its zones (see :func:`locality_zones`)
    and the local time at ``instant`` (Unix seconds, or an aware datetime) in the point's zone.
    ``locality_time((36.7103, -110.2546), t).text()`` is "Kayenta, AZ, 2:05 PM MDT"."""
    g = _geocoding.shared_gazetteer() if gazetteer is None else gazetteer
    t = _instant(instant)
    place = g.reverse(point, style)
    z = locality_zones(numpy.array([_coord(point).lat, _coord(point).lon], dtype=numpy.float64).reshape(1, 2), g,
                       timezones)
    zone = str(z["zone"][0])
    return LocalityTime(place, zone, str(z["place_zone"][0]), local_time(zone, t))


# --------------------------------------------------------------------------------------------
# Local dates of fixes and tracks
# --------------------------------------------------------------------------------------------

#: The C geoloc_local_day as a numpy dtype (48 bytes): what :func:`track_local_days` returns.
LOCAL_DAY_DTYPE = numpy.dtype(
    [("year", numpy.int32), ("month", numpy.int32), ("day", numpy.int32), ("weekday", numpy.int32),
     ("length_m", numpy.float64), ("duration_s", numpy.float64), ("fix_count", numpy.uintp), ("first_fix", numpy.uintp)]
)
assert LOCAL_DAY_DTYPE.itemsize == 48


class CLocalDay(Structure):
    """geoloc_local_day."""

    _fields_ = [("year", c_int32), ("month", c_int32), ("day", c_int32), ("weekday", c_int32),
                ("length_m", c_double), ("duration_s", c_double), ("fix_count", c_size_t), ("first_fix", c_size_t)]


assert ctypes.sizeof(CLocalDay) == 48

_ffi.declare({
    "geoloc_fix_local_times": (
        STATUS, (TimeZonesPtr, POINTER(_tracking.CFix), c_size_t, POINTER(CLocalTime), POINTER(c_uint16)), True),
    "geoloc_track_local_days": (
        STATUS, (TimeZonesPtr, POINTER(_tracking.CFix), c_size_t, POINTER(c_size_t), c_size_t, ENUM, POINTER(CLocalDay),
                 c_size_t, POINTER(c_size_t)), True),
})


def fix_local_times(fixes: Any, timezones: Optional[TimeZones] = None, with_zones: bool = False) -> Any:
    """The local time of each fix where it was taken (``fixes``: an (n, 7) fix array, times in
    Unix seconds), in one library call: a structured array of :data:`LOCAL_TIME_DTYPE`; with
    ``with_zones=True`` a pair ``(local_times, zone names)``. A track that crosses zones takes
    each fix's own zone. Raises NotFiniteError / OutOfRangeError naming the first bad fix."""
    arr = _tracking._fix_array(fixes)
    n = arr.shape[0]
    tz = _map_or_shipped(timezones)
    out = numpy.zeros(n, dtype=LOCAL_TIME_DTYPE)
    ids = numpy.zeros(n, dtype=numpy.uint16)
    with tz._use() as ptr:
        _lib.geoloc_fix_local_times(ptr, _tracking._fix_ptr(arr), n, out.ctypes.data_as(POINTER(CLocalTime)),
                                    ids.ctypes.data_as(POINTER(c_uint16)))
    if not with_zones:
        return out
    tz.names
    assert tz._names_array is not None
    return out, tz._names_array[ids]


def track_local_days(fixes: Any, starts: Optional[Any] = None, model: Any = "sphere",
                     timezones: Optional[TimeZones] = None) -> "numpy.ndarray[Any, Any]":
    """A track's length and moving time per local day ("miles per local day"), in date order:
    a structured array of :data:`LOCAL_DAY_DTYPE` (year, month, day, weekday, length_m,
    duration_s, fix_count, first_fix); ``numpy.array(["%04d-%02d-%02d" % (d["year"], d["month"],
    d["day"]) for d in days], dtype="datetime64[D]")`` are the dates.

    ``fixes``: an (n, 7) fix array, times in Unix seconds, NaN for a fix without one; ``starts``:
    the first fix of each segment (None: one segment). A fix's day is the local date of its time
    at its position; a fix without a time takes the day of the timed fix before it in its
    segment (else after it); a step counts wholly to the day of the fix it starts from; the gap
    between segments counts nowhere (include/geoloc.h, geoloc_track_local_days)."""
    arr = _tracking._fix_array(fixes)
    m = coerce(Model, model, "model")
    st = numpy.ascontiguousarray(numpy.zeros(0) if starts is None else starts, dtype=numpy.uintp).reshape(-1)
    k = st.shape[0]
    tz = _map_or_shipped(timezones)
    count = c_size_t(0)
    size_ptr = st.ctypes.data_as(POINTER(c_size_t)) if k else None
    with tz._use() as ptr:
        try:
            _lib.geoloc_track_local_days(ptr, _tracking._fix_ptr(arr), arr.shape[0], size_ptr, k, m, None, 0,
                                         byref(count))
        except BufferTooSmallError:
            pass
        out = numpy.zeros(count.value, dtype=LOCAL_DAY_DTYPE)
        if count.value:
            _lib.geoloc_track_local_days(ptr, _tracking._fix_ptr(arr), arr.shape[0], size_ptr, k, m,
                                         out.ctypes.data_as(POINTER(CLocalDay)), count.value, byref(count))
    return out
