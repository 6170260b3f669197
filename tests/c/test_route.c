/*
 * test_route.c -- the C door's tests of routes: path length, the seed's round-trip mileage
 * rules, ETA, the golden mileage and ETA cases, and the best order on the shared instances and
 * on TSPLIB instances against their published optima.
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
 * The best order of a day's stops: the shared instances of tests/route (proven optima), brute
 * force over every order of small asymmetric matrices, and every bad argument
 * ------------------------------------------------------------------------------------------- */

static size_t read_instance(const char *dir, const char *name, geoloc_coord *pts, size_t cap)
{
    char path[4096], line[256];
    size_t n = 0;
    FILE *f;
    snprintf(path, sizeof path, "%s/instances/%s.csv", dir, name);
    f = fopen(path, "r");
    if (!CHECK(f != NULL)) return 0;
    if (!fgets(line, sizeof line, f)) line[0] = '\0'; /* the header */
    while (n < cap && fgets(line, sizeof line, f)) {
        int id;
        double lat, lon;
        if (sscanf(line, "%d,%lf,%lf", &id, &lat, &lon) == 3) pts[n++] = (geoloc_coord){lat, lon};
    }
    fclose(f);
    return n;
}

static void test_best_order_shared_instances(const char *route_dir)
{
    char path[4096], line[512];
    FILE *f;
    int exact_checked = 0, large_checked = 0;
    snprintf(path, sizeof path, "%s/optimal.csv", route_dir);
    f = fopen(path, "r");
    if (!CHECK(f != NULL)) return;
    if (!fgets(line, sizeof line, f)) line[0] = '\0';
    while (fgets(line, sizeof line, f)) {
        char name[64], s1[32], s2[32], s3[32];
        int n;
        double given, closed, open_any, open_end;
        geoloc_coord pts[128];
        size_t order[128], needed = 0, count;
        double legs[129];
        geoloc_order_result r;
        geoloc_route_end ends[3] = {GEOLOC_ROUTE_END_HOME, GEOLOC_ROUTE_END_ANYWHERE, GEOLOC_ROUTE_END_STOP};
        double want[3];
        double tol;
        int k;
        if (sscanf(line, "%63[^,],%d,%lf,%lf,%31[^,],%lf,%31[^,],%lf,%31[^,\n]", name, &n, &given, &closed, s1,
                   &open_any, s2, &open_end, s3) != 9) continue;
        count = read_instance(route_dir, name, pts, 128);
        if (!CHECK(count == (size_t)n + 1)) continue;
        want[0] = closed; want[1] = open_any; want[2] = open_end;
        for (k = 0; k < 3; k++) {
            CHECK_OK(geoloc_best_order(pts[0], pts + 1, (size_t)n, ends[k], (size_t)n - 1, GEOLOC_MODEL_SPHERE,
                                       GEOLOC_UNIT_METERS, NULL, order, 128, legs, 129, &needed, &r));
            tol = n <= 16 ? 1e-3 : want[k] * 1e-3;
            CHECK(r.total >= want[k] - 1e-3 && r.total <= want[k] + tol);
            CHECK(r.proven_optimal == (n <= 16));
            CHECK(r.stop_count == (size_t)n && needed == r.leg_count);
            CHECK(r.leg_count == (size_t)n + (k == 0));
            if (k == 0) CHECK(fabs(r.given_total - given) <= 1e-3);
            if (k == 2) CHECK(order[n - 1] == (size_t)n - 1);
        }
        if (n <= 16) exact_checked++; else large_checked++;
    }
    fclose(f);
    CHECK(exact_checked == 100 && large_checked == 5);
}

static double brute_force(const double *m, int size, int end)
{
    int n = size - 1, perm[8], i;
    double best = INFINITY;
    for (i = 0; i < n; i++) perm[i] = i;
    if (n == 0) return 0;
    for (;;) {
        if (end < 2 || perm[n - 1] == n - 1) {
            double s = 0;
            int prev = 0;
            for (i = 0; i < n; i++) { s += m[prev * size + perm[i] + 1]; prev = perm[i] + 1; }
            if (end == 0) s += m[prev * size];
            if (s < best) best = s;
        }
        /* next permutation */
        i = n - 2;
        while (i >= 0 && perm[i] > perm[i + 1]) i--;
        if (i < 0) break;
        {
            int j = n - 1, t;
            while (perm[j] < perm[i]) j--;
            t = perm[i]; perm[i] = perm[j]; perm[j] = t;
            for (j = i + 1, t = n - 1; j < t; j++, t--) { int u = perm[j]; perm[j] = perm[t]; perm[t] = u; }
        }
    }
    return best;
}

static void test_best_order_matrix_brute_force(void)
{
    unsigned seed = 12345;
    int n, rep, end;
    for (n = 0; n <= 7; n++) {
        for (rep = 0; rep < 3; rep++) {
            int size = n + 1, i, j;
            double m[64];
            for (i = 0; i < size; i++)
                for (j = 0; j < size; j++) {
                    seed = seed * 1103515245u + 12345u;
                    m[i * size + j] = i == j ? 0 : (double)((seed >> 8) % 1000) / 10.0;
                }
            if (n >= 2) m[1 * size + 2] = 0;
            for (end = 0; end < (n ? 3 : 2); end++) {
                size_t order[8], needed;
                geoloc_order_result r;
                geoloc_order_options o = {GEOLOC_ORDER_EXACT, 0, 0, 0};
                double want = brute_force(m, size, end);
                CHECK_OK(geoloc_best_order_matrix(m, (size_t)size, (size_t)size, (geoloc_route_end)end, (size_t)n - 1, &o,
                                                  order, 8, NULL, 0, &needed, &r));
                CHECK(fabs(r.total - want) <= 1e-9 && r.proven_optimal);
                o.mode = GEOLOC_ORDER_HEURISTIC;
                o.iterations = 300;
                CHECK_OK(geoloc_best_order_matrix(m, (size_t)size, (size_t)size, (geoloc_route_end)end, (size_t)n - 1, &o,
                                                  order, 8, NULL, 0, &needed, &r));
                CHECK(fabs(r.total - want) <= 1e-9);
            }
        }
    }
}

/* Auto mode above GEOLOC_ORDER_AUTO_EXACT_MAX: up to GEOLOC_ORDER_AUTO_PROOF_MAX stops on
 * symmetric costs the capped exact search proves the order (no longer than a long heuristic
 * search; equal to the exact search where that runs); one-way costs above
 * GEOLOC_ORDER_EXACT_MAX are never claimed proven. */
static void test_best_order_auto_proof(void)
{
    unsigned seed = 777;
    int n, proven = 0, tried = 0;
    for (n = GEOLOC_ORDER_AUTO_EXACT_MAX + 1; n <= GEOLOC_ORDER_AUTO_PROOF_MAX; n++) {
        geoloc_coord home, stops[GEOLOC_ORDER_AUTO_PROOF_MAX];
        size_t order[GEOLOC_ORDER_AUTO_PROOF_MAX], needed;
        geoloc_order_result a, h, e;
        geoloc_order_options longer = {GEOLOC_ORDER_HEURISTIC, 1000, 0, 1}, exact = {GEOLOC_ORDER_EXACT, 0, 0, 0};
        int i;
        seed = seed * 1103515245u + 12345u;
        home = (geoloc_coord){41 + (double)(seed >> 8 & 1023) / 2048, -87 - (double)(seed >> 18 & 1023) / 2048};
        for (i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            stops[i] = (geoloc_coord){41 + (double)(seed >> 8 & 1023) / 2048, -87 - (double)(seed >> 18 & 1023) / 2048};
        }
        CHECK_OK(geoloc_best_order(home, stops, (size_t)n, GEOLOC_ROUTE_END_HOME, 0, GEOLOC_MODEL_SPHERE,
                                   GEOLOC_UNIT_METERS, NULL, order, (size_t)n, NULL, 0, &needed, &a));
        CHECK_OK(geoloc_best_order(home, stops, (size_t)n, GEOLOC_ROUTE_END_HOME, 0, GEOLOC_MODEL_SPHERE,
                                   GEOLOC_UNIT_METERS, &longer, order, (size_t)n, NULL, 0, &needed, &h));
        CHECK(a.total <= h.total * (1 + 1e-12));
        if (n <= GEOLOC_ORDER_EXACT_MAX) {
            CHECK_OK(geoloc_best_order(home, stops, (size_t)n, GEOLOC_ROUTE_END_HOME, 0, GEOLOC_MODEL_SPHERE,
                                       GEOLOC_UNIT_METERS, &exact, order, (size_t)n, NULL, 0, &needed, &e));
            CHECK(fabs(a.total - e.total) <= 1e-9 * e.total);
        }
        tried++;
        proven += a.proven_optimal;
    }
    CHECK(proven * 4 >= tried * 3);
    {
        int size = GEOLOC_ORDER_EXACT_MAX + 2, i, j;
        double m[(GEOLOC_ORDER_EXACT_MAX + 2) * (GEOLOC_ORDER_EXACT_MAX + 2)];
        size_t order[GEOLOC_ORDER_EXACT_MAX + 1], needed;
        geoloc_order_result r;
        for (i = 0; i < size; i++)
            for (j = 0; j < size; j++) {
                seed = seed * 1103515245u + 12345u;
                m[i * size + j] = i == j ? 0 : 1 + (double)((seed >> 8) % 1000);
            }
        CHECK_OK(geoloc_best_order_matrix(m, (size_t)size, (size_t)size, GEOLOC_ROUTE_END_HOME, 0, NULL, order,
                                          (size_t)size - 1, NULL, 0, &needed, &r));
        CHECK(!r.proven_optimal);
    }
}

static void test_best_order_errors(void)
{
    geoloc_coord home = {38.3, -88.9}, stops[20];
    size_t order[32], needed = 77;
    double legs[32], m[9] = {0, 1, 2, 1, 0, 1, 2, 1, 0};
    geoloc_order_result r, sentinel;
    geoloc_order_options exact = {GEOLOC_ORDER_EXACT, 0, 0, 0}, bad;
    int i;
    for (i = 0; i < 20; i++) stops[i] = (geoloc_coord){38 + i * 0.01, -89};
    memset(&sentinel, 0x5a, sizeof sentinel);
    r = sentinel;
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_best_order(home, stops, 20, GEOLOC_ROUTE_END_HOME, 0, GEOLOC_MODEL_SPHERE,
                                                          GEOLOC_UNIT_METERS, &exact, order, 32, legs, 32, &needed, &r));
    CHECK(memcmp(&r, &sentinel, sizeof r) == 0);
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_best_order(home, stops, 3, GEOLOC_ROUTE_END_STOP, 3, GEOLOC_MODEL_SPHERE,
                                                       GEOLOC_UNIT_METERS, NULL, order, 32, legs, 32, &needed, &r));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_best_order(home, stops, 3, (geoloc_route_end)7, 0, GEOLOC_MODEL_SPHERE,
                                                           GEOLOC_UNIT_METERS, NULL, order, 32, legs, 32, &needed, &r));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_best_order(home, NULL, 3, GEOLOC_ROUTE_END_HOME, 0, GEOLOC_MODEL_SPHERE,
                                                        GEOLOC_UNIT_METERS, NULL, order, 32, legs, 32, &needed, &r));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_best_order(home, stops, 3, GEOLOC_ROUTE_END_HOME, 0, GEOLOC_MODEL_SPHERE,
                                                        GEOLOC_UNIT_METERS, NULL, order, 32, legs, 32, NULL, &r));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_best_order(home, stops, (size_t)-1, GEOLOC_ROUTE_END_HOME, 0, GEOLOC_MODEL_SPHERE,
                                                          GEOLOC_UNIT_METERS, NULL, order, 32, legs, 32, &needed, &r));
    stops[1].lat = NAN;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_best_order(home, stops, 3, GEOLOC_ROUTE_END_HOME, 0, GEOLOC_MODEL_SPHERE,
                                                     GEOLOC_UNIT_METERS, NULL, order, 32, legs, 32, &needed, &r));
    stops[1].lat = 91;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_best_order(home, stops, 3, GEOLOC_ROUTE_END_HOME, 0, GEOLOC_MODEL_SPHERE,
                                                       GEOLOC_UNIT_METERS, NULL, order, 32, legs, 32, &needed, &r));
    stops[1].lat = 38.01;
    bad = (geoloc_order_options){GEOLOC_ORDER_HEURISTIC, -1, 0, 0};
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_best_order(home, stops, 3, GEOLOC_ROUTE_END_HOME, 0, GEOLOC_MODEL_SPHERE,
                                                       GEOLOC_UNIT_METERS, &bad, order, 32, legs, 32, &needed, &r));
    bad = (geoloc_order_options){GEOLOC_ORDER_HEURISTIC, 0, NAN, 0};
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_best_order(home, stops, 3, GEOLOC_ROUTE_END_HOME, 0, GEOLOC_MODEL_SPHERE,
                                                     GEOLOC_UNIT_METERS, &bad, order, 32, legs, 32, &needed, &r));
    bad = (geoloc_order_options){(geoloc_order_mode)9, 0, 0, 0};
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_best_order(home, stops, 3, GEOLOC_ROUTE_END_HOME, 0, GEOLOC_MODEL_SPHERE,
                                                           GEOLOC_UNIT_METERS, &bad, order, 32, legs, 32, &needed, &r));
    /* Too small an array: the result and needed are filled in, the arrays are not written. */
    order[0] = 99;
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_best_order(home, stops, 3, GEOLOC_ROUTE_END_HOME, 0, GEOLOC_MODEL_SPHERE,
                                                           GEOLOC_UNIT_METERS, NULL, order, 2, legs, 32, &needed, &r));
    CHECK(needed == 4 && r.stop_count == 3 && order[0] == 99);
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_best_order(home, stops, 3, GEOLOC_ROUTE_END_HOME, 0, GEOLOC_MODEL_SPHERE,
                                                           GEOLOC_UNIT_METERS, NULL, order, 3, legs, 3, &needed, &r));
    /* Matrices. */
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_best_order_matrix(m, 3, 2, GEOLOC_ROUTE_END_HOME, 0, NULL, order, 32, NULL, 0, &needed, &r));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_best_order_matrix(m, 0, 0, GEOLOC_ROUTE_END_HOME, 0, NULL, order, 32, NULL, 0, &needed, &r));
    m[1] = NAN;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_best_order_matrix(m, 3, 3, GEOLOC_ROUTE_END_HOME, 0, NULL, order, 32, NULL, 0, &needed, &r));
    m[1] = -1;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_best_order_matrix(m, 3, 3, GEOLOC_ROUTE_END_HOME, 0, NULL, order, 32, NULL, 0, &needed, &r));
    m[1] = 1;
    m[0] = NAN; /* the diagonal is ignored */
    CHECK_OK(geoloc_best_order_matrix(m, 3, 3, GEOLOC_ROUTE_END_HOME, 0, NULL, order, 32, NULL, 0, &needed, &r));
    CHECK(r.total == 4 && strcmp(r.text, "4.0") == 0);
    CHECK_OK(geoloc_best_order_matrix(NULL, 1, 1, GEOLOC_ROUTE_END_HOME, 0, NULL, NULL, 0, NULL, 0, &needed, &r));
    CHECK(r.total == 0 && needed == 0 && strcmp(r.text, "0") == 0);
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_best_order_matrix(m, GEOLOC_ORDER_MAX_STOPS + 2, GEOLOC_ORDER_MAX_STOPS + 2,
                                                                 GEOLOC_ROUTE_END_HOME, 0, NULL, order, 32, NULL, 0, &needed, &r));
}

/* Above GEOLOC_ORDER_WGS84_MATRIX_MAX stops the search's sphere matrix comes from the batch
 * haversine: the legs are still each one geoloc_distance, bit for bit, on both models and for
 * every kind of route. A symmetric matrix that needs no change is searched in place, one that
 * does (a diagonal, a free return column) is copied: the same order either way. */
static void test_best_order_above_matrix_limit(void)
{
    enum { N = 300, M = 281 };
    static geoloc_coord p[N + 1];
    static size_t order[N], order2[N];
    static double legs[N + 1], m[M * M], m2[M * M];
    const geoloc_route_end ends[3] = {GEOLOC_ROUTE_END_HOME, GEOLOC_ROUTE_END_ANYWHERE, GEOLOC_ROUTE_END_STOP};
    geoloc_order_options opt = {GEOLOC_ORDER_AUTO, 500, 0, 1};
    geoloc_order_result r, r2;
    size_t needed, i, j;
    int model, e;
    uint64_t x = 88172645463325252ULL;

    for (i = 0; i <= N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        p[i].lat = 30 + 15.0 * (double)(x % 1000003) / 1000003.0;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        p[i].lon = -120 + 45.0 * (double)(x % 1000003) / 1000003.0;
    }
    for (model = 0; model < 2; model++) {
        for (e = 0; e < 3; e++) {
            size_t legs_n, k = 0;
            double d, sum = 0;
            int same = 1;
            CHECK_OK(geoloc_best_order(p[0], p + 1, N, ends[e], 17, (geoloc_model)model, GEOLOC_UNIT_METERS, &opt,
                                       order, N, legs, N + 1, &needed, &r));
            legs_n = e == 0 ? N + 1 : N;
            CHECK(needed == legs_n && r.stop_count == N);
            for (i = 0; i < legs_n; i++) {
                geoloc_coord a = i == 0 ? p[0] : p[order[i - 1] + 1];
                geoloc_coord b = i == N ? p[0] : p[order[i] + 1];
                same &= geoloc_distance(a, b, (geoloc_model)model, GEOLOC_UNIT_METERS, &d) == GEOLOC_OK;
                same &= d == legs[i];
                sum += legs[i];
                k += i < N ? order[i] : 0;
            }
            CHECK(same);
            CHECK(fabs(r.total - sum) <= 1e-9 * sum);
            CHECK(k == (size_t)N * (N - 1) / 2);
            if (e == 2) CHECK(order[N - 1] == 17);
        }
    }
    for (i = 0; i < M; i++) {
        for (j = 0; j < M; j++) {
            double d = 0;
            if (i != j) (void)geoloc_distance(p[i], p[j], GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &d);
            m[i * M + j] = d;
        }
    }
    for (e = 0; e < 2; e++) {
        memcpy(m2, m, sizeof m);
        for (i = 0; i < M; i++) m2[i * M + i] = 7.0;
        if (e == 1) {
            for (i = 1; i < M; i++) m2[i * M] = 0.0;
        }
        opt.iterations = 400;
        opt.seed = 3;
        CHECK_OK(geoloc_best_order_matrix(m, M, M, ends[e], 0, &opt, order, N, NULL, 0, &needed, &r));
        CHECK_OK(geoloc_best_order_matrix(m2, M, M, ends[e], 0, &opt, order2, N, NULL, 0, &needed, &r2));
        CHECK(r.total == r2.total && memcmp(order, order2, (M - 1) * sizeof order[0]) == 0);
    }
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

/* TSPLIB instances with published optima (tests/route/tsplib, from the tsplib95 0.7.1 sdist):
 * the cost matrix by TSPLIB's own distances (GEO: DDD.MM degrees and minutes, PI = 3.141592,
 * RRR = 6378.388, truncated after adding 1; ATT; EUC_2D; EXPLICIT LOWER_DIAG_ROW), node 1 home.
 * Returns the matrix (n * n, malloc'd) and n, or NULL. */
static double *tsplib_matrix(const char *route_dir, const char *name, size_t *n_out)
{
    char path[4096], line[512], kind[32] = "";
    size_t n = 0, k = 0, i, j;
    double *xy = NULL, *m = NULL;
    int section = 0; /* 1 coordinates, 2 weights */
    FILE *f;
    snprintf(path, sizeof path, "%s/tsplib/%s.tsp", route_dir, name);
    f = fopen(path, "r");
    if (!f) return NULL;
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (section == 0 && colon) {
            if (strncmp(line, "DIMENSION", 9) == 0) n = (size_t)strtoul(colon + 1, NULL, 10);
            if (strncmp(line, "EDGE_WEIGHT_TYPE", 16) == 0) sscanf(colon + 1, "%31s", kind);
            continue;
        }
        if (strstr(line, "NODE_COORD_SECTION")) { section = 1; xy = calloc(2 * n, sizeof *xy); continue; }
        if (strstr(line, "EDGE_WEIGHT_SECTION")) { section = 2; m = calloc(n * n, sizeof *m); continue; }
        if (strncmp(line, "EOF", 3) == 0 || n == 0) break;
        if (section == 1 && xy && k < n) {
            double id, x, y;
            if (sscanf(line, "%lf %lf %lf", &id, &x, &y) == 3) { xy[2 * k] = x; xy[2 * k + 1] = y; k++; }
        } else if (section == 2 && m) {
            char *p = line, *end;
            for (;;) {
                double w = strtod(p, &end);
                if (end == p) break;
                p = end;
                /* LOWER_DIAG_ROW: row i holds columns 0..i. */
                i = 0;
                while ((i + 1) * (i + 2) / 2 <= k) i++;
                j = k - i * (i + 1) / 2;
                if (i < n) m[i * n + j] = m[j * n + i] = w;
                k++;
            }
        }
    }
    fclose(f);
    if (xy) {
        m = calloc(n * n, sizeof *m);
        for (i = 0; m && i < n; i++) {
            for (j = 0; j < n; j++) {
                double d = 0, dx = xy[2 * i] - xy[2 * j], dy = xy[2 * i + 1] - xy[2 * j + 1];
                if (i == j) { m[i * n + j] = 0; continue; }
                if (strcmp(kind, "GEO") == 0) {
                    double r[4], q1, q2, q3;
                    const double c[4] = {xy[2 * i], xy[2 * i + 1], xy[2 * j], xy[2 * j + 1]};
                    int t;
                    for (t = 0; t < 4; t++) {
                        double deg = trunc(c[t]);
                        r[t] = 3.141592 * (deg + 5.0 * (c[t] - deg) / 3.0) / 180.0;
                    }
                    q1 = cos(r[1] - r[3]);
                    q2 = cos(r[0] - r[2]);
                    q3 = cos(r[0] + r[2]);
                    d = trunc(6378.388 * acos(0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3)) + 1.0);
                } else if (strcmp(kind, "ATT") == 0) {
                    double rij = sqrt((dx * dx + dy * dy) / 10.0), tij = trunc(rij + 0.5);
                    d = tij < rij ? tij + 1 : tij;
                } else {
                    d = trunc(sqrt(dx * dx + dy * dy) + 0.5);
                }
                m[i * n + j] = d;
            }
        }
        free(xy);
    }
    *n_out = n;
    return m;
}

static void test_best_order_tsplib(const char *route_dir)
{
    static const struct { const char *name; double optimum; int has_tour; } cases[] = {
        {"gr17", 2085, 0}, {"pcb442", 50778, 1}, {"att532", 27686, 0}, {"gr666", 294358, 1},
    };
    size_t c;
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t n = 0, needed = 0, i, *order;
        double *m = tsplib_matrix(route_dir, cases[c].name, &n), sum;
        geoloc_order_result r;
        if (!CHECK(m != NULL && n > 2)) { free(m); continue; }
        if (cases[c].has_tour) {
            /* The published optimal tour measures the optimum: the distances are TSPLIB's. */
            char path[4096], line[64];
            size_t first = SIZE_MAX, prev = SIZE_MAX, count = 0;
            FILE *f;
            snprintf(path, sizeof path, "%s/tsplib/%s.opt.tour", route_dir, cases[c].name);
            f = fopen(path, "r");
            sum = 0;
            if (CHECK(f != NULL)) {
                int on = 0;
                while (fgets(line, sizeof line, f)) {
                    long v;
                    if (strncmp(line, "TOUR_SECTION", 12) == 0) { on = 1; continue; }
                    if (!on) continue;
                    v = strtol(line, NULL, 10);
                    if (v < 1 || (size_t)v > n) break;
                    if (prev != SIZE_MAX) sum += m[prev * n + (size_t)(v - 1)]; else first = (size_t)(v - 1);
                    prev = (size_t)(v - 1);
                    count++;
                }
                fclose(f);
                if (prev != SIZE_MAX) sum += m[prev * n + first];
                CHECK(count == n && sum == cases[c].optimum);
            }
        }
        order = malloc(n * sizeof *order);
        if (CHECK_OK(geoloc_best_order_matrix(m, n, n, GEOLOC_ROUTE_END_HOME, 0, NULL, order, n, NULL, 0, &needed, &r))) {
            size_t prev = 0;
            sum = 0;
            for (i = 0; i + 1 < n; i++) {
                sum += m[prev * n + order[i] + 1];
                prev = order[i] + 1;
            }
            sum += m[prev * n];
            CHECK(needed == n && close_rel(sum, r.total, 1e-12)); /* n legs: a round trip */
            /* Never below the proven optimum; gr17 (16 stops) exact; the others within 0.5%. */
            if (n <= 17) CHECK(r.total == cases[c].optimum);
            else CHECK(r.total >= cases[c].optimum && r.total <= cases[c].optimum * 1.005);
            printf("tsplib %s: %.0f (optimum %.0f)\n", cases[c].name, r.total, cases[c].optimum);
        }
        free(order);
        free(m);
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
    test_best_order_shared_instances(GEOLOC_ROUTE_DIR);
    test_best_order_matrix_brute_force();
    test_best_order_tsplib(GEOLOC_ROUTE_DIR);
    test_best_order_auto_proof();
    test_best_order_errors();
    test_best_order_above_matrix_limit();
    failed_files = golden_run(argc, argv, files, sizeof files / sizeof files[0]);
    (void)failed_files;
    return check_summary("test_route");
}
