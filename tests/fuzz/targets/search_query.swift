// libFuzzer target: place search queries (geoloc_search_find and geoloc_search_find_many) on a
// small gazetteer with alternate names, every option varied by the first bytes. Checks what holds
// for any query: a failure has a message; results are at most the limit, scored in [0, 1] and
// at least min_score, best first, of places that exist, with readable texts; the batch form gives
// the same answers. Built by tests/fuzz/run.
import CGeoLoc

#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size >= 2 else { return 0 }
    let flags = data[0]
    var o = geoloc_search_options()
    geoloc_search_options_default(&o)
    o.limit = Int(flags & 7) + 1
    o.min_score = Double(data[1] & 0x0F) / 15
    o.prefix = flags & 0x08 != 0
    o.max_edits = Int32(flags >> 4 & 3) - 1
    if o.max_edits > 2 { o.max_edits = 2 }
    if flags & 0x40 != 0 { o.has_near = true; o.near = geoloc_coord(lat: 47.4, lon: 8.5) }
    let query = Array(UnsafeBufferPointer(start: data + 2, count: size - 2)).map { CChar(bitPattern: $0) } + [0]
    let country: [CChar] = Array("ch".utf8CString)
    var results = [geoloc_search_result](repeating: geoloc_search_result(), count: 8)
    var count = 0
    let st = country.withUnsafeBufferPointer { c -> geoloc_status in
        if flags & 0x80 != 0 { o.country = c.baseAddress }
        return geoloc_search_find(fuzzSearch, query, &o, &results, 8, &count)
    }
    o.country = nil
    expectMessage(st)
    guard st == GEOLOC_OK else { return 0 }
    precondition(count <= o.limit, "\(count) results for limit \(o.limit)")
    for i in 0..<count {
        let r = results[i]
        precondition(r.index < 3 && r.score >= o.min_score && r.score <= 1 && r.score.isFinite, "bad result \(r)")
        if i > 0 { precondition(results[i - 1].score >= r.score, "results out of order") }
        expectCoordinate(r.coord)
        for f in 0...5 {
            var rr = r
            precondition(readText({ geoloc_search_text(fuzzSearch, &rr, geoloc_search_field(rawValue: UInt32(f)), $0, $1, $2) }) != nil)
        }
    }
    // The batch form, the query as a fixed-width field.
    if flags & 0x40 == 0 && flags & 0x80 == 0 {
        var many = [geoloc_search_result](repeating: geoloc_search_result(), count: 8)
        var counts = [Int](repeating: 0, count: 1)
        let width = query.count - 1
        let st2 = query.withUnsafeBufferPointer { geoloc_search_find_many(fuzzSearch, $0.baseAddress, width, 1, &o, &many, 8, &counts) }
        // A NUL inside the input ends the C string early in both forms alike.
        precondition(st2 == GEOLOC_OK && counts[0] == count, "the batch form differs")
        for i in 0..<count { precondition(many[i].index == results[i].index && many[i].score == results[i].score) }
    }
    return 0
}

/// A search over three towns with alternate names, built once.
private let fuzzSearch: OpaquePointer = {
    let dir = "/tmp/geoloc-fuzz-search-\(getpid())"
    mkdir(dir, 0o700)
    let towns = dir + "/towns.csv", names = dir + "/names.tsv", countries = dir + "/countries.tsv"
    writeFile(towns, "id,name,lat,lon,country_code,admin1_code,admin1_name,population\n"
        + "2657896,Zürich,47.37,8.54,CH,ZH,Zurich,415367\n703448,Kyiv,50.45,30.52,UA,12,Kyiv City,2952301\n"
        + "4250542,Springfield,39.8,-89.64,US,IL,Illinois,114394\n")
    writeFile(names, "703448\tKiev\tКиїв\tКиев\tキーウ\n2657896\tZurich\tZúrich\tЦюрих\n")
    writeFile(countries, "CH\tCHE\tSwitzerland\nUA\tUKR\tUkraine\n")
    var g: OpaquePointer?
    var s: OpaquePointer?
    precondition(geoloc_gazetteer_open(towns, &g) == GEOLOC_OK)
    precondition(geoloc_search_build(g, names, countries, &s) == GEOLOC_OK)
    geoloc_gazetteer_destroy(g)
    return s!
}()

private func writeFile(_ path: String, _ text: String) {
    let f = fopen(path, "wb")!
    _ = text.utf8CString.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count - 1, f) }
    fclose(f)
}
