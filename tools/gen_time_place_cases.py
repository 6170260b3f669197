#!/usr/bin/env python3
"""Writes tests/time/places.txt: the local time at real places (city centres, islands, the open
sea) as Python's zoneinfo gives it with the pinned `tzdata` package (the release
data/time/zoneinfo.rules is built from), for the tests of "local time at a point" in the three
doors: the library looks up the zone at the point on the shipped map, then reads its rules.

    build/peers/bin/python tools/gen_time_place_cases.py [--wheel tzdata-2026.6-py2.py3-none-any.whl]

Each place's zone is written here by hand (the zone people there live by); when timezonefinder
is importable (bench/time/run puts it in build/peers), the generator checks that its
full-precision answer is the same, and stops if not. The instants: mid-January and mid-July
2026 at 12:00 UTC, and each transition of 2026 and the second before it (both sides of a
daylight-saving change).

The file, tab-separated, one instant a line ('#' starts a comment):
    place lat lon zone instant offset_s dst abbreviation year month day hour minute second
    weekday day_of_year next_transition
next_transition is the first instant after `instant` at which the offset, the DST flag or the
abbreviation changes, or "?" when there is none before 2029 (the table does not check it then).
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import gen_time_rules  # noqa: E402  (the pinned wheel)

# (place, latitude, longitude, zone): city centres and places people stand at.
PLACES = [
    ("New York, City Hall", 40.712772, -74.006058, "America/New_York"),
    ("Chicago, the Loop", 41.878114, -87.629798, "America/Chicago"),
    ("Phoenix", 33.448377, -112.074037, "America/Phoenix"),
    ("St. John's, Newfoundland", 47.561510, -52.712577, "America/St_Johns"),
    ("Santiago, Plaza de Armas", -33.437800, -70.650450, "America/Santiago"),
    ("London, Charing Cross", 51.507351, -0.127758, "Europe/London"),
    ("Casablanca", 33.573110, -7.589843, "Africa/Casablanca"),
    ("Tehran", 35.689198, 51.388974, "Asia/Tehran"),
    ("Kolkata", 22.572646, 88.363895, "Asia/Kolkata"),
    ("Kathmandu", 27.717245, 85.323961, "Asia/Kathmandu"),
    ("Urumqi", 43.825592, 87.616848, "Asia/Urumqi"),
    ("Tokyo", 35.676192, 139.650311, "Asia/Tokyo"),
    ("Adelaide", -34.928499, 138.600746, "Australia/Adelaide"),
    ("Eucla", -31.677000, 128.889000, "Australia/Eucla"),
    ("Sydney", -33.868820, 151.209296, "Australia/Sydney"),
    ("Lord Howe Island", -31.553050, 159.083900, "Australia/Lord_Howe"),
    ("Chatham Islands, Waitangi", -43.953500, -176.559700, "Pacific/Chatham"),
    ("Apia", -13.833333, -171.766667, "Pacific/Apia"),
    ("Kiritimati", 1.872100, -157.427800, "Pacific/Kiritimati"),
    ("Pacific Ocean", 0.0, -150.0, "Etc/GMT+10"),
    ("Indian Ocean", -30.0, 75.0, "Etc/GMT-5"),
    ("North Atlantic", 35.0, -40.0, "Etc/GMT+3"),
    ("South Pacific, east of the date line", -40.0, -179.0, "Etc/GMT+12"),
]

YEAR_START = int(datetime(2026, 1, 1, tzinfo=timezone.utc).timestamp())
YEAR_END = int(datetime(2027, 1, 1, tzinfo=timezone.utc).timestamp())
SCAN_END = int(datetime(2029, 1, 1, tzinfo=timezone.utc).timestamp())
FIXED = [int(datetime(2026, m, 15, 12, tzinfo=timezone.utc).timestamp()) for m in (1, 7)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wheel", type=Path)
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "time" / "places.txt")
    args = parser.parse_args()
    wheel = args.wheel or gen_time_rules.fetch_wheel()
    sys.path.insert(0, str(wheel))
    import tzdata
    import zoneinfo

    zoneinfo.reset_tzpath(to=[])
    try:
        from timezonefinder import TimezoneFinder

        finder = TimezoneFinder()
    except ImportError:
        finder = None
        print("timezonefinder is not importable: the zones are not checked", file=sys.stderr)

    def state(zi, t):
        d = datetime.fromtimestamp(t, tz=timezone.utc).astimezone(zi)
        return int(d.utcoffset().total_seconds()), d.dst() != timedelta(0), d.tzname(), d

    def transitions(zi):
        """Every instant in [2026, 2029) where the state differs from the second before."""
        found = []
        t = YEAR_START
        step = 1800
        while t < SCAN_END:
            if state(zi, t)[:3] != state(zi, t + step)[:3]:
                lo, hi = t, t + step  # state(lo) != state(hi): find the first second of the new
                while hi - lo > 1:
                    mid = (lo + hi) // 2
                    if state(zi, mid)[:3] == state(zi, lo)[:3]:
                        lo = mid
                    else:
                        hi = mid
                found.append(hi)
            t += step
        return found

    lines = [
        f"# Local time at places from Python {sys.version.split()[0]} zoneinfo with tzdata {tzdata.__version__} "
        f"(IANA {tzdata.IANA_VERSION}), written by tools/gen_time_place_cases.py. See that file for the format.",
    ]
    for place, lat, lon, zone in PLACES:
        if finder is not None:
            found = finder.timezone_at(lat=lat, lng=lon)
            if found != zone:
                sys.exit(f"{place} ({lat}, {lon}): timezonefinder says {found}, the table {zone}")
        zi = zoneinfo.ZoneInfo(zone)
        changes = transitions(zi)
        instants = set(FIXED)
        for c in changes:
            if c < YEAR_END:
                instants.update((c - 1, c))
        for t in sorted(instants):
            offset, dst, abbr, d = state(zi, t)
            nxt = next((c for c in changes if c > t), None)
            fields = [place, f"{lat:.6f}", f"{lon:.6f}", zone, str(t), str(offset), str(int(dst)), abbr,
                      str(d.year), str(d.month), str(d.day), str(d.hour), str(d.minute), str(d.second),
                      str(d.isoweekday()), str(d.timetuple().tm_yday), "?" if nxt is None else str(nxt)]
            lines.append("\t".join(fields))
    args.out.write_text("\n".join(lines) + "\n")
    print(f"{args.out}: {len(lines) - 1} instants at {len(PLACES)} places")


if __name__ == "__main__":
    main()
