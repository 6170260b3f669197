"""Offline reverse geocoding through Python: the shipped gazetteer, "City, State", the gazetteer's
place view and its lifetime, small gazetteer files, errors."""

from __future__ import annotations

import gc
import weakref


import pytest

import geoloc
from geoloc import (
    AddressStyle,
    Gazetteer,
    Match,
    ReverseGeocode,
)
from geoloc import _ffi, _geocoding, _places

from helpers import INF, raises


# ============================================================================================
# The gazetteer and reverse geocoding
# ============================================================================================

SPRINGFIELD = (39.80, -89.64)


def test_reverse_geocode(gazetteer):
    g = gazetteer
    assert g.reverse_geocode(SPRINGFIELD) == "Springfield, IL"
    assert g.reverse_geocode(SPRINGFIELD, "city_state_country") == "Springfield, Illinois, United States"
    assert g.reverse_geocode(SPRINGFIELD, AddressStyle.CITY_STATE_COUNTRY) == "Springfield, Illinois, United States"
    assert geoloc.reverse_geocode(SPRINGFIELD) == "Springfield, IL"
    assert geoloc.reverse_geocode(SPRINGFIELD, style="city_state_country") == "Springfield, Illinois, United States"
    rev = g.reverse(SPRINGFIELD)
    assert isinstance(rev, ReverseGeocode)
    assert rev.text == "Springfield, IL"
    assert (rev.name, rev.country_code, rev.admin1_code, rev.admin1_name) == ("Springfield", "US", "IL", "Illinois")
    assert rev.admin2_name == "Sangamon County"
    assert 0 <= rev.distance_m < 5000
    assert rev.distance_m == geoloc.distance(SPRINGFIELD, rev.coord)
    places = g.places
    assert places.name(rev.index) == "Springfield" and places.attribute(rev.index, "admin1_code") == "IL"
    assert places.nearest(SPRINGFIELD) == [Match(rev.index, rev.distance_m)]
    assert g.reverse(SPRINGFIELD, "city_state_country").text == "Springfield, Illinois, United States"
    # The pole and the middle of the Pacific still have a nearest place.
    for far in ((90, 0), (-30, -140), (-90, 0)):
        assert g.reverse_geocode(far)
    raises(geoloc.NotFiniteError, g.reverse_geocode, (0, INF))
    raises(geoloc.OutOfRangeError, g.reverse_geocode, (91, 0))
    raises(geoloc.InvalidArgumentError, g.reverse_geocode, SPRINGFIELD, 99)
    raises(geoloc.InvalidArgumentError, g.reverse_geocode, SPRINGFIELD, "zip")


def test_gazetteer_places(gazetteer):
    places = gazetteer.places
    assert places is gazetteer.places  # one view while it is referenced
    assert len(places) > 100000
    for name in ("country_code", "admin1_code", "admin1_name", "admin2_name"):
        assert name in places.attribute_names
    assert "of a Gazetteer" in repr(places)
    # The set is shared by every handle on the shipped gazetteer.
    with Gazetteer.open() as other:
        assert len(other.places) == len(places)


def test_gazetteer_view_keeps_it_open_and_is_not_freed_by_close(monkeypatch):
    freed = []
    real = _ffi.lib

    class Spy:
        def __getattr__(self, name):
            fn = getattr(real, name)
            if name.endswith("_destroy"):
                return lambda ptr: (freed.append(name), fn(ptr))
            return fn

    monkeypatch.setattr(_places, "_lib", Spy())
    monkeypatch.setattr(_geocoding, "_lib", Spy())
    g = Gazetteer.open()
    view = g.places
    g_ref = weakref.ref(g)
    del g
    gc.collect()
    assert g_ref() is not None and freed == []  # the view keeps its gazetteer
    assert view.within(SPRINGFIELD, 5, "km")
    view.close()  # closes the view only
    assert view.closed and freed == []
    with pytest.raises(ValueError, match="closed"):
        view.nearest(SPRINGFIELD)
    g = g_ref()
    assert g.reverse_geocode(SPRINGFIELD) == "Springfield, IL"
    fresh = g.places  # a new view after the old one was closed
    assert fresh is not view and not fresh.closed and len(fresh) > 100000
    g.close()
    assert freed == ["geoloc_gazetteer_destroy"]
    assert fresh.closed
    for use in (lambda: fresh.nearest(SPRINGFIELD), lambda: len(fresh), lambda: g.places,
                lambda: g.reverse_geocode(SPRINGFIELD), lambda: g.reverse(SPRINGFIELD)):
        with pytest.raises(ValueError, match="closed"):
            use()
    del fresh, view, g
    gc.collect()
    assert freed == ["geoloc_gazetteer_destroy"]


def test_shared_gazetteer_reopens_after_close():
    g = geoloc.shared_gazetteer()
    assert geoloc.shared_gazetteer() is g
    g.close()
    assert geoloc.reverse_geocode(SPRINGFIELD) == "Springfield, IL"
    assert geoloc.shared_gazetteer() is not g


def test_gazetteer_open_errors(tmp_path):
    err = raises(geoloc.NotFoundError, Gazetteer.open, tmp_path / "nonexistent.tsv")
    assert "nonexistent.tsv" in err.message
    raises(geoloc.InvalidUTF8Error, Gazetteer.open, b"\xff")
    raises(TypeError, Gazetteer.open, 5)
    bad = tmp_path / "bad.tsv"
    bad.write_text("id\tname\tlat\tlon\n1\tx\t1\t2\n", encoding="utf-8")
    raises(geoloc.InvalidArgumentError, Gazetteer.open, bad)


def test_small_gazetteer_file(tmp_path):
    path = tmp_path / "tiny.tsv"
    path.write_text(
        "id\tname\tlat\tlon\tcountry_code\tadmin1_code\tadmin1_name\tadmin2_name\tpopulation\n"
        "1\tCentralia\t38.52505\t-89.1334\tUS\tIL\tIllinois\tMarion County\t13000\n"
        "2\tLyon\t45.74846\t4.84671\tFR\t84\tAuvergne-Rhone-Alpes\t\t500000\n",
        encoding="utf-8",
    )
    with Gazetteer.open(path) as g:
        assert len(g.places) == 2
        assert g.reverse_geocode((38.3, -88.9)) == "Centralia, IL"
        rev = g.reverse((45.0, 5.0), "city_state_country")
        assert rev.index == 1 and rev.name == "Lyon" and rev.country_code == "FR" and rev.admin2_name is None
