// libFuzzer target: place files (geoloc_places_open). The bytes as a file of their own, and a
// valid small file with the bytes as (offset, xor) edits and a cut, opened as it is (the
// checksum must refuse it) and resealed (a fresh checksum: the checks behind it must refuse it
// or give a set whose every place and query reads in bounds). Built by tests/fuzz/run.
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
/// ids), made through the C door (the current version), and the version 1 fixtures.
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
    // Version 1 files (still opened as they are): the fixtures of tests/places.
    let fixtures = String(#filePath.dropLast("tests/fuzz/targets/places_file.swift".count)) + "tests/places/"
    for name in ["places-v1.places", "numbered-v1.places"] {
        let v1 = readFile(fixtures + name)
        precondition(v1.count > 128 && v1[8] == 1, "missing version 1 fixture \(name)")
        files.append(v1)
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
    precondition(geoloc_places_count(places, &count) == GEOLOC_E_INVALID_ARGUMENT, "use after destroy not caught")
    return st
}
