// libFuzzer target: time-zone map files (geoloc_timezones_open). The bytes as a file of their
// own, and the small map tests/fuzz/timezones-small.zones (a few cells of the real map around the
// Alps, written by tools/gen_timezones.py --rows 78:80 --cols 109:112) with the bytes as (offset,
// xor) edits and a cut, opened as it is (the checksums must refuse it: on open, or for an edit of
// the borders, a block's when verify() reads them all) and resealed (the checks behind the
// checksums must refuse it or give a map whose every lookup stays in bounds: a zone in range, or
// a parse error with a message; and a map that passes verify() answers every lookup). Built by
// tests/fuzz/run.
import CGeoLoc
@_spi(Testing) import GeoLoc

#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    fuzzMapFile(bytes)
    if bytes.count >= 4, !template.isEmpty {
        var file = template
        var k = 1
        while k + 3 < bytes.count {
            let offset = (Int(bytes[k]) | Int(bytes[k + 1]) << 8 | Int(bytes[k + 2]) << 16) % file.count
            file[offset] ^= bytes[k + 3]
            k += 4
        }
        if bytes[0] & 0x80 != 0 { file.removeLast((Int(bytes[bytes.count - 1]) << 4) % file.count) }
        if file != template, let opened = try? file.withUnsafeBytes({ try TimeZoneMap.open(fileBytes: $0) }) {
            // Only an edit of the borders opens (they are checked a block at a time): a block fails.
            precondition((try? opened.verify()) == nil, "an edited time-zone map passed its checksums")
        }
        file.withUnsafeMutableBytes { TimeZoneMap.reseal($0) }
        if bytes[0] & 0x40 != 0 {
            fuzzMapFile(file)
        } else if let map = try? file.withUnsafeBytes({ try TimeZoneMap.open(fileBytes: $0) }) {
            lookups(map)
            // A map whose every block passed its checks answers every lookup.
            if (try? map.verify()) != nil { lookups(map, mustAnswer: true) }
        }
    }
    return 0
}

/// The small real map (empty when the file is missing: only the raw bytes are fuzzed then).
private let template: [UInt8] = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(2)  // targets/timezones_file.swift
    return readFile(parts.joined(separator: "/") + "/timezones-small.zones")
}()

private let mapPath: String = "/tmp/geoloc-fuzz-\(getpid()).zones"


/// Points over the small map's cells (lat 40.9 ... 44.2, lon 3 ... 8), and a few elsewhere.
private let points: [(Double, Double)] = {
    var p: [(Double, Double)] = [(0, 0), (90, 0), (-90, 179.99), (41.9, 12.5), (-33.9, 151.2)]
    for i in 0..<24 {
        for j in 0..<24 { p.append((40.8 + 3.5 * Double(i) / 23, 2.9 + 5.2 * Double(j) / 23)) }
    }
    return p
}()

private func lookups(_ map: TimeZoneMap, mustAnswer: Bool = false) {
    for (lat, lon) in points {
        guard let c = try? Coordinate(latitude: lat, longitude: lon) else { continue }
        do {
            let z = try map.zone(at: c)
            precondition(Int(z.rawValue) < map.count)
            _ = map.name(z)
        } catch {
            precondition(!mustAnswer, "a verified time-zone map failed a lookup: \(error.message)")
            precondition(error.code == .parse && !error.message.isEmpty)
        }
    }
}

/// Writes `bytes` as a file and opens it through the C door: a failure must come with a message;
/// a map must answer every lookup with a zone in range (or a parse error).
private func fuzzMapFile(_ bytes: [UInt8]) {
    guard let f = fopen(mapPath, "wb") else { return }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
    fclose(f)
    var tz: OpaquePointer?
    let st = geoloc_timezones_open(mapPath, &tz)
    guard st == GEOLOC_OK, let tz else {
        precondition(tz == nil && strlen(geoloc_last_error()) > 0)
        return
    }
    var count = 0
    precondition(geoloc_timezones_count(tz, &count) == GEOLOC_OK && count > 0)
    for (lat, lon) in points {
        var out = geoloc_timezone()
        let s = geoloc_timezone_at(tz, geoloc_coord(lat: lat, lon: lon), &out)
        if s == GEOLOC_OK {
            precondition(Int(out.zone) < count)
            readText { geoloc_timezones_name(tz, out.zone, $0, $1, $2) }
        } else {
            precondition(s == GEOLOC_E_PARSE && strlen(geoloc_last_error()) > 0)
        }
    }
    geoloc_timezones_destroy(tz)
}
