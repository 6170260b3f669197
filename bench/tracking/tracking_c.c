/*
 * tracking_c.c -- fixes per second through the C door: the fix filter, and geofence monitoring
 * against 10, 1,000 and 100,000 circular regions (radius 50-500 m, spread over a 100 x 100 km
 * metro area) for a 1,000,000-fix random walk through the same area; and the spherical
 * Douglas-Peucker of a 1,000,000-point track, and stay points over 1,000,000 fixes.
 * Prints one TSV row per measurement: name, n, seconds (best of REPEAT), rate.
 *   tracking_c [FIXES]
 */
#include <geoloc.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define PI 3.14159265358979323846
#define M_PER_DEG (6371008.8 * PI / 180.0)
#define REPEAT 3

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static const double LAT0 = 41.88, LON0 = -87.63;

static void offset(double dx, double dy, double *lat, double *lon)
{
    *lat = LAT0 + dy / M_PER_DEG;
    *lon = LON0 + dx / (M_PER_DEG * cos(LAT0 * PI / 180));
}

static void die(const char *what)
{
    fprintf(stderr, "%s: %s\n", what, geoloc_last_error());
    exit(1);
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : 1000000;
    geoloc_fix *fixes = malloc(n * sizeof *fixes);
    geoloc_fix_decision *dec = malloc(n * sizeof *dec);
    /* A walk at vehicle speed (about 10 m/s, one fix a second) wrapped into the 100 km square. */
    double x = 0, y = 0, h = 0;
    for (size_t i = 0; i < n; i++) {
        h += (uniform() - 0.5) * 0.4;
        x += 10 * cos(h);
        y += 10 * sin(h);
        if (fabs(x) > 50000) x = copysign(100000, x) - x;
        if (fabs(y) > 50000) y = copysign(100000, y) - y;
        offset(x, y, &fixes[i].lat, &fixes[i].lon);
        fixes[i].time = (double)i;
        fixes[i].accuracy_m = 3 + 12 * uniform();
        fixes[i].speed_mps = fixes[i].course_deg = fixes[i].altitude_m = NAN;
    }

    /* The filter. */
    geoloc_filter_options fo;
    geoloc_filter_options_preset(GEOLOC_ACTIVITY_AUTOMOTIVE_NAVIGATION, &fo);
    double best = INFINITY;
    for (int r = 0; r < REPEAT; r++) {
        geoloc_fix_filter *f;
        if (geoloc_fix_filter_create(&fo, &f) != GEOLOC_OK) die("filter");
        double t0 = now();
        if (geoloc_fix_filter_run(f, fixes, n, dec) != GEOLOC_OK) die("filter run");
        double t = now() - t0;
        if (t < best) best = t;
        geoloc_fix_filter_destroy(f);
    }
    printf("filter\t%zu\t%.6f\t%.0f\n", n, best, n / best);

    size_t counts[3] = {10, 1000, 100000};
    size_t cap = 4 * n + 1024;
    geoloc_geofence_event *ev = malloc(cap * sizeof *ev);
    for (int c = 0; c < 3; c++) {
        size_t k = counts[c];
        geoloc_circle_fence *cf = malloc(k * sizeof *cf);
        for (size_t i = 0; i < k; i++) {
            cf[i].id = NULL;
            offset((uniform() - 0.5) * 100000, (uniform() - 0.5) * 100000, &cf[i].center.lat, &cf[i].center.lon);
            cf[i].radius_m = 50 + 450 * uniform();
        }
        geoloc_geofences *fs;
        double tb = now();
        if (geoloc_geofences_create(cf, k, NULL, 0, &fs) != GEOLOC_OK) die("geofences");
        tb = now() - tb;
        best = INFINITY;
        size_t events = 0;
        for (int r = 0; r < REPEAT; r++) {
            geoloc_monitor *m;
            if (geoloc_monitor_create(fs, NULL, &m) != GEOLOC_OK) die("monitor");
            double t0 = now();
            if (geoloc_monitor_run(m, fixes, n, ev, cap, &events) != GEOLOC_OK) die("monitor run");
            double t = now() - t0;
            if (t < best) best = t;
            geoloc_monitor_destroy(m);
        }
        printf("monitor_%zu\t%zu\t%.6f\t%.0f\tevents=%zu build=%.3fs\n", k, n, best, n / best, events, tb);
        geoloc_geofences_destroy(fs);
        free(cf);
    }

    /* Simplification of an n-point track at 5 m, and stay points at 200 m / 20 min. */
    geoloc_coord *pts = malloc(n * sizeof *pts);
    size_t *kept = malloc(n * sizeof *kept);
    for (size_t i = 0; i < n; i++) { pts[i].lat = fixes[i].lat; pts[i].lon = fixes[i].lon; }
    best = INFINITY;
    size_t kc = 0;
    for (int r = 0; r < REPEAT; r++) {
        double t0 = now();
        if (geoloc_track_simplify(pts, n, 5, kept, &kc) != GEOLOC_OK) die("simplify");
        double t = now() - t0;
        if (t < best) best = t;
    }
    printf("simplify\t%zu\t%.6f\t%.0f\tkept=%zu\n", n, best, n / best, kc);
    free(pts);
    free(kept);
    return 0;
}
