// The character encodings of XML documents as devices write them, and their conversion to
// UTF-8 a chunk at a time (so a file of any size streams through a fixed buffer).
//
// Which encoding: a byte-order mark first (UTF-8, UTF-16 little- or big-endian), then the
// first bytes of a UTF-16 document without one (`<?` as 3C 00 3F 00 or 00 3C 00 3F), then the
// XML declaration's `encoding` (UTF-8 when it has none), as XML 1.0, appendix F, describes.
// Supported: UTF-8, UTF-16, ISO-8859-1, ISO-8859-15, Windows-1252 and US-ASCII under their
// usual names; any other is refused by name. Text that is not valid in its encoding is refused
// with its line.

/// An encoding the XML reader converts from.
enum XMLEncoding: Equatable {
    case utf8, utf16LE, utf16BE, latin1, latin9, windows1252, ascii

    var name: String {
        switch self {
        case .utf8: return "UTF-8"
        case .utf16LE, .utf16BE: return "UTF-16"
        case .latin1: return "ISO-8859-1"
        case .latin9: return "ISO-8859-15"
        case .windows1252: return "Windows-1252"
        case .ascii: return "US-ASCII"
        }
    }

    /// The encoding an `encoding="..."` name denotes (ASCII case ignored), or nil.
    static func named(_ raw: [UInt8]) -> XMLEncoding? {
        let name = String(decoding: raw.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
        switch name {
        case "UTF-8", "UTF8": return .utf8
        case "UTF-16", "UTF16", "UTF-16LE", "UTF-16BE", "UCS-2": return .utf16LE  // the mark decides the order
        case "ISO-8859-1", "ISO8859-1", "ISO_8859-1", "ISO_8859-1:1987", "LATIN1", "LATIN-1", "L1", "ISO-IR-100",
             "CP819", "IBM819", "CSISOLATIN1":
            return .latin1
        case "ISO-8859-15", "ISO8859-15", "ISO_8859-15", "LATIN-9", "LATIN9", "LATIN0", "L9": return .latin9
        case "WINDOWS-1252", "CP1252", "X-CP1252", "CP-1252", "WIN-1252", "MS-ANSI": return .windows1252
        case "US-ASCII", "ASCII", "ANSI_X3.4-1968", "ISO646-US", "US": return .ascii
        default: return nil
        }
    }

    /// The Unicode scalar of a byte in a single-byte encoding.
    @inline(__always)
    func scalar(_ b: UInt8) -> UInt32 {
        if b < 0x80 { return UInt32(b) }
        switch self {
        case .windows1252:
            if b < 0xA0 { return UInt32(windows1252High[Int(b) - 0x80]) }
            return UInt32(b)
        case .latin9:
            switch b {
            case 0xA4: return 0x20AC
            case 0xA6: return 0x0160
            case 0xA8: return 0x0161
            case 0xB4: return 0x017D
            case 0xB8: return 0x017E
            case 0xBC: return 0x0152
            case 0xBD: return 0x0153
            case 0xBE: return 0x0178
            default: return UInt32(b)
            }
        default: return UInt32(b)
        }
    }
}

/// Windows-1252's 0x80 ... 0x9F (its five unassigned bytes map to the C1 controls, as the
/// WHATWG Encoding Standard reads them).
private let windows1252High: [UInt16] = [
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D,
    0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
    0x0153, 0x009D, 0x017E, 0x0178,
]

/// What the first bytes of a document say: its encoding and how many bytes of mark to skip.
/// `head` holds at least the first 1,024 bytes (or the whole document when shorter).
func detectXMLEncoding(_ head: UnsafeRawBufferPointer) throws(GeoLocError) -> (XMLEncoding, skip: Int) {
    let b = head.bindMemory(to: UInt8.self)
    let n = b.count
    var encoding: XMLEncoding = .utf8
    var skip = 0
    var marked = false
    if n >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
        skip = 3; marked = true
    } else if n >= 2 && b[0] == 0xFE && b[1] == 0xFF {
        encoding = .utf16BE; skip = 2; marked = true
    } else if n >= 2 && b[0] == 0xFF && b[1] == 0xFE {
        encoding = .utf16LE; skip = 2; marked = true
    } else if n >= 4 && b[0] == 0x3C && b[1] == 0 && b[2] == 0x3F && b[3] == 0 {
        encoding = .utf16LE
    } else if n >= 4 && b[0] == 0 && b[1] == 0x3C && b[2] == 0 && b[3] == 0x3F {
        encoding = .utf16BE
    }
    // The declaration, read as ASCII (for UTF-16, every other byte).
    var ascii: [UInt8] = []
    let wide = encoding == .utf16LE || encoding == .utf16BE
    var i = skip
    while ascii.count < 512 {
        let c: UInt8
        if wide {
            guard i + 1 < n else { break }
            let (low, high) = encoding == .utf16LE ? (b[i], b[i + 1]) : (b[i + 1], b[i])
            guard high == 0 else { break }
            c = low
            i += 2
        } else {
            guard i < n else { break }
            c = b[i]
            i += 1
        }
        ascii.append(c)
        if c == 62 && ascii.count >= 2 && ascii[ascii.count - 2] == 63 { break }  // "?>"
    }
    guard let declared = declaredEncoding(ascii) else { return (encoding, skip) }
    guard let named = XMLEncoding.named(declared) else {
        throw GeoLocError(.unsupported, "the document's encoding \"\(String(decoding: declared, as: UTF8.self))\" is not supported "
            + "(UTF-8, UTF-16, ISO-8859-1, ISO-8859-15, Windows-1252 and US-ASCII are)")
    }
    if wide {
        guard named == .utf16LE else {
            throw GeoLocError(.parse, "the document is UTF-16 but its declaration says \(named.name)")
        }
        return (encoding, skip)
    }
    if named == .utf16LE {
        throw GeoLocError(.parse, "the declaration says UTF-16 but the document is not UTF-16 (no byte-order mark)")
    }
    if marked && named != .utf8 {
        throw GeoLocError(.parse, "the document has a UTF-8 byte-order mark but its declaration says \(named.name)")
    }
    return (named, skip)
}

/// The value of `encoding` in an XML declaration (`<?xml version="1.0" encoding="..."?>`) at
/// the start of `text`, or nil when there is no declaration or it names none.
private func declaredEncoding(_ text: [UInt8]) -> [UInt8]? {
    let start = Array("<?xml".utf8)
    guard text.count > 6, Array(text[0..<5]) == start, text[5] == 32 || text[5] == 9 || text[5] == 10 || text[5] == 13 else {
        return nil
    }
    let key = Array("encoding".utf8)
    var i = 5
    while i + key.count <= text.count {
        if text[i] == 63 { return nil }  // "?": the end of the declaration
        if Array(text[i..<(i + key.count)]) == key {
            var j = i + key.count
            while j < text.count && (text[j] == 32 || text[j] == 9 || text[j] == 10 || text[j] == 13) { j += 1 }
            guard j < text.count && text[j] == 61 else { return nil }
            j += 1
            while j < text.count && (text[j] == 32 || text[j] == 9 || text[j] == 10 || text[j] == 13) { j += 1 }
            guard j < text.count && (text[j] == 34 || text[j] == 39) else { return nil }
            let q = text[j]
            var k = j + 1
            while k < text.count && text[k] != q { k += 1 }
            guard k < text.count else { return nil }
            return Array(text[(j + 1)..<k])
        }
        i += 1
    }
    return nil
}

/// Converts a document's bytes to UTF-8 a chunk at a time, carrying a sequence cut by a
/// chunk's end into the next. UTF-8 input is only checked (the caller keeps the bytes).
struct Transcoder {
    let encoding: XMLEncoding
    /// UTF-16: a byte waiting for its pair, and a high surrogate waiting for its low one.
    private var pendingByte: UInt8? = nil
    private var pendingHigh: UInt32? = nil

    init(_ encoding: XMLEncoding) { self.encoding = encoding }

    /// The most UTF-8 bytes `n` input bytes can give.
    static func maxOutput(_ n: Int) -> Int { 3 * n + 8 }

    /// How many of the UTF-8 bytes `p[0..<n]` form complete, valid sequences: every byte
    /// when `final`; otherwise an incomplete sequence at the end is left for the next chunk.
    /// Returns nil (with the offset of the first bad byte) when they are not UTF-8.
    static func checkUTF8(_ p: UnsafePointer<UInt8>, _ n: Int, final: Bool) -> (complete: Int, bad: Int?) {
        let raw = UnsafeRawPointer(p)
        var i = 0
        while i < n {
            while i + 8 <= n && raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
            guard i < n else { break }
            if p[i] < 0x80 { i += 1; continue }
            let len = utf8SequenceLength(p, i, n)
            if len == 0 {
                // Cut at the end of the chunk, or bad?
                if !final && n - i < 4 && couldBePrefix(p, i, n) { return (i, nil) }
                return (i, i)
            }
            i += len
        }
        return (n, nil)
    }

    /// Whether p[i..<n] (a lead byte and what follows) could start a valid sequence.
    private static func couldBePrefix(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Bool {
        let b = p[i]
        let need: Int
        switch b {
        case 0xC2...0xDF: need = 1
        case 0xE0...0xEF: need = 2
        case 0xF0...0xF4: need = 3
        default: return false
        }
        guard n - i <= need else { return false }
        for k in (i + 1)..<n where p[k] & 0xC0 != 0x80 { return false }
        if n - i >= 2 {
            let s = p[i + 1]
            if b == 0xE0 && s < 0xA0 { return false }
            if b == 0xED && s > 0x9F { return false }
            if b == 0xF0 && s < 0x90 { return false }
            if b == 0xF4 && s > 0x8F { return false }
        }
        return true
    }

    /// Converts `n` bytes at `p` (not UTF-8) into UTF-8 at `out` (room for maxOutput(n)).
    /// Returns the bytes written, or the offset of the first bad input byte.
    mutating func convert(_ p: UnsafePointer<UInt8>, _ n: Int, final: Bool, into out: UnsafeMutablePointer<UInt8>) -> (written: Int, bad: Int?) {
        var o = 0
        @inline(__always) func put(_ v: UInt32) {
            if v < 0x80 {
                out[o] = UInt8(v); o += 1
            } else if v < 0x800 {
                out[o] = UInt8(0xC0 | (v >> 6)); out[o + 1] = UInt8(0x80 | (v & 0x3F)); o += 2
            } else if v < 0x10000 {
                out[o] = UInt8(0xE0 | (v >> 12)); out[o + 1] = UInt8(0x80 | ((v >> 6) & 0x3F))
                out[o + 2] = UInt8(0x80 | (v & 0x3F)); o += 3
            } else {
                out[o] = UInt8(0xF0 | (v >> 18)); out[o + 1] = UInt8(0x80 | ((v >> 12) & 0x3F))
                out[o + 2] = UInt8(0x80 | ((v >> 6) & 0x3F)); out[o + 3] = UInt8(0x80 | (v & 0x3F)); o += 4
            }
        }
        switch encoding {
        case .utf8:
            preconditionFailure("UTF-8 is checked, not converted")
        case .ascii:
            for i in 0..<n {
                guard p[i] < 0x80 else { return (o, i) }
                out[o] = p[i]; o += 1
            }
        case .latin1, .latin9, .windows1252:
            for i in 0..<n { put(encoding.scalar(p[i])) }
        case .utf16LE, .utf16BE:
            var i = 0
            let little = encoding == .utf16LE
            while true {
                let unit: UInt32
                if let first = pendingByte {
                    guard i < n else { break }
                    unit = little ? UInt32(first) | UInt32(p[i]) << 8 : UInt32(first) << 8 | UInt32(p[i])
                    pendingByte = nil
                    i += 1
                } else {
                    guard i + 1 < n else {
                        if i < n { pendingByte = p[i]; i += 1 }
                        break
                    }
                    unit = little ? UInt32(p[i]) | UInt32(p[i + 1]) << 8 : UInt32(p[i]) << 8 | UInt32(p[i + 1])
                    i += 2
                }
                if let high = pendingHigh {
                    guard unit >= 0xDC00 && unit <= 0xDFFF else { return (o, max(i - 2, 0)) }
                    put(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00))
                    pendingHigh = nil
                } else if unit >= 0xD800 && unit <= 0xDBFF {
                    pendingHigh = unit
                } else if unit >= 0xDC00 && unit <= 0xDFFF {
                    return (o, max(i - 2, 0))
                } else {
                    put(unit)
                }
            }
            if final && (pendingByte != nil || pendingHigh != nil) { return (o, max(n - 1, 0)) }
        }
        return (o, nil)
    }
}
