/*
 * common.h -- shared by the C harnesses of the place search benchmark (geos_direct.c,
 * geoloc_places.c): the input files written by data.py, timing, resident memory, the
 * great-circle distance, and the longitude/latitude boxes that contain a spherical cap.
 *
 * Input (see data.py): DATADIR/manifest.tsv has one line per place set,
 *   set  n_places  n_queries  nq_within_5mi  nq_within_50mi  nq_nearest  description
 * and DATADIR/SET.places.f64, DATADIR/SET.queries.f64 hold (lat, lon) float64 pairs in the
 * machine's byte order, the layout of geoloc_coord. Longitudes are within [-180, 180).
 *
 * Output rows (tab-separated, '#' lines are comments), read by table.py:
 *   S  set  impl  build_seconds  bytes_per_place
 *   Q  set  kind  impl  queries_per_second  mean_results  n_queries  threads
 *   C  set  kind  impl  checked  mismatches  note
 */
#ifndef BENCH_PLACES_COMMON_H
#define BENCH_PLACES_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BP_EARTH_R 6371008.8 /* GEOLOC_EARTH_MEAN_RADIUS_M */
#define BP_MILE 1609.344
#define BP_PI 3.14159265358979323846
#define BP_D2R (BP_PI / 180.0)
#define BP_R2D (180.0 / BP_PI)

typedef struct bp_coord {
    double lat, lon;
} bp_coord;

typedef struct bp_set {
    char name[64];
    size_t n_places, n_queries;
    size_t nq_within5, nq_within50, nq_nearest;
    bp_coord *places, *queries;
} bp_set;

static inline double bp_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Resident set size of this process in bytes (/proc/self/statm, second field). */
static inline double bp_rss(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return NAN;
    unsigned long size = 0, resident = 0;
    int got = fscanf(f, "%lu %lu", &size, &resident);
    fclose(f);
    if (got != 2)
        return NAN;
    return (double)resident * (double)sysconf(_SC_PAGESIZE);
}

static inline void *bp_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = malloc(n > 0 ? (size_t)n : 1);
    if (!p || fread(p, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *len = (size_t)n;
    return p;
}

/* Loads set `name` from DATADIR (manifest line and both arrays). Exits on failure. */
static inline void bp_load_set(const char *dir, const char *name, bp_set *s)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/manifest.tsv", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s (run data.py first)\n", path);
        exit(1);
    }
    char line[1024];
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        char set[64];
        unsigned long long np, nq, q5, q50, qn;
        if (sscanf(line, "%63s %llu %llu %llu %llu %llu", set, &np, &nq, &q5, &q50, &qn) == 6 &&
            strcmp(set, name) == 0) {
            snprintf(s->name, sizeof s->name, "%s", set);
            s->n_places = np;
            s->n_queries = nq;
            s->nq_within5 = q5;
            s->nq_within50 = q50;
            s->nq_nearest = qn;
            found = 1;
            break;
        }
    }
    fclose(f);
    if (!found) {
        fprintf(stderr, "no set '%s' in %s\n", name, path);
        exit(1);
    }
    size_t len;
    snprintf(path, sizeof path, "%s/%s.places.f64", dir, name);
    s->places = bp_read_file(path, &len);
    if (len != s->n_places * sizeof(bp_coord)) {
        fprintf(stderr, "%s: %zu bytes, expected %zu places\n", path, len, s->n_places);
        exit(1);
    }
    snprintf(path, sizeof path, "%s/%s.queries.f64", dir, name);
    s->queries = bp_read_file(path, &len);
    if (len != s->n_queries * sizeof(bp_coord)) {
        fprintf(stderr, "%s: %zu bytes, expected %zu queries\n", path, len, s->n_queries);
        exit(1);
    }
}

/* Great-circle distance in meters on the sphere of radius BP_EARTH_R (haversine, atan2 form). */
static inline double bp_haversine_m(double lat1, double lon1, double lat2, double lon2)
{
    double sdp = sin((lat2 - lat1) * (BP_D2R / 2));
    double sdl = sin((lon2 - lon1) * (BP_D2R / 2));
    double h = sdp * sdp + cos(lat1 * BP_D2R) * cos(lat2 * BP_D2R) * sdl * sdl;
    if (h > 1.0)
        h = 1.0;
    return 2.0 * BP_EARTH_R * atan2(sqrt(h), sqrt(1.0 - h));
}

/* A longitude/latitude box: min x (lon), min y (lat), max x, max y. */
typedef struct bp_box {
    double x0, y0, x1, y1;
} bp_box;

/*
 * The boxes (1 or 2) that together contain every point within `meters` of (lat, lon) on the
 * sphere: latitudes lat -/+ the angular radius; longitudes lon -/+ asin(sin(d) / cos(lat)),
 * the cap's exact longitude extent, split in two where it crosses the antimeridian; all
 * longitudes when the cap reaches a pole. A margin of 1e-9 degrees (0.1 mm) absorbs rounding.
 */
static inline int bp_cap_boxes(double lat, double lon, double meters, bp_box box[2])
{
    const double eps = 1e-9;
    double ang = meters / BP_EARTH_R; /* radians */
    double dlat = ang * BP_R2D + eps;
    double y0 = lat - dlat, y1 = lat + dlat;
    double s = ang < BP_PI / 2 ? sin(ang) / cos(lat * BP_D2R) : 2.0;
    if (y0 <= -90.0 || y1 >= 90.0 || !(s < 1.0)) {
        box[0] = (bp_box){-180.0, y0 < -90.0 ? -90.0 : y0, 180.0, y1 > 90.0 ? 90.0 : y1};
        return 1;
    }
    double dlon = asin(s) * BP_R2D + eps;
    double x0 = lon - dlon, x1 = lon + dlon;
    if (x0 < -180.0) {
        box[0] = (bp_box){x0 + 360.0, y0, 180.0, y1};
        box[1] = (bp_box){-180.0, y0, x1, y1};
        return 2;
    }
    if (x1 >= 180.0) {
        box[0] = (bp_box){x0, y0, 180.0, y1};
        box[1] = (bp_box){-180.0, y0, x1 - 360.0, y1};
        return 2;
    }
    box[0] = (bp_box){x0, y0, x1, y1};
    return 1;
}

/* A match: a place index and its distance (as geoloc_match). */
typedef struct bp_match {
    size_t index;
    double distance;
} bp_match;

/* Nearest first, ties in index order (the library's order). */
static inline int bp_match_cmp(const void *pa, const void *pb)
{
    const bp_match *a = pa, *b = pb;
    if (a->distance < b->distance)
        return -1;
    if (a->distance > b->distance)
        return 1;
    return (a->index > b->index) - (a->index < b->index);
}

static inline int bp_match_less(const bp_match *a, const bp_match *b)
{
    return a->distance < b->distance || (a->distance == b->distance && a->index < b->index);
}

/* Sorts matches nearest first, ties by index: quicksort (median of three) with insertion sort
 * for short runs, the comparison inlined (qsort's indirect calls cost more than the search). */
static inline void bp_sort_matches(bp_match *m, size_t n)
{
    while (n > 16) {
        size_t mid = n / 2;
        bp_match t;
        if (bp_match_less(&m[mid], &m[0])) { t = m[mid]; m[mid] = m[0]; m[0] = t; }
        if (bp_match_less(&m[n - 1], &m[0])) { t = m[n - 1]; m[n - 1] = m[0]; m[0] = t; }
        if (bp_match_less(&m[n - 1], &m[mid])) { t = m[n - 1]; m[n - 1] = m[mid]; m[mid] = t; }
        bp_match pivot = m[mid];
        size_t i = 0, j = n - 1;
        for (;;) {
            while (bp_match_less(&m[i], &pivot))
                i++;
            while (bp_match_less(&pivot, &m[j]))
                j--;
            if (i >= j)
                break;
            t = m[i]; m[i] = m[j]; m[j] = t;
            i++;
            j--;
        }
        /* m[0..j] <= pivot <= m[j+1..n): recurse into the smaller part, loop on the larger. */
        size_t left = j + 1;
        if (left < n - left) {
            bp_sort_matches(m, left);
            m += left;
            n -= left;
        } else {
            bp_sort_matches(m + left, n - left);
            n = left;
        }
    }
    for (size_t i = 1; i < n; i++) {
        bp_match x = m[i];
        size_t p = i;
        while (p > 0 && bp_match_less(&x, &m[p - 1])) {
            m[p] = m[p - 1];
            p--;
        }
        m[p] = x;
    }
}

/* Keeps the k smallest of m[0..n) (k <= n), sorted, in m[0..k). */
static inline void bp_select_k(bp_match *m, size_t n, size_t k)
{
    if (k == 0)
        return;
    bp_sort_matches(m, k);
    for (size_t i = k; i < n; i++) {
        if (!bp_match_less(&m[i], &m[k - 1]))
            continue;
        bp_match x = m[i];
        size_t p = k - 1;
        while (p > 0 && bp_match_less(&x, &m[p - 1])) {
            m[p] = m[p - 1];
            p--;
        }
        m[p] = x;
    }
}

/*
 * Brute-force reference from the distances d[0..n) of every place: the places at distance
 * <= rmax, or the k nearest if fewer than k are, sorted nearest first (ties by index). Enough to
 * answer any within(r <= rmax) and any nearest(k' <= k). out must hold n entries.
 */
static inline size_t bp_brute_select(const double *d, size_t n, double rmax, size_t k, bp_match *out)
{
    size_t m = 0;
    for (size_t j = 0; j < n; j++)
        if (d[j] <= rmax)
            out[m++] = (bp_match){j, d[j]};
    if (m < k) {
        /* Fewer than k within rmax: the k nearest by insertion (they include all of those). */
        m = 0;
        for (size_t j = 0; j < n; j++) {
            bp_match x = {j, d[j]};
            if (m == k && bp_match_cmp(&x, &out[k - 1]) >= 0)
                continue;
            size_t p = m < k ? m++ : k - 1;
            while (p > 0 && bp_match_cmp(&x, &out[p - 1]) < 0) {
                out[p] = out[p - 1];
                p--;
            }
            out[p] = x;
        }
        return m;
    }
    bp_sort_matches(out, m);
    return m;
}

static inline size_t bp_parse_count(const char *s, const char *what)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (*s == '\0' || *end != '\0') {
        fprintf(stderr, "%s must be a whole number, not \"%s\"\n", what, s);
        exit(2);
    }
    return (size_t)v;
}

/* Time budget of one row: timed passes stop once they add up to more than this many seconds
 * (at least one is timed), and a warm-up pass longer than this counts as the one timed pass. */
#define BP_ROW_BUDGET_S 8.0

/* Queries per second from the best of `reps` timed passes (after one warm-up pass), within the
 * row's time budget (BP_ROW_BUDGET_S). */
#define BP_BEST_QPS(nq, reps, pass_expr, best_out)                                                \
    do {                                                                                           \
        double bp_t0_ = bp_now();                                                                  \
        (void)(pass_expr);                                                                         \
        double bp_best_ = bp_now() - bp_t0_;                                                       \
        if (bp_best_ <= BP_ROW_BUDGET_S) {                                                         \
            double bp_spent_ = 0;                                                                  \
            bp_best_ = INFINITY;                                                                   \
            for (int bp_r_ = 0; bp_r_ < (reps) && bp_spent_ <= BP_ROW_BUDGET_S; bp_r_++) {         \
                bp_t0_ = bp_now();                                                                 \
                (void)(pass_expr);                                                                 \
                double bp_t_ = bp_now() - bp_t0_;                                                  \
                bp_spent_ += bp_t_;                                                                \
                if (bp_t_ < bp_best_)                                                              \
                    bp_best_ = bp_t_;                                                              \
            }                                                                                      \
        }                                                                                          \
        (best_out) = (double)(nq) / bp_best_;                                                      \
    } while (0)

#endif
