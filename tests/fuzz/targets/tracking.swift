// libFuzzer target: tracks, filters and monitors. The bytes as a GPX and a GeoJSON track, as
// saved filter and monitor state, and the fixes read from them through the filter, a monitor,
// the track statistics, simplification and both writers. Nothing may trap; a track that reads
// must give valid fixes, write, and read back the same. Each handle, once destroyed, must be
// refused by the next call on it (the tagged handles of Handles.swift). Built by tests/fuzz/run.
import CGeoLoc

#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    fuzzTracking(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// A polygon across the antimeridian, for the set below (a global: reachable, not a leak).
private let ring: UnsafeMutablePointer<geoloc_coord> = {
    let r = UnsafeMutablePointer<geoloc_coord>.allocate(capacity: 4)
    r[0] = geoloc_coord(lat: -1, lon: 179); r[1] = geoloc_coord(lat: -1, lon: -179)
    r[2] = geoloc_coord(lat: 1, lon: -179); r[3] = geoloc_coord(lat: 1, lon: 179)
    return r
}()

private let fences: OpaquePointer = {
    var circles = [
        geoloc_circle_fence(id: nil, center: geoloc_coord(lat: 1, lon: 2), radius_m: 5000),
        geoloc_circle_fence(id: nil, center: geoloc_coord(lat: 0, lon: 180), radius_m: 200_000),
        geoloc_circle_fence(id: nil, center: geoloc_coord(lat: 90, lon: 0), radius_m: 100_000),
    ]
    var polygons = [geoloc_polygon_fence(id: nil, vertices: UnsafePointer(ring), n_vertices: 4)]
    var out: OpaquePointer?
    precondition(geoloc_geofences_create(&circles, circles.count, &polygons, 1, &out) == GEOLOC_OK)
    return out!
}()

private func fuzzTracking(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { raw in
        raw.withMemoryRebound(to: CChar.self) { chars in
            for gpx in [true, false] {
                var track: OpaquePointer?
                let st = gpx ? geoloc_track_parse_gpx(chars.baseAddress, chars.count, nil, &track)
                    : geoloc_track_parse_geojson(chars.baseAddress, chars.count, nil, &track)
                guard st == GEOLOC_OK, let track else {
                    precondition(track == nil && strlen(geoloc_last_error()) > 0)
                    continue
                }
                defer {
                    geoloc_track_destroy(track)
                    var m = 0
                    precondition(geoloc_track_fixes(track, nil, 0, &m) == GEOLOC_E_INVALID_ARGUMENT, "use after destroy not caught")
                }
                var n = 0, issues = 0, needed = 0
                precondition(geoloc_track_fixes(track, nil, 0, &n) == (n == 0 ? GEOLOC_OK : GEOLOC_E_BUFFER_TOO_SMALL))
                var fixes = [geoloc_fix](repeating: geoloc_fix(), count: n)
                precondition(geoloc_track_fixes(track, &fixes, n, &n) == GEOLOC_OK)
                // A point without a time has time NaN (since 0.4); the fix functions then refuse it.
                for f in fixes {
                    precondition(f.lat.isFinite && abs(f.lat) <= 90 && f.lon.isFinite && !f.time.isInfinite && f.accuracy_m == 0)
                }
                let allTimed = fixes.allSatisfy { !$0.time.isNaN }
                precondition(geoloc_track_issue_count(track, &issues) == GEOLOC_OK)
                var buf = [CChar](repeating: 0, count: 64)
                for i in 0..<min(issues, 4) {
                    var record = 0
                    _ = geoloc_track_issue(track, i, &record, &buf, buf.count, &needed)
                }
                // Write and read back: the same number of fixes (times may be out of the writable
                // years, which is an error, not a crash).
                var text = [CChar](repeating: 0, count: 1 << 16)
                if geoloc_track_write_gpx(fixes, n, "fuzz", &text, text.count, &needed) == GEOLOC_OK {
                    var again: OpaquePointer?
                    var m = 0
                    precondition(geoloc_track_parse_gpx(text, needed - 1, nil, &again) == GEOLOC_OK)
                    precondition(geoloc_track_fixes(again, nil, 0, &m) != GEOLOC_E_NULL_ARGUMENT && m == n)
                    geoloc_track_destroy(again)
                }
                _ = geoloc_track_write_geojson(fixes, n, &text, text.count, &needed)
                // Through the filter, a monitor and the track functions (times may go back).
                var filter: OpaquePointer?
                var options = geoloc_filter_options()
                _ = geoloc_filter_options_preset(GEOLOC_ACTIVITY_FITNESS, &options)
                precondition(geoloc_fix_filter_create(&options, &filter) == GEOLOC_OK)
                var decisions = [geoloc_fix_decision](repeating: geoloc_fix_decision(), count: n)
                let ran = geoloc_fix_filter_run(filter, fixes, n, &decisions)
                precondition(ran == (allTimed ? GEOLOC_OK : GEOLOC_E_NOT_FINITE))
                geoloc_fix_filter_destroy(filter)
                precondition(geoloc_fix_filter_run(filter, fixes, n, &decisions) == GEOLOC_E_INVALID_ARGUMENT, "use after destroy not caught")
                var monitor: OpaquePointer?
                precondition(geoloc_monitor_create(fences, nil, &monitor) == GEOLOC_OK)
                var events = [geoloc_geofence_event](repeating: geoloc_geofence_event(), count: 8)
                _ = geoloc_monitor_run(monitor, fixes, n, &events, events.count, &needed)
                geoloc_monitor_destroy(monitor)
                precondition(geoloc_monitor_run(monitor, fixes, n, &events, events.count, &needed) == GEOLOC_E_INVALID_ARGUMENT,
                             "use after destroy not caught")
                var stats = geoloc_track_stats()
                if geoloc_track_measure(fixes, n, GEOLOC_MODEL_WGS84, 0.5, &stats) == GEOLOC_OK {
                    precondition(stats.length_m.isFinite && stats.length_m >= 0 && stats.max_speed_mps >= 0)
                }
                var coords = fixes.map { geoloc_coord(lat: $0.lat, lon: $0.lon) }
                var kept = [Int](repeating: 0, count: n)
                var k = 0
                precondition(geoloc_track_simplify(&coords, n, 10, &kept, &k) == GEOLOC_OK && k <= n)
                var stays = [geoloc_stay_point](repeating: geoloc_stay_point(), count: 4)
                _ = geoloc_track_stay_points(fixes, n, 50, 60, &stays, stays.count, &needed)
                var resampled = [geoloc_fix](repeating: geoloc_fix(), count: 64)
                _ = geoloc_track_resample(fixes, n, GEOLOC_RESAMPLE_DISTANCE, 1000, &resampled, resampled.count, &needed)
            }
            // The bytes as saved state: refused with a message, or a handle that works.
            var filter: OpaquePointer?
            if geoloc_fix_filter_restore(chars.baseAddress, chars.count, &filter) == GEOLOC_OK {
                var d = geoloc_fix_decision()
                var f = geoloc_fix(lat: 1, lon: 2, time: 3, accuracy_m: 4, speed_mps: .nan, course_deg: .nan, altitude_m: .nan)
                _ = geoloc_fix_filter_run(filter, &f, 1, &d)
                geoloc_fix_filter_destroy(filter)
            }
            var monitor: OpaquePointer?
            if geoloc_monitor_restore(fences, chars.baseAddress, chars.count, &monitor) == GEOLOC_OK {
                geoloc_monitor_destroy(monitor)
            }
        }
    }
}
