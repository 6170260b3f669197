#!/usr/bin/env python3
"""Turns the raw rows of the place search benchmark into one table.

    table.py RAW.tsv [--reps R]

Reads the S / Q / C / P rows the harnesses print (see common.h) and '#' comments of the form
'# meta KEY VALUE' that bench/places/run adds (date, machine, load, library, ...).
"""
import argparse
import collections
import sys

KIND_TITLE = {
    "within_5mi": "within 5 mi",
    "within_50mi": "within 50 mi",
    "nearest_1": "nearest k=1",
    "nearest_10": "nearest k=10",
    "reverse_geocode": "reverse geocode",
}
KIND_ORDER = list(KIND_TITLE)
SET_ORDER = ["cities", "uniform", "clustered"]
# The GEOS-direct reference row of each query kind.
REFERENCE = {
    "within_5mi": "c.geos_strtree",
    "within_50mi": "c.geos_strtree",
    "nearest_1": "c.geos_nearest_generic",
    "nearest_10": "c.geos_strtree",
}
IMPL_ORDER = [
    "c.geos_strtree", "c.geos_nearest_generic", "c.geoloc", "c.geoloc_reverse_geocode",
    "c.geoloc_reverse_geocode_text", "py.geoloc", "py.geoloc_reverse_geocode", "py.shapely_strtree",
    "py.scipy_ckdtree", "py.sklearn_balltree", "py.reverse_geocoder_mode1",
    "py.reverse_geocoder_mode2",
]
# Where a row's structure (memory per place) comes from, when not from its own S row.
STRUCTURE = {
    "c.geos_nearest_generic": "c.geos_strtree",
    "c.geoloc_reverse_geocode": "c.geoloc_gazetteer_open",
    "c.geoloc_reverse_geocode_text": "c.geoloc_gazetteer_open",
}
GAZETTEER_GOAL_S = 0.15


def is_peer(impl):
    """The Python peers (what a Python programmer uses without libgeoloc)."""
    return impl.startswith("py.") and not impl.startswith("py.geoloc")


def fmt_int(x):
    return f"{x:,.0f}"


def ratio(x, ref):
    return f"{x / ref:.2f}x" if ref else "-"


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("raw")
    args = p.parse_args(argv)

    meta = collections.OrderedDict()
    S, Q, C, P = {}, [], [], []
    with open(args.raw, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# meta "):
                key, _, value = line[len("# meta "):].partition(" ")
                meta[key] = value
                continue
            if not line or line.startswith("#"):
                continue
            r = line.split("\t")
            if r[0] == "S" and len(r) >= 5:
                key = (r[1], r[2])
                t, mem = float(r[3]), float(r[4])
                if key in S:  # repeated builds (the gazetteer open): keep the fastest
                    S[key] = (min(S[key][0], t), S[key][1], S[key][2] + 1)
                else:
                    S[key] = (t, mem, 1)
            elif r[0] == "Q" and len(r) >= 8:
                Q.append(dict(set=r[1], kind=r[2], impl=r[3], qps=float(r[4]),
                              mean=float(r[5]), nq=int(r[6]), threads=int(r[7])))
            elif r[0] == "C" and len(r) >= 7:
                C.append(dict(set=r[1], kind=r[2], impl=r[3], checked=int(r[4]),
                              bad=int(r[5]), note=r[6]))
            elif r[0] == "P" and len(r) >= 5:
                P.append(dict(set=r[1], kind=r[2], impl=r[3], why=r[4]))

    out = []
    w = out.append
    w(f"libgeoloc place search benchmark: queries per second, best of {meta.get('reps', '?')} "
      f"(higher is faster)")
    for key in ("date", "machine", "load", "tools", "library", "sets", "queries"):
        if key in meta:
            w(f"{key:<9}{meta[key]}")
    w("")

    def order_key(q):
        s = SET_ORDER.index(q["set"]) if q["set"] in SET_ORDER else 99
        k = KIND_ORDER.index(q["kind"]) if q["kind"] in KIND_ORDER else 99
        i = IMPL_ORDER.index(q["impl"]) if q["impl"] in IMPL_ORDER else 99
        return (s, q["set"], k, i, q["impl"], q["threads"])

    Q.sort(key=order_key)
    single = {(q["set"], q["kind"], q["impl"]): q["qps"] for q in Q if q["threads"] == 1}
    best_peer = {}
    for q in Q:
        if is_peer(q["impl"]):
            k = (q["set"], q["kind"])
            if q["qps"] > best_peer.get(k, (0.0, ""))[0]:
                best_peer[k] = (q["qps"], q["impl"])
    wrong = {(c["set"], c["kind"], c["impl"]): c["bad"] for c in C}

    def verdict(misses):
        return "PASS" if not misses else "MISS: " + "; ".join(misses)

    def goal(q):
        s, kind, impl = q["set"], q["kind"], q["impl"]
        if q["threads"] != 1:
            return ""
        if impl == "c.geoloc" and kind.startswith("within_"):
            ref = single.get((s, kind, REFERENCE[kind]))
            peer, peer_name = best_peer.get((s, kind), (None, ""))
            if ref is None or peer is None:
                return "-"
            misses = []
            if q["qps"] < 0.9 * ref:
                misses.append("< 0.9x GEOS")
            if q["qps"] <= peer:
                misses.append(f"not faster than {peer_name}")
            return verdict(misses)
        if impl == "c.geoloc" and kind.startswith("nearest_"):
            ck = single.get((s, kind, "py.scipy_ckdtree"))
            if ck is None:
                return "-"
            return verdict([] if q["qps"] >= ck else ["< scipy cKDTree"])
        if impl == "c.geoloc_reverse_geocode":
            rg = [x["qps"] for x in Q if x["set"] == s and x["kind"] == kind
                  and x["impl"].startswith("py.reverse_geocoder")]
            if not rg:
                return "-"
            bad = wrong.get((s, kind, impl))
            misses = []
            if q["qps"] < 2 * max(rg):
                misses.append("< 2x reverse_geocoder")
            if bad is None:
                misses.append("wrong answers not checked")
            elif bad:
                misses.append(f"{bad} wrong places")
            return verdict(misses)
        return ""

    head = (f"{'set':<10} {'query':<16} {'implementation':<28} {'thr':>3} {'queries/s':>11} "
            f"{'vs GEOS':>8} {'vs peer':>8} {'results/q':>10} {'bytes/place':>11}  goal")
    w(head)
    w("-" * len(head))
    last = None
    pending_kinds = collections.defaultdict(list)
    for pr in P:
        pending_kinds[(pr["set"], pr["kind"])].append(pr)
    for q in Q:
        group = (q["set"], q["kind"])
        if last is not None and group != last:
            w("")
        last = group
        ref = single.get((q["set"], q["kind"], REFERENCE.get(q["kind"], "")))
        peer = best_peer.get(group, (None, ""))[0]
        simpl = STRUCTURE.get(q["impl"], q["impl"])
        sset = "gazetteer" if simpl.startswith("c.geoloc_gazetteer") else q["set"]
        mem = S.get((sset, simpl))
        mem_s = f"{mem[1]:,.0f}" if mem else "-"
        impl = q["impl"] + (" (ref)" if REFERENCE.get(q["kind"]) == q["impl"] else "")
        w(f"{q['set']:<10} {KIND_TITLE.get(q['kind'], q['kind']):<16} {impl:<28} "
          f"{q['threads']:>3} {fmt_int(q['qps']):>11} {ratio(q['qps'], ref):>8} "
          f"{ratio(q['qps'], peer):>8} {q['mean']:>10.2f} {mem_s:>11}  {goal(q)}")
    w("")

    # Builds.
    w(f"{'structure build':<52} {'seconds':>9} {'bytes/place':>12}  goal")
    for (s, impl), (t, mem, n) in sorted(S.items(), key=lambda kv: (
            SET_ORDER.index(kv[0][0]) if kv[0][0] in SET_ORDER else 50, kv[0][0],
            IMPL_ORDER.index(kv[0][1]) if kv[0][1] in IMPL_ORDER else 99, kv[0][1])):
        g = ""
        label = f"{s}: {impl}"
        if impl == "c.geoloc_gazetteer_open":
            g = ("PASS" if t < GAZETTEER_GOAL_S else "MISS") + \
                f" (goal: load+index < {GAZETTEER_GOAL_S} s)"
            label += f" (best of {n} processes)"
        w(f"{label:<52} {t:>9.3f} {mem:>12,.0f}  {g}")
    w("")

    # Pending rows.
    if P:
        w("not measured (pending: not in the library yet; FAILED: the library refused the query):")
        grouped = collections.OrderedDict()
        for pr in P:
            grouped.setdefault((pr["impl"], pr["kind"], pr["why"]), []).append(pr["set"])
        for (impl, kind, why), sets in grouped.items():
            what = f"{impl} ({'all queries' if kind == '*' else KIND_TITLE.get(kind, kind)}; " \
                   f"{', '.join(sets)})"
            w(f"  {what}: {why}")
        w("")

    # Checks.
    if C:
        w("checks (result lists of the first queries against brute force; libgeoloc must have 0;")
        w("the one_to_many line is for information):")
        for c in C:
            flag = ""
            if c["impl"].startswith("c.geoloc") and c["bad"] and c["kind"] != "distance":
                flag = "  <-- FAIL"
            w(f"  {c['set']:<10} {c['kind']:<16} {c['impl']:<30} {c['bad']:>6} of "
              f"{c['checked']:<6} {c['note']}{flag}")
        w("")

    w("queries/s: queries answered per second of wall time (2 threads: both threads' queries")
    w("together). vs GEOS: / the GEOS-from-C reference of the same row group (ref); vs peer: /")
    w("the fastest Python peer of the group (shapely, scipy, scikit-learn, reverse_geocoder).")
    w("results/q: mean results per query (the same for every exact implementation). bytes/place:")
    w("resident memory the structure's build added, per place. goals: radius >= 0.9x GEOS and")
    w("faster than every Python peer; k=1 and k=10 >= scipy cKDTree; reverse geocode >= 2x the")
    w("faster reverse_geocoder mode with 0 wrong places; gazetteer load+index < 0.15 s.")
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
