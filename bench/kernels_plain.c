/* The plain C haversine loops, compiled with -O2 (see kernels_impl.h). */
#define BENCH_KERNEL(name) name##_plain
#include "kernels_impl.h"
