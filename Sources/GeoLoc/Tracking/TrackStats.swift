// Track statistics: of one run of fixes (0.3's `Track.stats`), and of a track in segments,
// each segment measured alone and the whole as their sum, so the gap from one segment to the
// next is never movement. Points may lack a time or an altitude; the figures say how many had
// them and what they could measure. Every sum is bounded: with finite inputs a result is either
// finite or refused with the bound it passed (the largest double), never infinite with OK.

/// The statistics of a track or of one of its segments.
public struct TrackStats: Sendable, Equatable {
    /// The sum of the legs (consecutive points of a segment), meters, on the Earth model asked for.
    public var length: Double = 0
    /// From the first time to the last, seconds (per segment; the whole: the sum over segments).
    /// Where a segment's time goes back, the sum of its steps forward in time instead.
    public var duration: Double = 0
    /// The sum of the durations of the timed steps whose speed is at least the moving threshold.
    public var movingTime: Double = 0
    /// timedLength / duration (0 when the duration is 0), m/s.
    public var averageSpeed: Double = 0
    /// The length of the moving steps / movingTime (0 when movingTime is 0), m/s.
    public var movingSpeed: Double = 0
    /// The fastest timed step (its length / its duration, over steps with a duration > 0), m/s.
    public var maxSpeed: Double = 0
    /// Sums of the rises and of the falls between consecutive points of a segment that have an
    /// altitude (points without one are passed over), meters, both >= 0.
    public var elevationGain: Double = 0
    public var elevationLoss: Double = 0
    /// How many points had an altitude.
    public var altitudeCount: Int = 0
    /// How many points there were.
    public var pointCount: Int = 0
    /// How many points had a time.
    public var timedCount: Int = 0
    /// The length of the steps from one timed point to the next (of each segment) that do not
    /// go back in time: what the speeds and the moving time measure. Equal to `length` when
    /// every point has a time and times never go back.
    public var timedLength: Double = 0
    /// How many steps between timed points go back in time (a device's clock set back, a track
    /// edited): not counted in the duration, the timed length, the moving time or the speeds.
    public var backwardSteps: Int = 0
    /// The first and the last time (NaN when no point has one).
    public var startTime: Double = .nan
    public var endTime: Double = .nan

    public init() {}

    public static func == (a: TrackStats, b: TrackStats) -> Bool {
        func same(_ x: Double, _ y: Double) -> Bool { x == y || (x.isNaN && y.isNaN) }
        return a.length == b.length && a.duration == b.duration && a.movingTime == b.movingTime
            && a.averageSpeed == b.averageSpeed && a.movingSpeed == b.movingSpeed && a.maxSpeed == b.maxSpeed
            && a.elevationGain == b.elevationGain && a.elevationLoss == b.elevationLoss
            && a.altitudeCount == b.altitudeCount && a.pointCount == b.pointCount && a.timedCount == b.timedCount
            && a.timedLength == b.timedLength && same(a.startTime, b.startTime) && same(a.endTime, b.endTime)
            && a.backwardSteps == b.backwardSteps
    }
}

/// The statistics of a track in segments: each segment's, and the whole track's.
public struct TrackMeasure: Sendable, Equatable {
    /// The segments together: sums of their figures (the largest for `maxSpeed`), speeds over
    /// the summed lengths and durations.
    public var whole: TrackStats
    public var segments: [TrackStats]
}

/// Read access to points by index (an absent time or altitude is NaN).
protocol PointSeries {
    var count: Int { get }
    func lat(_ i: Int) -> Double
    func lon(_ i: Int) -> Double
    func time(_ i: Int) -> Double
    func altitude(_ i: Int) -> Double
}

extension FixBuffer: PointSeries {}

extension TrackPoints: PointSeries {
    @inline(__always) func lat(_ i: Int) -> Double { latitudes[i] }
    @inline(__always) func lon(_ i: Int) -> Double { longitudes[i] }
}

private let largest = "the largest double (1.8e308)"

/// Sums over one segment, then over the whole.
private struct Sums {
    var s = TrackStats()
    var movingLength = 0.0
    /// Half the rises and falls (halves: a step between finite altitudes cannot overflow).
    var gainHalf = 0.0, lossHalf = 0.0

    /// Adds a segment's sums to the whole's.
    mutating func add(_ o: Sums) throws(GeoLocError) {
        s.length += o.s.length
        s.timedLength += o.s.timedLength
        s.duration += o.s.duration
        if !s.duration.isFinite {
            throw GeoLocError(.outOfRange, "the segments' durations add up to more than \(largest) seconds")
        }
        s.movingTime += o.s.movingTime
        movingLength += o.movingLength
        s.maxSpeed = max(s.maxSpeed, o.s.maxSpeed)
        gainHalf += o.gainHalf
        lossHalf += o.lossHalf
        s.altitudeCount += o.s.altitudeCount
        s.pointCount += o.s.pointCount
        s.timedCount += o.s.timedCount
        s.backwardSteps += o.s.backwardSteps
        if s.startTime.isNaN { s.startTime = o.s.startTime }
        if !o.s.endTime.isNaN { s.endTime = o.s.endTime }
    }

    /// The figures that follow from the sums.
    func finished() throws(GeoLocError) -> TrackStats {
        var r = s
        r.movingTime = min(r.movingTime, r.duration)  // a sum of parts of the duration
        r.elevationGain = 2 * gainHalf
        r.elevationLoss = 2 * lossHalf
        if !r.elevationGain.isFinite || !r.elevationLoss.isFinite {
            throw GeoLocError(.outOfRange, "the elevation \(r.elevationGain.isFinite ? "loss" : "gain") is above \(largest) meters")
        }
        r.averageSpeed = r.duration > 0 ? r.timedLength / r.duration : 0
        r.movingSpeed = r.movingTime > 0 ? movingLength / r.movingTime : 0
        if !r.averageSpeed.isFinite || !r.movingSpeed.isFinite {
            throw GeoLocError(.outOfRange, "the average speed is above \(largest) m/s (a length of \(show(r.timedLength)) m "
                + "in \(show(r.duration)) s)")
        }
        return r
    }
}

extension Track {
    /// Statistics of checked fixes with non-decreasing times (one segment, every fix timed).
    /// - Parameter movingSpeed: a leg counts as moving at this speed or above (m/s, >= 0).
    /// - Throws: as `measure`.
    public static func stats(_ fixes: [Fix], model: EarthModel = .sphere, movingSpeed: Double = 0.5) throws(GeoLocError) -> TrackStats {
        try withFixBuffer(fixes) { (b) throws(GeoLocError) in
            try b.checkInTimeOrder("fixes")
            return try stats(b, model: model, movingSpeed: movingSpeed)
        }
    }

    @_spi(CABI)
    public static func stats(_ b: FixBuffer, model: EarthModel, movingSpeed: Double) throws(GeoLocError) -> TrackStats {
        try measure(b, segments: [0..<b.count], model: model, movingSpeed: movingSpeed, name: "fixes").whole
    }

    /// Statistics of a track in segments: each range of `segments` (ascending, not overlapping,
    /// within the fixes) is measured alone; fixes outside every segment are not measured.
    ///
    /// A fix's time may be NaN (absent): its legs count in `length` but not in the speeds, which
    /// measure the steps from one timed fix of a segment to the next (the length between them
    /// over the time between them). A step back in time is counted (`backwardSteps`), not measured.
    /// - Throws: `.outOfRange` for a segment outside the fixes or out of order, and a figure
    ///   above the largest double (a duration,
    ///   a speed, an elevation gain or loss; the message says which); as `Fix.check` for a bad
    ///   fix (a NaN time allowed).
    public static func measure(
        _ fixes: [Fix], segments: [Range<Int>], model: EarthModel = .sphere, movingSpeed: Double = 0.5
    ) throws(GeoLocError) -> TrackMeasure {
        try withFixBuffer(fixes) { (b) throws(GeoLocError) in
            try b.check("fixes", absentTimes: true)
            return try measure(b, segments: segments, model: model, movingSpeed: movingSpeed, name: "fixes")
        }
    }

    /// The same over points already checked (a loaded track's).
    public static func measure(
        _ points: TrackPoints, segments: [Range<Int>], model: EarthModel = .sphere, movingSpeed: Double = 0.5
    ) throws(GeoLocError) -> TrackMeasure {
        try measure(points, segments: segments, model: model, movingSpeed: movingSpeed, name: "point")
    }

    @_spi(CABI)
    public static func measure(
        _ b: FixBuffer, segments: [Range<Int>], model: EarthModel, movingSpeed: Double
    ) throws(GeoLocError) -> TrackMeasure {
        try measure(b, segments: segments, model: model, movingSpeed: movingSpeed, name: "fixes")
    }

    static func measure<P: PointSeries>(
        _ p: P, segments: [Range<Int>], model: EarthModel, movingSpeed: Double, name: String
    ) throws(GeoLocError) -> TrackMeasure {
        if !movingSpeed.isFinite { throw GeoLocError(.notFinite, "moving_speed_mps is not finite") }
        if movingSpeed < 0 { throw GeoLocError(.outOfRange, "moving_speed_mps \(show(movingSpeed)) is negative") }
        func label(_ i: Int) -> String { name == "fixes" ? "fixes[\(i)]" : "point \(i)" }
        var whole = Sums()
        var each: [TrackStats] = []
        each.reserveCapacity(segments.count)
        try checkSegments(segments, of: p.count, "points")
        for (k, r) in segments.enumerated() {
            var seg = Sums()
            seg.s.pointCount = r.count
            var lastAlt = Double.nan
            var lastTime = Double.nan
            var lastTimed = -1
            var span = 0.0  // length since the last timed point
            var forward = 0.0  // the steps forward in time
            for i in r {
                let alt = p.altitude(i)
                if !alt.isNaN {
                    seg.s.altitudeCount += 1
                    if !lastAlt.isNaN {
                        let d = alt * 0.5 - lastAlt * 0.5
                        if d > 0 { seg.gainHalf += d } else { seg.lossHalf -= d }
                    }
                    lastAlt = alt
                }
                if i > r.lowerBound {
                    let d: Double
                    switch model {
                    case .sphere: d = sphereMeters(p.lat(i - 1), p.lon(i - 1), p.lat(i), p.lon(i))
                    case .wgs84:
                        d = geodesicInverse(
                            from: Coordinate(checkedLatitude: p.lat(i - 1), longitude: p.lon(i - 1)),
                            to: Coordinate(checkedLatitude: p.lat(i), longitude: p.lon(i))).distance
                    }
                    seg.s.length += d
                    span += d
                }
                let t = p.time(i)
                guard !t.isNaN else { continue }
                seg.s.timedCount += 1
                if lastTimed < 0 {
                    seg.s.startTime = t
                } else if t < lastTime {
                    seg.s.backwardSteps += 1
                } else {
                    let dt = t - lastTime
                    guard dt.isFinite else {
                        throw GeoLocError(.outOfRange, "\(label(i)): the time from \(label(lastTimed)) (\(show(lastTime)) to \(show(t)) s) "
                            + "is above \(largest) seconds")
                    }
                    seg.s.timedLength += span
                    forward += dt
                    if dt > 0 {
                        let v = span / dt
                        guard v.isFinite else {
                            throw GeoLocError(.outOfRange, "\(label(i)): \(show(span)) m from \(label(lastTimed)) in \(show(dt)) s "
                                + "is a speed above \(largest) m/s")
                        }
                        seg.s.maxSpeed = max(seg.s.maxSpeed, v)
                        if v >= movingSpeed {
                            seg.s.movingTime += dt
                            seg.movingLength += span
                        }
                    }
                }
                span = 0
                lastTime = t
                lastTimed = i
                seg.s.endTime = t
            }
            if lastTimed >= 0 {
                seg.s.duration = seg.s.backwardSteps == 0 ? seg.s.endTime - seg.s.startTime : forward
                guard seg.s.duration.isFinite else {
                    throw GeoLocError(.outOfRange, "segment \(k): its times span more than \(largest) seconds "
                        + "(\(show(seg.s.startTime)) to \(show(seg.s.endTime)))")
                }
            }
            each.append(try seg.finished())
            try whole.add(seg)
        }
        return TrackMeasure(whole: try whole.finished(), segments: each)
    }
}

/// Checks a track's segments against its `count` points (named `noun` in the message): each
/// starts at or after the end of the one before it and ends at or before the last point.
func checkSegments(_ segments: [Range<Int>], of count: Int, _ noun: String) throws(GeoLocError) {
    var previousEnd = 0
    for (k, r) in segments.enumerated() {
        guard r.lowerBound >= previousEnd else {
            throw GeoLocError(.outOfRange, "segment \(k) starts at \(r.lowerBound), before the end of the previous one (\(previousEnd))")
        }
        guard r.upperBound <= count else {
            throw GeoLocError(.outOfRange, "segment \(k) ends at \(r.upperBound), after the last of the \(count) \(noun)")
        }
        previousEnd = r.upperBound
    }
}
