#!/usr/bin/env python3
"""Builds data/time/timezones.zones, the time-zone map libgeoloc ships (the zone at a point).

Source: the boundaries of timezone-boundary-builder (release 2026c, ODbL 1.0, with the nautical
zones at sea) as the PyPI package timezonefinder-data 3.2026.3.post1 carries them, read through
timezonefinder 9.0.0 (the package's own reader: its coordinates are bit-packed). Both are pinned;
this script installs them into a virtual environment of its own (`--venv`, default
build/tzgen-venv) with pip and runs itself there. The build never runs this: the output is
committed.

What it writes (the format is specified at the top of Sources/GeoLoc/Time/TimeZoneFile.swift):

1. Every polygon ring of the source, in its integer coordinates (1e-6 degree: the source's own
   grid; timezonefinder stores them as multiples of ten 1e-7 units), becomes edges. An edge that
   two rings share (the border of two zones, stored once in each) is kept once, with the set of
   zones whose parity it flips: the zones of the rings holding it an odd number of times (two
   rings of one zone sharing an edge cancel; a border of two zones flips both; where three
   polygons overlap along an edge it flips three).
2. The kept edges, in the rings' order, are joined into chains (runs with one set of zones).
3. An index: a grid of 2^24 x 2^24 cells (in 1e-7 degree), each split 4 x 4 again, to a depth
   of 8 (cells of 256 x 256 units, about 2.8 m), wherever a cell holds more than MAX_EDGES edges.
   A cell no edge touches holds its zone (or a rule, for the source's gaps). A leaf cell holds
   the pieces of the chains that touch it, the zones its point-in-zone parities start from at its
   south-east corner, and where edges cross its east side.
4. The zone of a point in a leaf: the zones at the corner, flipped by every edge crossed on the
   way from the corner up the east side and then west along the point's row: exactly the parity
   of a ray cast from the point to the east, timezonefinder's rule (a point on an edge counts as
   left of it; a vertex on the row counts for the edge whose upper end it is).

Where the source's polygons of several zones overlap (disputed areas, and slivers along some
borders), the point gets the zone with the smallest total area (the most specific claim); where
they leave a gap (100 specks, 0.3 km^2 in all, where the nautical zones meet the coast), the
nautical zone of its longitude.

Usage:
    python3 tools/gen_timezones.py             # writes data/time/timezones.zones
    python3 tools/gen_timezones.py --check N   # also checks N random points and N points near
                                               # borders against timezonefinder (through a
                                               # reader of the written file in this script)

The output is deterministic: the same inputs give the same bytes.
"""

import argparse
import os
import struct
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(REPO, "data", "time", "timezones.zones")
PINNED = {"timezonefinder": "9.0.0", "timezonefinder-data": "3.2026.3.post1", "numpy": "2.4.6"}

# Units: Q = 1e-7 degree, shifted so that both axes start at 0 (what a query is truncated to,
# timezonefinder's grid); U = 1e-6 degree, shifted alike (the source's vertices: Q = 10 U).
QX0 = 1_800_000_000
QY0 = 900_000_000
ROOT_SHIFT = 24
MAX_DEPTH = 8
MAX_EDGES = 128
BLOCK_EDGES = 48
FORMAT_VERSION = 2
LEAF_BLOCK_SHIFT = 12
LEAF_BLOCK_BYTES = 1 << LEAF_BLOCK_SHIFT
HEADER_SIZE = 128
ZONE_BITS = 9

TAG_ZONE, TAG_NODE, TAG_LEAF, TAG_NAUTICAL = 0, 1, 2, 3


def ensure_environment(venv):
    """Runs this script again inside a venv with the pinned packages, unless already there."""
    try:
        from importlib.metadata import version
        if all(version(p) == v for p, v in PINNED.items()):
            return
    except Exception:
        pass
    if os.environ.get("GEOLOC_TZGEN_REEXEC"):
        sys.exit("gen_timezones: the pinned packages are not importable in " + sys.executable)
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    cmd = [python, "-m", "pip", "install", "--disable-pip-version-check", "-q"] + [f"{p}=={v}" for p, v in PINNED.items()]
    print("gen_timezones: " + " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True, stdout=sys.stderr)
    env = dict(os.environ, GEOLOC_TZGEN_REEXEC="1")
    os.execve(python, [python] + sys.argv, env)


# ---------------------------------------------------------------------------------------------
# Reading the source


def read_source():
    """Rings (x, y in U, int64), their zone ids, the zone names and the data version."""
    import numpy as np
    from timezonefinder import TimezoneFinder
    import timezonefinder_data

    tf = TimezoneFinder()
    names = list(tf.timezone_names)
    xs, ys, ring_zone, ring_poly = [], [], [], []
    for pid in range(tf.nr_of_polygons):
        z = int(tf.zone_id_of(pid))
        rings = [np.asarray(tf.coords_of(pid))] + [np.asarray(h) for h in tf._holes_of_poly(pid)]
        for r in rings:
            if np.any(r % 10 != 0):
                sys.exit("gen_timezones: a coordinate is off the source's 1e-6 degree grid")
            xs.append(r[0].astype(np.int64) // 10 + QX0 // 10)
            ys.append(r[1].astype(np.int64) // 10 + QY0 // 10)
            ring_zone.append(z)
            ring_poly.append(pid)
    version = tf.data_version
    tf.cleanup() if hasattr(tf, "cleanup") else None
    return xs, ys, np.array(ring_zone), np.array(ring_poly), names, version, timezonefinder_data.__version__


# ---------------------------------------------------------------------------------------------
# Edges and chains


def build_edges(xs, ys, ring_zone, nzones):
    """Unique edges (x1, y1, x2, y2 in U), their zone sets (Python int bit sets) and chains."""
    import numpy as np

    lens = np.array([len(x) for x in xs])
    x = np.concatenate(xs)
    y = np.concatenate(ys)
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
    ends = starts + lens
    nxt = np.arange(len(x)) + 1
    nxt[ends - 1] = starts
    ring = np.repeat(np.arange(len(lens)), lens)
    zone = ring_zone[ring]
    k1 = (x << 32) | y
    k2 = (x[nxt] << 32) | y[nxt]
    lo = np.minimum(k1, k2)
    hi = np.maximum(k1, k2)
    if np.any(lo == hi):
        sys.exit("gen_timezones: a ring repeats a vertex")
    order = np.lexsort((np.arange(len(x)), hi, lo))
    lo_s, hi_s = lo[order], hi[order]
    new_group = np.ones(len(order), bool)
    new_group[1:] = (lo_s[1:] != lo_s[:-1]) | (hi_s[1:] != hi_s[:-1])
    group_of_sorted = np.cumsum(new_group) - 1
    group = np.empty(len(x), np.int64)
    group[order] = group_of_sorted
    first = np.zeros(len(x), bool)
    first[order[new_group]] = True
    ngroups = int(group_of_sorted[-1]) + 1
    # Zone sets: XOR of the zones' bits over each group.
    zsets = [0] * ngroups
    for g, z in zip(group.tolist(), zone.tolist()):
        zsets[g] ^= 1 << z
    zset_of_edge = [zsets[g] for g in group.tolist()]
    keep = first & np.array([s != 0 for s in zsets], bool)[group]
    # Chains: runs of kept edges along a ring with one zone set.
    chains = []  # (list of vertex indices into x/y, zone set)
    kept_idx = np.flatnonzero(keep)
    cur = []
    cur_set = None
    prev = -2
    for i in kept_idx.tolist():
        s = zset_of_edge[i]
        if cur and (i != prev + 1 or s != cur_set or i in _ring_starts(starts, i)):
            chains.append((cur, cur_set))
            cur = []
        if not cur:
            cur = [i, int(nxt[i])]
            cur_set = s
        else:
            cur.append(int(nxt[i]))
        prev = i
    if cur:
        chains.append((cur, cur_set))
    return x, y, chains


_start_set = None


def _ring_starts(starts, i):
    global _start_set
    if _start_set is None:
        _start_set = set(starts.tolist())
    return (i,) if i in _start_set else ()


# ---------------------------------------------------------------------------------------------
# Exact predicates (numpy, with an exact fallback near zero)


def side_ge(ex1, ey1, ex2, ey2, qx2, qy):
    """For edges (Q units) whose row test holds at qy: x_e(qy) >= qx, with qx given doubled
    (qx2 = 2 qx, so that half-integers are exact). Vectorised over edges and points alike."""
    import numpy as np

    dx = (ex2 - ex1).astype(np.float64)
    dy = (ey2 - ey1).astype(np.float64)
    a = dx * (2.0 * (qy - ey1).astype(np.float64))
    b = (qx2 - 2 * ex1).astype(np.float64) * dy
    cross = a - b
    sgn = np.sign(dy)
    res = cross * sgn >= 0
    unsure = np.abs(cross) < 1e6 + 1e-12 * (np.abs(a) + np.abs(b))
    if np.any(unsure):
        idx = np.flatnonzero(unsure)
        b_ex1 = np.broadcast_to(ex1, cross.shape)[idx]
        b_ey1 = np.broadcast_to(ey1, cross.shape)[idx]
        b_ex2 = np.broadcast_to(ex2, cross.shape)[idx]
        b_ey2 = np.broadcast_to(ey2, cross.shape)[idx]
        b_qx2 = np.broadcast_to(qx2, cross.shape)[idx]
        b_qy = np.broadcast_to(qy, cross.shape)[idx]
        for k, j in enumerate(idx.tolist()):
            x1, y1, x2, y2 = int(b_ex1[k]), int(b_ey1[k]), int(b_ex2[k]), int(b_ey2[k])
            c = (x2 - x1) * 2 * (int(b_qy[k]) - y1) - (int(b_qx2[k]) - 2 * x1) * (y2 - y1)
            res.flat[j] = (c >= 0) if y2 > y1 else (c <= 0)
    return res


def row_hits(ey1, ey2, qy):
    """qy in (min(y1, y2), max(y1, y2)]: the edge counts on the row (timezonefinder's rule)."""
    return (qy > ey1) != (qy > ey2)


def xor_sets(sets, selected):
    out = 0
    for s, on in zip(sets, selected):
        if on:
            out ^= s
    return out


# ---------------------------------------------------------------------------------------------
# The index


class Builder:
    def __init__(self, x, y, chains, nzones, rank, nautical_zone):
        import numpy as np

        self.np = np
        # Edges in Q units, with their chain and position.
        e1, e2, ch, pos = [], [], [], []
        self.chain_sets = []
        self.chain_vertices = []
        for c, (verts, s) in enumerate(chains):
            v = np.asarray(verts)
            e1.append(v[:-1])
            e2.append(v[1:])
            ch.append(np.full(len(v) - 1, c))
            pos.append(np.arange(len(v) - 1))
            self.chain_sets.append(s)
            self.chain_vertices.append(v)
        e1 = np.concatenate(e1)
        e2 = np.concatenate(e2)
        self.ux, self.uy = x, y
        self.ex1 = x[e1] * 10
        self.ey1 = y[e1] * 10
        self.ex2 = x[e2] * 10
        self.ey2 = y[e2] * 10
        self.echain = np.concatenate(ch)
        self.epos = np.concatenate(pos)
        self.eset = [self.chain_sets[c] for c in self.echain.tolist()]
        self.xmin = np.minimum(self.ex1, self.ex2)
        self.xmax = np.maximum(self.ex1, self.ex2)
        self.ymin = np.minimum(self.ey1, self.ey2)
        self.ymax = np.maximum(self.ey1, self.ey2)
        self.rank = rank
        self.nautical_zone = nautical_zone
        self.node_count = 0
        self.only_rows = None
        self.only_cols = None
        self.leaf_bytes = 0
        self.leaf_count = 0
        self.uniform_count = 0
        self.stats = {"leaf_edges": 0, "max_leaf_edges": 0, "chains": 0, "thresholds": 0}

    # -- geometry

    def touching(self, idx, X0, Y0, S):
        """The edges of `idx` that touch the closed box [X0 - 1, X0 + S] x [Y0 - 1, Y0 + S]."""
        np = self.np
        bx0, by0, bx1, by1 = X0 - 1, Y0 - 1, X0 + S, Y0 + S
        m = (self.xmax[idx] >= bx0) & (self.xmin[idx] <= bx1) & (self.ymax[idx] >= by0) & (self.ymin[idx] <= by1)
        idx = idx[m]
        if len(idx) == 0:
            return idx
        x1 = self.ex1[idx].astype(np.float64)
        y1 = self.ey1[idx].astype(np.float64)
        dx = self.ex2[idx].astype(np.float64) - x1
        dy = self.ey2[idx].astype(np.float64) - y1
        sides = []
        for cx, cy in ((bx0, by0), (bx1, by0), (bx0, by1), (bx1, by1)):
            sides.append(dx * (cy - y1) - dy * (cx - x1))
        s = np.stack(sides)
        tol = 1e-6 * (np.abs(dx) + np.abs(dy)) * (S + 2) + 1e3
        apart = np.all(s > tol, axis=0) | np.all(s < -tol, axis=0)
        return idx[~apart]

    def mask_on_row(self, idx, qx2, qy):
        """XOR of the zone sets of the edges of `idx` with x_e(qy) >= qx (qx2 = 2 qx), row rule."""
        np = self.np
        if len(idx) == 0:
            return 0
        hit = row_hits(self.ey1[idx], self.ey2[idx], qy)
        if not np.any(hit):
            return 0
        j = idx[hit]
        ge = side_ge(self.ex1[j], self.ey1[j], self.ex2[j], self.ey2[j], np.int64(qx2), np.int64(qy))
        out = 0
        for e in j[ge].tolist():
            out ^= self.eset[e]
        return out

    def thresholds(self, idx, X0, Y0, S):
        """(t, set) for the edges of `idx` crossing the east side x = X0 + S - 1/2 whose flip of
        the east side's parity falls at an integer row t with Y0 < t <= Y0 + S - 1."""
        np = self.np
        xr2 = 2 * (X0 + S) - 1
        m = (2 * self.xmin[idx] < xr2) & (2 * self.xmax[idx] > xr2)
        out = []
        for e in idx[m].tolist():
            x1, y1, x2, y2 = int(self.ex1[e]), int(self.ey1[e]), int(self.ex2[e]), int(self.ey2[e])
            if y1 == y2:
                t = y1 + 1
            else:
                # y_c = y1 + (xr - x1) dy / dx, xr = xr2 / 2; num / den exactly.
                num = 2 * y1 * (x2 - x1) + (xr2 - 2 * x1) * (y2 - y1)
                den = 2 * (x2 - x1)
                if den < 0:
                    num, den = -num, -den
                fl = num // den
                if fl * den == num:  # y_c an integer
                    slope_up = (y2 - y1) * (x2 - x1) > 0
                    t = fl if slope_up else fl + 1
                else:
                    t = fl + 1
            if Y0 < t <= Y0 + S - 1:
                out.append((t, self.eset[e]))
        out.sort(key=lambda p: p[0])
        return out

    # -- zone sets to answers

    def resolve(self, s, X0, S):
        if s == 0:
            return (TAG_NAUTICAL, 0)
        if s & (s - 1) == 0:
            return (TAG_ZONE, s.bit_length() - 1)
        zones = [z for z in range(s.bit_length()) if s >> z & 1]
        return (TAG_ZONE, min(zones, key=lambda z: (self.rank[z], z)))

    # -- building

    def build_root(self, cols, rows):
        np = self.np
        S = 1 << ROOT_SHIFT
        all_idx = np.arange(len(self.ex1))
        # Edges per root cell, by their bounding boxes, then the exact touch test per cell.
        cx0 = np.clip((self.xmin - 1) >> ROOT_SHIFT, 0, cols - 1)
        cx1 = np.clip(self.xmax >> ROOT_SHIFT, 0, cols - 1)
        cy0 = np.clip((self.ymin - 1) >> ROOT_SHIFT, 0, rows - 1)
        cy1 = np.clip(self.ymax >> ROOT_SHIFT, 0, rows - 1)
        nx = cx1 - cx0 + 1
        ny = cy1 - cy0 + 1
        counts = nx * ny
        rep = np.repeat(all_idx, counts)
        offs = np.arange(len(rep)) - np.repeat(np.cumsum(counts) - counts, counts)
        cxs = np.repeat(cx0, counts) + offs % np.repeat(nx, counts)
        cys = np.repeat(cy0, counts) + offs // np.repeat(nx, counts)
        cell = cys * cols + cxs
        order = np.argsort(cell, kind="stable")
        cell = cell[order]
        rep = rep[order]
        bounds = np.searchsorted(cell, np.arange(cols * rows + 1))
        entries = []
        t0 = time.time()
        for r in range(rows):
            Y0 = r << ROOT_SHIFT
            if self.only_rows and not (self.only_rows[0] <= r < self.only_rows[1]):
                entries.extend([(TAG_NAUTICAL, 0)] * cols)
                continue
            corner = self.row_corner_masks(Y0, cols)
            for c in range(cols):
                X0 = c << ROOT_SHIFT
                if self.only_cols and not (self.only_cols[0] <= c < self.only_cols[1]):
                    entries.append((TAG_NAUTICAL, 0))
                    continue
                idx = rep[bounds[r * cols + c]:bounds[r * cols + c + 1]]
                idx = self.touching(idx, X0, Y0, S)
                entries.append(self.build_cell(idx, X0, Y0, S, 0, corner[c]))
            if r % 12 == 11:
                print(f"gen_timezones: row {r + 1}/{rows}, {self.node_count} nodes, {self.leaf_count} leaves, "
                      f"{self.leaf_bytes} leaf bytes, {time.time() - t0:.0f} s", file=sys.stderr)
        return entries

    def row_corner_masks(self, Y0, cols):
        """The parities at the south-east corners (x = (c + 1) 2^24 - 1/2, Y0) of a row of root
        cells: for each edge on the row, the corners west of its crossing, then suffix XORs."""
        np = self.np
        S = 1 << ROOT_SHIFT
        j = np.flatnonzero(row_hits(self.ey1, self.ey2, Y0))
        if len(j) == 0:
            return [0] * cols
        x1 = self.ex1[j]
        y1 = self.ey1[j]
        x2 = self.ex2[j]
        y2 = self.ey2[j]
        xe = x1 + (Y0 - y1).astype(np.float64) * (x2 - x1) / (y2 - y1)
        k = np.clip(np.floor((xe + 0.5) / S), 0, cols).astype(np.int64)
        for _ in range(2):
            # Exactly: corner k - 1 must be west of (or on) the crossing, corner k east of it.
            hi = np.minimum(k, cols - 1)
            east_ok = (k >= cols) | ~side_ge(x1, y1, x2, y2, 2 * ((hi + 1) << ROOT_SHIFT) - 1, np.int64(Y0))
            lo = np.maximum(k - 1, 0)
            west_ok = (k <= 0) | side_ge(x1, y1, x2, y2, 2 * ((lo + 1) << ROOT_SHIFT) - 1, np.int64(Y0))
            k = k + (~east_ok) - (~west_ok)
        bucket = [0] * (cols + 1)
        for e, kk in zip(j.tolist(), k.tolist()):
            bucket[kk] ^= self.eset[e]
        out = [0] * cols
        acc = 0
        for c in range(cols - 1, -1, -1):
            acc ^= bucket[c + 1]
            out[c] = acc
        return out

    def build_cell(self, idx, X0, Y0, S, depth, ref):
        """The entry of a cell whose touching edges are `idx` and whose parity at its south-east
        corner (X0 + S - 1/2, Y0) is `ref`."""
        np = self.np
        if len(idx) == 0:
            self.uniform_count += 1
            return self.resolve(ref, X0, S)
        ths = self.thresholds(idx, X0, Y0, S)
        zones = ref
        for e in idx.tolist():
            zones |= self.eset[e]
        for _, s in ths:
            zones |= s
        nz = bin(zones).count("1")
        if depth < MAX_DEPTH and (len(idx) > MAX_EDGES or nz > 64 or len(ths) > 31):
            return self.split(idx, X0, Y0, S, depth, ref, ths)
        if nz > 64 or len(ths) > 31:
            sys.exit(f"gen_timezones: a cell at the deepest level holds {nz} zones, {len(ths)} crossings")
        return self.leaf(idx, X0, Y0, S, ref, ths, zones)

    def split(self, idx, X0, Y0, S, depth, ref, ths):
        np = self.np
        C = S >> 2
        xr2 = 2 * (X0 + S) - 1
        children = []
        for cy in range(4):
            Yc = Y0 + cy * C
            # The east side's parity at row Yc, then each child's corner on that row.
            east = ref
            for t, s in ths:
                if t <= Yc:
                    east ^= s
            hit = row_hits(self.ey1[idx], self.ey2[idx], Yc)
            row_idx = idx[hit]
            for cx in range(4):
                Xc = X0 + cx * C
                cref = east
                if len(row_idx):
                    cref ^= self.mask_on_row(row_idx, 2 * (Xc + C) - 1, Yc) ^ self.mask_on_row(row_idx, xr2, Yc)
                cidx = self.touching(idx, Xc, Yc, C)
                children.append(self.build_cell(cidx, Xc, Yc, C, depth + 1, cref))
        self.node_count += 1
        return (TAG_NODE, children)

    def leaf(self, idx, X0, Y0, S, ref, ths, zones):
        np = self.np
        local = [z for z in range(zones.bit_length()) if zones >> z & 1]
        pos_of = {z: i for i, z in enumerate(local)}

        def lmask(s):
            m = 0
            while s:
                low = s & -s
                m |= 1 << pos_of[low.bit_length() - 1]
                s ^= low
            return m

        # Pieces: runs of consecutive edges of one chain.
        ch = self.echain[idx]
        ps = self.epos[idx]
        order = np.lexsort((ps, ch))
        ch, ps = ch[order], ps[order]
        brk = np.ones(len(ch), bool)
        brk[1:] = (ch[1:] != ch[:-1]) | (ps[1:] != ps[:-1] + 1)
        starts = np.flatnonzero(brk)
        lens = np.diff(np.append(starts, len(ch)))
        pieces = []
        for s0, n in zip(starts.tolist(), lens.tolist()):
            c, p = int(ch[s0]), int(ps[s0])
            v = self.chain_vertices[c][p:p + n + 1]
            pieces.append((lmask(self.chain_sets[c]), self.ux[v].tolist(), self.uy[v].tolist()))
        data = encode_leaf(X0, Y0, S.bit_length() - 1, local, lmask(ref), [(t - Y0, lmask(s)) for t, s in ths],
                           pieces, self.stats)
        self.stats["leaf_edges"] += len(idx)
        self.stats["max_leaf_edges"] = max(self.stats["max_leaf_edges"], len(idx))
        self.stats["pieces"] = self.stats.get("pieces", 0) + len(pieces)
        self.stats["thresholds"] += len(ths)
        self.leaf_bytes += len(data)
        self.leaf_count += 1
        return (TAG_LEAF, data)


def sixteenth(v, shift):
    """The sixteenth of a cell (rows of 2^(shift - 4) units, 0...15) that holds row v (relative
    to the cell's south side), clamped to the cell."""
    return min(max(v >> (shift - 4), 0), 15)


def encode_leaf(X0, Y0, shift, local, ref, ths, pieces, stats=None):
    """The bytes of a leaf record (the format at the top of Sources/GeoLoc/Time/TimeZoneFile.swift):
    `local` the zones the cell touches, `ref` the local mask at its south-east corner, `ths`
    (t - Y0, local mask) for the crossings of its east side, `pieces` (local mask, x_U list, y_U
    list) the runs of chain edges that touch it, each cut into blocks of at most BLOCK_EDGES edges
    with the rows they span, so that a lookup skips the blocks its row does not cross."""
    nz = len(local)
    w = BitWriter()
    w.put(nz - 1, 6)
    for z in local:
        w.put(z, ZONE_BITS)
    w.put(ref, nz)
    w.put(len(ths), 5)
    for t, m in ths:
        w.put(t, shift)
        w.put(m, nz)
    blocks = []
    for m, vx, vy in pieces:
        k = len(vx) - 1
        for a in range(0, k, BLOCK_EDGES):
            blocks.append((a, min(a + BLOCK_EDGES, k), m, vx, vy))
    if len(blocks) >= 1 << 10:
        sys.exit("gen_timezones: a leaf holds more than 1023 blocks")
    w.put(len(blocks), 10)
    header_bits = w.n
    bx, by = X0 // 10, Y0 // 10
    px = py = 0
    kx = ky = 0
    for a, b, m, vx, vy in blocks:
        w.put(1 if a > 0 else 0, 1)
        if a == 0:
            # A new piece: its zones and its Rice parameters (for all its blocks), then its first
            # vertex relative to the cell.
            ux, uy = [], []
            for a2 in range(0, len(vx) - 1, BLOCK_EDGES):
                b2 = min(a2 + BLOCK_EDGES, len(vx) - 1)
                ux += block_residuals(vx[a2:b2 + 1])
                uy += block_residuals(vy[a2:b2 + 1])
            kx, ky = rice_parameter(ux), rice_parameter(uy)
            w.put(m, nz)
            w.put(kx, 5)
            w.put(ky, 5)
            sx, sy = vx[0] - bx, vy[0] - by
        else:
            # A block that continues the piece: its first vertex relative to the previous block's.
            sx, sy = vx[a] - px, vy[a] - py
        w.put(b - a - 1, 6)
        ys = [10 * v - Y0 for v in vy[a:b + 1]]
        w.put(sixteenth(min(ys), shift), 4)
        w.put(sixteenth(max(ys), shift), 4)
        for val in (sx, sy):
            zz = zigzag(val)
            wd = zz.bit_length()
            w.put(wd, 5)
            w.put(zz, wd)
        body = BitWriter()
        for ru, rv in zip(block_residuals(vx[a:b + 1]), block_residuals(vy[a:b + 1])):
            put_rice(body, ru, kx)
            put_rice(body, rv, ky)
        n = body.n
        w.put(n.bit_length(), 5)
        w.put(n, n.bit_length())
        w.append(body)
        if stats is not None:
            stats["residual_bits"] = stats.get("residual_bits", 0) + n
        px, py = vx[a], vy[a]
    data = w.bytes()
    if stats is not None:
        stats["header_bits"] = stats.get("header_bits", 0) + header_bits
        stats["blocks"] = stats.get("blocks", 0) + len(blocks)
        stats["max_leaf_bytes"] = max(stats.get("max_leaf_bytes", 0), len(data))
    if len(data) > LEAF_BLOCK_BYTES:
        sys.exit(f"gen_timezones: a leaf record of {len(data)} bytes exceeds a checksum block")
    return data


def block_residuals(v):
    """Zigzag of each delta of the vertex coordinates `v` minus the delta before it (the first
    minus 0: the prediction starts again in every block)."""
    out = []
    prev = 0
    for i in range(1, len(v)):
        d = v[i] - v[i - 1]
        r = d - prev
        out.append(2 * r if r >= 0 else -2 * r - 1)
        prev = d
    return out


def zigzag(v):
    return 2 * v if v >= 0 else -2 * v - 1


RICE_ESCAPE = 15
RAW_BITS = 32


def rice_parameter(u):
    """The k (0...31) that codes `u` in the fewest bits."""
    import numpy as np

    u = np.asarray(u, dtype=np.int64)
    best, best_k = None, 0
    for k in range(32):
        q = u >> k
        cost = int(np.where(q < RICE_ESCAPE, q + 1 + k, RICE_ESCAPE + 1 + RAW_BITS).sum())
        if best is None or cost < best:
            best, best_k = cost, k
    return best_k


def put_rice(w, u, k):
    """u as q = u >> k zero bits and a one, then the k low bits; q >= 15 as 15 zeros, a one and
    u in 32 bits."""
    q = u >> k
    if q < RICE_ESCAPE:
        w.put(1 << q, q + 1)
        w.put(u & ((1 << k) - 1), k)
    else:
        w.put(1 << RICE_ESCAPE, RICE_ESCAPE + 1)
        w.put(u, RAW_BITS)


class BitWriter:
    """Bits least significant first, into bytes."""

    def __init__(self):
        self.acc = 0
        self.n = 0

    def put(self, value, width):
        if width == 0:
            return
        if value < 0 or value >> width:
            raise ValueError(f"{value} does not fit {width} bits")
        self.acc |= value << self.n
        self.n += width

    def append(self, other):
        self.acc |= other.acc << self.n
        self.n += other.n

    def bytes(self):
        return self.acc.to_bytes((self.n + 7) // 8, "little")


# ---------------------------------------------------------------------------------------------
# Zones


def nautical_hours(name):
    """UTC+N as people read it for Etc/GMT-N (sign inverted, POSIX style); None otherwise."""
    if name in ("Etc/GMT", "Etc/UTC"):
        return 0
    if name.startswith("Etc/GMT") and len(name) > 7:
        return -int(name[7:])
    return None


def zone_areas(xs, ys, ring_zone, ring_poly, nzones):
    """Planar area (deg^2) of each zone: its rings' shoelace sums (holes subtract)."""
    import numpy as np

    area = [0.0] * nzones
    seen_poly = set()
    for x, y, z, p in zip(xs, ys, ring_zone.tolist(), ring_poly.tolist()):
        xf = (x - x[0]).astype(np.float64) * 1e-6
        yf = (y - y[0]).astype(np.float64) * 1e-6
        a = 0.5 * abs(float(np.dot(xf, np.roll(yf, -1)) - np.dot(yf, np.roll(xf, -1))))
        area[z] += -a if p in seen_poly else a
        seen_poly.add(p)
    return area


# ---------------------------------------------------------------------------------------------
# The file


def checksum(buf):
    """The 64-bit checksum of Sources/GeoLoc/Core/MappedFile.swift (DataFileChecksum), bytes
    120..<128 read as zero."""
    import numpy as np

    M = 0x9FB21C651E98DF25
    MASK = (1 << 64) - 1
    n = len(buf)
    lanes = [0x243F6A8885A308D3, 0x13198A2E03707344, 0xA4093822299F31D0, 0x082EFA98EC4E6C89]
    full = n // 32 * 32
    words = np.frombuffer(bytes(buf[:full]), dtype="<u8").copy()
    words[120 // 8] = 0 if full > 120 else words[120 // 8] if len(words) > 15 else 0
    w4 = words.reshape(-1, 4)

    # Each lane is a chain; numpy cannot vectorise along it, but can do the four lanes at once.
    lane = np.array(lanes, dtype=np.uint64)
    mul = np.uint64(M)
    s32 = np.uint64(32)
    with np.errstate(over="ignore"):
        for row in w4:
            x = (lane ^ row) * mul
            lane = x ^ (x >> s32)
    a, b, c, d = (int(v) for v in lane)
    i = full

    def step(l, w):
        x = ((l ^ w) * M) & MASK
        return x ^ (x >> 32)

    k = 0
    while i + 8 <= n:
        w = int.from_bytes(buf[i:i + 8], "little")
        if i == 120:
            w = 0
        if k == 0:
            a = step(a, w)
        elif k == 1:
            b = step(b, w)
        else:
            c = step(c, w)
        k += 1
        i += 8
    if i < n:
        w = int.from_bytes(buf[i:n] + bytes(8 - (n - i)), "little")
        d = step(d, w)
    h = step(n, a)
    h = step(h, b)
    h = step(h, c)
    h = step(h, d)
    return step(h, 0x5851F42D4C957F2D)


def align(n):
    return (n + 63) & ~63


NODE_BYTES = 40


def pad_to_block(leaves, n):
    """Zero bytes to the next 4096-byte block when a record of `n` bytes would cross into it: every
    leaf record lies within one checksum block, so that a block is checked, and its records
    validated, on its own."""
    at = len(leaves) % LEAF_BLOCK_BYTES
    if at + n > LEAF_BLOCK_BYTES:
        leaves += bytes(LEAF_BLOCK_BYTES - at)


def serialize(root):
    """The root grid (u32 entries), the nodes (40 bytes each) and the leaf bytes, the nodes in
    breadth-first order so that a node's child nodes are consecutive and its leaves adjacent."""
    queue = []
    leaves = bytearray()
    root_arr = bytearray()
    max_leaf = [0]
    for tag, v in root:
        if tag == TAG_NODE:
            value = len(queue)
            queue.append(v)
        elif tag == TAG_LEAF:
            pad_to_block(leaves, len(v))
            value = len(leaves)
            leaves += v
            max_leaf[0] = max(max_leaf[0], len(v))
        else:
            value = v
        root_arr += struct.pack("<I", (tag << 30) | value)
    node_arr = bytearray()
    i = 0
    while i < len(queue):
        children = queue[i]
        first = len(queue)
        base = len(leaves)
        entries = []
        rank = 0
        for tag, v in children:
            if tag == TAG_NODE:
                queue.append(v)
                value = rank
                rank += 1
            elif tag == TAG_LEAF:
                pad_to_block(leaves, len(v))
                value = len(leaves) - base
                leaves += v
                max_leaf[0] = max(max_leaf[0], len(v))
            else:
                value = v
            if value >= 1 << 14:
                sys.exit(f"gen_timezones: a node's entry value {value} does not fit 14 bits")
            entries.append((tag << 14) | value)
        node_arr += struct.pack("<II16H", first, base, *entries)
        i += 1
    if len(leaves) >= 1 << 30:
        sys.exit("gen_timezones: the leaves exceed 1 GiB")
    return bytes(root_arr), bytes(node_arr), bytes(leaves), len(queue), max_leaf[0]


def block_checksums(leaves):
    """The checksum of each 4096-byte block of the leaf section (Sources/GeoLoc/Time/
    TimeZoneFile.swift, `TimeZoneFile.blockChecksum`): four lanes, seeded with the block's
    number, take its 8-byte words in turn, as the file's checksum does, then fold."""
    import numpy as np

    M = np.uint64(0x9FB21C651E98DF25)
    s32 = np.uint64(32)
    words = np.frombuffer(bytes(leaves), dtype="<u8").reshape(-1, LEAF_BLOCK_BYTES // 32, 4)
    nb = words.shape[0]
    k = np.arange(nb, dtype=np.uint64)
    lanes = np.stack([np.uint64(v) ^ k for v in
                      (0x243F6A8885A308D3, 0x13198A2E03707344, 0xA4093822299F31D0, 0x082EFA98EC4E6C89)], axis=1)
    with np.errstate(over="ignore"):
        for r in range(words.shape[1]):
            x = (lanes ^ words[:, r, :]) * M
            lanes = x ^ (x >> s32)
    MASK = (1 << 64) - 1

    def step(l, w):
        x = ((l ^ w) * 0x9FB21C651E98DF25) & MASK
        return x ^ (x >> 32)

    out = []
    for b in range(nb):
        a, bb, c, d = (int(v) for v in lanes[b])
        h = step(LEAF_BLOCK_BYTES, a)
        h = step(h, bb)
        h = step(h, c)
        h = step(h, d)
        out.append(step(h, 0x5851F42D4C957F2D))
    return out


def write_file(path, names, ranks, root, leaves_unused, data_version, source_text, cols, rows):
    Z = len(names)
    name_bytes = bytearray()
    zone_table = bytearray()
    for name, rank in zip(names, ranks):
        name_bytes += name.encode() + b"\0"
        hours = nautical_hours(name)
        kind = 0 if hours is None else 1
        zone_table += struct.pack("<IHBb", len(name_bytes), rank, kind, hours or 0)
    meta = source_text.encode()

    root_arr, node_arr, leaves, nnodes, max_leaf = serialize(root)
    nl = len(leaves)
    # The leaf section: the records, at least 8 zero bytes, zeros to a whole number of blocks.
    leaves = bytes(leaves) + bytes(-(nl + 8) % LEAF_BLOCK_BYTES + 8)
    sums = block_checksums(leaves)
    sum_arr = struct.pack("<%dQ" % len(sums), *sums)
    at = HEADER_SIZE
    layout = {}
    for key, size, al in (("zones", len(zone_table), 64), ("names", len(name_bytes), 64), ("meta", len(meta), 64),
                          ("root", len(root_arr), 64), ("nodes", len(node_arr), 64), ("sums", len(sum_arr), 64),
                          ("leaves", len(leaves), LEAF_BLOCK_BYTES)):
        at = (at + al - 1) // al * al
        layout[key] = at
        at += size
    size = at
    buf = bytearray(size)
    buf[0:8] = b"GEOLOCTZ"
    struct.pack_into("<IIIIIIII", buf, 8, FORMAT_VERSION, 0x01020304, HEADER_SIZE, Z, cols, rows, ROOT_SHIFT, MAX_DEPTH)
    struct.pack_into("<QQQQQII", buf, 40, nnodes, nl, len(name_bytes), len(meta), size, LEAF_BLOCK_SHIFT, max_leaf)
    dv = data_version.encode()[:16]
    buf[88:88 + len(dv)] = dv
    struct.pack_into("<I", buf, 104, ZONE_BITS)
    for key, data in (("zones", zone_table), ("names", name_bytes), ("meta", meta), ("root", root_arr),
                      ("nodes", node_arr), ("sums", sum_arr), ("leaves", leaves)):
        buf[layout[key]:layout[key] + len(data)] = data
    # The file's checksum covers everything before the leaf section (the blocks have theirs).
    struct.pack_into("<Q", buf, 120, checksum(buf[:layout["leaves"]]))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(buf)
    os.replace(tmp, path)
    return size


# ---------------------------------------------------------------------------------------------
# A reader of the written file (the specification's second implementation, for --check)


class Reader:
    def __init__(self, path):
        import numpy as np

        self.buf = open(path, "rb").read()
        b = self.buf
        assert b[:8] == b"GEOLOCTZ"
        (self.version, _, _, self.Z, self.cols, self.rows, self.shift, self.depth) = struct.unpack_from("<IIIIIIII", b, 8)
        (nn, nl, nb, nm, size, bshift, self.max_leaf) = struct.unpack_from("<QQQQQII", b, 40)
        self.zbits = struct.unpack_from("<I", b, 104)[0]
        assert self.version == FORMAT_VERSION and bshift == LEAF_BLOCK_SHIFT
        nblocks = (nl + 8 + LEAF_BLOCK_BYTES - 1) // LEAF_BLOCK_BYTES
        at = HEADER_SIZE
        lay = {}
        for key, sz, al in (("zones", 8 * self.Z, 64), ("names", nb, 64), ("meta", nm, 64),
                            ("root", 4 * self.cols * self.rows, 64), ("nodes", NODE_BYTES * nn, 64),
                            ("sums", 8 * nblocks, 64), ("leaves", nblocks * LEAF_BLOCK_BYTES, LEAF_BLOCK_BYTES)):
            at = (at + al - 1) // al * al
            lay[key] = at
            at += sz
        assert at == size == len(b)
        assert struct.unpack_from("<Q", b, 120)[0] == checksum(b[:lay["leaves"]])
        sums = struct.unpack_from("<%dQ" % nblocks, b, lay["sums"])
        assert list(sums) == block_checksums(b[lay["leaves"]:])
        zt = np.frombuffer(b, dtype=[("end", "<u4"), ("rank", "<u2"), ("kind", "u1"), ("hours", "i1")],
                           count=self.Z, offset=lay["zones"])
        self.ranks = zt["rank"]
        names = []
        start = 0
        for e in zt["end"].tolist():
            names.append(b[lay["names"] + start:lay["names"] + e - 1].decode())
            start = e
        self.names = names
        self.root = np.frombuffer(b, dtype="<u4", count=self.cols * self.rows, offset=lay["root"])
        self.nodes_at = lay["nodes"]
        self.leaf_base = lay["leaves"]
        self.index_of = {n: i for i, n in enumerate(names)}

    def nautical(self, lon):
        import math
        n = math.floor((lon + 7.5) / 15.0)
        n = max(-12, min(12, n))
        name = "Etc/GMT" if n == 0 else (f"Etc/GMT-{n}" if n > 0 else f"Etc/GMT+{-n}")
        return self.index_of[name]

    def zone(self, lat, lon):
        qx = int(lon * 1e7) + QX0
        qy = int(lat * 1e7) + QY0
        if qx == 0:  # the date line: looked up at +180 (a point on a border counts as west of it)
            qx = 2 * QX0
        if qy == 0:  # the South Pole: 1e-7 degree north of it
            qy = 1
        shift = self.shift
        X0 = (qx >> shift) << shift
        Y0 = (qy >> shift) << shift
        e = int(self.root[(qy >> shift) * self.cols + (qx >> shift)])
        tag, v = e >> 30, e & 0x3FFFFFFF
        while tag == TAG_NODE:
            shift -= 2
            cx = (qx - X0) >> shift
            cy = (qy - Y0) >> shift
            X0 += cx << shift
            Y0 += cy << shift
            at = self.nodes_at + NODE_BYTES * v
            first, base = struct.unpack_from("<II", self.buf, at)
            e = struct.unpack_from("<H", self.buf, at + 8 + 2 * (4 * cy + cx))[0]
            tag, v = e >> 14, e & 0x3FFF
            if tag == TAG_NODE:
                v = first + v
            elif tag == TAG_LEAF:
                v = base + v
        if tag == TAG_ZONE:
            return v
        if tag == TAG_NAUTICAL:
            return self.nautical(lon)
        return self.leaf(v, qx, qy, X0, Y0, 1 << shift, lon)

    def leaf(self, off, qx, qy, X0, Y0, S, lon):
        r = BitReader(self.buf, self.leaf_base + off)
        nz = r.get(6) + 1
        zones = [r.get(self.zbits) for _ in range(nz)]
        mask = r.get(nz)
        nt = r.get(5)
        shift = S.bit_length() - 1
        for _ in range(nt):
            t = Y0 + r.get(shift)
            m = r.get(nz)
            if t <= qy:
                mask ^= m
        xr2 = 2 * (X0 + S) - 1
        row16 = (qy - Y0) >> (shift - 4)
        nb = r.get(10)
        bx, by = X0 // 10, Y0 // 10
        px = py = 0
        m = kx = ky = 0
        for _ in range(nb):
            if r.get(1):
                ox, oy = px, py
            else:
                m = r.get(nz)
                kx = r.get(5)
                ky = r.get(5)
                ox, oy = bx, by
            k = r.get(6) + 1
            lo, hi = r.get(4), r.get(4)
            w = r.get(5)
            x = unzig(r.get(w)) + ox
            w = r.get(5)
            y = unzig(r.get(w)) + oy
            px, py = x, y
            w = r.get(5)
            n = r.get(w)
            if not lo <= row16 <= hi:
                r.pos += n
                continue
            x1, y1 = 10 * x, 10 * y
            dx = dy = 0
            for _ in range(k):
                dx += unzig(r.rice(kx))
                dy += unzig(r.rice(ky))
                x += dx
                y += dy
                x2, y2 = 10 * x, 10 * y
                if (qy > y1) != (qy > y2):
                    a = ge_exact(x1, y1, x2, y2, 2 * qx, qy)
                    b = ge_exact(x1, y1, x2, y2, xr2, qy)
                    if a != b:
                        mask ^= m
                x1, y1 = x2, y2
        set_zones = [zones[i] for i in range(nz) if mask >> i & 1]
        if not set_zones:
            return self.nautical(lon)
        return min(set_zones, key=lambda z: (int(self.ranks[z]), z))


def ge_exact(x1, y1, x2, y2, qx2, qy):
    c = (x2 - x1) * 2 * (qy - y1) - (qx2 - 2 * x1) * (y2 - y1)
    return c >= 0 if y2 > y1 else c <= 0


def unzig(v):
    return v >> 1 if not v & 1 else -((v + 1) >> 1)


class BitReader:
    def __init__(self, buf, byte):
        self.buf = buf
        self.pos = byte * 8

    def rice(self, k):
        q = 0
        while self.get(1) == 0:
            q += 1
            if q == RICE_ESCAPE:
                self.get(1)
                return self.get(RAW_BITS)
        return (q << k) | self.get(k)

    def get(self, n):
        if n == 0:
            return 0
        start = self.pos >> 3
        end = (self.pos + n + 7) >> 3
        v = int.from_bytes(self.buf[start:end], "little") >> (self.pos & 7)
        self.pos += n
        return v & ((1 << n) - 1)


def check(path, n, seed=20261124):
    """Random points and points near borders: this file's answers against timezonefinder's."""
    import numpy as np
    from timezonefinder import TimezoneFinder

    tf = TimezoneFinder()
    rd = Reader(path)
    rng = np.random.default_rng(seed)
    lats = np.degrees(np.arcsin(rng.uniform(-1, 1, n)))
    lons = rng.uniform(-180, 180, n)
    ours = [rd.names[rd.zone(a, o)] for a, o in zip(lats.tolist(), lons.tolist())]
    theirs = tf.timezone_names_at(lngs=lons, lats=lats)
    bad = [(a, o, x, y) for a, o, x, y in zip(lats.tolist(), lons.tolist(), ours, theirs) if x != y]
    print(f"gen_timezones: --check: {n - len(bad)}/{n} random points agree with timezonefinder")
    for b in bad[:20]:
        print("   ", b)
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=OUT)
    ap.add_argument("--venv", default=os.path.join(REPO, "build", "tzgen-venv"))
    ap.add_argument("--check", type=int, default=0, metavar="N")
    ap.add_argument("--check-only", action="store_true")
    ap.add_argument("--rows", help="A:B: build only root rows A..B-1 (for measuring; the map is incomplete)")
    ap.add_argument("--cols", help="A:B: build only root columns A..B-1 (with --rows: a small map for fuzzing)")
    ap.add_argument("--max-edges", type=int, default=MAX_EDGES)
    args = ap.parse_args()
    ensure_environment(args.venv)
    import numpy as np

    if args.check_only:
        bad = check(args.out, args.check)
        sys.exit(1 if bad else 0)
    t0 = time.time()
    xs, ys, ring_zone, ring_poly, src_names, data_version, pkg_version = read_source()
    print(f"gen_timezones: {len(xs)} rings, {sum(len(x) for x in xs)} vertices, {len(src_names)} zones, "
          f"boundary release {data_version} ({time.time() - t0:.0f} s)", file=sys.stderr)
    # Zones in code-point order of their names.
    order = sorted(range(len(src_names)), key=lambda i: src_names[i].encode())
    new_id = {old: new for new, old in enumerate(order)}
    names = [src_names[i] for i in order]
    ring_zone = np.array([new_id[z] for z in ring_zone.tolist()])
    if len(names) >= 1 << ZONE_BITS:
        sys.exit("gen_timezones: too many zones")
    for n in range(-12, 13):
        nm = "Etc/GMT" if n == 0 else (f"Etc/GMT-{n}" if n > 0 else f"Etc/GMT+{-n}")
        if nm not in names:
            sys.exit(f"gen_timezones: the source has no {nm}")
    area = zone_areas(xs, ys, ring_zone, ring_poly, len(names))
    by_area = sorted(range(len(names)), key=lambda z: (area[z], z))
    rank = [0] * len(names)
    for r, z in enumerate(by_area):
        rank[z] = r
    x, y, chains = build_edges(xs, ys, ring_zone, len(names))
    print(f"gen_timezones: {sum(len(c[0]) - 1 for c in chains)} edges in {len(chains)} chains "
          f"({time.time() - t0:.0f} s)", file=sys.stderr)
    b = Builder(x, y, chains, len(names), rank, None)
    globals()["MAX_EDGES"] = args.max_edges
    if args.rows:
        b.only_rows = tuple(int(v) for v in args.rows.split(":"))
    if args.cols:
        b.only_cols = tuple(int(v) for v in args.cols.split(":"))
    cols = -(-(2 * QX0 + 1) // (1 << ROOT_SHIFT))
    rows = -(-(2 * QY0 + 1) // (1 << ROOT_SHIFT))
    root = b.build_root(cols, rows)
    source = (f"timezone-boundary-builder {data_version} (ODbL 1.0, https://github.com/evansiroky/"
              f"timezone-boundary-builder), as the PyPI package timezonefinder-data {pkg_version} carries it; "
              f"built by tools/gen_timezones.py")
    size = write_file(args.out, names, rank, root, None, data_version, source, cols, rows)
    print(f"gen_timezones: wrote {args.out}: {size} bytes; {b.node_count} nodes, {b.leaf_count} leaves "
          f"({b.leaf_bytes} bytes), {b.uniform_count} uniform cells; {b.stats} ({time.time() - t0:.0f} s)",
          file=sys.stderr)
    if args.check:
        bad = check(args.out, args.check)
        sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
