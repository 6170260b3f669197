/// The exact search with opening hours: dynamic programming over subsets of stops, layer by layer
/// (all labels visiting k stops, then k + 1). A label is (the stops visited, the last stop, the
/// time service there ends, the travel so far); for one subset and last stop only the labels no
/// other beats on both time and travel are kept (dominance). A label is dropped when an unvisited
/// stop can no longer be reached by its latest time (over the shortest travel times), when the
/// end can no longer meet the deadline, or when its travel plus a lower bound on the rest is no
/// better than a known feasible order's.

/// The best feasible order, or nil when there is none or the search ran out of its budget.
func windowsExact(_ p: WindowProblem, upperBound: Double, deadline: Double) -> (order: [Int], travel: Double)? {
    let size = p.size
    let n = size - 1
    guard n >= 1, n <= 57 else { return nil }
    // Shortest travel times between every two nodes, for reachability.
    let sp = shortestTimes(p)
    // The cheapest way into each node (a lower bound on the leg that reaches it).
    var minIn = [Double](repeating: .infinity, count: size)
    for j in 0..<size {
        for i in 0..<size where i != j { minIn[j] = min(minIn[j], p.t[i * size + j]) }
    }
    let closed = p.end == .home
    var fixedLast = -1
    if case .stop(let e) = p.end { fixedLast = e + 1 }

    // Labels in flat arrays; a layer's labels are grouped by (mask, last) in a dictionary.
    var mask: [UInt64] = []
    var last: [UInt8] = []
    var time: [Double] = []
    var travel: [Double] = []
    var parent: [Int32] = []
    var layer: [Int32] = []
    // The first layer: home to each stop.
    for j in 1...n {
        let arrival = p.departure + p.t[j]
        if arrival > p.latest[j] { continue }
        if fixedLast == j && n > 1 { continue }
        mask.append(1 << UInt64(j - 1))
        last.append(UInt8(j))
        time.append(max(arrival, p.earliest[j]) + p.service[j])
        travel.append(p.t[j])
        parent.append(-1)
        layer.append(Int32(mask.count - 1))
    }
    var bestEnd = -1
    var bestTravel = upperBound
    var buckets: [UInt64: [Int32]] = [:]
    for k in 1...n {
        if monotonicSeconds() > deadline || mask.count > ScheduledOrder.exactLabelLimit { return nil }
        if k == n {
            for l in layer {
                let i = Int(l), j = Int(last[i])
                var total = travel[i], end = time[i]
                if closed {
                    total += p.t[j * size]
                    end += p.t[j * size]
                }
                if end > p.returnBy { continue }
                if fixedLast >= 0 && j != fixedLast { continue }
                if total < bestTravel || (bestEnd < 0 && total <= bestTravel) {
                    bestTravel = total
                    bestEnd = i
                }
            }
            break
        }
        buckets.removeAll(keepingCapacity: true)
        var next: [Int32] = []
        for (count, l) in layer.enumerated() {
            if count & 1023 == 1023 && monotonicSeconds() > deadline { return nil }
            let i = Int(l)
            let m = mask[i], from = Int(last[i])
            let t0 = time[i], c0 = travel[i]
            for j in 1...n where m & (1 << UInt64(j - 1)) == 0 {
                if fixedLast == j && k + 1 < n { continue }
                let leg = p.t[from * size + j]
                let arrival = t0 + leg
                if arrival > p.latest[j] { continue }
                let tj = max(arrival, p.earliest[j]) + p.service[j]
                let cj = c0 + leg
                let nm = m | (1 << UInt64(j - 1))
                // Every stop still to visit must stay reachable, and the end the deadline.
                var ok = true
                var rest = 0.0
                var free = ~nm & ((UInt64(1) << UInt64(n)) - 1)
                while free != 0 {
                    let s = free.trailingZeroBitCount + 1
                    free &= free - 1
                    if tj + sp[j * size + s] > p.latest[s] {
                        ok = false
                        break
                    }
                    rest += minIn[s]
                }
                if !ok { continue }
                if closed {
                    rest += minIn[0]
                    if tj + sp[j * size] > p.returnBy { continue }
                }
                if cj + rest > bestTravel * (1 + 1e-12) { continue }
                // Dominance within the bucket (mask, j).
                let key = nm << 6 | UInt64(j)
                var list = buckets[key] ?? []
                var dominated = false
                for x in list {
                    let xi = Int(x)
                    if time[xi] <= tj && travel[xi] <= cj {
                        dominated = true
                        break
                    }
                }
                if dominated { continue }
                list.removeAll { time[Int($0)] >= tj && travel[Int($0)] >= cj }
                mask.append(nm)
                last.append(UInt8(j))
                time.append(tj)
                travel.append(cj)
                parent.append(l)
                list.append(Int32(mask.count - 1))
                buckets[key] = list
            }
            if mask.count > ScheduledOrder.exactLabelLimit { return nil }
        }
        for (_, list) in buckets { next.append(contentsOf: list) }
        next.sort()
        if next.isEmpty { return nil }
        layer = next
    }
    guard bestEnd >= 0 else { return nil }
    var order: [Int] = []
    var i = bestEnd
    while i >= 0 {
        order.append(Int(last[i]) - 1)
        i = Int(parent[i])
    }
    return (order.reversed(), bestTravel)
}
