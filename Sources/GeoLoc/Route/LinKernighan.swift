/// The near-optimal search: chained Lin-Kernighan over a closed tour of `TourCosts` nodes.
///
/// Each improvement is a chain of 2-opt moves (a sequential k-opt move: t1 - t2 removed, t2 - t3
/// added, t3 - t4 removed, t4 - t1 closing, then from t4 again), searched with a breadth of 5
/// alternatives at the first level, 3 at the second and 1 below, to a depth of 50 (12 on tours
/// of `shallowFrom` nodes or more), over each node's candidate neighbours, under the
/// positive-gain rule and with an added edge never removed again in the same chain. Every level
/// first tries to close the chain (the gain of each candidate's closing is read from the costs,
/// the tour untouched); a 2-opt move is applied only to go a level deeper, and undone exactly
/// (the same positions reversed again) when that fails.
/// When no 2-opt chain from the first level pays, the first level also tries the sequential
/// 3-opt moves whose middle step alone would split the tour (segment insertion:
/// `threeOptStep`), and goes on from them as from a 2-opt move; on tours of `mergeFrom` nodes
/// or more the second and third levels (`segmentLevels`) also try to close the chain with one
/// when their 2-opt continuations fail.
///
/// Candidates (`buildCandidates`): each node's 5 alpha-nearest partners, 7 on tours of
/// `mergeFrom` to `shallowFrom` nodes (`candidateCount`; Helsgaun's alpha-nearness: the cost of
/// an edge less the largest edge on the minimum spanning tree's path between its ends, a fixed
/// edge always in the tree; ties by cost), on costs penalised by node values pi from a short
/// subgradient ascent of the Held-Karp bound on tours of 20 nodes or more, with their plain
/// costs cached beside them. "Don't look" bits (a queue of nodes to examine) keep each local
/// search near the last change.
///
/// Between local searches a double-bridge kick (three consecutive stretches B C D of at most 50
/// nodes each become D C B: four edges changed, which no sequential move of the local search undoes;
/// on tours of `mergeFrom` nodes or more one kick in `globalKickEvery` takes stretches of up to a
/// third of the tour)
/// perturbs the tour, and only the kick's ends are queued. The search keeps the kicked tour when
/// it is no worse; otherwise it undoes the local search's moves and the kick from a log, so a
/// kick costs time in proportion to what it changed, never to the tour's length. Fixed edges are
/// never removed. The tour is an array with positions; a 2-opt move reverses the shorter side.
///
/// A chain of kicks stalls (on 1,000 stops it finds nothing shorter after a few thousand kicks),
/// so on tours of `mergeFrom` nodes or more the kicks are spent in trials: a trial's chain ends
/// after max(`stallMin`, n / `stallDivisor`) kicks in a row without a shorter tour (short trials
/// pay once they are restricted: 1,000 stops, seeds 1-9, +0.065% above ten LKH-3 runs on
/// average and 22 of 117 tours above +0.1% after n / 4, +0.085% and 31 after n), the next
/// trial starts from a walk along the best tour that leaves it at random (`guidedTour`: on
/// the same seeds +0.047% and 14 of 117, in a tenth less time than from a nearest-neighbour
/// tour), and each trial's final tour is merged with the best so far by partition crossover
/// (GPX2), whose child is never longer than either. From the second trial on the search is
/// restricted (Helsgaun's LKH): a move never removes first an edge of the best tour so far
/// (`isRestricted`), so a trial looks only where it differs from the best, at about two thirds
/// of a kick's time (1,000 stops: the same kicks in 636 ms rather than 905, which pays for
/// `StopOrder.defaultIterations`' half as many again). The kicks and the deadline bound all
/// trials together; a seed still gives one answer.
struct LinKernighan<Costs: TourCosts> {
    let costs: Costs
    let n: Int
    let k: Int
    let neighbours: UnsafeMutablePointer<Int32>
    let neighbourCost: UnsafeMutablePointer<Double>
    let tour: UnsafeMutablePointer<Int32>
    let pos: UnsafeMutablePointer<Int32>
    let queued: UnsafeMutablePointer<Bool>
    let queue: UnsafeMutablePointer<Int32>
    let scratch: UnsafeMutablePointer<Int32>
    /// Per node, its partners over the chain's added edges (at most two; -1 for none).
    let addedA: UnsafeMutablePointer<Int32>
    let addedB: UnsafeMutablePointer<Int32>
    /// The first level's best segment-insertion moves (`threeOptStep`): `breadth3` moves of
    /// four ends each, and their gains so far.
    let threeEnds: UnsafeMutablePointer<Int32>
    let threeGains: UnsafeMutablePointer<Double>
    var head = 0
    var tail = 0
    var queueCount = 0
    var rng: SplitMix64
    let eps: Double
    /// The chain's added edges (t2 - t3 at each level), never removed in the same chain.
    var added: [(Int32, Int32)] = []
    /// Nodes the chain touched, queued again after an improvement.
    var touched: [Int32] = []
    /// The reversals applied since the last kick (first position, last position, length), to
    /// undo a kick that did not pay.
    var log: [(Int32, Int32, Int32)] = []
    /// The sum of the improvements applied since the last kick.
    var gained = 0.0
    /// After a trial's first chain on tours of `mergeFrom` nodes or more: the best tour's two
    /// neighbours of each node (2n entries), whose edge a move may not remove first (Helsgaun's
    /// restricted search); empty otherwise.
    var restrict: [Int32] = []
    /// Breadth at the first two levels.
    let breadth1: Int
    let breadth2: Int
    static var maxDepth: Int { 50 }
    /// Tours of this many nodes or more end their chains at `shallowDepth` rather than
    /// `maxDepth`. Deep chains cost time, most on stops in clusters (1,000 stops in 12
    /// clusters: a kick's local search took twice the levels it takes on spread stops, and the
    /// same kicks ran in 0.72 s at depth 12 rather than 1.13 s at 50), and find little that
    /// the next kicks do not: with 15% more kicks (`StopOrder.defaultIterations`) the 1,000-stop
    /// bench ends as close to LKH-3 on 18 seeds in less time, the clustered instances under a
    /// second. Below 800 it lost more than it saved (att532: 9 of 10 seeds within 0.1% of the
    /// optimum rather than 10).
    static var shallowFrom: Int { 800 }
    static var shallowDepth: Int { 12 }
    /// The chain's depth: `maxDepth`, or `shallowDepth` on tours of `shallowFrom` nodes or more.
    let depth: Int
    /// Breadth of the first level's segment-insertion moves (`threeOptStep`).
    static var breadth3: Int { 3 }
    /// On tours of `mergeFrom` nodes or more, the levels up to this one end, when their 2-opt
    /// continuations fail, by trying to close the chain with a segment-insertion move (the
    /// first level also goes deeper from one). 1,000 stops, seeds 1-45: +0.042% above ten LKH-3
    /// runs on average and 69 of 585 tours above +0.1%, in the same time, rather than +0.046%
    /// and 79 with the first level alone (seeds 19-27 alone were worse: +0.047% and 19 of 117
    /// against +0.039% and 13). To level 6 or every level: slower, and no closer at equal time;
    /// tried before the 2-opt continuations rather than after: +0.054% and 43 of 234 on seeds
    /// 1-18. Below 300 nodes it cost a tenth more time on tours that were already optimal.
    static var segmentLevels: Int { 3 }
    /// The deepest level that tries segment-insertion moves: `segmentLevels`, or 1 on tours
    /// of fewer than `mergeFrom` nodes.
    let segmentDepth: Int
    /// Tours of this many nodes or more spend their kicks in trials merged by partition
    /// crossover; smaller ones in one chain.
    static var mergeFrom: Int { 300 }
    /// A trial ends after max(stallMin, n / stallDivisor) kicks in a row that found nothing
    /// shorter.
    static var stallMin: Int { 250 }
    static var stallDivisor: Int { 4 }
    /// A trial's starting tour leaves the best tour's next node for a candidate one time in
    /// this many (`guidedTour`).
    static var guideBreak: UInt64 { 10 }
    /// Tours of this many nodes or more take their candidates on costs penalised by a
    /// subgradient ascent (`ascent`), over the sparse graph of each node's `ascentCandidates`
    /// alpha-nearest partners, its first period at most `ascentPeriodMax` steps.
    static var ascentFrom: Int { 20 }
    static var ascentCandidates: Int { 6 }
    static var ascentPeriodMax: Int { 50 }

    /// Candidate partners of each node: `wideCandidates` on tours of `mergeFrom` nodes up to
    /// `shallowFrom`, 5 otherwise. On 18 published instances of 300 to 799 stops (TSPLIB, seeds
    /// 1-10, 21 kicks per stop less 3,300) 175 of 180 runs end within 0.1% of the optimum with 7
    /// candidates against 160 with 5 (fl417 failed 9 times, si535 5, u574 4, gr431 2), in a
    /// fifth more time (179 with the kicks doubled: `StopOrder.defaultIterations`); with 5
    /// candidates a quarter more kicks gained nothing (27 instances of 200 to 700 stops, seeds
    /// 1-5: 123 of 135 runs against 122), and 6 or 8 candidates ended between (131 against 133
    /// with 7). From 800 nodes the time buys more as kicks (TSPLIB's 1,000 to 1,084 cities,
    /// seeds 1-3: every run within 0.1% with 5, pr1002 once +0.21% with 7, a tenth to a quarter
    /// slower); below 300 the published optima are reached with 5.
    static func candidateCount(nodes n: Int) -> Int {
        n >= mergeFrom && n < shallowFrom ? wideCandidates : 5
    }
    static var wideCandidates: Int { 7 }

    /// The kick's largest stretch.
    let span: Int
    /// On tours of `mergeFrom` nodes or more, one kick in this many (at random) takes its three
    /// stretches up to a third of the tour each: the kicks that reorder far-apart parts (on
    /// stops in clusters, the order of the clusters, which local kicks leave stuck: 1,000
    /// stops in 12 clusters ended +0.70% to +1.51% above ten LKH-3 runs without them).
    static var globalKickEvery: Int { 4 }
    init(_ costs: Costs, seed: UInt64, neighbourCount: Int? = nil, breadth: (Int, Int) = (5, 3),
         span: Int = 50, deadline: Double? = nil) {
        self.costs = costs
        n = costs.count
        rng = SplitMix64(seed: seed)
        self.span = span
        let k = max(1, min(neighbourCount ?? Self.candidateCount(nodes: n), n - 1))
        self.k = k
        breadth1 = min(5, max(1, breadth.0))
        breadth2 = min(5, max(1, breadth.1))
        depth = n >= Self.shallowFrom ? Self.shallowDepth : Self.maxDepth
        segmentDepth = n >= Self.mergeFrom ? Self.segmentLevels : 1
        neighbours = .allocate(capacity: n * k)
        neighbourCost = .allocate(capacity: n * k)
        tour = .allocate(capacity: n)
        pos = .allocate(capacity: n)
        queued = .allocate(capacity: n)
        queued.initialize(repeating: false, count: n)
        queue = .allocate(capacity: n)
        scratch = .allocate(capacity: n)
        addedA = .allocate(capacity: n)
        addedA.initialize(repeating: -1, count: n)
        addedB = .allocate(capacity: n)
        addedB.initialize(repeating: -1, count: n)
        threeEnds = .allocate(capacity: 4 * Self.breadth3)
        threeGains = .allocate(capacity: Self.breadth3)
        var sum = 0.0
        var counted = 0
        for i in 0..<min(n, 300) {
            for j in (i + 1)..<n where !costs.fixed(Int32(i), Int32(j)) {
                let cost = costs.c(Int32(i), Int32(j))
                if cost < Double.greatestFiniteMagnitude / 4 {
                    sum += cost
                    counted += 1
                }
            }
        }
        eps = 1e-12 * max(sum / Double(max(1, counted)), 1e-300)
        added.reserveCapacity(Self.maxDepth + 2)
        touched.reserveCapacity(2 * Self.maxDepth + 4)
        log.reserveCapacity(256)
        buildCandidates(deadline: deadline)
        nearestNeighbourTour()
    }

    func free() {
        neighbours.deallocate()
        neighbourCost.deallocate()
        tour.deallocate()
        pos.deallocate()
        queued.deallocate()
        queue.deallocate()
        scratch.deallocate()
        addedA.deallocate()
        addedB.deallocate()
        threeEnds.deallocate()
        threeGains.deallocate()
    }

    /// A starting tour: nearest neighbour from `first` (home for the first trial), always taking
    /// a fixed partner first.
    private func nearestNeighbourTour(from first: Int32? = nil) {
        var used = [Bool](repeating: false, count: n)
        var cur = first ?? costs.home
        tour[0] = cur
        used[Int(cur)] = true
        for p in 1..<n {
            let best = nearestFree(from: cur, used)
            tour[p] = best
            used[Int(best)] = true
            cur = best
        }
        for p in 0..<n { pos[Int(tour[p])] = Int32(p) }
    }

    /// The free node (not `used`) nearest to `cur`, its free fixed partner first; the first
    /// free node when everything left is barred.
    private func nearestFree(from cur: Int32, _ used: [Bool]) -> Int32 {
        var best: Int32 = -1
        var bestCost = Double.infinity
        for j in 0..<n where !used[j] {
            let b = Int32(j)
            if costs.fixed(cur, b) { return b }
            let c = costs.c(cur, b)
            if c < bestCost {
                bestCost = c
                best = b
            }
        }
        return best >= 0 ? best : Int32(used.firstIndex(of: false)!)
    }

    /// A trial's starting tour, guided by the best tour so far (as LKH's trials start; its
    /// edges are read from `restrict`, which holds them while trials run): a walk from a random
    /// node that takes the best tour's next node while it is free, but leaves it for one of the
    /// node's free candidate partners (at random) one time in `guideBreak`, or when it is taken;
    /// with no candidate free, the nearest free node. A free fixed partner is always taken
    /// first (every fixed edge is in the best tour).
    mutating func guidedTour() {
        var used = [Bool](repeating: false, count: n)
        var cur = Int32(next() % UInt64(n))
        tour[0] = cur
        used[Int(cur)] = true
        for p in 1..<n {
            let b = restrict[2 * Int(cur)], a = restrict[2 * Int(cur) + 1]
            var pick: Int32 = -1
            if !used[Int(b)] && costs.fixed(cur, b) {
                pick = b
            } else if !used[Int(a)] && costs.fixed(cur, a) {
                pick = a
            } else if !used[Int(b)] && next() % UInt64(Self.guideBreak) != 0 {
                pick = b
            } else {
                // One of the free candidates, each as likely.
                var seen: UInt64 = 0
                let base = Int(cur) * k
                for t in 0..<k {
                    let x = neighbours[base + t]
                    if x < 0 { break }
                    if used[Int(x)] { continue }
                    seen += 1
                    if next() % seen == 0 { pick = x }
                }
            }
            if pick < 0 { pick = nearestFree(from: cur, used) }
            tour[p] = pick
            used[Int(pick)] = true
            cur = pick
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

    /// Reverses `len` positions from i forward (cyclically) to j, in runs where neither end
    /// wraps, so that the inner loop (a third of the search's time at 1,000 stops) tests no
    /// wrap and converts no position with a check.
    @inline(__always) func reverseRange(_ i0: Int, _ j0: Int, _ len: Int) {
        var i = i0, j = j0
        var steps = len / 2
        let tour = self.tour, pos = self.pos, n = self.n
        while steps > 0 {
            let run = min(steps, n - i, j + 1)
            for _ in 0..<run {
                let x = tour[i], y = tour[j]
                tour[i] = y
                pos[Int(y)] = Int32(truncatingIfNeeded: i)
                tour[j] = x
                pos[Int(x)] = Int32(truncatingIfNeeded: j)
                i &+= 1
                j &-= 1
            }
            steps -= run
            if i == n { i = 0 }
            if j < 0 { j = n - 1 }
        }
    }

    /// Reverses the path from `from` to `to` (walking forward), or the rest of the tour when
    /// that is shorter: the same cycle either way. Logged, for `undoLast`.
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
        reverseRange(i, j, len)
        log.append((Int32(i), Int32(j), Int32(len)))
    }

    /// Undoes the last logged reversal exactly (the same positions reversed again).
    @inline(__always) mutating func undoLast() {
        let (i, j, len) = log.removeLast()
        reverseRange(Int(i), Int(j), Int(len))
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

    @inline(__always) func isAdded(_ a: Int32, _ b: Int32) -> Bool {
        addedA[Int(a)] == b || addedB[Int(a)] == b
    }

    @inline(__always) mutating func markAdded(_ a: Int32, _ b: Int32) {
        added.append((a, b))
        if addedA[Int(a)] < 0 { addedA[Int(a)] = b } else { addedB[Int(a)] = b }
        if addedA[Int(b)] < 0 { addedA[Int(b)] = a } else { addedB[Int(b)] = a }
    }

    /// Queues the four ends of a 3-opt move for a look after an improvement.
    @inline(__always) mutating func touchAll(_ a: Int32, _ b: Int32, _ c: Int32, _ d: Int32) {
        touched.append(a)
        touched.append(b)
        touched.append(c)
        touched.append(d)
    }

    /// Empties a short working array and keeps its storage: element by element, which costs less
    /// on these few elements than `removeAll(keepingCapacity:)`'s general range replacement.
    @inline(__always) func clear<T>(_ array: inout [T]) {
        while !array.isEmpty { array.removeLast() }
    }

    @inline(__always) mutating func unmarkLast() {
        let (a, b) = added.removeLast()
        if addedB[Int(a)] == b { addedB[Int(a)] = -1 } else { addedA[Int(a)] = -1 }
        if addedB[Int(b)] == a { addedB[Int(b)] = -1 } else { addedA[Int(b)] = -1 }
    }

    /// A level's short list of its `breadth` best alternatives: their values in `gains[0..<found]`,
    /// largest first, each with `stride` nodes in `ends`. Makes room for `value` (moving the
    /// smaller ones down, their ends with them) and returns the slot whose ends the caller
    /// writes, or nil when `value` is not among the best.
    @inline(__always) static func keep(_ value: Double, _ gains: UnsafeMutablePointer<Double>,
                                       _ ends: UnsafeMutablePointer<Int32>, stride: Int,
                                       found: inout Int, breadth: Int) -> Int? {
        if found == breadth && (breadth == 0 || value <= gains[breadth - 1]) { return nil }
        var slot = found == breadth ? breadth - 1 : found
        if found < breadth { found += 1 }
        while slot > 0 && gains[slot - 1] < value {
            gains[slot] = gains[slot - 1]
            for e in 0..<stride { ends[stride * slot + e] = ends[stride * (slot - 1) + e] }
            slot -= 1
        }
        gains[slot] = value
        return slot
    }

    /// One level of the chain: t1 - t2 is the edge to remove (in the current tour), `g` the gain
    /// so far counting it. Returns true after an improving chain has been applied.
    mutating func step(_ level: Int, _ g: Double, _ t1: Int32, _ t2: Int32) -> Bool {
        let forward = succ(t1) == t2
        let t2Next = forward ? succ(t2) : pred(t2)
        let breadth = level == 1 ? breadth1 : (level == 2 ? breadth2 : 1)
        // The best `breadth` choices of t3 by g - c(t2, t3) + c(t3, t4) (their t3 and t4 side by
        // side in `cEnds`, their gains so far in `cG`); any closing that pays is taken at once.
        var cEnds: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) =
            (-1, -1, -1, -1, -1, -1, -1, -1, -1, -1)
        var cG: (Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0)
        var found = 0
        var close: (Int32, Int32, Double)? = nil
        withUnsafeMutableBytes(of: &cEnds) { eb in
            withUnsafeMutableBytes(of: &cG) { gb in
                let ends = eb.baseAddress!.assumingMemoryBound(to: Int32.self)
                let gs = gb.baseAddress!.assumingMemoryBound(to: Double.self)
                let base = Int(t2) * k
                for t in 0..<k {
                    let t3 = neighbours[base + t]
                    if t3 < 0 { break }
                    let g1 = g - neighbourCost[base + t]
                    if g1 <= eps { continue }
                    if t3 == t1 || t3 == t2Next { continue }
                    let t4 = forward ? pred(t3) : succ(t3)
                    if t4 == t2 || costs.fixed(t3, t4) || isAdded(t3, t4) { continue }
                    let value = g1 + c(t3, t4)
                    let gain = value - c(t1, t4)
                    if gain > eps {
                        close = (t3, t4, gain)
                        return
                    }
                    guard let slot = Self.keep(value, gs, ends, stride: 2, found: &found,
                                               breadth: breadth) else { continue }
                    ends[2 * slot] = t3
                    ends[2 * slot + 1] = t4
                }
            }
        }
        if let (t3, t4, gain) = close {
            twoOptMove(t2, t1, t3, t4)
            touched.append(t3)
            touched.append(t4)
            gained += gain
            return true
        }
        if level >= depth { return false }
        for choice in 0..<found {
            let t3: Int32, t4: Int32, gNew: Double
            switch choice {
            case 0: (t3, t4, gNew) = (cEnds.0, cEnds.1, cG.0)
            case 1: (t3, t4, gNew) = (cEnds.2, cEnds.3, cG.1)
            case 2: (t3, t4, gNew) = (cEnds.4, cEnds.5, cG.2)
            case 3: (t3, t4, gNew) = (cEnds.6, cEnds.7, cG.3)
            default: (t3, t4, gNew) = (cEnds.8, cEnds.9, cG.4)
            }
            twoOptMove(t2, t1, t3, t4)
            markAdded(t2, t3)
            touched.append(t3)
            touched.append(t4)
            if step(level + 1, gNew, t1, t4) { return true }
            unmarkLast()
            touched.removeLast()
            touched.removeLast()
            undoLast()
        }
        return level <= segmentDepth && threeOptStep(level, g, t1, t2)
    }

    /// True when the search is restricted and a - b is an edge of the best tour so far.
    @inline(__always) func isRestricted(_ a: Int32, _ b: Int32) -> Bool {
        !restrict.isEmpty && (restrict[2 * Int(a)] == b || restrict[2 * Int(a) + 1] == b)
    }

    /// Makes `best`'s edges the ones no move may remove first (`restrict`).
    mutating func restrictTo(_ best: [Int32]) {
        if restrict.isEmpty { restrict = [Int32](repeating: -1, count: 2 * n) }
        for p in 0..<n {
            let x = Int(best[p]), y = Int(best[p + 1 == n ? 0 : p + 1])
            restrict[2 * x] = Int32(y)
            restrict[2 * y + 1] = Int32(x)
        }
    }

    /// Tries to improve the tour from t1, never removing first an edge of the best tour so far
    /// when the search is restricted; returns true after an improvement.
    mutating func improve(from t1: Int32) -> Bool {
        for side in 0..<2 {
            let t2 = side == 0 ? succ(t1) : pred(t1)
            if costs.fixed(t1, t2) || isRestricted(t1, t2) { continue }
            clear(&touched)
            touched.append(t1)
            touched.append(t2)
            let improved = step(1, c(t1, t2), t1, t2)
            while !added.isEmpty { unmarkLast() }
            if improved {
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

    mutating func next() -> UInt64 { rng.next() }

    /// Rewrites the segments B, C, D of l1, l2 and l3 positions from position p (cyclically) as
    /// D, C, B, each in its own direction; the same with (l3, l2, l1) undoes it.
    func reorderSegments(_ p: Int, _ l1: Int, _ l2: Int, _ l3: Int) {
        let total = l1 + l2 + l3
        var q = p
        for t in 0..<total {
            scratch[t] = tour[q]
            q += 1
            if q == n { q = 0 }
        }
        q = p
        for (from, len) in [(l1 + l2, l3), (l1, l2), (0, l1)] {
            for t in from..<(from + len) {
                let x = scratch[t]
                tour[q] = x
                pos[Int(x)] = Int32(q)
                q += 1
                if q == n { q = 0 }
            }
        }
    }

    /// A double bridge at random: three consecutive segments B, C, D (of at most `span` nodes
    /// each on large tours) from a random position become D, C, B, which changes four edges
    /// that no sequential move of the local search undoes at once. Never cuts a fixed edge.
    /// Returns the kick (to undo it) and its change of length, or nil when no kick was made.
    mutating func kick() -> (p: Int, l1: Int, l2: Int, l3: Int, delta: Double)? {
        guard n >= 8 else { return nil }
        let global = n >= Self.mergeFrom && next() % UInt64(Self.globalKickEvery) == 0
        let span = global ? max(1, (n - 2) / 3) : max(1, min(self.span, n / 4))
        for _ in 0..<16 {
            let p1 = Int(next() % UInt64(n))
            let l1 = 1 + Int(next() % UInt64(span))
            let l2 = 1 + Int(next() % UInt64(span))
            let l3 = 1 + Int(next() % UInt64(span))
            if l1 + l2 + l3 >= n - 1 { continue }
            let tour = self.tour, n = self.n
            func at(_ p: Int) -> Int32 { tour[p % n] }
            let a = at(p1 + n - 1), b1 = at(p1), b2 = at(p1 + l1 - 1)
            let c1 = at(p1 + l1), c2 = at(p1 + l1 + l2 - 1)
            let d1 = at(p1 + l1 + l2), d2 = at(p1 + l1 + l2 + l3 - 1), e = at(p1 + l1 + l2 + l3)
            if costs.fixed(a, b1) || costs.fixed(b2, c1) || costs.fixed(c2, d1) || costs.fixed(d2, e) { continue }
            let delta = (c(a, d1) + c(d2, c1) + c(c2, b1) + c(b2, e)) - (c(a, b1) + c(b2, c1) + c(c2, d1) + c(d2, e))
            reorderSegments(p1, l1, l2, l3)
            for x in [a, b1, b2, c1, c2, d1, d2, e] { push(x) }
            return (p1, l1, l2, l3, delta)
        }
        return nil
    }

    /// One chain of kicks from the current (locally optimal) tour: up to `kicks` kicks in all
    /// (`it` counts them), each a kick and a local search, keeping the kicked tour when it is no
    /// worse; stops after `stall` kicks in a row that did not shorten the tour, or at the
    /// deadline. Returns false when the deadline passed.
    mutating func chain(_ it: inout Int, kicks: Int, stall: Int, deadline: Double?) -> Bool {
        var since = 0
        while it < kicks && since < stall {
            if let deadline, monotonicSeconds() >= deadline { return false }
            it += 1
            since += 1
            clear(&log)
            gained = 0
            guard let (p, l1, l2, l3, delta) = kick() else { return true }
            let finished = localSearch(deadline: deadline)
            if delta - gained > eps {
                // Worse: back to the tour before the kick (the queue is empty or abandoned).
                while queueCount > 0 { _ = pop() }
                while !log.isEmpty { undoLast() }
                reorderSegments(p, l3, l2, l1)
            } else if gained - delta > eps {
                since = 0
            }
            if !finished { return false }
        }
        return true
    }

    /// The chained search: local search from the start, then up to `kicks` kicks. On tours of
    /// `mergeFrom` nodes or more the kicks go to trials: each chain ends after `stallKicks` kicks
    /// in a row that found nothing shorter; the next trial starts from `guidedTour`, and its
    /// final tour is merged with the best so far by partition crossover (then a local search),
    /// until the kicks or the time run out.
    /// Returns the tour as search nodes starting at home.
    mutating func run(kicks: Int, deadline: Double?) -> [Int32] {
        for p in 0..<n { push(tour[p]) }
        var finished = localSearch(deadline: deadline)
        var it = 0
        if finished {
            let stall = n >= Self.mergeFrom ? max(Self.stallMin, n / Self.stallDivisor) : Int.max
            finished = chain(&it, kicks: kicks, stall: stall, deadline: deadline)
            var best = Array(UnsafeBufferPointer(start: tour, count: n))
            if n >= Self.mergeFrom { restrictTo(best) }
            while finished && it < kicks && n >= Self.mergeFrom {
                guidedTour()
                for p in 0..<n { push(tour[p]) }
                finished = localSearch(deadline: deadline)
                if finished { finished = chain(&it, kicks: kicks, stall: stall, deadline: deadline) }
                crossover(best)
                if finished { finished = localSearch(deadline: deadline) }
                let mine = Array(UnsafeBufferPointer(start: tour, count: n))
                if length(of: mine) < length(of: best) {
                    best = mine
                    restrictTo(best)
                }
            }
            restrict = []
            load(best)
        }
        // From home, in the direction the route reads.
        var h = 0
        while tour[h] != costs.home { h += 1 }
        var out = [Int32](repeating: 0, count: n)
        for t in 0..<n { out[t] = tour[(h + t) % n] }
        return out
    }
}
