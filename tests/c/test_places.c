/*
 * test_places.c -- the C door's tests of place sets and regions: exact result sets on hand-made
 * sets (antimeridian, poles, R = 0, R beyond half the Earth, ties, limits, buffers), radius and
 * k-nearest queries against brute force over geoloc_distance on random sets, regions against a
 * direct point-in-polygon test, the loaders' reports, queries from several threads (on a set, a
 * region and the gazetteer) against single-threaded answers, and every class of bad argument.
 * Saved sets (geoloc_places_save, geoloc_places_open): every brute-force query answered the same
 * by the set saved and reopened; every truncation and one-byte corruption of a small file
 * refused; a second process opening a file this one has open; saving over an open file. And the
 * lock-free query path: the threads' radius and nearest queries make no pthread mutex call,
 * counted by an interposer of pthread_mutex_lock / trylock.
 *
 *   usage: test_places [THREADS_ONLY]   (any argument: only the multi-threaded part, for helgrind)
 *
 * Plain C, no framework: see check.h. Exit status 0 when every check passed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "geoloc.h"
#include "check.h"
#include "common.h"

/* ---------------------------------------------------------------------------------------------
 * Counting mutex calls. The executable's definitions come first in the dynamic lookup, so every
 * pthread_mutex_lock of libgeoloc (and of GEOS and libstdc++) lands here; the count is per
 * thread (no shared counter for helgrind to see), the real functions are found once, before any
 * thread starts.
 * ------------------------------------------------------------------------------------------- */

static int (*real_lock)(pthread_mutex_t *);
static int (*real_trylock)(pthread_mutex_t *);
static _Thread_local long mutex_calls;

static void find_real_mutex_functions(void);

int pthread_mutex_lock(pthread_mutex_t *m)
{
    /* Calls before main (the loader, library constructors) find the real functions first. */
    if (!real_lock) find_real_mutex_functions();
    mutex_calls++;
    return real_lock(m);
}

int pthread_mutex_trylock(pthread_mutex_t *m)
{
    if (!real_trylock) find_real_mutex_functions();
    mutex_calls++;
    return real_trylock(m);
}

static void find_real_mutex_functions(void)
{
    real_lock = (int (*)(pthread_mutex_t *))dlsym(RTLD_NEXT, "pthread_mutex_lock");
    real_trylock = (int (*)(pthread_mutex_t *))dlsym(RTLD_NEXT, "pthread_mutex_trylock");
    if (!real_lock || !real_trylock) {
        fprintf(stderr, "test_place_files: dlsym(RTLD_NEXT, pthread_mutex_lock) failed\n");
        exit(2);
    }
}

/* ---------------------------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------------------------- */

static uint64_t rng_state = UINT64_C(0x5eed5eed);

static uint64_t next_u64(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static double uniform(double lo, double hi)
{
    return lo + (hi - lo) * ((double)(next_u64() >> 11) * 0x1.0p-53);
}

/* A random point: uniform on the sphere, or (one time in four each) crowded within a degree of
 * the antimeridian or of a pole. */
static geoloc_coord random_point(void)
{
    geoloc_coord c;
    switch (next_u64() % 4) {
    case 0:
        c.lat = uniform(-89.0, 89.0);
        c.lon = uniform(-1.0, 1.0) + (next_u64() % 2 ? 179.5 : -179.5);
        break;
    case 1:
        c.lat = (next_u64() % 2 ? 1 : -1) * uniform(89.0, 90.0);
        c.lon = uniform(-180.0, 180.0);
        break;
    default:
        c.lat = asin(uniform(-1.0, 1.0)) * (180.0 / 3.14159265358979323846);
        c.lon = uniform(-180.0, 180.0);
        break;
    }
    return c;
}

struct bf {
    size_t index;
    double distance;
};

static int bf_order(const void *pa, const void *pb)
{
    const struct bf *a = pa, *b = pb;
    if (a->distance < b->distance) return -1;
    if (a->distance > b->distance) return 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* Every point's distance from q by geoloc_distance, sorted nearest first, ties by index. */
static void brute_force(const geoloc_coord *pts, size_t n, geoloc_coord q, geoloc_model model,
                        geoloc_unit unit, struct bf *out)
{
    for (size_t i = 0; i < n; i++) {
        out[i].index = i;
        if (geoloc_distance(q, pts[i], model, unit, &out[i].distance) != GEOLOC_OK) {
            out[i].distance = NAN;
        }
    }
    qsort(out, n, sizeof *out, bf_order);
}

/* The query's matches equal the brute-force list's first `count` entries, exactly. */
static int same_matches(const geoloc_match *got, size_t got_count, const struct bf *want,
                        size_t want_count)
{
    if (got_count != want_count) return 0;
    for (size_t i = 0; i < want_count; i++) {
        if (got[i].index != want[i].index || got[i].distance != want[i].distance) return 0;
    }
    return 1;
}

static geoloc_places *make_set(const geoloc_coord *pts, size_t n)
{
    geoloc_places *p = NULL;
    CHECK_OK(geoloc_places_create(pts, NULL, NULL, n, NULL, 0, NULL, &p));
    return p;
}

static geoloc_gazetteer *gazetteer;

/* ---------------------------------------------------------------------------------------------
 * Creating and reading a set
 * ------------------------------------------------------------------------------------------- */

static void test_create_and_read(void)
{
    const geoloc_coord pts[] = {{41.0, -87.6}, {40.7, 286.0}, {-33.9, 151.2}};
    const char *ids[] = {"chi", NULL, "syd"};
    const char *names[] = {"Chicago", "New York", NULL};
    const char *attr_names[] = {"kind", "denomination"};
    const char *values[] = {"mosque", "sunni", NULL, "shia", "church", NULL};
    geoloc_places *p = NULL;
    size_t count = 99, needed = 0;
    char buf[64];
    geoloc_coord c;

    CHECK_OK(geoloc_places_create(pts, ids, names, 3, attr_names, 2, values, &p));
    CHECK_OK(geoloc_places_count(p, &count));
    CHECK(count == 3);
    CHECK_OK(geoloc_places_issue_count(p, &count));
    CHECK(count == 0);
    CHECK_OK(geoloc_places_coord(p, 1, &c));
    CHECK(c.lat == 40.7 && fabs(c.lon - (-74.0)) < 1e-12);
    CHECK_OK(geoloc_places_id(p, 0, buf, sizeof buf, &needed));
    CHECK_STR(buf, "chi");
    CHECK_OK(geoloc_places_id(p, 1, buf, sizeof buf, &needed));
    CHECK_STR(buf, "2"); /* the 1-based index stands in for a NULL id */
    CHECK_OK(geoloc_places_name(p, 1, buf, sizeof buf, &needed));
    CHECK_STR(buf, "New York");
    CHECK_OK(geoloc_places_name(p, 2, buf, sizeof buf, &needed));
    CHECK_STR(buf, "");
    CHECK_OK(geoloc_places_attribute_count(p, &count));
    CHECK(count == 2);
    CHECK_OK(geoloc_places_attribute_name(p, 1, buf, sizeof buf, &needed));
    CHECK_STR(buf, "denomination");
    CHECK_OK(geoloc_places_attribute(p, 0, "kind", buf, sizeof buf, &needed));
    CHECK_STR(buf, "mosque");
    CHECK_OK(geoloc_places_attribute(p, 1, "denomination", buf, sizeof buf, &needed));
    CHECK_STR(buf, "shia");
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_places_attribute(p, 1, "kind", buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_places_attribute(p, 0, "colour", buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_places_attribute(p, 0, "\xff", buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_places_attribute(p, 3, "kind", buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_places_coord(p, 3, &c));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_places_coord(p, (size_t)-1, &c));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_places_id(p, 3, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_places_attribute_name(p, 2, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_places_issue(p, 0, NULL, buf, sizeof buf, &needed));
    /* The buffer contract. */
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_places_name(p, 1, NULL, 0, &needed));
    CHECK(needed == strlen("New York") + 1);
    memset(buf, 'X', sizeof buf);
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_places_name(p, 1, buf, 8, &needed));
    CHECK(buf[0] == '\0');
    CHECK_OK(geoloc_places_name(p, 1, buf, 9, &needed));
    CHECK_STR(buf, "New York");
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_name(p, 1, NULL, 9, &needed));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_name(p, 1, buf, sizeof buf, NULL));
    /* NULL handles and outputs. */
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_count(NULL, &count));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_count(p, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_coord(p, 0, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_attribute(p, 0, NULL, buf, sizeof buf, &needed));
    geoloc_places_destroy(p);
    geoloc_places_destroy(NULL);
}

static void test_bulk_ids_and_names(void)
{
    const geoloc_coord pts[] = {{41.0, -87.6}, {40.7, 286.0}, {-33.9, 151.2}};
    const char *ids[] = {"chi", NULL, "syd"};
    const char *names[] = {"Chicago", "New York", NULL};
    geoloc_places *p = NULL;
    size_t needed = 99;
    char buf[64];

    CHECK_OK(geoloc_places_create(pts, ids, names, 3, NULL, 0, NULL, &p));
    CHECK_OK(geoloc_places_ids(p, 0, 3, buf, sizeof buf, &needed));
    CHECK(needed == 10 && memcmp(buf, "chi\0" "2\0" "syd\0", 10) == 0);
    CHECK_OK(geoloc_places_names(p, 0, 3, buf, sizeof buf, &needed));
    CHECK(needed == 18 && memcmp(buf, "Chicago\0" "New York\0" "\0", 18) == 0);
    /* A slice; the size query; exactly enough; one byte short. */
    CHECK_OK(geoloc_places_ids(p, 1, 2, buf, sizeof buf, &needed));
    CHECK(needed == 6 && memcmp(buf, "2\0" "syd\0", 6) == 0);
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_places_names(p, 0, 2, NULL, 0, &needed));
    CHECK(needed == 17);
    CHECK_OK(geoloc_places_names(p, 0, 2, buf, 17, &needed));
    CHECK(memcmp(buf, "Chicago\0" "New York\0", 17) == 0);
    memset(buf, 'X', sizeof buf);
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_places_names(p, 0, 2, buf, 16, &needed));
    CHECK(needed == 17 && buf[0] == '\0' && buf[1] == 'X');
    /* count 0 needs nothing, also at the end of the set. */
    needed = 99;
    CHECK_OK(geoloc_places_ids(p, 3, 0, NULL, 0, &needed));
    CHECK(needed == 0);
    /* The same texts as geoloc_places_id, place by place. */
    CHECK_OK(geoloc_places_ids(p, 2, 1, buf, sizeof buf, &needed));
    CHECK_STR(buf, "syd");
    /* Errors, in the documented order. */
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_places_ids(p, 2, 2, buf, sizeof buf, &needed));
    CHECK(strstr(geoloc_last_error(), "beyond the set of 3 places") != NULL);
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_places_ids(p, 4, 0, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_places_names(p, (size_t)-1, 2, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_places_ids(p, 0, (size_t)GEOLOC_MAX_COUNT + 1, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_places_ids(p, 0, (size_t)-1, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_ids(NULL, 0, 1, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_ids(p, 0, 1, buf, sizeof buf, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_names(p, 0, 1, NULL, 8, &needed));
    geoloc_places_destroy(p);
}

static void test_create_errors(void)
{
    const geoloc_coord good[] = {{1, 2}, {3, 4}};
    const geoloc_coord bad_lat[] = {{1, 2}, {90.0000001, 4}};
    const geoloc_coord bad_nan[] = {{NAN, 2}, {3, 4}};
    const char *bad_ids[] = {"a", "\xc3\x28"};
    const char *dup_names[] = {"x", "x"};
    const char *null_name[] = {"x", NULL};
    geoloc_places *p = (geoloc_places *)&p; /* must stay untouched on failure */
    geoloc_places *const sentinel = p;

    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_create(good, NULL, NULL, 2, NULL, 0, NULL, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_create(NULL, NULL, NULL, 2, NULL, 0, NULL, &p));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_create(good, NULL, NULL, 2, NULL, 1, NULL, &p));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_places_create(good, NULL, NULL, (size_t)-1, NULL, 0, NULL, &p));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE,
              geoloc_places_create(good, NULL, NULL, GEOLOC_MAX_COUNT + 1, NULL, 0, NULL, &p));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE,
              geoloc_places_create(good, NULL, NULL, 2, dup_names, (size_t)-1, NULL, &p));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE,
              geoloc_places_create(good, NULL, NULL, (size_t)1 << 20, dup_names, (size_t)1 << 20, NULL, &p));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_places_create(bad_lat, NULL, NULL, 2, NULL, 0, NULL, &p));
    CHECK(strstr(geoloc_last_error(), "coords[1]") != NULL);
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_places_create(bad_nan, NULL, NULL, 2, NULL, 0, NULL, &p));
    CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_places_create(good, bad_ids, NULL, 2, NULL, 0, NULL, &p));
    CHECK(strstr(geoloc_last_error(), "ids[1]") != NULL);
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_create(good, NULL, NULL, 2, dup_names, 2, NULL, &p));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_create(good, NULL, NULL, 2, null_name, 2, NULL, &p));
    CHECK(p == sentinel);

    /* An empty set is a set: every query finds nothing. */
    {
        geoloc_places *e = NULL;
        geoloc_match m[4];
        size_t count = 99;
        CHECK_OK(geoloc_places_create(NULL, NULL, NULL, 0, NULL, 0, NULL, &e));
        CHECK_OK(geoloc_places_within(e, good[0], 1e9, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 0, m, 4, &count));
        CHECK(count == 0);
        CHECK_OK(geoloc_places_nearest(e, good[0], 3, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, INFINITY, m, 4, &count));
        CHECK(count == 0);
        geoloc_places_destroy(e);
    }
}

/* ---------------------------------------------------------------------------------------------
 * Radius search and k nearest: hand-made cases
 * ------------------------------------------------------------------------------------------- */

static void test_within_cases(void)
{
    /* 0, 1: either side of the antimeridian; 2, 3: the same spot (a tie); 4: the north pole;
     * 5: near it across the date line; 6: the south pole; 7: Greenwich. */
    const geoloc_coord pts[] = {{10.0, 179.99}, {10.0, -179.99}, {-45.0, 170.0}, {-45.0, 170.0},
                                {90.0, 0.0},    {89.99, 180.0},  {-90.0, 33.0},  {51.4779, 0.0}};
    geoloc_places *p = make_set(pts, COUNT_OF(pts));
    geoloc_match m[16];
    size_t count = 0;
    double d01 = 0;

    /* Across the antimeridian: both sides, nearest first. */
    CHECK_OK(geoloc_places_within(p, (geoloc_coord){10.0, 180.0}, 5, GEOLOC_MODEL_SPHERE,
                                  GEOLOC_UNIT_KILOMETERS, 0, m, 16, &count));
    CHECK(count == 2);
    CHECK(count == 2 && ((m[0].index == 0 && m[1].index == 1) || (m[0].index == 1 && m[1].index == 0)));
    CHECK_OK(geoloc_distance(pts[0], pts[1], GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, &d01));
    CHECK(d01 < 2.5);
    /* Ties are in index order; radius 0 finds a place exactly at the centre. */
    CHECK_OK(geoloc_places_within(p, pts[2], 0, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 0, m, 16, &count));
    CHECK(count == 2 && m[0].index == 2 && m[1].index == 3 && m[0].distance == 0 && m[1].distance == 0);
    /* The pole: every longitude is near it. */
    CHECK_OK(geoloc_places_within(p, (geoloc_coord){90.0, -123.0}, 2, GEOLOC_MODEL_SPHERE,
                                  GEOLOC_UNIT_KILOMETERS, 0, m, 16, &count));
    CHECK(count == 2 && m[0].index == 4 && m[1].index == 5);
    CHECK_OK(geoloc_places_within(p, (geoloc_coord){-89.999, 150.0}, 1, GEOLOC_MODEL_SPHERE,
                                  GEOLOC_UNIT_MILES, 0, m, 16, &count));
    CHECK(count == 1 && m[0].index == 6);
    /* Half the Earth or more: everything, sorted. */
    CHECK_OK(geoloc_places_within(p, pts[7], 20100, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 0, m, 16, &count));
    CHECK(count == COUNT_OF(pts) && m[0].index == 7);
    for (size_t i = 1; i < count; i++) CHECK(m[i - 1].distance <= m[i].distance);
    /* A limit keeps the nearest. */
    CHECK_OK(geoloc_places_within(p, pts[7], 20100, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 3, m, 16, &count));
    CHECK(count == 3 && m[0].index == 7);
    /* Units: distances come in the unit asked for. */
    CHECK_OK(geoloc_places_within(p, (geoloc_coord){51.4779, 0.01}, 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, 0, m, 16, &count));
    if (CHECK(count == 1)) {
        double d = 0;
        CHECK_OK(geoloc_distance((geoloc_coord){51.4779, 0.01}, pts[7], GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, &d));
        CHECK(m[0].distance == d);
    }
    /* The buffer: the count only, then a partial write of the nearest. */
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_places_within(p, pts[7], 20100, GEOLOC_MODEL_SPHERE,
                                                              GEOLOC_UNIT_KILOMETERS, 0, NULL, 0, &count));
    CHECK(count == COUNT_OF(pts));
    m[1].index = 999;
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_places_within(p, pts[7], 20100, GEOLOC_MODEL_SPHERE,
                                                              GEOLOC_UNIT_KILOMETERS, 0, m, 1, &count));
    CHECK(count == COUNT_OF(pts) && m[0].index == 7 && m[1].index == 999);

    /* Bad arguments, in the order of precedence. */
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_within(NULL, pts[0], 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 0, m, 16, &count));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_within(p, pts[0], 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 0, m, 16, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_within(p, pts[0], 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 0, NULL, 16, &count));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_places_within(p, pts[0], 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, (size_t)-1, m, 16, &count));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_places_within(p, pts[0], 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 0, m, (size_t)-1, &count));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_within(p, pts[0], 1, GEOLOC_MODEL_SPHERE, INVALID_UNIT, 0, m, 16, &count));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_within(p, pts[0], 1, INVALID_MODEL, GEOLOC_UNIT_METERS, 0, m, 16, &count));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_places_within(p, pts[0], NAN, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 0, m, 16, &count));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_places_within(p, pts[0], INFINITY, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 0, m, 16, &count));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_places_within(p, pts[0], -1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 0, m, 16, &count));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_places_within(p, (geoloc_coord){NAN, 0}, 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 0, m, 16, &count));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_places_within(p, (geoloc_coord){-91, 0}, 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 0, m, 16, &count));

    /* k nearest. */
    CHECK_OK(geoloc_places_nearest(p, (geoloc_coord){-45.0, 170.0}, 3, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, INFINITY, m, 16, &count));
    CHECK(count == 3 && m[0].index == 2 && m[1].index == 3);
    CHECK_OK(geoloc_places_nearest(p, (geoloc_coord){10.0, -179.999}, 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, INFINITY, m, 16, &count));
    CHECK(count == 1 && m[0].index == 1);
    CHECK_OK(geoloc_places_nearest(p, (geoloc_coord){10.0, -179.999}, 0, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, INFINITY, m, 16, &count));
    CHECK(count == 0);
    CHECK_OK(geoloc_places_nearest(p, (geoloc_coord){10.0, -179.999}, 100, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, INFINITY, m, 16, &count));
    CHECK(count == COUNT_OF(pts));
    CHECK_OK(geoloc_places_nearest(p, (geoloc_coord){10.0, -179.999}, 100, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 10, m, 16, &count));
    CHECK(count == 2);
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_places_nearest(p, pts[0], 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, NAN, m, 16, &count));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_places_nearest(p, pts[0], 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, -1, m, 16, &count));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_places_nearest(p, pts[0], (size_t)-1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, INFINITY, m, 16, &count));
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_places_nearest(p, pts[0], 5, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, INFINITY, m, 2, &count));
    CHECK(count == 5);

    /* Many centres at once: each slice as geoloc_places_within gives it. */
    {
        const geoloc_coord cs[4] = {{10.0, 180.0}, {-45.0, 170.0}, {0.0, 0.0}, {90.0, -123.0}};
        size_t offsets[5], total = 0, i, j;
        geoloc_match all[32];
        CHECK_OK(geoloc_places_within_many(p, cs, 4, 2000, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 0, offsets, all, 32, &total));
        CHECK(offsets[0] == 0 && offsets[4] == total);
        for (i = 0; i < 4; i++) {
            CHECK_OK(geoloc_places_within(p, cs[i], 2000, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 0, m, 16, &count));
            CHECK(offsets[i + 1] - offsets[i] == count);
            for (j = 0; j < count && offsets[i] + j < 32; j++) {
                CHECK(all[offsets[i] + j].index == m[j].index && all[offsets[i] + j].distance == m[j].distance);
            }
        }
        /* Too small: the offsets and the count still come back. */
        memset(offsets, 0, sizeof offsets);
        CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_places_within_many(p, cs, 4, 2000, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 0, offsets, NULL, 0, &count));
        CHECK(count == total && offsets[4] == total);
        CHECK_OK(geoloc_places_within_many(p, cs, 4, 2000, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 1, offsets, all, 32, &count));
        CHECK(count <= 4 && offsets[4] == count);
        CHECK_OK(geoloc_places_within_many(p, NULL, 0, 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 0, offsets, NULL, 0, &count));
        CHECK(count == 0 && offsets[0] == 0);
        CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_within_many(p, cs, 4, 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 0, NULL, all, 32, &count));
        CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_within_many(p, NULL, 4, 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 0, offsets, all, 32, &count));
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_places_within_many(p, cs, (size_t)-1, 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 0, offsets, all, 32, &count));
        CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_within_many(p, cs, 4, 1, GEOLOC_MODEL_SPHERE, INVALID_UNIT, 0, offsets, all, 32, &count));
        CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_places_within_many(p, NULL, 0, NAN, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 0, offsets, all, 32, &count));
        CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_places_within_many(p, (geoloc_coord[]){{0, 0}, {0, 0}, {95, 0}}, 3, 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 0, offsets, all, 32, &count));
        CHECK(strstr(geoloc_last_error(), "centers[2]") != NULL);
    }

    /* Many points at once: each row as geoloc_places_nearest gives it, padded past the end. */
    {
        const geoloc_coord qs[3] = {{10.0, -179.999}, {-45.0, 170.0}, {89.0, 10.0}};
        size_t idx[3 * 3], i, j;
        double dist[3 * 3];
        CHECK_OK(geoloc_places_nearest_many(p, qs, 3, 3, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 3000, idx, dist));
        for (i = 0; i < 3; i++) {
            CHECK_OK(geoloc_places_nearest(p, qs[i], 3, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 3000, m, 16, &count));
            for (j = 0; j < 3; j++) {
                if (j < count) {
                    CHECK(idx[i * 3 + j] == m[j].index && dist[i * 3 + j] == m[j].distance);
                } else {
                    CHECK(idx[i * 3 + j] == SIZE_MAX && isinf(dist[i * 3 + j]));
                }
            }
        }
        CHECK_OK(geoloc_places_nearest_many(p, qs, 3, 1, GEOLOC_MODEL_WGS84, GEOLOC_UNIT_METERS, INFINITY, idx, NULL));
        CHECK(idx[0] == 1 && idx[1] == 2);
        CHECK_OK(geoloc_places_nearest_many(p, NULL, 0, 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, INFINITY, NULL, NULL));
        CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_nearest_many(p, NULL, 2, 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, INFINITY, idx, dist));
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_places_nearest_many(p, qs, 3, (size_t)-1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, INFINITY, idx, dist));
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_places_nearest_many(p, qs, (size_t)1 << 20, (size_t)1 << 20, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, INFINITY, idx, dist));
        CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_nearest_many(p, qs, 3, 0, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, INFINITY, idx, dist));
        CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_places_nearest_many(p, (geoloc_coord[]){{0, 0}, {-91, 0}}, 2, 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, INFINITY, idx, dist));
        CHECK(strstr(geoloc_last_error(), "points[1]") != NULL);
        CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_places_nearest_many(p, qs, 3, 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, -1, idx, dist));
    }
    geoloc_places_destroy(p);
}

/* ---------------------------------------------------------------------------------------------
 * Radius search and k nearest against brute force
 * ------------------------------------------------------------------------------------------- */

static geoloc_places *reopened(const geoloc_places *p, const char *name);

/* Every query on a random set and on the set saved and reopened (geoloc_places_save,
 * geoloc_places_open): both answer exactly as brute force. */
static void test_against_brute_force(geoloc_model model, int queries)
{
    enum { N = 3000 };
    static geoloc_coord pts[N];
    static struct bf want[N];
    static geoloc_match got[N];
    const double radii_km[] = {0, 0.5, 5, 50, 300, 2000, 9000, 15000, 20100};
    int mismatches_within[2] = {0, 0}, mismatches_nearest[2] = {0, 0};
    geoloc_places *sets[2];

    for (size_t i = 0; i < N; i++) pts[i] = random_point();
    for (size_t i = 0; i < 20; i++) pts[N - 1 - i] = pts[i]; /* exact duplicates: ties */
    sets[0] = make_set(pts, N);
    sets[1] = reopened(sets[0], "property.places");
    for (int q = 0; q < queries; q++) {
        geoloc_coord c = q % 3 == 0 ? pts[next_u64() % N] : random_point();
        double r = radii_km[next_u64() % COUNT_OF(radii_km)] * uniform(0.5, 1.0);
        size_t k = 1 + next_u64() % 50, in_radius = 0;
        brute_force(pts, N, c, model, GEOLOC_UNIT_KILOMETERS, want);
        while (in_radius < N && want[in_radius].distance <= r) in_radius++;
        for (int w = 0; w < 2; w++) {
            size_t count = 0;
            if (geoloc_places_within(sets[w], c, r, model, GEOLOC_UNIT_KILOMETERS, 0, got, N, &count) != GEOLOC_OK ||
                !same_matches(got, count, want, in_radius)) {
                if (mismatches_within[w]++ < 5) {
                    fprintf(stderr, "    %swithin(%.17g, %.17g, %.17g km): %zu results, brute force %zu\n",
                            w ? "reopened " : "", c.lat, c.lon, r, count, in_radius);
                }
            }
            if (geoloc_places_nearest(sets[w], c, k, model, GEOLOC_UNIT_KILOMETERS, INFINITY, got, N, &count) !=
                    GEOLOC_OK ||
                !same_matches(got, count, want, k)) {
                if (mismatches_nearest[w]++ < 5) {
                    fprintf(stderr, "    %snearest(%.17g, %.17g, k=%zu) differs from brute force\n",
                            w ? "reopened " : "", c.lat, c.lon, k);
                }
            }
        }
    }
    CHECK(mismatches_within[0] == 0);
    CHECK(mismatches_nearest[0] == 0);
    CHECK(mismatches_within[1] == 0);
    CHECK(mismatches_nearest[1] == 0);
    geoloc_places_destroy(sets[1]);
    geoloc_places_destroy(sets[0]);
}

/* ---------------------------------------------------------------------------------------------
 * Regions
 * ------------------------------------------------------------------------------------------- */

/* Inside the square [-90, -88] x [38, 40] minus the hole [-89.5, -88.5] x [38.5, 39.5], boundary
 * included (the hole's boundary belongs to the polygon). */
static int in_square_with_hole(geoloc_coord c)
{
    int in_outer = c.lon >= -90 && c.lon <= -88 && c.lat >= 38 && c.lat <= 40;
    int in_hole = c.lon > -89.5 && c.lon < -88.5 && c.lat > 38.5 && c.lat < 39.5;
    return in_outer && !in_hole;
}

static void test_regions(void)
{
    const char *wkt = "POLYGON((-90 38, -88 38, -88 40, -90 40, -90 38),"
                      "(-89.5 38.5, -88.5 38.5, -88.5 39.5, -89.5 39.5, -89.5 38.5))";
    const char *geojson =
        "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":"
        "[[[-90,38],[-88,38],[-88,40],[-90,40],[-90,38]],"
        "[[-89.5,38.5],[-88.5,38.5],[-88.5,39.5],[-89.5,39.5],[-89.5,38.5]]]}}";
    enum { N = 2000 };
    static geoloc_coord pts[N];
    static geoloc_match got[N], got2[N];
    static struct bf want[N];
    geoloc_region *r = NULL, *r2 = NULL, *bad = (geoloc_region *)&bad;
    geoloc_region *const sentinel = bad;
    geoloc_places *p;
    size_t count = 0, count2 = 0, n_in = 0;
    bool inside = false;
    int mismatches = 0;

    CHECK_OK(geoloc_region_from_wkt(wkt, &r));
    CHECK_OK(geoloc_region_from_geojson(geojson, &r2));
    for (size_t i = 0; i < N; i++) {
        pts[i].lat = uniform(37.5, 40.5);
        pts[i].lon = uniform(-90.5, -87.5);
    }
    pts[0] = (geoloc_coord){38, -90};   /* a corner */
    pts[1] = (geoloc_coord){39, -89.5}; /* on the hole's edge */
    pts[2] = (geoloc_coord){39, -89};   /* in the hole */
    p = make_set(pts, N);
    for (size_t i = 0; i < N; i++) {
        CHECK_OK(geoloc_region_contains(r, pts[i], &inside));
        if ((int)inside != in_square_with_hole(pts[i]) && mismatches++ < 5) {
            fprintf(stderr, "    contains(%.17g, %.17g) = %d\n", pts[i].lat, pts[i].lon, (int)inside);
        }
    }
    CHECK(mismatches == 0);

    /* In index order without an origin, distance 0. */
    CHECK_OK(geoloc_places_in_region(p, r, NULL, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, 0, got, N, &count));
    for (size_t i = 0; i < N; i++) n_in += (size_t)in_square_with_hole(pts[i]);
    CHECK(count == n_in);
    {
        size_t j = 0;
        int ok = 1;
        for (size_t i = 0; i < N && j <= count; i++) {
            if (!in_square_with_hole(pts[i])) continue;
            if (j >= count || got[j].index != i || got[j].distance != 0) ok = 0;
            j++;
        }
        CHECK(ok);
    }
    /* Sorted from an origin, as brute force sorts; the GeoJSON region agrees with the WKT one. */
    {
        geoloc_coord origin = {39.0, -88.9};
        size_t j = 0;
        brute_force(pts, N, origin, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, want);
        for (size_t i = 0; i < N; i++) {
            if (in_square_with_hole(pts[want[i].index])) want[j++] = want[i];
        }
        CHECK_OK(geoloc_places_in_region(p, r, &origin, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, 0, got, N, &count));
        CHECK(same_matches(got, count, want, j));
        CHECK_OK(geoloc_places_in_region(p, r2, &origin, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, 0, got2, N, &count2));
        CHECK(count2 == count && memcmp(got, got2, count * sizeof *got) == 0);
        CHECK_OK(geoloc_places_in_region(p, r, &origin, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, 10, got, N, &count));
        CHECK(same_matches(got, count, want, 10));
    }

    /* Errors. */
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_region_from_wkt(NULL, &bad));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_region_from_wkt(wkt, NULL));
    CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_region_from_wkt("POLYGON((\xff", &bad));
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_region_from_wkt("POLYGON((0 0, 1 0", &bad));
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_region_from_wkt("", &bad));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_region_from_wkt("LINESTRING(0 0, 1 1)", &bad));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_region_from_wkt("POLYGON EMPTY", &bad));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_region_from_wkt("POLYGON((0 0, 10 0, 10 91, 0 0))", &bad));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_region_from_wkt("POLYGON((0 0, 181 0, 10 10, 0 0))", &bad));
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_region_from_geojson("{\"type\":\"Polygon\"", &bad));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT,
              geoloc_region_from_geojson("{\"type\":\"Point\",\"coordinates\":[1,2]}", &bad));
    CHECK(bad == sentinel);
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_region_contains(NULL, pts[0], &inside));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_region_contains(r, pts[0], NULL));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_region_contains(r, (geoloc_coord){95, 0}, &inside));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_in_region(p, NULL, NULL, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, 0, got, N, &count));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_places_in_region(p, r, &(geoloc_coord){91, 0}, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, 0, got, N, &count));
    geoloc_region_destroy(r);
    geoloc_region_destroy(r2);
    geoloc_region_destroy(NULL);
    geoloc_places_destroy(p);
}

/* ---------------------------------------------------------------------------------------------
 * Loaders
 * ------------------------------------------------------------------------------------------- */

static void test_loaders(void)
{
    const char *csv = "id,name,lat,lon,kind\n"
                      "m1,\"Masjid, Central\",38.3,-88.9,mosque\n"
                      "m2,Bad Lat,95,-88.9,mosque\n"
                      "m3,Short Row,38.1\n"
                      "m4,\"Two\nLines\",38.2,-88.7,church\n"
                      "m5,NaN,nan,-88.7,church\n";
    const char *geojson =
        "{\"type\":\"FeatureCollection\",\"features\":["
        "{\"type\":\"Feature\",\"id\":7,\"geometry\":{\"type\":\"Point\",\"coordinates\":[-88.9,38.3]},"
        "\"properties\":{\"name\":\"A\",\"capacity\":250,\"open\":true,\"note\":null}},"
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[0,0],[1,1]]},\"properties\":{}},"
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[-88.8,38.4]},\"properties\":{\"name\":\"B\"}}"
        "]}";
    geoloc_places *p = NULL;
    geoloc_load_options strict = {0};
    size_t count = 0, record = 0, needed = 0;
    char buf[256];

    CHECK_OK(geoloc_places_parse_csv(csv, strlen(csv), NULL, &p));
    CHECK_OK(geoloc_places_count(p, &count));
    CHECK(count == 2);
    CHECK_OK(geoloc_places_name(p, 0, buf, sizeof buf, &needed));
    CHECK_STR(buf, "Masjid, Central");
    CHECK_OK(geoloc_places_name(p, 1, buf, sizeof buf, &needed));
    CHECK_STR(buf, "Two\nLines");
    CHECK_OK(geoloc_places_attribute(p, 1, "kind", buf, sizeof buf, &needed));
    CHECK_STR(buf, "church");
    CHECK_OK(geoloc_places_id(p, 1, buf, sizeof buf, &needed));
    CHECK_STR(buf, "m4");
    CHECK_OK(geoloc_places_issue_count(p, &count));
    CHECK(count == 3);
    if (count == 3) {
        /* Records start on lines 3, 4 and 7 (the quoted newline makes record m4 two lines). */
        CHECK_OK(geoloc_places_issue(p, 0, &record, buf, sizeof buf, &needed));
        CHECK(record == 3);
        CHECK_OK(geoloc_places_issue(p, 1, &record, buf, sizeof buf, &needed));
        CHECK(record == 4);
        CHECK_OK(geoloc_places_issue(p, 2, &record, buf, sizeof buf, &needed));
        CHECK(record == 7);
    }
    geoloc_places_destroy(p);
    p = NULL;

    strict.strict = true;
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_places_parse_csv(csv, strlen(csv), &strict, &p));
    CHECK(p == NULL);
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_parse_csv("a,b\n1,2\n", 8, NULL, &p));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_parse_csv(NULL, 5, NULL, &p));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_parse_csv(csv, strlen(csv), NULL, NULL));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_places_load_csv("/nonexistent/places.csv", NULL, &p));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_places_load_geojson("/nonexistent/places.geojson", NULL, &p));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_load_csv(NULL, NULL, &p));
    {
        geoloc_load_options named = {0};
        named.latitude_column = "\xff";
        CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_places_parse_csv(csv, strlen(csv), &named, &p));
        named.latitude_column = "lat";
        named.longitude_column = "lon";
        named.delimiter = ';';
        CHECK_OK(geoloc_places_parse_csv("lat;lon;name\n1;2;x\n", 19, &named, &p));
        CHECK_OK(geoloc_places_count(p, &count));
        CHECK(count == 1);
        geoloc_places_destroy(p);
        p = NULL;
    }

    CHECK_OK(geoloc_places_parse_geojson(geojson, strlen(geojson), NULL, &p));
    CHECK_OK(geoloc_places_count(p, &count));
    CHECK(count == 2);
    CHECK_OK(geoloc_places_id(p, 0, buf, sizeof buf, &needed));
    CHECK_STR(buf, "7");
    CHECK_OK(geoloc_places_attribute(p, 0, "capacity", buf, sizeof buf, &needed));
    CHECK_STR(buf, "250");
    CHECK_OK(geoloc_places_attribute(p, 0, "open", buf, sizeof buf, &needed));
    CHECK_STR(buf, "true");
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_places_attribute(p, 0, "note", buf, sizeof buf, &needed));
    CHECK_OK(geoloc_places_issue_count(p, &count));
    CHECK(count == 1);
    CHECK_OK(geoloc_places_issue(p, 0, &record, buf, sizeof buf, &needed));
    CHECK(record == 1);
    geoloc_places_destroy(p);
    p = NULL;
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_places_parse_geojson("{\"type\": [", 10, NULL, &p));
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_places_parse_geojson(geojson, strlen(geojson), &strict, &p));
    CHECK(p == NULL);
}

/* ---------------------------------------------------------------------------------------------
 * Saved sets: geoloc_places_save and geoloc_places_open
 * ------------------------------------------------------------------------------------------- */

/* A file name in the temporary directory, unique to this process. */
static void temp_path(char *buf, size_t cap, const char *name)
{
    const char *dir = getenv("TMPDIR");
    snprintf(buf, cap, "%s/geoloc-test-places-%ld-%s", dir && *dir ? dir : "/tmp", (long)getpid(), name);
}

/* The bytes of a file (malloc'd; *len set). */
static unsigned char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0;
    if (!f) return NULL;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 4096;
            buf = realloc(buf, cap);
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0) break;
        n += got;
    }
    fclose(f);
    *len = n;
    return buf;
}

static void write_all(const char *path, const unsigned char *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK(fwrite(bytes, 1, len, f) == len);
    fclose(f);
}

/* Saves p and opens the file again (the caller destroys it). */
static geoloc_places *reopened(const geoloc_places *p, const char *name)
{
    char path[512];
    geoloc_places *o = NULL;
    temp_path(path, sizeof path, name);
    CHECK_OK(geoloc_places_save(p, path));
    CHECK_OK(geoloc_places_open(path, &o));
    remove(path); /* the mapping stays valid */
    return o;
}

/* Every field of every place, and a spread of queries, the same on both sets. */
static int same_sets(const geoloc_places *a, const geoloc_places *b)
{
    size_t na = 0, nb = 0, attrs = 0, attrs_b = 0;
    char x[256], y[256], name[256];
    size_t nx, ny;
    geoloc_match ma[64], mb[64];
    int same = 1;
    CHECK_OK(geoloc_places_count(a, &na));
    CHECK_OK(geoloc_places_count(b, &nb));
    CHECK_OK(geoloc_places_attribute_count(a, &attrs));
    CHECK_OK(geoloc_places_attribute_count(b, &attrs_b));
    if (na != nb || attrs != attrs_b) return 0;
    for (size_t i = 0; i < na && same; i++) {
        geoloc_coord ca, cb;
        geoloc_places_coord(a, i, &ca);
        geoloc_places_coord(b, i, &cb);
        same &= ca.lat == cb.lat && ca.lon == cb.lon;
        geoloc_places_id(a, i, x, sizeof x, &nx);
        geoloc_places_id(b, i, y, sizeof y, &ny);
        same &= nx == ny && strcmp(x, y) == 0;
        geoloc_places_name(a, i, x, sizeof x, &nx);
        geoloc_places_name(b, i, y, sizeof y, &ny);
        same &= nx == ny && strcmp(x, y) == 0;
        for (size_t j = 0; j < attrs; j++) {
            geoloc_places_attribute_name(a, j, name, sizeof name, &nx);
            geoloc_status sa = geoloc_places_attribute(a, i, name, x, sizeof x, &nx);
            geoloc_status sb = geoloc_places_attribute(b, i, name, y, sizeof y, &ny);
            same &= sa == sb && (sa != GEOLOC_OK || strcmp(x, y) == 0);
        }
    }
    for (int q = 0; q < 100 && same; q++) {
        geoloc_coord c = random_point();
        double r = uniform(1, 3000);
        size_t ca = 0, cb = 0;
        geoloc_status sa = geoloc_places_within(a, c, r, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 0, ma, 64, &ca);
        geoloc_status sb = geoloc_places_within(b, c, r, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 0, mb, 64, &cb);
        same &= sa == sb && ca == cb && memcmp(ma, mb, (ca < 64 ? ca : 64) * sizeof *ma) == 0;
        sa = geoloc_places_nearest(a, c, 5, GEOLOC_MODEL_WGS84, GEOLOC_UNIT_MILES, INFINITY, ma, 64, &ca);
        sb = geoloc_places_nearest(b, c, 5, GEOLOC_MODEL_WGS84, GEOLOC_UNIT_MILES, INFINITY, mb, 64, &cb);
        same &= sa == sb && ca == cb && memcmp(ma, mb, ca * sizeof *ma) == 0;
    }
    return same;
}

static void test_place_files(void)
{
    const geoloc_coord pts[] = {{38.3, -88.9}, {-33.9, 151.2}, {90, 0}, {0, -180}, {51.5, -0.1}};
    const char *ids[] = {"a", "bb", "", "d", "e"};
    const char *names[] = {"Mount Vernon", "Sydney", NULL, "Date line", "Z\xc3\xbcrich"};
    const char *attr_names[] = {"cc", "admin1"};
    const char *values[] = {"US", "IL", "AU", NULL, "", "", NULL, NULL, "GB", "ENG"};
    geoloc_places *p = NULL, *o = NULL, *numbered = NULL;
    char path[512], other[512], buf[64];
    size_t len = 0, needed = 0, n = 0;

    CHECK_OK(geoloc_places_create(pts, ids, names, 5, attr_names, 2, values, &p));
    CHECK_OK(geoloc_places_create(pts, NULL, names, 5, attr_names, 2, values, &numbered));
    o = reopened(p, "small.places");
    CHECK(same_sets(p, o));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_places_attribute(o, 1, "admin1", buf, sizeof buf, &needed));
    CHECK_OK(geoloc_places_name(o, 4, buf, sizeof buf, &needed));
    CHECK(strcmp(buf, "Z\xc3\xbcrich") == 0);
    geoloc_places_destroy(o);
    o = reopened(numbered, "numbered.places");
    CHECK(same_sets(numbered, o));
    CHECK_OK(geoloc_places_id(o, 3, buf, sizeof buf, &needed));
    CHECK(strcmp(buf, "4") == 0 && needed == 2);
    geoloc_places_destroy(o);

    /* Arguments. */
    temp_path(path, sizeof path, "small.places");
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_save(NULL, path));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_save(p, NULL));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_save(p, ""));
    CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_places_save(p, "/tmp/\xff.places"));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_save(p, "/nonexistent-dir/x.places"));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_open(path, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_places_open(NULL, &o));
    CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_places_open("/tmp/\xff.places", &o));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_places_open("/nonexistent-dir/x.places", &o));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_open("/tmp", &o));

    /* Every truncation and every one-byte corruption of the file is refused. */
    CHECK_OK(geoloc_places_save(p, path));
    unsigned char *file = read_all(path, &len);
    CHECK(file != NULL && len > 128);
    temp_path(other, sizeof other, "bad.places");
    int accepted = 0, crashed_status = 0;
    for (size_t cut = 0; file && cut < len; cut++) {
        write_all(other, file, cut);
        o = NULL;
        geoloc_status s = geoloc_places_open(other, &o);
        accepted += s == GEOLOC_OK;
        crashed_status += s != GEOLOC_E_PARSE || o != NULL || geoloc_last_error()[0] == 0;
        geoloc_places_destroy(o);
    }
    for (size_t i = 0; file && i < len; i++) {
        file[i] ^= 0x5a;
        write_all(other, file, len);
        file[i] ^= 0x5a;
        o = NULL;
        geoloc_status s = geoloc_places_open(other, &o);
        accepted += s == GEOLOC_OK;
        crashed_status += (s != GEOLOC_E_PARSE && s != GEOLOC_E_UNSUPPORTED) || o != NULL;
        geoloc_places_destroy(o);
    }
    CHECK(accepted == 0);
    CHECK(crashed_status == 0);
    /* A CSV file is not a place file. */
    write_all(other, (const unsigned char *)"lat,lon\n1,2\n", 12);
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_places_open(other, &o));
    remove(other);
    free(file);

    /* A second process opens the file while this one has it open, and answers the same. */
    CHECK_OK(geoloc_places_open(path, &o));
    fflush(NULL);
    pid_t child = fork();
    if (child == 0) {
        geoloc_places *c = NULL;
        int ok = geoloc_places_open(path, &c) == GEOLOC_OK && same_sets(p, c) && same_sets(o, c);
        geoloc_places_destroy(c);
        _exit(ok ? 0 : 1);
    }
    int status = -1;
    CHECK(child > 0 && waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    /* Saving over the open file replaces it; the open set keeps reading the old one. */
    CHECK_OK(geoloc_places_save(numbered, path));
    CHECK(same_sets(p, o));
    geoloc_places_destroy(o);
    CHECK_OK(geoloc_places_open(path, &o));
    CHECK(same_sets(numbered, o));
    CHECK_OK(geoloc_places_count(o, &n));
    CHECK(n == 5);
    geoloc_places_destroy(o);
    remove(path);
    geoloc_places_destroy(numbered);
    geoloc_places_destroy(p);
}

/* ---------------------------------------------------------------------------------------------
 * Many threads on one set
 * ------------------------------------------------------------------------------------------- */

enum { T_POINTS = 5000, T_QUERIES = 400, T_THREADS = 4, T_MAX = 64 };

/* Queries per thread and rounds: fewer under helgrind (the "threads" mode), which is slow. */
static size_t t_queries = T_QUERIES;
static int t_rounds = 3;

struct thread_job {
    const geoloc_places *places;
    const geoloc_region *region;
    const geoloc_gazetteer *gazetteer;
    const geoloc_coord *queries;
    size_t (*want_counts)[3];
    geoloc_match (*want)[3][T_MAX];
    size_t *want_gaz;
    int mismatches;
    long mutex_calls; /* pthread mutex calls made by the radius and nearest queries */
};

/* Runs every query kind for query q; answers[kind] get the first T_MAX matches. */
static int run_queries(const struct thread_job *job, size_t q, size_t counts[3], geoloc_match out[3][T_MAX],
                       size_t *gaz_index)
{
    geoloc_match all[T_POINTS];
    size_t c = 0;
    int ok = 1;
    long before = mutex_calls;
    geoloc_status s = geoloc_places_within(job->places, job->queries[q], 100, GEOLOC_MODEL_SPHERE,
                                           GEOLOC_UNIT_KILOMETERS, T_MAX, all, T_POINTS, &c);
    ok &= s == GEOLOC_OK;
    counts[0] = c;
    memcpy(out[0], all, (c < T_MAX ? c : T_MAX) * sizeof *all);
    ok &= geoloc_places_nearest(job->places, job->queries[q], 10, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS,
                                INFINITY, out[1], T_MAX, &counts[1]) == GEOLOC_OK;
    ((struct thread_job *)job)->mutex_calls += mutex_calls - before;
    ok &= geoloc_places_in_region(job->places, job->region, &job->queries[q], GEOLOC_MODEL_SPHERE,
                                  GEOLOC_UNIT_METERS, T_MAX, out[2], T_MAX, &counts[2]) == GEOLOC_OK;
    if (job->gazetteer != NULL) {
        char buf[256];
        size_t needed;
        geoloc_match m;
        geoloc_status st = geoloc_reverse_geocode(job->gazetteer, job->queries[q], GEOLOC_ADDRESS_CITY_STATE, buf,
                                                  sizeof buf, &needed, &m);
        ok &= st == GEOLOC_OK || st == GEOLOC_E_NO_LOCALITY; /* far points have no locality */
        *gaz_index = m.index;
    }
    return ok;
}

static void *thread_main(void *arg)
{
    struct thread_job *job = arg;
    /* One query first: whatever a thread sets up on its first call is not the query path. */
    {
        size_t counts[3], gaz = 0;
        geoloc_match out[3][T_MAX];
        run_queries(job, 0, counts, out, &gaz);
        job->mutex_calls = 0;
    }
    for (int rep = 0; rep < t_rounds; rep++) {
        for (size_t q = 0; q < t_queries; q++) {
            size_t counts[3], gaz = 0;
            geoloc_match out[3][T_MAX];
            int ok = run_queries(job, q, counts, out, &gaz);
            for (int k = 0; k < 3 && ok; k++) {
                size_t n = counts[k] < T_MAX ? counts[k] : T_MAX;
                ok = counts[k] == job->want_counts[q][k] && memcmp(out[k], job->want[q][k], n * sizeof out[k][0]) == 0;
            }
            if (job->gazetteer != NULL && gaz != job->want_gaz[q]) ok = 0;
            if (!ok) job->mismatches++;
        }
    }
    return NULL;
}

static void test_threads(void)
{
    static geoloc_coord pts[T_POINTS], queries[T_QUERIES];
    static size_t want_counts[T_QUERIES][3], want_gaz[T_QUERIES];
    static geoloc_match want[T_QUERIES][3][T_MAX];
    struct thread_job jobs[T_THREADS];
    pthread_t threads[T_THREADS];
    geoloc_region *r = NULL;
    geoloc_places *p, *made;
    int total = 0;
    long calls = 0;

    for (size_t i = 0; i < T_POINTS; i++) {
        pts[i].lat = uniform(25, 50);
        pts[i].lon = uniform(-125, -65);
    }
    for (size_t q = 0; q < T_QUERIES; q++) queries[q] = pts[next_u64() % T_POINTS];
    /* The threads query the set saved and reopened: the mapped file is what processes share. */
    made = make_set(pts, T_POINTS);
    p = reopened(made, "threads.places");
    CHECK(same_sets(made, p));
    geoloc_places_destroy(made);
    long region_calls = mutex_calls;
    CHECK_OK(geoloc_region_from_wkt("POLYGON((-100 30, -80 30, -80 45, -100 45, -100 30))", &r));
    /* The counter does count: a region's GEOS geometries are made under libgeoloc's lock. */
    CHECK(mutex_calls > region_calls);
    /* The answers of one thread first... */
    {
        struct thread_job one = {p, r, gazetteer, queries, want_counts, want, want_gaz, 0, 0};
        for (size_t q = 0; q < t_queries; q++) CHECK(run_queries(&one, q, want_counts[q], want[q], &want_gaz[q]));
    }
    /* ...then the same queries from several at once. */
    for (int t = 0; t < T_THREADS; t++) {
        jobs[t] = (struct thread_job){p, r, gazetteer, queries, want_counts, want, want_gaz, 0, 0};
        CHECK(pthread_create(&threads[t], NULL, thread_main, &jobs[t]) == 0);
    }
    for (int t = 0; t < T_THREADS; t++) {
        pthread_join(threads[t], NULL);
        total += jobs[t].mismatches;
        calls += jobs[t].mutex_calls;
    }
    CHECK(total == 0);
    /* No lock on the query path: not one mutex call in the threads' radius and nearest queries. */
    if (!CHECK(calls == 0)) fprintf(stderr, "    %ld pthread mutex calls in the threads' queries\n", calls);
    geoloc_region_destroy(r);
    geoloc_places_destroy(p);
}

/* Issue 13 (hardening): handles know their type and whether they are alive. */
static void test_handle_misuse(void)
{
    geoloc_places *p = NULL, *q = NULL;
    geoloc_region *r = NULL;
    size_t n = 99;
    bool inside;
    const char csv[] = "lat,lon\n1,2\n";
    geoloc_match m[2];

    if (!CHECK_OK(geoloc_places_parse_csv(csv, sizeof csv - 1, NULL, &p))) return;
    if (!CHECK_OK(geoloc_region_from_wkt("POLYGON((0 0,1 0,1 1,0 1,0 0))", &r))) return;
    /* A wrong handle type. */
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_count((geoloc_places *)r, &n));
    CHECK_STR(geoloc_last_error(), "places is a region, not a place set");
    CHECK(n == 99);
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_region_contains((geoloc_region *)p, MOUNT_VERNON, &inside));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT,
              geoloc_places_in_region(p, (geoloc_region *)p, NULL, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, 0,
                                      m, 2, &n));
    geoloc_places_destroy((geoloc_places *)r); /* refused: r is still a region */
    CHECK_STR(geoloc_last_error(), "places is a region, not a place set");
    CHECK_OK(geoloc_region_contains(r, (geoloc_coord){0.5, 0.5}, &inside));
    CHECK(inside);
    /* Use after destroy, double destroy. */
    geoloc_places_destroy(p);
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_count(p, &n));
    CHECK_STR(geoloc_last_error(), "places was destroyed");
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT,
              geoloc_places_within(p, MOUNT_VERNON, 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, 0, m, 2, &n));
    geoloc_places_destroy(p);
    CHECK_STR(geoloc_last_error(), "places was destroyed");
    geoloc_region_destroy(r);
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_region_contains(r, MOUNT_VERNON, &inside));
    geoloc_region_destroy(r);
    CHECK_STR(geoloc_last_error(), "region was destroyed");
    /* Memory that never was a handle. */
    {
        uint64_t junk[2] = {0x1234, 0};
        CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_count((geoloc_places *)junk, &n));
        CHECK_STR(geoloc_last_error(), "places is not a libgeoloc handle");
    }
    /* A new handle works while destroyed ones are still caught. */
    CHECK_OK(geoloc_places_parse_csv(csv, sizeof csv - 1, NULL, &q));
    CHECK_OK(geoloc_places_count(q, &n));
    CHECK(n == 1);
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_count(p, &n));
    geoloc_places_destroy(q);
}

/* Issue 13: a NUL inside CSV or GeoJSON text cannot reach text out. */
static void test_nul_in_loaded_text(void)
{
    geoloc_places *p = NULL;
    const char csv[] = "lat,lon,name\n1,2,ab\0cd\n3,4,ok\n";
    const char header[] = "lat,lon,na\0me\n1,2,x\n";
    const char gj[] = "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]},"
                      "\"properties\":{\"name\":\"ab\\u0000cd\"}}";
    char buf[64];
    size_t n = 0, needed = 0, record = 0;
    geoloc_load_options strict = {0};
    strict.strict = true;

    if (CHECK_OK(geoloc_places_parse_csv(csv, sizeof csv - 1, NULL, &p))) {
        CHECK_OK(geoloc_places_count(p, &n));
        CHECK(n == 1);
        CHECK_OK(geoloc_places_name(p, 0, buf, sizeof buf, &needed));
        CHECK_STR(buf, "ok");
        CHECK(needed == strlen(buf) + 1);
        CHECK_OK(geoloc_places_issue_count(p, &n));
        CHECK(n == 1);
        CHECK_OK(geoloc_places_issue(p, 0, &record, buf, sizeof buf, &needed));
        CHECK(record == 2);
        CHECK_STR(buf, "has a NUL byte");
        geoloc_places_destroy(p);
    }
    p = NULL;
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_places_parse_csv(csv, sizeof csv - 1, &strict, &p));
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_places_parse_csv(header, sizeof header - 1, NULL, &p));
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_places_parse_geojson(gj, sizeof gj - 1, NULL, &p));
    CHECK(strstr(geoloc_last_error(), "\\u0000") != NULL);
    CHECK(p == NULL);
}

/* Issue 13: an empty or blank-only CSV has no latitude column, like any other header without. */
static void test_empty_csv_is_an_error(void)
{
    geoloc_places *p = NULL;
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_parse_csv("", 0, NULL, &p));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_parse_csv("\n\r\n\n", 4, NULL, &p));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_parse_csv("\xef\xbb\xbf", 3, NULL, &p));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_parse_csv("name\nx\n", 7, NULL, &p));
    CHECK(p == NULL);
    if (CHECK_OK(geoloc_places_parse_csv("lat,lon\n", 8, NULL, &p))) geoloc_places_destroy(p);
}

/* Issue 13: WKT with text after the geometry is refused, as the other readers refuse it. */
static void test_wkt_trailing_text(void)
{
    geoloc_region *r = NULL;
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_region_from_wkt("POLYGON((0 0,1 0,1 1,0 1,0 0)) this is not WKT", &r));
    CHECK_STR(geoloc_last_error(), "WKT: there is text after the geometry: \"this is not WKT\"");
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_region_from_wkt("POLYGON((0 0,1 0,1 1,0 1,0 0)),", &r));
    CHECK(r == NULL);
    if (CHECK_OK(geoloc_region_from_wkt(" POLYGON ((0 0,1 0,1 1,0 1,0 0))\n\t", &r))) geoloc_region_destroy(r);
}

/* Issue 13: a load keeps at most max_issues reports and counts the rest; max_places bounds it. */
static void test_load_limits(void)
{
    const size_t rows = 20000;
    char *bad = malloc(8 + 4 * rows + 1);
    size_t len = 0, kept = 0, total = 0, n = 0;
    geoloc_places *p = NULL;
    geoloc_load_limits limits = {sizeof limits, 5, 0};
    geoloc_load_limits tiny = {sizeof(size_t), 0, 0};
    geoloc_load_limits bad_size = {0, 0, 0};
    geoloc_load_limits one = {sizeof one, 0, 1};
    if (!CHECK(bad != NULL)) return;
    memcpy(bad, "lat,lon\n", 8);
    len = 8;
    for (size_t i = 0; i < rows; i++, len += 4) memcpy(bad + len, "x,y\n", 4);
    /* The defaults, through the 0.2 function. */
    if (CHECK_OK(geoloc_places_parse_csv(bad, len, NULL, &p))) {
        CHECK_OK(geoloc_places_issue_count(p, &kept));
        CHECK_OK(geoloc_places_issue_total(p, &total));
        CHECK(kept == GEOLOC_LOAD_DEFAULT_MAX_ISSUES);
        CHECK(total == rows);
        geoloc_places_destroy(p);
    }
    if (CHECK_OK(geoloc_places_parse_limited(bad, len, GEOLOC_LOAD_CSV, NULL, &limits, &p))) {
        CHECK_OK(geoloc_places_issue_count(p, &kept));
        CHECK_OK(geoloc_places_issue_total(p, &total));
        CHECK(kept == 5 && total == rows);
        geoloc_places_destroy(p);
    }
    /* A struct from an older header (only struct_size): the defaults for the rest. */
    if (CHECK_OK(geoloc_places_parse_limited(bad, len, GEOLOC_LOAD_CSV, NULL, &tiny, &p))) {
        CHECK_OK(geoloc_places_issue_count(p, &kept));
        CHECK(kept == GEOLOC_LOAD_DEFAULT_MAX_ISSUES);
        geoloc_places_destroy(p);
    }
    free(bad);
    p = NULL;
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_parse_limited("lat,lon\n", 8, GEOLOC_LOAD_CSV, NULL, &bad_size, &p));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_parse_limited("lat,lon\n", 8, (geoloc_load_format)7, NULL, NULL, &p));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_places_parse_limited("lat,lon\n1,2\n3,4\n", 16, GEOLOC_LOAD_CSV, NULL, &one, &p));
    CHECK(p == NULL);
    if (CHECK_OK(geoloc_places_parse_limited("lat,lon\n1,2\n", 12, GEOLOC_LOAD_CSV, NULL, &one, &p))) {
        CHECK_OK(geoloc_places_count(p, &n));
        CHECK(n == 1);
        geoloc_places_destroy(p);
    }
    {
        const char gj[] = "{\"type\":\"FeatureCollection\",\"features\":["
                          "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]},\"properties\":{}},"
                          "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[3,4]},\"properties\":{}}]}";
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_places_parse_limited(gj, sizeof gj - 1, GEOLOC_LOAD_GEOJSON, NULL, &one, &p));
        if (CHECK_OK(geoloc_places_parse_limited(gj, sizeof gj - 1, GEOLOC_LOAD_GEOJSON, NULL, NULL, &p))) {
            geoloc_places_destroy(p);
        }
    }
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_places_load_limited("/nonexistent/places.csv", GEOLOC_LOAD_CSV, NULL, NULL, &p));
}

/* A set opened from a place file is a tagged handle too: use after destroy and a double destroy
 * are caught, and a region is not taken for it. */
static void test_place_file_handle_misuse(void)
{
    geoloc_places *p = NULL, *o = NULL;
    geoloc_region *r = NULL;
    size_t n = 99;
    const char csv[] = "lat,lon,name\n1,2,a\n3,4,b\n";

    if (!CHECK_OK(geoloc_places_parse_csv(csv, sizeof csv - 1, NULL, &p))) return;
    o = reopened(p, "misuse.places");
    geoloc_places_destroy(p);
    if (!CHECK(o != NULL)) return;
    CHECK_OK(geoloc_places_count(o, &n));
    CHECK(n == 2);
    CHECK_OK(geoloc_places_issue_total(o, &n)); /* an opened set has no load issues */
    CHECK(n == 0);
    if (CHECK_OK(geoloc_region_from_wkt("POLYGON((0 0,1 0,1 1,0 1,0 0))", &r))) {
        bool inside = false;
        CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_region_contains((geoloc_region *)o, (geoloc_coord){0.5, 0.5}, &inside));
        CHECK_STR(geoloc_last_error(), "region is a place set, not a region");
        geoloc_region_destroy(r);
    }
    geoloc_places_destroy(o);
    n = 99;
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_count(o, &n));
    CHECK_STR(geoloc_last_error(), "places was destroyed");
    CHECK(n == 99);
    geoloc_places_destroy(o);
    CHECK_STR(geoloc_last_error(), "places was destroyed");
}

/* Issue 18: a radius query with more results than the caller's first array ran the whole
 * search twice (once to count, once to fill). The results of a query that did not fit are kept
 * for the calling thread, and the identical call that comes back with room copies them: the
 * answers below must be those of a fresh search whatever happens between the two calls (another
 * query, the set destroyed and another made, possibly at the same address). */
static void test_radius_query_never_searches_twice(void)
{
    enum { N = 2000 };
    geoloc_coord *coords = malloc(N * sizeof *coords);
    geoloc_match small[4], *all = malloc(N * sizeof *all), *again = malloc(N * sizeof *again);
    size_t count = 0, count2 = 0, offsets[3];
    geoloc_places *p = NULL, *q = NULL;
    geoloc_region *r = NULL;
    const geoloc_coord c = {38.3, -88.9};
    for (size_t i = 0; i < N; i++) {
        coords[i].lat = 38.0 + (double)(i % 50) * 0.01;
        coords[i].lon = -89.2 + (double)(i / 50) * 0.01;
    }
    CHECK_OK(geoloc_places_create(coords, NULL, NULL, N, NULL, 0, NULL, &p));
    /* The reference: one call with room for everything. */
    CHECK_OK(geoloc_places_within(p, c, 20, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 0, all, N, &count));
    CHECK(count > 4);
    /* Ask, allocate, ask again: the same answer. */
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL,
              geoloc_places_within(p, c, 20, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 0, small, 4, &count2));
    CHECK(count2 == count && memcmp(small, all, sizeof small) == 0);
    CHECK_OK(geoloc_places_within(p, c, 20, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 0, again, N, &count2));
    CHECK(count2 == count && memcmp(again, all, count * sizeof *all) == 0);
    /* A different query in between: each answers for itself. */
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL,
              geoloc_places_within(p, c, 20, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 0, small, 4, &count2));
    CHECK_OK(geoloc_places_within(p, c, 5, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 0, again, N, &count2));
    CHECK(count2 < count);
    CHECK_OK(geoloc_places_within(p, c, 20, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 0, again, N, &count2));
    CHECK(count2 == count && memcmp(again, all, count * sizeof *all) == 0);
    /* The set destroyed between the two calls and another made: never the old set's answer. */
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL,
              geoloc_places_within(p, c, 20, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 0, small, 4, &count2));
    geoloc_places_destroy(p);
    CHECK_OK(geoloc_places_create(coords, NULL, NULL, N / 2, NULL, 0, NULL, &q));
    CHECK_OK(geoloc_places_within(q, c, 20, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 0, again, N, &count2));
    CHECK(count2 < count);
    /* Regions and many centres keep theirs the same way. */
    CHECK_OK(geoloc_region_from_wkt("POLYGON((-90 37, -88 37, -88 40, -90 40, -90 37))", &r));
    CHECK_OK(geoloc_places_in_region(q, r, &c, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 0, all, N, &count));
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL,
              geoloc_places_in_region(q, r, &c, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 0, small, 4, &count2));
    CHECK_OK(geoloc_places_in_region(q, r, &c, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 0, again, N, &count2));
    CHECK(count2 == count && memcmp(again, all, count * sizeof *all) == 0);
    {
        geoloc_coord two[2] = {c, {38.1, -89.0}};
        CHECK_OK(geoloc_places_within_many(q, two, 2, 10, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 0, offsets,
                                           all, N, &count));
        CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL,
                  geoloc_places_within_many(q, two, 2, 10, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 0, offsets,
                                            small, 4, &count2));
        CHECK_OK(geoloc_places_within_many(q, two, 2, 10, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 0, offsets,
                                           again, N, &count2));
        CHECK(count2 == count && memcmp(again, all, count * sizeof *all) == 0);
    }
    geoloc_region_destroy(r);
    geoloc_places_destroy(q);
    free(coords);
    free(all);
    free(again);
}

int main(int argc, char **argv)
{
    (void)argv;
    setvbuf(stdout, NULL, _IONBF, 0);
    find_real_mutex_functions();
    if (argc > 1) {
        /* The part helgrind looks at. */
        t_queries = 60;
        t_rounds = 1;
        CHECK_OK(geoloc_gazetteer_open(NULL, &gazetteer));
        test_threads();
        geoloc_gazetteer_destroy(gazetteer);
        return check_summary("test_places (threads)");
    }
    test_create_and_read();
    test_bulk_ids_and_names();
    test_create_errors();
    test_within_cases();
    test_against_brute_force(GEOLOC_MODEL_SPHERE, 600);
    test_against_brute_force(GEOLOC_MODEL_WGS84, 150);
    test_regions();
    test_loaders();
    test_place_files();
    test_place_file_handle_misuse();
    test_handle_misuse();
    test_nul_in_loaded_text();
    test_empty_csv_is_an_error();
    test_wkt_trailing_text();
    test_load_limits();
    test_radius_query_never_searches_twice();
    CHECK_OK(geoloc_gazetteer_open(NULL, &gazetteer));
    test_threads();
    geoloc_gazetteer_destroy(gazetteer);
    return check_summary("test_places");
}

