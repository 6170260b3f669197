/*
 * test_place_files.c -- the C door's tests of saved place sets (geoloc_places_save,
 * geoloc_places_open): a saved and reopened set answers every radius and nearest query of a
 * brute-force property run exactly as the set it came from (and as brute force); every
 * truncation and every one-byte corruption of a small file is refused; argument errors; a
 * second process opens a file this one has open; saving over an open file leaves the open set
 * unharmed. And the lock-free query path: threads querying one set (radius and nearest) call no
 * pthread mutex function, counted by an interposer of pthread_mutex_lock / trylock.
 *
 *   usage: test_place_files [threads]   (an argument: only the multi-threaded part, for helgrind)
 *
 * Plain C, no framework: see check.h. Exit status 0 when every check passed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
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

static uint64_t rng_state = UINT64_C(0xf11e5eed);

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

/* Uniform on the sphere, or (one time in four each) crowded near the antimeridian or a pole. */
static geoloc_coord random_point(void)
{
    geoloc_coord c;
    switch (next_u64() % 4) {
    case 0:
        c.lat = uniform(-89.0, 89.0);
        c.lon = uniform(-1.0, 1.0) + (next_u64() % 2 ? 179.5 : -179.5);
        if (c.lon >= 180) c.lon -= 360;
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

static void brute_force(const geoloc_coord *pts, size_t n, geoloc_coord q, geoloc_model model,
                        geoloc_unit unit, struct bf *out)
{
    for (size_t i = 0; i < n; i++) {
        out[i].index = i;
        if (geoloc_distance(q, pts[i], model, unit, &out[i].distance) != GEOLOC_OK) out[i].distance = NAN;
    }
    qsort(out, n, sizeof *out, bf_order);
}

static int same_matches(const geoloc_match *got, size_t got_count, const struct bf *want, size_t want_count)
{
    if (got_count != want_count) return 0;
    for (size_t i = 0; i < want_count; i++) {
        if (got[i].index != want[i].index || got[i].distance != want[i].distance) return 0;
    }
    return 1;
}

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
 * The brute-force property run, on a set and on the set saved and reopened
 * ------------------------------------------------------------------------------------------- */

static void test_reopened_against_brute_force(geoloc_model model, int queries)
{
    enum { N = 3000 };
    static geoloc_coord pts[N];
    static struct bf want[N];
    static geoloc_match got[N], got2[N];
    const double radii_km[] = {0, 0.5, 5, 50, 300, 2000, 9000, 15000, 20100};
    int bad = 0;

    for (size_t i = 0; i < N; i++) pts[i] = random_point();
    for (size_t i = 0; i < 20; i++) pts[N - 1 - i] = pts[i]; /* exact duplicates: ties */
    geoloc_places *p = NULL;
    CHECK_OK(geoloc_places_create(pts, NULL, NULL, N, NULL, 0, NULL, &p));
    geoloc_places *o = reopened(p, "property.places");
    for (int q = 0; q < queries; q++) {
        geoloc_coord c = q % 3 == 0 ? pts[next_u64() % N] : random_point();
        double r = radii_km[next_u64() % (sizeof radii_km / sizeof radii_km[0])] * uniform(0.5, 1.0);
        size_t k = 1 + next_u64() % 50, count = 0, count2 = 0, in_radius = 0;
        brute_force(pts, N, c, model, GEOLOC_UNIT_KILOMETERS, want);
        while (in_radius < N && want[in_radius].distance <= r) in_radius++;
        geoloc_status s = geoloc_places_within(p, c, r, model, GEOLOC_UNIT_KILOMETERS, 0, got, N, &count);
        geoloc_status s2 = geoloc_places_within(o, c, r, model, GEOLOC_UNIT_KILOMETERS, 0, got2, N, &count2);
        bad += s != GEOLOC_OK || s2 != GEOLOC_OK || !same_matches(got, count, want, in_radius) ||
               !same_matches(got2, count2, want, in_radius);
        s = geoloc_places_nearest(p, c, k, model, GEOLOC_UNIT_KILOMETERS, INFINITY, got, N, &count);
        s2 = geoloc_places_nearest(o, c, k, model, GEOLOC_UNIT_KILOMETERS, INFINITY, got2, N, &count2);
        bad += s != GEOLOC_OK || s2 != GEOLOC_OK || !same_matches(got, count, want, k) ||
               !same_matches(got2, count2, want, k);
    }
    CHECK(bad == 0);
    geoloc_places_destroy(o);
    geoloc_places_destroy(p);
}

/* ---------------------------------------------------------------------------------------------
 * Threads: answers equal one thread's, and no mutex call on the query path
 * ------------------------------------------------------------------------------------------- */

enum { T_POINTS = 5000, T_QUERIES = 400, T_THREADS = 4, T_MAX = 64 };

struct job {
    const geoloc_places *places;
    const geoloc_coord *queries;
    size_t nq;
    size_t (*want_counts)[2];
    geoloc_match (*want)[2][T_MAX];
    int mismatches;
    long mutex_calls;
};

static int run_one(const geoloc_places *p, geoloc_coord q, size_t counts[2], geoloc_match out[2][T_MAX])
{
    int ok = geoloc_places_within(p, q, 100, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, T_MAX, out[0], T_MAX,
                                  &counts[0]) == GEOLOC_OK;
    ok &= geoloc_places_nearest(p, q, 10, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, INFINITY, out[1], T_MAX,
                                &counts[1]) == GEOLOC_OK;
    return ok;
}

static void *thread_main(void *arg)
{
    struct job *job = arg;
    size_t counts[2];
    geoloc_match out[2][T_MAX];
    /* One query first: whatever a thread sets up on its first call is not the query path. */
    run_one(job->places, job->queries[0], counts, out);
    long before = mutex_calls;
    for (size_t q = 0; q < job->nq; q++) {
        int ok = run_one(job->places, job->queries[q], counts, out);
        for (int k = 0; k < 2 && ok; k++) {
            ok = counts[k] == job->want_counts[q][k] &&
                 memcmp(out[k], job->want[q][k], counts[k] * sizeof out[k][0]) == 0;
        }
        if (!ok) job->mismatches++;
    }
    job->mutex_calls = mutex_calls - before;
    return NULL;
}

static void test_threads(size_t nq)
{
    static geoloc_coord pts[T_POINTS], queries[T_QUERIES];
    static size_t want_counts[T_QUERIES][2];
    static geoloc_match want[T_QUERIES][2][T_MAX];
    struct job jobs[T_THREADS];
    pthread_t threads[T_THREADS];
    int mismatches = 0;
    long calls = 0;

    for (size_t i = 0; i < T_POINTS; i++) {
        pts[i].lat = uniform(25, 50);
        pts[i].lon = uniform(-125, -65);
    }
    for (size_t q = 0; q < T_QUERIES; q++) queries[q] = pts[next_u64() % T_POINTS];
    geoloc_places *made = NULL;
    CHECK_OK(geoloc_places_create(pts, NULL, NULL, T_POINTS, NULL, 0, NULL, &made));
    geoloc_places *opened = reopened(made, "threads.places");
    const geoloc_places *sets[2] = {made, opened};
    for (int which = 0; which < 2; which++) {
        for (size_t q = 0; q < nq; q++) CHECK(run_one(sets[which], queries[q], want_counts[q], want[q]));
        for (int t = 0; t < T_THREADS; t++) {
            jobs[t] = (struct job){sets[which], queries, nq, want_counts, want, 0, 0};
            CHECK(pthread_create(&threads[t], NULL, thread_main, &jobs[t]) == 0);
        }
        for (int t = 0; t < T_THREADS; t++) {
            pthread_join(threads[t], NULL);
            mismatches += jobs[t].mismatches;
            calls += jobs[t].mutex_calls;
        }
    }
    CHECK(mismatches == 0);
    /* No lock on the query path: not one mutex call in 4 threads' radius and nearest queries. */
    if (!CHECK(calls == 0)) fprintf(stderr, "    %ld pthread mutex calls in the threads' queries\n", calls);
    /* The counter does count: a region (GEOS geometries, made under libgeoloc's lock). */
    geoloc_region *r = NULL;
    long before = mutex_calls;
    CHECK_OK(geoloc_region_from_wkt("POLYGON((-100 30, -80 30, -80 45, -100 45, -100 30))", &r));
    CHECK(mutex_calls > before);
    geoloc_region_destroy(r);
    geoloc_places_destroy(opened);
    geoloc_places_destroy(made);
}

int main(int argc, char **argv)
{
    (void)argv;
    setvbuf(stdout, NULL, _IONBF, 0);
    find_real_mutex_functions();
    if (argc > 1) {
        /* The part helgrind looks at. */
        test_threads(60);
        return check_summary("test_place_files (threads)");
    }
    test_place_files();
    test_reopened_against_brute_force(GEOLOC_MODEL_SPHERE, 600);
    test_reopened_against_brute_force(GEOLOC_MODEL_WGS84, 150);
    test_threads(T_QUERIES);
    return check_summary("test_place_files");
}
