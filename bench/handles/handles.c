/*
 * handles.c -- the per-call cost of the handle check: the cheapest call on a place set
 * (geoloc_places_count), a region test and a k = 1 nearest query on a 1,000-place set, each
 * timed over many calls; run by bench/handles/run against two builds of libgeoloc (loaded with
 * dlopen) so the table shows them side by side.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "geoloc.h"

typedef geoloc_status (*create_fn)(const geoloc_coord *, const char *const *, const char *const *, size_t,
                                   const char *const *, size_t, const char *const *, geoloc_places **);
typedef geoloc_status (*count_fn)(const geoloc_places *, size_t *);
typedef geoloc_status (*wkt_fn)(const char *, geoloc_region **);
typedef geoloc_status (*contains_fn)(const geoloc_region *, geoloc_coord, bool *);
typedef geoloc_status (*nearest_fn)(const geoloc_places *, geoloc_coord, size_t, geoloc_model, geoloc_unit, double,
                                    geoloc_match *, size_t, size_t *);

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: handles LIBRARY [REPS]\n");
        return 2;
    }
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "%s\n", dlerror());
        return 1;
    }
    create_fn create = (create_fn)dlsym(h, "geoloc_places_create");
    count_fn count = (count_fn)dlsym(h, "geoloc_places_count");
    wkt_fn wkt = (wkt_fn)dlsym(h, "geoloc_region_from_wkt");
    contains_fn contains = (contains_fn)dlsym(h, "geoloc_region_contains");
    nearest_fn nearest = (nearest_fn)dlsym(h, "geoloc_places_nearest");
    enum { N = 1000 };
    geoloc_coord pts[N];
    unsigned s = 1;
    for (int i = 0; i < N; i++) {
        s = s * 1103515245u + 12345u;
        pts[i].lat = (s >> 8) % 1800000 / 10000.0 - 90;
        s = s * 1103515245u + 12345u;
        pts[i].lon = (s >> 8) % 3600000 / 10000.0 - 180;
    }
    geoloc_places *p = NULL;
    geoloc_region *r = NULL;
    if (create(pts, NULL, NULL, N, NULL, 0, NULL, &p) || wkt("POLYGON((0 0,10 0,10 10,0 10,0 0))", &r)) return 1;
    double best[3] = {1e9, 1e9, 1e9};
    const long calls[3] = {20000000, 2000000, 200000};
    size_t n = 0, sink = 0;
    bool in = false;
    geoloc_match m;
    for (int rep = 0; rep < reps; rep++) {
        double t = now();
        for (long i = 0; i < calls[0]; i++) { count(p, &n); sink += n; }
        t = (now() - t) / calls[0] * 1e9;
        if (t < best[0]) best[0] = t;
        t = now();
        for (long i = 0; i < calls[1]; i++) { contains(r, pts[i % N], &in); sink += in; }
        t = (now() - t) / calls[1] * 1e9;
        if (t < best[1]) best[1] = t;
        t = now();
        for (long i = 0; i < calls[2]; i++) {
            nearest(p, pts[(i * 7) % N], 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 1e300, &m, 1, &n);
            sink += m.index;
        }
        t = (now() - t) / calls[2] * 1e9;
        if (t < best[2]) best[2] = t;
    }
    printf("places_count\t%.2f\nregion_contains\t%.2f\nnearest_k1\t%.2f\n", best[0], best[1], best[2]);
    fprintf(stderr, "(%zu)\n", sink);
    return 0;
}
