/*
 * Forged place files through the C door (issue 21, "a place file is validated, not trusted"):
 * files edited and then resealed with a fresh checksum, as another program, a cache or a
 * download could hand over. Each finding of the issue is a test named after it: every forged file
 * is refused by geoloc_places_open (and geoloc_gazetteer_open) with GEOLOC_E_PARSE and a message
 * that says what is wrong, where 0.3 opened it and answered wrongly.
 *
 * The files: a set of 100 places without attributes saved by the library (format version 4,
 * SAVED below, no unit vectors: they are derived on open; version 3 has the same layout), the same set as version 2 wrote it (the vectors of
 * libm's sine and cosine stored after the header, the tree's gaps and box from them, as libgeoloc
 * 0.5 wrote files) and those bytes as version 1 (without attributes the layouts of 1 and 2 are
 * the same, so 0.3 opens them); tests/places/gazetteer-v1.places and places-v1.places (saved by
 * libgeoloc 0.3.0), numbered-v3.places (saved by 0.6.0). The layout and the checksum are the format's
 * (Sources/GeoLoc/Places/PlaceFile.swift).
 *
 *   test_forged_places TESTS_PLACES_DIR
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "geoloc.h"

static const char *fixtures = "tests/places";

/* The format version geoloc_places_save writes; the versions the tests forge, in turn, are 1, 2
 * and this one. */
#define SAVED 4
static int next_version(int v) { return v == 2 ? SAVED : v + 1; }

/* ---------------------------------------------------------------------------------------------
 * The format: checksum, layout
 * ------------------------------------------------------------------------------------------- */

static uint64_t get_u64(const unsigned char *b, size_t at)
{
    uint64_t v = 0;
    for (int k = 7; k >= 0; k--) v = v << 8 | b[at + (size_t)k];
    return v;
}

static uint32_t get_u32(const unsigned char *b, size_t at)
{
    return (uint32_t)get_u64(b, at) & 0xffffffffu;
}

static void put_u64(unsigned char *b, size_t at, uint64_t v)
{
    for (int k = 0; k < 8; k++) b[at + (size_t)k] = (unsigned char)(v >> (8 * k));
}

static void put_f64(unsigned char *b, size_t at, double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    put_u64(b, at, u);
}

static double get_f64(const unsigned char *b, size_t at)
{
    uint64_t u = get_u64(b, at);
    double v;
    memcpy(&v, &u, 8);
    return v;
}

static uint64_t step(uint64_t lane, uint64_t word)
{
    uint64_t x = (lane ^ word) * 0x9FB21C651E98DF25ull;
    return x ^ (x >> 32);
}

/* The place file checksum: four lanes over the little-endian 8-byte words (bytes 120..127 read as
 * 0), the tail in the fourth, folded with the length. */
static uint64_t checksum(const unsigned char *b, size_t n)
{
    uint64_t lanes[4] = {0x243F6A8885A308D3ull, 0x13198A2E03707344ull, 0xA4093822299F31D0ull, 0x082EFA98EC4E6C89ull};
    size_t i = 0;
#define WORD(at) ((at) == 120 ? 0 : get_u64(b, (at)))
    for (; i + 32 <= n; i += 32)
        for (int k = 0; k < 4; k++) lanes[k] = step(lanes[k], WORD(i + 8 * (size_t)k));
    for (int lane = 0; i + 8 <= n; i += 8, lane++) lanes[lane] = step(lanes[lane], WORD(i));
#undef WORD
    if (i < n) {
        uint64_t w = 0;
        for (size_t k = 0; i + k < n; k++) w |= (uint64_t)b[i + k] << (8 * k);
        lanes[3] = step(lanes[3], w);
    }
    uint64_t h = step((uint64_t)n, lanes[0]);
    for (int k = 1; k < 4; k++) h = step(h, lanes[k]);
    return step(h, 0x5851F42D4C957F2Dull);
}

static void reseal(unsigned char *b, size_t n)
{
    put_u64(b, 120, checksum(b, n));
}

/* Where the sections of a file without attributes start (version 1 and 2 alike; versions 3 and 4 have
 * no points, positions or gaps: their offsets are those of the next section), up to `ends`. */
typedef struct {
    size_t n, m, points, latlon, ids, positions, gaps, dims, ends;
} layout;

static layout layout_of(const unsigned char *b)
{
    layout L;
    size_t bucket = get_u32(b, 20), at = 128, depth = 0, stored = get_u32(b, 8) <= 2;
    L.n = (size_t)get_u64(b, 24);
    while ((L.n + ((size_t)1 << depth) - 1) >> depth > bucket) depth++;
    L.m = ((size_t)1 << depth) - 1;
#define SECTION(field, size) (at = (at + 63) & ~(size_t)63, L.field = at, at += (size))
    SECTION(points, stored ? 32 * L.n : 0);
    SECTION(latlon, 16 * L.n);
    SECTION(ids, 4 * L.n);
    SECTION(positions, stored ? 4 * L.n : 0);
    SECTION(gaps, stored ? 16 * L.m : 0);
    SECTION(dims, L.m);
    SECTION(ends, 0);
#undef SECTION
    return L;
}

/* ---------------------------------------------------------------------------------------------
 * Files
 * ------------------------------------------------------------------------------------------- */

static char path[512];

static unsigned char *read_file(const char *name, size_t *len)
{
    FILE *f = fopen(name, "rb");
    if (!f) return NULL;
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) buf = realloc(buf, cap = cap ? 2 * cap : 4096);
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0) break;
        n += got;
    }
    fclose(f);
    *len = n;
    return buf;
}

static void write_file(const unsigned char *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL && fwrite(b, 1, len, f) == len);
    if (f) fclose(f);
}

/* The 100 places (ids "p0"..., names "Place 0"...) saved by the library (version 4, base_len
 * bytes); base_v2 as version 2 wrote them, base_v1 those bytes as version 1 (v12_len bytes). */
static unsigned char *base, *base_v1, *base_v2;
static size_t base_len, v12_len;

/* The box of the points at tree positions lo..hi-1 (node `node`), writing every node's gaps
 * (the left half's greatest and the right half's least along the node's dimension) on the way:
 * how version 2 files were made. */
static void box_of(unsigned char *b, const layout *L, size_t node, size_t lo, size_t hi, double box[6])
{
    if (node >= L->m) {
        for (int d = 0; d < 3; d++) box[d] = INFINITY, box[3 + d] = -INFINITY;
        for (size_t p = lo; p < hi; p++)
            for (int d = 0; d < 3; d++) {
                double v = get_f64(b, L->points + 32 * p + 8 * (size_t)d);
                box[d] = fmin(box[d], v);
                box[3 + d] = fmax(box[3 + d], v);
            }
        return;
    }
    size_t mid = lo + (hi - lo) / 2, d = b[L->dims + node];
    double left[6], right[6];
    box_of(b, L, 2 * node + 1, lo, mid, left);
    box_of(b, L, 2 * node + 2, mid, hi, right);
    put_f64(b, L->gaps + 16 * node, left[3 + d]);
    put_f64(b, L->gaps + 16 * node + 8, right[d]);
    for (int k = 0; k < 3; k++) box[k] = fmin(left[k], right[k]), box[3 + k] = fmax(left[3 + k], right[3 + k]);
}

/* A version 4 file without attributes (len bytes) as version 2 wrote it: the sections version 4
 * leaves out put back (the points: x, y, z, cos lat of each place in tree order, libm's; the tree
 * position of each place; every node's gaps and the header's box from those points), resealed.
 * *out_len: its size. */
static unsigned char *as_version_2(const unsigned char *v3, size_t len, size_t *out_len)
{
    layout S = layout_of(v3);
    size_t n = S.n, tail = len - S.ends;
    CHECK(get_u64(v3, 32) == 0);
    unsigned char head[128];
    memcpy(head, v3, 128);
    head[8] = 2;
    layout L = layout_of(head);
    size_t size = L.ends + tail;
    unsigned char *b = calloc(1, size);
    memcpy(b, head, 128);
    put_u64(b, 56, size);
    memcpy(b + L.latlon, v3 + S.latlon, 16 * n);
    memcpy(b + L.ids, v3 + S.ids, 4 * n);
    memcpy(b + L.dims, v3 + S.dims, L.m);
    memcpy(b + L.ends, v3 + S.ends, tail);
    for (size_t p = 0; p < n; p++) {
        uint32_t i = get_u32(b, L.ids + 4 * p);
        for (int k = 0; k < 4; k++) b[L.positions + 4 * i + (size_t)k] = (unsigned char)(p >> (8 * k));
        double phi = get_f64(b, L.latlon + 16 * p) * (M_PI / 180), lam = get_f64(b, L.latlon + 16 * p + 8) * (M_PI / 180);
        double c = cos(phi), v[4] = {c * cos(lam), c * sin(lam), sin(phi), c};
        for (int k = 0; k < 4; k++) put_f64(b, L.points + 32 * p + 8 * (size_t)k, v[k]);
    }
    double box[6];
    box_of(b, &L, 0, 0, n, box);
    for (int k = 0; k < 6; k++) put_f64(b, 64 + 8 * (size_t)k, box[k]);
    reseal(b, size);
    *out_len = size;
    return b;
}

static void make_base(void)
{
    geoloc_coord pts[100];
    char idbuf[100][8], namebuf[100][16];
    const char *ids[100], *names[100];
    uint64_t s = 21;
    for (int i = 0; i < 100; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        double u = (double)(s >> 11) / 9007199254740992.0;
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        double v = (double)(s >> 11) / 9007199254740992.0;
        pts[i].lat = asin(2 * u - 1) * 180 / M_PI;
        pts[i].lon = 360 * v - 180;
        snprintf(idbuf[i], sizeof idbuf[i], "p%d", i);
        snprintf(namebuf[i], sizeof namebuf[i], "Place %d", i);
        ids[i] = idbuf[i];
        names[i] = namebuf[i];
    }
    geoloc_places *p = NULL;
    CHECK_OK(geoloc_places_create(pts, ids, names, 100, NULL, 0, NULL, &p));
    CHECK_OK(geoloc_places_save(p, path));
    geoloc_places_destroy(p);
    base = read_file(path, &base_len);
    CHECK(base != NULL && base_len > 128 && get_u64(base, 32) == 0 && get_u32(base, 8) == SAVED);
    if (!base) return;
    base_v2 = as_version_2(base, base_len, &v12_len);
    base_v1 = malloc(v12_len);
    memcpy(base_v1, base_v2, v12_len);
    base_v1[8] = 1;
    reseal(base_v1, v12_len);
}

static const unsigned char *base_of(int version)
{
    return version == 1 ? base_v1 : version == 2 ? base_v2 : base;
}

static size_t len_of(int version)
{
    return version == SAVED ? base_len : v12_len;
}

/* A copy of the base file of `version` to edit (len_of(version) bytes). */
static unsigned char *copy_of(int version)
{
    unsigned char *b = malloc(len_of(version));
    memcpy(b, base_of(version), len_of(version));
    return b;
}

static size_t find(const unsigned char *b, size_t len, const char *text)
{
    const unsigned char *at = memmem(b, len, text, strlen(text));
    CHECK(at != NULL);
    return at ? (size_t)(at - b) : 0;
}

/* Reseals the edited bytes and opens them: GEOLOC_E_PARSE, no set, and a message that holds
 * "corrupted place file" and `words`. */
static int refused_as(unsigned char *b, size_t len, const char *words)
{
    reseal(b, len);
    write_file(b, len);
    geoloc_places *o = NULL;
    geoloc_status s = geoloc_places_open(path, &o);
    const char *msg = geoloc_last_error();
    int ok = s == GEOLOC_E_PARSE && o == NULL && strstr(msg, "corrupted place file") && strstr(msg, words);
    if (!ok) fprintf(stderr, "  open gave %s (%s), expected a parse error saying \"%s\"\n", status_name(s), msg, words);
    geoloc_places_destroy(o);
    return ok;
}


/* Like refused_as, for any status and any message (the checks before the checksum's). */
static int refused_with(unsigned char *b, size_t len, geoloc_status want, const char *words)
{
    reseal(b, len);
    write_file(b, len);
    geoloc_places *o = NULL;
    geoloc_status s = geoloc_places_open(path, &o);
    const char *msg = geoloc_last_error();
    int ok = s == want && o == NULL && strstr(msg, words);
    if (!ok) fprintf(stderr, "  open gave %s (%s), expected %s saying \"%s\"\n", status_name(s), msg, status_name(want), words);
    geoloc_places_destroy(o);
    return ok;
}

/* A file of 3 places with one attribute column "state" (2 distinct values, "Ohio" and
 * "Illinois"), saved by the library (version 4), and where its sections start. */
typedef struct {
    size_t columns, numbers, value_ends, values, names;
} columns_layout;

static unsigned char *attribute_file(size_t *len, columns_layout *C)
{
    const geoloc_coord pts[] = {{1, 2}, {3, 4}, {5, 6}};
    const char *ids[] = {"i0", "i1", "i2"}, *names[] = {"n0", "n1", "n2"}, *attr[] = {"state"};
    const char *values[] = {"Ohio", "Illinois", "Ohio"};
    geoloc_places *p = NULL;
    CHECK_OK(geoloc_places_create(pts, ids, names, 3, attr, 1, values, &p));
    CHECK_OK(geoloc_places_save(p, path));
    geoloc_places_destroy(p);
    unsigned char *b = read_file(path, len);
    CHECK(b != NULL && get_u32(b, 8) == SAVED && get_u64(b, 32) == 1 && get_u64(b, 128) == 2 && get_u64(b, 136) == 12);
    /* The sections of 3 places in one leaf (no internal node), 6 strings, then the column. */
    size_t at = 128, text = get_u64(b, 40);
#define SECTION(size) (at = (at + 63) & ~(size_t)63, at += (size), at - (size))
    C->columns = SECTION(16);
    (void)SECTION(16 * 3), (void)SECTION(4 * 3); /* latLon, ids (no points, positions, gaps or dims: version 4) */
    (void)SECTION(4 * 6), (void)SECTION(text);                                                /* ends, text */
    C->numbers = SECTION(3);
    C->value_ends = SECTION(4 * 2);
    C->values = SECTION(12);
    C->names = SECTION(4 + 5);
#undef SECTION
    CHECK(at == *len && memcmp(b + C->values, "OhioIllinois", 12) == 0 && memcmp(b + C->names + 4, "state", 5) == 0);
    return b;
}

/* ---------------------------------------------------------------------------------------------
 * The findings
 * ------------------------------------------------------------------------------------------- */

/* The unedited files (resealing changes nothing) open and hold the places. */
static void test_forged_files_start_from_files_that_open(void)
{
    for (int v = 1; v <= SAVED; v = next_version(v)) {
        unsigned char *b = copy_of(v);
        reseal(b, len_of(v));
        CHECK(memcmp(b, base_of(v), len_of(v)) == 0);
        write_file(b, len_of(v));
        geoloc_places *o = NULL;
        char buf[32];
        size_t needed = 0, n = 0;
        CHECK_OK(geoloc_places_open(path, &o));
        CHECK_OK(geoloc_places_count(o, &n));
        CHECK(n == 100);
        CHECK_OK(geoloc_places_name(o, 57, buf, sizeof buf, &needed));
        CHECK(strcmp(buf, "Place 57") == 0 && needed == 9);
        geoloc_places_destroy(o);
        free(b);
    }
}

/* Genuine files whose text (ids and names) or attribute values end exactly where a 16-byte step
 * of the text check ends (a check that read one byte past them saw the padding's zero as a NUL
 * and refused the shipped gazetteer). */
static void test_files_whose_text_ends_on_a_16_byte_step_open(void)
{
    const geoloc_coord pts[] = {{1, 2}, {3, 4}};
    const char *ids[] = {"abcdefgh", "qrstuvwx"}, *names[] = {"ijklmnop", "Zürich!"}, *attr[] = {"a"};
    const char *values[] = {"0123456789abcdef", "Łódź abcdefghij"};
    for (int k = 0; k < 2; k++) {
        geoloc_places *p = NULL, *o = NULL;
        CHECK_OK(geoloc_places_create(pts, ids, names, k ? 2 : 1, attr, 1, values, &p));
        CHECK_OK(geoloc_places_save(p, path));
        geoloc_places_destroy(p);
        CHECK_OK(geoloc_places_open(path, &o));
        geoloc_places_destroy(o);
    }
}

/* 0.3: a NUL inside a name gave `needed` 4 with strlen 2. */
static void test_forged_nul_inside_an_id_or_name(void)
{
    for (int v = 1; v <= SAVED; v = next_version(v)) {
        unsigned char *b = copy_of(v);
        b[find(b, len_of(v), "Place 57") + 2] = 0;
        CHECK(refused_as(b, len_of(v), "the name of place 57 holds a NUL byte"));
        free(b);
        b = copy_of(v);
        b[find(b, len_of(v), "p42Place") + 1] = 0;
        CHECK(refused_as(b, len_of(v), "the id of place 42 holds a NUL byte"));
        free(b);
    }
}

/* 0.3: invalid UTF-8 reached a C caller as U+FFFD. */
static void test_forged_invalid_utf8(void)
{
    /* A stray byte, a lead byte alone, a surrogate, overlong forms, above U+10FFFF. */
    static const char *const bad[] = {"\xff", "\xc3", "\xed\xa0\x80", "\xc0\x80", "\xe0\x80\x80", "\xf4\x90\x80\x80"};
    for (int v = 1; v <= SAVED; v = next_version(v)) {
        for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
            unsigned char *b = copy_of(v);
            memcpy(b + find(b, len_of(v), "Place 57") + 4, bad[k], strlen(bad[k]));
            CHECK(refused_as(b, len_of(v), "the name of place 57 is not valid UTF-8"));
            free(b);
        }
        /* Valid as a whole, but "é" split between the name of place 1 and the id of place 2. */
        unsigned char *b = copy_of(v);
        size_t at = find(b, len_of(v), "p2Place 2");
        b[at - 1] = 0xc3;
        b[at] = 0xa9;
        CHECK(refused_as(b, len_of(v), "the name of place 1 is not valid UTF-8"));
        free(b);
    }
}

/* 0.3: a gazetteer opened on such a file answered reverse_geocode "Spring" (needed 15). */
static void test_forged_gazetteer_with_a_nul_in_a_name(void)
{
    char fixture[512];
    size_t len = 0;
    snprintf(fixture, sizeof fixture, "%s/gazetteer-v1.places", fixtures);
    unsigned char *b = read_file(fixture, &len);
    CHECK(b != NULL && len > 128 && b[8] == 1);
    if (!b) return;
    b[find(b, len, "Springfield") + 6] = 0;
    reseal(b, len);
    write_file(b, len);
    geoloc_gazetteer *g = NULL;
    CHECK_ERR(GEOLOC_E_PARSE, geoloc_gazetteer_open(path, &g));
    CHECK(g == NULL && strstr(geoloc_last_error(), "the name of place 0 holds a NUL byte") != NULL);
    free(b);
    /* The fixture itself is a gazetteer. */
    char text[64];
    size_t needed = 0;
    geoloc_match m;
    CHECK_OK(geoloc_gazetteer_open(fixture, &g));
    CHECK_OK(geoloc_reverse_geocode(g, (geoloc_coord){39.8, -89.6}, GEOLOC_ADDRESS_CITY_STATE, text, sizeof text, &needed, &m));
    CHECK(strcmp(text, "Springfield, IL") == 0 && needed == 16);
    geoloc_gazetteer_destroy(g);
}

/* 0.3: NaN or zeroed unit vectors made nearest return 0 results. Versions 1 and 2 store vectors
 * (checked against the coordinates); versions 3 and 4 have none to forge. */
static void test_forged_nan_or_zeroed_unit_vectors(void)
{
    CHECK(v12_len > base_len + 32 * 100);
    for (int v = 1; v <= 2; v++) {
        layout L = layout_of(base_of(v));
        for (int kind = 0; kind < 3; kind++) {
            unsigned char *b = copy_of(v);
            size_t at = L.points + 32 * 10;
            if (kind == 0) put_f64(b, at, NAN);
            if (kind == 1)
                for (int k = 0; k < 4; k++) put_f64(b, at + 8 * (size_t)k, 0);
            if (kind == 2) put_f64(b, at + 24, 0.5 * get_f64(b, at + 24)); /* cos latitude */
            CHECK(refused_as(b, len_of(v), "does not match its coordinates"));
            free(b);
        }
    }
}

/* 0.3: bad split gaps or boxes made a 20,000 km `within` find 0 of 100. (Version 3 stores no
 * gaps: they are derived from the derived vectors.) */
static void test_forged_split_gaps_or_box(void)
{
    CHECK(layout_of(base).m == 7);
    for (int v = 1; v <= SAVED; v = next_version(v)) {
        layout L = layout_of(base_of(v));
        /* Version 3 stores no gaps (they are derived): its box only. */
        for (int kind = v < SAVED ? 0 : 4; kind < 6; kind++) {
            unsigned char *b = copy_of(v);
            const char *says = "of the index does not bound the points below it";
            switch (kind) {
            case 0: put_f64(b, L.gaps, -2); break;          /* the root's left half reaches past its gap */
            case 1: put_f64(b, L.gaps + 8, 2); break;       /* its right half starts before its gap */
            case 2: put_f64(b, L.gaps + 16, NAN); break;    /* node 1 */
            case 3: {                                       /* low above high */
                double low = get_f64(b, L.gaps), high = get_f64(b, L.gaps + 8);
                put_f64(b, L.gaps, high + 0.5);
                put_f64(b, L.gaps + 8, low);
                says = "node 0 of the index";
                break;
            }
            case 4:                                         /* the box's high corner below every point */
                for (int k = 0; k < 3; k++) put_f64(b, 88 + 8 * (size_t)k, -1);
                says = "bounding box does not hold its points";
                break;
            default:
                put_f64(b, 64, NAN);
                says = "bounding box does not hold its points";
            }
            CHECK(refused_as(b, len_of(v), says));
            free(b);
        }
    }
}

/* 0.3: place 58 came first at 3,024 km when it is 11,242 km away: vectors and coordinates that
 * disagree (a search finds a place by its vector and measures it from its coordinates). Two
 * places exchange coordinates: in versions 1 and 2 the tree still holds their vectors; in version
 * 3 their derived vectors follow them into subtrees whose gaps do not bound them. */
static void test_forged_coordinates_that_leave_their_vectors(void)
{
    for (int v = 1; v <= SAVED; v = next_version(v)) {
        layout L = layout_of(base_of(v));
        unsigned char *b = copy_of(v), tmp[16];
        memcpy(tmp, b + L.latlon + 16 * 5, 16);
        memcpy(b + L.latlon + 16 * 5, b + L.latlon + 16 * 80, 16);
        memcpy(b + L.latlon + 16 * 80, tmp, 16);
        CHECK(refused_as(b, len_of(v), v < SAVED ? "does not match its coordinates" : "of the index does not bound the points below it"));
        free(b);
    }
}

/* 0.3: a file whose index maps all say place 0 returned index 0 five times. */
static void test_forged_repeated_place_index(void)
{
    for (int v = 1; v <= SAVED; v = next_version(v)) {
        layout L = layout_of(base_of(v));
        unsigned char *b = copy_of(v);
        memset(b + L.ids, 0, 4 * L.n);
        CHECK(refused_as(b, len_of(v), "index maps repeat a place"));
        free(b);
        b = copy_of(v);
        memcpy(b + L.ids + 4, b + L.ids, 4);
        CHECK(refused_as(b, len_of(v), "index maps repeat a place"));
        free(b);
    }
}

/* Attribute values (a column's values in version 2, the places' strings in version 1) and names. */
static void test_forged_attribute_text(void)
{
    const geoloc_coord pts[] = {{1, 2}, {3, 4}, {5, 6}};
    const char *ids[] = {"i0", "i1", "i2"}, *names[] = {"n0", "n1", "n2"}, *attr[] = {"state"};
    const char *values[] = {"Ohio", "Illinois", "Ohio"};
    geoloc_places *p = NULL;
    size_t len = 0, v1len = 0;
    CHECK_OK(geoloc_places_create(pts, ids, names, 3, attr, 1, values, &p));
    CHECK_OK(geoloc_places_save(p, path));
    geoloc_places_destroy(p);
    unsigned char *v2 = read_file(path, &len);
    char fixture[512];
    snprintf(fixture, sizeof fixture, "%s/places-v1.places", fixtures);
    unsigned char *v1 = read_file(fixture, &v1len);
    CHECK(v2 != NULL && v1 != NULL);
    if (!v2 || !v1) return;
    for (int bad = 0; bad < 2; bad++) {
        const char *says = bad ? "is not valid UTF-8" : "holds a NUL byte";
        char want[128];
        unsigned char *b = malloc(len);
        memcpy(b, v2, len);
        b[find(b, len, "Illinois") + 3] = bad ? 0xff : 0;
        snprintf(want, sizeof want, "value 1 of attribute \"state\" %s", says);
        CHECK(refused_as(b, len, want));
        free(b);
        b = malloc(v1len);
        memcpy(b, v1, v1len);
        b[find(b, v1len, "Land of Lincoln") + 3] = bad ? 0xff : 0;
        snprintf(want, sizeof want, "the value of attribute \"note\" of place 0 %s", says);
        CHECK(refused_as(b, v1len, want));
        free(b);
    }
    v2[find(v2, len, "state") + 2] = 0;
    CHECK(refused_as(v2, len, "attribute name 0 holds a NUL byte"));
    free(v2);
    free(v1);
}

/* Counts in the header that overflow a size or do not fit the file: refused before anything is
 * allocated or read by them, naming the count. */
static void test_forged_counts_that_overflow_or_leave_the_file(void)
{
    static const struct {
        size_t at;
        uint64_t value;
        const char *says;
    } edits[] = {
        {24, 1ull << 62, "its count of places (4611686018427387904) is larger than the file could hold"},
        {24, UINT64_MAX, "its count of places"},
        {24, 101, "its counts (101 places, 0 attribute columns"},
        {32, 1ull << 40, "its count of attribute columns (1099511627776)"},
        {32, 1, "attribute column"}, /* version 1: the counts' size; 2: the column table's first entry */
        {40, 1ull << 40, "its text's size in bytes (1099511627776)"},
        {40, 8, "make a file of"},
        {48, UINT64_MAX, "its attribute names' size in bytes"},
        {112, 6, "unknown flags 0x6"},
    };
    for (int v = 1; v <= SAVED; v = next_version(v)) {
        for (size_t k = 0; k < sizeof edits / sizeof *edits; k++) {
            unsigned char *b = copy_of(v);
            put_u64(b, edits[k].at, edits[k].value);
            CHECK(refused_as(b, len_of(v), edits[k].says));
            free(b);
        }
        unsigned char *b = copy_of(v);
        put_u64(b, 16, 0); /* the header size (and the leaf size, bytes 20..23) */
        CHECK(refused_as(b, len_of(v), "bad version or header size"));
        memcpy(b, base_of(v), len_of(v));
        b[20] = 0;
        b[21] = 0;
        CHECK(refused_as(b, len_of(v), "its leaf size 0 is not in 1...4096"));
        b[21] = 0x20; /* 8192 */
        CHECK(refused_as(b, len_of(v), "its leaf size 8192 is not in 1...4096"));
        free(b);
        /* The size the header gives: larger (truncated), smaller; a newer version. */
        b = copy_of(v);
        put_u64(b, 56, len_of(v) + 64);
        CHECK(refused_with(b, len_of(v), GEOLOC_E_PARSE, "truncated place file"));
        put_u64(b, 56, len_of(v) - 64);
        CHECK(refused_with(b, len_of(v), GEOLOC_E_PARSE, "where its header gives"));
        free(b);
    }
    unsigned char *b = copy_of(SAVED);
    put_u64(b, 8, SAVED + 1); /* version 5 (and the byte-order mark) */
    b[12] = 4, b[13] = 3, b[14] = 2, b[15] = 1;
    CHECK(refused_with(b, base_len, GEOLOC_E_UNSUPPORTED, "place file version 5 is newer than this library reads (4)"));
    b[8] = 0;
    CHECK(refused_with(b, base_len, GEOLOC_E_PARSE, "corrupted place file: bad version or header size"));
    free(b);
    /* The column table: more distinct values than places, values past the file. */
    size_t len = 0;
    columns_layout C;
    unsigned char *a = attribute_file(&len, &C);
    if (!a) return;
    b = malloc(len);
    memcpy(b, a, len);
    put_u64(b, C.columns, 4);
    CHECK(refused_as(b, len, "attribute column 0 has 4 distinct values for 3 places"));
    memcpy(b, a, len);
    put_u64(b, C.columns + 8, 1ull << 40);
    CHECK(refused_as(b, len, "the values of attribute column 0 (1099511627776 bytes) are larger than the file"));
    memcpy(b, a, len);
    put_u64(b, C.columns + 8, 100);
    CHECK(refused_as(b, len, "the column table's sizes) make a file of"));
    free(b);
    free(a);
}

/* Tree indices and split dimensions out of range. */
static void test_forged_tree_indices_out_of_range(void)
{
    for (int v = 1; v <= SAVED; v = next_version(v)) {
        layout L = layout_of(base_of(v));
        unsigned char *b = copy_of(v);
        put_u64(b, L.ids + 8, 100 | (uint64_t)get_u32(b, L.ids + 12) << 32); /* ids[2] = 100 */
        CHECK(refused_as(b, len_of(v), "the place index at tree position 2 (100) is out of range (100 places)"));
        memcpy(b, base_of(v), len_of(v));
        memset(b + L.ids + 12, 0xff, 4); /* ids[3] = -1 */
        CHECK(refused_as(b, len_of(v), "the place index at tree position 3 (-1) is out of range"));
        if (v < SAVED) { /* versions 3 and 4 store no positions: they are derived from ids */
            memcpy(b, base_of(v), len_of(v));
            memset(b + L.positions + 4 * 7, 0x7f, 4); /* positions[7] = 2^31 - 1 */
            CHECK(refused_as(b, len_of(v), "the tree position of place 7 (2139062143) is out of range"));
        }
        memcpy(b, base_of(v), len_of(v));
        b[L.dims + 4] = 3;
        CHECK(refused_as(b, len_of(v), "node 4 of the index splits along dimension 3, not 0, 1 or 2"));
        memcpy(b, base_of(v), len_of(v));
        put_f64(b, L.latlon + 16 * 9, 91); /* a latitude */
        CHECK(refused_as(b, len_of(v), "a coordinate is out of range (91,"));
        memcpy(b, base_of(v), len_of(v));
        put_f64(b, L.latlon + 16 * 9 + 8, INFINITY); /* a longitude */
        CHECK(refused_as(b, len_of(v), "a coordinate is out of range"));
        free(b);
    }
}

/* String offsets that leave the text: one past the end, one that goes back, the last short of
 * the text's end. */
static void test_forged_text_offsets(void)
{
    for (int v = 1; v <= SAVED; v = next_version(v)) {
        size_t ends = layout_of(base_of(v)).ends;
        unsigned char *b = copy_of(v);
        memset(b + ends + 4 * 10, 0xff, 4); /* string 10 ends at 2^32 - 1 */
        CHECK(refused_as(b, len_of(v), "the text's offsets are out of order (string 11 ends at"));
        memcpy(b, base_of(v), len_of(v));
        uint32_t past = get_u32(b, ends + 4 * 199) + 1; /* the last string ends past the text */
        for (int k = 0; k < 4; k++) b[ends + 4 * 199 + (size_t)k] = (unsigned char)(past >> (8 * k));
        CHECK(refused_as(b, len_of(v), "its last string ends at"));
        free(b);
    }
}

/* Attribute tables that point outside the file or past their values (version 2's column
 * sections, the names section). */
static void test_forged_attribute_tables_pointing_outside(void)
{
    size_t len = 0;
    columns_layout C;
    unsigned char *a = attribute_file(&len, &C);
    if (!a) return;
    unsigned char *b = malloc(len);
    memcpy(b, a, len);
    b[C.numbers + 1] = 200; /* place 1's value number: 2 values */
    CHECK(refused_as(b, len, "a value number of attribute column 0 (200) is out of range (2 values)"));
    memcpy(b, a, len);
    put_u64(b, C.value_ends, 1000); /* where value 0 ends, past the column's 12 bytes (and value 1's end) */
    CHECK(refused_as(b, len, "the values of attribute column 0 are out of order"));
    memcpy(b, a, len);
    b[C.value_ends + 4] = 11; /* the last value ends short of the column's bytes */
    CHECK(refused_as(b, len, "the values of attribute column 0 are out of order"));
    memcpy(b, a, len);
    b[C.names] = 200; /* the name's length runs past the section (and the file) */
    CHECK(refused_as(b, len, "attribute name 0 (200 bytes) runs past the end of the names section"));
    memcpy(b, a, len);
    b[C.names] = 4; /* a shorter name leaves a byte */
    CHECK(refused_as(b, len, "1 bytes after the attribute names"));
    memcpy(b, a, len);
    b[C.names + 4 + 1] = 0xc0;
    CHECK(refused_as(b, len, "attribute name 0 is not valid UTF-8"));
    free(b);
    free(a);
}

/* A version 3 or 4 header on a version 2 file (vectors where those have none) and the other
 * way round: the sizes the counts give disagree with the file's. */
static void test_forged_version_that_leaves_its_layout(void)
{
    char want[160];
    for (int v = 3; v <= SAVED; v++) {
        unsigned char *b = copy_of(2);
        b[8] = (unsigned char)v;
        snprintf(want, sizeof want, "make a file of %zu bytes, not %zu", base_len, v12_len);
        CHECK(refused_as(b, v12_len, want));
        free(b);
    }
    unsigned char *b = copy_of(SAVED);
    b[8] = 2;
    snprintf(want, sizeof want, "make a file of %zu bytes, not %zu", v12_len, base_len);
    CHECK(refused_as(b, base_len, want));
    free(b);
}

/* Files of the old formats and the same sets saved anew (version 4, vectors derived on open)
 * answer alike: the gazetteer fixture saved by 0.3.0 (version 1, libm's vectors stored), and the
 * 100 places as version 2 wrote them; nearest 1 and 10, within 300 and 3,000 km of 600 points
 * (the places themselves, 2 km beside them, anywhere), each result's index and distance to the bit. */
static void test_old_and_new_formats_answer_alike(void)
{
    char fixture[512], resaved[560];
    snprintf(fixture, sizeof fixture, "%s/gazetteer-v1.places", fixtures);
    snprintf(resaved, sizeof resaved, "%s.v4", path);
    for (int which = 0; which < 2; which++) {
        if (which == 1) write_file(base_v2, v12_len);
        geoloc_places *old = NULL, *now = NULL;
        CHECK_OK(geoloc_places_open(which == 0 ? fixture : path, &old));
        if (!old) continue;
        CHECK_OK(geoloc_places_save(old, resaved));
        CHECK_OK(geoloc_places_open(resaved, &now));
        size_t len = 0, n = 0;
        unsigned char *f = read_file(resaved, &len);
        CHECK(f != NULL && len > 128 && get_u32(f, 8) == SAVED);
        free(f);
        CHECK_OK(geoloc_places_count(old, &n));
        uint64_t s = 5;
        size_t compared = 0;
        for (int q = 0; q < 600 && now && n > 0; q++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            geoloc_coord c = {0, 0};
            CHECK_OK(geoloc_places_coord(old, (size_t)(s >> 33) % n, &c));
            double u = (double)(s >> 11) / 9007199254740992.0;
            if (q % 3 == 1) c.lat = fmax(-90, fmin(90, c.lat + 0.02 * (u - 0.5))), c.lon = fmax(-180, fmin(179.99, c.lon - 0.02 * (u - 0.5)));
            if (q % 3 == 2) c.lat = 180 * u - 90, c.lon = 359.99 * ((double)(s >> 20 & 0xfffff) / 1048576.0) - 180;
            for (int kind = 0; kind < 4; kind++) {
                geoloc_match a[64], b[64];
                size_t na = 0, nb = 0;
                if (kind < 2) {
                    size_t k = kind ? 10 : 1;
                    CHECK_OK(geoloc_places_nearest(old, c, k, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, INFINITY, a, 64, &na));
                    CHECK_OK(geoloc_places_nearest(now, c, k, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, INFINITY, b, 64, &nb));
                } else {
                    double r = kind == 2 ? 300 : 3000;
                    CHECK_OK(geoloc_places_within(old, c, r, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 64, a, 64, &na));
                    CHECK_OK(geoloc_places_within(now, c, r, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 64, b, 64, &nb));
                }
                CHECK(na == nb && memcmp(a, b, na * sizeof *a) == 0);
                compared += na;
            }
        }
        CHECK(compared > 1000);
        geoloc_places_destroy(old);
        geoloc_places_destroy(now);
    }
    remove(resaved);
}

/* A file of version 3 (tests/places/numbered-v3.places: 3,000 places, uniform on the sphere,
 * numbered, saved by libgeoloc 0.6.0, whose tree was built on x and y from libm's cosine) opens
 * and answers as the set made anew from its coordinates (nearest 1 and 10, within 500 km of 300
 * points: index and distance to the bit), every distance equal to geoloc_distance's; saved, it
 * is a file of version 4 that answers the same. */
static void test_a_version_3_file_of_0_6_answers_as_its_places(void)
{
    char fixture[512], resaved[560];
    snprintf(fixture, sizeof fixture, "%s/numbered-v3.places", fixtures);
    snprintf(resaved, sizeof resaved, "%s.v4", path);
    size_t len = 0;
    unsigned char *f = read_file(fixture, &len);
    CHECK(f != NULL && len > 128 && get_u32(f, 8) == 3);
    free(f);
    geoloc_places *v3 = NULL, *made = NULL, *v4 = NULL;
    CHECK_OK(geoloc_places_open(fixture, &v3));
    if (!v3) return;
    size_t n = 0;
    CHECK_OK(geoloc_places_count(v3, &n));
    CHECK(n == 3000);
    geoloc_coord *pts = calloc(n, sizeof *pts);
    for (size_t i = 0; i < n; i++) CHECK_OK(geoloc_places_coord(v3, i, &pts[i]));
    CHECK_OK(geoloc_places_create(pts, NULL, NULL, n, NULL, 0, NULL, &made));
    CHECK_OK(geoloc_places_save(v3, resaved));
    CHECK_OK(geoloc_places_open(resaved, &v4));
    f = read_file(resaved, &len);
    CHECK(f != NULL && len > 128 && get_u32(f, 8) == SAVED);
    free(f);
    uint64_t s = 7;
    size_t compared = 0;
    for (int q = 0; q < 300 && made && v4; q++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        geoloc_coord c = pts[(s >> 33) % n];
        double u = (double)(s >> 11) / 9007199254740992.0;
        if (q % 2 == 1) c.lat = 180 * u - 90, c.lon = 359.99 * ((double)(s >> 20 & 0xfffff) / 1048576.0) - 180;
        for (int kind = 0; kind < 3; kind++) {
            geoloc_match a[64], b[64], d[64];
            size_t na = 0, nb = 0, nd = 0;
            geoloc_places *sets[3] = {v3, made, v4};
            geoloc_match *out[3] = {a, b, d};
            size_t *counts[3] = {&na, &nb, &nd};
            for (int k = 0; k < 3; k++) {
                if (kind < 2)
                    CHECK_OK(geoloc_places_nearest(sets[k], c, kind ? 10 : 1, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS,
                                                   INFINITY, out[k], 64, counts[k]));
                else
                    CHECK_OK(geoloc_places_within(sets[k], c, 500e3, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, 64,
                                                  out[k], 64, counts[k]));
            }
            CHECK(na == nb && na == nd && memcmp(a, b, na * sizeof *a) == 0 && memcmp(a, d, na * sizeof *a) == 0);
            for (size_t i = 0; i < na; i++) {
                double want = NAN;
                CHECK_OK(geoloc_distance(c, pts[a[i].index], GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &want));
                CHECK(memcmp(&want, &a[i].distance, sizeof want) == 0);
            }
            compared += na;
        }
    }
    CHECK(compared > 600);
    free(pts);
    geoloc_places_destroy(v3);
    geoloc_places_destroy(made);
    geoloc_places_destroy(v4);
    remove(resaved);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc > 1) fixtures = argv[1];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/geoloc-test-forged-%ld.places", dir && *dir ? dir : "/tmp", (long)getpid());
    make_base();
    if (base) {
        test_forged_files_start_from_files_that_open();
        test_files_whose_text_ends_on_a_16_byte_step_open();
        test_forged_nul_inside_an_id_or_name();
        test_forged_invalid_utf8();
        test_forged_gazetteer_with_a_nul_in_a_name();
        test_forged_nan_or_zeroed_unit_vectors();
        test_forged_split_gaps_or_box();
        test_forged_coordinates_that_leave_their_vectors();
        test_forged_repeated_place_index();
        test_forged_attribute_text();
        test_forged_counts_that_overflow_or_leave_the_file();
        test_forged_tree_indices_out_of_range();
        test_forged_text_offsets();
        test_forged_attribute_tables_pointing_outside();
        test_forged_version_that_leaves_its_layout();
        test_old_and_new_formats_answer_alike();
        test_a_version_3_file_of_0_6_answers_as_its_places();
    }
    remove(path);
    free(base);
    free(base_v1);
    free(base_v2);
    return check_summary("test_forged_places");
}
