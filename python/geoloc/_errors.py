"""The exceptions of the geoloc package, one class per geoloc_status."""

from __future__ import annotations

import enum
import errno
from typing import Any, Dict, Optional, Tuple, Type

__all__ = [
    "Status",
    "GeolocError",
    "NullArgumentError",
    "NotFiniteError",
    "OutOfRangeError",
    "InvalidArgumentError",
    "ParseError",
    "BufferTooSmallError",
    "InvalidUTF8Error",
    "CountTooLargeError",
    "NoHomeError",
    "HomeInvalidError",
    "UnknownCodeError",
    "NotFoundError",
    "UnsupportedError",
    "NoMemoryError",
    "InternalError",
    "NoLocalityError",
    "WindowsMissedError",
    "error_for_status",
]


class Status(enum.IntEnum):
    """The C ``geoloc_status`` codes (stable numbers, never reused)."""

    OK = 0
    E_NULL_ARGUMENT = 1
    E_NOT_FINITE = 2
    E_OUT_OF_RANGE = 3
    E_INVALID_ARGUMENT = 4
    E_PARSE = 5
    E_BUFFER_TOO_SMALL = 6
    E_INVALID_UTF8 = 7
    E_COUNT_TOO_LARGE = 8
    E_NO_HOME = 9
    E_HOME_INVALID = 10
    E_UNKNOWN_CODE = 11
    E_NOT_FOUND = 12
    E_UNSUPPORTED = 13
    E_NO_MEMORY = 14
    E_INTERNAL = 15
    E_NO_LOCALITY = 16
    E_WINDOWS_MISSED = 17


class GeolocError(Exception):
    """A libgeoloc call failed.

    ``status`` is the ``geoloc_status`` number (a :class:`Status` when it is a known one) and
    ``message`` says what was wrong, e.g. ``"latitude 91.0 is outside [-90, 90]"``: the text of
    ``geoloc_last_error()`` for failures reported by the library, or the package's own text for
    arguments refused before they reach it.
    """

    #: The status this class stands for; None on the base class.
    status: Optional[int] = None

    def __init__(self, message: str = "", status: Optional[int] = None) -> None:
        super().__init__(message)
        self.message = message
        if status is not None:
            try:
                status = Status(status)
            except ValueError:
                pass
            self.status = status

    def __str__(self) -> str:
        if self.message:
            return self.message
        return "libgeoloc status %s" % (self.status,)

    def __repr__(self) -> str:
        return "%s(%r, status=%r)" % (type(self).__name__, self.message, self.status)

    def __reduce__(self) -> Tuple[Any, Tuple[str, Optional[int]]]:
        return (type(self), (self.message, self.status))


class NullArgumentError(GeolocError):
    """A required argument was None (NULL in C)."""

    status = Status.E_NULL_ARGUMENT


class NotFiniteError(GeolocError, ValueError):
    """A number was NaN or infinite."""

    status = Status.E_NOT_FINITE


class OutOfRangeError(GeolocError, ValueError):
    """A number was outside its documented range (latitude beyond ±90, a negative distance, ...)."""

    status = Status.E_OUT_OF_RANGE


class InvalidArgumentError(GeolocError, ValueError):
    """An argument was not one of its documented values (an unknown unit or style, ...)."""

    status = Status.E_INVALID_ARGUMENT


class ParseError(GeolocError, ValueError):
    """Text could not be read as what was asked for (a coordinate, ...)."""

    status = Status.E_PARSE


class BufferTooSmallError(GeolocError):
    """A text buffer was too small (handled inside the package; seen only through the raw table)."""

    status = Status.E_BUFFER_TOO_SMALL


class InvalidUTF8Error(GeolocError, ValueError):
    """Input text was not valid UTF-8."""

    status = Status.E_INVALID_UTF8


class CountTooLargeError(GeolocError, ValueError):
    """A count was larger than GEOLOC_MAX_COUNT (2**30)."""

    status = Status.E_COUNT_TOO_LARGE


class NoHomeError(GeolocError):
    """Mileage: there were no home coordinates at all (set up a home location first)."""

    status = Status.E_NO_HOME


class HomeInvalidError(GeolocError):
    """Mileage: home coordinates were given but malformed.

    A soft failure: :func:`geoloc.mileage` does not raise it but returns text ``"0"`` with
    ``home_problem`` set to the message.
    """

    status = Status.E_HOME_INVALID


class UnknownCodeError(GeolocError):
    """A WMO weather code that no published table documents.

    A soft failure: the weather functions do not raise it but answer with the label "Unknown".
    """

    status = Status.E_UNKNOWN_CODE


class NotFoundError(GeolocError, LookupError, FileNotFoundError):
    """A name or code that the library's tables do not hold, or a file that does not exist.

    It is also the standard FileNotFoundError, so ``except FileNotFoundError`` catches a missing
    place file, CSV, GeoJSON, GPX or gazetteer as it catches a missing file of ``open()``; raised
    by a function that takes a path, its ``errno`` is ENOENT (None for a code not found)."""

    status = Status.E_NOT_FOUND


class UnsupportedError(GeolocError, NotImplementedError):
    """The request is valid but not supported by this version (no function of 0.2 raises it)."""

    status = Status.E_UNSUPPORTED


class NoMemoryError(GeolocError, MemoryError):
    """The library could not allocate memory."""

    status = Status.E_NO_MEMORY


class InternalError(GeolocError):
    """A bug in libgeoloc; please report it with the message."""

    status = Status.E_INTERNAL


class NoLocalityError(GeolocError):
    """Reverse geocoding: the point has no locality (its nearest place is beyond the maximum
    distance).

    A soft failure: the reverse geocoding functions do not raise it but answer with the region
    and country alone, or "" (:attr:`geoloc.ReverseGeocode.has_locality` is False).
    """

    status = Status.E_NO_LOCALITY


class WindowsMissedError(GeolocError):
    """Best order with opening hours: no order meets every time window.

    A soft failure: :func:`geoloc.best_order_windows` does not raise it but answers the least
    late order with ``feasible`` False.
    """

    status = Status.E_WINDOWS_MISSED


_BY_STATUS: Dict[int, Type[GeolocError]] = {
    cls.status: cls
    for cls in (
        NullArgumentError,
        NotFiniteError,
        OutOfRangeError,
        InvalidArgumentError,
        ParseError,
        BufferTooSmallError,
        InvalidUTF8Error,
        CountTooLargeError,
        NoHomeError,
        HomeInvalidError,
        UnknownCodeError,
        NotFoundError,
        UnsupportedError,
        NoMemoryError,
        InternalError,
        NoLocalityError,
        WindowsMissedError,
    )
}


#: The functions whose GEOLOC_E_NOT_FOUND means "no such file" (they take a path).
PATH_FUNCTIONS = frozenset({
    "geoloc_places_load_csv",
    "geoloc_places_load_geojson",
    "geoloc_places_load_limited",
    "geoloc_places_open",
    "geoloc_track_load_gpx",
    "geoloc_track_load_geojson",
    "geoloc_gazetteer_open",
})


def error_for_status(status: int, message: str, function: Optional[str] = None) -> GeolocError:
    """The exception for a non-OK status: its own class, or GeolocError for a number unknown here.
    A NotFoundError from a function that takes a path (``function``) has errno ENOENT."""
    cls = _BY_STATUS.get(status)
    if cls is None:
        return GeolocError(message, status)
    err = cls(message, status)
    if status == Status.E_NOT_FOUND and function in PATH_FUNCTIONS:
        setattr(err, "errno", errno.ENOENT)
        setattr(err, "strerror", message)
    return err
