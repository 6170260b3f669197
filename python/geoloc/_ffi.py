"""Loading libgeoloc.so and the one ctypes table of its C interface (include/geoloc.h).

Everything that touches ctypes declarations lives here: the structures, the argtypes/restype of
every function in the header, and the status check that turns a non-OK status into an exception.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from ctypes import (
    POINTER,
    Structure,
    c_bool,
    c_char,
    c_char_p,
    c_double,
    c_int,
    c_int32,
    c_int64,
    c_size_t,
    c_void_p,
)
from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple

from ._errors import error_for_status
from ._version import __version__

__all__ = [
    "ENV_VAR",
    "MAX_COUNT",
    "CCoord",
    "CLeg",
    "CMileageResult",
    "CAddressPart",
    "CMatch",
    "CLoadOptions",
    "CPlaces",
    "CRegion",
    "CGazetteer",
    "PlacesPtr",
    "RegionPtr",
    "GazetteerPtr",
    "FUNCTIONS",
    "lib",
    "library_path",
    "last_error",
]

#: The environment variable that names the library file to load.
ENV_VAR = "GEOLOC_LIBRARY"

#: GEOLOC_MAX_COUNT: the largest element count any function accepts.
MAX_COUNT = 1 << 30


# --------------------------------------------------------------------------------------------
# Structures (layouts as in include/geoloc.h)
# --------------------------------------------------------------------------------------------


class CCoord(Structure):
    """geoloc_coord: latitude and longitude in degrees; same layout as double[2]."""

    _fields_ = [("lat", c_double), ("lon", c_double)]


class CLeg(Structure):
    """geoloc_leg: one mileage leg; from/to are stop indices, -1 for home."""

    _fields_ = [("from_", c_int64), ("to", c_int64), ("distance", c_double)]


class CMileageResult(Structure):
    """geoloc_mileage_result."""

    _fields_ = [
        ("total", c_double),
        ("rounded", c_double),
        ("stops_used", c_size_t),
        ("stops_skipped", c_size_t),
        ("leg_count", c_size_t),
        ("text", c_char * 32),
    ]


class CAddressPart(Structure):
    """geoloc_address_part: a key and its value, UTF-8 (value NULL = absent)."""

    _fields_ = [("key", c_char_p), ("value", c_char_p)]


class CMatch(Structure):
    """geoloc_match: a place's index in its set and its distance in the unit of the query."""

    _fields_ = [("index", c_size_t), ("distance", c_double)]


class CLoadOptions(Structure):
    """geoloc_load_options of the CSV and GeoJSON loaders (all zero: the defaults)."""

    _fields_ = [
        ("strict", c_bool),
        ("latitude_column", c_char_p),
        ("longitude_column", c_char_p),
        ("id_column", c_char_p),
        ("name_column", c_char_p),
        ("delimiter", c_char),
    ]


# The opaque handles: each its own incomplete structure, so a pointer to one is a distinct type
# and ctypes refuses to pass, say, a region where a place set is expected.


class CPlaces(Structure):
    """geoloc_places (opaque)."""


class CRegion(Structure):
    """geoloc_region (opaque)."""


class CGazetteer(Structure):
    """geoloc_gazetteer (opaque)."""


PlacesPtr = POINTER(CPlaces)
RegionPtr = POINTER(CRegion)
GazetteerPtr = POINTER(CGazetteer)


# --------------------------------------------------------------------------------------------
# The table: every function of the header, in header order
# --------------------------------------------------------------------------------------------

# geoloc_status and the other C enums are int-sized.
_status = c_int
_enum = c_int
_text_out = POINTER(c_char)  # caller-owned buffer (create_string_buffer) or None
_matches_out = POINTER(CMatch)  # caller-owned array of geoloc_match or None

#: name -> (restype, argtypes, returns a geoloc_status)
FUNCTIONS: Dict[str, Tuple[Any, Tuple[Any, ...], bool]] = {
    # Versions and errors
    "geoloc_version": (c_char_p, (), False),
    "geoloc_version_number": (c_int32, (), False),
    "geoloc_status_string": (c_char_p, (_status,), False),
    "geoloc_last_error": (c_char_p, (), False),
    # Units
    "geoloc_convert_length": (_status, (c_double, _enum, _enum, POINTER(c_double)), True),
    # Coordinates
    "geoloc_coord_check": (_status, (CCoord, POINTER(CCoord)), True),
    "geoloc_coord_parse": (_status, (c_char_p, POINTER(CCoord)), True),
    "geoloc_coord_format": (
        _status,
        (CCoord, _enum, _text_out, c_size_t, POINTER(c_size_t)),
        True,
    ),
    # Distance
    "geoloc_distance": (_status, (CCoord, CCoord, _enum, _enum, POINTER(c_double)), True),
    "geoloc_distance_pairs": (
        _status,
        (POINTER(CCoord), POINTER(CCoord), c_size_t, _enum, _enum, POINTER(c_double)),
        True,
    ),
    "geoloc_distance_one_to_many": (
        _status,
        (CCoord, POINTER(CCoord), c_size_t, _enum, _enum, POINTER(c_double)),
        True,
    ),
    "geoloc_distance_text": (
        _status,
        (c_double, _enum, _text_out, c_size_t, POINTER(c_size_t)),
        True,
    ),
    # Geodesics on the WGS84 ellipsoid
    "geoloc_geodesic_inverse": (
        _status,
        (CCoord, CCoord, POINTER(c_double), POINTER(c_double), POINTER(c_double)),
        True,
    ),
    "geoloc_geodesic_direct": (
        _status,
        (CCoord, c_double, c_double, POINTER(CCoord), POINTER(c_double)),
        True,
    ),
    # Routes and mileage
    "geoloc_route_length": (
        _status,
        (POINTER(CCoord), c_size_t, c_bool, _enum, _enum, POINTER(c_double), POINTER(c_double)),
        True,
    ),
    "geoloc_mileage": (
        _status,
        (
            c_char_p,
            POINTER(c_char_p),
            c_size_t,
            c_bool,
            _enum,
            _enum,
            POINTER(CMileageResult),
            POINTER(CLeg),
            c_size_t,
            POINTER(c_size_t),
            c_size_t,
        ),
        True,
    ),
    "geoloc_eta_minutes": (
        _status,
        (c_double, c_double, _enum, c_double, POINTER(c_int64)),
        True,
    ),
    # Weather
    "geoloc_weather_label": (_status, (c_int32, _enum, POINTER(c_char_p)), True),
    "geoloc_weather_code_documented": (c_bool, (c_int32,), False),
    "geoloc_weather_condition": (
        _status,
        (c_int32, c_double, _enum, _enum, _enum, _text_out, c_size_t, POINTER(c_size_t)),
        True,
    ),
    # Addresses
    "geoloc_address_format": (
        _status,
        (POINTER(CAddressPart), c_size_t, _enum, _text_out, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_us_state_code": (_status, (c_char_p, POINTER(c_char_p)), True),
    "geoloc_us_state_name": (_status, (c_char_p, POINTER(c_char_p)), True),
    "geoloc_country_name": (_status, (c_char_p, POINTER(c_char_p)), True),
    # Place sets
    "geoloc_places_create": (
        _status,
        (
            POINTER(CCoord),
            POINTER(c_char_p),
            POINTER(c_char_p),
            c_size_t,
            POINTER(c_char_p),
            c_size_t,
            POINTER(c_char_p),
            POINTER(PlacesPtr),
        ),
        True,
    ),
    "geoloc_places_load_csv": (_status, (c_char_p, POINTER(CLoadOptions), POINTER(PlacesPtr)), True),
    "geoloc_places_parse_csv": (
        _status,
        (c_char_p, c_size_t, POINTER(CLoadOptions), POINTER(PlacesPtr)),
        True,
    ),
    "geoloc_places_load_geojson": (_status, (c_char_p, POINTER(CLoadOptions), POINTER(PlacesPtr)), True),
    "geoloc_places_parse_geojson": (
        _status,
        (c_char_p, c_size_t, POINTER(CLoadOptions), POINTER(PlacesPtr)),
        True,
    ),
    "geoloc_places_destroy": (None, (PlacesPtr,), False),
    "geoloc_places_count": (_status, (PlacesPtr, POINTER(c_size_t)), True),
    "geoloc_places_issue_count": (_status, (PlacesPtr, POINTER(c_size_t)), True),
    "geoloc_places_issue": (
        _status,
        (PlacesPtr, c_size_t, POINTER(c_size_t), _text_out, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_places_coord": (_status, (PlacesPtr, c_size_t, POINTER(CCoord)), True),
    "geoloc_places_coords": (_status, (PlacesPtr, POINTER(CCoord), c_size_t, POINTER(c_size_t)), True),
    "geoloc_places_id": (
        _status,
        (PlacesPtr, c_size_t, _text_out, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_places_name": (
        _status,
        (PlacesPtr, c_size_t, _text_out, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_places_attribute_count": (_status, (PlacesPtr, POINTER(c_size_t)), True),
    "geoloc_places_attribute_name": (
        _status,
        (PlacesPtr, c_size_t, _text_out, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_places_attribute": (
        _status,
        (PlacesPtr, c_size_t, c_char_p, _text_out, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_places_within": (
        _status,
        (PlacesPtr, CCoord, c_double, _enum, _enum, c_size_t, _matches_out, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_places_within_many": (
        _status,
        (PlacesPtr, POINTER(CCoord), c_size_t, c_double, _enum, _enum, c_size_t, POINTER(c_size_t), _matches_out, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_places_nearest": (
        _status,
        (PlacesPtr, CCoord, c_size_t, _enum, _enum, c_double, _matches_out, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_places_nearest_many": (
        _status,
        (PlacesPtr, POINTER(CCoord), c_size_t, c_size_t, _enum, _enum, c_double, POINTER(c_size_t), POINTER(c_double)),
        True,
    ),
    # Regions
    "geoloc_region_from_wkt": (_status, (c_char_p, POINTER(RegionPtr)), True),
    "geoloc_region_from_geojson": (_status, (c_char_p, POINTER(RegionPtr)), True),
    "geoloc_region_destroy": (None, (RegionPtr,), False),
    "geoloc_region_contains": (_status, (RegionPtr, CCoord, POINTER(c_bool)), True),
    "geoloc_places_in_region": (
        _status,
        (
            PlacesPtr,
            RegionPtr,
            POINTER(CCoord),
            _enum,
            _enum,
            c_size_t,
            _matches_out,
            c_size_t,
            POINTER(c_size_t),
        ),
        True,
    ),
    # Offline reverse geocoding
    "geoloc_gazetteer_open": (_status, (c_char_p, POINTER(GazetteerPtr)), True),
    "geoloc_gazetteer_destroy": (None, (GazetteerPtr,), False),
    "geoloc_gazetteer_places": (_status, (GazetteerPtr, POINTER(PlacesPtr)), True),
    "geoloc_reverse_geocode": (
        _status,
        (GazetteerPtr, CCoord, _enum, _text_out, c_size_t, POINTER(c_size_t), POINTER(CMatch)),
        True,
    ),
}


# --------------------------------------------------------------------------------------------
# Finding the library
# --------------------------------------------------------------------------------------------

_PACKAGE_DIR = Path(__file__).resolve().parent

_BUILD_HINT = """\
libgeoloc is not built by pip; build it from the libgeoloc source tree, then point this package at it:
    cmake -S . -B build && cmake --build build        # gives build/libgeoloc.so
    (or: swift build -c release                       # gives .build/release/libgeoloc.so)
    export {env}=/path/to/libgeoloc.so
or copy libgeoloc.so into {pkg}/, or install it where the system loader finds it.""".format(
    env=ENV_VAR, pkg=_PACKAGE_DIR
)


def _files_next_to_package() -> List[Path]:
    """libgeoloc.so* beside this package: the plain name first, then the versioned names."""
    if sys.platform == "darwin":
        patterns = ["libgeoloc.dylib", "libgeoloc*.dylib"]
    elif sys.platform == "win32":
        patterns = ["geoloc.dll"]
    else:
        patterns = ["libgeoloc.so", "libgeoloc.so*"]
    found: List[Path] = []
    for pattern in patterns:
        for path in sorted(_PACKAGE_DIR.glob(pattern)):
            if path not in found and path.is_file():
                found.append(path)
    return found


def _describe(err: BaseException) -> str:
    return "%s: %s" % (type(err).__name__, err)


def _open(spec: str) -> ctypes.CDLL:
    return ctypes.CDLL(spec)


def _load() -> Tuple[ctypes.CDLL, str]:
    """Loads the library from the first place that has it, or raises one ImportError."""
    tried: List[str] = []

    env = os.environ.get(ENV_VAR, "")
    if env:
        try:
            # A bare file name is searched for by the system loader, as dlopen does.
            return _open(env), (os.path.abspath(env) if os.sep in env else env)
        except OSError as err:
            # An explicit choice is never silently replaced by some other copy.
            raise ImportError(
                "libgeoloc could not be loaded from %s=%s (%s).\n"
                "The other places are not searched while %s is set.\n%s"
                % (ENV_VAR, env, _describe(err), ENV_VAR, _BUILD_HINT)
            ) from None
    tried.append("1. $%s: not set" % ENV_VAR)

    beside = _files_next_to_package()
    if not beside:
        tried.append("2. next to the package: no %s/libgeoloc.so*" % _PACKAGE_DIR)
    for path in beside:
        try:
            return _open(str(path)), str(path)
        except OSError as err:
            tried.append("2. next to the package: %s (%s)" % (path, _describe(err)))

    name = ctypes.util.find_library("geoloc")
    if name is None:
        tried.append('3. ctypes.util.find_library("geoloc"): not found')
    else:
        try:
            return _open(name), name
        except OSError as err:
            tried.append('3. ctypes.util.find_library("geoloc") = %s (%s)' % (name, _describe(err)))

    soname = {"darwin": "libgeoloc.0.dylib", "win32": "geoloc.dll"}.get(sys.platform, "libgeoloc.so.0")
    try:
        return _open(soname), soname
    except OSError as err:
        tried.append("4. %s through the system loader (%s)" % (soname, _describe(err)))

    raise ImportError(
        "libgeoloc could not be found. Places tried, in order:\n  %s\n%s"
        % ("\n  ".join(tried), _BUILD_HINT)
    )


class _DlInfo(Structure):
    _fields_ = [
        ("dli_fname", c_char_p),
        ("dli_fbase", c_void_p),
        ("dli_sname", c_char_p),
        ("dli_saddr", c_void_p),
    ]


def _real_path(handle: ctypes.CDLL, fallback: str) -> str:
    """The file the loader actually opened (dladdr on one of its symbols); fallback if unknown."""
    if os.path.isabs(fallback) or sys.platform == "win32":
        return fallback
    try:
        dladdr = ctypes.CDLL(None).dladdr
    except (OSError, AttributeError):
        try:
            dladdr = ctypes.CDLL(ctypes.util.find_library("dl") or "libdl.so.2").dladdr
        except (OSError, AttributeError):
            return fallback
    dladdr.argtypes = (c_void_p, POINTER(_DlInfo))
    dladdr.restype = c_int
    info = _DlInfo()
    try:
        address = ctypes.cast(handle.geoloc_version, c_void_p).value
    except AttributeError:
        return fallback
    if dladdr(address, ctypes.byref(info)) and info.dli_fname:
        name = os.fsdecode(info.dli_fname)
        if os.path.isabs(name):
            return name
    return fallback


def _expected_version() -> Tuple[int, int]:
    major, minor = __version__.split(".")[:2]
    return int(major), int(minor)


def _declare(handle: ctypes.CDLL, path: str) -> None:
    missing = [name for name in FUNCTIONS if not hasattr(handle, name)]
    if "geoloc_version_number" not in missing:
        handle.geoloc_version_number.restype = c_int32
        handle.geoloc_version_number.argtypes = ()
        number = handle.geoloc_version_number()
        have = (number // 10000, number // 100 % 100)
        if have != _expected_version():
            raise ImportError(
                "libgeoloc at %s is version %d.%d.%d but the geoloc package %s needs %d.%d.x; "
                "build the matching library or install the matching package.\n%s"
                % ((path,) + have + (number % 100, __version__) + _expected_version() + (_BUILD_HINT,))
            )
    if missing:
        raise ImportError(
            "libgeoloc at %s lacks %s, which include/geoloc.h %s; it is not the libgeoloc %s "
            "this package was written for.\n%s"
            % (
                path,
                ", ".join(missing),
                "declares" if len(missing) == 1 else "declare",
                __version__,
                _BUILD_HINT,
            )
        )
    for name, (restype, argtypes, checked) in FUNCTIONS.items():
        fn = getattr(handle, name)
        fn.restype = restype
        fn.argtypes = argtypes
        if checked:
            fn.errcheck = _check_status


def last_error() -> str:
    """geoloc_last_error() of the calling thread, as str."""
    raw = lib.geoloc_last_error()
    return raw.decode("utf-8", "replace") if raw else ""


def _check_status(result: int, func: Any, args: Sequence[Any]) -> int:
    """The errcheck of every status-returning function: a non-OK status becomes its exception.

    Runs in the calling thread right after the call returns, so geoloc_last_error() gives this
    call's message (the library keeps it per thread).
    """
    if result == 0:
        return result
    message = last_error()
    if not message:
        raw = lib.geoloc_status_string(result)
        message = raw.decode("utf-8", "replace") if raw else "status %d" % result
    raise error_for_status(result, message)


_handle, _spec = _load()
#: The path of the loaded libgeoloc (the name given to the loader if the path is not known).
library_path: str = _real_path(_handle, _spec)
_declare(_handle, library_path)
#: The loaded library with every function declared.
lib: ctypes.CDLL = _handle
