/*
 * route.c -- the example host's Route: round-trip mileage, the best order of the stops, and the same
 * day with opening hours (see examples/geoloc-demo.c).
 */
#include "demo.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_mileage(const char *home, const char *const *stops, size_t n)
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

/* The seed's mileage in the order the stops were picked, and in the best order (then the same day
 * with opening hours). */
int tour_best_order(const struct table *trip, geoloc_coord home, const geoloc_coord *stops,
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

int tour_mileage(const struct table *trip, geoloc_mileage_result *r)
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
