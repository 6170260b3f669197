"""Tracking: fixes, the fix filter and stop detection, geofence monitoring, tracks and track files.

Fixes travel as numpy arrays of shape (n, 7), float64, columns ``lat, lon, time, accuracy_m,
speed_mps, course_deg, altitude_m`` (the C ``geoloc_fix``; NaN for an absent speed, course or
altitude); :func:`fix_array` builds one from columns. Every call takes a whole batch and makes one
library call: there is no per-fix Python loop. Results come back as numpy arrays:

- :meth:`FixFilter.run`: a structured array with fields ``verdict`` and ``motion`` (int32; see
  :data:`VERDICTS` and :data:`MOTIONS`),
- :meth:`Monitor.run`: a structured array with fields ``fix``, ``region``, ``time`` and
  ``transition`` (0 enter, 1 dwell, 2 exit), in order of fix, then region, then transition.

A :class:`FixFilter` or :class:`Monitor` holds the state of one stream: use each from one thread
at a time. :class:`Geofences` is immutable and may be shared by many monitors and threads.
The rules are those of include/geoloc.h, section 8.
"""

from __future__ import annotations

import ctypes
import os
from ctypes import POINTER, Structure, byref, c_bool, c_char, c_char_p, c_double, c_int, c_size_t, c_void_p
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple, TypeVar, Union

import numpy

from . import _ffi
from ._core import (
    CLoadOptions, IdLike, LatLon, ModelLike, UnitLike, _bytes_arg, _float, _Handle, _handle_arg, _id_text, _points,
    _real_array, _renamed, _text_result, convert_length,
)
from ._enums import Model, Unit, coerce
from ._errors import BufferTooSmallError
from ._ffi import ENUM, STATUS, TEXT_OUT, CCoord

__all__ = [
    "FIX_COLUMNS",
    "VERDICTS",
    "MOTIONS",
    "TRANSITIONS",
    "ACTIVITIES",
    "fix_array",
    "filter_options",
    "FixFilter",
    "Geofences",
    "Monitor",
    "TrackStats",
    "track_stats",
    "simplify_track",
    "resample_track",
    "stay_points",
]

FIX_COLUMNS = ("lat", "lon", "time", "accuracy_m", "speed_mps", "course_deg", "altitude_m")
VERDICTS = ("kept", "dropped_time", "dropped_accuracy", "dropped_jump", "dropped_distance")
MOTIONS = ("none", "stopped", "moving")
TRANSITIONS = ("enter", "dwell", "exit")
ACTIVITIES = ("other", "automotive_navigation", "fitness", "other_navigation", "airborne")

DECISION_DTYPE = numpy.dtype([("verdict", numpy.int32), ("motion", numpy.int32)])
EVENT_DTYPE = numpy.dtype(
    [("fix", numpy.uintp), ("region", numpy.uintp), ("time", numpy.float64), ("transition", numpy.int32)], align=True
)
STAY_DTYPE = numpy.dtype(
    [("first", numpy.uintp), ("last", numpy.uintp), ("lat", numpy.float64), ("lon", numpy.float64),
     ("arrival", numpy.float64), ("departure", numpy.float64)],
    align=True,
)


# --------------------------------------------------------------------------------------------
# The C declarations of section 8
# --------------------------------------------------------------------------------------------


class CFix(Structure):
    _fields_ = [(name, c_double) for name in FIX_COLUMNS]


class CFilterOptions(Structure):
    _fields_ = [(n, c_double) for n in ("max_accuracy_m", "distance_filter_m", "max_speed_mps", "stop_radius_m", "stop_time_s")]


class CFixDecision(Structure):
    _fields_ = [("verdict", c_int), ("motion", c_int)]


class CCircleFence(Structure):
    _fields_ = [("id", c_char_p), ("center", CCoord), ("radius_m", c_double)]


class CPolygonFence(Structure):
    _fields_ = [("id", c_char_p), ("vertices", POINTER(CCoord)), ("n_vertices", c_size_t)]


class CMonitorOptions(Structure):
    _fields_ = [(n, c_double) for n in ("accuracy_factor", "enter_margin_m", "exit_margin_m", "loitering_time_s")]


class CGeofenceEvent(Structure):
    _fields_ = [("fix", c_size_t), ("region", c_size_t), ("time", c_double), ("transition", c_int)]


class CTrackStats(Structure):
    _fields_ = [
        (n, c_double)
        for n in ("length_m", "duration_s", "moving_time_s", "average_speed_mps", "moving_speed_mps",
                  "max_speed_mps", "elevation_gain_m", "elevation_loss_m")
    ] + [("altitude_count", c_size_t)]


class CStayPoint(Structure):
    _fields_ = [("first", c_size_t), ("last", c_size_t), ("center", CCoord), ("arrival", c_double),
                ("departure", c_double)]


class CFixFilter(Structure):
    """geoloc_fix_filter (opaque)."""


class CGeofences(Structure):
    """geoloc_geofences (opaque)."""


class CMonitor(Structure):
    """geoloc_monitor (opaque)."""


class CTrack(Structure):
    """geoloc_track (opaque)."""


FilterPtr = POINTER(CFixFilter)
GeofencesPtr = POINTER(CGeofences)
MonitorPtr = POINTER(CMonitor)
TrackPtr = POINTER(CTrack)

assert EVENT_DTYPE.itemsize == ctypes.sizeof(CGeofenceEvent)
assert STAY_DTYPE.itemsize == ctypes.sizeof(CStayPoint)

_status = STATUS
_enum = ENUM
_size_out = POINTER(c_size_t)
_text_out = TEXT_OUT

#: name -> (restype, argtypes, returns a geoloc_status), in header order.
FUNCTIONS = {
    "geoloc_filter_options_preset": (_status, (_enum, POINTER(CFilterOptions)), True),
    "geoloc_fix_filter_create": (_status, (POINTER(CFilterOptions), POINTER(FilterPtr)), True),
    "geoloc_fix_filter_destroy": (None, (FilterPtr,), False),
    "geoloc_fix_filter_run": (_status, (FilterPtr, POINTER(CFix), c_size_t, POINTER(CFixDecision)), True),
    "geoloc_fix_filter_stationary": (_status, (FilterPtr, POINTER(c_bool)), True),
    "geoloc_fix_filter_save": (_status, (FilterPtr, c_void_p, c_size_t, _size_out), True),
    "geoloc_fix_filter_restore": (_status, (c_void_p, c_size_t, POINTER(FilterPtr)), True),
    "geoloc_geofences_create": (
        _status, (POINTER(CCircleFence), c_size_t, POINTER(CPolygonFence), c_size_t, POINTER(GeofencesPtr)), True),
    "geoloc_geofences_destroy": (None, (GeofencesPtr,), False),
    "geoloc_geofences_count": (_status, (GeofencesPtr, _size_out), True),
    "geoloc_geofences_id": (_status, (GeofencesPtr, c_size_t, _text_out, c_size_t, _size_out), True),
    "geoloc_monitor_options_default": (_status, (POINTER(CMonitorOptions),), True),
    "geoloc_monitor_create": (_status, (GeofencesPtr, POINTER(CMonitorOptions), POINTER(MonitorPtr)), True),
    "geoloc_monitor_destroy": (None, (MonitorPtr,), False),
    "geoloc_monitor_run": (
        _status, (MonitorPtr, POINTER(CFix), c_size_t, POINTER(CGeofenceEvent), c_size_t, _size_out), True),
    "geoloc_monitor_inside": (_status, (MonitorPtr, _size_out, c_size_t, _size_out), True),
    "geoloc_monitor_save": (_status, (MonitorPtr, c_void_p, c_size_t, _size_out), True),
    "geoloc_monitor_restore": (_status, (GeofencesPtr, c_void_p, c_size_t, POINTER(MonitorPtr)), True),
    "geoloc_track_measure": (_status, (POINTER(CFix), c_size_t, _enum, c_double, POINTER(CTrackStats)), True),
    "geoloc_track_simplify": (_status, (POINTER(CCoord), c_size_t, c_double, _size_out, _size_out), True),
    "geoloc_track_resample": (
        _status, (POINTER(CFix), c_size_t, _enum, c_double, POINTER(CFix), c_size_t, _size_out), True),
    "geoloc_track_stay_points": (
        _status, (POINTER(CFix), c_size_t, c_double, c_double, POINTER(CStayPoint), c_size_t, _size_out), True),
    "geoloc_track_load_gpx": (_status, (c_char_p, POINTER(CLoadOptions), POINTER(TrackPtr)), True),
    "geoloc_track_parse_gpx": (_status, (c_char_p, c_size_t, POINTER(CLoadOptions), POINTER(TrackPtr)), True),
    "geoloc_track_load_geojson": (_status, (c_char_p, POINTER(CLoadOptions), POINTER(TrackPtr)), True),
    "geoloc_track_parse_geojson": (_status, (c_char_p, c_size_t, POINTER(CLoadOptions), POINTER(TrackPtr)), True),
    "geoloc_track_destroy": (None, (TrackPtr,), False),
    "geoloc_track_fixes": (_status, (TrackPtr, POINTER(CFix), c_size_t, _size_out), True),
    "geoloc_track_timed": (_status, (TrackPtr, POINTER(c_bool)), True),
    "geoloc_track_issue_count": (_status, (TrackPtr, _size_out), True),
    "geoloc_track_issue": (_status, (TrackPtr, c_size_t, _size_out, _text_out, c_size_t, _size_out), True),
    "geoloc_track_write_gpx": (_status, (POINTER(CFix), c_size_t, c_char_p, _text_out, c_size_t, _size_out), True),
    "geoloc_track_write_geojson": (_status, (POINTER(CFix), c_size_t, _text_out, c_size_t, _size_out), True),
}

_ffi.declare(FUNCTIONS)

_lib = _ffi.lib  # looked up through this module, so a test can watch the calls
_T = TypeVar("_T")


# --------------------------------------------------------------------------------------------
# Arguments
# --------------------------------------------------------------------------------------------


def fix_array(lat: Any, lon: Any, time: Any, accuracy_m: Any = 0.0, speed_mps: Any = None, course_deg: Any = None,
          altitude_m: Any = None) -> numpy.ndarray:
    """An (n, 7) fix array from columns (scalars broadcast; None for an absent column: NaN)."""
    lat = numpy.asarray(lat, dtype=numpy.float64)
    n = lat.shape[0] if lat.ndim else 1
    out = numpy.full((n, 7), numpy.nan)
    for k, col in enumerate((lat, lon, time, accuracy_m, speed_mps, course_deg, altitude_m)):
        if col is not None:
            out[:, k] = col
    return out


def _fix_array(value: Any, what: str = "fixes") -> numpy.ndarray:
    try:
        return _real_array(value, what, width=7)
    except ValueError as err:
        raise ValueError("%s (%s)" % (err, ", ".join(FIX_COLUMNS))) from None


def _fix_ptr(arr: numpy.ndarray) -> Any:
    return arr.ctypes.data_as(POINTER(CFix))


def _text_arg(value: Optional[Union[str, bytes]]) -> Optional[bytes]:
    if value is None:
        return None
    return value.encode("utf-8") if isinstance(value, str) else bytes(value)


def _activity(value: Union[int, str]) -> int:
    if isinstance(value, str):
        key = value.strip().lower().replace(" ", "_").replace("-", "_")
        if key == "automotive":
            key = "automotive_navigation"
        if key not in ACTIVITIES:
            raise ValueError("activity %r is not one of %s" % (value, ", ".join(ACTIVITIES)))
        return ACTIVITIES.index(key)
    return int(value)



def _bytes_result(call: Any) -> bytes:
    needed = c_size_t(0)
    try:
        call(None, 0, byref(needed))
    except BufferTooSmallError:
        pass
    buf = ctypes.create_string_buffer(max(needed.value, 1))
    call(buf, needed.value, byref(needed))
    return buf.raw[: needed.value]


# --------------------------------------------------------------------------------------------
# The fix filter
# --------------------------------------------------------------------------------------------


def filter_options(activity: Union[int, str] = "other") -> Dict[str, float]:
    """The preset options of an activity as a dict (the keys of FixFilter's options)."""
    o = CFilterOptions()
    _lib.geoloc_filter_options_preset(_activity(activity), byref(o))
    return {field[0]: getattr(o, field[0]) for field in CFilterOptions._fields_}


class FixFilter(_Handle):
    """The filter of one stream: ``FixFilter("fitness")``, ``FixFilter(distance_filter_m=10)``
    (unnamed options start from the activity's preset)."""

    _destroy = staticmethod(lambda p: _lib.geoloc_fix_filter_destroy(p))

    def __init__(self, activity: Union[int, str] = "other", **options: float) -> None:
        values = filter_options(activity)
        for key, value in options.items():
            if key not in values:
                raise TypeError("unknown filter option %r (known: %s)" % (key, ", ".join(values)))
            values[key] = float(value)
        o = CFilterOptions(**values)
        ptr = FilterPtr()
        _lib.geoloc_fix_filter_create(byref(o), byref(ptr))
        self._own(ptr)

    def run(self, fixes: Any) -> numpy.ndarray:
        """Decisions for n fixes: a structured array (verdict, motion), one call."""
        arr = _fix_array(fixes)
        out = numpy.zeros(arr.shape[0], dtype=DECISION_DTYPE)
        with self._use() as ptr:
            _lib.geoloc_fix_filter_run(ptr, _fix_ptr(arr), arr.shape[0], out.ctypes.data_as(POINTER(CFixDecision)))
        return out

    @property
    def stationary(self) -> bool:
        flag = c_bool(False)
        with self._use() as ptr:
            _lib.geoloc_fix_filter_stationary(ptr, byref(flag))
        return flag.value

    def save(self) -> bytes:
        """The options and state as bytes to store (versioned, checksummed)."""
        with self._use() as ptr:
            return _bytes_result(lambda buf, cap, needed: _lib.geoloc_fix_filter_save(ptr, buf, cap, needed))

    @classmethod
    def restore(cls, data: bytes) -> "FixFilter":
        """A filter from bytes of :meth:`save` (ParseError when they are not)."""
        data = _bytes_arg(data, "data")
        self = cls.__new__(cls)
        ptr = FilterPtr()
        _lib.geoloc_fix_filter_restore(data, len(data), byref(ptr))
        self._own(ptr)
        return self


# --------------------------------------------------------------------------------------------
# Geofences
# --------------------------------------------------------------------------------------------


class Geofences(_Handle):
    """A set of regions: circles (centres (n, 2) lat/lon or a :class:`LatLon`, radii in meters)
    then polygons (each a (k, 2) array of lat/lon vertices); ids optional (text, or an int that
    stands for its decimal text, as place ids). Region i is circle i for i < n."""

    _destroy = staticmethod(lambda p: _lib.geoloc_geofences_destroy(p))

    def __init__(self, centers: Any = (), radii: Any = (), ids: Optional[Sequence[Optional[IdLike]]] = None,
                 polygons: Sequence[Any] = (), polygon_ids: Optional[Sequence[Optional[IdLike]]] = None) -> None:
        c = (_points(centers, "centers") if isinstance(centers, LatLon)
             else _real_array(centers, "centers").reshape(-1, 2))
        r = _real_array(radii, "radii").reshape(-1)
        if r.shape[0] != c.shape[0]:
            raise ValueError("%d centres but %d radii" % (c.shape[0], r.shape[0]))
        n = c.shape[0]
        keep: List[Any] = []
        circles = (CCircleFence * max(n, 1))()
        id_bytes = [_id_text(s, "ids[%d]" % i) for i, s in enumerate(ids)] if ids is not None else [None] * n
        if len(id_bytes) != n:
            raise ValueError("%d ids for %d circles" % (len(id_bytes), n))
        for i in range(n):
            circles[i].id = id_bytes[i]
            circles[i].center = CCoord(c[i, 0], c[i, 1])
            circles[i].radius_m = r[i]
        if polygon_ids is not None and len(polygon_ids) != len(polygons):
            raise ValueError("%d polygon ids for %d polygons" % (len(polygon_ids), len(polygons)))
        polys = (CPolygonFence * max(len(polygons), 1))()
        pid = ([_id_text(s, "polygon_ids[%d]" % i) for i, s in enumerate(polygon_ids)] if polygon_ids is not None
               else [None] * len(polygons))
        for j, p in enumerate(polygons):
            v = _real_array(p, "polygons[%d]" % j).reshape(-1, 2)
            keep.append(v)
            polys[j].id = pid[j]
            polys[j].vertices = v.ctypes.data_as(POINTER(CCoord))
            polys[j].n_vertices = v.shape[0]
        ptr = GeofencesPtr()
        _lib.geoloc_geofences_create(circles, n, polys, len(polygons), byref(ptr))
        self._own(ptr)

    def __len__(self) -> int:
        n = c_size_t(0)
        with self._use() as ptr:
            _lib.geoloc_geofences_count(ptr, byref(n))
        return n.value

    @_renamed(index="i")
    def id(self, i: int) -> str:
        """The id of region ``i`` (``index=``, 0.2's name, still works with a DeprecationWarning)."""
        with self._use() as ptr:
            return _text_result(lambda buf, cap, needed: _lib.geoloc_geofences_id(ptr, i, buf, cap, needed))


class Monitor(_Handle):
    """Geofence monitoring of one stream over a :class:`Geofences` set."""

    _destroy = staticmethod(lambda p: _lib.geoloc_monitor_destroy(p))

    def __init__(self, fences: Geofences, accuracy_factor: float = 1.0, enter_margin_m: float = 5.0,
                 exit_margin_m: float = 5.0, loitering_time_s: float = 300.0) -> None:
        o = CMonitorOptions(float(accuracy_factor), float(enter_margin_m), float(exit_margin_m), float(loitering_time_s))
        ptr = MonitorPtr()
        with _handle_arg(fences, Geofences, "fences")._use() as fp:
            _lib.geoloc_monitor_create(fp, byref(o), byref(ptr))
        self._own(ptr)
        self._capacity = 1024

    def run(self, fixes: Any) -> numpy.ndarray:
        """The events of n fixes: a structured array (fix, region, time, transition)."""
        arr = _fix_array(fixes)
        with self._use() as ptr:
            return self._run(ptr, arr)

    def _run(self, ptr: Any, arr: numpy.ndarray) -> numpy.ndarray:
        needed = c_size_t(0)
        # Room for one event per 8 fixes (or more, if an earlier batch needed it): a batch with
        # more is refused by the library without any change and run again with the exact count.
        cap = max(self._capacity, arr.shape[0] // 8 + 64)
        for _ in range(2):
            out = numpy.empty(cap, dtype=EVENT_DTYPE)
            try:
                _lib.geoloc_monitor_run(ptr, _fix_ptr(arr), arr.shape[0], out.ctypes.data_as(POINTER(CGeofenceEvent)),
                                        cap, byref(needed))
                return out[: needed.value].copy() if needed.value < cap // 4 else out[: needed.value]
            except BufferTooSmallError:
                cap = needed.value
                self._capacity = min(needed.value, 1 << 20)
        raise RuntimeError("the events did not fit")

    def inside(self) -> numpy.ndarray:
        """The regions the stream is inside now, ascending."""
        count = c_size_t(0)
        with self._use() as ptr:
            try:
                _lib.geoloc_monitor_inside(ptr, None, 0, byref(count))
            except BufferTooSmallError:
                pass
            out = numpy.zeros(count.value, dtype=numpy.uintp)
            _lib.geoloc_monitor_inside(ptr, out.ctypes.data_as(_size_out), count.value, byref(count))
        return out

    def save(self) -> bytes:
        with self._use() as ptr:
            return _bytes_result(lambda buf, cap, needed: _lib.geoloc_monitor_save(ptr, buf, cap, needed))

    @classmethod
    def restore(cls, fences: Geofences, data: bytes) -> "Monitor":
        fences = _handle_arg(fences, Geofences, "fences")
        data = _bytes_arg(data, "data")
        self = cls.__new__(cls)
        ptr = MonitorPtr()
        with fences._use() as fp:
            _lib.geoloc_monitor_restore(fp, data, len(data), byref(ptr))
        self._own(ptr)
        self._capacity = 1024
        return self


# --------------------------------------------------------------------------------------------
# Tracks
# --------------------------------------------------------------------------------------------


class TrackStats(NamedTuple):
    length_m: float
    duration_s: float
    moving_time_s: float
    average_speed_mps: float
    moving_speed_mps: float
    max_speed_mps: float
    elevation_gain_m: float
    elevation_loss_m: float
    altitude_count: int


def track_stats(fixes: Any, model: ModelLike = Model.SPHERE, moving_speed_mps: float = 0.5) -> TrackStats:
    """Length (either model: a Model, its value or its name, as every other call takes it),
    duration, moving time, speeds and elevation of a track."""
    arr = _fix_array(fixes)
    m = coerce(Model, model, "model")
    s = CTrackStats()
    _lib.geoloc_track_measure(_fix_ptr(arr), arr.shape[0], m, float(moving_speed_mps), byref(s))
    return TrackStats(*(getattr(s, field[0]) for field in CTrackStats._fields_))


@_renamed(tolerance_m="tolerance")
def simplify_track(points: Any, tolerance: float, unit: UnitLike = Unit.METERS) -> numpy.ndarray:
    """Douglas-Peucker on the sphere: the indices kept (an (n, 2) lat/lon array, a
    :class:`LatLon` of two columns, or fixes), no point farther than ``tolerance`` (in ``unit``,
    meters by default) from the simplified track. ``tolerance_m=``, 0.3's name, still works."""
    arr = _points(points, "points") if isinstance(points, LatLon) else _real_array(points, "points")
    if arr.ndim == 2 and arr.shape[1] == 7:
        arr = numpy.ascontiguousarray(arr[:, :2])
    arr = arr.reshape(-1, 2)
    kept = numpy.zeros(arr.shape[0], dtype=numpy.uintp)
    count = c_size_t(0)
    _lib.geoloc_track_simplify(arr.ctypes.data_as(POINTER(CCoord)), arr.shape[0], _meters(tolerance, unit, "tolerance"),
                               kept.ctypes.data_as(_size_out), byref(count))
    return kept[: count.value]


def _meters(value: Any, unit: UnitLike, what: str) -> float:
    """A length given in ``unit`` in meters, for the library's meter arguments."""
    v = _float(value, what)
    u = coerce(Unit, unit, "unit")
    return v if u == Unit.METERS else convert_length(v, u, Unit.METERS)


def _sized(call: Any, dtype: Any, width: int = 0) -> numpy.ndarray:
    needed = c_size_t(0)
    try:
        call(None, 0, byref(needed))
        return numpy.zeros((0, width) if width else 0, dtype=dtype)
    except BufferTooSmallError:
        pass
    out = numpy.zeros((needed.value, width) if width else needed.value, dtype=dtype)
    call(out.ctypes.data, needed.value, byref(needed))
    return out


@_renamed(distance_m="distance")
def resample_track(
    fixes: Any, distance: Optional[float] = None, time_s: Optional[float] = None, unit: UnitLike = Unit.METERS
) -> numpy.ndarray:
    """Fixes every ``distance`` (in ``unit``, meters by default) along the track or every
    ``time_s`` seconds (give one). ``distance_m=``, 0.3's name, still works."""
    if (distance is None) == (time_s is None):
        raise TypeError("give one of distance and time_s")
    arr = _fix_array(fixes)
    mode, step = (0, _meters(distance, unit, "distance")) if distance is not None else (1, float(time_s or 0.0))
    return _sized(lambda out, cap, needed: _lib.geoloc_track_resample(
        _fix_ptr(arr), arr.shape[0], mode, float(step), ctypes.cast(out, POINTER(CFix)), cap, needed), numpy.float64, 7)


@_renamed(distance_m="distance")
def stay_points(fixes: Any, distance: float, time_s: float, unit: UnitLike = Unit.METERS) -> numpy.ndarray:
    """Stay points: a structured array (first, last, lat, lon, arrival, departure): runs of
    fixes within ``distance`` (in ``unit``, meters by default) of their first for at least
    ``time_s`` seconds. ``distance_m=``, 0.3's name, still works."""
    arr = _fix_array(fixes)
    # A stay has at least two fixes, so n // 2 + 1 is always room enough: one call.
    out = numpy.empty(arr.shape[0] // 2 + 1, dtype=STAY_DTYPE)
    needed = c_size_t(0)
    _lib.geoloc_track_stay_points(_fix_ptr(arr), arr.shape[0], _meters(distance, unit, "distance"), float(time_s),
                                  out.ctypes.data_as(POINTER(CStayPoint)), out.shape[0], byref(needed))
    return out[: needed.value].copy()
