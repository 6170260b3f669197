/*
 * golden.h -- the reader of the golden cases every door shares (the .tsv files of tests/golden,
 * format in tests/golden/README.md), for the C tests of each capability. golden_run() checks
 * every row of each file it is given; every file is required: a missing or empty file is a
 * failure, not a skip.
 */
#ifndef GEOLOC_TEST_GOLDEN_H
#define GEOLOC_TEST_GOLDEN_H

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

static const char *const NULL_FIELD = "<NULL>";

/* Undoes the \t, \n and \\ escapes in place; a field "<NULL>" becomes NULL. */
static inline char *unescape(char *s)
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
static inline size_t split(char *s, const char *sep, char **out, size_t max)
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

static inline void bad_value(const char *what, const char *text)
{
    row_bad_value = 1;
    check_report(0, row_file, row_line, what);
    fprintf(stderr, "    value \"%s\"\n", text ? text : "<NULL>");
}

static inline double number(const char *s)
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

static inline long long integer(const char *s)
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

static inline geoloc_status status_of(const char *s)
{
    int i;
    for (i = 0; i <= GEOLOC_E_INTERNAL; i++) {
        if (s != NULL && strcmp(s, status_name((geoloc_status)i)) == 0) return (geoloc_status)i;
    }
    bad_value("not a status name", s);
    return GEOLOC_E_INTERNAL;
}

static inline int name_index(const char *s, const char *const *names, int count, const char *what)
{
    int i;
    for (i = 0; i < count; i++) {
        if (s != NULL && strcmp(s, names[i]) == 0) return i;
    }
    bad_value(what, s);
    return 0;
}

static inline geoloc_unit unit_of(const char *s)
{
    static const char *const names[] = {"METERS", "KILOMETERS", "MILES", "NAUTICAL_MILES", "FEET"};
    return (geoloc_unit)name_index(s, names, 5, "not a unit name");
}

static inline geoloc_coord_style coord_style_of(const char *s)
{
    static const char *const names[] = {"COMPACT", "READABLE"};
    return (geoloc_coord_style)name_index(s, names, 2, "not a coordinate style");
}

static inline geoloc_temp_unit temp_unit_of(const char *s)
{
    static const char *const names[] = {"C", "F"};
    return (geoloc_temp_unit)name_index(s, names, 2, "not a temperature unit (C or F)");
}

static inline geoloc_daylight daylight_of(const char *s)
{
    static const char *const names[] = {"UNKNOWN", "DAY", "NIGHT"};
    return (geoloc_daylight)name_index(s, names, 3, "not a daylight name");
}

static inline geoloc_address_style address_style_of(const char *s)
{
    static const char *const names[] = {"ONE_LINE", "CITY_STATE", "CITY_STATE_COUNTRY", "POSTAL"};
    return (geoloc_address_style)name_index(s, names, 4, "not an address style");
}

static inline int close_to(double got, double want, double rel)
{
    double scale = want > 1e-300 ? want : 1e-300;
    return fabs(got - want) <= rel * scale + 1e-9;
}

static inline int same_double(double got, double want)
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
static inline void check_message(geoloc_status s)
{
    if (s != GEOLOC_OK) ROW_CHECK(geoloc_last_error()[0] != '\0');
}

/* Splits a " | "-joined list in place; "<NULL>" items become NULL, an empty field no items. */
static inline size_t list_of(char *raw, char **items, size_t max)
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

/* ---------------------------------------------------------------------------------------------
 * Files
 * ------------------------------------------------------------------------------------------- */

struct golden_file {
    const char *name;
    const char *columns; /* the header row, tab-separated */
    void (*check)(char **f);
    void (*check_raw)(char **raw, char **f); /* for rows that split a field before unescaping */
};

static inline int run_file(const char *dir, const struct golden_file *g)
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


/* Checks every row of every file in `files` (in DIR, the one argument), printing a count per file;
 * returns the number of files with a failed row. */
static inline int golden_run(int argc, char **argv, const struct golden_file *files, size_t n)
{
    size_t i;
    int failed_files = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: %s GOLDEN_DIR\n", argv[0]);
        exit(2);
    }
    for (i = 0; i < n; i++) {
        failed_files += run_file(argv[1], &files[i]);
    }
    printf("%d of %zu golden files failed\n", failed_files, n);
    return failed_files;
}

#endif /* GEOLOC_TEST_GOLDEN_H */
