"""The best order with opening hours against proven optima (issue 22): the Dumas-style TSPTW
instances of tests/route/tsptw, whose optima didppy 0.11.1 proved (tools/gen_route_tsptw.py).

How an instance lines up with geoloc.best_order_windows_matrix (include/geoloc.h section 4):
- the instance's (n + 1) x (n + 1) travel times are the ``times`` matrix as they stand: row and
  column 0 home, i the stop i (the library's stop i - 1);
- its n windows (earliest, latest) are the ``windows`` array, in the same order: a window is met
  when the arrival is no later than its latest time and an early arrival waits, as Dumas's;
- the route leaves home at ``departure=0`` and must be back by ``return_by`` (home's window);
- service times are part of the travel times in the instance, so ``service`` is None;
- the objective is the same: the library's ``travel`` (the sum of the legs, waiting not counted)
  is Dumas's total travel time, so it is compared with the optimum directly.
The default mode ("auto") is used: what a caller gets without tuning.
"""

from __future__ import annotations

from pathlib import Path

import numpy
import pytest

import geoloc

TSPTW_DIR = Path(__file__).resolve().parents[2] / "tests" / "route" / "tsptw"


def read_instance(path: Path):
    """(n, times, windows, return_by, optimum, tour) of one instance file."""
    lines = [ln for ln in path.read_text().splitlines() if ln and not ln.startswith("#")]
    head = {}
    i = 0
    while lines[i] != "times":
        key, _, value = lines[i].partition(" ")
        head[key] = value
        i += 1
    n = int(head["n"])
    times = numpy.array([[float(x) for x in ln.split()] for ln in lines[i + 1:i + 2 + n]])
    j = i + 2 + n
    assert lines[j] == "windows"
    windows = numpy.array([[float(x) for x in ln.split()] for ln in lines[j + 1:j + 1 + n]])
    tour = [int(x) for x in head["tour"].split()]
    return n, times, windows, float(head["return_by"]), float(head["optimum"]), tour


def check_schedule(times, windows, return_by, stops):
    """(travel, feasible) of the round trip home -> stops (1-based) -> home, recomputed here."""
    clock, prev, travel, ok = 0.0, 0, 0.0, True
    for s in stops:
        clock += times[prev, s]
        travel += times[prev, s]
        ok = ok and clock <= windows[s - 1, 1]
        clock = max(clock, windows[s - 1, 0])
        prev = s
    clock += times[prev, 0]
    travel += times[prev, 0]
    return travel, ok and clock <= return_by


INSTANCES = sorted(TSPTW_DIR.glob("n*w*.s*.txt"), key=lambda p: (int(p.name[1:p.name.index("w")]), p.name))


def test_the_instances_are_there_and_their_optima_check():
    assert len(INSTANCES) == 30
    for path in INSTANCES:
        n, times, windows, return_by, optimum, tour = read_instance(path)
        assert times.shape == (n + 1, n + 1) and windows.shape == (n, 2)
        assert tour[0] == 0 and tour[-1] == 0 and sorted(tour[1:-1]) == list(range(1, n + 1))
        assert check_schedule(times, windows, return_by, tour[1:-1]) == (optimum, True), path.name


def solve(path: Path):
    n, times, windows, return_by, optimum, _ = read_instance(path)
    r = geoloc.best_order_windows_matrix(times, windows=windows, departure=0.0, return_by=return_by)
    assert sorted(int(s) for s in r.order) == list(range(n))
    travel, ok = check_schedule(times, windows, return_by, [int(s) + 1 for s in r.order])
    assert travel == pytest.approx(r.travel, abs=1e-9)
    assert ok == r.feasible
    return r, optimum


@pytest.mark.parametrize("path", [p for p in INSTANCES if p.name.startswith("n20w")], ids=lambda p: p.stem)
def test_exact_on_every_20_stop_instance(path):
    r, optimum = solve(path)
    assert r.feasible
    assert r.travel == pytest.approx(optimum, abs=1e-9)


@pytest.mark.parametrize("path", INSTANCES, ids=lambda p: p.stem)
def test_feasible_and_within_one_percent_up_to_100_stops(path):
    r, optimum = solve(path)
    assert r.feasible
    assert r.travel >= optimum - 1e-9  # nothing beats a proven optimum
    assert r.travel <= optimum * 1.01, "%.0f is %.2f%% above the optimum %.0f" % (
        r.travel, 100 * (r.travel / optimum - 1), optimum)
