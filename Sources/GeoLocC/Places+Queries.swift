// The C ABI of place-set queries and regions (Sources/GeoLoc/Places): radius and nearest, one
// point or many, and regions. Every function checks its arguments, calls the core, and maps every
// error to a status.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CGeoLoc
@_spi(CABI) import GeoLoc

// MARK: - Shared checks

/// The checks every query shares, in the header's order of precedence: the pointers, then the
/// counts (cap and limit), then the enum arguments.
private func queryArguments(
    _ places: OpaquePointer?, _ out: UnsafeMutablePointer<geoloc_match>?, _ cap: Int,
    _ count: UnsafeMutablePointer<Int>?, limit: Int, model: geoloc_model, unit: geoloc_unit
) throws(GeoLocError) -> (PlacesHandle, CallerArray<geoloc_match>, EarthModel, DistanceUnit, Int?) {
    let handle = try borrow(places, .places, as: PlacesHandle.self, "places")
    let results = try CallerArray(out, cap, count, needed: "count")
    let lim = try checkCount(limit, "limit")
    let (m, u) = try measure(model, unit)
    return (handle, results, m, u, lim == 0 ? nil : lim)
}

/// The max_distance argument of the nearest queries: NaN and negative values refused, INFINITY
/// meaning no bound (nil).
private func distanceBound(_ maxDistance: Double) throws(GeoLocError) -> Double? {
    if maxDistance.isNaN { throw GeoLocError(.notFinite, "max_distance is NaN") }
    if maxDistance < 0 { throw GeoLocError(.outOfRange, "max_distance \(show(maxDistance)) is negative") }
    return maxDistance == .infinity ? nil : maxDistance
}

extension geoloc_match: CResult {
    var nonFinite: (field: String, value: Double)? { distance.isFinite ? nil : ("distance", distance) }
}

/// Writes matches to the caller's array under the header's contract: *count is the full number,
/// the first min(cap, count) are written, BUFFER_TOO_SMALL when they did not all fit.
private func writeMatches(_ matches: [PlaceMatch], _ results: CallerArray<geoloc_match>) throws(GeoLocError) -> geoloc_status {
    try results.fill(matches.count, partial: true, "the query has \(matches.count) results") {
        geoloc_match(index: matches[$0].index, distance: matches[$0].distance)
    }
}

// MARK: - Queries

@c @implementation
public func geoloc_places_within(
    _ places: OpaquePointer?, _ center: geoloc_coord, _ radius: Double, _ model: geoloc_model, _ unit: geoloc_unit,
    _ limit: Int, _ out: UnsafeMutablePointer<geoloc_match>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let (h, results, m, u, lim) = try queryArguments(places, out, cap, count, limit: limit, model: model, unit: unit)
        let c = try coordinate(center)
        let key = QueryKey(function: 0, numbers: [
            center.lat.bitPattern, center.lon.bitPattern, radius.bitPattern, UInt64(model.rawValue),
            UInt64(unit.rawValue), UInt64(bitPattern: Int64(limit)),
        ])
        let matches = try searchOnce(key, h, cap: results.cap) { () throws(GeoLocError) in
            [try h.set.within(radius, u, of: c, model: m, limit: lim)]
        }
        return try writeMatches(matches[0], results)
    }
}

@c @implementation
public func geoloc_places_nearest(
    _ places: OpaquePointer?, _ point: geoloc_coord, _ k: Int, _ model: geoloc_model, _ unit: geoloc_unit,
    _ maxDistance: Double, _ out: UnsafeMutablePointer<geoloc_match>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let (h, results, m, u, _) = try queryArguments(places, out, cap, count, limit: 0, model: model, unit: unit)
        let k = try checkCount(k, "k")
        let p = try coordinate(point)
        let bound = try distanceBound(maxDistance)
        let matches = try h.set.nearest(to: p, count: k, model: m, unit: u, maxDistance: bound)
        return try writeMatches(matches, results)
    }
}

@c @implementation
public func geoloc_places_within_many(
    _ places: OpaquePointer?, _ centers: UnsafePointer<geoloc_coord>?, _ n: Int, _ radius: Double,
    _ model: geoloc_model, _ unit: geoloc_unit, _ limit: Int, _ offsets: UnsafeMutablePointer<Int>?,
    _ out: UnsafeMutablePointer<geoloc_match>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    withHandle(places, .places, as: PlacesHandle.self, "places") { (h) throws(GeoLocError) in
        let centers = try inputArray(centers, n, "centers")
        let n = centers.count
        let offsets = try required(offsets, "offsets")
        let results = try CallerArray(out, cap, count, needed: "count")
        let lim = try checkCount(limit, "limit")
        let (m, u) = try measure(model, unit)
        let points = try coordinates(centers, "centers")
        if !radius.isFinite { throw GeoLocError(.notFinite, "radius \(show(radius)) is not finite") }
        if radius < 0 { throw GeoLocError(.outOfRange, "radius \(show(radius)) is negative") }
        var numbers: [UInt64] = [radius.bitPattern, UInt64(model.rawValue), UInt64(unit.rawValue), UInt64(bitPattern: Int64(limit))]
        numbers.reserveCapacity(4 + 2 * n)
        for c in centers { numbers.append(c.lat.bitPattern); numbers.append(c.lon.bitPattern) }
        let all = try searchOnce(QueryKey(function: 2, numbers: numbers), h, cap: results.cap) { () throws(GeoLocError) in
            var all: [[PlaceMatch]] = []
            all.reserveCapacity(n)
            var total = 0
            for p in points {
                let matches = try h.set.within(radius, u, of: p, model: m, limit: lim == 0 ? nil : lim)
                total += matches.count
                if total > maxCount {
                    throw GeoLocError(.countTooLarge, "the queries have more than \(maxCount) results in all")
                }
                all.append(matches)
            }
            return all
        }
        let total = all.reduce(0) { $0 + $1.count }
        var at = 0
        for (i, matches) in all.enumerated() {
            offsets[i] = at
            at += matches.count
        }
        offsets[n] = at
        let flat = Array(all.joined())
        return try results.fill(total, partial: true, "the queries have \(total) results") {
            geoloc_match(index: flat[$0].index, distance: flat[$0].distance)
        }
    }
}

@c @implementation
public func geoloc_places_nearest_many(
    _ places: OpaquePointer?, _ points: UnsafePointer<geoloc_coord>?, _ n: Int, _ k: Int, _ model: geoloc_model,
    _ unit: geoloc_unit, _ maxDistance: Double, _ indices: UnsafeMutablePointer<Int>?,
    _ distances: UnsafeMutablePointer<Double>?
) -> geoloc_status {
    withHandle(places, .places, as: PlacesHandle.self, "places") { (h) throws(GeoLocError) in
        let points = try inputArray(points, n, "points")
        let n = points.count
        let k = try checkCount(k, "k")
        let (total, overflow) = n.multipliedReportingOverflow(by: k)
        if overflow || total > maxCount {
            throw GeoLocError(.countTooLarge, "n * k (\(n) * \(k)) is larger than \(maxCount)")
        }
        let (m, u) = try measure(model, unit)
        guard k > 0 else { throw GeoLocError(.invalidArgument, "k is 0: ask for at least one match per point") }
        let queries = try coordinates(points, "points")
        let bound = try distanceBound(maxDistance)
        for (i, q) in queries.enumerated() {
            let matches = try h.set.nearest(to: q, count: k, model: m, unit: u, maxDistance: bound)
            for j in 0..<k {
                let has = j < matches.count
                indices?[i * k + j] = has ? matches[j].index : -1  // SIZE_MAX
                distances?[i * k + j] = has ? matches[j].distance : .infinity
            }
        }
        return GEOLOC_OK
    }
}

// MARK: - Regions

private func region(
    _ text: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?, _ make: (String) throws(GeoLocError) -> Region
) -> geoloc_status {
    create(out, .region) { () throws(GeoLocError) in
        try make(try readText(text, "text"))
    }
}

@c @implementation
public func geoloc_region_from_wkt(_ wkt: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> geoloc_status {
    region(wkt, out) { (s) throws(GeoLocError) in try Region(wkt: s) }
}

@c @implementation
public func geoloc_region_from_geojson(_ geojson: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> geoloc_status {
    region(geojson, out) { (s) throws(GeoLocError) in try Region(geoJSON: s) }
}

@c @implementation
public func geoloc_region_destroy(_ region: OpaquePointer?) {
    release(region, .region, "region")
}

@c @implementation
public func geoloc_region_contains(
    _ region: OpaquePointer?, _ c: geoloc_coord, _ inside: UnsafeMutablePointer<Bool>?
) -> geoloc_status {
    answer(region, .region, as: Region.self, "region", inside, "inside") { (r) throws(GeoLocError) in r.contains(try coordinate(c)) }
}

@c @implementation
public func geoloc_places_in_region(
    _ places: OpaquePointer?, _ region: OpaquePointer?, _ origin: UnsafePointer<geoloc_coord>?, _ model: geoloc_model,
    _ unit: geoloc_unit, _ limit: Int, _ out: UnsafeMutablePointer<geoloc_match>?, _ cap: Int,
    _ count: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    withHandle(region, .region, as: Region.self, "region") { (r) throws(GeoLocError) in
        let (h, results, m, u, lim) = try queryArguments(places, out, cap, count, limit: limit, model: model, unit: unit)
        let from: Coordinate? = if let origin { try coordinate(origin.pointee) } else { nil }
        let key = QueryKey(function: 1, numbers: [
            origin == nil ? 0 : 1, origin?.pointee.lat.bitPattern ?? 0, origin?.pointee.lon.bitPattern ?? 0,
            UInt64(model.rawValue), UInt64(unit.rawValue), UInt64(bitPattern: Int64(limit)),
        ])
        let matches = try searchOnce(key, h, r, cap: results.cap) { () throws(GeoLocError) in
            [try h.set.inside(r, sortedFrom: from, model: m, unit: u, limit: lim)]
        }
        return try writeMatches(matches[0], results)
    }
}

// MARK: - One search per query

// The header's contract for a result array is "ask, allocate, ask again": a query whose results
// do not fit answers BUFFER_TOO_SMALL with the count, and the caller calls again with room for
// them. So that the second call copies instead of searching again, the results of this thread's
// last radius or region query that did not fit are kept, with what identifies the query (the set
// and region by weak reference, so a destroyed handle never matches, and every argument bit for
// bit), and the thread's next radius or region query takes them: an identical one answers from
// them without a search, any other drops them. Memory: one result list per thread at most.

/// What identifies a query: its function, its handles and every number of its arguments.
private struct QueryKey: Equatable {
    let function: Int
    let numbers: [UInt64]
}

/// The kept results of one query, and its handles, weakly.
private final class KeptResults {
    let key: QueryKey
    weak var places: PlacesHandle?
    weak var region: Region?
    let hasRegion: Bool
    let matches: [[PlaceMatch]]
    init(_ key: QueryKey, _ places: PlacesHandle, _ region: Region?, _ matches: [[PlaceMatch]]) {
        self.key = key
        self.places = places
        self.region = region
        self.hasRegion = region != nil
        self.matches = matches
    }
}

/// This thread's kept results (a retained `KeptResults`, released when replaced or when the
/// thread ends).
private let keptKey: pthread_key_t = {
    var key = pthread_key_t()
    _ = pthread_key_create(&key) { p in
        if let p { Unmanaged<KeptResults>.fromOpaque(p).release() }
    }
    return key
}()

/// Takes this thread's kept results if they answer the query `key` on `places` (and `region`);
/// whatever was kept is dropped either way.
private func takeKept(_ key: QueryKey, _ places: PlacesHandle, _ region: Region? = nil) -> [[PlaceMatch]]? {
    guard let p = pthread_getspecific(keptKey) else { return nil }
    _ = pthread_setspecific(keptKey, nil)
    let kept = Unmanaged<KeptResults>.fromOpaque(p).takeRetainedValue()
    guard kept.key == key, kept.places === places, kept.hasRegion == (region != nil), kept.region === region else {
        return nil
    }
    return kept.matches
}

/// Keeps results that did not fit the caller's array for the call that comes back with room.
private func keep(_ key: QueryKey, _ places: PlacesHandle, _ region: Region?, _ matches: [[PlaceMatch]]) {
    let old = pthread_getspecific(keptKey)
    let kept = KeptResults(key, places, region, matches)
    _ = pthread_setspecific(keptKey, Unmanaged.passRetained(kept).toOpaque())
    if let old { Unmanaged<KeptResults>.fromOpaque(old).release() }
}

/// The results of one query: kept ones when this thread's previous, identical call could not
/// take them, else a search; kept again when they are more than `cap`.
private func searchOnce(
    _ key: QueryKey, _ places: PlacesHandle, _ region: Region? = nil, cap: Int,
    _ search: () throws(GeoLocError) -> [[PlaceMatch]]
) throws(GeoLocError) -> [[PlaceMatch]] {
    let all: [[PlaceMatch]]
    if let kept = takeKept(key, places, region) { all = kept } else { all = try search() }
    if all.reduce(0, { $0 + $1.count }) > cap { keep(key, places, region, all) }
    return all
}
