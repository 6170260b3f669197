"""Offline reverse geocoding: the gazetteer ("Springfield, IL" for a coordinate)."""

from __future__ import annotations

import threading
import weakref
from ctypes import POINTER, Structure, byref, c_char_p, c_double, c_size_t
from typing import Any, List, NamedTuple, Optional, Tuple, Union

import numpy


from . import _ffi
from ._enums import AddressStyle, coerce
from ._ffi import ENUM, STATUS, TEXT_OUT, CCoord
from ._errors import BufferTooSmallError, InternalError
from ._core import (
    Coord,
    CoordLike,
    _coord,
    _coords_ptr,
    _points,
    _Handle,
    _Owner,
    _text_result,
    _Using,
)
from ._core import PathLike, _path
from ._places import Places, PlacesPtr, CMatch

class CGazetteer(Structure):
    """geoloc_gazetteer (opaque)."""

GazetteerPtr = POINTER(CGazetteer)


_ffi.declare({
    "geoloc_gazetteer_open": (STATUS, (c_char_p, POINTER(GazetteerPtr)), True),
    "geoloc_gazetteer_destroy": (None, (GazetteerPtr,), False),
    "geoloc_gazetteer_places": (STATUS, (GazetteerPtr, POINTER(PlacesPtr)), True),
    "geoloc_reverse_geocode": (
        STATUS,
        (GazetteerPtr, CCoord, ENUM, TEXT_OUT, c_size_t, POINTER(c_size_t), POINTER(CMatch)),
        True,
    ),
    "geoloc_reverse_geocode_many": (
        STATUS,
        (GazetteerPtr, POINTER(CCoord), c_size_t, POINTER(c_size_t), POINTER(c_double)),
        True,
    ),
    "geoloc_reverse_geocode_many_text": (
        STATUS,
        (GazetteerPtr, POINTER(CCoord), c_size_t, ENUM, TEXT_OUT, c_size_t, POINTER(c_size_t),
         POINTER(c_size_t), POINTER(c_size_t), POINTER(c_double)),
        True,
    ),
})


_lib = _ffi.lib  # looked up through this module, so a test can watch the calls

StyleLike = Union[AddressStyle, int, str]


class ReverseGeocode(NamedTuple):
    """The nearest populated place to a coordinate (:meth:`Gazetteer.reverse`)."""

    #: The place as text in the style asked for ("Springfield, IL").
    text: str
    #: The place's index in :attr:`Gazetteer.places`.
    index: int  # type: ignore[assignment]  # the field hides tuple.index, as it did in 0.2
    #: Its great-circle distance from the coordinate, meters.
    distance_m: float
    #: Its name ("Springfield").
    name: str
    #: ISO 3166-1 alpha-2 country code ("US"), None if the gazetteer has none for it.
    country_code: Optional[str]
    #: First-level division code ("IL"), None if absent.
    admin1_code: Optional[str]
    #: First-level division name ("Illinois"), None if absent.
    admin1_name: Optional[str]
    #: Second-level division name ("Sangamon County"), None if absent.
    admin2_name: Optional[str]
    #: The place's coordinate.
    coord: Coord
    #: The country's name as the gazetteer gives it ("United States", "Czechia"), None if absent.
    #: (The address styles name the country by their own table, from the code.)
    country_name: Optional[str] = None


# --------------------------------------------------------------------------------------------
# The gazetteer and reverse geocoding
# --------------------------------------------------------------------------------------------


class Gazetteer(_Handle):
    """A set of populated places with the attributes country_code, admin1_code, admin1_name,
    admin2_name and country_name, for offline reverse geocoding. The shipped one is GeoNames
    cities1000 (170,391 places of 1,000 people or more, native names in UTF-8; CC BY 4.0,
    https://www.geonames.org/)."""

    _places_ref: "Optional[weakref.ref[Places]]"
    #: Bytes per text to allocate for reverse_geocode_many, learnt from the last call.
    _text_bytes: int = 40

    def __init__(self) -> None:
        raise TypeError("use Gazetteer.open(path=None)")

    @classmethod
    def open(cls, path: Optional[PathLike] = None) -> "Gazetteer":
        """Opens a gazetteer file (TSV or CSV with the shipped one's columns), or with ``path``
        None the shipped one, looked for at $GEOLOC_GAZETTEER, beside the library
        (<libdir>/../share/geoloc/cities1000.tsv), then in the source tree the library was built
        from; it is loaded once per process and shared by every handle. Raises NotFoundError
        (the message names every path tried), InvalidArgumentError (missing columns), ParseError."""
        out = GazetteerPtr()
        _lib.geoloc_gazetteer_open(_path(path), byref(out))
        self = object.__new__(cls)
        self._owner = _Owner(out, _lib.geoloc_gazetteer_destroy, "Gazetteer")
        self._places_ref = None  # a weak reference: the view refers to the gazetteer, not back
        return self

    def _use(self) -> _Using:
        return _Using(self._owner, "Gazetteer")

    @property
    def places(self) -> Places:
        """The gazetteer's place set, to read or search. It belongs to the gazetteer: it keeps
        the gazetteer open while it is referenced, its close() frees nothing, and it stops working
        (ValueError) once the gazetteer is closed."""
        self._check_open()
        ref = self._places_ref
        view = None if ref is None else ref()
        if view is None or view.closed:
            out = PlacesPtr()
            with self._use() as ptr:
                _lib.geoloc_gazetteer_places(ptr, byref(out))
                view = Places._adopt(out, borrowed_from=self)
            self._places_ref = weakref.ref(view)
        return view

    def _reverse(self, coord: CoordLike, style: StyleLike) -> Tuple[str, CMatch]:
        c = _coord(coord)
        s = coerce(AddressStyle, style, "style")
        place = CMatch()
        with self._use() as ptr:
            text = _text_result(
                lambda buf, cap, needed: _lib.geoloc_reverse_geocode(ptr, c, s, buf, cap, needed, byref(place))
            )
        return text, place

    def reverse_geocode(self, coord: CoordLike, style: StyleLike = AddressStyle.CITY_STATE) -> str:
        """The nearest populated place to ``coord`` as text in an address style:
        "Springfield, IL" (CITY_STATE), "Springfield, Illinois, United States"
        (CITY_STATE_COUNTRY). Raises NotFiniteError, OutOfRangeError, NotFoundError (an empty
        gazetteer)."""
        return self._reverse(coord, style)[0]

    def reverse(self, coord: CoordLike, style: StyleLike = AddressStyle.CITY_STATE) -> ReverseGeocode:
        """The nearest populated place to ``coord`` with its fields: the text in ``style``, its
        index in :attr:`places`, its distance in meters, name, country and division codes and
        names and the country's name (None where the gazetteer has none)."""
        text, m = self._reverse(coord, style)
        places = self.places
        index = m.index
        return ReverseGeocode(
            text=text,
            index=index,
            distance_m=m.distance,
            name=places.name(index),
            country_code=places.attribute(index, "country_code"),
            admin1_code=places.attribute(index, "admin1_code"),
            admin1_name=places.attribute(index, "admin1_name"),
            admin2_name=places.attribute(index, "admin2_name"),
            coord=places.coord(index),
            country_name=places.attribute(index, "country_name") if "country_name" in places.attribute_names else None,
        )

    def reverse_geocode_many(self, points: Any, style: StyleLike = AddressStyle.CITY_STATE) -> List[str]:
        """The text of the nearest populated place to each row of ``points`` (an array-like of
        shape (n, 2), (lat, lon) degrees, or a :class:`LatLon`; a C-contiguous float64 array is
        passed without a copy),
        in one library call: ``result[i] == reverse_geocode(points[i], style)``. Each place's text
        is formatted once per gazetteer and style and then kept, so repeated places cost a copy.
        Raises ValueError or TypeError for a wrong shape or dtype, NotFiniteError /
        OutOfRangeError naming the first bad row (``points[7]: ...``), InvalidArgumentError for
        the style."""
        pts = _points(points, "points")
        s = coerce(AddressStyle, style, "style")
        n = pts.shape[0]
        self._check_open()
        if n == 0:
            return []
        # A guess from the last call's bytes per text; one more call when it was too small.
        cap = n * self._text_bytes + 64
        needed = c_size_t(0)
        with self._use() as ptr:
            for _ in range(4):
                buf = numpy.empty(cap, dtype=numpy.uint8)
                try:
                    _lib.geoloc_reverse_geocode_many_text(
                        ptr, _coords_ptr(pts), n, s, buf.ctypes.data_as(TEXT_OUT), cap, byref(needed), None, None, None
                    )
                except BufferTooSmallError:
                    if needed.value <= cap:
                        raise
                    cap = needed.value
                    continue
                break
            else:
                raise InternalError("the texts' size kept changing between calls (last needed %d)" % needed.value)
        self._text_bytes = needed.value // n + 8
        try:
            text = buf[: needed.value - 1].tobytes().decode("utf-8")
        except UnicodeDecodeError as err:
            raise InternalError("libgeoloc returned text that is not UTF-8 (%s)" % err) from None
        return text.split("\0")

    def nearest_many(self, points: Any) -> Tuple["numpy.ndarray[Any, Any]", "numpy.ndarray[Any, Any]"]:
        """The nearest populated place to each row of ``points`` (an (n, 2) array-like of (lat,
        lon) degrees, or a :class:`LatLon`), in one library call: ``(indices, distances)``, an
        int64 array of the places' indices in :attr:`places` and a float64 array of their
        distances in meters, both of shape (n,), row i as :meth:`reverse` gives it for point i.
        Errors as :meth:`reverse_geocode_many`."""
        pts = _points(points, "points")
        n = pts.shape[0]
        self._check_open()
        indices = numpy.empty(n, dtype=numpy.int64)
        distances = numpy.empty(n, dtype=numpy.float64)
        if n:
            with self._use() as ptr:
                _lib.geoloc_reverse_geocode_many(
                    ptr, _coords_ptr(pts), n, indices.ctypes.data_as(POINTER(c_size_t)),
                    distances.ctypes.data_as(POINTER(c_double)),
                )
        return indices, distances

    def __repr__(self) -> str:
        return "<geoloc.Gazetteer%s>" % (" closed" if self.closed else "")


_shared_lock = threading.Lock()
_shared: Optional[Gazetteer] = None


def shared_gazetteer() -> Gazetteer:
    """The shipped gazetteer, opened on first use and kept for the process (reopened if someone
    closed it). What :func:`reverse_geocode` uses."""
    global _shared
    with _shared_lock:
        if _shared is None or _shared.closed:
            _shared = Gazetteer.open(None)
        return _shared


def reverse_geocode(coord: CoordLike, style: StyleLike = AddressStyle.CITY_STATE) -> str:
    """The nearest populated place to ``coord`` in the shipped gazetteer as text:
    ``reverse_geocode((39.80, -89.64))`` is "Springfield, IL". See :meth:`Gazetteer.reverse_geocode`."""
    return shared_gazetteer().reverse_geocode(coord, style)


def reverse_geocode_many(points: Any, style: StyleLike = AddressStyle.CITY_STATE) -> List[str]:
    """The text of the nearest populated place in the shipped gazetteer to each row of
    ``points`` (shape (n, 2)), in one call. See :meth:`Gazetteer.reverse_geocode_many`."""
    return shared_gazetteer().reverse_geocode_many(points, style)
