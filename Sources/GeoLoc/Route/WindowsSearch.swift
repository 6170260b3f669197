/// The heuristic with opening hours: an iterated local search on (total lateness, travel),
/// compared in that order. The start sorts the stops by their latest time (then their earliest);
/// the local search moves segments of 1 to 3 stops to every other place (forward, and reversed
/// when that is cheaper) and swaps pairs of stops, taking the first improving move, with each
/// candidate evaluated from the first position it changes (the schedule before it is kept) and
/// abandoned as soon as it can no longer beat the current order; a kick relocates a few random
/// stops. The best order seen is kept.
struct WindowSearch {
    let p: WindowProblem
    let n: Int
    var rng: SplitMix64
    /// The current order (stops, 0-based), and its schedule prefix: after position i, the time
    /// service ends, the travel and the lateness so far.
    var order: [Int32]
    var timeAt: [Double]
    var travelAt: [Double]
    var lateAt: [Double]
    var best: [Int32]
    var bestKey: (Double, Double)
    /// The shortest travel times between nodes (up to 400 stops; empty beyond, and then every
    /// stop may precede every other).
    let shortest: [Double]
    /// Where the next pass of moves starts.
    var cursor = 0
    let eps: Double

    init(_ p: WindowProblem, seed: UInt64) {
        self.p = p
        n = p.size - 1
        rng = SplitMix64(seed: seed)
        let stops = Array(0..<Int32(n))
        order = stops.sorted { a, b in
            let la = p.latest[Int(a) + 1], lb = p.latest[Int(b) + 1]
            if la != lb { return la < lb }
            let ea = p.earliest[Int(a) + 1], eb = p.earliest[Int(b) + 1]
            if ea != eb { return ea < eb }
            return a < b
        }
        if case .stop(let e) = p.end, let at = order.firstIndex(of: Int32(e)) {
            order.remove(at: at)
            order.append(Int32(e))
        }
        timeAt = [Double](repeating: 0, count: n + 1)
        travelAt = timeAt
        lateAt = timeAt
        best = order
        bestKey = (.infinity, .infinity)
        shortest = n <= 400 ? shortestTimes(p) : []
        var sum = 0.0
        for v in p.t where v.isFinite { sum += v }
        eps = 1e-12 * max(sum / Double(max(1, p.size * p.size)), 1e-300)
        rebuild()
        bestKey = key()
    }

    mutating func next() -> UInt64 { rng.next() }

    /// The prefix arrays of `order` (index 0 is home's departure).
    mutating func rebuild() {
        timeAt[0] = p.departure
        travelAt[0] = 0
        lateAt[0] = 0
        var prev = 0
        for i in 0..<n {
            let node = Int(order[i]) + 1
            let leg = p.t[prev * p.size + node]
            let arrival = timeAt[i] + leg
            lateAt[i + 1] = lateAt[i] + max(0, arrival - p.latest[node])
            timeAt[i + 1] = max(arrival, p.earliest[node]) + p.service[node]
            travelAt[i + 1] = travelAt[i] + leg
            prev = node
        }
    }

    /// The (lateness, travel) of the whole current order.
    func key() -> (Double, Double) { finish(timeAt[n], travelAt[n], lateAt[n], last: n == 0 ? 0 : Int(order[n - 1]) + 1) }

    @inline(__always) func finish(_ time: Double, _ travel: Double, _ late: Double, last: Int) -> (Double, Double) {
        var time = time, travel = travel, late = late
        if p.end == .home {
            let leg = p.t[last * p.size]
            time += leg
            travel += leg
        }
        if time > p.returnBy { late += time - p.returnBy }
        return (late, travel)
    }

    @inline(__always) func better(_ a: (Double, Double), than b: (Double, Double)) -> Bool {
        if a.0 < b.0 - eps { return true }
        if a.0 > b.0 + eps { return false }
        return a.1 < b.1 - eps
    }

    /// The key of the order whose positions from `from` on are `piece(0) ... piece(count - 1)`
    /// followed by `order[rest...]` (positions before `from` unchanged); nil as soon as it cannot
    /// beat `bound` (lateness and travel only grow). When the schedule meets the current one
    /// again at `rest` (same time there), the remainder is read from the prefix arrays.
    @inline(__always)
    func evaluate(from: Int, count: Int, rest: Int, bound: (Double, Double), piece: (Int) -> Int32) -> (Double, Double)? {
        var time = timeAt[from], travel = travelAt[from], late = lateAt[from]
        var prev = from == 0 ? 0 : Int(order[from - 1]) + 1
        var i = 0
        var k = rest
        while true {
            let stop: Int32
            if i < count {
                stop = piece(i)
                i += 1
            } else if k < n {
                if k > 0 && Int(order[k - 1]) + 1 == prev && time == timeAt[k] {
                    // Back in step with the current order: its tail costs what it costs now.
                    time = timeAt[n]
                    travel += travelAt[n] - travelAt[k]
                    late += lateAt[n] - lateAt[k]
                    prev = Int(order[n - 1]) + 1
                    break
                }
                stop = order[k]
                k += 1
            } else {
                break
            }
            let node = Int(stop) + 1
            let leg = p.t[prev * p.size + node]
            let arrival = time + leg
            if arrival > p.latest[node] {
                late += arrival - p.latest[node]
                if late > bound.0 + eps { return nil }
            }
            travel += leg
            if late >= bound.0 - eps && travel >= bound.1 - eps { return nil }
            time = max(arrival, p.earliest[node]) + p.service[node]
            prev = node
        }
        return finish(time, travel, late, last: prev)
    }

    /// The stop at the last position is fixed for a route ending at a given stop.
    var movable: Int {
        if case .stop = p.end { return n - 1 }
        return n
    }

    /// True when stop a can be followed (not necessarily at once) by stop b on time: leaving a
    /// at its earliest, b is still reached by its latest.
    @inline(__always) func canPrecede(_ a: Int32, _ b: Int32) -> Bool {
        guard !shortest.isEmpty else { return true }
        let x = Int(a) + 1, y = Int(b) + 1
        return max(p.earliest[x], p.departure) + p.service[x] + shortest[x * p.size + y] <= p.latest[y] + eps
    }

    /// How far (in positions) a segment may move: the whole route up to 60 stops, 40 beyond.
    var reach: Int { n <= 60 ? n : 40 }

    /// One pass of first-improvement moves; returns true when something improved.
    mutating func improveOnce(deadline: Double?) -> Bool {
        let m = movable
        let current = key()
        let feasible = current.0 <= eps
        // Segment starts from where the last improvement was found, around the route.
        for step in 0..<max(m, 1) {
            if step & 15 == 15, let deadline, monotonicSeconds() >= deadline { return false }
            let s = (cursor + step) % max(m, 1)
            for len in 1...3 where len < m && s + len <= m {
                let first = order[s], last = order[s + len - 1]
                // The segment s ..< s + len moved earlier: before position q < s.
                var q = s - 1
                while q >= max(0, s - reach) {
                    // Once the segment cannot come before order[q], it cannot come earlier still.
                    if feasible && (!canPrecede(last, order[q]) || !canPrecede(first, order[q])) { break }
                    for reversed in [false, true] where !reversed || len > 1 {
                        let order = self.order
                        let k = evaluate(from: q, count: s + len - q, rest: s + len, bound: current) { i in
                            if i < len { return reversed ? order[s + len - 1 - i] : order[s + i] }
                            return order[q + i - len]
                        }
                        if let k, better(k, than: current) {
                            let seg = Array(self.order[s..<(s + len)])
                            self.order.removeSubrange(s..<(s + len))
                            self.order.insert(contentsOf: reversed ? seg.reversed() : seg, at: q)
                            rebuild()
                            cursor = q
                            return true
                        }
                    }
                    q -= 1
                }
                // Moved later: after position r > s + len - 1 (r < m).
                var r = s + len
                while r < min(m, s + len + reach) {
                    if feasible && (!canPrecede(order[r], first) || !canPrecede(order[r], last)) { break }
                    for reversed in [false, true] where !reversed || len > 1 {
                        let order = self.order
                        let span = r - s + 1
                        let k = evaluate(from: s, count: span, rest: r + 1, bound: current) { i in
                            let before = r - s - len + 1
                            if i < before { return order[s + len + i] }
                            let j = i - before
                            return reversed ? order[s + len - 1 - j] : order[s + j]
                        }
                        if let k, better(k, than: current) {
                            let seg = Array(self.order[s..<(s + len)])
                            self.order.removeSubrange(s..<(s + len))
                            self.order.insert(contentsOf: reversed ? seg.reversed() : seg, at: r - len + 1)
                            rebuild()
                            cursor = s
                            return true
                        }
                    }
                    r += 1
                }
            }
        }
        // Swaps of two stops.
        for a in 0..<m {
            var b = a + 1
            while b < min(m, a + 1 + reach) {
                let order = self.order
                let k = evaluate(from: a, count: b - a + 1, rest: b + 1, bound: current) { i in
                    i == 0 ? order[b] : (i == b - a ? order[a] : order[a + i])
                }
                if let k, better(k, than: current) {
                    self.order.swapAt(a, b)
                    rebuild()
                    return true
                }
                b += 1
            }
        }
        return false
    }

    mutating func localSearch(deadline: Double?) {
        while improveOnce(deadline: deadline) {
            if let deadline, monotonicSeconds() >= deadline { return }
        }
    }

    /// Relocates 2 or 3 random stops, each by up to 8 places.
    mutating func kick() {
        let m = movable
        guard m >= 3 else { return }
        let moves = 2 + Int(next() % 2)
        for _ in 0..<moves {
            let from = Int(next() % UInt64(m))
            let x = order.remove(at: from)
            let shift = Int(next() % 17) - 8
            let to = min(max(0, from + shift), m - 1)
            order.insert(x, at: to)
        }
        cursor = 0
        rebuild()
    }

    /// Local search, then up to `iterations` kicks, each followed by a local search, from the best
    /// order; returns the best schedule found.
    mutating func run(iterations: Int, deadline: Double?) -> ScheduledOrder {
        order = best
        rebuild()
        localSearch(deadline: deadline)
        if better(key(), than: bestKey) || best == order {
            best = order
            bestKey = key()
        }
        var it = 0
        while it < iterations && n >= 4 {
            if let deadline, monotonicSeconds() >= deadline { break }
            it += 1
            order = best
            kick()
            localSearch(deadline: deadline)
            let k = key()
            if better(k, than: bestKey) || !better(bestKey, than: k) {
                best = order
                bestKey = k
            }
        }
        return p.schedule(best.map { Int($0) })
    }
}

/// Shortest travel times between every two nodes (Floyd-Warshall over the caller's times).
func shortestTimes(_ p: WindowProblem) -> [Double] {
    let size = p.size
    var sp = p.t
    for i in 0..<size { sp[i * size + i] = 0 }
    sp.withUnsafeMutableBufferPointer { sp in
        for k in 0..<size {
            for i in 0..<size {
                let ik = sp[i * size + k]
                for j in 0..<size where ik + sp[k * size + j] < sp[i * size + j] {
                    sp[i * size + j] = ik + sp[k * size + j]
                }
            }
        }
    }
    return sp
}
