#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// What the library's data files share: a place file (Places/PlaceFile.swift), the search index
// (Geocoding/SearchFile.swift), the time-zone map (Time/TimeZoneFile.swift) and the compiled zone
// rules (Time/ZoneRulesFile.swift) are each opened by mapping the whole file read-only
// (`MappedFile`), and each starts with a 128-byte header that ends with a checksum of the whole
// file (`DataFileChecksum`):
//
//   offset  size  field
//        0     8  magic (the format's own: "GEOLOCPS", ...)
//        8     4  u32 format version
//       12     4  u32 byte-order mark 0x01020304
//       16     4  u32 header size (128)
//       ...       the format's own counts
//      120     8  u64 checksum of the whole file, these 8 bytes read as 0
//
// Each format's file says the rest; tools/gen_timezones.py and tools/gen_time_rules.py compute
// the same checksum in Python.

/// The header every data file of the library starts with (see above).
enum DataFileHeader {
    /// The header's size in bytes: no data file is shorter.
    static let size = 128
    /// Where the header's last field, the checksum of the whole file, is.
    static let checksumOffset = 120
}

/// A read-only memory mapping of a whole file (or an aligned copy of bytes), unmapped when the
/// last object using it (a place set, a search index, a time-zone map, zone rules) goes.
final class MappedFile: @unchecked Sendable {
    let base: UnsafeRawPointer
    let size: Int
    /// `munmap` when true; `free` otherwise (bytes copied into memory).
    private let mapped: Bool

    /// Maps `path` read-only (`MAP_SHARED`: every process shares the pages), opened as every
    /// loader opens a file (`RegularFile`: a FIFO or a device is refused before anything blocks).
    /// `what` names the format in the message for a file shorter than any header.
    init(path: String, what: String = "place file") throws(GeoLocError) {
        let file = try RegularFile(path: path)
        defer { file.close() }
        let fd = file.fd
        let size = file.size
        guard size >= DataFileHeader.size else {
            throw GeoLocError(.parse, "\(path): not a libgeoloc \(what) (\(size) bytes, shorter than its header)")
        }
        guard let p = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), p != MAP_FAILED else {
            let e = errno
            throw GeoLocError(e == ENOMEM ? .noMemory : .invalidArgument, "\(path): cannot map: \(String(cString: strerror(e)))")
        }
        base = UnsafeRawPointer(p)
        self.size = size
        mapped = true
    }

    /// A copy of `bytes` in memory (aligned for the sections).
    init(copying bytes: UnsafeRawBufferPointer) throws(GeoLocError) {
        var p: UnsafeMutableRawPointer? = nil
        guard posix_memalign(&p, 64, Swift.max(bytes.count, 1)) == 0, let p else {
            throw GeoLocError(.noMemory, "no memory for \(bytes.count) bytes")
        }
        if let from = bytes.baseAddress, bytes.count > 0 { p.copyMemory(from: from, byteCount: bytes.count) }
        base = UnsafeRawPointer(p)
        size = bytes.count
        mapped = false
    }

    deinit {
        if mapped {
            munmap(UnsafeMutableRawPointer(mutating: base), size)
        } else {
            free(UnsafeMutableRawPointer(mutating: base))
        }
    }
}

/// The checksum of a data file (place file, search index, time-zone map, zone rules): 64 bits
/// over every byte, bytes 120..<128 (where it is stored) read as zeros.
///
/// Four lanes take the file's 8-byte little-endian words in turn (word k to lane k mod 4); each
/// step `x = (lane ^ word) * M; lane = x ^ (x >> 32)` is a bijection of the word for a given lane
/// and of the lane for a given word, and the final fold of the lanes and the length is a
/// bijection of each lane given the others. So a change confined to one 8-byte word (any one
/// corrupted byte) always changes the checksum; other changes go unnoticed with probability
/// about 2^-64. Four independent lanes run at memory speed.
///
/// The time-zone map checks each 4 KB block of its leaves with the same sum, `seed` (the block's
/// number, so that blocks cannot trade places) XORed into the lanes and no stored checksum in it
/// (`sealed` false).
enum DataFileChecksum {
    static let multiplier: UInt64 = 0x9FB2_1C65_1E98_DF25

    @inline(__always)
    static func step(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        let x = (lane ^ word) &* multiplier
        return x ^ (x >> 32)
    }

    static func of(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0, sealed: Bool = true) -> UInt64 {
        let n = bytes.count
        var a: UInt64 = 0x243F_6A88_85A3_08D3 ^ seed
        var b: UInt64 = 0x1319_8A2E_0370_7344 ^ seed
        var c: UInt64 = 0xA409_3822_299F_31D0 ^ seed
        var d: UInt64 = 0x082E_FA98_EC4E_6C89 ^ seed
        guard let base = bytes.baseAddress else { return fold(a, b, c, d, n) }
        let stored = sealed ? DataFileHeader.checksumOffset : -1
        @inline(__always) func word(_ offset: Int) -> UInt64 {
            let w = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            // The stored checksum reads as zero.
            return offset == stored ? 0 : w
        }
        var i = 0
        // The header (which holds the checksum) word by word, then the rest without the test.
        let headerEnd = Swift.min(DataFileHeader.size, n & ~31)
        while i < headerEnd {
            a = step(a, word(i))
            b = step(b, word(i + 8))
            c = step(c, word(i + 16))
            d = step(d, word(i + 24))
            i += 32
        }
        while i + 32 <= n {
            a = step(a, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
            b = step(b, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)))
            c = step(c, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)))
            d = step(d, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)))
            i += 32
        }
        var lane = 0
        while i + 8 <= n {
            let w = word(i)
            switch lane {
            case 0: a = step(a, w)
            case 1: b = step(b, w)
            default: c = step(c, w)
            }
            lane += 1
            i += 8
        }
        if i < n {
            var w: UInt64 = 0
            for k in 0..<(n - i) { w |= UInt64(base.load(fromByteOffset: i + k, as: UInt8.self)) << UInt64(8 * k) }
            d = step(d, w)
        }
        return fold(a, b, c, d, n)
    }

    @inline(__always)
    static func fold(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64, _ n: Int) -> UInt64 {
        var h = step(UInt64(n), a)
        h = step(h, b)
        h = step(h, c)
        h = step(h, d)
        return step(h, 0x5851_F42D_4C95_7F2D)
    }
}

extension MappedFile {
    /// The little-endian `UInt32` at byte `offset` (which the caller keeps inside the file).
    @inline(__always)
    func u32(_ offset: Int) -> UInt32 { UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }

    /// The little-endian `UInt64` at byte `offset`.
    @inline(__always)
    func u64(_ offset: Int) -> UInt64 { UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }

    /// Checks the header every data file starts with, in this order: at least a header's bytes
    /// and the format's `magic` (else `.parse` "not a libgeoloc <name>"), the byte-order mark (a
    /// big-endian file is `.unsupported`), the version (newer than `versions` `.unsupported`,
    /// older `.parse`), the header size, the file's size as the header gives it at `sizeOffset`
    /// (a shorter file is named truncated), and the checksum. `name` is the format's name ("search
    /// index"), `plural` its plural. Returns the version. On a big-endian machine every file is
    /// refused (`.unsupported`): the formats are little-endian and mapped as they are.
    ///
    /// A format whose older versions were once read names them `retired` (refused as
    /// `.unsupported`, not `.parse`) and its `generator`, which the messages about a version tell
    /// the user to rebuild the file with. `checksumEnd`, when given, is where the checksum stops
    /// (the time-zone map's covers its index only, its leaves having their own): it is asked after
    /// the size check and may throw for counts that do not fit the file.
    func checkHeader(
        magic: [UInt8], versions: ClosedRange<UInt32>, sizeOffset: Int, name: String, plural: String,
        retired: ClosedRange<UInt32>? = nil, generator: String? = nil,
        checksumEnd: (() throws(GeoLocError) -> Int)? = nil
    ) throws(GeoLocError) -> UInt32 {
        #if _endian(big)
        throw GeoLocError(.unsupported, "\(plural) are little-endian; this machine is big-endian")
        #else
        guard size >= DataFileHeader.size,
              magic.enumerated().allSatisfy({ base.load(fromByteOffset: $0.offset, as: UInt8.self) == $0.element })
        else { throw GeoLocError(.parse, "not a libgeoloc \(name)") }
        if u32(12) == 0x0403_0201 {
            throw GeoLocError(.unsupported, "the \(name) is big-endian; this library reads little-endian \(plural)")
        }
        guard u32(12) == 0x0102_0304 else { throw GeoLocError(.parse, "corrupted \(name): bad byte-order mark") }
        let version = u32(8)
        if version > versions.upperBound {
            throw GeoLocError(.unsupported, "\(name) version \(version) is newer than this library reads (\(versions.upperBound))")
        }
        if let retired, retired.contains(version) {
            throw GeoLocError(.unsupported, "\(name) version \(version) is a format this library no longer reads "
                + "(it reads version \(versions.upperBound))" + (generator.map { "; rebuild it with \($0)" } ?? ""))
        }
        guard version >= versions.lowerBound, u32(16) == UInt32(DataFileHeader.size) else {
            throw GeoLocError(.parse, "corrupted \(name): bad version or header size"
                + (generator.map { " (rebuild it with \($0))" } ?? ""))
        }
        let declared = u64(sizeOffset)
        guard declared == UInt64(size) else {
            if declared > UInt64(size) {
                throw GeoLocError(.parse, "truncated \(name): \(size) bytes of the \(declared) its header gives")
            }
            throw GeoLocError(.parse, "corrupted \(name): \(size) bytes where its header gives \(declared)")
        }
        let covered = try checksumEnd?() ?? size
        guard DataFileChecksum.of(UnsafeRawBufferPointer(start: base, count: covered)) == u64(DataFileHeader.checksumOffset) else {
            throw GeoLocError(.parse, "corrupted \(name): the checksum does not match")
        }
        return version
        #endif
    }
}

extension DataFileChecksum {
    /// Writes the checksum of `bytes` (a data file being made or, in tests, forged) into its
    /// header; nothing for fewer bytes than a header.
    static func seal(_ bytes: UnsafeMutableRawBufferPointer) {
        guard bytes.count >= DataFileHeader.size else { return }
        let sum = of(UnsafeRawBufferPointer(bytes))
        bytes.storeBytes(of: sum.littleEndian, toByteOffset: DataFileHeader.checksumOffset, as: UInt64.self)
    }
}
