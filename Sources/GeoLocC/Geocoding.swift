// The C ABI of offline reverse geocoding (Sources/GeoLoc/Geocoding): the gazetteer handle and
// "City, State" for a coordinate. Every function checks its arguments, calls the core, and maps
// every error to a status.
import CGeoLoc
@_spi(CABI) import GeoLoc

// MARK: - Gazetteer

@c @implementation
public func geoloc_gazetteer_open(_ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        guard let out else { throw GeoLocError(.nullArgument, "out is NULL") }
        let g = if let path { try Gazetteer(path: try readText(path, "path")) } else { try Gazetteer.shipped() }
        out.pointee = retained(GazetteerHandle(g), .gazetteer)
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_gazetteer_destroy(_ gazetteer: OpaquePointer?) {
    release(gazetteer, .gazetteer, "gazetteer")
}

@c @implementation
public func geoloc_gazetteer_places(
    _ gazetteer: OpaquePointer?, _ places: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let g = try borrow(gazetteer, .gazetteer, as: GazetteerHandle.self, "gazetteer")
        guard let places else { throw GeoLocError(.nullArgument, "places is NULL") }
        places.pointee = OpaquePointer(g.view)
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_reverse_geocode(
    _ gazetteer: OpaquePointer?, _ c: geoloc_coord, _ style: geoloc_address_style, _ buf: UnsafeMutablePointer<CChar>?,
    _ cap: Int, _ needed: UnsafeMutablePointer<Int>?, _ place: UnsafeMutablePointer<geoloc_match>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let g = try borrow(gazetteer, .gazetteer, as: GazetteerHandle.self, "gazetteer")
        let textAsked = !(buf == nil && cap == 0 && needed == nil)
        if !textAsked && place == nil { throw GeoLocError(.nullArgument, "place is NULL and no text is asked for") }
        if textAsked {
            guard needed != nil else { throw GeoLocError(.nullArgument, "needed is NULL") }
            if buf == nil && cap != 0 { throw GeoLocError(.nullArgument, "buf is NULL but cap is \(UInt(bitPattern: cap))") }
        }
        let s = try decode(style.rawValue, as: AddressStyle.self, "style")
        let m = try g.gazetteer.locality(at: try coordinate(c))
        place?.pointee = geoloc_match(index: m.named, distance: m.distance)
        // The locality's text is formatted once per gazetteer and style, then copied.
        if textAsked {
            let status = writeBytes(try g.gazetteer.textBytes(m, s, subLocality: false), buf, cap, needed)
            if status != GEOLOC_OK { return status }
        }
        return noLocality(m, c)
    }
}

@c @implementation
public func geoloc_reverse_geocode_locality(
    _ gazetteer: OpaquePointer?, _ c: geoloc_coord, _ style: geoloc_address_style,
    _ options: UnsafePointer<geoloc_reverse_options>?, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?, _ out: UnsafeMutablePointer<geoloc_locality>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let g = try borrow(gazetteer, .gazetteer, as: GazetteerHandle.self, "gazetteer")
        let textAsked = !(buf == nil && cap == 0 && needed == nil)
        if !textAsked && out == nil { throw GeoLocError(.nullArgument, "out is NULL and no text is asked for") }
        if textAsked {
            guard needed != nil else { throw GeoLocError(.nullArgument, "needed is NULL") }
            if buf == nil && cap != 0 { throw GeoLocError(.nullArgument, "buf is NULL but cap is \(UInt(bitPattern: cap))") }
        }
        let s = try decode(style.rawValue, as: AddressStyle.self, "style")
        let o = try reverseOptions(options)
        let m = try g.gazetteer.locality(at: try coordinate(c), options: o)
        out?.pointee = cLocality(m)
        if textAsked {
            let status = writeBytes(try g.gazetteer.textBytes(m, s, subLocality: o.subLocality), buf, cap, needed)
            if status != GEOLOC_OK { return status }
        }
        return noLocality(m, c)
    }
}

@c @implementation
public func geoloc_reverse_geocode_many(
    _ gazetteer: OpaquePointer?, _ points: UnsafePointer<geoloc_coord>?, _ n: Int,
    _ indices: UnsafeMutablePointer<Int>?, _ distances: UnsafeMutablePointer<Double>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let g = try borrow(gazetteer, .gazetteer, as: GazetteerHandle.self, "gazetteer")
        let n = try checkCount(n, "n")
        if n != 0 && points == nil { throw GeoLocError(.nullArgument, "points is NULL with n = \(n)") }
        guard n > 0 else { return GEOLOC_OK }
        // Every point is checked before the first result is written.
        try g.gazetteer.localities(degrees: degrees(points, n), count: n, name: "points", options: ReverseGeocodeOptions()) {
            (i: Int, m: LocalityMatch) throws(GeoLocError) in
            indices?[i] = m.named
            distances?[i] = m.distance
        }
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_reverse_geocode_localities(
    _ gazetteer: OpaquePointer?, _ points: UnsafePointer<geoloc_coord>?, _ n: Int,
    _ options: UnsafePointer<geoloc_reverse_options>?, _ out: UnsafeMutablePointer<geoloc_locality>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let g = try borrow(gazetteer, .gazetteer, as: GazetteerHandle.self, "gazetteer")
        let n = try checkCount(n, "n")
        if n != 0 && points == nil { throw GeoLocError(.nullArgument, "points is NULL with n = \(n)") }
        if n != 0 && out == nil { throw GeoLocError(.nullArgument, "out is NULL with n = \(n)") }
        let o = try reverseOptions(options)
        guard n > 0, let out else { return GEOLOC_OK }
        try g.gazetteer.localities(degrees: degrees(points, n), count: n, name: "points", options: o) {
            (i: Int, m: LocalityMatch) throws(GeoLocError) in
            out[i] = cLocality(m)
        }
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_reverse_geocode_many_text(
    _ gazetteer: OpaquePointer?, _ points: UnsafePointer<geoloc_coord>?, _ n: Int, _ style: geoloc_address_style,
    _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?,
    _ offsets: UnsafeMutablePointer<Int>?, _ indices: UnsafeMutablePointer<Int>?,
    _ distances: UnsafeMutablePointer<Double>?
) -> geoloc_status {
    manyText(gazetteer, points, n, style, nil, buf, cap, needed, offsets) { i, m in
        indices?[i] = m.named
        distances?[i] = m.distance
    }
}

@c @implementation
public func geoloc_reverse_geocode_many_text_options(
    _ gazetteer: OpaquePointer?, _ points: UnsafePointer<geoloc_coord>?, _ n: Int, _ style: geoloc_address_style,
    _ options: UnsafePointer<geoloc_reverse_options>?, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?, _ offsets: UnsafeMutablePointer<Int>?,
    _ out: UnsafeMutablePointer<geoloc_locality>?
) -> geoloc_status {
    manyText(gazetteer, points, n, style, options, buf, cap, needed, offsets) { i, m in
        out?[i] = cLocality(m)
    }
}

/// The texts of n points' localities into one buffer (geoloc_reverse_geocode_many_text and its
/// form with options), `each` writing the other outputs of point i once the texts fit.
private func manyText(
    _ gazetteer: OpaquePointer?, _ points: UnsafePointer<geoloc_coord>?, _ n: Int, _ style: geoloc_address_style,
    _ options: UnsafePointer<geoloc_reverse_options>?, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?, _ offsets: UnsafeMutablePointer<Int>?, _ each: (Int, LocalityMatch) -> Void
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let g = try borrow(gazetteer, .gazetteer, as: GazetteerHandle.self, "gazetteer")
        let n = try checkCount(n, "n")
        if n != 0 && points == nil { throw GeoLocError(.nullArgument, "points is NULL with n = \(n)") }
        guard let needed else { throw GeoLocError(.nullArgument, "needed is NULL") }
        if buf == nil && cap != 0 { throw GeoLocError(.nullArgument, "buf is NULL but cap is \(UInt(bitPattern: cap))") }
        let s = try decode(style.rawValue, as: AddressStyle.self, "style")
        let o = try reverseOptions(options)
        // The searches, kept (so that nothing is written before every point passed), and the size.
        let found = UnsafeMutablePointer<LocalityMatch>.allocate(capacity: Swift.max(n, 1))
        var made = 0
        defer {
            found.deinitialize(count: made)
            found.deallocate()
        }
        let gz = g.gazetteer
        var size = 0
        try gz.localities(degrees: degrees(points, n), count: n, name: "points", options: o) {
            (i: Int, m: LocalityMatch) throws(GeoLocError) in
            (found + i).initialize(to: m)
            made += 1
            size += try gz.textBytes(m, s, subLocality: o.subLocality).count + 1
        }
        needed.pointee = size
        // size_t arrives as Int: a capacity above Int.max is negative here and is certainly enough.
        guard cap < 0 || cap >= size else {
            if let buf, cap != 0 { buf.pointee = 0 }
            throw GeoLocError(.bufferTooSmall, "the \(n) texts need \(size) bytes but the buffer holds \(cap)")
        }
        guard n > 0, let buf else { return GEOLOC_OK }
        let dst = UnsafeMutableRawPointer(buf)
        var at = 0
        for i in 0..<n {
            let m = found[i]
            let text = try gz.textBytes(m, s, subLocality: o.subLocality)
            // The cached text is followed by its NUL in memory: one copy of count + 1 bytes.
            dst.advanced(by: at).copyMemory(from: text.baseAddress!, byteCount: text.count + 1)
            offsets?[i] = at
            each(i, m)
            at += text.count + 1
        }
        return GEOLOC_OK
    }
}

/// The caller's options (NULL: the defaults), checked; members beyond struct_size take their defaults.
private func reverseOptions(_ p: UnsafePointer<geoloc_reverse_options>?) throws(GeoLocError) -> ReverseGeocodeOptions {
    var o = ReverseGeocodeOptions()
    guard let p else { return o }
    let size = p.pointee.struct_size
    guard size >= MemoryLayout<Int>.size else {
        throw GeoLocError(
            .invalidArgument, "options->struct_size \(UInt(bitPattern: size)) is smaller than a size_t; set it to sizeof(geoloc_reverse_options)")
    }
    func has<T>(_ path: KeyPath<geoloc_reverse_options, T>) -> Bool {
        size >= MemoryLayout<geoloc_reverse_options>.offset(of: path)! + MemoryLayout<T>.size
    }
    if has(\.max_distance_m) {
        let v = p.pointee.max_distance_m
        if v.isNaN { throw GeoLocError(.notFinite, "options->max_distance_m is NaN") }
        if v < 0 { throw GeoLocError(.outOfRange, "options->max_distance_m \(v) is negative") }
        if v != 0 { o.maxDistance = v }
    }
    if has(\.country_reach_m) {
        let v = p.pointee.country_reach_m
        if v.isNaN { throw GeoLocError(.notFinite, "options->country_reach_m is NaN") }
        if v != 0 { o.countryReach = v < 0 ? 0 : v }
    }
    if has(\.sublocality) { o.subLocality = p.pointee.sublocality }
    return o
}

private func cLocality(_ m: LocalityMatch) -> geoloc_locality {
    geoloc_locality(
        locality: m.locality ?? Int(bitPattern: UInt.max), distance_m: m.distance,
        sublocality: m.subLocality ?? Int(bitPattern: UInt.max), nearest: m.nearest,
        nearest_distance_m: m.nearestDistance, reach_m: m.reach, within_reach: m.withinReach,
        in_country: m.locality != nil || m.inCountry)
}

/// GEOLOC_OK, or the soft GEOLOC_E_NO_LOCALITY with its message.
private func noLocality(_ m: LocalityMatch, _ c: geoloc_coord) -> geoloc_status {
    guard m.locality == nil else { return GEOLOC_OK }
    return fail(.noLocality, "no locality at \(c.lat), \(c.lon): the nearest place is \(Int(m.nearestDistance.rounded())) m away")
}

/// Writes cached text (whose NUL follows `text` in memory) to a caller-owned buffer under the
/// header's buffer contract, as `writeText` does for a String.
@inline(__always)
private func writeBytes(
    _ text: UnsafeRawBufferPointer, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guard let needed else { return fail(.nullArgument, "needed is NULL") }
    let size = text.count + 1
    needed.pointee = size
    if cap != 0 && buf == nil { return fail(.nullArgument, "buf is NULL but cap is \(UInt(bitPattern: cap))") }
    guard cap < 0 || cap >= size, let buf else {
        if let buf, cap != 0 { buf.pointee = 0 }
        return fail(.bufferTooSmall, "the text needs \(size) bytes but the buffer holds \(cap)")
    }
    UnsafeMutableRawPointer(buf).copyMemory(from: text.baseAddress!, byteCount: size)
    return GEOLOC_OK
}
