// The C ABI of routes (Sources/GeoLoc/Route): path length, round-trip mileage and ETA. Each
// function checks its arguments, calls the core and maps every error to a status.
import CGeoLoc
@_spi(CABI) import GeoLoc

// MARK: - Routes and mileage

@c @implementation
public func geoloc_route_length(
    _ points: UnsafePointer<geoloc_coord>?, _ n: Int, _ closed: Bool, _ model: geoloc_model, _ unit: geoloc_unit,
    _ total: UnsafeMutablePointer<Double>?, _ legs: UnsafeMutablePointer<Double>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let total = try required(total, "total")
        let points = try inputArray(points, n, "points")
        let (m, u) = try measure(model, unit)
        let coords = try coordinates(points, "points")
        let r = try routeLength(coords, closed: closed, model: m, unit: u)
        for (i, d) in r.legs.enumerated() { try checkFinite(d, "legs[\(i)]") }
        try deliver(r.total, to: total, "total")
        if let legs {
            for (i, d) in r.legs.enumerated() { legs[i] = d }
        }
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_mileage(
    _ home: UnsafePointer<CChar>?, _ stops: UnsafePointer<UnsafePointer<CChar>?>?, _ n_stops: Int, _ round_trip: Bool,
    _ model: geoloc_model, _ unit: geoloc_unit, _ result: UnsafeMutablePointer<geoloc_mileage_result>?,
    _ legs: UnsafeMutablePointer<geoloc_leg>?, _ legs_cap: Int, _ skipped: UnsafeMutablePointer<Int>?,
    _ skipped_cap: Int
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let result = try required(result, "result")
        let n = try checkCount(n_stops, "n_stops")
        guard n == 0 || stops != nil else { throw GeoLocError(.nullArgument, "stops is NULL with n_stops = \(n)") }
        let (m, u) = try measure(model, unit)
        let homeText: String? = home == nil ? nil : try readText(home, "home")
        var stopTexts: [String?] = []
        stopTexts.reserveCapacity(n)
        for i in 0..<n {
            if let s = stops![i] {
                stopTexts.append(try readText(s, "stop \(i)"))
            } else {
                stopTexts.append(nil)
            }
        }
        let r = try mileage(home: homeText, stops: stopTexts, roundTrip: round_trip, model: m, unit: u)

        for (i, leg) in r.legs.enumerated() { try checkFinite(leg.distance, "legs[\(i)].distance") }
        var out = geoloc_mileage_result()
        out.total = r.total
        out.rounded = r.rounded
        out.stops_used = r.stopsUsed
        out.stops_skipped = r.skippedStops.count
        out.leg_count = r.legs.count
        copyText(r.text, into: &out.text)
        try deliver(out, to: result, "result")

        // A capacity above Int.max arrives negative: it is certainly enough.
        let legsShort = legs != nil && legs_cap > 0 && legs_cap < r.legs.count
        let skippedShort = skipped != nil && skipped_cap > 0 && skipped_cap < r.skippedStops.count
        if let legs, legs_cap != 0, !legsShort, !skippedShort {
            for (i, leg) in r.legs.enumerated() {
                legs[i] = geoloc_leg(from: Int64(leg.from ?? -1), to: Int64(leg.to ?? -1), distance: leg.distance)
            }
        }
        if let skipped, skipped_cap != 0, !skippedShort, !legsShort {
            for (i, s) in r.skippedStops.enumerated() { skipped[i] = s }
        }
        if legsShort || skippedShort {
            return fail(.bufferTooSmall, "legs need \(r.legs.count) entries (capacity \(legs_cap)), skipped need \(r.skippedStops.count) (capacity \(skipped_cap))")
        }
        if let problem = r.homeProblem { return fail(problem) }
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_eta_minutes(
    _ distance: Double, _ speed_per_hour: Double, _ unit: geoloc_unit, _ detour_factor: Double,
    _ minutes: UnsafeMutablePointer<Int64>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let minutes = try required(minutes, "minutes")
        let u = try decode(unit.rawValue, as: DistanceUnit.self, "unit")
        try deliver(try etaMinutes(distance: distance, speedPerHour: speed_per_hour, unit: u, detourFactor: detour_factor), to: minutes, "minutes")
        return GEOLOC_OK
    }
}

// MARK: - The best order of stops

/// The options of a best-order call: NULL for the defaults; 0 iterations and 0 seconds mean the
/// defaults in C.
private func orderOptions(_ p: UnsafePointer<geoloc_order_options>?) throws(GeoLocError) -> StopOrderOptions {
    guard let o = p?.pointee else { return StopOrderOptions() }
    let mode = try decode(o.mode.rawValue, as: StopOrderMode.self, "mode")
    if o.iterations < 0 { throw GeoLocError(.outOfRange, "iterations \(o.iterations) is negative") }
    if !o.time_limit_s.isFinite { throw GeoLocError(.notFinite, "time_limit_s \(show(o.time_limit_s)) is not finite") }
    if o.time_limit_s < 0 { throw GeoLocError(.outOfRange, "time_limit_s \(show(o.time_limit_s)) is negative") }
    return StopOrderOptions(
        mode: mode, iterations: o.iterations == 0 ? nil : Int(o.iterations),
        timeLimit: o.time_limit_s == 0 ? nil : o.time_limit_s, seed: o.seed)
}

private func routeEnd(_ end: geoloc_route_end, _ stop: Int, count: Int) throws(GeoLocError) -> RouteEnd {
    switch end {
    case GEOLOC_ROUTE_END_HOME: return .home
    case GEOLOC_ROUTE_END_ANYWHERE: return .anywhere
    case GEOLOC_ROUTE_END_STOP:
        if stop < 0 || stop >= count {
            throw GeoLocError(.outOfRange, "end_stop \(UInt(bitPattern: stop)) is not one of the \(count) stops")
        }
        return .stop(stop)
    default: throw GeoLocError(.invalidArgument, "end \(end.rawValue) is not a geoloc_route_end")
    }
}

/// Writes a best order under the header's contract: *needed and result always, the arrays only
/// when they hold everything.
private func writeOrder(
    _ r: StopOrder, _ order: UnsafeMutablePointer<Int>?, _ orderCap: Int, _ legs: UnsafeMutablePointer<Double>?,
    _ legsCap: Int, _ needed: UnsafeMutablePointer<Int>, _ result: UnsafeMutablePointer<geoloc_order_result>
) throws(GeoLocError) -> geoloc_status {
    var out = geoloc_order_result()
    out.total = r.total
    out.given_total = r.givenTotal
    out.saving = r.saving
    out.proven_optimal = r.provenOptimal
    out.stop_count = r.order.count
    out.leg_count = r.legs.count
    copyText(r.text, into: &out.text)
    copyText(r.givenText, into: &out.given_text)
    for (i, d) in r.legs.enumerated() { try checkFinite(d, "legs[\(i)]") }
    return try writeRoute(
        out, result, needed, r.order, r.legs, order, orderCap, legs, legsCap,
        capacities: "order holds \(orderCap)" + (legs != nil ? ", legs \(legsCap)" : ""))
}

/// The tail of both best-order writers: `result` and *needed always, then the order, and the
/// legs when given, only when they all fit; BUFFER_TOO_SMALL otherwise, its message the route's
/// stops and legs and then `capacities`, the call's own names for what it gave.
private func writeRoute<R: CResult>(
    _ out: R, _ result: UnsafeMutablePointer<R>, _ needed: UnsafeMutablePointer<Int>, _ stops: [Int],
    _ legValues: [Double], _ order: UnsafeMutablePointer<Int>?, _ cap: Int, _ legs: UnsafeMutablePointer<Double>?,
    _ legsCap: Int, capacities: @autoclosure () -> String
) throws(GeoLocError) -> geoloc_status {
    try deliver(out, to: result, "result")
    needed.pointee = legValues.count
    if cap < stops.count || (legs != nil && legsCap < legValues.count) {
        return fail(.bufferTooSmall, "the route has \(stops.count) stops and \(legValues.count) legs; " + capacities())
    }
    if let order { for (i, s) in stops.enumerated() { order[i] = s } }
    if let legs { for (i, d) in legValues.enumerated() { legs[i] = d } }
    return GEOLOC_OK
}

/// The checks every best-order call makes before any work: `needed` and `result` required, the
/// capacities not negative, order given when there are stops, legs when legs_cap is not 0. Where
/// the capacity is order's alone (`order_cap` of the best-order calls), order NULL with a capacity
/// is refused too; the windows calls' `cap` sizes visits as well.
private func routeOutputs<R>(
    _ n: Int, _ order: UnsafeMutablePointer<Int>?, _ cap: Int, orderCap: Bool, _ legs: UnsafeMutablePointer<Double>?,
    _ legsCap: Int, _ needed: UnsafeMutablePointer<Int>?, _ result: UnsafeMutablePointer<R>?
) throws(GeoLocError) -> (UnsafeMutablePointer<Int>, UnsafeMutablePointer<R>) {
    let needed = try required(needed, "needed")
    let result = try required(result, "result")
    _ = try checkCount(cap, orderCap ? "order_cap" : "cap")
    _ = try checkCount(legsCap, "legs_cap")
    if orderCap && order == nil && cap != 0 { throw GeoLocError(.nullArgument, "order is NULL but order_cap is \(cap)") }
    if order == nil && n > 0 { throw GeoLocError(.nullArgument, "order is NULL with \(n) stops") }
    if legs == nil && legsCap != 0 { throw GeoLocError(.nullArgument, "legs is NULL but legs_cap is \(legsCap)") }
    return (needed, result)
}

@c @implementation
public func geoloc_best_order(
    _ home: geoloc_coord, _ stops: UnsafePointer<geoloc_coord>?, _ n: Int, _ end: geoloc_route_end, _ end_stop: Int,
    _ model: geoloc_model, _ unit: geoloc_unit, _ options: UnsafePointer<geoloc_order_options>?,
    _ order: UnsafeMutablePointer<Int>?, _ order_cap: Int, _ legs: UnsafeMutablePointer<Double>?, _ legs_cap: Int,
    _ needed: UnsafeMutablePointer<Int>?, _ result: UnsafeMutablePointer<geoloc_order_result>?
) -> geoloc_status {
    let started = monotonicSeconds()
    return guarded { () throws(GeoLocError) in
        let stops = try inputArray(stops, n, "stops")
        let n = stops.count
        let (neededOut, resultOut) = try routeOutputs(n, order, order_cap, orderCap: true, legs, legs_cap, needed, result)
        let e = try routeEnd(end, end_stop, count: n)
        var opts = try orderOptions(options)
        opts.startTime = started
        let (m, u) = try measure(model, unit)
        _ = try checkStops(n, end: e, options: opts)
        let h = try coordinate(home)
        let coords = try coordinates(stops, "stops")
        let r = try bestOrder(home: h, stops: coords, end: e, model: m, unit: u, options: opts)
        return try writeOrder(r, order, order_cap, legs, legs_cap, neededOut, resultOut)
    }
}

/// The stops of a caller's (n + 1) x (n + 1) matrix, home first: its shape checked (square, at
/// least home), at most `maxStops` stops, the pointer required unless home is alone.
private func squareMatrix(
    _ matrix: UnsafePointer<Double>?, _ rows: Int, _ cols: Int, maxStops: Int, _ name: String
) throws(GeoLocError) -> Int {
    let rows = try checkCount(rows, "rows")
    let cols = try checkCount(cols, "cols")
    guard rows == cols, rows >= 1 else {
        throw GeoLocError(.invalidArgument, "the matrix is \(rows) x \(cols); it must be square, (n + 1) x (n + 1)")
    }
    let n = rows - 1
    if n > maxStops { throw GeoLocError(.countTooLarge, "\(n) stops are more than the \(maxStops) a route takes") }
    guard matrix != nil || rows == 1 else { throw GeoLocError(.nullArgument, "\(name) is NULL with \(rows) rows") }
    return n
}

/// The (n + 1) x (n + 1) values of a matrix `squareMatrix` passed ([0] for a NULL one of home alone).
private func squareArray(_ matrix: UnsafePointer<Double>?, _ n: Int) -> [Double] {
    matrix.map { Array(UnsafeBufferPointer(start: $0, count: (n + 1) * (n + 1))) } ?? [0]
}

/// The end and the options of a matrix call, in that order, the options timed from `started`,
/// then the n stops checked against both.
private func endAndOptions(
    _ n: Int, _ end: geoloc_route_end, _ endStop: Int, _ options: UnsafePointer<geoloc_order_options>?,
    started: Double
) throws(GeoLocError) -> (RouteEnd, StopOrderOptions) {
    let e = try routeEnd(end, endStop, count: n)
    var opts = try orderOptions(options)
    opts.startTime = started
    _ = try checkStops(n, end: e, options: opts)
    return (e, opts)
}

@c @implementation
public func geoloc_best_order_matrix(
    _ matrix: UnsafePointer<Double>?, _ rows: Int, _ cols: Int, _ end: geoloc_route_end, _ end_stop: Int,
    _ options: UnsafePointer<geoloc_order_options>?, _ order: UnsafeMutablePointer<Int>?, _ order_cap: Int,
    _ legs: UnsafeMutablePointer<Double>?, _ legs_cap: Int, _ needed: UnsafeMutablePointer<Int>?,
    _ result: UnsafeMutablePointer<geoloc_order_result>?
) -> geoloc_status {
    let started = monotonicSeconds()
    return guarded { () throws(GeoLocError) in
        let n = try squareMatrix(matrix, rows, cols, maxStops: StopOrder.maxStops, "matrix")
        let (neededOut, resultOut) = try routeOutputs(n, order, order_cap, orderCap: true, legs, legs_cap, needed, result)
        let (e, opts) = try endAndOptions(n, end, end_stop, options, started: started)
        let costs = squareArray(matrix, n)
        let r = try bestOrder(costs: costs, end: e, options: opts)
        return try writeOrder(r, order, order_cap, legs, legs_cap, neededOut, resultOut)
    }
}

// MARK: - The best order with opening hours

/// The windows and service times of a windows call (NULL: always open, no service).
private func windowArrays(
    _ windows: UnsafePointer<geoloc_time_window>?, _ service: UnsafePointer<Double>?, _ n: Int
) -> ([TimeWindow], [Double]) {
    var w = [TimeWindow](repeating: .always, count: n)
    if let windows { for i in 0..<n { w[i] = TimeWindow(earliest: windows[i].earliest, latest: windows[i].latest) } }
    let s = service.map { Array(UnsafeBufferPointer(start: $0, count: n)) } ?? []
    return (w, s)
}

/// Writes a scheduled order: *needed and result always, the arrays only when they hold
/// everything; GEOLOC_E_WINDOWS_MISSED (soft) when the order misses a window. Every time passes
/// the non-finite check before anything is written.
private func writeSchedule(
    _ r: ScheduledOrder, _ order: UnsafeMutablePointer<Int>?, _ visits: UnsafeMutablePointer<geoloc_stop_visit>?,
    _ cap: Int, _ legs: UnsafeMutablePointer<Double>?, _ legsCap: Int, _ needed: UnsafeMutablePointer<Int>,
    _ result: UnsafeMutablePointer<geoloc_schedule_result>
) throws(GeoLocError) -> geoloc_status {
    let stopVisits = r.visits.map {
        geoloc_stop_visit(stop: $0.stop, arrival: $0.arrival, wait: $0.wait, departure: $0.departure, lateness: $0.lateness)
    }
    for (i, d) in r.legs.enumerated() { try checkFinite(d, "legs[\(i)]") }
    for (i, v) in stopVisits.enumerated() { try checkFinite(v, "visits[\(i)]") }
    var out = geoloc_schedule_result()
    out.travel = r.travel
    out.end_time = r.end
    out.lateness = r.lateness
    out.missed = r.missed
    out.feasible = r.feasible
    out.proven_optimal = r.provenOptimal
    out.stop_count = r.order.count
    out.leg_count = r.legs.count
    let written = try writeRoute(
        out, result, needed, r.order, r.legs, order, cap, legs, legsCap,
        capacities: "cap is \(cap)" + (legs != nil ? ", legs_cap \(legsCap)" : ""))
    if written != GEOLOC_OK { return written }
    if let visits { for (i, v) in stopVisits.enumerated() { visits[i] = v } }
    if !r.feasible {
        return fail(.windowsMissed, "no order meets every window: the least late order misses \(r.missed) "
            + "(total lateness \(show(r.lateness)))")
    }
    return GEOLOC_OK
}

@c @implementation
public func geoloc_best_order_windows(
    _ times: UnsafePointer<Double>?, _ rows: Int, _ cols: Int, _ windows: UnsafePointer<geoloc_time_window>?,
    _ service_s: UnsafePointer<Double>?, _ departure: Double, _ return_by: Double, _ end: geoloc_route_end,
    _ end_stop: Int, _ options: UnsafePointer<geoloc_order_options>?, _ order: UnsafeMutablePointer<Int>?,
    _ visits: UnsafeMutablePointer<geoloc_stop_visit>?, _ cap: Int, _ legs: UnsafeMutablePointer<Double>?,
    _ legs_cap: Int, _ needed: UnsafeMutablePointer<Int>?, _ result: UnsafeMutablePointer<geoloc_schedule_result>?
) -> geoloc_status {
    let started = monotonicSeconds()
    return guarded { () throws(GeoLocError) in
        let n = try squareMatrix(times, rows, cols, maxStops: ScheduledOrder.maxStops, "times")
        let (neededOut, resultOut) = try routeOutputs(n, order, cap, orderCap: false, legs, legs_cap, needed, result)
        let (e, opts) = try endAndOptions(n, end, end_stop, options, started: started)
        let t = squareArray(times, n)
        let (w, s) = windowArrays(windows, service_s, n)
        let r = try bestOrder(
            travelTimes: t, windows: w, serviceTimes: s, departure: departure, returnBy: return_by, end: e, options: opts)
        return try writeSchedule(r, order, visits, cap, legs, legs_cap, neededOut, resultOut)
    }
}

@c @implementation
public func geoloc_best_order_windows_coords(
    _ home: geoloc_coord, _ stops: UnsafePointer<geoloc_coord>?, _ n: Int, _ speed_mps: Double, _ model: geoloc_model,
    _ windows: UnsafePointer<geoloc_time_window>?, _ service_s: UnsafePointer<Double>?, _ departure: Double,
    _ return_by: Double, _ end: geoloc_route_end, _ end_stop: Int, _ options: UnsafePointer<geoloc_order_options>?,
    _ order: UnsafeMutablePointer<Int>?, _ visits: UnsafeMutablePointer<geoloc_stop_visit>?, _ cap: Int,
    _ legs: UnsafeMutablePointer<Double>?, _ legs_cap: Int, _ needed: UnsafeMutablePointer<Int>?,
    _ result: UnsafeMutablePointer<geoloc_schedule_result>?
) -> geoloc_status {
    let started = monotonicSeconds()
    return guarded { () throws(GeoLocError) in
        let stops = try inputArray(stops, n, "stops")
        let n = stops.count
        if n > ScheduledOrder.maxStops {
            throw GeoLocError(.countTooLarge, "\(n) stops are more than the \(ScheduledOrder.maxStops) a route takes")
        }
        let (neededOut, resultOut) = try routeOutputs(n, order, cap, orderCap: false, legs, legs_cap, needed, result)
        let e = try routeEnd(end, end_stop, count: n)
        var opts = try orderOptions(options)
        opts.startTime = started
        let m = try decode(model.rawValue, as: EarthModel.self, "model")
        _ = try checkStops(n, end: e, options: opts)
        let h = try coordinate(home)
        let coords = try coordinates(stops, "stops")
        let (w, s) = windowArrays(windows, service_s, n)
        let r = try bestOrder(
            home: h, stops: coords, speed: speed_mps, windows: w, serviceTimes: s, departure: departure,
            returnBy: return_by, end: e, model: m, options: opts)
        return try writeSchedule(r, order, visits, cap, legs, legs_cap, neededOut, resultOut)
    }
}
