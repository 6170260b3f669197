#!/usr/bin/env python3
"""The Python door in a page: the trip in data/demo through libgeoloc, a numpy batch, and the
demo walk (data/demo/walk.gpx) through the fix filter and the geofences of regions.tsv.

Run with the library built (scripts/build) and GEOLOC_LIBRARY pointing at it:
    GEOLOC_LIBRARY=build/libgeoloc.so python3 examples/python/demo.py
"""
import os
import sys
from datetime import datetime, timezone

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
try:
    import geoloc  # installed: pip install ./python
except ImportError:  # run from the source tree, the library named by GEOLOC_LIBRARY
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import geoloc  # noqa: E402


def read_trip(path):
    home, stops = None, []
    with open(path, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")]
    for role, name, coords in rows[1:]:
        if role == "home":
            home = (name, coords)
        else:
            stops.append((name, coords))
    return home, stops


def main():
    (home_name, home), stops = read_trip(os.path.join(ROOT, "data", "demo", "trip.tsv"))
    trip = geoloc.mileage(home, [c for _, c in stops])
    print(f"round trip from {home_name}: {trip.text} miles over {len(trip.legs)} legs")
    for i in trip.skipped:
        print(f"  skipped {stops[i][0]}: {stops[i][1]!r}")
    print(f"  ETA at 55 mph, roads 1.3x: {geoloc.eta_minutes(trip.total, 55, unit='mi', detour_factor=1.3)} min")

    points = np.array([geoloc.parse_coord(c) for i, (_, c) in enumerate(stops) if i not in trip.skipped])
    miles = geoloc.distance_one_to_many(geoloc.parse_coord(home), points, unit="mi")
    print("  straight-line miles from home:", ", ".join(f"{m:.1f}" for m in miles))

    rng = np.random.default_rng(7)
    a = np.column_stack([np.degrees(np.arcsin(rng.uniform(-1, 1, 100_000))), rng.uniform(-180, 180, 100_000)])
    b = np.column_stack([np.degrees(np.arcsin(rng.uniform(-1, 1, 100_000))), rng.uniform(-180, 180, 100_000)])
    km = geoloc.distance_pairs(a, b, unit="km")
    print(f"100,000 random pairs in one call: mean {km.mean():.0f} km (a sphere's mean is {np.pi / 2 * 6371.0088:.0f})")

    print(geoloc.weather_condition(63, 45.4), "|", geoloc.weather_condition(0, 22.2, unit="C", shown="F", daylight="day"))
    place = {"city": "Springfield", "state": "Illinois", "country_code": "US"}
    print(geoloc.format_address(place, style="city_state"), "|", geoloc.format_address(place, style="city_state_country"))
    where_and_when()
    walk_and_regions()
    find_by_name()
    try:
        geoloc.parse_coord("91,0")
    except geoloc.OutOfRangeError as err:
        print("parse_coord('91,0'):", err.message)


def where_and_when():
    """A reverse geocode with the local time there: a Navajo Nation town keeps daylight saving
    time (America/Denver), the rest of Arizona does not (America/Phoenix)."""
    t = 1782900000  # 2026-07-01T10:00:00Z
    for point in [(36.7278, -110.2546), (35.1983, -111.6513)]:
        here = geoloc.locality_time(point, t)
        print(f"where and when: {here.text()} ({here.zone})")
    now = geoloc.locality_time((39.80, -89.64), datetime.now(timezone.utc))
    print(f"now in {now.place.text}: {geoloc.local_time_text(now.zone, now.local_time.instant)}")


def find_by_name():
    """Places by name, offline: a state code, another script, an old name, a typing error, and a
    column of names in one call."""
    search = geoloc.PlaceSearch.open()
    for query in ("Springfield, IL", "Київ", "Bombay", "sprinfield, mo"):
        r = search.search(query, limit=1)[0]
        print(f"find {query!r}: {r.name}, {r.region}, {r.country_code} ({r.population:,} people, {r.match})")
    print("autocomplete 'spri':", ", ".join(f"{r.name} {r.region_code}" for r in search.search("spri", prefix=True, limit=3)))
    column = np.array(["München", "ZURICH", "sao paulo", "Kiev, UA"])
    found = search.search_many(column, limit=1)
    places = geoloc.Gazetteer.open().places
    print("a column in one call:", ", ".join(places.name(int(i)) for i in found.index[:, 0]))


def walk_and_regions():
    """The walk through the fitness filter, then its kept fixes through a monitor: one call each."""
    demo = os.path.join(ROOT, "data", "demo")
    walk = geoloc.read_gpx(os.path.join(demo, "walk.gpx"))
    decisions = geoloc.FixFilter("fitness").run(walk.fixes)
    kept = np.nonzero(decisions["verdict"] == 0)[0]
    print(f"walk: {len(walk.fixes)} fixes, {len(kept)} kept; stopped at fix "
          f"{int(np.nonzero(decisions['motion'] == 1)[0][0])}, moving again at {int(np.nonzero(decisions['motion'] == 2)[0][0])}")
    centers, radii, ids, polygons, polygon_ids = [], [], [], [], []
    with open(os.path.join(demo, "regions.tsv"), encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")][1:]
    for name, shape, where, radius in rows:
        points = [tuple(map(float, p.split(","))) for p in where.split()]
        if shape == "circle":
            centers.append(points[0]); radii.append(float(radius)); ids.append(name)
        else:
            polygons.append(points); polygon_ids.append(name)
    fences = geoloc.Geofences(centers, radii, ids=ids, polygons=polygons, polygon_ids=polygon_ids)
    events = geoloc.Monitor(fences).run(walk.fixes[kept])
    kinds = ("enter", "dwell", "exit")
    print("geofence events:", ", ".join(f"{kinds[e['transition']]} {fences.id(int(e['region']))} (fix {int(kept[e['fix']])})"
                                        for e in events))
    stats = geoloc.track_stats(walk.fixes[kept], model="wgs84")
    print(f"track: {stats.length_m:.0f} m in {stats.duration_s:.0f} s, moving {stats.moving_time_s:.0f} s")


if __name__ == "__main__":
    main()
