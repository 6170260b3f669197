// The C ABI of tracking (Sources/GeoLoc/Tracking): the fix filter, geofence sets and monitors,
// track statistics, simplification, resampling and stay points. Every function checks its
// arguments, calls the core and maps every error to a status.
import CGeoLoc
@_spi(CABI) import GeoLoc

// MARK: - The fix filter

extension geoloc_fix {
    /// A fix as the C struct.
    init(_ f: Fix) {
        self.init(lat: f.latitude, lon: f.longitude, time: f.time, accuracy_m: f.accuracy,
                  speed_mps: f.speed, course_deg: f.course, altitude_m: f.altitude)
    }
}

private func filterOptions(_ o: geoloc_filter_options) -> FilterOptions {
    FilterOptions(maxAccuracy: o.max_accuracy_m, distanceFilter: o.distance_filter_m, maxSpeed: o.max_speed_mps,
                  stopRadius: o.stop_radius_m, stopTime: o.stop_time_s)
}

@c @implementation
public func geoloc_filter_options_preset(_ activity: geoloc_activity, _ out: UnsafeMutablePointer<geoloc_filter_options>?) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let out = try required(out, "out")
        let a = try decode(activity.rawValue, as: Activity.self, "activity")
        let o = FilterOptions(activity: a)
        try deliver(geoloc_filter_options(max_accuracy_m: o.maxAccuracy, distance_filter_m: o.distanceFilter,
                                          max_speed_mps: o.maxSpeed, stop_radius_m: o.stopRadius, stop_time_s: o.stopTime), to: out)
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_fix_filter_create(_ options: UnsafePointer<geoloc_filter_options>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> geoloc_status {
    create(out, .filter) { () throws(GeoLocError) in
        let o = options.map { filterOptions($0.pointee) } ?? FilterOptions(activity: .other)
        return try FixFilter(options: o)
    }
}

@c @implementation
public func geoloc_fix_filter_destroy(_ filter: OpaquePointer?) {
    release(filter, .filter, "filter")
}

@c @implementation
public func geoloc_fix_filter_run(
    _ filter: OpaquePointer?, _ fixes: UnsafePointer<geoloc_fix>?, _ n: Int, _ out: UnsafeMutablePointer<geoloc_fix_decision>?
) -> geoloc_status {
    withHandle(filter, .filter, as: FixFilter.self, "filter") { (f) throws(GeoLocError) in
        let b = try fixBuffer(fixes, n)
        guard b.count == 0 || out != nil else { throw GeoLocError(.nullArgument, "out is NULL with n = \(b.count)") }
        try b.check("fixes")
        f.run(b) { i, v, m in
            out![i] = geoloc_fix_decision(verdict: geoloc_fix_verdict(rawValue: UInt32(v.rawValue)),
                                          motion: geoloc_motion(rawValue: UInt32(m.rawValue)))
        }
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_fix_filter_stationary(_ filter: OpaquePointer?, _ stationary: UnsafeMutablePointer<Bool>?) -> geoloc_status {
    answer(filter, .filter, as: FixFilter.self, "filter", stationary, "stationary") { $0.isStationary }
}

@c @implementation
public func geoloc_fix_filter_save(
    _ filter: OpaquePointer?, _ buf: UnsafeMutableRawPointer?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    withHandle(filter, .filter, as: FixFilter.self, "filter") { (f) throws(GeoLocError) in
        return writeBytes(f.saved(), buf, cap, needed)
    }
}

@c @implementation
public func geoloc_fix_filter_restore(_ bytes: UnsafeRawPointer?, _ len: Int, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> geoloc_status {
    create(out, .filter) { () throws(GeoLocError) in
        let b = try byteSpan(bytes, len, "bytes")
        return try FixFilter(restoring: b)
    }
}

// MARK: - Geofences

@c @implementation
public func geoloc_geofences_create(
    _ circles: UnsafePointer<geoloc_circle_fence>?, _ n_circles: Int, _ polygons: UnsafePointer<geoloc_polygon_fence>?,
    _ n_polygons: Int, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    create(out, .geofences) { () throws(GeoLocError) in
        let circles = try inputArray(circles, n_circles, "circles", count: "n_circles")
        let polygons = try inputArray(polygons, n_polygons, "polygons", count: "n_polygons")
        let nc = circles.count, np = polygons.count
        if nc + np > maxCount { throw GeoLocError(.countTooLarge, "n_circles + n_polygons is larger than GEOLOC_MAX_COUNT") }
        var cs: [CircleFence] = []
        cs.reserveCapacity(nc)
        for i in 0..<nc {
            let c = circles[i]
            let id = try optionalText(c.id, "circles[\(i)].id") ?? ""
            let center: Coordinate
            do throws(GeoLocError) { center = try coordinate(c.center) } catch {
                throw GeoLocError(error.code, "circles[\(i)].center: \(error.message)")
            }
            cs.append(CircleFence(id: id, center: center, radius: c.radius_m))
        }
        var ps: [PolygonFence] = []
        for i in 0..<np {
            let p = polygons[i]
            let id = try optionalText(p.id, "polygons[\(i)].id") ?? ""
            let k = try checkCount(p.n_vertices, "polygons[\(i)].n_vertices")
            guard k == 0 || p.vertices != nil else { throw GeoLocError(.nullArgument, "polygons[\(i)].vertices is NULL") }
            let vs = try CoordinateArray.coordinates(degrees(p.vertices, k), count: k, name: "polygons[\(i)].vertices")
            ps.append(PolygonFence(id: id, vertices: vs))
        }
        return try Geofences(circles: cs, polygons: ps)
    }
}

@c @implementation
public func geoloc_geofences_destroy(_ fences: OpaquePointer?) {
    release(fences, .geofences, "fences")
}

@c @implementation
public func geoloc_geofences_count(_ fences: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?) -> geoloc_status {
    answer(fences, .geofences, as: Geofences.self, "fences", count, "count") { $0.count }
}

@c @implementation
public func geoloc_geofences_id(
    _ fences: OpaquePointer?, _ i: Int, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    withHandle(fences, .geofences, as: Geofences.self, "fences") { (f) throws(GeoLocError) in
        _ = try required(needed, "needed")
        return writeText(f.ids[try index(i, f.count, "region")], buf, cap, needed)
    }
}

// MARK: - Monitors

@c @implementation
public func geoloc_monitor_options_default(_ out: UnsafeMutablePointer<geoloc_monitor_options>?) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let out = try required(out, "out")
        let o = MonitorOptions()
        try deliver(geoloc_monitor_options(accuracy_factor: o.accuracyFactor, enter_margin_m: o.enterMargin,
                                           exit_margin_m: o.exitMargin, loitering_time_s: o.loiteringTime), to: out)
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_monitor_create(
    _ fences: OpaquePointer?, _ options: UnsafePointer<geoloc_monitor_options>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    withHandle(fences, .geofences, as: Geofences.self, "fences") { (f) throws(GeoLocError) in
        let out = try required(out, "out")
        var o = MonitorOptions()
        if let c = options?.pointee {
            o = MonitorOptions(accuracyFactor: c.accuracy_factor, enterMargin: c.enter_margin_m,
                               exitMargin: c.exit_margin_m, loiteringTime: c.loitering_time_s)
        }
        try deliver(retained(MonitorHandle(try GeofenceMonitor(fences: f, options: o)), .monitor), to: out, "out")
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_monitor_destroy(_ monitor: OpaquePointer?) {
    release(monitor, .monitor, "monitor")
}

@c @implementation
public func geoloc_monitor_run(
    _ monitor: OpaquePointer?, _ fixes: UnsafePointer<geoloc_fix>?, _ n: Int,
    _ events: UnsafeMutablePointer<geoloc_geofence_event>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    withHandle(monitor, .monitor, as: MonitorHandle.self, "monitor") { (h) throws(GeoLocError) in
        let b = try fixBuffer(fixes, n)
        let results = try CallerArray(events, cap, needed, out: "events")
        try h.monitor.check(b, "fixes")
        h.events.removeAll(keepingCapacity: true)
        h.monitor.run(b, events: &h.events) { $0 <= results.cap }
        let e = h.events
        return try results.fill(e.count, partial: false, "the fixes have \(e.count) events") {
            geoloc_geofence_event(fix: e[$0].fix, region: e[$0].region, time: e[$0].time,
                                  transition: geoloc_transition(rawValue: UInt32(e[$0].transition.rawValue)))
        }
    }
}

@c @implementation
public func geoloc_monitor_inside(
    _ monitor: OpaquePointer?, _ regions: UnsafeMutablePointer<Int>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    withHandle(monitor, .monitor, as: MonitorHandle.self, "monitor") { (h) throws(GeoLocError) in
        let results = try CallerArray(regions, cap, count, out: "regions", needed: "count")
        let inside = h.monitor.insideRegions
        return try results.fill(inside.count, partial: true, "the stream is inside \(inside.count) regions") { inside[$0] }
    }
}

@c @implementation
public func geoloc_monitor_save(
    _ monitor: OpaquePointer?, _ buf: UnsafeMutableRawPointer?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    withHandle(monitor, .monitor, as: MonitorHandle.self, "monitor") { (h) throws(GeoLocError) in
        return writeBytes(h.monitor.saved(), buf, cap, needed)
    }
}

@c @implementation
public func geoloc_monitor_restore(
    _ fences: OpaquePointer?, _ bytes: UnsafeRawPointer?, _ len: Int, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    withHandle(fences, .geofences, as: Geofences.self, "fences") { (f) throws(GeoLocError) in
        let out = try required(out, "out")
        let b = try byteSpan(bytes, len, "bytes")
        try deliver(retained(MonitorHandle(try GeofenceMonitor(fences: f, restoring: b)), .monitor), to: out, "out")
        return GEOLOC_OK
    }
}

// MARK: - Tracks

@c @implementation
public func geoloc_track_measure(
    _ fixes: UnsafePointer<geoloc_fix>?, _ n: Int, _ model: geoloc_model, _ moving_speed_mps: Double,
    _ out: UnsafeMutablePointer<geoloc_track_stats>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let out = try required(out, "out")
        let b = try fixBuffer(fixes, n)
        let m = try decode(model.rawValue, as: EarthModel.self, "model")
        try b.checkInTimeOrder("fixes")
        let s = try Track.stats(b, model: m, movingSpeed: moving_speed_mps)
        try deliver(geoloc_track_stats(
            length_m: s.length, duration_s: s.duration, moving_time_s: s.movingTime, average_speed_mps: s.averageSpeed,
            moving_speed_mps: s.movingSpeed, max_speed_mps: s.maxSpeed, elevation_gain_m: s.elevationGain,
            elevation_loss_m: s.elevationLoss, altitude_count: s.altitudeCount), to: out)
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_track_simplify(
    _ points: UnsafePointer<geoloc_coord>?, _ n: Int, _ tolerance_m: Double, _ kept: UnsafeMutablePointer<Int>?,
    _ count: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let count = try required(count, "count")
        let n = try checkCount(n, "n")
        guard n == 0 || points != nil else { throw GeoLocError(.nullArgument, "points is NULL with n = \(n)") }
        guard n == 0 || kept != nil else { throw GeoLocError(.nullArgument, "kept is NULL with n = \(n)") }
        let deg = degrees(points, n)
        try CoordinateArray.check(deg, n, "points")
        let flags = UnsafeMutableBufferPointer<Bool>.allocate(capacity: max(n, 1))
        defer { flags.deallocate() }
        let k = try Track.simplify(deg.baseAddress, stride: 2, count: n, tolerance: tolerance_m, keep: flags)
        var j = 0
        for i in 0..<n where flags[i] {
            kept![j] = i
            j += 1
        }
        try deliver(k, to: count, "count")
        return GEOLOC_OK
    }
}

/// geoloc_resample_mode.
private enum ResampleMode: Int32 { case distance = 0, time = 1 }

@c @implementation
public func geoloc_track_resample(
    _ fixes: UnsafePointer<geoloc_fix>?, _ n: Int, _ mode: geoloc_resample_mode, _ step: Double,
    _ out: UnsafeMutablePointer<geoloc_fix>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let b = try fixBuffer(fixes, n)
        let results = try CallerArray(out, cap, needed)
        let m = try decode(mode.rawValue, as: ResampleMode.self, "mode")
        try b.checkInTimeOrder("fixes")
        var points: [Fix] = []
        try Track.resample(b, step: m == .distance ? .distance(step) : .time(step)) { points.append($0) }
        return try results.fill(points.count, partial: false, "the track has \(points.count) points at this step") {
            geoloc_fix(points[$0])
        }
    }
}

@c @implementation
public func geoloc_track_stay_points(
    _ fixes: UnsafePointer<geoloc_fix>?, _ n: Int, _ distance_m: Double, _ time_s: Double,
    _ out: UnsafeMutablePointer<geoloc_stay_point>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let b = try fixBuffer(fixes, n)
        let results = try CallerArray(out, cap, needed)
        try b.checkInTimeOrder("fixes")
        var stays: [StayPoint] = []
        try Track.stayPoints(b, distance: distance_m, time: time_s) { stays.append($0) }
        return try results.fill(stays.count, partial: false, "the track has \(stays.count) stay points") {
            let s = stays[$0]
            return geoloc_stay_point(first: s.first, last: s.last,
                                     center: geoloc_coord(lat: s.center.latitude, lon: s.center.longitude),
                                     arrival: s.arrival, departure: s.departure)
        }
    }
}
