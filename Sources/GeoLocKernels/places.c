/*
 * places.c -- Places' kernels, four places at a time on AVX2, eight on AVX-512F:
 *
 * - glk_place_derive (AVX2 alone, or AVX-512F): the unit vectors (x, y, z) and cos latitude of places from
 *   their coordinates, as a place set is built (Places/PlaceKDTree.swift) and as a place file of
 *   version 3 or 4 is opened (Places/PlaceFile.swift): the arithmetic of `PlaceVectors.derive`
 *   (Places/PlaceFileVectors.swift, the Swift baseline and the reasoning) operation for
 *   operation, so the two give the same bits: every sine and cosine from the polynomial sine
 *   (cos latitude = sin(pi/2 - |lat|), Core/VectorMath.swift's `latitudeCosine`), no libm call
 *   but for a file of version 3 (x and y from libm's cos latitude, as 0.6 built them), every
 *   product and sum rounded on its own. The AVX2 instance is compiled without FMA, so the
 *   compiler cannot fuse a product and a sum (Swift never does); the AVX-512F instance, whose
 *   instruction set has fused multiply-adds, with contraction switched off.
 * - glk_place_derive_tree: what opening a place file of version 3 or 4 derives, the whole tree in
 *   one call (the Swift walk of Places/PlaceFileCheck.swift, `tree(_:derive:...)`, the same
 *   bits): every leaf's vectors and box, each node's gaps from its halves' boxes, the root's box.
 * - glk_place_vectors (AVX2 with FMA): the check of the vectors a place file of version 1 or 2
 *   stores (Places/PlaceFileCheck.swift, `vectorMismatch` and the leaf loop of `TreeWalk`): the
 *   same arithmetic on the same doubles (FMA may round a product-sum differently, a last bit
 *   well inside the check's tolerance of 2e-15). No AVX-512 instance: the check reads 48 bytes
 *   a place and is near the memory's pace at four lanes.
 *
 * The sine is lanes_impl.h's, the polynomial of the haversine kernels and of Core/VectorMath.swift.
 */
#include "GeoLocKernels.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include <immintrin.h>
#include <math.h>

#include "kernel_defs.h"

#define KSUF(name) name##_places
#define KTARGET __attribute__((target("avx2,fma")))
#define KW 4
#include "lanes_impl.h"

#define GLK_D2R (3.141592653589793 / 180.0)

/* The lanes (bit k: place k of the four) whose stored vector (x, y, z, w) is off the one their
 * coordinates give, or not a number. */
KTARGET GLK_INLINE int glk_place_bad4(KV x, KV y, KV z, KV w, KV lat, KV lon,
                                      double tol, double ctol)
{
    KV phi = lat * GLK_D2R, lam = lon * GLK_D2R;
    KV alam = KSUF(vabs)(lam);
    KM over = alam > GLK_PIO2_HI;
    KV beyond = (GLK_PI_HI - alam) + GLK_PI_LO;
    KV s_arg = KSUF(sel)(over, beyond, alam);
    KV sphi = KSUF(sin_poly)(phi);
    KV cphi = KSUF(sin_poly)((GLK_PIO2_HI - KSUF(vabs)(phi)) + GLK_PIO2_LO);
    KV clam = KSUF(sin_poly)((GLK_PIO2_HI - alam) + GLK_PIO2_LO);
    KV slam = KSUF(sin_poly)(s_arg);
    /* sin(-|lam|) = -sin|lam|: the sign of lam onto the lane where lam < 0. */
    KM negative = lam < 0.0;
    slam = (KV)((KM)slam ^ (negative & ((KM){0} + (long long)(1ULL << 63))));
    /* Ordered comparisons: a NaN fails each of them. */
    KM ok = (KSUF(vabs)(x - cphi * clam) <= tol) & (KSUF(vabs)(y - cphi * slam) <= tol) &
                (KSUF(vabs)(z - sphi) <= tol) & (KSUF(vabs)(w - cphi) <= ctol * cphi);
    return _mm256_movemask_pd((__m256d)ok) ^ 0xF;
}

KTARGET static size_t glk_place_vectors_avx2(const double *points, const double *lat_lon, size_t n,
                                             double tol, double ctol, double *box)
{
    KV lo = (KV){0} + INFINITY, hi = (KV){0} - INFINITY;
    size_t i = 0;
    for (; i < n; i += 4) {
        /* The last few places: the last place repeated up to four (neither a box nor a first
         * mismatch changes). */
        size_t k[4];
        for (int j = 0; j < 4; j++)
            k[j] = i + (size_t)j < n ? i + (size_t)j : n - 1;
        __m256d r0 = _mm256_loadu_pd(points + 4 * k[0]), r1 = _mm256_loadu_pd(points + 4 * k[1]);
        __m256d r2 = _mm256_loadu_pd(points + 4 * k[2]), r3 = _mm256_loadu_pd(points + 4 * k[3]);
        /* 4x4 transpose: rows (x, y, z, w) of places 0-3 into x, y, z, w of the four places. */
        __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
        __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
        KV x = (KV)_mm256_permute2f128_pd(t0, t2, 0x20);
        KV y = (KV)_mm256_permute2f128_pd(t1, t3, 0x20);
        KV z = (KV)_mm256_permute2f128_pd(t0, t2, 0x31);
        KV w = (KV)_mm256_permute2f128_pd(t1, t3, 0x31);
        __m128d l0 = _mm_loadu_pd(lat_lon + 2 * k[0]), l1 = _mm_loadu_pd(lat_lon + 2 * k[1]);
        __m128d l2 = _mm_loadu_pd(lat_lon + 2 * k[2]), l3 = _mm_loadu_pd(lat_lon + 2 * k[3]);
        __m256d a = _mm256_set_m128d(l2, l0), b = _mm256_set_m128d(l3, l1); /* lat0 lon0 lat2 lon2 */
        KV lat = (KV)_mm256_unpacklo_pd(a, b);                      /* lat0 lat1 lat2 lat3 */
        KV lon = (KV)_mm256_unpackhi_pd(a, b);
        int bad = glk_place_bad4(x, y, z, w, lat, lon, tol, ctol);
        if (bad != 0)
            return i + (size_t)__builtin_ctz((unsigned)bad);
        /* x, y, z in lanes 0-2 of the rows: the box of the rows themselves. */
        KV m01 = (KV)_mm256_min_pd(r0, r1), m23 = (KV)_mm256_min_pd(r2, r3);
        KV x01 = (KV)_mm256_max_pd(r0, r1), x23 = (KV)_mm256_max_pd(r2, r3);
        lo = (KV)_mm256_min_pd((__m256d)lo, _mm256_min_pd((__m256d)m01, (__m256d)m23));
        hi = (KV)_mm256_max_pd((__m256d)hi, _mm256_max_pd((__m256d)x01, (__m256d)x23));
    }
    for (int d = 0; d < 3; d++) {
        box[d] = lo[d];
        box[3 + d] = hi[d];
    }
    return n;
}

#undef KV
#undef KM
#undef KSUF
#undef KTARGET
#undef KW

/* The derivation's instance: AVX2 alone (no FMA: see the top). */
#define KSUF(name) name##_derive
#define KTARGET __attribute__((target("avx2")))
#define KW 4
#include "lanes_impl.h"

/* The vectors (x, y, z) and cos latitude of four places (degrees). */
KTARGET GLK_INLINE void glk_place_vectors4(KV lat, KV lon, int libm_cos, KV *x, KV *y, KV *z, KV *c)
{
    KV phi = lat * GLK_D2R, lam = lon * GLK_D2R;
    /* cos latitude: the cosine every distance's haversine takes (VectorMath.latitudeCosine). */
    *c = KSUF(sin_poly)((GLK_PIO2_HI - KSUF(vabs)(phi)) + GLK_PIO2_LO);
    /* x and y: with libm's cos latitude for a file of version 3 (the bits 0.6 built on). */
    KV cx = *c;
    if (libm_cos)
        for (int j = 0; j < 4; j++)
            cx[j] = cos(phi[j]);
    KV alam = KSUF(vabs)(lam);
    KM over = alam > GLK_PIO2_HI;
    *z = KSUF(sin_poly)(phi);
    KV clam = KSUF(sin_poly)((GLK_PIO2_HI - alam) + GLK_PIO2_LO);
    KV slam = KSUF(sin_poly)(KSUF(sel)(over, (GLK_PI_HI - alam) + GLK_PI_LO, alam));
    KM negative = lam < 0.0;
    slam = (KV)((KM)slam ^ (negative & ((KM){0} + (long long)(1ULL << 63))));
    *x = cx * clam;
    *y = cx * slam;
}

/* Four places' rows (x, y, z, cos lat) stored at `out` (16 doubles), their box into lo, hi. */
KTARGET GLK_INLINE void glk_place_store4(KV x, KV y, KV z, KV c, double *out0, double *out1, double *out2,
                                         double *out3, KV *lo, KV *hi)
{
    /* 4x4 transpose: x, y, z, w of the four places into their rows. */
    __m256d t0 = _mm256_unpacklo_pd((__m256d)x, (__m256d)y), t1 = _mm256_unpackhi_pd((__m256d)x, (__m256d)y);
    __m256d t2 = _mm256_unpacklo_pd((__m256d)z, (__m256d)c), t3 = _mm256_unpackhi_pd((__m256d)z, (__m256d)c);
    __m256d r0 = _mm256_permute2f128_pd(t0, t2, 0x20), r1 = _mm256_permute2f128_pd(t1, t3, 0x20);
    __m256d r2 = _mm256_permute2f128_pd(t0, t2, 0x31), r3 = _mm256_permute2f128_pd(t1, t3, 0x31);
    _mm256_storeu_pd(out0, r0);
    _mm256_storeu_pd(out1, r1);
    _mm256_storeu_pd(out2, r2);
    _mm256_storeu_pd(out3, r3);
    *lo = (KV)_mm256_min_pd((__m256d)*lo, _mm256_min_pd(_mm256_min_pd(r0, r1), _mm256_min_pd(r2, r3)));
    *hi = (KV)_mm256_max_pd((__m256d)*hi, _mm256_max_pd(_mm256_max_pd(r0, r1), _mm256_max_pd(r2, r3)));
}

/* The latitudes and longitudes of four consecutive places. */
KTARGET GLK_INLINE void glk_place_load4(const double *lat_lon, KV *lat, KV *lon)
{
    __m256d a = _mm256_loadu_pd(lat_lon), b = _mm256_loadu_pd(lat_lon + 4); /* lat0 lon0 lat1 lon1 | lat2 ... */
    *lat = (KV)_mm256_permute4x64_pd(_mm256_unpacklo_pd(a, b), 0xD8);     /* lat0 lat2 lat1 lat3 -> in order */
    *lon = (KV)_mm256_permute4x64_pd(_mm256_unpackhi_pd(a, b), 0xD8);
}

/* The lanes whose latitude is not in [-90, 90] or longitude not in [-180, 180), or either not a
 * number (each comparison of a NaN is false). */
KTARGET GLK_INLINE KM glk_place_outside4(KV lat, KV lon)
{
    return ~((lat >= -90.0) & (lat <= 90.0) & (lon >= -180.0) & (lon < 180.0));
}

/* The derivation, with libm_cos a constant in each instance below (the instance without it
 * makes no call, so its vectors stay in registers). Returns whether a coordinate is out of
 * range (the open's check of the coordinates, done on the way). */
KTARGET GLK_INLINE int glk_place_derive_body(const double *lat_lon, size_t n, double *points, double *box,
                                             const int libm_cos)
{
    KV lo = (KV){0} + INFINITY, hi = (KV){0} - INFINITY;
    KM outside = (KM){0};
    size_t i = 0;
    /* Eight places a step, two independent groups of four: the polynomials' chains of
     * dependent products overlap. */
    for (; i + 8 <= n; i += 8) {
        KV lat0, lon0, lat1, lon1, x0, y0, z0, c0, x1, y1, z1, c1;
        glk_place_load4(lat_lon + 2 * i, &lat0, &lon0);
        glk_place_load4(lat_lon + 2 * i + 8, &lat1, &lon1);
        glk_place_vectors4(lat0, lon0, libm_cos, &x0, &y0, &z0, &c0);
        glk_place_vectors4(lat1, lon1, libm_cos, &x1, &y1, &z1, &c1);
        outside |= glk_place_outside4(lat0, lon0) | glk_place_outside4(lat1, lon1);
        double *o = points + 4 * i;
        glk_place_store4(x0, y0, z0, c0, o, o + 4, o + 8, o + 12, &lo, &hi);
        glk_place_store4(x1, y1, z1, c1, o + 16, o + 20, o + 24, o + 28, &lo, &hi);
    }
    for (; i < n; i += 4) {
        /* The last few places: the last place repeated up to four (the box does not change). */
        size_t k[4];
        for (int j = 0; j < 4; j++)
            k[j] = i + (size_t)j < n ? i + (size_t)j : n - 1;
        KV lat, lon, x, y, z, c;
        for (int j = 0; j < 4; j++) {
            lat[j] = lat_lon[2 * k[j]];
            lon[j] = lat_lon[2 * k[j] + 1];
        }
        glk_place_vectors4(lat, lon, libm_cos, &x, &y, &z, &c);
        outside |= glk_place_outside4(lat, lon);
        glk_place_store4(x, y, z, c, points + 4 * k[0], points + 4 * k[1], points + 4 * k[2], points + 4 * k[3], &lo, &hi);
    }
    for (int d = 0; d < 3; d++) {
        box[d] = lo[d];
        box[3 + d] = hi[d];
    }
    return _mm256_movemask_pd((__m256d)outside) != 0;
}

KTARGET static int glk_place_derive_avx2(const double *lat_lon, size_t n, double *points, double *box)
{
    return glk_place_derive_body(lat_lon, n, points, box, 0);
}

KTARGET static int glk_place_derive_libm_avx2(const double *lat_lon, size_t n, double *points, double *box)
{
    return glk_place_derive_body(lat_lon, n, points, box, 1);
}

/* glk_place_derive_tree's leaves at AVX2 (glk_place_leaves_avx512's work: each leaf's box as
 * 8 doubles, the least x, y, z (and a lane unused), the greatest x, y, z (and one unused)). */
KTARGET static int glk_place_leaves_avx2(const double *lat_lon, const size_t *bound, size_t leaves, double *points,
                                         double *boxes, int libm_cos)
{
    int outside = 0;
    for (size_t k = 0; k < leaves; k++) {
        size_t lo = bound[k], hi = bound[k + 1];
        double b[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
        if (hi > lo)
            outside |= libm_cos ? glk_place_derive_body(lat_lon + 2 * lo, hi - lo, points + 4 * lo, b, 1)
                                : glk_place_derive_body(lat_lon + 2 * lo, hi - lo, points + 4 * lo, b, 0);
        _mm256_storeu_pd(boxes + 8 * k, _mm256_set_pd(0, b[2], b[1], b[0]));
        _mm256_storeu_pd(boxes + 8 * k + 4, _mm256_set_pd(0, b[5], b[4], b[3]));
    }
    return outside;
}

#undef KV
#undef KM
#undef KSUF
#undef KTARGET
#undef KW

/* The derivation's AVX-512 instance: eight places a vector, two vectors a step, the sixteen
 * polynomials of a step interleaved operation by operation (each chain of products and sums is
 * dependent, so the machine needs many at once to keep its units busy). AVX-512F has fused
 * multiply-adds, so contraction is switched off for this instance (GCC: the function attribute;
 * clang: the pragma, which holds for the rest of the file): every product and sum is rounded on
 * its own, as in the Swift loop. */
#if defined(__clang__)
#pragma clang fp contract(off)
#define KTARGET __attribute__((target("avx512f")))
#else
#define KTARGET __attribute__((target("avx512f"), optimize("fp-contract=off")))
#endif
#define KSUF(name) name##_derive512
#define KW 8
#include "lanes_impl.h"

/* The box (least and greatest x, y, z) of the places a derivation has seen, lane by lane. */
typedef struct {
    KV lo[3], hi[3];
} glk_box512;

/* Up to 8 * groups places (count: 1 ... 8 * groups) of lat_lon into out (rows of x, y, z,
 * cos lat), their lanes of the box into b, and the lanes of any coordinate out of range into
 * *outside. The lanes past count load 0 (a valid coordinate), and are neither stored nor boxed. */
KTARGET GLK_INLINE void glk_place_step512(const double *lat_lon, size_t count, double *out, glk_box512 *b,
                                          __mmask8 *outside, const int groups, const int libm_cos)
{
    const __m512i even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
    const __m512i odd = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
    KV y[8], z[8], p[8], lam[2], phi[2];
    __mmask8 valid[2];
    for (int g = 0; g < groups; g++) {
        size_t c = count > 8 * (size_t)g ? count - 8 * (size_t)g : 0;
        c = c < 8 ? c : 8;
        unsigned d = 2 * (unsigned)c; /* doubles of this group */
        __mmask8 m0 = (__mmask8)(d >= 8 ? 0xFF : (1u << d) - 1);
        __mmask8 m1 = (__mmask8)(d >= 16 ? 0xFF : d > 8 ? (1u << (d - 8)) - 1 : 0);
        __m512d a = _mm512_maskz_loadu_pd(m0, lat_lon + 16 * g);
        __m512d a2 = _mm512_maskz_loadu_pd(m1, lat_lon + 16 * g + 8);
        KV lat = (KV)_mm512_permutex2var_pd(a, even, a2), lon = (KV)_mm512_permutex2var_pd(a, odd, a2);
        valid[g] = (__mmask8)(c >= 8 ? 0xFF : (1u << c) - 1);
        __mmask8 ok = _mm512_cmp_pd_mask((__m512d)lat, _mm512_set1_pd(-90.0), _CMP_GE_OQ) &
                      _mm512_cmp_pd_mask((__m512d)lat, _mm512_set1_pd(90.0), _CMP_LE_OQ) &
                      _mm512_cmp_pd_mask((__m512d)lon, _mm512_set1_pd(-180.0), _CMP_GE_OQ) &
                      _mm512_cmp_pd_mask((__m512d)lon, _mm512_set1_pd(180.0), _CMP_LT_OQ);
        *outside |= (__mmask8)(~ok & valid[g]);
        phi[g] = lat * GLK_D2R;
        lam[g] = lon * GLK_D2R;
        KV alam = KSUF(vabs)(lam[g]);
        KM over = alam > GLK_PIO2_HI;
        /* The arguments of glk_place_vectors4: sin lat, cos lat, cos lon, |sin lon|. */
        y[4 * g + 0] = phi[g];
        y[4 * g + 1] = (GLK_PIO2_HI - KSUF(vabs)(phi[g])) + GLK_PIO2_LO;
        y[4 * g + 2] = (GLK_PIO2_HI - alam) + GLK_PIO2_LO;
        y[4 * g + 3] = KSUF(sel)(over, (GLK_PI_HI - alam) + GLK_PI_LO, alam);
    }
    /* sin_poly of lanes_impl.h on the 4 * groups arguments, step by step. */
    const int k = 4 * groups;
    for (int j = 0; j < k; j++) {
        z[j] = y[j] * y[j];
        p[j] = z[j] * GLK_SIN_P0 + GLK_SIN_P1;
    }
    for (int j = 0; j < k; j++) p[j] = p[j] * z[j] + GLK_SIN_P2;
    for (int j = 0; j < k; j++) p[j] = p[j] * z[j] + GLK_SIN_P3;
    for (int j = 0; j < k; j++) p[j] = p[j] * z[j] + GLK_SIN_P4;
    for (int j = 0; j < k; j++) p[j] = p[j] * z[j] + GLK_SIN_P5;
    for (int j = 0; j < k; j++) p[j] = p[j] * z[j] + GLK_SIN_P6;
    for (int j = 0; j < k; j++) p[j] = p[j] * z[j] + GLK_SIN_P7;
    for (int j = 0; j < k; j++) p[j] = y[j] + y[j] * (z[j] * p[j]);
    for (int g = 0; g < groups; g++) {
        KV sphi = p[4 * g], c = p[4 * g + 1], clam = p[4 * g + 2], slam = p[4 * g + 3];
        KV cx = c;
        if (libm_cos)
            for (int j = 0; j < 8; j++)
                cx[j] = cos(phi[g][j]);
        KM negative = lam[g] < 0.0;
        slam = (KV)((KM)slam ^ (negative & ((KM){0} + (long long)(1ULL << 63))));
        KV x = cx * clam, yy = cx * slam;
        __mmask8 v = valid[g];
        if (b != NULL) {
            b->lo[0] = (KV)_mm512_mask_min_pd((__m512d)b->lo[0], v, (__m512d)b->lo[0], (__m512d)x);
            b->lo[1] = (KV)_mm512_mask_min_pd((__m512d)b->lo[1], v, (__m512d)b->lo[1], (__m512d)yy);
            b->lo[2] = (KV)_mm512_mask_min_pd((__m512d)b->lo[2], v, (__m512d)b->lo[2], (__m512d)sphi);
            b->hi[0] = (KV)_mm512_mask_max_pd((__m512d)b->hi[0], v, (__m512d)b->hi[0], (__m512d)x);
            b->hi[1] = (KV)_mm512_mask_max_pd((__m512d)b->hi[1], v, (__m512d)b->hi[1], (__m512d)yy);
            b->hi[2] = (KV)_mm512_mask_max_pd((__m512d)b->hi[2], v, (__m512d)b->hi[2], (__m512d)sphi);
        }
        /* x, y, z, cos lat of the eight places into their rows, two places a register:
         * [x0 y0 z0 c0 x1 y1 z1 c1], [x2 ... c3], [x4 ... c5], [x6 ... c7]. */
        __m512d t0 = _mm512_unpacklo_pd((__m512d)x, (__m512d)yy), t1 = _mm512_unpackhi_pd((__m512d)x, (__m512d)yy);
        __m512d t2 = _mm512_unpacklo_pd((__m512d)sphi, (__m512d)c), t3 = _mm512_unpackhi_pd((__m512d)sphi, (__m512d)c);
        __m512d u0 = _mm512_shuffle_f64x2(t0, t2, 0x44), u1 = _mm512_shuffle_f64x2(t1, t3, 0x44);
        __m512d u2 = _mm512_shuffle_f64x2(t0, t2, 0xEE), u3 = _mm512_shuffle_f64x2(t1, t3, 0xEE);
        __m512d rows[4] = {_mm512_shuffle_f64x2(u0, u1, 0x88), _mm512_shuffle_f64x2(u0, u1, 0xDD),
                           _mm512_shuffle_f64x2(u2, u3, 0x88), _mm512_shuffle_f64x2(u2, u3, 0xDD)};
        double *o = out + 32 * g;
        for (int r = 0; r < 4; r++) {
            __mmask8 m = (__mmask8)(((v >> (2 * r)) & 1 ? 0x0F : 0) | ((v >> (2 * r + 1)) & 1 ? 0xF0 : 0));
            _mm512_mask_storeu_pd(o + 8 * r, m, rows[r]);
        }
    }
}

/* n places (any n) into points, their box into b; whether a coordinate is out of range. */
KTARGET GLK_INLINE int glk_place_derive512_body(const double *lat_lon, size_t n, double *points, glk_box512 *b,
                                                const int libm_cos)
{
    __mmask8 outside = 0;
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        glk_place_step512(lat_lon + 2 * i, 16, points + 4 * i, b, &outside, 2, libm_cos);
    if (n - i > 8)
        glk_place_step512(lat_lon + 2 * i, n - i, points + 4 * i, b, &outside, 2, libm_cos);
    else if (n > i)
        glk_place_step512(lat_lon + 2 * i, n - i, points + 4 * i, b, &outside, 1, libm_cos);
    return outside != 0;
}

KTARGET GLK_INLINE void glk_box512_empty(glk_box512 *b)
{
    for (int d = 0; d < 3; d++) {
        b->lo[d] = (KV){0} + INFINITY;
        b->hi[d] = (KV){0} - INFINITY;
    }
}

KTARGET GLK_INLINE void glk_box512_out(const glk_box512 *b, double *box)
{
    for (int d = 0; d < 3; d++) {
        box[d] = _mm512_reduce_min_pd((__m512d)b->lo[d]);
        box[3 + d] = _mm512_reduce_max_pd((__m512d)b->hi[d]);
    }
}

/* glk_place_derive at AVX-512: n places, their box into box[0..5]; whether one is out of range. */
KTARGET static int glk_place_derive_avx512(const double *lat_lon, size_t n, double *points, double *box, int libm_cos)
{
    glk_box512 b;
    glk_box512_empty(&b);
    int outside = libm_cos ? glk_place_derive512_body(lat_lon, n, points, &b, 1)
                           : glk_place_derive512_body(lat_lon, n, points, &b, 0);
    glk_box512_out(&b, box);
    return outside;
}

#ifndef GLK_LEAF_RUN
#define GLK_LEAF_RUN 16
#endif
/* glk_place_derive_tree's leaves at AVX-512: leaf k is places bound[k] ..< bound[k + 1]; its box
 * into boxes[8k .. 8k + 7] (the least x, y, z and a lane unused, the greatest x, y, z and one). Whether a coordinate is out of range. The leaves are derived 16 at a
 * time in one run of places (16 a step, the leaves' ends inside the steps), and each leaf's box
 * then taken from its rows while they are in the cache (lanes 0-2 of the rows' least and
 * greatest are the box). */
KTARGET GLK_INLINE int glk_place_leaves512_body(const double *lat_lon, const size_t *bound, size_t leaves,
                                                double *points, double *boxes, const int libm_cos)
{
    int outside = 0;
    for (size_t k0 = 0; k0 < leaves; k0 += GLK_LEAF_RUN) {
        size_t k1 = leaves - k0 < GLK_LEAF_RUN ? leaves : k0 + GLK_LEAF_RUN;
        size_t lo = bound[k0], hi = bound[k1];
        outside |= glk_place_derive512_body(lat_lon + 2 * lo, hi - lo, points + 4 * lo, NULL, libm_cos);
        for (size_t k = k0; k < k1; k++) {
            __m256d l = _mm256_set1_pd(INFINITY), h = _mm256_set1_pd(-INFINITY);
            for (size_t p = bound[k]; p < bound[k + 1]; p++) {
                __m256d r = _mm256_loadu_pd(points + 4 * p);
                l = _mm256_min_pd(l, r);
                h = _mm256_max_pd(h, r);
            }
            _mm256_storeu_pd(boxes + 8 * k, l);
            _mm256_storeu_pd(boxes + 8 * k + 4, h);
        }
    }
    return outside;
}

KTARGET static int glk_place_leaves_avx512(const double *lat_lon, const size_t *bound, size_t leaves, double *points,
                                           double *boxes, int libm_cos)
{
    return libm_cos ? glk_place_leaves512_body(lat_lon, bound, leaves, points, boxes, 1)
                    : glk_place_leaves512_body(lat_lon, bound, leaves, points, boxes, 0);
}

#undef KV
#undef KM
#undef KSUF
#undef KTARGET
#undef KW

/* One leaf's places at `level` (at least AVX2): glk_place_derive's work. */
static int glk_place_derive_level(const double *lat_lon, size_t n, double *points, double *box, int libm_cos,
                                  int level)
{
    if (level >= GLK_LEVEL_AVX512)
        return glk_place_derive_avx512(lat_lon, n, points, box, libm_cos);
    return libm_cos ? glk_place_derive_libm_avx2(lat_lon, n, points, box)
                    : glk_place_derive_avx2(lat_lon, n, points, box);
}

int glk_place_derive(const double *lat_lon, size_t n, double *points, double *box, int libm_cos, int level)
{
    int have = glk_level_supported();
    if (level > have)
        level = have;
    if (level < GLK_LEVEL_AVX2_FMA)
        return 0;
    return glk_place_derive_level(lat_lon, n, points, box, libm_cos, level) ? 3 : 1;
}


/* The boxes of the subtrees glk_place_derive_tree has not closed yet (a stack, the least x, y, z
 * and the greatest in a register each: stored and loaded whole, so that no load waits on parts
 * of several stores). */
typedef struct {
    __m256d lo[64], hi[64];
    int count;
} glk_open_boxes;

/* Node `node`'s gaps from the boxes of its halves (left: llo, lhi; right: rlo, rhi) and their
 * union into *lo, *hi; whether the halves overlap along the node's dimension. The union as
 * Swift.min and Swift.max take it (min_pd(b, a) is b < a ? b : a; max_pd(a, b) is a > b ? a : b,
 * which is b >= a ? b : a for numbers). */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) int
glk_place_join(size_t node, const unsigned char *dims, double *gaps, __m256d llo, __m256d lhi, __m256d rlo, __m256d rhi,
               __m256d *lo, __m256d *hi)
{
    unsigned d = dims[node];
    d = d < 2 ? d : 2; /* (a dimension above 2 is refused by the caller) */
    double lh[4], rl[4];
    _mm256_storeu_pd(lh, lhi);
    _mm256_storeu_pd(rl, rlo);
    double low = lh[d], high = rl[d];
    gaps[2 * node] = low;
    gaps[2 * node + 1] = high;
    *lo = _mm256_min_pd(rlo, llo);
    *hi = _mm256_max_pd(lhi, rhi);
    return !(low <= high);
}

/* Subtree t of level `above` (its 2^below leaves' boxes as glk_place_leaves_avx2 writes them):
 * its nodes closed level by level from its leaves up, then its box onto the stack of subtrees
 * not yet closed, closing the nodes above it while t has ones from its lowest bit up. Whether a
 * node's halves overlap. */
__attribute__((target("avx2"))) static int glk_place_close(glk_open_boxes *open, const double *boxes, unsigned below,
                                                           unsigned above, size_t t, const unsigned char *dims,
                                                           double *gaps)
{
    __m256d lo[64], hi[64];
    int overlap = 0;
    for (size_t i = 0; i < ((size_t)1 << below); i++) {
        lo[i] = _mm256_loadu_pd(boxes + 8 * i);
        hi[i] = _mm256_loadu_pd(boxes + 8 * i + 4);
    }
    for (unsigned l = below; l-- > 0;) {
        size_t count = (size_t)1 << l, first = ((size_t)1 << (above + l)) - 1 + t * count;
        for (size_t j = 0; j < count; j++)
            overlap |= glk_place_join(first + j, dims, gaps, lo[2 * j], hi[2 * j], lo[2 * j + 1], hi[2 * j + 1], &lo[j],
                                      &hi[j]);
    }
    int top = open->count;
    open->lo[top] = lo[0];
    open->hi[top] = hi[0];
    top++;
    for (unsigned j = 0; (t >> j) & 1; j++) {
        size_t node = ((size_t)1 << (above - 1 - j)) - 1 + (t >> (j + 1));
        top--;
        overlap |= glk_place_join(node, dims, gaps, open->lo[top - 1], open->hi[top - 1], open->lo[top], open->hi[top],
                                  &open->lo[top - 1], &open->hi[top - 1]);
    }
    open->count = top;
    return overlap;
}

/* The root's box (the one box left on the stack) into box[0..5]. */
__attribute__((target("avx2"))) static void glk_place_box_out(const glk_open_boxes *open, double *box)
{
    double lo[4], hi[4];
    _mm256_storeu_pd(lo, open->lo[0]);
    _mm256_storeu_pd(hi, open->hi[0]);
    for (int e = 0; e < 3; e++) {
        box[e] = lo[e];
        box[3 + e] = hi[e];
    }
}

int glk_place_derive_tree(const double *lat_lon, size_t n, unsigned depth, const unsigned char *dims,
                          double *points, double *gaps, double *box, int libm_cos, int level)
{
    int have = glk_level_supported();
    if (level > have)
        level = have;
    if (level < GLK_LEVEL_AVX2_FMA || n == 0 || depth > 30 || n > 0x7FFFFFFF)
        return 0;
    /* The leaves in order, 64 at a time (no allocation: a set of a million places has 65,536
     * leaves): each 64 the leaves of one subtree, whose range comes from the root down (node
     * [lo, hi) splits at lo + (hi - lo) / 2) and theirs from it, level by level in place; their
     * vectors and boxes from the level's kernel; then the subtree's nodes closed, each node's gaps
     * from the boxes of its two halves, and its box onto a stack of those not closed yet
     * (glk_place_close). */
    enum { BATCH_LEVELS = 6, BATCH = 1 << BATCH_LEVELS };
    size_t bound[BATCH + 1];
    double leaf_box[8 * BATCH];
    glk_open_boxes open;
    open.count = 0;
    int outside = 0, overlap = 0;
    unsigned below = depth < BATCH_LEVELS ? depth : BATCH_LEVELS, above = depth - below;
    size_t count = (size_t)1 << below;
    for (size_t t = 0; t < ((size_t)1 << above); t++) {
        size_t lo = 0, hi = n;
        for (unsigned l = above; l-- > 0;) {
            size_t mid = lo + (hi - lo) / 2;
            if ((t >> l) & 1)
                lo = mid;
            else
                hi = mid;
        }
        bound[0] = lo;
        bound[1] = hi;
        for (unsigned l = 0; l < below; l++) {
            for (size_t j = ((size_t)1 << l); j-- > 0;) {
                size_t a = bound[j], b = bound[j + 1];
                bound[2 * j + 2] = b;
                bound[2 * j + 1] = a + (b - a) / 2;
                bound[2 * j] = a;
            }
        }
        outside |= level >= GLK_LEVEL_AVX512 ? glk_place_leaves_avx512(lat_lon, bound, count, points, leaf_box, libm_cos)
                                             : glk_place_leaves_avx2(lat_lon, bound, count, points, leaf_box, libm_cos);
        overlap |= glk_place_close(&open, leaf_box, below, above, t, dims, gaps);
    }
    glk_place_box_out(&open, box);
    return 1 | (outside ? GLK_DERIVE_OUTSIDE : 0) | (overlap ? GLK_DERIVE_OVERLAP : 0);
}

long glk_place_vectors(const double *points, const double *lat_lon, size_t n, double tol, double ctol,
                       double *box, int level)
{
    int have = glk_level_supported();
    if (level > have)
        level = have;
    if (level < GLK_LEVEL_AVX2_FMA)
        return -1;
    return (long)glk_place_vectors_avx2(points, lat_lon, n, tol, ctol, box);
}

#else /* not x86-64: the Swift baseline only */

long glk_place_vectors(const double *points, const double *lat_lon, size_t n, double tol, double ctol,
                       double *box, int level)
{
    (void)points, (void)lat_lon, (void)n, (void)tol, (void)ctol, (void)box, (void)level;
    return -1;
}

int glk_place_derive(const double *lat_lon, size_t n, double *points, double *box, int libm_cos, int level)
{
    (void)lat_lon, (void)n, (void)points, (void)box, (void)libm_cos, (void)level;
    return 0;
}

int glk_place_derive_tree(const double *lat_lon, size_t n, unsigned depth, const unsigned char *dims,
                          double *points, double *gaps, double *box, int libm_cos, int level)
{
    (void)lat_lon, (void)n, (void)depth, (void)dims, (void)points, (void)gaps, (void)box, (void)libm_cos, (void)level;
    return 0;
}

#endif
