/// The exact search: dynamic programming over the subsets of stops (Held-Karp), with every partial
/// route dropped whose cost plus a lower bound on what is left exceeds a known tour's.
///
/// A partial route is a state (the stops visited, the last one) and its cost. From a state with
/// last node j and stops U still to visit, the rest of the tour is an edge from j into U, a path
/// through U and an edge from U back home, so it costs at least
///
///     min over v in U of c'(j, v)  +  MST'(U)  +  min over v in U of c'(v, home)
///     - pi(j) - 2 sum over U of pi - pi(home)
///
/// where c'(a, b) = min(w(a, b), w(b, a)) + pi(a) + pi(b) for any node values pi (every node of U
/// has two edges on the path, j and home one), and MST'(U) is the cheapest spanning tree of U on
/// c'. The values pi come from a subgradient ascent of the Held-Karp 1-tree bound on the same
/// costs, which make the bound close to the truth; when the ascent's 1-tree is itself a tour as
/// long as the known one, that tour is proven optimal without a search. The states are kept
/// layer by layer (all routes over k stops, then k + 1), merged in a hash table, so the time and
/// memory follow the states that survive rather than the 2^n × n of the whole table; when more
/// survive than a sixteenth of that table, the plain table (`heldKarp`) answers instead. Either
/// way the answer is a shortest tour, the same for the same costs and known tour.
struct BoundedHeldKarp {
    let size: Int
    let n: Int
    let w: UnsafeBufferPointer<Double>
    /// c' without the node values: min(w(a, b), w(b, a)), row-major.
    var s: [Double]
    var pi: [Double]

    init(_ w: UnsafeBufferPointer<Double>, size: Int) {
        self.size = size
        n = size - 1
        self.w = w
        s = [Double](repeating: 0, count: size * size)
        for a in 0..<size {
            for b in 0..<size { s[a * size + b] = min(w[a * size + b], w[b * size + a]) }
        }
        pi = [Double](repeating: 0, count: size)
    }

    @inline(__always) func cp(_ a: Int, _ b: Int) -> Double { s[a * size + b] + pi[a] + pi[b] }

    /// The cheapest spanning tree on c' of the nodes in `nodes` (bit v - 1 for node v), by Prim
    /// from the lowest node, ties to the lower node; each node's degree in it is added to
    /// `degrees` (indexed by node) when given.
    func spanningTree(_ nodes: Int, degrees: UnsafeMutableBufferPointer<Int>? = nil) -> Double {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: n) { key -> Double in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: n) { dad -> Double in
                key.initialize(repeating: .infinity)
                var left = nodes
                let first = left.trailingZeroBitCount
                left &= left - 1
                // Every node hangs from the first until a cheaper edge is seen (a cost of
                // infinity is never cheaper), so a degree is never read from unset memory.
                dad.initialize(repeating: first + 1)
                var u = first + 1
                var total = 0.0
                while left != 0 {
                    var best = Double.infinity
                    var bestV = 0
                    var bits = left
                    while bits != 0 {
                        let v = bits.trailingZeroBitCount
                        bits &= bits - 1
                        let x = cp(u, v + 1)
                        if x < key[v] {
                            key[v] = x
                            dad[v] = u
                        }
                        if key[v] < best || bestV == 0 {
                            best = key[v]
                            bestV = v + 1
                        }
                    }
                    total += best
                    if let degrees {
                        degrees[bestV] += 1
                        degrees[dad[bestV - 1]] += 1
                    }
                    left &= ~(1 << (bestV - 1))
                    u = bestV
                }
                return total
            }
        }
    }

    /// The 1-tree bound on c' (home joined to the spanning tree of the stops by its two cheapest
    /// edges) and each node's degree in that 1-tree less 2.
    func oneTree(_ excess: inout [Int]) -> Double {
        for v in 0..<size { excess[v] = -2 }
        var total = excess.withUnsafeMutableBufferPointer { spanningTree((1 << n) - 1, degrees: $0) }
        var a = -1, b = -1
        for v in 1..<size {
            if a < 0 || cp(0, v) < cp(0, a) {
                b = a
                a = v
            } else if b < 0 || cp(0, v) < cp(0, b) {
                b = v
            }
        }
        total += cp(0, a) + cp(0, b)
        excess[0] += 2
        excess[a] += 1
        excess[b] += 1
        var sum = 0.0
        for v in 0..<size { sum += pi[v] }
        return total - 2 * sum
    }

    /// Node values by subgradient ascent with Polyak's step toward `upper`; true when a 1-tree
    /// that is a tour reaches `upper` (within `tol`), which proves the known tour optimal.
    mutating func ascend(upper: Double, tol: Double) -> Bool {
        var excess = [Int](repeating: 0, count: size)
        var bestPi = pi
        var best = -Double.infinity
        var lambda = 2.0
        var sinceBest = 0
        for _ in 0..<(20 * size) {
            let bound = oneTree(&excess)
            if bound > best + tol {
                best = bound
                bestPi = pi
                sinceBest = 0
            } else {
                sinceBest += 1
                if sinceBest >= size {
                    lambda /= 2
                    sinceBest = 0
                    if lambda < 1e-4 { break }
                }
            }
            if best >= upper - tol { pi = bestPi; return true }
            var norm = 0
            for v in 0..<size { norm += excess[v] * excess[v] }
            if norm == 0 { break }
            let t = lambda * (upper - bound) / Double(norm)
            for v in 0..<size { pi[v] += t * Double(excess[v]) }
        }
        pi = bestPi
        return false
    }
}

/// An open-addressing hash table from a state's key to its slot in the layer being built.
private struct StateTable {
    var keys: [Int]
    var slots: [Int32]
    var mask: Int

    init(capacity: Int) {
        var c = 16
        while c < 2 * capacity { c <<= 1 }
        keys = [Int](repeating: -1, count: c)
        slots = [Int32](repeating: 0, count: c)
        mask = c - 1
    }

    /// The slot stored for `key`, or nil after reserving its place (`at`).
    @inline(__always) func find(_ key: Int) -> (slot: Int32?, at: Int) {
        var h = Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        while true {
            let k = keys[h]
            if k == key { return (slots[h], h) }
            if k < 0 { return (nil, h) }
            h = (h + 1) & mask
        }
    }
}

/// The optimal closed tour from node 0 over `w` (size ≤ StopOrder.exactLimit + 1) as nodes in
/// order starting with 0, given `upper`, a tour over the same nodes (from the heuristic): the
/// bounded search, or the plain table when more than 2^n × n / 16 states survive.
func exactTour(_ w: [Double], size: Int, upper: [Int32]) -> [Int32] {
    let n = size - 1
    return boundedHeldKarp(w, size: size, upper: upper, stateCap: max(4096, ((1 << n) * n) / 16))
        ?? heldKarp(w, size: size)
}

/// The optimal closed tour from node 0 over `w` (size ≤ StopOrder.autoProofLimit + 1) given
/// `upper`, when at most `stateCap` states survive the bound; nil otherwise (or when the costs
/// are so large that the bound's sums could overflow).
func boundedHeldKarp(_ w: [Double], size: Int, upper: [Int32], stateCap: Int) -> [Int32]? {
    let n = size - 1
    var ub = 0.0
    for p in 0..<size { ub += w[Int(upper[p]) * size + Int(upper[(p + 1) % size])] }
    guard n >= 4, n <= 30, ub.isFinite, ub < 1e290 else { return nil }
    return w.withUnsafeBufferPointer { wp -> [Int32]? in
        var b = BoundedHeldKarp(wp, size: size)
        let tol = 1e-9 * ub + 1e-300
        if b.ascend(upper: ub, tol: tol) { return upper }
        return search(b, ub: ub, tol: tol, cap: stateCap)
    }
}

/// The layered search of `boundedHeldKarp`; nil when more than `cap` states survive.
private func search(_ b: BoundedHeldKarp, ub: Double, tol: Double, cap: Int) -> [Int32]? {
    let n = b.n, size = b.size
    let w = b.w
    let full = (1 << n) - 1
    var total = 0
    // Per subset of stops still to visit: MST'(U) + min c'(v, home) - 2 sum pi(U) - pi(home).
    var subsetBound: [Int: Double] = [:]
    func rest(_ u: Int) -> Double {
        if let x = subsetBound[u] { return x }
        var home = Double.infinity
        var sum = 0.0
        var bits = u
        while bits != 0 {
            let v = bits.trailingZeroBitCount + 1
            bits &= bits - 1
            home = min(home, b.cp(v, 0))
            sum += b.pi[v]
        }
        let x = b.spanningTree(u) + home - 2 * sum - b.pi[0]
        subsetBound[u] = x
        return x
    }
    // The least a tour can cost that has cost g up to node j with the stops u left.
    func lower(_ g: Double, _ j: Int, _ u: Int) -> Double {
        if u == 0 { return g + w[j * size] }
        var h = Double.infinity
        var bits = u
        while bits != 0 {
            let v = bits.trailingZeroBitCount
            bits &= bits - 1
            h = min(h, b.cp(j, v + 1))
        }
        return g + h - b.pi[j] + rest(u)
    }
    // Layer k: states over k stops. `last` is the last stop (0-based), `parent` the slot of the
    // state it came from in layer k - 1.
    var masks: [[Int32]] = [], lasts: [[UInt8]] = [], costs: [[Double]] = [], parents: [[Int32]] = []
    var m0: [Int32] = [], l0: [UInt8] = [], c0: [Double] = [], p0: [Int32] = []
    for k in 0..<n {
        let g = w[Int(k + 1)]
        if lower(g, k + 1, full & ~(1 << k)) > ub + tol { continue }
        m0.append(Int32(1 << k)); l0.append(UInt8(k)); c0.append(g); p0.append(-1)
    }
    masks.append(m0); lasts.append(l0); costs.append(c0); parents.append(p0)
    for layer in 1..<n {
        let pm = masks[layer - 1], pl = lasts[layer - 1], pc = costs[layer - 1]
        let generated = pm.count * (n - layer)
        if generated / 2 > cap { return nil }
        var table = StateTable(capacity: generated)
        var nm: [Int32] = [], nl: [UInt8] = [], nc: [Double] = [], np: [Int32] = []
        for i in 0..<pm.count {
            let mask = Int(pm[i]), j = Int(pl[i]) + 1, g = pc[i]
            let row = j * size + 1
            var free = full & ~mask
            while free != 0 {
                let k = free.trailingZeroBitCount
                free &= free - 1
                let c = g + w[row + k]
                let key = (mask | (1 << k)) * n + k
                let (slot, at) = table.find(key)
                if let slot {
                    let s = Int(slot)
                    if c < nc[s] {
                        nc[s] = c
                        np[s] = Int32(i)
                    }
                } else {
                    table.keys[at] = key
                    table.slots[at] = Int32(nm.count)
                    nm.append(Int32(mask | (1 << k))); nl.append(UInt8(k)); nc.append(c); np.append(Int32(i))
                }
            }
        }
        // Keep the states whose cost and bound on the rest fit under the known tour.
        var keep = 0
        for s in 0..<nm.count {
            if lower(nc[s], Int(nl[s]) + 1, full & ~Int(nm[s])) > ub + tol { continue }
            nm[keep] = nm[s]; nl[keep] = nl[s]; nc[keep] = nc[s]; np[keep] = np[s]
            keep += 1
        }
        nm.removeLast(nm.count - keep); nl.removeLast(nl.count - keep)
        nc.removeLast(nc.count - keep); np.removeLast(np.count - keep)
        total += keep
        if total > cap { return nil }
        masks.append(nm); lasts.append(nl); costs.append(nc); parents.append(np)
    }
    // The cheapest completed tour.
    let lastLayer = n - 1
    var best = Double.infinity
    var bestSlot = -1
    for s in 0..<costs[lastLayer].count {
        let j = Int(lasts[lastLayer][s]) + 1
        let c = costs[lastLayer][s] + w[j * size]
        if c < best {
            best = c
            bestSlot = s
        }
    }
    if bestSlot < 0 { return nil }
    var tour = [Int32](repeating: 0, count: size)
    var slot = bestSlot
    for layer in stride(from: lastLayer, through: 0, by: -1) {
        tour[layer + 1] = Int32(lasts[layer][slot]) + 1
        slot = Int(parents[layer][slot])
    }
    return tour
}

// MARK: - The plain table

/// The optimal closed tour from node 0 over `w` (size ≤ StopOrder.exactLimit + 1), as nodes in
/// order starting with 0. Ties go to the lower stop at each step, so the answer is deterministic.
func heldKarp(_ w: [Double], size: Int) -> [Int32] {
    let n = size - 1
    if n == 1 { return [0, 1] }
    let full = (1 << n) - 1
    var dp = [Double](repeating: .infinity, count: (1 << n) * n)
    var parent = [UInt8](repeating: 0, count: (1 << n) * n)
    w.withUnsafeBufferPointer { w in
        dp.withUnsafeMutableBufferPointer { dp in
            parent.withUnsafeMutableBufferPointer { parent in
                for j in 0..<n { dp[(1 << j) * n + j] = w[j + 1] }
                for mask in 1...full {
                    let row = mask * n
                    var bits = mask
                    while bits != 0 {
                        let j = bits.trailingZeroBitCount
                        bits &= bits - 1
                        let here = dp[row + j]
                        if here == .infinity { continue }
                        let wrow = (j + 1) * size + 1
                        var free = full & ~mask
                        while free != 0 {
                            let k = free.trailingZeroBitCount
                            free &= free - 1
                            let c = here + w[wrow + k]
                            let slot = (mask | (1 << k)) * n + k
                            if c < dp[slot] {
                                dp[slot] = c
                                parent[slot] = UInt8(j)
                            }
                        }
                    }
                }
            }
        }
    }
    var best = Double.infinity
    var last = 0
    for j in 0..<n {
        let c = dp[full * n + j] + w[(j + 1) * size]
        if c < best {
            best = c
            last = j
        }
    }
    var tour = [Int32](repeating: 0, count: size)
    var mask = full
    var j = last
    for p in stride(from: n, through: 1, by: -1) {
        tour[p] = Int32(j + 1)
        let prev = Int(parent[mask * n + j])
        mask &= ~(1 << j)
        j = prev
    }
    return tour
}
