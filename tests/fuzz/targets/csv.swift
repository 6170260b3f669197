// libFuzzer target: the CSV place loader (geoloc_places_parse_csv). The first byte picks the
// options (strict, a delimiter, named columns) and the limits; the rest is the CSV text.
import CGeoLoc

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size >= 1 else { return 0 }
    let mode = data[0]
    let body = UnsafeRawPointer(data + 1).assumingMemoryBound(to: CChar.self)
    var options = geoloc_load_options()
    options.strict = mode & 1 != 0
    options.delimiter = [0, 59, 9, 124][Int(mode >> 1) & 3]  // default, ';', tab, '|'
    let named = mode & 8 != 0
    var limits = geoloc_load_limits(struct_size: MemoryLayout<geoloc_load_limits>.size,
                                    max_issues: Int(mode >> 4) & 3, max_places: Int(mode >> 6),
                                    max_bytes: 0, max_records: 0)  // 0: the defaults
    var places: OpaquePointer?
    let st = "lat".withCString { lat in
        "lon".withCString { lon in
            if named {
                options.latitude_column = lat
                options.longitude_column = lon
            }
            return geoloc_places_parse_limited(body, size - 1, GEOLOC_LOAD_CSV, &options, &limits, &places)
        }
    }
    expectMessage(st)
    guard st == GEOLOC_OK, let places else {
        precondition(places == nil, "a failed load wrote its output")
        return 0
    }
    if mode >> 6 != 0 {
        var n = 0
        precondition(geoloc_places_count(places, &n) == GEOLOC_OK && n <= Int(mode >> 6), "max_places not kept")
    }
    exercise(places, attribute: Array("name".utf8CString))
    return 0
}
