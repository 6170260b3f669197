/*
 * save_places.c -- loads a CSV/TSV place file and saves it as a place file (geoloc_places_save),
 * the form geoloc_places_open maps in milliseconds. The build runs it on the shipped gazetteer
 * (data/gazetteer/cities1000.tsv -> cities1000.places, beside libgeoloc and installed with it).
 *
 *   usage: geoloc-save-places IN.csv|IN.tsv OUT.places
 *
 * The load is geoloc_places_load_csv with the default options, as geoloc_gazetteer_open reads a
 * TSV, so the saved gazetteer answers exactly as the TSV does.
 */
#include <stdio.h>

#include "geoloc.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: geoloc-save-places IN.csv OUT.places\n");
        return 2;
    }
    geoloc_places *set = NULL;
    geoloc_status st = geoloc_places_load_csv(argv[1], NULL, &set);
    if (st == GEOLOC_OK)
        st = geoloc_places_save(set, argv[2]);
    if (st != GEOLOC_OK) {
        fprintf(stderr, "geoloc-save-places: %s: %s\n", geoloc_status_string(st), geoloc_last_error());
        geoloc_places_destroy(set);
        return 1;
    }
    size_t n = 0;
    geoloc_places_count(set, &n);
    printf("geoloc-save-places: %zu places from %s saved to %s\n", n, argv[1], argv[2]);
    geoloc_places_destroy(set);
    return 0;
}
