/// The search for one-way costs (a matrix whose costs differ by direction): Or-opt moves of
/// segments of 1 to 3 stops over each stop's nearest neighbours, driven by don't-look bits, kicked
/// by segment swaps, keeping the best tour. Home stays at position 0.

/// 2-opt (when the costs between stops are symmetric) and Or-opt (segments of 1 to 3 stops, also
/// reversed when symmetric) over lists of each node's nearest neighbours, driven by don't-look
/// bits; perturbed by double-bridge kicks (local ones on large tours), keeping the best tour.
/// Home stays at position 0. The hot loops work on raw buffers (no copy-on-write or exclusivity
/// checks in them); `run` frees them.
struct LocalSearch {
    let size: Int
    let w: UnsafeMutablePointer<Double>
    let symmetric: Bool
    /// Every return to home is free: the route ends anywhere, and reversing its tail is a move.
    let freeReturn: Bool
    let neighbours: UnsafeMutablePointer<Int32>
    let k: Int
    let eps: Double
    let tour: UnsafeMutablePointer<Int32>
    let pos: UnsafeMutablePointer<Int32>
    let scratch: UnsafeMutablePointer<Int32>
    let queued: UnsafeMutablePointer<Bool>
    let queue: UnsafeMutablePointer<Int32>
    var queueCount = 0
    var rng: SplitMix64

    init(_ costs: [Double], size: Int, seed: UInt64) {
        self.size = size
        let w = UnsafeMutablePointer<Double>.allocate(capacity: size * size)
        costs.withUnsafeBufferPointer { w.initialize(from: $0.baseAddress!, count: size * size) }
        self.w = w
        var sym = true
        var sum = 0.0
        for i in 1..<size {
            for j in 1..<size where j != i {
                if w[i * size + j] != w[j * size + i] { sym = false }
                sum += w[i * size + j]
            }
        }
        symmetric = sym
        var free = true
        for i in 1..<size where w[i * size] != 0 { free = false }
        freeReturn = free
        let stops = size - 1
        eps = 1e-12 * max(sum / Double(max(1, stops * (stops - 1))), 1e-300)
        // Each node's nearest stops by the cheaper direction (home is never a neighbour: its
        // edges are the route's ends, reached through its own list).
        let k = min(10, size - 2)
        self.k = k
        let neighbours = UnsafeMutablePointer<Int32>.allocate(capacity: size * max(k, 1))
        self.neighbours = neighbours
        var cand: [(Double, Int32)] = []
        cand.reserveCapacity(size)
        for i in 0..<size {
            cand.removeAll(keepingCapacity: true)
            for j in 1..<size where j != i {
                cand.append((min(w[i * size + j], w[j * size + i]), Int32(j)))
            }
            cand.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
            for t in 0..<k { neighbours[i * k + t] = cand[t].1 }
        }
        rng = SplitMix64(seed: seed)
        queued = .allocate(capacity: size)
        queued.initialize(repeating: false, count: size)
        queue = .allocate(capacity: size)
        let tour = UnsafeMutablePointer<Int32>.allocate(capacity: size)
        let pos = UnsafeMutablePointer<Int32>.allocate(capacity: size)
        self.tour = tour
        self.pos = pos
        scratch = .allocate(capacity: size)
        // Nearest neighbour from home.
        var used = [Bool](repeating: false, count: size)
        tour[0] = 0
        var cur = 0
        for p in 1..<size {
            var best = -1
            var bestCost = Double.infinity
            for j in 1..<size where !used[j] {
                let c = w[cur * size + j]
                if c < bestCost {
                    bestCost = c
                    best = j
                }
            }
            tour[p] = Int32(best)
            used[best] = true
            cur = best
        }
        for p in 0..<size { pos[Int(tour[p])] = Int32(p) }
    }

    func free() {
        queue.deallocate()
        w.deallocate()
        neighbours.deallocate()
        queued.deallocate()
        tour.deallocate()
        pos.deallocate()
        scratch.deallocate()
    }

    @inline(__always) func c(_ a: Int32, _ b: Int32) -> Double { w[Int(a) * size + Int(b)] }
    @inline(__always) func at(_ p: Int) -> Int32 { tour[p == size ? 0 : p] }

    mutating func next() -> UInt64 { rng.next() }

    @inline(__always) mutating func push(_ a: Int32) {
        if !queued[Int(a)] {
            queued[Int(a)] = true
            queue[queueCount] = a
            queueCount += 1
        }
    }

    func cost() -> Double {
        var s = 0.0
        for p in 0..<size { s += c(tour[p], at(p + 1)) }
        return s
    }

    mutating func reverse(_ i: Int, _ j: Int) {
        var a = i, b = j
        while a < b {
            let x = tour[a], y = tour[b]
            tour[a] = y; pos[Int(y)] = Int32(a)
            tour[b] = x; pos[Int(x)] = Int32(b)
            a += 1; b -= 1
        }
    }

    /// Moves the segment at positions s...e (1 ≤ s ≤ e < size) to follow the node at position x
    /// (outside s - 1 ... e), reversed if asked; only the positions in between shift.
    mutating func move(_ s: Int, _ e: Int, after x: Int, reversed: Bool) {
        let len = e - s + 1
        for t in 0..<len { scratch[t] = reversed ? tour[e - t] : tour[s + t] }
        if x > e {
            // Shift s+len ... x left by len, then place the segment ending at x.
            for p in (e + 1)...x { tour[p - len] = tour[p]; pos[Int(tour[p - len])] = Int32(p - len) }
            for t in 0..<len { tour[x - len + 1 + t] = scratch[t]; pos[Int(scratch[t])] = Int32(x - len + 1 + t) }
        } else {
            // x < s - 1: shift x+1 ... s-1 right by len, then place the segment after x.
            var p = s - 1
            while p > x { tour[p + len] = tour[p]; pos[Int(tour[p + len])] = Int32(p + len); p -= 1 }
            for t in 0..<len { tour[x + 1 + t] = scratch[t]; pos[Int(scratch[t])] = Int32(x + 1 + t) }
        }
    }

    /// Tries the moves around node a; returns true after applying an improving one.
    mutating func improve(_ a: Int32) -> Bool {
        let i = Int(pos[Int(a)])
        if symmetric && tryTwoOpt(i) { return true }
        if symmetric && freeReturn && tryTail(i) { return true }
        for len in 1...3 {
            // Segments starting at a, and ending at a.
            if i >= 1 && i + len - 1 <= size - 1 && tryOrOpt(i, i + len - 1) { return true }
            if len > 1 && i - len + 1 >= 1 && tryOrOpt(i - len + 1, i) { return true }
        }
        return false
    }

    @inline(__always) mutating func pushAll(_ a: Int32, _ b: Int32, _ c: Int32, _ d: Int32) {
        push(a); push(b); push(c); push(d)
    }

    mutating func tryTwoOpt(_ i: Int) -> Bool {
        let a = tour[i], a2 = at(i + 1)
        let dA = c(a, a2)
        // New edge a -> b, with a's successor: reverse between them.
        for t in 0..<k {
            let b = neighbours[Int(a) * k + t]
            let g = dA - c(a, b)
            if g <= eps { break }
            let j = Int(pos[Int(b)])
            let b2 = at(j + 1)
            if b == a2 || b2 == a { continue }
            if i < j {
                if c(a2, b2) - c(b, b2) < g - eps {
                    reverse(i + 1, j)
                    pushAll(a, a2, b, b2)
                    return true
                }
            } else if c(b2, a2) - c(b, b2) + c(b, a) - c(a, b) < g - eps {
                reverse(j + 1, i)
                pushAll(a, a2, b, b2)
                return true
            }
        }
        // New edge b -> a, with a's predecessor (a is not home).
        guard i > 0 else { return false }
        let a0 = tour[i - 1]
        let dP = c(a0, a)
        for t in 0..<k {
            let b = neighbours[Int(a) * k + t]
            let g = dP - c(b, a)
            if g <= eps { break }
            let j = Int(pos[Int(b)])
            if j == 0 { continue }
            let b0 = tour[j - 1]
            if b == a0 || b0 == a { continue }
            if j < i {
                // ... b0 b ... a0 a ...: reverse b ... a0 -> edges b0 -> a0 and b -> a.
                if c(b0, a0) - c(b0, b) < g - eps {
                    reverse(j, i - 1)
                    pushAll(a, a0, b, b0)
                    return true
                }
            } else if c(a0, b0) - c(b0, b) < g - eps {
                // ... a0 a ... b0 b ...: reverse a ... b0 -> edges a0 -> b0 and a -> b.
                reverse(i, j - 1)
                pushAll(a, a0, b, b0)
                return true
            }
        }
        return false
    }

    /// On an open route: end at another stop by reversing the tail. For a at i, the tail after
    /// it (new edge a -> the last stop); and when a is the last stop, the tail after one of its
    /// neighbours (new edge b -> a).
    mutating func tryTail(_ i: Int) -> Bool {
        let last = size - 1
        if i < last - 1 {
            let a = tour[i], a2 = tour[i + 1], z = tour[last]
            if c(a, z) < c(a, a2) - eps {
                reverse(i + 1, last)
                push(a); push(a2); push(z)
                return true
            }
        } else if i == last {
            let a = tour[i]
            for t in 0..<k {
                let b = neighbours[Int(a) * k + t]
                let j = Int(pos[Int(b)])
                if j >= last - 1 { continue }
                let b2 = tour[j + 1]
                if c(b, a) < c(b, b2) - eps {
                    reverse(j + 1, last)
                    push(a); push(b); push(b2)
                    return true
                }
            }
        }
        return false
    }

    mutating func tryOrOpt(_ s: Int, _ e: Int) -> Bool {
        let p = tour[s - 1], q = at(e + 1)
        let s0 = tour[s], s1 = tour[e]
        let gain = c(p, s0) + c(s1, q) - c(p, q)
        if gain <= eps { return false }
        @inline(__always) func outside(_ x: Int) -> Bool { x < s - 1 || x > e }
        @inline(__always) func done(_ x: Int32, _ y: Int32, _ me: inout LocalSearch) -> Bool {
            me.push(p); me.push(q); me.push(s0); me.push(s1); me.push(x); me.push(y)
            return true
        }
        // Forward: x -> s0 ... s1 -> y, x a neighbour of s0, or y one of s1.
        for t in 0..<k {
            let x = neighbours[Int(s0) * k + t]
            if c(x, s0) >= gain - eps { break }
            let xp = Int(pos[Int(x)])
            if !outside(xp) { continue }
            let y = at(xp + 1)
            if c(x, s0) + c(s1, y) - c(x, y) < gain - eps {
                move(s, e, after: xp, reversed: false)
                return done(x, y, &self)
            }
        }
        for t in 0..<k + 1 {
            let y: Int32 = t == k ? 0 : neighbours[Int(s1) * k + t]
            if t < k && c(s1, y) >= gain - eps { continue }
            let yp = Int(pos[Int(y)])
            let xp = yp == 0 ? size - 1 : yp - 1
            if !outside(xp) || (yp >= s && yp <= e) { continue }
            let x = tour[xp]
            if c(x, s0) + c(s1, y) - c(x, y) < gain - eps {
                move(s, e, after: xp, reversed: false)
                return done(x, y, &self)
            }
        }
        guard symmetric || s == e else { return false }
        // Reversed: x -> s1 ... s0 -> y.
        for t in 0..<k {
            let x = neighbours[Int(s1) * k + t]
            if c(x, s1) >= gain - eps { break }
            let xp = Int(pos[Int(x)])
            if !outside(xp) { continue }
            let y = at(xp + 1)
            if c(x, s1) + c(s0, y) - c(x, y) < gain - eps {
                move(s, e, after: xp, reversed: true)
                return done(x, y, &self)
            }
        }
        return false
    }

    mutating func localSearch(deadline: Double? = nil) {
        var count = 0
        while queueCount > 0 {
            count += 1
            if let deadline, count & 63 == 0, monotonicSeconds() >= deadline {
                while queueCount > 0 {
                    queueCount -= 1
                    queued[Int(queue[queueCount])] = false
                }
                return
            }
            queueCount -= 1
            let a = queue[queueCount]
            queued[Int(a)] = false
            while improve(a) {}
        }
    }

    /// A double bridge on positions 1 ..< size: A B C D -> A C B D. On large tours B and C are
    /// short and next to each other, so the kick stays local.
    mutating func kick() {
        let m = size - 1
        var p1: Int, p2: Int, p3: Int
        if m <= 200 {
            var a = 1 + Int(next() % UInt64(m)), b = 1 + Int(next() % UInt64(m)), c = 1 + Int(next() % UInt64(m))
            if a > b { swap(&a, &b) }
            if b > c { swap(&b, &c) }
            if a > b { swap(&a, &b) }
            (p1, p2, p3) = (a, b, c + 1)
        } else {
            p1 = 1 + Int(next() % UInt64(m - 2))
            p2 = p1 + 1 + Int(next() % UInt64(max(1, min(50, m - p1 - 1))))
            p3 = min(p2 + 1 + Int(next() % 50), size)
        }
        if !(p1 < p2 && p2 < p3 && p3 <= size) { return }
        let lb = p2 - p1, lc = p3 - p2
        for t in 0..<lb { scratch[t] = tour[p1 + t] }
        for t in 0..<lc { tour[p1 + t] = tour[p2 + t]; pos[Int(tour[p1 + t])] = Int32(p1 + t) }
        for t in 0..<lb { tour[p1 + lc + t] = scratch[t]; pos[Int(scratch[t])] = Int32(p1 + lc + t) }
        push(at(p1 - 1)); push(at(p1)); push(at(p1 + lc - 1)); push(at(p1 + lc)); push(at(p3 - 1)); push(at(p3))
    }

    mutating func run(iterations: Int, deadline: Double?) -> [Int32] {
        for p in 0..<size { push(tour[p]) }
        localSearch(deadline: deadline)
        let best = UnsafeMutablePointer<Int32>.allocate(capacity: size)
        defer { best.deallocate() }
        best.initialize(from: tour, count: size)
        var bestCost = cost()
        if size < 5 { return Array(UnsafeBufferPointer(start: best, count: size)) }
        for _ in 0..<iterations {
            if let deadline, monotonicSeconds() >= deadline { break }
            kick()
            localSearch(deadline: deadline)
            let cNow = cost()
            if cNow <= bestCost + eps {
                if cNow < bestCost { bestCost = cNow }
                best.update(from: tour, count: size)
            } else {
                for p in 0..<size {
                    tour[p] = best[p]
                    pos[Int(best[p])] = Int32(p)
                }
            }
        }
        return Array(UnsafeBufferPointer(start: best, count: size))
    }
}

