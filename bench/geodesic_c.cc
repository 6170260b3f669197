/*
 * geodesic_c.cc -- the C/C++ rows of the geodesic (WGS84) benchmark: nanoseconds per pair for
 * GeographicLib's C++ Geodesic::Inverse (the reference) and libgeoloc's WGS84 entry points, on
 * the same pairs as distance_c.c (the same splitmix64 stream and seed), so that the rows line up
 * with bench/run's table.
 *
 *   usage: geodesic_c [N [REPS]]      (defaults: N = 1000000, REPS = 5)
 *
 * Output, one line per row, tab-separated (lines starting with '#' are comments), the format of
 * distance_c.c:
 *   name  ns_per_pair  max_rel_diff  n
 * ns_per_pair is the best of REPS timed runs (after one untimed warm-up run) divided by n.
 * max_rel_diff is max |d - ref| / max(ref, 1 m) over the n distances, where ref is
 * GeographicLib::Geodesic::WGS84().Inverse on the same pair ("nan" when GeographicLib is absent).
 *
 * Rows:
 *   cpp.geographiclib_inverse    Geodesic::WGS84().Inverse(lat1, lon1, lat2, lon2, s12) in a loop
 *                                (built only with -DHAVE_GEOGRAPHICLIB; else a '#' line says so)
 *   c.geoloc_distance_wgs84      geoloc_distance(a[i], b[i], GEOLOC_MODEL_WGS84, METERS, &out[i])
 *   c.geoloc_distance_pairs_wgs84  one geoloc_distance_pairs(a, b, n, GEOLOC_MODEL_WGS84, ...) call
 *   c.geoloc_geodesic_inverse    geoloc_geodesic_inverse(a[i], b[i], &out[i], NULL, NULL)
 * The full inverse problem (distance and both azimuths) and the direct problem, in batches:
 *   cpp.geographiclib_inverse_azi  Geodesic::WGS84().Inverse(lat1, lon1, lat2, lon2, s12, azi1,
 *                                azi2) in a loop (the reference of the next row)
 *   c.geoloc_geodesic_inverse_many  one geoloc_geodesic_inverse_many(a, b, n, s, azi1, azi2) call
 *   cpp.geographiclib_direct     Geodesic::WGS84().Direct(lat1, lon1, azi1, s12, lat2, lon2,
 *                                azi2) in a loop (the reference of the next row)
 *   c.geoloc_geodesic_direct_many  one geoloc_geodesic_direct_many(start, azi1, s12, n, end,
 *                                azi2) call
 * The direct rows start at a[i] with azimuth b[i].lon and length (b[i].lat + 90) / 180 * 2e7 m;
 * their max_rel_diff is the largest difference of lat2 or lon2 (degrees, longitudes modulo 360)
 * from GeographicLib's.
 * A libgeoloc row is replaced by a '#' line saying it is pending when the library answers
 * GEOLOC_E_UNSUPPORTED or lacks the function (geoloc_geodesic_inverse is looked up with dlsym,
 * so this program links against libraries that predate it).
 */
#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "geoloc.h"

#ifdef HAVE_GEOGRAPHICLIB
#include <GeographicLib/Constants.hpp>
#include <GeographicLib/Geodesic.hpp>
#endif

namespace {

const uint64_t kSeed = UINT64_C(0x67656f6c6f63); /* "geoloc", as distance_c.c */

/* The i-th value (i >= 0) of the splitmix64 stream seeded with `seed` (as distance_c.c). */
uint64_t splitmix64_at(uint64_t seed, uint64_t i)
{
    uint64_t z = seed + (i + 1) * UINT64_C(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

double uniform_at(uint64_t i)
{
    return (double)(splitmix64_at(kSeed, i) >> 11) * 0x1.0p-53;
}

/* Pair k takes stream values 4k..4k+3: a.lat, a.lon, b.lat, b.lon (as distance_c.c). */
void make_points(size_t n, geoloc_coord *a, geoloc_coord *b)
{
    const double r2d = 180.0 / 3.14159265358979323846;
    for (size_t k = 0; k < n; k++) {
        uint64_t s = 4 * (uint64_t)k;
        a[k].lat = std::asin(2.0 * uniform_at(s) - 1.0) * r2d;
        a[k].lon = 360.0 * uniform_at(s + 1) - 180.0;
        b[k].lat = std::asin(2.0 * uniform_at(s + 2) - 1.0) * r2d;
        b[k].lon = 360.0 * uniform_at(s + 3) - 180.0;
    }
}

double now_ns()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Best of `reps` timed runs of fn() after one warm-up run, in ns per pair. */
template <class F> double time_row(F fn, size_t n, int reps)
{
    fn();
    double best = INFINITY;
    for (int r = 0; r < reps; r++) {
        double t0 = now_ns();
        fn();
        double t = now_ns() - t0;
        if (t < best)
            best = t;
    }
    return best / (double)n;
}

double max_rel_diff(const std::vector<double> &x, const std::vector<double> &ref)
{
    if (ref.empty())
        return NAN;
    double worst = 0.0;
    for (size_t i = 0; i < x.size(); i++) {
        double d = std::fabs(x[i] - ref[i]) / std::fmax(std::fabs(ref[i]), 1.0);
        if (!(d <= worst))
            worst = d;
    }
    return worst;
}

void emit(const char *name, double ns, double diff, size_t n)
{
    std::printf("%s\t%.3f\t%.3e\t%zu\n", name, ns, diff, n);
    std::fflush(stdout);
}

void pending(const char *name, const char *why)
{
    std::printf("# %s: pending (%s)\n", name, why);
    std::fflush(stdout);
}

size_t parse_count(const char *s, const char *what)
{
    char *end;
    unsigned long long v = std::strtoull(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v == 0 || v > (unsigned long long)GEOLOC_MAX_COUNT) {
        std::fprintf(stderr, "geodesic_c: %s must be a whole number from 1 to %zu, not \"%s\"\n",
                     what, (size_t)GEOLOC_MAX_COUNT, s);
        std::exit(2);
    }
    return (size_t)v;
}

} // namespace

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? parse_count(argv[1], "N") : 1000000;
    int reps = argc > 2 ? (int)parse_count(argv[2], "REPS") : 5;
    if (argc > 3) {
        std::fprintf(stderr, "usage: geodesic_c [N [REPS]]\n");
        return 2;
    }
    std::vector<geoloc_coord> a(n), b(n);
    make_points(n, a.data(), b.data());
    std::vector<double> ref, out(n, 0.0);

    std::printf("# libgeoloc %s (header %s)\n", geoloc_version(), GEOLOC_VERSION_STRING);
#ifdef HAVE_GEOGRAPHICLIB
    std::printf("# GeographicLib %s (C++)\n", GEOGRAPHICLIB_VERSION_STRING);
#endif
    std::printf("# n %zu reps %d\n", n, reps);

    /* 1. GeographicLib C++: the reference. */
#ifdef HAVE_GEOGRAPHICLIB
    {
        const GeographicLib::Geodesic &g = GeographicLib::Geodesic::WGS84();
        ref.assign(n, 0.0);
        double ns = time_row(
            [&] {
                for (size_t i = 0; i < n; i++) {
                    double s12;
                    g.Inverse(a[i].lat, a[i].lon, b[i].lat, b[i].lon, s12);
                    ref[i] = s12;
                }
            },
            n, reps);
        emit("cpp.geographiclib_inverse", ns, 0.0, n);
    }
#else
    std::printf("# cpp.geographiclib_inverse: skipped (built without GeographicLib: install "
                "libgeographiclib-dev); the libgeoloc rows have no reference (nan)\n");
#endif

    /* 2. geoloc_distance with GEOLOC_MODEL_WGS84, one call per pair. */
    {
        double probe;
        geoloc_status st =
            geoloc_distance(a[0], b[0], GEOLOC_MODEL_WGS84, GEOLOC_UNIT_METERS, &probe);
        if (st == GEOLOC_OK) {
            int bad = 0;
            double ns = time_row(
                [&] {
                    for (size_t i = 0; i < n; i++)
                        bad |= geoloc_distance(a[i], b[i], GEOLOC_MODEL_WGS84, GEOLOC_UNIT_METERS,
                                               &out[i]);
                },
                n, reps);
            if (bad)
                std::printf("# c.geoloc_distance_wgs84: some calls failed: %s\n",
                            geoloc_last_error());
            emit("c.geoloc_distance_wgs84", ns, max_rel_diff(out, ref), n);
        } else if (st == GEOLOC_E_UNSUPPORTED) {
            pending("c.geoloc_distance_wgs84", "geoloc_distance answers GEOLOC_E_UNSUPPORTED for "
                                               "GEOLOC_MODEL_WGS84");
        } else {
            std::printf("# c.geoloc_distance_wgs84: failed: %s (%s)\n",
                        geoloc_status_string(st), geoloc_last_error());
        }
    }

    /* 3. geoloc_distance_pairs with GEOLOC_MODEL_WGS84: one call for all n pairs. */
    {
        double probe;
        geoloc_status st = geoloc_distance_pairs(a.data(), b.data(), 1, GEOLOC_MODEL_WGS84,
                                                 GEOLOC_UNIT_METERS, &probe);
        if (st == GEOLOC_OK) {
            geoloc_status last = GEOLOC_OK;
            double ns = time_row(
                [&] {
                    last = geoloc_distance_pairs(a.data(), b.data(), n, GEOLOC_MODEL_WGS84,
                                                 GEOLOC_UNIT_METERS, out.data());
                },
                n, reps);
            if (last != GEOLOC_OK)
                std::printf("# c.geoloc_distance_pairs_wgs84: failed: %s\n", geoloc_last_error());
            emit("c.geoloc_distance_pairs_wgs84", ns, max_rel_diff(out, ref), n);
        } else if (st == GEOLOC_E_UNSUPPORTED) {
            pending("c.geoloc_distance_pairs_wgs84",
                    "geoloc_distance_pairs answers GEOLOC_E_UNSUPPORTED for GEOLOC_MODEL_WGS84");
        } else {
            std::printf("# c.geoloc_distance_pairs_wgs84: failed: %s (%s)\n",
                        geoloc_status_string(st), geoloc_last_error());
        }
    }

    /* 4. geoloc_geodesic_inverse (distance only), found with dlsym. */
    {
        auto inverse = reinterpret_cast<decltype(&geoloc_geodesic_inverse)>(
            dlsym(RTLD_DEFAULT, "geoloc_geodesic_inverse"));
        double probe;
        geoloc_status st = inverse ? inverse(a[0], b[0], &probe, nullptr, nullptr) : GEOLOC_OK;
        if (!inverse) {
            pending("c.geoloc_geodesic_inverse", "libgeoloc has no geoloc_geodesic_inverse yet");
        } else if (st == GEOLOC_E_UNSUPPORTED) {
            pending("c.geoloc_geodesic_inverse", "it answers GEOLOC_E_UNSUPPORTED");
        } else if (st != GEOLOC_OK) {
            std::printf("# c.geoloc_geodesic_inverse: failed: %s (%s)\n",
                        geoloc_status_string(st), geoloc_last_error());
        } else {
            int bad = 0;
            double ns = time_row(
                [&] {
                    for (size_t i = 0; i < n; i++)
                        bad |= inverse(a[i], b[i], &out[i], nullptr, nullptr);
                },
                n, reps);
            if (bad)
                std::printf("# c.geoloc_geodesic_inverse: some calls failed: %s\n",
                            geoloc_last_error());
            emit("c.geoloc_geodesic_inverse", ns, max_rel_diff(out, ref), n);
#ifdef HAVE_GEOGRAPHICLIB
            /* The azimuths too (untimed): the largest difference from GeographicLib's, in
             * degrees, over pairs that are not nearly antipodal (where the azimuth of the
             * shortest path is ill-conditioned). */
            const GeographicLib::Geodesic &g = GeographicLib::Geodesic::WGS84();
            double worst1 = 0, worst2 = 0;
            size_t counted = 0;
            for (size_t i = 0; i < n; i++) {
                double s, az1, az2, gs, gaz1, gaz2;
                if (inverse(a[i], b[i], &s, &az1, &az2) != GEOLOC_OK)
                    continue;
                g.Inverse(a[i].lat, a[i].lon, b[i].lat, b[i].lon, gs, gaz1, gaz2);
                if (gs > 19.9e6)
                    continue;
                double d1 = std::fabs(std::remainder(az1 - gaz1, 360.0));
                double d2 = std::fabs(std::remainder(az2 - gaz2, 360.0));
                worst1 = std::fmax(worst1, d1);
                worst2 = std::fmax(worst2, d2);
                counted++;
            }
            std::printf("# c.geoloc_geodesic_inverse: azimuths vs GeographicLib over %zu pairs "
                        "shorter than 19,900 km: max |azi1 diff| %.3e deg, max |azi2 diff| "
                        "%.3e deg\n",
                        counted, worst1, worst2);
#endif
        }
    }

    /* 5. The full inverse problem in one batch, beside GeographicLib with the azimuths. */
    auto inverse_many = reinterpret_cast<decltype(&geoloc_geodesic_inverse_many)>(
        dlsym(RTLD_DEFAULT, "geoloc_geodesic_inverse_many"));
    auto direct_many = reinterpret_cast<decltype(&geoloc_geodesic_direct_many)>(
        dlsym(RTLD_DEFAULT, "geoloc_geodesic_direct_many"));
    std::vector<double> az1(n), az2(n);
#ifdef HAVE_GEOGRAPHICLIB
    {
        const GeographicLib::Geodesic &g = GeographicLib::Geodesic::WGS84();
        double ns = time_row(
            [&] {
                for (size_t i = 0; i < n; i++)
                    g.Inverse(a[i].lat, a[i].lon, b[i].lat, b[i].lon, ref[i], az1[i], az2[i]);
            },
            n, reps);
        emit("cpp.geographiclib_inverse_azi", ns, 0.0, n);
    }
#endif
    if (!inverse_many) {
        pending("c.geoloc_geodesic_inverse_many", "libgeoloc has no geoloc_geodesic_inverse_many");
    } else {
        geoloc_status last = GEOLOC_OK;
        double ns = time_row(
            [&] { last = inverse_many(a.data(), b.data(), n, out.data(), az1.data(), az2.data()); },
            n, reps);
        if (last != GEOLOC_OK)
            std::printf("# c.geoloc_geodesic_inverse_many: failed: %s\n", geoloc_last_error());
        emit("c.geoloc_geodesic_inverse_many", ns, max_rel_diff(out, ref), n);
    }

    /* 6. The direct problem: GeographicLib in a loop, libgeoloc in one batch. */
    {
        std::vector<double> azi(n), len(n), dlat(n), dlon(n), dazi(n);
        std::vector<geoloc_coord> end(n);
        for (size_t i = 0; i < n; i++) {
            azi[i] = b[i].lon;
            len[i] = (b[i].lat + 90) / 180 * 2e7;
        }
        bool have_ref = false;
#ifdef HAVE_GEOGRAPHICLIB
        {
            const GeographicLib::Geodesic &g = GeographicLib::Geodesic::WGS84();
            double ns = time_row(
                [&] {
                    for (size_t i = 0; i < n; i++)
                        g.Direct(a[i].lat, a[i].lon, azi[i], len[i], dlat[i], dlon[i], dazi[i]);
                },
                n, reps);
            emit("cpp.geographiclib_direct", ns, 0.0, n);
            have_ref = true;
        }
#endif
        if (!direct_many) {
            pending("c.geoloc_geodesic_direct_many", "libgeoloc has no geoloc_geodesic_direct_many");
        } else {
            geoloc_status last = GEOLOC_OK;
            double ns = time_row(
                [&] { last = direct_many(a.data(), azi.data(), len.data(), n, end.data(), az2.data()); },
                n, reps);
            if (last != GEOLOC_OK)
                std::printf("# c.geoloc_geodesic_direct_many: failed: %s\n", geoloc_last_error());
            double worst = have_ref ? 0.0 : NAN;
            for (size_t i = 0; have_ref && i < n; i++) {
                worst = std::fmax(worst, std::fabs(end[i].lat - dlat[i]));
                if (std::fabs(dlat[i]) < 89.999999)
                    worst = std::fmax(worst, std::fabs(std::remainder(end[i].lon - dlon[i], 360.0)));
            }
            emit("c.geoloc_geodesic_direct_many", ns, worst, n);
        }
    }
    return 0;
}
