/// The length of a path through `points` in order.
/// - Parameters:
///   - closed: add the leg from the last point back to the first.
///   - model: `.sphere` (haversine legs, the default) or `.wgs84` (geodesic legs).
/// - Returns: the total and each leg, in `unit`; no legs for fewer than two points.
public func routeLength(
    _ points: [Coordinate], closed: Bool = false, model: EarthModel = .sphere, unit: DistanceUnit = .meters
) throws(GeoLocError) -> (total: Double, legs: [Double]) {
    guard points.count >= 2 else { return (0, []) }
    var legs: [Double] = []
    legs.reserveCapacity(points.count)
    for i in 1..<points.count { legs.append(points[i - 1].distance(to: points[i], model: model, unit: unit)) }
    if closed { legs.append(points[points.count - 1].distance(to: points[0], model: model, unit: unit)) }
    return (legs.reduce(0, +), legs)
}

/// One leg of a mileage route. `from` and `to` are indices into the stops; `nil` is home.
public struct MileageLeg: Equatable, Sendable {
    public var from: Int?
    public var to: Int?
    /// In the unit the mileage was asked in.
    public var distance: Double

    public init(from: Int?, to: Int?, distance: Double) {
        self.from = from
        self.to = to
        self.distance = distance
    }
}

/// The result of `mileage(home:stops:)`.
public struct Mileage: Equatable, Sendable {
    /// The total, not rounded, in the requested unit.
    public var total: Double
    /// `total` rounded half away from zero to one decimal.
    public var rounded: Double
    /// `rounded` with one decimal (`"123.4"`), or `"0"` when there is nothing to measure
    /// (no stops counted, or home malformed), as the smart-field design specifies.
    public var text: String
    /// The legs in order.
    public var legs: [MileageLeg]
    /// Indices of the stops skipped for missing or malformed coordinates, ascending.
    public var skippedStops: [Int]
    /// How many stops counted.
    public var stopsUsed: Int
    /// Set when home was given but malformed: the result is then the design's fallback `"0"`.
    public var homeProblem: GeoLocError?
}

/// Round-trip mileage, the "mileage" smart field: home, the stops in the given order, then home,
/// by haversine (or on WGS84 with `model: .wgs84`), in miles rounded to one decimal.
///
/// - Parameters:
///   - home: `"lat,lon"` text, or `nil`.
///   - stops: `"lat,lon"` texts in visiting order; `nil` is a stop without coordinates.
///   - roundTrip: `false` ends at the last stop (no return leg).
/// - Throws: `.noHome` when `home` is `nil`, empty or blank ("set up your home location").
/// - Returns: the mileage. A malformed home gives total 0 and text `"0"` with `homeProblem` set;
///   no counted stops give `"0"`; a missing or malformed stop is skipped and listed.
public func mileage(
    home: String?, stops: [String?], roundTrip: Bool = true,
    model: EarthModel = .sphere, unit: DistanceUnit = .miles
) throws(GeoLocError) -> Mileage {
    _ = try checkCount(stops.count, "stop count")
    guard let home, !trimmed(home).isEmpty else {
        throw GeoLocError(.noHome, "no home coordinates: set up your home location first")
    }
    let homeCoordinate: Coordinate
    do {
        homeCoordinate = try Coordinate(parsing: home)
    } catch {
        return Mileage(
            total: 0, rounded: 0, text: "0", legs: [], skippedStops: Array(stops.indices), stopsUsed: 0,
            homeProblem: GeoLocError(.homeInvalid, "home coordinates are malformed: \(error.message)"))
    }
    var points: [(index: Int?, at: Coordinate)] = [(nil, homeCoordinate)]
    var skipped: [Int] = []
    for (i, stop) in stops.enumerated() {
        if let stop, let c = try? Coordinate(parsing: stop) {
            points.append((i, c))
        } else {
            skipped.append(i)
        }
    }
    let used = points.count - 1
    guard used > 0 else {
        return Mileage(total: 0, rounded: 0, text: "0", legs: [], skippedStops: skipped, stopsUsed: 0, homeProblem: nil)
    }
    if roundTrip { points.append((nil, homeCoordinate)) }
    var legs: [MileageLeg] = []
    legs.reserveCapacity(points.count - 1)
    var total = 0.0
    for k in 1..<points.count {
        let d = points[k - 1].at.distance(to: points[k].at, model: model, unit: unit)
        total += d
        legs.append(MileageLeg(from: points[k - 1].index, to: points[k].index, distance: d))
    }
    let rounded = roundToTenth(total)
    return Mileage(
        total: total, rounded: rounded, text: fixed(rounded, decimals: 1), legs: legs,
        skippedStops: skipped, stopsUsed: used, homeProblem: nil)
}

/// Rounds half away from zero to one decimal (Swift's `.rounded()` on the value times ten, as the
/// smart-field design's Swift rounds).
func roundToTenth(_ x: Double) -> Double {
    (x * 10).rounded(.toNearestOrAwayFromZero) / 10
}

/// An estimated travel time in whole minutes, rounded up (the ride design's ETA):
/// `ceil(distance * detourFactor / speedPerHour * 60)`. An estimate from straight-line distance,
/// not road routing: `detourFactor` (1.2 to 1.4 for roads) stands in for the road network.
/// A value within 1e-9 minutes above a whole minute counts as that minute.
/// - Parameters:
///   - distance: finite, >= 0, in `unit`.
///   - speedPerHour: finite, > 0, in `unit` per hour.
///   - detourFactor: finite, >= 1.
public func etaMinutes(
    distance: Double, speedPerHour: Double, unit: DistanceUnit = .kilometers, detourFactor: Double = 1
) throws(GeoLocError) -> Int64 {
    _ = unit  // distance and speed share the unit, so it cancels; it is named for the reader.
    for (name, v) in [("distance", distance), ("speed", speedPerHour), ("detour factor", detourFactor)] where !v.isFinite {
        throw GeoLocError(.notFinite, "\(name) \(show(v)) is not finite")
    }
    guard distance >= 0 else { throw GeoLocError(.outOfRange, "distance \(show(distance)) is negative") }
    guard speedPerHour > 0 else { throw GeoLocError(.outOfRange, "speed \(show(speedPerHour)) must be greater than 0") }
    guard detourFactor >= 1 else {
        throw GeoLocError(.outOfRange, "detour factor \(show(detourFactor)) must be at least 1 (roads are never shorter than the great circle)")
    }
    let minutes = distance * detourFactor / speedPerHour * 60
    guard minutes.isFinite, minutes <= 9_007_199_254_740_992 else {
        throw GeoLocError(.outOfRange, "the travel time overflows (\(show(minutes)) minutes)")
    }
    let whole = minutes.rounded(.down)
    return Int64(minutes - whole <= 1e-9 ? whole : whole + 1)
}
