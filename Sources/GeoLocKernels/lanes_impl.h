/*
 * lanes_impl.h -- the vector types, the lane select and the sine every kernel instance uses,
 * included at the top of distance_impl.h and tracking_impl.h (once per instance) and by places.c,
 * with KSUF(name), KTARGET and KW defined:
 *
 *   KV                   KW doubles, one register of the instruction set
 *   KM                   KW 64-bit lane masks (the result of comparing two KV)
 *   KSUF(sel)(m, a, b)   lane-wise a where m, else b
 *   KSUF(vabs)(x)        lane-wise |x|
 *   KSUF(sin_poly)(y)    lane-wise sin y for y in [-pi/2, pi/2] (Core/VectorMath.swift's sinPoly:
 *                        the same coefficients, kernel_defs.h's GLK_SIN_P0 ... P7)
 *
 * The includer #undefs KV and KM at its end.
 */

typedef double KSUF(vd) __attribute__((vector_size(KW * 8)));
typedef long long KSUF(vm) __attribute__((vector_size(KW * 8)));
#define KV KSUF(vd)
#define KM KSUF(vm)

/* Lane-wise a where m, else b (m from a comparison: all ones or all zeros). */
KTARGET GLK_INLINE KV KSUF(sel)(KM m, KV a, KV b)
{
    return (KV)(((KM)a & m) | ((KM)b & ~m));
}

/* Lane-wise |x|: the sign bit cleared. */
KTARGET GLK_INLINE KV KSUF(vabs)(KV x)
{
    KM magnitude_bits = (KM){0} + 0x7fffffffffffffffLL;
    return (KV)((KM)x & magnitude_bits);
}

/* sin y for y in [-pi/2, pi/2]: y + y z P(z), z = y^2 (minimax, relative error < 3e-19). */
KTARGET GLK_INLINE KV KSUF(sin_poly)(KV y)
{
    KV z = y * y;
    KV p = z * GLK_SIN_P0 + GLK_SIN_P1;
    p = p * z + GLK_SIN_P2;
    p = p * z + GLK_SIN_P3;
    p = p * z + GLK_SIN_P4;
    p = p * z + GLK_SIN_P5;
    p = p * z + GLK_SIN_P6;
    p = p * z + GLK_SIN_P7;
    return y + y * (z * p);
}
