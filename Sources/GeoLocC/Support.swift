// Plumbing shared by every thunk: the per-thread last-error message, status mapping, text in and
// out of caller-owned buffers. No logic of the library lives here.
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

/// Writes `text` and its NUL to a caller-owned buffer under the header's buffer contract:
/// *needed is always set; when it does not fit, "" is written (if cap > 0) and the status says so.
func writeText(
    _ text: String, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guard let needed else { return fail(.nullArgument, "needed is NULL") }
    let size = text.utf8.count + 1
    needed.pointee = size
    if cap != 0 && buf == nil { return fail(.nullArgument, "buf is NULL but cap is \(UInt(bitPattern: cap))") }
    // size_t arrives as Int: a capacity above Int.max is negative here and is certainly enough.
    guard cap < 0 || cap >= size, let buf else {
        if let buf, cap != 0 { buf.pointee = 0 }
        return fail(.bufferTooSmall, "the text needs \(size) bytes but the buffer holds \(cap)")
    }
    text.utf8.withContiguousStorageIfAvailable { bytes in
        UnsafeMutableRawPointer(buf).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
    } ?? {
        var i = 0
        for b in text.utf8 { buf[i] = CChar(bitPattern: b); i += 1 }
    }()
    buf[size - 1] = 0
    return GEOLOC_OK
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
