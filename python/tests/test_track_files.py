"""Track files through the Python door (issue 21): every finding a regression test named after
it, and the real-device corpus (tests/tracks) against gpxpy 1.6.2's reading of it."""

from __future__ import annotations

import csv
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


def test_files_that_are_not_files(tmp_path):
    fifo = tmp_path / "track.gpx"
    os.mkfifo(fifo)
    for path in (str(fifo), "/dev/zero", "/dev/urandom", str(tmp_path)):
        with pytest.raises(geoloc.InvalidArgumentError):
            geoloc.read_gpx(path)
        with pytest.raises(geoloc.InvalidArgumentError):
            geoloc.read_track_geojson(path)


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
