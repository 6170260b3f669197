"""geoloc: Python bindings of libgeoloc, the embeddable location library (``pip install libgeoloc``).

Distances (on the sphere or the WGS84 ellipsoid) and geodesics; multi-stop mileage, ETA and the
best order of a day's stops; place sets searched by radius, k nearest or region, saved to files
that open in milliseconds; offline reverse geocoding ("Springfield, IL") on the shipped GeoNames
gazetteer; fixes through a filter with stop detection, geofence monitoring (enter, exit, dwell),
track statistics, simplification, resampling, stay points and GPX / GeoJSON tracks; local time
in any IANA time zone from the shipped tz rules; coordinate text, address forms and WMO weather
codes as words. No network, no API key; batches are numpy
arrays handed to the library in one call.

The distribution is ``libgeoloc`` (the PyPI name ``geoloc`` is another project); the package it
installs is ``geoloc``. The package is a thin ctypes layer over libgeoloc.so: the wheel carries
the library, GEOS and the saved gazetteer, and ``pip install`` from the sdist or a clone builds
them (the Swift toolchain and libgeos-dev needed). At import it looks for the library in this
order:

1. the environment variable ``GEOLOC_LIBRARY`` (a path to libgeoloc.so; when set, only it),
2. next to the package (``geoloc/libgeoloc.so*``),
3. the system (``ctypes.util.find_library("geoloc")``, then ``libgeoloc.so.0``),

and raises ImportError listing the places tried if none has it. The library's MAJOR.MINOR
version must match the package's.

Conventions: angles are degrees, latitudes within [-90, 90]; a coordinate is any (lat, lon) pair
of numbers or "lat,lon" text; a batch of them an (n, 2) array, a :class:`LatLon` of two columns,
or a list of coordinates in any of those forms; enum arguments take the enum member, its int value or its name ("miles", "mi", "KM").
Failures raise a subclass of :class:`GeolocError` carrying ``status`` and ``message``. Every
function is safe to call from many threads at once (the GIL is released during library calls),
and so is every method of :class:`Places`, :class:`Region` and :class:`Gazetteer` on one object.
Those three hold a library handle: close them with ``close()`` or a ``with`` block (the garbage
collector closes forgotten ones); a closed one raises ValueError when used.
"""


from __future__ import annotations

# The package is a module per capability (the same names as the core's folders, the C thunks and
# the header's sections); this file only gathers their public names. _core loads first: it
# declares the shared functions that every other module relies on.
from . import _errors, _ffi, _time, _track_files, _tracking
from ._core import (
    EARTH_MEAN_RADIUS_M,
    MAX_COUNT,
    Coord,
    LatLon,
    check_coord,
    convert_length,
    distance_text,
    format_coord,
    library_path,
    library_version,
    parse_coord,
)
from ._distance import (
    GeodesicDirect,
    GeodesicDirectArrays,
    GeodesicInverse,
    GeodesicInverseArrays,
    distance,
    distance_one_to_many,
    distance_pairs,
    geodesic_direct,
    geodesic_direct_many,
    geodesic_inverse,
    geodesic_inverse_many,
)
from ._route import (
    BestOrder, Leg, Mileage, Schedule, best_order, best_order_matrix, best_order_windows, best_order_windows_matrix,
    eta_minutes, mileage, route_length,
)
from ._weather import is_documented_weather_code, weather_condition, weather_label
from ._address import country_name, format_address, us_state_code, us_state_name
from ._places import LoadIssue, Match, Place, Places, Region
from ._geocoding import Gazetteer, ReverseGeocode, reverse_geocode, reverse_geocode_many, shared_gazetteer
from ._geocoding import PlaceSearch, SearchResult, SearchResults, search_places, shared_search
from ._tracking import *  # noqa: F401,F403 (its __all__)
from ._track_files import *  # noqa: F401,F403 (its __all__)
from ._time import *  # noqa: F401,F403 (its __all__)
from ._enums import AddressStyle, CoordStyle, Daylight, Model, TempUnit, Unit
from ._errors import (
    BufferTooSmallError,
    CountTooLargeError,
    GeolocError,
    HomeInvalidError,
    InternalError,
    InvalidArgumentError,
    InvalidUTF8Error,
    NoHomeError,
    NoLocalityError,
    NoMemoryError,
    NotFiniteError,
    NotFoundError,
    NullArgumentError,
    OutOfRangeError,
    ParseError,
    Status,
    UnknownCodeError,
    UnsupportedError,
    WindowsMissedError,
)
from ._version import __version__

# Every module has declared its functions: one ImportError names all the library lacks.
_ffi.require_all()

__all__ = [
    "__version__",
    "library_version",
    "library_path",
    # enums
    "Unit",
    "Model",
    "CoordStyle",
    "Daylight",
    "TempUnit",
    "AddressStyle",
    "Status",
    # coordinates
    "Coord",
    "LatLon",
    "parse_coord",
    "format_coord",
    "check_coord",
    # units and distance
    "convert_length",
    "distance",
    "distance_pairs",
    "distance_one_to_many",
    "distance_text",
    # geodesics on WGS84
    "GeodesicInverse",
    "GeodesicDirect",
    "geodesic_inverse",
    "geodesic_direct",
    "GeodesicInverseArrays",
    "GeodesicDirectArrays",
    "geodesic_inverse_many",
    "geodesic_direct_many",
    # place sets, regions, reverse geocoding
    "Places",
    "Place",
    "Match",
    "LoadIssue",
    "Region",
    "Gazetteer",
    "ReverseGeocode",
    "reverse_geocode",
    "reverse_geocode_many",
    "shared_gazetteer",
    # search by name
    "PlaceSearch",
    "SearchResult",
    "SearchResults",
    "search_places",
    "shared_search",
    # routes
    "route_length",
    "Leg",
    "Mileage",
    "mileage",
    "eta_minutes",
    "BestOrder",
    "best_order",
    "best_order_matrix",
    "best_order_windows",
    "best_order_windows_matrix",
    "Schedule",
    # weather
    "weather_label",
    "is_documented_weather_code",
    "weather_condition",
    # addresses
    "format_address",
    "us_state_code",
    "us_state_name",
    "country_name",
    # tracking: fixes, the filter, geofences, tracks and track files; time: the zone at a point,
    # local time from the IANA rules, local time at a point (each module's own list)
    *_tracking.__all__,
    *_track_files.__all__,
    *_time.__all__,
    # errors: every exception class of _errors
    *(name for name in _errors.__all__ if name.endswith("Error")),
]
