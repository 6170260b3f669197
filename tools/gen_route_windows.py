#!/usr/bin/env python3
"""Generates the opening-hours instances of tests/route/windows and their optima.

The instances follow the construction Dumas, Desrosiers, Gelinas and Solomon (Operations
Research 43(2), 1995) describe for their TSPTW set: n stops and home at integer points of a
50 x 50 square, travel times the Euclidean distances rounded down, and around the arrival
times of a random tour through all stops a window of width at most W (n = 20 to 200, W = 20
to 100), so that every instance has a feasible order. They are generated here, with a fixed
seed per instance (numpy's PCG64), not copied from the published set.

Optima are computed by this script's own exact search, independent of the library: a
label-setting dynamic program over (set of visited stops, last stop) keeping the labels that
no other beats on both the departure time and the travel so far, with the same reachability
test (every unvisited stop's latest time, over shortest travel times). An instance whose search
exceeds the label budget is written with status "unknown" and no optimum.

    python3 tools/gen_route_windows.py [OUT_DIR]   (default tests/route/windows)

Files: NAME.txt (first line n; then the (n + 1) x (n + 1) travel times row by row; then n lines
"earliest latest service"; then "departure return_by"), optimal.csv (name, n, width, travel,
status). Needs numpy.
"""
import sys
from pathlib import Path

import numpy

SIZES = (20, 40, 60, 80, 100, 150, 200)
WIDTHS = (20, 40, 60, 80, 100)
LABEL_BUDGET = 3_000_000


def instance(n, width, seed):
    rng = numpy.random.Generator(numpy.random.PCG64(seed))
    xy = rng.integers(0, 51, (n + 1, 2)).astype(float)
    t = numpy.floor(numpy.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1)))
    perm = rng.permutation(n) + 1
    time, prev = 0.0, 0
    w = numpy.zeros((n + 1, 2))
    for s in perm:
        time += t[prev, s]
        prev = s
        w[s] = [max(0.0, time - float(rng.integers(0, width // 2 + 1))), time + float(rng.integers(0, width // 2 + 1))]
    return t, w[1:], time + t[prev, 0] + width


def optimum(t, w, ret):
    """Least travel of a round trip meeting every window, or None past the label budget."""
    n = len(w)
    size = n + 1
    sp = t.copy()
    for k in range(size):
        sp = numpy.minimum(sp, sp[:, k:k + 1] + sp[k:k + 1, :])
    early = [0.0] + [float(x) for x in w[:, 0]]
    late = [float("inf")] + [float(x) for x in w[:, 1]]
    tl = t.tolist()
    spl = sp.tolist()
    layer = {}
    for j in range(1, size):
        if tl[0][j] <= late[j]:
            layer[(1 << (j - 1), j)] = [(max(tl[0][j], early[j]), tl[0][j])]
    labels = len(layer)
    full = (1 << n) - 1
    for _ in range(n - 1):
        nxt = {}
        for (mask, i), lst in layer.items():
            free = [s for s in range(1, size) if not mask >> (s - 1) & 1]
            for time, cost in lst:
                for j in free:
                    arrival = time + tl[i][j]
                    if arrival > late[j]:
                        continue
                    tj = max(arrival, early[j])
                    if any(tj + spl[j][s] > late[s] for s in free if s != j) or tj + spl[j][0] > ret:
                        continue
                    key = (mask | 1 << (j - 1), j)
                    cj = cost + tl[i][j]
                    cur = nxt.setdefault(key, [])
                    if any(a <= tj and b <= cj for a, b in cur):
                        continue
                    cur[:] = [(a, b) for a, b in cur if not (a >= tj and b >= cj)] + [(tj, cj)]
                    labels += 1
                    if labels > LABEL_BUDGET:
                        return None
        layer = nxt
    best = None
    for (mask, i), lst in layer.items():
        if mask != full:
            continue
        for time, cost in lst:
            if time + tl[i][0] <= ret and (best is None or cost + tl[i][0] < best):
                best = cost + tl[i][0]
    return best


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "tests/route/windows")
    out.mkdir(parents=True, exist_ok=True)
    rows = ["name,n,width,travel,status"]
    for n in SIZES:
        for width in WIDTHS:
            name = "dumas_n%03d_w%03d" % (n, width)
            t, w, ret = instance(n, width, 22_000 + 1000 * n + width)
            with open(out / (name + ".txt"), "w") as f:
                f.write("%d\n" % n)
                for row in t:
                    f.write(" ".join("%d" % x for x in row) + "\n")
                for e, l in w:
                    f.write("%d %d 0\n" % (e, l))
                f.write("0 %d\n" % ret)
            best = optimum(t, w, ret)
            rows.append("%s,%d,%d,%s,%s" % (name, n, width, "" if best is None else "%d" % best,
                                            "unknown" if best is None else "optimal"))
            print(rows[-1], flush=True)
    (out / "optimal.csv").write_text("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
