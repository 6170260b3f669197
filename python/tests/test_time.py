"""Time through the Python door. The zone at a point on the shipped time-zone map (the golden
table of borders picked from the data, the antimeridian, the poles and the sea, from
timezonefinder's full-precision answers), numpy batches, names, the nautical offset, errors,
forged files. Local time against Python's zoneinfo directly (the pinned
tzdata release the library ships), against the shared table (tests/time/zoneinfo.txt), the
transitions of New York, London, Lord Howe, Tehran, Santiago, Chatham and Casablanca, ambiguous
and skipped local times, numpy batches, TZif bytes, and a machine without /usr/share/zoneinfo.
Local time at a point: real places (tests/time/places.txt) against zoneinfo directly."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy

import pytest

# The library reads its rules on first use: the shipped release alone, whatever the system has
# (a system with a newer release is tested in a subprocess below).
os.environ["GEOLOC_ZONEINFO"] = "none"

import geoloc  # noqa: E402
import golden_cases  # noqa: E402
from geoloc import TimeZone, TimeZones  # noqa: E402
from _datafiles import checksum  # noqa: E402
from helpers import raises  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
TABLE = REPO / "tests" / "time" / "zoneinfo.txt"
PINNED_TZDATA = "2026.6"
RELEASE = "2026f"
END_2037 = 2145916800


def read_table():
    zones, links, zone = {}, [], None
    for line in TABLE.read_text().splitlines():
        p = line.split()
        if p[0] == "Z":
            zone = zones.setdefault(p[1], {"states": [], "samples": []})
        elif p[0] in "SP":
            zone["states" if p[0] == "S" else "samples"].append((int(p[1]), int(p[2]), p[3] == "1", p[4]))
        elif p[0] == "L":
            links.append((p[1], p[2]))
    return zones, links


def state_at(states, t):
    k = 0
    while k + 1 < len(states) and states[k + 1][0] <= t:
        k += 1
    return states[k][1:]


@pytest.fixture(scope="module")
def table():
    return read_table()


@pytest.fixture(scope="module")
def zoneinfo_module():
    """Python's zoneinfo reading only the pinned tzdata package: installed, or the wheel that
    tools/gen_time_rules.py fetched into build/tzdata/."""
    wheel = REPO / "build" / "tzdata" / ("tzdata-%s-py2.py3-none-any.whl" % PINNED_TZDATA)
    try:
        import tzdata
    except ImportError:
        tzdata = None
    added = False
    if (tzdata is None or tzdata.__version__ != PINNED_TZDATA) and wheel.exists():
        sys.path.insert(0, str(wheel))
        added = True
        for name in [m for m in sys.modules if m == "tzdata" or m.startswith("tzdata.")]:
            del sys.modules[name]
        import tzdata
    if tzdata is None or tzdata.__version__ != PINNED_TZDATA:
        pytest.skip("zoneinfo's direct comparison needs tzdata==%s (pip install tzdata==%s)" % (PINNED_TZDATA, PINNED_TZDATA))
    import zoneinfo

    zoneinfo.reset_tzpath(to=[])
    zoneinfo.ZoneInfo.clear_cache()
    yield zoneinfo
    zoneinfo.reset_tzpath()
    zoneinfo.ZoneInfo.clear_cache()
    if added:
        sys.path.remove(str(wheel))


def zi_state(zi, t):
    d = datetime.fromtimestamp(t, tz=timezone.utc).astimezone(zi)
    return int(d.utcoffset().total_seconds()), d.dst() != timedelta(0), d.tzname()


# --------------------------------------------------------------------------------------------
# Against zoneinfo and the table
# --------------------------------------------------------------------------------------------


def test_every_zone_against_zoneinfo_directly(zoneinfo_module, table):
    """Every name (zones and links) at every transition of 1970-2037 and the hour around it, the
    far past and future; the transitions found by the library are exactly zoneinfo's; every
    local time in a gap or fold reads back as zoneinfo's fold=0 and fold=1."""
    zones, links = table
    assert geoloc.tzdata_version() == RELEASE
    names = geoloc.time_zone_names()
    assert sorted(names) == sorted(list(zones) + [name for name, _ in links])
    target = dict(links)
    checked = 0
    for name in names:
        zi = zoneinfo_module.ZoneInfo(name)
        rows = zones[target.get(name, name)]
        transitions = [t for t, *_ in rows["states"][1:]]
        # The library's own transitions, followed from 1970: zoneinfo's.
        found, t = [], 0
        while True:
            nxt = geoloc.local_time(name, t).next_transition
            if nxt is None or nxt >= END_2037:
                break
            found.append(nxt)
            t = nxt
        assert found == transitions, name
        instants = [0] + [t + d for t in transitions for d in (-3600, -1800, -1, 0, 1, 1800, 3599)]
        instants += [t for t, *_ in rows["samples"]]
        instants = [t for t in instants if t < END_2037 or t in {s[0] for s in rows["samples"]}]
        got = geoloc.local_times(name, instants)
        for t, lt in zip(instants, got):
            off, dst, abbr = zi_state(zi, t)
            assert (int(lt["utc_offset_s"]), bool(lt["is_dst"]), lt["abbreviation"].decode()) == (off, dst, abbr), (name, t)
            d = datetime.fromtimestamp(t, tz=timezone.utc).astimezone(zi)
            fields = tuple(int(lt[f]) for f in ("year", "month", "day", "hour", "minute", "second", "weekday"))
            assert fields == (d.year, d.month, d.day, d.hour, d.minute, d.second, d.isoweekday()), (name, t)
            checked += 1
        for t in transitions:
            ob, oa = zi_state(zi, t - 1)[0], zi_state(zi, t)[0]
            if ob == oa:
                continue
            for local in sorted({t + min(ob, oa), t + (ob + oa) // 2, t + max(ob, oa) - 1}):
                wall = datetime(1970, 1, 1) + timedelta(seconds=local)
                r = geoloc.resolve_local_time(name, wall)
                assert r.kind == ("skipped" if oa > ob else "ambiguous")
                assert [r.before, r.after] == [int(wall.replace(tzinfo=zi, fold=f).timestamp()) for f in (0, 1)], (name, wall)
                assert r.transition == t
    assert checked > 200000


def test_table_shared_with_the_other_doors(table):
    zones, links = table
    assert len(zones) == 345 and len(links) == 253
    for name, rows in zones.items():
        states = rows["states"]
        instants = [t + d for t, *_ in states for d in (-1, 0, 1) if 0 <= t + d < END_2037]
        got = geoloc.local_times(name, instants)
        want = [state_at(states, t) for t in instants]
        assert [(int(g["utc_offset_s"]), bool(g["is_dst"]), g["abbreviation"].decode()) for g in got] == want, name


# --------------------------------------------------------------------------------------------
# By hand
# --------------------------------------------------------------------------------------------


def text(zone, t, style="seconds"):
    return geoloc.local_time_text(zone, t, style)


def test_new_york():
    assert text("America/New_York", 1772953199) == "2026-03-08 01:59:59 EST"
    assert text("America/New_York", 1772953200, "iso8601") == "2026-03-08T03:00:00-04:00"
    lt = geoloc.local_time("America/New_York", 1772953200)
    assert lt.is_dst and lt.abbreviation == "EDT" and lt.next_transition == 1793512800 and lt.weekday == 7
    assert lt.datetime() == datetime(2026, 3, 8, 7, tzinfo=timezone.utc)
    assert lt.datetime().tzname() == "EDT"
    skipped = geoloc.resolve_local_time("America/New_York", 2026, 3, 8, 2, 30)
    assert skipped == geoloc.LocalInstants("skipped", 1772955000, 1772951400, 1772953200, -18000, -14400)
    assert skipped.instant is None
    twice = geoloc.resolve_local_time("America/New_York", datetime(2026, 11, 1, 1, 30))
    assert (twice.kind, twice.before, twice.after) == ("ambiguous", 1793511000, 1793514600)
    once = geoloc.resolve_local_time("America/New_York", 2026, 11, 24, 9, 5)
    assert once.kind == "unique" and once.instant == 1795529100 and once.transition is None
    # The far past and the far future.
    assert text("America/New_York", -5364619200, "iso8601") == "1800-01-01T07:03:58-04:56:02"
    assert text("America/New_York", geoloc.TIME_MAX) == "9999-12-31 18:59:59 EST"
    assert geoloc.local_time("America/New_York", geoloc.TIME_MAX).next_transition is None
    assert text("America/New_York", 32516769600, "minutes") == "3000-06-01 08:00 EDT"


@pytest.mark.parametrize("zone, t, before, after", [
    ("Europe/London", 1774746000, "2026-03-29 00:59:59 GMT", "2026-03-29 02:00:00 BST"),
    ("Europe/London", 1792890000, "2026-10-25 01:59:59 BST", "2026-10-25 01:00:00 GMT"),
    ("Australia/Lord_Howe", 1775314800, "2026-04-05 01:59:59 +11", "2026-04-05 01:30:00 +1030"),
    ("Australia/Lord_Howe", 1791041400, "2026-10-04 01:59:59 +1030", "2026-10-04 02:30:00 +11"),
    ("Asia/Tehran", 1616358600, "2021-03-21 23:59:59 +0330", "2021-03-22 01:00:00 +0430"),
    ("America/Santiago", 1775358000, "2026-04-04 23:59:59 -03", "2026-04-04 23:00:00 -04"),
    ("America/Santiago", 1788667200, "2026-09-05 23:59:59 -04", "2026-09-06 01:00:00 -03"),
    ("Pacific/Chatham", 1775311200, "2026-04-05 03:44:59 +1345", "2026-04-05 02:45:00 +1245"),
    ("Pacific/Chatham", 1790431200, "2026-09-27 02:44:59 +1245", "2026-09-27 03:45:00 +1345"),
    ("Africa/Casablanca", 1771120800, "2026-02-15 02:59:59 +01", "2026-02-15 02:00:00 +00"),
    ("Africa/Casablanca", 1789866000, "2026-09-20 01:59:59 +01", "2026-09-20 01:00:00 +00"),
])
def test_transitions_by_hand(zone, t, before, after):
    assert [text(zone, t - 1), text(zone, t)] == [before, after]
    assert geoloc.local_time(zone, t - 1).next_transition == t


def test_half_hour_and_quarter_hour_folds():
    r = geoloc.resolve_local_time("Australia/Lord_Howe", 2026, 4, 5, 1, 45)
    assert r.kind == "ambiguous" and r.after - r.before == 1800
    r = geoloc.resolve_local_time("Australia/Lord_Howe", 2026, 10, 4, 2, 15)
    assert r.kind == "skipped" and r.before - r.after == 1800
    r = geoloc.resolve_local_time("Pacific/Chatham", 2026, 9, 27, 3, 0)
    assert r.kind == "skipped" and (r.offset_before_s, r.offset_after_s) == (45900, 49500)
    assert geoloc.local_time("Asia/Tehran", 1795550709).next_transition is None
    assert geoloc.local_time("Africa/Casablanca", 1771120800).is_dst


def test_text_styles():
    t = 1795550709  # 2026-11-24T20:05:09Z
    assert geoloc.local_time_text("America/Chicago", t) == "2026-11-24 14:05 CST"
    assert geoloc.local_time_text("America/Chicago", t, "seconds") == "2026-11-24 14:05:09 CST"
    assert geoloc.local_time_text("America/Chicago", t, "iso8601") == "2026-11-24T14:05:09-06:00"
    assert geoloc.local_time_text("America/Chicago", t, "12_hour") == "2:05 PM CST"
    assert geoloc.local_time_text("America/Chicago", t, 3) == "2:05 PM CST"
    assert geoloc.local_time_text("america/chicago", datetime(2026, 11, 24, 20, 5, 9, tzinfo=timezone.utc)) == "2026-11-24 14:05 CST"
    assert geoloc.local_time_text("Asia/Kolkata", 0) == "1970-01-01 05:30 IST"
    raises(geoloc.InvalidArgumentError, geoloc.local_time_text, "UTC", 0, "long")
    raises(geoloc.InvalidArgumentError, geoloc.local_time_text, "UTC", 0, 7)


# --------------------------------------------------------------------------------------------
# Batches: a track's fixes by local day
# --------------------------------------------------------------------------------------------


def test_local_times_and_dates_of_a_track():
    # Fixes every 97.25 s across New York's fall-back night, as a fix array's time column.
    times = 1793490000 + numpy.arange(2000) * 97.25
    fixes = geoloc.fix_array(numpy.full(times.size, 40.7), numpy.full(times.size, -74.0), times, 5.0)
    lt = geoloc.local_times("America/New_York", fixes[:, 2])
    assert lt.dtype == geoloc.LOCAL_TIME_DTYPE and lt.shape == (2000,)
    for k in (0, 231, 232, 999, 1999):
        one = geoloc.local_time("America/New_York", int(times[k] // 1))
        assert int(lt["utc_offset_s"][k]) == one.utc_offset_s and int(lt["hour"][k]) == one.hour
        assert lt["abbreviation"][k].decode() == one.abbreviation
        assert int(lt["next_transition"][k]) == (one.next_transition or (1 << 63) - 1)
    assert set(lt["abbreviation"].tolist()) == {b"EDT", b"EST"}
    dates = geoloc.local_dates("America/New_York", fixes[:, 2])
    assert dates.dtype == numpy.dtype("datetime64[D]")
    want = [numpy.datetime64("%04d-%02d-%02d" % (y, m, d)) for y, m, d in zip(lt["year"], lt["month"], lt["day"])]
    assert (dates == numpy.array(want)).all()
    assert geoloc.local_dates("Asia/Tokyo", [1795550709.5, -0.5]).tolist() == [
        datetime(2026, 11, 25).date(), datetime(1970, 1, 1).date()]
    # Shuffled times give the same answers.
    perm = numpy.random.default_rng(23).permutation(times.size)
    assert (geoloc.local_times("America/New_York", times[perm]) == lt[perm]).all()
    assert geoloc.local_times("UTC", []).shape == (0,)


def test_bad_arguments():
    raises(geoloc.NotFoundError, geoloc.local_time, "Mars/Olympus_Mons", 0)
    for bad in ["", "../../etc/passwd", "/etc/passwd", "a b", "America//Chicago"]:
        raises(geoloc.InvalidArgumentError, geoloc.local_time, bad, 0)
    raises(geoloc.InvalidArgumentError, geoloc.local_time, "UTC\0x", 0)
    raises(TypeError, geoloc.local_time, None, 0)
    raises(TypeError, geoloc.local_time, "UTC", 1.5)
    raises(TypeError, geoloc.local_time, "UTC", True)
    raises(geoloc.InvalidArgumentError, geoloc.local_time, "UTC", datetime(2026, 1, 1))
    raises(geoloc.OutOfRangeError, geoloc.local_time, "UTC", geoloc.TIME_MAX + 1)
    raises(geoloc.OutOfRangeError, geoloc.local_time, "UTC", 1 << 70)
    err = raises(geoloc.NotFiniteError, geoloc.local_times, "UTC", [0.0, float("nan")])
    assert "times[1]" in str(err)
    raises(geoloc.OutOfRangeError, geoloc.local_times, "UTC", [1e300])
    raises(ValueError, geoloc.local_times, "UTC", [[0.0, 1.0]])
    raises(geoloc.OutOfRangeError, geoloc.resolve_local_time, "UTC", 2026, 2, 29)
    raises(geoloc.OutOfRangeError, geoloc.resolve_local_time, "UTC", 2026, 1, 1, 24)
    raises(geoloc.OutOfRangeError, geoloc.resolve_local_time, "UTC", 1 << 40)
    raises(geoloc.InvalidArgumentError, geoloc.resolve_local_time, "UTC", datetime(2026, 1, 1, tzinfo=timezone.utc))


# --------------------------------------------------------------------------------------------
# TZif files and where the rules come from
# --------------------------------------------------------------------------------------------


def test_tzif_bytes():
    path = Path("/usr/share/zoneinfo/America/Chicago")
    if path.exists():
        lt = geoloc.tzif_local_time(path.read_bytes(), 1795550709)
        assert (lt.abbreviation, lt.hour, lt.minute) == ("CST", 14, 5)
    raises(geoloc.ParseError, geoloc.tzif_local_time, b"", 0)
    raises(geoloc.ParseError, geoloc.tzif_local_time, b"TZif2" + bytes(100), 0)
    right = Path("/usr/share/zoneinfo/right/UTC")
    if right.exists():
        raises(geoloc.UnsupportedError, geoloc.tzif_local_time, right.read_bytes(), 0)


def run_child(env, code):
    environment = dict(os.environ)
    environment.update(env)
    environment["PYTHONPATH"] = os.pathsep.join([str(Path(geoloc.__file__).resolve().parents[1])] + sys.path)
    return subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True, timeout=120)


def test_no_system_zoneinfo_in_a_fresh_process():
    """As on a machine without /usr/share/zoneinfo: the shipped rules answer."""
    code = "import geoloc; print(geoloc.tzdata_version()); print(geoloc.local_time_text('America/Chicago', 1795550709))"
    out = run_child({"GEOLOC_ZONEINFO": "none"}, code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == [RELEASE, "2026-11-24 14:05 CST"]
    # Neither the compiled rules nor a system directory: a clear error, not a guess.
    out = run_child({"GEOLOC_ZONEINFO": "none", "GEOLOC_TZRULES": "/nonexistent/zoneinfo.rules"},
                    "import geoloc\ntry:\n    geoloc.local_time('UTC', 0)\nexcept geoloc.NotFoundError as e:\n    print('E', e)")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("E ") and "/nonexistent/zoneinfo.rules" in out.stdout


def test_a_newer_system_release_is_preferred(tmp_path):
    (tmp_path / "Test").mkdir()
    chicago = Path("/usr/share/zoneinfo/America/Chicago")
    if not chicago.exists():
        pytest.skip("no /usr/share/zoneinfo to copy a TZif file from")
    (tmp_path / "Test" / "Chicago").write_bytes(chicago.read_bytes())
    (tmp_path / "tzdata.zi").write_text("# version 2999a\nL America/Chicago Test/Chicago\n")
    code = ("import geoloc; print(geoloc.tzdata_version()); print(geoloc.tzdata_source()); "
            "print(geoloc.local_time_text('Test/Chicago', 1795550709)); print(geoloc.local_time_text('Europe/Paris', 0))")
    out = run_child({"GEOLOC_ZONEINFO": str(tmp_path)}, code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:4] == ["2999a", str(tmp_path), "2026-11-24 14:05 CST", "1970-01-01 01:00 CET"]


SHIPPED = Path(__file__).resolve().parents[2] / "data" / "time" / "timezones.zones"

# --------------------------------------------------------------------------------------------
# The zone at a point
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def zones():
    with TimeZones.open(str(SHIPPED)) as z:
        yield z


def check_timezone_row(row):
    z = geoloc.shared_timezones()
    coord = (float(row["lat"]), float(row["lon"]))
    info = z.info_at(coord)
    assert info.name == row["zone"], row["case"]
    assert z.zone_at(coord) == row["zone"]
    assert geoloc.timezone_at(coord) == row["zone"]
    if row["utc_offset_hours"]:
        assert info.nautical and info.utc_offset_hours == int(row["utc_offset_hours"])
    else:
        assert not info.nautical and info.utc_offset_hours is None
    assert z.find(row["zone"]) == info.zone


def check_locality_zone_row(row):
    # locality_zones.tsv (tools/gen_locality_zone_cases.py): zone is timezonefinder's at the
    # point; for a row at a place, geonames_zone is GeoNames' own column of the place.
    z = geoloc.locality_zones([(float(row["lat"]), float(row["lon"]))])
    assert z["zone"][0] == row["zone"]
    g = geoloc.shared_gazetteer()
    named = int(z["locality"][0]) if z["locality"][0] >= 0 else int(z["nearest"][0])
    assert z["place_zone"][0] == geoloc.timezone_at(g.places.coord(named))
    if row["geonameid"] and z["locality"][0] >= 0:
        assert g.places.id(named) == row["geonameid"]
        assert z["place_zone"][0] == z["zone"][0]
        if row["geonames_zone"] == row["zone"]:  # all but the 2 places the generator lists
            assert z["place_zone"][0] == row["geonames_zone"]


GOLDEN_CHECKERS = {"timezones.tsv": check_timezone_row, "locality_zones.tsv": check_locality_zone_row}


def test_golden_files_have_checkers():
    assert set(GOLDEN_CHECKERS) == set(golden_cases.FILES_BY_CAPABILITY["time"])


@golden_cases.parametrize("time")
def test_golden(case):
    golden_cases.check_row(case, GOLDEN_CHECKERS)


def test_map(zones):
    assert len(zones.names) == 444
    assert zones.names == sorted(zones.names, key=lambda s: s.encode())
    assert zones.version == "2026c"
    assert zones.name(zones.find("Europe/Berlin")) == "Europe/Berlin"
    with pytest.raises(geoloc.NotFoundError):
        zones.find("Europe/Nowhere")
    with pytest.raises(geoloc.OutOfRangeError):
        zones.name(444)


def test_places_and_sea(zones):
    assert zones.zone_at((41.8781, -87.6298)) == "America/Chicago"
    assert zones.zone_at((43.8256, 87.6168)) == "Asia/Urumqi"  # the smaller of two overlapping zones
    # Etc/GMT-5 is UTC+5: the offset as people read it is given beside the name.
    assert zones.info_at((0.0, 75.0)) == TimeZone("Etc/GMT-5", zones.find("Etc/GMT-5"), True, 5)
    assert zones.info_at((-10.0, -105.0)).utc_offset_hours == -7
    assert zones.info_at((41.8781, -87.6298)).utc_offset_hours is None
    assert zones.zone_at((10.0, 179.9999)) == "Etc/GMT-12"
    assert zones.zone_at((10.0, -179.9999)) == "Etc/GMT+12"
    assert zones.zone_at((-90.0, 0.0)) == "Antarctica/McMurdo"
    assert zones.zone_at((41.8781, -87.6298 + 360)) == "America/Chicago"


def test_batches(zones):
    rng = numpy.random.default_rng(3)
    pts = numpy.c_[rng.uniform(-90, 90, 20000), rng.uniform(-180, 180, 20000)]
    ids = zones.zone_ids_at(pts)
    assert ids.dtype == numpy.uint16 and ids.shape == (20000,)
    assert [zones.zone_id_at(tuple(p)) for p in pts[:500]] == ids[:500].tolist()
    names = zones.zones_at(pts)
    assert names.shape == (20000,) and names[0] == zones.names[ids[0]]
    assert list(geoloc.timezone_at_many(pts[:50])) == list(names[:50])
    assert zones.zone_ids_at(numpy.empty((0, 2))).shape == (0,)
    # A LatLon of two columns, and a list.
    assert zones.zone_ids_at(geoloc.LatLon(pts[:10, 0], pts[:10, 1])).tolist() == ids[:10].tolist()
    assert zones.zone_ids_at([(41.8781, -87.6298)]).tolist() == [zones.find("America/Chicago")]


def test_errors(zones):
    with pytest.raises(geoloc.NotFiniteError):
        zones.zone_at((float("nan"), 0.0))
    with pytest.raises(geoloc.OutOfRangeError):
        zones.zone_at((91.0, 0.0))
    bad = numpy.array([[1.0, 1.0], [2.0, 2.0], [-91.0, 0.0]])
    with pytest.raises(geoloc.OutOfRangeError, match=r"points\[2\]"):
        zones.zone_ids_at(bad)
    with pytest.raises(ValueError):
        zones.zone_ids_at(numpy.zeros((3, 3)))
    with pytest.raises(TypeError):
        TimeZones()


def test_files(tmp_path):
    with pytest.raises(geoloc.NotFoundError):
        TimeZones.open(tmp_path / "none.zones")
    (tmp_path / "short").write_bytes(b"GEOLOCTZ")
    with pytest.raises(geoloc.ParseError):
        TimeZones.open(tmp_path / "short")
    data = bytearray(SHIPPED.read_bytes())
    (tmp_path / "cut").write_bytes(data[:4096])
    with pytest.raises(geoloc.ParseError, match="truncated"):
        TimeZones.open(tmp_path / "cut")
    data[300] ^= 1  # in the index: refused on open
    (tmp_path / "changed").write_bytes(data)
    with pytest.raises(geoloc.ParseError, match="checksum"):
        TimeZones.open(tmp_path / "changed")
    data[300] ^= 1
    data[8] = 7
    (tmp_path / "newer").write_bytes(data)
    with pytest.raises(geoloc.UnsupportedError):
        TimeZones.open(tmp_path / "newer")
    data[8] = 1  # the format before the borders were checked a block at a time
    (tmp_path / "older").write_bytes(data)
    with pytest.raises(geoloc.UnsupportedError, match="gen_timezones"):
        TimeZones.open(tmp_path / "older")


def _map_layout(b: bytes) -> tuple[int, int, int]:
    """Where the root grid, the blocks' checksums and the leaf section start (the format at the
    top of Sources/GeoLoc/Time/TimeZoneFile.swift)."""
    z, cols, rows = struct.unpack_from("<III", b, 20)
    nodes, leaf_bytes, names, source = struct.unpack_from("<QQQQ", b, 40)
    blocks = (leaf_bytes + 8 + 4095) // 4096

    def align(v: int) -> int:
        return (v + 63) // 64 * 64

    root = align(align(align(128 + 8 * z) + names) + source)
    sums = align(align(root + 4 * cols * rows) + 40 * nodes)
    return root, sums, (sums + 8 * blocks + 4095) // 4096 * 4096


def _first_leaf_cell(data: bytearray, root: int) -> tuple[int, float, float]:
    """The first root cell that is a leaf, and the (lat, lon) of its centre."""
    cols, rows = struct.unpack_from("<II", data, 24)
    cell = next(k for k in range(cols * rows) if struct.unpack_from("<I", data, root + 4 * k)[0] >> 30 == 2)
    lon = (((cell % cols) << 24) + (1 << 23) - 1_800_000_000) * 1e-7
    lat = (((cell // cols) << 24) + (1 << 23) - 900_000_000) * 1e-7
    return cell, lat, lon


def _reseal_first_block(data: bytearray, sums: int, leaves: int) -> None:
    """Both checksums of a map whose first leaf block was edited made to match again."""
    struct.pack_into("<Q", data, sums, checksum(bytes(data[leaves:leaves + 4096]), seed=0, sealed=False))
    struct.pack_into("<Q", data, 120, checksum(bytes(data[:leaves])))


def test_forged_leaf(tmp_path):
    """A map forged and resealed (both checksums pass): the first leaf record's first zone made
    511 (the map has 444). It opens (the index is sound), a lookup in that leaf's cell fails with
    a parse error naming the zone, every time, and a lookup elsewhere still answers."""
    data = bytearray(SHIPPED.read_bytes())
    root, sums, leaves = _map_layout(bytes(data))
    cell, lat, lon = _first_leaf_cell(data, root)
    assert struct.unpack_from("<I", data, root + 4 * cell)[0] & 0x3FFFFFFF == 0  # the first record
    data[leaves] |= 0xC0
    data[leaves + 1] |= 0x7F
    _reseal_first_block(data, sums, leaves)
    (tmp_path / "forged").write_bytes(data)
    with TimeZones.open(tmp_path / "forged") as z:
        for _ in range(2):
            with pytest.raises(geoloc.ParseError, match="zone 511"):
                z.zone_at((lat, lon))
        with pytest.raises(geoloc.ParseError, match="zone 511"):
            z.zone_ids_at(numpy.array([[0.0, -30.0], [lat, lon]]))
        assert z.zone_at((0.0, -30.0)) == "Etc/GMT+2"
    data[leaves + 1] ^= 0x80  # the block no longer matches its checksum
    (tmp_path / "changed").write_bytes(data)
    with TimeZones.open(tmp_path / "changed") as z:
        with pytest.raises(geoloc.ParseError, match="checksum"):
            z.zone_at((lat, lon))


def test_forged_crossing(tmp_path):
    """A map forged and resealed to swap one valid zone for another on a leaf's east side: the
    first leaf record's first crossing (24 bits of row, then its zone mask) flips another zone
    set. Every field is in range; the crossings no longer match the record's edges, so a lookup
    in that cell fails with a parse error saying so, one call or a batch."""
    data = bytearray(SHIPPED.read_bytes())
    root, sums, leaves = _map_layout(bytes(data))
    _, lat, lon = _first_leaf_cell(data, root)
    record = int.from_bytes(data[leaves:leaves + 16], "little")
    zone_bits = struct.unpack_from("<I", data, 104)[0]
    nz = (record & 63) + 1
    at = 6 + nz * zone_bits + nz
    assert (record >> at) & 31 >= 1  # it has a crossing
    at += 5 + 24
    data[leaves + at // 8] ^= 1 << (at % 8)
    _reseal_first_block(data, sums, leaves)
    (tmp_path / "forged").write_bytes(data)
    with TimeZones.open(tmp_path / "forged") as z:
        for _ in range(2):
            with pytest.raises(geoloc.ParseError, match="east-side crossings do not match"):
                z.zone_at((lat, lon))
        with pytest.raises(geoloc.ParseError, match="east-side crossings"):
            z.zone_ids_at(numpy.array([[0.0, -30.0], [lat, lon]]))
        assert z.zone_at((0.0, -30.0)) == "Etc/GMT+2"


def test_closed():
    z = TimeZones.open(str(SHIPPED))
    z.close()
    z.close()
    with pytest.raises(ValueError):
        z.zone_at((0.0, 0.0))


# --------------------------------------------------------------------------------------------
# Local time at a point
# --------------------------------------------------------------------------------------------

PLACES = REPO / "tests" / "time" / "places.txt"


def read_places():
    rows = []
    for line in PLACES.read_text().splitlines():
        if line.startswith("#") or not line:
            continue
        f = line.split("\t")
        rows.append((f[0], float(f[1]), float(f[2]), f[3], int(f[4]), int(f[5]), f[6] == "1", f[7],
                     tuple(int(x) for x in f[8:16]), None if f[16] == "?" else int(f[16])))
    return rows


def test_local_time_at_places_against_zoneinfo(zoneinfo_module):
    """Real places (tests/time/places.txt: city centres, Lord Howe, Chatham, the open sea), both
    sides of every transition of 2026: the zone here, then its local time, as zoneinfo gives it."""
    rows = read_places()
    assert len(rows) >= 80
    for place, lat, lon, zone, t, offset, dst, abbr, fields, nxt in rows:
        got = geoloc.local_time_at((lat, lon), t)
        assert got.zone == zone, place
        lt = got.local_time
        zi = zoneinfo_module.ZoneInfo(zone)
        d = datetime.fromtimestamp(t, tz=timezone.utc).astimezone(zi)
        assert (lt.utc_offset_s, lt.is_dst, lt.abbreviation) == zi_state(zi, t) == (offset, dst, abbr), (place, t)
        assert (lt.year, lt.month, lt.day, lt.hour, lt.minute, lt.second) == (
            d.year, d.month, d.day, d.hour, d.minute, d.second), (place, t)
        assert (lt.year, lt.month, lt.day, lt.hour, lt.minute, lt.second, lt.weekday, lt.day_of_year) == fields
        if nxt is not None:
            assert lt.next_transition == nxt, (place, t)
        assert lt == geoloc.local_time(zone, t)
        # (Aware datetimes of two tzinfos never compare equal in a fold (PEP 495): compare the
        # instant and the offset.)
        assert lt.datetime().timestamp() == d.timestamp() == t and lt.datetime().utcoffset() == d.utcoffset()


def test_local_time_at_by_hand():
    t = 1795550709  # 2026-11-24T20:05:09Z
    kathmandu = geoloc.local_time_at((27.717245, 85.323961), t)
    assert kathmandu.zone == "Asia/Kathmandu"
    assert kathmandu.local_time.utc_offset_s == 5 * 3600 + 45 * 60
    assert kathmandu.local_time[6:9] == (25, 1, 50)  # day, hour, minute
    zone, lt = geoloc.local_time_at((-43.9535, -176.5597), t)  # Chatham: +13:45 in summer
    assert zone == "Pacific/Chatham" and lt.utc_offset_s == 13 * 3600 + 45 * 60 and lt.is_dst
    # Lord Howe's half-hour daylight saving time: +10:30, then +11 from 2026-10-04.
    assert geoloc.local_time_at((-31.55305, 159.0839), 1791041399).local_time.utc_offset_s == 37800
    assert geoloc.local_time_at((-31.55305, 159.0839), 1791041400).local_time.utc_offset_s == 39600
    # At sea: Etc/GMT+10 is ten hours behind UTC.
    sea = geoloc.local_time_at((0.0, -150.0), t)
    assert sea.zone == "Etc/GMT+10" and sea.local_time.utc_offset_s == -36000 and sea.local_time.abbreviation == "-10"
    # An aware datetime, a handle, the date line.
    when = datetime(2026, 7, 4, 16, 0, tzinfo=timezone.utc)
    assert geoloc.local_time_at((40.712772, -74.006058), when).local_time.hour == 12
    with TimeZones.open() as zones:
        assert zones.local_time_at((-5.0, 179.9), t).zone == "Etc/GMT-12"
        assert geoloc.local_time_at((-5.0, -179.9), t, timezones=zones).zone == "Etc/GMT+12"
    assert "local_time_at" in geoloc.__all__ and "PlaceTime" in geoloc.__all__


def test_local_time_at_errors():
    raises(geoloc.NotFiniteError, geoloc.local_time_at, (float("nan"), 0.0), 0)
    raises(geoloc.OutOfRangeError, geoloc.local_time_at, (91.0, 0.0), 0)
    raises(geoloc.OutOfRangeError, geoloc.local_time_at, (27.7, 85.3), geoloc.TIME_MAX + 1)
    raises(geoloc.InvalidArgumentError, geoloc.local_time_at, (27.7, 85.3), datetime(2026, 1, 1))  # naive
    zones = TimeZones.open()
    zones.close()
    with pytest.raises(ValueError):
        zones.local_time_at((27.7, 85.3), 0)


def test_every_map_zone_has_rules():
    for name in geoloc.shared_timezones().names:
        geoloc.local_time(name, 0)


# --------------------------------------------------------------------------------------------
# Beside the other capabilities: the zones of a reverse geocode, local times at many points
# --------------------------------------------------------------------------------------------


def test_locality_zones_batch():
    table = golden_cases.read_table(golden_cases.GOLDEN_DIR / "locality_zones.tsv")
    cols = table.header
    rows = [dict(zip(cols, f)) for _, f in table.rows]
    pts = numpy.array([(float(r["lat"]), float(r["lon"])) for r in rows])
    z = geoloc.locality_zones(pts)
    assert list(z["zone"]) == [r["zone"] for r in rows]
    # The border rows do what they are for: the point's clocks and the named town's differ.
    assert int((z["zone"] != z["place_zone"]).sum()) >= 20
    # The same localities as the reverse geocoder's own batch.
    loc = geoloc.shared_gazetteer().localities(pts)
    for k, v in loc.items():
        assert (z[k] == v).all(), k
    assert (z["zone_id"] == geoloc.shared_timezones().zone_ids_at(pts)).all()
    # Options apply; at sea: no locality, a nautical zone.
    sea = geoloc.locality_zones([(0.0, -150.0)], max_distance_m=1000)
    assert sea["locality"][0] == -1 and sea["zone"][0] == "Etc/GMT+10"
    assert geoloc.locality_zones(numpy.empty((0, 2)))["zone"].shape == (0,)
    with pytest.raises(geoloc.OutOfRangeError, match=r"points\[1\]"):
        geoloc.locality_zones([(0.0, 0.0), (91.0, 0.0)])
    with pytest.raises(geoloc.NotFiniteError):
        geoloc.locality_zones([(0.0, 0.0)], max_distance_m=float("nan"))


def test_locality_time():
    # Kayenta, on the Navajo Nation: Mountain time with daylight saving (America/Denver), while
    # the rest of Arizona keeps MST all year.
    t = 1782900000  # 2026-07-01T10:00:00Z
    r = geoloc.locality_time((36.7278, -110.2546), t)
    assert r.place.name == "Kayenta" and r.zone == "America/Denver" and r.place_zone == "America/Denver"
    assert r.local_time.utc_offset_s == -6 * 3600 and r.local_time.abbreviation == "MDT"
    assert r.text() == "Kayenta, AZ, 4:00 AM MDT"
    tuba = geoloc.locality_time((36.135, -111.24), t)
    assert tuba.zone == "America/Denver"
    flagstaff = geoloc.locality_time((35.1983, -111.6513), t)
    assert flagstaff.zone == "America/Phoenix" and flagstaff.text("minutes") == "Flagstaff, AZ, 2026-07-01 03:00 MST"
    # The sea: no locality, the nautical zone's time.
    sea = geoloc.locality_time((0.0, -150.0), t)
    assert not sea.place.has_locality and sea.zone == "Etc/GMT+10" and sea.local_time.hour == 0


def test_local_times_at_many_points():
    rng = numpy.random.default_rng(5)
    n = 3000
    pts = numpy.c_[rng.uniform(-90, 90, n), rng.uniform(-180, 180, n)]
    times = rng.uniform(-2208988800, 4102444800, n)
    lt, names = geoloc.local_times_at(pts, times, with_zones=True)
    assert lt.dtype == geoloc.LOCAL_TIME_DTYPE and lt.shape == (n,) and names.shape == (n,)
    assert (lt == geoloc.local_times_at(pts, times)).all()
    for k in range(0, n, 10):
        one = geoloc.local_time_at(tuple(pts[k]), int(times[k] // 1))
        assert names[k] == one.zone
        got = lt[k]
        assert (int(got["utc_offset_s"]), bool(got["is_dst"]), got["abbreviation"].decode(), int(got["year"]),
                int(got["month"]), int(got["day"]), int(got["hour"]), int(got["minute"]), int(got["second"])) == (
            one.local_time.utc_offset_s, one.local_time.is_dst, one.local_time.abbreviation, one.local_time.year,
            one.local_time.month, one.local_time.day, one.local_time.hour, one.local_time.minute,
            one.local_time.second)
    # A track that crosses zones: each fix's own local date.
    fixes = numpy.array([(41.8781, -87.6298, 1795550709.0), (40.7128, -74.006, 1795550709.0),
                         (27.7172, 85.324, 1795550709.0)])
    lt = geoloc.local_times_at(fixes[:, :2], fixes[:, 2])
    assert lt["utc_offset_s"].tolist() == [-21600, -18000, 20700]
    assert lt["day"].tolist() == [24, 24, 25] and lt["hour"].tolist() == [14, 15, 1]
    assert geoloc.local_times_at(numpy.empty((0, 2)), []).shape == (0,)
    with pytest.raises(geoloc.NotFiniteError, match=r"times\[2\]"):
        geoloc.local_times_at(fixes[:, :2], [0.0, 1.0, float("nan")])
    with pytest.raises(geoloc.OutOfRangeError, match=r"points\[1\]"):
        geoloc.local_times_at([(0.0, 0.0), (-95.0, 0.0)], [0.0, 0.0])
    with pytest.raises(geoloc.OutOfRangeError):
        geoloc.local_times_at([(0.0, 0.0)], [float(geoloc.TIME_MAX) + 1])
    with pytest.raises(ValueError):
        geoloc.local_times_at([(0.0, 0.0)], [0.0, 1.0])


def test_fix_local_times_and_track_local_days():
    # Chicago (CDT) to Indianapolis (EDT) across local midnight, then Kathmandu (+5:45) across
    # its midnight; NaN for a fix without a time.
    t0, t6 = 1782874800.0, 1782900000.0
    nan = float("nan")
    lat = [41.8781, 41.88, 41.89, 41.90, 39.7684, 27.7172, 27.7172, 27.72, 27.73]
    lon = [-87.6298, -87.60, -87.55, -87.50, -86.1581, 85.324, 85.325, 85.33, 85.34]
    times = [t0, t0 + 1800, t0 + 9000, nan, t0 + 10800, nan, t6, t6 + 30000, t6 + 30100]
    fixes = geoloc.fix_array(lat, lon, times, 5.0)
    days = geoloc.track_local_days(fixes, starts=[0, 5])
    assert days.dtype == geoloc.LOCAL_DAY_DTYPE
    assert [(int(d["year"]), int(d["month"]), int(d["day"]), int(d["weekday"])) for d in days] == [
        (2026, 6, 30, 2), (2026, 7, 1, 3), (2026, 7, 2, 4)]
    assert days["fix_count"].tolist() == [2, 5, 2] and days["first_fix"].tolist() == [0, 2, 7]
    assert days["duration_s"].tolist() == [9000.0, 30000.0, 100.0]

    def leg(i):
        return geoloc.distance((lat[i], lon[i]), (lat[i + 1], lon[i + 1]))

    assert days["length_m"][0] == pytest.approx(leg(0) + leg(1), rel=1e-12)
    assert days["length_m"][1] == pytest.approx(leg(2) + leg(3) + leg(5) + leg(6), rel=1e-12)
    assert days["length_m"][2] == pytest.approx(leg(7), rel=1e-12)
    # One segment: the long step counts to July 1.
    one = geoloc.track_local_days(fixes, model="wgs84")
    assert len(one) == 3 and one["length_m"][1] > 1.2e7
    assert geoloc.track_local_days(fixes[3:4]).shape == (0,)
    assert geoloc.track_local_days(numpy.empty((0, 7))).shape == (0,)
    # Each fix's local time where it was taken.
    timed = fixes[~numpy.isnan(fixes[:, 2])]
    lt, zones = geoloc.fix_local_times(timed, with_zones=True)
    assert list(zones) == ["America/Chicago"] * 3 + ["America/Indiana/Indianapolis"] + ["Asia/Kathmandu"] * 3
    assert [b.decode() for b in lt["abbreviation"][:4]] == ["CDT", "CDT", "CDT", "EDT"]
    assert (lt == geoloc.local_times_at(timed[:, :2], timed[:, 2])).all()
    with pytest.raises(geoloc.NotFiniteError, match=r"fixes\[3\]"):
        geoloc.fix_local_times(fixes)
    bad = fixes.copy()
    bad[3, 2] = 1e13
    with pytest.raises(geoloc.OutOfRangeError, match=r"fixes\[3\]"):
        geoloc.track_local_days(bad)
    with pytest.raises(geoloc.OutOfRangeError):
        geoloc.track_local_days(fixes, starts=[5, 2])
