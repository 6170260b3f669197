/*
 * test_geocoding.c -- the C door's tests of offline reverse geocoding on the shipped
 * gazetteer (GEOLOC_GAZETTEER names the file in CTest): "City, State" and its longer form, the
 * place-only call, buffers, every class of bad argument, the golden table
 * tests/golden/reverse_geocode.tsv, localities (issue 20: the city, not its neighbourhood; no
 * locality far from every place; the options) and the locality reference set
 * tests/golden/reverse_geocode_localities.tsv.
 *
 *   usage: test_geocoding GOLDEN_DIR
 *
 * Plain C, no framework: see check.h. Exit status 0 when every check passed.
 */
#include "golden.h"
#include <float.h>
#include <stddef.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geoloc.h"
#include "check.h"
#include "common.h"

static geoloc_gazetteer *gazetteer;

/* ---------------------------------------------------------------------------------------------
 * Reverse geocoding on the shipped gazetteer
 * ------------------------------------------------------------------------------------------- */


static void test_reverse_geocode(void)
{
    const geoloc_places *gp = NULL;
    geoloc_gazetteer *other = (geoloc_gazetteer *)&other;
    geoloc_gazetteer *const sentinel = other;
    geoloc_match place = {0, -1};
    char buf[256];
    size_t needed = 0, count = 0;
    const geoloc_coord springfield = {39.80, -89.64};

    if (!CHECK_OK(geoloc_gazetteer_open(NULL, &gazetteer))) return;
    CHECK_OK(geoloc_gazetteer_places(gazetteer, &gp));
    CHECK_OK(geoloc_places_count(gp, &count));
    CHECK(count > 100000);
    CHECK_OK(geoloc_reverse_geocode(gazetteer, springfield, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, &needed, &place));
    CHECK_STR(buf, "Springfield, IL");
    CHECK(place.distance >= 0 && place.distance < 5000);
    CHECK_OK(geoloc_places_name(gp, place.index, buf, sizeof buf, &needed));
    CHECK_STR(buf, "Springfield");
    CHECK_OK(geoloc_places_attribute(gp, place.index, "admin1_code", buf, sizeof buf, &needed));
    CHECK_STR(buf, "IL");
    CHECK_OK(geoloc_places_attribute(gp, place.index, "country_code", buf, sizeof buf, &needed));
    CHECK_STR(buf, "US");
    CHECK_OK(geoloc_places_attribute(gp, place.index, "country_name", buf, sizeof buf, &needed));
    CHECK_STR(buf, "United States");
    CHECK(count == 170391);
    /* Native names in UTF-8, and the country's name. */
    CHECK_OK(geoloc_reverse_geocode(gazetteer, (geoloc_coord){-23.5465, -46.63511}, GEOLOC_ADDRESS_CITY_STATE, buf,
                                    sizeof buf, &needed, &place));
    CHECK_STR(buf, "S\xc3\xa3o Paulo, SP");
    CHECK_OK(geoloc_places_attribute(gp, place.index, "admin1_name", buf, sizeof buf, &needed));
    CHECK_STR(buf, "S\xc3\xa3o Paulo");
    CHECK_OK(geoloc_places_attribute(gp, place.index, "country_name", buf, sizeof buf, &needed));
    CHECK_STR(buf, "Brazil");
    CHECK_OK(geoloc_reverse_geocode(gazetteer, springfield, GEOLOC_ADDRESS_CITY_STATE_COUNTRY, buf, sizeof buf, &needed, NULL));
    CHECK_STR(buf, "Springfield, Illinois, United States");
    /* The size query still reports the place. */
    place.index = 0;
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_reverse_geocode(gazetteer, springfield, GEOLOC_ADDRESS_CITY_STATE, NULL, 0, &needed, &place));
    CHECK(needed == strlen("Springfield, IL") + 1 && place.index != 0);
    /* The place only: no text, no buffer, no needed. */
    {
        geoloc_match only = {0, -1};
        CHECK_OK(geoloc_reverse_geocode(gazetteer, springfield, GEOLOC_ADDRESS_CITY_STATE, NULL, 0, NULL, &only));
        CHECK(only.index == place.index && only.distance == place.distance);
        CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode(gazetteer, springfield, GEOLOC_ADDRESS_CITY_STATE, NULL, 0, NULL, NULL));
        CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode(gazetteer, springfield, GEOLOC_ADDRESS_CITY_STATE, buf, 0, NULL, &only));
    }
    /* The pole and the middle of the Pacific have no locality (a soft failure: "" written, and the
     * nearest place, over 900 km away). */
    CHECK_ERR(GEOLOC_E_NO_LOCALITY, geoloc_reverse_geocode(gazetteer, (geoloc_coord){90, 0}, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, &needed, &place));
    CHECK(buf[0] == '\0' && needed == 1 && place.distance > 900000);
    CHECK_ERR(GEOLOC_E_NO_LOCALITY, geoloc_reverse_geocode(gazetteer, (geoloc_coord){-30, -140}, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, &needed, NULL));

    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode(NULL, springfield, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, &needed, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode(gazetteer, springfield, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, NULL, NULL));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_reverse_geocode(gazetteer, springfield, (geoloc_address_style)99, buf, sizeof buf, &needed, NULL));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_reverse_geocode(gazetteer, (geoloc_coord){0, INFINITY}, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, &needed, NULL));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_gazetteer_open("/nonexistent/gazetteer.tsv", &other));
    CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_gazetteer_open("\xff", &other));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_gazetteer_open(NULL, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_gazetteer_places(gazetteer, NULL));
    CHECK(other == sentinel);
    /* A second handle on the shipped gazetteer shares its data. */
    if (CHECK_OK(geoloc_gazetteer_open(NULL, &other))) {
        const geoloc_places *gp2 = NULL;
        size_t count2 = 0;
        CHECK_OK(geoloc_gazetteer_places(other, &gp2));
        CHECK_OK(geoloc_places_count(gp2, &count2));
        CHECK(count2 == count);
        geoloc_gazetteer_destroy(other);
    }
    geoloc_gazetteer_destroy(NULL);
}

/* Issue 13 (hardening): the gazetteer's borrowed place set cannot be destroyed by the caller,
 * and is a destroyed handle once its gazetteer is. */
static void test_borrowed_places(void)
{
    geoloc_gazetteer *g = NULL;
    const geoloc_places *gp = NULL;
    size_t count = 0;
    char buf[8];
    size_t needed;

    if (!CHECK_OK(geoloc_gazetteer_open(NULL, &g))) return;
    CHECK_OK(geoloc_gazetteer_places(g, &gp));
    geoloc_places_destroy((geoloc_places *)gp);
    CHECK_STR(geoloc_last_error(), "places belongs to its gazetteer and is freed by geoloc_gazetteer_destroy");
    CHECK_OK(geoloc_places_count(gp, &count));
    CHECK(count > 100000);
    CHECK_OK(geoloc_reverse_geocode(g, MOUNT_VERNON, GEOLOC_ADDRESS_CITY_STATE, NULL, 0, NULL,
                                    &(geoloc_match){0, 0}));
    /* The wrong handle type, both ways. */
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT,
              geoloc_reverse_geocode((const geoloc_gazetteer *)gp, MOUNT_VERNON, GEOLOC_ADDRESS_CITY_STATE, buf,
                                     sizeof buf, &needed, NULL));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_count((const geoloc_places *)g, &count));
    geoloc_gazetteer_destroy(g);
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_count(gp, &count));
    CHECK_STR(geoloc_last_error(), "places was destroyed");
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_gazetteer_places(g, &gp));
    geoloc_gazetteer_destroy(g);
    CHECK_STR(geoloc_last_error(), "gazetteer was destroyed");
}

/* ---------------------------------------------------------------------------------------------
 * Many points at once: the same answers as one call per point, and the brute-force nearest
 * ------------------------------------------------------------------------------------------- */

/* A fixed pseudo-random double in [0, 1). */
static double uniform01(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*state >> 11) * (1.0 / 9007199254740992.0);
}

/* n test points: every third one uniform on the sphere, the others within about 5 km of a
 * place of the gazetteer (where the nearest place is a close call between neighbours), and the
 * poles and the antimeridian. */
static void test_points(const geoloc_places *gp, size_t count, geoloc_coord *pts, size_t n)
{
    uint64_t state = 11;
    for (size_t i = 0; i < n; i++) {
        if (i % 3 == 0) {
            pts[i].lat = asin(2 * uniform01(&state) - 1) * (180 / 3.14159265358979323846);
            pts[i].lon = 360 * uniform01(&state) - 180;
        } else {
            geoloc_coord c = {0, 0};
            CHECK_OK(geoloc_places_coord(gp, (size_t)(uniform01(&state) * (double)count), &c));
            pts[i].lat = fmax(-90, fmin(90, c.lat + 0.09 * (uniform01(&state) - 0.5)));
            pts[i].lon = c.lon + 0.09 * (uniform01(&state) - 0.5);
        }
    }
    if (n >= 4) {
        pts[0] = (geoloc_coord){90, 0};
        pts[1] = (geoloc_coord){-90, 0};
        pts[2] = (geoloc_coord){0, 180};
        pts[3] = (geoloc_coord){-17, -180};
    }
}

static void test_reverse_geocode_many(void)
{
    enum { N = 300, NBRUTE = 24 };
    static geoloc_coord pts[N];
    static size_t idx[N], tidx[N];
    static double dist[N], tdist[N];
    static size_t offsets[N];
    const geoloc_places *gp = NULL;
    size_t count = 0, needed = 0;
    char one[256];

    if (!CHECK_OK(geoloc_gazetteer_open(NULL, &gazetteer))) return;
    CHECK_OK(geoloc_gazetteer_places(gazetteer, &gp));
    CHECK_OK(geoloc_places_count(gp, &count));
    if (!CHECK(count > 0)) return;
    test_points(gp, count, pts, N);

    /* The places, point by point as the single call and the place-only call give them (a point
     * with no locality answers GEOLOC_E_NO_LOCALITY there, with its nearest place). */
    static geoloc_locality loc[N];
    CHECK_OK(geoloc_reverse_geocode_many(gazetteer, pts, N, idx, dist));
    CHECK_OK(geoloc_reverse_geocode_localities(gazetteer, pts, N, NULL, loc));
    size_t same = 0, none = 0;
    for (size_t i = 0; i < N; i++) {
        geoloc_match m = {SIZE_MAX, -1};
        geoloc_locality one;
        geoloc_status st = geoloc_reverse_geocode(gazetteer, pts[i], GEOLOC_ADDRESS_CITY_STATE, NULL, 0, NULL, &m);
        geoloc_status st2 = geoloc_reverse_geocode_locality(gazetteer, pts[i], GEOLOC_ADDRESS_CITY_STATE, NULL, NULL, 0,
                                                            NULL, &one);
        int has = loc[i].locality != GEOLOC_NO_PLACE;
        none += !has;
        same += m.index == idx[i] && m.distance == dist[i] && st == st2 && st == (has ? GEOLOC_OK : GEOLOC_E_NO_LOCALITY) &&
                memcmp(&one, &loc[i], offsetof(geoloc_locality, within_reach)) == 0 &&
                one.within_reach == loc[i].within_reach && one.in_country == loc[i].in_country &&
                idx[i] == (has ? loc[i].locality : loc[i].nearest) && dist[i] == loc[i].distance_m &&
                (has || (loc[i].nearest_distance_m > GEOLOC_REVERSE_DEFAULT_MAX_DISTANCE_M && loc[i].distance_m == loc[i].nearest_distance_m));
    }
    CHECK(same == N);
    CHECK(none > N / 10 && none < N / 2); /* a third of the points are anywhere: mostly the sea */

    /* The nearest is the brute-force nearest by geoloc_distance, ties to the lower index. */
    geoloc_coord *all = malloc(count * sizeof *all);
    if (CHECK(all != NULL)) {
        size_t got = 0, right = 0;
        CHECK_OK(geoloc_places_coords(gp, all, count, &got));
        for (size_t i = 0; i < NBRUTE; i++) {
            size_t best = SIZE_MAX;
            double best_d = INFINITY;
            for (size_t p = 0; p < count; p++) {
                double d = INFINITY;
                geoloc_distance(pts[i], all[p], GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &d);
                if (d < best_d) { best_d = d; best = p; }
            }
            right += loc[i].nearest == best && loc[i].nearest_distance_m == best_d;
            if (loc[i].nearest != best || loc[i].nearest_distance_m != best_d)
                printf("  points[%zu] (%.6f, %.6f): place %zu at %.17g m, brute force %zu at %.17g m\n", i,
                       pts[i].lat, pts[i].lon, loc[i].nearest, loc[i].nearest_distance_m, best, best_d);
        }
        CHECK(right == NBRUTE);
        free(all);
    }

    /* The texts, every style: the size query, then text i at offsets[i], equal to the single
     * call's; the places beside them equal the many call's. */
    for (int style = GEOLOC_ADDRESS_ONE_LINE; style <= GEOLOC_ADDRESS_POSTAL; style++) {
        size_t size = 0;
        CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL,
                  geoloc_reverse_geocode_many_text(gazetteer, pts, N, (geoloc_address_style)style, NULL, 0, &size, NULL, NULL, NULL));
        char *buf = malloc(size + 1);
        if (!CHECK(buf != NULL && size >= N)) { free(buf); continue; }
        CHECK_OK(geoloc_reverse_geocode_many_text(gazetteer, pts, N, (geoloc_address_style)style, buf, size, &needed,
                                                  offsets, tidx, tdist));
        CHECK(needed == size);
        size_t equal = 0, at = 0;
        for (size_t i = 0; i < N; i++) {
            geoloc_status st = geoloc_reverse_geocode(gazetteer, pts[i], (geoloc_address_style)style, one, sizeof one, &needed, NULL);
            CHECK(st == GEOLOC_OK || st == GEOLOC_E_NO_LOCALITY);
            equal += offsets[i] == at && strcmp(buf + at, one) == 0 && tidx[i] == idx[i] &&
                     tdist[i] == dist[i];
            at += strlen(buf + at) + 1;
        }
        CHECK(equal == N && at == size);
        /* Without offsets and places: the same bytes. */
        char *again = malloc(size);
        if (CHECK(again != NULL)) {
            CHECK_OK(geoloc_reverse_geocode_many_text(gazetteer, pts, N, (geoloc_address_style)style, again, size,
                                                      &needed, NULL, NULL, NULL));
            CHECK(memcmp(again, buf, size) == 0);
        }
        free(again);
        /* One byte short: "" written, needed set, offsets and places unchanged. */
        size_t kept[2] = {offsets[0], offsets[1]};
        tidx[0] = SIZE_MAX;
        memset(buf, 'x', size);
        CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL,
                  geoloc_reverse_geocode_many_text(gazetteer, pts, N, (geoloc_address_style)style, buf, size - 1,
                                                   &needed, offsets, tidx, tdist));
        CHECK(needed == size && buf[0] == 0 && buf[1] == 'x');
        CHECK(offsets[0] == kept[0] && offsets[1] == kept[1] && tidx[0] == SIZE_MAX);
        free(buf);
    }
}

static void test_reverse_geocode_many_errors(void)
{
    geoloc_coord pts[4] = {{39.80, -89.64}, {0, 0}, {NAN, 0}, {91, 0}};
    size_t out[4] = {7, 7, 7, 7};
    double outd[4] = {7, 7, 7, 7};
    size_t offsets[4] = {7, 7, 7, 7};
    char buf[256] = "x";
    size_t needed = 7;
    geoloc_gazetteer *dead = NULL;

    if (!CHECK_OK(geoloc_gazetteer_open(NULL, &gazetteer))) return;
    /* n = 0: nothing to do, NULL arrays allowed, nothing written. */
    CHECK_OK(geoloc_reverse_geocode_many(gazetteer, NULL, 0, NULL, NULL));
    CHECK_OK(geoloc_reverse_geocode_many_text(gazetteer, NULL, 0, GEOLOC_ADDRESS_CITY_STATE, NULL, 0, &needed, NULL, NULL, NULL));
    CHECK(needed == 0);
    CHECK_OK(geoloc_reverse_geocode_many_text(gazetteer, NULL, 0, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, &needed, offsets, out, outd));
    CHECK(needed == 0 && buf[0] == 'x' && offsets[0] == 7 && out[0] == 7 && outd[0] == 7);

    /* NULLs. */
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode_many(NULL, pts, 2, out, outd));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode_many(gazetteer, NULL, 2, out, outd));
    /* Neither output wanted: the points are still checked. */
    CHECK_OK(geoloc_reverse_geocode_many(gazetteer, pts, 2, NULL, NULL));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_reverse_geocode_many(gazetteer, pts, 3, NULL, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode_many_text(NULL, pts, 2, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, &needed, NULL, NULL, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode_many_text(gazetteer, NULL, 2, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, &needed, NULL, NULL, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode_many_text(gazetteer, pts, 2, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, NULL, NULL, NULL, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode_many_text(gazetteer, pts, 2, GEOLOC_ADDRESS_CITY_STATE, NULL, 8, &needed, NULL, NULL, NULL));
    /* Counts above the limit, before the NULL arrays. */
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_reverse_geocode_many(gazetteer, NULL, GEOLOC_MAX_COUNT + 1, NULL, NULL));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_reverse_geocode_many(gazetteer, pts, SIZE_MAX, out, outd));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_reverse_geocode_many_text(gazetteer, pts, GEOLOC_MAX_COUNT + 1, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, &needed, NULL, NULL, NULL));
    /* The style. */
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_reverse_geocode_many_text(gazetteer, pts, 2, INVALID_ADDRESS_STYLE, buf, sizeof buf, &needed, NULL, NULL, NULL));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_reverse_geocode_many_text(gazetteer, pts, 2, (geoloc_address_style)-1, buf, sizeof buf, &needed, NULL, NULL, NULL));
    /* Bad points: the first one is named, nothing is written. */
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_reverse_geocode_many(gazetteer, pts, 4, out, outd));
    CHECK_STR(geoloc_last_error(), "points[2]: latitude nan is not finite");
    CHECK(out[0] == 7 && out[1] == 7 && outd[0] == 7 && outd[1] == 7);
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_reverse_geocode_many(gazetteer, pts + 3, 1, out, outd));
    CHECK_STR(geoloc_last_error(), "points[0]: latitude 91 is outside [-90, 90]");
    CHECK(out[0] == 7 && outd[0] == 7);
    pts[2] = (geoloc_coord){0, -INFINITY};
    needed = 7;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_reverse_geocode_many_text(gazetteer, pts, 3, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, &needed, offsets, out, outd));
    CHECK_STR(geoloc_last_error(), "points[2]: longitude -inf is not finite");
    CHECK(needed == 7 && buf[0] == 'x' && offsets[0] == 7 && offsets[1] == 7 && out[0] == 7 && outd[0] == 7);
    /* The good points still work, and a longitude beyond 180 is the same meridian reduced (its
     * reduction may differ from -89.64 in the last bit, so the distance only nearly). */
    CHECK_OK(geoloc_reverse_geocode_many(gazetteer, pts, 2, out, outd));
    {
        geoloc_coord wrapped[2] = {{39.80, -89.64 + 360}, {39.80, -89.64 - 720}};
        size_t w[2];
        double wd[2];
        CHECK_OK(geoloc_reverse_geocode_many(gazetteer, wrapped, 2, w, wd));
        CHECK(w[0] == out[0] && w[1] == out[0] && fabs(wd[0] - outd[0]) < 1e-6 && fabs(wd[1] - outd[0]) < 1e-6);
    }
    /* Wrong and destroyed handles. */
    const geoloc_places *gp = NULL;
    CHECK_OK(geoloc_gazetteer_places(gazetteer, &gp));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_reverse_geocode_many((const geoloc_gazetteer *)gp, pts, 2, out, outd));
    if (CHECK_OK(geoloc_gazetteer_open(NULL, &dead))) {
        geoloc_gazetteer_destroy(dead);
        CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_reverse_geocode_many(dead, pts, 2, out, outd));
        CHECK_STR(geoloc_last_error(), "gazetteer was destroyed");
        CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_reverse_geocode_many_text(dead, pts, 2, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, &needed, NULL, NULL, NULL));
        CHECK_STR(geoloc_last_error(), "gazetteer was destroyed");
    }
    geoloc_gazetteer_destroy(gazetteer);
    gazetteer = NULL;
}

/* Many threads filling the kept texts of one gazetteer at once: every thread reads the same
 * texts as one thread does. */
typedef struct {
    const geoloc_gazetteer *g;
    const geoloc_coord *pts;
    size_t n;
    char *buf;
    size_t cap;
    geoloc_status st;
} text_job;

static void *text_worker(void *arg)
{
    text_job *job = arg;
    size_t needed = 0;
    job->st = geoloc_reverse_geocode_many_text(job->g, job->pts, job->n, GEOLOC_ADDRESS_CITY_STATE_COUNTRY,
                                               job->buf, job->cap, &needed, NULL, NULL, NULL);
    return NULL;
}

static void test_reverse_geocode_threads(void)
{
    enum { N = 200, T = 4 };
    static geoloc_coord pts[N];
    geoloc_gazetteer *g = NULL;
    const geoloc_places *gp = NULL;
    size_t count = 0, size = 0;

    /* A gazetteer of its own from the TSV, so that no text is kept yet. */
    const char *path = getenv("GEOLOC_GAZETTEER");
    if (!CHECK_OK(geoloc_gazetteer_open(path, &g))) return;
    CHECK_OK(geoloc_gazetteer_places(g, &gp));
    CHECK_OK(geoloc_places_count(gp, &count));
    test_points(gp, count, pts, N);
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_reverse_geocode_many_text(g, pts, N, GEOLOC_ADDRESS_CITY_STATE_COUNTRY, NULL, 0, &size, NULL, NULL, NULL));
    text_job jobs[T];
    pthread_t threads[T];
    for (int t = 0; t < T; t++) {
        jobs[t] = (text_job){g, pts, N, calloc(size, 1), size, GEOLOC_E_INTERNAL};
        if (!jobs[t].buf || pthread_create(&threads[t], NULL, text_worker, &jobs[t]) != 0) jobs[t].cap = 0;
    }
    for (int t = 0; t < T; t++)
        if (jobs[t].cap) pthread_join(threads[t], NULL);
    for (int t = 0; t < T; t++) {
        CHECK(jobs[t].cap == size && jobs[t].st == GEOLOC_OK);
        if (!CHECK(jobs[t].buf && memcmp(jobs[t].buf, jobs[0].buf, size) == 0) && jobs[t].buf && jobs[0].buf) {
            size_t at = 0;
            while (at < size && jobs[t].buf[at] == jobs[0].buf[at]) at++;
            printf("  thread %d differs at byte %zu: \"%.40s\" vs \"%.40s\"\n", t, at, jobs[t].buf + at, jobs[0].buf + at);
        }
    }
    for (int t = 0; t < T; t++) free(jobs[t].buf);
    geoloc_gazetteer_destroy(g);
}

/* ---------------------------------------------------------------------------------------------
 * The shared golden cases (tests/golden/reverse_geocode.tsv)
 * ------------------------------------------------------------------------------------------- */

static geoloc_gazetteer *golden_gazetteer;

static void row_reverse_geocode(char **f)
{
    const geoloc_places *gp = NULL;
    geoloc_locality place;
    char buf[512];
    size_t needed = 0;
    geoloc_coord c = {number(f[0]), number(f[1])};
    geoloc_address_style style = address_style_of(f[2]);
    geoloc_reverse_options options = {sizeof options, 0, 0, false};
    int has = f[4][0] != '\0';

    if (f[3][0] != '\0') options.max_distance_m = number(f[3]);
    if (row_bad_value || golden_gazetteer == NULL) return;
    geoloc_status st = geoloc_reverse_geocode_locality(golden_gazetteer, c, style, &options, buf, sizeof buf, &needed, &place);
    ROW_CHECK(st == (has ? GEOLOC_OK : GEOLOC_E_NO_LOCALITY));
    ROW_CHECK_STR(buf, f[5]);
    if (f[3][0] == '\0') {
        /* The default options: the same as geoloc_reverse_geocode. */
        char same[512];
        geoloc_match m;
        ROW_CHECK(geoloc_reverse_geocode(golden_gazetteer, c, style, same, sizeof same, &needed, &m) == st);
        ROW_CHECK_STR(same, f[5]);
        ROW_CHECK(m.index == (has ? place.locality : place.nearest) && m.distance == place.distance_m);
    }
    CHECK_OK(geoloc_gazetteer_places(golden_gazetteer, &gp));
    if (has && CHECK_OK(geoloc_places_name(gp, place.locality, buf, sizeof buf, &needed))) {
        ROW_CHECK_STR(buf, f[4]);
    }
    ROW_CHECK(has == (place.locality != GEOLOC_NO_PLACE));
}

/* tests/golden/reverse_geocode_localities.tsv, scored: each kind's share of right answers. */
static const char *const ref_kinds[] = {"centre", "ring1", "ring3", "town", "far", "named"};
static const double ref_least[] = {0.99, 0.99, 0.98, 1, 1, 1};
static size_t ref_right[6], ref_total[6];

static void row_locality_reference(char **f)
{
    const geoloc_places *gp = NULL;
    geoloc_locality out;
    char id[32] = "";
    size_t needed = 0;
    geoloc_coord c = {number(f[1]), number(f[2])};
    size_t k = 0;

    while (k < 6 && strcmp(ref_kinds[k], f[0]) != 0) k++;
    if (!ROW_CHECK(k < 6) || row_bad_value || golden_gazetteer == NULL) return;
    geoloc_status st = geoloc_reverse_geocode_locality(golden_gazetteer, c, GEOLOC_ADDRESS_CITY_STATE, NULL, NULL, 0,
                                                       NULL, &out);
    ROW_CHECK(st == GEOLOC_OK || st == GEOLOC_E_NO_LOCALITY);
    CHECK_OK(geoloc_gazetteer_places(golden_gazetteer, &gp));
    if (out.locality != GEOLOC_NO_PLACE) CHECK_OK(geoloc_places_id(gp, out.locality, id, sizeof id, &needed));
    ref_right[k] += strcmp(id, f[3]) == 0;
    ref_total[k]++;
}

static void check_reference_scores(void)
{
    for (size_t k = 0; k < 6; k++) {
        double share = ref_total[k] ? (double)ref_right[k] / (double)ref_total[k] : 0;
        printf("  locality reference set, %s: %zu of %zu (%.2f%%)\n", ref_kinds[k], ref_right[k], ref_total[k],
               100 * share);
        CHECK(ref_total[k] > 0 && share >= ref_least[k]);
    }
}

/* Issue 20: the nine cities at their usual centres, the sub-locality, no locality, the options. */
static void test_localities(void)
{
    static const struct {
        double lat, lon;
        const char *text, *sub;
    } cities[] = {
        {41.8781, -87.6298, "Chicago, IL", "Chicago Loop, Chicago, IL"},
        {43.6532, -79.3832, "Toronto, ON", "Bay Street Corridor, Toronto, ON"},
        {48.8566, 2.3522, "Paris, \xc3\x8ele-de-France", "Paris 04 H\xc3\xb4tel-de-Ville, Paris, \xc3\x8ele-de-France"},
        {-23.5505, -46.6333, "S\xc3\xa3o Paulo, SP", "Se, S\xc3\xa3o Paulo, SP"},
        {52.52, 13.405, "Berlin, State of Berlin", "Mitte, Berlin, State of Berlin"},
        {37.7749, -122.4194, "San Francisco, CA", "San Francisco, CA"},
        {41.0082, 28.9784, "Istanbul", "Sultanahmet, Istanbul"},
        {48.2082, 16.3738, "Vienna", "Vienna"},
        {40.7128, -74.0060, "New York City, NY", "New York City, NY"},
    };
    geoloc_gazetteer *g = NULL;
    char buf[256];
    size_t needed = 0;
    geoloc_locality out, kept;
    geoloc_reverse_options sub = {sizeof sub, 0, 0, true};

    if (!CHECK_OK(geoloc_gazetteer_open(NULL, &g))) return;
    for (size_t i = 0; i < sizeof cities / sizeof cities[0]; i++) {
        geoloc_coord c = {cities[i].lat, cities[i].lon};
        CHECK_OK(geoloc_reverse_geocode(g, c, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, &needed, NULL));
        CHECK_STR(buf, cities[i].text);
        CHECK_OK(geoloc_reverse_geocode_locality(g, c, GEOLOC_ADDRESS_CITY_STATE, &sub, buf, sizeof buf, &needed, &out));
        CHECK_STR(buf, cities[i].sub);
        CHECK(out.locality != GEOLOC_NO_PLACE && out.within_reach && out.in_country && out.reach_m > 1000);
        CHECK(out.sublocality == GEOLOC_NO_PLACE || out.sublocality == out.nearest);
        CHECK(out.distance_m >= out.nearest_distance_m);
    }
    /* Downtown Chicago: Chicago at 3.5 km, Chicago Loop nearest at 0.7 km. */
    CHECK_OK(geoloc_reverse_geocode_locality(g, (geoloc_coord){41.8781, -87.6298}, GEOLOC_ADDRESS_CITY_STATE_COUNTRY,
                                             NULL, buf, sizeof buf, &needed, &out));
    CHECK_STR(buf, "Chicago, Illinois, United States");
    CHECK(fabs(out.distance_m - 3543) < 10 && fabs(out.nearest_distance_m - 724) < 10 && out.sublocality == out.nearest);
    CHECK(fabs(out.reach_m - 6 * sqrt(2664452.0)) < 1);

    /* Mid-Pacific: no locality, no country; the old answer with no limit. */
    geoloc_coord pacific = {-30, -140};
    memset(buf, 'x', sizeof buf);
    CHECK_ERR(GEOLOC_E_NO_LOCALITY, geoloc_reverse_geocode(g, pacific, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, &needed, NULL));
    CHECK_STR(buf, "");
    CHECK(needed == 1);
    CHECK(strstr(geoloc_last_error(), "no locality") != NULL);
    CHECK_STR(geoloc_status_string(GEOLOC_E_NO_LOCALITY), "no locality near the point");
    CHECK_ERR(GEOLOC_E_NO_LOCALITY, geoloc_reverse_geocode_locality(g, pacific, GEOLOC_ADDRESS_CITY_STATE, NULL, NULL, 0, NULL, &out));
    CHECK(out.locality == GEOLOC_NO_PLACE && out.sublocality == GEOLOC_NO_PLACE && !out.in_country && !out.within_reach);
    CHECK(out.nearest_distance_m > 200000 && out.distance_m == out.nearest_distance_m && out.reach_m == 0);
    geoloc_reverse_options any = {sizeof any, INFINITY, 0, false};
    CHECK_OK(geoloc_reverse_geocode_locality(g, pacific, GEOLOC_ADDRESS_CITY_STATE, &any, buf, sizeof buf, &needed, &out));
    CHECK(buf[0] != '\0' && out.locality != GEOLOC_NO_PLACE && !out.within_reach);
    /* The Nevada desert, 10 km at most: the region and country alone. */
    geoloc_reverse_options near = {sizeof near, 10000, 0, false};
    CHECK_ERR(GEOLOC_E_NO_LOCALITY, geoloc_reverse_geocode_locality(g, (geoloc_coord){40, -117}, GEOLOC_ADDRESS_CITY_STATE,
                                                                    &near, buf, sizeof buf, &needed, &out));
    CHECK_STR(buf, "Nevada, United States");
    CHECK(out.in_country);
    near.country_reach_m = -1;
    CHECK_ERR(GEOLOC_E_NO_LOCALITY, geoloc_reverse_geocode_locality(g, (geoloc_coord){40, -117}, GEOLOC_ADDRESS_CITY_STATE,
                                                                    &near, buf, sizeof buf, &needed, &out));
    CHECK_STR(buf, "");
    CHECK(!out.in_country);

    /* Bad options and arguments: nothing written. */
    memset(&kept, 0x5a, sizeof kept);
    out = kept;
    geoloc_reverse_options bad = {sizeof bad, NAN, 0, false};
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_reverse_geocode_locality(g, pacific, GEOLOC_ADDRESS_CITY_STATE, &bad, buf, sizeof buf, &needed, &out));
    bad.max_distance_m = -1;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_reverse_geocode_locality(g, pacific, GEOLOC_ADDRESS_CITY_STATE, &bad, buf, sizeof buf, &needed, &out));
    bad = (geoloc_reverse_options){0, 0, NAN, false};
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_reverse_geocode_locality(g, pacific, GEOLOC_ADDRESS_CITY_STATE, &bad, buf, sizeof buf, &needed, &out));
    bad.struct_size = sizeof bad;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_reverse_geocode_locality(g, pacific, GEOLOC_ADDRESS_CITY_STATE, &bad, buf, sizeof buf, &needed, &out));
    /* An older caller's shorter struct: the members it lacks take their defaults. */
    bad = (geoloc_reverse_options){offsetof(geoloc_reverse_options, country_reach_m), INFINITY, NAN, true};
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode_locality(g, pacific, GEOLOC_ADDRESS_CITY_STATE, &bad, NULL, 0, NULL, NULL));
    CHECK_OK(geoloc_reverse_geocode_locality(g, (geoloc_coord){41.8781, -87.6298}, GEOLOC_ADDRESS_CITY_STATE, &bad, buf,
                                             sizeof buf, &needed, &out));
    CHECK_STR(buf, "Chicago, IL"); /* sublocality, beyond struct_size, is not read */
    /* Issue 21: struct_size = SIZE_MAX was refused as "smaller than a size_t": it is a struct of
     * a later version, every member read. */
    geoloc_reverse_options later = {SIZE_MAX, 0, NAN, false};
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_reverse_geocode_locality(g, pacific, GEOLOC_ADDRESS_CITY_STATE, &later, buf, sizeof buf, &needed, &out));
    CHECK(strstr(geoloc_last_error(), "country_reach_m") != NULL);
    CHECK_OK(geoloc_reverse_geocode_locality(g, pacific, GEOLOC_ADDRESS_CITY_STATE, &bad, NULL, 0, NULL, &out));
    CHECK(out.locality != GEOLOC_NO_PLACE); /* max_distance_m INFINITY was read */
    out = kept;
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode_locality(g, pacific, GEOLOC_ADDRESS_CITY_STATE, NULL, buf, sizeof buf, NULL, &out));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode_locality(NULL, pacific, GEOLOC_ADDRESS_CITY_STATE, NULL, buf, sizeof buf, &needed, &out));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_reverse_geocode_locality(g, pacific, INVALID_ADDRESS_STYLE, NULL, buf, sizeof buf, &needed, &out));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_reverse_geocode_locality(g, (geoloc_coord){NAN, 0}, GEOLOC_ADDRESS_CITY_STATE, NULL, buf, sizeof buf, &needed, &out));
    CHECK(memcmp(&out, &kept, sizeof out) == 0);
    CHECK_OK(geoloc_reverse_geocode_locality(g, pacific, GEOLOC_ADDRESS_CITY_STATE, &any, buf, sizeof buf, &needed, NULL));

    /* Many points with options: the same as one by one. */
    enum { N = 60 };
    static geoloc_coord pts[N];
    static geoloc_locality many[N], many2[N];
    static size_t offsets[N];
    const geoloc_places *gp = NULL;
    size_t count = 0, size = 0;
    CHECK_OK(geoloc_gazetteer_places(g, &gp));
    CHECK_OK(geoloc_places_count(gp, &count));
    test_points(gp, count, pts, N);
    CHECK_OK(geoloc_reverse_geocode_localities(g, pts, N, &sub, many));
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_reverse_geocode_many_text_options(g, pts, N, GEOLOC_ADDRESS_CITY_STATE, &sub, NULL, 0, &size, NULL, NULL));
    char *texts = malloc(size);
    if (CHECK(texts != NULL)) {
        CHECK_OK(geoloc_reverse_geocode_many_text_options(g, pts, N, GEOLOC_ADDRESS_CITY_STATE, &sub, texts, size, &needed, offsets, many2));
        size_t equal = 0;
        for (size_t i = 0; i < N; i++) {
            geoloc_status st = geoloc_reverse_geocode_locality(g, pts[i], GEOLOC_ADDRESS_CITY_STATE, &sub, buf, sizeof buf, &needed, &out);
            equal += (st == GEOLOC_OK || st == GEOLOC_E_NO_LOCALITY) && strcmp(buf, texts + offsets[i]) == 0 &&
                     out.locality == many[i].locality && out.nearest == many[i].nearest &&
                     out.distance_m == many[i].distance_m && many2[i].locality == many[i].locality &&
                     many2[i].sublocality == many[i].sublocality;
        }
        CHECK(equal == N);
    }
    free(texts);
    CHECK_OK(geoloc_reverse_geocode_localities(g, NULL, 0, NULL, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode_localities(g, pts, N, NULL, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode_localities(g, NULL, N, NULL, many));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_reverse_geocode_localities(g, pts, GEOLOC_MAX_COUNT + 1, NULL, many));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_reverse_geocode_localities(g, pts, N, &(geoloc_reverse_options){sizeof(geoloc_reverse_options), -5, 0, false}, many));
    geoloc_gazetteer_destroy(g);
}

int main(int argc, char **argv)
{
    const struct golden_file files[] = {
        {"reverse_geocode.tsv", "lat\tlon\tstyle\tmax_distance_m\tname\ttext", row_reverse_geocode, NULL},
        {"reverse_geocode_localities.tsv", "kind\tlat\tlon\texpect_id\tname\tcountry\tpopulation\thow",
         row_locality_reference, NULL},
    };

    setvbuf(stdout, NULL, _IONBF, 0);
    test_reverse_geocode();
    geoloc_gazetteer_destroy(gazetteer);
    test_borrowed_places();
    if (CHECK_OK(geoloc_gazetteer_open(NULL, &golden_gazetteer))) {
        golden_run(argc, argv, files, sizeof files / sizeof files[0]);
        check_reference_scores();
        geoloc_gazetteer_destroy(golden_gazetteer);
    }
    test_localities();
    test_reverse_geocode_many();
    geoloc_gazetteer_destroy(gazetteer);
    test_reverse_geocode_many_errors();
    test_reverse_geocode_threads();
    return check_summary("test_geocoding");
}
