"""Routes: path length, the round-trip mileage of the smart-field design, ETA, and the best order of stops."""

from __future__ import annotations

import dataclasses
import warnings
from ctypes import POINTER, Structure, byref, c_bool, c_char, c_char_p, c_double, c_int64, c_size_t, c_uint64
from typing import Any, Iterable, NamedTuple, Optional, Tuple, Union

import numpy

from . import _ffi
from ._enums import Model, Unit, coerce
from ._errors import (
    CountTooLargeError,
    HomeInvalidError,
    InvalidArgumentError,
    OutOfRangeError,
    WindowsMissedError,
)
from ._ffi import ENUM, STATUS, CCoord
from ._core import (
    MAX_COUNT,
    CoordLike,
    ModelLike,
    TextIn,
    UnitLike,
    _coord,
    _coords_ptr,
    _decode,
    _doubles_ptr,
    _float,
    _integer,
    _points,
    _real_array,
    _renamed,
    _text,
)

class CLeg(Structure):
    """geoloc_leg: one mileage leg; from/to are stop indices, -1 for home."""

    _fields_ = [("from_", c_int64), ("to", c_int64), ("distance", c_double)]


class CMileageResult(Structure):
    """geoloc_mileage_result."""

    _fields_ = [
        ("total", c_double),
        ("rounded", c_double),
        ("stops_used", c_size_t),
        ("stops_skipped", c_size_t),
        ("leg_count", c_size_t),
        ("text", c_char * 32),
    ]


_ffi.declare({
    "geoloc_route_length": (
        STATUS,
        (POINTER(CCoord), c_size_t, c_bool, ENUM, ENUM, POINTER(c_double), POINTER(c_double)),
        True,
    ),
    "geoloc_mileage": (
        STATUS,
        (
            c_char_p,
            POINTER(c_char_p),
            c_size_t,
            c_bool,
            ENUM,
            ENUM,
            POINTER(CMileageResult),
            POINTER(CLeg),
            c_size_t,
            POINTER(c_size_t),
            c_size_t,
        ),
        True,
    ),
    "geoloc_eta_minutes": (
        STATUS,
        (c_double, c_double, ENUM, c_double, POINTER(c_int64)),
        True,
    ),
})



class COrderOptions(Structure):
    """geoloc_order_options."""

    _fields_ = [("mode", ENUM), ("iterations", c_int64), ("time_limit_s", c_double), ("seed", c_uint64)]


class COrderResult(Structure):
    """geoloc_order_result."""

    _fields_ = [
        ("total", c_double),
        ("given_total", c_double),
        ("saving", c_double),
        ("proven_optimal", c_bool),
        ("stop_count", c_size_t),
        ("leg_count", c_size_t),
        ("text", c_char * 32),
        ("given_text", c_char * 32),
    ]


_ffi.declare({
    "geoloc_best_order": (
        STATUS,
        (CCoord, POINTER(CCoord), c_size_t, ENUM, c_size_t, ENUM, ENUM, POINTER(COrderOptions),
         POINTER(c_size_t), c_size_t, POINTER(c_double), c_size_t, POINTER(c_size_t), POINTER(COrderResult)),
        True,
    ),
    "geoloc_best_order_matrix": (
        STATUS,
        (POINTER(c_double), c_size_t, c_size_t, ENUM, c_size_t, POINTER(COrderOptions),
         POINTER(c_size_t), c_size_t, POINTER(c_double), c_size_t, POINTER(c_size_t), POINTER(COrderResult)),
        True,
    ),
})

_lib = _ffi.lib


# --------------------------------------------------------------------------------------------
# Routes and mileage
# --------------------------------------------------------------------------------------------


@_renamed(closed="round_trip")
def route_length(
    points: Any, round_trip: bool = False, unit: UnitLike = Unit.METERS, model: ModelLike = Model.SPHERE
) -> Tuple[float, numpy.ndarray]:
    """The length of the path through ``points`` (shape (n, 2), (lat, lon) degrees, or a
    :class:`LatLon` of two columns) in order,
    in ``unit``; ``round_trip`` adds the leg from the last point back to the first (``closed=``,
    0.3's name, still works with a DeprecationWarning).

    Returns ``(total, legs)``: legs is a float64 array of n - 1 leg lengths (n for a round trip;
    none for fewer than two points, when total is 0)."""
    pts = _points(points, "points")
    m = coerce(Model, model, "model")
    u = coerce(Unit, unit, "unit")
    n = pts.shape[0]
    legs = numpy.empty(0 if n < 2 else (n if round_trip else n - 1), dtype=numpy.float64)
    total = c_double()
    _lib.geoloc_route_length(_coords_ptr(pts), n, bool(round_trip), m, u, byref(total), _doubles_ptr(legs))
    return total.value, legs


def _coord_text(value: Any, what: str) -> Optional[bytes]:
    """A mileage point as the text the library reads: text as it is (the library parses it and
    skips what is malformed), a coordinate in any other form as "lat,lon" with every digit
    (repr), which reads back as the same doubles."""
    if value is None or isinstance(value, (str, bytes)):
        return _text(value, what)
    if isinstance(value, (bytearray, memoryview)):
        return _text(bytes(value), what)
    c = _coord(value, what)
    return ("%r,%r" % (c.lat, c.lon)).encode("ascii")


class Leg(NamedTuple):
    """One leg of a mileage route: indices into the stops (None for home), length in the unit asked."""

    from_index: Optional[int]
    to_index: Optional[int]
    distance: float


@dataclasses.dataclass(frozen=True)
class Mileage:
    """The result of :func:`mileage`."""

    #: The total length in the unit asked, not rounded.
    total: float
    #: total rounded half away from zero to one decimal.
    rounded: float
    #: ``rounded`` as text with one decimal ("123.4"), or "0" when there is nothing to measure.
    text: str
    #: How many stops counted.
    stops_used: int
    #: Indices of the stops skipped (missing or malformed coordinates), ascending.
    skipped: Tuple[int, ...]
    #: The legs in order.
    legs: Tuple[Leg, ...]
    #: Why home was refused (home given but malformed; the result is then "0"), else None.
    home_problem: Optional[str] = None


def mileage(
    home: Optional[Union[TextIn, CoordLike]],
    stops: Iterable[Optional[Union[TextIn, CoordLike]]],
    round_trip: bool = True,
    unit: UnitLike = Unit.MILES,
    model: ModelLike = Model.SPHERE,
) -> Mileage:
    """Round-trip mileage: ``home``, then ``stops`` in order, then home again (unless
    ``round_trip`` is False), in ``unit`` (miles by default: the mileage field's unit, the one
    distance of the package that is not in meters by default), text rounded to one decimal.
    ``home`` and each stop are "lat,lon" text (as the mileage field stores them) or a coordinate
    in any form the other calls take: a (lat, lon) tuple, a numpy pair, a :class:`Coord`.

    - home None, "" or blank raises NoHomeError ("set up your home location").
    - home malformed does not raise: the result has text "0", total 0, every stop skipped and
      ``home_problem`` set to the reason.
    - a stop that is None, empty or malformed is skipped and listed in ``skipped``; with no stop
      counted the text is "0".
    """
    if isinstance(stops, (str, bytes)):
        raise TypeError("stops must be a sequence of texts, not a single %s" % type(stops).__name__)
    texts = [_coord_text(s, "stop %d" % i) for i, s in enumerate(stops)]
    home_b = _coord_text(home, "home")
    m = coerce(Model, model, "model")
    u = coerce(Unit, unit, "unit")
    n = len(texts)
    if n > MAX_COUNT:
        raise CountTooLargeError("%d stops is more than GEOLOC_MAX_COUNT (%d)" % (n, MAX_COUNT))
    stop_array = (c_char_p * max(n, 1))(*texts)
    result = CMileageResult()
    # n + 1 legs at most (a round trip through every stop), n skipped at most: one call suffices.
    legs = (CLeg * (n + 1))()
    skipped = (c_size_t * (n + 1))()
    home_problem = None
    try:
        _lib.geoloc_mileage(home_b, stop_array, n, bool(round_trip), m, u, byref(result), legs, n + 1, skipped, n + 1)
    except HomeInvalidError as err:
        home_problem = err.message
    skipped_t = tuple(skipped[i] for i in range(result.stops_skipped))
    if home_problem is not None:
        legs_t: Tuple[Leg, ...] = ()
    else:
        legs_t = tuple(
            Leg(
                None if legs[i].from_ < 0 else legs[i].from_,
                None if legs[i].to < 0 else legs[i].to,
                legs[i].distance,
            )
            for i in range(result.leg_count)
        )
    return Mileage(
        total=result.total,
        rounded=result.rounded,
        text=_decode(result.text),
        stops_used=result.stops_used,
        skipped=skipped_t,
        legs=legs_t,
        home_problem=home_problem,
    )


def eta_minutes(
    distance: float, speed_per_hour: float, unit: UnitLike = Unit.KILOMETERS, detour_factor: float = 1.0
) -> int:
    """Estimated travel time in whole minutes, rounded up: ceil(distance * detour_factor /
    speed_per_hour * 60). ``distance`` (>= 0) is in ``unit``, ``speed_per_hour`` (> 0) in
    ``unit`` per hour, ``detour_factor`` (>= 1; about 1.2 to 1.4 for roads) stands in for the
    road network. Raises OutOfRangeError or NotFiniteError for values outside those ranges."""
    out = c_int64()
    _lib.geoloc_eta_minutes(
        _float(distance, "distance"),
        _float(speed_per_hour, "speed_per_hour"),
        coerce(Unit, unit, "unit"),
        _float(detour_factor, "detour_factor"),
        byref(out),
    )
    return out.value


# --------------------------------------------------------------------------------------------
# The best order of a day's stops
# --------------------------------------------------------------------------------------------

_ROUTE_ENDS = {"home": 0, "anywhere": 1}
_ORDER_MODES = {"auto": 0, "exact": 1, "heuristic": 2}


@dataclasses.dataclass(frozen=True)
class BestOrder:
    """The best visiting order found, and the given order's total beside it."""

    #: Stop indices in visiting order (int64 array).
    order: numpy.ndarray
    #: Each leg in order, home first (float64 array): n + 1 for a round trip, n otherwise.
    legs: numpy.ndarray
    #: The best order's total and the given order's, in the unit asked for.
    total: float
    given_total: float
    saving: float
    #: True when the order is proven optimal (the exact search ran, or there are 3 stops or fewer).
    proven_optimal: bool
    #: The totals as the mileage field shows them: "118.4" and "157.2" ("0" without stops).
    text: str
    given_text: str


def _route_end(end: Any, round_trip: Optional[bool], function: str) -> Any:
    """``end`` and ``round_trip`` as 0.3's ``end``: "home" for a round trip, "anywhere" for a
    route that ends at its last stop, or a stop index. 0.3's string values of ``end`` still work,
    with a DeprecationWarning naming ``round_trip``."""
    if isinstance(end, str) and end in _ROUTE_ENDS:
        if round_trip is not None:
            raise TypeError("%s() got both round_trip and end=%r" % (function, end))
        warnings.warn(
            "%s(end=%r) is deprecated; use round_trip=%s" % (function, end, end == "home"),
            DeprecationWarning,
            stacklevel=3,
        )
        return end
    if end is None:
        return "anywhere" if round_trip is False else "home"
    if round_trip:
        raise TypeError("%s(): a route that ends at stop %r is not a round trip" % (function, end))
    return end


def _order_arguments(n: int, end: Any, mode: str, iterations: Optional[int], time_limit: Optional[float],
                     seed: int) -> Tuple[int, int, COrderOptions]:
    """The route's end (kind and stop) and the search options, checked, for both best-order calls."""
    if isinstance(end, str):
        if end not in _ROUTE_ENDS:
            raise InvalidArgumentError("end %r is not 'home', 'anywhere' or a stop index" % (end,))
        end_kind, end_stop = _ROUTE_ENDS[end], 0
    else:
        end_stop = _integer(end, "end")
        if not 0 <= end_stop < n:
            raise OutOfRangeError("end stop %d is not one of the %d stops" % (end_stop, n))
        end_kind = 2
    if mode not in _ORDER_MODES:
        raise InvalidArgumentError("mode %r is not 'auto', 'exact' or 'heuristic'" % (mode,))
    options = COrderOptions(_ORDER_MODES[mode], 0, 0.0, _integer(seed, "seed") & 0xFFFFFFFFFFFFFFFF)
    if iterations is not None:
        it = _integer(iterations, "iterations")
        if it < 1:
            raise OutOfRangeError("iterations %d: a budget of nothing" % it)
        options.iterations = it
    if time_limit is not None:
        t = _float(time_limit, "time_limit")
        if not t > 0:
            raise OutOfRangeError("time limit %r s: a budget of nothing" % t)
        options.time_limit_s = t
    return end_kind, end_stop, options


def _order_call(call: Any, n: int, end: Any, mode: str, iterations: Optional[int], time_limit: Optional[float],
                seed: int) -> BestOrder:
    end_kind, end_stop, options = _order_arguments(n, end, mode, iterations, time_limit, seed)
    order = numpy.empty(n, dtype=numpy.uintp)
    legs = numpy.empty(n + 1, dtype=numpy.float64)
    needed = c_size_t()
    result = COrderResult()
    call(end_kind, end_stop, byref(options), order.ctypes.data_as(POINTER(c_size_t)), n,
         legs.ctypes.data_as(POINTER(c_double)), n + 1, byref(needed), byref(result))
    return BestOrder(
        order=order.astype(numpy.int64), legs=legs[: needed.value].copy(), total=result.total,
        given_total=result.given_total, saving=result.saving, proven_optimal=bool(result.proven_optimal),
        text=result.text.decode("ascii"), given_text=result.given_text.decode("ascii"),
    )


def best_order(
    home: CoordLike, stops: Any, end: Any = None, unit: UnitLike = Unit.METERS, model: ModelLike = Model.SPHERE,
    mode: str = "auto", iterations: Optional[int] = None, time_limit: Optional[float] = None, seed: int = 1,
    *, round_trip: Optional[bool] = None,
) -> BestOrder:
    """The order of ``stops`` (shape (n, 2), (lat, lon) degrees, or a :class:`LatLon`) that makes the route from
    ``home`` shortest, in ``unit`` (meters by default, as every distance but the mileage field).
    ``round_trip`` (the default) returns home, as ``route_length`` and ``mileage`` say it;
    ``round_trip=False`` ends at whichever stop is best; ``end``, a stop index, ends at that
    stop. (0.3's ``end="home"`` and ``end="anywhere"`` still work, with a DeprecationWarning.)
    ``mode``: ``"auto"`` (exact up to 16 stops; proven optimal up to 24 when a capped exact
    search finishes, see ``proven_optimal``), ``"exact"`` (at most 18 stops) or
    ``"heuristic"``; ``iterations`` and ``time_limit`` (seconds) bound the heuristic, which is
    deterministic for a ``seed`` without a time limit. One library call."""
    h = _coord(home, "home")
    pts = _points(stops, "stops")
    n = pts.shape[0]
    m = coerce(Model, model, "model")
    u = coerce(Unit, unit, "unit")
    ptr = _coords_ptr(pts)
    return _order_call(
        lambda e, s, o, order, cap, legs, lcap, needed, res: _lib.geoloc_best_order(
            h, ptr, n, e, s, m, u, o, order, cap, legs, lcap, needed, res),
        n, _route_end(end, round_trip, "best_order"), mode, iterations, time_limit, seed)


def best_order_matrix(
    matrix: Any, end: Any = None, mode: str = "auto", iterations: Optional[int] = None,
    time_limit: Optional[float] = None, seed: int = 1, *, round_trip: Optional[bool] = None,
) -> BestOrder:
    """The best order over a cost matrix the caller supplies: shape (n + 1, n + 1), row and
    column 0 home, i the stop i - 1, ``matrix[i, j]`` the cost from i to j (asymmetric allowed;
    the diagonal is ignored). Totals are in the matrix's unit. Other arguments as best_order."""
    arr = _real_array(matrix, "matrix")
    if arr.ndim != 2:
        raise InvalidArgumentError("matrix has shape %s; it must be (n + 1, n + 1)" % (arr.shape,))
    rows, cols = arr.shape
    ptr = arr.ctypes.data_as(POINTER(c_double))
    n = max(rows - 1, 0)
    if rows != cols or rows == 0:
        # The library says what is wrong with the shape.
        _lib.geoloc_best_order_matrix(ptr, rows, cols, 0, 0, None, None, 0, None, 0, byref(c_size_t()), byref(COrderResult()))
    return _order_call(
        lambda e, s, o, order, cap, legs, lcap, needed, res: _lib.geoloc_best_order_matrix(
            ptr, rows, cols, e, s, o, order, cap, legs, lcap, needed, res),
        n, _route_end(end, round_trip, "best_order_matrix"), mode, iterations, time_limit, seed)


# --------------------------------------------------------------------------------------------
# The best order with opening hours
# --------------------------------------------------------------------------------------------

class CTimeWindow(Structure):
    """geoloc_time_window."""

    _fields_ = [("earliest", c_double), ("latest", c_double)]


class CStopVisit(Structure):
    """geoloc_stop_visit."""

    _fields_ = [("stop", c_size_t), ("arrival", c_double), ("wait", c_double), ("departure", c_double),
                ("lateness", c_double)]


class CScheduleResult(Structure):
    """geoloc_schedule_result."""

    _fields_ = [
        ("travel", c_double),
        ("end_time", c_double),
        ("lateness", c_double),
        ("missed", c_size_t),
        ("feasible", c_bool),
        ("proven_optimal", c_bool),
        ("stop_count", c_size_t),
        ("leg_count", c_size_t),
    ]


_ffi.declare({
    "geoloc_best_order_windows": (
        STATUS,
        (POINTER(c_double), c_size_t, c_size_t, POINTER(CTimeWindow), POINTER(c_double), c_double, c_double, ENUM,
         c_size_t, POINTER(COrderOptions), POINTER(c_size_t), POINTER(CStopVisit), c_size_t, POINTER(c_double),
         c_size_t, POINTER(c_size_t), POINTER(CScheduleResult)),
        True,
    ),
    "geoloc_best_order_windows_coords": (
        STATUS,
        (CCoord, POINTER(CCoord), c_size_t, c_double, ENUM, POINTER(CTimeWindow), POINTER(c_double), c_double,
         c_double, ENUM, c_size_t, POINTER(COrderOptions), POINTER(c_size_t), POINTER(CStopVisit), c_size_t,
         POINTER(c_double), c_size_t, POINTER(c_size_t), POINTER(CScheduleResult)),
        True,
    ),
})

#: geoloc_status GEOLOC_E_WINDOWS_MISSED: no order meets every window (a soft failure).
_WINDOWS_MISSED = 17


@dataclasses.dataclass(frozen=True)
class Schedule:
    """The best order found with opening hours, and its schedule.

    Times are seconds on the caller's clock, or numpy datetime64 values when the windows or the
    departure were given as datetimes (then ``arrival``, ``departure`` and ``end_time`` are
    datetime64[us]; ``wait``, ``lateness`` and ``legs`` stay seconds).
    """

    #: Stop indices in visiting order (int64 array).
    order: numpy.ndarray
    #: Per stop, in visiting order: arrival, wait for the window to open, departure, lateness.
    arrival: numpy.ndarray
    wait: numpy.ndarray
    departure: numpy.ndarray
    lateness: numpy.ndarray
    #: Each leg's travel time, home first (n + 1 for a round trip, n otherwise).
    legs: numpy.ndarray
    #: The sum of the legs: the objective among orders that meet every window.
    travel: float
    #: The arrival back home for a round trip, the departure from the last stop otherwise.
    end_time: Any
    #: True when every window and the return deadline are met. When False the order is the one
    #: with the least total lateness (then the least travel): the library's status
    #: GEOLOC_E_WINDOWS_MISSED, reported here rather than raised.
    feasible: bool
    #: Total lateness in seconds (stops past their latest time, and the end past return_by).
    total_lateness: float
    #: How many windows are missed (a missed return deadline counts as one).
    missed: int
    #: True when the order is proven best (the exact search finished with a feasible order).
    proven_optimal: bool


_EPOCH = numpy.datetime64(0, "us")


def _is_datetime(x: Any) -> bool:
    import datetime
    return isinstance(x, (datetime.datetime, numpy.datetime64))


def _seconds(x: Any, name: str) -> float:
    """A time as seconds: a number, or a datetime (naive: taken as UTC; aware: its UTC instant)."""
    import datetime
    if isinstance(x, datetime.datetime):
        if x.tzinfo is not None:
            x = x.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        x = numpy.datetime64(x, "us")
    if isinstance(x, numpy.datetime64):
        return float((x.astype("datetime64[us]") - _EPOCH) / numpy.timedelta64(1, "us")) / 1e6
    return _float(x, name)


def _window_array(windows: Any, n: int) -> Tuple[Optional[numpy.ndarray], bool]:
    """(n, 2) earliest/latest seconds, None for NaN-free 'no windows'; True when datetimes were given."""
    if windows is None:
        return None, False
    arr = numpy.asarray(windows)
    out: "numpy.ndarray[Any, Any]"
    if arr.dtype.kind == "O" and arr.size and any(_is_datetime(v) for v in arr.ravel()):
        out = numpy.array([[_seconds(v, "window") if v is not None else numpy.nan for v in row] for row in arr],
                          dtype=numpy.float64).reshape(arr.shape)
        dates = True
    elif arr.dtype.kind == "M":
        out = ((arr.astype("datetime64[us]") - _EPOCH) / numpy.timedelta64(1, "us")).astype(numpy.float64) / 1e6
        # NaT: no bound on that side.
        out = numpy.where(numpy.isnat(arr), numpy.nan, out)
        dates = True
    else:
        out = _real_array(arr, "windows")
        dates = False
    if out.shape != (n, 2):
        raise InvalidArgumentError("windows have shape %s; they must be (%d, 2): earliest, latest" % (out.shape, n))
    out = out.copy()
    if dates:
        out[:, 0] = numpy.where(numpy.isnan(out[:, 0]), -numpy.inf, out[:, 0])
        out[:, 1] = numpy.where(numpy.isnan(out[:, 1]), numpy.inf, out[:, 1])
    return numpy.ascontiguousarray(out), dates


def _windows_call(call: Any, n: int, windows: Any, service: Any, departure: Any, return_by: Any, end: Any,
                  mode: str, iterations: Optional[int], time_limit: Optional[float], seed: int) -> Schedule:
    w, dates = _window_array(windows, n)
    dates = dates or _is_datetime(departure) or _is_datetime(return_by)
    dep = _seconds(departure, "departure")
    ret = numpy.inf if return_by is None else _seconds(return_by, "return_by")
    svc = None
    if service is not None:
        s = numpy.asarray(service)
        if s.dtype.kind == "m":
            s = s / numpy.timedelta64(1, "s")
        svc = _real_array(s, "service times")
        if svc.shape != (n,):
            raise InvalidArgumentError("service times have shape %s; they must be (%d,)" % (svc.shape, n))
    end_kind, end_stop, options = _order_arguments(n, end, mode, iterations, time_limit, seed)
    order = numpy.empty(n, dtype=numpy.uintp)
    visits = (CStopVisit * max(n, 1))()
    legs = numpy.empty(n + 1, dtype=numpy.float64)
    needed = c_size_t()
    result = CScheduleResult()
    wptr = None if w is None else w.ctypes.data_as(POINTER(CTimeWindow))
    sptr = None if svc is None else svc.ctypes.data_as(POINTER(c_double))
    try:
        call(wptr, sptr, dep, ret, end_kind, end_stop, byref(options), order.ctypes.data_as(POINTER(c_size_t)),
             visits, n, legs.ctypes.data_as(POINTER(c_double)), n + 1, byref(needed), byref(result))
    except WindowsMissedError:
        pass  # a soft failure: the schedule says feasible False

    def field(name: str) -> "numpy.ndarray[Any, Any]":
        return numpy.array([getattr(v, name) for v in visits[:n]], dtype=numpy.float64)

    arrival, wait, departure_t, late = (field(k) for k in ("arrival", "wait", "departure", "lateness"))
    end_time: Any = result.end_time
    if dates:
        def to_dt(x: Any) -> Any:
            return _EPOCH + (numpy.asarray(x) * 1e6).round().astype("int64").astype("timedelta64[us]")
        arrival, departure_t, end_time = to_dt(arrival), to_dt(departure_t), to_dt(end_time)[()]
    return Schedule(
        order=order.astype(numpy.int64), arrival=arrival, wait=wait, departure=departure_t, lateness=late,
        legs=legs[: needed.value].copy(), travel=result.travel, end_time=end_time, feasible=bool(result.feasible),
        total_lateness=result.lateness, missed=int(result.missed), proven_optimal=bool(result.proven_optimal),
    )


def best_order_windows(
    home: CoordLike, stops: Any, speed: float, windows: Any = None, service: Any = None, departure: Any = 0.0,
    return_by: Any = None, end: Any = None, model: ModelLike = Model.SPHERE, mode: str = "auto",
    iterations: Optional[int] = None, time_limit: Optional[float] = None, seed: int = 1,
    *, round_trip: Optional[bool] = None,
) -> Schedule:
    """The best order of ``stops`` with opening hours, travel times being distance over ``speed``
    (meters per second). ``windows``: shape (n, 2), each stop's earliest and latest arrival
    (seconds, or datetimes; +-inf or NaT for no bound; None: always open); ``service``: n
    seconds (or timedelta64) per stop; ``departure``: when the route leaves home; ``return_by``:
    the latest end (None: none). Waiting for a window to open is allowed. Among orders that
    meet every window the result has the least travel time; when none does, ``feasible`` is
    False and the order has the least total lateness (never a silent violation).
    ``round_trip`` (the default) returns home by ``return_by``; ``round_trip=False`` ends at
    whichever stop is best; ``end``, a stop index, ends at that stop (``end="home"`` and
    ``end="anywhere"`` still work, with a DeprecationWarning, as in best_order). Other
    arguments as best_order; one library call."""
    h = _coord(home, "home")
    pts = _points(stops, "stops")
    n = pts.shape[0]
    m = coerce(Model, model, "model")
    ptr = _coords_ptr(pts)
    v = _float(speed, "speed")
    return _windows_call(
        lambda w, s, dep, ret, e, es, o, order, visits, cap, legs, lcap, needed, res:
            _lib.geoloc_best_order_windows_coords(h, ptr, n, v, m, w, s, dep, ret, e, es, o, order, visits, cap, legs,
                                                  lcap, needed, res),
        n, windows, service, departure, return_by, _route_end(end, round_trip, "best_order_windows"), mode,
        iterations, time_limit, seed)


def best_order_windows_matrix(
    times: Any, windows: Any = None, service: Any = None, departure: Any = 0.0, return_by: Any = None,
    end: Any = None, mode: str = "auto", iterations: Optional[int] = None, time_limit: Optional[float] = None,
    seed: int = 1, *, round_trip: Optional[bool] = None,
) -> Schedule:
    """The best order with opening hours over a travel-time matrix the caller supplies: shape
    (n + 1, n + 1), row and column 0 home, ``times[i, j]`` from i to j (one-way allowed), in the
    windows' unit (seconds with datetimes). Other arguments as best_order_windows."""
    arr = _real_array(times, "times")
    if arr.ndim != 2:
        raise InvalidArgumentError("times has shape %s; it must be (n + 1, n + 1)" % (arr.shape,))
    rows, cols = arr.shape
    ptr = arr.ctypes.data_as(POINTER(c_double))
    n = max(rows - 1, 0)
    if rows != cols or rows == 0:
        _lib.geoloc_best_order_windows(ptr, rows, cols, None, None, 0.0, numpy.inf, 0, 0, None, None, None, 0, None, 0,
                                       byref(c_size_t()), byref(CScheduleResult()))
    return _windows_call(
        lambda w, s, dep, ret, e, es, o, order, visits, cap, legs, lcap, needed, res:
            _lib.geoloc_best_order_windows(ptr, rows, cols, w, s, dep, ret, e, es, o, order, visits, cap, legs, lcap,
                                           needed, res),
        n, windows, service, departure, return_by, _route_end(end, round_trip, "best_order_windows_matrix"), mode,
        iterations, time_limit, seed)
