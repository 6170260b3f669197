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
        let r = try g.gazetteer.reverse(try coordinate(c))
        place?.pointee = geoloc_match(index: r.index, distance: r.distance)
        return writeText(r.formatted(s), buf, cap, needed)
    }
}
