"""Distance: one pair and batches on the sphere or WGS84, and the WGS84 geodesics."""

from __future__ import annotations

import ctypes
import struct
from ctypes import POINTER, byref, c_double, c_size_t
from typing import Any, NamedTuple, cast

import numpy

from . import _ffi
from ._enums import _ALIASES, Model, Unit, coerce
from ._ffi import ENUM, STATUS, CCoord
from ._core import (
    Coord,
    CoordLike,
    ModelLike,
    UnitLike,
    _coord,
    _coords_ptr,
    _doubles_ptr,
    _float,
    _points,
)

_ffi.declare({
    "geoloc_distance": (STATUS, (CCoord, CCoord, ENUM, ENUM, POINTER(c_double)), True),
    "geoloc_distance_pairs": (
        STATUS,
        (POINTER(CCoord), POINTER(CCoord), c_size_t, ENUM, ENUM, POINTER(c_double)),
        True,
    ),
    "geoloc_distance_one_to_many": (
        STATUS,
        (CCoord, POINTER(CCoord), c_size_t, ENUM, ENUM, POINTER(c_double)),
        True,
    ),
    "geoloc_geodesic_inverse": (
        STATUS,
        (CCoord, CCoord, POINTER(c_double), POINTER(c_double), POINTER(c_double)),
        True,
    ),
    "geoloc_geodesic_direct": (
        STATUS,
        (CCoord, c_double, c_double, POINTER(CCoord), POINTER(c_double)),
        True,
    ),
    "geoloc_distance_value": (c_double, (POINTER(CCoord), ENUM, ENUM), False),
    "geoloc_geodesic_inverse_many": (
        STATUS,
        (POINTER(CCoord), POINTER(CCoord), c_size_t, POINTER(c_double), POINTER(c_double), POINTER(c_double)),
        True,
    ),
    "geoloc_geodesic_direct_many": (
        STATUS,
        (POINTER(CCoord), POINTER(c_double), POINTER(c_double), c_size_t, POINTER(CCoord), POINTER(c_double)),
        True,
    ),
})

_lib = _ffi.lib


# --------------------------------------------------------------------------------------------
# Distance
# --------------------------------------------------------------------------------------------


def distance(a: CoordLike, b: CoordLike, unit: UnitLike = Unit.METERS, model: ModelLike = Model.SPHERE) -> float:
    """The distance between two (lat, lon) coordinates in degrees, in ``unit`` (meters by
    default), on ``model``: Model.SPHERE (radius 6,371,008.8 m, haversine) or Model.WGS84 (the
    ellipsoid's geodesic distance, Karney's method, within 15 nm; the distance of
    :func:`geodesic_inverse`). Raises NotFiniteError or OutOfRangeError for a bad coordinate,
    naming it ("b: latitude 91 is outside [-90, 90]")."""
    # The fast path: four Python floats and a Unit/Model member or a usual name (the common
    # call) go to geoloc_distance_value as one packed bytes object and two ints, which ctypes
    # passes without building an argument object each; a NaN answer means the input was bad, and
    # the checked path below then raises the error geoloc_distance reports. Anything else (ints,
    # numpy scalars, other spellings) takes the checked path directly, with the caller's
    # objects (an iterator already read is replaced by the pair read from it).
    try:
        lat1, lon1 = cast(Any, a)  # a pair, or text: a str unpacks too, and fails the float test
    except (TypeError, ValueError):
        return _distance_checked(a, b, unit, model)
    try:
        lat2, lon2 = cast(Any, b)
    except (TypeError, ValueError):
        return _distance_checked(_as_read(a, lat1, lon1), b, unit, model)
    d: float
    if float is type(lat1) is type(lon1) is type(lat2) is type(lon2):
        if unit is _METERS and model is _SPHERE:
            d = _distance_value(_pack4(lat1, lon1, lat2, lon2), 0, 0)
        else:
            u = unit if type(unit) is Unit else _UNIT_NAMES.get(unit) if type(unit) is str else None
            m = model if type(model) is Model else _MODEL_NAMES.get(model) if type(model) is str else None
            d = _distance_value(_pack4(lat1, lon1, lat2, lon2), m, u) if u is not None and m is not None else _NAN
        if d == d:
            return d
    return _distance_checked(_as_read(a, lat1, lon1), _as_read(b, lat2, lon2), unit, model)


def _as_read(value: Any, lat: Any, lon: Any) -> Any:
    """``value``, or the pair read from it when it is an iterator (which reading used up)."""
    return (lat, lon) if iter(value) is value else value


def _distance_checked(a: CoordLike, b: CoordLike, unit: UnitLike, model: ModelLike) -> float:
    """distance() through geoloc_distance: every argument converted and checked."""
    out = c_double()
    _lib.geoloc_distance(
        _coord(a, "a"), _coord(b, "b"), coerce(Model, model, "model"), coerce(Unit, unit, "unit"), byref(out)
    )
    return out.value


_METERS = Unit.METERS
_SPHERE = Model.SPHERE
# The usual spellings of units and models ("miles", "km", "wgs84"), read as coerce() reads them;
# any other text takes the checked path, which reads (or refuses) it.
_UNIT_NAMES = {
    text: coerce(Unit, text, "unit")
    for member in Unit
    for text in [member.name, member.name.lower()] + [k for k, v in _ALIASES[Unit].items() if v is member]
}
_MODEL_NAMES = {text: coerce(Model, text, "model") for member in Model for text in (member.name, member.name.lower())}
_NAN = float("nan")
_pack4 = struct.Struct("=4d").pack
_pack2 = struct.Struct("=2d").pack
_pack1 = struct.Struct("=d").pack
_D1 = c_double * 1
_D2 = c_double * 2
_ONE = c_size_t(1)  # n for the batch functions, passed as a size_t without argtypes
# A second function object of the same symbol, without argtypes: a bytes object then goes to C as
# a pointer to its bytes and an int as a C int, with no per-argument conversion object. Only the
# fast path above calls it, with exactly those types. It is called the PyDLL way, keeping the GIL
# (one distance takes well under a microsecond, and giving the GIL up and taking it back was a
# fifth to a quarter of the whole call in bench/python/scalar.py); the batch calls release it.
_distance_value: Any
try:
    _distance_value = ctypes.PyDLL(_ffi.library_path, handle=_lib._handle)["geoloc_distance_value"]
    _distance_value.restype = c_double
    _distance_value.argtypes = None
except AttributeError:  # a library without it: require_all() refuses it at import
    _distance_value = None
# The single geodesics' fast paths call the batch functions with n = 1 the same way (the packed
# bytes are CPython's bytes payload, 16-byte aligned, as an array of geoloc_coord or double needs).
_inverse_many_fast: Any
_direct_many_fast: Any
try:
    _pydll = ctypes.PyDLL(_ffi.library_path, handle=_lib._handle)
    _inverse_many_fast = _pydll["geoloc_geodesic_inverse_many"]
    _direct_many_fast = _pydll["geoloc_geodesic_direct_many"]
    for _fn in (_inverse_many_fast, _direct_many_fast):
        _fn.restype = ctypes.c_int
        _fn.argtypes = None
except AttributeError:
    _inverse_many_fast = _direct_many_fast = None


def distance_pairs(a: Any, b: Any, unit: UnitLike = Unit.METERS, model: ModelLike = Model.SPHERE) -> numpy.ndarray:
    """Row-wise distances: ``out[i] = distance(a[i], b[i])`` in ``unit``, on ``model`` (bit-identical
    to :func:`distance`; one library call for the whole batch, also for Model.WGS84).

    ``a`` and ``b`` are array-likes of shape (n, 2) holding (lat, lon) rows in degrees, or
    :class:`LatLon` columns (``LatLon(df.lat, df.lon)``); rows are passed to the library without a
    copy when they already are C-contiguous float64. Returns a
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
    """Distances from one (lat, lon) ``origin`` to each row of ``points`` (shape (n, 2), degrees,
    or a :class:`LatLon` of two columns), in ``unit``. Returns a float64 array of shape (n,). Errors as distance_pairs."""
    o = _coord(origin, "origin")
    pts = _points(points, "points")
    m = coerce(Model, model, "model")
    u = coerce(Unit, unit, "unit")
    n = pts.shape[0]
    out = numpy.empty(n, dtype=numpy.float64)
    _lib.geoloc_distance_one_to_many(o, _coords_ptr(pts), n, m, u, _doubles_ptr(out))
    return out


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
    # The fast path for Python floats, as distance(): geoloc_geodesic_inverse_many with n = 1 on
    # packed bytes, no argument objects built; a failure takes the checked path, which raises.
    try:
        lat1, lon1 = cast(Any, a)  # a pair, or text: a str unpacks too, and fails the float test
    except (TypeError, ValueError):
        return _geodesic_inverse_checked(a, b)
    try:
        lat2, lon2 = cast(Any, b)
    except (TypeError, ValueError):
        return _geodesic_inverse_checked(_as_read(a, lat1, lon1), b)
    if float is type(lat1) is type(lon1) is type(lat2) is type(lon2):
        s, z1, z2 = _D1(), _D1(), _D1()
        if _inverse_many_fast(_pack2(lat1, lon1), _pack2(lat2, lon2), _ONE, s, z1, z2) == 0:
            return GeodesicInverse(s[0], z1[0], z2[0])
    return _geodesic_inverse_checked(_as_read(a, lat1, lon1), _as_read(b, lat2, lon2))


def _geodesic_inverse_checked(a: CoordLike, b: CoordLike) -> GeodesicInverse:
    """geodesic_inverse() through geoloc_geodesic_inverse: every argument converted and checked."""
    meters, azi1, azi2 = c_double(), c_double(), c_double()
    _lib.geoloc_geodesic_inverse(_coord(a, "a"), _coord(b, "b"), byref(meters), byref(azi1), byref(azi2))
    return GeodesicInverse(meters.value, azi1.value, azi2.value)


def geodesic_direct(start: CoordLike, azimuth: float, distance: float) -> GeodesicDirect:
    """The direct geodesic problem on WGS84: the point reached from ``start`` ((lat, lon)
    degrees) after ``distance`` meters along the geodesic leaving it at ``azimuth`` (degrees
    clockwise from north, any finite value). A negative distance goes backwards along the same
    geodesic. Returns the destination (longitude in [-180, 180)) and the azimuth on arrival.
    Raises NotFiniteError or OutOfRangeError."""
    try:
        lat1, lon1 = cast(Any, start)
    except (TypeError, ValueError):
        return _geodesic_direct_checked(start, azimuth, distance)
    if float is type(lat1) is type(lon1) is type(azimuth) is type(distance):
        end, azi2 = _D2(), _D1()
        if _direct_many_fast(_pack2(lat1, lon1), _pack1(azimuth), _pack1(distance), _ONE, end, azi2) == 0:
            return GeodesicDirect(end[0], end[1], azi2[0])
    return _geodesic_direct_checked(_as_read(start, lat1, lon1), azimuth, distance)


def _geodesic_direct_checked(start: CoordLike, azimuth: float, distance: float) -> GeodesicDirect:
    """geodesic_direct() through geoloc_geodesic_direct: every argument converted and checked."""
    end = CCoord()
    azi2 = c_double()
    _lib.geoloc_geodesic_direct(
        _coord(start, "start"), _float(azimuth, "azimuth"), _float(distance, "distance"), byref(end), byref(azi2)
    )
    return GeodesicDirect(end.lat, end.lon, azi2.value)


# --------------------------------------------------------------------------------------------
# Batch geodesics on the WGS84 ellipsoid
# --------------------------------------------------------------------------------------------


class GeodesicInverseArrays(NamedTuple):
    """The inverse problem for n pairs (:func:`geodesic_inverse_many`): three float64 arrays of
    shape (n,)."""

    #: The geodesic distances in meters.
    distance: numpy.ndarray
    #: The azimuths at the starts, degrees clockwise from north in [-180, 180].
    azi1: numpy.ndarray
    #: The azimuths at the ends (the direction of travel on arrival), degrees in [-180, 180].
    azi2: numpy.ndarray


class GeodesicDirectArrays(NamedTuple):
    """The direct problem for n starts (:func:`geodesic_direct_many`): three float64 arrays of
    shape (n,)."""

    #: The destinations' latitudes, degrees.
    lat: numpy.ndarray
    #: The destinations' longitudes, degrees in [-180, 180).
    lon: numpy.ndarray
    #: The azimuths on arrival, degrees in [-180, 180].
    azi2: numpy.ndarray


def geodesic_inverse_many(a: Any, b: Any) -> GeodesicInverseArrays:
    """The inverse geodesic problem on WGS84 for n pairs in one library call: row i is
    :func:`geodesic_inverse` ``(a[i], b[i])``, bit for bit.

    ``a`` and ``b`` are array-likes of shape (n, 2) holding (lat, lon) rows in degrees, or
    :class:`LatLon` columns (passed without a copy when they already are C-contiguous float64). Returns the distances (meters) and
    both azimuths as float64 arrays of shape (n,). Raises ValueError for wrong or different shapes;
    a bad coordinate raises NotFiniteError / OutOfRangeError naming the first bad row
    ("b[7]: latitude 91 is outside [-90, 90]"), and nothing is computed.
    """
    aa = _points(a, "a")
    bb = _points(b, "b")
    if aa.shape != bb.shape:
        raise ValueError("a and b must have the same shape, not %s and %s" % (aa.shape, bb.shape))
    n = aa.shape[0]
    out = numpy.empty((3, n), dtype=numpy.float64)
    _lib.geoloc_geodesic_inverse_many(
        _coords_ptr(aa), _coords_ptr(bb), n, _doubles_ptr(out[0]), _doubles_ptr(out[1]), _doubles_ptr(out[2])
    )
    return GeodesicInverseArrays(out[0], out[1], out[2])


def _values(value: Any, n: int, what: str) -> numpy.ndarray:
    """A real number (repeated n times) or an array-like of shape (n,), as C-contiguous float64."""
    arr = numpy.asarray(value)
    if arr.dtype.kind not in "fiu":
        raise TypeError("%s must hold real numbers, not %s" % (what, arr.dtype))
    if arr.ndim == 0:
        return numpy.full(n, arr, dtype=numpy.float64)
    if arr.shape != (n,):
        raise ValueError("%s must be a number or have shape (%d,), not %s" % (what, n, arr.shape))
    return numpy.ascontiguousarray(arr, dtype=numpy.float64)


def geodesic_direct_many(start: Any, azimuth: Any, distance: Any) -> GeodesicDirectArrays:
    """The direct geodesic problem on WGS84 for n starts in one library call: row i is
    :func:`geodesic_direct` ``(start[i], azimuth[i], distance[i])``, bit for bit.

    ``start`` is an array-like of shape (n, 2) of (lat, lon) rows in degrees, or :class:`LatLon`
    columns; ``azimuth``
    (degrees clockwise from north, any finite value) and ``distance`` (meters, any finite value,
    negative goes backwards) are array-likes of shape (n,) or single numbers used for every row.
    Returns the destinations' latitudes and longitudes (in [-180, 180)) and the azimuths there as
    float64 arrays of shape (n,). Raises ValueError for wrong shapes; a bad input raises
    NotFiniteError / OutOfRangeError naming the first bad one (the starts first, then the
    azimuths, then the distances: "azimuth[3]: nan is not finite"), and nothing is computed.
    """
    pts = _points(start, "start")
    n = pts.shape[0]
    az = _values(azimuth, n, "azimuth")
    dist = _values(distance, n, "distance")
    end = numpy.empty((n, 2), dtype=numpy.float64)
    azi2 = numpy.empty(n, dtype=numpy.float64)
    _lib.geoloc_geodesic_direct_many(
        _coords_ptr(pts), _doubles_ptr(az), _doubles_ptr(dist), n, _coords_ptr(end), _doubles_ptr(azi2)
    )
    return GeodesicDirectArrays(end[:, 0], end[:, 1], azi2)
