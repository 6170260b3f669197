/*
 * test_route.c -- the C door's tests of routes: path length, the seed's round-trip mileage
 * rules, ETA, and the golden mileage and ETA cases.
 *
 *   usage: test_route GOLDEN_DIR
 *
 * Plain C, no framework: see check.h. Exit status 0 when every check passed.
 */
#include "golden.h"
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geoloc.h"
#include "check.h"
#include "common.h"

/* ---------------------------------------------------------------------------------------------
 * Routes and mileage
 * ------------------------------------------------------------------------------------------- */

static void test_route_length(void)
{
    const geoloc_coord *points = (const geoloc_coord *)&TOUR_POINTS[0][0];
    geoloc_coord bad[3];
    double total = -1, legs[8], d01, d12, d20;
    size_t i;

    CHECK_OK(geoloc_distance(points[0], points[1], GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &d01));
    CHECK_OK(geoloc_distance(points[1], points[2], GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &d12));
    CHECK_OK(geoloc_distance(points[2], points[0], GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &d20));

    for (i = 0; i < COUNT_OF(legs); i++) legs[i] = -1;
    CHECK_OK(geoloc_route_length(points, 3, false, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &total, legs));
    CHECK(legs[0] == d01 && legs[1] == d12 && legs[2] == -1);
    CHECK(total == d01 + d12);

    for (i = 0; i < COUNT_OF(legs); i++) legs[i] = -1;
    CHECK_OK(geoloc_route_length(points, 3, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &total, legs));
    CHECK(legs[0] == d01 && legs[1] == d12 && legs[2] == d20 && legs[3] == -1);
    CHECK(close_rel(total, d01 + d12 + d20, 1e-15));

    total = -1;
    CHECK_OK(geoloc_route_length(points, 3, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &total, NULL));
    CHECK(close_rel(total, d01 + d12 + d20, 1e-15));

    /* Fewer than two points: 0 and no legs. */
    for (i = 0; i < COUNT_OF(legs); i++) legs[i] = -1;
    CHECK_OK(geoloc_route_length(points, 1, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &total, legs));
    CHECK(total == 0.0 && legs[0] == -1);
    total = -1;
    CHECK_OK(geoloc_route_length(NULL, 0, false, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &total, NULL));
    CHECK(total == 0.0);

    total = 42.0;
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_route_length(points, 3, false, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, NULL, legs));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_route_length(NULL, 3, false, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &total, legs));
    for (i = 0; i < COUNT_OF(HUGE_COUNTS); i++) {
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_route_length(points, HUGE_COUNTS[i], false, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &total, legs));
    }
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_route_length(points, 3, false, INVALID_MODEL, GEOLOC_UNIT_MILES, &total, legs));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_route_length(points, 3, false, GEOLOC_MODEL_SPHERE, INVALID_UNIT, &total, legs));
    {
        /* WGS84: geodesic legs (GeographicLib 2.1: 12.363022608354113 + ... = 74.19273916977264 miles). */
        double w_total = -1, w_legs[2];
        CHECK_OK(geoloc_route_length(points, 3, false, GEOLOC_MODEL_WGS84, GEOLOC_UNIT_MILES, &w_total, w_legs));
        CHECK(fabs(w_legs[0] - 12.363022608354113) <= 15e-9 / 1609.344);
        CHECK(fabs(w_total - 74.19273916977264) <= 30e-9 / 1609.344);
    }
    memcpy(bad, points, sizeof bad);
    bad[2].lon = nan_value();
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_route_length(bad, 3, false, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &total, legs));
    CHECK(strstr(geoloc_last_error(), "[2]") != NULL);
    bad[2].lon = 0;
    bad[1].lat = -90.0000001;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_route_length(bad, 3, false, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &total, legs));
    CHECK(strstr(geoloc_last_error(), "[1]") != NULL);
    CHECK(total == 42.0);
}

#define HOME "38.321991,-88.867400"
#define CENTRALIA "38.525050,-89.133404"
#define SALEM "38.626995,-88.945610"
#define MARION "37.730604,-88.933138"

static void fill_sentinels(geoloc_mileage_result *r, geoloc_leg *legs, size_t n_legs,
                           size_t *skipped, size_t n_skipped)
{
    size_t i;
    if (r != NULL) memset(r, 0xAB, sizeof *r);
    for (i = 0; i < n_legs; i++) {
        legs[i].from = 99;
        legs[i].to = 99;
        legs[i].distance = -1;
    }
    for (i = 0; i < n_skipped; i++) skipped[i] = 99;
}

static int result_untouched(const geoloc_mileage_result *r)
{
    const unsigned char *p = (const unsigned char *)r;
    size_t i;
    for (i = 0; i < sizeof *r; i++) {
        if (p[i] != 0xAB) return 0;
    }
    return 1;
}

static double miles_between(const char *a, const char *b)
{
    geoloc_coord ca, cb;
    double d = -1;
    if (geoloc_coord_parse(a, &ca) != GEOLOC_OK || geoloc_coord_parse(b, &cb) != GEOLOC_OK) return -1;
    if (geoloc_distance(ca, cb, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &d) != GEOLOC_OK) return -1;
    return d;
}

static void test_mileage(void)
{
    const char *three[] = {CENTRALIA, SALEM, MARION};
    const char *with_bad[] = {CENTRALIA, NULL, "", "38.5", "abc", SALEM};
    const char *all_bad[] = {NULL, "x", "  "};
    geoloc_mileage_result r;
    geoloc_leg legs[8];
    size_t skipped[8];
    size_t i;
    double h0 = miles_between(HOME, CENTRALIA), d01 = miles_between(CENTRALIA, SALEM),
           d12 = miles_between(SALEM, MARION), h2 = miles_between(MARION, HOME);

    /* Round trip home -> Centralia -> Salem -> Marion -> home. */
    fill_sentinels(&r, legs, 8, skipped, 8);
    CHECK_OK(geoloc_mileage(HOME, three, 3, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, legs, 8, skipped, 8));
    CHECK_STR(r.text, "135.4");
    CHECK(close_rel(r.total, 135.40927695715137329, 1e-12));
    CHECK(r.rounded == 135.4);
    CHECK(r.stops_used == 3 && r.stops_skipped == 0 && r.leg_count == 4);
    CHECK(legs[0].from == -1 && legs[0].to == 0 && legs[0].distance == h0);
    CHECK(legs[1].from == 0 && legs[1].to == 1 && legs[1].distance == d01);
    CHECK(legs[2].from == 1 && legs[2].to == 2 && legs[2].distance == d12);
    CHECK(legs[3].from == 2 && legs[3].to == -1 && legs[3].distance == h2);
    CHECK(legs[4].from == 99);
    CHECK(skipped[0] == 99);
    CHECK(close_rel(r.total, h0 + d01 + d12 + h2, 1e-14));

    /* The order matters. */
    {
        const char *reordered[] = {MARION, CENTRALIA, SALEM};
        CHECK_OK(geoloc_mileage(HOME, reordered, 3, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, NULL, 0, NULL, 0));
        CHECK_STR(r.text, "130.8");
    }

    /* Open route: ends at the last stop. */
    fill_sentinels(&r, legs, 8, skipped, 8);
    CHECK_OK(geoloc_mileage(HOME, three, 3, false, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, legs, 8, skipped, 8));
    CHECK_STR(r.text, "94.4");
    CHECK(r.leg_count == 3 && r.stops_used == 3);
    CHECK(legs[2].from == 1 && legs[2].to == 2 && legs[3].from == 99);
    CHECK(close_rel(r.total, h0 + d01 + d12, 1e-14));

    /* Other units. */
    {
        geoloc_mileage_result km;
        CHECK_OK(geoloc_mileage(HOME, three, 3, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, NULL, 0, NULL, 0));
        CHECK_OK(geoloc_mileage(HOME, three, 3, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, &km, NULL, 0, NULL, 0));
        CHECK(close_rel(km.total, r.total * 1.609344, 1e-13));
        CHECK_STR(km.text, "217.9");
    }

    /* Stops that are NULL, empty or malformed are skipped, with their indices. */
    fill_sentinels(&r, legs, 8, skipped, 8);
    CHECK_OK(geoloc_mileage(HOME, with_bad, 6, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, legs, 8, skipped, 8));
    CHECK_STR(r.text, "53.9");
    CHECK(r.stops_used == 2 && r.stops_skipped == 4 && r.leg_count == 3);
    CHECK(skipped[0] == 1 && skipped[1] == 2 && skipped[2] == 3 && skipped[3] == 4 && skipped[4] == 99);
    CHECK(legs[0].from == -1 && legs[0].to == 0);
    CHECK(legs[1].from == 0 && legs[1].to == 5);
    CHECK(legs[2].from == 5 && legs[2].to == -1);

    /* No stops, or every stop skipped: OK with "0". */
    fill_sentinels(&r, legs, 8, skipped, 8);
    CHECK_OK(geoloc_mileage(HOME, NULL, 0, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, legs, 8, skipped, 8));
    CHECK_STR(r.text, "0");
    CHECK(r.total == 0 && r.rounded == 0 && r.stops_used == 0 && r.stops_skipped == 0 && r.leg_count == 0);
    fill_sentinels(&r, legs, 8, skipped, 8);
    CHECK_OK(geoloc_mileage(HOME, all_bad, 3, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, legs, 8, skipped, 8));
    CHECK_STR(r.text, "0");
    CHECK(r.total == 0 && r.stops_used == 0 && r.stops_skipped == 3 && r.leg_count == 0);
    CHECK(skipped[0] == 0 && skipped[1] == 1 && skipped[2] == 2);
    CHECK(legs[0].from == 99);

    /* No home at all: GEOLOC_E_NO_HOME, result not written. */
    {
        const char *no_homes[] = {NULL, "", "   ", " \t\n"};
        for (i = 0; i < COUNT_OF(no_homes); i++) {
            fill_sentinels(&r, legs, 8, skipped, 8);
            CHECK_ERR(GEOLOC_E_NO_HOME, geoloc_mileage(no_homes[i], three, 3, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, legs, 8, skipped, 8));
            CHECK(result_untouched(&r));
            CHECK(legs[0].from == 99 && skipped[0] == 99);
        }
    }

    /* Home malformed: soft failure, text "0", no legs, every stop skipped and listed. */
    {
        const char *bad_homes[] = {"38.321991;-88.867400", "95,0", "abc", "nan,0", "1e999,0"};
        for (i = 0; i < COUNT_OF(bad_homes); i++) {
            fill_sentinels(&r, legs, 8, skipped, 8);
            CHECK_ERR(GEOLOC_E_HOME_INVALID, geoloc_mileage(bad_homes[i], three, 3, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, legs, 8, skipped, 8));
            CHECK_STR(r.text, "0");
            CHECK(r.total == 0 && r.rounded == 0);
            CHECK(r.stops_used == 0 && r.stops_skipped == 3 && r.leg_count == 0);
            CHECK(skipped[0] == 0 && skipped[1] == 1 && skipped[2] == 2 && skipped[3] == 99);
            CHECK(legs[0].from == 99);
        }
        fill_sentinels(&r, legs, 8, skipped, 8);
        CHECK_ERR(GEOLOC_E_HOME_INVALID, geoloc_mileage("38.3", NULL, 0, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, NULL, 0, NULL, 0));
        CHECK_STR(r.text, "0");
        CHECK(r.stops_skipped == 0);
        /* A hard failure wins over the soft one: the skipped list does not fit. */
        fill_sentinels(&r, legs, 8, skipped, 8);
        CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_mileage("38.3", three, 3, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, legs, 8, skipped, 2));
        CHECK_STR(r.text, "0");
        CHECK(r.stops_skipped == 3 && skipped[0] == 99);
    }

    /* Buffers too small: GEOLOC_E_BUFFER_TOO_SMALL with the result filled in and neither array
     * written. */
    fill_sentinels(&r, legs, 8, skipped, 8);
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_mileage(HOME, three, 3, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, legs, 3, skipped, 8));
    CHECK_STR(r.text, "135.4");
    CHECK(r.leg_count == 4 && r.stops_used == 3);
    CHECK(legs[0].from == 99 && skipped[0] == 99);
    fill_sentinels(&r, legs, 8, skipped, 8);
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_mileage(HOME, with_bad, 6, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, legs, 8, skipped, 3));
    CHECK_STR(r.text, "53.9");
    CHECK(r.stops_skipped == 4 && r.leg_count == 3);
    CHECK(legs[0].from == 99 && skipped[0] == 99);
    fill_sentinels(&r, legs, 8, skipped, 8);
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_mileage(HOME, with_bad, 6, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, legs, 1, skipped, 1));
    CHECK_STR(r.text, "53.9");
    CHECK(legs[0].from == 99 && skipped[0] == 99);
    /* Exactly enough room. */
    fill_sentinels(&r, legs, 8, skipped, 8);
    CHECK_OK(geoloc_mileage(HOME, with_bad, 6, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, legs, 3, skipped, 4));
    CHECK(legs[2].to == -1 && legs[3].from == 99 && skipped[3] == 4 && skipped[4] == 99);
    /* NULL arrays or capacity 0: not asked for. */
    fill_sentinels(&r, legs, 8, skipped, 8);
    CHECK_OK(geoloc_mileage(HOME, with_bad, 6, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, NULL, 8, NULL, 8));
    CHECK_OK(geoloc_mileage(HOME, with_bad, 6, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, legs, 0, skipped, 0));
    CHECK(legs[0].from == 99 && skipped[0] == 99);
    CHECK_STR(r.text, "53.9");

    /* Bad arguments. */
    fill_sentinels(&r, legs, 8, skipped, 8);
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_mileage(HOME, three, 3, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, NULL, legs, 8, skipped, 8));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_mileage(HOME, NULL, 3, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, legs, 8, skipped, 8));
    for (i = 0; i < COUNT_OF(HUGE_COUNTS); i++) {
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_mileage(HOME, three, HUGE_COUNTS[i], true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, legs, 8, skipped, 8));
    }
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_mileage(HOME, three, 3, true, INVALID_MODEL, GEOLOC_UNIT_MILES, &r, legs, 8, skipped, 8));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_mileage(HOME, three, 3, true, GEOLOC_MODEL_SPHERE, INVALID_UNIT, &r, legs, 8, skipped, 8));
    {
        /* WGS84: geodesic legs (GeographicLib 2.1: 135.2504146580852 miles). */
        geoloc_mileage_result w;
        CHECK_OK(geoloc_mileage(HOME, three, 3, true, GEOLOC_MODEL_WGS84, GEOLOC_UNIT_MILES, &w, NULL, 0, NULL, 0));
        CHECK(fabs(w.total - 135.2504146580852) <= 60e-9 / 1609.344);
        CHECK_STR(w.text, "135.3");
    }
    for (i = 0; i < COUNT_OF(BAD_UTF8); i++) {
        const char *stops[] = {CENTRALIA, BAD_UTF8[i]};
        CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_mileage(BAD_UTF8[i], three, 3, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, legs, 8, skipped, 8));
        CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_mileage(HOME, stops, 2, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, legs, 8, skipped, 8));
    }
    CHECK(result_untouched(&r));
    CHECK(legs[0].from == 99 && skipped[0] == 99);
}

static void test_eta(void)
{
    int64_t minutes = -1;

    CHECK_OK(geoloc_eta_minutes(30.0, 60.0, GEOLOC_UNIT_MILES, 1.0, &minutes));
    CHECK(minutes == 30);
    CHECK_OK(geoloc_eta_minutes(30.1, 60.0, GEOLOC_UNIT_MILES, 1.0, &minutes));
    CHECK(minutes == 31);
    CHECK_OK(geoloc_eta_minutes(0.0, 60.0, GEOLOC_UNIT_MILES, 1.0, &minutes));
    CHECK(minutes == 0);
    CHECK_OK(geoloc_eta_minutes(0.001, 60.0, GEOLOC_UNIT_MILES, 1.0, &minutes));
    CHECK(minutes == 1);
    /* The detour factor: 10 km at 50 km/h is 12 minutes, 15.6 -> 16 with roads 1.3 longer. */
    CHECK_OK(geoloc_eta_minutes(10.0, 50.0, GEOLOC_UNIT_KILOMETERS, 1.0, &minutes));
    CHECK(minutes == 12);
    CHECK_OK(geoloc_eta_minutes(10.0, 50.0, GEOLOC_UNIT_KILOMETERS, 1.3, &minutes));
    CHECK(minutes == 16);
    CHECK_OK(geoloc_eta_minutes(12.5, 45.0, GEOLOC_UNIT_MILES, 1.25, &minutes));
    CHECK(minutes == 21);
    /* The unit is shared by distance and speed. */
    CHECK_OK(geoloc_eta_minutes(30.0, 60.0, GEOLOC_UNIT_NAUTICAL_MILES, 1.0, &minutes));
    CHECK(minutes == 30);

    minutes = 42;
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_eta_minutes(30.0, 60.0, GEOLOC_UNIT_MILES, 1.0, NULL));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_eta_minutes(nan_value(), 60.0, GEOLOC_UNIT_MILES, 1.0, &minutes));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_eta_minutes(INFINITY, 60.0, GEOLOC_UNIT_MILES, 1.0, &minutes));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_eta_minutes(30.0, nan_value(), GEOLOC_UNIT_MILES, 1.0, &minutes));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_eta_minutes(30.0, INFINITY, GEOLOC_UNIT_MILES, 1.0, &minutes));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_eta_minutes(30.0, 60.0, GEOLOC_UNIT_MILES, nan_value(), &minutes));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_eta_minutes(30.0, 60.0, GEOLOC_UNIT_MILES, -INFINITY, &minutes));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_eta_minutes(-1.0, 60.0, GEOLOC_UNIT_MILES, 1.0, &minutes));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_eta_minutes(30.0, 0.0, GEOLOC_UNIT_MILES, 1.0, &minutes));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_eta_minutes(30.0, -5.0, GEOLOC_UNIT_MILES, 1.0, &minutes));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_eta_minutes(30.0, 60.0, GEOLOC_UNIT_MILES, 0.9, &minutes));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_eta_minutes(30.0, 60.0, GEOLOC_UNIT_MILES, -1.0, &minutes));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_eta_minutes(1e300, 1e-300, GEOLOC_UNIT_MILES, 1.0, &minutes));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_eta_minutes(DBL_MAX, 1.0, GEOLOC_UNIT_MILES, 1.0, &minutes));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_eta_minutes(30.0, 60.0, INVALID_UNIT, 1.0, &minutes));
    CHECK(minutes == 42);
}

/* ---------------------------------------------------------------------------------------------
 * The shared golden cases of this capability (tests/golden)
 * ------------------------------------------------------------------------------------------- */

static void row_mileage(char **raw, char **f)
{
    char *stops[MAX_LIST], *skipped_items[MAX_LIST], *leg_items[MAX_LIST];
    size_t n_stops = list_of(raw[2], stops, MAX_LIST);
    geoloc_status want = status_of(f[5]);
    geoloc_mileage_result r;
    geoloc_leg legs[MAX_LIST];
    size_t skipped[MAX_LIST];
    size_t n_skipped, n_legs, i;
    geoloc_status s;

    memset(&r, 0xAB, sizeof r);
    s = geoloc_mileage(f[1], (const char *const *)stops, n_stops, integer(f[3]) != 0,
                       GEOLOC_MODEL_SPHERE, unit_of(f[4]), &r, legs, MAX_LIST, skipped, MAX_LIST);
    CHECK_STATUS(s, want);
    check_message(s);
    if (s != want || want == GEOLOC_E_NO_HOME) return;

    ROW_CHECK_STR(r.text, f[6]);
    if (!ROW_CHECK(close_to(r.total, number(f[7]), 1e-12))) {
        fprintf(stderr, "    total %.17g want %s\n", r.total, f[7]);
    }
    ROW_CHECK(r.stops_used == (size_t)integer(f[8]));

    /* skipped and legs hold only numbers: comma- and semicolon-joined lists. */
    n_skipped = 0;
    if (f[9] != NULL && f[9][0] != '\0') n_skipped = split(f[9], ",", skipped_items, MAX_LIST);
    ROW_CHECK(r.stops_skipped == n_skipped);
    for (i = 0; i < n_skipped && i < r.stops_skipped; i++) {
        ROW_CHECK(skipped[i] == (size_t)integer(skipped_items[i]));
    }

    n_legs = 0;
    if (f[10] != NULL && f[10][0] != '\0') n_legs = split(f[10], ";", leg_items, MAX_LIST);
    ROW_CHECK(r.leg_count == n_legs);
    for (i = 0; i < n_legs && i < r.leg_count; i++) {
        long long from, to;
        double d;
        int used = 0;
        if (sscanf(leg_items[i], "%lld>%lld=%lf%n", &from, &to, &d, &used) != 3 ||
            leg_items[i][used] != '\0') {
            bad_value("not a leg (from>to=distance)", leg_items[i]);
            continue;
        }
        if (!ROW_CHECK(legs[i].from == from && legs[i].to == to && close_to(legs[i].distance, d, 1e-12))) {
            fprintf(stderr, "    leg %zu: got %lld>%lld=%.17g want %s\n", i, (long long)legs[i].from,
                    (long long)legs[i].to, legs[i].distance, leg_items[i]);
        }
    }
}

static void row_eta(char **f)
{
    geoloc_status want = status_of(f[4]);
    int64_t minutes = -12345;
    geoloc_status s = geoloc_eta_minutes(number(f[0]), number(f[1]), unit_of(f[2]), number(f[3]), &minutes);
    CHECK_STATUS(s, want);
    check_message(s);
    if (want == GEOLOC_OK && s == GEOLOC_OK) {
        if (!ROW_CHECK(minutes == integer(f[5]))) fprintf(stderr, "    got %lld\n", (long long)minutes);
    } else if (want != GEOLOC_OK) {
        ROW_CHECK(minutes == -12345);
    }
}

int main(int argc, char **argv)
{
    const struct golden_file files[] = {
        {"mileage.tsv",
         "name\thome\tstops\tround_trip\tunit\tstatus\ttext\ttotal\tstops_used\tskipped\tlegs", NULL,
         row_mileage},
        {"eta.tsv", "distance\tspeed_per_hour\tunit\tdetour\tstatus\tminutes", row_eta, NULL},
    };
    int failed_files;

    /* One stream order for CTest's merged log: failures next to what they belong to. */
    setvbuf(stdout, NULL, _IONBF, 0);
    test_route_length();
    test_mileage();
    test_eta();
    failed_files = golden_run(argc, argv, files, sizeof files / sizeof files[0]);
    (void)failed_files;
    return check_summary("test_route");
}
