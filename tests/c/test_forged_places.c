/*
 * Forged place files through the C door (issue 21, "a place file is validated, not trusted"):
 * files edited and then resealed with a fresh checksum, as another program, a cache or a
 * download could hand over. Each finding of the issue is a test named after it: every forged file
 * is refused by geoloc_places_open (and geoloc_gazetteer_open) with GEOLOC_E_PARSE and a message
 * that says what is wrong, where 0.3 opened it and answered wrongly.
 *
 * The files: a set of 100 places without attributes saved by the library (format version 2),
 * and the same bytes as version 1 (without attributes the two layouts are the same, so 0.3 opens
 * them); tests/places/gazetteer-v1.places and places-v1.places (saved by libgeoloc 0.3.0). The
 * layout and the checksum are the format's (Sources/GeoLoc/Places/PlaceFile.swift).
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

/* Where the sections of a file without attributes start (version 1 and 2 alike). */
typedef struct {
    size_t n, m, points, latlon, ids, positions, gaps, dims;
} layout;

static layout layout_of(const unsigned char *b)
{
    layout L;
    size_t bucket = get_u32(b, 20), at = 128, depth = 0;
    L.n = (size_t)get_u64(b, 24);
    while ((L.n + ((size_t)1 << depth) - 1) >> depth > bucket) depth++;
    L.m = ((size_t)1 << depth) - 1;
#define SECTION(field, size) (at = (at + 63) & ~(size_t)63, L.field = at, at += (size))
    SECTION(points, 32 * L.n);
    SECTION(latlon, 16 * L.n);
    SECTION(ids, 4 * L.n);
    SECTION(positions, 4 * L.n);
    SECTION(gaps, 16 * L.m);
    SECTION(dims, L.m);
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

/* The 100 places (ids "p0"..., names "Place 0"...) saved by the library; *v1 the same bytes as
 * version 1. */
static unsigned char *base, *base_v1;
static size_t base_len;

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
    CHECK(base != NULL && base_len > 128 && get_u64(base, 32) == 0);
    base_v1 = malloc(base_len);
    memcpy(base_v1, base, base_len);
    base_v1[8] = 1;
    reseal(base_v1, base_len);
}

/* A copy of the base file of `version` to edit. */
static unsigned char *copy_of(int version)
{
    unsigned char *b = malloc(base_len);
    memcpy(b, version == 1 ? base_v1 : base, base_len);
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
 * "Illinois"), saved by the library (version 2), and where its sections start. */
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
    CHECK(b != NULL && get_u32(b, 8) == 2 && get_u64(b, 32) == 1 && get_u64(b, 128) == 2 && get_u64(b, 136) == 12);
    /* The sections of 3 places in one leaf (no internal node), 6 strings, then the column. */
    size_t at = 128, text = get_u64(b, 40);
#define SECTION(size) (at = (at + 63) & ~(size_t)63, at += (size), at - (size))
    C->columns = SECTION(16);
    (void)SECTION(32 * 3), (void)SECTION(16 * 3), (void)SECTION(4 * 3), (void)SECTION(4 * 3); /* points ... positions */
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
    for (int v = 1; v <= 2; v++) {
        unsigned char *b = copy_of(v);
        reseal(b, base_len);
        CHECK(memcmp(b, v == 1 ? base_v1 : base, base_len) == 0);
        write_file(b, base_len);
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
    for (int v = 1; v <= 2; v++) {
        unsigned char *b = copy_of(v);
        b[find(b, base_len, "Place 57") + 2] = 0;
        CHECK(refused_as(b, base_len, "the name of place 57 holds a NUL byte"));
        free(b);
        b = copy_of(v);
        b[find(b, base_len, "p42Place") + 1] = 0;
        CHECK(refused_as(b, base_len, "the id of place 42 holds a NUL byte"));
        free(b);
    }
}

/* 0.3: invalid UTF-8 reached a C caller as U+FFFD. */
static void test_forged_invalid_utf8(void)
{
    /* A stray byte, a lead byte alone, a surrogate, overlong forms, above U+10FFFF. */
    static const char *const bad[] = {"\xff", "\xc3", "\xed\xa0\x80", "\xc0\x80", "\xe0\x80\x80", "\xf4\x90\x80\x80"};
    for (int v = 1; v <= 2; v++) {
        for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
            unsigned char *b = copy_of(v);
            memcpy(b + find(b, base_len, "Place 57") + 4, bad[k], strlen(bad[k]));
            CHECK(refused_as(b, base_len, "the name of place 57 is not valid UTF-8"));
            free(b);
        }
        /* Valid as a whole, but "é" split between the name of place 1 and the id of place 2. */
        unsigned char *b = copy_of(v);
        size_t at = find(b, base_len, "p2Place 2");
        b[at - 1] = 0xc3;
        b[at] = 0xa9;
        CHECK(refused_as(b, base_len, "the name of place 1 is not valid UTF-8"));
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

/* 0.3: NaN or zeroed unit vectors made nearest return 0 results. */
static void test_forged_nan_or_zeroed_unit_vectors(void)
{
    for (int v = 1; v <= 2; v++) {
        layout L = layout_of(base);
        for (int kind = 0; kind < 3; kind++) {
            unsigned char *b = copy_of(v);
            size_t at = L.points + 32 * 10;
            if (kind == 0) put_f64(b, at, NAN);
            if (kind == 1)
                for (int k = 0; k < 4; k++) put_f64(b, at + 8 * (size_t)k, 0);
            if (kind == 2) put_f64(b, at + 24, 0.5 * get_f64(b, at + 24)); /* cos latitude */
            CHECK(refused_as(b, base_len, "does not match its coordinates"));
            free(b);
        }
    }
}

/* 0.3: bad split gaps or boxes made a 20,000 km `within` find 0 of 100. */
static void test_forged_split_gaps_or_box(void)
{
    layout L = layout_of(base);
    CHECK(L.m == 7);
    for (int v = 1; v <= 2; v++) {
        for (int kind = 0; kind < 6; kind++) {
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
            CHECK(refused_as(b, base_len, says));
            free(b);
        }
    }
}

/* 0.3: place 58 came first at 3,024 km when it is 11,242 km away: vectors and coordinates that
 * disagree (a search finds a place by its vector and measures it from its coordinates). Two
 * places exchange coordinates; the tree still holds their vectors. */
static void test_forged_coordinates_that_leave_their_vectors(void)
{
    layout L = layout_of(base);
    for (int v = 1; v <= 2; v++) {
        unsigned char *b = copy_of(v), tmp[16];
        memcpy(tmp, b + L.latlon + 16 * 5, 16);
        memcpy(b + L.latlon + 16 * 5, b + L.latlon + 16 * 80, 16);
        memcpy(b + L.latlon + 16 * 80, tmp, 16);
        CHECK(refused_as(b, base_len, "does not match its coordinates"));
        free(b);
    }
}

/* 0.3: a file whose index maps all say place 0 returned index 0 five times. */
static void test_forged_repeated_place_index(void)
{
    layout L = layout_of(base);
    for (int v = 1; v <= 2; v++) {
        unsigned char *b = copy_of(v);
        memset(b + L.ids, 0, 4 * L.n);
        CHECK(refused_as(b, base_len, "index maps repeat a place"));
        free(b);
        b = copy_of(v);
        memcpy(b + L.ids + 4, b + L.ids, 4);
        CHECK(refused_as(b, base_len, "index maps repeat a place"));
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
    for (int v = 1; v <= 2; v++) {
        for (size_t k = 0; k < sizeof edits / sizeof *edits; k++) {
            unsigned char *b = copy_of(v);
            put_u64(b, edits[k].at, edits[k].value);
            CHECK(refused_as(b, base_len, edits[k].says));
            free(b);
        }
        unsigned char *b = copy_of(v);
        put_u64(b, 16, 0); /* the header size (and the leaf size, bytes 20..23) */
        CHECK(refused_as(b, base_len, "its header size is 0, not 128"));
        memcpy(b, v == 1 ? base_v1 : base, base_len);
        b[20] = 0;
        b[21] = 0;
        CHECK(refused_as(b, base_len, "its leaf size 0 is not in 1...4096"));
        b[21] = 0x20; /* 8192 */
        CHECK(refused_as(b, base_len, "its leaf size 8192 is not in 1...4096"));
        free(b);
        /* The size the header gives: larger (truncated), smaller; a newer version. */
        b = copy_of(v);
        put_u64(b, 56, base_len + 64);
        CHECK(refused_with(b, base_len, GEOLOC_E_PARSE, "truncated place file"));
        put_u64(b, 56, base_len - 64);
        CHECK(refused_with(b, base_len, GEOLOC_E_PARSE, "where its header gives"));
        free(b);
    }
    unsigned char *b = copy_of(2);
    put_u64(b, 8, 3); /* version 3 (and the byte-order mark) */
    b[12] = 4, b[13] = 3, b[14] = 2, b[15] = 1;
    CHECK(refused_with(b, base_len, GEOLOC_E_UNSUPPORTED, "place file version 3 is newer"));
    b[8] = 0;
    CHECK(refused_with(b, base_len, GEOLOC_E_PARSE, "its format version is 0"));
    free(b);
    /* The column table of version 2: more distinct values than places, values past the file. */
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
    layout L = layout_of(base);
    for (int v = 1; v <= 2; v++) {
        unsigned char *b = copy_of(v);
        put_u64(b, L.ids + 8, 100 | (uint64_t)get_u32(b, L.ids + 12) << 32); /* ids[2] = 100 */
        CHECK(refused_as(b, base_len, "the place index at tree position 2 (100) is out of range (100 places)"));
        memcpy(b, v == 1 ? base_v1 : base, base_len);
        memset(b + L.ids + 12, 0xff, 4); /* ids[3] = -1 */
        CHECK(refused_as(b, base_len, "the place index at tree position 3 (-1) is out of range"));
        memcpy(b, v == 1 ? base_v1 : base, base_len);
        memset(b + L.positions + 4 * 7, 0x7f, 4); /* positions[7] = 2^31 - 1 */
        CHECK(refused_as(b, base_len, "the tree position of place 7 (2139062143) is out of range"));
        memcpy(b, v == 1 ? base_v1 : base, base_len);
        b[L.dims + 4] = 3;
        CHECK(refused_as(b, base_len, "node 4 of the index splits along dimension 3, not 0, 1 or 2"));
        memcpy(b, v == 1 ? base_v1 : base, base_len);
        put_f64(b, L.latlon + 16 * 9, 91); /* a latitude */
        CHECK(refused_as(b, base_len, "a coordinate is out of range (91,"));
        memcpy(b, v == 1 ? base_v1 : base, base_len);
        put_f64(b, L.latlon + 16 * 9 + 8, INFINITY); /* a longitude */
        CHECK(refused_as(b, base_len, "a coordinate is out of range"));
        free(b);
    }
}

/* String offsets that leave the text: one past the end, one that goes back, the last short of
 * the text's end. */
static void test_forged_text_offsets(void)
{
    layout L = layout_of(base);
    size_t ends = (L.dims + L.m + 63) & ~(size_t)63;
    for (int v = 1; v <= 2; v++) {
        unsigned char *b = copy_of(v);
        memset(b + ends + 4 * 10, 0xff, 4); /* string 10 ends at 2^32 - 1 */
        CHECK(refused_as(b, base_len, "the text's offsets are out of order (string 11 ends at"));
        memcpy(b, v == 1 ? base_v1 : base, base_len);
        uint32_t past = get_u32(b, ends + 4 * 199) + 1; /* the last string ends past the text */
        for (int k = 0; k < 4; k++) b[ends + 4 * 199 + (size_t)k] = (unsigned char)(past >> (8 * k));
        CHECK(refused_as(b, base_len, "its last string ends at"));
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
    }
    remove(path);
    free(base);
    free(base_v1);
    return check_summary("test_forged_places");
}
