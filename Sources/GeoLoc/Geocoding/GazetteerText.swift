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
    /// One slot per style (`AddressStyle.rawValue`): nil, or the style's table of `count` slots.
    private let tables: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    private static let styles = AddressStyle.allCases.count

    init(count: Int) {
        self.count = count
        tables = .allocate(capacity: PlaceTextCache.styles)
        tables.initialize(repeating: nil, count: PlaceTextCache.styles)
    }

    deinit {
        for s in 0..<PlaceTextCache.styles {
            guard let table = tables[s] else { continue }
            let slots = table.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
            for i in 0..<count { slots[i]?.deallocate() }
            free(table)
        }
        tables.deallocate()
    }

    /// The style's slot table, allocated (zeroed) by the first caller.
    @inline(__always)
    private func table(_ style: AddressStyle) -> UnsafeMutablePointer<UnsafeMutableRawPointer?>? {
        let slot = tables + Int(style.rawValue)
        if let t = glk_load_acquire(slot) { return t.assumingMemoryBound(to: UnsafeMutableRawPointer?.self) }
        guard let fresh = calloc(Swift.max(count, 1), MemoryLayout<UnsafeMutableRawPointer?>.stride) else { return nil }
        if glk_publish(slot, fresh) != 0 { return fresh.assumingMemoryBound(to: UnsafeMutableRawPointer?.self) }
        free(fresh)
        return glk_load_acquire(slot)?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    }

    /// The UTF-8 bytes (without the NUL, which follows them in memory) of place `index`'s text in
    /// `style`, formatted by `make` the first time; valid while the cache lives. `index` must be
    /// in `0..<count`. Throws `.noMemory` when a table or a text cannot be allocated.
    @inline(__always)
    func bytes(
        _ index: Int, _ style: AddressStyle, _ make: (Int, AddressStyle) -> String
    ) throws(GeoLocError) -> UnsafeRawBufferPointer {
        guard let slots = table(style) else {
            throw GeoLocError(.noMemory, "no memory for the texts of \(count) places")
        }
        let slot = slots + index
        if let block = glk_load_acquire(slot) {
            return PlaceTextCache.view(block)
        }
        return PlaceTextCache.view(fill(slot, make(index, style)))
    }

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
    /// Place `index`'s text in `style` ("Springfield, IL"): the same as
    /// `reverse(...).formatted(style)` for a point whose nearest place it is. Formatted on first
    /// use and kept (see ``reverseText(_:style:)``).
    /// - Throws: `.outOfRange` for an index outside `0..<places.count`.
    public func text(ofPlace index: Int, style: AddressStyle = .cityState) throws(GeoLocError) -> String {
        guard index >= 0 && index < places.count else {
            throw GeoLocError(.outOfRange, "place index \(index) is outside 0..<\(places.count)")
        }
        return String(decoding: try textBytes(index, style), as: UTF8.self)
    }

    /// The nearest place to `c` and its text in `style`: ``reverse(_:model:)`` then
    /// ``ReverseGeocode/formatted(_:)``, with the text formatted once per place and style and then
    /// kept for the life of the gazetteer (a query is a nearest search plus a copy). Any number of
    /// threads may call it at once on one gazetteer.
    public func reverseText(_ c: Coordinate, style: AddressStyle = .cityState) throws(GeoLocError) -> (place: PlaceMatch, text: String) {
        let m = try nearestPlace(to: c)
        return (m, String(decoding: try textBytes(m.index, style), as: UTF8.self))
    }

    /// The nearest place to each point, as ``nearestPlace(to:model:)`` gives it, in order.
    public func nearestPlaces(to points: [Coordinate]) throws(GeoLocError) -> [PlaceMatch] {
        var out: [PlaceMatch] = []
        out.reserveCapacity(points.count)
        for p in points { out.append(try nearestPlace(to: p)) }
        return out
    }

    /// The text of the nearest place to each point (``reverseText(_:style:)``), in order.
    public func reverseText(_ points: [Coordinate], style: AddressStyle = .cityState) throws(GeoLocError) -> [String] {
        var out: [String] = []
        out.reserveCapacity(points.count)
        for p in points { out.append(try reverseText(p, style: style).text) }
        return out
    }

    /// The cached UTF-8 bytes of place `index`'s text (a NUL follows them in memory), valid while
    /// the gazetteer lives. `index` must be in `0..<places.count`.
    @_spi(CABI)
    @inline(__always)
    public func textBytes(_ index: Int, _ style: AddressStyle) throws(GeoLocError) -> UnsafeRawBufferPointer {
        try texts.bytes(index, style) { i, s in self.place(at: i, distance: 0).formatted(s) }
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
}
