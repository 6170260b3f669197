#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Great-circle distance on a sphere of radius `radius` (default: the mean Earth radius).
///
/// The haversine formula in its atan2 form, d = 2 r atan2(sqrt(h), sqrt(1 - h)). For points more
/// than a quarter turn apart, 1 - h is not taken by subtraction (which loses up to 13 cm near the
/// antipode) but from the identity 1 - h = cos²(Δφ/2) cos²(Δλ/2) + sin²(Σφ/2) sin²(Δλ/2), a sum
/// of non-negative terms, so the result keeps about 1e-15 relative accuracy everywhere. The
/// cosines of the latitudes are `VectorMath.latitudeCosine`'s (the place index's, so the place
/// queries' distances are this function's to the bit).
/// Inputs are degrees and are not checked: use the throwing API for untrusted values.
@inlinable
public func haversineDistance(
    lat1: Double, lon1: Double, lat2: Double, lon2: Double, radius: Double = Earth.meanRadius
) -> Double {
    let d2r = 2 * (Double.pi / 360)
    return haversine(
        lat1: lat1, lon1: lon1, cosLat1: VectorMath.latitudeCosine(lat1 * d2r), lat2: lat2, lon2: lon2,
        cosLat2: VectorMath.latitudeCosine(lat2 * d2r),
        radius: radius, hLimit: .infinity) ?? .infinity  // never nil: there is no limit
}

/// The haversine distance with the cosines of both latitudes given
/// (`VectorMath.latitudeCosine(lat * (.pi / 180))`),
/// or nil when h = sin²(θ/2) exceeds `hLimit` (the point is too far; the arctangent is skipped).
/// The one implementation behind `haversineDistance` and the place queries, which compute a
/// centre's cosine once: the same operations in the same order, so the results are identical.
@inlinable @inline(__always)
func haversine(
    lat1: Double, lon1: Double, cosLat1: Double, lat2: Double, lon2: Double, cosLat2: Double,
    radius: Double, hLimit: Double
) -> Double? {
    let halfD2R = Double.pi / 360
    // Differences are taken in degrees first: for nearby points the subtraction is exact, so
    // short distances keep full relative precision.
    let hdp = (lat2 - lat1) * halfD2R
    let hdl = (lon2 - lon1) * halfD2R
    let sdp = sin(hdp)
    let sdl = sin(hdl)
    let h = sdp * sdp + cosLat1 * cosLat2 * sdl * sdl
    if h > hLimit { return nil }
    var c: Double  // 1 - h
    if h <= 0.5 {
        c = 1 - h
    } else {
        let cdp = cos(hdp)
        let cdl = cos(hdl)
        let ssp = sin((lat1 + lat2) * halfD2R)
        c = cdp * cdp * cdl * cdl + ssp * ssp * sdl * sdl
    }
    if c < 0 { c = 0 }
    return 2 * radius * atan2(max(h, 0).squareRoot(), c.squareRoot())
}

/// The distance between two coordinates.
/// - Parameters:
///   - model: the Earth model: `.sphere` (haversine, the default) or `.wgs84` (the geodesic on
///     the ellipsoid, as `geodesicInverse`).
///   - unit: the unit of the result (meters by default).
public func distance(
    from a: Coordinate, to b: Coordinate, model: EarthModel = .sphere, unit: DistanceUnit = .meters
) throws(GeoLocError) -> Double {
    a.distance(to: b, model: model, unit: unit)
}

/// Batch distance over raw degree arrays, the path the C and Python doors take.
///
/// Points are interleaved `[lat0, lon0, lat1, lon1, ...]` (the layout of an array of
/// `geoloc_coord`, or of an (n, 2) float64 array). Every point is checked before any output is
/// written; the error names the first bad point (`"a[7]: latitude 91 is outside [-90, 90]"`).
/// Longitudes are reduced to [-180, 180) as `Coordinate` does. On the sphere the pairs go through
/// the vectorised `HaversineKernel`, within 1e-15 relative of the scalar `haversineDistance`
/// (tests hold it to 1e-11); on WGS84 batch and scalar results are bit-identical.
public enum BatchDistance {
    /// `out[i] = distance(a[i], b[i])` for the `out.count` pairs.
    public static func pairs(
        _ a: UnsafeBufferPointer<Double>, _ b: UnsafeBufferPointer<Double>,
        into out: UnsafeMutableBufferPointer<Double>,
        model: EarthModel = .sphere, unit: DistanceUnit = .meters
    ) throws(GeoLocError) {
        let n = out.count
        _ = try checkCount(n)
        precondition(a.count >= 2 * n && b.count >= 2 * n, "input arrays shorter than the output")
        try CoordinateArray.check(a, n, "a")
        try CoordinateArray.check(b, n, "b")
        let scale = Earth.meanRadius / unit.meters
        guard n > 0, let pa = a.baseAddress, let pb = b.baseAddress, let po = out.baseAddress else { return }
        if model == .wgs84 { return wgs84Pairs(pa, pb, count: n, into: po, unit: unit) }
        // haversineDistance, several pairs at a time (HaversineKernel.swift).
        HaversineKernel.pairs(pa, pb, count: n, into: po, radius: scale)
    }

    /// `out[i] = distance(origin, points[i])` for the `out.count` points.
    public static func oneToMany(
        _ origin: Coordinate, _ points: UnsafeBufferPointer<Double>,
        into out: UnsafeMutableBufferPointer<Double>,
        model: EarthModel = .sphere, unit: DistanceUnit = .meters
    ) throws(GeoLocError) {
        let n = out.count
        _ = try checkCount(n)
        precondition(points.count >= 2 * n, "input array shorter than the output")
        try CoordinateArray.check(points, n, "points")
        let scale = Earth.meanRadius / unit.meters
        guard n > 0, let pp = points.baseAddress, let po = out.baseAddress else { return }
        if model == .wgs84 { return wgs84OneToMany(origin, pp, count: n, into: po, unit: unit) }
        HaversineKernel.oneToMany(
            latitude: origin.latitude, longitude: origin.longitude, pp, count: n, into: po, radius: scale)
    }

    /// As `CoordinateArray.check` (Core), where reading a caller's coordinate array lives.
    @_spi(CABI)
    public static func checkPoints(_ p: UnsafeBufferPointer<Double>, _ n: Int, _ name: String) throws(GeoLocError) {
        try CoordinateArray.check(p, n, name)
    }

    /// As `CoordinateArray.coordinates` (Core).
    @_spi(CABI)
    public static func coordinates(
        _ p: UnsafeBufferPointer<Double>, count n: Int, name: String
    ) throws(GeoLocError) -> [Coordinate] {
        try CoordinateArray.coordinates(p, count: n, name: name)
    }
}

extension Coordinate {
    /// The great-circle distance to `other` on a sphere of `radius` (in the unit wanted).
    @inline(__always)
    func sphereDistance(to other: Coordinate, radius: Double) -> Double {
        haversineDistance(lat1: latitude, lon1: longitude, lat2: other.latitude, lon2: other.longitude, radius: radius)
    }
}

/// Distances of pairs of coordinates: `result[i] = distance(a[i], b[i])`.
/// - Throws: `.invalidArgument` if the arrays differ in length.
public func distances(
    _ a: [Coordinate], _ b: [Coordinate], model: EarthModel = .sphere, unit: DistanceUnit = .meters
) throws(GeoLocError) -> [Double] {
    guard a.count == b.count else {
        throw GeoLocError(.invalidArgument, "the arrays differ in length (\(a.count) and \(b.count))")
    }
    return zip(a, b).map { $0.distance(to: $1, model: model, unit: unit) }
}

/// Distances from one origin to many coordinates.
public func distances(
    from origin: Coordinate, to points: [Coordinate], model: EarthModel = .sphere, unit: DistanceUnit = .meters
) throws(GeoLocError) -> [Double] {
    return points.map { origin.distance(to: $0, model: model, unit: unit) }
}
