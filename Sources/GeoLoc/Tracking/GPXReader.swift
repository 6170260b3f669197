// Reading GPX 1.0 and 1.1 as devices and apps write them, in one pass over a stream: tracks
// (`trk`, each `trkseg` a segment of `trkpt`), routes (`rte`, a segment of `rtept`) and
// waypoints (`wpt`), with each point's `ele`, `time`, `name` and (GPX 1.0) `speed` and `course`,
// and the names of tracks and routes. Everything else (metadata, extensions, elements of other
// namespaces) is skipped. An empty or absent value is absent (NaN); a point is dropped only when
// it has no usable position. See TrackFormat.readGPX for the rules.

/// The GPX elements the reader acts on (by local name; anything else is `.other`).
private enum GPXName {
    case other, gpx, trk, trkseg, trkpt, rte, rtept, wpt, ele, time, name, speed, course
}

private func gpxName(_ b: UnsafeBufferPointer<UInt8>) -> GPXName {
    @inline(__always) func eq(_ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard b.count == n else { return false }
        for k in 0..<n where b[k] != s.utf8Start[k] { return false }
        return true
    }
    switch b.count {
    case 3: return eq("ele") ? .ele : eq("wpt") ? .wpt : eq("trk") ? .trk : eq("rte") ? .rte : eq("gpx") ? .gpx : .other
    case 4: return eq("time") ? .time : eq("name") ? .name : .other
    case 5: return eq("trkpt") ? .trkpt : eq("rtept") ? .rtept : eq("speed") ? .speed : .other
    case 6: return eq("trkseg") ? .trkseg : eq("course") ? .course : .other
    default: return .other
    }
}

/// Where the reader is.
private enum GPXContext: UInt8 {
    case root, trk, trkseg, rte, point, field, skipped
}

/// The kinds of point, as issue messages name them.
private let pointNouns = ["trkpt", "rtept", "wpt"]

/// A point being read.
private struct PendingPoint {
    var kind = 0
    var record = 0
    var line = 0
    var lat = Double.nan
    var lon = Double.nan
    /// Why the position cannot be used (the point is then skipped).
    var problem: String? = nil
    var ele = Double.nan
    var time = Double.nan
    var speed = Double.nan
    var course = Double.nan
    var name: String? = nil
}

/// The bytes without the XML blanks around them.
@inline(__always)
private func trimmed(_ b: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var s = 0, e = b.count
    while s < e && (b[s] == 32 || b[s] == 9 || b[s] == 10 || b[s] == 13) { s += 1 }
    while e > s && (b[e - 1] == 32 || b[e - 1] == 9 || b[e - 1] == 10 || b[e - 1] == 13) { e -= 1 }
    return UnsafeBufferPointer(rebasing: b[s..<e])
}

/// A decimal from element or attribute text; nil with a reason when it is not one.
private func decimal(_ raw: UnsafeBufferPointer<UInt8>, _ what: String) -> (Double?, String?) {
    let b = trimmed(raw)
    guard let base = b.baseAddress, b.count > 0 else { return (nil, nil) }
    switch readDecimal(base, 0, b.count) {
    case .value(let v): return (v, nil)
    case .infinite: return (nil, "\(what) \(quote(utf8Text(base, 0, b.count))) overflows")
    case .empty, .malformed: return (nil, "\(what) \(quote(utf8Text(base, 0, b.count))) is not a decimal number")
    }
}

struct GPXReader {
    private var x: XMLReader
    private var load = TrackLoad()
    private var log: IssueLog
    private let strict: Bool
    private let at: String
    private let stack = ContextStack()
    private var point = PendingPoint()
    private var field: GPXName = .other
    private let fieldText = ByteBuffer()
    private var records = [0, 0, 0]
    private var segmentStart = 0
    private var path = -1

    /// A reader of `input` under `options` (only `strict`, `maxIssues` and `maxRecords` apply:
    /// the byte limit is the input's).
    init(_ input: XMLInput, options: LoadOptions, source: String?) {
        x = XMLReader(input)
        strict = options.strict
        log = IssueLog(options)
        at = source.map { $0 + ": " } ?? ""
    }

    /// Reads the whole document.
    mutating func read() throws(GeoLocError) -> TrackLoad {
        do throws(GeoLocError) {
            while let token = try x.next() {
                switch token {
                case .start: try start()
                case .text:
                    let t = x.text
                    if let b = t.baseAddress { fieldText.append(b, t.count) }
                case .end: try end()
                }
            }
        } catch {
            throw GeoLocError(error.code, at + error.message)
        }
        load.issues = log.issues
        load.issueTotal = log.total
        return load
    }

    private mutating func start() throws(GeoLocError) {
        let name = gpxName(x.localName)
        guard let parent = stack.last else {
            guard name == .gpx else { throw GeoLocError(.parse, "the root element is <\(x.localNameText)>, not <gpx>") }
            stack.append(.root)
            return
        }
        var context = GPXContext.skipped
        switch (parent, name) {
        case (.root, .trk):
            load.pathNames.append(nil)
            path = load.pathNames.count - 1
            context = .trk
        case (.root, .rte):
            load.pathNames.append(nil)
            path = load.pathNames.count - 1
            segmentStart = load.points.count
            context = .rte
        case (.trk, .trkseg):
            segmentStart = load.points.count
            context = .trkseg
        case (.trkseg, .trkpt): context = try beginPoint(0)
        case (.rte, .rtept): context = try beginPoint(1)
        case (.root, .wpt): context = try beginPoint(2)
        case (.trk, .name), (.rte, .name), (.point, .ele), (.point, .time), (.point, .name), (.point, .speed), (.point, .course):
            field = name
            fieldText.removeAll()
            x.captureText = true
            context = .field
        default: break
        }
        stack.append(context)
    }

    /// A point starts: a record (`maxRecords` counts every point, usable or not).
    private mutating func beginPoint(_ kind: Int) throws(GeoLocError) -> GPXContext {
        try log.admitRecord()
        point = PendingPoint()
        point.kind = kind
        point.record = records[kind]
        records[kind] += 1
        point.line = x.line(at: x.tokenStart)
        let lat = x.withAttribute("lat") { $0.map { decimal($0, "lat") } ?? (nil, "no lat") }
        let lon = x.withAttribute("lon") { $0.map { decimal($0, "lon") } ?? (nil, "no lon") }
        if let v = lat.0 { point.lat = v } else { point.problem = lat.1 ?? "lat is empty" }
        if point.problem == nil {
            if let v = lon.0 { point.lon = v } else { point.problem = lon.1 ?? "lon is empty" }
        }
        if point.problem == nil && !(point.lat >= -90 && point.lat <= 90) {
            point.problem = "lat \(show(point.lat)) is outside [-90, 90]"
        }
        return .point
    }

    private mutating func issue(_ reason: String) throws(GeoLocError) {
        let text = "\(pointNouns[point.kind]) \(point.record) (line \(point.line)): \(reason)"
        if strict { throw GeoLocError(.parse, text) }
        log.add(point.record, text)
    }

    private mutating func end() throws(GeoLocError) {
        let context = stack.removeLast()
        switch context {
        case .field:
            x.captureText = false
            try endField()
        case .point:
            if let problem = point.problem {
                try issue(problem)
            } else if point.kind == 2 {
                load.waypoints.append(latitude: point.lat, longitude: point.lon, time: point.time, altitude: point.ele,
                                      speed: point.speed, course: point.course, name: point.name)
            } else {
                load.points.append(latitude: point.lat, longitude: point.lon, time: point.time, altitude: point.ele,
                                   speed: point.speed, course: point.course, name: point.name)
            }
        case .trkseg:
            load.segments.append(TrackSegment(first: segmentStart, count: load.points.count - segmentStart, path: path, kind: .track))
        case .rte:
            load.segments.append(TrackSegment(first: segmentStart, count: load.points.count - segmentStart, path: path, kind: .route))
        default: break
        }
    }

    private mutating func endField() throws(GeoLocError) {
        let parent = stack.last!
        do {
            let b = trimmed(fieldText.bytes)
            if field == .name {
                let text = b.isEmpty ? nil : String(decoding: b, as: UTF8.self)
                if parent == .point { point.name = text } else if path >= 0 { load.pathNames[path] = text }
                return
            }
            guard !b.isEmpty else { return }  // empty: absent
            if field == .time {
                if let t = parseISOTime(b) {
                    point.time = t
                } else {
                    try issue("time \(quote(utf8Text(b.baseAddress!, 0, b.count))) is not an ISO 8601 date and time; the point is kept without it")
                }
                return
            }
            let what = field == .ele ? "ele" : field == .speed ? "speed" : "course"
            let (v, why) = decimal(b, what)
            guard let v else {
                try issue((why ?? "\(what) is not a number") + "; the point is kept without it")
                return
            }
            switch field {
            case .ele: point.ele = v
            case .speed:
                if v < 0 { try issue("speed \(show(v)) is negative; the point is kept without it") } else { point.speed = v }
            default: point.course = v
            }
        }
    }
}

/// The reader's contexts, one per open element (at most XMLReader.maxDepth).
private final class ContextStack {
    private let items = UnsafeMutablePointer<GPXContext>.allocate(capacity: XMLReader.maxDepth + 1)
    private var count = 0

    deinit { items.deallocate() }

    var last: GPXContext? { count > 0 ? items[count - 1] : nil }
    @inline(__always) func append(_ c: GPXContext) { items[count] = c; count += 1 }
    @inline(__always) func removeLast() -> GPXContext { count -= 1; return items[count] }
}
