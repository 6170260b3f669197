#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// How candidates are found and scored. Each score is in (0, 1]:
//
//   prominence p = min(1, log10(population + 1) / 7)   (10 million people: 1; 1,000: 0.43)
//                  an alternate name counts a tenth of the population (p - 1/7)
//   exact name          0.75 + 0.25 p
//   prefix, autocomplete 0.75 + 0.25 p (an exact name 0.005 more)
//   typing errors (e)   0.35 + 0.35 max(0, p - 0.21 (e - 1) - 0.5 max(0, e / L - 0.2))
//                       (L the shorter of the query's and the name's lengths; a misspelt
//                       alternate name counts a hundredth of the population: p - 2/7)
//                       (L: the name's length in characters; one more error weighs as ~30 times
//                       fewer people)
//   prefix, otherwise   0.30 + 0.30 p (0.5 + 0.5 q / L)  (q: the query's length)
//
// then, for each qualifier the place does not fit: -0.35, or when the qualifier names no region or
// country exactly, -0.04 per typing error when it is within one (two from 7 characters) of one of
// the place's region or country names;
// +0.12 * 200 / (200 + km) toward the `near` point; +0.08 in the preferred country; clamped to
// [0, 1] (the order uses the unclamped sum, so that near several well-known places the nearest
// still comes first). Exact names thus rank above typing errors unless a bias lifts them. Ties:
// the larger population first, then the lower index. Typing errors are looked for only when no exact name
// fits every qualifier (in autocomplete, only when nothing starts with the name).

struct SearchRanker {
    let index: SearchIndex
    let places: PlaceSet
    let options: SearchOptions

    private var image: SearchImage { index.image }

    struct Candidate {
        var place: Int
        /// The score before clamping to [0, 1]: the order (a bias can lift several above 1).
        var rank: Double
        var score: Double
        var match: SearchMatch
        var edits: Int
        var key: Int
        var alternate: Bool
    }

    func run(_ q: SearchQuery) -> [SearchHit] {
        var found: [Int: Candidate] = [:]
        let qualifiers = q.qualifiers.map { Qualifier($0, index) }
        let countryBias = options.country.flatMap { countryTarget($0) }
        let nearCos = options.near.map { VectorMath.latitudeCosine($0.latitude * .pi / 180) }
        let nameLength = q.name.withUnsafeBufferPointer { scalarCount($0) }

        func consider(_ key: Int, _ e: Int, _ match: SearchMatch, _ edits: Int, _ qs: [Qualifier], _ extra: Double) {
            let posting = image.posting(e)
            let pop = Double(image.population(posting.place))
            var p = Swift.min(1, log10(pop + 1) / 7)
            if posting.alternate { p = Swift.max(0, p - 1.0 / 7) }
            var s: Double
            switch match {
            case .exact:
                s = 0.75 + 0.25 * p + (options.prefix ? 0.005 : 0)
            case .prefix:
                if options.prefix {
                    s = 0.75 + 0.25 * p
                } else {
                    let keyLength = Swift.max(1, scalarCount(image.key(key)))
                    s = 0.30 + 0.30 * p * (0.5 + 0.5 * Double(nameLength) / Double(keyLength))
                }
            case .typo:
                // A misspelt alternate name is weaker evidence again: a hundredth of the people.
                if posting.alternate { p = Swift.max(0, p - 1.0 / 7) }
                let shorter = Swift.max(1, Swift.min(nameLength, scalarCount(image.key(key))))
                let relative = Swift.max(0, Double(edits) / Double(shorter) - 0.2)
                s = 0.35 + 0.35 * Swift.max(0, p - 0.21 * Double(edits - 1) - 0.5 * relative)
            }
            s += extra
            for qual in qs { s -= qual.penalty(place: posting.place, image: image, index: index) }
            if let c = countryBias, image.country(posting.place) == c { s += 0.08 }
            if let near = options.near, let nearCos {
                let c = places.coordinate(at: posting.place)
                let km = haversine(lat1: near.latitude, lon1: near.longitude, cosLat1: nearCos, lat2: c.latitude,
                                   lon2: c.longitude, cosLat2: VectorMath.latitudeCosine(c.latitude * .pi / 180), radius: 6371.0088, hLimit: .infinity) ?? 0
                s += 0.12 * 200 / (200 + km)
            }
            let cand = Candidate(place: posting.place, rank: s, score: Swift.min(1, Swift.max(0, s)), match: match, edits: edits,
                                 key: key, alternate: posting.alternate)
            if let old = found[posting.place], !better(cand, old) { return }
            found[posting.place] = cand
        }
        func postingsOf(_ key: Int, _ match: SearchMatch, _ edits: Int, _ qs: [Qualifier], _ extra: Double = 0, limit: Int = .max) {
            let r = image.postings(key)
            for e in r.prefix(limit) { consider(key, e, match, edits, qs, extra) }
        }
        func fitsAll(_ c: Candidate, _ qs: [Qualifier]) -> Bool {
            qs.allSatisfy { $0.fitsExactly(place: c.place, image: image) }
        }

        // 1. The name exactly.
        let exactKey = q.name.withUnsafeBufferPointer { index.exact($0) }
        if let exactKey { postingsOf(exactKey, .exact, 0, qualifiers) }
        var settled = found.values.contains { $0.match == .exact && fitsAll($0, qualifiers) }

        // 2. Without a comma: trailing words that name a region or country ("Springfield IL").
        if !settled && qualifiers.isEmpty {
            var cut = q.name.count
            for _ in 0..<3 {
                guard let space = q.name[..<cut].lastIndex(of: 0x20), space > 0 else { break }
                cut = space
                let head = Array(q.name[..<cut])
                let tail = Array(q.name[(cut + 1)...])
                let qual = Qualifier(tail, index)
                guard !qual.targets.isEmpty, let key = head.withUnsafeBufferPointer({ index.exact($0) }) else { continue }
                for e in image.postings(key) where qual.fitsExactly(place: image.posting(e).place, image: image) {
                    consider(key, e, .exact, 0, [qual], -0.02)
                }
            }
            settled = found.values.contains { $0.match == .exact }
        }

        // 3. Prefixes: autocomplete, or when nothing fits exactly.
        if options.prefix || !settled {
            let range = q.name.withUnsafeBufferPointer { index.prefixRange($0) }
            // Autocomplete with a qualifier or a bias looks further for places that fit them.
            let wide = options.prefix && !(qualifiers.isEmpty && countryBias == nil && options.near == nil)
            let want = wide ? 256 : Swift.max(options.limit * 4, 32)
            for key in index.bestKeys(in: range, count: want) where key != exactKey {
                postingsOf(key, .prefix, 0, qualifiers, limit: wide ? 32 : 8)
            }
        }

        // 4. Typing errors: when nothing fits exactly (in autocomplete, when nothing was found).
        if (!options.prefix && !settled) || (options.prefix && found.isEmpty) {
            let k = options.maxEdits ?? (nameLength >= 5 ? 2 : nameLength >= 4 ? 1 : 0)
            if k > 0 {
                // Subtrees that cannot reach the threshold (or, without a qualifier or bias, the
                // limit-th best name found) are skipped; a bias can add up to 0.2.
                let biased = countryBias != nil || options.near != nil
                let plain = qualifiers.isEmpty && !biased
                var hits = q.name.withUnsafeBufferPointer {
                    index.typoKeys($0, maxEdits: k, floor: options.minimumScore, slack: biased ? 0.2 : 0,
                                   keep: plain ? options.limit : 0)
                }
                // The closest and most prominent names first, at most 256 of them.
                if hits.count > 256 {
                    hits.sort { a, b in
                        if a.edits != b.edits { return a.edits < b.edits }
                        let pa = index.prominence(image.postings(a.key).lowerBound)
                        let pb = index.prominence(image.postings(b.key).lowerBound)
                        return pa != pb ? pa > pb : a.key < b.key
                    }
                    hits.removeLast(hits.count - 256)
                }
                for h in hits { postingsOf(h.key, .typo, h.edits, qualifiers, limit: qualifiers.isEmpty ? 16 : 64) }
            }
        }

        var ranked = found.values.filter { $0.score >= options.minimumScore }
        ranked.sort { better($0, $1) }
        return ranked.prefix(options.limit).map {
            SearchHit(place: $0.place, score: $0.score, match: $0.match, edits: $0.edits, key: $0.key, alternate: $0.alternate)
        }
    }

    /// The order of results: score, then population, then index.
    private func better(_ a: Candidate, _ b: Candidate) -> Bool {
        if a.rank != b.rank { return a.rank > b.rank }
        let pa = image.population(a.place), pb = image.population(b.place)
        if pa != pb { return pa > pb }
        if a.place != b.place { return a.place < b.place }
        return a.match.rawValue < b.match.rawValue
    }

    private func countryTarget(_ text: String) -> UInt16? {
        let key = SearchFold.key(text)
        let targets = key.withUnsafeBufferPointer { index.aliasTargets($0) }
        for t in targets where t & SearchFile.countryBit != 0 { return UInt16(t & ~SearchFile.countryBit) }
        return nil
    }
}

/// One qualifier of a query: the regions and countries it names exactly.
struct Qualifier {
    let text: [UInt8]
    let targets: [UInt32]

    init(_ text: [UInt8], _ index: SearchIndex) {
        self.text = text
        targets = text.withUnsafeBufferPointer { index.aliasTargets($0) }
    }

    func fitsExactly(place: Int, image: SearchImage) -> Bool {
        let r = image.region(place)
        let c = image.country(place)
        for t in targets {
            if t & SearchFile.countryBit != 0 {
                if c != SearchFile.noCountry && UInt32(c) == t & ~SearchFile.countryBit { return true }
            } else if r == t {
                return true
            }
        }
        return false
    }

    /// 0 when the place fits; 0.04 per typing error when it is close to one of the names of the
    /// place's region or country; else 0.35.
    func penalty(place: Int, image: SearchImage, index: SearchIndex) -> Double {
        if fitsExactly(place: place, image: image) { return 0 }
        // A qualifier that names a region or country exactly names another one than the place's.
        if !targets.isEmpty { return 0.35 }
        let length = text.withUnsafeBufferPointer { scalarCount($0) }
        let limit = length >= 7 ? 2 : length >= 4 ? 1 : 0
        guard limit > 0 else { return 0.35 }
        var best = limit + 1
        var owners: [UInt32] = []
        let r = image.region(place)
        if r != SearchFile.noRegion { owners.append(r) }
        let c = image.country(place)
        if c != SearchFile.noCountry { owners.append(SearchFile.countryBit | UInt32(c)) }
        text.withUnsafeBufferPointer { t in
            for o in owners {
                for name in index.aliases(of: o) {
                    best = Swift.min(best, searchEditDistance(t, name, limit: limit))
                }
            }
        }
        return best <= limit ? 0.04 * Double(best) : 0.35
    }
}

/// The number of Unicode scalars in valid UTF-8.
@inline(__always)
func scalarCount(_ b: UnsafeBufferPointer<UInt8>) -> Int {
    var n = 0
    for x in b where x & 0xC0 != 0x80 { n += 1 }
    return n
}
