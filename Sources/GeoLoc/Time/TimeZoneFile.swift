#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeoLocKernels

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
// Format, version 2. Every integer little-endian; the file is refused on a big-endian machine.
//
//   offset  size  field
//        0     8  magic "GEOLOCTZ"
//        8     4  u32 format version (2); a newer version is refused with .unsupported
//       12     4  u32 byte-order mark 0x01020304
//       16     4  u32 header size (128)
//       20     4  u32 Z, the number of zones (at most 2^zone bits)
//       24     4  u32 columns of the root grid
//       28     4  u32 rows of the root grid
//       32     4  u32 root shift s: root cells are 2^s x 2^s units (24)
//       36     4  u32 depth d: a cell splits 4 x 4 at most d times (8); s - 2d >= 4
//       40     8  u64 N, the number of nodes
//       48     8  u64 L, bytes of leaf records in the leaf section
//       56     8  u64 bytes of the zone names
//       64     8  u64 bytes of the source text
//       72     8  u64 the file's size in bytes
//       80     4  u32 block shift (12): the leaf section is checked in blocks of 2^12 bytes
//       84     4  u32 the longest leaf record in bytes (at most one block)
//       88    16  the boundary release ("2026c"), UTF-8, zero-padded
//      104     4  u32 zone bits (9): the width of a zone number in a leaf
//      108    12  zero
//      120     8  u64 checksum of every byte before the leaf section, these 8 bytes read as 0
//                 (DataFileChecksum)
//
// Then the sections, each at a multiple of 64 bytes (zero padding between them), the leaf
// section at a multiple of 4096:
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
//   sums     B x u64: the checksum of each block of the leaf section (TimeZoneFile.blockChecksum)
//   leaves   B blocks of 4096 bytes: L bytes of leaf records, then zeros (at least 8 bytes); no
//            record crosses from one block into the next (zeros fill the end of a block)
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
// A leaf record is a stream of bits, least significant first, each field as wide as given, for
// a cell [X0, X0 + S) x [Y0, Y0 + S), S = 2^h:
//   6          nz - 1: the number of zones the cell touches (1...64)
//   nz x zb    their zone numbers (zb: the zone bits of the header); a "local mask" below has
//              nz bits, bit i for the i-th of these zones
//   nz         the zones whose polygons hold the cell's south-east corner point (X0 + S - 1/2, Y0)
//   5          nt: the edges crossing the cell's east side, x = X0 + S - 1/2
//   nt x       each: h bits t - Y0, nz bits its local mask; sorted by t. Row y has the mask of
//              the corner flipped by every crossing with t <= y.
//   10         nb: the blocks of the cell's chain pieces (runs of a border's edges that touch the
//              closed box [X0 - 1, X0 + S] x [Y0 - 1, Y0 + S]), each piece cut into blocks of at
//              most 64 edges (the generator: 48)
//   nb x       each block:
//              1   c: whether it continues the piece of the block before (its first vertex is
//                  that block's last)
//              when c is 0 (a new piece): nz bits its local mask (the zones whose parity its
//                  edges flip: the two zones of a border), 5 bits kx, 5 bits ky (the Rice
//                  parameters of the piece's blocks)
//              6   k - 1: its k edges
//              4   lo, 4 hi: the sixteenths of the cell (rows of S / 16) holding its lowest and
//                  highest vertex, clamped to 0...15; a row outside them crosses no edge of it
//              5   w, w bits zigzag(x_U - ox); 5 bits w, w bits zigzag(y_U - oy): its first
//                  vertex, relative to (floor(X0 / 10), floor(Y0 / 10)) for a new piece, to the
//                  first vertex of the block before for a continuing block
//              5   w, w bits n: the bits of what follows, so that a lookup can skip it
//              n   for each edge the Rice codes of zigzag(dx_U - previous dx_U) with parameter
//                  kx and of zigzag(dy_U - previous dy_U) with ky (the block's first edge's
//                  previous delta is 0; zigzag: 2v for v >= 0, -2v - 1 below; the Rice code of
//                  u with parameter k: q = u >> k zero bits, a one, then the k low bits of u;
//                  when q >= 15: 15 zero bits, a one, then u in 32 bits)
//
// The zone of a point (x, y) in a leaf: start from the mask of its row on the east side and
// flip the mask of every edge that crosses the row between the point and the east side, with
// timezonefinder's rules (an edge counts on the row when y is in (min(y1, y2), max(y1, y2)];
// a point on an edge counts as west of it). That is the parity of a ray cast east from the
// point, for every zone at once; blocks whose sixteenths miss the row are skipped unread. One
// zone left: the answer. None (a gap in the source): the nautical zone of the longitude.
// Several (the source's polygons overlap): the zone of lowest precedence rank (the generator
// ranks by area, the smallest first).
//
// Checks. Opening reads the header and the index, not the borders: the magic, version, byte
// order and header size (a version 1 map is refused with .unsupported: rebuild it with
// tools/gen_timezones.py); that the file is exactly as long as the header says (a truncated file
// is named as such); the checksum of everything before the leaf section (the header, the zones
// and their names, the root grid, the nodes and the blocks' checksums: about 1 MB); the zone
// names (ends in order, NULs in place, valid UTF-8, the nautical zones present). The first
// lookup that reads a leaf record checks every entry of the root grid and the nodes, once for
// the map's life (zones below Z, nodes numbered in the order their cells are met, each once,
// none deeper than a leaf can be, leaf records in range and in the order of the leaf section,
// each within one block), building the leaf index the block checks need; lookups check the
// entries they follow in any case. The leaf section (the borders, 13 MB) is checked a
// block at a time, the first time a lookup reads a leaf record in it: the block's checksum, then
// every record that starts in it decoded in full against its cell (zones below Z and
// increasing, east-side crossings sorted, each piece flipping some zone, continuing blocks
// starting where the block before ends, vertices on the Earth, every edge touching its cell, row
// spans equal to the sixteenths the vertices lie in, bit counts equal to the bits the edges
// take, the record within its bytes, and the east-side crossings flipping the same zones at the
// same rows as the edges that cross the east side do). A block that fails fails every lookup that reads it with
// .parse naming the field; a block that passed is not checked again (its state is published
// with an atomic slot, so threads may race to check it). So opening costs the index alone, a
// process's memory holds only the pages its lookups read, and a file forged and resealed to pass
// the checksums is refused where it is inconsistent: a lookup that answers OK has read only
// fields that passed these checks (ZoneMapChecks.swift).

enum TimeZoneFile {
    static let magic: [UInt8] = Array("GEOLOCTZ".utf8)
    static let version: UInt32 = 2
    /// Blocks of the leaf section checked one at a time: 2^12 bytes.
    static let blockShift = 12
    static let blockBytes = 1 << blockShift
    /// Shift of the query grid: x = trunc(longitude * 1e7) + xShift.
    static let xShift: Int64 = 1_800_000_000
    static let yShift: Int64 = 900_000_000

    /// The header's counts, and where each section starts; nil when a count is absurd or the
    /// sections do not end where the header says the file does.
    struct Layout {
        let zoneCount, columns, rows, rootShift, depth, zoneBits, nodeCount, leafBytes, maxLeaf: Int
        let nameBytes, sourceBytes: Int
        let zones, names, source, root, nodes, sums, leaves, blocks, size: Int

        init?(header base: UnsafeRawPointer, size fileSize: Int) {
            func u32(_ at: Int) -> Int { Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt32.self))) }
            func u64(_ at: Int) -> Int? {
                let v = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                return v < 1 << 40 ? Int(v) : nil
            }
            let z = u32(20), cols = u32(24), rows = u32(28), shift = u32(32), depth = u32(36), zb = u32(104)
            guard let n = u64(40), let l = u64(48), let nb = u64(56), let sb = u64(64), u32(80) == TimeZoneFile.blockShift,
                  zb >= 1, zb <= 16, z >= 25, z <= 1 << zb, shift <= 30, depth <= 13, shift - 2 * depth >= 4,
                  cols >= 1, rows >= 1, cols <= 1 << 12, rows <= 1 << 12,
                  Int64(cols) << Int64(shift) > 2 * TimeZoneFile.xShift, Int64(rows) << Int64(shift) > 2 * TimeZoneFile.yShift,
                  n < 1 << 30, l < 1 << 30
            else { return nil }
            let maxLeaf = u32(84)
            guard maxLeaf >= 1, maxLeaf <= TimeZoneFile.blockBytes else { return nil }
            let blocks = (l + 8 + TimeZoneFile.blockBytes - 1) >> TimeZoneFile.blockShift
            var at = DataFileHeader.size
            func section(_ bytes: Int, _ alignment: Int = 64) -> Int {
                let start = (at + alignment - 1) & ~(alignment - 1)
                at = start + bytes
                return start
            }
            zones = section(8 * z)
            names = section(nb)
            source = section(sb)
            root = section(4 * cols * rows)
            nodes = section(40 * n)
            sums = section(8 * blocks)
            leaves = section(blocks << TimeZoneFile.blockShift, TimeZoneFile.blockBytes)
            size = at
            guard size == fileSize else { return nil }
            (zoneCount, columns, self.rows, rootShift, self.depth, zoneBits) = (z, cols, rows, shift, depth, zb)
            (nodeCount, leafBytes, self.maxLeaf, nameBytes, sourceBytes, self.blocks) = (n, l, maxLeaf, nb, sb, blocks)
        }
    }

    /// The checksum of block `k` of the leaf section (4096 bytes at `p`): the file's checksum
    /// (DataFileChecksum) seeded with the block's number, so that blocks cannot trade places.
    static func blockChecksum(_ p: UnsafeRawPointer, block k: Int) -> UInt64 {
        DataFileChecksum.of(
            UnsafeRawBufferPointer(start: p, count: blockBytes), seed: UInt64(truncatingIfNeeded: k), sealed: false)
    }
}

/// The map of the world's time zones: the IANA zone of any point of the Earth, on land, in
/// territorial waters as the boundary data draws them, and at sea (the nautical zones `Etc/GMT±N`).
///
/// ``shipped()`` opens the map libgeoloc ships (timezone-boundary-builder 2026c, ODbL; see
/// data/time/README.md); ``open(_:)`` one built by tools/gen_timezones.py. The map is a
/// read-only mapping of the file, shared by every thread and process that opens it; lookups take
/// no lock and allocate nothing.
public final class TimeZoneMap: @unchecked Sendable {
    let mapping: MappedFile
    let zoneTable: UnsafePointer<UInt64>
    let root: UnsafePointer<UInt32>
    let nodes: UnsafeRawPointer
    let sums: UnsafeRawPointer
    let leaves: UnsafeRawPointer
    /// One slot per block of the leaf section: non-nil once the block passed its checksum and
    /// every record in it its checks (published with glk_publish, read with glk_load_acquire).
    let checked: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// The header's counts and sections (the root grid's size and shift, the zones' bits, the
    /// number of nodes, leaf bytes and blocks), as lookups and the leaf index read them.
    let layout: TimeZoneFile.Layout
    /// One slot: the leaf index (the records and their cells, for the checks of a block:
    /// ZoneMapChecks.swift), or the error its checks of the index found, built by the first
    /// lookup that reads a block of the borders and published with glk_publish (a retained
    /// TimeZoneFile.LeafIndexBox).
    let indexSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
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
    public var count: Int { layout.zoneCount }

    /// Opens a map written by tools/gen_timezones.py: maps it read-only and checks its header
    /// and the checksum of its index (the format and its checks are at the top of
    /// TimeZoneFile.swift), without copying or rebuilding anything; the first lookup that reads
    /// the borders checks every index entry, and the borders are checked a block at a time as
    /// lookups first read them. Processes that open one file share its pages. The file must not be
    /// changed in place while it is open.
    /// - Throws: `.notFound` for a missing file; `.parse` for a file that is not a time-zone map,
    ///   is truncated or corrupted (the message says which); `.unsupported` for a newer format
    ///   version, the older version 1 (rebuild it with tools/gen_timezones.py) or another byte order; `.invalidArgument` for a file that cannot be read.
    public static func open(_ path: String) throws(GeoLocError) -> TimeZoneMap {
        let mapping: MappedFile
        do {
            // The place file's mapping (both headers are 128 bytes); its "too short" names a place file.
            mapping = try MappedFile(path: path)
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
        try TimeZoneMap(MappedFile(copying: bytes))
    }

    /// Recomputes the checksums of time-zone map bytes in place, the blocks' then the file's (for
    /// tests and fuzzing that change a file on purpose and want its other checks to run). Bytes
    /// whose header gives no layout get the file's checksum over all of them.
    @_spi(Testing)
    public static func reseal(_ bytes: UnsafeMutableRawBufferPointer) {
        guard bytes.count >= DataFileHeader.size, let base = bytes.baseAddress else { return }
        var covered = bytes.count
        if let layout = TimeZoneFile.Layout(header: base, size: bytes.count) {
            for k in 0..<layout.blocks {
                let sum = TimeZoneFile.blockChecksum(base + layout.leaves + (k << TimeZoneFile.blockShift), block: k)
                bytes.storeBytes(of: sum.littleEndian, toByteOffset: layout.sums + 8 * k, as: UInt64.self)
            }
            covered = layout.leaves
        }
        let sum = DataFileChecksum.of(UnsafeRawBufferPointer(start: base, count: covered))
        bytes.storeBytes(of: sum.littleEndian, toByteOffset: DataFileHeader.checksumOffset, as: UInt64.self)
    }

    init(_ mapping: MappedFile) throws(GeoLocError) {
        let base = mapping.base
        let size = mapping.size
        // The checksum covers the index: everything before the leaf section (about 1 MB of the
        // 14); each block of leaves has its own, checked when a lookup first reads it.
        var counted: TimeZoneFile.Layout? = nil
        _ = try mapping.checkHeader(
            magic: TimeZoneFile.magic, versions: TimeZoneFile.version...TimeZoneFile.version, sizeOffset: 72,
            name: "time-zone map", plural: "time-zone maps", retired: 1...1, generator: "tools/gen_timezones.py"
        ) { () throws(GeoLocError) -> Int in
            guard let layout = TimeZoneFile.Layout(header: base, size: size) else {
                throw GeoLocError(.parse, "corrupted time-zone map: its counts do not match its size")
            }
            counted = layout
            return layout.leaves
        }
        guard let layout = counted else { throw GeoLocError(.internalError, "time-zone map: no layout after its header") }
        // The checksum matched: what follows guards against a file made to pass it. (Lookups
        // check the entries they follow; the zones and their names are checked here.)
        let z = layout.zoneCount
        let nb = layout.nameBytes
        let table = base.advanced(by: layout.zones)
        let text = base.advanced(by: layout.names).assumingMemoryBound(to: UInt8.self)
        var names: [String] = []
        var ranks: [UInt16] = []
        names.reserveCapacity(z)
        ranks.reserveCapacity(z)
        var index: [String: Int] = [:]
        index.reserveCapacity(z)
        var start = 0
        for k in 0..<z {
            let end = Int(UInt32(littleEndian: table.loadUnaligned(fromByteOffset: 8 * k, as: UInt32.self)))
            guard end > start + 1, end <= nb, text[end - 1] == 0,
                  let name = String(validating: UnsafeBufferPointer(start: text + start, count: end - 1 - start), as: UTF8.self),
                  !name.utf8.contains(0)
            else { throw GeoLocError(.parse, "corrupted time-zone map: zone \(k)'s name is out of range or not UTF-8") }
            guard index.updateValue(k, forKey: name) == nil else {
                throw GeoLocError(.parse, "corrupted time-zone map: zone \(name) is named twice")
            }
            names.append(name)
            ranks.append(UInt16(littleEndian: table.loadUnaligned(fromByteOffset: 8 * k + 4, as: UInt16.self)))
            start = end
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
        guard let release = utf8(88, 16), let source = utf8(layout.source, layout.sourceBytes) else {
            throw GeoLocError(.parse, "corrupted time-zone map: its release or source text is not UTF-8")
        }
        let indexSlot = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)
        indexSlot.initialize(to: nil)
        let checked = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: layout.blocks)
        checked.initialize(repeating: nil, count: layout.blocks)
        self.mapping = mapping
        self.zoneTable = table.assumingMemoryBound(to: UInt64.self)
        self.root = base.advanced(by: layout.root).assumingMemoryBound(to: UInt32.self)
        self.nodes = base.advanced(by: layout.nodes)
        self.sums = base.advanced(by: layout.sums)
        self.leaves = base.advanced(by: layout.leaves)
        self.checked = checked
        self.layout = layout
        self.indexSlot = indexSlot
        self.names = names
        self.ranks = ranks
        self.index = index
        self.nautical = nautical
        self.dataVersion = release
        self.source = source
    }

    deinit {
        checked.deallocate()
        if let box = glk_load_acquire(indexSlot) { Unmanaged<TimeZoneFile.LeafIndexBox>.fromOpaque(box).release() }
        indexSlot.deallocate()
    }

    /// Checks every block of the borders now, as lookups check each the first time they read it
    /// (a host that wants a damaged file refused at once: an install check, say): every block's
    /// checksum and every leaf record decoded in full, some tens of milliseconds.
    /// - Throws: `.parse` naming the first block or record that fails its checks.
    public func verify() throws(GeoLocError) {
        for k in 0..<layout.blocks where glk_load_acquire(checked + k) == nil {
            try checkBlock(k)
        }
    }
}

/// The name of the nautical zone `hours` east of Greenwich: "Etc/GMT-5" for +5 (the IANA names
/// of these zones carry the POSIX sign, the opposite of the offset as people read it).
func nauticalZoneName(_ hours: Int) -> String {
    hours == 0 ? "Etc/GMT" : hours > 0 ? "Etc/GMT-\(hours)" : "Etc/GMT+\(-hours)"
}
