/*
 * time_c.c -- the C door's side of bench/time: the zone at a point on a time-zone map.
 *
 *   time_c MAP POINTS.f64 OUT.u16
 *
 * POINTS.f64 holds n (lat, lon) pairs of doubles. Prints, one "key value" per line: the time to
 * open the map (first open in this process), ns per geoloc_timezone_at over the points (best of
 * 5 passes), ns per point of geoloc_timezone_at_many (best of 5), and writes the zone numbers.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "geoloc.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    FILE *f;
    long size;
    size_t n, i;
    geoloc_coord *pts;
    uint16_t *zones, *many;
    geoloc_timezones *tz = NULL;
    double t0, best_one = 1e9, best_many = 1e9;
    int pass;
    unsigned sum = 0;

    if (argc != 4) {
        fprintf(stderr, "usage: time_c MAP POINTS.f64 OUT.u16\n");
        return 2;
    }
    f = fopen(argv[2], "rb");
    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0) return 2;
    rewind(f);
    n = (size_t)size / sizeof(geoloc_coord);
    pts = malloc(n * sizeof *pts);
    zones = malloc(n * sizeof *zones);
    many = malloc(n * sizeof *many);
    if (pts == NULL || zones == NULL || many == NULL || fread(pts, sizeof *pts, n, f) != n) return 2;
    fclose(f);

    t0 = now();
    if (geoloc_timezones_open(argv[1], &tz) != GEOLOC_OK) {
        fprintf(stderr, "open: %s\n", geoloc_last_error());
        return 1;
    }
    printf("open_ms %.3f\n", 1e3 * (now() - t0));

    for (pass = 0; pass < 5; pass++) {
        double t = now();
        for (i = 0; i < n; i++) {
            geoloc_timezone z;
            if (geoloc_timezone_at(tz, pts[i], &z) != GEOLOC_OK) {
                fprintf(stderr, "point %zu: %s\n", i, geoloc_last_error());
                return 1;
            }
            zones[i] = z.zone;
            sum += z.zone;
        }
        t = now() - t;
        if (t < best_one) best_one = t;
    }
    for (pass = 0; pass < 5; pass++) {
        double t = now();
        if (geoloc_timezone_at_many(tz, pts, n, many) != GEOLOC_OK) return 1;
        t = now() - t;
        if (t < best_many) best_many = t;
    }
    for (i = 0; i < n; i++) {
        if (many[i] != zones[i]) {
            fprintf(stderr, "point %zu: the batch says %u, one point %u\n", i, many[i], zones[i]);
            return 1;
        }
    }
    printf("ns_per_call %.1f\n", 1e9 * best_one / (double)n);
    printf("ns_per_point_many %.1f\n", 1e9 * best_many / (double)n);
    printf("checksum %u\n", sum);
    f = fopen(argv[3], "wb");
    if (f == NULL || fwrite(zones, sizeof *zones, n, f) != n) return 2;
    fclose(f);
    geoloc_timezones_destroy(tz);
    return 0;
}
