#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(GeoLocKernels)
import GeoLocKernels
#endif

/// The batch haversine: `haversineDistance` for many pairs at once with SIMD vectors and no calls
/// into libm, for `BatchDistance.pairs` and `.oneToMany`.
///
/// It evaluates the scalar function's expression tree on the very same doubles: the same degree
/// differences and radian conversions (`(lat2 - lat1) * (π/360)`, `lat * (π/180)`, longitudes
/// reduced one by one as `normalizedLongitude` does), the same expressions for h and 1 - h (by
/// subtraction for h ≤ 1/2, as a sum of squares above), and replaces only the libm calls:
///
/// - sin and cos: one odd minimax polynomial for sin on [-π/2, π/2] (degree 17, relative error
///   below 3e-19 before rounding). Every argument in the formula lies in [-π, π], and one exact
///   step brings each sine and cosine into that interval: cos x = sin(π/2 - |x|), and for
///   π/2 < |x| < π (a longitude difference beyond 180°) |sin x| = sin(π - |x|),
///   |cos x| = sin(|x| - π/2). π/2 and π are split into a double and its rounding remainder and
///   the subtractions are exact (Sterbenz), so the reduced argument is the rounded true one: a
///   cosine near a pole or a sine near ±π keeps its relative precision, as glibc's does. Signs
///   are dropped: the formula only uses squares, and cos φ ≥ 0 on [-90°, 90°].
/// - atan2(√h, √c), c = 1 - h, for the half central angle α ∈ [0, π/2], with one square root and
///   one division: with m = min(h, c), M = max(h, c) and q = √(mM), β = atan √(m/M) ∈ [0, π/4]
///   is atan(q/M) when √(m/M) ≤ tan(π/8) and π/4 + atan((m - M)/(m + M + 2q)) otherwise (the
///   tangent of β - π/4); α = β for h ≤ c, π/2 - β otherwise. atan on [-tan(π/8), tan(π/8)] is a
///   minimax polynomial (degree 21, relative error below 4e-17).
///
/// Every lane computes every case and selects (no branch). The results stay within about 1e-15
/// relative of `haversineDistance` for every input (BatchKernelTests: a million random pairs,
/// antipodes and near-antipodes, identical points (exactly 0), poles, 1 cm pairs, the
/// antimeridian, unreduced longitudes).
///
/// Instruction sets: the Swift code below is the baseline (SSE2 on x86-64, 4 lanes in two
/// registers; the target's own vectors elsewhere), plain multiplies and adds. Swift compiles a module for one
/// instruction set, so the same algorithm for AVX2 with FMA and for AVX-512F is C
/// (Sources/GeoLocKernels, chosen at run time from what the CPU supports); without that module
/// (a build of these sources alone) the baseline runs everywhere.
enum HaversineKernel {
    /// The vector arithmetic the kernel shares with the other batch code (Core/VectorMath.swift).
    private typealias M = VectorMath

    /// The instruction set a kernel runs on (`VectorMath.Level`).
    typealias Level = VectorMath.Level

    /// The highest level this CPU supports, the one the batch functions use.
    static var supportedLevel: Level { VectorMath.supportedLevel }

    /// `out[i] = haversineDistance(a[i], b[i], radius)` for i < n: points interleaved degrees with
    /// finite latitudes in [-90, 90] and finite longitudes; `out` must not overlap `a` or `b`.
    static func pairs(
        _ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, count n: Int,
        into out: UnsafeMutablePointer<Double>, radius: Double, level: Level = supportedLevel
    ) {
        #if canImport(GeoLocKernels)
        if level > 0 && glk_haversine_pairs(a, b, n, radius, out, Int32(level)) != 0 { return }
        #endif
        basePairs(a, b, count: n, into: out, radius: radius)
    }

    /// `out[i] = haversineDistance(origin, points[i], radius)` for i < n; the origin's longitude
    /// is in [-180, 180) (a `Coordinate`'s is).
    static func oneToMany(
        latitude lat0: Double, longitude lon0: Double, _ points: UnsafePointer<Double>, count n: Int,
        into out: UnsafeMutablePointer<Double>, radius: Double, level: Level = supportedLevel
    ) {
        // The scalar function's own cosine of the origin's latitude: the same double.
        let cos0 = VectorMath.latitudeCosine(lat0 * (2 * (Double.pi / 360)))
        #if canImport(GeoLocKernels)
        if level > 0 && glk_haversine_one_to_many(lat0, lon0, cos0, points, n, radius, out, Int32(level)) != 0 {
            return
        }
        #endif
        baseOneToMany(latitude: lat0, longitude: lon0, cosLatitude: cos0, points, count: n, into: out, radius: radius)
    }

    // MARK: - The Swift baseline

    /// Lanes per step.
    static let width = 4
    typealias V = SIMD4<Double>
    /// `width` interleaved points, [lat0, lon0, lat1, lon1, ...].
    typealias Points = SIMD8<Double>

    /// atan u for |u| ≤ tan(π/8): u + u z Q(z), z = u².
    @inline(__always)
    static func atanPoly(_ u: V) -> V {
        let z = u * u
        var p = V(repeating: 0.02125984794819556)
        p = p * z + -0.04359095652560184
        p = p * z + 0.05692539167204337
        p = p * z + -0.06641121231637581
        p = p * z + 0.07690068305681871
        p = p * z + -0.0909078241284405
        p = p * z + 0.11111106653603102
        p = p * z + -0.14285714195261662
        p = p * z + 0.19999999999088958
        p = p * z + -0.3333333333333015
        return u + u * (z * p)
    }

    /// The distances for one vector of pairs: lon1 and lon2 in [-180, 180), cos1 =
    /// cos(lat1 · π/180), radius2 twice the radius.
    @inline(__always)
    static func distance(lat1: V, lon1: V, lat2: V, lon2: V, cos1 c1: V, radius2: Double) -> V {
        let halfD2R = Double.pi / 360
        let hdp = (lat2 - lat1) * halfD2R  // [-π/2, π/2]
        let hdl = (lon2 - lon1) * halfD2R  // (-π, π)
        let sdp = M.sinPoly(hdp)
        let cdp = M.cosHalfTurn(hdp)
        let adl = M.magnitude(hdl)
        let over = adl .> M.pio2Hi
        let sdl = M.sinPoly(M.select(over, (M.piHi - adl) + M.piLo, adl))
        let cdl = M.sinPoly(M.select(over, (adl - M.pio2Hi) - M.pio2Lo, (M.pio2Hi - adl) + M.pio2Lo))
        let ssp = M.sinPoly((lat1 + lat2) * halfD2R)
        let c2 = M.cosHalfTurn(lat2 * (2 * halfD2R))
        let h = sdp * sdp + c1 * c2 * sdl * sdl
        let far = cdp * cdp * cdl * cdl + ssp * ssp * sdl * sdl
        let c = M.select(h .> 0.5, far, 1 - h)  // 1 - h
        // α = atan2(√h, √c) ∈ [0, π/2] from m = min(h, c), M = max(h, c), q = √(mM):
        // β = atan √(m/M) ∈ [0, π/4] is atan(q/M) when √(m/M) ≤ tan(π/8), else
        // π/4 + atan((m - M)/(m + M + 2q)) (the tangent of β - π/4); α = β for h ≤ c, else π/2 - β.
        let low = h .<= c
        let m = M.select(low, h, c), mm = M.select(low, c, h)
        let q = M.magnitude(m * mm).squareRoot()
        let small = m .<= 0.17157287525380990 * mm  // tan²(π/8)
        let t = atanPoly(M.select(small, q, m - mm) / M.select(small, mm, (m + mm) + 2 * q))
        let zero = V(repeating: 0)
        let baseHi = M.select(small, M.select(low, zero, V(repeating: M.pio2Hi)), V(repeating: M.pio2Hi / 2))
        let baseLo = M.select(small, M.select(low, zero, V(repeating: M.pio2Lo)), V(repeating: M.pio2Lo / 2))
        let alpha = baseHi + (M.select(low, t, -t) + baseLo)
        return radius2 * alpha
    }

    /// Reduces each lane to [-180, 180) as `normalizedLongitude` does (lanes already inside are
    /// left as they are, which is what it does to them).
    @inline(__always)
    static func normalized(_ lon: V) -> V {
        if all((lon .>= -180) .& (lon .< 180)) { return lon }
        var r = lon
        for j in 0..<width { r[j] = normalizedLongitude(lon[j]) }
        return r
    }

    @inline(__always)
    static func load(_ p: UnsafePointer<Double>) -> Points {
        UnsafeRawPointer(p).loadUnaligned(as: Points.self)
    }

    /// The first `count` (< width) points from `p`, the other lanes (0, 0).
    @inline(__always)
    static func loadPartial(_ p: UnsafePointer<Double>, _ count: Int) -> Points {
        var v = Points()
        for j in 0..<(2 * count) { v[j] = p[j] }
        return v
    }

    static func basePairs(
        _ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, count n: Int,
        into out: UnsafeMutablePointer<Double>, radius: Double
    ) {
        var i = 0
        while i &+ width <= n {
            let pa = load(a + 2 &* i), pb = load(b + 2 &* i)
            let lat1 = pa.evenHalf
            let d = distance(
                lat1: lat1, lon1: normalized(pa.oddHalf), lat2: pb.evenHalf, lon2: normalized(pb.oddHalf),
                cos1: M.cosHalfTurn(lat1 * (2 * (Double.pi / 360))), radius2: 2 * radius)
            UnsafeMutableRawPointer(out + i).storeBytes(of: d, as: V.self)
            i &+= width
        }
        let rest = n &- i
        if rest > 0 {
            let pa = loadPartial(a + 2 &* i, rest), pb = loadPartial(b + 2 &* i, rest)
            let lat1 = pa.evenHalf
            let d = distance(
                lat1: lat1, lon1: normalized(pa.oddHalf), lat2: pb.evenHalf, lon2: normalized(pb.oddHalf),
                cos1: M.cosHalfTurn(lat1 * (2 * (Double.pi / 360))), radius2: 2 * radius)
            for j in 0..<rest { out[i &+ j] = d[j] }
        }
    }

    static func baseOneToMany(
        latitude lat0: Double, longitude lon0: Double, cosLatitude: Double, _ points: UnsafePointer<Double>,
        count n: Int, into out: UnsafeMutablePointer<Double>, radius: Double
    ) {
        let cos0 = V(repeating: cosLatitude)
        let lat1 = V(repeating: lat0), lon1 = V(repeating: lon0)
        var i = 0
        while i &+ width <= n {
            let p = load(points + 2 &* i)
            let d = distance(
                lat1: lat1, lon1: lon1, lat2: p.evenHalf, lon2: normalized(p.oddHalf), cos1: cos0, radius2: 2 * radius)
            UnsafeMutableRawPointer(out + i).storeBytes(of: d, as: V.self)
            i &+= width
        }
        let rest = n &- i
        if rest > 0 {
            let p = loadPartial(points + 2 &* i, rest)
            let d = distance(
                lat1: lat1, lon1: lon1, lat2: p.evenHalf, lon2: normalized(p.oddHalf), cos1: cos0, radius2: 2 * radius)
            for j in 0..<rest { out[i &+ j] = d[j] }
        }
    }
}
