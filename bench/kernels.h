/*
 * kernels.h -- plain C haversine loops that the distance benchmark compares libgeoloc against.
 *
 * The same source (kernels_impl.h) is compiled twice: kernels_plain.c with -O2 and
 * kernels_fast.c with -O3 -march=native -ffast-math. Each is its own translation unit so the
 * harness (compiled -O2) cannot inline either one and change its flags.
 *
 * Points are interleaved degrees, [lat0, lon0, lat1, lon1, ...]: the layout of an array of
 * geoloc_coord. Distances are in meters on the sphere of radius 6371008.8 m, by the haversine
 * formula in its atan2 form, exactly as libgeoloc computes them (the _textbook loops excepted).
 */
#ifndef GEOLOC_BENCH_KERNELS_H
#define GEOLOC_BENCH_KERNELS_H

#include <stddef.h>

/* out[i] = distance(a[i], b[i]) for i < n. */
void bench_haversine_pairs_plain(const double *a, const double *b, size_t n, double *out);
void bench_haversine_pairs_fast(const double *a, const double *b, size_t n, double *out);

/* The same without the library's antipode branch (see kernels_impl.h): out[i] as above. */
void bench_haversine_pairs_textbook_plain(const double *a, const double *b, size_t n,
                                          double *out);
void bench_haversine_pairs_textbook_fast(const double *a, const double *b, size_t n, double *out);

/* out[i] = distance(origin, points[i]) for i < n; origin is {lat, lon}. */
void bench_haversine_one_to_many_plain(const double *origin, const double *points, size_t n,
                                       double *out);
void bench_haversine_one_to_many_fast(const double *origin, const double *points, size_t n,
                                      double *out);

#endif
