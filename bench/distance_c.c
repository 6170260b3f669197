/*
 * distance_c.c -- the C side of the distance benchmark: nanoseconds per pair of points for
 * libgeoloc's three distance entry points (the scalar call per pair; the two batch calls, which
 * run the library's SIMD kernel) and for a plain C haversine loop at two optimisation levels, on
 * the same n random pairs; plus the textbook variant of the formula (no antipode branch) at the
 * higher level, where gcc vectorises it with glibc's vector math: the reference the batch calls
 * are measured against.
 *
 *   usage: distance_c [N [REPS]]      (defaults: N = 1000000, REPS = 5)
 *
 * Output, one line per row, tab-separated (lines starting with '#' are comments):
 *   name  ns_per_pair  max_rel_diff  n
 * ns_per_pair is the best of REPS timed runs (CLOCK_MONOTONIC) divided by n. max_rel_diff is
 * max |d - ref| / max(ref, 1 m) over the n results, where ref is the plain -O2 C loop on the
 * same input (for one-to-many, the plain -O2 one-to-many loop): the library's scalar formula with
 * libm, bit for bit what geoloc_distance returns.
 *
 * Points are uniform on the sphere, from a fixed seed (splitmix64 counter stream, the same
 * stream distance_py.py uses, so both halves of the benchmark measure the same pairs).
 */
#define _POSIX_C_SOURCE 199309L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "geoloc.h"
#include "kernels.h"

#define BENCH_SEED UINT64_C(0x67656f6c6f63) /* "geoloc" */

/* The i-th value (i >= 0) of the splitmix64 stream seeded with `seed`. */
static uint64_t splitmix64_at(uint64_t seed, uint64_t i)
{
    uint64_t z = seed + (i + 1) * UINT64_C(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Uniform in [0, 1) with 53 random bits. */
static double uniform_at(uint64_t i)
{
    return (double)(splitmix64_at(BENCH_SEED, i) >> 11) * 0x1.0p-53;
}

/* Pair k takes stream values 4k..4k+3: a.lat, a.lon, b.lat, b.lon. A latitude of
 * asin(2u - 1) makes the points uniform over the sphere's area, not over the lat/lon grid. */
static void make_points(size_t n, geoloc_coord *a, geoloc_coord *b)
{
    const double r2d = 180.0 / 3.14159265358979323846;
    for (size_t k = 0; k < n; k++) {
        uint64_t s = 4 * (uint64_t)k;
        a[k].lat = asin(2.0 * uniform_at(s) - 1.0) * r2d;
        a[k].lon = 360.0 * uniform_at(s + 1) - 180.0;
        b[k].lat = asin(2.0 * uniform_at(s + 2) - 1.0) * r2d;
        b[k].lon = 360.0 * uniform_at(s + 3) - 180.0;
    }
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void die(const char *what, geoloc_status st)
{
    fprintf(stderr, "distance_c: %s failed: %s (%s)\n", what, geoloc_status_string(st),
            geoloc_last_error());
    exit(1);
}

/* The inputs and a name for what is being timed; run() dispatches on `which`. */
enum which {
    ROW_SCALAR,
    ROW_PAIRS,
    ROW_ONE_TO_MANY,
    ROW_PLAIN,
    ROW_FAST,
    ROW_TEXTBOOK_FAST,
};

struct input {
    const geoloc_coord *a, *b;
    size_t n;
};

static void run(enum which w, const struct input *in, double *out)
{
    const geoloc_coord *a = in->a, *b = in->b;
    size_t n = in->n;
    geoloc_status st;
    switch (w) {
    case ROW_SCALAR: {
        int bad = 0;
        for (size_t i = 0; i < n; i++)
            bad |= geoloc_distance(a[i], b[i], GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &out[i]);
        if (bad) {
            /* Find and report the failing call outside the timed loop's hot path. */
            for (size_t i = 0; i < n; i++) {
                st = geoloc_distance(a[i], b[i], GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &out[i]);
                if (st != GEOLOC_OK)
                    die("geoloc_distance", st);
            }
        }
        break;
    }
    case ROW_PAIRS:
        st = geoloc_distance_pairs(a, b, n, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, out);
        if (st != GEOLOC_OK)
            die("geoloc_distance_pairs", st);
        break;
    case ROW_ONE_TO_MANY:
        st = geoloc_distance_one_to_many(a[0], b, n, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, out);
        if (st != GEOLOC_OK)
            die("geoloc_distance_one_to_many", st);
        break;
    case ROW_PLAIN:
        bench_haversine_pairs_plain((const double *)a, (const double *)b, n, out);
        break;
    case ROW_FAST:
        bench_haversine_pairs_fast((const double *)a, (const double *)b, n, out);
        break;
    case ROW_TEXTBOOK_FAST:
        bench_haversine_pairs_textbook_fast((const double *)a, (const double *)b, n, out);
        break;
    }
}

/* Best of `reps` timed runs (after one untimed warm-up run), in ns per pair. */
static double time_row(enum which w, const struct input *in, double *out, int reps)
{
    run(w, in, out);
    double best = INFINITY;
    for (int r = 0; r < reps; r++) {
        double t0 = now_ns();
        run(w, in, out);
        double t = now_ns() - t0;
        if (t < best)
            best = t;
    }
    return best / (double)in->n;
}

static double max_rel_diff(const double *x, const double *ref, size_t n)
{
    double worst = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs(x[i] - ref[i]) / fmax(fabs(ref[i]), 1.0);
        if (!(d <= worst)) /* also catches NaN */
            worst = d;
    }
    return worst;
}

static size_t parse_count(const char *s, const char *what)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v == 0 || v > (unsigned long long)GEOLOC_MAX_COUNT) {
        fprintf(stderr, "distance_c: %s must be a whole number from 1 to %zu, not \"%s\"\n", what,
                (size_t)GEOLOC_MAX_COUNT, s);
        exit(2);
    }
    return (size_t)v;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? parse_count(argv[1], "N") : 1000000;
    int reps = argc > 2 ? (int)parse_count(argv[2], "REPS") : 5;
    if (argc > 3) {
        fprintf(stderr, "usage: distance_c [N [REPS]]\n");
        return 2;
    }

    geoloc_coord *a = malloc(n * sizeof *a);
    geoloc_coord *b = malloc(n * sizeof *b);
    double *ref = malloc(n * sizeof *ref);
    double *ref_otm = malloc(n * sizeof *ref_otm);
    double *out = malloc(n * sizeof *out);
    if (!a || !b || !ref || !ref_otm || !out) {
        fprintf(stderr, "distance_c: out of memory for n = %zu\n", n);
        return 1;
    }
    make_points(n, a, b);
    memset(out, 0, n * sizeof *out); /* fault the pages in before any timing */

    /* References: the plain -O2 loops, untimed. */
    bench_haversine_pairs_plain((const double *)a, (const double *)b, n, ref);
    bench_haversine_one_to_many_plain((const double *)&a[0], (const double *)b, n, ref_otm);

    printf("# libgeoloc %s (header %s)\n", geoloc_version(), GEOLOC_VERSION_STRING);
    printf("# n %zu reps %d\n", n, reps);

    static const struct {
        enum which w;
        const char *name;
    } rows[] = {
        {ROW_SCALAR, "c.geoloc_distance"},
        {ROW_PAIRS, "c.geoloc_distance_pairs"},
        {ROW_ONE_TO_MANY, "c.geoloc_distance_one_to_many"},
        {ROW_PLAIN, "c.haversine_O2"},
        {ROW_FAST, "c.haversine_O3_native_fastmath"},
        {ROW_TEXTBOOK_FAST, "c.textbook_O3_native_fastmath"},
    };
    struct input in = {a, b, n};
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        double ns = time_row(rows[r].w, &in, out, reps);
        double diff = max_rel_diff(out, rows[r].w == ROW_ONE_TO_MANY ? ref_otm : ref, n);
        printf("%s\t%.3f\t%.3e\t%zu\n", rows[r].name, ns, diff, n);
        fflush(stdout);
    }

    free(a);
    free(b);
    free(ref);
    free(ref_otm);
    free(out);
    return 0;
}
