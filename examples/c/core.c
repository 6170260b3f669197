/*
 * core.c -- the example host's Core: "lat,lon" text in both styles (see examples/geoloc-demo.c).
 */
#include "demo.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_parse(const char *text)
{
    geoloc_coord c;
    char compact[TEXT_CAP], readable[TEXT_CAP];
    size_t needed;
    geoloc_status s = geoloc_coord_parse(text, &c);
    if (s != GEOLOC_OK) return report("parse", s);
    if ((s = geoloc_coord_format(c, GEOLOC_COORD_COMPACT, compact, sizeof compact, &needed)) != GEOLOC_OK ||
        (s = geoloc_coord_format(c, GEOLOC_COORD_READABLE, readable, sizeof readable, &needed)) != GEOLOC_OK) {
        return report("format", s);
    }
    printf("compact:  %s\nreadable: %s\n", compact, readable);
    return 0;
}

int tour_coordinates(const struct table *trip)
{
    static const char *const samples[] = {" +38.5 , -89.1 ", "38.5;-89.1", "91,0"};
    size_t i;
    printf("\n== Coordinates: \"lat,lon\" text in, two text styles out\n");
    for (i = 0; i < trip->rows; i++) {
        geoloc_coord c;
        char compact[TEXT_CAP], readable[TEXT_CAP];
        size_t needed;
        geoloc_status s = geoloc_coord_parse(trip->cell[i][2], &c);
        if (s != GEOLOC_OK) {
            printf("  %-12s \"%s\": %s (%s)\n", trip->cell[i][1], trip->cell[i][2],
                   geoloc_status_string(s), geoloc_last_error());
            continue;
        }
        if ((s = geoloc_coord_format(c, GEOLOC_COORD_COMPACT, compact, sizeof compact, &needed)) != GEOLOC_OK ||
            (s = geoloc_coord_format(c, GEOLOC_COORD_READABLE, readable, sizeof readable, &needed)) != GEOLOC_OK) {
            return report("format", s);
        }
        printf("  %-12s compact %-22s readable %s\n", trip->cell[i][1], compact, readable);
    }
    for (i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        geoloc_coord c;
        geoloc_status s = geoloc_coord_parse(samples[i], &c);
        if (s == GEOLOC_OK) {
            printf("  parse \"%s\" -> %.6f, %.6f\n", samples[i], c.lat, c.lon);
        } else {
            printf("  parse \"%s\" -> %s: %s\n", samples[i], geoloc_status_string(s), geoloc_last_error());
        }
    }
    return 0;
}
