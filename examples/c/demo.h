/*
 * demo.h -- what the files of the example host share (examples/geoloc-demo.c is the host; the
 * files beside this one are its tours, one per capability): argument helpers, the demo data's
 * tables, and each capability's subcommand and tour section.
 */
#ifndef GEOLOC_DEMO_H
#define GEOLOC_DEMO_H

#include <geoloc.h>

#include <stddef.h>
#include <stdint.h>

#define MAX_ROWS 32
#define MAX_FIELD 1024
#define TEXT_CAP 512

/* The program's name in messages. */
extern const char *program;

/* geoloc-demo.c: prints the usage to standard error; returns 2. */
int usage(void);

/* A small tab-separated file of the demo data: '#' comments, one header row. */
struct table {
    size_t rows;
    size_t columns;
    char cell[MAX_ROWS][4][MAX_FIELD];
};

/* support.c: printing and argument helpers, and the demo data's tables. */
extern const char *const UNIT_NAMES[5];
extern const char *const UNIT_WORDS[5];
int report(const char *what, geoloc_status status);
int parse_unit(const char *s, geoloc_unit *unit);
int parse_double(const char *s, double *out);
int parse_int32(const char *s, int32_t *out);
int parse_temp_unit(const char *s, geoloc_temp_unit *unit);
int parse_address_style(const char *s, geoloc_address_style *style);
int parse_part(char *item, geoloc_address_part *part);
void print_indented(const char *indent, const char *text);
int read_table(const char *dir, const char *name, size_t columns, struct table *t);

/* core.c: Core: "lat,lon" text in both styles. */
int cmd_parse(const char *text);
int tour_coordinates(const struct table *trip);

/* distance.c: Distance: one pair, and every stop from home. */
int cmd_distance(const char *from, const char *to, geoloc_unit unit);
int tour_distance(const struct table *trip, const geoloc_coord *home,
                  const geoloc_coord *stops, const size_t *stop_rows, size_t n_stops);

/* route.c: Route: round-trip mileage and the best order of the stops. */
int cmd_mileage(const char *home, const char *const *stops, size_t n);
int tour_best_order(const struct table *trip, geoloc_coord home, const geoloc_coord *stops,
                    const size_t *stop_rows, size_t n_stops);
int tour_mileage(const struct table *trip, geoloc_mileage_result *r);

/* weather.c: Weather: WMO codes as "Rain, 45°F". */
int cmd_weather(int32_t code, double temperature, geoloc_temp_unit unit);
int tour_weather(const struct table *weather);

/* address.c: Address: the address forms. */
int cmd_address(geoloc_address_style style, char **items, size_t n);
int tour_addresses(const struct table *addresses);

/* geocoding.c: Places and Geocoding: towns near a point, "City, State" (the shipped gazetteer). */
int cmd_near(const char *at, const char *miles, const char *limit);
int cmd_where(const char *at);
int tour_places(const struct table *trip, const geoloc_coord *home, const geoloc_coord *stops,
                const size_t *stop_rows, size_t n_stops);

/* search.c: Geocoding: places by name (the shipped gazetteer's search index). */
int cmd_find(const char *query, const char *limit);
int tour_find(void);

/* tracking.c: Tracking: a GPX track through the fix filter and a geofence monitor. */
int cmd_track(const char *gpx, const char *regions_path);

#endif
