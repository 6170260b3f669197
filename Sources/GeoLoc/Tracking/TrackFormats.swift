#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading and writing tracks: GPX 1.0 and 1.1 (tracks, routes and waypoints) and GeoJSON
/// (LineString and MultiLineString geometries, Features and FeatureCollections of them, Point
/// features as waypoints). Accuracy is not in either format: read fixes have accuracy 0.
public enum TrackFormat {
    // MARK: Reading

    /// Reads GPX 1.0 or 1.1, streaming (memory does not grow with the document, only with
    /// what it holds).
    ///
    /// - Segments: each `trkseg` of each `trk`, and each `rte` (its `rtept`), in document order;
    ///   `pathNames` holds each `trk`'s and `rte`'s `name`. Waypoints (`wpt`) apart.
    /// - A point's values: `lat`/`lon` (required), `ele`, `time` (ISO 8601; no zone is UTC),
    ///   `name`, and GPX 1.0's `speed` and `course`. An empty or absent one is absent (NaN); a
    ///   point without a time is kept, whether or not others have one.
    /// - Issues (the first `options.maxIssues`, all counted): a point without a usable position
    ///   (no or malformed `lat`/`lon`, a latitude beyond ±90) is skipped; a malformed `ele`,
    ///   `time`, `speed` or `course` is dropped and the point kept. Each names the point's kind,
    ///   record (its index among the file's elements of that kind) and line: "trkpt 3 (line 12):
    ///   lat \"abc\" is not a decimal number". In strict mode the first one fails the load
    ///   (`.parse`).
    /// - Encodings: UTF-8 (a byte-order mark allowed), UTF-16 (with a byte-order mark, or
    ///   starting with `<?`), ISO-8859-1, ISO-8859-15, Windows-1252 and US-ASCII, as the XML
    ///   declaration says; any other is `.unsupported`.
    /// - Everything else (metadata, extensions, other namespaces' elements) is skipped. A
    ///   DOCTYPE (and so any entity declaration) is refused.
    /// - Limits (`options`; the column options do not apply): at most `maxBytes` bytes (more is
    ///   refused before anything is read) and `maxRecords` points (`trkpt`, `rtept` and `wpt`,
    ///   usable or not; one more fails the load), both `.countTooLarge` naming the limit.
    /// - Throws: `.parse` for malformed XML (line and column), a root that is not `gpx`, text
    ///   that is not valid in its encoding; `.invalidUTF8` for a UTF-8 document that is not
    ///   (its line and column); `.unsupported` for an encoding not supported; `.countTooLarge`
    ///   past a limit.
    public static func readGPX(_ bytes: UnsafeRawBufferPointer, options: LoadOptions, source: String? = nil) throws(GeoLocError) -> TrackLoad {
        let at = source.map { $0 + ": " } ?? ""
        try options.admitBytes(bytes.count, at: at)
        let input: XMLInput
        do throws(GeoLocError) { input = try XMLInput(memory: bytes) } catch {
            throw GeoLocError(error.code, at + error.message)
        }
        var reader = GPXReader(input, options: options, source: source)
        return try reader.read()
    }

    /// Reads GPX with the default limits; see `readGPX(_:options:source:)`.
    public static func readGPX(_ bytes: UnsafeRawBufferPointer, strict: Bool = false, source: String? = nil) throws(GeoLocError) -> TrackLoad {
        try readGPX(bytes, options: LoadOptions(strict: strict), source: source)
    }

    /// Reads GPX from a stream of bytes (a chunk at a time; see `readGPX(_:options:source:)`).
    static func readGPX(stream: consuming some ByteSource, options: LoadOptions, source: String?) throws(GeoLocError) -> TrackLoad {
        let input: XMLInput
        do throws(GeoLocError) { input = try XMLInput(source: stream) } catch {
            throw GeoLocError(error.code, (source.map { $0 + ": " } ?? "") + error.message)
        }
        var reader = GPXReader(input, options: options, source: source)
        return try reader.read()
    }

    /// Reads GPX text.
    public static func readGPX(text: String, options: LoadOptions) throws(GeoLocError) -> TrackLoad {
        try withUTF8Bytes(text) { (b) throws(GeoLocError) in try readGPX(UnsafeRawBufferPointer(b), options: options) }
    }

    /// Reads GPX text with the default limits.
    public static func readGPX(text: String, strict: Bool = false) throws(GeoLocError) -> TrackLoad {
        try readGPX(text: text, options: LoadOptions(strict: strict))
    }

    /// Reads GeoJSON text.
    public static func readGeoJSON(text: String, options: LoadOptions) throws(GeoLocError) -> TrackLoad {
        try withUTF8Bytes(text) { (b) throws(GeoLocError) in try readGeoJSON(UnsafeRawBufferPointer(b), options: options) }
    }

    /// Reads GeoJSON text with the default limits.
    public static func readGeoJSON(text: String, strict: Bool = false) throws(GeoLocError) -> TrackLoad {
        try readGeoJSON(text: text, options: LoadOptions(strict: strict))
    }

    /// Reads a GPX file, a chunk at a time. A path that is not a regular file (a FIFO, a
    /// device, a directory) is refused before anything is read (`.invalidArgument`); a file of
    /// more than `options.maxBytes` bytes from its size, before anything is read
    /// (`.countTooLarge`).
    public static func readGPX(file path: String, options: LoadOptions) throws(GeoLocError) -> TrackLoad {
        try readGPX(stream: try FileByteSource(path: path, maxBytes: options.maxBytes), options: options, source: path)
    }

    /// Reads a GPX file with the default limits.
    public static func readGPX(file path: String, strict: Bool = false) throws(GeoLocError) -> TrackLoad {
        try readGPX(file: path, options: LoadOptions(strict: strict))
    }

    /// Reads a GeoJSON file (whole, then parsed). A path that is not a regular file (a FIFO, a
    /// device, a directory) is refused before anything is read (`.invalidArgument`); a file of
    /// more than `options.maxBytes` bytes from its size, before anything is allocated
    /// (`.countTooLarge`); a file of more than `options.maxRecords` positions, from a count read
    /// through a 64 KiB buffer before the file is loaded (`.countTooLarge`), so the limit bounds
    /// the load's memory.
    public static func readGeoJSON(file path: String, options: LoadOptions) throws(GeoLocError) -> TrackLoad {
        let at = path + ": "
        var counted = 0
        if try GeoJSONPositionCount.exceeds(file: path, limit: options.maxRecords, maxBytes: options.maxBytes, counted: &counted) {
            throw GeoJSONPositionCount.tooMany(at: at, limit: options.maxRecords)
        }
        let file = try LoadedFile(path: path, maxBytes: options.maxBytes)
        defer { file.release() }
        guard counted == file.bytes.count || !GeoJSONPositionCount.worthCounting(size: file.bytes.count, limit: options.maxRecords) else {
            // The file changed since it was counted (or was not counted): count what was loaded.
            return try readGeoJSON(file.bytes, options: options, source: path)
        }
        try options.admitBytes(file.bytes.count, at: at)
        return try readGeoJSON(counted: file.bytes, options: options, at: at, source: path)
    }

    /// Reads a GeoJSON file with the default limits.
    public static func readGeoJSON(file path: String, strict: Bool = false) throws(GeoLocError) -> TrackLoad {
        try readGeoJSON(file: path, options: LoadOptions(strict: strict))
    }

    // MARK: Writing

    /// GPX 1.1: one `trk` (with `name` when given) and one `trkseg`; `lat`/`lon` with 8
    /// decimals, `ele` with 3 when present, `time` when present (NaN: none) as UTC ISO 8601 (times are seconds since
    /// 1970-01-01 UTC; milliseconds shown when not whole).
    /// - Throws: `.outOfRange` for a time outside the years 0 .. 9999.
    public static func gpx(_ fixes: [Fix], name: String? = nil) throws(GeoLocError) -> String {
        try withFixBuffer(fixes) { (b) throws(GeoLocError) in
            try b.check("fixes", absentTimes: true)
            return try gpx(b, name: name)
        }
    }

    @_spi(CABI)
    public static func gpx(_ b: FixBuffer, name: String?) throws(GeoLocError) -> String {
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        s += "<gpx version=\"1.1\" creator=\"libgeoloc\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n<trk>\n"
        if let name { s += "<name>\(escapeXML(name))</name>\n" }
        s += "<trkseg>\n"
        for i in 0..<b.count {
            s += "<trkpt lat=\"\(fixed(b.lat(i), decimals: 8))\" lon=\"\(fixed(normalizedLongitude(b.lon(i)), decimals: 8))\">"
            if !b.altitude(i).isNaN { s += "<ele>\(fixed(b.altitude(i), decimals: 3))</ele>" }
            if !b.time(i).isNaN { s += "<time>\(try isoTime(b.time(i)))</time>" }
            s += "</trkpt>\n"
        }
        s += "</trkseg>\n</trk>\n</gpx>\n"
        return s
    }

    /// A GeoJSON Feature with a LineString (elevations when every fix has one) and the times
    /// as ISO 8601 strings in the property `times`.
    public static func geoJSON(_ fixes: [Fix]) throws(GeoLocError) -> String {
        try withFixBuffer(fixes) { (b) throws(GeoLocError) in
            try b.check("fixes", absentTimes: true)
            return try geoJSON(b)
        }
    }

    @_spi(CABI)
    public static func geoJSON(_ b: FixBuffer) throws(GeoLocError) -> String {
        let withEle = b.count > 0 && (0..<b.count).allSatisfy { !b.altitude($0).isNaN }
        var coords: [String] = [], times: [String] = []
        for i in 0..<b.count {
            var c = "[\(fixed(normalizedLongitude(b.lon(i)), decimals: 8)),\(fixed(b.lat(i), decimals: 8))"
            if withEle { c += ",\(fixed(b.altitude(i), decimals: 3))" }
            coords.append(c + "]")
            times.append(b.time(i).isNaN ? "null" : "\"\(try isoTime(b.time(i)))\"")
        }
        return "{\"type\":\"Feature\",\"properties\":{\"times\":[\(times.joined(separator: ","))]},"
            + "\"geometry\":{\"type\":\"LineString\",\"coordinates\":[\(coords.joined(separator: ","))]}}\n"
    }
}

private func escapeXML(_ s: String) -> String {
    var out = ""
    for c in s.unicodeScalars {
        switch c {
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "&": out += "&amp;"
        case "\"": out += "&quot;"
        default:
            if c.value < 32 && c != "\t" && c != "\n" && c != "\r" { continue }
            out.unicodeScalars.append(c)
        }
    }
    return out
}

