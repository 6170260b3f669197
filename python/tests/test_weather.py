"""Weather codes through Python: labels, "Rain, 45°F", errors; the golden weather cases."""

from __future__ import annotations


from typing import Dict, Optional

import numpy
import pytest

import geoloc
from geoloc import (
    Daylight,
    TempUnit,
)
import golden_cases
from golden_cases import expect_failure
from helpers import INF, NAN, raises


# The labels of the documented WMO codes, as include/geoloc.h lists them.
WEATHER_LABELS = {
    0: "Clear", 1: "Mainly Clear", 2: "Partly Cloudy", 3: "Overcast", 45: "Foggy", 48: "Foggy",
    51: "Light Drizzle", 53: "Drizzle", 55: "Heavy Drizzle", 56: "Light Freezing Drizzle",
    57: "Heavy Freezing Drizzle", 61: "Light Rain", 63: "Rain", 65: "Heavy Rain",
    66: "Light Freezing Rain", 67: "Heavy Freezing Rain", 71: "Light Snow", 73: "Snow",
    75: "Heavy Snow", 77: "Snow Grains", 80: "Rain Showers", 81: "Heavy Showers",
    82: "Violent Showers", 85: "Snow Showers", 86: "Heavy Snow Showers", 95: "Thunderstorm",
    96: "Thunderstorm with Hail", 99: "Thunderstorm with Heavy Hail",
}


# ============================================================================================
# Weather
# ============================================================================================


def test_weather_labels():
    for code, label in WEATHER_LABELS.items():
        assert geoloc.weather_label(code) == label
        assert geoloc.weather_label(code, Daylight.NIGHT) == label
        day = {0: "Sunny", 1: "Mainly Sunny"}.get(code, label)
        assert geoloc.weather_label(code, Daylight.DAY) == day
        assert geoloc.is_documented_weather_code(code)
    assert geoloc.weather_label(numpy.int32(63)) == "Rain"


@pytest.mark.parametrize("code", [-1, 4, 44, 100, 2**31 - 1, -(2**31)])
def test_undocumented_weather_codes_are_soft(code):
    assert geoloc.weather_label(code) == "Unknown"
    assert geoloc.weather_label(code, "day") == "Unknown"
    assert not geoloc.is_documented_weather_code(code)
    assert geoloc.weather_condition(code, 72) == "Unknown, 72°F"


@pytest.mark.parametrize("code", [2**31, -(2**31) - 1, 10**20])
def test_weather_codes_beyond_int32(code):
    err = raises(geoloc.OutOfRangeError, geoloc.weather_label, code)
    assert isinstance(err, ValueError)
    raises(geoloc.OutOfRangeError, geoloc.weather_condition, code, 72)
    assert geoloc.is_documented_weather_code(code) is False


@pytest.mark.parametrize("code", [63.0, "63", None, True])
def test_weather_codes_of_the_wrong_type(code):
    raises(TypeError, geoloc.weather_label, code)
    raises(TypeError, geoloc.weather_condition, code, 72)
    if code is not None and not isinstance(code, str):
        raises(TypeError, geoloc.is_documented_weather_code, code)


def test_weather_condition():
    assert geoloc.weather_condition(63, 45.4) == "Rain, 45°F"
    assert geoloc.weather_condition(63, 44.5) == "Rain, 45°F"
    assert geoloc.weather_condition(63, -0.4) == "Rain, 0°F"
    assert geoloc.weather_condition(63, -0.5) == "Rain, -1°F"
    assert geoloc.weather_condition(0, 0, TempUnit.CELSIUS, TempUnit.FAHRENHEIT) == "Clear, 32°F"
    assert geoloc.weather_condition(0, 212, "F", "C") == "Clear, 100°C"
    assert geoloc.weather_condition(0, 21.6, "C") == "Clear, 22°C"
    assert geoloc.weather_condition(0, 72, daylight="day") == "Sunny, 72°F"
    assert geoloc.weather_condition(1, 72, daylight=Daylight.NIGHT) == "Mainly Clear, 72°F"
    assert geoloc.weather_condition(95, -459.67) == "Thunderstorm, -460°F"
    assert geoloc.weather_condition(99, 1_000_000, "c") == "Thunderstorm with Heavy Hail, 1000000°C"


@pytest.mark.parametrize(
    "args, cls",
    [
        ((63, NAN), geoloc.NotFiniteError),
        ((63, INF, "c"), geoloc.NotFiniteError),
        ((63, -INF), geoloc.NotFiniteError),
        ((63, -500), geoloc.OutOfRangeError),
        ((63, -274, "c"), geoloc.OutOfRangeError),
        ((63, 1e7), geoloc.OutOfRangeError),
        ((63, None), TypeError),
    ],
)
def test_weather_condition_errors(args, cls):
    raises(cls, geoloc.weather_condition, *args)


# --------------------------------------------------------------------------------------------
# The shared golden cases of this capability (tests/golden)
# --------------------------------------------------------------------------------------------


def check_weather(r: Dict[str, Optional[str]]) -> None:
    code = int(r["code"])
    assert geoloc.weather_label(code, r["daylight"]) == r["label"]
    assert geoloc.is_documented_weather_code(code) == (r["label"] != "Unknown")

    def run() -> str:
        return geoloc.weather_condition(code, float(r["temperature"]), r["given"], r["shown"], r["daylight"])

    if r["status"] in ("OK", "E_UNKNOWN_CODE"):
        assert run() == r["text"]
    else:
        expect_failure(r["status"], run)


GOLDEN_CHECKERS = {
    "weather.tsv": check_weather,
}


@golden_cases.parametrize("weather")
def test_golden_row(case) -> None:
    golden_cases.check_row(case, GOLDEN_CHECKERS)


def test_every_golden_file_of_this_capability_has_a_checker() -> None:
    assert set(GOLDEN_CHECKERS) == set(golden_cases.FILES_BY_CAPABILITY["weather"])


# ============================================================================================
# One keyword for one thing: unit= (given= is 0.2's name, deprecated)
# ============================================================================================


def test_weather_condition_unit_keyword_and_deprecated_given():
    import warnings

    assert geoloc.weather_condition(0, 22.2, unit="C", shown="F", daylight="day") == "Sunny, 72°F"
    assert geoloc.weather_condition(63, 7.5, "celsius") == "Rain, 8°C"  # positional, as in 0.2
    with pytest.warns(DeprecationWarning, match=r"weather_condition\(given=\.\.\.\) is deprecated; use unit="):
        assert geoloc.weather_condition(0, 22.2, given="C", shown="F", daylight="day") == "Sunny, 72°F"
    with pytest.raises(TypeError, match="both 'unit' and its old name 'given'"):
        geoloc.weather_condition(0, 22.2, given="C", unit="C")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        geoloc.weather_condition(0, 22.2, unit="F")  # the new name warns about nothing
    import inspect

    assert "given" not in inspect.signature(geoloc.weather_condition).parameters
    with pytest.raises(geoloc.InvalidArgumentError, match="unit"):
        geoloc.weather_condition(0, 22.2, unit="kelvinish")
