// libFuzzer target: the GPX reader as devices write it (issue 21): encodings, tracks in
// segments, routes, waypoints, names. The first byte picks how the rest is presented: as it is,
// declared ISO-8859-1 or Windows-1252, or as UTF-16 (either order, with a byte-order mark).
// The document is read from memory and from a file (the streaming reader, a chunk at a time):
// both must give the same status, points, segments and names. Nothing may trap; what reads
// must be consistent (segments cover the points in order, positions in range, names valid
// UTF-8 under the buffer contract) and its statistics finite or refused with a message.
// Built by tests/fuzz/run.
import CGeoLoc

#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    fuzzGPX(present(body, data[0] % 5))
    return 0
}

/// The bytes as one of five presentations.
private func present(_ b: [UInt8], _ how: UInt8) -> [UInt8] {
    switch how {
    case 1: return Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>".utf8) + b
    case 2: return Array("<?xml version='1.0' encoding='windows-1252'?>".utf8) + b
    case 3, 4:
        // Each byte as a UTF-16 code unit (Latin-1 to UTF-16), little- or big-endian.
        var out: [UInt8] = how == 3 ? [0xFF, 0xFE] : [0xFE, 0xFF]
        for c in b { out += how == 3 ? [c, 0] : [0, c] }
        return out
    default: return b
    }
}

private struct Reading: Equatable {
    var points: [[Double]] = []
    var segments: [[Int]] = []
    var waypoints = 0
    var names: [String] = []
    var issues = 0
}

private func read(_ t: OpaquePointer) -> Reading {
    var r = Reading()
    var n = 0
    precondition(geoloc_track_points(t, nil, 0, &n) == (n == 0 ? GEOLOC_OK : GEOLOC_E_BUFFER_TOO_SMALL))
    var fixes = [geoloc_fix](repeating: geoloc_fix(), count: n)
    precondition(geoloc_track_points(t, &fixes, n, &n) == GEOLOC_OK)
    for f in fixes {
        precondition(f.lat.isFinite && abs(f.lat) <= 90 && f.lon.isFinite && f.accuracy_m == 0)
        precondition(!f.time.isInfinite && !f.altitude_m.isInfinite && !(f.speed_mps < 0))
        r.points.append([f.lat, f.lon, f.time, f.altitude_m].map { $0.isNaN ? -999 : $0 })
    }
    var k = 0
    _ = geoloc_track_segments(t, nil, 0, &k)
    var segs = [geoloc_track_segment](repeating: geoloc_track_segment(), count: k)
    precondition(geoloc_track_segments(t, &segs, k, &k) == GEOLOC_OK)
    var next = 0, paths = 0
    for s in segs {
        precondition(s.first == next && s.first + s.count <= n, "segments do not cover the points in order")
        next = s.first + s.count
        paths = max(paths, s.path + 1)
        r.segments.append([s.first, s.count, s.path, Int(s.kind.rawValue)])
    }
    precondition(next == n, "points outside every segment")
    precondition(geoloc_track_waypoints(t, nil, 0, &r.waypoints) != GEOLOC_E_NULL_ARGUMENT)
    for (item, count) in [(GEOLOC_TRACK_ITEM_POINT, min(n, 8)), (GEOLOC_TRACK_ITEM_WAYPOINT, min(r.waypoints, 8)),
                          (GEOLOC_TRACK_ITEM_PATH, min(paths, 8))] {
        for i in 0..<count {
            guard let name = readText({ geoloc_track_name(t, item, i, $0, $1, $2) }) else {
                preconditionFailure("a name did not read")
            }
            r.names.append(name)
        }
    }
    precondition(geoloc_track_issue_count(t, &r.issues) == GEOLOC_OK && r.issues <= 1000)
    var whole = geoloc_segment_stats()
    var per = [geoloc_segment_stats](repeating: geoloc_segment_stats(), count: k)
    var m = 0
    let st = geoloc_track_statistics(t, GEOLOC_MODEL_WGS84, 0.5, &whole, &per, k, &m)
    if st == GEOLOC_OK {
        for s in per + [whole] {
            let x = s.stats
            for v in [x.length_m, x.duration_s, x.moving_time_s, x.average_speed_mps, x.moving_speed_mps, x.max_speed_mps,
                      x.elevation_gain_m, x.elevation_loss_m, s.timed_length_m] {
                precondition(v.isFinite && v >= 0, "a statistic \(v) with OK")
            }
        }
    } else {
        expectMessage(st)
    }
    return r
}

private func fuzzGPX(_ bytes: [UInt8]) {
    var fromMemory: Reading? = nil, memoryStatus = GEOLOC_OK
    bytes.withUnsafeBufferPointer { raw in
        raw.withMemoryRebound(to: CChar.self) { chars in
            var t: OpaquePointer?
            memoryStatus = geoloc_track_parse_gpx(chars.baseAddress, chars.count, nil, &t)
            if memoryStatus == GEOLOC_OK, let t {
                fromMemory = read(t)
                geoloc_track_destroy(t)
            } else {
                precondition(t == nil)
                expectMessage(memoryStatus)
            }
        }
    }
    // The same bytes from a file, streamed.
    var path = Array("/tmp/geoloc-fuzz-gpx-XXXXXX".utf8CString)
    let fd = mkstemp(&path)
    guard fd >= 0 else { return }
    defer { unlink(path); close(fd) }
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    var t: OpaquePointer?
    let fileStatus = geoloc_track_load_gpx(path, nil, &t)
    precondition(fileStatus == memoryStatus, "file \(fileStatus.rawValue) and memory \(memoryStatus.rawValue) disagree")
    if let t {
        precondition(read(t) == fromMemory!, "file and memory read differently")
        geoloc_track_destroy(t)
    }
}
