#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The unit sphere: a coordinate as the unit vector (cos φ cos λ, cos φ sin λ, sin φ), one point
// at a time (the place index, geofences, tracks) or many at once (track simplification). Every
// capability that works with unit vectors takes them from here, so equal coordinates give equal
// vectors everywhere.

/// The unit vector of a point on the sphere: (cos φ cos λ, cos φ sin λ, sin φ), with libm. Queries
/// and fixes use it; the place index's own vectors come from `PlaceVectors.derive` (within about
/// 4e-16 of these, inside the searches' rounding margins), so equal coordinates give vectors
/// equal to within those margins, not always to the bit.
@inline(__always)
func unitVector(latitude: Double, longitude: Double) -> SIMD3<Double> {
    let d2r = Double.pi / 180
    let phi = latitude * d2r
    let lambda = longitude * d2r
    let c = cos(phi)
    return SIMD3(c * cos(lambda), c * sin(lambda), sin(phi))
}

/// Unit vectors of checked points at `base[stride * i]`, `base[stride * i + 1]` (latitude,
/// longitude in degrees) into three arrays (structure of arrays), four at a time with the
/// polynomial sine of `VectorMath` (relative error about 1e-16: the same as libm's for this
/// purpose), the rest with libm as `unitVector` does.
func unitVectors(
    _ base: UnsafePointer<Double>, stride: Int, count n: Int,
    _ xs: UnsafeMutablePointer<Double>, _ ys: UnsafeMutablePointer<Double>, _ zs: UnsafeMutablePointer<Double>
) {
    let d2r = Double.pi / 180
    let sign = SIMD4<UInt64>(repeating: 0x8000_0000_0000_0000)
    var i = 0
    while i + 4 <= n {
        var lat = SIMD4<Double>(), lon = SIMD4<Double>()
        for j in 0..<4 {
            lat[j] = base[stride * (i + j)]
            lon[j] = normalizedLongitude(base[stride * (i + j) + 1])
        }
        let phi = lat * d2r, lam = lon * d2r
        let sphi = VectorMath.sinPoly(phi)
        let cphi = VectorMath.cosHalfTurn(phi)
        let alam = VectorMath.magnitude(lam)
        let clam = VectorMath.cosHalfTurn(lam)  // |λ| <= π
        let over = alam .> VectorMath.pio2Hi
        let slamAbs = VectorMath.sinPoly(VectorMath.select(over, (VectorMath.piHi - alam) + VectorMath.piLo, alam))
        let slam = unsafeBitCast(VectorMath.bits(slamAbs) | (VectorMath.bits(lam) & sign), to: SIMD4<Double>.self)
        UnsafeMutableRawPointer(xs + i).storeBytes(of: cphi * clam, as: SIMD4<Double>.self)
        UnsafeMutableRawPointer(ys + i).storeBytes(of: cphi * slam, as: SIMD4<Double>.self)
        UnsafeMutableRawPointer(zs + i).storeBytes(of: sphi, as: SIMD4<Double>.self)
        i += 4
    }
    while i < n {
        let phi = base[stride * i] * d2r, lam = normalizedLongitude(base[stride * i + 1]) * d2r
        let c = cos(phi)
        xs[i] = c * cos(lam); ys[i] = c * sin(lam); zs[i] = sin(phi)
        i += 1
    }
}
