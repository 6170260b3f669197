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
        if buf == nil && cap == 0 && needed == nil {
            // The place only: no text asked for.
            guard let place else { throw GeoLocError(.nullArgument, "place is NULL and no text is asked for") }
            _ = try decode(style.rawValue, as: AddressStyle.self, "style")
            let m = try g.gazetteer.nearestPlace(to: try coordinate(c))
            place.pointee = geoloc_match(index: m.index, distance: m.distance)
            return GEOLOC_OK
        }
        guard needed != nil else { throw GeoLocError(.nullArgument, "needed is NULL") }
        if buf == nil && cap != 0 { throw GeoLocError(.nullArgument, "buf is NULL but cap is \(UInt(bitPattern: cap))") }
        let s = try decode(style.rawValue, as: AddressStyle.self, "style")
        let m = try g.gazetteer.nearestPlace(to: try coordinate(c))
        // The place's text is formatted once per gazetteer and style, then copied.
        let text = try g.gazetteer.textBytes(m.index, s)
        place?.pointee = geoloc_match(index: m.index, distance: m.distance)
        return writeBytes(text, buf, cap, needed)
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
        try g.gazetteer.nearestPlaces(degrees: degrees(points, n), count: n, name: "points") { (i: Int, m: PlaceMatch) throws(GeoLocError) in
            indices?[i] = m.index
            distances?[i] = m.distance
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
    guarded { () throws(GeoLocError) in
        let g = try borrow(gazetteer, .gazetteer, as: GazetteerHandle.self, "gazetteer")
        let n = try checkCount(n, "n")
        if n != 0 && points == nil { throw GeoLocError(.nullArgument, "points is NULL with n = \(n)") }
        guard let needed else { throw GeoLocError(.nullArgument, "needed is NULL") }
        if buf == nil && cap != 0 { throw GeoLocError(.nullArgument, "buf is NULL but cap is \(UInt(bitPattern: cap))") }
        let s = try decode(style.rawValue, as: AddressStyle.self, "style")
        // The searches, kept (so that nothing is written before every point passed), and the size.
        let found = UnsafeMutablePointer<PlaceMatch>.allocate(capacity: Swift.max(n, 1))
        defer { found.deallocate() }
        let gz = g.gazetteer
        var size = 0
        try gz.nearestPlaces(degrees: degrees(points, n), count: n, name: "points") { (i: Int, m: PlaceMatch) throws(GeoLocError) in
            found[i] = m
            size += try gz.textBytes(m.index, s).count + 1
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
            let text = try gz.textBytes(m.index, s)
            // The cached text is followed by its NUL in memory: one copy of count + 1 bytes.
            dst.advanced(by: at).copyMemory(from: text.baseAddress!, byteCount: text.count + 1)
            offsets?[i] = at
            indices?[i] = m.index
            distances?[i] = m.distance
            at += text.count + 1
        }
        return GEOLOC_OK
    }
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
