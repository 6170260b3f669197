/*
 * GeoLocKernels.h -- the C kernels of libgeoloc's Swift core (module GeoLoc): code that must be
 * compiled for an instruction set above the target's baseline and chosen at run time (Swift
 * compiles a module for one instruction set only), and the atomics Swift has no portable
 * spelling for. One C file per capability, one section here per file:
 *
 *   core.c       Core      the instruction-set level of this CPU (every kernel asks it)
 *   distance.c   Distance  the batch haversine, AVX2+FMA and AVX-512F (distance_impl.h); the
 *                          Swift baseline and the derivation: Distance/HaversineKernel.swift
 *   tracking.c   Tracking  the spherical Douglas-Peucker scan and recursion, AVX2+FMA
 *                          (tracking_impl.h); the Swift baseline: Tracking/Track.swift
 *   places.c     Places    the unit vectors of places derived from their coordinates, AVX2
 *                          and AVX-512F, and a place file's whole tree derived on open (Swift
 *                          baseline: Places/PlaceFileVectors.swift, PlaceFileCheck.swift's
 *                          walk); the check of the
 *                          vectors an older place file stores, AVX2+FMA (Swift baseline:
 *                          Places/PlaceFileCheck.swift)
 *   (inline)     Places    the one-nearest search's leaf scan in single precision (the
 *                          reverse geocoder's: Places/PlaceKDTree+Nearest.swift's `LeafFloats`), in the
 *                          compiler's vector types (SSE on x86-64), and cache prefetch hints:
 *                          inline, so Swift inlines them
 *   (inline)     Core      atomic pointer slots for what is built once and then read without a
 *                          lock (Core/ShippedData.swift's OncePerProcess, the gazetteer's caches,
 *                          the zone rules): inline here, so Swift inlines them
 *   lanes_impl.h           the vector types and lane select both kernel templates include
 *
 * Internal: every symbol here is hidden (libgeoloc.so exports only geoloc_*).
 */
#ifndef GEOLOC_KERNELS_H
#define GEOLOC_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define GLK_HIDDEN __attribute__((visibility("hidden")))
#else
#define GLK_HIDDEN
#endif

/* ---- Core (core.c) ------------------------------------------------------------------------ */

/* Instruction-set levels: 0 is the target's baseline (the Swift kernel); 1 AVX2 with FMA and
 * 2 AVX-512F are x86-64 only. */
enum { GLK_LEVEL_BASELINE = 0, GLK_LEVEL_AVX2_FMA = 1, GLK_LEVEL_AVX512 = 2 };

/* The highest level this CPU and OS run (0 on targets other than x86-64). */
GLK_HIDDEN int glk_level_supported(void);

/* ---- Distance (distance.c) ---------------------------------------------------------------- */

/* out[i] = haversineDistance(a[i], b[i]) on the sphere of `radius` for i < n, at instruction-set
 * `level` lowered to glk_level_supported(). Points are interleaved degrees [lat0, lon0, lat1,
 * lon1, ...] with finite latitudes in [-90, 90] and finite longitudes, reduced to [-180, 180)
 * here as normalizedLongitude does. Any alignment; out must not overlap a or b. Returns 1, or 0
 * without touching out when that level is 0 (the caller runs the baseline). */
GLK_HIDDEN int glk_haversine_pairs(const double *a, const double *b, size_t n, double radius,
                                   double *out, int level);

/* out[i] = haversineDistance(origin, points[i]) for i < n, as glk_haversine_pairs; the origin
 * (lat0, lon0) has lon0 in [-180, 180) and cos_lat0 = cos(lat0 * (pi / 180)) from libm, as the
 * scalar function computes it. */
GLK_HIDDEN int glk_haversine_one_to_many(double lat0, double lon0, double cos_lat0,
                                         const double *points, size_t n, double radius,
                                         double *out, int level);

/* ---- Tracking (tracking.c) ---------------------------------------------------------------- */

/* The farthest-point scan of the spherical Douglas-Peucker (Sources/GeoLoc/Tracking/Track.swift)
 * over the points a .. b - 1 of the unit vectors xs, ys, zs, for the arc whose frame is
 * frame[15] = {A, B, unit normal, tangent at A, tangent back at B}: best[0], at[0] the largest
 * squared cross-track sine among points projecting inside the arc, best[1], at[1] the largest
 * squared chord to the nearer end among the others (-1, SIZE_MAX when none). Returns 1, or 0
 * without writing when `level` (lowered to glk_level_supported()) is 0. */
GLK_HIDDEN int glk_dp_farthest(const double *xs, const double *ys, const double *zs, size_t a, size_t b,
                               const double *frame, double *best, size_t *at, int level);

/* The whole spherical Douglas-Peucker over n >= 3 unit vectors at the threshold g_tol (on
 * 1 - cos(angle)), with the same recursion as Track.simplify's Swift code (AVX2 with FMA): sets
 * keep[i] = 1 for the points kept (keep must be zeroed) and returns their number; -1 without
 * writing when `level` (lowered to glk_level_supported()) is 0, n < 3 or memory runs out. */
GLK_HIDDEN long glk_dp_simplify(const double *xs, const double *ys, const double *zs, size_t n, double g_tol,
                                unsigned char *keep, int level);

/* ---- Places (places.c) ------------------------------------------------------------------- */

/* The unit-vector check of a place file (Places/PlaceFileCheck.swift, `vectorMismatch`) over n
 * places: points[4i .. 4i+3] the stored (x, y, z, cos lat) of place i, lat_lon[2i], [2i+1] its
 * degrees. Returns the first i whose vector is off its coordinates' by more than tol (x, y, z)
 * or ctol * cos lat (cos lat), or is not a number; n when none is, and then box[0..2], box[3..5]
 * are the least and greatest x, y, z of the n places (+inf, -inf when n is 0). Returns -1
 * without writing when `level` (lowered to glk_level_supported()) is 0. */
GLK_HIDDEN long glk_place_vectors(const double *points, const double *lat_lon, size_t n, double tol,
                                  double ctol, double *box, int level);

/* The unit vectors of n places (Places/PlaceFileVectors.swift, `PlaceVectors.derive`, the same
 * bits): points[4i .. 4i+3] = (cos lat cos lon, cos lat sin lon, sin lat, cos lat) of lat_lon[2i],
 * [2i+1] (degrees, checked), and box[0..2], box[3..5] the least and greatest x, y, z (n > 0);
 * every sine and cosine the polynomial's, but for libm_cos != 0 (a file of version 3): x and y
 * then take libm's cos lat. Returns 1, 3 when a latitude is not in [-90, 90] or a longitude not in
 * [-180, 180) (or either is NaN), or 0 without writing when `level` (lowered to
 * glk_level_supported()) is 0. */
GLK_HIDDEN int glk_place_derive(const double *lat_lon, size_t n, double *points, double *box, int libm_cos,
                                int level);

/* What opening a place file of version 3 or 4 derives, in one call (Places/PlaceFile.swift; the
 * Swift walk it replaces, and keeps as the baseline: PlaceFileCheck.tree): the n places of
 * lat_lon (tree order) in the implicit tree of `depth` levels of internal nodes (2^depth leaves;
 * node [lo, hi) splits at lo + (hi - lo) / 2; node k's children 2k + 1 and 2k + 2; dims[k] its
 * split dimension, any above 2 read as 2) give
 *   points[4p .. 4p+3]   glk_place_derive's vector of the place at position p, leaf by leaf,
 *   gaps[2k], [2k + 1]   node k's left half's greatest and right half's least point along its
 *                        dimension (the boxes' union taken as Swift.min and Swift.max take it),
 *   box[0..5]            the least and greatest x, y, z of all points.
 * Returns 0 without a meaningful write when `level` (lowered to glk_level_supported()) is 0, n is
 * 0 or memory runs out (the caller runs the Swift walk); else 1 with these bits for what the
 * caller must refuse: */
enum {
    GLK_DERIVE_OUTSIDE = 2, /* a latitude not in [-90, 90] or a longitude not in [-180, 180), or NaN */
    GLK_DERIVE_OVERLAP = 4  /* a node whose halves overlap along its dimension (or a NaN bound) */
};

GLK_HIDDEN int glk_place_derive_tree(const double *lat_lon, size_t n, unsigned depth, const unsigned char *dims,
                                     double *points, double *gaps, double *box, int libm_cos, int level);

/* ---- Places (inline) ---------------------------------------------------------------------- */

#if defined(__GNUC__) || defined(__clang__)
/* Four floats and four 32-bit integers: GCC's and Clang's vector types (SSE registers on x86-64,
 * NEON on arm64). */
typedef float glk_f4 __attribute__((vector_size(16)));
typedef int32_t glk_i4 __attribute__((vector_size(16)));

/* The lanes' least (no NaN). */
static inline glk_f4 glk_min4(glk_f4 a, glk_f4 b)
{
#if defined(__SSE__)
    return __builtin_ia32_minps(a, b);
#else
    const glk_i4 less = a < b;
    return (glk_f4)(((glk_i4)a & less) | ((glk_i4)b & ~less));
#endif
}

/* The squared chords in single precision from (qx, qy, qz) to points i..i+3 of a leaf of m
 * whose floats are block[i] (x), block[m + i] (y) and block[2m + i] (z). */
static inline glk_f4 glk_leaf_chords4(const float *block, long m, long i, glk_f4 vx, glk_f4 vy, glk_f4 vz)
{
    glk_f4 x, y, z;
    __builtin_memcpy(&x, block + i, sizeof x);
    __builtin_memcpy(&y, block + m + i, sizeof y);
    __builtin_memcpy(&z, block + 2 * m + i, sizeof z);
    const glk_f4 dx = vx - x, dy = vy - y, dz = vz - z;
    return dx * dx + dy * dy + dz * dz;
}

/* The squared chords in single precision from (qx, qy, qz) to the m points (1 <= m <= 64) of a
 * leaf whose floats are block[i] (x), block[m + i] (y) and block[2m + i] (z), each as
 * ((qx - x)² + (qy - y)²) + (qz - z)² (a target with fused multiply-adds may fuse, which rounds
 * less), into chords[0, m rounded up to 4) (+inf past m); returns their least. block is read up
 * to 3 floats past block[3m - 1] (the caller's copy is padded). */
static inline float glk_leaf_chords(const float *block, long m, float qx, float qy, float qz, float *chords)
{
    const glk_f4 vx = {qx, qx, qx, qx}, vy = {qy, qy, qy, qy}, vz = {qz, qz, qz, qz};
    const float inf = __builtin_inff();
    glk_f4 low = {inf, inf, inf, inf};
    long i = 0;
    for (; i + 4 <= m; i += 4) {
        const glk_f4 c = glk_leaf_chords4(block, m, i, vx, vy, vz);
        __builtin_memcpy(chords + i, &c, sizeof c);
        low = glk_min4(low, c);
    }
    if (i < m) {
        const int32_t left = (int32_t)(m - i);
        const glk_i4 inside = (glk_i4){0, 1, 2, 3} < (glk_i4){left, left, left, left};
        const glk_f4 all = {inf, inf, inf, inf};
        const glk_f4 c = (glk_f4)(((glk_i4)glk_leaf_chords4(block, m, i, vx, vy, vz) & inside) | ((glk_i4)all & ~inside));
        __builtin_memcpy(chords + i, &c, sizeof c);
        low = glk_min4(low, c);
    }
    const float a = low[0] < low[1] ? low[0] : low[1], b = low[2] < low[3] ? low[2] : low[3];
    return a < b ? a : b;
}

/* Asks for the cache lines of bytes [p, p + n) to be loaded (a hint; it reads nothing). */
static inline void glk_prefetch(const void *p, long n)
{
    const char *a = (const char *)((uintptr_t)p & ~(uintptr_t)63), *end = (const char *)p + n;
    for (; a < end; a += 64)
        __builtin_prefetch(a);
}

/* Bit i of the result for each of chords[0, m) as glk_leaf_chords leaves them (m <= 64) that
 * is at most `limit`. */
static inline uint64_t glk_leaf_near(const float *chords, long m, float limit)
{
    const glk_f4 lim = {limit, limit, limit, limit};
    uint64_t near = 0;
    for (long i = 0; i < m; i += 4) {
        glk_f4 c;
        __builtin_memcpy(&c, chords + i, sizeof c);
        const glk_i4 in = c <= lim;
#if defined(__SSE__)
        const uint64_t bits = (uint32_t)__builtin_ia32_movmskps((glk_f4)in);
#else
        const glk_i4 w = in & (glk_i4){1, 2, 4, 8};
        const uint64_t bits = (uint32_t)(w[0] | w[1] | w[2] | w[3]);
#endif
        near |= bits << i;
    }
    return near;
}
#endif

/* ---- Core (inline) ------------------------------------------------------------------------ */

/* Atomic pointer slots for what many threads build lazily at once (Core/ShippedData.swift's
 * OncePerProcess, the gazetteer's texts in Geocoding/GazetteerText.swift): the load acquires,
 * and glk_publish stores `value` into an empty (NULL) slot with release order and returns 1, or
 * returns 0 and leaves the slot as another thread filled it. Inline, so that Swift code inlines
 * them too. */
static inline void *glk_load_acquire(void *const *slot)
{
    return __atomic_load_n(slot, __ATOMIC_ACQUIRE);
}

static inline int glk_publish(void **slot, void *value)
{
    void *expected = NULL;
    return __atomic_compare_exchange_n(slot, &expected, value, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

#ifdef __cplusplus
}
#endif

#endif
