"""The best order of stops through Python, beside its peers: geoloc.best_order, LKH-3 (PyPI elkai,
given a distance matrix: its coordinate mode treats latitude and longitude as a flat plane) and
OR-Tools routing with guided local search. Closed tours on the shared instances (tests/route:
100 stops, proven optima) and on the 1,000-stop instances route_c wrote (best known: the
shortest tour any row found, after a long elkai run). Times are CPU seconds of this process.

    python3 bench/route/peers.py ROUTE_DIR COUNTRY_TSV [--long] [--quick] [--wgs84]

--quick leaves out OR-Tools, the 500-stop instances and the WGS84 rows (minutes less); --wgs84
puts the WGS84 rows back.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

import numpy

import geoloc

R = 6371008.8


def matrix(pts: numpy.ndarray) -> numpy.ndarray:
    lat, lon = numpy.radians(pts[:, 0]), numpy.radians(pts[:, 1])
    s1 = numpy.sin((lat[None, :] - lat[:, None]) / 2)
    s2 = numpy.sin((lon[None, :] - lon[:, None]) / 2)
    h = s1 * s1 + numpy.cos(lat)[:, None] * numpy.cos(lat)[None, :] * s2 * s2
    return 2 * R * numpy.arcsin(numpy.sqrt(numpy.minimum(h, 1.0)))


def tour_length(m: numpy.ndarray, tour) -> float:
    t = list(tour)
    if t[0] != 0:
        k = t.index(0)
        t = t[k:] + t[:k]
    return float(sum(m[a, b] for a, b in zip(t, t[1:] + [t[0]])))


def run_elkai(m, runs):
    import elkai
    # Whole meters: LKH-3 multiplies integer costs by its precision (100) and must stay in 32 bits.
    return elkai.DistanceMatrix(m.round().astype(int).tolist()).solve_tsp(runs=runs)[:-1]


def run_ortools(m, seconds):
    from ortools.constraint_solver import pywrapcp, routing_enums_pb2
    n = len(m)
    mm = (m * 1000).round().astype(int).tolist()
    manager = pywrapcp.RoutingIndexManager(n, 1, 0)
    routing = pywrapcp.RoutingModel(manager)
    cb = routing.RegisterTransitCallback(lambda i, j: mm[manager.IndexToNode(i)][manager.IndexToNode(j)])
    routing.SetArcCostEvaluatorOfAllVehicles(cb)
    p = pywrapcp.DefaultRoutingSearchParameters()
    p.first_solution_strategy = routing_enums_pb2.FirstSolutionStrategy.PATH_CHEAPEST_ARC
    p.local_search_metaheuristic = routing_enums_pb2.LocalSearchMetaheuristic.GUIDED_LOCAL_SEARCH
    p.time_limit.FromMilliseconds(int(seconds * 1000))
    sol = routing.SolveWithParameters(p)
    if sol is None:  # no first solution within the limit
        return None
    i, t = routing.Start(0), []
    while not routing.IsEnd(i):
        t.append(manager.IndexToNode(i))
        i = sol.Value(routing.NextVar(i))
    return t


def timed(f):
    t = time.process_time()
    out = f()
    return out, time.process_time() - t


def main() -> None:
    route_dir, country = Path(sys.argv[1]), Path(sys.argv[2])
    long_run = "--long" in sys.argv
    quick = "--quick" in sys.argv
    wgs84 = "--wgs84" in sys.argv or not quick
    rows = {}

    def add(row, gap, seconds):
        r = rows.setdefault(row, [0, 0.0, 0.0])
        r[0] += 1
        r[1] = max(r[1], gap)
        r[2] += seconds

    for line in (route_dir / "optimal.csv").read_text().splitlines()[1:]:
        f = line.split(",")
        if int(f[1]) != 100:
            continue
        pts = numpy.loadtxt(route_dir / "instances" / (f[0] + ".csv"), delimiter=",", skiprows=1)[:, 1:]
        opt, m = float(f[3]), matrix(pts)
        r, s = timed(lambda: geoloc.best_order(pts[0], pts[1:]))
        add("py.geoloc.best_order n=100", r.total / opt - 1, s)
        t, s = timed(lambda: run_elkai(m, 1))
        add("py.elkai runs=1 n=100", tour_length(m, t) / opt - 1, s)
        t, s = timed(lambda: run_elkai(m, 10))
        add("py.elkai runs=10 n=100", tour_length(m, t) / opt - 1, s)
        if not quick:
            t, s = timed(lambda: run_ortools(m, 1.0))
            add("py.ortools_gls 1s n=100", tour_length(m, t) / opt - 1, s)

    # 200 and 500 stops across a country-sized box (fixed seeds): gap to the best tour any row
    # found (elkai runs=10 among them), as no proven optimum is known.
    rng = numpy.random.default_rng(22)
    for n in (200,) if quick else (200, 500):
        for k in range(3):
            pts = numpy.column_stack([rng.uniform(25, 49, n + 1), rng.uniform(-124, -67, n + 1)])
            m = matrix(pts)
            found = {}
            r, s = timed(lambda: geoloc.best_order(pts[0], pts[1:]))
            found["py.geoloc.best_order n=%d" % n] = (r.total, s)
            for runs in (1, 10):
                t, s = timed(lambda: run_elkai(m, runs))
                found["py.elkai runs=%d n=%d" % (runs, n)] = (tour_length(m, t), s)
            if not quick:
                t, s = timed(lambda: run_ortools(m, 2.0))
                found["py.ortools_gls 2s n=%d" % n] = (tour_length(m, t) if t else math.inf, s)
            best = min(v[0] for v in found.values())
            for row, (length, s) in found.items():
                add(row, length / best - 1, s)

    # TSPLIB instances with published optima (tests/route/tsplib; TSPLIB's own distances): the
    # library's default search for seeds 1 to 10 beside one LKH-3 run.
    sys.path.insert(0, str(route_dir / "tsplib"))
    import tsplib
    tsp_rows = []
    for row in tsplib.optima():
        name, opt = row["name"], float(row["optimum"])
        m = tsplib.matrix(name)
        gaps, seconds = [], 0.0
        for seed in range(1, 11):
            r, s = timed(lambda: geoloc.best_order_matrix(m, seed=seed))
            gaps.append(r.total / opt - 1)
            seconds += s
        t, s = timed(lambda: run_elkai(m, 1))
        tsp_rows.append((name, len(m), opt, sum(g <= 1e-12 for g in gaps), sum(g <= 0.001 for g in gaps),
                         max(gaps), 100 * seconds, tour_length(m, t) / opt - 1, 1000 * s))

    # 4,096 stops on WGS84: the search on the sphere, the legs on WGS84. Its gap is measured at
    # 1,000 stops against the same search run on the whole WGS84 geodesic matrix.
    pts = numpy.column_stack([rng.uniform(25, 49, 4097), rng.uniform(-124, -67, 4097)])
    if wgs84:
        r, s = timed(lambda: geoloc.best_order(pts[0], pts[1:], model="wgs84"))
        add("py.geoloc.best_order wgs84 n=4096", 0.0, s)
        pts = pts[:1001]
        r, s = timed(lambda: geoloc.best_order(pts[0], pts[1:], model="wgs84"))
        ii, jj = numpy.meshgrid(numpy.arange(1001), numpy.arange(1001), indexing="ij")
        inv = geoloc.geodesic_inverse_many(pts[ii.ravel()], pts[jj.ravel()])
        dist = inv[0] if isinstance(inv, tuple) else getattr(inv, "distance", inv)
        full = geoloc.best_order_matrix(numpy.asarray(dist).reshape(1001, 1001))
        add("py.geoloc wgs84 sphere-search n=1000", r.total / full.total - 1, s)

    for line in country.read_text().splitlines():
        f = line.split("\t")
        pts = numpy.array([[float(x) for x in p.split(",")] for p in f[1:]])
        m = matrix(pts)
        found = {}
        r, s = timed(lambda: geoloc.best_order(pts[0], pts[1:]))
        found["py.geoloc.best_order n=1000"] = (r.total, s)
        t, s = timed(lambda: run_elkai(m, 1))
        found["py.elkai runs=1 n=1000"] = (tour_length(m, t), s)
        if long_run:
            t, s = timed(lambda: run_elkai(m, 10))
            found["py.elkai runs=10 n=1000"] = (tour_length(m, t), s)
        if not quick:
            t, s = timed(lambda: run_ortools(m, 3.0))
            found["py.ortools_gls 3s n=1000"] = (tour_length(m, t) if t else math.inf, s)
        best = min(v[0] for v in found.values())
        for row, (length, s) in found.items():
            add(row, length / best - 1, s)

    print("%-32s %9s %12s %13s" % ("row", "instances", "ms/instance", "worst gap"))
    for row, (count, gap, seconds) in rows.items():
        shown = "no tour" if math.isinf(gap) else "%.4f%%" % (100 * gap)
        print("%-32s %9d %12.1f %13s" % (row, count, 1000 * seconds / count, shown))
    print("\nTSPLIB, default options, seeds 1-10 (gap to the published optimum) beside one LKH-3 run:")
    print("%-8s %5s %9s %8s %9s %10s %10s %11s %10s" % ("instance", "n", "optimum", "optimal", "<=0.1%", "worst gap",
                                                       "ms/seed", "elkai gap", "elkai ms"))
    for name, n, opt, exact, near, worst, ms, egap, ems in tsp_rows:
        print("%-8s %5d %9d %5d/10 %6d/10 %9.4f%% %10.1f %10.4f%% %10.1f" % (name, n, opt, exact, near, 100 * worst, ms,
                                                                            100 * egap, ems))
    print("\nn=100: gap to the proven optimum; n=200, 500, 1000: gap to the best tour any row found%s;"
          " wgs84 n=1000: the sphere search's WGS84 total against the search on the whole geodesic matrix."
          % (" (elkai runs=10 among them)" if long_run else " (run with --long to add elkai runs=10)"))


if __name__ == "__main__":
    main()
