/*
 * kernel_defs.h -- what every kernel file (distance.c, tracking.c, places.c) defines alike:
 * the inlining attribute and pi's pieces. Included after GeoLocKernels.h, on x86-64 only.
 */
#ifndef GLK_KERNEL_DEFS_H
#define GLK_KERNEL_DEFS_H

#define GLK_INLINE static inline __attribute__((always_inline))

/* pi (Double.pi in the Swift source), pi/2 and pi as a double plus the rounding remainder. */
#define GLK_PI 3.141592653589793
#define GLK_PIO2_HI 1.5707963267948966
#define GLK_PIO2_LO 6.123233995736766e-17
#define GLK_PI_HI 3.141592653589793
#define GLK_PI_LO 1.2246467991473532e-16

#endif
