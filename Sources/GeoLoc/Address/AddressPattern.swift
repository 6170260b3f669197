// The regular expressions the address rules need, and no more: a small backtracking engine over
// Unicode scalars for the patterns of the six countries' replace and post-format rules.

// MARK: - A small regular-expression engine

/// The regular expressions of the `replace` and `postformat_replace` rules, with Perl's meaning:
/// literals; the escapes `\d` `\w` `\s` `\D` `\W` `\S` (Unicode classes), `\b`, `\n`, `\t` and
/// escaped punctuation; `.` (any character but newline); classes `[...]` and `[^...]` with
/// ranges and escapes; groups `( )` (capturing) and `(?: )`; alternation `|`; the quantifiers
/// `?` `*` `+` `{n}` `{n,}` `{n,m}`, greedy or lazy (a following `?`), with backtracking; the
/// anchors `^` (start of text) and `$` (end of text, or before a newline that ends it). A
/// replacement may name groups as `$1`...`$9`. Any other construct does not compile.
struct MiniRegex: Sendable {
    /// The deepest nesting of a match (about 1 KB of stack each level takes at most).
    static let maxMatchDepth = 1_000

    fileprivate indirect enum Node: Sendable {
        case scalar(Unicode.Scalar)
        case any
        case set([ClassItem], negated: Bool)
        case start, end, boundary
        case group([[Node]], capture: Int?)
        case repetition(Node, min: Int, max: Int, lazy: Bool)
    }

    fileprivate enum ClassItem: Sendable {
        case range(Unicode.Scalar, Unicode.Scalar)
        case digit(Bool), word(Bool), space(Bool)

        func contains(_ c: Unicode.Scalar, ignoringCase: Bool) -> Bool {
            switch self {
            case .range(let a, let b):
                if a <= c && c <= b { return true }
                guard ignoringCase else { return false }
                let l = lowerScalar(c), u = upperScalar(c)
                return (a <= l && l <= b) || (a <= u && u <= b)
            case .digit(let yes): return isDigit(c) == yes
            case .word(let yes): return isWord(c) == yes
            case .space(let yes): return isSpace(c) == yes
            }
        }
    }

    private let alternatives: [[Node]]
    private let groupCount: Int
    private let ignoringCase: Bool

    /// Nil when the pattern uses a construct outside the subset or is malformed. With
    /// `ignoringCase`, letters match their other case (Perl's `/i`, by simple case mappings).
    init?(_ pattern: String, ignoringCase: Bool = false) {
        self.ignoringCase = ignoringCase
        let p = Array(pattern.unicodeScalars)
        var i = 0
        var groups = 0

        func escapeItem(_ c: Unicode.Scalar) -> ClassItem {
            switch c {
            case "d": return .digit(true)
            case "D": return .digit(false)
            case "w": return .word(true)
            case "W": return .word(false)
            case "s": return .space(true)
            case "S": return .space(false)
            case "n": return .range("\n", "\n")
            case "t": return .range("\t", "\t")
            default: return .range(c, c)
            }
        }
        func isLetterEscapeUnknown(_ c: Unicode.Scalar) -> Bool {
            (c.properties.isAlphabetic || isDigit(c)) && !"dDwWsSntb".unicodeScalars.contains(c)
        }
        func parseNumber() -> Int? {
            var n: Int?
            while i < p.count, p[i].value >= 48, p[i].value <= 57, (n ?? 0) < 10_000 {
                n = (n ?? 0) * 10 + Int(p[i].value - 48)
                i += 1
            }
            return n
        }
        func parseAlternatives() -> [[Node]]? {
            var alts: [[Node]] = []
            var seq: [Node] = []
            while i < p.count {
                let c = p[i]
                if c == ")" { break }
                if c == "|" { alts.append(seq); seq = []; i += 1; continue }
                var node: Node
                switch c {
                case "(":
                    i += 1
                    var capture: Int?
                    if i + 1 < p.count, p[i] == "?", p[i + 1] == ":" {
                        i += 2
                    } else if i < p.count, p[i] == "?" {
                        return nil
                    } else {
                        groups += 1
                        capture = groups
                    }
                    guard let inner = parseAlternatives(), i < p.count, p[i] == ")" else { return nil }
                    i += 1
                    node = .group(inner, capture: capture)
                case "[":
                    i += 1
                    var negated = false
                    if i < p.count, p[i] == "^" { negated = true; i += 1 }
                    var items: [ClassItem] = []
                    var first = true
                    while i < p.count, p[i] != "]" || first {
                        first = false
                        var lo: ClassItem
                        if p[i] == "\\" {
                            guard i + 1 < p.count, !isLetterEscapeUnknown(p[i + 1]) || p[i + 1] == "b" else { return nil }
                            lo = p[i + 1] == "b" ? .range("\u{8}", "\u{8}") : escapeItem(p[i + 1])
                            i += 2
                        } else {
                            lo = .range(p[i], p[i])
                            i += 1
                        }
                        if case .range(let a, _) = lo, i + 1 < p.count, p[i] == "-", p[i + 1] != "]" {
                            var b = p[i + 1]
                            i += 2
                            if b == "\\" {
                                guard i < p.count else { return nil }
                                b = p[i]
                                i += 1
                            }
                            guard a <= b else { return nil }
                            lo = .range(a, b)
                        }
                        items.append(lo)
                    }
                    guard i < p.count else { return nil }
                    i += 1
                    node = .set(items, negated: negated)
                case "\\":
                    guard i + 1 < p.count else { return nil }
                    let e = p[i + 1]
                    i += 2
                    if e == "b" {
                        node = .boundary
                    } else if isLetterEscapeUnknown(e) {
                        return nil
                    } else {
                        let item = escapeItem(e)
                        if case .range(let a, let b) = item, a == b {
                            node = .scalar(ignoringCase ? lowerScalar(a) : a)
                        } else {
                            node = .set([item], negated: false)
                        }
                    }
                case ".": node = .any; i += 1
                case "^": node = .start; i += 1
                case "$": node = .end; i += 1
                case "?", "*", "+", "{", "]", "}": return nil
                default: node = .scalar(ignoringCase ? lowerScalar(c) : c); i += 1
                }
                // Quantifier.
                if i < p.count {
                    var range: (Int, Int)?
                    switch p[i] {
                    case "?": range = (0, 1); i += 1
                    case "*": range = (0, Int.max); i += 1
                    case "+": range = (1, Int.max); i += 1
                    case "{":
                        let save = i
                        i += 1
                        if let lo = parseNumber() {
                            var hi = lo
                            if i < p.count, p[i] == "," {
                                i += 1
                                hi = parseNumber() ?? Int.max
                            }
                            if i < p.count, p[i] == "}", lo <= hi {
                                i += 1
                                range = (lo, hi)
                            } else { return nil }
                        } else { i = save; return nil }
                    default: break
                    }
                    if let (lo, hi) = range {
                        switch node {
                        case .start, .end, .boundary: return nil
                        default: break
                        }
                        var lazy = false
                        if i < p.count, p[i] == "?" { lazy = true; i += 1 }
                        if i < p.count, "?*+{".unicodeScalars.contains(p[i]) { return nil }
                        node = .repetition(node, min: lo, max: hi, lazy: lazy)
                    }
                }
                seq.append(node)
            }
            alts.append(seq)
            return alts
        }
        guard let alts = parseAlternatives(), i == p.count else { return nil }
        alternatives = alts
        groupCount = groups
        anchored = alts.allSatisfy { alt in
            if case .start? = alt.first { return true }
            return false
        }
        // The longest run of literal scalars every match contains (only a pattern of one
        // alternative has one): a text without it is not searched.
        var best: [Unicode.Scalar] = []
        if alts.count == 1 {
            var run: [Unicode.Scalar] = []
            for node in alts[0] {
                if case .scalar(let c) = node {
                    run.append(c)
                } else {
                    if run.count > best.count { best = run }
                    run = []
                }
            }
            if run.count > best.count { best = run }
        }
        requiredLiteral = best
    }

    /// Whether every alternative starts with `^` (a match can only start at 0).
    private let anchored: Bool
    /// Scalars every match contains in this order (lower case when ignoring case).
    private let requiredLiteral: [Unicode.Scalar]

    /// Whether `s` contains the required literal.
    private func mayMatch(_ s: [Unicode.Scalar]) -> Bool {
        let lit = requiredLiteral
        guard let first = lit.first else { return true }
        guard lit.count <= s.count else { return false }
        var i = 0
        let last = s.count - lit.count
        while i <= last {
            let c = ignoringCase ? lowerScalar(s[i]) : s[i]
            if c == first {
                var j = 1
                while j < lit.count {
                    let d = ignoringCase ? lowerScalar(s[i + j]) : s[i + j]
                    if d != lit[j] { break }
                    j += 1
                }
                if j == lit.count { return true }
            }
            i += 1
        }
        return false
    }

    /// The first (leftmost) match and its groups' ranges (index 0 the whole match).
    func firstMatch(in s: [Unicode.Scalar]) -> [Range<Int>?]? {
        guard mayMatch(s) else { return nil }
        let state = MatchState(s, groups: groupCount, ignoringCase: ignoringCase)
        for startAt in 0...(anchored ? 0 : s.count) {
            // Every capture is undone when the rest of its match fails, so after a failed start
            // the captures are all unset again.
            var endAt = -1
            if MiniRegex.matchAlternatives(alternatives, capture: nil, startAt, state, { j in endAt = j; return true }) {
                var out: [Range<Int>?] = [startAt..<endAt]
                for g in 1...max(groupCount, 1) where g <= groupCount {
                    let a = state.caps[2 * g], b = state.caps[2 * g + 1]
                    out.append(a >= 0 && b >= a ? a..<b : nil)
                }
                return out
            }
        }
        return nil
    }

    /// `s` with its first match replaced: `$1`...`$9` in the replacement are the groups' text
    /// (empty for a group that did not take part).
    func replacingFirstMatch(in s: String, with replacement: [Unicode.Scalar]) -> String {
        replacingFirstMatchIfAny(in: s, with: replacement) ?? s
    }

    /// ``replacingFirstMatch(in:with:)``, nil when nothing matches.
    func replacingFirstMatchIfAny(in s: String, with replacement: [Unicode.Scalar]) -> String? {
        replacingFirstMatchIfAny(inScalars: Array(s.unicodeScalars), with: replacement).map { String(String.UnicodeScalarView($0)) }
    }

    /// ``replacingFirstMatch(in:with:)`` on scalars, nil when nothing matches.
    func replacingFirstMatchIfAny(inScalars u: [Unicode.Scalar], with replacement: [Unicode.Scalar]) -> [Unicode.Scalar]? {
        guard let m = firstMatch(in: u), let whole = m[0] else { return nil }
        var r: [Unicode.Scalar] = []
        var i = 0
        while i < replacement.count {
            let c = replacement[i]
            if c == "$", i + 1 < replacement.count, isDigit(replacement[i + 1]) {
                let g = Int(replacement[i + 1].value - 48)
                if g < m.count, let range = m[g] { r.append(contentsOf: u[range]) }
                i += 2
                continue
            }
            r.append(c)
            i += 1
        }
        var out = u
        out.replaceSubrange(whole, with: r)
        return out
    }

    private final class MatchState {
        let s: [Unicode.Scalar]
        var caps: [Int]
        var steps = 0
        var depth = 0
        let ignoringCase: Bool
        init(_ s: [Unicode.Scalar], groups: Int, ignoringCase: Bool) {
            self.s = s
            self.ignoringCase = ignoringCase
            caps = [Int](repeating: -1, count: 2 * (groups + 1))
        }
    }

    private static func matchAlternatives(
        _ alts: [[Node]], capture: Int?, _ i: Int, _ st: MatchState, _ k: (Int) -> Bool
    ) -> Bool {
        for alt in alts {
            let ok = matchSequence(alt, 0, i, st) { j in
                guard let g = capture else { return k(j) }
                let a = st.caps[2 * g], b = st.caps[2 * g + 1]
                st.caps[2 * g] = i
                st.caps[2 * g + 1] = j
                if k(j) { return true }
                st.caps[2 * g] = a
                st.caps[2 * g + 1] = b
                return false
            }
            if ok { return true }
        }
        return false
    }

    private static func matchSequence(_ seq: [Node], _ at: Int, _ i: Int, _ st: MatchState, _ k: (Int) -> Bool) -> Bool {
        if at == seq.count { return k(i) }
        return matchNode(seq[at], i, st) { j in matchSequence(seq, at + 1, j, st, k) }
    }

    private static func matchNode(_ node: Node, _ i: Int, _ st: MatchState, _ k: (Int) -> Bool) -> Bool {
        st.steps += 1
        st.depth += 1
        defer { st.depth -= 1 }
        // Bounds on the work and on the stack for one text (each step of a match nests a call): a
        // match that would need more is treated as no match, so a rule never applies to a text
        // with a run of more than about a thousand characters under one repetition.
        if st.steps > 1_000_000 || st.depth > MiniRegex.maxMatchDepth { return false }
        let s = st.s
        switch node {
        case .scalar(let c):
            return i < s.count && (s[i] == c || (st.ignoringCase && lowerScalar(s[i]) == c)) && k(i + 1)
        case .any:
            return i < s.count && s[i] != "\n" && k(i + 1)
        case .set(let items, let negated):
            guard i < s.count else { return false }
            let c = s[i]
            return items.contains(where: { $0.contains(c, ignoringCase: st.ignoringCase) }) != negated && k(i + 1)
        case .start:
            return i == 0 && k(i)
        case .end:
            return (i == s.count || (i == s.count - 1 && s[i] == "\n")) && k(i)
        case .boundary:
            let before = i > 0 && isWord(s[i - 1])
            let after = i < s.count && isWord(s[i])
            return before != after && k(i)
        case .group(let alts, let capture):
            return matchAlternatives(alts, capture: capture, i, st, k)
        case .repetition(let inner, let lo, let hi, let lazy):
            func more(_ count: Int, _ j: Int) -> Bool {
                if lazy {
                    if count >= lo, k(j) { return true }
                    return count < hi && matchNode(inner, j, st) { e in e != j && more(count + 1, e) }
                }
                if count < hi, matchNode(inner, j, st, { e in (e != j || count < lo) && more(count + 1, e) }) {
                    return true
                }
                return count >= lo && k(j)
            }
            return more(0, i)
        }
    }
}
