/*
 * test_core.c -- the C door's tests of the shared basics: versions, status strings, the
 * last error, units, coordinates (check, parse, format), distance text, the order in which several
 * failures are reported, and every function called from many threads at once; with the golden
 * coordinate and distance-text cases. Every error must give the right status and a message of
 * its own in geoloc_last_error().
 *
 *   usage: test_core GOLDEN_DIR
 *
 * Plain C, no framework: see check.h. Exit status 0 when every check passed.
 */
#include "golden.h"
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geoloc.h"
#include "check.h"
#include "common.h"

/* ---------------------------------------------------------------------------------------------
 * Versions, status strings, last error
 * ------------------------------------------------------------------------------------------- */

static void test_versions(void)
{
    char expected[32];
    CHECK_STR(geoloc_version(), GEOLOC_VERSION_STRING);
    CHECK(geoloc_version_number() == GEOLOC_VERSION_NUMBER);
    CHECK(GEOLOC_VERSION_NUMBER ==
          GEOLOC_VERSION_MAJOR * 10000 + GEOLOC_VERSION_MINOR * 100 + GEOLOC_VERSION_PATCH);
    snprintf(expected, sizeof expected, "%d.%d.%d", GEOLOC_VERSION_MAJOR, GEOLOC_VERSION_MINOR,
             GEOLOC_VERSION_PATCH);
    CHECK_STR(geoloc_version(), expected);
}

static void test_status_strings(void)
{
    const char *seen[GEOLOC_E_WINDOWS_MISSED + 1];
    int s, t;
    CHECK_STR(geoloc_status_string(GEOLOC_OK), "ok");
    for (s = GEOLOC_OK; s <= GEOLOC_E_WINDOWS_MISSED; s++) {
        const char *text = geoloc_status_string((geoloc_status)s);
        seen[s] = text;
        CHECK(text != NULL && text[0] != '\0');
        CHECK(text != NULL && strcmp(text, "unknown status") != 0);
        for (t = 0; t < s; t++) {
            CHECK(text != NULL && seen[t] != NULL && strcmp(text, seen[t]) != 0);
        }
    }
    CHECK_STR(geoloc_status_string((geoloc_status)(GEOLOC_E_WINDOWS_MISSED + 1)), "unknown status");
    CHECK_STR(geoloc_status_string((geoloc_status)99), "unknown status");
    CHECK_STR(geoloc_status_string((geoloc_status)-1), "unknown status");
    CHECK_STR(geoloc_status_string((geoloc_status)INT32_MAX), "unknown status");
    CHECK_STR(geoloc_status_string((geoloc_status)INT32_MIN), "unknown status");
}

struct thread_errors {
    char first[256];   /* last_error on the new thread before any call */
    char own[256];     /* after its own failing call */
    int mismatches;    /* of the stress loop */
};

static void *error_thread(void *arg)
{
    struct thread_errors *r = arg;
    geoloc_coord c;
    snprintf(r->first, sizeof r->first, "%s", geoloc_last_error());
    (void)geoloc_coord_parse("thread-b", &c);
    snprintf(r->own, sizeof r->own, "%s", geoloc_last_error());
    return NULL;
}

/* Each stress thread fails with its own text over and over and must always read its own. */
static void *stress_thread(void *arg)
{
    struct thread_errors *r = arg;
    char text[64], want[256];
    geoloc_coord c;
    int i;
    snprintf(text, sizeof text, "stress-%p", arg);
    (void)geoloc_coord_parse(text, &c);
    snprintf(want, sizeof want, "%s", geoloc_last_error());
    for (i = 0; i < 2000; i++) {
        double d = 0;
        (void)geoloc_coord_parse(text, &c);
        if (strcmp(geoloc_last_error(), want) != 0) r->mismatches++;
        /* successful calls in between do not clear it */
        (void)geoloc_distance(MOUNT_VERNON, NEW_YORK, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &d);
        if (strcmp(geoloc_last_error(), want) != 0) r->mismatches++;
    }
    return NULL;
}

static void test_last_error(void)
{
    geoloc_coord c;
    double d;
    char main_message[256];
    struct thread_errors r;
    struct thread_errors stress[4];
    pthread_t threads[4];
    size_t i;

    CHECK(geoloc_last_error() != NULL);

    CHECK_ERR(GEOLOC_E_PARSE, geoloc_coord_parse("thread-a", &c));
    snprintf(main_message, sizeof main_message, "%s", geoloc_last_error());
    CHECK(strstr(main_message, "thread-a") != NULL);

    /* A successful call does not clear it. */
    CHECK_OK(geoloc_distance(MOUNT_VERNON, NEW_YORK, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &d));
    CHECK_STR(geoloc_last_error(), main_message);

    /* A second thread starts with "" and sees its own message; this thread keeps its own. */
    memset(&r, 0, sizeof r);
    if (CHECK(pthread_create(&threads[0], NULL, error_thread, &r) == 0)) {
        pthread_join(threads[0], NULL);
        CHECK_STR(r.first, "");
        CHECK(strstr(r.own, "thread-b") != NULL);
        CHECK(strstr(r.own, "thread-a") == NULL);
    }
    CHECK_STR(geoloc_last_error(), main_message);

    /* Threads failing at the same time each read their own message. */
    memset(stress, 0, sizeof stress);
    for (i = 0; i < COUNT_OF(threads); i++) {
        CHECK(pthread_create(&threads[i], NULL, stress_thread, &stress[i]) == 0);
    }
    for (i = 0; i < COUNT_OF(threads); i++) {
        pthread_join(threads[i], NULL);
        CHECK(stress[i].mismatches == 0);
    }
    CHECK_STR(geoloc_last_error(), main_message);
}

/* ---------------------------------------------------------------------------------------------
 * Units
 * ------------------------------------------------------------------------------------------- */

static void test_units(void)
{
    static const double meters_per[] = {1.0, 1000.0, 1609.344, 1852.0, 0.3048};
    double out;
    int from, to;

    CHECK_OK(geoloc_convert_length(1.0, GEOLOC_UNIT_MILES, GEOLOC_UNIT_METERS, &out));
    CHECK(out == 1609.344);
    CHECK_OK(geoloc_convert_length(1.0, GEOLOC_UNIT_NAUTICAL_MILES, GEOLOC_UNIT_METERS, &out));
    CHECK(out == 1852.0);
    CHECK_OK(geoloc_convert_length(1.0, GEOLOC_UNIT_FEET, GEOLOC_UNIT_METERS, &out));
    CHECK(out == 0.3048);
    CHECK_OK(geoloc_convert_length(-2.0, GEOLOC_UNIT_KILOMETERS, GEOLOC_UNIT_METERS, &out));
    CHECK(out == -2000.0);
    CHECK_OK(geoloc_convert_length(1.0, GEOLOC_UNIT_MILES, GEOLOC_UNIT_FEET, &out));
    CHECK(close_rel(out, 5280.0, 1e-12));
    CHECK_OK(geoloc_convert_length(0.0, GEOLOC_UNIT_MILES, GEOLOC_UNIT_KILOMETERS, &out));
    CHECK(out == 0.0);
    CHECK_OK(geoloc_convert_length(DBL_MAX, GEOLOC_UNIT_METERS, GEOLOC_UNIT_METERS, &out));
    CHECK(out == DBL_MAX);

    for (from = GEOLOC_UNIT_METERS; from <= GEOLOC_UNIT_FEET; from++) {
        for (to = GEOLOC_UNIT_METERS; to <= GEOLOC_UNIT_FEET; to++) {
            double back = 0;
            out = 0;
            CHECK_OK(geoloc_convert_length(123.456, (geoloc_unit)from, (geoloc_unit)to, &out));
            CHECK(close_rel(out, 123.456 * meters_per[from] / meters_per[to], 1e-14));
            CHECK_OK(geoloc_convert_length(out, (geoloc_unit)to, (geoloc_unit)from, &back));
            CHECK(close_rel(back, 123.456, 1e-14));
            if (from == to) CHECK(out == 123.456);
        }
    }

    /* Errors leave *out alone. */
    out = 42.0;
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_convert_length(1.0, GEOLOC_UNIT_MILES, GEOLOC_UNIT_METERS, NULL));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_convert_length(nan_value(), GEOLOC_UNIT_MILES, GEOLOC_UNIT_METERS, &out));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_convert_length(INFINITY, GEOLOC_UNIT_MILES, GEOLOC_UNIT_METERS, &out));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_convert_length(-INFINITY, GEOLOC_UNIT_MILES, GEOLOC_UNIT_METERS, &out));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_convert_length(1.0, INVALID_UNIT, GEOLOC_UNIT_METERS, &out));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_convert_length(1.0, GEOLOC_UNIT_METERS, INVALID_UNIT, &out));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_convert_length(1.0, (geoloc_unit)-1, GEOLOC_UNIT_METERS, &out));
    CHECK(out == 42.0);
}

/* ---------------------------------------------------------------------------------------------
 * Coordinates
 * ------------------------------------------------------------------------------------------- */

static void test_coord_check(void)
{
    geoloc_coord out;
    geoloc_coord bad = {0, 0};

    CHECK_OK(geoloc_coord_check(MOUNT_VERNON, &out));
    CHECK(out.lat == MOUNT_VERNON.lat && out.lon == MOUNT_VERNON.lon);
    CHECK_OK(geoloc_coord_check(MOUNT_VERNON, NULL)); /* check only */
    {
        geoloc_coord c = {90.0, 180.0};
        CHECK_OK(geoloc_coord_check(c, &out));
        CHECK(out.lat == 90.0 && out.lon == -180.0);
    }
    {
        geoloc_coord c = {-90.0, -180.0};
        CHECK_OK(geoloc_coord_check(c, &out));
        CHECK(out.lat == -90.0 && out.lon == -180.0);
    }
    {
        geoloc_coord c = {45.0, 540.0};
        CHECK_OK(geoloc_coord_check(c, &out));
        CHECK(out.lon == -180.0);
    }
    {
        geoloc_coord c = {45.0, -190.5};
        CHECK_OK(geoloc_coord_check(c, &out));
        CHECK(out.lon == 169.5);
    }
    {
        geoloc_coord c = {0.0, 1e300};
        CHECK_OK(geoloc_coord_check(c, &out));
        CHECK(out.lon >= -180.0 && out.lon < 180.0);
    }
    {
        geoloc_coord c = {0.0, -DBL_MAX};
        CHECK_OK(geoloc_coord_check(c, &out));
        CHECK(out.lon >= -180.0 && out.lon < 180.0);
    }

    out.lat = 1.5;
    out.lon = 2.5;
    bad.lat = 90.0000001;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_coord_check(bad, &out));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_coord_check(bad, NULL));
    bad.lat = -90.0000001;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_coord_check(bad, &out));
    bad.lat = 1e308;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_coord_check(bad, &out));
    bad.lat = nan_value();
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_coord_check(bad, &out));
    bad.lat = INFINITY;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_coord_check(bad, &out));
    bad.lat = -INFINITY;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_coord_check(bad, &out));
    bad.lat = 0;
    bad.lon = nan_value();
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_coord_check(bad, &out));
    bad.lon = INFINITY;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_coord_check(bad, &out));
    bad.lon = -INFINITY;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_coord_check(bad, &out));
    CHECK(out.lat == 1.5 && out.lon == 2.5);
}

static void test_coord_parse(void)
{
    static const struct {
        const char *text;
        double lat, lon;
    } good[] = {
        {"38.321991,-88.867400", 38.321991, -88.8674},
        {"38.321991, -88.867400", 38.321991, -88.8674},
        {" +38.321991 , -88.8674 ", 38.321991, -88.8674},
        {"\t38.5,\t-88.5\n", 38.5, -88.5},
        {"1e1,2E1", 10.0, 20.0},
        {"3.,.5", 3.0, 0.5},
        {"90,180", 90.0, -180.0},
        {"-90,-180", -90.0, -180.0},
        {"45,540", 45.0, -180.0},
        {"0,0", 0.0, 0.0},
    };
    static const char *const unparsable[] = {
        "", "   ", "abc", "38.3", "38.3,-88.8,1", "38.3,", ",-88.8", "38.3;-88.8", "38.3 -88.8",
        "38.3,-88.8x", "38.3,-88.8 x", "nan,0", "0,nan", "inf,0", "-infinity,0", "0x1p3,0",
        "++1,0", "1e,0", ".,0", "1.2.3,0", "1 2,3", "\xd9\xa1,0",
    };
    geoloc_coord out;
    size_t i;

    for (i = 0; i < COUNT_OF(good); i++) {
        out.lat = out.lon = 999;
        if (!CHECK_OK(geoloc_coord_parse(good[i].text, &out))) {
            fprintf(stderr, "    input \"%s\"\n", good[i].text);
            continue;
        }
        CHECK(out.lat == good[i].lat);
        CHECK(out.lon == good[i].lon);
    }

    out.lat = 1.5;
    out.lon = 2.5;
    for (i = 0; i < COUNT_OF(unparsable); i++) {
        int before = check_failed;
        CHECK_ERR(GEOLOC_E_PARSE, geoloc_coord_parse(unparsable[i], &out));
        if (check_failed != before) fprintf(stderr, "    input \"%s\"\n", unparsable[i]);
    }
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_coord_parse("90.0000001,0", &out));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_coord_parse("-90.0000001,0", &out));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_coord_parse("1e3,0", &out));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_coord_parse("1e999,0", &out));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_coord_parse("0,-1e999", &out));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_coord_parse(NULL, &out));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_coord_parse("38.3,-88.8", NULL));
    for (i = 0; i < COUNT_OF(BAD_UTF8); i++) {
        CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_coord_parse(BAD_UTF8[i], &out));
    }
    CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_coord_parse("38.3,-88.8\xff", &out));
    CHECK(out.lat == 1.5 && out.lon == 2.5);
}

struct coord_format_args {
    geoloc_coord c;
    geoloc_coord_style style;
};

static geoloc_status call_coord_format(const void *ctx, char *buf, size_t cap, size_t *needed)
{
    const struct coord_format_args *a = ctx;
    return geoloc_coord_format(a->c, a->style, buf, cap, needed);
}

static void test_coord_format(void)
{
    static const struct {
        double lat, lon;
        geoloc_coord_style style;
        const char *want;
    } cases[] = {
        {38.321991, -88.8674, GEOLOC_COORD_COMPACT, "38.321991,-88.867400"},
        {38.321991, -88.8674, GEOLOC_COORD_READABLE, "38.321991, -88.867400"},
        {-0.0000001, -0.0000004, GEOLOC_COORD_COMPACT, "0.000000,0.000000"},
        {-0.0, -0.0, GEOLOC_COORD_READABLE, "0.000000, 0.000000"},
        {90.0, 180.0, GEOLOC_COORD_COMPACT, "90.000000,-180.000000"},
        {-90.0, 540.0, GEOLOC_COORD_READABLE, "-90.000000, -180.000000"},
        {51.5007, -0.1246, GEOLOC_COORD_COMPACT, "51.500700,-0.124600"},
    };
    struct coord_format_args a;
    char buf[64];
    size_t needed = 0, i;
    geoloc_coord bad = {0, 0};

    for (i = 0; i < COUNT_OF(cases); i++) {
        a.c.lat = cases[i].lat;
        a.c.lon = cases[i].lon;
        a.style = cases[i].style;
        CHECK_TEXT_CONTRACT(call_coord_format, &a, GEOLOC_OK, cases[i].want);
    }

    /* Format then parse gives the coordinate back to 6 decimals. */
    CHECK_OK(geoloc_coord_format(MOUNT_VERNON, GEOLOC_COORD_READABLE, buf, sizeof buf, &needed));
    {
        geoloc_coord back;
        CHECK_OK(geoloc_coord_parse(buf, &back));
        CHECK(fabs(back.lat - MOUNT_VERNON.lat) < 5e-7 && fabs(back.lon - MOUNT_VERNON.lon) < 5e-7);
    }

    strcpy(buf, "untouched");
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_coord_format(MOUNT_VERNON, INVALID_STYLE, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_coord_format(MOUNT_VERNON, (geoloc_coord_style)-1, buf, sizeof buf, &needed));
    bad.lat = 90.0000001;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_coord_format(bad, GEOLOC_COORD_COMPACT, buf, sizeof buf, &needed));
    bad.lat = nan_value();
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_coord_format(bad, GEOLOC_COORD_COMPACT, buf, sizeof buf, &needed));
    bad.lat = 0;
    bad.lon = -INFINITY;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_coord_format(bad, GEOLOC_COORD_COMPACT, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_coord_format(MOUNT_VERNON, GEOLOC_COORD_COMPACT, buf, sizeof buf, NULL));
    CHECK_STR(buf, "untouched");
}

struct distance_text_args {
    double meters;
    geoloc_unit unit;
};

static geoloc_status call_distance_text(const void *ctx, char *buf, size_t cap, size_t *needed)
{
    const struct distance_text_args *a = ctx;
    return geoloc_distance_text(a->meters, a->unit, buf, cap, needed);
}

static void test_distance_text(void)
{
    static const struct distance_text_args args[] = {
        {5149.3, GEOLOC_UNIT_MILES},      {0.0, GEOLOC_UNIT_MILES},
        {1609.344, GEOLOC_UNIT_MILES},    {12000.0, GEOLOC_UNIT_KILOMETERS},
        {250.0, GEOLOC_UNIT_METERS},      {7593.2, GEOLOC_UNIT_NAUTICAL_MILES},
        {249.936, GEOLOC_UNIT_FEET},      {-0.0, GEOLOC_UNIT_MILES},
    };
    static const char *const want[] = {
        "3.2 miles", "0.0 miles", "1.0 miles", "12.0 km", "250.0 m", "4.1 nmi", "820.0 ft",
        "0.0 miles",
    };
    char buf[64];
    size_t needed, i;

    for (i = 0; i < COUNT_OF(args); i++) {
        CHECK_TEXT_CONTRACT(call_distance_text, &args[i], GEOLOC_OK, want[i]);
    }
    /* The "%.1f miles" of a computed distance. */
    {
        double m = 0;
        char want_text[64];
        CHECK_OK(geoloc_distance(MOUNT_VERNON, NEW_YORK, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &m));
        snprintf(want_text, sizeof want_text, "%.1f miles", m / 1609.344);
        CHECK_OK(geoloc_distance_text(m, GEOLOC_UNIT_MILES, buf, sizeof buf, &needed));
        CHECK_STR(buf, want_text);
    }

    strcpy(buf, "untouched");
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_distance_text(nan_value(), GEOLOC_UNIT_MILES, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_distance_text(INFINITY, GEOLOC_UNIT_MILES, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_distance_text(-INFINITY, GEOLOC_UNIT_MILES, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_distance_text(-1.0, GEOLOC_UNIT_MILES, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_distance_text(-DBL_MIN, GEOLOC_UNIT_MILES, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_distance_text(1.0, INVALID_UNIT, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_distance_text(1.0, GEOLOC_UNIT_MILES, buf, sizeof buf, NULL));
    CHECK_STR(buf, "untouched");
}

/* ---------------------------------------------------------------------------------------------
 * Several failures at once: the first in the function's list of errors wins, and a soft failure
 * only when no hard one applies
 * ------------------------------------------------------------------------------------------- */

static void test_precedence(void)
{
    geoloc_coord nan_coord = {0, 0}, far_north = {91.0, 0};
    double d = 42.0;
    int64_t minutes = 42;
    char buf[64];
    size_t needed;
    geoloc_coord out;
    nan_coord.lat = nan_value();

    /* The header's order: NULL_ARGUMENT, COUNT_TOO_LARGE, INVALID_ARGUMENT, UNSUPPORTED,
     * INVALID_UTF8, PARSE, NOT_FINITE, OUT_OF_RANGE, NO_HOME, NOT_FOUND, BUFFER_TOO_SMALL, soft. */
    /* convert_length */
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_convert_length(nan_value(), INVALID_UNIT, GEOLOC_UNIT_METERS, NULL));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_convert_length(nan_value(), INVALID_UNIT, GEOLOC_UNIT_METERS, &d));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_convert_length(nan_value(), GEOLOC_UNIT_FEET, GEOLOC_UNIT_METERS, &d));
    /* coord_parse */
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_coord_parse("\xff", NULL));
    CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_coord_parse("1e999,\xff", &out));
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_coord_parse("91,abc", &out));
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_coord_parse("1e999,abc", &out));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_coord_parse("91,1e999", &out));
    /* coord_format */
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_coord_format(nan_coord, INVALID_STYLE, buf, sizeof buf, NULL));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_coord_format(nan_coord, INVALID_STYLE, buf, 1, &needed));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_coord_format(nan_coord, GEOLOC_COORD_COMPACT, buf, 1, &needed));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_coord_format(far_north, GEOLOC_COORD_COMPACT, buf, 1, &needed));
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_coord_format(MOUNT_VERNON, GEOLOC_COORD_COMPACT, buf, 1, &needed));
    /* distance: the first bad coordinate (a before b) */
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_distance(nan_coord, NEW_YORK, INVALID_MODEL, INVALID_UNIT, NULL));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_distance(nan_coord, far_north, INVALID_MODEL, GEOLOC_UNIT_METERS, &d));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_distance(nan_coord, far_north, GEOLOC_MODEL_WGS84, INVALID_UNIT, &d));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_distance(nan_coord, far_north, GEOLOC_MODEL_WGS84, GEOLOC_UNIT_METERS, &d));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_distance(nan_coord, far_north, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &d));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_distance(far_north, nan_coord, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &d));
    /* distance_text */
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_distance_text(nan_value(), INVALID_UNIT, buf, sizeof buf, NULL));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_distance_text(nan_value(), INVALID_UNIT, buf, 1, &needed));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_distance_text(nan_value(), GEOLOC_UNIT_MILES, buf, 1, &needed));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_distance_text(-1.0, GEOLOC_UNIT_MILES, buf, 1, &needed));
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_distance_text(1.0, GEOLOC_UNIT_MILES, buf, 1, &needed));
    /* eta_minutes: every number's finiteness before any range */
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_eta_minutes(nan_value(), 60.0, INVALID_UNIT, 1.0, NULL));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_eta_minutes(nan_value(), -1.0, INVALID_UNIT, 1.0, &minutes));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_eta_minutes(-1.0, 60.0, GEOLOC_UNIT_MILES, nan_value(), &minutes));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_eta_minutes(-1.0, 60.0, GEOLOC_UNIT_MILES, 1.0, &minutes));
    /* weather_condition: NULL_ARGUMENT, INVALID_ARGUMENT, NOT_FINITE, OUT_OF_RANGE,
     * BUFFER_TOO_SMALL, UNKNOWN_CODE (soft) */
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_weather_condition(4, nan_value(), INVALID_TEMP_UNIT, GEOLOC_TEMP_CELSIUS, GEOLOC_DAYLIGHT_UNKNOWN, buf, sizeof buf, NULL));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_weather_condition(4, nan_value(), GEOLOC_TEMP_CELSIUS, GEOLOC_TEMP_CELSIUS, INVALID_DAYLIGHT, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_weather_condition(4, nan_value(), GEOLOC_TEMP_CELSIUS, GEOLOC_TEMP_CELSIUS, GEOLOC_DAYLIGHT_UNKNOWN, buf, 1, &needed));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_weather_condition(4, -300.0, GEOLOC_TEMP_CELSIUS, GEOLOC_TEMP_CELSIUS, GEOLOC_DAYLIGHT_UNKNOWN, buf, 1, &needed));
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_weather_condition(4, 20.0, GEOLOC_TEMP_CELSIUS, GEOLOC_TEMP_CELSIUS, GEOLOC_DAYLIGHT_UNKNOWN, buf, 1, &needed));
    /* mileage: NULL_ARGUMENT, COUNT_TOO_LARGE, INVALID_ARGUMENT, UNSUPPORTED, INVALID_UTF8,
     * NO_HOME, BUFFER_TOO_SMALL, HOME_INVALID (soft) */
    {
        geoloc_mileage_result r;
        const char *stops[] = {"\xff"};
        CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_mileage(NULL, stops, 1, true, INVALID_MODEL, INVALID_UNIT, NULL, NULL, 0, NULL, 0));
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_mileage("\xff", stops, (size_t)-1, true, INVALID_MODEL, INVALID_UNIT, &r, NULL, 0, NULL, 0));
        CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_mileage("\xff", stops, 1, true, GEOLOC_MODEL_WGS84, INVALID_UNIT, &r, NULL, 0, NULL, 0));
        CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_mileage("\xff", stops, 1, true, GEOLOC_MODEL_WGS84, GEOLOC_UNIT_MILES, &r, NULL, 0, NULL, 0));
        CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_mileage(NULL, stops, 1, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &r, NULL, 0, NULL, 0));
    }
    /* address_format: NULL_ARGUMENT, INVALID_UTF8, INVALID_ARGUMENT, COUNT_TOO_LARGE,
     * BUFFER_TOO_SMALL */
    {
        geoloc_address_part bad[2] = {{"city", "\xff"}, {NULL, "x"}};
        CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_address_format(bad, 2, INVALID_ADDRESS_STYLE, buf, sizeof buf, &needed));
        CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_address_format(bad, 1, INVALID_ADDRESS_STYLE, buf, 1, &needed));
        CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_address_format(bad, 1, GEOLOC_ADDRESS_POSTAL, buf, 1, &needed));
        CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_address_format(bad, 0, INVALID_ADDRESS_STYLE, buf, 1, &needed));
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_address_format(NULL, (size_t)-1, INVALID_ADDRESS_STYLE, buf, 1, &needed));
        CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_address_format(NULL, 1, INVALID_ADDRESS_STYLE, buf, 1, &needed));
    }
    CHECK(d == 42.0 && minutes == 42);
}

/* ---------------------------------------------------------------------------------------------
 * Many threads at once
 * ------------------------------------------------------------------------------------------- */

struct worker {
    double want_pairs[6];
    char want_text[64];
    int mismatches;
};

static void *worker_thread(void *arg)
{
    struct worker *w = arg;
    const geoloc_coord *points = (const geoloc_coord *)&TOUR_POINTS[0][0];
    int i;
    for (i = 0; i < 2000; i++) {
        double out[6];
        char buf[64];
        size_t needed, k;
        if (geoloc_distance_one_to_many(MOUNT_VERNON, points, 6, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, out) != GEOLOC_OK) w->mismatches++;
        for (k = 0; k < 6; k++) {
            if (out[k] != w->want_pairs[k]) w->mismatches++;
        }
        if (geoloc_coord_format(points[i % 6], GEOLOC_COORD_READABLE, buf, sizeof buf, &needed) != GEOLOC_OK) w->mismatches++;
        if (i % 6 == 0 && strcmp(buf, w->want_text) != 0) w->mismatches++;
    }
    return NULL;
}

static void test_threads(void)
{
    struct worker workers[4];
    pthread_t threads[4];
    const geoloc_coord *points = (const geoloc_coord *)&TOUR_POINTS[0][0];
    size_t i, needed;
    memset(workers, 0, sizeof workers);
    for (i = 0; i < COUNT_OF(workers); i++) {
        CHECK_OK(geoloc_distance_one_to_many(MOUNT_VERNON, points, 6, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, workers[i].want_pairs));
        CHECK_OK(geoloc_coord_format(points[0], GEOLOC_COORD_READABLE, workers[i].want_text, sizeof workers[i].want_text, &needed));
    }
    for (i = 0; i < COUNT_OF(workers); i++) CHECK(pthread_create(&threads[i], NULL, worker_thread, &workers[i]) == 0);
    for (i = 0; i < COUNT_OF(workers); i++) {
        pthread_join(threads[i], NULL);
        CHECK(workers[i].mismatches == 0);
    }
}

/* ---------------------------------------------------------------------------------------------
 * The shared golden cases of this capability (tests/golden)
 * ------------------------------------------------------------------------------------------- */

static void row_coord_parse(char **f)
{
    geoloc_status want = status_of(f[1]);
    geoloc_coord out = {1234.5, 1234.5};
    geoloc_status s = geoloc_coord_parse(f[0], &out);
    CHECK_STATUS(s, want);
    check_message(s);
    if (want == GEOLOC_OK && s == GEOLOC_OK) {
        double lat = number(f[2]), lon = number(f[3]);
        if (!ROW_CHECK(same_double(out.lat, lat) && same_double(out.lon, lon))) {
            fprintf(stderr, "    got %.17g,%.17g want %.17g,%.17g\n", out.lat, out.lon, lat, lon);
        }
    } else if (want != GEOLOC_OK) {
        ROW_CHECK(out.lat == 1234.5 && out.lon == 1234.5);
    }
}

static void row_coord_format(char **f)
{
    geoloc_coord c;
    char buf[128];
    size_t needed = 0;
    c.lat = number(f[0]);
    c.lon = number(f[1]);
    if (CHECK_OK(geoloc_coord_format(c, coord_style_of(f[2]), buf, sizeof buf, &needed))) {
        ROW_CHECK_STR(buf, f[3]);
        ROW_CHECK(f[3] != NULL && needed == strlen(f[3]) + 1);
    }
}

static void row_distance_text(char **f)
{
    char buf[128];
    size_t needed = 0;
    if (CHECK_OK(geoloc_distance_text(number(f[0]), unit_of(f[1]), buf, sizeof buf, &needed))) {
        ROW_CHECK_STR(buf, f[2]);
    }
}

/* Issue 13 (hardening): a result that is not finite is an error, never GEOLOC_OK. */
static void test_overflow_is_not_finite(void)
{
    char buf[512] = "unchanged";
    size_t needed = 0;
    double out = 42;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_distance_text(1e308, GEOLOC_UNIT_FEET, buf, sizeof buf, &needed));
    CHECK_STR(buf, "unchanged");
    CHECK_ERR(GEOLOC_E_NOT_FINITE,
              geoloc_convert_length(1e308, GEOLOC_UNIT_NAUTICAL_MILES, GEOLOC_UNIT_FEET, &out));
    CHECK_ERR(GEOLOC_E_NOT_FINITE,
              geoloc_convert_length(1.7e308, GEOLOC_UNIT_KILOMETERS, GEOLOC_UNIT_METERS, &out));
    CHECK(out == 42);
    /* Finite results near the top of the range still convert. */
    CHECK_OK(geoloc_convert_length(1.7e308, GEOLOC_UNIT_KILOMETERS, GEOLOC_UNIT_MILES, &out));
    CHECK(out == 1.7e308 * (1000 / 1609.344));
    CHECK_OK(geoloc_distance_text(1e308, GEOLOC_UNIT_KILOMETERS, buf, sizeof buf, &needed));
    CHECK(strlen(buf) + 1 == needed && strstr(buf, "inf") == NULL);
}

/* Issue 13: a longitude that rounds to 180 at 6 decimals is written -180.000000. */
static void test_format_longitude_after_rounding(void)
{
    const double lons[] = {179.9999995, -180.0000001, 539.9999999, -180.0000004};
    char buf[64];
    size_t needed;
    for (size_t i = 0; i < sizeof lons / sizeof lons[0]; i++) {
        geoloc_coord c = {1, lons[i]};
        if (CHECK_OK(geoloc_coord_format(c, GEOLOC_COORD_COMPACT, buf, sizeof buf, &needed))) {
            CHECK_STR(buf, "1.000000,-180.000000");
        }
    }
    geoloc_coord c = {1, 179.9999994};
    CHECK_OK(geoloc_coord_format(c, GEOLOC_COORD_READABLE, buf, sizeof buf, &needed));
    CHECK_STR(buf, "1.000000, 179.999999");
}

/* Issue 13: a huge number (10 MB in the finding; 1 MB keeps the memcheck run short) does not
 * leave a message of its size behind. */
static void test_huge_parse_message(void)
{
    size_t n = (size_t)1 << 20;
    char *text = malloc(n + 3);
    geoloc_coord c = {0, 0};
    CHECK(text != NULL);
    if (text == NULL) return;
    memset(text, '1', n);
    memcpy(text + n, ",1", 3);
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_coord_parse(text, &c));
    CHECK(strlen(geoloc_last_error()) < 300);
    text[0] = 'x';
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_coord_parse(text, &c));
    CHECK(strlen(geoloc_last_error()) < 300);
    free(text);
}

/* ---------------------------------------------------------------------------------------------
 * Loading files (section 1: every loader opens its file the same way, under the same limits)
 * ------------------------------------------------------------------------------------------- */

/* The peak resident size of this process so far, in kB. */
static long peak_rss_kb(void)
{
    struct rusage u;
    return getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_maxrss : 0;
}

/* One loader, by name, on one path: its status (the handle, if any, freed). */
static geoloc_status load_with(const char *loader, const char *path)
{
    geoloc_status st = GEOLOC_E_INTERNAL;
    if (strcmp(loader, "places_open") == 0) {
        geoloc_places *p = NULL;
        st = geoloc_places_open(path, &p);
        geoloc_places_destroy(p);
    } else if (strcmp(loader, "places_load_csv") == 0) {
        geoloc_places *p = NULL;
        st = geoloc_places_load_csv(path, NULL, &p);
        geoloc_places_destroy(p);
    } else if (strcmp(loader, "places_load_geojson") == 0) {
        geoloc_places *p = NULL;
        st = geoloc_places_load_geojson(path, NULL, &p);
        geoloc_places_destroy(p);
    } else if (strcmp(loader, "places_load_limited") == 0) {
        geoloc_places *p = NULL;
        st = geoloc_places_load_limited(path, GEOLOC_LOAD_CSV, NULL, NULL, &p);
        geoloc_places_destroy(p);
    } else if (strcmp(loader, "track_load_gpx") == 0) {
        geoloc_track *t = NULL;
        st = geoloc_track_load_gpx(path, NULL, &t);
        geoloc_track_destroy(t);
    } else if (strcmp(loader, "track_load_geojson") == 0) {
        geoloc_track *t = NULL;
        st = geoloc_track_load_geojson(path, NULL, &t);
        geoloc_track_destroy(t);
    } else if (strcmp(loader, "gazetteer_open") == 0) {
        geoloc_gazetteer *g = NULL;
        st = geoloc_gazetteer_open(path, &g);
        geoloc_gazetteer_destroy(g);
    }
    return st;
}

static const char *const LOADERS[] = {
    "places_open", "places_load_csv", "places_load_geojson", "places_load_limited",
    "track_load_gpx", "track_load_geojson", "gazetteer_open",
};

/* Issue 21, "files that are not files": every loader blocked forever on a FIFO and read
 * /dev/zero or /dev/urandom until memory ran out. Each now answers at once with
 * GEOLOC_E_INVALID_ARGUMENT, for a directory too, in bounded memory. A watchdog (60 s, far
 * above the milliseconds each takes) turns a hang into a failure instead of a stuck run; no
 * timing is asserted. */
static void test_files_that_are_not_files(void)
{
    char dir[] = "/tmp/geoloc-test-core-XXXXXX";
    char fifo[sizeof dir + 16];
    const char *paths[4];
    long before = peak_rss_kb();
    if (mkdtemp(dir) == NULL) {
        CHECK(!"mkdtemp");
        return;
    }
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    CHECK(mkfifo(fifo, 0600) == 0);
    paths[0] = "/dev/zero";
    paths[1] = "/dev/urandom";
    paths[2] = fifo;
    paths[3] = dir;
    alarm(60);
    for (size_t i = 0; i < COUNT_OF(LOADERS); i++) {
        for (size_t j = 0; j < COUNT_OF(paths); j++) {
            geoloc_status st = load_with(LOADERS[i], paths[j]);
            if (!CHECK(st == GEOLOC_E_INVALID_ARGUMENT))
                fprintf(stderr, "    %s(%s): %s: %s\n", LOADERS[i], paths[j], geoloc_status_string(st),
                        geoloc_last_error());
            else
                CHECK(strstr(geoloc_last_error(), j == 3 ? "Is a directory" : "not a regular file") != NULL);
        }
    }
    alarm(0);
    /* Bounded memory: far less than the gigabytes the old reader took (generous for valgrind). */
    CHECK(peak_rss_kb() - before < 256 * 1024);
    unlink(fifo);
    rmdir(dir);
}

/* A missing file is GEOLOC_E_NOT_FOUND for every loader but the gazetteer's (which names it). */
static void test_loaders_missing_file(void)
{
    for (size_t i = 0; i < COUNT_OF(LOADERS); i++) {
        geoloc_status st = load_with(LOADERS[i], "/nonexistent/geoloc/file");
        CHECK(st == GEOLOC_E_NOT_FOUND);
    }
}

/* Every loader reads its source first, in the order of its parameters: a path that is not
 * UTF-8 is named before an unknown format or limits with a bad struct_size. */
static void test_loaders_read_the_path_first(void)
{
    const char *bad = "/tmp/geoloc-\xff.csv";
    geoloc_load_limits short_limits = {0};
    geoloc_places *p = NULL;
    geoloc_track *t = NULL;
    CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_places_load_limited(bad, (geoloc_load_format)99, NULL, NULL, &p));
    CHECK(strstr(geoloc_last_error(), "path") != NULL);
    CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_track_load_gpx_limited(bad, NULL, &short_limits, &t));
    CHECK(strstr(geoloc_last_error(), "path") != NULL);
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_load_limited("/nonexistent.csv", (geoloc_load_format)99, NULL, NULL, &p));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_track_load_gpx_limited("/nonexistent.gpx", NULL, &short_limits, &t));
    CHECK(p == NULL && t == NULL);
}

/* Writes `text` to a new temporary file; returns its path in `path`. */
static int temp_file(char *path, size_t cap, const char *text)
{
    snprintf(path, cap, "/tmp/geoloc-test-core-%ld-XXXXXX", (long)getpid());
    int fd = mkstemp(path);
    if (fd < 0) return 0;
    size_t n = strlen(text);
    int ok = write(fd, text, n) == (ssize_t)n;
    close(fd);
    return ok;
}

/* Issue 21: a byte limit and a record limit on every load (geoloc_load_limits, since 0.4),
 * caller-settable; their defaults in the header. */
static void test_load_limits_bytes_and_records(void)
{
    const char *csv = "lat,lon,name\n1,2,a\n3,4,b\n5,6,c\nx,y,bad\n";
    char path[64];
    geoloc_places *p = NULL;
    size_t count = 0;
    CHECK(GEOLOC_LOAD_DEFAULT_MAX_BYTES == GEOLOC_MAX_COUNT);
    CHECK(GEOLOC_LOAD_DEFAULT_MAX_RECORDS == GEOLOC_MAX_COUNT);
    CHECK(temp_file(path, sizeof path, csv));
    {
        geoloc_load_limits l = {.struct_size = sizeof l, .max_bytes = strlen(csv)};
        CHECK_OK(geoloc_places_load_limited(path, GEOLOC_LOAD_CSV, NULL, &l, &p));
        CHECK_OK(geoloc_places_count(p, &count));
        CHECK(count == 3);
        geoloc_places_destroy(p);
        p = NULL;
    }
    {
        geoloc_load_limits l = {.struct_size = sizeof l, .max_bytes = strlen(csv) - 1};
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_places_load_limited(path, GEOLOC_LOAD_CSV, NULL, &l, &p));
        CHECK(strstr(geoloc_last_error(), "max_bytes") != NULL);
        CHECK(p == NULL);
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE,
                  geoloc_places_parse_limited(csv, strlen(csv), GEOLOC_LOAD_CSV, NULL, &l, &p));
    }
    {
        /* Four records, one of them bad: a limit of 4 reads them, 3 stops at the fourth. */
        geoloc_load_limits l = {.struct_size = sizeof l, .max_records = 4};
        CHECK_OK(geoloc_places_parse_limited(csv, strlen(csv), GEOLOC_LOAD_CSV, NULL, &l, &p));
        geoloc_places_destroy(p);
        p = NULL;
        l.max_records = 3;
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE,
                  geoloc_places_parse_limited(csv, strlen(csv), GEOLOC_LOAD_CSV, NULL, &l, &p));
        CHECK(strstr(geoloc_last_error(), "max_records") != NULL);
    }
    {
        const char *gj = "{\"type\":\"FeatureCollection\",\"features\":["
                         "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}},"
                         "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[3,4]}}]}";
        geoloc_load_limits l = {.struct_size = sizeof l, .max_records = 1};
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE,
                  geoloc_places_parse_limited(gj, strlen(gj), GEOLOC_LOAD_GEOJSON, NULL, &l, &p));
        l.max_records = 2;
        CHECK_OK(geoloc_places_parse_limited(gj, strlen(gj), GEOLOC_LOAD_GEOJSON, NULL, &l, &p));
        geoloc_places_destroy(p);
        p = NULL;
    }
    {
        /* A caller compiled against 0.3 (three members) gets the defaults of the new ones. */
        geoloc_load_limits l = {.struct_size = 3 * sizeof(size_t), .max_bytes = 1, .max_records = 1};
        CHECK_OK(geoloc_places_load_limited(path, GEOLOC_LOAD_CSV, NULL, &l, &p));
        geoloc_places_destroy(p);
        p = NULL;
    }
    {
        /* Issue 21: struct_size = SIZE_MAX was refused as "-1 is smaller than a size_t". */
        geoloc_load_limits l = {.struct_size = SIZE_MAX};
        CHECK_OK(geoloc_places_load_limited(path, GEOLOC_LOAD_CSV, NULL, &l, &p));
        geoloc_places_destroy(p);
        p = NULL;
    }
    unlink(path);
}

/* Issue 21, "non-finite with OK": a result that is not finite is an error at the thunk, by one
 * check every result passes through. */
static void test_non_finite_with_ok(void)
{
    /* geoloc_best_order_matrix over costs of 1e308: the total overflows. */
    double m[16];
    size_t order[3], needed = 0;
    geoloc_order_result r;
    for (int i = 0; i < 16; i++) m[i] = (i % 5 == 0) ? 0 : 1e308;
    geoloc_status st = geoloc_best_order_matrix(m, 4, 4, GEOLOC_ROUTE_END_HOME, 0, NULL, order, 3, NULL, 0,
                                                &needed, &r);
    CHECK(st != GEOLOC_OK);
    if (st != GEOLOC_OK) {
        CHECK(st == GEOLOC_E_NOT_FINITE || st == GEOLOC_E_OUT_OF_RANGE);
    } else {
        CHECK(isfinite(r.total));
    }
    /* geoloc_track_measure over times of ±1e308: the duration overflows. */
    geoloc_fix fixes[2] = {
        {0, 0, -1e308, 5, NAN, NAN, NAN},
        {0, 0.001, 1e308, 5, NAN, NAN, NAN},
    };
    geoloc_track_stats stats;
    st = geoloc_track_measure(fixes, 2, GEOLOC_MODEL_SPHERE, 0.5, &stats);
    CHECK(st != GEOLOC_OK);
    if (st != GEOLOC_OK) {
        CHECK(st == GEOLOC_E_NOT_FINITE || st == GEOLOC_E_OUT_OF_RANGE);
    }
}

int main(int argc, char **argv)
{
    const struct golden_file files[] = {
        {"coord_parse.tsv", "input\tstatus\tlat\tlon", row_coord_parse, NULL},
        {"coord_format.tsv", "lat\tlon\tstyle\texpected", row_coord_format, NULL},
        {"distance_text.tsv", "meters\tunit\texpected", row_distance_text, NULL},
    };
    int failed_files;

    /* One stream order for CTest's merged log: failures next to what they belong to. */
    setvbuf(stdout, NULL, _IONBF, 0);
    test_versions();
    test_status_strings();
    test_last_error();
    test_units();
    test_coord_check();
    test_coord_parse();
    test_coord_format();
    test_distance_text();
    test_overflow_is_not_finite();
    test_format_longitude_after_rounding();
    test_huge_parse_message();
    test_files_that_are_not_files();
    test_loaders_missing_file();
    test_loaders_read_the_path_first();
    test_load_limits_bytes_and_records();
    test_non_finite_with_ok();
    test_precedence();
    test_threads();
    failed_files = golden_run(argc, argv, files, sizeof files / sizeof files[0]);
    (void)failed_files;
    return check_summary("test_core");
}
