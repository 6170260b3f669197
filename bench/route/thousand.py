"""The 1,000-stop goal of the best order, on more instances than bench/route/run's three: 13
instances of 1,000 stops (10 spread over a US-sized box, 3 in 12 clusters of towns), each
against the best of ten LKH-3 runs (elkai runs=10, about a minute an instance, 2 on the
clusters; cached in REFS), the library's default search for the given seeds beside it.

    python3 thousand.py REFS [SEEDS]    e.g. thousand.py build/bench/route/thousand.tsv 1,2,3

Prints each tour's gap and CPU time, then the mean gap, the tours above +0.1% and the worst.
Run by `bench/route/run --thousand` (a long run, not a CI step). Needs numpy, elkai, geoloc.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy

import geoloc
from peers import matrix, run_elkai, tour_length


def instance(k: int) -> numpy.ndarray:
    """Home and 1,000 stops (degrees), the same for the same k everywhere."""
    rng = numpy.random.default_rng(1000 + k)
    if k < 10:
        return numpy.column_stack([rng.uniform(25, 49, 1001), rng.uniform(-124, -67, 1001)])
    centres = numpy.column_stack([rng.uniform(27, 47, 12), rng.uniform(-120, -70, 12)])
    return centres[rng.integers(0, 12, 1001)] + rng.normal(0, 0.8, (1001, 2))


def references(path: Path) -> dict[int, float]:
    """The best of ten LKH-3 runs per instance, computed once into `path`."""
    known: dict[int, float] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            k, length = line.split("\t")[:2]
            known[int(k)] = float(length)
    for k in range(13):
        if k in known:
            continue
        m = matrix(instance(k))
        start = time.time()
        length = tour_length(m, run_elkai(m, 10))
        with path.open("a") as f:
            f.write("%d\t%.3f\t%.1f\n" % (k, length, time.time() - start))
        known[k] = length
        print("reference %d: %.3f m (elkai runs=10, %.0f s)" % (k, length, time.time() - start), flush=True)
    return known


def main() -> None:
    refs = references(Path(sys.argv[1]))
    seeds = [int(s) for s in (sys.argv[2] if len(sys.argv) > 2 else "1,2,3").split(",")]
    gaps, seconds = [], []
    for k in range(13):
        pts = instance(k)
        row = []
        for seed in seeds:
            start = time.process_time()
            r = geoloc.best_order(pts[0], pts[1:], seed=seed)
            spent = time.process_time() - start
            gap = 100 * (r.total / refs[k] - 1)
            gaps.append(gap)
            seconds.append(spent)
            row.append("%+.3f%% %5.0f ms" % (gap, 1000 * spent))
        print("%-9s %s" % ("cluster" if k >= 10 else "spread", "   ".join(row)), flush=True)
    print("mean gap %+.4f%%, %d of %d tours above +0.1%%, worst %+.3f%%; CPU mean %.0f ms, max %.0f ms"
          % (numpy.mean(gaps), sum(g > 0.1 for g in gaps), len(gaps), max(gaps), 1000 * numpy.mean(seconds),
             1000 * max(seconds)))


if __name__ == "__main__":
    main()
