@testable import GeoLoc
import XCTest

/// The Swift door: seed examples, bad input, and the invariants the C and Python doors rely on.
final class CoreTests: XCTestCase {
    // MARK: coordinates

    func testSeedCoordinateStyles() throws {
        let c = try Coordinate(parsing: "38.321991,-88.867400")
        XCTAssertEqual(c.latitude, 38.321991)
        XCTAssertEqual(c.longitude, -88.8674)
        XCTAssertEqual(c.formatted(.compact), "38.321991,-88.867400")
        XCTAssertEqual(c.formatted(.readable), "38.321991, -88.867400")
        XCTAssertEqual(try Coordinate(parsing: "38.321991, -88.867400"), c)
        XCTAssertEqual(c.description, "38.321991,-88.867400")
    }

    func testCoordinateRejects() {
        for text in ["", "abc", "38.3", "38.3,-88.8,1", "nan,0", "38.3,-88.8 trailing", "0x10,0", "inf,0"] {
            assertThrows(.parse) { () throws(GeoLocError) in try Coordinate(parsing: text) }
        }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try Coordinate(parsing: "91,0") }
        assertThrows(.notFinite) { () throws(GeoLocError) in try Coordinate(parsing: "1e999,0") }
        assertThrows(.notFinite) { () throws(GeoLocError) in try Coordinate(latitude: .nan, longitude: 0) }
        assertThrows(.notFinite) { () throws(GeoLocError) in try Coordinate(latitude: 0, longitude: -.infinity) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try Coordinate(latitude: 90.0000001, longitude: 0) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try Coordinate(latitude: -90.0000001, longitude: 0) }
    }

    func testLongitudeNormalisation() throws {
        XCTAssertEqual(normalizedLongitude(180), -180)
        XCTAssertEqual(normalizedLongitude(-180), -180)
        XCTAssertEqual(normalizedLongitude(179.5), 179.5)
        XCTAssertEqual(normalizedLongitude(540), -180)
        XCTAssertEqual(normalizedLongitude(-190.5), 169.5)
        XCTAssertEqual(normalizedLongitude(360 * 1000 + 12.25), 12.25)
        XCTAssertEqual(normalizedLongitude(1e300), normalizedLongitude(1e300))  // finite, in range
        let big = normalizedLongitude(1e300)
        XCTAssertTrue(big >= -180 && big < 180)
        XCTAssertEqual(try Coordinate(latitude: 0, longitude: 200).longitude, -160)
    }

    // MARK: distance

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

    func testDistanceText() throws {
        // The mosque finder's String(format: "%.1f miles", d).
        XCTAssertEqual(try distanceText(meters: 8047), "5.0 miles")
        XCTAssertEqual(try distanceText(meters: 1609.344), "1.0 miles")
        XCTAssertEqual(try distanceText(meters: 5149.3, unit: .miles), "3.2 miles")
        XCTAssertEqual(try distanceText(meters: 1234, unit: .kilometers), "1.2 km")
        assertThrows(.outOfRange) { () throws(GeoLocError) in try distanceText(meters: -1) }
        assertThrows(.notFinite) { () throws(GeoLocError) in try distanceText(meters: .infinity) }
    }

    // MARK: routes and mileage

    func testSeedMileageRules() throws {
        let home = "38.321991,-88.867400"
        // No home at all: an error the caller shows ("set up your home location").
        for h in [nil, "", "   "] as [String?] {
            assertThrows(.noHome) { () throws(GeoLocError) in try mileage(home: h, stops: ["38.5,-89.1"]) }
        }
        // Malformed home: "0", with the reason.
        let bad = try mileage(home: "38.3;-88.8", stops: ["38.5,-89.1"])
        XCTAssertEqual(bad.text, "0")
        XCTAssertEqual(bad.homeProblem?.code, .homeInvalid)
        XCTAssertEqual(bad.skippedStops, [0])
        // No stops: "0".
        let none = try mileage(home: home, stops: [])
        XCTAssertEqual(none.text, "0")
        XCTAssertNil(none.homeProblem)
        // A bad stop is skipped, the rest count.
        let some = try mileage(home: home, stops: ["38.525050,-89.133404", nil, "oops", "38.626995,-88.945610"])
        XCTAssertEqual(some.skippedStops, [1, 2])
        XCTAssertEqual(some.stopsUsed, 2)
        XCTAssertEqual(some.legs.map { $0.from }, [nil, 0, 3])
        XCTAssertEqual(some.legs.map { $0.to }, [0, 3, nil])
        XCTAssertEqual(some.total, some.legs.reduce(0) { $0 + $1.distance })
        let open = try mileage(home: home, stops: ["38.525050,-89.133404", "38.626995,-88.945610"], roundTrip: false)
        XCTAssertEqual(open.legs.count, 2)
        XCTAssertEqual(open.legs.last?.to, 1)
        // The text is the rounded total with one decimal, "123.4".
        XCTAssertEqual(some.text.split(separator: ".").last?.count, 1)
        XCTAssertEqual(Double(some.text), some.rounded)
    }

    func testMileageRoundingHalfAwayFromZero() throws {
        // The design's Swift rounds with .rounded(): ties away from zero.
        XCTAssertEqual(roundToTenth(0.25), 0.3)
        XCTAssertEqual(roundToTenth(-0.25), -0.3)
        XCTAssertEqual(roundToTenth(123.45), 123.5)
        XCTAssertEqual(roundToTenth(123.44), 123.4)
        XCTAssertEqual(roundToTenth(0.04), 0)
        let r = try routeLength([try Coordinate(latitude: 0, longitude: 0), try Coordinate(latitude: 0, longitude: 1)],
                                closed: true, unit: .miles)
        XCTAssertEqual(r.legs.count, 2)
        XCTAssertEqual(r.total, 2 * r.legs[0])
        XCTAssertEqual(try routeLength([], unit: .miles).legs, [])
    }

    func testEta() throws {
        XCTAssertEqual(try etaMinutes(distance: 30, speedPerHour: 60, unit: .miles), 30)
        XCTAssertEqual(try etaMinutes(distance: 30.1, speedPerHour: 60, unit: .miles), 31)
        XCTAssertEqual(try etaMinutes(distance: 0, speedPerHour: 60), 0)
        XCTAssertEqual(try etaMinutes(distance: 10, speedPerHour: 50, detourFactor: 1.3), 16)
        assertThrows(.outOfRange) { () throws(GeoLocError) in try etaMinutes(distance: 1, speedPerHour: 0) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try etaMinutes(distance: 1, speedPerHour: 10, detourFactor: 0.5) }
        assertThrows(.notFinite) { () throws(GeoLocError) in try etaMinutes(distance: .nan, speedPerHour: 10) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try etaMinutes(distance: 1e300, speedPerHour: 1e-300) }
    }

    // MARK: weather

    func testSeedWeatherLabels() throws {
        let seed: [Int: String] = [
            0: "Clear", 1: "Mainly Clear", 2: "Partly Cloudy", 3: "Overcast", 45: "Foggy", 48: "Foggy",
            51: "Light Drizzle", 53: "Drizzle", 55: "Heavy Drizzle", 61: "Light Rain", 63: "Rain", 65: "Heavy Rain",
            71: "Light Snow", 73: "Snow", 75: "Heavy Snow", 80: "Rain Showers", 81: "Heavy Showers",
            95: "Thunderstorm", 96: "Thunderstorm with Hail",
        ]
        for (code, label) in seed {
            XCTAssertEqual(WeatherCode(code).label(), label)
            XCTAssertEqual(WeatherCode(code).label(daylight: .night), label)
        }
        XCTAssertEqual(WeatherCode(0).label(daylight: .day), "Sunny")
        XCTAssertEqual(WeatherCode(1).label(daylight: .day), "Mainly Sunny")
        XCTAssertEqual(WeatherCode(4).label(), "Unknown")
        XCTAssertFalse(WeatherCode(4).isDocumented)
        XCTAssertEqual(WeatherCode.documented.count, 28)
        XCTAssertTrue(WeatherCode.documented.allSatisfy { $0.isDocumented && $0.label() != "Unknown" })
    }

    func testSeedWeatherCondition() throws {
        XCTAssertEqual(try weatherCondition(code: WeatherCode(63), temperature: 45.4), "Rain, 45°F")
        XCTAssertEqual(try weatherCondition(code: WeatherCode(63), temperature: 44.5), "Rain, 45°F")
        XCTAssertEqual(try weatherCondition(code: WeatherCode(63), temperature: 7.2, given: .celsius), "Rain, 7°C")
        XCTAssertEqual(try weatherCondition(code: WeatherCode(0), temperature: 22.2, given: .celsius, shown: .fahrenheit, daylight: .day), "Sunny, 72°F")
        XCTAssertEqual(try weatherCondition(code: WeatherCode(3), temperature: -0.4), "Overcast, 0°F")
        XCTAssertEqual(try weatherCondition(code: WeatherCode(3), temperature: -2.5, given: .celsius), "Overcast, -3°C")
        XCTAssertEqual(try weatherCondition(code: WeatherCode(1234), temperature: 72), "Unknown, 72°F")
        assertThrows(.notFinite) { () throws(GeoLocError) in try weatherCondition(code: WeatherCode(0), temperature: .nan) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try weatherCondition(code: WeatherCode(0), temperature: -460) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try weatherCondition(code: WeatherCode(0), temperature: 1e300) }
    }

    func testErrorCodesAreStable() {
        XCTAssertEqual(GeoLocError.Code.allCases.map(\.rawValue), Array(1...15))
        XCTAssertEqual(maxCount, 1 << 30)
    }
}
