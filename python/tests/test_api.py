"""The Python API of libgeoloc: every function with exact expected values, every class of bad
input with its exception, numpy batches, the loader, and threads."""

from __future__ import annotations

import ctypes
import dataclasses
import math
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

import numpy
import pytest

import geoloc
from geoloc import (
    AddressStyle,
    Coord,
    CoordStyle,
    Daylight,
    Leg,
    Model,
    Status,
    TempUnit,
    Unit,
)
from geoloc import _address, _errors, _ffi, _geocoding, _places, _route

NAN = float("nan")
INF = float("inf")
R = 6371008.8  # GEOLOC_EARTH_MEAN_RADIUS_M

HOME = "38.321991,-88.867400"
STOP_A = "38.525050,-89.133404"
STOP_B = "38.626995,-88.945610"
STOP_C = "37.730604,-88.933138"
NYC = (40.7128, -74.006)
CENTRALIA = (38.321991, -88.8674)

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


def raises(cls, call, *args, **kwargs):
    """Asserts call raises exactly cls with a non-empty message; returns the exception."""
    with pytest.raises(Exception) as info:
        call(*args, **kwargs)
    err = info.value
    assert type(err) is cls, "expected %s, got %s: %s" % (cls.__name__, type(err).__name__, err)
    assert str(err).strip(), "empty message"
    if isinstance(err, geoloc.GeolocError):
        assert err.message.strip()
        assert err.status == cls.status
    return err


def rel_close(a, b, rel=1e-12):
    return math.isclose(a, b, rel_tol=rel, abs_tol=1e-12)


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
    assert geoloc.__version__ == "0.2.0"
    lib = geoloc.library_version()
    assert re.fullmatch(r"\d+\.\d+\.\d+", lib)
    assert lib.split(".")[:2] == geoloc.__version__.split(".")[:2]
    major = int(re.search(r"#define GEOLOC_VERSION_MAJOR (\d+)", header_text).group(1))
    minor = int(re.search(r"#define GEOLOC_VERSION_MINOR (\d+)", header_text).group(1))
    assert (major, minor) == tuple(int(x) for x in geoloc.__version__.split(".")[:2])
    number = _ffi.lib.geoloc_version_number()
    assert "%d.%d.%d" % (number // 10000, number // 100 % 100, number % 100) == lib


def test_pyproject_matches_package(pyproject_text):
    version = re.search(r'^version\s*=\s*"([^"]+)"', pyproject_text, re.M).group(1)
    assert version == geoloc.__version__
    assert re.search(r'^name\s*=\s*"geoloc"', pyproject_text, re.M)
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
             "geoloc_temp_unit", "geoloc_address_style"}
    if key in enums:
        return ctypes.c_int
    handles = {"places": _places.PlacesPtr, "region": _places.RegionPtr, "gazetteer": _geocoding.GazetteerPtr}
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
        "double": c_double,
        "bool": ctypes.c_bool,
        "size_t": c_size_t,
        "int32_t": ctypes.c_int32,
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
               "geoloc_mileage_result": _route.CMileageResult, "geoloc_address_part": _address.CAddressPart}
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
        ("38,1", TypeError),
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
# Units and distance
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


def test_distance():
    assert rel_close(geoloc.distance(CENTRALIA, NYC), 1300528.9964986942397)
    assert rel_close(geoloc.distance(CENTRALIA, NYC, Unit.MILES), 808.11125309361717552)
    assert rel_close(geoloc.distance(CENTRALIA, NYC, "km"), 1300.5289964986942397)
    assert geoloc.distance(NYC, CENTRALIA) == geoloc.distance(CENTRALIA, NYC)
    assert geoloc.distance((0, 0), (0, 0)) == 0.0
    assert rel_close(geoloc.distance((0, 0), (0, 180)), math.pi * R, 1e-14)
    assert rel_close(geoloc.distance((90, 0), (-90, 0), "nmi"), math.pi * R / 1852, 1e-14)
    assert geoloc.distance((10, 20), (10, 380)) < 1e-6
    assert isinstance(geoloc.distance(Coord(1, 2), numpy.array([3.0, 4.0])), float)
    m = geoloc.distance(CENTRALIA, NYC)
    for unit, size in [(Unit.KILOMETERS, 1000.0), (Unit.MILES, 1609.344), (Unit.NAUTICAL_MILES, 1852.0), (Unit.FEET, 0.3048)]:
        assert rel_close(geoloc.distance(CENTRALIA, NYC, unit), m / size, 1e-14)


def test_distance_wgs84_is_the_geodesic():
    want = 156899.56829134026  # GeographicLib 2.1: Geodesic.WGS84.Inverse(0, 0, 1, 1)["s12"]
    assert abs(geoloc.distance((0, 0), (1, 1), model=Model.WGS84) - want) <= 15e-9
    assert abs(geoloc.distance_pairs([(0, 0)], [(1, 1)], model="wgs84")[0] - want) <= 15e-9
    assert abs(geoloc.route_length([(0, 0), (1, 1)], model="wgs84")[0] - want) <= 15e-9


def test_distance_against_the_ellipsoid():
    """The sphere stays within the header's 0.56% of the WGS84 geodesic (geographiclib)."""
    geodesic = pytest.importorskip("geographiclib.geodesic").Geodesic.WGS84
    rng = numpy.random.default_rng(7)
    a = numpy.column_stack([rng.uniform(-89, 89, 500), rng.uniform(-180, 180, 500)])
    b = numpy.column_stack([rng.uniform(-89, 89, 500), rng.uniform(-180, 180, 500)])
    sphere = geoloc.distance_pairs(a, b)
    for (la1, lo1), (la2, lo2), d in zip(a, b, sphere):
        g = geodesic.Inverse(la1, lo1, la2, lo2)["s12"]
        if g > 1000:
            assert abs(d / g - 1) < 0.0056, (la1, lo1, la2, lo2, d, g)


def _haversine(a, b, radius=R):
    p1, l1, p2, l2 = (numpy.radians(x) for x in (a[:, 0], a[:, 1], b[:, 0], b[:, 1]))
    h = numpy.sin((p2 - p1) / 2) ** 2 + numpy.cos(p1) * numpy.cos(p2) * numpy.sin((l2 - l1) / 2) ** 2
    return 2 * radius * numpy.arcsin(numpy.sqrt(h))


def _random_points(n, seed, lon_span=180.0):
    rng = numpy.random.default_rng(seed)
    return numpy.column_stack([rng.uniform(-90, 90, n), rng.uniform(-lon_span, lon_span, n)])


def test_distance_pairs_equals_scalar_and_an_independent_haversine():
    a, b = _random_points(3000, 1), _random_points(3000, 2)
    for unit in Unit:
        got = geoloc.distance_pairs(a, b, unit)
        assert got.dtype == numpy.float64 and got.shape == (3000,) and got.flags.c_contiguous
        scalar = numpy.array([geoloc.distance(x, y, unit) for x, y in zip(a, b)])
        numpy.testing.assert_allclose(got, scalar, rtol=1e-11, atol=0)  # the vectorised kernel
    got = geoloc.distance_pairs(a, b)
    plain = _haversine(a, b)
    ok = plain < 19_000_000  # the plain formula loses digits near the antipode
    numpy.testing.assert_allclose(got[ok], plain[ok], rtol=1e-9, atol=1e-6)


def test_distance_one_to_many_equals_scalar():
    pts = _random_points(2000, 3)
    for origin in [CENTRALIA, (90, 0), (-33.9, 151.2)]:
        for unit in Unit:
            got = geoloc.distance_one_to_many(origin, pts, unit)
            scalar = numpy.array([geoloc.distance(origin, p, unit) for p in pts])
            numpy.testing.assert_allclose(got, scalar, rtol=1e-11, atol=0)


def test_batch_with_longitudes_beyond_180():
    a, b = _random_points(500, 4, lon_span=720), _random_points(500, 5, lon_span=720)
    got = geoloc.distance_pairs(a, b)
    scalar = numpy.array([geoloc.distance(x, y) for x, y in zip(a, b)])
    numpy.testing.assert_allclose(got, scalar, rtol=1e-12, atol=1e-6)


def test_batches_of_zero_elements():
    for empty in (numpy.empty((0, 2)), [], numpy.empty(0), numpy.empty((0, 2), dtype=numpy.float32)):
        got = geoloc.distance_pairs(empty, empty)
        assert got.shape == (0,) and got.dtype == numpy.float64
        got = geoloc.distance_one_to_many(CENTRALIA, empty, "mi")
        assert got.shape == (0,) and got.dtype == numpy.float64
        total, legs = geoloc.route_length(empty)
        assert total == 0.0 and legs.shape == (0,)
    # The origin is still checked when there are no points.
    raises(geoloc.OutOfRangeError, geoloc.distance_one_to_many, (91, 0), [])


def test_batch_inputs_of_any_layout():
    a, b = _random_points(400, 6), _random_points(400, 7)
    expected = geoloc.distance_pairs(a, b)
    wide = numpy.zeros((400, 5))
    wide[:, 1:3] = a
    doubled = numpy.repeat(a, 2, axis=0)
    unaligned = numpy.frombuffer(bytearray(a.nbytes + 1), dtype=numpy.float64, count=a.size, offset=1).reshape(400, 2)
    unaligned[...] = a
    readonly = a.copy()
    readonly.setflags(write=False)
    variants = [
        numpy.asfortranarray(a),  # column-major
        wide[:, 1:3],  # strided columns
        doubled[::2],  # strided rows
        a[::-1][::-1],  # negative strides twice
        a.T.copy().T,  # transposed view
        unaligned,
        readonly,
        a.tolist(),
        [tuple(r) for r in a],
        [Coord(*r) for r in a],
    ]
    for v in variants:
        assert numpy.array_equal(geoloc.distance_pairs(v, b), expected)
        assert numpy.array_equal(geoloc.distance_pairs(b, v), geoloc.distance_pairs(b, a))
    a32 = a.astype(numpy.float32)
    assert numpy.array_equal(geoloc.distance_pairs(a32, b), geoloc.distance_pairs(a32.astype(numpy.float64), b))
    ints = numpy.array([[1, 2], [3, 4]])
    assert numpy.array_equal(geoloc.distance_pairs(ints, ints[::-1]), geoloc.distance_pairs(ints.astype(float), ints[::-1].astype(float)))
    assert numpy.array_equal(geoloc.distance_one_to_many(CENTRALIA, doubled[::2]), geoloc.distance_one_to_many(CENTRALIA, a))
    rev = a[::-1]
    assert numpy.array_equal(geoloc.route_length(rev)[1], geoloc.route_length(numpy.ascontiguousarray(rev))[1])


def test_batch_input_that_is_already_right_is_not_copied():
    from geoloc._core import _points  # the private conversion all batch functions share

    a = _random_points(10, 8)
    assert _points(a, "a") is a
    assert _points(a[::2], "a") is not a


@pytest.mark.parametrize(
    "shape",
    [(3,), (3, 3), (3, 1), (2, 2, 2), (0, 3), (2, 0)],
)
def test_batch_wrong_shapes(shape):
    bad = numpy.zeros(shape)
    ok = numpy.zeros((shape[0] if len(shape) == 2 else 3, 2))
    raises(ValueError, geoloc.distance_pairs, bad, ok)
    raises(ValueError, geoloc.distance_pairs, ok, bad)
    raises(ValueError, geoloc.distance_one_to_many, (0, 0), bad)
    raises(ValueError, geoloc.route_length, bad)


def test_batch_mismatched_lengths_and_junk():
    raises(ValueError, geoloc.distance_pairs, numpy.zeros((3, 2)), numpy.zeros((4, 2)))
    raises(ValueError, geoloc.distance_pairs, [[1, 2], [3]], [[1, 2], [3, 4]])
    raises(ValueError, geoloc.distance_pairs, 5.0, 5.0)
    raises(ValueError, geoloc.distance_pairs, [["a", "b"]], [[1, 2]])


def test_batch_bad_values_name_the_first_bad_index():
    a = _random_points(10, 9)
    b = _random_points(10, 10)
    for value, cls in [(91.0, geoloc.OutOfRangeError), (-90.5, geoloc.OutOfRangeError), (NAN, geoloc.NotFiniteError), (INF, geoloc.NotFiniteError)]:
        bad = a.copy()
        bad[7, 0] = value
        bad[8, 0] = value
        err = raises(cls, geoloc.distance_pairs, bad, b)
        assert "7" in err.message and "8" not in err.message
        raises(cls, geoloc.distance_pairs, b, bad)
        raises(cls, geoloc.distance_one_to_many, CENTRALIA, bad)
        err = raises(cls, geoloc.route_length, bad)
        assert "7" in err.message
    bad = a.copy()
    bad[3, 1] = -INF
    raises(geoloc.NotFiniteError, geoloc.distance_pairs, bad, b)
    with_none = [[1.0, 2.0], [None, 3.0]]  # numpy reads None as NaN
    raises(geoloc.NotFiniteError, geoloc.distance_pairs, with_none, [[0, 0], [0, 0]])


def test_batch_counts_above_the_limit_are_refused_without_copying():
    huge = numpy.lib.stride_tricks.as_strided(numpy.zeros(2), shape=(geoloc.MAX_COUNT + 1, 2), strides=(0, 8))
    err = raises(geoloc.CountTooLargeError, geoloc.distance_pairs, huge, huge)
    assert str(geoloc.MAX_COUNT + 1) in err.message
    raises(geoloc.CountTooLargeError, geoloc.distance_one_to_many, (0, 0), huge)
    raises(geoloc.CountTooLargeError, geoloc.route_length, huge)


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
# Routes, mileage, ETA
# ============================================================================================

ROUTE = [geoloc.parse_coord(t) for t in (HOME, STOP_A, STOP_B, STOP_C)]


def test_route_length():
    total, legs = geoloc.route_length(ROUTE, unit="mi")
    assert legs.shape == (3,) and legs.dtype == numpy.float64
    assert rel_close(legs[0], 20.103978965151495445)
    assert rel_close(legs[1], 12.349580900550798332)
    assert rel_close(legs[2], 61.938423568336484241)
    assert rel_close(total, 94.391983434038778018)
    for i in range(3):
        assert rel_close(legs[i], geoloc.distance(ROUTE[i], ROUTE[i + 1], "mi"), 1e-15)
    closed_total, closed_legs = geoloc.route_length(ROUTE, closed=True, unit=Unit.MILES)
    assert closed_legs.shape == (4,)
    assert rel_close(closed_legs[3], 41.017293523112595277)
    assert rel_close(closed_total, 135.40927695715137329)
    assert rel_close(closed_total, float(closed_legs.sum()), 1e-14)
    meters, _ = geoloc.route_length(ROUTE)
    assert rel_close(meters, total * 1609.344, 1e-14)


def test_route_length_short_routes():
    for closed in (False, True):
        total, legs = geoloc.route_length([CENTRALIA], closed=closed)
        assert total == 0.0 and legs.shape == (0,)
    total, legs = geoloc.route_length([CENTRALIA, NYC], closed=True)
    assert legs.shape == (2,) and legs[0] == legs[1] and total == 2 * legs[0]


def test_mileage_seed_examples():
    m = geoloc.mileage(HOME, [STOP_A])
    assert m.text == "40.2" and m.rounded == 40.2
    assert rel_close(m.total, 40.207957930302990889)
    assert m.stops_used == 1 and m.skipped == () and m.home_problem is None
    assert len(m.legs) == 2
    assert (m.legs[0].from_index, m.legs[0].to_index) == (None, 0)
    assert (m.legs[1].from_index, m.legs[1].to_index) == (0, None)
    assert rel_close(m.legs[0].distance, 20.103978965151495445)
    assert isinstance(m.legs[0], Leg)

    m = geoloc.mileage(HOME, [STOP_A, STOP_B, STOP_C])
    assert m.text == "135.4" and m.stops_used == 3
    assert [(leg.from_index, leg.to_index) for leg in m.legs] == [(None, 0), (0, 1), (1, 2), (2, None)]
    closed_total, _ = geoloc.route_length(ROUTE, closed=True, unit="mi")
    assert rel_close(m.total, closed_total, 1e-14)

    m = geoloc.mileage(HOME, (s for s in [STOP_A, STOP_B, STOP_C]), round_trip=False)
    assert m.text == "94.4" and m.legs[-1].to_index == 2 and len(m.legs) == 3

    m = geoloc.mileage(HOME, ["37.727270,-89.216760", "37.996990,-88.920070"], unit="km")
    assert m.text == "149.0"

    m = geoloc.mileage(HOME.encode(), [STOP_A.encode()], unit=Unit.NAUTICAL_MILES)
    assert m.text == "34.9"
    assert rel_close(m.total, 40.207957930302990889 * 1609.344 / 1852)


def test_mileage_skips_stops_without_coordinates():
    m = geoloc.mileage(HOME, [STOP_A, None, "", "38.5", "abc", STOP_B, "  ", "91,0"])
    assert m.skipped == (1, 2, 3, 4, 6, 7)
    assert m.stops_used == 2 and m.text == "53.9"
    assert [(leg.from_index, leg.to_index) for leg in m.legs] == [(None, 0), (0, 5), (5, None)]
    m = geoloc.mileage(HOME, [None, "x"])
    assert (m.text, m.total, m.stops_used, m.skipped, m.legs) == ("0", 0.0, 0, (0, 1), ())
    m = geoloc.mileage(HOME, [])
    assert (m.text, m.total, m.stops_used, m.skipped, m.legs, m.home_problem) == ("0", 0.0, 0, (), (), None)
    m = geoloc.mileage(HOME, [HOME])
    assert m.text == "0.0" and m.stops_used == 1


@pytest.mark.parametrize("home", [None, "", "   ", " \t\n", b""])
def test_mileage_without_home_raises(home):
    err = raises(geoloc.NoHomeError, geoloc.mileage, home, [STOP_A])
    assert "home" in err.message


@pytest.mark.parametrize("home", ["38.321991;-88.867400", "95,0", "abc", "nan,0", b"1,2,3"])
def test_mileage_with_malformed_home_is_a_soft_failure(home):
    m = geoloc.mileage(home, [STOP_A, None, STOP_B])
    assert m.text == "0" and m.total == 0.0 and m.rounded == 0.0
    assert m.stops_used == 0 and m.skipped == (0, 1, 2) and m.legs == ()
    assert m.home_problem and "home" in m.home_problem


def test_mileage_errors():
    raises(geoloc.InvalidUTF8Error, geoloc.mileage, b"\xff", [STOP_A])
    raises(geoloc.InvalidUTF8Error, geoloc.mileage, HOME, [STOP_A, b"38.5,\xff"])
    raises(geoloc.InvalidUTF8Error, geoloc.mileage, HOME, ["\udc80"])
    raises(geoloc.InvalidArgumentError, geoloc.mileage, HOME, [STOP_A + "\0"])
    # WGS84 is no error: geodesic legs (GeographicLib 2.1: 2 x 32367.371505257266 m).
    assert abs(geoloc.mileage(HOME, [STOP_A], model="wgs84").total - 2 * 32367.371505257266 / 1609.344) <= 1e-10
    raises(geoloc.InvalidArgumentError, geoloc.mileage, HOME, [STOP_A], unit="leagues")
    raises(TypeError, geoloc.mileage, HOME, STOP_A)  # one text, not a list of stops
    raises(TypeError, geoloc.mileage, HOME, [38.5])
    raises(TypeError, geoloc.mileage, HOME, None)


def test_mileage_result_is_frozen():
    m = geoloc.mileage(HOME, [STOP_A])
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.text = "1"  # type: ignore[misc]
    assert dataclasses.fields(m)[0].name == "total"
    assert [f.name for f in dataclasses.fields(geoloc.Mileage)] == [
        "total", "rounded", "text", "stops_used", "skipped", "legs", "home_problem"]


def _round_half_away(x):
    y = abs(x) * 10
    f = math.floor(y)
    return math.copysign(f + 1 if y - f >= 0.5 else f, x) / 10


def test_mileage_many_stops_in_one_call():
    pts = _random_points(1000, 12)
    pts[:, 0] = pts[:, 0] / 4 + 38  # a few hundred miles around home
    pts[:, 1] = pts[:, 1] / 8 - 88
    stops = [geoloc.format_coord(p) for p in pts]
    m = geoloc.mileage(HOME, stops)
    assert m.stops_used == 1000 and len(m.legs) == 1001 and m.skipped == ()
    assert [leg.to_index for leg in m.legs[:-1]] == list(range(1000))
    route = [geoloc.parse_coord(HOME)] + [geoloc.parse_coord(s) for s in stops]
    total, legs = geoloc.route_length(route, closed=True, unit="mi")
    assert rel_close(m.total, total, 1e-13)
    assert numpy.array_equal(numpy.array([leg.distance for leg in m.legs]), legs)
    assert m.rounded == _round_half_away(m.total) and m.text == "%.1f" % m.rounded


def test_mileage_text_is_the_rounded_total():
    rng = numpy.random.default_rng(13)
    for _ in range(200):
        stops = ["%.6f,%.6f" % (rng.uniform(37, 39), rng.uniform(-90, -87)) for _ in range(rng.integers(1, 5))]
        m = geoloc.mileage(HOME, stops)
        assert m.rounded == _round_half_away(m.total)
        assert m.text == "%.1f" % m.rounded
        assert re.fullmatch(r"\d+\.\d", m.text)


def test_eta_minutes():
    assert geoloc.eta_minutes(30, 60, "mi") == 30
    assert geoloc.eta_minutes(30.1, 60, Unit.MILES) == 31
    assert geoloc.eta_minutes(10, 50, detour_factor=1.3) == 16
    assert geoloc.eta_minutes(0, 50) == 0
    assert geoloc.eta_minutes(0.001, 60, "mi") == 1
    assert geoloc.eta_minutes(120, 80) == 90
    assert type(geoloc.eta_minutes(1, 1)) is int
    assert geoloc.eta_minutes(1e6, 1, "km") == 60_000_000


@pytest.mark.parametrize(
    "args, cls",
    [
        ((-1, 60), geoloc.OutOfRangeError),
        ((1, 0), geoloc.OutOfRangeError),
        ((1, -5), geoloc.OutOfRangeError),
        ((1, 60, "km", 0.9), geoloc.OutOfRangeError),
        ((1e300, 1e-300), geoloc.OutOfRangeError),
        ((NAN, 60), geoloc.NotFiniteError),
        ((1, INF), geoloc.NotFiniteError),
        ((1, 60, "km", NAN), geoloc.NotFiniteError),
        ((1, 60, "lightyears"), geoloc.InvalidArgumentError),
        ((None, 60), TypeError),
    ],
)
def test_eta_minutes_errors(args, cls):
    raises(cls, geoloc.eta_minutes, *args)


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
    raises(TypeError, geoloc.format_address, [("city", 62701)])
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


# ============================================================================================
# Threads
# ============================================================================================


def test_threads_keep_results_and_messages_apart():
    threads_n, rounds = 8, 300
    barrier = threading.Barrier(threads_n)
    failures = []
    batch_a, batch_b = _random_points(5000, 20), _random_points(5000, 21)
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
        shutil.copy(geoloc.library_path, pkg / name)
        assert _probe(pkg.parent).strip() == "LOADED %s" % (pkg / name)


def test_import_through_the_system_loader(tmp_path):
    pkg = _copy_package(tmp_path)
    libdir = tmp_path / "lib"
    libdir.mkdir()
    shutil.copy(geoloc.library_path, libdir / "libgeoloc.so.0")
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
    assert "2.0.3" in out and "0.2" in out and lib in out


def test_import_names_missing_functions(tmp_path):
    lib = _fake_library(
        tmp_path,
        'int32_t geoloc_version_number(void) { return 200; }\nconst char *geoloc_version(void) { return "0.2.0"; }\n',
    )
    out = _probe(_copy_package(tmp_path).parent, lib)
    assert out.startswith("IMPORTERROR"), out
    assert "geoloc_distance" in out and "geoloc_country_name" in out and lib in out
    assert "geoloc_version," not in out
