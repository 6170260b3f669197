// The C ABI of the WGS84 geodesics: checks, then the Swift core's geodesicInverse/Direct.
import CGeoLoc
@_spi(CABI) import GeoLoc

@c @implementation
public func geoloc_geodesic_inverse(
    _ a: geoloc_coord, _ b: geoloc_coord, _ meters: UnsafeMutablePointer<Double>?,
    _ azi1: UnsafeMutablePointer<Double>?, _ azi2: UnsafeMutablePointer<Double>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let p = try coordinate(a)
        let q = try coordinate(b)
        let g = geodesicInverse(from: p, to: q)
        meters?.pointee = g.distance
        azi1?.pointee = g.initialAzimuth
        azi2?.pointee = g.finalAzimuth
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_geodesic_direct(
    _ start: geoloc_coord, _ azi1: Double, _ meters: Double, _ end: UnsafeMutablePointer<geoloc_coord>?,
    _ azi2: UnsafeMutablePointer<Double>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        guard let end else { throw GeoLocError(.nullArgument, "end is NULL") }
        let p = try coordinate(start)
        let g = try geodesicDirect(from: p, azimuth: azi1, distance: meters)
        end.pointee = geoloc_coord(lat: g.destination.latitude, lon: g.destination.longitude)
        azi2?.pointee = g.finalAzimuth
        return GEOLOC_OK
    }
}
