"""Tracking through the Python door: exact decisions and events on hand-built streams, saved
state, tracks, and the track files; batches in, arrays out."""

from __future__ import annotations

import math

import numpy
import pytest

import geoloc
t = geoloc  # the tracking names are the package's

M = 6371008.8 * math.pi / 180


def walk(lat0, lon0, xy, times, acc=5.0):
    """Fixes at (x, y) meter offsets east/north of (lat0, lon0)."""
    xy = numpy.asarray(xy, dtype=float).reshape(-1, 2)
    lat = lat0 + xy[:, 1] / M
    lon = lon0 + xy[:, 0] / (M * math.cos(math.radians(lat0)))
    return t.fix_array(lat, lon, times, acc)


def test_filter_reasons_and_identical_times():
    f = t.FixFilter("fitness", stop_radius_m=0)
    assert len(f.run(numpy.zeros((0, 7)))) == 0
    fx = walk(48, 11, [(0, 0), (10, 0), (12, 0), (30, 0), (20, 0), (2000, 0), (13, 0), (40, 0)],
              [100, 105, 105, 104, 110, 111, 112, 115])
    fx[4, 3] = 50
    d = f.run(fx)
    assert [geoloc._tracking.VERDICTS[v] for v in d["verdict"]] == [
        "kept", "kept", "dropped_time", "dropped_time", "dropped_accuracy", "dropped_jump", "dropped_distance", "kept"]
    assert (d["motion"] == 0).all()
    g = t.FixFilter()
    assert list(g.run(walk(0, 0, [(0, 0)], [7]))["verdict"]) == [0]
    assert list(g.run(walk(0, 0, [(50, 0), (100, 0)], [7, 7]))["verdict"]) == [1, 1]
    bad = walk(0, 0, [(0, 0)], [8])
    bad[0, 3] = -1
    with pytest.raises(geoloc.OutOfRangeError, match=r"fixes\[0\]: accuracy -1 is negative"):
        g.run(bad)
    with pytest.raises(ValueError):
        g.run(numpy.zeros((3, 2)))
    assert t.filter_options("automotive")["max_speed_mps"] == 70


def stop_and_go():
    xy, times, acc = [], [], []
    for i in range(10):
        xy.append((15 * i, 0)); times.append(10 * i); acc.append(5)
    for i in range(1, 16):
        xy.append((135 + (i % 3 - 1) * 14, 12 if i % 2 else -12)); times.append(90 + 20 * i); acc.append(8)
    for i in range(1, 6):
        xy.append((135 + 40 * i, 0)); times.append(390 + 20 * i); acc.append(5)
    return walk(-33.9, 151.2, xy, times, numpy.array(acc, dtype=float))


def test_stop_pauses_and_resumes_and_survives_a_relaunch():
    fx = stop_and_go()
    d = t.FixFilter("fitness").run(fx)
    assert list(numpy.nonzero(d["motion"] == 1)[0]) == [15]
    assert list(numpy.nonzero(d["motion"] == 2)[0]) == [25]
    first = t.FixFilter("fitness")
    a = first.run(fx[:17])
    again = t.FixFilter.restore(first.save())
    b = again.run(fx[17:])
    assert (numpy.concatenate([a, b]) == d).all()
    blob = bytearray(first.save())
    blob[10] ^= 1
    with pytest.raises(geoloc.ParseError):
        t.FixFilter.restore(bytes(blob))


def test_monitor_hysteresis_dwell_and_order():
    fences = t.Geofences([[51.5, -0.12], [51.5, -0.12]], [100, 60], ids=["park", "inner"])
    m = t.Monitor(fences, loitering_time_s=60)
    jitter = walk(51.5, -0.12, [(92 if i % 2 else 108, 0) for i in range(20)], numpy.arange(20.0), 10)
    assert len(m.run(jitter)) == 0
    ev = m.run(walk(51.5, -0.12, [(0, 0), (0, 0), (300, 0)], [30, 90, 100]))
    assert [(int(e["fix"]), int(e["region"]), geoloc._tracking.TRANSITIONS[e["transition"]]) for e in ev] == [
        (0, 0, "enter"), (0, 1, "enter"), (1, 0, "dwell"), (1, 1, "dwell"), (2, 0, "exit"), (2, 1, "exit")]
    assert list(ev["time"]) == [30, 30, 90, 90, 100, 100]
    with pytest.raises(geoloc.OutOfRangeError):
        m.run(walk(51.5, -0.12, [(0, 0)], [99]))
    assert len(m.run(numpy.zeros((0, 7)))) == 0
    assert fences.id(1) == "inner" and len(fences) == 2


def test_antimeridian_and_pole():
    fences = t.Geofences([[0, 179.9995], [90, 0]], [200, 1000],
                         polygons=[[[10, 179.99], [10, -179.99], [10.02, -179.99], [10.02, 179.99]]])
    pts = [(0, -179.9995), (0, 179.996), (89.995, 0), (89.995, 180), (89.98, -90), (10.01, 180), (10.01, -179.995),
           (10.01, -179.9)]
    fx = t.fix_array([p[0] for p in pts], [p[1] for p in pts], numpy.arange(8.0), 5)
    ev = t.Monitor(fences).run(fx)
    assert [(int(e["fix"]), int(e["region"]), int(e["transition"])) for e in ev] == [
        (0, 0, 0), (1, 0, 2), (2, 1, 0), (4, 1, 2), (5, 2, 0), (7, 2, 2)]


def test_many_regions_against_numpy_and_saved_state():
    rng = numpy.random.default_rng(7)
    n = 2000
    cx = walk(40.7, -74.0, rng.uniform(-10000, 10000, (n, 2)), numpy.zeros(n))
    radii = rng.uniform(30, 430, n)
    fences = t.Geofences(cx[:, :2], radii)
    steps = rng.uniform(-60, 60, (2000, 2)).cumsum(axis=0)
    fx = walk(40.7, -74.0, steps, numpy.arange(2000) * 10.0, rng.uniform(0, 20, 2000))
    opts = dict(accuracy_factor=1.5, enter_margin_m=3, exit_margin_m=7, loitering_time_s=120)
    ev = t.Monitor(fences, **opts).run(fx)
    # The rules in numpy, region by region (a reference written for the test).
    d = geoloc.distance_pairs(numpy.repeat(fx[:, :2], n, axis=0), numpy.tile(cx[:, :2], (len(fx), 1))).reshape(len(fx), n)
    d = d - radii
    inside = numpy.zeros(n, bool); since = numpy.zeros(n); dwelled = numpy.zeros(n, bool)
    want = []
    for i in range(len(fx)):
        s = 1.5 * fx[i, 3]
        enter = ~inside & (d[i] + s <= -3)
        exit_ = inside & (d[i] - s >= 7)
        dwell = inside & ~exit_ & ~dwelled & (fx[i, 2] - since >= 120)
        for r in numpy.nonzero(enter | exit_ | dwell)[0]:
            want.append((i, r, 0 if enter[r] else 2 if exit_[r] else 1))
        inside[enter] = True; since[enter] = fx[i, 2]; dwelled[enter] = False
        inside[exit_] = False; dwelled[dwell] = True
    got = [(int(e["fix"]), int(e["region"]), int(e["transition"])) for e in ev]
    assert got == want and len(got) > 50
    first = t.Monitor(fences, **opts)
    a = first.run(fx[:777])
    b = t.Monitor.restore(fences, first.save()).run(fx[777:])
    b["fix"] += 777
    assert (numpy.concatenate([a, b]) == ev).all()
    other = t.Geofences(cx[:, :2], radii + 1)
    with pytest.raises(geoloc.InvalidArgumentError):
        t.Monitor.restore(other, first.save())


def test_tracks_and_files(repo_root, tmp_path):
    f = walk(0, 0, [(0, 0), (100, 0), (100, 0), (400, 0)], [0, 50, 100, 150])
    f[0, 6] = 10; f[3, 6] = 4
    s = t.track_stats(f)
    assert abs(s.length_m - 400) < 0.01 and s.moving_time_s == 100 and s.elevation_loss_m == 6
    assert t.track_stats(f, model="wgs84").length_m != s.length_m
    r = t.resample_track(f, distance_m=150)
    assert r.shape == (4, 7) and abs(r[1, 2] - (100 + 50 / 6)) < 1e-6
    assert list(t.resample_track(f, time_s=50)[:, 2]) == [0, 50, 100, 150]
    sp = t.stay_points(f, 10, 30)
    assert [(int(x["first"]), int(x["last"])) for x in sp] == [(1, 2)]
    assert list(t.simplify_track(f, 1)) == [0, 3]

    track = t.read_gpx(str(repo_root / "data" / "demo" / "walk.gpx"))
    assert track.fixes.shape == (166, 7) and track.timed and track.issues == []
    text = t.write_gpx(track.fixes, "walk")
    again = t.read_gpx(text)
    assert numpy.allclose(again.fixes[:, :3], track.fixes[:, :3], atol=5e-9, rtol=0)
    gj = t.read_track_geojson(t.write_track_geojson(track.fixes))
    assert numpy.array_equal(gj.fixes[:, 2], track.fixes[:, 2])
    bad = t.read_gpx("<gpx><trk><trkseg><trkpt lat='1' lon='2'/><trkpt lat='x' lon='2'/></trkseg></trk></gpx>")
    assert len(bad.fixes) == 1 and bad.issues[0][0] == 1 and "lat \"x\" is not a decimal number" in bad.issues[0][1]
    with pytest.raises(geoloc.ParseError, match="line 1"):
        t.read_gpx("<gpx><trk></gpx>")
    with pytest.raises(geoloc.ParseError, match="trkpt 1"):
        t.read_gpx("<gpx><trk><trkseg><trkpt lat='1' lon='2'/><trkpt lat='x' lon='2'/></trkseg></trk></gpx>", strict=True)


def test_misused_tracking_handles_are_caught_by_the_c_door():
    # Python's own wrappers never pass a destroyed or wrong handle; the C door catches it anyway.
    import ctypes
    from geoloc import _ffi, _tracking

    lib = _ffi.lib
    filt = _tracking.FilterPtr()
    lib.geoloc_fix_filter_create(None, ctypes.byref(filt))
    fences = _tracking.GeofencesPtr()
    circle = _tracking.CCircleFence()
    circle.id = b"c"
    circle.center.lat, circle.center.lon, circle.radius_m = 1.0, 2.0, 1000.0
    lib.geoloc_geofences_create(ctypes.byref(circle), 1, None, 0, ctypes.byref(fences))
    count = ctypes.c_size_t()
    wrong = ctypes.cast(filt, _tracking.GeofencesPtr)
    with pytest.raises(geoloc.InvalidArgumentError) as err:
        lib.geoloc_geofences_count(wrong, ctypes.byref(count))
    assert err.value.message == "fences is a fix filter, not a geofence set"
    lib.geoloc_geofences_count(fences, ctypes.byref(count))
    assert count.value == 1
    lib.geoloc_geofences_destroy(fences)
    with pytest.raises(geoloc.InvalidArgumentError) as err:
        lib.geoloc_geofences_count(fences, ctypes.byref(count))
    assert err.value.message == "fences was destroyed"
    lib.geoloc_fix_filter_destroy(filt)
    stationary = ctypes.c_bool()
    with pytest.raises(geoloc.InvalidArgumentError) as err:
        lib.geoloc_fix_filter_stationary(filt, ctypes.byref(stationary))
    assert err.value.message == "filter was destroyed"


def test_latlon_columns_for_fence_centres_and_simplify():
    rng = numpy.random.default_rng(3)
    cx = walk(40.7, -74.0, rng.uniform(-2000, 2000, (50, 2)), numpy.zeros(50))
    radii = rng.uniform(30, 300, 50)
    fx = walk(40.7, -74.0, rng.uniform(-60, 60, (300, 2)).cumsum(axis=0), numpy.arange(300) * 10.0)
    rows = t.Monitor(t.Geofences(cx[:, :2], radii)).run(fx)
    cols = t.Monitor(t.Geofences(geoloc.LatLon(cx[:, 0], cx[:, 1]), radii)).run(fx)
    assert (rows == cols).all()
    f = walk(0, 0, [(0, 0), (100, 0), (100, 0), (400, 0)], [0, 50, 100, 150])
    assert list(t.simplify_track(geoloc.LatLon(f[:, 0], f[:, 1]), 1)) == list(t.simplify_track(f[:, :2], 1)) == [0, 3]
    with pytest.raises(ValueError, match="latitudes"):
        t.simplify_track(geoloc.LatLon(f[:, 0], f[:2, 1]), 1)


def test_one_keyword_name_per_thing():
    fences = t.Geofences([(0, 0)], [10], ids=["a"])
    assert fences.id(0) == fences.id(i=0) == "a"
    with pytest.warns(DeprecationWarning, match=r"id\(index=\.\.\.\) is deprecated; use i="):
        assert fences.id(index=0) == "a"
    f = walk(0, 0, [(0, 0), (100, 0), (100, 0), (400, 0)], [0, 50, 100, 150])
    # The model as every other call takes it: the enum, its value or its name in any case.
    wgs = t.track_stats(f, model="wgs84").length_m
    assert t.track_stats(f, model=geoloc.Model.WGS84).length_m == t.track_stats(f, model="WGS84").length_m == wgs
    assert t.track_stats(f, model=1).length_m == wgs
    assert t.track_stats(f).length_m == t.track_stats(f, model="sphere").length_m != wgs
    with pytest.raises(geoloc.InvalidArgumentError, match="model"):
        t.track_stats(f, model="flat")
