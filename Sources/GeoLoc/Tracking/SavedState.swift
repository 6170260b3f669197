// The byte form of saved tracking state (filters and geofence monitors): a 4-byte magic, a
// format version, little-endian fields, and a 64-bit FNV-1a checksum of everything before it.
// Restoring checks all of it and never trusts a length it has not checked against the bytes.

/// The format version of saved state; restoring refuses any other.
let savedStateVersion: UInt16 = 1

/// 64-bit FNV-1a.
struct FNV1a {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    @inline(__always) mutating func add(_ b: UInt8) {
        value = (value ^ UInt64(b)) &* 0x0000_0100_0000_01b3
    }
    mutating func add(_ v: UInt64) { for k in 0..<8 { add(UInt8(truncatingIfNeeded: v >> (8 * UInt64(k)))) } }
    mutating func add(_ d: Double) { add(d.bitPattern) }
    mutating func add(_ s: String) {
        add(UInt64(s.utf8.count))
        for b in s.utf8 { add(b) }
    }
}

struct StateWriter {
    var bytes: [UInt8] = []
    init(magic: [UInt8]) {
        bytes = magic
        u16(savedStateVersion)
    }
    mutating func u16(_ v: UInt16) { bytes.append(UInt8(v & 0xff)); bytes.append(UInt8(v >> 8)) }
    mutating func u32(_ v: UInt32) { for k in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(k)))) } }
    mutating func u64(_ v: UInt64) { for k in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(k)))) } }
    mutating func double(_ d: Double) { u64(d.bitPattern) }
    mutating func flag(_ b: Bool) { bytes.append(b ? 1 : 0) }
    mutating func finish() -> [UInt8] {
        var h = FNV1a()
        for b in bytes { h.add(b) }
        u64(h.value)
        return bytes
    }
}

struct StateReader {
    let bytes: UnsafeRawBufferPointer
    let what: String
    var at: Int
    let end: Int

    init(_ bytes: UnsafeRawBufferPointer, magic: [UInt8], what: String) throws(GeoLocError) {
        self.bytes = bytes
        self.what = what
        let n = bytes.count
        guard n >= magic.count + 2 + 8 else { throw GeoLocError(.parse, "\(what): \(n) bytes is too short") }
        for k in 0..<magic.count where bytes[k] != magic[k] {
            throw GeoLocError(.parse, "\(what): not a libgeoloc \(what) (wrong magic)")
        }
        let version = UInt16(bytes[magic.count]) | UInt16(bytes[magic.count + 1]) << 8
        guard version == savedStateVersion else {
            throw GeoLocError(.parse, "\(what): format version \(version), this library reads \(savedStateVersion)")
        }
        var h = FNV1a()
        for k in 0..<(n - 8) { h.add(bytes[k]) }
        var stored: UInt64 = 0
        for k in 0..<8 { stored |= UInt64(bytes[n - 8 + k]) << (8 * UInt64(k)) }
        guard stored == h.value else { throw GeoLocError(.parse, "\(what): checksum mismatch (corrupted)") }
        at = magic.count + 2
        end = n - 8
    }

    private mutating func take(_ k: Int) throws(GeoLocError) -> Int {
        guard end - at >= k else { throw GeoLocError(.parse, "\(what): truncated") }
        defer { at += k }
        return at
    }
    mutating func u8() throws(GeoLocError) -> UInt8 { bytes[try take(1)] }
    mutating func u32() throws(GeoLocError) -> UInt32 {
        let p = try take(4)
        var v: UInt32 = 0
        for k in 0..<4 { v |= UInt32(bytes[p + k]) << (8 * UInt32(k)) }
        return v
    }
    mutating func u64() throws(GeoLocError) -> UInt64 {
        let p = try take(8)
        var v: UInt64 = 0
        for k in 0..<8 { v |= UInt64(bytes[p + k]) << (8 * UInt64(k)) }
        return v
    }
    mutating func double() throws(GeoLocError) -> Double { Double(bitPattern: try u64()) }
    mutating func flag() throws(GeoLocError) -> Bool {
        let b = try u8()
        guard b <= 1 else { throw GeoLocError(.parse, "\(what): a flag byte is \(b)") }
        return b == 1
    }
    /// How many bytes are left (for checking a count before reserving space for it).
    var remaining: Int { end - at }
    func expectEnd() throws(GeoLocError) {
        guard at == end else { throw GeoLocError(.parse, "\(what): \(end - at) unexpected trailing bytes") }
    }
}
