/*
 * geoloc_places.c -- libgeoloc's rows of the place search benchmark, through the C interface.
 *
 *   usage: geoloc_places DATADIR SET REPS NCHECK     a place set from data.py's arrays
 *          geoloc_places DATADIR gazetteer REPS NCHECK
 *                                                     the shipped gazetteer, queried with the
 *                                                     cities set's queries
 *          geoloc_places --open                      only the first geoloc_gazetteer_open(NULL)
 *          geoloc_places --load-csv PATH             only geoloc_places_load_csv(PATH)
 *          geoloc_places --open-set FILE DATADIR SET  only geoloc_places_open(FILE) (a set saved
 *                                                     by the first form) and its first query
 *
 * The functions of the header's "Place sets" and "Offline reverse geocoding" sections are looked
 * up with dlsym, so this program builds and runs against a library that does not have them yet:
 * each row whose function is missing (or answers GEOLOC_E_UNSUPPORTED, or cannot find the
 * shipped gazetteer) is printed as a P row (pending) with the reason.
 *
 * Rows (see common.h for the format):
 *  - S c.geoloc: geoloc_places_create from the arrays (ids and names NULL, no attributes):
 *    seconds, and the resident memory it adds per place.
 *  - Q within_5mi, within_50mi: geoloc_places_within(set, q, r, GEOLOC_MODEL_SPHERE,
 *    GEOLOC_UNIT_MILES, GEOLOC_NO_LIMIT, out, cap, &count) with cap = the set's size, so no
 *    call is refused for its buffer; nearest_1, nearest_10: geoloc_places_nearest(set, q, k,
 *    SPHERE, MILES, INFINITY, ...). Each pass answers the set's first nq queries (manifest);
 *    best of REPS passes after a warm-up pass. Also with 2 threads (pthreads, the same set, the
 *    queries split in two halves) for every kind.
 *  - F c.geoloc_file: geoloc_places_save of the set to DATADIR/../SET.places: seconds, and the
 *    file's bytes per place; then C c.geoloc_reopened: the saved file opened
 *    (geoloc_places_open) answers the first NCHECK queries of every kind exactly as the set.
 *  - --open-set: O c.geoloc_open: geoloc_places_open in a fresh process, then the first query
 *    (within 5 miles of the set's first query point): seconds of each, resident memory added.
 *  - gazetteer: S c.geoloc_gazetteer_open: the first geoloc_gazetteer_open(NULL) of the process
 *    (the load and the index; later opens share it); Q reverse_geocode:
 *    geoloc_reverse_geocode(..., GEOLOC_ADDRESS_CITY_STATE, buf[256], ..., &place) ("Springfield,
 *    IL" text: c.geoloc_reverse_geocode_text) and the place alone (buf NULL, cap 0, needed NULL:
 *    c.geoloc_reverse_geocode, the fields reverse_geocoder returns), 1 and 2 threads.
 *  - C rows: the first NCHECK queries' result lists against a brute force over every place with
 *    geoloc_distance (the value the header promises for query results): indices, order and
 *    distances must be identical; mismatches must be 0 (the note says what differed). Also,
 *    for information, how many of geoloc_distance_one_to_many's distances from the same query
 *    points are not bit-identical to geoloc_distance's.
 */
#define _GNU_SOURCE

#include <dlfcn.h>
#include <pthread.h>
#include <sys/stat.h>

#include "geoloc.h"
#include "common.h"

/* The new functions, found at run time. */
#define FN(name) static __typeof__(name) *p_##name
FN(geoloc_places_create);
FN(geoloc_places_destroy);
FN(geoloc_places_count);
FN(geoloc_places_coord);
FN(geoloc_places_within);
FN(geoloc_places_nearest);
FN(geoloc_places_load_csv);
FN(geoloc_places_save);
FN(geoloc_places_open);
FN(geoloc_gazetteer_open);
FN(geoloc_gazetteer_destroy);
FN(geoloc_gazetteer_places);
FN(geoloc_reverse_geocode);
FN(geoloc_reverse_geocode_many);
FN(geoloc_reverse_geocode_many_text);
FN(geoloc_reverse_geocode_localities);
#define LOOKUP(name) (p_##name = (__typeof__(name) *)dlsym(RTLD_DEFAULT, #name))

static const char *missing_places(void)
{
    if (!LOOKUP(geoloc_places_create)) return "geoloc_places_create";
    if (!LOOKUP(geoloc_places_destroy)) return "geoloc_places_destroy";
    if (!LOOKUP(geoloc_places_count)) return "geoloc_places_count";
    if (!LOOKUP(geoloc_places_coord)) return "geoloc_places_coord";
    if (!LOOKUP(geoloc_places_within)) return "geoloc_places_within";
    if (!LOOKUP(geoloc_places_nearest)) return "geoloc_places_nearest";
    return NULL;
}

static const char *missing_gazetteer(void)
{
    const char *m = missing_places();
    if (m) return m;
    if (!LOOKUP(geoloc_gazetteer_open)) return "geoloc_gazetteer_open";
    if (!LOOKUP(geoloc_gazetteer_destroy)) return "geoloc_gazetteer_destroy";
    if (!LOOKUP(geoloc_gazetteer_places)) return "geoloc_gazetteer_places";
    if (!LOOKUP(geoloc_reverse_geocode)) return "geoloc_reverse_geocode";
    return NULL;
}

static void pending(const char *set, const char *kind, const char *impl, const char *why)
{
    printf("P\t%s\t%s\t%s\t%s\n", set, kind, impl, why);
    fflush(stdout);
}

static void die(const char *what, geoloc_status st)
{
    fprintf(stderr, "geoloc_places: %s failed: %s (%s)\n", what, geoloc_status_string(st),
            geoloc_last_error());
    exit(1);
}

/* ---- queries --------------------------------------------------------------------------------- */

enum op { OP_WITHIN5, OP_WITHIN50, OP_NEAREST1, OP_NEAREST10, OP_REVGEO_TEXT, OP_REVGEO_PLACE,
          OP_REVGEO_MANY, OP_REVGEO_MANY_TEXT };

/* The many-points forms answer the queries in batches of this many per call. */
#define MANY_BATCH 1000

typedef struct ctx {
    const geoloc_places *set;
    const geoloc_gazetteer *gaz;
    const geoloc_coord *queries;
    size_t begin, end;
    enum op op;
    geoloc_match *out;
    size_t cap;
    size_t total;         /* results of the pass */
    geoloc_status status; /* the first failure of the pass, if any */
    char text[256];
} ctx;

static size_t one(ctx *c, geoloc_coord q)
{
    size_t count = 0, needed = 0;
    geoloc_status st = GEOLOC_OK;
    switch (c->op) {
    case OP_WITHIN5:
        st = p_geoloc_places_within(c->set, q, 5.0, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES,
                                    GEOLOC_NO_LIMIT, c->out, c->cap, &count);
        break;
    case OP_WITHIN50:
        st = p_geoloc_places_within(c->set, q, 50.0, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES,
                                    GEOLOC_NO_LIMIT, c->out, c->cap, &count);
        break;
    case OP_NEAREST1:
        st = p_geoloc_places_nearest(c->set, q, 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES,
                                     INFINITY, c->out, c->cap, &count);
        break;
    case OP_REVGEO_PLACE:
        /* The place alone (its fields are then read with geoloc_places_attribute): the form
         * that answers what reverse_geocoder answers. */
        st = p_geoloc_reverse_geocode(c->gaz, q, GEOLOC_ADDRESS_CITY_STATE, NULL, 0, NULL, &c->out[0]);
        if (st == GEOLOC_E_NO_LOCALITY) st = GEOLOC_OK; /* an answer too: no locality */
        count = st == GEOLOC_OK;
        break;
    case OP_NEAREST10:
        st = p_geoloc_places_nearest(c->set, q, 10, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES,
                                     INFINITY, c->out, c->cap, &count);
        break;
    case OP_REVGEO_TEXT:
        st = p_geoloc_reverse_geocode(c->gaz, q, GEOLOC_ADDRESS_CITY_STATE, c->text,
                                      sizeof c->text, &needed, &c->out[0]);
        if (st == GEOLOC_E_NO_LOCALITY) st = GEOLOC_OK;
        count = st == GEOLOC_OK;
        break;
    case OP_REVGEO_MANY:
    case OP_REVGEO_MANY_TEXT:
        break; /* run by many() */
    }
    if (st != GEOLOC_OK && c->status == GEOLOC_OK)
        c->status = st;
    return count;
}

/* The many-points forms over queries [begin, end), in batches of MANY_BATCH: the places, or
 * their "City, State" texts into one buffer (with the offsets). Returns the results. */
static size_t many(ctx *c)
{
    static _Thread_local size_t indices[MANY_BATCH];
    static _Thread_local size_t offsets[MANY_BATCH];
    static _Thread_local char text[MANY_BATCH * 64];
    size_t total = 0;
    for (size_t i = c->begin; i < c->end; i += MANY_BATCH) {
        size_t k = c->end - i < MANY_BATCH ? c->end - i : MANY_BATCH, needed = 0;
        geoloc_status st = c->op == OP_REVGEO_MANY
            ? p_geoloc_reverse_geocode_many(c->gaz, c->queries + i, k, indices, NULL)
            : p_geoloc_reverse_geocode_many_text(c->gaz, c->queries + i, k, GEOLOC_ADDRESS_CITY_STATE, text,
                                                 sizeof text, &needed, offsets, NULL, NULL);
        if (st != GEOLOC_OK) {
            if (c->status == GEOLOC_OK)
                c->status = st;
        } else {
            total += k;
        }
    }
    return total;
}

static void *run_range(void *arg)
{
    ctx *c = arg;
    size_t total = 0;
    if (c->op == OP_REVGEO_MANY || c->op == OP_REVGEO_MANY_TEXT) {
        c->total = many(c);
        return NULL;
    }
    for (size_t i = c->begin; i < c->end; i++)
        total += one(c, c->queries[i]);
    c->total = total;
    return NULL;
}

/*
 * A team of `threads` threads (1 or 2) for one row: the calling thread answers the first half of
 * the queries and, with 2, one helper thread created once per row answers the second half, both
 * released together for each pass by a barrier. The helper lives through the warm-up pass and
 * every timed pass, so whatever the library sets up per thread on first use is not timed.
 */
typedef struct team {
    int threads;
    ctx c[2];
    pthread_t helper;
    pthread_barrier_t start, done;
    int quit;
} team;

static void *helper_main(void *arg)
{
    team *t = arg;
    for (;;) {
        pthread_barrier_wait(&t->start);
        if (t->quit)
            return NULL;
        run_range(&t->c[1]);
        pthread_barrier_wait(&t->done);
    }
}

static void team_start(team *t, const ctx *base, size_t nq, int threads)
{
    t->threads = threads;
    t->quit = 0;
    for (int i = 0; i < threads; i++) {
        t->c[i] = *base;
        t->c[i].out = base->out + (size_t)i * base->cap;
        t->c[i].begin = nq * (size_t)i / (size_t)threads;
        t->c[i].end = nq * (size_t)(i + 1) / (size_t)threads;
    }
    if (threads == 2) {
        pthread_barrier_init(&t->start, NULL, 2);
        pthread_barrier_init(&t->done, NULL, 2);
        if (pthread_create(&t->helper, NULL, helper_main, t) != 0) {
            fprintf(stderr, "geoloc_places: pthread_create failed\n");
            exit(1);
        }
    }
}

/* One pass over the team's queries; returns the result count (failures in base->status). */
static size_t team_pass(team *t, ctx *base)
{
    for (int i = 0; i < t->threads; i++)
        t->c[i].status = GEOLOC_OK;
    if (t->threads == 2)
        pthread_barrier_wait(&t->start);
    run_range(&t->c[0]);
    if (t->threads == 2)
        pthread_barrier_wait(&t->done);
    size_t total = 0;
    for (int i = 0; i < t->threads; i++) {
        total += t->c[i].total;
        if (t->c[i].status != GEOLOC_OK && base->status == GEOLOC_OK)
            base->status = t->c[i].status;
    }
    return total;
}

static void team_stop(team *t)
{
    if (t->threads == 2) {
        t->quit = 1;
        pthread_barrier_wait(&t->start);
        pthread_join(t->helper, NULL);
        pthread_barrier_destroy(&t->start);
        pthread_barrier_destroy(&t->done);
    }
}

static int failures; /* rows whose queries failed (the exit status is 1 then) */

/* Times one row and prints it (or a P row if the library refuses the query: pending for
 * GEOLOC_E_UNSUPPORTED, FAILED for any other status, which also makes the exit status 1). */
static void row(ctx *base, const char *set, const char *kind, const char *impl, size_t nq,
                int threads, int reps)
{
    team t;
    base->status = GEOLOC_OK;
    team_start(&t, base, nq, threads);
    double t0 = bp_now();
    size_t total = team_pass(&t, base); /* warm-up, and the status check */
    double best = bp_now() - t0;
    if (base->status != GEOLOC_OK) {
        team_stop(&t);
        char why[512];
        snprintf(why, sizeof why, "%s%s: %s",
                 base->status == GEOLOC_E_UNSUPPORTED ? "" : "FAILED: ",
                 geoloc_status_string(base->status), geoloc_last_error());
        pending(set, kind, impl, why);
        if (base->status != GEOLOC_E_UNSUPPORTED) {
            fprintf(stderr, "geoloc_places: %s %s %s: %s\n", set, kind, impl, why);
            failures++;
        }
        return;
    }
    if (best <= BP_ROW_BUDGET_S) { /* else the warm-up pass was the one timed pass */
        double spent = 0;
        best = INFINITY;
        for (int r = 0; r < reps && spent <= BP_ROW_BUDGET_S; r++) {
            t0 = bp_now();
            total = team_pass(&t, base);
            double dt = bp_now() - t0;
            spent += dt;
            if (dt < best)
                best = dt;
        }
    }
    team_stop(&t);
    printf("Q\t%s\t%s\t%s\t%.1f\t%.3f\t%zu\t%d\n", set, kind, impl, (double)nq / best,
           (double)total / (double)nq, nq, threads);
    fflush(stdout);
}

/* ---- checks ---------------------------------------------------------------------------------- */

/* Every place's distance from q by the scalar geoloc_distance (the value the header promises for
 * query results), and, for comparison, by geoloc_distance_one_to_many; returns how many of the
 * two differ and raises *worst to their largest relative difference. */
static size_t brute_distances(geoloc_coord q, const geoloc_coord *places, size_t n, geoloc_unit unit,
                              double *d, double *d_otm, double *worst)
{
    for (size_t j = 0; j < n; j++) {
        geoloc_status st = geoloc_distance(q, places[j], GEOLOC_MODEL_SPHERE, unit, &d[j]);
        if (st != GEOLOC_OK)
            die("geoloc_distance", st);
    }
    geoloc_status st = geoloc_distance_one_to_many(q, places, n, GEOLOC_MODEL_SPHERE, unit, d_otm);
    if (st != GEOLOC_OK)
        die("geoloc_distance_one_to_many", st);
    size_t differ = 0;
    for (size_t j = 0; j < n; j++)
        if (d_otm[j] != d[j]) {
            differ++;
            double r = fabs(d_otm[j] - d[j]) / fmax(fabs(d[j]), 1e-300);
            if (r > *worst)
                *worst = r;
        }
    return differ;
}

/* How a result list differs from the reference: 0 same; 1 same places in the same order, some
 * distance not bit-identical; 2 same places, another order; 3 other places or another count. */
static int compare(const geoloc_match *a, size_t na, const bp_match *b, size_t nb)
{
    if (na != nb)
        return 3;
    int how = 0;
    for (size_t i = 0; i < na; i++) {
        if (a[i].index != b[i].index) {
            how = 2;
            break;
        }
        if (a[i].distance != b[i].distance)
            how = 1;
    }
    if (how != 2)
        return how;
    /* Another order: the same set of places? (n is small: at most a few thousand.) */
    for (size_t i = 0; i < na; i++) {
        size_t j = 0;
        while (j < nb && b[j].index != a[i].index)
            j++;
        if (j == nb)
            return 3;
    }
    return 2;
}

static void report(const char *set, const char *kind, const char *impl, size_t checked,
                   const size_t how[4], const char *reference)
{
    size_t bad = how[1] + how[2] + how[3];
    printf("C\t%s\t%s\t%s\t%zu\t%zu\tvs brute force (%s)", set, kind, impl, checked, bad,
           reference);
    if (bad)
        printf(": %zu other places or counts, %zu another order, %zu distances not "
               "bit-identical",
               how[3], how[2], how[1]);
    printf("\n");
}

/* The first ncheck queries of each kind against brute force (distances in miles). */
static void check_set(ctx *c, const char *set, const geoloc_coord *places, size_t n,
                      size_t ncheck)
{
    double *d = malloc((n ? n : 1) * sizeof *d);
    double *d_otm = malloc((n ? n : 1) * sizeof *d_otm);
    bp_match *ref = malloc((n ? n : 1) * sizeof *ref);
    size_t how[4][4] = {{0}};
    size_t otm_differ = 0;
    double otm_worst = 0;
    static const char *kinds[4] = {"within_5mi", "within_50mi", "nearest_1", "nearest_10"};
    for (size_t i = 0; i < ncheck; i++) {
        geoloc_coord q = c->queries[i];
        otm_differ += brute_distances(q, places, n, GEOLOC_UNIT_MILES, d, d_otm, &otm_worst);
        size_t nref = bp_brute_select(d, n, 50.0, 10, ref);
        size_t n5 = 0, n50 = 0;
        while (n5 < nref && ref[n5].distance <= 5.0)
            n5++;
        while (n50 < nref && ref[n50].distance <= 50.0)
            n50++;
        size_t want[4] = {n5, n50, nref < 1 ? nref : 1, nref < 10 ? nref : 10};
        for (int k = 0; k < 4; k++) {
            c->op = (enum op)k; /* OP_WITHIN5 .. OP_NEAREST10 */
            c->status = GEOLOC_OK;
            size_t got = one(c, q);
            how[k][c->status != GEOLOC_OK ? 3 : compare(c->out, got, ref, want[k])]++;
        }
    }
    for (int k = 0; k < 4; k++)
        report(set, kinds[k], "c.geoloc", ncheck, how[k], "geoloc_distance per place");
    printf("C\t%s\tdistance\tc.geoloc_distance_one_to_many\t%zu\t%zu\tdistances from %zu query "
           "points not bit-identical to geoloc_distance's (largest relative difference %.1e); "
           "informative\n",
           set, ncheck * n, otm_differ, ncheck, otm_worst);
    fflush(stdout);
    free(d);
    free(d_otm);
    free(ref);
}

/* ---- saved sets ------------------------------------------------------------------------------ */

static void saved_path(char *buf, size_t cap, const char *dir, const char *set)
{
    snprintf(buf, cap, "%s/../%s.places", dir, set);
}

/* Saves the set (F row), opens the file in this process and compares the answers of the first
 * ncheck queries of every kind with the set's (C row). */
static void save_and_reopen(ctx *c, const char *dir, const char *set, size_t n, size_t ncheck)
{
    if (!LOOKUP(geoloc_places_save) || !LOOKUP(geoloc_places_open)) {
        pending(set, "*", "c.geoloc_file", "libgeoloc has no geoloc_places_save yet");
        return;
    }
    char path[4096];
    saved_path(path, sizeof path, dir, set);
    double t0 = bp_now();
    geoloc_status st = p_geoloc_places_save(c->set, path);
    double save_s = bp_now() - t0;
    if (st != GEOLOC_OK)
        die("geoloc_places_save", st);
    struct stat sb;
    if (stat(path, &sb) != 0) {
        perror(path);
        exit(1);
    }
    printf("F\t%s\tc.geoloc_file\t%.6f\t%.1f\n", set, save_s, (double)sb.st_size / (double)(n ? n : 1));
    geoloc_places *opened = NULL;
    if ((st = p_geoloc_places_open(path, &opened)) != GEOLOC_OK)
        die("geoloc_places_open", st);
    ctx o = *c;
    o.set = opened;
    o.out = malloc(c->cap * sizeof *o.out);
    size_t bad = 0;
    for (size_t i = 0; i < ncheck; i++) {
        for (int k = OP_WITHIN5; k <= OP_NEAREST10; k++) {
            c->op = o.op = (enum op)k;
            c->status = o.status = GEOLOC_OK;
            size_t a = one(c, c->queries[i]), b = one(&o, c->queries[i]);
            bad += c->status != GEOLOC_OK || o.status != GEOLOC_OK || a != b ||
                   memcmp(c->out, o.out, a * sizeof *o.out) != 0;
        }
    }
    printf("C\t%s\tsaved file\tc.geoloc_reopened\t%zu\t%zu\tanswers of the reopened file vs the set "
           "(every kind, indices and distances)\n", set, 4 * ncheck, bad);
    fflush(stdout);
    free(o.out);
    p_geoloc_places_destroy(opened);
}

/* A fresh process: geoloc_places_open of a saved set, then its first query. */
static int run_open_set(const char *file, const char *dir, const char *name)
{
    bp_set s;
    bp_load_set(dir, name, &s);
    if (!LOOKUP(geoloc_places_open) || !LOOKUP(geoloc_places_within) || !LOOKUP(geoloc_places_destroy)) {
        pending(name, "*", "c.geoloc_open", "libgeoloc has no geoloc_places_open yet");
        return 0;
    }
    geoloc_places *set = NULL;
    double rss0 = bp_rss(), t0 = bp_now();
    geoloc_status st = p_geoloc_places_open(file, &set);
    double open_s = bp_now() - t0, rss1 = bp_rss();
    if (st != GEOLOC_OK)
        die("geoloc_places_open", st);
    geoloc_match out[4096];
    size_t count = 0;
    t0 = bp_now();
    st = p_geoloc_places_within(set, ((const geoloc_coord *)s.queries)[0], 5.0, GEOLOC_MODEL_SPHERE,
                                GEOLOC_UNIT_MILES, 4096, out, 4096, &count);
    double first_s = bp_now() - t0;
    if (st != GEOLOC_OK)
        die("geoloc_places_within", st);
    printf("O\t%s\tc.geoloc_open\t%.6f\t%.6f\t%.1f\n", name, open_s, first_s,
           (rss1 - rss0) / (double)(s.n_places ? s.n_places : 1));
    p_geoloc_places_destroy(set);
    free(s.places);
    free(s.queries);
    return 0;
}

/* ---- modes ----------------------------------------------------------------------------------- */

static int run_set(const char *dir, const char *name, int reps, size_t ncheck)
{
    bp_set s;
    bp_load_set(dir, name, &s);
    if (ncheck > s.n_queries)
        ncheck = s.n_queries;
    const char *miss = missing_places();
    if (miss) {
        char why[256];
        snprintf(why, sizeof why, "libgeoloc has no %s yet", miss);
        pending(name, "*", "c.geoloc", why);
        return 0;
    }
    const geoloc_coord *places = (const geoloc_coord *)s.places;
    geoloc_places *set = NULL;
    double rss0 = bp_rss(), t0 = bp_now();
    geoloc_status st = p_geoloc_places_create(places, NULL, NULL, s.n_places, NULL, 0, NULL, &set);
    double build_s = bp_now() - t0, rss1 = bp_rss();
    if (st == GEOLOC_E_UNSUPPORTED) {
        pending(name, "*", "c.geoloc", geoloc_last_error());
        return 0;
    }
    if (st != GEOLOC_OK)
        die("geoloc_places_create", st);
    printf("S\t%s\tc.geoloc\t%.6f\t%.1f\n", name, build_s, (rss1 - rss0) / (double)s.n_places);
    fflush(stdout);

    ctx c = {0};
    c.set = set;
    c.queries = (const geoloc_coord *)s.queries;
    c.cap = s.n_places ? s.n_places : 1;
    c.out = calloc(2 * c.cap, sizeof *c.out);
    if (!c.out) {
        fprintf(stderr, "geoloc_places: out of memory\n");
        return 1;
    }
    c.op = OP_WITHIN5;
    row(&c, name, "within_5mi", "c.geoloc", s.nq_within5, 1, reps);
    c.op = OP_WITHIN50;
    row(&c, name, "within_50mi", "c.geoloc", s.nq_within50, 1, reps);
    c.op = OP_NEAREST1;
    row(&c, name, "nearest_1", "c.geoloc", s.nq_nearest, 1, reps);
    c.op = OP_NEAREST10;
    row(&c, name, "nearest_10", "c.geoloc", s.nq_nearest, 1, reps);
    c.op = OP_WITHIN5;
    row(&c, name, "within_5mi", "c.geoloc", s.nq_within5, 2, reps);
    c.op = OP_WITHIN50;
    row(&c, name, "within_50mi", "c.geoloc", s.nq_within50, 2, reps);
    c.op = OP_NEAREST1;
    row(&c, name, "nearest_1", "c.geoloc", s.nq_nearest, 2, reps);
    c.op = OP_NEAREST10;
    row(&c, name, "nearest_10", "c.geoloc", s.nq_nearest, 2, reps);

    check_set(&c, name, places, s.n_places, ncheck);
    save_and_reopen(&c, dir, name, s.n_places, ncheck);

    p_geoloc_places_destroy(set);
    free(c.out);
    free(s.places);
    free(s.queries);
    return 0;
}

/* The first open of the shipped gazetteer: prints the S row; returns the handle or NULL. */
static geoloc_gazetteer *open_gazetteer(void)
{
    const char *miss = missing_gazetteer();
    if (miss) {
        char why[256];
        snprintf(why, sizeof why, "libgeoloc has no %s yet", miss);
        pending("gazetteer", "*", "c.geoloc_gazetteer", why);
        return NULL;
    }
    geoloc_gazetteer *gaz = NULL;
    double rss0 = bp_rss(), t0 = bp_now();
    geoloc_status st = p_geoloc_gazetteer_open(NULL, &gaz);
    double open_s = bp_now() - t0, rss1 = bp_rss();
    if (st != GEOLOC_OK) {
        char why[1024];
        snprintf(why, sizeof why, "geoloc_gazetteer_open(NULL): %s: %s", geoloc_status_string(st),
                 geoloc_last_error());
        if (st == GEOLOC_E_UNSUPPORTED || st == GEOLOC_E_NOT_FOUND) {
            pending("gazetteer", "*", "c.geoloc_gazetteer", why);
            return NULL;
        }
        fprintf(stderr, "geoloc_places: %s\n", why);
        exit(1);
    }
    const geoloc_places *gp = NULL;
    size_t n = 0;
    if ((st = p_geoloc_gazetteer_places(gaz, &gp)) != GEOLOC_OK)
        die("geoloc_gazetteer_places", st);
    if ((st = p_geoloc_places_count(gp, &n)) != GEOLOC_OK)
        die("geoloc_places_count", st);
    printf("# gazetteer: %zu places\n", n);
    printf("S\tgazetteer\tc.geoloc_gazetteer_open\t%.6f\t%.1f\n", open_s,
           (rss1 - rss0) / (double)(n ? n : 1));
    fflush(stdout);
    return gaz;
}

static int run_gazetteer(const char *dir, int reps, size_t ncheck)
{
    geoloc_gazetteer *gaz = open_gazetteer();
    if (!gaz)
        return 0;
    bp_set s;
    bp_load_set(dir, "cities", &s);
    if (ncheck > s.n_queries)
        ncheck = s.n_queries;
    const geoloc_places *gp = NULL;
    size_t n = 0;
    p_geoloc_gazetteer_places(gaz, &gp);
    p_geoloc_places_count(gp, &n);

    ctx c = {0};
    c.set = gp;
    c.gaz = gaz;
    c.queries = (const geoloc_coord *)s.queries;
    c.cap = 16;
    c.out = calloc(2 * c.cap, sizeof *c.out);
    size_t nq = s.nq_nearest;
    c.op = OP_REVGEO_TEXT;
    {
        /* The first pass formats the texts of the places it meets (kept by the gazetteer for
         * later queries): timed here once, for information; the rows below are warm. */
        team t;
        c.status = GEOLOC_OK;
        team_start(&t, &c, nq, 1);
        double t0 = bp_now();
        team_pass(&t, &c);
        double cold = bp_now() - t0;
        team_stop(&t);
        printf("# c.geoloc_reverse_geocode_text: first pass (every text formatted on first use): "
               "%.0f queries/s\n", (double)nq / cold);
    }
    row(&c, "cities", "reverse_geocode", "c.geoloc_reverse_geocode_text", nq, 1, reps);
    row(&c, "cities", "reverse_geocode", "c.geoloc_reverse_geocode_text", nq, 2, reps);
    c.op = OP_REVGEO_PLACE;
    row(&c, "cities", "reverse_geocode", "c.geoloc_reverse_geocode", nq, 1, reps);
    row(&c, "cities", "reverse_geocode", "c.geoloc_reverse_geocode", nq, 2, reps);
    if (LOOKUP(geoloc_reverse_geocode_many) && LOOKUP(geoloc_reverse_geocode_many_text)) {
        c.op = OP_REVGEO_MANY_TEXT;
        row(&c, "cities", "reverse_geocode", "c.geoloc_reverse_geocode_many_text", nq, 1, reps);
        row(&c, "cities", "reverse_geocode", "c.geoloc_reverse_geocode_many_text", nq, 2, reps);
        c.op = OP_REVGEO_MANY;
        row(&c, "cities", "reverse_geocode", "c.geoloc_reverse_geocode_many", nq, 1, reps);
    } else {
        pending("cities", "reverse_geocode", "c.geoloc_reverse_geocode_many",
                "libgeoloc has no geoloc_reverse_geocode_many yet");
    }

    /* Check: the reverse geocode's nearest place must be the brute-force nearest (meters), index
     * and distance (since issue 20 the answer is the nearest place's locality: its nearest place
     * is read with geoloc_reverse_geocode_localities, where the library has it); and the text must
     * not be empty. */
    LOOKUP(geoloc_reverse_geocode_localities);
    geoloc_coord *coords = malloc((n ? n : 1) * sizeof *coords);
    double *d = malloc((n ? n : 1) * sizeof *d);
    bp_match *ref = malloc((n ? n : 1) * sizeof *ref);
    for (size_t j = 0; j < n; j++)
        if (p_geoloc_places_coord(gp, j, &coords[j]) != GEOLOC_OK)
            die("geoloc_places_coord", GEOLOC_E_INTERNAL);
    size_t wrong = 0, empty = 0;
    geoloc_match *brute = malloc((ncheck ? ncheck : 1) * sizeof *brute);
    for (size_t i = 0; i < ncheck; i++) {
        geoloc_coord q = c.queries[i];
        for (size_t j = 0; j < n; j++) {
            geoloc_status st =
                geoloc_distance(q, coords[j], GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &d[j]);
            if (st != GEOLOC_OK)
                die("geoloc_distance", st);
        }
        size_t nref = bp_brute_select(d, n, -1.0, 1, ref);
        geoloc_status st;
        size_t needed = 0;
        geoloc_match place = {(size_t)-1, NAN};
        st = p_geoloc_reverse_geocode(gaz, q, GEOLOC_ADDRESS_CITY_STATE, c.text, sizeof c.text,
                                      &needed, &place);
        if (p_geoloc_reverse_geocode_localities) {
            geoloc_locality loc;
            if (p_geoloc_reverse_geocode_localities(gaz, &q, 1, NULL, &loc) != GEOLOC_OK)
                die("geoloc_reverse_geocode_localities", GEOLOC_E_INTERNAL);
            place = (geoloc_match){loc.nearest, loc.nearest_distance_m};
            if (st == GEOLOC_E_NO_LOCALITY) st = GEOLOC_OK;
        }
        wrong += st != GEOLOC_OK || nref < 1 || place.index != ref[0].index ||
                 place.distance != ref[0].distance;
        brute[i] = nref < 1 ? (geoloc_match){(size_t)-1, NAN} : (geoloc_match){ref[0].index, ref[0].distance};
        empty += st != GEOLOC_OK || c.text[0] == '\0';
        if (i < 3)
            printf("# reverse_geocode(%.5f, %.5f) = \"%s\" (place %zu, %.0f m)\n", q.lat, q.lon,
                   c.text, place.index, place.distance);
    }
    printf("C\tcities\treverse_geocode\tc.geoloc_reverse_geocode\t%zu\t%zu\twrong place vs brute "
           "force (geoloc_distance per place: index and meters)\n",
           ncheck, wrong);
    printf("C\tcities\treverse_geocode\tc.geoloc_reverse_geocode_text\t%zu\t%zu\tempty text\n",
           ncheck, empty);
    /* The many-points forms: the first ncheck places against brute force, and every query's
     * place and text against the single call's. */
    if (p_geoloc_reverse_geocode_many && p_geoloc_reverse_geocode_many_text && nq > 0) {
        size_t *idx = malloc(nq * sizeof *idx), *tidx = malloc(nq * sizeof *tidx);
        double *dist = malloc(nq * sizeof *dist), *tdist = malloc(nq * sizeof *tdist);
        size_t *offsets = malloc(nq * sizeof *offsets), size = 0;
        geoloc_status st = p_geoloc_reverse_geocode_many(gaz, c.queries, nq, idx, dist);
        if (st != GEOLOC_OK)
            die("geoloc_reverse_geocode_many", st);
        p_geoloc_reverse_geocode_many_text(gaz, c.queries, nq, GEOLOC_ADDRESS_CITY_STATE, NULL, 0, &size, NULL, NULL, NULL);
        char *texts = malloc(size ? size : 1);
        st = p_geoloc_reverse_geocode_many_text(gaz, c.queries, nq, GEOLOC_ADDRESS_CITY_STATE, texts, size, &size,
                                                offsets, tidx, tdist);
        if (st != GEOLOC_OK)
            die("geoloc_reverse_geocode_many_text", st);
        size_t mwrong = 0, tdiff = 0, pdiff = 0;
        geoloc_locality *loc = p_geoloc_reverse_geocode_localities ? malloc((ncheck ? ncheck : 1) * sizeof *loc) : NULL;
        if (loc && p_geoloc_reverse_geocode_localities(gaz, c.queries, ncheck, NULL, loc) != GEOLOC_OK)
            die("geoloc_reverse_geocode_localities", GEOLOC_E_INTERNAL);
        for (size_t i = 0; i < ncheck; i++)
            mwrong += loc ? loc[i].nearest != brute[i].index || loc[i].nearest_distance_m != brute[i].distance
                          : idx[i] != brute[i].index || dist[i] != brute[i].distance;
        free(loc);
        for (size_t i = 0; i < nq; i++) {
            size_t needed = 0;
            geoloc_match place = {(size_t)-1, NAN};
            st = p_geoloc_reverse_geocode(gaz, c.queries[i], GEOLOC_ADDRESS_CITY_STATE, c.text, sizeof c.text,
                                          &needed, &place);
            if (st == GEOLOC_E_NO_LOCALITY) st = GEOLOC_OK;
            pdiff += st != GEOLOC_OK || place.index != idx[i] || place.distance != dist[i] ||
                     tidx[i] != place.index || tdist[i] != place.distance;
            tdiff += st != GEOLOC_OK || strcmp(texts + offsets[i], c.text) != 0;
        }
        printf("C\tcities\treverse_geocode\tc.geoloc_reverse_geocode_many\t%zu\t%zu\twrong place vs brute "
               "force (index and meters)\n", ncheck, mwrong);
        printf("# many-points forms against one call per point, all %zu queries: %zu places differ, "
               "%zu texts differ\n", nq, pdiff, tdiff);
        printf("C\tcities\treverse_geocode\tc.geoloc_reverse_geocode_many_text\t%zu\t%zu\tplace or text "
               "not the single call's\n", nq, pdiff + tdiff);
        free(idx);
        free(tidx);
        free(dist);
        free(tdist);
        free(offsets);
        free(texts);
    }
    free(brute);
    fflush(stdout);
    free(coords);
    free(d);
    free(ref);
    free(c.out);
    p_geoloc_gazetteer_destroy(gaz);
    free(s.places);
    free(s.queries);
    return 0;
}

static int run_load_csv(const char *path)
{
    if (!LOOKUP(geoloc_places_load_csv) || !LOOKUP(geoloc_places_count) ||
        !LOOKUP(geoloc_places_destroy)) {
        pending("gazetteer", "*", "c.geoloc_places_load_csv",
                "libgeoloc has no geoloc_places_load_csv yet");
        return 0;
    }
    geoloc_places *set = NULL;
    double rss0 = bp_rss(), t0 = bp_now();
    geoloc_status st = p_geoloc_places_load_csv(path, NULL, &set);
    double load_s = bp_now() - t0, rss1 = bp_rss();
    if (st != GEOLOC_OK) {
        char why[1024];
        snprintf(why, sizeof why, "geoloc_places_load_csv(%s): %s: %s", path,
                 geoloc_status_string(st), geoloc_last_error());
        if (st == GEOLOC_E_UNSUPPORTED || st == GEOLOC_E_NOT_FOUND) {
            pending("gazetteer", "*", "c.geoloc_places_load_csv", why);
            return 0;
        }
        fprintf(stderr, "geoloc_places: %s\n", why);
        return 1;
    }
    size_t n = 0;
    p_geoloc_places_count(set, &n);
    printf("# load_csv %s: %zu places\n", path, n);
    printf("S\tgazetteer\tc.geoloc_places_load_csv\t%.6f\t%.1f\n", load_s,
           (rss1 - rss0) / (double)(n ? n : 1));
    p_geoloc_places_destroy(set);
    return 0;
}

int main(int argc, char **argv)
{
    printf("# geoloc_places: libgeoloc %s (header %s)\n", geoloc_version(), GEOLOC_VERSION_STRING);
    if (argc == 2 && strcmp(argv[1], "--open") == 0) {
        geoloc_gazetteer *gaz = open_gazetteer();
        if (gaz)
            p_geoloc_gazetteer_destroy(gaz);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "--load-csv") == 0)
        return run_load_csv(argv[2]);
    if (argc == 5 && strcmp(argv[1], "--open-set") == 0)
        return run_open_set(argv[2], argv[3], argv[4]);
    if (argc != 5) {
        fprintf(stderr, "usage: geoloc_places DATADIR SET|gazetteer REPS NCHECK\n"
                        "       geoloc_places --open\n"
                        "       geoloc_places --load-csv PATH\n"
                        "       geoloc_places --open-set FILE DATADIR SET\n");
        return 2;
    }
    int reps = (int)bp_parse_count(argv[3], "REPS");
    size_t ncheck = bp_parse_count(argv[4], "NCHECK");
    if (reps < 1)
        reps = 1;
    int rc = strcmp(argv[2], "gazetteer") == 0 ? run_gazetteer(argv[1], reps, ncheck)
                                                : run_set(argv[1], argv[2], reps, ncheck);
    return rc ? rc : failures ? 1 : 0;
}
