#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// A place set in one file, opened with mmap: the arrays of the set (its kd-tree, coordinates,
// index maps, text and attribute columns) as they are in memory, so that opening maps them
// instead of rebuilding anything, and processes that open one file share its pages.
//
// Format, version 4 (files of versions 3, 2 and 1, below, still open). Every integer
// little-endian, every float an IEEE 754 binary64 stored little-endian; the file is refused on a
// big-endian machine (GEOLOC_E_UNSUPPORTED). The header is the one every data file of the
// library starts with (Core/MappedFile.swift), checked by `MappedFile.checkHeader`.
//
//   offset  size  field
//        0     8  magic "GEOLOCPS"
//        8     4  u32 format version (4); a newer version is refused with .unsupported
//       12     4  u32 byte-order mark 0x01020304 (bytes 04 03 02 01)
//       16     4  u32 header size (128)
//       20     4  u32 leaf size of the kd-tree (1...4096)
//       24     8  u64 n, the number of places (at most maxCount)
//       32     8  u64 a, the number of attribute columns
//       40     8  u64 bytes of text (ids and names)
//       48     8  u64 bytes of the attribute-name section
//       56     8  u64 the file's size in bytes
//       64    24  f64 x 3: the low corner of the unit vectors' bounding box (x, y, z)
//       88    24  f64 x 3: the high corner
//      112     8  u64 flags: bit 0 set when ids are the places' 1-based numbers, not stored;
//                 the other bits 0
//      120     8  u64 checksum of the whole file, these 8 bytes read as 0 (`DataFileChecksum`)
//
// Then the sections, each starting at a multiple of 64 bytes (zero padding between them), their
// sizes all following from the header and the column table (m = the tree's internal nodes, from
// n and the leaf size; s = 2n strings, n with numbered ids; for attribute column c, k_c distinct
// values of t_c bytes in all, and w_c = 1 byte per value number when k_c <= 255, 2 when
// k_c <= 65535, else 4):
//   columns     a x 16  per attribute column: u64 k_c, u64 t_c (k_c <= n, t_c < 2^32)
//   latLon      n x 16  latitude, longitude f64 (degrees), in tree order
//   ids         n x 4   i32: the place index at each tree position
//   dims        m x 1   u8: a node's split dimension (0, 1, 2)
//   ends        s x 4   u32: where string j ends in the text (place i's strings are 2i id,
//                       2i + 1 name; with numbered ids i, the name)
//   text        the UTF-8 bytes of every id and name, one after another
//   then for each attribute column c, in column order:
//     numbers   n x w_c  unsigned: place i's value number, 0 when it has none, j + 1 for value j
//     valueEnds k_c x 4  u32: where value j ends in the column's values
//     values    t_c      the UTF-8 bytes of the column's distinct values, one after another
//   names       for each attribute: u32 length, then its UTF-8 bytes
//
// What follows from the rest is not stored but derived on open, into memory of the set's own
// (PlaceFileVectors.swift): the tree's points, (x, y, z) = (cos φ cos λ, cos φ sin λ, sin φ) and
// cos φ of each place, from its coordinates, by the very arithmetic that made them when the set
// was built (polynomials, no libm call: `VectorMath.latitudeCosine` and `sinPoly`); the tree position of each place (the inverse of `ids`); and each node's split gaps
// (its left half's greatest and its right half's least point along its dimension, as the build
// sets them). So a reopened set has the bits of the set that was saved and answers every query
// exactly as it did, and a vector, position or gap that disagrees with the rest can no longer be
// written into a file. Each distinct attribute value of a column is stored once (the shipped
// gazetteer's 170,391 places have 246 country names, 3,658 region names). The shipped gazetteer:
// 62 bytes a place (97 in version 2, 144 in version 1), 4.8 MB deflated (10.2 MB in version 2,
// whose vectors hardly compress).
//
// Memory: the file is mapped read-only and shared by every process that opens it; what is
// derived is the set's own, private to the process: on open 32 bytes a place and 16 a tree node
// (about 33 bytes a place; 5.6 MB for the shipped gazetteer), and the tree positions (4 bytes a
// place) on their first use (`DerivedPlaceArrays.positions`: no search needs them).
//
// Version 3 (libgeoloc 0.6) is version 4 but for the arithmetic of its tree: 0.6 built its
// vectors' x and y on libm's cos φ, so the order of its tree follows those bits (two places a last
// bit apart along a node's dimension can sit either side of the split). Opening one derives x
// and y with libm's cosine, as 0.6 did (one libm call a place), so its tree checks as it was
// built, and the fourth lane with the library's cosine, so its distances are the library's.
// Saving its set writes version 4 with the tree built anew.
//
// Version 2 stores, besides, the vectors, positions and gaps the tree was built with:
//   points      n x 32  (x, y, z, cos latitude) f64 per place, in tree order (after `columns`)
//   positions   n x 4   i32: the tree position of each place index (after `ids`)
//   gaps        m x 16  f64 pairs: a node's left half's maximum and right half's minimum of the
//                       unit vectors along the node's dimension (after `positions`)
// and is otherwise version 3. Its arrays are checked against the rest as before
// (PlaceFileCheck.swift) and kept: the positions and gaps mapped, shared, the vectors copied
// (32 bytes a place, private) with their fourth lane, libm's cos φ, replaced by the library's,
// which every distance multiplies by. Its vectors were computed with libm's sine and cosine (or
// another machine's), not this version's arithmetic, and the tree's order follows them, so x, y
// and z are kept as they are (the answers agree with the same set saved as version 4: a test
// compares both on the gazetteer).
//
// Version 1 has version 2's stored arrays and differs from it in three more places: the header's text
// (offset 40) holds the ids, the names and every attribute value; there is no column table and
// there are no column sections; after `ends` (s = n (2 + a) strings, n (1 + a) with numbered
// ids: place i's strings are i (2 + a) + f, f = 0 id, 1 name, 2 + c attribute c; with numbered
// ids i (1 + a) + f - 1) comes
//   absent      w x 8   u64 bitset (w = ceil(n a / 64)): bit i a + c set when place i has no
//                       value for attribute c
// before the text. A file of version 1 or 2 is opened as it is (mapped, not converted, but for
// the vectors' copy); saving its set writes version 4.
//
// Opening checks, before a single query can run: the magic, version, byte order and header
// size; that the file is exactly as long as the header says (a truncated file is named as such);
// the checksum over everything (a changed byte anywhere is refused); then what a query relies
// on not to read out of bounds or return something that is not a place: every index and
// position below n, every split dimension below 3, string ends that never decrease and end at
// the text's size (the same for each column's values), every value number at most its column's
// count of values, every coordinate finite and in range, `ids` a permutation (and, stored,
// `positions` its inverse), every node's gaps bounding its halves (stored: the gaps against the
// vectors; derived: halves that do not overlap) and the header's box bounding the vectors,
// attribute names valid UTF-8 and distinct.
// A file that passes answers every query exactly as the set it was saved from.

/// `open(2)` (a name of its own: inside `PlaceSet`, `open` is the set's).
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}

/// Where each section of a place file starts, from the header's counts (and, in version 2, the
/// column table's).
struct PlaceFileLayout {
    let version: UInt32
    let count: Int
    let attributes: Int
    let bucket: Int
    let internalCount: Int
    let strings: Int
    let absentWords: Int
    let textBytes: Int
    let namesBytes: Int
    let columns, points, latLon, ids, positions, gaps, dims, ends, absent, text, names, size: Int
    /// Version 2: per attribute column, its count of values, their bytes, the width of a value
    /// number, and where its three sections start.
    let valueCounts, valueBytes, widths, numbers, valueEnds, values: [Int]

    /// `nil` when a size overflows (a file that large cannot exist) or a count is out of range.
    /// `valueCounts` and `valueBytes` (version 2) have one entry per attribute column.
    init?(version: UInt32, count n: Int, attributes a: Int, numberedIDs: Bool, bucket: Int, textBytes: Int,
          namesBytes: Int, valueCounts: [Int] = [], valueBytes: [Int] = []) {
        guard version >= 1 && version <= 4, n >= 0, n <= maxCount, a >= 0, bucket >= 1, bucket <= 4096,
              textBytes >= 0, namesBytes >= 0, a <= Int(Int32.max), textBytes <= Int(UInt32.max),
              namesBytes <= Int(Int32.max)
        else { return nil }
        if version >= 2 {
            guard valueCounts.count == a, valueBytes.count == a,
                  valueCounts.allSatisfy({ $0 >= 0 && $0 <= n }), valueBytes.allSatisfy({ $0 >= 0 && $0 <= Int(UInt32.max) })
            else { return nil }
        }
        self.version = version
        count = n
        attributes = a
        self.bucket = bucket
        internalCount = UnitVectorTree.internalNodes(count: n, bucket: bucket)
        let (fields, o1) = (version == 1 ? a : 0).addingReportingOverflow(numberedIDs ? 1 : 2)
        let (s, o2) = n.multipliedReportingOverflow(by: fields)
        let (bits, o3) = n.multipliedReportingOverflow(by: version == 1 ? a : 0)
        guard !o1, !o2, !o3, s <= Int(Int32.max) * 4 else { return nil }
        strings = s
        absentWords = (bits + 63) / 64
        self.textBytes = textBytes
        self.namesBytes = namesBytes
        var at = PlaceFile.headerSize
        func section(_ bytes: Int) -> Int {
            let start = (at + 63) & ~63
            at = start + bytes
            return start
        }
        // No overflow: every size is below 2^40 here, and the columns' below 2^33 each, with at
        // most 2^31 columns.
        columns = section(version >= 2 ? 16 * a : 0)
        points = section(version <= 2 ? 32 * n : 0)
        latLon = section(16 * n)
        ids = section(4 * n)
        positions = section(version <= 2 ? 4 * n : 0)
        gaps = section(version <= 2 ? 16 * internalCount : 0)
        dims = section(internalCount)
        ends = section(4 * s)
        absent = section(8 * absentWords)
        text = section(textBytes)
        var widths: [Int] = [], numbers: [Int] = [], valueEnds: [Int] = [], values: [Int] = []
        if version >= 2 {
            widths.reserveCapacity(a)
            for c in 0..<a {
                let w = AttributeColumn.width(values: valueCounts[c])
                widths.append(w)
                numbers.append(section(w * n))
                valueEnds.append(section(4 * valueCounts[c]))
                values.append(section(valueBytes[c]))
            }
        }
        self.valueCounts = version >= 2 ? valueCounts : []
        self.valueBytes = version >= 2 ? valueBytes : []
        self.widths = widths
        self.numbers = numbers
        self.valueEnds = valueEnds
        self.values = values
        names = section(namesBytes)
        size = at
    }
}

enum PlaceFile {
    static let magic: [UInt8] = Array("GEOLOCPS".utf8)
    /// The version `save(to:)` writes; `open(_:)` reads it and every earlier one.
    static let version: UInt32 = 4
    static let headerSize = DataFileHeader.size
}

extension PlaceSet {
    /// Writes the set to one file that ``open(_:)`` maps back (see the format in PlaceFile.swift:
    /// a versioned little-endian header, the set's arrays as they are in memory, a checksum).
    ///
    /// The file is written beside `path` under a temporary name and renamed over it when
    /// complete, so a process that has an earlier file of that name open keeps reading the
    /// earlier one, unharmed, and no reader ever sees a half-written file.
    /// - Throws: `.invalidArgument` when the file cannot be written (the message has the system's
    ///   reason), `.noMemory`, `.unsupported` on a big-endian machine.
    public func save(to path: String) throws(GeoLocError) {
        #if _endian(big)
        throw GeoLocError(.unsupported, "place files are little-endian; this machine is big-endian")
        #else
        let file = try fileImage()
        defer { file.deallocate() }
        // A name of its own (random, created exclusively), so that saves to one path from several
        // threads or processes never write into each other's file; the last rename wins.
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<16 {
            temporary = path + ".tmp-\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
            fd = openFile(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 || errno != EEXIST { break }
        }
        if fd < 0 {
            throw GeoLocError(.invalidArgument, "\(path): cannot write: \(String(cString: strerror(errno)))")
        }
        var done = 0
        while done < file.count {
            let w = write(fd, file.baseAddress.unsafelyUnwrapped + done, file.count - done)
            if w < 0 {
                if errno == EINTR { continue }
                let e = errno
                close(fd)
                unlink(temporary)
                throw GeoLocError(.invalidArgument, "\(path): cannot write: \(String(cString: strerror(e)))")
            }
            done += w
        }
        if close(fd) != 0 || rename(temporary, path) != 0 {
            let e = errno
            unlink(temporary)
            throw GeoLocError(.invalidArgument, "\(path): cannot write: \(String(cString: strerror(e)))")
        }
        #endif
    }

    /// The bytes of this set as a place file of `version` 2 (its vectors stored, as libgeoloc 0.5
    /// wrote files) or 4 (what `save(to:)` writes): for tests and fuzzing of files written by an
    /// earlier version. (Not 3: a file of version 3 has a tree built on libm's cosine, which
    /// only libgeoloc 0.6 made; tests/places/numbered-v3.places is one.)
    @_spi(Testing)
    public func placeFileBytes(version: UInt32) throws(GeoLocError) -> [UInt8] {
        precondition(version == 2 || version == PlaceFile.version, "place files of version 2 or 4 only")
        let file = try fileImage(version: version)
        defer { file.deallocate() }
        return Array(file)
    }

    /// The bytes of the file `save(to:)` writes (the current version; 2 for tests). The caller
    /// deallocates.
    func fileImage(version: UInt32 = PlaceFile.version) throws(GeoLocError) -> UnsafeMutableRawBufferPointer {
        // A set opened from a version 1 file has its attributes among its strings: re-encoded.
        let source = columns.inlineAttributes ? reencodedColumns() : columns
        let d = source.data.pointee
        let a = attributeNames.count
        var names: [UInt8] = []
        for name in attributeNames {
            let u = Array(name.utf8)
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: u.count).littleEndian) { names.append(contentsOf: $0) }
            names.append(contentsOf: u)
        }
        let attributeColumns = UnsafeBufferPointer(start: d.attributeColumns, count: a)
        // A set opened from a file of version 1, 2 or 3 has the tree that file stores, built on
        // vectors of libm's arithmetic (or another machine's): saved as version 4, whose vectors
        // are derived on open by this version's arithmetic, its tree is made anew from its
        // coordinates (what building the set now makes), so that the file's gaps and box are
        // those its derived vectors give. The same places, the same answers.
        let ownTree = self.kdtree.mapping == nil || self.kdtree.derived?.treeArithmetic == .polynomial
        let kdtree = version >= 4 && !ownTree ? rebuiltTree() : self.kdtree
        guard let layout = PlaceFileLayout(
            version: version, count: count, attributes: a, numberedIDs: source.numberedIDs,
            bucket: kdtree.bucketSize, textBytes: d.bytes.count, namesBytes: names.count,
            valueCounts: attributeColumns.map { $0.values }, valueBytes: attributeColumns.map { $0.text.count })
        else { throw GeoLocError(.countTooLarge, "the set is too large for a place file") }
        precondition(layout.internalCount == kdtree.internalCount && layout.strings == d.ends.count)
        var raw: UnsafeMutableRawPointer? = nil
        guard posix_memalign(&raw, 64, layout.size) == 0, let raw else {
            throw GeoLocError(.noMemory, "no memory for a \(layout.size)-byte place file")
        }
        let file = UnsafeMutableRawBufferPointer(start: raw, count: layout.size)
        file.initializeMemory(as: UInt8.self, repeating: 0)
        func put<T: FixedWidthInteger>(_ v: T, _ at: Int) { file.storeBytes(of: v.littleEndian, toByteOffset: at, as: T.self) }
        func put(_ v: Double, _ at: Int) { put(v.bitPattern, at) }
        func copy(_ from: UnsafeRawPointer?, _ bytes: Int, _ at: Int) {
            if let from, bytes > 0 { (raw + at).copyMemory(from: from, byteCount: bytes) }
        }
        for (k, byte) in PlaceFile.magic.enumerated() { put(byte, k) }
        put(version, 8)
        put(UInt32(0x0102_0304), 12)
        put(UInt32(PlaceFile.headerSize), 16)
        put(UInt32(layout.bucket), 20)
        put(UInt64(count), 24)
        put(UInt64(a), 32)
        put(UInt64(layout.textBytes), 40)
        put(UInt64(layout.namesBytes), 48)
        put(UInt64(layout.size), 56)
        put(UInt64(source.numberedIDs ? 1 : 0), 112)
        for k in 0..<3 {
            put(kdtree.boxLow[k], 64 + 8 * k)
            put(kdtree.boxHigh[k], 88 + 8 * k)
        }
        let n = count
        // The arrays are little-endian in memory (the only byte order this writes from).
        // (Version 3 stores no vectors, tree positions or gaps: they follow from the
        // coordinates and the place at each tree position, PlaceFileVectors.swift.)
        if version == 2 { copy(kdtree.points, 32 * n, layout.points) }
        copy(kdtree.latLon, 16 * n, layout.latLon)
        copy(kdtree.ids, 4 * n, layout.ids)
        if version == 2 {
            // The tree positions, the inverse of `ids` (a file's set may have no table of them).
            for p in 0..<n { put(UInt32(truncatingIfNeeded: p), layout.positions + 4 * Int(kdtree.ids[p])) }
            copy(kdtree.gaps, 16 * layout.internalCount, layout.gaps)
        }
        copy(kdtree.dims, layout.internalCount, layout.dims)
        copy(d.ends.base, 4 * layout.strings, layout.ends)
        copy(d.bytes.base, layout.textBytes, layout.text)
        for (c, column) in attributeColumns.enumerated() {
            put(UInt64(column.values), layout.columns + 16 * c)
            put(UInt64(column.text.count), layout.columns + 16 * c + 8)
            precondition(column.width == layout.widths[c] && column.count == n)
            copy(column.numbers, layout.widths[c] * n, layout.numbers[c])
            copy(column.ends.base, 4 * column.values, layout.valueEnds[c])
            copy(column.text.base, column.text.count, layout.values[c])
        }
        names.withUnsafeBytes { copy($0.baseAddress, names.count, layout.names) }
        DataFileChecksum.seal(file)
        withExtendedLifetime(source) {}
        withExtendedLifetime(kdtree) {}
        return file
    }

    /// The set's tree made anew from its coordinates (in place order), as building the set now
    /// makes it.
    func rebuiltTree() -> UnitVectorTree {
        let n = count
        let t = kdtree
        let latLon = UnsafeMutableBufferPointer<Double>.allocate(capacity: Swift.max(2 * n, 1))
        defer { latLon.deallocate() }
        for p in 0..<n {
            let i = Int(t.ids[p])
            latLon[2 * i] = t.latLon[2 * p]
            latLon[2 * i + 1] = t.latLon[2 * p + 1]
        }
        return UnitVectorTree(latLon: UnsafeBufferPointer(rebasing: latLon[0..<(2 * n)]), bucket: t.bucketSize)
    }

    /// The set's ids, names and attributes in the current layout (attribute columns of their
    /// own), for a set whose attributes are inline (opened from a version 1 file).
    func reencodedColumns() -> PlaceColumns {
        let c = PlaceColumns(attributes: attributeNames.count, numberedIDs: columns.numberedIDs)
        for i in 0..<count {
            let id = c.numberedIDs ? UnsafeRawBufferPointer(start: nil, count: 0) : columns.utf8(stringIndex(i, 0))
            let name = columns.utf8(stringIndex(i, 1))
            c.reserve(bytes: id.count + name.count, strings: 2)
            if !c.numberedIDs { c.appendReserved(id) }
            c.appendReserved(name)
            for k in 0..<attributeNames.count { c.appendAttribute(k, columns.attributeUTF8(column: k, at: i)) }
        }
        c.data.pointee.count = count
        c.dropCoordinates()
        return c
    }

    /// Opens a file written by ``save(to:)``: maps it read-only and checks it (see the format
    /// in PlaceFile.swift), without copying or rebuilding anything. The set keeps the mapping
    /// until it is freed; many processes that open one file share its pages. The file must not
    /// be changed in place while it is open (`save(to:)` never does: it replaces the file).
    /// - Throws: `.notFound` for a missing file; `.parse` for a file that is not a place file,
    ///   is truncated or corrupted (the message says which); `.unsupported` for a newer format
    ///   version or another byte order; `.invalidArgument` for a file that cannot be read.
    public static func open(_ path: String) throws(GeoLocError) -> PlaceSet {
        let mapping = try MappedFile(path: path)
        do {
            return try PlaceSet(file: mapping)
        } catch {
            throw GeoLocError(error.code, "\(path): \(error.message)")
        }
    }

    /// A set over the bytes of a place file, copied (as ``open(_:)`` checks them).
    @_spi(Testing)
    public static func open(fileBytes bytes: UnsafeRawBufferPointer) throws(GeoLocError) -> PlaceSet {
        try PlaceSet(file: MappedFile(copying: bytes))
    }

    /// Recomputes the checksum of place-file bytes in place (for tests and fuzzing that change
    /// a file on purpose and want its other checks to run).
    @_spi(Testing)
    public static func resealPlaceFile(_ bytes: UnsafeMutableRawBufferPointer) {
        DataFileChecksum.seal(bytes)
    }

    /// Checks a mapped place file and makes a set over it.
    convenience init(file mapping: MappedFile) throws(GeoLocError) {
        #if _endian(big)
        throw GeoLocError(.unsupported, "place files are little-endian; this machine is big-endian")
        #else
        let base = mapping.base
        let size = mapping.size
        func u32(_ at: Int) -> UInt32 { UInt32(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
        func u64(_ at: Int) -> UInt64 { UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        func f64(_ at: Int) -> Double { Double(bitPattern: u64(at)) }
        let version = try mapping.checkHeader(
            magic: PlaceFile.magic, versions: 1...PlaceFile.version, sizeOffset: 56, name: "place file", plural: "place files")
        // The checksum matched: what follows guards against a file made to pass it. Every count
        // is first bounded by the file's size (no section can be larger than the file), so no
        // sum below overflows and nothing is allocated beyond the file's own measure.
        func corrupted(_ what: String) -> GeoLocError { PlaceFileCheck.corrupted(what) }
        func count(_ at: Int, _ what: String, atMost limit: Int) throws(GeoLocError) -> Int {
            let v = u64(at)
            guard v <= UInt64(limit) else { throw corrupted("\(what) (\(v)) is larger than the file could hold (\(size) bytes)") }
            return Int(v)
        }
        // (Every version stores 16 bytes of coordinates a place.)
        let n = try count(24, "its count of places", atMost: Swift.min(maxCount, size / 16))
        let a = try count(32, "its count of attribute columns", atMost: size / (version >= 2 ? 16 : 4))
        let textBytes = try count(40, "its text's size in bytes", atMost: size)
        let namesBytes = try count(48, "its attribute names' size in bytes", atMost: size)
        let flags = u64(112)
        guard flags <= 1 else { throw corrupted("unknown flags 0x\(String(flags, radix: 16)) in its header") }
        let bucket = Int(u32(20))
        guard bucket >= 1 && bucket <= 4096 else { throw corrupted("its leaf size \(bucket) is not in 1...4096") }
        // Version 2: the column table (a x 16 bytes, within the file by the bound on a).
        var valueCounts: [Int] = [], valueBytes: [Int] = []
        if version >= 2 {
            valueCounts.reserveCapacity(a)
            valueBytes.reserveCapacity(a)
            for c in 0..<a {
                let at = PlaceFile.headerSize + 16 * c
                let k = u64(at), t = u64(at + 8)
                guard k <= UInt64(n) else {
                    throw corrupted("attribute column \(c) has \(k) distinct values for \(n) places")
                }
                guard t <= UInt64(Swift.min(size, Int(UInt32.max))) else {
                    throw corrupted("the values of attribute column \(c) (\(t) bytes) are larger than the file (\(size) bytes)")
                }
                valueCounts.append(Int(k))
                valueBytes.append(Int(t))
            }
        }
        guard let layout = PlaceFileLayout(
                version: version, count: n, attributes: a, numberedIDs: flags == 1, bucket: bucket,
                textBytes: textBytes, namesBytes: namesBytes, valueCounts: valueCounts, valueBytes: valueBytes)
        else { throw corrupted("its counts (\(n) places, \(a) attribute columns) are out of range") }
        guard layout.size == size else {
            throw corrupted(
                "its counts (\(n) places, \(a) attribute columns, \(textBytes) bytes of text, \(namesBytes) bytes of "
                    + "attribute names\(version >= 2 && a > 0 ? ", the column table's sizes" : "")) make a file of "
                    + "\(layout.size) bytes, not \(size)")
        }
        // Versions 3 and 4 store neither the unit vectors nor the tree positions and gaps: they
        // are derived, into memory of the set's own (the vectors and gaps by the tree's check,
        // the positions on their first use). Versions 1 and 2 keep theirs, checked.
        var derived: DerivedPlaceArrays? = nil
        let arithmetic: PlaceVectors.Arithmetic = version == 3 ? .libmCosine : .polynomial
        if version >= 3 {
            guard let memory = DerivedPlaceArrays(count: n, internalCount: layout.internalCount, treeArithmetic: arithmetic) else {
                throw GeoLocError(.noMemory, "no memory for the unit vectors of \(n) places")
            }
            derived = memory
        }
        let ids = base.advanced(by: layout.ids).assumingMemoryBound(to: Int32.self)
        // Versions 1 and 2 store the positions; 3 and 4 make them on first use (from `ids`,
        // checked right below to be a permutation: `DerivedPlaceArrays.positions`).
        let positions: UnsafePointer<Int32>? = derived == nil
            ? base.advanced(by: layout.positions).assumingMemoryBound(to: Int32.self) : nil
        let n32 = UInt32(truncatingIfNeeded: n)
        var bad: UInt32 = 0
        for p in 0..<n { bad |= UInt32(bitPattern: ids[p]) >= n32 ? 1 : 0 }
        if let positions {
            for p in 0..<n { bad |= UInt32(bitPattern: positions[p]) >= n32 ? 1 : 0 }
        }
        if bad != 0 {
            for p in 0..<n where UInt32(bitPattern: ids[p]) >= n32 {
                throw corrupted("the place index at tree position \(p) (\(ids[p])) is out of range (\(n) places)")
            }
            if let positions {
                for i in 0..<n where UInt32(bitPattern: positions[i]) >= n32 {
                    throw corrupted("the tree position of place \(i) (\(positions[i])) is out of range (\(n) places)")
                }
            }
        }
        if derived != nil { try PlaceFileCheck.permutation(ids, count: n) }
        let dims = base.advanced(by: layout.dims).assumingMemoryBound(to: UInt8.self)
        var badDim: UInt8 = 0
        for k in 0..<layout.internalCount { badDim |= dims[k] > 2 ? 1 : 0 }
        if badDim != 0 {
            for k in 0..<layout.internalCount where dims[k] > 2 {
                throw corrupted("node \(k) of the index splits along dimension \(dims[k]), not 0, 1 or 2")
            }
        }
        let ends = base.advanced(by: layout.ends).assumingMemoryBound(to: UInt32.self)
        var previous: UInt32 = 0
        var decreasing: UInt32 = 0
        for j in 0..<layout.strings {
            let e = ends[j]
            decreasing |= e < previous ? 1 : 0
            previous = e
        }
        if decreasing != 0 {
            var last: UInt32 = 0
            for j in 0..<layout.strings {
                if ends[j] < last { throw corrupted("the text's offsets are out of order (string \(j) ends at \(ends[j]), before \(last))") }
                last = ends[j]
            }
        }
        guard Int(previous) == textBytes || (layout.strings == 0 && textBytes == 0) else {
            throw corrupted("the text's offsets are out of order (its last string ends at \(previous), its text has \(textBytes) bytes)")
        }
        let latLon = base.advanced(by: layout.latLon).assumingMemoryBound(to: Double.self)
        /// Every coordinate in range (a file of version 3 or 4: checked by the derivation on the
        /// way, which calls this when one is not, before the tree's check reports anything).
        func coordinates() throws(GeoLocError) {
            var outside: UInt8 = 0
            for p in 0..<n {
                let lat = latLon[2 * p], lon = latLon[2 * p + 1]
                // NaN fails every comparison, so it is outside too. (No short circuit: one pass
                // without a branch per place.)
                outside |= (lat >= -90 ? 0 : 1) | (lat <= 90 ? 0 : 1) | (lon >= -180 ? 0 : 1) | (lon < 180 ? 0 : 1)
            }
            if outside != 0 {
                for p in 0..<n where !(latLon[2 * p] >= -90 && latLon[2 * p] <= 90 && latLon[2 * p + 1] >= -180 && latLon[2 * p + 1] < 180) {
                    throw corrupted(
                        "a coordinate is out of range (\(show(latLon[2 * p])), \(show(latLon[2 * p + 1])) at tree position \(p), place \(ids[p]))")
                }
            }
        }
        if derived == nil { try coordinates() }
        if let positions { try PlaceFileCheck.indexMaps(ids: ids, positions: positions, count: n) }
        var names: [String] = []
        var at = layout.names
        let namesEnd = layout.names + namesBytes
        for _ in 0..<a {
            guard at + 4 <= namesEnd else { throw corrupted("the attribute names are cut short (\(names.count) of \(a))") }
            let length = Int(u32(at))
            at += 4
            guard length <= namesEnd - at,
                  let name = String(validating: UnsafeRawBufferPointer(start: base + at, count: length), as: UTF8.self)
            else {
                throw corrupted(length > namesEnd - at
                    ? "attribute name \(names.count) (\(length) bytes) runs past the end of the names section"
                    : "attribute name \(names.count) is not valid UTF-8")
            }
            guard !name.utf8.contains(0) else {
                throw PlaceFileCheck.corrupted("attribute name \(names.count) holds a NUL byte")
            }
            names.append(name)
            at += length
        }
        guard at == namesEnd else { throw corrupted("\(namesEnd - at) bytes after the attribute names") }
        let columnOf: [String: Int]
        do {
            columnOf = try PlaceSet.columnIndex(names)
        } catch {
            throw GeoLocError(.parse, "corrupted place file: \(error.message)")
        }
        var low = SIMD4<Double>.zero, high = SIMD4<Double>.zero
        for k in 0..<3 {
            low[k] = f64(64 + 8 * k)
            high[k] = f64(88 + 8 * k)
        }
        let gaps = derived.map { UnsafePointer($0.gaps) } ?? base.advanced(by: layout.gaps).assumingMemoryBound(to: Double.self)
        var tree = UnitVectorTree(
            count: n, bucket: layout.bucket, internalCount: layout.internalCount, boxLow: low, boxHigh: high,
            points: derived.map { UnsafePointer($0.points) }
                ?? base.advanced(by: layout.points).assumingMemoryBound(to: SIMD4<Double>.self),
            latLon: latLon, ids: ids, positions: positions, gaps: gaps, dims: dims, mapping: mapping, derived: derived)
        try PlaceFileCheck.tree(tree, derive: derived != nil, arithmetic: arithmetic, coordinates: coordinates)
        if derived == nil {
            // Versions 1 and 2: the stored vectors (checked) keep the tree they were built with;
            // their fourth lane, libm's cosine, becomes the library's, which the queries'
            // distances multiply by (`geoloc_distance`'s, to the bit). 32 bytes a place.
            guard let memory = DerivedPlaceArrays(count: n, internalCount: 0, treeArithmetic: nil) else {
                throw GeoLocError(.noMemory, "no memory for the unit vectors of \(n) places")
            }
            let d2r = Double.pi / 180
            for p in 0..<n {
                var v = tree.points[p]
                v.w = VectorMath.latitudeCosine(latLon[2 * p] * d2r)
                memory.points[p] = v
            }
            tree = UnitVectorTree(
                count: n, bucket: layout.bucket, internalCount: layout.internalCount, boxLow: low, boxHigh: high,
                points: UnsafePointer(memory.points), latLon: latLon, ids: ids, positions: positions, gaps: gaps, dims: dims,
                mapping: mapping, derived: memory)
        }
        // The ids and names (version 1: and the attribute values), each valid UTF-8 without a NUL.
        let numbered = u64(112) == 1
        let perPlace = (numbered ? 1 : 2) + (version == 1 ? a : 0)
        try PlaceFileCheck.strings(
            base.advanced(by: layout.text).assumingMemoryBound(to: UInt8.self), count: textBytes, ends: ends,
            strings: layout.strings
        ) { j in
            let f = j % perPlace + (numbered ? 1 : 0)
            let place = j / perPlace
            switch f {
            case 0: return "the id of place \(place)"
            case 1: return "the name of place \(place)"
            default: return "the value of attribute \(quote(names[f - 2])) of place \(place)"
            }
        }
        var attributeColumns: [AttributeColumn]? = nil
        if version >= 2 {
            var columns: [AttributeColumn] = []
            columns.reserveCapacity(a)
            for c in 0..<a {
                let k = layout.valueCounts[c], w = layout.widths[c]
                let numbers = base + layout.numbers[c]
                var most = 0
                switch w {
                case 1: for i in 0..<n { most = Swift.max(most, Int(numbers.load(fromByteOffset: i, as: UInt8.self))) }
                case 2: for i in 0..<n { most = Swift.max(most, Int(numbers.load(fromByteOffset: 2 * i, as: UInt16.self))) }
                default: for i in 0..<n { most = Swift.max(most, Int(numbers.load(fromByteOffset: 4 * i, as: UInt32.self))) }
                }
                guard most <= k else {
                    throw corrupted("a value number of attribute column \(c) (\(most)) is out of range (\(k) values)")
                }
                let valueEnds = base.advanced(by: layout.valueEnds[c]).assumingMemoryBound(to: UInt32.self)
                var last: UInt32 = 0
                var down: UInt32 = 0
                for j in 0..<k {
                    down |= valueEnds[j] < last ? 1 : 0
                    last = valueEnds[j]
                }
                guard down == 0, Int(last) == layout.valueBytes[c] || (k == 0 && layout.valueBytes[c] == 0) else {
                    throw corrupted(
                        "the values of attribute column \(c) are out of order (their ends decrease or the last, \(last), is not its "
                            + "\(layout.valueBytes[c]) bytes)")
                }
                try PlaceFileCheck.strings(
                    base.advanced(by: layout.values[c]).assumingMemoryBound(to: UInt8.self), count: layout.valueBytes[c],
                    ends: valueEnds, strings: k
                ) { j in "value \(j) of attribute \(quote(names[c]))" }
                columns.append(AttributeColumn(
                    viewingText: base.advanced(by: layout.values[c]).assumingMemoryBound(to: UInt8.self),
                    textBytes: layout.valueBytes[c], ends: valueEnds, values: k, numbers: numbers, width: w, count: n))
            }
            attributeColumns = columns
        }
        let columns = PlaceColumns(
            attributes: a, numberedIDs: u64(112) == 1, count: n, bytes: base.advanced(by: layout.text).assumingMemoryBound(to: UInt8.self),
            byteCount: textBytes, ends: ends, strings: layout.strings,
            absent: base.advanced(by: layout.absent).assumingMemoryBound(to: UInt64.self),
            absentWords: layout.absentWords, attributeColumns: attributeColumns, mapping: mapping)
        self.init(attributeNames: names, columnOf: columnOf, columns: columns, kdtree: tree)
        #endif
    }
}
