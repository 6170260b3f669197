"""Offline reverse geocoding: the gazetteer ("Springfield, IL" for a coordinate: the locality the
point is in, with its sub-locality, or no locality far from every place)."""

from __future__ import annotations

import threading
import weakref
import ctypes
from ctypes import POINTER, Structure, byref, c_bool, c_char_p, c_double, c_size_t
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union, cast

import numpy


from . import _ffi
from ._enums import AddressStyle, coerce
from ._ffi import ENUM, STATUS, TEXT_OUT, CCoord
from ._errors import BufferTooSmallError, InternalError, NoLocalityError
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


class CReverseOptions(Structure):
    """geoloc_reverse_options."""

    _fields_ = [
        ("struct_size", c_size_t),
        ("max_distance_m", c_double),
        ("country_reach_m", c_double),
        ("sublocality", c_bool),
    ]


class CLocality(Structure):
    """geoloc_locality."""

    _fields_ = [
        ("locality", c_size_t),
        ("distance_m", c_double),
        ("sublocality", c_size_t),
        ("nearest", c_size_t),
        ("nearest_distance_m", c_double),
        ("reach_m", c_double),
        ("within_reach", c_bool),
        ("in_country", c_bool),
    ]


#: geoloc_locality as a numpy record, at the C struct's offsets.
_LOCALITY_NAMES = ["locality", "distance_m", "sublocality", "nearest", "nearest_distance_m", "reach_m", "within_reach",
                   "in_country"]
_SIZE = "u%d" % ctypes.sizeof(c_size_t)
_LOCALITY_DTYPE: Any = numpy.dtype(cast(Any, {
    "names": _LOCALITY_NAMES,
    "formats": [_SIZE, "f8", _SIZE, _SIZE, "f8", "f8", "?", "?"],
    "offsets": [getattr(CLocality, name).offset for name in _LOCALITY_NAMES],
    "itemsize": ctypes.sizeof(CLocality),
}))
#: geoloc_reverse_options' defaults: 50 km to the nearest place for a locality, 200 km for the
#: region and country alone (include/geoloc.h, section 7, says why).
DEFAULT_MAX_DISTANCE_M = 50_000.0
DEFAULT_COUNTRY_REACH_M = 200_000.0
_NO_PLACE = (1 << (8 * ctypes.sizeof(c_size_t))) - 1


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
    "geoloc_reverse_geocode_locality": (
        STATUS,
        (GazetteerPtr, CCoord, ENUM, POINTER(CReverseOptions), TEXT_OUT, c_size_t, POINTER(c_size_t),
         POINTER(CLocality)),
        True,
    ),
    "geoloc_reverse_geocode_localities": (
        STATUS,
        (GazetteerPtr, POINTER(CCoord), c_size_t, POINTER(CReverseOptions), POINTER(CLocality)),
        True,
    ),
    "geoloc_reverse_geocode_many_text_options": (
        STATUS,
        (GazetteerPtr, POINTER(CCoord), c_size_t, ENUM, POINTER(CReverseOptions), TEXT_OUT, c_size_t,
         POINTER(c_size_t), POINTER(c_size_t), POINTER(CLocality)),
        True,
    ),
})


def _options(max_distance_m: Optional[float], country_reach_m: Optional[float], sublocality: bool) -> Any:
    """geoloc_reverse_options for the arguments, or None when every one is its default (the
    library checks the values: NaN and negative distances raise)."""
    if max_distance_m is None and country_reach_m is None and not sublocality:
        return None
    o = CReverseOptions()
    o.struct_size = ctypes.sizeof(CReverseOptions)
    o.max_distance_m = DEFAULT_MAX_DISTANCE_M if max_distance_m is None else float(max_distance_m)
    if country_reach_m is None:
        o.country_reach_m = DEFAULT_COUNTRY_REACH_M
    else:
        reach = float(country_reach_m)
        o.country_reach_m = -1.0 if reach == 0 else reach  # 0 here means never, as in Swift
    o.sublocality = bool(sublocality)
    if o.max_distance_m == 0:
        o.max_distance_m = 5e-324  # 0 would mean the default in C; a point on a place still has it
    return byref(o)


def _soft(call: Any) -> bool:
    """Runs a call whose GEOLOC_E_NO_LOCALITY is a soft failure (never raised: the text is then
    the region and country alone, or ""); False when it was."""
    try:
        call()
    except NoLocalityError:
        return False
    return True


_lib = _ffi.lib  # looked up through this module, so a test can watch the calls

StyleLike = Union[AddressStyle, int, str]


class ReverseGeocode(NamedTuple):
    """The locality a coordinate is in (:meth:`Gazetteer.reverse`): Apple's placemark's
    locality, subLocality, administrativeArea and country."""

    #: The locality as text in the style asked for ("Springfield, IL", "Chicago, IL"); with no
    #: locality the region and country alone ("Nevada, United States"), or "".
    text: str
    #: The locality's index in :attr:`Gazetteer.places` (with no locality, the nearest place's).
    index: int  # type: ignore[assignment]  # the field hides tuple.index, as it did in 0.2
    #: Its great-circle distance from the coordinate, meters.
    distance_m: float
    #: The locality's name ("Springfield"); "" with no locality.
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
    #: False when the nearest place is beyond the maximum distance: no locality.
    has_locality: bool = True
    #: The sub-locality, the section of the locality the point is in ("Chicago Loop"), None if none.
    sublocality: Optional[str] = None
    #: Its index in :attr:`Gazetteer.places`, None if none.
    sublocality_index: Optional[int] = None
    #: Whether the point is within the reach of the locality (or of its sub-locality).
    within_reach: bool = True
    #: The locality's reach, meters (6 m times the square root of its population).
    reach_m: float = 0.0
    #: The nearest place (the sub-locality, the locality or another) and its distance, meters.
    nearest_index: int = 0
    nearest_distance_m: float = 0.0


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

    def _locality(self, coord: CoordLike, style: StyleLike, options: Any) -> Tuple[str, CLocality]:
        c = _coord(coord)
        s = coerce(AddressStyle, style, "style")
        out = CLocality()
        cap = 256
        needed = c_size_t(0)
        with self._use() as ptr:
            for _ in range(4):
                buf = ctypes.create_string_buffer(cap)
                try:
                    _soft(lambda: _lib.geoloc_reverse_geocode_locality(ptr, c, s, options, buf, cap, byref(needed),
                                                                        byref(out)))
                except BufferTooSmallError:
                    if needed.value <= cap:
                        raise
                    cap = needed.value
                    continue
                break
            else:
                raise InternalError("the text size kept changing between calls (last needed %d)" % needed.value)
        try:
            text = buf.raw[: needed.value - 1].decode("utf-8")
        except UnicodeDecodeError as err:
            raise InternalError("libgeoloc returned text that is not UTF-8 (%s)" % err) from None
        return text, out

    def reverse_geocode(
        self, coord: CoordLike, style: StyleLike = AddressStyle.CITY_STATE, *,
        max_distance_m: Optional[float] = None, sublocality: bool = False,
        country_reach_m: Optional[float] = None,
    ) -> str:
        """The locality of ``coord`` as text in an address style: "Springfield, IL" (CITY_STATE),
        "Springfield, Illinois, United States" (CITY_STATE_COUNTRY); "Chicago, IL" downtown
        Chicago, "Chicago Loop, Chicago, IL" with ``sublocality=True``. When the nearest place is
        farther than ``max_distance_m`` (default 50 km; ``math.inf`` for no limit) the point has
        no locality and the text is its region and country alone ("Nevada, United States") when
        the nearest place is within ``country_reach_m`` (default 200 km; 0 for never), else "":
        :meth:`reverse` tells the cases apart. Raises NotFiniteError, OutOfRangeError."""
        return self._locality(coord, style, _options(max_distance_m, country_reach_m, sublocality))[0]

    def reverse(
        self, coord: CoordLike, style: StyleLike = AddressStyle.CITY_STATE, *,
        max_distance_m: Optional[float] = None, sublocality: bool = False,
        country_reach_m: Optional[float] = None,
    ) -> ReverseGeocode:
        """The locality of ``coord`` with its fields: the text in ``style`` (as
        :meth:`reverse_geocode` gives it), its index in :attr:`places`, its distance in meters,
        name, country and division codes and names and the country's name (None where the
        gazetteer has none), whether there is a locality, the sub-locality, whether the point is
        within the locality's reach, and the nearest place."""
        text, m = self._locality(coord, style, _options(max_distance_m, country_reach_m, sublocality))
        places = self.places
        has = m.locality != _NO_PLACE
        index = m.locality if has else m.nearest
        given = has or m.in_country

        def field(name: str) -> Optional[str]:
            if name not in places.attribute_names:
                return None
            return places.attribute(index, name) if given else ""

        sub = None if m.sublocality == _NO_PLACE else m.sublocality
        return ReverseGeocode(
            text=text,
            index=index,
            distance_m=m.distance_m,
            name=places.name(index) if has else "",
            country_code=field("country_code"),
            admin1_code=field("admin1_code"),
            admin1_name=field("admin1_name"),
            admin2_name=field("admin2_name") if has else "",
            coord=places.coord(index),
            country_name=field("country_name"),
            has_locality=has,
            sublocality=places.name(sub) if sub is not None else None,
            sublocality_index=sub,
            within_reach=bool(m.within_reach),
            reach_m=m.reach_m,
            nearest_index=m.nearest,
            nearest_distance_m=m.nearest_distance_m,
        )

    def localities(
        self, points: Any, *, max_distance_m: Optional[float] = None, country_reach_m: Optional[float] = None,
    ) -> Dict[str, "numpy.ndarray[Any, Any]"]:
        """Where each row of ``points`` (an (n, 2) array-like of (lat, lon) degrees) is, in one
        library call, as arrays of shape (n,): ``locality`` (int64, -1 for no locality),
        ``distance_m``, ``sublocality`` (-1 for none), ``nearest``, ``nearest_distance_m``,
        ``reach_m``, ``within_reach`` and ``in_country`` (bool). Row i is what :meth:`reverse`
        gives for point i. Errors as :meth:`reverse_geocode_many`."""
        pts = _points(points, "points")
        n = pts.shape[0]
        self._check_open()
        out = (CLocality * max(n, 1))()
        if n:
            with self._use() as ptr:
                _lib.geoloc_reverse_geocode_localities(
                    ptr, _coords_ptr(pts), n, _options(max_distance_m, country_reach_m, False), out)
        return _locality_arrays(out, n)

    def reverse_geocode_many(
        self, points: Any, style: StyleLike = AddressStyle.CITY_STATE, *,
        max_distance_m: Optional[float] = None, sublocality: bool = False,
        country_reach_m: Optional[float] = None,
    ) -> List[str]:
        """The text of the locality of each row of ``points`` (an array-like of shape (n, 2),
        (lat, lon) degrees, or a :class:`LatLon`; a C-contiguous float64 array is passed without
        a copy), in one library call: ``result[i] == reverse_geocode(points[i], style, ...)``
        (for a point with no locality too: its region and country, or ""). Each place's text is
        formatted once per gazetteer and style and then kept, so repeated places cost a copy.
        Raises ValueError or TypeError for a wrong shape or dtype, NotFiniteError /
        OutOfRangeError naming the first bad row (``points[7]: ...``), InvalidArgumentError for
        the style."""
        pts = _points(points, "points")
        s = coerce(AddressStyle, style, "style")
        options = _options(max_distance_m, country_reach_m, sublocality)
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
                    if options is None:
                        _lib.geoloc_reverse_geocode_many_text(
                            ptr, _coords_ptr(pts), n, s, buf.ctypes.data_as(TEXT_OUT), cap, byref(needed), None, None,
                            None)
                    else:
                        _lib.geoloc_reverse_geocode_many_text_options(
                            ptr, _coords_ptr(pts), n, s, options, buf.ctypes.data_as(TEXT_OUT), cap, byref(needed),
                            None, None)
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
        """The locality of each row of ``points`` (an (n, 2) array-like of (lat, lon) degrees, or
        a :class:`LatLon`), under the default options, in one library call: ``(indices,
        distances)``, an int64 array of the localities' indices in :attr:`places` and a float64
        array of their distances in meters, both of shape (n,), row i as :meth:`reverse` gives
        its index and distance for point i (with no locality, the nearest place's:
        :meth:`localities` tells them apart). Errors as :meth:`reverse_geocode_many`."""
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


def reverse_geocode(
    coord: CoordLike, style: StyleLike = AddressStyle.CITY_STATE, *, max_distance_m: Optional[float] = None,
    sublocality: bool = False, country_reach_m: Optional[float] = None,
) -> str:
    """The locality of ``coord`` in the shipped gazetteer as text:
    ``reverse_geocode((39.80, -89.64))`` is "Springfield, IL", ``reverse_geocode((41.8781,
    -87.6298))`` "Chicago, IL". See :meth:`Gazetteer.reverse_geocode`."""
    return shared_gazetteer().reverse_geocode(
        coord, style, max_distance_m=max_distance_m, sublocality=sublocality, country_reach_m=country_reach_m)


def reverse_geocode_many(
    points: Any, style: StyleLike = AddressStyle.CITY_STATE, *, max_distance_m: Optional[float] = None,
    sublocality: bool = False, country_reach_m: Optional[float] = None,
) -> List[str]:
    """The text of the locality in the shipped gazetteer of each row of ``points`` (shape
    (n, 2)), in one call. See :meth:`Gazetteer.reverse_geocode_many`."""
    return shared_gazetteer().reverse_geocode_many(
        points, style, max_distance_m=max_distance_m, sublocality=sublocality, country_reach_m=country_reach_m)


# --------------------------------------------------------------------------------------------
# Search by name: forward geocoding and autocomplete (geoloc_search_*, header section 7)
# --------------------------------------------------------------------------------------------

from ctypes import c_bool, c_int32, c_int64  # noqa: E402


class CSearch(Structure):
    """geoloc_search (opaque)."""


SearchPtr = POINTER(CSearch)


class CSearchOptions(Structure):
    """geoloc_search_options."""

    _fields_ = [
        ("limit", c_size_t),
        ("min_score", c_double),
        ("prefix", c_bool),
        ("has_near", c_bool),
        ("near", CCoord),
        ("country", c_char_p),
        ("max_edits", c_int32),
    ]


class CSearchResult(Structure):
    """geoloc_search_result."""

    _fields_ = [
        ("index", c_size_t),
        ("geonames_id", c_int64),
        ("coord", CCoord),
        ("population", c_int64),
        ("score", c_double),
        ("match", ENUM),
        ("edits", c_int32),
        ("alternate", c_bool),
        ("name_key", c_size_t),
    ]


_ffi.declare({
    "geoloc_search_options_default": (None, (POINTER(CSearchOptions),), False),
    "geoloc_search_open": (STATUS, (GazetteerPtr, c_char_p, POINTER(SearchPtr)), True),
    "geoloc_search_build": (STATUS, (GazetteerPtr, c_char_p, c_char_p, POINTER(SearchPtr)), True),
    "geoloc_search_save": (STATUS, (SearchPtr, c_char_p), True),
    "geoloc_search_destroy": (None, (SearchPtr,), False),
    "geoloc_search_gazetteer": (STATUS, (SearchPtr, POINTER(GazetteerPtr)), True),
    "geoloc_search_find": (
        STATUS,
        (SearchPtr, c_char_p, POINTER(CSearchOptions), POINTER(CSearchResult), c_size_t, POINTER(c_size_t)),
        True,
    ),
    "geoloc_search_find_many": (
        STATUS,
        (SearchPtr, c_char_p, c_size_t, c_size_t, POINTER(CSearchOptions), POINTER(CSearchResult), c_size_t,
         POINTER(c_size_t)),
        True,
    ),
    "geoloc_search_text": (
        STATUS,
        (SearchPtr, POINTER(CSearchResult), ENUM, TEXT_OUT, c_size_t, POINTER(c_size_t)),
        True,
    ),
})

#: geoloc_search_match values by name.
SEARCH_MATCHES = ("exact", "prefix", "typo")


class SearchResult(NamedTuple):
    """A place found by name (:meth:`PlaceSearch.search`)."""

    #: The place's index in the gazetteer's places.
    index: int  # type: ignore[assignment]  # the field hides tuple.index, as ReverseGeocode's does
    #: Its GeoNames id (0 when the gazetteer's id is not a number).
    geonames_id: int
    #: Its name as the gazetteer writes it ("Munich").
    name: str
    #: Its first-level region's name ("Bavaria"), "" when unknown.
    region: str
    #: The region's GeoNames admin1 code ("IL", "02"), "" when unknown.
    region_code: str
    #: ISO 3166-1 alpha-2 country code ("DE").
    country_code: str
    #: The country's name ("Germany"), "" when unknown.
    country: str
    #: The place's coordinate.
    coord: Coord
    #: GeoNames' population, 0 when unknown.
    population: int
    #: How well it fits the query, in [0, 1] (header section 7).
    score: float
    #: "exact", "prefix" or "typo".
    match: str
    #: Typing errors (0 unless match is "typo").
    edits: int
    #: Whether the name that matched is an alternate name of the place.
    alternate: bool
    #: The name that matched, folded ("munchen", "kiev").
    matched_name: str


class SearchResults(NamedTuple):
    """The results of :meth:`PlaceSearch.search_many` for n queries, as arrays of shape (n, k)
    (k the limit), best first; row i holds ``counts[i]`` results, the rest is padding (index -1,
    score NaN)."""

    counts: "numpy.ndarray[Any, Any]"
    index: "numpy.ndarray[Any, Any]"  # type: ignore[assignment]  # (a field: it hides tuple.index)
    geonames_id: "numpy.ndarray[Any, Any]"
    score: "numpy.ndarray[Any, Any]"
    population: "numpy.ndarray[Any, Any]"
    lat: "numpy.ndarray[Any, Any]"
    lon: "numpy.ndarray[Any, Any]"
    #: 0 exact, 1 prefix, 2 typo (SEARCH_MATCHES), -1 padding.
    match: "numpy.ndarray[Any, Any]"
    edits: "numpy.ndarray[Any, Any]"
    alternate: "numpy.ndarray[Any, Any]"


_RESULT_DTYPE = numpy.dtype(CSearchResult)


def _search_options(limit: int, min_score: float, prefix: bool, near: Optional[CoordLike], country: Optional[str],
                    max_edits: Optional[int]) -> CSearchOptions:
    o = CSearchOptions()
    _lib.geoloc_search_options_default(byref(o))
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise TypeError("limit must be an int")
    if not 1 <= limit <= 1000:
        from ._errors import OutOfRangeError
        raise OutOfRangeError("limit %d is outside 1...1000" % limit)
    o.limit = limit
    o.min_score = float(min_score)
    o.prefix = bool(prefix)
    if near is not None:
        o.has_near = True
        o.near = _coord(near)
    if country is not None:
        o.country = str(country).encode("utf-8")
    if max_edits is not None:
        o.max_edits = int(max_edits)
    return o


class PlaceSearch(_Handle):
    """Finds places by name, offline: a gazetteer with a search index of its own and alternate
    names. ``PlaceSearch.open()`` is the shipped gazetteer (GeoNames cities1000) with GeoNames'
    alternate names in every language ("Kiev", "Київ", "Bombay", "北京", "Köln"). The query
    grammar: "Springfield", "Springfield, IL", "Springfield, Illinois", "Paris, France",
    "Springfield, Illinois, United States"; any case and accents; one or two typing errors;
    ``prefix=True`` for autocomplete; ``near`` and ``country`` to prefer places; ``min_score`` the
    threshold below which nothing is returned. Scores and ranking: include/geoloc.h, section 7."""

    _gazetteer: Optional[Gazetteer] = None
    _destroy = staticmethod(lambda ptr: _lib.geoloc_search_destroy(ptr))

    def __init__(self) -> None:
        raise TypeError("use PlaceSearch.open() or PlaceSearch.build()")

    @classmethod
    def _adopt(cls, out: Any) -> "PlaceSearch":
        self = object.__new__(cls)
        self._own(out)
        return self

    @classmethod
    def open(cls, gazetteer: Optional[Gazetteer] = None, index: Optional[PathLike] = None) -> "PlaceSearch":
        """A search over ``gazetteer`` (None: the shipped one) with the index saved at ``index``
        (None: the shipped index for the shipped gazetteer, found beside it; for another
        gazetteer an index of its own names, built in memory). Raises NotFoundError,
        ParseError (not an index, truncated, corrupted), UnsupportedError, InvalidArgumentError
        (an index of another gazetteer)."""
        out = SearchPtr()
        if gazetteer is None:
            _lib.geoloc_search_open(None, _path(index), byref(out))
        else:
            with gazetteer._use() as g:
                _lib.geoloc_search_open(g, _path(index), byref(out))
        self = cls._adopt(out)
        self._gazetteer = gazetteer
        return self

    @classmethod
    def build(cls, gazetteer: Optional[Gazetteer] = None, alternate_names: Optional[PathLike] = None,
              countries: Optional[PathLike] = None) -> "PlaceSearch":
        """Builds an index in memory over ``gazetteer``'s own names (None: the shipped one) and
        the alternate names of a file (per line: the place's id, then its names, tab-separated;
        data/search/alternate_names.tsv) and the country names of another (data/search/countries.tsv)."""
        out = SearchPtr()
        if gazetteer is None:
            _lib.geoloc_search_build(None, _path(alternate_names), _path(countries), byref(out))
        else:
            with gazetteer._use() as g:
                _lib.geoloc_search_build(g, _path(alternate_names), _path(countries), byref(out))
        self = cls._adopt(out)
        self._gazetteer = gazetteer
        return self

    def save(self, path: PathLike) -> None:
        """Writes the index to ``path`` (a temporary file renamed into place)."""
        with self._use() as ptr:
            _lib.geoloc_search_save(ptr, _path(path))

    def _text(self, ptr: Any, r: CSearchResult, field: int) -> str:
        return _text_result(lambda buf, cap, needed: _lib.geoloc_search_text(ptr, byref(r), field, buf, cap, needed))

    def search(self, query: str, limit: int = 10, min_score: float = 0.45, prefix: bool = False,
               near: Optional[CoordLike] = None, country: Optional[str] = None,
               max_edits: Optional[int] = None) -> List[SearchResult]:
        """The places ``query`` names, best first (at most ``limit``; none scoring below
        ``min_score``). ``prefix``: autocomplete. ``near``: a (lat, lon) to prefer places near.
        ``country``: an ISO code or name to prefer. ``max_edits``: 0-2 typing errors (None: by
        the name's length). Raises InvalidUTF8Error, InvalidArgumentError (a query over 1,024
        bytes or with more than 8 qualifiers), OutOfRangeError, NotFiniteError."""
        if not isinstance(query, str):
            raise TypeError("query must be a str, not %s" % type(query).__name__)
        o = _search_options(limit, min_score, prefix, near, country, max_edits)
        results = (CSearchResult * limit)()
        count = c_size_t(0)
        with self._use() as ptr:
            _lib.geoloc_search_find(ptr, query.encode("utf-8", "surrogatepass"), byref(o), results, limit, byref(count))
            out = []
            for r in results[: count.value]:
                out.append(SearchResult(
                    index=r.index, geonames_id=r.geonames_id, name=self._text(ptr, r, 0), region=self._text(ptr, r, 1),
                    region_code=self._text(ptr, r, 2), country_code=self._text(ptr, r, 3), country=self._text(ptr, r, 4),
                    coord=Coord(r.coord.lat, r.coord.lon), population=r.population, score=r.score,
                    match=SEARCH_MATCHES[r.match], edits=r.edits, alternate=bool(r.alternate),
                    matched_name=self._text(ptr, r, 5),
                ))
        return out

    def search_many(self, queries: Any, limit: int = 10, min_score: float = 0.45, prefix: bool = False,
                    near: Optional[CoordLike] = None, country: Optional[str] = None,
                    max_edits: Optional[int] = None) -> SearchResults:
        """:meth:`search` for each of ``queries`` (a sequence or numpy array of str, or a numpy
        bytes array of UTF-8) in one library call, as arrays of shape (n, limit)
        (:class:`SearchResults`); row i holds what ``search(queries[i], ...)`` returns, by index.
        The names: ``gazetteer.places.name(index)``. Errors as :meth:`search`, naming the first
        bad query (``queries[3]: ...``)."""
        arr = numpy.asarray(queries)
        if arr.ndim != 1:
            arr = arr.reshape(-1)
        if arr.size == 0:
            arr = numpy.zeros(0, dtype="S1")
        elif arr.dtype.kind in ("U", "O"):
            if arr.dtype.kind == "O" and not all(isinstance(q, str) for q in arr.tolist()):
                raise TypeError("queries must be str")
            arr = numpy.char.encode(arr.astype(str), "utf-8")
        elif arr.dtype.kind != "S":
            raise TypeError("queries must be str or bytes, not %s" % arr.dtype)
        arr = numpy.ascontiguousarray(arr)
        n = arr.shape[0]
        o = _search_options(limit, min_score, prefix, near, country, max_edits)
        raw = numpy.zeros(max(n * limit, 1), dtype=_RESULT_DTYPE)
        counts = numpy.zeros(n, dtype=numpy.uintp)
        if n:
            with self._use() as ptr:
                _lib.geoloc_search_find_many(
                    ptr, arr.ctypes.data_as(c_char_p), arr.dtype.itemsize, n, byref(o),
                    raw.ctypes.data_as(POINTER(CSearchResult)), limit, counts.ctypes.data_as(POINTER(c_size_t)),
                )
        raw = raw[: n * limit].reshape(n, limit)
        valid = numpy.arange(limit)[None, :] < counts.astype(numpy.int64)[:, None]
        index = numpy.where(valid, raw["index"].astype(numpy.int64), -1)
        return SearchResults(
            counts=counts.astype(numpy.int64), index=index,
            geonames_id=numpy.where(valid, raw["geonames_id"], 0),
            score=numpy.where(valid, raw["score"], numpy.nan),
            population=numpy.where(valid, raw["population"], 0),
            lat=numpy.where(valid, raw["coord"]["lat"], numpy.nan),
            lon=numpy.where(valid, raw["coord"]["lon"], numpy.nan),
            match=numpy.where(valid, raw["match"], -1).astype(numpy.int8),
            edits=numpy.where(valid, raw["edits"], 0).astype(numpy.int8),
            alternate=numpy.where(valid, raw["alternate"], False),
        )

    def __repr__(self) -> str:
        return "<geoloc.PlaceSearch%s>" % (" closed" if self.closed else "")


_shared_search: Optional[PlaceSearch] = None


def shared_search() -> PlaceSearch:
    """The shipped gazetteer's search, opened on first use and kept for the process. What
    :func:`search_places` uses."""
    global _shared_search
    with _shared_lock:
        if _shared_search is None or _shared_search.closed:
            _shared_search = PlaceSearch.open()
        return _shared_search


def search_places(query: str, limit: int = 10, min_score: float = 0.45, prefix: bool = False,
                  near: Optional[CoordLike] = None, country: Optional[str] = None,
                  max_edits: Optional[int] = None) -> List[SearchResult]:
    """Places of the shipped gazetteer by name: ``search_places("Springfield, IL")[0].name`` is
    "Springfield". See :meth:`PlaceSearch.search`."""
    return shared_search().search(query, limit, min_score, prefix, near, country, max_edits)


def _locality_arrays(out: Any, n: int) -> Dict[str, "numpy.ndarray[Any, Any]"]:
    """The first n geoloc_locality records of ``out`` as the arrays of
    :meth:`Gazetteer.localities` (an index that names no place as -1)."""
    raw = numpy.frombuffer(out, dtype=_LOCALITY_DTYPE, count=n)

    def index(name: str) -> "numpy.ndarray[Any, Any]":
        v = raw[name]
        return numpy.where(v == numpy.uint64(_NO_PLACE), -1, v.astype(numpy.int64)).astype(numpy.int64)

    return {
        "locality": index("locality"),
        "distance_m": raw["distance_m"].astype(numpy.float64),
        "sublocality": index("sublocality"),
        "nearest": raw["nearest"].astype(numpy.int64),
        "nearest_distance_m": raw["nearest_distance_m"].astype(numpy.float64),
        "reach_m": raw["reach_m"].astype(numpy.float64),
        "within_reach": raw["within_reach"].astype(bool),
        "in_country": raw["in_country"].astype(bool),
    }
