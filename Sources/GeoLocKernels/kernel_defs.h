/*
 * kernel_defs.h -- what every kernel file (distance.c, tracking.c, places.c) defines alike:
 * the inlining attribute, pi's pieces and the polynomial sine's coefficients. Included after GeoLocKernels.h, on x86-64 only.
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

/* The polynomial sine (Core/VectorMath.swift's sinPoly; derived in Distance/HaversineKernel.swift):
 * sin y = y + y z p(z), z = y^2, p by Horner from GLK_SIN_P0 (the highest power) to GLK_SIN_P7. */
#define GLK_SIN_P0 2.7211749805411616e-15
#define GLK_SIN_P1 -7.642991491043102e-13
#define GLK_SIN_P2 1.6058939705964762e-10
#define GLK_SIN_P3 -2.5052106872803646e-08
#define GLK_SIN_P4 2.755731921113729e-06
#define GLK_SIN_P5 -0.00019841269841209218
#define GLK_SIN_P6 0.008333333333333194
#define GLK_SIN_P7 -0.16666666666666666

#endif
