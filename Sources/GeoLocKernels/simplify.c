/*
 * simplify.c -- the farthest-point scan of libgeoloc's spherical Douglas-Peucker
 * (Sources/GeoLoc/Tracking/Track.swift, `farthest`) for AVX2 with FMA (4 lanes) and AVX-512F
 * (8 lanes), chosen at run time as the batch haversine is. The Swift code is the baseline and
 * has the derivation; this is the same arithmetic on the same doubles, wider.
 */
#include "GeoLocKernels.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include <string.h>

#define GLK_INLINE static inline __attribute__((always_inline))

#define KSUF(name) name##_avx2
#define KTARGET __attribute__((target("avx2,fma")))
#define KW 4
#include "simplify_impl.h"
#undef KSUF
#undef KTARGET
#undef KW
#undef KV
#undef KM

#define KSUF(name) name##_avx512
#define KTARGET __attribute__((target("avx512f")))
#define KW 8
#include "simplify_impl.h"

int glk_dp_farthest(const double *xs, const double *ys, const double *zs, size_t a, size_t b,
                    const double *frame, double *best, size_t *at, int level)
{
    int have = glk_level_supported();
    if (level > have) level = have;
    if (level >= GLK_LEVEL_AVX512) {
        glk_dp_farthest_avx512(xs, ys, zs, a, b, frame, best, at);
        return 1;
    }
    if (level >= GLK_LEVEL_AVX2_FMA) {
        glk_dp_farthest_avx2(xs, ys, zs, a, b, frame, best, at);
        return 1;
    }
    return 0;
}

#else

int glk_dp_farthest(const double *xs, const double *ys, const double *zs, size_t a, size_t b,
                    const double *frame, double *best, size_t *at, int level)
{
    (void)xs; (void)ys; (void)zs; (void)a; (void)b; (void)frame; (void)best; (void)at; (void)level;
    return 0;
}

#endif
