/*
 * test_time.c -- the C door of time.
 *
 * The zone at a point, on the shipped time-zone map: the golden table tests/golden/
 * timezones.tsv (borders picked from the data, the antimeridian, the poles and the sea, checked
 * against timezonefinder's full-precision answers); batches, names, the nautical offset, every
 * class of bad argument, forged files.
 *
 * Local time: every zone at every transition of 1970-2037 and the hour around it, the far past
 * and the far future, against Python's zoneinfo on the same IANA release (tests/time/
 * zoneinfo.txt, from tools/gen_time_cases.py), with the local fields checked against the C
 * library's gmtime_r; the gaps and folds of every transition read back; New York, London, Lord
 * Howe, Tehran, Santiago, Chatham and Casablanca by hand; text; TZif files from memory (made
 * here, every prefix of one, leap seconds); bad arguments; threads.
 *
 * Local time at a point: real places (tests/time/places.txt, from tools/gen_time_place_cases.py:
 * New York, Kolkata, Kathmandu, Lord Howe, Chatham, the open sea...) against zoneinfo, both
 * sides of each transition of 2026; every zone of the map has rules; the buffer contract.
 *
 * CTest runs it with GEOLOC_ZONEINFO=none (the machine has no /usr/share/zoneinfo as far as the
 * library knows, and the shipped rules answer) and GEOLOC_TIMEZONES naming the map of the tree.
 *   test_time [TESTS_TIME_DIR [GOLDEN_DIR]]   (defaults: tests/time and tests/golden of this tree)
 *   test_time threads TESTS_TIME_DIR          (only the local-time threads, for a race detector)
 */
#include "golden.h"
#include <unistd.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "common.h"

#ifndef GEOLOC_TIME_TESTS_DIR
#define GEOLOC_TIME_TESTS_DIR "tests/time"
#endif
#ifndef GEOLOC_GOLDEN_DIR
#define GEOLOC_GOLDEN_DIR "tests/golden"
#endif

/* ------------------------------------------------------------------------------------------
 * Local time: the zoneinfo table
 * ------------------------------------------------------------------------------------------ */

typedef struct state {
    int64_t t;
    int32_t offset;
    int dst;
    char abbr[16];
} state;

typedef struct zone {
    char name[64];
    state *states; /* states[0]: at 1970-01-01T00:00Z; then each transition */
    size_t n_states;
    state *samples;
    size_t n_samples;
} zone;

#define END_2037 INT64_C(2145916800)

static zone *zones;
static size_t n_zones;
static char (*links)[2][64];
static size_t n_links;

static void *grow(void *p, size_t n, size_t size)
{
    /* Capacities are powers of two: grow when n reaches one. */
    if (n == 0 || (n & (n - 1)) == 0) {
        p = realloc(p, (n == 0 ? 1 : 2 * n) * size);
        if (p == NULL) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
    }
    return p;
}

static int read_table(const char *dir)
{
    char path[1024], line[256];
    snprintf(path, sizeof path, "%s/zoneinfo.txt", dir);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "cannot read %s\n", path);
        return 0;
    }
    while (fgets(line, sizeof line, f)) {
        state s;
        char a[64], b[64];
        if (line[0] == 'Z' && sscanf(line, "Z %63s", a) == 1) {
            zones = grow(zones, n_zones, sizeof *zones);
            memset(&zones[n_zones], 0, sizeof *zones);
            snprintf(zones[n_zones].name, sizeof zones[n_zones].name, "%s", a);
            n_zones++;
        } else if ((line[0] == 'S' || line[0] == 'P') &&
                   sscanf(line + 2, "%" SCNd64 " %" SCNd32 " %d %15s", &s.t, &s.offset, &s.dst, s.abbr) == 4) {
            zone *z = &zones[n_zones - 1];
            if (line[0] == 'S') {
                z->states = grow(z->states, z->n_states, sizeof s);
                z->states[z->n_states++] = s;
            } else {
                z->samples = grow(z->samples, z->n_samples, sizeof s);
                z->samples[z->n_samples++] = s;
            }
        } else if (line[0] == 'L' && sscanf(line, "L %63s %63s", a, b) == 2) {
            links = grow(links, n_links, sizeof *links);
            snprintf(links[n_links][0], 64, "%s", a);
            snprintf(links[n_links][1], 64, "%s", b);
            n_links++;
        }
    }
    fclose(f);
    return n_zones > 0;
}

static const state *state_at(const zone *z, int64_t t)
{
    size_t k = 0;
    while (k + 1 < z->n_states && z->states[k + 1].t <= t) k++;
    return &z->states[k];
}

/* The UTC fields of t by the C library: year, month, day, hour, minute, second, ISO weekday,
 * day of year. */
static void utc_fields(int64_t t, int32_t f[8])
{
    time_t tt = (time_t)t;
    struct tm tm;
    gmtime_r(&tt, &tm);
    f[0] = tm.tm_year + 1900;
    f[1] = tm.tm_mon + 1;
    f[2] = tm.tm_mday;
    f[3] = tm.tm_hour;
    f[4] = tm.tm_min;
    f[5] = tm.tm_sec;
    f[6] = tm.tm_wday == 0 ? 7 : tm.tm_wday;
    f[7] = tm.tm_yday + 1;
}

static int same_as(const geoloc_local_time *lt, int64_t t, const state *want)
{
    int32_t f[8];
    utc_fields(t + want->offset, f);
    return lt->instant == t && lt->utc_offset_s == want->offset && lt->is_dst == (want->dst != 0) &&
           strcmp(lt->abbreviation, want->abbr) == 0 && lt->year == f[0] && lt->month == f[1] &&
           lt->day == f[2] && lt->hour == f[3] && lt->minute == f[4] && lt->second == f[5] &&
           lt->weekday == f[6] && lt->day_of_year == f[7];
}

static geoloc_local_date_time local_fields(int64_t local)
{
    int32_t f[8];
    utc_fields(local, f);
    geoloc_local_date_time l = {f[0], f[1], f[2], f[3], f[4], f[5]};
    return l;
}

static void test_zoneinfo_table(void)
{
    static const int64_t around[] = {-3600, -1800, -1, 0, 1, 1800, 3599};
    size_t checked = 0, resolved = 0;
    CHECK(n_zones == 345);
    for (size_t zi = 0; zi < n_zones; zi++) {
        const zone *z = &zones[zi];
        /* Every instant around every transition, in one batch call. */
        size_t n = 0, cap = z->n_states * 7 + z->n_samples;
        double *times = malloc(cap * sizeof *times);
        const state **want = malloc(cap * sizeof *want);
        geoloc_local_time *out = malloc(cap * sizeof *out);
        for (size_t k = 0; k < z->n_states; k++) {
            for (size_t d = 0; d < COUNT_OF(around); d++) {
                int64_t t = z->states[k].t + around[d];
                if (t < 0 || t >= END_2037) continue;
                times[n] = (double)t;
                want[n++] = state_at(z, t);
            }
        }
        for (size_t k = 0; k < z->n_samples; k++) {
            times[n] = (double)z->samples[k].t;
            want[n++] = &z->samples[k];
        }
        if (CHECK_OK(geoloc_local_times(z->name, times, n, out))) {
            for (size_t i = 0; i < n; i++) {
                if (!CHECK(same_as(&out[i], (int64_t)times[i], want[i]))) {
                    fprintf(stderr, "    %s at %.0f: %d %d %s, zoneinfo %d %d %s\n", z->name, times[i],
                            out[i].utc_offset_s, out[i].is_dst, out[i].abbreviation, want[i]->offset,
                            want[i]->dst, want[i]->abbr);
                }
                checked++;
            }
        }
        free(times);
        free(want);
        free(out);
        /* One instant at a time too: the transitions themselves and the next one after each. */
        for (size_t k = 1; k < z->n_states; k++) {
            geoloc_local_time before, at;
            int64_t t = z->states[k].t;
            CHECK_OK(geoloc_local_time_at(z->name, t - 1, &before));
            CHECK_OK(geoloc_local_time_at(z->name, t, &at));
            CHECK(before.next_transition == t);
            CHECK(same_as(&at, t, &z->states[k]) && same_as(&before, t - 1, &z->states[k - 1]));
            if (k + 1 < z->n_states) {
                CHECK(at.next_transition == z->states[k + 1].t);
            } else {
                CHECK(at.next_transition >= END_2037);
            }
            /* The gap or fold reads back as zoneinfo's fold=0 and fold=1. */
            int64_t ob = z->states[k - 1].offset, oa = z->states[k].offset;
            if (ob == oa) continue;
            int64_t lo = t + (ob < oa ? ob : oa), hi = t + (ob < oa ? oa : ob) - 1;
            int64_t locals[3] = {lo, (lo + hi) / 2, hi};
            for (int j = 0; j < 3; j++) {
                geoloc_local_date_time l = local_fields(locals[j]);
                geoloc_local_instants r;
                if (!CHECK_OK(geoloc_local_time_resolve(z->name, &l, &r))) continue;
                CHECK(r.kind == (oa > ob ? GEOLOC_LOCAL_SKIPPED : GEOLOC_LOCAL_AMBIGUOUS));
                CHECK(r.before == locals[j] - ob && r.after == locals[j] - oa && r.transition == t);
                CHECK(r.offset_before_s == ob && r.offset_after_s == oa);
                resolved++;
            }
        }
    }
    /* Links answer as their zones. */
    for (size_t i = 0; i < n_links; i++) {
        const zone *z = NULL;
        for (size_t k = 0; k < n_zones && z == NULL; k++) {
            if (strcmp(zones[k].name, links[i][1]) == 0) z = &zones[k];
        }
        if (!CHECK(z != NULL)) continue;
        for (size_t k = 0; k < z->n_states; k++) {
            geoloc_local_time lt;
            CHECK(geoloc_local_time_at(links[i][0], z->states[k].t, &lt) == GEOLOC_OK &&
                  same_as(&lt, z->states[k].t, &z->states[k]));
        }
    }
    CHECK(checked > 100000 && resolved > 10000);
    printf("zoneinfo table: %zu zones, %zu links, %zu instants and %zu local times checked\n", n_zones, n_links,
           checked, resolved);
}

/* ------------------------------------------------------------------------------------------
 * Local time: by hand
 * ------------------------------------------------------------------------------------------ */

static void check_text(const char *zone, int64_t t, geoloc_time_style style, const char *want)
{
    char buf[64];
    size_t needed;
    if (CHECK_OK(geoloc_local_time_text(zone, t, style, buf, sizeof buf, &needed))) CHECK_STR(buf, want);
}

static void test_cities(void)
{
    geoloc_local_time lt;
    geoloc_local_instants r;
    /* New York, 2026: 02:00 EST -> 03:00 EDT on March 8, 02:00 EDT -> 01:00 EST on November 1. */
    check_text("America/New_York", INT64_C(1772953199), GEOLOC_TIME_SECONDS, "2026-03-08 01:59:59 EST");
    check_text("America/New_York", INT64_C(1772953200), GEOLOC_TIME_ISO8601, "2026-03-08T03:00:00-04:00");
    CHECK_OK(geoloc_local_time_at("America/New_York", INT64_C(1772953200), &lt));
    CHECK(lt.is_dst && lt.weekday == 7 && lt.day_of_year == 67 && lt.next_transition == INT64_C(1793512800));
    geoloc_local_date_time gap = {2026, 3, 8, 2, 30, 0}, fold = {2026, 11, 1, 1, 30, 0}, once = {2026, 11, 24, 9, 5, 0};
    CHECK_OK(geoloc_local_time_resolve("America/New_York", &gap, &r));
    CHECK(r.kind == GEOLOC_LOCAL_SKIPPED && r.before == INT64_C(1772955000) && r.after == INT64_C(1772951400) &&
          r.transition == INT64_C(1772953200) && r.offset_before_s == -18000 && r.offset_after_s == -14400);
    CHECK_OK(geoloc_local_time_resolve("America/New_York", &fold, &r));
    CHECK(r.kind == GEOLOC_LOCAL_AMBIGUOUS && r.before == INT64_C(1793511000) && r.after == INT64_C(1793514600));
    CHECK_OK(geoloc_local_time_resolve("America/New_York", &once, &r));
    CHECK(r.kind == GEOLOC_LOCAL_UNIQUE && r.before == INT64_C(1795529100) && r.after == r.before && r.transition == 0);
    /* The far past and far future. */
    check_text("America/New_York", INT64_C(-5364619200), GEOLOC_TIME_ISO8601, "1800-01-01T07:03:58-04:56:02");
    check_text("America/New_York", GEOLOC_TIME_MAX, GEOLOC_TIME_SECONDS, "9999-12-31 18:59:59 EST");
    CHECK_OK(geoloc_local_time_at("America/New_York", GEOLOC_TIME_MAX, &lt));
    CHECK(lt.next_transition == INT64_MAX);
    check_text("America/New_York", INT64_C(32516769600), GEOLOC_TIME_MINUTES, "3000-06-01 08:00 EDT");
    /* London. */
    check_text("Europe/London", INT64_C(1774745999), GEOLOC_TIME_SECONDS, "2026-03-29 00:59:59 GMT");
    check_text("Europe/London", INT64_C(1774746000), GEOLOC_TIME_SECONDS, "2026-03-29 02:00:00 BST");
    check_text("Europe/London", INT64_C(1792890000), GEOLOC_TIME_SECONDS, "2026-10-25 01:00:00 GMT");
    /* Lord Howe: thirty minutes of daylight saving time. */
    check_text("Australia/Lord_Howe", INT64_C(1775314799), GEOLOC_TIME_ISO8601, "2026-04-05T01:59:59+11:00");
    check_text("Australia/Lord_Howe", INT64_C(1775314800), GEOLOC_TIME_MINUTES, "2026-04-05 01:30 +1030");
    geoloc_local_date_time howe = {2026, 4, 5, 1, 45, 0};
    CHECK_OK(geoloc_local_time_resolve("Australia/Lord_Howe", &howe, &r));
    CHECK(r.kind == GEOLOC_LOCAL_AMBIGUOUS && r.after - r.before == 1800);
    /* Tehran: +0330, daylight saving time until 2022. */
    check_text("Asia/Tehran", INT64_C(1616358600), GEOLOC_TIME_MINUTES, "2021-03-22 01:00 +0430");
    check_text("Asia/Tehran", INT64_C(1795550709), GEOLOC_TIME_MINUTES, "2026-11-24 23:35 +0330");
    CHECK_OK(geoloc_local_time_at("Asia/Tehran", INT64_C(1795550709), &lt));
    CHECK(lt.next_transition == INT64_MAX && !lt.is_dst);
    /* Santiago: at midnight between Saturday and Sunday. */
    check_text("America/Santiago", INT64_C(1775357999), GEOLOC_TIME_SECONDS, "2026-04-04 23:59:59 -03");
    check_text("America/Santiago", INT64_C(1775358000), GEOLOC_TIME_SECONDS, "2026-04-04 23:00:00 -04");
    check_text("America/Santiago", INT64_C(1788667200), GEOLOC_TIME_SECONDS, "2026-09-06 01:00:00 -03");
    /* Chatham: +1245 and +1345. */
    check_text("Pacific/Chatham", INT64_C(1790431199), GEOLOC_TIME_SECONDS, "2026-09-27 02:44:59 +1245");
    check_text("Pacific/Chatham", INT64_C(1790431200), GEOLOC_TIME_SECONDS, "2026-09-27 03:45:00 +1345");
    /* Casablanca: Ramadan at +00, marked as daylight saving time. */
    check_text("Africa/Casablanca", INT64_C(1771120800), GEOLOC_TIME_SECONDS, "2026-02-15 02:00:00 +00");
    CHECK_OK(geoloc_local_time_at("Africa/Casablanca", INT64_C(1771120800), &lt));
    CHECK(lt.is_dst && lt.utc_offset_s == 0);
    /* Chicago, and the styles. */
    check_text("America/Chicago", INT64_C(1795550709), GEOLOC_TIME_MINUTES, "2026-11-24 14:05 CST");
    check_text("America/Chicago", INT64_C(1795550709), GEOLOC_TIME_12_HOUR, "2:05 PM CST");
    check_text("america/chicago", INT64_C(1795550709), GEOLOC_TIME_ISO8601, "2026-11-24T14:05:09-06:00");
    check_text("UTC", 0, GEOLOC_TIME_ISO8601, "1970-01-01T00:00:00+00:00");
    check_text("Pacific/Kiritimati", GEOLOC_TIME_MAX, GEOLOC_TIME_MINUTES, "10000-01-01 13:59 +14");
}

static geoloc_status text_call_chicago(const void *ctx, char *buf, size_t cap, size_t *needed)
{
    (void)ctx;
    return geoloc_local_time_text("America/Chicago", INT64_C(1795550709), GEOLOC_TIME_MINUTES, buf, cap, needed);
}

static geoloc_status text_call_version(const void *ctx, char *buf, size_t cap, size_t *needed)
{
    (void)ctx;
    return geoloc_tzdata_version(buf, cap, needed);
}

static void test_database(void)
{
    char buf[256];
    size_t needed = 0;
    CHECK_TEXT_CONTRACT(text_call_chicago, NULL, GEOLOC_OK, "2026-11-24 14:05 CST");
    /* No system directory (GEOLOC_ZONEINFO=none under CTest): the shipped release. */
    CHECK_TEXT_CONTRACT(text_call_version, NULL, GEOLOC_OK, "2026f");
    if (CHECK_OK(geoloc_tzdata_source(buf, sizeof buf, &needed))) {
        CHECK(needed > 15 && strcmp(buf + needed - 15, "zoneinfo.rules") == 0);
    }
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_time_zone_names(NULL, 0, &needed));
    char *names = malloc(needed);
    if (CHECK_OK(geoloc_time_zone_names(names, needed, &needed))) {
        size_t lines = 0;
        for (char *p = names; *p; p++) lines += *p == '\n';
        CHECK(lines == 598);
        CHECK(strstr(names, "\nAmerica/Chicago\n") != NULL && strstr(names, "\nUS/Central\n") != NULL);
        CHECK(strncmp(names, "Africa/Abidjan\n", 15) == 0);
    }
    free(names);
}

static void test_bad_arguments(void)
{
    geoloc_local_time lt;
    geoloc_local_instants r;
    char buf[64];
    size_t needed;
    double times[3] = {0, NAN, 1};
    geoloc_local_date_time ok = {2026, 1, 1, 0, 0, 0};
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_local_time_at(NULL, 0, &lt));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_local_time_at("UTC", 0, NULL));
    for (size_t i = 0; i < COUNT_OF(BAD_UTF8); i++) CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_local_time_at(BAD_UTF8[i], 0, &lt));
    static const char *const not_names[] = {"", "../../etc/passwd", "/etc/passwd", "America//Chicago", "America/",
                                            "a/./b", "-x", "a b", "Europe/Paris\n"};
    for (size_t i = 0; i < COUNT_OF(not_names); i++) {
        CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_local_time_at(not_names[i], 0, &lt));
    }
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_local_time_at("Mars/Olympus_Mons", 0, &lt));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_local_time_at("UTC", GEOLOC_TIME_MAX + 1, &lt));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_local_time_at("UTC", GEOLOC_TIME_MIN - 1, &lt));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_local_time_at("UTC", INT64_MIN, &lt));
    CHECK_OK(geoloc_local_time_at("UTC", GEOLOC_TIME_MIN, &lt));
    CHECK(lt.year == 1 && lt.month == 1 && lt.day == 1 && lt.weekday == 1);
    /* Batches: counts, pointers, a NaN named by its index, nothing written on failure. */
    CHECK_OK(geoloc_local_times("UTC", NULL, 0, NULL));
    for (size_t i = 0; i < COUNT_OF(HUGE_COUNTS); i++) CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_local_times("UTC", times, HUGE_COUNTS[i], &lt));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_local_times("UTC", NULL, 1, &lt));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_local_times("UTC", times, 1, NULL));
    geoloc_local_time three[3];
    memset(three, 0x5A, sizeof three);
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_local_times("UTC", times, 3, three));
    CHECK(strstr(geoloc_last_error(), "times[1]") != NULL && three[0].instant == 0x5A5A5A5A5A5A5A5A);
    times[1] = 1e300;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_local_times("UTC", times, 3, three));
    times[1] = -0.5;
    CHECK_OK(geoloc_local_times("UTC", times, 3, three));
    CHECK(three[1].instant == -1 && three[1].year == 1969 && three[2].instant == 1);
    /* Text. */
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_local_time_text("UTC", 0, (geoloc_time_style)4, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_local_time_text("Nowhere/Land", 0, GEOLOC_TIME_MINUTES, buf, sizeof buf, &needed));
    /* Local times: every field's range. */
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_local_time_resolve("UTC", NULL, &r));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_local_time_resolve("UTC", &ok, NULL));
    geoloc_local_date_time bad[] = {{0, 1, 1, 0, 0, 0},    {10000, 1, 1, 0, 0, 0}, {2026, 13, 1, 0, 0, 0},
                                    {2026, 2, 29, 0, 0, 0}, {2026, 4, 31, 0, 0, 0}, {2026, 1, 1, 24, 0, 0},
                                    {2026, 1, 1, 0, 60, 0}, {2026, 1, 1, 0, 0, 60}, {2026, 1, 1, -1, 0, 0}};
    for (size_t i = 0; i < COUNT_OF(bad); i++) CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_local_time_resolve("UTC", &bad[i], &r));
    geoloc_local_date_time leap = {2028, 2, 29, 12, 0, 0};
    CHECK_OK(geoloc_local_time_resolve("UTC", &leap, &r));
    CHECK(r.kind == GEOLOC_LOCAL_UNIQUE && r.before == INT64_C(1835438400));
    /* A local time whose instant is before the year 1 UTC. */
    geoloc_local_date_time first = {1, 1, 1, 0, 0, 0};
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_local_time_resolve("Asia/Tokyo", &first, &r));
}

/* ------------------------------------------------------------------------------------------
 * TZif files in memory
 * ------------------------------------------------------------------------------------------ */

static size_t put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
    return 4;
}

/* A version 2 file: Chicago's rules since 2007 (an empty version 1 block, two transitions,
 * CST6CDT in the footer). Returns its size. */
static size_t make_tzif(unsigned char *out, char version)
{
    size_t n = 0;
    static const char head[] = "TZif";
    for (int block = 0; block < 2; block++) {
        memcpy(out + n, head, 4);
        out[n + 4] = (unsigned char)version;
        memset(out + n + 5, 0, 15);
        n += 20;
        n += put32(out + n, 0);
        n += put32(out + n, 0);
        n += put32(out + n, 0);
        n += put32(out + n, block ? 2 : 0);
        n += put32(out + n, block ? 2 : 1);
        n += put32(out + n, block ? 8 : 1);
        if (!block) {
            memset(out + n, 0, 7);
            n += 7;
        }
    }
    int64_t times[2] = {INT64_C(1173600000), INT64_C(1194159600)}; /* 2007-03-11T08:00Z, 2007-11-04T07:00Z */
    for (int k = 0; k < 2; k++) {
        n += put32(out + n, (uint32_t)((uint64_t)times[k] >> 32));
        n += put32(out + n, (uint32_t)times[k]);
    }
    out[n++] = 1;
    out[n++] = 0;
    n += put32(out + n, (uint32_t)-21600);
    out[n++] = 0;
    out[n++] = 0;
    n += put32(out + n, (uint32_t)-18000);
    out[n++] = 1;
    out[n++] = 4;
    memcpy(out + n, "CST\0CDT\0", 8);
    n += 8;
    static const char footer[] = "\nCST6CDT,M3.2.0,M11.1.0\n";
    memcpy(out + n, footer, sizeof footer - 1);
    return n + sizeof footer - 1;
}

static void test_tzif(void)
{
    unsigned char file[256];
    geoloc_local_time lt;
    size_t n = make_tzif(file, '2');
    CHECK_OK(geoloc_tzif_local_time(file, n, INT64_C(1795550709), &lt));
    CHECK(lt.utc_offset_s == -21600 && strcmp(lt.abbreviation, "CST") == 0 && lt.hour == 14 && lt.minute == 5);
    CHECK(lt.next_transition == INT64_C(1805011200)); /* 2027-03-14T08:00Z */
    CHECK_OK(geoloc_tzif_local_time(file, n, INT64_C(1180000000), &lt));
    CHECK(lt.is_dst && strcmp(lt.abbreviation, "CDT") == 0);
    /* Before the first transition: type 0. */
    CHECK_OK(geoloc_tzif_local_time(file, n, 0, &lt));
    CHECK(strcmp(lt.abbreviation, "CST") == 0 && lt.next_transition == INT64_C(1173600000));
    n = make_tzif(file, '4');
    CHECK_OK(geoloc_tzif_local_time(file, n, INT64_C(1795550709), &lt));
    /* Every prefix is refused; so are bytes after the footer and an unknown version. */
    for (size_t k = 0; k < n; k++) CHECK_ERR(GEOLOC_E_PARSE, geoloc_tzif_local_time(file, k, 0, &lt));
    file[n] = '\n';
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_tzif_local_time(file, n + 1, 0, &lt));
    n = make_tzif(file, 'x');
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_tzif_local_time(file, n, 0, &lt));
    /* Any one byte changed: an answer or a status with a message, never a crash. */
    n = make_tzif(file, '2');
    for (size_t k = 0; k < n; k++) {
        for (int bit = 0; bit < 8; bit++) {
            file[k] ^= (unsigned char)(1 << bit);
            geoloc_status st = geoloc_tzif_local_time(file, n, INT64_C(1795550709), &lt);
            CHECK(st == GEOLOC_OK || ((st == GEOLOC_E_PARSE || st == GEOLOC_E_UNSUPPORTED) && geoloc_last_error()[0] != 0));
            file[k] ^= (unsigned char)(1 << bit);
        }
    }
    /* A leap-second record: well formed, but not Unix time. */
    unsigned char leap[300];
    size_t m = make_tzif(file, '2');
    size_t second_header = 44 + 7, tail = second_header + 44 + 2 * 8 + 2 + 12 + 8;
    memcpy(leap, file, tail);
    put32(leap + second_header + 28, 1);
    memset(leap + tail, 0, 12);
    leap[tail + 11] = 1;
    memcpy(leap + tail + 12, file + tail, m - tail);
    CHECK_ERR(GEOLOC_E_UNSUPPORTED, geoloc_tzif_local_time(leap, m + 12, 0, &lt));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_tzif_local_time(NULL, 0, 0, &lt));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_tzif_local_time(file, n, 0, NULL));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_tzif_local_time(file, (size_t)-1, 0, &lt));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_tzif_local_time(file, n, INT64_MAX, &lt));
}

/* ------------------------------------------------------------------------------------------
 * Threads: zones read for the first time from several threads at once
 * ------------------------------------------------------------------------------------------ */

/* test_time threads DIR: only this part, three instants a zone (for a race detector; helgrind
 * cannot see the acquire/release publication of each zone's rules and reports every first read). */
static size_t states_per_thread = SIZE_MAX;

static void *thread_body(void *arg)
{
    size_t start = (size_t)arg;
    long bad = 0;
    for (size_t k = 0; k < n_zones; k++) {
        const zone *z = &zones[(start + k) % n_zones];
        for (size_t j = 0; j < z->n_states && j < states_per_thread; j++) {
            geoloc_local_time lt;
            if (geoloc_local_time_at(z->name, z->states[j].t, &lt) != GEOLOC_OK || !same_as(&lt, z->states[j].t, &z->states[j])) bad++;
        }
    }
    return (void *)bad;
}

static void test_threads(void)
{
    pthread_t threads[4];
    for (size_t i = 0; i < 4; i++) pthread_create(&threads[i], NULL, thread_body, (void *)(i * 37));
    for (size_t i = 0; i < 4; i++) {
        void *bad;
        pthread_join(threads[i], &bad);
        CHECK(bad == NULL);
    }
}

/* ---------------------------------------------------------------------------------------------
 * The zone at a point
 * ------------------------------------------------------------------------------------------- */

static geoloc_timezones *tzmap; /* the shipped map */

static void row_timezone(char **f)
{
    geoloc_coord c = {number(f[1]), number(f[2])};
    geoloc_timezone tz = {0, false, 0};
    char name[128];
    size_t needed = 0;
    uint16_t id = 0;

    if (row_bad_value || tzmap == NULL) return;
    if (!CHECK_OK(geoloc_timezone_at(tzmap, c, &tz))) return;
    if (CHECK_OK(geoloc_timezones_name(tzmap, tz.zone, name, sizeof name, &needed))) {
        ROW_CHECK_STR(name, f[3]);
    }
    if (f[4] != NULL && f[4][0] != '\0') {
        CHECK(tz.nautical);
        CHECK(tz.utc_offset_hours == integer(f[4]));
    } else {
        CHECK(!tz.nautical);
        CHECK(tz.utc_offset_hours == 0);
    }
    CHECK_OK(geoloc_timezone_name_at(tzmap, c, name, sizeof name, &needed));
    ROW_CHECK_STR(name, f[3]);
    CHECK_OK(geoloc_timezones_find(tzmap, f[3], &id));
    CHECK(id == tz.zone);
}

static void test_timezone_calls(void)
{
    geoloc_timezones *other = NULL;
    geoloc_timezone tz = {0, false, 0};
    char buf[64];
    size_t needed = 0, count = 0;
    uint16_t id = 0, many[6];
    const geoloc_coord points[6] = {
        {41.8781, -87.6298}, {43.8256, 87.6168}, {30.0, -40.0}, {0.0, 75.0}, {-90.0, 0.0}, {51.5074, -0.1278},
    };
    const char *want[6] = {"America/Chicago", "Asia/Urumqi", "Etc/GMT+3", "Etc/GMT-5", "Antarctica/McMurdo",
                           "Europe/London"};
    int i;

    if (!CHECK_OK(geoloc_timezones_open(NULL, &tzmap))) return;
    CHECK_OK(geoloc_timezones_count(tzmap, &count));
    CHECK(count == 444);
    CHECK_OK(geoloc_timezones_version(tzmap, buf, sizeof buf, &needed));
    CHECK_STR(buf, "2026c");
    /* The shipped map is shared: a second handle is the same map. */
    if (CHECK_OK(geoloc_timezones_open(NULL, &other))) geoloc_timezones_destroy(other);

    /* Many points in one call, each as the one-point call gives it. */
    CHECK_OK(geoloc_timezone_at_many(tzmap, points, 6, many));
    for (i = 0; i < 6; i++) {
        CHECK_OK(geoloc_timezone_at(tzmap, points[i], &tz));
        CHECK(many[i] == tz.zone);
        CHECK_OK(geoloc_timezones_name(tzmap, many[i], buf, sizeof buf, &needed));
        CHECK_STR(buf, want[i]);
    }
    CHECK_OK(geoloc_timezone_at_many(tzmap, NULL, 0, NULL));

    /* The sign of the nautical tzmap: Etc/GMT-5 is UTC+5. */
    CHECK_OK(geoloc_timezone_at(tzmap, (geoloc_coord){0.0, 75.0}, &tz));
    CHECK(tz.nautical && tz.utc_offset_hours == 5);
    CHECK_OK(geoloc_timezone_at(tzmap, (geoloc_coord){-10.0, -105.0}, &tz));
    CHECK(tz.nautical && tz.utc_offset_hours == -7);
    CHECK_OK(geoloc_timezones_name(tzmap, tz.zone, buf, sizeof buf, &needed));
    CHECK_STR(buf, "Etc/GMT+7");
    /* Longitudes beyond [-180, 180) are reduced: 360 + x is x. */
    CHECK_OK(geoloc_timezone_name_at(tzmap, (geoloc_coord){41.8781, 272.3702}, buf, sizeof buf, &needed));
    CHECK_STR(buf, "America/Chicago");

    /* Names and numbers. */
    CHECK_OK(geoloc_timezones_find(tzmap, "Europe/Berlin", &id));
    CHECK_OK(geoloc_timezones_name(tzmap, id, buf, sizeof buf, &needed));
    CHECK_STR(buf, "Europe/Berlin");
    CHECK(needed == strlen("Europe/Berlin") + 1);
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_timezones_find(tzmap, "Europe/Nowhere", &id));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_timezones_find(tzmap, "europe/berlin", &id));
    CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_timezones_find(tzmap, "\xff", &id));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_timezones_name(tzmap, (uint16_t)count, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_timezones_name(tzmap, id, buf, 4, &needed));
    CHECK(buf[0] == '\0' && needed == 14);
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_timezones_name(tzmap, id, NULL, 0, &needed));

    /* Bad arguments. */
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_timezones_open(NULL, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_timezone_at(NULL, points[0], &tz));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_timezone_at(tzmap, points[0], NULL));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_timezone_at(tzmap, (geoloc_coord){NAN, 0}, &tz));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_timezone_at(tzmap, (geoloc_coord){0, INFINITY}, &tz));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_timezone_at(tzmap, (geoloc_coord){90.5, 0}, &tz));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_timezone_at_many(tzmap, NULL, 1, many));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_timezone_at_many(tzmap, points, 1, NULL));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_timezone_at_many(tzmap, points, (size_t)-1, many));
    {
        geoloc_coord bad[3] = {{1, 1}, {2, 2}, {-91, 0}};
        uint16_t out[3] = {7, 7, 7};
        CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_timezone_at_many(tzmap, bad, 3, out));
        CHECK(strstr(geoloc_last_error(), "points[2]") != NULL);
        CHECK(out[0] == 7 && out[1] == 7 && out[2] == 7); /* nothing written */
    }
    /* A handle of another kind is refused, not read as a map. */
    {
        geoloc_gazetteer *g = NULL;
        if (getenv("GEOLOC_GAZETTEER") && CHECK_OK(geoloc_gazetteer_open(NULL, &g))) {
            CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_timezone_at((const geoloc_timezones *)g, points[0], &tz));
            geoloc_gazetteer_destroy(g);
        }
    }
}

/* Writes `len` bytes to a new temporary file and returns its name (static buffer). */
static const char *temp_file(const void *bytes, size_t len)
{
    static char name[64];
    FILE *f;
    snprintf(name, sizeof name, "/tmp/geoloc-test-tz-%ld", (long)getpid());
    f = fopen(name, "wb");
    if (f == NULL) return NULL;
    fwrite(bytes, 1, len, f);
    fclose(f);
    return name;
}

/* The checksums of a time-zone map (Sources/GeoLoc/Core/MappedFile.swift, DataFileChecksum, and
 * TimeZoneFile.blockChecksum), to reseal a forged map as a forger would. */
static uint64_t sum_step(uint64_t lane, uint64_t word)
{
    uint64_t x = (lane ^ word) * UINT64_C(0x9FB21C651E98DF25);
    return x ^ (x >> 32);
}

static uint64_t le64(const unsigned char *p)
{
    uint64_t v = 0;
    int i;
    for (i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static void put64(unsigned char *p, uint64_t v)
{
    int i;
    for (i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* Over `n` bytes, a multiple of 32; `seed` xored into the lanes; bytes 120..127 read as zero when
 * `header`. */
static uint64_t map_checksum(const unsigned char *p, size_t n, uint64_t seed, int header)
{
    uint64_t lane[4] = {UINT64_C(0x243F6A8885A308D3), UINT64_C(0x13198A2E03707344), UINT64_C(0xA4093822299F31D0),
                        UINT64_C(0x082EFA98EC4E6C89)};
    uint64_t h;
    size_t i;
    int k;
    for (k = 0; k < 4; k++) lane[k] ^= seed;
    for (i = 0; i < n; i += 32)
        for (k = 0; k < 4; k++) lane[k] = sum_step(lane[k], header && i + 8 * k == 120 ? 0 : le64(p + i + 8 * k));
    h = sum_step((uint64_t)n, lane[0]);
    h = sum_step(h, lane[1]);
    h = sum_step(h, lane[2]);
    h = sum_step(h, lane[3]);
    return sum_step(h, UINT64_C(0x5851F42D4C957F2D));
}

/* Where the root grid, the blocks' checksums and the leaf section of a map start (the format at
 * the top of Sources/GeoLoc/Time/TimeZoneFile.swift: sections 64-byte aligned, the leaves at a
 * multiple of 4096). */
static void map_layout(const unsigned char *map, size_t *root, size_t *sums, size_t *leaves)
{
#define ALIGN64(v) (((v) + 63) / 64 * 64)
    size_t z = map[20] | (size_t)map[21] << 8, cols = map[24] | (size_t)map[25] << 8;
    size_t rows = map[28] | (size_t)map[29] << 8, nodes = (size_t)le64(map + 40);
    size_t blocks = (size_t)((le64(map + 48) + 8 + 4095) / 4096);
    size_t at = ALIGN64(128 + 8 * z);
    at = ALIGN64(at + (size_t)le64(map + 56));
    at = ALIGN64(at + (size_t)le64(map + 64));
    *root = at;
    at = ALIGN64(at + 4 * cols * rows);
    at = ALIGN64(at + 40 * nodes);
    *sums = at;
    *leaves = (at + 8 * blocks + 4095) / 4096 * 4096;
#undef ALIGN64
}

/* Reseals block `b` of the leaf section and then the file (everything before the leaves). */
static void reseal_map(unsigned char *map, size_t b)
{
    size_t root, sums, leaves;
    map_layout(map, &root, &sums, &leaves);
    put64(map + sums + 8 * b, map_checksum(map + leaves + 4096 * b, 4096, (uint64_t)b, 0));
    put64(map + 120, map_checksum(map, leaves, 0, 1));
}

/* `n` (at most 32) bits of a leaf record's bit stream at bit `pos`, least significant first. */
static uint32_t leaf_bits(const unsigned char *p, size_t pos, unsigned n)
{
    uint32_t v = 0;
    unsigned i;
    for (i = 0; i < n; i++) v |= (uint32_t)(p[(pos + i) >> 3] >> ((pos + i) & 7) & 1) << i;
    return v;
}

/* A map forged and resealed: the checksums pass, the leaf records do not. The first leaf record
 * (byte 0 of the leaf section) belongs to the first root cell that is a leaf: its first zone
 * number is made 511 (the map has 444 zones). Opening succeeds (the index is sound); a lookup
 * in that cell fails with a parse error naming the zone, one elsewhere still answers. */
static void test_timezone_forged(const char *shipped)
{
    FILE *f = fopen(shipped, "rb");
    unsigned char *map;
    long size;
    size_t blocks, leaves, root, k, cols, cell = SIZE_MAX;
    unsigned char b0, b1;
    geoloc_timezones *t = NULL;
    geoloc_timezone tz;
    geoloc_coord c;
    const char *path;

    if (!CHECK(f != NULL)) return;
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    rewind(f);
    map = malloc((size_t)size);
    if (!CHECK(map != NULL && fread(map, 1, (size_t)size, f) == (size_t)size)) {
        fclose(f);
        free(map);
        return;
    }
    fclose(f);
    {
        size_t sums;
        map_layout(map, &root, &sums, &leaves);
        blocks = ((size_t)size - leaves) / 4096;
        CHECK(leaves + 4096 * blocks == (size_t)size);
    }
    cols = map[24] | (size_t)map[25] << 8;
    for (k = 0; k < cols * (size_t)(map[28] | map[29] << 8); k++) {
        uint32_t e = (uint32_t)le64(map + root + 4 * k);
        if (e >> 30 == 2) {
            cell = k;
            CHECK((e & 0x3FFFFFFF) == 0);
            break;
        }
    }
    if (!CHECK(cell != SIZE_MAX)) {
        free(map);
        return;
    }
    /* The middle of that root cell (2^24 units of 1e-7 degree). */
    c.lon = ((double)((cell % cols) << 24) + 8388608.0 - 1.8e9) * 1e-7;
    c.lat = ((double)((cell / cols) << 24) + 8388608.0 - 9e8) * 1e-7;
    b0 = map[leaves];
    b1 = map[leaves + 1];
    map[leaves] |= 0xC0;
    map[leaves + 1] |= 0x7F;
    reseal_map(map, 0);
    path = temp_file(map, (size_t)size);
    if (CHECK_OK(geoloc_timezones_open(path, &t))) {
        CHECK_ERR(GEOLOC_E_PARSE, geoloc_timezone_at(t, c, &tz));
        CHECK(strstr(geoloc_last_error(), "zone 511") != NULL);
        CHECK_ERR(GEOLOC_E_PARSE, geoloc_timezone_at(t, c, &tz)); /* and again: never OK */
        CHECK_OK(geoloc_timezone_at(t, (geoloc_coord){0.0, -30.0}, &tz)); /* the Atlantic: untouched */
        geoloc_timezones_destroy(t);
    }
    /* The same byte changed without resealing the block: its checksum. */
    map[leaves + 1] ^= 0x80;
    path = temp_file(map, (size_t)size);
    if (CHECK_OK(geoloc_timezones_open(path, &t))) {
        CHECK_ERR(GEOLOC_E_PARSE, geoloc_timezone_at(t, c, &tz));
        CHECK(strstr(geoloc_last_error(), "checksum") != NULL);
        geoloc_timezones_destroy(t);
    }
    /* One zone swapped for another on the east side: the record's first crossing (a root cell's
     * record: 24 bits of row, then its mask) flips another zone set, a valid one, resealed. Every
     * field is in range; the crossings no longer match the record's edges. */
    map[leaves] = b0;
    map[leaves + 1] = b1;
    {
        size_t zb = map[104], nz = (size_t)(map[leaves] & 63) + 1;
        size_t at = 6 + nz * zb + nz;
        if (CHECK(leaf_bits(map + leaves, at, 5) >= 1)) {
            at += 5 + 24; /* the first crossing's mask */
            map[leaves + at / 8] ^= (unsigned char)(1u << (at % 8));
            reseal_map(map, 0);
            path = temp_file(map, (size_t)size);
            if (CHECK_OK(geoloc_timezones_open(path, &t))) {
                CHECK_ERR(GEOLOC_E_PARSE, geoloc_timezone_at(t, c, &tz));
                CHECK(strstr(geoloc_last_error(), "east-side crossings do not match") != NULL);
                CHECK_ERR(GEOLOC_E_PARSE, geoloc_timezone_at(t, c, &tz));
                CHECK_OK(geoloc_timezone_at(t, (geoloc_coord){0.0, -30.0}, &tz));
                geoloc_timezones_destroy(t);
            }
        }
    }
    unlink(path);
    free(map);
}

static void test_timezone_files(void)
{
    geoloc_timezones *t = NULL;
    const char *path;
    const char *shipped = getenv("GEOLOC_TIMEZONES");
    unsigned char head[256];
    FILE *f;
    size_t got;

    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_timezones_open("/nonexistent/timezones.tzmap", &t));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_timezones_open("/tmp", &t));
    CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_timezones_open("\xff", &t));
    path = temp_file("GEOLOCTZ", 8);
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_timezones_open(path, &t));
    {
        static const char not_a_map[] =
            "hello, world: not a map at all, but long enough to hold a header of 128 bytes, "
            "......................................................";
        path = temp_file(not_a_map, sizeof not_a_map - 1);
    }
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_timezones_open(path, &t));
    CHECK(strstr(geoloc_last_error(), "not a libgeoloc time-zone map") != NULL);
    if (shipped == NULL || (f = fopen(shipped, "rb")) == NULL) {
        CHECK(shipped != NULL);
        return;
    }
    got = fread(head, 1, sizeof head, f);
    fclose(f);
    CHECK(got == sizeof head);
    /* A truncated map (its first 256 bytes), a newer version, a changed byte. */
    path = temp_file(head, sizeof head);
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_timezones_open(path, &t));
    CHECK(strstr(geoloc_last_error(), "truncated") != NULL);
    head[8] = 9;
    path = temp_file(head, sizeof head);
    CHECK_ERR(GEOLOC_E_UNSUPPORTED, geoloc_timezones_open(path, &t));
    /* Version 1 (before the borders were checked a block at a time) is refused: rebuild it. */
    head[8] = 1;
    path = temp_file(head, sizeof head);
    CHECK_ERR(GEOLOC_E_UNSUPPORTED, geoloc_timezones_open(path, &t));
    CHECK(strstr(geoloc_last_error(), "gen_timezones") != NULL);
    CHECK(strstr(geoloc_last_error(), "time-zone map version 1 is a format this library no longer reads") != NULL);
    head[8] = 2;
    /* A map written big-endian (its byte-order mark reversed): unsupported, as every data file. */
    memcpy(head + 12, "\x01\x02\x03\x04", 4);
    path = temp_file(head, sizeof head);
    CHECK_ERR(GEOLOC_E_UNSUPPORTED, geoloc_timezones_open(path, &t));
    CHECK(strstr(geoloc_last_error(), "the time-zone map is big-endian") != NULL);
    memcpy(head + 12, "\x04\x03\x02\x01", 4);
    head[100] ^= 1;
    path = temp_file(head, sizeof head);
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_timezones_open(path, &t));
    unlink(path);
    test_timezone_forged(shipped);
    /* The shipped file by its path. */
    if (CHECK_OK(geoloc_timezones_open(shipped, &t))) {
        geoloc_timezone tz;
        CHECK_OK(geoloc_timezone_at(t, (geoloc_coord){52.52, 13.405}, &tz));
        geoloc_timezones_destroy(t);
        CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_timezone_at(t, (geoloc_coord){52.52, 13.405}, &tz));
    }
}

/* ------------------------------------------------------------------------------------------
 * Local time at a point: the zone here on the shipped map, then its rules
 * ------------------------------------------------------------------------------------------ */

/* tests/time/places.txt (tools/gen_time_place_cases.py): real places, their zone and zoneinfo's
 * local time there at instants of 2026, both sides of each transition. */
static void test_places_table(const char *dir)
{
    char path[1024], line[512];
    FILE *f;
    size_t rows = 0;

    snprintf(path, sizeof path, "%s/places.txt", dir);
    f = fopen(path, "r");
    if (!CHECK(f != NULL)) return;
    while (fgets(line, sizeof line, f) != NULL) {
        char *field[17], *p = line, *tab;
        int k = 0;
        geoloc_local_time lt, direct;
        char zone[64];
        size_t needed = 0;
        geoloc_coord c;
        int64_t t;

        if (line[0] == '#' || line[0] == '\n') continue;
        line[strcspn(line, "\n")] = '\0';
        while (k < 17) {
            field[k++] = p;
            if ((tab = strchr(p, '\t')) == NULL) break;
            *tab = '\0';
            p = tab + 1;
        }
        if (!CHECK(k == 17)) continue;
        rows++;
        c.lat = strtod(field[1], NULL);
        c.lon = strtod(field[2], NULL);
        t = strtoll(field[4], NULL, 10);
        memset(&lt, 0x5A, sizeof lt);
        if (!CHECK_OK(geoloc_local_time_at_point(NULL, c, t, &lt, zone, sizeof zone, &needed))) continue;
        if (!CHECK_STR(zone, field[3])) fprintf(stderr, "  at %s\n", field[0]);
        CHECK(needed == strlen(field[3]) + 1);
        if (!CHECK(lt.instant == t && lt.utc_offset_s == atoi(field[5]) && lt.is_dst == (atoi(field[6]) != 0) &&
                   strcmp(lt.abbreviation, field[7]) == 0 && lt.year == atoi(field[8]) && lt.month == atoi(field[9]) &&
                   lt.day == atoi(field[10]) && lt.hour == atoi(field[11]) && lt.minute == atoi(field[12]) &&
                   lt.second == atoi(field[13]) && lt.weekday == atoi(field[14]) && lt.day_of_year == atoi(field[15]) &&
                   (field[16][0] == '?' || lt.next_transition == strtoll(field[16], NULL, 10))))
            fprintf(stderr, "  %s at %s: %d %s %04d-%02d-%02d %02d:%02d:%02d\n", field[0], field[4], lt.utc_offset_s,
                    lt.abbreviation, lt.year, lt.month, lt.day, lt.hour, lt.minute, lt.second);
        /* The same as the zone's own local time. */
        if (CHECK_OK(geoloc_local_time_at(zone, t, &direct))) CHECK(memcmp(&direct, &lt, sizeof lt) == 0);
    }
    fclose(f);
    CHECK(rows >= 80);
}

static void test_local_time_at_point(const char *dir)
{
    geoloc_timezones *map = NULL;
    geoloc_local_time lt, before;
    char zone[64], name[64];
    size_t needed = 0, count = 0, z;
    const geoloc_coord kathmandu = {27.717245, 85.323961};
    const int64_t t = INT64_C(1795550709); /* 2026-11-24T20:05:09Z */

    test_places_table(dir);

    /* A map handle answers as the shipped map does. */
    if (!CHECK_OK(geoloc_timezones_open(NULL, &map))) return;
    CHECK_OK(geoloc_local_time_at_point(map, kathmandu, t, &lt, zone, sizeof zone, &needed));
    CHECK_STR(zone, "Asia/Kathmandu");
    CHECK(lt.utc_offset_s == 5 * 3600 + 45 * 60 && lt.hour == 1 && lt.minute == 50 && lt.day == 25);
    /* At sea: Etc/GMT+10 is ten hours behind UTC. */
    CHECK_OK(geoloc_local_time_at_point(map, (geoloc_coord){0.0, -150.0}, t, &lt, zone, sizeof zone, &needed));
    CHECK_STR(zone, "Etc/GMT+10");
    CHECK(lt.utc_offset_s == -36000 && strcmp(lt.abbreviation, "-10") == 0 && lt.hour == 10);
    /* Both sides of the date line: Etc/GMT-12 west of it (looked up at 180), Etc/GMT+12 east. */
    CHECK_OK(geoloc_local_time_at_point(map, (geoloc_coord){-5.0, 179.9}, t, &lt, zone, sizeof zone, &needed));
    CHECK_STR(zone, "Etc/GMT-12");
    CHECK(lt.utc_offset_s == 12 * 3600);
    CHECK_OK(geoloc_local_time_at_point(map, (geoloc_coord){-5.0, -179.9}, t, &lt, zone, sizeof zone, &needed));
    CHECK_STR(zone, "Etc/GMT+12");
    CHECK(lt.utc_offset_s == -12 * 3600);

    /* Every zone of the map has rules (the map's boundary release against the rules' IANA one). */
    CHECK_OK(geoloc_timezones_count(map, &count));
    for (z = 0; z < count; z++) {
        if (!CHECK_OK(geoloc_timezones_name(map, (uint16_t)z, name, sizeof name, &needed))) continue;
        if (!CHECK_OK(geoloc_local_time_at(name, t, &lt))) fprintf(stderr, "  no rules for %s\n", name);
    }

    /* The buffer contract: nothing written to out unless the name fits; the size alone. */
    memset(&before, 0x5A, sizeof before);
    lt = before;
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_local_time_at_point(map, kathmandu, t, &lt, zone, 5, &needed));
    CHECK(needed == strlen("Asia/Kathmandu") + 1 && zone[0] == '\0' && memcmp(&lt, &before, sizeof lt) == 0);
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_local_time_at_point(map, kathmandu, t, &lt, NULL, 0, &needed));
    CHECK(needed == 15 && memcmp(&lt, &before, sizeof lt) == 0);

    /* Bad arguments. */
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_local_time_at_point(map, kathmandu, t, NULL, zone, sizeof zone, &needed));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_local_time_at_point(map, kathmandu, t, &lt, zone, sizeof zone, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_local_time_at_point(map, kathmandu, t, &lt, NULL, 8, &needed));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_local_time_at_point(map, (geoloc_coord){NAN, 0}, t, &lt, zone, sizeof zone, &needed));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_local_time_at_point(map, (geoloc_coord){-90.5, 0}, t, &lt, zone, sizeof zone, &needed));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_local_time_at_point(map, kathmandu, GEOLOC_TIME_MAX + 1, &lt, zone, sizeof zone, &needed));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_local_time_at_point(NULL, kathmandu, INT64_MIN, &lt, zone, sizeof zone, &needed));
    CHECK(memcmp(&lt, &before, sizeof lt) == 0);
    {
        geoloc_gazetteer *g = NULL;
        if (getenv("GEOLOC_GAZETTEER") && CHECK_OK(geoloc_gazetteer_open(NULL, &g))) {
            CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_local_time_at_point((const geoloc_timezones *)g, kathmandu, t,
                                                                           &lt, zone, sizeof zone, &needed));
            geoloc_gazetteer_destroy(g);
        }
    }
    geoloc_timezones_destroy(map);
}

/* ------------------------------------------------------------------------------------------
 * Beside the other capabilities: the zones of a reverse geocode; local times at many points
 * ------------------------------------------------------------------------------------------ */

static geoloc_gazetteer *lz_gazetteer;
static const geoloc_places *lz_places;
static geoloc_timezones *lz_map;
static int lz_rows, lz_differ, lz_geonames;

/* Field by field: the struct has padding after its two bools. */
static int same_locality(const geoloc_locality *a, const geoloc_locality *b)
{
    return a->locality == b->locality && a->distance_m == b->distance_m && a->sublocality == b->sublocality &&
           a->nearest == b->nearest && a->nearest_distance_m == b->nearest_distance_m && a->reach_m == b->reach_m &&
           a->within_reach == b->within_reach && a->in_country == b->in_country;
}

static int zone_is(const geoloc_timezone *z, const char *want)
{
    char name[64];
    size_t needed = 0;
    if (!CHECK_OK(geoloc_timezones_name(lz_map, z->zone, name, sizeof name, &needed))) return 0;
    if (strcmp(name, want) != 0) {
        fprintf(stderr, "    zone %s, expected %s\n", name, want);
        return 0;
    }
    return 1;
}

/* tests/golden/locality_zones.tsv (tools/gen_locality_zone_cases.py): case, lat, lon, geonameid,
 * zone (timezonefinder full precision at the point), geonames_zone (GeoNames' column). */
static void row_locality_zone(char **f)
{
    geoloc_coord c = {number(f[1]), number(f[2])};
    geoloc_locality loc, one;
    geoloc_locality_zone z;
    geoloc_timezone at;
    geoloc_coord pc;
    char id[32];
    size_t needed = 0;

    lz_rows++;
    if (!CHECK_OK(geoloc_reverse_geocode_zones(lz_gazetteer, lz_map, &c, 1, NULL, &loc, &z))) return;
    /* The same locality as the reverse geocoder's own answer. */
    {
        /* GEOLOC_E_NO_LOCALITY is the soft answer of a point far from every place. */
        geoloc_status st = geoloc_reverse_geocode_locality(lz_gazetteer, c, GEOLOC_ADDRESS_CITY_STATE, NULL, NULL, 0, NULL, &one);
        if (CHECK(st == GEOLOC_OK || st == GEOLOC_E_NO_LOCALITY)) CHECK(same_locality(&one, &loc));
    }
    /* zone: the zone at the point, as the boundaries draw it. */
    CHECK(zone_is(&z.zone, f[4]));
    CHECK_OK(geoloc_timezone_at(lz_map, c, &at));
    CHECK(at.zone == z.zone.zone && !z.zone.nautical);
    /* place_zone: the zone at the named place's coordinate. */
    if (CHECK_OK(geoloc_places_coord(lz_places, loc.locality == GEOLOC_NO_PLACE ? loc.nearest : loc.locality, &pc)) &&
        CHECK_OK(geoloc_timezone_at(lz_map, pc, &at)))
        CHECK(at.zone == z.place_zone.zone);
    lz_differ += z.zone.zone != z.place_zone.zone;
    if (f[3][0] != '\0' && loc.locality != GEOLOC_NO_PLACE) {
        /* At a place that is a locality: the answer names it, and both zones are its own. */
        if (CHECK_OK(geoloc_places_id(lz_places, loc.locality, id, sizeof id, &needed)) && CHECK_STR(id, f[3])) {
            CHECK(z.place_zone.zone == z.zone.zone);
            /* GeoNames' column agrees, but where the boundaries moved a place (listed by the
             * generator: 2 places of the table). */
            if (strcmp(f[4], f[5]) == 0) {
                lz_geonames++;
                CHECK(zone_is(&z.place_zone, f[5]));
            }
        }
    }
}

static void test_locality_zones(const char *golden_dir)
{
    char path[4096];
    char *argv[] = {"test_time", (char *)golden_dir};
    const struct golden_file files[] = {
        {"locality_zones.tsv", "case\tlat\tlon\tgeonameid\tzone\tgeonames_zone", row_locality_zone, NULL},
    };
    geoloc_coord pts[4] = {{36.9, -111.45}, {0.0, -150.0}, {40.0, -7.5}, {37.0, 74.0}};
    geoloc_locality locs[4], each, before_l[4];
    geoloc_locality_zone zs[4], before_z[4];
    geoloc_reverse_options o = {sizeof o, 1000.0, 0.0, false};
    size_t i;

    snprintf(path, sizeof path, "%s/../../data/gazetteer/cities1000.tsv", golden_dir);
    if (!CHECK_OK(geoloc_gazetteer_open(path, &lz_gazetteer))) return;
    CHECK_OK(geoloc_gazetteer_places(lz_gazetteer, &lz_places));
    if (!CHECK_OK(geoloc_timezones_open(NULL, &lz_map))) return;
    golden_run(2, argv, files, 1);
    /* The border rows do what they are for: the point's zone and the named town's differ. */
    CHECK(lz_rows > 250 && lz_differ >= 20 && lz_geonames > 100);
    printf("locality_zones: %d rows, zone and place_zone differ in %d, GeoNames' column checked at %d places\n",
           lz_rows, lz_differ, lz_geonames);

    /* A batch: the same as one point at a time; the shipped map for NULL; options apply. */
    CHECK_OK(geoloc_reverse_geocode_zones(lz_gazetteer, NULL, pts, 4, &o, locs, zs));
    for (i = 0; i < 4; i++) {
        geoloc_locality_zone z1;
        if (CHECK_OK(geoloc_reverse_geocode_zones(lz_gazetteer, lz_map, &pts[i], 1, &o, &each, &z1)))
            CHECK(same_locality(&each, &locs[i]) && memcmp(&z1, &zs[i], sizeof z1) == 0);
    }
    /* At sea: no locality, a nautical zone, and the nearest place's zone for place_zone. */
    CHECK(locs[1].locality == GEOLOC_NO_PLACE && zs[1].zone.nautical && zs[1].zone.utc_offset_hours == -10);
    CHECK(zone_is(&zs[1].zone, "Etc/GMT+10") && !zs[1].place_zone.nautical);
    /* out is optional. */
    CHECK_OK(geoloc_reverse_geocode_zones(lz_gazetteer, lz_map, pts, 4, &o, NULL, zs));
    CHECK_OK(geoloc_reverse_geocode_zones(lz_gazetteer, lz_map, NULL, 0, NULL, NULL, NULL));

    /* Bad arguments: nothing written. */
    memset(before_l, 0x5A, sizeof before_l);
    memset(before_z, 0x5A, sizeof before_z);
    memcpy(locs, before_l, sizeof locs);
    memcpy(zs, before_z, sizeof zs);
    pts[2].lat = NAN;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_reverse_geocode_zones(lz_gazetteer, lz_map, pts, 4, NULL, locs, zs));
    CHECK(strstr(geoloc_last_error(), "points[2]") != NULL);
    pts[2].lat = 91;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_reverse_geocode_zones(lz_gazetteer, lz_map, pts, 4, NULL, locs, zs));
    pts[2].lat = 40.0;
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode_zones(NULL, lz_map, pts, 4, NULL, locs, zs));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode_zones(lz_gazetteer, lz_map, NULL, 4, NULL, locs, zs));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode_zones(lz_gazetteer, lz_map, pts, 4, NULL, locs, NULL));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_reverse_geocode_zones(lz_gazetteer, lz_map, pts, SIZE_MAX, NULL, locs, zs));
    o.struct_size = 1;
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_reverse_geocode_zones(lz_gazetteer, lz_map, pts, 4, &o, locs, zs));
    o.struct_size = sizeof o;
    o.max_distance_m = NAN;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_reverse_geocode_zones(lz_gazetteer, lz_map, pts, 4, &o, locs, zs));
    /* Handles of the wrong kind. */
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_reverse_geocode_zones((const geoloc_gazetteer *)lz_map, lz_map, pts, 4,
                                                                     NULL, locs, zs));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_reverse_geocode_zones(lz_gazetteer, (const geoloc_timezones *)lz_gazetteer,
                                                                     pts, 4, NULL, locs, zs));
    CHECK(memcmp(locs, before_l, sizeof locs) == 0 && memcmp(zs, before_z, sizeof zs) == 0);
}

/* Local times at many points: each pair as geoloc_local_time_at_point gives it, byte for byte. */
static void test_local_times_at_points(const char *dir)
{
    enum { N = 2000 };
    static geoloc_coord pts[N];
    static double times[N];
    static geoloc_local_time out[N], before[N];
    static uint16_t zones[N], zbefore[N];
    geoloc_local_time one;
    char name[64], zone[64];
    size_t i, needed = 0, differ = 0;
    uint64_t x = 88172645463325252u;

    (void)dir;
    for (i = 0; i < N; i++) {
        /* xorshift64: points over the globe, instants over 1900-2100 with fractions. */
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        pts[i].lat = (double)(x % 1800000) / 10000.0 - 90.0;
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        pts[i].lon = (double)(x % 3600000) / 10000.0 - 180.0;
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        times[i] = -2208988800.0 + (double)(x % INT64_C(6311390400)) + 0.75;
    }
    /* A few fixed ones: Kathmandu (+5:45), a Lord Howe fold, the sea, the date line, the ends. */
    pts[0] = (geoloc_coord){27.717245, 85.323961};
    times[0] = 1795550709.5;
    pts[1] = (geoloc_coord){-31.55, 159.08};
    times[1] = 1775314800.0;
    pts[2] = (geoloc_coord){0.0, -150.0};
    times[2] = -0.5; /* rounded down: 1969-12-31T23:59:59Z */
    pts[3] = (geoloc_coord){-5.0, -180.0};
    times[3] = (double)GEOLOC_TIME_MIN;
    pts[4] = (geoloc_coord){52.52, 13.405};
    times[4] = (double)GEOLOC_TIME_MAX + 0.5;
    memset(out, 0x5A, sizeof out);
    if (!CHECK_OK(geoloc_local_times_at_points(NULL, pts, times, N, out, zones))) return;
    for (i = 0; i < N; i++) {
        int64_t t = (int64_t)floor(times[i]);
        if (!CHECK_OK(geoloc_local_time_at_point(NULL, pts[i], t, &one, zone, sizeof zone, &needed))) continue;
        if (!CHECK(memcmp(&one, &out[i], sizeof one) == 0)) fprintf(stderr, "  pair %zu (%s)\n", i, zone);
        if (lz_map != NULL && CHECK_OK(geoloc_timezones_name(lz_map, zones[i], name, sizeof name, &needed)))
            CHECK_STR(name, zone);
        differ += out[i].utc_offset_s != out[0].utc_offset_s;
    }
    CHECK(differ > N / 2);
    CHECK(out[0].utc_offset_s == 20700 && out[0].hour == 1 && out[0].minute == 50 && out[0].second == 9);
    CHECK(out[2].utc_offset_s == -36000 && out[2].instant == -1 && out[2].year == 1969 && out[2].hour == 13);
    CHECK(out[3].utc_offset_s == 43200 && out[3].instant == GEOLOC_TIME_MIN); /* the date line: Etc/GMT-12 */
    CHECK(out[4].instant == GEOLOC_TIME_MAX && out[4].year == 10000);
    /* zones is optional; n = 0 with NULL arrays. */
    memcpy(before, out, sizeof out);
    CHECK_OK(geoloc_local_times_at_points(NULL, pts, times, N, out, NULL));
    CHECK(memcmp(before, out, sizeof out) == 0);
    CHECK_OK(geoloc_local_times_at_points(NULL, NULL, NULL, 0, NULL, NULL));

    /* Failures write nothing, and name the first bad pair. */
    memset(out, 0x5A, sizeof out);
    memcpy(before, out, sizeof out);
    memset(zones, 0x5A, sizeof zones);
    memcpy(zbefore, zones, sizeof zones);
    times[1500] = NAN;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_local_times_at_points(NULL, pts, times, N, out, zones));
    CHECK(strstr(geoloc_last_error(), "times[1500]") != NULL);
    times[1500] = INFINITY;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_local_times_at_points(NULL, pts, times, N, out, zones));
    times[1500] = (double)GEOLOC_TIME_MAX + 1;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_local_times_at_points(NULL, pts, times, N, out, zones));
    times[1500] = 0;
    pts[1700].lon = -INFINITY;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_local_times_at_points(NULL, pts, times, N, out, zones));
    CHECK(strstr(geoloc_last_error(), "points[1700]") != NULL);
    pts[1700].lon = 0;
    pts[1700].lat = -90.5;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_local_times_at_points(NULL, pts, times, N, out, zones));
    pts[1700].lat = 0;
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_local_times_at_points(NULL, NULL, times, N, out, zones));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_local_times_at_points(NULL, pts, NULL, N, out, zones));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_local_times_at_points(NULL, pts, times, N, NULL, zones));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_local_times_at_points(NULL, pts, times, SIZE_MAX, out, zones));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_local_times_at_points(NULL, pts, times, GEOLOC_MAX_COUNT + 1, out, zones));
    if (lz_gazetteer != NULL)
        CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_local_times_at_points((const geoloc_timezones *)lz_gazetteer, pts,
                                                                         times, N, out, zones));
    CHECK(memcmp(before, out, sizeof out) == 0 && memcmp(zbefore, zones, sizeof zones) == 0);
}

/* Local dates of fixes and tracks: a track from Chicago (CDT) to Indianapolis (EDT) across local
 * midnight, then a segment in Kathmandu (+5:45) across its midnight; fixes without a time. */
static double leg(const geoloc_fix *a, const geoloc_fix *b)
{
    double d = NAN;
    CHECK_OK(geoloc_distance((geoloc_coord){a->lat, a->lon}, (geoloc_coord){b->lat, b->lon}, GEOLOC_MODEL_SPHERE,
                             GEOLOC_UNIT_METERS, &d));
    return d;
}

static void test_track_local_days(void)
{
    const double t0 = 1782874800.0; /* 2026-07-01T03:00:00Z: 22:00 CDT on June 30 */
    const double t6 = 1782900000.0; /* 2026-07-01T10:00:00Z: 15:45 in Kathmandu */
    geoloc_fix f[9] = {
        {41.8781, -87.6298, t0, 5, NAN, NAN, NAN},
        {41.88, -87.60, t0 + 1800, 5, NAN, NAN, NAN},
        {41.89, -87.55, t0 + 9000, 5, NAN, NAN, NAN}, /* 00:30 CDT, July 1 */
        {41.90, -87.50, NAN, 5, NAN, NAN, NAN},       /* no time: the day of the fix before */
        {39.7684, -86.1581, t0 + 10800, 5, NAN, NAN, NAN}, /* 02:00 EDT, July 1 */
        {27.7172, 85.324, NAN, 5, NAN, NAN, NAN},     /* first of its segment: the day after */
        {27.7172, 85.325, t6, 5, NAN, NAN, NAN},
        {27.72, 85.33, t6 + 30000, 5, NAN, NAN, NAN}, /* 00:05 on July 2 there */
        {27.73, 85.34, t6 + 30100, 5, NAN, NAN, NAN},
    };
    const size_t starts[2] = {0, 5};
    geoloc_local_day days[4], before[4];
    geoloc_local_time lt[9], one;
    uint16_t zones[9];
    char zone[64];
    size_t count = 0, i, needed;

    memset(days, 0x5A, sizeof days);
    if (!CHECK_OK(geoloc_track_local_days(NULL, f, 9, starts, 2, GEOLOC_MODEL_SPHERE, days, 4, &count))) return;
    if (!CHECK(count == 3)) return;
    CHECK(days[0].year == 2026 && days[0].month == 6 && days[0].day == 30 && days[0].weekday == 2);
    CHECK(days[0].fix_count == 2 && days[0].first_fix == 0 && days[0].duration_s == 1800 + 7200);
    CHECK(fabs(days[0].length_m - (leg(&f[0], &f[1]) + leg(&f[1], &f[2]))) < 1e-6);
    CHECK(days[1].year == 2026 && days[1].month == 7 && days[1].day == 1 && days[1].weekday == 3);
    CHECK(days[1].fix_count == 5 && days[1].first_fix == 2 && days[1].duration_s == 30000);
    CHECK(fabs(days[1].length_m - (leg(&f[2], &f[3]) + leg(&f[3], &f[4]) + leg(&f[5], &f[6]) + leg(&f[6], &f[7]))) < 1e-6);
    CHECK(days[2].month == 7 && days[2].day == 2 && days[2].fix_count == 2 && days[2].first_fix == 7);
    CHECK(days[2].duration_s == 100 && fabs(days[2].length_m - leg(&f[7], &f[8])) < 1e-6);
    /* One segment of all: the step from Indianapolis to Kathmandu counts to July 1 too. */
    CHECK_OK(geoloc_track_local_days(NULL, f, 9, NULL, 0, GEOLOC_MODEL_WGS84, days, 4, &count));
    CHECK(count == 3 && days[1].length_m > 1.2e7 && days[1].fix_count == 5);
    /* The count alone; too small a buffer writes nothing. */
    count = 0;
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_track_local_days(NULL, f, 9, starts, 2, GEOLOC_MODEL_SPHERE, NULL, 0, &count));
    CHECK(count == 3);
    memset(days, 0x5A, sizeof days);
    memcpy(before, days, sizeof days);
    count = 0;
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_track_local_days(NULL, f, 9, starts, 2, GEOLOC_MODEL_SPHERE, days, 2, &count));
    CHECK(count == 3 && memcmp(days, before, sizeof days) == 0);
    CHECK_OK(geoloc_track_local_days(NULL, NULL, 0, NULL, 0, GEOLOC_MODEL_SPHERE, NULL, 0, &count));
    CHECK(count == 0);
    /* A segment without any time is in no day. */
    CHECK_OK(geoloc_track_local_days(NULL, f + 3, 1, NULL, 0, GEOLOC_MODEL_SPHERE, days, 4, &count));
    CHECK(count == 0);

    /* Each fix's local time where it was taken. */
    f[3].time = t0 + 9600;
    f[5].time = t6 - 60;
    if (CHECK_OK(geoloc_fix_local_times(NULL, f, 9, lt, zones))) {
        for (i = 0; i < 9; i++) {
            if (CHECK_OK(geoloc_local_time_at_point(NULL, (geoloc_coord){f[i].lat, f[i].lon}, (int64_t)f[i].time, &one, zone,
                                                    sizeof zone, &needed)))
                CHECK(memcmp(&one, &lt[i], sizeof one) == 0);
        }
        CHECK(lt[0].day == 30 && lt[0].hour == 22 && strcmp(lt[0].abbreviation, "CDT") == 0);
        CHECK(lt[4].day == 1 && lt[4].hour == 2 && strcmp(lt[4].abbreviation, "EDT") == 0);
        CHECK(lt[7].day == 2 && lt[7].hour == 0 && lt[7].minute == 5 && lt[7].utc_offset_s == 20700);
        CHECK(zones[0] == zones[1] && zones[0] != zones[4] && zones[4] != zones[6]);
    }

    /* Bad arguments: nothing written. */
    memset(lt, 0x5A, sizeof lt);
    f[3].time = NAN;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_fix_local_times(NULL, f, 9, lt, zones));
    CHECK(strstr(geoloc_last_error(), "fixes[3]") != NULL);
    f[3].time = 1e13;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_fix_local_times(NULL, f, 9, lt, NULL));
    CHECK(strstr(geoloc_last_error(), "fixes[3]") != NULL);
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_track_local_days(NULL, f, 9, starts, 2, GEOLOC_MODEL_SPHERE, days, 4, &count));
    CHECK(strstr(geoloc_last_error(), "fixes[3]") != NULL);
    f[3].time = INFINITY;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_track_local_days(NULL, f, 9, starts, 2, GEOLOC_MODEL_SPHERE, days, 4, &count));
    f[3].time = NAN;
    f[3].lat = 95;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_track_local_days(NULL, f, 9, starts, 2, GEOLOC_MODEL_SPHERE, days, 4, &count));
    f[3].lat = 41.90;
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_track_local_days(NULL, f, 9, starts, 2, GEOLOC_MODEL_SPHERE, days, 4, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_track_local_days(NULL, NULL, 9, starts, 2, GEOLOC_MODEL_SPHERE, days, 4, &count));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_track_local_days(NULL, f, 9, NULL, 2, GEOLOC_MODEL_SPHERE, days, 4, &count));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_track_local_days(NULL, f, 9, starts, 2, GEOLOC_MODEL_SPHERE, NULL, 4, &count));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_track_local_days(NULL, f, 9, starts, 2, (geoloc_model)7, days, 4, &count));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_track_local_days(NULL, f, SIZE_MAX, starts, 2, GEOLOC_MODEL_SPHERE, days, 4, &count));
    {
        const size_t bad[2] = {5, 2};
        CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_track_local_days(NULL, f, 9, bad, 2, GEOLOC_MODEL_SPHERE, days, 4, &count));
    }
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_fix_local_times(NULL, NULL, 9, lt, zones));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_fix_local_times(NULL, f, 9, NULL, zones));
    CHECK_OK(geoloc_fix_local_times(NULL, NULL, 0, NULL, NULL));
    {
        geoloc_local_time check[9];
        memset(check, 0x5A, sizeof check);
        CHECK(memcmp(lt, check, sizeof lt) == 0);
    }
}

static void zone_tests(const char *golden_dir)
{
    char *argv[] = {"test_time", (char *)golden_dir};
    const struct golden_file files[] = {
        {"timezones.tsv", "case\tlat\tlon\tzone\tutc_offset_hours", row_timezone, NULL},
    };
    test_timezone_calls();
    golden_run(2, argv, files, sizeof files / sizeof files[0]);
    geoloc_timezones_destroy(tzmap);
    tzmap = NULL;
    test_timezone_files();
}

int main(int argc, char **argv)
{
    int threads_only = argc > 1 && strcmp(argv[1], "threads") == 0;
    const char *dir = argc > 1 + threads_only ? argv[1 + threads_only] : GEOLOC_TIME_TESTS_DIR;
    if (!CHECK(read_table(dir))) return check_summary("test_time");
    if (threads_only) states_per_thread = 3;
    test_threads(); /* first: the zones are read by four threads at once */
    if (threads_only) return check_summary("test_time (threads)");
    test_zoneinfo_table();
    test_cities();
    test_database();
    test_bad_arguments();
    test_tzif();
    zone_tests(argc > 2 ? argv[2] : GEOLOC_GOLDEN_DIR);
    test_local_time_at_point(dir);
    test_locality_zones(argc > 2 ? argv[2] : GEOLOC_GOLDEN_DIR);
    test_local_times_at_points(dir);
    test_track_local_days();
    geoloc_timezones_destroy(lz_map);
    geoloc_gazetteer_destroy(lz_gazetteer);
    return check_summary("test_time");
}
