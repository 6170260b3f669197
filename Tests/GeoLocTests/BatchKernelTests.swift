@testable import GeoLoc
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
