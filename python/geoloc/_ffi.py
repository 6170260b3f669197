"""Loading libgeoloc.so, and how the capability modules declare its C interface (include/geoloc.h).

Here: finding and loading the library, its version check, geoloc_coord (every capability's
structure), the one status check that turns a non-OK status into an exception, and declare(),
through which each capability module (_core, _distance, _route, ...) gives the argtypes and
restype of its own functions. FUNCTIONS collects them all, for the test that compares them with
the header.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from ctypes import (
    POINTER,
    Structure,
    c_char,
    c_char_p,
    c_double,
    c_int,
    c_int32,
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
    "STATUS",
    "ENUM",
    "TEXT_OUT",
    "FUNCTIONS",
    "declare",
    "require_all",
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


# --------------------------------------------------------------------------------------------
# The table: every function of the header, each declared by the module of its capability
# --------------------------------------------------------------------------------------------

# geoloc_status and the other C enums are int-sized.
STATUS = c_int
ENUM = c_int
TEXT_OUT = POINTER(c_char)  # caller-owned buffer (create_string_buffer) or None

#: name -> (restype, argtypes, returns a geoloc_status), filled by declare().
FUNCTIONS: Dict[str, Tuple[Any, Tuple[Any, ...], bool]] = {}


def declare(table: Dict[str, Tuple[Any, Tuple[Any, ...], bool]]) -> None:
    """Declares a capability's functions on the loaded library: restype, argtypes, and the status
    check on those that return a geoloc_status. A function the library lacks is noted for
    require_all(), which the package calls once every module has declared its own."""
    for name, (restype, argtypes, checked) in table.items():
        FUNCTIONS[name] = (restype, argtypes, checked)
        fn = getattr(lib, name, None)
        if fn is None:
            _missing.append(name)
            continue
        fn.restype = restype
        fn.argtypes = argtypes
        if checked:
            fn.errcheck = _check_status


_missing: List[str] = []


def require_all() -> None:
    """Raises one ImportError naming every declared function the loaded library lacks."""
    if _missing:
        raise ImportError(
            "libgeoloc at %s lacks %s, which include/geoloc.h %s; it is not the libgeoloc %s "
            "this package was written for.\n%s"
            % (
                library_path,
                ", ".join(_missing),
                "declares" if len(_missing) == 1 else "declare",
                __version__,
                _BUILD_HINT,
            )
        )


# --------------------------------------------------------------------------------------------
# Finding the library
# --------------------------------------------------------------------------------------------

_PACKAGE_DIR = Path(__file__).resolve().parent

_BUILD_HINT = """\
this copy of the package has no libgeoloc inside it. `pip install ./python` (from the libgeoloc
source tree, with the Swift toolchain and libgeos-dev) builds it into the package; or build it
yourself and point this package at it:
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


def _check_version(handle: ctypes.CDLL, path: str) -> None:
    """The library's MAJOR.MINOR must be the package's."""
    if not hasattr(handle, "geoloc_version_number"):
        return  # declare() names it among the missing functions
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
    raise error_for_status(result, message, getattr(func, "__name__", None))


_handle, _spec = _load()
#: The path of the loaded libgeoloc (the name given to the loader if the path is not known).
library_path: str = _real_path(_handle, _spec)
_check_version(_handle, library_path)
#: The loaded library; each capability's module declares its functions on it (declare()).
lib: ctypes.CDLL = _handle
