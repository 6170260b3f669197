// The C ABI of track files (Sources/GeoLoc/Tracking: TrackFormats, GPXReader, TrackGeoJSON,
// TrackLoad, TrackStats): loading GPX and GeoJSON tracks, their points, segments, waypoints,
// names and issues, their statistics, and writing tracks. Check, call, map.
import CGeoLoc
@_spi(CABI) import GeoLoc

private enum TrackFileFormat { case gpx, geoJSON }

/// The options and limits of a track load: only options->strict is read from the options (the
/// column options are for places); the limits as every loader takes them.
private func trackOptions(
    _ options: UnsafePointer<geoloc_load_options>?, _ limits: UnsafePointer<geoloc_load_limits>?
) throws(GeoLocError) -> LoadOptions {
    var o = try loadOptions(nil, limits)
    o.strict = options?.pointee.strict ?? false
    return o
}

/// A track loaded from `source` in `format`.
private func trackLoad(
    _ source: LoadSource, _ format: TrackFileFormat, _ options: UnsafePointer<geoloc_load_options>?,
    _ limits: UnsafePointer<geoloc_load_limits>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    load(source, out, .track) { () throws(GeoLocError) in
        try trackOptions(options, limits)
    } parse: { (input, o) throws(GeoLocError) in
        let r = switch (format, input) {
        case (.gpx, .file(let path)): try TrackFormat.readGPX(file: path, options: o)
        case (.gpx, .bytes(let bytes)): try TrackFormat.readGPX(bytes, options: o)
        case (.geoJSON, .file(let path)): try TrackFormat.readGeoJSON(file: path, options: o)
        case (.geoJSON, .bytes(let bytes)): try TrackFormat.readGeoJSON(bytes, options: o)
        }
        return TrackHandle(r)
    }
}

@c @implementation
public func geoloc_track_load_gpx(
    _ path: UnsafePointer<CChar>?, _ options: UnsafePointer<geoloc_load_options>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    trackLoad(.file(path), .gpx, options, nil, out)
}

@c @implementation
public func geoloc_track_parse_gpx(
    _ text: UnsafePointer<CChar>?, _ len: Int, _ options: UnsafePointer<geoloc_load_options>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    trackLoad(.text(text, len), .gpx, options, nil, out)
}

@c @implementation
public func geoloc_track_load_geojson(
    _ path: UnsafePointer<CChar>?, _ options: UnsafePointer<geoloc_load_options>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    trackLoad(.file(path), .geoJSON, options, nil, out)
}

@c @implementation
public func geoloc_track_parse_geojson(
    _ text: UnsafePointer<CChar>?, _ len: Int, _ options: UnsafePointer<geoloc_load_options>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    trackLoad(.text(text, len), .geoJSON, options, nil, out)
}

@c @implementation
public func geoloc_track_load_gpx_limited(
    _ path: UnsafePointer<CChar>?, _ options: UnsafePointer<geoloc_load_options>?,
    _ limits: UnsafePointer<geoloc_load_limits>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    trackLoad(.file(path), .gpx, options, limits, out)
}

@c @implementation
public func geoloc_track_parse_gpx_limited(
    _ text: UnsafePointer<CChar>?, _ len: Int, _ options: UnsafePointer<geoloc_load_options>?,
    _ limits: UnsafePointer<geoloc_load_limits>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    trackLoad(.text(text, len), .gpx, options, limits, out)
}

@c @implementation
public func geoloc_track_load_geojson_limited(
    _ path: UnsafePointer<CChar>?, _ options: UnsafePointer<geoloc_load_options>?,
    _ limits: UnsafePointer<geoloc_load_limits>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    trackLoad(.file(path), .geoJSON, options, limits, out)
}

@c @implementation
public func geoloc_track_parse_geojson_limited(
    _ text: UnsafePointer<CChar>?, _ len: Int, _ options: UnsafePointer<geoloc_load_options>?,
    _ limits: UnsafePointer<geoloc_load_limits>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    trackLoad(.text(text, len), .geoJSON, options, limits, out)
}

@c @implementation
public func geoloc_track_destroy(_ track: OpaquePointer?) {
    release(track, .track, "track")
}

/// The shape of the point accessors of a track: `points` of the track written through (out,
/// cap, count): the first cap of them, and BUFFER_TOO_SMALL when they did not all fit.
private func trackPoints(
    _ track: OpaquePointer?, _ points: (TrackLoad) -> TrackPoints, untimedAsIndex: Bool,
    _ out: UnsafeMutablePointer<geoloc_fix>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?, _ noun: String
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let points = points(try borrow(track, .track, as: TrackHandle.self, "track").load)
        let results = try CallerArray(out, cap, count, needed: "count")
        let asIndex = untimedAsIndex && !points.hasTimes
        return try results.fill(points.count, partial: true, "the track has \(points.count) \(noun)") {
            var f = geoloc_fix(points[$0])
            if asIndex { f.time = Double($0) }
            return f
        }
    }
}

@c @implementation
public func geoloc_track_fixes(
    _ track: OpaquePointer?, _ out: UnsafeMutablePointer<geoloc_fix>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    trackPoints(track, { $0.points }, untimedAsIndex: true, out, cap, count, "fixes")
}

@c @implementation
public func geoloc_track_points(
    _ track: OpaquePointer?, _ out: UnsafeMutablePointer<geoloc_fix>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    trackPoints(track, { $0.points }, untimedAsIndex: false, out, cap, count, "points")
}

@c @implementation
public func geoloc_track_waypoints(
    _ track: OpaquePointer?, _ out: UnsafeMutablePointer<geoloc_fix>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    trackPoints(track, { $0.waypoints }, untimedAsIndex: false, out, cap, count, "waypoints")
}

@c @implementation
public func geoloc_track_segments(
    _ track: OpaquePointer?, _ out: UnsafeMutablePointer<geoloc_track_segment>?, _ cap: Int,
    _ count: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    withHandle(track, .track, as: TrackHandle.self, "track") { (h) throws(GeoLocError) in
        let results = try CallerArray(out, cap, count, needed: "count")
        let segments = h.load.segments
        return try results.fill(segments.count, partial: true, "the track has \(segments.count) segments") {
            let s = segments[$0]
            return geoloc_track_segment(first: s.first, count: s.count, path: s.path,
                                        kind: geoloc_segment_kind(rawValue: UInt32(s.kind.rawValue)))
        }
    }
}

/// geoloc_track_item.
private enum TrackItem: Int32 { case point = 0, waypoint = 1, path = 2 }

@c @implementation
public func geoloc_track_name(
    _ track: OpaquePointer?, _ item: geoloc_track_item, _ i: Int, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    withHandle(track, .track, as: TrackHandle.self, "track") { (h) throws(GeoLocError) in
        try outputBuffer(buf, cap, needed)
        let load = h.load
        let kind = try decode(item.rawValue, as: TrackItem.self, "item")
        let (count, noun) = switch kind {
        case .point: (load.points.count, "point")
        case .waypoint: (load.waypoints.count, "waypoint")
        case .path: (load.pathNames.count, "path")
        }
        let i = try index(i, count, noun)
        let name = switch kind {
        case .point: load.points.name(i)
        case .waypoint: load.waypoints.name(i)
        case .path: load.pathNames[i]
        }
        return writeText(name ?? "", buf, cap, needed)
    }
}

@c @implementation
public func geoloc_track_timed(_ track: OpaquePointer?, _ timed: UnsafeMutablePointer<Bool>?) -> geoloc_status {
    answer(track, .track, as: TrackHandle.self, "track", timed, "timed") { $0.load.timed }
}

@c @implementation
public func geoloc_track_issue_count(_ track: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?) -> geoloc_status {
    issueCount(track, .track, as: TrackHandle.self, "track", count)
}

@c @implementation
public func geoloc_track_issue_total(_ track: OpaquePointer?, _ total: UnsafeMutablePointer<Int>?) -> geoloc_status {
    issueTotal(track, .track, as: TrackHandle.self, "track", total)
}

@c @implementation
public func geoloc_track_issue(
    _ track: OpaquePointer?, _ i: Int, _ record: UnsafeMutablePointer<Int>?, _ buf: UnsafeMutablePointer<CChar>?,
    _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    issue(track, .track, as: TrackHandle.self, "track", i, record, buf, cap, needed)
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
        let whole = try required(whole, "whole")
        let (b, ranges, m) = try segmentedFixes(fixes, n, starts, n_segments, model)
        let r = try Track.measure(b, segments: ranges, model: m, movingSpeed: moving_speed_mps)
        let each = r.segments.map(cStats)
        for (j, s) in each.enumerated() { try checkFinite(s, "segments[\(j)]") }
        try deliver(cStats(r.whole), to: whole, "whole")
        if let segments, n_segments > 0 {
            for (j, s) in each.enumerated() { segments[j] = s }
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
    withHandle(track, .track, as: TrackHandle.self, "track") { (h) throws(GeoLocError) in
        let whole = try required(whole, "whole")
        let results = try CallerArray(segments, cap, count, out: "segments", needed: "count")
        let m = try decode(model.rawValue, as: EarthModel.self, "model")
        let r = try h.load.stats(model: m, movingSpeed: moving_speed_mps)
        try deliver(cStats(r.whole), to: whole, "whole")
        if segments == nil {  // the whole only
            try deliver(r.segments.count, to: results.needed, "count")
            return GEOLOC_OK
        }
        let each = r.segments.map(cStats)
        return try results.fill(each.count, partial: true, "the track has \(each.count) segments") { each[$0] }
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
        try outputBuffer(buf, cap, needed)
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
        try outputBuffer(buf, cap, needed)
        try b.check("fixes", absentTimes: true)
        return writeText(try TrackFormat.geoJSON(b), buf, cap, needed)
    }
}
