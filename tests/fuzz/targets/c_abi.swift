// libFuzzer target over the whole C ABI: the bytes become the text and numbers of every entry
// point that reads text or counts, and nothing may trap, leak past ASan, or return OK with garbage.
// The per-parser targets beside it go deeper into one format each. Built by tests/fuzz/run.
import CGeoLoc

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
        // The lean and the batch forms: the same answers as the single calls, or the same refusal.
        let pair = [a, b]
        let value = geoloc_distance_value(pair, geoloc_model(rawValue: UInt32(bytes[1] % 3)), geoloc_unit(rawValue: UInt32(bytes[0] % 7)))
        let checked = geoloc_distance(a, b, geoloc_model(rawValue: UInt32(bytes[1] % 3)), geoloc_unit(rawValue: UInt32(bytes[0] % 7)), &out)
        precondition(checked == GEOLOC_OK ? value == out : value.isNaN)
        var s2 = [0.0, 0.0], z1 = [0.0, 0.0], z2 = [0.0, 0.0], ends = [geoloc_coord(), geoloc_coord()]
        let starts = [a, b], azimuths = [d[2], d[3]], lengths = [d[4], d[0]]
        if geoloc_geodesic_inverse_many(starts, [b, a], 2, &s2, &z1, &z2) == GEOLOC_OK {
            precondition(s2.allSatisfy { $0.isFinite && $0 >= 0 } && z1.allSatisfy(\.isFinite) && z2.allSatisfy(\.isFinite))
        }
        if geoloc_geodesic_direct_many(starts, azimuths, lengths, 2, &ends, &z2) == GEOLOC_OK {
            precondition(ends.allSatisfy { $0.lat.isFinite && abs($0.lat) <= 90 && $0.lon >= -180 && $0.lon < 180 })
        }
    }
    return 0
}
