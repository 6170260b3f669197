/*
 * tracking_c.c -- fixes per second through the C door: the fix filter, and geofence monitoring
 * against circular regions, for the fix stream and region sets that bench.py wrote; and the
 * spherical Douglas-Peucker and stay points of the same track.
 *
 * Inputs in DIR (written by bench.py, the same ones its Python rows use): fixes.bin (N x 7
 * doubles, geoloc_fix), regions_<name>.bin (k x 3 doubles: lat, lon, radius_m) for each SET.
 * Prints one TSV row per measurement: name, n, seconds (best of REPEAT), per second, note.
 *   tracking_c DIR N TOLERANCE_M STAY_M STAY_S SET...
 */
#include <geoloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define REPEAT 3

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what)
{
    fprintf(stderr, "tracking_c: %s: %s\n", what, geoloc_last_error());
    exit(1);
}

static void *slurp(const char *dir, const char *name, size_t bytes)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "rb");
    if (!fp) { perror(path); exit(1); }
    void *p = malloc(bytes ? bytes : 1);
    if (fread(p, 1, bytes, fp) != bytes) { fprintf(stderr, "%s: short\n", path); exit(1); }
    fclose(fp);
    return p;
}

int main(int argc, char **argv)
{
    if (argc < 6) { fprintf(stderr, "usage: tracking_c DIR N TOLERANCE_M STAY_M STAY_S SET...\n"); return 2; }
    const char *dir = argv[1];
    size_t n = (size_t)atol(argv[2]);
    double tol = atof(argv[3]), stay_m = atof(argv[4]), stay_s = atof(argv[5]);
    geoloc_fix *fixes = slurp(dir, "fixes.bin", n * sizeof *fixes);
    geoloc_fix_decision *dec = malloc(n * sizeof *dec);

    geoloc_filter_options fo;
    geoloc_filter_options_preset(GEOLOC_ACTIVITY_AUTOMOTIVE_NAVIGATION, &fo);
    double best = INFINITY;
    size_t kept_fixes = 0;
    for (int r = 0; r < REPEAT; r++) {
        geoloc_fix_filter *f;
        if (geoloc_fix_filter_create(&fo, &f) != GEOLOC_OK) die("filter");
        double t0 = now();
        if (geoloc_fix_filter_run(f, fixes, n, dec) != GEOLOC_OK) die("filter run");
        double t = now() - t0;
        if (t < best) best = t;
        geoloc_fix_filter_destroy(f);
    }
    for (size_t i = 0; i < n; i++) kept_fixes += dec[i].verdict == GEOLOC_FIX_KEPT;
    printf("filter\t%zu\t%.6f\t%.0f\tkept=%zu\n", n, best, n / best, kept_fixes);

    size_t cap = 4 * n + 1024;
    geoloc_geofence_event *ev = malloc(cap * sizeof *ev);
    for (int c = 6; c < argc; c++) {
        char name[256], path[2048];
        snprintf(name, sizeof name, "regions_%s.bin", argv[c]);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        FILE *probe = fopen(path, "rb");
        if (!probe) { perror(path); return 1; }
        fseek(probe, 0, SEEK_END);
        size_t k = (size_t)ftell(probe) / (3 * sizeof(double));
        fclose(probe);
        double *raw = slurp(dir, name, k * 3 * sizeof(double));
        geoloc_circle_fence *cf = malloc(k * sizeof *cf);
        for (size_t i = 0; i < k; i++) {
            cf[i].id = NULL;
            cf[i].center.lat = raw[3 * i];
            cf[i].center.lon = raw[3 * i + 1];
            cf[i].radius_m = raw[3 * i + 2];
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
        printf("monitor_%s\t%zu\t%.6f\t%.0f\tevents=%zu index=%.3fs\n", argv[c], n, best, n / best, events, tb);
        geoloc_geofences_destroy(fs);
        free(cf);
        free(raw);
    }

    geoloc_coord *pts = malloc(n * sizeof *pts);
    size_t *kept = malloc(n * sizeof *kept);
    for (size_t i = 0; i < n; i++) { pts[i].lat = fixes[i].lat; pts[i].lon = fixes[i].lon; }
    best = INFINITY;
    size_t kc = 0;
    for (int r = 0; r < REPEAT; r++) {
        double t0 = now();
        if (geoloc_track_simplify(pts, n, tol, kept, &kc) != GEOLOC_OK) die("simplify");
        double t = now() - t0;
        if (t < best) best = t;
    }
    printf("simplify\t%zu\t%.6f\t%.0f\tkept=%zu\n", n, best, n / best, kc);

    best = INFINITY;
    size_t stays = 0;
    geoloc_stay_point *sp = malloc(n / 2 * sizeof *sp + sizeof *sp);
    for (int r = 0; r < REPEAT; r++) {
        double t0 = now();
        if (geoloc_track_stay_points(fixes, n, stay_m, stay_s, sp, n / 2 + 1, &stays) != GEOLOC_OK) die("stay points");
        double t = now() - t0;
        if (t < best) best = t;
    }
    printf("stay_points\t%zu\t%.6f\t%.0f\tstays=%zu\n", n, best, n / best, stays);
    return 0;
}
