#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Error bounds of the chord search, in squared chord length (the unit sphere's).
///
/// Stored unit vectors are within ~3 ulp of the true ones, so a computed chord is within ~2e-15
/// of the true chord of the two coordinates; the incremental lower bound `rd` of a subtree
/// gathers at most ~3 roundings of values <= 12 per level, < 1e-13 over the tree's depth (the
/// looser bound of `nearestOne`, a maximum of squared gaps, at most 3 roundings in all).
enum ChordBounds {
    /// A subtree is searched when its lower bound `rd <= prune(w)`, `w` the current k-th best.
    @inline(__always)
    static func prune(_ w: Double) -> Double { w * (1 + 1e-9) + 4e-13 }

    /// A strict lower bound of every computed squared chord in a subtree that `prune(w)` cut off.
    @inline(__always)
    static func cutOff(_ w: Double) -> Double { w * (1 + 1e-9) + 2e-13 }

    /// Whether `x > upper(angle: angle)`, most often without the sine: below half a radian, first
    /// against the same bound with sin(h) replaced by h - h³/6 + h⁵/120, which is at least sin(h)
    /// for every h >= 0 (widened by 1e-14 for its roundings), so larger than `upper`: when `x`
    /// exceeds it, it exceeds `upper`. Otherwise `upper` decides. (Within 1e-9 of `upper` up to
    /// 0.18 radians, far inside the margins the callers compare with.)
    @inline(__always)
    static func exceeds(_ x: Double, upper angle: Double) -> Bool {
        let a = angle * (1 + 1e-12)
        if a >= 0 && a < 0.5 {
            let h = a / 2
            let h2 = h * h
            let s = h * (1 - h2 / 6 * (1 - h2 / 20)) * (1 + 1e-14)
            let c = 2 * s + 1e-14
            if x > c * c { return true }
        }
        return x > upper(angle: angle)
    }

    /// An upper bound of the computed squared chord of any point whose great-circle angle from
    /// the query, as the haversine computes it, is at most `angle` radians (`.infinity` when the
    /// angle reaches half a turn).
    @inline(__always)
    static func upper(angle: Double) -> Double {
        let a = angle * (1 + 1e-12)
        if !(a < Double.pi) { return .infinity }
        let c = 2 * sin(a / 2) + 1e-14
        return c * c
    }
}

/// What a kd-tree search does with the points it reaches.
protocol KDCollector {
    /// Subtrees whose squared-chord lower bound exceeds this are skipped.
    var bound: Double { get }
    /// A point at tree position `p`, at squared chord `d2`.
    mutating func visit(_ d2: Double, _ p: Int)
}

/// A static, implicit kd-tree over the places' unit vectors (3-D, squared chord distance, which
/// is monotone in the great-circle distance), which also holds the places' coordinates in its
/// own, spatially coherent order.
///
/// Layout: points permuted into tree order. Position `p` holds `points[p]` = (x, y, z, cos φ)
/// (the cosine fills the SIMD padding lane and is the haversine's `cos(lat2)`, bit for bit),
/// `latLon[2p]`, `latLon[2p + 1]` (degrees) and `ids[p]`, the place index; `position(of: index)`
/// maps back. Internal node `i` has children `2i + 1` and `2i + 2` and covers a range of
/// positions whose midpoint splits it; all leaves are at the same depth and hold at most
/// `bucket` points. A node stores its split dimension and the gap around the split (the left
/// half's maximum and the right half's minimum along that dimension); searches carry the
/// per-dimension distances to the node's cell incrementally (as nanoflann does).
final class UnitVectorTree {
    let count: Int
    let points: UnsafeMutablePointer<SIMD4<Double>>
    let latLon: UnsafeMutablePointer<Double>
    let ids: UnsafeMutablePointer<Int32>
    /// `positions` when the tree has it from the start (built here, or stored in a file of
    /// version 1 or 2); `nil` for a file of version 3 or 4 (`derived` makes it on first use).
    private let ownPositions: UnsafeMutablePointer<Int32>?
    /// Internal nodes: `(low, high)` pairs at `2i`, `2i + 1`.
    let gaps: UnsafeMutablePointer<Double>
    let dims: UnsafeMutablePointer<UInt8>
    let internalCount: Int
    /// The bounding box of all points.
    let boxLow: SIMD4<Double>
    let boxHigh: SIMD4<Double>
    /// The most points a leaf holds (see `bucket` below; a saved set keeps its own).
    let bucketSize: Int
    /// The file the arrays live in, for a set opened from one (`PlaceFile`); `nil` when the tree
    /// owns them (allocated here, freed in `deinit`).
    let mapping: MappedFile?
    /// What a file of version 3 does not store, derived on open: `points`, `positions` and
    /// `gaps` are its arrays.
    let derived: DerivedPlaceArrays?
    /// The points as floats, leaf by leaf (see `prepareLeafFloats`), for `nearestOnSphere`: nil until
    /// they are made, then published once and never changed (freed in `deinit`).
    let leafFloatsSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    /// The most points a leaf holds; leaves hold between half that and that. Measured on the
    /// 144,563 GeoNames places (depth 13, 12-24 points a leaf) against 4 to 48: scanning a leaf
    /// is sequential and cheap, descending is not.
    static let bucket = 24

    /// Builds the tree over `n` points given as `[lat0, lon0, lat1, lon1, ...]` (degrees,
    /// checked, longitudes reduced).
    init(latLon buffer: UnsafeBufferPointer<Double>, bucket: Int = UnitVectorTree.bucket) {
        let n = buffer.count / 2
        let source = buffer.baseAddress.unsafelyUnwrapped  // read only when n > 0
        count = n
        bucketSize = bucket
        mapping = nil
        derived = nil
        leafFloatsSlot = .allocate(capacity: 1)
        leafFloatsSlot.initialize(to: nil)
        let m = Swift.max(n, 1)
        points = .allocate(capacity: m)
        latLon = .allocate(capacity: 2 * m)
        ids = .allocate(capacity: m)
        let positions = UnsafeMutablePointer<Int32>.allocate(capacity: m)
        ownPositions = positions
        // The place index rides in the padding lane while the tree is built; cos φ waits in
        // `latLon`, which is filled in tree order afterwards.
        var lo = SIMD4<Double>(repeating: 2)
        var hi = SIMD4<Double>(repeating: -2)
        // The vectors a place file of version 3 derives on open, the same way (PlaceFileVectors.swift).
        _ = PlaceVectors.derive(latLon: source, count: n, into: points)
        for i in 0..<n {
            latLon[i] = points[i].w
            points[i].w = Double(i)
            lo = pointwiseMin(lo, points[i])
            hi = pointwiseMax(hi, points[i])
        }
        boxLow = lo
        boxHigh = hi
        internalCount = UnitVectorTree.internalNodes(count: n, bucket: bucket)
        gaps = .allocate(capacity: Swift.max(2 * internalCount, 1))
        dims = .allocate(capacity: Swift.max(internalCount, 1))
        if internalCount > 0 { build(node: 0, lo: 0, hi: n, cellLow: lo, cellHigh: hi) }
        for p in 0..<n {
            let i = Int(points[p].w)
            ids[p] = Int32(truncatingIfNeeded: i)
            positions[i] = Int32(truncatingIfNeeded: p)
        }
        for p in 0..<n { points[p].w = latLon[Int(ids[p])] }
        for p in 0..<n {
            let i = Int(ids[p])
            latLon[2 * p] = source[2 * i]
            latLon[2 * p + 1] = source[2 * i + 1]
        }
    }

    /// A tree over arrays that live in a mapped file (checked by `PlaceFile`): nothing is
    /// copied or computed, but for a file of version 3, whose `points`, `positions` and `gaps`
    /// are `derived`'s, written by the file's check.
    init(
        count: Int, bucket: Int, internalCount: Int, boxLow: SIMD4<Double>, boxHigh: SIMD4<Double>,
        points: UnsafePointer<SIMD4<Double>>, latLon: UnsafePointer<Double>, ids: UnsafePointer<Int32>,
        positions: UnsafePointer<Int32>?, gaps: UnsafePointer<Double>, dims: UnsafePointer<UInt8>,
        mapping: MappedFile, derived: DerivedPlaceArrays? = nil
    ) {
        self.count = count
        bucketSize = bucket
        self.internalCount = internalCount
        self.boxLow = boxLow
        self.boxHigh = boxHigh
        // Never written through: the mapping is read-only (PROT_READ).
        self.points = UnsafeMutablePointer(mutating: points)
        self.latLon = UnsafeMutablePointer(mutating: latLon)
        self.ids = UnsafeMutablePointer(mutating: ids)
        ownPositions = positions.map { UnsafeMutablePointer(mutating: $0) }
        self.gaps = UnsafeMutablePointer(mutating: gaps)
        self.dims = UnsafeMutablePointer(mutating: dims)
        self.mapping = mapping
        self.derived = derived
        leafFloatsSlot = .allocate(capacity: 1)
        leafFloatsSlot.initialize(to: nil)
    }

    deinit {
        leafFloatsSlot.pointee?.deallocate()
        leafFloatsSlot.deallocate()
        guard mapping == nil else { return }
        points.deallocate()
        latLon.deallocate()
        ids.deallocate()
        ownPositions?.deallocate()
        gaps.deallocate()
        dims.deallocate()
    }

    /// The tree position of place `index` (in `0..<count`), the inverse of `ids`: from the tree's
    /// own table, from a file's set's table (made on the first use, `DerivedPlaceArrays.positions`),
    /// or, when there is no memory for that table, found in `ids`.
    @inline(__always)
    func position(of index: Int) -> Int {
        if let ownPositions { return Int(ownPositions[index]) }
        if let made = derived.unsafelyUnwrapped.positions(ids: ids, count: count) { return Int(made[index]) }
        var p = 0
        while Int(ids[p]) != index { p += 1 }
        return p
    }

    /// The number of internal nodes of a tree of `n` points whose leaves hold at most `bucket`:
    /// the smallest complete tree whose leaves do (`2^depth - 1`).
    static func internalNodes(count n: Int, bucket: Int) -> Int {
        var depth = 0
        while (n + (1 << depth) - 1) >> depth > bucket { depth += 1 }
        return (1 << depth) - 1
    }

    /// Bytes held by the tree (points, coordinates, both index maps, nodes).
    var byteCount: Int { count * (32 + 16 + 4 + 4) + internalCount * (2 * 8 + 1) }

    // MARK: build

    /// Splits positions `lo..<hi` (node `node`, whose points lie in the box `cellLow...cellHigh`)
    /// at their median along the box's widest dimension.
    private func build(node: Int, lo: Int, hi: Int, cellLow: SIMD4<Double>, cellHigh: SIMD4<Double>) {
        let spread = cellHigh - cellLow
        let dim = spread.x >= spread.y ? (spread.x >= spread.z ? 0 : 2) : (spread.y >= spread.z ? 1 : 2)
        let mid = lo + (hi - lo) / 2
        select(mid, lo: lo, hi: hi, dim: dim)
        var low = -Double.infinity
        for i in lo..<mid { low = Swift.max(low, points[i][dim]) }
        let high = points[mid][dim]  // the right half's minimum after the selection
        gaps[2 * node] = low
        gaps[2 * node + 1] = high
        dims[node] = UInt8(dim)
        let left = 2 * node + 1
        if left < internalCount {
            var leftHigh = cellHigh
            leftHigh[dim] = low
            var rightLow = cellLow
            rightLow[dim] = high
            build(node: left, lo: lo, hi: mid, cellLow: cellLow, cellHigh: leftHigh)
            build(node: left + 1, lo: mid, hi: hi, cellLow: rightLow, cellHigh: cellHigh)
        }
    }

    /// Selection: afterwards every point in `lo..<k` is <= point `k` <= every point in
    /// `k..<hi` along `dim`.
    private func select(_ k: Int, lo: Int, hi: Int, dim: Int) {
        floydRivest(k, left: lo, right: hi - 1, dim: dim)
    }

    /// Floyd and Rivest's selection (CACM 18(3), 1975): on a large range, first select `k` within
    /// a window around it sized like a sample (n^(2/3)), which leaves a pivot close to the k-th
    /// value at `k`; one partition pass around it then leaves a small range to go on with. About
    /// one pass over the data instead of quickselect's three or four.
    private func floydRivest(_ k: Int, left l0: Int, right r0: Int, dim: Int) {
        let a = points
        // The keys: lane `dim` of each point, 4 doubles apart.
        let key = UnsafeMutableRawPointer(points).assumingMemoryBound(to: Double.self) + dim
        var left = l0
        var right = r0
        while right > left {
            if right - left > 600 {
                let n = Double(right - left + 1)
                let i = Double(k - left + 1)
                let z = log(n)
                let s = 0.5 * exp(2 * z / 3)
                let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (i < n / 2 ? -1 : 1)
                let newLeft = Swift.max(left, Int(Double(k) - i * s / n + sd))
                let newRight = Swift.min(right, Int(Double(k) + (n - i) * s / n + sd))
                floydRivest(k, left: newLeft, right: newRight, dim: dim)
            }
            // Partition around the k-th value t without branches on the data (the comparisons
            // are coin flips a branch predictor cannot learn): every element is moved, and the
            // boundary j advances by the comparison's result. Afterwards [left, j) < t, a[j] = t,
            // (j, right] >= t; the keys equal to t are gathered after j only when there are any.
            let t = key[k &<< 2]
            a.swapElements(k, right)
            var j = left
            var equal = 0
            var i = left
            while i < right {
                let x = a[i]
                let v = key[i &<< 2]
                a[i] = a[j]
                a[j] = x
                j &+= v < t ? 1 : 0
                equal &+= v == t ? 1 : 0
                i &+= 1
            }
            a.swapElements(j, right)
            if k < j {
                right = j &- 1
                continue
            }
            if k == j { return }
            var e = j &+ 1
            if equal > 0 {
                i = e
                while i <= right {
                    let x = a[i]
                    let v = key[i &<< 2]
                    a[i] = a[e]
                    a[e] = x
                    e &+= v == t ? 1 : 0
                    i &+= 1
                }
                if k < e { return }
            }
            left = e
        }
    }

    // MARK: search

    /// The squared gaps, by dimension, from query vector `q` to the root's box (0 where `q` is
    /// within it; w stays 0): their sum bounds the squared chord to every point.
    @inline(__always)
    func rootBoxGaps(_ q: SIMD4<Double>) -> SIMD4<Double> {
        var d = SIMD4<Double>.zero
        for k in 0..<3 {
            if q[k] < boxLow[k] {
                d[k] = (boxLow[k] - q[k]) * (boxLow[k] - q[k])
            } else if q[k] > boxHigh[k] {
                d[k] = (q[k] - boxHigh[k]) * (q[k] - boxHigh[k])
            }
        }
        return d
    }

    /// Runs `collector` over the tree from query vector `q` (w = 0): every point whose subtree
    /// is not pruned by `collector.bound` is visited with its squared chord distance and its
    /// position.
    @inline(__always)
    func search<C: KDCollector>(_ q: SIMD4<Double>, _ collector: inout C) {
        guard count > 0 else { return }
        var d = rootBoxGaps(q)
        let rd = d.x + d.y + d.z
        if rd > collector.bound { return }
        descend(node: 0, lo: 0, hi: count, rd: rd, dists: &d, q: q, &collector)
    }

    private func descend<C: KDCollector>(
        node: Int, lo: Int, hi: Int, rd: Double, dists: inout SIMD4<Double>, q: SIMD4<Double>, _ collector: inout C
    ) {
        if node >= internalCount {
            for p in lo..<hi {
                collector.visit(chord2(q, points[p]), p)
            }
            return
        }
        let dim = Int(dims[node])
        let v = q[dim]
        let diffLow = v - gaps[2 * node]
        let diffHigh = v - gaps[2 * node + 1]
        let mid = lo + (hi - lo) / 2
        let left = 2 * node + 1
        let cut: Double
        let nearLeft = diffLow + diffHigh < 0
        if nearLeft {
            descend(node: left, lo: lo, hi: mid, rd: rd, dists: &dists, q: q, &collector)
            cut = diffHigh
        } else {
            descend(node: left + 1, lo: mid, hi: hi, rd: rd, dists: &dists, q: q, &collector)
            cut = diffLow
        }
        let old = dists[dim]
        let cut2 = cut * cut
        let newRd = rd - old + cut2
        if newRd <= collector.bound {
            dists[dim] = cut2
            if nearLeft {
                descend(node: left + 1, lo: mid, hi: hi, rd: newRd, dists: &dists, q: q, &collector)
            } else {
                descend(node: left, lo: lo, hi: mid, rd: newRd, dists: &dists, q: q, &collector)
            }
            dists[dim] = old
        }
    }
}

extension UnitVectorTree {
    /// Calls `visit(p)` for every position whose point lies in the 3-D box `low...high` (x, y, z
    /// lanes; w ignored) or may: subtrees are skipped only when their points are all outside the
    /// box along a node's split dimension, leaves are not filtered (the caller tests each point).
    @inline(__always)
    func search(boxLow low: SIMD4<Double>, boxHigh high: SIMD4<Double>, _ visit: (Int) -> Void) {
        guard count > 0 else { return }
        for k in 0..<3 where low[k] > boxHigh[k] || high[k] < boxLow[k] { return }
        descendBox(node: 0, lo: 0, hi: count, low: low, high: high, visit)
    }

    private func descendBox(node: Int, lo: Int, hi: Int, low: SIMD4<Double>, high: SIMD4<Double>, _ visit: (Int) -> Void) {
        if node >= internalCount {
            for p in lo..<hi { visit(p) }
            return
        }
        let dim = Int(dims[node])
        let mid = lo + (hi - lo) / 2
        // The left half's points are <= gaps[2 node] along dim, the right half's >= gaps[2 node + 1].
        if low[dim] <= gaps[2 * node] { descendBox(node: 2 * node + 1, lo: lo, hi: mid, low: low, high: high, visit) }
        if high[dim] >= gaps[2 * node + 1] { descendBox(node: 2 * node + 2, lo: mid, hi: hi, low: low, high: high, visit) }
    }
}

/// The unit-vector box (x, y, z lanes) that holds every point of a longitude/latitude box
/// (degrees, bounds included), widened by 1e-9 to cover the rounding of the vectors and of the
/// bounds: z = sin φ; x = cos φ cos λ and y = cos φ sin λ as products of the ranges of cos φ (its
/// maximum 1 when the box holds the equator) and of cos λ, sin λ (their extremes where the box
/// holds λ = 0, ±90, ±180).
func unitVectorBox(_ box: LonLatBox) -> (low: SIMD4<Double>, high: SIMD4<Double>) {
    let d2r = Double.pi / 180
    let a = Swift.max(box.minLat, -90) * d2r
    let b = Swift.min(box.maxLat, 90) * d2r
    let zLow = sin(a), zHigh = sin(b)
    let cosA = cos(a), cosB = cos(b)
    let cLow = Swift.max(Swift.min(cosA, cosB), 0)
    let cHigh = a <= 0 && b >= 0 ? 1 : Swift.max(cosA, cosB)
    var uLow = -1.0, uHigh = 1.0, vLow = -1.0, vHigh = 1.0
    if box.maxLon - box.minLon < 360 {
        let l0 = box.minLon, l1 = box.maxLon
        let c0 = cos(l0 * d2r), c1 = cos(l1 * d2r), s0 = sin(l0 * d2r), s1 = sin(l1 * d2r)
        // Whether the range holds an angle, taken modulo 360.
        func holds(_ angle: Double) -> Bool {
            for k in -2...2 {
                let x = angle + 360 * Double(k)
                if x >= l0 && x <= l1 { return true }
            }
            return false
        }
        uLow = holds(180) ? -1 : Swift.min(c0, c1)
        uHigh = holds(0) ? 1 : Swift.max(c0, c1)
        vLow = holds(-90) ? -1 : Swift.min(s0, s1)
        vHigh = holds(90) ? 1 : Swift.max(s0, s1)
    }
    // [cLow, cHigh] (>= 0) times [u0, u1]: the extremes are at the corners.
    func times(_ u0: Double, _ u1: Double) -> (Double, Double) {
        (Swift.min(cLow * u0, cHigh * u0), Swift.max(cLow * u1, cHigh * u1))
    }
    let (xLow, xHigh) = times(uLow, uHigh)
    let (yLow, yHigh) = times(vLow, vHigh)
    let m = 1e-9
    return (SIMD4(xLow - m, yLow - m, zLow - m, 0), SIMD4(xHigh + m, yHigh + m, zHigh + m, 0))
}

/// The squared chord between two unit vectors (their w lanes ignored).
@inline(__always)
func chord2(_ q: SIMD4<Double>, _ p: SIMD4<Double>) -> Double {
    let dx = q.x - p.x
    let dy = q.y - p.y
    let dz = q.z - p.z
    return dx * dx + dy * dy + dz * dz
}

/// The query vector of a coordinate, w = 0.
@inline(__always)
func queryVector(_ c: Coordinate) -> SIMD4<Double> {
    let v = unitVector(latitude: c.latitude, longitude: c.longitude)
    return SIMD4(v.x, v.y, v.z, 0)
}

// MARK: collectors
//
// The collectors rank by squared chord only; equal chords are kept in visiting order. That is
// enough: a point left out at a chord equal to the kept worst one shows up in `minOutside`, so
// the caller's margin check fails and it measures every candidate exactly.

/// The nearest point by squared chord, and the smallest squared chord of the points visited but
/// not kept.
struct NearestOne: KDCollector {
    var best = Double.infinity
    var position = -1
    var minOutside = Double.infinity
    /// Points beyond this squared chord are ignored (a distance cap); `.infinity` = none.
    let cap: Double
    var bound: Double

    init(cap: Double) {
        self.cap = cap
        bound = cap == .infinity ? .infinity : ChordBounds.prune(cap)
    }

    @inline(__always)
    mutating func visit(_ d2: Double, _ p: Int) {
        if d2 < best {
            if d2 > cap { return }
            minOutside = Swift.min(minOutside, best)
            best = d2
            position = p
            bound = ChordBounds.prune(d2)
        } else {
            minOutside = Swift.min(minOutside, d2)
        }
    }
}

/// The `k` nearest points by squared chord in a max-heap, and the smallest squared chord of the
/// points visited but not kept.
struct NearestK: KDCollector {
    let k: Int
    let cap: Double
    var size = 0
    var minOutside = Double.infinity
    var bound: Double
    let d2s: UnsafeMutablePointer<Double>
    let positions: UnsafeMutablePointer<Int>

    init(k: Int, cap: Double) {
        self.k = k
        self.cap = cap
        bound = cap == .infinity ? .infinity : ChordBounds.prune(cap)
        d2s = .allocate(capacity: k)
        positions = .allocate(capacity: k)
    }

    func deallocate() {
        d2s.deallocate()
        positions.deallocate()
    }

    /// The largest kept squared chord (the heap's top); `.infinity` while not full.
    var worst: Double { size == k ? d2s[0] : .infinity }

    @inline(__always)
    mutating func visit(_ d2: Double, _ p: Int) {
        if size == k {
            let top = d2s[0]
            if !(d2 < top) {
                minOutside = Swift.min(minOutside, d2)
                return
            }
            minOutside = Swift.min(minOutside, top)
            siftDown(d2, p)
            bound = ChordBounds.prune(d2s[0])
            return
        }
        if d2 > cap { return }
        // Sift up.
        var i = size
        size += 1
        while i > 0 {
            let parent = (i - 1) >> 1
            if d2s[parent] < d2 {
                d2s[i] = d2s[parent]
                positions[i] = positions[parent]
                i = parent
            } else {
                break
            }
        }
        d2s[i] = d2
        positions[i] = p
        if size == k { bound = ChordBounds.prune(d2s[0]) }
    }

    /// Replaces the top with (d2, p) and restores the heap.
    @inline(__always)
    private mutating func siftDown(_ d2: Double, _ p: Int) {
        var i = 0
        while true {
            let l = 2 * i + 1
            if l >= k { break }
            var c = l
            if l + 1 < k && d2s[l] < d2s[l + 1] { c = l + 1 }
            if d2 < d2s[c] {
                d2s[i] = d2s[c]
                positions[i] = positions[c]
                i = c
            } else {
                break
            }
        }
        d2s[i] = d2
        positions[i] = p
    }
}

/// The positions of every point within a squared chord.
struct ChordRange: KDCollector {
    let limit: Double
    let bound: Double
    var positions: [Int] = []

    init(limit: Double) {
        self.limit = limit
        bound = limit == .infinity ? .infinity : ChordBounds.prune(limit)
    }

    @inline(__always)
    mutating func visit(_ d2: Double, _ p: Int) {
        if d2 <= limit { positions.append(p) }
    }
}

/// The positions of every point within a squared chord, into a `Candidates` buffer (a radius
/// search's first step: no allocation for the first 256).
struct ChordCandidates: KDCollector {
    let limit: Double
    let bound: Double
    var found: Candidates

    init(limit: Double, into found: Candidates) {
        self.limit = limit
        bound = limit == .infinity ? .infinity : ChordBounds.prune(limit)
        self.found = found
    }

    @inline(__always)
    mutating func visit(_ d2: Double, _ p: Int) {
        if d2 <= limit { found.append(p) }
    }
}

extension UnsafeMutablePointer {
    /// Exchanges elements `i` and `j`.
    @inline(__always)
    func swapElements(_ i: Int, _ j: Int) {
        let t = self[i]
        self[i] = self[j]
        self[j] = t
    }
}
