// What a place file's checksum cannot vouch for: a file made to pass it (edited, then resealed;
// written by another program; damaged and "repaired") must be refused, never answered wrongly.
// `PlaceFile.swift` checks the layout, every index and offset for bounds and the coordinates'
// ranges; these are the checks of what a query or a text output relies on beyond that:
//
// - the index maps: `ids` (the place at each tree position) is a permutation of 0..<n and
//   `positions` its inverse, so every place is found once and a result names each place once;
// - each place's unit vector (x, y, z) and cos latitude (w) are those of its coordinates, within
//   2e-15 (x, y, z, an absolute bound well inside the searches' rounding margin of 1e-14 in
//   chord length, `ChordBounds`) and 2e-15 relative (w, which the haversine multiplies by): a
//   file written on another machine, whose libm rounds a last bit differently, still opens;
// - the tree: every node's split gap bounds the points of its two halves (the left half's at
//   most the gap's low end along the node's dimension, the right half's at least its high end,
//   low <= high), and the header's bounding box holds every point, so no search prunes a
//   subtree that holds an answer;
// - text: every id, name, attribute value and attribute name is valid UTF-8 without a NUL, and
//   no string ends inside a character.
//
// Cost, on open, all of it: one pass over the points in tree order that checks each vector
// against its coordinates (a polynomial sine of four arguments at once, `VectorMath.sinPoly`, no
// libm call; with AVX2 and FMA the C kernel `glk_place_vectors` does a leaf's four places at
// once) and gathers the boxes of the subtrees bottom-up to test each node's gap (a file of
// version 3 or 4, whose vectors and gaps are derived instead: one call of the C kernel
// `glk_place_derive_tree` for the whole tree); one pass over the index maps (versions 3 and 4:
// over `ids` with a bit a place); the text sixteen bytes at a time while it is ASCII. No fact is left for a
// query to check lazily: a vector that does not match its coordinates puts its place in a
// subtree where a search near the place never looks, so no query could notice it by itself.

#if canImport(GeoLocKernels)
import GeoLocKernels
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum PlaceFileCheck {
    /// The tolerance of a stored unit vector's x, y and z against the one its coordinates give.
    static let vectorTolerance = 2e-15
    /// The relative tolerance of a stored cos latitude.
    static let cosineTolerance = 2e-15

    static func corrupted(_ what: String) -> GeoLocError {
        GeoLocError(.parse, "corrupted place file: \(what)")
    }

    // MARK: index maps

    /// `ids` is a permutation of `0..<n` and `positions` its inverse (both already in range).
    static func indexMaps(ids: UnsafePointer<Int32>, positions: UnsafePointer<Int32>, count n: Int) throws(GeoLocError) {
        var mismatch: Int32 = 0
        for p in 0..<n { mismatch |= positions[Int(ids[p])] ^ Int32(truncatingIfNeeded: p) }
        guard mismatch != 0 else { return }
        for p in 0..<n where Int(positions[Int(ids[p])]) != p {
            let i = Int(ids[p])
            throw corrupted(
                "place \(i) is at tree position \(p) and at position \(positions[i]) (its index maps repeat a place and lose another)")
        }
    }

    /// `ids` (already in range) is a permutation of `0..<n`: no place at two positions. One
    /// pass with a bit a place (n / 8 bytes, in the cache), the word of the run of positions at
    /// hand kept in a register (places in order would otherwise wait on their own last store).
    /// A repeated place is then named as the positions' check names it.
    static func permutation(_ ids: UnsafePointer<Int32>, count n: Int) throws(GeoLocError) {
        guard n > 0 else { return }
        let words = (n + 63) / 64
        let seen = UnsafeMutablePointer<UInt64>.allocate(capacity: words)
        defer { seen.deallocate() }
        seen.initialize(repeating: 0, count: words)
        var repeated: UInt64 = 0
        var at = Int(UInt32(bitPattern: ids[0])) >> 6
        var word: UInt64 = 0
        for p in 0..<n {
            let i = Int(UInt32(bitPattern: ids[p]))
            let w = i >> 6, bit: UInt64 = 1 << UInt64(i & 63)
            if w != at {
                seen[at] = word
                at = w
                word = seen[w]
            }
            repeated |= word & bit
            word |= bit
        }
        guard repeated != 0 else { return }
        let positions = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        defer { positions.deallocate() }
        positions.initialize(repeating: -1, count: n)
        for p in 0..<n {
            let i = Int(ids[p])
            if positions[i] >= 0 {
                throw corrupted(
                    "place \(i) is at tree positions \(positions[i]) and \(p) (its index maps repeat a place and lose another)")
            }
            positions[i] = Int32(truncatingIfNeeded: p)
        }
    }

    // MARK: unit vectors and the tree

    /// Whether the stored vector (x, y, z, cos φ) of a place is off the one its coordinates give
    /// (or not a number), computed as `unitVector` computes it (the same argument, `latitude *
    /// (π / 180)`).
    @inline(__always)
    static func vectorMismatch(_ v: SIMD4<Double>, latitude: Double, longitude: Double) -> Bool {
        typealias M = VectorMath
        let d2r = Double.pi / 180
        let phi = latitude * d2r, lam = longitude * d2r
        let alam = Swift.abs(lam)
        // One polynomial sine of four arguments in [-π/2, π/2]: sin φ, cos φ = sin(π/2 - |φ|),
        // cos λ = sin(π/2 - |λ|), |sin λ| = sin(|λ|) or sin(π - |λ|) beyond π/2. (The lanes are
        // compared one by one: SIMD masks and `any` come out as calls here.)
        let s = M.sinPoly(SIMD4(
            phi, (M.pio2Hi - Swift.abs(phi)) + M.pio2Lo, (M.pio2Hi - alam) + M.pio2Lo,
            alam > M.pio2Hi ? (M.piHi - alam) + M.piLo : alam))
        let sphi = s[0], cphi = s[1], clam = s[2]
        let slam = lam < 0 ? -s[3] : s[3]
        let t = vectorTolerance
        // NaN fails every comparison, so a NaN is a mismatch too.
        return !(Swift.abs(v.x - cphi * clam) <= t && Swift.abs(v.y - cphi * slam) <= t && Swift.abs(v.z - sphi) <= t
                 && Swift.abs(v.w - cphi) <= cosineTolerance * cphi)
    }

    /// Checks every point of the tree against its coordinates and every node's gap and the
    /// header's box against the points they bound, in one pass over the points (tree order).
    /// With `derive` (a file of version 3 or 4, which stores no vectors and no gaps), the points
    /// and gaps are not checked but written: the points derived from the coordinates
    /// (`PlaceVectors.derive`, by the arithmetic the file's tree was built on) leaf by leaf, each
    /// node's gaps from its halves' boxes (the left half's greatest and the right half's least
    /// along its dimension, as the build sets them), into the tree's arrays (the set's own memory, `UnitVectorTree.derived`); a node whose
    /// halves overlap along its dimension (a tree order no build makes) is refused.
    /// Deriving, the coordinates' ranges are checked on the way (by the derivation itself):
    /// when one is out of range, `coordinates` is called (and throws the file's message for it)
    /// before anything else is reported.
    static func tree(
        _ t: UnitVectorTree, derive: Bool = false, arithmetic: PlaceVectors.Arithmetic = .polynomial,
        level: VectorMath.Level = VectorMath.supportedLevel, coordinates: () throws(GeoLocError) -> Void = {}
    ) throws(GeoLocError) {
        guard t.count > 0 else { return }
        let scratch = UnsafeMutablePointer<Double>.allocate(capacity: 6)
        defer { scratch.deallocate() }
        #if canImport(GeoLocKernels)
        if derive && level > 0 {
            // The whole tree in one call of the C kernel (the leaves' vectors, each node's gaps
            // from its halves' boxes, the root's box), the walk below its baseline.
            let d = t.derived.unsafelyUnwrapped
            precondition(UnsafePointer(t.points) == UnsafePointer(d.points) && UnsafePointer(t.gaps) == UnsafePointer(d.gaps))
            let depth = UInt32((t.internalCount + 1).trailingZeroBitCount)
            let done = glk_place_derive_tree(
                t.latLon, t.count, depth, t.dims, UnsafeMutableRawPointer(d.points).assumingMemoryBound(to: Double.self),
                d.gaps, scratch, arithmetic == .libmCosine ? 1 : 0, Int32(level))
            if done != 0 {
                if Int(done) & GLK_DERIVE_OUTSIDE != 0 { try coordinates() }
                if Int(done) & GLK_DERIVE_OVERLAP != 0 {
                    // The walk names the node a search would trip on first, as it always has.
                    var walk = TreeWalk(t, level: level, scratch: scratch)
                    walk.derived = d.points
                    walk.derivedGaps = d.gaps
                    walk.arithmetic = arithmetic
                    _ = walk.box(node: 0, lo: 0, hi: t.count)
                    throw corrupted("node \(Swift.max(walk.badNode, 0)) of the index does not bound the points below it")
                }
                for k in 0..<3 where !(t.boxLow[k] <= scratch[k] && t.boxHigh[k] >= scratch[3 + k]) {
                    throw corrupted("the index's bounding box does not hold its points")
                }
                return
            }
        }
        #endif
        var walk = TreeWalk(t, level: level, scratch: scratch)
        if derive {
            let d = t.derived.unsafelyUnwrapped
            precondition(UnsafePointer(t.points) == UnsafePointer(d.points) && UnsafePointer(t.gaps) == UnsafePointer(d.gaps))
            walk.derived = d.points
            walk.derivedGaps = d.gaps
            walk.arithmetic = arithmetic
        }
        let b = walk.box(node: 0, lo: 0, hi: t.count)
        let low = SIMD3(b.lx, b.ly, b.lz), high = SIMD3(b.hx, b.hy, b.hz)
        if walk.outside { try coordinates() }
        if walk.badPosition >= 0 {
            let p = walk.badPosition
            let lat = t.latLon[2 * p], lon = t.latLon[2 * p + 1]
            throw corrupted("the unit vector of place \(t.ids[p]) does not match its coordinates (\(show(lat)), \(show(lon)))")
        }
        if walk.badNode >= 0 {
            throw corrupted("node \(walk.badNode) of the index does not bound the points below it")
        }
        for k in 0..<3 where !(t.boxLow[k] <= low[k] && t.boxHigh[k] >= high[k]) {
            throw corrupted("the index's bounding box does not hold its points")
        }
    }

    /// The recursive walk of `tree(_:)`.
    struct TreeWalk {
        let points: UnsafePointer<SIMD4<Double>>
        let latLon: UnsafePointer<Double>
        let gaps: UnsafePointer<Double>
        let dims: UnsafePointer<UInt8>
        let internalCount: Int
        /// The first tree position whose vector does not match, and the first node whose gap does
        /// not bound its halves (-1: none).
        var badPosition = -1
        var badNode = -1
        /// The instruction set of the leaves' vector check (`VectorMath.Level`: 0, the Swift loop
        /// below; above, the C kernel `glk_place_vectors`, Sources/GeoLocKernels/places.c), and
        /// the kernel's box of a leaf (6 doubles, the caller's).
        let level: VectorMath.Level
        let scratch: UnsafeMutablePointer<Double>
        /// Where the leaves' vectors are derived to (`points` itself), when they are derived
        /// instead of checked.
        var derived: UnsafeMutablePointer<SIMD4<Double>>? = nil
        /// Where the nodes' gaps are written, when they are derived.
        var derivedGaps: UnsafeMutablePointer<Double>? = nil
        /// The arithmetic of the derived vectors (the one the file's tree was built on).
        var arithmetic = PlaceVectors.Arithmetic.polynomial
        /// Whether a derived leaf has a coordinate out of range.
        var outside = false

        init(_ t: UnitVectorTree, level: VectorMath.Level, scratch: UnsafeMutablePointer<Double>) {
            self.level = level
            self.scratch = scratch
            points = UnsafePointer(t.points)
            latLon = UnsafePointer(t.latLon)
            gaps = UnsafePointer(t.gaps)
            dims = UnsafePointer(t.dims)
            internalCount = t.internalCount
        }

        /// A box in x, y, z (scalar fields: the generic SIMD minimum and maximum are calls).
        struct Box {
            var lx, ly, lz, hx, hy, hz: Double
            static let empty = Box(lx: .infinity, ly: .infinity, lz: .infinity, hx: -.infinity, hy: -.infinity, hz: -.infinity)
            @inline(__always)
            func low(_ d: Int) -> Double { d == 0 ? lx : d == 1 ? ly : lz }
            @inline(__always)
            func high(_ d: Int) -> Double { d == 0 ? hx : d == 1 ? hy : hz }
            @inline(__always)
            func union(_ o: Box) -> Box {
                Box(lx: Swift.min(lx, o.lx), ly: Swift.min(ly, o.ly), lz: Swift.min(lz, o.lz),
                    hx: Swift.max(hx, o.hx), hy: Swift.max(hy, o.hy), hz: Swift.max(hz, o.hz))
            }
        }

        /// The bounding box of positions `lo..<hi` (node `node`'s), checking the points of a leaf
        /// and the gap of an internal node on the way.
        mutating func box(node: Int, lo: Int, hi: Int) -> Box {
            if node >= internalCount, let derived {
                let b = PlaceVectors.derive(
                    latLon: latLon + 2 * lo, count: hi - lo, into: derived + lo, arithmetic: arithmetic, level: level,
                    scratch: scratch)
                if b.outside { outside = true }
                return Box(lx: b.low.x, ly: b.low.y, lz: b.low.z, hx: b.high.x, hy: b.high.y, hz: b.high.z)
            }
            if node >= internalCount {
                #if canImport(GeoLocKernels)
                if level > 0 {
                    let found = glk_place_vectors(
                        UnsafeRawPointer(points + lo).assumingMemoryBound(to: Double.self), latLon + 2 * lo, hi - lo,
                        PlaceFileCheck.vectorTolerance, PlaceFileCheck.cosineTolerance, scratch, Int32(level))
                    if found >= 0 {
                        guard found == hi - lo else {
                            if badPosition < 0 { badPosition = lo + found }
                            return Box.empty
                        }
                        return Box(lx: scratch[0], ly: scratch[1], lz: scratch[2], hx: scratch[3], hy: scratch[4], hz: scratch[5])
                    }
                }
                #endif
                var b = Box.empty
                var bad = false
                var p = lo
                while p < hi {
                    let v = points[p]
                    b.lx = Swift.min(b.lx, v.x)
                    b.ly = Swift.min(b.ly, v.y)
                    b.lz = Swift.min(b.lz, v.z)
                    b.hx = Swift.max(b.hx, v.x)
                    b.hy = Swift.max(b.hy, v.y)
                    b.hz = Swift.max(b.hz, v.z)
                    bad = bad || PlaceFileCheck.vectorMismatch(v, latitude: latLon[2 * p], longitude: latLon[2 * p + 1])
                    p += 1
                }
                if bad && badPosition < 0 {
                    for p in lo..<hi where PlaceFileCheck.vectorMismatch(points[p], latitude: latLon[2 * p], longitude: latLon[2 * p + 1]) {
                        badPosition = p
                        break
                    }
                }
                return b
            }
            let mid = lo + (hi - lo) / 2
            let left = box(node: 2 * node + 1, lo: lo, hi: mid)
            let right = box(node: 2 * node + 2, lo: mid, hi: hi)
            let d = Int(dims[node])
            if let derivedGaps {
                derivedGaps[2 * node] = left.high(d)
                derivedGaps[2 * node + 1] = right.low(d)
            }
            let gapLow = gaps[2 * node], gapHigh = gaps[2 * node + 1]
            // The searches take every left point <= gapLow and every right point >= gapHigh along
            // d, and gapLow <= gapHigh (a NaN gap fails these too).
            if !(left.high(d) <= gapLow && gapLow <= gapHigh && gapHigh <= right.low(d)) && badNode < 0 {
                badNode = node
            }
            return left.union(right)
        }
    }

    // MARK: text

    /// The offset of the first byte of `bytes` that is a NUL or breaks UTF-8 (`nil`: none), and
    /// whether every byte is ASCII. Eight bytes at a time while they are ASCII without a NUL.
    static func utf8Problem(_ base: UnsafePointer<UInt8>, count n: Int) -> (bad: Int?, ascii: Bool) {
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        var ascii = true
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i < n {
            // 16 bytes at a time, then 8, while they are ASCII without a NUL: (w - 0x01..) & ~w &
            // 0x80.. is nonzero exactly when a byte of w is zero.
            while i + 16 <= n {
                let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let u = raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
                if ((w | u) & high) | ((w &- ones) & ~w & high) | ((u &- ones) & ~u & high) != 0 { break }
                i += 16
            }
            // (The sixteen-byte steps can end exactly at the end.)
            guard i < n else { break }
            if i + 8 <= n {
                let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                if (w & high) | ((w &- ones) & ~w & high) == 0 {
                    i += 8
                    continue
                }
            }
            let b = base[i]
            if b < 0x80 {
                if b == 0 { return (i, ascii) }
                i += 1
                continue
            }
            ascii = false
            var need = 0
            var second: ClosedRange<UInt8> = 0x80...0xBF
            switch b {
            case 0xC2...0xDF: need = 1
            case 0xE0: need = 2; second = 0xA0...0xBF
            case 0xE1...0xEC, 0xEE, 0xEF: need = 2
            case 0xED: need = 2; second = 0x80...0x9F  // no surrogates
            case 0xF0: need = 3; second = 0x90...0xBF
            case 0xF1...0xF3: need = 3
            case 0xF4: need = 3; second = 0x80...0x8F  // at most U+10FFFF
            default: return (i, false)
            }
            guard i + need < n, second.contains(base[i + 1]) else { return (i, false) }
            var k = 2
            while k <= need {
                guard base[i + k] & 0xC0 == 0x80 else { return (i, false) }
                k += 1
            }
            i += need + 1
        }
        return (nil, ascii)
    }

    /// Checks strings stored one after another in `text` (`ends[j]`: where string j ends;
    /// nondecreasing, the last `count`, already checked): valid UTF-8, no NUL, and no string
    /// ending inside a character. `describe(j)` names string j in the message.
    static func strings(
        _ text: UnsafePointer<UInt8>, count n: Int, ends: UnsafePointer<UInt32>, strings: Int,
        describe: (Int) -> String
    ) throws(GeoLocError) {
        /// The string that holds byte `offset`.
        func string(at offset: Int) -> Int {
            var lo = 0, hi = strings  // the first j with ends[j] > offset
            while lo < hi {
                let m = (lo + hi) / 2
                if Int(ends[m]) > offset { hi = m } else { lo = m + 1 }
            }
            return Swift.min(lo, Swift.max(strings - 1, 0))
        }
        let (bad, ascii) = utf8Problem(text, count: n)
        if let bad {
            let what = text[bad] == 0 ? "holds a NUL byte" : "is not valid UTF-8"
            throw corrupted("\(describe(string(at: bad))) \(what)")
        }
        // ASCII text has no character to end inside of.
        guard !ascii else { return }
        var cut = 0
        for j in 0..<strings {
            let e = Int(ends[j])
            // The byte after string j starts a character (a continuation byte is 10xxxxxx).
            cut |= e < n && text[e] & 0xC0 == 0x80 ? 1 : 0
        }
        guard cut != 0 else { return }
        for j in 0..<strings {
            let e = Int(ends[j])
            if e < n && text[e] & 0xC0 == 0x80 {
                // The string that holds the character's first byte (text[0] starts one: e > 0).
                throw corrupted("\(describe(string(at: e - 1))) is not valid UTF-8 (it ends inside a character)")
            }
        }
    }
}
