/// The best order of a day's stops with opening hours: each stop may have a time window (the
/// earliest and the latest arrival) and a service time; home a departure time and a return
/// deadline. Travel times come from the caller's matrix, or from distance over a speed.
///
/// The schedule of an order: leave home at `departure`; arrive at each stop after the leg's
/// travel time; wait there until its window opens (waiting is allowed and costs nothing); stay
/// its service time; leave. A window is met when the arrival is no later than its latest time
/// (service may run past it). The route's end time is the arrival back home for a round trip,
/// the departure from the last stop otherwise; it must be no later than `returnBy`.
///
/// The objective: among orders that meet every window and the deadline, the least total travel
/// time (the sum of the legs; waiting and service do not count). When no order meets them all,
/// the result says so (`feasible == false`) and holds the order with the least total lateness
/// (the sum over the stops of how late each arrival is past its window, plus how late the end
/// is past `returnBy`), then the least travel: never a silent violation.
///
/// Search: exact (dynamic programming over subsets of stops and times, keeping for each subset
/// and last stop only the (time, travel) pairs no other pair beats, pruned by the latest times
/// still reachable and by the heuristic's tour) for up to `ScheduledOrder.exactLimit` stops
/// when it finishes within its budget (`exactBudget` seconds and `exactLabelLimit` labels);
/// otherwise, and beyond, an iterated local search (segment moves and swaps, perturbed by
/// random relocations) on (lateness, travel).

/// A stop's opening hours, in seconds on the caller's clock (the same as the departure's).
public struct TimeWindow: Sendable, Equatable {
    /// The earliest arrival that is served at once: an earlier arrival waits. `-infinity`: none.
    public var earliest: Double
    /// The latest arrival that meets the window. `+infinity`: none.
    public var latest: Double

    public init(earliest: Double = -.infinity, latest: Double = .infinity) {
        self.earliest = earliest
        self.latest = latest
    }

    /// Always open.
    public static let always = TimeWindow()
}

/// One stop of a scheduled route.
public struct StopVisit: Sendable, Equatable {
    /// The stop (an index into the caller's stops).
    public var stop: Int
    /// When the stop is reached.
    public var arrival: Double
    /// How long it waits for the window to open (0 when it opened before the arrival).
    public var wait: Double
    /// When it leaves: arrival + wait + service.
    public var departure: Double
    /// How late the arrival is past the window's latest time (0 when the window is met).
    public var lateness: Double
}

/// The best order found with opening hours, and its schedule.
public struct ScheduledOrder: Sendable, Equatable {
    /// The stops in visiting order (indices into the caller's stops; home not included).
    public var order: [Int]
    /// Each stop's arrival, wait, departure and lateness, in visiting order.
    public var visits: [StopVisit]
    /// Each leg's travel time in order, home first; for a round trip the last is the return.
    public var legs: [Double]
    /// The sum of `legs`: the objective.
    public var travel: Double
    /// When the route ends: the arrival back home for a round trip, the departure from the last
    /// stop otherwise (the departure from home without stops).
    public var end: Double
    /// True when every window and the return deadline are met.
    public var feasible: Bool
    /// The total lateness (0 when feasible): the stops' lateness plus the end's past `returnBy`.
    public var lateness: Double
    /// How many windows are missed (the return deadline counts as one).
    public var missed: Int
    /// True when the order is proven best (the exact search finished and found a feasible order).
    public var provenOptimal: Bool

    /// The most stops the exact search is tried on (a subset and its last stop are one 64-bit key).
    public static let exactLimit = 57
    /// The exact search's budget in seconds (within the call's time limit, if shorter), and its
    /// label budget; past either, the heuristic answers.
    public static let exactBudget = 0.5
    public static let exactLabelLimit = 4_000_000
    /// The most stops a windows call takes.
    public static let maxStops = 4096
    /// The default kicks of the heuristic without a time limit: 5,000 / n, at least 10 and at
    /// most 50 (each kick is followed by a full local search of O(n^2) moves).
    public static func defaultIterations(stops n: Int) -> Int { max(10, min(50, 5_000 / max(n, 1))) }
}

/// The checked problem the window searches work on.
struct WindowProblem {
    /// Nodes: 0 home, i the stop i - 1. Travel times row-major, size × size.
    let size: Int
    let t: [Double]
    let earliest: [Double]
    let latest: [Double]
    let service: [Double]
    let departure: Double
    let returnBy: Double
    let end: RouteEnd

    /// The schedule of `order` (stops, 0-based), measured on the caller's times.
    func schedule(_ order: [Int]) -> ScheduledOrder {
        var visits: [StopVisit] = []
        visits.reserveCapacity(order.count)
        var legs: [Double] = []
        var time = departure
        var prev = 0
        var lateness = 0.0
        var missed = 0
        for s in order {
            let node = s + 1
            let leg = t[prev * size + node]
            legs.append(leg)
            let arrival = time + leg
            let late = max(0, arrival - latest[node])
            if late > 0 { missed += 1 }
            lateness += late
            let start = max(arrival, earliest[node])
            let departure = start + service[node]
            visits.append(StopVisit(stop: s, arrival: arrival, wait: start - arrival, departure: departure, lateness: late))
            time = departure
            prev = node
        }
        if end == .home && !order.isEmpty {
            let leg = t[prev * size]
            legs.append(leg)
            time += leg
        }
        if time > returnBy {
            lateness += time - returnBy
            missed += 1
        }
        let travel = legs.reduce(0, +)
        return ScheduledOrder(
            order: order, visits: visits, legs: legs, travel: travel, end: time, feasible: missed == 0,
            lateness: lateness, missed: missed, provenOptimal: false)
    }
}

/// The best order with opening hours over a matrix of travel times: `travelTimes` holds (n + 1)^2
/// entries in row-major order, row and column 0 home and i the stop i - 1 (seconds, or any unit
/// the windows use; one-way times allowed; the diagonal is ignored).
/// - Parameters:
///   - windows: one per stop (`TimeWindow.always` for none); `earliest <= latest`.
///   - serviceTimes: one per stop, `>= 0`; empty for none.
///   - departure: when the route leaves home (finite).
///   - returnBy: the latest end of the route (`+infinity` for none).
/// - Throws: as `bestOrder(costs:...)`, and `.invalidArgument` for arrays of the wrong length,
///   `.outOfRange` for a window that closes before it opens, a negative service time, or times
///   whose sums could overflow (above `StopOrder.maxCost`), `.notFinite` for NaN.
public func bestOrder(
    travelTimes: [Double], windows: [TimeWindow], serviceTimes: [Double] = [], departure: Double = 0,
    returnBy: Double = .infinity, end: RouteEnd = .home, options: StopOrderOptions = StopOrderOptions()
) throws(GeoLocError) -> ScheduledOrder {
    var options = options
    if options.startTime == nil { options.startTime = monotonicSeconds() }
    let size = try checkMatrix(travelTimes, end: end, options: options)
    let problem = try windowProblem(
        travelTimes, size: size, windows: windows, serviceTimes: serviceTimes, departure: departure,
        returnBy: returnBy, end: end)
    return solveWindows(problem, options: options)
}

/// The best order with opening hours between coordinates: travel times are the distances on
/// `model` over `speed` (meters per second), so the windows, service times, departure and
/// deadline are in seconds. Other arguments as `bestOrder(travelTimes:...)`.
/// - Throws: as above; `.outOfRange` for a speed that is not positive.
public func bestOrder(
    home: Coordinate, stops: [Coordinate], speed: Double, windows: [TimeWindow], serviceTimes: [Double] = [],
    departure: Double = 0, returnBy: Double = .infinity, end: RouteEnd = .home, model: EarthModel = .sphere,
    options: StopOrderOptions = StopOrderOptions()
) throws(GeoLocError) -> ScheduledOrder {
    var options = options
    if options.startTime == nil { options.startTime = monotonicSeconds() }
    if !speed.isFinite { throw GeoLocError(.notFinite, "speed \(show(speed)) is not finite") }
    if speed <= 0 { throw GeoLocError(.outOfRange, "speed \(show(speed)) m/s must be greater than 0") }
    _ = try checkStops(stops.count, end: end, options: options)
    let nodes = [home] + stops
    let n = nodes.count
    var times = [Double](repeating: 0, count: n * n)
    for i in 0..<n {
        for j in 0..<n where j != i {
            times[i * n + j] = nodes[i].distance(to: nodes[j], model: model, unit: .meters) / speed
        }
    }
    try checkCosts(times, size: n)
    let problem = try windowProblem(
        times, size: n, windows: windows, serviceTimes: serviceTimes, departure: departure,
        returnBy: returnBy, end: end)
    return solveWindows(problem, options: options)
}

/// Checks the windows, service times and home's times, and builds the problem.
func windowProblem(
    _ t: [Double], size: Int, windows: [TimeWindow], serviceTimes: [Double], departure: Double,
    returnBy: Double, end: RouteEnd
) throws(GeoLocError) -> WindowProblem {
    let n = size - 1
    if n > ScheduledOrder.maxStops {
        throw GeoLocError(.countTooLarge, "\(n) stops are more than the \(ScheduledOrder.maxStops) a route takes")
    }
    guard windows.count == n else {
        throw GeoLocError(.invalidArgument, "\(windows.count) windows for \(n) stops; give one per stop")
    }
    guard serviceTimes.isEmpty || serviceTimes.count == n else {
        throw GeoLocError(.invalidArgument, "\(serviceTimes.count) service times for \(n) stops; give one per stop or none")
    }
    let bound = StopOrder.maxCost
    func checkTime(_ v: Double, _ name: String, infinite: Bool) throws(GeoLocError) {
        if v.isNaN { throw GeoLocError(.notFinite, "\(name) is NaN") }
        if v.isInfinite && !infinite { throw GeoLocError(.notFinite, "\(name) \(show(v)) is not finite") }
        if v.isFinite && abs(v) > bound {
            throw GeoLocError(.outOfRange, "\(name) \(show(v)) is beyond ±\(show(bound)), past which a schedule's sums overflow")
        }
    }
    try checkTime(departure, "departure", infinite: false)
    try checkTime(returnBy, "return deadline", infinite: true)
    if returnBy == -.infinity { throw GeoLocError(.outOfRange, "return deadline -inf is before any departure") }
    var earliest = [Double](repeating: -.infinity, count: size)
    var latest = [Double](repeating: .infinity, count: size)
    var service = [Double](repeating: 0, count: size)
    for (i, w) in windows.enumerated() {
        try checkTime(w.earliest, "window \(i) earliest", infinite: true)
        try checkTime(w.latest, "window \(i) latest", infinite: true)
        if w.earliest == .infinity { throw GeoLocError(.outOfRange, "window \(i) opens at +inf") }
        if w.latest == -.infinity { throw GeoLocError(.outOfRange, "window \(i) closes at -inf") }
        if w.latest < w.earliest {
            throw GeoLocError(.outOfRange, "window \(i) closes (\(show(w.latest))) before it opens (\(show(w.earliest)))")
        }
        earliest[i + 1] = w.earliest
        latest[i + 1] = w.latest
    }
    for (i, s) in serviceTimes.enumerated() {
        try checkTime(s, "service time \(i)", infinite: false)
        if s < 0 { throw GeoLocError(.outOfRange, "service time \(i) \(show(s)) is negative") }
        service[i + 1] = s
    }
    return WindowProblem(
        size: size, t: t, earliest: earliest, latest: latest, service: service, departure: departure,
        returnBy: returnBy, end: end)
}

/// Exact when the dynamic programming finishes within its budget (and finds a feasible order),
/// the heuristic otherwise; `.exact` mode refuses more than `ScheduledOrder.exactLimit` stops and
/// reports an unfinished search as a heuristic answer.
func solveWindows(_ p: WindowProblem, options: StopOrderOptions) -> ScheduledOrder {
    let n = p.size - 1
    if n == 0 {
        // No stops: the empty route is the only one.
        var r = p.schedule([])
        r.provenOptimal = true
        return r
    }
    let start = options.startTime ?? monotonicSeconds()
    let deadline = options.timeLimit.map { start + $0 }
    var search = WindowSearch(p, seed: options.seed)
    // A first local optimum bounds the exact search.
    var best = search.run(iterations: 0, deadline: deadline)
    if options.mode != .heuristic && n <= ScheduledOrder.exactLimit {
        let exactDeadline = min(deadline ?? .infinity, monotonicSeconds() + ScheduledOrder.exactBudget)
        let bound = best.lateness == 0 ? best.travel : Double.infinity
        if let order = windowsExact(p, upperBound: bound, deadline: exactDeadline) {
            var r = p.schedule(order.order)
            r.provenOptimal = true
            return r
        }
    }
    let kicks = options.iterations ?? (options.timeLimit == nil ? ScheduledOrder.defaultIterations(stops: n) : Int.max)
    best = search.run(iterations: kicks, deadline: deadline)
    return best
}
