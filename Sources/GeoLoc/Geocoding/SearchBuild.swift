#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Building a search index (the bytes of SearchFile.swift's format) from a gazetteer and,
// optionally, a file of alternate names and a file of country names.

enum SearchBuild {
    /// Alternate names of places with at least this many people are searched with typos too
    /// (when they are written in ASCII letters after folding: exonyms such as "Kiev", "Peking",
    /// "Bombay"); the places' own names always are. Typo search over every alternate name
    /// (787,721 keys, 4.7 million trie nodes) would cost about five times the memory and time for
    /// names nobody types from memory (machine transliterations, other languages' spellings).
    static let typoAlternateMinPopulation: UInt32 = 100_000

    /// The place's own name, or an alternate one.
    struct Entry {
        var start: Int32
        var length: Int32
        var place: Int32
        var alternate: Bool
    }

    static func image(
        gazetteer g: Gazetteer, alternateNames: String?, countries countryFile: String?
    ) throws(GeoLocError) -> MappedFile {
        let places = g.places
        let n = places.count
        guard n < SearchFile.maxPlaces else {
            throw GeoLocError(.countTooLarge, "a search index holds at most \(SearchFile.maxPlaces - 1) places; the gazetteer has \(n)")
        }
        func column(_ names: [String]) -> Int? { names.lazy.compactMap { places.index(ofAttribute: $0) }.first }
        let ccColumn = column(Gazetteer.countryNames)
        let a1Column = column(Gazetteer.admin1CodeNames)
        let a1NameColumn = column(Gazetteer.admin1NameNames)
        let countryNameColumn = column(Gazetteer.countryNameNames)
        let popColumn = column(["population", "pop"])
        func value(_ c: Int?, _ i: Int) -> String { c.flatMap { places.attribute(column: $0, at: i) } ?? "" }

        // Places: population, country, region.
        var population = [UInt32](repeating: 0, count: n)
        var countryOf = [UInt16](repeating: SearchFile.noCountry, count: n)
        var regionOf = [UInt32](repeating: SearchFile.noRegion, count: n)
        var countryCodes: [String] = []
        var countryNumber: [String: Int] = [:]
        var codes = Set<String>()
        for i in 0..<n {
            let cc = upperASCII(value(ccColumn, i))
            if cc.utf8.count == 2 { codes.insert(cc) }
        }
        countryCodes = codes.sorted()
        guard countryCodes.count < Int(SearchFile.noCountry) else {
            throw GeoLocError(.countTooLarge, "too many countries: \(countryCodes.count)")
        }
        for (k, cc) in countryCodes.enumerated() { countryNumber[cc] = k }
        var regionNumber: [String: Int] = [:]
        var regionCountry: [UInt16] = []
        var regionSample: [Int] = []  // a place of each region, for its names
        for i in 0..<n {
            let p = value(popColumn, i)
            population[i] = UInt32(clamping: Int64(trimmed(p)) ?? 0)
            let cc = upperASCII(value(ccColumn, i))
            guard let c = countryNumber[cc] else { continue }
            countryOf[i] = UInt16(c)
            let code = value(a1Column, i)
            guard !code.isEmpty else { continue }
            let key = cc + "\u{0}" + code
            if let r = regionNumber[key] {
                regionOf[i] = UInt32(r)
            } else {
                let r = regionCountry.count
                regionNumber[key] = r
                regionCountry.append(UInt16(c))
                regionSample.append(i)
                regionOf[i] = UInt32(r)
            }
        }

        // Names: every place's own name, then the alternate names of the file.
        var text: [UInt8] = []
        text.reserveCapacity(16 << 20)
        var entries: [Entry] = []
        entries.reserveCapacity(n * 6)
        func add(_ name: UnsafeBufferPointer<UInt8>, _ place: Int, _ alternate: Bool) {
            let start = text.count
            SearchFold.append(to: &text, name)
            let s = start
            let length = text.count - s
            guard length > 0, length <= 255 else {
                text.removeLast(text.count - start)
                return
            }
            entries.append(Entry(start: Int32(s), length: Int32(length), place: Int32(place), alternate: alternate))
        }
        for i in 0..<n {
            var name = places.name(at: i)
            name.withUTF8 { add($0, i, false) }
        }
        if let alternateNames {
            var byID: [String: Int] = [:]
            byID.reserveCapacity(n)
            for i in 0..<n { byID[places.id(at: i)] = i }
            let file = try LoadedFile(path: alternateNames)
            defer { file.release() }
            let bytes = file.bytes.bindMemory(to: UInt8.self)
            guard bytes.isEmpty || isValidUTF8(bytes.baseAddress!, 0, bytes.count) else {
                throw GeoLocError(.invalidUTF8, "\(alternateNames): not valid UTF-8")
            }
            var lineStart = 0
            var line = 0
            while lineStart < bytes.count {
                var end = lineStart
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                line += 1
                var fields: [Range<Int>] = []
                var f = lineStart
                for k in lineStart...end where k == end || bytes[k] == 0x09 {
                    fields.append(f..<(k > f && bytes[k - 1] == 0x0D && k == end ? k - 1 : k))
                    f = k + 1
                }
                if let first = fields.first, first.count > 0, bytes[first.lowerBound] != 0x23 {  // '#' comments
                    let id = String(decoding: UnsafeBufferPointer(rebasing: bytes[first]), as: UTF8.self)
                    if let place = byID[id] {
                        for r in fields.dropFirst() where !r.isEmpty {
                            add(UnsafeBufferPointer(rebasing: bytes[r]), place, true)
                        }
                    }
                }
                lineStart = end + 1
            }
        }

        // Sort by (key, place, own name first); keep one entry per (key, place).
        let order: [Int] = text.withUnsafeBufferPointer { t in
            var idx = Array(0..<entries.count)
            idx.sort { a, b in
                let ea = entries[a], eb = entries[b]
                let c = compare(t, Int(ea.start), Int(ea.length), Int(eb.start), Int(eb.length))
                if c != 0 { return c < 0 }
                if ea.place != eb.place { return ea.place < eb.place }
                return !ea.alternate && eb.alternate
            }
            return idx
        }
        // Keys and postings.
        var keyText: [UInt8] = []
        var keyLengths: [UInt8] = []
        var postStarts: [UInt32] = [0]
        var postings: [UInt32] = []
        var keyRanges: [(Int, Int)] = []  // into keyText
        func prominence(_ posting: UInt32) -> UInt32 {
            let p = population[Int(posting & 0x0FFF_FFFF)]
            return posting >> 28 != 0 ? p / 10 : p
        }
        text.withUnsafeBufferPointer { t in
            var k = 0
            while k < order.count {
                let e = entries[order[k]]
                var group: [UInt32] = []
                var lastPlace: Int32 = -1
                var m = k
                while m < order.count {
                    let f = entries[order[m]]
                    if m > k && compare(t, Int(e.start), Int(e.length), Int(f.start), Int(f.length)) != 0 { break }
                    if f.place != lastPlace {
                        group.append(UInt32(f.place) | (f.alternate ? 1 << 28 : 0))
                        lastPlace = f.place
                    }
                    m += 1
                }
                group.sort { a, b in
                    let pa = prominence(a), pb = prominence(b)
                    return pa != pb ? pa > pb : (a & 0x0FFF_FFFF) < (b & 0x0FFF_FFFF)
                }
                let s = keyText.count
                keyText.append(contentsOf: t[Int(e.start)..<Int(e.start + e.length)])
                keyRanges.append((s, keyText.count))
                keyLengths.append(UInt8(e.length))
                postings.append(contentsOf: group)
                postStarts.append(UInt32(postings.count))
                k = m
            }
        }
        let keys = keyLengths.count
        var blockBest = [UInt32](repeating: 0, count: (keys + SearchFile.blockSize - 1) / SearchFile.blockSize)
        for j in 0..<keys {
            let b = prominence(postings[Int(postStarts[j])])
            blockBest[j / SearchFile.blockSize] = max(blockBest[j / SearchFile.blockSize], b)
        }

        // The typo trie over the keys of own names, and of ASCII alternate names of large places.
        var domain: [Int] = []
        for j in 0..<keys {
            let r = keyRanges[j]
            let ascii = keyText[r.0..<r.1].allSatisfy { $0 < 0x80 }
            for e in Int(postStarts[j])..<Int(postStarts[j + 1]) {
                let v = postings[e]
                if v >> 28 == 0 || (ascii && population[Int(v & 0x0FFF_FFFF)] >= typoAlternateMinPopulation) {
                    domain.append(j)
                    break
                }
            }
        }
        // Each key's best typo prominence: from its best place.
        func typoBest(_ j: Int) -> UInt8 {
            var best = 0.0
            for e in Int(postStarts[j])..<Int(postStarts[j + 1]) {
                let v = postings[e]
                var p = Swift.min(1, log10(Double(population[Int(v & 0x0FFF_FFFF)]) + 1) / 7)
                if v >> 28 != 0 { p -= 2.0 / 7 }
                best = Swift.max(best, p)
            }
            return UInt8(Swift.min(255, Swift.max(0, (best * 255).rounded(.up))))
        }
        // The trie of `keys` (sorted; `of` gives each one's key number) as records (first child |
        // label << 24) and each node's best.
        func packedTrie(_ keys: [UnsafeBufferPointer<UInt8>], _ of: [Int]) throws(GeoLocError) -> ([UInt32], [UInt8]) {
            let (first, label, trieKey) = trie(keys)
            guard label.count < SearchFile.maxNodes else {
                throw GeoLocError(.countTooLarge, "the typo trie would have \(label.count) nodes")
            }
            var best = [UInt8](repeating: 0, count: label.count)
            for node in 1..<Swift.max(label.count, 1) where label[node] == 0 {
                best[node] = typoBest(of[Int(trieKey[node])])
            }
            if label.count > 1 {
                for node in stride(from: label.count - 1, through: 0, by: -1) {
                    for c in Int(first[node])..<Int(first[node + 1]) where best[c] > best[node] {
                        best[node] = best[c]
                    }
                }
            }
            var records = [UInt32](repeating: 0, count: first.count)
            for i in 0..<first.count { records[i] = first[i] | (i < label.count ? UInt32(label[i]) << 24 : 0) }
            return (records, best)
        }
        let domainKeys: [[UInt8]] = domain.map { Array(keyText[keyRanges[$0].0..<keyRanges[$0].1]) }
        var reversedKeys: [([UInt8], Int)] = domainKeys.enumerated().map { (Array($0.element.reversed()), domain[$0.offset]) }
        reversedKeys.sort { a, b in
            a.0.withUnsafeBufferPointer { x in b.0.withUnsafeBufferPointer { y in SearchIndex.compare(x, y) < 0 } }
        }
        let (trieRecords, trieBest) = try withBuffers(domainKeys) { keys throws(GeoLocError) in try packedTrie(keys, domain) }
        let (rtrieRecords, rtrieBest) = try withBuffers(reversedKeys.map { $0.0 }) { keys throws(GeoLocError) in
            try packedTrie(keys, reversedKeys.map { $0.1 })
        }

        // Qualifier names of regions and countries.
        var aliasEntries: [([UInt8], UInt32)] = []
        func alias(_ name: String, _ target: UInt32) {
            let k = SearchFold.key(name)
            if !k.isEmpty && k.count <= 255 { aliasEntries.append((k, target)) }
        }
        var extraCountry: [String: [String]] = [:]
        if let countryFile {
            let file = try LoadedFile(path: countryFile)
            defer { file.release() }
            let bytes = file.bytes.bindMemory(to: UInt8.self)
            guard bytes.isEmpty || isValidUTF8(bytes.baseAddress!, 0, bytes.count) else {
                throw GeoLocError(.invalidUTF8, "\(countryFile): not valid UTF-8")
            }
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
                let f = line.split(separator: "\t", omittingEmptySubsequences: false).map { String(trimmed($0)) }
                guard f.count >= 2 else { continue }
                extraCountry[upperASCII(f[0]), default: []].append(contentsOf: f.dropFirst().filter { !$0.isEmpty })
            }
        }
        for (c, cc) in countryCodes.enumerated() {
            let t = SearchFile.countryBit | UInt32(c)
            alias(cc, t)
            if let name = Country.name(forCode: cc) { alias(name, t) }
            for name in extraCountry[cc] ?? [] { alias(name, t) }
            for (name, code) in countryAliasTable where code == cc { alias(name, t) }
        }
        if let countryNameColumn {
            var seen = Set<Int>()
            for i in 0..<n where countryOf[i] != SearchFile.noCountry && seen.insert(Int(countryOf[i])).inserted {
                alias(value(countryNameColumn, i), SearchFile.countryBit | UInt32(countryOf[i]))
            }
        }
        for (r, i) in regionSample.enumerated() {
            let t = UInt32(r)
            let cc = countryCodes[Int(regionCountry[r])]
            let code = value(a1Column, i)
            let name = value(a1NameColumn, i)
            if !name.isEmpty { alias(name, t) }
            // GeoNames' own codes where they are letters ("IL", "ZH"); numbers ("08") nobody writes.
            if code.utf8.contains(where: { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) { alias(code, t) }
            // The code the address forms write ("ON", "SP", "NSW") and the data's other names.
            var comps = AddressComponents()
            comps[.state] = name.isEmpty ? nil : name
            if cc == "US" && !code.isEmpty { comps[.stateCode] = code }
            comps[.countryCode] = cc
            if let written = shortPlace(comps).regionCode, !written.isEmpty {
                alias(written, t)
                for entry in subdivisionTable[cc] ?? [] where entry.code == written {
                    for other in entry.names { alias(other, t) }
                }
            }
        }
        aliasEntries.sort { a, b in
            let c = a.0.withUnsafeBufferPointer { x in b.0.withUnsafeBufferPointer { y in SearchIndex.compare(x, y) } }
            return c != 0 ? c < 0 : a.1 < b.1
        }
        var aliasText: [UInt8] = []
        var aliasEnds: [UInt32] = []
        var aliasTarget: [UInt32] = []
        for (k, e) in aliasEntries.enumerated() {
            if k > 0 && aliasEntries[k - 1].0 == e.0 && aliasEntries[k - 1].1 == e.1 { continue }
            aliasText.append(contentsOf: e.0)
            aliasEnds.append(UInt32(aliasText.count))
            aliasTarget.append(e.1)
        }
        let byTarget: [Int] = (0..<aliasTarget.count).sorted { (a: Int, b: Int) -> Bool in
            let ta = aliasTarget[a], tb = aliasTarget[b]
            return ta != tb ? ta < tb : a < b
        }
        let aliasByTarget: [UInt32] = byTarget.map { UInt32($0) }

        // The image.
        var l = SearchFile.Layout()
        l.places = n
        l.keys = keys
        l.postings = postings.count
        l.keyBytes = keyText.count
        l.nodes = trieBest.count
        l.rnodes = rtrieBest.count
        l.regions = regionCountry.count
        l.countries = countryCodes.count
        l.aliases = aliasTarget.count
        l.aliasBytes = aliasText.count
        guard l.place(), keyText.count < Int(UInt32.max), postings.count < Int(UInt32.max) else {
            throw GeoLocError(.countTooLarge, "the search index would be too large")
        }
        var raw: UnsafeMutableRawPointer? = nil
        guard posix_memalign(&raw, 64, l.size) == 0, let file = raw else {
            throw GeoLocError(.noMemory, "no memory for a search index of \(l.size) bytes")
        }
        defer { free(file) }
        memset(file, 0, l.size)
        func put<T: FixedWidthInteger>(_ v: T, _ at: Int) { file.storeBytes(of: v.littleEndian, toByteOffset: at, as: T.self) }
        func array<T: FixedWidthInteger>(_ a: [T], _ at: Int) {
            for (k, v) in a.enumerated() { put(v, at + k * MemoryLayout<T>.size) }
        }
        for (k, b) in SearchFile.magic.enumerated() { put(b, k) }
        put(SearchFile.version, 8)
        put(UInt32(0x0102_0304), 12)
        put(UInt32(DataFileHeader.size), 16)
        put(UInt32(0), 20)
        for (at, v) in [(24, l.places), (32, l.keys), (40, l.postings), (48, l.keyBytes), (56, l.nodes), (72, l.rnodes),
                        (80, l.aliases), (88, l.aliasBytes)] {
            put(UInt64(v), at)
        }
        put(UInt32(l.regions), 64)
        put(UInt32(l.countries), 68)
        put(fingerprint(places), 96)
        put(UInt64(l.size), 104)
        put(SearchFile.foldFingerprint, 112)
        // Key lengths and posting starts by blocks of 32 keys: a base per block, then small numbers.
        var keyBase: [UInt32] = []
        var postBase: [UInt32] = []
        var postOffset = [UInt16](repeating: 0, count: keys)
        var at = 0
        for j in 0..<keys {
            if j % SearchFile.blockSize == 0 {
                keyBase.append(UInt32(at))
                postBase.append(postStarts[j])
            }
            let offset = postStarts[j] - postBase[j / SearchFile.blockSize]
            guard offset <= UInt32(UInt16.max) else {
                throw GeoLocError(.countTooLarge, "32 keys with more than 65,535 places between them")
            }
            postOffset[j] = UInt16(offset)
            at += Int(keyLengths[j])
        }
        keyBase.append(UInt32(at))
        postBase.append(UInt32(postings.count))
        array(keyBase, l.keyBase)
        array(keyLengths, l.keyLength)
        array(postBase, l.postBase)
        array(postOffset, l.postOffset)
        array(postings, l.postingsAt)
        array(blockBest, l.blockBest)
        array(population, l.placePop)
        array(regionOf, l.placeRegion)
        array(countryOf, l.placeCountry)
        array(regionCountry, l.regionCountry)
        let codeBytes: [UInt8] = countryCodes.flatMap { Array($0.utf8) }
        array(codeBytes, l.countryCodes)
        array(trieRecords, l.trie)
        array(trieBest, l.trieBest)
        array(rtrieRecords, l.rtrie)
        array(rtrieBest, l.rtrieBest)
        array(aliasEnds, l.aliasEnds)
        array(aliasTarget, l.aliasTarget)
        array(aliasByTarget, l.aliasByTarget)
        array(keyText, l.keyText)
        array(aliasText, l.aliasText)
        let sum = DataFileChecksum.of(UnsafeRawBufferPointer(start: file, count: l.size))
        put(sum, DataFileHeader.checksumOffset)
        return try MappedFile(copying: UnsafeRawBufferPointer(start: file, count: l.size))
    }

    /// `body` over buffers of `arrays`' bytes.
    private static func withBuffers<R>(
        _ arrays: [[UInt8]], _ body: ([UnsafeBufferPointer<UInt8>]) throws(GeoLocError) -> R
    ) throws(GeoLocError) -> R {
        var flat: [UInt8] = []
        var ranges: [(Int, Int)] = []
        for a in arrays {
            ranges.append((flat.count, flat.count + a.count))
            flat.append(contentsOf: a)
        }
        let result: Result<R, GeoLocError> = flat.withUnsafeBufferPointer { t in
            do throws(GeoLocError) {
                return .success(try body(ranges.map { UnsafeBufferPointer(rebasing: t[$0.0..<$0.1]) }))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The trie of sorted, distinct keys in breadth-first order: node 0 the root; a node's
    /// children contiguous and by label; a key's end a child labelled 0.
    /// Also each node's first key (for an end of key: its key).
    static func trie(_ keys: [UnsafeBufferPointer<UInt8>]) -> ([UInt32], [UInt8], [Int32]) {
        guard !keys.isEmpty else { return ([0], [], []) }
        var label: [UInt8] = [0]
        var first: [UInt32] = []
        // Node i covers keys lo..<hi sharing their first `depth` bytes (and is an end when it is
        // labelled 0 below the root).
        var lo: [Int32] = [0], hi: [Int32] = [Int32(keys.count)], depth: [Int32] = [0]
        var i = 0
        while i < label.count {
            first.append(UInt32(label.count))
            if i == 0 || label[i] != 0 {
                var k = Int(lo[i])
                let end = Int(hi[i])
                let d = Int(depth[i])
                while k < end {
                    if keys[k].count == d {
                        label.append(0); lo.append(Int32(k)); hi.append(Int32(k + 1)); depth.append(Int32(d))
                        k += 1
                        continue
                    }
                    let b = keys[k][d]
                    var m = k + 1
                    while m < end && keys[m].count > d && keys[m][d] == b { m += 1 }
                    label.append(b); lo.append(Int32(k)); hi.append(Int32(m)); depth.append(Int32(d + 1))
                    k = m
                }
            }
            i += 1
        }
        first.append(UInt32(label.count))
        return (first, label, lo)
    }

    /// The gazetteer's fingerprint: its place count and the ids and names of 64 places spread
    /// over it (cheap enough to check on every open).
    static func fingerprint(_ places: PlaceSet) -> UInt64 {
        let n = places.count
        var h = DataFileChecksum.step(0x9E37_79B9_7F4A_7C15, UInt64(n))
        guard n > 0 else { return h }
        for k in 0..<64 {
            let i = (k * (n - 1)) / 63
            for s in [places.id(at: i), places.name(at: i)] {
                for b in s.utf8 { h = DataFileChecksum.step(h, UInt64(b)) }
                h = DataFileChecksum.step(h, 0xFF)
            }
        }
        return h
    }

    private static func upperASCII(_ s: String) -> String {
        String(decoding: trimmed(s).utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 32 : $0 }, as: UTF8.self)
    }

    private static func compare(_ t: UnsafeBufferPointer<UInt8>, _ a: Int, _ la: Int, _ b: Int, _ lb: Int) -> Int {
        SearchIndex.compare(UnsafeBufferPointer(rebasing: t[a..<(a + la)]), UnsafeBufferPointer(rebasing: t[b..<(b + lb)]))
    }
}
