"""Offline reverse geocoding through Python: the shipped gazetteer, "City, State", localities and
sub-localities, no locality far from every place, the gazetteer's place view and its lifetime,
small gazetteer files, errors, the locality reference set."""

from __future__ import annotations

import csv
import gc
import math
import weakref
from pathlib import Path

import numpy
import numpy as np
import pytest

import geoloc
from geoloc import (
    AddressStyle,
    Gazetteer,
    Match,
    ReverseGeocode,
)
from geoloc import _ffi, _geocoding, _places

import golden_cases
from helpers import INF, raises

SHIPPED_TSV = Path(__file__).resolve().parents[2] / "data" / "gazetteer" / "cities1000.tsv"


# ============================================================================================
# The gazetteer and reverse geocoding
# ============================================================================================

SPRINGFIELD = (39.80, -89.64)


def test_reverse_geocode(gazetteer):
    g = gazetteer
    assert g.reverse_geocode(SPRINGFIELD) == "Springfield, IL"
    assert g.reverse_geocode(SPRINGFIELD, "city_state_country") == "Springfield, Illinois, United States"
    assert g.reverse_geocode(SPRINGFIELD, AddressStyle.CITY_STATE_COUNTRY) == "Springfield, Illinois, United States"
    assert geoloc.reverse_geocode(SPRINGFIELD) == "Springfield, IL"
    assert geoloc.reverse_geocode(SPRINGFIELD, style="city_state_country") == "Springfield, Illinois, United States"
    rev = g.reverse(SPRINGFIELD)
    assert isinstance(rev, ReverseGeocode)
    assert rev.text == "Springfield, IL"
    assert (rev.name, rev.country_code, rev.admin1_code, rev.admin1_name) == ("Springfield", "US", "IL", "Illinois")
    assert rev.admin2_name == "Sangamon County"
    assert rev.country_name == "United States"
    assert 0 <= rev.distance_m < 5000
    assert rev.distance_m == geoloc.distance(SPRINGFIELD, rev.coord)
    places = g.places
    assert places.name(rev.index) == "Springfield" and places.attribute(rev.index, "admin1_code") == "IL"
    assert places.nearest(SPRINGFIELD) == [Match(rev.index, rev.distance_m)]
    assert g.reverse(SPRINGFIELD, "city_state_country").text == "Springfield, Illinois, United States"
    # The pole and the middle of the Pacific have no locality (the nearest place is 1,000 km and
    # more away), unless asked for with no limit.
    for far in ((90, 0), (-30, -140), (-90, 0)):
        assert g.reverse_geocode(far) == ""
        assert not g.reverse(far).has_locality
        assert g.reverse_geocode(far, max_distance_m=math.inf)
    raises(geoloc.NotFiniteError, g.reverse_geocode, (0, INF))
    raises(geoloc.OutOfRangeError, g.reverse_geocode, (91, 0))
    raises(geoloc.InvalidArgumentError, g.reverse_geocode, SPRINGFIELD, 99)
    raises(geoloc.InvalidArgumentError, g.reverse_geocode, SPRINGFIELD, "zip")


def test_gazetteer_places(gazetteer):
    places = gazetteer.places
    assert places is gazetteer.places  # one view while it is referenced
    assert len(places) > 100000
    assert len(places) == 170391
    for name in ("country_code", "admin1_code", "admin1_name", "admin2_name", "country_name"):
        assert name in places.attribute_names
    assert "of a Gazetteer" in repr(places)
    # The set is shared by every handle on the shipped gazetteer.
    with Gazetteer.open() as other:
        assert len(other.places) == len(places)


def test_gazetteer_view_keeps_it_open_and_is_not_freed_by_close(monkeypatch):
    freed = []
    real = _ffi.lib

    class Spy:
        def __getattr__(self, name):
            fn = getattr(real, name)
            if name.endswith("_destroy"):
                return lambda ptr: (freed.append(name), fn(ptr))
            return fn

    monkeypatch.setattr(_places, "_lib", Spy())
    monkeypatch.setattr(_geocoding, "_lib", Spy())
    g = Gazetteer.open()
    view = g.places
    g_ref = weakref.ref(g)
    del g
    gc.collect()
    assert g_ref() is not None and freed == []  # the view keeps its gazetteer
    assert view.within(SPRINGFIELD, 5, "km")
    view.close()  # closes the view only
    assert view.closed and freed == []
    with pytest.raises(ValueError, match="closed"):
        view.nearest(SPRINGFIELD)
    g = g_ref()
    assert g.reverse_geocode(SPRINGFIELD) == "Springfield, IL"
    fresh = g.places  # a new view after the old one was closed
    assert fresh is not view and not fresh.closed and len(fresh) > 100000
    g.close()
    assert freed == ["geoloc_gazetteer_destroy"]
    assert fresh.closed
    for use in (lambda: fresh.nearest(SPRINGFIELD), lambda: len(fresh), lambda: g.places,
                lambda: g.reverse_geocode(SPRINGFIELD), lambda: g.reverse(SPRINGFIELD)):
        with pytest.raises(ValueError, match="closed"):
            use()
    del fresh, view, g
    gc.collect()
    assert freed == ["geoloc_gazetteer_destroy"]


def test_shared_gazetteer_reopens_after_close():
    g = geoloc.shared_gazetteer()
    assert geoloc.shared_gazetteer() is g
    g.close()
    assert geoloc.reverse_geocode(SPRINGFIELD) == "Springfield, IL"
    assert geoloc.shared_gazetteer() is not g


def test_gazetteer_open_errors(tmp_path):
    err = raises(geoloc.NotFoundError, Gazetteer.open, tmp_path / "nonexistent.tsv")
    assert "nonexistent.tsv" in err.message
    raises(geoloc.InvalidUTF8Error, Gazetteer.open, b"\xff")
    raises(TypeError, Gazetteer.open, 5)
    bad = tmp_path / "bad.tsv"
    bad.write_text("id\tname\tlat\tlon\n1\tx\t1\t2\n", encoding="utf-8")
    raises(geoloc.InvalidArgumentError, Gazetteer.open, bad)


def test_small_gazetteer_file(tmp_path):
    path = tmp_path / "tiny.tsv"
    path.write_text(
        "id\tname\tlat\tlon\tcountry_code\tadmin1_code\tadmin1_name\tadmin2_name\tpopulation\n"
        "1\tCentralia\t38.52505\t-89.1334\tUS\tIL\tIllinois\tMarion County\t13000\n"
        "2\tLyon\t45.74846\t4.84671\tFR\t84\tAuvergne-Rhone-Alpes\t\t500000\n",
        encoding="utf-8",
    )
    with Gazetteer.open(path) as g:
        assert len(g.places) == 2
        assert g.reverse_geocode((38.3, -88.9)) == "Centralia, IL"
        assert g.reverse_geocode((45.0, 5.0)) == "Auvergne-Rhone-Alpes, France"  # 84 km: no locality
        rev = g.reverse((45.0, 5.0), "city_state_country", max_distance_m=math.inf)
        assert rev.index == 1 and rev.name == "Lyon" and rev.country_code == "FR" and rev.admin2_name is None
        assert rev.country_name is None  # the file has no country_name column


# ============================================================================================
# Native names, current regions, the country's name; the golden table
# ============================================================================================


def test_native_names_regions_and_country_name(gazetteer):
    rev = gazetteer.reverse((-23.5465, -46.63511))
    assert (rev.text, rev.name, rev.admin1_name, rev.country_name) == ("São Paulo, SP", "São Paulo", "São Paulo", "Brazil")
    assert gazetteer.reverse_geocode((-23.5465, -46.63511), "city_state_country") == "São Paulo, Brazil"
    zurich = gazetteer.reverse((47.36767, 8.551))
    assert (zurich.text, zurich.admin1_code, zurich.admin2_name) == ("Zürich, Zurich", "ZH", "Bezirk Zürich")
    assert gazetteer.reverse_geocode((35.6905, 139.69271)) == "Tokyo"
    dc = gazetteer.reverse((38.89611, -77.03537))
    assert (dc.text, dc.admin1_code, dc.admin1_name) == ("Washington, DC", "DC", "District of Columbia")
    # Current first-level divisions: Amiens is in Hauts-de-France (since 2016), not Picardie.
    assert gazetteer.reverse((49.894, 2.2957)).admin1_name == "Hauts-de-France"
    # Added after the fields of 0.2 (country_name in 0.3, the locality's in 0.4): positional use
    # of the older fields still works.
    assert ReverseGeocode._fields[:11] == (
        "text", "index", "distance_m", "name", "country_code", "admin1_code", "admin1_name", "admin2_name", "coord",
        "country_name", "has_locality")


_SHIPPED = None


def shipped_rows():
    """The shipped TSV read with the csv module: (names, lat, lon in radians)."""
    global _SHIPPED
    if _SHIPPED is None:
        with SHIPPED_TSV.open(encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f, delimiter="\t"))
        lat = np.radians(np.array([float(r["lat"]) for r in rows]))
        lon = np.radians(np.array([float(r["lon"]) for r in rows]))
        _SHIPPED = (rows, lat, lon)
    return _SHIPPED


def brute_force_nearest(lat_deg, lon_deg):
    """The index of the nearest row by great-circle distance over every row (first on ties) and
    the gap to the second nearest, meters."""
    rows, lat, lon = shipped_rows()
    p, q = math.radians(lat_deg), math.radians(lon_deg)
    h = np.sin((lat - p) / 2) ** 2 + np.cos(p) * np.cos(lat) * np.sin((lon - q) / 2) ** 2
    d = 2 * 6371008.8 * np.arcsin(np.minimum(1.0, np.sqrt(h)))
    i = int(np.argmin(d))
    second = np.partition(d, 1)[1]
    return i, float(second - d[i])


def check_reverse_geocode(row):
    lat, lon = float(row["lat"]), float(row["lon"])
    limit = float(row["max_distance_m"]) if row["max_distance_m"] else _geocoding.DEFAULT_MAX_DISTANCE_M
    # The expectation against the source data, without the library: the nearest place by brute
    # force, and the locality the TSV's locality_id names for it; none beyond the limit.
    i, gap = brute_force_nearest(lat, lon)
    rows = shipped_rows()[0]
    assert gap > 10, "the case must not hang on a near tie"
    d = geoloc.distance((lat, lon), (float(rows[i]["lat"]), float(rows[i]["lon"])))
    if d > limit:
        assert row["name"] == ""
    else:
        k = next(j for j, r in enumerate(rows) if r["id"] == rows[i]["locality_id"]) if rows[i]["locality_id"] else i
        assert rows[k]["name"] == row["name"]
    # The library, through the shared gazetteer.
    kw = {"max_distance_m": float(row["max_distance_m"])} if row["max_distance_m"] else {}
    rev = geoloc.shared_gazetteer().reverse((lat, lon), row["style"], **kw)
    assert (rev.name, rev.text, rev.has_locality) == (row["name"], row["text"], bool(row["name"]))
    assert rev.nearest_index == i
    if row["name"]:
        assert rev.country_name == rows[rev.index]["country_name"]


_REFERENCE: dict = {}


def check_locality_reference(row):
    """Scored rather than asserted row by row: test_locality_reference_set checks the shares."""
    g = geoloc.shared_gazetteer()
    rev = g.reverse((float(row["lat"]), float(row["lon"])))
    got = g.places.id(rev.index) if rev.has_locality else ""
    right, total = _REFERENCE.get(row["kind"], (0, 0))
    _REFERENCE[row["kind"]] = (right + (got == row["expect_id"]), total + 1)


GOLDEN_CHECKERS = {
    "reverse_geocode.tsv": check_reverse_geocode,
    "reverse_geocode_localities.tsv": check_locality_reference,
}


@golden_cases.parametrize("geocoding")
def test_golden_row(case) -> None:
    golden_cases.check_row(case, GOLDEN_CHECKERS)


def test_every_golden_file_of_this_capability_has_a_checker() -> None:
    assert set(GOLDEN_CHECKERS) == set(golden_cases.FILES_BY_CAPABILITY["geocoding"])


def test_golden_table_covers_twenty_countries() -> None:
    cases = golden_cases.cases(golden_cases.GOLDEN_DIR, "reverse_geocode.tsv")
    countries = {shipped_rows()[0][brute_force_nearest(float(c.row["lat"]), float(c.row["lon"]))[0]]["country_code"]
                 for c in cases}
    assert len(cases) == 76 and len(countries) >= 20


#: The shares each door must reach on the locality reference set (the measured ones, rounded down).
REFERENCE_LEAST = {"centre": 0.99, "ring1": 0.99, "ring3": 0.98, "town": 1.0, "far": 1.0, "named": 1.0}


def test_locality_reference_set(gazetteer) -> None:
    """Issue 20: tests/golden/reverse_geocode_localities.tsv (made without the library), scored in
    one call; bench/places/score_localities.py prints the same figures beside reverse_geocoder's."""
    cases = golden_cases.cases(golden_cases.GOLDEN_DIR, "reverse_geocode_localities.tsv")
    pts = numpy.array([[float(c.row["lat"]), float(c.row["lon"])] for c in cases])
    got = gazetteer.localities(pts)
    ids = gazetteer.places.ids()
    score: dict = {}
    for c, k in zip(cases, got["locality"]):
        right, total = score.get(c.row["kind"], (0, 0))
        score[c.row["kind"]] = (right + ((ids[k] if k >= 0 else "") == c.row["expect_id"]), total + 1)
    for kind, least in REFERENCE_LEAST.items():
        right, total = score[kind]
        assert right / total >= least, (kind, right, total)
    # The row-by-row path (reverse) agrees with the many-points path, when every row ran first.
    if sum(total for _, total in _REFERENCE.values()) == len(cases):
        assert _REFERENCE == score


NINE = [
    ((41.8781, -87.6298), "Chicago, IL", "Chicago Loop"),
    ((43.6532, -79.3832), "Toronto, ON", "Bay Street Corridor"),
    ((48.8566, 2.3522), "Paris, Île-de-France", "Paris 04 Hôtel-de-Ville"),
    ((-23.5505, -46.6333), "São Paulo, SP", "Se"),
    ((52.52, 13.405), "Berlin, State of Berlin", "Mitte"),
    ((37.7749, -122.4194), "San Francisco, CA", None),
    ((41.0082, 28.9784), "Istanbul", "Sultanahmet"),
    ((48.2082, 16.3738), "Vienna", None),
    ((40.7128, -74.0060), "New York City, NY", None),
]


@pytest.mark.parametrize("coord, text, sub", NINE)
def test_city_centres_read_as_the_city(gazetteer, coord, text, sub) -> None:
    assert gazetteer.reverse_geocode(coord) == text
    assert geoloc.reverse_geocode(coord) == text
    rev = gazetteer.reverse(coord)
    assert rev.has_locality and rev.within_reach and rev.sublocality == sub
    long = sub + ", " + text if sub else text
    assert gazetteer.reverse_geocode(coord, sublocality=True) == long
    assert gazetteer.reverse(coord, sublocality=True).text == long
    assert gazetteer.reverse_geocode_many([coord], sublocality=True) == [long]


def test_locality_fields_and_options(gazetteer) -> None:
    g = gazetteer
    loop = g.reverse((41.8781, -87.6298))
    assert g.places.id(loop.index) == "4887398"
    assert abs(loop.distance_m - 3543) < 10 and abs(loop.nearest_distance_m - 724) < 10
    assert loop.nearest_index == loop.sublocality_index
    assert abs(loop.reach_m - 6 * math.sqrt(2664452)) < 1
    # The Nevada desert within 10 km: no locality, Nevada alone; never with country_reach_m=0.
    desert = (40.0, -117.0)
    assert g.reverse_geocode(desert, max_distance_m=10_000) == "Nevada, United States"
    rev = g.reverse(desert, "city_state_country", max_distance_m=10_000)
    assert (rev.has_locality, rev.name, rev.text, rev.country_code) == (False, "", "Nevada, United States", "US")
    assert g.reverse_geocode(desert, max_distance_m=10_000, country_reach_m=0) == ""
    assert g.reverse(desert, max_distance_m=10_000, country_reach_m=0).country_code == ""
    assert g.reverse_geocode(desert) != ""  # 50 km by default: a town
    raises(geoloc.NotFiniteError, g.reverse_geocode, desert, max_distance_m=math.nan)
    raises(geoloc.OutOfRangeError, g.reverse_geocode, desert, max_distance_m=-1)
    # Many points: the arrays say the same as one by one.
    pts = _test_points(g.places, n=60, seed=7)
    loc = g.localities(pts)
    texts = g.reverse_geocode_many(pts, max_distance_m=20_000)
    near = g.localities(pts, max_distance_m=20_000)
    for i, p in enumerate(pts):
        rev = g.reverse(tuple(p))
        assert loc["locality"][i] == (rev.index if rev.has_locality else -1)
        assert loc["nearest"][i] == rev.nearest_index and loc["distance_m"][i] == rev.distance_m
        assert loc["sublocality"][i] == (rev.sublocality_index if rev.sublocality_index is not None else -1)
        assert bool(loc["within_reach"][i]) == rev.within_reach
        assert texts[i] == g.reverse_geocode(tuple(p), max_distance_m=20_000)
        assert (near["locality"][i] >= 0) == g.reverse(tuple(p), max_distance_m=20_000).has_locality
    assert (loc["locality"] < 0).sum() > 5  # a third of the points are anywhere: mostly the sea


# ============================================================================================
# Many points at once
# ============================================================================================


def _test_points(places, n=300, seed=11):
    """n points: a third uniform on the sphere, the rest within about 5 km of a random place of
    the gazetteer (close calls between neighbours), and the poles and the antimeridian."""
    rng = numpy.random.default_rng(seed)
    coords = places.coords()
    k = len(places)
    pts = numpy.empty((n, 2))
    for i in range(n):
        if i % 3 == 0:
            pts[i] = (numpy.degrees(numpy.arcsin(rng.uniform(-1, 1))), rng.uniform(-180, 180))
        else:
            lat, lon = coords[rng.integers(k)]
            pts[i] = (min(90.0, max(-90.0, lat + rng.uniform(-0.045, 0.045))), lon + rng.uniform(-0.045, 0.045))
    pts[:4] = [(90, 0), (-90, 0), (0, 180), (-17, -180)]
    return pts


def test_reverse_geocode_many_equals_one_by_one(gazetteer):
    g = gazetteer
    pts = _test_points(g.places)
    indices, dist = g.nearest_many(pts)
    assert indices.dtype == numpy.int64 and indices.shape == (len(pts),)
    assert dist.dtype == numpy.float64 and dist.shape == (len(pts),)
    assert numpy.array_equal(g.nearest_many(geoloc.LatLon(pts[:, 0], pts[:, 1]))[0], indices)
    for i, p in enumerate(pts):
        rev = g.reverse(tuple(p))
        assert (rev.index, rev.distance_m) == (indices[i], dist[i])  # the locality, else the nearest place
    for style in AddressStyle:
        texts = g.reverse_geocode_many(pts, style)
        assert isinstance(texts, list) and len(texts) == len(pts)
        assert texts == [g.reverse_geocode(tuple(p), style) for p in pts]
    # Lists, tuples, int arrays and strided views read the same points.
    assert g.reverse_geocode_many(pts.tolist()[:5]) == g.reverse_geocode_many(pts[:5])
    assert g.reverse_geocode_many(pts[::2]) == g.reverse_geocode_many(numpy.ascontiguousarray(pts[::2]))
    assert g.reverse_geocode_many(numpy.array([[40, -89]])) == [g.reverse_geocode((40.0, -89.0))]
    assert geoloc.reverse_geocode_many(pts[:7]) == g.reverse_geocode_many(pts[:7])
    # A too small first guess of the texts' size still gives every text.
    g._text_bytes = 0
    assert g.reverse_geocode_many(pts, "city_state_country") == [
        g.reverse_geocode(tuple(p), "city_state_country") for p in pts]


def test_reverse_geocode_many_is_the_brute_force_nearest(gazetteer):
    g = gazetteer
    coords = g.places.coords()
    pts = _test_points(g.places, n=40, seed=5)
    loc = g.localities(pts)
    indices, dist = loc["nearest"], loc["nearest_distance_m"]
    for i, p in enumerate(pts):
        d = geoloc.distance_one_to_many(tuple(p), coords)
        # The vectorised distances may differ from geoloc.distance in the last bits: take the
        # candidates within a micrometre and settle them with the scalar distance.
        near = numpy.flatnonzero(d <= d.min() + 1e-6)
        exact = [(geoloc.distance(tuple(p), tuple(coords[j])), j) for j in near]
        best_d, best = min(exact)
        assert (indices[i], dist[i]) == (best, best_d), i


def test_reverse_geocode_many_errors(gazetteer):
    g = gazetteer
    assert g.reverse_geocode_many([]) == []
    assert g.reverse_geocode_many(numpy.empty((0, 2))) == []
    assert [a.shape for a in g.nearest_many(numpy.empty((0, 2)))] == [(0,), (0,)]
    bad = numpy.array([[39.8, -89.64], [0, 0], [numpy.nan, 0]])
    err = raises(geoloc.NotFiniteError, g.reverse_geocode_many, bad)
    assert err.message == "points[2]: latitude nan is not finite"
    err = raises(geoloc.NotFiniteError, g.nearest_many, bad)
    assert err.message == "points[2]: latitude nan is not finite"
    err = raises(geoloc.OutOfRangeError, g.nearest_many, [[0, 0], [-91, 0]])
    assert err.message == "points[1]: latitude -91 is outside [-90, 90]"
    raises(geoloc.NotFiniteError, g.reverse_geocode_many, [[0, INF]])
    raises(geoloc.InvalidArgumentError, g.reverse_geocode_many, [[0, 0]], 99)
    raises(geoloc.InvalidArgumentError, g.reverse_geocode_many, [[0, 0]], "zip")
    raises(ValueError, g.reverse_geocode_many, [[0, 0, 0]])
    raises(ValueError, g.nearest_many, [1.0, 2.0])
    raises(TypeError, g.reverse_geocode_many, [["a", "b"]])
    raises(TypeError, g.nearest_many, numpy.array([[True, False]]))
    with Gazetteer.open() as other:
        pass
    for use in (lambda: other.reverse_geocode_many([[0, 0]]), lambda: other.nearest_many([[0, 0]]),
                lambda: other.reverse_geocode_many([])):
        with pytest.raises(ValueError, match="closed"):
            use()


def test_reverse_geocode_many_in_threads(tmp_path):
    """Threads that format the same texts at once on a fresh gazetteer all read the same."""
    import os
    import threading

    path = os.environ.get("GEOLOC_GAZETTEER") or os.path.join(
        os.path.dirname(__file__), "..", "..", "data", "gazetteer", "cities1000.tsv")
    if not os.path.exists(path):
        pytest.skip("no gazetteer file to open afresh (%s)" % path)
    with Gazetteer.open(path) as g:
        pts = _test_points(g.places, n=200, seed=3)
        results = [None] * 4
        barrier = threading.Barrier(4)

        def work(t):
            barrier.wait()
            results[t] = g.reverse_geocode_many(pts, "city_state_country")

        threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert all(r == results[0] for r in results) and len(results[0]) == 200
        assert results[0] == [g.reverse_geocode(tuple(p), "city_state_country") for p in pts]
