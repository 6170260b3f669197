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
    /// - Issues (the first `TrackLoad.maxIssues`, all counted): a point without a usable position
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
    /// - Throws: `.parse` for malformed XML (line and column), a root that is not `gpx`, text
    ///   that is not valid in its encoding; `.invalidUTF8` for a UTF-8 document that is not
    ///   (its line and column); `.unsupported` for an encoding not supported.
    public static func readGPX(_ bytes: UnsafeRawBufferPointer, strict: Bool = false, source: String? = nil) throws(GeoLocError) -> TrackLoad {
        let input: XMLInput
        do throws(GeoLocError) { input = try XMLInput(memory: bytes) } catch {
            throw GeoLocError(error.code, (source.map { $0 + ": " } ?? "") + error.message)
        }
        var reader = GPXReader(input, strict: strict, source: source)
        return try reader.read()
    }

    /// Reads GPX from a stream of bytes (a chunk at a time; see `readGPX(_:strict:source:)`).
    static func readGPX(stream: consuming some ByteSource, strict: Bool, source: String?) throws(GeoLocError) -> TrackLoad {
        let input: XMLInput
        do throws(GeoLocError) { input = try XMLInput(source: stream) } catch {
            throw GeoLocError(error.code, (source.map { $0 + ": " } ?? "") + error.message)
        }
        var reader = GPXReader(input, strict: strict, source: source)
        return try reader.read()
    }

    /// Reads GPX text.
    public static func readGPX(text: String, strict: Bool = false) throws(GeoLocError) -> TrackLoad {
        let result: Result<TrackLoad, GeoLocError> = Array(text.utf8).withUnsafeBytes { b in
            do throws(GeoLocError) { return .success(try readGPX(b, strict: strict)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Reads GeoJSON text.
    public static func readGeoJSON(text: String, strict: Bool = false) throws(GeoLocError) -> TrackLoad {
        let result: Result<TrackLoad, GeoLocError> = Array(text.utf8).withUnsafeBytes { b in
            do throws(GeoLocError) { return .success(try readGeoJSON(b, strict: strict)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Reads a GPX file, a chunk at a time. A path that is not a regular file (a FIFO, a
    /// device, a directory) is refused before anything is read (`.invalidArgument`).
    public static func readGPX(file path: String, strict: Bool = false) throws(GeoLocError) -> TrackLoad {
        try readGPX(stream: try FileByteSource(path: path), strict: strict, source: path)
    }

    /// Reads a GeoJSON file (whole, then parsed). A path that is not a regular file (a FIFO, a
    /// device, a directory) is refused before anything is read (`.invalidArgument`).
    public static func readGeoJSON(file path: String, strict: Bool = false) throws(GeoLocError) -> TrackLoad {
        let file = try LoadedFile(path: path)
        defer { file.release() }
        return try readGeoJSON(file.bytes, strict: strict, source: path)
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

