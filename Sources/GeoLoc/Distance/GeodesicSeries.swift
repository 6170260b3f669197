#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The angles and series of the geodesic computations (Geodesic.swift): angles reduced and
// converted without losing a bit, exact sums, and the series in ε and n of Karney's method.

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
