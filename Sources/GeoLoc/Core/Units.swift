/// Length units. `rawValue` is the C `geoloc_unit`.
public enum DistanceUnit: Int32, Sendable, CaseIterable {
    case meters = 0
    case kilometers = 1
    /// Statute miles, 1,609.344 m.
    case miles = 2
    /// International nautical miles, 1,852 m.
    case nauticalMiles = 3
    /// International feet, 0.3048 m.
    case feet = 4

    /// The length of one of this unit, in meters.
    public var meters: Double {
        switch self {
        case .meters: return 1
        case .kilometers: return 1000
        case .miles: return 1609.344
        case .nauticalMiles: return 1852
        case .feet: return 0.3048
        }
    }

    /// The word used in distance text ("3.2 miles").
    public var symbol: String {
        switch self {
        case .meters: return "m"
        case .kilometers: return "km"
        case .miles: return "miles"
        case .nauticalMiles: return "nmi"
        case .feet: return "ft"
        }
    }

    /// Converts `value` from this unit to `unit`.
    @inlinable
    public func convert(_ value: Double, to unit: DistanceUnit) -> Double {
        if self == unit { return value }
        if unit == .meters { return value * meters }
        return value * meters / unit.meters
    }
}

/// The model of the Earth distances are measured on. `rawValue` is the C `geoloc_model`.
public enum EarthModel: Int32, Sendable, CaseIterable {
    /// A sphere of radius `Earth.meanRadius`, great-circle distance by haversine.
    case sphere = 0
    /// The WGS84 ellipsoid (a = 6,378,137 m, f = 1/298.257223563): the geodesic distance, the
    /// shortest path on the ellipsoid, by Karney's method (`geodesicInverse`), accurate to
    /// 15 nm for any pair of points. Up to 0.56% different from the sphere, and an order of
    /// magnitude slower (0.3 to 0.7 µs a pair).
    case wgs84 = 1
}

/// Constants of the Earth models.
public enum Earth {
    /// The IUGG mean radius R1 of the Earth, in meters: the sphere of `EarthModel.sphere`.
    public static let meanRadius = 6_371_008.8
}

extension EarthModel {
    /// Checks that this version can measure on the model. Every model can since WGS84 arrived
    /// (0.2), so this never throws; it stays for callers written against 0.1.
    @available(*, deprecated, message: "every EarthModel is supported since libgeoloc 0.2")
    @inline(__always)
    public func requireSupported() throws(GeoLocError) {}
}

/// Converts a length between units; the value must be finite, and so must the result.
/// - Throws: `.notFinite` for a NaN or infinite value, or one whose conversion overflows
///   (1e308 nautical miles in feet).
public func convert(_ value: Double, from: DistanceUnit, to: DistanceUnit) throws(GeoLocError) -> Double {
    guard value.isFinite else { throw GeoLocError(.notFinite, "length \(show(value)) is not finite") }
    var result = from.convert(value, to: to)
    // value * from.meters may overflow where the result does not (1.7e308 km in miles).
    if !result.isFinite { result = value * (from.meters / to.meters) }
    guard result.isFinite else {
        throw GeoLocError(.notFinite, "length \(show(value)) \(from.symbol) overflows to infinity in \(to.symbol)")
    }
    return result
}

/// A length as display text: one decimal by printf's `%.1f` and the unit's word, e.g.
/// `"3.2 miles"` (the mosque finder's `String(format: "%.1f miles", d)`).
/// - Parameters:
///   - meters: a finite, non-negative length in meters.
///   - unit: the unit to show.
public func distanceText(meters: Double, unit: DistanceUnit = .miles) throws(GeoLocError) -> String {
    guard meters.isFinite else { throw GeoLocError(.notFinite, "distance \(show(meters)) is not finite") }
    guard meters >= 0 else { throw GeoLocError(.outOfRange, "distance \(show(meters)) is negative") }
    return fixed(try convert(meters, from: .meters, to: unit), decimals: 1) + " " + unit.symbol
}
