/// The near-optimal search: chained Lin-Kernighan over a closed tour of `TourCosts` nodes.
///
/// Each improvement is a chain of 2-opt moves (a sequential k-opt move: t1 - t2 removed, t2 - t3
/// added, t3 - t4 removed, t4 - t1 closing, then from t4 again), searched with a breadth of 5
/// alternatives at the first level, 3 at the second and 1 below, to a depth of 50, over each
/// node's candidate neighbours, under the positive-gain rule and with an added edge never
/// removed again in the same chain. "Don't look" bits (a queue of nodes to examine) keep each
/// local search near the last change. Between local searches a segment-swap kick (tour A B C D
/// becomes A C B D, three edges changed, orientation kept) perturbs the best tour; the search
/// keeps the kicked tour when it is no worse. Fixed edges are never removed. The tour is an
/// array with positions; a 2-opt move reverses the shorter side.
struct LinKernighan<Costs: TourCosts> {
    let costs: Costs
    let n: Int
    let k: Int
    let neighbours: UnsafeMutablePointer<Int32>
    let tour: UnsafeMutablePointer<Int32>
    let pos: UnsafeMutablePointer<Int32>
    let queued: UnsafeMutablePointer<Bool>
    let queue: UnsafeMutablePointer<Int32>
    let scratch: UnsafeMutablePointer<Int32>
    var head = 0
    var tail = 0
    var queueCount = 0
    var rng: UInt64
    let eps: Double
    /// The chain's added edges (t2 - t3 at each level), never removed in the same chain.
    var added: [(Int32, Int32)] = []
    /// Nodes the chain touched, queued again after an improvement.
    var touched: [Int32] = []
    static var maxDepth: Int { 50 }

    init(_ costs: Costs, seed: UInt64, neighbourCount: Int = 8) {
        self.costs = costs
        n = costs.count
        rng = seed &+ 0x9E37_79B9_7F4A_7C15
        let k = max(1, min(neighbourCount, n - 1))
        self.k = k
        neighbours = .allocate(capacity: n * k)
        tour = .allocate(capacity: n)
        pos = .allocate(capacity: n)
        queued = .allocate(capacity: n)
        queued.initialize(repeating: false, count: n)
        queue = .allocate(capacity: n)
        scratch = .allocate(capacity: n)
        var sum = 0.0
        var counted = 0
        // Each node's k cheapest partners (never its fixed partner), by insertion into a sorted
        // run: O(n^2 k) in the worst case, O(n^2) in practice.
        var bestC = [Double](repeating: 0, count: k)
        var bestJ = [Int32](repeating: 0, count: k)
        for i in 0..<n {
            var filled = 0
            let a = Int32(i)
            for j in 0..<n where j != i {
                let b = Int32(j)
                if costs.fixed(a, b) { continue }
                let cost = costs.c(a, b)
                if j > i && cost < Double.greatestFiniteMagnitude / 4 && counted < 1_000_000 {
                    sum += cost
                    counted += 1
                }
                if filled == k && cost >= bestC[k - 1] { continue }
                var t = filled == k ? k - 1 : filled
                if filled < k { filled += 1 }
                while t > 0 && bestC[t - 1] > cost {
                    bestC[t] = bestC[t - 1]
                    bestJ[t] = bestJ[t - 1]
                    t -= 1
                }
                bestC[t] = cost
                bestJ[t] = b
            }
            for t in 0..<k { neighbours[i * k + t] = t < filled ? bestJ[t] : -1 }
        }
        eps = 1e-12 * max(sum / Double(max(1, counted)), 1e-300)
        added.reserveCapacity(Self.maxDepth + 2)
        touched.reserveCapacity(2 * Self.maxDepth + 4)
        nearestNeighbourTour()
    }

    func free() {
        neighbours.deallocate()
        tour.deallocate()
        pos.deallocate()
        queued.deallocate()
        queue.deallocate()
        scratch.deallocate()
    }

    /// The starting tour: nearest neighbour from home, always taking a fixed partner first.
    private func nearestNeighbourTour() {
        var used = [Bool](repeating: false, count: n)
        var cur = costs.home
        tour[0] = cur
        used[Int(cur)] = true
        for p in 1..<n {
            var best: Int32 = -1
            var bestCost = Double.infinity
            for j in 0..<n where !used[j] {
                let b = Int32(j)
                if costs.fixed(cur, b) {
                    best = b
                    break
                }
                let c = costs.c(cur, b)
                if c < bestCost {
                    bestCost = c
                    best = b
                }
            }
            if best < 0 {
                // Everything left is barred; take the first unused.
                best = Int32(used.firstIndex(of: false)!)
            }
            tour[p] = best
            used[Int(best)] = true
            cur = best
        }
        for p in 0..<n { pos[Int(tour[p])] = Int32(p) }
    }

    // MARK: - Tour primitives

    @inline(__always) func succ(_ a: Int32) -> Int32 {
        let p = Int(pos[Int(a)]) + 1
        return tour[p == n ? 0 : p]
    }

    @inline(__always) func pred(_ a: Int32) -> Int32 {
        let p = Int(pos[Int(a)])
        return tour[p == 0 ? n - 1 : p - 1]
    }

    @inline(__always) func c(_ a: Int32, _ b: Int32) -> Double { costs.c(a, b) }

    func length() -> Double {
        var s = 0.0
        for p in 0..<n { s += c(tour[p], tour[p + 1 == n ? 0 : p + 1]) }
        return s
    }

    /// Reverses the path from `from` to `to` (walking forward), or the rest of the tour when
    /// that is shorter: the same cycle either way.
    mutating func reversePath(_ from: Int32, _ to: Int32) {
        var i = Int(pos[Int(from)]), j = Int(pos[Int(to)])
        var len = j - i
        if len < 0 { len += n }
        len += 1
        if 2 * len > n {
            // The complement: from to's successor to from's predecessor.
            let ni = j + 1 == n ? 0 : j + 1
            let nj = i == 0 ? n - 1 : i - 1
            i = ni
            j = nj
            len = n - len
        }
        var steps = len / 2
        while steps > 0 {
            let x = tour[i], y = tour[j]
            tour[i] = y
            pos[Int(y)] = Int32(i)
            tour[j] = x
            pos[Int(x)] = Int32(j)
            i += 1
            if i == n { i = 0 }
            j -= 1
            if j < 0 { j = n - 1 }
            steps -= 1
        }
    }

    /// Removes the edges p - q and r - s and adds p - r and q - s, where q follows p and s
    /// follows r in the same direction.
    @inline(__always) mutating func twoOptMove(_ p: Int32, _ q: Int32, _ r: Int32, _ s: Int32) {
        if succ(p) == q {
            reversePath(q, r)
        } else {
            reversePath(p, s)
        }
    }

    @inline(__always) mutating func push(_ a: Int32) {
        if !queued[Int(a)] {
            queued[Int(a)] = true
            queue[tail] = a
            tail += 1
            if tail == n { tail = 0 }
            queueCount += 1
        }
    }

    @inline(__always) mutating func pop() -> Int32 {
        let a = queue[head]
        head += 1
        if head == n { head = 0 }
        queueCount -= 1
        queued[Int(a)] = false
        return a
    }

    // MARK: - Lin-Kernighan

    @inline(__always) func wasAdded(_ a: Int32, _ b: Int32) -> Bool {
        for (x, y) in added where (x == a && y == b) || (x == b && y == a) { return true }
        return false
    }

    /// One level of the chain: t1 - t2 is the edge to remove (in the current tour), `g` the gain
    /// so far counting it. Returns true after an improving chain has been applied.
    mutating func step(_ level: Int, _ g: Double, _ t1: Int32, _ t2: Int32) -> Bool {
        let forward = succ(t1) == t2
        let t2Next = forward ? succ(t2) : pred(t2)
        let breadth = level == 1 ? 5 : (level == 2 ? 3 : 1)
        // The best `breadth` choices of t3 by g - c(t2, t3) + c(t3, t4).
        var cT3: (Int32, Int32, Int32, Int32, Int32) = (-1, -1, -1, -1, -1)
        var cT4: (Int32, Int32, Int32, Int32, Int32) = (-1, -1, -1, -1, -1)
        var cG: (Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0)
        var found = 0
        withUnsafeMutableBytes(of: &cT3) { t3b in
            withUnsafeMutableBytes(of: &cT4) { t4b in
                withUnsafeMutableBytes(of: &cG) { gb in
                    let t3s = t3b.baseAddress!.assumingMemoryBound(to: Int32.self)
                    let t4s = t4b.baseAddress!.assumingMemoryBound(to: Int32.self)
                    let gs = gb.baseAddress!.assumingMemoryBound(to: Double.self)
                    let base = Int(t2) * k
                    for t in 0..<k {
                        let t3 = neighbours[base + t]
                        if t3 < 0 { break }
                        let g1 = g - c(t2, t3)
                        if g1 <= eps { break }
                        if t3 == t1 || t3 == t2Next { continue }
                        let t4 = forward ? pred(t3) : succ(t3)
                        if t4 == t2 || costs.fixed(t3, t4) || wasAdded(t3, t4) { continue }
                        let value = g1 + c(t3, t4)
                        // Insert into the sorted short list.
                        if found == breadth && value <= gs[breadth - 1] { continue }
                        var slot = found == breadth ? breadth - 1 : found
                        if found < breadth { found += 1 }
                        while slot > 0 && gs[slot - 1] < value {
                            gs[slot] = gs[slot - 1]
                            t3s[slot] = t3s[slot - 1]
                            t4s[slot] = t4s[slot - 1]
                            slot -= 1
                        }
                        gs[slot] = value
                        t3s[slot] = t3
                        t4s[slot] = t4
                    }
                }
            }
        }
        if found == 0 { return false }
        for choice in 0..<found {
            let t3: Int32, t4: Int32, gNew: Double
            switch choice {
            case 0: (t3, t4, gNew) = (cT3.0, cT4.0, cG.0)
            case 1: (t3, t4, gNew) = (cT3.1, cT4.1, cG.1)
            case 2: (t3, t4, gNew) = (cT3.2, cT4.2, cG.2)
            case 3: (t3, t4, gNew) = (cT3.3, cT4.3, cG.3)
            default: (t3, t4, gNew) = (cT3.4, cT4.4, cG.4)
            }
            twoOptMove(t2, t1, t3, t4)
            added.append((t2, t3))
            touched.append(t3)
            touched.append(t4)
            if gNew - c(t4, t1) > eps { return true }
            if level < Self.maxDepth && step(level + 1, gNew, t1, t4) { return true }
            added.removeLast()
            touched.removeLast(2)
            twoOptMove(t2, t3, t1, t4)
        }
        return false
    }

    /// Tries to improve the tour from t1; returns true after an improvement.
    mutating func improve(from t1: Int32) -> Bool {
        for side in 0..<2 {
            let t2 = side == 0 ? succ(t1) : pred(t1)
            if costs.fixed(t1, t2) { continue }
            added.removeAll(keepingCapacity: true)
            touched.removeAll(keepingCapacity: true)
            touched.append(t1)
            touched.append(t2)
            if step(1, c(t1, t2), t1, t2) {
                for x in touched { push(x) }
                return true
            }
        }
        return false
    }

    /// Runs local search until no queued node improves, or until the deadline (checked every
    /// 64 nodes). Returns false when the deadline passed.
    mutating func localSearch(deadline: Double?) -> Bool {
        var count = 0
        while queueCount > 0 {
            count += 1
            if let deadline, count & 63 == 0, monotonicSeconds() >= deadline { return false }
            let a = pop()
            if improve(from: a) { push(a) }
        }
        return true
    }

    // MARK: - Kicks and the chained search

    mutating func next() -> UInt64 {
        rng &+= 0x9E37_79B9_7F4A_7C15
        var z = rng
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A segment swap at random: three cut positions p1 < p2 < p3 (cyclically, segments of at
    /// most 50 nodes on large tours), segments [p1, p2) and [p2, p3) exchanged. Never cuts a
    /// fixed edge. Returns false when no kick was made.
    mutating func kick() -> Bool {
        guard n >= 8 else { return false }
        let span = max(1, min(50, n / 3))
        for _ in 0..<16 {
            let p1 = Int(next() % UInt64(n))
            let l1 = 1 + Int(next() % UInt64(span))
            let l2 = 1 + Int(next() % UInt64(span))
            if l1 + l2 >= n - 1 { continue }
            let tour = self.tour, n = self.n
            func cut(_ p: Int) -> (Int32, Int32) { (tour[(p + n - 1) % n], tour[p % n]) }
            let e1 = cut(p1), e2 = cut(p1 + l1), e3 = cut(p1 + l1 + l2)
            if costs.fixed(e1.0, e1.1) || costs.fixed(e2.0, e2.1) || costs.fixed(e3.0, e3.1) { continue }
            for t in 0..<l1 { scratch[t] = tour[(p1 + t) % n] }
            for t in 0..<l2 {
                let x = tour[(p1 + l1 + t) % n]
                let p = (p1 + t) % n
                tour[p] = x
                pos[Int(x)] = Int32(p)
            }
            for t in 0..<l1 {
                let x = scratch[t]
                let p = (p1 + l2 + t) % n
                tour[p] = x
                pos[Int(x)] = Int32(p)
            }
            for x in [e1.0, e1.1, e2.0, e2.1, e3.0, e3.1] { push(x) }
            push(tour[(p1 + l2 - 1) % n])
            push(tour[(p1 + l2) % n])
            push(tour[(p1 + l1 + l2 - 1) % n])
            return true
        }
        return false
    }

    /// The chained search: local search from the start, then up to `kicks` kicks (each a kick
    /// and a local search), keeping the best tour, until the deadline. Returns the best tour as
    /// search nodes starting at home.
    mutating func run(kicks: Int, deadline: Double?) -> [Int32] {
        for p in 0..<n { push(tour[p]) }
        _ = localSearch(deadline: deadline)
        let best = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        defer { best.deallocate() }
        best.initialize(from: tour, count: n)
        var bestCost = length()
        var it = 0
        while it < kicks {
            if let deadline, monotonicSeconds() >= deadline { break }
            it += 1
            if !kick() { break }
            let finished = localSearch(deadline: deadline)
            let now = length()
            if finished && now <= bestCost + eps {
                if now < bestCost { bestCost = now }
                best.update(from: tour, count: n)
            } else {
                // Back to the best tour (the queue is empty or abandoned).
                while queueCount > 0 { _ = pop() }
                for p in 0..<n {
                    tour[p] = best[p]
                    pos[Int(best[p])] = Int32(p)
                }
                if !finished { break }
            }
        }
        // From home, in the direction the route reads.
        var h = 0
        while best[h] != costs.home { h += 1 }
        var out = [Int32](repeating: 0, count: n)
        for t in 0..<n { out[t] = best[(h + t) % n] }
        return out
    }
}
