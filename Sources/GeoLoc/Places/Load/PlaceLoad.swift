#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Loading a place set from CSV or GeoJSON: the public entry points, file reading, and the byte
// helpers both formats share (strict decimal numbers, UTF-8 validation, the issue log). The
// formats themselves are in PlaceLoadCSV.swift and PlaceLoadGeoJSON.swift.

/// A row or feature a loader could not use, and why.
public struct LoadIssue: Sendable, Equatable, CustomStringConvertible {
    /// Where it was: for CSV the 1-based line number of the physical line the record starts on;
    /// for GeoJSON the 0-based index of the feature in the document's `features` array (0 for a
    /// document that is a single Feature).
    public var record: Int
    /// What was wrong, e.g. `latitude "12abc" is not a decimal number`.
    public var reason: String

    public init(record: Int, reason: String) {
        self.record = record
        self.reason = reason
    }

    public var description: String { "\(record): \(reason)" }
}

/// How a loader reads its input.
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

    /// The default of ``maxIssues``: 1,000 reports (about 100 kB).
    public static let defaultMaxIssues = 1000
    /// The default of ``maxPlaces``: `maxCount` (2^30).
    public static let defaultMaxPlaces = maxCount

    public init(
        strict: Bool = false, latitudeColumn: String? = nil, longitudeColumn: String? = nil,
        idColumn: String? = nil, nameColumn: String? = nil, delimiter: UInt8? = nil,
        maxIssues: Int = LoadOptions.defaultMaxIssues, maxPlaces: Int = LoadOptions.defaultMaxPlaces
    ) {
        self.strict = strict
        self.latitudeColumn = latitudeColumn
        self.longitudeColumn = longitudeColumn
        self.idColumn = idColumn
        self.nameColumn = nameColumn
        self.delimiter = delimiter
        self.maxIssues = maxIssues
        self.maxPlaces = maxPlaces
    }

    /// Throws `.countTooLarge` when a load already holding `count` places would take one more.
    @inline(__always)
    func admitPlace(after count: Int, at: String) throws(GeoLocError) {
        if count >= maxPlaces {
            throw GeoLocError(.countTooLarge, "\(at)the input has more places than the load allows (max_places \(maxPlaces))")
        }
    }
}

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
        var text = text
        var result: Result<PlaceLoad, GeoLocError>!
        text.withUTF8 { buffer in
            result = Result { () throws(GeoLocError) in
                try CSVLoader.load(UnsafeRawBufferPointer(buffer), options: options, source: nil)
            }
        }
        return try result.get()
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
        let file = try LoadedFile(path: path)
        defer { file.release() }
        return try CSVLoader.load(file.bytes, options: options, source: path)
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
        var text = text
        var result: Result<PlaceLoad, GeoLocError>!
        text.withUTF8 { buffer in
            result = Result { () throws(GeoLocError) in
                try GeoJSONLoader.load(UnsafeRawBufferPointer(buffer), options: options, source: nil)
            }
        }
        return try result.get()
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
        let file = try LoadedFile(path: path)
        defer { file.release() }
        return try GeoJSONLoader.load(file.bytes, options: options, source: path)
    }
}

// MARK: - Files

/// A whole file read into memory with open/read (no mmap: the file may change under us).
struct LoadedFile {
    let base: UnsafeMutableRawPointer?
    let count: Int

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    init(path: String) throws(GeoLocError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let e = errno
            if e == ENOENT || e == ENOTDIR {
                throw GeoLocError(.notFound, "\(path): no such file")
            }
            throw GeoLocError(.invalidArgument, "\(path): \(systemMessage(e))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw GeoLocError(.invalidArgument, "\(path): \(systemMessage(errno))") }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw GeoLocError(.invalidArgument, "\(path): \(systemMessage(EISDIR))")
        }
        // A regular file's size is known; anything else (a pipe) is read until it ends.
        var capacity = max(Int(info.st_size), 0) + 1
        var buffer = malloc(capacity)
        guard buffer != nil else { throw GeoLocError(.noMemory, "\(path): cannot allocate \(capacity) bytes") }
        var count = 0
        while true {
            if count == capacity {
                capacity *= 2
                guard let grown = realloc(buffer, capacity) else {
                    free(buffer)
                    throw GeoLocError(.noMemory, "\(path): cannot allocate \(capacity) bytes")
                }
                buffer = grown
            }
            let n = read(fd, buffer! + count, capacity - count)
            if n == 0 { break }
            if n < 0 {
                let e = errno
                if e == EINTR { continue }
                free(buffer)
                throw GeoLocError(.invalidArgument, "\(path): \(systemMessage(e))")
            }
            count += n
        }
        self.base = buffer
        self.count = count
    }

    func release() { free(base) }
}

/// The system's text for an errno value ("Permission denied").
private func systemMessage(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
}

// MARK: - The issue log

/// The issues of one load, and the rule of strict mode.
struct IssueLog {
    /// The first `limit` issues.
    var issues: [LoadIssue] = []
    /// Every issue, kept or not.
    var total = 0
    /// The code a strict load fails with: that of the first issue.
    var firstCode: GeoLocError.Code = .parse
    let strict: Bool
    let limit: Int

    init(_ options: LoadOptions) {
        self.strict = options.strict
        // Strict mode reports the first issue, whatever the limit.
        self.limit = options.strict ? max(options.maxIssues, 1) : max(options.maxIssues, 0)
    }

    /// Whether rows should still be added: in strict mode, not after the first issue.
    var accepting: Bool { !strict || total == 0 }

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

// MARK: - Bytes

/// A byte in ASCII lower case.
@inline(__always)
private func asciiLower(_ b: UInt8) -> UInt8 { b >= 65 && b <= 90 ? b + 32 : b }

/// Whether two strings are equal without regard to ASCII case.
func equalIgnoringASCIICase(_ a: String, _ b: String) -> Bool {
    let x = a.utf8, y = b.utf8
    return x.count == y.count && zip(x, y).allSatisfy { asciiLower($0) == asciiLower($1) }
}

/// The length of the well-formed UTF-8 sequence at `p[i]` (a non-ASCII lead byte), or 0 when
/// it is not one (overlong forms, surrogates and values past U+10FFFF are not).
@inline(__always)
func utf8SequenceLength(_ p: UnsafePointer<UInt8>, _ i: Int, _ end: Int) -> Int {
    let b = p[i]
    var need = 0
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch b {
    case 0xC2...0xDF: need = 1
    case 0xE0: need = 2; low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: need = 2
    case 0xED: need = 2; high = 0x9F
    case 0xF0: need = 3; low = 0x90
    case 0xF1...0xF3: need = 3
    case 0xF4: need = 3; high = 0x8F
    default: return 0
    }
    guard i + need < end else { return 0 }
    let second = p[i + 1]
    guard second >= low && second <= high else { return 0 }
    var k = 2
    while k <= need {
        guard p[i + k] & 0xC0 == 0x80 else { return 0 }
        k += 1
    }
    return need + 1
}

/// Whether `p[start..<end]` is well-formed UTF-8. ASCII runs are checked eight bytes at a time.
func isValidUTF8(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
    let raw = UnsafeRawPointer(p)
    var i = start
    while i < end {
        while i + 8 <= end && raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
            i += 8
        }
        guard i < end else { break }
        if p[i] < 0x80 {
            i += 1
            continue
        }
        let n = utf8SequenceLength(p, i, end)
        if n == 0 { return false }
        i += n
    }
    return true
}

/// Text from bytes known to be UTF-8 (invalid bytes, in a message, become U+FFFD).
@inline(__always)
func utf8Text(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> String {
    String(decoding: UnsafeBufferPointer(start: p + start, count: end - start), as: UTF8.self)
}

/// What a strict decimal read found.
enum DecimalRead {
    case value(Double)
    /// Nothing but blanks.
    case empty
    /// Not `[+|-]digits[.digits][(e|E)[+|-]digits]`.
    case malformed
    /// Well-formed, but too large for a Double.
    case infinite
}

/// Exact powers of ten, 10^0 through 10^22 (the largest exactly representable).
private let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

/// Reads a decimal number from `p[start..<end]` with the strict grammar of
/// `Coordinate(parsing:)`: `[+|-] digits [. digits] [(e|E) [+|-] digits]`, at least one digit
/// before or after the point, ASCII spaces and tabs around it allowed; no hex, `inf` or `nan`.
///
/// The value is correctly rounded: up to 19 significant digits and a power of ten within ±22
/// take Clinger's exact fast path (one correctly rounded multiplication or division of exact
/// values), anything else the standard library's parser.
func readDecimal(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> DecimalRead {
    var s = start
    var e = end
    while s < e && (p[s] == 32 || p[s] == 9) { s += 1 }
    while e > s && (p[e - 1] == 32 || p[e - 1] == 9) { e -= 1 }
    if s == e { return .empty }
    var i = s
    var negative = false
    if p[i] == 43 || p[i] == 45 {
        negative = p[i] == 45
        i += 1
    }
    var mantissa: UInt64 = 0
    var digits = 0  // significant digits accumulated (leading zeros not counted)
    var dropped = false  // digits beyond 19 were seen
    var scale = 0  // decimal exponent of the accumulated mantissa
    var seen = 0
    while i < e, p[i] &- 48 < 10 {
        let d = UInt64(p[i] &- 48)
        if digits < 19 {
            mantissa = mantissa * 10 + d
            if mantissa != 0 { digits += 1 }
        } else {
            dropped = true
            scale += 1
        }
        seen += 1
        i += 1
    }
    if i < e && p[i] == 46 {
        i += 1
        while i < e, p[i] &- 48 < 10 {
            let d = UInt64(p[i] &- 48)
            if digits < 19 {
                mantissa = mantissa * 10 + d
                if mantissa != 0 { digits += 1 }
                scale -= 1
            } else {
                dropped = true
            }
            seen += 1
            i += 1
        }
    }
    guard seen > 0 else { return .malformed }
    var exponent = 0
    if i < e && (p[i] == 101 || p[i] == 69) {
        i += 1
        var expNegative = false
        if i < e && (p[i] == 43 || p[i] == 45) {
            expNegative = p[i] == 45
            i += 1
        }
        var expDigits = 0
        while i < e, p[i] &- 48 < 10 {
            if exponent < 100_000 { exponent = exponent * 10 + Int(p[i] &- 48) }
            expDigits += 1
            i += 1
        }
        guard expDigits > 0 else { return .malformed }
        if expNegative { exponent = -exponent }
    }
    guard i == e else { return .malformed }
    let power = scale + exponent
    if !dropped && mantissa <= 1 << 53 && power >= -22 && power <= 22 {
        var v = Double(mantissa)
        if power < 0 { v /= exactPowersOfTen[-power] } else if power > 0 { v *= exactPowersOfTen[power] }
        return .value(negative ? -v : v)
    }
    if mantissa == 0 && !dropped { return .value(negative ? -0.0 : 0.0) }
    // The standard library's correctly rounded parser; it does not take a leading "+".
    let body = p[s] == 43 ? s + 1 : s
    guard let v = Double(utf8Text(p, body, e)) else { return .malformed }
    return v.isFinite ? .value(v) : .infinite
}

