#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A track read from a file: its fixes, the points that could not be used, and whether it had
/// times.
public struct TrackLoad: Sendable {
    public var fixes: [Fix]
    /// The unusable points: `record` is the 0-based index of the point in the document (GPX:
    /// among all `trkpt` elements; GeoJSON: among all positions), `reason` says why and where.
    public var issues: [LoadIssue]
    /// False when no point had a time: the fixes' times are then 0, 1, 2, ... (their order).
    public var timed: Bool
}

/// Reading and writing tracks: GPX 1.1 (`trk`/`trkseg`/`trkpt` with `ele` and `time`) and
/// GeoJSON (a LineString, a Feature of one, or a FeatureCollection of them, with times in the
/// properties `times` or `coordTimes`). Accuracy is not in either format: read fixes have
/// accuracy 0.
public enum TrackFormat {
    // MARK: Reading

    /// Reads GPX. Track points of every `trk` and `trkseg` are read in document order. A point
    /// without a usable `lat`/`lon`, with a malformed `ele`, `time`, `speed` or `course`, or
    /// without a time in a track that has times, is an issue (strict: the load fails with the
    /// first one, as `.parse` "trkpt 3 (line 12): ...").
    /// - Throws: `.parse` for malformed XML (line and column), a root that is not `gpx`;
    ///   `.invalidUTF8`; `.countTooLarge` for a document above `maxCount` bytes.
    public static func readGPX(_ bytes: UnsafeRawBufferPointer, strict: Bool = false, source: String? = nil) throws(GeoLocError) -> TrackLoad {
        let at = source.map { $0 + ": " } ?? ""
        guard bytes.count <= maxCount else { throw GeoLocError(.countTooLarge, "\(at)the document is larger than GEOLOC_MAX_COUNT bytes") }
        let p = (bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!).assumingMemoryBound(to: UInt8.self)
        guard isValidUTF8(p, 0, bytes.count) else { throw GeoLocError(.invalidUTF8, "\(at)the GPX document is not valid UTF-8") }
        var x = XMLReader(p, count: bytes.count)
        var points: [PendingPoint] = []
        var log = IssueLog(strict: strict)
        var path: [[UInt8]] = []
        var point: PendingPoint? = nil
        var field: [UInt8]? = nil
        var fieldText: [UInt8] = []
        var record = 0
        do throws(GeoLocError) {
            while let token = try x.next() {
                switch token {
                case .start:
                    if path.isEmpty && x.name != Array("gpx".utf8) {
                        throw GeoLocError(.parse, "the root element is <\(String(decoding: x.name, as: UTF8.self))>, not <gpx>")
                    }
                    if x.name == Array("trkpt".utf8) && path.last == Array("trkseg".utf8) {
                        let (line, _) = x.position(x.tokenStart)
                        point = PendingPoint(record: record, line: line, lat: x.attribute("lat"), lon: x.attribute("lon"))
                        record += 1
                    } else if point != nil && path.last == Array("trkpt".utf8) {
                        let n = x.name
                        if n == Array("ele".utf8) || n == Array("time".utf8) || n == Array("speed".utf8) || n == Array("course".utf8) {
                            field = n
                            fieldText.removeAll(keepingCapacity: true)
                        }
                    }
                    path.append(x.name)
                case .text:
                    if field != nil { fieldText.append(contentsOf: x.text) }
                case .end:
                    path.removeLast()
                    if let f = field, x.name == f, point != nil {
                        switch f {
                        case Array("ele".utf8): point!.ele = fieldText
                        case Array("time".utf8): point!.time = fieldText
                        case Array("speed".utf8): point!.speed = fieldText
                        default: point!.course = fieldText
                        }
                        field = nil
                    } else if x.name == Array("trkpt".utf8), let pt = point, path.last == Array("trkseg".utf8) {
                        points.append(pt)
                        point = nil
                    }
                }
            }
        } catch {
            throw GeoLocError(error.code, at + error.message)
        }
        // Values, and times for all or none.
        var fixes: [Fix] = []
        fixes.reserveCapacity(points.count)
        let timed = points.contains { $0.time != nil }
        for pt in points {
            let name = "trkpt \(pt.record) (line \(pt.line))"
            do throws(PointProblem) {
                let lat = try number(pt.lat, "lat", required: true)!
                let lon = try number(pt.lon, "lon", required: true)!
                guard lat >= -90 && lat <= 90 else { throw PointProblem("lat \(show(lat)) is outside [-90, 90]") }
                var f = Fix(latitude: lat, longitude: lon, time: Double(fixes.count), accuracy: 0)
                f.altitude = try number(pt.ele, "ele", required: false) ?? .nan
                if let s = try number(pt.speed, "speed", required: false) {
                    guard s >= 0 else { throw PointProblem("speed \(show(s)) is negative") }
                    f.speed = s
                }
                f.course = try number(pt.course, "course", required: false) ?? .nan
                if timed {
                    guard let t = pt.time else { throw PointProblem("no <time> in a track with times") }
                    guard let v = parseISOTime(t) else {
                        throw PointProblem("time \(quote(String(decoding: t, as: UTF8.self))) is not an ISO 8601 date and time")
                    }
                    f.time = v
                }
                fixes.append(f)
            } catch {
                log.add(pt.record, name + ": " + error.reason)
                if strict { break }
            }
        }
        try log.check(source: source, where: { "trkpt \($0)" }, noun: "point")
        return TrackLoad(fixes: fixes, issues: log.issues, timed: timed)
    }

    /// Reads GeoJSON: a LineString or MultiLineString geometry, a Feature of one, or a
    /// FeatureCollection of such Features (their positions in order). Positions are
    /// [longitude, latitude] or [longitude, latitude, elevation]. Times, when present, are the
    /// Feature's property `times` or `coordTimes` (or `coordinateProperties.times`): one per
    /// position, an ISO 8601 string or a number of seconds.
    public static func readGeoJSON(_ bytes: UnsafeRawBufferPointer, strict: Bool = false, source: String? = nil) throws(GeoLocError) -> TrackLoad {
        let at = source.map { $0 + ": " } ?? ""
        let doc = try JSONDocument(bytes, source: source)
        var log = IssueLog(strict: strict)
        // (position node, time node or nil) in document order.
        var positions: [(Int, Int?)] = []
        func lines(_ geometry: Int, times: Int?) throws(GeoLocError) {
            guard doc[geometry].kind == .object, let type = doc.member(geometry, "type") else {
                throw GeoLocError(.parse, "\(at)a geometry is not an object with a type")
            }
            guard let coords = doc.member(geometry, "coordinates"), doc[coords].kind == .array else {
                throw GeoLocError(.parse, "\(at)a geometry has no coordinates array")
            }
            var list: [Int] = []
            if doc.isString(type, "LineString") {
                for (c, _) in doc.children(coords) { list.append(c) }
            } else if doc.isString(type, "MultiLineString") {
                for (line, _) in doc.children(coords) {
                    guard doc[line].kind == .array else { throw GeoLocError(.parse, "\(at)a MultiLineString member is not an array") }
                    for (c, _) in doc.children(line) { list.append(c) }
                }
            } else {
                throw GeoLocError(.parse, "\(at)the geometry is a \(doc.string(type)), not a LineString")
            }
            var timeNodes: [Int]? = nil
            if let times {
                timeNodes = []
                for (t, _) in doc.children(times) { timeNodes!.append(t) }
                guard timeNodes!.count == list.count else {
                    throw GeoLocError(.parse, "\(at)\(timeNodes!.count) times for \(list.count) positions")
                }
            }
            for (k, c) in list.enumerated() { positions.append((c, timeNodes?[k])) }
        }
        func feature(_ f: Int) throws(GeoLocError) {
            guard let g = doc.member(f, "geometry") else { throw GeoLocError(.parse, "\(at)a Feature has no geometry") }
            var times: Int? = nil
            if let props = doc.member(f, "properties"), doc[props].kind == .object {
                for key in ["times", "coordTimes"] {
                    if let t = doc.member(props, named: key), doc[t].kind == .array { times = t; break }
                }
                if times == nil, let cp = doc.member(props, "coordinateProperties"), let t = doc.member(cp, "times"),
                   doc[t].kind == .array {
                    times = t
                }
            }
            try lines(g, times: times)
        }
        guard doc[0].kind == .object, let type = doc.member(0, "type") else {
            throw GeoLocError(.parse, "\(at)the document is not a GeoJSON object")
        }
        if doc.isString(type, "FeatureCollection") {
            guard let fs = doc.member(0, "features"), doc[fs].kind == .array else {
                throw GeoLocError(.parse, "\(at)the FeatureCollection has no features array")
            }
            for (f, _) in doc.children(fs) { try feature(f) }
        } else if doc.isString(type, "Feature") {
            try feature(0)
        } else {
            try lines(0, times: nil)
        }
        let timed = positions.contains { $0.1 != nil }
        var fixes: [Fix] = []
        fixes.reserveCapacity(positions.count)
        for (record, (c, t)) in positions.enumerated() {
            do throws(PointProblem) {
                guard doc[c].kind == .array else { throw PointProblem("is not an array") }
                var values: [Int] = []
                for (v, _) in doc.children(c) { values.append(v) }
                guard values.count >= 2 else { throw PointProblem("has \(values.count) numbers, not 2 or 3") }
                func value(_ k: Int, _ what: String) throws(PointProblem) -> Double {
                    guard doc[values[k]].kind == .number else { throw PointProblem("\(what) is not a number") }
                    let n = doc[values[k]]
                    guard case .value(let v) = readDecimal(doc.p, Int(n.start), Int(n.end)) else {
                        throw PointProblem("\(what) is not a finite number")
                    }
                    return v
                }
                let lon = try value(0, "longitude"), lat = try value(1, "latitude")
                guard lat >= -90 && lat <= 90 else { throw PointProblem("latitude \(show(lat)) is outside [-90, 90]") }
                var f = Fix(latitude: lat, longitude: lon, time: Double(fixes.count), accuracy: 0)
                if values.count >= 3 { f.altitude = try value(2, "elevation") }
                if let t {
                    if doc[t].kind == .number, case .value(let v) = readDecimal(doc.p, Int(doc[t].start), Int(doc[t].end)) {
                        f.time = v
                    } else if doc[t].kind == .string, let v = parseISOTime(Array(doc.string(t).utf8)) {
                        f.time = v
                    } else {
                        throw PointProblem("its time is not an ISO 8601 date and time or a number")
                    }
                }
                fixes.append(f)
            } catch {
                log.add(record, "position \(record) " + error.reason)
                if strict { break }
            }
        }
        try log.check(source: source, where: { "position \($0)" }, noun: "position")
        return TrackLoad(fixes: fixes, issues: log.issues, timed: timed)
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

    /// Reads a GPX file.
    public static func readGPX(file path: String, strict: Bool = false) throws(GeoLocError) -> TrackLoad {
        let file = try LoadedFile(path: path)
        defer { file.release() }
        return try readGPX(file.bytes, strict: strict, source: path)
    }

    /// Reads a GeoJSON file.
    public static func readGeoJSON(file path: String, strict: Bool = false) throws(GeoLocError) -> TrackLoad {
        let file = try LoadedFile(path: path)
        defer { file.release() }
        return try readGeoJSON(file.bytes, strict: strict, source: path)
    }

    // MARK: Writing

    /// GPX 1.1: one `trk` (with `name` when given) and one `trkseg`; `lat`/`lon` with 8
    /// decimals, `ele` with 3 when present, `time` as UTC ISO 8601 (times are seconds since
    /// 1970-01-01 UTC; milliseconds shown when not whole).
    /// - Throws: `.outOfRange` for a time outside the years 0 .. 9999.
    public static func gpx(_ fixes: [Fix], name: String? = nil) throws(GeoLocError) -> String {
        try withFixBuffer(fixes) { (b) throws(GeoLocError) in
            try b.check("fixes")
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
            s += "<time>\(try isoTime(b.time(i)))</time></trkpt>\n"
        }
        s += "</trkseg>\n</trk>\n</gpx>\n"
        return s
    }

    /// A GeoJSON Feature with a LineString (elevations when every fix has one) and the times
    /// as ISO 8601 strings in the property `times`.
    public static func geoJSON(_ fixes: [Fix]) throws(GeoLocError) -> String {
        try withFixBuffer(fixes) { (b) throws(GeoLocError) in
            try b.check("fixes")
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
            times.append("\"\(try isoTime(b.time(i)))\"")
        }
        return "{\"type\":\"Feature\",\"properties\":{\"times\":[\(times.joined(separator: ","))]},"
            + "\"geometry\":{\"type\":\"LineString\",\"coordinates\":[\(coords.joined(separator: ","))]}}\n"
    }
}

private struct PendingPoint {
    var record: Int
    var line: Int
    var lat: [UInt8]?
    var lon: [UInt8]?
    var ele: [UInt8]? = nil
    var time: [UInt8]? = nil
    var speed: [UInt8]? = nil
    var course: [UInt8]? = nil
}

private struct PointProblem: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

/// A decimal from element or attribute text (blanks around it allowed).
private func number(_ bytes: [UInt8]?, _ what: String, required: Bool) throws(PointProblem) -> Double? {
    guard let bytes else {
        if required { throw PointProblem("no \(what)") }
        return nil
    }
    let trimmedBytes = bytes.map { $0 == 10 || $0 == 13 ? 32 : $0 }
    let r = trimmedBytes.withUnsafeBufferPointer { readDecimal($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, 0, $0.count) }
    switch r {
    case .value(let v): return v
    case .infinite: throw PointProblem("\(what) overflows")
    case .empty, .malformed: throw PointProblem("\(what) \(quote(String(decoding: bytes, as: UTF8.self))) is not a decimal number")
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

// MARK: - ISO 8601 times

/// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil).
private func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
    let y = m <= 2 ? y0 - 1 : y0
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146097 + doe - 719468
}

private func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
    let z = z0 + 719468
    let era = (z >= 0 ? z : z - 146096) / 146097
    let doe = z - era * 146097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
}

/// Seconds since 1970-01-01T00:00:00Z from `YYYY-MM-DDTHH:MM:SS[.fff][Z|±HH:MM]` (no zone:
/// UTC; blanks around it allowed); nil for anything else.
func parseISOTime(_ text: [UInt8]) -> Double? {
    var s = 0, e = text.count
    while s < e && (text[s] == 32 || text[s] == 9 || text[s] == 10 || text[s] == 13) { s += 1 }
    while e > s && (text[e - 1] == 32 || text[e - 1] == 9 || text[e - 1] == 10 || text[e - 1] == 13) { e -= 1 }
    var i = s
    func digits(_ n: Int) -> Int? {
        guard e - i >= n else { return nil }
        var v = 0
        for k in 0..<n {
            let d = Int(text[i + k]) - 48
            guard d >= 0 && d <= 9 else { return nil }
            v = v * 10 + d
        }
        i += n
        return v
    }
    func expect(_ c: UInt8) -> Bool {
        guard i < e && text[i] == c else { return false }
        i += 1
        return true
    }
    guard let y = digits(4), expect(45), let mo = digits(2), expect(45), let d = digits(2) else { return nil }
    guard i < e && (text[i] == 84 || text[i] == 116 || text[i] == 32) else { return nil }
    i += 1
    guard let h = digits(2), expect(58), let mi = digits(2), expect(58), let sec = digits(2) else { return nil }
    var fraction = 0.0
    if i < e && (text[i] == 46 || text[i] == 44) {
        i += 1
        var scale = 0.1
        let start = i
        while i < e, text[i] >= 48 && text[i] <= 57 {
            fraction += Double(text[i] - 48) * scale
            scale /= 10
            i += 1
        }
        guard i > start else { return nil }
    }
    var offset = 0
    if i < e && (text[i] == 90 || text[i] == 122) {
        i += 1
    } else if i < e && (text[i] == 43 || text[i] == 45) {
        let sign = text[i] == 45 ? -1 : 1
        i += 1
        guard let oh = digits(2) else { return nil }
        _ = expect(58)
        guard let om = digits(2), oh <= 23, om <= 59 else { return nil }
        offset = sign * (oh * 3600 + om * 60)
    }
    guard i == e else { return nil }
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
    let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    guard mo >= 1 && mo <= 12 && d >= 1 && d <= monthDays[mo - 1] && h <= 23 && mi <= 59 && sec <= 60 else { return nil }
    let days = daysFromCivil(y, mo, d)
    return Double(days * 86400 + h * 3600 + mi * 60 + sec - offset) + fraction
}

/// A time in seconds since 1970-01-01 UTC as ISO 8601 UTC, milliseconds shown when not whole.
func isoTime(_ t: Double) throws(GeoLocError) -> String {
    let ms = (t * 1000).rounded()
    guard ms.isFinite, abs(ms) < 1e15 else { throw GeoLocError(.outOfRange, "time \(show(t)) is outside the years 0 ... 9999") }
    var whole = Int(ms) / 1000
    var milli = Int(ms) % 1000
    if milli < 0 { milli += 1000; whole -= 1 }
    var days = whole / 86400
    var rest = whole % 86400
    if rest < 0 { rest += 86400; days -= 1 }
    let (y, m, d) = civilFromDays(days)
    guard y >= 0 && y <= 9999 else { throw GeoLocError(.outOfRange, "time \(show(t)) is outside the years 0 ... 9999") }
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    var s = (y < 1000 ? String(repeating: "0", count: 4 - String(y).count) : "") + "\(y)-\(two(m))-\(two(d))T"
    s += "\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))"
    if milli != 0 { s += "." + (milli < 10 ? "00" : milli < 100 ? "0" : "") + "\(milli)" }
    return s + "Z"
}
