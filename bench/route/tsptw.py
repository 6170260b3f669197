"""The best order with opening hours through Python against proven optima: the Dumas-style TSPTW
instances of tests/route/tsptw (tools/gen_route_tsptw.py; optima proven by didppy 0.11.1). One
row per instance: n, W, the optimum, the library's travel, the gap, whether its order meets
every window, and its CPU time (best of 3 calls, default mode "auto"); then a summary row per
goal. The instance is passed as the test passes it (python/tests/test_route_tsptw.py): the
travel-time matrix as it stands, the windows, departure 0, return_by home's deadline.

    python3 bench/route/tsptw.py TSPTW_DIR
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy

import geoloc

GAP_GOAL = 0.01      # at most 1% above the optimum, up to 100 stops
SECONDS_GOAL = 1.0   # each instance in at most 1 s
EXACT_N = 20         # exact on every 20-stop instance


def read(path: Path):
    lines = [ln for ln in path.read_text().splitlines() if ln and not ln.startswith("#")]
    head, i = {}, 0
    while lines[i] != "times":
        key, _, value = lines[i].partition(" ")
        head[key], i = value, i + 1
    n = int(head["n"])
    times = numpy.array([[float(x) for x in ln.split()] for ln in lines[i + 1:i + 2 + n]])
    windows = numpy.array([[float(x) for x in ln.split()] for ln in lines[i + 3 + n:i + 3 + 2 * n]])
    return n, int(head["width"]), times, windows, float(head["return_by"]), float(head["optimum"])


def main() -> None:
    d = Path(sys.argv[1])
    paths = sorted(d.glob("n*w*.s*.txt"), key=lambda p: (int(p.name[1:p.name.index("w")]), p.name))
    print("%-12s %4s %4s %8s %9s %8s %9s %9s" % ("instance", "n", "W", "optimum", "libgeoloc", "gap %",
                                                  "feasible", "time ms"))
    rows = []
    for path in paths:
        n, width, times, windows, return_by, optimum = read(path)
        best = float("inf")
        for _ in range(3):
            c = time.process_time()
            r = geoloc.best_order_windows_matrix(times, windows=windows, departure=0.0, return_by=return_by)
            best = min(best, time.process_time() - c)
        gap = r.travel / optimum - 1
        rows.append((n, gap, r.feasible, best))
        print("%-12s %4d %4d %8.0f %9.0f %8.3f %9s %9.1f" % (path.stem, n, width, optimum, r.travel, 100 * gap,
                                                            "yes" if r.feasible else "NO", 1000 * best))
    worst_gap = max(g for _, g, _, _ in rows)
    infeasible = sum(not f for _, _, f, _ in rows)
    slowest = max(s for _, _, _, s in rows)
    exact = [(g, f) for n, g, f, _ in rows if n == EXACT_N]
    exact_ok = sum(f and abs(g) < 1e-12 for g, f in exact)
    over_gap = sum(g > GAP_GOAL for _, g, _, _ in rows)
    over_time = sum(s > SECONDS_GOAL for _, _, _, s in rows)

    def verdict(ok: bool) -> str:
        return "met" if ok else "MISSED"

    print()
    print("summary over %d instances (n <= %d):" % (len(rows), max(n for n, _, _, _ in rows)))
    print("  at most 1%% above the optimum on every instance: worst gap %.3f%%, %d over 1%%: %s"
          % (100 * worst_gap, over_gap, verdict(over_gap == 0)))
    print("  feasible on all: %d of %d feasible: %s" % (len(rows) - infeasible, len(rows), verdict(infeasible == 0)))
    print("  each in at most 1 s: slowest %.1f ms, %d over 1 s: %s"
          % (1000 * slowest, over_time, verdict(over_time == 0)))
    print("  exact on every %d-stop instance: %d of %d exact: %s"
          % (EXACT_N, exact_ok, len(exact), verdict(exact_ok == len(exact))))


if __name__ == "__main__":
    main()
