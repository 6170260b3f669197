/// Batch geodesics on an ellipsoid over raw degree arrays, the path the C and Python doors take.
///
/// Points are interleaved `[lat0, lon0, lat1, lon1, ...]` (the layout of an array of
/// `geoloc_coord`, or of an (n, 2) float64 array). Every input is checked before any output is
/// written; the error names the first bad one as `name[i]` (`"b[7]: latitude 91 is outside
/// [-90, 90]"`). Each row's result is bit-identical to the scalar `geodesicInverse` /
/// `geodesicDirect` of the same values. Outputs are optional: a nil pointer is not written.
public enum BatchGeodesic {
    /// The inverse problem for `n` pairs: `distances[i]`, `initialAzimuths[i]` and
    /// `finalAzimuths[i]` of the geodesic from `a[i]` to `b[i]` (meters; degrees in [-180, 180]).
    /// - Throws: `.countTooLarge` for `n` above `maxCount`; `.notFinite` or `.outOfRange` naming
    ///   the first bad point (all of `a` before `b`). Nothing is written then.
    public static func inverse(
        _ a: UnsafeBufferPointer<Double>, _ b: UnsafeBufferPointer<Double>, count n: Int,
        distances: UnsafeMutablePointer<Double>?, initialAzimuths: UnsafeMutablePointer<Double>?,
        finalAzimuths: UnsafeMutablePointer<Double>?, on ellipsoid: Ellipsoid = .wgs84,
        names: (a: String, b: String) = ("a", "b")
    ) throws(GeoLocError) {
        _ = try checkCount(n)
        precondition(n == 0 || (a.count >= 2 * n && b.count >= 2 * n), "input arrays shorter than n")
        try BatchDistance.checkPoints(a, n, names.a)
        try BatchDistance.checkPoints(b, n, names.b)
        guard n > 0, let pa = a.baseAddress, let pb = b.baseAddress else { return }
        for i in 0..<n {
            let g = geodesicInverse(
                from: Coordinate(checkedLatitude: pa[2 * i], longitude: pa[2 * i + 1]),
                to: Coordinate(checkedLatitude: pb[2 * i], longitude: pb[2 * i + 1]), on: ellipsoid)
            distances?[i] = g.distance
            initialAzimuths?[i] = g.initialAzimuth
            finalAzimuths?[i] = g.finalAzimuth
        }
    }

    /// The direct problem for `n` starts: where the geodesic leaving `starts[i]` at
    /// `azimuths[i]` (degrees, any finite value) ends after `distances[i]` meters (any finite
    /// value; negative goes backwards). Writes the end points interleaved to `ends` (longitude
    /// reduced to [-180, 180)) and the azimuths there to `finalAzimuths`.
    /// - Throws: `.countTooLarge`; `.notFinite` or `.outOfRange` naming the first bad input (all
    ///   the starts, then the azimuths, then the distances). Nothing is written then.
    public static func direct(
        _ starts: UnsafeBufferPointer<Double>, azimuths: UnsafeBufferPointer<Double>,
        distances: UnsafeBufferPointer<Double>, count n: Int,
        ends: UnsafeMutablePointer<Double>?, finalAzimuths: UnsafeMutablePointer<Double>?,
        on ellipsoid: Ellipsoid = .wgs84,
        names: (start: String, azimuth: String, distance: String) = ("start", "azimuth", "distance")
    ) throws(GeoLocError) {
        _ = try checkCount(n)
        precondition(
            n == 0 || (starts.count >= 2 * n && azimuths.count >= n && distances.count >= n),
            "input arrays shorter than n")
        try BatchDistance.checkPoints(starts, n, names.start)
        try checkFinite(azimuths, n, names.azimuth)
        try checkFinite(distances, n, names.distance)
        guard n > 0, let ps = starts.baseAddress, let pz = azimuths.baseAddress, let pd = distances.baseAddress
        else { return }
        for i in 0..<n {
            // Finite inputs give finite results (the direct solution reduces a length beyond
            // the range of its variable instead of overflowing), as in `geodesicDirect`.
            let r = ellipsoid.direct(
                lat1: ps[2 * i], lon1: normalizedLongitude(ps[2 * i + 1]), azimuth1: pz[i], distance: pd[i])
            if let ends {
                let end = Coordinate(checkedLatitude: r.latitude, longitude: r.longitude)
                ends[2 * i] = end.latitude
                ends[2 * i + 1] = end.longitude
            }
            finalAzimuths?[i] = r.azimuth2
        }
    }

    /// Each of the first `n` values must be finite; the error names the first that is not.
    static func checkFinite(_ p: UnsafeBufferPointer<Double>, _ n: Int, _ name: String) throws(GeoLocError) {
        guard n > 0, let base = p.baseAddress else { return }
        for i in 0..<n where !base[i].isFinite {
            throw GeoLocError(.notFinite, "\(name)[\(i)]: \(show(base[i])) is not finite")
        }
    }
}
