"""geoloc: Python bindings of libgeoloc, the embeddable location library.

Distances (on the sphere or the WGS84 ellipsoid) and geodesics, place sets searched by radius, k
nearest or region, offline reverse geocoding ("Springfield, IL"), multi-stop mileage, coordinate
text, address forms and WMO weather codes as words, without a network or an API key. The package
is a thin ctypes layer over a built libgeoloc.so (pip does not build it); at import it looks for
the library in this order:

1. the environment variable ``GEOLOC_LIBRARY`` (a path to libgeoloc.so; when set, only it),
2. next to the package (``geoloc/libgeoloc.so*``),
3. the system (``ctypes.util.find_library("geoloc")``, then ``libgeoloc.so.0``),

and raises ImportError listing the places tried if none has it. The library's MAJOR.MINOR
version must match the package's.

Conventions: angles are degrees, latitudes within [-90, 90]; a coordinate is any (lat, lon) pair
of numbers; enum arguments take the enum member, its int value or its name ("miles", "mi", "KM").
Failures raise a subclass of :class:`GeolocError` carrying ``status`` and ``message``. Every
function is safe to call from many threads at once (the GIL is released during library calls),
and so is every method of :class:`Places`, :class:`Region` and :class:`Gazetteer` on one object.
Those three hold a library handle: close them with ``close()`` or a ``with`` block (the garbage
collector closes forgotten ones); a closed one raises ValueError when used.
"""

from __future__ import annotations

import ctypes
import dataclasses
import operator
from collections.abc import Mapping
from ctypes import POINTER, byref, c_char_p, c_double, c_int64, c_size_t
from typing import Any, Callable, Iterable, NamedTuple, Optional, Sequence, Tuple, Union

import numpy

from . import _errors, _ffi
from ._enums import AddressStyle, CoordStyle, Daylight, Model, TempUnit, Unit, coerce
from ._errors import (
    BufferTooSmallError,
    CountTooLargeError,
    GeolocError,
    HomeInvalidError,
    InternalError,
    InvalidArgumentError,
    InvalidUTF8Error,
    NoHomeError,
    NoMemoryError,
    NotFiniteError,
    NotFoundError,
    NullArgumentError,
    OutOfRangeError,
    ParseError,
    Status,
    UnknownCodeError,
    UnsupportedError,
)
from ._ffi import CAddressPart, CCoord, CLeg, CMileageResult
from ._version import __version__

__all__ = [
    "__version__",
    "library_version",
    "library_path",
    # enums
    "Unit",
    "Model",
    "CoordStyle",
    "Daylight",
    "TempUnit",
    "AddressStyle",
    "Status",
    # coordinates
    "Coord",
    "parse_coord",
    "format_coord",
    "check_coord",
    # units and distance
    "convert_length",
    "distance",
    "distance_pairs",
    "distance_one_to_many",
    "distance_text",
    # geodesics on WGS84
    "GeodesicInverse",
    "GeodesicDirect",
    "geodesic_inverse",
    "geodesic_direct",
    # place sets, regions, reverse geocoding
    "Places",
    "Place",
    "Match",
    "LoadIssue",
    "Region",
    "Gazetteer",
    "ReverseGeocode",
    "reverse_geocode",
    "shared_gazetteer",
    # routes
    "route_length",
    "Leg",
    "Mileage",
    "mileage",
    "eta_minutes",
    # weather
    "weather_label",
    "is_documented_weather_code",
    "weather_condition",
    # addresses
    "format_address",
    "us_state_code",
    "us_state_name",
    "country_name",
    # errors: every exception class of _errors
    *(name for name in _errors.__all__ if name.endswith("Error")),
]

_lib = _ffi.lib

#: The path of the libgeoloc file that was loaded.
library_path: str = _ffi.library_path

#: The Earth radius of Model.SPHERE, in meters (GEOLOC_EARTH_MEAN_RADIUS_M).
EARTH_MEAN_RADIUS_M = 6371008.8

#: The largest element count any function accepts (GEOLOC_MAX_COUNT, 2**30).
MAX_COUNT = _ffi.MAX_COUNT

_INT32_MIN = -(1 << 31)
_INT32_MAX = (1 << 31) - 1

TextIn = Union[str, bytes]
CoordLike = Union["Coord", Sequence[float]]
UnitLike = Union[Unit, int, str]
ModelLike = Union[Model, int, str]


# --------------------------------------------------------------------------------------------
# Argument conversion
# --------------------------------------------------------------------------------------------


def _text(value: Optional[TextIn], what: str) -> Optional[bytes]:
    """str as UTF-8 bytes; bytes as they are (the library checks their UTF-8); None as NULL."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            data = value.encode("utf-8")
        except UnicodeEncodeError as err:
            raise InvalidUTF8Error(
                "%s cannot be written as UTF-8 (%s at index %d)" % (what, err.reason, err.start)
            ) from None
    elif isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
    else:
        raise TypeError("%s must be str or bytes, not %s" % (what, type(value).__name__))
    if b"\0" in data:
        raise InvalidArgumentError("%s contains a NUL character at index %d" % (what, data.index(b"\0")))
    return data


def _float(value: Any, what: str) -> float:
    """A number as a Python float (NaN and infinities pass: the library reports them)."""
    if value is None or isinstance(value, (str, bytes)):
        raise TypeError("%s must be a number, not %s" % (what, type(value).__name__))
    try:
        return float(value)
    except TypeError:
        raise TypeError("%s must be a number, not %s" % (what, type(value).__name__)) from None


def _integer(value: Any, what: str) -> int:
    """A Python int (or anything with __index__, but not bool or None), else TypeError."""
    if isinstance(value, bool) or value is None:
        raise TypeError("%s must be an int, not %s" % (what, type(value).__name__))
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError("%s must be an int, not %s" % (what, type(value).__name__)) from None


def _int32(value: Any, what: str) -> int:
    """An integer that must fit a C int32_t: OutOfRangeError (a ValueError) outside it."""
    number = _integer(value, what)
    if not _INT32_MIN <= number <= _INT32_MAX:
        raise OutOfRangeError("%s %d is outside the int32 range [%d, %d]" % (what, number, _INT32_MIN, _INT32_MAX))
    return number


def _coord(value: Any, what: str = "coordinate") -> CCoord:
    """A (lat, lon) pair as a geoloc_coord."""
    if isinstance(value, tuple) and len(value) == 2 and type(value[0]) is float and type(value[1]) is float:
        return CCoord(value[0], value[1])  # the common case, without the general checks below
    if value is None or isinstance(value, (str, bytes)):
        raise TypeError(
            "%s must be a (lat, lon) pair of numbers, not %s (use parse_coord for text)"
            % (what, type(value).__name__)
        )
    try:
        lat, lon = value
    except TypeError:
        raise TypeError("%s must be a (lat, lon) pair of numbers, not %s" % (what, type(value).__name__)) from None
    except ValueError:
        raise ValueError("%s must have exactly two numbers (lat, lon)" % what) from None
    return CCoord(_float(lat, what + " latitude"), _float(lon, what + " longitude"))


def _points(value: Any, what: str) -> numpy.ndarray:
    """An array-like of (lat, lon) rows as a C-contiguous (n, 2) float64 array (no copy if it is one)."""
    if isinstance(value, numpy.ndarray):
        _check_shape(value.shape, what)  # before any copy: a huge strided view is refused cheaply
    arr = numpy.ascontiguousarray(value, dtype=numpy.float64)
    if arr.ndim == 1 and arr.size == 0:
        arr = arr.reshape(0, 2)
    _check_shape(arr.shape, what)
    if not arr.flags.aligned:
        arr = arr.copy()
    return arr


def _check_shape(shape: Tuple[int, ...], what: str) -> None:
    if len(shape) == 1 and shape[0] == 0:
        return
    if len(shape) != 2 or shape[1] != 2:
        raise ValueError("%s must have shape (n, 2) of (lat, lon) rows, not %s" % (what, tuple(shape)))
    if shape[0] > MAX_COUNT:
        raise CountTooLargeError("%s has %d rows, more than GEOLOC_MAX_COUNT (%d)" % (what, shape[0], MAX_COUNT))


def _coords_ptr(arr: numpy.ndarray) -> Any:
    return arr.ctypes.data_as(POINTER(CCoord))


def _doubles_ptr(arr: numpy.ndarray) -> Any:
    return arr.ctypes.data_as(POINTER(c_double))


def _text_result(call: Callable[[Any, int, Any], Any], soft: Tuple[type, ...] = ()) -> str:
    """Runs ``call(buf, cap, needed)`` under the size-query contract and returns the text.

    A first call with a 256-byte buffer; on BufferTooSmallError one more with the size the library
    said it needs. Exceptions in ``soft`` are soft failures: the text was still written.
    """
    cap = 256
    needed = c_size_t(0)
    for _ in range(4):
        buf = ctypes.create_string_buffer(cap)
        try:
            call(buf, cap, byref(needed))
        except BufferTooSmallError:
            if needed.value <= cap:
                raise
            cap = needed.value
            continue
        except soft:
            pass
        return _decode(buf.raw[: needed.value - 1])
    raise InternalError("the text size kept changing between calls (last needed %d)" % needed.value)


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InternalError("libgeoloc returned text that is not UTF-8: %r (%s)" % (raw, err)) from None


def _static_text(raw: Optional[bytes]) -> str:
    return _decode(raw) if raw else ""


# --------------------------------------------------------------------------------------------
# Versions
# --------------------------------------------------------------------------------------------


def library_version() -> str:
    """The loaded libgeoloc's version, "MAJOR.MINOR.PATCH"."""
    return _static_text(_lib.geoloc_version())


# --------------------------------------------------------------------------------------------
# Coordinates
# --------------------------------------------------------------------------------------------


class Coord(NamedTuple):
    """A position: latitude and longitude in degrees (WGS84 datum)."""

    lat: float
    lon: float


def parse_coord(text: TextIn) -> Coord:
    """Reads "lat,lon" text such as "38.321991,-88.867400" into a Coord (degrees).

    Whitespace around each number and a leading sign are allowed; the longitude is reduced to
    [-180, 180). Raises ParseError (not two numbers, trailing text), OutOfRangeError (latitude
    beyond ±90), NotFiniteError ("1e999"), InvalidUTF8Error, NullArgumentError (None).
    """
    out = CCoord()
    _lib.geoloc_coord_parse(_text(text, "text"), byref(out))
    return Coord(out.lat, out.lon)


def format_coord(coord: CoordLike, style: Union[CoordStyle, int, str] = CoordStyle.COMPACT) -> str:
    """A coordinate as text with 6 decimals: "38.321991,-88.867400" (COMPACT) or
    "38.321991, -88.867400" (READABLE); longitude reduced to [-180, 180), "-0.000000" as
    "0.000000". Raises NotFiniteError, OutOfRangeError (latitude), InvalidArgumentError (style)."""
    c = _coord(coord)
    s = coerce(CoordStyle, style, "style")
    return _text_result(lambda buf, cap, needed: _lib.geoloc_coord_format(c, s, buf, cap, needed))


def check_coord(coord: CoordLike) -> Coord:
    """Checks a coordinate (degrees) and returns it with the longitude reduced to [-180, 180).
    Raises NotFiniteError (NaN, ±inf) or OutOfRangeError (latitude beyond ±90)."""
    out = CCoord()
    _lib.geoloc_coord_check(_coord(coord), byref(out))
    return Coord(out.lat, out.lon)


# --------------------------------------------------------------------------------------------
# Units and distance
# --------------------------------------------------------------------------------------------


def convert_length(value: float, from_unit: UnitLike, to_unit: UnitLike) -> float:
    """``value`` (a finite length in ``from_unit``; negative values convert as they are) in
    ``to_unit``. A mile is 1609.344 m, a nautical mile 1852 m, a foot 0.3048 m."""
    out = c_double()
    _lib.geoloc_convert_length(
        _float(value, "value"), coerce(Unit, from_unit, "from_unit"), coerce(Unit, to_unit, "to_unit"), byref(out)
    )
    return out.value


def distance(a: CoordLike, b: CoordLike, unit: UnitLike = Unit.METERS, model: ModelLike = Model.SPHERE) -> float:
    """The distance between two (lat, lon) coordinates in degrees, in ``unit`` (meters by
    default), on ``model``: Model.SPHERE (radius 6,371,008.8 m, haversine) or Model.WGS84 (the
    ellipsoid's geodesic distance, Karney's method, within 15 nm; the distance of
    :func:`geodesic_inverse`). Raises NotFiniteError or OutOfRangeError for a bad coordinate."""
    out = c_double()
    _lib.geoloc_distance(
        _coord(a, "a"), _coord(b, "b"), coerce(Model, model, "model"), coerce(Unit, unit, "unit"), byref(out)
    )
    return out.value


def distance_pairs(a: Any, b: Any, unit: UnitLike = Unit.METERS, model: ModelLike = Model.SPHERE) -> numpy.ndarray:
    """Row-wise distances: ``out[i] = distance(a[i], b[i])`` in ``unit``, on ``model`` (bit-identical
    to :func:`distance`; one library call for the whole batch, also for Model.WGS84).

    ``a`` and ``b`` are array-likes of shape (n, 2) holding (lat, lon) rows in degrees; they are
    passed to the library without a copy when they already are C-contiguous float64. Returns a
    float64 array of shape (n,). Raises ValueError for wrong or different shapes; a bad coordinate
    raises NotFiniteError / OutOfRangeError naming the first bad index, and nothing is computed.
    """
    aa = _points(a, "a")
    bb = _points(b, "b")
    if aa.shape != bb.shape:
        raise ValueError("a and b must have the same shape, not %s and %s" % (aa.shape, bb.shape))
    m = coerce(Model, model, "model")
    u = coerce(Unit, unit, "unit")
    n = aa.shape[0]
    out = numpy.empty(n, dtype=numpy.float64)
    _lib.geoloc_distance_pairs(_coords_ptr(aa), _coords_ptr(bb), n, m, u, _doubles_ptr(out))
    return out


def distance_one_to_many(
    origin: CoordLike, points: Any, unit: UnitLike = Unit.METERS, model: ModelLike = Model.SPHERE
) -> numpy.ndarray:
    """Distances from one (lat, lon) ``origin`` to each row of ``points`` (shape (n, 2), degrees),
    in ``unit``. Returns a float64 array of shape (n,). Errors as distance_pairs."""
    o = _coord(origin, "origin")
    pts = _points(points, "points")
    m = coerce(Model, model, "model")
    u = coerce(Unit, unit, "unit")
    n = pts.shape[0]
    out = numpy.empty(n, dtype=numpy.float64)
    _lib.geoloc_distance_one_to_many(o, _coords_ptr(pts), n, m, u, _doubles_ptr(out))
    return out


def distance_text(meters: float, unit: UnitLike = Unit.MILES) -> str:
    """A length given in meters as display text in ``unit`` with one decimal ("%.1f"):
    "3.2 miles", "12.0 km", "250.0 m", "4.1 nmi", "820.0 ft". Raises OutOfRangeError for a
    negative length, NotFiniteError for NaN or ±inf."""
    m = _float(meters, "meters")
    u = coerce(Unit, unit, "unit")
    return _text_result(lambda buf, cap, needed: _lib.geoloc_distance_text(m, u, buf, cap, needed))


# --------------------------------------------------------------------------------------------
# Geodesics on the WGS84 ellipsoid
# --------------------------------------------------------------------------------------------


class GeodesicInverse(NamedTuple):
    """The shortest path between two points on WGS84 (:func:`geodesic_inverse`)."""

    #: The geodesic distance in meters (within 15 nm of the exact value).
    distance: float
    #: The azimuth at the start, degrees clockwise from north in [-180, 180].
    azi1: float
    #: The azimuth at the end (the direction of travel on arrival), degrees in [-180, 180].
    azi2: float


class GeodesicDirect(NamedTuple):
    """The end of a geodesic (:func:`geodesic_direct`)."""

    #: The destination's latitude, degrees.
    lat: float
    #: The destination's longitude, degrees in [-180, 180).
    lon: float
    #: The azimuth on arrival, degrees clockwise from north in [-180, 180].
    azi2: float

    @property
    def coord(self) -> Coord:
        """The destination as a Coord."""
        return Coord(self.lat, self.lon)


def geodesic_inverse(a: CoordLike, b: CoordLike) -> GeodesicInverse:
    """The inverse geodesic problem on the WGS84 ellipsoid (Karney's algorithm, as GeographicLib):
    the distance in meters from ``a`` to ``b`` ((lat, lon) degrees) and the azimuths at both ends.

    For a == b the distance is 0. Where the shortest path is not unique (antipodal points, a pole
    from the equator) the path GeographicLib reports is given. Raises NotFiniteError or
    OutOfRangeError for a bad coordinate."""
    meters, azi1, azi2 = c_double(), c_double(), c_double()
    _lib.geoloc_geodesic_inverse(_coord(a, "a"), _coord(b, "b"), byref(meters), byref(azi1), byref(azi2))
    return GeodesicInverse(meters.value, azi1.value, azi2.value)


def geodesic_direct(start: CoordLike, azimuth: float, distance: float) -> GeodesicDirect:
    """The direct geodesic problem on WGS84: the point reached from ``start`` ((lat, lon)
    degrees) after ``distance`` meters along the geodesic leaving it at ``azimuth`` (degrees
    clockwise from north, any finite value). A negative distance goes backwards along the same
    geodesic. Returns the destination (longitude in [-180, 180)) and the azimuth on arrival.
    Raises NotFiniteError or OutOfRangeError."""
    end = CCoord()
    azi2 = c_double()
    _lib.geoloc_geodesic_direct(
        _coord(start, "start"), _float(azimuth, "azimuth"), _float(distance, "distance"), byref(end), byref(azi2)
    )
    return GeodesicDirect(end.lat, end.lon, azi2.value)


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


# --------------------------------------------------------------------------------------------
# Weather
# --------------------------------------------------------------------------------------------


def weather_label(code: int, daylight: Union[Daylight, int, str] = Daylight.UNKNOWN) -> str:
    """The label of a WMO weather code: 0 "Clear" ("Sunny" by day), 63 "Rain", 95
    "Thunderstorm", ...; "Unknown" for a code no table documents (no exception). ``code`` must
    fit an int32 (OutOfRangeError otherwise)."""
    c = _int32(code, "weather code")
    d = coerce(Daylight, daylight, "daylight")
    label = c_char_p()
    try:
        _lib.geoloc_weather_label(c, d, byref(label))
    except UnknownCodeError:
        pass  # soft failure: label is "Unknown"
    return _static_text(label.value)


def is_documented_weather_code(code: int) -> bool:
    """Whether ``code`` is a documented WMO weather code (any int; False outside int32)."""
    if isinstance(code, bool):
        raise TypeError("weather code must be an int, not bool")
    number = operator.index(code)
    if not _INT32_MIN <= number <= _INT32_MAX:
        return False
    return bool(_lib.geoloc_weather_code_documented(number))


def weather_condition(
    code: int,
    temperature: float,
    given: Union[TempUnit, int, str] = TempUnit.FAHRENHEIT,
    shown: Union[TempUnit, int, str, None] = None,
    daylight: Union[Daylight, int, str] = Daylight.UNKNOWN,
) -> str:
    """The weather-conditions text "Label, T°F" / "Label, T°C", e.g. "Rain, 45°F".

    ``temperature`` is in ``given``; it is converted to ``shown`` (None: the same as given) and
    rounded half away from zero to a whole degree. An undocumented code gives "Unknown, 72°F"
    without raising. Raises NotFiniteError, OutOfRangeError (below absolute zero, above
    1,000,000, or a code outside int32)."""
    c = _int32(code, "weather code")
    t = _float(temperature, "temperature")
    g = coerce(TempUnit, given, "given")
    s = g if shown is None else coerce(TempUnit, shown, "shown")
    d = coerce(Daylight, daylight, "daylight")
    return _text_result(
        lambda buf, cap, needed: _lib.geoloc_weather_condition(c, t, g, s, d, buf, cap, needed),
        soft=(UnknownCodeError,),
    )


# --------------------------------------------------------------------------------------------
# Addresses
# --------------------------------------------------------------------------------------------


def format_address(
    parts: Union[Mapping, Iterable[Tuple[TextIn, Optional[TextIn]]]],
    style: Union[AddressStyle, int, str] = AddressStyle.ONE_LINE,
) -> str:
    """Address components as text in ``style``.

    ``parts`` is a mapping of key -> value or an iterable of (key, value) pairs (order kept; for a
    repeated key the first non-empty value wins). Keys are matched without regard to case:
    house_number, road, unit, neighbourhood, city, county, state, state_code, postcode, country,
    country_code and common aliases (street, town, zip, ...); unknown keys are ignored. A None or
    empty value counts as absent. POSTAL gives lines joined by "\\n"."""
    items = parts.items() if isinstance(parts, Mapping) else parts
    if isinstance(items, (str, bytes)):
        raise TypeError("parts must be a mapping or (key, value) pairs, not %s" % type(items).__name__)
    keep = []  # the encoded texts, alive until the call returns
    for i, item in enumerate(items):
        try:
            key, value = item
        except (TypeError, ValueError):
            raise TypeError("address part %d must be a (key, value) pair, not %r" % (i, item)) from None
        keep.append((_text(key, "address key %d" % i), _text(value, "address value %d" % i)))
    n = len(keep)
    array = (CAddressPart * max(n, 1))(*[CAddressPart(k, v) for k, v in keep])
    st = coerce(AddressStyle, style, "style")
    return _text_result(lambda buf, cap, needed: _lib.geoloc_address_format(array, n, st, buf, cap, needed))


def _lookup(fn: Any, text: Optional[TextIn], what: str) -> str:
    out = c_char_p()
    fn(_text(text, what), byref(out))
    return _static_text(out.value)


def us_state_code(name: TextIn) -> str:
    """The two-letter USPS code of a US state, DC or territory from its name, any case
    ("Illinois" -> "IL"); a valid code is returned in upper case. NotFoundError when unknown."""
    return _lookup(_lib.geoloc_us_state_code, name, "name")


def us_state_name(code: TextIn) -> str:
    """The name of a US state, DC or territory from its two-letter code, any case ("il" ->
    "Illinois"); a valid name is returned as spelled in the table. NotFoundError when unknown."""
    return _lookup(_lib.geoloc_us_state_name, code, "code")


def country_name(code: TextIn) -> str:
    """The English short name of a country from its ISO 3166-1 alpha-2 code, any case
    ("gb" -> "United Kingdom"). NotFoundError when unknown."""
    return _lookup(_lib.geoloc_country_name, code, "code")


# --------------------------------------------------------------------------------------------
# Place sets, regions and reverse geocoding (in _places, which uses the helpers above: imported
# last, once they exist)
# --------------------------------------------------------------------------------------------

from ._places import (  # noqa: E402
    Gazetteer,
    LoadIssue,
    Match,
    Place,
    Places,
    Region,
    ReverseGeocode,
    reverse_geocode,
    shared_gazetteer,
)
