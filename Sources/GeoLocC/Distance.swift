// The C ABI of distance (Sources/GeoLoc/Distance): the sphere and WGS84 distance of one pair and
// the batch forms, and the WGS84 geodesics. Each function checks its arguments, calls the core
// and maps every error to a status.
import CGeoLoc
@_spi(CABI) import GeoLoc

// MARK: - Distance

@c @implementation
public func geoloc_distance(
    _ a: geoloc_coord, _ b: geoloc_coord, _ model: geoloc_model, _ unit: geoloc_unit, _ out: UnsafeMutablePointer<Double>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let out = try required(out, "out")
        let (m, u) = try measure(model, unit)
        try deliver(try distance(from: coordinate(a, "a"), to: coordinate(b, "b"), model: m, unit: u), to: out, "out")
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_distance_value(
    _ pair: UnsafePointer<geoloc_coord>?, _ model: geoloc_model, _ unit: geoloc_unit
) -> Double {
    do throws(GeoLocError) {
        let pair = try required(pair, "pair")
        let (m, u) = try measure(model, unit)
        // The caller's memory may come from a foreign runtime (a Python bytes object): read it
        // without assuming the alignment of a double.
        let raw = UnsafeRawPointer(pair)
        let a = try Coordinate(
            latitude: raw.loadUnaligned(fromByteOffset: 0, as: Double.self),
            longitude: raw.loadUnaligned(fromByteOffset: 8, as: Double.self), named: "pair[0]")
        let b = try Coordinate(
            latitude: raw.loadUnaligned(fromByteOffset: 16, as: Double.self),
            longitude: raw.loadUnaligned(fromByteOffset: 24, as: Double.self), named: "pair[1]")
        return try distance(from: a, to: b, model: m, unit: u)
    } catch {
        _ = fail(error)
        return .nan
    }
}

@c @implementation
public func geoloc_distance_pairs(
    _ a: UnsafePointer<geoloc_coord>?, _ b: UnsafePointer<geoloc_coord>?, _ n: Int, _ model: geoloc_model,
    _ unit: geoloc_unit, _ out: UnsafeMutablePointer<Double>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let n = try inputArray(a, n, "a").count
        _ = try inputArray(b, n, "b")
        let out = try outputArray(out, n, "out")
        let (m, u) = try measure(model, unit)
        guard n > 0 else { return GEOLOC_OK }
        try BatchDistance.pairs(degrees(a, n), degrees(b, n), into: out, model: m, unit: u)
        try finiteAll(UnsafeBufferPointer(out), "out")
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_distance_one_to_many(
    _ origin: geoloc_coord, _ points: UnsafePointer<geoloc_coord>?, _ n: Int, _ model: geoloc_model,
    _ unit: geoloc_unit, _ out: UnsafeMutablePointer<Double>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let n = try inputArray(points, n, "points").count
        let out = try outputArray(out, n, "out")
        let (m, u) = try measure(model, unit)
        let o = try coordinate(origin, "origin")
        guard n > 0 else { return GEOLOC_OK }
        try BatchDistance.oneToMany(o, degrees(points, n), into: out, model: m, unit: u)
        try finiteAll(UnsafeBufferPointer(out), "out")
        return GEOLOC_OK
    }
}

// MARK: - Geodesics on the WGS84 ellipsoid


@c @implementation
public func geoloc_geodesic_inverse(
    _ a: geoloc_coord, _ b: geoloc_coord, _ meters: UnsafeMutablePointer<Double>?,
    _ azi1: UnsafeMutablePointer<Double>?, _ azi2: UnsafeMutablePointer<Double>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let p = try coordinate(a, "a")
        let q = try coordinate(b, "b")
        let g = geodesicInverse(from: p, to: q)
        try deliver(g.distance, toOptional: meters, "meters")
        try deliver(g.initialAzimuth, toOptional: azi1, "azi1")
        try deliver(g.finalAzimuth, toOptional: azi2, "azi2")
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_geodesic_direct(
    _ start: geoloc_coord, _ azi1: Double, _ meters: Double, _ end: UnsafeMutablePointer<geoloc_coord>?,
    _ azi2: UnsafeMutablePointer<Double>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let end = try required(end, "end")
        let p = try coordinate(start, "start")
        let g = try geodesicDirect(from: p, azimuth: azi1, distance: meters)
        try deliver(geoloc_coord(lat: g.destination.latitude, lon: g.destination.longitude), to: end, "end")
        try deliver(g.finalAzimuth, toOptional: azi2, "azi2")
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_geodesic_inverse_many(
    _ a: UnsafePointer<geoloc_coord>?, _ b: UnsafePointer<geoloc_coord>?, _ n: Int,
    _ meters: UnsafeMutablePointer<Double>?, _ azi1: UnsafeMutablePointer<Double>?,
    _ azi2: UnsafeMutablePointer<Double>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let n = try inputArray(a, n, "a").count
        _ = try inputArray(b, n, "b")
        try BatchGeodesic.inverse(
            degrees(a, n), degrees(b, n), count: n, distances: meters, initialAzimuths: azi1, finalAzimuths: azi2)
        for (out, name) in [(meters, "meters"), (azi1, "azi1"), (azi2, "azi2")] {
            if let out { try finiteAll(UnsafeBufferPointer(start: out, count: n), name) }
        }
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_geodesic_direct_many(
    _ start: UnsafePointer<geoloc_coord>?, _ azimuth: UnsafePointer<Double>?, _ distance: UnsafePointer<Double>?,
    _ n: Int, _ end: UnsafeMutablePointer<geoloc_coord>?, _ azi2: UnsafeMutablePointer<Double>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let n = try inputArray(start, n, "start").count
        _ = try inputArray(azimuth, n, "azimuth")
        _ = try inputArray(distance, n, "distance")
        try BatchGeodesic.direct(
            degrees(start, n), azimuths: UnsafeBufferPointer(start: azimuth, count: n),
            distances: UnsafeBufferPointer(start: distance, count: n), count: n,
            ends: end.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: Double.self) }, finalAzimuths: azi2)
        if let end { try finiteAll(UnsafeBufferPointer(start: UnsafeRawPointer(end).assumingMemoryBound(to: Double.self), count: 2 * n), "end") }
        if let azi2 { try finiteAll(UnsafeBufferPointer(start: azi2, count: n), "azi2") }
        return GEOLOC_OK
    }
}
