#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finding a place by name, offline: forward geocoding and autocomplete over a gazetteer.
///
/// A `PlaceSearch` pairs a ``Gazetteer`` with a search index of its names: each place's own name
/// and, when built with a file of them, its alternate names (the shipped index has GeoNames'
/// alternate names: "Kiev" and "Київ" find Kyiv, "Bombay" Mumbai, "北京" Beijing). The query
/// grammar is in SearchQuery.swift and the header (section 7): "Springfield", "Springfield, IL",
/// "Springfield, Illinois, US", "München, Germany". Any case and accents; one or two typing
/// errors; prefixes for autocomplete; a bias toward a point or a country; a score threshold.
///
/// Any number of threads may search one instance at once (nothing is written after it is made).
public final class PlaceSearch: @unchecked Sendable {
    /// The places searched.
    public let gazetteer: Gazetteer
    let index: SearchIndex

    /// An index over `gazetteer`'s names built in memory: each place's own name and, when
    /// `alternateNames` is given, the names of that file; `countries` adds names of countries
    /// for qualifiers.
    ///
    /// - `alternateNames`: UTF-8 text, one line per place: the place's id as the gazetteer has it
    ///   (the GeoNames id for the shipped one), then its alternate names, separated by tabs;
    ///   lines of unknown ids and lines starting with `#` are skipped (data/search/alternate_names.tsv).
    /// - `countries`: UTF-8 text, one line per country: its ISO 3166-1 alpha-2 code, then other
    ///   names of it (codes or names), tab-separated (data/search/countries.tsv).
    /// - Throws: `.notFound` for a missing file, `.invalidUTF8` for a file that is not UTF-8,
    ///   `.countTooLarge` for a gazetteer of 2^28 places or more.
    public init(gazetteer: Gazetteer, alternateNames: String? = nil, countries: String? = nil) throws(GeoLocError) {
        self.gazetteer = gazetteer
        let mapping = try SearchBuild.image(gazetteer: gazetteer, alternateNames: alternateNames, countries: countries)
        index = SearchIndex(try SearchImage(mapping, places: gazetteer.places.count, fingerprint: SearchBuild.fingerprint(gazetteer.places)))
    }

    /// The index saved by ``save(to:)`` at `path`, opened with mmap (shared between processes,
    /// nothing rebuilt) and checked (the format is at the top of SearchFile.swift).
    /// - Throws: `.notFound` for a missing file; `.parse` for a file that is not a search index,
    ///   is truncated or corrupted; `.unsupported` for a newer version or other folding tables;
    ///   `.invalidArgument` when the index was built for another gazetteer.
    public init(gazetteer: Gazetteer, indexPath path: String) throws(GeoLocError) {
        self.gazetteer = gazetteer
        let mapping = try MappedFile(path: path, what: "search index")
        do {
            index = SearchIndex(try SearchImage(mapping, places: gazetteer.places.count, fingerprint: SearchBuild.fingerprint(gazetteer.places)))
        } catch {
            throw GeoLocError(error.code, "\(path): \(error.message)")
        }
    }

    /// An index over checked bytes (for tests and fuzzing).
    @_spi(Testing)
    public init(gazetteer: Gazetteer, indexBytes bytes: UnsafeRawBufferPointer) throws(GeoLocError) {
        self.gazetteer = gazetteer
        index = SearchIndex(try SearchImage(MappedFile(copying: bytes), places: gazetteer.places.count,
                                            fingerprint: SearchBuild.fingerprint(gazetteer.places)))
    }

    /// Writes the index to `path` (a temporary file renamed over it: a process that has the old
    /// file mapped keeps reading it unharmed).
    public func save(to path: String) throws(GeoLocError) {
        let image = index.image
        try writeFileAtomically(path, UnsafeRawBufferPointer(start: image.base, count: image.layout.size))
    }

    /// The index's size in bytes (on disk and, mapped, in memory).
    public var indexBytes: Int { index.image.layout.size }

    /// How many distinct folded names the index holds.
    public var nameCount: Int { index.image.layout.keys }

    /// Finds places by name; see the type's documentation and ``SearchOptions``. Nothing is
    /// returned when nothing scores at least `options.minimumScore`.
    /// - Throws: `.invalidArgument` for a query over 1,024 bytes or with more than 8 qualifiers,
    ///   or options out of range.
    public func search(_ query: String, options: SearchOptions = SearchOptions()) throws(GeoLocError) -> [SearchCandidate] {
        try options.check()
        return try withUTF8Bytes(query) { (b: UnsafeBufferPointer<UInt8>) throws(GeoLocError) -> [SearchCandidate] in
            try rank(b, options).map { candidate($0) }
        }
    }

    /// ``search(_:options:)`` for each query, in order.
    public func search(_ queries: [String], options: SearchOptions = SearchOptions()) throws(GeoLocError) -> [[SearchCandidate]] {
        try options.check()
        var out: [[SearchCandidate]] = []
        out.reserveCapacity(queries.count)
        for q in queries { out.append(try search(q, options: options)) }
        return out
    }

    /// The ranked matches of a UTF-8 query (the C door's entry: no strings made).
    @_spi(CABI)
    public func rank(_ query: UnsafeBufferPointer<UInt8>, _ options: SearchOptions) throws(GeoLocError) -> [SearchHit] {
        guard let q = try SearchQuery.parse(query) else { return [] }
        return SearchRanker(index: index, places: gazetteer.places, options: options).run(q)
    }

    /// The full candidate of a hit.
    @_spi(CABI)
    public func candidate(_ h: SearchHit) -> SearchCandidate {
        let places = gazetteer.places
        let i = h.place
        func attr(_ names: [String]) -> String {
            for n in names { if let c = places.index(ofAttribute: n) { return places.attribute(column: c, at: i) ?? "" } }
            return ""
        }
        return SearchCandidate(
            index: i, geonameID: Int64(places.id(at: i)) ?? 0, name: places.name(at: i),
            region: attr(Gazetteer.admin1NameNames), regionCode: attr(Gazetteer.admin1CodeNames),
            countryCode: attr(Gazetteer.countryNames), countryName: attr(Gazetteer.countryNameNames),
            coordinate: places.coordinate(at: i), population: Int64(index.image.population(i)), score: h.score,
            match: h.match, edits: h.edits, matchedName: String(decoding: index.image.key(h.key), as: UTF8.self),
            matchedAlternate: h.alternate)
    }

    /// The folded name of key `key` (what ``SearchHit/key`` numbers) as text for the C door: `.parse` for a key that is not UTF-8
    /// text without NUL, which only a forged index holds (the generator writes none; opening
    /// checks the keys' order, and their bytes are checked here, where they become text).
    @_spi(CABI)
    public func keyText(_ key: Int) throws(GeoLocError) -> String {
        let bytes = index.image.key(key)
        guard let p = bytes.baseAddress, !bytes.isEmpty else { return "" }
        guard !bytes.contains(0), isValidUTF8(p, 0, bytes.count) else {
            throw GeoLocError(.parse, "corrupted search index: key \(key) is not UTF-8 text")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// How a candidate's name matched the query.
public enum SearchMatch: Int32, Sendable, CaseIterable {
    /// The folded name equals the query's.
    case exact = 0
    /// The folded name starts with the query's (autocomplete).
    case prefix = 1
    /// The folded name is within one or two typing errors of the query's.
    case typo = 2
}

/// Options of ``PlaceSearch/search(_:options:)``.
public struct SearchOptions: Sendable, Equatable {
    /// At most this many candidates, best first (1...1000; default 10).
    public var limit: Int = 10
    /// Candidates scoring below this are not returned (0...1; default 0.45). See the header
    /// (section 7) for what scores mean: exact names score 0.75 to 1, typing errors 0.35 to 0.7.
    public var minimumScore: Double = 0.45
    /// Autocomplete: the name is the start of the place's name ("spri" finds Springfield);
    /// exact names and prefixes then rank alike, by prominence. Off by default (prefixes are then
    /// found only when no name matches exactly, and rank below typing errors).
    public var prefix: Bool = false
    /// A point to prefer places near (a bonus of up to 0.12 that halves 200 km away).
    public var near: Coordinate? = nil
    /// A country to prefer (an ISO code or a name; a bonus of 0.08), or nil.
    public var country: String? = nil
    /// The most typing errors allowed, 0...2, or nil for the default by the name's length in
    /// characters: none below 4, one for 4, two from 5.
    public var maxEdits: Int? = nil

    public init(limit: Int = 10, minimumScore: Double = 0.45, prefix: Bool = false, near: Coordinate? = nil,
                country: String? = nil, maxEdits: Int? = nil) {
        self.limit = limit
        self.minimumScore = minimumScore
        self.prefix = prefix
        self.near = near
        self.country = country
        self.maxEdits = maxEdits
    }

    func check() throws(GeoLocError) {
        guard limit >= 1 && limit <= 1000 else { throw GeoLocError(.outOfRange, "limit \(limit) is outside 1...1000") }
        guard minimumScore.isFinite else { throw GeoLocError(.notFinite, "minimum score \(minimumScore) is not finite") }
        guard minimumScore >= 0 && minimumScore <= 1 else {
            throw GeoLocError(.outOfRange, "minimum score \(minimumScore) is outside [0, 1]")
        }
        if let maxEdits, maxEdits < 0 || maxEdits > 2 { throw GeoLocError(.outOfRange, "max edits \(maxEdits) is outside 0...2") }
    }
}

/// One match of a search, as the index has it (the C door reads the rest from the gazetteer).
public struct SearchHit: Sendable, Equatable {
    /// The place's index in the gazetteer.
    public var place: Int
    /// The score, in (0, 1].
    public var score: Double
    public var match: SearchMatch
    /// Typing errors (0 for exact and prefix matches).
    public var edits: Int
    /// The matched name's key in the index.
    public var key: Int
    /// Whether the matched name is one of the place's alternate names.
    public var alternate: Bool
}

/// A place found by name.
public struct SearchCandidate: Sendable, Equatable {
    /// The place's index in ``Gazetteer/places`` (as ``Gazetteer/text(ofPlace:style:)`` takes it).
    public var index: Int
    /// Its GeoNames id (the gazetteer's `id` read as a number; 0 when it is not one).
    public var geonameID: Int64
    /// Its name as the gazetteer writes it ("München" is "Munich" there).
    public var name: String
    /// Its first-level region's name ("Illinois"); "" when unknown.
    public var region: String
    /// The region's GeoNames admin1 code ("IL", "08"); "" when unknown.
    public var regionCode: String
    /// ISO 3166-1 alpha-2 country code.
    public var countryCode: String
    /// The country's name as the gazetteer has it; "" when unknown.
    public var countryName: String
    public var coordinate: Coordinate
    /// GeoNames' population (0 when unknown).
    public var population: Int64
    /// How well the place fits the query, in (0, 1]; see the header's section 7.
    public var score: Double
    public var match: SearchMatch
    /// Typing errors, for `.typo` matches.
    public var edits: Int
    /// The name that matched, folded ("kiev", "munchen").
    public var matchedName: String
    /// Whether that name is an alternate name (not the place's own).
    public var matchedAlternate: Bool
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`.
func writeFileAtomically(_ path: String, _ bytes: UnsafeRawBufferPointer) throws(GeoLocError) {
    let temp = path + ".tmp\(getpid())"
    guard let f = fopen(temp, "wb") else {
        throw GeoLocError(.invalidArgument, "\(path): cannot write: \(String(cString: strerror(errno)))")
    }
    let wrote = bytes.isEmpty ? 0 : fwrite(bytes.baseAddress!, 1, bytes.count, f)
    let closed = fclose(f)
    guard wrote == bytes.count, closed == 0 else {
        unlink(temp)
        throw GeoLocError(.invalidArgument, "\(path): cannot write all \(bytes.count) bytes")
    }
    guard rename(temp, path) == 0 else {
        let e = errno
        unlink(temp)
        throw GeoLocError(.invalidArgument, "\(path): cannot rename into place: \(String(cString: strerror(e)))")
    }
}

extension PlaceSearch {
    /// Checks a query's bytes as the C door receives them: valid UTF-8, at most
    /// `SearchQuery.maxBytes` bytes; `what` names it in the message.
    @_spi(CABI)
    public static func checkQuery(_ bytes: UnsafeBufferPointer<UInt8>, _ what: @autoclosure () -> String) throws(GeoLocError) {
        guard bytes.count <= SearchQuery.maxBytes else {
            throw GeoLocError(.invalidArgument, "\(what()) is over \(SearchQuery.maxBytes) bytes, the most a search query may have")
        }
        guard bytes.isEmpty || isValidUTF8(bytes.baseAddress!, 0, bytes.count) else {
            throw GeoLocError(.invalidUTF8, "\(what()) is not valid UTF-8")
        }
    }

    /// Place `i`'s population as the index has it.
    @_spi(CABI)
    public func population(ofPlace i: Int) -> Int64 { Int64(index.image.population(i)) }
}

extension PlaceSearch {
    /// Recomputes the checksum of search-index bytes in place (for tests and fuzzing that change
    /// a file on purpose and want its other checks to run).
    @_spi(Testing)
    public static func resealIndex(_ bytes: UnsafeMutableRawBufferPointer) {
        DataFileChecksum.seal(bytes)
    }
}

extension PlaceSearch {
    /// A text of place `i` for the C door's geoloc_search_text: 0 name, 1 region, 2 region code,
    /// 3 country code, 4 country name.
    @_spi(CABI)
    public func placeText(_ i: Int, field: Int) -> String {
        let c = candidate(SearchHit(place: i, score: 0, match: .exact, edits: 0, key: 0, alternate: false))
        switch field {
        case 0: return c.name
        case 1: return c.region
        case 2: return c.regionCode
        case 3: return c.countryCode
        default: return c.countryName
        }
    }
}
