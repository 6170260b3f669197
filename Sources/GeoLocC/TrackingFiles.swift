// The C ABI of track files (Sources/GeoLoc/Tracking: TrackFormats, GPXReader, TrackGeoJSON,
// TrackLoad, TrackStats): loading GPX and GeoJSON tracks, their points, segments, waypoints,
// names and issues, their statistics, and writing tracks. Check, call, map.
import CGeoLoc
@_spi(CABI) import GeoLoc

private enum TrackFileFormat { case gpx, geoJSON }

private func trackLoad(
    file path: UnsafePointer<CChar>?, _ format: TrackFileFormat, _ options: UnsafePointer<geoloc_load_options>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        guard let out else { throw GeoLocError(.nullArgument, "out is NULL") }
        let file = try readText(path, "path")
        let strict = options?.pointee.strict ?? false
        let r = switch format {
        case .gpx: try TrackFormat.readGPX(file: file, strict: strict)
        case .geoJSON: try TrackFormat.readGeoJSON(file: file, strict: strict)
        }
        out.pointee = retained(TrackHandle(r), .track)
        return GEOLOC_OK
    }
}

private func trackLoad(
    text: UnsafePointer<CChar>?, _ len: Int, _ format: TrackFileFormat, _ options: UnsafePointer<geoloc_load_options>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        guard let out else { throw GeoLocError(.nullArgument, "out is NULL") }
        let bytes = try readBytes(text.map { UnsafeRawPointer($0) }, len)
        let strict = options?.pointee.strict ?? false
        let r = switch format {
        case .gpx: try TrackFormat.readGPX(bytes, strict: strict)
        case .geoJSON: try TrackFormat.readGeoJSON(bytes, strict: strict)
        }
        out.pointee = retained(TrackHandle(r), .track)
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_track_load_gpx(
    _ path: UnsafePointer<CChar>?, _ options: UnsafePointer<geoloc_load_options>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    trackLoad(file: path, .gpx, options, out)
}

@c @implementation
public func geoloc_track_parse_gpx(
    _ text: UnsafePointer<CChar>?, _ len: Int, _ options: UnsafePointer<geoloc_load_options>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    trackLoad(text: text, len, .gpx, options, out)
}

@c @implementation
public func geoloc_track_load_geojson(
    _ path: UnsafePointer<CChar>?, _ options: UnsafePointer<geoloc_load_options>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    trackLoad(file: path, .geoJSON, options, out)
}

@c @implementation
public func geoloc_track_parse_geojson(
    _ text: UnsafePointer<CChar>?, _ len: Int, _ options: UnsafePointer<geoloc_load_options>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    trackLoad(text: text, len, .geoJSON, options, out)
}

@c @implementation
public func geoloc_track_destroy(_ track: OpaquePointer?) {
    release(track, .track, "track")
}

private func cFix(_ f: Fix) -> geoloc_fix {
    geoloc_fix(lat: f.latitude, lon: f.longitude, time: f.time, accuracy_m: f.accuracy,
               speed_mps: f.speed, course_deg: f.course, altitude_m: f.altitude)
}

/// Writes points through (out, cap, count): the first cap of them, and BUFFER_TOO_SMALL when
/// they did not all fit.
private func writePoints(
    _ points: TrackPoints, untimedAsIndex: Bool, _ out: UnsafeMutablePointer<geoloc_fix>?, _ cap: Int,
    _ count: UnsafeMutablePointer<Int>?, _ noun: String
) throws(GeoLocError) -> geoloc_status {
    guard let count else { throw GeoLocError(.nullArgument, "count is NULL") }
    if out == nil && cap != 0 { throw GeoLocError(.nullArgument, "out is NULL but cap is \(UInt(bitPattern: cap))") }
    let cap = try checkCount(cap, "cap")
    count.pointee = points.count
    let asIndex = untimedAsIndex && !points.hasTimes
    for i in 0..<min(cap, points.count) {
        var f = cFix(points[i])
        if asIndex { f.time = Double(i) }
        out![i] = f
    }
    if points.count > cap {
        throw GeoLocError(.bufferTooSmall, "the track has \(points.count) \(noun) but the array holds \(cap)")
    }
    return GEOLOC_OK
}

@c @implementation
public func geoloc_track_fixes(
    _ track: OpaquePointer?, _ out: UnsafeMutablePointer<geoloc_fix>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let h = try borrow(track, .track, as: TrackHandle.self, "track")
        return try writePoints(h.load.points, untimedAsIndex: true, out, cap, count, "fixes")
    }
}

@c @implementation
public func geoloc_track_points(
    _ track: OpaquePointer?, _ out: UnsafeMutablePointer<geoloc_fix>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let h = try borrow(track, .track, as: TrackHandle.self, "track")
        return try writePoints(h.load.points, untimedAsIndex: false, out, cap, count, "points")
    }
}

@c @implementation
public func geoloc_track_waypoints(
    _ track: OpaquePointer?, _ out: UnsafeMutablePointer<geoloc_fix>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let h = try borrow(track, .track, as: TrackHandle.self, "track")
        return try writePoints(h.load.waypoints, untimedAsIndex: false, out, cap, count, "waypoints")
    }
}

@c @implementation
public func geoloc_track_segments(
    _ track: OpaquePointer?, _ out: UnsafeMutablePointer<geoloc_track_segment>?, _ cap: Int,
    _ count: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let h = try borrow(track, .track, as: TrackHandle.self, "track")
        guard let count else { throw GeoLocError(.nullArgument, "count is NULL") }
        if out == nil && cap != 0 { throw GeoLocError(.nullArgument, "out is NULL but cap is \(UInt(bitPattern: cap))") }
        let cap = try checkCount(cap, "cap")
        let segments = h.load.segments
        count.pointee = segments.count
        for (i, s) in segments.prefix(cap).enumerated() {
            out![i] = geoloc_track_segment(first: s.first, count: s.count, path: s.path,
                                           kind: geoloc_segment_kind(rawValue: UInt32(s.kind.rawValue)))
        }
        if segments.count > cap {
            throw GeoLocError(.bufferTooSmall, "the track has \(segments.count) segments but the array holds \(cap)")
        }
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_track_name(
    _ track: OpaquePointer?, _ item: geoloc_track_item, _ i: Int, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let h = try borrow(track, .track, as: TrackHandle.self, "track")
        guard needed != nil else { throw GeoLocError(.nullArgument, "needed is NULL") }
        let load = h.load
        let count: Int, noun: String
        switch item.rawValue {
        case 0: count = load.points.count; noun = "point"
        case 1: count = load.waypoints.count; noun = "waypoint"
        case 2: count = load.pathNames.count; noun = "path"
        default: throw GeoLocError(.invalidArgument, "item \(item.rawValue) is not a known value")
        }
        guard i >= 0 && i < count else {
            throw GeoLocError(.outOfRange, "\(noun) index \(UInt(bitPattern: i)) is not below the count \(count)")
        }
        let name = switch item.rawValue {
        case 0: load.points.name(i)
        case 1: load.waypoints.name(i)
        default: load.pathNames[i]
        }
        return writeText(name ?? "", buf, cap, needed)
    }
}

@c @implementation
public func geoloc_track_timed(_ track: OpaquePointer?, _ timed: UnsafeMutablePointer<Bool>?) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let h = try borrow(track, .track, as: TrackHandle.self, "track")
        guard let timed else { throw GeoLocError(.nullArgument, "timed is NULL") }
        timed.pointee = h.load.timed
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_track_issue_count(_ track: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let h = try borrow(track, .track, as: TrackHandle.self, "track")
        guard let count else { throw GeoLocError(.nullArgument, "count is NULL") }
        count.pointee = h.load.issues.count
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_track_issue_total(_ track: OpaquePointer?, _ total: UnsafeMutablePointer<Int>?) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let h = try borrow(track, .track, as: TrackHandle.self, "track")
        guard let total else { throw GeoLocError(.nullArgument, "total is NULL") }
        total.pointee = h.load.issueTotal
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_track_issue(
    _ track: OpaquePointer?, _ i: Int, _ record: UnsafeMutablePointer<Int>?, _ buf: UnsafeMutablePointer<CChar>?,
    _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let h = try borrow(track, .track, as: TrackHandle.self, "track")
        guard needed != nil else { throw GeoLocError(.nullArgument, "needed is NULL") }
        let issues = h.load.issues
        guard i >= 0 && i < issues.count else {
            throw GeoLocError(.outOfRange, "issue index \(UInt(bitPattern: i)) is not below the count \(issues.count)")
        }
        record?.pointee = issues[i].record
        return writeText(issues[i].reason, buf, cap, needed)
    }
}

// MARK: - Statistics in segments

private func cStats(_ s: TrackStats) -> geoloc_segment_stats {
    geoloc_segment_stats(
        stats: geoloc_track_stats(
            length_m: s.length, duration_s: s.duration, moving_time_s: s.movingTime, average_speed_mps: s.averageSpeed,
            moving_speed_mps: s.movingSpeed, max_speed_mps: s.maxSpeed, elevation_gain_m: s.elevationGain,
            elevation_loss_m: s.elevationLoss, altitude_count: s.altitudeCount),
        point_count: s.pointCount, timed_count: s.timedCount, timed_length_m: s.timedLength,
        start_time: s.startTime, end_time: s.endTime, backward_steps: s.backwardSteps)
}

@c @implementation
public func geoloc_track_measure_segments(
    _ fixes: UnsafePointer<geoloc_fix>?, _ n: Int, _ starts: UnsafePointer<Int>?, _ n_segments: Int, _ model: geoloc_model,
    _ moving_speed_mps: Double, _ whole: UnsafeMutablePointer<geoloc_segment_stats>?,
    _ segments: UnsafeMutablePointer<geoloc_segment_stats>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        guard let whole else { throw GeoLocError(.nullArgument, "whole is NULL") }
        let b = try fixBuffer(fixes, n)
        let k = try checkCount(n_segments, "n_segments")
        guard k == 0 || starts != nil else { throw GeoLocError(.nullArgument, "starts is NULL with n_segments = \(k)") }
        let m = try decode(model.rawValue, as: EarthModel.self, "model")
        var ranges: [Range<Int>] = []
        if k == 0 {
            ranges = [0..<b.count]
        } else {
            ranges.reserveCapacity(k)
            for j in 0..<k {
                let s = starts![j]
                let e = j + 1 < k ? starts![j + 1] : b.count
                guard s >= 0 && s <= b.count else {
                    throw GeoLocError(.outOfRange, "starts[\(j)] \(UInt(bitPattern: s)) is past n (\(b.count))")
                }
                guard e >= s && e <= b.count else {
                    throw GeoLocError(.outOfRange, "starts[\(j + 1)] \(UInt(bitPattern: e)) is before starts[\(j)] \(s) or past n")
                }
                ranges.append(s..<e)
            }
        }
        try b.check("fixes", absentTimes: true)
        let r = try Track.measure(b, segments: ranges, model: m, movingSpeed: moving_speed_mps)
        whole.pointee = cStats(r.whole)
        if let segments, k > 0 {
            for (j, s) in r.segments.enumerated() { segments[j] = cStats(s) }
        }
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_track_statistics(
    _ track: OpaquePointer?, _ model: geoloc_model, _ moving_speed_mps: Double,
    _ whole: UnsafeMutablePointer<geoloc_segment_stats>?, _ segments: UnsafeMutablePointer<geoloc_segment_stats>?,
    _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let h = try borrow(track, .track, as: TrackHandle.self, "track")
        guard let whole else { throw GeoLocError(.nullArgument, "whole is NULL") }
        guard let count else { throw GeoLocError(.nullArgument, "count is NULL") }
        if segments == nil && cap != 0 { throw GeoLocError(.nullArgument, "segments is NULL but cap is \(UInt(bitPattern: cap))") }
        let cap = try checkCount(cap, "cap")
        let m = try decode(model.rawValue, as: EarthModel.self, "model")
        let r = try h.load.stats(model: m, movingSpeed: moving_speed_mps)
        whole.pointee = cStats(r.whole)
        count.pointee = r.segments.count
        guard let segments else { return GEOLOC_OK }  // the whole only
        for (j, s) in r.segments.prefix(cap).enumerated() { segments[j] = cStats(s) }
        if r.segments.count > cap {
            throw GeoLocError(.bufferTooSmall, "the track has \(r.segments.count) segments but the array holds \(cap)")
        }
        return GEOLOC_OK
    }
}

// MARK: - Writing

@c @implementation
public func geoloc_track_write_gpx(
    _ fixes: UnsafePointer<geoloc_fix>?, _ n: Int, _ name: UnsafePointer<CChar>?, _ buf: UnsafeMutablePointer<CChar>?,
    _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let b = try fixBuffer(fixes, n)
        guard needed != nil else { throw GeoLocError(.nullArgument, "needed is NULL") }
        let title = try optionalText(name, "name")
        try b.check("fixes", absentTimes: true)
        return writeText(try TrackFormat.gpx(b, name: title), buf, cap, needed)
    }
}

@c @implementation
public func geoloc_track_write_geojson(
    _ fixes: UnsafePointer<geoloc_fix>?, _ n: Int, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let b = try fixBuffer(fixes, n)
        guard needed != nil else { throw GeoLocError(.nullArgument, "needed is NULL") }
        try b.check("fixes", absentTimes: true)
        return writeText(try TrackFormat.geoJSON(b), buf, cap, needed)
    }
}
