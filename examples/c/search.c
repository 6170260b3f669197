/* search.c -- the example host's place search by name (offline forward geocoding). */
#include "demo.h"

#include <stdio.h>
#include <stdlib.h>

/* Places by name: each result's name, region, country, population, score and how it matched. */
static int print_found(geoloc_search *search, const char *query, size_t limit, const char *indent)
{
    static const char *const how[] = {"exact", "prefix", "typo"};
    geoloc_search_options o;
    geoloc_search_result r[16];
    char name[TEXT_CAP], region[TEXT_CAP], country[TEXT_CAP], matched[TEXT_CAP];
    size_t n, needed, i;
    geoloc_status s;
    geoloc_search_options_default(&o);
    o.limit = limit;
    if ((s = geoloc_search_find(search, query, &o, r, 16, &n)) != GEOLOC_OK) return report("find", s);
    if (n == 0) printf("%s(nothing matches \"%s\" well enough)\n", indent, query);
    for (i = 0; i < n; i++) {
        if ((s = geoloc_search_text(search, &r[i], GEOLOC_SEARCH_NAME, name, sizeof name, &needed)) != GEOLOC_OK ||
            (s = geoloc_search_text(search, &r[i], GEOLOC_SEARCH_REGION, region, sizeof region, &needed)) != GEOLOC_OK ||
            (s = geoloc_search_text(search, &r[i], GEOLOC_SEARCH_COUNTRY_CODE, country, sizeof country, &needed)) != GEOLOC_OK ||
            (s = geoloc_search_text(search, &r[i], GEOLOC_SEARCH_MATCHED_NAME, matched, sizeof matched, &needed)) != GEOLOC_OK)
            return report("find", s);
        printf("%s%-18s %-22s %s  %10lld people  score %.3f  %s \"%s\"\n", indent, name, region, country,
               (long long)r[i].population, r[i].score, how[r[i].match], matched);
    }
    return 0;
}

int cmd_find(const char *query, const char *limit_text)
{
    geoloc_search *search = NULL;
    geoloc_status s;
    int rc;
    long limit = limit_text ? strtol(limit_text, NULL, 10) : 5;
    if (limit < 1 || limit > 16) return usage();
    if ((s = geoloc_search_open(NULL, NULL, &search)) != GEOLOC_OK) return report("search", s);
    rc = print_found(search, query, (size_t)limit, "");
    geoloc_search_destroy(search);
    return rc;
}

/* Places found by name: a state code, another script, an old name, a typing error. */
int tour_find(void)
{
    static const char *const queries[] = {"Springfield, IL", "Київ", "Bombay", "sprinfield, mo"};
    geoloc_search *search = NULL;
    geoloc_status s;
    size_t i;
    int rc = 0;
    printf("\n== Find a place by name (offline forward geocoding)\n");
    if ((s = geoloc_search_open(NULL, NULL, &search)) != GEOLOC_OK) return report("search", s);
    for (i = 0; i < sizeof queries / sizeof queries[0] && rc == 0; i++) {
        printf("  \"%s\"\n", queries[i]);
        rc = print_found(search, queries[i], 1, "    ");
    }
    geoloc_search_destroy(search);
    return rc;
}
