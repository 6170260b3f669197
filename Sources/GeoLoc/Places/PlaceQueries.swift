#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Great-circle distances from one centre, bit-identical to
/// `haversineDistance(lat1: center.latitude, lon1: center.longitude, lat2:, lon2:, radius:)`
/// (the same operations in the same order, with the centre's cosine computed once).
struct HaversineFrom {
    let lat1: Double
    let lon1: Double
    let cosLat1: Double
    let radius: Double

    init(_ center: Coordinate, radius: Double) {
        lat1 = center.latitude
        lon1 = center.longitude
        cosLat1 = VectorMath.latitudeCosine(lat1 * (2 * (Double.pi / 360)))
        self.radius = radius
    }

    /// With the centre's `VectorMath.latitudeCosine(latitude * .pi / 180)` already known
    /// (`2 * (.pi / 360)` is `.pi / 180` exactly, so it is the cosine `init(_:radius:)` computes).
    @inline(__always)
    init(_ center: Coordinate, cosLat1: Double, radius: Double) {
        lat1 = center.latitude
        lon1 = center.longitude
        self.cosLat1 = cosLat1
        self.radius = radius
    }

    @inline(__always)
    func distance(lat2: Double, lon2: Double) -> Double {
        distance(lat2: lat2, lon2: lon2, cosLat2: VectorMath.latitudeCosine(lat2 * (Double.pi / 180)))
    }

    /// An upper bound of the haversine's h = sin²(θ/2) of any point the computed distance puts
    /// within `angle` radians (the computed distance 2r·atan2(√h, √(1 - h)) grows with h).
    static func hLimit(angle: Double) -> Double {
        let a = Swift.min(angle * (1 + 1e-9), Double.pi)
        let s = sin(a / 2)
        return s * s * (1 + 1e-9) + 1e-300
    }

    /// The distance, as `distance(lat2:lon2:cosLat2:)` computes it, or `nil` when h exceeds
    /// `hLimit` (the point is too far: the arctangent is skipped).
    @inline(__always)
    func distance(lat2: Double, lon2: Double, cosLat2: Double, hLimit: Double) -> Double? {
        haversine(lat1: lat1, lon1: lon1, cosLat1: cosLat1, lat2: lat2, lon2: lon2, cosLat2: cosLat2,
                  radius: radius, hLimit: hLimit)
    }

    /// The distance to a point whose `VectorMath.latitudeCosine(lat2 * .pi / 180)` is known
    /// (`2 * (.pi / 360)` is `.pi / 180` exactly, so it is the haversine's cosine).
    @inline(__always)
    func distance(lat2: Double, lon2: Double, cosLat2: Double) -> Double {
        haversine(lat1: lat1, lon1: lon1, cosLat1: cosLat1, lat2: lat2, lon2: lon2, cosLat2: cosLat2,
                  radius: radius, hLimit: .infinity) ?? .infinity  // never nil: there is no limit
    }
}

/// The WGS84 ellipsoid's smallest radius of curvature, a(1 - e²) (the meridian's at the
/// equator), in meters. Geodetic latitude and longitude taken as spherical coordinates, the
/// ellipsoid's metric ds² = M² dφ² + N² cos²φ dλ² is at least (a(1 - e²))² (dφ² + cos²φ dλ²)
/// because M >= a(1 - e²) and N >= a: a geodesic of length s joins points at most
/// s / (a(1 - e²)) radians apart on the unit sphere. (1 + f would not do: R1 / (a(1 - e²)) is
/// 1.0056.)
let wgs84MinCurvatureRadius: Double = {
    let a = 6_378_137.0
    let f = 1 / 298.257223563
    return a * (1 - f * (2 - f))
}()

/// A longitude/latitude box in degrees, bounds included.
struct LonLatBox {
    var minLon: Double
    var minLat: Double
    var maxLon: Double
    var maxLat: Double

    func contains(latitude: Double, longitude: Double) -> Bool {
        longitude >= minLon && longitude <= maxLon && latitude >= minLat && latitude <= maxLat
    }
}

/// The candidates a radius search's tree walk finds (kd-tree positions), in a growable buffer
/// that starts on the caller's stack; they are measured afterwards in one tight loop.
struct Candidates {
    var base: UnsafeMutablePointer<Int32>
    var count = 0
    var capacity: Int
    /// Whether `base` is ours (heap) or the caller's (a stack buffer).
    var owned: Bool

    init(capacity: Int = 64) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
        owned = true
    }

    /// Starts in the caller's buffer; moves to the heap if it outgrows it.
    init(buffer: UnsafeMutableBufferPointer<Int32>) {
        base = buffer.baseAddress.unsafelyUnwrapped
        capacity = buffer.count
        owned = false
    }

    func deallocate() { if owned { base.deallocate() } }

    @inline(__always)
    mutating func append(_ p: Int) {
        if count == capacity { grow() }
        base[count] = Int32(truncatingIfNeeded: p)
        count += 1
    }

    mutating func grow() {
        let bigger = UnsafeMutablePointer<Int32>.allocate(capacity: 2 * capacity)
        bigger.moveInitialize(from: base, count: count)
        deallocate()
        base = bigger
        capacity *= 2
        owned = true
    }
}

extension PlaceSet {
    /// Every place within `radius` of `center`, nearest first; ties by index.
    ///
    /// The circle geofence of the mosque finder ("mosques within 5 miles"). The kd-tree over
    /// unit vectors finds the places whose chord from the centre is at most the chord of the
    /// radius (with a margin that covers every rounding: `ChordBounds.upper`), then each is
    /// measured exactly: a place is in when its distance, as `distance(from: center, to: place,
    /// model:, unit:)` computes it, is `<= radius`, and the distances returned are those values,
    /// bit for bit. No lock and no GEOS call: any number of threads search one set at full speed.
    /// - Parameters:
    ///   - radius: finite, `>= 0`, in `unit`. 0 finds places exactly at `center`; half the
    ///     Earth's circumference or more finds every place.
    ///   - unit: the unit of `radius` and of the returned distances (meters by default).
    ///   - model: `.sphere` (great circle, haversine) or `.wgs84` (the geodesic; the chord is
    ///     widened for the ellipsoid, see `wgs84MinCurvatureRadius`).
    ///   - limit: at most this many matches, the nearest (`nil` = all, 0 = none).
    /// - Throws: `.notFinite` / `.outOfRange` for a bad radius, `.invalidArgument` for a negative
    ///   limit, `.countTooLarge` for a limit above `maxCount`.
    public func within(
        _ radius: Double, _ unit: DistanceUnit = .meters, of center: Coordinate,
        model: EarthModel = .sphere, limit: Int? = nil
    ) throws(GeoLocError) -> [PlaceMatch] {
        guard radius.isFinite else { throw GeoLocError(.notFinite, "radius \(show(radius)) is not finite") }
        guard radius >= 0 else { throw GeoLocError(.outOfRange, "radius \(show(radius)) is negative") }
        let limit = try checkLimit(limit)
        if limit == 0 || count == 0 { return [] }
        let tree = kdtree
        let q = queryVector(center)
        var matches: [PlaceMatch]
        switch model {
        case .sphere:
            let r = Earth.meanRadius / unit.meters
            let angle = radius / r
            let from = HaversineFrom(center, radius: r)
            matches = withUnsafeTemporaryAllocation(of: Int32.self, capacity: 256) { stack in
                var range = ChordCandidates(limit: ChordBounds.upper(angle: angle), into: Candidates(buffer: stack))
                tree.search(q, &range)
                defer { range.found.deallocate() }
                return sphereMatches(range.found, from: from, radius: radius, angle: angle)
            }
        case .wgs84:
            let angle = radius * unit.meters / wgs84MinCurvatureRadius * (1 + 1e-9)
            var range = ChordRange(limit: ChordBounds.upper(angle: angle))
            tree.search(q, &range)
            matches = []
            for p in range.positions {
                let d = try exactDistance(from: center, position: p, model: model, unit: unit)
                if d <= radius { matches.append(PlaceMatch(index: Int(tree.ids[p]), distance: d)) }
            }
        }
        return nearestFirst(&matches, limit: limit)
    }

    /// The `k` nearest places, nearest first, ties by index; exact.
    ///
    /// A kd-tree over unit vectors picks candidates by chord length (monotone in great-circle
    /// distance) with a margin covering rounding, then the candidates are ranked by their exact
    /// distance (as `distance(from:to:model:unit:)` computes it) and index. When the margin
    /// leaves a doubt (near-equal distances at the k-th place), every place within the margin is
    /// measured. With `.wgs84`, the k nearest by chord give a bound on the k-th geodesic, and
    /// every place whose chord could be that near (see `wgs84MinCurvatureRadius`) is measured.
    /// A share of the set above 1/8 is measured by a plain scan.
    /// - Parameters:
    ///   - k: how many (`0` → none; more than `count` → all).
    ///   - unit: the unit of the returned distances and of `maxDistance`.
    ///   - maxDistance: only places at most this far (inclusive); `nil` = no cap.
    /// - Throws: `.invalidArgument` for a negative `k`, `.countTooLarge` for `k > maxCount`,
    ///   `.notFinite` / `.outOfRange` for a bad `maxDistance`.
    public func nearest(
        to point: Coordinate, count k: Int = 1, model: EarthModel = .sphere, unit: DistanceUnit = .meters,
        maxDistance: Double? = nil
    ) throws(GeoLocError) -> [PlaceMatch] {
        if k < 0 { throw GeoLocError(.invalidArgument, "count \(k) is negative") }
        _ = try checkCount(k)
        if let m = maxDistance {
            guard m.isFinite else { throw GeoLocError(.notFinite, "maximum distance \(show(m)) is not finite") }
            guard m >= 0 else { throw GeoLocError(.outOfRange, "maximum distance \(show(m)) is negative") }
        }
        let k = Swift.min(k, count)
        if k == 0 { return [] }
        let cap = maxDistance ?? .infinity
        let tree = kdtree
        if k * 8 >= count {
            // A large share of the set: measuring everything is cheaper than the tree.
            var all: [PlaceMatch] = []
            for p in 0..<count {
                let d = try exactDistance(from: point, position: p, model: model, unit: unit)
                if d <= cap { all.append(PlaceMatch(index: Int(tree.ids[p]), distance: d)) }
            }
            return nearestFirst(&all, limit: k)
        }
        let q = queryVector(point)
        switch model {
        case .sphere:
            let r = Earth.meanRadius / unit.meters
            let from = HaversineFrom(point, radius: r)
            let capSq = cap == .infinity ? .infinity : ChordBounds.upper(angle: cap / r)
            if k == 1 {
                var one: NearestOne
                if capSq == .infinity {
                    one = tree.nearestOne(q)
                } else {
                    one = NearestOne(cap: capSq)
                    tree.search(q, &one)
                }
                let p = one.position
                if p < 0 { return [] }
                let d = from.distance(lat2: tree.latLon[2 * p], lon2: tree.latLon[2 * p + 1], cosLat2: tree.points[p].w)
                let bound = Swift.min(d, cap)
                if ChordBounds.exceeds(Swift.min(one.minOutside, ChordBounds.cutOff(one.best)), upper: bound / r) {
                    return d <= cap ? [PlaceMatch(index: Int(tree.ids[p]), distance: d)] : []
                }
                return sphereFallback(q, from: from, bound: bound, cap: cap, k: k)
            }
            var heap = NearestK(k: k, cap: capSq)
            defer { heap.deallocate() }
            tree.search(q, &heap)
            var matches: [PlaceMatch] = []
            matches.reserveCapacity(heap.size)
            var farthest = 0.0
            for j in 0..<heap.size {
                let p = heap.positions[j]
                let d = from.distance(lat2: tree.latLon[2 * p], lon2: tree.latLon[2 * p + 1], cosLat2: tree.points[p].w)
                farthest = Swift.max(farthest, d)
                if d <= cap { matches.append(PlaceMatch(index: Int(tree.ids[p]), distance: d)) }
            }
            if heap.size == k {
                let bound = Swift.min(farthest, cap)
                if !(Swift.min(heap.minOutside, ChordBounds.cutOff(heap.worst)) > ChordBounds.upper(angle: bound / r)) {
                    return sphereFallback(q, from: from, bound: bound, cap: cap, k: k)
                }
            }
            return nearestFirst(&matches, limit: k)
        case .wgs84:
            // Candidates by chord, then every place whose geodesic could be as short as the
            // k-th candidate's (see `wgs84MinCurvatureRadius`), measured.
            let scale = unit.meters / wgs84MinCurvatureRadius * (1 + 1e-9)
            let capSq = cap == .infinity ? .infinity : ChordBounds.upper(angle: cap * scale)
            var heap = NearestK(k: k, cap: capSq)
            defer { heap.deallocate() }
            tree.search(q, &heap)
            var farthest = 0.0
            for j in 0..<heap.size {
                farthest = Swift.max(farthest, try exactDistance(from: point, position: heap.positions[j], model: model, unit: unit))
            }
            let limitSq = heap.size == k ? ChordBounds.upper(angle: Swift.min(farthest, cap) * scale) : capSq
            var range = ChordRange(limit: limitSq)
            tree.search(q, &range)
            var matches: [PlaceMatch] = []
            for p in range.positions {
                let d = try exactDistance(from: point, position: p, model: model, unit: unit)
                if d <= cap { matches.append(PlaceMatch(index: Int(tree.ids[p]), distance: d)) }
            }
            return nearestFirst(&matches, limit: k)
        }
    }

    /// Every place in `region`, boundary included (GEOS prepared `covers`).
    ///
    /// The kd-tree finds the places in the region's envelope (a unit-vector box that holds it,
    /// then the envelope test itself), then GEOS's prepared geometry tests each. Coordinates are
    /// planar longitude/latitude: a polygon is not split at the antimeridian, and places' longitudes are in [-180, 180) (a place at 180° east is at -180).
    /// - Parameters:
    ///   - origin: when given, the matches are sorted by distance from it (nearest first, ties
    ///     by index) and carry that distance; otherwise they are in index order with distance 0.
    ///   - limit: at most this many matches, the first in that order (`nil` = all).
    /// - Throws: `.invalidArgument` / `.countTooLarge` for a bad limit, `.noMemory` if GEOS
    ///   cannot create a point.
    public func inside(
        _ region: Region, sortedFrom origin: Coordinate? = nil, model: EarthModel = .sphere,
        unit: DistanceUnit = .meters, limit: Int? = nil
    ) throws(GeoLocError) -> [PlaceMatch] {
        let limit = try checkLimit(limit)
        if limit == 0 || count == 0 { return [] }
        // The places in the region's envelope (as GEOS's envelope test of a point: bounds
        // included), found through the kd-tree with a unit-vector box that holds the envelope.
        let envelope = LonLatBox(
            minLon: region.minLongitude, minLat: region.minLatitude, maxLon: region.maxLongitude,
            maxLat: region.maxLatitude)
        let (low, high) = unitVectorBox(envelope)
        var candidates: [Int] = []
        let latLon = kdtree.latLon
        kdtree.search(boxLow: low, boxHigh: high) { p in
            if envelope.contains(latitude: latLon[2 * p], longitude: latLon[2 * p + 1]) { candidates.append(p) }
        }
        let hits = try region.covered(candidates, latLon: kdtree.latLon)
        guard let origin else {
            var indexes = hits.map { Int(kdtree.ids[$0]) }
            indexes.sort()
            return indexes.prefix(limit).map { PlaceMatch(index: $0, distance: 0) }
        }
        var matches: [PlaceMatch] = []
        matches.reserveCapacity(hits.count)
        for p in hits {
            let d = try exactDistance(from: origin, position: p, model: model, unit: unit)
            matches.append(PlaceMatch(index: Int(kdtree.ids[p]), distance: d))
        }
        return nearestFirst(&matches, limit: limit)
    }

    // MARK: helpers

    /// The candidates (kd-tree positions already within the radius's chord), measured: the
    /// haversine's h rejects the few beyond the radius before its arctangent.
    @inline(__always)
    func sphereMatches(_ found: Candidates, from: HaversineFrom, radius: Double, angle: Double) -> [PlaceMatch] {
        let tree = kdtree
        let n = found.count
        var matches: [PlaceMatch] = []
        matches.reserveCapacity(n)
        let hLimit = HaversineFrom.hLimit(angle: angle)
        for j in 0..<n {
            let p = Int(found.base[j])
            if let d = from.distance(lat2: tree.latLon[2 * p], lon2: tree.latLon[2 * p + 1], cosLat2: tree.points[p].w, hLimit: hLimit),
               d <= radius {
                matches.append(PlaceMatch(index: Int(tree.ids[p]), distance: d))
            }
        }
        return matches
    }

    /// `limit` as a count: `nil` → `count`.
    func checkLimit(_ limit: Int?) throws(GeoLocError) -> Int {
        guard let limit else { return count }
        if limit < 0 { throw GeoLocError(.invalidArgument, "limit \(limit) is negative") }
        return Swift.min(try checkCount(limit, "limit"), count)
    }

    /// The distance from `point` to the place at kd-tree position `p`, as
    /// `distance(from:to:model:unit:)` computes it.
    @inline(__always)
    func exactDistance(from point: Coordinate, position p: Int, model: EarthModel, unit: DistanceUnit) throws(GeoLocError) -> Double {
        let c = Coordinate(checkedLatitude: kdtree.latLon[2 * p], longitude: kdtree.latLon[2 * p + 1])
        if model == .sphere { return point.sphereDistance(to: c, radius: Earth.meanRadius / unit.meters) }
        return try distance(from: point, to: c, model: model, unit: unit)
    }

    /// The nearest place to `point` on the sphere, in meters: what
    /// `nearest(to: point, count: 1)` returns, without building an array (the gazetteer's
    /// reverse geocoding, one search per query); nil for an empty set. `prefetch`: an array of
    /// `stride`-byte records by place index that the caller reads next at the answer's index
    /// (the search asks for it early, see `UnitVectorTree.nearestOnSphere`).
    func nearestOnSphere(to point: Coordinate, prefetch: UnsafeRawPointer? = nil, stride: Int = 0) -> PlaceMatch? {
        if count <= 8 { return (try? nearest(to: point, count: 1))?.first }  // nearest's plain scan
        let tree = kdtree
        // The query vector by the arithmetic of the index's vectors (`PlaceVectors.vector`: the
        // polynomial sine, no libm call; the vector only prunes and ranks within the chord
        // margins), whose fourth lane is the haversine's cos(lat1), `VectorMath.latitudeCosine`.
        let v = PlaceVectors.vector(latitude: point.latitude, longitude: point.longitude)
        let cosPhi = v.w
        let q = SIMD4(v.x, v.y, v.z, 0)
        let r = Earth.meanRadius / DistanceUnit.meters.meters
        let from = HaversineFrom(point, cosLat1: cosPhi, radius: r)
        if let leaves = tree.leafFloats {
            let (p, d, sure) = tree.nearestOnSphere(q, from: from, leaves, prefetch: prefetch, stride: stride)
            if sure { return PlaceMatch(index: Int(tree.ids[p]), distance: d) }
            return sphereFallback(q, from: from, bound: d, cap: .infinity, k: 1).first
        }
        let one = tree.nearestOne(q)
        let p = one.position
        if p < 0 { return nil }
        let d = from.distance(lat2: tree.latLon[2 * p], lon2: tree.latLon[2 * p + 1], cosLat2: tree.points[p].w)
        if ChordBounds.exceeds(Swift.min(one.minOutside, ChordBounds.cutOff(one.best)), upper: d / r) {
            return PlaceMatch(index: Int(tree.ids[p]), distance: d)
        }
        return sphereFallback(q, from: from, bound: d, cap: .infinity, k: 1).first
    }

    /// Every place within the chord margin of `bound`, measured, capped, ranked: the exact
    /// answer when the fast path's margin check is in doubt.
    func sphereFallback(_ q: SIMD4<Double>, from: HaversineFrom, bound: Double, cap: Double, k: Int) -> [PlaceMatch] {
        let tree = kdtree
        var range = ChordRange(limit: ChordBounds.upper(angle: bound / from.radius))
        tree.search(q, &range)
        var matches: [PlaceMatch] = []
        for p in range.positions {
            let d = from.distance(lat2: tree.latLon[2 * p], lon2: tree.latLon[2 * p + 1], cosLat2: tree.points[p].w)
            if d <= cap { matches.append(PlaceMatch(index: Int(tree.ids[p]), distance: d)) }
        }
        return nearestFirst(&matches, limit: k)
    }

}

// MARK: ranking

/// Nearest first, ties by index.
@inline(__always)
func closer(_ a: PlaceMatch, _ b: PlaceMatch) -> Bool {
    a.distance < b.distance || (a.distance == b.distance && a.index < b.index)
}

/// Ranks nearest first (ties by index) and keeps the first `limit`.
///
/// Few matches: insertion sort. Otherwise a bucket sort: bucket = ⌊(d / dmax)² · B⌋ is
/// monotone in d (each step rounds monotonically), so buckets are in distance order, and a
/// circle's matches spread about evenly over squared distance; each bucket is then sorted by
/// (distance, index), and only the buckets holding the first `limit` matches are sorted.
func nearestFirst(_ matches: inout [PlaceMatch], limit: Int) -> [PlaceMatch] {
    let n = matches.count
    if n > 1 {
        matches.withUnsafeMutableBufferPointer { b in
            let a = b.baseAddress.unsafelyUnwrapped
            if n <= 32 {
                sortNearest(a, 0, n)
            } else {
                bucketSortNearest(a, n, limit: limit)
            }
        }
    }
    if n > limit { matches.removeSubrange(limit...) }
    return matches
}

/// The bucket sort of `nearestFirst` (n > 1): afterwards `a[0..<min(limit, n)]` holds the
/// nearest matches in order.
func bucketSortNearest(_ a: UnsafeMutablePointer<PlaceMatch>, _ n: Int, limit: Int) {
    var dmax = 0.0
    for i in 0..<n { dmax = Swift.max(dmax, a[i].distance) }
    let scale = Double(n) / (dmax * dmax)
    guard scale.isFinite && dmax.isFinite else {
        sortNearest(a, 0, n)
        return
    }
    let last = n - 1  // buckets 0...last
    // ends[b + 1] counts bucket b, then (prefix sums) ends[b] is where bucket b starts.
    let ends = UnsafeMutablePointer<Int>.allocate(capacity: n + 1)
    let tmp = UnsafeMutablePointer<PlaceMatch>.allocate(capacity: n)
    defer {
        ends.deallocate()
        tmp.deallocate()
    }
    ends.initialize(repeating: 0, count: n + 1)
    for i in 0..<n { ends[Swift.min(Int(a[i].distance * a[i].distance * scale), last) + 1] += 1 }
    var needed = last  // the last bucket holding one of the first `limit`
    var found = false
    for b in 0...last {
        ends[b + 1] += ends[b]
        if !found && ends[b + 1] >= limit {
            needed = b
            found = true
        }
    }
    let keep = ends[needed + 1]
    // Scatter: a bucket's next free slot is its start, advanced as it fills.
    for i in 0..<n {
        let m = a[i]
        let b = Swift.min(Int(m.distance * m.distance * scale), last)
        let slot = ends[b]
        if slot < keep { tmp[slot] = m }
        ends[b] = slot + 1
    }
    // ends[b] is now bucket b's end: sort the buckets up to `needed`.
    var lo = 0
    for b in 0...needed {
        let hi = ends[b]
        if hi - lo > 1 { sortNearest(tmp, lo, hi) }
        lo = hi
    }
    a.update(from: tmp, count: keep)
}

/// Median-of-three Hoare partition of `lo..<hi` (at least 3 elements): returns `(j, i)` with
/// everything in `lo...j` before everything in `i..<hi`, and `j < i`.
@inline(__always)
func partitionMatches(_ a: UnsafeMutablePointer<PlaceMatch>, _ lo: Int, _ hi: Int) -> (Int, Int) {
    let last = hi - 1
    let m = lo + (hi - lo) / 2
    if closer(a[m], a[lo]) { a.swapElements(m, lo) }
    if closer(a[last], a[lo]) { a.swapElements(last, lo) }
    if closer(a[last], a[m]) { a.swapElements(last, m) }
    let pivot = a[m]
    var i = lo
    var j = last
    while i <= j {
        while closer(a[i], pivot) { i += 1 }
        while closer(pivot, a[j]) { j -= 1 }
        if i <= j {
            a.swapElements(i, j)
            i += 1
            j -= 1
        }
    }
    return (j, i)
}

/// Sorts `lo..<hi` nearest first: quicksort down to 16 elements, then insertion sort. The keys
/// (distance, index) are all distinct.
func sortNearest(_ a: UnsafeMutablePointer<PlaceMatch>, _ lo: Int, _ hi: Int) {
    var lo = lo
    var hi = hi
    while hi - lo > 16 {
        let (j, i) = partitionMatches(a, lo, hi)
        // Recurse into the smaller side, loop on the larger: O(log n) stack.
        if j - lo < hi - i {
            sortNearest(a, lo, j + 1)
            lo = i
        } else {
            sortNearest(a, i, hi)
            hi = j + 1
        }
    }
    if hi - lo < 2 { return }
    for i in (lo + 1)..<hi {
        let x = a[i]
        var j = i
        while j > lo && closer(x, a[j - 1]) {
            a[j] = a[j - 1]
            j -= 1
        }
        a[j] = x
    }
}

/// Moves the `k` nearest of `a[0..<n]` into `a[0..<k]` (in no order).
func selectNearest(_ a: UnsafeMutablePointer<PlaceMatch>, _ n: Int, _ k: Int) {
    var lo = 0
    var hi = n
    while hi - lo > 16 {
        let (j, i) = partitionMatches(a, lo, hi)
        if k <= j {
            hi = j + 1
        } else if k >= i {
            lo = i
        } else {
            return
        }
    }
    sortNearest(a, lo, hi)
}
