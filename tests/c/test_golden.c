/*
 * test_golden.c -- checks every row of the shared golden cases (the .tsv files of tests/golden,
 * format in tests/golden/README.md) through the C interface.
 *
 *   test_golden DIR      DIR is the folder that holds the .tsv files
 *
 * Every file is required: a missing or empty file is a failure, not a skip. Prints a count per
 * file and exits non-zero when any row failed.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geoloc.h"
#include "check.h"

#define MAX_FIELDS 16
#define MAX_LIST 64

/* ---------------------------------------------------------------------------------------------
 * Fields
 * ------------------------------------------------------------------------------------------- */

static const char *NULL_FIELD = "<NULL>";

/* Undoes the \t, \n and \\ escapes in place; a field "<NULL>" becomes NULL. */
static char *unescape(char *s)
{
    char *r = s, *w = s;
    if (strcmp(s, NULL_FIELD) == 0) return NULL;
    while (*r != '\0') {
        if (r[0] == '\\' && (r[1] == 't' || r[1] == 'n' || r[1] == '\\')) {
            *w++ = r[1] == 't' ? '\t' : r[1] == 'n' ? '\n' : '\\';
            r += 2;
        } else {
            *w++ = *r++;
        }
    }
    *w = '\0';
    return s;
}

/* Splits s in place at every occurrence of sep; returns the count (at most max). */
static size_t split(char *s, const char *sep, char **out, size_t max)
{
    size_t n = 0, len = strlen(sep);
    for (;;) {
        char *at = strstr(s, sep);
        if (n == max) return n + 1; /* too many: reported by the caller */
        out[n++] = s;
        if (at == NULL) return n;
        *at = '\0';
        s = at + len;
    }
}

/* The current row, for messages. */
static const char *row_file;
static int row_line;
static int row_bad_value;

static void bad_value(const char *what, const char *text)
{
    row_bad_value = 1;
    check_report(0, row_file, row_line, what);
    fprintf(stderr, "    value \"%s\"\n", text ? text : "<NULL>");
}

static double number(const char *s)
{
    char *end;
    double v;
    if (s == NULL || s[0] == '\0') {
        bad_value("a number is missing", s);
        return 0;
    }
    v = strtod(s, &end);
    if (*end != '\0') bad_value("not a number", s);
    return v;
}

static long long integer(const char *s)
{
    char *end;
    long long v;
    if (s == NULL || s[0] == '\0') {
        bad_value("an integer is missing", s);
        return 0;
    }
    errno = 0;
    v = strtoll(s, &end, 10);
    if (*end != '\0' || errno != 0) bad_value("not an integer", s);
    return v;
}

static geoloc_status status_of(const char *s)
{
    int i;
    for (i = 0; i <= GEOLOC_E_INTERNAL; i++) {
        if (s != NULL && strcmp(s, status_name((geoloc_status)i)) == 0) return (geoloc_status)i;
    }
    bad_value("not a status name", s);
    return GEOLOC_E_INTERNAL;
}

static int name_index(const char *s, const char *const *names, int count, const char *what)
{
    int i;
    for (i = 0; i < count; i++) {
        if (s != NULL && strcmp(s, names[i]) == 0) return i;
    }
    bad_value(what, s);
    return 0;
}

static geoloc_unit unit_of(const char *s)
{
    static const char *const names[] = {"METERS", "KILOMETERS", "MILES", "NAUTICAL_MILES", "FEET"};
    return (geoloc_unit)name_index(s, names, 5, "not a unit name");
}

static geoloc_coord_style coord_style_of(const char *s)
{
    static const char *const names[] = {"COMPACT", "READABLE"};
    return (geoloc_coord_style)name_index(s, names, 2, "not a coordinate style");
}

static geoloc_temp_unit temp_unit_of(const char *s)
{
    static const char *const names[] = {"C", "F"};
    return (geoloc_temp_unit)name_index(s, names, 2, "not a temperature unit (C or F)");
}

static geoloc_daylight daylight_of(const char *s)
{
    static const char *const names[] = {"UNKNOWN", "DAY", "NIGHT"};
    return (geoloc_daylight)name_index(s, names, 3, "not a daylight name");
}

static geoloc_address_style address_style_of(const char *s)
{
    static const char *const names[] = {"ONE_LINE", "CITY_STATE", "CITY_STATE_COUNTRY", "POSTAL"};
    return (geoloc_address_style)name_index(s, names, 4, "not an address style");
}

static int close_to(double got, double want, double rel)
{
    double scale = want > 1e-300 ? want : 1e-300;
    return fabs(got - want) <= rel * scale + 1e-9;
}

static int same_double(double got, double want)
{
    return got == want && signbit(got) == signbit(want);
}

#define CHECK_STATUS(got, want)                                                                \
    do {                                                                                       \
        geoloc_status got_ = (got), want_ = (want);                                            \
        if (!check_report(got_ == want_, row_file, row_line, "status")) {                      \
            fprintf(stderr, "    want %s, got %s (%s)\n", status_name(want_),                  \
                    status_name(got_) ? status_name(got_) : "?", geoloc_last_error());        \
        }                                                                                      \
    } while (0)

#define ROW_CHECK(cond) check_report((cond) ? 1 : 0, row_file, row_line, #cond)
#define ROW_CHECK_STR(got, want) check_str_((got), (want), row_file, row_line, #got " == " #want)

/* An error status comes with a message. */
static void check_message(geoloc_status s)
{
    if (s != GEOLOC_OK) ROW_CHECK(geoloc_last_error()[0] != '\0');
}

/* ---------------------------------------------------------------------------------------------
 * One function per file; f[] are the fields of one row, unescaped
 * ------------------------------------------------------------------------------------------- */

static void row_coord_parse(char **f)
{
    geoloc_status want = status_of(f[1]);
    geoloc_coord out = {1234.5, 1234.5};
    geoloc_status s = geoloc_coord_parse(f[0], &out);
    CHECK_STATUS(s, want);
    check_message(s);
    if (want == GEOLOC_OK && s == GEOLOC_OK) {
        double lat = number(f[2]), lon = number(f[3]);
        if (!ROW_CHECK(same_double(out.lat, lat) && same_double(out.lon, lon))) {
            fprintf(stderr, "    got %.17g,%.17g want %.17g,%.17g\n", out.lat, out.lon, lat, lon);
        }
    } else if (want != GEOLOC_OK) {
        ROW_CHECK(out.lat == 1234.5 && out.lon == 1234.5);
    }
}

static void row_coord_format(char **f)
{
    geoloc_coord c;
    char buf[128];
    size_t needed = 0;
    c.lat = number(f[0]);
    c.lon = number(f[1]);
    if (CHECK_OK(geoloc_coord_format(c, coord_style_of(f[2]), buf, sizeof buf, &needed))) {
        ROW_CHECK_STR(buf, f[3]);
        ROW_CHECK(f[3] != NULL && needed == strlen(f[3]) + 1);
    }
}

static void row_distance(char **f)
{
    geoloc_coord a, b;
    double got = -1, want = number(f[5]), tol = number(f[6]);
    a.lat = number(f[0]);
    a.lon = number(f[1]);
    b.lat = number(f[2]);
    b.lon = number(f[3]);
    if (CHECK_OK(geoloc_distance(a, b, GEOLOC_MODEL_SPHERE, unit_of(f[4]), &got))) {
        if (!ROW_CHECK(close_to(got, want, tol))) {
            fprintf(stderr, "    got %.17g want %.17g (rel %.3g)\n", got, want, fabs(got - want) / want);
        }
    }
}

/* WGS84 geodesics against GeographicLib (tools/gen_geodesic.py): distances within 15 nm; the
 * batch and the model-aware distance agree with the scalar inverse to the last bit. */
#define GEODESIC_TOL_M 15e-9

static void row_geodesic_inverse(char **f)
{
    geoloc_coord a, b;
    double s = -1, azi1 = 0, azi2 = 0, d = -1, batch = -1;
    double want = number(f[5]);
    a.lat = number(f[1]);
    a.lon = number(f[2]);
    b.lat = number(f[3]);
    b.lon = number(f[4]);
    if (CHECK_OK(geoloc_geodesic_inverse(a, b, &s, &azi1, &azi2))) {
        if (!ROW_CHECK(fabs(s - want) <= GEODESIC_TOL_M)) {
            fprintf(stderr, "    got %.17g want %.17g (%.3g m off)\n", s, want, fabs(s - want));
        }
        ROW_CHECK(isfinite(azi1) && isfinite(azi2) && fabs(azi1) <= 180 && fabs(azi2) <= 180);
    }
    if (CHECK_OK(geoloc_distance(a, b, GEOLOC_MODEL_WGS84, GEOLOC_UNIT_METERS, &d))) ROW_CHECK(d == s);
    if (CHECK_OK(geoloc_distance_pairs(&a, &b, 1, GEOLOC_MODEL_WGS84, GEOLOC_UNIT_METERS, &batch))) {
        ROW_CHECK(batch == s);
    }
}

static void row_geodesic_direct(char **f)
{
    const double m_per_deg = 6378137.0 * 3.14159265358979323846 / 180;
    geoloc_coord start, end = {0, 0};
    double azi2 = 0, lat2 = number(f[5]), lon2 = number(f[6]), dlat, dlon, off;
    start.lat = number(f[1]);
    start.lon = number(f[2]);
    if (CHECK_OK(geoloc_geodesic_direct(start, number(f[3]), number(f[4]), &end, &azi2))) {
        /* The position error in meters (longitudes compared modulo 360). */
        dlat = (end.lat - lat2) * m_per_deg;
        dlon = remainder(end.lon - lon2, 360.0) * m_per_deg * cos(lat2 * 3.14159265358979323846 / 180);
        off = sqrt(dlat * dlat + dlon * dlon);
        if (!ROW_CHECK(off <= GEODESIC_TOL_M)) {
            fprintf(stderr, "    got %.17g, %.17g want %.17g, %.17g (%.3g m off)\n", end.lat, end.lon, lat2, lon2, off);
        }
        ROW_CHECK(end.lon >= -180 && end.lon < 180 && isfinite(azi2));
    }
}

static void row_distance_text(char **f)
{
    char buf[128];
    size_t needed = 0;
    if (CHECK_OK(geoloc_distance_text(number(f[0]), unit_of(f[1]), buf, sizeof buf, &needed))) {
        ROW_CHECK_STR(buf, f[2]);
    }
}

/* Splits a " | "-joined list in place; "<NULL>" items become NULL, an empty field no items. */
static size_t list_of(char *raw, char **items, size_t max)
{
    size_t n, i;
    if (raw == NULL || raw[0] == '\0') return 0;
    n = split(raw, " | ", items, max);
    if (n > max) {
        bad_value("too many list items for this test", raw);
        return 0;
    }
    for (i = 0; i < n; i++) items[i] = unescape(items[i]);
    return n;
}

static void row_mileage(char **raw, char **f)
{
    char *stops[MAX_LIST], *skipped_items[MAX_LIST], *leg_items[MAX_LIST];
    size_t n_stops = list_of(raw[2], stops, MAX_LIST);
    geoloc_status want = status_of(f[5]);
    geoloc_mileage_result r;
    geoloc_leg legs[MAX_LIST];
    size_t skipped[MAX_LIST];
    size_t n_skipped, n_legs, i;
    geoloc_status s;

    memset(&r, 0xAB, sizeof r);
    s = geoloc_mileage(f[1], (const char *const *)stops, n_stops, integer(f[3]) != 0,
                       GEOLOC_MODEL_SPHERE, unit_of(f[4]), &r, legs, MAX_LIST, skipped, MAX_LIST);
    CHECK_STATUS(s, want);
    check_message(s);
    if (s != want || want == GEOLOC_E_NO_HOME) return;

    ROW_CHECK_STR(r.text, f[6]);
    if (!ROW_CHECK(close_to(r.total, number(f[7]), 1e-12))) {
        fprintf(stderr, "    total %.17g want %s\n", r.total, f[7]);
    }
    ROW_CHECK(r.stops_used == (size_t)integer(f[8]));

    /* skipped and legs hold only numbers: comma- and semicolon-joined lists. */
    n_skipped = 0;
    if (f[9] != NULL && f[9][0] != '\0') n_skipped = split(f[9], ",", skipped_items, MAX_LIST);
    ROW_CHECK(r.stops_skipped == n_skipped);
    for (i = 0; i < n_skipped && i < r.stops_skipped; i++) {
        ROW_CHECK(skipped[i] == (size_t)integer(skipped_items[i]));
    }

    n_legs = 0;
    if (f[10] != NULL && f[10][0] != '\0') n_legs = split(f[10], ";", leg_items, MAX_LIST);
    ROW_CHECK(r.leg_count == n_legs);
    for (i = 0; i < n_legs && i < r.leg_count; i++) {
        long long from, to;
        double d;
        int used = 0;
        if (sscanf(leg_items[i], "%lld>%lld=%lf%n", &from, &to, &d, &used) != 3 ||
            leg_items[i][used] != '\0') {
            bad_value("not a leg (from>to=distance)", leg_items[i]);
            continue;
        }
        if (!ROW_CHECK(legs[i].from == from && legs[i].to == to && close_to(legs[i].distance, d, 1e-12))) {
            fprintf(stderr, "    leg %zu: got %lld>%lld=%.17g want %s\n", i, (long long)legs[i].from,
                    (long long)legs[i].to, legs[i].distance, leg_items[i]);
        }
    }
}

static void row_eta(char **f)
{
    geoloc_status want = status_of(f[4]);
    int64_t minutes = -12345;
    geoloc_status s = geoloc_eta_minutes(number(f[0]), number(f[1]), unit_of(f[2]), number(f[3]), &minutes);
    CHECK_STATUS(s, want);
    check_message(s);
    if (want == GEOLOC_OK && s == GEOLOC_OK) {
        if (!ROW_CHECK(minutes == integer(f[5]))) fprintf(stderr, "    got %lld\n", (long long)minutes);
    } else if (want != GEOLOC_OK) {
        ROW_CHECK(minutes == -12345);
    }
}

static void row_weather(char **f)
{
    int32_t code = (int32_t)integer(f[0]);
    geoloc_daylight daylight = daylight_of(f[4]);
    geoloc_status want = status_of(f[5]);
    /* "Unknown" is the label of every undocumented code, a soft failure of its own. */
    geoloc_status want_label = f[6] != NULL && strcmp(f[6], "Unknown") == 0 ? GEOLOC_E_UNKNOWN_CODE : GEOLOC_OK;
    const char *label = NULL;
    char buf[128];
    size_t needed = 0;
    geoloc_status s = geoloc_weather_label(code, daylight, &label);

    CHECK_STATUS(s, want_label);
    ROW_CHECK_STR(label, f[6]);
    s = geoloc_weather_condition(code, number(f[1]), temp_unit_of(f[2]), temp_unit_of(f[3]), daylight,
                                 buf, sizeof buf, &needed);
    CHECK_STATUS(s, want);
    check_message(s);
    if (s == want && (want == GEOLOC_OK || want == GEOLOC_E_UNKNOWN_CODE)) ROW_CHECK_STR(buf, f[7]);
}

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
    if (CHECK_OK(geoloc_address_format(n > 0 ? parts : NULL, n, address_style_of(f[1]), buf, sizeof buf, &needed))) {
        ROW_CHECK_STR(buf, f[3]);
    }
}

static void row_us_states(char **f)
{
    const char *code = NULL, *name = NULL;
    if (CHECK_OK(geoloc_us_state_code(f[0], &code))) ROW_CHECK_STR(code, f[1]);
    if (CHECK_OK(geoloc_us_state_name(f[1], &name))) ROW_CHECK_STR(name, f[0]);
}

/* ---------------------------------------------------------------------------------------------
 * Files
 * ------------------------------------------------------------------------------------------- */

struct golden_file {
    const char *name;
    const char *columns; /* the header row, tab-separated */
    void (*check)(char **f);
    void (*check_raw)(char **raw, char **f); /* for rows that split a field before unescaping */
};

static int run_file(const char *dir, const struct golden_file *g)
{
    char path[4096];
    FILE *fp;
    char *line = NULL, *header = NULL;
    size_t cap = 0;
    ssize_t len;
    int lineno = 0, rows = 0, failed_rows = 0;
    size_t n_columns;
    char *columns[MAX_FIELDS];
    char columns_copy[512];

    snprintf(path, sizeof path, "%s/%s", dir, g->name);
    row_file = path;
    row_line = 0;
    fp = fopen(path, "r");
    if (!check_report(fp != NULL, path, 0, "the golden file exists and can be read")) {
        printf("%-20s MISSING\n", g->name);
        return 1;
    }
    snprintf(columns_copy, sizeof columns_copy, "%s", g->columns);
    n_columns = split(columns_copy, "\t", columns, MAX_FIELDS);

    while ((len = getline(&line, &cap, fp)) >= 0) {
        char *raw[MAX_FIELDS], *f[MAX_FIELDS], copy[8192];
        size_t n, i;
        int failed_before = check_failed;
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
        if (line[0] == '#' || len == 0) continue;
        row_line = lineno;
        if (header == NULL) {
            header = strdup(line);
            if (!check_report(strcmp(line, g->columns) == 0, path, lineno, "the header row names the documented columns")) {
                fprintf(stderr, "    got:  %s\n    want: %s\n", line, g->columns);
                break;
            }
            continue;
        }
        rows++;
        row_bad_value = 0;
        snprintf(copy, sizeof copy, "%s", line);
        n = split(line, "\t", raw, MAX_FIELDS);
        if (!check_report(n == n_columns, path, lineno, "the row has one field per column")) {
            fprintf(stderr, "    %zu fields, %zu columns: %s\n", n, n_columns, copy);
            failed_rows++;
            continue;
        }
        /* Unescaped copies; the raw fields stay for lists that are split first. */
        {
            static char unescaped[MAX_FIELDS][8192];
            for (i = 0; i < n; i++) {
                snprintf(unescaped[i], sizeof unescaped[i], "%s", raw[i]);
                f[i] = unescape(unescaped[i]);
            }
        }
        if (g->check_raw != NULL) {
            g->check_raw(raw, f);
        } else {
            g->check(f);
        }
        if (check_failed != failed_before) {
            failed_rows++;
            fprintf(stderr, "    in %s:%d: %s\n", path, lineno, copy);
        }
    }
    free(line);
    fclose(fp);
    if (header == NULL) {
        check_report(0, path, 0, "the golden file has a header row");
    } else {
        free(header);
    }
    check_report(rows > 0, path, 0, "the golden file has at least one row");
    printf("%-20s %4d rows, %d failed\n", g->name, rows, failed_rows);
    return failed_rows != 0 || rows == 0;
}

int main(int argc, char **argv)
{
    const struct golden_file files[] = {
        {"coord_parse.tsv", "input\tstatus\tlat\tlon", row_coord_parse, NULL},
        {"coord_format.tsv", "lat\tlon\tstyle\texpected", row_coord_format, NULL},
        {"distance.tsv", "lat1\tlon1\tlat2\tlon2\tunit\texpected\trel_tol", row_distance, NULL},
        {"distance_text.tsv", "meters\tunit\texpected", row_distance_text, NULL},
        {"mileage.tsv",
         "name\thome\tstops\tround_trip\tunit\tstatus\ttext\ttotal\tstops_used\tskipped\tlegs", NULL,
         row_mileage},
        {"eta.tsv", "distance\tspeed_per_hour\tunit\tdetour\tstatus\tminutes", row_eta, NULL},
        {"weather.tsv", "code\ttemperature\tgiven\tshown\tdaylight\tstatus\tlabel\ttext", row_weather,
         NULL},
        {"address.tsv", "name\tstyle\tparts\texpected", NULL, row_address},
        {"us_states.tsv", "name\tcode", row_us_states, NULL},
        {"geodesic_inverse.tsv", "case\tlat1\tlon1\tlat2\tlon2\ts12_m\tazi1_deg\tazi2_deg", row_geodesic_inverse, NULL},
        {"geodesic_direct.tsv", "case\tlat1\tlon1\tazi1\ts12_m\tlat2\tlon2\tazi2", row_geodesic_direct, NULL},
    };
    size_t i;
    int failed_files = 0;

    setvbuf(stdout, NULL, _IONBF, 0); /* keep the counts in order with the failures */
    if (argc != 2) {
        fprintf(stderr, "usage: %s GOLDEN_DIR\n", argv[0]);
        return 2;
    }
    for (i = 0; i < sizeof files / sizeof files[0]; i++) {
        failed_files += run_file(argv[1], &files[i]);
    }
    printf("%d of %zu golden files failed\n", failed_files, sizeof files / sizeof files[0]);
    return check_summary("test_golden");
}
