// Reading GeoJSON tracks: LineString and MultiLineString geometries (each line a segment),
// alone, as a Feature or in a FeatureCollection, with the times many writers put in the
// properties; Point features become waypoints.

struct PointProblem: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

extension TrackFormat {
    /// Reads GeoJSON: a LineString or MultiLineString geometry, a Feature of one, or a
    /// FeatureCollection of Features. Each LineString, and each line of a MultiLineString, is a
    /// segment; each Feature (or the bare geometry) a path, named by its property `name`. A Point
    /// Feature is a waypoint (its `name`, and its `time` when given). Positions are
    /// [longitude, latitude] or [longitude, latitude, elevation] (a null elevation is absent).
    /// Times, when present, are the Feature's property `times` or `coordTimes` (or
    /// `coordinateProperties.times`): one per position, flat or one array per line, an ISO 8601
    /// string, a number of seconds, or null (absent).
    ///
    /// A position that is not usable (not an array of numbers, latitude beyond ±90) is skipped
    /// and reported with its 0-based index among all positions; a malformed elevation or time is
    /// dropped (the point kept) and reported.
    ///
    /// Limits (`options`; the column options do not apply): at most `maxBytes` bytes and
    /// `maxRecords` positions (Point features included, usable or not), each `.countTooLarge`
    /// naming the limit; the first `maxIssues` issues are kept.
    /// - Throws: `.parse` for malformed JSON (line and column), a geometry of another type, times
    ///   that do not match the positions in number; `.countTooLarge` past a limit.
    public static func readGeoJSON(_ bytes: UnsafeRawBufferPointer, options: LoadOptions, source: String? = nil) throws(GeoLocError) -> TrackLoad {
        let at = source.map { $0 + ": " } ?? ""
        try options.admitBytes(bytes.count, at: at)
        // More positions than `maxRecords` are refused before the document is built
        // (TrackGeoJSONCount.swift).
        if GeoJSONPositionCount.worthCounting(size: bytes.count, limit: options.maxRecords),
           GeoJSONPositionCount.exceeds(bytes, limit: options.maxRecords) {
            throw GeoJSONPositionCount.tooMany(at: at, limit: options.maxRecords)
        }
        return try readGeoJSON(counted: bytes, options: options, at: at, source: source)
    }

    /// `readGeoJSON(_:options:source:)` once the positions are known to be within the limit (or
    /// too few bytes to pass it).
    static func readGeoJSON(counted bytes: UnsafeRawBufferPointer, options: LoadOptions, at: String, source: String?) throws(GeoLocError) -> TrackLoad {
        let strict = options.strict
        let doc = try JSONDocument(bytes, source: source)
        var log = IssueLog(options)
        var load = TrackLoad()
        var record = 0

        func number(_ node: Int) -> Double? {
            guard doc[node].kind == .number, case .value(let v) = readDecimal(doc.p, Int(doc[node].start), Int(doc[node].end)) else {
                return nil
            }
            return v
        }
        func time(_ node: Int) throws(PointProblem) -> Double {
            switch doc[node].kind {
            case .null: return .nan
            case .number:
                if let v = number(node) { return v }
            case .string:
                if let v = parseISOTime(Array(doc.string(node).utf8)) { return v }
            default: break
            }
            throw PointProblem("its time is not an ISO 8601 date and time or a number (\(doc.rawText(node).prefix(40))); kept without it")
        }
        /// One position: appended to `to`, or an issue.
        func position(_ c: Int, _ t: Int?, waypoint: Bool, name: String?) throws(GeoLocError) {
            try log.admitRecord(at: at)
            defer { record += 1 }
            do throws(PointProblem) {
                guard doc[c].kind == .array else { throw PointProblem("is not an array") }
                var values: [Int] = []
                for (v, _) in doc.children(c) { values.append(v) }
                guard values.count >= 2 else { throw PointProblem("has \(values.count) numbers, not 2 or 3") }
                func coordinate(_ node: Int, _ what: String) throws(PointProblem) -> Double {
                    guard doc[node].kind == .number else { throw PointProblem("\(what) is not a number") }
                    guard let v = number(node) else { throw PointProblem("\(what) is not a finite number") }
                    return v
                }
                let lon = try coordinate(values[0], "longitude"), lat = try coordinate(values[1], "latitude")
                guard lat >= -90 && lat <= 90 else { throw PointProblem("latitude \(show(lat)) is outside [-90, 90]") }
                var ele = Double.nan, when = Double.nan
                var notes: [String] = []
                if values.count >= 3 && doc[values[2]].kind != .null {
                    if let v = number(values[2]) { ele = v } else { notes.append("its elevation is not a finite number; kept without it") }
                }
                if let t {
                    do throws(PointProblem) { when = try time(t) } catch { notes.append(error.reason) }
                }
                if waypoint {
                    load.waypoints.append(latitude: lat, longitude: lon, time: when, altitude: ele, name: name)
                } else {
                    load.points.append(latitude: lat, longitude: lon, time: when, altitude: ele)
                }
                for n in notes { log.add(record, "position \(record) " + n) }
            } catch {
                log.add(record, "position \(record) " + error.reason)
            }
            if strict, let first = log.issues.first { throw GeoLocError(.parse, at + first.reason) }
        }
        /// The nodes of an array.
        func items(_ node: Int) -> [Int] {
            var out: [Int] = []
            for (c, _) in doc.children(node) { out.append(c) }
            return out
        }
        func geometry(_ g: Int, times: Int?, name: String?, waypointTime: Int?) throws(GeoLocError) {
            guard doc[g].kind == .object, let type = doc.member(g, "type") else {
                throw GeoLocError(.parse, "\(at)a geometry is not an object with a type")
            }
            guard let coords = doc.member(g, "coordinates"), doc[coords].kind == .array else {
                throw GeoLocError(.parse, "\(at)a geometry has no coordinates array")
            }
            if doc.isString(type, "Point") {
                try position(coords, waypointTime, waypoint: true, name: name)
                return
            }
            var lines: [[Int]] = []
            if doc.isString(type, "LineString") {
                lines = [items(coords)]
            } else if doc.isString(type, "MultiLineString") {
                for line in items(coords) {
                    guard doc[line].kind == .array else { throw GeoLocError(.parse, "\(at)a MultiLineString member is not an array") }
                    lines.append(items(line))
                }
            } else {
                throw GeoLocError(.parse, "\(at)the geometry is a \(doc.string(type)), not a LineString")
            }
            // Times: flat (one per position) or one array per line.
            var timeNodes: [[Int]?] = Array(repeating: nil, count: lines.count)
            if let times {
                let all = items(times)
                let total = lines.reduce(0) { $0 + $1.count }
                if lines.count > 1 && all.count == lines.count && all.allSatisfy({ doc[$0].kind == .array }) {
                    for (k, a) in all.enumerated() {
                        let ts = items(a)
                        guard ts.count == lines[k].count else {
                            throw GeoLocError(.parse, "\(at)\(ts.count) times for the \(lines[k].count) positions of line \(k)")
                        }
                        timeNodes[k] = ts
                    }
                } else {
                    guard all.count == total else { throw GeoLocError(.parse, "\(at)\(all.count) times for \(total) positions") }
                    var i = 0
                    for k in lines.indices {
                        timeNodes[k] = Array(all[i..<(i + lines[k].count)])
                        i += lines[k].count
                    }
                }
            }
            load.pathNames.append(name)
            let path = load.pathNames.count - 1
            for (k, line) in lines.enumerated() {
                let first = load.points.count
                for (j, c) in line.enumerated() { try position(c, timeNodes[k]?[j], waypoint: false, name: nil) }
                load.segments.append(TrackSegment(first: first, count: load.points.count - first, path: path, kind: .track))
            }
        }
        func feature(_ f: Int) throws(GeoLocError) {
            guard let g = doc.member(f, "geometry") else { throw GeoLocError(.parse, "\(at)a Feature has no geometry") }
            var times: Int? = nil, name: String? = nil, pointTime: Int? = nil
            if let props = doc.member(f, "properties"), doc[props].kind == .object {
                for key in ["times", "coordTimes"] {
                    if let t = doc.member(props, named: key), doc[t].kind == .array { times = t; break }
                }
                if times == nil, let cp = doc.member(props, "coordinateProperties"), let t = doc.member(cp, "times"),
                   doc[t].kind == .array {
                    times = t
                }
                if let n = doc.member(props, "name"), doc[n].kind == .string {
                    let text = doc.string(n)
                    name = text.isEmpty ? nil : text
                }
                pointTime = doc.member(props, "time")
            }
            try geometry(g, times: times, name: name, waypointTime: pointTime)
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
            try geometry(0, times: nil, name: nil, waypointTime: nil)
        }
        load.issues = log.issues
        load.issueTotal = log.total
        return load
    }

    /// Reads GeoJSON with the default limits; see `readGeoJSON(_:options:source:)`.
    public static func readGeoJSON(_ bytes: UnsafeRawBufferPointer, strict: Bool = false, source: String? = nil) throws(GeoLocError) -> TrackLoad {
        try readGeoJSON(bytes, options: LoadOptions(strict: strict), source: source)
    }
}
