// The grammar of a place search query.
//
//   query     = name *( "," qualifier )
//   name      = the place's name, or the start of it with `prefix` (autocomplete)
//   qualifier = a first-level region (its name, "Illinois"; its code as the address forms write
//               it, "IL", "ON", "SP", "NSW"; GeoNames' code where it has letters; the address
//               data's other names of it, "Bayern"), or a country (ISO 3166-1 alpha-2 or alpha-3
//               code, "DE", "DEU"; its name, "Germany"; common other names, "USA", "Deutschland")
//
// "City", "City, ST", "City, State", "City, Country", "City, State, Country" are the forms this
// makes; qualifiers may come in any order and every one must fit the place. Each part is folded
// (SearchFold.swift); empty parts are ignored. Without a comma, a name that is not a place's
// name but ends in words that name the place's region or country is read as if a comma stood
// before them ("Springfield IL", "Paris France").

struct SearchQuery: Equatable {
    /// The folded name.
    var name: [UInt8]
    /// The folded qualifiers, in order.
    var qualifiers: [[UInt8]]

    /// At most this many bytes of a query are read; a longer one is refused.
    static let maxBytes = 1024
    /// At most this many qualifiers are read; more are refused.
    static let maxQualifiers = 8

    /// The query's parts; nil when it holds no name (empty, only separators or commas).
    /// - Throws: `.invalidArgument` for a query longer than `maxBytes` bytes or with more than
    ///   `maxQualifiers` qualifiers.
    static func parse(_ text: String) throws(GeoLocError) -> SearchQuery? {
        try withUTF8Bytes(text) { (b: UnsafeBufferPointer<UInt8>) throws(GeoLocError) -> SearchQuery? in try parse(b) }
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(GeoLocError) -> SearchQuery? {
        guard bytes.count <= maxBytes else {
            throw GeoLocError(.invalidArgument, "a search query is at most \(maxBytes) bytes; this one has \(bytes.count)")
        }
        var parts: [[UInt8]] = []
        var start = 0
        for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x2C {  // ','
            var folded: [UInt8] = []
            SearchFold.append(to: &folded, UnsafeBufferPointer(rebasing: bytes[start..<i]))
            parts.append(folded)
            start = i + 1
        }
        guard let first = parts.first, !first.isEmpty else { return nil }
        let qualifiers = parts.dropFirst().filter { !$0.isEmpty }
        guard qualifiers.count <= maxQualifiers else {
            throw GeoLocError(.invalidArgument, "a search query has at most \(maxQualifiers) qualifiers after its name; this one has \(qualifiers.count)")
        }
        return SearchQuery(name: first, qualifiers: Array(qualifiers))
    }
}
