// Loading a place set from CSV or GeoJSON: the public entry points. The formats themselves are
// in PlaceLoadCSV.swift and PlaceLoadGeoJSON.swift; the options, limits and issues of a load,
// the file reader, UTF-8 and strict decimal numbers are shared with the other loaders (Core/).

/// The result of a load: the places that could be used and a report of those that could not.
public struct PlaceLoad: Sendable {
    /// The usable rows or features, in input order.
    public let places: PlaceSet
    /// The first ``LoadOptions/maxIssues`` unusable rows or features, in input order (empty
    /// after a strict load).
    public let issues: [LoadIssue]
    /// How many unusable rows or features there were, those beyond `issues` included.
    public let issueTotal: Int

    public init(places: PlaceSet, issues: [LoadIssue], issueTotal: Int? = nil) {
        self.places = places
        self.issues = issues
        self.issueTotal = max(issueTotal ?? issues.count, issues.count)
    }
}

extension PlaceSet {
    /// Loads places from CSV text (RFC 4180).
    ///
    /// The header row names the columns. The latitude and longitude columns are required (see
    /// ``LoadOptions``); the id and name columns are optional; every other column becomes an
    /// attribute of that name, an empty field an absent value. Fields may be quoted (`"a, b"`,
    /// `""` for a quote, line breaks inside), lines end in LF or CRLF, a UTF-8 byte order mark
    /// is skipped, blank lines are ignored. Coordinates are strict decimal numbers
    /// (`[+|-]digits[.digits][e[+|-]digits]`, ASCII blanks around allowed); longitudes are
    /// reduced to [-180, 180).
    ///
    /// A row with the wrong number of fields, a missing, malformed, infinite or out-of-range
    /// coordinate, a broken quote or bytes that are not UTF-8 is skipped and reported in
    /// ``PlaceLoad/issues`` with its line number.
    /// - Throws: `.invalidArgument` when there is no header row (empty or blank-only input), the header lacks a latitude or longitude column, names
    ///   a column twice, or names no column an option asks for, or for a bad delimiter;
    ///   `.invalidUTF8` for a header that is not UTF-8; `.parse` for a header with a broken
    ///   quote; in strict mode `.parse` (`.invalidUTF8`) for the first bad row, naming its line
    ///   and the number of further bad rows.
    public static func load(csv text: String, options: LoadOptions = .init()) throws(GeoLocError) -> PlaceLoad {
        try CSVLoader.load(text: text, options: options)
    }

    /// Loads places from CSV bytes (UTF-8); see the text form of `load(csv:options:)`.
    public static func load(
        csv bytes: UnsafeRawBufferPointer, options: LoadOptions = .init()
    ) throws(GeoLocError) -> PlaceLoad {
        try CSVLoader.load(bytes, options: options, source: nil)
    }

    /// Loads places from a CSV file, read whole; see the text form of `load(csv:options:)`. Error
    /// messages start with the path.
    /// - Throws: `.notFound` for a file that does not exist, `.invalidArgument` for one that
    ///   cannot be read (with the system's reason), and the errors of the text form of `load(csv:options:)`.
    public static func load(csvFile path: String, options: LoadOptions = .init()) throws(GeoLocError) -> PlaceLoad {
        try CSVLoader.load(file: path, options: options)
    }

    /// Loads places from GeoJSON text (RFC 7946): a FeatureCollection of Point features, or a
    /// single Feature.
    ///
    /// A feature's position is `[longitude, latitude]` (an altitude after them is ignored), its
    /// properties become attributes (strings as they are; numbers as written in the JSON;
    /// `true`/`false`; `null` as an absent value; objects and arrays as compact JSON text). The
    /// id is the feature's `id` member (a string, or a number as written), else the
    /// ``LoadOptions/idColumn`` property, else the feature's index; the name is the
    /// ``LoadOptions/nameColumn`` property, else `name`, else `title`. The properties used as
    /// id and name are not attributes.
    ///
    /// A feature that is not a Feature object, or whose geometry is missing, null, not a Point
    /// or has bad coordinates, is skipped and reported with its index.
    /// - Throws: `.parse` for text that is not JSON (naming the byte offset, line and column) or
    ///   not a FeatureCollection or Feature, or nested deeper than 512 levels; `.invalidUTF8`
    ///   for bytes that are not UTF-8; in strict mode `.parse` for the first bad feature,
    ///   naming its index and the number of further bad features.
    public static func load(geoJSON text: String, options: LoadOptions = .init()) throws(GeoLocError) -> PlaceLoad {
        try GeoJSONLoader.load(text: text, options: options)
    }

    /// Loads places from GeoJSON bytes (UTF-8); see the text form of `load(geoJSON:options:)`.
    public static func load(
        geoJSON bytes: UnsafeRawBufferPointer, options: LoadOptions = .init()
    ) throws(GeoLocError) -> PlaceLoad {
        try GeoJSONLoader.load(bytes, options: options, source: nil)
    }

    /// Loads places from a GeoJSON file, read whole; see the text form of `load(geoJSON:options:)`.
    /// - Throws: `.notFound` for a file that does not exist, `.invalidArgument` for one that
    ///   cannot be read, and the errors of the text form of `load(geoJSON:options:)`.
    public static func load(geoJSONFile path: String, options: LoadOptions = .init()) throws(GeoLocError) -> PlaceLoad {
        try GeoJSONLoader.load(file: path, options: options)
    }
}

/// A place format (`CSVLoader`, `GeoJSONLoader`): one function on bytes, `source` the path that
/// starts its messages (nil for text). The text and file forms are the same for every format.
protocol PlaceFormatLoader {
    static func load(_ bytes: UnsafeRawBufferPointer, options: LoadOptions, source: String?) throws(GeoLocError) -> PlaceLoad
}

extension PlaceFormatLoader {
    /// The places of `text`'s UTF-8 bytes.
    static func load(text: String, options: LoadOptions) throws(GeoLocError) -> PlaceLoad {
        try withUTF8Bytes(text) { (buffer) throws(GeoLocError) -> PlaceLoad in
            try load(UnsafeRawBufferPointer(buffer), options: options, source: nil)
        }
    }

    /// The places of the file at `path`, read whole (at most `options.maxBytes`); messages
    /// start with the path.
    static func load(file path: String, options: LoadOptions) throws(GeoLocError) -> PlaceLoad {
        let file = try LoadedFile(path: path, maxBytes: options.maxBytes)
        defer { file.release() }
        return try load(file.bytes, options: options, source: path)
    }
}

extension CSVLoader: PlaceFormatLoader {}
extension GeoJSONLoader: PlaceFormatLoader {}
