#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Costs between the nodes of a route: node 0 is home, node i the stop i - 1. Row-major.
struct CostMatrix {
    let size: Int
    var costs: [Double]
}

/// Solves a checked problem: the search runs on a closed tour from home over costs adjusted for
/// the route's end (free return for an open route; only the chosen stop may return for a fixed
/// end), and the legs are measured on the caller's costs.
func solveStopOrder(_ m: CostMatrix, end: RouteEnd, options: StopOrderOptions) -> StopOrder {
    let size = m.size
    let n = size - 1
    let d = m.costs
    // The given order, with a fixed end stop moved last.
    var given = Array(0..<n)
    if case .stop(let e) = end {
        given.remove(at: e)
        given.append(e)
    }
    let closed = end == .home
    func legs(of order: [Int]) -> [Double] {
        var out: [Double] = []
        guard !order.isEmpty else { return out }
        out.reserveCapacity(order.count + 1)
        var prev = 0
        for s in order {
            out.append(d[prev * size + s + 1])
            prev = s + 1
        }
        if closed { out.append(d[prev * size]) }
        return out
    }
    let givenTotal = legs(of: given).reduce(0, +)
    if n == 0 {
        return StopOrder(order: [], legs: [], total: 0, givenTotal: 0, provenOptimal: true)
    }

    // The closed-tour costs the search works on.
    var w = d
    switch end {
    case .home: break
    case .anywhere:
        for i in 1..<size { w[i * size] = 0 }
    case .stop(let e):
        // A return through any other stop costs more than every tour that returns through e.
        var big = 1.0
        for i in 0..<size {
            var rowMax = 0.0
            for j in 0..<size where j != i { rowMax = max(rowMax, d[i * size + j]) }
            big += rowMax
        }
        for i in 1..<size { w[i * size] = i == e + 1 ? 0 : big }
    }

    let exact = options.mode == .exact || n <= 3
        || (options.mode == .auto && n <= StopOrder.autoExactLimit)
    // A short heuristic search gives the tour an exact search must beat; its seed is fixed, so
    // an exact answer depends on the costs alone.
    let small = n <= StopOrder.autoProofLimit
    let symmetric = small && isSymmetric(d, size: size, end: end)
    func quickTour() -> [Int32] {
        let kicks = symmetric ? StopOrder.exactUpperKicks : StopOrder.exactUpperKicksOneWay
        let quick = StopOrderOptions(mode: .heuristic, iterations: kicks, seed: 1)
        return [0] + searchOrder(d, closedCosts: w, size: size, end: end, options: quick).map { Int32($0 + 1) }
    }
    var order: [Int]
    var proven = exact
    if exact && n <= 3 {
        order = heldKarp(w, size: size).dropFirst().map { Int($0) - 1 }
    } else if exact {
        order = exactTour(w, size: size, upper: quickTour()).dropFirst().map { Int($0) - 1 }
    } else if options.mode == .auto && small && (symmetric || n <= StopOrder.exactLimit),
              let t = boundedHeldKarp(w, size: size, upper: quickTour(), stateCap: StopOrder.autoProofStates) {
        order = t.dropFirst().map { Int($0) - 1 }
        proven = true
    } else {
        order = searchOrder(d, closedCosts: w, size: size, end: end, options: options)
    }
    let l = legs(of: order)
    return StopOrder(order: order, legs: l, total: l.reduce(0, +), givenTotal: givenTotal, provenOptimal: proven)
}

/// True when the costs between every two nodes are the same both ways (home's return column
/// not counted unless the route returns home).
func isSymmetric(_ d: [Double], size: Int, end: RouteEnd) -> Bool {
    // In tiles of 64 × 64, so the columns read stay in cache (4,096 stops: 134 MB).
    let tile = 64
    return d.withUnsafeBufferPointer { d in
        for bi in stride(from: 0, to: size, by: tile) {
            for bj in stride(from: bi, to: size, by: tile) {
                for i in bi..<min(bi + tile, size) {
                    let lo = max(bj, i + 1), hi = min(bj + tile, size)
                    if lo >= hi { continue }
                    for j in lo..<hi where d[i * size + j] != d[j * size + i] {
                        if i == 0 && end != .home { continue }
                        return false
                    }
                }
            }
        }
        return true
    }
}

/// The heuristic: chained Lin-Kernighan on symmetric costs, or on the two-node transformation
/// of one-way costs; the stops in visiting order.
func searchOrder(_ d: [Double], closedCosts w: [Double], size: Int, end: RouteEnd, options: StopOrderOptions) -> [Int] {
    let n = size - 1
    let start = options.startTime ?? monotonicSeconds()
    let deadline = options.timeLimit.map { start + $0 }
    let symmetric = isSymmetric(d, size: size, end: end)
    let kicks = options.iterations
        ?? (options.timeLimit == nil ? StopOrder.defaultIterations(stops: n, oneWay: !symmetric) : Int.max)
    if symmetric {
        return SymmetricCosts.with(d, size: size, end: end) { costs in
            var search = LinKernighan(costs, seed: options.seed, deadline: deadline)
            defer { search.free() }
            var tour = search.run(kicks: kicks, deadline: deadline)
            // Read the route from home: away from the dummy or the fixed end stop.
            let far: Int32 = costs.dummy ? Int32(size) : costs.fixedEnd
            if far >= 0 && tour[1] == far { tour[1...].reverse() }
            return tour.dropFirst().filter { Int($0) < size }.map { Int($0) - 1 }
        }
    }
    var search = LocalSearch(w, size: size, seed: options.seed)
    defer { search.free() }
    return search.run(iterations: kicks, deadline: deadline).dropFirst().map { Int($0) - 1 }
}

/// Seconds on the monotonic clock (the budgets' clock; the C door reads it on entry).
@_spi(CABI)
public func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
