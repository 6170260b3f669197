/// The best visiting order of a day's stops: which order of the stops makes the drive from home
/// shortest. Exact (Held-Karp dynamic programming, bounded) for up to `StopOrder.exactLimit` stops,
/// near-optimal beyond (iterated local search), over either Earth model or a matrix of costs the
/// caller supplies (road distances or times, asymmetric allowed).

/// Where the route ends.
public enum RouteEnd: Equatable, Sendable {
    /// Home, every stop, home again (the mileage field's round trip).
    case home
    /// From home through every stop, ending at whichever stop is best.
    case anywhere
    /// From home through every stop, ending at this stop (an index into the stops).
    case stop(Int)
}

/// How to search.
public enum StopOrderMode: Int32, Sendable, CaseIterable {
    /// Exact up to `StopOrder.autoExactLimit` stops; above, up to `StopOrder.autoProofLimit`
    /// (symmetric costs) or `StopOrder.exactLimit` (one-way), the exact search with a cap on
    /// its states, proven when it finishes, the heuristic when it does not; the heuristic above.
    case auto = 0
    /// Exact (proven optimal); refused above `StopOrder.exactLimit` stops.
    case exact = 1
    /// The heuristic at any size (never claims optimality, unless there are 3 stops or fewer).
    case heuristic = 2
}

/// The search's budget and seed. The heuristic stops at whichever budget runs out first:
/// - neither given: `StopOrder.defaultIterations(stops:)` kicks, deterministic for a seed;
/// - iterations only: that many kicks, deterministic for a seed;
/// - a time limit only: kicks until the time is up (no iteration bound);
/// - both: whichever comes first.
/// The clock starts when the call starts (checking, measuring the costs and the first tour
/// count); what cannot be cut short (reading the costs, the candidate lists and the first tour:
/// O(n^2); the ascent behind the candidates stops at the limit) is done even past a tiny limit,
/// and the best tour at the limit is returned.
public struct StopOrderOptions: Sendable, Equatable {
    public var mode: StopOrderMode
    /// Kicks of the heuristic (each a perturbation and a local search); `nil` for the default
    /// (`StopOrder.defaultIterations(stops:)` without a time limit, unbounded with one). At most
    /// `StopOrder.maxIterations`; zero is refused (a budget of nothing).
    public var iterations: Int?
    /// A wall-clock limit in seconds, counted from the call's start; `nil` for none. At most
    /// `StopOrder.maxTimeLimit`.
    public var timeLimit: Double?
    /// The seed of the heuristic's random perturbations.
    public var seed: UInt64
    /// When the call started (the monotonic clock, seconds), for a caller that measured before
    /// calling: the C door sets it on entry. `nil`: the Swift call's own start.
    @_spi(CABI) public var startTime: Double?

    public init(mode: StopOrderMode = .auto, iterations: Int? = nil, timeLimit: Double? = nil, seed: UInt64 = 1) {
        self.mode = mode
        self.iterations = iterations
        self.timeLimit = timeLimit
        self.seed = seed
        self.startTime = nil
    }
}

/// The best order found, and the given order's total beside it.
public struct StopOrder: Sendable, Equatable {
    /// The stops in visiting order, as indices into the caller's stops (home not included).
    public var order: [Int]
    /// Each leg's cost in order: home to the first stop, ..., and the last stop to home for a
    /// round trip. `order.count + 1` legs for a round trip, `order.count` otherwise.
    public var legs: [Double]
    /// The sum of `legs`.
    public var total: Double
    /// The total of the given order (home, stops 0, 1, ..., and home for a round trip; for a
    /// route ending at a given stop, that stop moved last).
    public var givenTotal: Double
    /// `givenTotal - total`, never negative.
    public var saving: Double { max(0, givenTotal - total) }
    /// `total` as the mileage field shows it: rounded half away from zero to one decimal
    /// (`"118.4"`), or `"0"` with no stops.
    public var text: String { order.isEmpty ? "0" : fixed(roundToTenth(total), decimals: 1) }
    /// `givenTotal` the same way (`"157.2"`).
    public var givenText: String { order.isEmpty ? "0" : fixed(roundToTenth(givenTotal), decimals: 1) }
    /// True when `order` is proven optimal (the exact search ran, or there are 3 stops or fewer).
    public var provenOptimal: Bool

    /// The most stops the exact search takes (when its bound prunes too little, its whole table
    /// holds 2^n × n costs: 37.7 MB at 18).
    public static let exactLimit = 18
    /// The most stops `.auto` solves exactly (usually under a millisecond; when the bound prunes
    /// too little, 2^16 × 16 costs: 8.4 MB, about 15 ms).
    public static let autoExactLimit = 16
    /// Kicks of the heuristic search whose tour bounds the exact search (`boundedHeldKarp`), on
    /// symmetric and on one-way costs: enough that the bound prunes all but a few hundred states
    /// on most problems, few enough to cost less than the search they save.
    static let exactUpperKicks = 10
    static let exactUpperKicksOneWay = 100
    /// Above `autoExactLimit` and up to this many stops (`exactLimit` on one-way costs, whose
    /// bound is weaker), `.auto` first tries the exact search with at most `autoProofStates`
    /// partial routes kept (a few milliseconds at most): the order is proven optimal when it
    /// finishes, and the heuristic answers when it does not.
    public static let autoProofLimit = 24
    static let autoProofStates = 5_000
    /// The most stops any search takes: the cost matrix is (n + 1)^2 doubles (134 MB at 4,096).
    public static let maxStops = 4096
    /// The most kicks a caller may ask for.
    public static let maxIterations = 100_000_000
    /// The longest time limit a caller may give, in seconds (a day).
    public static let maxTimeLimit = 86_400.0
    /// The largest cost a matrix entry may hold: (n + 1) legs of it, and the search's sums over
    /// them, stay finite.
    public static let maxCost = 1e300

    /// The default number of kicks without a time limit: 3 per stop and at least 300 up to 200
    /// stops, then 14 per stop less 2,200 below 300 stops; from 300 stops, where the kicks go to
    /// trials whose search is restricted (cheaper kicks), 42 per stop less 6,600 below 800
    /// stops, at most 15,525 (below the count at 800, so it never falls there); from 800 stops,
    /// where the chains are also shallower (`LinKernighan.shallowFrom`), 1.5 times 16,500 less
    /// 3.75 per stop up to 1,000 stops (rounded down), then 15,750 less 3 per stop, at least
    /// 4,000 (n = 100: 300; 200: 600; 442: 11,964; 527 to 799: 15,525; 800: 20,250; 1,000:
    /// 19,125; 4,096: 6,000). A kick costs time in proportion to what it changes, and changes
    /// more on longer tours. From 300 to 799 stops the kicks were doubled (up to the cap) with
    /// the wider candidate lists (`LinKernighan.candidateCount`): on 18 published TSPLIB
    /// instances of 300 to 799 cities, seeds 1-10, 179 of 180 runs end within 0.1% of the
    /// optimum (175 with half the kicks, 160 before both), in about half the time of one LKH-3
    /// run or less. From 800 stops the factor was 1.15 until the reversals ran a tenth faster:
    /// with 1.5, 1,000 stops end within 0.1% of ten LKH-3 runs more often
    /// (`bench/route/thousand.py`, 13 instances, seeds 1-45: 38 of 585 tours above rather than
    /// 69) in about a quarter more time. A cap of 20,250 under 800 (the same factor) ended
    /// TSPLIB's 11 instances of 527 to 799 cities as before (seeds 1-10: the same runs at the
    /// optimum and within 0.1%, the same worst gaps) in a tenth more time, so the cap stays.
    /// One-way (asymmetric) matrices, searched by Or-opt: 10 per stop, 1,000 to 10,000.
    public static func defaultIterations(stops n: Int, oneWay: Bool = false) -> Int {
        if oneWay { return min(max(1_000, 10 * n), 10_000) }
        if n <= 200 { return max(300, 3 * n) }
        if n < 300 { return 14 * n - 2_200 }
        if n < 800 { return min(42 * n - 6_600, 15_525) }
        let kicks = n <= 1_000 ? (66_000 - 15 * n) / 4 : max(4_000, 15_750 - 3 * n)
        return kicks * 3 / 2
    }
    /// Above this many stops a WGS84 best order searches on the sphere and measures its legs on
    /// WGS84 (the whole geodesic matrix below it).
    public static let wgs84MatrixLimit = 256
}

/// The best order for visiting `stops` from `home`, measured on `model` in `unit`.
/// - Throws: `.countTooLarge` above `StopOrder.maxStops` stops, or above `StopOrder.exactLimit`
///   in `.exact` mode; `.outOfRange` for an end stop outside the stops, or a budget of zero
///   iterations or of no time; `.notFinite` for a NaN or infinite time limit.
public func bestOrder(
    home: Coordinate, stops: [Coordinate], end: RouteEnd = .home, model: EarthModel = .sphere,
    unit: DistanceUnit = .meters, options: StopOrderOptions = StopOrderOptions()
) throws(GeoLocError) -> StopOrder {
    var options = options
    if options.startTime == nil { options.startTime = monotonicSeconds() }
    _ = try checkStops(stops.count, end: end, options: options)
    let nodes = [home] + stops
    let n = nodes.count
    // WGS84 beyond `StopOrder.wgs84MatrixLimit` stops: the search runs on the sphere (a whole
    // geodesic matrix costs about a microsecond a pair: 16 s at 4,096 stops) and the legs of the
    // order it finds, and of the given order, are measured on WGS84, only those.
    let searchModel = model == .wgs84 && stops.count > StopOrder.wgs84MatrixLimit ? EarthModel.sphere : model
    // Above the same size a sphere matrix comes from the vectorised haversine (within 1e-15
    // relative of `distance`) and the legs are measured again one by one.
    let batch = searchModel == .sphere && stops.count > StopOrder.wgs84MatrixLimit
    let costs = batch ? sphereMatrix(nodes, unit: unit) : pairMatrix(nodes, model: searchModel, unit: unit)
    var r = solveStopOrder(CostMatrix(size: n, costs: costs), end: end, options: options)
    if batch {
        func measured(_ order: [Int]) -> [Double] {
            var legs: [Double] = []
            var prev = home
            for s in order {
                legs.append(prev.distance(to: stops[s], model: model, unit: unit))
                prev = stops[s]
            }
            if end == .home { legs.append(prev.distance(to: home, model: model, unit: unit)) }
            return legs
        }
        var given = Array(0..<stops.count)
        if case .stop(let e) = end {
            given.remove(at: e)
            given.append(e)
        }
        r.legs = measured(r.order)
        r.total = r.legs.reduce(0, +)
        r.givenTotal = measured(given).reduce(0, +)
    }
    return r
}

/// The symmetric matrix of `distance` between every two of `nodes`, one pair at a time.
private func pairMatrix(_ nodes: [Coordinate], model: EarthModel, unit: DistanceUnit) -> [Double] {
    let n = nodes.count
    var costs = [Double](repeating: 0, count: n * n)
    for i in 0..<n {
        for j in (i + 1)..<n {
            let d = nodes[i].distance(to: nodes[j], model: model, unit: unit)
            costs[i * n + j] = d
            costs[j * n + i] = d
        }
    }
    return costs
}

/// The symmetric sphere matrix of `nodes`: each row's upper part by the vectorised haversine
/// (`HaversineKernel.oneToMany`), mirrored below the diagonal in tiles of 64 x 64 so that the
/// columns written stay in cache; the diagonal is 0.
private func sphereMatrix(_ nodes: [Coordinate], unit: DistanceUnit) -> [Double] {
    let n = nodes.count
    var points = [Double](repeating: 0, count: 2 * n)
    for (i, p) in nodes.enumerated() {
        points[2 * i] = p.latitude
        points[2 * i + 1] = p.longitude
    }
    let radius = Earth.meanRadius / unit.meters
    return [Double](unsafeUninitializedCapacity: n * n) { m, initialized in
        let m = m.baseAddress!
        points.withUnsafeBufferPointer { points in
            for i in 0..<n {
                m[i * n + i] = 0
                if i + 1 < n {
                    HaversineKernel.oneToMany(
                        latitude: nodes[i].latitude, longitude: nodes[i].longitude, points.baseAddress! + 2 * (i + 1),
                        count: n - i - 1, into: m + i * n + i + 1, radius: radius)
                }
            }
        }
        let tile = 64
        for bi in stride(from: 0, to: n, by: tile) {
            for bj in stride(from: 0, through: bi, by: tile) {
                for i in bi..<min(bi + tile, n) {
                    for j in bj..<min(bj + tile, i) { m[i * n + j] = m[j * n + i] }
                }
            }
        }
        initialized = n * n
    }
}

/// The best order over a cost matrix: `costs` holds (n + 1) × (n + 1) entries in row-major
/// order, row and column 0 being home and i the stop i - 1; `costs[i * (n + 1) + j]` is the
/// cost from i to j (asymmetric allowed; the diagonal is ignored).
/// - Throws: as `bestOrder(home:stops:...)`; `.invalidArgument` when `costs.count` is not a
///   square; `.notFinite` or `.outOfRange` for a NaN, infinite or negative entry off the
///   diagonal, naming it.
public func bestOrder(
    costs: [Double], end: RouteEnd = .home, options: StopOrderOptions = StopOrderOptions()
) throws(GeoLocError) -> StopOrder {
    var options = options
    if options.startTime == nil { options.startTime = monotonicSeconds() }
    let size = try checkMatrix(costs, end: end, options: options)
    return solveStopOrder(CostMatrix(size: size, costs: costs), end: end, options: options)
}

/// The checks of a call given a whole matrix (`bestOrder(costs:)`, `bestOrder(travelTimes:)`):
/// its entries make a square, the stops it holds against the limits, the end and the budget,
/// and its entries off the diagonal. Returns the square's side (the stops plus home).
func checkMatrix(_ costs: [Double], end: RouteEnd, options: StopOrderOptions) throws(GeoLocError) -> Int {
    var size = 0
    while size * size < costs.count { size += 1 }
    guard size >= 1, size * size == costs.count else {
        throw GeoLocError(.invalidArgument, "the matrix has \(costs.count) entries, which is not (n + 1)^2 for any n")
    }
    _ = try checkStops(size - 1, end: end, options: options)
    try checkCosts(costs, size: size)
    return size
}

/// Checks the entries of a row-major size × size matrix off its diagonal.
@_spi(CABI)
public func checkCosts(_ costs: some Collection<Double>, size: Int) throws(GeoLocError) {
    var k = 0
    for c in costs {
        let i = k / size, j = k % size
        k += 1
        if i == j { continue }
        if !c.isFinite { throw GeoLocError(.notFinite, "matrix[\(i)][\(j)] is \(show(c))") }
        if c < 0 { throw GeoLocError(.outOfRange, "matrix[\(i)][\(j)] \(show(c)) is negative") }
        if c > StopOrder.maxCost {
            throw GeoLocError(
                .outOfRange,
                "matrix[\(i)][\(j)] \(show(c)) is above \(show(StopOrder.maxCost)), the largest cost a route sums without overflow")
        }
    }
}

/// The checks every stop-order call shares: the stop count against the limits, the end stop, the
/// budget.
@_spi(CABI)
public func checkStops(_ count: Int, end: RouteEnd, options: StopOrderOptions) throws(GeoLocError) -> Int {
    if count > StopOrder.maxStops {
        throw GeoLocError(.countTooLarge, "\(count) stops are more than the \(StopOrder.maxStops) a route takes")
    }
    if options.mode == .exact && count > StopOrder.exactLimit {
        throw GeoLocError(
            .countTooLarge,
            "\(count) stops are more than the exact search's \(StopOrder.exactLimit); use the heuristic or auto mode")
    }
    if case .stop(let e) = end, e < 0 || e >= count {
        throw GeoLocError(.outOfRange, "end stop \(e) is not one of the \(count) stops")
    }
    if let it = options.iterations, it < 1 || it > StopOrder.maxIterations {
        throw GeoLocError(.outOfRange, "iterations \(it) is outside [1, \(StopOrder.maxIterations)]")
    }
    if let t = options.timeLimit {
        if !t.isFinite { throw GeoLocError(.notFinite, "time limit \(show(t)) is not finite") }
        if t <= 0 { throw GeoLocError(.outOfRange, "time limit \(show(t)) s is not positive") }
        if t > StopOrder.maxTimeLimit {
            throw GeoLocError(.outOfRange, "time limit \(show(t)) s is above \(show(StopOrder.maxTimeLimit)) s (a day)")
        }
    }
    return count
}
