"""Weather: WMO weather codes as labels and "Rain, 45°F"."""

from __future__ import annotations

import operator
from ctypes import POINTER, byref, c_bool, c_char_p, c_double, c_int32, c_size_t
from typing import Union


from . import _ffi
from ._enums import Daylight, TempUnit, coerce
from ._errors import (
    UnknownCodeError,
)
from ._ffi import ENUM, STATUS, TEXT_OUT
from ._core import (
    _INT32_MAX,
    _INT32_MIN,
    _float,
    _int32,
    _renamed,
    _static_text,
    _text_result,
)

_ffi.declare({
    "geoloc_weather_label": (STATUS, (c_int32, ENUM, POINTER(c_char_p)), True),
    "geoloc_weather_code_documented": (c_bool, (c_int32,), False),
    "geoloc_weather_condition": (
        STATUS,
        (c_int32, c_double, ENUM, ENUM, ENUM, TEXT_OUT, c_size_t, POINTER(c_size_t)),
        True,
    ),
})

_lib = _ffi.lib


# --------------------------------------------------------------------------------------------
# Weather
# --------------------------------------------------------------------------------------------


def weather_label(code: int, daylight: Union[Daylight, int, str] = Daylight.UNKNOWN) -> str:
    """The label of a WMO weather code: 0 "Clear" ("Sunny" by day), 63 "Rain", 95
    "Thunderstorm", ...; "Unknown" for a code no table documents (no exception). ``code`` must
    fit an int32 (OutOfRangeError otherwise)."""
    c = _int32(code, "weather code")
    d = coerce(Daylight, daylight, "daylight")
    label = c_char_p()
    try:
        _lib.geoloc_weather_label(c, d, byref(label))
    except UnknownCodeError:
        pass  # soft failure: label is "Unknown"
    return _static_text(label.value)


def is_documented_weather_code(code: int) -> bool:
    """Whether ``code`` is a documented WMO weather code (any int; False outside int32)."""
    if isinstance(code, bool):
        raise TypeError("weather code must be an int, not bool")
    number = operator.index(code)
    if not _INT32_MIN <= number <= _INT32_MAX:
        return False
    return bool(_lib.geoloc_weather_code_documented(number))


@_renamed(given="unit")
def weather_condition(
    code: int,
    temperature: float,
    unit: Union[TempUnit, int, str] = TempUnit.FAHRENHEIT,
    shown: Union[TempUnit, int, str, None] = None,
    daylight: Union[Daylight, int, str] = Daylight.UNKNOWN,
) -> str:
    """The weather-conditions text "Label, T°F" / "Label, T°C", e.g. "Rain, 45°F".

    ``temperature`` is in ``unit``; it is converted to ``shown`` (None: the same as unit) and
    rounded half away from zero to a whole degree. An undocumented code gives "Unknown, 72°F"
    without raising. Raises NotFiniteError, OutOfRangeError (below absolute zero, above
    1,000,000, or a code outside int32). ``given=`` (0.2's name of ``unit``) still works with a
    DeprecationWarning."""
    c = _int32(code, "weather code")
    t = _float(temperature, "temperature")
    g = coerce(TempUnit, unit, "unit")
    s = g if shown is None else coerce(TempUnit, shown, "shown")
    d = coerce(Daylight, daylight, "daylight")
    return _text_result(
        lambda buf, cap, needed: _lib.geoloc_weather_condition(c, t, g, s, d, buf, cap, needed),
        soft=(UnknownCodeError,),
    )
