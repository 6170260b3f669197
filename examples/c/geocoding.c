/*
 * geocoding.c -- the example host's Places and Geocoding: towns near a point and "City, State" from the shipped gazetteer, with the local time there (see examples/geoloc-demo.c).
 */
#include "demo.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Towns of the shipped gazetteer within `miles` of `at`, nearest first, at most `limit`
 * (0: all), with their distance as the mosque finder shows it ("%.1f miles"). */
static int print_near(const geoloc_gazetteer *g, geoloc_coord at, double miles, size_t limit, const char *indent)
{
    const geoloc_places *towns = NULL;
    geoloc_match m[64];
    size_t count = 0, i, needed;
    char name[TEXT_CAP], state[TEXT_CAP], text[TEXT_CAP];
    geoloc_status s = geoloc_gazetteer_places(g, &towns);
    if (s != GEOLOC_OK) return report("gazetteer", s);
    if (limit == 0 || limit > 64) limit = 64;
    s = geoloc_places_within(towns, at, miles, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, limit, m, 64, &count);
    if (s != GEOLOC_OK) return report("near", s);
    if (count == 0) printf("%s(no town within %.1f miles)\n", indent, miles);
    for (i = 0; i < count; i++) {
        if ((s = geoloc_places_name(towns, m[i].index, name, sizeof name, &needed)) != GEOLOC_OK) {
            return report("name", s);
        }
        if (geoloc_places_attribute(towns, m[i].index, "admin1_code", state, sizeof state, &needed) != GEOLOC_OK) {
            state[0] = '\0';
        }
        if ((s = geoloc_distance_text(m[i].distance * 1609.344, GEOLOC_UNIT_MILES, text, sizeof text, &needed)) != GEOLOC_OK) {
            return report("distance text", s);
        }
        printf("%s%-24s %-4s %s\n", indent, name, state, text);
    }
    return 0;
}

int cmd_near(const char *at, const char *miles, const char *limit)
{
    geoloc_gazetteer *g = NULL;
    geoloc_coord c;
    double r;
    int32_t n = 10;
    int rc;
    geoloc_status s;
    if (!parse_double(miles, &r) || (limit != NULL && (!parse_int32(limit, &n) || n < 1))) return usage();
    if ((s = geoloc_coord_parse(at, &c)) != GEOLOC_OK) return report("coordinate", s);
    if ((s = geoloc_gazetteer_open(NULL, &g)) != GEOLOC_OK) return report("gazetteer", s);
    rc = print_near(g, c, r, (size_t)n, "");
    geoloc_gazetteer_destroy(g);
    return rc;
}

static int print_local_time(const geoloc_gazetteer *g, geoloc_coord c);

int cmd_where(const char *at)
{
    geoloc_gazetteer *g = NULL;
    geoloc_coord c;
    geoloc_match place;
    char city_state[TEXT_CAP], full[TEXT_CAP], miles[TEXT_CAP];
    size_t needed;
    int rc;
    geoloc_status s;
    if ((s = geoloc_coord_parse(at, &c)) != GEOLOC_OK) return report("coordinate", s);
    if ((s = geoloc_gazetteer_open(NULL, &g)) != GEOLOC_OK) return report("gazetteer", s);
    if ((s = geoloc_reverse_geocode(g, c, GEOLOC_ADDRESS_CITY_STATE, city_state, sizeof city_state, &needed, &place)) != GEOLOC_OK ||
        (s = geoloc_reverse_geocode(g, c, GEOLOC_ADDRESS_CITY_STATE_COUNTRY, full, sizeof full, &needed, NULL)) != GEOLOC_OK ||
        (s = geoloc_distance_text(place.distance, GEOLOC_UNIT_MILES, miles, sizeof miles, &needed)) != GEOLOC_OK) {
        geoloc_gazetteer_destroy(g);
        return report("where", s);
    }
    printf("%s\n%s\n(%s from its centre)\n", city_state, full, miles);
    rc = print_local_time(g, c);
    geoloc_gazetteer_destroy(g);
    return rc;
}

/* The local time at c now, with the zones of the reverse geocode's answer: the zone where the
 * point is (whose clocks it shows) and, when it differs, the zone of the named town. */
static int print_local_time(const geoloc_gazetteer *g, geoloc_coord c)
{
    geoloc_timezones *tz = NULL;
    geoloc_locality_zone z;
    char zone[64], town_zone[64], when[TEXT_CAP];
    size_t needed;
    geoloc_status s;
    if ((s = geoloc_timezones_open(NULL, &tz)) != GEOLOC_OK) return report("time zones", s);
    if ((s = geoloc_reverse_geocode_zones(g, tz, &c, 1, NULL, NULL, &z)) == GEOLOC_OK &&
        (s = geoloc_timezones_name(tz, z.zone.zone, zone, sizeof zone, &needed)) == GEOLOC_OK &&
        (s = geoloc_timezones_name(tz, z.place_zone.zone, town_zone, sizeof town_zone, &needed)) == GEOLOC_OK)
        s = geoloc_local_time_text(zone, (int64_t)time(NULL), GEOLOC_TIME_MINUTES, when, sizeof when, &needed);
    geoloc_timezones_destroy(tz);
    if (s != GEOLOC_OK) return report("local time", s);
    printf("local time: %s (%s)\n", when, zone);
    if (z.zone.zone != z.place_zone.zone) printf("(the town keeps %s)\n", town_zone);
    return 0;
}

/* Places: towns near home, and each stop's "City, State", from the shipped gazetteer. */
int tour_places(const struct table *trip, const geoloc_coord *home, const geoloc_coord *stops,
                const size_t *stop_rows, size_t n_stops)
{
    geoloc_gazetteer *g = NULL;
    size_t i, needed;
    char text[TEXT_CAP];
    int rc;
    geoloc_status s = geoloc_gazetteer_open(NULL, &g);
    if (s != GEOLOC_OK) return report("gazetteer", s);
    printf("\n== Near me: towns within 10 miles of %s, nearest first (GeoNames, offline)\n", trip->cell[0][1]);
    if ((rc = print_near(g, *home, 10, 8, "  ")) != 0) {
        geoloc_gazetteer_destroy(g);
        return rc;
    }
    printf("\n== Where was I: each stop as \"City, State\" (offline reverse geocoding)\n");
    for (i = 0; i < n_stops; i++) {
        if ((s = geoloc_reverse_geocode(g, stops[i], GEOLOC_ADDRESS_CITY_STATE, text, sizeof text, &needed, NULL)) != GEOLOC_OK) {
            geoloc_gazetteer_destroy(g);
            return report("reverse geocode", s);
        }
        printf("  %-12s %s\n", trip->cell[stop_rows[i]][1], text);
    }
    geoloc_gazetteer_destroy(g);
    return 0;
}
