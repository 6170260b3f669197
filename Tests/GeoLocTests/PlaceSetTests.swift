@_spi(CABI) @testable import GeoLoc
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Place sets: radius search, exact k nearest, regions, errors, threads.
final class PlaceSetTests: XCTestCase {

    func c(_ lat: Double, _ lon: Double) -> Coordinate { try! Coordinate(latitude: lat, longitude: lon) }

    func set(_ points: [(Double, Double)]) throws -> PlaceSet {
        try PlaceSet(points.enumerated().map { Place(coordinate: c($1.0, $1.1), id: "p\($0)") })
    }

    // MARK: brute force

    func bruteWithin(
        _ s: PlaceSet, _ r: Double, _ unit: DistanceUnit, _ center: Coordinate, limit: Int? = nil, model: EarthModel = .sphere
    ) throws -> [PlaceMatch] {
        var all: [PlaceMatch] = []
        for i in 0..<s.count {
            let d = try distance(from: center, to: s.coordinate(at: i), model: model, unit: unit)
            if d <= r { all.append(PlaceMatch(index: i, distance: d)) }
        }
        all.sort { $0.distance < $1.distance || ($0.distance == $1.distance && $0.index < $1.index) }
        return Array(all.prefix(limit ?? all.count))
    }

    func bruteNearest(
        _ s: PlaceSet, _ center: Coordinate, _ k: Int, _ unit: DistanceUnit, maxDistance: Double? = nil, model: EarthModel = .sphere
    ) throws -> [PlaceMatch] {
        try bruteWithin(s, maxDistance ?? .infinity, unit, center, limit: k, model: model)
    }

    /// A point uniform on the sphere.
    func spherePoint(_ g: inout SplitMix64) -> (Double, Double) {
        (asin(g.uniform(-1, 1)) * 180 / .pi, g.uniform(-180, 180))
    }

    /// Random points with many near the antimeridian and the poles, some exactly on them, and
    /// duplicates.
    func randomPoints(_ n: Int, _ g: inout SplitMix64) -> [(Double, Double)] {
        var pts: [(Double, Double)] = []
        for _ in 0..<n {
            switch g.int(10) {
            case 0, 1: pts.append((g.uniform(-80, 80), g.int(2) == 0 ? g.uniform(179, 180) : g.uniform(-180, -179)))
            case 2: pts.append((g.uniform(88, 90), g.uniform(-180, 180)))
            case 3: pts.append((g.uniform(-90, -88), g.uniform(-180, 180)))
            case 4:
                let special: [(Double, Double)] = [(90, 0), (-90, 17), (0, -180), (45, -180), (-30, 179.999999999), (89.9999, 180)]
                pts.append(special[g.int(special.count)])
            case 5 where !pts.isEmpty: pts.append(pts[g.int(pts.count)])
            case 6: pts.append((g.uniform(40, 41), g.uniform(-74, -73)))  // a dense city
            default: pts.append(spherePoint(&g))
            }
        }
        return pts
    }

    func randomCenter(_ g: inout SplitMix64, _ pts: [(Double, Double)]) -> Coordinate {
        switch g.int(8) {
        case 0:
            let p = pts[g.int(pts.count)]
            return c(p.0, p.1)
        case 1:
            let p = pts[g.int(pts.count)]
            return c(Swift.max(-90, Swift.min(90, p.0 + g.uniform(-1e-4, 1e-4))), p.1 + g.uniform(-1e-4, 1e-4))
        case 2: return c(g.uniform(-89, 89), g.int(2) == 0 ? 179.9 + g.uniform(0, 0.1) : -180 + g.uniform(0, 0.1))
        case 3: return c(g.int(2) == 0 ? 90 : -90, g.uniform(-180, 180))
        case 4: return c(g.int(2) == 0 ? g.uniform(89, 90) : g.uniform(-90, -89), g.uniform(-180, 180))
        default:
            let p = spherePoint(&g)
            return c(p.0, p.1)
        }
    }

    // MARK: radius search, hand-made

    func testWithinSmallSet() throws {
        // Places 0.01° apart along the equator: 1,111.95 m each.
        let s = try set([(0, 0), (0, 0.01), (0, 0.02), (0, 0.03), (10, 10), (0, -0.01)])
        let m = try s.within(2000, of: c(0, 0))
        XCTAssertEqual(m.map(\.index), [0, 1, 5])  // 1 and 5 tie: by index
        XCTAssertEqual(m[0].distance, 0)
        XCTAssertEqual(m[1].distance, m[2].distance)
        XCTAssertEqual(m[1].distance, try distance(from: c(0, 0), to: c(0, 0.01)))
        XCTAssertEqual(try s.within(2000, of: c(0, 0), limit: 2).map(\.index), [0, 1])
        XCTAssertEqual(try s.within(2000, of: c(0, 0), limit: 0), [])
        XCTAssertEqual(try s.within(2000, of: c(0, 0), limit: 100).count, 3)
        // Units: the radius and the distances are in the unit asked for.
        let miles = try s.within(2, .miles, of: c(0, 0.015))
        XCTAssertEqual(miles.map(\.index), [1, 2, 0, 3, 5])
        XCTAssertEqual(miles[0].distance, try distance(from: c(0, 0.015), to: c(0, 0.01), unit: .miles))
        XCTAssertEqual(try s.within(1.2, .kilometers, of: c(0, 0)).map(\.index), [0, 1, 5])
        XCTAssertEqual(try s.within(3648, .feet, of: c(0, 0)).map(\.index), [0])  // 1111.95 m = 3648.1 ft
        XCTAssertEqual(try s.within(3649, .feet, of: c(0, 0)).map(\.index), [0, 1, 5])
        XCTAssertEqual(try s.within(3649, .feet, of: c(0, 0.005)).map(\.index), [0, 1])
        // The boundary is inclusive, bit for bit.
        let edge = try distance(from: c(0, 0), to: c(10, 10), unit: .nauticalMiles)
        XCTAssertEqual(try s.within(edge, .nauticalMiles, of: c(0, 0)).last?.index, 4)
        XCTAssertFalse(try s.within(edge.nextDown, .nauticalMiles, of: c(0, 0)).contains { $0.index == 4 })
    }

    func testWithinZeroRadius() throws {
        let s = try set([(12.5, 45.25), (12.5, 45.25000000001), (12.5, 45.25), (-90, 0), (90, 180)])
        XCTAssertEqual(try s.within(0, of: c(12.5, 45.25)), [PlaceMatch(index: 0, distance: 0), PlaceMatch(index: 2, distance: 0)])
        XCTAssertEqual(try s.within(0, of: c(-90, 0)).map(\.index), [3])
        XCTAssertEqual(try s.within(0, of: c(90, -180)).map(\.index), [4])  // 180 is stored as -180
        XCTAssertEqual(try s.within(0, of: c(0, 0)), [])
    }

    func testWithinAntimeridian() throws {
        let s = try set([(0, 179.9), (0, -179.9), (0, 179), (0, -179), (0, 0), (60, 179.5), (60, -179.5), (0, -180)])
        // 25 km around (0, 180): 179.9, -179.9 and -180 (11.1 km each way), not 179 / -179 (111 km).
        XCTAssertEqual(try s.within(25, .kilometers, of: c(0, 180)).map(\.index).first, 7)
        XCTAssertEqual(Set(try s.within(25, .kilometers, of: c(0, 180)).map(\.index)), [7, 0, 1])
        XCTAssertEqual(try s.within(25, .kilometers, of: c(0, 180)), try bruteWithin(s, 25, .kilometers, c(0, 180)))
        XCTAssertEqual(try s.within(25, .kilometers, of: c(0, 179.95)).map(\.index), [0, 7, 1])
        XCTAssertEqual(try s.within(25, .kilometers, of: c(0, -179.95)).map(\.index), [1, 7, 0])
        // At 60° N a degree of longitude is half as long: 60 km from 179.9 reaches both.
        XCTAssertEqual(try s.within(60, .kilometers, of: c(60, 179.9)).map(\.index), [5, 6])
        XCTAssertEqual(try s.within(120, .kilometers, of: c(0, -179.5)).map(\.index), [1, 3, 7, 0])  // 3 and 7 tie
    }

    func testWithinPoles() throws {
        // Places around the north pole at every longitude; the cap reaches the pole.
        var pts: [(Double, Double)] = []
        for lon in stride(from: -180.0, to: 180, by: 30) { pts.append((89, lon)) }
        pts.append((90, 0))
        pts.append((88, 0))
        pts.append((-89.5, 45))
        let s = try set(pts)
        // 1° of latitude is 111.2 km: 120 km around (89.5, 0) holds the pole and the 89° ring's
        // nearby points; 300 km around the pole holds every 89° point and the pole.
        let all = try s.within(300, .kilometers, of: c(90, 123))
        XCTAssertEqual(Set(all.map(\.index)), Set(0...13))
        XCTAssertEqual(all.first?.index, 12)
        XCTAssertEqual(try s.within(300, .kilometers, of: c(90, 123)), try bruteWithin(s, 300, .kilometers, c(90, 123)))
        for lon in [-180.0, -90, 0, 45, 179.99] {
            let center = c(89.5, lon)
            XCTAssertEqual(try s.within(120, .kilometers, of: center), try bruteWithin(s, 120, .kilometers, center))
            XCTAssertEqual(try s.within(250, .kilometers, of: center), try bruteWithin(s, 250, .kilometers, center))
        }
        XCTAssertEqual(try s.within(100, .kilometers, of: c(-90, 0)).map(\.index), [14])
        // Close to the pole, not at it: the longitude box must not be the usual one.
        XCTAssertEqual(try s.within(112, .kilometers, of: c(89.999, -60)).map(\.index).first, 12)
    }

    func testWithinWholeEarth() throws {
        let s = try set([(0, 0), (0, 180), (45, 90), (-90, 0), (90, 0)])
        let half = Double.pi * Earth.meanRadius
        XCTAssertEqual(try s.within(half, of: c(0, 0)).map(\.index), [0, 2, 3, 4, 1])
        XCTAssertEqual(try s.within(25_000, .miles, of: c(0, 0)).count, 5)
        XCTAssertEqual(try s.within(1e300, of: c(0, 0)).count, 5)
        XCTAssertEqual(try s.within(half * 0.999, of: c(0, 0)).map(\.index), [0, 2, 3, 4])
        XCTAssertEqual(try s.within(20_000, .kilometers, of: c(10, 20)), try bruteWithin(s, 20_000, .kilometers, c(10, 20)))
    }

    func testRadiusPresetsAndText() throws {
        XCTAssertEqual(PlaceSet.radiusPresetsMiles, [1, 2, 5, 10, 20, 50])
        let home = c(38.321991, -88.867400)
        // 0.57, 4.50, 6.51, 24.05, 53.79 and 808 miles away.
        let s = try set([(38.33, -88.87), (38.36, -88.80), (38.40, -88.80), (38.6, -88.6), (38.9, -88.2), (40.7128, -74.006)])
        var seen: [Int] = []
        for r in PlaceSet.radiusPresetsMiles {
            let m = try s.within(r, .miles, of: home)
            XCTAssertEqual(m, try bruteWithin(s, r, .miles, home))
            XCTAssertTrue(m.count >= seen.count)
            seen = m.map(\.index)
        }
        XCTAssertEqual(seen, [0, 1, 2, 3])
        XCTAssertEqual(try s.within(1, .miles, of: home).map(\.index), [0])
        XCTAssertEqual(try s.within(5, .miles, of: home).map(\.index), [0, 1])
        XCTAssertEqual(try s.within(10, .miles, of: home).map(\.index), [0, 1, 2])
        let m = try s.within(5, .miles, of: home)
        XCTAssertEqual(try distanceText(meters: m[1].distance * DistanceUnit.miles.meters), "4.5 miles")
        XCTAssertEqual(try distanceText(meters: try s.within(5, .miles, of: home)[0].distance * 1609.344), "0.6 miles")
    }

    func testEmptySet() throws {
        let s = try PlaceSet([])
        XCTAssertEqual(s.count, 0)
        XCTAssertEqual(try s.within(1e9, of: c(0, 0)), [])
        XCTAssertEqual(try s.nearest(to: c(0, 0), count: 3), [])
        XCTAssertEqual(try s.inside(try Region(wkt: "POLYGON((0 0, 1 0, 1 1, 0 1, 0 0))")), [])
        let one = try set([(5, 5)])
        XCTAssertEqual(try one.nearest(to: c(-5, -175), count: 10).map(\.index), [0])
    }

    // MARK: nearest, hand-made

    func testNearestSmallSet() throws {
        let s = try set([(0, 0), (0, 1), (0, -1), (0, 2), (1, 0), (0, 179.5), (0, 0)])
        XCTAssertEqual(try s.nearest(to: c(0, 0.1)).map(\.index), [0])
        // Ties by index: 0 and 6 are the same point, 1/2/4 are equidistant from the origin.
        XCTAssertEqual(try s.nearest(to: c(0, 0), count: 2).map(\.index), [0, 6])
        XCTAssertEqual(try s.nearest(to: c(0, 0), count: 5).map(\.index), [0, 6, 1, 2, 4])
        XCTAssertEqual(try s.nearest(to: c(0, 0), count: 3).map(\.index), [0, 6, 1])
        XCTAssertEqual(try s.nearest(to: c(0, -179.9)).map(\.index), [5])
        XCTAssertEqual(try s.nearest(to: c(0, 0), count: 100).count, 7)
        XCTAssertEqual(try s.nearest(to: c(0, 0), count: 0), [])
        // maxDistance caps, inclusively, in the unit asked for.
        let one = try distance(from: c(0, 0), to: c(0, 1), unit: .kilometers)
        XCTAssertEqual(try s.nearest(to: c(0, 0), count: 10, unit: .kilometers, maxDistance: one).map(\.index), [0, 6, 1, 2, 4])
        XCTAssertEqual(try s.nearest(to: c(0, 0), count: 10, unit: .kilometers, maxDistance: one.nextDown).map(\.index), [0, 6])
        XCTAssertEqual(try s.nearest(to: c(0, 0.5), count: 1, unit: .kilometers, maxDistance: 50), [])
        XCTAssertEqual(try s.nearest(to: c(0, 0.5), count: 1, maxDistance: 0), [])
        let m = try s.nearest(to: c(0, 0.9), unit: .miles)
        XCTAssertEqual(m, [PlaceMatch(index: 1, distance: try distance(from: c(0, 0.9), to: c(0, 1), unit: .miles))])
    }

    func testNearestTiesAcrossManyDuplicates() throws {
        // 40 copies of one point, 40 of another: k across the tie boundary.
        var pts: [(Double, Double)] = []
        for j in 0..<80 { pts.append(j % 2 == 0 ? (10, 10) : (10, 10.5)) }
        let s = try set(pts)
        for k in [1, 5, 39, 40, 41, 79, 80] {
            XCTAssertEqual(try s.nearest(to: c(10, 10.1), count: k), try bruteNearest(s, c(10, 10.1), k, .meters), "k=\(k)")
            XCTAssertEqual(try s.nearest(to: c(10, 10.25), count: k), try bruteNearest(s, c(10, 10.25), k, .meters), "k=\(k)")
        }
    }

    // MARK: property tests against brute force

    func testWithinMatchesBruteForce() throws {
        var g = SplitMix64(seed: 0x5EED_0001)
        for round in 0..<3 {
            let pts = randomPoints(1500 + 1000 * round, &g)
            let s = try set(pts)
            for _ in 0..<1200 {
                let center = randomCenter(&g, pts)
                let unit = DistanceUnit.allCases[g.int(DistanceUnit.allCases.count)]
                var km: Double
                switch g.int(6) {
                case 0: km = 0
                case 1: km = try distance(from: center, to: s.coordinate(at: g.int(s.count)), unit: .kilometers)
                case 2: km = g.uniform(19_000, 20_100)
                default: km = exp(g.uniform(log(0.001), log(20_000)))
                }
                var r = km * 1000 / unit.meters
                if g.int(6) == 1 {
                    // Exactly the distance to some place, in this unit: the boundary case.
                    r = try distance(from: center, to: s.coordinate(at: g.int(s.count)), unit: unit)
                }
                let limit: Int? = g.int(4) == 0 ? g.int(20) : nil
                let got = try s.within(r, unit, of: center, limit: limit)
                let want = try bruteWithin(s, r, unit, center, limit: limit)
                if got != want {
                    XCTFail("within \(r) \(unit) of \(center) limit \(String(describing: limit)): \(got.count) vs \(want.count)")
                    return
                }
            }
        }
    }

    func testNearestMatchesBruteForce() throws {
        var g = SplitMix64(seed: 0x5EED_0002)
        for round in 0..<3 {
            let pts = randomPoints(1500 + 1000 * round, &g)
            let s = try set(pts)
            for _ in 0..<1500 {
                let center = randomCenter(&g, pts)
                let k = 1 + g.int(50)
                let unit = DistanceUnit.allCases[g.int(DistanceUnit.allCases.count)]
                var cap: Double? = nil
                if g.int(4) == 0 { cap = exp(g.uniform(log(10), log(2e7))) / unit.meters }
                if g.int(8) == 0 { cap = try distance(from: center, to: s.coordinate(at: g.int(s.count)), unit: unit) }
                let got = try s.nearest(to: center, count: k, unit: unit, maxDistance: cap)
                let want = try bruteNearest(s, center, k, unit, maxDistance: cap)
                if got != want {
                    XCTFail("nearest \(k) to \(center) cap \(String(describing: cap)) \(unit): \(got) vs \(want)")
                    return
                }
            }
        }
    }

    func testWGS84MatchesBruteForce() throws {
        var g = SplitMix64(seed: 0x5EED_0006)
        let pts = randomPoints(700, &g)
        let s = try set(pts)
        for n in 0..<300 {
            let center = randomCenter(&g, pts)
            let unit = DistanceUnit.allCases[g.int(DistanceUnit.allCases.count)]
            var r = exp(g.uniform(log(1), log(2.1e7))) / unit.meters
            if n % 5 == 0 {
                r = try distance(from: center, to: s.coordinate(at: g.int(s.count)), model: .wgs84, unit: unit)
            }
            let got = try s.within(r, unit, of: center, model: .wgs84)
            let want = try bruteWithin(s, r, unit, center, model: .wgs84)
            XCTAssertEqual(got, want, "within \(r) \(unit) of \(center)")
            let k = 1 + g.int(30)
            let cap: Double? = n % 3 == 0 ? r : nil
            XCTAssertEqual(
                try s.nearest(to: center, count: k, model: .wgs84, unit: unit, maxDistance: cap),
                try bruteNearest(s, center, k, unit, maxDistance: cap, model: .wgs84), "nearest \(k) to \(center)")
        }
        // The ellipsoid's circle reaches further than the sphere's box at the same angle: at the
        // equator, east-west, 1° is 111.32 km on WGS84 and 111.19 km on the mean sphere.
        let e = try set([(0, 1), (0, -1), (1, 0)])
        XCTAssertEqual(try e.within(111.3, .kilometers, of: c(0, 0), model: .wgs84).map(\.index), [2])
        XCTAssertEqual(try e.within(111.33, .kilometers, of: c(0, 0), model: .wgs84).first?.index, 2)
        XCTAssertEqual(try e.within(111.33, .kilometers, of: c(0, 0), model: .wgs84).count, 3)
        XCTAssertEqual(try e.within(111.2, .kilometers, of: c(0, 0)).map(\.index), [0, 1, 2])
        let region = try Region(wkt: "POLYGON((-2 -2, 2 -2, 2 2, -2 2, -2 -2))")
        let inside = try e.inside(region, sortedFrom: c(0, 0), model: .wgs84, unit: .kilometers)
        XCTAssertEqual(inside, try bruteWithin(e, 1000, .kilometers, c(0, 0), model: .wgs84))
    }

    func testCapBoxesContainTheCap() {
        // Points on the circle's edge (and just inside) must be in a box.
        var g = SplitMix64(seed: 0x5EED_0003)
        for _ in 0..<3000 {
            let p = spherePoint(&g)
            let center = c(g.int(5) == 0 ? (g.int(2) == 0 ? 89.99 : -89.99) : p.0, p.1)
            let kind = g.int(3)
            let angle = kind == 0 ? g.uniform(0, 1e-6) : kind == 1 ? g.uniform(0, 0.2) : g.uniform(0, Double.pi)
            guard let boxes = capBoxes(center: center, angle: angle) else { continue }
            for _ in 0..<20 {
                // Destination at `angle` along a random bearing.
                let b = g.uniform(0, 2 * Double.pi)
                let phi1 = center.latitude * .pi / 180
                let lam1 = center.longitude * .pi / 180
                let phi2 = asin(sin(phi1) * cos(angle) + cos(phi1) * sin(angle) * cos(b))
                let lam2 = lam1 + atan2(sin(b) * sin(angle) * cos(phi1), cos(angle) - sin(phi1) * sin(phi2))
                let q = c(phi2 * 180 / .pi, lam2 * 180 / .pi)
                let inBox = boxes.all.contains { $0.contains(latitude: q.latitude, longitude: q.longitude) }
                XCTAssertTrue(inBox, "\(q) at \(angle) rad from \(center) outside \(boxes)")
            }
        }
    }

    // MARK: places and the builder

    func testPlacesRoundTrip() throws {
        let places = [
            Place(coordinate: c(1, 2), id: "a", name: "Alpha", attributes: ["cc": "DE", "kind": "mosque"]),
            Place(coordinate: c(3, 4), id: "b", name: "", attributes: ["cc": ""]),
            Place(coordinate: c(5, 190), id: "ç", name: "Ünïcödé 🕌", attributes: ["z": "last", "Z": "upper"]),
        ]
        let s = try PlaceSet(places)
        XCTAssertEqual(s.attributeNames, ["Z", "cc", "kind", "z"])
        XCTAssertEqual(s.count, 3)
        XCTAssertEqual(s[0], places[0])
        XCTAssertEqual(s[1], places[1])
        XCTAssertEqual(s[2].coordinate.longitude, -170)
        XCTAssertEqual(s[2].name, "Ünïcödé 🕌")
        XCTAssertEqual(s.attribute("cc", at: 1), "")
        XCTAssertNil(s.attribute("kind", at: 1))
        XCTAssertNil(s.attribute("nope", at: 1))
        XCTAssertEqual(s.index(ofAttribute: "kind"), 2)
        XCTAssertEqual(s.attribute(column: 3, at: 2), "last")
        XCTAssertEqual(s.id(at: 2), "ç")
        XCTAssertEqual(s.coordinate(at: 1), c(3, 4))
    }

    func testBuilder() throws {
        var b = PlaceSetBuilder(attributeNames: ["cc", "admin1"])
        XCTAssertEqual(b.attributeNames, ["cc", "admin1"])
        b.reserveCapacity(10)
        try b.append(c(1, 1), id: "1", name: "One", attributes: ["DE", nil])
        assertThrows(.invalidArgument) { () throws(GeoLocError) in try b.append(c(1, 1), id: "x", name: "x", attributes: ["DE"]) }
        let id = Array("22".utf8), name = Array("Two".utf8), cc = Array("FR".utf8)
        try id.withUnsafeBytes { idb in
            try name.withUnsafeBytes { nb in
                try cc.withUnsafeBytes { ccb in
                    let attrs: [UnsafeRawBufferPointer?] = [ccb, UnsafeRawBufferPointer(start: nil, count: 0)]
                    try attrs.withUnsafeBufferPointer { try b.append(c(2, 2), id: idb, name: nb, attributes: $0) }
                    let one: [UnsafeRawBufferPointer?] = [nil]
                    assertThrows(.invalidArgument) { () throws(GeoLocError) in
                        try one.withUnsafeBufferPointer { (p) throws(GeoLocError) in try b.append(c(2, 2), id: idb, name: nb, attributes: p) }
                    }
                }
            }
        }
        XCTAssertEqual(b.count, 2)
        let s = try b.build()
        XCTAssertEqual(s.count, 2)
        XCTAssertEqual(s[1], Place(coordinate: c(2, 2), id: "22", name: "Two", attributes: ["cc": "FR", "admin1": ""]))
        XCTAssertEqual(s[0].attributes, ["cc": "DE"])
        XCTAssertEqual(try s.nearest(to: c(2, 2.1)).map(\.index), [1])

        // A builder is a value: a copy appends on its own.
        var first = PlaceSetBuilder(attributeNames: ["k"])
        try first.append(c(1, 1), id: "a", name: "A", attributes: ["x"])
        var second = first
        try second.append(c(2, 2), id: "b", name: "B", attributes: [nil])
        try first.append(c(3, 3), id: "c", name: "C", attributes: ["z"])
        let s1 = try first.build(), s2 = try second.build()
        XCTAssertEqual(s1.count, 2)
        XCTAssertEqual(s2.count, 2)
        XCTAssertEqual(s1[1], Place(coordinate: c(3, 3), id: "c", name: "C", attributes: ["k": "z"]))
        XCTAssertEqual(s2[1], Place(coordinate: c(2, 2), id: "b", name: "B"))
        XCTAssertEqual(s2[0], s1[0])
        XCTAssertEqual(s1.withUTF8(field: 1, at: 1) { Array($0) }, Array("C".utf8))
        XCTAssertEqual(s2.withUTF8(field: 2, at: 1) { $0.count }, 0)
        // Many places: the buffers grow.
        var big = PlaceSetBuilder(attributeNames: ["n"])
        for i in 0..<5000 { try big.append(c(Double(i % 90), Double(i % 360)), id: "\(i)", name: String(repeating: "x", count: i % 40), attributes: [i % 3 == 0 ? nil : "\(i * 7)"]) }
        let bs = try big.build()
        XCTAssertEqual(bs.count, 5000)
        XCTAssertEqual(bs.id(at: 4321), "4321")
        XCTAssertEqual(bs.name(at: 4321), String(repeating: "x", count: 4321 % 40))
        XCTAssertEqual(bs.attribute("n", at: 4322), "\(4322 * 7)")
        XCTAssertNil(bs.attribute("n", at: 4323))
        XCTAssertEqual(bs.coordinate(at: 4321), c(Double(4321 % 90), Double(4321 % 360)))

        var dup = PlaceSetBuilder(attributeNames: ["a", "b", "a"])
        try dup.append(c(0, 0), id: "", name: "", attributes: [nil, nil, nil])
        assertThrows(.invalidArgument) { () throws(GeoLocError) in try dup.build() }
        XCTAssertEqual(try PlaceSetBuilder().build().count, 0)
    }

    func testArgumentErrors() throws {
        let s = try set([(0, 0), (1, 1)])
        let o = c(0, 0)
        assertThrows(.notFinite) { () throws(GeoLocError) in try s.within(.nan, of: o) }
        assertThrows(.notFinite) { () throws(GeoLocError) in try s.within(.infinity, of: o) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try s.within(-1, of: o) }
        assertThrows(.invalidArgument) { () throws(GeoLocError) in try s.within(1, of: o, limit: -1) }
        assertThrows(.countTooLarge) { () throws(GeoLocError) in try s.within(1, of: o, limit: maxCount + 1) }
        assertThrows(.invalidArgument) { () throws(GeoLocError) in try s.nearest(to: o, count: -1) }
        assertThrows(.countTooLarge) { () throws(GeoLocError) in try s.nearest(to: o, count: Int.max) }
        assertThrows(.notFinite) { () throws(GeoLocError) in try s.nearest(to: o, maxDistance: -.infinity) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try s.nearest(to: o, maxDistance: -0.5) }
        XCTAssertEqual(try s.nearest(to: o, count: maxCount).count, 2)
        XCTAssertEqual(try s.within(1, of: o, limit: maxCount).count, 1)
        let region = try Region(wkt: "POLYGON((-1 -1, 2 -1, 2 2, -1 2, -1 -1))")
        assertThrows(.invalidArgument) { () throws(GeoLocError) in try s.inside(region, limit: -3) }
    }

    // MARK: regions

    /// Even-odd ray casting with the boundary inside: the independent reference.
    func pointInRings(_ x: Double, _ y: Double, _ rings: [[(Double, Double)]]) -> Bool {
        var inside = false
        for ring in rings {
            for j in 0..<(ring.count - 1) {
                let (x1, y1) = ring[j], (x2, y2) = ring[j + 1]
                // On the segment?
                let cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
                if cross == 0 && x >= Swift.min(x1, x2) && x <= Swift.max(x1, x2) && y >= Swift.min(y1, y2) && y <= Swift.max(y1, y2) {
                    return true
                }
                if (y1 > y) != (y2 > y) && x < (x2 - x1) * (y - y1) / (y2 - y1) + x1 { inside.toggle() }
            }
        }
        return inside
    }

    func wktRings(_ rings: [[(Double, Double)]]) -> String {
        let texts: [String] = rings.map { (ring: [(Double, Double)]) -> String in
            let vertices: [String] = ring.map { (p: (Double, Double)) -> String in show(p.0) + " " + show(p.1) }
            return "(" + vertices.joined(separator: ", ") + ")"
        }
        return "(" + texts.joined(separator: ", ") + ")"
    }

    func jsonRings(_ rings: [[(Double, Double)]]) -> String {
        let texts: [String] = rings.map { (ring: [(Double, Double)]) -> String in
            let vertices: [String] = ring.map { (p: (Double, Double)) -> String in "[" + show(p.0) + ", " + show(p.1) + "]" }
            return "[" + vertices.joined(separator: ",") + "]"
        }
        return "[" + texts.joined(separator: ",") + "]"
    }

    func testRegionsMatchBruteForce() throws {
        let square: [[(Double, Double)]] = [[(-10, -10), (10, -10), (10, 10), (-10, 10), (-10, -10)]]
        let holed: [[(Double, Double)]] = [
            [(0, 40), (30, 40), (30, 60), (15, 70), (0, 60), (0, 40)],
            [(10, 45), (20, 45), (20, 55), (10, 55), (10, 45)],
        ]
        let star: [[(Double, Double)]] = [[(-170, -50), (-150, -45), (-130, -50), (-140, -35), (-130, -20), (-150, -30), (-170, -20), (-160, -35), (-170, -50)]]
        let east: [[(Double, Double)]] = [[(170, -5), (180, -5), (180, 5), (170, 5), (170, -5)]]
        let west: [[(Double, Double)]] = [[(-180, -5), (-170, -5), (-170, 5), (-180, 5), (-180, -5)]]
        let multi = [star, east, west]
        var regions: [(Region, [[[(Double, Double)]]])] = [
            (try Region(wkt: "POLYGON" + wktRings(square[0...0].map { $0 })), [square]),
            (try Region(wkt: "POLYGON" + wktRings(holed)), [holed]),
            (try Region(wkt: "MULTIPOLYGON(" + multi.map(wktRings).joined(separator: ", ") + ")"), multi),
            (try Region(geoJSON: #"{"type":"Polygon","coordinates":"# + jsonRings(holed) + "}"), [holed]),
            (try Region(geoJSON: #"{"type":"MultiPolygon","coordinates":["# + multi.map(jsonRings).joined(separator: ",") + "]}"), multi),
            (try Region(geoJSON: #"{"type":"Feature","properties":{"name":"x"},"geometry":{"type":"Polygon","coordinates":"# + jsonRings(square) + "}}"), [square]),
        ]
        let features = [holed, star].map { #"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":"# + jsonRings($0) + "}}" }
        regions.append((try Region(geoJSON: #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"), [holed, star]))

        var g = SplitMix64(seed: 0x5EED_0004)
        var pts: [(Double, Double)] = []
        for _ in 0..<4000 { pts.append((g.uniform(-60, 75), g.uniform(-180, 180))) }
        // Vertices, edge midpoints and hole corners: the boundary is inside.
        for polys in [[square], [holed], multi] {
            for poly in polys {
                for ring in poly {
                    for j in 0..<(ring.count - 1) {
                        pts.append((ring[j].1, ring[j].0))
                        let lat: Double = (ring[j].1 + ring[j + 1].1) / 2
                        let lon: Double = (ring[j].0 + ring[j + 1].0) / 2
                        pts.append((lat, lon))
                    }
                }
            }
        }
        let s = try set(pts)
        for (n, (region, polys)) in regions.enumerated() {
            let want = (0..<s.count).filter { i in
                let p = s.coordinate(at: i)
                return polys.contains { pointInRings(p.longitude, p.latitude, $0) }
            }
            XCTAssertFalse(want.isEmpty)
            let got = try s.inside(region)
            XCTAssertEqual(got.map(\.index), want, "region \(n)")
            XCTAssertTrue(got.allSatisfy { $0.distance == 0 })
            for i in want.prefix(50) { XCTAssertTrue(region.contains(s.coordinate(at: i))) }
            // Sorted from an origin, with a limit.
            let origin = c(0, 0)
            let sorted = try s.inside(region, sortedFrom: origin, unit: .miles, limit: 25)
            var all: [PlaceMatch] = []
            for i in want {
                all.append(PlaceMatch(index: i, distance: try distance(from: origin, to: s.coordinate(at: i), unit: .miles)))
            }
            all.sort(by: closer)
            XCTAssertEqual(sorted, Array(all.prefix(25)), "region \(n)")
            XCTAssertEqual(try s.inside(region, limit: 3).map(\.index), Array(want.prefix(3)))
        }
        let hole = regions[1].0
        XCTAssertFalse(hole.contains(c(50, 15)))
        XCTAssertTrue(hole.contains(c(45, 15)))  // on the hole's edge
        XCTAssertTrue(hole.contains(c(42, 5)))
        XCTAssertFalse(hole.contains(c(-42, 5)))
        XCTAssertTrue(regions[2].0.contains(c(0, -180)))
        XCTAssertTrue(regions[2].0.contains(c(0, 175)))
    }

    func testRegionErrors() {
        for bad in ["", "POLYGON((0 0, 1 1", "POLYGON((0 0, 1 0, 1 1, 0 0)", "CIRCLE(1 2 3)", "POLYGON((0 0, 1 0, 1 1, 0 1, 0 2))", "POLYGON((0 0,\0 1 0, 1 1, 0 0))"] {
            assertThrows(.parse) { () throws(GeoLocError) in try Region(wkt: bad) }
        }
        for notPolygon in ["POINT(1 2)", "POLYGON((0 0, 1 0, 0 0))", "LINESTRING(0 0, 1 1)", "GEOMETRYCOLLECTION(POLYGON((0 0, 1 0, 1 1, 0 0)))", "POLYGON EMPTY", "MULTIPOLYGON EMPTY",
                           "POLYGON((0 0, 1 1, 1 0, 0 1, 0 0))",  // a bow tie
                           "MULTIPOLYGON(((0 0, 2 0, 2 2, 0 2, 0 0)), ((1 1, 3 1, 3 3, 1 3, 1 1)))"] {  // overlapping
            assertThrows(.invalidArgument) { () throws(GeoLocError) in try Region(wkt: notPolygon) }
        }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try Region(wkt: "POLYGON((0 0, 200 0, 200 1, 0 1, 0 0))") }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try Region(wkt: "POLYGON((0 0, 1 0, 1 95, 0 0))") }
        assertThrows(.outOfRange) { () throws(GeoLocError) in
            try Region(wkt: "POLYGON((0 0, 10 0, 10 10, 0 10, 0 0), (1 1, 2 1, 2 -91, 1 1))")
        }
        for bad in ["", "{", #"{"type":"Polygon"}"#, #"{"type":"Polygon","coordinates":[[[0,0],[1,0]]]"#, "[1,2]"] {
            assertThrows(.parse) { () throws(GeoLocError) in try Region(geoJSON: bad) }
        }
        for notPolygon in [#"{"type":"Point","coordinates":[1,2]}"#,
                           #"{"type":"FeatureCollection","features":[]}"#,
                           #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}]}"#,
                           #"{"type":"Polygon","coordinates":[[[0,0],[1,1],[1,0],[0,1],[0,0]]]}"#] {
            assertThrows(.invalidArgument) { () throws(GeoLocError) in try Region(geoJSON: notPolygon) }
        }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try Region(geoJSON: #"{"type":"Polygon","coordinates":[[[0,0],[181,0],[1,1],[0,0]]]}"#) }
    }

    func testOverlappingFeaturesUnite() throws {
        let f = { (x: Int) in #"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[\#(x),0],[\#(x + 2),0],[\#(x + 2),2],[\#(x),2],[\#(x),0]]]}}"# }
        let r = try Region(geoJSON: #"{"type":"FeatureCollection","features":["# + f(0) + "," + f(1) + "]}")
        XCTAssertTrue(r.contains(c(1, 0.5)))
        XCTAssertTrue(r.contains(c(1, 2.5)))
        XCTAssertFalse(r.contains(c(1, 3.5)))
        XCTAssertEqual(r.maxLongitude, 3)
    }

    // MARK: threads

    final class Job {
        let set: PlaceSet
        let region: Region
        let queries: [(Coordinate, Double, Int)]
        var within: [[PlaceMatch]] = []
        var nearest: [[PlaceMatch]] = []
        var inside: [[PlaceMatch]] = []
        var failures = 0
        init(set: PlaceSet, region: Region, queries: [(Coordinate, Double, Int)]) {
            self.set = set
            self.region = region
            self.queries = queries
        }
        func run() {
            for (n, (center, km, k)) in queries.enumerated() {
                do {
                    within.append(try set.within(km, .kilometers, of: center))
                    nearest.append(try set.nearest(to: center, count: k))
                    if n % 20 == 0 { inside.append(try set.inside(region, sortedFrom: center, limit: 30)) }
                    if n % 7 == 0 { _ = region.contains(center) }
                } catch {
                    failures += 1
                }
            }
        }
    }

    func testFourThreadsAgreeWithOneThread() throws {
        var g = SplitMix64(seed: 0x5EED_0005)
        let pts = randomPoints(20_000, &g)
        let s = try set(pts)
        let region = try Region(wkt: "POLYGON((-75 39, -72 39, -72 42, -73.5 40.5, -75 42, -75 39))")
        var queries: [(Coordinate, Double, Int)] = []
        for _ in 0..<1500 { queries.append((randomCenter(&g, pts), exp(g.uniform(log(0.1), log(3000))), 1 + g.int(20))) }
        let reference = Job(set: s, region: region, queries: queries)
        reference.run()
        let jobs = (0..<4).map { _ in Job(set: s, region: region, queries: queries) }
        var threads: [pthread_t] = []
        for job in jobs {
            var t = pthread_t()
            let arg = Unmanaged.passRetained(job).toOpaque()
            let rc = pthread_create(&t, nil, { arg in
                let job = Unmanaged<Job>.fromOpaque(arg!).takeRetainedValue()
                job.run()
                return nil
            }, arg)
            XCTAssertEqual(rc, 0)
            threads.append(t)
        }
        for t in threads { pthread_join(t, nil) }
        for job in jobs {
            XCTAssertEqual(job.failures, 0)
            XCTAssertTrue(job.within == reference.within)
            XCTAssertTrue(job.nearest == reference.nearest)
            XCTAssertTrue(job.inside == reference.inside)
        }
        XCTAssertEqual(reference.within.count, 1500)
    }
}
