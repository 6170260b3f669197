import CGEOS

/// A polygonal region in longitude/latitude degrees (x = longitude, y = latitude), prepared for
/// fast point-in-polygon tests (a GEOS prepared geometry).
///
/// Coordinates are planar: edges are straight lines in longitude/latitude, nothing is special
/// about the antimeridian (a region that crosses it must be given as two polygons, one on each
/// side), and a coordinate's longitude is in [-180, 180) (180° east is tested as -180). A point
/// on the boundary is inside: the test is GEOS's `covers` (exact orientation predicates, so a
/// vertex or a point exactly on an edge is in).
///
/// GEOS 3.11 has no prepared test of raw coordinates (`GEOSPreparedContainsXY` came in 3.12), so
/// each test makes a point geometry: under `GEOSFactoryLock`, in batches of 256 for
/// `PlaceSet.inside` (one lock for the batch's creations, one for its destructions, the tests
/// unlocked in between). The prepared geometry builds its indexes lazily on its first tests,
/// which would race between threads, so `init` runs two tests (an interior point and the
/// centroid) before the region can be shared. Immutable; safe to use from many threads at once.
public final class Region: @unchecked Sendable {
    let context: GEOSContext
    /// The geometry (owned) and its prepared form (owned).
    let geometry: OpaquePointer
    let prepared: OpaquePointer
    /// The envelope, degrees.
    public let minLongitude: Double
    public let minLatitude: Double
    public let maxLongitude: Double
    public let maxLatitude: Double

    /// Reads a Polygon or MultiPolygon from Well-Known Text, e.g.
    /// `"POLYGON((-1 50, 2 50, 2 52, -1 52, -1 50))"` (longitude first). Z values are ignored.
    /// - Throws: `.parse` with GEOS's message for text GEOS cannot read, or for text after the
    ///   geometry; `.invalidArgument` for
    ///   another geometry type, an empty or invalid (e.g. self-intersecting) polygon;
    ///   `.outOfRange` if a vertex is outside latitude ±90 / longitude ±180; `.notFinite` for a
    ///   NaN or infinite vertex.
    public convenience init(wkt: String) throws(GeoLocError) {
        try Region.refuseTextAfterWKT(wkt)
        let context = try GEOSContext()
        let g = try GEOSFactoryLock.withLock { () throws(GeoLocError) -> OpaquePointer in
            try Region.read(wkt, "WKT", context) { h, text in
                guard let reader = GEOSWKTReader_create_r(h) else { return nil }
                defer { GEOSWKTReader_destroy_r(h, reader) }
                return GEOSWKTReader_read_r(h, reader, text)
            }
        }
        try self.init(context: context, adopting: g)
    }

    /// GEOS's WKT reader stops at the end of the geometry and ignores what follows it: text after
    /// the parenthesis that closes the first one (other than whitespace) is a `.parse` error, as
    /// in the GeoJSON and coordinate readers. Unbalanced text is left to GEOS to report.
    static func refuseTextAfterWKT(_ wkt: String) throws(GeoLocError) {
        let u = wkt.utf8
        guard let open = u.firstIndex(of: 40) else { return }  // "("
        var depth = 0
        var i = open
        while i < u.endIndex {
            let b = u[i]
            if b == 40 { depth += 1 } else if b == 41 {
                depth -= 1
                if depth == 0 { break }
            }
            i = u.index(after: i)
        }
        guard i < u.endIndex else { return }
        let rest = wkt[u.index(after: i)...]
        if !trimmed(rest).isEmpty {
            throw GeoLocError(.parse, "WKT: there is text after the geometry: \(quote(trimmed(rest)))")
        }
    }

    /// Reads a GeoJSON Polygon or MultiPolygon geometry, or a Feature or FeatureCollection whose
    /// geometries are all Polygons or MultiPolygons (their union is the region).
    /// - Throws: as `init(wkt:)`; `.parse` with GEOS's message for JSON GEOS cannot read.
    public convenience init(geoJSON: String) throws(GeoLocError) {
        let context = try GEOSContext()
        let g = try GEOSFactoryLock.withLock { () throws(GeoLocError) -> OpaquePointer in
            let read = try Region.read(geoJSON, "GeoJSON", context) { h, text in
                guard let reader = GEOSGeoJSONReader_create_r(h) else { return nil }
                defer { GEOSGeoJSONReader_destroy_r(h, reader) }
                return GEOSGeoJSONReader_readGeometry_r(h, reader, text)
            }
            // A FeatureCollection reads as a GeometryCollection: every member must be polygonal;
            // their union is the region.
            let h = context.handle
            guard GEOSGeomTypeId_r(h, read) == Int32(GEOS_GEOMETRYCOLLECTION.rawValue) else { return read }
            defer { GEOSGeom_destroy_r(h, read) }
            let n = Int(GEOSGetNumGeometries_r(h, read))
            for j in 0..<n {
                guard let member = GEOSGetGeometryN_r(h, read, Int32(j)) else { continue }
                try Region.checkPolygonal(member, h, what: "GeoJSON feature \(j)")
                try Region.checkVertices(member, h)
                try Region.checkValid(member, context, what: "GeoJSON feature \(j)")
            }
            if n == 0 { throw GeoLocError(.invalidArgument, "the GeoJSON holds no polygon") }
            if n == 1, let only = GEOSGetGeometryN_r(h, read, 0), let copy = GEOSGeom_clone_r(h, only) {
                return copy
            }
            guard let union = GEOSUnaryUnion_r(h, read) else {
                throw GeoLocError(.internalError, "GEOS could not merge the features: \(context.takeError("unknown error"))")
            }
            return union
        }
        try self.init(context: context, adopting: g)
    }

    /// Takes ownership of `g`: checks it, prepares it, and builds the prepared geometry's lazy
    /// indexes with two tests so that later tests from many threads only read them.
    init(context: GEOSContext, adopting g: OpaquePointer) throws(GeoLocError) {
        let h = context.handle
        self.context = context
        let prepared: OpaquePointer = try GEOSFactoryLock.withLock { () throws(GeoLocError) -> OpaquePointer in
            do throws(GeoLocError) {
                try Region.checkPolygonal(g, h, what: "the region")
                if GEOSisEmpty_r(h, g) != 0 { throw GeoLocError(.invalidArgument, "the region is empty") }
                try Region.checkVertices(g, h)
                try Region.checkValid(g, context, what: "the region")
                guard let p = GEOSPrepare_r(h, g) else {
                    throw GeoLocError(.noMemory, "GEOS could not prepare the region: \(context.takeError("out of memory"))")
                }
                for point in [GEOSPointOnSurface_r(h, g), GEOSGetCentroid_r(h, g)] {
                    guard let point else { continue }
                    _ = GEOSPreparedCovers_r(h, p, point)
                    GEOSGeom_destroy_r(h, point)
                }
                return p
            } catch {
                GEOSGeom_destroy_r(h, g)
                throw error
            }
        }
        geometry = g
        self.prepared = prepared
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        _ = GEOSGeom_getXMin_r(h, g, &x0)
        _ = GEOSGeom_getYMin_r(h, g, &y0)
        _ = GEOSGeom_getXMax_r(h, g, &x1)
        _ = GEOSGeom_getYMax_r(h, g, &y1)
        minLongitude = x0
        minLatitude = y0
        maxLongitude = x1
        maxLatitude = y1
    }

    deinit {
        let h = context.handle
        GEOSFactoryLock.withLock {
            GEOSPreparedGeom_destroy_r(h, prepared)
            GEOSGeom_destroy_r(h, geometry)
        }
    }

    /// Whether `c` is inside the region or on its boundary.
    public func contains(_ c: Coordinate) -> Bool {
        let x = c.longitude, y = c.latitude
        if !(x >= minLongitude && x <= maxLongitude && y >= minLatitude && y <= maxLatitude) { return false }
        let h = context.handle
        guard let p = GEOSFactoryLock.withLock({ GEOSGeom_createPointFromXY_r(h, x, y) }) else { return false }
        let r = GEOSPreparedCovers_r(h, prepared, p)
        GEOSFactoryLock.withLock { GEOSGeom_destroy_r(h, p) }
        return r == 1
    }

    /// The places among `candidates` the region covers, in candidate order. Points are made in
    /// batches under the factory lock, tested unlocked, destroyed in batches under the lock.
    func covered(_ candidates: [Int], latLon: UnsafePointer<Double>) throws(GeoLocError) -> [Int] {
        let h = context.handle
        let batch = 256
        var hits: [Int] = []
        var points = [OpaquePointer?](repeating: nil, count: Swift.min(batch, candidates.count))
        var start = 0
        while start < candidates.count {
            let end = Swift.min(start + batch, candidates.count)
            var failed = false
            GEOSFactoryLock.withLock {
                for j in start..<end {
                    let i = candidates[j]
                    points[j - start] = GEOSGeom_createPointFromXY_r(h, latLon[2 * i + 1], latLon[2 * i])
                }
            }
            for j in start..<end {
                guard let p = points[j - start] else {
                    failed = true
                    continue
                }
                let r = GEOSPreparedCovers_r(h, prepared, p)
                if r == 1 { hits.append(candidates[j]) } else if r != 0 { failed = true }
            }
            GEOSFactoryLock.withLock {
                for j in 0..<(end - start) {
                    if let p = points[j] { GEOSGeom_destroy_r(h, p) }
                    points[j] = nil
                }
            }
            if failed { throw GeoLocError(.noMemory, "GEOS could not test a point against the region") }
            start = end
        }
        return hits
    }

    // MARK: reading and checking (under the factory lock)

    static func read(
        _ text: String, _ format: String, _ context: GEOSContext,
        _ body: (GEOSContextHandle_t, UnsafePointer<CChar>) -> OpaquePointer?
    ) throws(GeoLocError) -> OpaquePointer {
        if text.utf8.contains(0) {
            throw GeoLocError(.parse, "the \(format) text contains a NUL byte")
        }
        let g = text.withCString { body(context.handle, $0) }
        guard let g else {
            throw GeoLocError(.parse, "\(format) \(quote(text)): \(context.takeError("GEOS could not read it"))")
        }
        return g
    }

    static func typeName(_ id: Int32) -> String {
        switch UInt32(bitPattern: id) {
        case GEOS_POINT.rawValue: return "a Point"
        case GEOS_LINESTRING.rawValue: return "a LineString"
        case GEOS_LINEARRING.rawValue: return "a LinearRing"
        case GEOS_POLYGON.rawValue: return "a Polygon"
        case GEOS_MULTIPOINT.rawValue: return "a MultiPoint"
        case GEOS_MULTILINESTRING.rawValue: return "a MultiLineString"
        case GEOS_MULTIPOLYGON.rawValue: return "a MultiPolygon"
        case GEOS_GEOMETRYCOLLECTION.rawValue: return "a GeometryCollection"
        default: return "geometry type \(id)"
        }
    }

    static func checkPolygonal(_ g: OpaquePointer, _ h: GEOSContextHandle_t, what: String) throws(GeoLocError) {
        let id = GEOSGeomTypeId_r(h, g)
        guard id == Int32(GEOS_POLYGON.rawValue) || id == Int32(GEOS_MULTIPOLYGON.rawValue) else {
            throw GeoLocError(.invalidArgument, "\(what) is \(typeName(id)), not a Polygon or MultiPolygon")
        }
    }

    /// Every vertex finite and within longitude [-180, 180], latitude [-90, 90].
    static func checkVertices(_ g: OpaquePointer, _ h: GEOSContextHandle_t) throws(GeoLocError) {
        func ring(_ r: OpaquePointer?) throws(GeoLocError) {
            guard let r, let seq = GEOSGeom_getCoordSeq_r(h, r) else { return }
            var n: UInt32 = 0
            _ = GEOSCoordSeq_getSize_r(h, seq, &n)
            for j in 0..<n {
                var x = 0.0, y = 0.0
                _ = GEOSCoordSeq_getXY_r(h, seq, j, &x, &y)
                guard x.isFinite && y.isFinite else {
                    throw GeoLocError(.notFinite, "vertex (\(show(x)) \(show(y))) is not finite")
                }
                guard x >= -180 && x <= 180 && y >= -90 && y <= 90 else {
                    throw GeoLocError(
                        .outOfRange, "vertex (\(show(x)) \(show(y))) is outside longitude ±180 / latitude ±90")
                }
            }
        }
        let parts = GEOSGeomTypeId_r(h, g) == Int32(GEOS_MULTIPOLYGON.rawValue) ? Int(GEOSGetNumGeometries_r(h, g)) : 1
        for k in 0..<parts {
            guard let polygon = parts == 1 && GEOSGeomTypeId_r(h, g) == Int32(GEOS_POLYGON.rawValue)
                ? g : GEOSGetGeometryN_r(h, g, Int32(k))
            else { continue }
            if GEOSisEmpty_r(h, polygon) != 0 { continue }
            try ring(GEOSGetExteriorRing_r(h, polygon))
            let holes = GEOSGetNumInteriorRings_r(h, polygon)
            if holes > 0 {
                for j in 0..<holes { try ring(GEOSGetInteriorRingN_r(h, polygon, j)) }
            }
        }
    }

    static func checkValid(_ g: OpaquePointer, _ context: GEOSContext, what: String) throws(GeoLocError) {
        let h = context.handle
        switch GEOSisValid_r(h, g) {
        case 1:
            return
        case 0:
            var reason = "invalid"
            if let r = GEOSisValidReason_r(h, g) {
                reason = String(cString: r)
                GEOSFree_r(h, r)
            }
            throw GeoLocError(.invalidArgument, "\(what) is not a valid polygon: \(reason)")
        default:
            throw GeoLocError(.invalidArgument, "\(what) could not be checked: \(context.takeError("GEOS error"))")
        }
    }
}
