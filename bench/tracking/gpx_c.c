/*
 * gpx_c.c -- the C door's side of the GPX reading bench (bench/tracking/gpx): loads one track
 * file with geoloc_track_load_gpx or geoloc_track_load_geojson and prints, on one line, the
 * seconds the load took, the points read, the process's peak resident memory before and after
 * the load (bytes), and the CPU seconds it took. A fresh process per measurement, so the peak is the load's own.
 *   gpx_c gpx|geojson FILE
 */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

#include "geoloc.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The process's peak resident memory (VmHWM: its own, unlike ru_maxrss, which a child started
 * by a larger parent inherits across exec). */
static long peak(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0) kb = atol(line + 6);
    if (f) fclose(f);
    return kb * 1024L;
}

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: gpx_c gpx|geojson FILE\n");
        return 2;
    }
    geoloc_track *t = NULL;
    long before = peak();
    double c0 = cpu(), t0 = now();
    geoloc_status s = strcmp(argv[1], "gpx") == 0 ? geoloc_track_load_gpx(argv[2], NULL, &t)
                                                  : geoloc_track_load_geojson(argv[2], NULL, &t);
    double t1 = now(), c1 = cpu();
    long after = peak();
    if (s != GEOLOC_OK) {
        fprintf(stderr, "%s: %s\n", argv[2], geoloc_last_error());
        return 1;
    }
    size_t n = 0;
    geoloc_track_fixes(t, NULL, 0, &n);
    printf("%.6f %zu %ld %ld %.6f\n", t1 - t0, n, before, after, c1 - c0);
    geoloc_track_destroy(t);
    return 0;
}
