"""The best order with opening hours through Python, beside OR-Tools: the instances of
tests/route/windows (built like Dumas et al.'s TSPTW set by tools/gen_route_windows.py, optima
from that script's own exact search where it finished). Per size: how many instances each
solver answered feasibly, the worst gap to the optimum (or, where none is known, to the best
order any row found) and the CPU time per instance.

    python3 bench/route/windows.py WINDOWS_DIR
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

import numpy

import geoloc


def read(path: Path):
    v = path.read_text().split()
    n = int(v[0])
    size = n + 1
    t = numpy.array([float(x) for x in v[1:1 + size * size]]).reshape(size, size)
    rest = [float(x) for x in v[1 + size * size:]]
    w = numpy.array(rest[:3 * n]).reshape(n, 3)
    return t, w[:, :2].copy(), w[:, 2].copy(), rest[3 * n], rest[3 * n + 1]


def ortools(t, w, ret, seconds):
    from ortools.constraint_solver import pywrapcp, routing_enums_pb2
    n = len(t)
    tt = t.astype(int).tolist()
    manager = pywrapcp.RoutingIndexManager(n, 1, 0)
    routing = pywrapcp.RoutingModel(manager)
    cb = routing.RegisterTransitCallback(lambda i, j: tt[manager.IndexToNode(i)][manager.IndexToNode(j)])
    routing.SetArcCostEvaluatorOfAllVehicles(cb)
    routing.AddDimension(cb, 100000, int(ret), False, "time")
    dim = routing.GetDimensionOrDie("time")
    dim.CumulVar(routing.Start(0)).SetRange(0, 0)
    for k in range(1, n):
        dim.CumulVar(manager.NodeToIndex(k)).SetRange(int(w[k - 1, 0]), int(w[k - 1, 1]))
    p = pywrapcp.DefaultRoutingSearchParameters()
    p.first_solution_strategy = routing_enums_pb2.FirstSolutionStrategy.PATH_CHEAPEST_ARC
    p.local_search_metaheuristic = routing_enums_pb2.LocalSearchMetaheuristic.GUIDED_LOCAL_SEARCH
    p.time_limit.FromMilliseconds(int(seconds * 1000))
    sol = routing.SolveWithParameters(p)
    if sol is None:
        return None
    i, total = routing.Start(0), 0
    while not routing.IsEnd(i):
        j = sol.Value(routing.NextVar(i))
        total += tt[manager.IndexToNode(i)][manager.IndexToNode(j)]
        i = j
    return float(total)


def main() -> None:
    d = Path(sys.argv[1])
    rows = {}
    for line in (d / "optimal.csv").read_text().splitlines()[1:]:
        name, n, width, opt, status = line.split(",")
        t, w, svc, dep, ret = read(d / (name + ".txt"))
        found = {}
        c = time.process_time()
        r = geoloc.best_order_windows_matrix(t, w, svc, departure=dep, return_by=ret)
        found["geoloc"] = (r.travel if r.feasible else math.inf, time.process_time() - c, r.proven_optimal)
        c = time.process_time()
        o = ortools(t, w, ret, 1.0)
        found["ortools 1s"] = (o if o is not None else math.inf, time.process_time() - c, False)
        ref = float(opt) if status == "optimal" else min(v[0] for v in found.values())
        for row, (travel, seconds, proven) in found.items():
            key = ("%s n=%s" % (row, n))
            agg = rows.setdefault(key, [0, 0, 0.0, 0.0, 0, status == "optimal"])
            agg[0] += 1
            agg[1] += math.isfinite(travel)
            agg[2] = max(agg[2], travel / ref - 1 if math.isfinite(travel) else math.inf)
            agg[3] += seconds
            agg[4] += proven
    print("%-22s %9s %9s %11s %8s %12s" % ("row", "instances", "feasible", "worst gap", "proven", "ms/instance"))
    for key, (count, feasible, gap, seconds, proven, known) in rows.items():
        shown = "none" if math.isinf(gap) else "%.3f%%" % (100 * gap)
        print("%-22s %9d %9d %11s %8d %12.1f%s" % (key, count, feasible, shown, proven, 1000 * seconds / count,
                                                   "" if known else "  (gap to the best found)"))


if __name__ == "__main__":
    main()
