// Local dates of fixes and tracks: each fix's local time where it was taken (the zone at its
// position, the IANA rules of that zone), and a track's length and moving time per local day
// ("miles per local day"), for tracks that cross zones too.

/// One local day of a track (``TimeZoneMap/localDays(of:segments:model:)``).
public struct LocalDay: Sendable, Equatable {
    /// The date on the clocks where the fixes of the day were taken.
    public var date: LocalDate
    /// ISO 8601: 1 Monday .. 7 Sunday.
    public var weekday: Int
    /// Meters travelled: the steps that start at a fix of this day.
    public var length: Double
    /// Seconds: the steps forward in time that start at a fix of this day.
    public var duration: Double
    /// How many fixes fall on this day, and the first of them (an index into the fixes).
    public var fixCount: Int
    public var firstFix: Int

    public init(date: LocalDate, weekday: Int, length: Double, duration: Double, fixCount: Int, firstFix: Int) {
        self.date = date
        self.weekday = weekday
        self.length = length
        self.duration = duration
        self.fixCount = fixCount
        self.firstFix = firstFix
    }
}

extension TimeZoneMap {
    /// The local time of each fix where it was taken: `fixes[i].time` (Unix seconds) on the
    /// clocks of the zone at its position. Every fix is checked first (as ``Fix/check(at:)``:
    /// a time must be finite here).
    public func localTimes(of fixes: [Fix]) throws(GeoLocError) -> [PlaceTime] {
        for (i, f) in fixes.enumerated() { try f.check(at: "fixes[\(i)]") }
        return try localTimes(at: fixes.map { Coordinate(checkedLatitude: $0.latitude, longitude: $0.longitude) },
                              instants: fixes.map(\.time))
    }

    /// A track's length and moving time per local day, in date order, a date once.
    ///
    /// The rule: a fix's day is the local date of its time at its position (a track that
    /// crosses zones takes each fix's own zone). A fix without a time (NaN) takes the day of the
    /// timed fix before it in its segment, else of the first after it; a segment with no time
    /// at all belongs to no day (its length is in no total). A step from one fix to the next
    /// of its segment counts wholly to the day of the fix it starts from (a step across
    /// midnight is not split); its time counts when both fixes have a time and it goes forward.
    /// - Parameters:
    ///   - segments: the fixes of each segment (ascending, not overlapping); fixes in no segment
    ///     count in no day. `[0..<n]` for one segment.
    ///   - model: how a step is measured (as ``TrackMeasure``).
    /// - Throws: `.notFinite` / `.outOfRange` for a bad fix (a NaN time is allowed), a segment out
    ///   of order or beyond the fixes, a time outside the years 1 to 9999; the errors of
    ///   ``rules(at:)``.
    public func localDays(of fixes: [Fix], segments: [Range<Int>]? = nil, model: EarthModel = .sphere) throws(GeoLocError) -> [LocalDay] {
        try withFixBuffer(fixes) { (b: FixBuffer) throws(GeoLocError) in
            try b.check("fixes", absentTimes: true)
            return try localDays(of: b, segments: segments ?? [0..<fixes.count], model: model)
        }
    }

    /// As ``localDays(of:segments:model:)`` over fixes already checked (a C array).
    @_spi(CABI)
    public func localDays(of b: FixBuffer, segments: [Range<Int>], model: EarthModel) throws(GeoLocError) -> [LocalDay] {
        try checkSegments(segments, of: b.count, "fixes")
        // The local day number (days since 1970-01-01 on the local clocks) of every timed fix in
        // a segment, from one batch of zones and rules; checked before anything is summed.
        var timed: [Int] = []
        for r in segments { for i in r where !b.time(i).isNaN { timed.append(i) } }
        var degrees: [Double] = []
        var times: [Double] = []
        degrees.reserveCapacity(2 * timed.count)
        times.reserveCapacity(timed.count)
        for i in timed { degrees.append(b.lat(i)); degrees.append(b.lon(i)); times.append(b.time(i)) }
        var dayOf = [Int64](repeating: Int64.min, count: b.count)
        try degrees.withUnsafeBufferPointer { (p: UnsafeBufferPointer<Double>) throws(GeoLocError) in
            try times.withUnsafeBufferPointer { (t: UnsafeBufferPointer<Double>) throws(GeoLocError) in
                do throws(GeoLocError) {
                    try localTimes(degrees: p, times: t, count: timed.count) {
                        (k: Int, _: TimeZoneID, _: ZoneRules, lt: LocalTime) throws(GeoLocError) in
                        dayOf[timed[k]] = Civil.floorDiv(lt.instant + Int64(lt.utcOffset), 86400).0
                    }
                } catch {
                    // Name the fix, not the position in the batch of timed fixes.
                    throw GeoLocError(error.code, renamed(error.message, timed))
                }
            }
        }
        // Untimed fixes: the day of the timed fix before them in the segment, else after them.
        for r in segments {
            var last = Int64.min
            for i in r {
                if dayOf[i] != Int64.min { last = dayOf[i] } else { dayOf[i] = last }
            }
            var next = Int64.min
            for i in r.reversed() {
                if dayOf[i] != Int64.min { next = dayOf[i] } else { dayOf[i] = next }
            }
        }
        var days: [Int64: LocalDay] = [:]
        for r in segments {
            for i in r where dayOf[i] != Int64.min {
                let key = dayOf[i]
                var d = days[key] ?? {
                    let (y, m, dd) = Civil.date(key)
                    return LocalDay(date: LocalDate(year: Int(y), month: m, day: dd), weekday: Civil.weekday(key),
                                    length: 0, duration: 0, fixCount: 0, firstFix: i)
                }()
                d.fixCount += 1
                if i + 1 < r.upperBound {
                    switch model {
                    case .sphere: d.length += sphereMeters(b.lat(i), b.lon(i), b.lat(i + 1), b.lon(i + 1))
                    case .wgs84:
                        d.length += geodesicInverse(
                            from: Coordinate(checkedLatitude: b.lat(i), longitude: b.lon(i)),
                            to: Coordinate(checkedLatitude: b.lat(i + 1), longitude: b.lon(i + 1))).distance
                    }
                    let dt = b.time(i + 1) - b.time(i)
                    if dt > 0 { d.duration += dt }  // NaN (an untimed end) and steps back count no time
                }
                days[key] = d
            }
        }
        return days.keys.sorted().map { days[$0]! }
    }
}

/// "points[3]: ..." / "times[3]: ..." of a batch over some fixes, as "fixes[i]: ...".
private func renamed(_ message: String, _ indices: [Int]) -> String {
    for prefix in ["points[", "times["] where message.hasPrefix(prefix) {
        let rest = message.dropFirst(prefix.count)
        guard let close = rest.firstIndex(of: "]"), let k = Int(rest[rest.startIndex..<close]), k < indices.count else { break }
        return "fixes[\(indices[k])]" + (prefix == "times[" ? ": time" : "") + rest[close...].dropFirst()
    }
    return message
}
