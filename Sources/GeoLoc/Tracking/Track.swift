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

/// A place where a track stayed: fixes `first...last` all within the distance threshold of
/// fix `first`, spanning at least the time threshold.
public struct StayPoint: Sendable, Equatable {
    public var first: Int
    public var last: Int
    /// The mean position of the stay's fixes (the normalised mean of their unit vectors).
    public var center: Coordinate
    public var arrival: Double
    public var departure: Double
}

/// How `resample` spaces its points.
public enum ResampleStep: Sendable, Equatable {
    /// Every `meters` along the track.
    case distance(Double)
    /// Every `seconds` of the track's time.
    case time(Double)
}

public enum Track {
    // MARK: Simplification

    /// Douglas-Peucker on the sphere: the indices of the points kept (ascending, the first and
    /// the last always among them) so that every dropped point is within `tolerance` meters
    /// (great-circle, mean radius) of the simplified line, whose edges are great-circle arcs.
    /// The distance of a point to an edge is to the arc itself: the cross-track distance where
    /// the point projects inside the arc, the distance to the nearer end otherwise.
    public static func simplify(_ points: [Coordinate], tolerance: Double) throws(GeoLocError) -> [Int] {
        var flat = [Double]()
        flat.reserveCapacity(2 * points.count)
        for p in points { flat.append(p.latitude); flat.append(p.longitude) }
        return try flat.withUnsafeBufferPointer { (b) throws(GeoLocError) in
            var keep = [Bool](repeating: false, count: points.count)
            try keep.withUnsafeMutableBufferPointer { (k) throws(GeoLocError) in
                _ = try simplify(b.baseAddress, stride: 2, count: points.count, tolerance: tolerance, keep: k)
            }
            return keep.indices.filter { keep[$0] }
        }
    }

    /// The core of `simplify` over checked points at `base[stride * i]`, `base[stride * i + 1]`
    /// (latitude, longitude): sets keep[i] for the kept points and returns how many.
    @_spi(CABI)
    public static func simplify(
        _ base: UnsafePointer<Double>?, stride: Int, count n: Int, tolerance: Double, keep: UnsafeMutableBufferPointer<Bool>
    ) throws(GeoLocError) -> Int {
        if tolerance.isNaN || tolerance.isInfinite { throw GeoLocError(.notFinite, "tolerance \(show(tolerance)) is not finite") }
        if tolerance < 0 { throw GeoLocError(.outOfRange, "tolerance \(show(tolerance)) is negative") }
        guard n > 0, let base else { return 0 }
        for i in 0..<n { keep[i] = false }
        keep[0] = true
        keep[n - 1] = true
        if n <= 2 { return n }
        // Unit vectors, structure of arrays (Core/UnitSphere.swift).
        let xs = UnsafeMutablePointer<Double>.allocate(capacity: 3 * n)
        defer { xs.deallocate() }
        let ys = xs + n, zs = xs + 2 * n
        unitVectors(base, stride: stride, count: n, xs, ys, zs)
        // Thresholds on 1 - cos(angle): the tolerance's, and its forms for the two cases.
        let theta = min(tolerance / Earth.meanRadius, Double.pi)
        let sinHalf = sin(theta / 2)
        let gTol = 2 * sinHalf * sinHalf
        #if canImport(GeoLocKernels)
        if K.supportedLevel > 0 {
            let r = keep.withMemoryRebound(to: UInt8.self) { glk_dp_simplify(xs, ys, zs, n, gTol, $0.baseAddress, Int32(K.supportedLevel)) }
            if r >= 0 { return r }
        }
        #endif
        var kept = 2
        var stack: [(Int, Int)] = [(0, n - 1)]
        while let (a, b) = stack.popLast() {
            if b - a < 2 { continue }
            let (g, at) = farthest(xs, ys, zs, a, b)
            if g > gTol {
                keep[at] = true
                kept += 1
                stack.append((at, b))
                stack.append((a, at))
            }
        }
        return kept
    }

    private typealias V = SIMD4<Double>
    private typealias K = VectorMath

    @inline(__always)
    private static func load(_ p: UnsafePointer<Double>) -> V { UnsafeRawPointer(p).loadUnaligned(as: V.self) }

    /// The point strictly between a and b farthest from the arc a-b, as 1 - cos(angle), and its
    /// index (ties: the first). Four points at a time.
    private static func farthest(
        _ xs: UnsafePointer<Double>, _ ys: UnsafePointer<Double>, _ zs: UnsafePointer<Double>, _ a: Int, _ b: Int
    ) -> (Double, Int) {
        let A = SIMD3(xs[a], ys[a], zs[a]), B = SIMD3(xs[b], ys[b], zs[b])
        var nrm = SIMD3(A.y * B.z - A.z * B.y, A.z * B.x - A.x * B.z, A.x * B.y - A.y * B.x)
        let len = (nrm * nrm).sum().squareRoot()
        var bestS2 = -1.0, bestS2At = -1
        var bestC2 = -1.0, bestC2At = -1
        if len > 1e-15 {
            nrm /= len
            // Tangents: along the arc at A (towards B) and back at B (towards A).
            let ta = SIMD3(nrm.y * A.z - nrm.z * A.y, nrm.z * A.x - nrm.x * A.z, nrm.x * A.y - nrm.y * A.x)
            let tb = SIMD3(B.y * nrm.z - B.z * nrm.y, B.z * nrm.x - B.x * nrm.z, B.x * nrm.y - B.y * nrm.x)
            var i = a + 1
            #if canImport(GeoLocKernels)
            if b - i >= 16 && K.supportedLevel > 0 {
                var frame = (A.x, A.y, A.z, B.x, B.y, B.z, nrm.x, nrm.y, nrm.z, ta.x, ta.y, ta.z, tb.x, tb.y, tb.z)
                var best = (-1.0, -1.0)
                var at = (0, 0)
                let done = withUnsafePointer(to: &frame) { fp in
                    withUnsafeMutablePointer(to: &best) { bp in
                        withUnsafeMutablePointer(to: &at) { ap in
                            glk_dp_farthest(
                                xs, ys, zs, i, b, UnsafeRawPointer(fp).assumingMemoryBound(to: Double.self),
                                UnsafeMutableRawPointer(bp).assumingMemoryBound(to: Double.self),
                                UnsafeMutableRawPointer(ap).assumingMemoryBound(to: Int.self), Int32(K.supportedLevel))
                        }
                    }
                }
                if done != 0 {
                    bestS2 = best.0; bestS2At = at.0
                    bestC2 = best.1; bestC2At = at.1
                    i = b
                }
            }
            #endif
            if b - i >= 8 {
                let minus = V(repeating: -1)
                var bs = minus, bc = minus
                // Indices as doubles (exact below 2^53), so every selection is one bitwise blend.
                var bsi = minus, bci = minus
                var idx = V(Double(i), Double(i + 1), Double(i + 2), Double(i + 3))
                let four = V(repeating: 4)
                while i + 4 <= b {
                    let px = load(xs + i), py = load(ys + i), pz = load(zs + i)
                    let fa = px * ta.x + py * ta.y + pz * ta.z
                    let fb = px * tb.x + py * tb.y + pz * tb.z
                    let sv = px * nrm.x + py * nrm.y + pz * nrm.z
                    let inside = (fa .>= 0) .& (fb .>= 0)
                    let s2 = K.select(inside, sv * sv, minus)
                    let dax = px - A.x, day = py - A.y, daz = pz - A.z
                    let dbx = px - B.x, dby = py - B.y, dbz = pz - B.z
                    let ca = dax * dax + day * day + daz * daz, cb = dbx * dbx + dby * dby + dbz * dbz
                    let c2 = K.select(inside, minus, K.select(ca .< cb, ca, cb))
                    let ms = s2 .> bs, mc = c2 .> bc
                    bs = K.select(ms, s2, bs)
                    bc = K.select(mc, c2, bc)
                    bsi = K.select(ms, idx, bsi)
                    bci = K.select(mc, idx, bci)
                    idx += four
                    i += 4
                }
                for j in 0..<4 {
                    if bs[j] > bestS2 || (bs[j] == bestS2 && Int(bsi[j]) < bestS2At) { bestS2 = bs[j]; bestS2At = Int(bsi[j]) }
                    if bc[j] > bestC2 || (bc[j] == bestC2 && Int(bci[j]) < bestC2At) { bestC2 = bc[j]; bestC2At = Int(bci[j]) }
                }
            }
            while i < b {
                let px = xs[i], py = ys[i], pz = zs[i]
                let fa = px * ta.x + py * ta.y + pz * ta.z
                let fb = px * tb.x + py * tb.y + pz * tb.z
                if fa >= 0 && fb >= 0 {
                    let sv = px * nrm.x + py * nrm.y + pz * nrm.z
                    if sv * sv > bestS2 { bestS2 = sv * sv; bestS2At = i }
                } else {
                    let dax = px - A.x, day = py - A.y, daz = pz - A.z
                    let dbx = px - B.x, dby = py - B.y, dbz = pz - B.z
                    let c2 = min(dax * dax + day * day + daz * daz, dbx * dbx + dby * dby + dbz * dbz)
                    if c2 > bestC2 { bestC2 = c2; bestC2At = i }
                }
                i += 1
            }
        } else {
            // A and B coincide (or are antipodal): distance to A.
            for i in (a + 1)..<b {
                let dx = xs[i] - A.x, dy = ys[i] - A.y, dz = zs[i] - A.z
                let c2 = dx * dx + dy * dy + dz * dz
                if c2 > bestC2 { bestC2 = c2; bestC2At = i }
            }
        }
        // Both candidates as 1 - cos(angle).
        let gS = bestS2 < 0 ? -1 : bestS2 / (1 + (1 - min(bestS2, 1)).squareRoot())
        let gC = bestC2 < 0 ? -1 : bestC2 / 2
        return gS >= gC ? (gS, bestS2At) : (gC, bestC2At)
    }

    /// The distance in meters from point p to the great-circle arc from a to b, as `simplify`
    /// measures it (for checks).
    public static func distanceToArc(_ p: Coordinate, _ a: Coordinate, _ b: Coordinate) -> Double {
        let P = unit3(p.latitude, p.longitude), A = unit3(a.latitude, a.longitude), B = unit3(b.latitude, b.longitude)
        var nrm = SIMD3(A.y * B.z - A.z * B.y, A.z * B.x - A.x * B.z, A.x * B.y - A.y * B.x)
        let len = (nrm * nrm).sum().squareRoot()
        let ends = min(angleBetween(P, A), angleBetween(P, B)) * Earth.meanRadius
        guard len > 1e-15 else { return ends }
        nrm /= len
        let ta = SIMD3(nrm.y * A.z - nrm.z * A.y, nrm.z * A.x - nrm.x * A.z, nrm.x * A.y - nrm.y * A.x)
        let tb = SIMD3(B.y * nrm.z - B.z * nrm.y, B.z * nrm.x - B.x * nrm.z, B.x * nrm.y - B.y * nrm.x)
        if (P * ta).sum() >= 0 && (P * tb).sum() >= 0 {
            return asin(min(abs((P * nrm).sum()), 1)) * Earth.meanRadius
        }
        return ends
    }

    // MARK: Resampling

    /// Points along the track at a fixed step: by distance (great-circle) or by time, starting
    /// at the first fix and ending with the last. A point between two fixes lies on the
    /// great-circle arc between them; its time, accuracy, speed and altitude are interpolated
    /// linearly (absent if either fix lacks them), its course is absent.
    public static func resample(_ fixes: [Fix], step: ResampleStep) throws(GeoLocError) -> [Fix] {
        try withFixBuffer(fixes) { (b) throws(GeoLocError) in
            try b.checkInTimeOrder("fixes")
            var out: [Fix] = []
            try resample(b, step: step) { out.append($0) }
            return out
        }
    }

    @_spi(CABI)
    public static func resample(_ b: FixBuffer, step: ResampleStep, _ emit: (Fix) -> Void) throws(GeoLocError) {
        let stepValue: Double
        switch step {
        case .distance(let v), .time(let v): stepValue = v
        }
        if !stepValue.isFinite { throw GeoLocError(.notFinite, "step \(show(stepValue)) is not finite") }
        if !(stepValue > 0) { throw GeoLocError(.outOfRange, "step \(show(stepValue)) is not > 0") }
        let n = b.count
        guard n > 0 else { return }
        // Measure first: refuse before emitting anything if the count would be too large.
        var legs = [Double](repeating: 0, count: max(n - 1, 0))
        var total = 0.0
        for i in 1..<max(n, 1) {
            let d = sphereMeters(b.lat(i - 1), b.lon(i - 1), b.lat(i), b.lon(i))
            legs[i - 1] = d
            total += d
        }
        let span: Double
        if case .distance = step { span = total } else { span = b.time(n - 1) - b.time(0) }
        let steps = (span / stepValue).rounded(.down)
        if steps + 2 > Double(maxCount) {
            throw GeoLocError(.countTooLarge, "step \(show(stepValue)) gives more than GEOLOC_MAX_COUNT points")
        }
        emit(b.fix(0))
        if n == 1 { return }
        var k = 1.0
        var acc = 0.0  // position (distance or time) at the start of leg i
        for i in 1..<n {
            let legSpan: Double
            if case .distance = step { legSpan = legs[i - 1] } else { legSpan = b.time(i) - b.time(i - 1) }
            let startPos = acc
            let endPos = acc + legSpan
            while k * stepValue < endPos && k * stepValue < span {
                let f = legSpan > 0 ? (k * stepValue - startPos) / legSpan : 0
                emit(interpolate(b, i - 1, i, f))
                k += 1
            }
            acc = endPos
        }
        emit(b.fix(n - 1))
    }

    static func interpolate(_ b: FixBuffer, _ i: Int, _ j: Int, _ f: Double) -> Fix {
        let A = unit3(b.lat(i), b.lon(i)), B = unit3(b.lat(j), b.lon(j))
        let omega = angleBetween(A, B)
        let P: SIMD3<Double>
        if omega < 1e-12 {
            P = A + (B - A) * f
        } else {
            let s = sin(omega)
            P = A * (sin((1 - f) * omega) / s) + B * (sin(f * omega) / s)
        }
        let lat = atan2(P.z, (P.x * P.x + P.y * P.y).squareRoot()) * 180 / Double.pi
        let lon = atan2(P.y, P.x) * 180 / Double.pi
        func lerp(_ x: Double, _ y: Double) -> Double { interpolateLinearly(x, y, f) }
        var fix = Fix(latitude: min(max(lat, -90), 90), longitude: normalizedLongitude(lon),
                      time: lerp(b.time(i), b.time(j)), accuracy: lerp(b.accuracy(i), b.accuracy(j)))
        fix.speed = lerp(b.speed(i), b.speed(j))
        fix.altitude = lerp(b.altitude(i), b.altitude(j))
        return fix
    }

    // MARK: Stay points

    /// Stay points (Li et al. 2008): from fix i, the longest run i...j of fixes all within
    /// `distance` meters of fix i; if it spans at least `time` seconds it is a stay and the
    /// search goes on after j, else from i + 1.
    public static func stayPoints(_ fixes: [Fix], distance: Double, time: Double) throws(GeoLocError) -> [StayPoint] {
        try withFixBuffer(fixes) { (b) throws(GeoLocError) in
            try b.checkInTimeOrder("fixes")
            var out: [StayPoint] = []
            try stayPoints(b, distance: distance, time: time) { out.append($0) }
            return out
        }
    }

    @_spi(CABI)
    public static func stayPoints(_ b: FixBuffer, distance: Double, time: Double, _ emit: (StayPoint) -> Void) throws(GeoLocError) {
        for (v, name) in [(distance, "distance_m"), (time, "time_s")] {
            if !v.isFinite { throw GeoLocError(.notFinite, "\(name) \(show(v)) is not finite") }
            if v < 0 { throw GeoLocError(.outOfRange, "\(name) \(show(v)) is negative") }
        }
        let n = b.count
        let d2r = Double.pi / 180
        var i = 0
        while i < n {
            let lat0 = b.lat(i), lon0 = b.lon(i)
            let cos0 = VectorMath.latitudeCosine(lat0 * d2r)
            var j = i + 1
            while j < n {
                let lat = b.lat(j), lon = b.lon(j)
                guard let d = haversine(lat1: lat0, lon1: lon0, cosLat1: cos0, lat2: lat, lon2: lon,
                                        cosLat2: VectorMath.latitudeCosine(lat * d2r), radius: Earth.meanRadius, hLimit: .infinity),
                      d <= distance else { break }
                j += 1
            }
            if b.time(j - 1) - b.time(i) >= time && j - 1 > i {
                var sum = SIMD3<Double>.zero
                for k in i..<j { sum += unit3(b.lat(k), b.lon(k)) }
                let lat = atan2(sum.z, (sum.x * sum.x + sum.y * sum.y).squareRoot()) / d2r
                let lon = atan2(sum.y, sum.x) / d2r
                emit(StayPoint(first: i, last: j - 1,
                               center: Coordinate(checkedLatitude: min(max(lat, -90), 90), longitude: lon),
                               arrival: b.time(i), departure: b.time(j - 1)))
                i = j
            } else {
                i += 1
            }
        }
    }
}

/// x + (y - x) f for f in [0, 1] without overflow: for finite x and y the result is finite and
/// between them (y - x may overflow: then the two weighted ends are added instead). NaN when
/// either is NaN (an absent value).
@inline(__always)
func interpolateLinearly(_ x: Double, _ y: Double, _ f: Double) -> Double {
    if x.isNaN || y.isNaN { return .nan }
    if x == y { return x }
    let d = y - x
    let v = d.isFinite ? x + d * f : x * (1 - f) + y * f
    let lo = x < y ? x : y, hi = x < y ? y : x
    return v < lo ? lo : v > hi ? hi : v
}
