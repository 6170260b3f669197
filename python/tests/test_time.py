"""Time at a place through Python: the zone at a point on the shipped time-zone map (the golden
table of borders picked from the data, the antimeridian, the poles and the sea, from
timezonefinder's full-precision answers), numpy batches, names, the nautical offset, errors,
forged files; and local time."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import geoloc
from geoloc import TimeZone, TimeZones

import golden_cases

SHIPPED = Path(__file__).resolve().parents[2] / "data" / "time" / "timezones.zones"

# ============================================================================================
# The zone at a point
# ============================================================================================


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


GOLDEN_CHECKERS = {"timezones.tsv": check_timezone_row}


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
    rng = np.random.default_rng(3)
    pts = np.c_[rng.uniform(-90, 90, 20000), rng.uniform(-180, 180, 20000)]
    ids = zones.zone_ids_at(pts)
    assert ids.dtype == np.uint16 and ids.shape == (20000,)
    assert [zones.zone_id_at(tuple(p)) for p in pts[:500]] == ids[:500].tolist()
    names = zones.zones_at(pts)
    assert names.shape == (20000,) and names[0] == zones.names[ids[0]]
    assert list(geoloc.timezone_at_many(pts[:50])) == list(names[:50])
    assert zones.zone_ids_at(np.empty((0, 2))).shape == (0,)
    # A LatLon of two columns, and a list.
    assert zones.zone_ids_at(geoloc.LatLon(pts[:10, 0], pts[:10, 1])).tolist() == ids[:10].tolist()
    assert zones.zone_ids_at([(41.8781, -87.6298)]).tolist() == [zones.find("America/Chicago")]


def test_errors(zones):
    with pytest.raises(geoloc.NotFiniteError):
        zones.zone_at((float("nan"), 0.0))
    with pytest.raises(geoloc.OutOfRangeError):
        zones.zone_at((91.0, 0.0))
    bad = np.array([[1.0, 1.0], [2.0, 2.0], [-91.0, 0.0]])
    with pytest.raises(geoloc.OutOfRangeError, match=r"points\[2\]"):
        zones.zone_ids_at(bad)
    with pytest.raises(ValueError):
        zones.zone_ids_at(np.zeros((3, 3)))
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
    data[len(data) // 3] ^= 1
    (tmp_path / "changed").write_bytes(data)
    with pytest.raises(geoloc.ParseError, match="checksum"):
        TimeZones.open(tmp_path / "changed")
    data[len(data) // 3] ^= 1
    data[8] = 7
    (tmp_path / "newer").write_bytes(data)
    with pytest.raises(geoloc.UnsupportedError):
        TimeZones.open(tmp_path / "newer")


def test_closed():
    z = TimeZones.open(str(SHIPPED))
    z.close()
    z.close()
    with pytest.raises(ValueError):
        z.zone_at((0.0, 0.0))


# ============================================================================================
# Local time
# ============================================================================================
