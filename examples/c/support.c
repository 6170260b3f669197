/*
 * support.c -- the example host's printing and argument helpers, and the demo data's tables (see examples/geoloc-demo.c).
 */
#include "demo.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *program = "geoloc-demo";

const char *const UNIT_NAMES[5] = {"m", "km", "mi", "nmi", "ft"};
const char *const UNIT_WORDS[5] = {"meters", "kilometers", "miles", "nautical miles", "feet"};

/* Reports a failed call: the status string and the thread's last error. Returns 1. */
int report(const char *what, geoloc_status status)
{
    fprintf(stderr, "%s: %s: %s: %s\n", program, what, geoloc_status_string(status),
            geoloc_last_error());
    return 1;
}

int parse_unit(const char *s, geoloc_unit *unit)
{
    static const char *const long_names[] = {"meters", "kilometers", "miles", "nautical-miles", "feet"};
    int i;
    for (i = 0; i < 5; i++) {
        if (strcmp(s, UNIT_NAMES[i]) == 0 || strcmp(s, long_names[i]) == 0) {
            *unit = (geoloc_unit)i;
            return 1;
        }
    }
    return 0;
}

int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return s[0] != '\0' && *end == '\0';
}

int parse_int32(const char *s, int32_t *out)
{
    char *end;
    long v;
    errno = 0;
    v = strtol(s, &end, 10);
    if (s[0] == '\0' || *end != '\0' || errno != 0 || v < INT32_MIN || v > INT32_MAX) return 0;
    *out = (int32_t)v;
    return 1;
}

int parse_temp_unit(const char *s, geoloc_temp_unit *unit)
{
    if (strcmp(s, "F") == 0 || strcmp(s, "f") == 0) {
        *unit = GEOLOC_TEMP_FAHRENHEIT;
    } else if (strcmp(s, "C") == 0 || strcmp(s, "c") == 0) {
        *unit = GEOLOC_TEMP_CELSIUS;
    } else {
        return 0;
    }
    return 1;
}

int parse_address_style(const char *s, geoloc_address_style *style)
{
    static const char *const names[] = {"one-line", "city-state", "city-state-country", "postal"};
    int i;
    for (i = 0; i < 4; i++) {
        if (strcmp(s, names[i]) == 0) {
            *style = (geoloc_address_style)i;
            return 1;
        }
    }
    return 0;
}

/* Splits "key=value" in place. */
int parse_part(char *item, geoloc_address_part *part)
{
    char *eq = strchr(item, '=');
    if (eq == NULL || eq == item) return 0;
    *eq = '\0';
    part->key = item;
    part->value = eq + 1;
    return 1;
}

/* Prints text that may span lines, each line indented. */
void print_indented(const char *indent, const char *text)
{
    const char *line = text;
    while (line != NULL) {
        const char *nl = strchr(line, '\n');
        int len = nl != NULL ? (int)(nl - line) : (int)strlen(line);
        printf("%s%.*s\n", indent, len, line);
        line = nl != NULL ? nl + 1 : NULL;
    }
}

int read_table(const char *dir, const char *name, size_t columns, struct table *t)
{
    char path[1024], line[1024];
    FILE *fp;
    int header_seen = 0;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    fp = fopen(path, "r");
    if (fp == NULL) {
        fprintf(stderr, "%s: cannot read %s: %s\n", program, path, strerror(errno));
        return 0;
    }
    t->rows = 0;
    t->columns = columns;
    while (fgets(line, sizeof line, fp) != NULL && t->rows < MAX_ROWS) {
        char *field = line, *tab;
        size_t c;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0') continue;
        if (!header_seen) {
            header_seen = 1;
            continue;
        }
        for (c = 0; c < columns; c++) {
            tab = strchr(field, '\t');
            if (tab != NULL) *tab = '\0';
            snprintf(t->cell[t->rows][c], MAX_FIELD, "%s", field);
            field = tab != NULL ? tab + 1 : field + strlen(field);
        }
        t->rows++;
    }
    fclose(fp);
    return 1;
}
