#!/usr/bin/env python3
"""Writes tests/golden/timezones.tsv: the zone at points picked from the boundary data, with
the answer of timezonefinder 9.0.0 on its full-precision data (timezonefinder-data
3.2026.3.post1, timezone-boundary-builder 2026c), the independent oracle the three doors' tests
check the library's map against.

The points:
- borders: for edges of the source polygons between two zones (picked at random with a fixed
  seed, at most one per pair of zones), the points 1 m and 3 cm either side of the edge's
  midpoint, across it;
- places: cities, enclaves and disputed areas (Urumqi, Aksai Chin, Baarle-Hertog, ...);
- the antimeridian (both sides of 180 degrees, on land and at sea), the poles, the open sea
  (where the nautical zone and its offset as people read it are given too).

Usage: python3 tools/gen_timezone_cases.py (runs in the venv tools/gen_timezones.py makes; no
point where the source's polygons overlap is written: there the answer is a rule, not the
oracle's).
"""

import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_timezones  # noqa: E402

OUT = os.path.join(gen_timezones.REPO, "tests", "golden", "timezones.tsv")
BORDERS = 60

PLACES = [
    ("Chicago", 41.8781, -87.6298),
    ("New York", 40.7128, -74.0060),
    ("London", 51.5074, -0.1278),
    ("Urumqi", 43.8256, 87.6168),
    ("Kashgar", 39.4704, 75.9898),
    ("Lhasa", 29.6520, 91.1721),
    ("Aksai Chin", 35.2, 79.3),
    ("Baarle-Hertog enclave (BE)", 51.4397, 4.9273),
    ("Baarle-Nassau (NL)", 51.4441, 4.9299),
    ("Kathmandu", 27.7172, 85.3240),
    ("Chatham Islands", -43.95, -176.55),
    ("Lord Howe Island", -31.5553, 159.0821),
    ("Tehran", 35.6892, 51.3890),
    ("Santiago", -33.4489, -70.6693),
    ("Casablanca", 33.5731, -7.5898),
    ("Indianapolis", 39.7684, -86.1581),
    ("Phoenix", 33.4484, -112.0740),
    ("Navajo Nation, Window Rock", 35.6803, -109.0526),
    ("Hopi, Second Mesa", 35.8003, -110.5101),
    ("Kolkata", 22.5726, 88.3639),
    ("Adelaide", -34.9285, 138.6007),
    ("Eucla", -31.6771, 128.8861),
    ("Kiribati, Kiritimati", 1.8721, -157.4278),
    ("Samoa, Apia", -13.8333, -171.7500),
    ("Fiji, Suva", -18.1416, 178.4419),
    ("Longyearbyen", 78.2232, 15.6267),
    ("McMurdo", -77.8419, 166.6863),
    ("Amundsen-Scott station", -89.9978, 139.2729),
]

SPECIAL = [
    ("antimeridian east, Chukotka", 66.0, 179.99999),
    ("antimeridian west, Chukotka", 66.0, -179.99999),
    ("antimeridian east, Fiji", -16.5, 179.9999),
    ("antimeridian west, Fiji (Vanua Levu)", -16.5, -179.9999),
    ("antimeridian sea east", 10.0, 179.999999),
    ("antimeridian sea west", 10.0, -179.999999),
    ("antimeridian sea, -180 itself", -40.0, -180.0),
    ("antimeridian Aleutians west", 51.75, 179.99),
    ("north pole", 90.0, 0.0),
    ("north pole, other longitude", 90.0, 123.456),
    ("near the north pole", 89.9999, -45.0),
    ("south pole", -90.0, 0.0),
    ("south pole, other longitude", -90.0, -77.7),
    ("near the south pole", -89.9999, 100.0),
    ("mid-Atlantic", 30.0, -40.0),
    ("mid-Pacific", 0.0, -140.0),
    ("Indian Ocean", -30.0, 80.0),
    ("Southern Ocean", -58.0, 20.0),
    ("Gulf of Guinea, null island", 0.0, 0.0),
    ("Arctic Ocean", 85.0, 100.0),
    ("Tasman Sea", -40.0, 160.0),
    ("Atlantic off Nova Scotia", 43.0, -60.0),
]


def main():
    gen_timezones.ensure_environment(os.path.join(gen_timezones.REPO, "build", "tzgen-venv"))
    import numpy as np
    from timezonefinder import TimezoneFinder

    tf = TimezoneFinder()
    rows = []

    def add(case, lat, lon):
        zone = tf.timezone_at(lng=lon, lat=lat)
        hours = gen_timezones.nautical_hours(zone)
        rows.append((case, repr(float(lat)), repr(float(lon)), zone, "" if hours is None else str(hours)))

    for name, lat, lon in PLACES:
        add(name, lat, lon)
    for name, lat, lon in SPECIAL:
        add(name, lat, lon)
    # Borders picked from the data: an edge of a polygon, its midpoint, and the points either
    # side of it across the edge, 1 m and 3 cm away.
    rng = np.random.default_rng(20261124)
    seen = set()
    tries = 0
    while len(seen) < BORDERS and tries < 20000:
        tries += 1
        pid = int(rng.integers(tf.nr_of_polygons))
        coords = np.asarray(tf.coords_of(pid), dtype=np.float64) / 1e7
        i = int(rng.integers(coords.shape[1] - 1))
        x1, y1, x2, y2 = coords[0, i], coords[1, i], coords[0, i + 1], coords[1, i + 1]
        length = math.hypot(x2 - x1, y2 - y1)
        if length < 2e-4 or abs(y1) > 80:
            continue
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        nx, ny = -(y2 - y1) / length, (x2 - x1) / length
        metre = 1 / 111_320
        pts = []
        for d in (metre, -metre, 0.03 * metre, -0.03 * metre):
            # A metre across, in longitude scaled by the latitude.
            pts.append((my + ny * d, mx + nx * d / max(math.cos(math.radians(my)), 0.05)))
        zones = [tf.timezone_at(lng=lo, lat=la) for la, lo in pts]
        if zones[0] == zones[1] or zones[2] == zones[3] or {zones[0], zones[1]} != {zones[2], zones[3]}:
            continue
        key = tuple(sorted(zones[:2]))
        if key in seen:
            continue
        # Not where polygons of several zones overlap: there the answer is a rule.
        if any(len({tf.zone_name_from_boundary_id(b) for b in tf._iter_boundaries_in_shortcut(lng=lo, lat=la)
                    if tf.inside_of_polygon(b, int(lo * 1e7), int(la * 1e7))}) > 1 for la, lo in pts):
            continue
        seen.add(key)
        for (la, lo), label in zip(pts, ("1 m", "1 m other side", "3 cm", "3 cm other side")):
            add(f"border {key[0]} | {key[1]}, {label}", la, lo)
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write("case\tlat\tlon\tzone\tutc_offset_hours\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    print(f"gen_timezone_cases: wrote {OUT}: {len(rows)} points, {len(seen)} borders", file=sys.stderr)


if __name__ == "__main__":
    main()
