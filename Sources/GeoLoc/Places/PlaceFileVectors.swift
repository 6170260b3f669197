// The unit vectors of a place set, derived from its coordinates: a place's (x, y, z) =
// (cos φ cos λ, cos φ sin λ, sin φ) and, in the fourth lane, cos φ. A place file of version 3 or 4
// stores none (PlaceFile.swift): opening one derives them here, and building a set in memory
// (`UnitVectorTree.init(latLon:bucket:)`) makes them here too, so a saved and reopened set has
// the very bits of the set it was saved from, and answers every query as it did.
//
// The arithmetic, the same on every machine, without a libm call:
// - cos φ is `VectorMath.latitudeCosine(φ)`, the cosine `geoloc_distance`'s haversine takes
//   too: every distance a query returns multiplies by this lane (`cosLat2`), so a query's
//   distances are the scalar call's to the bit;
// - sin φ, cos λ = sin(π/2 - |λ|) and sin λ (= ±sin(|λ|), or ±sin(π - |λ|) beyond π/2) come from
//   the same polynomial sine, `VectorMath.sinPoly` (cos φ is a fourth lane of it);
// - every product and sum is rounded on its own (no fused multiply-add): the C kernel
//   `glk_place_derive` (Sources/GeoLocKernels/places.c, AVX2, four places at a time) and this
//   loop give the same bits, which a test checks at every level this CPU runs.
// Files of version 3 (libgeoloc 0.6) were built on x and y from libm's `cos φ`, and their trees'
// order follows those bits (two places a last bit apart along a split can fall either side of
// it): they are derived with libm's cosine in x and y (`Arithmetic.libmCosine`, one libm call a
// place, as 0.6 opened them) and the polynomial's in the fourth lane, so their trees check as
// they were built and their distances are the library's.
//
// Cost: a quarter of a four-lane polynomial per sine and cosine a place (version 3: and one libm
// cosine; the C kernel at AVX-512 takes sixteen places a step, AVX2 eight); memory: 32 bytes a
// place, private to the process (with the gaps a file of version 3 or 4 also leaves out,
// `DerivedPlaceArrays`: 5.6 MB for the shipped gazetteer's 170,391 places, and the tree
// positions, 4 bytes a place, on their first use).

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

enum PlaceVectors {
    /// How x and y take cos φ: the library's cosine (`VectorMath.latitudeCosine`, sets built
    /// since 0.7 and files of version 4) or libm's `cos` (files of version 3, written by 0.6).
    /// The fourth lane is the library's cosine either way.
    enum Arithmetic: Sendable {
        case polynomial
        case libmCosine
    }

    /// The vector (x, y, z, cos φ) of one place (degrees, checked).
    @inline(__always)
    static func vector(latitude: Double, longitude: Double, arithmetic: Arithmetic = .polynomial) -> SIMD4<Double> {
        typealias M = VectorMath
        let d2r = Double.pi / 180
        let phi = latitude * d2r, lam = longitude * d2r
        let alam = Swift.abs(lam)
        // Lane 3 is `VectorMath.latitudeCosine(phi)`, operation for operation.
        let s = M.sinPoly(SIMD4(
            phi, (M.pio2Hi - alam) + M.pio2Lo, alam > M.pio2Hi ? (M.piHi - alam) + M.piLo : alam,
            (M.pio2Hi - Swift.abs(phi)) + M.pio2Lo))
        let c = s[3]
        let cx = arithmetic == .polynomial ? c : cos(phi)
        let slam = lam < 0 ? -s[2] : s[2]
        return SIMD4(cx * s[1], cx * slam, s[0], c)
    }

    /// The vectors of `n` places whose degrees are `latLon[2i]`, `latLon[2i + 1]` into
    /// `points[i]`, their box in x, y, z (`low`, `high`: +inf and -inf for no place), and whether
    /// a coordinate is out of range or not a number (`outside`; its vector is then garbage). The C
    /// kernel at `level` above 0 where this CPU has it, else the Swift loop; the same bits.
    /// `scratch`: 6 doubles the kernel may write (the caller's, so that a walk over many leaves
    /// allocates nothing; `nil`: allocated here).
    static func derive(
        latLon: UnsafePointer<Double>, count n: Int, into points: UnsafeMutablePointer<SIMD4<Double>>,
        arithmetic: Arithmetic = .polynomial,
        level: VectorMath.Level = VectorMath.supportedLevel, scratch: UnsafeMutablePointer<Double>? = nil
    ) -> (low: SIMD3<Double>, high: SIMD3<Double>, outside: Bool) {
        guard n > 0 else { return (SIMD3(repeating: .infinity), SIMD3(repeating: -.infinity), false) }
        #if canImport(GeoLocKernels)
        if level > 0 {
            let box = scratch ?? UnsafeMutablePointer<Double>.allocate(capacity: 6)
            defer { if scratch == nil { box.deallocate() } }
            let done = glk_place_derive(
                latLon, n, UnsafeMutableRawPointer(points).assumingMemoryBound(to: Double.self), box,
                arithmetic == .libmCosine ? 1 : 0, Int32(level))
            if done != 0 {
                return (SIMD3(box[0], box[1], box[2]), SIMD3(box[3], box[4], box[5]), done == 3)
            }
        }
        #endif
        var lx = Double.infinity, ly = Double.infinity, lz = Double.infinity
        var hx = -Double.infinity, hy = -Double.infinity, hz = -Double.infinity
        var outside = false
        for i in 0..<n {
            let lat = latLon[2 * i], lon = latLon[2 * i + 1]
            // (NaN fails every comparison.)
            outside = outside || !(lat >= -90 && lat <= 90 && lon >= -180 && lon < 180)
            let v = vector(latitude: lat, longitude: lon, arithmetic: arithmetic)
            points[i] = v
            // (Scalar minimum and maximum: the generic SIMD ones are calls.)
            lx = Swift.min(lx, v.x); ly = Swift.min(ly, v.y); lz = Swift.min(lz, v.z)
            hx = Swift.max(hx, v.x); hy = Swift.max(hy, v.y); hz = Swift.max(hz, v.z)
        }
        return (SIMD3(lx, ly, lz), SIMD3(hx, hy, hz), outside)
    }
}

/// What a set opened from a place file of version 3 or 4 derives instead of reading: its unit
/// vectors (32 bytes a place) and the tree's split gaps (16 bytes a node, about 1 byte a place),
/// on open, private to the process, one 64-byte aligned block, freed with the set's tree; and
/// the tree position of each place (the inverse of the file's `ids`, 4 bytes a place) on its
/// first use (`positions(ids:count:)`: no query's search needs it). A set opened from a file of
/// version 1 or 2 has its vectors here alone (copied from the file, checked, with the library's
/// cosine in the fourth lane), its positions and gaps staying in the file. A block of 16 MB or
/// more (about 450,000 places; the vectors copied from a version-2 file of a million places,
/// 32 MB, among them) is mapped on its own and, on Linux, asked for transparent huge pages:
/// writing it then costs a fault per 2 MB instead of per 4 kB (the faults of 4 kB pages were
/// half of a million-place open; a version-2 file of a million places opened in 34 ms with the
/// threshold at 32 MB, 23 ms at 16, against 0.6's 16 ms without the copy). Smaller blocks, the shipped gazetteer's (5.6 MB) among
/// them, are not: where the kernel compacts memory for such a request (`defrag` "madvise", the
/// common default) a first open could stall for tens of milliseconds, which would cost a small
/// set more than its faults.
final class DerivedPlaceArrays {
    let points: UnsafeMutablePointer<SIMD4<Double>>
    let gaps: UnsafeMutablePointer<Double>
    /// The tree positions (the inverse of the file's `ids`, 4 bytes a place), made by the first
    /// caller of `positions(ids:count:)`: nil until then (one slot, published atomically).
    private let positionsSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// The block's size in bytes.
    let byteCount: Int
    /// The arithmetic the tree's order was built on: `.polynomial` for a file of version 4
    /// (this library's), `.libmCosine` for version 3, `nil` for versions 1 and 2 (whatever made
    /// their stored vectors). Saving a set whose tree is not this library's builds it anew
    /// (`PlaceSet.fileImage`).
    let treeArithmetic: PlaceVectors.Arithmetic?
    /// The mapping to unmap (its start and length), or nil for memory from `posix_memalign`.
    private let mapping: (UnsafeMutableRawPointer, Int)?

    static let hugePage = 2 << 20
    /// The least block asked for huge pages.
    static let hugePageMinimum = 16 << 20

    /// Memory for `count` places and `internalCount` nodes (not yet written); `nil` when there is
    /// none to be had. (Both are bounded by the file's size: no product overflows.)
    /// `treeArithmetic` nil: the vectors alone (versions 1 and 2; `m` is then 0).
    init?(count n: Int, internalCount m: Int, treeArithmetic: PlaceVectors.Arithmetic?) {
        self.treeArithmetic = treeArithmetic
        byteCount = 32 * n + 16 * m
        var block: UnsafeMutableRawPointer? = nil
        var mapped: (UnsafeMutableRawPointer, Int)? = nil
        #if os(Linux)
        if byteCount >= DerivedPlaceArrays.hugePageMinimum {
            // Over-allocated by a huge page so that the block can start on a 2 MB boundary.
            let length = byteCount + DerivedPlaceArrays.hugePage
            if let p = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), p != MAP_FAILED {
                let start = (Int(bitPattern: p) + DerivedPlaceArrays.hugePage - 1) & ~(DerivedPlaceArrays.hugePage - 1)
                block = UnsafeMutableRawPointer(bitPattern: start)
                _ = madvise(block, byteCount, 14)  // MADV_HUGEPAGE; a refusal only costs speed
                mapped = (p, length)
            }
        }
        #endif
        if block == nil {
            var raw: UnsafeMutableRawPointer? = nil
            guard posix_memalign(&raw, 64, Swift.max(byteCount, 1)) == 0, let raw else { return nil }
            block = raw
        }
        let raw = block.unsafelyUnwrapped
        mapping = mapped
        points = raw.bindMemory(to: SIMD4<Double>.self, capacity: n)
        gaps = (raw + 32 * n).bindMemory(to: Double.self, capacity: 2 * m)
        positionsSlot = .allocate(capacity: 1)
        positionsSlot.initialize(to: nil)
    }

    /// The tree position of each place, `positions[ids[p]] = p` (`ids` the file's, checked to be
    /// a permutation of `0..<n` on open), made on the first call, by any number of threads at once
    /// without a lock: a thread that finds none makes its own and publishes it with a
    /// compare-and-swap; when two race, one table wins and the other is freed. `nil` when there is
    /// no memory for it. Paid by the first call of `PlaceSet.coordinate(at:)` (or of what calls
    /// it: a place's fields, a reverse geocode's locality, a search result) instead of by every
    /// open: about 3 ms for a million places in an order of their own (the table's pages, and a
    /// store to each that lands in another cache line), 0.4 ms for the shipped gazetteer.
    func positions(ids: UnsafePointer<Int32>, count n: Int) -> UnsafeMutablePointer<Int32>? {
        if let made = glk_load_acquire(positionsSlot) { return made.assumingMemoryBound(to: Int32.self) }
        guard let fresh = malloc(Swift.max(4 * n, 1)) else { return nil }
        let table = fresh.assumingMemoryBound(to: Int32.self)
        for p in 0..<n { table[Int(ids[p])] = Int32(truncatingIfNeeded: p) }
        if glk_publish(positionsSlot, fresh) != 0 { return table }
        free(fresh)
        return glk_load_acquire(positionsSlot)?.assumingMemoryBound(to: Int32.self)
    }

    deinit {
        free(positionsSlot.pointee)
        positionsSlot.deallocate()
        if let (start, length) = mapping {
            munmap(start, length)
        } else {
            free(points)
        }
    }
}
