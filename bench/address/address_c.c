/*
 * address_c.c -- times geoloc_address_format through the C door: N postal addresses (and the
 * same components in the one-line, "City, State" and "City, State, Country" forms), cycling
 * through the POSTAL cases of tests/golden/address.tsv (every country the cases cover), best of
 * R passes. Checks every result against the table's expected text before timing.
 *
 *   address_c GOLDEN_TSV N R
 *
 * Prints one tab-separated row per form: form, cases, addresses, best seconds, microseconds per
 * address.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "geoloc.h"

#define MAX_CASES 1024
#define MAX_PARTS 24

struct address_case {
    geoloc_address_part parts[MAX_PARTS];
    size_t n;
    char *expected;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "\n" escapes to newlines, in place. */
static void unescape(char *s)
{
    char *w = s;
    for (char *r = s; *r; r++) {
        if (r[0] == '\\' && r[1] == 'n') { *w++ = '\n'; r++; }
        else *w++ = *r;
    }
    *w = 0;
}

static size_t read_cases(const char *path, struct address_case *cases)
{
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); exit(2); }
    static char line[8192];
    size_t count = 0;
    while (fgets(line, sizeof line, f) && count < MAX_CASES) {
        if (line[0] == '#') continue;
        line[strcspn(line, "\n")] = 0;
        char *fields[4] = {0};
        char *p = line;
        for (int i = 0; i < 4; i++) {
            fields[i] = p;
            char *tab = p ? strchr(p, '\t') : NULL;
            if (tab) { *tab = 0; p = tab + 1; } else p = NULL;
        }
        if (!fields[3] || strcmp(fields[1], "POSTAL") != 0) continue;
        struct address_case *c = &cases[count];
        c->n = 0;
        char *parts = strdup(fields[2]);
        for (char *tok = parts; tok && *tok && c->n < MAX_PARTS;) {
            char *sep = strstr(tok, " | ");
            if (sep) *sep = 0;
            char *eq = strchr(tok, '=');
            if (eq) {
                *eq = 0;
                c->parts[c->n].key = tok;
                c->parts[c->n].value = eq + 1;
                c->n++;
            }
            tok = sep ? sep + 3 : NULL;
        }
        c->expected = strdup(fields[3]);
        unescape(c->expected);
        count++;
    }
    fclose(f);
    return count;
}

int main(int argc, char **argv)
{
    if (argc != 4) { fprintf(stderr, "usage: address_c GOLDEN_TSV N R\n"); return 2; }
    static struct address_case cases[MAX_CASES];
    size_t n_cases = read_cases(argv[1], cases);
    long n = atol(argv[2]), reps = atol(argv[3]);
    if (n_cases == 0 || n <= 0 || reps <= 0) { fprintf(stderr, "address_c: nothing to time\n"); return 2; }
    char buf[4096];
    size_t needed;
    size_t differ = 0;
    for (size_t i = 0; i < n_cases; i++) {
        if (geoloc_address_format(cases[i].parts, cases[i].n, GEOLOC_ADDRESS_POSTAL, buf, sizeof buf, &needed) != GEOLOC_OK) {
            fprintf(stderr, "address_c: case %zu fails: %s\n", i, geoloc_last_error());
            return 1;
        }
        if (strcmp(buf, cases[i].expected) != 0) differ++;
    }
#ifdef ADDRESS_C_BASELINE
    /* An earlier library may write some cases otherwise: it is timed on the same work anyway. */
    if (differ) fprintf(stderr, "address_c (baseline): %zu of %zu postal cases differ from the table\n", differ, n_cases);
#else
    if (differ) {
        fprintf(stderr, "address_c: %zu postal cases differ from the table\n", differ);
        return 1;
    }
#endif
    /* ADDRESS_C_BASELINE: built against a library from before geoloc_address_format_with. */
    const struct { geoloc_address_style style; unsigned flags; const char *name; } forms[] = {
        {GEOLOC_ADDRESS_POSTAL, 0, "postal"},
#ifndef ADDRESS_C_BASELINE
        {GEOLOC_ADDRESS_POSTAL, 1u /* GEOLOC_ADDRESS_ABBREVIATE */, "postal_abbreviated"},
#endif
        {GEOLOC_ADDRESS_ONE_LINE, 0, "one_line"},
        {GEOLOC_ADDRESS_CITY_STATE, 0, "city_state"},
        {GEOLOC_ADDRESS_CITY_STATE_COUNTRY, 0, "city_state_country"},
    };
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        double best = 1e300;
        size_t sink = 0;
        for (long r = 0; r < reps; r++) {
            double t0 = now();
            for (long i = 0; i < n; i++) {
                const struct address_case *c = &cases[(size_t)i % n_cases];
                geoloc_status st;
#ifndef ADDRESS_C_BASELINE
                if (forms[f].flags != 0)
                    st = geoloc_address_format_with(c->parts, c->n, forms[f].style, forms[f].flags, buf, sizeof buf, &needed);
                else
#endif
                    st = geoloc_address_format(c->parts, c->n, forms[f].style, buf, sizeof buf, &needed);
                if (st != GEOLOC_OK) return 1;
                sink += needed;
            }
            double t = now() - t0;
            if (t < best) best = t;
        }
        printf("%s\t%zu\t%ld\t%.4f\t%.2f\t%zu\n", forms[f].name, n_cases, n, best, best / (double)n * 1e6, sink % 10);
    }
    return 0;
}
