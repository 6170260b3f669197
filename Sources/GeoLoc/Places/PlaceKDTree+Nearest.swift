import GeoLocKernels

// The one-nearest search of the place index (`UnitVectorTree`, PlaceKDTree.swift): the reverse
// geocoder's query, in doubles (`nearestOne`) and, for a tree with a single-precision copy of its
// points (`LeafFloats`, the gazetteer's), over the floats with the exact haversine among the few
// candidates within their error (`nearestOnSphere`).

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
