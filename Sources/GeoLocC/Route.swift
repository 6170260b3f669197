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
        guard let total else { throw GeoLocError(.nullArgument, "total is NULL") }
        let n = try checkCount(n, "n")
        guard n == 0 || points != nil else { throw GeoLocError(.nullArgument, "points is NULL with n = \(n)") }
        let (m, u) = try measure(model, unit)
        let coords = try BatchDistance.coordinates(degrees(points, n), count: n, name: "points")
        let r = try routeLength(coords, closed: closed, model: m, unit: u)
        total.pointee = r.total
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
        guard let result else { throw GeoLocError(.nullArgument, "result is NULL") }
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

        var out = geoloc_mileage_result()
        out.total = r.total
        out.rounded = r.rounded
        out.stops_used = r.stopsUsed
        out.stops_skipped = r.skippedStops.count
        out.leg_count = r.legs.count
        withUnsafeMutableBytes(of: &out.text) { bytes in
            let utf8 = Array(r.text.utf8.prefix(bytes.count - 1))
            for (i, b) in utf8.enumerated() { bytes[i] = b }
            bytes[utf8.count] = 0
        }
        result.pointee = out

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
        guard let minutes else { throw GeoLocError(.nullArgument, "minutes is NULL") }
        let u = try decode(unit.rawValue, as: DistanceUnit.self, "unit")
        minutes.pointee = try etaMinutes(distance: distance, speedPerHour: speed_per_hour, unit: u, detourFactor: detour_factor)
        return GEOLOC_OK
    }
}
