/*
 * tracking.c -- the example host's Tracking: a GPX track through the fix filter and a geofence monitor (see examples/geoloc-demo.c).
 */
#include "demo.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void clock_text(double t, char *buf, size_t cap)
{
    long s = (long)t % 86400;
    if (s < 0) s += 86400;
    snprintf(buf, cap, "%02ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
}

int cmd_track(const char *gpx, const char *regions_path)
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
