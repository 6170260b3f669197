/*
 * test_track_corpus.c -- the real-device GPX corpus (tests/tracks, see its README) read by the
 * C door, each file from disk: every segment (each trkseg, each rte) and the waypoints against
 * tests/tracks/corpus.tsv, gpxpy 1.6.2's reading of the same files (points, timed points, the
 * length on the sphere, duration, raw elevation gain and loss, sums of every coordinate,
 * elevation and time).
 */
#include <math.h>

#include "common.h"

#ifndef GEOLOC_TRACKS_DIR
#define GEOLOC_TRACKS_DIR "tests/tracks"
#endif

enum { MAX_POINTS = 20000, MAX_SEGMENTS = 64 };
static geoloc_fix pts[MAX_POINTS];
static geoloc_segment_stats per[MAX_SEGMENTS];
static geoloc_track_segment segs[MAX_SEGMENTS];

static int near(double got, double want, double abs_tol, double rel_tol)
{
    return fabs(got - want) <= abs_tol + rel_tol * fabs(want);
}

typedef struct {
    const char *file, *kind;
    int index;
    size_t points, timed, ele_count, backward;
    double length, duration, gain, loss, lat_sum, lon_sum, ele_sum, time_sum, first_time;
} row;

/* Checks points [first, first + n) (and their statistics s, when not NULL) against a row. */
static void check_row(const row *r, const geoloc_fix *p, size_t n, const geoloc_segment_stats *s)
{
    double lat = 0, lon = 0, ele = 0, tsum = 0, t0 = NAN;
    size_t timed = 0, eles = 0;
    for (size_t i = 0; i < n; i++) {
        lat += p[i].lat;
        lon += p[i].lon;
        if (!isnan(p[i].altitude_m)) { ele += p[i].altitude_m; eles++; }
        if (!isnan(p[i].time)) {
            if (isnan(t0)) t0 = p[i].time;
            tsum += p[i].time - t0;
            timed++;
        }
    }
    int ok = n == r->points && timed == r->timed && eles == r->ele_count && near(lat, r->lat_sum, 1e-6, 0) &&
             near(lon, r->lon_sum, 1e-6, 0) && near(ele, r->ele_sum, 1e-4, 1e-12) && near(tsum, r->time_sum, 1e-2, 1e-12) &&
             (timed == 0 || near(t0, r->first_time, 1e-3, 0));
    if (s) {
        ok &= s->point_count == r->points && s->timed_count == r->timed && s->stats.altitude_count == r->ele_count &&
              s->backward_steps == r->backward && near(s->stats.length_m, r->length, 1e-6, 1e-9) &&
              near(s->stats.duration_s, r->duration, 1e-3, 0) && near(s->stats.elevation_gain_m, r->gain, 1e-6, 1e-9) &&
              near(s->stats.elevation_loss_m, r->loss, 1e-6, 1e-9);
    }
    if (!CHECK(ok)) {
        fprintf(stderr, "    %s %s %d: points %zu/%zu timed %zu/%zu ele %zu/%zu lat %.9f/%.9f lon %.9f/%.9f ele %.6f/%.6f\n",
                r->file, r->kind, r->index, n, r->points, timed, r->timed, eles, r->ele_count, lat, r->lat_sum, lon, r->lon_sum,
                ele, r->ele_sum);
        if (s)
            fprintf(stderr, "      length %.6f/%.6f duration %.3f/%.3f gain %.6f/%.6f loss %.6f/%.6f back %zu/%zu\n",
                    s->stats.length_m, r->length, s->stats.duration_s, r->duration, s->stats.elevation_gain_m, r->gain,
                    s->stats.elevation_loss_m, r->loss, s->backward_steps, r->backward);
    }
}

int main(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/corpus.tsv", GEOLOC_TRACKS_DIR);
    FILE *f = fopen(path, "r");
    if (!CHECK(f != NULL)) return check_summary("test_track_corpus");
    char line[1024], current[256] = "";
    geoloc_track *t = NULL;
    size_t n_points = 0, n_segs = 0, rows = 0, files = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || strncmp(line, "file\t", 5) == 0) continue;
        line[strcspn(line, "\n")] = 0;
        char *field[16];
        int k = 0;
        for (char *tok = strtok(line, "\t"); tok && k < 16; tok = strtok(NULL, "\t")) field[k++] = tok;
        if (!CHECK(k == 16)) continue;
        row r = {field[0], field[1], atoi(field[2]), strtoul(field[3], NULL, 10), strtoul(field[4], NULL, 10),
                 strtoul(field[9], NULL, 10), strtoul(field[15], NULL, 10), atof(field[5]), atof(field[6]), atof(field[7]),
                 atof(field[8]), atof(field[10]), atof(field[11]), atof(field[12]), atof(field[13]), atof(field[14])};
        if (strcmp(current, r.file) != 0) {
            geoloc_track_destroy(t);
            t = NULL;
            snprintf(current, sizeof current, "%s", r.file);
            snprintf(path, sizeof path, "%s/gpx/%s", GEOLOC_TRACKS_DIR, r.file);
            geoloc_load_options strict = {0};
            strict.strict = true;
            if (!CHECK_OK(geoloc_track_load_gpx(path, &strict, &t))) {
                fprintf(stderr, "    %s\n", geoloc_last_error());
                continue;
            }
            files++;
            geoloc_segment_stats whole;
            CHECK_OK(geoloc_track_points(t, pts, MAX_POINTS, &n_points));
            CHECK_OK(geoloc_track_segments(t, segs, MAX_SEGMENTS, &n_segs));
            CHECK_OK(geoloc_track_statistics(t, GEOLOC_MODEL_SPHERE, 0.5, &whole, per, MAX_SEGMENTS, &n_segs));
        }
        if (!t) continue;
        rows++;
        if (strcmp(r.kind, "waypoints") == 0) {
            static geoloc_fix w[MAX_POINTS];
            size_t m = 0;
            CHECK_OK(geoloc_track_waypoints(t, w, MAX_POINTS, &m));
            check_row(&r, w, m, NULL);
            continue;
        }
        /* The index-th segment of this kind. */
        geoloc_segment_kind kind = strcmp(r.kind, "route") == 0 ? GEOLOC_SEGMENT_ROUTE : GEOLOC_SEGMENT_TRACK;
        int seen = -1;
        size_t s = 0;
        for (; s < n_segs; s++)
            if (segs[s].kind == kind && ++seen == r.index) break;
        if (!CHECK(s < n_segs)) {
            fprintf(stderr, "    %s: no %s segment %d\n", r.file, r.kind, r.index);
            continue;
        }
        check_row(&r, pts + segs[s].first, segs[s].count, &per[s]);
    }
    geoloc_track_destroy(t);
    fclose(f);
    CHECK(files >= 20 && rows >= 60);
    fprintf(stderr, "test_track_corpus: %zu files, %zu rows against gpxpy\n", files, rows);
    return check_summary("test_track_corpus");
}
