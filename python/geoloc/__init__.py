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
of numbers; enum arguments take the enum member, its int value or its name ("miles", "mi", "KM").
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
from . import _errors, _ffi
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
from ._tracking import (
    FixFilter,
    Geofences,
    Monitor,
    TrackStats,
    filter_options,
    fix_array,
    resample_track,
    simplify_track,
    stay_points,
    track_stats,
)
from ._track_files import (
    SegmentStats,
    Track,
    TrackMeasure,
    measure_segments,
    read_gpx,
    read_track_geojson,
    write_gpx,
    write_track_geojson,
)
from ._time import (
    LOCAL_TIME_DTYPE,
    TIME_MAX,
    TIME_MIN,
    TIME_STYLES,
    LocalInstants,
    LocalTime,
    PlaceTime,
    TimeZone,
    TimeZones,
    local_dates,
    local_time,
    local_time_at,
    local_time_text,
    local_times,
    local_times_at,
    LocalityTime,
    locality_time,
    locality_zones,
    fix_local_times,
    LOCAL_DAY_DTYPE,
    track_local_days,
    resolve_local_time,
    shared_timezones,
    time_zone_names,
    timezone_at,
    timezone_at_many,
    tzdata_source,
    tzdata_version,
    tzif_local_time,
)
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
    # tracking: fixes, the filter, geofences, tracks and track files
    "fix_array",
    "filter_options",
    "FixFilter",
    "Geofences",
    "Monitor",
    "TrackStats",
    "track_stats",
    "simplify_track",
    "resample_track",
    "stay_points",
    "Track",
    "read_gpx",
    "read_track_geojson",
    "write_gpx",
    "write_track_geojson",
    "SegmentStats",
    "TrackMeasure",
    "measure_segments",
    # time: the zone at a point
    "TimeZone",
    "TimeZones",
    "shared_timezones",
    "timezone_at",
    "timezone_at_many",
    # time: local time from the IANA rules
    "TIME_MIN",
    "TIME_MAX",
    "TIME_STYLES",
    "LOCAL_TIME_DTYPE",
    "LocalTime",
    "LocalInstants",
    "local_time",
    "local_time_text",
    "local_times",
    "local_dates",
    "resolve_local_time",
    "tzif_local_time",
    "time_zone_names",
    "tzdata_version",
    "tzdata_source",
    # time: local time at a point
    "PlaceTime",
    "local_time_at",
    "local_times_at",
    "LocalityTime",
    "locality_time",
    "locality_zones",
    "fix_local_times",
    "LOCAL_DAY_DTYPE",
    "track_local_days",
    # errors: every exception class of _errors
    *(name for name in _errors.__all__ if name.endswith("Error")),
]
