"""The best order's budgets and bounds (issue 21's route findings) and the best order with
opening hours (issue 22) through Python: every order brute-forced, datetimes in and out."""

from __future__ import annotations

import datetime
import itertools
import time

import numpy
import pytest

import geoloc


def _is_permutation(order, n):
    return sorted(int(x) for x in order) == list(range(n))


def _end_kw(end):
    """The route's end as keywords: round_trip for "home" and "anywhere", end for a stop."""
    return {"round_trip": end == "home"} if isinstance(end, str) else {"end": end}


# ============================================================================================
# Issue 21's route findings
# ============================================================================================

def test_issue21_huge_costs_refused_with_the_bound():
    m = numpy.full((4, 4), 1e308)
    numpy.fill_diagonal(m, 0)
    with pytest.raises(geoloc.OutOfRangeError, match="1e\\+300"):
        geoloc.best_order_matrix(m)
    m = numpy.full((4, 4), 1e300)
    numpy.fill_diagonal(m, 0)
    for end in ("home", "anywhere", 2):
        r = geoloc.best_order_matrix(m, **_end_kw(end))
        assert numpy.isfinite(r.total) and r.text != "inf" and _is_permutation(r.order, 3)


def test_issue21_tiny_time_limit_counts_from_the_call():
    # 4,096 stops ran 4.1 s under a 1e-9 s limit; the time is printed, not asserted.
    rng = numpy.random.default_rng(7)
    pts = numpy.column_stack([rng.uniform(30, 40, 4097), rng.uniform(-100, -80, 4097)])
    t = time.perf_counter()
    r = geoloc.best_order(pts[0], pts[1:], time_limit=1e-9)
    print("time limit 1e-9 s at 4,096 stops: %.3f s" % (time.perf_counter() - t))
    assert _is_permutation(r.order, 4096) and numpy.isfinite(r.total)


def test_issue21_time_limit_alone_runs_until_that_time():
    rng = numpy.random.default_rng(11)
    pts = numpy.column_stack([rng.uniform(30, 40, 61), rng.uniform(-100, -80, 61)])
    t = time.perf_counter()
    r = geoloc.best_order(pts[0], pts[1:], mode="heuristic", time_limit=0.25)
    assert time.perf_counter() - t >= 0.25
    d = geoloc.best_order(pts[0], pts[1:])
    assert r.total <= d.total * (1 + 1e-9)


def test_issue21_iteration_cap_in_the_header():
    pts = [(38.3, -88.8), (38.5, -89.1), (37.7, -88.9), (38.6, -88.9), (38.0, -88.0)]
    with pytest.raises(geoloc.OutOfRangeError, match="100000000"):
        geoloc.best_order(pts[0], pts[1:], mode="heuristic", iterations=100_000_001)
    with pytest.raises(geoloc.OutOfRangeError):
        geoloc.best_order(pts[0], pts[1:], mode="heuristic", time_limit=86_401)


# ============================================================================================
# Opening hours against every order
# ============================================================================================

def _evaluate(t, w, service, departure, return_by, end, perm):
    time_, prev, late, travel = departure, 0, 0.0, 0.0
    for s in perm:
        node = s + 1
        arrival = time_ + t[prev, node]
        travel += t[prev, node]
        late += max(0.0, arrival - w[s, 1])
        time_ = max(arrival, w[s, 0]) + service[s]
        prev = node
    if end == "home" and len(perm):
        travel += t[prev, 0]
        time_ += t[prev, 0]
    late += max(0.0, time_ - return_by)
    return late, travel


def _brute_force(t, w, service, departure, return_by, end):
    n = len(w)
    best = (numpy.inf, numpy.inf)
    for perm in itertools.permutations(range(n)):
        if isinstance(end, int) and perm[-1] != end:
            continue
        late, travel = _evaluate(t, w, service, departure, return_by, end, perm)
        if late < best[0] - 1e-9 or (abs(late - best[0]) <= 1e-9 and travel < best[1]):
            best = (late, travel)
    return best


def _problem(rng, n, tight):
    xy = rng.uniform(0, 100, (n + 1, 2))
    t = numpy.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1))
    t += numpy.where(rng.random((n + 1, n + 1)) < 0.25, rng.uniform(0, 20, (n + 1, n + 1)), 0)
    numpy.fill_diagonal(t, 0)
    opens = 100 + rng.uniform(0, 600, n)
    width = rng.uniform(30, 110 if tight else 330, n)
    w = numpy.column_stack([numpy.where(rng.random(n) < 0.2, -numpy.inf, opens),
                            numpy.where(rng.random(n) < 0.15, numpy.inf, opens + width)])
    service = rng.uniform(0, 15, n)
    return t, w, service


@pytest.mark.parametrize("n", range(1, 8))
def test_windows_against_every_order(n):
    rng = numpy.random.default_rng(100 + n)
    for rep in range(4):
        t, w, service = _problem(rng, n, rep % 2 == 1)
        return_by = 600.0 if rep == 3 else numpy.inf
        for end in ("home", "anywhere", n - 1):
            want = _brute_force(t, w, service, 100.0, return_by, end)
            r = geoloc.best_order_windows_matrix(t, w, service, departure=100.0,
                                                 return_by=None if numpy.isinf(return_by) else return_by,
                                                 **_end_kw(end))
            assert _is_permutation(r.order, n)
            got = _evaluate(t, w, service, 100.0, return_by, end, [int(x) for x in r.order])
            assert got[0] == pytest.approx(r.total_lateness, abs=1e-6)
            assert got[1] == pytest.approx(r.travel, abs=1e-6)
            if want[0] <= 1e-9:
                assert r.feasible and r.proven_optimal and r.missed == 0
                assert r.travel == pytest.approx(want[1], abs=1e-6)
            else:
                # No order meets every window: said so, with the least total lateness.
                assert not r.feasible and r.missed > 0
                assert r.total_lateness == pytest.approx(want[0], abs=1e-6)
            # Each visit: arrival + wait + service = departure; lateness past the window only.
            for k, s in enumerate(r.order):
                assert r.departure[k] == pytest.approx(r.arrival[k] + r.wait[k] + service[s], abs=1e-9)
                assert r.lateness[k] == pytest.approx(max(0.0, r.arrival[k] - w[s, 1]), abs=1e-9)


def test_windows_with_datetimes_and_coordinates():
    home = (38.321991, -88.8674)
    stops = [(38.525050, -89.133404), (37.730604, -88.933138), (38.626995, -88.945610)]
    day = datetime.datetime(2026, 11, 24)
    windows = numpy.array([[None, None], [day.replace(hour=14), day.replace(hour=15)], [None, day.replace(hour=18)]],
                          dtype=object)
    r = geoloc.best_order_windows(home, stops, speed=20.0, windows=windows, service=[600, 900, 300],
                                  departure=day.replace(hour=8))
    assert r.feasible and r.proven_optimal
    k = list(r.order).index(1)
    assert numpy.datetime64("2026-11-24T14:00") <= r.arrival[k] + numpy.timedelta64(int(r.wait[k] * 1e6), "us")
    assert r.arrival[k] <= numpy.datetime64("2026-11-24T15:00")
    assert r.end_time > numpy.datetime64("2026-11-24T14:15")
    # The same in seconds, with numpy datetime64 windows (NaT: no bound).
    w64 = numpy.array([["NaT", "NaT"], ["2026-11-24T14:00", "2026-11-24T15:00"], ["NaT", "2026-11-24T18:00"]],
                      dtype="datetime64[s]")
    r2 = geoloc.best_order_windows(home, stops, speed=20.0, windows=w64, service=[600, 900, 300],
                                   departure=numpy.datetime64("2026-11-24T08:00"))
    assert list(r2.order) == list(r.order) and r2.travel == pytest.approx(r.travel)


def test_windows_infeasible_is_reported_not_hidden():
    t = numpy.full((4, 4), 10.0)
    numpy.fill_diagonal(t, 0)
    r = geoloc.best_order_windows_matrix(t, return_by=5.0)
    assert not r.feasible and r.missed == 1 and r.total_lateness == pytest.approx(35.0)


@pytest.mark.parametrize("kwargs, cls", [
    (dict(windows=[[10, 5], [0, 1], [0, 1]]), geoloc.OutOfRangeError),
    (dict(windows=[[numpy.nan, 5], [0, 1], [0, 1]]), geoloc.NotFiniteError),
    (dict(windows=[[0, 5], [0, 1]]), geoloc.InvalidArgumentError),
    (dict(service=[-1, 0, 0]), geoloc.OutOfRangeError),
    (dict(service=[1, 0]), geoloc.InvalidArgumentError),
    (dict(departure=numpy.inf), geoloc.NotFiniteError),
    (dict(windows=numpy.ones((3, 2), dtype=complex)), TypeError),
])
def test_windows_errors(kwargs, cls):
    t = numpy.full((4, 4), 10.0)
    with pytest.raises(cls):
        geoloc.best_order_windows_matrix(t, **kwargs)


# ============================================================================================
# The Dumas-style instances of tests/route/windows, with their optima
# ============================================================================================

_WINDOWS_DIR = __import__("pathlib").Path(__file__).resolve().parents[2] / "tests" / "route" / "windows"


def _read_instance(name):
    v = (_WINDOWS_DIR / (name + ".txt")).read_text().split()
    n = int(v[0])
    size = n + 1
    t = numpy.array([float(x) for x in v[1:1 + size * size]]).reshape(size, size)
    rest = [float(x) for x in v[1 + size * size:]]
    w = numpy.array(rest[:3 * n]).reshape(n, 3)
    return t, w[:, :2].copy(), w[:, 2].copy(), rest[3 * n], rest[3 * n + 1]


def _optima():
    rows = (_WINDOWS_DIR / "optimal.csv").read_text().splitlines()[1:]
    return [(r.split(",")[0], int(r.split(",")[1]), float(r.split(",")[3])) for r in rows]


@pytest.mark.parametrize("name, n, optimum", [r for r in _optima() if r[1] <= 40 or r[0].endswith("w100")])
def test_windows_dumas_instances(name, n, optimum):
    t, w, svc, dep, ret = _read_instance(name)
    r = geoloc.best_order_windows_matrix(t, w, svc, departure=dep, return_by=ret)
    assert r.feasible
    assert _is_permutation(r.order, n)
    if n <= 40:
        # Exact: proven and equal to the generator's own exact search.
        assert r.proven_optimal and r.travel == pytest.approx(optimum)
    else:
        assert r.travel <= optimum * 1.01
    # Every kind of route meets the windows too (open routes and a fixed end are never longer).
    if n <= 40:
        for end in ("anywhere", n - 1):
            o = geoloc.best_order_windows_matrix(t, w, svc, departure=dep, return_by=ret, **_end_kw(end))
            assert _is_permutation(o.order, n)
            if end == "anywhere":
                assert o.feasible and o.travel <= r.travel


def _same(a, b):
    return (numpy.array_equal(a.order, b.order) and numpy.array_equal(a.legs, b.legs) and a.travel == b.travel
            and a.feasible == b.feasible and numpy.array_equal(a.arrival, b.arrival))


def test_windows_round_trip_keyword_as_best_order():
    # round_trip= says "back home" as in best_order; end= a stop index; 0.3-style end="home" and
    # end="anywhere" still work with a DeprecationWarning naming round_trip.
    rng = numpy.random.default_rng(5)
    t, w, service = _problem(rng, 6, False)
    home = geoloc.best_order_windows_matrix(t, w, service, departure=100.0)
    assert _same(home, geoloc.best_order_windows_matrix(t, w, service, departure=100.0, round_trip=True))
    open_route = geoloc.best_order_windows_matrix(t, w, service, departure=100.0, round_trip=False)
    assert open_route.travel <= home.travel + 1e-9 and len(open_route.legs) == 6 and len(home.legs) == 7
    for old, new in (("home", home), ("anywhere", open_route)):
        with pytest.warns(DeprecationWarning, match="round_trip=%s" % (old == "home")):
            r = geoloc.best_order_windows_matrix(t, w, service, departure=100.0, end=old)
        assert _same(r, new)
    fixed = geoloc.best_order_windows_matrix(t, w, service, departure=100.0, end=3)
    assert int(fixed.order[-1]) == 3 and len(fixed.legs) == 6
    assert _same(geoloc.best_order_windows_matrix(t, w, service, departure=100.0, end=3, round_trip=False), fixed)
    with pytest.raises(TypeError, match="round_trip"):
        geoloc.best_order_windows_matrix(t, w, service, end="home", round_trip=True)
    with pytest.raises(TypeError, match="not a round trip"):
        geoloc.best_order_windows_matrix(t, w, service, end=3, round_trip=True)
    # The coordinates' door takes the same keywords.
    pts = numpy.column_stack([rng.uniform(38, 39, 6), rng.uniform(-89, -88, 6)])
    a = geoloc.best_order_windows(pts[0], pts[1:], 15.0, round_trip=False)
    with pytest.warns(DeprecationWarning):
        b = geoloc.best_order_windows(pts[0], pts[1:], 15.0, end="anywhere")
    assert _same(a, b) and len(a.legs) == 5
    with pytest.raises(TypeError, match="best_order_windows\\(\\)"):
        geoloc.best_order_windows(pts[0], pts[1:], 15.0, end=2, round_trip=True)
