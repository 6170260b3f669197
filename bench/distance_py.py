#!/usr/bin/env python3
"""The Python side of the distance benchmark: nanoseconds per pair of points for the Python
door of libgeoloc and for a vectorised numpy haversine, on the same pairs as distance_c.c.

Rows (one tab-separated line each; lines starting with '#' are comments):
    name  ns_per_pair  max_rel_diff  n

    py.geoloc.distance        geoloc.distance(a, b) called in a Python loop over tuples
                              (n_scalar pairs: a Python loop is slow, so fewer of them)
    py.geoloc.distance_pairs  geoloc.distance_pairs(A, B) on (n, 2) float64 arrays
    py.geoloc.distance_one_to_many
                              geoloc.distance_one_to_many(A[0], B): the first point of A to
                              every point of B
    py.numpy_haversine        the same formula written with numpy ufuncs on the same arrays

ns_per_pair is the best of `reps` timed runs (after one untimed warm-up) divided by the pairs
in the run. max_rel_diff is max |d - ref| / max(ref, 1 m), where ref is the formula evaluated
pair by pair with Python's math module (the C library's libm, in double precision: the same
reference as the plain C loop).

The library is the one GEOLOC_LIBRARY names (--library sets it); `geoloc` is imported from the
repository's python/ directory (--python-dir to use another).
"""
import argparse
import math
import os
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

EARTH_MEAN_RADIUS_M = 6371008.8
SEED = 0x67656F6C6F63  # "geoloc"; the same stream as distance_c.c
MASK64 = (1 << 64) - 1


def make_points(n):
    """n pairs uniform on the sphere, as two (n, 2) float64 arrays [:, 0] lat, [:, 1] lon.

    The splitmix64 counter stream of distance_c.c: pair k takes values 4k..4k+3 (a.lat, a.lon,
    b.lat, b.lon); lat = asin(2u - 1) in degrees, lon = 360u - 180.
    """
    import numpy as np

    i = np.arange(1, 4 * n + 1, dtype=np.uint64)
    z = np.uint64(SEED) + i * np.uint64(0x9E3779B97F4A7C15)  # wraps modulo 2^64, as in C
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    u = (z >> np.uint64(11)).astype(np.float64) * 2.0**-53
    u = u.reshape(n, 4)
    r2d = 180.0 / math.pi
    a = np.empty((n, 2))
    b = np.empty((n, 2))
    # math.asin (the C library's) rather than numpy's own arcsin, so that the latitudes are
    # bit for bit those of distance_c.c.
    a[:, 0] = np.array(list(map(math.asin, (2.0 * u[:, 0] - 1.0).tolist()))) * r2d
    a[:, 1] = 360.0 * u[:, 1] - 180.0
    b[:, 0] = np.array(list(map(math.asin, (2.0 * u[:, 2] - 1.0).tolist()))) * r2d
    b[:, 1] = 360.0 * u[:, 3] - 180.0
    return a, b


def haversine_math(lat1, lon1, lat2, lon2):
    """The library's formula, operation for operation, with the math module (the reference).

    Haversine in its atan2 form, differences taken in degrees first; for h > 1/2, 1 - h comes
    from cos²(Δφ/2) cos²(Δλ/2) + sin²(Σφ/2) sin²(Δλ/2) rather than a subtraction (full precision
    near the antipode), as in kernels_impl.h and the library.
    """
    half_d2r = math.pi / 360.0
    hdp = (lat2 - lat1) * half_d2r
    hdl = (lon2 - lon1) * half_d2r
    sdp = math.sin(hdp)
    sdl = math.sin(hdl)
    h = sdp * sdp + math.cos(lat1 * (2.0 * half_d2r)) * math.cos(lat2 * (2.0 * half_d2r)) * sdl * sdl
    if h <= 0.5:
        c = 1.0 - h
    else:
        cdp = math.cos(hdp)
        cdl = math.cos(hdl)
        ssp = math.sin((lat1 + lat2) * half_d2r)
        c = cdp * cdp * cdl * cdl + ssp * ssp * sdl * sdl
    if c < 0.0:
        c = 0.0
    return 2.0 * EARTH_MEAN_RADIUS_M * math.atan2(math.sqrt(max(h, 0.0)), math.sqrt(c))


def numpy_haversine(a, b):
    """The same formula vectorised with numpy: what a numpy user writes without libgeoloc.

    Both ways of getting 1 - h are computed for every pair and np.where picks one, the usual
    numpy way to vectorise a branch.
    """
    import numpy as np

    half_d2r = np.pi / 360.0
    lat1, lon1, lat2, lon2 = a[:, 0], a[:, 1], b[:, 0], b[:, 1]
    hdp = (lat2 - lat1) * half_d2r
    hdl = (lon2 - lon1) * half_d2r
    sdp = np.sin(hdp)
    sdl = np.sin(hdl)
    h = sdp * sdp + np.cos(lat1 * (2.0 * half_d2r)) * np.cos(lat2 * (2.0 * half_d2r)) * sdl * sdl
    cdp = np.cos(hdp)
    cdl = np.cos(hdl)
    ssp = np.sin((lat1 + lat2) * half_d2r)
    c = np.where(h <= 0.5, 1.0 - h, cdp * cdp * cdl * cdl + ssp * ssp * sdl * sdl)
    np.maximum(c, 0.0, out=c)
    return 2.0 * EARTH_MEAN_RADIUS_M * np.arctan2(np.sqrt(np.maximum(h, 0.0)), np.sqrt(c))


def best_ns(fn, reps):
    """(best wall time of `reps` runs in ns, result of the last run), after one warm-up run."""
    result = fn()
    best = math.inf
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        result = fn()
        t = time.perf_counter_ns() - t0
        best = min(best, t)
    return best, result


def max_rel_diff(values, ref):
    worst = 0.0
    for x, r in zip(values, ref):
        d = abs(x - r) / max(abs(r), 1.0)
        if not d <= worst:  # also catches NaN
            worst = d
    return worst


def positive_int(text):
    v = int(text)
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return v


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=positive_int, default=1_000_000, help="pairs for the array rows")
    p.add_argument("--n-scalar", type=positive_int, default=100_000,
                   help="pairs for the Python loop over geoloc.distance (at most --n)")
    p.add_argument("--reps", type=positive_int, default=5, help="timed runs per row (best kept)")
    p.add_argument("--library", help="libgeoloc.so to load (sets GEOLOC_LIBRARY)")
    p.add_argument("--python-dir", default=os.path.join(REPO, "python"),
                   help="directory that holds the geoloc package")
    args = p.parse_args(argv)

    if args.library:
        os.environ["GEOLOC_LIBRARY"] = os.path.abspath(args.library)
    sys.path.insert(0, os.path.abspath(args.python_dir))

    import numpy as np
    import geoloc

    n = args.n
    n_scalar = min(args.n_scalar, n)
    reps = args.reps

    missing = [f for f in ("distance", "distance_pairs", "distance_one_to_many") if not hasattr(geoloc, f)]
    if missing:
        where = getattr(geoloc, "__file__", None) or list(getattr(geoloc, "__path__", []))
        print(f"distance_py: the geoloc package at {where} has no {', '.join(missing)}",
              file=sys.stderr)
        return 1
    version = getattr(geoloc, "__version__", None)
    where = os.path.dirname(os.path.abspath(geoloc.__file__)) if geoloc.__file__ else "?"
    loaded = getattr(geoloc, "library_path", None)
    print(f"# python {sys.version.split()[0]} numpy {np.__version__} geoloc {version or '?'} "
          f"from {where} library {loaded or '?'}")
    wanted = os.environ.get("GEOLOC_LIBRARY")
    if loaded and wanted and os.path.realpath(loaded) != os.path.realpath(wanted):
        print(f"distance_py: geoloc loaded {loaded}, not GEOLOC_LIBRARY={wanted}", file=sys.stderr)
        return 1
    print(f"# n {n} n_scalar {n_scalar} reps {reps}")
    sys.stdout.flush()

    a, b = make_points(n)
    # Reference: the formula pair by pair with the math module, on exactly these inputs.
    a_list = list(zip(a[:, 0].tolist(), a[:, 1].tolist()))
    b_list = list(zip(b[:, 0].tolist(), b[:, 1].tolist()))
    ref = [haversine_math(p[0], p[1], q[0], q[1]) for p, q in zip(a_list, b_list)]

    def emit(name, ns_total, pairs, values, reference):
        diff = max_rel_diff(values, reference)
        print(f"{name}\t{ns_total / pairs:.3f}\t{diff:.3e}\t{pairs}")
        sys.stdout.flush()

    # 1. The scalar call in a Python loop, over ready-made (lat, lon) tuples of Python floats.
    distance = geoloc.distance
    sa, sb = a_list[:n_scalar], b_list[:n_scalar]
    ns, out = best_ns(lambda: [distance(p, q) for p, q in zip(sa, sb)], reps)
    emit("py.geoloc.distance", ns, n_scalar, out, ref[:n_scalar])

    # 2. The batch call on (n, 2) float64 arrays.
    ns, out = best_ns(lambda: geoloc.distance_pairs(a, b), reps)
    emit("py.geoloc.distance_pairs", ns, n, np.asarray(out).tolist(), ref)

    # 3. One origin to every point of B, one call.
    origin = a_list[0]
    ref_otm = [haversine_math(origin[0], origin[1], q[0], q[1]) for q in b_list]
    ns, out = best_ns(lambda: geoloc.distance_one_to_many(origin, b), reps)
    emit("py.geoloc.distance_one_to_many", ns, n, np.asarray(out).tolist(), ref_otm)

    # 4. Vectorised numpy on the same arrays.
    ns, out = best_ns(lambda: numpy_haversine(a, b), reps)
    emit("py.numpy_haversine", ns, n, out.tolist(), ref)
    return 0


if __name__ == "__main__":
    sys.exit(main())
