// Vector arithmetic shared by the batch kernels of several capabilities (the batch haversine of
// Distance, the unit vectors of the unit sphere that Tracking's simplification and Places' index
// use): a polynomial sine that needs no libm call, selections and magnitudes on the bits, and the
// instruction-set level the C kernels (Sources/GeoLocKernels) run at on this CPU. The derivation
// of the polynomial is in Distance/HaversineKernel.swift, which was its first user.
#if canImport(GeoLocKernels)
import GeoLocKernels
#endif

@usableFromInline
enum VectorMath {
    /// The instruction set a C kernel runs on: 0 is the Swift baseline, 1 AVX2 with FMA and 2
    /// AVX-512F (x86-64, Sources/GeoLocKernels).
    typealias Level = Int

    /// The highest level this CPU supports, the one the batch functions use.
    static let supportedLevel: Level = {
        #if canImport(GeoLocKernels)
        return Level(glk_level_supported())
        #else
        return 0
        #endif
    }()

    typealias V = SIMD4<Double>

    // π/2 and π as a double plus the rounding remainder.
    @inline(__always) static var pio2Hi: Double { 1.5707963267948966 }
    @inline(__always) static var pio2Lo: Double { 6.123233995736766e-17 }
    @inline(__always) static var piHi: Double { 3.141592653589793 }
    @inline(__always) static var piLo: Double { 1.2246467991473532e-16 }

    /// sin y for y in [-π/2, π/2]: y + y z P(z), z = y², on one double or four lanes (the same
    /// operations, each rounded on its own, so a lane and a scalar give the same bits).
    @inline(__always)
    static func sinPoly<L: PolynomialLanes>(_ y: L) -> L {
        let z = y * y
        var p = z * 2.7211749805411616e-15 + -7.642991491043102e-13
        p = p * z + 1.6058939705964762e-10
        p = p * z + -2.5052106872803646e-08
        p = p * z + 2.755731921113729e-06
        p = p * z + -0.00019841269841209218
        p = p * z + 0.008333333333333194
        p = p * z + -0.16666666666666666
        return y + y * (z * p)
    }

    /// cos x for |x| <= π on one double or four lanes: sin(π/2 - |x|) by `sinPoly` (whose
    /// argument is then in [-π/2, π/2]), the subtraction exact for |x| >= π/4 and carried to
    /// about 1e-32 by the split of π/2 into `pio2Hi` + `pio2Lo`. The same operations on a lane
    /// and on a double, so the four-lane kernels (the batch haversine's latitudes and half
    /// differences, the unit vectors of `UnitSphere`) and `latitudeCosine` give the same bits.
    @inline(__always)
    static func cosHalfTurn<L: PolynomialLanes>(_ x: L) -> L {
        sinPoly((pio2Hi - x.laneMagnitude) + pio2Lo)
    }

    /// cos φ of a latitude φ in radians (|φ| <= π/2): `cosHalfTurn` on one double. The one
    /// cosine of a latitude the library's distances take: the
    /// haversine of `haversineDistance` (`geoloc_distance`), the centre of the place queries,
    /// the fourth lane of the place index's vectors (`PlaceVectors`, which the queries multiply
    /// by) and the batch kernels' (`cosHalfTurn` on four lanes, `cos_half_turn` in the C
    /// kernels), so a
    /// query's distances are the scalar call's to the bit, and opening a place file derives its
    /// cosines without a libm call. Accuracy, over every latitude from 0 to 90 degrees in steps
    /// of 1e-6 (and of 1e-3, with 1e-7 below 0.002, in `PlaceFileForgedTests.
    /// testLatitudeCosineAgainstLibm`): at most 2 ulp from libm's `cos` (they differ in 30% of
    /// latitudes) and at most 2.1 ulp from the exact cosine (the long double `cosl` of the same
    /// argument; libm's: 0.52), the worst near 0 degrees, where cos φ is within an ulp or two of
    /// 1 (a relative error of 2.3e-16: a distance of 10,000 km moves by a few nanometres).
    /// Not generic itself: `haversineDistance` is inlinable and calls it from other modules.
    @usableFromInline @inline(__always)
    static func latitudeCosine(_ phi: Double) -> Double {
        cosHalfTurn(phi)
    }

    typealias Bits = SIMD4<UInt64>

    // Selection and |x| on the bits: SIMD `replacing(with:where:)` can come out as a branch per
    // lane, these are single vector instructions.
    @inline(__always)
    static func bits(_ x: V) -> Bits { unsafeBitCast(x, to: Bits.self) }
    @inline(__always)
    static func select(_ m: SIMDMask<SIMD4<Int64>>, _ a: V, _ b: V) -> V {
        let mb = unsafeBitCast(m, to: Bits.self)
        return unsafeBitCast((bits(a) & mb) | (bits(b) & ~mb), to: V.self)
    }
    @inline(__always)
    static func magnitude(_ x: V) -> V {
        unsafeBitCast(bits(x) & Bits(repeating: 0x7fff_ffff_ffff_ffff), to: V.self)
    }
}

/// What `VectorMath.sinPoly` and `cosHalfTurn` compute on: one double, or four lanes of them.
protocol PolynomialLanes {
    static func * (a: Self, b: Self) -> Self
    static func * (a: Self, b: Double) -> Self
    static func + (a: Self, b: Self) -> Self
    static func + (a: Self, b: Double) -> Self
    static func - (a: Double, b: Self) -> Self
    /// |x| of each lane (the sign bit cleared).
    var laneMagnitude: Self { get }
}

extension Double: PolynomialLanes {
    @inline(__always) var laneMagnitude: Double { magnitude }
}

extension SIMD4: PolynomialLanes where Scalar == Double {
    @inline(__always) var laneMagnitude: Self { VectorMath.magnitude(self) }
}
