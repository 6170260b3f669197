#!/usr/bin/env python3
"""Local time beside Python's zoneinfo, in one run: one instant per call, and the local times
and local dates of a million instants of one zone (a day of fixes, in time order and shuffled).

    GEOLOC_LIBRARY=build/libgeoloc.so python3 bench/time/local_time.py [--n 1000000]

zoneinfo reads the same release (the pinned tzdata wheel in build/tzdata/ when present,
otherwise whatever it finds); the library its shipped rules (GEOLOC_ZONEINFO=none). Prints
microseconds per call and instants per second, and the ratios.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
os.environ.setdefault("GEOLOC_ZONEINFO", "none")
sys.path.insert(0, str(ROOT / "python"))
wheel = ROOT / "build" / "tzdata" / "tzdata-2026.6-py2.py3-none-any.whl"
if wheel.exists():
    sys.path.insert(0, str(wheel))

import numpy  # noqa: E402
import zoneinfo  # noqa: E402

import geoloc  # noqa: E402


def best(fn, repeat=5):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--zone", default="America/New_York")
    args = parser.parse_args()
    if wheel.exists():
        zoneinfo.reset_tzpath(to=[])
    zi = zoneinfo.ZoneInfo(args.zone)
    n = args.n
    rng = numpy.random.default_rng(1)
    # A year of fixes (2026), one every ~31 s, in order; and the same shuffled.
    start = 1767225600
    ordered = numpy.sort(start + rng.uniform(0, 365 * 86400, n))
    shuffled = ordered[rng.permutation(n)]
    k = 20000
    singles = [int(t) for t in shuffled[:k]]

    print("libgeoloc %s, rules %s; zoneinfo with tzdata %s; zone %s; %d instants"
          % (geoloc.library_version(), geoloc.tzdata_version(),
             getattr(sys.modules.get("tzdata"), "__version__", "?") if "tzdata" in sys.modules or wheel.exists() else "system",
             args.zone, n))
    rows = []
    g = best(lambda: [geoloc.local_time(args.zone, t) for t in singles], 3) / k
    z = best(lambda: [datetime.fromtimestamp(t, tz=zi) for t in singles], 3) / k
    rows.append(("one instant per call (us)", g * 1e6, z * 1e6, z / g))
    for label, arr in (("in order", ordered), ("shuffled", shuffled)):
        g = best(lambda: geoloc.local_times(args.zone, arr))
        sample = arr[:100000].tolist()
        z = best(lambda: [datetime.fromtimestamp(t, tz=zi) for t in sample], 3) * n / len(sample)
        rows.append(("local_times, %s (M/s)" % label, n / g / 1e6, n / z / 1e6, z / g))
    g = best(lambda: geoloc.local_dates(args.zone, ordered))
    sample = ordered[:100000].tolist()
    z = best(lambda: [datetime.fromtimestamp(t, tz=zi).date() for t in sample], 3) * n / len(sample)
    rows.append(("local_dates, in order (M/s)", n / g / 1e6, n / z / 1e6, z / g))
    print("%-32s %12s %12s %8s" % ("", "libgeoloc", "zoneinfo", "ratio"))
    for label, a, b, r in rows:
        print("%-32s %12.3f %12.3f %7.1fx" % (label, a, b, r))
    # The answers agree on the sample.
    lt = geoloc.local_times(args.zone, shuffled[:1000])
    for t, row in zip(shuffled[:1000], lt):
        d = datetime.fromtimestamp(int(t // 1), tz=zi)
        assert (int(row["hour"]), row["abbreviation"].decode()) == (d.hour, d.tzname())


if __name__ == "__main__":
    main()
