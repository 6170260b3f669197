/*
 * test_tracking.c -- the C door of tracking: the fix filter and stop detection, geofence
 * monitoring (hysteresis, dwell, antimeridian, pole, saved state), track statistics,
 * simplification against a brute-force bound, resampling and stay points.
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>

#include "common.h"

#define R 6371008.8
#define PI 3.14159265358979323846
#define M_PER_DEG (R * PI / 180.0)

/* A fix dx meters east and dy meters north of (lat0, lon0) (local flat offsets). */
static geoloc_fix at(double lat0, double lon0, double dx, double dy, double t, double acc)
{
    geoloc_fix f;
    f.lat = lat0 + dy / M_PER_DEG;
    f.lon = lon0 + dx / (M_PER_DEG * cos(lat0 * PI / 180.0));
    f.time = t;
    f.accuracy_m = acc;
    f.speed_mps = NAN;
    f.course_deg = NAN;
    f.altitude_m = NAN;
    return f;
}

static double hav(double lat1, double lon1, double lat2, double lon2)
{
    double d;
    geoloc_coord a = {lat1, lon1}, b = {lat2, lon2};
    if (geoloc_distance(a, b, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &d) != GEOLOC_OK) return NAN;
    return d;
}

/* ------------------------------------------------------------------------------------------ */

static void test_filter_rules(void)
{
    geoloc_filter_options o;
    geoloc_fix_filter *f;
    geoloc_fix_decision d[16];
    CHECK_OK(geoloc_filter_options_preset(GEOLOC_ACTIVITY_FITNESS, &o));
    CHECK(o.max_accuracy_m == 30 && o.distance_filter_m == 5 && o.max_speed_mps == 15);
    CHECK(o.stop_radius_m == 25 && o.stop_time_s == 120);
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_filter_options_preset((geoloc_activity)9, &o));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_filter_options_preset(GEOLOC_ACTIVITY_OTHER, NULL));

    o.stop_radius_m = 0; /* stop detection off here */
    CHECK_OK(geoloc_fix_filter_create(&o, &f));
    /* 0 fixes: nothing to do, out may be NULL. */
    CHECK_OK(geoloc_fix_filter_run(f, NULL, 0, NULL));
    double lat0 = 48.0, lon0 = 11.0;
    geoloc_fix s[9] = {
        at(lat0, lon0, 0, 0, 100, 5),     /* 0 kept: the first */
        at(lat0, lon0, 10, 0, 105, 5),    /* 1 kept: 10 m > 5 m filter */
        at(lat0, lon0, 12, 0, 105, 5),    /* 2 time repeats */
        at(lat0, lon0, 30, 0, 104, 5),    /* 3 time goes back */
        at(lat0, lon0, 20, 0, 110, 50),   /* 4 accuracy 50 > 30 */
        at(lat0, lon0, 2000, 0, 111, 5),  /* 5 jump: 1990 m in 6 s */
        at(lat0, lon0, 13, 0, 112, 5),    /* 6 3 m from the last kept: distance */
        at(lat0, lon0, 40, 0, 115, 5),    /* 7 kept: 30 m in 10 s from 1 */
        at(lat0, lon0, 2000, 0, 400, 5),  /* 8 kept: 1960 m in 285 s is possible */
    };
    int want[9] = {GEOLOC_FIX_KEPT, GEOLOC_FIX_KEPT, GEOLOC_FIX_DROPPED_TIME, GEOLOC_FIX_DROPPED_TIME,
                   GEOLOC_FIX_DROPPED_ACCURACY, GEOLOC_FIX_DROPPED_JUMP, GEOLOC_FIX_DROPPED_DISTANCE,
                   GEOLOC_FIX_KEPT, GEOLOC_FIX_KEPT};
    CHECK_OK(geoloc_fix_filter_run(f, s, 9, d));
    for (int i = 0; i < 9; i++) {
        if (!CHECK((int)d[i].verdict == want[i] && d[i].motion == GEOLOC_MOTION_NONE))
            fprintf(stderr, "    fix %d: verdict %d, want %d\n", i, (int)d[i].verdict, want[i]);
    }
    /* A bad fix: error, the filter unchanged (the same fix is then judged as before). */
    geoloc_fix bad[2] = {at(lat0, lon0, 50, 0, 600, 5), at(lat0, lon0, 0, 0, 601, -1)};
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_fix_filter_run(f, bad, 2, d));
    bad[1].accuracy_m = 5;
    bad[1].lat = NAN;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_fix_filter_run(f, bad, 2, d));
    bad[1].lat = 91;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_fix_filter_run(f, bad, 2, d));
    bad[1].lat = 48;
    bad[1].altitude_m = INFINITY;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_fix_filter_run(f, bad, 2, d));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_fix_filter_run(f, NULL, 2, d));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_fix_filter_run(f, bad, 2, NULL));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_fix_filter_run(f, bad, (size_t)-1, d));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_fix_filter_run(NULL, bad, 1, d));
    CHECK_OK(geoloc_fix_filter_run(f, bad, 1, d));
    CHECK(d[0].verdict == GEOLOC_FIX_KEPT); /* 1950 m back in 200 s is possible */
    geoloc_fix_filter_destroy(f);
    geoloc_fix_filter_destroy(NULL);

    /* One fix; identical times. */
    CHECK_OK(geoloc_fix_filter_create(NULL, &f));
    geoloc_fix same[3] = {at(0, 0, 0, 0, 7, 3), at(0, 0, 50, 0, 7, 3), at(0, 0, 100, 0, 7, 3)};
    CHECK_OK(geoloc_fix_filter_run(f, same, 1, d));
    CHECK(d[0].verdict == GEOLOC_FIX_KEPT);
    CHECK_OK(geoloc_fix_filter_run(f, same + 1, 2, d));
    CHECK(d[0].verdict == GEOLOC_FIX_DROPPED_TIME && d[1].verdict == GEOLOC_FIX_DROPPED_TIME);
    geoloc_fix_filter_destroy(f);

    /* Options refused. */
    o.max_speed_mps = -1;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_fix_filter_create(&o, &f));
    o.max_speed_mps = NAN;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_fix_filter_create(&o, &f));
    o.max_speed_mps = INFINITY; /* off */
    CHECK_OK(geoloc_fix_filter_create(&o, &f));
    geoloc_fix_filter_destroy(f);
}

/* A walk that stops for 5 minutes and goes on: STOPPED once, then MOVING. */
static void test_stop_and_go(void)
{
    geoloc_filter_options o;
    geoloc_fix_filter *f;
    geoloc_fix s[40];
    geoloc_fix_decision d[40];
    int n = 0;
    double lat0 = -33.9, lon0 = 151.2;
    for (int i = 0; i < 10; i++) s[n++] = at(lat0, lon0, 15.0 * i, 0, 10.0 * i, 5); /* 1.5 m/s */
    /* Stopped at x = 135 for 300 s: jitter of up to 20 m with accuracy 8 (within 25 + 8). */
    for (int i = 1; i <= 15; i++) {
        double jx = (i % 3 - 1) * 14.0, jy = (i % 2 ? 1 : -1) * 12.0;
        s[n++] = at(lat0, lon0, 135 + jx, jy, 90 + 20.0 * i, 8);
    }
    for (int i = 1; i <= 5; i++) s[n++] = at(lat0, lon0, 135 + 40.0 * i, 0, 390 + 20.0 * i, 5);
    CHECK_OK(geoloc_filter_options_preset(GEOLOC_ACTIVITY_FITNESS, &o));
    CHECK_OK(geoloc_fix_filter_create(&o, &f));
    CHECK_OK(geoloc_fix_filter_run(f, s, (size_t)n, d));
    /* The anchor is fix 9 (t = 90); fix 9 + 6 (t = 210) is the first at >= 120 s after it. */
    int stopped = -1, moving = -1, events = 0;
    for (int i = 0; i < n; i++) {
        if (d[i].motion == GEOLOC_MOTION_STOPPED) { stopped = i; events++; }
        if (d[i].motion == GEOLOC_MOTION_MOVING) { moving = i; events++; }
    }
    CHECK(stopped == 15);
    CHECK(moving == 25);
    CHECK(events == 2);
    bool st = true;
    CHECK_OK(geoloc_fix_filter_stationary(f, &st));
    CHECK(!st);

    /* Saved mid-stream and restored: the same decisions as without the interruption. */
    geoloc_fix_filter *g, *h;
    geoloc_fix_decision d2[40];
    CHECK_OK(geoloc_fix_filter_create(&o, &g));
    CHECK_OK(geoloc_fix_filter_run(g, s, 17, d2));
    unsigned char blob[512];
    size_t needed = 0;
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_fix_filter_save(g, NULL, 0, &needed));
    CHECK(needed > 0 && needed <= sizeof blob);
    CHECK_OK(geoloc_fix_filter_save(g, blob, sizeof blob, &needed));
    geoloc_fix_filter_destroy(g);
    CHECK_OK(geoloc_fix_filter_restore(blob, needed, &h));
    CHECK_OK(geoloc_fix_filter_run(h, s + 17, (size_t)n - 17, d2 + 17));
    int same = 1;
    for (int i = 0; i < n; i++) same &= d[i].verdict == d2[i].verdict && d[i].motion == d2[i].motion;
    CHECK(same);
    geoloc_fix_filter_destroy(h);
    /* Every corruption is refused. */
    int refused = 1;
    for (size_t k = 0; k < needed; k++) {
        blob[k] ^= 0x5a;
        geoloc_fix_filter *x = NULL;
        refused &= geoloc_fix_filter_restore(blob, needed, &x) == GEOLOC_E_PARSE && x == NULL;
        blob[k] ^= 0x5a;
    }
    CHECK(refused);
    for (size_t k = 0; k < needed; k++) {
        geoloc_fix_filter *x = NULL;
        refused &= geoloc_fix_filter_restore(blob, k, &x) == GEOLOC_E_PARSE && x == NULL;
    }
    CHECK(refused);
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_fix_filter_restore(NULL, 4, &h));
    geoloc_fix_filter_destroy(f);
}

/* ------------------------------------------------------------------------------------------ */

static size_t run(geoloc_monitor *m, const geoloc_fix *f, size_t n, geoloc_geofence_event *ev, size_t cap)
{
    size_t needed = 0;
    if (!CHECK_OK(geoloc_monitor_run(m, f, n, ev, cap, &needed))) return 0;
    return needed;
}

static int event_is(const geoloc_geofence_event *e, size_t fix, size_t region, geoloc_transition t)
{
    return e->fix == fix && e->region == region && e->transition == t;
}

static void test_monitor_circle(void)
{
    double lat0 = 51.5, lon0 = -0.12;
    geoloc_circle_fence c[2] = {{"park", {lat0, lon0}, 100}, {NULL, {lat0 + 1, lon0}, 50}};
    geoloc_geofences *fs;
    geoloc_monitor *m;
    geoloc_geofence_event ev[64];
    size_t n;
    char id[16];
    CHECK_OK(geoloc_geofences_create(c, 2, NULL, 0, &fs));
    CHECK_OK(geoloc_geofences_count(fs, &n));
    CHECK(n == 2);
    CHECK_OK(geoloc_geofences_id(fs, 0, id, sizeof id, &n));
    CHECK_STR(id, "park");
    CHECK_OK(geoloc_geofences_id(fs, 1, id, sizeof id, &n));
    CHECK_STR(id, "");
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_geofences_id(fs, 2, id, sizeof id, &n));

    geoloc_monitor_options o;
    CHECK_OK(geoloc_monitor_options_default(&o));
    CHECK(o.accuracy_factor == 1 && o.enter_margin_m == 5 && o.exit_margin_m == 5 && o.loitering_time_s == 300);
    o.loitering_time_s = 60;
    CHECK_OK(geoloc_monitor_create(fs, &o, &m));

    /* Jitter around the boundary (x = 100 +- 8 m, accuracy 10): enter needs s <= -15, exit s >= 15. */
    geoloc_fix j[8];
    for (int i = 0; i < 8; i++) j[i] = at(lat0, lon0, 100 + (i % 2 ? 8 : -8), 0, i, 10);
    CHECK(run(m, j, 8, ev, 64) == 0);
    /* Walk in: x = 88 with accuracy 10 is s = -12 + 10 = -2 > -5: not yet; x = 60: enter. */
    geoloc_fix w[10] = {
        at(lat0, lon0, 88, 0, 10, 10), at(lat0, lon0, 60, 0, 20, 10),  /* 1 enter */
        at(lat0, lon0, 90, 0, 40, 10),                                   /* jitter back: stays */
        at(lat0, lon0, 110, 0, 60, 10),                                  /* s = 10 - 10 < 5: stays */
        at(lat0, lon0, 50, 0, 79, 5),                                    /* 59 s: no dwell yet */
        at(lat0, lon0, 40, 0, 80, 5),                                    /* 5 dwell at 60 s */
        at(lat0, lon0, 0, 0, 100, 5),
        at(lat0, lon0, 115, 0, 120, 5),                                  /* s = 15 - 5 >= 5: exit */
        at(lat0, lon0, 85, 0, 130, 5),                                   /* s = -15 + 5 <= -5: enter */
        at(lat0, lon0, 300, 0, 140, 5),                                  /* 9 exit */
    };
    n = run(m, w, 10, ev, 64);
    CHECK(n == 5);
    CHECK(event_is(&ev[0], 1, 0, GEOLOC_TRANSITION_ENTER));
    CHECK(event_is(&ev[1], 5, 0, GEOLOC_TRANSITION_DWELL));
    CHECK(ev[1].time == 80);
    CHECK(event_is(&ev[2], 7, 0, GEOLOC_TRANSITION_EXIT));
    CHECK(event_is(&ev[3], 8, 0, GEOLOC_TRANSITION_ENTER));
    CHECK(event_is(&ev[4], 9, 0, GEOLOC_TRANSITION_EXIT));

    /* Times must not go back; equal times are fine. */
    geoloc_fix back = at(lat0, lon0, 0, 0, 139, 5);
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_monitor_run(m, &back, 1, ev, 64, &n));
    back.time = 140;
    CHECK(run(m, &back, 1, ev, 64) == 1);
    CHECK(event_is(&ev[0], 0, 0, GEOLOC_TRANSITION_ENTER));
    /* The buffer too small: nothing changes, and the call can be made again. */
    geoloc_fix out = at(lat0, lon0, 500, 0, 150, 5);
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_monitor_run(m, &out, 1, NULL, 0, &n));
    CHECK(n == 1);
    size_t inside[4], count;
    CHECK_OK(geoloc_monitor_inside(m, inside, 4, &count));
    CHECK(count == 1 && inside[0] == 0);
    CHECK(run(m, &out, 1, ev, 1) == 1);
    CHECK(event_is(&ev[0], 0, 0, GEOLOC_TRANSITION_EXIT));
    CHECK_OK(geoloc_monitor_inside(m, inside, 4, &count));
    CHECK(count == 0);
    /* 0 fixes. */
    CHECK(run(m, NULL, 0, NULL, 0) == 0);
    geoloc_monitor_destroy(m);

    /* Loitering 0: dwell with the enter; the first fix inside enters. */
    o.loitering_time_s = 0;
    CHECK_OK(geoloc_monitor_create(fs, &o, &m));
    geoloc_fix two[2] = {at(lat0, lon0, 0, 0, 0, 0), at(lat0 + 1, lon0, 0, 0, 0, 0)};
    n = run(m, two, 2, ev, 64);
    CHECK(n == 5);
    CHECK(event_is(&ev[0], 0, 0, GEOLOC_TRANSITION_ENTER) && event_is(&ev[1], 0, 0, GEOLOC_TRANSITION_DWELL));
    CHECK(event_is(&ev[2], 1, 0, GEOLOC_TRANSITION_EXIT) && event_is(&ev[3], 1, 1, GEOLOC_TRANSITION_ENTER));
    CHECK(event_is(&ev[4], 1, 1, GEOLOC_TRANSITION_DWELL));
    geoloc_monitor_destroy(m);

    /* Errors. */
    o.exit_margin_m = -1;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_monitor_create(fs, &o, &m));
    o.exit_margin_m = NAN;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_monitor_create(fs, &o, &m));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_monitor_create(NULL, NULL, &m));
    geoloc_circle_fence badc = {"x", {0, 0}, 0};
    geoloc_geofences *fb;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_geofences_create(&badc, 1, NULL, 0, &fb));
    badc.radius_m = NAN;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_geofences_create(&badc, 1, NULL, 0, &fb));
    badc.radius_m = 10;
    badc.center.lat = 95;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_geofences_create(&badc, 1, NULL, 0, &fb));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_geofences_create(NULL, 1, NULL, 0, &fb));
    geoloc_geofences_destroy(fs);
    geoloc_geofences_destroy(NULL);
    geoloc_monitor_destroy(NULL);
}

static void test_monitor_antimeridian_and_pole(void)
{
    /* A circle on the antimeridian, one round the north pole, and a square across the
     * antimeridian (lon 179.99 .. -179.99, lat 10 .. 10.02). */
    geoloc_coord sq[4] = {{10, 179.99}, {10, -179.99}, {10.02, -179.99}, {10.02, 179.99}};
    geoloc_circle_fence c[2] = {{"dateline", {0, 179.9995}, 200}, {"pole", {90, 0}, 1000}};
    geoloc_polygon_fence p[1] = {{"square", sq, 4}};
    geoloc_geofences *fs;
    geoloc_monitor *m;
    geoloc_monitor_options o;
    geoloc_geofence_event ev[32];
    CHECK_OK(geoloc_geofences_create(c, 2, p, 1, &fs));
    CHECK_OK(geoloc_monitor_options_default(&o));
    CHECK_OK(geoloc_monitor_create(fs, &o, &m));
    geoloc_fix f[8];
    for (int i = 0; i < 8; i++) f[i] = at(0, 0, 0, 0, i, 5);
    f[0].lat = 0; f[0].lon = -179.9995;  /* 111 m east of the dateline centre: enter 0 */
    f[1].lat = 0; f[1].lon = 179.996;    /* 389 m west: exit 0 */
    f[2].lat = 89.995; f[2].lon = 0;      /* 556 m from the pole: enter 1 */
    f[3].lat = 89.995; f[3].lon = 180;    /* across the pole, still inside */
    f[4].lat = 89.98; f[4].lon = -90;     /* 2224 m: exit 1 */
    f[5].lat = 10.01; f[5].lon = 180;     /* in the square (lon 180 == -180): enter 2 */
    f[6].lat = 10.01; f[6].lon = -179.995;
    f[7].lat = 10.01; f[7].lon = -179.9;  /* 9.7 km east of it: exit 2 */
    f[6].lon += 360.0 * 1000;              /* an unreduced longitude is the same place */
    size_t n = run(m, f, 8, ev, 32);
    CHECK(n == 6);
    CHECK(event_is(&ev[0], 0, 0, GEOLOC_TRANSITION_ENTER));
    CHECK(event_is(&ev[1], 1, 0, GEOLOC_TRANSITION_EXIT));
    CHECK(event_is(&ev[2], 2, 1, GEOLOC_TRANSITION_ENTER));
    CHECK(event_is(&ev[3], 4, 1, GEOLOC_TRANSITION_EXIT));
    CHECK(event_is(&ev[4], 5, 2, GEOLOC_TRANSITION_ENTER));
    CHECK(event_is(&ev[5], 7, 2, GEOLOC_TRANSITION_EXIT));
    geoloc_monitor_destroy(m);
    geoloc_geofences_destroy(fs);

    /* A polygon round the pole, and one with two vertices, are refused. */
    geoloc_coord ring[4] = {{80, 0}, {80, 90}, {80, 180}, {80, -90}};
    geoloc_polygon_fence bad = {"cap", ring, 4};
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_geofences_create(NULL, 0, &bad, 1, &fs));
    bad.n_vertices = 2;
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_geofences_create(NULL, 0, &bad, 1, &fs));
    /* Issue 21: a polygon of 3 identical vertices was reported as having 2. */
    geoloc_coord same[3] = {{40, -74}, {40, -74}, {40, -74}};
    geoloc_polygon_fence one = {"one", same, 3};
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_geofences_create(NULL, 0, &one, 1, &fs));
    CHECK(strstr(geoloc_last_error(), "at least 3 distinct vertices, it has 1 (of 3 given)") != NULL);
    same[2].lat = 41; /* two distinct vertices, the first repeated */
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_geofences_create(NULL, 0, &one, 1, &fs));
    CHECK(strstr(geoloc_last_error(), "it has 2 (of 3 given)") != NULL);
}

/* An independent oracle of the monitor's rules, region by region with geoloc_distance, on many
 * circles of mixed sizes and a random walk through them; then the same stream saved and restored
 * at every tenth fix. */
static uint64_t rng = 88172645463325252ull;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static void test_monitor_against_oracle(void)
{
    enum { NC = 3000, NF = 3000 };
    static geoloc_circle_fence c[NC];
    static geoloc_fix f[NF];
    static geoloc_geofence_event ev[NF * 8], ev2[NF * 8];
    static int inside[NC];
    static double since[NC];
    static int dwelled[NC];
    double lat0 = 40.7, lon0 = -74.0;
    for (int i = 0; i < NC; i++) {
        geoloc_fix p = at(lat0, lon0, (uniform() - 0.5) * 20000, (uniform() - 0.5) * 20000, 0, 0);
        c[i].id = NULL;
        c[i].center.lat = p.lat;
        c[i].center.lon = p.lon;
        c[i].radius_m = uniform() < 0.01 ? 3000 : 30 + 400 * uniform();
    }
    double x = 0, y = 0;
    for (int i = 0; i < NF; i++) {
        x += (uniform() - 0.5) * 120;
        y += (uniform() - 0.5) * 120;
        f[i] = at(lat0, lon0, x, y, i * 10 + (i % 7 == 0 ? 0 : 5), 20 * uniform());
        if (i % 50 == 7) f[i].time = f[i - 1].time; /* equal times */
    }
    geoloc_geofences *fs;
    geoloc_monitor *m;
    geoloc_monitor_options o = {1.5, 3, 7, 120};
    CHECK_OK(geoloc_geofences_create(c, NC, NULL, 0, &fs));
    CHECK_OK(geoloc_monitor_create(fs, &o, &m));
    size_t n = run(m, f, NF, ev, NF * 8);
    /* The oracle. */
    size_t k = 0;
    int agree = 1;
    for (int i = 0; i < NF && agree; i++) {
        double a = o.accuracy_factor * f[i].accuracy_m;
        for (int r = 0; r < NC; r++) {
            double s = hav(f[i].lat, f[i].lon, c[r].center.lat, c[r].center.lon) - c[r].radius_m;
            if (!inside[r] && s + a <= -o.enter_margin_m) {
                inside[r] = 1; since[r] = f[i].time; dwelled[r] = 0;
                agree &= k < n && event_is(&ev[k], (size_t)i, (size_t)r, GEOLOC_TRANSITION_ENTER);
                k++;
            } else if (inside[r] && s - a >= o.exit_margin_m) {
                inside[r] = 0;
                agree &= k < n && event_is(&ev[k], (size_t)i, (size_t)r, GEOLOC_TRANSITION_EXIT);
                k++;
            } else if (inside[r] && !dwelled[r] && f[i].time - since[r] >= o.loitering_time_s) {
                dwelled[r] = 1;
                agree &= k < n && event_is(&ev[k], (size_t)i, (size_t)r, GEOLOC_TRANSITION_DWELL);
                k++;
            }
            if (!agree) {
                fprintf(stderr, "    oracle and monitor differ at fix %d, region %d (event %zu)\n", i, r, k - 1);
                break;
            }
        }
    }
    CHECK(agree);
    CHECK(k == n);
    CHECK(n > 100);
    geoloc_monitor_destroy(m);

    /* Saved and restored every 10 fixes: the same events. */
    CHECK_OK(geoloc_monitor_create(fs, &o, &m));
    size_t total = 0;
    int same = 1;
    unsigned char *blob = NULL;
    for (int i = 0; i < NF; i += 10) {
        size_t e = run(m, f + i, 10, ev2 + total, NF * 8 - total);
        for (size_t q = total; q < total + e; q++) ev2[q].fix += (size_t)i;
        total += e;
        size_t need = 0;
        geoloc_monitor_save(m, NULL, 0, &need);
        blob = realloc(blob, need);
        CHECK_OK(geoloc_monitor_save(m, blob, need, &need));
        geoloc_monitor_destroy(m);
        m = NULL;
        if (!CHECK_OK(geoloc_monitor_restore(fs, blob, need, &m))) break;
    }
    CHECK(total == n);
    for (size_t q = 0; q < n && q < total; q++) {
        same &= ev[q].fix == ev2[q].fix && ev[q].region == ev2[q].region && ev[q].transition == ev2[q].transition &&
                ev[q].time == ev2[q].time;
    }
    CHECK(same);
    /* A corrupted or truncated blob, or one from another set, is an error, never a crash. */
    size_t need = 0;
    geoloc_monitor_save(m, NULL, 0, &need);
    blob = realloc(blob, need);
    CHECK_OK(geoloc_monitor_save(m, blob, need, &need));
    int refused = 1;
    for (size_t q = 0; q < need; q++) {
        geoloc_monitor *x = NULL;
        blob[q] ^= 0x21;
        refused &= geoloc_monitor_restore(fs, blob, need, &x) == GEOLOC_E_PARSE && x == NULL;
        blob[q] ^= 0x21;
        refused &= geoloc_monitor_restore(fs, blob, q, &x) == GEOLOC_E_PARSE && x == NULL;
    }
    CHECK(refused);
    geoloc_geofences *other;
    geoloc_monitor *xm;
    c[5].radius_m += 1;
    CHECK_OK(geoloc_geofences_create(c, NC, NULL, 0, &other));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_monitor_restore(other, blob, need, &xm));
    geoloc_geofences_destroy(other);
    free(blob);
    /* The set may go before its monitors. */
    geoloc_geofences_destroy(fs);
    CHECK(run(m, f + NF - 1, 1, ev, 8) == 0);
    geoloc_monitor_destroy(m);
}

/* ------------------------------------------------------------------------------------------ */

static void test_track_stats(void)
{
    geoloc_track_stats s;
    geoloc_fix f[5] = {at(0, 0, 0, 0, 0, 5), at(0, 0, 100, 0, 50, 5), at(0, 0, 100, 0, 100, 5),
                       at(0, 0, 400, 0, 150, 5), at(0, 0, 400, 100, 250, 5)};
    f[0].altitude_m = 100; f[1].altitude_m = 110; f[3].altitude_m = 104; f[4].altitude_m = 120;
    CHECK_OK(geoloc_track_measure(f, 5, GEOLOC_MODEL_SPHERE, 0.5, &s));
    double len = hav(f[0].lat, f[0].lon, f[1].lat, f[1].lon) + hav(f[2].lat, f[2].lon, f[3].lat, f[3].lon) +
                 hav(f[3].lat, f[3].lon, f[4].lat, f[4].lon);
    CHECK(fabs(s.length_m - len) < 1e-9);
    CHECK(fabs(s.length_m - 500) < 0.01);
    CHECK(s.duration_s == 250);
    CHECK(s.moving_time_s == 200); /* the leg 50 .. 100 stands still */
    CHECK(fabs(s.average_speed_mps - len / 250) < 1e-12);
    CHECK(fabs(s.moving_speed_mps - len / 200) < 1e-12);
    CHECK(fabs(s.max_speed_mps - 6) < 1e-3);
    CHECK(s.elevation_gain_m == 26 && s.elevation_loss_m == 6 && s.altitude_count == 4);
    geoloc_track_stats w;
    CHECK_OK(geoloc_track_measure(f, 5, GEOLOC_MODEL_WGS84, 0.5, &w));
    CHECK(fabs(w.length_m - s.length_m) / s.length_m < 0.006 && w.length_m != s.length_m);
    CHECK_OK(geoloc_track_measure(NULL, 0, GEOLOC_MODEL_SPHERE, 0.5, &s));
    CHECK(s.length_m == 0 && s.duration_s == 0 && s.altitude_count == 0);
    CHECK_OK(geoloc_track_measure(f, 1, GEOLOC_MODEL_SPHERE, 0.5, &s));
    CHECK(s.length_m == 0 && s.duration_s == 0 && s.altitude_count == 1);
    f[2].time = 10;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_track_measure(f, 5, GEOLOC_MODEL_SPHERE, 0.5, &s));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_track_measure(f, 1, (geoloc_model)5, 0.5, &s));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_track_measure(f, 1, GEOLOC_MODEL_SPHERE, -1, &s));
}

/* Cross-track distance to the arc a-b, computed here independently (spherical trigonometry on
 * bearings, as in the aviation formulary), in meters. */
static double to_arc(geoloc_coord p, geoloc_coord a, geoloc_coord b)
{
    double d2r = PI / 180;
    double dap = hav(a.lat, a.lon, p.lat, p.lon), dbp = hav(b.lat, b.lon, p.lat, p.lon);
    double dab = hav(a.lat, a.lon, b.lat, b.lon);
    if (dab < 1e-6) return dap;
    double la = a.lat * d2r, lb = b.lat * d2r, lp = p.lat * d2r;
    double th_ab = atan2(sin((b.lon - a.lon) * d2r) * cos(lb), cos(la) * sin(lb) - sin(la) * cos(lb) * cos((b.lon - a.lon) * d2r));
    double th_ap = atan2(sin((p.lon - a.lon) * d2r) * cos(lp), cos(la) * sin(lp) - sin(la) * cos(lp) * cos((p.lon - a.lon) * d2r));
    double xt = asin(sin(dap / R) * sin(th_ap - th_ab));
    double along = acos(fmin(1, fmax(-1, cos(dap / R) / cos(xt)))) * R;
    if (cos(th_ap - th_ab) < 0 || along > dab) return fmin(dap, dbp);
    return fabs(xt) * R;
}

static void test_simplify(void)
{
    enum { N = 4000 };
    static geoloc_coord p[N];
    static size_t kept[N];
    double x = 0, y = 0, h = 0;
    for (int i = 0; i < N; i++) {
        h += (uniform() - 0.5) * 0.6;
        x += 10 * cos(h) + (uniform() - 0.5) * 4;
        y += 10 * sin(h) + (uniform() - 0.5) * 4;
        geoloc_fix f = at(64.1, -21.9, x, y, 0, 0);
        p[i].lat = f.lat;
        p[i].lon = f.lon;
    }
    double tols[3] = {0, 5, 50};
    for (int t = 0; t < 3; t++) {
        size_t count = 0;
        CHECK_OK(geoloc_track_simplify(p, N, tols[t], kept, &count));
        CHECK(count >= 2 && kept[0] == 0 && kept[count - 1] == N - 1);
        int ok = 1, sorted = 1;
        for (size_t k = 0; k + 1 < count; k++) {
            sorted &= kept[k] < kept[k + 1];
            for (size_t i = kept[k] + 1; i < kept[k + 1]; i++) {
                double d = to_arc(p[i], p[kept[k]], p[kept[k + 1]]);
                if (d > tols[t] + 1e-6) {
                    if (ok) fprintf(stderr, "    point %zu is %.9f m from its arc (tolerance %g)\n", i, d, tols[t]);
                    ok = 0;
                }
            }
        }
        CHECK(ok && sorted);
        if (t == 1) CHECK(count < N / 4);
        if (t == 2) CHECK(count < N / 20);
    }
    /* Across the antimeridian: a straight line of points is two points. */
    geoloc_coord line[5] = {{0, 179.98}, {0, 179.99}, {0, -180}, {0, -179.99}, {0, -179.98}};
    size_t count;
    CHECK_OK(geoloc_track_simplify(line, 5, 0.01, kept, &count));
    CHECK(count == 2 && kept[1] == 4);
    CHECK_OK(geoloc_track_simplify(NULL, 0, 1, NULL, &count));
    CHECK(count == 0);
    CHECK_OK(geoloc_track_simplify(line, 1, 1, kept, &count));
    CHECK(count == 1 && kept[0] == 0);
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_track_simplify(line, 5, -1, kept, &count));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_track_simplify(line, 5, NAN, kept, &count));
    line[2].lat = 100;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_track_simplify(line, 5, 1, kept, &count));
}

static void test_resample_and_stays(void)
{
    geoloc_fix f[3] = {at(0, 10, 0, 0, 0, 4), at(0, 10, 250, 0, 100, 8), at(0, 10, 250, 100, 200, 8)};
    f[0].altitude_m = 0; f[1].altitude_m = 10; f[2].altitude_m = 10;
    geoloc_fix out[16];
    size_t needed;
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_track_resample(f, 3, GEOLOC_RESAMPLE_DISTANCE, 100, NULL, 0, &needed));
    CHECK(needed == 5); /* 0, 100, 200, 300, and the end at 350 */
    CHECK_OK(geoloc_track_resample(f, 3, GEOLOC_RESAMPLE_DISTANCE, 100, out, 16, &needed));
    CHECK(fabs(hav(f[0].lat, f[0].lon, out[1].lat, out[1].lon) - 100) < 1e-3);
    CHECK(fabs(out[1].time - 40) < 1e-3 && fabs(out[1].altitude_m - 4) < 1e-3 && isnan(out[1].course_deg));
    CHECK(fabs(hav(f[1].lat, f[1].lon, out[3].lat, out[3].lon) - 50) < 1e-3 && fabs(out[3].time - 150) < 1e-3);
    CHECK(out[4].lat == f[2].lat && out[4].lon == f[2].lon && out[4].time == 200);
    CHECK_OK(geoloc_track_resample(f, 3, GEOLOC_RESAMPLE_TIME, 60, out, 16, &needed));
    CHECK(needed == 5 && out[1].time == 60 && out[2].time == 120 && out[3].time == 180 && out[4].time == 200);
    CHECK_OK(geoloc_track_resample(f, 1, GEOLOC_RESAMPLE_TIME, 60, out, 16, &needed));
    CHECK(needed == 1);
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_track_resample(f, 3, GEOLOC_RESAMPLE_TIME, 0, out, 16, &needed));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_track_resample(f, 3, GEOLOC_RESAMPLE_DISTANCE, 1e-9, out, 16, &needed));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_track_resample(f, 3, (geoloc_resample_mode)7, 1, out, 16, &needed));

    /* Stays: walk, stop 10 min within 30 m, walk, stop 3 min (too short), walk. */
    geoloc_fix s[64];
    int n = 0;
    double t = 0;
    for (int i = 0; i < 10; i++) s[n++] = at(45, 7, 20.0 * i, 0, t += 15, 5);
    for (int i = 0; i < 20; i++) s[n++] = at(45, 7, 200 + (i % 3) * 10, (i % 2) * 10, t += 30, 5);
    for (int i = 1; i <= 10; i++) s[n++] = at(45, 7, 200 + 40.0 * i, 0, t += 15, 5);
    for (int i = 0; i < 6; i++) s[n++] = at(45, 7, 600, 5.0 * (i % 2), t += 30, 5);
    for (int i = 1; i <= 5; i++) s[n++] = at(45, 7, 600 + 40.0 * i, 0, t += 15, 5);
    geoloc_stay_point sp[8];
    CHECK_OK(geoloc_track_stay_points(s, (size_t)n, 50, 300, sp, 8, &needed));
    CHECK(needed == 1);
    /* (The second run starts at fix 38, x = 560, 40 m from the stop at 600.)
     * Fix 9 (x = 180) is 20 m from 200 and starts the run up to fix 29; then 30 at x = 240. */
    CHECK(sp[0].first == 9 && sp[0].last == 29);
    CHECK(sp[0].arrival == s[9].time && sp[0].departure == s[29].time);
    CHECK(hav(sp[0].center.lat, sp[0].center.lon, s[10].lat, s[10].lon) < 15);
    CHECK_OK(geoloc_track_stay_points(s, (size_t)n, 50, 100, sp, 8, &needed));
    if (!CHECK(needed == 2 && sp[1].first == 38 && sp[1].last == 45))
        fprintf(stderr, "    %zu stays; second %zu .. %zu\n", needed, sp[1].first, sp[1].last);
    CHECK_OK(geoloc_track_stay_points(NULL, 0, 50, 100, NULL, 0, &needed));
    CHECK(needed == 0);
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_track_stay_points(s, (size_t)n, 50, 100, sp, 1, &needed));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_track_stay_points(s, (size_t)n, NAN, 100, sp, 8, &needed));
}


/* ------------------------------------------------------------------------------------------ */

static geoloc_track *parse(int gpx, const char *text, int strict, geoloc_status *status)
{
    geoloc_track *t = NULL;
    geoloc_load_options o = {0};
    o.strict = strict != 0;
    *status = gpx ? geoloc_track_parse_gpx(text, strlen(text), &o, &t) : geoloc_track_parse_geojson(text, strlen(text), &o, &t);
    return t;
}

static void test_formats_round_trip(void)
{
    geoloc_fix f[4] = {at(39.8, -89.65, 0, 0, 1777644000, 0), at(39.8, -89.65, 10, 3, 1777644010.5, 0),
                       at(-0.5, 179.9999999, 0, 0, 1777644020, 0), at(89.9, -180, 0, 0, 1777644030, 0)};
    for (int i = 0; i < 4; i++) f[i].altitude_m = 100.25 * i;
    char buf[4096];
    size_t needed, n;
    geoloc_status st;
    for (int gpx = 0; gpx <= 1; gpx++) {
        if (gpx) {
            CHECK_OK(geoloc_track_write_gpx(f, 4, "A & B <walk>", buf, sizeof buf, &needed));
            CHECK(strstr(buf, "<name>A &amp; B &lt;walk&gt;</name>") != NULL);
            CHECK(strstr(buf, "<time>2026-05-01T14:00:10.500Z</time>") != NULL);
        } else {
            CHECK_OK(geoloc_track_write_geojson(f, 4, buf, sizeof buf, &needed));
        }
        CHECK(needed == strlen(buf) + 1);
        geoloc_track *t = parse(gpx, buf, 1, &st);
        if (!CHECK_OK(st)) continue;
        geoloc_fix g[4];
        bool timed = false;
        CHECK_OK(geoloc_track_fixes(t, g, 4, &n));
        CHECK_OK(geoloc_track_timed(t, &timed));
        CHECK(n == 4 && timed);
        int same = 1;
        for (int i = 0; i < 4; i++) {
            double dl = fabs(remainder(g[i].lon - f[i].lon, 360));
            same &= fabs(g[i].lat - f[i].lat) <= 5e-9 && dl <= 5e-9 && g[i].time == f[i].time &&
                    fabs(g[i].altitude_m - f[i].altitude_m) <= 5e-4 && g[i].accuracy_m == 0;
        }
        CHECK(same);
        CHECK_OK(geoloc_track_issue_count(t, &n));
        CHECK(n == 0);
        geoloc_track_destroy(t);
    }
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_track_write_gpx(f, 4, NULL, buf, 10, &needed));
    f[1].time = 1e13;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_track_write_gpx(f, 4, NULL, buf, sizeof buf, &needed));
    CHECK_OK(geoloc_track_write_gpx(NULL, 0, NULL, buf, sizeof buf, &needed));
    for (size_t i = 0; i < COUNT_OF(BAD_UTF8); i++) {
        geoloc_circle_fence c = {BAD_UTF8[i], {0, 0}, 10};
        geoloc_geofences *fs;
        CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_track_write_gpx(f, 1, BAD_UTF8[i], buf, sizeof buf, &needed));
        CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_geofences_create(&c, 1, NULL, 0, &fs));
    }
    for (size_t i = 0; i < COUNT_OF(HUGE_COUNTS); i++) {
        geoloc_fix_decision d[1];
        geoloc_geofences *fs;
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_track_write_gpx(f, HUGE_COUNTS[i], NULL, buf, sizeof buf, &needed));
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_geofences_create(NULL, HUGE_COUNTS[i], NULL, 0, &fs));
        geoloc_fix_filter *flt;
        CHECK_OK(geoloc_fix_filter_create(NULL, &flt));
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_fix_filter_run(flt, f, HUGE_COUNTS[i], d));
        geoloc_fix_filter_destroy(flt);
    }
}

static void check_issue(geoloc_track *t, size_t i, size_t record, const char *part)
{
    size_t r = 99, needed;
    char reason[256];
    if (!CHECK_OK(geoloc_track_issue(t, i, &r, reason, sizeof reason, &needed))) return;
    if (!CHECK(r == record && strstr(reason, part) != NULL))
        fprintf(stderr, "    issue %zu: record %zu, \"%s\" (want %zu, \"%s\")\n", i, r, reason, record, part);
}

static void test_formats_bad_input(void)
{
    geoloc_status st;
    geoloc_track *t;
    size_t n;
    const char *gpx =
        "<?xml version='1.0'?>\n<!-- a comment -->\n<gpx xmlns='http://www.topografix.com/GPX/1/1' version='1.1'>\n"
        "<trk><trkseg>\n"
        "<trkpt lat='1' lon='2'><time>2026-01-01T00:00:00Z</time></trkpt>\n"
        "<trkpt lat='1.5' lon='2'><time><![CDATA[2026-01-01T00:00:05Z]]></time><ele>1&#48;</ele></trkpt>\n"
        "<trkpt lat='abc' lon='2'><time>2026-01-01T00:00:10Z</time></trkpt>\n"
        "<trkpt lat='95' lon='2'><time>2026-01-01T00:00:15Z</time></trkpt>\n"
        "<trkpt lat='1' lon='2'/>\n"
        "<trkpt lat='1' lon='2'><time>yesterday</time></trkpt>\n"
        "<trkpt lon='2'><time>2026-01-01T00:00:30+01:00</time></trkpt>\n"
        "</trkseg></trk></gpx>\n";
    t = parse(1, gpx, 0, &st);
    CHECK_OK(st);
    geoloc_fix g[8];
    /* Since 0.4 a point without a time, or with a malformed one, is kept (time NaN). */
    CHECK_OK(geoloc_track_fixes(t, g, 8, &n));
    CHECK(n == 4 && g[1].altitude_m == 10 && g[1].time - g[0].time == 5 && isnan(g[2].time) && isnan(g[3].time));
    CHECK_OK(geoloc_track_issue_count(t, &n));
    CHECK(n == 4);
    check_issue(t, 0, 2, "trkpt 2 (line 7): lat \"abc\" is not a decimal number");
    check_issue(t, 1, 3, "lat 95 is outside");
    check_issue(t, 2, 5, "is not an ISO 8601 date and time; the point is kept without it");
    check_issue(t, 3, 6, "no lat");
    geoloc_track_destroy(t);
    t = parse(1, gpx, 1, &st);
    CHECK(st == GEOLOC_E_PARSE && t == NULL && strstr(geoloc_last_error(), "trkpt 2 (line 7)") != NULL);

    /* Untimed: times are the order. */
    t = parse(1, "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/><trkpt lat=\"1\" lon=\"3\"></trkpt></trkseg></trk></gpx>", 1, &st);
    bool timed = true;
    CHECK_OK(st);
    CHECK_OK(geoloc_track_timed(t, &timed));
    CHECK_OK(geoloc_track_fixes(t, g, 8, &n));
    CHECK(!timed && n == 2 && g[0].time == 0 && g[1].time == 1);
    geoloc_track_destroy(t);

    /* Malformed documents: the whole load fails, with the line and column. */
    const char *bad[] = {
        "<gpx><trk></gpx>", "<gpx>", "", "<gpx></gpx><gpx></gpx>", "<gpx a='1' a='2'></gpx>",
        "<!DOCTYPE gpx [<!ENTITY x 'y'>]><gpx></gpx>", "<gpx>&unknown;</gpx>", "<gpx>&#0;</gpx>",
        "<gpx a=1></gpx>", "<kml></kml>", "<gpx><trk><![CDATA[x</trk></gpx>", "text<gpx/>",
        "<gpx><!-- a -- b --></gpx>", "<gpx x='<'/>",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        t = parse(1, bad[i], 0, &st);
        if (!CHECK(st == GEOLOC_E_PARSE && t == NULL)) fprintf(stderr, "    %s: status %d\n", bad[i], (int)st);
    }
    t = parse(1, "<gpx>\n  <trk>\n</gpx>", 0, &st);
    CHECK(strstr(geoloc_last_error(), "line 3, column 3") != NULL);
    char deep[2000] = "<gpx>";
    for (int i = 0; i < 70; i++) strcat(deep, "<a>");
    t = parse(1, deep, 0, &st);
    CHECK(st == GEOLOC_E_PARSE && strstr(geoloc_last_error(), "deeper than 64") != NULL);
    const char utf8[] = {'<', 'g', 'p', 'x', '>', (char)0xff, '<', '/', 'g', 'p', 'x', '>', 0};
    t = parse(1, utf8, 0, &st);
    CHECK(st == GEOLOC_E_INVALID_UTF8 && t == NULL);
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_track_load_gpx("/no/such/walk.gpx", NULL, &t));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_track_parse_gpx(NULL, 3, NULL, &t));

    /* GeoJSON: bad positions by index; bad documents. */
    t = parse(0, "{\"type\":\"FeatureCollection\",\"features\":["
                 "{\"type\":\"Feature\",\"properties\":{\"coordTimes\":[\"2026-01-01T00:00:00Z\",5,\"x\"]},"
                 "\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[2,1,7],[2,\"1\"],[2,1]]}},"
                 "{\"type\":\"Feature\",\"properties\":{\"times\":[10,11]},"
                 "\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[2,91],[3,1]]}}]}", 0, &st);
    CHECK_OK(st);
    CHECK_OK(geoloc_track_fixes(t, g, 8, &n));
    CHECK(n == 3 && g[0].altitude_m == 7 && g[0].time == 1767225600 && isnan(g[1].time) && g[2].time == 11 &&
          isnan(g[2].altitude_m));
    CHECK_OK(geoloc_track_issue_count(t, &n));
    CHECK(n == 3);
    check_issue(t, 0, 1, "position 1 latitude is not a number");
    check_issue(t, 1, 2, "position 2 its time is not");
    check_issue(t, 2, 3, "position 3 latitude 91 is outside");
    geoloc_track_destroy(t);
    const char *badjson[] = {"{", "[1,2]", "{\"type\":\"Polygon\",\"coordinates\":[[[1,2],[2,2],[1,2]]]}",
                             "{\"type\":\"Feature\",\"properties\":{\"times\":[1]},\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[1,2],[1,3]]}}"};
    for (size_t i = 0; i < sizeof badjson / sizeof badjson[0]; i++) {
        t = parse(0, badjson[i], 0, &st);
        if (!CHECK(st == GEOLOC_E_PARSE && t == NULL)) fprintf(stderr, "    %s: status %d\n", badjson[i], (int)st);
    }
}


/* ------------------------------------------------------------------------------------------ */

/* One geofence set shared by four threads, each with its own monitor and filter over the same
 * stream: every thread gets the events of a single-threaded run (run under helgrind by CTest). */
enum { T_FENCES = 400, T_FIXES = 600, T_THREADS = 4 };
static geoloc_geofences *t_fences;
static geoloc_fix t_fixes[T_FIXES];
static geoloc_geofence_event t_want[T_FIXES * 4];
static size_t t_want_n;

static void *t_worker(void *arg)
{
    int *ok = arg;
    geoloc_geofence_event ev[T_FIXES * 4];
    geoloc_fix_decision d[T_FIXES];
    geoloc_monitor *m = NULL;
    geoloc_fix_filter *f = NULL;
    size_t n = 0;
    *ok = geoloc_monitor_create(t_fences, NULL, &m) == GEOLOC_OK &&
          geoloc_monitor_run(m, t_fixes, T_FIXES, ev, T_FIXES * 4, &n) == GEOLOC_OK && n == t_want_n &&
          memcmp(ev, t_want, n * sizeof *ev) == 0 && geoloc_fix_filter_create(NULL, &f) == GEOLOC_OK &&
          geoloc_fix_filter_run(f, t_fixes, T_FIXES, d) == GEOLOC_OK;
    geoloc_monitor_destroy(m);
    geoloc_fix_filter_destroy(f);
    return NULL;
}

static void test_threads(void)
{
    static geoloc_circle_fence c[T_FENCES];
    for (int i = 0; i < T_FENCES; i++) {
        geoloc_fix p = at(35.0, 139.0, (uniform() - 0.5) * 6000, (uniform() - 0.5) * 6000, 0, 0);
        c[i].id = NULL;
        c[i].center.lat = p.lat;
        c[i].center.lon = p.lon;
        c[i].radius_m = 50 + 300 * uniform();
    }
    double x = 0, y = 0;
    for (int i = 0; i < T_FIXES; i++) {
        x += (uniform() - 0.5) * 100;
        y += (uniform() - 0.5) * 100;
        t_fixes[i] = at(35.0, 139.0, x, y, i * 10.0, 10 * uniform());
    }
    CHECK_OK(geoloc_geofences_create(c, T_FENCES, NULL, 0, &t_fences));
    geoloc_monitor *m;
    CHECK_OK(geoloc_monitor_create(t_fences, NULL, &m));
    t_want_n = run(m, t_fixes, T_FIXES, t_want, T_FIXES * 4);
    geoloc_monitor_destroy(m);
    CHECK(t_want_n > 0);
    pthread_t th[T_THREADS];
    int ok[T_THREADS];
    for (int i = 0; i < T_THREADS; i++) pthread_create(&th[i], NULL, t_worker, &ok[i]);
    for (int i = 0; i < T_THREADS; i++) {
        pthread_join(th[i], NULL);
        CHECK(ok[i]);
    }
    geoloc_geofences_destroy(t_fences);
}

/* The tracking handles are tagged like every other: a handle of the wrong type, a use after
 * destroy and a double destroy are refused with GEOLOC_E_INVALID_ARGUMENT and a message. */
static void test_handle_misuse(void)
{
    geoloc_fix_filter *filter = NULL;
    geoloc_geofences *fences = NULL;
    geoloc_monitor *monitor = NULL;
    geoloc_track *track = NULL;
    geoloc_circle_fence circle = {"c", {1, 2}, 1000};
    geoloc_fix fix = {1, 2, 3, 4, NAN, NAN, NAN};
    geoloc_fix_decision d;
    geoloc_geofence_event events[2];
    size_t n = 99, needed = 0;
    const char gpx[] = "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>";

    if (!CHECK_OK(geoloc_fix_filter_create(NULL, &filter))) return;
    if (!CHECK_OK(geoloc_geofences_create(&circle, 1, NULL, 0, &fences))) return;
    if (!CHECK_OK(geoloc_monitor_create(fences, NULL, &monitor))) return;
    if (!CHECK_OK(geoloc_track_parse_gpx(gpx, sizeof gpx - 1, NULL, &track))) return;
    /* Wrong types. */
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_geofences_count((geoloc_geofences *)filter, &n));
    CHECK_STR(geoloc_last_error(), "fences is a fix filter, not a geofence set");
    CHECK(n == 99);
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_fix_filter_run((geoloc_fix_filter *)monitor, &fix, 1, &d));
    CHECK_STR(geoloc_last_error(), "filter is a monitor, not a fix filter");
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_monitor_run((geoloc_monitor *)track, &fix, 1, events, 2, &needed));
    CHECK_STR(geoloc_last_error(), "monitor is a track, not a monitor");
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_track_fixes((geoloc_track *)fences, NULL, 0, &n));
    CHECK_STR(geoloc_last_error(), "track is a geofence set, not a track");
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_monitor_create((geoloc_geofences *)track, NULL, &monitor));
    geoloc_track_destroy((geoloc_track *)filter); /* refused: still a filter */
    CHECK_STR(geoloc_last_error(), "track is a fix filter, not a track");
    CHECK_OK(geoloc_fix_filter_run(filter, &fix, 1, &d));
    /* Use after destroy and double destroy, for each kind. */
    geoloc_fix_filter_destroy(filter);
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_fix_filter_run(filter, &fix, 1, &d));
    CHECK_STR(geoloc_last_error(), "filter was destroyed");
    geoloc_fix_filter_destroy(filter);
    CHECK_STR(geoloc_last_error(), "filter was destroyed");
    geoloc_geofences_destroy(fences);
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_geofences_count(fences, &n));
    CHECK_STR(geoloc_last_error(), "fences was destroyed");
    geoloc_geofences_destroy(fences);
    CHECK_STR(geoloc_last_error(), "fences was destroyed");
    /* The monitor keeps what it needs of its destroyed set. */
    CHECK_OK(geoloc_monitor_run(monitor, &fix, 1, events, 2, &needed));
    geoloc_monitor_destroy(monitor);
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_monitor_run(monitor, &fix, 1, events, 2, &needed));
    CHECK_STR(geoloc_last_error(), "monitor was destroyed");
    geoloc_monitor_destroy(monitor);
    CHECK_STR(geoloc_last_error(), "monitor was destroyed");
    geoloc_track_destroy(track);
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_track_fixes(track, NULL, 0, &n));
    CHECK_STR(geoloc_last_error(), "track was destroyed");
    geoloc_track_destroy(track);
    CHECK_STR(geoloc_last_error(), "track was destroyed");
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "threads") == 0) {
        test_threads();
        return check_summary("test_tracking (threads)");
    }
    test_filter_rules();
    test_stop_and_go();
    test_monitor_circle();
    test_monitor_antimeridian_and_pole();
    test_monitor_against_oracle();
    test_track_stats();
    test_simplify();
    test_resample_and_stays();
    test_formats_round_trip();
    test_formats_bad_input();
    test_handle_misuse();
    test_threads();
    return check_summary("test_tracking");
}
