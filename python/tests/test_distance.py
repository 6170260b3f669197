"""Distance through Python: one pair and numpy batches on the sphere and WGS84, and the WGS84
geodesics against GeographicLib (the golden files tests/golden/geodesic_*.tsv made by
tools/gen_geodesic.py with GeographicLib 2.1, values written below, and random pairs checked live
when the geographiclib package is installed). Tolerance: 15 nm on distances (the header's
promise); on azimuths 1e-9 degrees, or for short lines the angle that moves the far end sideways
by 15 nm; 1e-11 degrees on the positions of the direct problem."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Dict, List, Optional

import numpy
import pytest

import geoloc
from geoloc import Coord, GeodesicDirect, GeodesicInverse, Model, Unit

import golden_cases
from golden_cases import close
from helpers import random_lat_lon, CENTRALIA, INF, NAN, NYC, R, raises, rel_close


# ============================================================================================
# Distance
# ============================================================================================


def test_distance():
    assert rel_close(geoloc.distance(CENTRALIA, NYC), 1300528.9964986942397)
    assert rel_close(geoloc.distance(CENTRALIA, NYC, Unit.MILES), 808.11125309361717552)
    assert rel_close(geoloc.distance(CENTRALIA, NYC, "km"), 1300.5289964986942397)
    assert geoloc.distance(NYC, CENTRALIA) == geoloc.distance(CENTRALIA, NYC)
    assert geoloc.distance((0, 0), (0, 0)) == 0.0
    assert rel_close(geoloc.distance((0, 0), (0, 180)), math.pi * R, 1e-14)
    assert rel_close(geoloc.distance((90, 0), (-90, 0), "nmi"), math.pi * R / 1852, 1e-14)
    assert geoloc.distance((10, 20), (10, 380)) < 1e-6
    assert isinstance(geoloc.distance(Coord(1, 2), numpy.array([3.0, 4.0])), float)
    m = geoloc.distance(CENTRALIA, NYC)
    for unit, size in [(Unit.KILOMETERS, 1000.0), (Unit.MILES, 1609.344), (Unit.NAUTICAL_MILES, 1852.0), (Unit.FEET, 0.3048)]:
        assert rel_close(geoloc.distance(CENTRALIA, NYC, unit), m / size, 1e-14)


def test_distance_wgs84_is_the_geodesic():
    want = 156899.56829134026  # GeographicLib 2.1: Geodesic.WGS84.Inverse(0, 0, 1, 1)["s12"]
    assert abs(geoloc.distance((0, 0), (1, 1), model=Model.WGS84) - want) <= 15e-9
    assert abs(geoloc.distance_pairs([(0, 0)], [(1, 1)], model="wgs84")[0] - want) <= 15e-9
    assert abs(geoloc.route_length([(0, 0), (1, 1)], model="wgs84")[0] - want) <= 15e-9


def test_distance_against_the_ellipsoid():
    """The sphere stays within the header's 0.56% of the WGS84 geodesic (geographiclib)."""
    geodesic = pytest.importorskip("geographiclib.geodesic").Geodesic.WGS84
    rng = numpy.random.default_rng(7)
    a = numpy.column_stack([rng.uniform(-89, 89, 500), rng.uniform(-180, 180, 500)])
    b = numpy.column_stack([rng.uniform(-89, 89, 500), rng.uniform(-180, 180, 500)])
    sphere = geoloc.distance_pairs(a, b)
    for (la1, lo1), (la2, lo2), d in zip(a, b, sphere):
        g = geodesic.Inverse(la1, lo1, la2, lo2)["s12"]
        if g > 1000:
            assert abs(d / g - 1) < 0.0056, (la1, lo1, la2, lo2, d, g)


def _haversine(a, b, radius=R):
    p1, l1, p2, l2 = (numpy.radians(x) for x in (a[:, 0], a[:, 1], b[:, 0], b[:, 1]))
    h = numpy.sin((p2 - p1) / 2) ** 2 + numpy.cos(p1) * numpy.cos(p2) * numpy.sin((l2 - l1) / 2) ** 2
    return 2 * radius * numpy.arcsin(numpy.sqrt(h))


def test_distance_pairs_equals_scalar_and_an_independent_haversine():
    a, b = random_lat_lon(3000, 1), random_lat_lon(3000, 2)
    for unit in Unit:
        got = geoloc.distance_pairs(a, b, unit)
        assert got.dtype == numpy.float64 and got.shape == (3000,) and got.flags.c_contiguous
        scalar = numpy.array([geoloc.distance(x, y, unit) for x, y in zip(a, b)])
        numpy.testing.assert_allclose(got, scalar, rtol=1e-11, atol=0)  # the vectorised kernel
    got = geoloc.distance_pairs(a, b)
    plain = _haversine(a, b)
    ok = plain < 19_000_000  # the plain formula loses digits near the antipode
    numpy.testing.assert_allclose(got[ok], plain[ok], rtol=1e-9, atol=1e-6)


def test_distance_one_to_many_equals_scalar():
    pts = random_lat_lon(2000, 3)
    for origin in [CENTRALIA, (90, 0), (-33.9, 151.2)]:
        for unit in Unit:
            got = geoloc.distance_one_to_many(origin, pts, unit)
            scalar = numpy.array([geoloc.distance(origin, p, unit) for p in pts])
            numpy.testing.assert_allclose(got, scalar, rtol=1e-11, atol=0)


def test_batch_with_longitudes_beyond_180():
    a, b = random_lat_lon(500, 4, lon_span=720), random_lat_lon(500, 5, lon_span=720)
    got = geoloc.distance_pairs(a, b)
    scalar = numpy.array([geoloc.distance(x, y) for x, y in zip(a, b)])
    numpy.testing.assert_allclose(got, scalar, rtol=1e-12, atol=1e-6)


def test_batches_of_zero_elements():
    for empty in (numpy.empty((0, 2)), [], numpy.empty(0), numpy.empty((0, 2), dtype=numpy.float32)):
        got = geoloc.distance_pairs(empty, empty)
        assert got.shape == (0,) and got.dtype == numpy.float64
        got = geoloc.distance_one_to_many(CENTRALIA, empty, "mi")
        assert got.shape == (0,) and got.dtype == numpy.float64
        total, legs = geoloc.route_length(empty)
        assert total == 0.0 and legs.shape == (0,)
    # The origin is still checked when there are no points.
    raises(geoloc.OutOfRangeError, geoloc.distance_one_to_many, (91, 0), [])


def test_batch_inputs_of_any_layout():
    a, b = random_lat_lon(400, 6), random_lat_lon(400, 7)
    expected = geoloc.distance_pairs(a, b)
    wide = numpy.zeros((400, 5))
    wide[:, 1:3] = a
    doubled = numpy.repeat(a, 2, axis=0)
    unaligned = numpy.frombuffer(bytearray(a.nbytes + 1), dtype=numpy.float64, count=a.size, offset=1).reshape(400, 2)
    unaligned[...] = a
    readonly = a.copy()
    readonly.setflags(write=False)
    variants = [
        numpy.asfortranarray(a),  # column-major
        wide[:, 1:3],  # strided columns
        doubled[::2],  # strided rows
        a[::-1][::-1],  # negative strides twice
        a.T.copy().T,  # transposed view
        unaligned,
        readonly,
        a.tolist(),
        [tuple(r) for r in a],
        [Coord(*r) for r in a],
    ]
    for v in variants:
        assert numpy.array_equal(geoloc.distance_pairs(v, b), expected)
        assert numpy.array_equal(geoloc.distance_pairs(b, v), geoloc.distance_pairs(b, a))
    a32 = a.astype(numpy.float32)
    assert numpy.array_equal(geoloc.distance_pairs(a32, b), geoloc.distance_pairs(a32.astype(numpy.float64), b))
    ints = numpy.array([[1, 2], [3, 4]])
    assert numpy.array_equal(geoloc.distance_pairs(ints, ints[::-1]), geoloc.distance_pairs(ints.astype(float), ints[::-1].astype(float)))
    assert numpy.array_equal(geoloc.distance_one_to_many(CENTRALIA, doubled[::2]), geoloc.distance_one_to_many(CENTRALIA, a))
    rev = a[::-1]
    assert numpy.array_equal(geoloc.route_length(rev)[1], geoloc.route_length(numpy.ascontiguousarray(rev))[1])


def test_batch_input_that_is_already_right_is_not_copied():
    from geoloc._core import _points  # the private conversion all batch functions share

    a = random_lat_lon(10, 8)
    assert _points(a, "a") is a
    assert _points(a[::2], "a") is not a


@pytest.mark.parametrize(
    "shape",
    [(3,), (3, 3), (3, 1), (2, 2, 2), (0, 3), (2, 0)],
)
def test_batch_wrong_shapes(shape):
    bad = numpy.zeros(shape)
    ok = numpy.zeros((shape[0] if len(shape) == 2 else 3, 2))
    raises(ValueError, geoloc.distance_pairs, bad, ok)
    raises(ValueError, geoloc.distance_pairs, ok, bad)
    raises(ValueError, geoloc.distance_one_to_many, (0, 0), bad)
    raises(ValueError, geoloc.route_length, bad)


def test_batch_mismatched_lengths_and_junk():
    raises(ValueError, geoloc.distance_pairs, numpy.zeros((3, 2)), numpy.zeros((4, 2)))
    raises(ValueError, geoloc.distance_pairs, [[1, 2], [3]], [[1, 2], [3, 4]])
    raises(ValueError, geoloc.distance_pairs, 5.0, 5.0)
    # Text is not cast to numbers (issue 13): "a" and "38.3" alike are a TypeError.
    raises(TypeError, geoloc.distance_pairs, [["a", "b"]], [[1, 2]])
    raises(TypeError, geoloc.distance_pairs, [["38.3", "-88.8"]], [[1, 2]])


def test_batch_bad_values_name_the_first_bad_index():
    a = random_lat_lon(10, 9)
    b = random_lat_lon(10, 10)
    for value, cls in [(91.0, geoloc.OutOfRangeError), (-90.5, geoloc.OutOfRangeError), (NAN, geoloc.NotFiniteError), (INF, geoloc.NotFiniteError)]:
        bad = a.copy()
        bad[7, 0] = value
        bad[8, 0] = value
        err = raises(cls, geoloc.distance_pairs, bad, b)
        assert "7" in err.message and "8" not in err.message
        raises(cls, geoloc.distance_pairs, b, bad)
        raises(cls, geoloc.distance_one_to_many, CENTRALIA, bad)
        err = raises(cls, geoloc.route_length, bad)
        assert "7" in err.message
    bad = a.copy()
    bad[3, 1] = -INF
    raises(geoloc.NotFiniteError, geoloc.distance_pairs, bad, b)
    with_none = [[1.0, 2.0], [None, 3.0]]  # an object array: None is not a number (issue 13)
    raises(TypeError, geoloc.distance_pairs, with_none, [[0, 0], [0, 0]])


# Issue 13 (hardening): arrays whose numbers are not real are refused, not cast.
@pytest.mark.parametrize(
    "bad",
    [
        numpy.array([[True, False]]),
        numpy.array([["1", "2"]]),
        numpy.array([[b"1", b"2"]]),
        numpy.array([[1 + 1j, 2]]),
        numpy.array([[1.0, 2.0]], dtype=object),
        numpy.zeros(1, dtype=[("lat", "f8"), ("lon", "f8")]),
    ],
    ids=["bool", "str", "bytes", "complex", "object", "structured"],
)
def test_batch_refuses_dtypes_that_are_not_real_numbers(bad):
    good = [[1.0, 2.0]]
    err = raises(TypeError, geoloc.distance_pairs, bad, good)
    assert "real numbers" in str(err)
    raises(TypeError, geoloc.distance_pairs, good, bad)
    raises(TypeError, geoloc.distance_one_to_many, (0.0, 0.0), bad)
    raises(TypeError, geoloc.route_length, bad)


def test_batch_refuses_masked_arrays():
    masked = numpy.ma.masked_array([[1.0, 2.0], [3.0, 4.0]], mask=[[0, 0], [1, 0]])
    err = raises(TypeError, geoloc.distance_pairs, masked, [[0, 0], [0, 0]])
    assert "masked" in str(err)
    raises(TypeError, geoloc.route_length, masked)
    # What the message suggests works: the rows with no masked value.
    rows = masked.data[~masked.mask.any(axis=1)]
    assert geoloc.distance_pairs(rows, [[1.0, 2.0]])[0] == 0.0


def test_batch_accepts_every_real_dtype():
    want = geoloc.distance_pairs([[1.0, 2.0]], [[3.0, 4.0]])
    for dtype in ("f2", "f4", "f8", "i1", "i4", "i8", "u1", "u8"):
        got = geoloc.distance_pairs(numpy.array([[1, 2]], dtype=dtype), numpy.array([[3, 4]], dtype=dtype))
        assert got[0] == want[0], dtype


def test_scalar_complex_is_refused():
    raises(TypeError, geoloc.distance, (1 + 2j, 0.0), (0.0, 0.0))
    raises(TypeError, geoloc.distance, (numpy.complex128(1), 0.0), (0.0, 0.0))


def test_batch_counts_above_the_limit_are_refused_without_copying():
    huge = numpy.lib.stride_tricks.as_strided(numpy.zeros(2), shape=(geoloc.MAX_COUNT + 1, 2), strides=(0, 8))
    err = raises(geoloc.CountTooLargeError, geoloc.distance_pairs, huge, huge)
    assert str(geoloc.MAX_COUNT + 1) in err.message
    raises(geoloc.CountTooLargeError, geoloc.distance_one_to_many, (0, 0), huge)
    raises(geoloc.CountTooLargeError, geoloc.route_length, huge)


# ============================================================================================
# WGS84 geodesics
# ============================================================================================

DIST_TOL = 15e-9  # meters
AZI_TOL = 1e-9  # degrees
POS_TOL = 1e-11  # degrees
HALF_MERIDIAN = 20003931.458625447  # pole to pole, and equator to its antipode, on WGS84


def azi_tol(s12):
    """The azimuth tolerance for a line of s12 meters: 1e-9 degrees, or the angle that moves the
    far end sideways by DIST_TOL, whichever is larger."""
    return max(AZI_TOL, math.degrees(DIST_TOL / abs(s12)) if s12 else 360.0)


def angle_diff(a, b):
    """a - b reduced to (-180, 180]: -180 and 180 are the same direction."""
    d = math.fmod(a - b, 360.0)
    if d > 180:
        d -= 360
    elif d <= -180:
        d += 360
    return abs(d)


# (a, b, s12, azi1, azi2) from GeographicLib 2.1, Geodesic.WGS84.Inverse.
INVERSE = [
    ((40.6, -73.8), (51.6, -0.5), 5551759.4003186785, 51.19888284557983, 107.82177673551426),  # JFK-LHR, the docs' example
    ((0, 0), (0.5, 179.5), 19936288.578965314, 25.67187286829188, 154.3270854699416),  # nearly antipodal
    ((30, 0), (-30, 179.9999), 20003931.457702395, 0.010962541065692345, 179.98903745893432),
    ((-41.32, 174.81), (40.96, -5.5), 19959679.26735382, 161.06766998616015, 18.825195123247063),  # Wellington-Salamanca
    ((0, 0), (90, 0), 10001965.729312724, 0.0, 0.0),
    ((10, 179.99), (10, -179.99), 2192.7872810253743, 89.99826351820612, 90.00173648179388),  # across the antimeridian
    ((38.321991, -88.8674), (40.7128, -74.006), 1303534.6240039296, 73.58599132896828, 83.07630816434391),
    ((-33.9, 151.2), (51.4779, 0.0), 16985243.809698824, -40.89569353552603, -119.35489258115025),
    ((1e-10, 0), (0, 90), 10018754.17139462, 89.99999999999947, 90.00000000009966),
]

# Where the shortest path is not unique only the distance is compared (GeographicLib's azimuths
# are one valid choice).
INVERSE_DISTANCE_ONLY = [
    ((0, 0), (0, 180), HALF_MERIDIAN),
    ((90, 0), (-90, 0), HALF_MERIDIAN),
    ((89.9999, 10), (-89.9999, -170), HALF_MERIDIAN),
]

# (start, azi1, s12, lat2, lon2, azi2) from GeographicLib 2.1, Geodesic.WGS84.Direct.
DIRECT = [
    ((40.6, -73.8), 51.19888284557983, 5551759.4003186785, 51.6, -0.5, 107.82177673551426),
    ((0, 0), 45, 1e7, 45.09618293502251, 89.8684085371785, 90.05786080585563),
    ((-33.9, 151.2), -120.5, -3e6, -17.76064426693337, 175.3985168862905, -131.27927058945585),  # backwards
    ((89.5, 20), 180, 2e5, 87.70938098920713, 20.0, 180.0),  # over the pole
    ((10, 179.5), 90, 1e5, 9.998750444038704, -179.58792114805973, 90.15837430073833),  # across the antimeridian
    ((0, 0), 0, 2 * HALF_MERIDIAN, 3.697944137175414e-14, 0.0, 0.0),  # around a meridian and back
]


@pytest.mark.parametrize("a, b, s12, azi1, azi2", INVERSE)
def test_inverse_reference_values(a, b, s12, azi1, azi2):
    got = geoloc.geodesic_inverse(a, b)
    assert isinstance(got, GeodesicInverse)
    assert abs(got.distance - s12) <= DIST_TOL, got
    assert angle_diff(got.azi1, azi1) <= AZI_TOL, got
    assert angle_diff(got.azi2, azi2) <= AZI_TOL, got
    assert -180 <= got.azi1 <= 180 and -180 <= got.azi2 <= 180


@pytest.mark.parametrize("a, b, s12", INVERSE_DISTANCE_ONLY)
def test_inverse_reference_distances_of_ambiguous_paths(a, b, s12):
    assert abs(geoloc.geodesic_inverse(a, b).distance - s12) <= DIST_TOL


@pytest.mark.parametrize("start, azi1, s12, lat2, lon2, azi2", DIRECT)
def test_direct_reference_values(start, azi1, s12, lat2, lon2, azi2):
    got = geoloc.geodesic_direct(start, azi1, s12)
    assert isinstance(got, GeodesicDirect)
    assert abs(got.lat - lat2) <= POS_TOL, got
    assert angle_diff(got.lon, lon2) <= POS_TOL, got
    assert -180 <= got.lon < 180
    assert angle_diff(got.azi2, azi2) <= AZI_TOL, got
    assert got.coord == Coord(got.lat, got.lon)


def test_inverse_and_direct_agree():
    rng = numpy.random.default_rng(42)
    for _ in range(300):
        a = (rng.uniform(-90, 90), rng.uniform(-180, 180))
        b = (rng.uniform(-90, 90), rng.uniform(-180, 180))
        inv = geoloc.geodesic_inverse(a, b)
        end = geoloc.geodesic_direct(a, inv.azi1, inv.distance)
        back = geoloc.geodesic_inverse(b, a)
        assert abs(back.distance - inv.distance) <= DIST_TOL
        # Both ends agree to well under a millimetre (the pole makes longitude meaningless).
        assert geoloc.geodesic_inverse(b, end.coord).distance < 1e-6, (a, b, end)
        assert angle_diff(end.azi2, inv.azi2) < 1e-7 or abs(b[0]) > 89.9999
        # Going backwards retraces the path.
        start = geoloc.geodesic_direct(end.coord, end.azi2, -inv.distance)
        assert geoloc.geodesic_inverse(a, start.coord).distance < 1e-6


def test_special_cases():
    assert geoloc.geodesic_inverse((12.5, 33.0), (12.5, 33.0)).distance == 0.0
    assert geoloc.geodesic_inverse((12.5, 33.0), (12.5, 393.0)).distance < 1e-9  # the same point
    assert geoloc.geodesic_direct((12.5, 33.0), 77.0, 0.0)[:2] == pytest.approx((12.5, 33.0), abs=1e-14)
    assert geoloc.geodesic_direct((0, 540.0), 90, 0).lon == -180.0  # longitude reduced to [-180, 180)
    # Any finite azimuth is allowed.
    assert geoloc.geodesic_direct((10, 20), 45 + 720, 1e5) == pytest.approx(geoloc.geodesic_direct((10, 20), 45, 1e5), abs=1e-9)
    # Arguments of any numeric type.
    assert geoloc.geodesic_inverse(Coord(1, 2), numpy.array([3.0, 4.0])) == geoloc.geodesic_inverse((1.0, 2.0), (3.0, 4.0))
    assert geoloc.geodesic_direct([1, 2], numpy.float32(30), 1000) == geoloc.geodesic_direct((1.0, 2.0), 30.0, 1000.0)


def test_errors():
    raises(geoloc.NotFiniteError, geoloc.geodesic_inverse, (NAN, 0), (1, 1))
    raises(geoloc.NotFiniteError, geoloc.geodesic_inverse, (0, 0), (1, INF))
    err = raises(geoloc.OutOfRangeError, geoloc.geodesic_inverse, (40.6, -73.8), (-90.5, 0))
    assert "90.5" in err.message
    raises(geoloc.OutOfRangeError, geoloc.geodesic_direct, (91, 0), 10, 1000)
    raises(geoloc.NotFiniteError, geoloc.geodesic_direct, (40.6, -73.8), NAN, 1000)
    raises(geoloc.NotFiniteError, geoloc.geodesic_direct, (40.6, -73.8), 10, -INF)
    # Issue 18: a coordinate may be "lat,lon" text in every call (it was a TypeError in 0.3).
    assert geoloc.geodesic_inverse("40.6,-73.8", (0, 0)) == geoloc.geodesic_inverse((40.6, -73.8), (0, 0))
    raises(TypeError, geoloc.geodesic_direct, (0, 0), "10", 1000)
    raises(TypeError, geoloc.geodesic_direct, (0, 0), 10, None)
    raises(ValueError, geoloc.geodesic_inverse, (0, 0, 0), (0, 0))


# --------------------------------------------------------------------------------------------
# Model.WGS84 in the distance functions
# --------------------------------------------------------------------------------------------


def test_distance_wgs84_is_the_geodesic_distance():
    for a, b, s12, _, _ in INVERSE:
        d = geoloc.distance(a, b, model=Model.WGS84)
        assert d == geoloc.geodesic_inverse(a, b).distance
        assert abs(d - s12) <= DIST_TOL
        assert geoloc.distance(a, b, "m", "wgs84") == d == geoloc.distance(a, b, model=1)
        for unit in Unit:
            assert math.isclose(geoloc.distance(a, b, unit, "wgs84"), geoloc.convert_length(d, "m", unit), rel_tol=1e-15)
    # The sphere differs from the ellipsoid by at most about 0.56%.
    a, b = (40.6, -73.8), (51.6, -0.5)
    assert abs(geoloc.distance(a, b) / geoloc.distance(a, b, model="wgs84") - 1) < 0.0056


def test_batches_on_wgs84_are_one_call_and_equal_the_scalar():
    rng = numpy.random.default_rng(9)
    a = numpy.column_stack([rng.uniform(-90, 90, 2000), rng.uniform(-180, 180, 2000)])
    b = numpy.column_stack([rng.uniform(-90, 90, 2000), rng.uniform(-180, 180, 2000)])
    b[:10] = 0.0  # a few pairs to (0, 0)
    b[10:20, 0] = -a[10:20, 0]  # near-antipodal ones
    b[10:20, 1] = a[10:20, 1] + 179.9999
    for unit in (Unit.METERS, Unit.MILES):
        got = geoloc.distance_pairs(a, b, unit, "wgs84")
        assert got.dtype == numpy.float64 and got.shape == (2000,)
        scalar = numpy.array([geoloc.distance(x, y, unit, "wgs84") for x, y in zip(a, b)])
        assert numpy.array_equal(got, scalar)
        one = geoloc.distance_one_to_many(a[0], b, unit, Model.WGS84)
        assert numpy.array_equal(one, [geoloc.distance(a[0], y, unit, "wgs84") for y in b])
    total, legs = geoloc.route_length(a[:50], closed=True, unit="km", model="wgs84")
    assert numpy.array_equal(legs, geoloc.distance_pairs(a[:50], numpy.roll(a[:50], -1, axis=0), "km", "wgs84"))
    assert math.isclose(total, legs.sum(), rel_tol=1e-12)
    err = raises(geoloc.OutOfRangeError, geoloc.distance_pairs, a[:5], numpy.array([[0, 0]] * 4 + [[95, 0]]), "m", "wgs84")
    assert "[4]" in err.message


def test_mileage_on_wgs84():
    m = geoloc.mileage("38.321991,-88.867400", ["38.525050,-89.133404"], model="wgs84")
    one_way = geoloc.distance((38.321991, -88.8674), (38.52505, -89.133404), "mi", "wgs84")
    assert math.isclose(m.total, 2 * one_way, rel_tol=1e-12)
    assert m.text == "%.1f" % m.rounded


# --------------------------------------------------------------------------------------------
# Batch geodesics (geodesic_inverse_many, geodesic_direct_many)
# --------------------------------------------------------------------------------------------


def _golden_arrays(golden_dir, name, columns):
    rows = _read_golden(golden_dir, name, columns)
    cases = [r["case"] for r in rows]
    table = {c: numpy.array([float(r[c]) for r in rows]) for c in columns[1:]}
    return cases, table


INVERSE_COLUMNS = ("case", "lat1", "lon1", "lat2", "lon2", "s12_m", "azi1_deg", "azi2_deg")
DIRECT_COLUMNS = ("case", "lat1", "lon1", "azi1", "s12_m", "lat2", "lon2", "azi2")


def test_inverse_many_equals_the_single_call_and_geographiclib(golden_dir):
    cases, t = _golden_arrays(golden_dir, "geodesic_inverse.tsv", INVERSE_COLUMNS)
    a = numpy.column_stack([t["lat1"], t["lon1"]])
    b = numpy.column_stack([t["lat2"], t["lon2"]])
    got = geoloc.geodesic_inverse_many(a, b)
    assert isinstance(got, geoloc.GeodesicInverseArrays)
    assert all(x.dtype == numpy.float64 and x.shape == (len(cases),) for x in got)
    for i in range(len(cases)):
        assert tuple(got[k][i] for k in range(3)) == tuple(geoloc.geodesic_inverse(a[i], b[i])), i  # bit for bit
    # Against GeographicLib (the golden values): 15 nm on the distance, azimuths where unique.
    assert numpy.abs(got.distance - t["s12_m"]).max() <= DIST_TOL
    for i, case in enumerate(cases):
        if case not in AMBIGUOUS_CASES:
            tol = azi_tol(t["s12_m"][i])
            assert angle_diff(got.azi1[i], t["azi1_deg"][i]) <= tol, (case, i)
            assert angle_diff(got.azi2[i], t["azi2_deg"][i]) <= tol, (case, i)
    # The model-aware batch distance is the same geodesic.
    assert numpy.array_equal(got.distance, geoloc.distance_pairs(a, b, model="wgs84"))


def test_direct_many_equals_the_single_call_and_geographiclib(golden_dir):
    cases, t = _golden_arrays(golden_dir, "geodesic_direct.tsv", DIRECT_COLUMNS)
    start = numpy.column_stack([t["lat1"], t["lon1"]])
    got = geoloc.geodesic_direct_many(start, t["azi1"], t["s12_m"])
    assert isinstance(got, geoloc.GeodesicDirectArrays)
    assert all(x.dtype == numpy.float64 and x.shape == (len(cases),) for x in got)
    for i in range(len(cases)):
        one = geoloc.geodesic_direct(start[i], t["azi1"][i], t["s12_m"][i])
        assert (got.lat[i], got.lon[i], got.azi2[i]) == tuple(one), i  # bit for bit
    assert numpy.abs(got.lat - t["lat2"]).max() <= POS_TOL
    assert ((got.lon >= -180) & (got.lon < 180)).all()
    for i in range(len(cases)):
        if abs(t["lat2"][i]) <= 90 - 1e-9:  # longitude and azimuth mean nothing at a pole
            assert angle_diff(got.lon[i], t["lon2"][i]) <= POS_TOL, i
            assert angle_diff(got.azi2[i], t["azi2"][i]) <= azi_tol(t["s12_m"][i]), i


def test_geodesic_batches_against_geographiclib_live():
    geodesic = pytest.importorskip("geographiclib.geodesic").Geodesic.WGS84
    rng = numpy.random.default_rng(14)
    n = 400
    a = numpy.column_stack([numpy.degrees(numpy.arcsin(rng.uniform(-1, 1, n))), rng.uniform(-540, 540, n)])
    b = numpy.column_stack([numpy.degrees(numpy.arcsin(rng.uniform(-1, 1, n))), rng.uniform(-180, 180, n)])
    b[:50] = -a[:50] + [0, 180] + rng.uniform(-0.3, 0.3, (50, 2))  # near-antipodal
    b[:50, 0] = numpy.clip(b[:50, 0], -90, 90)
    azimuth = rng.uniform(-720, 720, n)
    dist = rng.uniform(-3e7, 3e7, n)
    inv = geoloc.geodesic_inverse_many(a, b)
    end = geoloc.geodesic_direct_many(a, azimuth, dist)
    for i in range(n):
        ref = geodesic.Inverse(a[i, 0], a[i, 1], b[i, 0], b[i, 1])
        assert abs(inv.distance[i] - ref["s12"]) <= DIST_TOL, i
        if ref["s12"] < 19.9e6:
            assert angle_diff(inv.azi1[i], ref["azi1"]) < 1e-8 and angle_diff(inv.azi2[i], ref["azi2"]) < 1e-8, i
        d = geodesic.Direct(a[i, 0], a[i, 1], azimuth[i], dist[i])
        assert abs(end.lat[i] - d["lat2"]) < POS_TOL, i
        if abs(d["lat2"]) < 89.999999:
            assert angle_diff(end.lon[i], d["lon2"]) < POS_TOL and angle_diff(end.azi2[i], d["azi2"]) < 1e-8, i


def test_geodesic_batches_shapes_and_broadcasting():
    empty = geoloc.geodesic_inverse_many(numpy.empty((0, 2)), [])
    assert [x.shape for x in empty] == [(0,), (0,), (0,)]
    assert [x.shape for x in geoloc.geodesic_direct_many([], [], [])] == [(0,), (0,), (0,)]
    start = [[10, 20], [-30, 170], [89, 0]]
    # A single azimuth or distance is used for every row.
    one = geoloc.geodesic_direct_many(start, 45, 1e6)
    full = geoloc.geodesic_direct_many(start, [45, 45, 45], numpy.full(3, 1e6, dtype=numpy.float32))
    assert all(numpy.array_equal(x, y) for x, y in zip(one, full))
    # Integer and non-contiguous inputs are read as float64.
    wide = numpy.zeros((3, 4))
    wide[:, ::2] = start
    assert all(numpy.array_equal(x, y) for x, y in zip(geoloc.geodesic_inverse_many(wide[:, ::2], start), geoloc.geodesic_inverse_many(numpy.array(start, float), start)))
    raises(ValueError, geoloc.geodesic_inverse_many, start, start[:2])
    raises(ValueError, geoloc.geodesic_inverse_many, [1.0, 2.0], [1.0, 2.0])
    raises(ValueError, geoloc.geodesic_direct_many, start, [1, 2], 1e6)
    raises(ValueError, geoloc.geodesic_direct_many, start, 10, numpy.zeros((3, 1)))
    raises(TypeError, geoloc.geodesic_direct_many, start, ["10", "20", "30"], 1e6)
    raises(TypeError, geoloc.geodesic_direct_many, start, 10, 1e6 + 1j)
    raises(TypeError, geoloc.geodesic_inverse_many, [["a", "b"]], [[1, 2]])


def test_geodesic_batches_name_the_bad_row():
    a = numpy.array([[10.0, 20.0]] * 6)
    b = numpy.array([[-10.0, 100.0]] * 6)
    bad = a.copy()
    bad[4, 0] = 91
    bad[5, 1] = NAN
    err = raises(geoloc.OutOfRangeError, geoloc.geodesic_inverse_many, bad, b)
    assert err.message == "a[4]: latitude 91 is outside [-90, 90]"
    err = raises(geoloc.OutOfRangeError, geoloc.geodesic_inverse_many, a, bad)
    assert err.message.startswith("b[4]: ")
    bad[4, 0] = 0
    err = raises(geoloc.NotFiniteError, geoloc.geodesic_inverse_many, a, bad)
    assert err.message == "b[5]: longitude nan is not finite"
    err = raises(geoloc.NotFiniteError, geoloc.geodesic_direct_many, bad, 10, 1e6)
    assert err.message.startswith("start[5]: ")
    az = numpy.full(6, 10.0)
    az[2] = INF
    err = raises(geoloc.NotFiniteError, geoloc.geodesic_direct_many, a, az, 1e6)
    assert err.message == "azimuth[2]: inf is not finite"
    dist = numpy.full(6, 1e6)
    dist[3] = -INF
    err = raises(geoloc.NotFiniteError, geoloc.geodesic_direct_many, a, 10, dist)
    assert err.message == "distance[3]: -inf is not finite"
    # The starts are checked before the azimuths, the azimuths before the distances.
    err = raises(geoloc.NotFiniteError, geoloc.geodesic_direct_many, bad, az, dist)
    assert err.message.startswith("start[5]: ")
    err = raises(geoloc.NotFiniteError, geoloc.geodesic_direct_many, a, az, dist)
    assert err.message.startswith("azimuth[2]: ")


def test_distance_fast_path_equals_the_checked_path():
    """distance() of Python floats goes through geoloc_distance_value; of anything else through
    geoloc_distance: the same bits, and the same errors for bad input."""
    rng = numpy.random.default_rng(7)
    for i in range(300):
        a = (float(rng.uniform(-90, 90)), float(rng.uniform(-400, 400)))
        b = (float(rng.uniform(-90, 90)), float(rng.uniform(-180, 180)))
        for unit in Unit:
            for model in Model:
                fast = geoloc.distance(a, b, unit, model)
                assert type(fast) is float
                assert fast == geoloc.distance(numpy.array(a), b, int(unit), model.name.lower()), (a, b, unit, model)
    assert geoloc.distance(Coord(1.0, 2.0), [3.0, 4.0]) == geoloc.distance((1, 2), (3, 4))
    # The usual names take the fast path too, with the same meaning as coerce gives them.
    from geoloc._distance import _MODEL_NAMES, _UNIT_NAMES

    a, b = (12.5, -170.25), (-33.0, 151.0)
    for name, unit in _UNIT_NAMES.items():
        for model_name, model in _MODEL_NAMES.items():
            assert geoloc.distance(a, b, name, model_name) == geoloc.distance(numpy.array(a), b, int(unit), int(model))
    assert geoloc.distance(a, b, " Nautical Miles ") == geoloc.distance(a, b, Unit.NAUTICAL_MILES)
    bad_points = [
        ((NAN, 0.0), geoloc.NotFiniteError, "a: latitude nan is not finite"),
        ((0.0, -INF), geoloc.NotFiniteError, "a: longitude -inf is not finite"),
        ((90.5, 0.0), geoloc.OutOfRangeError, "a: latitude 90.5 is outside [-90, 90]"),
    ]
    for point, cls, message in bad_points:
        for model in Model:
            assert raises(cls, geoloc.distance, point, (0.0, 0.0), Unit.MILES, model).message == message
            assert raises(cls, geoloc.distance, (0.0, 0.0), point, "km", model).message == message.replace("a:", "b:")
    raises(TypeError, geoloc.distance, (numpy.complex128(1), 0.0), (0.0, 0.0))
    raises(TypeError, geoloc.distance, (1.0, 2.0), (3.0, None))
    # Iterators are read once, on either path, as before.
    assert geoloc.distance(iter([1.0, 2.0]), iter([3.0, 4.0])) == geoloc.distance((1, 2), (3, 4))
    assert geoloc.distance(iter([1.0, 2.0]), iter([3, 4]), 2) == geoloc.distance((1, 2), (3, 4), "miles")
    assert geoloc.distance(iter([1.0, 2.0]), (3, 4)) == geoloc.distance((1, 2), (3, 4))
    raises(geoloc.OutOfRangeError, geoloc.distance, iter([1.0, 2.0]), iter([93.0, 4.0]))
    raises(ValueError, geoloc.distance, iter([1.0, 2.0]), iter([93.0]))
    # Issue 18: "lat,lon" text is read as parse_coord reads it (0.3 raised TypeError here).
    raises(geoloc.ParseError, geoloc.distance, "ab", (3.0, 4.0))
    assert geoloc.distance("1,2", (3.0, 4.0)) == geoloc.distance((1.0, 2.0), (3.0, 4.0))
    assert geoloc.distance(b"1, 2", "3,4") == geoloc.distance((1.0, 2.0), (3.0, 4.0))
    raises(TypeError, geoloc.distance, None, (3.0, 4.0))
    raises(ValueError, geoloc.distance, (1.0, 2.0, 3.0), (3.0, 4.0))
    raises(TypeError, geoloc.distance, (1.0, 2.0), (3.0, 4.0), True)
    raises(TypeError, geoloc.distance, (1.0, 2.0), (3.0, 4.0), Model.WGS84)
    raises(TypeError, geoloc.distance, (1.0, 2.0), (3.0, 4.0), Unit.MILES, Unit.METERS)
    raises(geoloc.InvalidArgumentError, geoloc.distance, (1.0, 2.0), (3.0, 4.0), 99)
    raises(geoloc.InvalidArgumentError, geoloc.distance, (1.0, 2.0), (3.0, 4.0), "furlongs")
    raises(geoloc.InvalidArgumentError, geoloc.distance, (1.0, 2.0), (3.0, 4.0), Unit.METERS, 7)


def test_geodesic_fast_paths_equal_the_checked_paths():
    """geodesic_inverse/geodesic_direct of Python floats go through the batch functions with
    n = 1; of anything else through the single calls: the same bits, the same errors."""
    from geoloc._distance import _geodesic_direct_checked, _geodesic_inverse_checked

    rng = numpy.random.default_rng(11)
    for _ in range(300):
        a = (float(rng.uniform(-90, 90)), float(rng.uniform(-400, 400)))
        b = (float(rng.uniform(-90, 90)), float(rng.uniform(-180, 180)))
        assert geoloc.geodesic_inverse(a, b) == _geodesic_inverse_checked(a, b)
        assert geoloc.geodesic_inverse(a, b) == geoloc.geodesic_inverse(numpy.array(a), b)
        z, d = float(rng.uniform(-720, 720)), float(rng.uniform(-3e7, 3e7))
        assert geoloc.geodesic_direct(a, z, d) == _geodesic_direct_checked(a, z, d)
        assert geoloc.geodesic_direct(a, z, d) == geoloc.geodesic_direct(numpy.array(a), z, d)
    assert geoloc.geodesic_inverse(iter([1.0, 2.0]), iter([3, 4])) == geoloc.geodesic_inverse((1, 2), (3, 4))
    assert geoloc.geodesic_direct(iter([1.0, 2.0]), 30, 1000) == geoloc.geodesic_direct((1, 2), 30, 1000)
    err = raises(geoloc.OutOfRangeError, geoloc.geodesic_inverse, (0.0, 0.0), (-91.0, 0.0))
    assert err.message == "b: latitude -91 is outside [-90, 90]"
    err = raises(geoloc.NotFiniteError, geoloc.geodesic_direct, (0.0, 0.0), NAN, 1.0)
    assert err.message == "azimuth nan is not finite"
    err = raises(geoloc.NotFiniteError, geoloc.geodesic_direct, (0.0, 0.0), 1.0, INF)
    assert err.message == "distance inf is not finite"
    err = raises(geoloc.OutOfRangeError, geoloc.geodesic_direct, (90.5, 0.0), 1.0, 1.0)
    assert err.message == "start: latitude 90.5 is outside [-90, 90]"
    raises(TypeError, geoloc.geodesic_inverse, (numpy.complex128(1), 0.0), (0.0, 0.0))
    raises(TypeError, geoloc.geodesic_direct, (0.0, 0.0), numpy.complex128(1), 1.0)


def test_distance_value_entry_point():
    """geoloc_distance_value through ctypes with its declared types: the value, or NaN and the
    message of geoloc_distance."""
    from ctypes import byref, c_double
    from geoloc import _ffi

    fn = _ffi.lib.geoloc_distance_value
    pair = (_ffi.CCoord * 2)(_ffi.CCoord(38.321991, -88.8674), _ffi.CCoord(40.7128, -74.006))
    for unit in Unit:
        for model in Model:
            out = c_double()
            _ffi.lib.geoloc_distance(pair[0], pair[1], model, unit, byref(out))
            assert fn(pair, model, unit) == out.value
    assert math.isnan(fn(None, 0, 0)) and _ffi.last_error() == "pair is NULL"
    assert math.isnan(fn(pair, 5, 0)) and "model 5" in _ffi.last_error()
    assert math.isnan(fn(pair, 0, 9)) and "unit 9" in _ffi.last_error()
    pair[1].lat = -91
    assert math.isnan(fn(pair, 0, 0)) and _ffi.last_error() == "pair[1]: latitude -91 is outside [-90, 90]"
    pair[0].lon = NAN
    assert math.isnan(fn(pair, 1, 0)) and _ffi.last_error() == "pair[0]: longitude nan is not finite"


def test_scalar_messages_name_the_point():
    err = raises(geoloc.OutOfRangeError, geoloc.geodesic_inverse, (91, 0), (0, 0))
    assert err.message == "a: latitude 91 is outside [-90, 90]"
    err = raises(geoloc.NotFiniteError, geoloc.geodesic_inverse, (0, 0), (0, INF))
    assert err.message == "b: longitude inf is not finite"
    err = raises(geoloc.OutOfRangeError, geoloc.geodesic_direct, (-95, 0), 10, 1000)
    assert err.message == "start: latitude -95 is outside [-90, 90]"
    err = raises(geoloc.OutOfRangeError, geoloc.distance, (0.0, 0.0), (91.0, 0.0))
    assert err.message == "b: latitude 91 is outside [-90, 90]"
    err = raises(geoloc.OutOfRangeError, geoloc.distance_one_to_many, (91, 0), [[0, 0]])
    assert err.message == "origin: latitude 91 is outside [-90, 90]"


# --------------------------------------------------------------------------------------------
# Against GeographicLib itself, when installed
# --------------------------------------------------------------------------------------------


def test_random_pairs_against_geographiclib():
    geodesic = pytest.importorskip("geographiclib.geodesic").Geodesic.WGS84
    rng = numpy.random.default_rng(1)
    n = 1500
    a = numpy.column_stack([numpy.degrees(numpy.arcsin(rng.uniform(-1, 1, n))), rng.uniform(-180, 180, n)])
    b = numpy.column_stack([numpy.degrees(numpy.arcsin(rng.uniform(-1, 1, n))), rng.uniform(-180, 180, n)])
    # Near-antipodal pairs, poles and the antimeridian, where the method works hardest.
    k = n // 5
    b[:k, 0] = -a[:k, 0] + rng.uniform(-0.5, 0.5, k)
    b[:k, 1] = a[:k, 1] + 180 + rng.uniform(-0.5, 0.5, k)
    b[k:2 * k, 0] = numpy.clip(a[k:2 * k, 0] + rng.uniform(-1, 1, k), -90, 90)
    a[2 * k:2 * k + 20, 0] = 90
    b[2 * k + 20:2 * k + 40, 0] = -90
    got = geoloc.distance_pairs(a, b, model="wgs84")
    worst = 0.0
    for i in range(n):
        ref = geodesic.Inverse(a[i, 0], a[i, 1], b[i, 0], b[i, 1])
        worst = max(worst, abs(got[i] - ref["s12"]))
        if i % 10 == 0:
            inv = geoloc.geodesic_inverse(a[i], b[i])
            assert inv.distance == got[i]
            if ref["s12"] < 19.9e6 and abs(a[i, 0]) < 90 and abs(b[i, 0]) < 90:
                assert angle_diff(inv.azi1, ref["azi1"]) < 1e-8, (a[i], b[i], inv, ref)
                assert angle_diff(inv.azi2, ref["azi2"]) < 1e-8, (a[i], b[i], inv, ref)
            d = geodesic.Direct(a[i, 0], a[i, 1], ref["azi1"], 1e6 * (i % 7) - 2e6)
            end = geoloc.geodesic_direct(a[i], ref["azi1"], 1e6 * (i % 7) - 2e6)
            assert abs(end.lat - d["lat2"]) < POS_TOL and (angle_diff(end.lon, d["lon2"]) < POS_TOL or abs(d["lat2"]) > 89.999999)
    assert worst <= DIST_TOL, worst


# --------------------------------------------------------------------------------------------
# The shared golden files
# --------------------------------------------------------------------------------------------

# tests/golden/geodesic_inverse.tsv: case, lat1, lon1, lat2, lon2, s12_m, azi1_deg, azi2_deg
# tests/golden/geodesic_direct.tsv:  case, lat1, lon1, azi1, s12_m, lat2, lon2, azi2
# (generated by tools/gen_geodesic.py with GeographicLib; a missing or empty file fails)

# Cases whose shortest path is not unique: only the distance is compared there.
AMBIGUOUS_CASES = {"antipodal", "identical"}


def _read_golden(golden_dir: Path, name: str, columns) -> List[Dict[str, str]]:
    path = golden_dir / name
    assert path.is_file(), "%s is missing (tools/gen_geodesic.py writes it)" % path
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    header = tuple(lines[0].split("\t"))
    assert header == columns, (name, header)
    rows = []
    for number, line in enumerate(lines[1:], 2):
        fields = line.split("\t")
        assert len(fields) == len(header), (name, number, line)
        rows.append(dict(zip(header, fields)))
    assert rows, "%s has no cases" % path
    return rows


def test_golden_inverse(golden_dir):
    rows = _read_golden(
        golden_dir, "geodesic_inverse.tsv", ("case", "lat1", "lon1", "lat2", "lon2", "s12_m", "azi1_deg", "azi2_deg")
    )
    failures = []
    for row in rows:
        a = (float(row["lat1"]), float(row["lon1"]))
        b = (float(row["lat2"]), float(row["lon2"]))
        got = geoloc.geodesic_inverse(a, b)
        if abs(got.distance - float(row["s12_m"])) > DIST_TOL:
            failures.append((row, got, "distance off by %.3g m" % abs(got.distance - float(row["s12_m"]))))
        tol = azi_tol(float(row["s12_m"]))
        if row["case"] not in AMBIGUOUS_CASES and (
            angle_diff(got.azi1, float(row["azi1_deg"])) > tol or angle_diff(got.azi2, float(row["azi2_deg"])) > tol
        ):
            failures.append((row, got, "azimuths"))
        if geoloc.distance(a, b, model="wgs84") != got.distance:
            failures.append((row, got, "distance(model=wgs84) differs"))
    assert failures == [], failures[:10]
    assert {row["case"] for row in rows} >= {"random", "antipodal", "near_antipodal", "polar", "antimeridian"}


def test_golden_direct(golden_dir):
    rows = _read_golden(
        golden_dir, "geodesic_direct.tsv", ("case", "lat1", "lon1", "azi1", "s12_m", "lat2", "lon2", "azi2")
    )
    failures = []
    for row in rows:
        got = geoloc.geodesic_direct((float(row["lat1"]), float(row["lon1"])), float(row["azi1"]), float(row["s12_m"]))
        lat2, lon2, azi2 = float(row["lat2"]), float(row["lon2"]), float(row["azi2"])
        at_pole = abs(lat2) > 90 - 1e-9  # longitude and azimuth mean nothing there
        if abs(got.lat - lat2) > POS_TOL or not -180 <= got.lon < 180:
            failures.append((row, got, "latitude"))
        elif not at_pole and (angle_diff(got.lon, lon2) > POS_TOL or angle_diff(got.azi2, azi2) > azi_tol(float(row["s12_m"]))):
            failures.append((row, got, "longitude or azimuth"))
    assert failures == [], failures[:10]


# --------------------------------------------------------------------------------------------
# The shared golden cases of this capability (tests/golden)
# --------------------------------------------------------------------------------------------


def _angle_diff(a: float, b: float) -> float:
    d = math.fmod(a - b, 360.0)
    return abs(d - 360 if d > 180 else d + 360 if d <= -180 else d)


def _azi_tol(s12: float) -> float:
    # 1e-9 degrees, or the angle that moves the far end of the line sideways by 15 nm.
    return max(1e-9, math.degrees(15e-9 / abs(s12)) if s12 else 360.0)


def check_distance(r: Dict[str, Optional[str]]) -> None:
    a = (float(r["lat1"]), float(r["lon1"]))
    b = (float(r["lat2"]), float(r["lon2"]))
    expected, rel = float(r["expected"]), float(r["rel_tol"])
    got = geoloc.distance(a, b, r["unit"])
    assert close(got, expected, rel), (got, expected)
    back = geoloc.distance(b, a, r["unit"])
    assert close(back, expected, rel), (back, expected)


def check_geodesic_inverse(r: Dict[str, Optional[str]]) -> None:
    a, b = (float(r["lat1"]), float(r["lon1"])), (float(r["lat2"]), float(r["lon2"]))
    got = geoloc.geodesic_inverse(a, b)
    s12 = float(r["s12_m"])
    assert abs(got.distance - s12) <= 15e-9, (got, s12)
    assert geoloc.distance(a, b, model="wgs84") == got.distance
    if r["case"] not in ("antipodal", "identical"):  # no unique shortest path there
        assert _angle_diff(got.azi1, float(r["azi1_deg"])) <= _azi_tol(s12), got
        assert _angle_diff(got.azi2, float(r["azi2_deg"])) <= _azi_tol(s12), got


def check_geodesic_direct(r: Dict[str, Optional[str]]) -> None:
    s12 = float(r["s12_m"])
    got = geoloc.geodesic_direct((float(r["lat1"]), float(r["lon1"])), float(r["azi1"]), s12)
    lat2 = float(r["lat2"])
    assert abs(got.lat - lat2) <= 1e-11 and -180 <= got.lon < 180, got
    if abs(lat2) < 90 - 1e-9:  # longitude and azimuth mean nothing at a pole
        assert _angle_diff(got.lon, float(r["lon2"])) <= 1e-11, got
        assert _angle_diff(got.azi2, float(r["azi2"])) <= _azi_tol(s12), got


GOLDEN_CHECKERS = {
    "distance.tsv": check_distance,
    "geodesic_inverse.tsv": check_geodesic_inverse,
    "geodesic_direct.tsv": check_geodesic_direct,
}


@golden_cases.parametrize("distance")
def test_golden_row(case) -> None:
    golden_cases.check_row(case, GOLDEN_CHECKERS)


def test_every_golden_file_of_this_capability_has_a_checker() -> None:
    assert set(GOLDEN_CHECKERS) == set(golden_cases.FILES_BY_CAPABILITY["distance"])


def _distance_rows(golden_dir: Path) -> List[Dict[str, Optional[str]]]:
    cases = golden_cases.cases(golden_dir, "distance.tsv")
    problems = [c.problem for c in cases if c.problem]
    if problems:
        pytest.fail("; ".join(problems))
    return [c.row for c in cases]


def test_golden_distance_batch(golden_dir: Path) -> None:
    """Every distance case again, through distance_pairs and distance_one_to_many per unit."""
    rows = _distance_rows(golden_dir)
    for unit in geoloc.Unit:
        mine = [r for r in rows if r["unit"] == unit.name]
        if not mine:
            continue
        a = numpy.array([[float(r["lat1"]), float(r["lon1"])] for r in mine])
        b = numpy.array([[float(r["lat2"]), float(r["lon2"])] for r in mine])
        expected = numpy.array([float(r["expected"]) for r in mine])
        rel = numpy.array([float(r["rel_tol"]) for r in mine])
        got = geoloc.distance_pairs(a, b, unit)
        bad = numpy.abs(got - expected) > rel * numpy.maximum(expected, 1e-300) + 1e-9
        assert not bad.any(), list(zip(got[bad], expected[bad]))
        for i in range(len(mine)):
            one = geoloc.distance_one_to_many(a[i], b[i : i + 1], unit)
            assert close(one[0], expected[i], rel[i])


# ============================================================================================
# Separate latitude and longitude columns (LatLon) in the batch calls
# ============================================================================================


def test_batches_take_latlon_columns():
    a = random_lat_lon(50, 14)
    b = random_lat_lon(50, 15)
    for model in ("sphere", "wgs84"):
        want = geoloc.distance_pairs(a, b, "km", model)
        got = geoloc.distance_pairs(geoloc.LatLon(a[:, 0], a[:, 1]), geoloc.LatLon(b[:, 0].tolist(), b[:, 1]), "km", model)
        assert numpy.array_equal(got, want)
        # one side rows, the other columns
        assert numpy.array_equal(geoloc.distance_pairs(a, geoloc.LatLon(b[:, 0], b[:, 1]), "km", model), want)
        want1 = geoloc.distance_one_to_many(NYC, b, "mi", model)
        assert numpy.array_equal(geoloc.distance_one_to_many(NYC, geoloc.LatLon(b[:, 0], b[:, 1]), "mi", model), want1)
    assert rel_close(geoloc.distance_pairs(geoloc.LatLon([a[0, 0]], [a[0, 1]]), b[:1])[0], geoloc.distance(a[0], b[0]), 1e-15)
    with pytest.raises(ValueError, match="same shape"):
        geoloc.distance_pairs(geoloc.LatLon([1.0, 2.0], [3.0, 4.0]), b[:3])
    with pytest.raises(ValueError, match="points has 2 latitudes and 1 longitudes"):
        geoloc.distance_one_to_many(NYC, geoloc.LatLon([1.0, 2.0], [3.0]))
    with pytest.raises(geoloc.OutOfRangeError):
        geoloc.distance_one_to_many(NYC, geoloc.LatLon([1.0, 91.0], [3.0, 4.0]))
