/*
 * open_time.c -- the place-file open of bench/places/open: one library, given by path, loaded
 * with dlopen, so that two versions of libgeoloc can be measured side by side.
 *
 *   open_time LIB save FILE N      writes N places (uniform on the sphere, a fixed seed, numbered
 *                                  ids, no names or attributes) with geoloc_places_create and
 *                                  geoloc_places_save: LIB's own format, from the same places
 *   open_time LIB open FILE        times one geoloc_places_open of FILE, the first open of this
 *                                  process; prints its wall-clock ms, the count of places, its
 *                                  CPU ms (user and system, getrusage: coarse) and the wall-clock
 *                                  ms of the geoloc_places_destroy after it
 *   open_time LIB gazetteer FILE   the same for geoloc_gazetteer_open (FILE may be "-": NULL,
 *                                  the shipped gazetteer)
 *
 * One process per timed open: a fresh process pays what a program that opens the file once
 * pays (the library's first-use costs, page faults, the file's pages from the page cache).
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

typedef struct { double lat, lon; } coord;
typedef int (*create_fn)(const coord *, const char *const *, const char *const *, size_t,
                         const char *const *, size_t, const char *const *, void **);
typedef int (*save_fn)(const void *, const char *);
typedef int (*open_fn)(const char *, void **);
typedef void (*destroy_fn)(void *);
typedef int (*count_fn)(const void *, size_t *);
typedef const char *(*text_fn)(void);

static void *need(void *lib, const char *name)
{
    void *f = dlsym(lib, name);
    if (f == NULL) {
        fprintf(stderr, "open_time: %s has no %s\n", "the library", name);
        exit(2);
    }
    return f;
}

/* This process's CPU time (user and system), ms. */
static double cpu_ms(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* splitmix64: the same places on every machine. */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static double unit(uint64_t *s) { return (double)(next(s) >> 11) * 0x1p-53; }

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: open_time LIB save FILE N | open FILE | gazetteer FILE\n");
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        fprintf(stderr, "open_time: %s\n", dlerror());
        return 2;
    }
    text_fn last_error = (text_fn)need(lib, "geoloc_last_error");
    const char *mode = argv[2], *path = argv[3];
    if (strcmp(mode, "save") == 0 && argc == 5) {
        size_t n = (size_t)strtoull(argv[4], NULL, 10);
        coord *c = malloc(n * sizeof *c);
        if (c == NULL) return 2;
        uint64_t s = 20261125;
        for (size_t i = 0; i < n; i++) {
            /* Uniform on the sphere: sin(latitude) uniform in [-1, 1]. */
            c[i].lat = asin(2 * unit(&s) - 1) * (180 / 3.141592653589793);
            c[i].lon = 360 * unit(&s) - 180;
        }
        void *set = NULL;
        int st = ((create_fn)need(lib, "geoloc_places_create"))(c, NULL, NULL, n, NULL, 0, NULL, &set);
        if (st == 0) st = ((save_fn)need(lib, "geoloc_places_save"))(set, path);
        if (st != 0) {
            fprintf(stderr, "open_time: save: %d %s\n", st, last_error());
            return 1;
        }
        ((destroy_fn)need(lib, "geoloc_places_destroy"))(set);
        free(c);
        return 0;
    }
    int gazetteer = strcmp(mode, "gazetteer") == 0;
    if ((strcmp(mode, "open") == 0 || gazetteer) && argc == 4) {
        open_fn open = (open_fn)need(lib, gazetteer ? "geoloc_gazetteer_open" : "geoloc_places_open");
        const char *p = gazetteer && strcmp(path, "-") == 0 ? NULL : path;
        void *set = NULL;
        double c0 = cpu_ms(), t0 = now_ms();
        int st = open(p, &set);
        double t1 = now_ms(), c1 = cpu_ms();
        if (st != 0) {
            fprintf(stderr, "open_time: open: %d %s\n", st, last_error());
            return 1;
        }
        size_t n = 0;
        if (!gazetteer) ((count_fn)need(lib, "geoloc_places_count"))(set, &n);
        double t2 = now_ms();
        ((destroy_fn)need(lib, gazetteer ? "geoloc_gazetteer_destroy" : "geoloc_places_destroy"))(set);
        double t3 = now_ms();
        /* wall ms of the open, places, CPU ms of the open, wall ms of the destroy */
        printf("%.3f %zu %.3f %.3f\n", t1 - t0, n, c1 - c0, t3 - t2);
        return 0;
    }
    fprintf(stderr, "open_time: bad arguments\n");
    return 2;
}
