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

/// A zone's abbreviation fields, made once per zone of a call and kept in `known`.
private func abbreviationFields(
    _ rules: ZoneRules, _ id: TimeZoneID, _ known: inout [UInt16: [geoloc_local_time]]
) -> [geoloc_local_time] {
    if let fields = known[id.rawValue] { return fields }
    let fields = abbreviationFields(rules)
    known[id.rawValue] = fields
    return fields
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
    textAnswer(timezones, .timezones, as: TimeZoneMap.self, "timezones", buf, cap, needed) { (map) throws(GeoLocError) in
        map.name(try zoneID(map, zone, "zone"))
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
    textAnswer(timezones, .timezones, as: TimeZoneMap.self, "timezones", buf, cap, needed) { $0.dataVersion }
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
    withHandle(timezones, .timezones, as: TimeZoneMap.self, "timezones") { (map) throws(GeoLocError) in
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
    textAnswer(timezones, .timezones, as: TimeZoneMap.self, "timezones", buf, cap, needed) { (map) throws(GeoLocError) in
        map.name(try map.zone(at: try coordinate(c)))
    }
}

// MARK: - Beside the other capabilities: the zones of a reverse geocode, local times at many points

/// The map a caller passed, or the shipped one for NULL.
private func mapOrShipped(_ timezones: OpaquePointer?) throws(GeoLocError) -> TimeZoneMap {
    if let timezones { try borrow(timezones, .timezones, as: TimeZoneMap.self, "timezones") } else { try TimeZoneMap.shipped() }
}

@c @implementation
public func geoloc_reverse_geocode_zones(
    _ gazetteer: OpaquePointer?, _ timezones: OpaquePointer?, _ points: UnsafePointer<geoloc_coord>?, _ n: Int,
    _ options: UnsafePointer<geoloc_reverse_options>?, _ out: UnsafeMutablePointer<geoloc_locality>?,
    _ zones: UnsafeMutablePointer<geoloc_locality_zone>?
) -> geoloc_status {
    withHandle(gazetteer, .gazetteer, as: GazetteerHandle.self, "gazetteer") { (g) throws(GeoLocError) in
        let n = try inputArray(points, n, "points").count
        _ = try outputArray(zones, n, "zones")
        let o = try reverseOptions(options)
        let map = try mapOrShipped(timezones)
        guard n > 0, let zones else { return GEOLOC_OK }
        // Collected first, so that nothing is written unless every point has its answer.
        var localities: [geoloc_locality] = []
        var found: [geoloc_locality_zone] = []
        localities.reserveCapacity(out == nil ? 0 : n)
        found.reserveCapacity(n)
        try g.gazetteer.localities(degrees: degrees(points, n), count: n, name: "points", options: o, timezones: map) {
            (i: Int, m: LocalityMatch, z: LocalityZones) throws(GeoLocError) in
            if out != nil {
                let r = cLocality(m)
                try checkFinite(r, "out[\(i)]")
                localities.append(r)
            }
            found.append(geoloc_locality_zone(zone: cTimeZone(map, z.zone), place_zone: cTimeZone(map, z.placeZone)))
        }
        if let out { for i in 0..<n { out[i] = localities[i] } }
        for i in 0..<n { zones[i] = found[i] }
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_local_times_at_points(
    _ timezones: OpaquePointer?, _ points: UnsafePointer<geoloc_coord>?, _ times: UnsafePointer<Double>?, _ n: Int,
    _ out: UnsafeMutablePointer<geoloc_local_time>?, _ zones: UnsafeMutablePointer<UInt16>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let n = try inputArray(points, n, "points").count
        let times = try inputArray(times, n, "times")
        _ = try outputArray(out, n, "out")
        let map = try mapOrShipped(timezones)
        guard n > 0, let out else { return GEOLOC_OK }
        // The map checks every point and time, finds every zone and reads its rules before the
        // first local time is given: nothing is written on failure.
        var abbreviations: [UInt16: [geoloc_local_time]] = [:]
        try map.localTimes(degrees: degrees(points, n), times: times, count: n) {
            (i: Int, id: TimeZoneID, rules: ZoneRules, lt: LocalTime) throws(GeoLocError) in
            out[i] = cLocalTime(lt, abbreviationFields(rules, id, &abbreviations))
            zones?[i] = id.rawValue
        }
        return GEOLOC_OK
    }
}

extension geoloc_local_day: CResult {
    var nonFinite: (field: String, value: Double)? {
        !length_m.isFinite ? ("length_m", length_m) : !duration_s.isFinite ? ("duration_s", duration_s) : nil
    }
}

@c @implementation
public func geoloc_fix_local_times(
    _ timezones: OpaquePointer?, _ fixes: UnsafePointer<geoloc_fix>?, _ n: Int, _ out: UnsafeMutablePointer<geoloc_local_time>?,
    _ zones: UnsafeMutablePointer<UInt16>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let b = try fixBuffer(fixes, n)
        _ = try outputArray(out, b.count, "out")
        try b.check("fixes")
        let map = try mapOrShipped(timezones)
        guard b.count > 0, let out, let base = b.base else { return GEOLOC_OK }
        var degrees = [Double](repeating: 0, count: 2 * b.count)
        var times = [Double](repeating: 0, count: b.count)
        for i in 0..<b.count {
            degrees[2 * i] = base[7 * i]
            degrees[2 * i + 1] = base[7 * i + 1]
            times[i] = base[7 * i + 2]
        }
        var abbreviations: [UInt16: [geoloc_local_time]] = [:]
        var results = [geoloc_local_time](repeating: geoloc_local_time(), count: b.count)
        var ids = [UInt16](repeating: 0, count: b.count)
        try degrees.withUnsafeBufferPointer { (p: UnsafeBufferPointer<Double>) throws(GeoLocError) in
            try times.withUnsafeBufferPointer { (t: UnsafeBufferPointer<Double>) throws(GeoLocError) in
                do throws(GeoLocError) {
                    try map.localTimes(degrees: p, times: t, count: b.count) {
                        (i: Int, id: TimeZoneID, rules: ZoneRules, lt: LocalTime) throws(GeoLocError) in
                        results[i] = cLocalTime(lt, abbreviationFields(rules, id, &abbreviations))
                        ids[i] = id.rawValue
                    }
                } catch {
                    // "times[3]: ..." is fixes[3]'s time here.
                    let message = error.message.hasPrefix("times[") ? "fixes[" + String(error.message.dropFirst(6)) : error.message
                    throw GeoLocError(error.code, message)
                }
            }
        }
        for i in 0..<b.count { out[i] = results[i] }
        if let zones { for i in 0..<b.count { zones[i] = ids[i] } }
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_track_local_days(
    _ timezones: OpaquePointer?, _ fixes: UnsafePointer<geoloc_fix>?, _ n: Int, _ starts: UnsafePointer<Int>?, _ n_segments: Int,
    _ model: geoloc_model, _ days: UnsafeMutablePointer<geoloc_local_day>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let out = try CallerArray(days, cap, count, out: "days", needed: "count")
        let (b, ranges, m) = try segmentedFixes(fixes, n, starts, n_segments, model)
        let map = try mapOrShipped(timezones)
        let found = try map.localDays(of: b, segments: ranges, model: m)
        return try out.fill(found.count, partial: false, "the track has \(found.count) local days") { i in
            let d = found[i]
            return geoloc_local_day(
                year: Int32(d.date.year), month: Int32(d.date.month), day: Int32(d.date.day), weekday: Int32(d.weekday),
                length_m: d.length, duration_s: d.duration, fix_count: d.fixCount, first_fix: d.firstFix)
        }
    }
}
