#!/usr/bin/env python3
"""The tracking benchmark: writes the inputs, runs the C door's program (tracking_c) on them, measures
the Python door and the peers on the same inputs, and prints one table with ratios.

  bench.py BUILD_DIR [--fixes N] [--quick]

Rows:
- fix filter and geofence monitoring, fixes per second through the C and Python doors, with 10,
  1,000 and 100,000 circular regions (radius 50-500 m, uniform over a 100 x 100 km metro area),
  for a stream of N fixes (a vehicle-like random walk in that area, 1 fix/s, stops of 10 minutes
  every ~1,000 fixes);
- Douglas-Peucker of the same N-point track at 5 m: libgeoloc measures on the sphere; shapely's
  simplify, `simplification` (Rust) and `rdp` are planar, on raw degrees with 5 m converted at the
  area's latitude (rdp, pure Python, on a prefix only);
- stay points (200 m, 5 min) over the same N fixes: libgeoloc against a numpy reference of the
  same algorithm written for this bench, and movingpandas' TrajectoryStopDetector (a different
  rule: a maximum diameter) on a prefix.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT / "python"))

LAT0, LON0 = 41.88, -87.63
M = 6371008.8 * math.pi / 180
# Region sets: name, count, half the side of the square they are spread over (meters). The first
# three share the fixes' 100 km square, so the regions get denser with their number (100,000 of
# them cover it about 2.4 times over); the last spreads 100,000 over a 1,000 km square, as dense
# around the fixes as the 1,000.
SETS = (("10", 10, 50000), ("1000", 1000, 50000), ("100000", 100000, 50000), ("100000w", 100000, 500000))
TOL = 5.0
STAY_M, STAY_S = 200.0, 300.0


def best(fn, reps=3):
    out, t = None, float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        t = min(t, time.perf_counter() - t0)
    return t, out


def make_inputs(n, outdir):
    rng = numpy.random.default_rng(2026)
    heading = numpy.cumsum((rng.random(n) - 0.5) * 0.4)
    speed = numpy.full(n, 10.0)
    # Stops: 600 fixes standing still every ~1,000.
    phase = numpy.arange(n) % 1600
    speed[phase >= 1000] = 0.0
    x = numpy.cumsum(speed * numpy.cos(heading)) + rng.normal(0, 2, n)
    y = numpy.cumsum(speed * numpy.sin(heading)) + rng.normal(0, 2, n)
    # Fold into the 100 km square.
    x = numpy.abs((x + 50000) % 200000 - 100000) - 50000
    y = numpy.abs((y + 50000) % 200000 - 100000) - 50000
    fixes = numpy.full((n, 7), numpy.nan)
    fixes[:, 0] = LAT0 + y / M
    fixes[:, 1] = LON0 + x / (M * math.cos(math.radians(LAT0)))
    fixes[:, 2] = numpy.arange(n, dtype=float)
    fixes[:, 3] = rng.uniform(3, 15, n)
    fixes.tofile(outdir / "fixes.bin")
    regions = {}
    for name, k, half in SETS:
        r = numpy.empty((k, 3))
        r[:, 0] = LAT0 + rng.uniform(-half, half, k) / M
        r[:, 1] = LON0 + rng.uniform(-half, half, k) / (M * math.cos(math.radians(LAT0)))
        r[:, 2] = rng.uniform(50, 500, k)
        r.tofile(outdir / ("regions_%s.bin" % name))
        regions[name] = r
    return fixes, regions


def stay_points_numpy(f, dist, dur):
    """The classic stay-point detection (Li et al. 2008), numpy inside each anchor's window."""
    lat = numpy.radians(f[:, 0]); lon = numpy.radians(f[:, 1]); t = f[:, 2]
    n = len(f); out = []; i = 0
    R = 6371008.8
    while i < n:
        j = i + 1
        window = 64
        while j < n:
            e = min(n, j + window)
            dl = lat[j:e] - lat[i]; dn = lon[j:e] - lon[i]
            h = numpy.sin(dl / 2) ** 2 + math.cos(lat[i]) * numpy.cos(lat[j:e]) * numpy.sin(dn / 2) ** 2
            d = 2 * R * numpy.arcsin(numpy.sqrt(h))
            far = numpy.nonzero(d > dist)[0]
            if len(far):
                j += int(far[0])
                break
            j = e
            window *= 2
        if t[j - 1] - t[i] >= dur and j - 1 > i:
            out.append((i, j - 1))
            i = j
        else:
            i += 1
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build_dir")
    ap.add_argument("--fixes", type=int, default=1_000_000)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    n = 20_000 if args.quick else args.fixes
    build = Path(args.build_dir)
    work = build / "bench" / "tracking"
    work.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("GEOLOC_LIBRARY", str(build / "libgeoloc.so"))
    import geoloc
    from geoloc import _tracking as tr

    fixes, regions = make_inputs(n, work)
    rows = []  # (task, tool, note, seconds, per_second)

    out = subprocess.run([str(work / "tracking_c"), str(work), str(n), str(TOL), str(STAY_M), str(STAY_S)]
                         + [name for name, _, _ in SETS], check=True, capture_output=True, text=True).stdout
    c = {}
    for line in out.strip().splitlines():
        name, _, secs, rate, *note = line.split("\t")
        c[name] = (float(secs), float(rate), note[0] if note else "")

    # Filter and monitor: the C program, then the Python door on the same arrays.
    rows.append(("fix filter (automotive preset)", "libgeoloc C", c["filter"][2], c["filter"][0], c["filter"][1]))
    secs, _ = best(lambda: tr.FixFilter("automotive").run(fixes))
    rows.append(("fix filter (automotive preset)", "libgeoloc Python", "", secs, n / secs))
    for name, k, half in SETS:
        key = "monitor_%s" % name
        task = "geofence monitor, %s regions%s" % (format(k, ","), "" if half == 50000 else " over 1,000 km")
        rows.append((task, "libgeoloc C", c[key][2], c[key][0], c[key][1]))
        fences = tr.Geofences(regions[name][:, :2], regions[name][:, 2])
        secs, ev = best(lambda: tr.Monitor(fences).run(fixes))
        rows.append((task, "libgeoloc Python", "events=%d" % len(ev), secs, n / secs))

    # Simplification.
    task = "simplify %s points, 5 m" % format(n, ",")
    rows.append((task, "libgeoloc C (sphere)", c["simplify"][2], c["simplify"][0], c["simplify"][1]))
    secs, kept = best(lambda: tr.simplify_track(fixes, TOL))
    rows.append((task, "libgeoloc Python (sphere)", "kept=%d" % len(kept), secs, n / secs))
    xy = numpy.ascontiguousarray(fixes[:, [1, 0]])
    tol_deg = TOL / M
    try:
        import shapely
        line = shapely.LineString(xy)
        secs, s = best(lambda: shapely.simplify(line, tol_deg, preserve_topology=False))
        rows.append((task, "shapely simplify (planar degrees)", "kept=%d" % len(s.coords), secs, n / secs))
    except ImportError:
        rows.append((task, "shapely simplify", "not installed", float("nan"), float("nan")))
    try:
        from simplification.cutil import simplify_coords
        secs, s = best(lambda: simplify_coords(xy, tol_deg))
        rows.append((task, "simplification/Rust (planar degrees)", "kept=%d" % len(s), secs, n / secs))
    except ImportError:
        rows.append((task, "simplification", "not installed", float("nan"), float("nan")))
    try:
        from rdp import rdp
        m = min(n, 20_000)
        secs, s = best(lambda: rdp(xy[:m], epsilon=tol_deg), reps=1)
        rows.append((task, "rdp (planar, pure Python; first %s points)" % format(m, ","), "kept=%d" % len(s), secs, m / secs))
    except ImportError:
        rows.append((task, "rdp", "not installed", float("nan"), float("nan")))

    # Stay points.
    task = "stay points over %s fixes (200 m, 5 min)" % format(n, ",")
    rows.append((task, "libgeoloc C", c["stay_points"][2], c["stay_points"][0], c["stay_points"][1]))
    secs, sp = best(lambda: tr.stay_points(fixes, STAY_M, STAY_S))
    rows.append((task, "libgeoloc Python", "stays=%d" % len(sp), secs, n / secs))
    secs, ref = best(lambda: stay_points_numpy(fixes, STAY_M, STAY_S), reps=1)
    same = [(int(a), int(b)) for a, b in zip(sp["first"], sp["last"])] == ref
    rows.append((task, "numpy reference (same algorithm)", "stays=%d, same=%s" % (len(ref), same), secs, n / secs))
    try:
        import warnings
        from datetime import timedelta
        import geopandas
        import movingpandas
        import pandas
        m = min(n, 100_000)
        warnings.filterwarnings("ignore")
        frame = geopandas.GeoDataFrame(
            {"t": pandas.to_datetime(fixes[:m, 2], unit="s")},
            geometry=geopandas.points_from_xy(fixes[:m, 1], fixes[:m, 0]), crs="EPSG:4326").set_index("t")

        def mpd():
            traj = movingpandas.Trajectory(frame, 1)
            return movingpandas.TrajectoryStopDetector(traj).get_stop_points(
                min_duration=timedelta(seconds=STAY_S), max_diameter=2 * STAY_M)

        secs, stops = best(mpd, reps=1)
        rows.append((task, "movingpandas TrajectoryStopDetector (diameter 400 m; first %s)" % format(m, ","),
                     "stops=%d" % len(stops), secs, m / secs))
    except ImportError:
        rows.append((task, "movingpandas", "not installed", float("nan"), float("nan")))

    # The table, ratios against the first row of each task.
    lines = ["| task | tool | per second | vs libgeoloc C | note |", "|---|---|---:|---:|---|"]
    lead = {}
    for task, tool, note, secs, rate in rows:
        lead.setdefault(task, rate)
        ratio = lead[task] / rate if rate == rate and rate > 0 else float("nan")
        lines.append("| %s | %s | %s | %s | %s |" % (task, tool, format(int(rate), ",") if rate == rate else "-",
                                                     "%.1fx" % ratio if ratio == ratio else "-", note))
    table = "\n".join(lines)
    print(table)
    (build / "bench" / "tracking-latest.txt").write_text(table + "\n")


if __name__ == "__main__":
    main()
