"""Track files: GPX and GeoJSON tracks read and written, in segments, with routes, waypoints and
names, and the statistics of a track in segments (include/geoloc.h, section 8, "Tracks in files"
and "Tracks in segments").

:func:`read_gpx` returns a :class:`Track`: still the 0.3 tuple ``(fixes, issues, timed)``, with
the rest as attributes: ``points`` (every point, NaN for an absent time), ``segments`` (a
structured array: ``first``, ``count``, ``path``, ``kind``), ``segment`` (the segment index of
each point), ``waypoints``, ``path_names``, ``waypoint_names``, ``issue_total``, and
:meth:`Track.stats` for the statistics of each segment and of the whole.
"""

from __future__ import annotations

import ctypes
import os
from ctypes import POINTER, Structure, byref, c_bool, c_char_p, c_double, c_int, c_size_t
from typing import Any, List, NamedTuple, Optional, Sequence, Tuple

import numpy

from . import _ffi
from ._core import ModelLike, _load_options, _text_result
from ._enums import Model, coerce
from ._errors import BufferTooSmallError
from ._ffi import ENUM, STATUS, TEXT_OUT
from ._tracking import CFix, CTrackStats, TrackPtr, TrackStats, _fix_array, _fix_ptr, _lib, _text_arg

__all__ = [
    "SEGMENT_KINDS",
    "SegmentStats",
    "TrackMeasure",
    "Track",
    "measure_segments",
    "read_gpx",
    "read_track_geojson",
    "write_gpx",
    "write_track_geojson",
]

#: geoloc_segment_kind: what each segment is in its file.
SEGMENT_KINDS = ("track", "route")

SEGMENT_DTYPE = numpy.dtype(
    [("first", numpy.uintp), ("count", numpy.uintp), ("path", numpy.uintp), ("kind", numpy.int32)], align=True
)


class CTrackSegment(Structure):
    _fields_ = [("first", c_size_t), ("count", c_size_t), ("path", c_size_t), ("kind", c_int)]


class CSegmentStats(Structure):
    _fields_ = [
        ("stats", CTrackStats),
        ("point_count", c_size_t),
        ("timed_count", c_size_t),
        ("timed_length_m", c_double),
        ("start_time", c_double),
        ("end_time", c_double),
        ("backward_steps", c_size_t),
    ]


assert SEGMENT_DTYPE.itemsize == ctypes.sizeof(CTrackSegment)

_size_out = POINTER(c_size_t)

FUNCTIONS = {
    "geoloc_track_segments": (STATUS, (TrackPtr, POINTER(CTrackSegment), c_size_t, _size_out), True),
    "geoloc_track_points": (STATUS, (TrackPtr, POINTER(CFix), c_size_t, _size_out), True),
    "geoloc_track_waypoints": (STATUS, (TrackPtr, POINTER(CFix), c_size_t, _size_out), True),
    "geoloc_track_name": (STATUS, (TrackPtr, ENUM, c_size_t, TEXT_OUT, c_size_t, _size_out), True),
    "geoloc_track_issue_total": (STATUS, (TrackPtr, _size_out), True),
    "geoloc_track_measure_segments": (
        STATUS,
        (POINTER(CFix), c_size_t, _size_out, c_size_t, ENUM, c_double, POINTER(CSegmentStats), POINTER(CSegmentStats)),
        True,
    ),
    "geoloc_track_statistics": (
        STATUS, (TrackPtr, ENUM, c_double, POINTER(CSegmentStats), POINTER(CSegmentStats), c_size_t, _size_out), True),
}

_ffi.declare(FUNCTIONS)


class SegmentStats(NamedTuple):
    """The statistics of a segment or of a whole track: :class:`TrackStats`' figures, and how
    many points had a time (the speeds and moving time measure the steps between those), the
    length of the timed steps, the first and last time (NaN: none), and how many timed steps go
    back in time (not measured)."""

    length_m: float
    duration_s: float
    moving_time_s: float
    average_speed_mps: float
    moving_speed_mps: float
    max_speed_mps: float
    elevation_gain_m: float
    elevation_loss_m: float
    altitude_count: int
    point_count: int
    timed_count: int
    timed_length_m: float
    start_time: float
    end_time: float
    backward_steps: int


class TrackMeasure(NamedTuple):
    """The statistics of a track in segments: the whole (the segments together: the gaps
    between them are not movement) and each segment's."""

    whole: SegmentStats
    segments: List[SegmentStats]


def _segment_stats(c: CSegmentStats) -> SegmentStats:
    s = c.stats
    return SegmentStats._make([*(getattr(s, f[0]) for f in CTrackStats._fields_), c.point_count, c.timed_count,
                               c.timed_length_m, c.start_time, c.end_time, c.backward_steps])


def measure_segments(fixes: Any, starts: Optional[Sequence[int]] = None, model: ModelLike = Model.SPHERE,
                     moving_speed_mps: float = 0.5) -> TrackMeasure:
    """Statistics of a track in segments: ``fixes`` (n, 7) with NaN for an absent time, segment k
    from ``starts[k]`` to the next start (the last to the end); None: one segment of all."""
    arr = _fix_array(fixes)
    m = coerce(Model, model, "model")
    st = numpy.ascontiguousarray(numpy.zeros(0) if starts is None else starts, dtype=numpy.uintp).reshape(-1)
    k = st.shape[0]
    whole = CSegmentStats()
    per = (CSegmentStats * max(k, 1))()
    _lib.geoloc_track_measure_segments(_fix_ptr(arr), arr.shape[0], st.ctypes.data_as(_size_out) if k else None, k, m,
                                       float(moving_speed_mps), byref(whole), per if k else None)
    segs = [_segment_stats(per[i]) for i in range(k)] if k else [_segment_stats(whole)]
    return TrackMeasure(_segment_stats(whole), segs)


class _TrackTuple(NamedTuple):
    fixes: numpy.ndarray
    issues: List[Tuple[int, str]]
    timed: bool


class Track(_TrackTuple):
    """A track read from a file. As a tuple, 0.3's ``(fixes, issues, timed)``: the fixes (n, 7)
    with times 0, 1, 2, ... when no point has one, the first 1,000 issues as (record, reason),
    and whether any point had a time. Attributes:

    - ``points`` (n, 7): the same points with every absent value NaN (time included);
    - ``segments``: structured array ``first``, ``count``, ``path``, ``kind`` (0 a track
      segment, 1 a route; see :data:`SEGMENT_KINDS`), in document order;
    - ``segment``: the segment index of each point (int64, n);
    - ``waypoints`` (m, 7), ``waypoint_names``: the waypoints and their names (None: no name);
    - ``path_names``: the name of each path (a GPX trk or rte), None when it has none;
    - ``issue_total``: how many issues there were, those beyond ``issues`` included.
    """

    points: numpy.ndarray
    segments: numpy.ndarray
    segment: numpy.ndarray
    waypoints: numpy.ndarray
    waypoint_names: List[Optional[str]]
    path_names: List[Optional[str]]
    point_names: List[Optional[str]]
    issue_total: int

    def stats(self, model: ModelLike = Model.SPHERE, moving_speed_mps: float = 0.5) -> TrackMeasure:
        """The statistics of each segment and of the whole track."""
        starts = self.segments["first"] if len(self.segments) else None
        if starts is None:
            return TrackMeasure(measure_segments(self.points[:0], None, model, moving_speed_mps).whole, [])
        return measure_segments(self.points, [int(k) for k in starts], model, moving_speed_mps)


def _fixes(call: Any) -> numpy.ndarray:
    n = c_size_t(0)
    try:
        call(None, 0, byref(n))
    except BufferTooSmallError:
        pass
    arr = numpy.zeros((n.value, 7))
    call(_fix_ptr(arr), n.value, byref(n))
    return arr


def _name(ptr: Any, item: int, i: int) -> Optional[str]:
    text = _text_result(lambda buf, cap, needed: _lib.geoloc_track_name(ptr, item, i, buf, cap, needed))
    return text or None


def _read(kind: str, source: Any, strict: bool, point_names: bool) -> Track:
    o = _load_options(bool(strict))
    ptr = TrackPtr()
    if isinstance(source, (bytes, bytearray, memoryview)) or (isinstance(source, str) and source.lstrip()[:1] in ("<", "{")):
        data = source.encode("utf-8") if isinstance(source, str) else bytes(source)
        fn = _lib.geoloc_track_parse_gpx if kind == "gpx" else _lib.geoloc_track_parse_geojson
        fn(data, len(data), byref(o), byref(ptr))
    else:
        path = os.fsencode(source)
        fn = _lib.geoloc_track_load_gpx if kind == "gpx" else _lib.geoloc_track_load_geojson
        fn(path, byref(o), byref(ptr))
    try:
        fixes = _fixes(lambda out, cap, n: _lib.geoloc_track_fixes(ptr, out, cap, n))
        points = _fixes(lambda out, cap, n: _lib.geoloc_track_points(ptr, out, cap, n))
        waypoints = _fixes(lambda out, cap, n: _lib.geoloc_track_waypoints(ptr, out, cap, n))
        n = c_size_t(0)
        try:
            _lib.geoloc_track_segments(ptr, None, 0, byref(n))
        except BufferTooSmallError:
            pass
        segments = numpy.zeros(n.value, dtype=SEGMENT_DTYPE)
        _lib.geoloc_track_segments(ptr, segments.ctypes.data_as(POINTER(CTrackSegment)), n.value, byref(n))
        segment = numpy.repeat(numpy.arange(len(segments), dtype=numpy.int64), segments["count"].astype(numpy.int64))
        timed = c_bool(False)
        _lib.geoloc_track_timed(ptr, byref(timed))
        _lib.geoloc_track_issue_count(ptr, byref(n))
        issues = []
        for i in range(n.value):
            record = c_size_t(0)
            reason = _text_result(lambda buf, cap, needed: _lib.geoloc_track_issue(ptr, i, byref(record), buf, cap, needed))
            issues.append((record.value, reason))
        _lib.geoloc_track_issue_total(ptr, byref(n))
        track = Track(fixes, issues, timed.value)
        track.issue_total = n.value
        track.points = points
        track.segments = segments
        track.segment = segment
        track.waypoints = waypoints
        track.waypoint_names = [_name(ptr, 1, i) for i in range(len(waypoints))]
        paths = int(segments["path"].max()) + 1 if len(segments) else 0
        track.path_names = [_name(ptr, 2, i) for i in range(paths)]
        track.point_names = [_name(ptr, 0, i) for i in range(len(points))] if point_names else []
        return track
    finally:
        _lib.geoloc_track_destroy(ptr)


def read_gpx(source: Any, strict: bool = False, point_names: bool = False) -> Track:
    """A GPX 1.0 or 1.1 file (a path) or text (str starting with '<', or bytes, in any encoding
    its declaration names): tracks in segments, routes, waypoints. ``point_names=True`` also
    reads each point's name (``Track.point_names``; a library call per point)."""
    return _read("gpx", source, strict, point_names)


def read_track_geojson(source: Any, strict: bool = False, point_names: bool = False) -> Track:
    """A GeoJSON track from a path, or from GeoJSON text (str starting with '{', or bytes):
    each LineString and each line of a MultiLineString a segment, Point features waypoints."""
    return _read("geojson", source, strict, point_names)


def write_gpx(fixes: Any, name: Optional[str] = None) -> str:
    """Fixes as a GPX 1.1 document (a NaN time or altitude is left out)."""
    arr = _fix_array(fixes)
    title = _text_arg(name)
    return _text_result(lambda buf, cap, needed: _lib.geoloc_track_write_gpx(
        _fix_ptr(arr), arr.shape[0], title, buf, cap, needed))


def write_track_geojson(fixes: Any) -> str:
    """Fixes as a GeoJSON Feature with a LineString and the times (null where absent)."""
    arr = _fix_array(fixes)
    return _text_result(lambda buf, cap, needed: _lib.geoloc_track_write_geojson(
        _fix_ptr(arr), arr.shape[0], buf, cap, needed))
