// What a track file holds once read: its points in segments (GPX track segments and routes,
// GeoJSON lines), its waypoints, the names given, and the problems found. Points are kept as
// columns, an optional column only once some point has that value, so a loaded track takes
// about as much memory as its coordinates, not a Fix (56 bytes) per point.

/// What a segment is in its file.
public enum SegmentKind: Int, Sendable, Equatable {
    /// A GPX `trkseg` (a recording), or a GeoJSON line.
    case track = 0
    /// A GPX `rte` (a planned route: its `rtept` in order).
    case route = 1
}

/// A run of a track's points that belong together: a GPX `trkseg` or `rte`, a GeoJSON
/// LineString or one line of a MultiLineString. The gap from one segment to the next is not
/// movement: statistics never measure it.
public struct TrackSegment: Sendable, Equatable {
    /// The index of its first point in the track's points.
    public var first: Int
    /// How many points it has (0 for an empty `trkseg`).
    public var count: Int
    /// Its path: the index, among the file's `trk` and `rte` elements (GeoJSON: its features and
    /// geometries), of the one it belongs to. The segments of one `trk` share it.
    public var path: Int
    public var kind: SegmentKind

    public init(first: Int, count: Int, path: Int, kind: SegmentKind) {
        self.first = first
        self.count = count
        self.path = path
        self.kind = kind
    }

    /// The indices of its points.
    public var range: Range<Int> { first..<(first + count) }
}

/// Points as columns: latitude and longitude always, the other values only once a point has
/// them (absent values are NaN).
public struct TrackPoints: Sendable {
    public private(set) var latitudes: [Double] = []
    public private(set) var longitudes: [Double] = []
    private var times: [Double]? = nil
    private var altitudes: [Double]? = nil
    private var speeds: [Double]? = nil
    private var courses: [Double]? = nil
    /// The names given, by point (ascending indices).
    private var namedAt: [Int] = []
    private var nameTexts: [String] = []

    public init() {}

    public var count: Int { latitudes.count }
    public var isEmpty: Bool { latitudes.isEmpty }

    /// Whether some point has a time.
    public var hasTimes: Bool { times != nil }

    @inline(__always) public func latitude(_ i: Int) -> Double { latitudes[i] }
    @inline(__always) public func longitude(_ i: Int) -> Double { longitudes[i] }
    /// Seconds since 1970-01-01 UTC, or NaN when the point has none.
    @inline(__always) public func time(_ i: Int) -> Double { times?[i] ?? .nan }
    @inline(__always) public func altitude(_ i: Int) -> Double { altitudes?[i] ?? .nan }
    @inline(__always) public func speed(_ i: Int) -> Double { speeds?[i] ?? .nan }
    @inline(__always) public func course(_ i: Int) -> Double { courses?[i] ?? .nan }

    /// The point's name, nil when it has none.
    public func name(_ i: Int) -> String? {
        var lo = 0, hi = namedAt.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if namedAt[mid] < i { lo = mid + 1 } else { hi = mid }
        }
        return lo < namedAt.count && namedAt[lo] == i ? nameTexts[lo] : nil
    }

    /// Point i as a fix (accuracy 0; an absent time is NaN).
    public subscript(i: Int) -> Fix {
        var f = Fix(latitude: latitudes[i], longitude: longitudes[i], time: time(i), accuracy: 0)
        f.altitude = altitude(i)
        f.speed = speed(i)
        f.course = course(i)
        return f
    }

    @inline(__always)
    private static func put(_ column: inout [Double]?, _ v: Double, _ n: Int) {
        if column != nil {
            column!.append(v)
        } else if !v.isNaN {
            var c = [Double](repeating: .nan, count: n)
            c.reserveCapacity(Swift.max(2 * n, 16))
            c.append(v)
            column = c
        }
    }

    /// Appends a point (NaN for an absent value; a nil or empty name for none).
    mutating func append(latitude: Double, longitude: Double, time: Double, altitude: Double, speed: Double = .nan,
                         course: Double = .nan, name: String? = nil) {
        let n = latitudes.count
        latitudes.append(latitude)
        longitudes.append(longitude)
        TrackPoints.put(&times, time, n)
        TrackPoints.put(&altitudes, altitude, n)
        TrackPoints.put(&speeds, speed, n)
        TrackPoints.put(&courses, course, n)
        if let name, !name.isEmpty {
            namedAt.append(n)
            nameTexts.append(name)
        }
    }

    mutating func reserve(_ n: Int) {
        latitudes.reserveCapacity(n)
        longitudes.reserveCapacity(n)
    }

    /// Every point as a fix.
    public var fixes: [Fix] { (0..<count).map { self[$0] } }
}

/// A track read from a file.
public struct TrackLoad: Sendable {
    /// Every point of every segment, in document order (GPX: `trkpt` and `rtept`).
    public internal(set) var points = TrackPoints()
    /// The segments, in document order; together they hold every point once, in order.
    public internal(set) var segments: [TrackSegment] = []
    /// The name of each path (a GPX `trk` or `rte`, a GeoJSON feature's "name"), nil when it
    /// has none; `segments[k].path` indexes it.
    public internal(set) var pathNames: [String?] = []
    /// The waypoints (GPX `wpt`), in document order; an absent time is NaN.
    public internal(set) var waypoints = TrackPoints()
    /// The problems found (the first `maxIssues`): points skipped for want of a usable position,
    /// values that could not be read. `record` is the 0-based index of the point among the
    /// file's points of its kind (GPX: `trkpt`, `rtept` or `wpt`, as the reason says; GeoJSON:
    /// among all positions).
    public internal(set) var issues: [LoadIssue] = []
    /// How many problems there were, those beyond `issues` included.
    public internal(set) var issueTotal = 0

    /// The most issues a load keeps (the rest are counted in `issueTotal`).
    public static let maxIssues = 1000

    public init() {}

    /// Whether some point of a segment has a time.
    public var timed: Bool { points.hasTimes }

    /// The points as fixes, as 0.3 gave them: when no point has a time, the times are the
    /// points' positions 0, 1, 2, ...; otherwise a point without one has time NaN.
    public var fixes: [Fix] {
        var out = points.fixes
        if !timed { for i in out.indices { out[i].time = Double(i) } }
        return out
    }

    /// The segment index of each point.
    public var segmentOfPoint: [Int] {
        var out = [Int](repeating: 0, count: points.count)
        for (k, s) in segments.enumerated() { for i in s.range { out[i] = k } }
        return out
    }

    /// Statistics of each segment and of the whole track (the segments together: the gaps
    /// between them are not movement). See `Track.measure`.
    public func stats(model: EarthModel = .sphere, movingSpeed: Double = 0.5) throws(GeoLocError) -> TrackMeasure {
        try Track.measure(points, segments: segments.map { $0.range }, model: model, movingSpeed: movingSpeed)
    }
}
