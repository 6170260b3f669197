#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// A small strict JSON reader (RFC 8259) for the GeoJSON loader.
//
// The document is read in one iterative pass (an explicit stack, so hostile nesting cannot
// overflow the call stack) into a flat tape of nodes that point back into the bytes, as
// simdjson does: strings and numbers are not copied or converted until asked for.

/// The kind of a JSON value.
enum JSONKind: UInt8 {
    case null, `false`, `true`, number, string, array, object
}

/// One value of the tape. A container's members follow it on the tape (for an object: key,
/// value, key, value, ...), and `next` is the tape index after its last descendant.
struct JSONNode {
    var kind: JSONKind
    /// A string with backslash escapes in it.
    var escaped: Bool
    /// String: the first byte after the opening quote. Other values: their first byte.
    var start: UInt32
    /// String: the closing quote. Number and literal: the byte after it. Container: the byte
    /// after the closing bracket.
    var end: UInt32
    /// The tape index after this value and everything inside it.
    var next: UInt32
}

/// A parsed JSON document: the bytes (not owned; they must outlive it) and the tape.
struct JSONDocument {
    /// The deepest nesting of arrays and objects accepted.
    static let maxDepth = 512

    let p: UnsafePointer<UInt8>
    let count: Int
    private(set) var tape: [JSONNode] = []

    /// Reads `bytes` (a UTF-8 byte order mark first is skipped).
    /// - Throws: `.parse` for text that is not JSON, `.invalidUTF8` for bytes that are not
    ///   UTF-8, both naming the byte offset (0-based), line and column (1-based, in characters);
    ///   `.unsupported` for a document of 4 GiB or more. `source`, when given, starts the message.
    init(_ bytes: UnsafeRawBufferPointer, source: String?) throws(GeoLocError) {
        guard bytes.count < Int(UInt32.max) else {
            throw GeoLocError(.unsupported, "\(source.map { $0 + ": " } ?? "")JSON documents of 4 GiB or more are not supported")
        }
        // A non-nil pointer even for no bytes, so the reader has one shape.
        let p = (bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!).assumingMemoryBound(to: UInt8.self)
        self.p = p
        self.count = bytes.count
        var reader = JSONReader(p: p, end: bytes.count)
        reader.tape.reserveCapacity(max(16, bytes.count / 8))
        if let failure = reader.run() {
            throw JSONDocument.error(failure, p, bytes.count, source)
        }
        tape = reader.tape
    }

    /// The error for a failure at a byte offset, with its line and column.
    static func error(_ f: JSONFailure, _ p: UnsafePointer<UInt8>, _ count: Int, _ source: String?) -> GeoLocError {
        var line = 1
        var column = 1
        var i = 0
        let stop = min(f.offset, count)
        while i < stop {
            let b = p[i]
            if b == 10 {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        let at = source.map { $0 + ": " } ?? ""
        let what = f.code == .invalidUTF8 ? "invalid UTF-8 in JSON" : "malformed JSON"
        return GeoLocError(f.code, "\(at)\(what) at byte \(f.offset) (line \(line), column \(column)): \(f.message)")
    }

    // MARK: Reading values

    subscript(node: Int) -> JSONNode { tape[node] }

    /// The members of an object as (key node, value node), or the elements of an array as
    /// (element node, element node).
    func children(_ node: Int) -> JSONChildren { JSONChildren(tape: tape, node: node) }

    /// The value of the first member named `key` (nil when there is none, or `node` is not an
    /// object). Documents with a repeated key are read by their first occurrence, here and by
    /// the loader (RFC 8259 leaves it open).
    func member(_ node: Int, _ key: StaticString) -> Int? {
        guard tape[node].kind == .object else { return nil }
        let wanted = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        for (k, v) in children(node) where keyEquals(k, wanted) { return v }
        return nil
    }

    /// The value of the first member named `key`.
    func member(_ node: Int, named key: String) -> Int? {
        guard tape[node].kind == .object else { return nil }
        var key = key
        return key.withUTF8 { wanted in
            for (k, v) in children(node) where keyEquals(k, wanted) { return v }
            return nil
        }
    }

    /// Whether `node` is a string whose text is exactly `wanted`.
    func isString(_ node: Int, _ wanted: StaticString) -> Bool {
        tape[node].kind == .string
            && keyEquals(node, UnsafeBufferPointer(start: wanted.utf8Start, count: wanted.utf8CodeUnitCount))
    }

    /// Whether a string node's text is exactly `wanted`.
    func keyEquals(_ node: Int, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = tape[node]
        if !n.escaped {
            let len = Int(n.end - n.start)
            guard len == wanted.count else { return false }
            return len == 0 || memcmp(p + Int(n.start), wanted.baseAddress!, len) == 0
        }
        var bytes: [UInt8] = []
        appendString(node, to: &bytes)
        return bytes.elementsEqual(wanted)
    }

    /// A string node's text.
    func string(_ node: Int) -> String {
        let n = tape[node]
        if !n.escaped { return utf8Text(p, Int(n.start), Int(n.end)) }
        var bytes: [UInt8] = []
        appendString(node, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The source text of a number or literal node.
    func rawText(_ node: Int) -> String {
        utf8Text(p, Int(tape[node].start), Int(tape[node].end))
    }

    /// Appends a string node's text (escapes undone) as UTF-8.
    func appendString(_ node: Int, to out: inout [UInt8]) {
        let n = tape[node]
        var i = Int(n.start)
        let end = Int(n.end)
        while i < end {
            let b = p[i]
            if b != 92 {
                out.append(b)
                i += 1
                continue
            }
            let e = p[i + 1]
            i += 2
            switch e {
            case 98: out.append(8)
            case 102: out.append(12)
            case 110: out.append(10)
            case 114: out.append(13)
            case 116: out.append(9)
            case 117:
                var scalar = hex4(i)
                i += 4
                if scalar >= 0xD800 && scalar < 0xDC00 {  // a pair, checked by the reader
                    let low = hex4(i + 2)
                    i += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                appendUTF8(scalar, to: &out)
            default: out.append(e)  // " \ /
            }
        }
    }

    private func hex4(_ i: Int) -> UInt32 {
        var v: UInt32 = 0
        for k in 0..<4 { v = v << 4 | UInt32(hexValue(p[i + k])) }
        return v
    }

    /// Appends a value as compact JSON: no whitespace, strings with the fewest escapes.
    func appendCompact(_ node: Int, to out: inout [UInt8]) {
        let n = tape[node]
        switch n.kind {
        case .null, .false, .true, .number:
            out.append(contentsOf: UnsafeBufferPointer(start: p + Int(n.start), count: Int(n.end - n.start)))
        case .string:
            appendQuoted(node, to: &out)
        case .array, .object:
            // [a,b] or {"k":v,...}: an array's children come as (element, _).
            let object = n.kind == .object
            out.append(object ? 123 : 91)
            var first = true
            for (k, v) in children(node) {
                if !first { out.append(44) }
                first = false
                if object {
                    appendQuoted(k, to: &out)
                    out.append(58)
                }
                appendCompact(object ? v : k, to: &out)
            }
            out.append(object ? 125 : 93)
        }
    }

    /// A string node as a JSON string literal with the fewest escapes.
    private func appendQuoted(_ node: Int, to out: inout [UInt8]) {
        var text: [UInt8] = []
        appendString(node, to: &text)
        out.append(34)
        for b in text {
            switch b {
            case 34: out.append(contentsOf: [92, 34])
            case 92: out.append(contentsOf: [92, 92])
            case 8: out.append(contentsOf: [92, 98])
            case 12: out.append(contentsOf: [92, 102])
            case 10: out.append(contentsOf: [92, 110])
            case 13: out.append(contentsOf: [92, 114])
            case 9: out.append(contentsOf: [92, 116])
            case 0..<0x20:
                let digits: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [92, 117, 48, 48, digits[Int(b >> 4)], digits[Int(b & 15)]])
            default: out.append(b)
            }
        }
        out.append(34)
    }
}

/// Iterates over the members of an object (key, value) or the elements of an array
/// (element, element).
struct JSONChildren: Sequence, IteratorProtocol {
    let tape: [JSONNode]
    let isObject: Bool
    let stop: Int
    var at: Int

    init(tape: [JSONNode], node: Int) {
        self.tape = tape
        let n = tape[node]
        isObject = n.kind == .object
        stop = n.kind == .object || n.kind == .array ? Int(n.next) : node + 1
        at = node + 1
    }

    mutating func next() -> (Int, Int)? {
        guard at < stop else { return nil }
        if isObject {
            let key = at
            let value = at + 1
            at = Int(tape[value].next)
            return (key, value)
        }
        let element = at
        at = Int(tape[element].next)
        return (element, element)
    }
}

/// Where and why a document could not be read.
struct JSONFailure {
    var offset: Int
    var message: String
    var code: GeoLocError.Code = .parse
}

@inline(__always)
private func hexValue(_ b: UInt8) -> UInt8 {
    switch b {
    case 48...57: return b - 48
    case 65...70: return b - 55
    case 97...102: return b - 87
    default: return 0xFF
    }
}

/// Appends a Unicode scalar value (not a surrogate) as UTF-8.
private func appendUTF8(_ v: UInt32, to out: inout [UInt8]) {
    switch v {
    case 0..<0x80:
        out.append(UInt8(v))
    case 0x80..<0x800:
        out.append(UInt8(0xC0 | v >> 6))
        out.append(UInt8(0x80 | v & 0x3F))
    case 0x800..<0x10000:
        out.append(UInt8(0xE0 | v >> 12))
        out.append(UInt8(0x80 | v >> 6 & 0x3F))
        out.append(UInt8(0x80 | v & 0x3F))
    default:
        out.append(UInt8(0xF0 | v >> 18))
        out.append(UInt8(0x80 | v >> 12 & 0x3F))
        out.append(UInt8(0x80 | v >> 6 & 0x3F))
        out.append(UInt8(0x80 | v & 0x3F))
    }
}

/// The iterative reader behind `JSONDocument`.
private struct JSONReader {
    let p: UnsafePointer<UInt8>
    let end: Int
    var i = 0
    var tape: [JSONNode] = []
    /// The tape indices of the open containers.
    var stack: [Int] = []

    init(p: UnsafePointer<UInt8>, end: Int) {
        self.p = p
        self.end = end
        if end >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF { i = 3 }
    }

    private enum State { case value, key, afterValue }

    /// Reads the whole document; nil on success.
    mutating func run() -> JSONFailure? {
        var state = State.value
        while true {
            switch state {
            case .value:
                skipSpace()
                guard i < end else {
                    let what = tape.isEmpty ? "the document is empty" : "the document ends where a value should be"
                    return JSONFailure(offset: i, message: what)
                }
                let b = p[i]
                switch b {
                case 123, 91:  // { [
                    if stack.count >= JSONDocument.maxDepth {
                        let what = "arrays and objects nest deeper than \(JSONDocument.maxDepth) levels"
                        return JSONFailure(offset: i, message: what)
                    }
                    stack.append(tape.count)
                    tape.append(JSONNode(kind: b == 123 ? .object : .array, escaped: false, start: UInt32(i), end: 0, next: 0))
                    i += 1
                    skipSpace()
                    if i < end && p[i] == (b == 123 ? 125 : 93) {
                        close()
                        state = .afterValue
                    } else {
                        state = b == 123 ? .key : .value
                    }
                case 34:
                    if let f = readString() { return f }
                    state = .afterValue
                case 45, 48...57:
                    if let f = readNumber() { return f }
                    state = .afterValue
                case 116:
                    if let f = readLiteral("true", .true) { return f }
                    state = .afterValue
                case 102:
                    if let f = readLiteral("false", .false) { return f }
                    state = .afterValue
                case 110:
                    if let f = readLiteral("null", .null) { return f }
                    state = .afterValue
                default:
                    return JSONFailure(offset: i, message: "expected a value, found \(describe(i))")
                }
            case .key:
                skipSpace()
                guard i < end && p[i] == 34 else {
                    return JSONFailure(offset: i, message: "expected a string key, found \(describe(i))")
                }
                if let f = readString() { return f }
                skipSpace()
                guard i < end && p[i] == 58 else {
                    return JSONFailure(offset: i, message: "expected ':' after the key, found \(describe(i))")
                }
                i += 1
                state = .value
            case .afterValue:
                skipSpace()
                guard let top = stack.last else {
                    if i < end { return JSONFailure(offset: i, message: "unexpected \(describe(i)) after the document") }
                    return nil
                }
                let isObject = tape[top].kind == .object
                guard i < end else {
                    return JSONFailure(offset: i, message: "the document ends inside \(isObject ? "an object" : "an array")")
                }
                let b = p[i]
                if b == 44 {
                    i += 1
                    state = isObject ? .key : .value
                } else if b == (isObject ? 125 : 93) {
                    close()
                } else {
                    return JSONFailure(offset: i, message: "expected ',' or '\(isObject ? "}" : "]")', found \(describe(i))")
                }
            }
        }
    }

    /// Closes the innermost container at its closing bracket `p[i]`.
    private mutating func close() {
        let top = stack.removeLast()
        i += 1
        tape[top].end = UInt32(i)
        tape[top].next = UInt32(tape.count)
    }

    @inline(__always)
    private mutating func skipSpace() {
        while i < end {
            let b = p[i]
            guard b == 32 || b == 10 || b == 13 || b == 9 else { return }
            i += 1
        }
    }

    /// The byte at `k` as a message names it.
    private func describe(_ k: Int) -> String {
        guard k < end else { return "the end of the document" }
        let b = p[k]
        if b >= 0x21 && b < 0x7F { return "'" + String(UnicodeScalar(b)) + "'" }
        let digits = Array("0123456789ABCDEF")
        return "byte 0x" + String(digits[Int(b >> 4)]) + String(digits[Int(b & 15)])
    }

    /// Reads the string whose opening quote is at `i`.
    private mutating func readString() -> JSONFailure? {
        let open = i
        i += 1
        let start = i
        var escaped = false
        while true {
            // Plain ASCII runs first.
            while i < end {
                let b = p[i]
                if b == 34 || b == 92 || b < 0x20 || b >= 0x80 { break }
                i += 1
            }
            guard i < end else { return JSONFailure(offset: open, message: "the string is not closed") }
            let b = p[i]
            if b == 34 { break }
            if b < 0x20 {
                let what = "a control character (0x\(String(b, radix: 16))) must be escaped in a string"
                return JSONFailure(offset: i, message: what)
            }
            if b >= 0x80 {
                let n = utf8SequenceLength(p, i, end)
                if n == 0 { return JSONFailure(offset: i, message: "the bytes are not UTF-8", code: .invalidUTF8) }
                i += n
                continue
            }
            // A backslash escape.
            escaped = true
            guard i + 1 < end else { return JSONFailure(offset: open, message: "the string is not closed") }
            let e = p[i + 1]
            switch e {
            case 34, 92, 47, 98, 102, 110, 114, 116:
                i += 2
            case 117:
                guard let unit = hex4(i + 2) else {
                    return JSONFailure(offset: i, message: "\\u must be followed by four hex digits")
                }
                if unit == 0 {
                    // Text leaves the library NUL-terminated: a NUL inside would cut it short.
                    return JSONFailure(offset: i, message: "\\u0000 (NUL) is not allowed in a string")
                }
                if unit >= 0xDC00 && unit < 0xE000 {
                    return JSONFailure(offset: i, message: "\\u\(hex(unit)) is a low surrogate without a high one")
                }
                if unit >= 0xD800 && unit < 0xDC00 {
                    guard i + 12 <= end, p[i + 6] == 92, p[i + 7] == 117, let low = hex4(i + 8),
                        low >= 0xDC00 && low < 0xE000
                    else {
                        return JSONFailure(offset: i, message: "\\u\(hex(unit)) is a high surrogate without a low one after it")
                    }
                    i += 12
                } else {
                    i += 6
                }
            default:
                let what = "\(describe(i + 1)) is not an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"
                return JSONFailure(offset: i, message: what)
            }
        }
        tape.append(JSONNode(kind: .string, escaped: escaped, start: UInt32(start), end: UInt32(i), next: UInt32(tape.count + 1)))
        i += 1
        return nil
    }

    private func hex4(_ k: Int) -> UInt32? {
        guard k + 4 <= end else { return nil }
        var v: UInt32 = 0
        for j in 0..<4 {
            let h = hexValue(p[k + j])
            if h == 0xFF { return nil }
            v = v << 4 | UInt32(h)
        }
        return v
    }

    private func hex(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }

    /// Reads the number at `i`: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
    private mutating func readNumber() -> JSONFailure? {
        let start = i
        if p[i] == 45 { i += 1 }
        guard i < end, p[i] &- 48 < 10 else {
            return JSONFailure(offset: start, message: "'-' must be followed by a digit")
        }
        if p[i] == 48 {
            i += 1
            if i < end && p[i] &- 48 < 10 {
                return JSONFailure(offset: start, message: "a number must not start with 0 followed by a digit")
            }
        } else {
            while i < end && p[i] &- 48 < 10 { i += 1 }
        }
        if i < end && p[i] == 46 {
            i += 1
            guard i < end && p[i] &- 48 < 10 else {
                return JSONFailure(offset: i, message: "a digit must follow the decimal point")
            }
            while i < end && p[i] &- 48 < 10 { i += 1 }
        }
        if i < end && (p[i] == 101 || p[i] == 69) {
            i += 1
            if i < end && (p[i] == 43 || p[i] == 45) { i += 1 }
            guard i < end && p[i] &- 48 < 10 else {
                return JSONFailure(offset: i, message: "a digit must follow the exponent")
            }
            while i < end && p[i] &- 48 < 10 { i += 1 }
        }
        tape.append(JSONNode(kind: .number, escaped: false, start: UInt32(start), end: UInt32(i), next: UInt32(tape.count + 1)))
        return nil
    }

    private mutating func readLiteral(_ word: StaticString, _ kind: JSONKind) -> JSONFailure? {
        let n = word.utf8CodeUnitCount
        guard i + n <= end, memcmp(p + i, word.utf8Start, n) == 0 else {
            return JSONFailure(offset: i, message: "expected a value, found \(describe(i))")
        }
        tape.append(JSONNode(kind: kind, escaped: false, start: UInt32(i), end: UInt32(i + n), next: UInt32(tape.count + 1)))
        i += n
        return nil
    }
}
