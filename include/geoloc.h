/*
 * geoloc.h -- the public C interface of libgeoloc.
 *
 * libgeoloc answers the location questions a program asks without a phone, a network or an API
 * key: distance, multi-stop mileage, coordinate text, "City, State" and other address forms,
 * and WMO weather codes as words ("Rain, 45°F").
 *
 * Contents. One section per capability, in this order; the same names are the folders of the
 * Swift core (Sources/GeoLoc/<Name>), the thunk files (Sources/GeoLocC/<Name>.swift), the Python
 * modules (geoloc/_<name>.py) and the tests (ARCHITECTURE.md has the map):
 *
 *   1. Core       versions, status codes and errors, units and Earth models, coordinates,
 *                 distance text: what every capability shares
 *   2. Distance   distance of one pair or of batches, on the sphere or WGS84; WGS84 geodesics
 *   3. Route      path length, round-trip mileage, ETA
 *   4. Weather    WMO weather codes as labels and "Rain, 45°F"
 *   5. Address    address forms, US state codes and names, country names
 *   6. Places     place sets, radius and nearest search, regions
 *   7. Geocoding  offline reverse geocoding: "City, State" for a coordinate
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
 *    (GEOLOC_E_HOME_INVALID, GEOLOC_E_UNKNOWN_CODE). Among coordinates, the first bad one (a
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
 *
 * Thread safety: every function is safe to call from any number of threads at once, with one
 * rule for handles (geoloc_places, geoloc_region, geoloc_gazetteer): a handle is immutable once
 * created, so any number of threads may query the same handle at once, but its destroy function
 * must not run while another thread still uses it. The library keeps no other shared mutable
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
 * ------------------------------------------------------------------------------------------- */

#define GEOLOC_VERSION_MAJOR 0
#define GEOLOC_VERSION_MINOR 2
#define GEOLOC_VERSION_PATCH 0
#define GEOLOC_VERSION_STRING "0.2.0"
/** MAJOR * 10000 + MINOR * 100 + PATCH. */
#define GEOLOC_VERSION_NUMBER 200

/**
 * The version of the library that is loaded, as "MAJOR.MINOR.PATCH" (static text).
 * Compare with GEOLOC_VERSION_STRING to tell the header from the library.
 * Thread safety: any thread.
 */
GEOLOC_API const char *geoloc_version(void);

/** The loaded library's version as MAJOR * 10000 + MINOR * 100 + PATCH. Thread safety: any. */
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
    GEOLOC_E_INTERNAL = 15
} geoloc_status;

/** The largest element count any function accepts (2^30). */
#define GEOLOC_MAX_COUNT ((size_t)1 << 30)

/**
 * A short static description of a status ("ok", "latitude or other value out of range", ...);
 * "unknown status" for a number that is not a geoloc_status. Thread safety: any thread.
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
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_NOT_FINITE, GEOLOC_E_INVALID_ARGUMENT (unit).
 * Thread safety: any thread.
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
 * Thread safety: any thread.
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
 * Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_coord_parse(const char *text, geoloc_coord *out);

/**
 * Writes a coordinate as text with 6 decimals in the given style, longitude reduced to
 * [-180, 180); "-0.000000" is written "0.000000".
 * [in]  c, style
 * [out] buf, cap, needed  caller-owned buffer; *needed is always set (NUL included)
 * Errors: GEOLOC_E_NULL_ARGUMENT (needed, or buf with cap > 0), GEOLOC_E_NOT_FINITE,
 * GEOLOC_E_OUT_OF_RANGE, GEOLOC_E_INVALID_ARGUMENT (style), GEOLOC_E_BUFFER_TOO_SMALL.
 * Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_coord_format(geoloc_coord c, geoloc_coord_style style, char *buf,
                                             size_t cap, size_t *needed);

/**
 * A distance as display text with one decimal, printf's "%.1f" rounding, and the unit's word:
 * "3.2 miles", "12.0 km", "250.0 m", "4.1 nmi", "820.0 ft" (the "%.1f miles" of the mosque
 * finder design; "1.0 miles" stays plural as there).
 * [in]  meters  a finite length in meters, >= 0
 * [in]  unit    the unit to show
 * [out] buf, cap, needed  caller-owned buffer
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE (negative),
 * GEOLOC_E_INVALID_ARGUMENT (unit), GEOLOC_E_BUFFER_TOO_SMALL.
 * Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_distance_text(double meters, geoloc_unit unit, char *buf,
                                              size_t cap, size_t *needed);

/* ---------------------------------------------------------------------------------------------
 * 2. Distance: one pair and batches, on the sphere or WGS84
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
 * Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_distance(geoloc_coord a, geoloc_coord b, geoloc_model model,
                                         geoloc_unit unit, double *out);

/**
 * Distances of n pairs: out[i] = distance(a[i], b[i]). On the sphere a vectorised kernel (AVX2
 * or AVX-512, chosen at run time) agrees with geoloc_distance to 1e-15 relative (bound: 1e-11);
 * on WGS84 the results are bit-identical to geoloc_distance. Every coordinate is checked first;
 * if any is invalid nothing is written and the message names the first bad one
 * ("b[7]: latitude 91 is outside [-90, 90]").
 * [in]  a, b   arrays of n coordinates (may be NULL when n == 0)
 * [out] out    array of n distances in `unit`; must not overlap a or b
 * Errors: as geoloc_distance, plus GEOLOC_E_COUNT_TOO_LARGE.
 * Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_distance_pairs(const geoloc_coord *a, const geoloc_coord *b,
                                               size_t n, geoloc_model model, geoloc_unit unit,
                                               double *out);

/**
 * Distances from one origin to n points: out[i] = distance(origin, points[i]). Checked as in
 * geoloc_distance_pairs.
 * Thread safety: any thread.
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
 * Thread safety: any thread.
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
 * Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_geodesic_direct(geoloc_coord start, double azi1, double meters,
                                                geoloc_coord *end, double *azi2);

/* ---------------------------------------------------------------------------------------------
 * 3. Route: path length, mileage and ETA
 * ------------------------------------------------------------------------------------------- */

/**
 * The length of a path through n points in order, optionally closed (back to points[0]).
 * [in]  points  n coordinates (NULL allowed when n == 0)
 * [in]  closed  true to add the leg from the last point back to the first
 * [out] total   the sum of the legs in `unit` (0 for n < 2)
 * [out] legs    optional (NULL): leg lengths, n - 1 of them (n if closed and n >= 2; 0 if n < 2)
 * Errors: as geoloc_distance_pairs.
 * Thread safety: any thread.
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
 * Round-trip mileage, the "mileage" smart field: home, then the stops in the given order, then
 * home again, by the given model (GEOLOC_MODEL_SPHERE for the field), in `unit` (GEOLOC_UNIT_MILES
 * for the field), rounded to one decimal.
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
 * Thread safety: any thread.
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
 * Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_eta_minutes(double distance, double speed_per_hour,
                                            geoloc_unit unit, double detour_factor,
                                            int64_t *minutes);

/* ---------------------------------------------------------------------------------------------
 * 4. Weather: weather codes (WMO 4677 codes as published by Open-Meteo)
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
 * Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_weather_label(int32_t code, geoloc_daylight daylight,
                                              const char **label);

/**
 * Whether a published WMO table (as Open-Meteo documents it) defines `code`: true for the 28
 * codes listed at geoloc_weather_label. Never fails. Thread safety: any thread.
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
 * Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_weather_condition(int32_t code, double temperature,
                                                  geoloc_temp_unit given, geoloc_temp_unit shown,
                                                  geoloc_daylight daylight, char *buf,
                                                  size_t cap, size_t *needed);

/* ---------------------------------------------------------------------------------------------
 * 5. Address: address forms, US states and country names
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
     *  post-format rules, state and county codes, territories that use another country's form. */
    GEOLOC_ADDRESS_POSTAL = 3
} geoloc_address_style;

/**
 * Formats address components.
 * [in]  parts  n components (NULL allowed when n == 0); keys must not be NULL
 * [in]  style  see geoloc_address_style
 * [out] buf, cap, needed  caller-owned buffer
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_INVALID_ARGUMENT (style),
 * GEOLOC_E_COUNT_TOO_LARGE, GEOLOC_E_BUFFER_TOO_SMALL.
 * Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_address_format(const geoloc_address_part *parts, size_t n,
                                               geoloc_address_style style, char *buf,
                                               size_t cap, size_t *needed);

/**
 * The two-letter USPS code of a US state, DC or territory from its name, without regard to case
 * ("Illinois" -> "IL", "district of columbia" -> "DC", "Puerto Rico" -> "PR"). A valid code is
 * accepted too and returned in upper case.
 * [out] code  static text
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_NOT_FOUND.
 * Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_us_state_code(const char *name, const char **code);

/**
 * The name of a US state, DC or territory from its two-letter code, without regard to case
 * ("il" -> "Illinois"). A valid name is accepted too and returned as spelled in the table.
 * [out] name  static text
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_NOT_FOUND.
 * Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_us_state_name(const char *code, const char **name);

/**
 * The English short name of a country from its ISO 3166-1 alpha-2 code, without regard to case
 * ("US" -> "United States", "gb" -> "United Kingdom").
 * [out] name  static text
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_NOT_FOUND.
 * Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_country_name(const char *code, const char **name);

/* ---------------------------------------------------------------------------------------------
 * 6. Places: place sets, radius search, k nearest, regions (GEOS STRtree index)
 * -------------------------------------------------------------------------------------------
 *
 * A geoloc_places handle holds places (a coordinate, an id, a name and string attributes) and
 * their index. It is immutable once created: any number of threads may query it at once.
 * Query results are written to a caller-owned array of geoloc_match, nearest first, ties in
 * index order, and *count is always set to the number of results the query has (after `limit`).
 * When cap < *count, the first cap results are written and GEOLOC_E_BUFFER_TOO_SMALL is
 * returned; out may be NULL with cap = 0 to ask for the count only.
 *
 * GEOS and threads: libgeoloc creates and destroys GEOS geometries under a lock of its own (GEOS
 * 3.11 shares one geometry factory, with a plain reference count, between all its contexts). A
 * host that also calls GEOS itself, on other threads at the same time, is outside that lock.
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
 * Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_places_create(const geoloc_coord *coords,
                                              const char *const *ids,
                                              const char *const *names, size_t n,
                                              const char *const *attr_names, size_t n_attrs,
                                              const char *const *attr_values,
                                              geoloc_places **out);

/** Options of the CSV and GeoJSON loaders; NULL options mean all defaults (a zeroed struct). */
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

/**
 * Loads places from a CSV file (RFC 4180; a header row names the columns; every column other
 * than latitude, longitude, id and name is kept as an attribute). Records that cannot be used
 * (wrong field count, a missing or invalid coordinate, invalid UTF-8) are skipped and reported,
 * with their line number and the reason, by geoloc_places_issue; with options->strict the first
 * one fails the whole load instead.
 * [in]  path     file name (NUL-terminated)
 * [in]  options  NULL for the defaults
 * [out] out      the new set
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_NOT_FOUND (no such file),
 * GEOLOC_E_INVALID_ARGUMENT (unreadable file, no latitude/longitude column, duplicate column
 * names), GEOLOC_E_PARSE (strict mode), GEOLOC_E_NO_MEMORY.
 * Thread safety: any thread.
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
 * are reported with their 0-based index, or fail the load in strict mode.
 * Errors: as geoloc_places_load_csv; GEOLOC_E_PARSE for malformed JSON (the message gives the
 * line and column).
 * Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_places_load_geojson(const char *path,
                                                    const geoloc_load_options *options,
                                                    geoloc_places **out);

/** As geoloc_places_load_geojson, from `len` bytes of GeoJSON text in memory. */
GEOLOC_API geoloc_status geoloc_places_parse_geojson(const char *text, size_t len,
                                                     const geoloc_load_options *options,
                                                     geoloc_places **out);

/** Frees a place set. NULL is allowed. Not while another thread uses the set. */
GEOLOC_API void geoloc_places_destroy(geoloc_places *places);

/** The number of places in the set. Errors: GEOLOC_E_NULL_ARGUMENT. Thread safety: any. */
GEOLOC_API geoloc_status geoloc_places_count(const geoloc_places *places, size_t *count);

/** How many records a loader skipped (0 for sets from geoloc_places_create).
 *  Errors: GEOLOC_E_NULL_ARGUMENT. Thread safety: any thread. */
GEOLOC_API geoloc_status geoloc_places_issue_count(const geoloc_places *places, size_t *count);

/**
 * The i-th skipped record: its number (the 1-based line where a CSV record starts, the 0-based
 * index of a GeoJSON feature) and the reason as text.
 * [out] record            may be NULL
 * [out] buf, cap, needed  the reason
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_OUT_OF_RANGE (i >= issue count),
 * GEOLOC_E_BUFFER_TOO_SMALL. Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_places_issue(const geoloc_places *places, size_t i,
                                             size_t *record, char *buf, size_t cap,
                                             size_t *needed);

/** The coordinate of place `index` (longitude in [-180, 180)).
 *  Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_OUT_OF_RANGE (index >= count). Thread safety: any. */
GEOLOC_API geoloc_status geoloc_places_coord(const geoloc_places *places, size_t index,
                                             geoloc_coord *out);

/**
 * The coordinates of every place, in index order (longitudes in [-180, 180)).
 * [out] out, cap, count  *count is always set to the number of places; when cap < *count the
 *                        first cap are written and GEOLOC_E_BUFFER_TOO_SMALL is returned
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_COUNT_TOO_LARGE (cap), GEOLOC_E_BUFFER_TOO_SMALL.
 * Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_places_coords(const geoloc_places *places, geoloc_coord *out,
                                              size_t cap, size_t *count);

/** The id of place `index`. Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_OUT_OF_RANGE,
 *  GEOLOC_E_BUFFER_TOO_SMALL. Thread safety: any thread. */
GEOLOC_API geoloc_status geoloc_places_id(const geoloc_places *places, size_t index, char *buf,
                                          size_t cap, size_t *needed);

/** The name of place `index` ("" if it has none). Errors: as geoloc_places_id. */
GEOLOC_API geoloc_status geoloc_places_name(const geoloc_places *places, size_t index,
                                            char *buf, size_t cap, size_t *needed);

/** The number of attribute names of the set. Errors: GEOLOC_E_NULL_ARGUMENT. Thread: any. */
GEOLOC_API geoloc_status geoloc_places_attribute_count(const geoloc_places *places,
                                                       size_t *count);

/** The j-th attribute name. Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_OUT_OF_RANGE,
 *  GEOLOC_E_BUFFER_TOO_SMALL. Thread safety: any thread. */
GEOLOC_API geoloc_status geoloc_places_attribute_name(const geoloc_places *places, size_t j,
                                                      char *buf, size_t cap, size_t *needed);

/**
 * The value of attribute `name` of place `index`.
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_UTF8, GEOLOC_E_OUT_OF_RANGE (index),
 * GEOLOC_E_NOT_FOUND (the set has no such attribute, or this place has no value for it; the
 * message says which), GEOLOC_E_BUFFER_TOO_SMALL. Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_places_attribute(const geoloc_places *places, size_t index,
                                                 const char *name, char *buf, size_t cap,
                                                 size_t *needed);

/**
 * Every place within `radius` of `center` (a circle: the geofence), nearest first, ties in
 * index order, by the exact distance of `model` (for GEOLOC_MODEL_SPHERE the value
 * geoloc_distance gives). Correct across the antimeridian and at the poles; radius 0 finds
 * places exactly at the centre; a radius of half the Earth or more finds every place.
 * The mosque finder's presets are 1, 2, 5, 10, 20 and 50 miles (GEOLOC_UNIT_MILES).
 * [in]  center       the query point
 * [in]  radius       >= 0, finite, in `unit`
 * [in]  model, unit  as geoloc_distance; radius and the distances in out are in `unit`
 * [in]  limit        at most this many results (the nearest); GEOLOC_NO_LIMIT (0) for all
 * [out] out, cap, count  see "Place sets" above
 * Errors: GEOLOC_E_NULL_ARGUMENT (places, count, or out with cap > 0),
 * GEOLOC_E_COUNT_TOO_LARGE (cap or limit), GEOLOC_E_INVALID_ARGUMENT (model, unit),
 * GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE (latitude, negative radius),
 * GEOLOC_E_BUFFER_TOO_SMALL.
 * Thread safety: any thread, also on the same set.
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
 * Thread safety: any thread, also on the same set.
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
 * Thread safety: any thread, also on the same set.
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
 * Thread safety: any thread, also on the same set.
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
 * reason), GEOLOC_E_INVALID_ARGUMENT (not a Polygon/MultiPolygon, empty, or invalid),
 * GEOLOC_E_OUT_OF_RANGE (a vertex beyond latitude ±90 or longitude ±180).
 * Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_region_from_wkt(const char *wkt, geoloc_region **out);

/** A region from GeoJSON: a Polygon or MultiPolygon geometry, or a Feature or FeatureCollection
 *  of them. Errors: as geoloc_region_from_wkt. Thread safety: any thread. */
GEOLOC_API geoloc_status geoloc_region_from_geojson(const char *geojson, geoloc_region **out);

/** Frees a region. NULL is allowed. Not while another thread uses it. */
GEOLOC_API void geoloc_region_destroy(geoloc_region *region);

/** Whether `c` lies in the region (its boundary included).
 *  Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_NOT_FINITE, GEOLOC_E_OUT_OF_RANGE. Thread: any. */
GEOLOC_API geoloc_status geoloc_region_contains(const geoloc_region *region, geoloc_coord c,
                                                bool *inside);

/**
 * The places inside a region (boundary included), nearest first from `origin` (ties in index
 * order) with distances in `unit`; with origin NULL, in index order with distance 0.
 * [in]  origin  optional point to sort from
 * [in]  limit   GEOLOC_NO_LIMIT (0) or the most results wanted
 * [out] out, cap, count  as geoloc_places_within
 * Errors: as geoloc_places_within.
 * Thread safety: any thread, also on the same set and region.
 */
GEOLOC_API geoloc_status geoloc_places_in_region(const geoloc_places *places,
                                                 const geoloc_region *region,
                                                 const geoloc_coord *origin, geoloc_model model,
                                                 geoloc_unit unit, size_t limit,
                                                 geoloc_match *out, size_t cap, size_t *count);

/* ---------------------------------------------------------------------------------------------
 * 7. Geocoding: offline reverse geocoding, "City, State" for a coordinate
 * -------------------------------------------------------------------------------------------
 *
 * A gazetteer is a place set of populated places with the attributes country_code,
 * admin1_code, admin1_name and admin2_name. libgeoloc ships one built from GeoNames
 * (cities1000: places of 1,000 people or more; CC BY 4.0, https://www.geonames.org/),
 * installed as <datadir>/geoloc/cities1000.tsv.
 */

/** A gazetteer. Immutable; any thread may use it. */
typedef struct geoloc_gazetteer geoloc_gazetteer;

/**
 * Opens a gazetteer.
 * [in]  path  a gazetteer file (TSV or CSV with the columns of the shipped one), or NULL for the
 *             shipped one, looked for at $GEOLOC_GAZETTEER, then where an install puts it
 *             (<libdir>/../share/geoloc/cities1000.tsv, also for lib/<multiarch>), then next
 *             to the library file (<libdir>/cities1000.tsv), then in the source tree it was
 *             built from. The shipped one is loaded once per process and shared by every handle.
 * [out] out   free it with geoloc_gazetteer_destroy
 * Errors: GEOLOC_E_NULL_ARGUMENT (out), GEOLOC_E_INVALID_UTF8, GEOLOC_E_NOT_FOUND (the message
 * names every path tried), GEOLOC_E_INVALID_ARGUMENT (no name or country_code column, or no
 * places), GEOLOC_E_PARSE, GEOLOC_E_NO_MEMORY.
 * Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_gazetteer_open(const char *path, geoloc_gazetteer **out);

/** Frees a gazetteer handle. NULL is allowed. Not while another thread uses it. */
GEOLOC_API void geoloc_gazetteer_destroy(geoloc_gazetteer *gazetteer);

/**
 * The gazetteer's place set, to read a place's fields (geoloc_places_name,
 * geoloc_places_attribute with "country_code", "admin1_code", "admin1_name", "admin2_name") or
 * to search it. The set belongs to the gazetteer: valid until geoloc_gazetteer_destroy, and not
 * to be destroyed by the caller.
 * Errors: GEOLOC_E_NULL_ARGUMENT. Thread safety: any thread.
 */
GEOLOC_API geoloc_status geoloc_gazetteer_places(const geoloc_gazetteer *gazetteer,
                                                 const geoloc_places **places);

/**
 * The nearest populated place to `c` (by great-circle distance, ties in index order) as text
 * in an address style: GEOLOC_ADDRESS_CITY_STATE gives "Springfield, IL",
 * GEOLOC_ADDRESS_CITY_STATE_COUNTRY "Springfield, Illinois, United States".
 * [in]  c      the coordinate
 * [in]  style  any geoloc_address_style
 * [out] buf, cap, needed  the text; all three NULL/0/NULL to ask for the place only (then
 *                        place is required), the fastest form when the fields are read with
 *                        geoloc_places_attribute
 * [out] place  optional (NULL): the place's index in geoloc_gazetteer_places and its distance
 *              from c in meters
 * Errors: GEOLOC_E_NULL_ARGUMENT, GEOLOC_E_INVALID_ARGUMENT (style), GEOLOC_E_NOT_FINITE,
 * GEOLOC_E_OUT_OF_RANGE, GEOLOC_E_BUFFER_TOO_SMALL (*place is still written).
 * Thread safety: any thread, also on the same gazetteer.
 */
GEOLOC_API geoloc_status geoloc_reverse_geocode(const geoloc_gazetteer *gazetteer,
                                                geoloc_coord c, geoloc_address_style style,
                                                char *buf, size_t cap, size_t *needed,
                                                geoloc_match *place);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* GEOLOC_H */
