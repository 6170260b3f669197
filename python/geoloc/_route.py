"""Routes: path length, the round-trip mileage of the smart-field design, ETA, and the best order of stops."""

from __future__ import annotations

import dataclasses
from ctypes import POINTER, Structure, byref, c_bool, c_char, c_char_p, c_double, c_int64, c_size_t, c_uint64
from typing import Any, Iterable, NamedTuple, Optional, Tuple

import numpy

from . import _ffi
from ._enums import Model, Unit, coerce
from ._errors import (
    CountTooLargeError,
    HomeInvalidError,
    InvalidArgumentError,
    OutOfRangeError,
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


def route_length(
    points: Any, closed: bool = False, unit: UnitLike = Unit.METERS, model: ModelLike = Model.SPHERE
) -> Tuple[float, numpy.ndarray]:
    """The length of the path through ``points`` (shape (n, 2), (lat, lon) degrees, or a
    :class:`LatLon` of two columns) in order,
    in ``unit``; ``closed`` adds the leg from the last point back to the first.

    Returns ``(total, legs)``: legs is a float64 array of n - 1 leg lengths (n when closed;
    none for fewer than two points, when total is 0)."""
    pts = _points(points, "points")
    m = coerce(Model, model, "model")
    u = coerce(Unit, unit, "unit")
    n = pts.shape[0]
    legs = numpy.empty(0 if n < 2 else (n if closed else n - 1), dtype=numpy.float64)
    total = c_double()
    _lib.geoloc_route_length(_coords_ptr(pts), n, bool(closed), m, u, byref(total), _doubles_ptr(legs))
    return total.value, legs


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
    home: Optional[TextIn],
    stops: Iterable[Optional[TextIn]],
    round_trip: bool = True,
    unit: UnitLike = Unit.MILES,
    model: ModelLike = Model.SPHERE,
) -> Mileage:
    """Round-trip mileage: ``home`` ("lat,lon" text), then ``stops`` in order, then home again
    (unless ``round_trip`` is False), in ``unit`` (miles by default), text rounded to one decimal.

    - home None, "" or blank raises NoHomeError ("set up your home location").
    - home malformed does not raise: the result has text "0", total 0, every stop skipped and
      ``home_problem`` set to the reason.
    - a stop that is None, empty or malformed is skipped and listed in ``skipped``; with no stop
      counted the text is "0".
    """
    if isinstance(stops, (str, bytes)):
        raise TypeError("stops must be a sequence of texts, not a single %s" % type(stops).__name__)
    texts = [_text(s, "stop %d" % i) for i, s in enumerate(stops)]
    home_b = _text(home, "home")
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


def _order_call(call: Any, n: int, end: Any, mode: str, iterations: Optional[int], time_limit: Optional[float],
                seed: int) -> BestOrder:
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
    home: CoordLike, stops: Any, end: Any = "home", unit: UnitLike = Unit.METERS, model: ModelLike = Model.SPHERE,
    mode: str = "auto", iterations: Optional[int] = None, time_limit: Optional[float] = None, seed: int = 1,
) -> BestOrder:
    """The order of ``stops`` (shape (n, 2), (lat, lon) degrees, or a :class:`LatLon`) that makes the route from
    ``home`` shortest. ``end``: ``"home"`` (a round trip), ``"anywhere"``, or a stop index to end
    at. ``mode``: ``"auto"`` (exact up to 16 stops), ``"exact"`` (at most 18 stops) or
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
        n, end, mode, iterations, time_limit, seed)


def best_order_matrix(
    matrix: Any, end: Any = "home", mode: str = "auto", iterations: Optional[int] = None,
    time_limit: Optional[float] = None, seed: int = 1,
) -> BestOrder:
    """The best order over a cost matrix the caller supplies: shape (n + 1, n + 1), row and
    column 0 home, i the stop i - 1, ``matrix[i, j]`` the cost from i to j (asymmetric allowed;
    the diagonal is ignored). Totals are in the matrix's unit. Other arguments as best_order."""
    arr = numpy.asarray(matrix)
    if arr.dtype.kind not in "fiu" or arr.dtype.kind == "b":
        raise TypeError("matrix must hold real numbers, not %s" % arr.dtype)
    if arr.ndim != 2:
        raise InvalidArgumentError("matrix has shape %s; it must be (n + 1, n + 1)" % (arr.shape,))
    rows, cols = arr.shape
    arr = numpy.ascontiguousarray(arr, dtype=numpy.float64)
    ptr = arr.ctypes.data_as(POINTER(c_double))
    n = max(rows - 1, 0)
    if rows != cols or rows == 0:
        # The library says what is wrong with the shape.
        _lib.geoloc_best_order_matrix(ptr, rows, cols, 0, 0, None, None, 0, None, 0, byref(c_size_t()), byref(COrderResult()))
    return _order_call(
        lambda e, s, o, order, cap, legs, lcap, needed, res: _lib.geoloc_best_order_matrix(
            ptr, rows, cols, e, s, o, order, cap, legs, lcap, needed, res),
        n, end, mode, iterations, time_limit, seed)
