/*
 * save_search.c -- builds the search index of a gazetteer (geoloc_search_build) and saves it
 * (geoloc_search_save), the form geoloc_search_open maps in milliseconds. The build runs it on
 * the shipped gazetteer with data/search/alternate_names.tsv and data/search/countries.tsv
 * (-> cities1000.search, beside libgeoloc and the saved gazetteer, installed with them).
 *
 *   usage: geoloc-save-search GAZETTEER ALTERNATE_NAMES.tsv COUNTRIES.tsv OUT.search
 *
 * GAZETTEER is what geoloc_gazetteer_open reads (the saved cities1000.places or the TSV: the
 * same places, so the index fits both).
 */
#include <stdio.h>

#include "geoloc.h"

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: geoloc-save-search GAZETTEER ALTERNATE_NAMES.tsv COUNTRIES.tsv OUT.search\n");
        return 2;
    }
    geoloc_gazetteer *g = NULL;
    geoloc_search *s = NULL;
    geoloc_status st = geoloc_gazetteer_open(argv[1], &g);
    if (st == GEOLOC_OK)
        st = geoloc_search_build(g, argv[2], argv[3], &s);
    if (st == GEOLOC_OK)
        st = geoloc_search_save(s, argv[4]);
    if (st != GEOLOC_OK) {
        fprintf(stderr, "geoloc-save-search: %s: %s\n", geoloc_status_string(st), geoloc_last_error());
        geoloc_search_destroy(s);
        geoloc_gazetteer_destroy(g);
        return 1;
    }
    printf("geoloc-save-search: the names of %s saved to %s\n", argv[1], argv[4]);
    geoloc_search_destroy(s);
    geoloc_gazetteer_destroy(g);
    return 0;
}
