// The look-ups of a search index (SearchFile.swift): a key exactly, the keys that start with a
// prefix (the best places first), the keys within a number of typing errors (the trie), and the
// regions and countries a qualifier names.

/// A checked search index, mapped or in memory.
final class SearchIndex: @unchecked Sendable {
    let image: SearchImage

    init(_ image: SearchImage) { self.image = image }

    /// Byte-wise order, a prefix first.
    @inline(__always)
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let n = Swift.min(a.count, b.count)
        var i = 0
        while i < n {
            if a[i] != b[i] { return a[i] < b[i] ? -1 : 1 }
            i += 1
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    @inline(__always)
    static func less(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool { compare(a, b) < 0 }

    /// The first key not less than `key`.
    func lowerBound(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        var lo = 0
        var hi = image.keyCount
        while lo < hi {
            let mid = (lo + hi) >> 1
            if SearchIndex.less(image.key(mid), key) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The key equal to `key`, if any.
    func exact(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
        let j = lowerBound(key)
        return j < image.keyCount && SearchIndex.compare(image.key(j), key) == 0 ? j : nil
    }

    /// The keys that start with `prefix`.
    func prefixRange(_ prefix: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let lo = lowerBound(prefix)
        // The first key past the prefix: binary search on "starts with".
        var a = lo
        var b = image.keyCount
        while a < b {
            let mid = (a + b) >> 1
            let k = image.key(mid)
            let starts = k.count >= prefix.count && SearchIndex.compare(UnsafeBufferPointer(rebasing: k[0..<prefix.count]), prefix) == 0
            if starts { a = mid + 1 } else { b = mid }
        }
        return lo..<a
    }

    /// A posting's prominence: the population, a tenth of it for an alternate name.
    @inline(__always)
    func prominence(_ e: Int) -> UInt32 {
        let p = image.posting(e)
        let pop = image.population(p.place)
        return p.alternate ? pop / 10 : pop
    }

    /// Up to `count` keys of `range` whose best places are the most prominent, best first (ties
    /// by key order), found with the best-of-block table: blocks that cannot beat the current
    /// last are skipped.
    func bestKeys(in range: Range<Int>, count: Int) -> [Int] {
        guard !range.isEmpty, count > 0 else { return [] }
        // A small sorted list (count is small): (prominence, key).
        var top: [(UInt32, Int)] = []
        top.reserveCapacity(count + 1)
        func offer(_ j: Int) {
            let p = prominence(image.postings(j).lowerBound)
            if top.count == count, let last = top.last, p <= last.0 { return }
            var at = top.count
            while at > 0 && top[at - 1].0 < p { at -= 1 }
            top.insert((p, j), at: at)
            if top.count > count { top.removeLast() }
        }
        let size = SearchFile.blockSize
        var j = range.lowerBound
        while j < range.upperBound {
            let block = j / size
            let blockEnd = Swift.min((block + 1) * size, range.upperBound)
            if j == block * size && blockEnd == (block + 1) * size && top.count == count,
               image.u32(image.layout.blockBest, block) <= top[top.count - 1].0 {
                j = blockEnd
                continue
            }
            while j < blockEnd {
                offer(j)
                j += 1
            }
        }
        return top.map { $0.1 }
    }

    /// The targets (regions; countries with `SearchFile.countryBit`) of the qualifier name `key`.
    func aliasTargets(_ key: UnsafeBufferPointer<UInt8>) -> [UInt32] {
        var lo = 0
        var hi = image.layout.aliases
        while lo < hi {
            let mid = (lo + hi) >> 1
            if SearchIndex.less(image.alias(mid), key) { lo = mid + 1 } else { hi = mid }
        }
        var out: [UInt32] = []
        while lo < image.layout.aliases && SearchIndex.compare(image.alias(lo), key) == 0 {
            out.append(image.u32(image.layout.aliasTarget, lo))
            lo += 1
        }
        return out
    }

    /// The qualifier names of `target`.
    func aliases(of target: UInt32) -> [UnsafeBufferPointer<UInt8>] {
        let l = image.layout
        var lo = 0
        var hi = l.aliases
        while lo < hi {
            let mid = (lo + hi) >> 1
            if image.u32(l.aliasTarget, Int(image.u32(l.aliasByTarget, mid))) < target { lo = mid + 1 } else { hi = mid }
        }
        var out: [UnsafeBufferPointer<UInt8>] = []
        while lo < l.aliases {
            let j = Int(image.u32(l.aliasByTarget, lo))
            guard image.u32(l.aliasTarget, j) == target else { break }
            out.append(image.alias(j))
            lo += 1
        }
        return out
    }

    // MARK: - Typing errors

    /// The keys of the typo tries within `maxEdits` (at most 2) edits of `query` (insertions,
    /// deletions, substitutions and transpositions of adjacent bytes: the optimal string
    /// alignment distance), with their distances, by key number; `query` at most 64 bytes.
    ///
    /// Subtrees that cannot hold a name scoring `floor` or more are skipped: a subtree's best
    /// typo score is 0.35 + 0.35 (pbest - 0.21 (e - 1)) + `slack`, with pbest its best
    /// prominence (trieBest) and e at least the smallest distance of the node's row (and 1). With
    /// `keep` > 0, the floor rises to the `keep`-th best such score of the names found so far.
    ///
    /// Two edits are found by two walks over the two halves of the query (the split). Cut an
    /// alignment of at most two edits where it first reaches the query's byte h = (m - 1) / 2 + 1:
    /// with no edit before the cut, the key starts with the query's first h - 1 bytes (also when a
    /// transposition of bytes h - 1 and h crosses the cut: the alignment reaches byte h - 1 with
    /// no edit); with one or two before it, at most one is left after it, and the key's end is
    /// within one edit of the query's last m - h bytes (a transposition across the cut counts one
    /// more on this side: with one edit before the cut, none is left, so still at most one). The
    /// first walk goes down the forward trie only below the query's first h - 1 bytes; the second
    /// down the reversed trie, with the query reversed, only along branches within one edit of
    /// its last m - h bytes. Each finds its keys at their full distance; together they find every
    /// key within two edits, the keys of both once. This spares the walk the trie's first
    /// levels, where every node is within two edits (tens of thousands of nodes for one query).
    /// One edit, and queries of fewer than 4 bytes, walk the forward trie alone.
    func typoKeys(_ query: UnsafeBufferPointer<UInt8>, maxEdits k: Int, floor: Double = 0, slack: Double = 0,
                  keep: Int = 0) -> [(key: Int, edits: Int)] {
        let l = image.layout
        let m = query.count
        guard l.nodes > 1, m > 0, m <= 64, k >= 0, k <= 2 else { return [] }
        var state = TypoState(floor: floor, slack: slack, keep: keep)
        if k < 2 || m < 4 || l.rnodes <= 1 {
            walk(l.trie, l.trieBest, l.nodes, query, k, gate: (0, k), reversed: false, &state)
        } else {
            let h = (m - 1) / 2 + 1
            walk(l.trie, l.trieBest, l.nodes, query, k, gate: (h - 1, 0), reversed: false, &state)
            state.forward = state.found.count
            let reversedQuery = [UInt8](query.reversed())
            reversedQuery.withUnsafeBufferPointer {
                walk(l.rtrie, l.rtrieBest, l.rnodes, $0, k, gate: (m - h, 1), reversed: true, &state)
            }
        }
        state.found.sort { $0.key < $1.key }
        return state.found
    }

    /// What the walks of one typo search share: the keys found and the rising floor.
    struct TypoState {
        var found: [(key: Int, edits: Int)] = []
        var forward = 0  // found[..<forward], by the forward walk, in key order
        var top: [Double] = []  // the best `keep` scores found, descending
        var bar: Double
        let floor: Double, slack: Double, keep: Int
        func foundForward(_ j: Int) -> Bool {
            var lo = 0
            var hi = forward
            while lo < hi {
                let mid = (lo + hi) >> 1
                if found[mid].key < j { lo = mid + 1 } else { hi = mid }
            }
            return lo < forward && found[lo].key == j
        }
        init(floor: Double, slack: Double, keep: Int) {
            self.floor = floor
            self.slack = slack
            self.keep = keep
            bar = floor
        }
    }

    /// One walk of a trie (`records`, `bests`) for the keys within `k` edits of `query`, only
    /// down branches with a prefix within `gate.edits` edits of the query's first `gate.bytes`
    /// bytes.
    /// Keys of a `reversed` trie are looked up with their bytes reversed.
    private func walk(_ records: Int, _ bestsAt: Int, _ count: Int, _ query: UnsafeBufferPointer<UInt8>, _ k: Int, gate: (bytes: Int, edits: Int),
                      reversed: Bool, _ state: inout TypoState) {
        let m = query.count
        let w = m + 1
        let maxDepth = m + k
        let cap = UInt8(k + 1)
        let g = gate.bytes
        let ge = UInt8(gate.edits)
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: (maxDepth + 2) * w)
        let path = UnsafeMutablePointer<UInt8>.allocate(capacity: maxDepth + 2)
        let key = UnsafeMutablePointer<UInt8>.allocate(capacity: maxDepth + 2)
        let next = UnsafeMutablePointer<Int>.allocate(capacity: maxDepth + 2)
        let end = UnsafeMutablePointer<Int>.allocate(capacity: maxDepth + 2)
        let open = UnsafeMutablePointer<Bool>.allocate(capacity: maxDepth + 2)  // the gate passed
        let last = UnsafeMutablePointer<UInt8>.allocate(capacity: maxDepth + 2)  // the last key found
        var lastCount = -1
        defer {
            rows.deallocate(); path.deallocate(); key.deallocate(); next.deallocate(); end.deallocate(); open.deallocate()
            last.deallocate()
        }
        rows.initialize(repeating: cap, count: (maxDepth + 2) * w)
        let q = query.baseAddress!
        let nodes = (image.base + records).assumingMemoryBound(to: UInt32.self)
        let bests = (image.base + bestsAt).assumingMemoryBound(to: UInt8.self)
        @inline(__always) func first(_ i: Int) -> Int { Int(UInt32(littleEndian: nodes[i]) & 0xFF_FFFF) }
        // The bound of a subtree: its best prominence and the fewest edits it can have.
        @inline(__always) func bound(_ best: UInt8, _ e: Int) -> Double {
            0.35 + 0.35 * (Double(best) / 255 - 0.21 * Double(Swift.max(e, 1) - 1)) + state.slack
        }
        for i in 0...m { rows[i] = UInt8(Swift.min(i, k + 1)) }
        open[0] = g <= gate.edits
        next[0] = first(0)
        end[0] = first(1)
        guard count > 1, next[0] == 1, end[0] >= 1, end[0] <= count else { return }
        var depth = 0
        while depth >= 0 {
            if next[depth] >= end[depth] {
                depth -= 1
                continue
            }
            let c = next[depth]
            next[depth] = c + 1
            let label = UInt8(truncatingIfNeeded: UInt32(littleEndian: nodes[c]) >> 24)
            let prev = depth * w
            if label == 0 {
                let dist = Int(rows[prev + m])
                // A well-formed trie gives its keys in increasing order: a key that does not come
                // after the last one (a forged trie's) is left out.
                let p = UnsafePointer(path)
                if lastCount >= 0 && !SearchImage.ascending(UnsafePointer(last), lastCount, p, depth) { continue }
                last.update(from: p, count: depth)
                lastCount = depth
                if dist <= k && dist > 0 {
                    let s = bound(bests[c], dist) - state.slack
                    if s + state.slack >= state.bar {
                        var j: Int?
                        if reversed {
                            for i in 0..<depth { key[i] = path[depth - 1 - i] }
                            j = exact(UnsafeBufferPointer(start: key, count: depth))
                        } else {
                            j = exact(UnsafeBufferPointer(start: path, count: depth))
                        }
                        // A key the other walk found already is not counted twice.
                        if let j, !(reversed && state.foundForward(j)) {
                            state.found.append((j, dist))
                            if state.keep > 0 {
                                var at = state.top.count
                                while at > 0 && state.top[at - 1] < s { at -= 1 }
                                state.top.insert(s, at: at)
                                if state.top.count > state.keep { state.top.removeLast() }
                                if state.top.count == state.keep {
                                    state.bar = Swift.max(state.floor, state.top[state.keep - 1] + state.slack)
                                }
                            }
                        }
                    }
                }
                continue
            }
            let d = depth + 1
            if d > maxDepth { continue }
            let row = d * w
            let from = Swift.max(1, d - k)
            let to = Swift.min(m, d + k)
            rows[row] = UInt8(Swift.min(d, k + 1))
            if from > 1 { rows[row + from - 1] = cap }
            var least = rows[row]
            var leastBefore = rows[row]  // over the columns up to the gate
            if from <= to {
                let before = depth >= 1 ? path[depth - 1] : 0
                for i in from...to {
                    let qc = q[i - 1]
                    var v = rows[prev + i - 1] &+ (qc == label ? 0 : 1)
                    let up = rows[prev + i] &+ 1
                    let left = rows[row + i - 1] &+ 1
                    if up < v { v = up }
                    if left < v { v = left }
                    if depth >= 1 && i >= 2 && qc == before && q[i - 2] == label {
                        let t = rows[(depth - 1) * w + i - 2] &+ 1
                        if t < v { v = t }
                    }
                    if v > cap { v = cap }
                    rows[row + i] = v
                    if v < least { least = v }
                    if i <= g && v < leastBefore { leastBefore = v }
                }
            }
            if to < m { rows[row + to + 1] = cap }
            if least > UInt8(k) { continue }
            // Before the gate opens, a branch whose every cell up to its column is over its edits
            // can no more bring the query's first bytes within them.
            var passed = open[depth]
            if !passed {
                if leastBefore > ge { continue }
                passed = rows[row + g] <= ge
            }
            if bound(bests[c], Int(least)) < state.bar { continue }
            // The children: a range after the node, within the trie (else a leaf, in a forged trie).
            let f = first(c), e = first(c + 1)
            guard f > c, f <= e, e <= count else { continue }
            path[depth] = label
            open[d] = passed
            next[d] = f
            end[d] = e
            depth = d
        }
    }
}

/// The optimal string alignment distance of two byte strings, or `limit + 1` when it exceeds
/// `limit` (for qualifiers: short strings, few of them).
func searchEditDistance(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, limit: Int) -> Int {
    let n = a.count, m = b.count
    if abs(n - m) > limit { return limit + 1 }
    if n == 0 || m == 0 { return Swift.min(Swift.max(n, m), limit + 1) }
    guard n <= 255, m <= 255 else { return limit + 1 }
    var pp = [Int](repeating: 0, count: m + 1)
    var p = Array(0...m)
    var c = [Int](repeating: 0, count: m + 1)
    for i in 1...n {
        c[0] = i
        var least = i
        for j in 1...m {
            var v = Swift.min(p[j] + 1, c[j - 1] + 1, p[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] { v = Swift.min(v, pp[j - 2] + 1) }
            c[j] = v
            least = Swift.min(least, v)
        }
        if least > limit { return limit + 1 }
        (pp, p, c) = (p, c, pp)
    }
    return Swift.min(p[m], limit + 1)
}
