#!/usr/bin/env python3
"""Generates the TSPTW instances of tests/route/tsptw, each with an optimum proven by didppy.

The published instances of Dumas, Desrosiers, Gelinas and Solomon (Operations Research 43(2),
1995) are in no pinned PyPI or Debian package, so this script draws instances by their
construction, from a fixed seed, and has an independent exact solver prove each optimum:

- home and n stops at random integer points of a 50 x 50 grid;
- travel times the Euclidean distances rounded to the nearest integer (service times are zero:
  as in Dumas's set, any service is taken to be part of the travel times);
- a random tour through all stops; around each stop's arrival time on that tour (no waiting) a
  window [earliest, latest] of random width at most W that contains it, so the tour meets every
  window and each instance has a feasible order; home's return deadline is that tour's return
  time plus W;
- groups n = 20, 40, 60, 80, 100 and W = 20, 40, 60, two seeds each (30 instances).

The objective is the total travel time (the sum of the legs; waiting not counted), as Dumas's.
Each instance is solved by didppy 0.11.1 (Kuroiwa and Beck's Domain-Independent Dynamic
Programming, CABS; MIT OR Apache-2.0) on a DIDP model of the TSPTW (state: unvisited set,
current stop, time; a transition per next stop, which waits for its window to open and must
arrive by its latest time). The state constraints prune with shortest-path travel times (the
rounded times need not obey the triangle inequality), so they never cut off a feasible order.
Only instances that CABS proves optimal within TIME_LIMIT seconds are written; the others are
counted and named on stderr and in the README. The tour didppy returns is checked here against
the windows and its travel recomputed before it is written.

    python3 tools/gen_route_tsptw.py [OUT_DIR]   (default tests/route/tsptw)

didppy is not a dependency of the library: run with a Python that lacks it, the script makes a
virtual environment build/tsptw-venv (python3 -m venv), installs didppy==0.11.1 into it with pip
(a binary wheel from PyPI) and runs itself again with that environment's Python.

Files: NAME.txt per instance (see tests/route/tsptw/README.md for the format), named
nNwW.sS (S the seed number within the group).
"""
import math
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIDPPY = "didppy==0.11.1"
VENV = ROOT / "build" / "tsptw-venv"
SIZES = (20, 40, 60, 80, 100)
WIDTHS = (20, 40, 60)
SEEDS = (1, 2)
GRID = 50
TIME_LIMIT = 60.0


def ensure_didppy():
    try:
        import didppy  # noqa: F401
        return
    except ImportError:
        pass
    py = VENV / "bin" / "python"
    if not py.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    subprocess.run([str(py), "-m", "pip", "install", "-q", DIDPPY], check=True)
    os.execv(str(py), [str(py), *sys.argv])


def instance(n, width, seed):
    """(travel times, windows, return_by, the generating tour) for group (n, width), seed."""
    rnd = random.Random("tsptw n%d w%d s%d" % (n, width, seed))
    pts = [(rnd.randint(0, GRID), rnd.randint(0, GRID)) for _ in range(n + 1)]
    t = [[0 if i == j else int(round(math.dist(p, q))) for j, q in enumerate(pts)] for i, p in enumerate(pts)]
    tour = list(range(1, n + 1))
    rnd.shuffle(tour)
    windows = [(0, 0)] * (n + 1)
    clock, prev = 0, 0
    for s in tour:
        clock += t[prev][s]
        prev = s
        w = rnd.randint(0, width)
        earliest = max(0, clock - rnd.randint(0, w))
        windows[s] = (earliest, earliest + w if earliest + w >= clock else clock)
    return_by = clock + t[prev][0] + width
    windows[0] = (0, return_by)
    return t, windows, return_by, tour


def shortest(t):
    n = len(t)
    d = [row[:] for row in t]
    for k in range(n):
        dk = d[k]
        for i in range(n):
            dik = d[i][k]
            di = d[i]
            for j in range(n):
                if dik + dk[j] < di[j]:
                    di[j] = dik + dk[j]
    return d


def schedule(t, windows, order):
    """(travel, feasible) of the round trip home -> order -> home, leaving at 0."""
    clock, prev, travel, ok = 0, 0, 0, True
    for s in list(order) + [0]:
        travel += t[prev][s]
        clock += t[prev][s]
        ok = ok and clock <= windows[s][1]
        clock = max(clock, windows[s][0]) if s else clock
        prev = s
    return travel, ok


def solve(t, windows):
    import didppy as dp
    n = len(t)
    sp = shortest(t)
    m = dp.Model()
    stop = m.add_object_type(number=n)
    unvisited = m.add_set_var(object_type=stop, target=list(range(1, n)))
    here = m.add_element_var(object_type=stop, target=0)
    clock = m.add_int_resource_var(target=0, less_is_better=True)
    travel = m.add_int_table(t)
    path = m.add_int_table(sp)
    earliest = m.add_int_table([a for a, _ in windows])
    latest = m.add_int_table([b for _, b in windows])
    cheapest_in = m.add_int_table([min(t[i][j] for i in range(n) if i != j) for j in range(n)])
    m.add_base_case([unvisited.is_empty(), here == 0])
    for j in range(1, n):
        m.add_transition(dp.Transition(
            name=str(j), cost=travel[here, j] + dp.IntExpr.state_cost(),
            effects=[(unvisited, unvisited.remove(j)), (here, j),
                     (clock, dp.max(clock + travel[here, j], earliest[j]))],
            preconditions=[unvisited.contains(j), clock + travel[here, j] <= latest[j]]))
    m.add_transition(dp.Transition(
        name="home", cost=travel[here, 0] + dp.IntExpr.state_cost(),
        effects=[(here, 0), (clock, clock + travel[here, 0])],
        preconditions=[unvisited.is_empty(), here != 0, clock + travel[here, 0] <= latest[0]]))
    # Every unvisited stop, and home, must stay reachable in time (shortest paths: a lower bound).
    for j in range(1, n):
        m.add_state_constr(~unvisited.contains(j) | (clock + path[here, j] <= latest[j]))
    m.add_state_constr(clock + path[here, 0] <= latest[0])
    # Each unvisited stop, and home unless the route is over, costs at least its cheapest way in.
    m.add_dual_bound(cheapest_in[unvisited] + (unvisited.is_empty() & (here == 0)).if_then_else(0, cheapest_in[0]))
    start = time.perf_counter()
    sol = dp.CABS(m, time_limit=TIME_LIMIT, quiet=True).search()
    seconds = time.perf_counter() - start
    if not sol.is_optimal or sol.is_infeasible:
        return None, seconds
    order = [int(tr.name) for tr in sol.transitions if tr.name != "home"]
    return (sol.cost, order), seconds


def write(path, name, n, width, t, windows, return_by, optimum, order):
    lines = [
        "# %s: a Dumas-style TSPTW instance made by tools/gen_route_tsptw.py; optimum proven by %s"
        % (name, DIDPPY),
        "n %d" % n,
        "width %d" % width,
        "return_by %d" % return_by,
        "optimum %d" % optimum,
        "tour 0 %s 0" % " ".join(map(str, order)),
        "times",
    ]
    lines += [" ".join(map(str, row)) for row in t]
    lines.append("windows")
    lines += ["%d %d" % w for w in windows[1:]]
    path.write_text("\n".join(lines) + "\n")


def main():
    ensure_didppy()
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "tests" / "route" / "tsptw"
    out.mkdir(parents=True, exist_ok=True)
    dropped = []
    for n in SIZES:
        for width in WIDTHS:
            for seed in SEEDS:
                name = "n%dw%d.s%d" % (n, width, seed)
                t, windows, return_by, tour = instance(n, width, seed)
                assert schedule(t, windows, tour)[1], name
                found, seconds = solve(t, windows)
                if found is None:
                    dropped.append(name)
                    print("%s: not proven optimal in %.0f s, dropped" % (name, TIME_LIMIT), file=sys.stderr)
                    continue
                cost, order = found
                travel, ok = schedule(t, windows, order)
                assert ok and travel == cost and sorted(order) == list(range(1, n + 1)), name
                write(out / (name + ".txt"), name, n, width, t, windows, return_by, cost, order)
                print("%s: optimum %d (%.2f s)" % (name, cost, seconds), file=sys.stderr)
    print("dropped: %d%s" % (len(dropped), (" (" + ", ".join(dropped) + ")") if dropped else ""), file=sys.stderr)


if __name__ == "__main__":
    main()
