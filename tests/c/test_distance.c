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
    failed_files = golden_run(argc, argv, files, sizeof files / sizeof files[0]);
    (void)failed_files;
    return check_summary("test_distance");
}
