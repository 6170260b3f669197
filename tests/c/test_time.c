/*
 * test_time.c -- the C door's tests of time at a place: the zone at a point (on the shipped
 * time-zone map: the golden table tests/golden/timezones.tsv of borders picked from the data,
 * the antimeridian, the poles and the sea, checked against timezonefinder's full-precision
 * answers; batches, names, the nautical offset, every class of bad argument, forged files) and
 * local time.
 *
 *   usage: test_time GOLDEN_DIR
 *
 * Plain C, no framework: see check.h. Exit status 0 when every check passed.
 */
#include "golden.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "geoloc.h"
#include "check.h"
#include "common.h"

/* ---------------------------------------------------------------------------------------------
 * The zone at a point
 * ------------------------------------------------------------------------------------------- */

static geoloc_timezones *zones;

static void row_timezone(char **f)
{
    geoloc_coord c = {number(f[1]), number(f[2])};
    geoloc_timezone tz = {0, false, 0};
    char name[128];
    size_t needed = 0;
    uint16_t id = 0;

    if (row_bad_value || zones == NULL) return;
    if (!CHECK_OK(geoloc_timezone_at(zones, c, &tz))) return;
    if (CHECK_OK(geoloc_timezones_name(zones, tz.zone, name, sizeof name, &needed))) {
        ROW_CHECK_STR(name, f[3]);
    }
    if (f[4] != NULL && f[4][0] != '\0') {
        CHECK(tz.nautical);
        CHECK(tz.utc_offset_hours == integer(f[4]));
    } else {
        CHECK(!tz.nautical);
        CHECK(tz.utc_offset_hours == 0);
    }
    CHECK_OK(geoloc_timezone_name_at(zones, c, name, sizeof name, &needed));
    ROW_CHECK_STR(name, f[3]);
    CHECK_OK(geoloc_timezones_find(zones, f[3], &id));
    CHECK(id == tz.zone);
}

static void test_timezone_calls(void)
{
    geoloc_timezones *other = NULL;
    geoloc_timezone tz = {0, false, 0};
    char buf[64];
    size_t needed = 0, count = 0;
    uint16_t id = 0, many[6];
    const geoloc_coord points[6] = {
        {41.8781, -87.6298}, {43.8256, 87.6168}, {30.0, -40.0}, {0.0, 75.0}, {-90.0, 0.0}, {51.5074, -0.1278},
    };
    const char *want[6] = {"America/Chicago", "Asia/Urumqi", "Etc/GMT+3", "Etc/GMT-5", "Antarctica/McMurdo",
                           "Europe/London"};
    int i;

    if (!CHECK_OK(geoloc_timezones_open(NULL, &zones))) return;
    CHECK_OK(geoloc_timezones_count(zones, &count));
    CHECK(count == 444);
    CHECK_OK(geoloc_timezones_version(zones, buf, sizeof buf, &needed));
    CHECK_STR(buf, "2026c");
    /* The shipped map is shared: a second handle is the same map. */
    if (CHECK_OK(geoloc_timezones_open(NULL, &other))) geoloc_timezones_destroy(other);

    /* Many points in one call, each as the one-point call gives it. */
    CHECK_OK(geoloc_timezone_at_many(zones, points, 6, many));
    for (i = 0; i < 6; i++) {
        CHECK_OK(geoloc_timezone_at(zones, points[i], &tz));
        CHECK(many[i] == tz.zone);
        CHECK_OK(geoloc_timezones_name(zones, many[i], buf, sizeof buf, &needed));
        CHECK_STR(buf, want[i]);
    }
    CHECK_OK(geoloc_timezone_at_many(zones, NULL, 0, NULL));

    /* The sign of the nautical zones: Etc/GMT-5 is UTC+5. */
    CHECK_OK(geoloc_timezone_at(zones, (geoloc_coord){0.0, 75.0}, &tz));
    CHECK(tz.nautical && tz.utc_offset_hours == 5);
    CHECK_OK(geoloc_timezone_at(zones, (geoloc_coord){-10.0, -105.0}, &tz));
    CHECK(tz.nautical && tz.utc_offset_hours == -7);
    CHECK_OK(geoloc_timezones_name(zones, tz.zone, buf, sizeof buf, &needed));
    CHECK_STR(buf, "Etc/GMT+7");
    /* Longitudes beyond [-180, 180) are reduced: 360 + x is x. */
    CHECK_OK(geoloc_timezone_name_at(zones, (geoloc_coord){41.8781, 272.3702}, buf, sizeof buf, &needed));
    CHECK_STR(buf, "America/Chicago");

    /* Names and numbers. */
    CHECK_OK(geoloc_timezones_find(zones, "Europe/Berlin", &id));
    CHECK_OK(geoloc_timezones_name(zones, id, buf, sizeof buf, &needed));
    CHECK_STR(buf, "Europe/Berlin");
    CHECK(needed == strlen("Europe/Berlin") + 1);
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_timezones_find(zones, "Europe/Nowhere", &id));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_timezones_find(zones, "europe/berlin", &id));
    CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_timezones_find(zones, "\xff", &id));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_timezones_name(zones, (uint16_t)count, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_timezones_name(zones, id, buf, 4, &needed));
    CHECK(buf[0] == '\0' && needed == 14);
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_timezones_name(zones, id, NULL, 0, &needed));

    /* Bad arguments. */
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_timezones_open(NULL, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_timezone_at(NULL, points[0], &tz));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_timezone_at(zones, points[0], NULL));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_timezone_at(zones, (geoloc_coord){NAN, 0}, &tz));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_timezone_at(zones, (geoloc_coord){0, INFINITY}, &tz));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_timezone_at(zones, (geoloc_coord){90.5, 0}, &tz));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_timezone_at_many(zones, NULL, 1, many));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_timezone_at_many(zones, points, 1, NULL));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_timezone_at_many(zones, points, (size_t)-1, many));
    {
        geoloc_coord bad[3] = {{1, 1}, {2, 2}, {-91, 0}};
        uint16_t out[3] = {7, 7, 7};
        CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_timezone_at_many(zones, bad, 3, out));
        CHECK(strstr(geoloc_last_error(), "points[2]") != NULL);
        CHECK(out[0] == 7 && out[1] == 7 && out[2] == 7); /* nothing written */
    }
    /* A handle of another kind is refused, not read as a map. */
    {
        geoloc_gazetteer *g = NULL;
        if (getenv("GEOLOC_GAZETTEER") && CHECK_OK(geoloc_gazetteer_open(NULL, &g))) {
            CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_timezone_at((const geoloc_timezones *)g, points[0], &tz));
            geoloc_gazetteer_destroy(g);
        }
    }
}

/* Writes `len` bytes to a new temporary file and returns its name (static buffer). */
static const char *temp_file(const void *bytes, size_t len)
{
    static char name[64];
    FILE *f;
    snprintf(name, sizeof name, "/tmp/geoloc-test-tz-%ld", (long)getpid());
    f = fopen(name, "wb");
    if (f == NULL) return NULL;
    fwrite(bytes, 1, len, f);
    fclose(f);
    return name;
}

static void test_timezone_files(void)
{
    geoloc_timezones *t = NULL;
    const char *path;
    const char *shipped = getenv("GEOLOC_TIMEZONES");
    unsigned char head[256];
    FILE *f;
    size_t got;

    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_timezones_open("/nonexistent/timezones.zones", &t));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_timezones_open("/tmp", &t));
    CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_timezones_open("\xff", &t));
    path = temp_file("GEOLOCTZ", 8);
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_timezones_open(path, &t));
    path = temp_file("hello, world: not a map at all, but long enough to hold a header of 128 bytes, "
                     "......................................................", 136);
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_timezones_open(path, &t));
    CHECK(strstr(geoloc_last_error(), "not a libgeoloc time-zone map") != NULL);
    if (shipped == NULL || (f = fopen(shipped, "rb")) == NULL) {
        CHECK(shipped != NULL);
        return;
    }
    got = fread(head, 1, sizeof head, f);
    fclose(f);
    CHECK(got == sizeof head);
    /* A truncated map (its first 256 bytes), a newer version, a changed byte. */
    path = temp_file(head, sizeof head);
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_timezones_open(path, &t));
    CHECK(strstr(geoloc_last_error(), "truncated") != NULL);
    head[8] = 9;
    path = temp_file(head, sizeof head);
    CHECK_ERR(GEOLOC_E_UNSUPPORTED, geoloc_timezones_open(path, &t));
    head[8] = 1;
    head[100] ^= 1;
    path = temp_file(head, sizeof head);
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_timezones_open(path, &t));
    unlink(path);
    /* The shipped file by its path. */
    if (CHECK_OK(geoloc_timezones_open(shipped, &t))) {
        geoloc_timezone tz;
        CHECK_OK(geoloc_timezone_at(t, (geoloc_coord){52.52, 13.405}, &tz));
        geoloc_timezones_destroy(t);
        CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_timezone_at(t, (geoloc_coord){52.52, 13.405}, &tz));
    }
}

static void zone_tests(int argc, char **argv)
{
    const struct golden_file files[] = {
        {"timezones.tsv", "case\tlat\tlon\tzone\tutc_offset_hours", row_timezone, NULL},
    };
    test_timezone_calls();
    golden_run(argc, argv, files, sizeof files / sizeof files[0]);
    geoloc_timezones_destroy(zones);
    zones = NULL;
    test_timezone_files();
}

/* ---------------------------------------------------------------------------------------------
 * Local time
 * ------------------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    zone_tests(argc, argv);
    return check_summary("test_time");
}
