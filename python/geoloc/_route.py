"""Routes: path length, the round-trip mileage of the smart-field design, and ETA."""

from __future__ import annotations

import dataclasses
from ctypes import POINTER, Structure, byref, c_bool, c_char, c_char_p, c_double, c_int64, c_size_t
from typing import Any, Iterable, NamedTuple, Optional, Tuple

import numpy

from . import _ffi
from ._enums import Model, Unit, coerce
from ._errors import (
    CountTooLargeError,
    HomeInvalidError,
)
from ._ffi import ENUM, STATUS, CCoord
from ._core import (
    MAX_COUNT,
    ModelLike,
    TextIn,
    UnitLike,
    _coords_ptr,
    _decode,
    _doubles_ptr,
    _float,
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

_lib = _ffi.lib


# --------------------------------------------------------------------------------------------
# Routes and mileage
# --------------------------------------------------------------------------------------------


def route_length(
    points: Any, closed: bool = False, unit: UnitLike = Unit.METERS, model: ModelLike = Model.SPHERE
) -> Tuple[float, numpy.ndarray]:
    """The length of the path through ``points`` (shape (n, 2), (lat, lon) degrees) in order,
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
