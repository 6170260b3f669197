// The C ABI of time at a place (Sources/GeoLoc/Time): the zone at a point, and local time.
// Every function checks its arguments, calls the core, and maps every error to a status.
import CGeoLoc
@_spi(CABI) import GeoLoc

// MARK: - The zone at a point (TimeZoneMap)

/// The zone of a C zone number, checked against the map.
private func zoneID(_ map: TimeZoneMap, _ zone: UInt16, _ what: String) throws(GeoLocError) -> TimeZoneID {
    guard Int(zone) < map.count else {
        throw GeoLocError(.outOfRange, "\(what) \(zone) is not a zone of the map (it has \(map.count))")
    }
    return TimeZoneID(rawValue: zone)
}

@c @implementation
public func geoloc_timezones_open(_ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        guard let out else { throw GeoLocError(.nullArgument, "out is NULL") }
        let map = if let path { try TimeZoneMap.open(try readText(path, "path")) } else { try TimeZoneMap.shipped() }
        out.pointee = retained(map, .timezones)
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_timezones_destroy(_ timezones: OpaquePointer?) {
    release(timezones, .timezones, "timezones")
}

@c @implementation
public func geoloc_timezones_count(_ timezones: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let map = try borrow(timezones, .timezones, as: TimeZoneMap.self, "timezones")
        guard let count else { throw GeoLocError(.nullArgument, "count is NULL") }
        count.pointee = map.count
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_timezones_name(
    _ timezones: OpaquePointer?, _ zone: UInt16, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let map = try borrow(timezones, .timezones, as: TimeZoneMap.self, "timezones")
        guard needed != nil else { throw GeoLocError(.nullArgument, "needed is NULL") }
        return writeText(map.name(try zoneID(map, zone, "zone")), buf, cap, needed)
    }
}

@c @implementation
public func geoloc_timezones_find(
    _ timezones: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ zone: UnsafeMutablePointer<UInt16>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let map = try borrow(timezones, .timezones, as: TimeZoneMap.self, "timezones")
        let text = try readText(name, "name")
        guard let zone else { throw GeoLocError(.nullArgument, "zone is NULL") }
        guard let id = map.zone(named: text) else {
            throw GeoLocError(.notFound, "no zone is named \(quote(text))")
        }
        zone.pointee = id.rawValue
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_timezones_version(
    _ timezones: OpaquePointer?, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let map = try borrow(timezones, .timezones, as: TimeZoneMap.self, "timezones")
        return writeText(map.dataVersion, buf, cap, needed)
    }
}

@c @implementation
public func geoloc_timezone_at(
    _ timezones: OpaquePointer?, _ c: geoloc_coord, _ out: UnsafeMutablePointer<geoloc_timezone>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let map = try borrow(timezones, .timezones, as: TimeZoneMap.self, "timezones")
        guard let out else { throw GeoLocError(.nullArgument, "out is NULL") }
        let zone = try map.zone(at: try coordinate(c))
        let hours = map.nauticalOffsetHours(zone)
        out.pointee = geoloc_timezone(
            zone: zone.rawValue, nautical: hours != nil, utc_offset_hours: Int8(truncatingIfNeeded: hours ?? 0))
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_timezone_at_many(
    _ timezones: OpaquePointer?, _ points: UnsafePointer<geoloc_coord>?, _ n: Int, _ zones: UnsafeMutablePointer<UInt16>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let map = try borrow(timezones, .timezones, as: TimeZoneMap.self, "timezones")
        let n = try checkCount(n, "n")
        if n != 0 && points == nil { throw GeoLocError(.nullArgument, "points is NULL with n = \(n)") }
        if n != 0 && zones == nil { throw GeoLocError(.nullArgument, "zones is NULL with n = \(n)") }
        guard n > 0, let zones else { return GEOLOC_OK }
        try map.zones(degrees: degrees(points, n), count: n, into: zones)
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_timezone_name_at(
    _ timezones: OpaquePointer?, _ c: geoloc_coord, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let map = try borrow(timezones, .timezones, as: TimeZoneMap.self, "timezones")
        guard needed != nil else { throw GeoLocError(.nullArgument, "needed is NULL") }
        if buf == nil && cap != 0 { throw GeoLocError(.nullArgument, "buf is NULL but cap is \(UInt(bitPattern: cap))") }
        return writeText(map.name(try map.zone(at: try coordinate(c))), buf, cap, needed)
    }
}

// MARK: - Local time
