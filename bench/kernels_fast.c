/* The same C haversine loops compiled with -O3 -march=native -ffast-math (see kernels_impl.h):
 * what a C programmer gets by turning every optimisation on, including vectorised libm calls
 * (glibc's libmvec) and the reassociation that -ffast-math allows. */
#define BENCH_KERNEL(name) name##_fast
#include "kernels_impl.h"
