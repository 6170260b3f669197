#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `value` with exactly `decimals` digits after the point, by C's `%.*f` (correctly
/// rounded from the binary value, as printf and Swift's `String(format:)` do). Negative zero
/// after rounding is written without its sign when `dropNegativeZero` is set.
func fixed(_ value: Double, decimals: Int, dropNegativeZero: Bool = true) -> String {
    var buffer = [CChar](repeating: 0, count: 400)
    let count = buffer.withUnsafeMutableBufferPointer { buf in
        withVaList([Int32(decimals), value]) { args in
            vsnprintf(buf.baseAddress, buf.count, "%.*f", args)
        }
    }
    guard count > 0, Int(count) < buffer.count else { return value < 0 ? "-inf" : "inf" }
    var text = String(decoding: buffer[0..<Int(count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // "-0.0000001" rounds to "-0.000000": write it without the sign.
    if dropNegativeZero, text.hasPrefix("-"), text.utf8.dropFirst().allSatisfy({ $0 == 48 || $0 == 46 }) {
        text.removeFirst()
    }
    return text
}

/// Trims ASCII whitespace (space, tab, CR, LF, VT, FF) at both ends.
func trimmed(_ s: some StringProtocol) -> Substring {
    let u = Substring(s)
    var start = u.startIndex
    var end = u.endIndex
    func isSpace(_ c: Character) -> Bool {
        c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0B}" || c == "\u{0C}" || c == "\r\n"
    }
    while start < end && isSpace(u[start]) { start = u.index(after: start) }
    while end > start && isSpace(u[u.index(before: end)]) { end = u.index(before: end) }
    return u[start..<end]
}
