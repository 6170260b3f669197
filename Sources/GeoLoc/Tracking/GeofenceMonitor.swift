/// The rules of a `GeofenceMonitor`.
///
/// With s the signed distance in meters from the fix to a region's boundary (negative inside;
/// for a circle, the great-circle distance to the centre minus the radius) and a the fix's
/// accuracy:
/// - an outside region is entered when   s + accuracyFactor * a <= -enterMargin
///   (the whole accuracy circle, widened by the factor, is at least enterMargin inside);
/// - an inside region is exited when     s - accuracyFactor * a >= exitMargin
///   (the whole accuracy circle is at least exitMargin outside);
/// - otherwise the region keeps its state.
/// The band between the two (enterMargin + exitMargin + 2 * accuracyFactor * a wide) is the
/// hysteresis: a fix whose accuracy circle straddles the boundary changes nothing, so jitter
/// does not make the state flicker. A region entered at time t0 reports `dwell` at the first fix
/// with time >= t0 + loiteringTime while still inside (once per stay; with loiteringTime 0, at
/// the entering fix, after `enter`).
public struct MonitorOptions: Sendable, Equatable {
    /// Multiplies each fix's accuracy (>= 0; 1 takes the accuracy radius as reported).
    public var accuracyFactor: Double
    /// Meters (>= 0) the accuracy circle must be inside the boundary to enter.
    public var enterMargin: Double
    /// Meters (>= 0) the accuracy circle must be outside the boundary to exit.
    public var exitMargin: Double
    /// Seconds (>= 0) inside before `dwell`.
    public var loiteringTime: Double

    /// The defaults: factor 1, margins 5 m, loitering 300 s.
    public init(accuracyFactor: Double = 1, enterMargin: Double = 5, exitMargin: Double = 5, loiteringTime: Double = 300) {
        self.accuracyFactor = accuracyFactor
        self.enterMargin = enterMargin
        self.exitMargin = exitMargin
        self.loiteringTime = loiteringTime
    }

    public func check() throws(GeoLocError) {
        for (v, name) in [(accuracyFactor, "accuracy_factor"), (enterMargin, "enter_margin_m"),
                          (exitMargin, "exit_margin_m"), (loiteringTime, "loitering_time_s")] {
            if !v.isFinite { throw GeoLocError(.notFinite, "\(name) \(show(v)) is not finite") }
            if v < 0 { throw GeoLocError(.outOfRange, "\(name) \(show(v)) is negative") }
        }
    }
}

/// A region transition. `rawValue` is the C `geoloc_transition`; within one fix, events come in
/// region order and, for one region, in this order.
public enum GeofenceTransition: Int32, Sendable, CaseIterable {
    case enter = 0
    case dwell = 1
    case exit = 2
}

/// One event: the fix (its index in the batch given), the region (its index in the set) and the
/// fix's time.
public struct GeofenceEvent: Sendable, Equatable {
    public var fix: Int
    public var region: Int
    public var time: Double
    public var transition: GeofenceTransition
    public init(fix: Int, region: Int, time: Double, transition: GeofenceTransition) {
        self.fix = fix
        self.region = region
        self.time = time
        self.transition = transition
    }
}

/// One region the stream is inside.
struct InsideRegion: Equatable {
    var region: Int32
    var since: Double
    var dwelled: Bool
}

struct MonitorState: Equatable {
    /// The time of the last fix seen; -infinity before the first.
    var lastTime = -Double.infinity
    /// Sorted by region.
    var inside: [InsideRegion] = []
}

/// Geofence monitoring for one stream over a shared `Geofences` set: per region `enter`,
/// `exit` and `dwell` events, by the rules of `MonitorOptions`. Each fix costs one query of the
/// set's tree plus a test of each region the stream is inside: about a place-set query, however
/// many regions there are. At the first fix, regions the stream is already inside report
/// `enter`. Times must not decrease (equal times are allowed).
///
/// The state can be saved as bytes and restored (an app relaunched in the background).
/// Not thread-safe: one monitor per stream, used by one thread at a time (the set is shared).
public final class GeofenceMonitor {
    public let fences: Geofences
    public let options: MonitorOptions
    var state = MonitorState()
    // Scratch, reused between fixes.
    private var stack: [Int32] = []
    private var pending: [GeofenceEvent] = []
    private var nextInside: [InsideRegion] = []

    public init(fences: Geofences, options: MonitorOptions = .init()) throws(GeoLocError) {
        try options.check()
        self.fences = fences
        self.options = options
    }

    /// The regions the stream is inside now, ascending.
    public var insideRegions: [Int] { state.inside.map { Int($0.region) } }

    /// Feeds fixes in order and returns their events (see `GeofenceEvent`).
    /// - Throws: an invalid fix, or a time before the previous fix's (nothing changes then).
    public func process(_ fixes: [Fix]) throws(GeoLocError) -> [GeofenceEvent] {
        try withFixBuffer(fixes) { (b) throws(GeoLocError) in
            try check(b, "fixes")
            var events: [GeofenceEvent] = []
            state = run(b, from: state, into: &events)
            return events
        }
    }

    /// Checks fixes for `run`: valid, times not decreasing from the monitor's last.
    @_spi(CABI)
    public func check(_ b: FixBuffer, _ name: String) throws(GeoLocError) {
        try b.check(name)
        try b.checkTimesNondecreasing(name, after: state.lastTime)
    }

    /// Runs checked fixes from the current state; returns the events without changing the
    /// monitor unless `commit` says so (the C door commits only when the events fit).
    @_spi(CABI)
    public func run(_ b: FixBuffer, events: inout [GeofenceEvent], commit: (Int) -> Bool) {
        let s = run(b, from: state, into: &events)
        if commit(events.count) { state = s }
    }

    func run(_ b: FixBuffer, from start: MonitorState, into events: inout [GeofenceEvent]) -> MonitorState {
        var s = start
        let o = options
        let f = fences
        for i in 0..<b.count {
            let lat = b.lat(i), lon = b.lon(i), t = b.time(i)
            let slack = o.accuracyFactor * b.accuracy(i)
            let enterAt = -(o.enterMargin + slack)
            let exitAt = o.exitMargin + slack
            let p = unit3(lat, lon)
            pending.removeAll(keepingCapacity: true)
            nextInside.removeAll(keepingCapacity: true)
            // The regions the stream is inside: exit, or dwell.
            for var r in s.inside {
                let d = f.signedDistance(Int(r.region), lat: lat, lon: lon, vector: p)
                if d >= exitAt {
                    pending.append(GeofenceEvent(fix: i, region: Int(r.region), time: t, transition: .exit))
                    continue
                }
                if !r.dwelled && t - r.since >= o.loiteringTime {
                    r.dwelled = true
                    pending.append(GeofenceEvent(fix: i, region: Int(r.region), time: t, transition: .dwell))
                }
                nextInside.append(r)
            }
            // The regions that may hold the point: enter.
            let insideBefore = s.inside
            var entered = false
            f.candidates(p, stack: &stack) { r in
                if GeofenceMonitor.contains(insideBefore, Int32(r)) { return }
                let d = f.signedDistance(r, lat: lat, lon: lon, vector: p)
                if d <= enterAt {
                    let dwell = o.loiteringTime <= 0
                    pending.append(GeofenceEvent(fix: i, region: r, time: t, transition: .enter))
                    if dwell { pending.append(GeofenceEvent(fix: i, region: r, time: t, transition: .dwell)) }
                    nextInside.append(InsideRegion(region: Int32(r), since: t, dwelled: dwell))
                    entered = true
                }
            }
            if entered { nextInside.sort { $0.region < $1.region } }
            if pending.count > 1 {
                pending.sort { ($0.region, $0.transition.rawValue) < ($1.region, $1.transition.rawValue) }
            }
            events.append(contentsOf: pending)
            s.inside = nextInside
            s.lastTime = t
        }
        return s
    }

    /// Whether the sorted list holds the region (binary search).
    @inline(__always)
    static func contains(_ list: [InsideRegion], _ region: Int32) -> Bool {
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid].region < region { lo = mid + 1 } else { hi = mid }
        }
        return lo < list.count && list[lo].region == region
    }

    // MARK: Saved state

    static let magic: [UInt8] = Array("GLMS".utf8)

    /// The monitor's options and state as bytes to store; restoring needs the same region set
    /// (its fingerprint and count are in the bytes).
    public func saved() -> [UInt8] {
        var w = StateWriter(magic: GeofenceMonitor.magic)
        w.u64(fences.fingerprint)
        w.u64(UInt64(fences.count))
        let o = options
        for v in [o.accuracyFactor, o.enterMargin, o.exitMargin, o.loiteringTime] { w.double(v) }
        w.double(state.lastTime)
        w.u64(UInt64(state.inside.count))
        for r in state.inside {
            w.u32(UInt32(r.region))
            w.double(r.since)
            w.flag(r.dwelled)
        }
        return w.finish()
    }

    /// A monitor from bytes made by `saved()` of a monitor over the same set.
    public convenience init(fences: Geofences, restoring bytes: [UInt8]) throws(GeoLocError) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 8)
        defer { copy.deallocate() }
        if !bytes.isEmpty { copy.copyBytes(from: bytes) }
        try self.init(fences: fences, restoring: UnsafeRawBufferPointer(copy))
    }

    /// A monitor from bytes made by `saved()` of a monitor over the same set.
    /// - Throws: `.parse` for bytes that are not a saved monitor of this version or are
    ///   corrupted; `.invalidArgument` when they were saved over another region set.
    public convenience init(fences: Geofences, restoring bytes: UnsafeRawBufferPointer) throws(GeoLocError) {
        var r = try StateReader(bytes, magic: GeofenceMonitor.magic, what: "saved monitor")
        let fp = try r.u64()
        let n = try r.u64()
        guard fp == fences.fingerprint && n == UInt64(fences.count) else {
            throw GeoLocError(.invalidArgument, "saved monitor: it was saved over another region set")
        }
        let o = MonitorOptions(accuracyFactor: try r.double(), enterMargin: try r.double(),
                               exitMargin: try r.double(), loiteringTime: try r.double())
        do {
            try o.check()
        } catch {
            throw GeoLocError(.parse, "saved monitor: \(error.message)")
        }
        var s = MonitorState()
        s.lastTime = try r.double()
        let k = try r.u64()
        guard k <= UInt64(r.remaining / 13) else { throw GeoLocError(.parse, "saved monitor: truncated") }
        for _ in 0..<Int(k) {
            let region = try r.u32()
            let since = try r.double()
            let dwelled = try r.flag()
            guard UInt64(region) < n, region <= UInt32(Int32.max), since.isFinite, since <= s.lastTime,
                  s.inside.last.map({ $0.region < Int32(region) }) ?? true
            else { throw GeoLocError(.parse, "saved monitor: the state is inconsistent") }
            s.inside.append(InsideRegion(region: Int32(region), since: since, dwelled: dwelled))
        }
        try r.expectEnd()
        guard s.lastTime.isFinite || (s.lastTime == -.infinity && s.inside.isEmpty) else {
            throw GeoLocError(.parse, "saved monitor: the state is inconsistent")
        }
        try self.init(fences: fences, options: o)
        state = s
    }
}
