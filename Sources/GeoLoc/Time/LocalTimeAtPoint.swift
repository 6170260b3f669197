// Local time at a point: the zone at the point on a time-zone map, then that zone's IANA rules.

/// The zone at a point and what its clocks show at an instant.
public struct PlaceTime: Sendable, Equatable {
    /// The zone at the point, as the map numbers it.
    public var zoneID: TimeZoneID
    /// The zone's IANA name ("America/Chicago"; at sea "Etc/GMT+5", which is UTC-5).
    public var zone: String
    /// The local time there.
    public var localTime: LocalTime

    public init(zoneID: TimeZoneID, zone: String, localTime: LocalTime) {
        self.zoneID = zoneID
        self.zone = zone
        self.localTime = localTime
    }
}

extension TimeZoneMap {
    /// The rules of the zone at `c` (``zone(at:)``, then ``ZoneRules/named(_:)`` of its name).
    /// - Throws: the errors of both; `.notFound` when the rules in use lack the map's zone (a map
    ///   built from a newer boundary release than the rules).
    public func rules(at c: Coordinate) throws(GeoLocError) -> ZoneRules {
        try ZoneRules.named(name(zone(at: c)))
    }

    /// The zone at `c` and its local time at `t` (Unix seconds): "what time is it there". The
    /// zone follows the map's rules (``zone(at:)``: borders, overlaps, the sea's nautical
    /// zones), the time the IANA rules of ``ZoneRulesDatabase/shared()``.
    /// - Throws: `.outOfRange` for an instant outside the years 1 to 9999 UTC, and the errors
    ///   of ``rules(at:)``.
    public func localTime(at c: Coordinate, instant t: Int64) throws(GeoLocError) -> PlaceTime {
        let id = try zone(at: c)
        let zone = name(id)
        return PlaceTime(zoneID: id, zone: zone, localTime: try ZoneRules.named(zone).localTime(at: t))
    }
}

extension LocalTime {
    /// The zone at `c` on the shipped map (``TimeZoneMap/shipped()``) and its local time at `t`
    /// (Unix seconds): `LocalTime.at(Coordinate(latitude: 27.7172, longitude: 85.324), instant: t)`
    /// is Kathmandu's time (UTC+5:45) in zone "Asia/Kathmandu".
    /// - Throws: the errors of ``TimeZoneMap/shipped()`` and ``TimeZoneMap/localTime(at:instant:)``.
    public static func at(_ c: Coordinate, instant t: Int64) throws(GeoLocError) -> PlaceTime {
        try TimeZoneMap.shipped().localTime(at: c, instant: t)
    }
}

// MARK: - Local time at many points

extension TimeZoneMap {
    /// The local times of `n` (point, instant) pairs: point i is `degrees[2i]`, `degrees[2i + 1]`
    /// (latitude, longitude), its instant `times[i]` (Unix seconds, rounded down to a whole
    /// second, as a fix's time). Every point and every time is checked, every zone found and its
    /// rules read, before the first pair is given to `each` (index, zone, its rules, the local
    /// time): a failure gives nothing.
    /// - Throws: `.notFinite` / `.outOfRange` naming the first bad point ("points[7]: ...") or
    ///   time ("times[3]: ..."), and the errors of ``rules(at:)``.
    @_spi(CABI)
    public func localTimes(
        degrees p: UnsafeBufferPointer<Double>, times: UnsafeBufferPointer<Double>, count n: Int,
        _ each: (Int, TimeZoneID, ZoneRules, LocalTime) throws(GeoLocError) -> Void
    ) throws(GeoLocError) {
        precondition(p.count >= 2 * n && times.count >= n)
        guard n > 0 else { return }
        try ZoneRules.checkTimes(UnsafeBufferPointer(rebasing: times[0..<n]))
        var ids = [UInt16](repeating: 0, count: n)
        try ids.withUnsafeMutableBufferPointer { (b: inout UnsafeMutableBufferPointer<UInt16>) throws(GeoLocError) in
            try zones(degrees: p, count: n, into: b.baseAddress.unsafelyUnwrapped)
        }
        // Each zone's rules once; a zone the rules lack fails here, before anything is given.
        var rules = [ZoneRules?](repeating: nil, count: count)
        for id in ids where rules[Int(id)] == nil {
            rules[Int(id)] = try ZoneRules.named(name(TimeZoneID(rawValue: id)))
        }
        for i in 0..<n {
            let r = rules[Int(ids[i])].unsafelyUnwrapped
            try each(i, TimeZoneID(rawValue: ids[i]), r, try r.localTime(at: Int64(times[i].rounded(.down))))
        }
    }

    /// The zone and local time of each (point, instant) pair: `localTimes(at: fixes.map(\.coordinate),
    /// instants: fixes.map(\.time))` is every fix's local time where it was taken, a track that
    /// crosses zones too. Instants are Unix seconds, rounded down to whole seconds.
    /// - Throws: as ``localTimes(degrees:times:count:_:)``; the counts must agree
    ///   (`.invalidArgument`).
    public func localTimes(at points: [Coordinate], instants: [Double]) throws(GeoLocError) -> [PlaceTime] {
        guard points.count == instants.count else {
            throw GeoLocError(.invalidArgument, "\(points.count) points but \(instants.count) instants")
        }
        var degrees: [Double] = []
        degrees.reserveCapacity(2 * points.count)
        for c in points { degrees.append(c.latitude); degrees.append(c.longitude) }
        var out: [PlaceTime] = []
        out.reserveCapacity(points.count)
        try degrees.withUnsafeBufferPointer { (p: UnsafeBufferPointer<Double>) throws(GeoLocError) in
            try instants.withUnsafeBufferPointer { (t: UnsafeBufferPointer<Double>) throws(GeoLocError) in
                try localTimes(degrees: p, times: t, count: points.count) {
                    (_: Int, id: TimeZoneID, _: ZoneRules, lt: LocalTime) throws(GeoLocError) in
                    out.append(PlaceTime(zoneID: id, zone: name(id), localTime: lt))
                }
            }
        }
        return out
    }
}
