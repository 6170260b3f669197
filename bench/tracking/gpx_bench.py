#!/usr/bin/env python3
"""The GPX reading bench: libgeoloc's GPX reader (C and Python doors) beside gpxpy and the
library's own GeoJSON track reader, on one generated day-and-more of 1 Hz logging, as a Garmin
device writes it (lat/lon with 7 decimals, ele, time, a heart-rate extension per point).

  gpx_bench.py BUILD_DIR [--points N] [--gpxpy-points N] [--baseline LIB]

Rows: points per second (best of 3 runs, each a fresh process) and the peak memory the load
added, against the file's size. --baseline DIR times an earlier libgeoloc (DIR/libgeoloc.so.0; 0.3 is
quadratic) on a 10,000-point file.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def make_gpx(path: Path, n: int) -> None:
    with open(path, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<gpx creator="Garmin Edge 530" version="1.1" '
                'xmlns="http://www.topografix.com/GPX/1/1" '
                'xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">\n'
                ' <metadata><time>2026-06-01T06:00:00Z</time></metadata>\n <trk>\n  <name>Long ride</name>\n  <type>cycling</type>\n  <trkseg>\n')
        lat, lon, heading = 45.0, 7.0, 0.3
        t0 = 1780293600
        for i in range(n):
            heading += 0.05 * math.sin(i / 97.0)
            lat += 5e-5 * math.cos(heading)
            lon += 7e-5 * math.sin(heading)
            s = t0 + i
            d, r = divmod(s - 1780272000, 86400)
            f.write('   <trkpt lat="%.7f" lon="%.7f">\n    <ele>%.1f</ele>\n    <time>2026-06-%02dT%02d:%02d:%02dZ</time>\n'
                    '    <extensions>\n     <gpxtpx:TrackPointExtension>\n      <gpxtpx:hr>%d</gpxtpx:hr>\n'
                    '     </gpxtpx:TrackPointExtension>\n    </extensions>\n   </trkpt>\n'
                    % (lat, lon, 300 + 50 * math.sin(i / 500.0), 1 + d, r // 3600, r // 60 % 60, r % 60, 120 + i % 40))
        f.write("  </trkseg>\n </trk>\n</gpx>\n")


def gpx_to_geojson(src: Path, dst: Path) -> None:
    import re
    pts = re.findall(r'lat="([^"]+)" lon="([^"]+)">\s*<ele>([^<]+)</ele>\s*<time>([^<]+)</time>', src.read_text())
    coords = ",".join("[%s,%s,%s]" % (lo, la, e) for la, lo, e, _ in pts)
    times = ",".join('"%s"' % t for *_, t in pts)
    dst.write_text('{"type":"Feature","properties":{"coordTimes":[%s]},"geometry":{"type":"LineString","coordinates":[%s]}}'
                   % (times, coords))


def run_c(prog: Path, kind: str, path: Path, lib: str | None = None, reps: int = 3) -> tuple[float, int, int, float]:
    best, n, grew, cpu = float("inf"), 0, 0, float("inf")
    env = dict(os.environ)
    if lib:
        env["LD_LIBRARY_PATH"] = lib  # a directory holding the other libgeoloc.so.0
    for _ in range(reps):
        out = subprocess.run([str(prog), kind, str(path)], capture_output=True, text=True, env=env, check=True).stdout.split()
        secs, n, before, after = float(out[0]), int(out[1]), int(out[2]), int(out[3])
        best = min(best, secs)
        cpu = min(cpu, float(out[4]))
        grew = after - before
    return best, n, grew, cpu


def run_c_refused(prog: Path, kind: str, path: Path, max_records: int) -> tuple[float, int, float]:
    """A load refused past max_records (gpx_c exits 1): its seconds, the peak memory it added
    and its CPU seconds, from gpx_c's message."""
    r = subprocess.run([str(prog), kind, str(path), "0", str(max_records)], capture_output=True, text=True)
    m = re.search(r"\(([\d.]+) s, ([\d.]+) CPU s, peak (\d+) -> (\d+) bytes\)", r.stderr)
    if r.returncode != 1 or m is None or "max_records" not in r.stderr:
        raise SystemExit("gpx_c %s %s 0 %d: expected a refusal, got: %s" % (kind, path, max_records, r.stdout + r.stderr))
    return float(m[1]), int(m[4]) - int(m[3]), float(m[2])


PY_SNIPPET = """
import sys, time, resource, json
sys.path.insert(0, sys.argv[3])
kind, path = sys.argv[1], sys.argv[2]
def hwm():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmHWM:"))
before = hwm()
if kind == "gpxpy":
    import gpxpy
    t0 = time.perf_counter()
    with open(path) as f:
        g = gpxpy.parse(f)
    n = sum(len(s.points) for t in g.tracks for s in t.segments)
else:
    import geoloc
    t0 = time.perf_counter()
    n = len(geoloc.read_gpx(path).points)
secs = time.perf_counter() - t0
after = hwm()
print(json.dumps([secs, n, after - before]))
"""


def run_py(python: str, kind: str, path: Path, env: dict, reps: int = 3) -> tuple[float, int, int]:
    best, n, grew = float("inf"), 0, 0
    for _ in range(reps):
        out = subprocess.run([python, "-c", PY_SNIPPET, kind, str(path), str(ROOT / "python")], capture_output=True,
                             text=True, env=env, check=True).stdout
        secs, n, grew = json.loads(out)
        best = min(best, secs)
    return best, n, grew


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("build", type=Path)
    ap.add_argument("--points", type=int, default=1_000_000)
    ap.add_argument("--gpxpy-points", type=int, default=100_000)
    ap.add_argument("--baseline", default=None,
                    help="a directory holding an earlier libgeoloc.so.0, timed on a 10,000-point prefix")
    args = ap.parse_args()
    out = args.build / "bench" / "tracking"
    out.mkdir(parents=True, exist_ok=True)
    big, small, tiny, js = out / "ride.gpx", out / "ride-small.gpx", out / "ride-10k.gpx", out / "ride.geojson"
    if not big.exists() or big.stat().st_size < args.points * 200 or big.stat().st_size > args.points * 300:
        make_gpx(big, args.points)
    make_gpx(small, args.gpxpy_points)
    make_gpx(tiny, 10_000)
    if not js.exists() or js.stat().st_mtime < big.stat().st_mtime:
        gpx_to_geojson(big, js)
    prog = out / "gpx_c"
    lib = str(args.build / "libgeoloc.so")
    env = dict(os.environ, GEOLOC_LIBRARY=lib)
    peers = args.build / "peers" / "bin" / "python"
    rows = []

    def add(task, tool, secs, n, grew, size, cpu=None):
        """A row; `run_c` gives (secs, n, grew, cpu), `run_py` (secs, n, grew)."""
        note = "%d points, %.1f MB file, %.2f s" % (n, size / 1e6, secs)
        if cpu is not None:
            note += "; %s points per CPU second" % format(int(n / cpu), ",")
        rows.append((task, tool, n / secs, grew / size, note))

    def add_c(task, tool, run, size):
        secs, n, grew, cpu = run
        add(task, tool, secs, n, grew, size, cpu)

    size = big.stat().st_size
    add_c("GPX, %d points" % args.points, "libgeoloc C (geoloc_track_load_gpx)", run_c(prog, "gpx", big), size)
    add("GPX, %d points" % args.points, "libgeoloc Python (read_gpx)", *run_py(sys.executable, "geoloc", big, env), size)
    size_js = js.stat().st_size
    add_c("GeoJSON, the same points", "libgeoloc C (geoloc_track_load_geojson)", run_c(prog, "geojson", js), size_js)
    secs, grew, cpu = run_c_refused(prog, "geojson", js, 1000)
    rows.append(("GeoJSON, the same points, max_records 1,000", "libgeoloc C (geoloc_track_load_geojson_limited)",
                 None, grew / size_js, "refused (COUNT_TOO_LARGE) in %.3f s, %.3f CPU s: the positions are counted "
                 "through a 64 KiB buffer before the file is loaded" % (secs, cpu)))
    size_small = small.stat().st_size
    add_c("GPX, %d points" % args.gpxpy_points, "libgeoloc C (geoloc_track_load_gpx)", run_c(prog, "gpx", small), size_small)
    if peers.exists():
        add("GPX, %d points" % args.gpxpy_points, "gpxpy 1.6.2 (pure Python)", *run_py(str(peers), "gpxpy", small, env, 1),
            size_small)
    if args.baseline:
        add_c("GPX, 10,000 points", "libgeoloc C", run_c(prog, "gpx", tiny), tiny.stat().st_size)
        add_c("GPX, 10,000 points", "baseline %s" % args.baseline, run_c(prog, "gpx", tiny, args.baseline, 1), tiny.stat().st_size)
    lines = ["| task | tool | points per second | peak memory added / file size | note |", "|---|---|---:|---:|---|"]
    for task, tool, rate, mem, note in rows:
        lines.append("| %s | %s | %s | %.2fx | %s |" % (task, tool, "-" if rate is None else format(int(rate), ","), mem, note))
    lines.append("")
    lines.append("Load average (1, 5, 15 min) at the end of the run: %.2f %.2f %.2f on %d cores"
                 % (*os.getloadavg(), os.cpu_count() or 0))
    text = "\n".join(lines)
    print(text)
    (args.build / "bench" / "tracking-gpx-latest.txt").write_text(text + "\n")


if __name__ == "__main__":
    main()
