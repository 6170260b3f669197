@_spi(CABI) @testable import GeoLoc
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Distance of one pair and of batches, on the sphere and WGS84; the golden distance cases. The
/// batch kernels and the geodesics have their own classes below.
final class DistanceTests: XCTestCase {
    func testDistanceUnitsAgree() throws {
        let a = try Coordinate(parsing: "38.321991,-88.867400")
        let b = try Coordinate(parsing: "40.712800,-74.006000")
        let m = try distance(from: a, to: b)
        for unit in DistanceUnit.allCases {
            XCTAssertEqual(try distance(from: a, to: b, unit: unit), m / unit.meters, accuracy: m / unit.meters * 1e-15)
            XCTAssertEqual(try convert(m, from: .meters, to: unit), m / unit.meters, accuracy: m / unit.meters * 1e-15)
        }
        XCTAssertEqual(try distance(from: a, to: a), 0)
        // Antipodes: half the circumference exactly.
        let p = try Coordinate(latitude: 10, longitude: 20)
        let q = try Coordinate(latitude: -10, longitude: -160)
        XCTAssertEqual(try distance(from: p, to: q), Double.pi * Earth.meanRadius, accuracy: 1e-8)
    }

    func testWGS84IsTheGeodesic() throws {
        let a = try Coordinate(latitude: 0, longitude: 0)
        XCTAssertEqual(try distance(from: a, to: a, model: .wgs84), 0)
        // One degree along the equator: a π / 180 on the ellipsoid.
        let b = try Coordinate(latitude: 0, longitude: 1)
        XCTAssertEqual(try distance(from: a, to: b, model: .wgs84), 6_378_137 * Double.pi / 180, accuracy: 1e-9)
    }

    func testBatchEqualsScalar() throws {
        var a: [Double] = [], b: [Double] = [], coordsA: [Coordinate] = [], coordsB: [Coordinate] = []
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<1000 {
            let p = (Double.random(in: -90...90, using: &rng), Double.random(in: -180..<180, using: &rng))
            let q = (Double.random(in: -90...90, using: &rng), Double.random(in: -180..<180, using: &rng))
            a += [p.0, p.1]; b += [q.0, q.1]
            coordsA.append(try Coordinate(latitude: p.0, longitude: p.1))
            coordsB.append(try Coordinate(latitude: q.0, longitude: q.1))
        }
        var out = [Double](repeating: -1, count: 1000)
        var many = [Double](repeating: -1, count: 1000)
        try a.withUnsafeBufferPointer { (pa) throws(GeoLocError) in
            try b.withUnsafeBufferPointer { (pb) throws(GeoLocError) in
                try out.withUnsafeMutableBufferPointer { (po) throws(GeoLocError) in
                    try BatchDistance.pairs(pa, pb, into: po, unit: .miles)
                }
                try many.withUnsafeMutableBufferPointer { (po) throws(GeoLocError) in
                    try BatchDistance.oneToMany(coordsA[0], pb, into: po, unit: .miles)
                }
            }
        }
        let scalar = try distances(coordsA, coordsB, unit: .miles)
        let fromFirst = try distances(from: coordsA[0], to: coordsB, unit: .miles)
        for i in 0..<1000 {
            XCTAssertEqual(out[i], scalar[i], accuracy: 1e-11 * scalar[i])
            XCTAssertEqual(out[i], try distance(from: coordsA[i], to: coordsB[i], unit: .miles), accuracy: 1e-11 * scalar[i])
            XCTAssertEqual(many[i], fromFirst[i], accuracy: 1e-11 * fromFirst[i])
        }
    }

    func testBatchReportsFirstBadIndex() {
        let a: [Double] = [0, 0, 95, 0, .nan, 0]
        var out = [Double](repeating: -1, count: 3)
        do {
            try a.withUnsafeBufferPointer { (pa) throws(GeoLocError) in
                try out.withUnsafeMutableBufferPointer { (po) throws(GeoLocError) in
                    try BatchDistance.pairs(pa, pa, into: po)
                }
            }
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.code, .outOfRange)
            XCTAssertTrue(error.message.hasPrefix("a[1]:"), error.message)
        }
        XCTAssertEqual(out, [-1, -1, -1], "nothing is written when a point is bad")
        assertThrows(.invalidArgument) { () throws(GeoLocError) in try distances([], [try Coordinate(latitude: 0, longitude: 0)]) }
    }

    func testGoldenDistance() throws {
        for row in try Golden.rows("distance.tsv") {
            let a = try Coordinate(latitude: row.double("lat1"), longitude: row.double("lon1"))
            let b = try Coordinate(latitude: row.double("lat2"), longitude: row.double("lon2"))
            let expected = row.double("expected")
            let got = try distance(from: a, to: b, unit: unit(row.text("unit")))
            XCTAssertLessThanOrEqual(abs(got - expected), row.double("rel_tol") * max(expected, 1e-300) + 1e-9,
                                     "\(a) -> \(b): \(got) vs \(expected)")
            // Symmetric.
            XCTAssertEqual(try distance(from: b, to: a, unit: unit(row.text("unit"))), got, accuracy: 1e-9 + got * 1e-15)
        }
    }
}

/// The batch haversine kernels (HaversineKernel.swift, Sources/GeoLocKernels) against the scalar
/// `haversineDistance`, at every instruction-set level this CPU runs: random pairs, the hard
/// cases, every tail length, unaligned and odd-length buffers.
final class BatchKernelTests: XCTestCase {
    /// The promise: no further from the scalar result than this, relative.
    let tolerance = 1e-11
    let radius = Earth.meanRadius

    /// The levels to test: the Swift baseline and each C level the CPU supports.
    var levels: [HaversineKernel.Level] { Array(0...HaversineKernel.supportedLevel) }

    /// Interleaved points [lat, lon, ...] as pairs of a and b.
    struct Cases {
        var a: [Double] = []
        var b: [Double] = []
        var count: Int { a.count / 2 }
        mutating func add(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) {
            a += [lat1, lon1]
            b += [lat2, lon2]
        }
    }


    func scalar(_ c: Cases, _ i: Int) -> Double {
        haversineDistance(
            lat1: c.a[2 * i], lon1: normalizedLongitude(c.a[2 * i + 1]),
            lat2: c.b[2 * i], lon2: normalizedLongitude(c.b[2 * i + 1]), radius: radius)
    }

    func kernelPairs(_ c: Cases, level: HaversineKernel.Level) -> [Double] {
        var out = [Double](repeating: .nan, count: c.count)
        c.a.withUnsafeBufferPointer { pa in
            c.b.withUnsafeBufferPointer { pb in
                out.withUnsafeMutableBufferPointer { po in
                    guard c.count > 0 else { return }
                    HaversineKernel.pairs(
                        pa.baseAddress!, pb.baseAddress!, count: c.count, into: po.baseAddress!, radius: radius,
                        level: level)
                }
            }
        }
        return out
    }

    /// The relative difference from the scalar result; identical results (0 included) give 0, and
    /// a non-zero result where the scalar one is 0 gives infinity.
    func relative(_ got: Double, _ want: Double) -> Double {
        if got == want { return 0 }
        return want == 0 ? .infinity : abs(got - want) / abs(want)
    }

    /// Checks every pair of `c` at every level; returns the largest relative difference.
    @discardableResult
    func check(_ c: Cases, _ what: String, file: StaticString = #filePath, line: UInt = #line) -> Double {
        let want = (0..<c.count).map { scalar(c, $0) }
        var worst = 0.0
        for level in levels {
            let got = kernelPairs(c, level: level)
            var worstHere = 0.0, at = 0
            for i in 0..<c.count {
                let r = relative(got[i], want[i])
                if !(r <= worstHere) { worstHere = r; at = i }
            }
            XCTAssertLessThanOrEqual(
                worstHere, tolerance,
                "\(what), level \(level): pair \(at) (\(c.a[2 * at]), \(c.a[2 * at + 1])) -> "
                    + "(\(c.b[2 * at]), \(c.b[2 * at + 1])): \(got[at]) vs scalar \(want[at])",
                file: file, line: line)
            worst = max(worst, worstHere)
        }
        return worst
    }

    // MARK: random pairs

    func testMillionRandomPairs() {
        var rng = SplitMix64(state: 0x6765_6f6c_6f63)
        var c = Cases()
        c.a.reserveCapacity(2_000_000)
        c.b.reserveCapacity(2_000_000)
        for k in 0..<1_000_000 {
            if k % 2 == 0 {
                // Uniform over the sphere, the benchmark's distribution.
                c.add(rng.latitude(), rng.uniform(-180, 180), rng.latitude(), rng.uniform(-180, 180))
            } else {
                // Uniform over the lat/lon grid, more weight near the poles.
                c.add(rng.uniform(-90, 90), rng.uniform(-180, 180), rng.uniform(-90, 90), rng.uniform(-180, 180))
            }
        }
        let worst = check(c, "random")
        print("BatchKernelTests: 1,000,000 random pairs, levels \(levels): max relative difference \(worst)")
    }

    func testRandomOneToMany() {
        var rng = SplitMix64(state: 42)
        var points: [Double] = []
        for _ in 0..<100_000 { points += [rng.latitude(), rng.uniform(-180, 180)] }
        points += [90, 0, -90, 0, 0, 180, 0, -180, 12.5, 400]
        let n = points.count / 2
        let origins = [(38.321991, -88.8674), (90, 0), (-90, 0), (0, -180), (-33.9, 151.2), (0.000001, 179.999999)]
        var worst = 0.0
        for (lat0, lon0) in origins {
            let want = (0..<n).map {
                haversineDistance(
                    lat1: lat0, lon1: lon0, lat2: points[2 * $0], lon2: normalizedLongitude(points[2 * $0 + 1]),
                    radius: radius)
            }
            for level in levels {
                var out = [Double](repeating: .nan, count: n)
                points.withUnsafeBufferPointer { pp in
                    out.withUnsafeMutableBufferPointer { po in
                        HaversineKernel.oneToMany(
                            latitude: lat0, longitude: lon0, pp.baseAddress!, count: n, into: po.baseAddress!,
                            radius: radius, level: level)
                    }
                }
                for i in 0..<n {
                    let r = relative(out[i], want[i])
                    worst = max(worst, r)
                    if r > tolerance {
                        XCTFail("origin (\(lat0), \(lon0)), level \(level), point \(i): \(out[i]) vs \(want[i])")
                        break
                    }
                }
            }
        }
        print("BatchKernelTests: one-to-many, \(origins.count) origins x \(n) points: max relative difference \(worst)")
    }

    // MARK: the hard cases

    func testAntipodes() {
        var rng = SplitMix64(state: 1)
        var exact = Cases(), near = Cases()
        for _ in 0..<20_000 {
            let lat = rng.latitude(), lon = rng.uniform(-180, 180)
            exact.add(lat, lon, -lat, lon + 180)
            // Within 1e-12 to 1e-1 degrees of the antipode, in latitude, longitude or both.
            let e = rng.sign() * pow(10, rng.uniform(-12, -1)), f = rng.sign() * pow(10, rng.uniform(-12, -1))
            let which = rng.next() % 3
            near.add(lat, lon, max(-90, min(90, -lat + (which != 1 ? e : 0))), lon + 180 + (which != 0 ? f : 0))
        }
        exact.add(0, 0, 0, 180)
        exact.add(0, 0, 0, -180)
        exact.add(90, 0, -90, 0)
        exact.add(45, 90, -45, -90)
        near.add(0, 0, 1e-9, 180)
        near.add(0, 0, 0, 179.999999999)
        let worst = max(check(exact, "exact antipodes"), check(near, "near antipodes"))
        print("BatchKernelTests: antipodes: max relative difference \(worst)")
    }

    func testIdenticalPointsAreExactlyZero() {
        var rng = SplitMix64(state: 2)
        var c = Cases()
        for _ in 0..<10_000 {
            let lat = rng.latitude(), lon = rng.uniform(-180, 180)
            c.add(lat, lon, lat, lon)
        }
        for p in [(0.0, 0.0), (90, 0), (-90, 45), (0, -180), (12.5, 179.9999999), (1e-300, -1e-300)] {
            c.add(p.0, p.1, p.0, p.1)
        }
        c.add(10, 180, 10, -180)  // the same point once longitudes are reduced
        c.add(10, 540, 10, -180)
        for level in levels {
            let got = kernelPairs(c, level: level)
            for i in 0..<c.count where got[i] != 0 {
                XCTFail("level \(level): identical points \(c.a[2 * i]), \(c.a[2 * i + 1]) give \(got[i]), not 0")
                break
            }
        }
        check(c, "identical points")
    }

    func testPoles() {
        var rng = SplitMix64(state: 3)
        var c = Cases()
        for _ in 0..<20_000 {
            let lon1 = rng.uniform(-180, 180), lon2 = rng.uniform(-180, 180)
            c.add(90, lon1, 90, lon2)  // the same pole, different longitudes: tiny, not 0
            c.add(-90, lon1, -90, lon2)
            c.add(90, lon1, -90, lon2)  // pole to pole
            c.add(90, lon1, rng.latitude(), lon2)  // pole to anywhere
            // Near a pole: within 1e-10 to 1 degree of it.
            let s = rng.sign()
            c.add(s * (90 - pow(10, rng.uniform(-10, 0))), lon1, s * (90 - pow(10, rng.uniform(-10, 0))), lon2)
        }
        let worst = check(c, "poles")
        print("BatchKernelTests: poles: max relative difference \(worst)")
    }

    func testCentimetrePairs() {
        var rng = SplitMix64(state: 4)
        var c = Cases()
        for _ in 0..<20_000 {
            // About 1 cm: 1e-7 degrees is 1.1 cm of latitude.
            let lat = rng.uniform(-89.9, 89.9), lon = rng.uniform(-180, 179.9)
            c.add(lat, lon, lat + rng.sign() * rng.uniform(0, 1e-7), lon + rng.sign() * rng.uniform(0, 1e-7))
            c.add(lat, lon, lat + rng.sign() * 1e-7, lon)
            c.add(lat, lon, lat, lon + rng.sign() * 1e-7)
            // Much shorter still: 1e-12 degrees, about 0.1 µm.
            c.add(lat, lon, lat + 1e-12, lon + 1e-12)
        }
        let worst = check(c, "1 cm pairs")
        print("BatchKernelTests: centimetre pairs: max relative difference \(worst)")
    }

    func testAntimeridian() {
        var rng = SplitMix64(state: 5)
        var c = Cases()
        for _ in 0..<20_000 {
            let lat = rng.uniform(-89, 89)
            let e1 = pow(10, rng.uniform(-9, 0)), e2 = pow(10, rng.uniform(-9, 0))
            c.add(lat, 180 - e1, lat + rng.uniform(-1e-6, 1e-6), -180 + e2)  // across, nearby
            c.add(lat, -180 + e1, rng.latitude(), 180 - e2)
            c.add(lat, 180, lat, -180 + e2)  // 180 reduces to -180
            c.add(lat, 179.99999999, lat, -179.99999999)
        }
        let worst = check(c, "antimeridian")
        print("BatchKernelTests: antimeridian: max relative difference \(worst)")
    }

    func testUnreducedLongitudes() {
        var rng = SplitMix64(state: 6)
        var c = Cases()
        c.add(10, 540, 11, -179)
        c.add(-20, -190.5, -21, 359)
        c.add(45, 1e6, 46, -1e6)
        c.add(0, 180, 0, 180)
        c.add(0, -540, 0, 900)
        c.add(1, 1e300, 2, -1e300)
        for _ in 0..<20_000 {
            c.add(rng.latitude(), rng.uniform(-1e6, 1e6), rng.latitude(), rng.uniform(-1e6, 1e6))
            // One lane of a vector out of range, the others in it.
            c.add(rng.latitude(), rng.uniform(-180, 180), rng.latitude(), rng.uniform(-180, 180) + 360)
        }
        check(c, "unreduced longitudes")
    }

    func testSpecialLines() {
        var rng = SplitMix64(state: 7)
        var c = Cases()
        for _ in 0..<10_000 {
            // A quarter turn apart (h close to 1/2, where the way of taking 1 - h switches).
            c.add(0, 0, rng.uniform(-1e-3, 1e-3), 90 + rng.uniform(-1e-3, 1e-3))
            c.add(rng.uniform(-1, 1), rng.uniform(-180, 180), rng.uniform(-1, 1) + 90 * rng.sign(), rng.uniform(-180, 180))
            // Along the equator and along a meridian.
            c.add(0, rng.uniform(-180, 180), 0, rng.uniform(-180, 180))
            let lon = rng.uniform(-180, 180)
            c.add(rng.latitude(), lon, rng.latitude(), lon)
        }
        check(c, "quarter turns, equator, meridians")
    }

    // MARK: buffers

    /// Every n from 0 to 17 (every tail length of 2-, 4- and 8-lane vectors, with one, two and no
    /// full steps before it), starting 0 to 3 doubles into the buffers (so no vector alignment
    /// can be assumed): the results match the scalar function and the same pairs in a long run,
    /// and nothing past out[n - 1] is written.
    func testTailsAndOffsets() {
        var rng = SplitMix64(state: 8)
        var pool = Cases()
        for _ in 0..<40 { pool.add(rng.latitude(), rng.uniform(-180, 180), rng.latitude(), rng.uniform(-180, 180)) }
        pool.add(90, 0, -90, 10)  // a hard case or two among them
        pool.add(10, 20, 10, 20)
        let sentinel = -12345.0
        for level in levels {
            let whole = kernelPairs(pool, level: level)
            for n in 0...17 {
                for offset in 0...3 {
                    for first in [0, 3, 25] where first + n <= pool.count {
                        let a = [Double](repeating: 0, count: 2 * offset) + pool.a[(2 * first)..<(2 * (first + n))]
                        let b = [Double](repeating: 0, count: 2 * offset + 1) + pool.b[(2 * first)..<(2 * (first + n))]
                        var out = [Double](repeating: sentinel, count: offset + n + 9)
                        a.withUnsafeBufferPointer { pa in
                            b.withUnsafeBufferPointer { pb in
                                out.withUnsafeMutableBufferPointer { po in
                                    // b starts one more double in: a and b differ in alignment.
                                    HaversineKernel.pairs(
                                        pa.baseAddress! + 2 * offset, pb.baseAddress! + 2 * offset + 1, count: n,
                                        into: po.baseAddress! + offset, radius: radius, level: level)
                                }
                            }
                        }
                        let what = "level \(level), n \(n), offset \(offset), first \(first)"
                        XCTAssertEqual(Array(out[0..<offset]), [Double](repeating: sentinel, count: offset), what)
                        XCTAssertEqual(Array(out[(offset + n)...]), [Double](repeating: sentinel, count: 9), what)
                        for i in 0..<n {
                            XCTAssertEqual(out[offset + i], whole[first + i], "\(what), pair \(i)")
                            XCTAssertLessThanOrEqual(
                                relative(out[offset + i], scalar(pool, first + i)), tolerance, "\(what), pair \(i)")
                        }
                    }
                }
            }
        }
    }

    /// The same through the public batch API, one-to-many included, every n from 0 to 17 and
    /// buffers of odd length (longer than the pairs asked for).
    func testBatchDistanceTails() throws {
        var rng = SplitMix64(state: 9)
        var a: [Double] = [], b: [Double] = []
        for _ in 0..<18 { a += [rng.latitude(), rng.uniform(-180, 180)]; b += [rng.latitude(), rng.uniform(-180, 180)] }
        a.append(0)  // odd length
        let origin = Coordinate(checkedLatitude: 38.5, longitude: -89.1)
        for n in 0...17 {
            var out = [Double](repeating: .nan, count: n)
            var many = [Double](repeating: .nan, count: n)
            try a.withUnsafeBufferPointer { pa in
                try b.withUnsafeBufferPointer { pb in
                    try out.withUnsafeMutableBufferPointer { po in
                        try BatchDistance.pairs(pa, pb, into: po, unit: .miles)
                    }
                    try many.withUnsafeMutableBufferPointer { po in
                        try BatchDistance.oneToMany(origin, pb, into: po, unit: .kilometers)
                    }
                }
            }
            for i in 0..<n {
                let p = Coordinate(checkedLatitude: a[2 * i], longitude: a[2 * i + 1])
                let q = Coordinate(checkedLatitude: b[2 * i], longitude: b[2 * i + 1])
                XCTAssertLessThanOrEqual(relative(out[i], try distance(from: p, to: q, unit: .miles)), tolerance)
                XCTAssertLessThanOrEqual(relative(many[i], try distance(from: origin, to: q, unit: .kilometers)), tolerance)
            }
        }
    }

    /// The levels agree with each other closely (they differ only in rounding: FMA or not).
    func testLevelsAgree() {
        var rng = SplitMix64(state: 10)
        var c = Cases()
        for _ in 0..<50_000 { c.add(rng.latitude(), rng.uniform(-180, 180), rng.latitude(), rng.uniform(-180, 180)) }
        let base = kernelPairs(c, level: 0)
        for level in levels.dropFirst() {
            let got = kernelPairs(c, level: level)
            let worst = zip(got, base).map { relative($0, $1) }.max() ?? 0
            XCTAssertLessThanOrEqual(worst, 1e-14, "level \(level) against the Swift baseline")
        }
        print("BatchKernelTests: supported level \(HaversineKernel.supportedLevel)")
    }
}


/// WGS84 geodesics against GeographicLib (tests/golden/geodesic_*.tsv, made by
/// tools/gen_geodesic.py), and the invariants of the inverse and direct problems.
final class GeodesicTests: XCTestCase {
    /// GeographicLib's own accuracy claim for WGS84, 15 nm: the bound on every distance and
    /// position compared here.
    static let nm15 = 15e-9
    /// Half the meridian ellipse's circumference, pole to pole on WGS84 (GeographicLib): no
    /// geodesic is longer.
    static let halfMeridian = 20_003_931.458625447

    static let inverseColumns = ["case", "lat1", "lon1", "lat2", "lon2", "s12_m", "azi1_deg", "azi2_deg"]
    static let directColumns = ["case", "lat1", "lon1", "azi1", "s12_m", "lat2", "lon2", "azi2"]


    /// The difference of two angles in degrees, reduced to [0, 180].
    func angleGap(_ x: Double, _ y: Double) -> Double {
        abs(remainder(x - y, 360))
    }

    /// Where `a` and `b` are nearly the same point, the distance between them measured by the
    /// library's own inverse (a short line, far from any ill-conditioned case).
    func gap(_ a: Coordinate, _ b: Coordinate) -> Double {
        geodesicInverse(from: a, to: b).distance
    }

    /// |m12|, the reduced length of the geodesic from `a` (meters): how far the end point moves
    /// sideways per radian of change in the initial azimuth. Measured by the direct problem with
    /// the azimuth turned by 1e-6 rad (the second-order term adds at most about s12 * 1e-6,
    /// 20 m, to a value that is only used as a scale).
    func reducedLength(from a: Coordinate, azimuth: Double, distance: Double) throws -> Double {
        let turn = 1e-6
        let p = try geodesicDirect(from: a, azimuth: azimuth, distance: distance).destination
        let q = try geodesicDirect(from: a, azimuth: azimuth + turn * 180 / Double.pi, distance: distance).destination
        return gap(p, q) / turn
    }

    // MARK: golden cases

    func testInverseMatchesGeographicLib() throws {
        var worstDistance = 0.0, worstSideways = 0.0
        for row in try Golden.rows("geodesic_inverse.tsv", columns: Self.inverseColumns) {
            let label = "\(row.text("case")) \(row.text("lat1")),\(row.text("lon1")) -> \(row.text("lat2")),\(row.text("lon2"))"
            let a = try Coordinate(latitude: row.double("lat1"), longitude: row.double("lon1"))
            let b = try Coordinate(latitude: row.double("lat2"), longitude: row.double("lon2"))
            let got = geodesicInverse(from: a, to: b)
            let ds = abs(got.distance - row.double("s12_m"))
            worstDistance = max(worstDistance, ds)
            XCTAssertLessThanOrEqual(ds, Self.nm15, label)
            // The fast path and the model dispatch give the very same number.
            XCTAssertEqual(try distance(from: a, to: b, model: .wgs84), got.distance, label)
            // Azimuths. An error δα in α1 moves the far end sideways by |m12| δα (m12, the reduced
            // length, is at most s12), and by reciprocity the same holds for α2; so |m12| δα <=
            // 15 nm is the bound that matches the distance bound. δα s12 would be the same bound
            // for most lines, but not for nearly antipodal points: there m12 -> 0, α1 is
            // ill-conditioned (a tiny change of the points turns it a lot), and δα s12 reaches
            // 0.5 µm while the path itself agrees to nanometres.
            // Where m12 vanishes (identical points, exact antipodes) any azimuth of a family
            // fits; GeographicLib's choice is then checked as such, to 1e-9 degrees.
            let d1 = angleGap(got.initialAzimuth, row.double("azi1_deg"))
            let d2 = angleGap(got.finalAzimuth, row.double("azi2_deg"))
            let m12 = try reducedLength(from: a, azimuth: got.initialAzimuth, distance: got.distance)
            let sideways = max(d1, d2) * Double.pi / 180 * m12
            worstSideways = max(worstSideways, sideways)
            XCTAssertLessThanOrEqual(sideways, Self.nm15, "\(label): azimuths \(got.initialAzimuth) \(got.finalAzimuth)")
            if ["identical", "antipodal"].contains(row.text("case")) {
                XCTAssertLessThanOrEqual(max(d1, d2), 1e-9, "\(label): azimuths \(got.initialAzimuth) \(got.finalAzimuth)")
            }
            XCTAssertTrue(got.initialAzimuth >= -180 && got.initialAzimuth <= 180, label)
            XCTAssertTrue(got.finalAzimuth >= -180 && got.finalAzimuth <= 180, label)
        }
        print("geodesic_inverse.tsv: max |s12 - GeographicLib| = \(worstDistance) m, max |m12| dazi = \(worstSideways) m")
    }

    func testDirectMatchesGeographicLib() throws {
        var worstPosition = 0.0
        for row in try Golden.rows("geodesic_direct.tsv", columns: Self.directColumns) {
            let label = "\(row.text("case")) \(row.text("lat1")),\(row.text("lon1")) az \(row.text("azi1")) s \(row.text("s12_m"))"
            let start = try Coordinate(latitude: row.double("lat1"), longitude: row.double("lon1"))
            let got = try geodesicDirect(from: start, azimuth: row.double("azi1"), distance: row.double("s12_m"))
            let want = try Coordinate(latitude: row.double("lat2"), longitude: row.double("lon2"))
            // Position: the distance between the two end points, by the inverse (a short line).
            let error = gap(got.destination, want)
            worstPosition = max(worstPosition, error)
            XCTAssertLessThanOrEqual(error, Self.nm15, "\(label): got \(got.destination)")
            XCTAssertTrue(got.destination.longitude >= -180 && got.destination.longitude < 180, label)
            // The final azimuth is well-conditioned here (it does not depend on an iteration):
            // 1e-9 degrees, except at a pole, where it depends on the longitude convention.
            let tolerance = abs(row.double("lat2")) > 90 - 1e-9 ? 1e-6 : 1e-9
            XCTAssertLessThanOrEqual(angleGap(got.finalAzimuth, row.double("azi2")), tolerance, label)
        }
        print("geodesic_direct.tsv: max position error = \(worstPosition) m")
    }

    // MARK: special cases

    func testSpecialCases() throws {
        let northPole = try Coordinate(latitude: 90, longitude: 0)
        let southPole = try Coordinate(latitude: -90, longitude: 45)
        // Pole to pole: half the meridian.
        let poles = geodesicInverse(from: southPole, to: northPole)
        XCTAssertEqual(poles.distance, Self.halfMeridian, accuracy: Self.nm15)
        // Identical points, also when the longitudes differ only in name.
        for (p, q) in [((12.5, 30.0), (12.5, 30.0)), ((90, 0), (90, 135)), ((-90, 10), (-90, -170)), ((0, -180), (0, 180))] {
            let a = try Coordinate(latitude: p.0, longitude: p.1), b = try Coordinate(latitude: q.0, longitude: q.1)
            let r = geodesicInverse(from: a, to: b)
            XCTAssertEqual(r.distance, 0, "\(a) \(b)")
            XCTAssertEqual(r.distance.sign, .plus)
            XCTAssertTrue(r.initialAzimuth.isFinite && r.finalAzimuth.isFinite)
        }
        // Equatorial antipodes: over a pole, GeographicLib's convention (north, arriving south).
        let east = geodesicInverse(from: try Coordinate(latitude: 0, longitude: 0), to: try Coordinate(latitude: 0, longitude: 180))
        XCTAssertEqual(east.distance, Self.halfMeridian, accuracy: Self.nm15)
        XCTAssertEqual(east.initialAzimuth, 0)
        XCTAssertEqual(abs(east.finalAzimuth), 180)
        // Along the equator while the separation is at most (1 - f) 180 degrees: a λ12.
        let along = geodesicInverse(from: try Coordinate(latitude: 0, longitude: -10), to: try Coordinate(latitude: 0, longitude: 100))
        XCTAssertEqual(along.distance, 6_378_137 * 110 * Double.pi / 180, accuracy: Self.nm15)
        XCTAssertEqual(along.initialAzimuth, 90)
        XCTAssertEqual(along.finalAzimuth, 90)
        // Karney (2013), Table 3 and Table 2 (the paper's printed digits).
        let table3 = geodesicInverse(from: try Coordinate(latitude: -30, longitude: 0), to: try Coordinate(latitude: 29.9, longitude: 179.8))
        XCTAssertEqual(table3.distance, 19_989_832.827610, accuracy: 1e-6)
        XCTAssertEqual(table3.initialAzimuth, 161.890524736, accuracy: 1e-9)
        XCTAssertEqual(table3.finalAzimuth, 18.090737246, accuracy: 1e-9)
        let table2 = try geodesicDirect(from: try Coordinate(latitude: 40, longitude: 0), azimuth: 30, distance: 10_000_000)
        XCTAssertEqual(table2.destination.latitude, 41.79331020506, accuracy: 1e-11)
        XCTAssertEqual(table2.destination.longitude, 137.84490004377, accuracy: 1e-11)
        XCTAssertEqual(table2.finalAzimuth, 149.09016931807, accuracy: 1e-11)
    }

    func testDirectConventions() throws {
        let start = try Coordinate(latitude: -33.8568, longitude: 151.2153)
        // A negative distance goes backwards along the same geodesic.
        let ahead = try geodesicDirect(from: start, azimuth: 60, distance: 1_000_000)
        let back = try geodesicDirect(from: start, azimuth: 60, distance: -1_000_000)
        let reverse = try geodesicDirect(from: start, azimuth: 240, distance: 1_000_000)
        XCTAssertLessThanOrEqual(gap(back.destination, reverse.destination), Self.nm15)
        XCTAssertEqual(angleGap(back.finalAzimuth, reverse.finalAzimuth + 180), 0, accuracy: 1e-9)
        XCTAssertEqual(geodesicInverse(from: back.destination, to: ahead.destination).distance, 2_000_000, accuracy: Self.nm15)
        // Zero distance stays put; any finite azimuth is reduced.
        let stay = try geodesicDirect(from: start, azimuth: 1234.5, distance: 0)
        XCTAssertLessThanOrEqual(gap(stay.destination, start), 1e-9)
        XCTAssertEqual(angleGap(stay.finalAzimuth, 1234.5), 0, accuracy: 1e-9)
        let wrapped = try geodesicDirect(from: start, azimuth: 60 + 720, distance: 1_000_000)
        XCTAssertLessThanOrEqual(gap(wrapped.destination, ahead.destination), Self.nm15)
        // From a pole every azimuth heads south (north pole), along the meridian lon + azimuth
        // + 180 in GeographicLib's convention; the distance is what counts.
        let pole = try Coordinate(latitude: 90, longitude: 0)
        let down = try geodesicDirect(from: pole, azimuth: 0, distance: Self.halfMeridian / 2)
        XCTAssertEqual(geodesicInverse(from: pole, to: down.destination).distance, Self.halfMeridian / 2, accuracy: Self.nm15)
        // Round the world and back along a meridian: twice the half meridian returns.
        let round = try geodesicDirect(from: start, azimuth: 0, distance: 2 * Self.halfMeridian)
        XCTAssertLessThanOrEqual(gap(round.destination, start), Self.nm15)
    }

    func testDirectRejectsBadInput() throws {
        let start = try Coordinate(latitude: 10, longitude: 20)
        assertThrows(.notFinite) { () throws(GeoLocError) in try geodesicDirect(from: start, azimuth: .nan, distance: 1) }
        assertThrows(.notFinite) { () throws(GeoLocError) in try geodesicDirect(from: start, azimuth: .infinity, distance: 1) }
        assertThrows(.notFinite) { () throws(GeoLocError) in try geodesicDirect(from: start, azimuth: 0, distance: .nan) }
        assertThrows(.notFinite) { () throws(GeoLocError) in try geodesicDirect(from: start, azimuth: 0, distance: -.infinity) }
        // Huge but finite lengths still give a point.
        let far = try geodesicDirect(from: start, azimuth: 33, distance: 1e300)
        XCTAssertTrue(far.destination.latitude.isFinite && far.finalAzimuth.isFinite)
    }

    // MARK: other ellipsoids

    func testEllipsoidValidation() throws {
        let wgs84 = Ellipsoid.wgs84
        XCTAssertEqual(wgs84.equatorialRadius, 6_378_137)
        XCTAssertEqual(wgs84.flattening, 1 / 298.257223563)
        assertThrows(.notFinite) { () throws(GeoLocError) in try Ellipsoid(equatorialRadius: .nan, flattening: 0) }
        assertThrows(.notFinite) { () throws(GeoLocError) in try Ellipsoid(equatorialRadius: 1, flattening: .infinity) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try Ellipsoid(equatorialRadius: 0, flattening: 0) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try Ellipsoid(equatorialRadius: -1, flattening: 0) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try Ellipsoid(equatorialRadius: 1e301, flattening: 0) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try Ellipsoid(equatorialRadius: 1, flattening: 0.021) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try Ellipsoid(equatorialRadius: 1, flattening: -0.021) }
        XCTAssertNoThrow(try Ellipsoid(equatorialRadius: 1, flattening: 1.0 / 50))
        XCTAssertNoThrow(try Ellipsoid(equatorialRadius: 1, flattening: -1.0 / 50))
        // The extremes stay finite: a tiny ellipsoid and an enormous length, a huge one and
        // nearly antipodal points.
        let tiny = try Ellipsoid(equatorialRadius: 1e-300, flattening: 1.0 / 300)
        let start = try Coordinate(latitude: 10, longitude: 20)
        let far = try geodesicDirect(from: start, azimuth: 33, distance: 1e300, on: tiny)
        XCTAssertTrue(far.destination.latitude.isFinite && far.finalAzimuth.isFinite)
        let huge = try Ellipsoid(equatorialRadius: 1e300, flattening: -1.0 / 300)
        let across = geodesicInverse(from: start, to: try Coordinate(latitude: -10.1, longitude: -160.2), on: huge)
        XCTAssertTrue(across.distance.isFinite && across.distance > 3e300)
    }

    /// GeographicLib 2.1 (`Geodesic(a, f)`) on a prolate, a strongly flattened, a unit sphere and a
    /// mean-radius ellipsoid. At |f| = 1/50 both sides carry the same order-6 series, so this is
    /// a check of the code, not of the series' truncation error there.
    func testOtherEllipsoidsMatchGeographicLib() throws {
        typealias Inverse = (lat1: Double, lon1: Double, lat2: Double, lon2: Double, s12: Double, azi1: Double, azi2: Double)
        typealias Direct = (lat1: Double, lon1: Double, azi1: Double, s12: Double, lat2: Double, lon2: Double, azi2: Double)
        let cases: [(a: Double, f: Double, inverse: [Inverse], direct: [Direct])] = [
            (6_378_137, -1.0 / 150, [
                (10, 20, -30, 150, 14420676.440766342, 120.8078788784701, 77.99451629895972),
                (-30, 0, 29.9, 179.8, 20034539.77726376, 95.08875209506526, 84.29523751769045),
                (0, 0, 0.5, 179.7, 19994644.899573795, 70.50483730500818, 109.48891662088158),
                (45, 10, 45.001, 10.002, 192.5948112558283, 54.55560424186085, 54.55701846776463),
                (0, 0, 0, 179.5, 19981848.597392607, 90.0, 90.0),
                (-89, 0, 89.5, 180, 20049064.179784156, 0.0, 180.0),
            ], [
                (10, 20, 45, 1e7, 44.069763711615145, 119.56271775456955, 103.5573824012214),
                (-60, 0, 100, 3e6, -54.177712264248434, 49.96532539898465, 57.22548202719466),
            ]),
            (6_378_137, 1.0 / 50, [
                (10, 20, -30, 150, 14368002.737796381, 120.89335545954792, 76.3028799556709),
                (-30, 0, 29.9, 179.8, 19826187.87228142, 176.44961364203868, 3.5469204219026014),
                (0, 0, 0.5, 179.7, 19782950.58187712, 4.233849416105882, 175.76599546741323),
                (45, 10, 45.001, 10.002, 193.44516467045156, 55.283931984903845, 55.28534621080763),
                (0, 0, 0, 179.5, 19833754.666705854, 8.02335968823474, 171.97664031176527),
                (-89, 0, 89.5, 180, 19780844.225852914, 0.0, 180.0),
            ], [
                (10, 20, 45, 1e7, 44.49238651169831, 119.80108713123066, 104.70729208046475),
                (-60, 0, 100, 3e6, -54.369788421213016, 49.18808900978595, 57.864621752569924),
            ]),
            (1, 0, [
                (10, 20, -30, 150, 2.258853279219807, 120.81688263043421, 77.58114004902559),
                (-30, 0, 29.9, 179.8, 3.1381006779629392, 119.93756136661821, 59.96258970725132),
                (45, 10, 45.001, 10.002, 3.0229813530898823e-05, 54.73466750262951, 54.73608172853331),
                (0, 0, 0, 179.5, 3.1328660073298216, 90.0, 90.0),
            ], [
                (10, 20, 45, 1e7, 7.776464832763723, -177.46555328535837, 135.34567916622785),
            ]),
            (6_371_008.8, 1.0 / 300, [
                (-30, 0, 29.9, 179.8, 19967672.52244204, 161.80353293012945, 18.177632163494952),
                (0, 0, 0, 179.5, 19958591.57612195, 56.46472739751901, 123.53527260248099),
            ], [
                (-60, 0, 100, 3e6, -54.23393496380954, 49.717943399522056, 57.42921618962625),
            ]),
        ]
        for (a, f, inverse, direct) in cases {
            let e = try Ellipsoid(equatorialRadius: a, flattening: f)
            let scale = a / 6_378_137  // the tolerances are for an Earth-sized ellipsoid
            for c in inverse {
                let r = geodesicInverse(
                    from: try Coordinate(latitude: c.lat1, longitude: c.lon1),
                    to: try Coordinate(latitude: c.lat2, longitude: c.lon2), on: e)
                let label = "a \(a) f \(f): \(c)"
                XCTAssertEqual(r.distance, c.s12, accuracy: Self.nm15 * scale, label)
                XCTAssertLessThanOrEqual(angleGap(r.initialAzimuth, c.azi1), 1e-8, label)
                XCTAssertLessThanOrEqual(angleGap(r.finalAzimuth, c.azi2), 1e-8, label)
            }
            for c in direct {
                let r = try geodesicDirect(from: try Coordinate(latitude: c.lat1, longitude: c.lon1), azimuth: c.azi1, distance: c.s12, on: e)
                let want = try Coordinate(latitude: c.lat2, longitude: c.lon2)
                let label = "a \(a) f \(f): \(c)"
                XCTAssertLessThanOrEqual(geodesicInverse(from: r.destination, to: want, on: e).distance, Self.nm15 * scale, label)
                XCTAssertLessThanOrEqual(angleGap(r.finalAzimuth, c.azi2), 1e-9, label)
            }
        }
    }

    // MARK: properties


    /// 20,000 pairs from the hard families as well as uniform ones: finite results, symmetry,
    /// 0 <= s <= half the meridian, and the direct problem from the inverse's answer returning
    /// to the second point.
    func testInverseProperties() throws {
        var rng = SplitMix64(state: 0x6765_6F64_6573_6963)
        func lat() -> Double { asin(Double.random(in: -1...1, using: &rng)) * 180 / Double.pi }
        func lon() -> Double { Double.random(in: -180..<180, using: &rng) }
        var worstReturn = 0.0
        for i in 0..<20_000 {
            var lat1 = lat(), lon1 = lon(), lat2 = lat(), lon2 = lon()
            switch i % 8 {
            case 1:  // nearly antipodal
                lat2 = max(-90, min(90, -lat1 + Double.random(in: -0.5...0.5, using: &rng)))
                lon2 = lon1 + 180 - Double.random(in: 0...1, using: &rng)
            case 2:  // short, down to a millimetre
                let d = Double.random(in: -3...(-0.0), using: &rng)
                lat2 = max(-90, min(90, lat1 + pow(10, d) * Double.random(in: -1...1, using: &rng)))
                lon2 = lon1 + pow(10, d) * Double.random(in: -1...1, using: &rng)
            case 3:  // on the equator, often in the band beyond (1 - f) 180
                lat1 = 0
                lat2 = i % 16 == 3 ? 0 : Double.random(in: -1e-3...1e-3, using: &rng)
                lon2 = lon1 + 179 + Double.random(in: 0...1, using: &rng)
            case 4:  // meridional, same or facing longitudes
                lon2 = i % 16 == 4 ? lon1 : lon1 + 180
            case 5:  // near or at a pole
                lat1 = 90 - Double.random(in: 0...1, using: &rng) * Double(i % 3)
                lat2 = i % 2 == 0 ? -lat1 : lat2
            case 6:  // exact antipodes
                lat2 = -lat1
                lon2 = lon1 + 180
            default:
                break
            }
            let a = try Coordinate(latitude: lat1, longitude: lon1)
            let b = try Coordinate(latitude: lat2, longitude: lon2)
            let label = "\(a) -> \(b)"
            let ab = geodesicInverse(from: a, to: b)
            let ba = geodesicInverse(from: b, to: a)
            XCTAssertTrue(ab.distance.isFinite && ab.initialAzimuth.isFinite && ab.finalAzimuth.isFinite, label)
            XCTAssertGreaterThanOrEqual(ab.distance, 0, label)
            XCTAssertLessThanOrEqual(ab.distance, Self.halfMeridian * (1 + 1e-15), label)
            XCTAssertLessThanOrEqual(abs(ab.distance - ba.distance), 1e-9 * ab.distance, label)
            let end = try geodesicDirect(from: a, azimuth: ab.initialAzimuth, distance: ab.distance)
            let miss = gap(end.destination, b)
            worstReturn = max(worstReturn, miss)
            XCTAssertLessThanOrEqual(miss, Self.nm15, label)
            if miss > Self.nm15 { break }
        }
        print("round trip over 20,000 pairs: worst miss \(worstReturn) m")
    }

    // MARK: the Earth model everywhere

    func testWGS84ModelInEveryDistance() throws {
        let mountVernon = try Coordinate(parsing: "38.321991,-88.867400")
        let newYork = try Coordinate(parsing: "40.712800,-74.006000")
        let meters = geodesicInverse(from: mountVernon, to: newYork).distance
        for unit in DistanceUnit.allCases {
            XCTAssertEqual(try distance(from: mountVernon, to: newYork, model: .wgs84, unit: unit), meters / unit.meters)
        }
        // The sphere stays the default, and differs.
        XCTAssertNotEqual(try distance(from: mountVernon, to: newYork), meters)
        let points = [mountVernon, newYork, try Coordinate(latitude: -33.8568, longitude: 151.2153), try Coordinate(latitude: 90, longitude: 0)]
        let legs = try routeLength(points, closed: true, model: .wgs84, unit: .kilometers)
        XCTAssertEqual(legs.legs.count, 4)
        for (i, leg) in legs.legs.enumerated() {
            XCTAssertEqual(leg, geodesicInverse(from: points[i], to: points[(i + 1) % 4]).distance / 1000)
        }
        XCTAssertEqual(legs.total, legs.legs.reduce(0, +))
        let pairs = try distances(points, points.reversed(), model: .wgs84, unit: .miles)
        let fromFirst = try distances(from: points[0], to: points, model: .wgs84, unit: .miles)
        for i in 0..<4 {
            XCTAssertEqual(pairs[i], try distance(from: points[i], to: points[3 - i], model: .wgs84, unit: .miles))
            XCTAssertEqual(fromFirst[i], try distance(from: points[0], to: points[i], model: .wgs84, unit: .miles))
        }
        let m = try mileage(home: "38.321991,-88.867400", stops: ["40.712800,-74.006000"], model: .wgs84, unit: .miles)
        XCTAssertEqual(m.total, 2 * meters / 1609.344)
        XCTAssertEqual(m.legs.map(\.distance), [meters / 1609.344, meters / 1609.344])
    }

    func testWGS84BatchEqualsScalar() throws {
        var rng = SplitMix64(state: 42)
        let n = 500
        var a: [Double] = [], b: [Double] = [], coordsA: [Coordinate] = [], coordsB: [Coordinate] = []
        for i in 0..<n {
            // Raw longitudes outside [-180, 180) too: the batch reduces them as Coordinate does.
            let p = (Double.random(in: -90...90, using: &rng), Double.random(in: -540...540, using: &rng))
            let q = i % 5 == 0
                ? (-p.0, p.1 + 180 - Double.random(in: 0...0.5, using: &rng))
                : (Double.random(in: -90...90, using: &rng), Double.random(in: -180..<180, using: &rng))
            a += [p.0, p.1]
            b += [q.0, q.1]
            coordsA.append(try Coordinate(latitude: p.0, longitude: p.1))
            coordsB.append(try Coordinate(latitude: q.0, longitude: q.1))
        }
        var out = [Double](repeating: -1, count: n), many = [Double](repeating: -1, count: n)
        try a.withUnsafeBufferPointer { (pa) throws(GeoLocError) in
            try b.withUnsafeBufferPointer { (pb) throws(GeoLocError) in
                try out.withUnsafeMutableBufferPointer { (po) throws(GeoLocError) in
                    try BatchDistance.pairs(pa, pb, into: po, model: .wgs84, unit: .nauticalMiles)
                }
                try many.withUnsafeMutableBufferPointer { (po) throws(GeoLocError) in
                    try BatchDistance.oneToMany(coordsA[0], pb, into: po, model: .wgs84, unit: .nauticalMiles)
                }
            }
        }
        for i in 0..<n {
            XCTAssertEqual(out[i], try distance(from: coordsA[i], to: coordsB[i], model: .wgs84, unit: .nauticalMiles))
            XCTAssertEqual(many[i], try distance(from: coordsA[0], to: coordsB[i], model: .wgs84, unit: .nauticalMiles))
        }
        // Bad points are still reported before anything is written.
        let bad: [Double] = [0, 0, 91, 0]
        var two = [Double](repeating: -1, count: 2)
        assertThrows(.outOfRange) { () throws(GeoLocError) in
            try bad.withUnsafeBufferPointer { (pa) throws(GeoLocError) in
                try two.withUnsafeMutableBufferPointer { (po) throws(GeoLocError) in
                    try BatchDistance.pairs(pa, pa, into: po, model: .wgs84)
                }
            }
        }
        XCTAssertEqual(two, [-1, -1])
    }
}

/// The batch geodesics (`BatchGeodesic`): every golden row at once, bit for bit the single calls
/// and within GeographicLib's 15 nm; the input checks name the first bad row and write nothing.
final class GeodesicBatchTests: XCTestCase {
    func testInverseBatchEqualsSingleCallsAndGeographicLib() throws {
        let rows = try Golden.rows("geodesic_inverse.tsv", columns: GeodesicTests.inverseColumns)
        let a = rows.flatMap { [$0.double("lat1"), $0.double("lon1")] }
        let b = rows.flatMap { [$0.double("lat2"), $0.double("lon2")] }
        let n = rows.count
        var s = [Double](repeating: -1, count: n), z1 = s, z2 = s
        try a.withUnsafeBufferPointer { pa in
            try b.withUnsafeBufferPointer { pb in
                try BatchGeodesic.inverse(pa, pb, count: n, distances: &s, initialAzimuths: &z1, finalAzimuths: &z2)
            }
        }
        for (i, row) in rows.enumerated() {
            let one = geodesicInverse(
                from: try Coordinate(latitude: a[2 * i], longitude: a[2 * i + 1]),
                to: try Coordinate(latitude: b[2 * i], longitude: b[2 * i + 1]))
            XCTAssertEqual(s[i], one.distance, "row \(i)")
            XCTAssertEqual(z1[i], one.initialAzimuth, "row \(i)")
            XCTAssertEqual(z2[i], one.finalAzimuth, "row \(i)")
            XCTAssertLessThanOrEqual(abs(s[i] - row.double("s12_m")), GeodesicTests.nm15, "row \(i)")
        }
        // Outputs may be left out.
        var only = [Double](repeating: -1, count: n)
        try a.withUnsafeBufferPointer { pa in
            try b.withUnsafeBufferPointer { pb in
                try BatchGeodesic.inverse(pa, pb, count: n, distances: nil, initialAzimuths: nil, finalAzimuths: &only)
            }
        }
        XCTAssertEqual(only, z2)
    }

    func testDirectBatchEqualsSingleCallsAndGeographicLib() throws {
        let rows = try Golden.rows("geodesic_direct.tsv", columns: GeodesicTests.directColumns)
        let starts = rows.flatMap { [$0.double("lat1"), $0.double("lon1")] }
        let azimuths = rows.map { $0.double("azi1") }, lengths = rows.map { $0.double("s12_m") }
        let n = rows.count
        var ends = [Double](repeating: -1, count: 2 * n), z2 = [Double](repeating: -1, count: n)
        try starts.withUnsafeBufferPointer { ps in
            try azimuths.withUnsafeBufferPointer { pz in
                try lengths.withUnsafeBufferPointer { pd in
                    try BatchGeodesic.direct(ps, azimuths: pz, distances: pd, count: n, ends: &ends, finalAzimuths: &z2)
                }
            }
        }
        for (i, row) in rows.enumerated() {
            let one = try geodesicDirect(
                from: try Coordinate(latitude: starts[2 * i], longitude: starts[2 * i + 1]),
                azimuth: azimuths[i], distance: lengths[i])
            XCTAssertEqual(ends[2 * i], one.destination.latitude, "row \(i)")
            XCTAssertEqual(ends[2 * i + 1], one.destination.longitude, "row \(i)")
            XCTAssertEqual(z2[i], one.finalAzimuth, "row \(i)")
            let want = try Coordinate(latitude: row.double("lat2"), longitude: row.double("lon2"))
            XCTAssertLessThanOrEqual(geodesicInverse(from: one.destination, to: want).distance, GeodesicTests.nm15, "row \(i)")
        }
    }

    func testErrorsNameTheFirstBadRowAndWriteNothing() {
        let good = [10.0, 20.0, 30.0, 40.0, -50.0, 60.0]
        var bad = good
        bad[2] = 91  // row 1's latitude
        bad[5] = .nan  // row 2's longitude
        var out = [Double](repeating: -1, count: 3)
        func inverse(_ a: [Double], _ b: [Double]) throws(GeoLocError) {
            try a.withUnsafeBufferPointer { (pa) throws(GeoLocError) in
                try b.withUnsafeBufferPointer { (pb) throws(GeoLocError) in
                    try BatchGeodesic.inverse(pa, pb, count: 3, distances: &out, initialAzimuths: nil, finalAzimuths: nil)
                }
            }
        }
        func direct(_ s: [Double], _ z: [Double], _ d: [Double]) throws(GeoLocError) {
            try s.withUnsafeBufferPointer { (ps) throws(GeoLocError) in
                try z.withUnsafeBufferPointer { (pz) throws(GeoLocError) in
                    try d.withUnsafeBufferPointer { (pd) throws(GeoLocError) in
                        try BatchGeodesic.direct(ps, azimuths: pz, distances: pd, count: 3, ends: nil, finalAzimuths: &out)
                    }
                }
            }
        }
        func message(_ body: () throws(GeoLocError) -> Void) -> String {
            do { try body() } catch { return error.message }
            return "no error"
        }
        XCTAssertEqual(message { () throws(GeoLocError) in try inverse(bad, good) }, "a[1]: latitude 91 is outside [-90, 90]")
        XCTAssertEqual(message { () throws(GeoLocError) in try inverse(good, bad) }, "b[1]: latitude 91 is outside [-90, 90]")
        XCTAssertEqual(message { () throws(GeoLocError) in try direct(bad, [0, 0, 0], [1, 1, 1]) }, "start[1]: latitude 91 is outside [-90, 90]")
        bad[2] = 0
        XCTAssertEqual(message { () throws(GeoLocError) in try inverse(good, bad) }, "b[2]: longitude nan is not finite")
        XCTAssertEqual(message { () throws(GeoLocError) in try direct(good, [0, .infinity, 0], [.nan, 1, 1]) }, "azimuth[1]: inf is not finite")
        XCTAssertEqual(message { () throws(GeoLocError) in try direct(good, [0, 0, 0], [1, 1, -.infinity]) }, "distance[2]: -inf is not finite")
        XCTAssertEqual(out, [-1, -1, -1])
        XCTAssertEqual(message { () throws(GeoLocError) in try direct(good, [0, 0, 0], [1, 1, 1]) }, "no error")
        XCTAssertNotEqual(out, [-1, -1, -1])
    }

    func testNamedCoordinateMessages() {
        XCTAssertThrowsError(try Coordinate(latitude: 91, longitude: 0, named: "a")) { error in
            XCTAssertEqual((error as? GeoLocError)?.message, "a: latitude 91 is outside [-90, 90]")
        }
        XCTAssertThrowsError(try Coordinate(latitude: 0, longitude: .nan, named: "start")) { error in
            XCTAssertEqual((error as? GeoLocError)?.message, "start: longitude nan is not finite")
        }
        XCTAssertEqual(try Coordinate(latitude: 1, longitude: 361, named: "b"), try Coordinate(latitude: 1, longitude: 1))
    }
}
