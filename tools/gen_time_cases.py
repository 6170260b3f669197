#!/usr/bin/env python3
"""Writes tests/time/zoneinfo.txt: local time as Python's zoneinfo gives it, with the pinned
`tzdata` package (the release data/time/zoneinfo.rules is built from), for every zone at every
transition from 1970 through 2037 and at instants of the far past and far future. The Swift and
C tests check the library against it; the Python tests ask zoneinfo directly.

    python3 tools/gen_time_cases.py [--wheel tzdata-2026.6-py2.py3-none-any.whl] [--out FILE]

zoneinfo's own rules (its transition list and the footer's yearly rules) propose the candidate
instants; a candidate is a transition when the offset, the DST flag (dst() != 0) or the
abbreviation at it differs from the second before. A sweep at every 6 hours then checks that no
change was missed between the transitions found. For every transition that moves the clocks,
the generator also checks zoneinfo's reading of each local time in the gap or fold (fold=0 and
fold=1) against the offsets before and after, which is what the Swift and C tests expect of
the library's reverse lookup.

The file, one record a line:
    # comment
    Z name                  a zone (its records follow)
    S t offset dst abbr     the state from instant t (Unix seconds) on; the first S of a zone is
                            its state at 1970-01-01T00:00:00Z (t = 0, not a transition)
    P t offset dst abbr     the state at a sample instant outside 1970-2037
    L name target           a link: name's TZif file is the same as target's
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import gen_time_rules  # noqa: E402  (the pinned wheel)

START = 0  # 1970-01-01T00:00:00Z
END = int(datetime(2038, 1, 1, tzinfo=timezone.utc).timestamp())
SWEEP = 6 * 3600
SAMPLES = [
    (1800, 1, 1), (1850, 6, 15), (1883, 11, 18), (1900, 1, 1), (1920, 7, 1), (1945, 8, 15),
    (1960, 1, 1), (2038, 1, 19), (2040, 7, 1), (2055, 12, 25), (2100, 3, 14), (2199, 10, 31),
    (2400, 2, 29), (3000, 6, 1), (9999, 12, 30),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wheel", type=Path)
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "time" / "zoneinfo.txt")
    args = parser.parse_args()
    wheel = args.wheel or gen_time_rules.fetch_wheel()
    # The wheel is a zip: import tzdata from it, and make zoneinfo read only that package.
    sys.path.insert(0, str(wheel))
    import tzdata
    import zoneinfo
    import zoneinfo._zoneinfo

    zoneinfo.reset_tzpath(to=[])
    import zipfile

    with zipfile.ZipFile(wheel) as z:
        names = sorted(z.read("tzdata/zones").decode().split(), key=lambda s: s.encode())
        content = {n: z.read(f"tzdata/zoneinfo/{n}") for n in names}
        zi_lines = z.read("tzdata/zoneinfo/tzdata.zi").decode().splitlines()
    # A group of names with one TZif file is listed under its zone (a Z line of tzdata.zi), the
    # others as links to it.
    zones = {line.split()[1] for line in zi_lines if line.startswith("Z ")}
    names.sort(key=lambda n: (n not in zones, n.encode()))

    out = [f"# Local time from Python {sys.version.split()[0]} zoneinfo with tzdata {tzdata.__version__} "
           f"(IANA {tzdata.IANA_VERSION}), written by tools/gen_time_cases.py. See that file for the format."]
    canonical: dict[bytes, str] = {}
    links = []
    transitions = 0
    for name in names:
        if content[name] in canonical:
            links.append((name, canonical[content[name]]))
            continue
        canonical[content[name]] = name
        zi = zoneinfo.ZoneInfo(name)
        rows = zone_rows(name, zi, zoneinfo._zoneinfo.ZoneInfo.no_cache(name))
        transitions += len(rows) - 1
        out.append(f"Z {name}")
        out.extend(f"S {t} {off} {dst} {abbr}" for t, (off, dst, abbr) in rows)
        for y, m, d in SAMPLES:
            t = int(datetime(y, m, d, 12, tzinfo=timezone.utc).timestamp())
            off, dst, abbr = state(zi, t)
            out.append(f"P {t} {off} {dst} {abbr}")
    out.extend(f"L {name} {target}" for name, target in sorted(links))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(out) + "\n")
    print(f"{args.out}: {len(canonical)} zones, {len(links)} links, {transitions} transitions")


def state(zi, t):
    d = datetime.fromtimestamp(t, tz=timezone.utc).astimezone(zi)
    return int(d.utcoffset().total_seconds()), int(d.dst() != timedelta(0)), d.tzname()


def zone_rows(name, zi, rules):
    # The pure-Python implementation's rules propose candidates; the C one answers.
    candidates = set(t for t in rules._trans_utc if START < t < END)
    after = rules._tz_after
    if hasattr(after, "transitions"):
        for year in range(1969, 2039):
            start, end = after.transitions(year)
            for c in (start - int(after.std.utcoff.total_seconds()), end - int(after.dst.utcoff.total_seconds())):
                if START < c < END:
                    candidates.add(c)
    rows = [(START, state(zi, START))]
    for c in sorted(candidates):
        s = state(zi, c)
        if s != state(zi, c - 1):
            rows.append((c, s))
    # Nothing missed: the state is constant between the transitions found.
    k = 0
    for t in range(START, END, SWEEP):
        while k + 1 < len(rows) and rows[k + 1][0] <= t:
            k += 1
        if state(zi, t) != rows[k][1]:
            sys.exit(f"{name}: a change before {t} was missed")
    # The reverse: each local time in a gap or fold reads as the offsets before and after say.
    for (t0, before), (t, now) in zip(rows, rows[1:]):
        ob, oa = before[0], now[0]
        if ob == oa:
            continue
        for local in sorted({t + min(ob, oa), t + max(ob, oa) - 1, t + (ob + oa) // 2}):
            wall = datetime(1970, 1, 1) + timedelta(seconds=local)
            got = [int(wall.replace(tzinfo=zi, fold=f).timestamp()) for f in (0, 1)]
            if got != [local - ob, local - oa]:
                sys.exit(f"{name}: local {wall} at the transition {t} reads as {got}, not {[local - ob, local - oa]}")
    return rows


if __name__ == "__main__":
    main()
