#!/usr/bin/env python3
"""Prints bench/search/run's table from search_c's and peers.py's outputs."""
import sys

GOALS = {"exact": 99, "city_st": 99, "city_state": 99, "city_country": 99, "city_state_country": 99,
         "alternate": 97, "accents_case": 97, "typo1": 95, "typo2": 85, "prefix": 98}


def read(path):
    groups, info = {}, {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if not p:
                continue
            if p[0] == "group":
                groups[p[1]] = (int(p[2]), int(p[3]))
            else:
                info[p[0]] = p[1:]
    return groups, info


def main():
    g, gi = read(sys.argv[1])
    l, li = read(sys.argv[2])
    index_bytes, rss_kb, every = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    print("place search on tests/golden/search.tsv (top-1; top-5 for prefixes)")
    print(f"{'group':<20} {'libgeoloc':>16} {'localis 2.1.0':>16} {'goal':>6}")
    for name, goal in GOALS.items():
        a = g.get(name, (0, 0))
        b = l.get(name, (0, 0))
        fa = f"{100 * a[0] / a[1]:.1f}% ({a[1]})" if a[1] else "-"
        fb = f"{100 * b[0] / b[1]:.1f}% ({b[1]})" if b[1] else "-"
        print(f"{name:<20} {fa:>16} {fb:>16} {goal:>5}%")
    tg = gi["time_us"]
    tl = li["time_us"]
    med_g, p95_g = float(tg[1]), float(tg[3])
    med_l, p95_l = float(tl[1]), float(tl[3])
    print(f"{'median us/query':<20} {med_g:>16.1f} {med_l:>16.1f} {'50':>6}  ({med_l / med_g:.0f}x)")
    print(f"{'p95 us/query':<20} {p95_g:>16.1f} {p95_l:>16.1f} {'200':>6}  ({p95_l / p95_g:.0f}x)")
    print(f"{'max us/query':<20} {float(tg[7]):>16.1f} {float(tl[7]):>16.1f}")
    print(f"{'open/load ms':<20} {float(gi['open_ms'][0]):>16.2f} {float(li['open_ms'][0]):>16.1f} {'10':>6}")
    print(f"{'index MB (file)':<20} {index_bytes / 1e6:>16.1f} {'':>16} {'30':>6}")
    print(f"{'peak RSS MB':<20} {rss_kb / 1024:>16.0f} {float(li['rss_mb'][0]):>16.0f}")
    print(f"{'same answers again':<20} {gi['deterministic'][0]:>16} {li['deterministic'][0]:>16}")
    if every != "1":
        print(f"(localis ran every {every}th row)")


if __name__ == "__main__":
    main()
