// A small strict XML reader for GPX, streaming: elements, attributes, text, CDATA sections,
// comments and processing instructions (skipped), the five predefined entities and character
// references. A document type declaration is refused (so no entity of the document's own is
// ever declared or expanded), as is anything that is not well-formed. Nesting is limited to
// `maxDepth`, attributes per element to `maxAttributes`, a tag to `maxTagBytes`; the reader is
// iterative, so no input can overflow the stack.
//
// It reads the window of an XMLInput: a tag is read whole (the window keeps it, growing if it
// must), text, comments and CDATA a window at a time, so memory does not grow with the document.
// Everything is linear: line numbers are counted once, as the reading moves on. Text is decoded
// only when the caller asks for it (`captureText`); other text is checked and skipped.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One step of the document.
enum XMLToken {
    /// A start tag: its name (`localName`) and attributes are the reader's until the next
    /// call. A self-closing tag gives `.start` then `.end`.
    case start
    /// An end tag.
    case end
    /// Character data (entities decoded, CDATA included) in `text`: only while `captureText`.
    case text
}

/// An attribute of the current start tag: byte offsets in the window.
struct XMLAttribute {
    var nameStart: Int, nameEnd: Int
    var valueStart: Int, valueEnd: Int
    /// The value holds no entity reference (and no whitespace to normalise): its bytes are it.
    var plain: Bool
}

/// What each byte is to the reader (bits of `XMLByteClass.table`): one load and a test per byte
/// in the loops over text, names and attribute values.
enum XMLByteClass {
    /// Ends a run of ordinary character data: '<', '&', ']' and the control characters other
    /// than tab, line feed and carriage return.
    static let dataStop: UInt8 = 1
    /// A name character (XML 1.0 for ASCII; every byte of a multi-byte character).
    static let name: UInt8 = 2
    /// A name start character.
    static let nameStart: UInt8 = 4
    /// XML whitespace.
    static let space: UInt8 = 8
    /// Ends a run of an attribute value: '&', '<', either quote, a control character.
    static let valueStop: UInt8 = 16
    /// ':' (a name's prefix ends here).
    static let colon: UInt8 = 32

    /// Built once, never written after: shared by every thread.
    nonisolated(unsafe) static let table: UnsafePointer<UInt8> = {
        let t = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for b in 0..<256 {
            var c: UInt8 = 0
            let isSpace = b == 32 || b == 9 || b == 10 || b == 13
            if b == 60 || b == 38 || b == 93 || (b < 32 && !isSpace) { c |= dataStop }
            let start = (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95 || b == 58 || b >= 0x80
            if start { c |= nameStart | name }
            if (b >= 48 && b <= 57) || b == 45 || b == 46 { c |= name }
            if isSpace { c |= space }
            if b == 38 || b == 60 || b == 34 || b == 39 || b < 32 { c |= valueStop }
            if b == 58 { c |= colon }
            t[b] = c
        }
        return UnsafePointer(t)
    }()
}

struct XMLReader {
    static let maxDepth = 64
    static let maxAttributes = 64
    static let maxTagBytes = 1 << 20

    let input: XMLInput
    private(set) var p: UnsafeMutablePointer<UInt8>
    private var end = 0
    private var at = 0
    /// The open elements' names, the current tag's attributes, the text.
    private let scratch = XMLScratch()
    /// XMLByteClass.table.
    private let classes: UnsafePointer<UInt8>
    private var pendingEnd = false
    private var sawRoot = false
    /// Whether character data is decoded and returned as `.text`.
    var captureText = false
    /// The current tag's qualified name and where its local part starts (window offsets).
    private(set) var nameStart = 0, localStart = 0, nameEnd = 0
    /// The decoded text of a `.text` token.
    var text: UnsafeBufferPointer<UInt8> { scratch.text.bytes }
    /// Where the current token began (a window offset).
    private(set) var tokenStart = 0
    // Line counting: every newline before absolute offset `counted` is counted; `lineStart` is
    // the absolute offset where the current line starts; `carry` the characters of that line
    // before the window, when it starts before it.
    private var counted = 0, line = 1, lineStart = 0, carry = 0

    init(_ input: XMLInput) {
        self.input = input
        p = input.buf
        classes = XMLByteClass.table
    }

    var depth: Int { scratch.depth }

    // MARK: Positions

    /// Counts the lines up to absolute offset `abs` (not before what was counted).
    private mutating func countLines(to abs: Int) {
        let s = counted - input.base, e = abs - input.base
        guard e > s else { return }
        var i = s
        let raw = UnsafeRawPointer(p)
        let ones: UInt64 = 0x0101_0101_0101_0101, low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        while i + 8 <= e {
            // The bytes equal to '\n', exactly: high bit set in each such byte of `z`.
            let v = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ (10 &* ones)
            let z = ~(((v & low7) &+ low7) | v | low7)
            if z != 0 {
                line += z.nonzeroBitCount
                lineStart = input.base + i + (63 - z.leadingZeroBitCount) / 8 + 1
            }
            i += 8
        }
        while i < e {
            if p[i] == 10 { line += 1; lineStart = input.base + i + 1 }
            i += 1
        }
        counted = abs
    }

    @inline(__always) private func characters(_ s: Int, _ e: Int) -> Int {
        var n = 0
        for i in s..<e where p[i] & 0xC0 != 0x80 { n += 1 }
        return n
    }

    /// The 1-based line of a window offset (at or after everything counted so far).
    mutating func line(at offset: Int) -> Int {
        countLines(to: input.base + offset)
        return line
    }

    /// The 1-based line and column (in characters) of a window offset.
    mutating func position(_ offset: Int) -> (Int, Int) {
        let abs = input.base + max(offset, 0)
        if abs < counted { return (line, 0) }
        countLines(to: abs)
        let column = lineStart >= input.base ? characters(lineStart - input.base, offset) : carry + characters(0, offset)
        return (line, column + 1)
    }

    mutating func failure(_ offset: Int, _ reason: String) -> GeoLocError {
        let (l, c) = position(offset)
        return GeoLocError(.parse, c > 0 ? "malformed XML at line \(l), column \(c): \(reason)" : "malformed XML at line \(l): \(reason)")
    }

    // MARK: The window

    /// Keeps the window from offset `keep` on and reads more. False when the input has ended.
    private mutating func more(keep: Int) throws(GeoLocError) -> Bool {
        if input.finished { return false }
        if keep > 0 {
            countLines(to: input.base + keep)
            let abs = input.base + keep
            var newCarry = carry
            if lineStart < abs {
                newCarry = lineStart >= input.base ? characters(lineStart - input.base, keep) : carry + characters(0, keep)
            }
            let moved = input.discard(keep)
            if moved > 0 {
                if lineStart < input.base { carry = newCarry }
                at -= moved
                tokenStart -= moved
            }
        }
        switch try input.fill() {
        case .grew:
            p = input.buf
            end = input.end
            return true
        case .done:
            p = input.buf
            end = input.end
            return false
        case .bad(let abs):
            p = input.buf
            end = input.end
            let off = abs - input.base
            let (l, c) = position(off)
            if input.encoding == .utf8 {
                throw GeoLocError(.invalidUTF8, "the document is not valid UTF-8 at line \(l), column \(c)")
            }
            throw GeoLocError(.parse, "the document is not valid \(input.encoding.name) at line \(l), column \(c)")
        }
    }

    // MARK: Characters

    @inline(__always) private func isSpace(_ b: UInt8) -> Bool { classes[Int(b)] & XMLByteClass.space != 0 }
    @inline(__always) private func isNameStart(_ b: UInt8) -> Bool { classes[Int(b)] & XMLByteClass.nameStart != 0 }
    @inline(__always) private func isName(_ b: UInt8) -> Bool { classes[Int(b)] & XMLByteClass.name != 0 }

    /// The entity or character reference at p[i] ('&'): the offset after its ';' and the
    /// character it stands for, or nil when the window ends before it does.
    private mutating func reference(_ i: Int) throws(GeoLocError) -> (Int, UInt32)? {
        var j = i + 1
        while j < end && j - i < 12 && p[j] != 59 { j += 1 }
        if j >= end && !input.finished && j - i < 12 { return nil }
        guard j < end && p[j] == 59 else { throw failure(i, "an '&' that starts no entity") }
        let n = j - i - 1
        let b = p + i + 1
        func named(_ s: StaticString) -> Bool {
            n == s.utf8CodeUnitCount && (0..<n).allSatisfy { b[$0] == s.utf8Start[$0] }
        }
        var value: UInt32
        if named("lt") { value = 60 } else if named("gt") { value = 62 } else if named("amp") { value = 38 }
        else if named("quot") { value = 34 } else if named("apos") { value = 39 } else {
            guard n > 0 && b[0] == 35 else { throw failure(i, "unknown entity &\(utf8Text(p, i + 1, j));") }
            let hex = n > 1 && b[1] == 120
            let first = hex ? 2 : 1
            guard n > first && n - first <= 8 else { throw failure(i, "a malformed character reference") }
            value = 0
            for k in first..<n {
                let d = b[k]
                let x: UInt32
                switch d {
                case 48...57: x = UInt32(d - 48)
                case 97...102 where hex: x = UInt32(d - 87)
                case 65...70 where hex: x = UInt32(d - 55)
                default: throw failure(i, "a malformed character reference")
                }
                value = value * (hex ? 16 : 10) + x
            }
            let allowed = value == 9 || value == 10 || value == 13 || (value >= 0x20 && value <= 0xD7FF)
                || (value >= 0xE000 && value <= 0xFFFD) || (value >= 0x10000 && value <= 0x10FFFF)
            guard allowed else {
                throw failure(i, "character reference to U+\(String(value, radix: 16, uppercase: true)), not an XML character")
            }
        }
        return (j + 1, value)
    }

    /// Appends the UTF-8 of a scalar.
    private static func append(_ v: UInt32, to out: ByteBuffer) {
        var bytes: [UInt8] = []
        append(v, to: &bytes)
        for b in bytes { out.append(b) }
    }

    private static func append(_ v: UInt32, to out: inout [UInt8]) {
        if v < 0x80 {
            out.append(UInt8(v))
        } else if v < 0x800 {
            out.append(UInt8(0xC0 | (v >> 6))); out.append(UInt8(0x80 | (v & 0x3F)))
        } else if v < 0x10000 {
            out.append(UInt8(0xE0 | (v >> 12))); out.append(UInt8(0x80 | ((v >> 6) & 0x3F))); out.append(UInt8(0x80 | (v & 0x3F)))
        } else {
            out.append(UInt8(0xF0 | (v >> 18))); out.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((v >> 6) & 0x3F))); out.append(UInt8(0x80 | (v & 0x3F)))
        }
    }

    // MARK: Tokens

    /// The next token, or nil at the end of a well-formed document.
    mutating func next() throws(GeoLocError) -> XMLToken? {
        if pendingEnd {
            pendingEnd = false
            popOpen()
            return .end
        }
        while true {
            if at >= end {
                if try !more(keep: at) { break }
                continue
            }
            tokenStart = at
            if p[at] != 60 {
                if try characterData() { return .text }
                continue
            }
            if end - at < 9 && !input.finished {
                _ = try more(keep: at)
                continue
            }
            let b1 = at + 1 < end ? p[at + 1] : 0
            if b1 == 63 {  // <?
                try skip(from: at + 2, "?>", what: "processing instruction")
                continue
            }
            if b1 == 33 {  // <!
                if starts("<!--") {
                    try skip(from: at + 4, "--", what: "comment")
                    continue
                }
                if starts("<![CDATA[") {
                    guard scratch.depth > 0 else { throw failure(at, "CDATA outside the root element") }
                    if try cdata() { return .text }
                    continue
                }
                throw failure(at, "document type declarations are not supported")
            }
            if b1 == 47 {  // </
                if try !endTag() {
                    at = tokenStart
                    if try !more(keep: tokenStart) { throw failure(tokenStart, "an unterminated end tag") }
                    continue
                }
                return .end
            }
            let complete = try startTag()
            if at - tokenStart > XMLReader.maxTagBytes || (!complete && end - tokenStart >= XMLReader.maxTagBytes) {
                throw failure(tokenStart, "a tag longer than \(XMLReader.maxTagBytes) bytes")
            }
            if !complete {
                at = tokenStart
                if try !more(keep: tokenStart) { throw failure(tokenStart, "an unterminated start tag") }
                continue
            }
            return .start
        }
        guard sawRoot else { throw failure(at, "no root element") }
        guard scratch.depth == 0 else {
            let top = String(decoding: UnsafeBufferPointer(rebasing: scratch.names.bytes[scratch.topStart...]), as: UTF8.self)
            throw failure(at, "element <\(top)> is not closed")
        }
        return nil
    }

    private func starts(_ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard end - at >= n else { return false }
        for k in 0..<n where p[at + k] != s.utf8Start[k] { return false }
        return true
    }

    /// Character data from `at` to the next '<' (or the end), checked; decoded into `text`
    /// when capturing. True when it gave text.
    private mutating func characterData() throws(GeoLocError) -> Bool {
        let capture = captureText && scratch.depth > 0
        let text = scratch.text
        if capture { text.removeAll() }
        while true {
            var i = at
            var run = i
            while i < end {
                let b = p[i]
                // Ordinary character data: anything but '<', '&', ']' and the control characters.
                if classes[Int(b)] & XMLByteClass.dataStop == 0 {
                    i &+= 1
                    continue
                }
                if b == 60 { break }
                if b == 38 {
                    if capture { appendText(run, i) }
                    guard let (r, v) = try reference(i) else { run = i; break }
                    if capture { XMLReader.append(v, to: text) }
                    i = r
                    run = i
                    continue
                }
                if b == 93 {
                    if i + 2 >= end && !input.finished { break }
                    if i + 2 < end && p[i + 1] == 93 && p[i + 2] == 62 { throw failure(i, "']]>' in character data") }
                } else if b < 32 && b != 9 && b != 10 && b != 13 {
                    throw failure(i, "control character \(b)")
                }
                i += 1
            }
            if scratch.depth == 0 {
                for k in at..<i where !isSpace(p[k]) { throw failure(k, "text outside the root element") }
            }
            if capture { appendText(run, i) }
            at = i
            if i < end && p[i] == 60 { break }
            // The window ended (maybe inside a reference or a "]]>"): read on from `at`.
            if try !more(keep: at) {
                if at < end { continue }  // the end of input decides what is left
                break
            }
        }
        return capture && !text.isEmpty
    }

    @inline(__always) private mutating func appendText(_ s: Int, _ e: Int) {
        if e > s { scratch.text.append(p + s, e - s) }
    }

    /// Skips a comment or processing instruction from `i` to its terminator ("--" must be
    /// followed by '>' in a comment).
    private mutating func skip(from i0: Int, _ terminator: StaticString, what: String) throws(GeoLocError) {
        let t0 = terminator.utf8Start[0], t1 = terminator.utf8Start[1]
        let comment = what == "comment"
        var i = i0
        while true {
            while i + 1 < end {
                let b = p[i]
                if b == t0 && p[i + 1] == t1 {
                    if comment {
                        if i + 2 >= end && !input.finished { break }
                        guard i + 2 < end && p[i + 2] == 62 else { throw failure(i, "'--' inside a comment") }
                        at = i + 3
                    } else {
                        at = i + 2
                    }
                    return
                }
                if b < 32 && b != 9 && b != 10 && b != 13 { throw failure(i, "control character \(b)") }
                i += 1
            }
            at = i
            if try !more(keep: i) { throw failure(at, "an unterminated \(what)") }
            i = at
        }
    }

    /// A CDATA section from `at`: its text when capturing. True when it gave text.
    private mutating func cdata() throws(GeoLocError) -> Bool {
        let capture = captureText
        let text = scratch.text
        if capture { text.removeAll() }
        var i = at + 9
        while true {
            let run = i
            while i + 2 < end {
                let b = p[i]
                if b == 93 && p[i + 1] == 93 && p[i + 2] == 62 {
                    if capture { appendText(run, i) }
                    at = i + 3
                    return capture && !text.isEmpty
                }
                if b < 32 && b != 9 && b != 10 && b != 13 { throw failure(i, "control character \(b)") }
                i += 1
            }
            if capture { appendText(run, i) }
            at = i
            if try !more(keep: i) { throw failure(at, "an unterminated CDATA section") }
            i = at
        }
    }

    /// An end tag at `at`. False when the window ends first.
    private mutating func endTag() throws(GeoLocError) -> Bool {
        // The usual case first: the open element's name, then '>' (maybe after blanks).
        let depth = scratch.depth
        if depth > 0 {
            let s = at + 2
            let topStart = scratch.topStart
            let len = scratch.ends[depth - 1] - topStart
            if s + len < end && memcmp(p + s, scratch.names.base + topStart, len) == 0 && !isName(p[s + len]) {
                var i = s + len
                while i < end && isSpace(p[i]) { i &+= 1 }
                if i < end && p[i] == 62 {
                    setName(s, s + len, s + scratch.locals[depth - 1])
                    popOpen()
                    at = i + 1
                    return true
                }
            }
        }
        var i = at + 2
        guard i < end else { return false }
        guard isNameStart(p[i]) else { throw failure(i, "expected an element name") }
        let s = i
        i += 1
        var colon = s
        while i < end && isName(p[i]) {
            if p[i] == 58 { colon = i + 1 }
            i += 1
        }
        let e = i
        while i < end && isSpace(p[i]) { i += 1 }
        guard i < end else { return false }
        guard p[i] == 62 else { throw failure(i, "expected '>'") }
        guard scratch.depth > 0 else { throw failure(s, "an end tag with no open element") }
        let top = scratch.ends[scratch.depth - 1], topStart = scratch.topStart
        let names = scratch.names.base
        var same = top - topStart == e - s
        if same {
            for k in 0..<(e - s) where names[topStart + k] != p[s + k] { same = false; break }
        }
        guard same else {
            throw failure(s, "end tag </\(utf8Text(p, s, e))> does not match <\(utf8Text(names, topStart, top))>")
        }
        setName(s, e, colon)
        popOpen()
        at = i + 1
        return true
    }

    @inline(__always) private mutating func setName(_ s: Int, _ e: Int, _ local: Int) {
        nameStart = s
        nameEnd = e
        localStart = local
    }

    @inline(__always) private mutating func popOpen() {
        scratch.depth -= 1
        scratch.names.removeLast(scratch.names.count - (scratch.depth > 0 ? scratch.ends[scratch.depth - 1] : 0))
    }

    /// A start tag at `at`. False when the window ends first.
    private mutating func startTag() throws(GeoLocError) -> Bool {
        var i = at + 1
        guard i < end else { return false }
        guard isNameStart(p[i]) else { throw failure(i, "expected an element name") }
        let s = i
        i += 1
        var colon = s
        while i < end {
            let c = classes[Int(p[i])]
            if c & XMLByteClass.name == 0 { break }
            if c & XMLByteClass.colon != 0 { colon = i + 1 }
            i &+= 1
        }
        guard i < end else { return false }
        let e = i
        scratch.attributeCount = 0
        var selfClosing = false
        while true {
            let spaceStart = i
            while i < end && isSpace(p[i]) { i += 1 }
            guard i < end else { return false }
            if p[i] == 62 { i += 1; break }
            if p[i] == 47 {
                guard i + 1 < end else { return false }
                guard p[i + 1] == 62 else { throw failure(i, "expected '/>'") }
                i += 2
                selfClosing = true
                break
            }
            guard i > spaceStart else { throw failure(i, "expected whitespace before an attribute") }
            guard isNameStart(p[i]) else { throw failure(i, "expected an attribute name") }
            let ns = i
            i += 1
            while i < end && isName(p[i]) { i &+= 1 }
            let ne = i
            while i < end && isSpace(p[i]) { i += 1 }
            guard i < end else { return false }
            guard p[i] == 61 else { throw failure(i, "expected '=' after an attribute name") }
            i += 1
            while i < end && isSpace(p[i]) { i += 1 }
            guard i < end else { return false }
            guard p[i] == 34 || p[i] == 39 else { throw failure(i, "expected a quoted attribute value") }
            let q = p[i]
            let vs = i + 1
            i = vs
            var plain = true
            while i < end {
                let b = p[i]
                if classes[Int(b)] & XMLByteClass.valueStop == 0 {
                    i &+= 1
                    continue
                }
                if b == q { break }
                if b == 38 {
                    guard let (r, _) = try reference(i) else { return false }
                    plain = false
                    i = r
                    continue
                }
                if b == 60 { throw failure(i, "'<' in an attribute value") }
                if b < 32 {
                    guard b == 9 || b == 10 || b == 13 else { throw failure(i, "control character \(b)") }
                    plain = false
                }
                i += 1
            }
            guard i < end else { return false }
            let count = scratch.attributeCount
            guard count < XMLReader.maxAttributes else { throw failure(ns, "more than \(XMLReader.maxAttributes) attributes") }
            for j in 0..<count where scratch.attributes[j].nameEnd - scratch.attributes[j].nameStart == ne - ns {
                let a = scratch.attributes[j]
                var same = true
                for k in 0..<(ne - ns) where p[a.nameStart + k] != p[ns + k] { same = false; break }
                if same { throw failure(ns, "attribute \(utf8Text(p, ns, ne)) repeated") }
            }
            scratch.attributes[count] = XMLAttribute(nameStart: ns, nameEnd: ne, valueStart: vs, valueEnd: i, plain: plain)
            scratch.attributeCount = count + 1
            i += 1
        }
        if scratch.depth == 0 {
            guard !sawRoot else { throw failure(s, "a second root element") }
            sawRoot = true
        }
        guard scratch.depth < XMLReader.maxDepth else { throw failure(s, "elements nested deeper than \(XMLReader.maxDepth)") }
        scratch.names.append(p + s, e - s)
        scratch.ends[scratch.depth] = scratch.names.count
        scratch.locals[scratch.depth] = colon - s
        scratch.depth += 1
        setName(s, e, colon)
        pendingEnd = selfClosing
        at = i
        return true
    }

    // MARK: What the caller reads

    /// The local name of the current tag (after any prefix).
    var localName: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: p + localStart, count: nameEnd - localStart) }

    /// The local name as text (for messages).
    var localNameText: String { utf8Text(p, localStart, nameEnd) }

    /// Calls `body` with the value of the attribute of this qualified name (decoded), or nil.
    mutating func withAttribute<R>(_ key: StaticString, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        let n = key.utf8CodeUnitCount
        for j in 0..<scratch.attributeCount where scratch.attributes[j].nameEnd - scratch.attributes[j].nameStart == n {
            let a = scratch.attributes[j]
            var same = true
            for k in 0..<n where p[a.nameStart + k] != key.utf8Start[k] { same = false; break }
            guard same else { continue }
            if a.plain { return body(UnsafeBufferPointer(start: p + a.valueStart, count: a.valueEnd - a.valueStart)) }
            var value: [UInt8] = []
            var i = a.valueStart
            while i < a.valueEnd {
                if p[i] == 38, let (r, v) = (try? reference(i)) ?? nil {
                    XMLReader.append(v, to: &value)
                    i = r
                    continue
                }
                value.append(p[i] == 9 || p[i] == 10 || p[i] == 13 ? 32 : p[i])
                i += 1
            }
            return value.withUnsafeBufferPointer { body($0) }
        }
        return body(nil)
    }
}

/// Bytes that grow (a class: mutated in place, no copy-on-write checks on the hot path).
final class ByteBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    var isEmpty: Bool { count == 0 }
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always) func removeAll() { count = 0 }
    @inline(__always) func removeLast(_ k: Int) { count -= k }

    @inline(__always) func append(_ p: UnsafePointer<UInt8>, _ n: Int) {
        if count + n > capacity { grow(count + n) }
        (base + count).update(from: p, count: n)
        count += n
    }

    @inline(__always) func append(_ b: UInt8) {
        if count == capacity { grow(count + 1) }
        base[count] = b
        count += 1
    }

    private func grow(_ needed: Int) {
        base = regrow(base, count: count, capacity: &capacity, needed: needed)
    }
}

/// How the reader's byte buffers grow (`ByteBuffer`, `XMLInput`'s window): the first `count`
/// bytes of `base` move to a new allocation of `capacity` doubled until it holds `needed`
/// (more than `capacity`), which becomes the new `capacity`; `base` is freed.
func regrow(_ base: UnsafeMutablePointer<UInt8>, count: Int, capacity: inout Int, needed: Int) -> UnsafeMutablePointer<UInt8> {
    var c = capacity * 2
    while c < needed { c *= 2 }
    let b = UnsafeMutablePointer<UInt8>.allocate(capacity: c)
    b.update(from: base, count: count)
    base.deallocate()
    capacity = c
    return b
}

/// The reader's fixed scratch: the open elements' names and ends, the current tag's attributes.
final class XMLScratch {
    let names = ByteBuffer()
    let ends = UnsafeMutablePointer<Int>.allocate(capacity: XMLReader.maxDepth + 1)
    /// Where each open element's local name starts in its name (after a prefix's ':').
    let locals = UnsafeMutablePointer<Int>.allocate(capacity: XMLReader.maxDepth + 1)
    var depth = 0
    let attributes = UnsafeMutablePointer<XMLAttribute>.allocate(capacity: XMLReader.maxAttributes)
    var attributeCount = 0
    let text = ByteBuffer()

    deinit {
        ends.deallocate()
        locals.deallocate()
        attributes.deallocate()
    }

    /// Where the top element's name starts in `names`.
    var topStart: Int { depth > 1 ? ends[depth - 2] : 0 }
}
