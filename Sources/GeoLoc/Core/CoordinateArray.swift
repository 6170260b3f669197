// Reading a caller's coordinate array: the layout every door hands over (an array of
// geoloc_coord, an (n, 2) float64 array), checked once here for every capability that takes
// one (distances, routes, place queries, geofences, tracks, reverse geocoding).

/// n points interleaved as degrees `[lat0, lon0, lat1, lon1, ...]`, checked point by point; the
/// error names the first bad one as `name[i]` (`"points[7]: latitude 91 is outside [-90, 90]"`).
@_spi(CABI)
public enum CoordinateArray {
    /// Checks the first `n` points (NaN and infinity, then the latitude's range).
    public static func check(_ p: UnsafeBufferPointer<Double>, _ n: Int, _ name: String) throws(GeoLocError) {
        guard n > 0, let base = p.baseAddress else { return }
        for i in 0..<n {
            try checkPoint(base[2 * i], base[2 * i + 1], at: "\(name)[\(i)]")
        }
    }

    /// The first `n` points as checked coordinates (longitudes reduced to [-180, 180)).
    public static func coordinates(
        _ p: UnsafeBufferPointer<Double>, count n: Int, name: String
    ) throws(GeoLocError) -> [Coordinate] {
        try check(p, n, name)
        return (0..<n).map { Coordinate(checkedLatitude: p[2 * $0], longitude: p[2 * $0 + 1]) }
    }
}
