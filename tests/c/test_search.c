/*
 * test_search.c -- the C door's tests of finding places by name (geoloc_search_*) on the shipped
 * gazetteer and its index: the reference set tests/golden/search.tsv (each group at its goal),
 * the examples of the header, biases, the threshold, the batch form, saving and reopening,
 * forged (resealed: keys out of order, an old version) and foreign index files, and every
 * class of bad argument.
 *
 *   usage: test_search GOLDEN_DIR
 *
 * Plain C, no framework: see check.h. Exit status 0 when every check passed.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "geoloc.h"
#include "check.h"
#include "common.h"

static geoloc_search *search;

/* Whether two result lists are the same, field by field (the structs have padding). */
static int same_results(const geoloc_search_result *a, const geoloc_search_result *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i].index != b[i].index || a[i].score != b[i].score || a[i].match != b[i].match ||
            a[i].edits != b[i].edits || a[i].alternate != b[i].alternate || a[i].name_key != b[i].name_key ||
            a[i].geonames_id != b[i].geonames_id || a[i].population != b[i].population)
            return 0;
    return 1;
}

/* The first result's GeoNames id for a query (0 when there is none). */
static int64_t first_id(const char *query, const geoloc_search_options *o)
{
    geoloc_search_result r[10];
    size_t n = 0;
    if (geoloc_search_find(search, query, o, r, 10, &n) != GEOLOC_OK || n == 0) return 0;
    return r[0].geonames_id;
}

/* Whether `id` is among the first `rank` results. */
static int found_within(const char *query, const geoloc_search_options *o, int64_t id, size_t rank)
{
    geoloc_search_result r[10];
    size_t n = 0;
    if (geoloc_search_find(search, query, o, r, 10, &n) != GEOLOC_OK) return 0;
    for (size_t i = 0; i < n && i < rank; i++)
        if (r[i].geonames_id == id) return 1;
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The reference set
 * ------------------------------------------------------------------------------------------- */

struct group {
    const char *name;
    double goal; /* the share that must pass, percent */
    int total, passed;
};

static struct group groups[] = {
    {"exact", 99, 0, 0},        {"city_st", 99, 0, 0},      {"city_state", 99, 0, 0},
    {"city_country", 99, 0, 0}, {"city_state_country", 99, 0, 0},
    {"alternate", 97, 0, 0},    {"accents_case", 97, 0, 0}, {"typo1", 95, 0, 0},
    {"typo2", 85, 0, 0},        {"prefix", 98, 0, 0},
};

static void test_reference(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/search.tsv", dir);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (f == NULL) return;
    char line[4096];
    int header = 1, rows = 0;
    geoloc_search_options plain, prefix;
    geoloc_search_options_default(&plain);
    geoloc_search_options_default(&prefix);
    prefix.prefix = true;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        line[strcspn(line, "\n")] = '\0';
        if (header) { header = 0; continue; }
        char *field[8] = {0};
        int k = 0;
        for (char *p = line; k < 8; k++) {
            field[k] = p;
            char *tab = strchr(p, '\t');
            if (!tab) { k++; break; }
            *tab = '\0';
            p = tab + 1;
        }
        if (k < 5) continue;
        rows++;
        int64_t id = strtoll(field[3], NULL, 10);
        size_t rank = (size_t)strtoul(field[4], NULL, 10);
        int ok = found_within(field[1], strcmp(field[2], "prefix") == 0 ? &prefix : &plain, id, rank);
        for (size_t g = 0; g < COUNT_OF(groups); g++) {
            if (strcmp(groups[g].name, field[0]) == 0) {
                groups[g].total++;
                groups[g].passed += ok;
                if (!ok && check_verbose()) fprintf(stderr, "  miss %s: %s (want %lld)\n", field[0], field[1], (long long)id);
            }
        }
    }
    fclose(f);
    CHECK(rows >= 3000);
    for (size_t g = 0; g < COUNT_OF(groups); g++) {
        double share = groups[g].total ? 100.0 * groups[g].passed / groups[g].total : 0;
        printf("  %-20s %4d/%4d  %6.2f%%  (goal %.0f%%)\n", groups[g].name, groups[g].passed, groups[g].total, share,
               groups[g].goal);
        CHECK(groups[g].total > 0);
        CHECK(share >= groups[g].goal);
    }
}

/* ---------------------------------------------------------------------------------------------
 * The header's examples
 * ------------------------------------------------------------------------------------------- */

static void test_examples(void)
{
    /* GeoNames ids: Munich 2867714, Kyiv 703448, Mumbai 1275339, Beijing 1816670, Cologne 2886242,
       São Paulo 3448439, Zürich 2657896, Springfield IL 4250542, MO 4409896, MA 4951788. */
    static const struct { const char *query; int64_t id; } cases[] = {
        {"Munich", 2867714},   {"München", 2867714},     {"MUENCHEN", 2867714}, {"Kyiv", 703448},
        {"Kiev", 703448},      {"Київ", 703448},         {"Киев", 703448},      {"Mumbai", 1275339},
        {"Bombay", 1275339},   {"Beijing", 1816670},     {"北京", 1816670},     {"Peking", 1816670},
        {"Cologne", 2886242},  {"Köln", 2886242},        {"koln", 2886242},     {"sao paulo", 3448439},
        {"SÃO PAULO", 3448439}, {"ZURICH", 2657896},     {"Springfield, IL", 4250542},
        {"Springfield, Illinois", 4250542}, {"Springfield, Illinois, United States", 4250542},
        {"Springfield IL", 4250542}, {"springfield, mo", 4409896}, {"Springfield, MA", 4951788},
        {"Springfield", 4409896}, {"sprinfield, il", 4250542}, {"Springfeild, Illinois", 4250542},
    };
    for (size_t i = 0; i < COUNT_OF(cases); i++) {
        int64_t got = first_id(cases[i].query, NULL);
        if (!CHECK(got == cases[i].id)) fprintf(stderr, "  %s: got %lld, want %lld\n", cases[i].query, (long long)got,
                                                (long long)cases[i].id);
    }
    /* Autocomplete: "spri" is Springs (South Africa, 186,394 people), Spring Valley (NV, 178,395),
       Springfield (MO, 170,188), ...: the most prominent first; near Springfield, IL, that one. */
    geoloc_search_options o;
    geoloc_search_options_default(&o);
    o.prefix = true;
    geoloc_search_result r[10];
    size_t n = 0;
    CHECK_OK(geoloc_search_find(search, "Spri", &o, r, 10, &n));
    CHECK(n == 10);
    char name[128];
    size_t needed;
    CHECK(r[0].match == GEOLOC_SEARCH_PREFIX && r[2].geonames_id == 4409896);
    CHECK_OK(geoloc_search_text(search, &r[2], GEOLOC_SEARCH_NAME, name, sizeof name, &needed));
    CHECK_STR(name, "Springfield");
    o.has_near = true;
    o.near = (geoloc_coord){39.78, -89.65};
    CHECK(first_id("spri", &o) == 4250542);
    /* Near Springfield, IL, its Springfield first. */
    o.prefix = false;
    o.has_near = true;
    o.near = (geoloc_coord){39.78, -89.65};
    CHECK(first_id("Springfield", &o) == 4250542);
    /* Paris near Texas is Paris, TX (4717560); by default Paris, France (2988507). */
    o.near = (geoloc_coord){33.66, -95.55};
    CHECK(first_id("Paris", &o) == 4717560);
    CHECK(first_id("Paris", NULL) == 2988507);
    /* A country preferred. */
    geoloc_search_options_default(&o);
    o.country = "US";
    CHECK(first_id("Paris", &o) == 4717560);
    o.country = "Canada";
    CHECK(first_id("London", &o) == 6058560);
    /* Fields of a result. */
    CHECK_OK(geoloc_search_find(search, "Springfield, IL", NULL, r, 10, &n));
    CHECK(n >= 1 && r[0].match == GEOLOC_SEARCH_EXACT && r[0].edits == 0 && !r[0].alternate);
    CHECK(fabs(r[0].coord.lat - 39.80172) < 1e-9 && fabs(r[0].coord.lon + 89.64371) < 1e-9);
    CHECK(r[0].population == 114394);
    CHECK(r[0].score > 0.75 && r[0].score <= 1);
    CHECK_OK(geoloc_search_text(search, &r[0], GEOLOC_SEARCH_REGION, name, sizeof name, &needed));
    CHECK_STR(name, "Illinois");
    CHECK_OK(geoloc_search_text(search, &r[0], GEOLOC_SEARCH_REGION_CODE, name, sizeof name, &needed));
    CHECK_STR(name, "IL");
    CHECK_OK(geoloc_search_text(search, &r[0], GEOLOC_SEARCH_COUNTRY_CODE, name, sizeof name, &needed));
    CHECK_STR(name, "US");
    CHECK_OK(geoloc_search_text(search, &r[0], GEOLOC_SEARCH_COUNTRY, name, sizeof name, &needed));
    CHECK_STR(name, "United States");
    CHECK_OK(geoloc_search_find(search, "Kiev", NULL, r, 10, &n));
    CHECK(n >= 1 && r[0].alternate);
    CHECK_OK(geoloc_search_text(search, &r[0], GEOLOC_SEARCH_MATCHED_NAME, name, sizeof name, &needed));
    CHECK_STR(name, "kiev");
    CHECK_OK(geoloc_search_text(search, &r[0], GEOLOC_SEARCH_NAME, name, sizeof name, &needed));
    CHECK_STR(name, "Kyiv");
    /* A typing error ranks below the exact name and says so. */
    CHECK_OK(geoloc_search_find(search, "Sprignfield", NULL, r, 10, &n));
    CHECK(n >= 1 && r[0].match == GEOLOC_SEARCH_TYPO && r[0].edits == 1 && r[0].score < 0.75);
    /* Nothing fits: no result, not a guess. */
    CHECK_OK(geoloc_search_find(search, "Qxzvbnmwq", NULL, r, 10, &n));
    CHECK(n == 0);
    CHECK_OK(geoloc_search_find(search, " , ,", NULL, r, 10, &n));
    CHECK(n == 0);
    /* The threshold: everything returned scores at least min_score. */
    geoloc_search_options_default(&o);
    o.min_score = 0.9;
    CHECK_OK(geoloc_search_find(search, "Springfield", &o, r, 10, &n));
    for (size_t i = 0; i < n; i++) CHECK(r[i].score >= 0.9);
    o.min_score = 0;
    o.limit = 3;
    CHECK_OK(geoloc_search_find(search, "Springfield", &o, r, 10, &n));
    CHECK(n == 3);
    /* Ranked by score, ties by population. */
    o.limit = 10;
    CHECK_OK(geoloc_search_find(search, "Springfield", &o, r, 10, &n));
    for (size_t i = 1; i < n; i++)
        CHECK(r[i - 1].score > r[i].score || (r[i - 1].score == r[i].score && r[i - 1].population >= r[i].population));
}

/* ---------------------------------------------------------------------------------------------
 * The batch form, determinism, saving
 * ------------------------------------------------------------------------------------------- */

static void test_many(void)
{
    static const char queries[4][24] = {"Springfield, IL", "Kiev", "", "sprinfield"};
    geoloc_search_result many[4 * 5], one[5];
    size_t counts[4], n;
    CHECK_OK(geoloc_search_find_many(search, &queries[0][0], 24, 4, NULL, many, 5, counts));
    for (size_t i = 0; i < 4; i++) {
        geoloc_search_options o;
        geoloc_search_options_default(&o);
        o.limit = 5;
        CHECK_OK(geoloc_search_find(search, queries[i], &o, one, 5, &n));
        CHECK(counts[i] == n);
        for (size_t j = 0; j < n; j++)
            CHECK(one[j].index == many[i * 5 + j].index && one[j].score == many[i * 5 + j].score);
    }
    CHECK(counts[2] == 0);
    /* A bad query anywhere: nothing written, the message names it. */
    char bad[3][8] = {"Paris", "\xff", "Rome"};
    counts[0] = 77;
    CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_search_find_many(search, &bad[0][0], 8, 3, NULL, many, 5, counts));
    CHECK(counts[0] == 77);
    CHECK(strstr(geoloc_last_error(), "queries[1]") != NULL);
    CHECK_OK(geoloc_search_find_many(search, NULL, 8, 0, NULL, NULL, 0, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_search_find_many(search, NULL, 8, 1, NULL, many, 5, counts));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_search_find_many(search, &bad[0][0], 8, 1, NULL, many, 0, counts));
    for (size_t i = 0; i < COUNT_OF(HUGE_COUNTS); i++)
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_search_find_many(search, &bad[0][0], 8, HUGE_COUNTS[i], NULL, many, 5, counts));
    /* The same answers every time. */
    geoloc_search_result a[10], b[10];
    size_t na, nb;
    CHECK_OK(geoloc_search_find(search, "San", NULL, a, 10, &na));
    CHECK_OK(geoloc_search_find(search, "San", NULL, b, 10, &nb));
    CHECK(na == nb && same_results(a, b, na));
}

static void test_files(void)
{
    char path[] = "/tmp/geoloc_search_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    CHECK_OK(geoloc_search_save(search, path));
    geoloc_search *s2 = NULL;
    CHECK_OK(geoloc_search_open(NULL, path, &s2));
    geoloc_search_result a[10], b[10];
    size_t na = 0, nb = 0;
    CHECK_OK(geoloc_search_find(search, "Sprignfield, IL", NULL, a, 10, &na));
    CHECK_OK(geoloc_search_find(s2, "Sprignfield, IL", NULL, b, 10, &nb));
    CHECK(na == nb && na > 0 && same_results(a, b, na));
    geoloc_search_destroy(s2);
    /* Every changed byte is refused (the checksum); so is a truncated file. */
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (f) {
        fseek(f, 4096, SEEK_SET);
        int c = fgetc(f);
        fseek(f, 4096, SEEK_SET);
        fputc(c ^ 1, f);
        fclose(f);
    }
    s2 = NULL;
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_search_open(NULL, path, &s2));
    CHECK(s2 == NULL);
    CHECK(truncate(path, 1000) == 0);
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_search_open(NULL, path, &s2));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_search_open(NULL, "/nonexistent/x.search", &s2));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_search_open(NULL, "/tmp", &s2));
    /* Not a regular file; not an index. */
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_search_open(NULL, "/dev/null", &s2));
    f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        for (int i = 0; i < 300; i++) fputs("not an index ", f);
        fclose(f);
    }
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_search_open(NULL, path, &s2));
    unlink(path);

    /* An index of another gazetteer is refused; a gazetteer of one's own gets its own names. */
    char csv[] = "/tmp/geoloc_search_towns_XXXXXX";
    fd = mkstemp(csv);
    CHECK(fd >= 0);
    const char *text = "id,name,lat,lon,country_code,admin1_code,admin1_name,population\n"
                       "1,Springfield,39.8,-89.6,US,IL,Illinois,114394\n2,Zürich,47.37,8.54,CH,ZH,Zurich,341730\n";
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    geoloc_gazetteer *g = NULL;
    CHECK_OK(geoloc_gazetteer_open(csv, &g));
    char idx[] = "/tmp/geoloc_search_idx_XXXXXX";
    fd = mkstemp(idx);
    close(fd);
    CHECK_OK(geoloc_search_save(search, idx));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_search_open(g, idx, &s2));
    CHECK_OK(geoloc_search_open(g, NULL, &s2));
    geoloc_search_result r[4];
    size_t n = 0;
    CHECK_OK(geoloc_search_find(s2, "zurich, zh", NULL, r, 4, &n));
    CHECK(n == 1 && r[0].index == 1 && r[0].geonames_id == 2);
    CHECK_OK(geoloc_search_save(s2, idx));
    geoloc_search *s3 = NULL;
    CHECK_OK(geoloc_search_open(g, idx, &s3));
    CHECK_OK(geoloc_search_find(s3, "Springfeld", NULL, r, 4, &n));
    CHECK(n == 1 && r[0].index == 0 && r[0].match == GEOLOC_SEARCH_TYPO);
    const geoloc_gazetteer *own = NULL;
    CHECK_OK(geoloc_search_gazetteer(s3, &own));
    const geoloc_places *towns = NULL;
    CHECK_OK(geoloc_gazetteer_places(own, &towns));
    size_t count = 0;
    CHECK_OK(geoloc_places_count(towns, &count));
    CHECK(count == 2);
    geoloc_search_destroy(s3);
    geoloc_search_destroy(s2);
    geoloc_gazetteer_destroy(g);
    unlink(idx);
    unlink(csv);
}

/* ---------------------------------------------------------------------------------------------
 * Forged indexes: edited, then resealed with a fresh checksum as another program could
 * ------------------------------------------------------------------------------------------- */

static uint64_t forge_step(uint64_t lane, uint64_t word)
{
    uint64_t x = (lane ^ word) * 0x9FB21C651E98DF25ull;
    return x ^ (x >> 32);
}

static uint64_t forge_u64(const unsigned char *b, size_t at)
{
    uint64_t v = 0;
    for (int k = 7; k >= 0; k--) v = v << 8 | b[at + (size_t)k];
    return v;
}

/* Every data file's checksum (Core/MappedFile.swift): four lanes over the little-endian 8-byte
 * words (bytes 120..127 read as 0), the tail in the fourth, folded with the length. */
static void forge_reseal(unsigned char *b, size_t n)
{
    uint64_t lanes[4] = {0x243F6A8885A308D3ull, 0x13198A2E03707344ull, 0xA4093822299F31D0ull, 0x082EFA98EC4E6C89ull};
    size_t i = 0;
#define WORD(at) ((at) == 120 ? 0 : forge_u64(b, (at)))
    for (; i + 32 <= n; i += 32)
        for (int k = 0; k < 4; k++) lanes[k] = forge_step(lanes[k], WORD(i + 8 * (size_t)k));
    for (int lane = 0; i + 8 <= n; i += 8, lane++) lanes[lane] = forge_step(lanes[lane], WORD(i));
#undef WORD
    if (i < n) {
        uint64_t w = 0;
        for (size_t k = 0; i + k < n; k++) w |= (uint64_t)b[i + k] << (8 * k);
        lanes[3] = forge_step(lanes[3], w);
    }
    uint64_t h = forge_step((uint64_t)n, lanes[0]);
    for (int k = 1; k < 4; k++) h = forge_step(h, lanes[k]);
    h = forge_step(h, 0x5851F42D4C957F2Dull);
    for (int k = 0; k < 8; k++) b[120 + k] = (unsigned char)(h >> (8 * k));
}

/* Writes `b` resealed to `path` and opens it as an index of `g`. */
static geoloc_status forge_open(geoloc_gazetteer *g, const char *path, unsigned char *b, size_t n)
{
    forge_reseal(b, n);
    FILE *f = fopen(path, "wb");
    if (!f) return GEOLOC_E_INTERNAL;
    fwrite(b, 1, n, f);
    fclose(f);
    geoloc_search *s = NULL;
    geoloc_status st = geoloc_search_open(g, path, &s);
    geoloc_search_destroy(s);
    return st;
}

/* Keys out of order are refused (a binary search over them would miss names the file holds);
 * so is an index of format version 1 (as unsupported: rebuild it). */
static void test_forged_keys_out_of_order(void)
{
    char csv[] = "/tmp/geoloc_search_forged_XXXXXX";
    int fd = mkstemp(csv);
    CHECK(fd >= 0);
    const char *text = "id,name,lat,lon,country_code,admin1_code,admin1_name,population\n"
                       "1,Springfield,39.8,-89.6,US,IL,Illinois,114394\n2,Zürich,47.37,8.54,CH,ZH,Zurich,341730\n"
                       "3,Kyiv,50.45,30.52,UA,12,Kyiv City,2952301\n";
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    geoloc_gazetteer *g = NULL;
    CHECK_OK(geoloc_gazetteer_open(csv, &g));
    char idx[] = "/tmp/geoloc_search_forged_idx_XXXXXX";
    fd = mkstemp(idx);
    close(fd);
    geoloc_search *s = NULL;
    CHECK_OK(geoloc_search_open(g, NULL, &s));
    CHECK_OK(geoloc_search_save(s, idx));
    geoloc_search_destroy(s);
    unsigned char *b = malloc(1 << 20);
    FILE *f = fopen(idx, "rb");
    size_t n = f && b ? fread(b, 1, 1 << 20, f) : 0;
    if (f) fclose(f);
    CHECK(n > 128 && n < (1 << 20));
    const char *keys = "kyivspringfield";
    size_t at = 0;
    for (size_t i = 128; i + strlen(keys) <= n && !at; i++)
        if (memcmp(b + i, keys, strlen(keys)) == 0) at = i;
    CHECK(at > 0);
    if (at) {
        CHECK_OK(forge_open(g, idx, b, n));
        memcpy(b + at, "zzzz", 4); /* the first key now sorts after the second */
        CHECK_ERR(GEOLOC_E_PARSE, forge_open(g, idx, b, n));
        CHECK(strstr(geoloc_last_error(), "not after") != NULL);
        memcpy(b + at, "kyiv", 4);
        b[8] = 1; /* format version 1 */
        CHECK_ERR(GEOLOC_E_UNSUPPORTED, forge_open(g, idx, b, n));
        b[8] = 2;
        /* A key with a NUL inside, still in order ("spring\0ield"): the index opens, but that
         * key's text is refused, never written with a NUL inside. Every key is asked for by its
         * number (until the first number past the keys), whatever a search would rank. */
        b[at + 4 + 6] = 0;
        CHECK_OK(forge_open(g, idx, b, n));
        geoloc_search *forged = NULL;
        if (CHECK_OK(geoloc_search_open(g, idx, &forged))) {
            size_t refused = 0, texts = 0;
            for (size_t k = 0; k < 1000; k++) {
                geoloc_search_result r;
                memset(&r, 0, sizeof r);
                r.index = 0;
                r.name_key = k;
                char name[64];
                size_t needed = 0;
                geoloc_status st = geoloc_search_text(forged, &r, GEOLOC_SEARCH_MATCHED_NAME, name, sizeof name, &needed);
                if (st == GEOLOC_E_OUT_OF_RANGE) break;
                if (st == GEOLOC_OK) {
                    CHECK(needed == strlen(name) + 1);
                    texts++;
                } else {
                    CHECK(st == GEOLOC_E_PARSE && strstr(geoloc_last_error(), "not UTF-8 text") != NULL);
                    refused++;
                }
            }
            CHECK(refused == 1 && texts >= 2);
        }
        geoloc_search_destroy(forged);
    }
    free(b);
    geoloc_gazetteer_destroy(g);
    unlink(idx);
    unlink(csv);
}

/* ---------------------------------------------------------------------------------------------
 * Bad arguments
 * ------------------------------------------------------------------------------------------- */

static void test_bad_arguments(void)
{
    geoloc_search_result r[10];
    size_t n = 99;
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_search_find(NULL, "Paris", NULL, r, 10, &n));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_search_find(search, NULL, NULL, r, 10, &n));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_search_find(search, "Paris", NULL, r, 10, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_search_find(search, "Paris", NULL, NULL, 10, &n));
    for (size_t i = 0; i < COUNT_OF(BAD_UTF8); i++)
        CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_search_find(search, BAD_UTF8[i], NULL, r, 10, &n));
    char *huge = malloc(5000);
    memset(huge, 'a', 4999);
    huge[4999] = '\0';
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_search_find(search, huge, NULL, r, 10, &n));
    free(huge);
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_search_find(search, "a,b,c,d,e,f,g,h,i,j", NULL, r, 10, &n));
    /* Buffer too small: the count says how many, nothing written. */
    n = 0;
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_search_find(search, "Springfield", NULL, r, 2, &n));
    CHECK(n == 10);
    CHECK_OK(geoloc_search_find(search, "Qxzvbnmwq", NULL, NULL, 0, &n));
    CHECK(n == 0);
    geoloc_search_options o;
    geoloc_search_options_default(&o);
    o.limit = 0;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_search_find(search, "Paris", &o, r, 10, &n));
    o.limit = 1001;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_search_find(search, "Paris", &o, r, 10, &n));
    geoloc_search_options_default(&o);
    o.min_score = nan_value();
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_search_find(search, "Paris", &o, r, 10, &n));
    o.min_score = 1.5;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_search_find(search, "Paris", &o, r, 10, &n));
    geoloc_search_options_default(&o);
    o.max_edits = 3;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_search_find(search, "Paris", &o, r, 10, &n));
    geoloc_search_options_default(&o);
    o.has_near = true;
    o.near = (geoloc_coord){91, 0};
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_search_find(search, "Paris", &o, r, 10, &n));
    o.near = (geoloc_coord){nan_value(), 0};
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_search_find(search, "Paris", &o, r, 10, &n));
    geoloc_search_options_default(&o);
    o.country = "\xff";
    CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_search_find(search, "Paris", &o, r, 10, &n));
    /* Texts. */
    CHECK_OK(geoloc_search_find(search, "Paris", NULL, r, 10, &n));
    char buf[4];
    size_t needed = 0;
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_search_text(search, &r[0], GEOLOC_SEARCH_COUNTRY, buf, sizeof buf, &needed));
    CHECK(needed == strlen("France") + 1);
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_search_text(search, &r[0], (geoloc_search_field)9, buf, sizeof buf, &needed));
    geoloc_search_result forged = r[0];
    forged.index = (size_t)-1;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_search_text(search, &forged, GEOLOC_SEARCH_NAME, buf, sizeof buf, &needed));
    forged = r[0];
    forged.name_key = 1u << 30;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_search_text(search, &forged, GEOLOC_SEARCH_MATCHED_NAME, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_search_text(search, NULL, GEOLOC_SEARCH_NAME, buf, sizeof buf, &needed));
    /* Handles: a wrong kind, a destroyed one. */
    geoloc_gazetteer *g = NULL;
    CHECK_OK(geoloc_gazetteer_open(NULL, &g));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_search_find((const geoloc_search *)g, "Paris", NULL, r, 10, &n));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_search_open((const geoloc_gazetteer *)search, NULL, &(geoloc_search *){0}));
    geoloc_search *s = NULL;
    CHECK_OK(geoloc_search_open(g, NULL, &s));
    geoloc_search_destroy(s);
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_search_find(s, "Paris", NULL, r, 10, &n));
    geoloc_search_destroy(s); /* left alone */
    geoloc_search_destroy(NULL);
    geoloc_gazetteer_destroy(g);
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_search_open(NULL, NULL, NULL));
    CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_search_open(NULL, "\xff", &s));
    geoloc_search_options_default(NULL);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/golden";
    if (!CHECK_OK(geoloc_search_open(NULL, NULL, &search))) return check_summary("test_search");
    test_examples();
    test_many();
    test_bad_arguments();
    test_files();
    test_forged_keys_out_of_order();
    test_reference(dir);
    geoloc_search_destroy(search);
    return check_summary("test_search");
}
