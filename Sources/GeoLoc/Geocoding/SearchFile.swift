#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The search index of a gazetteer in one file, opened with mmap: the sorted name keys with their
// places, the two tries of the typo search (the names forward and reversed), the qualifier names
// (regions, countries) and each place's population, country and region, as they are used in
// memory. An index built in memory is the same bytes, so one reader serves both.
//
// Format, version 2. Every integer little-endian; the file is refused on a big-endian machine.
// Version 1 files (one trie, 4-byte key ends and posting starts) are refused with .unsupported
// ("rebuild it"): the build makes the index from the gazetteer (tools/save_search.c).
//
//   offset  size  field
//        0     8  magic "GEOLOCSX"
//        8     4  u32 format version (2); another version is refused with .unsupported
//       12     4  u32 byte-order mark 0x01020304
//       16     4  u32 header size (128)
//       20     4  u32 flags (0)
//       24     8  u64 p, the gazetteer's places
//       32     8  u64 k, the name keys (B = ceil(k / 32) blocks of 32 keys)
//       40     8  u64 e, the postings (a key's places)
//       48     8  u64 bytes of key text
//       56     8  u64 t, the forward typo trie's nodes
//       64     4  u32 r, the regions
//       68     4  u32 c, the countries
//       72     8  u64 u, the reversed typo trie's nodes
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
//   keyBase      (B+1)x4 u32: where block b's first key starts in keyText (the last: its size)
//   keyLength    k x 1   u8: key j's length in bytes (1-255); key j starts at its block's base
//                        plus the lengths of the keys before it in the block
//   postBase     (B+1)x4 u32: block b's first posting (the last: e)
//   postOffset   k x 2   u16: key j's first posting less its block's base; key j's postings run
//                        to key j + 1's first (the last key's to e)
//   postings     e x 4   u32: place index (bits 0-27) | name kind << 28 (0 the place's own
//                        name, 1 an alternate name); a key's postings by prominence, best first
//   blockBest    B x 4   u32: the best prominence of the first postings of 32 keys
//   placePop     p x 4   u32: each place's population (clamped to 2^32 - 1)
//   placeRegion  p x 4   u32: each place's region, or 0xFFFFFFFF
//   placeCountry p x 2   u16: each place's country, or 0xFFFF
//   regionCountry r x 2  u16: each region's country
//   countryCodes c x 2   the countries' ISO 3166-1 alpha-2 codes (ASCII), sorted
//   trie         (t+1)x4 u32 per node: its first child (bits 0-23; node i's children are nodes
//                        first(i) ..< first(i + 1), node t only marks the end) | the byte on the
//                        edge into it << 24 (0: the end of a key)
//   trieBest     t x 1   u8: the best typo prominence of the keys below node i, as
//                        ceil(255 p) (p of SearchRank.swift; an alternate name's less 2/7)
//   rtrie        (u+1)x4 the same trie over the same keys with their bytes reversed
//   rtrieBest    u x 1
//   aliasEnds    a x 4   u32: where qualifier name j ends in aliasText
//   aliasTarget  a x 4   u32: what name j names: a region's number, or 0x80000000 | a country's
//   aliasByTarget a x 4  u32: the qualifier names ordered by what they name
//   keyText, aliasText   the folded UTF-8 bytes, one after another
//
// Keys and qualifier names are sorted by their bytes; keys are distinct and 1 to 255 bytes.
// Opening checks, before a query can run: magic, version, byte order, header size, the file's
// size, the checksum, the folding tables and the gazetteer it was built for; then everything a
// query relies on, in one pass over each section (no per-block work is deferred to queries):
// the key lengths add up to the block bases and the text's size, **the keys increase strictly**
// (a binary search over them finds every key the file holds: a resealed file with keys out of
// order is refused, not answered from a wrong half), posting starts increase from 0 and end
// below e, every place, region and country number is in range, qualifier names increase and end
// at their text's size and their order by target is a permutation in that order, each trie's
// root starts its children at node 1. A trie's other nodes are checked where a walk reads them
// (SearchIndex.typoKeys): a node whose children are not a range after it within the trie is
// taken for a leaf, and a walk takes only keys that come after the one it found before (as a
// well-formed trie gives them), each looked up in the checked key table and its distance
// computed; so a forged trie can leave keys out of a typo search, never add a wrong one or read
// out of bounds. A forged file that passes is a well-formed index and is answered from what it
// holds (fuzzed in tests/fuzz).
// The checks read each section but the tries once, in order: with the checksum, about 21 of
// the file's 30 MB on open.

enum SearchFile {
    static let magic: [UInt8] = Array("GEOLOCSX".utf8)
    static let version: UInt32 = 2
    /// Every data file's header (Core/MappedFile.swift), the checksum at its end.
    static let blockSize = 32
    static let maxPlaces = 1 << 28
    /// A trie node's first child is 24 bits.
    static let maxNodes = 1 << 24
    static let noRegion: UInt32 = 0xFFFF_FFFF
    static let noCountry: UInt16 = 0xFFFF
    static let countryBit: UInt32 = 0x8000_0000

    /// The byte offsets of the sections.
    struct Layout {
        var places = 0, keys = 0, postings = 0, keyBytes = 0, nodes = 0, rnodes = 0, regions = 0, countries = 0
        var aliases = 0, aliasBytes = 0
        var keyBase = 0, keyLength = 0, postBase = 0, postOffset = 0, postingsAt = 0, blockBest = 0
        var placePop = 0, placeRegion = 0, placeCountry = 0, regionCountry = 0, countryCodes = 0
        var trie = 0, trieBest = 0, rtrie = 0, rtrieBest = 0
        var aliasEnds = 0, aliasTarget = 0, aliasByTarget = 0, keyText = 0, aliasText = 0, size = 0

        var blocks: Int { (keys + SearchFile.blockSize - 1) / SearchFile.blockSize }

        /// Where each section starts, from the counts; false when the sizes overflow.
        mutating func place() -> Bool {
            var at = DataFileHeader.size
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
            keyBase = section(times(blocks + 1, 4))
            keyLength = section(keys)
            postBase = section(times(blocks + 1, 4))
            postOffset = section(times(keys, 2))
            postingsAt = section(times(postings, 4))
            blockBest = section(times(blocks, 4))
            placePop = section(times(places, 4))
            placeRegion = section(times(places, 4))
            placeCountry = section(times(places, 2))
            regionCountry = section(times(regions, 2))
            countryCodes = section(times(countries, 2))
            trie = section(times(nodes + 1, 4))
            trieBest = section(nodes)
            rtrie = section(times(rnodes + 1, 4))
            rtrieBest = section(rnodes)
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

    /// Where key j starts in the key text: its block's base and the lengths before it.
    @inline(__always) func keyStart(_ j: Int) -> Int {
        var s = Int(u32(layout.keyBase, j >> 5))
        let lengths = (base + layout.keyLength).assumingMemoryBound(to: UInt8.self)
        var i = j & ~31
        while i < j { s &+= Int(lengths[i]); i &+= 1 }
        return s
    }

    /// Key j's bytes.
    @inline(__always) func key(_ j: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: (base + layout.keyText + keyStart(j)).assumingMemoryBound(to: UInt8.self),
                            count: Int(u8(layout.keyLength, j)))
    }

    @inline(__always) func postStart(_ j: Int) -> Int {
        j >= layout.keys ? layout.postings : Int(u32(layout.postBase, j >> 5)) &+ Int(u16(layout.postOffset, j))
    }

    @inline(__always) func postings(_ j: Int) -> Range<Int> { postStart(j)..<postStart(j + 1) }

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

    /// Whether the `an` bytes at `a` come before the `bn` bytes at `b` (byte-wise, a prefix
    /// first): the first eight bytes one by one, the rest with memcmp.
    @inline(__always)
    static func ascending(_ a: UnsafePointer<UInt8>, _ an: Int, _ b: UnsafePointer<UInt8>, _ bn: Int) -> Bool {
        let n = Swift.min(an, bn)
        var i = 0
        while i < n && i < 8 {
            if a[i] != b[i] { return a[i] < b[i] }
            i &+= 1
        }
        if n > 8 {
            let c = memcmp(a + 8, b + 8, n - 8)
            if c != 0 { return c < 0 }
        }
        return an < bn
    }

    /// Whether key text `text[a ..< a + an]` comes before `text[b ..< b + bn]` (byte-wise, a
    /// prefix first; `a` < `b`, both within `size` bytes): the first eight bytes compared as one
    /// big-endian number when both have eight bytes of text after them, the rest with memcmp.
    @inline(__always)
    static func keysAscending(_ text: UnsafePointer<UInt8>, _ size: Int, _ a: Int, _ an: Int, _ b: Int, _ bn: Int) -> Bool {
        guard b &+ 8 <= size else { return ascending(text + a, an, text + b, bn) }
        let n = Swift.min(an, bn)
        let wa = UInt64(bigEndian: UnsafeRawPointer(text + a).loadUnaligned(as: UInt64.self))
        let wb = UInt64(bigEndian: UnsafeRawPointer(text + b).loadUnaligned(as: UInt64.self))
        if n < 8 {
            let mask = ~(UInt64.max >> (8 * n))
            let ma = wa & mask, mb = wb & mask
            return ma != mb ? ma < mb : an < bn
        }
        if wa != wb { return wa < wb }
        if n > 8 {
            let c = memcmp(text + a + 8, text + b + 8, n - 8)
            if c != 0 { return c < 0 }
        }
        return an < bn
    }

    /// Checks the bytes of `mapping` as a search index for a gazetteer of `places` places with
    /// `fingerprint`.
    init(_ mapping: MappedFile, places: Int, fingerprint: UInt64) throws(GeoLocError) {
        let base = mapping.base
        let size = mapping.size
        func u32(_ at: Int) -> UInt32 { mapping.u32(at) }
        func u64(_ at: Int) -> UInt64 { mapping.u64(at) }
        // An index of another version (its magic right): refused as unsupported, to be rebuilt.
        if size >= DataFileHeader.size,
           SearchFile.magic.enumerated().allSatisfy({ base.load(fromByteOffset: $0.offset, as: UInt8.self) == $0.element }),
           u32(12) == 0x0102_0304, u32(8) != SearchFile.version, u32(8) != 0 {
            throw GeoLocError(.unsupported, "search index version \(u32(8)); this library reads version \(SearchFile.version): rebuild the index")
        }
        _ = try mapping.checkHeader(
            magic: SearchFile.magic, versions: SearchFile.version...SearchFile.version, sizeOffset: 104,
            name: "search index", plural: "search indexes")
        guard u32(20) == 0 else { throw GeoLocError(.parse, "corrupted search index: bad flags") }
        guard u64(112) == SearchFile.foldFingerprint else {
            throw GeoLocError(.unsupported, "the search index was built with other folding tables than this library's; rebuild it")
        }
        func count(_ v: UInt64, _ limit: Int) throws(GeoLocError) -> Int {
            guard v <= UInt64(limit) else { throw GeoLocError(.parse, "corrupted search index: a count (\(v)) is out of range") }
            return Int(v)
        }
        var l = SearchFile.Layout()
        l.places = try count(u64(24), SearchFile.maxPlaces)
        l.keys = try count(u64(32), Int(UInt32.max) - 1)
        l.postings = try count(u64(40), Int(UInt32.max))
        l.keyBytes = try count(u64(48), Int(UInt32.max))
        l.nodes = try count(u64(56), SearchFile.maxNodes - 1)
        l.regions = try count(UInt64(u32(64)), Int(SearchFile.countryBit) - 1)
        l.countries = try count(UInt64(u32(68)), Int(SearchFile.noCountry))
        l.rnodes = try count(u64(72), SearchFile.maxNodes - 1)
        l.aliases = try count(u64(80), Int(UInt32.max))
        l.aliasBytes = try count(u64(88), Int(UInt32.max))
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
        let lengths = (base + l.keyLength).assumingMemoryBound(to: UInt8.self)
        let text = (base + l.keyText).assumingMemoryBound(to: UInt8.self)
        // Key lengths against the block bases and the text's size, and the keys' order: each
        // key greater than the one before it (byte-wise, a prefix first), in one pass.
        var start = 0
        var previous = 0
        var p = 0
        for b in 0..<l.blocks {
            guard Int(u32(l.keyBase, b)) == start else { throw bad("key block \(b) starts at a wrong place") }
            for j in (b << 5)..<Swift.min(l.keys, (b + 1) << 5) {
                let n = Int(lengths[j])
                guard n > 0, start &+ n <= l.keyBytes else { throw bad("key \(j) is empty or past the key text") }
                if j > 0 && !SearchImage.keysAscending(text, l.keyBytes, previous, p, start, n) {
                    throw bad("key \(j) is not after key \(j - 1)")
                }
                previous = start
                p = n
                start &+= n
            }
        }
        guard start == l.keyBytes, Int(u32(l.keyBase, l.blocks)) == start else {
            throw bad("the key lengths do not add up to the key text's size")
        }
        // Posting starts: from 0, increasing (each key has a place), the last below e.
        guard Int(u32(l.postBase, l.blocks)) == l.postings else { throw bad("the posting blocks do not end at their count") }
        var last = -1
        for j in 0..<l.keys {
            let s = Int(u32(l.postBase, j >> 5)) &+ Int(u16(l.postOffset, j))
            guard s > last, s < l.postings else { throw bad("key \(j)'s postings are out of range") }
            guard j > 0 || s == 0 else { throw bad("the postings do not start at 0") }
            last = s
        }
        guard l.keys > 0 || l.postings == 0 else { throw bad("postings without keys") }
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
        // The tries: node 0 is the root; a node's children are a range after it, which the walk
        // checks where it reads it (SearchIndex.typoKeys): not here, where it would read every
        // node of both (9 MB) on each open. A forged trie can at most leave keys out (its
        // leaves are looked up in the checked key table, each key's distance computed).
        if l.nodes > 0 { guard u32(l.trie, 0) & 0xFF_FFFF == 1 else { throw bad("the trie's root is malformed") } }
        if l.rnodes > 0 { guard u32(l.rtrie, 0) & 0xFF_FFFF == 1 else { throw bad("the reversed trie's root is malformed") } }
        // Qualifier names: their ends, their order, what they name, and the order by target (a
        // permutation of them, by target).
        previous = 0
        var before: UnsafeBufferPointer<UInt8>? = nil
        for j in 0..<l.aliases {
            let end = Int(u32(l.aliasEnds, j))
            guard end > previous, end <= l.aliasBytes else { throw bad("qualifier name \(j) has a bad end") }
            previous = end
            let name = alias(j)
            if let b = before, SearchIndex.less(name, b) { throw bad("qualifier name \(j) is not in order") }
            before = name
            let t = u32(l.aliasTarget, j)
            if t & SearchFile.countryBit != 0 {
                guard Int(t & ~SearchFile.countryBit) < l.countries else { throw bad("qualifier name \(j) names no country") }
            } else {
                guard Int(t) < l.regions else { throw bad("qualifier name \(j) names no region") }
            }
        }
        guard previous == l.aliasBytes else { throw bad("the qualifier names do not reach their text's end") }
        var seen = [Bool](repeating: false, count: l.aliases)
        var target: UInt32 = 0
        for j in 0..<l.aliases {
            let a = Int(u32(l.aliasByTarget, j))
            guard a < l.aliases, !seen[a] else { throw bad("the qualifier names by target are not a permutation") }
            seen[a] = true
            let t = u32(l.aliasTarget, a)
            guard t >= target else { throw bad("the qualifier names by target are not in order") }
            target = t
        }
    }
}
