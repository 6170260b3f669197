@_spi(CABI) @_spi(Testing) @testable import GeoLoc
import Foundation
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

    /// `s` saved to a file and opened again (the file is unlinked at once: the mapping stays).
    func reopened(_ s: PlaceSet) throws -> PlaceSet {
        let path = NSTemporaryDirectory() + "geoloc-placeset-\(getpid())-\(UInt64.random(in: 0..<UInt64.max)).places"
        try s.save(to: path)
        defer { unlink(path) }
        return try PlaceSet.open(path)
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
            let o = try reopened(s)
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
                let reopenedGot = try o.within(r, unit, of: center, limit: limit)
                if got != want || reopenedGot != want {
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
            let o = try reopened(s)
            for _ in 0..<1500 {
                let center = randomCenter(&g, pts)
                let k = 1 + g.int(50)
                let unit = DistanceUnit.allCases[g.int(DistanceUnit.allCases.count)]
                var cap: Double? = nil
                if g.int(4) == 0 { cap = exp(g.uniform(log(10), log(2e7))) / unit.meters }
                if g.int(8) == 0 { cap = try distance(from: center, to: s.coordinate(at: g.int(s.count)), unit: unit) }
                let got = try s.nearest(to: center, count: k, unit: unit, maxDistance: cap)
                let want = try bruteNearest(s, center, k, unit, maxDistance: cap)
                let reopenedGot = try o.nearest(to: center, count: k, unit: unit, maxDistance: cap)
                if got != want || reopenedGot != want {
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
        let o = try reopened(s)
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
            XCTAssertEqual(try o.within(r, unit, of: center, model: .wgs84), want, "reopened: within \(r) \(unit) of \(center)")
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

    func testUnitVectorBoxHoldsTheLonLatBox() {
        // Every point of a longitude/latitude box (its corners, edges, the poles, the
        // antimeridian) has its unit vector in the box's unit-vector box, which `inside` searches.
        var g = SplitMix64(seed: 0x5EED_0003)
        for _ in 0..<3000 {
            let lat0 = g.int(6) == 0 ? -90 : g.uniform(-90, 89.9)
            let lat1 = g.int(6) == 0 ? 90 : Swift.min(90, lat0 + g.uniform(0, g.int(2) == 0 ? 1 : 120))
            let lon0 = g.int(6) == 0 ? -180 : g.uniform(-180, 179.9)
            let lon1 = g.int(6) == 0 ? 180 : Swift.min(180, lon0 + g.uniform(0, g.int(2) == 0 ? 1 : 300))
            let box = LonLatBox(minLon: lon0, minLat: lat0, maxLon: lon1, maxLat: lat1)
            let (low, high) = unitVectorBox(box)
            for k in 0..<24 {
                let lat = k < 4 ? [lat0, lat1][k % 2] : g.uniform(lat0, lat1)
                let lon = k < 4 ? [lon0, lon1][k / 2] : k < 8 ? [lon0, lon1][k % 2] : g.uniform(lon0, lon1)
                let v = unitVector(latitude: lat, longitude: lon)
                for d in 0..<3 {
                    XCTAssert(v[d] >= low[d] && v[d] <= high[d], "(\(lat), \(lon)) outside \(box) in dimension \(d)")
                }
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

/// The CSV and GeoJSON loaders: syntax, column sniffing, every kind of bad row with where it
/// is, strict mode, files.
final class PlaceLoadTests: XCTestCase {
    /// tests/places/ of this source tree.
    static let fixtures = String(#filePath.dropLast("Tests/GeoLocTests/PlacesTests.swift".count)) + "tests/places/"


    func csv(_ bytes: [UInt8], _ options: LoadOptions = .init()) throws(GeoLocError) -> PlaceLoad {
        var result: Result<PlaceLoad, GeoLocError>!
        bytes.withUnsafeBytes { b in
            result = Result { () throws(GeoLocError) in try PlaceSet.load(csv: b, options: options) }
        }
        return try result.get()
    }

    func geoJSON(_ bytes: [UInt8], _ options: LoadOptions = .init()) throws(GeoLocError) -> PlaceLoad {
        var result: Result<PlaceLoad, GeoLocError>!
        bytes.withUnsafeBytes { b in
            result = Result { () throws(GeoLocError) in try PlaceSet.load(geoJSON: b, options: options) }
        }
        return try result.get()
    }

    func names(_ s: PlaceSet) -> [String] { (0..<s.count).map { s.name(at: $0) } }
    func ids(_ s: PlaceSet) -> [String] { (0..<s.count).map { s.id(at: $0) } }

    // MARK: - CSV syntax

    func testQuotedFieldsEscapesAndEmbeddedNewlines() throws {
        let text = #"""
            id,name,lat,lon,note
            a,"Springfield, Illinois",39.8,-89.6,"say ""hi"""
            b,"two
            lines",1,2,
            c,plain"quote,3,4,"x,y"
            d,"",5,6,""
            """#
        let load = try PlaceSet.load(csv: text)
        XCTAssertEqual(load.issues, [])
        let s = load.places
        XCTAssertEqual(s.count, 4)
        XCTAssertEqual(s.attributeNames, ["note"])
        XCTAssertEqual(ids(s), ["a", "b", "c", "d"])
        XCTAssertEqual(names(s), ["Springfield, Illinois", "two\nlines", "plain\"quote", ""])
        XCTAssertEqual(s.attribute("note", at: 0), "say \"hi\"")
        XCTAssertNil(s.attribute("note", at: 1))  // an empty field is an absent value
        XCTAssertEqual(s.attribute("note", at: 2), "x,y")
        XCTAssertNil(s.attribute("note", at: 3))
        XCTAssertEqual(s.coordinate(at: 0), try Coordinate(latitude: 39.8, longitude: -89.6))
    }

    func testCRLFAndByteOrderMark() throws {
        let text = "\u{FEFF}lat,lon,name\r\n1,2,a\r\n3,4,\"b\r\nc\"\r\n5,6,\"\"\"q\"\"\"\r\n\r\n"
        let load = try PlaceSet.load(csv: text)
        XCTAssertEqual(load.issues, [])
        XCTAssertEqual(names(load.places), ["a", "b\r\nc", "\"q\""])
        XCTAssertEqual(ids(load.places), ["1", "2", "3"])
        // A bad row after the embedded line break is on line 5.
        let bad = try PlaceSet.load(csv: "\u{FEFF}lat,lon,name\r\n1,2,a\r\n3,4,\"b\r\nc\"\r\n5,x,d\r\n")
        XCTAssertEqual(bad.issues, [LoadIssue(record: 5, reason: "longitude \"x\" is not a decimal number")])
    }

    func testNoTrailingNewlineAndTrailingDelimiter() throws {
        let s = try PlaceSet.load(csv: "lat,lon,a,b\n1,2,x,\n3,4,,y").places
        XCTAssertEqual(s.count, 2)
        XCTAssertEqual(s.attribute("a", at: 0), "x")
        XCTAssertNil(s.attribute("b", at: 0))
        XCTAssertNil(s.attribute("a", at: 1))
        XCTAssertEqual(s.attribute("b", at: 1), "y")
        // A delimiter that ends the input ends a last, empty field.
        XCTAssertEqual(try PlaceSet.load(csv: "lat,lon,a\n1,2,").places.count, 1)
        // A CR that ends the input is a line break.
        XCTAssertEqual(try PlaceSet.load(csv: "lat,lon\r\n1,2\r").places.coordinate(at: 0).longitude, 2)
        XCTAssertEqual(try PlaceSet.load(csv: "lat,lon,name\r\n1,2,\"x\"\r").places.name(at: 0), "x")
    }

    func testEveryBadRowWithItsLine() throws {
        var bytes = Array("""
            name,lat,lon,extra
            ok,1,2,x
            few,1,2
            many,1,2,x,y
            nolat,,2,x
            junk,12abc,2,x
            hex,0x10,2,x
            inf,inf,2,x
            nan,1,nan,x
            huge,1e999,2,x
            north,91,2,x
            "multi
            line",1,2,x
            nolon,1, ,x
            quote,"1"x,2,x

            """.utf8)
        bytes += Array("utf8,1,2,".utf8) + [0xFF, 0x41] + Array("\n".utf8)
        bytes += Array("overlong,1,2,".utf8) + [0xC0, 0xAF] + Array("\n".utf8)
        bytes += Array("surrogate,1,2,".utf8) + [0xED, 0xA0, 0x80] + Array("\n".utf8)
        bytes += Array("ok2,-1.5,+3.25,y\nopen,\"1,2,x\n".utf8)
        let load = try csv(bytes)
        XCTAssertEqual(load.issues, [
            LoadIssue(record: 3, reason: "has 3 fields, the header has 4"),
            LoadIssue(record: 4, reason: "has 5 fields, the header has 4"),
            LoadIssue(record: 5, reason: "has no latitude"),
            LoadIssue(record: 6, reason: "latitude \"12abc\" is not a decimal number"),
            LoadIssue(record: 7, reason: "latitude \"0x10\" is not a decimal number"),
            LoadIssue(record: 8, reason: "latitude \"inf\" is not a decimal number"),
            LoadIssue(record: 9, reason: "longitude \"nan\" is not a decimal number"),
            LoadIssue(record: 10, reason: "latitude 1e999 is not finite"),
            LoadIssue(record: 11, reason: "latitude 91 is outside [-90, 90]"),
            LoadIssue(record: 14, reason: "has no longitude"),
            LoadIssue(record: 15, reason: "has text after a closing quote"),
            LoadIssue(record: 16, reason: "is not valid UTF-8"),
            LoadIssue(record: 17, reason: "is not valid UTF-8"),
            LoadIssue(record: 18, reason: "is not valid UTF-8"),
            LoadIssue(record: 20, reason: "has an unterminated quoted field"),
        ])
        let s = load.places
        XCTAssertEqual(names(s), ["ok", "multi\nline", "ok2"])
        // Without an id column the id is the record's number (bad records counted).
        XCTAssertEqual(ids(s), ["1", "11", "17"])
        XCTAssertEqual(s.coordinate(at: 2), try Coordinate(latitude: -1.5, longitude: 3.25))
        XCTAssertEqual(s.attributeNames, ["extra"])

        // Strict: the first bad row fails the load, with the count of the others.
        assertThrows(.parse, { () throws(GeoLocError) in try csv(bytes, LoadOptions(strict: true)) },
                     message: "line 3: has 3 fields, the header has 4 (and 14 more bad rows)")
        assertThrows(.invalidUTF8, { () throws(GeoLocError) in
            try csv(Array("name,lat,lon\n".utf8) + [0xFF] + Array(",1,2\nb,x,2\n".utf8), LoadOptions(strict: true))
        }, message: "line 2: is not valid UTF-8 (and 1 more bad row)")
        assertThrows(.parse, { () throws(GeoLocError) in
            try PlaceSet.load(csv: "lat,lon\n1,2\n1,200\n95,0\n", options: LoadOptions(strict: true))
        }, message: "line 4: latitude 95 is outside [-90, 90]")
        XCTAssertEqual(try PlaceSet.load(csv: "lat,lon\n1,2\n", options: LoadOptions(strict: true)).places.count, 1)
    }

    func testStrictNumberGrammar() throws {
        let good: [(String, Double)] = [
            ("12.5", 12.5), ("+12.5", 12.5), ("-12.5", -12.5), (" 12.5\t", 12.5), (".5", 0.5), ("5.", 5),
            ("1e1", 10), ("1E+1", 10), ("-2.5e-1", -0.25), ("0", 0), ("00012", 12), ("89.99999999999999999999", 90),
            ("1234567890123456789012e-21", 1.234567890123456789012), ("0.000000000000000000000000001e27", 1),
        ]
        for (text, value) in good {
            let load = try PlaceSet.load(csv: "lat,lon\n\(text),0\n")
            XCTAssertEqual(load.issues, [], text)
            XCTAssertEqual(load.places.coordinate(at: 0).latitude, value, text)
        }
        for text in ["12abc", "0x1A", "inf", "-inf", "nan", "NaN", "1,5", "1e", "e5", ".", "+", "--1", "1..2", "1e1.5", "1 2", "١٢"] {
            let load = try PlaceSet.load(csv: "lat,lon\n\"\(text)\",0\n")
            XCTAssertEqual(load.issues, [LoadIssue(record: 2, reason: "latitude \(quote(text)) is not a decimal number")], text)
        }
        XCTAssertEqual(try PlaceSet.load(csv: "lat,lon\n-1e400,0\n").issues, [LoadIssue(record: 2, reason: "latitude -1e400 is not finite")])
        XCTAssertEqual(try PlaceSet.load(csv: "lat,lon\n1e-400,0\n").places.coordinate(at: 0).latitude, 0)
    }

    /// The decimal reader rounds as the standard library does, on its fast path and off it.
    func testDecimalReadingIsCorrectlyRounded() throws {
        var g = SplitMix64(seed: 42)
        for _ in 0..<20_000 {
            var digits = ""
            let n = 1 + g.int(25)
            for _ in 0..<n { digits += String(g.int(10)) }
            let point = g.int(n + 1)
            var text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
            if g.int(3) == 0 { text += "e" + String(g.int(60) - 30) }
            if g.int(2) == 0 { text = "-" + text }
            var bytes = Array(text.utf8)
            let read = bytes.withUnsafeMutableBufferPointer { readDecimal(UnsafePointer($0.baseAddress!), 0, $0.count) }
            guard case .value(let v) = read else { return XCTFail("\(text) not read") }
            XCTAssertEqual(v.bitPattern, Double(text)!.bitPattern, text)
            bytes = []
        }
    }

    /// Random rows written with RFC 4180 quoting (fields with delimiters, quotes, CR, LF,
    /// non-ASCII text, of every length around the 8-byte steps of the scanner) read back as
    /// they were, with comma and tab, LF and CRLF.
    func testRandomRoundTrip() throws {
        var g = SplitMix64(seed: 99)
        let alphabet: [String] = ["a", "b", "Z", "0", "7", " ", ",", "\t", "\"", "\n", "\r", "é", "東", "😀", ";", "x"]
        for (delimiter, lineEnd) in [(",", "\n"), ("\t", "\r\n"), (",", "\r\n"), ("\t", "\n")] {
            var rows: [(Double, Double, String, String, String?)] = []
            var text = ["lat", "lon", "name", "id", "note"].joined(separator: delimiter) + lineEnd
            func field(_ s: String) -> String {
                let needsQuotes = s.contains(delimiter) || s.contains("\"") || s.contains("\n") || s.contains("\r") || s.hasPrefix("\"")
                return needsQuotes ? "\"" + s.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\"" : s
            }
            for _ in 0..<2_000 {
                func random() -> String { String((0..<g.int(20)).map { _ in alphabet[g.int(alphabet.count)] }.joined()) }
                let lat = Double(g.int(180_000_001) - 90_000_000) / 1e6
                let lon = Double(g.int(360_000_000) - 180_000_000) / 1e6
                let name = random()
                let id = "id" + random()
                let note: String? = g.int(4) == 0 ? nil : "n" + random()
                rows.append((lat, lon, name, id, note))
                text += ["\(lat)", "\(lon)", field(name), field(id), field(note ?? "")].joined(separator: delimiter) + lineEnd
            }
            let load = try PlaceSet.load(csv: text)
            XCTAssertEqual(load.issues, [], "delimiter \(delimiter.utf8.first!)")
            let s = load.places
            XCTAssertEqual(s.count, rows.count)
            for (i, row) in rows.enumerated() where i < s.count {
                XCTAssertEqual(s.coordinate(at: i).latitude, row.0)
                XCTAssertEqual(s.coordinate(at: i).longitude, row.1)
                XCTAssertEqual(s.name(at: i), row.2)
                XCTAssertEqual(s.id(at: i), row.3)
                XCTAssertEqual(s.attribute("note", at: i), row.4)
            }
        }
    }

    func testLongitudesAreReduced() throws {
        let s = try PlaceSet.load(csv: "lat,lon\n0,180\n0,190\n0,-180\n0,540.5\n0,-1e6\n").places
        XCTAssertEqual((0..<s.count).map { s.coordinate(at: $0).longitude }, [-180, -170, -180, -179.5, normalizedLongitude(-1e6)])
    }

    // MARK: - CSV columns

    func testColumnSniffing() throws {
        func columns(_ header: String, _ row: String, _ options: LoadOptions = .init()) throws -> (Coordinate, String, String, [String]) {
            let load = try PlaceSet.load(csv: header + "\n" + row + "\n", options: options)
            XCTAssertEqual(load.issues, [])
            let s = load.places
            return (s.coordinate(at: 0), s.id(at: 0), s.name(at: 0), s.attributeNames)
        }
        var r = try columns("Name,Latitude,Longitude,ID", "x,1,2,7")
        XCTAssertEqual(r.0, try Coordinate(latitude: 1, longitude: 2))
        XCTAssertEqual(r.1, "7")
        XCTAssertEqual(r.2, "x")
        XCTAssertEqual(r.3, [])
        r = try columns("LNG,LAT,title,geonameid,pop", "2,1,t,99,5")
        XCTAssertEqual(r.0, try Coordinate(latitude: 1, longitude: 2))
        XCTAssertEqual(r.1, "99")
        XCTAssertEqual(r.2, "t")
        XCTAssertEqual(r.3, ["pop"])
        r = try columns("x,y,place_id", "2,1,p")
        XCTAssertEqual(r.0, try Coordinate(latitude: 1, longitude: 2))
        XCTAssertEqual(r.1, "p")
        XCTAssertEqual(r.3, [])
        r = try columns("lat,long,name,title", "1,2,n,t")
        XCTAssertEqual(r.2, "n")
        XCTAssertEqual(r.3, ["title"])
        // "lat" wins over "latitude", which becomes an attribute.
        r = try columns("latitude,lat,lon", "5,1,2")
        XCTAssertEqual(r.0.latitude, 1)
        XCTAssertEqual(r.3, ["latitude"])
        // Options name the columns (exactly, else without regard to case).
        r = try columns("a,b,c,d,e", "1,2,3,4,5", LoadOptions(latitudeColumn: "B", longitudeColumn: "a", idColumn: "e", nameColumn: "c"))
        XCTAssertEqual(r.0, try Coordinate(latitude: 2, longitude: 1))
        XCTAssertEqual(r.1, "5")
        XCTAssertEqual(r.2, "3")
        XCTAssertEqual(r.3, ["d"])
    }

    func testHeaderErrors() {
        assertThrows(.invalidArgument, { () throws(GeoLocError) in try PlaceSet.load(csv: "name,lon\nx,1\n") },
                     message: "the header has no latitude column (lat, latitude or y, or LoadOptions.latitudeColumn); its columns are \"name\", \"lon\"")
        assertThrows(.invalidArgument, { () throws(GeoLocError) in try PlaceSet.load(csv: "lat,name\n1,x\n") })
        assertThrows(.invalidArgument, { () throws(GeoLocError) in try PlaceSet.load(csv: "lat,lon,a,a\n1,2,3,4\n") },
                     message: "the header names the column \"a\" twice")
        assertThrows(.invalidArgument, { () throws(GeoLocError) in
            try PlaceSet.load(csv: "lat,lon\n1,2\n", options: LoadOptions(nameColumn: "label"))
        }, message: "the header has no column \"label\" (LoadOptions.nameColumn); its columns are \"lat\", \"lon\"")
        assertThrows(.invalidArgument, { () throws(GeoLocError) in
            try PlaceSet.load(csv: "lat,lon\n1,2\n", options: LoadOptions(idColumn: "lat"))
        })
        assertThrows(.invalidArgument, { () throws(GeoLocError) in
            try PlaceSet.load(csv: "lat,lon\n1,2\n", options: LoadOptions(delimiter: 34))
        })
        assertThrows(.invalidArgument, { () throws(GeoLocError) in
            try PlaceSet.load(csv: "lat,lon\n1,2\n", options: LoadOptions(delimiter: 0xE9))
        })
        assertThrows(.invalidUTF8, { () throws(GeoLocError) in try csv(Array("lat,lon,".utf8) + [0xFF] + Array("\n1,2,3\n".utf8)) })
        assertThrows(.parse, { () throws(GeoLocError) in try PlaceSet.load(csv: "lat,lon,\"name\n1,2,3\n") },
                     message: "line 1: the header has an unterminated quoted field")
    }

    func testEmptyInputs() throws {
        // No header at all is no latitude column: an error like any header without one.
        for text in ["", "\u{FEFF}", "\n\n", "\r\n"] {
            assertThrows(.invalidArgument, { () throws(GeoLocError) in try PlaceSet.load(csv: text) },
                         message: "the input has no header row, so no latitude or longitude column")
        }
        for text in ["lat,lon", "lat,lon\n", "lat,lon,name\r\n\r\n"] {
            let load = try PlaceSet.load(csv: text)
            XCTAssertEqual(load.places.count, 0, text)
            XCTAssertEqual(load.issues, [], text)
        }
        XCTAssertEqual(try PlaceSet.load(csv: "lat,lon,a,b\n").places.attributeNames, ["a", "b"])
        assertThrows(.invalidArgument) { () throws(GeoLocError) in try csv([]) }
        // Blank lines between rows are skipped; line numbers still count them.
        let load = try PlaceSet.load(csv: "lat,lon\n\n1,2\n\nx,2\n")
        XCTAssertEqual(load.places.count, 1)
        XCTAssertEqual(load.issues, [LoadIssue(record: 5, reason: "latitude \"x\" is not a decimal number")])
    }

    func testDelimiters() throws {
        // Sniffed: a tab in the header line and no comma.
        var s = try PlaceSet.load(csv: "name\tlat\tlon\tnote\nA, B\t1\t2\tx,y\n").places
        XCTAssertEqual(names(s), ["A, B"])
        XCTAssertEqual(s.attribute("note", at: 0), "x,y")
        // A header with both stays comma-separated.
        s = try PlaceSet.load(csv: "name,lat,lon,\"a\tb\"\nx,1,2,3\n").places
        XCTAssertEqual(s.attributeNames, ["a\tb"])
        // Any ASCII byte by option; quoting works the same.
        s = try PlaceSet.load(csv: "name;lat;lon\n\"a;b\";1,5;2\nc;3;4\n", options: LoadOptions(delimiter: UInt8(ascii: ";"))).places
        XCTAssertEqual(names(s), ["c"])
        let load = try PlaceSet.load(csv: "name;lat;lon\n\"a;b\";1.5;2\n", options: LoadOptions(delimiter: UInt8(ascii: ";")))
        XCTAssertEqual(names(load.places), ["a;b"])
    }

    func testFixtureFiles() throws {
        let load = try PlaceSet.load(csvFile: Self.fixtures + "places.csv")
        XCTAssertEqual(load.issues, [LoadIssue(record: 7, reason: "latitude \"abc\" is not a decimal number")])
        let s = load.places
        XCTAssertEqual(ids(s), ["p1", "p2", "p3", "p5"])
        XCTAssertEqual(names(s), ["Springfield, Illinois", "Chicago", "Multi\nLine", "Edge"])
        XCTAssertEqual(s.attributeNames, ["population", "note"])
        XCTAssertEqual(s.attribute("note", at: 0), "the \"Land of Lincoln\" capital")
        XCTAssertEqual(s.attribute("note", at: 2), "a\nb")
        XCTAssertNil(s.attribute("population", at: 2))
        XCTAssertEqual(s.coordinate(at: 3), try Coordinate(latitude: -90, longitude: -180))

        let tsv = try PlaceSet.load(csvFile: Self.fixtures + "places.tsv").places
        XCTAssertEqual(ids(tsv), ["5128581", "2643743"])
        XCTAssertEqual(names(tsv), ["New York City", "London"])
        XCTAssertEqual(tsv.attributeNames, ["country_code"])
        XCTAssertEqual(tsv.attribute("country_code", at: 1), "GB")

        assertThrows(.parse, { () throws(GeoLocError) in
            try PlaceSet.load(csvFile: Self.fixtures + "places.csv", options: LoadOptions(strict: true))
        }, message: Self.fixtures + "places.csv: line 7: latitude \"abc\" is not a decimal number")
    }

    func testFileErrors() {
        let missing = Self.fixtures + "no-such-file.csv"
        assertThrows(.notFound, { () throws(GeoLocError) in try PlaceSet.load(csvFile: missing) }, message: missing + ": no such file")
        assertThrows(.notFound, { () throws(GeoLocError) in try PlaceSet.load(geoJSONFile: missing) })
        assertThrows(.notFound, { () throws(GeoLocError) in try PlaceSet.load(csvFile: Self.fixtures + "places.csv/x") })
        assertThrows(.invalidArgument, { () throws(GeoLocError) in try PlaceSet.load(csvFile: Self.fixtures) },
                     message: Self.fixtures + ": Is a directory")
        assertThrows(.notFound, { () throws(GeoLocError) in try PlaceSet.load(csvFile: "") })
    }

    // MARK: - GeoJSON

    func testGeoJSONFixture() throws {
        let load = try PlaceSet.load(geoJSONFile: Self.fixtures + "places.geojson")
        XCTAssertEqual(load.issues, [
            LoadIssue(record: 2, reason: "has a null geometry"),
            LoadIssue(record: 3, reason: "has a \"LineString\" geometry, not a Point"),
        ])
        let s = load.places
        XCTAssertEqual(ids(s), ["paris", "2", "4"])
        XCTAssertEqual(names(s), ["Paris", "Berlin", "Tōkyō"])
        XCTAssertEqual(s.attributeNames, ["population", "capital", "tags", "extra", "website", "note"])
        XCTAssertEqual(s.coordinate(at: 0), try Coordinate(latitude: 48.85341, longitude: 2.3488))
        XCTAssertEqual(s.coordinate(at: 1), try Coordinate(latitude: 52.52437, longitude: 13.41053))
        XCTAssertEqual(s[0].attributes, ["population": "2138551", "capital": "true", "tags": "[\"city\",\"capital\"]"])
        XCTAssertEqual(s[1].attributes, ["population": "3426354", "capital": "true", "website": "https://berlin.de"])
        XCTAssertEqual(s.attribute("note", at: 2), "🗼 tower")
    }

    func testGeoJSONPropertiesOfEveryType() throws {
        let text = #"""
            {"type":"Feature","geometry":{"type":"Point","coordinates":[-89.64,39.8]},
             "properties":{"s":"text","e":"a\"b\\c\/d\b\f\n\r\t\u00e9\u0001","i":-0,"f":1.50,"x":1E+2,
               "t":true,"no":false,"n":null,"a":[1, "two", [3], {}],"o":{"k": {"deep": [null, true]}, "q": "\u0022"},
               "empty":"","dup":1,"dup":2,"nd":null,"nd":"x"}}
            """#
        let load = try PlaceSet.load(geoJSON: text)
        XCTAssertEqual(load.issues, [])
        let s = load.places
        XCTAssertEqual(s.count, 1)
        XCTAssertEqual(s.id(at: 0), "0")
        XCTAssertEqual(s.name(at: 0), "")
        XCTAssertEqual(s.attributeNames, ["s", "e", "i", "f", "x", "t", "no", "n", "a", "o", "empty", "dup", "nd"])
        XCTAssertEqual(s.attribute("s", at: 0), "text")
        XCTAssertEqual(s.attribute("e", at: 0), "a\"b\\c/d\u{8}\u{C}\n\r\té\u{1}")
        XCTAssertEqual(s.attribute("i", at: 0), "-0")
        XCTAssertEqual(s.attribute("f", at: 0), "1.50")
        XCTAssertEqual(s.attribute("x", at: 0), "1E+2")
        XCTAssertEqual(s.attribute("t", at: 0), "true")
        XCTAssertEqual(s.attribute("no", at: 0), "false")
        XCTAssertNil(s.attribute("n", at: 0))
        XCTAssertEqual(s.attribute("a", at: 0), #"[1,"two",[3],{}]"#)
        XCTAssertEqual(s.attribute("o", at: 0), #"{"k":{"deep":[null,true]},"q":"\""}"#)
        XCTAssertEqual(s.attribute("empty", at: 0), "")
        XCTAssertEqual(s.attribute("dup", at: 0), "1")  // the first of a repeated key
        XCTAssertNil(s.attribute("nd", at: 0))
        // Control characters in compact JSON are escaped.
        let nested = try PlaceSet.load(geoJSON: #"""
            {"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"o":["\u0001\n\\"]}}
            """#).places
        XCTAssertEqual(nested.attribute("o", at: 0), #"["\u0001\n\\"]"#)
    }

    func testGeoJSONIdsAndNames() throws {
        func point(_ lon: Double, _ lat: Double) -> String { #""geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]}"# }
        let text = """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","id":"a","properties":{"name":"A","code":"ca"},\(point(1, 1))},
              {"type":"Feature","id":12.5,"properties":{"name":"B","code":"cb"},\(point(2, 2))},
              {"type":"Feature","properties":{"title":"C","code":"cc"},\(point(3, 3))},
              {"type":"Feature","id":null,"properties":{"name":7,"code":5},\(point(4, 4))},
              {"type":"Feature","properties":{"code":true},\(point(5, 5))},
              {"type":"Feature",\(point(6, 6))}
            ]}
            """
        var s = try PlaceSet.load(geoJSON: text).places
        XCTAssertEqual(ids(s), ["a", "12.5", "2", "3", "4", "5"])
        XCTAssertEqual(names(s), ["A", "B", "", "7", "", ""])  // "name" is present, so "title" is an attribute
        XCTAssertEqual(s.attributeNames, ["code", "title"])
        XCTAssertEqual(s.attribute("title", at: 2), "C")
        s = try PlaceSet.load(geoJSON: text, options: LoadOptions(idColumn: "code", nameColumn: "title")).places
        // The named id property wins over the feature's "id" member (the header's contract).
        XCTAssertEqual(ids(s), ["ca", "cb", "cc", "5", "4", "5"])
        XCTAssertEqual(names(s), ["", "", "C", "", "", ""])
        XCTAssertEqual(s.attributeNames, ["name"])
        // "title" names the places when no feature has "name".
        s = try PlaceSet.load(geoJSON: #"{"type":"Feature","properties":{"title":"T"},\#(point(0, 0))}"#).places
        XCTAssertEqual(names(s), ["T"])
        XCTAssertEqual(s.attributeNames, [])
    }

    func testGeoJSONBadFeatures() throws {
        let features = [
            #"5"#,
            #"{"geometry":{"type":"Point","coordinates":[0,0]}}"#,
            #"{"type":"Thing","geometry":{"type":"Point","coordinates":[0,0]}}"#,
            #"{"type":"Feature"}"#,
            #"{"type":"Feature","geometry":[0,0]}"#,
            #"{"type":"Feature","geometry":{"coordinates":[0,0]}}"#,
            #"{"type":"Feature","geometry":{"type":"MultiPoint","coordinates":[[0,0]]}}"#,
            #"{"type":"Feature","geometry":{"type":"Point"}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1]}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":["1","2"]}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,91]}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1e999,0]}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,-1e400]}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":"x"}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[190,-90, 5, 6]},"properties":null}"#,
        ]
        let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}"
        let load = try PlaceSet.load(geoJSON: text)
        XCTAssertEqual(load.issues, [
            LoadIssue(record: 0, reason: "is a number, not a Feature object"),
            LoadIssue(record: 1, reason: "has no \"type\""),
            LoadIssue(record: 2, reason: "has the type \"Thing\", not \"Feature\""),
            LoadIssue(record: 3, reason: "has no geometry"),
            LoadIssue(record: 4, reason: "has a geometry that is an array, not an object"),
            LoadIssue(record: 5, reason: "has a geometry without a \"type\""),
            LoadIssue(record: 6, reason: "has a \"MultiPoint\" geometry, not a Point"),
            LoadIssue(record: 7, reason: "has a Point without a \"coordinates\" array"),
            LoadIssue(record: 8, reason: "has Point coordinates that are not [longitude, latitude] numbers"),
            LoadIssue(record: 9, reason: "has Point coordinates that are not [longitude, latitude] numbers"),
            LoadIssue(record: 10, reason: "has a latitude 91 outside [-90, 90]"),
            LoadIssue(record: 11, reason: "has a longitude 1e999 that is not finite"),
            LoadIssue(record: 12, reason: "has a latitude -1e400 that is not finite"),
            LoadIssue(record: 13, reason: "has properties that are a string, not an object"),
        ])
        XCTAssertEqual(load.places.count, 1)
        XCTAssertEqual(load.places.id(at: 0), "14")
        XCTAssertEqual(load.places.coordinate(at: 0), try Coordinate(latitude: -90, longitude: -170))
        assertThrows(.parse, { () throws(GeoLocError) in try PlaceSet.load(geoJSON: text, options: LoadOptions(strict: true)) },
                     message: "feature 0: is a number, not a Feature object (and 13 more bad features)")
        // An empty collection is fine.
        XCTAssertEqual(try PlaceSet.load(geoJSON: #"{"features":[],"type":"FeatureCollection"}"#).places.count, 0)
    }

    func testGeoJSONDocumentErrors() {
        func fails(_ text: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
            assertThrows(.parse, { () throws(GeoLocError) in try PlaceSet.load(geoJSON: text) }, message: message, file: file, line: line)
        }
        fails("[]", "the document is an array, not a GeoJSON FeatureCollection or Feature")
        fails(#"{"type":"Point","coordinates":[0,0]}"#, "the document is a GeoJSON \"Point\", not a FeatureCollection or Feature")
        fails(#"{"features":[]}"#, "the document has no \"type\"; expected a GeoJSON FeatureCollection or Feature")
        fails(#"{"type":"FeatureCollection","features":{}}"#, "the FeatureCollection has no \"features\" array")
    }

    func testMalformedJSONNamesWhere() {
        func fails(_ text: String, _ message: String, _ code: GeoLocError.Code = .parse, file: StaticString = #filePath, line: UInt = #line) {
            assertThrows(code, { () throws(GeoLocError) in try PlaceSet.load(geoJSON: text) }, message: message, file: file, line: line)
        }
        fails("{\"type\": \"FeatureCollection\",\n \"features\": [1, 2,]}",
              "malformed JSON at byte 49 (line 2, column 20): expected a value, found ']'")
        fails("", "malformed JSON at byte 0 (line 1, column 1): the document is empty")
        fails("  \n ", "malformed JSON at byte 4 (line 2, column 2): the document is empty")
        fails("{\"a\":1,}", "malformed JSON at byte 7 (line 1, column 8): expected a string key, found '}'")
        fails("{\"a\" 1}", "malformed JSON at byte 5 (line 1, column 6): expected ':' after the key, found '1'")
        fails("{\"a\":1 \"b\":2}", "malformed JSON at byte 7 (line 1, column 8): expected ',' or '}', found '\"'")
        fails("[1 2]", "malformed JSON at byte 3 (line 1, column 4): expected ',' or ']', found '2'")
        fails("{\"é\":\"ü\" x", "malformed JSON at byte 11 (line 1, column 10): expected ',' or '}', found 'x'")
        fails("{} x", "malformed JSON at byte 3 (line 1, column 4): unexpected 'x' after the document")
        fails("{\"a\":[1,2", "malformed JSON at byte 9 (line 1, column 10): the document ends inside an array")
        fails("{\"a\":\"abc", "malformed JSON at byte 5 (line 1, column 6): the string is not closed")
        fails("{\"a\":01}", "malformed JSON at byte 5 (line 1, column 6): a number must not start with 0 followed by a digit")
        fails("{\"a\":-}", "malformed JSON at byte 5 (line 1, column 6): '-' must be followed by a digit")
        fails("{\"a\":1.}", "malformed JSON at byte 7 (line 1, column 8): a digit must follow the decimal point")
        fails("{\"a\":1e}", "malformed JSON at byte 7 (line 1, column 8): a digit must follow the exponent")
        fails("{\"a\":+1}", "malformed JSON at byte 5 (line 1, column 6): expected a value, found '+'")
        fails("{\"a\":tru}", "malformed JSON at byte 5 (line 1, column 6): expected a value, found 't'")
        fails("{\"a\":NaN}", "malformed JSON at byte 5 (line 1, column 6): expected a value, found 'N'")
        fails("{\"a\":'x'}", "malformed JSON at byte 5 (line 1, column 6): expected a value, found '''")
        fails("{\"a\":\"x\ty\"}", "malformed JSON at byte 7 (line 1, column 8): a control character (0x9) must be escaped in a string")
        fails("{\"a\":\"\\x\"}", "malformed JSON at byte 6 (line 1, column 7): 'x' is not an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
        fails("{\"a\":\"\\u12G4\"}", "malformed JSON at byte 6 (line 1, column 7): \\u must be followed by four hex digits")
        fails("{\"a\":\"\\ud83d\"}", "malformed JSON at byte 6 (line 1, column 7): \\uD83D is a high surrogate without a low one after it")
        fails("{\"a\":\"\\ud83d\\u0041\"}", "malformed JSON at byte 6 (line 1, column 7): \\uD83D is a high surrogate without a low one after it")
        fails("{\"a\":\"\\ude00\"}", "malformed JSON at byte 6 (line 1, column 7): \\uDE00 is a low surrogate without a high one")
        fails("{\"a\":\"\\ud83d\\ud83d\"}", "malformed JSON at byte 6 (line 1, column 7): \\uD83D is a high surrogate without a low one after it")
        assertThrows(.invalidUTF8, { () throws(GeoLocError) in
            try geoJSON(Array("{\"a\":\"".utf8) + [0xC3, 0x28] + Array("\"}".utf8))
        }, message: "invalid UTF-8 in JSON at byte 6 (line 1, column 7): the bytes are not UTF-8")
        assertThrows(.invalidUTF8, { () throws(GeoLocError) in
            try geoJSON(Array("{\"a\":\"".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("\"}".utf8))
        })
        assertThrows(.parse, { () throws(GeoLocError) in try geoJSON(Array("{\"a\":".utf8) + [0xFF] + Array("}".utf8)) },
                     message: "malformed JSON at byte 5 (line 1, column 6): expected a value, found byte 0xFF")
        // A file's path starts the message.
        assertThrows(.parse, { () throws(GeoLocError) in try PlaceSet.load(geoJSONFile: Self.fixtures + "places.csv") },
                     message: Self.fixtures + "places.csv: malformed JSON at byte 0 (line 1, column 1): expected a value, found 'i'")
    }

    func testSurrogatePairsAndByteOrderMark() throws {
        let text = "\u{FEFF}" + #"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"name":"\ud83d\ude00 \uD834\uDD1E \u00e9 é"}}"#
        let s = try PlaceSet.load(geoJSON: text).places
        XCTAssertEqual(s.name(at: 0), "😀 𝄞 é é")
    }

    func testNestingDepthLimit() throws {
        // 512 levels (the document, properties, then 510 arrays) read; 513 do not.
        func document(arrays: Int) -> String {
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"a":"#
                + String(repeating: "[", count: arrays) + String(repeating: "]", count: arrays) + "}}"
        }
        let s = try PlaceSet.load(geoJSON: document(arrays: 510)).places
        XCTAssertEqual(s.attribute("a", at: 0), String(repeating: "[", count: 510) + String(repeating: "]", count: 510))
        assertThrows(.parse, { () throws(GeoLocError) in try PlaceSet.load(geoJSON: document(arrays: 511)) },
                     message: "malformed JSON at byte 594 (line 1, column 595): arrays and objects nest deeper than 512 levels")
        // Hostile depth fails fast, without recursion.
        assertThrows(.parse, { () throws(GeoLocError) in try PlaceSet.load(geoJSON: String(repeating: "[", count: 1_000_000)) })
        assertThrows(.parse, { () throws(GeoLocError) in try PlaceSet.load(geoJSON: String(repeating: "{\"a\":", count: 100_000)) })
    }

    func testLargeGeoJSONRoundTrip() throws {
        // 20,000 features written and read back: positions exact, attributes as written.
        var g = SplitMix64(seed: 7)
        var parts: [String] = []
        var expected: [(Double, Double)] = []
        for i in 0..<20_000 {
            let lat = Double(g.int(180_000_001) - 90_000_000) / 1e6
            let lon = Double(g.int(360_000_000) - 180_000_000) / 1e6
            expected.append((lat, lon))
            parts.append(#"{"type":"Feature","id":\#(i),"geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]},"properties":{"name":"p\#(i)","rank":\#(i % 7)}}"#)
        }
        let load = try PlaceSet.load(geoJSON: #"{"type":"FeatureCollection","features":["# + parts.joined(separator: ",") + "]}")
        XCTAssertEqual(load.issues, [])
        XCTAssertEqual(load.places.count, 20_000)
        for i in stride(from: 0, to: 20_000, by: 997) {
            XCTAssertEqual(load.places.coordinate(at: i).latitude, expected[i].0)
            XCTAssertEqual(load.places.coordinate(at: i).longitude, expected[i].1)
            XCTAssertEqual(load.places.id(at: i), String(i))
            XCTAssertEqual(load.places.name(at: i), "p\(i)")
            XCTAssertEqual(load.places.attribute("rank", at: i), String(i % 7))
        }
    }
}

/// Place files: `PlaceSet.save(to:)` and `PlaceSet.open(_:)`.
final class PlaceFileTests: XCTestCase {

    func c(_ lat: Double, _ lon: Double) -> Coordinate { try! Coordinate(latitude: lat, longitude: lon) }

    var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "geoloc-placefile-\(getpid())-\(UInt64.random(in: 0..<UInt64.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A small set with everything a file holds: ids, names (one empty), two attribute columns
    /// with an absent value and an empty one, a pole and the antimeridian.
    func smallSet() throws -> PlaceSet {
        var b = PlaceSetBuilder(attributeNames: ["cc", "admin1"])
        try b.append(c(38.3, -88.9), id: "a", name: "Mount Vernon", attributes: ["US", "IL"])
        try b.append(c(-33.9, 151.2), id: "bb", name: "Sydney", attributes: ["AU", nil])
        try b.append(c(90, 0), id: "", name: "", attributes: ["", ""])
        try b.append(c(0, 180), id: "d", name: "Date line", attributes: [nil, nil])
        try b.append(c(51.5, -0.1), id: "e", name: "Zürich?", attributes: ["GB", "ENG"])
        return try b.build()
    }

    func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Every field and every query of `b` equals `a`'s.
    func assertSame(_ a: PlaceSet, _ b: PlaceSet, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(a.count, b.count, file: file, line: line)
        XCTAssertEqual(a.attributeNames, b.attributeNames, file: file, line: line)
        for i in 0..<a.count {
            XCTAssertEqual(a[i], b[i], file: file, line: line)
        }
        var g = SplitMix64(seed: 0xF11E)
        for _ in 0..<200 {
            let q = c(g.latitude(), g.uniform(-180, 180))
            let r = exp(g.uniform(log(1), log(2.1e7)))
            XCTAssertEqual(try a.within(r, of: q), try b.within(r, of: q), file: file, line: line)
            XCTAssertEqual(try a.within(r, of: q, model: .wgs84), try b.within(r, of: q, model: .wgs84), file: file, line: line)
            let k = 1 + g.int(8)
            XCTAssertEqual(try a.nearest(to: q, count: k), try b.nearest(to: q, count: k), file: file, line: line)
        }
    }

    func testSaveAndOpen() throws {
        let s = try smallSet()
        let path = directory + "/small.places"
        try s.save(to: path)
        let o = try PlaceSet.open(path)
        try assertSame(s, o)
        XCTAssertNil(o.attribute("admin1", at: 1))
        XCTAssertEqual(o.attribute("admin1", at: 2), "")
        XCTAssertEqual(o.id(at: 2), "")
        XCTAssertEqual(o.name(at: 4), "Zürich?")
        XCTAssertEqual(o.coordinate(at: 3).longitude, -180)
        // An opened set saves again, byte for byte the same file.
        try o.save(to: directory + "/again.places")
        XCTAssertEqual(try bytes(path), try bytes(directory + "/again.places"))
        // The empty set.
        let empty = try PlaceSetBuilder(attributeNames: ["x"]).build()
        try empty.save(to: directory + "/empty.places")
        let e = try PlaceSet.open(directory + "/empty.places")
        XCTAssertEqual(e.count, 0)
        XCTAssertEqual(e.attributeNames, ["x"])
        XCTAssertEqual(try e.within(1e7, of: c(0, 0)), [])
        XCTAssertEqual(try e.nearest(to: c(0, 0), count: 3), [])
    }

    /// The brute-force property run of PlaceSetTests (its point and query distributions: the
    /// antimeridian, the poles, duplicates, a dense city), on a set saved and reopened: every
    /// radius, nearest and region query equals brute force and the original set's answer.
    func testReopenedMatchesBruteForce() throws {
        var g = SplitMix64(seed: 0x5EED_0F11)
        var pts: [Coordinate] = []
        for _ in 0..<2500 {
            switch g.int(10) {
            case 0, 1: pts.append(c(g.uniform(-80, 80), g.int(2) == 0 ? g.uniform(179, 180) : g.uniform(-180, -179)))
            case 2: pts.append(c(g.uniform(88, 90), g.uniform(-180, 180)))
            case 3: pts.append(c(g.uniform(-90, -88), g.uniform(-180, 180)))
            case 4: pts.append([c(90, 0), c(-90, 17), c(0, -180), c(45, -180), c(-30, 179.999999999)][g.int(5)])
            case 5 where !pts.isEmpty: pts.append(pts[g.int(pts.count)])
            case 6: pts.append(c(g.uniform(40, 41), g.uniform(-74, -73)))
            default: pts.append(c(g.latitude(), g.uniform(-180, 180)))
            }
        }
        let s = try PlaceSet(pts.enumerated().map { Place(coordinate: $1, id: "p\($0)") })
        try s.save(to: directory + "/property.places")
        let o = try PlaceSet.open(directory + "/property.places")
        func brute(_ center: Coordinate, _ r: Double, _ unit: DistanceUnit, _ model: EarthModel, limit: Int? = nil) throws -> [PlaceMatch] {
            var all: [PlaceMatch] = []
            for i in 0..<o.count {
                let d = try distance(from: center, to: o.coordinate(at: i), model: model, unit: unit)
                if d <= r { all.append(PlaceMatch(index: i, distance: d)) }
            }
            all.sort(by: closer)
            return Array(all.prefix(limit ?? all.count))
        }
        for n in 0..<600 {
            let center: Coordinate
            switch g.int(5) {
            case 0: center = pts[g.int(pts.count)]
            case 1: center = c(g.int(2) == 0 ? 90 : -90, g.uniform(-180, 180))
            case 2: center = c(g.uniform(-89, 89), g.int(2) == 0 ? 179.9 + g.uniform(0, 0.1) : -180 + g.uniform(0, 0.1))
            default: center = c(g.latitude(), g.uniform(-180, 180))
            }
            let unit = DistanceUnit.allCases[g.int(DistanceUnit.allCases.count)]
            let model: EarthModel = n % 4 == 0 ? .wgs84 : .sphere
            var r = exp(g.uniform(log(0.001), log(20_100))) * 1000 / unit.meters
            if g.int(6) == 0 { r = try distance(from: center, to: pts[g.int(pts.count)], model: model, unit: unit) }
            let limit: Int? = g.int(4) == 0 ? g.int(20) : nil
            let want = try brute(center, r, unit, model, limit: limit)
            XCTAssertEqual(try o.within(r, unit, of: center, model: model, limit: limit), want, "within \(r) \(unit) of \(center)")
            XCTAssertEqual(try s.within(r, unit, of: center, model: model, limit: limit), want)
            let k = 1 + g.int(50)
            let cap: Double? = g.int(4) == 0 ? r : nil
            let wantK = try brute(center, cap ?? .infinity, unit, model, limit: k)
            XCTAssertEqual(try o.nearest(to: center, count: k, model: model, unit: unit, maxDistance: cap), wantK, "nearest \(k) to \(center)")
            XCTAssertEqual(try s.nearest(to: center, count: k, model: model, unit: unit, maxDistance: cap), wantK)
        }
        for _ in 0..<40 {
            let lon0 = g.uniform(-180, 170), lat0 = g.uniform(-89, 80)
            let lon1 = Swift.min(180, lon0 + g.uniform(0.01, 60)), lat1 = Swift.min(90, lat0 + g.uniform(0.01, 40))
            let region = try Region(wkt: "POLYGON((\(lon0) \(lat0), \(lon1) \(lat0), \(lon1) \(lat1), \(lon0) \(lat1), \(lon0) \(lat0)))")
            let want = (0..<o.count).filter { i in
                let p = o.coordinate(at: i)
                return p.longitude >= lon0 && p.longitude <= lon1 && p.latitude >= lat0 && p.latitude <= lat1
            }
            XCTAssertEqual(try o.inside(region).map(\.index), want)
            XCTAssertEqual(try s.inside(region).map(\.index), want)
        }
    }

    func testNumberedIDs() throws {
        var b = PlaceSetBuilder(attributeNames: [], numberedIDs: true)
        for i in 0..<1000 { try b.append(c(Double(i % 170) - 85, Double(i) * 0.35 - 180), id: "ignored", name: "", attributes: []) }
        let s = try b.build()
        XCTAssertEqual(s.id(at: 0), "1")
        XCTAssertEqual(s.id(at: 999), "1000")
        s.withUTF8(field: 0, at: 41) { XCTAssertEqual(Array($0), Array("42".utf8)) }
        try s.save(to: directory + "/numbered.places")
        let o = try PlaceSet.open(directory + "/numbered.places")
        try assertSame(s, o)
        XCTAssertEqual(o.id(at: 999), "1000")
    }

    /// A large set through a file: every query of a brute-force property run answers the same.
    func testReopenedAnswersAsTheSet() throws {
        var g = SplitMix64(seed: 0x5EED_F11E)
        var b = PlaceSetBuilder(attributeNames: ["k"])
        for i in 0..<20_000 {
            let lat = g.int(10) == 0 ? g.uniform(88, 90) : g.latitude()
            try b.append(c(lat, g.uniform(-180, 180)), id: "p\(i)", name: "n\(i % 97)", attributes: [i % 3 == 0 ? nil : "v\(i)"])
        }
        let s = try b.build()
        try s.save(to: directory + "/large.places")
        try assertSame(s, try PlaceSet.open(directory + "/large.places"))
    }

    func testEveryTruncationAndCorruptionIsRefused() throws {
        for numbered in [false, true] {
            var b = PlaceSetBuilder(attributeNames: ["cc"], numberedIDs: numbered)
            for (i, p) in [(1.0, 2.0), (-45.0, 170.0), (89.0, -179.0)].enumerated() {
                try b.append(c(p.0, p.1), id: "x\(i)", name: "N\(i)", attributes: [i == 1 ? nil : "C\(i)"])
            }
            let s = try b.build()
            let path = directory + "/tiny.places"
            try s.save(to: path)
            let file = try bytes(path)
            try file.withUnsafeBytes { try assertSame(s, PlaceSet.open(fileBytes: $0)) }
            for n in 0..<file.count {
                file.withUnsafeBytes { raw in
                    assertThrows(.parse) { () throws(GeoLocError) in
                        _ = try PlaceSet.open(fileBytes: UnsafeRawBufferPointer(rebasing: raw[0..<n]))
                    }
                }
            }
            for i in 0..<file.count {
                for flip: UInt8 in [0x01, 0x80, 0xFF] {
                    var bad = file
                    bad[i] ^= flip
                    bad.withUnsafeBytes { raw in
                        do throws(GeoLocError) {
                            _ = try PlaceSet.open(fileBytes: raw)
                            XCTFail("byte \(i) ^ \(flip) was not refused")
                        } catch {
                            XCTAssert(error.code == .parse || error.code == .unsupported, "byte \(i): \(error)")
                        }
                    }
                }
            }
            // A byte appended.
            (file + [0]).withUnsafeBytes { raw in
                assertThrows(.parse) { () throws(GeoLocError) in _ = try PlaceSet.open(fileBytes: raw) }
            }
        }
    }

    /// Files made to pass the checksum are still checked: out-of-range indexes, positions,
    /// coordinates, split dimensions, string ends and counts are refused.
    func testResealedDamageIsRefused() throws {
        let s = try smallSet()
        let path = directory + "/small.places"
        try s.save(to: path)
        let file = try bytes(path)
        let layout = try XCTUnwrap(layoutOf(file))
        func refused(_ what: String, _ edit: (inout [UInt8]) -> Void) {
            var bad = file
            edit(&bad)
            bad.withUnsafeMutableBytes { PlaceSet.resealPlaceFile($0) }
            bad.withUnsafeBytes { raw in
                assertThrows(.parse) { () throws(GeoLocError) in _ = try PlaceSet.open(fileBytes: raw) }
            }
        }
        func put32(_ v: UInt32, _ at: Int, _ f: inout [UInt8]) { for k in 0..<4 { f[at + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) } }
        func put64(_ v: UInt64, _ at: Int, _ f: inout [UInt8]) { for k in 0..<8 { f[at + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt64(k))) } }
        refused("an index out of range") { put32(5, layout.ids + 4, &$0) }
        refused("a negative index") { put32(UInt32.max, layout.ids, &$0) }
        refused("a place at two tree positions") { f in for k in 0..<4 { f[layout.ids + 4 + k] = f[layout.ids + k] } }
        refused("a latitude above 90") { put64((90.5).bitPattern, layout.latLon, &$0) }
        refused("a NaN longitude") { put64(Double.nan.bitPattern, layout.latLon + 8, &$0) }
        refused("longitude 180") { put64((180.0).bitPattern, layout.latLon + 24, &$0) }
        refused("string ends out of order") { put32(1000, layout.ends, &$0) }
        refused("more places than bytes") { put64(6, 24, &$0) }
        refused("an unknown flag") { put64(2, 112, &$0) }
        refused("a leaf size of 0") { put32(0, 20, &$0) }
        refused("an attribute name that is not UTF-8") { $0[layout.names + 4] = 0xFF }
        // The attribute columns: value numbers, value ends, the column table.
        XCTAssertEqual(layout.widths, [1, 1])
        refused("a value number above the column's values") { $0[layout.numbers[0] + 1] = 5 }
        refused("value ends out of order") { put32(100, layout.valueEnds[0], &$0) }
        refused("value ends short of the values") { put32(1, layout.valueEnds[1] + 4, &$0) }
        refused("more values than places") { put64(6, 128, &$0) }
        refused("a column table past the file") { put64(UInt64(file.count), 32, &$0) }
        // A duplicate attribute name: "ab" and "ac", the second made "ab".
        var b = PlaceSetBuilder(attributeNames: ["ab", "ac"])
        try b.append(c(1, 2), id: "i", name: "n", attributes: ["x", "y"])
        try b.build().save(to: directory + "/dup.places")
        var dup = try bytes(directory + "/dup.places")
        let names = try XCTUnwrap(layoutOf(dup)).names
        XCTAssertEqual(dup[names + 4 + 2 + 4 + 1], UInt8(ascii: "c"))
        dup[names + 4 + 2 + 4 + 1] = UInt8(ascii: "b")
        dup.withUnsafeMutableBytes { PlaceSet.resealPlaceFile($0) }
        dup.withUnsafeBytes { raw in
            assertThrows(.parse) { () throws(GeoLocError) in _ = try PlaceSet.open(fileBytes: raw) }
        }
        var newer = file
        put32(PlaceFile.version + 1, 8, &newer)
        newer.withUnsafeMutableBytes { PlaceSet.resealPlaceFile($0) }
        newer.withUnsafeBytes { raw in
            assertThrows(.unsupported) { () throws(GeoLocError) in _ = try PlaceSet.open(fileBytes: raw) }
        }
        var bigEndian = file
        put32(0x0403_0201, 12, &bigEndian)
        bigEndian.withUnsafeMutableBytes { PlaceSet.resealPlaceFile($0) }
        bigEndian.withUnsafeBytes { raw in
            assertThrows(.unsupported) { () throws(GeoLocError) in _ = try PlaceSet.open(fileBytes: raw) }
        }
    }

    /// The layout of a place file's bytes, from its header and column table.
    func layoutOf(_ file: [UInt8]) -> PlaceFileLayout? {
        func u64(_ at: Int) -> Int { (0..<8).reduce(0) { $0 | Int(file[at + $1]) << (8 * $1) } }
        let version = UInt32(file[8]), a = u64(32)
        return PlaceFileLayout(
            version: version, count: u64(24), attributes: a, numberedIDs: u64(112) == 1, bucket: Int(file[20]),
            textBytes: u64(40), namesBytes: u64(48),
            valueCounts: version >= 2 ? (0..<a).map { u64(128 + 16 * $0) } : [],
            valueBytes: version >= 2 ? (0..<a).map { u64(136 + 16 * $0) } : [])
    }

    /// A file of version 1 (tests/places/places-v1.places: tests/places/places.csv saved by
    /// libgeoloc 0.3.0) opens as it is and holds the places of the CSV; saved again, it is a
    /// file of the current version with the same places and answers.
    func testVersion1FilesStillOpen() throws {
        for (v1, source) in [("places-v1.places", "places.csv"), ("numbered-v1.places", nil)] {
            let path = PlaceLoadTests.fixtures + v1
            let file = try bytes(path)
            XCTAssertEqual(file[8], 1, "the fixture is a version 1 file")
            let o = try PlaceSet.open(path)
            if let source {
                let want = try PlaceSet.load(csv: String(decoding: try bytes(PlaceLoadTests.fixtures + source), as: UTF8.self)).places
                try assertSame(want, o)
                XCTAssertNil(o.attribute("note", at: 1))
                XCTAssertNil(o.attribute("population", at: 2))
                XCTAssertEqual(o.attribute("note", at: 0), "the \"Land of Lincoln\" capital")
            } else {
                XCTAssertEqual(o.count, 3)
                XCTAssertEqual(o.id(at: 2), "3")
                XCTAssertEqual(o.coordinate(at: 2), c(-33.9, 151.2))
            }
            try o.save(to: directory + "/resaved.places")
            let resaved = try bytes(directory + "/resaved.places")
            XCTAssertEqual(resaved[8], UInt8(PlaceFile.version))
            try assertSame(o, try PlaceSet.open(directory + "/resaved.places"))
        }
    }

    /// Each distinct value is stored once, with value numbers of 1, 2 or 4 bytes by the column's
    /// count of values; sets and files read every value back.
    func testAttributeValuesStoredOnce() throws {
        var b = PlaceSetBuilder(attributeNames: ["country", "town", "serial", "sparse"])
        let n = 70_000
        for i in 0..<n {
            try b.append(c(Double(i % 170) - 85, Double(i % 359) - 179), id: "p\(i)", name: "n\(i)",
                         attributes: ["C\(i % 7)", "T\(i % 300)", "S\(i)", i % 1000 == 0 ? "rare" : nil])
        }
        let s = try b.build()
        let columns = UnsafeBufferPointer(start: s.columns.data.pointee.attributeColumns, count: 4)
        XCTAssertEqual(columns.map(\.values), [7, 300, n, 1])
        XCTAssertEqual(columns.map(\.width), [1, 2, 4, 1])
        XCTAssertEqual(columns[0].text.count, 14)
        try s.save(to: directory + "/values.places")
        let o = try PlaceSet.open(directory + "/values.places")
        for i in stride(from: 0, to: n, by: 997) + [n - 1] {
            XCTAssertEqual(o[i], s[i])
            XCTAssertEqual(o.attribute("serial", at: i), "S\(i)")
            XCTAssertEqual(o.attribute("sparse", at: i), i % 1000 == 0 ? "rare" : nil)
        }
        XCTAssertEqual(try layoutOf(bytes(directory + "/values.places"))?.widths, [1, 2, 4, 1])
        // A copied builder keeps its own values.
        var b1 = PlaceSetBuilder(attributeNames: ["k"])
        try b1.append(c(1, 1), id: "a", name: "", attributes: ["x"])
        var b2 = b1
        try b2.append(c(2, 2), id: "b", name: "", attributes: ["y"])
        try b1.append(c(3, 3), id: "c", name: "", attributes: ["x"])
        let s1 = try b1.build(), s2 = try b2.build()
        XCTAssertEqual([s1.attribute("k", at: 0), s1.attribute("k", at: 1)], ["x", "x"])
        XCTAssertEqual([s2.attribute("k", at: 0), s2.attribute("k", at: 1)], ["x", "y"])
    }

    func testOpenErrors() throws {
        assertThrows(.notFound) { () throws(GeoLocError) in _ = try PlaceSet.open(self.directory + "/missing.places") }
        assertThrows(.invalidArgument) { () throws(GeoLocError) in _ = try PlaceSet.open(self.directory) }
        let csv = directory + "/places.csv"
        try "lat,lon\n1,2\n".write(toFile: csv, atomically: true, encoding: .utf8)
        assertThrows(.parse) { () throws(GeoLocError) in _ = try PlaceSet.open(csv) }
        let empty = directory + "/empty"
        FileManager.default.createFile(atPath: empty, contents: Data())
        assertThrows(.parse) { () throws(GeoLocError) in _ = try PlaceSet.open(empty) }
        let s = try smallSet()
        assertThrows(.invalidArgument) { () throws(GeoLocError) in try s.save(to: self.directory + "/no/such/dir/x.places") }
    }

    /// Saving over a file that a set has open replaces it: the open set keeps reading the old
    /// one, unharmed.
    func testSaveOverAnOpenFile() throws {
        let path = directory + "/shared.places"
        let s = try smallSet()
        try s.save(to: path)
        let o = try PlaceSet.open(path)
        var b = PlaceSetBuilder()
        try b.append(c(1, 1), id: "only", name: "One", attributes: [])
        try b.build().save(to: path)
        try assertSame(s, o)
        XCTAssertEqual(try PlaceSet.open(path).count, 1)
    }

    /// Threads saving to one path at once each write a file of their own and rename it: the
    /// file left is one of theirs, whole, and no temporary file stays.
    func testConcurrentSavesToOnePath() throws {
        let s = try smallSet()
        let path = directory + "/concurrent.places"
        let failures = UnsafeMutablePointer<Int>.allocate(capacity: 8)
        failures.initialize(repeating: 0, count: 8)
        defer { failures.deallocate() }
        nonisolated(unsafe) let slots = failures  // one slot per thread
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            for _ in 0..<20 {
                do { try s.save(to: path) } catch { slots[t] += 1 }
            }
        }
        XCTAssertEqual((0..<8).map { failures[$0] }.reduce(0, +), 0)
        try assertSame(s, try PlaceSet.open(path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["concurrent.places"])
    }

    /// A second process opens the file while this one has it open, and answers the same.
    func testSecondProcess() throws {
        let path = directory + "/two.places"
        let s = try smallSet()
        try s.save(to: path)
        let o = try PlaceSet.open(path)
        let pid = fork()
        if pid == 0 {
            // The child: open, compare, exit with the verdict (no XCTest here).
            var ok = false
            if let child = try? PlaceSet.open(path), child.count == s.count,
               (try? child.nearest(to: c(38, -89), count: 5)) == (try? s.nearest(to: c(38, -89), count: 5)),
               child.name(at: 0) == "Mount Vernon" {
                ok = true
            }
            _exit(ok ? 0 : 1)
        }
        XCTAssertGreaterThan(pid, 0)
        var status: Int32 = 0
        XCTAssertEqual(waitpid(pid, &status, 0), pid)
        XCTAssertEqual(status, 0, "the second process could not open the file or answered otherwise")
        try assertSame(s, o)
    }

    /// The shipped gazetteer's TSV, saved and reopened, reverse-geocodes the same.
    func testGazetteerFromASavedFile() throws {
        let tsv = String(#filePath.dropLast("Tests/GeoLocTests/PlacesTests.swift".count)) + "data/gazetteer/cities1000.tsv"
        let fromTSV = try Gazetteer(path: tsv)
        let path = directory + "/cities1000.places"
        try fromTSV.places.save(to: path)
        let fromFile = try Gazetteer(path: path)
        XCTAssertEqual(fromFile.places.count, fromTSV.places.count)
        var g = SplitMix64(seed: 0x6A2E)
        for _ in 0..<500 {
            let q = c(g.latitude(), g.uniform(-180, 180))
            XCTAssertEqual(try fromFile.reverse(q), try fromTSV.reverse(q))
        }
        XCTAssertEqual(try fromFile.reverse(c(39.80, -89.64)).formatted(), "Springfield, IL")
    }
}

/// Issue 13 (hardening): what the attacker's runs found in the loaders and the WKT reader.
final class PlacesHardeningTests: XCTestCase {
    func testNulInCSVFieldIsAnIssue() throws {
        let load = try PlaceSet.load(csv: "lat,lon,name\n1,2,ab\u{0}cd\n3,4,ok\n")
        XCTAssertEqual(load.places.count, 1)
        XCTAssertEqual(load.places.name(at: 0), "ok")
        XCTAssertEqual(load.issues, [LoadIssue(record: 2, reason: "has a NUL byte")])
        assertThrows(.parse, { () throws(GeoLocError) in try PlaceSet.load(csv: "lat,lon,n\u{0}ame\n1,2,x\n") },
                     message: "line 1: the header has a NUL byte")
        assertThrows(.parse) { () throws(GeoLocError) in
            try PlaceSet.load(csv: "lat,lon,name\n1,2,a\u{0}\n", options: LoadOptions(strict: true))
        }
    }

    func testNulInGeoJSONStringIsMalformed() {
        let text = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"name":"ab\u0000cd"}}"#
        assertThrows(.parse) { () throws(GeoLocError) in try PlaceSet.load(geoJSON: text) }
    }

    func testIssuesAreBoundedAndCounted() throws {
        let rows = String(repeating: "x,y\n", count: 5000)
        let load = try PlaceSet.load(csv: "lat,lon\n1,2\n" + rows)
        XCTAssertEqual(load.places.count, 1)
        XCTAssertEqual(load.issues.count, LoadOptions.defaultMaxIssues)
        XCTAssertEqual(load.issueTotal, 5000)
        XCTAssertEqual(load.issues.last?.record, LoadOptions.defaultMaxIssues + 2)
        let few = try PlaceSet.load(csv: "lat,lon\n" + rows, options: LoadOptions(maxIssues: 3))
        XCTAssertEqual(few.issues.count, 3)
        XCTAssertEqual(few.issueTotal, 5000)
        // Strict mode still names the first bad row and counts the rest.
        assertThrows(.parse, { () throws(GeoLocError) in
            try PlaceSet.load(csv: "lat,lon\n" + rows, options: LoadOptions(strict: true, maxIssues: 0))
        }, message: "line 2: latitude \"x\" is not a decimal number (and 4999 more bad rows)")
    }

    func testMaxPlaces() throws {
        let text = "lat,lon\n1,2\n3,4\n5,6\n"
        XCTAssertEqual(try PlaceSet.load(csv: text, options: LoadOptions(maxPlaces: 3)).places.count, 3)
        assertThrows(.countTooLarge) { () throws(GeoLocError) in try PlaceSet.load(csv: text, options: LoadOptions(maxPlaces: 2)) }
        let json = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}},{"type":"Feature","geometry":{"type":"Point","coordinates":[3,4]},"properties":{}}]}"#
        XCTAssertEqual(try PlaceSet.load(geoJSON: json, options: LoadOptions(maxPlaces: 2)).places.count, 2)
        assertThrows(.countTooLarge) { () throws(GeoLocError) in try PlaceSet.load(geoJSON: json, options: LoadOptions(maxPlaces: 1)) }
    }

    func testWKTTrailingTextIsRefused() throws {
        assertThrows(.parse, { () throws(GeoLocError) in try Region(wkt: "POLYGON((0 0,1 0,1 1,0 1,0 0)) this is not WKT") },
                     message: "WKT: there is text after the geometry: \"this is not WKT\"")
        assertThrows(.parse) { () throws(GeoLocError) in try Region(wkt: "MULTIPOLYGON(((0 0,1 0,1 1,0 1,0 0)))x") }
        XCTAssertTrue(try Region(wkt: "  POLYGON((0 0,1 0,1 1,0 1,0 0)) \n").contains(try Coordinate(latitude: 0.5, longitude: 0.5)))
    }
}
