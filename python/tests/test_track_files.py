"""Track files through the Python door (issue 21): every finding a regression test named after
it, and the real-device corpus (tests/tracks) against gpxpy 1.6.2's reading of it."""

from __future__ import annotations

import csv
import errno
import math
import os
import tempfile
from pathlib import Path

import numpy
import pytest

import geoloc

REPO = Path(__file__).resolve().parents[2]
TRACKS = REPO / "tests" / "tracks"
R = 6371008.8


def hav(a, b):
    return geoloc.distance(a, b, unit="m")


def test_segments_are_lost():
    gpx = ("<gpx><trk><name>Two rides</name>"
           "<trkseg><trkpt lat='45.0' lon='7.0'><time>2026-05-01T10:00:00Z</time></trkpt>"
           "<trkpt lat='45.001' lon='7.0'><time>2026-05-01T10:00:30Z</time></trkpt>"
           "<trkpt lat='45.002' lon='7.0'><time>2026-05-01T10:01:00Z</time></trkpt></trkseg>"
           "<trkseg><trkpt lat='46.0' lon='7.0'><time>2026-05-02T10:00:00Z</time></trkpt>"
           "<trkpt lat='46.0' lon='7.001'><time>2026-05-02T10:00:20Z</time></trkpt></trkseg></trk></gpx>")
    tr = geoloc.read_gpx(gpx)
    assert list(tr.segment) == [0, 0, 0, 1, 1]
    assert list(tr.segments["first"]) == [0, 3] and list(tr.segments["count"]) == [3, 2]
    assert tr.path_names == ["Two rides"]
    m = tr.stats()
    a = hav((45, 7), (45.001, 7)) + hav((45.001, 7), (45.002, 7))
    b = hav((46, 7), (46, 7.001))
    assert m.segments[0].length_m == pytest.approx(a, rel=1e-12)
    assert m.whole.length_m == pytest.approx(a + b, rel=1e-12)
    assert m.whole.duration_s == 80 and [s.duration_s for s in m.segments] == [60, 20]
    # One segment over the same points measures the gap: what 0.3 did.
    assert geoloc.measure_segments(tr.points).whole.duration_s == 86420
    assert geoloc.track_stats(tr.fixes).duration_s == 86420


def test_empty_ele_drops_the_point():
    gpx = ("<gpx><trk><trkseg>"
           "<trkpt lat='1' lon='2'><ele/><time>2026-01-01T00:00:00Z</time></trkpt>"
           "<trkpt lat='1.001' lon='2'><ele></ele><time>2026-01-01T00:00:01Z</time></trkpt>"
           "<trkpt lat='1.002' lon='2'><ele>12.5</ele><time/></trkpt></trkseg></trk></gpx>")
    tr = geoloc.read_gpx(gpx)
    assert len(tr.points) == 3 and tr.issues == []
    assert numpy.isnan(tr.points[:2, 6]).all() and tr.points[2, 6] == 12.5 and numpy.isnan(tr.points[2, 2])


def test_points_without_time_are_dropped():
    gpx = ("<gpx><trk><trkseg><trkpt lat='10' lon='20'><time>2026-01-01T00:00:00Z</time></trkpt>"
           "<trkpt lat='10.001' lon='20'/><trkpt lat='10.002' lon='20'/>"
           "<trkpt lat='10.003' lon='20'><time>2026-01-01T00:01:00Z</time></trkpt></trkseg></trk></gpx>")
    fixes, issues, timed = geoloc.read_gpx(gpx)  # still 0.3's tuple
    assert len(fixes) == 4 and issues == [] and timed
    tr = geoloc.read_gpx(gpx)
    s = tr.stats().whole
    assert (s.point_count, s.timed_count, s.duration_s) == (4, 2, 60)
    assert s.timed_length_m == pytest.approx(s.length_m) and s.start_time == 1767225600


def test_routes_and_waypoints_are_ignored():
    gpx = ("<gpx creator='GraphHopper'><wpt lat='48.1' lon='11.5'><ele>520</ele><time>2026-03-01T08:00:00Z</time>"
           "<name>Start</name></wpt><wpt lat='48.2' lon='11.6'><name>Café</name></wpt>"
           "<rte><name>Munich loop</name><rtept lat='48.1' lon='11.5'><name>turn left</name></rtept>"
           "<rtept lat='48.15' lon='11.55'/><rtept lat='48.2' lon='11.6'/></rte></gpx>")
    tr = geoloc.read_gpx(gpx, point_names=True)
    assert len(tr.fixes) == 3 and list(tr.segments["kind"]) == [1]
    assert geoloc._track_files.SEGMENT_KINDS[tr.segments["kind"][0]] == "route"
    assert tr.path_names == ["Munich loop"] and tr.point_names == ["turn left", None, None]
    assert tr.waypoint_names == ["Start", "Café"]
    assert tr.waypoints[0, 6] == 520 and tr.waypoints[0, 2] == 1772352000 and numpy.isnan(tr.waypoints[1, 2])


@pytest.mark.parametrize("encoding", ["iso-8859-1", "windows-1252", "utf-16-le", "utf-16-be", "utf-8-sig"])
def test_declared_encoding_is_refused(encoding):
    name = "Café Zürich" if encoding != "windows-1252" else "“Café” – 5 €"
    declared = {"utf-16-le": "UTF-16", "utf-16-be": "UTF-16", "utf-8-sig": "UTF-8"}.get(encoding, encoding.upper())
    text = ("<?xml version='1.0' encoding='%s'?><gpx><trk><name>%s</name><trkseg><trkpt lat='47.37' lon='8.54'/>"
            "</trkseg></trk></gpx>" % (declared, name))
    data = text.encode(encoding)
    if encoding.startswith("utf-16"):
        data = (b"\xff\xfe" if encoding.endswith("le") else b"\xfe\xff") + data
    tr = geoloc.read_gpx(data)
    assert tr.path_names == [name] and tr.points[0, 0] == 47.37
    with pytest.raises(geoloc.UnsupportedError, match="KOI8-R"):
        geoloc.read_gpx(b"<?xml version='1.0' encoding='KOI8-R'?><gpx/>")
    with pytest.raises(geoloc.InvalidUTF8Error, match="line 2"):
        geoloc.read_gpx(b"<?xml version='1.0'?>\n<gpx><wpt lat='1' lon='2'><name>Caf\xe9</name></wpt></gpx>")


def test_extensions_ignored_and_entities_refused():
    tr = geoloc.read_gpx("<gpx><trk><trkseg><trkpt lat='1' lon='2'><ele>5</ele><extensions><ele>999</ele>"
                         "<time>2001-01-01T00:00:00Z</time></extensions></trkpt></trkseg></trk></gpx>")
    assert tr.points[0, 6] == 5 and not tr.timed
    with pytest.raises(geoloc.ParseError, match="document type"):
        geoloc.read_gpx("<!DOCTYPE gpx [<!ENTITY x 'y'>]><gpx>&x;</gpx>")


def test_track_loads_keep_every_issue():
    gpx = "<gpx><trk><trkseg>" + "".join("<trkpt lat='x' lon='2'/>" for _ in range(1500)) + "</trkseg></trk></gpx>"
    tr = geoloc.read_gpx(gpx)
    assert len(tr.issues) == 1000 and tr.issue_total == 1500 and len(tr.points) == 0


#: Every track loader of the Python door: the defaults, and tight limits.
_TIGHT = dict(max_issues=1, max_bytes=4096, max_records=10)
_TRACK_LOADERS = {
    "read_gpx": geoloc.read_gpx,
    "read_track_geojson": geoloc.read_track_geojson,
    "read_gpx (limits)": lambda p: geoloc.read_gpx(p, **_TIGHT),
    "read_track_geojson (limits)": lambda p: geoloc.read_track_geojson(p, **_TIGHT),
}


def _peak_rss_kb():
    import resource

    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


@pytest.mark.parametrize("loader", sorted(_TRACK_LOADERS))
def test_files_that_are_not_files(loader, tmp_path):
    """A FIFO, /dev/zero, /dev/urandom and a directory through every track loader: refused at
    once, in bounded memory. The watchdog (SIGALRM, 60 s) only turns a hang into a failure: no
    timing is asserted."""
    import signal

    fifo = tmp_path / "track.gpx"
    os.mkfifo(fifo)
    before = _peak_rss_kb()

    def hang(signum, frame):  # pragma: no cover - only on a regression
        raise TimeoutError("%s blocked" % loader)

    old = signal.signal(signal.SIGALRM, hang)
    signal.alarm(60)
    try:
        for path in (str(fifo), "/dev/zero", "/dev/urandom", str(tmp_path)):
            with pytest.raises(geoloc.InvalidArgumentError, match="not a regular file|Is a directory"):
                _TRACK_LOADERS[loader](path)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert _peak_rss_kb() - before < 256 * 1024  # kB


# 5 GPX records (3 trkpt, one unusable, 1 rtept, 1 wpt) with 3 issues; 4 GeoJSON records (3
# positions, 1 Point feature) with 2.
_LIMIT_GPX = ("<gpx><wpt lat='1' lon='1'/><trk><trkseg><trkpt lat='1' lon='2'><ele>x</ele></trkpt>"
              "<trkpt lat='bad' lon='2'/><trkpt lat='1.1' lon='2'><time>never</time></trkpt></trkseg></trk>"
              "<rte><rtept lat='3' lon='4'/></rte></gpx>")
_LIMIT_JSON = ('{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":'
               '{"type":"LineString","coordinates":[[2,1,"x"],[2,91],[2,1.1]]}},{"type":"Feature",'
               '"properties":{"name":"P"},"geometry":{"type":"Point","coordinates":[4,3]}}]}')


@pytest.mark.parametrize("kind", ["gpx", "geojson"])
@pytest.mark.parametrize("from_file", [False, True])
def test_track_load_limits(kind, from_file, tmp_path):
    """Issue 21 item 2: a byte limit, a record limit and an issue cap on every load,
    caller-settable (the place loaders' keywords); the byte and record limits refuse with a
    message naming the limit."""
    text, records, issues = (_LIMIT_GPX, 5, 3) if kind == "gpx" else (_LIMIT_JSON, 4, 2)
    read = geoloc.read_gpx if kind == "gpx" else geoloc.read_track_geojson
    source = text
    if from_file:
        source = tmp_path / ("t." + kind)
        source.write_text(text)
    tr = read(source, max_bytes=len(text), max_records=records)
    assert len(tr.issues) == issues and tr.issue_total == issues
    with pytest.raises(geoloc.CountTooLargeError, match="max_bytes %d" % (len(text) - 1)):
        read(source, max_bytes=len(text) - 1)
    with pytest.raises(geoloc.CountTooLargeError, match="max_records %d" % (records - 1)):
        read(source, max_records=records - 1)
    tr = read(source, max_issues=1)
    assert len(tr.issues) == 1 and tr.issue_total == issues
    with pytest.raises(geoloc.ParseError):
        read(source, strict=True, max_bytes=len(text))
    with pytest.raises(geoloc.OutOfRangeError):
        read(source, max_records=0)
    with pytest.raises(TypeError):
        read(source, max_bytes=1.5)
    with pytest.raises(TypeError):
        read(source, max_places=1)  # a place limit: not a track loader's
    with pytest.raises(FileNotFoundError) as missing:  # the limited loaders take a path too
        read(tmp_path / "missing", max_records=records)
    assert type(missing.value) is geoloc.NotFoundError and missing.value.errno == errno.ENOENT


_PEAK_CHILD = r"""
import os, sys
import geoloc
def kb(field):
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith(field))
source = sys.argv[1] if sys.argv[2] == "file" else open(sys.argv[1], "rb").read()
# A first refused load warms the library and the door (one-time tables, ctypes' prototypes).
for warm in ('{"type":"LineString","coordinates":[[1,2],[3,4],[5,6]]}', "/nonexistent/warm.json"):
    try:
        geoloc.read_track_geojson(warm, max_records=1)
    except geoloc.GeolocError:
        pass
try:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    measured = True
except OSError:
    measured = False
rss = kb("VmRSS:")
try:
    geoloc.read_track_geojson(source, max_records=1000)
except geoloc.CountTooLargeError as e:
    assert "max_records 1000" in str(e)
else:
    raise SystemExit("loaded")
print(kb("VmHWM:") - rss if measured else -1)
"""


@pytest.mark.parametrize("from_file", [False, True])
def test_geojson_max_records_bounds_memory(from_file, tmp_path):
    """Issue 21 item 2: a GeoJSON load refused at max_records 1,000 peaked at three times its
    file (the token document was built before a position was counted); the positions are
    counted first now. Memory in a child process (VmHWM reset through /proc/self/clear_refs):
    the load adds less than an eighth of the document's size."""
    import subprocess
    import sys
    n = 300000
    path = tmp_path / "long.json"
    coords = ",".join("[%.6f,%.6f,%.1f]" % (7 + 1e-6 * i, 45 + 1e-6 * (i % 1000), 100 + 0.1 * (i % 50))
                      for i in range(n))
    path.write_text('{"type":"Feature","properties":{},"geometry":{"coordinates":[%s],"type":"LineString"}}' % coords)
    size = path.stat().st_size
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.dirname(os.path.dirname(geoloc.__file__))] + [p for p in sys.path if p]))
    out = subprocess.run([sys.executable, "-c", _PEAK_CHILD, str(path), "file" if from_file else "bytes"],
                         env=env, capture_output=True, text=True, check=True)
    grew_kb = int(out.stdout.split()[-1])
    if grew_kb >= 0:
        assert grew_kb * 1024 < size / 8, (grew_kb, size)
    assert geoloc.read_track_geojson(path, max_records=n).points.shape[0] == n
    with pytest.raises(geoloc.CountTooLargeError, match="max_records %d" % (n - 1)):
        geoloc.read_track_geojson(path.read_bytes(), max_records=n - 1)


def test_gpx_reading_is_quadratic(tmp_path):
    # 0.3 counted lines from byte 0 at every point: 100,000 points took tens of minutes.
    n = 100_000
    rows = "".join("<trkpt lat='%.6f' lon='7'><time>2026-01-01T00:00:%02dZ</time></trkpt>\n" % (45 + i * 1e-6, i % 60)
                   for i in range(n))
    path = tmp_path / "big.gpx"
    path.write_text("<gpx><trk><trkseg>\n" + rows + "<trkpt lat='x' lon='7'/>\n</trkseg></trk></gpx>\n")
    tr = geoloc.read_gpx(str(path))
    assert len(tr.points) == n and tr.issues == [(n, "trkpt %d (line %d): lat \"x\" is not a decimal number" % (n, n + 2))]


def test_non_finite_with_ok():
    f = geoloc.fix_array([0, 0], [0, 0.001], [-1e308, 1e308])
    with pytest.raises(geoloc.OutOfRangeError, match="1.8e308"):
        geoloc.track_stats(f)
    f = geoloc.fix_array([0, 0, 0], [0, 0.001, 0.002], [0, 10, 20], altitude_m=[1e308, -1e308, 1e308])
    with pytest.raises(geoloc.OutOfRangeError, match="elevation"):
        geoloc.track_stats(f)
    f = geoloc.fix_array([0, 0], [0, 1], [0, 5e-324])
    with pytest.raises(geoloc.OutOfRangeError, match="speed"):
        geoloc.track_stats(f)
    r = geoloc.resample_track(geoloc.fix_array([0, 0], [0, 0.01], [0, 100], altitude_m=[1e308, -1e308]), time_s=10)
    assert numpy.isfinite(r[:, 6]).all() and r[5, 6] == 0 and r[-1, 6] == -1e308


def test_geojson_multilinestring_segments():
    doc = ('{"type":"Feature","properties":{"name":"Day 1","coordTimes":[["2026-01-01T00:00:00Z",null],[100,160]]},'
           '"geometry":{"type":"MultiLineString","coordinates":[[[2,1,5],[2,1.001,null]],[[3,1],[3,1.001,7]]]}}')
    tr = geoloc.read_track_geojson(doc)
    assert list(tr.segment) == [0, 0, 1, 1] and tr.path_names == ["Day 1"]
    assert numpy.isnan(tr.points[1, 2]) and numpy.isnan(tr.points[1, 6]) and tr.points[3, 6] == 7
    assert [s.duration_s for s in tr.stats().segments] == [0, 60]


def _corpus():
    with open(TRACKS / "corpus.tsv") as f:
        rows = [r for r in csv.reader((line for line in f if not line.startswith("#")), delimiter="\t")]
    head = rows[0]
    return [dict(zip(head, r)) for r in rows[1:]]


def test_corpus_against_gpxpy():
    rows = _corpus()
    tracks = {}
    for r in rows:
        name = r["file"]
        if name not in tracks:
            tr = geoloc.read_gpx(str(TRACKS / "gpx" / name), strict=True)
            tracks[name] = (tr, tr.stats())
        tr, m = tracks[name]
        if r["kind"] == "waypoints":
            pts, s = tr.waypoints, None
        else:
            kind = geoloc._track_files.SEGMENT_KINDS.index(r["kind"])
            index = [k for k in range(len(tr.segments)) if tr.segments["kind"][k] == kind][int(r["index"])]
            first, count = int(tr.segments["first"][index]), int(tr.segments["count"][index])
            pts, s = tr.points[first:first + count], m.segments[index]
        timed = pts[~numpy.isnan(pts[:, 2]), 2]
        eles = pts[~numpy.isnan(pts[:, 6]), 6]
        assert len(pts) == int(r["points"]) and len(timed) == int(r["timed"]) and len(eles) == int(r["ele_count"]), r
        assert pts[:, 0].sum() == pytest.approx(float(r["lat_sum"]), abs=1e-6)
        assert pts[:, 1].sum() == pytest.approx(float(r["lon_sum"]), abs=1e-6)
        assert eles.sum() == pytest.approx(float(r["ele_sum"]), abs=1e-4)
        if len(timed):
            assert timed[0] == pytest.approx(float(r["first_time"]), abs=1e-3)
            assert (timed - timed[0]).sum() == pytest.approx(float(r["time_offset_sum"]), abs=1e-2)
        if s is not None:
            assert s.length_m == pytest.approx(float(r["length_m"]), rel=1e-9, abs=1e-6), r
            assert s.duration_s == pytest.approx(float(r["duration_s"]), abs=1e-3), r
            assert s.elevation_gain_m == pytest.approx(float(r["gain_m"]), rel=1e-9, abs=1e-6), r
            assert s.elevation_loss_m == pytest.approx(float(r["loss_m"]), rel=1e-9, abs=1e-6), r
            assert s.backward_steps == int(r["backward"])
    assert len(tracks) >= 20
