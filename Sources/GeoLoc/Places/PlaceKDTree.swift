#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeoLocKernels

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
/// `latLon[2p]`, `latLon[2p + 1]` (degrees) and `ids[p]`, the place index; `positions[index]`
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
    let positions: UnsafeMutablePointer<Int32>
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
        positions = .allocate(capacity: m)
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
        positions: UnsafePointer<Int32>, gaps: UnsafePointer<Double>, dims: UnsafePointer<UInt8>,
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
        self.positions = UnsafeMutablePointer(mutating: positions)
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
        positions.deallocate()
        gaps.deallocate()
        dims.deallocate()
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
    /// The nearest point to `q` (w = 0) by squared chord: what `search(q, &one)` leaves in
    /// `one = NearestOne(cap: .infinity)`, for the one-nearest queries (a reverse geocode) at a
    /// fraction of the cost. `best` is the smallest computed squared chord of all points and
    /// `position` a point at it (the first visited), `minOutside` the smallest squared chord of
    /// the other points visited; every point not visited is beyond `ChordBounds.cutOff(best)`.
    ///
    /// The same depth-first search, with a looser bound that costs less to carry: a child cell's
    /// lower bound is the larger of its parent's and the squared gap along the split dimension
    /// (the sum over dimensions would be tighter; on the GeoNames places both visit 1.45 leaves a
    /// query). A leaf is scanned without branches on the data: the comparisons of a point with
    /// the best so far are coin flips a branch predictor cannot learn.
    func nearestOne(_ q: SIMD4<Double>) -> NearestOne {
        var one = NearestOne(cap: .infinity)
        guard count > 0 else { return one }
        let d = rootBoxGaps(q)
        let rootRd = d.x + d.y + d.z
        if internalCount == 0 {
            for p in 0..<count { one.visit(chord2(q, points[p]), p) }
            return one
        }
        let depth = Int.bitWidth - internalCount.leadingZeroBitCount + 1
        let (best, position, minOutside) = withUnsafeTemporaryAllocation(
            of: NearestFrame.self, capacity: depth + 2
        ) { frames -> (Double, Int, Double) in
            let stack = frames.baseAddress.unsafelyUnwrapped
            // stack[0] holds the query's lanes, addressed by dimension; stacked cells from stack[1].
            let query = UnsafeMutableRawPointer(stack)
            query.storeBytes(of: q, as: SIMD4<Double>.self)
            let qx = SIMD2(repeating: q.x), qy = SIMD2(repeating: q.y), qz = SIMD2(repeating: q.z)
            var best = Double.infinity
            var minOutside = Double.infinity
            var position = -1
            var bound = Double.infinity
            var node = 0, lo = 0, hi = count
            var rd = rootRd
            var top = 0
            while true {
                while node < internalCount {
                    // Without branches on the data (the nearer side is a coin flip): `right` is 1
                    // when the query is nearer the right child, and selects both children's
                    // nodes and ranges and the gap to the farther one (its `diffLow` or `diffHigh`).
                    let dim = Int(dims[node])
                    let v = query.load(fromByteOffset: dim &<< 3, as: Double.self)
                    let diffLow = v - gaps[2 &* node]
                    let diffHigh = v - gaps[2 &* node &+ 1]
                    let mid = lo &+ (hi &- lo) >> 1
                    let left = 2 &* node &+ 1
                    let right = diffLow + diffHigh < 0 ? 0 : 1
                    let cut = v - gaps[2 &* node &+ 1 &- right]
                    let cut2 = cut * cut
                    let farRd = cut2 > rd ? cut2 : rd
                    let nearLo = right == 0 ? lo : mid
                    let nearHi = right == 0 ? mid : hi
                    // The frame is written in any case, and kept when the farther cell is in reach.
                    stack[top &+ 1] = NearestFrame(
                        rd: farRd, node: left &+ 1 &- right, lo: right == 0 ? mid : lo, hi: right == 0 ? hi : mid)
                    top &+= farRd <= bound ? 1 : 0
                    node = left &+ right
                    lo = nearLo
                    hi = nearHi
                }
                // NearestOne.visit for each point, without branches; the chords two at a time
                // (the lanes of SIMD2: the operations of `chord2`, in its order).
                var p = lo
                while p &+ 1 < hi {
                    let a = points[p], b = points[p &+ 1]
                    let dx = qx - SIMD2(a.x, b.x)
                    let dy = qy - SIMD2(a.y, b.y)
                    let dz = qz - SIMD2(a.z, b.z)
                    let c2 = dx * dx + dy * dy + dz * dz
                    let c = c2[0]
                    minOutside = Swift.min(minOutside, c > best ? c : best)
                    position = c < best ? p : position
                    best = Swift.min(best, c)
                    let e = c2[1]
                    minOutside = Swift.min(minOutside, e > best ? e : best)
                    position = e < best ? p &+ 1 : position
                    best = Swift.min(best, e)
                    p &+= 2
                }
                if p < hi {
                    let c = chord2(q, points[p])
                    minOutside = Swift.min(minOutside, c > best ? c : best)
                    position = c < best ? p : position
                    best = Swift.min(best, c)
                }
                bound = ChordBounds.prune(best)
                var next: NearestFrame
                repeat {
                    if top == 0 { return (best, position, minOutside) }
                    next = stack[top]
                    top &-= 1
                } while next.rd > bound
                node = next.node
                lo = next.lo
                hi = next.hi
                rd = next.rd
            }
        }
        one.best = best
        one.position = position
        one.minOutside = minOutside
        one.bound = ChordBounds.prune(best)
        return one
    }

    /// The leaf floats, when `prepareLeafFloats` has made them.
    var leafFloats: LeafFloats? {
        glk_load_acquire(leafFloatsSlot).map { LeafFloats($0, internalCount) }
    }

    /// The nearest place to the query vector `q` (w = 0) of `from`'s centre by `from.distance`
    /// (the haversine), ties by index (`ids`): what `PlaceSet.nearestOnSphere` answers, over the
    /// `LeafFloats`, reading no double vector. The search of `nearestOne` ranks the points by
    /// their chords in single precision, each within e = `LeafFloats.margin` of the double chord
    /// (square roots of squared chords); with s² a scanned leaf's least float chord and s* the
    /// least so far:
    /// - a leaf whose s - 3e exceeds s* holds no point near the nearest: their chords exceed
    ///   s - e (> s* + 2e);
    /// - otherwise the points of the leaf whose float chord is within 3e of min(s, s*) are the
    ///   candidates; every other point's chord exceeds min(s, s*) + 1.5e (the float limit is
    ///   within 1.2e-7 of 3e);
    /// - subtrees are pruned by (s* + e)², at least the nearest point's squared chord.
    /// At the end the candidates whose float chord is within 3e of s* are measured (`from`'s
    /// haversine from the coordinates: one, most often), the others' chords exceed s* + 2e.
    /// The answer is the least (distance, index) of the measured ones, and it is `sure` when
    /// every other point's chord bound exceeds what a point at its distance could have
    /// (`ChordBounds.exceeds`, as `nearestOnSphere` checks `nearestOne`'s answer); the bounds
    /// above exceed the nearest point's chord by e or more, so it fails no more often. When it
    /// is not sure (or more than `LeafFloats.maxCandidates` were found), the distance is an
    /// upper bound of the nearest one's, for the exact search. `prefetch` (when given): an
    /// array of `stride`-byte records by place index, whose records of the candidates are asked
    /// for as they are found (the caller reads the answer's next).
    func nearestOnSphere(
        _ q: SIMD4<Double>, from: HaversineFrom, _ leaves: LeafFloats, prefetch: UnsafeRawPointer?, stride: Int
    ) -> (position: Int, distance: Double, sure: Bool) {
        // The tree's arrays as locals: the closure below then holds no reference to the tree.
        let internalCount = internalCount, dims = dims, gaps = gaps, latLon = latLon, ids = ids
        let rootRd = { let d = rootBoxGaps(q); return d.x + d.y + d.z }()
        let depth = Int.bitWidth - internalCount.leadingZeroBitCount + 1
        // The query's lanes (32 bytes, addressed by dimension), the stacked cells from stack[1]
        // (stack[0] is the query's second half), the float chords of a leaf, the candidates.
        let frameBytes = (depth + 3) * MemoryLayout<NearestLeafFrame>.stride
        let chordBytes = 4 * LeafFloats.maxLeaf
        return withUnsafeTemporaryAllocation(
            byteCount: frameBytes + chordBytes + 8 * LeafFloats.maxCandidates, alignment: 16
        ) { scratch -> (Int, Double, Bool) in
            let query = scratch.baseAddress.unsafelyUnwrapped
            query.storeBytes(of: q, as: SIMD4<Double>.self)
            let stack = (query + 16).bindMemory(to: NearestLeafFrame.self, capacity: depth + 2)
            let chords = (query + frameBytes).bindMemory(to: Float.self, capacity: LeafFloats.maxLeaf)
            let candidates = (query + frameBytes + chordBytes).bindMemory(
                to: LeafCandidate.self, capacity: LeafFloats.maxCandidates)
            let fx = Float(q.x), fy = Float(q.y), fz = Float(q.z)
            let e = LeafFloats.margin
            var least = Double.infinity  // s*
            var minOutside = Double.infinity  // a lower bound of the squared chords left out
            var found = 0
            var overflow = false
            var bound = Double.infinity
            var node = 0
            var rd = rootRd
            var top = 0
            search: while true {
                while node < internalCount {
                    // As in `nearestOne`, without the ranges (the leaf's is in `leaves`); the
                    // gaps of the node's four grandchildren (64 bytes) asked for ahead.
                    if 4 &* node &+ 6 < internalCount { glk_prefetch(gaps + (8 &* node &+ 6), 64) }
                    let dim = Int(dims[node])
                    let v = query.load(fromByteOffset: dim &<< 3, as: Double.self)
                    let diffLow = v - gaps[2 &* node]
                    let diffHigh = v - gaps[2 &* node &+ 1]
                    let left = 2 &* node &+ 1
                    let right = diffLow + diffHigh < 0 ? 0 : 1
                    let cut = v - gaps[2 &* node &+ 1 &- right]
                    let cut2 = cut * cut
                    let farRd = cut2 > rd ? cut2 : rd
                    stack[top &+ 1] = NearestLeafFrame(rd: farRd, node: left &+ 1 &- right)
                    top &+= farRd <= bound ? 1 : 0
                    node = left &+ right
                }
                let leaf = node &- internalCount
                let lo = Int(leaves.starts[leaf])
                let m = Int(leaves.starts[leaf &+ 1]) &- lo
                // The leaf's coordinates and ids, which the nearest one's distance and index
                // read next, asked for while its chords are taken.
                glk_prefetch(latLon + 2 &* lo, 16 &* m)
                glk_prefetch(ids + lo, 4 &* m)
                let s = Double(glk_leaf_chords(leaves.floats + 3 &* lo, m, fx, fy, fz, chords)).squareRoot()
                if s - 3 * e > least {
                    let l = s - e
                    minOutside = Swift.min(minOutside, l * l)
                } else {
                    let base = Swift.min(s, least)
                    let t = base + 3 * e
                    var near = glk_leaf_near(chords, m, Float(t * t))
                    while near != 0 {
                        let k = near.trailingZeroBitCount
                        near &= near &- 1
                        if found == LeafFloats.maxCandidates {
                            overflow = true
                            break
                        }
                        candidates[found] = LeafCandidate(position: Int32(truncatingIfNeeded: lo &+ k), chord: chords[k])
                        found &+= 1
                        if let prefetch { glk_prefetch(prefetch + Int(ids[lo &+ k]) &* stride, stride) }
                    }
                    let l = base + 1.5 * e
                    minOutside = Swift.min(minOutside, l * l)
                    least = base
                    let u = least + e
                    bound = ChordBounds.prune(u * u)
                }
                var next: NearestLeafFrame
                repeat {
                    if top == 0 { break search }
                    next = stack[top]
                    top &-= 1
                } while next.rd > bound
                node = next.node
                rd = next.rd
            }
            // The candidates near s*, measured; the least (distance, index). (After an overflow
            // every one kept is measured: the answer is then only an upper bound.)
            var position = -1
            var distance = Double.infinity
            for j in 0..<found {
                let c = candidates[j]
                let r = Double(c.chord).squareRoot()
                if r > least + 3 * e && !overflow {
                    let l = r - e
                    minOutside = Swift.min(minOutside, l * l)
                    continue
                }
                let p = Int(c.position)
                let d = from.distance(lat2: latLon[2 &* p], lon2: latLon[2 &* p &+ 1])
                if d < distance || (d == distance && ids[p] < ids[position]) {
                    position = p
                    distance = d
                }
            }
            let u = least + e
            let sure = !overflow
                && ChordBounds.exceeds(Swift.min(minOutside, ChordBounds.cutOff(u * u)), upper: distance / from.radius)
            return (position, distance, sure)
        }
    }

    /// Makes the points' `LeafFloats` for `nearestOnSphere` and publishes them, once (any thread
    /// may call it, at any time: a search that starts before reads the doubles). Nothing for a tree
    /// of one leaf or whose leaves hold more than `LeafFloats.maxLeaf` points. For the sets
    /// searched most for their one nearest point (a gazetteer's): 12 bytes a place and 4 a leaf.
    func prepareLeafFloats() {
        let leafCount = internalCount + 1
        guard internalCount > 0, (count + leafCount - 1) / leafCount <= LeafFloats.maxLeaf,
            glk_load_acquire(leafFloatsSlot) == nil
        else { return }
        let block = UnsafeMutableRawPointer.allocate(byteCount: LeafFloats.byteCount(count, internalCount), alignment: 16)
        let starts = block.bindMemory(to: Int32.self, capacity: leafCount + 1)
        let floats = (block + LeafFloats.floatsOffset(internalCount)).bindMemory(to: Float.self, capacity: 3 * count + 4)
        (floats + 3 * count).initialize(repeating: 0, count: 4)
        var leaf = 0
        let points = points
        forEachLeaf { lo, hi in
            starts[leaf] = Int32(truncatingIfNeeded: lo)
            leaf &+= 1
            let m = hi &- lo
            let p = points + lo
            let x = floats + 3 &* lo, y = x + m, z = y + m
            var i = 0
            while i < m {
                let v = p[i]
                (x + i).initialize(to: Float(v.x))
                (y + i).initialize(to: Float(v.y))
                (z + i).initialize(to: Float(v.z))
                i &+= 1
            }
        }
        starts[leafCount] = Int32(truncatingIfNeeded: count)
        if glk_publish(leafFloatsSlot, block) == 0 { block.deallocate() }
    }

    /// Calls `body(lo, hi)` with each leaf's positions, in order.
    func forEachLeaf(_ body: (Int, Int) -> Void) {
        func walk(_ node: Int, _ lo: Int, _ hi: Int) {
            if node >= internalCount { return body(lo, hi) }
            let mid = lo + (hi - lo) / 2
            walk(2 * node + 1, lo, mid)
            walk(2 * node + 2, mid, hi)
        }
        walk(0, 0, count)
    }
}

/// A leaf waiting in `UnitVectorTree.nearestOnSphere`: its lower bound and node.
struct NearestLeafFrame {
    var rd: Double
    var node: Int
}

/// A point of `UnitVectorTree.nearestOnSphere` to measure: its position and float chord.
struct LeafCandidate {
    var position: Int32
    var chord: Float
}

/// The points of a tree as floats, for its one-nearest search (`UnitVectorTree.nearestOnSphere`),
/// in one block made by `prepareLeafFloats`: each leaf's first position (`starts`, Int32, with the
/// count after the last leaf), then `floats`, where the leaf of positions `lo..<hi` (m points)
/// holds its x's, then its y's, then its z's from float 3·lo: a leaf's scan reads 12 bytes a
/// point in one run (5 cache lines for 24 points, against 12 of `points`). 4 zeros follow the
/// last leaf (the scan reads up to 3 floats past a leaf).
struct LeafFloats {
    let starts: UnsafePointer<Int32>
    let floats: UnsafePointer<Float>

    init(_ block: UnsafeMutableRawPointer, _ internalCount: Int) {
        starts = UnsafePointer(block.assumingMemoryBound(to: Int32.self))
        floats = UnsafePointer((block + LeafFloats.floatsOffset(internalCount)).assumingMemoryBound(to: Float.self))
    }

    /// The most points a leaf may hold for its floats to be made (the scan's bit mask).
    static let maxLeaf = 64
    /// The most candidates `UnitVectorTree.nearestOnSphere` measures; more (places a few
    /// meters apart) leave the answer to the exact search.
    static let maxCandidates = 16

    /// e: the float chord of a point is within e of its double chord (`chord2`), the square roots
    /// of what the two compute (unit-sphere chords). Each float coordinate is within 2⁻²⁵ of the
    /// double one (rounded to nearest, |x| <= 1), so with u = 2⁻²⁴ a float difference is within
    /// u(1 + |d|) of the double's d (both roundings, and the subtraction's), the float vector of
    /// differences within u(√3 + |d|) of the double one, and the float sum of squares, within
    /// 3u relative (its 5 roundings), moves the root by 1.5u|d|: at most u(1.8 + 2.5|d|) <= 6.8u =
    /// 4.1e-7 for |d| <= 2, and the double chord is within 1e-15 of the exact one. e = 1e-6
    /// (6.4 m on the Earth) holds that twice over, with room for the roundings of the bounds
    /// taken from it (a float limit is within 1e-7 of its double).
    static let margin = 1e-6

    static func floatsOffset(_ internalCount: Int) -> Int { (4 * (internalCount + 2) + 15) & ~15 }

    static func byteCount(_ count: Int, _ internalCount: Int) -> Int { floatsOffset(internalCount) + 4 * (3 * count + 4) }
}

/// A cell waiting in `UnitVectorTree.nearestOne`: its lower bound, node and positions.
struct NearestFrame {
    var rd: Double
    var node: Int
    var lo: Int
    var hi: Int
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
