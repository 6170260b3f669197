// What every loader shares (place sets, tracks, the gazetteer): the options and limits of a load,
// the report of the records it could not use, and the log that keeps that report bounded. The
// file reader every loader opens its file with is in Files.swift.

/// A row, feature or point a loader could not use, and why.
public struct LoadIssue: Sendable, Equatable, CustomStringConvertible {
    /// Where it was: for CSV the 1-based line number of the physical line the record starts on;
    /// for GeoJSON the 0-based index of the feature in the document's `features` array (0 for a
    /// document that is a single Feature); for tracks the 0-based index of the point.
    public var record: Int
    /// What was wrong, e.g. `latitude "12abc" is not a decimal number`.
    public var reason: String

    public init(record: Int, reason: String) {
        self.record = record
        self.reason = reason
    }

    public var description: String { "\(record): \(reason)" }
}

/// How a loader reads its input, and the bounds on what one load may read and keep (the C
/// `geoloc_load_options` and `geoloc_load_limits`).
public struct LoadOptions: Sendable {
    /// Whether a bad row or feature fails the whole load (`.parse`, or `.invalidUTF8` when the
    /// first bad row is not valid UTF-8) instead of being skipped and reported.
    public var strict: Bool
    /// The CSV column of the latitude. Nil: the first of `lat`, `latitude`, `y` the header has
    /// (without regard to ASCII case). Not used by GeoJSON.
    public var latitudeColumn: String?
    /// The CSV column of the longitude. Nil: the first of `lon`, `lng`, `long`, `longitude`, `x`.
    /// Not used by GeoJSON.
    public var longitudeColumn: String?
    /// The column (CSV) or property (GeoJSON) of the place's id. Nil: for CSV the first of
    /// `id`, `geonameid`, `place_id`, else the 1-based record number as text; GeoJSON uses the
    /// feature's `id` member first (this property when it has none, else the feature index).
    public var idColumn: String?
    /// The column (CSV) or property (GeoJSON) of the place's name. Nil: `name`, else `title`,
    /// else every name is empty.
    public var nameColumn: String?
    /// The CSV field delimiter, an ASCII byte other than `"`, CR and LF. Nil: a tab when the
    /// header line has a tab and no comma, else a comma.
    public var delimiter: UInt8?
    /// The most issues kept in ``PlaceLoad/issues``; the rest are only counted
    /// (``PlaceLoad/issueTotal``), so a file of bad rows cannot fill memory with their reports.
    public var maxIssues: Int
    /// The most places a load accepts; one more fails the load with `.countTooLarge`.
    public var maxPlaces: Int
    /// The most bytes a load reads (the file's size, or the length of text in memory); more
    /// fails the load with `.countTooLarge` before anything is read or allocated.
    public var maxBytes: Int
    /// The most records (CSV rows, GeoJSON features, track points) a load reads, usable or not;
    /// one more fails the load with `.countTooLarge`.
    public var maxRecords: Int

    /// The default of ``maxIssues``: 1,000 reports (about 100 kB).
    public static let defaultMaxIssues = 1000
    /// The default of ``maxPlaces``: `maxCount` (2^30).
    public static let defaultMaxPlaces = maxCount
    /// The default of ``maxBytes``: `maxCount` bytes (1 GiB).
    public static let defaultMaxBytes = maxCount
    /// The default of ``maxRecords``: `maxCount` (2^30).
    public static let defaultMaxRecords = maxCount

    public init(
        strict: Bool = false, latitudeColumn: String? = nil, longitudeColumn: String? = nil,
        idColumn: String? = nil, nameColumn: String? = nil, delimiter: UInt8? = nil,
        maxIssues: Int = LoadOptions.defaultMaxIssues, maxPlaces: Int = LoadOptions.defaultMaxPlaces,
        maxBytes: Int = LoadOptions.defaultMaxBytes, maxRecords: Int = LoadOptions.defaultMaxRecords
    ) {
        self.strict = strict
        self.latitudeColumn = latitudeColumn
        self.longitudeColumn = longitudeColumn
        self.idColumn = idColumn
        self.nameColumn = nameColumn
        self.delimiter = delimiter
        self.maxIssues = maxIssues
        self.maxPlaces = maxPlaces
        self.maxBytes = maxBytes
        self.maxRecords = maxRecords
    }

    /// Throws `.countTooLarge` when a load already holding `count` places would take one more.
    @inline(__always)
    func admitPlace(after count: Int, at: String) throws(GeoLocError) {
        if count >= maxPlaces {
            throw GeoLocError(.countTooLarge, "\(at)the input has more places than the load allows (max_places \(maxPlaces))")
        }
    }

    /// Throws `.countTooLarge` when `count` bytes are more than the load may read.
    @inline(__always)
    func admitBytes(_ count: Int, at: String) throws(GeoLocError) {
        if count > maxBytes {
            throw GeoLocError(
                .countTooLarge, "\(at)the input has \(count) bytes, more than the load allows (max_bytes \(maxBytes))")
        }
    }
}

/// The issues of one load, the count of the records it read, and the rule of strict mode.
struct IssueLog {
    /// The first `limit` issues.
    var issues: [LoadIssue] = []
    /// Every issue, kept or not.
    var total = 0
    /// The records read so far (`admitRecord`), usable or not.
    var records = 0
    /// The code a strict load fails with: that of the first issue.
    var firstCode: GeoLocError.Code = .parse
    let strict: Bool
    let limit: Int
    let maxRecords: Int

    /// A log keeping at most `limit` issues (strict mode keeps the first, whatever the limit)
    /// and admitting at most `maxRecords` records.
    init(strict: Bool, limit: Int = LoadOptions.defaultMaxIssues, maxRecords: Int = LoadOptions.defaultMaxRecords) {
        self.strict = strict
        self.limit = strict ? max(limit, 1) : max(limit, 0)
        self.maxRecords = maxRecords
    }

    /// A load's log, kept to `options.maxIssues` issues and `options.maxRecords` records.
    init(_ options: LoadOptions) {
        self.init(strict: options.strict, limit: options.maxIssues, maxRecords: options.maxRecords)
    }

    /// Whether rows should still be added: in strict mode, not after the first issue.
    var accepting: Bool { !strict || total == 0 }

    /// Counts one more record read; `.countTooLarge` past the load's `maxRecords`.
    @inline(__always)
    mutating func admitRecord(at: String = "") throws(GeoLocError) {
        records += 1
        if records > maxRecords {
            throw GeoLocError(.countTooLarge, "\(at)the input has more records than the load allows (max_records \(maxRecords))")
        }
    }

    mutating func add(_ record: Int, _ reason: @autoclosure () -> String, code: GeoLocError.Code = .parse) {
        if total == 0 { firstCode = code }
        total += 1
        if issues.count < limit { issues.append(LoadIssue(record: record, reason: reason())) }
    }

    /// Throws in strict mode when there was an issue: `"<source>: line 7: <reason> (and 2 more
    /// bad rows)"`, with `where` naming the record ("line 7", "feature 3").
    func check(source: String?, where name: (Int) -> String, noun: String) throws(GeoLocError) {
        guard strict, let first = issues.first else { return }
        var message = (source.map { $0 + ": " } ?? "") + name(first.record) + ": " + first.reason
        let more = total - 1
        if more > 0 { message += " (and \(more) more bad \(more == 1 ? noun : noun + "s"))" }
        throw GeoLocError(firstCode, message)
    }
}
