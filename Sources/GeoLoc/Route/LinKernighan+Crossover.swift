/// Partition crossover of two tours for the chained Lin-Kernighan search (`LinKernighan.run`
/// merges each trial's final tour with the best one so far), and the whole-tour helpers it uses.
extension LinKernighan {
    /// The length of the tour given as nodes in order.
    func length(of t: [Int32]) -> Double {
        var s = 0.0
        for p in 0..<n { s += c(t[p], t[p + 1 == n ? 0 : p + 1]) }
        return s
    }

    /// Makes `t` (nodes in order) the current tour.
    func load(_ t: [Int32]) {
        for p in 0..<n {
            tour[p] = t[p]
            pos[Int(t[p])] = Int32(p)
        }
    }

    /// Partition crossover (GPX2: Whitley, Hains and Howe; Tinós, Whitley and Ochoa) of the
    /// current tour with `other`: the edges the two tours do not share form components; in each
    /// component where `other`'s edges cost less, they replace the current tour's, as long as the
    /// result is still one tour. A node that shares no edge between the tours is split in two
    /// (entered at one, left from the other, joined by an edge both tours share), which cuts the
    /// components smaller; `other` is tried in both directions. The child is never longer than
    /// the shorter parent; it becomes the current tour, and the nodes of the components it
    /// changed are queued for a local search.
    mutating func crossover(_ other: [Int32]) {
        if length(of: other) < length() {
            let mine = Array(UnsafeBufferPointer(start: tour, count: n))
            load(other)
            crossoverInto(mine)
        } else {
            crossoverInto(other)
        }
    }

    private mutating func crossoverInto(_ other: [Int32]) {
        let a0 = Array(UnsafeBufferPointer(start: tour, count: n))
        let here = length()
        // Either direction may be the only one whose components can be switched.
        let children = [partitionChild(a0, other), partitionChild(a0, Array(other.reversed()))].compactMap { $0 }
        guard let (t, l, q) = children.min(by: { $0.1 < $1.1 }), l < here - eps else { return }
        load(t)
        for x in q { push(x) }
    }

    /// The child of `a` (the shorter parent) and `b` (both nodes in order; `b`'s direction
    /// matters for the split nodes), its length and the nodes of the components taken from `b`;
    /// nil when nothing of `b` pays.
    private func partitionChild(_ a: [Int32], _ b: [Int32]) -> ([Int32], Double, [Int32])? {
        var aS = [Int32](repeating: 0, count: n), aP = aS, bS = aS, bP = aS
        for p in 0..<n {
            let x = a[p], y = a[p + 1 == n ? 0 : p + 1]
            aS[Int(x)] = y
            aP[Int(y)] = x
            let u = b[p], v = b[p + 1 == n ? 0 : p + 1]
            bS[Int(u)] = v
            bP[Int(v)] = u
        }
        // Ids: node v is id v; a split node's exit is id n + v.
        var split = [Bool](repeating: false, count: n)
        for i in 0..<n {
            split[i] = aS[i] != bS[i] && aS[i] != bP[i] && aP[i] != bS[i] && aP[i] != bP[i]
        }
        let ids = 2 * n
        var adjA = [Int32](repeating: -1, count: 2 * ids), adjB = adjA
        func add(_ adj: inout [Int32], _ x: Int32, _ y: Int32) {
            if adj[2 * Int(x)] < 0 { adj[2 * Int(x)] = y } else { adj[2 * Int(x) + 1] = y }
            if adj[2 * Int(y)] < 0 { adj[2 * Int(y)] = x } else { adj[2 * Int(y) + 1] = x }
        }
        func exit(_ v: Int32) -> Int32 { split[Int(v)] ? v + Int32(n) : v }
        for p in 0..<n {
            add(&adjA, exit(a[p]), a[p + 1 == n ? 0 : p + 1])
            add(&adjB, exit(b[p]), b[p + 1 == n ? 0 : p + 1])
        }
        for i in 0..<n where split[i] {
            add(&adjA, Int32(i), Int32(n + i))
            add(&adjB, Int32(i), Int32(n + i))
        }
        func has(_ adj: [Int32], _ x: Int32, _ y: Int32) -> Bool {
            adj[2 * Int(x)] == y || adj[2 * Int(x) + 1] == y
        }
        func node(_ x: Int32) -> Int32 { x >= Int32(n) ? x - Int32(n) : x }
        // Components of the edges in one tour only (union-find).
        var root = [Int32](0..<Int32(ids))
        func find(_ x: Int32) -> Int32 {
            var x = x
            while root[Int(x)] != x {
                root[Int(x)] = root[Int(root[Int(x)])]
                x = root[Int(x)]
            }
            return x
        }
        var inDiff = [Bool](repeating: false, count: ids)
        var costA = [Double](repeating: 0, count: ids), costB = costA
        /// An edge x-y of one tour that the other lacks: both ends are in the difference, one
        /// component.
        func joinDifferent(_ x: Int32, _ y: Int32) {
            inDiff[Int(x)] = true
            inDiff[Int(y)] = true
            let r = find(x), s = find(y)
            if r != s { root[Int(r)] = s }
        }
        for x in 0..<Int32(ids) {
            for e in 0..<2 {
                let ya = adjA[2 * Int(x) + e]
                if ya > x && !has(adjB, x, ya) { joinDifferent(x, ya) }
                let yb = adjB[2 * Int(x) + e]
                if yb > x && !has(adjA, x, yb) { joinDifferent(x, yb) }
            }
        }
        for x in 0..<Int32(ids) where inDiff[Int(x)] {
            let r = Int(find(x))
            for e in 0..<2 {
                let ya = adjA[2 * Int(x) + e]
                if ya > x && !has(adjB, x, ya) { costA[r] += c(node(x), node(ya)) }
                let yb = adjB[2 * Int(x) + e]
                if yb > x && !has(adjA, x, yb) { costB[r] += c(node(x), node(yb)) }
            }
        }
        var candidates: [Int32] = []
        var paying = 0
        for x in 0..<ids where inDiff[x] && root[x] == Int32(x) {
            candidates.append(Int32(x))
            if costA[x] - costB[x] > eps { paying += 1 }
        }
        guard paying > 0 else { return nil }
        candidates.sort { (costA[Int($0)] - costB[Int($0)], $1) > (costA[Int($1)] - costB[Int($1)], $0) }
        var slot = [Int32](repeating: -1, count: ids)
        for (k, r) in candidates.enumerated() { slot[Int(r)] = Int32(k) }
        var members = [[Int32]](repeating: [], count: candidates.count)
        for x in 0..<Int32(ids) where inDiff[Int(x)] {
            let k = slot[Int(find(x))]
            if k >= 0 { members[Int(k)].append(x) }
        }
        // The child's edges: A's, with a switched component's edges taken from B.
        var adj = adjA
        func switchTo(_ k: Int, _ toB: Bool) {
            for x in members[k] {
                let from = toB ? adjA : adjB, to = toB ? adjB : adjA
                let otherAdj = toB ? adjB : adjA, fromAdj = toB ? adjA : adjB
                var out: [Int32] = [], inn: [Int32] = []
                for e in 0..<2 {
                    let y = from[2 * Int(x) + e]
                    if y >= 0 && !has(otherAdj, x, y) { out.append(y) }
                    let z = to[2 * Int(x) + e]
                    if z >= 0 && !has(fromAdj, x, z) { inn.append(z) }
                }
                for (y, z) in zip(out, inn) {
                    if adj[2 * Int(x)] == y { adj[2 * Int(x)] = z } else { adj[2 * Int(x) + 1] = z }
                }
            }
        }
        let used = n + split.reduce(0) { $0 + ($1 ? 1 : 0) }
        let start = costs.home
        func oneTour() -> Bool {
            var prev: Int32 = -1, cur = start, steps = 0
            repeat {
                let nx = adj[2 * Int(cur)] != prev ? adj[2 * Int(cur)] : adj[2 * Int(cur) + 1]
                prev = cur
                cur = nx
                steps += 1
            } while cur != start && steps <= used
            return steps == used
        }
        // The paying components all at once; when that breaks the tour, one at a time, then each
        // one left together with another component whose loss it outweighs (a fusion of two).
        func gain(_ k: Int) -> Double { costA[Int(candidates[k])] - costB[Int(candidates[k])] }
        var switched = [Bool](repeating: false, count: candidates.count)
        for k in 0..<paying { switchTo(k, true) }
        if oneTour() {
            for k in 0..<paying { switched[k] = true }
        } else {
            for k in 0..<paying { switchTo(k, false) }
            for k in 0..<paying {
                switchTo(k, true)
                switched[k] = oneTour()
                if !switched[k] { switchTo(k, false) }
            }
            for k in 0..<paying where !switched[k] {
                for j in 0..<candidates.count where j != k && !switched[j] && gain(k) + gain(j) > eps {
                    switchTo(k, true)
                    switchTo(j, true)
                    if oneTour() {
                        switched[k] = true
                        switched[j] = true
                        break
                    }
                    switchTo(k, false)
                    switchTo(j, false)
                }
            }
        }
        var child: [Int32] = []
        child.reserveCapacity(n)
        var prev: Int32 = -1, cur = start
        for _ in 0..<used {
            let v = node(cur)
            if child.last != v { child.append(v) }
            let nx = adj[2 * Int(cur)] != prev ? adj[2 * Int(cur)] : adj[2 * Int(cur) + 1]
            prev = cur
            cur = nx
        }
        // A split home may be met again at the walk's end, through its own two ids.
        if child.count == n + 1 && child.last == child.first { child.removeLast() }
        guard child.count == n else { return nil }
        var queue: [Int32] = []
        for k in 0..<candidates.count where switched[k] {
            for x in members[k] where x < Int32(n) { queue.append(x) }
        }
        return (child, length(of: child), queue)
    }
}
