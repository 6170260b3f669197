#!/usr/bin/env python3
"""Writes tests/golden/search.tsv: the reference set of place search, derived from the GeoNames
data without the library.

    python3 tools/gen_search_golden.py [--check]

Inputs (all in the tree or from pinned Debian packages; nothing from libgeoloc's code):
- data/gazetteer/cities1000.tsv: the places (GeoNames cities1000: id, name, region, country,
  population);
- data/search/alternate_names.tsv: GeoNames' alternate names (tools/gen_search_names.py);
- data/search/countries.tsv: country names;
- Debian's iso-codes (4.15.0) /usr/share/iso-codes/json/iso_3166-2.json: the subdivision codes
  people write after a city ("ON", "NSW", "SP"), joined to GeoNames' region names by name.

Names are compared by a fold of this script's own (Python's unicodedata: NFKD, marks removed,
case folded, apostrophes removed, other punctuation and spaces as one space), independent of the
library's tables.

Who is meant. A name N means the place X when X is clearly its most prominent bearer: counting a
place's own name at its population and an alternate name at a tenth of it (a name a place is
known by in some language is weaker evidence than its own), X's count is at least twice every
other place's. A qualified query ("N, Q") means X when X is so among the places that fit Q.
Queries whose answer is not clear by this rule are not drawn. Places with population 0 are never
drawn.

Groups (seeded, 1 row each; `rank` is where X must be: 1, or 5 for prefixes):
- exact: own names, as written, 100 from each population band (1k-10k, 10k-100k, 100k-1M, 1M+).
- city_st: "Name, CODE" in the US (GeoNames admin1 = USPS), Canada, Australia, Brazil, Mexico
  (ISO 3166-2 codes joined by region name).
- city_state, city_country, city_state_country: "Name, Region", "Name, Country",
  "Name, Region, Country" by the gazetteer's own region and country names.
- alternate: alternate names (any script) of places of 100,000 or more that mean the place.
- accents_case: own names with accents removed ("Sao Paulo"), upper case, lower case, and
  accents removed and upper case (names with non-ASCII letters), places of 1,000 or more.
- typo1, typo2: one or two random edits (substitute, insert, delete a letter, or transpose two
  adjacent ones; letters a-z) on the folded own names of places of 15,000 or more with names of
  at least 5 (typo1) or 7 (typo2) letters; a misspelling that is any place's name is redrawn.
- prefix: the first 3 to 6 characters of the own names of places of 100,000 or more, run as
  autocomplete; drawn when X is among the 3 most prominent places whose names (own or
  alternate) start with them, so that a top-5 answer is possible.
"""

import argparse
import collections
import csv
import json
import os
import random
import sys
import unicodedata

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(REPO, "tests", "golden", "search.tsv")
ISO_3166_2 = "/usr/share/iso-codes/json/iso_3166-2.json"
SEED = 24
ST_COUNTRIES = ["US", "CA", "AU", "BR", "MX"]


def fold(s):
    out = []
    for ch in unicodedata.normalize("NFKD", s.casefold()):
        cat = unicodedata.category(ch)
        if cat.startswith("M"):
            continue
        if ch in "'’‘`´ʼʻʹʽ′":
            continue
        out.append(" " if cat[0] in "PSZC" else ch)
    return " ".join("".join(out).split())


def load():
    with open(os.path.join(REPO, "data", "gazetteer", "cities1000.tsv"), encoding="utf-8", newline="") as f:
        places = list(csv.DictReader(f, delimiter="\t"))
    for p in places:
        p["pop"] = int(p["population"] or 0)
    by_id = {p["id"]: i for i, p in enumerate(places)}
    alts = collections.defaultdict(list)
    with open(os.path.join(REPO, "data", "search", "alternate_names.tsv"), encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if parts[0] in by_id:
                alts[by_id[parts[0]]] = parts[1:]
    countries = {}
    with open(os.path.join(REPO, "data", "search", "countries.tsv"), encoding="utf-8") as f:
        for line in f:
            cc, iso3, name = line.rstrip("\n").split("\t")
            countries[cc] = name
    return places, alts, countries


def bearers(places, alts):
    """folded name -> {place: count} (own name: population; alternate: a tenth)."""
    names = collections.defaultdict(dict)
    for i, p in enumerate(places):
        k = fold(p["name"])
        if k:
            names[k][i] = max(names[k].get(i, 0), p["pop"])
        for a in alts.get(i, []):
            k = fold(a)
            if k:
                names[k][i] = max(names[k].get(i, 0), p["pop"] / 10)
    return names


def clear_winner(cands):
    """The place whose count is at least twice every other's, or None."""
    if not cands:
        return None
    ranked = sorted(cands.items(), key=lambda kv: -kv[1])
    best, count = ranked[0]
    if count <= 0:
        return None
    if len(ranked) > 1 and count < 2 * ranked[1][1]:
        return None
    return best


def iso_codes():
    with open(ISO_3166_2, encoding="utf-8") as f:
        subs = json.load(f)["3166-2"]
    out = collections.defaultdict(dict)  # cc -> folded region name -> code
    for s in subs:
        cc, code = s["code"].split("-", 1)
        out[cc][fold(s["name"])] = code
    return out


def edit(rng, word, n):
    letters = "abcdefghijklmnopqrstuvwxyz"
    w = list(word)
    for _ in range(n):
        positions = [i for i, c in enumerate(w) if c.isalpha()]
        op = rng.choice(["sub", "ins", "del", "swap"])
        i = rng.choice(positions)
        if op == "sub":
            w[i] = rng.choice([c for c in letters if c != w[i]])
        elif op == "ins":
            w.insert(i + rng.randint(0, 1), rng.choice(letters))
        elif op == "del" and len(positions) > 3:
            del w[i]
        elif i + 1 < len(w) and w[i + 1].isalpha() and w[i] != w[i + 1]:
            w[i], w[i + 1] = w[i + 1], w[i]
        else:
            w[i] = rng.choice([c for c in letters if c != w[i]])
    return "".join(w)


def osa(a, b):
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


def build():
    rng = random.Random(SEED)
    places, alts, countries = load()
    names = bearers(places, alts)
    rows = []

    def add(group, query, i, rank=1, how=""):
        p = places[i]
        rows.append([group, query, "prefix" if group == "prefix" else "", p["id"], str(rank), p["name"], p["country_code"], how])

    def means(query_name, filt=None):
        cands = names.get(fold(query_name), {})
        if filt:
            cands = {i: c for i, c in cands.items() if filt(places[i])}
        return clear_winner(cands)

    order = list(range(len(places)))
    rng.shuffle(order)

    # exact, by population band
    bands = [(1000, 10000), (10000, 100000), (100000, 1000000), (1000000, 10 ** 10)]
    for lo, hi in bands:
        k = 0
        for i in order:
            p = places[i]
            if lo <= p["pop"] < hi and means(p["name"]) == i:
                add("exact", p["name"], i, how=f"own name, population {lo}-{hi}")
                k += 1
                if k == 100:
                    break

    # City, ST
    codes = iso_codes()
    for cc in ST_COUNTRIES:
        k = 0
        for i in order:
            p = places[i]
            if p["country_code"] != cc or p["pop"] < 1000:
                continue
            if cc == "US":
                code = p["admin1_code"]
            else:
                code = codes[cc].get(fold(p["admin1_name"]))
            if not code:
                continue
            same_region = lambda q, p=p: q["country_code"] == p["country_code"] and q["admin1_code"] == p["admin1_code"]
            if means(p["name"], same_region) == i:
                add("city_st", f"{p['name']}, {code}", i, how=f"{cc} region code ({'USPS' if cc == 'US' else 'ISO 3166-2'})")
                k += 1
                if k == 60:
                    break

    # City, State / City, Country / City, State, Country
    for group, k_max in (("city_state", 150), ("city_country", 150), ("city_state_country", 150)):
        k = 0
        for i in order:
            p = places[i]
            if p["pop"] < 1000 or not p["country_name"]:
                continue
            if group != "city_country" and not p["admin1_name"]:
                continue
            if group == "city_country":
                filt = lambda q, p=p: q["country_code"] == p["country_code"]
                query = f"{p['name']}, {p['country_name']}"
            else:
                filt = lambda q, p=p: q["country_code"] == p["country_code"] and q["admin1_name"] == p["admin1_name"]
                query = f"{p['name']}, {p['admin1_name']}" + (f", {p['country_name']}" if group == "city_state_country" else "")
            if means(p["name"], filt) == i:
                add(group, query, i, how="gazetteer region/country names")
                k += 1
                if k == k_max:
                    break

    # alternate names
    k = 0
    seen = set()
    for i in order:
        p = places[i]
        if p["pop"] < 100000:
            continue
        own = fold(p["name"])
        cands = [a for a in alts.get(i, []) if fold(a) and fold(a) != own and fold(a) not in seen]
        rng.shuffle(cands)
        for a in cands[:2]:
            if means(a) == i:
                seen.add(fold(a))
                add("alternate", a, i, how="GeoNames alternate name")
                k += 1
        if k >= 400:
            break

    # accents and case
    k = 0
    for i in order:
        p = places[i]
        if p["pop"] < 1000 or p["name"].isascii() or means(p["name"]) != i:
            continue
        plain = "".join(c for c in unicodedata.normalize("NFKD", p["name"]) if not unicodedata.category(c).startswith("M"))
        form = k % 4
        q = [plain, p["name"].upper(), p["name"].lower(), plain.upper()][form]
        add("accents_case", q, i, how=["accents removed", "upper case", "lower case", "accents removed, upper case"][form])
        k += 1
        if k == 400:
            break

    # typing errors
    for group, edits, min_len in (("typo1", 1, 5), ("typo2", 2, 7)):
        k = 0
        for i in order:
            p = places[i]
            own = fold(p["name"])
            if p["pop"] < 15000 or len(own) < min_len or not own.isascii() or means(p["name"]) != i:
                continue
            for _ in range(5):
                q = edit(rng, own, edits)
                if q != own and q not in names and osa(q, own) == edits:
                    add(group, q, i, how=f"{edits} random edit(s) of the own name, population 15,000+")
                    k += 1
                    break
            if k == 400:
                break

    # prefixes
    keys_sorted = sorted(names)
    import bisect
    k = 0
    for i in order:
        p = places[i]
        own = fold(p["name"])
        if p["pop"] < 100000 or len(own) < 4:
            continue
        n = rng.randint(3, min(6, len(own) - 1))
        pre = own[:n].rstrip()
        if len(pre) < 3:
            continue
        best = {}
        j = bisect.bisect_left(keys_sorted, pre)
        while j < len(keys_sorted) and keys_sorted[j].startswith(pre):
            for c, v in names[keys_sorted[j]].items():
                best[c] = max(best.get(c, 0), v)
            j += 1
        top = sorted(best.items(), key=lambda kv: -kv[1])[:3]
        if i in [c for c, _ in top]:
            add("prefix", p["name"][:len(pre)] if fold(p["name"][:len(pre)]) == pre else pre, i, rank=5,
                how=f"first {len(pre)} characters; among the 3 most prominent of its prefix")
            k += 1
            if k == 400:
                break
    return rows


HEADER = """# The reference set of place search (issue 24), written by tools/gen_search_golden.py from the
# GeoNames data in the tree (data/gazetteer/cities1000.tsv, data/search/*.tsv) and Debian's
# iso-codes, without the library; the generator's docstring says how each expectation was made.
# group: exact, city_st, city_state, city_country, city_state_country, alternate, accents_case,
# typo1, typo2, prefix. mode: "prefix" for autocomplete. rank: the expected place must be within
# the first `rank` results. id: its GeoNames id.
"""


def render(rows):
    out = [HEADER, "group\tquery\tmode\tid\trank\tname\tcountry\thow\n"]
    for r in rows:
        out.append("\t".join(x.replace("\t", " ") for x in r) + "\n")
    return "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    text = render(build())
    if args.check:
        with open(OUT, encoding="utf-8") as f:
            same = f.read() == text
        print(f"{OUT}: {'up to date' if same else 'differs'}")
        return 0 if same else 1
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    counts = collections.Counter(line.split("\t")[0] for line in text.splitlines()[8:])
    print(f"{OUT}: " + ", ".join(f"{g} {n}" for g, n in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
