// The vocabulary every thunk speaks (check, call, map): the per-thread last-error message and
// status mapping; in, required pointers, input arrays, byte spans, caller text, enum values,
// coordinates and the load options and limits; out, caller text, caller bytes and caller arrays
// under the header's buffer contract, and the non-finite check every result passes through
// (`deliver`, `CallerArray.fill`, `finiteAll`). No logic of the library lives here.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CGeoLoc
@_spi(CABI) import GeoLoc

/// The per-thread slot that holds the last failure's message (a malloc'd C string, freed when it
/// is replaced or when the thread ends).
private let errorKey: pthread_key_t = {
    var key = pthread_key_t()
    _ = pthread_key_create(&key) { free($0) }
    return key
}()

/// The longest message kept, in bytes: every message names its input through `quote` (60
/// characters), so this only bounds what a thread keeps if one does not.
let maxErrorBytes = 1024

/// Records `message` as this thread's last error, cut to `maxErrorBytes` at a character boundary.
func setLastError(_ message: String) {
    let old = pthread_getspecific(errorKey)
    var message = message
    if message.utf8.count > maxErrorBytes {
        var bytes = Array(message.utf8.prefix(maxErrorBytes - 3))
        // Drop a character cut in two: its continuation bytes, then its lead byte.
        while let last = bytes.last, last & 0xC0 == 0x80 { bytes.removeLast() }
        if let last = bytes.last, last >= 0xC0 { bytes.removeLast() }
        message = String(decoding: bytes, as: UTF8.self) + "..."
    }
    let copy = strdup(message)
    _ = pthread_setspecific(errorKey, copy)
    free(old)
}

/// This thread's last error, or nil.
func lastErrorPointer() -> UnsafePointer<CChar>? {
    pthread_getspecific(errorKey).map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) }
}

@inline(__always)
func status(_ code: GeoLocError.Code) -> geoloc_status {
    geoloc_status(rawValue: UInt32(code.rawValue))
}

/// Records the error's message and returns its status.
func fail(_ error: GeoLocError) -> geoloc_status {
    setLastError(error.message)
    return status(error.code)
}

func fail(_ code: GeoLocError.Code, _ message: String) -> geoloc_status {
    fail(GeoLocError(code, message))
}

/// The pointer to a static string's first byte, as C text. Swift emits string literals
/// NUL-terminated, so this is a valid C string for the life of the process.
@inline(__always)
func cString(_ s: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// Reads C text as a Swift string, refusing invalid UTF-8.
func readText(_ p: UnsafePointer<CChar>?, _ what: String) throws(GeoLocError) -> String {
    guard let p else { throw GeoLocError(.nullArgument, "\(what) is NULL") }
    guard let s = String(validatingCString: p) else {
        throw GeoLocError(.invalidUTF8, "\(what) is not valid UTF-8")
    }
    return s
}

// MARK: - Required pointers, input arrays and byte spans

/// A pointer the call cannot do without: NULL is `.nullArgument` ("out is NULL").
@inline(__always)
func required<T>(_ p: UnsafeMutablePointer<T>?, _ what: @autoclosure () -> String) throws(GeoLocError) -> UnsafeMutablePointer<T> {
    guard let p else { throw GeoLocError(.nullArgument, "\(what()) is NULL") }
    return p
}

/// An input pointer the call cannot do without: NULL is `.nullArgument`.
@inline(__always)
func required<T>(_ p: UnsafePointer<T>?, _ what: @autoclosure () -> String) throws(GeoLocError) -> UnsafePointer<T> {
    guard let p else { throw GeoLocError(.nullArgument, "\(what()) is NULL") }
    return p
}

/// An input array of `n` elements, in the header's order: the count first (above
/// GEOLOC_MAX_COUNT is `.countTooLarge`, naming `count`), then the pointer, which may be NULL
/// only when the count is 0 ("points is NULL with n = 3").
@inline(__always)
func inputArray<T>(
    _ p: UnsafePointer<T>?, _ n: Int, _ what: @autoclosure () -> String, count countName: @autoclosure () -> String = "n"
) throws(GeoLocError) -> UnsafeBufferPointer<T> {
    let n = try checkCount(n, countName())
    if n != 0 && p == nil { throw GeoLocError(.nullArgument, "\(what()) is NULL with \(countName()) = \(n)") }
    return UnsafeBufferPointer(start: n == 0 ? nil : p, count: n)
}

/// An output array of `n` elements (`n` already counted, by `checkCount` or `inputArray`), by the
/// same rule: the pointer may be NULL only when the count is 0 ("out is NULL with n = 3").
@inline(__always)
func outputArray<T>(
    _ p: UnsafeMutablePointer<T>?, _ n: Int, _ what: @autoclosure () -> String, count countName: @autoclosure () -> String = "n"
) throws(GeoLocError) -> UnsafeMutableBufferPointer<T> {
    if n != 0 && p == nil { throw GeoLocError(.nullArgument, "\(what()) is NULL with \(countName()) = \(n)") }
    return UnsafeMutableBufferPointer(start: n == 0 ? nil : p, count: n)
}

/// A caller's coordinate array (already counted by `inputArray`), every point checked: the
/// first bad one is named ("points[7]: latitude 91 is outside [-90, 90]").
@inline(__always)
func coordinates(_ b: UnsafeBufferPointer<geoloc_coord>, _ what: String) throws(GeoLocError) -> [Coordinate] {
    try CoordinateArray.coordinates(degrees(b.baseAddress, b.count), count: b.count, name: what)
}

/// `len` bytes from the caller (no NUL needed): NULL only with `len` 0; a length above Int.max
/// (a size_t no memory holds) is `.countTooLarge`.
@inline(__always)
func byteSpan(_ p: UnsafeRawPointer?, _ len: Int, _ what: @autoclosure () -> String) throws(GeoLocError) -> UnsafeRawBufferPointer {
    if p == nil && len != 0 { throw GeoLocError(.nullArgument, "\(what()) is NULL with len = \(UInt(bitPattern: len))") }
    guard len >= 0 else { throw GeoLocError(.countTooLarge, "len \(UInt(bitPattern: len)) is larger than memory") }
    return UnsafeRawBufferPointer(start: len == 0 ? nil : p, count: len)
}

/// A size_t index checked against a count (size_t arrives as Int: above Int.max is negative):
/// "place index 7 is not below the count 3".
func index(_ i: Int, _ count: Int, _ what: String) throws(GeoLocError) -> Int {
    guard i >= 0 && i < count else {
        throw GeoLocError(.outOfRange, "\(what) index \(UInt(bitPattern: i)) is not below the count \(count)")
    }
    return i
}

// MARK: - Caller text and bytes

/// The header's buffer contract for `size` bytes of output (`terminated`: text, whose size
/// counts its NUL): *needed is always set; when it does not fit, "" is written to text buffers
/// (if cap > 0) and the status says so; `copy` writes the bytes when they fit.
private func writeBuffer(
    size: Int, terminated: Bool, _ buf: UnsafeMutableRawPointer?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?,
    _ what: String, _ copy: (UnsafeMutableRawPointer) -> Void
) -> geoloc_status {
    guard let needed else { return fail(.nullArgument, "needed is NULL") }
    needed.pointee = size
    if cap != 0 && buf == nil { return fail(.nullArgument, "buf is NULL but cap is \(UInt(bitPattern: cap))") }
    // size_t arrives as Int: a capacity above Int.max is negative here and is certainly enough.
    guard cap < 0 || cap >= size, let buf else {
        if terminated, let buf, cap != 0 { buf.storeBytes(of: 0, as: UInt8.self) }
        if size == 0 { return GEOLOC_OK }
        return fail(.bufferTooSmall, "\(what) needs \(size) bytes but the buffer holds \(cap)")
    }
    copy(buf)
    return GEOLOC_OK
}

/// The (buf, cap, needed) of a text or bytes output, checked before any work, as the header
/// orders failures (a NULL pointer first): `needed` is required, `buf` may be NULL only with
/// cap 0.
@inline(__always)
func outputBuffer<P>(_ buf: P?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?) throws(GeoLocError) {
    _ = try required(needed, "needed")
    if cap != 0 && buf == nil { throw GeoLocError(.nullArgument, "buf is NULL but cap is \(UInt(bitPattern: cap))") }
}

/// The shape of a function whose result is text, check, call, map: the buffer's pointers first,
/// then `text` (which checks the other arguments and computes), then the text written under the
/// buffer contract.
func textResult(
    _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?,
    _ text: () throws(GeoLocError) -> String
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        try outputBuffer(buf, cap, needed)
        return writeText(try text(), buf, cap, needed)
    }
}

/// The shape of a look-up whose answer is static text: the out-pointer, then the input text,
/// then `find`; no answer is `.notFound` with `missing`'s message.
func staticTextResult(
    _ input: UnsafePointer<CChar>?, _ inputName: String, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ outName: String, missing: (String) -> String, _ find: (String) -> StaticString?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let out = try required(out, outName)
        let text = try readText(input, inputName)
        guard let found = find(text) else { throw GeoLocError(.notFound, missing(text)) }
        try deliver(cString(found), to: out, outName)
        return GEOLOC_OK
    }
}

/// Writes `text` and its NUL to a caller-owned buffer under the header's buffer contract:
/// *needed is always set; when it does not fit, "" is written (if cap > 0) and the status says so.
func writeText(
    _ text: String, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    var text = text
    return text.withUTF8 { writeText(utf8: UnsafeRawBufferPointer($0), buf, cap, needed) }
}

/// Writes UTF-8 bytes and a NUL to a caller-owned buffer, as `writeText` does for a String.
func writeText(
    utf8 text: UnsafeRawBufferPointer, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?,
    _ what: String = "the text"
) -> geoloc_status {
    writeBuffer(size: text.count + 1, terminated: true, buf.map { UnsafeMutableRawPointer($0) }, cap, needed, what) { dst in
        if let base = text.baseAddress, text.count > 0 { dst.copyMemory(from: base, byteCount: text.count) }
        dst.storeBytes(of: 0, toByteOffset: text.count, as: UInt8.self)
    }
}

/// Writes several texts, each with its NUL, one after another (the bulk text accessors): the
/// texts are asked for twice, once to size them and once to copy them.
func writeTexts(
    _ count: Int, _ text: (Int) -> String, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?, _ what: String = "the texts"
) -> geoloc_status {
    var size = 0
    for i in 0..<count { size += text(i).utf8.count + 1 }
    return writeBuffer(size: size, terminated: true, buf.map { UnsafeMutableRawPointer($0) }, cap, needed, what) { dst in
        var at = 0
        for i in 0..<count {
            var s = text(i)
            s.withUTF8 { bytes in
                if let base = bytes.baseAddress { (dst + at).copyMemory(from: base, byteCount: bytes.count) }
                at += bytes.count
            }
            dst.storeBytes(of: 0, toByteOffset: at, as: UInt8.self)
            at += 1
        }
    }
}

/// Writes bytes (no NUL: saved states) to a caller-owned buffer under the buffer contract.
func writeBytes(
    _ bytes: [UInt8], _ buf: UnsafeMutableRawPointer?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?,
    _ what: String = "the state"
) -> geoloc_status {
    writeBuffer(size: bytes.count, terminated: false, buf, cap, needed, what) { dst in
        bytes.withUnsafeBytes { if let base = $0.baseAddress { dst.copyMemory(from: base, byteCount: $0.count) } }
    }
}

// MARK: - Caller arrays

/// A caller-owned array for a variable number of results (out, cap, and the count the results
/// need, `needed` or `count` in the header), checked before any work: the count pointer is
/// required, `out` may be NULL only with cap 0, cap is a count.
struct CallerArray<Element: CResult> {
    let out: UnsafeMutablePointer<Element>?
    let cap: Int
    let needed: UnsafeMutablePointer<Int>

    init(
        _ out: UnsafeMutablePointer<Element>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?,
        out outName: String = "out", cap capName: String = "cap", needed neededName: String = "needed"
    ) throws(GeoLocError) {
        self.needed = try required(needed, neededName)
        if out == nil && cap != 0 { throw GeoLocError(.nullArgument, "\(outName) is NULL but \(capName) is \(UInt(bitPattern: cap))") }
        self.cap = try checkCount(cap, capName)
        self.out = out
    }

    /// Hands `count` results to the caller: each passes the non-finite check first (nothing is
    /// written when one fails), then *needed is set to `count`; when they do not all fit, the
    /// first `cap` are written (`partial`) or none, and the status is `.bufferTooSmall` with
    /// "`subject` but the array holds `cap`".
    func fill(
        _ count: Int, partial: Bool, _ subject: @autoclosure () -> String, _ element: (Int) -> Element
    ) throws(GeoLocError) -> geoloc_status {
        for i in 0..<count { try checkFinite(element(i), "out[\(i)]") }
        needed.pointee = count
        let n = count <= cap ? count : (partial ? cap : 0)
        if n > 0, let out {
            for i in 0..<n { out[i] = element(i) }
        }
        if count > cap { throw GeoLocError(.bufferTooSmall, "\(subject()) but the array holds \(cap)") }
        return GEOLOC_OK
    }
}

// MARK: - The non-finite check

/// A value a thunk hands to its caller, with its rule on doubles: no result is ever ±infinity,
/// and NaN only in a field the header documents as "NaN when absent". Every type a thunk writes
/// conforms (a new result type does not compile until it says its rule), and every write goes
/// through `deliver` or `CallerArray.fill`, which apply it.
protocol CResult {
    /// The first field that breaks the rule and its value, or nil.
    var nonFinite: (field: String, value: Double)? { get }
}

/// Whether `v` is finite, or NaN where NaN means "absent".
@inline(__always)
private func bad(_ v: Double, absentAllowed: Bool = false) -> Bool {
    !(v.isFinite || (absentAllowed && v.isNaN))
}

extension Double: CResult {
    var nonFinite: (field: String, value: Double)? { isFinite ? nil : ("", self) }
}
extension Int: CResult { var nonFinite: (field: String, value: Double)? { nil } }
extension Int64: CResult { var nonFinite: (field: String, value: Double)? { nil } }
extension Bool: CResult { var nonFinite: (field: String, value: Double)? { nil } }
extension UInt16: CResult { var nonFinite: (field: String, value: Double)? { nil } }
extension OpaquePointer: CResult { var nonFinite: (field: String, value: Double)? { nil } }
extension UnsafePointer: CResult { var nonFinite: (field: String, value: Double)? { nil } }
extension Optional: CResult where Wrapped: CResult { var nonFinite: (field: String, value: Double)? { self?.nonFinite } }

extension geoloc_coord: CResult {
    var nonFinite: (field: String, value: Double)? {
        bad(lat) ? ("lat", lat) : bad(lon) ? ("lon", lon) : nil
    }
}

// The rule of each result struct of the header (section by section). NaN is allowed only in
// the fields the header documents as "NaN when absent"; INFINITY only where it documents it.

extension geoloc_leg: CResult {
    var nonFinite: (field: String, value: Double)? { bad(distance) ? ("distance", distance) : nil }
}
extension geoloc_mileage_result: CResult {
    var nonFinite: (field: String, value: Double)? {
        bad(total) ? ("total", total) : bad(rounded) ? ("rounded", rounded) : nil
    }
}
extension geoloc_order_result: CResult {
    var nonFinite: (field: String, value: Double)? {
        bad(total) ? ("total", total) : bad(given_total) ? ("given_total", given_total) : bad(saving) ? ("saving", saving) : nil
    }
}
extension geoloc_stop_visit: CResult {
    var nonFinite: (field: String, value: Double)? {
        if bad(arrival) { return ("arrival", arrival) }
        if bad(wait) { return ("wait", wait) }
        if bad(departure) { return ("departure", departure) }
        return bad(lateness) ? ("lateness", lateness) : nil
    }
}
extension geoloc_schedule_result: CResult {
    var nonFinite: (field: String, value: Double)? {
        bad(travel) ? ("travel", travel) : bad(end_time) ? ("end_time", end_time) : bad(lateness) ? ("lateness", lateness) : nil
    }
}
extension geoloc_fix: CResult {
    /// time NaN: a track point without a time (geoloc_track_points, since 0.4).
    var nonFinite: (field: String, value: Double)? {
        if bad(lat) { return ("lat", lat) }
        if bad(lon) { return ("lon", lon) }
        if bad(time, absentAllowed: true) { return ("time", time) }
        if bad(accuracy_m) { return ("accuracy_m", accuracy_m) }
        if bad(speed_mps, absentAllowed: true) { return ("speed_mps", speed_mps) }
        if bad(course_deg, absentAllowed: true) { return ("course_deg", course_deg) }
        if bad(altitude_m, absentAllowed: true) { return ("altitude_m", altitude_m) }
        return nil
    }
}
extension geoloc_filter_options: CResult {
    /// INFINITY turns max_accuracy_m and max_speed_mps off.
    var nonFinite: (field: String, value: Double)? {
        if max_accuracy_m.isNaN { return ("max_accuracy_m", max_accuracy_m) }
        if bad(distance_filter_m) { return ("distance_filter_m", distance_filter_m) }
        if max_speed_mps.isNaN { return ("max_speed_mps", max_speed_mps) }
        if bad(stop_radius_m) { return ("stop_radius_m", stop_radius_m) }
        if bad(stop_time_s) { return ("stop_time_s", stop_time_s) }
        return nil
    }
}
extension geoloc_monitor_options: CResult {
    var nonFinite: (field: String, value: Double)? {
        if bad(accuracy_factor) { return ("accuracy_factor", accuracy_factor) }
        if bad(enter_margin_m) { return ("enter_margin_m", enter_margin_m) }
        if bad(exit_margin_m) { return ("exit_margin_m", exit_margin_m) }
        if bad(loitering_time_s) { return ("loitering_time_s", loitering_time_s) }
        return nil
    }
}
extension geoloc_geofence_event: CResult {
    var nonFinite: (field: String, value: Double)? { bad(time) ? ("time", time) : nil }
}
extension geoloc_track_stats: CResult {
    var nonFinite: (field: String, value: Double)? {
        let fields = [
            ("length_m", length_m), ("duration_s", duration_s), ("moving_time_s", moving_time_s),
            ("average_speed_mps", average_speed_mps), ("moving_speed_mps", moving_speed_mps),
            ("max_speed_mps", max_speed_mps), ("elevation_gain_m", elevation_gain_m), ("elevation_loss_m", elevation_loss_m),
        ]
        return fields.first { bad($0.1) }
    }
}
extension geoloc_track_segment: CResult {
    var nonFinite: (field: String, value: Double)? { nil }
}
extension geoloc_segment_stats: CResult {
    /// start_time and end_time are NaN when no point has a time.
    var nonFinite: (field: String, value: Double)? {
        if let s = stats.nonFinite { return ("stats." + s.field, s.value) }
        if bad(timed_length_m) { return ("timed_length_m", timed_length_m) }
        if bad(start_time, absentAllowed: true) { return ("start_time", start_time) }
        if bad(end_time, absentAllowed: true) { return ("end_time", end_time) }
        return nil
    }
}
extension geoloc_timezone: CResult { var nonFinite: (field: String, value: Double)? { nil } }
extension geoloc_locality: CResult {
    var nonFinite: (field: String, value: Double)? {
        bad(distance_m) ? ("distance_m", distance_m) : bad(nearest_distance_m) ? ("nearest_distance_m", nearest_distance_m)
            : bad(reach_m) ? ("reach_m", reach_m) : nil
    }
}
extension geoloc_stay_point: CResult {
    var nonFinite: (field: String, value: Double)? {
        if let c = center.nonFinite { return ("center." + c.field, c.value) }
        return bad(arrival) ? ("arrival", arrival) : bad(departure) ? ("departure", departure) : nil
    }
}

/// Checks a result: `.notFinite` naming it and the field ("result.total is inf, not a finite
/// number").
@inline(__always)
func checkFinite<T: CResult>(_ value: T, _ what: @autoclosure () -> String) throws(GeoLocError) {
    if let (field, v) = value.nonFinite {
        let name = field.isEmpty ? what() : what() + "." + field
        throw GeoLocError(.notFinite, "\(name) would be \(show(v)), not a finite number")
    }
}

/// Writes a result through a required out-pointer after the non-finite check: on failure
/// nothing is written.
@inline(__always)
func deliver<T: CResult>(_ value: T, to out: UnsafeMutablePointer<T>, _ what: @autoclosure () -> String = "out") throws(GeoLocError) {
    try checkFinite(value, what())
    out.pointee = value
}

/// Writes a result through an optional out-pointer (NULL: not asked for) after the check.
@inline(__always)
func deliver<T: CResult>(_ value: T, toOptional out: UnsafeMutablePointer<T>?, _ what: @autoclosure () -> String) throws(GeoLocError) {
    try checkFinite(value, what())
    out?.pointee = value
}

/// The non-finite check over results a kernel wrote into the caller's array directly (the
/// batch distances): `.notFinite` naming the first bad one. (The array then holds the results:
/// the header says so where this applies.)
func finiteAll(_ values: UnsafeBufferPointer<Double>, _ what: String) throws(GeoLocError) {
    for (i, v) in values.enumerated() where !v.isFinite {
        throw GeoLocError(.notFinite, "\(what)[\(i)] would be \(show(v)), not a finite number")
    }
}

// MARK: - Load options and limits

/// The options and limits of a load (Core's `LoadOptions`), checked: NULL options or limits
/// mean the defaults; a zero limit its default; limit fields past limits->struct_size (a caller
/// compiled against an older header) their defaults. Limits are checked first (their
/// struct_size), then the option texts' UTF-8.
func loadOptions(
    _ options: UnsafePointer<geoloc_load_options>?, _ limits: UnsafePointer<geoloc_load_limits>? = nil
) throws(GeoLocError) -> LoadOptions {
    var o = LoadOptions()
    if let p = limits {
        let size = p.pointee.struct_size
        // size_t arrives as Int: above Int.max is negative, and certainly as large as the struct.
        guard size < 0 || size >= MemoryLayout<Int>.size else {
            throw GeoLocError(
                .invalidArgument, "limits->struct_size \(size) is smaller than a size_t; set it to sizeof(geoloc_load_limits)")
        }
        func field(_ path: KeyPath<geoloc_load_limits, Int>, _ fallback: Int) -> Int {
            let offset = MemoryLayout<geoloc_load_limits>.offset(of: path)!
            let v = size < 0 || size >= offset + MemoryLayout<Int>.size ? p.pointee[keyPath: path] : 0
            // SIZE_MAX and anything above Int.max mean "no bound".
            return v == 0 ? fallback : v < 0 ? Int.max : v
        }
        o.maxIssues = field(\.max_issues, LoadOptions.defaultMaxIssues)
        o.maxPlaces = field(\.max_places, LoadOptions.defaultMaxPlaces)
        o.maxBytes = field(\.max_bytes, LoadOptions.defaultMaxBytes)
        o.maxRecords = field(\.max_records, LoadOptions.defaultMaxRecords)
    }
    guard let p = options else { return o }
    let c = p.pointee
    o.strict = c.strict
    o.latitudeColumn = try optionalText(c.latitude_column, "options->latitude_column")
    o.longitudeColumn = try optionalText(c.longitude_column, "options->longitude_column")
    o.idColumn = try optionalText(c.id_column, "options->id_column")
    o.nameColumn = try optionalText(c.name_column, "options->name_column")
    o.delimiter = c.delimiter == 0 ? nil : UInt8(bitPattern: c.delimiter)
    return o
}

/// Runs a throwing body and maps its error to a status.
@inline(__always)
func guarded(_ body: () throws(GeoLocError) -> geoloc_status) -> geoloc_status {
    do {
        return try body()
    } catch {
        return fail(error)
    }
}

/// Maps a C enum's raw value to a Swift enum, or fails with a message naming the argument.
func decode<E: RawRepresentable>(_ raw: UInt32, as: E.Type, _ what: String) throws(GeoLocError) -> E
where E.RawValue == Int32 {
    guard raw <= UInt32(Int32.max), let value = E(rawValue: Int32(raw)) else {
        throw GeoLocError(.invalidArgument, "\(what) \(raw) is not a known value")
    }
    return value
}

/// The Earth model and unit arguments of a measuring call, checked: both known values.
func measure(_ model: geoloc_model, _ unit: geoloc_unit) throws(GeoLocError) -> (EarthModel, DistanceUnit) {
    let m = try decode(model.rawValue, as: EarthModel.self, "model")
    let u = try decode(unit.rawValue, as: DistanceUnit.self, "unit")
    return (m, u)
}

/// A C coordinate, checked (NaN, infinity, latitude beyond ±90) and its longitude reduced.
@inline(__always)
func coordinate(_ c: geoloc_coord) throws(GeoLocError) -> Coordinate {
    try Coordinate(latitude: c.lat, longitude: c.lon)
}

/// A C coordinate, checked as `coordinate(_:)`, with a message that names it: "a: latitude 91 is
/// outside [-90, 90]" for `name` "a" (the parameter's name in the header).
@inline(__always)
func coordinate(_ c: geoloc_coord, _ name: StaticString) throws(GeoLocError) -> Coordinate {
    try Coordinate(latitude: c.lat, longitude: c.lon, named: name)
}

/// A C array of n geoloc_coord seen as 2n doubles.
@inline(__always)
func degrees(_ p: UnsafePointer<geoloc_coord>?, _ n: Int) -> UnsafeBufferPointer<Double> {
    guard let p, n > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: Double.self), count: 2 * n)
}

/// An optional C string: nil stays nil, anything else must be valid UTF-8.
func optionalText(_ p: UnsafePointer<CChar>?, _ what: @autoclosure () -> String) throws(GeoLocError) -> String? {
    guard let p else { return nil }
    guard let s = String(validatingCString: p) else {
        throw GeoLocError(.invalidUTF8, "\(what()) is not valid UTF-8")
    }
    return s
}

/// Copies short ASCII text into a fixed char array of a result struct (a C `char[N]`, imported
/// as a tuple), cut to fit and NUL-terminated.
func copyText<T>(_ text: String, into field: inout T) {
    withUnsafeMutableBytes(of: &field) { bytes in
        let utf8 = Array(text.utf8.prefix(bytes.count - 1))
        for (i, b) in utf8.enumerated() { bytes[i] = b }
        bytes[utf8.count] = 0
    }
}

// MARK: - Fixes and a track's segments

/// n fixes from C, checked for count and pointer (the fixes themselves are checked by the core).
func fixBuffer(_ fixes: UnsafePointer<geoloc_fix>?, _ n: Int, _ name: String = "fixes") throws(GeoLocError) -> FixBuffer {
    let n = try checkCount(n, "n")
    guard n == 0 || fixes != nil else { throw GeoLocError(.nullArgument, "\(name) is NULL with n = \(n)") }
    return FixBuffer(fixes.map { UnsafeRawPointer($0).assumingMemoryBound(to: Double.self) }, count: n)
}

/// A track given as its fixes, its segment starts and the Earth model that measures it (fixes, n,
/// starts, n_segments, model), checked in the header's order: the fixes' count and pointer,
/// n_segments and starts, the model, every start, then every fix (a time may be NaN: a point
/// without one). The segments: k ascending starts give segment j = starts[j] ..< starts[j + 1],
/// the last one to n; k = 0 gives one segment of all n.
func segmentedFixes(
    _ fixes: UnsafePointer<geoloc_fix>?, _ n: Int, _ starts: UnsafePointer<Int>?, _ nSegments: Int, _ model: geoloc_model
) throws(GeoLocError) -> (fixes: FixBuffer, segments: [Range<Int>], model: EarthModel) {
    let b = try fixBuffer(fixes, n)
    let k = try checkCount(nSegments, "n_segments")
    guard k == 0 || starts != nil else { throw GeoLocError(.nullArgument, "starts is NULL with n_segments = \(k)") }
    let m = try decode(model.rawValue, as: EarthModel.self, "model")
    var ranges: [Range<Int>] = []
    if k > 0, let starts {
        ranges.reserveCapacity(k)
        for j in 0..<k {
            let s = starts[j]
            let e = j + 1 < k ? starts[j + 1] : b.count
            guard s >= 0 && s <= b.count else {
                throw GeoLocError(.outOfRange, "starts[\(j)] \(UInt(bitPattern: s)) is past n (\(b.count))")
            }
            guard e >= s && e <= b.count else {
                throw GeoLocError(.outOfRange, "starts[\(j + 1)] \(UInt(bitPattern: e)) is before starts[\(j)] \(s) or past n")
            }
            ranges.append(s..<e)
        }
    } else {
        ranges = [0..<b.count]
    }
    try b.check("fixes", absentTimes: true)
    return (b, ranges, m)
}
