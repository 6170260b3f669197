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
