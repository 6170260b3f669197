/*
 * test_distance.c -- the C door's tests of distance: one pair and batches on the sphere
 * and WGS84, the WGS84 geodesics, and the golden distance and GeographicLib geodesic cases.
 *
 *   usage: test_distance GOLDEN_DIR
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
 * Distance
 * ------------------------------------------------------------------------------------------- */

static void test_distance(void)
{
    static const double meters_per[] = {1.0, 1000.0, 1609.344, 1852.0, 0.3048};
    const double half_circumference = 3.14159265358979323846 * GEOLOC_EARTH_MEAN_RADIUS_M;
    double d = -1, back = -1, m = -1;
    geoloc_coord a = {0, 0}, b = {0, 180}, bad = {0, 0};
    int u;

    /* Mount Vernon IL to New York, haversine on R = 6371008.8 m (independent oracle). */
    CHECK_OK(geoloc_distance(MOUNT_VERNON, NEW_YORK, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &m));
    CHECK(close_rel(m, 1300528.9964986942397, 1e-12));
    CHECK_OK(geoloc_distance(NEW_YORK, MOUNT_VERNON, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &back));
    CHECK(close_rel(back, m, 1e-15));
    for (u = GEOLOC_UNIT_METERS; u <= GEOLOC_UNIT_FEET; u++) {
        CHECK_OK(geoloc_distance(MOUNT_VERNON, NEW_YORK, GEOLOC_MODEL_SPHERE, (geoloc_unit)u, &d));
        CHECK(close_rel(d, m / meters_per[u], 1e-13));
    }
    CHECK_OK(geoloc_distance(MOUNT_VERNON, MOUNT_VERNON, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &d));
    CHECK(d == 0.0);

    /* Antipodes: half the circumference, and never more. */
    CHECK_OK(geoloc_distance(a, b, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &d));
    CHECK(close_rel(d, half_circumference, 1e-12));
    a.lat = 90;
    b.lat = -90;
    CHECK_OK(geoloc_distance(a, b, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &d));
    CHECK(close_rel(d, half_circumference, 1e-12));
    CHECK(d <= 20015115.0);

    /* Across the antimeridian: one degree of the equator. */
    a.lat = 0;
    a.lon = 179.5;
    b.lat = 0;
    b.lon = -179.5;
    CHECK_OK(geoloc_distance(a, b, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &d));
    CHECK(close_rel(d, half_circumference / 180.0, 1e-12));

    /* Errors leave *out alone. */
    d = 42.0;
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_distance(MOUNT_VERNON, NEW_YORK, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, NULL));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_distance(MOUNT_VERNON, NEW_YORK, INVALID_MODEL, GEOLOC_UNIT_METERS, &d));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_distance(MOUNT_VERNON, NEW_YORK, GEOLOC_MODEL_SPHERE, INVALID_UNIT, &d));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_distance(MOUNT_VERNON, NEW_YORK, GEOLOC_MODEL_SPHERE, (geoloc_unit)-1, &d));
    {
        double w = -1; /* WGS84 is the geodesic: GeographicLib 2.1 gives 1303534.6240039296 m */
        CHECK_OK(geoloc_distance(MOUNT_VERNON, NEW_YORK, GEOLOC_MODEL_WGS84, GEOLOC_UNIT_METERS, &w));
        CHECK(fabs(w - 1303534.6240039296) <= 15e-9);
    }
    bad.lat = nan_value();
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_distance(bad, NEW_YORK, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &d));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_distance(NEW_YORK, bad, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &d));
    bad.lat = 0;
    bad.lon = INFINITY;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_distance(bad, NEW_YORK, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &d));
    bad.lon = -INFINITY;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_distance(NEW_YORK, bad, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &d));
    bad.lon = 0;
    bad.lat = 90.0000001;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_distance(bad, NEW_YORK, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &d));
    bad.lat = -90.0000001;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_distance(NEW_YORK, bad, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &d));
    CHECK(d == 42.0);
}

static void test_distance_batch(void)
{
    enum { N = 6 };
    geoloc_coord a[N], b[N], bad[N];
    double out[N], one;
    const geoloc_coord *points = (const geoloc_coord *)&TOUR_POINTS[0][0];
    size_t i, k;

    CHECK(sizeof(geoloc_coord) == 2 * sizeof(double));
    for (i = 0; i < N; i++) {
        a[i] = points[i];
        b[i] = points[(i + 1) % N];
    }

    /* Batch results agree with the scalar ones to 1e-11 relative (the vectorised sphere kernel
     * differs in the last bits), in every unit. */
    for (k = GEOLOC_UNIT_METERS; k <= GEOLOC_UNIT_FEET; k++) {
        geoloc_unit unit = (geoloc_unit)k;
        CHECK_OK(geoloc_distance_pairs(a, b, N, GEOLOC_MODEL_SPHERE, unit, out));
        for (i = 0; i < N; i++) {
            CHECK_OK(geoloc_distance(a[i], b[i], GEOLOC_MODEL_SPHERE, unit, &one));
            CHECK(fabs(out[i] - one) <= 1e-11 * one);
        }
        CHECK_OK(geoloc_distance_one_to_many(MOUNT_VERNON, points, N, GEOLOC_MODEL_SPHERE, unit, out));
        for (i = 0; i < N; i++) {
            CHECK_OK(geoloc_distance(MOUNT_VERNON, points[i], GEOLOC_MODEL_SPHERE, unit, &one));
            CHECK(fabs(out[i] - one) <= 1e-11 * one);
        }
    }

    /* Longitudes outside [-180, 180) are reduced as the scalar function does. */
    {
        geoloc_coord wa[3] = {{10.0, 540.0}, {-20.0, -190.5}, {45.0, 1e6}};
        geoloc_coord wb[3] = {{11.0, -179.0}, {-21.0, 359.0}, {46.0, -1e6}};
        for (i = 0; i < 3; i++) {
            CHECK_OK(geoloc_distance_pairs(wa, wb, 3, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, out));
            CHECK_OK(geoloc_distance(wa[i], wb[i], GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &one));
            CHECK(fabs(out[i] - one) <= 1e-11 * one);
            CHECK_OK(geoloc_distance_one_to_many(wa[0], wb, 3, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, out));
            CHECK_OK(geoloc_distance(wa[0], wb[i], GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &one));
            CHECK(fabs(out[i] - one) <= 1e-11 * one);
        }
    }

    /* n == 0: NULL arrays are fine. */
    CHECK_OK(geoloc_distance_pairs(NULL, NULL, 0, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, NULL));
    CHECK_OK(geoloc_distance_one_to_many(MOUNT_VERNON, NULL, 0, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, NULL));

    /* Errors write nothing. */
    for (i = 0; i < N; i++) out[i] = -1.0;
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_distance_pairs(NULL, b, N, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, out));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_distance_pairs(a, NULL, N, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, out));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_distance_pairs(a, b, N, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_distance_one_to_many(MOUNT_VERNON, NULL, N, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, out));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_distance_one_to_many(MOUNT_VERNON, points, N, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, NULL));
    for (i = 0; i < COUNT_OF(HUGE_COUNTS); i++) {
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_distance_pairs(a, b, HUGE_COUNTS[i], GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, out));
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_distance_one_to_many(MOUNT_VERNON, points, HUGE_COUNTS[i], GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, out));
    }
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_distance_pairs(a, b, N, INVALID_MODEL, GEOLOC_UNIT_METERS, out));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_distance_pairs(a, b, N, GEOLOC_MODEL_SPHERE, INVALID_UNIT, out));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_distance_one_to_many(MOUNT_VERNON, points, N, INVALID_MODEL, GEOLOC_UNIT_METERS, out));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_distance_one_to_many(MOUNT_VERNON, points, N, GEOLOC_MODEL_SPHERE, INVALID_UNIT, out));
    {
        /* WGS84 works: batch results equal the scalar geodesic exactly. */
        double w[N], w1;
        CHECK_OK(geoloc_distance_pairs(a, b, N, GEOLOC_MODEL_WGS84, GEOLOC_UNIT_METERS, w));
        for (i = 0; i < N; i++) {
            CHECK_OK(geoloc_distance(a[i], b[i], GEOLOC_MODEL_WGS84, GEOLOC_UNIT_METERS, &w1));
            CHECK(w[i] == w1);
        }
        CHECK_OK(geoloc_distance_one_to_many(MOUNT_VERNON, points, N, GEOLOC_MODEL_WGS84, GEOLOC_UNIT_METERS, w));
        for (i = 0; i < N; i++) {
            CHECK_OK(geoloc_distance(MOUNT_VERNON, points[i], GEOLOC_MODEL_WGS84, GEOLOC_UNIT_METERS, &w1));
            CHECK(w[i] == w1);
        }
    }

    /* A bad point anywhere: nothing is written, and the message names the first bad index. */
    memcpy(bad, a, sizeof bad);
    bad[3].lat = nan_value();
    bad[4].lat = 91;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_distance_pairs(bad, b, N, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, out));
    CHECK(strstr(geoloc_last_error(), "a[3]") != NULL);
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_distance_pairs(a, bad, N, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, out));
    CHECK(strstr(geoloc_last_error(), "b[3]") != NULL);
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_distance_one_to_many(MOUNT_VERNON, bad, N, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, out));
    CHECK(strstr(geoloc_last_error(), "[3]") != NULL);
    bad[3].lat = 0;
    bad[3].lon = INFINITY;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_distance_pairs(bad, b, N, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, out));
    bad[3].lon = 0;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_distance_pairs(bad, b, N, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, out));
    CHECK(strstr(geoloc_last_error(), "a[4]") != NULL);
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_distance_one_to_many(MOUNT_VERNON, bad, N, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, out));
    bad[4].lat = -90.0000001;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_distance_one_to_many(MOUNT_VERNON, bad, N, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, out));
    {
        geoloc_coord origin = {nan_value(), 0};
        CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_distance_one_to_many(origin, points, N, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, out));
        origin.lat = 90.0000001;
        CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_distance_one_to_many(origin, points, N, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, out));
    }
    for (i = 0; i < N; i++) CHECK(out[i] == -1.0);
}

/* ---------------------------------------------------------------------------------------------
 * WGS84 geodesics (the reference values are in tests/golden, checked by test_golden)
 * ------------------------------------------------------------------------------------------- */

static void test_geodesics(void)
{
    const geoloc_coord jfk = {40.6, -73.8}, lhr = {51.6, -0.5};
    double s = 0, a1 = 0, a2 = 0, d = 0;
    geoloc_coord end = {0, 0};

    /* GeographicLib's documented example: JFK to LHR is 5551.759 km on WGS84. */
    CHECK_OK(geoloc_geodesic_inverse(jfk, lhr, &s, &a1, &a2));
    CHECK(fabs(s - 5551759.4003186785) < 1e-6);
    CHECK(fabs(a1 - 51.19888284557983) < 1e-9);
    CHECK(fabs(a2 - 107.82177673551426) < 1e-9);
    CHECK_OK(geoloc_geodesic_inverse(jfk, lhr, NULL, NULL, NULL));
    CHECK_OK(geoloc_distance(jfk, lhr, GEOLOC_MODEL_WGS84, GEOLOC_UNIT_METERS, &d));
    CHECK(d == s);
    CHECK_OK(geoloc_geodesic_direct(jfk, a1, s, &end, &a2));
    CHECK(fabs(end.lat - lhr.lat) < 1e-12 && fabs(end.lon - lhr.lon) < 1e-12);
    CHECK_OK(geoloc_geodesic_inverse(jfk, jfk, &s, NULL, NULL));
    CHECK(s == 0);
    /* Antipodes converge. */
    CHECK_OK(geoloc_geodesic_inverse((geoloc_coord){0, 0}, (geoloc_coord){0, 180}, &s, NULL, NULL));
    CHECK(fabs(s - 20003931.458625447) < 1e-6);
    CHECK_OK(geoloc_geodesic_inverse((geoloc_coord){30, 0}, (geoloc_coord){-30, 179.9999}, &s, NULL, NULL));
    CHECK(isfinite(s) && s > 1.99e7);

    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_geodesic_inverse((geoloc_coord){NAN, 0}, lhr, &s, NULL, NULL));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_geodesic_inverse(jfk, (geoloc_coord){-90.5, 0}, &s, NULL, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_geodesic_direct(jfk, 10, 1000, NULL, NULL));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_geodesic_direct(jfk, NAN, 1000, &end, NULL));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_geodesic_direct(jfk, 10, -INFINITY, &end, NULL));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_geodesic_direct((geoloc_coord){91, 0}, 10, 1000, &end, NULL));
    /* The messages name the point. */
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_geodesic_inverse((geoloc_coord){91, 0}, lhr, &s, NULL, NULL));
    CHECK_STR(geoloc_last_error(), "a: latitude 91 is outside [-90, 90]");
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_geodesic_inverse(jfk, (geoloc_coord){0, INFINITY}, &s, NULL, NULL));
    CHECK_STR(geoloc_last_error(), "b: longitude inf is not finite");
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_geodesic_direct((geoloc_coord){-90.5, 0}, 10, 1000, &end, NULL));
    CHECK_STR(geoloc_last_error(), "start: latitude -90.5 is outside [-90, 90]");
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_distance(jfk, (geoloc_coord){95, 0}, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &d));
    CHECK_STR(geoloc_last_error(), "b: latitude 95 is outside [-90, 90]");
}

/* geoloc_distance_value: the value of geoloc_distance, or NaN with its message. */
static void test_distance_value(void)
{
    geoloc_coord pair[2] = {{38.321991, -88.8674}, {40.7128, -74.006}};
    double want = -1, got;
    unsigned char bytes[33];
    int m, u;
    for (m = GEOLOC_MODEL_SPHERE; m <= GEOLOC_MODEL_WGS84; m++) {
        for (u = GEOLOC_UNIT_METERS; u <= GEOLOC_UNIT_FEET; u++) {
            CHECK_OK(geoloc_distance(pair[0], pair[1], (geoloc_model)m, (geoloc_unit)u, &want));
            CHECK(geoloc_distance_value(pair, (geoloc_model)m, (geoloc_unit)u) == want);
        }
    }
    /* Read without assuming alignment. */
    memcpy(bytes + 1, pair, sizeof pair);
    CHECK_OK(geoloc_distance(pair[0], pair[1], GEOLOC_MODEL_WGS84, GEOLOC_UNIT_MILES, &want));
    CHECK(geoloc_distance_value((const geoloc_coord *)(const void *)(bytes + 1), GEOLOC_MODEL_WGS84, GEOLOC_UNIT_MILES) == want);
    got = geoloc_distance_value(NULL, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS);
    CHECK(isnan(got));
    CHECK_STR(geoloc_last_error(), "pair is NULL");
    CHECK(isnan(geoloc_distance_value(pair, INVALID_MODEL, GEOLOC_UNIT_METERS)));
    CHECK(strstr(geoloc_last_error(), "model") != NULL);
    CHECK(isnan(geoloc_distance_value(pair, GEOLOC_MODEL_SPHERE, INVALID_UNIT)));
    CHECK(strstr(geoloc_last_error(), "unit") != NULL);
    pair[1].lat = 91;
    CHECK(isnan(geoloc_distance_value(pair, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS)));
    CHECK_STR(geoloc_last_error(), "pair[1]: latitude 91 is outside [-90, 90]");
    pair[0].lon = -INFINITY;
    CHECK(isnan(geoloc_distance_value(pair, GEOLOC_MODEL_WGS84, GEOLOC_UNIT_METERS)));
    CHECK_STR(geoloc_last_error(), "pair[0]: longitude -inf is not finite");
    /* The extremes are finite. */
    pair[0] = (geoloc_coord){90, 0};
    pair[1] = (geoloc_coord){-90, 0};
    CHECK(isfinite(geoloc_distance_value(pair, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_FEET)));
}

/* ---------------------------------------------------------------------------------------------
 * The shared golden cases of this capability (tests/golden)
 * ------------------------------------------------------------------------------------------- */

static void row_distance(char **f)
{
    geoloc_coord a, b;
    double got = -1, want = number(f[5]), tol = number(f[6]);
    a.lat = number(f[0]);
    a.lon = number(f[1]);
    b.lat = number(f[2]);
    b.lon = number(f[3]);
    if (CHECK_OK(geoloc_distance(a, b, GEOLOC_MODEL_SPHERE, unit_of(f[4]), &got))) {
        if (!ROW_CHECK(close_to(got, want, tol))) {
            fprintf(stderr, "    got %.17g want %.17g (rel %.3g)\n", got, want, fabs(got - want) / want);
        }
    }
}

/* WGS84 geodesics against GeographicLib (tools/gen_geodesic.py): distances within 15 nm; the
 * batch and the model-aware distance agree with the scalar inverse to the last bit. */
#define GEODESIC_TOL_M 15e-9

/* The golden rows, kept for the batch test that runs after the golden files (test_geodesic_many). */
#define MAX_GOLDEN_ROWS 1024
static struct {
    size_t n;
    geoloc_coord a[MAX_GOLDEN_ROWS], b[MAX_GOLDEN_ROWS];
    double s12[MAX_GOLDEN_ROWS], azi1[MAX_GOLDEN_ROWS], azi2[MAX_GOLDEN_ROWS];
    int unique[MAX_GOLDEN_ROWS]; /* the shortest path is unique: the azimuths are compared */
} inv_rows;
static struct {
    size_t n;
    geoloc_coord start[MAX_GOLDEN_ROWS], end[MAX_GOLDEN_ROWS];
    double azi1[MAX_GOLDEN_ROWS], s12[MAX_GOLDEN_ROWS], azi2[MAX_GOLDEN_ROWS];
} dir_rows;

static void row_geodesic_inverse(char **f)
{
    geoloc_coord a, b;
    double s = -1, azi1 = 0, azi2 = 0, d = -1, batch = -1;
    double want = number(f[5]);
    a.lat = number(f[1]);
    a.lon = number(f[2]);
    b.lat = number(f[3]);
    b.lon = number(f[4]);
    if (CHECK_OK(geoloc_geodesic_inverse(a, b, &s, &azi1, &azi2))) {
        if (!ROW_CHECK(fabs(s - want) <= GEODESIC_TOL_M)) {
            fprintf(stderr, "    got %.17g want %.17g (%.3g m off)\n", s, want, fabs(s - want));
        }
        ROW_CHECK(isfinite(azi1) && isfinite(azi2) && fabs(azi1) <= 180 && fabs(azi2) <= 180);
    }
    if (CHECK_OK(geoloc_distance(a, b, GEOLOC_MODEL_WGS84, GEOLOC_UNIT_METERS, &d))) ROW_CHECK(d == s);
    if (CHECK_OK(geoloc_distance_pairs(&a, &b, 1, GEOLOC_MODEL_WGS84, GEOLOC_UNIT_METERS, &batch))) {
        ROW_CHECK(batch == s);
    }
    if (inv_rows.n < MAX_GOLDEN_ROWS) {
        size_t k = inv_rows.n++;
        inv_rows.a[k] = a;
        inv_rows.b[k] = b;
        inv_rows.s12[k] = want;
        inv_rows.azi1[k] = number(f[6]);
        inv_rows.azi2[k] = number(f[7]);
        inv_rows.unique[k] = strcmp(f[0], "antipodal") != 0 && strcmp(f[0], "identical") != 0;
    }
}

static void row_geodesic_direct(char **f)
{
    const double m_per_deg = 6378137.0 * 3.14159265358979323846 / 180;
    geoloc_coord start, end = {0, 0};
    double azi2 = 0, lat2 = number(f[5]), lon2 = number(f[6]), dlat, dlon, off;
    start.lat = number(f[1]);
    start.lon = number(f[2]);
    if (CHECK_OK(geoloc_geodesic_direct(start, number(f[3]), number(f[4]), &end, &azi2))) {
        /* The position error in meters (longitudes compared modulo 360). */
        dlat = (end.lat - lat2) * m_per_deg;
        dlon = remainder(end.lon - lon2, 360.0) * m_per_deg * cos(lat2 * 3.14159265358979323846 / 180);
        off = sqrt(dlat * dlat + dlon * dlon);
        if (!ROW_CHECK(off <= GEODESIC_TOL_M)) {
            fprintf(stderr, "    got %.17g, %.17g want %.17g, %.17g (%.3g m off)\n", end.lat, end.lon, lat2, lon2, off);
        }
        ROW_CHECK(end.lon >= -180 && end.lon < 180 && isfinite(azi2));
    }
    if (dir_rows.n < MAX_GOLDEN_ROWS) {
        size_t k = dir_rows.n++;
        dir_rows.start[k] = start;
        dir_rows.azi1[k] = number(f[3]);
        dir_rows.s12[k] = number(f[4]);
        dir_rows.end[k].lat = lat2;
        dir_rows.end[k].lon = lon2;
        dir_rows.azi2[k] = number(f[7]);
    }
}

/* a - b reduced to [0, 180]: -180 and 180 are the same direction. */
static double angle_off(double a, double b)
{
    double d = fabs(remainder(a - b, 360.0));
    return d;
}

/* The azimuth tolerance for a line of s12 meters: 1e-9 degrees, or the angle that moves the far
 * end sideways by 15 nm. */
static double azi_tol(double s12)
{
    double t = s12 != 0 ? GEODESIC_TOL_M / fabs(s12) * 180 / 3.14159265358979323846 : 360;
    return t > 1e-9 ? t : 1e-9;
}

/* The batch geodesics over every golden row at once: bit for bit the single calls, and within
 * the golden tolerances of GeographicLib; then the input checks. */
static void test_geodesic_many(void)
{
    enum { N = MAX_GOLDEN_ROWS };
    static double s[N], a1[N], a2[N], z2[N];
    static geoloc_coord end[N];
    size_t n = inv_rows.n, i;
    double s1, a11, a21;
    geoloc_coord e1;

    CHECK(n > 100 && dir_rows.n > 100);
    CHECK_OK(geoloc_geodesic_inverse_many(inv_rows.a, inv_rows.b, n, s, a1, a2));
    for (i = 0; i < n; i++) {
        CHECK_OK(geoloc_geodesic_inverse(inv_rows.a[i], inv_rows.b[i], &s1, &a11, &a21));
        CHECK(s[i] == s1 && a1[i] == a11 && a2[i] == a21);
        CHECK(fabs(s[i] - inv_rows.s12[i]) <= GEODESIC_TOL_M);
        if (inv_rows.unique[i]) {
            double tol = azi_tol(inv_rows.s12[i]);
            if (!CHECK(angle_off(a1[i], inv_rows.azi1[i]) <= tol && angle_off(a2[i], inv_rows.azi2[i]) <= tol)) {
                fprintf(stderr, "    row %zu: azimuths %.17g %.17g want %.17g %.17g\n", i, a1[i], a2[i],
                        inv_rows.azi1[i], inv_rows.azi2[i]);
            }
        }
    }
    /* Any output may be NULL; the others are the same. */
    memset(a2, 0, sizeof a2);
    CHECK_OK(geoloc_geodesic_inverse_many(inv_rows.a, inv_rows.b, n, NULL, NULL, a2));
    for (i = 0; i < n; i++) {
        CHECK_OK(geoloc_geodesic_inverse(inv_rows.a[i], inv_rows.b[i], NULL, NULL, &a21));
        CHECK(a2[i] == a21);
    }
    CHECK_OK(geoloc_geodesic_inverse_many(inv_rows.a, inv_rows.b, n, NULL, NULL, NULL));
    CHECK_OK(geoloc_geodesic_inverse_many(NULL, NULL, 0, NULL, NULL, NULL));

    n = dir_rows.n;
    CHECK_OK(geoloc_geodesic_direct_many(dir_rows.start, dir_rows.azi1, dir_rows.s12, n, end, z2));
    for (i = 0; i < n; i++) {
        const double m_per_deg = 6378137.0 * 3.14159265358979323846 / 180;
        double dlat, dlon;
        CHECK_OK(geoloc_geodesic_direct(dir_rows.start[i], dir_rows.azi1[i], dir_rows.s12[i], &e1, &a21));
        CHECK(end[i].lat == e1.lat && end[i].lon == e1.lon && z2[i] == a21);
        dlat = (end[i].lat - dir_rows.end[i].lat) * m_per_deg;
        dlon = remainder(end[i].lon - dir_rows.end[i].lon, 360.0) * m_per_deg * cos(dir_rows.end[i].lat * 3.14159265358979323846 / 180);
        CHECK(sqrt(dlat * dlat + dlon * dlon) <= GEODESIC_TOL_M);
        CHECK(end[i].lon >= -180 && end[i].lon < 180);
    }
    memset(z2, 0, sizeof z2);
    CHECK_OK(geoloc_geodesic_direct_many(dir_rows.start, dir_rows.azi1, dir_rows.s12, n, NULL, z2));
    for (i = 0; i < n; i++) {
        CHECK_OK(geoloc_geodesic_direct(dir_rows.start[i], dir_rows.azi1[i], dir_rows.s12[i], &e1, &a21));
        CHECK(z2[i] == a21);
    }
    CHECK_OK(geoloc_geodesic_direct_many(NULL, NULL, NULL, 0, NULL, NULL));

    {
        /* Errors: nothing is written, and the message names the first bad input. */
        geoloc_coord a[4] = {{10, 20}, {30, 40}, {-50, 60}, {70, -80}}, b[4], bad[4];
        double az[4] = {0, 45, 90, 135}, d[4] = {1e5, 2e5, 3e5, 4e5}, out[4] = {-1, -1, -1, -1};
        geoloc_coord ends[4] = {{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}};
        memcpy(b, a, sizeof b);
        memcpy(bad, a, sizeof bad);
        for (i = 0; i < COUNT_OF(HUGE_COUNTS); i++) {
            CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_geodesic_inverse_many(a, b, HUGE_COUNTS[i], out, NULL, NULL));
            CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_geodesic_direct_many(a, az, d, HUGE_COUNTS[i], ends, out));
        }
        CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_geodesic_inverse_many(NULL, b, 4, out, NULL, NULL));
        CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_geodesic_inverse_many(a, NULL, 4, out, NULL, NULL));
        CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_geodesic_direct_many(NULL, az, d, 4, ends, out));
        CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_geodesic_direct_many(a, NULL, d, 4, ends, out));
        CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_geodesic_direct_many(a, az, NULL, 4, ends, out));
        bad[2].lat = 91;
        bad[3].lon = nan_value();
        CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_geodesic_inverse_many(bad, b, 4, out, out, out));
        CHECK_STR(geoloc_last_error(), "a[2]: latitude 91 is outside [-90, 90]");
        CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_geodesic_inverse_many(a, bad, 4, out, NULL, NULL));
        CHECK_STR(geoloc_last_error(), "b[2]: latitude 91 is outside [-90, 90]");
        CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_geodesic_direct_many(bad, az, d, 4, ends, out));
        CHECK_STR(geoloc_last_error(), "start[2]: latitude 91 is outside [-90, 90]");
        bad[2].lat = 0;
        CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_geodesic_inverse_many(a, bad, 4, out, NULL, NULL));
        CHECK_STR(geoloc_last_error(), "b[3]: longitude nan is not finite");
        az[1] = INFINITY;
        CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_geodesic_direct_many(a, az, d, 4, ends, out));
        CHECK_STR(geoloc_last_error(), "azimuth[1]: inf is not finite");
        az[1] = 45;
        d[0] = nan_value();
        CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_geodesic_direct_many(a, az, d, 4, ends, out));
        CHECK_STR(geoloc_last_error(), "distance[0]: nan is not finite");
        for (i = 0; i < 4; i++) CHECK(out[i] == -1 && ends[i].lat == -1 && ends[i].lon == -1);
    }
}

int main(int argc, char **argv)
{
    const struct golden_file files[] = {
        {"distance.tsv", "lat1\tlon1\tlat2\tlon2\tunit\texpected\trel_tol", row_distance, NULL},
        {"geodesic_inverse.tsv", "case\tlat1\tlon1\tlat2\tlon2\ts12_m\tazi1_deg\tazi2_deg", row_geodesic_inverse, NULL},
        {"geodesic_direct.tsv", "case\tlat1\tlon1\tazi1\ts12_m\tlat2\tlon2\tazi2", row_geodesic_direct, NULL},
    };
    int failed_files;

    /* One stream order for CTest's merged log: failures next to what they belong to. */
    setvbuf(stdout, NULL, _IONBF, 0);
    test_distance();
    test_distance_batch();
    test_geodesics();
    test_distance_value();
    failed_files = golden_run(argc, argv, files, sizeof files / sizeof files[0]);
    (void)failed_files;
    test_geodesic_many();
    return check_summary("test_distance");
}
