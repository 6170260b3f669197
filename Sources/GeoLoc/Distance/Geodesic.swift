#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Geodesics on an ellipsoid of revolution, after C. F. F. Karney, "Algorithms for geodesics",
// J. Geodesy 87 (2013) 43-55. The geodesic is mapped onto an auxiliary sphere (reduced latitude
// β, arc length σ, spherical longitude ω); distance and longitude are the sphere's plus series in
// the third flattening n and in ε = (√(1+k²) − 1)/(√(1+k²) + 1), k = e' cos α0, carried to
// order 6. Both are accurate to round-off for |f| ≤ 1/150, which for the Earth means about
// 15 nanometres.
//
// The inverse problem is solved by Newton's method on the azimuth α1 at the first point. The
// starting guess is the great circle on the auxiliary sphere (with the longitude scaled by the
// mean w = √(1 − e² cos²β) for short lines), and for nearly antipodal points the solution of
// the paper's astroid problem. A bracket on α1 is kept throughout, and a step that leaves it is
// replaced by bisection, so the iteration always converges.

/// An ellipsoid of revolution: the shape geodesics are measured on.
///
/// The series of the method are accurate to round-off when |f| ≤ 1/150 (distances within
/// about 15 nm on an Earth-sized ellipsoid). Their truncation error grows like f⁷; at the limit
/// |f| = 1/50, beyond which an ellipsoid is refused, spot checks against the exact integrals
/// (numerical quadrature) still agree within 10 nm on an Earth-sized ellipsoid.
/// A negative flattening is a prolate ellipsoid; f = 0 is a sphere.
public struct Ellipsoid: Sendable {
    /// The equatorial radius a, in meters.
    public let equatorialRadius: Double
    /// The flattening f = (a − b) / a; 0 for a sphere, negative for a prolate ellipsoid.
    public let flattening: Double

    /// The polar semi-axis b = a (1 − f), in meters.
    let polarRadius: Double
    /// 1 − f, the ratio b / a.
    let axisRatio: Double
    /// The second eccentricity squared e'² = (a² − b²) / b².
    let secondEccentricitySquared: Double
    /// The third flattening n = (a − b) / (a + b).
    let thirdFlattening: Double
    /// Below this arc on the auxiliary sphere (radians) the short-line estimate of the inverse
    /// problem is already exact to round-off: its error is of order f σ³.
    let shortArcLimit: Double
    /// A3(ε) = 1 + Σ a3[k] εᵏ (k = 1...5): the factor of the longitude integral, coefficients
    /// already evaluated at this ellipsoid's n.
    let a3: (Double, Double, Double, Double, Double)
    /// C3l(ε) for l = 1...5, its coefficients of ε^l...ε⁵ evaluated at this ellipsoid's n.
    let c3: SeriesC3

    /// The coefficients c3lk of C3l(ε) = Σ c3lk εᵏ (k = l...5) for one value of n.
    struct SeriesC3: Sendable {
        let c11, c12, c13, c14, c15: Double
        let c22, c23, c24, c25: Double
        let c33, c34, c35: Double
        let c44, c45: Double
        let c55: Double
    }

    /// The largest |flattening| accepted, 1/50.
    public static let maximumFlattening = 1.0 / 50

    /// An ellipsoid with equatorial radius `equatorialRadius` (meters) and flattening `flattening`.
    /// - Throws: `.notFinite` for NaN or infinite values; `.outOfRange` for a radius outside
    ///   (0, 1e300] (so no distance on it can overflow) or a flattening outside [-1/50, 1/50].
    public init(equatorialRadius: Double, flattening: Double) throws(GeoLocError) {
        guard equatorialRadius.isFinite else {
            throw GeoLocError(.notFinite, "equatorial radius \(show(equatorialRadius)) is not finite")
        }
        guard flattening.isFinite else {
            throw GeoLocError(.notFinite, "flattening \(show(flattening)) is not finite")
        }
        guard equatorialRadius > 0 && equatorialRadius <= 1e300 else {
            throw GeoLocError(.outOfRange, "equatorial radius \(show(equatorialRadius)) is outside (0, 1e300]")
        }
        guard abs(flattening) <= Ellipsoid.maximumFlattening else {
            throw GeoLocError(
                .outOfRange, "flattening \(show(flattening)) is outside [-1/50, 1/50], where the series are accurate")
        }
        self.init(checkedEquatorialRadius: equatorialRadius, flattening: flattening)
    }

    /// The WGS84 ellipsoid: a = 6,378,137 m, f = 1/298.257223563.
    public static let wgs84 = Ellipsoid(checkedEquatorialRadius: 6_378_137, flattening: 1 / 298.257223563)

    init(checkedEquatorialRadius a: Double, flattening f: Double) {
        equatorialRadius = a
        flattening = f
        axisRatio = 1 - f
        polarRadius = a * (1 - f)
        let e2 = f * (2 - f)
        secondEccentricitySquared = e2 / ((1 - f) * (1 - f))
        let n = f / (2 - f)
        thirdFlattening = n
        // The short-line error f σ³ / 2 (roughly) equals the round-off ε σ at this σ; the floor on
        // |f| keeps the limit sane for a nearly spherical ellipsoid.
        shortArcLimit = 0.1 * Geodesic.sqrtEpsilon / (max(0.001, abs(f)) * min(1, 1 - f / 2) / 2).squareRoot()
        // A3 to order ε⁵ (the longitude integral is multiplied by f, so this is order 6).
        a3 = (
            -(1.0 / 2 - n / 2),
            -(1.0 / 4 + n / 8 - 3 * n * n / 8),
            -(1.0 / 16 + 3 * n / 16 + n * n / 16),
            -(3.0 / 64 + n / 32),
            -3.0 / 128
        )
        // C3l to order ε⁵.
        c3 = SeriesC3(
            c11: 1.0 / 4 - n / 4,
            c12: 1.0 / 8 - n * n / 8,
            c13: 3.0 / 64 + 3 * n / 64 - n * n / 64,
            c14: 5.0 / 128 + n / 64,
            c15: 3.0 / 128,
            c22: 1.0 / 16 - 3 * n / 32 + n * n / 32,
            c23: 3.0 / 64 - n / 32 - 3 * n * n / 64,
            c24: 3.0 / 128 + n / 128,
            c25: 5.0 / 256,
            c33: 5.0 / 192 - 3 * n / 64 + 5 * n * n / 192,
            c34: 3.0 / 128 - 5 * n / 192,
            c35: 7.0 / 512,
            c44: 7.0 / 512 - 7 * n / 256,
            c45: 7.0 / 512,
            c55: 21.0 / 2560)
    }
}

/// The solution of the inverse geodesic problem: the shortest path between two points.
public struct GeodesicInverse: Sendable, Equatable {
    /// The length of the geodesic, in meters (≥ 0).
    public var distance: Double
    /// The azimuth at the first point, in degrees clockwise from north, in [-180, 180].
    public var initialAzimuth: Double
    /// The azimuth at the second point (the direction of travel on arrival), in degrees clockwise
    /// from north, in [-180, 180].
    public var finalAzimuth: Double

    public init(distance: Double, initialAzimuth: Double, finalAzimuth: Double) {
        self.distance = distance
        self.initialAzimuth = initialAzimuth
        self.finalAzimuth = finalAzimuth
    }
}

/// The solution of the direct geodesic problem: where a geodesic of given start, azimuth and
/// length ends.
public struct GeodesicDirect: Sendable, Equatable {
    /// The end point; its longitude is reduced to [-180, 180) as every `Coordinate`'s.
    public var destination: Coordinate
    /// The azimuth at the end point (the direction of travel there), in degrees clockwise from
    /// north, in [-180, 180].
    public var finalAzimuth: Double

    public init(destination: Coordinate, finalAzimuth: Double) {
        self.destination = destination
        self.finalAzimuth = finalAzimuth
    }
}

/// The shortest path from `a` to `b` on `ellipsoid` (the inverse geodesic problem), by Karney's
/// method: accurate to about 15 nm on WGS84, for any pair of points.
///
/// Identical points give distance 0 (also at a pole, whatever the longitudes). Where the shortest
/// path is not unique the azimuths are GeographicLib's: exact antipodes are joined along the
/// meridian over the pole of the first point's hemisphere, northwards from a point on the
/// equator (azimuths 0 and 180; a latitude of -0 counts as southern).
/// - Parameters:
///   - a: the first point.
///   - b: the second point.
///   - ellipsoid: the ellipsoid (WGS84 by default).
/// - Returns: the distance in meters and the azimuths at both ends in degrees.
public func geodesicInverse(from a: Coordinate, to b: Coordinate, on ellipsoid: Ellipsoid = .wgs84) -> GeodesicInverse {
    let r = ellipsoid.inverse(lat1: a.latitude, lon1: a.longitude, lat2: b.latitude, lon2: b.longitude)
    return GeodesicInverse(
        distance: r.distance,
        initialAzimuth: Geodesic.atan2Degrees(r.sinAzimuth1, r.cosAzimuth1),
        finalAzimuth: Geodesic.atan2Degrees(r.sinAzimuth2, r.cosAzimuth2))
}

/// Where the geodesic from `start` with initial `azimuth` ends after `distance` (the direct
/// geodesic problem), by Karney's method: accurate to about 15 nm on WGS84.
///
/// - Parameters:
///   - start: the first point.
///   - azimuth: the initial azimuth in degrees clockwise from north; any finite value
///     (reduced modulo 360).
///   - distance: the length to travel in meters; any finite value. A negative distance travels
///     backwards along the same geodesic (the destination lies behind `start`, and the final
///     azimuth is still the geodesic's forward direction there). Lengths beyond a full circuit
///     simply keep going round.
///   - ellipsoid: the ellipsoid (WGS84 by default).
/// - Throws: `.notFinite` when `azimuth` or `distance` is NaN or infinite.
/// - Returns: the end point (longitude reduced to [-180, 180)) and the azimuth there.
public func geodesicDirect(
    from start: Coordinate, azimuth: Double, distance: Double, on ellipsoid: Ellipsoid = .wgs84
) throws(GeoLocError) -> GeodesicDirect {
    guard azimuth.isFinite else { throw GeoLocError(.notFinite, "azimuth \(show(azimuth)) is not finite") }
    guard distance.isFinite else { throw GeoLocError(.notFinite, "distance \(show(distance)) is not finite") }
    let r = ellipsoid.direct(lat1: start.latitude, lon1: start.longitude, azimuth1: azimuth, distance: distance)
    return GeodesicDirect(
        destination: Coordinate(checkedLatitude: r.latitude, longitude: r.longitude),
        finalAzimuth: r.azimuth2)
}

/// The geodesic distance in meters on WGS84 between two points in degrees: the fast path of the
/// batch and `EarthModel.wgs84` distances. The latitudes must be within [-90, 90] and the
/// longitudes finite (not checked). Allocates nothing.
@inline(__always)
func wgs84Distance(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
    Ellipsoid.wgs84.inverse(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2).distance
}

// MARK: - The Earth model

extension Coordinate {
    /// The distance to `other` on `model`, in `unit`: every distance of the library goes
    /// through here (or through the batch loops below, which give the same bits).
    @inline(__always)
    func distance(to other: Coordinate, model: EarthModel, unit: DistanceUnit) -> Double {
        switch model {
        case .sphere:
            return sphereDistance(to: other, radius: Earth.meanRadius / unit.meters)
        case .wgs84:
            let meters = wgs84Distance(lat1: latitude, lon1: longitude, lat2: other.latitude, lon2: other.longitude)
            return meters / unit.meters
        }
    }
}

extension BatchDistance {
    /// The WGS84 branch of `pairs`: points already checked, longitudes reduced as `Coordinate`
    /// reduces them, so each result is bit-identical to the scalar `distance`.
    static func wgs84Pairs(
        _ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, count n: Int,
        into out: UnsafeMutablePointer<Double>, unit: DistanceUnit
    ) {
        let perMeter = unit.meters
        let e = Ellipsoid.wgs84
        for i in 0..<n {
            out[i] = e.inverse(
                lat1: a[2 * i], lon1: normalizedLongitude(a[2 * i + 1]),
                lat2: b[2 * i], lon2: normalizedLongitude(b[2 * i + 1])).distance / perMeter
        }
    }

    /// The WGS84 branch of `oneToMany`.
    static func wgs84OneToMany(
        _ origin: Coordinate, _ points: UnsafePointer<Double>, count n: Int,
        into out: UnsafeMutablePointer<Double>, unit: DistanceUnit
    ) {
        let perMeter = unit.meters
        let e = Ellipsoid.wgs84
        for i in 0..<n {
            out[i] = e.inverse(
                lat1: origin.latitude, lon1: origin.longitude,
                lat2: points[2 * i], lon2: normalizedLongitude(points[2 * i + 1])).distance / perMeter
        }
    }
}

// The computations are in GeodesicSeries.swift (angles exact to the last bit, the series of the
// method) and GeodesicSolvers.swift (the inverse and direct solutions).
