// The zones of a reverse geocode's answer: the zone at the point and the zone at the place the
// answer names, both from the time-zone map.
//
// Which zone is "the place's zone"? Three sources were weighed:
//  - the map at the query point: the clocks where the point is. This is what "what time is it
//    here" means, it is exact to the boundary polygons, and a point has it even with no
//    locality (at sea, in a desert). It is `zone`, the one to show beside a reverse geocode.
//  - the map at the named place's coordinate (the locality, else the nearest place): the clocks
//    of the town the text names. It differs from the point's only where the point is nearer a
//    town across a zone border (a point in Arizona whose nearest town is on the Navajo Nation,
//    one in Spain whose nearest town is in Portugal). It is `placeZone`.
//  - GeoNames' own timezone column of the place: the shipped gazetteer does not carry it, it is
//    edited apart from the boundaries and the tz database, and it has no answer for a point
//    with no locality. The tests use it as an independent check of `placeZone` instead.

/// The zones of a reverse geocode's answer.
public struct LocalityZones: Sendable, Equatable {
    /// The zone at the point itself: the clocks where the point is.
    public var zone: TimeZoneID
    /// The zone at the named place's coordinate (``LocalityMatch/named``: the locality, else the
    /// nearest place): the clocks of the place the answer names.
    public var placeZone: TimeZoneID

    public init(zone: TimeZoneID, placeZone: TimeZoneID) {
        self.zone = zone
        self.placeZone = placeZone
    }
}

extension TimeZoneMap {
    /// The zones of `match`, the answer of `gazetteer.locality(at: c)`.
    public func zones(of match: LocalityMatch, at c: Coordinate, in gazetteer: Gazetteer) throws(GeoLocError) -> LocalityZones {
        LocalityZones(zone: try zone(at: c), placeZone: try zone(at: gazetteer.places.coordinate(at: match.named)))
    }
}

extension Gazetteer {
    /// The locality of `c` (``locality(at:model:options:)``) and its zones on `timezones`.
    public func locality(
        at c: Coordinate, options: ReverseGeocodeOptions = ReverseGeocodeOptions(), timezones: TimeZoneMap
    ) throws(GeoLocError) -> (match: LocalityMatch, zones: LocalityZones) {
        let m = try locality(at: c, options: options)
        return (m, try timezones.zones(of: m, at: c, in: self))
    }

    /// The locality and zones of each of `n` points given as 2n degrees, all checked first,
    /// handed to `each` in order.
    @_spi(CABI)
    public func localities(
        degrees p: UnsafeBufferPointer<Double>, count n: Int, name: String, options: ReverseGeocodeOptions,
        timezones: TimeZoneMap, _ each: (Int, LocalityMatch, LocalityZones) throws(GeoLocError) -> Void
    ) throws(GeoLocError) {
        try localities(degrees: p, count: n, name: name, options: options) { (i: Int, m: LocalityMatch) throws(GeoLocError) in
            let c = Coordinate(checkedLatitude: p[2 * i], longitude: p[2 * i + 1])
            try each(i, m, try timezones.zones(of: m, at: c, in: self))
        }
    }
}
