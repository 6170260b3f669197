/// The costs the tour search works on: every route kind and every cost matrix becomes a closed,
/// symmetric tour over "search nodes", some of whose edges are fixed (never removed by a move).
///
/// - Symmetric costs (the Earth models, and matrices whose stop-to-stop and home-to-stop costs
///   are the same both ways): search node i is node i (0 home, i the stop i - 1). An open route
///   adds a dummy node joined to home by a fixed edge and to every stop at no cost, so the tour
///   home, stops..., dummy, home is the route; a route ending at stop e fixes the edge home - e at
///   no cost, so the tour home, stops..., e, home is the route.
/// - One-way costs: each node i is split into an "in" node 2i and an "out" node 2i + 1 joined by
///   a fixed edge; out(i) - in(j) costs c(i, j), and in - in or out - out edges cost `barred`
///   (more than any tour of allowed edges), so every tour the search accepts reads, walking from
///   in(0) to out(0), as a directed route (Jonker and Volgenant's transformation). An open route's
///   return costs nothing; a route ending at stop e fixes the edge out(e) - in(0).
protocol TourCosts {
    /// How many search nodes.
    var count: Int { get }
    /// The cost of the edge a - b (symmetric).
    func c(_ a: Int32, _ b: Int32) -> Double
    /// True for an edge that must stay in the tour.
    func fixed(_ a: Int32, _ b: Int32) -> Bool
    /// The search node home is, and the one the route's first stop is read from.
    var home: Int32 { get }
    /// A node joined to every other at no cost (an open route's end), or -1: left out of the
    /// candidate lists' spanning tree and offered to every node as a candidate.
    var freeNode: Int32 { get }
}

extension TourCosts {
    var freeNode: Int32 { -1 }
}

/// Symmetric costs from a dense row-major matrix of `size` nodes, plus an optional dummy node
/// (index `size`) for an open route, or a fixed home - end edge.
struct SymmetricCosts: TourCosts {
    let size: Int
    let m: UnsafePointer<Double>
    /// The copy `m` points at when the caller's matrix needed a change (freed by `free()`); nil
    /// when `m` is the caller's own storage.
    private let owned: UnsafeMutablePointer<Double>?
    let dummy: Bool
    let fixedEnd: Int32
    var count: Int { dummy ? size + 1 : size }
    var home: Int32 { 0 }
    var freeNode: Int32 { dummy ? Int32(size) : -1 }

    /// `d` is (size × size), symmetric off the diagonal except for the return column when
    /// `end` is not `.home` (only d[0][j] is read for home's edges then).
    init(_ d: [Double], size: Int, end: RouteEnd) {
        self.size = size
        let m = UnsafeMutablePointer<Double>.allocate(capacity: size * size)
        d.withUnsafeBufferPointer { m.initialize(from: $0.baseAddress!, count: size * size) }
        self.m = UnsafePointer(m)
        owned = m
        for i in 0..<size { m[i * size + i] = 0 }
        // Home's edges are read from its row (the column may hold free returns).
        for j in 1..<size { m[j * size] = m[j] }
        switch end {
        case .home:
            dummy = false
            fixedEnd = -1
        case .anywhere:
            dummy = true
            fixedEnd = -1
        case .stop(let e):
            dummy = false
            fixedEnd = Int32(e + 1)
            m[e + 1] = 0
            m[(e + 1) * size] = 0
        }
    }

    private init(borrowing m: UnsafePointer<Double>, size: Int, dummy: Bool) {
        self.size = size
        self.m = m
        owned = nil
        self.dummy = dummy
        fixedEnd = -1
    }

    /// Calls `body` with the costs of `d` (as `init`), reading `d`'s own storage when it needs no
    /// change (a route ending home or anywhere, the diagonal 0, home's column equal to its row:
    /// every matrix of coordinates) rather than copying it (134 MB at 4,096 stops).
    static func with<R>(_ d: [Double], size: Int, end: RouteEnd, _ body: (SymmetricCosts) -> R) -> R {
        var asIs = false
        if end == .home || end == .anywhere {
            asIs = d.withUnsafeBufferPointer { p in
                for i in 0..<size where p[i * size + i] != 0 || p[i * size] != p[i] { return false }
                return true
            }
        }
        if !asIs {
            let costs = SymmetricCosts(d, size: size, end: end)
            defer { costs.free() }
            return body(costs)
        }
        return d.withUnsafeBufferPointer { body(SymmetricCosts(borrowing: $0.baseAddress!, size: size, dummy: end == .anywhere)) }
    }

    func free() { owned?.deallocate() }

    @inline(__always) func c(_ a: Int32, _ b: Int32) -> Double {
        if dummy && (Int(a) == size || Int(b) == size) { return 0 }
        return m[Int(a) * size + Int(b)]
    }

    @inline(__always) func fixed(_ a: Int32, _ b: Int32) -> Bool {
        if dummy { return (a == 0 && Int(b) == size) || (b == 0 && Int(a) == size) }
        return fixedEnd >= 0 && ((a == 0 && b == fixedEnd) || (b == 0 && a == fixedEnd))
    }
}

/// One-way costs, split in two nodes per node (see `TourCosts`).
struct SplitCosts: TourCosts {
    let size: Int
    let m: UnsafeMutablePointer<Double>
    let barred: Double
    let fixedEnd: Int32
    var count: Int { 2 * size }
    var home: Int32 { 0 }

    /// `w` is the closed-tour cost matrix (size × size) with the route's end already applied to
    /// its return column (free returns for an open route); `end` says which return is fixed.
    init(_ w: [Double], size: Int, end: RouteEnd) {
        self.size = size
        let m = UnsafeMutablePointer<Double>.allocate(capacity: size * size)
        w.withUnsafeBufferPointer { m.initialize(from: $0.baseAddress!, count: size * size) }
        self.m = m
        var maxCost = 0.0
        for i in 0..<size * size { maxCost = max(maxCost, m[i]) }
        // More than any tour of allowed edges: a barred edge never pays.
        barred = (maxCost + 1) * Double(2 * size + 2)
        if case .stop(let e) = end {
            fixedEnd = Int32(2 * (e + 1) + 1)
            m[(e + 1) * size] = 0
        } else {
            fixedEnd = -1
        }
    }

    func free() { m.deallocate() }

    @inline(__always) func c(_ a: Int32, _ b: Int32) -> Double {
        let x = Int(a), y = Int(b)
        if x >> 1 == y >> 1 { return 0 }
        if (x ^ y) & 1 == 0 { return barred }
        // out(i) = 2i + 1 to in(j) = 2j.
        return x & 1 == 1 ? m[(x >> 1) * size + (y >> 1)] : m[(y >> 1) * size + (x >> 1)]
    }

    @inline(__always) func fixed(_ a: Int32, _ b: Int32) -> Bool {
        if a >> 1 == b >> 1 { return true }
        return fixedEnd >= 0 && ((a == 0 && b == fixedEnd) || (b == 0 && a == fixedEnd))
    }
}

/// The searches' random numbers: SplitMix64 (Steele, Lea and Flood), from the call's seed, so a
/// seed gives the same kicks and the same order on every machine.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
