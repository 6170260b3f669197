// libFuzzer target: search index files (geoloc_search_open). The bytes as a file of their own,
// and a valid small index with the bytes as (offset, xor) edits and a cut, opened as it is (the
// checksum must refuse it) and resealed (a fresh checksum: the checks behind it must refuse it
// or give a search whose every query reads in bounds). Built by tests/fuzz/run.
import CGeoLoc
@_spi(Testing) import GeoLoc

#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    fuzzIndex(bytes)
    if bytes.count >= 3, !indexTemplate.isEmpty {
        var file = indexTemplate
        var k = 1
        while k + 2 < bytes.count {
            let offset = (Int(bytes[k]) | Int(bytes[k + 1]) << 8 | Int(bytes[0] & 0x3F) << 16) % file.count
            file[offset] ^= bytes[k + 2]
            k += 3
        }
        if bytes[0] & 0x80 != 0 { file.removeLast(Int(bytes[bytes.count - 1]) % file.count) }
        precondition(file == indexTemplate || fuzzIndex(file) != GEOLOC_OK, "an edited index passed its checksum")
        file.withUnsafeMutableBytes { PlaceSearch.resealIndex($0) }
        fuzzIndex(file)
    }
    return 0
}

private let dir: String = {
    let d = "/tmp/geoloc-fuzz-index-\(getpid())"
    mkdir(d, 0o700)
    return d
}()

/// The three-town gazetteer the template index was built for.
private let gazetteer: OpaquePointer = {
    let towns = dir + "/towns.csv"
    let f = fopen(towns, "wb")!
    let text = "id,name,lat,lon,country_code,admin1_code,admin1_name,population\n"
        + "2657896,Zürich,47.37,8.54,CH,ZH,Zurich,415367\n703448,Kyiv,50.45,30.52,UA,12,Kyiv City,2952301\n"
        + "4250542,Springfield,39.8,-89.64,US,IL,Illinois,114394\n"
    _ = text.utf8CString.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count - 1, f) }
    fclose(f)
    var g: OpaquePointer?
    precondition(geoloc_gazetteer_open(towns, &g) == GEOLOC_OK)
    return g!
}()

private let indexTemplate: [UInt8] = {
    var s: OpaquePointer?
    precondition(geoloc_search_open(gazetteer, nil, &s) == GEOLOC_OK)
    precondition(geoloc_search_save(s, dir + "/t.search") == GEOLOC_OK)
    geoloc_search_destroy(s)
    return readFile(dir + "/t.search")
}()

/// Opens the bytes as an index of the three towns and, when that works, runs queries on it.
@discardableResult
private func fuzzIndex(_ bytes: [UInt8]) -> geoloc_status {
    let path = dir + "/f.search"
    let f = fopen(path, "wb")!
    _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
    fclose(f)
    var s: OpaquePointer?
    let st = geoloc_search_open(gazetteer, path, &s)
    expectMessage(st)
    guard st == GEOLOC_OK, let s else { return st }
    var o = geoloc_search_options()
    geoloc_search_options_default(&o)
    o.min_score = 0
    var results = [geoloc_search_result](repeating: geoloc_search_result(), count: 10)
    for q in ["Kiev", "zurich, ch", "Springfeld", "s", "ky", "Киев, UA", "x"] {
        for prefix in [false, true] {
            o.prefix = prefix
            var n = 0
            let st2 = geoloc_search_find(s, q, &o, &results, 10, &n)
            expectMessage(st2)
            precondition(st2 == GEOLOC_OK)
            for i in 0..<n {
                precondition(results[i].index < 3)
                var r = results[i]
                _ = readText({ geoloc_search_text(s, &r, GEOLOC_SEARCH_MATCHED_NAME, $0, $1, $2) })
            }
        }
    }
    geoloc_search_destroy(s)
    return st
}

