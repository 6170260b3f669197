// The C ABI of time (Sources/GeoLoc/Time): the zone at a point, and local time. Every function
// checks its arguments, calls the core and maps every error to a status.
import CGeoLoc
@_spi(CABI) import GeoLoc

// MARK: - Local time

/// The shared rules of the zone a C string names.
private func zoneRules(_ zone: UnsafePointer<CChar>?) throws(GeoLocError) -> ZoneRules {
    try ZoneRules.named(readText(zone, "zone"))
}

/// The abbreviations of a zone's types as the C struct's field holds them (NUL-padded).
private func abbreviationFields(_ rules: ZoneRules) -> [geoloc_local_time] {
    rules.types.map { type in
        var c = geoloc_local_time()
        copyText(type.abbreviation, into: &c.abbreviation)
        return c
    }
}

/// A local time as the C struct.
private func cLocalTime(_ lt: LocalTime) -> geoloc_local_time {
    var c = cLocalTime(lt, [])
    copyText(lt.abbreviation, into: &c.abbreviation)
    return c
}

/// A local time as the C struct, its abbreviation taken from `abbreviations` (by type; none:
/// left empty).
@inline(__always)
private func cLocalTime(_ lt: LocalTime, _ abbreviations: [geoloc_local_time]) -> geoloc_local_time {
    geoloc_local_time(
        instant: lt.instant, next_transition: lt.nextTransition ?? Int64.max, utc_offset_s: lt.utcOffset,
        year: Int32(lt.year), month: Int32(lt.month), day: Int32(lt.day), hour: Int32(lt.hour),
        minute: Int32(lt.minute), second: Int32(lt.second), weekday: Int32(lt.weekday),
        day_of_year: Int32(lt.dayOfYear), is_dst: lt.isDST,
        abbreviation: abbreviations.isEmpty ? geoloc_local_time().abbreviation : abbreviations[lt.typeIndex].abbreviation)
}

@c @implementation
public func geoloc_local_time_at(
    _ zone: UnsafePointer<CChar>?, _ instant: Int64, _ out: UnsafeMutablePointer<geoloc_local_time>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let out = try required(out, "out")
        out.pointee = cLocalTime(try zoneRules(zone).localTime(at: instant))
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_local_times(
    _ zone: UnsafePointer<CChar>?, _ times: UnsafePointer<Double>?, _ n: Int, _ out: UnsafeMutablePointer<geoloc_local_time>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let times = try inputArray(times, n, "times")
        if times.count != 0 && out == nil { throw GeoLocError(.nullArgument, "out is NULL with n = \(times.count)") }
        let rules = try zoneRules(zone)
        let abbreviations = abbreviationFields(rules)
        try rules.localTimes(times) { (i: Int, lt: LocalTime) throws(GeoLocError) in
            out.unsafelyUnwrapped[i] = cLocalTime(lt, abbreviations)
        }
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_local_time_text(
    _ zone: UnsafePointer<CChar>?, _ instant: Int64, _ style: geoloc_time_style, _ buf: UnsafeMutablePointer<CChar>?,
    _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    textResult(buf, cap, needed) { () throws(GeoLocError) in
        let s = try decode(style.rawValue, as: LocalTimeStyle.self, "style")
        return try zoneRules(zone).text(at: instant, style: s)
    }
}

@c @implementation
public func geoloc_local_time_at_point(
    _ timezones: OpaquePointer?, _ c: geoloc_coord, _ instant: Int64, _ out: UnsafeMutablePointer<geoloc_local_time>?,
    _ zone: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let out = try required(out, "out")
        try outputBuffer(zone, cap, needed)
        let map = if let timezones { try borrow(timezones, .timezones, as: TimeZoneMap.self, "timezones") } else { try TimeZoneMap.shipped() }
        let answer = try map.localTime(at: try coordinate(c), instant: instant)
        let status = writeText(answer.zone, zone, cap, needed)
        if status == GEOLOC_OK { out.pointee = cLocalTime(answer.localTime) }
        return status
    }
}

@c @implementation
public func geoloc_local_time_resolve(
    _ zone: UnsafePointer<CChar>?, _ local: UnsafePointer<geoloc_local_date_time>?, _ out: UnsafeMutablePointer<geoloc_local_instants>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let local = try required(local, "local")
        let out = try required(out, "out")
        let rules = try zoneRules(zone)
        let l = local.pointee
        let r = try rules.instants(for: LocalDateTime(
            year: Int(l.year), month: Int(l.month), day: Int(l.day), hour: Int(l.hour), minute: Int(l.minute), second: Int(l.second)))
        out.pointee = geoloc_local_instants(
            before: r.before, after: r.after, transition: r.transition ?? 0,
            kind: geoloc_local_kind(rawValue: UInt32(r.kind.rawValue)), offset_before_s: r.offsetBefore, offset_after_s: r.offsetAfter)
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_tzif_local_time(
    _ bytes: UnsafeRawPointer?, _ len: Int, _ instant: Int64, _ out: UnsafeMutablePointer<geoloc_local_time>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        guard bytes != nil else { throw GeoLocError(.nullArgument, "bytes is NULL") }
        let out = try required(out, "out")
        let rules = try ZoneRules(tzif: byteSpan(bytes, len, "bytes"))
        out.pointee = cLocalTime(try rules.localTime(at: instant))
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_time_zone_names(_ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?) -> geoloc_status {
    textResult(buf, cap, needed) { () throws(GeoLocError) in
        try ZoneRulesDatabase.shared().names.map { $0 + "\n" }.joined()
    }
}

@c @implementation
public func geoloc_tzdata_version(_ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?) -> geoloc_status {
    textResult(buf, cap, needed) { () throws(GeoLocError) in try ZoneRulesDatabase.shared().version }
}

@c @implementation
public func geoloc_tzdata_source(_ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?) -> geoloc_status {
    textResult(buf, cap, needed) { () throws(GeoLocError) in
        switch try ZoneRulesDatabase.shared().source {
        case .compiled(let path): path
        case .system(let directory): directory
        }
    }
}

// MARK: - The zone at a point (TimeZoneMap)

/// The zone of a C zone number, checked against the map.
private func zoneID(_ map: TimeZoneMap, _ zone: UInt16, _ what: String) throws(GeoLocError) -> TimeZoneID {
    guard Int(zone) < map.count else {
        throw GeoLocError(.outOfRange, "\(what) \(zone) is not a zone of the map (it has \(map.count))")
    }
    return TimeZoneID(rawValue: zone)
}

/// The zone at a point as the C struct.
private func cTimeZone(_ map: TimeZoneMap, _ zone: TimeZoneID) -> geoloc_timezone {
    let hours = map.nauticalOffsetHours(zone)
    return geoloc_timezone(zone: zone.rawValue, nautical: hours != nil, utc_offset_hours: Int8(truncatingIfNeeded: hours ?? 0))
}

@c @implementation
public func geoloc_timezones_open(_ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> geoloc_status {
    create(out, .timezones) { () throws(GeoLocError) in
        if let path { try TimeZoneMap.open(try readText(path, "path")) } else { try TimeZoneMap.shipped() }
    }
}

@c @implementation
public func geoloc_timezones_destroy(_ timezones: OpaquePointer?) {
    release(timezones, .timezones, "timezones")
}

@c @implementation
public func geoloc_timezones_count(_ timezones: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?) -> geoloc_status {
    answer(timezones, .timezones, as: TimeZoneMap.self, "timezones", count, "count") { $0.count }
}

@c @implementation
public func geoloc_timezones_name(
    _ timezones: OpaquePointer?, _ zone: UInt16, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    textResult(buf, cap, needed) { () throws(GeoLocError) in
        let map = try borrow(timezones, .timezones, as: TimeZoneMap.self, "timezones")
        return map.name(try zoneID(map, zone, "zone"))
    }
}

@c @implementation
public func geoloc_timezones_find(
    _ timezones: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ zone: UnsafeMutablePointer<UInt16>?
) -> geoloc_status {
    answer(timezones, .timezones, as: TimeZoneMap.self, "timezones", zone, "zone") { (map) throws(GeoLocError) in
        let text = try readText(name, "name")
        guard let id = map.zone(named: text) else { throw GeoLocError(.notFound, "no zone is named \(quote(text))") }
        return id.rawValue
    }
}

@c @implementation
public func geoloc_timezones_version(
    _ timezones: OpaquePointer?, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    textResult(buf, cap, needed) { () throws(GeoLocError) in
        try borrow(timezones, .timezones, as: TimeZoneMap.self, "timezones").dataVersion
    }
}

@c @implementation
public func geoloc_timezone_at(
    _ timezones: OpaquePointer?, _ c: geoloc_coord, _ out: UnsafeMutablePointer<geoloc_timezone>?
) -> geoloc_status {
    answer(timezones, .timezones, as: TimeZoneMap.self, "timezones", out, "out") { (map) throws(GeoLocError) in
        cTimeZone(map, try map.zone(at: try coordinate(c)))
    }
}

@c @implementation
public func geoloc_timezone_at_many(
    _ timezones: OpaquePointer?, _ points: UnsafePointer<geoloc_coord>?, _ n: Int, _ zones: UnsafeMutablePointer<UInt16>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let map = try borrow(timezones, .timezones, as: TimeZoneMap.self, "timezones")
        let points = try inputArray(points, n, "points")
        if points.count != 0 && zones == nil { throw GeoLocError(.nullArgument, "zones is NULL with n = \(points.count)") }
        guard points.count > 0, let zones else { return GEOLOC_OK }
        // The map checks every point (CoordinateArray.check) before it writes any zone.
        try map.zones(degrees: degrees(points.baseAddress, points.count), count: points.count, into: zones)
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_timezone_name_at(
    _ timezones: OpaquePointer?, _ c: geoloc_coord, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    textResult(buf, cap, needed) { () throws(GeoLocError) in
        let map = try borrow(timezones, .timezones, as: TimeZoneMap.self, "timezones")
        return map.name(try map.zone(at: try coordinate(c)))
    }
}
