"""Routes through Python: path length, the seed's mileage rules, ETA; the golden mileage and ETA cases."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
import re

from typing import Dict, List, Optional, Tuple

import numpy
import pytest

import geoloc
from geoloc import (
    Leg,
    Unit,
)
import golden_cases
from golden_cases import expect_failure, split_list
from helpers import random_lat_lon, CENTRALIA, HOME, INF, NAN, NYC, STOP_A, STOP_B, STOP_C, raises, rel_close


# ============================================================================================
# Routes, mileage, ETA
# ============================================================================================

ROUTE = [geoloc.parse_coord(t) for t in (HOME, STOP_A, STOP_B, STOP_C)]


def test_route_length():
    total, legs = geoloc.route_length(ROUTE, unit="mi")
    assert legs.shape == (3,) and legs.dtype == numpy.float64
    assert rel_close(legs[0], 20.103978965151495445)
    assert rel_close(legs[1], 12.349580900550798332)
    assert rel_close(legs[2], 61.938423568336484241)
    assert rel_close(total, 94.391983434038778018)
    for i in range(3):
        assert rel_close(legs[i], geoloc.distance(ROUTE[i], ROUTE[i + 1], "mi"), 1e-15)
    closed_total, closed_legs = geoloc.route_length(ROUTE, closed=True, unit=Unit.MILES)
    assert closed_legs.shape == (4,)
    assert rel_close(closed_legs[3], 41.017293523112595277)
    assert rel_close(closed_total, 135.40927695715137329)
    assert rel_close(closed_total, float(closed_legs.sum()), 1e-14)
    meters, _ = geoloc.route_length(ROUTE)
    assert rel_close(meters, total * 1609.344, 1e-14)


def test_route_length_short_routes():
    for closed in (False, True):
        total, legs = geoloc.route_length([CENTRALIA], closed=closed)
        assert total == 0.0 and legs.shape == (0,)
    total, legs = geoloc.route_length([CENTRALIA, NYC], closed=True)
    assert legs.shape == (2,) and legs[0] == legs[1] and total == 2 * legs[0]


def test_mileage_seed_examples():
    m = geoloc.mileage(HOME, [STOP_A])
    assert m.text == "40.2" and m.rounded == 40.2
    assert rel_close(m.total, 40.207957930302990889)
    assert m.stops_used == 1 and m.skipped == () and m.home_problem is None
    assert len(m.legs) == 2
    assert (m.legs[0].from_index, m.legs[0].to_index) == (None, 0)
    assert (m.legs[1].from_index, m.legs[1].to_index) == (0, None)
    assert rel_close(m.legs[0].distance, 20.103978965151495445)
    assert isinstance(m.legs[0], Leg)

    m = geoloc.mileage(HOME, [STOP_A, STOP_B, STOP_C])
    assert m.text == "135.4" and m.stops_used == 3
    assert [(leg.from_index, leg.to_index) for leg in m.legs] == [(None, 0), (0, 1), (1, 2), (2, None)]
    closed_total, _ = geoloc.route_length(ROUTE, closed=True, unit="mi")
    assert rel_close(m.total, closed_total, 1e-14)

    m = geoloc.mileage(HOME, (s for s in [STOP_A, STOP_B, STOP_C]), round_trip=False)
    assert m.text == "94.4" and m.legs[-1].to_index == 2 and len(m.legs) == 3

    m = geoloc.mileage(HOME, ["37.727270,-89.216760", "37.996990,-88.920070"], unit="km")
    assert m.text == "149.0"

    m = geoloc.mileage(HOME.encode(), [STOP_A.encode()], unit=Unit.NAUTICAL_MILES)
    assert m.text == "34.9"
    assert rel_close(m.total, 40.207957930302990889 * 1609.344 / 1852)


def test_mileage_skips_stops_without_coordinates():
    m = geoloc.mileage(HOME, [STOP_A, None, "", "38.5", "abc", STOP_B, "  ", "91,0"])
    assert m.skipped == (1, 2, 3, 4, 6, 7)
    assert m.stops_used == 2 and m.text == "53.9"
    assert [(leg.from_index, leg.to_index) for leg in m.legs] == [(None, 0), (0, 5), (5, None)]
    m = geoloc.mileage(HOME, [None, "x"])
    assert (m.text, m.total, m.stops_used, m.skipped, m.legs) == ("0", 0.0, 0, (0, 1), ())
    m = geoloc.mileage(HOME, [])
    assert (m.text, m.total, m.stops_used, m.skipped, m.legs, m.home_problem) == ("0", 0.0, 0, (), (), None)
    m = geoloc.mileage(HOME, [HOME])
    assert m.text == "0.0" and m.stops_used == 1


@pytest.mark.parametrize("home", [None, "", "   ", " \t\n", b""])
def test_mileage_without_home_raises(home):
    err = raises(geoloc.NoHomeError, geoloc.mileage, home, [STOP_A])
    assert "home" in err.message


@pytest.mark.parametrize("home", ["38.321991;-88.867400", "95,0", "abc", "nan,0", b"1,2,3"])
def test_mileage_with_malformed_home_is_a_soft_failure(home):
    m = geoloc.mileage(home, [STOP_A, None, STOP_B])
    assert m.text == "0" and m.total == 0.0 and m.rounded == 0.0
    assert m.stops_used == 0 and m.skipped == (0, 1, 2) and m.legs == ()
    assert m.home_problem and "home" in m.home_problem


def test_mileage_errors():
    raises(geoloc.InvalidUTF8Error, geoloc.mileage, b"\xff", [STOP_A])
    raises(geoloc.InvalidUTF8Error, geoloc.mileage, HOME, [STOP_A, b"38.5,\xff"])
    raises(geoloc.InvalidUTF8Error, geoloc.mileage, HOME, ["\udc80"])
    raises(geoloc.InvalidArgumentError, geoloc.mileage, HOME, [STOP_A + "\0"])
    # WGS84 is no error: geodesic legs (GeographicLib 2.1: 2 x 32367.371505257266 m).
    assert abs(geoloc.mileage(HOME, [STOP_A], model="wgs84").total - 2 * 32367.371505257266 / 1609.344) <= 1e-10
    raises(geoloc.InvalidArgumentError, geoloc.mileage, HOME, [STOP_A], unit="leagues")
    raises(TypeError, geoloc.mileage, HOME, STOP_A)  # one text, not a list of stops
    raises(TypeError, geoloc.mileage, HOME, [38.5])
    raises(TypeError, geoloc.mileage, HOME, None)


def test_mileage_result_is_frozen():
    m = geoloc.mileage(HOME, [STOP_A])
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.text = "1"  # type: ignore[misc]
    assert dataclasses.fields(m)[0].name == "total"
    assert [f.name for f in dataclasses.fields(geoloc.Mileage)] == [
        "total", "rounded", "text", "stops_used", "skipped", "legs", "home_problem"]


def _round_half_away(x):
    y = abs(x) * 10
    f = math.floor(y)
    return math.copysign(f + 1 if y - f >= 0.5 else f, x) / 10


def test_mileage_many_stops_in_one_call():
    pts = random_lat_lon(1000, 12)
    pts[:, 0] = pts[:, 0] / 4 + 38  # a few hundred miles around home
    pts[:, 1] = pts[:, 1] / 8 - 88
    stops = [geoloc.format_coord(p) for p in pts]
    m = geoloc.mileage(HOME, stops)
    assert m.stops_used == 1000 and len(m.legs) == 1001 and m.skipped == ()
    assert [leg.to_index for leg in m.legs[:-1]] == list(range(1000))
    route = [geoloc.parse_coord(HOME)] + [geoloc.parse_coord(s) for s in stops]
    total, legs = geoloc.route_length(route, closed=True, unit="mi")
    assert rel_close(m.total, total, 1e-13)
    assert numpy.array_equal(numpy.array([leg.distance for leg in m.legs]), legs)
    assert m.rounded == _round_half_away(m.total) and m.text == "%.1f" % m.rounded


def test_mileage_text_is_the_rounded_total():
    rng = numpy.random.default_rng(13)
    for _ in range(200):
        stops = ["%.6f,%.6f" % (rng.uniform(37, 39), rng.uniform(-90, -87)) for _ in range(rng.integers(1, 5))]
        m = geoloc.mileage(HOME, stops)
        assert m.rounded == _round_half_away(m.total)
        assert m.text == "%.1f" % m.rounded
        assert re.fullmatch(r"\d+\.\d", m.text)


def test_eta_minutes():
    assert geoloc.eta_minutes(30, 60, "mi") == 30
    assert geoloc.eta_minutes(30.1, 60, Unit.MILES) == 31
    assert geoloc.eta_minutes(10, 50, detour_factor=1.3) == 16
    assert geoloc.eta_minutes(0, 50) == 0
    assert geoloc.eta_minutes(0.001, 60, "mi") == 1
    assert geoloc.eta_minutes(120, 80) == 90
    assert type(geoloc.eta_minutes(1, 1)) is int
    assert geoloc.eta_minutes(1e6, 1, "km") == 60_000_000


@pytest.mark.parametrize(
    "args, cls",
    [
        ((-1, 60), geoloc.OutOfRangeError),
        ((1, 0), geoloc.OutOfRangeError),
        ((1, -5), geoloc.OutOfRangeError),
        ((1, 60, "km", 0.9), geoloc.OutOfRangeError),
        ((1e300, 1e-300), geoloc.OutOfRangeError),
        ((NAN, 60), geoloc.NotFiniteError),
        ((1, INF), geoloc.NotFiniteError),
        ((1, 60, "km", NAN), geoloc.NotFiniteError),
        ((1, 60, "lightyears"), geoloc.InvalidArgumentError),
        ((None, 60), TypeError),
    ],
)
def test_eta_minutes_errors(args, cls):
    raises(cls, geoloc.eta_minutes, *args)


# --------------------------------------------------------------------------------------------
# The shared golden cases of this capability (tests/golden)
# --------------------------------------------------------------------------------------------


def parse_legs(field: str) -> List[Tuple[Optional[int], Optional[int], float]]:
    legs = []
    for item in split_list(field, ";"):
        ends, dist = item.split("=", 1)
        src, dst = ends.split(">", 1)
        legs.append((None if int(src) < 0 else int(src), None if int(dst) < 0 else int(dst), float(dist)))
    return legs


def check_mileage(r: Dict[str, Optional[str]]) -> None:
    stops = split_list(r["stops"], " | ")
    assert r["round_trip"] in ("0", "1")

    def run() -> geoloc.Mileage:
        return geoloc.mileage(r["home"], stops, round_trip=r["round_trip"] == "1", unit=r["unit"])

    if r["status"] not in ("OK", "E_HOME_INVALID"):
        expect_failure(r["status"], run)
        return
    m = run()
    if r["status"] == "E_HOME_INVALID":
        assert m.home_problem and m.home_problem.strip()
    else:
        assert m.home_problem is None
    assert m.text == r["text"]
    assert math.isclose(m.total, float(r["total"]), rel_tol=1e-12, abs_tol=1e-12), (m.total, r["total"])
    assert m.stops_used == int(r["stops_used"])
    assert m.skipped == tuple(int(i) for i in split_list(r["skipped"], ","))
    expected_legs = parse_legs(r["legs"])
    assert len(m.legs) == len(expected_legs)
    for leg, (src, dst, dist) in zip(m.legs, expected_legs):
        assert (leg.from_index, leg.to_index) == (src, dst)
        assert math.isclose(leg.distance, dist, rel_tol=1e-12, abs_tol=1e-12), (leg, dist)


def check_eta(r: Dict[str, Optional[str]]) -> None:
    def run() -> int:
        return geoloc.eta_minutes(float(r["distance"]), float(r["speed_per_hour"]), r["unit"], float(r["detour"]))

    if r["status"] == "OK":
        got = run()
        assert type(got) is int
        assert got == int(r["minutes"])
    else:
        expect_failure(r["status"], run)


GOLDEN_CHECKERS = {
    "mileage.tsv": check_mileage,
    "eta.tsv": check_eta,
}


@golden_cases.parametrize("route")
def test_golden_row(case) -> None:
    golden_cases.check_row(case, GOLDEN_CHECKERS)


def test_every_golden_file_of_this_capability_has_a_checker() -> None:
    assert set(GOLDEN_CHECKERS) == set(golden_cases.FILES_BY_CAPABILITY["route"])


# ============================================================================================
# The best order of a day's stops (tests/route: instances with proven optima)
# ============================================================================================

ROUTE_DIR = Path(__file__).resolve().parents[2] / "tests" / "route"


def _instances():
    rows = (ROUTE_DIR / "optimal.csv").read_text().splitlines()[1:]
    for row in rows:
        f = row.split(",")
        pts = numpy.loadtxt(ROUTE_DIR / "instances" / (f[0] + ".csv"), delimiter=",", skiprows=1)[:, 1:]
        yield f[0], pts[0], pts[1:], float(f[2]), float(f[3]), float(f[5]), float(f[7])


def test_best_order_is_exact_on_the_shared_town_instances():
    count = 0
    for name, home, stops, given, closed, open_any, open_end in _instances():
        n = len(stops)
        if n > 16:
            continue
        r = geoloc.best_order(home, stops)
        assert r.proven_optimal and abs(r.total - closed) <= 1e-3, name
        assert abs(r.given_total - given) <= 1e-3 and sorted(r.order) == list(range(n)) and len(r.legs) == n + 1
        assert abs(geoloc.best_order(home, stops, end="anywhere").total - open_any) <= 1e-3, name
        fixed = geoloc.best_order(home, stops, end=n - 1)
        assert abs(fixed.total - open_end) <= 1e-3 and fixed.order[-1] == n - 1, name
        count += 1
    assert count == 100


def test_auto_proves_a_day_of_up_to_24_stops():
    # Above 16 stops auto mode tries the capped exact search first: proven optimal when it
    # finishes, never longer than a long heuristic search, equal to the exact search at 18.
    rng = numpy.random.default_rng(24)
    proven = 0
    for n in (17, 18, 20, 24):
        pts = numpy.column_stack([rng.uniform(51.3, 51.7, n + 1), rng.uniform(-0.5, 0.2, n + 1)])
        auto = geoloc.best_order(pts[0], pts[1:])
        longer = geoloc.best_order(pts[0], pts[1:], mode="heuristic", iterations=1000)
        assert sorted(auto.order) == list(range(n))
        assert auto.total <= longer.total * (1 + 1e-12)
        if n <= 18:
            assert auto.total == pytest.approx(geoloc.best_order(pts[0], pts[1:], mode="exact").total, rel=1e-9)
        proven += auto.proven_optimal
    assert proven >= 3


def test_best_order_within_a_tenth_of_a_percent_at_100_stops():
    for name, home, stops, _, closed, open_any, open_end in _instances():
        if len(stops) != 100:
            continue
        r = geoloc.best_order(home, stops)
        assert not r.proven_optimal and closed * (1 - 1e-12) <= r.total <= closed * 1.001, name
        assert geoloc.best_order(home, stops, end="anywhere").total <= open_any * 1.001, name
        assert geoloc.best_order(home, stops, end=99).total <= open_end * 1.001, name


def _brute_force(m, end):
    import itertools
    n = len(m) - 1
    best = math.inf
    for p in itertools.permutations(range(1, n + 1)):
        if isinstance(end, int) and n and p[-1] != end + 1:
            continue
        s = sum(m[a][b] for a, b in zip((0,) + p, p)) + (m[p[-1] if p else 0][0] if end == "home" else 0)
        best = min(best, s)
    return 0.0 if n == 0 else best


def test_best_order_matrix_asymmetric_against_brute_force():
    rng = numpy.random.default_rng(5)
    for n in range(0, 8):
        m = rng.integers(0, 1000, (n + 1, n + 1)) / 10.0
        if n >= 2:
            m[1, 2] = 0.0
        for end in ["home", "anywhere"] + ([n - 1] if n else []):
            want = _brute_force(m, end)
            assert abs(geoloc.best_order_matrix(m, end=end, mode="exact").total - want) <= 1e-9
            assert abs(geoloc.best_order_matrix(m, end=end, mode="heuristic", iterations=300).total - want) <= 1e-9


def test_best_order_seed_texts_and_small_inputs():
    home = (38.321991, -88.8674)
    stops = [(38.525050, -89.133404), (37.730604, -88.933138), (38.626995, -88.945610)]
    r = geoloc.best_order(home, stops, unit="mi")
    assert r.text == "%.1f" % r.total and r.given_text == "%.1f" % r.given_total and r.saving > 0
    assert r.given_total == pytest.approx(geoloc.route_length([home] + stops + [home], unit="mi")[0], rel=1e-12)
    none = geoloc.best_order(home, numpy.empty((0, 2)))
    assert none.text == "0" and len(none.order) == 0 and len(none.legs) == 0
    same = geoloc.best_order(home, [stops[0]] * 3, end="anywhere")
    assert sorted(same.order) == [0, 1, 2] and list(same.legs[1:]) == [0.0, 0.0]
    wgs = geoloc.best_order(home, stops, model="wgs84")
    assert wgs.total == pytest.approx(sum(wgs.legs), rel=1e-15)


def test_best_order_above_256_stops_legs_and_matrix_paths():
    # Above 256 stops the search's sphere matrix comes from the batch haversine; the legs are
    # still each one geoloc.distance, bit for bit, on the sphere and on WGS84.
    rng = numpy.random.default_rng(256)
    pts = numpy.column_stack([rng.uniform(30, 45, 301), rng.uniform(-120, -75, 301)])
    home, stops = pts[0], pts[1:]
    for model in ("sphere", "wgs84"):
        for end in ("home", "anywhere", 17):
            r = geoloc.best_order(home, stops, model=model, end=end, iterations=500)
            assert sorted(r.order) == list(range(300))
            path = [home] + [stops[i] for i in r.order] + ([home] if end == "home" else [])
            want = [geoloc.distance(a, b, model=model) for a, b in zip(path, path[1:])]
            assert list(r.legs) == want, (model, end)
            assert r.total == pytest.approx(sum(want), rel=1e-15)
            if end == 17:
                assert r.order[-1] == 17
    # A symmetric matrix is searched in place when it needs no change (diagonal 0, home's column
    # equal to its row) and copied otherwise: the same order either way.
    m = numpy.array([[geoloc.distance(a, b) for b in pts[:281]] for a in pts[:281]])
    for end in ("home", "anywhere"):
        as_is = geoloc.best_order_matrix(m, end=end, iterations=400, seed=3)
        changed = m.copy()
        numpy.fill_diagonal(changed, 7.0)
        if end == "anywhere":
            changed[1:, 0] = 0.0
        copied = geoloc.best_order_matrix(changed, end=end, iterations=400, seed=3)
        assert list(as_is.order) == list(copied.order) and as_is.total == copied.total, end


@pytest.mark.parametrize(
    "call, cls",
    [
        (lambda: geoloc.best_order((0, 0), [(i / 10, 0) for i in range(20)], mode="exact"), geoloc.CountTooLargeError),
        (lambda: geoloc.best_order((0, 0), [(1, 1)], end=1), geoloc.OutOfRangeError),
        (lambda: geoloc.best_order((0, 0), [(1, 1)], end="nowhere"), geoloc.InvalidArgumentError),
        (lambda: geoloc.best_order((0, 0), [(1, 1)], iterations=0), geoloc.OutOfRangeError),
        (lambda: geoloc.best_order((0, 0), [(1, 1)], time_limit=0), geoloc.OutOfRangeError),
        (lambda: geoloc.best_order((0, 0), [(91, 1)]), geoloc.OutOfRangeError),
        (lambda: geoloc.best_order((NAN, 0), [(1, 1)]), geoloc.NotFiniteError),
        (lambda: geoloc.best_order((0, 0), [(1, 1)], mode="fast"), geoloc.InvalidArgumentError),
        (lambda: geoloc.best_order_matrix(numpy.zeros((2, 3))), geoloc.InvalidArgumentError),
        (lambda: geoloc.best_order_matrix([[0, NAN], [1, 0]]), geoloc.NotFiniteError),
        (lambda: geoloc.best_order_matrix([[0, -1], [1, 0]]), geoloc.OutOfRangeError),
        (lambda: geoloc.best_order_matrix(numpy.zeros((4098, 4098), dtype=numpy.float32)), geoloc.CountTooLargeError),
    ],
)
def test_best_order_errors(call, cls):
    raises(cls, call)


# ============================================================================================
# Separate latitude and longitude columns (LatLon)
# ============================================================================================


def test_route_calls_take_latlon_columns():
    stops = numpy.array([geoloc.parse_coord(s) for s in (STOP_A, STOP_B, STOP_C)] + [NYC], dtype=float)
    cols = geoloc.LatLon(stops[:, 0], stops[:, 1])
    total, legs = geoloc.route_length(stops, closed=True, unit="mi")
    total2, legs2 = geoloc.route_length(cols, closed=True, unit="mi")
    assert total2 == total and numpy.array_equal(legs2, legs)
    home = geoloc.parse_coord(HOME)
    got, want = geoloc.best_order(home, cols, unit="mi"), geoloc.best_order(home, stops, unit="mi")
    assert list(got.order) == list(want.order) and got.total == want.total and got.text == want.text
