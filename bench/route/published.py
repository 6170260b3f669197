"""The best order on published TSPLIB instances beyond the four that tests/route ships: every
symmetric instance in a folder that holds a copy of TSPLIB 95 (Reinelt; NAME.tsp files, read by
tests/route/tsplib/tsplib.py), at default options for the given seeds, against the published
optima; --elkai adds one LKH-3 run (elkai runs=1) per instance for its time and gap.

    python3 published.py DIR [MIN MAX [SEEDS]] [--elkai]    e.g. published.py ~/tsplib 300 799 1-10

MIN and MAX bound the instances' DIMENSION (home and stops; default 200 to 799), seeds 1-3 by
default.
The optima are read from DIR/solutions ("name : optimum" lines, as TSPLIB lists them) or
DIR/optima.csv (name and optimum columns). Instances with a FIXED_EDGES_SECTION (linhp318) are
left out: their optimum is that of another problem. Prints, per instance, the runs at the
optimum, the runs within 0.1%, the worst gap and the mean CPU time, then the totals. Not a CI
step (TSPLIB is not shipped); needs numpy, geoloc, and elkai for --elkai.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy

import geoloc

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "route" / "tsplib"))
import tsplib  # noqa: E402


def optima(folder: Path) -> dict[str, int]:
    known: dict[str, int] = {}
    if (folder / "solutions").exists():
        for line in (folder / "solutions").read_text().splitlines():
            if ":" in line:
                name, value = line.split(":", 1)
                known[name.strip()] = int(value.split()[0])
    if (folder / "optima.csv").exists():
        for row in tsplib.optima(folder):
            known[row["name"]] = int(row["optimum"])
    return known


def seeds_of(text: str) -> list[int]:
    if "-" in text:
        a, b = text.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(s) for s in text.split(",")]


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    with_elkai = "--elkai" in sys.argv
    folder = Path(args[0])
    low, high = (int(args[1]), int(args[2])) if len(args) > 2 else (200, 799)
    seeds = seeds_of(args[3]) if len(args) > 3 else [1, 2, 3]
    known = optima(folder)
    runs = within = at_optimum = 0
    spent = 0.0
    failed: list[str] = []
    for path in sorted(folder.glob("*.tsp")):
        name = path.stem
        spec, _, _ = tsplib.read(path)
        symmetric = spec.get("TYPE", "").split()[:1] == ["TSP"]
        if not symmetric or name not in known or "FIXED_EDGES_SECTION" in path.read_text():
            continue
        n = int(spec["DIMENSION"])
        if not low <= n <= high:
            continue
        m = tsplib.matrix(name, folder)
        gaps, seconds = [], []
        for seed in seeds:
            start = time.process_time()
            r = geoloc.best_order_matrix(m, seed=seed)
            seconds.append(time.process_time() - start)
            gaps.append(100 * (r.total / known[name] - 1))
        good = sum(g <= 0.1 for g in gaps)
        best = sum(g <= 1e-9 for g in gaps)
        runs += len(gaps)
        within += good
        at_optimum += best
        spent += sum(seconds)
        if good < len(gaps):
            failed.append("%s (%d)" % (name, len(gaps) - good))
        line = "%-10s n=%5d  optimal %2d/%d  <=0.1%% %2d/%d  worst %+.4f%%  %7.1f ms" % (
            name, n, best, len(gaps), good, len(gaps), max(gaps), 1000 * numpy.mean(seconds))
        if with_elkai:
            from peers import run_elkai, tour_length

            start = time.process_time()
            t = run_elkai(m, 1)
            line += "   elkai runs=1 %+.4f%% %7.1f ms" % (
                100 * (tour_length(m, t) / known[name] - 1), 1000 * (time.process_time() - start))
        print(line, flush=True)
    print("%d runs: %d at the optimum, %d within 0.1%%; CPU %.1f s; above 0.1%%: %s"
          % (runs, at_optimum, within, spent, ", ".join(failed) or "none"))


if __name__ == "__main__":
    main()
