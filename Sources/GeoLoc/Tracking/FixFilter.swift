/// The kind of movement a stream records, in the spirit of CoreLocation's `CLActivityType`:
/// each sets the filter's thresholds (see `FilterOptions(activity:)`). `rawValue` is the C
/// `geoloc_activity`.
public enum Activity: Int32, Sendable, CaseIterable {
    /// No particular kind: only an accuracy limit and stop detection.
    case other = 0
    /// Car navigation: road speeds.
    case automotiveNavigation = 1
    /// Walking, running, cycling: pedestrian and bicycle speeds.
    case fitness = 2
    /// Other navigation (boats, trains, off-road vehicles).
    case otherNavigation = 3
    /// Flying: high speed, poorer accuracy accepted.
    case airborne = 4
}

/// The rules of a `FixFilter`. A threshold of 0 turns its rule off (as does `.infinity` for the
/// accuracy and speed limits).
public struct FilterOptions: Sendable, Equatable {
    /// Drop a fix whose horizontal accuracy is worse (larger) than this, in meters.
    public var maxAccuracy: Double
    /// Drop a fix closer than this to the last kept fix, in meters (CoreLocation's
    /// `distanceFilter`).
    public var distanceFilter: Double
    /// Drop a fix that implies a speed above this from the last fix that passed the time,
    /// accuracy and speed rules, in meters per second (a jump). The implied speed gives both
    /// fixes the benefit of their accuracy: max(0, d - acc1 - acc2) / dt.
    public var maxSpeed: Double
    /// Stop detection: the stream is stationary once its fixes have stayed within this radius
    /// (meters, plus each fix's accuracy) of an anchor fix for at least `stopTime`.
    public var stopRadius: Double
    /// Stop detection: seconds within `stopRadius` before the stream counts as stationary.
    public var stopTime: Double

    public init(maxAccuracy: Double = 0, distanceFilter: Double = 0, maxSpeed: Double = 0,
                stopRadius: Double = 0, stopTime: Double = 0) {
        self.maxAccuracy = maxAccuracy
        self.distanceFilter = distanceFilter
        self.maxSpeed = maxSpeed
        self.stopRadius = stopRadius
        self.stopTime = stopTime
    }

    /// The preset of an activity:
    ///
    /// | activity | max accuracy | distance filter | max speed | stop radius | stop time |
    /// |---|---|---|---|---|---|
    /// | other | 100 m | off | off | 50 m | 300 s |
    /// | automotiveNavigation | 65 m | 10 m | 70 m/s (252 km/h) | 50 m | 180 s |
    /// | fitness | 30 m | 5 m | 15 m/s (54 km/h) | 25 m | 120 s |
    /// | otherNavigation | 65 m | 10 m | 40 m/s (144 km/h) | 50 m | 300 s |
    /// | airborne | 500 m | 100 m | 350 m/s (1,260 km/h) | 500 m | 600 s |
    public init(activity: Activity) {
        switch activity {
        case .other: self.init(maxAccuracy: 100, distanceFilter: 0, maxSpeed: 0, stopRadius: 50, stopTime: 300)
        case .automotiveNavigation:
            self.init(maxAccuracy: 65, distanceFilter: 10, maxSpeed: 70, stopRadius: 50, stopTime: 180)
        case .fitness: self.init(maxAccuracy: 30, distanceFilter: 5, maxSpeed: 15, stopRadius: 25, stopTime: 120)
        case .otherNavigation:
            self.init(maxAccuracy: 65, distanceFilter: 10, maxSpeed: 40, stopRadius: 50, stopTime: 300)
        case .airborne: self.init(maxAccuracy: 500, distanceFilter: 100, maxSpeed: 350, stopRadius: 500, stopTime: 600)
        }
    }

    /// Checks every value: not NaN, not negative (infinity allowed: off for the limits, never
    /// for stop detection).
    public func check() throws(GeoLocError) {
        let values: [(Double, String)] = [
            (maxAccuracy, "max_accuracy_m"), (distanceFilter, "distance_filter_m"), (maxSpeed, "max_speed_mps"),
            (stopRadius, "stop_radius_m"), (stopTime, "stop_time_s"),
        ]
        for (v, name) in values {
            if v.isNaN { throw GeoLocError(.notFinite, "\(name) is NaN") }
            if v < 0 { throw GeoLocError(.outOfRange, "\(name) \(show(v)) is negative") }
        }
        if distanceFilter.isInfinite { throw GeoLocError(.notFinite, "distance_filter_m is infinite") }
        if stopRadius.isInfinite { throw GeoLocError(.notFinite, "stop_radius_m is infinite") }
        if stopTime.isInfinite { throw GeoLocError(.notFinite, "stop_time_s is infinite") }
    }
}

/// What the filter decided about one fix. `rawValue` is the C `geoloc_fix_verdict`.
public enum FixVerdict: Int32, Sendable, CaseIterable {
    case kept = 0
    /// Its time is not after the previous fix's (it goes backwards or repeats).
    case droppedTime = 1
    /// Its accuracy is worse than `maxAccuracy`.
    case droppedAccuracy = 2
    /// It implies a speed above `maxSpeed` (a jump).
    case droppedJump = 3
    /// It is closer than `distanceFilter` to the last kept fix.
    case droppedDistance = 4
}

/// A change of the stream's movement, reported at the fix that shows it. `rawValue` is the C
/// `geoloc_motion`.
public enum MotionChange: Int32, Sendable, CaseIterable {
    case none = 0
    /// The stream became stationary: an app pauses its updates here.
    case stopped = 1
    /// The stream moves again after being stationary: an app resumes here.
    case moving = 2
}

/// The decision about one fix.
public struct FixDecision: Sendable, Equatable {
    public var verdict: FixVerdict
    public var motion: MotionChange
    public init(_ verdict: FixVerdict, _ motion: MotionChange = .none) {
        self.verdict = verdict
        self.motion = motion
    }
}

/// The state of a filter between fixes (all that a saved filter holds besides its options).
struct FilterState: Equatable {
    /// The time of the last fix that passed the time rule; -infinity before the first.
    var lastTime = -Double.infinity
    /// The last fix that passed the time, accuracy and speed rules ("valid"): the reference of
    /// the speed rule.
    var hasValid = false
    var validLat = 0.0, validLon = 0.0, validTime = 0.0, validAccuracy = 0.0
    /// The last kept fix: the reference of the distance filter.
    var hasKept = false
    var keptLat = 0.0, keptLon = 0.0
    /// Stop detection: the anchor fix and whether the stream is stationary.
    var hasAnchor = false
    var anchorLat = 0.0, anchorLon = 0.0, anchorTime = 0.0
    var stationary = false
}

/// A stateful filter for one stream of fixes: keeps or drops each fix and says why, and reports
/// when the stream stops and moves again.
///
/// The rules, in this order (the first that applies gives the verdict):
/// 1. time: a fix whose time is not after the last fix that passed this rule is dropped
///    (`droppedTime`);
/// 2. accuracy: `accuracy > maxAccuracy` is dropped (`droppedAccuracy`);
/// 3. speed: with `maxSpeed` on and a previous valid fix (one that passed rules 1-3),
///    `max(0, d - acc - accPrev) > maxSpeed * dt` is dropped (`droppedJump`); d is the
///    great-circle distance, dt the time since that fix. A real relocation is accepted once
///    enough time has passed for the distance to be possible;
/// 4. distance: closer than `distanceFilter` to the last kept fix is dropped
///    (`droppedDistance`). The first valid fix is always kept.
///
/// Stop detection (on when `stopRadius` and `stopTime` are both > 0) watches every valid fix,
/// dropped by the distance filter or not: a fix within `stopRadius + accuracy` of the anchor
/// keeps the anchor, and once such fixes reach `stopTime` after the anchor's time the stream is
/// stationary (`stopped` at that fix); a fix beyond it becomes the new anchor and, if the stream
/// was stationary, reports `moving`.
///
/// Not thread-safe: one filter per stream, used by one thread at a time.
public final class FixFilter {
    public let options: FilterOptions
    var state = FilterState()

    public init(options: FilterOptions) throws(GeoLocError) {
        try options.check()
        self.options = options
    }

    public convenience init(activity: Activity) {
        try! self.init(options: FilterOptions(activity: activity))
    }

    /// Whether the stream is stationary now.
    public var isStationary: Bool { state.stationary }

    /// Decides about each fix in order.
    /// - Throws: an invalid fix (nothing is decided then: the filter is unchanged).
    public func process(_ fixes: [Fix]) throws(GeoLocError) -> [FixDecision] {
        try withFixBuffer(fixes) { (b) throws(GeoLocError) in
            try b.check("fixes")
            var out = [FixDecision](repeating: FixDecision(.kept), count: fixes.count)
            out.withUnsafeMutableBufferPointer { o in
                run(b) { i, v, m in o[i] = FixDecision(v, m) }
            }
            return out
        }
    }

    /// The filter over checked fixes; `emit(i, verdict, motion)` for each.
    @_spi(CABI)
    public func run(_ b: FixBuffer, _ emit: (Int, FixVerdict, MotionChange) -> Void) {
        let o = options
        let accuracyOn = o.maxAccuracy > 0 && o.maxAccuracy < .infinity
        let speedOn = o.maxSpeed > 0 && o.maxSpeed < .infinity
        let stopOn = o.stopRadius > 0 && o.stopTime > 0
        var s = state
        for i in 0..<b.count {
            let lat = b.lat(i), lon = b.lon(i), t = b.time(i), acc = b.accuracy(i)
            if !(t > s.lastTime) {
                emit(i, .droppedTime, .none)
                continue
            }
            s.lastTime = t
            if accuracyOn && acc > o.maxAccuracy {
                emit(i, .droppedAccuracy, .none)
                continue
            }
            if speedOn && s.hasValid {
                let d = sphereMeters(s.validLat, s.validLon, lat, lon)
                let moved = max(0, d - acc - s.validAccuracy)
                if moved > o.maxSpeed * (t - s.validTime) {
                    emit(i, .droppedJump, .none)
                    continue
                }
            }
            s.hasValid = true
            s.validLat = lat; s.validLon = lon; s.validTime = t; s.validAccuracy = acc
            var motion = MotionChange.none
            if stopOn {
                if s.hasAnchor && sphereMeters(s.anchorLat, s.anchorLon, lat, lon) <= o.stopRadius + acc {
                    if !s.stationary && t - s.anchorTime >= o.stopTime {
                        s.stationary = true
                        motion = .stopped
                    }
                } else {
                    s.hasAnchor = true
                    s.anchorLat = lat; s.anchorLon = lon; s.anchorTime = t
                    if s.stationary {
                        s.stationary = false
                        motion = .moving
                    }
                }
            }
            if o.distanceFilter > 0 && s.hasKept && sphereMeters(s.keptLat, s.keptLon, lat, lon) < o.distanceFilter {
                emit(i, .droppedDistance, motion)
                continue
            }
            s.hasKept = true
            s.keptLat = lat; s.keptLon = lon
            emit(i, .kept, motion)
        }
        state = s
    }

    // MARK: Saved state

    static let magic: [UInt8] = Array("GLFS".utf8)

    /// The filter's options and state as bytes to store (versioned, checksummed).
    public func saved() -> [UInt8] {
        var w = StateWriter(magic: FixFilter.magic)
        let o = options
        for v in [o.maxAccuracy, o.distanceFilter, o.maxSpeed, o.stopRadius, o.stopTime] { w.double(v) }
        let s = state
        w.double(s.lastTime)
        w.flag(s.hasValid); w.double(s.validLat); w.double(s.validLon); w.double(s.validTime); w.double(s.validAccuracy)
        w.flag(s.hasKept); w.double(s.keptLat); w.double(s.keptLon)
        w.flag(s.hasAnchor); w.double(s.anchorLat); w.double(s.anchorLon); w.double(s.anchorTime)
        w.flag(s.stationary)
        return w.finish()
    }

    /// A filter from bytes made by `saved()`.
    public convenience init(restoring bytes: [UInt8]) throws(GeoLocError) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 8)
        defer { copy.deallocate() }
        if !bytes.isEmpty { copy.copyBytes(from: bytes) }
        try self.init(restoring: UnsafeRawBufferPointer(copy))
    }

    /// A filter from bytes made by `saved()`.
    /// - Throws: `.parse` for bytes that are not a saved filter of this version, or corrupted.
    public convenience init(restoring bytes: UnsafeRawBufferPointer) throws(GeoLocError) {
        var r = try StateReader(bytes, magic: FixFilter.magic, what: "saved filter")
        let o = FilterOptions(maxAccuracy: try r.double(), distanceFilter: try r.double(), maxSpeed: try r.double(),
                              stopRadius: try r.double(), stopTime: try r.double())
        var s = FilterState()
        s.lastTime = try r.double()
        s.hasValid = try r.flag(); s.validLat = try r.double(); s.validLon = try r.double()
        s.validTime = try r.double(); s.validAccuracy = try r.double()
        s.hasKept = try r.flag(); s.keptLat = try r.double(); s.keptLon = try r.double()
        s.hasAnchor = try r.flag(); s.anchorLat = try r.double(); s.anchorLon = try r.double(); s.anchorTime = try r.double()
        s.stationary = try r.flag()
        try r.expectEnd()
        do {
            try o.check()
        } catch {
            throw GeoLocError(.parse, "saved filter: \(error.message)")
        }
        // Positions and times must be what the filter itself could have stored.
        func ok(_ lat: Double, _ lon: Double) -> Bool { lat.isFinite && lon.isFinite && abs(lat) <= 90 }
        guard s.lastTime.isFinite || s.lastTime == -.infinity,
              !s.hasValid || (ok(s.validLat, s.validLon) && s.validTime.isFinite && s.validAccuracy.isFinite && s.validAccuracy >= 0),
              !s.hasKept || ok(s.keptLat, s.keptLon),
              !s.hasAnchor || (ok(s.anchorLat, s.anchorLon) && s.anchorTime.isFinite),
              !s.stationary || s.hasAnchor
        else { throw GeoLocError(.parse, "saved filter: the state is inconsistent") }
        try self.init(options: o)
        state = s
    }
}
