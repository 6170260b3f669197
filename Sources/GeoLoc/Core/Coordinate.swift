#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A position on the Earth: latitude and longitude in degrees (WGS84 datum).
///
/// A `Coordinate` is always valid: its latitude is finite and within [-90, 90], and its longitude
/// is finite and reduced to [-180, 180). The throwing initialisers enforce that.
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
    /// Degrees north, in [-90, 90].
    public let latitude: Double
    /// Degrees east, in [-180, 180).
    public let longitude: Double

    /// Checks the values and reduces the longitude to [-180, 180).
    /// - Throws: `.notFinite` for NaN or infinity, `.outOfRange` for a latitude beyond ±90.
    public init(latitude: Double, longitude: Double) throws(GeoLocError) {
        try checkPoint(latitude, longitude)
        self.init(checkedLatitude: latitude, longitude: longitude)
    }

    /// As `init(latitude:longitude:)`, with a message that names the point:
    /// `"a: latitude 91 is outside [-90, 90]"` for `name` "a".
    @_spi(CABI)
    public init(latitude: Double, longitude: Double, named name: StaticString) throws(GeoLocError) {
        try checkPoint(latitude, longitude, at: name.description)
        self.init(checkedLatitude: latitude, longitude: longitude)
    }

    /// A point that passed `checkPoint`: only the longitude still needs reducing.
    init(checkedLatitude latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = normalizedLongitude(longitude)
    }

    /// Reads `"38.321991,-88.867400"` or `"38.321991, -88.867400"`: two decimal numbers separated
    /// by one comma, whitespace allowed around each, an explicit `+` allowed, an exponent allowed.
    /// - Throws: `.parse` for anything else (`""`, `"abc"`, `"38.3"`, `"38.3,-88.8,1"`, `"nan,0"`,
    ///   trailing text), `.notFinite` for an overflowing number (`"1e999,0"`), `.outOfRange` for a
    ///   latitude beyond ±90 (`"91,0"`).
    public init(parsing text: some StringProtocol) throws(GeoLocError) {
        let text = Substring(text)
        // Split on the comma byte: a comma is never part of another character in UTF-8, and
        // bytes are linear where characters (grapheme breaking) cost much more per byte.
        let parts = text.utf8.split(separator: 44, omittingEmptySubsequences: false).map { Substring($0) }
        guard parts.count == 2 else {
            let quoted = quote(text)
            if parts.count < 2 {
                throw GeoLocError(.parse, "\(quoted) is not \"latitude,longitude\": there is no comma")
            }
            throw GeoLocError(.parse, "\(quoted) is not \"latitude,longitude\": there are \(parts.count - 1) commas")
        }
        // Syntax of both numbers first, then their values: "1e999,abc" is a parse error.
        let latText = try decimalSyntax(parts[0], what: "latitude", in: text)
        let lonText = try decimalSyntax(parts[1], what: "longitude", in: text)
        let lat = try decimalValue(latText, what: "latitude", in: text)
        let lon = try decimalValue(lonText, what: "longitude", in: text)
        try self.init(latitude: lat, longitude: lon)
    }

    /// The coordinate as text with 6 decimals: `"38.321991,-88.867400"` (`.compact`) or
    /// `"38.321991, -88.867400"` (`.readable`).
    public func formatted(_ style: CoordinateStyle = .compact) -> String {
        let separator = style == .compact ? "," : ", "
        // The longitude is in [-180, 180), but one within half a unit of the last decimal below
        // 180 rounds up to "180.000000": that is the same meridian, written as the range says.
        var lon = fixed(longitude, decimals: 6)
        if lon == "180.000000" { lon = "-180.000000" }
        return fixed(latitude, decimals: 6) + separator + lon
    }

    public var description: String { formatted(.compact) }
}

/// The text styles of the smart-field design, both with 6 decimals. `rawValue` is the C
/// `geoloc_coord_style`.
public enum CoordinateStyle: Int32, Sendable, CaseIterable {
    /// `"38.321991,-88.867400"`
    case compact = 0
    /// `"38.321991, -88.867400"`
    case readable = 1
}

/// Reduces a finite longitude to [-180, 180). Exact: no rounding is introduced.
@inlinable
public func normalizedLongitude(_ lon: Double) -> Double {
    if lon >= -180 && lon < 180 { return lon }
    var r = remainder(lon, 360)  // exact, in [-180, 180]
    if r >= 180 { r -= 360 }
    return r
}

/// Checks one point given as raw degrees.
@inline(__always)
func checkPoint(_ lat: Double, _ lon: Double, at place: @autoclosure () -> String = "") throws(GeoLocError) {
    if lat.isFinite && lon.isFinite && lat >= -90 && lat <= 90 { return }
    let name = place()
    let at = name.isEmpty ? "" : name + ": "
    if !lat.isFinite { throw GeoLocError(.notFinite, "\(at)latitude \(show(lat)) is not finite") }
    if !lon.isFinite { throw GeoLocError(.notFinite, "\(at)longitude \(show(lon)) is not finite") }
    throw GeoLocError(.outOfRange, "\(at)latitude \(show(lat)) is outside [-90, 90]")
}

/// Input text as a message shows it: quoted, cut after 60 characters.
@_spi(CABI)
public func quote(_ text: some StringProtocol) -> String {
    // prefix(61) looks at 61 characters at most: a megabyte of input costs no more than a line.
    let head = text.prefix(61)
    let shown = head.count > 60 ? String(head.prefix(60)) + "..." : String(text)
    return "\"" + shown + "\""
}

/// Strict decimal syntax: [ws] [+|-] digits [. digits] [(e|E) [+|-] digits] [ws], with at least
/// one digit before or after the point. Returns the number without whitespace.
func decimalSyntax(_ field: Substring, what: String, in text: some StringProtocol) throws(GeoLocError) -> Substring {
    let body = trimmed(field)
    let u = Array(body.utf8)
    var i = 0
    func digits() -> Int {
        let start = i
        while i < u.count && u[i] >= 48 && u[i] <= 57 { i += 1 }
        return i - start
    }
    if i < u.count && (u[i] == 43 || u[i] == 45) { i += 1 }
    var mantissa = digits()
    if i < u.count && u[i] == 46 {
        i += 1
        mantissa += digits()
    }
    var ok = mantissa > 0
    if ok && i < u.count && (u[i] == 101 || u[i] == 69) {
        i += 1
        if i < u.count && (u[i] == 43 || u[i] == 45) { i += 1 }
        ok = digits() > 0
    }
    guard ok && i == u.count else {
        if body.isEmpty {
            throw GeoLocError(.parse, "\(quote(text)) has no \(what)")
        }
        throw GeoLocError(.parse, "\(quote(text)): \(what) \(quote(body)) is not a decimal number")
    }
    return body
}

/// The value of text that passed `decimalSyntax`, correctly rounded by the standard library.
func decimalValue(_ body: Substring, what: String, in text: some StringProtocol) throws(GeoLocError) -> Double {
    // Swift's parser rejects a leading "+"; it is syntax we allow.
    let number = body.utf8.first == 43 ? body.dropFirst() : body
    guard let value = Double(number) else {
        throw GeoLocError(.parse, "\(quote(text)): \(what) \(quote(body)) is not a decimal number")
    }
    guard value.isFinite else {
        throw GeoLocError(.notFinite, "\(quote(text)): \(what) \(quote(body)) overflows to infinity")
    }
    return value
}
