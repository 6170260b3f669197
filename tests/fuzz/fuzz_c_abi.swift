// libFuzzer target over the C ABI: the bytes become the text and numbers of every entry point
// that reads text or counts, and nothing may trap, leak past ASan, or return OK with garbage.
// Built by tests/fuzz/run together with the library's sources (-sanitize=fuzzer,address).
import CGeoLoc
@_spi(Testing) import GeoLoc

#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))

    // The whole input as one C string (stopping at the first NUL).
    var text = bytes.map { CChar(bitPattern: $0) }
    text.append(0)
    var c = geoloc_coord()
    let st = geoloc_coord_parse(text, &c)
    if st == GEOLOC_OK {
        precondition(c.lat.isFinite && c.lon.isFinite && abs(c.lat) <= 90 && c.lon >= -180 && c.lon < 180)
        var buf = [CChar](repeating: 0, count: 64)
        var needed = 0
        precondition(geoloc_coord_format(c, GEOLOC_COORD_READABLE, &buf, buf.count, &needed) == GEOLOC_OK)
    } else {
        precondition(strlen(geoloc_last_error()) > 0)
    }

    // Lines: first is home, the rest stops; also key=value address parts.
    let lines = bytes.split(separator: 10, omittingEmptySubsequences: false).map { Array($0) + [0] }
    let cLines = lines.map { $0.map { CChar(bitPattern: $0) } }
    withArrayOfCStrings(cLines) { ptrs in
        var r = geoloc_mileage_result()
        var legs = [geoloc_leg](repeating: geoloc_leg(), count: ptrs.count + 1)
        var skipped = [Int](repeating: 0, count: ptrs.count + 1)
        let home = ptrs.first ?? nil
        let stops = Array(ptrs.dropFirst())
        _ = stops.withUnsafeBufferPointer { sp in
            geoloc_mileage(home, sp.baseAddress, sp.count, size % 2 == 0, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_MILES,
                           &r, &legs, legs.count, &skipped, skipped.count)
        }
        var parts: [geoloc_address_part] = []
        for p in ptrs { parts.append(geoloc_address_part(key: p, value: p.map { strchr($0, 61).map { UnsafePointer($0 + 1) } ?? $0 })) }
        var out = [CChar](repeating: 0, count: 16)
        var needed = 0
        for style in 0..<5 {
            _ = geoloc_address_format(parts, parts.count, geoloc_address_style(rawValue: UInt32(style)), &out, out.count, &needed)
        }
        var name: UnsafePointer<CChar>?
        if let p = ptrs.first, let p {
            _ = geoloc_us_state_code(p, &name)
            _ = geoloc_us_state_name(p, &name)
            _ = geoloc_country_name(p, &name)
        }
    }

    // The same bytes as CSV and GeoJSON place data, and as WKT and GeoJSON regions: a load
    // either fails with a message or gives a set whose every place reads back and whose queries
    // answer.
    bytes.withUnsafeBufferPointer { raw in
        raw.withMemoryRebound(to: CChar.self) { chars in
            for geojson in [false, true] {
                var places: OpaquePointer?
                let st = geojson
                    ? geoloc_places_parse_geojson(chars.baseAddress, chars.count, nil, &places)
                    : geoloc_places_parse_csv(chars.baseAddress, chars.count, nil, &places)
                guard st == GEOLOC_OK, let places else {
                    precondition(places == nil && strlen(geoloc_last_error()) > 0)
                    continue
                }
                var count = 0, issues = 0, needed = 0
                precondition(geoloc_places_count(places, &count) == GEOLOC_OK)
                precondition(geoloc_places_issue_count(places, &issues) == GEOLOC_OK)
                var buf = [CChar](repeating: 0, count: 32)
                for i in 0..<min(count, 8) {
                    var c = geoloc_coord()
                    precondition(geoloc_places_coord(places, i, &c) == GEOLOC_OK && abs(c.lat) <= 90)
                    _ = geoloc_places_name(places, i, &buf, buf.count, &needed)
                    _ = geoloc_places_attribute(places, i, text, &buf, buf.count, &needed)
                }
                for i in 0..<min(issues, 8) { _ = geoloc_places_issue(places, i, nil, &buf, buf.count, &needed) }
                var matches = [geoloc_match](repeating: geoloc_match(), count: 4)
                var n = 0
                _ = geoloc_places_within(places, geoloc_coord(lat: 10, lon: 179), 5000, GEOLOC_MODEL_SPHERE,
                                         GEOLOC_UNIT_KILOMETERS, 0, &matches, matches.count, &n)
                _ = geoloc_places_nearest(places, geoloc_coord(lat: -89, lon: 0), 3, GEOLOC_MODEL_WGS84,
                                          GEOLOC_UNIT_METERS, .infinity, &matches, matches.count, &n)
                geoloc_places_destroy(places)
            }
        }
    }
    for geojson in [false, true] {
        var region: OpaquePointer?
        let st = geojson ? geoloc_region_from_geojson(text, &region) : geoloc_region_from_wkt(text, &region)
        if st == GEOLOC_OK, let region {
            var inside = false
            precondition(geoloc_region_contains(region, geoloc_coord(lat: 0, lon: 0), &inside) == GEOLOC_OK)
            geoloc_region_destroy(region)
        } else {
            precondition(strlen(geoloc_last_error()) > 0)
        }
    }

    // Tracks, filters and monitors (fuzz_tracking.swift).
    fuzzTracking(bytes)
    // Place files (geoloc_places_open): the bytes as a file of their own, and a valid small file
    // with the bytes as (offset, xor) edits and a cut, opened as it is (the checksum must refuse
    // it) and resealed (a fresh checksum: the checks behind it must refuse it or give a set whose
    // every place and query reads in bounds).
    fuzzPlaceFile(bytes)
    if bytes.count >= 3 {
        var file = placeFileTemplate[Int(bytes[0]) % placeFileTemplate.count]
        var k = 1
        while k + 2 < bytes.count {
            let offset = (Int(bytes[k]) | Int(bytes[k + 1]) << 8) % file.count
            file[offset] ^= bytes[k + 2]
            k += 3
        }
        if bytes[0] & 0x80 != 0 { file.removeLast(Int(bytes[bytes.count - 1]) % file.count) }
        let edited = file != placeFileTemplate[Int(bytes[0]) % placeFileTemplate.count]
        precondition(!edited || fuzzPlaceFile(file) != GEOLOC_OK, "an edited place file passed its checksum")
        file.withUnsafeMutableBytes { PlaceSet.resealPlaceFile($0) }
        fuzzPlaceFile(file)
    }

    // Numbers from the raw bytes: every double bit pattern, including NaNs and infinities.
    if size >= 40 {
        let d = bytes.withUnsafeBytes { raw in (0..<5).map { raw.loadUnaligned(fromByteOffset: 8 * $0, as: Double.self) } }
        let code = bytes.withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
        var out = 0.0
        _ = geoloc_distance(geoloc_coord(lat: d[0], lon: d[1]), geoloc_coord(lat: d[2], lon: d[3]), GEOLOC_MODEL_SPHERE,
                            geoloc_unit(rawValue: UInt32(bytes[0] % 7)), &out)
        var minutes: Int64 = 0
        _ = geoloc_eta_minutes(d[0], d[1], GEOLOC_UNIT_MILES, d[2], &minutes)
        var buf = [CChar](repeating: 0, count: 40)
        var needed = 0
        _ = geoloc_weather_condition(code, d[4], GEOLOC_TEMP_CELSIUS, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_DAY, &buf, buf.count, &needed)
        _ = geoloc_distance_text(d[3], GEOLOC_UNIT_FEET, &buf, buf.count, &needed)
        _ = geoloc_convert_length(d[0], GEOLOC_UNIT_FEET, GEOLOC_UNIT_NAUTICAL_MILES, &out)
        var azi1 = 0.0, azi2 = 0.0
        let a = geoloc_coord(lat: d[0], lon: d[1]), b = geoloc_coord(lat: d[2], lon: d[3])
        if geoloc_geodesic_inverse(a, b, &out, &azi1, &azi2) == GEOLOC_OK {
            precondition(out.isFinite && out >= 0 && azi1.isFinite && azi2.isFinite)
        }
        var end = geoloc_coord()
        if geoloc_geodesic_direct(a, d[2], d[4], &end, &azi2) == GEOLOC_OK {
            precondition(end.lat.isFinite && abs(end.lat) <= 90 && end.lon >= -180 && end.lon < 180 && azi2.isFinite)
        }
        _ = geoloc_distance(a, b, GEOLOC_MODEL_WGS84, GEOLOC_UNIT_MILES, &out)
    }
    return 0
}

private func withArrayOfCStrings<R>(_ strings: [[CChar]], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    var storage = strings.map { s -> UnsafeMutablePointer<CChar> in
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: s.count)
        p.initialize(from: s, count: s.count)
        return p
    }
    defer { storage.forEach { $0.deallocate() }; storage.removeAll() }
    return body(storage.map { UnsafePointer($0) })
}

/// Where the place files of this process are written.
private let placeFilePath: String = "/tmp/geoloc-fuzz-\(getpid()).places"

/// Valid place files of small sets (ids, names, attributes with an absent value; and numbered
/// ids), made through the C door.
private let placeFileTemplate: [[UInt8]] = {
    var files: [[UInt8]] = []
    let coords = [geoloc_coord(lat: 38.3, lon: -88.9), geoloc_coord(lat: -33.9, lon: 151.2), geoloc_coord(lat: 89.9, lon: 179.9),
                  geoloc_coord(lat: 0, lon: -180), geoloc_coord(lat: 51.5, lon: -0.1)]
    for numbered in [false, true] {
        var set: OpaquePointer?
        let ok = withArrayOfCStrings(["a", "bb", "", "d", "e"].map { Array($0.utf8CString) }) { ids in
            withArrayOfCStrings(["cc", "admin1"].map { Array($0.utf8CString) }) { attrNames in
                withArrayOfCStrings(["US", "IL", "AU", "", "XX", "Y", "", "", "GB", "ENG"].map { Array($0.utf8CString) }) { values in
                    var v = values
                    v[5] = nil
                    if numbered { return geoloc_places_create(coords, nil, ids, coords.count, attrNames, 2, v, &set) }
                    return geoloc_places_create(coords, ids, ids, coords.count, attrNames, 2, v, &set)
                }
            }
        }
        precondition(ok == GEOLOC_OK && geoloc_places_save(set, placeFilePath) == GEOLOC_OK)
        geoloc_places_destroy(set)
        files.append(readFile(placeFilePath))
    }
    return files
}()

private func readFile(_ path: String) -> [UInt8] {
    guard let f = fopen(path, "rb") else { return [] }
    defer { fclose(f) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&chunk, 1, chunk.count, f)
        if n <= 0 { break }
        out.append(contentsOf: chunk[0..<n])
    }
    return out
}

/// Writes `bytes` as a file and opens it: a failure must come with a message; a set must read
/// back and answer queries.
@discardableResult
private func fuzzPlaceFile(_ bytes: [UInt8]) -> geoloc_status {
    guard let f = fopen(placeFilePath, "wb") else { return GEOLOC_E_INTERNAL }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
    fclose(f)
    var places: OpaquePointer?
    let st = geoloc_places_open(placeFilePath, &places)
    guard st == GEOLOC_OK, let places else {
        precondition(places == nil && strlen(geoloc_last_error()) > 0)
        return st
    }
    var count = 0, needed = 0, attrs = 0
    precondition(geoloc_places_count(places, &count) == GEOLOC_OK)
    precondition(geoloc_places_attribute_count(places, &attrs) == GEOLOC_OK)
    var buf = [CChar](repeating: 0, count: 64)
    var names: [[CChar]] = []
    for j in 0..<attrs {
        precondition(geoloc_places_attribute_name(places, j, &buf, buf.count, &needed) != GEOLOC_E_INTERNAL)
        names.append(buf)
    }
    for i in 0..<min(count, 64) {
        var c = geoloc_coord()
        precondition(geoloc_places_coord(places, i, &c) == GEOLOC_OK && abs(c.lat) <= 90 && c.lon >= -180 && c.lon < 180)
        _ = geoloc_places_id(places, i, &buf, buf.count, &needed)
        _ = geoloc_places_name(places, i, &buf, buf.count, &needed)
        for name in names { _ = geoloc_places_attribute(places, i, name, &buf, buf.count, &needed) }
    }
    var matches = [geoloc_match](repeating: geoloc_match(), count: 8)
    var n = 0
    for q in [geoloc_coord(lat: 38, lon: -89), geoloc_coord(lat: -90, lon: 0), geoloc_coord(lat: 0, lon: 179.99)] {
        for st in [
            geoloc_places_within(places, q, 20000, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 0, &matches, matches.count, &n),
            geoloc_places_nearest(places, q, 3, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, .infinity, &matches, matches.count, &n),
        ] {
            precondition(st == GEOLOC_OK || st == GEOLOC_E_BUFFER_TOO_SMALL)
            for m in matches.prefix(min(n, matches.count)) { precondition(m.index < count && m.distance.isFinite) }
        }
    }
    geoloc_places_destroy(places)
    return st
}
