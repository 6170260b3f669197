"""The single-query calls of Places from Python: the named-tuple form (one Match per result) beside
the array form (indices and distances as numpy arrays) and the batch call for the same one query,
on large results, in one run. Also all ids at once beside a loop of id(i). Prints ms per call and
the ratios to the batch call.

    GEOLOC_LIBRARY=build/libgeoloc.so python3 bench/python/arrays.py [reps]
    (or with the installed package: python3 bench/python/arrays.py)

The set is the shipped gazetteer when it is found (170,391 places), else 170,391 random places;
the queries are a radius of 1,500 km around Chicago and the 20,000 nearest places (each about a
tenth of the set), and a region over most of the United States. Best of ``reps`` (default 5).
"""
import os
import sys
import time

import numpy

try:
    import geoloc
except ImportError:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
    import geoloc

REPS = int(sys.argv[1]) if len(sys.argv) > 1 else 5


def best(fn, reps=REPS):
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


try:
    places = geoloc.shared_gazetteer().places
    source = "the shipped gazetteer"
except geoloc.GeolocError:
    rng = numpy.random.default_rng(1)
    n = 170_391
    places = geoloc.Places.from_arrays(numpy.column_stack([
        numpy.degrees(numpy.arcsin(rng.uniform(-1, 1, n))), rng.uniform(-180, 180, n)]))
    source = "random places"

center = (41.8781, -87.6298)
region = geoloc.Region.from_wkt("POLYGON((-130 20, -60 20, -60 55, -130 55, -130 20))")
radius, k = 1500.0, 20_000

# The three forms give the same results.
idx, dist = places.within_arrays(center, radius, "km")
assert [m.index for m in places.within(center, radius, "km")] == idx.tolist()
_, idx_many, _ = places.within_many([center], radius, "km")
assert numpy.array_equal(idx, idx_many)
idx, _ = places.nearest_arrays(center, k, "km")
assert numpy.array_equal(idx, places.nearest_many([center], k, "km")[0][0])
idx, _ = places.in_region_arrays(region, center, "km")
assert [m.index for m in places.in_region(region, center, "km")] == idx.tolist()

groups = [
    ("within, radius %.0f km: %d results" % (radius, len(places.within_arrays(center, radius, "km")[0])), [
        ("within (list of Match)", lambda: places.within(center, radius, "km")),
        ("within_arrays", lambda: places.within_arrays(center, radius, "km")),
        ("within_many, one centre", lambda: places.within_many([center], radius, "km")),
    ]),
    ("nearest, k = %d" % k, [
        ("nearest (list of Match)", lambda: places.nearest(center, k, "km")),
        ("nearest_arrays", lambda: places.nearest_arrays(center, k, "km")),
        ("nearest_many, one point", lambda: places.nearest_many([center], k, "km")),
    ]),
    ("in_region with an origin: %d results" % len(places.in_region_arrays(region, center, "km")[0]), [
        ("in_region (list of Match)", lambda: places.in_region(region, center, "km")),
        ("in_region_arrays", lambda: places.in_region_arrays(region, center, "km")),
    ]),
    ("every id of %d places" % len(places), [
        ("[id(i) for i in range(n)]", lambda: [places.id(i) for i in range(len(places))]),
        ("ids()", lambda: places.ids()),
        ("coords() (for scale: one C call)", lambda: places.coords()),
    ]),
]

print("Places from Python on %s (%d places), best of %d, one run" % (source, len(places), REPS))
print("%-40s %12s %10s" % ("call", "ms per call", "ratio"))
for title, rows in groups:
    print("-- " + title)
    times = [(name, best(fn, 2 if "id(i)" in name else REPS)) for name, fn in rows]
    base = times[-1][1] if "in_region" not in title and "id" not in title else times[1][1]
    for name, t in times:
        print("%-40s %12.3f %9.2fx" % (name, t * 1e3, t / base))
print("ratio: to the last row of the group (within/nearest), to the second (in_region, ids)")
