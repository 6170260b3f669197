#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeoLocKernels

// The locality a point is in: the city, town or village a person standing there would name
// ("Chicago" downtown, not "Chicago Loop"), its sub-locality (the section the point is in), and
// whether there is a locality at all (not in mid-ocean). The rule, in short (the header's section
// 7 and data/gazetteer/README.md say it in full):
//
// 1. Sections are decided from data when the gazetteer is made (tools/gen_gazetteer.py): each
//    place that is a section of another has that locality's GeoNames id in `locality_id`.
// 2. A point's nearest place is found. Beyond `maxDistance` the point has no locality (its
//    region and country are still given within `countryReach`).
// 3. The locality is the nearest place's locality (itself, or the locality it is a section of);
//    the section is the sub-locality.
// 4. When the point is outside that place's surroundings (farther than its reach and than
//    `Gazetteer.minimumReach`), a locality with more people whose reach covers the point is
//    taken instead (the one the point lies deepest in): the much larger place around a point
//    between villages of its outskirts.
//
// A place's reach is `reachPerRootPerson * sqrt(population)` meters: a circle of the area a
// population takes at 8,800 people a km² (a dense city; a city of 1,000,000 reaches 6 km, a town
// of 10,000 600 m); the generator uses the same constant.

/// How a reverse geocode decides that a point has no locality, and what its text names.
public struct ReverseGeocodeOptions: Sendable, Equatable {
    /// The default of ``maxDistance``: 50 km. Between towns, a point is rarely that far from the
    /// nearest one (99% of the gazetteer's places have another within 62.5 km, so half that gap
    /// is 31 km); farther out is open sea, desert or ice, where the nearest village names
    /// nothing a person would call where they are.
    public static let defaultMaxDistance: Double = 50_000
    /// The default of ``countryReach``: 200 km, beyond the widest gaps between places inside a
    /// country (99.9% of places have another within 169 km).
    public static let defaultCountryReach: Double = 200_000

    /// The farthest, in meters, that the nearest populated place may be for the point to have a
    /// locality; `.infinity` for no limit (always the nearest place's locality, as before 0.4).
    public var maxDistance: Double
    /// When the point has no locality: the farthest, in meters, that the nearest place may be
    /// for its region and country to be given ("Nevada, United States"); 0 for never.
    public var countryReach: Double
    /// Whether text names the sub-locality before the locality ("Chicago Loop, Chicago, IL").
    public var subLocality: Bool

    public init(
        maxDistance: Double = ReverseGeocodeOptions.defaultMaxDistance,
        countryReach: Double = ReverseGeocodeOptions.defaultCountryReach, subLocality: Bool = false
    ) {
        self.maxDistance = maxDistance
        self.countryReach = countryReach
        self.subLocality = subLocality
    }

    /// `.notFinite` for NaN, `.outOfRange` for a negative distance (infinity is allowed).
    @inline(__always)
    func check() throws(GeoLocError) {
        // The common case, both set and non-negative, without building a message.
        if maxDistance >= 0 && countryReach >= 0 { return }
        try ReverseGeocodeOptions.check(maxDistance, "maximum distance")
        try ReverseGeocodeOptions.check(countryReach, "country reach")
    }

    private static func check(_ value: Double, _ name: String) throws(GeoLocError) {
        if value.isNaN { throw GeoLocError(.notFinite, "\(name) is NaN") }
        if value < 0 { throw GeoLocError(.outOfRange, "\(name) \(show(value)) is negative") }
    }
}

/// Where a point is, as place indices: the cheap half of ``Gazetteer/reverse(_:model:options:)``.
public struct LocalityMatch: Sendable, Equatable {
    /// The locality's index in ``Gazetteer/places``; `nil` when the point has none (its nearest
    /// place is beyond the maximum distance).
    public var locality: Int?
    /// Meters from the point to the locality (to the nearest place when there is none).
    public var distance: Double
    /// The index of the section the point is in (the nearest place, when it is a section of the
    /// locality); `nil` when there is none.
    public var subLocality: Int?
    /// The nearest place's index and its distance in meters.
    public var nearest: Int
    public var nearestDistance: Double
    /// The locality's reach in meters (0 when there is no locality).
    public var reach: Double
    /// Whether the point is within the reach of the locality, or of the nearest place when that
    /// is a section of it.
    public var withinReach: Bool
    /// With no locality: whether the nearest place is within the country reach, so that its
    /// region and country are given.
    public var inCountry: Bool

    public init(
        locality: Int?, distance: Double, subLocality: Int?, nearest: Int, nearestDistance: Double, reach: Double,
        withinReach: Bool, inCountry: Bool
    ) {
        self.locality = locality
        self.distance = distance
        self.subLocality = subLocality
        self.nearest = nearest
        self.nearestDistance = nearestDistance
        self.reach = reach
        self.withinReach = withinReach
        self.inCountry = inCountry
    }

    /// The place whose names the answer gives: the locality, else (region and country only) the
    /// nearest place.
    public var named: Int { locality ?? nearest }
}

extension Gazetteer {
    /// Meters of reach per square root of a person: a place of population p reaches
    /// `reachPerRootPerson * sqrt(p)` meters (tools/gen_gazetteer.py's REACH_KM_PER_ROOT_PERSON).
    public static let reachPerRootPerson: Double = 6
    /// The smallest reach at query time, meters: a point within 2 km of its nearest place is
    /// that place's (a town's own outskirts), however few people it has.
    public static let minimumReach: Double = 2_000

    /// The locality of the point `c` (see ``ReverseGeocode`` and the rule above), as indices.
    /// - Throws: `.notFinite` / `.outOfRange` for bad options.
    public func locality(
        at c: Coordinate, model: EarthModel = .sphere, options: ReverseGeocodeOptions = ReverseGeocodeOptions()
    ) throws(GeoLocError) -> LocalityMatch {
        try options.check()
        return try locality(nearest: nearestPlace(to: c, model: model), at: c, model: model, options: options)
    }

    /// The locality of `c`, whose nearest place `m` is already known.
    func locality(
        nearest m: PlaceMatch, at c: Coordinate, model: EarthModel, options: ReverseGeocodeOptions
    ) throws(GeoLocError) -> LocalityMatch {
        guard m.distance <= options.maxDistance else {
            return LocalityMatch(
                locality: nil, distance: m.distance, subLocality: nil, nearest: m.index, nearestDistance: m.distance,
                reach: 0, withinReach: false, inCountry: m.distance <= options.countryReach)
        }
        return withLocalityIndex { index in
            // One 16-byte record says what the rule needs of the nearest place (and of its locality).
            let near = index.records[m.index]
            // The text a query most often reads last (the nearest place's, as its own locality).
            if near.parent < 0, let text = near.text { glk_prefetch(text, 32) }
            let nearestReach = Double(near.reach)
            var locality = m.index
            var sub: Int? = nil
            var reach = near.reach
            if near.parent >= 0 {
                locality = Int(near.parent)
                sub = m.index
                reach = index.records[locality].reach
            }
            if m.distance > Swift.max(nearestReach, Gazetteer.minimumReach),
                let (q, _) = index.covering(c, largerThan: reach)
            {
                locality = q
                sub = nil
                reach = index.records[q].reach
            }
            let distance =
                locality == m.index ? m.distance : c.distance(to: places.coordinate(at: locality), model: model, unit: .meters)
            let r = Double(reach)
            return LocalityMatch(
                locality: locality, distance: distance, subLocality: sub, nearest: m.index, nearestDistance: m.distance,
                reach: r, withinReach: distance <= r || (sub != nil && m.distance <= nearestReach), inCountry: true)
        }
    }

    /// The locality of each place, each place's reach and the large localities, read from the
    /// `locality_id` and `population` columns on first use (about 10 ms for the shipped
    /// gazetteer) and kept.
    var localityIndex: LocalityIndex {
        let slot = localitySlot
        if let p = glk_load_acquire(slot) { return Unmanaged<LocalityIndex>.fromOpaque(p).takeUnretainedValue() }
        return makeLocalityIndex(slot)
    }

    /// `body` with the locality index, without the reference counting of ``localityIndex`` (the
    /// gazetteer keeps the index alive).
    @inline(__always)
    func withLocalityIndex<R, E: Error>(_ body: (LocalityIndex) throws(E) -> R) throws(E) -> R {
        let slot = localitySlot
        let p = glk_load_acquire(slot) ?? Unmanaged.passUnretained(makeLocalityIndex(slot)).toOpaque()
        let result: Result<R, E> = Unmanaged<LocalityIndex>.fromOpaque(p)._withUnsafeGuaranteedRef { index in
            do throws(E) { return .success(try body(index)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    @inline(never)
    private func makeLocalityIndex(_ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> LocalityIndex {
        let made = LocalityIndex(self)
        let raw = Unmanaged.passRetained(made).toOpaque()
        if glk_publish(slot, raw) != 0 { return made }
        Unmanaged<LocalityIndex>.fromOpaque(raw).release()  // another thread published first
        return Unmanaged<LocalityIndex>.fromOpaque(glk_load_acquire(slot)!).takeUnretainedValue()
    }
}

/// What the rule needs of one place, in 16 bytes, so that a query reads one record of its nearest
/// place: the place's locality when it is a section (`parent`, -1 when it is a locality itself),
/// its reach in meters, and its text as a locality in the `.cityState` style (the one most
/// callers ask for), formatted on first use (the slot of ``PlaceTextCache``'s other texts).
struct LocalityRecord {
    var parent: Int32
    var reach: Float
    var text: UnsafeMutableRawPointer?
}

/// A locality whose reach is larger than the minimum, as the grid lists it: its coordinate and
/// reach, so that a point's candidates are tested without reading the place set.
struct CoverEntry {
    var latitude: Double
    var longitude: Double
    var reach: Float
    var index: Int32
}

/// The section structure of a gazetteer: each place's locality (when it is a section), each
/// place's reach, and a grid of the localities whose reach is larger than the minimum. Flat
/// arrays, made once and then only read (but for the texts' slots, filled with
/// ``PlaceTextCache``'s compare-and-swap).
final class LocalityIndex: @unchecked Sendable {
    /// records[i]: place i's locality, reach and cached `.cityState` text.
    let records: UnsafeMutablePointer<LocalityRecord>
    let count: Int
    /// The localities that reach farther than `Gazetteer.minimumReach`, by the cells of a
    /// latitude/longitude grid (`cellDegrees` wide) that their reach touches: cell `key`
    /// (`latCell * lonCells + lonCell`) lists `entries[start..<start + count]` of the slot whose
    /// key it is in `cellSlots`, an open-addressing table of `cellMask + 1` slots (key -1: empty).
    let cellSlots: UnsafeMutablePointer<CellSlot>
    let cellMask: Int
    let entries: UnsafeMutablePointer<CoverEntry>
    let entryCount: Int
    static let cellDegrees = 0.25
    static let lonCells = 1440

    struct CellSlot {
        var key: Int32
        var start: Int32
        var count: Int32
        var unused: Int32
    }

    init(_ g: Gazetteer) {
        let places = g.places
        let n = places.count
        var reach = [Float](repeating: 0, count: n)
        var parents = [Int32](repeating: -1, count: n)
        if let column = places.index(ofAttribute: "population") {
            for i in 0..<n {
                let p = places.withUTF8(field: 2 + column, at: i) { LocalityIndex.number($0) } ?? 0
                reach[i] = Float(Gazetteer.reachPerRootPerson * Double(p).squareRoot())
            }
        }
        if let column = places.index(ofAttribute: "locality_id") {
            // The ids named, then the places that have them.
            var wanted: [Int: Int32] = [:]
            var sections: [(Int, Int)] = []
            for i in 0..<n {
                if let id = places.withUTF8(field: 2 + column, at: i, { LocalityIndex.number($0) }) {
                    sections.append((i, id))
                    wanted[id] = -1
                }
            }
            if !sections.isEmpty {
                for i in 0..<n {
                    if let id = places.withUTF8(field: 0, at: i, { LocalityIndex.number($0) }), wanted[id] == -1 {
                        wanted[id] = Int32(i)
                    }
                }
                for (i, id) in sections {
                    // A locality that is itself a section, or missing, leaves the place standing alone.
                    if let p = wanted[id], p >= 0, parents[Int(p)] < 0, p != Int32(i) { parents[i] = p }
                }
                // A chain (a section of a section) is cut: sections whose locality is a section stand alone.
                for (i, _) in sections where parents[i] >= 0 && parents[Int(parents[i])] >= 0 {
                    parents[i] = -1
                }
            }
        }
        records = .allocate(capacity: Swift.max(n, 1))
        for i in 0..<n { (records + i).initialize(to: LocalityRecord(parent: parents[i], reach: reach[i], text: nil)) }
        count = n

        var cells: [Int: [Int32]] = [:]
        let cd = LocalityIndex.cellDegrees
        let latCells = Int(180 / cd)
        let metersPerDegree = Earth.meanRadius * .pi / 180
        for i in 0..<n where parents[i] < 0 && Double(reach[i]) > Gazetteer.minimumReach {
            let c = places.coordinate(at: i)
            let dlat = Double(reach[i]) / metersPerDegree * 1.01 + 1e-9
            let lat0 = Swift.max(0, Int(((c.latitude - dlat + 90) / cd).rounded(.down)))
            let lat1 = Swift.min(latCells - 1, Int(((c.latitude + dlat + 90) / cd).rounded(.down)))
            let far = Swift.min(90, abs(c.latitude) + dlat)
            let cosFar = cos(far * .pi / 180)
            let dlon = cosFar > 0.01 ? dlat / cosFar : 360
            var lons: [Int] = []
            if dlon >= 180 {
                lons = Array(0..<LocalityIndex.lonCells)
            } else {
                let lon0 = Int(((c.longitude - dlon + 180) / cd).rounded(.down))
                let lon1 = Int(((c.longitude + dlon + 180) / cd).rounded(.down))
                for k in lon0...lon1 { lons.append(((k % LocalityIndex.lonCells) + LocalityIndex.lonCells) % LocalityIndex.lonCells) }
            }
            for a in lat0...Swift.max(lat0, lat1) {
                for b in lons { cells[a * LocalityIndex.lonCells + b, default: []].append(Int32(i)) }
            }
        }
        // Flattened: every cell's list in one array of entries, the cells in a table of at least
        // twice as many slots.
        var slots = 1
        while slots < 2 * cells.count { slots *= 2 }
        cellMask = slots - 1
        cellSlots = .allocate(capacity: slots)
        cellSlots.initialize(repeating: CellSlot(key: -1, start: 0, count: 0, unused: 0), count: slots)
        let total = cells.values.reduce(0) { $0 + $1.count }
        entries = .allocate(capacity: Swift.max(total, 1))
        entryCount = total
        var at = 0
        for (key, list) in cells {
            var s = LocalityIndex.hash(key) & cellMask
            while cellSlots[s].key >= 0 { s = (s + 1) & cellMask }
            cellSlots[s] = CellSlot(key: Int32(key), start: Int32(at), count: Int32(list.count), unused: 0)
            for k in list {
                let c = places.coordinate(at: Int(k))
                (entries + at).initialize(
                    to: CoverEntry(latitude: c.latitude, longitude: c.longitude, reach: reach[Int(k)], index: k))
                at += 1
            }
        }
    }

    deinit {
        for i in 0..<count { records[i].text?.deallocate() }
        records.deallocate()
        cellSlots.deallocate()
        entries.deallocate()
    }

    @inline(__always)
    static func hash(_ key: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: key) &* 0x9E37_79B9_7F4A_7C15) >> 40)
    }

    /// The slot of place `i`'s `.cityState` text (see ``LocalityRecord``).
    @inline(__always)
    func textSlot(_ i: Int) -> UnsafeMutablePointer<UnsafeMutableRawPointer?> {
        UnsafeMutableRawPointer(records + i).advanced(by: MemoryLayout<LocalityRecord>.offset(of: \.text)!)
            .assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    }

    /// The grid cell of `c` (`covering`'s key).
    @inline(__always)
    func cellKey(_ c: Coordinate) -> Int {
        let cd = LocalityIndex.cellDegrees
        let a = Swift.min(Int(180 / cd) - 1, Swift.max(0, Int(((c.latitude + 90) / cd).rounded(.down))))
        var lon = c.longitude
        if !(lon >= -180 && lon < 180) {  // (a Coordinate's longitude always is)
            lon = lon.truncatingRemainder(dividingBy: 360)
            if lon >= 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        }
        let b = Swift.min(LocalityIndex.lonCells - 1, Swift.max(0, Int(((lon + 180) / cd).rounded(.down))))
        return a * LocalityIndex.lonCells + b
    }

    /// Asks for the first slot `covering(c, ...)` reads (a hint: the query reads it after its
    /// nearest-place search, when the point is beyond its nearest place's reach).
    @inline(__always)
    func prefetchCell(_ c: Coordinate) {
        glk_prefetch(cellSlots + (LocalityIndex.hash(cellKey(c)) & cellMask), MemoryLayout<CellSlot>.stride)
    }

    /// The locality with a reach larger than `least` meters whose reach covers `c`, the one `c`
    /// lies deepest in (the smallest distance / reach; ties by index), with its distance.
    func covering(_ c: Coordinate, largerThan least: Float) -> (Int, Double)? {
        let key = cellKey(c)
        var s = LocalityIndex.hash(key) & cellMask
        while cellSlots[s].key != Int32(key) {
            if cellSlots[s].key < 0 { return nil }
            s = (s + 1) & cellMask
        }
        let cell = cellSlots[s]
        // A great-circle distance is at least the arc of the latitudes' difference: a candidate
        // whose reach is shorter than that arc (with a margin far beyond rounding) is passed over
        // without measuring.
        let metersPerDegree = Earth.meanRadius * .pi / 180
        var best: (Int, Double, Double)? = nil
        for e in entries + Int(cell.start)..<entries + Int(cell.start + cell.count) {
            let entry = e.pointee
            guard entry.reach > least else { continue }
            let r = Double(entry.reach)
            guard abs(entry.latitude - c.latitude) * metersPerDegree <= r * (1 + 1e-9) else { continue }
            let i = Int(entry.index)
            let d = c.distance(
                to: Coordinate(checkedLatitude: entry.latitude, longitude: entry.longitude), model: .sphere, unit: .meters)
            guard d <= r else { continue }
            let depth = d / r
            if best == nil || depth < best!.2 || (depth == best!.2 && i < best!.0) { best = (i, d, depth) }
        }
        return best.map { ($0.0, $0.1) }
    }

    /// A non-negative decimal integer of at most 18 digits, or nil.
    static func number(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var v = 0
        for b in bytes {
            guard b >= 0x30 && b <= 0x39 else { return nil }
            v = v * 10 + Int(b - 0x30)
        }
        return v
    }
}
