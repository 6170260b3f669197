import CGEOS

/// The callback GEOS calls with each item an STRtree query finds: the item pointer (a kd-tree
/// position as its bit pattern) and the query's userdata.
typealias TreeVisitor = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void

/// GEOS's STRtree over the places' points (x = longitude, y = latitude), with its own context.
///
/// One item per place: its position in the kd-tree's order (`UnitVectorTree`), as the pointer
/// value (position 0 is the null pointer, which GEOS stores and returns like any other). The
/// positions of nearby places are close together, so a query reads the coordinates it needs
/// from a few cache lines instead of from all over the set (`ids[position]` is the index).
///
/// GEOS 3.11's tree has no explicit build call: it builds on its first query, and two threads
/// racing on that first query corrupt it, so `init` forces the build with one query before the
/// tree can be shared; after that, queries only read the tree. Query geometries are made and
/// destroyed under `GEOSFactoryLock`.
///
/// Memory: GEOS keeps 48 bytes per node in one vector that grows by doubling as items go in
/// (no way to reserve through the C API), so 144,563 places take 262,144 slots: 87 bytes a
/// place.
final class PlaceRTree {
    let context: GEOSContext
    /// `nil` for an empty set: an STRtree with no items never counts as built.
    let tree: OpaquePointer?

    /// Children per node: GEOS's default, 10; 6 to 24 measured, 8 to 12 equally fast.
    static let nodeCapacity = 10

    /// Indexes `n` points given as `[lat0, lon0, lat1, lon1, ...]` (the kd-tree's order); item
    /// `i` is point `i`.
    init(latLon: UnsafePointer<Double>, count n: Int, nodeCapacity: Int = PlaceRTree.nodeCapacity) throws(GeoLocError) {
        context = try GEOSContext()
        guard n > 0 else {
            tree = nil
            return
        }
        let h = context.handle
        guard let t = GEOSSTRtree_create_r(h, nodeCapacity) else {
            throw GeoLocError(.noMemory, "GEOS could not create an STRtree: \(context.takeError("out of memory"))")
        }
        tree = t
        // The tree keeps only each point's envelope, so points are made, inserted and destroyed
        // in batches (made and destroyed under the factory lock, inserted without it). They go
        // in by longitude: the build's first sort (by x) then finds them sorted, which takes a
        // third off GEOS's build.
        let order = PlaceRTree.longitudeOrder(latLon, n)
        defer { order.deallocate() }
        let batch = 4096
        let points = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: batch)
        defer { points.deallocate() }
        var start = 0
        var failed = false
        while start < n && !failed {
            let m = Swift.min(batch, n - start)
            GEOSFactoryLock.withLock {
                for j in 0..<m {
                    let i = Int(order[start + j])
                    points[j] = GEOSGeom_createPointFromXY_r(h, latLon[2 * i + 1], latLon[2 * i])
                }
            }
            for j in 0..<m {
                guard let p = points[j] else {
                    failed = true
                    continue
                }
                GEOSSTRtree_insert_r(h, t, p, UnsafeMutableRawPointer(bitPattern: Int(order[start + j])))
            }
            GEOSFactoryLock.withLock {
                for j in 0..<m { if let p = points[j] { GEOSGeom_destroy_r(h, p) } }
            }
            start += m
        }
        if failed {
            throw GeoLocError(.noMemory, "GEOS could not create a point: \(context.takeError("out of memory"))")
        }
        // The first query builds the tree (sorts the items into nodes).
        try query(LonLatBox(minLon: 0, minLat: 0, maxLon: 0, maxLat: 0), userdata: nil) { _, _ in }
    }

    deinit {
        if let tree { GEOSSTRtree_destroy_r(context.handle, tree) }
    }

    /// The points `0..<n` ordered by longitude, to 2^-32 of a turn (two radix passes). The
    /// caller deallocates.
    static func longitudeOrder(_ latLon: UnsafePointer<Double>, _ n: Int) -> UnsafeMutablePointer<UInt32> {
        let keys = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
        defer { keys.deallocate() }
        let scale = 4_294_967_296.0 / 360
        for i in 0..<n {
            let k = (latLon[2 * i + 1] + 180) * scale  // [0, 2^32]
            keys[i] = k < 4_294_967_295 ? UInt32(k) : .max
        }
        var order = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
        var spare = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
        for i in 0..<n { order[i] = UInt32(truncatingIfNeeded: i) }
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: 1 << 16)
        defer {
            counts.deallocate()
            spare.deallocate()
        }
        for shift: UInt32 in [0, 16] {
            counts.initialize(repeating: 0, count: 1 << 16)
            for i in 0..<n { counts[Int((keys[Int(order[i])] >> shift) & 0xFFFF)] += 1 }
            var sum = 0
            for d in 0..<(1 << 16) {
                let c = counts[d]
                counts[d] = sum
                sum += c
            }
            for i in 0..<n {
                let o = order[i]
                let d = Int((keys[Int(o)] >> shift) & 0xFFFF)
                spare[counts[d]] = o
                counts[d] += 1
            }
            swap(&order, &spare)
        }
        return order
    }

    /// Calls `visit(item, userdata)` for every place in the box (degrees, bounds included).
    /// Safe from many threads at once.
    ///
    /// The query geometry is the box's diagonal, a two-point LineString (the tree only reads its
    /// envelope): its coordinates are copied without the lock, and only making and destroying the
    /// line take the factory lock.
    @inline(__always)
    func query(_ box: LonLatBox, userdata: UnsafeMutableRawPointer?, _ visit: TreeVisitor) throws(GeoLocError) {
        guard let tree else { return }
        let h = context.handle
        let corners = (box.minLon, box.minLat, box.maxLon, box.maxLat)
        let sequence = withUnsafeBytes(of: corners) {
            GEOSCoordSeq_copyFromBuffer_r(h, $0.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: Double.self), 2, 0, 0)
        }
        guard let sequence else { throw GeoLocError(.noMemory, "GEOS could not create a query envelope") }
        // The line takes the sequence over (even when it fails: GEOS owns it from the call on).
        guard let line = GEOSFactoryLock.withLock({ GEOSGeom_createLineString_r(h, sequence) }) else {
            throw GeoLocError(.noMemory, "GEOS could not create a query envelope")
        }
        GEOSSTRtree_query_r(h, tree, line, visit, userdata)
        GEOSFactoryLock.withLock { GEOSGeom_destroy_r(h, line) }
    }

    /// Calls `visit` for every place in the envelope of `geometry` (which is only read).
    func query(envelopeOf geometry: OpaquePointer, userdata: UnsafeMutableRawPointer?, _ visit: TreeVisitor) {
        guard let tree else { return }
        GEOSSTRtree_query_r(context.handle, tree, geometry, visit, userdata)
    }
}
