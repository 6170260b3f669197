"""Addresses through Python: the forms, parts, states and countries; the golden address and state cases."""

from __future__ import annotations


from typing import Dict, Optional

import pytest

import geoloc
from geoloc import (
    AddressStyle,
)
import golden_cases
from golden_cases import NULL, split_list
from helpers import raises


# ============================================================================================
# Addresses
# ============================================================================================

SPRINGFIELD = {"house_number": "123", "road": "Main St", "city": "Springfield", "state_code": "IL"}


def test_format_address_styles():
    assert geoloc.format_address(SPRINGFIELD) == "123 Main St Springfield IL"
    assert geoloc.format_address(SPRINGFIELD, "one_line") == "123 Main St Springfield IL"
    assert geoloc.format_address({"city": "Springfield", "state": "Illinois", "country_code": "US"}, AddressStyle.CITY_STATE) == "Springfield, IL"
    assert geoloc.format_address({"city": "Springfield", "state_code": "IL"}, "city_state") == "Springfield, IL"
    assert geoloc.format_address({"city": "Springfield"}, "city_state") == "Springfield"
    assert geoloc.format_address({"state_code": "IL"}, "city_state") == "IL"
    assert geoloc.format_address({"city": "Springfield", "state_code": "IL", "country_code": "US"}, AddressStyle.CITY_STATE_COUNTRY) == "Springfield, Illinois, United States"
    postal = geoloc.format_address(dict(SPRINGFIELD, postcode="62701", country_code="US"), AddressStyle.POSTAL)
    lines = postal.split("\n")
    assert len(lines) >= 2 and not postal.endswith("\n")
    assert "123 Main St" in lines[0] and "Springfield" in postal and "62701" in postal


def test_format_address_parts():
    pairs = list(SPRINGFIELD.items())
    assert geoloc.format_address(pairs) == geoloc.format_address(SPRINGFIELD) == geoloc.format_address(tuple(pairs))
    assert geoloc.format_address(iter(pairs)) == "123 Main St Springfield IL"
    assert geoloc.format_address({"CITY": "Springfield", "State_Code": "IL"}, "city_state") == "Springfield, IL"
    assert geoloc.format_address(dict(SPRINGFIELD, favourite_colour="blue")) == "123 Main St Springfield IL"
    assert geoloc.format_address(dict(SPRINGFIELD, road=None)) == "123 Springfield IL"
    assert geoloc.format_address(dict(SPRINGFIELD, road="")) == "123 Springfield IL"
    first_wins = [("city", ""), ("city", None), ("city", "Springfield"), ("city", "Shelbyville"), ("state_code", "IL")]
    assert geoloc.format_address(first_wins, "city_state") == "Springfield, IL"
    assert geoloc.format_address([(b"city", b"S\xc3\xa3o Paulo")]) == "São Paulo"
    assert geoloc.format_address({"city": "Zürich"}) == "Zürich"
    assert geoloc.format_address({}) == ""
    assert geoloc.format_address([], "city_state") == ""


def test_format_address_long_text_grows_the_buffer():
    road = "Very Long Road Name " * 100
    text = geoloc.format_address({"house_number": "1", "road": road.strip()})
    assert text == "1 " + road.strip()
    assert len(text.encode()) > 256


def test_format_address_errors():
    raises(geoloc.NullArgumentError, geoloc.format_address, [(None, "x")])
    raises(geoloc.InvalidUTF8Error, geoloc.format_address, [("city", b"\xff")])
    raises(geoloc.InvalidUTF8Error, geoloc.format_address, [(b"ci\xfety", "x")])
    raises(geoloc.InvalidArgumentError, geoloc.format_address, {"city": "a\0b"})
    raises(geoloc.InvalidArgumentError, geoloc.format_address, {"city": "X"}, 4)
    raises(TypeError, geoloc.format_address, "city=Springfield")
    raises(TypeError, geoloc.format_address, [("city",)])
    raises(TypeError, geoloc.format_address, [("city", object())])  # a number is text; other objects are not
    raises(TypeError, geoloc.format_address, 5)


def test_us_states_and_countries():
    assert geoloc.us_state_code("Illinois") == "IL"
    assert geoloc.us_state_code("ILLINOIS") == "IL"
    assert geoloc.us_state_code("district of columbia") == "DC"
    assert geoloc.us_state_code("Puerto Rico") == "PR"
    assert geoloc.us_state_code("il") == "IL"
    assert geoloc.us_state_code(b"Texas") == "TX"
    assert geoloc.us_state_name("il") == "Illinois"
    assert geoloc.us_state_name("DC") == "District of Columbia"
    assert geoloc.us_state_name("illinois") == "Illinois"
    assert geoloc.country_name("US") == "United States"
    assert geoloc.country_name("gb") == "United Kingdom"


@pytest.mark.parametrize("fn", [geoloc.us_state_code, geoloc.us_state_name, geoloc.country_name])
def test_lookup_errors(fn):
    err = raises(geoloc.NotFoundError, fn, "Atlantis")
    assert isinstance(err, LookupError)
    raises(geoloc.NotFoundError, fn, "")
    raises(geoloc.NotFoundError, fn, "ZZ")
    raises(geoloc.NullArgumentError, fn, None)
    raises(geoloc.InvalidUTF8Error, fn, b"\xffIL")
    raises(geoloc.InvalidArgumentError, fn, "IL\0")
    raises(TypeError, fn, 17)


# --------------------------------------------------------------------------------------------
# The shared golden cases of this capability (tests/golden)
# --------------------------------------------------------------------------------------------


def check_address(r: Dict[str, Optional[str]]) -> None:
    parts = []
    for item in split_list(r["parts"], " | "):
        assert item is not None and "=" in item, "part %r is not key=value" % item
        key, value = item.split("=", 1)
        parts.append((key, None if value == NULL else value))
    if r["style"] == "POSTAL_ABBREVIATED":
        assert geoloc.format_address(parts, "POSTAL", abbreviate=True) == r["expected"]
    else:
        assert geoloc.format_address(parts, r["style"]) == r["expected"]


def check_us_state(r: Dict[str, Optional[str]]) -> None:
    name, code = r["name"], r["code"]
    assert geoloc.us_state_code(name) == code
    assert geoloc.us_state_name(code) == name
    assert geoloc.us_state_code(name.upper()) == code
    assert geoloc.us_state_code(name.lower()) == code
    assert geoloc.us_state_name(code.lower()) == name
    assert geoloc.us_state_code(code.lower()) == code  # a valid code is accepted too
    assert geoloc.us_state_name(name.lower()) == name  # and a valid name


GOLDEN_CHECKERS = {
    "address.tsv": check_address,
    "us_states.tsv": check_us_state,
}


@golden_cases.parametrize("address")
def test_golden_row(case) -> None:
    golden_cases.check_row(case, GOLDEN_CHECKERS)


def test_every_golden_file_of_this_capability_has_a_checker() -> None:
    assert set(GOLDEN_CHECKERS) == set(golden_cases.FILES_BY_CAPABILITY["address"])


def test_format_address_numbers_and_key_order():
    parts = {"road": "Main St", "house_number": 1, "postcode": 62701, "city": "Springfield", "state": "Illinois", "country_code": "US"}
    assert geoloc.format_address(parts, "postal") == "1 Main St\nSpringfield, IL 62701"
    # Several city-like keys: the data's order decides (city before town before village), never the caller's.
    a = [("village", "Shelbyville"), ("town", "Springfield"), ("state", "Illinois"), ("country_code", "US")]
    for order in (a, list(reversed(a))):
        assert geoloc.format_address(order, "city_state") == "Springfield, IL"
    # A key the data knows but that has no place of its own goes on the attention line.
    assert geoloc.format_address({"school": "Lycée Henri-IV", "road": "Rue Clovis", "house_number": "23", "postcode": "75005", "city": "Paris", "country_code": "FR"}, "postal") == "Lycée Henri-IV\n23 Rue Clovis\n75005 Paris"
    with pytest.raises(geoloc.InvalidUTF8Error):
        geoloc.format_address([(b"city", b"S\xff")], "postal")
