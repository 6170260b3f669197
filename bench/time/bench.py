#!/usr/bin/env python3
"""bench/time: the zone at a point, libgeoloc beside timezonefinder (full-precision data) and
tzfpy, on the same points in one run (see bench/time/run, which makes the venv and the C
program). Prints a table and writes it to BUILD/bench/time-latest.txt.

Points: 100,000 uniform on the sphere and 20,000 within 1 km of a zone border (a random edge of
the source's polygons, a random point of it, moved up to 1 km in a random direction); seeds
fixed. Agreement is counted against timezonefinder with its full-precision data (the same
boundaries the map is built from); every disagreement is listed with whether the source's
polygons of several zones overlap there.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def sphere_points(n, seed):
    rng = np.random.default_rng(seed)
    lat = np.degrees(np.arcsin(rng.uniform(-1, 1, n)))
    lon = rng.uniform(-180, 180, n)
    return np.ascontiguousarray(np.c_[lat, lon])


def border_points(tf, n, seed, max_m=1000.0):
    """Points within max_m of an edge of the source's polygons (a zone border: land or sea)."""
    rng = np.random.default_rng(seed)
    lens = np.array([tf.coords_of(p).shape[1] for p in range(tf.nr_of_polygons)])
    pids = rng.choice(len(lens), size=n, p=lens / lens.sum())
    out = np.empty((n, 2))
    for k, pid in enumerate(pids.tolist()):
        c = np.asarray(tf.coords_of(pid), dtype=np.float64) / 1e7
        i = int(rng.integers(c.shape[1]))
        j = (i + 1) % c.shape[1]
        t = rng.uniform()
        lon = c[0, i] + t * (c[0, j] - c[0, i])
        lat = c[1, i] + t * (c[1, j] - c[1, i])
        d = max_m * math.sqrt(rng.uniform())  # uniform over the disc
        a = rng.uniform(0, 2 * math.pi)
        lat2 = lat + d * math.sin(a) / 111_320
        lon2 = lon + d * math.cos(a) / (111_320 * max(math.cos(math.radians(lat)), 1e-3))
        out[k] = (min(max(lat2, -90), 90), ((lon2 + 180) % 360) - 180)
    return np.ascontiguousarray(out)


def overlapping(tf, lat, lon):
    """The zones whose source polygons hold the point (more than one: an overlap)."""
    x, y = int(lon * 1e7), int(lat * 1e7)
    return sorted({tf.zone_name_from_boundary_id(b) for b in tf._iter_boundaries_in_shortcut(lng=lon, lat=lat)
                   if tf.inside_of_polygon(b, x, y)})


def best(f, repeat=3):
    t = 1e99
    for _ in range(repeat):
        s = time.perf_counter()
        f()
        t = min(t, time.perf_counter() - s)
    return t


PROBE = r"""
import os, sys, time, json
t0 = time.perf_counter()
def rss():
    out = {}
    for line in open("/proc/self/status"):
        k, _, v = line.partition(":")
        if k in ("VmRSS", "RssAnon", "RssFile"):
            out[k] = int(v.split()[0]) / 1024
    return out
base = rss()
which = sys.argv[1]
if which == "geoloc":
    import geoloc
    tz = geoloc.TimeZones.open(sys.argv[2])
    first = tz.zone_at((52.52, 13.405))
    look = lambda lat, lon: tz.zone_id_at((lat, lon))
elif which == "timezonefinder":
    from timezonefinder import TimezoneFinder
    tf = TimezoneFinder()
    first = tf.timezone_at(lng=13.405, lat=52.52)
    look = lambda lat, lon: tf.timezone_at(lng=lon, lat=lat)
else:
    import tzfpy
    first = tzfpy.get_tz(13.405, 52.52)
    look = lambda lat, lon: tzfpy.get_tz(lon, lat)
t1 = time.perf_counter()
after_open = rss()
import random
r = random.Random(1)
for _ in range(10000):
    look(r.uniform(-90, 90), r.uniform(-180, 180))
after = rss()
print(json.dumps({"first_s": t1 - t0, "base": base, "open": after_open, "after": after, "first": first}))
"""


def probe(python, which, path, env):
    out = subprocess.run([python, "-c", PROBE, which, path or ""], capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--quick", action="store_true", help="10,000 and 2,000 points")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    work = os.path.join(build, "bench", "time")
    os.makedirs(work, exist_ok=True)
    mapfile = os.path.join(ROOT, "data", "time", "timezones.zones")
    n_rand, n_border = (10_000, 2_000) if args.quick else (100_000, 20_000)

    from timezonefinder import TimezoneFinder
    import timezonefinder
    import timezonefinder_data
    import tzfpy

    os.environ.setdefault("GEOLOC_LIBRARY", os.path.join(build, "libgeoloc.so"))
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import geoloc

    tf = TimezoneFinder()
    sets = {"random": sphere_points(n_rand, 20261124), "border 1 km": border_points(tf, n_border, 20261125)}
    lines = []
    say = lambda s="": (print(s), lines.append(s))
    say(f"bench/time: the zone at a point; {n_rand:,} uniform points and {n_border:,} within 1 km of a border")
    say(f"libgeoloc {geoloc.library_version()} ({os.path.getsize(mapfile) / 1e6:.1f} MB map, boundary release "
        f"{geoloc.TimeZones.open(mapfile).version}); timezonefinder {timezonefinder.__version__} with "
        f"timezonefinder-data {timezonefinder_data.__version__} (full precision); tzfpy {tzfpy.__version__ if hasattr(tzfpy, '__version__') else '2.1.1'} "
        f"(data {tzfpy.data_version()})")
    say()
    tz = geoloc.TimeZones.open(mapfile)
    names = np.array(tz.names, dtype=object)
    results = {}
    for label, pts in sets.items():
        f64 = os.path.join(work, label.split()[0] + ".f64")
        u16 = os.path.join(work, label.split()[0] + ".u16")
        pts.tofile(f64)
        out = subprocess.run([os.path.join(work, "time_c"), mapfile, f64, u16], capture_output=True, text=True, check=True)
        c = {k: float(v) for k, v in (line.split() for line in out.stdout.splitlines())}
        ours = names[np.fromfile(u16, dtype=np.uint16)]
        lats, lons = pts[:, 0], pts[:, 1]
        theirs = np.array(tf.timezone_names_at(lngs=lons, lats=lats), dtype=object)
        tzf = np.array([tzfpy.get_tz(lo, la) for la, lo in zip(lats.tolist(), lons.tolist())], dtype=object)
        bad = np.flatnonzero(ours != theirs)
        listed = []
        for i in bad.tolist():
            zones = overlapping(tf, float(lats[i]), float(lons[i]))
            listed.append((float(lats[i]), float(lons[i]), ours[i], theirs[i], zones))
        # Python: the batch call, one call per point.
        # The first batch reads each block of the map for the first time in this process, and
        # checks it then (its checksum and records): timed apart, the batch after it best of 3.
        py_first = best(lambda: tz.zone_ids_at(pts), 1)
        py_many = best(lambda: tz.zone_ids_at(pts))
        k = min(len(pts), 20000)
        sub = [(float(a), float(b)) for a, b in pts[:k]]
        py_one = best(lambda: [tz.zone_id_at(p) for p in sub], 1)
        tf_one = best(lambda: [tf.timezone_at(lng=b, lat=a) for a, b in sub], 1)
        tf_many = best(lambda: tf.timezone_ids_at(lngs=lons, lats=lats), 1)
        tzf_one = best(lambda: [tzfpy.get_tz(b, a) for a, b in sub], 1)
        results[label] = dict(c=c, bad=listed, agree=1 - len(bad) / len(pts), tzfpy_agree=float(np.mean(tzf == theirs)),
                              py_many=py_many / len(pts), py_first=py_first, py_one=py_one / k, tf_one=tf_one / k, tf_many=tf_many / len(pts),
                              tzf_one=tzf_one / k, n=len(pts))

    say("| | libgeoloc | timezonefinder 9.0 (full) | tzfpy 2.1 | goal |")
    say("|---|---|---|---|---|")
    for label, r in results.items():
        say(f"| agreement with the full-precision boundaries, {label} | {100 * r['agree']:.3f}% "
            f"({len(r['bad'])} differ) | (reference) | {100 * r['tzfpy_agree']:.2f}% | 100% but overlaps |")
    for label, r in results.items():
        c = r["c"]
        say(f"| C, one call, {label} | {c['ns_per_call']:.0f} ns | | | <= 300 ns |")
        say(f"| C, batch, {label} | {c['ns_per_point_many']:.0f} ns/point | | | |")
    for label, r in results.items():
        say(f"| Python, one call, {label} | {1e6 * r['py_one']:.2f} us | {1e6 * r['tf_one']:.2f} us "
            f"({r['tf_one'] / r['py_one']:.1f}x) | {1e6 * r['tzf_one']:.2f} us ({r['tzf_one'] / r['py_one']:.1f}x) | |")
        say(f"| Python, batch (numpy), {label} | {1 / r['py_many'] / 1e6:.2f} M points/s | "
            f"{1 / r['tf_many'] / 1e6:.3f} M points/s ({r['tf_many'] / r['py_many']:.0f}x slower) | (no batch call) | >= 3 M/s |")
        say(f"| Python, the process's first batch (each block checked on first read), {label} | "
            f"{1e3 * r['py_first']:.1f} ms for {r['n']:,} points | | | |")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(ROOT, "python")
    probes = {w: probe(sys.executable, w, mapfile if w == "geoloc" else None, env) for w in ("geoloc", "timezonefinder", "tzfpy")}
    g = probes["geoloc"]
    say(f"| import to first answer | {1e3 * g['first_s']:.1f} ms (map opened in {results['random']['c']['open_ms']:.2f} ms from C) "
        f"| {1e3 * probes['timezonefinder']['first_s']:.0f} ms | {1e3 * probes['tzfpy']['first_s']:.0f} ms | open <= 5 ms |")
    for key, label in (("open", "after opening"), ("after", "after 10,000 lookups")):
        cells = []
        for w in ("geoloc", "timezonefinder", "tzfpy"):
            p = probes[w]
            cells.append(f"{p[key]['VmRSS'] - p['base']['VmRSS']:.1f} MB (file-backed {p[key]['RssFile'] - p['base']['RssFile']:.1f}, "
                         f"private {p[key]['RssAnon'] - p['base']['RssAnon']:.1f})")
        say(f"| memory {label} (RSS growth) | " + " | ".join(cells) + " | <= the map's pages |")
    data_dir = timezonefinder_data.DATA_DIR
    tf_bytes = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(data_dir) for f in fs)
    tzf_dir = os.path.dirname(tzfpy.__file__)
    tzf_bytes = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(tzf_dir) for f in fs)
    say(f"| data size | {os.path.getsize(mapfile) / 1e6:.1f} MB (one file) | {tf_bytes / 1e6:.1f} MB (+ h3) | "
        f"{tzf_bytes / 1e6:.1f} MB (package) | <= 15 MB |")
    say()
    for label, r in results.items():
        say(f"Disagreements with timezonefinder, {label}: {len(r['bad'])}")
        for lat, lon, ours, theirs, zones in r["bad"]:
            why = ("polygons overlap: " + ", ".join(zones)) if len(zones) > 1 else "NOT an overlap"
            say(f"  {lat:.7f},{lon:.7f}: libgeoloc {ours}, timezonefinder {theirs} ({why})")
    with open(os.path.join(build, "bench", "time-latest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
