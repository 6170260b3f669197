/*
 * kernels_impl.h -- the body of the benchmark's C haversine loops, included by kernels_plain.c
 * and kernels_fast.c with BENCH_KERNEL(name) defined to give the functions their suffix.
 *
 * The formula is the library's, operation for operation (haversineDistance in
 * Sources/GeoLoc/Distance/Distance.swift): the haversine formula in its atan2 form,
 *   d = 2 R atan2(sqrt(h), sqrt(1 - h)),  R = 6371008.8 m,
 *   h = sin²(Δφ/2) + cos φ1 cos φ2 sin²(Δλ/2), with the differences taken in degrees first,
 * where for h > 1/2 (points more than a quarter turn apart) 1 - h is not taken by subtraction
 * but as cos²(Δφ/2) cos²(Δλ/2) + sin²(Σφ/2) sin²(Δλ/2), which keeps full precision near the
 * antipode.
 */
#ifndef BENCH_KERNEL
#error "define BENCH_KERNEL(name) before including kernels_impl.h"
#endif

#include <math.h>
#include <stddef.h>

#include "kernels.h"

#define BENCH_EARTH_RADIUS_M 6371008.8
#define BENCH_PI 3.14159265358979323846

static inline double BENCH_KERNEL(haversine)(double lat1, double lon1, double lat2, double lon2)
{
    const double half_d2r = BENCH_PI / 360.0;
    double hdp = (lat2 - lat1) * half_d2r;
    double hdl = (lon2 - lon1) * half_d2r;
    double sdp = sin(hdp);
    double sdl = sin(hdl);
    double h = sdp * sdp + cos(lat1 * (2.0 * half_d2r)) * cos(lat2 * (2.0 * half_d2r)) * sdl * sdl;
    double c; /* 1 - h */
    if (h <= 0.5) {
        c = 1.0 - h;
    } else {
        double cdp = cos(hdp);
        double cdl = cos(hdl);
        double ssp = sin((lat1 + lat2) * half_d2r);
        c = cdp * cdp * cdl * cdl + ssp * ssp * sdl * sdl;
    }
    if (c < 0.0)
        c = 0.0;
    return 2.0 * BENCH_EARTH_RADIUS_M * atan2(sqrt(h > 0.0 ? h : 0.0), sqrt(c));
}

/* The textbook variant: the same formula without the antipode branch, 1 - h always taken by
 * subtraction (which loses up to about 13 cm for nearly antipodal points). Not the library's
 * formula: it is here to show what vectorisation gives, since gcc vectorises this loop under
 * -O3 -march=native -ffast-math but not the library's (the sin and cos of the same half-angle
 * in the branch become one sincos call, which has no vector form). */
static inline double BENCH_KERNEL(haversine_textbook)(double lat1, double lon1, double lat2,
                                                      double lon2)
{
    const double half_d2r = BENCH_PI / 360.0;
    double sdp = sin((lat2 - lat1) * half_d2r);
    double sdl = sin((lon2 - lon1) * half_d2r);
    double h = sdp * sdp + cos(lat1 * (2.0 * half_d2r)) * cos(lat2 * (2.0 * half_d2r)) * sdl * sdl;
    double c = 1.0 - h;
    if (c < 0.0)
        c = 0.0;
    return 2.0 * BENCH_EARTH_RADIUS_M * atan2(sqrt(h > 0.0 ? h : 0.0), sqrt(c));
}

void BENCH_KERNEL(bench_haversine_pairs_textbook)(const double *restrict a,
                                                  const double *restrict b, size_t n,
                                                  double *restrict out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = BENCH_KERNEL(haversine_textbook)(a[2 * i], a[2 * i + 1], b[2 * i], b[2 * i + 1]);
}

void BENCH_KERNEL(bench_haversine_pairs)(const double *restrict a, const double *restrict b,
                                         size_t n, double *restrict out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = BENCH_KERNEL(haversine)(a[2 * i], a[2 * i + 1], b[2 * i], b[2 * i + 1]);
}

void BENCH_KERNEL(bench_haversine_one_to_many)(const double *restrict origin,
                                               const double *restrict points, size_t n,
                                               double *restrict out)
{
    const double lat0 = origin[0], lon0 = origin[1];
    for (size_t i = 0; i < n; i++)
        out[i] = BENCH_KERNEL(haversine)(lat0, lon0, points[2 * i], points[2 * i + 1]);
}
