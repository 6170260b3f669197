"""Addresses: the one-line, "City, State", "City, State, Country" and postal forms, US state
codes and names, and country names."""

from __future__ import annotations

from collections.abc import Mapping
from ctypes import POINTER, Structure, byref, c_char_p, c_size_t, c_uint32
from typing import Any, Iterable, Optional, Tuple, Union


from . import _ffi
from ._enums import AddressStyle, coerce
from ._ffi import ENUM, STATUS, TEXT_OUT
from ._core import (
    TextIn,
    _static_text,
    _text,
    _text_result,
)

class CAddressPart(Structure):
    """geoloc_address_part: a key and its value, UTF-8 (value NULL = absent)."""

    _fields_ = [("key", c_char_p), ("value", c_char_p)]


_ffi.declare({
    "geoloc_address_format": (
        STATUS,
        (POINTER(CAddressPart), c_size_t, ENUM, TEXT_OUT, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_address_format_with": (
        STATUS,
        (POINTER(CAddressPart), c_size_t, ENUM, c_uint32, TEXT_OUT, c_size_t, POINTER(c_size_t)),
        True,
    ),
    # The two-array form (keys, values) of the C door; Python passes pairs through _with.
    "geoloc_address_format_kv": (
        STATUS,
        (POINTER(c_char_p), POINTER(c_char_p), c_size_t, ENUM, c_uint32, TEXT_OUT, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_us_state_code": (STATUS, (c_char_p, POINTER(c_char_p)), True),
    "geoloc_us_state_name": (STATUS, (c_char_p, POINTER(c_char_p)), True),
    "geoloc_country_name": (STATUS, (c_char_p, POINTER(c_char_p)), True),
})

_lib = _ffi.lib


# --------------------------------------------------------------------------------------------
# Addresses
# --------------------------------------------------------------------------------------------


def format_address(
    parts: Union[Mapping[Any, Any], Iterable[Tuple[TextIn, Optional[TextIn]]]],
    style: Union[AddressStyle, int, str] = AddressStyle.ONE_LINE,
    *,
    abbreviate: bool = False,
) -> str:
    """Address components as text in ``style``.

    ``parts`` is a mapping of key -> value or an iterable of (key, value) pairs (order kept; for a
    repeated key the first non-empty value wins). Keys are matched without regard to case:
    the components of the address-formatting data (house_number, road, house, suburb, city, town,
    village, county, state, state_code, postcode, country, country_code, ... and their aliases)
    and common aliases (street, zip, postalCode, apartment, ...). The order of the keys never
    matters: which of several city-like keys wins is the data's order. A key nobody knows goes on
    the attention line of the postal form. A None or empty value counts as absent; an int or float
    value is written as its text. POSTAL gives lines joined by "\\n".

    ``abbreviate=True`` abbreviates the postal form's components by the languages of the address's
    country ("Avenue" -> "Ave" in English, "Platz" -> "Pl" in German); off by default."""
    items = parts.items() if isinstance(parts, Mapping) else parts
    if isinstance(items, (str, bytes)):
        raise TypeError("parts must be a mapping or (key, value) pairs, not %s" % type(items).__name__)
    keep = []  # the encoded texts, alive until the call returns
    for i, item in enumerate(items):
        try:
            key, value = item
        except (TypeError, ValueError):
            raise TypeError("address part %d must be a (key, value) pair, not %r" % (i, item)) from None
        # A number given as a value (a postcode as an int) is its text; bool is not a number here.
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        keep.append((_text(key, "address key %d" % i), _text(value, "address value %d" % i)))
    n = len(keep)
    array = (CAddressPart * max(n, 1))(*[CAddressPart(k, v) for k, v in keep])
    st = coerce(AddressStyle, style, "style")
    flags = _ADDRESS_ABBREVIATE if abbreviate else 0
    return _text_result(lambda buf, cap, needed: _lib.geoloc_address_format_with(array, n, st, flags, buf, cap, needed))


_ADDRESS_ABBREVIATE = 1  # GEOLOC_ADDRESS_ABBREVIATE


def _lookup(fn: Any, text: Optional[TextIn], what: str) -> str:
    out = c_char_p()
    fn(_text(text, what), byref(out))
    return _static_text(out.value)


def us_state_code(name: TextIn) -> str:
    """The two-letter USPS code of a US state, DC or territory from its name, any case
    ("Illinois" -> "IL"); a valid code is returned in upper case. NotFoundError when unknown."""
    return _lookup(_lib.geoloc_us_state_code, name, "name")


def us_state_name(code: TextIn) -> str:
    """The name of a US state, DC or territory from its two-letter code, any case ("il" ->
    "Illinois"); a valid name is returned as spelled in the table. NotFoundError when unknown."""
    return _lookup(_lib.geoloc_us_state_name, code, "code")


def country_name(code: TextIn) -> str:
    """The English short name of a country from its ISO 3166-1 alpha-2 code, any case
    ("gb" -> "United Kingdom"). NotFoundError when unknown."""
    return _lookup(_lib.geoloc_country_name, code, "code")
