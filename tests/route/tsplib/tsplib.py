"""Reads the TSPLIB instances of this folder and gives their cost matrices, by TSPLIB's own
definitions of the distances (Reinelt, "TSPLIB 95", section 2): GEO (the geographical
distance: coordinates as DDD.MM degrees and minutes, PI = 3.141592, RRR = 6378.388 km, each
distance rounded down after adding 1), ATT (pseudo-Euclidean), EUC_2D (Euclidean, rounded to
the nearest integer), CEIL_2D (Euclidean, rounded up) and EXPLICIT (FULL_MATRIX and the four
triangular row formats). Used by the route tests of the Python door and by bench/route (also
on a folder of other TSPLIB instances: bench/route/published.py). Needs numpy.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy

HERE = Path(__file__).resolve().parent


def read(path: Path) -> tuple[dict[str, str], list[tuple[float, float]], list[float]]:
    spec: dict[str, str] = {}
    coords: list[tuple[float, float]] = []
    weights: list[float] = []
    section = None
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line == "EOF":
            continue
        if section is None and ":" in line:
            key, value = line.split(":", 1)
            spec[key.strip()] = value.strip()
        elif line.endswith("SECTION"):
            section = line
        elif section == "NODE_COORD_SECTION":
            f = line.split()
            coords.append((float(f[1]), float(f[2])))
        elif section == "EDGE_WEIGHT_SECTION":
            weights += [float(x) for x in line.split()]
    return spec, coords, weights


def matrix(name: str, folder: Path = HERE) -> numpy.ndarray:
    """The (n, n) cost matrix of instance `name` in `folder` (node 1 of the file is row 0)."""
    spec, coords, weights = read(folder / (name + ".tsp"))
    n = int(spec["DIMENSION"])
    kind = spec["EDGE_WEIGHT_TYPE"]
    if kind == "EXPLICIT":
        form = spec.get("EDGE_WEIGHT_FORMAT")
        if form == "FULL_MATRIX":
            return numpy.array(weights[: n * n]).reshape(n, n)
        # Which columns each row lists, for the triangular formats.
        columns = {
            "LOWER_DIAG_ROW": lambda i: range(i + 1),
            "LOWER_ROW": lambda i: range(i),
            "UPPER_DIAG_ROW": lambda i: range(i, n),
            "UPPER_ROW": lambda i: range(i + 1, n),
        }.get(form or "")
        if columns is None:
            raise ValueError("EDGE_WEIGHT_FORMAT %s is not read" % form)
        m = numpy.zeros((n, n))
        k = 0
        for i in range(n):
            for j in columns(i):
                m[i, j] = m[j, i] = weights[k]
                k += 1
        return m
    x = numpy.array(coords)
    if kind == "GEO":
        deg = numpy.trunc(x)
        rad = 3.141592 * (deg + 5.0 * (x - deg) / 3.0) / 180.0
        lat, lon = rad[:, 0], rad[:, 1]
        q1 = numpy.cos(lon[:, None] - lon[None, :])
        q2 = numpy.cos(lat[:, None] - lat[None, :])
        q3 = numpy.cos(lat[:, None] + lat[None, :])
        arg = numpy.clip(0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3), -1.0, 1.0)
        m = numpy.trunc(6378.388 * numpy.arccos(arg) + 1.0)
    elif kind == "ATT":
        d = x[:, None, :] - x[None, :, :]
        r = numpy.sqrt((d ** 2).sum(-1) / 10.0)
        t = numpy.trunc(r + 0.5)
        m = numpy.where(t < r, t + 1, t)
    elif kind == "EUC_2D":
        d = x[:, None, :] - x[None, :, :]
        m = numpy.trunc(numpy.sqrt((d ** 2).sum(-1)) + 0.5)
    elif kind == "CEIL_2D":
        d = x[:, None, :] - x[None, :, :]
        m = numpy.ceil(numpy.sqrt((d ** 2).sum(-1)))
    else:
        raise ValueError("EDGE_WEIGHT_TYPE %s is not read" % kind)
    numpy.fill_diagonal(m, 0.0)
    return m


def tour(name: str) -> list[int]:
    """The published optimal tour of `name` (0-based nodes), from NAME.opt.tour."""
    out: list[int] = []
    on = False
    for raw in (HERE / (name + ".opt.tour")).read_text().splitlines():
        line = raw.strip()
        if line == "TOUR_SECTION":
            on = True
        elif on:
            for v in line.split():
                if v == "-1":
                    return out
                out.append(int(v) - 1)
    return out


def optima(folder: Path = HERE) -> list[dict[str, str]]:
    """`folder`'s optima.csv: name, dimension, edge_weight_type, optimum (TSPLIB's published
    optimum)."""
    with open(folder / "optima.csv", newline="") as f:
        return list(csv.DictReader(f))


def length(m: numpy.ndarray, order: list[int]) -> float:
    return float(sum(m[a, b] for a, b in zip(order, order[1:] + order[:1])))
