"""The shared basics: argument conversion, versions, coordinates, units and distance text, and
the ownership of library handles that Places, Region and Gazetteer share."""

from __future__ import annotations

import ctypes
import functools
import operator
import os
import sys
import threading
import warnings
from ctypes import POINTER, Structure, byref, c_bool, c_char, c_char_p, c_double, c_int32, c_size_t, sizeof
from typing import Any, Callable, NamedTuple, NoReturn, Optional, Sequence, Tuple, Type, TypeVar, Union, cast

import numpy

from . import _ffi
from ._enums import CoordStyle, Model, Unit, coerce
from ._errors import (
    BufferTooSmallError,
    CountTooLargeError,
    GeolocError,
    InternalError,
    InvalidArgumentError,
    InvalidUTF8Error,
    OutOfRangeError,
)
from ._ffi import ENUM, STATUS, TEXT_OUT, CCoord

_ffi.declare({
    "geoloc_version": (c_char_p, (), False),
    "geoloc_version_number": (c_int32, (), False),
    "geoloc_status_string": (c_char_p, (STATUS,), False),
    "geoloc_last_error": (c_char_p, (), False),
    "geoloc_convert_length": (STATUS, (c_double, ENUM, ENUM, POINTER(c_double)), True),
    "geoloc_coord_check": (STATUS, (CCoord, POINTER(CCoord)), True),
    "geoloc_coord_parse": (STATUS, (c_char_p, POINTER(CCoord)), True),
    "geoloc_coord_format": (
        STATUS,
        (CCoord, ENUM, TEXT_OUT, c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_distance_text": (
        STATUS,
        (c_double, ENUM, TEXT_OUT, c_size_t, POINTER(c_size_t)),
        True,
    ),
})

_lib = _ffi.lib

#: The path of the libgeoloc file that was loaded.
library_path: str = _ffi.library_path

#: The Earth radius of Model.SPHERE, in meters (GEOLOC_EARTH_MEAN_RADIUS_M).
EARTH_MEAN_RADIUS_M = 6371008.8

#: The largest element count any function accepts (GEOLOC_MAX_COUNT, 2**30).
MAX_COUNT = _ffi.MAX_COUNT

_INT32_MIN = -(1 << 31)
_INT32_MAX = (1 << 31) - 1

TextIn = Union[str, bytes]
#: A place or fence id: text, or an integer (int or numpy integer) that stands for its decimal text.
IdLike = Union[str, bytes, int, numpy.integer]
#: A coordinate: a Coord, a tuple or list of two numbers, a numpy array of two, or "lat,lon" text.
CoordLike = Union["Coord", Sequence[float], "numpy.ndarray[Any, Any]", str, bytes]
UnitLike = Union[Unit, int, str]
ModelLike = Union[Model, int, str]



# --------------------------------------------------------------------------------------------
# Renamed keywords
# --------------------------------------------------------------------------------------------

_F = TypeVar("_F", bound=Callable[..., Any])
_H = TypeVar("_H", bound="_Handle")


def _renamed(**renames: str) -> Callable[[_F], _F]:
    """``@_renamed(old="new")``: a keyword argument's 0.2 name still works, with a
    DeprecationWarning that names the new one; giving both is a TypeError. The signature (and so
    the type checker, help() and inspect) shows only the new name."""

    def decorate(fn: _F) -> _F:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for old, new in renames.items():
                if old in kwargs:
                    if new in kwargs:
                        raise TypeError("%s() got both %r and its old name %r" % (fn.__name__, new, old))
                    warnings.warn(
                        "%s(%s=...) is deprecated; use %s=..." % (fn.__name__, old, new),
                        DeprecationWarning,
                        stacklevel=2,
                    )
                    kwargs[new] = kwargs.pop(old)
            return fn(*args, **kwargs)

        return cast(_F, wrapper)

    return decorate


# --------------------------------------------------------------------------------------------
# Argument conversion
# --------------------------------------------------------------------------------------------


def _text(value: Optional[TextIn], what: str) -> Optional[bytes]:
    """str as UTF-8 bytes; bytes as they are (the library checks their UTF-8); None as NULL."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            data = value.encode("utf-8")
        except UnicodeEncodeError as err:
            raise InvalidUTF8Error(
                "%s cannot be written as UTF-8 (%s at index %d)" % (what, err.reason, err.start)
            ) from None
    elif isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
    else:
        raise TypeError("%s must be str or bytes, not %s" % (what, type(value).__name__))
    if b"\0" in data:
        raise InvalidArgumentError("%s contains a NUL character at index %d" % (what, data.index(b"\0")))
    return data


def _id_text(value: Any, what: str) -> Optional[bytes]:
    """An id as bytes for the library: text as :func:`_text` takes it, or an integer (a Python
    int or a numpy integer, not bool) as its decimal text (42 -> "42", -7 -> "-7"), the text
    the id then reads back as. None stays None (the library's default id)."""
    if value is None:
        return None
    if isinstance(value, (int, numpy.integer)) and not isinstance(value, bool):
        return str(int(value)).encode("ascii")
    if not isinstance(value, (str, bytes, bytearray, memoryview)):
        raise TypeError("%s must be a str, bytes or int, not %s" % (what, type(value).__name__))
    return _text(value if isinstance(value, str) else bytes(value), what)


def _float(value: Any, what: str) -> float:
    """A number as a Python float (NaN and infinities pass: the library reports them). Complex
    numbers are refused, not cut to their real part."""
    if value is None or isinstance(value, (str, bytes, complex, numpy.complexfloating)):
        raise TypeError("%s must be a real number, not %s" % (what, type(value).__name__))
    try:
        return float(value)
    except TypeError:
        raise TypeError("%s must be a number, not %s" % (what, type(value).__name__)) from None


def _integer(value: Any, what: str) -> int:
    """A Python int (or anything with __index__, but not bool or None), else TypeError."""
    if isinstance(value, bool) or value is None:
        raise TypeError("%s must be an int, not %s" % (what, type(value).__name__))
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError("%s must be an int, not %s" % (what, type(value).__name__)) from None


def _int32(value: Any, what: str) -> int:
    """An integer that must fit a C int32_t: OutOfRangeError (a ValueError) outside it."""
    number = _integer(value, what)
    if not _INT32_MIN <= number <= _INT32_MAX:
        raise OutOfRangeError("%s %d is outside the int32 range [%d, %d]" % (what, number, _INT32_MIN, _INT32_MAX))
    return number


def _coord(value: Any, what: str = "coordinate") -> CCoord:
    """A coordinate as a geoloc_coord, read the same way for every call that takes one: a
    (lat, lon) pair of numbers (tuple, list, numpy pair, :class:`Coord`, any iterable of two), or
    "lat,lon" text (str or bytes) read by the library's own parser, as :func:`parse_coord` reads
    it (ParseError for text that is not two numbers)."""
    if isinstance(value, tuple) and len(value) == 2 and type(value[0]) is float and type(value[1]) is float:
        return CCoord(value[0], value[1])  # the common case, without the general checks below
    if isinstance(value, (str, bytes)):
        return _parsed_coord(value, what)
    if value is None:
        raise TypeError("%s must be a (lat, lon) pair of numbers or \"lat,lon\" text, not None" % what)
    try:
        lat, lon = value
    except TypeError:
        raise TypeError(
            "%s must be a (lat, lon) pair of numbers or \"lat,lon\" text, not %s" % (what, type(value).__name__)
        ) from None
    except ValueError:
        raise ValueError("%s must have exactly two numbers (lat, lon)" % what) from None
    return CCoord(_float(lat, what + " latitude"), _float(lon, what + " longitude"))


# The dtype kinds read as degrees: real numbers only (floats, signed and unsigned integers).
_REAL_KINDS = frozenset("fiu")


class LatLon:
    """Points given as two columns: ``LatLon(lat, lon)`` with ``lat`` and ``lon`` array-likes of
    n numbers each (numpy arrays, pandas Series, lists; a scalar is repeated to the other's
    length), in degrees. Every batch call that takes an (n, 2) array of (lat, lon) rows takes a
    LatLon in its place, so the columns of a DataFrame need no stacking::

        geoloc.distance_pairs(geoloc.LatLon(df.lat1, df.lon1), geoloc.LatLon(df.lat2, df.lon2))
        places.within_many(geoloc.LatLon(df.lat, df.lon), 5, "km")

    It is its own type, never a tuple, so it cannot be read as two points. The columns are
    checked as the rows are (real numbers only; not masked arrays) and copied once into the
    (n, 2) layout the library reads; ``numpy.asarray(LatLon(...))`` gives that (n, 2) array.
    """

    __slots__ = ("lat", "lon")

    def __init__(self, lat: Any, lon: Any) -> None:
        self.lat = lat
        self.lon = lon

    def __array__(self, dtype: Any = None, copy: Any = None) -> "numpy.ndarray[Any, Any]":
        arr = _points(self, "LatLon")
        return arr if dtype is None else arr.astype(dtype)

    def __len__(self) -> int:
        return int(_points(self, "LatLon").shape[0])

    def __repr__(self) -> str:
        return "LatLon(%r, %r)" % (self.lat, self.lon)


def _masked(value: Any) -> bool:
    """True for a numpy masked array. numpy imports numpy.ma only when it is first used (about
    7 ms); a masked array cannot exist before that, so this never imports it."""
    ma = sys.modules.get("numpy.ma")
    return ma is not None and isinstance(value, ma.MaskedArray)


def _column(value: Any, what: str) -> "numpy.ndarray[Any, Any]":
    """One coordinate column of a LatLon as a real array (0-d or 1-d), checked as _points does."""
    if _masked(value):
        raise TypeError("%s is a masked array; pass its unmasked entries or a filled array" % what)
    arr = numpy.asarray(value)
    if arr.dtype.kind not in _REAL_KINDS:
        raise TypeError("%s must hold real numbers, not %s" % (what, arr.dtype))
    if arr.ndim > 1:
        raise ValueError("%s must be one-dimensional (n numbers), not of shape %s" % (what, arr.shape))
    return arr


def _stack(value: LatLon, what: str) -> "numpy.ndarray[Any, Any]":
    lat = _column(value.lat, what + " latitudes")
    lon = _column(value.lon, what + " longitudes")
    if lat.ndim == 1 and lon.ndim == 1 and lat.shape[0] != lon.shape[0]:
        raise ValueError("%s has %d latitudes and %d longitudes" % (what, lat.shape[0], lon.shape[0]))
    n = lat.shape[0] if lat.ndim == 1 else (lon.shape[0] if lon.ndim == 1 else 1)
    if n > MAX_COUNT:
        raise CountTooLargeError("%s has %d rows, more than GEOLOC_MAX_COUNT (%d)" % (what, n, MAX_COUNT))
    out = numpy.empty((n, 2), dtype=numpy.float64)
    out[:, 0] = lat
    out[:, 1] = lon
    return out


def _points(value: Any, what: str) -> "numpy.ndarray[Any, Any]":
    """An array-like of (lat, lon) rows as a C-contiguous (n, 2) float64 array (no copy if it is
    one), or a :class:`LatLon` of two columns stacked into one.

    Rows may also be given one coordinate at a time, in any form a single point takes: a list
    (or 1-d array) of "lat,lon" texts, Coords and pairs, read as :func:`_coord` reads each.

    TypeError for anything whose numbers are not real: bool, complex, str, bytes, object or
    structured dtypes of (n, 2) are refused rather than cast (a cast would turn True into 1.0, drop an
    imaginary part or read "38.3" as a number), and so are masked arrays (the library has no
    notion of a mask: pass ``a.filled(...)`` or ``a[~a.mask.any(axis=1)]`` instead).
    """
    if isinstance(value, LatLon):
        return _stack(value, what)
    if isinstance(value, numpy.ndarray):
        if type(value) is not numpy.ndarray and _masked(value):
            raise TypeError("%s is a masked array; pass its unmasked rows or a filled array" % what)
    elif isinstance(value, (str, bytes)):
        raise TypeError("%s must be rows of coordinates; one \"lat,lon\" text is one row: [%r]" % (what, value))
    else:
        try:
            arr = numpy.asarray(value)
        except ValueError:  # rows of different shapes: "lat,lon" text among (lat, lon) pairs
            return _coord_rows(value, what)
        if arr.ndim == 1 and arr.dtype.kind in "USO" and arr.size:
            return _coord_rows(value, what)  # the caller's rows, not numpy's text of them
        value = arr
    if value.ndim == 1 and value.dtype.kind in "USO" and value.size:  # an array of "lat,lon" text
        return _coord_rows(value, what)
    # An empty list reads as float64 already; an empty array of another real-less dtype is refused.
    if value.dtype.kind not in _REAL_KINDS:
        raise TypeError("%s must hold real numbers, not %s" % (what, value.dtype))
    _check_shape(value.shape, what)  # before any copy: a huge strided view is refused cheaply
    arr = numpy.ascontiguousarray(value, dtype=numpy.float64)
    if arr.ndim == 1 and arr.size == 0:
        arr = arr.reshape(0, 2)
    _check_shape(arr.shape, what)
    if not arr.flags.aligned:
        arr = arr.copy()
    return arr


def _coord_rows(rows: Any, what: str) -> "numpy.ndarray[Any, Any]":
    """Rows given one coordinate at a time ("lat,lon" text, Coord, pairs, mixed), each read as
    :func:`_coord` reads one coordinate, as an (n, 2) float64 array."""
    try:
        n = len(rows)
    except TypeError:
        raise TypeError("%s must be rows of (lat, lon) coordinates, not %s" % (what, type(rows).__name__)) from None
    if n > MAX_COUNT:
        raise CountTooLargeError("%s has %d rows, more than GEOLOC_MAX_COUNT (%d)" % (what, n, MAX_COUNT))
    out = numpy.empty((n, 2), dtype=numpy.float64)
    for i, row in enumerate(rows):
        if isinstance(row, numpy.str_):
            row = str(row)
        elif isinstance(row, numpy.bytes_):
            row = bytes(row)
        try:
            c = _coord(row, "%s row %d" % (what, i))
        except GeolocError as err:  # the library's message, with the row it is about
            raise type(err)("%s row %d: %s" % (what, i, err.message), err.status) from None
        out[i, 0] = c.lat
        out[i, 1] = c.lon
    return out


def _real_array(value: Any, what: str, width: Optional[int] = None, ndim: Optional[int] = None) -> "numpy.ndarray[Any, Any]":
    """The one check of an array of numbers from the caller (fixes, radii, vertices, values,
    matrices): real numbers only (float, signed or unsigned integer dtypes; a list of Python
    numbers; NaN and infinities pass, the library reports them), as a C-contiguous, aligned
    float64 array (no copy when it already is one). ``width``: rows of that many columns, an
    empty input as (0, width); ``ndim``: that many dimensions (0-d is allowed for ndim 1: a
    scalar the caller repeats).

    TypeError for complex numbers (never cut to their real part), bools, text, objects that are
    not real numbers, structured dtypes and masked arrays; ValueError for another shape;
    CountTooLargeError for more than GEOLOC_MAX_COUNT rows.
    """
    if _masked(value):
        raise TypeError("%s is a masked array; pass its unmasked entries or a filled array" % what)
    arr = value if isinstance(value, numpy.ndarray) else numpy.asarray(value)
    if arr.dtype.kind == "O":  # Python objects: each must be a real number (None becomes NaN)
        if any(isinstance(v, (complex, numpy.complexfloating, str, bytes, bool)) for v in arr.flat):
            raise TypeError("%s must hold real numbers" % what)
        try:
            arr = arr.astype(numpy.float64)
        except (TypeError, ValueError):
            raise TypeError("%s must hold real numbers" % what) from None
    if arr.dtype.kind not in _REAL_KINDS:
        raise TypeError("%s must hold real numbers, not %s" % (what, arr.dtype))
    if width is not None:
        if arr.ndim == 1 and arr.size == 0:
            arr = arr.reshape(0, width)
        if arr.ndim != 2 or arr.shape[1] != width:
            raise ValueError("%s must have shape (n, %d), not %s" % (what, width, tuple(arr.shape)))
    elif ndim is not None and arr.ndim != ndim and not (ndim == 1 and arr.ndim == 0):
        raise ValueError("%s must have %d dimension%s, not shape %s" % (what, ndim, "" if ndim == 1 else "s", tuple(arr.shape)))
    if arr.ndim >= 1 and arr.shape[0] > MAX_COUNT:
        raise CountTooLargeError("%s has %d rows, more than GEOLOC_MAX_COUNT (%d)" % (what, arr.shape[0], MAX_COUNT))
    arr = numpy.ascontiguousarray(arr, dtype=numpy.float64)
    if not arr.flags.aligned:
        arr = arr.copy()
    return arr


def _check_shape(shape: Tuple[int, ...], what: str) -> None:
    if len(shape) == 1 and shape[0] == 0:
        return
    if len(shape) != 2 or shape[1] != 2:
        raise ValueError("%s must have shape (n, 2) of (lat, lon) rows, not %s" % (what, tuple(shape)))
    if shape[0] > MAX_COUNT:
        raise CountTooLargeError("%s has %d rows, more than GEOLOC_MAX_COUNT (%d)" % (what, shape[0], MAX_COUNT))


def _coords_ptr(arr: numpy.ndarray) -> Any:
    return arr.ctypes.data_as(POINTER(CCoord))


def _doubles_ptr(arr: numpy.ndarray) -> Any:
    return arr.ctypes.data_as(POINTER(c_double))


def _text_result(call: Callable[[Any, int, Any], Any], soft: Tuple[Type[BaseException], ...] = ()) -> str:
    """Runs ``call(buf, cap, needed)`` under the size-query contract and returns the text.

    A first call with a 256-byte buffer; on BufferTooSmallError one more with the size the library
    said it needs. Exceptions in ``soft`` are soft failures: the text was still written.
    """
    cap = 256
    needed = c_size_t(0)
    for _ in range(4):
        buf = ctypes.create_string_buffer(cap)
        try:
            call(buf, cap, byref(needed))
        except BufferTooSmallError:
            if needed.value <= cap:
                raise
            cap = needed.value
            continue
        except soft:
            pass
        return _decode(buf.raw[: needed.value - 1])
    raise InternalError("the text size kept changing between calls (last needed %d)" % needed.value)


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InternalError("libgeoloc returned text that is not UTF-8: %r (%s)" % (raw, err)) from None


def _static_text(raw: Optional[bytes]) -> str:
    return _decode(raw) if raw else ""


# --------------------------------------------------------------------------------------------
# Loading files: paths, text with its length, the options and limits every loader takes
# --------------------------------------------------------------------------------------------

#: A file name: str, bytes or os.PathLike.
PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

_SIZE_MAX = (1 << (8 * ctypes.sizeof(c_size_t))) - 1


class CLoadOptions(Structure):
    """geoloc_load_options of every loader (all zero: the defaults)."""

    _fields_ = [
        ("strict", c_bool),
        ("latitude_column", c_char_p),
        ("longitude_column", c_char_p),
        ("id_column", c_char_p),
        ("name_column", c_char_p),
        ("delimiter", c_char),
    ]


class CLoadLimits(Structure):
    """geoloc_load_limits: the most issues kept, places accepted, bytes and records read (0: the
    library's default)."""

    _fields_ = [
        ("struct_size", c_size_t),
        ("max_issues", c_size_t),
        ("max_places", c_size_t),
        ("max_bytes", c_size_t),
        ("max_records", c_size_t),
    ]


def _count_arg(value: Any, what: str) -> int:
    """A count (k, limit) as a size_t: an int >= 0 and at most GEOLOC_MAX_COUNT."""
    number = _integer(value, what)
    if number < 0:
        raise OutOfRangeError("%s must be >= 0, not %d" % (what, number))
    if number > MAX_COUNT:
        raise CountTooLargeError("%s %d is more than GEOLOC_MAX_COUNT (%d)" % (what, number, MAX_COUNT))
    return number


def _blob(value: Any, what: str) -> bytes:
    """Text given with its length (CSV, GeoJSON): str as UTF-8, bytes-like as it is."""
    if isinstance(value, str):
        try:
            return value.encode("utf-8")
        except UnicodeEncodeError as err:
            raise InvalidUTF8Error(
                "%s cannot be written as UTF-8 (%s at index %d)" % (what, err.reason, err.start)
            ) from None
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError("%s must be str or bytes, not %s" % (what, type(value).__name__))


def _path(value: Any, what: str = "path") -> Optional[bytes]:
    """A file name (str, bytes or os.PathLike) as NUL-terminated bytes for the library."""
    if value is None:
        return None
    try:
        value = os.fspath(value)
    except TypeError:
        raise TypeError("%s must be a str, bytes or os.PathLike, not %s" % (what, type(value).__name__)) from None
    return _text(value, what)


def _load_options(
    strict: bool,
    latitude_column: Optional[TextIn] = None,
    longitude_column: Optional[TextIn] = None,
    id_column: Optional[TextIn] = None,
    name_column: Optional[TextIn] = None,
    delimiter: Optional[TextIn] = None,
) -> CLoadOptions:
    """The options of a load (geoloc_load_options), their texts checked."""
    if delimiter is None or delimiter in ("", b""):
        delim = b"\0"
    else:
        delim = _text(delimiter, "delimiter") or b""
        if len(delim) != 1 or delim[0] > 0x7F:
            raise ValueError("delimiter must be one ASCII character, not %r" % (delimiter,))
    # The structure keeps the encoded names alive for as long as it lives.
    return CLoadOptions(
        bool(strict),
        _text(latitude_column, "latitude_column"),
        _text(longitude_column, "longitude_column"),
        _text(id_column, "id_column"),
        _text(name_column, "name_column"),
        delim,
    )


def _load_limits(
    max_issues: Optional[int] = None,
    max_places: Optional[int] = None,
    max_bytes: Optional[int] = None,
    max_records: Optional[int] = None,
) -> CLoadLimits:
    """The limits of a load; None keeps the library's default (1,000 issues, GEOLOC_MAX_COUNT
    places, bytes and records). The byte and record limits may be any size_t (above
    GEOLOC_MAX_COUNT: larger files)."""
    values = []
    for value, what, cap in (
        (max_issues, "max_issues", MAX_COUNT),
        (max_places, "max_places", MAX_COUNT),
        (max_bytes, "max_bytes", _SIZE_MAX),
        (max_records, "max_records", _SIZE_MAX),
    ):
        if value is None:
            values.append(0)
            continue
        number = _integer(value, what)
        if number <= 0:
            raise OutOfRangeError("%s must be >= 1 (or None for the default), not %d" % (what, number))
        if number > cap:
            raise CountTooLargeError("%s %d is more than %d" % (what, number, cap))
        values.append(number)
    return CLoadLimits(sizeof(CLoadLimits), *values)


# --------------------------------------------------------------------------------------------
# Versions
# --------------------------------------------------------------------------------------------


def library_version() -> str:
    """The loaded libgeoloc's version, "MAJOR.MINOR.PATCH"."""
    return _static_text(_lib.geoloc_version())


# --------------------------------------------------------------------------------------------
# Coordinates
# --------------------------------------------------------------------------------------------


class Coord(NamedTuple):
    """A position: latitude and longitude in degrees (WGS84 datum)."""

    lat: float
    lon: float


def parse_coord(text: TextIn) -> Coord:
    """Reads "lat,lon" text such as "38.321991,-88.867400" into a Coord (degrees).

    Whitespace around each number and a leading sign are allowed; the longitude is reduced to
    [-180, 180). Raises ParseError (not two numbers, trailing text), OutOfRangeError (latitude
    beyond ±90), NotFiniteError ("1e999"), InvalidUTF8Error, NullArgumentError (None).
    """
    out = _parsed_coord(text, "text")
    return Coord(out.lat, out.lon)


def _parsed_coord(text: Any, what: str) -> CCoord:
    """ "lat,lon" text read by the library's parser (geoloc_coord_parse), for parse_coord and for
    every call that takes a coordinate."""
    out = CCoord()
    _lib.geoloc_coord_parse(_text(text, what), byref(out))
    return out


def format_coord(coord: CoordLike, style: Union[CoordStyle, int, str] = CoordStyle.COMPACT) -> str:
    """A coordinate as text with 6 decimals: "38.321991,-88.867400" (COMPACT) or
    "38.321991, -88.867400" (READABLE); longitude reduced to [-180, 180), "-0.000000" as
    "0.000000". Raises NotFiniteError, OutOfRangeError (latitude), InvalidArgumentError (style)."""
    c = _coord(coord)
    s = coerce(CoordStyle, style, "style")
    return _text_result(lambda buf, cap, needed: _lib.geoloc_coord_format(c, s, buf, cap, needed))


def check_coord(coord: CoordLike) -> Coord:
    """Checks a coordinate (degrees) and returns it with the longitude reduced to [-180, 180).
    Raises NotFiniteError (NaN, ±inf) or OutOfRangeError (latitude beyond ±90)."""
    out = CCoord()
    _lib.geoloc_coord_check(_coord(coord), byref(out))
    return Coord(out.lat, out.lon)


# --------------------------------------------------------------------------------------------
# Units and distance text
# --------------------------------------------------------------------------------------------


def convert_length(value: float, from_unit: UnitLike, to_unit: UnitLike) -> float:
    """``value`` (a finite length in ``from_unit``; negative values convert as they are) in
    ``to_unit``. A mile is 1609.344 m, a nautical mile 1852 m, a foot 0.3048 m."""
    out = c_double()
    _lib.geoloc_convert_length(
        _float(value, "value"), coerce(Unit, from_unit, "from_unit"), coerce(Unit, to_unit, "to_unit"), byref(out)
    )
    return out.value


def distance_text(meters: float, unit: UnitLike = Unit.MILES) -> str:
    """A length given in meters as display text in ``unit`` with one decimal ("%.1f"):
    "3.2 miles", "12.0 km", "250.0 m", "4.1 nmi", "820.0 ft". Raises OutOfRangeError for a
    negative length, NotFiniteError for NaN or ±inf."""
    m = _float(meters, "meters")
    u = coerce(Unit, unit, "unit")
    return _text_result(lambda buf, cap, needed: _lib.geoloc_distance_text(m, u, buf, cap, needed))


# --------------------------------------------------------------------------------------------
# Handle ownership
# --------------------------------------------------------------------------------------------


class _Owner:
    """One C handle, its destroy function, and the calls in progress on it.

    ``acquire`` hands the pointer to a call and counts it; ``close`` marks the handle closed and
    frees it at once, or, when calls are still running in other threads, lets the last of them
    free it. After close nothing hands the pointer out again. Everything needed at destruction is
    held here, so freeing works at interpreter shutdown when module globals may be gone.
    """

    __slots__ = ("_lock", "_ptr", "_users", "_closed", "_destroy", "_what", "_parent")

    def __init__(
        self, ptr: Any, destroy: Optional[Callable[[Any], None]], what: str, parent: Optional["_Owner"] = None
    ) -> None:
        self._lock = threading.Lock()
        self._ptr = ptr
        self._users = 0
        self._closed = False
        self._destroy = destroy  # None for a borrowed handle
        self._what = what
        self._parent = parent  # the owner a borrowed handle lives in

    @property
    def closed(self) -> bool:
        return self._closed or (self._parent is not None and self._parent.closed)

    def acquire(self) -> Any:
        if self._parent is not None:
            self._parent.acquire()
        try:
            with self._lock:
                if self._closed:
                    raise ValueError("operation on a closed %s" % self._what)
                self._users += 1
                return self._ptr
        except BaseException:
            if self._parent is not None:
                self._parent.release()
            raise

    def release(self) -> None:
        ptr = None
        with self._lock:
            self._users -= 1
            if self._closed and self._users == 0 and self._ptr is not None:
                ptr, self._ptr = self._ptr, None
        if ptr is not None and self._destroy is not None:
            self._destroy(ptr)
        if self._parent is not None:
            self._parent.release()

    def close(self) -> None:
        ptr = None
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._users == 0:
                ptr, self._ptr = self._ptr, None
        if ptr is not None and self._destroy is not None:
            self._destroy(ptr)


class _Handle:
    """Base of the handle classes: close(), closed, with, and __del__."""

    _owner: Optional[_Owner] = None

    def close(self) -> None:
        """Frees the library handle (once; closing again does nothing). Later use raises ValueError."""
        owner = self._owner
        if owner is not None:
            owner.close()

    @property
    def closed(self) -> bool:
        """Whether close() was called (for a borrowed place set: on it or on its gazetteer)."""
        owner = self._owner
        return owner is None or owner.closed

    def __enter__(self: _H) -> _H:
        self._check_open()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        # Also at interpreter shutdown: _Owner.close needs no module global.
        try:
            owner = self._owner
            if owner is not None:
                owner.close()
        except Exception:  # pragma: no cover - nothing sensible to do in a finaliser
            pass

    def _check_open(self) -> None:
        owner = self._owner
        if owner is None or owner.closed:
            raise ValueError("operation on a closed %s" % type(self).__name__)

    def __reduce__(self) -> NoReturn:
        raise TypeError("cannot pickle a %s (it holds a library handle)" % type(self).__name__)

    # The one way a handle class takes and lends its pointer.

    #: The library function that frees this class's handles (a subclass sets it).
    _destroy: Optional[Callable[[Any], None]] = None

    def _own(self, ptr: Any) -> None:
        """Takes ownership of a new library handle, freed with the class's ``_destroy``."""
        self._owner = _Owner(ptr, type(self)._destroy, type(self).__name__)

    def _use(self) -> "_Using":
        """``with self._use() as ptr:``: the pointer, held (not freed by a concurrent close)
        for the duration of one call; ValueError once closed."""
        return _Using(self._owner, type(self).__name__)


def _handle_arg(value: Any, cls: Type[_H], what: str) -> _H:
    """A handle argument of class ``cls``: anything else (None, another handle class) is a
    TypeError, before the library sees it."""
    if not isinstance(value, cls):
        raise TypeError("%s must be a %s, not %s" % (what, cls.__name__, type(value).__name__))
    return value


def _bytes_arg(value: Any, what: str) -> Any:
    """Bytes given by the caller (a saved state): bytes, bytearray or a contiguous memoryview,
    passed without a copy. Anything else is a TypeError, so an int is never taken for a size
    (``bytes(2**31)`` would allocate 2 GiB before the library could refuse it)."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, (bytearray, memoryview)):
        view = memoryview(value)
        if not view.contiguous:
            raise TypeError("%s must be contiguous bytes" % what)
        return bytes(view)  # the caller's own bytes: a copy of their size, never more
    raise TypeError("%s must be bytes, bytearray or memoryview, not %s" % (what, type(value).__name__))


class _Using:
    """``with _Using(owner) as ptr:``: the pointer, held for the duration of one call."""

    __slots__ = ("_owner",)

    def __init__(self, owner: Optional[_Owner], what: str) -> None:
        if owner is None:
            raise ValueError("operation on a closed %s" % what)
        self._owner = owner

    def __enter__(self) -> Any:
        return self._owner.acquire()

    def __exit__(self, *exc: Any) -> None:
        self._owner.release()
