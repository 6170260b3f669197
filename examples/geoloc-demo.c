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
 *   geoloc-demo where LATLON                   offline reverse geocoding: "City, State"
 *   geoloc-demo track [GPX [REGIONS]]          replays a GPX track through the fix filter and
 *                                              geofence monitor (default: the demo walk)
 *
 * Everything it shows comes from the library; the program only reads arguments and data files
 * and prints. A failed call prints the status and geoloc_last_error() to standard error and
 * exits 1 (after printing the fallback text of a soft failure, such as "0" or "Unknown");
 * bad arguments print the usage and exit 2.
 */
#include <geoloc.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GEOLOC_DEMO_DATA_DIR
#define GEOLOC_DEMO_DATA_DIR "data/demo"
#endif

#define MAX_ROWS 32
#define MAX_FIELD 1024
#define TEXT_CAP 512

static const char *program = "geoloc-demo";

/* ---------------------------------------------------------------------------------------------
 * Printing and argument helpers
 * ------------------------------------------------------------------------------------------- */

static int usage(void)
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
            "       %s where LATLON                   the nearest town as \"City, State\"\n"
            "       %s track [GPX [REGIONS]]          replay a track: kept fixes, geofence events\n",
            program, program, program, program, program, program, program, program, program);
    return 2;
}

/* Reports a failed call: the status string and the thread's last error. Returns 1. */
static int report(const char *what, geoloc_status status)
{
    fprintf(stderr, "%s: %s: %s: %s\n", program, what, geoloc_status_string(status),
            geoloc_last_error());
    return 1;
}

static const char *const UNIT_NAMES[] = {"m", "km", "mi", "nmi", "ft"};
static const char *const UNIT_WORDS[] = {"meters", "kilometers", "miles", "nautical miles", "feet"};

static int parse_unit(const char *s, geoloc_unit *unit)
{
    static const char *const long_names[] = {"meters", "kilometers", "miles", "nautical-miles", "feet"};
    int i;
    for (i = 0; i < 5; i++) {
        if (strcmp(s, UNIT_NAMES[i]) == 0 || strcmp(s, long_names[i]) == 0) {
            *unit = (geoloc_unit)i;
            return 1;
        }
    }
    return 0;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return s[0] != '\0' && *end == '\0';
}

static int parse_int32(const char *s, int32_t *out)
{
    char *end;
    long v;
    errno = 0;
    v = strtol(s, &end, 10);
    if (s[0] == '\0' || *end != '\0' || errno != 0 || v < INT32_MIN || v > INT32_MAX) return 0;
    *out = (int32_t)v;
    return 1;
}

static int parse_temp_unit(const char *s, geoloc_temp_unit *unit)
{
    if (strcmp(s, "F") == 0 || strcmp(s, "f") == 0) {
        *unit = GEOLOC_TEMP_FAHRENHEIT;
    } else if (strcmp(s, "C") == 0 || strcmp(s, "c") == 0) {
        *unit = GEOLOC_TEMP_CELSIUS;
    } else {
        return 0;
    }
    return 1;
}

static int parse_address_style(const char *s, geoloc_address_style *style)
{
    static const char *const names[] = {"one-line", "city-state", "city-state-country", "postal"};
    int i;
    for (i = 0; i < 4; i++) {
        if (strcmp(s, names[i]) == 0) {
            *style = (geoloc_address_style)i;
            return 1;
        }
    }
    return 0;
}

/* Splits "key=value" in place. */
static int parse_part(char *item, geoloc_address_part *part)
{
    char *eq = strchr(item, '=');
    if (eq == NULL || eq == item) return 0;
    *eq = '\0';
    part->key = item;
    part->value = eq + 1;
    return 1;
}

/* Prints text that may span lines, each line indented. */
static void print_indented(const char *indent, const char *text)
{
    const char *line = text;
    while (line != NULL) {
        const char *nl = strchr(line, '\n');
        int len = nl != NULL ? (int)(nl - line) : (int)strlen(line);
        printf("%s%.*s\n", indent, len, line);
        line = nl != NULL ? nl + 1 : NULL;
    }
}

/* ---------------------------------------------------------------------------------------------
 * Demo data: small tab-separated files, '#' comments, one header row
 * ------------------------------------------------------------------------------------------- */

struct table {
    size_t rows;
    size_t columns;
    char cell[MAX_ROWS][4][MAX_FIELD];
};

static int read_table(const char *dir, const char *name, size_t columns, struct table *t)
{
    char path[1024], line[1024];
    FILE *fp;
    int header_seen = 0;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    fp = fopen(path, "r");
    if (fp == NULL) {
        fprintf(stderr, "%s: cannot read %s: %s\n", program, path, strerror(errno));
        return 0;
    }
    t->rows = 0;
    t->columns = columns;
    while (fgets(line, sizeof line, fp) != NULL && t->rows < MAX_ROWS) {
        char *field = line, *tab;
        size_t c;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0') continue;
        if (!header_seen) {
            header_seen = 1;
            continue;
        }
        for (c = 0; c < columns; c++) {
            tab = strchr(field, '\t');
            if (tab != NULL) *tab = '\0';
            snprintf(t->cell[t->rows][c], MAX_FIELD, "%s", field);
            field = tab != NULL ? tab + 1 : field + strlen(field);
        }
        t->rows++;
    }
    fclose(fp);
    return 1;
}

/* ---------------------------------------------------------------------------------------------
 * Subcommands
 * ------------------------------------------------------------------------------------------- */

static int cmd_parse(const char *text)
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

static int cmd_distance(const char *from, const char *to, geoloc_unit unit)
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

static int cmd_mileage(const char *home, const char *const *stops, size_t n)
{
    geoloc_mileage_result r;
    geoloc_leg legs[MAX_ROWS + 1];
    size_t skipped[MAX_ROWS];
    size_t i;
    geoloc_status s = geoloc_mileage(home, stops, n, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES,
                                     &r, legs, MAX_ROWS + 1, skipped, MAX_ROWS);
    if (s == GEOLOC_E_HOME_INVALID) {
        printf("%s\n", r.text); /* the smart field's fallback */
        return report("mileage", s);
    }
    if (s != GEOLOC_OK) return report("mileage", s);
    printf("%s miles\n", r.text);
    for (i = 0; i < r.leg_count; i++) {
        char from[32] = "home", to[32] = "home";
        if (legs[i].from >= 0) snprintf(from, sizeof from, "stop %lld", (long long)legs[i].from + 1);
        if (legs[i].to >= 0) snprintf(to, sizeof to, "stop %lld", (long long)legs[i].to + 1);
        printf("  %-7s -> %-7s %8.2f miles\n", from, to, legs[i].distance);
    }
    for (i = 0; i < r.stops_skipped; i++) {
        printf("  skipped stop %zu: \"%s\"\n", skipped[i] + 1, stops[skipped[i]]);
    }
    return 0;
}

static int cmd_weather(int32_t code, double temperature, geoloc_temp_unit unit)
{
    char text[TEXT_CAP];
    size_t needed;
    geoloc_status s = geoloc_weather_condition(code, temperature, unit, unit, GEOLOC_DAYLIGHT_UNKNOWN,
                                               text, sizeof text, &needed);
    if (s == GEOLOC_OK || s == GEOLOC_E_UNKNOWN_CODE) printf("%s\n", text);
    return s == GEOLOC_OK ? 0 : report("weather", s);
}

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

static int cmd_near(const char *at, const char *miles, const char *limit)
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

static int cmd_where(const char *at)
{
    geoloc_gazetteer *g = NULL;
    geoloc_coord c;
    geoloc_match place;
    char city_state[TEXT_CAP], full[TEXT_CAP], miles[TEXT_CAP];
    size_t needed;
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
    geoloc_gazetteer_destroy(g);
    return 0;
}

static int cmd_address(geoloc_address_style style, char **items, size_t n)
{
    geoloc_address_part parts[64];
    char text[TEXT_CAP * 2];
    size_t needed, i;
    geoloc_status s;
    if (n > 64) return usage();
    for (i = 0; i < n; i++) {
        if (!parse_part(items[i], &parts[i])) return usage();
    }
    s = geoloc_address_format(parts, n, style, text, sizeof text, &needed);
    if (s != GEOLOC_OK) return report("address", s);
    printf("%s\n", text);
    return 0;
}


/* ---------------------------------------------------------------------------------------------
 * Tracking: a GPX track through the fix filter and a geofence monitor
 * ------------------------------------------------------------------------------------------- */

static void clock_text(double t, char *buf, size_t cap)
{
    long s = (long)t % 86400;
    if (s < 0) s += 86400;
    snprintf(buf, cap, "%02ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
}

static int cmd_track(const char *gpx, const char *regions_path)
{
    static struct table regions;
    static geoloc_coord vertices[MAX_ROWS][16];
    geoloc_circle_fence circles[MAX_ROWS];
    geoloc_polygon_fence polygons[MAX_ROWS];
    size_t circle_row[MAX_ROWS], polygon_row[MAX_ROWS], nc = 0, np = 0, i, n, needed, count;
    const char *names[MAX_ROWS];
    geoloc_track *track;
    geoloc_geofences *fences;
    geoloc_fix_filter *filter;
    geoloc_monitor *monitor;
    geoloc_filter_options fo;
    geoloc_track_stats st;
    geoloc_status s;
    bool timed;
    char when[16], dir[1024], file[1100];

    /* The regions: circles and polygons from a small table. */
    snprintf(dir, sizeof dir, "%s", regions_path);
    {
        char *slash = strrchr(dir, '/');
        const char *base = slash ? slash + 1 : dir;
        snprintf(file, sizeof file, "%s", base);
        if (slash) *slash = '\0'; else snprintf(dir, sizeof dir, ".");
    }
    if (!read_table(dir, file, 4, &regions)) return 1;
    for (i = 0; i < regions.rows; i++) {
        if (strcmp(regions.cell[i][1], "circle") == 0) {
            circles[nc].id = regions.cell[i][0];
            if ((s = geoloc_coord_parse(regions.cell[i][2], &circles[nc].center)) != GEOLOC_OK) return report(regions.cell[i][0], s);
            circles[nc].radius_m = strtod(regions.cell[i][3], NULL);
            circle_row[nc++] = i;
        } else {
            char *tok = strtok(regions.cell[i][2], " ");
            size_t k = 0;
            while (tok != NULL && k < 16) {
                if ((s = geoloc_coord_parse(tok, &vertices[np][k])) != GEOLOC_OK) return report(regions.cell[i][0], s);
                k++;
                tok = strtok(NULL, " ");
            }
            polygons[np].id = regions.cell[i][0];
            polygons[np].vertices = vertices[np];
            polygons[np].n_vertices = k;
            polygon_row[np++] = i;
        }
    }
    for (i = 0; i < nc; i++) names[i] = regions.cell[circle_row[i]][0];
    for (i = 0; i < np; i++) names[nc + i] = regions.cell[polygon_row[i]][0];
    if ((s = geoloc_geofences_create(circles, nc, polygons, np, &fences)) != GEOLOC_OK) return report("regions", s);

    /* The track. */
    if ((s = geoloc_track_load_gpx(gpx, NULL, &track)) != GEOLOC_OK) return report(gpx, s);
    geoloc_track_fixes(track, NULL, 0, &n);
    geoloc_fix *fixes = malloc((n ? n : 1) * sizeof *fixes), *kept = malloc((n ? n : 1) * sizeof *kept);
    geoloc_fix_decision *d = malloc((n ? n : 1) * sizeof *d);
    size_t *kept_index = malloc((n ? n : 1) * sizeof *kept_index);
    geoloc_track_fixes(track, fixes, n, &count);
    geoloc_track_timed(track, &timed);
    geoloc_track_issue_count(track, &count);
    printf("%s: %zu fixes%s, %zu skipped; %zu regions\n", gpx, n, timed ? "" : " (no times)", count, nc + np);

    /* The filter: the fitness preset. */
    geoloc_filter_options_preset(GEOLOC_ACTIVITY_FITNESS, &fo);
    geoloc_fix_filter_create(&fo, &filter);
    if ((s = geoloc_fix_filter_run(filter, fixes, n, d)) != GEOLOC_OK) return report("filter", s);
    size_t nk = 0, by[5] = {0};
    for (i = 0; i < n; i++) {
        by[d[i].verdict]++;
        if (d[i].verdict == GEOLOC_FIX_KEPT) { kept_index[nk] = i; kept[nk++] = fixes[i]; }
        if (d[i].verdict == GEOLOC_FIX_DROPPED_JUMP) {
            clock_text(fixes[i].time, when, sizeof when);
            printf("  fix %3zu %s  dropped: a jump\n", i, when);
        }
        if (d[i].motion != GEOLOC_MOTION_NONE) {
            clock_text(fixes[i].time, when, sizeof when);
            printf("  fix %3zu %s  %s\n", i, when,
                   d[i].motion == GEOLOC_MOTION_STOPPED ? "stopped: pause updates" : "moving again: resume updates");
        }
    }
    printf("kept fixes: %zu of %zu (dropped: %zu time, %zu accuracy, %zu jump, %zu distance filter)\n", nk, n,
           by[1], by[2], by[3], by[4]);

    /* Geofences over the kept fixes. */
    geoloc_monitor_create(fences, NULL, &monitor);
    geoloc_monitor_run(monitor, kept, nk, NULL, 0, &needed);
    geoloc_geofence_event *ev = malloc((needed ? needed : 1) * sizeof *ev);
    if ((s = geoloc_monitor_run(monitor, kept, nk, ev, needed, &count)) != GEOLOC_OK) return report("monitor", s);
    static const char *const transition[] = {"enter", "dwell", "exit"};
    for (i = 0; i < count; i++) {
        clock_text(ev[i].time, when, sizeof when);
        printf("  fix %3zu %s  %-5s %s\n", kept_index[ev[i].fix], when, transition[ev[i].transition], names[ev[i].region]);
    }
    printf("geofence events: %zu\n", count);

    /* Statistics of the kept track. */
    if ((s = geoloc_track_measure(kept, nk, GEOLOC_MODEL_WGS84, 0.5, &st)) != GEOLOC_OK) return report("stats", s);
    printf("track: %.0f m in %.0f s (moving %.0f s), average %.2f m/s, moving %.2f m/s, max %.2f m/s, "
           "climb %.1f m\n", st.length_m, st.duration_s, st.moving_time_s, st.average_speed_mps,
           st.moving_speed_mps, st.max_speed_mps, st.elevation_gain_m);
    geoloc_monitor_destroy(monitor);
    geoloc_fix_filter_destroy(filter);
    geoloc_geofences_destroy(fences);
    geoloc_track_destroy(track);
    free(fixes); free(kept); free(d); free(kept_index); free(ev);
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The tour
 * ------------------------------------------------------------------------------------------- */

static int tour_coordinates(const struct table *trip)
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

static int tour_distance(const struct table *trip, const geoloc_coord *home,
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

static const char *stop_name(const struct table *trip, int64_t index)
{
    /* Row 0 is home; stop i is row i + 1. */
    return index < 0 ? trip->cell[0][1] : trip->cell[index + 1][1];
}

/* The same day with opening hours: leaving home at 8:00 at 45 mph, 20 minutes at each stop, the
 * first stop open only from 14:00 to 15:00 (a pickup window). Times are seconds since midnight. */
static int tour_opening_hours(const struct table *trip, geoloc_coord home, const geoloc_coord *stops,
                              const size_t *stop_rows, size_t n_stops)
{
    geoloc_time_window windows[MAX_ROWS];
    double service[MAX_ROWS];
    geoloc_stop_visit visits[MAX_ROWS];
    size_t order[MAX_ROWS], needed, i;
    geoloc_schedule_result r;
    geoloc_status s;

    if (n_stops == 0) return 0;
    for (i = 0; i < n_stops; i++) {
        windows[i].earliest = -INFINITY;
        windows[i].latest = INFINITY;
        service[i] = 20 * 60;
    }
    windows[0].earliest = 14 * 3600;
    windows[0].latest = 15 * 3600;
    printf("\n== With opening hours: leave at 08:00, 45 mph, 20 minutes a stop, %s open 14:00-15:00\n",
           trip->cell[stop_rows[0]][1]);
    s = geoloc_best_order_windows_coords(home, stops, n_stops, 45 * 0.44704, GEOLOC_MODEL_SPHERE, windows, service,
                                         8 * 3600, INFINITY, GEOLOC_ROUTE_END_HOME, 0, NULL, order, visits, MAX_ROWS,
                                         NULL, 0, &needed, &r);
    if (s != GEOLOC_OK && s != GEOLOC_E_WINDOWS_MISSED) return report("best order with opening hours", s);
    for (i = 0; i < r.stop_count; i++) {
        int a = (int)(visits[i].arrival / 60), w = (int)(visits[i].wait / 60 + 0.5);
        printf("  %02d:%02d %s%s", a / 60, a % 60, trip->cell[stop_rows[order[i]]][1], w ? "" : "\n");
        if (w) printf(" (waits %d min for it to open)\n", w);
    }
    printf("  back home at %02d:%02d, %.0f minutes on the road%s\n", (int)(r.end_time / 3600),
           (int)(r.end_time / 60) % 60, r.travel / 60, r.feasible ? "" : " (misses a window)");
    return 0;
}

/* The seed's mileage in the order the stops were picked, and in the best order. */
static int tour_best_order(const struct table *trip, geoloc_coord home, const geoloc_coord *stops,
                           const size_t *stop_rows, size_t n_stops)
{
    size_t order[MAX_ROWS], needed, i;
    geoloc_order_result r;
    geoloc_status s;

    printf("\n== The best order: the same stops, visited in the order that drives least\n");
    s = geoloc_best_order(home, stops, n_stops, GEOLOC_ROUTE_END_HOME, 0, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES,
                          NULL, order, MAX_ROWS, NULL, 0, &needed, &r);
    if (s != GEOLOC_OK) return report("best order", s);
    printf("  %s miles as picked, %s miles in the best order (%s)\n", r.given_text, r.text,
           r.proven_optimal ? "proven optimal" : "not proven optimal");
    printf("  %s", trip->cell[0][1]);
    for (i = 0; i < r.stop_count; i++) printf(" -> %s", trip->cell[stop_rows[order[i]]][1]);
    printf(" -> %s\n", trip->cell[0][1]);
    return tour_opening_hours(trip, home, stops, stop_rows, n_stops);
}

static int tour_mileage(const struct table *trip, geoloc_mileage_result *r)
{
    const char *stops[MAX_ROWS];
    geoloc_leg legs[MAX_ROWS + 1];
    size_t skipped[MAX_ROWS];
    size_t n = trip->rows - 1, i;
    int64_t minutes;
    geoloc_status s;

    for (i = 0; i < n; i++) stops[i] = trip->cell[i + 1][2];
    printf("\n== Round-trip mileage: %s, the stops in order, back to %s\n", trip->cell[0][1], trip->cell[0][1]);
    s = geoloc_mileage(trip->cell[0][2], stops, n, true, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES, r, legs,
                       MAX_ROWS + 1, skipped, MAX_ROWS);
    if (s != GEOLOC_OK) return report("mileage", s);
    printf("  mileage: %s miles (%zu stops counted, %zu skipped, %zu legs)\n", r->text, r->stops_used,
           r->stops_skipped, r->leg_count);
    for (i = 0; i < r->leg_count; i++) {
        printf("    %-12s -> %-12s %7.2f miles\n", stop_name(trip, legs[i].from), stop_name(trip, legs[i].to),
               legs[i].distance);
    }
    for (i = 0; i < r->stops_skipped; i++) {
        printf("  skipped stop %zu, %s: \"%s\"\n", skipped[i], stop_name(trip, (int64_t)skipped[i]),
               stops[skipped[i]]);
    }

    printf("\n== ETA: the round trip at 55 mph, roads 1.3 times the straight line\n");
    if ((s = geoloc_eta_minutes(r->total, 55.0, GEOLOC_UNIT_MILES, 1.3, &minutes)) != GEOLOC_OK) {
        return report("eta", s);
    }
    printf("  about %lld minutes on the road\n", (long long)minutes);
    if ((s = geoloc_eta_minutes(30.0, 60.0, GEOLOC_UNIT_MILES, 1.0, &minutes)) != GEOLOC_OK) {
        return report("eta", s);
    }
    printf("  30 miles at 60 mph: %lld minutes\n", (long long)minutes);
    return 0;
}

static int tour_weather(const struct table *weather)
{
    static const char *const daylight_names[] = {"UNKNOWN", "DAY", "NIGHT"};
    size_t i;
    printf("\n== Weather: WMO codes as words\n");
    for (i = 0; i < weather->rows; i++) {
        int32_t code;
        double temperature;
        geoloc_temp_unit given;
        geoloc_daylight daylight = GEOLOC_DAYLIGHT_UNKNOWN;
        char shown_f[TEXT_CAP], shown_c[TEXT_CAP];
        size_t needed;
        int k;
        geoloc_status s;
        if (!parse_int32(weather->cell[i][0], &code) || !parse_double(weather->cell[i][1], &temperature) ||
            !parse_temp_unit(weather->cell[i][2], &given)) {
            fprintf(stderr, "%s: weather.tsv row %zu is malformed\n", program, i + 1);
            return 1;
        }
        for (k = 0; k < 3; k++) {
            if (strcmp(weather->cell[i][3], daylight_names[k]) == 0) daylight = (geoloc_daylight)k;
        }
        s = geoloc_weather_condition(code, temperature, given, GEOLOC_TEMP_FAHRENHEIT, daylight, shown_f,
                                     sizeof shown_f, &needed);
        if (s != GEOLOC_OK && s != GEOLOC_E_UNKNOWN_CODE) return report("weather", s);
        s = geoloc_weather_condition(code, temperature, given, GEOLOC_TEMP_CELSIUS, daylight, shown_c,
                                     sizeof shown_c, &needed);
        if (s != GEOLOC_OK && s != GEOLOC_E_UNKNOWN_CODE) return report("weather", s);
        printf("  code %-3d %6s°%s %-8s %-26s %s\n", (int)code, weather->cell[i][1], weather->cell[i][2],
               weather->cell[i][3], shown_f, shown_c);
        if (s == GEOLOC_E_UNKNOWN_CODE) {
            printf("           (%s: %s)\n", geoloc_status_string(s), geoloc_last_error());
        }
    }
    return 0;
}

static int tour_addresses(const struct table *addresses)
{
    static const char *const style_names[] = {"one line", "City, State", "City, State, Country", "postal"};
    size_t i;
    printf("\n== Addresses: components in, the usual forms out\n");
    for (i = 0; i < addresses->rows; i++) {
        geoloc_address_part parts[16];
        char items[MAX_FIELD], *item = items;
        size_t n = 0;
        int style;
        snprintf(items, sizeof items, "%s", addresses->cell[i][1]);
        while (item != NULL && n < 16) {
            char *sep = strstr(item, " | ");
            if (sep != NULL) *sep = '\0';
            if (!parse_part(item, &parts[n++])) {
                fprintf(stderr, "%s: addresses.tsv row %zu is malformed\n", program, i + 1);
                return 1;
            }
            item = sep != NULL ? sep + 3 : NULL;
        }
        printf("  %s\n", addresses->cell[i][0]);
        for (style = GEOLOC_ADDRESS_ONE_LINE; style <= GEOLOC_ADDRESS_POSTAL; style++) {
            char text[TEXT_CAP * 2];
            size_t needed;
            geoloc_status s = geoloc_address_format(parts, n, (geoloc_address_style)style, text, sizeof text, &needed);
            if (s != GEOLOC_OK) return report("address", s);
            if (style == GEOLOC_ADDRESS_POSTAL) {
                printf("    %s:\n", style_names[style]);
                print_indented("      ", text);
            } else {
                printf("    %-21s %s\n", style_names[style], text);
            }
        }
    }
    return 0;
}

/* Places: towns near home, and each stop's "City, State", from the shipped gazetteer. */
static int tour_places(const struct table *trip, const geoloc_coord *home, const geoloc_coord *stops,
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
    if (strcmp(argv[i], "track") == 0 && argc - i <= 3) {
        static char gpx[1100], regions[1100];
        snprintf(gpx, sizeof gpx, "%s/walk.gpx", dir);
        snprintf(regions, sizeof regions, "%s/regions.tsv", dir);
        return cmd_track(argc - i >= 2 ? argv[i + 1] : gpx, argc - i == 3 ? argv[i + 2] : regions);
    }
    return usage();
}
