"""Distance: one pair and batches on the sphere or WGS84, and the WGS84 geodesics."""

from __future__ import annotations

from ctypes import POINTER, byref, c_double, c_size_t
from typing import Any, NamedTuple

import numpy

from . import _ffi
from ._enums import Model, Unit, coerce
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
})

_lib = _ffi.lib


# --------------------------------------------------------------------------------------------
# Distance
# --------------------------------------------------------------------------------------------


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
