#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One location fix as the host received it (libgeoloc never reads a GPS).
///
/// The layout is the C `geoloc_fix`: seven doubles in this order, so an (n, 7) float64 array is
/// an array of n fixes. `speed`, `course` and `altitude` are NaN when the fix has none.
public struct Fix: Sendable, Equatable {
    /// Degrees north, [-90, 90].
    public var latitude: Double
    /// Degrees east, any finite value.
    public var longitude: Double
    /// Seconds on a clock of the stream's choosing (monotonic per stream).
    public var time: Double
    /// Horizontal accuracy in meters (the radius of the fix's uncertainty circle), finite, >= 0.
    public var accuracy: Double
    /// Meters per second, >= 0, or NaN when absent.
    public var speed: Double
    /// Degrees clockwise from north, or NaN when absent.
    public var course: Double
    /// Meters, or NaN when absent.
    public var altitude: Double

    public init(
        latitude: Double, longitude: Double, time: Double, accuracy: Double = 0,
        speed: Double? = nil, course: Double? = nil, altitude: Double? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.time = time
        self.accuracy = accuracy
        self.speed = speed ?? .nan
        self.course = course ?? .nan
        self.altitude = altitude ?? .nan
    }

    public static func == (a: Fix, b: Fix) -> Bool {
        func same(_ x: Double, _ y: Double) -> Bool { x == y || (x.isNaN && y.isNaN) }
        return a.latitude == b.latitude && a.longitude == b.longitude && a.time == b.time
            && a.accuracy == b.accuracy && same(a.speed, b.speed) && same(a.course, b.course)
            && same(a.altitude, b.altitude)
    }

    /// The number of doubles a fix takes in a flat array.
    public static let stride = 7

    /// Checks the fix: position as `Coordinate` does, time finite, accuracy finite and >= 0,
    /// speed NaN or finite and >= 0, course and altitude NaN or finite.
    public func check(at name: @autoclosure () -> String = "fix") throws(GeoLocError) {
        try checkFix(latitude, longitude, time, accuracy, speed, course, altitude, name())
    }
}

func checkFix(
    _ lat: Double, _ lon: Double, _ t: Double, _ acc: Double, _ speed: Double, _ course: Double,
    _ alt: Double, _ name: @autoclosure () -> String, absentTime: Bool = false
) throws(GeoLocError) {
    try checkPoint(lat, lon, at: name())
    if !t.isFinite && !(absentTime && t.isNaN) { throw GeoLocError(.notFinite, "\(name()): time \(show(t)) is not finite") }
    if !acc.isFinite { throw GeoLocError(.notFinite, "\(name()): accuracy \(show(acc)) is not finite") }
    if acc < 0 { throw GeoLocError(.outOfRange, "\(name()): accuracy \(show(acc)) is negative") }
    if speed.isInfinite { throw GeoLocError(.notFinite, "\(name()): speed is infinite") }
    if speed < 0 { throw GeoLocError(.outOfRange, "\(name()): speed \(show(speed)) is negative") }
    if course.isInfinite { throw GeoLocError(.notFinite, "\(name()): course is infinite") }
    if alt.isInfinite { throw GeoLocError(.notFinite, "\(name()): altitude is infinite") }
}

/// A read-only view of n fixes stored as 7 doubles each (the C `geoloc_fix` array).
@_spi(CABI)
public struct FixBuffer {
    public let base: UnsafePointer<Double>?
    public let count: Int

    public init(_ base: UnsafePointer<Double>?, count: Int) {
        self.base = base
        self.count = count
    }

    @inline(__always) func lat(_ i: Int) -> Double { base![7 * i] }
    @inline(__always) func lon(_ i: Int) -> Double { base![7 * i + 1] }
    @inline(__always) func time(_ i: Int) -> Double { base![7 * i + 2] }
    @inline(__always) func accuracy(_ i: Int) -> Double { base![7 * i + 3] }
    @inline(__always) func speed(_ i: Int) -> Double { base![7 * i + 4] }
    @inline(__always) func course(_ i: Int) -> Double { base![7 * i + 5] }
    @inline(__always) func altitude(_ i: Int) -> Double { base![7 * i + 6] }

    func fix(_ i: Int) -> Fix {
        var f = Fix(latitude: lat(i), longitude: lon(i), time: time(i), accuracy: accuracy(i))
        f.speed = speed(i)
        f.course = course(i)
        f.altitude = altitude(i)
        return f
    }

    /// Checks every fix; the error names the first bad one as `name[i]`. With `absentTimes`,
    /// a time may be NaN (the fix has none).
    public func check(_ name: String, absentTimes: Bool = false) throws(GeoLocError) {
        for i in 0..<count {
            let p = base! + 7 * i
            try checkFix(p[0], p[1], p[2], p[3], p[4], p[5], p[6], "\(name)[\(i)]", absentTime: absentTimes)
        }
    }

    /// Checks the fixes of a track followed in time (its statistics, resampling, stay points):
    /// every fix (`check`), then that times never decrease (`checkTimesNondecreasing`).
    public func checkInTimeOrder(_ name: String) throws(GeoLocError) {
        try check(name)
        try checkTimesNondecreasing(name)
    }

    /// Checks that times never decrease; the error names the first fix that goes back.
    public func checkTimesNondecreasing(_ name: String, after last: Double = -.infinity) throws(GeoLocError) {
        var prev = last
        for i in 0..<count {
            let t = time(i)
            if t < prev {
                throw GeoLocError(.outOfRange, "\(name)[\(i)]: time \(show(t)) is before the previous fix's \(show(prev))")
            }
            prev = t
        }
    }
}

/// Runs `body` over the fixes as a flat buffer of doubles.
func withFixBuffer<R, E: Error>(_ fixes: [Fix], _ body: (FixBuffer) throws(E) -> R) throws(E) -> R {
    var flat = [Double]()
    flat.reserveCapacity(fixes.count * 7)
    for f in fixes {
        flat.append(f.latitude); flat.append(f.longitude); flat.append(f.time); flat.append(f.accuracy)
        flat.append(f.speed); flat.append(f.course); flat.append(f.altitude)
    }
    let result: Result<R, E> = flat.withUnsafeBufferPointer { b in
        do throws(E) { return .success(try body(FixBuffer(b.baseAddress, count: fixes.count))) } catch {
            return .failure(error)
        }
    }
    return try result.get()
}

/// The unit vector of a point, as `unitVector(latitude:longitude:)` (Core/UnitSphere.swift).
@inline(__always)
func unit3(_ lat: Double, _ lon: Double) -> SIMD3<Double> {
    unitVector(latitude: lat, longitude: lon)
}

/// The great-circle distance in meters between two points (haversine, the mean Earth radius).
@inline(__always)
func sphereMeters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    haversineDistance(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2)
}

/// The angle between two unit vectors, accurate at every size (atan2 of |a×b| and a·b).
@inline(__always)
func angleBetween(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    let c = SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    let s = (c * c).sum().squareRoot()
    return atan2(s, (a * b).sum())
}
