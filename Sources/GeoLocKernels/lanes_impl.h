/*
 * lanes_impl.h -- the vector types and the lane select every kernel instance uses, included at
 * the top of distance_impl.h and tracking_impl.h (once per instance) with KSUF(name), KTARGET and
 * KW defined:
 *
 *   KV                   KW doubles, one register of the instruction set
 *   KM                   KW 64-bit lane masks (the result of comparing two KV)
 *   KSUF(sel)(m, a, b)   lane-wise a where m, else b
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
