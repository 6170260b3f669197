// The text side of the postal form: the Mustache templates of the address data (parsed and
// rendered) and the clean-up of the rendered text (spaces, punctuation, repeated lines).

// MARK: - Postal form: templates

/// Parses the Mustache subset of the templates: `{{{name}}}` and `{{#first}} ... {{/first}}`
/// (other tags are kept as text).
func parseTemplate(_ template: String) -> [TemplateNode] {
    let s = Array(template.unicodeScalars)
    var i = 0
    func starts(_ prefix: String, at i: Int) -> Bool {
        var j = i
        for p in prefix.unicodeScalars {
            guard j < s.count, s[j] == p else { return false }
            j += 1
        }
        return true
    }
    func parse(untilClose: Bool) -> [TemplateNode] {
        var nodes: [TemplateNode] = []
        var text: [Unicode.Scalar] = []
        func flush() {
            if !text.isEmpty { nodes.append(.text(text)); text = [] }
        }
        while i < s.count {
            if starts("{{{", at: i) {
                var j = i + 3
                var name = ""
                while j < s.count, !starts("}}}", at: j) { name.unicodeScalars.append(s[j]); j += 1 }
                if j < s.count {
                    flush()
                    nodes.append(.variable(name.trimmingWhitespace()))
                    i = j + 3
                    continue
                }
            } else if starts("{{#first}}", at: i) {
                flush()
                i += "{{#first}}".unicodeScalars.count
                nodes.append(.first(parse(untilClose: true)))
                continue
            } else if untilClose, starts("{{/first}}", at: i) {
                i += "{{/first}}".unicodeScalars.count
                flush()
                return nodes
            }
            text.append(s[i])
            i += 1
        }
        flush()
        return nodes
    }
    return parse(untilClose: false)
}

private extension String {
    func trimmingWhitespace() -> String { trimmedValue(self) }
}

func render(_ nodes: [TemplateNode], _ ctx: [String: String], into out: inout [Unicode.Scalar]) {
    for node in nodes {
        switch node {
        case .text(let t):
            out.append(contentsOf: t)
        case .variable(let name):
            if let v = ctx[name] { out.append(contentsOf: v.unicodeScalars) }
        case .first(let children):
            var inner: [Unicode.Scalar] = []
            render(children, ctx, into: &inner)
            out.append(contentsOf: selectFirst(inner))
        }
    }
}

func renderTemplate(_ nodes: [TemplateNode], _ ctx: [String: String]) -> [Unicode.Scalar] {
    var out: [Unicode.Scalar] = []
    out.reserveCapacity(256)
    render(nodes, ctx, into: &out)
    return out
}

/// The first non-empty alternative of "a || b || c", whitespace around each trimmed.
private func selectFirst(_ s: [Unicode.Scalar]) -> [Unicode.Scalar] {
    var start = 0
    var i = 0
    func piece(_ a: Int, _ b: Int) -> ArraySlice<Unicode.Scalar> {
        var a = a, b = b
        while a < b, isSpace(s[a]) { a += 1 }
        while b > a, isSpace(s[b - 1]) { b -= 1 }
        return s[a..<b]
    }
    while i + 1 < s.count {
        if s[i] == "|" && s[i + 1] == "|" {
            let p = piece(start, i)
            if !p.isEmpty { return Array(p) }
            i += 2
            start = i
        } else {
            i += 1
        }
    }
    return Array(piece(start, s.count))
}

// MARK: - Postal form: clean-up

/// Perl's `\s` (Unicode white space).
@inline(__always)
func isSpace(_ c: Unicode.Scalar) -> Bool {
    switch c.value {
    case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
    default: return false
    }
}

/// Perl's `\h` (horizontal white space).
@inline(__always)
private func isHorizontalSpace(_ c: Unicode.Scalar) -> Bool {
    switch c.value {
    case 0x09, 0x20, 0xA0, 0x1680, 0x180E, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: return true
    default: return false
    }
}

/// Perl's `\d` (a decimal digit in any script).
@inline(__always)
func isDigit(_ c: Unicode.Scalar) -> Bool {
    c.properties.generalCategory == .decimalNumber
}

/// Perl's `\w` (letter, mark, digit or connector punctuation).
@inline(__always)
func isWord(_ c: Unicode.Scalar) -> Bool {
    let p = c.properties
    if p.isAlphabetic { return true }
    switch p.generalCategory {
    case .decimalNumber, .nonspacingMark, .spacingMark, .enclosingMark, .connectorPunctuation: return true
    default: return false
    }
}

/// The simple lower-case mapping of a scalar (itself when it has none of one scalar).
@inline(__always)
func lowerScalar(_ c: Unicode.Scalar) -> Unicode.Scalar {
    if c.isASCII { return c.value >= 0x41 && c.value <= 0x5A ? Unicode.Scalar(c.value + 32)! : c }
    guard c.properties.changesWhenLowercased else { return c }
    let m = c.properties.lowercaseMapping.unicodeScalars
    return m.count == 1 ? m.first! : c
}

/// The simple upper-case mapping of a scalar (itself when it has none of one scalar).
@inline(__always)
func upperScalar(_ c: Unicode.Scalar) -> Unicode.Scalar {
    if c.isASCII { return c.value >= 0x61 && c.value <= 0x7A ? Unicode.Scalar(c.value - 32)! : c }
    guard c.properties.changesWhenUppercased else { return c }
    let m = c.properties.uppercaseMapping.unicodeScalars
    return m.count == 1 ? m.first! : c
}

@inline(__always)
func isASCIILetter(_ c: Unicode.Scalar) -> Bool {
    (c.value | 0x20) >= 0x61 && (c.value | 0x20) <= 0x7A
}

/// One left-to-right pass of a global substitution: at each position `match` may return the end
/// of a match and its replacement.
private func substituteAll(
    _ s: [Unicode.Scalar], _ match: ([Unicode.Scalar], Int) -> (end: Int, with: [Unicode.Scalar])?
) -> [Unicode.Scalar] {
    // Most passes find nothing: copy only from the first match on.
    var i = 0
    while i < s.count, match(s, i).map({ $0.end <= i }) ?? true { i += 1 }
    if i == s.count { return s }
    var out: [Unicode.Scalar] = []
    out.reserveCapacity(s.count)
    out.append(contentsOf: s[0..<i])
    while i < s.count {
        if let m = match(s, i), m.end > i {
            out.append(contentsOf: m.with)
            i = m.end
        } else {
            out.append(s[i])
            i += 1
        }
    }
    return out
}

/// The end of the run of scalars from `i` that satisfy `p`.
@inline(__always)
private func runEnd(_ s: [Unicode.Scalar], _ i: Int, _ p: (Unicode.Scalar) -> Bool) -> Int {
    var j = i
    while j < s.count, p(s[j]) { j += 1 }
    return j
}

/// The reference formatter's `_clean`: commas and white space tidied, duplicate lines and
/// duplicate comma-separated parts within a line removed ("New York, New York" excepted), the
/// text trimmed and ended with one newline.
func cleanText(_ text: [Unicode.Scalar]) -> [Unicode.Scalar] {
    var s = text
    // s/&#39;/'/g
    let apos = Array("&#39;".unicodeScalars)
    s = substituteAll(s) { s, i in
        s[i] == "&" && i + apos.count <= s.count && Array(s[i..<(i + apos.count)]) == apos ? (i + apos.count, ["'"]) : nil
    }
    // s/[\},\s]+$//  and  s/^[,\s]+//
    while let last = s.last, last == "}" || last == "," || isSpace(last) { s.removeLast() }
    let lead = runEnd(s, 0) { $0 == "," || isSpace($0) }
    s.removeFirst(lead)
    // s/^- //
    if s.count >= 2, s[0] == "-", s[1] == " " { s.removeFirst(2) }
    // s/,\s*,/, /g
    s = substituteAll(s) { s, i in
        guard s[i] == "," else { return nil }
        let j = runEnd(s, i + 1, isSpace)
        return j < s.count && s[j] == "," ? (j + 1, [",", " "]) : nil
    }
    // s/\h+,\h+/, /g
    s = substituteAll(s) { s, i in
        guard isHorizontalSpace(s[i]) else { return nil }
        let j = runEnd(s, i, isHorizontalSpace)
        guard j + 1 < s.count, s[j] == ",", isHorizontalSpace(s[j + 1]) else { return nil }
        return (runEnd(s, j + 1, isHorizontalSpace), [",", " "])
    }
    // s/\h\h+/ /g
    s = substituteAll(s) { s, i in
        guard i + 1 < s.count, isHorizontalSpace(s[i]), isHorizontalSpace(s[i + 1]) else { return nil }
        return (runEnd(s, i, isHorizontalSpace), [" "])
    }
    // s/\h\n/\n/g
    s = substituteAll(s) { s, i in
        i + 1 < s.count && isHorizontalSpace(s[i]) && s[i + 1] == "\n" ? (i + 2, ["\n"]) : nil
    }
    // s/\n,/\n/g
    s = substituteAll(s) { s, i in i + 1 < s.count && s[i] == "\n" && s[i + 1] == "," ? (i + 2, ["\n"]) : nil }
    // s/,,+/,/g
    s = substituteAll(s) { s, i in
        i + 1 < s.count && s[i] == "," && s[i + 1] == "," ? (runEnd(s, i) { $0 == "," }, [","]) : nil
    }
    // s/,\n/\n/g
    s = substituteAll(s) { s, i in i + 1 < s.count && s[i] == "," && s[i + 1] == "\n" ? (i + 2, ["\n"]) : nil }
    // s/\n\h+/\n/g
    s = substituteAll(s) { s, i in
        i + 1 < s.count && s[i] == "\n" && isHorizontalSpace(s[i + 1]) ? (runEnd(s, i + 1, isHorizontalSpace), ["\n"]) : nil
    }
    // s/\n\n+/\n/g
    s = substituteAll(s) { s, i in
        i + 1 < s.count && s[i] == "\n" && s[i + 1] == "\n" ? (runEnd(s, i) { $0 == "\n" }, ["\n"]) : nil
    }

    // Duplicate lines, then duplicate parts within each line.
    // (An address has a few lines of a few parts: a linear search beats hashing.)
    var lines = perlSplit(s, on: "\n")
    var seenLines: [[Unicode.Scalar]] = []
    var kept: [[Unicode.Scalar]] = []
    for raw in lines {
        let line = trimmed(raw, isHorizontalSpace)
        guard !seenLines.contains(line) else { continue }
        seenLines.append(line)
        guard line.contains(",") else { kept.append(line); continue }
        var seenWords: [[Unicode.Scalar]] = []
        var words: [[Unicode.Scalar]] = []
        for rawWord in perlSplit(line, on: ",") {
            let w = trimmed(rawWord, isHorizontalSpace)
            if !isNewYork(w) {
                guard !seenWords.contains(w) else { continue }
                seenWords.append(w)
            }
            words.append(w)
        }
        kept.append(Array(words.joined(separator: [",", " "])))
    }
    lines = kept
    var out = Array(lines.joined(separator: ["\n"]))
    out = trimmed(out, isSpace)
    out.append("\n")
    return out
}

/// Perl's `split`: leading empty fields kept, trailing empty fields dropped.
private func perlSplit(_ s: [Unicode.Scalar], on separator: Unicode.Scalar) -> [[Unicode.Scalar]] {
    var fields = s.split(separator: separator, omittingEmptySubsequences: false).map(Array.init)
    while let last = fields.last, last.isEmpty { fields.removeLast() }
    return fields
}

private func trimmed(_ s: [Unicode.Scalar], _ p: (Unicode.Scalar) -> Bool) -> [Unicode.Scalar] {
    var a = 0, b = s.count
    while a < b, p(s[a]) { a += 1 }
    while b > a, p(s[b - 1]) { b -= 1 }
    return Array(s[a..<b])
}

private func isNewYork(_ w: [Unicode.Scalar]) -> Bool {
    w.count == 8 && String(String.UnicodeScalarView(w)).lowercased() == "new york"
}

/// The reference formatter's `_postformat`: duplicate ", "-separated parts removed, then the
/// country's rules, each replacing its first match.
func postformat(_ s: [Unicode.Scalar], _ rules: [(MiniRegex, [Unicode.Scalar])]) -> [Unicode.Scalar] {
    // split(/, /): pieces, leading white space removed, duplicates dropped ("New York" kept).
    var pieces: [[Unicode.Scalar]] = []
    var start = 0
    var i = 0
    while i + 1 < s.count {
        if s[i] == ",", s[i + 1] == " " {
            pieces.append(Array(s[start..<i]))
            i += 2
            start = i
        } else {
            i += 1
        }
    }
    pieces.append(Array(s[start..<s.count]))
    while let last = pieces.last, last.isEmpty { pieces.removeLast() }
    var kept: [[Unicode.Scalar]] = []
    for raw in pieces {
        let piece = Array(raw[runEnd(raw, 0, isSpace)...])
        if kept.contains(piece) && !isNewYork(piece) { continue }
        kept.append(piece)
    }
    var text = pieces.count == 1 ? kept.first ?? [] : Array(kept.joined(separator: [",", " "]))
    for (re, replacement) in rules {
        if let replaced = re.replacingFirstMatchIfAny(inScalars: text, with: replacement) { text = replaced }
    }
    return text
}
