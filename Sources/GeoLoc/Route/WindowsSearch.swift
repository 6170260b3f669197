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
    var rng: UInt64
    /// The current order (stops, 0-based), and its schedule prefix: after position i, the time
    /// service ends, the travel and the lateness so far.
    var order: [Int32]
    var timeAt: [Double]
    var travelAt: [Double]
    var lateAt: [Double]
    var best: [Int32]
    var bestKey: (Double, Double)
    var cand: [Int32]
    let eps: Double

    init(_ p: WindowProblem, seed: UInt64) {
        self.p = p
        n = p.size - 1
        rng = seed &+ 0x9E37_79B9_7F4A_7C15
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
        cand = order
        bestKey = (.infinity, .infinity)
        var sum = 0.0
        for v in p.t where v.isFinite { sum += v }
        eps = 1e-12 * max(sum / Double(max(1, p.size * p.size)), 1e-300)
        rebuild()
        bestKey = key()
    }

    mutating func next() -> UInt64 {
        rng &+= 0x9E37_79B9_7F4A_7C15
        var z = rng
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

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

    /// The key of `cand`, which equals `order` before position `from`; nil as soon as it cannot
    /// beat `bound` (lateness only grows; travel only grows).
    func evaluate(from: Int, bound: (Double, Double)) -> (Double, Double)? {
        var time = timeAt[from], travel = travelAt[from], late = lateAt[from]
        var prev = from == 0 ? 0 : Int(cand[from - 1]) + 1
        for i in from..<n {
            let node = Int(cand[i]) + 1
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

    /// Applies `cand` as the new order when it is better; returns true if it was.
    mutating func tryCandidate(from: Int) -> Bool {
        let current = key()
        guard let k = evaluate(from: from, bound: current), better(k, than: current) else { return false }
        order = cand
        rebuild()
        return true
    }

    /// The stop at the last position is fixed for a route ending at a given stop.
    var movable: Int {
        if case .stop = p.end { return n - 1 }
        return n
    }

    /// One pass of first-improvement moves; returns true when something improved.
    mutating func improveOnce(deadline: Double?) -> Bool {
        let m = movable
        for len in 1...3 where len < m {
            for s in 0...(m - len) {
                // Segment s ..< s + len moved to before position q in the rest.
                for q in 0...(m - len) where q != s {
                    for reversed in [false, true] where !reversed || len > 1 {
                        cand = order
                        let seg = Array(order[s..<(s + len)])
                        cand.removeSubrange(s..<(s + len))
                        cand.insert(contentsOf: reversed ? seg.reversed() : seg, at: q)
                        if tryCandidate(from: min(s, q)) { return true }
                    }
                }
            }
            if let deadline, monotonicSeconds() >= deadline { return false }
        }
        // Swaps of two stops.
        for a in 0..<m {
            for b in (a + 1)..<max(a + 1, m) {
                cand = order
                cand.swapAt(a, b)
                if tryCandidate(from: a) { return true }
            }
        }
        return false
    }

    mutating func localSearch(deadline: Double?) {
        while improveOnce(deadline: deadline) {
            if let deadline, monotonicSeconds() >= deadline { return }
        }
    }

    /// Relocates 2 or 3 random stops to random places.
    mutating func kick() {
        let m = movable
        guard m >= 3 else { return }
        let moves = 2 + Int(next() % 2)
        for _ in 0..<moves {
            let from = Int(next() % UInt64(m))
            let x = order.remove(at: from)
            let to = Int(next() % UInt64(m))
            order.insert(x, at: to)
        }
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
