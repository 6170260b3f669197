#!/usr/bin/env python3
"""Scores the postal form against the address-formatting project's public test cases.

    score_testcases.py TESTCASES_DIR [--abbreviate] [-v] [--only CC]

TESTCASES_DIR is the `testcases` folder of a checkout of OpenCageData/address-formatting (its
files are not part of this repository). Every case of countries/*.yaml and other/*.yaml (with
--abbreviate, also abbreviations/*.yaml, formatted with the abbreviation option) is formatted
through the Python door and compared, line for line, with its expected text. Prints the cases
that differ with -v, then one row per file that has a difference and the totals.

The library comes from GEOLOC_LIBRARY (as for the Python tests)."""

import argparse
import os
import sys

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import geoloc  # noqa: E402


def cases(path):
    with open(path, encoding="utf-8") as f:
        # Every scalar as text, as the reference formatter reads them ("01234" stays "01234").
        for doc in yaml.load_all(f, Loader=yaml.BaseLoader):
            if doc and "components" in doc and "expected" in doc:
                yield doc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("testcases")
    ap.add_argument("--abbreviate", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--only", help="only the files whose name starts with this")
    args = ap.parse_args()
    folders = ["countries", "other"] + (["abbreviations"] if args.abbreviate else [])
    total = passed = 0
    rows = []
    for folder in folders:
        d = os.path.join(args.testcases, folder)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if not name.endswith(".yaml") or (args.only and not name.startswith(args.only)):
                continue
            n = ok = 0
            for case in cases(os.path.join(d, name)):
                comps = [(k, None if v in ("~", "null") else v) for k, v in case["components"].items()]
                expected = case["expected"].strip("\n")
                kw = {"abbreviate": True} if folder == "abbreviations" else {}
                got = geoloc.format_address(comps, geoloc.AddressStyle.POSTAL, **kw)
                n += 1
                if got == expected:
                    ok += 1
                elif args.verbose:
                    print("== %s/%s: %s" % (folder, name, case.get("description", "")))
                    print("   components: %s" % case["components"])
                    print("   expected: %r" % expected)
                    print("   got:      %r" % got)
            total += n
            passed += ok
            if ok < n:
                rows.append("%s/%s\t%d/%d" % (folder, name, ok, n))
    for r in rows:
        print(r)
    print("total\t%d/%d exact (%.1f%%)" % (passed, total, 100.0 * passed / max(total, 1)))


if __name__ == "__main__":
    main()
