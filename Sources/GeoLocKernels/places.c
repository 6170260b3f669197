/*
 * places.c -- Places' kernels, four places at a time on AVX2:
 *
 * - glk_place_derive (AVX2 alone): the unit vectors (x, y, z) and cos latitude of places from
 *   their coordinates, as a place set is built (Places/PlaceKDTree.swift) and as a place file of
 *   version 3 or 4 is opened (Places/PlaceFile.swift): the arithmetic of `PlaceVectors.derive`
 *   (Places/PlaceFileVectors.swift, the Swift baseline and the reasoning) operation for
 *   operation, so the two give the same bits: every sine and cosine from the polynomial sine
 *   (cos latitude = sin(pi/2 - |lat|), Core/VectorMath.swift's `latitudeCosine`), no libm call
 *   but for a file of version 3 (x and y from libm's cos latitude, as 0.6 built them), every
 *   product and sum rounded on its own. The instance is compiled for AVX2 without FMA, so the
 *   compiler cannot fuse a product and a sum (Swift never does).
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

int glk_place_derive(const double *lat_lon, size_t n, double *points, double *box, int libm_cos, int level)
{
    int have = glk_level_supported();
    if (level > have)
        level = have;
    if (level < GLK_LEVEL_AVX2_FMA)
        return 0;
    int outside = libm_cos ? glk_place_derive_libm_avx2(lat_lon, n, points, box)
                           : glk_place_derive_avx2(lat_lon, n, points, box);
    return outside ? 3 : 1;
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

#endif
