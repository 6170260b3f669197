/*
 * geos_direct.c -- the reference rows of the place search benchmark: what a C programmer writes
 * with GEOS alone (the reentrant C API, no libgeoloc), so that libgeoloc's overhead over the
 * index it is built on can be read off the table.
 *
 *   usage: geos_direct DATADIR SET REPS NCHECK
 *
 * The index: GEOSSTRtree_create_r(h, 10), one GEOSGeom_createPointFromXY_r(lon, lat) per place
 * inserted with a pointer to the place's coordinate as the item (the point is destroyed right
 * after: since GEOS 3.9 the tree copies the envelope), then one warm-up query, which builds the
 * tree. Build time and the resident memory it adds (bytes per place) are printed.
 *
 * Queries (each pass answers the set's first nq queries; best of REPS passes after a warm-up):
 *  - within_5mi, within_50mi: the lon/lat boxes containing the cap (bp_cap_boxes: split at the
 *    antimeridian, all longitudes when the cap reaches a pole) as GEOSGeom_createRectangle_r,
 *    GEOSSTRtree_query_r collecting candidate items, a haversine filter, a sort by distance (ties
 *    by index): the same result list libgeoloc's geoloc_places_within returns.
 *  - nearest_1 by GEOSSTRtree_nearest_generic_r with a haversine distance callback (the central
 *    angle in degrees, so that it is on the scale of the tree's lon/lat envelope distances). The
 *    tree prunes by planar envelope distance, which is not a lower bound of the great-circle
 *    distance, so the answer is not always the nearest place: the harness counts how often it
 *    differs (by distance) from the exact answer, over all queries.
 *  - nearest_1 and nearest_10 by growing-radius envelope queries: start at a sixteenth of the
 *    radius that holds k places at the set's mean density, double until k places lie within it,
 *    then sort. Exact. (A sixteenth: the best start of 1/4, 1/8, 1/16, 1/32 over the three sets.)
 *
 * Checks: for the first NCHECK queries, every result list is compared with a brute-force scan
 * of all places (same haversine); mismatches are printed as C rows (they must be 0, except for
 * nearest_generic, which is reported as it is).
 */
#define _POSIX_C_SOURCE 200809L
#define GEOS_USE_ONLY_R_API

#include <geos_c.h>
#include <stdarg.h>

#include "common.h"

static GEOSContextHandle_t H;
static bp_set S;

static void geos_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "geos_direct: GEOS: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

/* ---- candidate collection ------------------------------------------------------------------ */

typedef struct buf {
    size_t *idx;
    size_t n, cap;
} buf;

static void cand_cb(void *item, void *userdata)
{
    buf *b = userdata;
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 1024;
        b->idx = realloc(b->idx, b->cap * sizeof *b->idx);
        if (!b->idx) {
            fprintf(stderr, "geos_direct: out of memory\n");
            exit(1);
        }
    }
    b->idx[b->n++] = (size_t)((const bp_coord *)item - S.places);
}

typedef struct worker {
    GEOSSTRtree *tree;
    buf cand;
    bp_match *m;
    size_t mcap;
} worker;

static void ensure_mcap(worker *w, size_t n)
{
    if (n > w->mcap) {
        w->mcap = n * 2;
        w->m = realloc(w->m, w->mcap * sizeof *w->m);
        if (!w->m) {
            fprintf(stderr, "geos_direct: out of memory\n");
            exit(1);
        }
    }
}

/* Candidates of the cap of `meters` around q into w->cand (cleared first). */
static void query_cap(worker *w, bp_coord q, double meters)
{
    bp_box box[2];
    int nb = bp_cap_boxes(q.lat, q.lon, meters, box);
    w->cand.n = 0;
    for (int i = 0; i < nb; i++) {
        GEOSGeometry *g = GEOSGeom_createRectangle_r(H, box[i].x0, box[i].y0, box[i].x1, box[i].y1);
        GEOSSTRtree_query_r(H, w->tree, g, cand_cb, &w->cand);
        GEOSGeom_destroy_r(H, g);
    }
}

/* The candidates within `meters` of q into w->m, unsorted; returns the count. */
static size_t filter(worker *w, bp_coord q, double meters)
{
    query_cap(w, q, meters);
    ensure_mcap(w, w->cand.n);
    size_t k = 0;
    for (size_t i = 0; i < w->cand.n; i++) {
        size_t j = w->cand.idx[i];
        double d = bp_haversine_m(q.lat, q.lon, S.places[j].lat, S.places[j].lon);
        if (d <= meters)
            w->m[k++] = (bp_match){j, d};
    }
    return k;
}

/* Every place within `meters` of q, sorted; returns the count (results in w->m). */
static size_t within(worker *w, bp_coord q, double meters)
{
    size_t k = filter(w, q, meters);
    bp_sort_matches(w->m, k);
    return k;
}

static double knn_r0[64];

/* The k nearest places by growing-radius cap queries; returns the count (results in w->m). */
static size_t nearest_envelope(worker *w, bp_coord q, size_t k)
{
    if (k == 0 || S.n_places == 0)
        return 0;
    double r = knn_r0[k < 64 ? k : 63];
    for (;;) {
        size_t got = filter(w, q, r);
        if (got >= k) {
            bp_select_k(w->m, got, k);
            return k;
        }
        if (r >= BP_PI * BP_EARTH_R) {
            bp_sort_matches(w->m, got);
            return got;
        }
        r *= 2.0;
    }
}

/* ---- nearest_generic ------------------------------------------------------------------------ */

static int angle_cb(const void *item1, const void *item2, double *distance, void *userdata)
{
    (void)userdata;
    const bp_coord *a = item1, *b = item2;
    *distance = bp_haversine_m(a->lat, a->lon, b->lat, b->lon) * (BP_R2D / BP_EARTH_R);
    return 1;
}

static size_t nearest_generic(worker *w, bp_coord q)
{
    GEOSGeometry *g = GEOSGeom_createPointFromXY_r(H, q.lon, q.lat);
    const void *item = GEOSSTRtree_nearest_generic_r(H, w->tree, &q, g, angle_cb, NULL);
    GEOSGeom_destroy_r(H, g);
    if (!item)
        return 0;
    ensure_mcap(w, 1);
    size_t j = (size_t)((const bp_coord *)item - S.places);
    w->m[0] = (bp_match){j, bp_haversine_m(q.lat, q.lon, S.places[j].lat, S.places[j].lon)};
    return 1;
}

/* ---- passes --------------------------------------------------------------------------------- */

enum kind { K_WITHIN5, K_WITHIN50, K_GENERIC1, K_ENV1, K_ENV10 };

static size_t one(worker *w, enum kind kind, bp_coord q)
{
    switch (kind) {
    case K_WITHIN5:
        return within(w, q, 5 * BP_MILE);
    case K_WITHIN50:
        return within(w, q, 50 * BP_MILE);
    case K_GENERIC1:
        return nearest_generic(w, q);
    case K_ENV1:
        return nearest_envelope(w, q, 1);
    case K_ENV10:
        return nearest_envelope(w, q, 10);
    }
    return 0;
}

static size_t pass(worker *w, enum kind kind, size_t nq)
{
    size_t total = 0;
    for (size_t i = 0; i < nq; i++)
        total += one(w, kind, S.queries[i]);
    return total;
}

/* Brute force: the places within 50 miles of q, or the 10 nearest (see bp_brute_select). */
static size_t brute(bp_coord q, double *d, bp_match *all)
{
    for (size_t j = 0; j < S.n_places; j++)
        d[j] = bp_haversine_m(q.lat, q.lon, S.places[j].lat, S.places[j].lon);
    return bp_brute_select(d, S.n_places, 50 * BP_MILE, 10, all);
}

static int same(const bp_match *a, size_t na, const bp_match *b, size_t nb)
{
    if (na != nb)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (a[i].index != b[i].index || a[i].distance != b[i].distance)
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: geos_direct DATADIR SET REPS NCHECK\n");
        return 2;
    }
    bp_load_set(argv[1], argv[2], &S);
    int reps = (int)bp_parse_count(argv[3], "REPS");
    size_t ncheck = bp_parse_count(argv[4], "NCHECK");
    if (reps < 1)
        reps = 1;
    if (ncheck > S.n_queries)
        ncheck = S.n_queries;

    H = GEOS_init_r();
    GEOSContext_setErrorHandler_r(H, geos_msg);
    printf("# geos_direct: GEOS %s, set %s: %zu places, %zu queries\n", GEOSversion(), S.name,
           S.n_places, S.n_queries);

    /* Build: create, insert, one warm-up query (which builds the tree). */
    worker w = {0};
    double rss0 = bp_rss();
    double t0 = bp_now();
    w.tree = GEOSSTRtree_create_r(H, 10);
    for (size_t i = 0; i < S.n_places; i++) {
        GEOSGeometry *p = GEOSGeom_createPointFromXY_r(H, S.places[i].lon, S.places[i].lat);
        GEOSSTRtree_insert_r(H, w.tree, p, &S.places[i]);
        GEOSGeom_destroy_r(H, p);
    }
    within(&w, S.queries[0], 1.0);
    double build_s = bp_now() - t0;
    double rss1 = bp_rss();
    printf("S\t%s\tc.geos_strtree\t%.6f\t%.1f\n", S.name, build_s,
           (rss1 - rss0) / (double)S.n_places);
    fflush(stdout);

    /* Initial radii of the growing-radius kNN: a sixteenth of the radius of a cap that holds k
     * places at the set's mean density (cap area 2 pi R^2 (1 - cos a) = k 4 pi R^2 / n). */
    for (size_t k = 1; k < 64; k++) {
        double frac = (double)k / (double)(S.n_places ? S.n_places : 1);
        double a = frac < 1 ? acos(1 - 2 * frac) : BP_PI;
        knn_r0[k] = a * BP_EARTH_R / 16;
    }

    static const struct {
        enum kind kind;
        const char *name, *impl;
    } rows[] = {
        {K_WITHIN5, "within_5mi", "c.geos_strtree"},
        {K_WITHIN50, "within_50mi", "c.geos_strtree"},
        {K_GENERIC1, "nearest_1", "c.geos_nearest_generic"},
        {K_ENV1, "nearest_1", "c.geos_strtree"},
        {K_ENV10, "nearest_10", "c.geos_strtree"},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        size_t nq = rows[r].kind == K_WITHIN5    ? S.nq_within5
                    : rows[r].kind == K_WITHIN50 ? S.nq_within50
                                                 : S.nq_nearest;
        if (nq > S.n_queries)
            nq = S.n_queries;
        size_t total = 0;
        double qps;
        BP_BEST_QPS(nq, reps, (total = pass(&w, rows[r].kind, nq)), qps);
        printf("Q\t%s\t%s\t%s\t%.1f\t%.3f\t%zu\t1\n", S.name, rows[r].name, rows[r].impl, qps,
               (double)total / (double)nq, nq);
        fflush(stdout);
    }

    /* nearest_generic against the exact growing-radius answer, over all queries: counted as
     * wrong when its place is farther than the nearest one (a tie at equal distance is right). */
    {
        size_t wrong = 0;
        double worst = 0;
        for (size_t i = 0; i < S.nq_nearest && i < S.n_queries; i++) {
            nearest_envelope(&w, S.queries[i], 1);
            double exact = w.m[0].distance;
            nearest_generic(&w, S.queries[i]);
            if (w.m[0].distance > exact) {
                wrong++;
                if (w.m[0].distance - exact > worst)
                    worst = w.m[0].distance - exact;
            }
        }
        size_t nq = S.nq_nearest < S.n_queries ? S.nq_nearest : S.n_queries;
        printf("C\t%s\tnearest_1\tc.geos_nearest_generic\t%zu\t%zu\tnot the nearest place in "
               "%.2f%% of queries (worst %.0f m farther)\n",
               S.name, nq, wrong, 100.0 * (double)wrong / (double)(nq ? nq : 1), worst);
    }

    /* Brute-force checks on the first ncheck queries. */
    if (ncheck > 0) {
        bp_match *all = malloc(S.n_places * sizeof *all);
        double *d = malloc(S.n_places * sizeof *d);
        size_t bad[5] = {0}, bad_generic = 0;
        for (size_t i = 0; i < ncheck; i++) {
            bp_coord q = S.queries[i];
            size_t nb = brute(q, d, all);
            size_t n5 = 0, n50 = 0;
            while (n5 < nb && all[n5].distance <= 5 * BP_MILE)
                n5++;
            while (n50 < nb && all[n50].distance <= 50 * BP_MILE)
                n50++;
            size_t got = within(&w, q, 5 * BP_MILE);
            bad[0] += !same(w.m, got, all, n5);
            got = within(&w, q, 50 * BP_MILE);
            bad[1] += !same(w.m, got, all, n50);
            got = nearest_envelope(&w, q, 1);
            bad[2] += !same(w.m, got, all, S.n_places < 1 ? S.n_places : 1);
            got = nearest_envelope(&w, q, 10);
            bad[3] += !same(w.m, got, all, S.n_places < 10 ? S.n_places : 10);
            got = nearest_generic(&w, q);
            bad_generic += !(got == 1 && nb > 0 && w.m[0].distance <= all[0].distance);
        }
        printf("C\t%s\twithin_5mi\tc.geos_strtree\t%zu\t%zu\tvs brute force\n", S.name, ncheck,
               bad[0]);
        printf("C\t%s\twithin_50mi\tc.geos_strtree\t%zu\t%zu\tvs brute force\n", S.name, ncheck,
               bad[1]);
        printf("C\t%s\tnearest_1\tc.geos_strtree\t%zu\t%zu\tvs brute force\n", S.name, ncheck,
               bad[2]);
        printf("C\t%s\tnearest_10\tc.geos_strtree\t%zu\t%zu\tvs brute force\n", S.name, ncheck,
               bad[3]);
        printf("C\t%s\tnearest_1\tc.geos_nearest_generic\t%zu\t%zu\tvs brute force (inexact by "
               "design)\n",
               S.name, ncheck, bad_generic);
        free(all);
        free(d);
    }

    GEOSSTRtree_destroy_r(H, w.tree);
    GEOS_finish_r(H);
    free(w.cand.idx);
    free(w.m);
    free(S.places);
    free(S.queries);
    return 0;
}
