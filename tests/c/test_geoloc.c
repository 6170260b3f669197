/*
 * test_geoloc.c -- the C door's tests: every function of geoloc.h, its documented rules, and the
 * classes of bad input (NULL pointers, NaN and infinities, out-of-range numbers, unknown enum
 * values, huge counts, invalid UTF-8, buffers of every awkward size). Every error must give the
 * right status and a message of its own in geoloc_last_error().
 *
 * Plain C, no framework: see check.h. Exit status 0 when every check passed.
 */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geoloc.h"
#include "check.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Coordinates of the tour: Mount Vernon IL (home) and towns around it. */
static const geoloc_coord MOUNT_VERNON = {38.321991, -88.8674};
static const geoloc_coord NEW_YORK = {40.7128, -74.006};

#define INVALID_UNIT ((geoloc_unit)99)
#define INVALID_MODEL ((geoloc_model)99)
#define INVALID_STYLE ((geoloc_coord_style)99)
#define INVALID_DAYLIGHT ((geoloc_daylight)99)
#define INVALID_TEMP_UNIT ((geoloc_temp_unit)99)
#define INVALID_ADDRESS_STYLE ((geoloc_address_style)99)

static const size_t HUGE_COUNTS[] = {(size_t)-1, GEOLOC_MAX_COUNT + 1};

/* Texts that are not valid UTF-8: a stray byte, a lead byte without its continuation, and an
 * overlong encoding of '/'. */
static const char *const BAD_UTF8[] = {"\xff", "\xc3\x28", "\xc0\xaf"};

static int close_rel(double got, double want, double rel)
{
    double scale = fabs(want) > 1e-300 ? fabs(want) : 1e-300;
    return fabs(got - want) <= rel * scale + 1e-9;
}

static double nan_value(void) { return NAN; }

/* ---------------------------------------------------------------------------------------------
 * The buffer contract, shared by every function that writes text
 * ------------------------------------------------------------------------------------------- */

typedef geoloc_status (*text_call)(const void *ctx, char *buf, size_t cap, size_t *needed);

/*
 * Checks a text-writing call against the header's buffer contract: a size query (NULL, 0),
 * cap 0 with a buffer (untouched), cap 1 and needed-1 ("" written, BUFFER_TOO_SMALL), exactly
 * needed and more (the text, nothing written past it), buf NULL with cap > 0, needed NULL.
 * `ok_status` is what a call with enough room returns (GEOLOC_OK, or a soft failure's status).
 */
static void check_text_contract_(const char *file, int line, text_call call, const void *ctx,
                                 geoloc_status ok_status, const char *want)
{
    int failed_before = check_failed;
    size_t n = strlen(want) + 1;
    size_t needed = (size_t)-1;
    char buf[512];

    /* The size query. */
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, call(ctx, NULL, 0, &needed));
    CHECK(needed == n);

    /* cap 0 with a buffer: the buffer is not touched. */
    memset(buf, 'X', sizeof buf);
    needed = 0;
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, call(ctx, buf, 0, &needed));
    CHECK(needed == n);
    CHECK(buf[0] == 'X');

    /* cap 1: "" is written. */
    memset(buf, 'X', sizeof buf);
    needed = 0;
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, call(ctx, buf, 1, &needed));
    CHECK(needed == n);
    CHECK(buf[0] == '\0' && buf[1] == 'X');

    /* One byte short: "" is written and nothing else. */
    if (n > 2) {
        memset(buf, 'X', sizeof buf);
        needed = 0;
        CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, call(ctx, buf, n - 1, &needed));
        CHECK(needed == n);
        CHECK(buf[0] == '\0' && buf[1] == 'X');
    }

    /* Exactly enough: the text, and nothing past its NUL. */
    if (n < sizeof buf) {
        memset(buf, 'X', sizeof buf);
        needed = 0;
        if (ok_status == GEOLOC_OK) {
            CHECK_OK(call(ctx, buf, n, &needed));
        } else {
            CHECK_ERR(ok_status, call(ctx, buf, n, &needed));
        }
        CHECK(needed == n);
        CHECK_STR(buf, want);
        CHECK(buf[n] == 'X');

        /* More than enough. */
        memset(buf, 'X', sizeof buf);
        needed = 0;
        CHECK(call(ctx, buf, sizeof buf, &needed) == ok_status);
        CHECK(needed == n);
        CHECK_STR(buf, want);
    }

    /* NULL buffer with a capacity, and NULL needed. */
    needed = 0;
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, call(ctx, NULL, 8, &needed));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, call(ctx, buf, sizeof buf, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, call(ctx, NULL, 0, NULL));

    if (check_failed != failed_before) {
        fprintf(stderr, "    (buffer contract checked from %s:%d, text \"%s\")\n", file, line, want);
    }
}

#define CHECK_TEXT_CONTRACT(call, ctx, ok_status, want)                                        \
    check_text_contract_(__FILE__, __LINE__, (call), (ctx), (ok_status), (want))

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
    const char *seen[GEOLOC_E_INTERNAL + 1];
    int s, t;
    CHECK_STR(geoloc_status_string(GEOLOC_OK), "ok");
    for (s = GEOLOC_OK; s <= GEOLOC_E_INTERNAL; s++) {
        const char *text = geoloc_status_string((geoloc_status)s);
        seen[s] = text;
        CHECK(text != NULL && text[0] != '\0');
        CHECK(text != NULL && strcmp(text, "unknown status") != 0);
        for (t = 0; t < s; t++) {
            CHECK(text != NULL && seen[t] != NULL && strcmp(text, seen[t]) != 0);
        }
    }
    CHECK_STR(geoloc_status_string((geoloc_status)(GEOLOC_E_INTERNAL + 1)), "unknown status");
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

/* Points around the tour, as an (n, 2) array of doubles (the layout the header promises). */
static const double TOUR_POINTS[6][2] = {
    {38.525050, -89.133404}, /* Centralia */
    {38.626995, -88.945610}, /* Salem */
    {37.730604, -88.933138}, /* Marion */
    {37.727270, -89.216760}, /* Carbondale */
    {37.996990, -88.920070}, /* Benton */
    {-33.8568, 151.2153},    /* far away */
};

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
 * Weather
 * ------------------------------------------------------------------------------------------- */

static const struct {
    int32_t code;
    const char *label;
} WEATHER_LABELS[] = {
    {0, "Clear"},
    {1, "Mainly Clear"},
    {2, "Partly Cloudy"},
    {3, "Overcast"},
    {45, "Foggy"},
    {48, "Foggy"},
    {51, "Light Drizzle"},
    {53, "Drizzle"},
    {55, "Heavy Drizzle"},
    {56, "Light Freezing Drizzle"},
    {57, "Heavy Freezing Drizzle"},
    {61, "Light Rain"},
    {63, "Rain"},
    {65, "Heavy Rain"},
    {66, "Light Freezing Rain"},
    {67, "Heavy Freezing Rain"},
    {71, "Light Snow"},
    {73, "Snow"},
    {75, "Heavy Snow"},
    {77, "Snow Grains"},
    {80, "Rain Showers"},
    {81, "Heavy Showers"},
    {82, "Violent Showers"},
    {85, "Snow Showers"},
    {86, "Heavy Snow Showers"},
    {95, "Thunderstorm"},
    {96, "Thunderstorm with Hail"},
    {99, "Thunderstorm with Heavy Hail"},
};

static const int32_t UNKNOWN_CODES[] = {-1, 4, 44, 50, 100, 1000, INT32_MAX, INT32_MIN};

static void test_weather_label(void)
{
    const char *label;
    size_t i;

    for (i = 0; i < COUNT_OF(WEATHER_LABELS); i++) {
        int32_t code = WEATHER_LABELS[i].code;
        const char *day_label = code == 0 ? "Sunny" : code == 1 ? "Mainly Sunny" : WEATHER_LABELS[i].label;
        label = NULL;
        CHECK_OK(geoloc_weather_label(code, GEOLOC_DAYLIGHT_UNKNOWN, &label));
        CHECK_STR(label, WEATHER_LABELS[i].label);
        label = NULL;
        CHECK_OK(geoloc_weather_label(code, GEOLOC_DAYLIGHT_NIGHT, &label));
        CHECK_STR(label, WEATHER_LABELS[i].label);
        label = NULL;
        CHECK_OK(geoloc_weather_label(code, GEOLOC_DAYLIGHT_DAY, &label));
        CHECK_STR(label, day_label);
    }
    /* Every other code from -10 to 110 is unknown: soft failure with "Unknown". */
    {
        int32_t code;
        for (code = -10; code <= 110; code++) {
            int documented = 0;
            for (i = 0; i < COUNT_OF(WEATHER_LABELS); i++) documented |= WEATHER_LABELS[i].code == code;
            if (documented) continue;
            label = NULL;
            CHECK(geoloc_weather_label(code, GEOLOC_DAYLIGHT_UNKNOWN, &label) == GEOLOC_E_UNKNOWN_CODE);
            CHECK_STR(label, "Unknown");
        }
    }
    for (i = 0; i < COUNT_OF(UNKNOWN_CODES); i++) {
        label = NULL;
        CHECK_ERR(GEOLOC_E_UNKNOWN_CODE, geoloc_weather_label(UNKNOWN_CODES[i], GEOLOC_DAYLIGHT_DAY, &label));
        CHECK_STR(label, "Unknown");
    }
    label = "untouched";
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_weather_label(63, GEOLOC_DAYLIGHT_UNKNOWN, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_weather_label(4, INVALID_DAYLIGHT, NULL));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_weather_label(63, INVALID_DAYLIGHT, &label));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_weather_label(63, (geoloc_daylight)-1, &label));
    /* A hard failure wins over the soft one. */
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_weather_label(4, INVALID_DAYLIGHT, &label));
    CHECK_STR(label, "untouched");
}

static void test_weather_code_documented(void)
{
    int32_t code;
    size_t i;
    int documented_count = 0;
    for (i = 0; i < COUNT_OF(WEATHER_LABELS); i++) CHECK(geoloc_weather_code_documented(WEATHER_LABELS[i].code));
    for (code = -1000; code <= 1000; code++) documented_count += geoloc_weather_code_documented(code) ? 1 : 0;
    CHECK(documented_count == 28);
    for (i = 0; i < COUNT_OF(UNKNOWN_CODES); i++) CHECK(!geoloc_weather_code_documented(UNKNOWN_CODES[i]));
    /* It agrees with geoloc_weather_label's soft failure. */
    for (code = -5; code <= 105; code++) {
        const char *label;
        geoloc_status s = geoloc_weather_label(code, GEOLOC_DAYLIGHT_UNKNOWN, &label);
        CHECK((s == GEOLOC_OK) == geoloc_weather_code_documented(code));
    }
}

struct weather_args {
    int32_t code;
    double temperature;
    geoloc_temp_unit given, shown;
    geoloc_daylight daylight;
};

static geoloc_status call_weather_condition(const void *ctx, char *buf, size_t cap, size_t *needed)
{
    const struct weather_args *a = ctx;
    return geoloc_weather_condition(a->code, a->temperature, a->given, a->shown, a->daylight, buf,
                                    cap, needed);
}

static void test_weather_condition(void)
{
    static const struct {
        struct weather_args args;
        const char *want;
    } cases[] = {
        {{63, 45.4, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN}, "Rain, 45°F"},
        {{0, 72.0, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_DAY}, "Sunny, 72°F"},
        {{0, 72.0, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_NIGHT}, "Clear, 72°F"},
        {{3, 0.0, GEOLOC_TEMP_CELSIUS, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN}, "Overcast, 32°F"},
        {{73, 212.0, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_CELSIUS, GEOLOC_DAYLIGHT_UNKNOWN}, "Snow, 100°C"},
        {{95, 44.5, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN}, "Thunderstorm, 45°F"},
        {{71, -0.4, GEOLOC_TEMP_CELSIUS, GEOLOC_TEMP_CELSIUS, GEOLOC_DAYLIGHT_UNKNOWN}, "Light Snow, 0°C"},
        {{71, -0.5, GEOLOC_TEMP_CELSIUS, GEOLOC_TEMP_CELSIUS, GEOLOC_DAYLIGHT_UNKNOWN}, "Light Snow, -1°C"},
        {{45, -273.15, GEOLOC_TEMP_CELSIUS, GEOLOC_TEMP_CELSIUS, GEOLOC_DAYLIGHT_UNKNOWN}, "Foggy, -273°C"},
        {{45, -459.67, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN}, "Foggy, -460°F"},
        {{2, 1000000.0, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN}, "Partly Cloudy, 1000000°F"},
    };
    struct weather_args unknown = {4, 72.0, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN};
    char buf[64];
    size_t needed = 0, i;

    for (i = 0; i < COUNT_OF(cases); i++) {
        CHECK_TEXT_CONTRACT(call_weather_condition, &cases[i].args, GEOLOC_OK, cases[i].want);
    }
    /* Unknown codes: soft failure, the text written with "Unknown". */
    CHECK_TEXT_CONTRACT(call_weather_condition, &unknown, GEOLOC_E_UNKNOWN_CODE, "Unknown, 72°F");
    for (i = 0; i < COUNT_OF(UNKNOWN_CODES); i++) {
        buf[0] = '\0';
        CHECK_ERR(GEOLOC_E_UNKNOWN_CODE, geoloc_weather_condition(UNKNOWN_CODES[i], 72.0, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_DAY, buf, sizeof buf, &needed));
        CHECK_STR(buf, "Unknown, 72°F");
    }

    strcpy(buf, "untouched");
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_weather_condition(63, nan_value(), GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_weather_condition(63, INFINITY, GEOLOC_TEMP_CELSIUS, GEOLOC_TEMP_CELSIUS, GEOLOC_DAYLIGHT_UNKNOWN, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_weather_condition(63, -INFINITY, GEOLOC_TEMP_CELSIUS, GEOLOC_TEMP_CELSIUS, GEOLOC_DAYLIGHT_UNKNOWN, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_weather_condition(63, -273.16, GEOLOC_TEMP_CELSIUS, GEOLOC_TEMP_CELSIUS, GEOLOC_DAYLIGHT_UNKNOWN, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_weather_condition(63, -459.68, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_CELSIUS, GEOLOC_DAYLIGHT_UNKNOWN, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_weather_condition(63, 1000000.5, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_weather_condition(63, 45.0, INVALID_TEMP_UNIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_weather_condition(63, 45.0, GEOLOC_TEMP_FAHRENHEIT, INVALID_TEMP_UNIT, GEOLOC_DAYLIGHT_UNKNOWN, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_weather_condition(63, 45.0, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, INVALID_DAYLIGHT, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_weather_condition(63, 45.0, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN, buf, sizeof buf, NULL));
    CHECK_STR(buf, "untouched");
    /* An unknown code with a buffer too small reports the buffer. */
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_weather_condition(4, 72.0, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN, buf, 4, &needed));
    CHECK(needed == strlen("Unknown, 72°F") + 1 && buf[0] == '\0');
}

/* ---------------------------------------------------------------------------------------------
 * Addresses
 * ------------------------------------------------------------------------------------------- */

struct address_args {
    const geoloc_address_part *parts;
    size_t n;
    geoloc_address_style style;
};

static geoloc_status call_address_format(const void *ctx, char *buf, size_t cap, size_t *needed)
{
    const struct address_args *a = ctx;
    return geoloc_address_format(a->parts, a->n, a->style, buf, cap, needed);
}

/* Formats parts and checks the text; returns the text in a static buffer ("" on failure). */
static const char *format_address(const geoloc_address_part *parts, size_t n, geoloc_address_style style)
{
    static char buf[512];
    size_t needed = 0;
    buf[0] = '\0';
    if (geoloc_address_format(parts, n, style, buf, sizeof buf, &needed) != GEOLOC_OK) {
        fprintf(stderr, "    geoloc_address_format: %s\n", geoloc_last_error());
        return "";
    }
    return buf;
}

#define PARTS(...) ((const geoloc_address_part[]){__VA_ARGS__})
#define N_PARTS(...) (sizeof((const geoloc_address_part[]){__VA_ARGS__}) / sizeof(geoloc_address_part))
#define ADDRESS(style, ...) format_address(PARTS(__VA_ARGS__), N_PARTS(__VA_ARGS__), (style))

static void test_address_format(void)
{
    static const geoloc_address_part springfield[] = {
        {"house_number", "123"}, {"road", "Main St"},  {"city", "Springfield"},
        {"state", "Illinois"},   {"state_code", "IL"}, {"postcode", "62701"},
        {"country", "United States"}, {"country_code", "US"},
    };
    static const struct {
        const char *country_code;
        geoloc_address_part parts[6];
    } postal[] = {
        {"US", {{"house_number", "123"}, {"road", "Main St"}, {"city", "Springfield"}, {"state", "Illinois"}, {"postcode", "62701"}, {"country_code", "US"}}},
        {"CA", {{"house_number", "24"}, {"road", "Sussex Drive"}, {"city", "Ottawa"}, {"state", "Ontario"}, {"postcode", "K1M 1M4"}, {"country_code", "CA"}}},
        {"GB", {{"house_number", "10"}, {"road", "Downing Street"}, {"city", "London"}, {"state", "England"}, {"postcode", "SW1A 2AA"}, {"country_code", "GB"}}},
        {"DE", {{"house_number", "1"}, {"road", "Platz der Republik"}, {"city", "Berlin"}, {"state", "Berlin"}, {"postcode", "11011"}, {"country_code", "DE"}}},
        {"FR", {{"house_number", "55"}, {"road", "Rue du Faubourg Saint-Honoré"}, {"city", "Paris"}, {"state", "Île-de-France"}, {"postcode", "75008"}, {"country_code", "FR"}}},
        {"JP", {{"house_number", "1-1"}, {"road", "Chiyoda"}, {"city", "Chiyoda-ku"}, {"state", "Tokyo"}, {"postcode", "100-8111"}, {"country_code", "JP"}}},
        {"NL", {{"house_number", "1"}, {"road", "Dam"}, {"city", "Amsterdam"}, {"state", "North Holland"}, {"postcode", "1012 JS"}, {"country_code", "NL"}}},
    };
    struct address_args args;
    char buf[256];
    size_t needed = 0, i, k;

    CHECK_STR(format_address(springfield, COUNT_OF(springfield), GEOLOC_ADDRESS_ONE_LINE), "123 Main St Springfield IL");
    CHECK_STR(format_address(springfield, COUNT_OF(springfield), GEOLOC_ADDRESS_CITY_STATE), "Springfield, IL");
    CHECK_STR(format_address(springfield, COUNT_OF(springfield), GEOLOC_ADDRESS_CITY_STATE_COUNTRY), "Springfield, Illinois, United States");

    /* The buffer contract, for every style. */
    for (k = GEOLOC_ADDRESS_ONE_LINE; k <= GEOLOC_ADDRESS_POSTAL; k++) {
        char want[512];
        args.parts = springfield;
        args.n = COUNT_OF(springfield);
        args.style = (geoloc_address_style)k;
        snprintf(want, sizeof want, "%s", format_address(springfield, COUNT_OF(springfield), args.style));
        CHECK(want[0] != '\0');
        CHECK_TEXT_CONTRACT(call_address_format, &args, GEOLOC_OK, want);
    }

    /* City, State: the state code derived from the name for the US; either alone. */
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE, {"city", "Springfield"}, {"state", "Illinois"}, {"country_code", "US"}), "Springfield, IL");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE, {"city", "Springfield"}, {"state_code", "IL"}), "Springfield, IL");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE, {"city", "Springfield"}), "Springfield");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE, {"state_code", "IL"}), "IL");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE, {"city", "Toronto"}, {"state", "Ontario"}, {"country_code", "CA"}), "Toronto, Ontario");

    /* City, State, Country: names derived from the codes. */
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE_COUNTRY, {"city", "Springfield"}, {"state_code", "IL"}, {"country_code", "US"}), "Springfield, Illinois, United States");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE_COUNTRY, {"city", "Springfield"}, {"state", "Illinois"}, {"country", "United States"}), "Springfield, Illinois, United States");

    /* Keys without regard to case, aliases, unknown keys ignored, NULL/empty values absent,
     * the first non-empty value wins. */
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_ONE_LINE, {"House_Number", "123"}, {"ROAD", "Main St"}, {"City", "Springfield"}, {"STATE_CODE", "IL"}), "123 Main St Springfield IL");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_ONE_LINE, {"street_number", "123"}, {"street", "Main St"}, {"locality", "Springfield"}, {"state_code", "IL"}), "123 Main St Springfield IL");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE, {"town", "Springfield"}, {"state_code", "IL"}), "Springfield, IL");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE, {"village", "Springfield"}, {"state_code", "IL"}), "Springfield, IL");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE, {"favourite_colour", "blue"}, {"city", "Springfield"}, {"state_code", "IL"}, {"", "x"}), "Springfield, IL");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE, {"city", NULL}, {"city", ""}, {"city", "Springfield"}, {"city", "Chicago"}, {"state_code", "IL"}), "Springfield, IL");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_ONE_LINE, {"house_number", ""}, {"road", "Main St"}, {"city", "Springfield"}), "Main St Springfield");
    /* UTF-8 passes through. */
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_ONE_LINE, {"house_number", "1"}, {"road", "Bahnhofstraße"}, {"city", "Zürich"}), "1 Bahnhofstraße Zürich");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE, {"city", "千代田区"}, {"state", "東京都"}, {"country_code", "JP"}), "千代田区, 東京都");

    /* No parts: empty text. */
    CHECK_OK(geoloc_address_format(NULL, 0, GEOLOC_ADDRESS_ONE_LINE, buf, sizeof buf, &needed));
    CHECK(needed == 1 && buf[0] == '\0');
    CHECK_OK(geoloc_address_format(NULL, 0, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, &needed));
    CHECK(needed == 1 && buf[0] == '\0');

    /* Postal forms: lines without a trailing newline, the city and postcode on them. */
    for (i = 0; i < COUNT_OF(postal); i++) {
        const char *text = format_address(postal[i].parts, COUNT_OF(postal[i].parts), GEOLOC_ADDRESS_POSTAL);
        size_t len = strlen(text);
        int before = check_failed;
        CHECK(len > 0 && strchr(text, '\n') != NULL);
        CHECK(len > 0 && text[len - 1] != '\n' && text[0] != '\n');
        CHECK(strstr(text, "\n\n") == NULL);
        CHECK(strstr(text, postal[i].parts[4].value) != NULL);                /* postcode */
        CHECK(strstr(text, postal[i].parts[2].value) != NULL);                /* city */
        if (strcmp(postal[i].country_code, "JP") != 0) {
            CHECK(strstr(text, postal[i].parts[1].value) != NULL);            /* road */
        }
        if (check_failed != before) fprintf(stderr, "    postal form for %s:\n%s\n", postal[i].country_code, text);
    }

    /* Bad input. */
    strcpy(buf, "untouched");
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_address_format(NULL, 2, GEOLOC_ADDRESS_ONE_LINE, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_address_format(PARTS({"city", "Springfield"}, {NULL, "x"}), 2, GEOLOC_ADDRESS_ONE_LINE, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_address_format(springfield, COUNT_OF(springfield), GEOLOC_ADDRESS_ONE_LINE, buf, sizeof buf, NULL));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_address_format(springfield, COUNT_OF(springfield), INVALID_ADDRESS_STYLE, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_address_format(springfield, COUNT_OF(springfield), (geoloc_address_style)-1, buf, sizeof buf, &needed));
    for (i = 0; i < COUNT_OF(HUGE_COUNTS); i++) {
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_address_format(springfield, HUGE_COUNTS[i], GEOLOC_ADDRESS_ONE_LINE, buf, sizeof buf, &needed));
    }
    for (i = 0; i < COUNT_OF(BAD_UTF8); i++) {
        geoloc_address_part bad_value[2] = {{"city", "Springfield"}, {"road", NULL}};
        geoloc_address_part bad_key[2] = {{"city", "Springfield"}, {NULL, "x"}};
        bad_value[1].value = BAD_UTF8[i];
        bad_key[1].key = BAD_UTF8[i];
        CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_address_format(bad_value, 2, GEOLOC_ADDRESS_ONE_LINE, buf, sizeof buf, &needed));
        CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_address_format(bad_key, 2, GEOLOC_ADDRESS_ONE_LINE, buf, sizeof buf, &needed));
    }
    CHECK_STR(buf, "untouched");
}

/* Every state, DC and the territories by USPS code. */
static const char *const US_CODES[] = {
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA",
    "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ",
    "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT",
    "VA", "WA", "WV", "WI", "WY", "DC", "PR", "GU", "VI", "AS", "MP",
};

static void test_us_states(void)
{
    const char *out;
    size_t i;

    CHECK_OK(geoloc_us_state_code("Illinois", &out));
    CHECK_STR(out, "IL");
    CHECK_OK(geoloc_us_state_code("illinois", &out));
    CHECK_STR(out, "IL");
    CHECK_OK(geoloc_us_state_code("ILLINOIS", &out));
    CHECK_STR(out, "IL");
    CHECK_OK(geoloc_us_state_code("district of columbia", &out));
    CHECK_STR(out, "DC");
    CHECK_OK(geoloc_us_state_code("Puerto Rico", &out));
    CHECK_STR(out, "PR");
    CHECK_OK(geoloc_us_state_code("il", &out));
    CHECK_STR(out, "IL");
    CHECK_OK(geoloc_us_state_name("il", &out));
    CHECK_STR(out, "Illinois");
    CHECK_OK(geoloc_us_state_name("DC", &out));
    CHECK_STR(out, "District of Columbia");
    CHECK_OK(geoloc_us_state_name("Illinois", &out));
    CHECK_STR(out, "Illinois");
    CHECK_OK(geoloc_us_state_name("new york", &out));
    CHECK_STR(out, "New York");

    /* Both directions for every code. */
    for (i = 0; i < COUNT_OF(US_CODES); i++) {
        const char *name = NULL, *code = NULL;
        char lower[3];
        if (!CHECK_OK(geoloc_us_state_name(US_CODES[i], &name))) {
            fprintf(stderr, "    code %s\n", US_CODES[i]);
            continue;
        }
        CHECK_OK(geoloc_us_state_code(name, &code));
        CHECK_STR(code, US_CODES[i]);
        lower[0] = (char)(US_CODES[i][0] + 32);
        lower[1] = (char)(US_CODES[i][1] + 32);
        lower[2] = '\0';
        CHECK_OK(geoloc_us_state_code(lower, &code));
        CHECK_STR(code, US_CODES[i]);
    }

    out = "untouched";
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_us_state_code("Narnia", &out));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_us_state_code("", &out));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_us_state_code("XX", &out));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_us_state_name("XX", &out));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_us_state_name("", &out));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_us_state_name("Ontario", &out));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_us_state_code(NULL, &out));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_us_state_code("Illinois", NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_us_state_name(NULL, &out));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_us_state_name("IL", NULL));
    for (i = 0; i < COUNT_OF(BAD_UTF8); i++) {
        CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_us_state_code(BAD_UTF8[i], &out));
        CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_us_state_name(BAD_UTF8[i], &out));
    }
    CHECK_STR(out, "untouched");
}

static void test_country_name(void)
{
    const char *out;
    size_t i;

    CHECK_OK(geoloc_country_name("US", &out));
    CHECK_STR(out, "United States");
    CHECK_OK(geoloc_country_name("gb", &out));
    CHECK_STR(out, "United Kingdom");
    CHECK_OK(geoloc_country_name("De", &out));
    CHECK_STR(out, "Germany");
    CHECK_OK(geoloc_country_name("FR", &out));
    CHECK_STR(out, "France");
    CHECK_OK(geoloc_country_name("JP", &out));
    CHECK_STR(out, "Japan");
    CHECK_OK(geoloc_country_name("CA", &out));
    CHECK_STR(out, "Canada");

    out = "untouched";
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_country_name("XX", &out));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_country_name("", &out));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_country_name("USA", &out));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_country_name("U", &out));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_country_name(NULL, &out));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_country_name("US", NULL));
    for (i = 0; i < COUNT_OF(BAD_UTF8); i++) {
        CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_country_name(BAD_UTF8[i], &out));
    }
    CHECK_STR(out, "untouched");
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

int main(void)
{
    /* One stream order for CTest's merged log: failures next to what they belong to. */
    setvbuf(stdout, NULL, _IONBF, 0);
    test_versions();
    test_status_strings();
    test_last_error();
    test_units();
    test_coord_check();
    test_coord_parse();
    test_coord_format();
    test_distance();
    test_distance_batch();
    test_distance_text();
    test_route_length();
    test_mileage();
    test_eta();
    test_weather_label();
    test_weather_code_documented();
    test_weather_condition();
    test_address_format();
    test_us_states();
    test_country_name();
    test_precedence();
    test_threads();
    return check_summary("test_geoloc");
}
