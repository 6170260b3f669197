#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The search index of a gazetteer in one file, opened with mmap: the sorted name keys with their
// places, the trie of the typo search, the qualifier names (regions, countries) and each place's
// population, country and region, as they are used in memory. An index built in memory is the
// same bytes, so one reader serves both.
//
// Format, version 1. Every integer little-endian; the file is refused on a big-endian machine.
//
//   offset  size  field
//        0     8  magic "GEOLOCSX"
//        8     4  u32 format version (1); a newer version is refused with .unsupported
//       12     4  u32 byte-order mark 0x01020304
//       16     4  u32 header size (128)
//       20     4  u32 flags (0)
//       24     8  u64 p, the gazetteer's places
//       32     8  u64 k, the name keys
//       40     8  u64 e, the postings (a key's places)
//       48     8  u64 bytes of key text
//       56     8  u64 t, the typo trie's nodes
//       64     8  u64 r, the regions
//       72     8  u64 c, the countries
//       80     8  u64 a, the qualifier names
//       88     8  u64 bytes of qualifier-name text
//       96     8  u64 the gazetteer's fingerprint (SearchIndex.fingerprint: the place count and
//                 the ids and names of 64 places spread over it)
//      104     8  u64 the file's size in bytes
//      112     8  u64 the folding's fingerprint (a hash of SearchFoldTables.swift's tables: keys
//                 folded by other tables are refused)
//      120     8  u64 checksum of the whole file, these 8 bytes read as 0 (DataFileChecksum)
//
// Then the sections, each at a multiple of 64 bytes (zero padding between), in this order:
//   keyEnds      k x 4   u32: where key j's bytes end in keyText (key j starts where j - 1 ends)
//   postStarts   (k+1)x4 u32: key j's postings are postings[postStarts[j] ..< postStarts[j+1]]
//   postings     e x 4   u32: place index (bits 0-27) | name kind << 28 (0 the place's own
//                        name, 1 an alternate name); a key's postings by prominence, best first
//   blockBest    ceil(k/32) x 4  u32: the best prominence of the first postings of 32 keys
//   placePop     p x 4   u32: each place's population (clamped to 2^32 - 1)
//   placeRegion  p x 4   u32: each place's region, or 0xFFFFFFFF
//   placeCountry p x 2   u16: each place's country, or 0xFFFF
//   regionCountry r x 2  u16: each region's country
//   countryCodes c x 2   the countries' ISO 3166-1 alpha-2 codes (ASCII), sorted
//   trieFirst    (t+1)x4 u32: node i's children are nodes trieFirst[i] ..< trieFirst[i+1]
//   trieLabel    t x 1   u8: the byte on the edge into node i (0: the end of a key)
//   trieBest     t x 1   u8: the best typo prominence of the keys below node i, as
//                        ceil(255 p) (p of SearchRank.swift; an alternate name's less 2/7)
//   aliasEnds    a x 4   u32: where qualifier name j ends in aliasText
//   aliasTarget  a x 4   u32: what name j names: a region's number, or 0x80000000 | a country's
//   aliasByTarget a x 4  u32: the qualifier names ordered by what they name
//   keyText, aliasText   the folded UTF-8 bytes, one after another
//
// Keys and qualifier names are sorted by their bytes and distinct as (name, target) pairs; keys
// are 1 to 255 bytes. Opening checks, before a query can run: magic, version, byte order, header
// size, the file's size, the checksum, the folding tables; then everything a query relies on not
// to read out of bounds or loop: key and name ends that increase and end at their sections'
// sizes, postings that start at 0, increase and end at their count, every place, region and
// country number in range, each trie node's children a range after it, the ranges in order. A forged file that passes answers queries
// without reading out of bounds (fuzzed in tests/fuzz).

enum SearchFile {
    static let magic: [UInt8] = Array("GEOLOCSX".utf8)
    static let version: UInt32 = 1
    /// Every data file's header (Core/MappedFile.swift), the checksum at its end.
    static let headerSize = DataFileHeader.size
    static let checksumOffset = DataFileHeader.checksumOffset
    static let blockSize = 32
    static let maxPlaces = 1 << 28
    static let noRegion: UInt32 = 0xFFFF_FFFF
    static let noCountry: UInt16 = 0xFFFF
    static let countryBit: UInt32 = 0x8000_0000

    /// The byte offsets of the sections.
    struct Layout {
        var places = 0, keys = 0, postings = 0, keyBytes = 0, nodes = 0, regions = 0, countries = 0
        var aliases = 0, aliasBytes = 0
        var keyEnds = 0, postStarts = 0, postingsAt = 0, blockBest = 0, placePop = 0, placeRegion = 0
        var placeCountry = 0, regionCountry = 0, countryCodes = 0, trieFirst = 0, trieLabel = 0, trieBest = 0
        var aliasEnds = 0, aliasTarget = 0, aliasByTarget = 0, keyText = 0, aliasText = 0, size = 0

        var blocks: Int { (keys + SearchFile.blockSize - 1) / SearchFile.blockSize }

        /// Where each section starts, from the counts; nil when the sizes overflow.
        mutating func place() -> Bool {
            var at = SearchFile.headerSize
            var ok = true
            func section(_ bytes: Int) -> Int {
                let start = at
                let (sum, o1) = at.addingReportingOverflow(bytes)
                let (aligned, o2) = sum.addingReportingOverflow(63)
                if o1 || o2 { ok = false; return 0 }
                at = aligned & ~63
                return start
            }
            func times(_ n: Int, _ w: Int) -> Int {
                let (v, o) = n.multipliedReportingOverflow(by: w)
                if o { ok = false }
                return v
            }
            keyEnds = section(times(keys, 4))
            postStarts = section(times(keys + 1, 4))
            postingsAt = section(times(postings, 4))
            blockBest = section(times(blocks, 4))
            placePop = section(times(places, 4))
            placeRegion = section(times(places, 4))
            placeCountry = section(times(places, 2))
            regionCountry = section(times(regions, 2))
            countryCodes = section(times(countries, 2))
            trieFirst = section(times(nodes + 1, 4))
            trieLabel = section(nodes)
            trieBest = section(nodes)
            aliasEnds = section(times(aliases, 4))
            aliasTarget = section(times(aliases, 4))
            aliasByTarget = section(times(aliases, 4))
            keyText = section(keyBytes)
            aliasText = section(aliasBytes)
            size = at
            return ok
        }
    }

    /// The fingerprint of the folding tables this library was built with.
    static let foldFingerprint: UInt64 = {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for v in searchFoldRanges { h = DataFileChecksum.step(h, UInt64(v)) }
        for b in searchFoldBytes { h = DataFileChecksum.step(h, UInt64(b)) }
        return h
    }()
}

/// A read-only view of a search index's bytes (mapped or in memory), checked on creation.
struct SearchImage: @unchecked Sendable {
    let mapping: MappedFile
    let base: UnsafeRawPointer
    let layout: SearchFile.Layout

    @inline(__always) func u32(_ section: Int, _ i: Int) -> UInt32 {
        UInt32(littleEndian: base.load(fromByteOffset: section + 4 * i, as: UInt32.self))
    }
    @inline(__always) func u16(_ section: Int, _ i: Int) -> UInt16 {
        UInt16(littleEndian: base.load(fromByteOffset: section + 2 * i, as: UInt16.self))
    }
    @inline(__always) func u8(_ section: Int, _ i: Int) -> UInt8 {
        base.load(fromByteOffset: section + i, as: UInt8.self)
    }

    var keyCount: Int { layout.keys }

    /// Key j's bytes.
    @inline(__always) func key(_ j: Int) -> UnsafeBufferPointer<UInt8> {
        let start = j == 0 ? 0 : Int(u32(layout.keyEnds, j - 1))
        let end = Int(u32(layout.keyEnds, j))
        return UnsafeBufferPointer(start: (base + layout.keyText + start).assumingMemoryBound(to: UInt8.self), count: end - start)
    }

    @inline(__always) func postings(_ j: Int) -> Range<Int> {
        Int(u32(layout.postStarts, j))..<Int(u32(layout.postStarts, j + 1))
    }

    @inline(__always) func posting(_ e: Int) -> (place: Int, alternate: Bool) {
        let v = u32(layout.postingsAt, e)
        return (Int(v & 0x0FFF_FFFF), (v >> 28) != 0)
    }

    @inline(__always) func population(_ place: Int) -> UInt32 { u32(layout.placePop, place) }
    @inline(__always) func region(_ place: Int) -> UInt32 { u32(layout.placeRegion, place) }
    @inline(__always) func country(_ place: Int) -> UInt16 { u16(layout.placeCountry, place) }
    @inline(__always) func countryOfRegion(_ region: Int) -> UInt16 { u16(layout.regionCountry, region) }

    func countryCode(_ c: Int) -> String {
        String(decoding: [u8(layout.countryCodes, 2 * c), u8(layout.countryCodes, 2 * c + 1)], as: UTF8.self)
    }

    @inline(__always) func alias(_ j: Int) -> UnsafeBufferPointer<UInt8> {
        let start = j == 0 ? 0 : Int(u32(layout.aliasEnds, j - 1))
        let end = Int(u32(layout.aliasEnds, j))
        return UnsafeBufferPointer(start: (base + layout.aliasText + start).assumingMemoryBound(to: UInt8.self), count: end - start)
    }

    /// Checks the bytes of `mapping` as a search index for a gazetteer of `places` places with
    /// `fingerprint`.
    init(_ mapping: MappedFile, places: Int, fingerprint: UInt64) throws(GeoLocError) {
        let base = mapping.base
        let size = mapping.size
        func u32(_ at: Int) -> UInt32 { mapping.u32(at) }
        func u64(_ at: Int) -> UInt64 { mapping.u64(at) }
        _ = try mapping.checkHeader(
            magic: SearchFile.magic, versions: SearchFile.version...SearchFile.version, sizeOffset: 104,
            name: "search index", plural: "search indexes")
        guard u32(20) == 0 else { throw GeoLocError(.parse, "corrupted search index: bad flags") }
        guard u64(112) == SearchFile.foldFingerprint else {
            throw GeoLocError(.unsupported, "the search index was built with other folding tables than this library's; rebuild it")
        }
        func count(_ at: Int, _ limit: Int) throws(GeoLocError) -> Int {
            let v = u64(at)
            guard v <= UInt64(limit) else { throw GeoLocError(.parse, "corrupted search index: a count (\(v)) is out of range") }
            return Int(v)
        }
        var l = SearchFile.Layout()
        l.places = try count(24, SearchFile.maxPlaces)
        l.keys = try count(32, Int(UInt32.max) - 1)
        l.postings = try count(40, Int(UInt32.max))
        l.keyBytes = try count(48, Int(UInt32.max))
        l.nodes = try count(56, Int(UInt32.max) - 1)
        l.regions = try count(64, Int(SearchFile.countryBit) - 1)
        l.countries = try count(72, Int(SearchFile.noCountry))
        l.aliases = try count(80, Int(UInt32.max))
        l.aliasBytes = try count(88, Int(UInt32.max))
        guard l.place(), l.size == size else {
            throw GeoLocError(.parse, "corrupted search index: its sections do not add up to its size")
        }
        guard l.places == places else {
            throw GeoLocError(.invalidArgument, "the search index was built for a gazetteer of \(l.places) places; this one has \(places)")
        }
        guard u64(96) == fingerprint else {
            throw GeoLocError(.invalidArgument, "the search index was built for another gazetteer (its places' ids and names differ)")
        }
        self.mapping = mapping
        self.base = base
        self.layout = l
        try check()
    }

    /// Everything a query relies on (see the format above).
    private func check() throws(GeoLocError) {
        let l = layout
        func bad(_ what: String) -> GeoLocError { GeoLocError(.parse, "corrupted search index: \(what)") }
        // Key ends, order and postings.
        // (The keys' order is not checked: an unsorted table gives wrong answers, never a read
        // out of bounds, and the checksum refuses an accidental change.)
        var previous = 0
        for j in 0..<l.keys {
            let end = Int(u32(l.keyEnds, j))
            guard end > previous, end <= l.keyBytes, end - previous <= 255 else { throw bad("key \(j) has a bad end") }
            previous = end
        }
        guard previous == l.keyBytes else { throw bad("the key ends do not reach the key text's end") }
        var start = 0
        guard l.keys == 0 || u32(l.postStarts, 0) == 0 else { throw bad("the postings do not start at 0") }
        for j in 0...l.keys {
            let s = Int(u32(l.postStarts, j))
            guard s >= start, s <= l.postings else { throw bad("key \(j)'s postings are out of range") }
            if j > 0 && s == start { throw bad("key \(j - 1) has no place") }
            start = s
        }
        guard start == l.postings else { throw bad("the postings do not end at their count") }
        for e in 0..<l.postings {
            let v = u32(l.postingsAt, e)
            guard Int(v & 0x0FFF_FFFF) < l.places, v >> 28 <= 1 else { throw bad("posting \(e) names no place") }
        }
        for i in 0..<l.places {
            let r = u32(l.placeRegion, i)
            guard r == SearchFile.noRegion || Int(r) < l.regions else { throw bad("place \(i) has a bad region") }
            let c = u16(l.placeCountry, i)
            guard c == SearchFile.noCountry || Int(c) < l.countries else { throw bad("place \(i) has a bad country") }
        }
        for r in 0..<l.regions {
            guard Int(u16(l.regionCountry, r)) < l.countries else { throw bad("region \(r) has a bad country") }
        }
        // The trie: node 0 is the root; each node's children a range after it, the ranges one
        // after another (so the nodes form a tree: a search visits each at most once).
        if l.nodes > 0 {
            guard u32(l.trieFirst, 0) == 1 else { throw bad("the trie's root is malformed") }
            var first = 1
            for i in 0..<l.nodes {
                let f = Int(u32(l.trieFirst, i + 1))
                guard f >= first, f <= l.nodes else { throw bad("trie node \(i)'s children are out of range") }
                guard f == first || first > i else { throw bad("trie node \(i)'s children come before it") }
                first = f
            }
            guard first == l.nodes else { throw bad("the trie's nodes are not all reached") }
        }
        // Qualifier names.
        previous = 0
        for j in 0..<l.aliases {
            let end = Int(u32(l.aliasEnds, j))
            guard end > previous, end <= l.aliasBytes else { throw bad("qualifier name \(j) has a bad end") }
            previous = end
            let t = u32(l.aliasTarget, j)
            if t & SearchFile.countryBit != 0 {
                guard Int(t & ~SearchFile.countryBit) < l.countries else { throw bad("qualifier name \(j) names no country") }
            } else {
                guard Int(t) < l.regions else { throw bad("qualifier name \(j) names no region") }
            }
            guard Int(u32(l.aliasByTarget, j)) < l.aliases else { throw bad("the qualifier names by target are out of range") }
        }
        guard previous == l.aliasBytes else { throw bad("the qualifier names do not reach their text's end") }
    }
}
