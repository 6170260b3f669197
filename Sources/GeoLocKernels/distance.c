/*
 * distance.c -- Distance's kernels: the batch haversine of GeoLocKernels.h, distance_impl.h instantiated
 * for AVX2 with FMA (4 lanes) and for AVX-512F (8 lanes), and the choice between them at run
 * time (glk_level_supported, core.c).
 *
 * The baseline (SSE2 on x86-64, every other target) is Swift SIMD code in
 * Sources/GeoLoc/Distance/HaversineKernel.swift: Swift compiles a module for one instruction set only, so
 * the instances above the baseline live here, where a function can carry its own target. On
 * targets other than x86-64 this file only reports level 0.
 */
#include "GeoLocKernels.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include <immintrin.h>
#include <math.h>
#include <string.h>

#include "kernel_defs.h"

/* Vectors per step of the main loops. */
#define GLK_UNROLL 2

/* normalizedLongitude (Sources/GeoLoc/Core/Coordinate.swift) for the rare longitude outside
 * [-180, 180): the same libm remainder, so the same double. */
static double glk_normalized_longitude(double lon)
{
    if (lon >= -180.0 && lon < 180.0)
        return lon;
    double r = remainder(lon, 360.0); /* exact, in [-180, 180] */
    if (r >= 180.0)
        r -= 360.0;
    return r;
}

/* ---- AVX2 + FMA: 4 lanes ----------------------------------------------------------------- */
#define KSUF(name) name##_avx2
#define KTARGET __attribute__((target("avx2,fma")))
#define KW 4
#define KU GLK_UNROLL
#define KSQRT(v) ((KV)_mm256_sqrt_pd((__m256d)(v)))
/* In-lane unpacking leaves the points in lane order 0, 2, 1, 3; KJOIN swaps the middle two back. */
#define KSPLIT(p, la, lo)                                                                         \
    do {                                                                                          \
        __m256d p0_ = _mm256_loadu_pd(p), p1_ = _mm256_loadu_pd((p) + 4);                         \
        (la) = (KV)_mm256_unpacklo_pd(p0_, p1_);                                                  \
        (lo) = (KV)_mm256_unpackhi_pd(p0_, p1_);                                                  \
    } while (0)
#define KJOIN(d) ((KV)_mm256_permute4x64_pd((__m256d)(d), 0xD8))
#define KALL(m) (_mm256_movemask_pd((__m256d)(m)) == 0xF)
#include "distance_impl.h"

/* ---- AVX-512F: 8 lanes ------------------------------------------------------------------- */
#define KSUF(name) name##_avx512
#define KTARGET __attribute__((target("avx512f")))
#define KW 8
#define KU GLK_UNROLL
#define KSQRT(v) ((KV)_mm512_sqrt_pd((__m512d)(v)))
#define KSPLIT(p, la, lo)                                                                         \
    do {                                                                                          \
        __m512d p0_ = _mm512_loadu_pd(p), p1_ = _mm512_loadu_pd((p) + 8);                         \
        (la) = (KV)_mm512_permutex2var_pd(p0_, _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0), p1_); \
        (lo) = (KV)_mm512_permutex2var_pd(p0_, _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1), p1_); \
    } while (0)
#define KJOIN(d) (d)
#define KALL(m) (_mm512_test_epi64_mask((__m512i)(m), (__m512i)(m)) == 0xFF)
#include "distance_impl.h"

int glk_haversine_pairs(const double *a, const double *b, size_t n, double radius, double *out,
                        int level)
{
    int have = glk_level_supported();
    if (level > have)
        level = have;
    switch (level) {
    case GLK_LEVEL_AVX512:
        pairs_avx512(a, b, n, radius, out);
        return 1;
    case GLK_LEVEL_AVX2_FMA:
        pairs_avx2(a, b, n, radius, out);
        return 1;
    default:
        return 0;
    }
}

int glk_haversine_one_to_many(double lat0, double lon0, double cos_lat0, const double *points,
                              size_t n, double radius, double *out, int level)
{
    int have = glk_level_supported();
    if (level > have)
        level = have;
    switch (level) {
    case GLK_LEVEL_AVX512:
        one_to_many_avx512(lat0, lon0, cos_lat0, points, n, radius, out);
        return 1;
    case GLK_LEVEL_AVX2_FMA:
        one_to_many_avx2(lat0, lon0, cos_lat0, points, n, radius, out);
        return 1;
    default:
        return 0;
    }
}

#else /* not x86-64: the Swift baseline only */

int glk_haversine_pairs(const double *a, const double *b, size_t n, double radius, double *out,
                        int level)
{
    (void)a, (void)b, (void)n, (void)radius, (void)out, (void)level;
    return 0;
}

int glk_haversine_one_to_many(double lat0, double lon0, double cos_lat0, const double *points,
                              size_t n, double radius, double *out, int level)
{
    (void)lat0, (void)lon0, (void)cos_lat0, (void)points, (void)n, (void)radius, (void)out;
    (void)level;
    return 0;
}

#endif
