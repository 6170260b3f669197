/*
 * distance_impl.h -- one instance of the batch haversine kernel, included by distance.c once
 * per instruction set with these defined (and #undefs them at its end):
 *
 *   KSUF(name)         the instance's name for `name` (name##_avx2, ...)
 *   KTARGET            the instance's function attributes (__attribute__((target(...))))
 *   KW                 lanes per vector: one register of the instruction set (4 AVX2, 8 AVX-512)
 *   KU                 vectors per step of the main loop
 *   KSQRT(v)           lane-wise square root of a vector KV with non-negative lanes
 *   KSPLIT(p, la, lo)  KW interleaved points at p into latitudes la and longitudes lo, in the
 *                      lane order the instance likes; KJOIN(d) puts the results in point order
 *   KALL(m)            1 if every lane of the comparison result m is true
 *
 * The algorithm is haversineDistance's (Sources/GeoLoc/Distance/Distance.swift) on the same doubles, with
 * libm's sin, cos and atan2 replaced by polynomials; the derivation is in
 * Sources/GeoLoc/Distance/HaversineKernel.swift, which holds the same algorithm in Swift SIMD. C vector
 * extensions (GCC, Clang): a vector operation on KW doubles is one instruction of the instance.
 */

#include "lanes_impl.h"

/* atan u for |u| <= tan(pi/8): u + u z Q(z), z = u^2 (minimax, relative error < 4e-17). */
KTARGET GLK_INLINE KV KSUF(atan_poly)(KV u)
{
    KV z = u * u;
    KV p = z * 0.02125984794819556 + -0.04359095652560184;
    p = p * z + 0.05692539167204337;
    p = p * z + -0.06641121231637581;
    p = p * z + 0.07690068305681871;
    p = p * z + -0.0909078241284405;
    p = p * z + 0.11111106653603102;
    p = p * z + -0.14285714195261662;
    p = p * z + 0.19999999999088958;
    p = p * z + -0.3333333333333015;
    return u + u * (z * p);
}

/* |cos x| for x in [-pi/2, pi/2]: sin(pi/2 - |x|), the subtraction exact. */
KTARGET GLK_INLINE KV KSUF(cos_half_turn)(KV x)
{
    return KSUF(sin_poly)((GLK_PIO2_HI - KSUF(vabs)(x)) + GLK_PIO2_LO);
}

/* The distances of KW pairs; lon1, lon2 in [-180, 180), c1 = cos(lat1 * pi/180). */
KTARGET GLK_INLINE KV KSUF(distance)(KV lat1, KV lon1, KV lat2, KV lon2, KV c1, double radius2)
{
    const double half_d2r = GLK_PI / 360.0;
    KV hdp = (lat2 - lat1) * half_d2r; /* [-pi/2, pi/2] */
    KV hdl = (lon2 - lon1) * half_d2r; /* (-pi, pi) */
    KV sdp = KSUF(sin_poly)(hdp);
    KV cdp = KSUF(cos_half_turn)(hdp);
    /* For |hdl| > pi/2: sin hdl = +-sin(pi - |hdl|), cos hdl = -sin(|hdl| - pi/2). */
    KV adl = KSUF(vabs)(hdl);
    KM over = adl > GLK_PIO2_HI;
    KV sdl = KSUF(sin_poly)(KSUF(sel)(over, (GLK_PI_HI - adl) + GLK_PI_LO, adl));
    KV cdl = KSUF(sin_poly)(
        KSUF(sel)(over, (adl - GLK_PIO2_HI) - GLK_PIO2_LO, (GLK_PIO2_HI - adl) + GLK_PIO2_LO));
    KV ssp = KSUF(sin_poly)((lat1 + lat2) * half_d2r);
    KV c2 = KSUF(cos_half_turn)(lat2 * (2.0 * half_d2r));
    KV h = sdp * sdp + c1 * c2 * sdl * sdl;
    KV far = cdp * cdp * cdl * cdl + ssp * ssp * sdl * sdl;
    KV c = KSUF(sel)(h > 0.5, far, 1.0 - h);
    /* alpha = atan2(sqrt h, sqrt c) from m = min(h, c), mm = max(h, c), q = sqrt(m mm). */
    KM low = h <= c;
    KV m = KSUF(sel)(low, h, c), mm = KSUF(sel)(low, c, h);
    KV q = KSQRT(KSUF(vabs)(m * mm));
    KM small = m <= mm * 0.17157287525380990; /* tan^2(pi/8) */
    KV t = KSUF(atan_poly)(KSUF(sel)(small, q, m - mm) / KSUF(sel)(small, mm, (m + mm) + 2.0 * q));
    KV zero = {0};
    KV base_hi = KSUF(sel)(small, KSUF(sel)(low, zero, zero + GLK_PIO2_HI), zero + GLK_PIO2_HI / 2);
    KV base_lo = KSUF(sel)(small, KSUF(sel)(low, zero, zero + GLK_PIO2_LO), zero + GLK_PIO2_LO / 2);
    KV alpha = base_hi + (KSUF(sel)(low, t, -t) + base_lo);
    return alpha * radius2;
}

/* Lanes outside [-180, 180) reduced as normalizedLongitude does (the others are left as they
 * are, which is what it does to them). Rare: a plain loop. */
KTARGET static KV KSUF(normalize)(KV lon)
{
    for (int j = 0; j < KW; j++)
        lon[j] = glk_normalized_longitude(lon[j]);
    return lon;
}

KTARGET GLK_INLINE KM KSUF(lon_ok)(KV lon)
{
    return (lon >= -180.0) & (lon < 180.0);
}

/* KW pairs from a and b (interleaved points) into out. */
KTARGET GLK_INLINE void KSUF(pairs_step)(const double *a, const double *b, double *out,
                                         double radius2)
{
    KV lat1, lon1, lat2, lon2;
    KSPLIT(a, lat1, lon1);
    KSPLIT(b, lat2, lon2);
    if (!KALL(KSUF(lon_ok)(lon1) & KSUF(lon_ok)(lon2))) {
        lon1 = KSUF(normalize)(lon1);
        lon2 = KSUF(normalize)(lon2);
    }
    KV c1 = KSUF(cos_half_turn)(lat1 * (2.0 * (GLK_PI / 360.0)));
    KV d = KJOIN(KSUF(distance)(lat1, lon1, lat2, lon2, c1, radius2));
    memcpy(out, &d, sizeof d);
}

KTARGET GLK_INLINE void KSUF(one_to_many_step)(KV lat1, KV lon1, KV c1, const double *p,
                                               double *out, double radius2)
{
    KV lat2, lon2;
    KSPLIT(p, lat2, lon2);
    if (!KALL(KSUF(lon_ok)(lon2)))
        lon2 = KSUF(normalize)(lon2);
    KV d = KJOIN(KSUF(distance)(lat1, lon1, lat2, lon2, c1, radius2));
    memcpy(out, &d, sizeof d);
}

KTARGET static void KSUF(pairs)(const double *a, const double *b, size_t n, double radius,
                                double *out)
{
    const double radius2 = 2.0 * radius;
    size_t i = 0;
    /* KU vectors per step: independent chains the CPU can overlap. */
    for (; n - i >= (size_t)(KW * KU); i += (size_t)(KW * KU))
        for (int u = 0; u < KU; u++)
            KSUF(pairs_step)(a + 2 * (i + (size_t)(u * KW)), b + 2 * (i + (size_t)(u * KW)),
                             out + i + (size_t)(u * KW), radius2);
    for (; n - i >= (size_t)KW; i += (size_t)KW)
        KSUF(pairs_step)(a + 2 * i, b + 2 * i, out + i, radius2);
    if (i < n) {
        /* The last n - i < KW pairs, padded with (0, 0) points. */
        size_t rest = n - i;
        double pa[2 * KW] = {0}, pb[2 * KW] = {0}, d[KW];
        memcpy(pa, a + 2 * i, rest * 2 * sizeof(double));
        memcpy(pb, b + 2 * i, rest * 2 * sizeof(double));
        KSUF(pairs_step)(pa, pb, d, radius2);
        memcpy(out + i, d, rest * sizeof(double));
    }
}

KTARGET static void KSUF(one_to_many)(double lat0, double lon0, double cos_lat0,
                                      const double *points, size_t n, double radius, double *out)
{
    const double radius2 = 2.0 * radius;
    KV zero = {0};
    KV lat1 = zero + lat0, lon1 = zero + lon0, c1 = zero + cos_lat0;
    size_t i = 0;
    for (; n - i >= (size_t)(KW * KU); i += (size_t)(KW * KU))
        for (int u = 0; u < KU; u++)
            KSUF(one_to_many_step)(lat1, lon1, c1, points + 2 * (i + (size_t)(u * KW)),
                                   out + i + (size_t)(u * KW), radius2);
    for (; n - i >= (size_t)KW; i += (size_t)KW)
        KSUF(one_to_many_step)(lat1, lon1, c1, points + 2 * i, out + i, radius2);
    if (i < n) {
        size_t rest = n - i;
        double p[2 * KW] = {0}, d[KW];
        memcpy(p, points + 2 * i, rest * 2 * sizeof(double));
        KSUF(one_to_many_step)(lat1, lon1, c1, p, d, radius2);
        memcpy(out + i, d, rest * sizeof(double));
    }
}

#undef KV
#undef KM
#undef KSUF
#undef KTARGET
#undef KW
#undef KU
#undef KSQRT
#undef KSPLIT
#undef KJOIN
#undef KALL
