"""Place sets, regions, loaders and the gazetteer through the Python API: the intent of
tests/c/test_places.c, plus what only the Python door has (handle ownership, result lists that
grow, threads through concurrent.futures).

Expected result sets come from brute force over the package's own distance functions, compared
exactly: the same indices in the same order, the same distances bit for bit."""

from __future__ import annotations

import concurrent.futures
import ctypes
import gc
import json
import os
import shutil
import subprocess
import sys
import textwrap
import threading
import time
from ctypes import c_size_t
from pathlib import Path


import numpy
import pytest

import geoloc
from geoloc import (
    Coord,
    Gazetteer,
    LoadIssue,
    Match,
    Model,
    Place,
    Places,
    Region,
    Unit,
)
from geoloc import _ffi, _geocoding, _places

from helpers import INF, NAN, raises


def random_points(rng, n):
    """Uniform on the sphere, or (a quarter each) within a degree of the antimeridian or a pole."""
    kind = rng.integers(0, 4, n)
    lat = numpy.degrees(numpy.arcsin(rng.uniform(-1, 1, n)))
    lon = rng.uniform(-180, 180, n)
    near_am = kind == 0
    lat[near_am] = rng.uniform(-89, 89, near_am.sum())
    lon[near_am] = rng.uniform(-1, 1, near_am.sum()) + numpy.where(rng.integers(0, 2, near_am.sum()) == 1, 179.5, -179.5)
    near_pole = kind == 1
    lat[near_pole] = numpy.where(rng.integers(0, 2, near_pole.sum()) == 1, 1, -1) * rng.uniform(89, 90, near_pole.sum())
    return numpy.column_stack([lat, lon])


def brute_force(pts, q, unit="meters", model="sphere"):
    """Every point's distance from q by geoloc.distance (the value the header promises the
    queries give), nearest first, ties by index."""
    q = (float(q[0]), float(q[1]))
    d = [geoloc.distance(q, p, unit, model) for p in map(tuple, numpy.asarray(pts, dtype=float).tolist())]
    return [Match(i, d[i]) for i in sorted(range(len(d)), key=lambda i: (d[i], i))]


def brute_within(pts, q, radius, unit="meters", model="sphere"):
    return [m for m in brute_force(pts, q, unit, model) if m.distance <= radius]


# ============================================================================================
# The table and the structures
# ============================================================================================


def test_handle_pointer_types_are_distinct():
    assert len({_places.PlacesPtr, _places.RegionPtr, _geocoding.GazetteerPtr}) == 3
    out = c_size_t()
    with pytest.raises(ctypes.ArgumentError):
        _ffi.lib.geoloc_places_count(_places.RegionPtr(), ctypes.byref(out))


def test_structure_layouts_match_a_c_compiler(tmp_path, repo_root):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler to compare layouts with")
    fields = {
        "geoloc_match": (_places.CMatch, ["index", "distance"]),
        "geoloc_load_options": (
            _places.CLoadOptions,
            ["strict", "latitude_column", "longitude_column", "id_column", "name_column", "delimiter"],
        ),
        "geoloc_load_limits": (_places.CLoadLimits, ["struct_size", "max_issues", "max_places", "max_bytes", "max_records"]),
    }
    lines = []
    for struct, (_, names) in fields.items():
        lines.append('printf("%s %%zu\\n", sizeof(%s));' % (struct, struct))
        for f in names:
            lines.append('printf("%s.%s %%zu\\n", offsetof(%s, %s));' % (struct, f, struct, f))
    src = tmp_path / "layout.c"
    src.write_text('#include "geoloc.h"\n#include <stdio.h>\n#include <stddef.h>\nint main(void) {\n%s\nreturn 0;\n}\n' % "\n".join(lines))
    exe = tmp_path / "layout"
    subprocess.run([cc, "-I", str(repo_root / "include"), "-o", str(exe), str(src)], check=True)
    got = dict(line.split() for line in subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.splitlines())
    for struct, (cls, names) in fields.items():
        assert int(got[struct]) == ctypes.sizeof(cls), struct
        assert [f for f, _ in cls._fields_] == names
        for f in names:
            assert int(got["%s.%s" % (struct, f)]) == getattr(cls, f).offset, (struct, f)


def test_public_surface():
    for name in ("Places", "Place", "Match", "LoadIssue", "Region", "Gazetteer", "ReverseGeocode",
                 "reverse_geocode", "shared_gazetteer", "geodesic_inverse", "geodesic_direct",
                 "GeodesicInverse", "GeodesicDirect"):
        assert hasattr(geoloc, name), name
        assert name in geoloc.__all__, name
    for cls in (Places, Region, Gazetteer):
        with pytest.raises(TypeError):
            cls()


# ============================================================================================
# Creating and reading a set
# ============================================================================================

PTS = [(41.0, -87.6), (40.7, 286.0), (-33.9, 151.2)]


@pytest.fixture
def small():
    with Places.from_arrays(
        PTS,
        ids=["chi", None, "syd"],
        names=["Chicago", "New York", None],
        attributes={"kind": ["mosque", None, "church"], "denomination": ["sunni", "shia", None]},
    ) as p:
        yield p


def test_create_and_read(small):
    p = small
    assert len(p) == 3
    assert p.issues == ()
    assert p.attribute_names == ("kind", "denomination")
    c = p.coord(1)
    assert isinstance(c, Coord) and c.lat == 40.7 and abs(c.lon - (-74.0)) < 1e-12
    assert p.coord(-1) == Coord(-33.9, 151.2)
    assert [p.id(i) for i in range(3)] == ["chi", "2", "syd"]  # the 1-based index for a None id
    assert [p.name(i) for i in range(3)] == ["Chicago", "New York", ""]
    assert p.attribute(0, "kind") == "mosque"
    assert p.attribute(1, "denomination") == "shia"
    assert p.attribute(1, b"kind") is None  # a bytes name works; a missing value is None
    assert p.attribute(2, "denomination") is None
    err = raises(geoloc.NotFoundError, p.attribute, 0, "colour")  # an unknown name is an error
    assert "colour" in err.message
    raises(geoloc.InvalidUTF8Error, p.attribute, 0, b"\xff")
    raises(geoloc.InvalidArgumentError, p.attribute, 0, "ki\0nd")
    raises(TypeError, p.attribute, 0, 5)
    assert p.attributes(0) == {"kind": "mosque", "denomination": "sunni"}
    assert p.attributes(1) == {"kind": None, "denomination": "shia"}
    place = p.place(0)
    assert isinstance(place, Place)
    assert place == Place(0, Coord(41.0, -87.6), "chi", "Chicago", {"kind": "mosque", "denomination": "sunni"})
    assert (place.lat, place.lon) == (41.0, -87.6)
    assert p[-1].index == 2 and p[2].name == ""
    assert [q.id for q in p] == ["chi", "2", "syd"]
    numpy.testing.assert_array_equal(p.coords(), [[41.0, -87.6], [40.7, p.coord(1).lon], [-33.9, 151.2]])
    assert "3 places" in repr(p)
    for bad in (3, -4, 2**70):
        with pytest.raises(IndexError):
            p.coord(bad)
        with pytest.raises(IndexError):
            p.name(bad)
        with pytest.raises(IndexError):
            p.attribute(bad, "kind")
    for bad in (1.0, "1", None, True):
        with pytest.raises(TypeError):
            p.coord(bad)
    assert p.coord(numpy.int64(2)) == Coord(-33.9, 151.2)


def test_create_errors():
    good = [(1, 2), (3, 4)]
    err = raises(geoloc.OutOfRangeError, Places.from_arrays, [(1, 2), (90.0000001, 4)])
    assert "coords[1]" in err.message
    raises(geoloc.NotFiniteError, Places.from_arrays, [(NAN, 2), (3, 4)])
    err = raises(geoloc.InvalidUTF8Error, Places.from_arrays, good, ids=[b"a", b"\xc3\x28"])
    assert "ids[1]" in err.message
    raises(geoloc.InvalidUTF8Error, Places.from_arrays, good, names=["a", "\udcff"])
    err = raises(geoloc.InvalidArgumentError, Places.from_arrays, good, names=["a", "b\0"])
    assert "names[1]" in err.message
    err = raises(geoloc.InvalidUTF8Error, Places.from_arrays, good, attributes={"k": ["x", b"\xff"]})
    assert "[1]" in err.message
    raises(geoloc.InvalidArgumentError, Places.from_arrays, good, attributes={"x": ["1", "2"], b"x": ["3", "4"]})
    raises(ValueError, Places.from_arrays, good, ids=["a"])
    raises(ValueError, Places.from_arrays, good, names=["a", "b", "c"])
    raises(ValueError, Places.from_arrays, good, attributes={"x": ["1"]})
    raises(TypeError, Places.from_arrays, good, ids="ab")
    raises(TypeError, Places.from_arrays, good, ids=[1.0, 2])  # an int id is text (see below); a float is not
    raises(TypeError, Places.from_arrays, good, ids=[True, 2])
    raises(TypeError, Places.from_arrays, good, attributes=[("x", ["1", "2"])])
    raises(TypeError, Places.from_arrays, good, attributes={"x": "12"})
    raises(ValueError, Places.from_arrays, [(1, 2, 3)])
    raises(TypeError, Places.from_arrays, good, attributes={5: ["1", "2"]})


def test_empty_set():
    for empty in ([], numpy.empty((0, 2))):
        with Places.from_arrays(empty) as e:
            assert len(e) == 0 and list(e) == [] and e.coords().shape == (0, 2)
            assert e.within((1, 2), 1e9) == []
            assert e.nearest((1, 2), 3) == []
            raises(geoloc.OutOfRangeError, e.nearest, (91, 2), 3)  # still checked
            with Region.from_wkt("POLYGON((0 0, 1 0, 1 1, 0 0))") as r:
                assert e.in_region(r) == []


def test_from_records():
    recs = [
        {"lat": 38.3, "lon": -88.9, "id": "m1", "name": "Central", "kind": "mosque"},
        {"latitude": 38.2, "longitude": -88.7, "name": "South", "capacity": "250"},
        {"lat": 38.1, "lng": -88.6},
    ]
    with Places.from_records(recs) as p:
        assert len(p) == 3
        assert [p.id(i) for i in range(3)] == ["m1", "2", "3"]
        assert [p.name(i) for i in range(3)] == ["Central", "South", ""]
        assert p.attribute_names == ("kind", "capacity")
        assert p.attributes(0) == {"kind": "mosque", "capacity": None}
        assert p.attributes(1) == {"kind": None, "capacity": "250"}
        assert p.coord(2) == Coord(38.1, -88.6)
    with Places.from_records([(1.0, 2.0), (3, 4, "x"), [5, 6, "y", "Why"]]) as p:
        assert [p.id(i) for i in range(3)] == ["1", "x", "y"]
        assert [p.name(i) for i in range(3)] == ["", "", "Why"]
        assert p.attribute_names == ()
    with Places.from_records(iter([])) as p:
        assert len(p) == 0
    raises(ValueError, Places.from_records, [{"lat": 1}])
    raises(ValueError, Places.from_records, [(1,)])
    raises(TypeError, Places.from_records, ["1,2"])
    raises(TypeError, Places.from_records, [5])
    raises(geoloc.OutOfRangeError, Places.from_records, [(95, 0)])


# ============================================================================================
# Radius search and k nearest: hand-made cases
# ============================================================================================

# 0, 1: either side of the antimeridian; 2, 3: the same spot (a tie); 4: the north pole;
# 5: near it across the date line; 6: the south pole; 7: Greenwich.
HAND = [(10.0, 179.99), (10.0, -179.99), (-45.0, 170.0), (-45.0, 170.0),
        (90.0, 0.0), (89.99, 180.0), (-90.0, 33.0), (51.4779, 0.0)]


@pytest.fixture(scope="module")
def hand():
    p = Places.from_arrays(HAND)
    yield p
    p.close()


def test_within_cases(hand):
    p = hand
    # Across the antimeridian: both sides.
    got = p.within((10.0, 180.0), 5, "km")
    assert sorted(m.index for m in got) == [0, 1]
    assert got == brute_within(HAND, (10.0, 180.0), 5, "km")
    assert geoloc.distance(HAND[0], HAND[1], "km") < 2.5
    # Ties in index order; radius 0 finds a place exactly at the centre.
    assert p.within(HAND[2], 0) == [Match(2, 0.0), Match(3, 0.0)]
    assert p.within((-45.0, 170.0000001), 0) == []
    # The poles: every longitude is near them.
    assert [m.index for m in p.within((90.0, -123.0), 2, "km")] == [4, 5]
    assert [m.index for m in p.within((-89.999, 150.0), 1, "mi")] == [6]
    # Half the Earth or more: everything, sorted.
    everything = p.within(HAND[7], 20100, "km")
    assert everything == brute_force(HAND, HAND[7], "km")
    assert len(everything) == len(HAND) and everything[0] == Match(7, 0.0)
    assert len(p.within(HAND[7], 1e12)) == len(HAND)
    assert len(p.within(HAND[7], 20100, "km", model="wgs84")) == len(HAND)
    # A limit keeps the nearest.
    assert p.within(HAND[7], 20100, "km", limit=3) == everything[:3]
    assert p.within(HAND[7], 20100, "km", limit=100) == everything
    assert p.within(HAND[7], 20100, "km", limit=0) == []
    # Units: distances in the unit asked for, equal to geoloc.distance.
    q = (51.4779, 0.01)
    for unit in Unit:
        radius = geoloc.convert_length(1, "mi", unit)
        assert p.within(q, radius, unit) == [Match(7, geoloc.distance(q, HAND[7], unit))]
    assert p.within(q, 1, Unit.MILES) == p.within(q, 1, 2) == p.within(q, 1, "MILES")
    # Coordinates in any form.
    assert p.within(Coord(*HAND[2]), 0) == p.within(numpy.array(HAND[2]), 0) == p.within([-45, 170], 0)


def test_within_argument_errors(hand):
    p = hand
    raises(geoloc.InvalidArgumentError, p.within, HAND[0], 1, unit="furlong")
    raises(geoloc.InvalidArgumentError, p.within, HAND[0], 1, unit=99)
    raises(geoloc.InvalidArgumentError, p.within, HAND[0], 1, model=99)
    raises(geoloc.NotFiniteError, p.within, HAND[0], NAN)
    raises(geoloc.NotFiniteError, p.within, HAND[0], INF)
    raises(geoloc.OutOfRangeError, p.within, HAND[0], -1)
    raises(geoloc.NotFiniteError, p.within, (NAN, 0), 1)
    raises(geoloc.OutOfRangeError, p.within, (-91, 0), 1)
    raises(geoloc.OutOfRangeError, p.within, (-91, 0), 1, limit=0)  # checked with no result wanted
    raises(geoloc.OutOfRangeError, p.within, HAND[0], 1, limit=-1)
    raises(geoloc.CountTooLargeError, p.within, HAND[0], 1, limit=geoloc.MAX_COUNT + 1)
    raises(TypeError, p.within, HAND[0], 1, limit=1.5)
    raises(TypeError, p.within, HAND[0], 1, limit=True)
    raises(TypeError, p.within, HAND[0], "1")
    assert p.within("10,20", 1) == p.within((10, 20), 1)  # issue 18: text is a coordinate (0.3: TypeError)
    raises(ValueError, p.within, (1, 2, 3), 1)


def test_within_many_equals_within_per_centre(hand):
    rng = numpy.random.default_rng(6)
    centers = numpy.column_stack([rng.uniform(-90, 90, 300), rng.uniform(-180, 180, 300)])
    centers[:3] = [(10.0, 180.0), (-45.0, 170.0), (90.0, -123.0)]
    for radius, limit in [(0.0, None), (500.0, None), (3000.0, 2), (20100.0, None)]:
        offsets, idx, dist = hand.within_many(centers, radius, "km", limit=limit)
        assert offsets.shape == (301,) and offsets[0] == 0 and offsets[-1] == len(idx) == len(dist)
        for i, c in enumerate(centers):
            want = hand.within(c, radius, "km", limit=limit)
            a, b = offsets[i], offsets[i + 1]
            assert [int(j) for j in idx[a:b]] == [m.index for m in want]
            assert list(dist[a:b]) == [m.distance for m in want]
    offsets, idx, dist = hand.within_many(numpy.empty((0, 2)), 1.0)
    assert list(offsets) == [0] and len(idx) == 0
    with pytest.raises(geoloc.OutOfRangeError, match=r"centers\[1\]"):
        hand.within_many([(0, 0), (91, 0)], 1.0)
    with pytest.raises(geoloc.NotFiniteError):
        hand.within_many([(0, 0)], float("nan"))


def test_nearest_many_equals_nearest_per_point(hand):
    rng = numpy.random.default_rng(5)
    pts = numpy.column_stack([rng.uniform(-90, 90, 200), rng.uniform(-180, 180, 200)])
    pts[:3] = [(-45.0, 170.0), (90.0, 0.0), (10.0, -179.999)]
    for k, bound in [(1, None), (3, None), (5, 3000.0), (20, None)]:
        idx, dist = hand.nearest_many(pts, k, "km", max_distance=bound)
        assert idx.shape == dist.shape == (200, k) and idx.dtype == numpy.int64
        for i, q in enumerate(pts):
            want = hand.nearest(q, k, "km", max_distance=bound)
            assert [int(j) for j in idx[i, : len(want)]] == [m.index for m in want]
            assert list(dist[i, : len(want)]) == [m.distance for m in want]
            assert (idx[i, len(want):] == -1).all() and numpy.isinf(dist[i, len(want):]).all()
    idx, dist = hand.nearest_many(numpy.empty((0, 2)), 2)
    assert idx.shape == (0, 2)
    with pytest.raises(geoloc.InvalidArgumentError):
        hand.nearest_many(pts, 0)
    with pytest.raises(geoloc.OutOfRangeError, match=r"points\[1\]"):
        hand.nearest_many([(0, 0), (91, 0)], 1)


def test_nearest_cases(hand):
    p = hand
    got = p.nearest((-45.0, 170.0), 3)
    assert len(got) == 3 and got[:2] == [Match(2, 0.0), Match(3, 0.0)]
    assert got == brute_force(HAND, (-45.0, 170.0))[:3]
    assert [m.index for m in p.nearest((10.0, -179.999))] == [1]
    assert p.nearest((10.0, -179.999), 0) == []
    assert p.nearest((10.0, -179.999), 100) == brute_force(HAND, (10.0, -179.999))
    assert len(p.nearest((10.0, -179.999), 100, "km", max_distance=10)) == 2
    assert p.nearest((10.0, -179.999), 100, "km", max_distance=0) == []
    assert p.nearest(HAND[6], 2, "nmi", "wgs84") == brute_force(HAND, HAND[6], "nmi", "wgs84")[:2]
    raises(geoloc.NotFiniteError, p.nearest, HAND[0], 1, max_distance=NAN)
    raises(geoloc.OutOfRangeError, p.nearest, HAND[0], 1, max_distance=-1)
    raises(geoloc.OutOfRangeError, p.nearest, HAND[0], -1)
    raises(geoloc.CountTooLargeError, p.nearest, HAND[0], 2**64)
    raises(geoloc.OutOfRangeError, p.nearest, (90.5, 0), 0)
    raises(geoloc.InvalidArgumentError, p.nearest, HAND[0], 1, model="mercator")
    raises(TypeError, p.nearest, HAND[0], None)


# ============================================================================================
# Radius search and k nearest against brute force
# ============================================================================================


@pytest.mark.parametrize("model, queries", [(Model.SPHERE, 150), (Model.WGS84, 40)])
def test_against_brute_force(model, queries, tmp_path):
    rng = numpy.random.default_rng(20240 + int(model))
    n = 2500
    pts = random_points(rng, n)
    pts[-20:] = pts[:20]  # exact duplicates: ties
    radii_km = [0, 0.5, 5, 50, 300, 2000, 9000, 15000, 20100]
    with Places.from_arrays(pts) as made:
        # The set saved and opened again answers every query as the set (and brute force) does.
        made.save(tmp_path / "property.places")
        with Places.open(tmp_path / "property.places") as opened:
            for qn in range(queries):
                c = tuple(pts[rng.integers(n)]) if qn % 3 == 0 else tuple(random_points(rng, 1)[0])
                r = radii_km[rng.integers(len(radii_km))] * rng.uniform(0.5, 1.0)
                k = int(rng.integers(1, 51))
                want = brute_force(pts, c, "km", model)
                in_radius = [m for m in want if m.distance <= r]
                for p in (made, opened):
                    assert p.within(c, r, "km", model) == in_radius, (c, r)
                    assert p.nearest(c, k, "km", model) == want[:k], (c, k)
                    if qn % 10 == 0:
                        assert p.within(c, r, "km", model, limit=k) == in_radius[:k]
                        assert p.nearest(c, k, "km", model, max_distance=r) == in_radius[:k]


def test_result_list_grows_past_the_first_capacity(monkeypatch):
    """More results than the first buffer holds: a second call with exactly *count slots, and
    GEOLOC_E_BUFFER_TOO_SMALL never reaches the caller."""
    rng = numpy.random.default_rng(5)
    pts = numpy.column_stack([rng.uniform(38, 39, 1000), rng.uniform(-89, -88, 1000)])
    center = (38.5, -88.5)

    calls = []

    class Spy:
        def __getattr__(self, name):
            fn = getattr(_ffi.lib, name)

            def call(*args):
                try:
                    result = fn(*args)
                except geoloc.GeolocError as err:
                    calls.append((name, args, type(err)))
                    raise
                calls.append((name, args, None))
                return result

            return call

    with Places.from_arrays(pts) as p:
        want = brute_within(pts, center, 40, "km")
        assert len(want) > 2 * _places.FIRST_CAPACITY
        monkeypatch.setattr(_places, "_lib", Spy())
        got = p.within(center, 40, "km")
        assert got == want
        within = [(args[7], err) for name, args, err in calls if name == "geoloc_places_within"]
        assert within == [(_places.FIRST_CAPACITY, geoloc.BufferTooSmallError), (len(want), None)]
        # With a limit the first buffer is the limit's size: one call.
        calls.clear()
        assert p.within(center, 40, "km", limit=200) == want[:200]
        assert [args[7] for name, args, _ in calls if name == "geoloc_places_within"] == [200]
        # k nearest: the first buffer holds k (or the whole set): one call.
        calls.clear()
        assert p.nearest(center, 300, "km") == brute_force(pts, center, "km")[:300]
        assert p.nearest(center, 10**6) == brute_force(pts, center)
        assert [args[7] for name, args, _ in calls if name == "geoloc_places_nearest"] == [300, 1000]
        # Regions grow the same way.
        calls.clear()
        with Region.from_wkt("POLYGON((-89 38, -88 38, -88 39, -89 39, -89 38))") as r:
            got = p.in_region(r)
            assert [m.index for m in got] == list(range(1000)) and all(m.distance == 0 for m in got)
        caps = [(args[7], err) for name, args, err in calls if name == "geoloc_places_in_region"]
        assert caps == [(_places.FIRST_CAPACITY, geoloc.BufferTooSmallError), (1000, None)]


# ============================================================================================
# Regions
# ============================================================================================

WKT = ("POLYGON((-90 38, -88 38, -88 40, -90 40, -90 38),"
       "(-89.5 38.5, -88.5 38.5, -88.5 39.5, -89.5 39.5, -89.5 38.5))")
GEOJSON_FEATURE = {
    "type": "Feature",
    "properties": {},
    "geometry": {
        "type": "Polygon",
        "coordinates": [
            [[-90, 38], [-88, 38], [-88, 40], [-90, 40], [-90, 38]],
            [[-89.5, 38.5], [-88.5, 38.5], [-88.5, 39.5], [-89.5, 39.5], [-89.5, 38.5]],
        ],
    },
}


def in_square_with_hole(lat, lon):
    """The square [-90, -88] x [38, 40] minus the open hole (-89.5, -88.5) x (38.5, 39.5)."""
    in_outer = -90 <= lon <= -88 and 38 <= lat <= 40
    in_hole = -89.5 < lon < -88.5 and 38.5 < lat < 39.5
    return in_outer and not in_hole


def test_regions():
    rng = numpy.random.default_rng(11)
    n = 2000
    pts = numpy.column_stack([rng.uniform(37.5, 40.5, n), rng.uniform(-90.5, -87.5, n)])
    pts[0] = (38, -90)  # a corner
    pts[1] = (39, -89.5)  # on the hole's edge
    pts[2] = (39, -89)  # in the hole
    inside = [in_square_with_hole(lat, lon) for lat, lon in pts]
    with Region.from_wkt(WKT) as r, Region.from_geojson(json.dumps(GEOJSON_FEATURE)) as r2, \
            Region.from_geojson(GEOJSON_FEATURE) as r3, Places.from_arrays(pts) as p:
        assert [r.contains(tuple(x)) for x in pts] == inside
        assert [tuple(x) in r2 for x in pts] == inside
        assert inside[0] and inside[1] and not inside[2]
        # Without an origin: index order, distance 0.
        got = p.in_region(r, unit="mi")
        assert got == [Match(i, 0.0) for i in range(n) if inside[i]]
        # From an origin: sorted as brute force sorts; every way of making the region agrees.
        origin = (39.0, -88.9)
        want = [m for m in brute_force(pts, origin, "mi") if inside[m.index]]
        assert p.in_region(r, origin, "mi") == want
        assert p.in_region(r2, origin, "mi") == want
        assert p.in_region(r3, Coord(*origin), Unit.MILES) == want
        assert p.in_region(r, origin, "mi", limit=10) == want[:10]
        assert p.in_region(r, limit=5) == [Match(i, 0.0) for i in range(n) if inside[i]][:5]
        assert p.in_region(r, origin, limit=0) == []
        assert p.in_region(r, origin, "km", "wgs84") == [m for m in brute_force(pts, origin, "km", "wgs84") if inside[m.index]]
        raises(geoloc.OutOfRangeError, r.contains, (95, 0))
        raises(geoloc.NotFiniteError, r.contains, (0, NAN))
        raises(geoloc.OutOfRangeError, p.in_region, r, (95, 0))
        raises(geoloc.OutOfRangeError, p.in_region, r, (95, 0), limit=0)
        raises(geoloc.InvalidArgumentError, p.in_region, r, origin, unit="parsec")
        raises(TypeError, p.in_region, WKT)
        assert r.contains("39,-89") == r.contains((39, -89))  # issue 18: text is a coordinate (0.3: TypeError)
    with Region.from_geojson({"type": "MultiPolygon", "coordinates": [
            [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]], [[[10, 10], [11, 10], [11, 11], [10, 11], [10, 10]]]]}) as mp:
        assert mp.contains((0.5, 0.5)) and mp.contains((10.5, 10.5)) and not mp.contains((5, 5))
    with Region.from_wkt(b"MULTIPOLYGON(((0 0, 1 0, 1 1, 0 0)))") as mp:
        assert mp.contains((0.2, 0.5))  # (lat 0.2, lon 0.5) is inside the triangle
        assert "Region" in repr(mp)


def test_region_errors():
    raises(geoloc.InvalidUTF8Error, Region.from_wkt, b"POLYGON((\xff")
    raises(geoloc.ParseError, Region.from_wkt, "POLYGON((0 0, 1 0")
    raises(geoloc.ParseError, Region.from_wkt, "")
    raises(geoloc.InvalidArgumentError, Region.from_wkt, "LINESTRING(0 0, 1 1)")
    raises(geoloc.InvalidArgumentError, Region.from_wkt, "POLYGON EMPTY")
    raises(geoloc.OutOfRangeError, Region.from_wkt, "POLYGON((0 0, 10 0, 10 91, 0 0))")
    raises(geoloc.OutOfRangeError, Region.from_wkt, "POLYGON((0 0, 181 0, 10 10, 0 0))")
    raises(geoloc.ParseError, Region.from_geojson, '{"type":"Polygon"')
    raises(geoloc.InvalidArgumentError, Region.from_geojson, {"type": "Point", "coordinates": [1, 2]})
    raises(geoloc.NullArgumentError, Region.from_wkt, None)
    raises(TypeError, Region.from_wkt, 5)
    raises(ValueError, Region.from_geojson, {"type": "Polygon", "coordinates": [[[NAN, 0]]]})


# ============================================================================================
# Loaders
# ============================================================================================

CSV = ('id,name,lat,lon,kind\n'
       'm1,"Masjid, Central",38.3,-88.9,mosque\n'
       'm2,Bad Lat,95,-88.9,mosque\n'
       'm3,Short Row,38.1\n'
       'm4,"Two\nLines",38.2,-88.7,church\n'
       'm5,NaN,nan,-88.7,church\n')

GEOJSON = {
    "type": "FeatureCollection",
    "features": [
        {"type": "Feature", "id": 7, "geometry": {"type": "Point", "coordinates": [-88.9, 38.3]},
         "properties": {"name": "A", "capacity": 250, "open": True, "note": None, "tags": ["x", "y"]}},
        {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}, "properties": {}},
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-88.8, 38.4]}, "properties": {"name": "B"}},
    ],
}


def check_csv_places(p):
    assert len(p) == 2
    assert [p.name(i) for i in range(2)] == ["Masjid, Central", "Two\nLines"]
    assert [p.id(i) for i in range(2)] == ["m1", "m4"]
    assert p.attribute_names == ("kind",)
    assert p.attribute(1, "kind") == "church"
    assert p.coord(0) == Coord(38.3, -88.9)
    # Records start on lines 3, 4 and 7 (the quoted newline makes record m4 two lines).
    assert [i.record for i in p.issues] == [3, 4, 7]
    assert all(isinstance(i, LoadIssue) and i.reason for i in p.issues)


def test_parse_and_load_csv(tmp_path):
    with Places.parse_csv(CSV) as p:
        check_csv_places(p)
        assert "3 issues" in repr(p)
    with Places.parse_csv(CSV.encode("utf-8")) as p:
        check_csv_places(p)
    with Places.parse_csv(bytearray(CSV.encode("utf-8"))) as p:
        check_csv_places(p)
    path = tmp_path / "places.csv"
    path.write_text(CSV, encoding="utf-8")
    for given in (path, str(path), os.fsencode(path)):
        with Places.load_csv(given) as p:
            check_csv_places(p)
    raises(geoloc.ParseError, Places.parse_csv, CSV, strict=True)
    raises(geoloc.ParseError, Places.load_csv, path, strict=True)
    raises(geoloc.NotFoundError, Places.load_csv, tmp_path / "nonexistent.csv")
    raises(geoloc.InvalidArgumentError, Places.parse_csv, "a,b\n1,2\n")
    raises(geoloc.InvalidUTF8Error, Places.parse_csv, CSV, latitude_column=b"\xff")
    raises(TypeError, Places.parse_csv, 5)
    raises(TypeError, Places.load_csv, 5)
    raises(ValueError, Places.parse_csv, CSV, delimiter=";;")
    raises(ValueError, Places.parse_csv, CSV, delimiter="é")


def test_csv_options():
    with Places.parse_csv("lat;lon;name\n1;2;x\n", latitude_column="lat", longitude_column="lon", delimiter=";") as p:
        assert len(p) == 1 and p.name(0) == "x" and p.coord(0) == Coord(1, 2)
    with Places.parse_csv("where_y,where_x,code,label,extra\n1,2,A,Alpha,e\n", latitude_column="where_y",
                          longitude_column="where_x", id_column="code", name_column="label") as p:
        assert (p.id(0), p.name(0), p.attribute_names, p.attribute(0, "extra")) == ("A", "Alpha", ("extra",), "e")
    # A tab in the header and no comma: tab-separated without being told.
    with Places.parse_csv("Latitude\tLongitude\tname\n1.5\t2.5\tx, y\n") as p:
        assert p.coord(0) == Coord(1.5, 2.5) and p.name(0) == "x, y"
    with Places.parse_csv("lat\tlon\n1\t2\n", delimiter="\t") as p:
        assert len(p) == 1
    # Invalid UTF-8 in a record: skipped and reported, or refused in strict mode.
    data = b"lat,lon,name\n1,2,ok\n3,4,\xff\n"
    with Places.parse_csv(data) as p:
        assert len(p) == 1 and [i.record for i in p.issues] == [3]
    with pytest.raises((geoloc.ParseError, geoloc.InvalidUTF8Error)):
        Places.parse_csv(data, strict=True)


def test_parse_and_load_geojson(tmp_path):
    text = json.dumps(GEOJSON)
    path = tmp_path / "places.geojson"
    path.write_text(text, encoding="utf-8")
    for p in (Places.parse_geojson(text), Places.parse_geojson(text.encode()), Places.parse_geojson(GEOJSON),
              Places.load_geojson(path)):
        with p:
            assert len(p) == 2
            assert [p.id(i) for i in range(2)] == ["7", "2"]  # the feature's id, else its 0-based index
            assert [p.name(i) for i in range(2)] == ["A", "B"]
            assert p.coord(0) == Coord(38.3, -88.9)
            assert p.attribute(0, "capacity") == "250"
            assert p.attribute(0, "open") == "true"
            assert p.attribute(0, "tags") == '["x","y"]'
            assert p.attribute(0, "note") is None  # null is absent
            assert p.attribute(1, "capacity") is None
            assert [i.record for i in p.issues] == [1]
    with Places.parse_geojson(GEOJSON["features"][0]) as one:
        assert len(one) == 1 and one.name(0) == "A"
    with Places.parse_geojson(GEOJSON, name_column="open") as p:
        assert p.name(0) == "true" and p.attribute(0, "name") == "A"
    raises(geoloc.ParseError, Places.parse_geojson, '{"type": [')
    raises(geoloc.ParseError, Places.parse_geojson, GEOJSON, strict=True)
    raises(geoloc.ParseError, Places.load_geojson, path, strict=True)
    raises(geoloc.NotFoundError, Places.load_geojson, tmp_path / "nonexistent.geojson")


def test_geojson_id_column_names_the_id_property():
    """geoloc_load_options.id_column: "The id column or property; NULL: ... the feature's "id"
    (GeoJSON)": a named property is the id, also for a feature that has an "id" member."""
    with Places.parse_geojson(GEOJSON, id_column="capacity") as p:
        assert [p.id(i) for i in range(len(p))] == ["250", "2"]
        assert "capacity" not in p.attribute_names


# ============================================================================================
# Handles: close, with, use after close, garbage collection, shutdown
# ============================================================================================


def test_use_after_close(monkeypatch):
    p = Places.from_arrays(HAND, attributes={"a": ["x"] * len(HAND)})
    r = Region.from_wkt(WKT)
    assert not p.closed and not r.closed
    p.close()
    p.close()  # twice is fine
    assert p.closed and "closed" in repr(p)
    calls = []

    class Spy:
        def __getattr__(self, name):
            calls.append(name)
            return getattr(_ffi.lib, name)

    monkeypatch.setattr(_places, "_lib", Spy())
    for use in (
        lambda: len(p), lambda: p.coord(0), lambda: p.id(0), lambda: p.name(0), lambda: p.attribute(0, "a"),
        lambda: p.attributes(0), lambda: p.place(0), lambda: p[0], lambda: list(p), lambda: p.coords(),
        lambda: p.issues, lambda: p.attribute_names, lambda: p.within((0, 0), 1), lambda: p.nearest((0, 0)),
        lambda: p.in_region(r), lambda: p.within((0, 0), 1, limit=0), lambda: p.__enter__(),
    ):
        with pytest.raises(ValueError, match="closed"):
            use()
    r.close()
    assert r.closed
    for use in (lambda: r.contains((0, 0)), lambda: (0, 0) in r, lambda: r.__enter__()):
        with pytest.raises(ValueError, match="closed"):
            use()
    assert calls == []  # no closed handle ever reached the library
    monkeypatch.undo()
    with Places.from_arrays(HAND) as q:
        with pytest.raises(ValueError, match="closed Region"):
            q.in_region(r)
    assert q.closed
    with pytest.raises(ValueError, match="closed"):
        q.nearest((0, 0))


def test_handles_are_freed_once(monkeypatch):
    freed = []
    real = _ffi.lib

    class Spy:
        def __getattr__(self, name):
            fn = getattr(real, name)
            if name.endswith("_destroy"):
                return lambda ptr: (freed.append(name), fn(ptr))
            return fn

    monkeypatch.setattr(_places, "_lib", Spy())
    p = Places.from_arrays(HAND)
    r = Region.from_wkt(WKT)
    p.close()
    p.close()
    del p
    gc.collect()
    assert freed == ["geoloc_places_destroy"]
    del r  # the garbage collector frees a forgotten one
    gc.collect()
    assert freed == ["geoloc_places_destroy", "geoloc_region_destroy"]
    # A failed creation frees nothing and leaks nothing.
    with pytest.raises(geoloc.OutOfRangeError):
        Places.from_arrays([(91, 0)])
    gc.collect()
    assert len(freed) == 2
    with pytest.raises(TypeError):
        import pickle

        pickle.dumps(Places.from_arrays(HAND))
    gc.collect()
    assert len(freed) == 3


def test_close_while_other_threads_query():
    """close() while other threads are inside calls: they finish, later calls raise ValueError,
    and the set is freed by the last call out (nothing is freed under a running query)."""
    rng = numpy.random.default_rng(3)
    pts = random_points(rng, 3000)
    p = Places.from_arrays(pts)
    want = p.within((0, 0), 5000, "km")
    started = threading.Barrier(5)
    outcomes = []

    def work():
        started.wait()
        n = 0
        try:
            while True:
                if p.within((0, 0), 5000, "km") != want:
                    return "wrong"
                n += 1
        except ValueError as err:
            return "closed" if "closed" in str(err) and n > 0 else repr(err)

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        futures = [pool.submit(work) for _ in range(4)]
        started.wait()
        time.sleep(0.2)
        p.close()
        outcomes = [f.result(timeout=60) for f in futures]
    assert outcomes == ["closed"] * 4
    assert p._owner._ptr is None and p._owner._users == 0


def test_interpreter_shutdown_with_live_handles(tmp_path):
    """Objects still alive at exit (globals, cycles, a borrowed view) are freed or left without
    an error message, whatever order the interpreter tears modules down in."""
    script = textwrap.dedent(
        """
        import geoloc
        p = geoloc.Places.from_arrays([(1.0, 2.0), (3.0, 4.0)], names=["a", "b"])
        r = geoloc.Region.from_wkt("POLYGON((0 0, 5 0, 5 5, 0 0))")
        g = geoloc.Gazetteer.open()
        view = g.places
        class Holder:
            pass
        h = Holder()
        h.self = h
        h.places = geoloc.Places.from_arrays([(5.0, 6.0)])
        h.region = geoloc.Region.from_wkt("POLYGON((0 0, 5 0, 5 5, 0 0))")
        h.view = geoloc.Gazetteer.open().places
        assert geoloc.reverse_geocode((39.80, -89.64)) == "Springfield, IL"
        del h
        print("ok", len(p), view.name(0) != "")
        """
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(geoloc.__file__).resolve().parent.parent)
    env.setdefault("GEOLOC_LIBRARY", geoloc.library_path)
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, cwd=str(tmp_path))
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "ok 2 True"
    assert run.stderr == ""


# ============================================================================================
# Many threads on one set
# ============================================================================================


def test_threads_query_one_set_at_once(gazetteer):
    rng = numpy.random.default_rng(8)
    pts = numpy.column_stack([rng.uniform(25, 50, 5000), rng.uniform(-125, -65, 5000)])
    queries = [tuple(pts[i]) for i in rng.integers(0, 5000, 200)]
    with Places.from_arrays(pts) as p, Region.from_wkt("POLYGON((-100 30, -80 30, -80 45, -100 45, -100 30))") as r:

        def run(q):
            return (
                p.within(q, 300, "km"),
                p.within(q, 100, "km", limit=5),
                p.nearest(q, 10),
                p.in_region(r, q, limit=64),
                gazetteer.reverse_geocode(q),
                gazetteer.places.nearest(q, 3, "mi"),
            )

        want = [run(q) for q in queries]
        assert any(len(w[0]) > _places.FIRST_CAPACITY for w in want)  # some grow their buffer
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            for _ in range(2):
                got = list(pool.map(run, queries))
                assert got == want
            # Errors in many threads at once keep their own messages.
            bad = [(90.5 + i, 0.0) for i in range(40)]
            messages = list(pool.map(lambda q: str(pytest.raises(geoloc.OutOfRangeError, p.nearest, q).value), bad))
            assert all(repr(q[0]) in m or str(q[0]) in m for q, m in zip(bad, messages)), messages


# ============================================================================================
# Saved sets: Places.save and Places.open
# ============================================================================================


@pytest.fixture
def saved(tmp_path):
    coords = [(38.3, -88.9), (-33.9, 151.2), (90.0, 0.0), (0.0, -180.0), (51.5, -0.1)]
    p = Places.from_arrays(
        coords,
        ids=["a", "bb", "", "d", "e"],
        names=["Mount Vernon", "Sydney", None, "Date line", "Zürich"],
        attributes={"cc": ["US", "AU", "", None, "GB"], "admin1": ["IL", None, "", None, "ENG"]},
    )
    path = tmp_path / "small.places"
    p.save(path)
    yield p, path
    p.close()


def test_saved_set_reads_back_every_field(saved):
    p, path = saved
    with Places.open(path) as o:
        assert len(o) == len(p)
        assert o.attribute_names == p.attribute_names
        for i in range(len(p)):
            assert o.coord(i) == p.coord(i)
            assert o.id(i) == p.id(i)
            assert o.name(i) == p.name(i)
            for a in p.attribute_names:
                assert o.attribute(i, a) == p.attribute(i, a)
        assert o.name(4) == "Zürich" and o.attribute(1, "admin1") is None and o.id(2) == ""
        assert o.issues == ()
        for q in [(38, -89), (-90, 0), (0, 179.99)]:
            assert o.within(q, 20000, "km") == p.within(q, 20000, "km")
            assert o.nearest(q, 3, "mi", "wgs84") == p.nearest(q, 3, "mi", "wgs84")
    # Without ids, the ids are the places' numbers, also once saved.
    with Places.from_arrays([(1.0, 2.0), (3.0, 4.0)]) as numbered:
        numbered.save(str(path))
        with Places.open(str(path)) as o:
            assert [o.id(0), o.id(1)] == ["1", "2"]


def test_a_version_1_place_file_still_opens(tmp_path):
    """tests/places/places-v1.places: tests/places/places.csv saved by libgeoloc 0.3.0 (format
    version 1); it opens as it is, and saved again it is a file of the current version."""
    fixtures = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                            "tests", "places")
    v1 = os.path.join(fixtures, "places-v1.places")
    with open(v1, "rb") as f:
        assert f.read(12)[8] == 1
    with Places.open(v1) as o, Places.load_csv(os.path.join(fixtures, "places.csv")) as want:
        assert len(o) == len(want) == 4 and o.attribute_names == want.attribute_names
        for i in range(len(o)):
            assert (o.coord(i), o.id(i), o.name(i)) == (want.coord(i), want.id(i), want.name(i))
            for a in o.attribute_names:
                assert o.attribute(i, a) == want.attribute(i, a)
        assert o.attribute(1, "note") is None and o.attribute(0, "population") == "116250"
        o.save(tmp_path / "again.places")
        assert (tmp_path / "again.places").read_bytes()[8] == 4
        with Places.open(tmp_path / "again.places") as again:
            assert [again.attribute(i, "note") for i in range(4)] == [o.attribute(i, "note") for i in range(4)]
            assert again.within((40, -88), 300, "km") == o.within((40, -88), 300, "km")


def test_every_truncation_and_corruption_of_a_saved_set_is_refused(saved, tmp_path):
    _, path = saved
    data = path.read_bytes()
    bad = tmp_path / "bad.places"
    for n in range(len(data)):
        bad.write_bytes(data[:n])
        with pytest.raises(geoloc.ParseError):
            Places.open(bad)
    for i in range(len(data)):
        b = bytearray(data)
        b[i] ^= 0xA5
        bad.write_bytes(bytes(b))
        with pytest.raises((geoloc.ParseError, geoloc.UnsupportedError)):
            Places.open(bad)
    bad.write_bytes(b"lat,lon\n1,2\n")
    err = raises(geoloc.ParseError, Places.open, bad)
    assert "not a libgeoloc place file" in str(err)


def test_save_and_open_errors(saved, tmp_path):
    p, _ = saved
    with pytest.raises(geoloc.NotFoundError):
        Places.open(tmp_path / "missing.places")
    with pytest.raises(geoloc.InvalidArgumentError):
        Places.open(tmp_path)
    with pytest.raises(geoloc.InvalidArgumentError):
        p.save(tmp_path / "no" / "such" / "dir.places")
    with pytest.raises(TypeError):
        Places.open(12)
    raises(geoloc.NullArgumentError, p.save, None)
    raises(geoloc.NullArgumentError, Places.open, None)
    p2 = Places.from_arrays([(1.0, 2.0)])
    p2.close()
    with pytest.raises(ValueError):
        p2.save(tmp_path / "closed.places")


def test_a_second_process_opens_a_saved_set_this_one_has_open(saved):
    p, path = saved
    o = Places.open(path)
    code = (
        "import geoloc, sys\n"
        "o = geoloc.Places.open(sys.argv[1])\n"
        "print(len(o), o.name(0), [(m.index, m.distance) for m in o.nearest((38, -89), 5)])\n"
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(geoloc.__file__).resolve().parent.parent)
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    want = "%d %s %s" % (len(p), p.name(0), [(m.index, m.distance) for m in p.nearest((38, -89), 5)])
    assert out.stdout.strip() == want
    # Saving over the open file replaces it; the open set keeps reading the old one.
    with Places.from_arrays([(1.0, 2.0)]) as one:
        one.save(path)
    assert len(o) == 5 and o.name(0) == "Mount Vernon"
    assert o.nearest((38, -89), 5) == p.nearest((38, -89), 5)
    with Places.open(path) as again:
        assert len(again) == 1
    o.close()


# ---- Issue 13 (hardening) -------------------------------------------------------------------


def test_nul_in_csv_field_is_an_issue():
    places = Places.parse_csv(b"lat,lon,name\n1,2,ab\x00cd\n3,4,ok\n")
    assert len(places) == 1 and places.name(0) == "ok"
    assert places.issues == (LoadIssue(2, "has a NUL byte"),)
    raises(geoloc.ParseError, Places.parse_csv, b"lat,lon,name\n1,2,ab\x00cd\n", strict=True)


def test_nul_in_geojson_string_is_malformed():
    text = '{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"name":"ab\\u0000cd"}}'
    err = raises(geoloc.ParseError, Places.parse_geojson, text)
    assert "\\u0000" in err.message
    # A decoded mapping holding a NUL goes through the same reader.
    raises(geoloc.ParseError, Places.parse_geojson, json.loads(text))


def test_empty_csv_is_an_error():
    for text in ["", "\n\n", "\ufeff"]:
        raises(geoloc.InvalidArgumentError, Places.parse_csv, text)
    assert len(Places.parse_csv("lat,lon\n")) == 0


def test_load_limits():
    rows = "lat,lon\n1,2\n" + "x,y\n" * 3000
    default = Places.parse_csv(rows)
    assert len(default) == 1
    assert len(default.issues) == 1000 and default.issue_total == 3000
    few = Places.parse_csv(rows, max_issues=3)
    assert [i.record for i in few.issues] == [3, 4, 5] and few.issue_total == 3000
    assert Places.parse_csv("lat,lon\n1,2\n").issue_total == 0
    raises(geoloc.CountTooLargeError, Places.parse_csv, "lat,lon\n1,2\n3,4\n", max_places=1)
    assert len(Places.parse_csv("lat,lon\n1,2\n3,4\n", max_places=2)) == 2
    gj = {"type": "FeatureCollection", "features": [
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {}}] * 3}
    raises(geoloc.CountTooLargeError, Places.parse_geojson, gj, max_places=2)
    for bad in (0, -1):
        raises(geoloc.OutOfRangeError, Places.parse_csv, "lat,lon\n", max_issues=bad)
        raises(geoloc.OutOfRangeError, Places.parse_csv, "lat,lon\n", max_places=bad)
    raises(TypeError, Places.parse_csv, "lat,lon\n", max_places=1.5)


def test_load_limits_from_files(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("lat,lon\n" + "x,y\n" * 10)
    assert len(Places.load_csv(path, max_issues=2).issues) == 2
    gj = tmp_path / "p.geojson"
    gj.write_text('{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}')
    assert len(Places.load_geojson(gj, max_places=1)) == 1


def test_load_limits_with_saved_sets(tmp_path):
    # A set loaded under limits saves and opens whole; the opened set has no load issues.
    rows = "lat,lon\n1,2\n3,4\n" + "x,y\n" * 5
    p = Places.parse_csv(rows, max_issues=2, max_places=2)
    assert len(p) == 2 and len(p.issues) == 2 and p.issue_total == 5
    path = tmp_path / "limited.places"
    p.save(path)
    with Places.open(path) as o:
        assert len(o) == 2 and o.issues == () and o.issue_total == 0
        assert o.nearest((1, 2), 2) == p.nearest((1, 2), 2)
    p.close()


def test_wkt_trailing_text_is_refused():
    err = raises(geoloc.ParseError, Region.from_wkt, "POLYGON((0 0,1 0,1 1,0 1,0 0)) this is not WKT")
    assert "text after the geometry" in err.message
    assert Region.from_wkt(" POLYGON((0 0,1 0,1 1,0 1,0 0))\n").contains((0.5, 0.5))


def test_misused_handles_are_caught_by_the_c_door():
    # Python's own wrappers never pass a destroyed or wrong handle; the C door catches it anyway.
    lib = _ffi.lib
    places = Places.parse_csv("lat,lon\n1,2\n")
    region = Region.from_wkt("POLYGON((0 0,1 0,1 1,0 1,0 0))")
    count = c_size_t()
    wrong = ctypes.cast(region._owner._ptr, _places.PlacesPtr)
    err = raises(geoloc.InvalidArgumentError, lib.geoloc_places_count, wrong, ctypes.byref(count))
    assert err.message == "places is a region, not a place set"
    raw = places._owner._ptr
    places.close()
    err = raises(geoloc.InvalidArgumentError, lib.geoloc_places_count, raw, ctypes.byref(count))
    assert err.message == "places was destroyed"
    region.close()


# ============================================================================================
# The numpy-like door: LatLon columns, int ids, ids()/names(), the array forms of the queries
# ============================================================================================


def test_batch_queries_and_from_arrays_take_latlon_columns(hand):
    rng = numpy.random.default_rng(8)
    lat, lon = rng.uniform(-90, 90, 100), rng.uniform(-180, 180, 100)
    rows = numpy.column_stack([lat, lon])
    for got, want in zip(hand.within_many(geoloc.LatLon(lat, lon), 3000.0, "km"), hand.within_many(rows, 3000.0, "km")):
        assert numpy.array_equal(got, want)
    for got, want in zip(hand.nearest_many(geoloc.LatLon(lat, lon), 3), hand.nearest_many(rows, 3)):
        assert numpy.array_equal(got, want)
    h = numpy.array(HAND)
    with Places.from_arrays(geoloc.LatLon(h[:, 0], h[:, 1])) as p:
        assert numpy.array_equal(p.coords(), hand.coords())
    with pytest.raises(geoloc.OutOfRangeError, match=r"centers\[1\]"):
        hand.within_many(geoloc.LatLon([0.0, 91.0], [0.0, 0.0]), 1.0)


def test_int_ids_are_their_decimal_text():
    good = [(1, 2), (3, 4), (5, 6)]
    for ids in ([7, -3, 2**70], [numpy.int64(7), numpy.int8(-3), 2**70], ["7", -3, 2**70]):
        with Places.from_arrays(good, ids=ids) as p:
            assert p.ids() == ["7", "-3", str(2**70)]
            assert p.id(0) == "7" and p[1].id == "-3"
    for dtype in (numpy.int64, numpy.uint32, numpy.int16):
        with Places.from_arrays(good, ids=numpy.array([10, 0, 3], dtype=dtype)) as p:
            assert p.ids() == ["10", "0", "3"]
    with Places.from_arrays(good, ids=[None, 5, b"x"]) as p:
        assert p.ids() == ["1", "5", "x"]  # None: the 1-based index, as before
    with pytest.raises(ValueError, match="ids has 2 entries for 3"):
        Places.from_arrays(good, ids=numpy.array([1, 2]))
    with pytest.raises(TypeError, match=r"ids\[0\] must be a str, bytes or int, not float"):
        Places.from_arrays(good, ids=numpy.array([1.0, 2.0, 3.0]))
    # The same rule for geofence ids.
    fences = geoloc.Geofences([(0, 0), (1, 1)], [10, 10], ids=[42, numpy.int32(-1)],
                              polygons=[[(0, 0), (0, 1), (1, 1)]], polygon_ids=[7])
    assert [fences.id(i) for i in range(3)] == ["42", "-1", "7"]
    with pytest.raises(TypeError, match=r"ids\[1\]"):
        geoloc.Geofences([(0, 0), (1, 1)], [10, 10], ids=["a", 1.5])
    with pytest.raises(ValueError, match="2 polygon ids for 1 polygons"):
        geoloc.Geofences(polygons=[[(0, 0), (0, 1), (1, 1)]], polygon_ids=[1, 2])


def test_from_records_names_the_record_not_a_column():
    with Places.from_records([(1, 2, 7, "a"), {"lat": 3, "lon": 4, "id": numpy.uint16(8)}, (5, 6)]) as p:
        assert p.ids() == ["7", "8", "3"] and p.names() == ["a", "", ""]
    for records, kind, message in [
        ([(1, 2, "a"), (1, 0, 3.5)], TypeError, "record 1 id must be a str, bytes or int, not float"),
        ([(1, 2), (1, 0, "x", 5)], TypeError, "record 1 name must be str or bytes, not int"),
        ([{"lat": 1, "lon": 2}, {"lat": 1, "lon": 0, "kind": 4}], TypeError, "record 1 attribute 'kind'"),
        ([(1, 2), (91, 0)], geoloc.OutOfRangeError, "record 1: latitude 91 is outside"),
        ([(1, 2), (0, 0), (NAN, 0)], geoloc.NotFiniteError, "record 2"),
    ]:
        with pytest.raises(kind) as info:
            Places.from_records(records)
        assert message in str(info.value)
        assert "ids[" not in str(info.value) and "coords[" not in str(info.value)


def test_ids_and_names_read_back_at_once(small, monkeypatch):
    assert small.ids() == [small.id(i) for i in range(len(small))] == ["chi", "2", "syd"]
    assert small.names() == [small.name(i) for i in range(len(small))] == ["Chicago", "New York", ""]
    long_id = "x" * 1000  # longer than the first buffer
    with Places.from_arrays([(0, 0), (1, 1), (2, 2)], ids=["a", long_id, "b"], names=["é" * 300, None, "c"]) as p:
        assert p.ids() == ["a", long_id, "b"] and p.names() == ["é" * 300, "", "c"]
    with Places.from_arrays([]) as e:
        assert e.ids() == [] and e.names() == []
    # Read in slices (here of 2 places), the buffer growing for a long text.
    monkeypatch.setattr(geoloc._places, "TEXT_SLICE", 2)
    ids = ["p%d" % i for i in range(7)]
    ids[5] = "y" * 500
    with Places.from_arrays(numpy.zeros((7, 2)), ids=ids, names=[None, "ü", "", "a\tb", None, "z" * 40, "last"]) as p:
        assert p.ids() == ids == [p.id(i) for i in range(7)]
        assert p.names() == ["", "ü", "", "a\tb", "", "z" * 40, "last"] == [p.name(i) for i in range(7)]
    p = Places.from_arrays([(0, 0)])
    p.close()
    with pytest.raises(ValueError, match="closed"):
        p.ids()


def test_array_forms_equal_the_match_lists(hand):
    rng = numpy.random.default_rng(11)
    centers = [(10.0, 180.0), (-45.0, 170.0), (90.0, -123.0)] + [
        (float(a), float(b)) for a, b in zip(rng.uniform(-90, 90, 40), rng.uniform(-180, 180, 40))]
    region = Region.from_wkt("POLYGON((160 -50, 180 -50, 180 20, 160 20, 160 -50))")
    for c in centers:
        for radius, limit in [(0.0, None), (500.0, None), (3000.0, 2), (20100.0, None), (20100.0, 0)]:
            want = hand.within(c, radius, "km", limit=limit)
            idx, dist = hand.within_arrays(c, radius, "km", limit=limit)
            assert idx.dtype == numpy.int64 and dist.dtype == numpy.float64
            assert idx.tolist() == [m.index for m in want] and dist.tolist() == [m.distance for m in want]
        for k, bound in [(0, None), (1, None), (3, 3000.0), (20, None)]:
            want = hand.nearest(c, k, "mi", "wgs84", max_distance=bound)
            idx, dist = hand.nearest_arrays(c, k, "mi", "wgs84", max_distance=bound)
            assert idx.tolist() == [m.index for m in want] and dist.tolist() == [m.distance for m in want]
        for origin, limit in [(None, None), (c, None), (c, 1), (c, 0)]:
            want = hand.in_region(region, origin, "km", limit=limit)
            idx, dist = hand.in_region_arrays(region, origin, "km", limit=limit)
            assert idx.tolist() == [m.index for m in want] and dist.tolist() == [m.distance for m in want]
    # within_many for one centre gives the same arrays.
    offsets, idx_many, dist_many = hand.within_many([centers[1]], 20100.0, "km")
    idx, dist = hand.within_arrays(centers[1], 20100.0, "km")
    assert numpy.array_equal(idx, idx_many) and numpy.array_equal(dist, dist_many)
    # More results than the first buffer holds.
    rng = numpy.random.default_rng(12)
    with Places.from_arrays(numpy.column_stack([rng.uniform(-1, 1, 500), rng.uniform(-1, 1, 500)])) as big:
        idx, dist = big.within_arrays((0, 0), 1e9)
        assert len(idx) == 500 and idx.tolist() == [m.index for m in big.within((0, 0), 1e9)]
        idx, dist = big.nearest_arrays((0, 0), 300)
        assert len(idx) == 300 and (numpy.diff(dist) >= 0).all()
    # The same argument errors as the list forms; a limit of 0 still checks the arguments.
    with pytest.raises(geoloc.OutOfRangeError):
        hand.within_arrays((91, 0), 1.0)
    with pytest.raises(geoloc.OutOfRangeError):
        hand.within_arrays((91, 0), 1.0, limit=0)
    with pytest.raises(geoloc.InvalidArgumentError):
        hand.nearest_arrays((0, 0), 1, unit="furlong")
    with pytest.raises(TypeError):
        hand.in_region_arrays("POLYGON((0 0, 1 0, 1 1, 0 0))")
