// The C ABI of the shared basics: versions, status text and the last error, units, coordinates and
// distance text. Each function checks what Swift could trap on (NULL, counts, enum values,
// UTF-8), calls the Swift core (Sources/GeoLoc/Core), and maps every error to a status. The header
// is the contract; the compiler checks each signature against it (@c @implementation).
import CGeoLoc
@_spi(CABI) import GeoLoc

// MARK: - Versions and errors

@c @implementation
public func geoloc_version() -> UnsafePointer<CChar>? {
    cString("0.7.0")  // GEOLOC_VERSION_STRING (a C test checks they agree)
}

@c @implementation
public func geoloc_version_number() -> Int32 {
    GEOLOC_VERSION_NUMBER
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
        let out = try required(out, "out")
        let f = try decode(from.rawValue, as: DistanceUnit.self, "unit")
        let t = try decode(to.rawValue, as: DistanceUnit.self, "unit")
        try deliver(try convert(value, from: f, to: t), to: out, "out")
        return GEOLOC_OK
    }
}

// MARK: - Coordinates

@c @implementation
public func geoloc_coord_check(_ c: geoloc_coord, _ out: UnsafeMutablePointer<geoloc_coord>?) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let v = try coordinate(c)
        try deliver(geoloc_coord(lat: v.latitude, lon: v.longitude), toOptional: out, "out")
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_coord_parse(_ text: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<geoloc_coord>?) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let out = try required(out, "out")
        let v = try Coordinate(parsing: try readText(text, "text"))
        try deliver(geoloc_coord(lat: v.latitude, lon: v.longitude), to: out, "out")
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_coord_format(
    _ c: geoloc_coord, _ style: geoloc_coord_style, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    textResult(buf, cap, needed) { () throws(GeoLocError) in
        let s = try decode(style.rawValue, as: CoordinateStyle.self, "style")
        return try coordinate(c).formatted(s)
    }
}

@c @implementation
public func geoloc_distance_text(
    _ meters: Double, _ unit: geoloc_unit, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    textResult(buf, cap, needed) { () throws(GeoLocError) in
        let u = try decode(unit.rawValue, as: DistanceUnit.self, "unit")
        return try distanceText(meters: meters, unit: u)
    }
}
