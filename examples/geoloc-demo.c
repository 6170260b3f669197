/*
 * geoloc-demo -- a small command-line host over libgeoloc's C interface.
 *
 *   geoloc-demo [--data DIR]                   a tour over the demo data (data/demo)
 *   geoloc-demo distance LATLON LATLON [UNIT]  distance; UNIT m, km, mi (default), nmi or ft
 *   geoloc-demo mileage HOME STOP...           round-trip mileage home -> stops -> home, miles
 *   geoloc-demo weather CODE TEMP [F|C]        weather-conditions text ("Rain, 45°F")
 *   geoloc-demo parse TEXT                     reads "lat,lon" text, writes both text styles
 *   geoloc-demo address STYLE KEY=VALUE...     STYLE one-line, city-state, city-state-country
 *                                              or postal
 *   geoloc-demo near LATLON MILES [LIMIT]      towns within MILES, nearest first (shipped
 *                                              GeoNames gazetteer)
 *   geoloc-demo where LATLON                   offline reverse geocoding: "City, State", and
 *                                              the local time there
 *   geoloc-demo find QUERY [LIMIT]             places by name ("Springfield, IL", "Kiev",
 *                                              "sprinfield"): offline forward geocoding
 *   geoloc-demo track [GPX [REGIONS]]          replays a GPX track through the fix filter and
 *                                              geofence monitor (default: the demo walk)
 *
 * Everything it shows comes from the library; the program only reads arguments and data files
 * and prints. A failed call prints the status and geoloc_last_error() to standard error and
 * exits 1 (after printing the fallback text of a soft failure, such as "0" or "Unknown");
 * bad arguments print the usage and exit 2.
 */
#include "c/demo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GEOLOC_DEMO_DATA_DIR
#define GEOLOC_DEMO_DATA_DIR "data/demo"
#endif

int usage(void)
{
    fprintf(stderr,
            "usage: %s [--data DIR]                   tour over the demo data\n"
            "       %s distance LATLON LATLON [UNIT]  UNIT: m, km, mi (default), nmi, ft\n"
            "       %s mileage HOME STOP...           round trip, in miles\n"
            "       %s weather CODE TEMP [F|C]        WMO weather code and temperature\n"
            "       %s parse TEXT                     \"lat,lon\" text\n"
            "       %s address STYLE KEY=VALUE...     STYLE: one-line, city-state,\n"
            "                                         city-state-country, postal\n"
            "       %s near LATLON MILES [LIMIT]      towns within MILES, nearest first\n"
            "       %s where LATLON                   \"City, State\" and the local time there\n"
            "       %s track [GPX [REGIONS]]          replay a track: kept fixes, geofence events\n"
            "       %s find QUERY [LIMIT]             places by name, best first\n",
            program, program, program, program, program, program, program, program, program, program);
    return 2;
}

static int tour(const char *dir)
{
    static struct table trip, weather, addresses;
    geoloc_coord home, stops[MAX_ROWS];
    size_t stop_rows[MAX_ROWS], n_stops = 0, i;
    geoloc_mileage_result mileage;
    geoloc_status s;
    int rc;

    if (!read_table(dir, "trip.tsv", 3, &trip) || !read_table(dir, "weather.tsv", 4, &weather) ||
        !read_table(dir, "addresses.tsv", 2, &addresses)) {
        return 1;
    }
    if (trip.rows < 2 || strcmp(trip.cell[0][0], "home") != 0) {
        fprintf(stderr, "%s: trip.tsv needs a home row and at least one stop\n", program);
        return 1;
    }
    printf("libgeoloc %s (header %s), demo data from %s\n", geoloc_version(), GEOLOC_VERSION_STRING, dir);

    if ((rc = tour_coordinates(&trip)) != 0) return rc;

    if ((s = geoloc_coord_parse(trip.cell[0][2], &home)) != GEOLOC_OK) return report("home", s);
    for (i = 1; i < trip.rows; i++) {
        if (geoloc_coord_parse(trip.cell[i][2], &stops[n_stops]) == GEOLOC_OK) stop_rows[n_stops++] = i;
    }
    if (n_stops == 0) {
        fprintf(stderr, "%s: trip.tsv has no readable stop\n", program);
        return 1;
    }
    if ((rc = tour_distance(&trip, &home, stops, stop_rows, n_stops)) != 0) return rc;
    if ((rc = tour_mileage(&trip, &mileage)) != 0) return rc;
    if ((rc = tour_best_order(&trip, home, stops, stop_rows, n_stops)) != 0) return rc;
    if ((rc = tour_weather(&weather)) != 0) return rc;
    if ((rc = tour_addresses(&addresses)) != 0) return rc;
    if ((rc = tour_places(&trip, &home, stops, stop_rows, n_stops)) != 0) return rc;
    if ((rc = tour_find()) != 0) return rc;
    return 0;
}

int main(int argc, char **argv)
{
    const char *dir = GEOLOC_DEMO_DATA_DIR;
    int i = 1;

    while (i < argc && argv[i][0] == '-') {
        if (strcmp(argv[i], "--data") == 0 && i + 1 < argc) {
            dir = argv[i + 1];
            i += 2;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage();
            return 0;
        } else {
            return usage();
        }
    }
    if (i == argc) return tour(dir);

    if (strcmp(argv[i], "parse") == 0 && argc - i == 2) return cmd_parse(argv[i + 1]);
    if (strcmp(argv[i], "distance") == 0 && (argc - i == 3 || argc - i == 4)) {
        geoloc_unit unit = GEOLOC_UNIT_MILES;
        if (argc - i == 4 && !parse_unit(argv[i + 3], &unit)) return usage();
        return cmd_distance(argv[i + 1], argv[i + 2], unit);
    }
    if (strcmp(argv[i], "mileage") == 0 && argc - i >= 2 && argc - i - 2 <= MAX_ROWS) {
        return cmd_mileage(argv[i + 1], (const char *const *)&argv[i + 2], (size_t)(argc - i - 2));
    }
    if (strcmp(argv[i], "weather") == 0 && (argc - i == 3 || argc - i == 4)) {
        int32_t code;
        double temperature;
        geoloc_temp_unit unit = GEOLOC_TEMP_FAHRENHEIT;
        if (!parse_int32(argv[i + 1], &code) || !parse_double(argv[i + 2], &temperature)) return usage();
        if (argc - i == 4 && !parse_temp_unit(argv[i + 3], &unit)) return usage();
        return cmd_weather(code, temperature, unit);
    }
    if (strcmp(argv[i], "address") == 0 && argc - i >= 2) {
        geoloc_address_style style;
        if (!parse_address_style(argv[i + 1], &style)) return usage();
        return cmd_address(style, &argv[i + 2], (size_t)(argc - i - 2));
    }
    if (strcmp(argv[i], "near") == 0 && (argc - i == 3 || argc - i == 4)) {
        return cmd_near(argv[i + 1], argv[i + 2], argc - i == 4 ? argv[i + 3] : NULL);
    }
    if (strcmp(argv[i], "where") == 0 && argc - i == 2) return cmd_where(argv[i + 1]);
    if (strcmp(argv[i], "find") == 0 && (argc - i == 2 || argc - i == 3))
        return cmd_find(argv[i + 1], argc - i == 3 ? argv[i + 2] : NULL);
    if (strcmp(argv[i], "track") == 0 && argc - i <= 3) {
        static char gpx[1100], regions[1100];
        snprintf(gpx, sizeof gpx, "%s/walk.gpx", dir);
        snprintf(regions, sizeof regions, "%s/regions.tsv", dir);
        return cmd_track(argc - i >= 2 ? argv[i + 1] : gpx, argc - i == 3 ? argv[i + 2] : regions);
    }
    return usage();
}
