#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeoLocKernels

// Reverse geocoding as text, fast: a place's text in a style depends on the place and the style
// only, so each is formatted once, on the first query that needs it, and kept for the life of the
// gazetteer. A text query is then a nearest search plus a copy.

/// The texts of a gazetteer's places, per address style, built lazily by any number of threads
/// at once without a lock: one table of pointer slots per style (allocated on first use), each
/// slot empty or pointing at the place's text (a 4-byte length, the UTF-8 bytes, a NUL). A thread
/// that finds a slot empty formats the text and publishes it with a compare-and-swap; when two
/// threads race, one copy wins and the other is freed. Published texts never change and are freed
/// with the cache (the gazetteer's deinit), so the bytes a reader got stay valid while the
/// gazetteer lives.
final class PlaceTextCache: @unchecked Sendable {
    let count: Int
    /// One slot per kind of text (``Kind``): nil, or the kind's table of `count` slots.
    private let tables: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    private static let styles = AddressStyle.allCases.count

    /// What a place's text says: the place as a locality in a style; the place's region and
    /// country alone (a point with no locality); the place as a sub-locality, before its
    /// locality's text in a style ("Chicago Loop, Chicago, IL").
    enum Kind {
        case locality(AddressStyle)
        case region
        case subLocality(AddressStyle)

        var slot: Int {
            switch self {
            case .locality(let s): Int(s.rawValue)
            case .region: PlaceTextCache.styles
            case .subLocality(let s): PlaceTextCache.styles + 1 + Int(s.rawValue)
            }
        }
        static let count = 2 * PlaceTextCache.styles + 1
    }

    init(count: Int) {
        self.count = count
        tables = .allocate(capacity: Kind.count)
        tables.initialize(repeating: nil, count: Kind.count)
    }

    deinit {
        for s in 0..<Kind.count {
            guard let table = tables[s] else { continue }
            let slots = table.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
            for i in 0..<count { slots[i]?.deallocate() }
            free(table)
        }
        tables.deallocate()
    }

    /// The kind's slot table, allocated (zeroed) by the first caller.
    @inline(__always)
    private func table(_ kind: Kind) -> UnsafeMutablePointer<UnsafeMutableRawPointer?>? {
        let slot = tables + kind.slot
        if let t = glk_load_acquire(slot) { return t.assumingMemoryBound(to: UnsafeMutableRawPointer?.self) }
        guard let fresh = calloc(Swift.max(count, 1), MemoryLayout<UnsafeMutableRawPointer?>.stride) else { return nil }
        if glk_publish(slot, fresh) != 0 { return fresh.assumingMemoryBound(to: UnsafeMutableRawPointer?.self) }
        free(fresh)
        return glk_load_acquire(slot)?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    }

    /// The UTF-8 bytes (without the NUL, which follows them in memory) of place `index`'s text of
    /// `kind`, formatted by `make` the first time; valid while the cache lives. `index` must be
    /// in `0..<count`. Throws `.noMemory` when a table or a text cannot be allocated.
    @inline(__always)
    func bytes(
        _ index: Int, _ kind: Kind, _ make: (Int, Kind) -> String
    ) throws(GeoLocError) -> UnsafeRawBufferPointer {
        guard let slots = table(kind) else {
            throw GeoLocError(.noMemory, "no memory for the texts of \(count) places")
        }
        return bytes(in: slots + index, index, kind, make)
    }

    /// The text in `slot`, a slot of this cache's kind or one kept elsewhere for as long as the
    /// cache (``LocalityRecord/text``), made by `make(index, kind)` and published the first time.
    @inline(__always)
    func bytes(
        in slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ index: Int, _ kind: Kind, _ make: (Int, Kind) -> String
    ) -> UnsafeRawBufferPointer {
        if let block = glk_load_acquire(slot) {
            return PlaceTextCache.view(block)
        }
        return PlaceTextCache.view(fill(slot, make(index, kind)))
    }

    @inline(never)
    private func fill(_ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ text: String) -> UnsafeMutableRawPointer {
        var text = text
        let block = text.withUTF8 { utf8 -> UnsafeMutableRawPointer in
            let block = UnsafeMutableRawPointer.allocate(byteCount: 4 + utf8.count + 1, alignment: 4)
            block.storeBytes(of: UInt32(truncatingIfNeeded: utf8.count), as: UInt32.self)
            if let base = utf8.baseAddress { (block + 4).copyMemory(from: base, byteCount: utf8.count) }
            (block + 4 + utf8.count).storeBytes(of: 0, as: UInt8.self)
            return block
        }
        if glk_publish(slot, block) != 0 { return block }
        block.deallocate()  // another thread published the same text first
        return glk_load_acquire(slot)!
    }

    @inline(__always)
    private static func view(_ block: UnsafeRawPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: block + 4, count: Int(block.load(as: UInt32.self)))
    }
}

extension Gazetteer {
    /// Place `index`'s text in `style` as a locality ("Springfield, IL"): the text of every point
    /// whose locality it is. Formatted on first use and kept (see ``reverseText(_:style:)``).
    /// - Throws: `.outOfRange` for an index outside `0..<places.count`.
    public func text(ofPlace index: Int, style: AddressStyle = .cityState) throws(GeoLocError) -> String {
        guard index >= 0 && index < places.count else {
            throw GeoLocError(.outOfRange, "place index \(index) is outside 0..<\(places.count)")
        }
        return String(decoding: try textBytes(index, style), as: UTF8.self)
    }

    /// The locality of `c` (``locality(at:model:options:)``, the default options) and its text in
    /// `style`: ``reverse(_:model:options:)`` then ``ReverseGeocode/formatted(_:subLocality:)``,
    /// with each text formatted once per place and style and then kept for the life of the
    /// gazetteer (a query is a nearest search plus a copy). `place` is the locality and its
    /// distance; with no locality, the nearest place (the text is then its region and country,
    /// or ""). Any number of threads may call it at once on one gazetteer.
    public func reverseText(_ c: Coordinate, style: AddressStyle = .cityState) throws(GeoLocError) -> (place: PlaceMatch, text: String) {
        let (m, text) = try reverseText(c, style: style, options: ReverseGeocodeOptions())
        return (PlaceMatch(index: m.named, distance: m.distance), text)
    }

    /// The locality of `c` under `options` and its text in `style` (kept as above).
    public func reverseText(
        _ c: Coordinate, style: AddressStyle, options: ReverseGeocodeOptions
    ) throws(GeoLocError) -> (match: LocalityMatch, text: String) {
        let m = try locality(at: c, options: options)
        return (m, String(decoding: try textBytes(m, style, subLocality: options.subLocality), as: UTF8.self))
    }

    /// The nearest place to each point, as ``nearestPlace(to:model:)`` gives it, in order.
    public func nearestPlaces(to points: [Coordinate]) throws(GeoLocError) -> [PlaceMatch] {
        var out: [PlaceMatch] = []
        out.reserveCapacity(points.count)
        for p in points { out.append(try nearestPlace(to: p)) }
        return out
    }

    /// The text of the locality of each point (``reverseText(_:style:)``), in order.
    public func reverseText(_ points: [Coordinate], style: AddressStyle = .cityState) throws(GeoLocError) -> [String] {
        var out: [String] = []
        out.reserveCapacity(points.count)
        for p in points { out.append(try reverseText(p, style: style).text) }
        return out
    }

    /// The cached UTF-8 bytes of place `index`'s text as a locality (a NUL follows them in
    /// memory), valid while the gazetteer lives. `index` must be in `0..<places.count`.
    @_spi(CABI)
    @inline(__always)
    public func textBytes(_ index: Int, _ style: AddressStyle) throws(GeoLocError) -> UnsafeRawBufferPointer {
        if style == .cityState {
            // Kept in the place's record of the locality index, which the query has just read.
            return withLocalityIndex { index_ in
                texts.bytes(in: index_.textSlot(index), index, .locality(style)) { i, _ in
                    self.place(at: i, distance: 0).formatted(style)
                }
            }
        }
        return try texts.bytes(index, .locality(style)) { i, _ in self.place(at: i, distance: 0).formatted(style) }
    }

    /// The cached UTF-8 bytes of the text of a locality match: the locality's text, or with
    /// `subLocality` the sub-locality's before it, or with no locality the region and country of
    /// the nearest place (or "" beyond the country reach).
    @_spi(CABI)
    @inline(__always)
    public func textBytes(_ m: LocalityMatch, _ style: AddressStyle, subLocality: Bool) throws(GeoLocError) -> UnsafeRawBufferPointer {
        guard let locality = m.locality else {
            if !m.inCountry {
                // "" with its NUL after it (Swift's string literals are NUL-terminated).
                return UnsafeRawBufferPointer(start: UnsafeRawPointer(("" as StaticString).utf8Start), count: 0)
            }
            return try texts.bytes(m.nearest, .region) { i, _ in
                var r = self.place(at: i, distance: 0)
                r.hasLocality = false
                return r.formatted(style)
            }
        }
        if subLocality, let sub = m.subLocality {
            return try texts.bytes(sub, .subLocality(style)) { i, _ in
                let parent = self.place(at: locality, distance: 0).formatted(style)
                let name = self.places.name(at: i)
                return parent.isEmpty ? name : name + ", " + parent
            }
        }
        return try textBytes(locality, style)
    }
}

extension Gazetteer {
    /// The nearest place to each of `n` points given as 2n degrees (lat0, lon0, lat1, ...), all
    /// checked first (the message names the first bad one as `name[i]`), handed to `each` in
    /// order.
    @_spi(CABI)
    public func nearestPlaces(
        degrees p: UnsafeBufferPointer<Double>, count n: Int, name: String,
        _ each: (Int, PlaceMatch) throws(GeoLocError) -> Void
    ) throws(GeoLocError) {
        try CoordinateArray.check(p, n, name)
        for i in 0..<n {
            try each(i, try nearestPlace(to: Coordinate(checkedLatitude: p[2 * i], longitude: p[2 * i + 1])))
        }
    }

    /// The locality of each of `n` points given as 2n degrees, all checked first (as above),
    /// handed to `each` in order.
    @_spi(CABI)
    public func localities(
        degrees p: UnsafeBufferPointer<Double>, count n: Int, name: String, options: ReverseGeocodeOptions,
        _ each: (Int, LocalityMatch) throws(GeoLocError) -> Void
    ) throws(GeoLocError) {
        try options.check()
        try BatchDistance.checkPoints(p, n, name)
        guard n > 0 else { return }
        // Two points in flight: the nearest place of point i + 1 is searched before the locality
        // rule and `each` run for point i, so that what the search asks for (`nearestPlace`:
        // the nearest place's record, the point's grid cell) has arrived when the rule reads it.
        var c = Coordinate(checkedLatitude: p[0], longitude: p[1])
        var m = try nearestPlace(to: c)
        for i in 0..<n {
            var nextC = c
            var nextM = m
            if i + 1 < n {
                nextC = Coordinate(checkedLatitude: p[2 * i + 2], longitude: p[2 * i + 3])
                nextM = try nearestPlace(to: nextC)
            }
            try each(i, try locality(nearest: m, at: c, model: .sphere, options: options))
            c = nextC
            m = nextM
        }
    }
}
