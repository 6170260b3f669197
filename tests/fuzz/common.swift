// What every fuzz target shares: the checks of the C door's promises that hold for any input
// (a failure has a message; text out is NUL-terminated with *needed = strlen + 1; coordinates
// come back in range), C string helpers, and reading the data file a target edits. Linked into
// each target by tests/fuzz/run.
import CGeoLoc

#if canImport(Glibc)
import Glibc
#endif

/// A failed call left a message; a successful one is checked by the caller.
@inline(__always)
func expectMessage(_ st: geoloc_status) {
    if st != GEOLOC_OK { precondition(strlen(geoloc_last_error()) > 0, "status \(st.rawValue) without a message") }
}

/// Reads text through the caller-owned buffer contract twice (size query, then the text) and
/// checks it: *needed is always set, the text is strlen(needed - 1) long (no NUL inside) and
/// valid UTF-8. Returns the text, or nil when the call failed for a reason other than size.
@discardableResult
func readText(_ call: (UnsafeMutablePointer<CChar>?, Int, UnsafeMutablePointer<Int>) -> geoloc_status) -> String? {
    var needed = -1
    let st = call(nil, 0, &needed)
    if st != GEOLOC_E_BUFFER_TOO_SMALL {
        expectMessage(st)
        precondition(st != GEOLOC_OK, "a size query returned OK")
        return nil
    }
    precondition(needed >= 1, "needed \(needed) after a size query")
    var buf = [CChar](repeating: 0x7f, count: needed)
    var again = -1
    let st2 = call(&buf, buf.count, &again)
    precondition(st2 == GEOLOC_OK && again == needed, "the text did not fit the size it asked for")
    precondition(strlen(buf) == needed - 1, "text of \(needed - 1) bytes holds a NUL at \(strlen(buf))")
    let text = buf.withUnsafeBufferPointer { String(validatingCString: $0.baseAddress!) }
    precondition(text != nil, "text out is not valid UTF-8")
    return text
}

/// A coordinate a call returned: finite, latitude within ±90, longitude in [-180, 180).
@inline(__always)
func expectCoordinate(_ c: geoloc_coord) {
    precondition(c.lat.isFinite && abs(c.lat) <= 90 && c.lon >= -180 && c.lon < 180, "coordinate \(c) out of range")
}

/// Formatted coordinate text stays in range after rounding too.
func expectFormatted(_ c: geoloc_coord) {
    for style in [GEOLOC_COORD_COMPACT, GEOLOC_COORD_READABLE] {
        guard let text = readText({ geoloc_coord_format(c, style, $0, $1, $2) }) else {
            preconditionFailure("a checked coordinate did not format")
        }
        let lon = text.split(separator: ",").last.map { $0.drop { $0 == " " } } ?? ""
        precondition(!lon.hasPrefix("180."), "longitude written as \(lon)")
        var back = geoloc_coord()
        precondition(geoloc_coord_parse(text, &back) == GEOLOC_OK, "\(text) does not read back")
    }
}

/// Calls `body` with the strings as C strings (NUL-terminated copies).
func withArrayOfCStrings<R>(_ strings: [[CChar]], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    var storage = strings.map { s -> UnsafeMutablePointer<CChar> in
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: s.count)
        p.initialize(from: s, count: s.count)
        return p
    }
    defer { storage.forEach { $0.deallocate() }; storage.removeAll() }
    return body(storage.map { UnsafePointer($0) })
}

/// The input as one C string (cut at its first NUL, as C would read it).
func cText(_ data: UnsafePointer<UInt8>, _ size: Int) -> [CChar] {
    var text = UnsafeBufferPointer(start: data, count: size).map { CChar(bitPattern: $0) }
    text.append(0)
    return text
}

/// Every place of a loaded set reads back under the buffer contract, and the set answers
/// queries; the issues read back too; then the set is destroyed, and using it again is caught.
func exercise(_ places: OpaquePointer, attribute: [CChar]) {
    var count = 0, issues = 0, total = 0
    precondition(geoloc_places_count(places, &count) == GEOLOC_OK)
    precondition(geoloc_places_issue_count(places, &issues) == GEOLOC_OK)
    precondition(geoloc_places_issue_total(places, &total) == GEOLOC_OK && total >= issues)
    precondition(issues <= 1000, "more issues kept than the default limit")
    for i in 0..<min(count, 16) {
        var c = geoloc_coord()
        precondition(geoloc_places_coord(places, i, &c) == GEOLOC_OK)
        expectCoordinate(c)
        precondition(readText({ geoloc_places_name(places, i, $0, $1, $2) }) != nil)
        precondition(readText({ geoloc_places_id(places, i, $0, $1, $2) }) != nil)
        attribute.withUnsafeBufferPointer { a in
            _ = readText({ geoloc_places_attribute(places, i, a.baseAddress, $0, $1, $2) })
        }
    }
    for i in 0..<min(issues, 8) {
        var record = 0
        precondition(readText({ geoloc_places_issue(places, i, &record, $0, $1, $2) }) != nil)
    }
    var matches = [geoloc_match](repeating: geoloc_match(), count: 4)
    var n = 0
    expectMessage(geoloc_places_within(places, geoloc_coord(lat: 10, lon: 179), 5000, GEOLOC_MODEL_SPHERE,
                                       GEOLOC_UNIT_KILOMETERS, 0, &matches, matches.count, &n))
    expectMessage(geoloc_places_nearest(places, geoloc_coord(lat: -89, lon: 0), 3, GEOLOC_MODEL_WGS84,
                                        GEOLOC_UNIT_METERS, .infinity, &matches, matches.count, &n))
    geoloc_places_destroy(places)
    precondition(geoloc_places_count(places, &count) == GEOLOC_E_INVALID_ARGUMENT, "use after destroy not caught")
}

/// The bytes of the file at `path`; empty when it cannot be read (a target then fuzzes only the
/// bytes it is given).
func readFile(_ path: String) -> [UInt8] {
    guard let f = fopen(path, "rb") else { return [] }
    defer { fclose(f) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&chunk, 1, chunk.count, f)
        if n <= 0 { break }
        out.append(contentsOf: chunk[0..<n])
    }
    return out
}
