"""The shared basics through Python: the package, the header and the declarations, exceptions, enum
arguments, coordinates, units and distance text, threads, loading the library; with the golden
coordinate and distance-text cases."""

from __future__ import annotations

import ctypes
import errno
import os
import pickle
import re
import shutil
import subprocess
import sys
import textwrap
import threading
from ctypes import byref, c_char_p, c_double, c_int64, c_size_t
from pathlib import Path

from typing import Dict, Optional

import numpy
import pytest

import geoloc
from geoloc import (
    AddressStyle,
    Coord,
    CoordStyle,
    Daylight,
    Model,
    Status,
    TempUnit,
    Unit,
)
from geoloc import _address, _errors, _ffi, _geocoding, _places, _route, _time, _track_files, _tracking
import golden_cases
from golden_cases import expect_failure
from helpers import random_lat_lon, CENTRALIA, HOME, INF, NAN, STOP_A, raises, rel_close


# ============================================================================================
# The package, the header and the table
# ============================================================================================

REQUIRED_NAMES = """
__version__ library_version library_path Unit Model CoordStyle Daylight TempUnit AddressStyle
Coord parse_coord format_coord check_coord convert_length distance distance_pairs
distance_one_to_many distance_text route_length mileage Mileage Leg eta_minutes weather_label
is_documented_weather_code weather_condition format_address us_state_code us_state_name
country_name GeolocError NotFiniteError OutOfRangeError InvalidArgumentError ParseError
InvalidUTF8Error CountTooLargeError NoHomeError HomeInvalidError UnknownCodeError NotFoundError
UnsupportedError BufferTooSmallError NullArgumentError NoMemoryError InternalError
""".split()


def test_public_surface():
    for name in REQUIRED_NAMES:
        assert hasattr(geoloc, name), name
        assert name in geoloc.__all__, name


def test_versions(header_text):
    assert geoloc.__version__ == "0.7.0"
    lib = geoloc.library_version()
    assert re.fullmatch(r"\d+\.\d+\.\d+", lib)
    assert lib.split(".")[:2] == geoloc.__version__.split(".")[:2]
    major = int(re.search(r"#define GEOLOC_VERSION_MAJOR (\d+)", header_text).group(1))
    minor = int(re.search(r"#define GEOLOC_VERSION_MINOR (\d+)", header_text).group(1))
    assert (major, minor) == tuple(int(x) for x in geoloc.__version__.split(".")[:2])
    number = _ffi.lib.geoloc_version_number()
    assert "%d.%d.%d" % (number // 10000, number // 100 % 100, number % 100) == lib


def test_pyproject_matches_package(pyproject_text):
    # The version has one home, geoloc/_version.py, which the build backend reads.
    assert re.search(r'^dynamic\s*=\s*\["version"\]', pyproject_text, re.M)
    assert re.search(r'^input\s*=\s*"geoloc/_version.py"', pyproject_text, re.M)
    # The distribution is libgeoloc; the package it installs is imported as geoloc.
    assert re.search(r'^name\s*=\s*"libgeoloc"', pyproject_text, re.M)
    assert "numpy" in pyproject_text


def test_library_path_is_the_loaded_file():
    assert os.path.isfile(geoloc.library_path)
    env = os.environ.get("GEOLOC_LIBRARY")
    if env:
        assert geoloc.library_path == os.path.abspath(env)


def test_constants(header_text):
    assert geoloc.MAX_COUNT == 1 << 30 == _ffi.MAX_COUNT
    assert "#define GEOLOC_MAX_COUNT ((size_t)1 << 30)" in header_text
    assert "#define GEOLOC_EARTH_MEAN_RADIUS_M %r" % geoloc.EARTH_MEAN_RADIUS_M in header_text


def _header_functions(header_text):
    found = {}
    for m in re.finditer(r"GEOLOC_API\s+([^;(]*?)\b(geoloc_\w+)\s*\(([^)]*)\)\s*;", header_text):
        ret, name, params = m.group(1), m.group(2), m.group(3)
        plist = [] if params.strip() == "void" else [" ".join(p.split()) for p in params.split(",")]
        found[name] = (ret.strip(), plist)
    return found


def _ctype_of(c_type):
    key = c_type.replace(" ", "")
    enums = {"geoloc_status", "geoloc_unit", "geoloc_model", "geoloc_coord_style", "geoloc_daylight",
             "geoloc_temp_unit", "geoloc_address_style", "geoloc_activity", "geoloc_resample_mode",
             "geoloc_load_format", "geoloc_route_end", "geoloc_track_item", "geoloc_time_style",
             "geoloc_search_field"}
    if key in enums:
        return ctypes.c_int
    handles = {"places": _places.PlacesPtr, "region": _places.RegionPtr, "gazetteer": _geocoding.GazetteerPtr,
               "fix_filter": _tracking.FilterPtr, "geofences": _tracking.GeofencesPtr,
               "monitor": _tracking.MonitorPtr, "track": _tracking.TrackPtr, "timezones": _time.TimeZonesPtr,
               "search": _geocoding.SearchPtr}
    for handle, ptr in handles.items():
        for const in ("", "const"):
            if key == "%sgeoloc_%s*" % (const, handle):
                return ptr
            if key == "%sgeoloc_%s**" % (const, handle):
                return ctypes.POINTER(ptr)
    table = {
        "void": None,
        "bool*": ctypes.POINTER(ctypes.c_bool),
        "geoloc_match*": ctypes.POINTER(_places.CMatch),
        "constgeoloc_load_options*": ctypes.POINTER(_places.CLoadOptions),
        "constgeoloc_load_limits*": ctypes.POINTER(_places.CLoadLimits),
        "double": c_double,
        "bool": ctypes.c_bool,
        "size_t": c_size_t,
        "int32_t": ctypes.c_int32,
        "uint32_t": ctypes.c_uint32,
        "constchar*": c_char_p,
        "char*": ctypes.POINTER(ctypes.c_char),
        "size_t*": ctypes.POINTER(c_size_t),
        "double*": ctypes.POINTER(c_double),
        "int64_t*": ctypes.POINTER(c_int64),
        "constchar**": ctypes.POINTER(c_char_p),
        "constchar*const*": ctypes.POINTER(c_char_p),
        "geoloc_coord": _ffi.CCoord,
        "geoloc_coord*": ctypes.POINTER(_ffi.CCoord),
        "constgeoloc_coord*": ctypes.POINTER(_ffi.CCoord),
        "geoloc_mileage_result*": ctypes.POINTER(_route.CMileageResult),
        "geoloc_leg*": ctypes.POINTER(_route.CLeg),
        "constgeoloc_address_part*": ctypes.POINTER(_address.CAddressPart),
        "void*": ctypes.c_void_p,
        "constvoid*": ctypes.c_void_p,
        "geoloc_fix*": ctypes.POINTER(_tracking.CFix),
        "constgeoloc_fix*": ctypes.POINTER(_tracking.CFix),
        "geoloc_fix_decision*": ctypes.POINTER(_tracking.CFixDecision),
        "geoloc_filter_options*": ctypes.POINTER(_tracking.CFilterOptions),
        "constgeoloc_filter_options*": ctypes.POINTER(_tracking.CFilterOptions),
        "constgeoloc_circle_fence*": ctypes.POINTER(_tracking.CCircleFence),
        "constgeoloc_polygon_fence*": ctypes.POINTER(_tracking.CPolygonFence),
        "geoloc_monitor_options*": ctypes.POINTER(_tracking.CMonitorOptions),
        "constgeoloc_monitor_options*": ctypes.POINTER(_tracking.CMonitorOptions),
        "geoloc_geofence_event*": ctypes.POINTER(_tracking.CGeofenceEvent),
        "geoloc_track_stats*": ctypes.POINTER(_tracking.CTrackStats),
        "geoloc_stay_point*": ctypes.POINTER(_tracking.CStayPoint),
        "geoloc_track_segment*": ctypes.POINTER(_track_files.CTrackSegment),
        "geoloc_segment_stats*": ctypes.POINTER(_track_files.CSegmentStats),
        "constsize_t*": ctypes.POINTER(c_size_t),
        "constdouble*": ctypes.POINTER(c_double),
        "constgeoloc_order_options*": ctypes.POINTER(_route.COrderOptions),
        "geoloc_order_result*": ctypes.POINTER(_route.COrderResult),
        "geoloc_search_options*": ctypes.POINTER(_geocoding.CSearchOptions),
        "constgeoloc_search_options*": ctypes.POINTER(_geocoding.CSearchOptions),
        "geoloc_search_result*": ctypes.POINTER(_geocoding.CSearchResult),
        "constgeoloc_search_result*": ctypes.POINTER(_geocoding.CSearchResult),
        "constgeoloc_time_window*": ctypes.POINTER(_route.CTimeWindow),
        "geoloc_stop_visit*": ctypes.POINTER(_route.CStopVisit),
        "geoloc_schedule_result*": ctypes.POINTER(_route.CScheduleResult),
        "constgeoloc_reverse_options*": ctypes.POINTER(_geocoding.CReverseOptions),
        "geoloc_locality*": ctypes.POINTER(_geocoding.CLocality),
        "int64_t": c_int64,
        "geoloc_local_time*": ctypes.POINTER(_time.CLocalTime),
        "constgeoloc_local_date_time*": ctypes.POINTER(_time.CLocalDateTime),
        "geoloc_local_instants*": ctypes.POINTER(_time.CLocalInstants),
        "uint16_t": ctypes.c_uint16,
        "uint16_t*": ctypes.POINTER(ctypes.c_uint16),
        "geoloc_timezone*": ctypes.POINTER(_time.CTimeZone),
        "geoloc_locality_zone*": ctypes.POINTER(_time.CLocalityZone),
        "geoloc_local_day*": ctypes.POINTER(_time.CLocalDay),
    }
    return table[key]


def test_table_declares_every_header_function(header_text):
    header = _header_functions(header_text)
    assert len(header) >= 20
    for name in ("geoloc_geodesic_inverse", "geoloc_places_within", "geoloc_reverse_geocode", "geoloc_region_destroy"):
        assert name in header
    assert set(header) == set(_ffi.FUNCTIONS)
    for name, (ret, params) in header.items():
        restype, argtypes, checked = _ffi.FUNCTIONS[name]
        assert restype is _ctype_of(ret), name
        assert checked == (ret == "geoloc_status"), name
        types = [_ctype_of(re.match(r"(.*?)\w+$", p).group(1)) for p in params]
        assert list(argtypes) == types, name
        fn = getattr(_ffi.lib, name)
        assert fn.restype is restype and list(fn.argtypes) == types
        assert (fn.errcheck is _ffi._check_status) == checked


ENUM_PREFIXES = {
    Unit: "GEOLOC_UNIT_",
    Model: "GEOLOC_MODEL_",
    CoordStyle: "GEOLOC_COORD_",
    Daylight: "GEOLOC_DAYLIGHT_",
    TempUnit: "GEOLOC_TEMP_",
    AddressStyle: "GEOLOC_ADDRESS_",
}


def test_enum_values_match_header(header_text):
    values = {m.group(1): int(m.group(2)) for m in re.finditer(r"\b(GEOLOC_[A-Z0-9_]+)\s*=\s*(\d+)", header_text)}
    for cls, prefix in ENUM_PREFIXES.items():
        expected = {k[len(prefix):]: v for k, v in values.items() if k.startswith(prefix)}
        assert {m.name: m.value for m in cls} == expected, cls
    statuses = {k[len("GEOLOC_"):]: v for k, v in values.items() if re.fullmatch(r"GEOLOC_(OK|E_\w+)", k)}
    assert {m.name: m.value for m in Status} == statuses


def test_structure_layouts_match_a_c_compiler(tmp_path, repo_root):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler to compare layouts with")
    fields = {
        "geoloc_coord": ["lat", "lon"],
        "geoloc_leg": ["from", "to", "distance"],
        "geoloc_mileage_result": ["total", "rounded", "stops_used", "stops_skipped", "leg_count", "text"],
        "geoloc_address_part": ["key", "value"],
        "geoloc_fix": ["lat", "lon", "time", "accuracy_m", "speed_mps", "course_deg", "altitude_m"],
        "geoloc_fix_decision": ["verdict", "motion"],
        "geoloc_geofence_event": ["fix", "region", "time", "transition"],
        "geoloc_circle_fence": ["id", "center", "radius_m"],
        "geoloc_polygon_fence": ["id", "vertices", "n_vertices"],
        "geoloc_stay_point": ["first", "last", "center", "arrival", "departure"],
        "geoloc_track_stats": ["length_m", "duration_s", "moving_time_s", "average_speed_mps", "moving_speed_mps",
                               "max_speed_mps", "elevation_gain_m", "elevation_loss_m", "altitude_count"],
        "geoloc_order_options": ["mode", "iterations", "time_limit_s", "seed"],
        "geoloc_order_result": ["total", "given_total", "saving", "proven_optimal", "stop_count", "leg_count",
                                "text", "given_text"],
    }
    lines = []
    for struct, names in fields.items():
        lines.append('printf("%s %%zu\\n", sizeof(%s));' % (struct, struct))
        for f in names:
            lines.append('printf("%s.%s %%zu\\n", offsetof(%s, %s));' % (struct, f, struct, f))
    src = tmp_path / "layout.c"
    src.write_text('#include "geoloc.h"\n#include <stdio.h>\n#include <stddef.h>\nint main(void) {\n%s\nreturn 0;\n}\n' % "\n".join(lines))
    exe = tmp_path / "layout"
    subprocess.run([cc, "-I", str(repo_root / "include"), "-o", str(exe), str(src)], check=True)
    got = dict(line.split() for line in subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.splitlines())
    classes = {"geoloc_coord": _ffi.CCoord, "geoloc_leg": _route.CLeg,
               "geoloc_mileage_result": _route.CMileageResult, "geoloc_address_part": _address.CAddressPart,
               "geoloc_fix": _tracking.CFix, "geoloc_fix_decision": _tracking.CFixDecision,
               "geoloc_geofence_event": _tracking.CGeofenceEvent, "geoloc_circle_fence": _tracking.CCircleFence,
               "geoloc_polygon_fence": _tracking.CPolygonFence, "geoloc_stay_point": _tracking.CStayPoint,
               "geoloc_track_stats": _tracking.CTrackStats,
               "geoloc_order_options": _route.COrderOptions, "geoloc_order_result": _route.COrderResult}
    for struct, cls in classes.items():
        assert int(got[struct]) == ctypes.sizeof(cls), struct
        assert len(cls._fields_) == len(fields[struct])
        for f, (py_name, _) in zip(fields[struct], cls._fields_):
            assert int(got["%s.%s" % (struct, f)]) == getattr(cls, py_name).offset, (struct, f)


# ============================================================================================
# Exceptions
# ============================================================================================

BUILTIN_BASES = {
    geoloc.NotFiniteError: ValueError,
    geoloc.OutOfRangeError: ValueError,
    geoloc.InvalidArgumentError: ValueError,
    geoloc.ParseError: ValueError,
    geoloc.InvalidUTF8Error: ValueError,
    geoloc.CountTooLargeError: ValueError,
    geoloc.NotFoundError: LookupError,
    geoloc.UnsupportedError: NotImplementedError,
    geoloc.NoMemoryError: MemoryError,
}


def test_every_status_has_its_exception_class():
    classes = set()
    for status in Status:
        if status == Status.OK:
            continue
        err = _errors.error_for_status(int(status), "m")
        assert type(err).status == status
        assert err.status == status and isinstance(err.status, Status)
        assert issubclass(type(err), geoloc.GeolocError)
        assert getattr(geoloc, type(err).__name__) is type(err)
        classes.add(type(err))
    assert len(classes) == len(Status) - 1
    for cls, base in BUILTIN_BASES.items():
        assert issubclass(cls, base) and issubclass(cls, geoloc.GeolocError)
    for cls in (geoloc.NoHomeError, geoloc.HomeInvalidError, geoloc.UnknownCodeError,
                geoloc.BufferTooSmallError, geoloc.NullArgumentError, geoloc.InternalError):
        assert cls.__bases__ == (geoloc.GeolocError,)
    assert geoloc.GeolocError.__bases__ == (Exception,)


def test_exception_behaviour():
    err = geoloc.OutOfRangeError("latitude 91 is outside [-90, 90]")
    assert err.status == Status.E_OUT_OF_RANGE == 3
    assert str(err) == err.message == "latitude 91 is outside [-90, 90]"
    assert "OutOfRangeError" in repr(err)
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is geoloc.OutOfRangeError and back.message == err.message and back.status == 3
    unknown = _errors.error_for_status(99, "from a newer library")
    assert type(unknown) is geoloc.GeolocError and unknown.status == 99
    assert str(geoloc.InternalError()) == "libgeoloc status %s" % Status.E_INTERNAL


def test_raw_calls_map_statuses_and_messages():
    lib = _ffi.lib
    out = c_double()
    err = raises(geoloc.InvalidArgumentError, lib.geoloc_distance, _ffi.CCoord(0, 0), _ffi.CCoord(0, 0), 0, 99, byref(out))
    assert "99" in err.message
    raises(geoloc.NullArgumentError, lib.geoloc_distance, _ffi.CCoord(0, 0), _ffi.CCoord(0, 0), 0, 0, None)
    # A count above GEOLOC_MAX_COUNT, and a size_t that would be negative as a signed number.
    for n in (geoloc.MAX_COUNT + 1, 2**64 - 1):
        err = raises(geoloc.CountTooLargeError, lib.geoloc_distance_pairs, None, None, n, 0, 0, None)
        assert str(n) in err.message
        raises(geoloc.CountTooLargeError, lib.geoloc_distance_one_to_many, _ffi.CCoord(0, 0), None, n, 0, 0, None)
        raises(geoloc.CountTooLargeError, lib.geoloc_route_length, None, n, False, 0, 0, byref(out), None)
        result = _route.CMileageResult()
        raises(geoloc.CountTooLargeError, lib.geoloc_mileage, HOME.encode(), None, n, True, 0, 2, byref(result), None, 0, None, 0)
    # The size query: NULL/0 asks for the size, a short buffer gets "".
    needed = c_size_t()
    raises(geoloc.BufferTooSmallError, lib.geoloc_coord_format, _ffi.CCoord(*CENTRALIA), 0, None, 0, byref(needed))
    assert needed.value == len("38.321991,-88.867400") + 1
    buf = ctypes.create_string_buffer(b"xxxxx")
    raises(geoloc.BufferTooSmallError, lib.geoloc_coord_format, _ffi.CCoord(*CENTRALIA), 0, buf, 5, byref(needed))
    assert buf.raw[0:1] == b"\0"
    assert lib.geoloc_status_string(5) == b"text could not be parsed"
    assert lib.geoloc_status_string(0) == b"ok"
    assert lib.geoloc_status_string(999) == b"unknown status"


def test_last_error_is_empty_on_a_fresh_thread():
    seen = []
    with pytest.raises(geoloc.NotFiniteError):
        geoloc.distance((NAN, 0), (0, 0))
    t = threading.Thread(target=lambda: seen.append(_ffi.last_error()))
    t.start()
    t.join()
    assert seen == [""]
    assert "nan" in _ffi.last_error()


# ============================================================================================
# Enum arguments
# ============================================================================================


@pytest.mark.parametrize(
    "given, member",
    [
        (Unit.MILES, Unit.MILES), (2, Unit.MILES), (numpy.int64(2), Unit.MILES), ("miles", Unit.MILES),
        ("MILES", Unit.MILES), (" Miles ", Unit.MILES), ("mi", Unit.MILES), ("mile", Unit.MILES),
        (b"mi", Unit.MILES), ("m", Unit.METERS), ("metres", Unit.METERS), ("km", Unit.KILOMETERS),
        ("nautical miles", Unit.NAUTICAL_MILES), ("nautical-miles", Unit.NAUTICAL_MILES),
        ("NMI", Unit.NAUTICAL_MILES), ("ft", Unit.FEET), ("feet", Unit.FEET),
    ],
)
def test_unit_coercion(given, member):
    assert geoloc.convert_length(1.0, given, Unit.METERS) == geoloc.convert_length(1.0, member, Unit.METERS)


def test_other_enum_coercions():
    assert geoloc.format_coord(CENTRALIA, "readable") == geoloc.format_coord(CENTRALIA, CoordStyle.READABLE)
    assert geoloc.format_coord(CENTRALIA, 1) == "38.321991, -88.867400"
    assert geoloc.weather_label(0, "day") == geoloc.weather_label(0, 1) == "Sunny"
    assert geoloc.weather_condition(63, 7.0, "c") == geoloc.weather_condition(63, 7.0, TempUnit.CELSIUS) == "Rain, 7°C"
    assert geoloc.weather_condition(63, 7.0, "Celsius", "fahrenheit") == "Rain, 45°F"
    assert geoloc.distance((0, 0), (1, 0), model="sphere") == geoloc.distance((0, 0), (1, 0), model=0)


@pytest.mark.parametrize("bad", ["furlong", "", "wgs84", 5, -1, 2**40, b"\xff"])
def test_unknown_enum_values_are_refused(bad):
    err = raises(geoloc.InvalidArgumentError, geoloc.distance, (0, 0), (1, 1), bad)
    assert "unit" in err.message and "METERS" in err.message


@pytest.mark.parametrize("bad", [2.0, True, None, Model.WGS84, [2]])
def test_wrong_kind_of_enum_value(bad):
    raises(TypeError, geoloc.distance, (0, 0), (1, 1), bad)


def test_unknown_enum_values_in_every_enum():
    raises(geoloc.InvalidArgumentError, geoloc.distance, (0, 0), (1, 1), Unit.METERS, 7)
    raises(geoloc.InvalidArgumentError, geoloc.format_coord, (0, 0), "fancy")
    raises(geoloc.InvalidArgumentError, geoloc.weather_label, 0, "dusk")
    raises(geoloc.InvalidArgumentError, geoloc.weather_condition, 0, 1.0, "kelvin")
    raises(geoloc.InvalidArgumentError, geoloc.weather_condition, 0, 1.0, "c", 9)
    raises(geoloc.InvalidArgumentError, geoloc.format_address, {"city": "X"}, 9)


# ============================================================================================
# Coordinates
# ============================================================================================


def test_parse_coord():
    c = geoloc.parse_coord("38.321991,-88.867400")
    assert c == (38.321991, -88.8674) and isinstance(c, Coord)
    assert (c.lat, c.lon) == (38.321991, -88.8674)
    assert geoloc.parse_coord(" +38.321991 , -88.8674 ") == (38.321991, -88.8674)
    assert geoloc.parse_coord(b"38.5,-88.5") == (38.5, -88.5)
    assert geoloc.parse_coord(bytearray(b"1e1,2")) == (10.0, 2.0)
    assert geoloc.parse_coord("0,190") == (0.0, -170.0)
    assert geoloc.parse_coord("0,180") == (0.0, -180.0)
    assert geoloc.parse_coord("-90,0") == (-90.0, 0.0)


@pytest.mark.parametrize(
    "text, cls",
    [
        (None, geoloc.NullArgumentError),
        ("", geoloc.ParseError),
        ("abc", geoloc.ParseError),
        ("38.3", geoloc.ParseError),
        ("38.3,-88.8,1", geoloc.ParseError),
        ("nan,0", geoloc.ParseError),
        ("inf,0", geoloc.ParseError),
        ("91,0", geoloc.OutOfRangeError),
        ("-90.0000001,0", geoloc.OutOfRangeError),
        ("1e999,0", geoloc.NotFiniteError),
        (b"\xff\xfe,1", geoloc.InvalidUTF8Error),
        (b"38.3,\xc3", geoloc.InvalidUTF8Error),
        ("38.3,\ud800", geoloc.InvalidUTF8Error),  # a lone surrogate has no UTF-8 form
        ("38.3\x00,1", geoloc.InvalidArgumentError),  # C text cannot hold a NUL
        (38.3, TypeError),
    ],
)
def test_parse_coord_errors(text, cls):
    err = raises(cls, geoloc.parse_coord, text)
    if cls is geoloc.OutOfRangeError:
        assert "latitude" in err.message


def test_format_coord():
    assert geoloc.format_coord(CENTRALIA) == "38.321991,-88.867400"
    assert geoloc.format_coord(CENTRALIA, CoordStyle.READABLE) == "38.321991, -88.867400"
    assert geoloc.format_coord(Coord(38.321991, -88.8674)) == "38.321991,-88.867400"
    assert geoloc.format_coord(numpy.array([38.321991, -88.8674])) == "38.321991,-88.867400"
    assert geoloc.format_coord([-0.0, -0.0]) == "0.000000,0.000000"
    assert geoloc.format_coord((-1e-7, 1e-7)) == "0.000000,0.000000"
    assert geoloc.format_coord((0, 180)) == "0.000000,-180.000000"
    assert geoloc.format_coord((90, 370)) == "90.000000,10.000000"
    assert geoloc.format_coord((-90, -180.5), "readable") == "-90.000000, 179.500000"


@pytest.mark.parametrize(
    "coord, cls",
    [
        ((NAN, 0), geoloc.NotFiniteError),
        ((0, NAN), geoloc.NotFiniteError),
        ((INF, 0), geoloc.NotFiniteError),
        ((0, -INF), geoloc.NotFiniteError),
        ((90.5, 0), geoloc.OutOfRangeError),
        ((-91, 0), geoloc.OutOfRangeError),
        (None, TypeError),
        # Issue 18: every call reads "lat,lon" text as parse_coord does ("38,1" is a
        # coordinate now, no longer a TypeError); text that is not two numbers is a ParseError.
        ("38", geoloc.ParseError),
        ("38,1,2", geoloc.ParseError),
        ((None, 1), TypeError),
        (("38", 1), TypeError),
        (5, TypeError),
        ((1,), ValueError),
        ((1, 2, 3), ValueError),
    ],
)
def test_bad_coordinates(coord, cls):
    raises(cls, geoloc.format_coord, coord)
    raises(cls, geoloc.check_coord, coord)
    raises(cls, geoloc.distance, coord, (0, 0))
    raises(cls, geoloc.distance, (0, 0), coord)
    raises(cls, geoloc.distance_one_to_many, coord, [(0, 0)])


def test_check_coord():
    assert geoloc.check_coord((10, 190)) == (10.0, -170.0)
    assert isinstance(geoloc.check_coord((10, 20)), Coord)
    assert geoloc.check_coord((90, 0)) == (90.0, 0.0)
    assert geoloc.check_coord((-90, 180)) == (-90.0, -180.0)
    assert geoloc.check_coord((0, -540)) == (0.0, -180.0)
    assert geoloc.check_coord((1, 1e6)) == (1.0, -80.0)  # 1e6 = 2778 * 360 - 80


# ============================================================================================
# Units and distance text
# ============================================================================================


def test_convert_length():
    assert geoloc.convert_length(1, Unit.MILES, Unit.METERS) == 1609.344
    assert geoloc.convert_length(1609.344, "m", "mi") == 1.0
    assert geoloc.convert_length(1852, "m", "nmi") == 1.0
    assert geoloc.convert_length(1, "ft", "m") == 0.3048
    assert geoloc.convert_length(5, "km", "m") == 5000.0
    assert geoloc.convert_length(0, "km", "ft") == 0.0
    assert rel_close(geoloc.convert_length(-2, "mi", "ft"), -10560.0, 1e-15)
    assert geoloc.convert_length(numpy.float32(2.5), "km", "km") == 2.5
    raises(geoloc.NotFiniteError, geoloc.convert_length, NAN, "m", "km")
    raises(geoloc.NotFiniteError, geoloc.convert_length, -INF, "m", "km")
    raises(geoloc.InvalidArgumentError, geoloc.convert_length, 1, "furlong", "m")
    raises(TypeError, geoloc.convert_length, None, "m", "km")
    raises(TypeError, geoloc.convert_length, "1", "m", "km")


def test_distance_text():
    assert geoloc.distance_text(5149.3) == "3.2 miles"
    assert geoloc.distance_text(1609.344) == "1.0 miles"
    assert geoloc.distance_text(0) == "0.0 miles"
    assert geoloc.distance_text(12000, "km") == "12.0 km"
    assert geoloc.distance_text(250, Unit.METERS) == "250.0 m"
    assert geoloc.distance_text(7593.2, "nmi") == "4.1 nmi"
    assert geoloc.distance_text(249.936, "ft") == "820.0 ft"
    assert geoloc.distance_text(20015114.0, "km") == "20015.1 km"


def test_distance_text_is_printf_one_decimal():
    """The "%.1f miles" of the design, for many lengths and every unit."""
    sizes = {Unit.MILES: (1609.344, "miles"), Unit.KILOMETERS: (1000.0, "km"), Unit.METERS: (1.0, "m"),
             Unit.NAUTICAL_MILES: (1852.0, "nmi"), Unit.FEET: (0.3048, "ft")}
    rng = numpy.random.default_rng(11)
    for meters in list(rng.uniform(0, 1e6, 400)) + [i * 160.9344 for i in range(300)]:
        for unit, (size, word) in sizes.items():
            assert geoloc.distance_text(meters, unit) == "%.1f %s" % (meters / size, word)


def test_distance_text_errors():
    raises(geoloc.OutOfRangeError, geoloc.distance_text, -1.0)
    raises(geoloc.OutOfRangeError, geoloc.distance_text, -1e-300)
    raises(geoloc.NotFiniteError, geoloc.distance_text, NAN)
    raises(geoloc.NotFiniteError, geoloc.distance_text, INF)
    raises(geoloc.InvalidArgumentError, geoloc.distance_text, 1.0, "parsec")
    raises(TypeError, geoloc.distance_text, None)


# ============================================================================================
# Threads
# ============================================================================================


def test_threads_keep_results_and_messages_apart():
    threads_n, rounds = 8, 300
    barrier = threading.Barrier(threads_n)
    failures = []
    batch_a, batch_b = random_lat_lon(5000, 20), random_lat_lon(5000, 21)
    batch_expected = geoloc.distance_pairs(batch_a, batch_b)

    def work(k):
        a, b = (k * 10.0 - 35, k * 20.0), (-(k * 5.0), 100 - k * 30.0)
        expected = geoloc.distance(a, b)
        bad_lat = 91.0 + k + 0.25  # a latitude only this thread uses
        bad_text = "thread-%d-text" % k
        barrier.wait()
        try:
            for i in range(rounds):
                if geoloc.distance(a, b) != expected:
                    failures.append((k, "distance"))
                try:
                    geoloc.distance((bad_lat, 0), b)
                    failures.append((k, "no error"))
                except geoloc.OutOfRangeError as err:
                    if repr(bad_lat) not in err.message:
                        failures.append((k, err.message))
                try:
                    geoloc.parse_coord(bad_text)
                    failures.append((k, "no parse error"))
                except geoloc.ParseError as err:
                    if bad_text not in err.message:
                        failures.append((k, err.message))
                if i % 50 == 0 and not numpy.array_equal(geoloc.distance_pairs(batch_a, batch_b), batch_expected):
                    failures.append((k, "batch"))
                if geoloc.mileage(HOME, [STOP_A]).text != "40.2":
                    failures.append((k, "mileage"))
        except Exception as err:  # pragma: no cover - reported below
            failures.append((k, repr(err)))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(threads_n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


# ============================================================================================
# Loading the library
# ============================================================================================

PACKAGE_SRC = Path(geoloc.__file__).resolve().parent

PROBE = textwrap.dedent(
    """
    try:
        import geoloc
    except ImportError as err:
        print("IMPORTERROR")
        print("CAUSE", err.__cause__ is not None)
        print(err)
    else:
        print("LOADED", geoloc.library_path)
    """
)


def _copy_package(tmp_path):
    dest = tmp_path / "site" / "geoloc"
    dest.mkdir(parents=True)
    for f in PACKAGE_SRC.iterdir():
        if f.suffix == ".py" or f.name == "py.typed":
            shutil.copy(f, dest / f.name)
    return dest


def _copy_library(dest):
    """Copies the loaded library to dest; an installed wheel's library brings its GEOS copy
    (found through the run path $ORIGIN/../<distribution>.libs, libgeoloc.libs)."""
    shutil.copy(geoloc.library_path, dest)
    for libs in Path(geoloc.library_path).resolve().parent.parent.glob("*.libs"):
        target = Path(dest).parent.parent / libs.name
        if libs.is_dir() and not target.exists():
            shutil.copytree(libs, target)


def _probe(site, env_library=None):
    env = {k: v for k, v in os.environ.items() if k not in ("GEOLOC_LIBRARY", "PYTHONPATH", "LD_LIBRARY_PATH")}
    env["PYTHONPATH"] = str(site)
    if env_library is not None:
        env["GEOLOC_LIBRARY"] = env_library
    run = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, cwd=str(site))
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_import_fails_clearly_when_the_library_is_nowhere(tmp_path):
    import ctypes.util

    if ctypes.util.find_library("geoloc"):
        pytest.skip("a libgeoloc is installed on this system")
    pkg = _copy_package(tmp_path)
    out = _probe(pkg.parent)
    assert out.startswith("IMPORTERROR\nCAUSE False\n"), out
    for place in ("GEOLOC_LIBRARY", str(pkg), 'find_library("geoloc")', "libgeoloc.so.0", "cmake", "build/libgeoloc.so"):
        assert place in out, (place, out)


def test_import_fails_clearly_for_a_bad_geoloc_library(tmp_path):
    pkg = _copy_package(tmp_path)
    shutil.copy(geoloc.library_path, pkg / "libgeoloc.so")  # must not be used instead
    missing = str(tmp_path / "nowhere" / "libgeoloc.so")
    out = _probe(pkg.parent, missing)
    assert out.startswith("IMPORTERROR"), out
    assert missing in out and "GEOLOC_LIBRARY" in out and "cmake" in out


def test_import_finds_the_library_next_to_the_package(tmp_path):
    for name in ("libgeoloc.so", "libgeoloc.so.0"):
        pkg = _copy_package(tmp_path / name)
        _copy_library(pkg / name)
        assert _probe(pkg.parent).strip() == "LOADED %s" % (pkg / name)


def test_import_through_the_system_loader(tmp_path):
    pkg = _copy_package(tmp_path)
    libdir = tmp_path / "lib"
    libdir.mkdir()
    _copy_library(libdir / "libgeoloc.so.0")
    env = {k: v for k, v in os.environ.items() if k != "GEOLOC_LIBRARY"}
    env.update(PYTHONPATH=str(pkg.parent), LD_LIBRARY_PATH=str(libdir))
    run = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, cwd=str(tmp_path))
    # Found by the loader's search, and reported by the file it actually opened.
    assert run.stdout.strip() == "LOADED %s" % (libdir / "libgeoloc.so.0"), run.stdout + run.stderr


def test_import_uses_geoloc_library(tmp_path):
    pkg = _copy_package(tmp_path)
    assert _probe(pkg.parent, geoloc.library_path).strip() == "LOADED %s" % geoloc.library_path


def _fake_library(tmp_path, body):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler to build a fake library with")
    src = tmp_path / "fake.c"
    src.write_text("#include <stdint.h>\n" + body)
    lib = tmp_path / "libfake.so"
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(lib), str(src)], check=True)
    return str(lib)


def test_import_refuses_a_library_of_another_version(tmp_path):
    lib = _fake_library(tmp_path, 'int32_t geoloc_version_number(void) { return 20003; }\n')
    out = _probe(_copy_package(tmp_path).parent, lib)
    assert out.startswith("IMPORTERROR"), out
    package_minor = ".".join(geoloc.__version__.split(".")[:2])
    assert "2.0.3" in out and package_minor in out and lib in out


def test_import_names_missing_functions(tmp_path):
    major, minor, patch = (int(x) for x in geoloc.__version__.split("."))
    lib = _fake_library(
        tmp_path,
        'int32_t geoloc_version_number(void) { return %d; }\nconst char *geoloc_version(void) { return "%s"; }\n'
        % (major * 10000 + minor * 100 + patch, geoloc.__version__),
    )
    out = _probe(_copy_package(tmp_path).parent, lib)
    assert out.startswith("IMPORTERROR"), out
    assert "geoloc_distance" in out and "geoloc_country_name" in out and lib in out
    assert "geoloc_version," not in out

# --------------------------------------------------------------------------------------------
# The shared golden cases of this capability (tests/golden)
# --------------------------------------------------------------------------------------------


def check_coord_parse(r: Dict[str, Optional[str]]) -> None:
    if r["status"] == "OK":
        assert geoloc.parse_coord(r["input"]) == (float(r["lat"]), float(r["lon"]))
    else:
        expect_failure(r["status"], lambda: geoloc.parse_coord(r["input"]))


def check_coord_format(r: Dict[str, Optional[str]]) -> None:
    assert geoloc.format_coord((float(r["lat"]), float(r["lon"])), r["style"]) == r["expected"]


def check_distance_text(r: Dict[str, Optional[str]]) -> None:
    assert geoloc.distance_text(float(r["meters"]), r["unit"]) == r["expected"]


GOLDEN_CHECKERS = {
    "coord_parse.tsv": check_coord_parse,
    "coord_format.tsv": check_coord_format,
    "distance_text.tsv": check_distance_text,
}


@golden_cases.parametrize("core")
def test_golden_row(case) -> None:
    golden_cases.check_row(case, GOLDEN_CHECKERS)


def test_every_golden_file_of_this_capability_has_a_checker() -> None:
    assert set(GOLDEN_CHECKERS) == set(golden_cases.FILES_BY_CAPABILITY["core"])


def test_every_golden_file_belongs_to_one_capability() -> None:
    present = {p.name for p in golden_cases.GOLDEN_DIR.glob("*.tsv")}
    listed = [name for names in golden_cases.FILES_BY_CAPABILITY.values() for name in names]
    assert len(listed) == len(set(listed)), "a golden file is listed under two capabilities"
    assert present == set(listed), "unlisted: %s; missing: %s" % (sorted(present - set(listed)), sorted(set(listed) - present))


# ---- Issue 13 (hardening): a result that is not finite is an error --------------------------


def test_distance_text_overflow_is_not_finite():
    err = raises(geoloc.NotFiniteError, geoloc.distance_text, 1e308, Unit.FEET)
    assert "overflows" in err.message
    assert geoloc.distance_text(1e308, Unit.KILOMETERS).endswith(".0 km")


def test_convert_length_overflow_is_not_finite():
    raises(geoloc.NotFiniteError, geoloc.convert_length, 1e308, Unit.NAUTICAL_MILES, Unit.FEET)
    raises(geoloc.NotFiniteError, geoloc.convert_length, 1.7e308, Unit.KILOMETERS, Unit.METERS)
    assert geoloc.convert_length(1.7e308, Unit.KILOMETERS, Unit.MILES) == 1.7e308 * (1000 / 1609.344)


def test_format_coord_longitude_stays_below_180():
    for lon in (179.9999995, -180.0000001, 539.9999999):
        assert geoloc.format_coord((1.0, lon)) == "1.000000,-180.000000"


# ============================================================================================
# LatLon: two coordinate columns in place of (n, 2) rows
# ============================================================================================


def test_latlon_stacks_columns_into_rows():
    from geoloc._core import _points

    lat = numpy.array([38.5, -33.9, 0.0])
    lon = [-88.9, 151.2, 180.0]
    got = _points(geoloc.LatLon(lat, lon), "pts")
    assert got.shape == (3, 2) and got.dtype == numpy.float64 and got.flags.c_contiguous
    assert got.tolist() == [[38.5, -88.9], [-33.9, 151.2], [0.0, 180.0]]
    # numpy sees the same rows; integer columns are degrees; a scalar is repeated.
    assert numpy.asarray(geoloc.LatLon(lat, lon)).tolist() == got.tolist()
    assert _points(geoloc.LatLon(numpy.array([1, 2], dtype=numpy.int32), 5), "p").tolist() == [[1, 5], [2, 5]]
    assert len(geoloc.LatLon(lat, lon)) == 3
    assert _points(geoloc.LatLon([], []), "p").shape == (0, 2)
    # A strided column (a DataFrame's column of a 2-d block) is fine.
    block = numpy.arange(12.0).reshape(3, 4)
    assert _points(geoloc.LatLon(block[:, 1], block[:, 3]), "p").tolist() == [[1, 3], [5, 7], [9, 11]]
    assert "LatLon" in repr(geoloc.LatLon([1], [2]))
    assert "LatLon" in geoloc.__all__


def test_latlon_is_never_two_points():
    # Two columns of two numbers each: two points (1, 3) and (2, 4), not the rows (1, 2), (3, 4).
    from geoloc._core import _points

    assert _points(geoloc.LatLon([1, 2], [3, 4]), "p").tolist() == [[1, 3], [2, 4]]
    assert _points(([1, 2], [3, 4]), "p").tolist() == [[1, 2], [3, 4]]  # a plain tuple stays rows
    assert not isinstance(geoloc.LatLon([1], [2]), tuple)


def test_latlon_refuses_what_points_refuse():
    from geoloc._core import _points

    with pytest.raises(ValueError, match="2 latitudes and 3 longitudes"):
        _points(geoloc.LatLon([1, 2], [3, 4, 5]), "centers")
    with pytest.raises(ValueError, match="one-dimensional"):
        _points(geoloc.LatLon([[1, 2]], [3]), "centers")
    with pytest.raises(TypeError, match="centers latitudes must hold real numbers"):
        _points(geoloc.LatLon([True, False], [3, 4]), "centers")
    with pytest.raises(TypeError, match="longitudes must hold real numbers"):
        _points(geoloc.LatLon([1.0], ["3"]), "centers")
    with pytest.raises(TypeError, match="longitudes must hold real numbers"):
        _points(geoloc.LatLon([1.0], [3 + 1j]), "centers")
    with pytest.raises(TypeError, match="masked"):
        _points(geoloc.LatLon(numpy.ma.masked_array([1.0], [True]), [3.0]), "centers")


# ============================================================================================
# Type hints: the package passes mypy --strict, and a user's code type-checks against it
# ============================================================================================

_TYPED_USER_CODE = '''
from typing import List, Tuple
import numpy
import geoloc

d: float = geoloc.distance((1.0, 2.0), (3.0, 4.0), unit="km")
rows = numpy.zeros((3, 2))
d = geoloc.distance(rows[0], geoloc.Coord(1.0, 2.0), model=geoloc.Model.WGS84)
km: numpy.ndarray = geoloc.distance_pairs(geoloc.LatLon(rows[:, 0], rows[:, 1]), rows, unit="km")
with geoloc.Places.from_arrays(rows, ids=numpy.arange(3)) as other:
    pass
with geoloc.Places.from_arrays(rows, ids=[1, 2, "x"]) as places:
    matches: List[geoloc.Match] = places.within((0.0, 0.0), 5, "km")
    first: int = matches[0].index if matches else -1
    idx, dist = places.within_arrays((0.0, 0.0), 5, "km")
    ids: List[str] = places.ids()
    near_idx, near_dist = places.nearest_arrays(rows[1], 2)
    in_idx, _ = places.in_region_arrays(geoloc.Region.from_wkt("POLYGON((0 0, 1 0, 1 1, 0 0))"))
    offsets, indices, distances = places.within_many(rows, 5.0)
text: str = geoloc.weather_condition(63, 7.5, unit="C")
fences = geoloc.Geofences(rows, [1.0, 2.0, 3.0], ids=[1, 2, 3])
label: str = fences.id(0)
'''

_WRONG_USER_CODE = '''
import geoloc
geoloc.weather_condition(63, "hot")
geoloc.Places.from_arrays([(0.0, 0.0)]).ids().append(3)
'''


def test_the_package_and_its_users_type_check(tmp_path):
    pytest.importorskip("mypy")  # scripts/test_wheel installs it in the test venv
    package_parent = Path(geoloc.__file__).resolve().parent.parent
    env = dict(os.environ)
    if os.environ.get("GEOLOC_TEST_INSTALLED") != "1":  # the source tree's package (conftest.py)
        env["MYPYPATH"] = str(package_parent)
    good = tmp_path / "user_good.py"
    good.write_text(_TYPED_USER_CODE)
    wrong = tmp_path / "user_wrong.py"
    wrong.write_text(_WRONG_USER_CODE)

    def mypy(*args: str) -> "subprocess.CompletedProcess[str]":
        return subprocess.run(
            [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir", str(tmp_path / "cache"), *args],
            cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=600,
        )

    run = mypy("-p", "geoloc", "-m", "user_good")  # the package and a user module beside it (cwd)
    assert run.returncode == 0, run.stdout + run.stderr
    run = mypy(str(wrong))
    assert run.returncode == 1, run.stdout + run.stderr
    assert 'user_wrong.py:3: error: Argument 2 to "weather_condition" has incompatible type "str"' in run.stdout
    assert "user_wrong.py:4: error:" in run.stdout


# --------------------------------------------------------------------------------------------
# Loading files (header section 1): every loader opens its file the same way
# --------------------------------------------------------------------------------------------

_LOADERS = {
    "Places.open": lambda p: geoloc.Places.open(p),
    "Places.load_csv": lambda p: geoloc.Places.load_csv(p),
    "Places.load_geojson": lambda p: geoloc.Places.load_geojson(p),
    "read_gpx": lambda p: geoloc.read_gpx(p),
    "read_track_geojson": lambda p: geoloc.read_track_geojson(p),
    "Gazetteer.open": lambda p: geoloc.Gazetteer.open(p),
}


def _peak_rss_kb() -> int:
    import resource

    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


@pytest.mark.parametrize("loader", sorted(_LOADERS))
def test_files_that_are_not_files(loader, tmp_path):
    """Issue 21: every loader blocked forever on a FIFO and read /dev/zero or /dev/urandom until
    memory ran out; each now raises InvalidArgumentError at once, for a directory too. The
    watchdog (SIGALRM, 60 s) only turns a hang into a failure: no timing is asserted."""
    import signal

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    before = _peak_rss_kb()

    def hang(signum, frame):  # pragma: no cover - only on a regression
        raise TimeoutError("%s blocked" % loader)

    old = signal.signal(signal.SIGALRM, hang)
    signal.alarm(60)
    try:
        for path in ("/dev/zero", "/dev/urandom", str(fifo), str(tmp_path)):
            with pytest.raises(geoloc.InvalidArgumentError, match="not a regular file|Is a directory"):
                _LOADERS[loader](path)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert _peak_rss_kb() - before < 256 * 1024  # kB: bounded, where it once took gigabytes


@pytest.mark.parametrize("loader", sorted(_LOADERS))
def test_loaders_missing_file_is_not_found(loader, tmp_path):
    with pytest.raises(geoloc.NotFoundError):
        _LOADERS[loader](tmp_path / "missing")


def test_load_limits_bytes_and_records(tmp_path):
    """Issue 21: a byte limit and a record limit on every load, caller-settable."""
    csv = "lat,lon,name\n1,2,a\n3,4,b\n5,6,c\nx,y,bad\n"
    path = tmp_path / "p.csv"
    path.write_text(csv)
    assert len(geoloc.Places.load_csv(path, max_bytes=len(csv))) == 3
    with pytest.raises(geoloc.CountTooLargeError, match="max_bytes"):
        geoloc.Places.load_csv(path, max_bytes=len(csv) - 1)
    with pytest.raises(geoloc.CountTooLargeError, match="max_bytes"):
        geoloc.Places.parse_csv(csv, max_bytes=10)
    assert len(geoloc.Places.parse_csv(csv, max_records=4)) == 3
    with pytest.raises(geoloc.CountTooLargeError, match="max_records"):
        geoloc.Places.parse_csv(csv, max_records=3)
    with pytest.raises(geoloc.OutOfRangeError):
        geoloc.Places.parse_csv(csv, max_bytes=0)
    with pytest.raises(TypeError):
        geoloc.Places.parse_csv(csv, max_records=2.5)


# --------------------------------------------------------------------------------------------
# The package: modules that stand alone, one handle class, one input check
# --------------------------------------------------------------------------------------------

# Every module of the package, read from its folder (a new module is covered without a change here).
_MODULES = sorted(p.stem for p in Path(geoloc.__file__).resolve().parent.glob("_*.py") if p.stem != "__init__")


@pytest.mark.parametrize("module", _MODULES)
def test_each_module_imports_alone(module):
    """Issue 18: no import cycle: every module of the package imports by itself, first, in a
    fresh interpreter."""
    package_parent = Path(geoloc.__file__).resolve().parent.parent
    env = dict(os.environ)
    env["PYTHONPATH"] = str(package_parent) + os.pathsep + env.get("PYTHONPATH", "")
    code = (
        "import importlib, sys\n"
        "m = importlib.import_module('geoloc.%s')\n"
        "assert 'geoloc.%s' in sys.modules\n" % (module, module)
    )
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr


def test_no_module_imports_another_capability_in_a_cycle():
    """Issue 18: the module graph of the package is acyclic (what each module imports from the
    package, read from its source)."""
    import ast

    folder = Path(geoloc.__file__).resolve().parent
    graph = {}
    for f in folder.glob("_*.py"):
        tree = ast.parse(f.read_text())
        deps = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    deps.add("_" + node.module.lstrip("_") if not node.module.startswith("_") else node.module)
                else:
                    deps.update(a.name for a in node.names)
        graph[f.stem] = {d for d in deps if d != f.stem}
    seen, stack = set(), []

    def visit(m):
        assert m not in stack, "import cycle: " + " -> ".join(stack + [m])
        if m in seen:
            return
        stack.append(m)
        for d in graph.get(m, ()):
            visit(d)
        stack.pop()
        seen.add(m)

    for m in graph:
        visit(m)


def test_every_handle_class_is_one_kind():
    """Issue 18: one handle class for every handle: owner, lock and pickling refusal."""
    from geoloc._core import _Handle

    for cls in (geoloc.Places, geoloc.Region, geoloc.Gazetteer, geoloc.FixFilter, geoloc.Geofences,
                geoloc.Monitor):
        assert issubclass(cls, _Handle), cls
    fences = geoloc.Geofences(centers=[(0.0, 0.0)], radii=[100.0])
    with pytest.raises(TypeError, match="pickle"):
        pickle.dumps(fences)
    with pytest.raises(TypeError, match="pickle"):
        pickle.dumps(geoloc.FixFilter())
    fences.close()
    with pytest.raises(ValueError, match="closed"):
        len(fences)


def test_restore_checks_sizes_before_allocating():
    """Issue 21: FixFilter.restore(2**31) allocated 2 GiB before refusing; an int is not bytes."""
    before = _peak_rss_kb()
    with pytest.raises(TypeError):
        geoloc.FixFilter.restore(2**31)
    fences = geoloc.Geofences(centers=[(0.0, 0.0)], radii=[100.0])
    with pytest.raises(TypeError):
        geoloc.Monitor.restore(fences, 2**31)
    assert _peak_rss_kb() - before < 512 * 1024
    state = geoloc.FixFilter().save()
    assert isinstance(geoloc.FixFilter.restore(bytearray(state)), geoloc.FixFilter)
    assert isinstance(geoloc.FixFilter.restore(memoryview(state)), geoloc.FixFilter)


def test_wrong_handle_types_raise_type_error():
    """Issue 21: Monitor.restore(None, b) raised AttributeError and Monitor.restore(FixFilter(), b)
    ctypes.ArgumentError."""
    fences = geoloc.Geofences(centers=[(0.0, 0.0)], radii=[100.0])
    state = geoloc.Monitor(fences).save()
    with pytest.raises(TypeError, match="Geofences"):
        geoloc.Monitor.restore(None, state)
    with pytest.raises(TypeError, match="Geofences"):
        geoloc.Monitor.restore(geoloc.FixFilter(), state)
    with pytest.raises(TypeError, match="Geofences"):
        geoloc.Monitor(geoloc.FixFilter())
    assert isinstance(geoloc.Monitor.restore(fences, state), geoloc.Monitor)


_COMPLEX = numpy.array([[1.0 + 1j, 2.0], [3.0, 4.0]])


@pytest.mark.parametrize(
    "call",
    [
        lambda: geoloc.distance_pairs(_COMPLEX, _COMPLEX),
        lambda: geoloc.route_length(_COMPLEX),
        lambda: geoloc.simplify_track(_COMPLEX, 10.0),
        lambda: geoloc.Geofences(centers=_COMPLEX, radii=[1.0, 2.0]),
        lambda: geoloc.Geofences(centers=[(0.0, 0.0)], radii=[1.0 + 1j]),
        lambda: geoloc.Geofences(polygons=[_COMPLEX]),
        lambda: geoloc.track_stats(numpy.zeros((2, 7), dtype=complex)),
        lambda: geoloc.FixFilter().run(numpy.zeros((2, 7), dtype=complex)),
        lambda: geoloc.stay_points(numpy.zeros((2, 7), dtype=complex), 10.0, 10.0),
        lambda: geoloc.resample_track(numpy.zeros((2, 7), dtype=complex), distance_m=10.0),
        lambda: geoloc.write_gpx(numpy.zeros((2, 7), dtype=complex)),
        lambda: geoloc.Places.from_arrays(_COMPLEX),
    ],
)
def test_complex_input_raises_type_error(call):
    """Issue 21: complex arrays silently lost their imaginary part."""
    with pytest.raises(TypeError):
        call()


# --------------------------------------------------------------------------------------------
# One name for one idea (issue 18)
# --------------------------------------------------------------------------------------------

_ROUTE = [(38.321991, -88.8674), (38.5247, -89.1340), (38.6226, -90.1928), (39.7817, -89.6501)]


def test_one_keyword_for_return_to_the_start():
    """Issue 18: route_length(closed=), mileage(round_trip=) and best_order(end="home") all
    meant "back to the start"; round_trip= now says it in all three, the old forms warn."""
    total, legs = geoloc.route_length(_ROUTE, round_trip=True)
    with pytest.warns(DeprecationWarning, match=r"route_length\(closed=\.\.\.\) is deprecated; use round_trip="):
        old = geoloc.route_length(_ROUTE, closed=True)
    assert old[0] == total and list(old[1]) == list(legs) and len(legs) == len(_ROUTE)
    assert geoloc.route_length(_ROUTE)[0] < total
    home, stops = _ROUTE[0], _ROUTE[1:]
    trip = geoloc.best_order(home, stops)  # a round trip by default, as before
    assert geoloc.best_order(home, stops, round_trip=True).total == trip.total
    with pytest.warns(DeprecationWarning, match=r"best_order\(end='home'\) is deprecated; use round_trip=True"):
        assert geoloc.best_order(home, stops, end="home").total == trip.total
    one_way = geoloc.best_order(home, stops, round_trip=False)
    with pytest.warns(DeprecationWarning, match=r"round_trip=False"):
        assert geoloc.best_order(home, stops, end="anywhere").total == one_way.total
    assert one_way.total < trip.total
    assert list(geoloc.best_order(home, stops, end=1).order)[-1] == 1  # the end of a route: a stop
    with pytest.raises(TypeError):
        geoloc.best_order(home, stops, end=1, round_trip=True)
    with pytest.raises(TypeError):
        geoloc.best_order(home, stops, end="home", round_trip=True)
    m = numpy.zeros((3, 3)) + 5.0
    assert geoloc.best_order_matrix(m, round_trip=False).total == 10.0
    assert geoloc.best_order_matrix(m).total == 15.0


def test_unit_everywhere_in_tracking():
    """Issue 18: tracking took tolerance_m and distance_m where every other call takes unit=."""
    pts = numpy.array([(0.0005 * (i % 2), 0.001 * i) for i in range(50)] + [(0.01, 0.05)], dtype=float)
    want = geoloc.simplify_track(pts, 100.0)
    assert list(geoloc.simplify_track(pts, 0.1, unit="km")) == list(want)
    with pytest.warns(DeprecationWarning, match=r"simplify_track\(tolerance_m=\.\.\.\) is deprecated; use tolerance="):
        assert list(geoloc.simplify_track(pts, tolerance_m=100.0)) == list(want)
    fixes = geoloc.fix_array(lat=numpy.zeros(11), lon=numpy.linspace(0, 0.01, 11), time=numpy.arange(11.0) * 10)
    metres = geoloc.resample_track(fixes, distance=200.0)
    assert numpy.array_equal(geoloc.resample_track(fixes, distance=0.2, unit="km"), metres, equal_nan=True)
    with pytest.warns(DeprecationWarning, match=r"resample_track\(distance_m=\.\.\.\) is deprecated; use distance="):
        assert numpy.array_equal(geoloc.resample_track(fixes, distance_m=200.0), metres, equal_nan=True)
    still = geoloc.fix_array(lat=numpy.zeros(5), lon=numpy.zeros(5), time=numpy.arange(5.0) * 100)
    stays = geoloc.stay_points(still, 50.0, 200.0)
    assert len(stays) == 1
    assert numpy.array_equal(geoloc.stay_points(still, 0.05, 200.0, unit="km"), stays)
    with pytest.warns(DeprecationWarning, match=r"stay_points\(distance_m=\.\.\.\) is deprecated"):
        assert numpy.array_equal(geoloc.stay_points(still, distance_m=50.0, time_s=200.0), stays)


def test_mileage_takes_coordinates_in_every_form():
    """Issue 18: mileage took only "lat,lon" text where distance takes tuples; it now takes a
    coordinate in any form, read back as the same doubles."""
    text = geoloc.mileage("%r,%r" % _ROUTE[0], ["%r,%r" % p for p in _ROUTE[1:]])
    assert geoloc.mileage(_ROUTE[0], _ROUTE[1:]) == text
    assert geoloc.mileage(numpy.array(_ROUTE[0]), [geoloc.Coord(*p) for p in _ROUTE[1:]]) == text
    mixed = geoloc.mileage(_ROUTE[0], ["%r,%r" % _ROUTE[1], _ROUTE[2], None, "not a place"])
    assert mixed.skipped == (2, 3) and mixed.stops_used == 2


def test_batch_calls_take_rows_in_every_coordinate_form():
    """Issue 18: batch calls took rows of numbers only; a row is now any form a single point
    takes ("lat,lon" text as str or bytes, a Coord, a pair, mixed), read as the same doubles.
    Text split into columns is still refused, never cast."""
    rows = numpy.array(_ROUTE)
    want = geoloc.distance_one_to_many(_ROUTE[0], rows)
    texts = ["%r,%r" % p for p in _ROUTE]
    assert numpy.array_equal(geoloc.distance_one_to_many(_ROUTE[0], texts), want)
    assert numpy.array_equal(geoloc.distance_one_to_many(_ROUTE[0], numpy.array(texts)), want)
    assert numpy.array_equal(geoloc.distance_one_to_many(_ROUTE[0], [t.encode() for t in texts]), want)
    mixed = [texts[0], geoloc.Coord(*_ROUTE[1]), list(_ROUTE[2]), numpy.array(_ROUTE[3])]
    assert numpy.array_equal(geoloc.distance_one_to_many(_ROUTE[0], mixed), want)
    assert geoloc.route_length(texts)[0] == geoloc.route_length(rows)[0]
    assert numpy.array_equal(geoloc.distance_pairs(texts, texts[::-1]), geoloc.distance_pairs(rows, rows[::-1]))
    with pytest.raises(geoloc.ParseError, match="row 1"):
        geoloc.distance_one_to_many(_ROUTE[0], [texts[0], "not a place"])
    with pytest.raises(TypeError):  # one text is one row: [text]
        geoloc.distance_one_to_many(_ROUTE[0], texts[0])
    with pytest.raises(TypeError):
        geoloc.distance_one_to_many(_ROUTE[0], [["38.3", "-88.8"]])
    with pytest.raises(TypeError):
        geoloc.distance_one_to_many(_ROUTE[0], [texts[0], 5.0])


@pytest.mark.parametrize("loader", sorted(_LOADERS))
def test_missing_file_is_a_file_not_found_error(loader, tmp_path):
    """Issue 18: a missing file raised NotFoundError, which was not a FileNotFoundError."""
    with pytest.raises(FileNotFoundError) as err:
        _LOADERS[loader](tmp_path / "missing")
    assert type(err.value) is geoloc.NotFoundError  # the class 0.3 raised, now also a FileNotFoundError
    assert err.value.errno == errno.ENOENT
    with pytest.raises(geoloc.NotFoundError) as code:
        geoloc.country_name("QQ")
    assert code.value.errno is None  # a code, not a file
