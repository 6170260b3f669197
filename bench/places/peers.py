#!/usr/bin/env python3
"""The Python rows of the place search benchmark: what a Python programmer uses without
libgeoloc, on the same places and queries as the C harnesses (the files data.py writes).

    peers.py --data DIR --set SET --peer PEER [--reps R] [--library PATH]

One structure per process (the run script starts one process per set and peer), so that the
resident memory a build adds is the structure's own. Peers:

    shapely    shapely 2.x STRtree of points (node_capacity 10) queried in bulk with lon/lat
               boxes that contain each cap (split at the antimeridian, all longitudes when the
               cap reaches a pole), then the exact haversine filter in numpy and one lexsort that
               orders every query's results nearest first. Radius rows only.
    ckdtree    scipy cKDTree on 3D unit vectors: bulk query_ball_point with the chord of the
               radius, then the haversine distances and the same lexsort; bulk query(k=1 / 10)
               with the chord distances turned into meters.
    balltree   scikit-learn BallTree(metric='haversine') on radians: bulk query_radius
               (return_distance, sort_results) and bulk query(k).
    rg         reverse_geocoder.search(list of (lat, lon) tuples) in mode 2 (its default: a
               process pool) and mode 1 (one process): its k-d tree is planar on (lat, lon), so
               the harness counts its answers that are not the nearest place by great-circle
               distance (cities set only).
    geoloc     libgeoloc's Python door, if python/geoloc exposes place sets (else a P row).

Rows (tab-separated; '#' lines are comments), as the C harnesses print them:
    S  set  impl  build_seconds  bytes_per_place
    Q  set  kind  impl  queries_per_second  mean_results  n_queries  threads
    C  set  kind  impl  checked  mismatches  note
    P  set  kind  impl  reason                   (a row that cannot run yet)
Queries per second come from the best of `reps` timed bulk calls (after one untimed warm-up)
over the set's first nq queries (manifest.tsv), within a time budget per row (see best()). Every row produces, for each query, the places
with their distances, nearest first: the result libgeoloc's geoloc_places_within and
geoloc_places_nearest give.
"""
import argparse
import gc
import itertools
import math
import os
import sys
import time

EARTH_R = 6371008.8
MILE = 1609.344
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

OUT = sys.stdout


def emit(*fields):
    OUT.write("\t".join(str(f) for f in fields) + "\n")
    OUT.flush()


def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGESIZE")


def load_set(data, name):
    import numpy as np

    with open(os.path.join(data, "manifest.tsv")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            if fields[0] == name:
                meta = dict(zip(("n_places", "n_queries", "nq5", "nq50", "nqn"),
                                map(int, fields[1:6])))
                break
        else:
            raise SystemExit(f"peers.py: no set {name!r} in {data}/manifest.tsv")
    places = np.fromfile(os.path.join(data, f"{name}.places.f64")).reshape(-1, 2)
    queries = np.fromfile(os.path.join(data, f"{name}.queries.f64")).reshape(-1, 2)
    assert len(places) == meta["n_places"] and len(queries) == meta["n_queries"]
    return places, queries, meta


def haversine(lat1, lon1, lat2, lon2):
    """Great-circle meters, numpy arrays in degrees (haversine, atan2 form)."""
    import numpy as np

    d2r = np.pi / 180.0
    sdp = np.sin((lat2 - lat1) * (d2r / 2))
    sdl = np.sin((lon2 - lon1) * (d2r / 2))
    h = sdp * sdp + np.cos(lat1 * d2r) * np.cos(lat2 * d2r) * sdl * sdl
    np.minimum(h, 1.0, out=h)
    return 2.0 * EARTH_R * np.arctan2(np.sqrt(h), np.sqrt(1.0 - h))


def unit_vectors(lat, lon):
    import numpy as np

    la, lo = np.radians(lat), np.radians(lon)
    c = np.cos(la)
    return np.column_stack([c * np.cos(lo), c * np.sin(lo), np.sin(la)])


def cap_boxes(lat, lon, meters):
    """The lon/lat boxes containing each cap (as bp_cap_boxes in common.h), vectorised.

    Returns (owner, x0, y0, x1, y1): one or two boxes per query, owner = the query's index.
    """
    import numpy as np

    eps = 1e-9
    n = len(lat)
    ang = meters / EARTH_R
    dlat = math.degrees(ang) + eps
    y0, y1 = lat - dlat, lat + dlat
    with np.errstate(invalid="ignore", divide="ignore"):
        s = np.sin(ang) / np.cos(np.radians(lat)) if ang < math.pi / 2 else np.full(n, 2.0)
    full = (y0 <= -90.0) | (y1 >= 90.0) | ~(s < 1.0)
    dlon = np.degrees(np.arcsin(np.where(full, 0.0, s))) + eps
    x0, x1 = lon - dlon, lon + dlon
    x0 = np.where(full, -180.0, x0)
    x1 = np.where(full, 180.0, x1)
    y0 = np.where(full, np.maximum(y0, -90.0), y0)
    y1 = np.where(full, np.minimum(y1, 90.0), y1)
    west = ~full & (x0 < -180.0)   # wraps past -180: [x0 + 360, 180] and [-180, x1]
    east = ~full & (x1 >= 180.0)   # wraps past 180:  [x0, 180] and [-180, x1 - 360]
    owner = np.arange(n)
    bx0 = np.where(west, x0 + 360.0, x0)
    bx1 = np.where(east, 180.0, np.where(west, 180.0, x1))
    split = np.nonzero(west | east)[0]
    ex0 = np.full(len(split), -180.0)
    ex1 = np.where(west[split], x1[split], x1[split] - 360.0)
    return (np.concatenate([owner, split]), np.concatenate([bx0, ex0]),
            np.concatenate([y0, y0[split]]), np.concatenate([bx1, ex1]),
            np.concatenate([y1, y1[split]]))


def sort_results(owner, idx, dist):
    """Orders flat (query, place, distance) triples by query, then distance (one lexsort; ties
    at equal distance stay in the order the index gave them)."""
    import numpy as np

    order = np.lexsort((dist, owner))
    return owner[order], idx[order], dist[order]


ROW_BUDGET_S = 8.0  # as BP_ROW_BUDGET_S in common.h


def best(fn, reps):
    """(best seconds of up to `reps` runs after one warm-up run, the last result). Timed runs
    stop once they add up to more than ROW_BUDGET_S (at least one runs), and a warm-up run
    longer than that counts as the one timed run."""
    t0 = time.perf_counter()
    result = fn()
    t_best = time.perf_counter() - t0
    if t_best > ROW_BUDGET_S:
        return t_best, result
    t_best, spent = math.inf, 0.0
    for _ in range(reps):
        t0 = time.perf_counter()
        result = fn()
        t = time.perf_counter() - t0
        t_best, spent = min(t_best, t), spent + t
        if spent > ROW_BUDGET_S:
            break
    return t_best, result


def measure_build(fn):
    """(seconds, bytes added to the resident set, result) of building a structure."""
    gc.collect()
    r0 = rss()
    t0 = time.perf_counter()
    result = fn()
    t = time.perf_counter() - t0
    gc.collect()
    return t, rss() - r0, result


def radius_kinds(meta):
    return (("within_5mi", 5 * MILE, meta["nq5"]), ("within_50mi", 50 * MILE, meta["nq50"]))


def knn_kinds(meta):
    return (("nearest_1", 1, meta["nqn"]), ("nearest_10", 10, meta["nqn"]))


# ---------------------------------------------------------------------------------------------


def peer_shapely(name, places, queries, meta, reps):
    import numpy as np
    import shapely

    emit(f"# shapely {shapely.__version__} (GEOS {shapely.geos_version_string})")
    impl = "py.shapely_strtree"
    plat, plon = places[:, 0], places[:, 1]

    def build():
        geoms = shapely.points(plon, plat)
        tree = shapely.STRtree(geoms, node_capacity=10)
        tree.query(shapely.box(0.0, 0.0, 0.0, 0.0))  # the tree is built on the first query
        return tree

    t, mem, tree = measure_build(build)
    emit("S", name, impl, f"{t:.6f}", f"{mem / len(places):.1f}")

    for kind, meters, nq in radius_kinds(meta):
        q = queries[:nq]

        def run():
            owner, x0, y0, x1, y1 = cap_boxes(q[:, 0], q[:, 1], meters)
            qi, pi = tree.query(shapely.box(x0, y0, x1, y1))
            qo = owner[qi]
            d = haversine(q[qo, 0], q[qo, 1], plat[pi], plon[pi])
            keep = d <= meters
            return sort_results(qo[keep], pi[keep], d[keep])

        t, (qo, pi, d) = best(run, reps)
        emit("Q", name, kind, impl, f"{nq / t:.1f}", f"{len(qo) / nq:.3f}", nq, 1)


def peer_ckdtree(name, places, queries, meta, reps):
    import numpy as np
    import scipy
    from scipy.spatial import cKDTree

    emit(f"# scipy {scipy.__version__}")
    impl = "py.scipy_ckdtree"
    plat, plon = places[:, 0], places[:, 1]
    t, mem, tree = measure_build(lambda: cKDTree(unit_vectors(plat, plon)))
    emit("S", name, impl, f"{t:.6f}", f"{mem / len(places):.1f}")

    for kind, meters, nq in radius_kinds(meta):
        q = queries[:nq]
        chord = 2.0 * math.sin(meters / EARTH_R / 2.0)

        def run():
            res = tree.query_ball_point(unit_vectors(q[:, 0], q[:, 1]), chord,
                                        return_sorted=False)
            lens = np.fromiter(map(len, res), dtype=np.intp, count=len(res))
            pi = np.fromiter(itertools.chain.from_iterable(res), dtype=np.intp,
                             count=int(lens.sum()))
            qo = np.repeat(np.arange(len(res)), lens)
            d = haversine(q[qo, 0], q[qo, 1], plat[pi], plon[pi])
            return sort_results(qo, pi, d)

        t, (qo, pi, d) = best(run, reps)
        emit("Q", name, kind, impl, f"{nq / t:.1f}", f"{len(qo) / nq:.3f}", nq, 1)

    for kind, k, nq in knn_kinds(meta):
        q = queries[:nq]

        def run():
            c, idx = tree.query(unit_vectors(q[:, 0], q[:, 1]), k=k)
            return idx, 2.0 * EARTH_R * np.arcsin(np.minimum(c / 2.0, 1.0))

        t, (idx, d) = best(run, reps)
        emit("Q", name, kind, impl, f"{nq / t:.1f}", f"{np.size(idx) / nq:.3f}", nq, 1)


def peer_balltree(name, places, queries, meta, reps):
    import numpy as np
    import sklearn
    from sklearn.neighbors import BallTree

    emit(f"# scikit-learn {sklearn.__version__}")
    impl = "py.sklearn_balltree"
    t, mem, tree = measure_build(lambda: BallTree(np.radians(places), metric="haversine"))
    emit("S", name, impl, f"{t:.6f}", f"{mem / len(places):.1f}")

    for kind, meters, nq in radius_kinds(meta):
        xq = np.radians(queries[:nq])

        def run():
            return tree.query_radius(xq, r=meters / EARTH_R, return_distance=True,
                                     sort_results=True)

        t, (ind, dist) = best(run, reps)
        total = sum(map(len, ind))
        emit("Q", name, kind, impl, f"{nq / t:.1f}", f"{total / nq:.3f}", nq, 1)

    for kind, k, nq in knn_kinds(meta):
        xq = np.radians(queries[:nq])
        t, (dist, ind) = best(lambda: tree.query(xq, k=k), reps)
        emit("Q", name, kind, impl, f"{nq / t:.1f}", f"{np.size(ind) / nq:.3f}", nq, 1)


def exact_nearest_m(places, queries):
    """The great-circle distance to the nearest place for each query (exact: the 3D chord is
    monotonic in the great-circle distance; the 4 nearest by chord are re-measured by
    haversine so that rounding cannot pick the wrong one)."""
    import numpy as np
    from scipy.spatial import cKDTree

    tree = cKDTree(unit_vectors(places[:, 0], places[:, 1]))
    _, idx = tree.query(unit_vectors(queries[:, 0], queries[:, 1]), k=4)
    d = haversine(queries[:, 0, None], queries[:, 1, None], places[idx, 0], places[idx, 1])
    return d.min(axis=1)


def peer_rg(name, places, queries, meta, reps):
    import numpy as np
    import reverse_geocoder as rg

    if name != "cities":
        emit("P", name, "reverse_geocode", "py.reverse_geocoder", "cities set only")
        return
    try:
        from importlib.metadata import version

        emit(f"# reverse_geocoder {version('reverse_geocoder')}")
    except Exception:
        pass
    nq = meta["nqn"]
    q = queries[:nq]
    coords = list(zip(q[:, 0].tolist(), q[:, 1].tolist()))  # what rg.search takes
    exact = exact_nearest_m(places, q)

    def reset():
        # RGeocoder is a singleton whose mode is fixed at its first use: forget it.
        for cell in rg.RGeocoder.__closure__ or ():
            if isinstance(cell.cell_contents, dict):
                cell.cell_contents.clear()

    for mode in (2, 1):
        impl = f"py.reverse_geocoder_mode{mode}"
        reset()
        gc.collect()
        try:
            t, mem, _ = measure_build(lambda: rg.RGeocoder(mode=mode, verbose=False))
            emit("S", name, impl, f"{t:.6f}", f"{mem / len(places):.1f}")
            t, res = best(lambda: rg.search(coords, mode=mode, verbose=False), reps)
        except Exception as e:  # e.g. no process pool in a sandbox
            emit("P", name, "reverse_geocode", impl, f"{type(e).__name__}: {e}")
            continue
        got = haversine(q[:, 0], q[:, 1], np.array([float(r["lat"]) for r in res]),
                        np.array([float(r["lon"]) for r in res]))
        wrong = int(np.count_nonzero(got > exact * (1 + 1e-12) + 1e-6))
        emit("Q", name, "reverse_geocode", impl, f"{nq / t:.1f}", f"{len(res) / nq:.3f}", nq,
             2 if mode == 2 else 1)
        worst = float(np.max(got - exact)) if nq else 0.0
        emit("C", name, "reverse_geocode", impl, nq, wrong,
             f"not the nearest place (great circle) in {100.0 * wrong / max(nq, 1):.2f}% of "
             f"queries (worst {worst:.0f} m farther)")
    reset()


def peer_geoloc(name, places, queries, meta, reps, library):
    """libgeoloc's Python door: geoloc.Places.from_arrays, then Places.within / Places.nearest
    per query in a Python loop over ready-made (lat, lon) tuples (the package has no call for
    many queries at once; a bulk method within_many / nearest_many is used if one appears), and
    on the cities queries geoloc.Gazetteer.open().reverse_geocode per query, then
    Gazetteer.reverse_geocode_many (texts) and Gazetteer.nearest_many (places) on the whole
    query array. Pending (a P row) until python/geoloc and the library have place sets."""
    if library:
        os.environ["GEOLOC_LIBRARY"] = os.path.abspath(library)
    sys.path.insert(0, os.path.join(REPO, "python"))
    try:
        import geoloc
    except Exception as e:
        why = str(e).splitlines()[0] if str(e) else type(e).__name__
        if len(why) > 160:
            why = why[:157] + "..."
        emit("P", name, "*", "py.geoloc", f"cannot import geoloc: {why}")
        return
    cls = getattr(geoloc, "Places", None)
    if cls is None:
        emit("P", name, "*", "py.geoloc", "python/geoloc has no place sets yet (no geoloc.Places)")
        return

    impl = "py.geoloc"
    make = getattr(cls, "from_arrays", None) or cls
    try:
        t, mem, pset = measure_build(lambda: make(places))
    except Exception as e:
        emit("P", name, "*", impl, f"geoloc.Places.from_arrays failed: {type(e).__name__}: {e}")
        return
    emit("S", name, impl, f"{t:.6f}", f"{mem / len(places):.1f}")

    def timed(kind, nq, bulk, scalar, how_label):
        q = queries[:nq]
        if bulk is not None:
            fn, how = (lambda: bulk(q)), "bulk"
        elif scalar is not None:
            pts = list(zip(q[:, 0].tolist(), q[:, 1].tolist()))
            fn, how = (lambda: [scalar(p) for p in pts]), "a Python loop"
        else:
            emit("P", name, kind, impl, f"geoloc has no {how_label}")
            return
        try:
            t, res = best(fn, reps)
        except Exception as e:
            emit("P", name, kind, impl, f"{type(e).__name__}: {str(e)[:160]}")
            return
        if isinstance(res, tuple) and len(res) == 3 and hasattr(res[0], "ndim"):
            total = len(res[1])  # within_many: (offsets, indices, distances)
        elif isinstance(res, tuple) and len(res) == 2 and hasattr(res[0], "ndim"):
            total = int((res[0] >= 0).sum())  # nearest_many: (indices, distances), -1 = none
        elif res and isinstance(res[0], (list, tuple)):
            total = sum(len(r) for r in res)
        else:
            total = len(res)
        emit(f"# py.geoloc {kind}: {how}")
        emit("Q", name, kind, impl, f"{nq / t:.1f}", f"{total / nq:.3f}", nq, 1)

    within = getattr(pset, "within", None)
    within_many = getattr(pset, "within_many", None)
    for kind, meters, nq in radius_kinds(meta):
        miles = meters / MILE
        timed(kind, nq,
              within_many and (lambda q, miles=miles: within_many(q, miles, unit="miles")),
              within and (lambda p, miles=miles: within(p, miles, unit="miles")),
              "Places.within")
    nearest = getattr(pset, "nearest", None)
    nearest_many = getattr(pset, "nearest_many", None)
    for kind, k, nq in knn_kinds(meta):
        timed(kind, nq,
              nearest_many and (lambda q, k=k: nearest_many(q, k, unit="miles")),
              nearest and (lambda p, k=k: nearest(p, k, unit="miles")),
              "Places.nearest")
    close = getattr(pset, "close", None)
    if close:
        close()

    if name == "cities":
        gcls = getattr(geoloc, "Gazetteer", None)
        if gcls is None:
            emit("P", name, "reverse_geocode", "py.geoloc_reverse_geocode",
                 "python/geoloc has no Gazetteer")
            return
        try:
            t, mem, gz = measure_build(lambda: gcls.open())
        except Exception as e:
            emit("P", name, "reverse_geocode", "py.geoloc_reverse_geocode",
                 f"Gazetteer.open() failed: {type(e).__name__}: {str(e)[:160]}")
            return
        impl = "py.geoloc_reverse_geocode"
        nq = meta["nqn"]
        pts = list(zip(queries[:nq, 0].tolist(), queries[:nq, 1].tolist()))
        rev = gz.reverse_geocode
        try:
            t, res = best(lambda: [rev(p) for p in pts], reps)
        except Exception as e:
            emit("P", name, "reverse_geocode", impl, f"{type(e).__name__}: {str(e)[:160]}")
            return
        emit("# py.geoloc reverse_geocode: Gazetteer.reverse_geocode (CITY_STATE text) in a "
             "Python loop")
        emit("Q", name, "reverse_geocode", impl, f"{nq / t:.1f}", f"{len(res) / nq:.3f}", nq, 1)
        # The many-points forms: the (nq, 2) float64 array in, a list of texts or the places'
        # indices (a numpy array) out, one call each.
        many = getattr(gz, "reverse_geocode_many", None)
        nearest_many = getattr(gz, "nearest_many", None)
        import numpy as np

        q = np.ascontiguousarray(queries[:nq], dtype=np.float64)
        if many is None or nearest_many is None:
            emit("P", name, "reverse_geocode", "py.geoloc_reverse_geocode_many",
                 "python/geoloc has no Gazetteer.reverse_geocode_many")
            return
        try:
            t, texts = best(lambda: many(q), reps)
            emit("Q", name, "reverse_geocode", "py.geoloc_reverse_geocode_many", f"{nq / t:.1f}",
                 f"{len(texts) / nq:.3f}", nq, 1)
            t, (idx, _) = best(lambda: nearest_many(q), reps)
            emit("Q", name, "reverse_geocode", "py.geoloc_gazetteer_nearest_many", f"{nq / t:.1f}",
                 f"{len(idx) / nq:.3f}", nq, 1)
        except Exception as e:
            emit("P", name, "reverse_geocode", "py.geoloc_reverse_geocode_many",
                 f"{type(e).__name__}: {str(e)[:160]}")
            return
        one_idx = [gz.reverse(p).index for p in pts]
        emit("C", name, "reverse_geocode", "py.geoloc_reverse_geocode_many", nq,
             sum(a != b for a, b in zip(texts, res)) + abs(len(texts) - len(res)),
             "text not the one-point call's")
        emit("C", name, "reverse_geocode", "py.geoloc_gazetteer_nearest_many", nq,
             sum(int(a) != b for a, b in zip(idx, one_idx)) + abs(len(idx) - len(one_idx)),
             "place not the one-point call's")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", required=True)
    p.add_argument("--set", required=True)
    p.add_argument("--peer", required=True,
                   choices=["shapely", "ckdtree", "balltree", "rg", "geoloc"])
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--library", help="libgeoloc.so for the geoloc peer (sets GEOLOC_LIBRARY)")
    args = p.parse_args(argv)

    import numpy as np

    places, queries, meta = load_set(args.data, args.set)
    emit(f"# peers.py {args.peer} on {args.set}: python {sys.version.split()[0]} numpy "
         f"{np.__version__}, {len(places)} places")
    reps = max(1, args.reps)
    if args.peer == "geoloc":
        peer_geoloc(args.set, places, queries, meta, reps, args.library)
    else:
        globals()[f"peer_{args.peer}"](args.set, places, queries, meta, reps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
