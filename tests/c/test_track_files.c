/*
 * test_track_files.c -- the C door of track files as devices write them (issue 21): segments
 * kept and measured apart, empty and absent values, points without times, routes and
 * waypoints, encodings, extensions, files that are not files, streaming reads of large files,
 * and statistics that never answer OK with a non-finite figure. Each regression test is named
 * after the finding it covers. The real-device corpus is checked in test_track_corpus.c.
 */
#include <fcntl.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

static geoloc_track *parse_text(const char *text, size_t len, int strict, geoloc_status *status)
{
    geoloc_track *t = NULL;
    geoloc_load_options o = {0};
    o.strict = strict != 0;
    *status = geoloc_track_parse_gpx(text, len, &o, &t);
    return t;
}

static geoloc_track *parse(const char *text, geoloc_status *status)
{
    return parse_text(text, strlen(text), 0, status);
}

static size_t points(geoloc_track *t, geoloc_fix *out, size_t cap)
{
    size_t n = 0;
    if (!CHECK_OK(geoloc_track_points(t, out, cap, &n))) return 0;
    return n;
}

static size_t segments(geoloc_track *t, geoloc_track_segment *out, size_t cap)
{
    size_t n = 0;
    if (!CHECK_OK(geoloc_track_segments(t, out, cap, &n))) return 0;
    return n;
}

static int name_is(geoloc_track *t, geoloc_track_item item, size_t i, const char *want)
{
    char buf[128];
    size_t needed;
    if (!CHECK_OK(geoloc_track_name(t, item, i, buf, sizeof buf, &needed))) return 0;
    if (strcmp(buf, want) != 0) {
        fprintf(stderr, "    name %d/%zu: \"%s\", want \"%s\"\n", (int)item, i, buf, want);
        return 0;
    }
    return 1;
}

static size_t issues(geoloc_track *t)
{
    size_t n = 99;
    CHECK_OK(geoloc_track_issue_count(t, &n));
    return n;
}

static double hav(double lat1, double lon1, double lat2, double lon2)
{
    double d;
    geoloc_coord a = {lat1, lon1}, b = {lat2, lon2};
    if (geoloc_distance(a, b, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &d) != GEOLOC_OK) return NAN;
    return d;
}

static int close_to(double a, double b, double tol) { return fabs(a - b) <= tol * (1 + fabs(b)); }

/* ------------------------------------------------------------------------------------------ */

/* Why: "read_gpx joins every <trkseg> and keeps no boundary, so whole-file statistics include
 * the gaps between them". Two segments a day and 100 km apart: each is measured alone, the
 * whole is their sum. */
static void test_segments_are_lost(void)
{
    const char *gpx =
        "<gpx version='1.1'><trk><name>Two rides</name>"
        "<trkseg><trkpt lat='45.0' lon='7.0'><time>2026-05-01T10:00:00Z</time></trkpt>"
        "<trkpt lat='45.001' lon='7.0'><time>2026-05-01T10:00:30Z</time></trkpt>"
        "<trkpt lat='45.002' lon='7.0'><time>2026-05-01T10:01:00Z</time></trkpt></trkseg>"
        "<trkseg><trkpt lat='46.0' lon='7.0'><time>2026-05-02T10:00:00Z</time></trkpt>"
        "<trkpt lat='46.0' lon='7.001'><time>2026-05-02T10:00:20Z</time></trkpt></trkseg>"
        "</trk></gpx>";
    geoloc_status st;
    geoloc_track *t = parse(gpx, &st);
    if (!CHECK_OK(st)) return;
    geoloc_fix f[8];
    geoloc_track_segment s[4];
    CHECK(points(t, f, 8) == 5);
    CHECK(segments(t, s, 4) == 2);
    CHECK(s[0].first == 0 && s[0].count == 3 && s[1].first == 3 && s[1].count == 2);
    CHECK(s[0].kind == GEOLOC_SEGMENT_TRACK && s[0].path == 0 && s[1].path == 0);
    CHECK(name_is(t, GEOLOC_TRACK_ITEM_PATH, 0, "Two rides"));
    geoloc_segment_stats whole, per[2];
    size_t n;
    CHECK_OK(geoloc_track_statistics(t, GEOLOC_MODEL_SPHERE, 0.5, &whole, per, 2, &n));
    double a = hav(45, 7, 45.001, 7) + hav(45.001, 7, 45.002, 7), b = hav(46, 7, 46, 7.001);
    CHECK(n == 2 && close_to(per[0].stats.length_m, a, 1e-12) && close_to(per[1].stats.length_m, b, 1e-12));
    CHECK(close_to(whole.stats.length_m, a + b, 1e-12));
    CHECK(whole.stats.duration_s == 80 && per[0].stats.duration_s == 60 && per[1].stats.duration_s == 20);
    CHECK(close_to(whole.stats.average_speed_mps, (a + b) / 80, 1e-12));
    CHECK(whole.point_count == 5 && whole.timed_count == 5 && per[1].start_time == 1777716000);
    /* Each segment measured by the 0.3 function gives the same figures. */
    geoloc_track_stats one;
    CHECK_OK(geoloc_track_measure(f + 3, 2, GEOLOC_MODEL_SPHERE, 0.5, &one));
    CHECK(one.length_m == per[1].stats.length_m && one.duration_s == per[1].stats.duration_s &&
          one.max_speed_mps == per[1].stats.max_speed_mps);
    /* The array form over the same points and starts agrees. */
    size_t starts[2] = {0, 3};
    geoloc_segment_stats whole2, per2[2];
    CHECK_OK(geoloc_track_measure_segments(f, 5, starts, 2, GEOLOC_MODEL_SPHERE, 0.5, &whole2, per2));
    CHECK(memcmp(&whole2, &whole, sizeof whole) == 0 && memcmp(per2, per, sizeof per) == 0);
    CHECK_OK(geoloc_track_measure_segments(f, 5, NULL, 0, GEOLOC_MODEL_SPHERE, 0.5, &whole2, NULL));
    CHECK(whole2.stats.duration_s == 86420);  /* one segment: the gap is in it */
    /* Segments given wrongly. */
    size_t bad[2] = {3, 1};
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_track_measure_segments(f, 5, bad, 2, GEOLOC_MODEL_SPHERE, 0.5, &whole2, NULL));
    bad[0] = 6;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_track_measure_segments(f, 5, bad, 1, GEOLOC_MODEL_SPHERE, 0.5, &whole2, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_track_measure_segments(f, 5, NULL, 2, GEOLOC_MODEL_SPHERE, 0.5, &whole2, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_track_measure_segments(f, 5, starts, 2, GEOLOC_MODEL_SPHERE, 0.5, NULL, NULL));
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_track_statistics(t, GEOLOC_MODEL_SPHERE, 0.5, &whole, per, 1, &n));
    CHECK(n == 2);
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_track_segments(t, s, 1, &n));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_track_statistics(t, (geoloc_model)7, 0.5, &whole, per, 2, &n));
    geoloc_track_destroy(t);
}

/* Why: "An empty <ele/> drops the point: a real Wahoo export loses every point." */
static void test_empty_ele_drops_the_point(void)
{
    const char *gpx =
        "<gpx><trk><trkseg>"
        "<trkpt lat='1' lon='2'><ele/><time>2026-01-01T00:00:00Z</time></trkpt>"
        "<trkpt lat='1.001' lon='2'><ele></ele><time>2026-01-01T00:00:01Z</time></trkpt>"
        "<trkpt lat='1.002' lon='2'><ele>  </ele><time/></trkpt>"
        "<trkpt lat='1.003' lon='2'><ele>12.5</ele><time>2026-01-01T00:00:03Z</time><name/></trkpt>"
        "</trkseg></trk></gpx>";
    geoloc_status st;
    geoloc_track *t = parse(gpx, &st);
    if (!CHECK_OK(st)) return;
    geoloc_fix f[8];
    CHECK(points(t, f, 8) == 4 && issues(t) == 0);
    CHECK(isnan(f[0].altitude_m) && isnan(f[1].altitude_m) && isnan(f[2].altitude_m) && f[3].altitude_m == 12.5);
    CHECK(isnan(f[2].time) && f[1].time == 1767225601);
    CHECK(name_is(t, GEOLOC_TRACK_ITEM_POINT, 3, ""));
    geoloc_segment_stats whole;
    size_t n;
    CHECK_OK(geoloc_track_statistics(t, GEOLOC_MODEL_SPHERE, 0.5, &whole, NULL, 0, &n));
    CHECK(whole.stats.altitude_count == 1 && whole.timed_count == 3 && whole.stats.duration_s == 3);
    geoloc_track_destroy(t);
}

/* Why: "Points without <time> in a track that has times are dropped (149 of 171 in a
 * GraphHopper file)." They are kept; the statistics say which figures could use them. */
static void test_points_without_time_are_dropped(void)
{
    const char *gpx =
        "<gpx><trk><trkseg>"
        "<trkpt lat='10' lon='20'><time>2026-01-01T00:00:00Z</time></trkpt>"
        "<trkpt lat='10.001' lon='20'/>"
        "<trkpt lat='10.002' lon='20'/>"
        "<trkpt lat='10.003' lon='20'><time>2026-01-01T00:01:00Z</time></trkpt>"
        "<trkpt lat='10.004' lon='20'/>"
        "</trkseg></trk></gpx>";
    geoloc_status st;
    geoloc_track *t = parse(gpx, &st);
    if (!CHECK_OK(st)) return;
    geoloc_fix f[8], g[8];
    bool timed = false;
    size_t n;
    CHECK(points(t, f, 8) == 5 && issues(t) == 0);
    CHECK_OK(geoloc_track_timed(t, &timed));
    CHECK(timed && isnan(f[1].time) && isnan(f[4].time) && f[3].time == 1767225660);
    CHECK_OK(geoloc_track_fixes(t, g, 8, &n));
    CHECK(n == 5 && isnan(g[1].time) && g[3].time == 1767225660);
    geoloc_segment_stats s;
    CHECK_OK(geoloc_track_statistics(t, GEOLOC_MODEL_SPHERE, 0.5, &s, NULL, 0, &n));
    double step = hav(10, 20, 10.001, 20);
    CHECK(s.point_count == 5 && s.timed_count == 2 && s.stats.duration_s == 60);
    CHECK(close_to(s.stats.length_m, 4 * step, 1e-9) && close_to(s.timed_length_m, 3 * step, 1e-9));
    CHECK(close_to(s.stats.average_speed_mps, 3 * step / 60, 1e-9) && s.stats.moving_time_s == 60);
    CHECK(s.start_time == 1767225600 && s.end_time == 1767225660);
    /* A track without any time keeps 0.3's times 0, 1, 2 in geoloc_track_fixes, NaN in
     * geoloc_track_points, and measures no duration. */
    geoloc_track_destroy(t);
    t = parse("<gpx><trk><trkseg><trkpt lat='1' lon='2'/><trkpt lat='1' lon='3'/></trkseg></trk></gpx>", &st);
    CHECK_OK(geoloc_track_fixes(t, g, 8, &n));
    CHECK(n == 2 && g[0].time == 0 && g[1].time == 1);
    CHECK(points(t, f, 8) == 2 && isnan(f[0].time));
    CHECK_OK(geoloc_track_statistics(t, GEOLOC_MODEL_SPHERE, 0.5, &s, NULL, 0, &n));
    CHECK(s.timed_count == 0 && s.stats.duration_s == 0 && s.stats.length_m > 0 && isnan(s.start_time));
    geoloc_track_destroy(t);
}

/* Why: "Routes (<rte>) and waypoints (<wpt>) are ignored without a word: three route-only files
 * read as 0 fixes." */
static void test_routes_and_waypoints_are_ignored(void)
{
    const char *gpx =
        "<?xml version='1.0' encoding='UTF-8'?>\n"
        "<gpx version='1.1' creator='GraphHopper'>\n"
        "<wpt lat='48.1' lon='11.5'><ele>520</ele><time>2026-03-01T08:00:00Z</time><name>Start</name></wpt>\n"
        "<wpt lat='48.2' lon='11.6'><name>Café</name></wpt>\n"
        "<rte><name>Munich loop</name>\n"
        "<rtept lat='48.1' lon='11.5'><name>turn left</name></rtept>\n"
        "<rtept lat='48.15' lon='11.55'/>\n"
        "<rtept lat='48.2' lon='11.6'><name>arrive</name></rtept>\n"
        "</rte>\n"
        "<trk><name>ride</name><trkseg><trkpt lat='48.1' lon='11.5'/></trkseg></trk>\n"
        "</gpx>\n";
    geoloc_status st;
    geoloc_track *t = parse(gpx, &st);
    if (!CHECK_OK(st)) return;
    geoloc_fix f[8], w[4];
    geoloc_track_segment s[4];
    size_t n;
    CHECK(points(t, f, 8) == 4 && segments(t, s, 4) == 2 && issues(t) == 0);
    CHECK(s[0].kind == GEOLOC_SEGMENT_ROUTE && s[0].first == 0 && s[0].count == 3 && s[0].path == 0);
    CHECK(s[1].kind == GEOLOC_SEGMENT_TRACK && s[1].first == 3 && s[1].count == 1 && s[1].path == 1);
    CHECK(f[1].lat == 48.15 && f[1].lon == 11.55);
    CHECK(name_is(t, GEOLOC_TRACK_ITEM_PATH, 0, "Munich loop") && name_is(t, GEOLOC_TRACK_ITEM_PATH, 1, "ride"));
    CHECK(name_is(t, GEOLOC_TRACK_ITEM_POINT, 0, "turn left") && name_is(t, GEOLOC_TRACK_ITEM_POINT, 1, "") &&
          name_is(t, GEOLOC_TRACK_ITEM_POINT, 2, "arrive"));
    CHECK_OK(geoloc_track_waypoints(t, w, 4, &n));
    CHECK(n == 2 && w[0].altitude_m == 520 && w[0].time == 1772352000 && isnan(w[1].time) && isnan(w[1].altitude_m));
    CHECK(name_is(t, GEOLOC_TRACK_ITEM_WAYPOINT, 0, "Start") && name_is(t, GEOLOC_TRACK_ITEM_WAYPOINT, 1, "Café"));
    char buf[8];
    size_t needed;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_track_name(t, GEOLOC_TRACK_ITEM_WAYPOINT, 2, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_track_name(t, GEOLOC_TRACK_ITEM_PATH, 2, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_track_name(t, (geoloc_track_item)3, 0, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_track_name(t, GEOLOC_TRACK_ITEM_POINT, 0, buf, sizeof buf, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_track_waypoints(t, w, 4, NULL));
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_track_waypoints(t, w, 1, &n));
    CHECK(n == 2);
    geoloc_track_destroy(t);
    /* A route-only file: its points are the track's. */
    t = parse("<gpx><rte><rtept lat='1' lon='2'/><rtept lat='1' lon='3'/><rtept lat='1' lon='4'/></rte></gpx>", &st);
    CHECK_OK(geoloc_track_fixes(t, f, 8, &n));
    CHECK(n == 3 && segments(t, s, 4) == 1 && s[0].kind == GEOLOC_SEGMENT_ROUTE);
    geoloc_track_destroy(t);
}

/* Why: "A file declared ISO-8859-1, or in UTF-16 with a byte-order mark, is refused as invalid
 * UTF-8." */
static char *utf16(const char *ascii_or_utf8, int big, size_t *len)
{
    /* UTF-8 text (BMP only) to UTF-16 with a byte-order mark. */
    size_t n = strlen(ascii_or_utf8);
    char *out = malloc(2 * n + 2);
    size_t o = 0;
    out[o++] = big ? (char)0xFE : (char)0xFF;
    out[o++] = big ? (char)0xFF : (char)0xFE;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)ascii_or_utf8[i];
        unsigned v;
        if (c < 0x80) { v = c; i += 1; }
        else if (c < 0xE0) { v = ((c & 0x1Fu) << 6) | ((unsigned char)ascii_or_utf8[i + 1] & 0x3Fu); i += 2; }
        else { v = ((c & 0x0Fu) << 12) | (((unsigned char)ascii_or_utf8[i + 1] & 0x3Fu) << 6) | ((unsigned char)ascii_or_utf8[i + 2] & 0x3Fu); i += 3; }
        out[o++] = (char)(big ? v >> 8 : v & 0xFF);
        out[o++] = (char)(big ? v & 0xFF : v >> 8);
    }
    *len = o;
    return out;
}

static void test_declared_encoding_is_refused(void)
{
    geoloc_status st;
    geoloc_track *t;
    const char latin1[] = "<?xml version='1.0' encoding='ISO-8859-1'?><gpx><trk><name>Caf\xe9 Z\xfcrich</name>"
                          "<trkseg><trkpt lat='47.37' lon='8.54'><name>Stra\xdf" "e</name></trkpt></trkseg></trk></gpx>";
    t = parse(latin1, &st);
    if (CHECK_OK(st)) {
        CHECK(name_is(t, GEOLOC_TRACK_ITEM_PATH, 0, "Café Zürich") && name_is(t, GEOLOC_TRACK_ITEM_POINT, 0, "Straße"));
        geoloc_track_destroy(t);
    }
    const char cp1252[] = "<?xml version=\"1.0\" encoding=\"windows-1252\"?><gpx><wpt lat='1' lon='2'>"
                          "<name>\x93" "5 \x80\x94 caf\xe9\x85</name></wpt></gpx>";
    t = parse(cp1252, &st);
    if (CHECK_OK(st)) {
        CHECK(name_is(t, GEOLOC_TRACK_ITEM_WAYPOINT, 0, "\xe2\x80\x9c" "5 \xe2\x82\xac\xe2\x80\x9d caf\xc3\xa9\xe2\x80\xa6"));
        geoloc_track_destroy(t);
    }
    const char latin9[] = "<?xml version='1.0' encoding='ISO-8859-15'?><gpx><wpt lat='1' lon='2'><name>\xa4</name></wpt></gpx>";
    t = parse(latin9, &st);
    if (CHECK_OK(st)) {
        CHECK(name_is(t, GEOLOC_TRACK_ITEM_WAYPOINT, 0, "€"));
        geoloc_track_destroy(t);
    }
    for (int big = 0; big <= 1; big++) {
        size_t len;
        char *doc = utf16("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<gpx><trk><name>Kraków–Zakopane</name><trkseg>"
                          "<trkpt lat=\"50.06\" lon=\"19.94\"><ele>219</ele></trkpt></trkseg></trk></gpx>\n", big, &len);
        t = parse_text(doc, len, 1, &st);
        if (CHECK_OK(st)) {
            geoloc_fix f[2];
            CHECK(points(t, f, 2) == 1 && f[0].lat == 50.06 && f[0].altitude_m == 219);
            CHECK(name_is(t, GEOLOC_TRACK_ITEM_PATH, 0, "Kraków–Zakopane"));
            geoloc_track_destroy(t);
        }
        /* A UTF-16 document that ends in half a character, or a lone surrogate. */
        doc[len - 1] = (char)0xD8;
        doc[len - 2] = 0;
        if (big) { doc[len - 2] = (char)0xD8; doc[len - 1] = 0; }
        t = parse_text(doc, len, 0, &st);
        CHECK(st == GEOLOC_E_PARSE && t == NULL && strstr(geoloc_last_error(), "not valid UTF-16") != NULL);
        free(doc);
    }
    /* UTF-8 with a byte-order mark, declared or not. */
    t = parse("\xef\xbb\xbf<?xml version='1.0' encoding='utf-8'?><gpx><wpt lat='1' lon='2'/></gpx>", &st);
    CHECK_OK(st);
    geoloc_track_destroy(t);
    /* Refused, each with the reason. */
    t = parse("<?xml version='1.0' encoding='KOI8-R'?><gpx/>", &st);
    CHECK(st == GEOLOC_E_UNSUPPORTED && strstr(geoloc_last_error(), "KOI8-R") != NULL);
    t = parse("<?xml version='1.0' encoding='UTF-8'?>\n<gpx>\n<wpt lat='1' lon='2'><name>Caf\xe9</name></wpt></gpx>", &st);
    CHECK(st == GEOLOC_E_INVALID_UTF8 && strstr(geoloc_last_error(), "line 3") != NULL);
    t = parse("<?xml version='1.0' encoding='US-ASCII'?><gpx><wpt lat='1' lon='2'><name>Caf\xe9</name></wpt></gpx>", &st);
    CHECK(st == GEOLOC_E_PARSE && strstr(geoloc_last_error(), "US-ASCII") != NULL);
    t = parse("\xef\xbb\xbf<?xml version='1.0' encoding='ISO-8859-1'?><gpx/>", &st);
    CHECK(st == GEOLOC_E_PARSE && t == NULL);
    t = parse("<?xml version='1.0' encoding='UTF-16'?><gpx/>", &st);
    CHECK(st == GEOLOC_E_PARSE && t == NULL);
}

/* Extensions (Garmin's heart rate, another namespace's ele) are ignored; entity declarations
 * are still refused. */
static void test_extensions_ignored_entities_refused(void)
{
    const char *gpx =
        "<gpx xmlns='http://www.topografix.com/GPX/1/1' xmlns:gpxtpx='http://www.garmin.com/xmlschemas/TrackPointExtension/v1'>"
        "<metadata><name>not a path</name><time>2020-01-01T00:00:00Z</time></metadata>"
        "<trk><extensions><name>no</name></extensions><trkseg><trkpt lat='1' lon='2'><ele>5</ele>"
        "<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>141</gpxtpx:hr><ele>999</ele></gpxtpx:TrackPointExtension>"
        "<time>1999-01-01T00:00:00Z</time></extensions></trkpt></trkseg></trk></gpx>";
    geoloc_status st;
    geoloc_track *t = parse(gpx, &st);
    if (CHECK_OK(st)) {
        geoloc_fix f[2];
        bool timed = true;
        CHECK(points(t, f, 2) == 1 && f[0].altitude_m == 5 && isnan(f[0].time));
        CHECK_OK(geoloc_track_timed(t, &timed));
        CHECK(!timed && name_is(t, GEOLOC_TRACK_ITEM_PATH, 0, ""));
        geoloc_track_destroy(t);
    }
    const char *bad[] = {
        "<!DOCTYPE gpx [<!ENTITY x 'y'>]><gpx></gpx>",
        "<?xml version='1.0'?><!DOCTYPE gpx SYSTEM 'http://example.com/gpx.dtd'><gpx/>",
        "<gpx><!ENTITY x 'y'></gpx>",
        "<gpx><wpt lat='1' lon='2'><name>&x;</name></wpt></gpx>",
    };
    for (size_t i = 0; i < COUNT_OF(bad); i++) {
        t = parse(bad[i], &st);
        if (!CHECK(st == GEOLOC_E_PARSE && t == NULL)) fprintf(stderr, "    %s: status %d\n", bad[i], (int)st);
    }
}

/* Why (the track part of "Files that are not files"): "Track loads keep every issue (place
 * loads cap them at 1,000)", and a FIFO, /dev/zero or a directory is refused at once. */
static void test_track_loads_keep_every_issue(void)
{
    size_t cap = 64 + 1500 * 40;
    char *doc = malloc(cap);
    size_t o = (size_t)sprintf(doc, "<gpx><trk><trkseg>");
    for (int i = 0; i < 1500; i++) o += (size_t)sprintf(doc + o, "<trkpt lat='x%d' lon='2'/>\n", i);
    o += (size_t)sprintf(doc + o, "<trkpt lat='1' lon='2'/></trkseg></trk></gpx>");
    geoloc_status st;
    geoloc_track *t = parse_text(doc, o, 0, &st);
    free(doc);
    if (!CHECK_OK(st)) return;
    size_t total = 0;
    geoloc_fix f[2];
    CHECK(issues(t) == 1000 && points(t, f, 2) == 1);
    CHECK_OK(geoloc_track_issue_total(t, &total));
    CHECK(total == 1500);
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_track_issue_total(t, NULL));
    geoloc_track_destroy(t);
}

static char *big_gpx(size_t n, size_t *len);

/* What an out-pointer holds before a call that must leave it unchanged when it fails. */
static int untouched_mark;
#define UNTOUCHED ((geoloc_track *)(void *)&untouched_mark)

/* Every track loader on a path, by number: the 0.3 loaders, then those taking limits (NULL
 * limits, then tight ones). Its status; the handle, if any, freed. */
enum { TRACK_LOADERS = 6 };
static const char *const TRACK_LOADER_NAMES[TRACK_LOADERS] = {
    "geoloc_track_load_gpx", "geoloc_track_load_geojson", "geoloc_track_load_gpx_limited",
    "geoloc_track_load_geojson_limited", "geoloc_track_load_gpx_limited (tight)",
    "geoloc_track_load_geojson_limited (tight)",
};

static geoloc_status track_load_with(int loader, const char *path)
{
    geoloc_track *t = NULL;
    geoloc_load_limits tight = {.struct_size = sizeof tight, .max_issues = 1, .max_bytes = 4096, .max_records = 10};
    geoloc_status st = GEOLOC_E_INTERNAL;
    switch (loader) {
    case 0: st = geoloc_track_load_gpx(path, NULL, &t); break;
    case 1: st = geoloc_track_load_geojson(path, NULL, &t); break;
    case 2: st = geoloc_track_load_gpx_limited(path, NULL, NULL, &t); break;
    case 3: st = geoloc_track_load_geojson_limited(path, NULL, NULL, &t); break;
    case 4: st = geoloc_track_load_gpx_limited(path, NULL, &tight, &t); break;
    case 5: st = geoloc_track_load_geojson_limited(path, NULL, &tight, &t); break;
    }
    if (st != GEOLOC_OK && t != NULL) {
        fprintf(stderr, "    %s: out written on failure\n", TRACK_LOADER_NAMES[loader]);
        st = GEOLOC_E_INTERNAL;
    }
    geoloc_track_destroy(t);
    return st;
}

static long peak_rss_kb(void)
{
    struct rusage u;
    return getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_maxrss : 0;
}

/* A FIFO, /dev/zero, /dev/urandom and a directory through every track loader: each answers
 * GEOLOC_E_INVALID_ARGUMENT at once, in bounded memory, whatever the limits. A watchdog (60 s,
 * far above the milliseconds each takes) turns a hang into a failure; no timing is asserted. */
static void test_files_that_are_not_files(void)
{
    char dir[] = "/tmp/geoloc-track-XXXXXX";
    if (!CHECK(mkdtemp(dir) != NULL)) return;
    char fifo[64];
    snprintf(fifo, sizeof fifo, "%s/fifo.gpx", dir);
    CHECK(mkfifo(fifo, 0600) == 0);
    const char *paths[] = {fifo, "/dev/zero", "/dev/urandom", dir};
    long before = peak_rss_kb();
    alarm(60);
    for (int loader = 0; loader < TRACK_LOADERS; loader++) {
        for (size_t i = 0; i < COUNT_OF(paths); i++) {
            geoloc_status st = track_load_with(loader, paths[i]);
            if (!CHECK(st == GEOLOC_E_INVALID_ARGUMENT))
                fprintf(stderr, "    %s(%s): %s: %s\n", TRACK_LOADER_NAMES[loader], paths[i], geoloc_status_string(st),
                        geoloc_last_error());
            else if (!CHECK(strstr(geoloc_last_error(), i == 3 ? "Is a directory" : "not a regular file") != NULL))
                fprintf(stderr, "    %s(%s): %s\n", TRACK_LOADER_NAMES[loader], paths[i], geoloc_last_error());
        }
    }
    alarm(0);
    /* Bounded memory: far less than the gigabytes 0.3 took (generous for valgrind). */
    CHECK(peak_rss_kb() - before < 256 * 1024);
    unlink(fifo);
    rmdir(dir);
}

/* Writes `len` bytes to a new temporary file; its path in `path` (at least 32 bytes). */
static int temp_track(char *path, const char *text, size_t len)
{
    strcpy(path, "/tmp/geoloc-limits-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) return 0;
    int ok = write(fd, text, len) == (ssize_t)len;
    close(fd);
    return ok;
}

static int last_error_has(const char *want)
{
    if (strstr(geoloc_last_error(), want) != NULL) return 1;
    fprintf(stderr, "    message \"%s\" does not name %s\n", geoloc_last_error(), want);
    return 0;
}

/* Issue 21 item 2: "a byte limit, a record limit and an issue cap on every load, in
 * geoloc_load_limits, caller-settable": the track loaders ending in _limited, from a file and
 * from memory, in both formats. */
static void test_track_load_limits(void)
{
    /* 5 GPX records (3 trkpt, one of them unusable, 1 rtept, 1 wpt) and 3 issues. */
    const char *gpx = "<gpx><wpt lat='1' lon='1'/><trk><trkseg>"
                      "<trkpt lat='1' lon='2'><ele>x</ele></trkpt><trkpt lat='bad' lon='2'/>"
                      "<trkpt lat='1.1' lon='2'><time>never</time></trkpt></trkseg></trk>"
                      "<rte><rtept lat='3' lon='4'/></rte></gpx>";
    /* 4 GeoJSON records (3 positions of a line, 1 Point feature) and 2 issues. */
    const char *json = "{\"type\":\"FeatureCollection\",\"features\":["
                       "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"LineString\","
                       "\"coordinates\":[[2,1,\"x\"],[2,91],[2,1.1]]}},"
                       "{\"type\":\"Feature\",\"properties\":{\"name\":\"P\"},\"geometry\":{\"type\":\"Point\","
                       "\"coordinates\":[4,3]}}]}";
    const struct { const char *text; size_t records, issues; int geojson; } docs[] = {
        {gpx, 5, 3, 0}, {json, 4, 2, 1},
    };
    for (size_t d = 0; d < COUNT_OF(docs); d++) {
        const char *text = docs[d].text;
        size_t len = strlen(text), n = 0, total = 0;
        int js = docs[d].geojson;
        char path[32];
        if (!CHECK(temp_track(path, text, len))) continue;
        for (int from_file = 0; from_file < 2; from_file++) {
#define LOAD(limits, out)                                                                                         \
    (from_file ? (js ? geoloc_track_load_geojson_limited(path, NULL, limits, out)                                 \
                     : geoloc_track_load_gpx_limited(path, NULL, limits, out))                                    \
               : (js ? geoloc_track_parse_geojson_limited(text, len, NULL, limits, out)                           \
                     : geoloc_track_parse_gpx_limited(text, len, NULL, limits, out)))
            geoloc_track *t = NULL;
            /* NULL limits and limits at exactly what the document needs: loaded. */
            if (CHECK_OK(LOAD(NULL, &t))) {
                CHECK_OK(geoloc_track_issue_total(t, &total));
                CHECK(total == docs[d].issues && issues(t) == docs[d].issues);
                geoloc_track_destroy(t);
                t = NULL;
            }
            geoloc_load_limits exact = {.struct_size = sizeof exact, .max_bytes = len, .max_records = docs[d].records};
            if (CHECK_OK(LOAD(&exact, &t))) geoloc_track_destroy(t);
            t = NULL;
            /* One byte fewer: refused, naming the limit, before anything is read. */
            geoloc_load_limits bytes = {.struct_size = sizeof bytes, .max_bytes = len - 1};
            t = UNTOUCHED;
            CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, LOAD(&bytes, &t));
            CHECK(t == UNTOUCHED && last_error_has("max_bytes") && (!from_file || last_error_has(path)));
            /* One record fewer (unusable points count): refused, naming the limit. */
            geoloc_load_limits records = {.struct_size = sizeof records, .max_records = docs[d].records - 1};
            CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, LOAD(&records, &t));
            CHECK(t == UNTOUCHED && last_error_has("max_records"));
            t = NULL;
            /* The issue cap: the first max_issues kept, all counted. */
            geoloc_load_limits cap = {.struct_size = sizeof cap, .max_issues = 1};
            if (CHECK_OK(LOAD(&cap, &t))) {
                CHECK_OK(geoloc_track_issue_total(t, &total));
                CHECK(issues(t) == 1 && total == docs[d].issues);
                geoloc_track_destroy(t);
                t = NULL;
            }
            /* SIZE_MAX: no bound; a struct_size below a size_t: refused. */
            geoloc_load_limits none = {.struct_size = sizeof none, .max_issues = SIZE_MAX, .max_bytes = SIZE_MAX,
                                       .max_records = SIZE_MAX};
            if (CHECK_OK(LOAD(&none, &t))) geoloc_track_destroy(t);
            t = NULL;
            geoloc_load_limits small = {.struct_size = 4, .max_records = 1};
            t = UNTOUCHED;
            CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, LOAD(&small, &t));
            CHECK(t == UNTOUCHED && last_error_has("struct_size"));
            t = NULL;
            /* A caller compiled against a header whose struct ended at max_places: the byte
             * and record limits take their defaults. */
            geoloc_load_limits old = {.struct_size = offsetof(geoloc_load_limits, max_bytes), .max_bytes = 1,
                                      .max_records = 1};
            if (CHECK_OK(LOAD(&old, &t))) geoloc_track_destroy(t);
            t = NULL;
            /* Strict mode still applies, with the limits. */
            geoloc_load_options strict = {.strict = true};
            CHECK_ERR(GEOLOC_E_PARSE, from_file ? (js ? geoloc_track_load_geojson_limited(path, &strict, &exact, &t)
                                                      : geoloc_track_load_gpx_limited(path, &strict, &exact, &t))
                                                : (js ? geoloc_track_parse_geojson_limited(text, len, &strict, &exact, &t)
                                                      : geoloc_track_parse_gpx_limited(text, len, &strict, &exact, &t)));
            CHECK(t == NULL);
            CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, LOAD(NULL, NULL));
#undef LOAD
        }
        (void)n;
        unlink(path);
    }
    /* The defaults of the limits are the header's. */
    CHECK(GEOLOC_LOAD_DEFAULT_MAX_ISSUES == 1000 && GEOLOC_LOAD_DEFAULT_MAX_BYTES == GEOLOC_MAX_COUNT &&
          GEOLOC_LOAD_DEFAULT_MAX_RECORDS == GEOLOC_MAX_COUNT);
    geoloc_track *t = NULL;
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_track_parse_gpx_limited(NULL, 3, NULL, NULL, &t));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_track_load_gpx_limited(NULL, NULL, NULL, &t));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_track_load_geojson_limited("/nonexistent/track.json", NULL, NULL, &t));
    CHECK(t == NULL);
}

/* A large file against a small byte limit is refused from its size, without reading it: a 5 MB
 * document under a 1 MB limit; under a record limit the load stops at the first point past it
 * (the message names the limit). */
static void test_track_limits_stop_large_loads(void)
{
    size_t n = 50000, len;
    char *doc = big_gpx(n, &len);
    char path[32];
    if (!CHECK(temp_track(path, doc, len))) { free(doc); return; }
    geoloc_track *t = UNTOUCHED;
    long before = peak_rss_kb();
    geoloc_load_limits l = {.struct_size = sizeof l, .max_bytes = 1 << 20};
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_track_load_gpx_limited(path, NULL, &l, &t));
    CHECK(last_error_has("max_bytes 1048576"));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_track_parse_gpx_limited(doc, len, NULL, &l, &t));
    CHECK(last_error_has("max_bytes 1048576"));
    geoloc_load_limits r = {.struct_size = sizeof r, .max_records = 1000};
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_track_load_gpx_limited(path, NULL, &r, &t));
    CHECK(last_error_has("max_records 1000"));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_track_parse_gpx_limited(doc, len, NULL, &r, &t));
    CHECK(t == UNTOUCHED);
    /* Refused loads keep nothing: the process grew by less than the document it refused (the
     * document itself was allocated before `before`). */
    CHECK(peak_rss_kb() - before < (long)(len / 1024));
    unlink(path);
    free(doc);
}

/* ------------------------------------------------------------------------------------------ */

/* "GeoJSON track loads: max_records must bound memory": a 53 MB file refused at 1,000 records
 * peaked at 166 MB, the token document built before a position was counted. The positions are
 * counted first now (a 64 KiB buffer for a file), so a refused load's memory stays near what
 * the limit admits. Memory in a child: VmHWM reset through /proc/self/clear_refs, then the
 * peak's growth over the resident size before the load (checked only where the reset works). */
static long status_kb(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    size_t n = strlen(field);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, field, n) == 0) kb = atol(line + n);
    if (f) fclose(f);
    return kb;
}

static int reset_peak(void)
{
    int fd = open("/proc/self/clear_refs", O_WRONLY);
    if (fd < 0) return 0;
    int ok = write(fd, "5", 1) == 1;
    close(fd);
    return ok;
}

static void test_geojson_max_records_bounds_memory(void)
{
    /* A bare LineString with its type after its 500,000 positions, and a FeatureCollection of
     * 50 features of 10,000 each (about 20 MB each). */
    size_t n = 500000;
    for (int shape = 0; shape < 2; shape++) {
        size_t cap = 256 + n * 48, o = 0;
        char *doc = malloc(cap);
        if (shape == 0) {
            o += (size_t)sprintf(doc + o, "{\"coordinates\":[");
            for (size_t i = 0; i < n; i++)
                o += (size_t)sprintf(doc + o, "%s[%.6f,%.6f,%.1f]", i ? "," : "", 7 + 1e-6 * (double)i,
                                     45 + 1e-6 * (double)(i % 1000), 100 + 0.1 * (double)(i % 50));
            o += (size_t)sprintf(doc + o, "],\"type\":\"LineString\"}");
        } else {
            o += (size_t)sprintf(doc + o, "{\"type\":\"FeatureCollection\",\"features\":[");
            for (size_t f = 0; f < 50; f++) {
                o += (size_t)sprintf(doc + o, "%s{\"type\":\"Feature\",\"properties\":{\"name\":\"f%zu\"},"
                                     "\"geometry\":{\"type\":\"LineString\",\"coordinates\":[", f ? "," : "", f);
                for (size_t i = 0; i < n / 50; i++)
                    o += (size_t)sprintf(doc + o, "%s[%.6f,%.6f,%.1f]", i ? "," : "", 7 + 1e-6 * (double)i,
                                         45 + 1e-6 * (double)(i % 1000), 100 + 0.1 * (double)(i % 50));
                o += (size_t)sprintf(doc + o, "]}}");
            }
            o += (size_t)sprintf(doc + o, "]}");
        }
        char path[32];
        if (!CHECK(temp_track(path, doc, o))) { free(doc); continue; }
        for (int from_file = 0; from_file < 2; from_file++) {
            pid_t pid = fork();
            if (pid == 0) {
                /* A first refused load warms the library (its one-time tables, the runtime's
                 * metadata), so that what is measured is the load's own. */
                const char *warm = "{\"type\":\"LineString\",\"coordinates\":[[1,2],[3,4],[5,6],[7,8],[9,10]]}";
                geoloc_load_limits one = {.struct_size = sizeof one, .max_records = 1};
                geoloc_track *w = NULL;
                (void)geoloc_track_parse_geojson_limited(warm, strlen(warm), NULL, &one, &w);
                (void)geoloc_track_load_geojson_limited("/nonexistent/warm.json", NULL, &one, &w);
                int measured = reset_peak();
                long rss = status_kb("VmRSS:");
                geoloc_load_limits r = {.struct_size = sizeof r, .max_records = 1000};
                geoloc_track *t = NULL;
                geoloc_status s = from_file ? geoloc_track_load_geojson_limited(path, NULL, &r, &t)
                                            : geoloc_track_parse_geojson_limited(doc, o, NULL, &r, &t);
                if (s != GEOLOC_E_COUNT_TOO_LARGE || t != NULL || strstr(geoloc_last_error(), "max_records 1000") == NULL)
                    _exit(2);
                long grew = status_kb("VmHWM:") - rss;
                fprintf(stderr, "    %s, %zu bytes, max_records 1000: peak memory grew by %ld kB%s\n",
                        from_file ? "from the file" : "from memory", o, grew, measured ? "" : " (not measured)");
                _exit(!measured || rss < 0 || grew * 1024 < (long)(o / 8) ? 0 : 1);
            }
            int status = 0;
            waitpid(pid, &status, 0);
            CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        }
        /* The limit at the count loads it all; one fewer is refused. */
        geoloc_load_limits exact = {.struct_size = sizeof exact, .max_records = n};
        geoloc_track *t = NULL;
        size_t m = 0;
        if (CHECK_OK(geoloc_track_load_geojson_limited(path, NULL, &exact, &t))) {
            CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_track_points(t, NULL, 0, &m));
            CHECK(m == n);
            geoloc_track_destroy(t);
        }
        t = UNTOUCHED;
        geoloc_load_limits fewer = {.struct_size = sizeof fewer, .max_records = n - 1};
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_track_load_geojson_limited(path, NULL, &fewer, &t));
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_track_parse_geojson_limited(doc, o, NULL, &fewer, &t));
        CHECK(t == UNTOUCHED && last_error_has("max_records"));
        unlink(path);
        free(doc);
    }
}

/* The count before the parse never refuses what the parse admits: for documents whose
 * positions hide among members the reader ignores (a "coordinates" or "geometry" in the
 * properties, a bounding box, a second "coordinates", a member named with an escape, which the
 * reader decodes: it is the first "coordinates"), the type after the coordinates, Points and
 * MultiLineStrings, every limit from 1 to the count + 1 gives what the reader itself gives:
 * loaded at the count, refused below it. */
static void test_geojson_record_count_is_the_readers(void)
{
    const struct { const char *text; size_t records; } docs[] = {
        {"{\"type\":\"LineString\",\"bbox\":[1,2,3,4],\"coordinates\":[[1,2],[3,4],[5,6]]}", 3},
        {"{\"coordinates\":[[1,2],[3,4],[5,6],[7,8]],\"type\":\"LineString\",\"coordinates\":[[1,2]]}", 4},
        {"{\"type\":\"MultiLineString\",\"coordinates\":[[[1,2],[3,4]],[],[[5,6],[7,\"x\"],[9,10]]]}", 5},
        {"{\"type\":\"Feature\",\"properties\":{\"coordinates\":[[1,2],[3,4],[5,6]],\"geometry\":{\"type\":"
         "\"LineString\",\"coordinates\":[[1,2],[3,4]]}},\"coordinates\":[[9,9],[9,9],[9,9],[9,9]],"
         "\"geometry\":{\"coordinates\":[[1,2],[3,4]],\"type\":\"LineString\"}}", 2},
        {"{\"features\":[{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]},"
         "\"properties\":{\"time\":\"2026-01-01T00:00:00Z\"}},"
         "{\"type\":\"Feature\",\"properties\":{\"times\":[1,2,3]},\"geometry\":{\"type\":\"LineString\","
         "\"coordinates\":[[1,2],[3,4],[5,6]]}},"
         "{\"type\":\"Feature\",\"geometry\":{\"type\":\"MultiLineString\",\"coordinates\":[[[1,2]],[[3,4],[5,6]]]}}],"
         "\"type\":\"FeatureCollection\",\"bbox\":[0,0,9,9]}", 7},
        {"{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"\\u0063oordinates\":[[1,2]],"
         "\"coordinates\":[[1,2],[3,4],[5,6]]},\"properties\":{\"name\":\"\\\"coordinates\\\": [[\"}}", 1},
    };
    for (size_t d = 0; d < COUNT_OF(docs); d++) {
        const char *text = docs[d].text;
        size_t len = strlen(text);
        char path[32];
        if (!CHECK(temp_track(path, text, len))) continue;
        for (size_t limit = 1; limit <= docs[d].records + 1; limit++) {  /* 0: the default */
            geoloc_load_limits l = {.struct_size = sizeof l, .max_records = limit};
            for (int from_file = 0; from_file < 2; from_file++) {
                geoloc_track *t = NULL;
                geoloc_status s = from_file ? geoloc_track_load_geojson_limited(path, NULL, &l, &t)
                                            : geoloc_track_parse_geojson_limited(text, len, NULL, &l, &t);
                geoloc_status want = limit >= docs[d].records ? GEOLOC_OK : GEOLOC_E_COUNT_TOO_LARGE;
                if (!CHECK(s == want)) fprintf(stderr, "    document %zu, max_records %zu: status %d (%s)\n", d, limit, s, geoloc_last_error());
                geoloc_track_destroy(t);
            }
        }
        unlink(path);
    }
}

/* ------------------------------------------------------------------------------------------ */

/* Why: "GPX reading is quadratic: each <trkpt> counts lines from byte 0". A 300,000-point
 * file (30 MB) is read from disk a chunk at a time: every point, the line of a bad point near
 * its end, the same as from memory, and the process's memory grows by less than twice the
 * file's size (measured in a child process). 0.3 takes hours over this file. */
static char *big_gpx(size_t n, size_t *len)
{
    size_t cap = 128 + n * 120;
    char *doc = malloc(cap);
    size_t o = (size_t)sprintf(doc, "<?xml version='1.0' encoding='UTF-8'?>\n<gpx version='1.1'>\n<trk><trkseg>\n");
    for (size_t i = 0; i < n; i++) {
        long s = (long)i;
        o += (size_t)sprintf(doc + o,
                             "  <trkpt lat=\"%.7f\" lon=\"%.7f\"><ele>%.1f</ele><time>2026-06-%02ldT%02ld:%02ld:%02ldZ</time></trkpt>\n",
                             45 + 1e-5 * (double)(i % 1000), 7 + 1e-6 * (double)i, 100 + 0.1 * (double)(i % 50),
                             1 + s / 86400, s / 3600 % 24, s / 60 % 60, s % 60);
        if (i == n - 3) o += (size_t)sprintf(doc + o, "  <trkpt lat=\"north\" lon=\"7\"/>\n");
    }
    o += (size_t)sprintf(doc + o, "</trkseg></trk>\n</gpx>\n");
    *len = o;
    return doc;
}

static void test_gpx_reading_is_quadratic(void)
{
    size_t n = 300000, len;
    char *doc = big_gpx(n, &len);
    char path[] = "/tmp/geoloc-big-XXXXXX";
    int fd = mkstemp(path);
    if (!CHECK(fd >= 0)) { free(doc); return; }
    CHECK(write(fd, doc, len) == (ssize_t)len);
    close(fd);
    geoloc_track *t = NULL;
    if (CHECK_OK(geoloc_track_load_gpx(path, NULL, &t))) {
        geoloc_fix *f = malloc(n * sizeof *f);
        size_t m = 0, record = 0, needed;
        char reason[200];
        CHECK_OK(geoloc_track_points(t, f, n, &m));
        CHECK(m == n && f[n - 1].time == 1780272000 + (double)(n - 1) && f[1].altitude_m == 100.1);
        CHECK(issues(t) == 1);
        CHECK_OK(geoloc_track_issue(t, 0, &record, reason, sizeof reason, &needed));
        /* The bad point follows point n - 3, on line 4 + n - 2. */
        char want[64];
        snprintf(want, sizeof want, "trkpt %zu (line %zu)", n - 2, n + 2);
        if (!CHECK(record == n - 2 && strstr(reason, want) != NULL)) fprintf(stderr, "    %s\n", reason);
        geoloc_track *u = parse_text(doc, len, 0, &(geoloc_status){0});
        geoloc_fix *g = malloc(n * sizeof *g);
        CHECK_OK(geoloc_track_points(u, g, n, &m));
        CHECK(m == n && memcmp(f, g, n * sizeof *f) == 0);
        geoloc_track_destroy(u);
        free(f);
        free(g);
        geoloc_track_destroy(t);
    }
    /* Memory, in a child (ru_maxrss is the process's high-water mark). */
    pid_t pid = fork();
    if (pid == 0) {
        struct rusage before, after;
        getrusage(RUSAGE_SELF, &before);
        geoloc_track *c = NULL;
        if (geoloc_track_load_gpx(path, NULL, &c) != GEOLOC_OK) _exit(2);
        getrusage(RUSAGE_SELF, &after);
        double grew = (double)(after.ru_maxrss - before.ru_maxrss) * 1024;
        fprintf(stderr, "    loading %zu bytes raised the peak memory by %.0f bytes (%.2fx)\n", len, grew, grew / (double)len);
        _exit(grew < 2.0 * (double)len ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    unlink(path);
    free(doc);
}

/* Tokens cut by the reader's 64 KiB chunks and 256 KiB window: a file read from disk gives what
 * the same bytes give from memory, in every encoding. */
static void test_chunk_boundaries(void)
{
    const char *encodings[] = {"UTF-8", "ISO-8859-1"};
    for (size_t e = 0; e < COUNT_OF(encodings); e++) {
        size_t cap = 3 << 20, o = 0;
        char *doc = malloc(cap);
        o += (size_t)sprintf(doc + o, "<?xml version='1.0' encoding='%s'?><gpx><!-- ", encodings[e]);
        for (int i = 0; i < 70000; i++) doc[o++] = (char)('a' + i % 26);
        o += (size_t)sprintf(doc + o, " --><trk><trkseg>");
        for (int i = 0; i < 9000; i++) {
            o += (size_t)sprintf(doc + o, "<trkpt lat='%d.5' lon='&#50;%d'><name>a&amp;b %s%d</name>%s</trkpt>", i % 80, i,
                                 e ? "\xe9" : "\xc3\xa9", i, i % 7 == 0 ? "<![CDATA[x]]><!-- c -->" : "");
        }
        o += (size_t)sprintf(doc + o, "</trkseg></trk><desc>");
        for (int i = 0; i < 300000; i++) doc[o++] = (char)(i % 100 == 99 ? '\n' : 'x');
        o += (size_t)sprintf(doc + o, "</desc></gpx>");
        char path[] = "/tmp/geoloc-chunks-XXXXXX";
        int fd = mkstemp(path);
        CHECK(write(fd, doc, o) == (ssize_t)o);
        close(fd);
        geoloc_track *a = NULL, *b = NULL;
        geoloc_status st;
        CHECK_OK(geoloc_track_load_gpx(path, NULL, &a));
        b = parse_text(doc, o, 1, &st);
        CHECK_OK(st);
        if (a && b) {
            static geoloc_fix fa[9000], fb[9000];
            size_t na = points(a, fa, 9000), nb = points(b, fb, 9000);
            CHECK(na == 9000 && nb == 9000 && memcmp(fa, fb, sizeof fa) == 0);
            CHECK(fa[8999].lat == 8999 % 80 + 0.5 && fa[8999].lon == 28999);
            CHECK(name_is(a, GEOLOC_TRACK_ITEM_POINT, 4321, "a&b é4321") && name_is(b, GEOLOC_TRACK_ITEM_POINT, 8999, "a&b é8999"));
        }
        geoloc_track_destroy(a);
        geoloc_track_destroy(b);
        unlink(path);
        free(doc);
    }
}

/* ------------------------------------------------------------------------------------------ */

static geoloc_fix fix(double lat, double lon, double t, double alt)
{
    geoloc_fix f = {lat, lon, t, 0, NAN, NAN, alt};
    return f;
}

static int stats_finite(const geoloc_track_stats *s)
{
    return isfinite(s->length_m) && isfinite(s->duration_s) && isfinite(s->moving_time_s) && isfinite(s->average_speed_mps) &&
           isfinite(s->moving_speed_mps) && isfinite(s->max_speed_mps) && isfinite(s->elevation_gain_m) &&
           isfinite(s->elevation_loss_m);
}

/* Why: "geoloc_track_measure returns OK with inf duration (times ±1e308), elevation loss or
 * speed; geoloc_track_resample an altitude of -inf." */
static void test_non_finite_with_ok(void)
{
    geoloc_track_stats s;
    geoloc_fix times[2] = {fix(0, 0, -1e308, NAN), fix(0, 0.001, 1e308, NAN)};
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_track_measure(times, 2, GEOLOC_MODEL_SPHERE, 0.5, &s));
    CHECK(strstr(geoloc_last_error(), "1.8e308") != NULL);
    geoloc_fix ele[3] = {fix(0, 0, 0, 1e308), fix(0, 0.001, 10, -1e308), fix(0, 0.002, 20, 1e308)};
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_track_measure(ele, 3, GEOLOC_MODEL_SPHERE, 0.5, &s));
    CHECK(strstr(geoloc_last_error(), "elevation") != NULL);
    /* One fall of 2e308 m is above the largest double too; a fall of 1.5e308 is not, and is
     * measured exactly (no intermediate overflow). */
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_track_measure(ele, 2, GEOLOC_MODEL_SPHERE, 0.5, &s));
    ele[0].altitude_m = 1e308;
    ele[1].altitude_m = -0.5e308;
    if (CHECK_OK(geoloc_track_measure(ele, 2, GEOLOC_MODEL_SPHERE, 0.5, &s))) CHECK(close_to(s.elevation_loss_m, 1.5e308, 1e-15) && stats_finite(&s));
    geoloc_fix fast[2] = {fix(0, 0, 0, NAN), fix(0, 1, 5e-324, NAN)};
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_track_measure(fast, 2, GEOLOC_MODEL_WGS84, 0.5, &s));
    CHECK(strstr(geoloc_last_error(), "speed") != NULL);
    /* Large but representable times are measured. */
    geoloc_fix big[2] = {fix(0, 0, -4e307, NAN), fix(0, 0.001, 4e307, NAN)};
    if (CHECK_OK(geoloc_track_measure(big, 2, GEOLOC_MODEL_SPHERE, 0.5, &s))) CHECK(s.duration_s == 8e307 && stats_finite(&s));
    /* Resampling between altitudes ±1e308: finite, between the two. */
    geoloc_fix r[2] = {fix(0, 0, 0, 1e308), fix(0, 0.01, 100, -1e308)}, out[64];
    size_t needed;
    if (CHECK_OK(geoloc_track_resample(r, 2, GEOLOC_RESAMPLE_TIME, 10, out, 64, &needed))) {
        int ok = needed == 11;
        for (size_t i = 0; i < needed; i++) ok &= isfinite(out[i].altitude_m) && isfinite(out[i].time) && isfinite(out[i].lat);
        CHECK(ok && out[5].altitude_m == 0 && out[10].altitude_m == -1e308);
    }
    r[0].time = -1e308;
    r[1].time = 1e308;
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_track_resample(r, 2, GEOLOC_RESAMPLE_TIME, 10, out, 64, &needed));
    if (CHECK_OK(geoloc_track_resample(r, 2, GEOLOC_RESAMPLE_DISTANCE, 200, out, 64, &needed))) {
        int ok = 1;
        for (size_t i = 0; i < needed; i++) ok &= isfinite(out[i].altitude_m) && isfinite(out[i].time);
        CHECK(ok);
    }
}

/* GeoJSON: a MultiLineString is a track in segments (times flat or per line), a null elevation
 * or time is absent, a Point feature is a waypoint. */
static void test_geojson_multilinestring_segments(void)
{
    const char *json =
        "{\"type\":\"FeatureCollection\",\"features\":["
        "{\"type\":\"Feature\",\"properties\":{\"name\":\"Day 1\",\"coordTimes\":[[\"2026-01-01T00:00:00Z\",null],[100,160]]},"
        "\"geometry\":{\"type\":\"MultiLineString\",\"coordinates\":[[[2,1,5],[2,1.001,null]],[[3,1],[3,1.001,7]]]}},"
        "{\"type\":\"Feature\",\"properties\":{\"name\":\"Hut\",\"time\":\"2026-01-01T12:00:00Z\"},"
        "\"geometry\":{\"type\":\"Point\",\"coordinates\":[2.5,1.5,2100]}},"
        "{\"type\":\"Feature\",\"properties\":{\"times\":[1,2,3]},"
        "\"geometry\":{\"type\":\"MultiLineString\",\"coordinates\":[[[4,1],[4,2]],[[5,1]]]}}]}";
    geoloc_track *t = NULL;
    if (!CHECK_OK(geoloc_track_parse_geojson(json, strlen(json), NULL, &t))) return;
    geoloc_fix f[8], w[2];
    geoloc_track_segment s[8];
    size_t n;
    CHECK(points(t, f, 8) == 7 && segments(t, s, 8) == 4 && issues(t) == 0);
    CHECK(s[0].count == 2 && s[1].first == 2 && s[1].count == 2 && s[0].path == 0 && s[1].path == 0);
    CHECK(s[2].first == 4 && s[2].count == 2 && s[3].count == 1 && s[2].path == 1 && s[3].path == 1);
    CHECK(f[0].altitude_m == 5 && isnan(f[1].altitude_m) && isnan(f[1].time) && f[2].time == 100 && f[3].altitude_m == 7);
    CHECK(f[6].time == 3 && f[6].lon == 5);
    CHECK(name_is(t, GEOLOC_TRACK_ITEM_PATH, 0, "Day 1") && name_is(t, GEOLOC_TRACK_ITEM_PATH, 1, ""));
    CHECK_OK(geoloc_track_waypoints(t, w, 2, &n));
    CHECK(n == 1 && w[0].altitude_m == 2100 && w[0].time == 1767268800 && name_is(t, GEOLOC_TRACK_ITEM_WAYPOINT, 0, "Hut"));
    geoloc_segment_stats whole, per[4];
    CHECK_OK(geoloc_track_statistics(t, GEOLOC_MODEL_SPHERE, 0.5, &whole, per, 4, &n));
    CHECK(per[1].stats.duration_s == 60 && per[0].stats.duration_s == 0 && per[2].stats.duration_s == 1);
    CHECK(whole.stats.duration_s == 61 && close_to(whole.stats.length_m, 2 * hav(1, 2, 1.001, 2) + hav(1, 4, 2, 4), 1e-9));
    geoloc_track_destroy(t);
}

static void test_handles_and_arguments(void)
{
    geoloc_track *t = NULL;
    geoloc_status st;
    t = parse("<gpx><wpt lat='1' lon='2'/></gpx>", &st);
    size_t n;
    geoloc_segment_stats whole;
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_track_segments(NULL, NULL, 0, &n));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_track_points(t, NULL, 0, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_track_points(t, NULL, 3, &n));
    CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE, geoloc_track_points(t, (geoloc_fix *)&whole, (size_t)-1, &n));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_track_statistics(t, GEOLOC_MODEL_SPHERE, 0.5, NULL, NULL, 0, &n));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_track_statistics(t, GEOLOC_MODEL_SPHERE, 0.5, &whole, NULL, 0, NULL));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_track_statistics(t, GEOLOC_MODEL_SPHERE, NAN, &whole, NULL, 0, &n));
    CHECK_OK(geoloc_track_statistics(t, GEOLOC_MODEL_SPHERE, 0.5, &whole, NULL, 0, &n));
    CHECK(n == 0 && whole.point_count == 0 && whole.stats.length_m == 0);
    geoloc_track_destroy(t);
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_track_segments(t, NULL, 0, &n));
    geoloc_fix bad[2] = {fix(0, 0, INFINITY, NAN), fix(0, 0, 1, NAN)};
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_track_measure_segments(bad, 2, NULL, 0, GEOLOC_MODEL_SPHERE, 0.5, &whole, NULL));
    bad[0].time = 2;  /* a step back in time: counted, not measured */
    CHECK_OK(geoloc_track_measure_segments(bad, 2, NULL, 0, GEOLOC_MODEL_SPHERE, 0.5, &whole, NULL));
    CHECK(whole.backward_steps == 1 && whole.stats.duration_s == 0 && whole.timed_length_m == 0 && whole.stats.length_m == 0);
    size_t starts[2] = {0, 1};
    CHECK_OK(geoloc_track_measure_segments(bad, 2, starts, 2, GEOLOC_MODEL_SPHERE, 0.5, &whole, NULL));
    CHECK(whole.stats.duration_s == 0 && whole.timed_count == 2);
    for (size_t i = 0; i < COUNT_OF(HUGE_COUNTS); i++)
        CHECK_ERR(GEOLOC_E_COUNT_TOO_LARGE,
                  geoloc_track_measure_segments(bad, 2, starts, HUGE_COUNTS[i], GEOLOC_MODEL_SPHERE, 0.5, &whole, NULL));
}

int main(void)
{
    test_segments_are_lost();
    test_empty_ele_drops_the_point();
    test_points_without_time_are_dropped();
    test_routes_and_waypoints_are_ignored();
    test_declared_encoding_is_refused();
    test_extensions_ignored_entities_refused();
    test_track_loads_keep_every_issue();
    test_files_that_are_not_files();
    test_track_load_limits();
    test_track_limits_stop_large_loads();
    test_geojson_max_records_bounds_memory();
    test_geojson_record_count_is_the_readers();
    test_chunk_boundaries();
    test_gpx_reading_is_quadratic();
    test_non_finite_with_ok();
    test_geojson_multilinestring_segments();
    test_handles_and_arguments();
    return check_summary("test_track_files");
}
