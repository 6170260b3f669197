#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One place: a coordinate, an id, a name and string attributes.
public struct Place: Sendable, Equatable {
    public var coordinate: Coordinate
    /// The caller's identifier (a GeoNames id, a Places API id, ...). Need not be unique.
    public var id: String
    public var name: String
    /// Named string attributes ("admin1", "cc", ...). A place set stores one column per name.
    public var attributes: [String: String]

    public init(coordinate: Coordinate, id: String, name: String = "", attributes: [String: String] = [:]) {
        self.coordinate = coordinate
        self.id = id
        self.name = name
        self.attributes = attributes
    }
}

/// A query result: the place's index in the set and its distance from the query point, in the
/// unit asked for.
public struct PlaceMatch: Sendable, Equatable {
    /// The place's index in its `PlaceSet` (the order the places were appended in).
    public var index: Int
    /// The distance from the query point, in the unit of the query (0 for unsorted region results).
    public var distance: Double

    public init(index: Int, distance: Double) {
        self.index = index
        self.distance = distance
    }
}

/// Collects places, then builds an immutable, indexed `PlaceSet`.
///
/// Storage is columnar: one UTF-8 byte arena for the ids and names, with one 32-bit end offset
/// per string; each attribute column keeps its distinct values once and a value number per place
/// (`AttributeColumn`: 1, 2 or 4 bytes a place once built); coordinates as packed doubles.
/// Appending copies bytes into the arena and allocates nothing per place (the buffers grow
/// geometrically; `reserveCapacity` avoids even that). A builder is a value: a copy appends on
/// its own columns (copied on its first append).
///
/// Limits: at most `maxCount` places and 4 GiB of text (`.countTooLarge` beyond).
public struct PlaceSetBuilder {
    /// The attribute columns, in the order `append` takes their values.
    public let attributeNames: [String]
    /// The number of places appended so far.
    public var count: Int { columns.count }

    var columns: PlaceColumns

    /// Starts an empty builder with these attribute columns.
    ///
    /// Duplicate names are kept here and rejected by `build()` with `.invalidArgument`.
    public init(attributeNames: [String] = []) {
        self.attributeNames = attributeNames
        columns = PlaceColumns(attributes: attributeNames.count)
    }

    /// A builder whose places' ids are their 1-based numbers ("1", "2", ...), not stored: the
    /// `id` given to `append` is ignored. (The C door's sets made without ids.)
    @_spi(CABI)
    public init(attributeNames: [String] = [], numberedIDs: Bool) {
        self.attributeNames = attributeNames
        columns = PlaceColumns(attributes: attributeNames.count, numberedIDs: numberedIDs)
    }

    /// Makes room for `n` places in all without regrowing (text is estimated at 12 bytes per
    /// string).
    public mutating func reserveCapacity(_ n: Int) {
        guard n > 0, n <= maxCount else { return }
        let (strings, overflow) = n.multipliedReportingOverflow(by: columns.stringsPerPlace)
        guard !overflow, strings <= Int(UInt32.max) else { return }
        unique()
        columns.data.pointee.latLon.reserve(2 * n)
        columns.reserve(bytes: Swift.min(strings * 12, Int(UInt32.max)), strings: strings)
        for c in 0..<columns.attributes { columns.data.pointee.attributeColumns[c].reserve(n) }
    }

    /// Appends one place.
    /// - Parameters:
    ///   - attributes: one value per `attributeNames` entry, in that order; `nil` = absent.
    /// - Throws: `.invalidArgument` if `attributes.count != attributeNames.count`;
    ///   `.countTooLarge` beyond `maxCount` places or 4 GiB of text. Nothing is appended then.
    public mutating func append(
        _ coordinate: Coordinate, id: String, name: String, attributes: [String?]
    ) throws(GeoLocError) {
        try checkAttributeCount(attributes.count)
        var bytes = id.utf8.count + name.utf8.count
        for value in attributes { bytes += value?.utf8.count ?? 0 }
        unique()
        let c = columns
        try c.checkRoom(bytes)
        if !c.numberedIDs { c.append(id) }
        c.append(name)
        for (k, value) in attributes.enumerated() {
            if var value {
                value.withUTF8 { c.appendAttribute(k, UnsafeRawBufferPointer($0)) }
            } else {
                c.appendAttribute(k, nil)
            }
        }
        c.appendPoint(coordinate)
    }

    /// Appends one place from raw UTF-8 bytes (the loaders' fast path: no `String`s are made).
    ///
    /// The bytes are copied. They are not checked: the caller has validated them (invalid UTF-8
    /// is read back with U+FFFD replacements, it never traps).
    /// - Parameters:
    ///   - attributes: one buffer per attribute column; a `nil` entry is an absent value, an empty
    ///     buffer an empty one.
    /// - Throws: as `append(_:id:name:attributes:)`.
    public mutating func append(
        _ coordinate: Coordinate, id: UnsafeRawBufferPointer, name: UnsafeRawBufferPointer,
        attributes: UnsafeBufferPointer<UnsafeRawBufferPointer?>
    ) throws(GeoLocError) {
        try checkAttributeCount(attributes.count)
        var bytes = id.count + name.count
        for value in attributes { bytes += value?.count ?? 0 }
        unique()
        let c = columns
        try c.checkRoom(bytes)
        c.reserve(bytes: bytes, strings: 2)
        if !c.numberedIDs { c.appendReserved(id) }
        c.appendReserved(name)
        for k in 0..<attributes.count { c.appendAttribute(k, attributes[k]) }
        c.appendPoint(coordinate)
    }

    /// Builds the indexed set (its kd-tree).
    /// - Throws: `.invalidArgument` for duplicate attribute names.
    public consuming func build() throws(GeoLocError) -> PlaceSet {
        unique()
        return try PlaceSet(attributeNames: attributeNames, columns: columns)
    }

    // MARK: internals

    /// Copies the columns if another builder shares them (value semantics).
    @inline(__always)
    mutating func unique() {
        if !isKnownUniquelyReferenced(&columns) { columns = columns.copy() }
    }

    func checkAttributeCount(_ n: Int) throws(GeoLocError) {
        guard n == attributeNames.count else {
            throw GeoLocError(
                .invalidArgument,
                "\(n) attribute values given for \(attributeNames.count) attribute names")
        }
    }
}

/// A growable buffer of trivial values, owned by a `PlaceColumns`.
struct GrowableBuffer<Element> {
    var base: UnsafeMutablePointer<Element>
    var count = 0
    var capacity: Int

    init(capacity: Int = 16) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    /// A full, read-only view of memory the buffer does not own (never grown nor freed).
    init(viewing memory: UnsafePointer<Element>, count: Int) {
        base = UnsafeMutablePointer(mutating: memory)
        self.count = count
        capacity = count
    }

    func copy() -> GrowableBuffer {
        var c = GrowableBuffer(capacity: Swift.max(count, 16))
        c.base.initialize(from: base, count: count)
        c.count = count
        return c
    }

    func deallocate() { base.deallocate() }

    /// Makes room for `extra` more elements.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    mutating func grow(to n: Int) {
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: Swift.max(n, 2 * capacity))
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = Swift.max(n, 2 * capacity)
    }

    @inline(__always)
    mutating func append(_ x: Element) {
        if count == capacity { grow(to: count + 1) }
        base[count] = x
        count += 1
    }
}

/// The columns of places being collected, then of a place set (which takes them over).
///
/// Two layouts: the ids and names in one text arena with attribute columns of their own
/// (`AttributeColumn`: each distinct value once) -- what a builder makes and a place file of
/// version 2 holds; or, for a place file of version 1 (opened as it is, never converted), every
/// attribute value among the place's strings in the arena, with a bitset of absent values.
///
/// The buffers live in a struct behind a pointer, not in the class's stored properties: the
/// class's `var`s would cost a dynamic exclusivity check on every access.
final class PlaceColumns {
    struct Data {
        var count = 0
        /// Every string's UTF-8 bytes, one after another.
        var bytes = GrowableBuffer<UInt8>(capacity: 256)
        /// `ends[j]` is where string `j` ends in `bytes`; it starts at `ends[j - 1]` (0 for the
        /// first). Place `i`'s strings are `j = i * stringsPerPlace + f`: f = 0 id, 1 name (one
        /// fewer with numbered ids), then, in the inline layout, 2 + c attribute c.
        var ends = GrowableBuffer<UInt32>(capacity: 64)
        /// Inline layout only: bit `i * attributes + c` is set when place `i` has no value for
        /// attribute `c` (words past the end are all zero).
        var absent = GrowableBuffer<UInt64>(capacity: 1)
        /// `[lat0, lon0, lat1, lon1, ...]`, longitudes already in [-180, 180).
        var latLon = GrowableBuffer<Double>(capacity: 32)
        /// The attribute columns (`attributes` of them; none in the inline layout).
        var attributeColumns: UnsafeMutablePointer<AttributeColumn>
    }

    let attributes: Int
    /// Whether ids are the places' 1-based numbers, not stored (then a place's strings are its
    /// name and attributes only).
    let numberedIDs: Bool
    /// Whether attribute values are among the places' strings (a version 1 place file).
    let inlineAttributes: Bool
    /// The strings stored per place: id (unless numbered), name, and the attributes when inline.
    var stringsPerPlace: Int { (numberedIDs ? 1 : 2) + (inlineAttributes ? attributes : 0) }
    let data: UnsafeMutablePointer<Data>
    /// The file the text lives in, for a set opened from one; `nil` when the buffers are ours.
    let mapping: MappedFile?

    init(attributes: Int, numberedIDs: Bool = false) {
        self.attributes = attributes
        self.numberedIDs = numberedIDs
        inlineAttributes = false
        data = .allocate(capacity: 1)
        let columns = UnsafeMutablePointer<AttributeColumn>.allocate(capacity: Swift.max(attributes, 1))
        for c in 0..<attributes { (columns + c).initialize(to: AttributeColumn()) }
        data.initialize(to: Data(attributeColumns: columns))
        mapping = nil
    }

    /// Columns over text that lives in a mapped file (checked by `PlaceFile`: `ends` never
    /// decrease and the last is `byteCount`). Read-only: never appended to. `attributeColumns`
    /// views the file's columns (version 2); with `nil`, the attributes are inline (version 1).
    init(
        attributes: Int, numberedIDs: Bool, count: Int, bytes: UnsafePointer<UInt8>, byteCount: Int,
        ends: UnsafePointer<UInt32>, strings: Int, absent: UnsafePointer<UInt64>, absentWords: Int,
        attributeColumns: [AttributeColumn]?, mapping: MappedFile
    ) {
        self.attributes = attributes
        self.numberedIDs = numberedIDs
        inlineAttributes = attributeColumns == nil
        self.mapping = mapping
        data = .allocate(capacity: 1)
        let columns = UnsafeMutablePointer<AttributeColumn>.allocate(capacity: Swift.max(attributeColumns?.count ?? 0, 1))
        for (c, column) in (attributeColumns ?? []).enumerated() { (columns + c).initialize(to: column) }
        data.initialize(to: Data(
            count: count,
            bytes: GrowableBuffer(viewing: bytes, count: byteCount),
            ends: GrowableBuffer(viewing: ends, count: strings),
            absent: GrowableBuffer(viewing: absent, count: absentWords),
            latLon: GrowableBuffer(capacity: 1),
            attributeColumns: columns))
    }

    deinit {
        let d = data.pointee
        if mapping == nil {
            d.bytes.deallocate()
            d.ends.deallocate()
            d.absent.deallocate()
            for c in 0..<attributes { d.attributeColumns[c].deallocate() }
        }
        if !inlineAttributes { d.attributeColumns.deinitialize(count: attributes) }
        d.attributeColumns.deallocate()
        d.latLon.deallocate()
        data.deinitialize(count: 1)
        data.deallocate()
    }

    var count: Int { data.pointee.count }

    func copy() -> PlaceColumns {
        precondition(!inlineAttributes, "only a builder's columns are copied")
        let c = PlaceColumns(attributes: attributes, numberedIDs: numberedIDs)
        let d = data.pointee
        let e = c.data.pointee
        e.bytes.deallocate()
        e.ends.deallocate()
        e.absent.deallocate()
        e.latLon.deallocate()
        for k in 0..<attributes {
            e.attributeColumns[k].deallocate()
            e.attributeColumns[k] = d.attributeColumns[k].copy()
        }
        c.data.pointee = Data(
            count: d.count, bytes: d.bytes.copy(), ends: d.ends.copy(), absent: d.absent.copy(), latLon: d.latLon.copy(),
            attributeColumns: e.attributeColumns)
        return c
    }

    /// Frees the coordinates (the kd-tree keeps its own copy) and ends appending: the attribute
    /// columns' numbers narrowed, their hash tables freed.
    func dropCoordinates() {
        data.pointee.latLon.deallocate()
        data.pointee.latLon = GrowableBuffer(capacity: 1)
        if !inlineAttributes {
            for c in 0..<attributes { data.pointee.attributeColumns[c].freeze() }
        }
    }

    func checkRoom(_ n: Int) throws(GeoLocError) {
        if data.pointee.count >= maxCount {
            throw GeoLocError(.countTooLarge, "a place set holds at most \(maxCount) places")
        }
        var most = data.pointee.bytes.count
        for c in 0..<attributes { most = Swift.max(most, data.pointee.attributeColumns[c].text.count) }
        if most + n > Int(UInt32.max) {
            throw GeoLocError(.countTooLarge, "a place set holds at most 4 GiB of text")
        }
    }

    func append(_ s: String) {
        let n = s.utf8.count
        data.pointee.bytes.reserve(n)
        let to = data.pointee.bytes.base + data.pointee.bytes.count
        let done: Bool? = s.utf8.withContiguousStorageIfAvailable { u in
            if let from = u.baseAddress { to.initialize(from: from, count: n) }
            return true
        }
        if done == nil {
            var k = 0
            for byte in s.utf8 {
                to[k] = byte
                k += 1
            }
        }
        data.pointee.bytes.count += n
        data.pointee.ends.append(UInt32(truncatingIfNeeded: data.pointee.bytes.count))
    }

    /// Reserves room for `bytes` more bytes and `strings` more strings.
    @inline(__always)
    func reserve(bytes: Int, strings: Int) {
        data.pointee.bytes.reserve(bytes)
        data.pointee.ends.reserve(strings)
    }

    /// Appends bytes for which `reserve` made room.
    @inline(__always)
    func appendReserved(_ b: UnsafeRawBufferPointer) {
        let d = data
        var n = d.pointee.bytes.count
        if let from = b.baseAddress, b.count > 0 {
            UnsafeMutableRawPointer(d.pointee.bytes.base + n).copyMemory(from: from, byteCount: b.count)
            n += b.count
            d.pointee.bytes.count = n
        }
        d.pointee.ends.base[d.pointee.ends.count] = UInt32(truncatingIfNeeded: n)
        d.pointee.ends.count += 1
    }

    /// Appends the next place's value of attribute column `c` (`nil`: none).
    @inline(__always)
    func appendAttribute(_ c: Int, _ value: UnsafeRawBufferPointer?) {
        data.pointee.attributeColumns[c].append(value)
    }

    @inline(__always)
    func appendPoint(_ c: Coordinate) {
        let d = data
        d.pointee.latLon.reserve(2)
        let k = d.pointee.latLon.count
        d.pointee.latLon.base[k] = c.latitude
        d.pointee.latLon.base[k + 1] = c.longitude
        d.pointee.latLon.count = k + 2
        d.pointee.count += 1
    }

    /// String `j` as bytes (valid while the columns live).
    @inline(__always)
    func utf8(_ j: Int) -> UnsafeRawBufferPointer {
        let ends = data.pointee.ends.base
        let start = j == 0 ? 0 : Int(ends[j - 1])
        return UnsafeRawBufferPointer(start: data.pointee.bytes.base + start, count: Int(ends[j]) - start)
    }

    /// String `j` as text.
    func string(_ j: Int) -> String {
        let u = utf8(j)
        return String(decoding: u.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
    }

    /// Where field `f` of place `index` is among the stored strings (f = 0 id, 1 name, 2 + c
    /// attribute c when inline; not for a numbered id).
    @inline(__always)
    func stringIndex(_ index: Int, _ f: Int) -> Int {
        index * stringsPerPlace + f - (numberedIDs ? 1 : 0)
    }

    /// The bytes of attribute `c` of place `index`, `nil` when it has none (valid while the
    /// columns live).
    @inline(__always)
    func attributeUTF8(column c: Int, at index: Int) -> UnsafeRawBufferPointer? {
        if inlineAttributes {
            let bit = index * attributes + c
            let word = bit >> 6
            let absent = data.pointee.absent
            if word < absent.count && absent.base[word] & (1 << UInt64(bit & 63)) != 0 { return nil }
            return utf8(stringIndex(index, 2 + c))
        }
        return data.pointee.attributeColumns[c].value(at: index)
    }
}

/// An immutable, indexed set of places; safe to query from many threads at once.
///
/// Indexes are `Int`s from 0 in append order. One index serves every query: a static kd-tree
/// over the places' unit vectors (`UnitVectorTree`), flat and pointer-free, which answers exact
/// k-nearest searches (`nearest`), radius searches (`within`, as chord-range searches) and the
/// envelope step of regions (`inside`, as a unit-vector box search); it keeps the coordinates in
/// its own, spatially coherent order (with each place's unit vector and cos(latitude)), so a
/// search reads its candidates from a few cache lines. GEOS is used for regions only (their
/// prepared polygons).
///
/// Memory: 57 bytes a place for the coordinates and the index (unit vector and cosine 32,
/// latitude/longitude 16, index maps 8, nodes about 1.5), plus the id and name (4 bytes of
/// offset per string and the UTF-8 bytes themselves) and, per attribute, a value number of 1, 2
/// or 4 bytes (by the column's count of distinct values), each distinct value stored once. A set
/// saved with `save(to:)` and opened with
/// `open(_:)` maps the same arrays from the file, read-only: nothing is copied or rebuilt, and
/// processes that open one file share its pages.
///
/// Concurrency: queries only read the set and take no lock (`within`, `nearest` and the tree
/// walk of `inside`). Regions' point tests make GEOS point geometries, and GEOS 3.11 changes one
/// shared value whenever a geometry is made or destroyed (the reference count of its default
/// geometry factory, whatever the context): those calls (in `inside` and `Region.contains`, and
/// when regions and contexts are made) run under one process-wide mutex (`GEOSFactoryLock`).
public final class PlaceSet: @unchecked Sendable {
    /// The seed app's search radius presets, in miles.
    public static let radiusPresetsMiles: [Double] = [1, 2, 5, 10, 20, 50]

    /// The number of places.
    public let count: Int
    /// The attribute columns, in column order.
    public let attributeNames: [String]
    let columnOf: [String: Int]
    let fields: Int
    /// Ids, names and attribute values (the builder's, taken over, or a file's).
    let columns: PlaceColumns
    /// The index, which also holds the coordinates (in its own order).
    let kdtree: UnitVectorTree

    convenience init(attributeNames: [String], columns: PlaceColumns) throws(GeoLocError) {
        let columnOf = try PlaceSet.columnIndex(attributeNames)
        let kdtree = UnitVectorTree(latLon: UnsafeBufferPointer(start: columns.data.pointee.latLon.base, count: 2 * columns.count))
        columns.dropCoordinates()
        self.init(attributeNames: attributeNames, columnOf: columnOf, columns: columns, kdtree: kdtree)
    }

    /// A set over columns and a tree that are already made (a file's).
    init(attributeNames: [String], columnOf: [String: Int], columns: PlaceColumns, kdtree: UnitVectorTree) {
        count = columns.count
        self.attributeNames = attributeNames
        self.columnOf = columnOf
        fields = 2 + attributeNames.count
        self.columns = columns
        self.kdtree = kdtree
    }

    /// The column of each name; `.invalidArgument` for a name given twice.
    static func columnIndex(_ attributeNames: [String]) throws(GeoLocError) -> [String: Int] {
        var byName: [String: Int] = [:]
        for (c, name) in attributeNames.enumerated() {
            if byName.updateValue(c, forKey: name) != nil {
                throw GeoLocError(.invalidArgument, "attribute name \(quote(name)) appears twice")
            }
        }
        return byName
    }

    /// A set of these places, indexed in array order. The attribute columns are the union of
    /// the places' attribute keys, sorted by UTF-8 byte order.
    public convenience init(_ places: [Place]) throws(GeoLocError) {
        var keys = Set<String>()
        for p in places { keys.formUnion(p.attributes.keys) }
        let names = keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var b = PlaceSetBuilder(attributeNames: names)
        b.reserveCapacity(places.count)
        for p in places {
            try b.append(p.coordinate, id: p.id, name: p.name, attributes: names.map { p.attributes[$0] })
        }
        try self.init(attributeNames: names, columns: b.columns)
    }

    // MARK: reading places

    /// Place `index` with all its fields. Precondition: `0 <= index < count`.
    public subscript(index: Int) -> Place {
        precondition(index >= 0 && index < count, "place index \(index) is out of range 0..<\(count)")
        var attributes: [String: String] = [:]
        for (c, name) in attributeNames.enumerated() {
            if let v = attribute(column: c, at: index) { attributes[name] = v }
        }
        return Place(coordinate: coordinate(at: index), id: id(at: index), name: name(at: index), attributes: attributes)
    }

    /// The coordinate of place `index`. Precondition: `0 <= index < count`.
    public func coordinate(at index: Int) -> Coordinate {
        precondition(index >= 0 && index < count, "place index \(index) is out of range 0..<\(count)")
        let p = kdtree.position(of: index)
        return Coordinate(checkedLatitude: kdtree.latLon[2 * p], longitude: kdtree.latLon[2 * p + 1])
    }

    /// The id of place `index`. Precondition: `0 <= index < count`.
    public func id(at index: Int) -> String {
        precondition(index >= 0 && index < count, "place index \(index) is out of range 0..<\(count)")
        if columns.numberedIDs { return String(index + 1) }
        return columns.string(stringIndex(index, 0))
    }

    /// Where field `f` (0 id, 1 name) of place `index` is among the stored strings (not for a
    /// numbered id).
    @inline(__always)
    func stringIndex(_ index: Int, _ f: Int) -> Int {
        columns.stringIndex(index, f)
    }

    /// The name of place `index`. Precondition: `0 <= index < count`.
    public func name(at index: Int) -> String {
        precondition(index >= 0 && index < count, "place index \(index) is out of range 0..<\(count)")
        return columns.string(stringIndex(index, 1))
    }

    /// The value of attribute `name` of place `index`, `nil` when the place has none or the set
    /// has no such column. Precondition: `0 <= index < count`.
    public func attribute(_ name: String, at index: Int) -> String? {
        guard let c = columnOf[name] else {
            precondition(index >= 0 && index < count, "place index \(index) is out of range 0..<\(count)")
            return nil
        }
        return attribute(column: c, at: index)
    }

    /// The value of attribute column `column` of place `index`, `nil` when absent.
    /// Preconditions: `0 <= index < count`, `0 <= column < attributeNames.count`.
    public func attribute(column: Int, at index: Int) -> String? {
        precondition(index >= 0 && index < count, "place index \(index) is out of range 0..<\(count)")
        precondition(column >= 0 && column < attributeNames.count, "attribute column \(column) is out of range")
        return withExtendedLifetime(columns) {
            columns.attributeUTF8(column: column, at: index).map {
                String(decoding: $0.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
            }
        }
    }

    /// The column of attribute `name`, `nil` if the set has none of that name.
    public func index(ofAttribute name: String) -> Int? {
        columnOf[name]
    }

    /// The UTF-8 bytes of field `f` of place `index` (0 id, 1 name, 2 + c attribute c), for the
    /// C door: `body` gets an empty buffer for an empty or absent value. Preconditions as the
    /// accessors'.
    @_spi(CABI)
    public func withUTF8<R>(field f: Int, at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        precondition(index >= 0 && index < count, "place index \(index) is out of range 0..<\(count)")
        precondition(f >= 0 && f < fields, "field \(f) is out of range")
        if f == 0 && columns.numberedIDs {
            var id = String(index + 1)
            return try id.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        }
        return try withExtendedLifetime(columns) {
            if f >= 2 {
                return try body(columns.attributeUTF8(column: f - 2, at: index) ?? UnsafeRawBufferPointer(start: nil, count: 0))
            }
            return try body(columns.utf8(stringIndex(index, f)))
        }
    }
}
