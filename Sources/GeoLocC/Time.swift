// The C ABI of time (Sources/GeoLoc/Time). Every function checks its arguments, calls the core
// and maps every error to a status.
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
    guarded { () throws(GeoLocError) in
        try outputBuffer(buf, cap, needed)
        let s = try decode(style.rawValue, as: LocalTimeStyle.self, "style")
        return writeText(try zoneRules(zone).text(at: instant, style: s), buf, cap, needed)
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
    guarded { () throws(GeoLocError) in
        try outputBuffer(buf, cap, needed)
        let names = try ZoneRulesDatabase.shared().names
        return writeText(names.map { $0 + "\n" }.joined(), buf, cap, needed)
    }
}

@c @implementation
public func geoloc_tzdata_version(_ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        try outputBuffer(buf, cap, needed)
        return writeText(try ZoneRulesDatabase.shared().version, buf, cap, needed)
    }
}

@c @implementation
public func geoloc_tzdata_source(_ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        try outputBuffer(buf, cap, needed)
        let source = switch try ZoneRulesDatabase.shared().source {
        case .compiled(let path): path
        case .system(let directory): directory
        }
        return writeText(source, buf, cap, needed)
    }
}
