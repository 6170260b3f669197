#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// What every text loader shares (place sets, tracks): UTF-8 validation and strict decimal
// numbers. Opening and reading files is Files.swift; options, limits and issues are Load.swift.

// MARK: - Bytes

/// A byte in ASCII lower case.
@inline(__always)
private func asciiLower(_ b: UInt8) -> UInt8 { b >= 65 && b <= 90 ? b + 32 : b }

/// Whether two strings are equal without regard to ASCII case.
func equalIgnoringASCIICase(_ a: String, _ b: String) -> Bool {
    let x = a.utf8, y = b.utf8
    return x.count == y.count && zip(x, y).allSatisfy { asciiLower($0) == asciiLower($1) }
}

/// The length of the well-formed UTF-8 sequence at `p[i]` (a non-ASCII lead byte), or 0 when
/// it is not one (overlong forms, surrogates and values past U+10FFFF are not).
@inline(__always)
func utf8SequenceLength(_ p: UnsafePointer<UInt8>, _ i: Int, _ end: Int) -> Int {
    let b = p[i]
    var need = 0
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch b {
    case 0xC2...0xDF: need = 1
    case 0xE0: need = 2; low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: need = 2
    case 0xED: need = 2; high = 0x9F
    case 0xF0: need = 3; low = 0x90
    case 0xF1...0xF3: need = 3
    case 0xF4: need = 3; high = 0x8F
    default: return 0
    }
    guard i + need < end else { return 0 }
    let second = p[i + 1]
    guard second >= low && second <= high else { return 0 }
    var k = 2
    while k <= need {
        guard p[i + k] & 0xC0 == 0x80 else { return 0 }
        k += 1
    }
    return need + 1
}

/// Whether `p[start..<end]` is well-formed UTF-8. ASCII runs are checked eight bytes at a time.
func isValidUTF8(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
    let raw = UnsafeRawPointer(p)
    var i = start
    while i < end {
        while i + 8 <= end && raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
            i += 8
        }
        guard i < end else { break }
        if p[i] < 0x80 {
            i += 1
            continue
        }
        let n = utf8SequenceLength(p, i, end)
        if n == 0 { return false }
        i += n
    }
    return true
}

/// Text from bytes known to be UTF-8 (invalid bytes, in a message, become U+FFFD).
@inline(__always)
func utf8Text(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> String {
    String(decoding: UnsafeBufferPointer(start: p + start, count: end - start), as: UTF8.self)
}

/// What a strict decimal read found.
enum DecimalRead {
    case value(Double)
    /// Nothing but blanks.
    case empty
    /// Not `[+|-]digits[.digits][(e|E)[+|-]digits]`.
    case malformed
    /// Well-formed, but too large for a Double.
    case infinite
}

/// Exact powers of ten, 10^0 through 10^22 (the largest exactly representable).
private let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

/// Reads a decimal number from `p[start..<end]` with the strict grammar of
/// `Coordinate(parsing:)`: `[+|-] digits [. digits] [(e|E) [+|-] digits]`, at least one digit
/// before or after the point, ASCII spaces and tabs around it allowed; no hex, `inf` or `nan`.
///
/// The value is correctly rounded: up to 19 significant digits and a power of ten within ±22
/// take Clinger's exact fast path (one correctly rounded multiplication or division of exact
/// values), anything else the standard library's parser.
func readDecimal(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> DecimalRead {
    var s = start
    var e = end
    while s < e && (p[s] == 32 || p[s] == 9) { s += 1 }
    while e > s && (p[e - 1] == 32 || p[e - 1] == 9) { e -= 1 }
    if s == e { return .empty }
    var i = s
    var negative = false
    if p[i] == 43 || p[i] == 45 {
        negative = p[i] == 45
        i += 1
    }
    var mantissa: UInt64 = 0
    var digits = 0  // significant digits accumulated (leading zeros not counted)
    var dropped = false  // digits beyond 19 were seen
    var scale = 0  // decimal exponent of the accumulated mantissa
    var seen = 0
    while i < e, p[i] &- 48 < 10 {
        let d = UInt64(p[i] &- 48)
        if digits < 19 {
            mantissa = mantissa * 10 + d
            if mantissa != 0 { digits += 1 }
        } else {
            dropped = true
            scale += 1
        }
        seen += 1
        i += 1
    }
    if i < e && p[i] == 46 {
        i += 1
        while i < e, p[i] &- 48 < 10 {
            let d = UInt64(p[i] &- 48)
            if digits < 19 {
                mantissa = mantissa * 10 + d
                if mantissa != 0 { digits += 1 }
                scale -= 1
            } else {
                dropped = true
            }
            seen += 1
            i += 1
        }
    }
    guard seen > 0 else { return .malformed }
    var exponent = 0
    if i < e && (p[i] == 101 || p[i] == 69) {
        i += 1
        var expNegative = false
        if i < e && (p[i] == 43 || p[i] == 45) {
            expNegative = p[i] == 45
            i += 1
        }
        var expDigits = 0
        while i < e, p[i] &- 48 < 10 {
            if exponent < 100_000 { exponent = exponent * 10 + Int(p[i] &- 48) }
            expDigits += 1
            i += 1
        }
        guard expDigits > 0 else { return .malformed }
        if expNegative { exponent = -exponent }
    }
    guard i == e else { return .malformed }
    let power = scale + exponent
    if !dropped && mantissa <= 1 << 53 && power >= -22 && power <= 22 {
        var v = Double(mantissa)
        if power < 0 { v /= exactPowersOfTen[-power] } else if power > 0 { v *= exactPowersOfTen[power] }
        return .value(negative ? -v : v)
    }
    if mantissa == 0 && !dropped { return .value(negative ? -0.0 : 0.0) }
    // The standard library's correctly rounded parser; it does not take a leading "+".
    let body = p[s] == 43 ? s + 1 : s
    guard let v = Double(utf8Text(p, body, e)) else { return .malformed }
    return v.isFinite ? .value(v) : .infinite
}

/// `body` over the UTF-8 bytes of `text` (made contiguous when it is not), with its typed error:
/// how a text entry point hands its text to the byte parser behind it.
func withUTF8Bytes<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) throws(GeoLocError) -> R) throws(GeoLocError) -> R {
    var text = text
    let result: Result<R, GeoLocError> = text.withUTF8 { b in
        Result { () throws(GeoLocError) -> R in try body(b) }
    }
    return try result.get()
}
