/// The candidate neighbours of the chained Lin-Kernighan search: alpha-nearness (Helsgaun) on
/// costs transformed by node penalties (pi) from a subgradient ascent of the Held-Karp bound.
extension LinKernighan {
    /// Fills `neighbours` and `neighbourCost`: each node's k alpha-nearest partners on the
    /// penalised costs c(i, j) + pi(i) + pi(j) (the penalties from `ascent`, zero on tours of
    /// fewer than `ascentFrom` nodes), -1 where there are fewer. The costs cached beside them are
    /// the plain ones the search works on.
    mutating func buildCandidates(deadline: Double?) {
        var pi: [Double]? = nil
        if n >= Self.ascentFrom {
            let width = min(Self.ascentCandidates, n - 1)
            let (lists, dad) = alphaLists(count: width, pi: nil)
            pi = ascent(lists: lists, width: width, dad: dad, deadline: deadline)
        }
        let (lists, _) = alphaLists(count: k, pi: pi)
        for i in 0..<n {
            for t in 0..<k {
                let j = lists[i * k + t]
                neighbours[i * k + t] = j
                neighbourCost[i * k + t] = j >= 0 ? c(Int32(i), j) : .infinity
            }
        }
    }

    /// Each node's `count` alpha-nearest partners (never its fixed partner; the free node first,
    /// when there is one), -1 where there are fewer, and the spanning tree's parent of each node
    /// (-1 for the root and the free node). The minimum spanning tree by Prim over every node but
    /// the free node on the costs penalised by `pi`, a fixed edge always in it; then for each node
    /// i the largest tree edge on the path to every j (beta, in the tree's order from the root:
    /// O(n^2) in all); alpha(i, j) is the penalised cost less beta.
    func alphaLists(count k: Int, pi: [Double]?) -> (lists: [Int32], dad: [Int32]) {
        let free = costs.freeNode
        let penalty = UnsafeMutablePointer<Double>.allocate(capacity: n)
        let inTree = UnsafeMutablePointer<Bool>.allocate(capacity: n)
        let dist = UnsafeMutablePointer<Double>.allocate(capacity: n)
        let dadCost = UnsafeMutablePointer<Double>.allocate(capacity: n)
        let order = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        let rank = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        let dadRank = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        let dadCostRank = UnsafeMutablePointer<Double>.allocate(capacity: n)
        let beta = UnsafeMutablePointer<Double>.allocate(capacity: n)
        let mark = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        defer {
            for p in [penalty, dist, dadCost, dadCostRank, beta] { p.deallocate() }
            for p in [order, rank, dadRank, mark] { p.deallocate() }
            inTree.deallocate()
        }
        if let pi { for i in 0..<n { penalty[i] = pi[i] } } else { penalty.initialize(repeating: 0, count: n) }
        @inline(__always) func pc(_ a: Int32, _ b: Int32) -> Double { c(a, b) + penalty[Int(a)] + penalty[Int(b)] }
        inTree.initialize(repeating: false, count: n)
        dist.initialize(repeating: .infinity, count: n)
        dadCost.initialize(repeating: 0, count: n)
        rank.initialize(repeating: -1, count: n)
        mark.initialize(repeating: -1, count: n)
        beta.initialize(repeating: 0, count: n)
        var dad = [Int32](repeating: -1, count: n)
        let real = free >= 0 ? n - 1 : n
        let root: Int32 = free == 0 ? 1 : 0
        dist[Int(root)] = 0
        var cur = root
        for t in 0..<real {
            inTree[Int(cur)] = true
            order[t] = cur
            var next: Int32 = -1
            var nextDist = Double.infinity
            for j in 0..<n where !inTree[j] && Int32(j) != free {
                // A fixed edge (a route's end joined to home) is in every tour: first in the tree,
                // and never the largest edge on a path.
                let cost = costs.fixed(cur, Int32(j)) ? -Double.infinity : pc(cur, Int32(j))
                if cost < dist[j] {
                    dist[j] = cost
                    dad[j] = cur
                    dadCost[j] = cost
                }
                if next < 0 || dist[j] < nextDist {
                    nextDist = dist[j]
                    next = Int32(j)
                }
            }
            if next < 0 { break }
            cur = next
        }
        // The tree in its own order: node order[t] has rank t, its parent rank dadRank[t]
        // (earlier), the edge to it dadCostRank[t]; beta is kept by rank.
        for t in 0..<real { rank[Int(order[t])] = Int32(t) }
        for t in 0..<real {
            let j = Int(order[t])
            dadRank[t] = dad[j] >= 0 ? rank[Int(dad[j])] : -1
            dadCostRank[t] = dadCost[j]
        }
        var lists = [Int32](repeating: -1, count: n * k)
        var bestA = [Double](repeating: 0, count: k)
        var bestC = [Double](repeating: 0, count: k)
        var bestJ = [Int32](repeating: 0, count: k)
        var bestR = [Int32](repeating: 0, count: k)
        for i in 0..<n {
            let a = Int32(i)
            var filled = 0
            if a == free {
                // Every node costs nothing from the free node: its first k partners.
                for j in 0..<n where j != i && !costs.fixed(a, Int32(j)) && filled < k {
                    bestJ[filled] = Int32(j)
                    filled += 1
                }
            } else {
                if free >= 0 && !costs.fixed(a, free) && k > 1 {
                    bestJ[0] = free
                    bestC[0] = c(a, free)
                    bestA[0] = -Double.infinity
                    bestR[0] = -1
                    filled = 1
                }
                // beta by rank: the largest tree edge on the path from a, first up a's own path
                // to the root, then down from each node's parent.
                let ra = Int(rank[i])
                beta[ra] = -Double.infinity
                var u = ra
                while dadRank[u] >= 0 {
                    let p = Int(dadRank[u])
                    beta[p] = max(beta[u], dadCostRank[u])
                    mark[p] = a
                    u = p
                }
                for t in 0..<real where t != ra && mark[t] != a {
                    beta[t] = max(beta[Int(dadRank[t])], dadCostRank[t])
                }
                // The k smallest (alpha, cost, rank): the order of the tree's walk breaks ties.
                var worstA = Double.infinity, worstC = Double.infinity
                var worstR: Int32 = .max
                if filled == k { (worstA, worstC, worstR) = (bestA[k - 1], bestC[k - 1], bestR[k - 1]) }
                for j in 0..<n where j != i && Int32(j) != free {
                    let cost = pc(a, Int32(j))
                    let r = rank[j]
                    let alpha = cost - beta[Int(r)]
                    if alpha > worstA || (alpha == worstA && (cost > worstC || (cost == worstC && r > worstR))) { continue }
                    if costs.fixed(a, Int32(j)) { continue }
                    var s = filled == k ? k - 1 : filled
                    if filled < k { filled += 1 }
                    while s > 0 && (bestA[s - 1] > alpha || (bestA[s - 1] == alpha
                        && (bestC[s - 1] > cost || (bestC[s - 1] == cost && bestR[s - 1] > r)))) {
                        bestA[s] = bestA[s - 1]
                        bestC[s] = bestC[s - 1]
                        bestJ[s] = bestJ[s - 1]
                        bestR[s] = bestR[s - 1]
                        s -= 1
                    }
                    bestA[s] = alpha
                    bestC[s] = cost
                    bestJ[s] = Int32(j)
                    bestR[s] = r
                    if filled == k { (worstA, worstC, worstR) = (bestA[k - 1], bestC[k - 1], bestR[k - 1]) }
                }
            }
            for t in 0..<filled { lists[i * k + t] = bestJ[t] }
        }
        return (lists, dad)
    }

    /// Node penalties pi that raise the Held-Karp lower bound (the cheapest 1-tree on the costs
    /// c(i, j) + pi(i) + pi(j), less twice their sum) by subgradient ascent (Held and Karp;
    /// Helsgaun's schedule): each step moves pi(i) by the step size times 0.7 of (degree - 2) in
    /// the last 1-tree plus 0.3 of it in the one before; the step size stays for a period, then
    /// the period and the step are halved; the first period doubles the step while the bound
    /// rises; the best bound's penalties are kept. The trees are spanned over a sparse graph:
    /// each node's `width` alpha-nearest partners on the plain costs (`lists`), both ways, and
    /// the plain minimum spanning tree's edges (`dad`). The free node (an open route's end) is
    /// left out, and home's target degree is 1 then; fixed edges are always in the tree.
    /// Returns nil when there is nothing to gain (the first 1-tree is a tour).
    func ascent(lists: [Int32], width: Int, dad: [Int32], deadline: Double?) -> [Double]? {
        let free = costs.freeNode
        // The sparse graph, both ways, without duplicates.
        var degree = [Int](repeating: 0, count: n + 1)
        var pairs: [(Int32, Int32)] = []
        pairs.reserveCapacity(2 * n * (width + 1))
        func addEdge(_ a: Int32, _ b: Int32) {
            if a == b || a == free || b == free || a < 0 || b < 0 { return }
            pairs.append((a, b))
            pairs.append((b, a))
        }
        for i in 0..<n {
            for t in 0..<width { addEdge(Int32(i), lists[i * width + t]) }
            addEdge(Int32(i), dad[i])
        }
        pairs.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
        var adj: [Int32] = []
        adj.reserveCapacity(pairs.count)
        var last: (Int32, Int32) = (-1, -1)
        for p in pairs where p != last {
            adj.append(p.1)
            degree[Int(p.0) + 1] += 1
            last = p
        }
        for i in 0..<n { degree[i + 1] += degree[i] }
        let start = degree
        var edgeCost = [Double](repeating: 0, count: adj.count)
        for i in 0..<n {
            for e in start[i]..<start[i + 1] {
                let j = adj[e]
                edgeCost[e] = costs.fixed(Int32(i), j) ? -Double.infinity : c(Int32(i), j)
            }
        }
        let real = free >= 0 ? n - 1 : n
        let target = (0..<n).map { i -> Int in Int32(i) == free ? 0 : (free >= 0 && Int32(i) == costs.home ? 1 : 2) }
        var pi = [Double](repeating: 0, count: n)
        var bestPi = pi
        var v = [Int](repeating: 0, count: n)
        var lastV = v
        var prim = SparsePrim(count: n)
        defer { prim.free() }
        let root: Int32 = free == 0 ? 1 : 0
        /// The cheapest 1-tree on the penalised costs: its bound, and each node's degree less
        /// its target in v. nil when the sparse graph does not span.
        func oneTree() -> Double? {
            let got = adj.withUnsafeBufferPointer { adj in
                start.withUnsafeBufferPointer { start in
                    edgeCost.withUnsafeBufferPointer { cost in
                        pi.withUnsafeBufferPointer { pi in
                            prim.tree(adj: adj.baseAddress!, start: start.baseAddress!, cost: cost.baseAddress!,
                                      pi: pi.baseAddress!, root: root, nodes: real)
                        }
                    }
                }
            }
            guard var w = got else { return nil }
            for i in 0..<n { v[i] = Int(prim.deg[i]) }
            if free < 0 {
                // The leaf whose second-cheapest edge costs most closes the 1-tree with it.
                var leaf = -1, leafCost = -Double.infinity, leafOther: Int32 = -1
                for i in 0..<n where v[i] == 1 {
                    var first = Double.infinity, second = Double.infinity
                    var firstJ: Int32 = -1, secondJ: Int32 = -1
                    for e in start[i]..<start[i + 1] {
                        let j = adj[e]
                        let x = edgeCost[e] + pi[i] + pi[Int(j)]
                        if x < first {
                            second = first
                            secondJ = firstJ
                            first = x
                            firstJ = j
                        } else if x < second {
                            second = x
                            secondJ = j
                        }
                    }
                    if secondJ >= 0 && second > leafCost {
                        leaf = i
                        leafCost = second
                        leafOther = secondJ
                    }
                }
                if leaf >= 0 {
                    w += leafCost
                    v[leaf] += 1
                    v[Int(leafOther)] += 1
                }
            }
            for i in 0..<n {
                w -= Double(target[i]) * pi[i]
                v[i] -= target[i]
            }
            return w
        }
        guard var best = oneTree(), best.isFinite else { return nil }
        if v.allSatisfy({ $0 == 0 }) { return nil }
        lastV = v
        // The step in the costs' own scale: a thousandth of the tree's mean edge.
        var sumTree = 0.0
        for i in 0..<n where dad[i] >= 0 && !costs.fixed(Int32(i), dad[i]) { sumTree += c(Int32(i), dad[i]) }
        let step0 = max(1e-3 * sumTree / Double(max(1, real - 1)), 1e-300)
        let initialPeriod = min(max(n / 2, 100), Self.ascentPeriodMax)
        var period = initialPeriod
        var t = step0
        var initialPhase = true
        while period > 0 && t >= step0 {
            var p = 1
            while p <= period {
                if let deadline, monotonicSeconds() >= deadline { return bestPi }
                for i in 0..<n where v[i] != 0 || lastV[i] != 0 {
                    pi[i] += t * (0.7 * Double(v[i]) + 0.3 * Double(lastV[i]))
                }
                lastV = v
                // A bound that is no longer finite (costs near the largest allowed) ends it.
                guard let w = oneTree(), w.isFinite else { return bestPi }
                if v.allSatisfy({ $0 == 0 }) { return pi }
                if w > best {
                    best = w
                    bestPi = pi
                    if initialPhase { t *= 2 }
                    if p == period { period = min(2 * period, initialPeriod) }
                } else if initialPhase && p > period / 2 {
                    initialPhase = false
                    p = 0
                    t = 0.75 * t
                }
                p += 1
            }
            period /= 2
            t /= 2
        }
        return bestPi
    }
}

/// Prim's minimum spanning tree over a sparse graph (compressed rows: node i's partners are
/// adj[start[i] ..< start[i + 1]], with their plain costs in `cost`, -infinity for a fixed
/// edge) with a binary heap, for the ascent's 1-trees. Its buffers are kept between calls.
struct SparsePrim {
    let n: Int
    let key: UnsafeMutablePointer<Double>
    let heap: UnsafeMutablePointer<Int32>
    let at: UnsafeMutablePointer<Int32>
    let parent: UnsafeMutablePointer<Int32>
    let parentFixed: UnsafeMutablePointer<Bool>
    /// Each node's degree in the last tree.
    let deg: UnsafeMutablePointer<Int32>
    var count = 0

    init(count n: Int) {
        self.n = n
        key = .allocate(capacity: n)
        heap = .allocate(capacity: n)
        at = .allocate(capacity: n)
        parent = .allocate(capacity: n)
        parentFixed = .allocate(capacity: n)
        deg = .allocate(capacity: n)
    }

    func free() {
        key.deallocate()
        heap.deallocate()
        at.deallocate()
        parent.deallocate()
        parentFixed.deallocate()
        deg.deallocate()
    }

    @inline(__always) private func up(_ i0: Int) {
        var i = i0
        let x = heap[i]
        let kx = key[Int(x)]
        while i > 0 {
            let p = (i - 1) >> 1
            let y = heap[p]
            if key[Int(y)] <= kx { break }
            heap[i] = y
            at[Int(y)] = Int32(i)
            i = p
        }
        heap[i] = x
        at[Int(x)] = Int32(i)
    }

    @inline(__always) private mutating func popMin() -> Int32 {
        let top = heap[0]
        at[Int(top)] = -2
        count -= 1
        if count == 0 { return top }
        let x = heap[count]
        let kx = key[Int(x)]
        var i = 0
        while true {
            var child = 2 * i + 1
            if child >= count { break }
            if child + 1 < count && key[Int(heap[child + 1])] < key[Int(heap[child])] { child += 1 }
            let y = heap[child]
            if key[Int(y)] >= kx { break }
            heap[i] = y
            at[Int(y)] = Int32(i)
            i = child
        }
        heap[i] = x
        at[Int(x)] = Int32(i)
        return top
    }

    /// The tree's cost on the penalised costs (a fixed edge counted as its penalties only), its
    /// degrees in `deg`; nil when fewer than `nodes` nodes are reached.
    mutating func tree(adj: UnsafePointer<Int32>, start: UnsafePointer<Int>, cost: UnsafePointer<Double>,
                       pi: UnsafePointer<Double>, root: Int32, nodes: Int) -> Double? {
        for i in 0..<n {
            key[i] = .infinity
            at[i] = -1
            deg[i] = 0
            parent[i] = -1
        }
        count = 1
        key[Int(root)] = 0
        heap[0] = root
        at[Int(root)] = 0
        var sum = 0.0
        var reached = 0
        while count > 0 {
            let u = Int(popMin())
            reached += 1
            let pu = parent[u]
            if pu >= 0 {
                sum += parentFixed[u] ? pi[u] + pi[Int(pu)] : key[u]
                deg[u] += 1
                deg[Int(pu)] += 1
            }
            let piu = pi[u]
            for e in start[u]..<start[u + 1] {
                let j = Int(adj[e])
                let aj = at[j]
                if aj == -2 { continue }
                let x = cost[e] + piu + pi[j]
                if x < key[j] {
                    key[j] = x
                    parent[j] = Int32(u)
                    parentFixed[j] = cost[e] == -Double.infinity
                    if aj < 0 {
                        heap[count] = Int32(j)
                        count += 1
                        up(count - 1)
                    } else {
                        up(Int(aj))
                    }
                }
            }
        }
        return reached == nodes ? sum : nil
    }
}
