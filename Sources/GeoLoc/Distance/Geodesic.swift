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

// MARK: - Angles and series

/// Constants and helpers of the geodesic computations.
enum Geodesic {
    /// Radians per degree.
    static let radiansPerDegree = 0.017453292519943295
    /// √(smallest normal double): small enough to stand for zero, large enough to square.
    static let tiny = 1.4916681462400413e-154
    /// The machine epsilon, 2⁻⁵².
    static let epsilon = 2.220446049250313e-16
    /// √epsilon.
    static let sqrtEpsilon = 1.4901161193847656e-08
    /// Newton steps before the iteration may only bisect.
    static let newtonSteps = 20
    /// All steps: enough bisections after that to pin α1 down to the last bit of sin α1 and
    /// cos α1, from a bracket as wide as (0, π).
    static let maximumSteps = newtonSteps + 100

    /// Rounds an angle in degrees below 1/16 in magnitude to a multiple of 2⁻⁵⁷ degrees (0.7 pm
    /// on the Earth): a tiny angle (1e-200) becomes exactly 0 instead of a near-singular case.
    @inline(__always)
    static func rounded(_ x: Double) -> Double {
        let z = 1.0 / 16
        var y = abs(x)
        if y < z { y = z - (z - y) }
        return x.sign == .minus ? -y : y
    }

    /// Sine and cosine of an angle in degrees. The argument is reduced exactly, so multiples of
    /// 90° give exact results; the cosine is never -0, and a zero sine has the sign of `x`.
    @inline(__always)
    static func sinCos(degrees x: Double) -> (sin: Double, cos: Double) {
        var r = abs(x) < 360 ? x : fmod(x, 360)  // exact
        let q = roundedToEven(r / 90)
        r -= 90 * q  // exact, |r| <= 45
        return quadrant(Int(q), radians: r * radiansPerDegree, sign: x)
    }

    /// x rounded to the nearest integer, ties to even, for |x| < 2⁵¹ (as rint, without a call:
    /// adding and subtracting 1.5 × 2⁵² leaves no bits below the unit).
    @inline(__always)
    static func roundedToEven(_ x: Double) -> Double {
        let magic = 6_755_399_441_055_744.0
        return (x + magic) - magic
    }

    /// remainder(x, 360), skipping the call when x is already in [-180, 180].
    @inline(__always)
    static func remainder360(_ x: Double) -> Double {
        abs(x) <= 180 ? x : remainder(x, 360)
    }

    /// Sine and cosine of (x + t) degrees for x in [-180, 180] and a small correction t (the
    /// error term of an exact difference).
    @inline(__always)
    static func sinCos(degrees x: Double, plus t: Double) -> (sin: Double, cos: Double) {
        let q = roundedToEven(x / 90)
        let r = x - 90 * q  // exact
        return quadrant(Int(q), radians: rounded(r + t) * radiansPerDegree, sign: x)
    }

    /// sin and cos of r radians turned by q quarter turns; zeros signed as `sinCos` promises.
    @inline(__always)
    static func quadrant(_ q: Int, radians r: Double, sign x: Double) -> (sin: Double, cos: Double) {
        let s0 = sin(r), c0 = cos(r)
        var s: Double, c: Double
        switch q & 3 {
        case 0: (s, c) = (s0, c0)
        case 1: (s, c) = (c0, -s0)
        case 2: (s, c) = (-s0, -c0)
        default: (s, c) = (-c0, s0)
        }
        c += 0
        if s == 0 { s = x.sign == .minus ? -0.0 : 0.0 }
        return (s, c)
    }

    /// atan2 in degrees, in [-180, 180], exact for the axis directions (atan2Degrees(1, 0) is
    /// exactly 90, atan2Degrees(±0, -1) is ±180).
    @inline(__always)
    static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        var x = x, y = y, q = 0
        if abs(y) > abs(x) { swap(&x, &y); q = 2 }
        if x < 0 { x = -x; q += 1 }
        let angle = atan2(y, x) / radiansPerDegree
        switch q {
        case 1: return (y.sign == .minus ? -180 : 180) - angle
        case 2: return 90 - angle
        case 3: return -90 + angle
        default: return angle
        }
    }

    /// The sum of two doubles as the rounded sum and its exact rounding error (Knuth's TwoSum).
    @inline(__always)
    static func exactSum(_ u: Double, _ v: Double) -> (sum: Double, error: Double) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        let t = s != 0 ? 0 - (up + vpp) : s
        return (s, t)
    }

    /// y − x reduced to [-180, 180] as an exact pair (difference, error): difference + error is
    /// the true difference modulo 360, with |error| below half an ulp of the difference.
    /// 180 means eastwards (or along a meridian); -180 only westwards.
    @inline(__always)
    static func angleDifference(_ x: Double, _ y: Double) -> (difference: Double, error: Double) {
        var (d, t) = exactSum(remainder360(-x), remainder360(y))
        (d, t) = exactSum(remainder360(d), t)
        if d == 0 || abs(d) == 180 {
            let sign = t == 0 ? y - x : -t
            d = sign.sign == .minus ? -abs(d) : abs(d)
        }
        return (d, t)
    }

    /// Reduces an angle in degrees to [-180, 180] (180 keeps the sign of the input).
    @inline(__always)
    static func normalized(_ x: Double) -> Double {
        let y = remainder360(x)
        if abs(y) == 180 { return x.sign == .minus ? -180 : 180 }
        return y
    }

    /// (x, y) scaled to unit length.
    @inline(__always)
    static func normalize(_ x: inout Double, _ y: inout Double) {
        let r = hypotenuse(x, y)
        x /= r
        y /= r
    }

    /// √(x² + y²), much faster than hypot. The operands here are sines and cosines (or
    /// multiples of them bounded by about 2), so nothing overflows; both are tiny only at an
    /// exact pole, which the meridian branch of the inverse handles before any use.
    @inline(__always)
    static func hypotenuse(_ x: Double, _ y: Double) -> Double {
        (x * x + y * y).squareRoot()
    }

    /// The six coefficients of a sine series Σ cₗ sin 2lσ.
    struct Six {
        var c1, c2, c3, c4, c5, c6: Double
    }

    /// Σ cₗ sin 2lσ (l = 1...6) given sin σ and cos σ, by Clenshaw summation.
    @inline(__always)
    static func sineSeries(_ s: Double, _ c: Double, _ k: Six) -> Double {
        let ar = 2 * (c - s) * (c + s)  // 2 cos 2σ
        let b6 = k.c6
        let b5 = ar * b6 + k.c5
        let b4 = ar * b5 - b6 + k.c4
        let b3 = ar * b4 - b5 + k.c3
        let b2 = ar * b3 - b4 + k.c2
        let b1 = ar * b2 - b3 + k.c1
        return 2 * s * c * b1
    }

    /// Σ cₗ sin 2lσ (l = 1...5) given sin σ and cos σ.
    @inline(__always)
    static func sineSeries(
        _ s: Double, _ c: Double, _ k: (Double, Double, Double, Double, Double)
    ) -> Double {
        let ar = 2 * (c - s) * (c + s)
        let b5 = k.4
        let b4 = ar * b5 + k.3
        let b3 = ar * b4 - b5 + k.2
        let b2 = ar * b3 - b4 + k.1
        let b1 = ar * b2 - b3 + k.0
        return 2 * s * c * b1
    }

    /// A1 − 1, where s / b = I1(σ) = A1 (σ + B1(σ)) (the integral of eq. (7)).
    @inline(__always)
    static func a1Minus1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (1.0 / 4 + e2 * (1.0 / 64 + e2 / 256))
        return (t + eps) / (1 - eps)
    }

    /// C1l(ε), the coefficients of B1(σ) = Σ C1l sin 2lσ.
    @inline(__always)
    static func c1(_ eps: Double) -> Six {
        let e2 = eps * eps
        let e3 = e2 * eps, e4 = e2 * e2
        return Six(
            c1: eps * (-1.0 / 2 + e2 * (3.0 / 16 - e2 / 32)),
            c2: e2 * (-1.0 / 16 + e2 * (1.0 / 32 - e2 * 9 / 2048)),
            c3: e3 * (-1.0 / 48 + e2 * 3 / 256),
            c4: e4 * (-5.0 / 512 + e2 * 3 / 512),
            c5: e4 * eps * (-7.0 / 1280),
            c6: e4 * e2 * (-7.0 / 2048))
    }

    /// C1′l(ε), the coefficients of the reverted series σ = τ + Σ C1′l sin 2lτ: eq. (21).
    @inline(__always)
    static func c1Prime(_ eps: Double) -> Six {
        let e2 = eps * eps
        let e3 = e2 * eps, e4 = e2 * e2
        return Six(
            c1: eps * (1.0 / 2 + e2 * (-9.0 / 32 + e2 * 205 / 1536)),
            c2: e2 * (5.0 / 16 + e2 * (-37.0 / 96 + e2 * 1335 / 4096)),
            c3: e3 * (29.0 / 96 - e2 * 75 / 128),
            c4: e4 * (539.0 / 1536 - e2 * 2391 / 2560),
            c5: e4 * eps * (3467.0 / 7680),
            c6: e4 * e2 * (38081.0 / 61440))
    }

    /// A2 − 1, where I2(σ) = A2 (σ + B2(σ)) = ∫ dσ / √(1 + k² sin²σ): (1 + ε) A2 =
    /// 1 − 3ε²/4 − 7ε⁴/64 − 11ε⁶/256.
    @inline(__always)
    static func a2Minus1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (-3.0 / 4 + e2 * (-7.0 / 64 - e2 * 11 / 256))
        return (t - eps) / (1 + eps)
    }

    /// C2l(ε), the coefficients of B2(σ) = Σ C2l sin 2lσ (checked against the Fourier series
    /// of 1 / √(1 + k² sin²σ) to order ε⁶).
    @inline(__always)
    static func c2(_ eps: Double) -> Six {
        let e2 = eps * eps
        let e3 = e2 * eps, e4 = e2 * e2
        return Six(
            c1: eps * (1.0 / 2 + e2 * (1.0 / 16 + e2 / 32)),
            c2: e2 * (3.0 / 16 + e2 * (1.0 / 32 + e2 * 35 / 2048)),
            c3: e3 * (5.0 / 48 + e2 * 5 / 256),
            c4: e4 * (35.0 / 512 + e2 * 7 / 512),
            c5: e4 * eps * (63.0 / 1280),
            c6: e4 * e2 * (77.0 / 2048))
    }

    /// ε = k² / (√(1 + k²) + 1)², the expansion parameter of a geodesic with k² = e'² cos²α0.
    @inline(__always)
    static func expansionParameter(_ k2: Double) -> Double {
        k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
    }

    /// The positive root k of k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0, the astroid problem
    /// whose solution starts the iteration for nearly antipodal points. Solved in closed form:
    /// a resolvent cubic in u, then a quadratic in k.
    static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x, q = y * y
        let r = (p + q - 1) / 6
        if q == 0 && r <= 0 {
            // y = 0 and |x| <= 1: the root is k = 0 (the geodesic leaves the equator).
            return 0
        }
        let s = p * q / 4
        let r2 = r * r, r3 = r * r2
        // The resolvent cubic has one real root when this discriminant is >= 0, three otherwise.
        let disc = s * (s + 2 * r3)
        var u = r
        if disc >= 0 {
            // One real root: Cardano, picking the sign that avoids cancellation.
            var t3 = s + r3
            t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            // Three real roots: the trigonometric form, taking the largest.
            let angle = atan2((-disc).squareRoot(), -(s + r3))
            u += 2 * r * cos(angle / 3)
        }
        let v = (u * u + q).squareRoot()  // > 0
        // u + v without cancellation when u < 0.
        let uv = u < 0 ? q / (v - u) : u + v
        let w = (uv - q) / (2 * v)
        // k = √(uv + w²) − w, written to avoid cancellation.
        return uv / ((uv + w * w).squareRoot() + w)
    }
}

// MARK: - The solvers

extension Ellipsoid {
    /// The inverse solution in the canonical sines and cosines of the azimuths (not normalised
    /// to unit length, but each pair with the right direction).
    struct InverseResult {
        var distance: Double
        var sinAzimuth1: Double, cosAzimuth1: Double
        var sinAzimuth2: Double, cosAzimuth2: Double
    }

    /// A3(ε).
    @inline(__always)
    func a3(_ eps: Double) -> Double {
        1 + eps * (a3.0 + eps * (a3.1 + eps * (a3.2 + eps * (a3.3 + eps * a3.4))))
    }

    /// C3l(ε), l = 1...5.
    @inline(__always)
    func c3(_ eps: Double) -> (Double, Double, Double, Double, Double) {
        let k = c3
        let e2 = eps * eps
        let e3 = e2 * eps
        return (
            eps * (k.c11 + eps * (k.c12 + eps * (k.c13 + eps * (k.c14 + eps * k.c15)))),
            e2 * (k.c22 + eps * (k.c23 + eps * (k.c24 + eps * k.c25))),
            e3 * (k.c33 + eps * (k.c34 + eps * k.c35)),
            e2 * e2 * (k.c44 + eps * k.c45),
            e3 * e2 * k.c55
        )
    }

    /// The distance s12 / b along the auxiliary sphere from σ1 to σ2 = σ1 + sig12:
    /// A1 (σ12 + B1(σ2) − B1(σ1)).
    @inline(__always)
    func distanceOverB(
        eps: Double, sig12: Double, ssig1: Double, csig1: Double, ssig2: Double, csig2: Double
    ) -> Double {
        let c = Geodesic.c1(eps)
        let b12 = Geodesic.sineSeries(ssig2, csig2, c) - Geodesic.sineSeries(ssig1, csig1, c)
        return (1 + Geodesic.a1Minus1(eps)) * (sig12 + b12)
    }

    /// The reduced length m12 / b and the constant m0 = A1 − A2 of J(σ) = I1(σ) − I2(σ).
    @inline(__always)
    func reducedLengthOverB(
        eps: Double, sig12: Double, ssig1: Double, csig1: Double, dn1: Double,
        ssig2: Double, csig2: Double, dn2: Double
    ) -> (m12: Double, m0: Double) {
        let a1m1 = Geodesic.a1Minus1(eps), a2m1 = Geodesic.a2Minus1(eps)
        let c1 = Geodesic.c1(eps), c2 = Geodesic.c2(eps)
        let a1 = 1 + a1m1, a2 = 1 + a2m1
        // J(σ) = (A1 − A2) σ + Σ (A1 C1l − A2 C2l) sin 2lσ.
        let cj = Geodesic.Six(
            c1: a1 * c1.c1 - a2 * c2.c1, c2: a1 * c1.c2 - a2 * c2.c2, c3: a1 * c1.c3 - a2 * c2.c3,
            c4: a1 * c1.c4 - a2 * c2.c4, c5: a1 * c1.c5 - a2 * c2.c5, c6: a1 * c1.c6 - a2 * c2.c6)
        let m0 = a1m1 - a2m1
        let j12 = m0 * sig12 + (Geodesic.sineSeries(ssig2, csig2, cj) - Geodesic.sineSeries(ssig1, csig1, cj))
        // √(1 + k² sin²σ) cos σ1 sin σ2 − ... with √(1 + k² sin²σ) = √(1 + e'² sin²β) = dn.
        let m12 = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return (m12, m0)
    }

    /// sin and cos of the reduced latitude β of a latitude in degrees; cos β is kept at least
    /// `tiny`, so a pole behaves as a point a hair away from it with a defined longitude.
    @inline(__always)
    func reducedLatitude(_ lat: Double) -> (sin: Double, cos: Double) {
        var (s, c) = Geodesic.sinCos(degrees: lat)
        s *= axisRatio
        Geodesic.normalize(&s, &c)
        return (s, max(Geodesic.tiny, c))
    }

    /// The state of one evaluation of λ12(α1) in the Newton iteration.
    struct LongitudeMismatch {
        /// λ12(α1) minus the wanted λ12, radians.
        var value: Double
        var salp2: Double, calp2: Double
        var sig12: Double
        var ssig1: Double, csig1: Double, ssig2: Double, csig2: Double
        var eps: Double
    }

    /// λ12 reached by the geodesic leaving point 1 at azimuth (salp1, calp1) when it gets to the
    /// latitude of point 2, minus the wanted λ12 (given by its sine and cosine, so the difference
    /// keeps full precision near 180°). Points are canonical: β1 <= 0, |β2| <= |β1|, α1 in [0, π].
    @inline(__always)
    func longitudeMismatch(
        sbet1: Double, cbet1: Double, sbet2: Double, cbet2: Double,
        salp1: Double, calp1 calp1In: Double, slam12: Double, clam12: Double
    ) -> LongitudeMismatch {
        var calp1 = calp1In
        // On the equator heading due north or south is the meridian; nudge it off the equator
        // so that the two cases below agree.
        if sbet1 == 0 && calp1 == 0 { calp1 = -Geodesic.tiny }
        // Clairaut: sin α0 = sin α1 cos β1.
        let salp0 = salp1 * cbet1
        let calp0 = Geodesic.hypotenuse(calp1, salp1 * sbet1)
        // tan β1 = tan σ1 cos α1, tan ω1 = sin α0 tan σ1.
        var ssig1 = sbet1, csig1 = calp1 * cbet1
        let somg1 = salp0 * sbet1, comg1 = calp1 * cbet1
        Geodesic.normalize(&ssig1, &csig1)
        // sin α2 = sin α0 / cos β2; cos α2 from cos²α2 cos²β2 = cos²α1 cos²β1 + cos²β2 − cos²β1,
        // with the difference of squares taken in the better-conditioned form.
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        let calp2: Double
        if cbet2 != cbet1 || abs(sbet2) != -sbet1 {
            let change = cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2)
            let c = calp1 * cbet1
            calp2 = max(0, c * c + change).squareRoot() / cbet2
        } else {
            calp2 = abs(calp1)
        }
        var ssig2 = sbet2, csig2 = calp2 * cbet2
        let somg2 = salp0 * sbet2, comg2 = calp2 * cbet2
        Geodesic.normalize(&ssig2, &csig2)
        // σ12 and ω12 in [0, π], by their sines and cosines.
        let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
        let somg12 = max(0, comg1 * somg2 - somg1 * comg2) + 0
        let comg12 = comg1 * comg2 + somg1 * somg2
        // ω12 − λ12(wanted) as one angle.
        let eta = atan2(somg12 * clam12 - comg12 * slam12, comg12 * clam12 + somg12 * slam12)
        let eps = Geodesic.expansionParameter(calp0 * calp0 * secondEccentricitySquared)
        let c3 = c3(eps)
        let b312 = Geodesic.sineSeries(ssig2, csig2, c3) - Geodesic.sineSeries(ssig1, csig1, c3)
        // λ12 = ω12 − f sin α0 A3 (σ12 + B3(σ2) − B3(σ1)).
        let domg12 = -flattening * a3(eps) * salp0 * (sig12 + b312)
        return LongitudeMismatch(
            value: eta + domg12, salp2: salp2, calp2: calp2, sig12: sig12,
            ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2, eps: eps)
    }

    /// dλ12/dα1 at the state `m` of `longitudeMismatch`, taken only when a Newton step needs it.
    @inline(__always)
    func mismatchDerivative(_ m: LongitudeMismatch, sbet1: Double, dn1: Double, cbet2: Double, dn2: Double) -> Double {
        if m.calp2 == 0 {
            // α2 = 90°: the limit of the formula below, dλ12/dα1 = −2 w1 / sin β1.
            return -2 * axisRatio * dn1 / sbet1
        }
        // dλ12/dα1 = m12 / (a cos α2 cos β2).
        let r = reducedLengthOverB(
            eps: m.eps, sig12: m.sig12, ssig1: m.ssig1, csig1: m.csig1, dn1: dn1,
            ssig2: m.ssig2, csig2: m.csig2, dn2: dn2)
        return r.m12 * axisRatio / (m.calp2 * cbet2)
    }

    /// The first estimate of α1, or the whole solution for very short lines.
    struct InverseStart {
        var salp1: Double, calp1: Double
        /// Set when the short-line estimate is already exact: σ12, α2 and the mean w.
        var solved: (sig12: Double, salp2: Double, calp2: Double, dnm: Double)?
    }

    func inverseStart(
        sbet1: Double, cbet1: Double, sbet2: Double, cbet2: Double,
        lam12: Double, slam12: Double, clam12: Double
    ) -> InverseStart {
        let f = flattening, n = thirdFlattening
        // β2 − β1 and β2 + β1.
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1
        // Short lines: ω12 ≈ λ12 / w with w = √(1 − e² cos²β) at the mean reduced latitude
        // (here w = (1 − f) √(1 + e'² sin²β)).
        let shortLine = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12: Double, comg12: Double
        var dnm = 1.0
        if shortLine {
            var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
            sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
            dnm = (1 + secondEccentricitySquared * sbetm2).squareRoot()
            let omg12 = lam12 / (axisRatio * dnm)
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        } else {
            somg12 = slam12
            comg12 = clam12
        }
        // The great circle on the auxiliary sphere: tan α1 = cos β2 sin ω12 /
        // (cos β1 sin β2 − sin β1 cos β2 cos ω12), the denominator in a form without
        // cancellation.
        var salp1 = cbet2 * somg12
        var calp1 = comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
        let ssig12 = Geodesic.hypotenuse(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12
        if shortLine && ssig12 < shortArcLimit {
            // Really short: the spherical solution is the answer.
            var salp2 = cbet1 * somg12
            var calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? somg12 * somg12 / (1 + comg12) : 1 - comg12)
            Geodesic.normalize(&salp2, &calp2)
            Geodesic.normalize(&salp1, &calp1)
            return InverseStart(
                salp1: salp1, calp1: calp1, solved: (atan2(ssig12, csig12), salp2, calp2, dnm))
        }
        if abs(n) > 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * Double.pi * cbet1 * cbet1 {
            // Not nearly antipodal: the great circle is a good enough start.
        } else {
            // Nearly antipodal (σ12 within about 6|n|π cos²β1 of π). Scale λ12 − π and β1 + β2
            // by the size of the antipodal region and solve the astroid.
            let lam12x = atan2(-slam12, -clam12)  // λ12 − π, in [-π, 0]
            let x: Double, y: Double, lamScale: Double, betScale: Double
            if f >= 0 {
                // Oblate: the size of the region is f π cos β1 A3, with A3 taken for the
                // geodesic that grazes the antipode (sin α0 = cos β1, so k² = e'² sin²β1).
                let eps = Geodesic.expansionParameter(sbet1 * sbet1 * secondEccentricitySquared)
                lamScale = f * cbet1 * a3(eps) * Double.pi
                betScale = lamScale * cbet1
                x = lam12x / lamScale
                y = sbet12a / betScale
            } else {
                // Prolate: the roles of x and y swap; the scale comes from the reduced length of
                // the meridian through the antipode.
                let cbet12a = cbet2 * cbet1 - sbet2 * sbet1
                let bet12a = atan2(sbet12a, cbet12a)
                let sig = Double.pi + bet12a
                let eps = thirdFlattening  // a meridian: k² = e'², ε = n
                let dn1 = (1 + secondEccentricitySquared * sbet1 * sbet1).squareRoot()
                let dn2 = (1 + secondEccentricitySquared * sbet2 * sbet2).squareRoot()
                let m = reducedLengthOverB(
                    eps: eps, sig12: sig, ssig1: sbet1, csig1: -cbet1, dn1: dn1,
                    ssig2: sbet2, csig2: cbet2, dn2: dn2)
                let xp = -1 + m.m12 / (cbet1 * cbet2 * m.m0 * Double.pi)
                betScale = xp < -0.01 ? sbet12a / xp : -f * cbet1 * cbet1 * Double.pi
                lamScale = betScale / cbet1
                x = xp
                y = lam12x / lamScale
            }
            let tol1 = 200 * Geodesic.epsilon
            let xThreshold = 1000 * Geodesic.sqrtEpsilon
            if y > -tol1 && x > -1 - xThreshold {
                // The astroid degenerates (y ≈ 0): the points are nearly on the equator.
                if f >= 0 {
                    salp1 = min(1, -x)
                    calp1 = -(1 - salp1 * salp1).squareRoot()
                } else {
                    calp1 = max(x > -tol1 ? 0 : -1, x)
                    salp1 = (1 - calp1 * calp1).squareRoot()
                }
            } else {
                // With k the astroid root, ω12 follows, and α1 from the sphere again (a better
                // start than the direct formula for α1 in terms of x, y and k).
                let k = Geodesic.astroid(x, y)
                let omg12a = lamScale * (f >= 0 ? -x * k / (1 + k) : -y * (1 + k) / k)
                somg12 = sin(omg12a)
                comg12 = -cos(omg12a)
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
            }
        }
        if !(salp1 <= 0) {
            Geodesic.normalize(&salp1, &calp1)
        } else {
            salp1 = 1
            calp1 = 0
        }
        return InverseStart(salp1: salp1, calp1: calp1, solved: nil)
    }

    /// The inverse problem for raw degrees (latitudes in [-90, 90], longitudes finite).
    func inverse(lat1 latIn1: Double, lon1: Double, lat2 latIn2: Double, lon2: Double) -> InverseResult {
        // The longitude difference, exactly, made positive.
        var (lon12, lon12e) = Geodesic.angleDifference(lon1, lon2)
        var lonSign: Double = lon12.sign == .minus ? -1 : 1
        lon12 *= lonSign
        lon12e *= lonSign
        let lam12 = lon12 * Geodesic.radiansPerDegree
        let (slam12, clam12) = Geodesic.sinCos(degrees: lon12, plus: lon12e)
        // 180° − λ12 with the error term: how far the points are from facing meridians.
        let lon12Supplement = (180 - lon12) - lon12e

        // Canonical form: |lat1| >= |lat2|, lat1 <= 0, 0 <= lon12 <= 180. The signs undo it.
        var lat1 = Geodesic.rounded(latIn1), lat2 = Geodesic.rounded(latIn2)
        let swapped = abs(lat1) < abs(lat2)
        if swapped {
            lonSign = -lonSign
            swap(&lat1, &lat2)
        }
        let latSign: Double = lat1.sign == .minus ? 1 : -1
        lat1 *= latSign
        lat2 *= latSign

        let (sbet1, cbet1) = reducedLatitude(lat1)
        var (sbet2, cbet2) = reducedLatitude(lat2)
        // When |β2| = |β1| make it exactly so: the formula for cos α2 relies on the order.
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = sbet2.sign == .minus ? sbet1 : -sbet1 }
        } else if abs(sbet2) == -sbet1 {
            cbet2 = cbet1
        }
        let dn1 = (1 + secondEccentricitySquared * sbet1 * sbet1).squareRoot()
        let dn2 = (1 + secondEccentricitySquared * sbet2 * sbet2).squareRoot()

        var s12 = Double.nan
        var salp1 = 0.0, calp1 = 1.0, salp2 = 0.0, calp2 = 1.0
        var solved = false

        if lat1 == -90 || slam12 == 0 {
            // Both points on one meridian (or point 1 at a pole): try the meridian, heading
            // towards point 2's longitude and arriving northwards.
            calp1 = clam12
            salp1 = slam12
            calp2 = 1
            salp2 = 0
            let ssig1 = sbet1, csig1 = calp1 * cbet1
            let ssig2 = sbet2, csig2 = calp2 * cbet2
            let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
            // On a meridian α0 = 0, so k² = e'² and ε = n.
            let eps = thirdFlattening
            var s = distanceOverB(eps: eps, sig12: sig12, ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2)
            let m = reducedLengthOverB(
                eps: eps, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1, ssig2: ssig2, csig2: csig2, dn2: dn2
            ).m12
            // The meridian is the shortest path unless it runs past the conjugate point (m12 < 0),
            // which only a long one can; a very short one may show a rounding-level m12 < 0.
            if sig12 < Geodesic.sqrtEpsilon || m >= 0 {
                if sig12 < 3 * Geodesic.tiny || (sig12 < Geodesic.epsilon && (s < 0 || m < 0)) { s = 0 }
                s12 = s * polarRadius
                solved = true
            }
        }

        if !solved && sbet1 == 0 && (flattening <= 0 || lon12Supplement >= flattening * 180) {
            // Both on the equator (|lat2| <= |lat1| = 0), and not so far apart that the shortest
            // path leaves it: for λ12 > (1 − f) 180° it goes towards a pole instead.
            salp1 = 1; calp1 = 0
            salp2 = 1; calp2 = 0
            s12 = equatorialRadius * lam12
            solved = true
        }

        if !solved {
            let start = inverseStart(
                sbet1: sbet1, cbet1: cbet1, sbet2: sbet2, cbet2: cbet2, lam12: lam12, slam12: slam12, clam12: clam12)
            salp1 = start.salp1
            calp1 = start.calp1
            if let short = start.solved {
                s12 = short.sig12 * polarRadius * short.dnm
                salp2 = short.salp2
                calp2 = short.calp2
            } else {
                // Newton on α1, inside the bracket (α1a, α1b) of azimuths known to give λ12 too
                // small and too large; bisection when a step leaves it or stalls.
                var salp1a = Geodesic.tiny, calp1a = 1.0, salp1b = Geodesic.tiny, calp1b = -1.0
                var nearlyConverged = false, bracketClosed = false
                var step = 0
                var state: LongitudeMismatch
                while true {
                    state = longitudeMismatch(
                        sbet1: sbet1, cbet1: cbet1, sbet2: sbet2, cbet2: cbet2,
                        salp1: salp1, calp1: calp1, slam12: slam12, clam12: clam12)
                    let v = state.value
                    // Converged to round-off (the looser test after a Newton step that was
                    // already within 16 ulps), or the bracket is as small as it gets.
                    if bracketClosed || !(abs(v) >= (nearlyConverged ? 8 : 1) * Geodesic.epsilon)
                        || step == Geodesic.maximumSteps
                    {
                        break
                    }
                    // λ12 grows with α1; cot α1 falls with it.
                    if v > 0 && (step > Geodesic.newtonSteps || calp1 / salp1 > calp1b / salp1b) {
                        salp1b = salp1
                        calp1b = calp1
                    } else if v < 0 && (step > Geodesic.newtonSteps || calp1 / salp1 < calp1a / salp1a) {
                        salp1a = salp1
                        calp1a = calp1
                    }
                    step += 1
                    let derivative = step <= Geodesic.newtonSteps
                        ? mismatchDerivative(state, sbet1: sbet1, dn1: dn1, cbet2: cbet2, dn2: dn2) : 0
                    if derivative > 0 {
                        let dalp1 = -v / derivative
                        if abs(dalp1) < Double.pi {
                            let sd = sin(dalp1), cd = cos(dalp1)
                            let nsalp1 = salp1 * cd + calp1 * sd
                            if nsalp1 > 0 {
                                calp1 = calp1 * cd - salp1 * sd
                                salp1 = nsalp1
                                Geodesic.normalize(&salp1, &calp1)
                                nearlyConverged = abs(v) <= 16 * Geodesic.epsilon
                                continue
                            }
                        }
                    }
                    // Bisect (α1 stays in (0, π), where sin α1 > 0).
                    salp1 = (salp1a + salp1b) / 2
                    calp1 = (calp1a + calp1b) / 2
                    Geodesic.normalize(&salp1, &calp1)
                    nearlyConverged = false
                    // Done when the bracket cannot be split any further. (A fixed tolerance on
                    // sin and cos would stop too early where the geodesic nearly grazes the
                    // latitude of point 2, cos α1 → 0, and λ12 is very sensitive to α1.)
                    bracketClosed = (salp1 == salp1a && calp1 == calp1a) || (salp1 == salp1b && calp1 == calp1b)
                }
                s12 = polarRadius * distanceOverB(
                    eps: state.eps, sig12: state.sig12, ssig1: state.ssig1, csig1: state.csig1,
                    ssig2: state.ssig2, csig2: state.csig2)
                salp2 = state.salp2
                calp2 = state.calp2
            }
        }

        // Undo the canonical transformation.
        if swapped {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        let swapSign: Double = swapped ? -1 : 1
        salp1 *= swapSign * lonSign
        calp1 *= swapSign * latSign
        salp2 *= swapSign * lonSign
        calp2 *= swapSign * latSign
        return InverseResult(
            distance: 0 + s12, sinAzimuth1: salp1, cosAzimuth1: calp1, sinAzimuth2: salp2, cosAzimuth2: calp2)
    }

    /// The direct problem for raw degrees (latitude in [-90, 90]; longitude, azimuth and
    /// distance finite). Returns the end point (longitude in [-180, 180]) and azimuth in degrees.
    func direct(
        lat1: Double, lon1: Double, azimuth1: Double, distance s12: Double
    ) -> (latitude: Double, longitude: Double, azimuth2: Double) {
        let (salp1, calp1) = Geodesic.sinCos(degrees: Geodesic.rounded(Geodesic.normalized(azimuth1)))
        let (sbet1, cbet1) = reducedLatitude(Geodesic.rounded(lat1))
        // Clairaut, and σ1, ω1 at the first point.
        let salp0 = salp1 * cbet1
        let calp0 = Geodesic.hypotenuse(calp1, salp1 * sbet1)
        var ssig1 = sbet1
        let somg1 = salp0 * sbet1
        // Leaving the equator due east or west, σ1 = ω1 = 0.
        var csig1 = sbet1 != 0 || calp1 != 0 ? cbet1 * calp1 : 1
        let comg1 = csig1
        Geodesic.normalize(&ssig1, &csig1)
        let k2 = calp0 * calp0 * secondEccentricitySquared
        let eps = Geodesic.expansionParameter(k2)
        let a1m1 = Geodesic.a1Minus1(eps)
        let c1 = Geodesic.c1(eps)
        let b11 = Geodesic.sineSeries(ssig1, csig1, c1)
        // τ1 = σ1 + B1(σ1), the distance variable (eq. (7) over b A1).
        let s = sin(b11), c = cos(b11)
        let stau1 = ssig1 * c + csig1 * s
        let ctau1 = csig1 * c - ssig1 * s
        // τ12 = s12 / (b A1); σ2 = τ2 + B1′(τ2), with B1′(τ1) = −B1(σ1) (eqs. (20)–(21)).
        let unitLength = polarRadius * (1 + a1m1)  // s per unit of τ
        var tau12 = s12 / unitLength
        if !tau12.isFinite {
            // A length beyond the largest double in units of a tiny ellipsoid's b: the geodesic
            // repeats in τ with period 2π, so travel the remainder of the last circuit. (At such
            // a length no digit of the end point is meaningful; this keeps it finite.)
            tau12 = remainder(s12, 2 * Double.pi * unitLength) / unitLength
        }
        let st = sin(tau12), ct = cos(tau12)
        let b12 = -Geodesic.sineSeries(stau1 * ct + ctau1 * st, ctau1 * ct - stau1 * st, Geodesic.c1Prime(eps))
        var sig12 = tau12 - (b12 - b11)
        var ssig12 = sin(sig12), csig12 = cos(sig12)
        if abs(flattening) > 0.01 {
            // The reverted series loses accuracy for a more eccentric ellipsoid: one Newton
            // step on s(σ12) = s12, ds/dσ = b √(1 + k² sin²σ2), restores it.
            let ssig2 = ssig1 * csig12 + csig1 * ssig12
            let csig2 = csig1 * csig12 - ssig1 * ssig12
            let b1 = Geodesic.sineSeries(ssig2, csig2, c1)
            let serr = (1 + a1m1) * (sig12 + (b1 - b11)) - s12 / polarRadius
            sig12 -= serr / (1 + k2 * ssig2 * ssig2).squareRoot()
            ssig12 = sin(sig12)
            csig12 = cos(sig12)
        }
        // Point 2 on the auxiliary sphere.
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        var csig2 = csig1 * csig12 - ssig1 * ssig12
        let sbet2 = calp0 * ssig2
        var cbet2 = Geodesic.hypotenuse(salp0, calp0 * csig2)
        if cbet2 == 0 {
            // At a pole: stand a hair away, as the inverse does.
            cbet2 = Geodesic.tiny
            csig2 = Geodesic.tiny
        }
        let salp2 = salp0, calp2 = calp0 * csig2
        let somg2 = salp0 * ssig2, comg2 = csig2
        let omg12 = atan2(somg2 * comg1 - comg2 * somg1, comg2 * comg1 + somg2 * somg1)
        let c3 = c3(eps)
        let b31 = Geodesic.sineSeries(ssig1, csig1, c3)
        let b32 = Geodesic.sineSeries(ssig2, csig2, c3)
        let lam12 = omg12 - flattening * a3(eps) * salp0 * (sig12 + (b32 - b31))
        let lon12 = lam12 / Geodesic.radiansPerDegree
        let lon2 = Geodesic.normalized(Geodesic.normalized(lon1) + Geodesic.normalized(lon12))
        let lat2 = Geodesic.atan2Degrees(sbet2, axisRatio * cbet2)
        return (lat2, lon2, Geodesic.atan2Degrees(salp2, calp2))
    }
}
