#!/usr/bin/env python3
"""The Python rows of the geodesic (WGS84) benchmark: nanoseconds per pair for pyproj (PROJ's
geodesic routines, vectorised), the pure-Python geographiclib package, and libgeoloc's Python door
with the WGS84 model, on the same pairs as distance_c.c / distance_py.py / geodesic_c.cc.

    geodesic_py.py [--n N] [--n-scalar M] [--reps R] [--library PATH]

Rows (one tab-separated line each; lines starting with '#' are comments), the format of
distance_py.py:
    name  ns_per_pair  max_rel_diff  n

    py.pyproj_geod_inv              Geod(ellps='WGS84').inv(lon1, lat1, lon2, lat2) on float64
                                    arrays of n pairs (the reference of this program's rows)
    py.geographiclib_inverse        Geodesic.WGS84.Inverse(lat1, lon1, lat2, lon2,
                                    Geodesic.DISTANCE)['s12'] in a Python loop over the first
                                    n_scalar pairs (pure Python: slow, so at most 20,000)
    py.geoloc.distance_pairs_wgs84  geoloc.distance_pairs(A, B, model=WGS84) on (n, 2) arrays

The full inverse problem (distance and both azimuths: what pyproj's inv computes anyway) and the
direct problem, on arrays:
    py.geographiclib_inverse_azi    Geodesic.WGS84.Inverse(..., Geodesic.STANDARD) in a Python
                                    loop over the first n_scalar pairs
    py.geoloc.geodesic_inverse_loop geoloc.geodesic_inverse(a[i], b[i]) in a Python loop over the
                                    first n_scalar pairs (one library call per pair)
    py.geoloc.geodesic_inverse_many geoloc.geodesic_inverse_many(A, B): one call, three arrays
    py.pyproj_geod_fwd              Geod(ellps='WGS84').fwd(lon1, lat1, az, dist) on arrays (the
                                    reference of the direct rows)
    py.geographiclib_direct         Geodesic.WGS84.Direct(lat1, lon1, az, dist) in a Python loop
                                    over the first n_scalar starts
    py.geoloc.geodesic_direct_loop  geoloc.geodesic_direct(a[i], az[i], dist[i]) in a loop over
                                    the first n_scalar starts
    py.geoloc.geodesic_direct_many  geoloc.geodesic_direct_many(A, az, dist): one call
The direct rows start at A with azimuth B[:, 1] and length (B[:, 0] + 90) / 180 * 2e7 m (as
geodesic_c.cc); their max_rel_diff is the largest difference of lat2 or lon2 from pyproj's, in
degrees (longitudes modulo 360, not compared within 1e-6 degrees of a pole).

ns_per_pair is the best of `reps` timed runs (after one untimed warm-up) divided by the pairs in
the run. max_rel_diff is max |d - ref| / max(ref, 1 m) with ref = pyproj's distance of the same
pair. A row that cannot run (a package missing, libgeoloc answering UnsupportedError) is a '#'
line saying why.
"""
import argparse
import math
import os
import sys

# The pairs, the timing and the argument type are distance_py.py's (the same directory), so both
# halves of bench/run measure the same points the same way.
from distance_py import REPO, best_ns, make_points, positive_int


def max_rel_diff(values, ref):
    import numpy as np

    if ref is None:
        return math.nan
    values = np.asarray(values, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)[: len(values)]
    d = np.abs(values - ref) / np.maximum(np.abs(ref), 1.0)
    return math.inf if np.isnan(d).any() else float(d.max(initial=0.0))


def emit(name, ns_total, pairs, diff):
    print(f"{name}\t{ns_total / pairs:.3f}\t{diff:.3e}\t{pairs}")
    sys.stdout.flush()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=positive_int, default=1_000_000, help="pairs for the array rows")
    p.add_argument("--n-scalar", type=positive_int, default=20_000,
                   help="pairs for the pure-Python geographiclib loop (at most --n)")
    p.add_argument("--reps", type=positive_int, default=5, help="timed runs per row (best kept)")
    p.add_argument("--library", help="libgeoloc.so to load (sets GEOLOC_LIBRARY)")
    p.add_argument("--python-dir", default=os.path.join(REPO, "python"),
                   help="directory that holds the geoloc package")
    args = p.parse_args(argv)
    if args.library:
        os.environ["GEOLOC_LIBRARY"] = os.path.abspath(args.library)

    import numpy as np

    n, reps = args.n, args.reps
    n_scalar = min(args.n_scalar, n)
    a, b = make_points(n)
    versions = [f"python {sys.version.split()[0]}", f"numpy {np.__version__}"]

    # 1. pyproj: the reference of the Python rows.
    ref = None
    try:
        import pyproj

        versions.append(f"pyproj {pyproj.__version__} (PROJ {pyproj.proj_version_str})")
    except ImportError as e:
        pyproj = None
        print(f"# py.pyproj_geod_inv: skipped (cannot import pyproj: {e}); no reference (nan)")
    try:
        import geographiclib
        from geographiclib.geodesic import Geodesic

        versions.append(f"geographiclib {geographiclib.__version__}")
    except ImportError as e:
        Geodesic = None
        print(f"# py.geographiclib_inverse: skipped (cannot import geographiclib: {e})")
    print("# " + " ".join(versions))
    print(f"# n {n} n_scalar {n_scalar} reps {reps}")
    sys.stdout.flush()

    if pyproj is not None:
        geod = pyproj.Geod(ellps="WGS84")
        lat1, lon1 = np.ascontiguousarray(a[:, 0]), np.ascontiguousarray(a[:, 1])
        lat2, lon2 = np.ascontiguousarray(b[:, 0]), np.ascontiguousarray(b[:, 1])
        ns, (_, _, dist) = best_ns(lambda: geod.inv(lon1, lat1, lon2, lat2), reps)
        ref = np.asarray(dist)
        emit("py.pyproj_geod_inv", ns, n, 0.0)

    # 2. The pure-Python geographiclib, scalar loop over ready-made lists of floats.
    if Geodesic is not None:
        g = Geodesic.WGS84
        mask = Geodesic.DISTANCE
        rows = list(zip(a[:n_scalar, 0].tolist(), a[:n_scalar, 1].tolist(),
                        b[:n_scalar, 0].tolist(), b[:n_scalar, 1].tolist()))
        inverse = g.Inverse
        ns, out = best_ns(lambda: [inverse(p, q, r, s, mask)["s12"] for p, q, r, s in rows], reps)
        emit("py.geographiclib_inverse", ns, n_scalar, max_rel_diff(out, ref))

    # 3. libgeoloc's Python door with the WGS84 model.
    name = "py.geoloc.distance_pairs_wgs84"
    sys.path.insert(0, os.path.abspath(args.python_dir))
    try:
        import geoloc
    except Exception as e:  # ImportError, or the package refusing the library
        why = str(e).splitlines()[0] if str(e) else type(e).__name__
        print(f"# {name}: pending (cannot import geoloc: {why[:160]})")
        return 0
    model = getattr(getattr(geoloc, "Model", None), "WGS84", None)
    if not hasattr(geoloc, "distance_pairs") or model is None:
        print(f"# {name}: pending (geoloc has no distance_pairs(..., model=Model.WGS84))")
        return 0
    try:
        geoloc.distance_pairs(a[:1], b[:1], model=model)
    except Exception as e:
        print(f"# {name}: pending ({type(e).__name__}: {str(e).splitlines()[0][:160]})")
        return 0
    ns, out = best_ns(lambda: geoloc.distance_pairs(a, b, model=model), reps)
    emit(name, ns, n, max_rel_diff(out, ref))
    geodesic_rows(geoloc, pyproj, Geodesic, a, b, n, n_scalar, reps, ref)
    return 0


def direct_diff(lat, lon, ref_lat, ref_lon):
    """The largest difference in degrees of latitude, or of longitude (modulo 360) away from the
    poles, from the reference; nan without one."""
    import numpy as np

    if ref_lat is None:
        return math.nan
    lat, lon = np.asarray(lat)[: len(ref_lat)], np.asarray(lon)[: len(ref_lat)]
    dlat = np.abs(lat - ref_lat)
    dlon = np.abs(np.remainder(lon - ref_lon + 180.0, 360.0) - 180.0)
    dlon[np.abs(ref_lat) > 90 - 1e-6] = 0.0
    return float(max(dlat.max(initial=0.0), dlon.max(initial=0.0)))


def geodesic_rows(geoloc, pyproj, Geodesic, a, b, n, n_scalar, reps, ref):
    """The rows of the full inverse problem and of the direct problem (see the module text)."""
    import numpy as np

    if not hasattr(geoloc, "geodesic_inverse_many"):
        print("# py.geoloc.geodesic_inverse_many: pending (geoloc has no geodesic_inverse_many)")
        return
    if Geodesic is not None:
        g = Geodesic.WGS84
        rows = list(zip(a[:n_scalar, 0].tolist(), a[:n_scalar, 1].tolist(),
                        b[:n_scalar, 0].tolist(), b[:n_scalar, 1].tolist()))
        inverse, mask = g.Inverse, Geodesic.STANDARD
        ns, out = best_ns(lambda: [inverse(p, q, r, s, mask)["s12"] for p, q, r, s in rows], reps)
        emit("py.geographiclib_inverse_azi", ns, n_scalar, max_rel_diff(out, ref))
    pts_a = [tuple(p) for p in a[:n_scalar].tolist()]
    pts_b = [tuple(p) for p in b[:n_scalar].tolist()]
    one = geoloc.geodesic_inverse
    ns, out = best_ns(lambda: [one(p, q)[0] for p, q in zip(pts_a, pts_b)], reps)
    emit("py.geoloc.geodesic_inverse_loop", ns, n_scalar, max_rel_diff(out, ref))
    ns, out = best_ns(lambda: geoloc.geodesic_inverse_many(a, b), reps)
    emit("py.geoloc.geodesic_inverse_many", ns, n, max_rel_diff(out.distance, ref))

    az = np.ascontiguousarray(b[:, 1])
    dist = (b[:, 0] + 90.0) / 180.0 * 2e7
    ref_lat = ref_lon = None
    if pyproj is not None:
        geod = pyproj.Geod(ellps="WGS84")
        lat1, lon1 = np.ascontiguousarray(a[:, 0]), np.ascontiguousarray(a[:, 1])
        ns, (lon2, lat2, _) = best_ns(lambda: geod.fwd(lon1, lat1, az, dist), reps)
        ref_lat, ref_lon = np.asarray(lat2), np.asarray(lon2)
        emit("py.pyproj_geod_fwd", ns, n, 0.0)
    if Geodesic is not None:
        g = Geodesic.WGS84
        rows = list(zip(a[:n_scalar, 0].tolist(), a[:n_scalar, 1].tolist(),
                        az[:n_scalar].tolist(), dist[:n_scalar].tolist()))
        direct = g.Direct
        ns, out = best_ns(lambda: [direct(p, q, r, s) for p, q, r, s in rows], reps)
        emit("py.geographiclib_direct", ns, n_scalar,
             direct_diff([d["lat2"] for d in out], [d["lon2"] for d in out],
                         None if ref_lat is None else ref_lat[:n_scalar],
                         None if ref_lon is None else ref_lon[:n_scalar]))
    az_list, dist_list = az[:n_scalar].tolist(), dist[:n_scalar].tolist()
    one = geoloc.geodesic_direct
    ns, out = best_ns(lambda: [one(p, z, d) for p, z, d in zip(pts_a, az_list, dist_list)], reps)
    emit("py.geoloc.geodesic_direct_loop", ns, n_scalar,
         direct_diff([d.lat for d in out], [d.lon for d in out],
                     None if ref_lat is None else ref_lat[:n_scalar],
                     None if ref_lon is None else ref_lon[:n_scalar]))
    ns, out = best_ns(lambda: geoloc.geodesic_direct_many(a, az, dist), reps)
    emit("py.geoloc.geodesic_direct_many", ns, n, direct_diff(out.lat, out.lon, ref_lat, ref_lon))


if __name__ == "__main__":
    sys.exit(main())
