#!/usr/bin/env python3
"""Checks tests/golden/reverse_geocode.tsv against the sources, without libgeoloc.

For each row: the nearest place to (lat, lon) by brute force over every place of
data/gazetteer/cities1000.tsv (great-circle distance on the sphere of radius 6,371,008.8 m,
ties to the first row); its locality (itself, or the place its locality_id names); no locality
when the nearest place is beyond the row's max_distance_m (empty: 50 km), then the region and
country alone within 200 km, else ""; and the text the address-formatting data's rules give for
it, reimplemented here from the YAML (not from the library's code):

- CITY_STATE: the city, then the first-level region: its code where the country's postal
  template (countries/worldwide.yaml) writes `{{{state_code}}}` and state_codes.yaml (or, for
  the US, the gazetteer's USPS admin1 code) has one for the region's name, else its name.
  Trailing ", "-pieces of the city that repeat the region are dropped ("Washington, D.C." in
  DC); the region is left out when what is left of the city is the region as written (by name
  "Tokyo" in Tokyo; a code repeats only itself: "São Paulo, SP").
- CITY_STATE_COUNTRY: the city, the region's name unless the city is it, the country's name
  (country_codes.yaml's comment without a bracketed part) unless a part before is it.
Text is compared without case and dots for repeats.

Usage:
    python3 tools/check_reverse_geocode.py              # exits 1 on any row that differs
    python3 tools/check_reverse_geocode.py --show LAT LON   # the nearest places and the texts
Needs PyYAML and the address-formatting configuration (--conf, default
../shared/data/address-formatting/conf beside the repository's parent, or $GEOLOC_ADDRESS_CONF).
"""

import argparse
import csv
import math
import os
import re
import sys

import yaml

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TSV = os.path.join(REPO, "data", "gazetteer", "cities1000.tsv")
GOLDEN = os.path.join(REPO, "tests", "golden", "reverse_geocode.tsv")
RADIUS = 6371008.8


def default_conf():
    env = os.environ.get("GEOLOC_ADDRESS_CONF")
    if env:
        return env
    for up in (os.path.dirname(REPO), os.path.dirname(os.path.dirname(REPO))):
        p = os.path.join(up, "shared", "data", "address-formatting", "conf")
        if os.path.isdir(p):
            return p
    return "/work/shared/data/address-formatting/conf"


def load_places():
    with open(TSV, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    for r in rows:
        r["_lat"] = math.radians(float(r["lat"]))
        r["_lon"] = math.radians(float(r["lon"]))
    return rows


def distance(lat1, lon1, lat2, lon2):
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * RADIUS * math.asin(min(1.0, math.sqrt(h)))


def nearest(places, lat, lon, k=2):
    la, lo = math.radians(lat), math.radians(lon)
    best = []
    for i, r in enumerate(places):
        d = distance(la, lo, r["_lat"], r["_lon"])
        if len(best) < k or d < best[-1][0]:
            best.append((d, i))
            best.sort()
            del best[k:]
    return best


class Rules:
    def __init__(self, conf):
        with open(os.path.join(conf, "countries", "worldwide.yaml"), encoding="utf-8") as f:
            world = yaml.safe_load(f)
        self.code_countries = {cc for cc, v in world.items()
                               if len(cc) == 2 and isinstance(v, dict) and "{{{state_code}}}" in (v.get("address_template") or "")}
        with open(os.path.join(conf, "state_codes.yaml"), encoding="utf-8") as f:
            states = yaml.safe_load(f)
        self.state_code = {}
        for cc, table in states.items():
            for code, names in (table or {}).items():
                names = names.values() if isinstance(names, dict) else [names]
                for n in names:
                    self.state_code.setdefault((cc, fold(str(n))), str(code))
        self.country = {}
        with open(os.path.join(conf, "country_codes.yaml"), encoding="utf-8") as f:
            for line in f:
                m = re.match(r'^"?([A-Z]{2})"?:\s*#\s*(.+?)\s*$', line)
                if m:  # "Türkiye (Turkey)": the name is the part before the brackets
                    self.country[m.group(1)] = re.sub(r"\s*\(.*\)\s*$", "", m.group(2))

    def region_code(self, p):
        if not p["admin1_name"]:
            return None
        if p["country_code"] == "US":
            return p["admin1_code"] or None
        return self.state_code.get((p["country_code"], fold(p["admin1_name"])))

    def city_state(self, p):
        city, name, cc = p["name"], p["admin1_name"], p["country_code"]
        code = self.region_code(p)
        use_code = cc in self.code_countries and code
        region = code if use_code else (name or None)
        if region is None:
            return city
        city = strip_repeats(city, [region, name, code])
        if fold(city) == fold(region):
            return city
        return f"{city}, {region}"

    def city_state_country(self, p):
        city, name = p["name"], p["admin1_name"]
        parts = []
        if name:
            city = strip_repeats(city, [name, self.region_code(p)])
            parts = [city] if fold(city) == fold(name) else [city, name]
        else:
            parts = [city]
        country = self.country.get(p["country_code"])
        if country and all(fold(x) != fold(country) for x in parts):
            parts.append(country)
        return ", ".join(parts)

    def text(self, p, style):
        return self.city_state(p) if style == "CITY_STATE" else self.city_state_country(p)


def fold(s):
    return (s or "").replace(".", "").strip().lower()


def strip_repeats(city, names):
    folded = {fold(n) for n in names if n}
    pieces = [x.strip() for x in city.split(",")]
    while len(pieces) > 1 and fold(pieces[-1]) in folded:
        pieces.pop()
    return ", ".join(pieces)


def read_golden():
    with open(GOLDEN, encoding="utf-8", newline="") as f:
        lines = [line for line in f if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--conf", default=default_conf())
    ap.add_argument("--show", nargs=2, type=float, metavar=("LAT", "LON"))
    args = ap.parse_args()
    places = load_places()
    rules = Rules(args.conf)
    if args.show:
        for d, i in nearest(places, *args.show, k=3):
            p = places[i]
            print(f"{d:12.1f} m  #{i} {p['name']} | {p['admin1_name']} | {p['country_code']}  ->  "
                  f"{rules.text(p, 'CITY_STATE')!r}  {rules.text(p, 'CITY_STATE_COUNTRY')!r}")
        return 0
    bad = 0
    rows = read_golden()
    countries = set()
    by_id = {p["id"]: p for p in places}
    for row in rows:
        (d, i), (d2, _) = nearest(places, float(row["lat"]), float(row["lon"]))
        p = places[i]
        limit = float(row["max_distance_m"]) if row["max_distance_m"] else 50_000.0
        if d > limit:
            name = ""
            text = rules.city_state_country({**p, "name": ""}).lstrip(", ") if d <= 200_000 else ""
        else:
            p = by_id[p["locality_id"]] if p["locality_id"] else p
            name = p["name"]
            text = rules.text(p, row["style"])
        countries.add(p["country_code"])
        problems = []
        if name != row["name"]:
            problems.append(f"the locality is {name!r} (#{i} {places[i]['name']!r} is the nearest)")
        if text != row["text"]:
            problems.append(f"the rules give {text!r}")
        if d2 - d < 25:
            problems.append(f"the second nearest is only {d2 - d:.0f} m further")
        if problems:
            bad += 1
            print(f"{row['lat']},{row['lon']} {row['style']} {row['text']!r}: " + "; ".join(problems))
    print(f"{GOLDEN}: {len(rows)} rows, {len(countries)} countries, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
