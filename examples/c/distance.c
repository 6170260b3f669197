/*
 * distance.c -- the example host's Distance: one pair, and every stop from home (see examples/geoloc-demo.c).
 */
#include "demo.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_distance(const char *from, const char *to, geoloc_unit unit)
{
    geoloc_coord a, b;
    double value, meters;
    char text[TEXT_CAP];
    size_t needed;
    geoloc_status s;
    if ((s = geoloc_coord_parse(from, &a)) != GEOLOC_OK) return report("first coordinate", s);
    if ((s = geoloc_coord_parse(to, &b)) != GEOLOC_OK) return report("second coordinate", s);
    if ((s = geoloc_distance(a, b, GEOLOC_MODEL_SPHERE, unit, &value)) != GEOLOC_OK ||
        (s = geoloc_distance(a, b, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &meters)) != GEOLOC_OK) {
        return report("distance", s);
    }
    if ((s = geoloc_distance_text(meters, unit, text, sizeof text, &needed)) != GEOLOC_OK) {
        return report("distance text", s);
    }
    printf("%.6f %s\n%s\n", value, UNIT_WORDS[unit], text);
    return 0;
}

int tour_distance(const struct table *trip, const geoloc_coord *home,
                  const geoloc_coord *stops, const size_t *stop_rows, size_t n_stops)
{
    double d[MAX_ROWS], meters;
    char text[TEXT_CAP];
    size_t needed, i;
    int u;
    geoloc_status s;
    const geoloc_coord *far = &stops[n_stops - 1];
    const char *far_name = trip->cell[stop_rows[n_stops - 1]][1];

    printf("\n== Distance: %s to %s (great circle on the mean-radius sphere)\n", trip->cell[0][1], far_name);
    for (u = GEOLOC_UNIT_METERS; u <= GEOLOC_UNIT_FEET; u++) {
        double v;
        if ((s = geoloc_distance(*home, *far, GEOLOC_MODEL_SPHERE, (geoloc_unit)u, &v)) != GEOLOC_OK) {
            return report("distance", s);
        }
        printf("  %14.3f %s\n", v, UNIT_WORDS[u]);
    }
    if ((s = geoloc_distance(*home, *far, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &meters)) != GEOLOC_OK ||
        (s = geoloc_distance_text(meters, GEOLOC_UNIT_MILES, text, sizeof text, &needed)) != GEOLOC_OK) {
        return report("distance text", s);
    }
    printf("  as text: %s\n", text);
    if ((s = geoloc_distance(*home, *far, GEOLOC_MODEL_WGS84, GEOLOC_UNIT_METERS, &meters)) != GEOLOC_OK ||
        (s = geoloc_distance_text(meters, GEOLOC_UNIT_MILES, text, sizeof text, &needed)) != GEOLOC_OK) {
        return report("WGS84 distance", s);
    }
    printf("  on the WGS84 ellipsoid: %.3f m (%s)\n", meters, text);

    printf("\n== Batch: from %s to every stop in one call\n", trip->cell[0][1]);
    if ((s = geoloc_distance_one_to_many(*home, stops, n_stops, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, d)) != GEOLOC_OK) {
        return report("batch distance", s);
    }
    for (i = 0; i < n_stops; i++) {
        if ((s = geoloc_distance_text(d[i], GEOLOC_UNIT_MILES, text, sizeof text, &needed)) != GEOLOC_OK) {
            return report("distance text", s);
        }
        printf("  %-12s %s\n", trip->cell[stop_rows[i]][1], text);
    }
    return 0;
}
