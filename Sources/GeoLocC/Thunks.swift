// The C ABI: each function checks what Swift could trap on (NULL, counts, enum values, UTF-8),
// calls the Swift core, and maps every error to a status. The header is the contract; the
// compiler checks each signature against it (@c @implementation).
import CGeoLoc
@_spi(CABI) import GeoLoc

// MARK: - Versions and errors

@c @implementation
public func geoloc_version() -> UnsafePointer<CChar>? {
    cString("0.2.0")
}

@c @implementation
public func geoloc_version_number() -> Int32 {
    200
}

@c @implementation
public func geoloc_status_string(_ s: geoloc_status) -> UnsafePointer<CChar>? {
    if s == GEOLOC_OK { return cString("ok") }
    guard s.rawValue <= UInt32(Int32.max), let code = GeoLocError.Code(rawValue: Int32(s.rawValue)) else {
        return cString("unknown status")
    }
    return cString(code.summary)
}

@c @implementation
public func geoloc_last_error() -> UnsafePointer<CChar>? {
    lastErrorPointer() ?? cString("")
}

// MARK: - Units

@c @implementation
public func geoloc_convert_length(
    _ value: Double, _ from: geoloc_unit, _ to: geoloc_unit, _ out: UnsafeMutablePointer<Double>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        guard let out else { throw GeoLocError(.nullArgument, "out is NULL") }
        let f = try decode(from.rawValue, as: DistanceUnit.self, "unit")
        let t = try decode(to.rawValue, as: DistanceUnit.self, "unit")
        out.pointee = try convert(value, from: f, to: t)
        return GEOLOC_OK
    }
}

// MARK: - Coordinates

@c @implementation
public func geoloc_coord_check(_ c: geoloc_coord, _ out: UnsafeMutablePointer<geoloc_coord>?) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let v = try coordinate(c)
        out?.pointee = geoloc_coord(lat: v.latitude, lon: v.longitude)
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_coord_parse(_ text: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<geoloc_coord>?) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        guard let out else { throw GeoLocError(.nullArgument, "out is NULL") }
        let v = try Coordinate(parsing: try readText(text, "text"))
        out.pointee = geoloc_coord(lat: v.latitude, lon: v.longitude)
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_coord_format(
    _ c: geoloc_coord, _ style: geoloc_coord_style, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        guard needed != nil else { throw GeoLocError(.nullArgument, "needed is NULL") }
        let s = try decode(style.rawValue, as: CoordinateStyle.self, "style")
        return writeText(try coordinate(c).formatted(s), buf, cap, needed)
    }
}

// MARK: - Distance

@c @implementation
public func geoloc_distance(
    _ a: geoloc_coord, _ b: geoloc_coord, _ model: geoloc_model, _ unit: geoloc_unit, _ out: UnsafeMutablePointer<Double>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        guard let out else { throw GeoLocError(.nullArgument, "out is NULL") }
        let (m, u) = try measure(model, unit)
        out.pointee = try distance(from: coordinate(a), to: coordinate(b), model: m, unit: u)
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_distance_pairs(
    _ a: UnsafePointer<geoloc_coord>?, _ b: UnsafePointer<geoloc_coord>?, _ n: Int, _ model: geoloc_model,
    _ unit: geoloc_unit, _ out: UnsafeMutablePointer<Double>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let n = try checkCount(n, "n")
        if n != 0 && (a == nil || b == nil || out == nil) {
            throw GeoLocError(.nullArgument, "a, b or out is NULL with n = \(n)")
        }
        let (m, u) = try measure(model, unit)
        guard n > 0, let out else { return GEOLOC_OK }
        try BatchDistance.pairs(degrees(a, n), degrees(b, n), into: UnsafeMutableBufferPointer(start: out, count: n), model: m, unit: u)
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_distance_one_to_many(
    _ origin: geoloc_coord, _ points: UnsafePointer<geoloc_coord>?, _ n: Int, _ model: geoloc_model,
    _ unit: geoloc_unit, _ out: UnsafeMutablePointer<Double>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let n = try checkCount(n, "n")
        if n != 0 && (points == nil || out == nil) {
            throw GeoLocError(.nullArgument, "points or out is NULL with n = \(n)")
        }
        let (m, u) = try measure(model, unit)
        let o = try coordinate(origin)
        guard n > 0, let out else { return GEOLOC_OK }
        try BatchDistance.oneToMany(o, degrees(points, n), into: UnsafeMutableBufferPointer(start: out, count: n), model: m, unit: u)
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_distance_text(
    _ meters: Double, _ unit: geoloc_unit, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        guard needed != nil else { throw GeoLocError(.nullArgument, "needed is NULL") }
        let u = try decode(unit.rawValue, as: DistanceUnit.self, "unit")
        return writeText(try distanceText(meters: meters, unit: u), buf, cap, needed)
    }
}

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

// MARK: - Weather

@c @implementation
public func geoloc_weather_label(
    _ code: Int32, _ daylight: geoloc_daylight, _ label: UnsafeMutablePointer<UnsafePointer<CChar>?>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        guard let label else { throw GeoLocError(.nullArgument, "label is NULL") }
        let d = try decode(daylight.rawValue, as: Daylight.self, "daylight")
        guard let text = WeatherCode.staticLabel(Int(code), d) else {
            label.pointee = cString("Unknown")
            throw GeoLocError(.unknownCode, "weather code \(code) is not a documented WMO code")
        }
        label.pointee = cString(text)
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_weather_code_documented(_ code: Int32) -> Bool {
    WeatherCode(Int(code)).isDocumented
}

@c @implementation
public func geoloc_weather_condition(
    _ code: Int32, _ temperature: Double, _ given: geoloc_temp_unit, _ shown: geoloc_temp_unit,
    _ daylight: geoloc_daylight, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        guard needed != nil else { throw GeoLocError(.nullArgument, "needed is NULL") }
        let g = try decode(given.rawValue, as: TemperatureUnit.self, "temperature unit")
        let s = try decode(shown.rawValue, as: TemperatureUnit.self, "temperature unit")
        let d = try decode(daylight.rawValue, as: Daylight.self, "daylight")
        let wc = WeatherCode(Int(code))
        let text = try weatherCondition(code: wc, temperature: temperature, given: g, shown: s, daylight: d)
        let st = writeText(text, buf, cap, needed)
        if st == GEOLOC_OK && !wc.isDocumented {
            return fail(.unknownCode, "weather code \(code) is not a documented WMO code")
        }
        return st
    }
}
