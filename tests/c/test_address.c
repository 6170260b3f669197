/*
 * test_address.c -- the C door's tests of addresses: the address forms, US state codes
 * and names, country names, and the golden address and state cases.
 *
 *   usage: test_address GOLDEN_DIR
 *
 * Plain C, no framework: see check.h. Exit status 0 when every check passed.
 */
#include "golden.h"
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geoloc.h"
#include "check.h"
#include "common.h"

/* ---------------------------------------------------------------------------------------------
 * Addresses
 * ------------------------------------------------------------------------------------------- */

struct address_args {
    const geoloc_address_part *parts;
    size_t n;
    geoloc_address_style style;
};

static geoloc_status call_address_format(const void *ctx, char *buf, size_t cap, size_t *needed)
{
    const struct address_args *a = ctx;
    return geoloc_address_format(a->parts, a->n, a->style, buf, cap, needed);
}

/* Formats parts and checks the text; returns the text in a static buffer ("" on failure). */
static const char *format_address(const geoloc_address_part *parts, size_t n, geoloc_address_style style)
{
    static char buf[512];
    size_t needed = 0;
    buf[0] = '\0';
    if (geoloc_address_format(parts, n, style, buf, sizeof buf, &needed) != GEOLOC_OK) {
        fprintf(stderr, "    geoloc_address_format: %s\n", geoloc_last_error());
        return "";
    }
    return buf;
}

#define PARTS(...) ((const geoloc_address_part[]){__VA_ARGS__})
#define N_PARTS(...) (sizeof((const geoloc_address_part[]){__VA_ARGS__}) / sizeof(geoloc_address_part))
#define ADDRESS(style, ...) format_address(PARTS(__VA_ARGS__), N_PARTS(__VA_ARGS__), (style))

static void test_address_format(void)
{
    static const geoloc_address_part springfield[] = {
        {"house_number", "123"}, {"road", "Main St"},  {"city", "Springfield"},
        {"state", "Illinois"},   {"state_code", "IL"}, {"postcode", "62701"},
        {"country", "United States"}, {"country_code", "US"},
    };
    static const struct {
        const char *country_code;
        geoloc_address_part parts[6];
    } postal[] = {
        {"US", {{"house_number", "123"}, {"road", "Main St"}, {"city", "Springfield"}, {"state", "Illinois"}, {"postcode", "62701"}, {"country_code", "US"}}},
        {"CA", {{"house_number", "24"}, {"road", "Sussex Drive"}, {"city", "Ottawa"}, {"state", "Ontario"}, {"postcode", "K1M 1M4"}, {"country_code", "CA"}}},
        {"GB", {{"house_number", "10"}, {"road", "Downing Street"}, {"city", "London"}, {"state", "England"}, {"postcode", "SW1A 2AA"}, {"country_code", "GB"}}},
        {"DE", {{"house_number", "1"}, {"road", "Platz der Republik"}, {"city", "Berlin"}, {"state", "Berlin"}, {"postcode", "11011"}, {"country_code", "DE"}}},
        {"FR", {{"house_number", "55"}, {"road", "Rue du Faubourg Saint-Honoré"}, {"city", "Paris"}, {"state", "Île-de-France"}, {"postcode", "75008"}, {"country_code", "FR"}}},
        {"JP", {{"house_number", "1-1"}, {"road", "Chiyoda"}, {"city", "Chiyoda-ku"}, {"state", "Tokyo"}, {"postcode", "100-8111"}, {"country_code", "JP"}}},
        {"NL", {{"house_number", "1"}, {"road", "Dam"}, {"city", "Amsterdam"}, {"state", "North Holland"}, {"postcode", "1012 JS"}, {"country_code", "NL"}}},
    };
    struct address_args args;
    char buf[256];
    size_t needed = 0, i, k;

    CHECK_STR(format_address(springfield, COUNT_OF(springfield), GEOLOC_ADDRESS_ONE_LINE), "123 Main St Springfield IL");
    CHECK_STR(format_address(springfield, COUNT_OF(springfield), GEOLOC_ADDRESS_CITY_STATE), "Springfield, IL");
    CHECK_STR(format_address(springfield, COUNT_OF(springfield), GEOLOC_ADDRESS_CITY_STATE_COUNTRY), "Springfield, Illinois, United States");

    /* The buffer contract, for every style. */
    for (k = GEOLOC_ADDRESS_ONE_LINE; k <= GEOLOC_ADDRESS_POSTAL; k++) {
        char want[512];
        args.parts = springfield;
        args.n = COUNT_OF(springfield);
        args.style = (geoloc_address_style)k;
        snprintf(want, sizeof want, "%s", format_address(springfield, COUNT_OF(springfield), args.style));
        CHECK(want[0] != '\0');
        CHECK_TEXT_CONTRACT(call_address_format, &args, GEOLOC_OK, want);
    }

    /* City, State: the state code derived from the name for the US; either alone. */
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE, {"city", "Springfield"}, {"state", "Illinois"}, {"country_code", "US"}), "Springfield, IL");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE, {"city", "Springfield"}, {"state_code", "IL"}), "Springfield, IL");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE, {"city", "Springfield"}), "Springfield");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE, {"state_code", "IL"}), "IL");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE, {"city", "Toronto"}, {"state", "Ontario"}, {"country_code", "CA"}), "Toronto, ON");

    /* City, State, Country: names derived from the codes. */
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE_COUNTRY, {"city", "Springfield"}, {"state_code", "IL"}, {"country_code", "US"}), "Springfield, Illinois, United States");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE_COUNTRY, {"city", "Springfield"}, {"state", "Illinois"}, {"country", "United States"}), "Springfield, Illinois, United States");

    /* Keys without regard to case, aliases, unknown keys ignored, NULL/empty values absent,
     * the first non-empty value wins. */
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_ONE_LINE, {"House_Number", "123"}, {"ROAD", "Main St"}, {"City", "Springfield"}, {"STATE_CODE", "IL"}), "123 Main St Springfield IL");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_ONE_LINE, {"street_number", "123"}, {"street", "Main St"}, {"locality", "Springfield"}, {"state_code", "IL"}), "123 Main St Springfield IL");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE, {"town", "Springfield"}, {"state_code", "IL"}), "Springfield, IL");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE, {"village", "Springfield"}, {"state_code", "IL"}), "Springfield, IL");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE, {"favourite_colour", "blue"}, {"city", "Springfield"}, {"state_code", "IL"}, {"", "x"}), "Springfield, IL");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE, {"city", NULL}, {"city", ""}, {"city", "Springfield"}, {"city", "Chicago"}, {"state_code", "IL"}), "Springfield, IL");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_ONE_LINE, {"house_number", ""}, {"road", "Main St"}, {"city", "Springfield"}), "Main St Springfield");
    /* UTF-8 passes through. */
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_ONE_LINE, {"house_number", "1"}, {"road", "Bahnhofstraße"}, {"city", "Zürich"}), "1 Bahnhofstraße Zürich");
    CHECK_STR(ADDRESS(GEOLOC_ADDRESS_CITY_STATE, {"city", "千代田区"}, {"state", "東京都"}, {"country_code", "JP"}), "千代田区, 東京都");

    /* No parts: empty text. */
    CHECK_OK(geoloc_address_format(NULL, 0, GEOLOC_ADDRESS_ONE_LINE, buf, sizeof buf, &needed));
    CHECK(needed == 1 && buf[0] == '\0');
    CHECK_OK(geoloc_address_format(NULL, 0, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, &needed));
    CHECK(needed == 1 && buf[0] == '\0');

    /* Postal forms: lines without a trailing newline, the city and postcode on them. */
    for (i = 0; i < COUNT_OF(postal); i++) {
        const char *text = format_address(postal[i].parts, COUNT_OF(postal[i].parts), GEOLOC_ADDRESS_POSTAL);
        size_t len = strlen(text);
        int before = check_failed;
        CHECK(len > 0 && strchr(text, '\n') != NULL);
        CHECK(len > 0 && text[len - 1] != '\n' && text[0] != '\n');
        CHECK(strstr(text, "\n\n") == NULL);
        CHECK(strstr(text, postal[i].parts[4].value) != NULL);                /* postcode */
        CHECK(strstr(text, postal[i].parts[2].value) != NULL);                /* city */
        if (strcmp(postal[i].country_code, "JP") != 0) {
            CHECK(strstr(text, postal[i].parts[1].value) != NULL);            /* road */
        }
        if (check_failed != before) fprintf(stderr, "    postal form for %s:\n%s\n", postal[i].country_code, text);
    }

    /* Bad input. */
    strcpy(buf, "untouched");
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_address_format(NULL, 2, GEOLOC_ADDRESS_ONE_LINE, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_address_format(PARTS({"city", "Springfield"}, {NULL, "x"}), 2, GEOLOC_ADDRESS_ONE_LINE, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_address_format(springfield, COUNT_OF(springfield), GEOLOC_ADDRESS_ONE_LINE, buf, sizeof buf, NULL));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_address_format(springfield, COUNT_OF(springfield), INVALID_ADDRESS_STYLE, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_address_format(springfield, COUNT_OF(springfield), (geoloc_address_style)-1, buf, sizeof buf, &needed));
    for (i = 0; i < COUNT_OF(HUGE_COUNTS); i++) {
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_address_format(springfield, HUGE_COUNTS[i], GEOLOC_ADDRESS_ONE_LINE, buf, sizeof buf, &needed));
    }
    for (i = 0; i < COUNT_OF(BAD_UTF8); i++) {
        geoloc_address_part bad_value[2] = {{"city", "Springfield"}, {"road", NULL}};
        geoloc_address_part bad_key[2] = {{"city", "Springfield"}, {NULL, "x"}};
        bad_value[1].value = BAD_UTF8[i];
        bad_key[1].key = BAD_UTF8[i];
        CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_address_format(bad_value, 2, GEOLOC_ADDRESS_ONE_LINE, buf, sizeof buf, &needed));
        CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_address_format(bad_key, 2, GEOLOC_ADDRESS_ONE_LINE, buf, sizeof buf, &needed));
    }
    CHECK_STR(buf, "untouched");

    /* The flags and the two-array form: the same checks, and an unknown flag refused. */
    {
        const char *keys[2] = {"city", "road"}, *values[2] = {"Springfield", NULL};
        const char *null_key[2] = {"city", NULL};
        CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_address_format_with(springfield, COUNT_OF(springfield), GEOLOC_ADDRESS_POSTAL, 2u, buf, sizeof buf, &needed));
        CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_address_format_kv(keys, values, 2, GEOLOC_ADDRESS_POSTAL, 0x80000000u, buf, sizeof buf, &needed));
        CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_address_format_kv(keys, values, 2, INVALID_ADDRESS_STYLE, 0, buf, sizeof buf, &needed));
        CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_address_format_with(NULL, 1, GEOLOC_ADDRESS_POSTAL, 0, buf, sizeof buf, &needed));
        CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_address_format_kv(NULL, values, 2, GEOLOC_ADDRESS_POSTAL, 0, buf, sizeof buf, &needed));
        CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_address_format_kv(keys, NULL, 2, GEOLOC_ADDRESS_POSTAL, 0, buf, sizeof buf, &needed));
        CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_address_format_kv(null_key, values, 2, GEOLOC_ADDRESS_POSTAL, 0, buf, sizeof buf, &needed));
        CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_address_format_kv(keys, values, 2, GEOLOC_ADDRESS_POSTAL, 0, buf, sizeof buf, NULL));
        for (i = 0; i < COUNT_OF(HUGE_COUNTS); i++) {
            CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_address_format_kv(keys, values, HUGE_COUNTS[i], GEOLOC_ADDRESS_POSTAL, 0, buf, sizeof buf, &needed));
        }
        for (i = 0; i < COUNT_OF(BAD_UTF8); i++) {
            const char *bad_values[2] = {"Springfield", BAD_UTF8[i]};
            const char *bad_keys[2] = {"city", BAD_UTF8[i]};
            CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_address_format_kv(keys, bad_values, 2, GEOLOC_ADDRESS_POSTAL, 0, buf, sizeof buf, &needed));
            CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_address_format_kv(bad_keys, values, 2, GEOLOC_ADDRESS_POSTAL, 0, buf, sizeof buf, &needed));
        }
        CHECK_STR(buf, "untouched");
        CHECK_OK(geoloc_address_format_kv(NULL, NULL, 0, GEOLOC_ADDRESS_POSTAL, GEOLOC_ADDRESS_ABBREVIATE, buf, sizeof buf, &needed));
        CHECK_STR(buf, "");
        CHECK_OK(geoloc_address_format_kv(keys, values, 2, GEOLOC_ADDRESS_CITY_STATE, GEOLOC_ADDRESS_ABBREVIATE, buf, sizeof buf, &needed));
        CHECK_STR(buf, "Springfield");
    }
}

/* Every state, DC and the territories by USPS code. */
static const char *const US_CODES[] = {
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA",
    "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ",
    "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT",
    "VA", "WA", "WV", "WI", "WY", "DC", "PR", "GU", "VI", "AS", "MP",
};

static void test_us_states(void)
{
    const char *out;
    size_t i;

    CHECK_OK(geoloc_us_state_code("Illinois", &out));
    CHECK_STR(out, "IL");
    CHECK_OK(geoloc_us_state_code("illinois", &out));
    CHECK_STR(out, "IL");
    CHECK_OK(geoloc_us_state_code("ILLINOIS", &out));
    CHECK_STR(out, "IL");
    CHECK_OK(geoloc_us_state_code("district of columbia", &out));
    CHECK_STR(out, "DC");
    CHECK_OK(geoloc_us_state_code("Puerto Rico", &out));
    CHECK_STR(out, "PR");
    CHECK_OK(geoloc_us_state_code("il", &out));
    CHECK_STR(out, "IL");
    CHECK_OK(geoloc_us_state_name("il", &out));
    CHECK_STR(out, "Illinois");
    CHECK_OK(geoloc_us_state_name("DC", &out));
    CHECK_STR(out, "District of Columbia");
    CHECK_OK(geoloc_us_state_name("Illinois", &out));
    CHECK_STR(out, "Illinois");
    CHECK_OK(geoloc_us_state_name("new york", &out));
    CHECK_STR(out, "New York");

    /* Both directions for every code. */
    for (i = 0; i < COUNT_OF(US_CODES); i++) {
        const char *name = NULL, *code = NULL;
        char lower[3];
        if (!CHECK_OK(geoloc_us_state_name(US_CODES[i], &name))) {
            fprintf(stderr, "    code %s\n", US_CODES[i]);
            continue;
        }
        CHECK_OK(geoloc_us_state_code(name, &code));
        CHECK_STR(code, US_CODES[i]);
        lower[0] = (char)(US_CODES[i][0] + 32);
        lower[1] = (char)(US_CODES[i][1] + 32);
        lower[2] = '\0';
        CHECK_OK(geoloc_us_state_code(lower, &code));
        CHECK_STR(code, US_CODES[i]);
    }

    out = "untouched";
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_us_state_code("Narnia", &out));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_us_state_code("", &out));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_us_state_code("XX", &out));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_us_state_name("XX", &out));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_us_state_name("", &out));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_us_state_name("Ontario", &out));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_us_state_code(NULL, &out));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_us_state_code("Illinois", NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_us_state_name(NULL, &out));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_us_state_name("IL", NULL));
    for (i = 0; i < COUNT_OF(BAD_UTF8); i++) {
        CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_us_state_code(BAD_UTF8[i], &out));
        CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_us_state_name(BAD_UTF8[i], &out));
    }
    CHECK_STR(out, "untouched");
}

static void test_country_name(void)
{
    const char *out;
    size_t i;

    CHECK_OK(geoloc_country_name("US", &out));
    CHECK_STR(out, "United States");
    CHECK_OK(geoloc_country_name("gb", &out));
    CHECK_STR(out, "United Kingdom");
    CHECK_OK(geoloc_country_name("De", &out));
    CHECK_STR(out, "Germany");
    CHECK_OK(geoloc_country_name("FR", &out));
    CHECK_STR(out, "France");
    CHECK_OK(geoloc_country_name("JP", &out));
    CHECK_STR(out, "Japan");
    CHECK_OK(geoloc_country_name("CA", &out));
    CHECK_STR(out, "Canada");

    out = "untouched";
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_country_name("XX", &out));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_country_name("", &out));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_country_name("USA", &out));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_country_name("U", &out));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_country_name(NULL, &out));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_country_name("US", NULL));
    for (i = 0; i < COUNT_OF(BAD_UTF8); i++) {
        CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_country_name(BAD_UTF8[i], &out));
    }
    CHECK_STR(out, "untouched");
}

/* ---------------------------------------------------------------------------------------------
 * The shared golden cases of this capability (tests/golden)
 * ------------------------------------------------------------------------------------------- */

static void row_address(char **raw, char **f)
{
    char *items[MAX_LIST];
    geoloc_address_part parts[MAX_LIST];
    size_t n = list_of(raw[2], items, MAX_LIST), i;
    char buf[1024];
    size_t needed = 0;

    for (i = 0; i < n; i++) {
        char *eq = items[i] != NULL ? strchr(items[i], '=') : NULL;
        if (eq == NULL) {
            bad_value("not key=value", items[i]);
            return;
        }
        *eq = '\0';
        parts[i].key = items[i];
        parts[i].value = strcmp(eq + 1, NULL_FIELD) == 0 ? NULL : eq + 1;
    }
    /* POSTAL_ABBREVIATED: the postal form with GEOLOC_ADDRESS_ABBREVIATE. */
    int abbreviated = strcmp(f[1], "POSTAL_ABBREVIATED") == 0;
    geoloc_address_style style = abbreviated ? GEOLOC_ADDRESS_POSTAL : address_style_of(f[1]);
    uint32_t flags = abbreviated ? GEOLOC_ADDRESS_ABBREVIATE : GEOLOC_ADDRESS_NO_FLAGS;
    if (!abbreviated && CHECK_OK(geoloc_address_format(n > 0 ? parts : NULL, n, style, buf, sizeof buf, &needed))) {
        ROW_CHECK_STR(buf, f[3]);
    }
    if (CHECK_OK(geoloc_address_format_with(n > 0 ? parts : NULL, n, style, flags, buf, sizeof buf, &needed))) {
        ROW_CHECK_STR(buf, f[3]);
    }
    /* The same components as two arrays. */
    const char *keys[MAX_LIST], *values[MAX_LIST];
    for (i = 0; i < n; i++) {
        keys[i] = parts[i].key;
        values[i] = parts[i].value;
    }
    if (CHECK_OK(geoloc_address_format_kv(n > 0 ? keys : NULL, n > 0 ? values : NULL, n, style, flags, buf, sizeof buf, &needed))) {
        ROW_CHECK_STR(buf, f[3]);
    }
}

static void row_us_states(char **f)
{
    const char *code = NULL, *name = NULL;
    if (CHECK_OK(geoloc_us_state_code(f[0], &code))) ROW_CHECK_STR(code, f[1]);
    if (CHECK_OK(geoloc_us_state_name(f[1], &name))) ROW_CHECK_STR(name, f[0]);
}

int main(int argc, char **argv)
{
    const struct golden_file files[] = {
        {"address.tsv", "name\tstyle\tparts\texpected", NULL, row_address},
        {"us_states.tsv", "name\tcode", row_us_states, NULL},
    };
    int failed_files;

    /* One stream order for CTest's merged log: failures next to what they belong to. */
    setvbuf(stdout, NULL, _IONBF, 0);
    test_address_format();
    test_us_states();
    test_country_name();
    failed_files = golden_run(argc, argv, files, sizeof files / sizeof files[0]);
    (void)failed_files;
    return check_summary("test_address");
}
