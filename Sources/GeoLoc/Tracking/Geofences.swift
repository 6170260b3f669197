#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A circular geofence: every point within `radius` meters (great-circle, on the sphere of
/// `Earth.meanRadius`) of `center`.
public struct CircleFence: Sendable, Equatable {
    public var id: String
    public var center: Coordinate
    /// Meters, finite, > 0.
    public var radius: Double
    public init(id: String, center: Coordinate, radius: Double) {
        self.id = id
        self.center = center
        self.radius = radius
    }
}

/// A polygonal geofence: one ring of at least 3 vertices (closing it is optional), edges straight
/// in longitude/latitude as `Region`'s. Unlike `Region`, a ring may cross the antimeridian: each
/// vertex is taken on the side of its predecessor nearer to it (so 179 -> -179 is a 2° edge).
/// A ring that goes all the way round a pole is refused (use a circle around the pole).
public struct PolygonFence: Sendable, Equatable {
    public var id: String
    public var vertices: [Coordinate]
    public init(id: String, vertices: [Coordinate]) {
        self.id = id
        self.vertices = vertices
    }
}

/// An axis-aligned box in the space of unit vectors.
struct Box3 {
    var lo: SIMD3<Double>
    var hi: SIMD3<Double>
    static let all = Box3(lo: SIMD3(repeating: -2), hi: SIMD3(repeating: 2))
}

/// A set of geofences (circles first, then polygons: region i is circle i for i < circleCount),
/// indexed for the question "which regions may contain this point".
///
/// The index is a bounding-volume tree over the regions' boxes in the space of unit vectors
/// (a circle's box is its centre's vector ± the chord of its radius; a polygon's is the exact box
/// of its latitude/longitude rectangle). In that space nothing is special about the antimeridian
/// or the poles, and regions of any size share one tree: a point query visits O(log n + k) nodes,
/// k the number of regions whose box holds the point. (The place sets' k-d tree indexes points,
/// not extents, so circles of mixed radii and polygons could not share it.)
///
/// Immutable once made: any number of monitors and threads may use one set at once.
public final class Geofences: @unchecked Sendable {
    public let ids: [String]
    public let circleCount: Int
    public var count: Int { ids.count }

    // Circles: centre vector, radius in meters, cos of the angular radius (containment test).
    let centers: [SIMD3<Double>]
    let radii: [Double]
    let centerLatLon: [Double]
    // Polygons: vertices as (lat, lon) with unwrapped longitudes, rings by offsets.
    let polyLatLon: [Double]
    let polyOffsets: [Int]
    let polyMinLon: [Double]
    // The tree: nodes (box, and first/count for leaves or the first child for inner nodes).
    let nodeLo: [SIMD4<Double>]
    let nodeHi: [SIMD4<Double>]
    let nodeFirst: [Int32]
    let nodeCount: [Int32]
    let order: [Int32]
    /// A hash of every region (ids, kinds, coordinates, radii): saved monitor state names it.
    public let fingerprint: UInt64

    /// - Throws: `.outOfRange` for a radius not > 0 (or above half the Earth's circumference),
    ///   `.notFinite` for a NaN or infinite radius, `.invalidArgument` for a polygon with fewer
    ///   than 3 distinct vertices or one that encircles a pole, `.countTooLarge` for more than
    ///   `maxCount` regions. The message names the region (`circles[3]`, `polygons[0]`).
    public init(circles: [CircleFence], polygons: [PolygonFence] = []) throws(GeoLocError) {
        let n = circles.count + polygons.count
        if n > maxCount { throw GeoLocError(.countTooLarge, "\(n) regions is more than GEOLOC_MAX_COUNT") }
        var ids = [String]()
        ids.reserveCapacity(n)
        var centers = [SIMD3<Double>](), radii = [Double](), centerLatLon = [Double]()
        var boxes = [Box3]()
        boxes.reserveCapacity(n)
        let halfTurn = Double.pi * Earth.meanRadius
        for (i, c) in circles.enumerated() {
            if !c.radius.isFinite { throw GeoLocError(.notFinite, "circles[\(i)]: radius \(show(c.radius)) is not finite") }
            if !(c.radius > 0) || c.radius > halfTurn {
                throw GeoLocError(.outOfRange, "circles[\(i)]: radius \(show(c.radius)) is outside (0, \(show(halfTurn))] m")
            }
            let v = unit3(c.center.latitude, c.center.longitude)
            centers.append(v)
            radii.append(c.radius)
            centerLatLon.append(c.center.latitude)
            centerLatLon.append(c.center.longitude)
            let theta = c.radius / Earth.meanRadius
            if theta >= Double.pi * 0.999 {
                boxes.append(.all)
            } else {
                let chord = 2 * sin(theta / 2) * (1 + 1e-9) + 1e-12
                boxes.append(Box3(lo: v - SIMD3(repeating: chord), hi: v + SIMD3(repeating: chord)))
            }
            ids.append(c.id)
        }
        var polyLatLon = [Double](), polyOffsets = [0], polyMinLon = [Double]()
        for (i, p) in polygons.enumerated() {
            var ring = p.vertices
            if ring.count > 1 && ring.first == ring.last { ring.removeLast() }
            // Its distinct vertices: a repeated vertex (one after another, round the ring) adds
            // no edge, so a ring of three identical vertices has one, not two.
            var edges = 0
            for k in ring.indices where ring[k] != ring[(k + 1) % ring.count] { edges += 1 }
            let distinct = ring.isEmpty ? 0 : Swift.max(edges, 1)
            guard distinct >= 3 else {
                throw GeoLocError(
                    .invalidArgument,
                    "polygons[\(i)]: a ring needs at least 3 distinct vertices, it has \(distinct) (of \(p.vertices.count) given)")
            }
            // Unwrap: each longitude within 180° of its predecessor's.
            var lons = [ring[0].longitude]
            for k in 1..<ring.count {
                var l = ring[k].longitude
                let prev = lons[k - 1]
                while l - prev > 180 { l -= 360 }
                while l - prev < -180 { l += 360 }
                lons.append(l)
            }
            let close = lons[ring.count - 1]
            var back = ring[0].longitude
            while back - close > 180 { back -= 360 }
            while back - close < -180 { back += 360 }
            if abs(back - lons[0]) > 1e-9 {
                throw GeoLocError(.invalidArgument, "polygons[\(i)]: the ring encircles a pole (use a circle fence there)")
            }
            var minLat = 90.0, maxLat = -90.0, minLon = Double.infinity, maxLon = -Double.infinity
            for k in 0..<ring.count {
                polyLatLon.append(ring[k].latitude)
                polyLatLon.append(lons[k])
                minLat = min(minLat, ring[k].latitude); maxLat = max(maxLat, ring[k].latitude)
                minLon = min(minLon, lons[k]); maxLon = max(maxLon, lons[k])
            }
            if maxLon - minLon >= 360 {
                throw GeoLocError(.invalidArgument, "polygons[\(i)]: the ring spans 360° of longitude")
            }
            polyOffsets.append(polyLatLon.count / 2)
            polyMinLon.append(minLon)
            boxes.append(latLonBox(minLat, maxLat, minLon, maxLon))
            ids.append(p.id)
        }
        self.ids = ids
        self.circleCount = circles.count
        self.centers = centers
        self.radii = radii
        self.centerLatLon = centerLatLon
        self.polyLatLon = polyLatLon
        self.polyOffsets = polyOffsets
        self.polyMinLon = polyMinLon

        var h = FNV1a()
        h.add(UInt64(circles.count)); h.add(UInt64(polygons.count))
        for s in ids { h.add(s) }
        for d in centerLatLon { h.add(d) }
        for d in radii { h.add(d) }
        for d in polyLatLon { h.add(d) }
        for o in polyOffsets { h.add(UInt64(o)) }
        fingerprint = h.value

        // Build the tree: median splits along the box centres' widest axis, leaves of <= 4.
        var lo = [SIMD4<Double>](), hi = [SIMD4<Double>](), first = [Int32](), cnt = [Int32]()
        var order = (0..<n).map { Int32($0) }
        let mids = boxes.map { ($0.lo + $0.hi) * 0.5 }
        func bounds(_ a: Int, _ b: Int) -> Box3 {
            var r = Box3(lo: SIMD3(repeating: .infinity), hi: SIMD3(repeating: -.infinity))
            for k in a..<b {
                let bx = boxes[Int(order[k])]
                r.lo = pointwiseMin(r.lo, bx.lo)
                r.hi = pointwiseMax(r.hi, bx.hi)
            }
            return r
        }
        func build(_ node: Int, _ a: Int, _ b: Int) {
            let bx = bounds(a, b)
            lo[node] = SIMD4(bx.lo, 0)
            hi[node] = SIMD4(bx.hi, 0)
            if b - a <= 4 {
                first[node] = Int32(a)
                cnt[node] = Int32(b - a)
                return
            }
            var mlo = SIMD3<Double>(repeating: .infinity), mhi = SIMD3<Double>(repeating: -.infinity)
            for k in a..<b {
                mlo = pointwiseMin(mlo, mids[Int(order[k])])
                mhi = pointwiseMax(mhi, mids[Int(order[k])])
            }
            let ext = mhi - mlo
            let axis = ext.x >= ext.y && ext.x >= ext.z ? 0 : (ext.y >= ext.z ? 1 : 2)
            order[a..<b].sort { mids[Int($0)][axis] < mids[Int($1)][axis] || (mids[Int($0)][axis] == mids[Int($1)][axis] && $0 < $1) }
            let m = (a + b) / 2
            let child = lo.count
            lo.append(.zero); lo.append(.zero); hi.append(.zero); hi.append(.zero)
            first.append(0); first.append(0); cnt.append(0); cnt.append(0)
            first[node] = Int32(child)
            cnt[node] = 0
            build(child, a, m)
            build(child + 1, m, b)
        }
        lo.append(.zero); hi.append(.zero); first.append(0); cnt.append(0)
        if n > 0 {
            build(0, 0, n)
        } else {
            lo[0] = SIMD4(repeating: 1); hi[0] = SIMD4(repeating: -1)
        }
        nodeLo = lo; nodeHi = hi; nodeFirst = first; nodeCount = cnt
        self.order = order
    }

    /// Calls `visit(region)` for every region whose box holds the unit vector `p` (a superset
    /// of the regions that contain the point), in no particular order. `stack` is scratch space.
    @inline(__always)
    func candidates(_ p: SIMD3<Double>, stack: inout [Int32], _ visit: (Int) -> Void) {
        if ids.isEmpty { return }
        let q = SIMD4(p, 0)
        nodeLo.withUnsafeBufferPointer { lo in
            nodeHi.withUnsafeBufferPointer { hi in
                nodeFirst.withUnsafeBufferPointer { first in
                    nodeCount.withUnsafeBufferPointer { cnt in
                        order.withUnsafeBufferPointer { ord in
                            stack.removeAll(keepingCapacity: true)
                            stack.append(0)
                            while let node = stack.popLast() {
                                let k = Int(node)
                                let inside = (q .>= lo[k]) .& (q .<= hi[k])
                                guard inside[0] && inside[1] && inside[2] else { continue }
                                let c = Int(cnt[k])
                                if c > 0 {
                                    let f = Int(first[k])
                                    for j in f..<(f + c) { visit(Int(ord[j])) }
                                } else {
                                    stack.append(first[k])
                                    stack.append(first[k] + 1)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The signed distance in meters from a point to region r's boundary: negative inside,
    /// positive outside. Circles: great-circle distance to the centre minus the radius.
    /// Polygons: even-odd containment in longitude/latitude, and the distance to the nearest edge
    /// measured in the plane tangent at the point (equirectangular, accurate for the edges near
    /// the point, which are the ones that decide; approximate near the poles).
    @inline(__always)
    func signedDistance(_ r: Int, lat: Double, lon: Double, vector p: SIMD3<Double>) -> Double {
        if r < circleCount {
            return angleBetween(p, centers[r]) * Earth.meanRadius - radii[r]
        }
        return polygonDistance(r - circleCount, lat: lat, lon: lon)
    }

    func polygonDistance(_ j: Int, lat: Double, lon: Double) -> Double {
        let a = polyOffsets[j], b = polyOffsets[j + 1]
        // The point's longitude in [base, base + 360), base the ring's least (unwrapped, within
        // ±540) longitude: reduced first, so any finite longitude takes at most two steps.
        var x = normalizedLongitude(lon)
        let base = polyMinLon[j]
        while x < base { x += 360 }
        while x >= base + 360 { x -= 360 }
        let k = Earth.meanRadius * Double.pi / 180
        let kx = k * cos(lat * Double.pi / 180)
        var inside = false
        var best = Double.infinity
        return polyLatLon.withUnsafeBufferPointer { v in
            var j0 = b - 1
            for i in a..<b {
                let yi = v[2 * i], xi = v[2 * i + 1], yj = v[2 * j0], xj = v[2 * j0 + 1]
                if (yi > lat) != (yj > lat) {
                    let xc = xi + (lat - yi) / (yj - yi) * (xj - xi)
                    if x < xc { inside.toggle() }
                }
                // Edge in metres around the point.
                let ax = (xi - x) * kx, ay = (yi - lat) * k
                let bx = (xj - x) * kx, by = (yj - lat) * k
                let dx = bx - ax, dy = by - ay
                let len2 = dx * dx + dy * dy
                var t = len2 > 0 ? -(ax * dx + ay * dy) / len2 : 0
                t = min(max(t, 0), 1)
                let px = ax + t * dx, py = ay + t * dy
                best = min(best, px * px + py * py)
                j0 = i
            }
            let d = best.squareRoot()
            return inside ? -d : d
        }
    }
}

/// The box of the unit vectors of a latitude/longitude rectangle (longitudes unwrapped,
/// maxLon - minLon < 360), slightly widened for rounding.
func latLonBox(_ minLat: Double, _ maxLat: Double, _ minLon: Double, _ maxLon: Double) -> Box3 {
    let d2r = Double.pi / 180
    let zLo = sin(minLat * d2r), zHi = sin(maxLat * d2r)
    let c1 = cos(minLat * d2r), c2 = cos(maxLat * d2r)
    let cLo = min(c1, c2)
    let cHi = (minLat <= 0 && maxLat >= 0) ? 1.0 : max(c1, c2)
    // Range of cos and sin of the longitude over [minLon, maxLon].
    func range(_ f: (Double) -> Double, _ extremes: [Double]) -> (Double, Double) {
        var lo = min(f(minLon * d2r), f(maxLon * d2r)), hi = max(f(minLon * d2r), f(maxLon * d2r))
        for e in extremes {
            // Does e + 360k fall in [minLon, maxLon]?
            let k = (minLon - e) / 360
            let first = e + 360 * k.rounded(.up)
            if first <= maxLon {
                lo = min(lo, f(e * d2r)); hi = max(hi, f(e * d2r))
            }
        }
        return (lo, hi)
    }
    let (cosLo, cosHi) = range(cos, [0, 180])
    let (sinLo, sinHi) = range(sin, [90, -90])
    func product(_ a0: Double, _ a1: Double, _ b0: Double, _ b1: Double) -> (Double, Double) {
        let p = [a0 * b0, a0 * b1, a1 * b0, a1 * b1]
        return (p.min()!, p.max()!)
    }
    let (xLo, xHi) = product(cLo, cHi, cosLo, cosHi)
    let (yLo, yHi) = product(cLo, cHi, sinLo, sinHi)
    let e = 1e-9
    return Box3(lo: SIMD3(xLo - e, yLo - e, zLo - e), hi: SIMD3(xHi + e, yHi + e, zHi + e))
}
