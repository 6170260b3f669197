#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The time-zone map in one file, opened with mmap: which IANA zone holds each point of the
// Earth, exact to the boundary polygons it was built from (timezone-boundary-builder, through
// tools/gen_timezones.py). Processes that open one file share its pages; nothing is parsed or
// rebuilt when it opens.
//
// Coordinates. A point is looked up on timezonefinder's grid: x = trunc(longitude * 1e7) +
// 1,800,000,000 and y = trunc(latitude * 1e7) + 900,000,000 (units of 1e-7 degree, truncated
// toward zero, then shifted so that both start at 0). The polygons' vertices lie on the source's
// 1e-6 degree grid (U units: x_U = x / 10 with the same shift).
//
// Format, version 1. Every integer little-endian; the file is refused on a big-endian machine.
//
//   offset  size  field
//        0     8  magic "GEOLOCTZ"
//        8     4  u32 format version (1); a newer version is refused with .unsupported
//       12     4  u32 byte-order mark 0x01020304
//       16     4  u32 header size (128)
//       20     4  u32 Z, the number of zones (at most 2^zone bits)
//       24     4  u32 columns of the root grid
//       28     4  u32 rows of the root grid
//       32     4  u32 root shift s: root cells are 2^s x 2^s units (24)
//       36     4  u32 depth d: a cell splits 4 x 4 at most d times (8); s - 2d >= 0
//       40     8  u64 N, the number of nodes
//       48     8  u64 L, bytes of the leaf section (before its 8 bytes of zero padding)
//       56     8  u64 bytes of the zone names
//       64     8  u64 bytes of the source text
//       72     8  u64 the file's size in bytes
//       80     8  zero
//       88    16  the boundary release ("2026c"), UTF-8, zero-padded
//      104     4  u32 zone bits (9): the width of a zone number in a leaf
//      108    12  zero
//      120     8  u64 checksum of the whole file, these 8 bytes read as 0 (PlaceFileChecksum)
//
// Then the sections, each at a multiple of 64 bytes (zero padding between them):
//   zones    Z x 8   per zone: u32 end of its name in the names section (after its NUL),
//                    u16 precedence rank (lower wins where zones overlap), u8 kind (1: a
//                    nautical zone, Etc/GMT, Etc/UTC or Etc/GMT+-N; 0: other), i8 the nautical
//                    zone's offset from UTC in hours as people read it (+5 for Etc/GMT-5)
//   names    the zone names, UTF-8, each followed by a NUL, in code-point order
//   source   UTF-8 text: where the boundaries come from and under which licence
//   root     columns x rows x u32 entries, row-major, row 0 the southernmost
//   nodes    N x 40 bytes: u32 the number of its first child node, u32 the byte where its
//            leaves start in the leaf section, then 16 u16 entries: the 4 x 4 children of the
//            cell, row-major (child 4 cy + cx)
//   leaves   L bytes of leaf records, then 8 zero bytes
//
// A root entry (u32) has its kind in bits 31-30 and its value in bits 29-0; a node's entry
// (u16) its kind in bits 15-14 and its value in bits 13-0:
//   0  a zone: every point of the cell is in zone `value` (< Z)
//   1  a node: the cell splits into the 16 cells of a node: node `value` (root), node
//      first child + `value` (in a node); nodes are numbered breadth first
//   2  a leaf: its record starts at byte `value` (root), leaf start + `value` (in a node) of the
//      leaf section
//   3  a gap: no polygon covers the cell; its points get the nautical zone of their longitude
//
// A leaf record is a stream of bits, least significant first, each field as wide as given:
//   6          nz - 1: the number of zones the cell touches (1...64)
//   nz x zb    their zone numbers (zb: the zone bits of the header); a "local mask" below has
//              nz bits, bit i for the i-th of these zones
//   nz         the zones whose polygons hold the cell's south-east corner point
//              (X0 + S - 1/2, Y0), where the cell is [X0, X0 + S) x [Y0, Y0 + S)
//   5          nt: the edges crossing the cell's east side, x = X0 + S - 1/2
//   nt x       each: log2(S) bits t - Y0, nz bits its local mask; sorted by t. Row y has the
//              mask of the corner flipped by every crossing with t <= y.
//   8          nc: the chain pieces of the cell
//   nc x       each: 8 bits k - 1 (its k edges), nz bits its local mask (the zones whose
//              parity the piece's edges flip: the two zones of a border), then its first
//              vertex: 5 bits w, w bits zigzag(x_U - floor(X0 / 10)); 5 bits w, w bits
//              zigzag(y_U - floor(Y0 / 10)); then 5 bits kx, 5 bits ky, and for each edge the
//              Rice codes of zigzag(dx_U - previous dx_U) with parameter kx and of
//              zigzag(dy_U - previous dy_U) with ky (the first edge's previous delta is 0;
//              zigzag: 2v for v >= 0, -2v - 1 below; the Rice code of u with parameter k: q = u
//              >> k zero bits, a one, then the k low bits of u; when q >= 15: 15 zero bits, a
//              one, then u in 32 bits)
//
// The zone of a point (x, y) in a leaf: start from the mask of its row on the east side and
// flip the mask of every edge that crosses the row between the point and the east side, with
// timezonefinder's rules (an edge counts on the row when y is in (min(y1, y2), max(y1, y2)];
// a point on an edge counts as west of it). That is the parity of a ray cast east from the
// point, for every zone at once. One zone left: the answer. None (a gap in the source): the
// nautical zone of the longitude. Several (the source's polygons overlap): the zone of lowest
// precedence rank (the generator ranks by area, the smallest first).
//
// Opening checks, before a single lookup can run: the magic, version, byte order and header
// size; that the file is exactly as long as the header says (a truncated file is named as
// such); the checksum over everything; then every entry of the root grid and the nodes (its
// kind, its value in range, nodes numbered downward), the zone names (ends in order, NULs in
// place, valid UTF-8, the nautical zones present). Leaf records are read with bounds that hold
// whatever their bytes (a forged leaf can give a wrong zone, never a read outside the file; a
// zone number out of range is reported as a corrupted file).

enum TimeZoneFile {
    static let magic: [UInt8] = Array("GEOLOCTZ".utf8)
    static let version: UInt32 = 1
    static let headerSize = 128
    static let checksumOffset = 120
    /// Shift of the query grid: x = trunc(longitude * 1e7) + xShift.
    static let xShift: Int64 = 1_800_000_000
    static let yShift: Int64 = 900_000_000

    /// Where each section starts, from the header's counts; nil when a count is absurd.
    struct Layout {
        let zones, names, source, root, nodes, leaves, size: Int

        init?(zones z: Int, nameBytes: Int, sourceBytes: Int, rootEntries: Int, nodes n: Int, leafBytes: Int) {
            let limit = 1 << 40
            guard z >= 0, z <= 1 << 16, nameBytes >= 0, nameBytes < limit, sourceBytes >= 0, sourceBytes < limit,
                  rootEntries >= 0, rootEntries <= 1 << 24, n >= 0, n < 1 << 30, leafBytes >= 0, leafBytes < 1 << 30
            else { return nil }
            var at = TimeZoneFile.headerSize
            func section(_ bytes: Int) -> Int {
                let start = (at + 63) & ~63
                at = start + bytes
                return start
            }
            zones = section(8 * z)
            names = section(nameBytes)
            source = section(sourceBytes)
            root = section(4 * rootEntries)
            nodes = section(40 * n)
            leaves = section(leafBytes + 8)
            size = at
        }
    }
}

/// The map of the world's time zones: the IANA zone of any point, on land, in territorial
/// waters as the boundary data draws them, and at sea (the nautical zones `Etc/GMT±N`).
///
/// ``shipped()`` opens the map libgeoloc ships (timezone-boundary-builder 2026c, ODbL; see
/// data/time/README.md); ``open(_:)`` one built by tools/gen_timezones.py. The map is a
/// read-only mapping of the file, shared by every thread and process that opens it; lookups take
/// no lock and allocate nothing.
public final class TimeZoneMap: @unchecked Sendable {
    let mapping: PlaceFileMapping
    let zoneCount: Int
    let zoneBits: Int
    let columns: Int
    let rows: Int
    let rootShift: Int
    let depth: Int
    let nodeCount: Int
    let leafBytes: Int
    let zoneTable: UnsafePointer<UInt64>
    let root: UnsafePointer<UInt32>
    let nodes: UnsafeRawPointer
    let leaves: UnsafeRawPointer
    /// The zone names, in zone order.
    public let names: [String]
    /// Each zone's precedence rank (lower wins where the source's polygons overlap).
    let ranks: [UInt16]
    /// The zone of each name.
    let index: [String: Int]
    /// The nautical zones Etc/GMT+12 ... Etc/GMT-12, by hours east of Greenwich + 12.
    let nautical: [UInt16]
    /// The boundary release the map was built from ("2026c").
    public let dataVersion: String
    /// Where the boundaries come from, and their licence.
    public let source: String

    /// The number of zones; zone numbers are `0..<count`, in code-point order of the names.
    public var count: Int { zoneCount }

    /// Opens a map written by tools/gen_timezones.py: maps it read-only and checks it (the format
    /// is at the top of TimeZoneFile.swift), without copying or rebuilding anything. Processes
    /// that open one file share its pages. The file must not be changed in place while it is open.
    /// - Throws: `.notFound` for a missing file; `.parse` for a file that is not a time-zone map,
    ///   is truncated or corrupted (the message says which); `.unsupported` for a newer format
    ///   version or another byte order; `.invalidArgument` for a file that cannot be read.
    public static func open(_ path: String) throws(GeoLocError) -> TimeZoneMap {
        let mapping: PlaceFileMapping
        do {
            // The place file's mapping (both headers are 128 bytes); its "too short" names a place file.
            mapping = try PlaceFileMapping(path: path)
        } catch {
            if error.code == .parse { throw GeoLocError(.parse, "\(path): not a libgeoloc time-zone map (shorter than its header)") }
            throw error
        }
        do {
            return try TimeZoneMap(mapping)
        } catch {
            throw GeoLocError(error.code, "\(path): \(error.message)")
        }
    }

    /// A map over a copy of time-zone map bytes (checked as ``open(_:)`` checks a file).
    @_spi(Testing)
    public static func open(fileBytes bytes: UnsafeRawBufferPointer) throws(GeoLocError) -> TimeZoneMap {
        try TimeZoneMap(PlaceFileMapping(copying: bytes))
    }

    /// Recomputes the checksum of time-zone map bytes in place (for tests and fuzzing that change
    /// a file on purpose and want its other checks to run).
    @_spi(Testing)
    public static func reseal(_ bytes: UnsafeMutableRawBufferPointer) {
        guard bytes.count >= TimeZoneFile.headerSize else { return }
        let sum = PlaceFileChecksum.of(UnsafeRawBufferPointer(bytes))
        bytes.storeBytes(of: sum.littleEndian, toByteOffset: TimeZoneFile.checksumOffset, as: UInt64.self)
    }

    init(_ mapping: PlaceFileMapping) throws(GeoLocError) {
        #if _endian(big)
        throw GeoLocError(.unsupported, "time-zone maps are little-endian; this machine is big-endian")
        #else
        let base = mapping.base
        let size = mapping.size
        func u32(_ at: Int) -> UInt32 { UInt32(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
        func u64(_ at: Int) -> UInt64 { UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        guard size >= TimeZoneFile.headerSize,
              TimeZoneFile.magic.enumerated().allSatisfy({ base.load(fromByteOffset: $0.offset, as: UInt8.self) == $0.element })
        else { throw GeoLocError(.parse, "not a libgeoloc time-zone map") }
        if u32(12) == 0x0403_0201 {
            throw GeoLocError(.unsupported, "the map is big-endian; this library reads little-endian time-zone maps")
        }
        guard u32(12) == 0x0102_0304 else { throw GeoLocError(.parse, "corrupted time-zone map: bad byte-order mark") }
        let version = u32(8)
        if version > TimeZoneFile.version {
            throw GeoLocError(.unsupported, "time-zone map version \(version) is newer than this library reads (\(TimeZoneFile.version))")
        }
        guard version == TimeZoneFile.version, u32(16) == UInt32(TimeZoneFile.headerSize) else {
            throw GeoLocError(.parse, "corrupted time-zone map: bad version or header size")
        }
        let declared = u64(72)
        if declared != UInt64(size) {
            if declared > UInt64(size) {
                throw GeoLocError(.parse, "truncated time-zone map: \(size) bytes of the \(declared) its header gives")
            }
            throw GeoLocError(.parse, "corrupted time-zone map: \(size) bytes where its header gives \(declared)")
        }
        guard PlaceFileChecksum.of(UnsafeRawBufferPointer(start: base, count: size)) == u64(TimeZoneFile.checksumOffset) else {
            throw GeoLocError(.parse, "corrupted time-zone map: the checksum does not match")
        }
        // The checksum matched: what follows guards against a file made to pass it.
        func small(_ v: UInt64) -> Int? { v < 1 << 40 ? Int(v) : nil }
        let z = Int(u32(20)), cols = Int(u32(24)), rows = Int(u32(28)), shift = Int(u32(32)), depth = Int(u32(36))
        let zb = Int(u32(104))
        guard let n = small(u64(40)), let l = small(u64(48)), let nb = small(u64(56)), let sb = small(u64(64)),
              zb >= 1, zb <= 16, z >= 25, z <= 1 << zb, shift <= 30, depth <= 15, shift >= 2 * depth,
              cols >= 1, rows >= 1, cols <= 1 << 12, rows <= 1 << 12,
              Int64(cols) << Int64(shift) > 2 * TimeZoneFile.xShift, Int64(rows) << Int64(shift) > 2 * TimeZoneFile.yShift,
              let layout = TimeZoneFile.Layout(
                zones: z, nameBytes: nb, sourceBytes: sb, rootEntries: cols * rows, nodes: n, leafBytes: l),
              layout.size == size
        else { throw GeoLocError(.parse, "corrupted time-zone map: its counts do not match its size") }
        // Entries: kinds and values in range.
        let root = base.advanced(by: layout.root).assumingMemoryBound(to: UInt32.self)
        let nodes = base.advanced(by: layout.nodes)
        func entryOK(_ kind: UInt32, _ value: Int, nodeBase: Int, leafBase: Int) -> Bool {
            switch kind {
            case 0: return value < z
            case 1: return nodeBase + value < n
            case 2: return leafBase + value < l
            default: return value == 0
            }
        }
        for k in 0..<(cols * rows) {
            let e = UInt32(littleEndian: root[k])
            guard entryOK(e >> 30, Int(e & 0x3FFF_FFFF), nodeBase: 0, leafBase: 0) else {
                throw GeoLocError(.parse, "corrupted time-zone map: root cell \(k) is out of range")
            }
        }
        for node in 0..<n {
            let at = 40 * node
            let first = Int(UInt32(littleEndian: nodes.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
            let leafBase = Int(UInt32(littleEndian: nodes.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self)))
            for c in 0..<16 {
                let e = UInt16(littleEndian: nodes.loadUnaligned(fromByteOffset: at + 8 + 2 * c, as: UInt16.self))
                guard entryOK(UInt32(e >> 14), Int(e & 0x3FFF), nodeBase: first, leafBase: leafBase) else {
                    throw GeoLocError(.parse, "corrupted time-zone map: node \(node) is out of range")
                }
            }
        }
        // Zones and their names.
        let table = base.advanced(by: layout.zones)
        let text = base.advanced(by: layout.names).assumingMemoryBound(to: UInt8.self)
        var names: [String] = []
        var ranks: [UInt16] = []
        names.reserveCapacity(z)
        var start = 0
        for k in 0..<z {
            let end = Int(UInt32(littleEndian: table.loadUnaligned(fromByteOffset: 8 * k, as: UInt32.self)))
            guard end > start + 1, end <= nb, text[end - 1] == 0,
                  let name = String(validating: UnsafeBufferPointer(start: text + start, count: end - 1 - start), as: UTF8.self),
                  !name.utf8.contains(0)
            else { throw GeoLocError(.parse, "corrupted time-zone map: zone \(k)'s name is out of range or not UTF-8") }
            names.append(name)
            ranks.append(UInt16(littleEndian: table.loadUnaligned(fromByteOffset: 8 * k + 4, as: UInt16.self)))
            start = end
        }
        var index: [String: Int] = [:]
        for (k, name) in names.enumerated() {
            guard index.updateValue(k, forKey: name) == nil else {
                throw GeoLocError(.parse, "corrupted time-zone map: zone \(name) is named twice")
            }
        }
        var nautical: [UInt16] = []
        for hours in -12...12 {
            let name = nauticalZoneName(hours)
            guard let k = index[name] else { throw GeoLocError(.parse, "corrupted time-zone map: it has no zone \(name)") }
            nautical.append(UInt16(k))
        }
        func utf8(_ at: Int, _ count: Int) -> String? {
            var n = 0
            while n < count && base.load(fromByteOffset: at + n, as: UInt8.self) != 0 { n += 1 }
            return String(validating: UnsafeRawBufferPointer(start: base + at, count: n), as: UTF8.self)
        }
        guard let release = utf8(88, 16), let source = utf8(layout.source, sb) else {
            throw GeoLocError(.parse, "corrupted time-zone map: its release or source text is not UTF-8")
        }
        self.mapping = mapping
        self.zoneCount = z
        self.zoneBits = zb
        self.columns = cols
        self.rows = rows
        self.rootShift = shift
        self.depth = depth
        self.nodeCount = n
        self.leafBytes = l
        self.zoneTable = table.assumingMemoryBound(to: UInt64.self)
        self.root = root
        self.nodes = nodes
        self.leaves = base.advanced(by: layout.leaves)
        self.names = names
        self.ranks = ranks
        self.index = index
        self.nautical = nautical
        self.dataVersion = release
        self.source = source
        #endif
    }
}

/// The name of the nautical zone `hours` east of Greenwich: "Etc/GMT-5" for +5 (the IANA names
/// of these zones carry the POSIX sign, the opposite of the offset as people read it).
func nauticalZoneName(_ hours: Int) -> String {
    hours == 0 ? "Etc/GMT" : hours > 0 ? "Etc/GMT-\(hours)" : "Etc/GMT+\(-hours)"
}
