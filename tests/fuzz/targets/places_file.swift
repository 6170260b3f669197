// libFuzzer target: place files (geoloc_places_open). The bytes as a file of their own, and a
// valid file with the bytes as (offset, xor) edits and a cut, opened as it is (the checksum must
// refuse it) and resealed (a fresh checksum: the checks behind it must refuse it, or give a set
// whose every text reads back as UTF-8 without a NUL and whose every query agrees with brute
// force over the file's own coordinates). Built by tests/fuzz/run.
import CGeoLoc
@_spi(Testing) import GeoLoc

#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
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
    return 0
}

/// Where the place files of this process are written.
private let placeFilePath: String = "/tmp/geoloc-fuzz-\(getpid()).places"

/// Valid place files of small sets (ids, names, attributes with an absent value; and numbered
/// ids), made through the C door (the current version, 3), the first also as versions 2 and 1,
/// and the version 1 fixtures.
private let placeFileTemplate: [[UInt8]] = {
    var files: [[UInt8]] = []
    let coords = [geoloc_coord(lat: 38.3, lon: -88.9), geoloc_coord(lat: -33.9, lon: 151.2), geoloc_coord(lat: 89.9, lon: 179.9),
                  geoloc_coord(lat: 0, lon: -180), geoloc_coord(lat: 51.5, lon: -0.1)]
    // 100 places without attributes (a tree of 7 nodes, split gaps to forge), as saved
    // (version 4) and as versions 2 and 1 (the same layout without attributes) wrote them.
    var many: OpaquePointer?
    var pts: [geoloc_coord] = []
    var g: UInt64 = 21
    for _ in 0..<100 {
        g = g &* 6364136223846793005 &+ 1442695040888963407
        let u = Double(g >> 11) * 0x1p-53
        g = g &* 6364136223846793005 &+ 1442695040888963407
        pts.append(geoloc_coord(lat: asin(2 * u - 1) * 180 / Double.pi, lon: Double(g >> 11) * 0x1p-53 * 360 - 180))
    }
    let names = (0..<100).map { Array("Place \($0)".utf8CString) }
    precondition(withArrayOfCStrings(names) { geoloc_places_create(pts, $0, $0, 100, nil, 0, nil, &many) } == GEOLOC_OK)
    precondition(geoloc_places_save(many, placeFilePath) == GEOLOC_OK)
    geoloc_places_destroy(many)
    files.append(readFile(placeFilePath))  // version 4: no vectors, derived on open
    // The same set as version 2 wrote it (its vectors stored, checked on open), and those bytes
    // as version 1.
    var v2 = try! PlaceSet.open(placeFilePath).placeFileBytes(version: 2)
    files.append(v2)
    v2[8] = 1
    v2.withUnsafeMutableBytes { PlaceSet.resealPlaceFile($0) }
    files.append(v2)
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
    // Version 1 files (still opened as they are): the fixtures of tests/places.
    let fixtures = String(#filePath.dropLast("tests/fuzz/targets/places_file.swift".count)) + "tests/places/"
    for name in ["places-v1.places", "numbered-v1.places"] {
        let v1 = readFile(fixtures + name)
        precondition(v1.count > 128 && v1[8] == 1, "missing version 1 fixture \(name)")
        files.append(v1)
    }
    return files
}()


/// Writes `bytes` as a file and opens it: a failure must come with a message; a set must read
/// back (every text under the buffer contract: no NUL inside, valid UTF-8) and answer queries as
/// brute force over its own coordinates does.
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
    var count = 0, attrs = 0
    precondition(geoloc_places_count(places, &count) == GEOLOC_OK)
    precondition(geoloc_places_attribute_count(places, &attrs) == GEOLOC_OK)
    var names: [String] = []
    for j in 0..<attrs {
        guard let name = readText({ geoloc_places_attribute_name(places, j, $0, $1, $2) }) else {
            preconditionFailure("attribute name \(j) does not read")
        }
        names.append(name)
    }
    var coords: [geoloc_coord] = []
    for i in 0..<count {
        var c = geoloc_coord()
        precondition(geoloc_places_coord(places, i, &c) == GEOLOC_OK)
        expectCoordinate(c)
        coords.append(c)
        precondition(readText({ geoloc_places_id(places, i, $0, $1, $2) }) != nil)
        precondition(readText({ geoloc_places_name(places, i, $0, $1, $2) }) != nil)
        for name in names { readText({ geoloc_places_attribute(places, i, name, $0, $1, $2) }) }
    }
    var matches = [geoloc_match](repeating: geoloc_match(), count: count + 1)
    var n = 0
    let queries = [geoloc_coord(lat: 38, lon: -89), geoloc_coord(lat: -90, lon: 0), geoloc_coord(lat: 0, lon: 179.99)]
        + coords.prefix(2).map { geoloc_coord(lat: $0.lat * 0.999, lon: $0.lon * 0.999) }
    for q in queries {
        // Brute force over the file's own coordinates, in kilometers.
        let brute = coords.map { c -> Double in
            var d = 0.0
            precondition(geoloc_distance(q, c, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, &d) == GEOLOC_OK)
            return d
        }
        let close = { (a: Double, b: Double) in abs(a - b) <= 1e-9 * max(abs(a), abs(b)) + 1e-9 }
        for radius in [20000.0, 3000.0] {
            precondition(geoloc_places_within(places, q, radius, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, 0,
                                              &matches, matches.count, &n) == GEOLOC_OK)
            var found = Set<Int>()
            for m in matches.prefix(n) {
                precondition(m.index < count && found.insert(m.index).inserted, "within: index \(m.index) twice or out of range")
                precondition(close(m.distance, brute[m.index]) && m.distance <= radius,
                             "within: place \(m.index) at \(m.distance) km, brute force \(brute[m.index])")
            }
            for i in 0..<count where brute[i] <= radius && !found.contains(i) {
                precondition(close(brute[i], radius), "within \(radius) km missed place \(i) at \(brute[i]) km")
            }
        }
        let k = min(3, count)
        precondition(geoloc_places_nearest(places, q, k, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, .infinity,
                                           &matches, matches.count, &n) == GEOLOC_OK)
        precondition(n == k, "nearest \(k) gave \(n)")
        let sorted = brute.sorted()
        for (j, m) in matches.prefix(n).enumerated() {
            precondition(m.index < count && close(m.distance, brute[m.index]) && close(m.distance, sorted[j]),
                         "nearest #\(j): place \(m.index) at \(m.distance) km, brute force \(brute[m.index]), the \(j)th nearest \(sorted[j])")
        }
        precondition(Set(matches.prefix(n).map(\.index)).count == n, "nearest named a place twice")
    }
    geoloc_places_destroy(places)
    precondition(geoloc_places_count(places, &count) == GEOLOC_E_INVALID_ARGUMENT, "use after destroy not caught")
    return st
}
