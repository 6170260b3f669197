// The reader of TZif files, the compiled IANA time zone rules (RFC 8536, versions 1 to 4; the
// files of /usr/share/zoneinfo and of the `tzdata` Python package). A parser of untrusted
// bytes: every malformed file is refused with `.parse` and a message saying what is wrong,
// never a trap, with bounded work (fuzzed in tests/fuzz/targets/tzif.swift).
//
// A file is a header (44 bytes: "TZif", the version, 15 unused bytes, six big-endian 32-bit
// counts), a data block with 32-bit times, and from version 2 on a second header and data
// block with 64-bit times followed by a footer: a newline, a POSIX TZ string for the instants
// after the last transition, a newline. A version 2+ file is read from its second block (the
// first is only skipped); a version 1 file from its only block.

/// What a TZif file holds, checked.
struct TZifData: Equatable {
    /// 1, or 2 and up (a later version byte than 4 is read as version 4: RFC 8536's later
    /// versions only add meaning to the same layout).
    var version: Int
    /// Transition instants, strictly ascending.
    var transitions: [Int64]
    /// The type of each transition (an index into `types`).
    var transitionTypes: [UInt8]
    /// The local time types (1 ... 256); type 0 is the one before the first transition.
    var types: [LocalTimeType]
    /// The footer's TZ string ("" when there is none or it is empty).
    var footer: String
}

enum TZif {
    /// The longest TZif file read (the largest in the IANA data, fat and with 64-bit data up to
    /// 2037, is under 4 KB).
    static let maxFileBytes = 1 << 24

    /// Parses a TZif file.
    /// - Throws: `.parse` for a malformed file (the message names the fault); `.unsupported`
    ///   for a file with leap-second records (the "right/" zones count leap seconds, which Unix
    ///   seconds do not).
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(GeoLocError) -> TZifData {
        let r = Reader(bytes)
        guard bytes.count >= 44 else {
            throw GeoLocError(.parse, "not a TZif file: \(bytes.count) bytes, shorter than its 44-byte header")
        }
        guard r.u8(0) == 0x54, r.u8(1) == 0x5A, r.u8(2) == 0x69, r.u8(3) == 0x66 else {
            throw GeoLocError(.parse, "not a TZif file (it does not start with \"TZif\")")
        }
        let versionByte = r.u8(4)
        let version: Int
        switch versionByte {
        case 0: version = 1
        case 0x32...0x39: version = Int(versionByte - 0x30)
        default: throw GeoLocError(.parse, "TZif version byte 0x\(String(versionByte, radix: 16)) is not a known version")
        }
        let first = try r.header(at: 0, timeSize: 4)
        if version == 1 {
            let data = try r.block(first, at: 44, timeSize: 4)
            guard data.end == bytes.count else {
                throw GeoLocError(.parse, "TZif: \(bytes.count - data.end) bytes after the data")
            }
            try refuseLeapSeconds(first)
            return TZifData(version: 1, transitions: data.times, transitionTypes: data.indices, types: data.types, footer: "")
        }
        // Version 2+: skip the 32-bit block to the second header.
        let second = 44 + first.blockSize(timeSize: 4)
        guard second <= bytes.count - 44 else {
            throw GeoLocError(.parse, "truncated TZif file: \(bytes.count) bytes, the second header would start at \(second)")
        }
        guard r.u8(second) == 0x54, r.u8(second + 1) == 0x5A, r.u8(second + 2) == 0x69, r.u8(second + 3) == 0x66,
              r.u8(second + 4) == versionByte
        else { throw GeoLocError(.parse, "TZif: the second header is missing or of another version") }
        let header = try r.header(at: second, timeSize: 8)
        let data = try r.block(header, at: second + 44, timeSize: 8)
        // The footer: "\n" TZ string "\n", and nothing after it.
        var at = data.end
        guard at < bytes.count, r.u8(at) == 10 else { throw GeoLocError(.parse, "TZif: the footer is missing") }
        at += 1
        let footerStart = at
        while at < bytes.count && r.u8(at) != 10 {
            let c = r.u8(at)
            guard c >= 0x20 && c < 0x7F else { throw GeoLocError(.parse, "TZif: the footer holds byte 0x\(String(c, radix: 16))") }
            at += 1
        }
        guard at < bytes.count else { throw GeoLocError(.parse, "TZif: the footer has no closing newline") }
        guard at + 1 == bytes.count else {
            throw GeoLocError(.parse, "TZif: \(bytes.count - at - 1) bytes after the footer")
        }
        let footer = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[footerStart..<at]), as: UTF8.self)
        if !footer.isEmpty { _ = try PosixTimeZone(parsing: footer) }
        try refuseLeapSeconds(header)
        return TZifData(version: min(version, 4), transitions: data.times, transitionTypes: data.indices, types: data.types, footer: footer)
    }

    private static func refuseLeapSeconds(_ h: Header) throws(GeoLocError) {
        if h.leapCount > 0 {
            throw GeoLocError(.unsupported, "TZif: the file has \(h.leapCount) leap-second records (a \"right/\" zone); libgeoloc's instants are Unix seconds, without leap seconds")
        }
    }

    struct Header {
        var utCount, stdCount, leapCount, timeCount, typeCount, charCount: Int

        func blockSize(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + charCount + leapCount * (timeSize + 4) + stdCount + utCount
        }
    }

    struct Block {
        var times: [Int64]
        var indices: [UInt8]
        var types: [LocalTimeType]
        var end: Int
    }

    /// Big-endian reads at offsets the caller has checked against the size.
    struct Reader {
        let bytes: UnsafeRawBufferPointer
        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        @inline(__always) func u8(_ at: Int) -> UInt8 { bytes[at] }
        @inline(__always) func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
        }
        @inline(__always) func i64(_ at: Int) -> Int64 { Int64(bitPattern: UInt64(u32(at)) << 32 | UInt64(u32(at + 4))) }

        /// The six counts of the header at `at`, checked as RFC 8536 asks.
        func header(at: Int, timeSize: Int) throws(GeoLocError) -> Header {
            let h = Header(
                utCount: Int(u32(at + 20)), stdCount: Int(u32(at + 24)), leapCount: Int(u32(at + 28)),
                timeCount: Int(u32(at + 32)), typeCount: Int(u32(at + 36)), charCount: Int(u32(at + 40)))
            let block = timeSize == 4 ? "version 1 block" : "data block"
            guard h.typeCount >= 1 && h.typeCount <= 256 else {
                throw GeoLocError(.parse, "TZif \(block): \(h.typeCount) local time types (1 to 256 allowed)")
            }
            guard h.charCount >= 1 else { throw GeoLocError(.parse, "TZif \(block): no abbreviation bytes") }
            guard h.utCount == 0 || h.utCount == h.typeCount, h.stdCount == 0 || h.stdCount == h.typeCount else {
                throw GeoLocError(.parse, "TZif \(block): the UT and standard indicator counts must be 0 or the type count")
            }
            // The counts are below 2^32, so the block's size is far from overflowing an Int.
            guard at + 44 + h.blockSize(timeSize: timeSize) <= bytes.count else {
                throw GeoLocError(.parse, "truncated TZif file: \(bytes.count) bytes, its \(block) needs \(h.blockSize(timeSize: timeSize)) after offset \(at + 44)")
            }
            return h
        }

        /// The data block of `h` at `at` (its size already checked), validated.
        func block(_ h: Header, at start: Int, timeSize: Int) throws(GeoLocError) -> Block {
            var at = start
            var times: [Int64] = []
            times.reserveCapacity(h.timeCount)
            for k in 0..<h.timeCount {
                let t = timeSize == 4 ? Int64(Int32(bitPattern: u32(at))) : i64(at)
                if let last = times.last, t <= last {
                    throw GeoLocError(.parse, "TZif: transition \(k) (\(t)) is not after the one before (\(last))")
                }
                times.append(t)
                at += timeSize
            }
            var indices: [UInt8] = []
            indices.reserveCapacity(h.timeCount)
            for k in 0..<h.timeCount {
                let i = u8(at + k)
                guard Int(i) < h.typeCount else {
                    throw GeoLocError(.parse, "TZif: transition \(k) has type \(i), beyond the \(h.typeCount) types")
                }
                indices.append(i)
            }
            at += h.timeCount
            let typesAt = at
            let charsAt = typesAt + 6 * h.typeCount
            var types: [LocalTimeType] = []
            types.reserveCapacity(h.typeCount)
            for k in 0..<h.typeCount {
                let p = typesAt + 6 * k
                let offset = Int32(bitPattern: u32(p))
                let dst = u8(p + 4)
                let index = Int(u8(p + 5))
                guard offset >= -89_999 && offset <= 93_599 else {
                    throw GeoLocError(.parse, "TZif: type \(k) has UTC offset \(offset) s, outside [-89999, 93599]")
                }
                guard dst <= 1 else { throw GeoLocError(.parse, "TZif: type \(k) has DST flag \(dst), not 0 or 1") }
                guard index < h.charCount else {
                    throw GeoLocError(.parse, "TZif: type \(k)'s abbreviation starts at \(index), beyond the \(h.charCount) bytes")
                }
                var end = charsAt + index
                while end < charsAt + h.charCount && u8(end) != 0 { end += 1 }
                guard end < charsAt + h.charCount else {
                    throw GeoLocError(.parse, "TZif: type \(k)'s abbreviation has no terminating NUL")
                }
                let name = UnsafeRawBufferPointer(rebasing: bytes[(charsAt + index)..<end])
                guard name.count >= 1 && name.count <= maxAbbreviationBytes,
                      name.allSatisfy({ ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 || ($0 >= 48 && $0 <= 57) || $0 == 43 || $0 == 45 })
                else {
                    throw GeoLocError(.parse, "TZif: type \(k)'s abbreviation is not 1 to \(maxAbbreviationBytes) letters, digits, '+' or '-'")
                }
                types.append(LocalTimeType(utcOffset: offset, isDST: dst == 1, abbreviation: String(decoding: name, as: UTF8.self)))
            }
            at = charsAt + h.charCount
            // Leap-second records: occurrences ascending (refused later, after the whole file
            // is known to be well formed).
            var previous = Int64.min
            for k in 0..<h.leapCount {
                let t = timeSize == 4 ? Int64(Int32(bitPattern: u32(at))) : i64(at)
                guard k == 0 || t > previous else { throw GeoLocError(.parse, "TZif: leap-second record \(k) is out of order") }
                previous = t
                at += timeSize + 4
            }
            for k in 0..<h.stdCount {
                guard u8(at + k) <= 1 else { throw GeoLocError(.parse, "TZif: standard/wall indicator \(k) is not 0 or 1") }
            }
            let stdAt = at
            at += h.stdCount
            for k in 0..<h.utCount {
                let ut = u8(at + k)
                guard ut <= 1 else { throw GeoLocError(.parse, "TZif: UT/local indicator \(k) is not 0 or 1") }
                guard ut == 0 || (h.stdCount > 0 && u8(stdAt + k) == 1) else {
                    throw GeoLocError(.parse, "TZif: type \(k) is UT but not standard time")
                }
            }
            at += h.utCount
            return Block(times: times, indices: indices, types: types, end: at)
        }
    }
}
