// The C ABI of offline reverse geocoding (Sources/GeoLoc/Geocoding): the gazetteer handle and
// "City, State" for a coordinate. Every function checks its arguments, calls the core, and maps
// every error to a status.
import CGeoLoc
@_spi(CABI) import GeoLoc

// MARK: - Gazetteer

@c @implementation
public func geoloc_gazetteer_open(_ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> geoloc_status {
    create(out, .gazetteer) { () throws(GeoLocError) in
        let g = if let path { try Gazetteer(path: try readText(path, "path")) } else { try Gazetteer.shipped() }
        return GazetteerHandle(g)
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
    answer(gazetteer, .gazetteer, as: GazetteerHandle.self, "gazetteer", places, "places") { OpaquePointer($0.view) }
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
            try deliver(geoloc_match(index: m.index, distance: m.distance), to: place, "place")
            return GEOLOC_OK
        }
        try outputBuffer(buf, cap, needed)
        let s = try decode(style.rawValue, as: AddressStyle.self, "style")
        let m = try g.gazetteer.nearestPlace(to: try coordinate(c))
        // The place's text is formatted once per gazetteer and style, then copied.
        let text = try g.gazetteer.textBytes(m.index, s)
        try deliver(geoloc_match(index: m.index, distance: m.distance), toOptional: place, "place")
        return writeText(utf8: text, buf, cap, needed)
    }
}

@c @implementation
public func geoloc_reverse_geocode_many(
    _ gazetteer: OpaquePointer?, _ points: UnsafePointer<geoloc_coord>?, _ n: Int,
    _ indices: UnsafeMutablePointer<Int>?, _ distances: UnsafeMutablePointer<Double>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let g = try borrow(gazetteer, .gazetteer, as: GazetteerHandle.self, "gazetteer")
        let n = try inputArray(points, n, "points").count
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
        let n = try inputArray(points, n, "points").count
        try outputBuffer(buf, cap, needed)
        let needed = needed!
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
