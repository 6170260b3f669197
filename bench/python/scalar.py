"""One distance from Python: geoloc.distance beside a bare ctypes call of a C function of two
doubles (libm's hypot, argtypes and restype declared) and a haversine in pure Python, in one
run. Prints ns per call and the ratios.

geoloc.distance takes its fast path (geoloc_distance_value: one packed bytes argument and two
ints) for Python floats with a Unit/Model member or a usual name ('miles'); the row "checked
path" is the same call through geoloc_distance (struct arguments, an out-parameter and the
status check), the way distance() took every call before, and the way it still takes ints,
numpy scalars and bad input. The geodesic rows compute about 0.7 us of WGS84 geodesic each, for
scale.

    GEOLOC_LIBRARY=build/libgeoloc.so python3 bench/python/scalar.py [calls per round]
    (or with the installed package: python3 bench/python/scalar.py)
"""
import ctypes
import math
import os
import sys
import timeit

try:
    import geoloc
except ImportError:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
    import geoloc

N = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
R = 6371008.8
libm = ctypes.CDLL("libm.so.6")
hypot = libm.hypot
hypot.argtypes = (ctypes.c_double, ctypes.c_double)
hypot.restype = ctypes.c_double


def haversine(a, b):
    lat1, lon1 = a
    lat2, lon2 = b
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * R * math.asin(math.sqrt(h))


a, b = (38.321991, -88.867400), (40.7128, -74.006)
assert abs(haversine(a, b) - geoloc.distance(a, b)) < 1e-6
cases = [
    ("bare ctypes hypot(x, y)", "hypot(3.0, 4.0)"),
    ("pure-Python haversine", "haversine(a, b)"),
    ("geoloc.distance(a, b)", "distance(a, b)"),
    ("geoloc.distance(a, b, 'miles')", "distance(a, b, 'miles')"),
    ("geoloc.distance(a, b, Unit.MILES, Model.WGS84)", "distance(a, b, Unit.MILES, Model.WGS84)"),
    ("geoloc.distance(a, b), the checked path", "checked(a, b, Unit.METERS, Model.SPHERE)"),
    ("geoloc.geodesic_inverse(a, b)", "geodesic_inverse(a, b)"),
    ("geoloc.geodesic_direct(a, 45.0, 1e5)", "geodesic_direct(a, 45.0, 1e5)"),
]
checked = getattr(getattr(geoloc, "_distance", None), "_distance_checked", None)
if checked is None:  # a package without the fast path: every call is the checked one
    def checked(a, b, unit, model):
        return geoloc.distance(a, b, unit, model)
env = dict(hypot=hypot, haversine=haversine, a=a, b=b, distance=geoloc.distance,
           Unit=geoloc.Unit, Model=geoloc.Model, checked=checked,
           geodesic_inverse=geoloc.geodesic_inverse, geodesic_direct=geoloc.geodesic_direct)
# Round-robin: each round times every case once, so that a busy moment of a shared machine
# falls on all of them alike; the best round of each case is kept.
ROUNDS = 15
timers = [(name, timeit.Timer(stmt, globals=env)) for name, stmt in cases]
times = {name: math.inf for name, _ in cases}
for _ in range(ROUNDS):
    for name, timer in timers:
        times[name] = min(times[name], timer.timeit(number=N) / N * 1e9)
base = times[cases[0][0]]
hav = times[cases[1][0]]
print("%-48s %9s %10s %12s" % ("call", "ns/call", "x ctypes", "x haversine"))
for name, _ in cases:
    print("%-48s %9.0f %10.2f %12.2f" % (name, times[name], times[name] / base, times[name] / hav))
