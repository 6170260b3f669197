// The compiled zone rules the library ships (data/time/zoneinfo.rules, written by
// tools/gen_time_rules.py from the pinned PyPI `tzdata` package): every zone of one IANA
// release in one file, opened with mmap and checked before use, like every data file of the
// library (Core/MappedFile.swift: the mapping, the header's checks and the checksum).
//
// Format, version 1. Integers little-endian; refused on a big-endian machine.
//
//   offset  size  field
//        0     8  magic "GEOLOCTZ"
//        8     4  u32 format version (1); a newer version is refused with .unsupported
//       12     4  u32 byte-order mark 0x01020304
//       16     4  u32 header size (128)
//       20     4  u32 z, the number of zones (distinct rule sets)
//       24     4  u32 n, the number of names (zones and links; at least 1)
//       28     4  u32 t, the number of transitions (all zones)
//       32     4  u32 y, the number of local time types (all zones)
//       36     4  u32 bytes of text
//       40     8  u64 the file's size in bytes
//       48    16  the IANA release ("2026f"): ASCII letters and digits, NUL-padded
//       64    48  zeros
//      112     8  u64 flags (0)
//      120     8  u64 checksum of the whole file, these 8 bytes read as 0 (`DataFileChecksum`)
//
// Then the sections, each at a multiple of 64 bytes (zero padding between):
//   names        n x 12  u32 text offset, u32 length, u32 zone: sorted by name (bytewise),
//                        every name an IANA name (ZoneRulesDatabase.isZoneName)
//   zones        z x 24  u32 first transition, u32 transition count, u32 first type,
//                        u32 type count (1 ... 256), u32 footer text offset, u32 footer length
//   transitions  t x 8   i64 instants, strictly ascending within a zone
//   indices      t x 1   u8 the type of each transition, relative to the zone's first type
//   types        y x 12  i32 UTC offset (-89999 ... 93599), u32 abbreviation text offset,
//                        u8 abbreviation length (1 ... 10), u8 DST flag (0, 1), 2 zero bytes
//   text         names, abbreviations and footers (POSIX TZ strings), ASCII
//
// A zone is what a TZif file of the release holds (its 64-bit data and footer), so a zone read
// from here and the same zone read from the release's TZif file give the same rules.

enum ZoneRulesFileFormat {
    static let magic: [UInt8] = Array("GEOLOCTZ".utf8)
    static let version: UInt32 = 1
}

/// A mapped, checked rules file.
final class ZoneRulesFile: @unchecked Sendable {
    let mapping: MappedFile
    /// The IANA release ("2026f").
    let version: String
    /// The names, sorted, and the zone of each.
    let names: [String]
    let zoneOfName: [Int]
    private let zones: UnsafePointer<UInt32>
    private let transitions: UnsafeRawPointer
    private let indices: UnsafePointer<UInt8>
    private let types: UnsafeRawPointer
    private let text: UnsafePointer<UInt8>

    /// Maps and checks the file at `path`.
    /// - Throws: `.notFound` for a missing file; `.parse` for a file that is not a rules file or
    ///   is truncated or corrupted; `.unsupported` for a newer format or another byte order;
    ///   `.invalidArgument` for a file that cannot be read.
    static func open(_ path: String) throws(GeoLocError) -> ZoneRulesFile {
        let mapping = try MappedFile(path: path, what: "zone rules file")
        do {
            return try ZoneRulesFile(mapping)
        } catch {
            throw GeoLocError(error.code, "\(path): \(error.message)")
        }
    }

    /// A rules file from bytes in memory (copied), checked as ``open(_:)`` checks a file.
    static func open(bytes: UnsafeRawBufferPointer) throws(GeoLocError) -> ZoneRulesFile {
        try ZoneRulesFile(MappedFile(copying: bytes))
    }

    private init(_ mapping: MappedFile) throws(GeoLocError) {
        let format = ZoneRulesFileFormat.self
        _ = try mapping.checkHeader(
            magic: format.magic, versions: format.version...format.version, sizeOffset: 40,
            name: "zone rules file", plural: "zone rules files")
        self.mapping = mapping
        let base = mapping.base
        let size = mapping.size
        let u32 = mapping.u32, u64 = mapping.u64
        // The checksum matched: what follows guards against a file made to pass it.
        func corrupt(_ what: String) -> GeoLocError { GeoLocError(.parse, "corrupted zone rules file: \(what)") }
        let z = Int(u32(20)), n = Int(u32(24)), t = Int(u32(28)), y = Int(u32(32)), textBytes = Int(u32(36))
        var at = DataFileHeader.size
        func section(_ bytes: Int) -> Int {
            let start = (at + 63) & ~63
            at = start + bytes
            return start
        }
        // Counts below 2^32: no section size overflows.
        let namesAt = section(12 * n), zonesAt = section(24 * z), timesAt = section(8 * t), indicesAt = section(t)
        let typesAt = section(12 * y), textAt = section(textBytes)
        guard n >= 1, at == size else { throw corrupt("its counts do not match its size") }
        guard u64(112) == 0, (64..<112).allSatisfy({ base.load(fromByteOffset: $0, as: UInt8.self) == 0 }) else {
            throw corrupt("unknown flags")
        }
        var release: [UInt8] = []
        for k in 0..<16 {
            let c = base.load(fromByteOffset: 48 + k, as: UInt8.self)
            if c == 0 { break }
            release.append(c)
        }
        guard !release.isEmpty, release.allSatisfy({ ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 || ($0 >= 48 && $0 <= 57) }) else {
            throw corrupt("the release is not letters and digits")
        }
        self.version = String(decoding: release, as: UTF8.self)
        let text = base.advanced(by: textAt).assumingMemoryBound(to: UInt8.self)
        func span(_ offset: UInt32, _ length: UInt32) -> UnsafeBufferPointer<UInt8>? {
            let o = Int(offset), l = Int(length)
            guard o <= textBytes && l <= textBytes - o else { return nil }
            return UnsafeBufferPointer(start: text + o, count: l)
        }
        // Types.
        for k in 0..<y {
            let p = typesAt + 12 * k
            let offset = Int32(bitPattern: u32(p))
            let length = base.load(fromByteOffset: p + 8, as: UInt8.self)
            let dst = base.load(fromByteOffset: p + 9, as: UInt8.self)
            guard offset >= -89_999 && offset <= 93_599, dst <= 1, u32(p + 8) >> 16 == 0,
                  length >= 1 && Int(length) <= maxAbbreviationBytes,
                  let abbreviation = span(u32(p + 4), UInt32(length)),
                  abbreviation.allSatisfy({ ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 || ($0 >= 48 && $0 <= 57) || $0 == 43 || $0 == 45 })
            else { throw corrupt("local time type \(k) is malformed") }
        }
        // Zones, their transitions and footers.
        let zones = base.advanced(by: zonesAt).assumingMemoryBound(to: UInt32.self)
        for k in 0..<z {
            let first = Int(zones[6 * k]), count = Int(zones[6 * k + 1])
            let firstType = Int(zones[6 * k + 2]), typeCount = Int(zones[6 * k + 3])
            guard first <= t && count <= t - first, firstType <= y && typeCount <= y - firstType,
                  typeCount >= 1 && typeCount <= 256
            else { throw corrupt("zone \(k)'s ranges are out of bounds") }
            var previous = Int64.min
            for j in first..<(first + count) {
                let time = Int64(littleEndian: base.loadUnaligned(fromByteOffset: timesAt + 8 * j, as: Int64.self))
                guard j == first || time > previous else { throw corrupt("zone \(k)'s transitions are out of order") }
                guard Int(base.load(fromByteOffset: indicesAt + j, as: UInt8.self)) < typeCount else {
                    throw corrupt("zone \(k) has a transition to a type it does not have")
                }
                previous = time
            }
            guard let footer = span(zones[6 * k + 4], zones[6 * k + 5]) else { throw corrupt("zone \(k)'s footer is out of bounds") }
            if footer.count > 0 {
                guard footer.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { throw corrupt("zone \(k)'s footer is not ASCII") }
                do {
                    _ = try PosixTimeZone(parsing: String(decoding: footer, as: UTF8.self))
                } catch {
                    throw corrupt("zone \(k): \(error.message)")
                }
            }
        }
        // Names: valid, sorted, each naming a zone.
        var names: [String] = []
        var zoneOfName: [Int] = []
        names.reserveCapacity(n)
        zoneOfName.reserveCapacity(n)
        var previous: UnsafeBufferPointer<UInt8>? = nil
        for k in 0..<n {
            let p = namesAt + 12 * k
            let zone = Int(u32(p + 8))
            guard let name = span(u32(p), u32(p + 4)), ZoneRulesDatabase.isZoneName(name), zone < z else {
                throw corrupt("name \(k) is malformed")
            }
            if let previous {
                guard previous.lexicographicallyPrecedes(name) else { throw corrupt("the names are not sorted") }
            }
            previous = name
            names.append(String(decoding: name, as: UTF8.self))
            zoneOfName.append(zone)
        }
        self.names = names
        self.zoneOfName = zoneOfName
        self.zones = UnsafePointer(zones)
        self.transitions = base.advanced(by: timesAt)
        self.indices = base.advanced(by: indicesAt).assumingMemoryBound(to: UInt8.self)
        self.types = base.advanced(by: typesAt)
        self.text = UnsafePointer(text)
    }

    /// The index of `name` in ``names``, or nil.
    func index(of name: String) -> Int? {
        var lo = 0, hi = names.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if names[mid].utf8.lexicographicallyPrecedes(name.utf8) { lo = mid + 1 } else { hi = mid }
        }
        return lo < names.count && names[lo] == name ? lo : nil
    }

    /// The zone of name `k`, as a TZif file would give it (the file was checked when opened).
    func data(name k: Int) -> TZifData {
        let z = zoneOfName[k]
        let first = Int(zones[6 * z]), count = Int(zones[6 * z + 1])
        let firstType = Int(zones[6 * z + 2]), typeCount = Int(zones[6 * z + 3])
        var times: [Int64] = []
        var typeIndices: [UInt8] = []
        times.reserveCapacity(count)
        typeIndices.reserveCapacity(count)
        for j in first..<(first + count) {
            times.append(Int64(littleEndian: transitions.loadUnaligned(fromByteOffset: 8 * j, as: Int64.self)))
            typeIndices.append(indices[j])
        }
        var list: [LocalTimeType] = []
        for j in firstType..<(firstType + typeCount) {
            let p = 12 * j
            let offset = Int32(bitPattern: UInt32(littleEndian: types.loadUnaligned(fromByteOffset: p, as: UInt32.self)))
            let at = Int(UInt32(littleEndian: types.loadUnaligned(fromByteOffset: p + 4, as: UInt32.self)))
            let length = Int(types.load(fromByteOffset: p + 8, as: UInt8.self))
            let dst = types.load(fromByteOffset: p + 9, as: UInt8.self) == 1
            let abbreviation = String(decoding: UnsafeBufferPointer(start: text + at, count: length), as: UTF8.self)
            list.append(LocalTimeType(utcOffset: offset, isDST: dst, abbreviation: abbreviation))
        }
        let footer = String(decoding: UnsafeBufferPointer(start: text + Int(zones[6 * z + 4]), count: Int(zones[6 * z + 5])), as: UTF8.self)
        return TZifData(version: 4, transitions: times, transitionTypes: typeIndices, types: list, footer: footer)
    }
}
