// A small strict XML reader for GPX: elements, attributes, text, CDATA sections, comments and
// processing instructions (skipped), the five predefined entities and character references.
// A document type declaration is refused (so no entity of the document's own is ever expanded),
// as is anything that is not well-formed. Nesting is limited to `maxDepth` and attributes per
// element to `maxAttributes`; the reader is iterative, so no input can overflow the stack.

/// One step of the document.
enum XMLToken {
    /// A start tag; its local name (after any prefix) and attributes are in the reader's
    /// `name` and `attributes`. A self-closing tag gives `.start` then `.end`.
    case start
    /// An end tag (its local name in `name`).
    case end
    /// Character data (entities decoded, CDATA included) in the reader's `text`.
    case text
}

struct XMLReader {
    static let maxDepth = 64
    static let maxAttributes = 64

    let p: UnsafePointer<UInt8>
    let count: Int
    var at = 0
    /// Open elements: the byte ranges of their qualified names.
    private var open: [(Int, Int)] = []
    private var pendingEnd = false
    private var sawRoot = false
    /// The current token's data.
    private(set) var name: [UInt8] = []
    private(set) var attributes: [(name: [UInt8], value: [UInt8])] = []
    private(set) var text: [UInt8] = []
    /// Where the current token began.
    private(set) var tokenStart = 0
    var depth: Int { open.count }

    init(_ p: UnsafePointer<UInt8>, count: Int) {
        self.p = p
        self.count = count
        if count >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF { at = 3 }
    }

    /// The 1-based line and column (in characters) of a byte offset.
    func position(_ offset: Int) -> (Int, Int) {
        var line = 1, column = 1
        for i in 0..<min(offset, count) {
            if p[i] == 10 { line += 1; column = 1 } else if p[i] & 0xC0 != 0x80 { column += 1 }
        }
        return (line, column)
    }

    func failure(_ offset: Int, _ reason: String) -> GeoLocError {
        let (l, c) = position(offset)
        return GeoLocError(.parse, "malformed XML at line \(l), column \(c): \(reason)")
    }

    private func starts(_ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard count - at >= n else { return false }
        for k in 0..<n where p[at + k] != s.utf8Start[k] { return false }
        return true
    }

    private func find(_ s: StaticString, from: Int) -> Int? {
        let n = s.utf8CodeUnitCount
        var i = from
        while i + n <= count {
            var k = 0
            while k < n && p[i + k] == s.utf8Start[k] { k += 1 }
            if k == n { return i }
            i += 1
        }
        return nil
    }

    @inline(__always) private func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 || b == 10 || b == 13 }
    @inline(__always) private func isNameStart(_ b: UInt8) -> Bool {
        (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95 || b == 58 || b >= 0x80
    }
    @inline(__always) private func isName(_ b: UInt8) -> Bool {
        isNameStart(b) || (b >= 48 && b <= 57) || b == 45 || b == 46
    }

    private mutating func skipSpace() { while at < count && isSpace(p[at]) { at += 1 } }

    /// Reads a name at `at`; returns its range.
    private mutating func readName(_ what: String) throws(GeoLocError) -> (Int, Int) {
        let s = at
        guard at < count && isNameStart(p[at]) else { throw failure(at, "expected \(what)") }
        at += 1
        while at < count && isName(p[at]) { at += 1 }
        return (s, at)
    }

    private func localName(_ r: (Int, Int)) -> [UInt8] {
        var s = r.0
        for i in r.0..<r.1 where p[i] == 58 { s = i + 1 }
        return Array(UnsafeBufferPointer(start: p + s, count: r.1 - s))
    }

    /// Decodes character data or an attribute value from p[s..<e] into `out`.
    private func decode(_ s: Int, _ e: Int, into out: inout [UInt8], attribute: Bool) throws(GeoLocError) {
        var i = s
        while i < e {
            let b = p[i]
            if b == 38 {  // &
                var j = i + 1
                while j < e && j - i < 12 && p[j] != 59 { j += 1 }
                guard j < e && p[j] == 59 else { throw failure(i, "an '&' that starts no entity") }
                let body = Array(UnsafeBufferPointer(start: p + i + 1, count: j - i - 1))
                switch body {
                case Array("lt".utf8): out.append(60)
                case Array("gt".utf8): out.append(62)
                case Array("amp".utf8): out.append(38)
                case Array("quot".utf8): out.append(34)
                case Array("apos".utf8): out.append(39)
                default:
                    guard body.first == 35 else { throw failure(i, "unknown entity &\(String(decoding: body, as: UTF8.self));") }
                    var v: UInt32 = 0
                    let hex = body.count > 1 && body[1] == 120
                    let digits = body.dropFirst(hex ? 2 : 1)
                    guard !digits.isEmpty && digits.count <= 8 else { throw failure(i, "a malformed character reference") }
                    for d in digits {
                        let x: UInt32
                        switch d {
                        case 48...57: x = UInt32(d - 48)
                        case 97...102 where hex: x = UInt32(d - 87)
                        case 65...70 where hex: x = UInt32(d - 55)
                        default: throw failure(i, "a malformed character reference")
                        }
                        v = v * (hex ? 16 : 10) + x
                    }
                    let allowed = v == 9 || v == 10 || v == 13 || (v >= 0x20 && v <= 0xD7FF) || (v >= 0xE000 && v <= 0xFFFD)
                        || (v >= 0x10000 && v <= 0x10FFFF)
                    guard allowed, let scalar = Unicode.Scalar(v) else {
                        throw failure(i, "character reference to U+\(String(v, radix: 16, uppercase: true)), not an XML character")
                    }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                }
                i = j + 1
                continue
            }
            if attribute && b == 60 { throw failure(i, "'<' in an attribute value") }
            if b < 32 && b != 9 && b != 10 && b != 13 { throw failure(i, "control character \(b)") }
            out.append(attribute && (b == 9 || b == 10 || b == 13) ? 32 : b)
            i += 1
        }
    }

    /// The next token, or nil at the end of a well-formed document.
    mutating func next() throws(GeoLocError) -> XMLToken? {
        if pendingEnd {
            pendingEnd = false
            let top = open.removeLast()
            name = localName(top)
            return .end
        }
        while at < count {
            tokenStart = at
            if p[at] != 60 {
                // Character data up to the next '<'.
                let s = at
                while at < count && p[at] != 60 {
                    if p[at] == 93 && at + 2 < count && p[at + 1] == 93 && p[at + 2] == 62 {
                        throw failure(at, "']]>' in character data")
                    }
                    at += 1
                }
                if open.isEmpty {
                    for i in s..<at where !isSpace(p[i]) { throw failure(i, "text outside the root element") }
                    continue
                }
                text.removeAll(keepingCapacity: true)
                try decode(s, at, into: &text, attribute: false)
                return .text
            }
            if starts("<?") {
                guard let e = find("?>", from: at + 2) else { throw failure(at, "an unterminated processing instruction") }
                at = e + 2
                continue
            }
            if starts("<!--") {
                guard let e = find("--", from: at + 4) else { throw failure(at, "an unterminated comment") }
                guard e + 2 < count && p[e + 2] == 62 else { throw failure(e, "'--' inside a comment") }
                at = e + 3
                continue
            }
            if starts("<![CDATA[") {
                guard !open.isEmpty else { throw failure(at, "CDATA outside the root element") }
                guard let e = find("]]>", from: at + 9) else { throw failure(at, "an unterminated CDATA section") }
                text.removeAll(keepingCapacity: true)
                for i in (at + 9)..<e {
                    let b = p[i]
                    if b < 32 && b != 9 && b != 10 && b != 13 { throw failure(i, "control character \(b)") }
                    text.append(b)
                }
                at = e + 3
                return .text
            }
            if starts("<!") {
                throw failure(at, "document type declarations are not supported")
            }
            if starts("</") {
                at += 2
                let r = try readName("an element name")
                skipSpace()
                guard at < count && p[at] == 62 else { throw failure(at, "expected '>'") }
                at += 1
                guard let top = open.last else { throw failure(r.0, "an end tag with no open element") }
                let same = top.1 - top.0 == r.1 - r.0 && (0..<(r.1 - r.0)).allSatisfy { p[top.0 + $0] == p[r.0 + $0] }
                guard same else {
                    throw failure(r.0, "end tag </\(utf8Text(p, r.0, r.1))> does not match <\(utf8Text(p, top.0, top.1))>")
                }
                open.removeLast()
                name = localName(r)
                return .end
            }
            // A start tag.
            at += 1
            let r = try readName("an element name")
            if open.isEmpty {
                guard !sawRoot else { throw failure(r.0, "a second root element") }
                sawRoot = true
            }
            guard open.count < XMLReader.maxDepth else { throw failure(r.0, "elements nested deeper than \(XMLReader.maxDepth)") }
            attributes.removeAll(keepingCapacity: true)
            while true {
                let hadSpace = at < count && isSpace(p[at])
                skipSpace()
                guard at < count else { throw failure(at, "an unterminated start tag") }
                if p[at] == 62 {
                    at += 1
                    open.append(r)
                    break
                }
                if p[at] == 47 {
                    guard at + 1 < count && p[at + 1] == 62 else { throw failure(at, "expected '/>'") }
                    at += 2
                    open.append(r)
                    pendingEnd = true
                    break
                }
                guard hadSpace else { throw failure(at, "expected whitespace before an attribute") }
                let an = try readName("an attribute name")
                skipSpace()
                guard at < count && p[at] == 61 else { throw failure(at, "expected '=' after an attribute name") }
                at += 1
                skipSpace()
                guard at < count && (p[at] == 34 || p[at] == 39) else { throw failure(at, "expected a quoted attribute value") }
                let q = p[at]
                let vs = at + 1
                var ve = vs
                while ve < count && p[ve] != q { ve += 1 }
                guard ve < count else { throw failure(at, "an unterminated attribute value") }
                guard attributes.count < XMLReader.maxAttributes else { throw failure(an.0, "more than \(XMLReader.maxAttributes) attributes") }
                let aname = Array(UnsafeBufferPointer(start: p + an.0, count: an.1 - an.0))
                if attributes.contains(where: { $0.name == aname }) {
                    throw failure(an.0, "attribute \(utf8Text(p, an.0, an.1)) repeated")
                }
                var value: [UInt8] = []
                try decode(vs, ve, into: &value, attribute: true)
                attributes.append((aname, value))
                at = ve + 1
            }
            name = localName(r)
            return .start
        }
        guard sawRoot else { throw failure(at, "no root element") }
        guard open.isEmpty else {
            let top = open.last!
            throw failure(count, "element <\(utf8Text(p, top.0, top.1))> is not closed")
        }
        return nil
    }

    /// The value of the attribute with this (qualified) name.
    func attribute(_ key: StaticString) -> [UInt8]? {
        let k = Array(UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        return attributes.first(where: { $0.name == k })?.value
    }
}
