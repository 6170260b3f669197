/*
 * core.c -- what every capability's kernels share: the instruction-set level this CPU and OS
 * run, chosen once with __builtin_cpu_supports (which also checks that the OS saves the wider
 * registers). On targets other than x86-64 it is always the baseline (the Swift code).
 */
#include "GeoLocKernels.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

int glk_level_supported(void)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return GLK_LEVEL_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return GLK_LEVEL_AVX2_FMA;
    return GLK_LEVEL_BASELINE;
}

#else /* not x86-64: the Swift baseline only */

int glk_level_supported(void)
{
    return GLK_LEVEL_BASELINE;
}

#endif
