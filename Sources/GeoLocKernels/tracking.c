/*
 * tracking.c -- Tracking's kernels: the farthest-point scan of libgeoloc's spherical Douglas-Peucker
 * (Sources/GeoLoc/Tracking/Track.swift, `farthest`) and its recursion for AVX2 with FMA (4 lanes),
 * used when the CPU has it. The Swift code is the baseline and has the derivation; this is the
 * same arithmetic on the same doubles, wider (FMA may round a product-sum differently, which can
 * only matter for a point exactly at the tolerance). No AVX-512 instance: the scan is bound by
 * memory more than by arithmetic, and an instance this machine cannot run would go untested.
 */
#include "GeoLocKernels.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include <stdlib.h>
#include <string.h>

#include "kernel_defs.h"

#define KSUF(name) name##_avx2
#define KTARGET __attribute__((target("avx2,fma")))
#define KW 4
#include "tracking_impl.h"

int glk_dp_farthest(const double *xs, const double *ys, const double *zs, size_t a, size_t b,
                    const double *frame, double *best, size_t *at, int level)
{
    int have = glk_level_supported();
    if (level > have) level = have;
    if (level >= GLK_LEVEL_AVX2_FMA) {
        glk_dp_farthest_avx2(xs, ys, zs, a, b, frame, best, at);
        return 1;
    }
    return 0;
}

long glk_dp_simplify(const double *xs, const double *ys, const double *zs, size_t n, double g_tol,
                     unsigned char *keep, int level)
{
    int have = glk_level_supported();
    if (level > have) level = have;
    if (level < GLK_LEVEL_AVX2_FMA || n < 3) return -1;
    size_t *stack = malloc(2 * n * sizeof *stack);
    if (stack == NULL) return -1;
    size_t kept = glk_dp_run_avx2(xs, ys, zs, n, g_tol, keep, stack);
    free(stack);
    return (long)kept;
}

#else

long glk_dp_simplify(const double *xs, const double *ys, const double *zs, size_t n, double g_tol,
                     unsigned char *keep, int level)
{
    (void)xs; (void)ys; (void)zs; (void)n; (void)g_tol; (void)keep; (void)level;
    return -1;
}

int glk_dp_farthest(const double *xs, const double *ys, const double *zs, size_t a, size_t b,
                    const double *frame, double *best, size_t *at, int level)
{
    (void)xs; (void)ys; (void)zs; (void)a; (void)b; (void)frame; (void)best; (void)at; (void)level;
    return 0;
}

#endif
