"""The C enums as IntEnum classes (values are the C values), and argument coercion."""

from __future__ import annotations

import enum
import operator
from typing import Dict, Optional, Type, TypeVar, Union, cast

from ._errors import InvalidArgumentError

__all__ = ["Unit", "Model", "CoordStyle", "Daylight", "TempUnit", "AddressStyle", "coerce"]


class Unit(enum.IntEnum):
    """Length units (geoloc_unit)."""

    METERS = 0
    KILOMETERS = 1
    #: Statute miles, 1609.344 m.
    MILES = 2
    #: International nautical miles, 1852 m.
    NAUTICAL_MILES = 3
    #: International feet, 0.3048 m.
    FEET = 4


class Model(enum.IntEnum):
    """The model of the Earth's surface distances are measured on (geoloc_model)."""

    #: A sphere of radius 6,371,008.8 m (IUGG mean radius), haversine great-circle distance.
    SPHERE = 0
    #: The WGS84 ellipsoid: geodesic distance by Karney's method, within 15 nm (since 0.2).
    WGS84 = 1


class CoordStyle(enum.IntEnum):
    """Coordinate text styles, both with 6 decimals (geoloc_coord_style)."""

    #: "38.321991,-88.867400"
    COMPACT = 0
    #: "38.321991, -88.867400"
    READABLE = 1


class Daylight(enum.IntEnum):
    """Whether it is day or night at the place, for weather wording (geoloc_daylight)."""

    UNKNOWN = 0
    #: Codes 0 and 1 read "Sunny" and "Mainly Sunny".
    DAY = 1
    NIGHT = 2


class TempUnit(enum.IntEnum):
    """Temperature scales (geoloc_temp_unit)."""

    CELSIUS = 0
    FAHRENHEIT = 1


class AddressStyle(enum.IntEnum):
    """Address text forms (geoloc_address_style)."""

    #: "123 Main St Springfield IL"
    ONE_LINE = 0
    #: "Springfield, IL"
    CITY_STATE = 1
    #: "Springfield, Illinois, United States"
    CITY_STATE_COUNTRY = 2
    #: The multi-line postal form of the address's country, lines joined by "\n"; the country
    #: line only when ``country`` is given (a ``country_code`` alone chooses the form).
    POSTAL = 3


# Extra spellings accepted as strings, besides each member's own name (compared after lower-casing
# and turning spaces and hyphens into underscores).
_ALIASES: Dict[type, Dict[str, enum.IntEnum]] = {
    Unit: {
        "m": Unit.METERS,
        "meter": Unit.METERS,
        "metre": Unit.METERS,
        "metres": Unit.METERS,
        "km": Unit.KILOMETERS,
        "kilometer": Unit.KILOMETERS,
        "kilometre": Unit.KILOMETERS,
        "kilometres": Unit.KILOMETERS,
        "mi": Unit.MILES,
        "mile": Unit.MILES,
        "nmi": Unit.NAUTICAL_MILES,
        "nautical_mile": Unit.NAUTICAL_MILES,
        "ft": Unit.FEET,
        "foot": Unit.FEET,
    },
    Model: {},
    CoordStyle: {},
    Daylight: {},
    TempUnit: {"c": TempUnit.CELSIUS, "f": TempUnit.FAHRENHEIT},
    AddressStyle: {"oneline": AddressStyle.ONE_LINE},
}

E = TypeVar("E", bound=enum.IntEnum)


def _choices(cls: Type[enum.IntEnum]) -> str:
    return ", ".join("%s (%d)" % (m.name, m.value) for m in cls)


def coerce(cls: Type[E], value: Union[E, int, str], what: str) -> E:
    """``value`` as a member of ``cls``: the member itself, its int, or a name (case-insensitive).

    Raises InvalidArgumentError for a value that names no member, TypeError for a value of the
    wrong kind (a float, a bool, a member of another enum).
    """
    if isinstance(value, cls):
        return value
    if isinstance(value, enum.Enum):
        raise TypeError(
            "%s must be a %s, not %s.%s" % (what, cls.__name__, type(value).__name__, value.name)
        )
    if isinstance(value, bytes):
        try:
            value = value.decode("ascii")
        except UnicodeDecodeError:
            raise InvalidArgumentError("%s %r is not one of %s" % (what, value, _choices(cls))) from None
    if isinstance(value, str):
        key = value.strip().lower().replace("-", "_").replace(" ", "_")
        member = cls.__members__.get(key.upper())
        if member is None:
            member = cast(Optional[E], _ALIASES[cls].get(key))
        if member is None:
            raise InvalidArgumentError("%s %r is not one of %s" % (what, value, _choices(cls)))
        return member
    if isinstance(value, bool):
        raise TypeError("%s must be a %s, an int or a name, not a bool" % (what, cls.__name__))
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(
            "%s must be a %s, an int or a name, not %s" % (what, cls.__name__, type(value).__name__)
        ) from None
    try:
        return cls(number)
    except ValueError:
        raise InvalidArgumentError("%s %d is not one of %s" % (what, number, _choices(cls))) from None
