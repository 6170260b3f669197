@testable import GeoLoc
import XCTest

/// Routes: the seed's mileage rules, rounding, ETA; the golden mileage and ETA cases.
final class RouteTests: XCTestCase {
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

    func testGoldenMileage() throws {
        for row in try Golden.rows("mileage.tsv") {
            let name = row.text("name")
            let stopsField = row.text("stops")
            let stops: [String?] = stopsField.isEmpty ? [] : stopsField.components(separatedBy: " | ").map { Golden.unescape($0) }
            do {
                let m = try mileage(home: row.field("home"), stops: stops, roundTrip: row.text("round_trip") == "1",
                                    unit: unit(row.text("unit")))
                let expectedStatus = row.text("status")
                XCTAssertEqual(m.homeProblem == nil ? "OK" : "E_HOME_INVALID", expectedStatus, name)
                XCTAssertEqual(m.text, row.text("text"), name)
                XCTAssertEqual(m.total, row.double("total"), accuracy: 1e-12 * max(1, m.total), name)
                XCTAssertEqual(m.stopsUsed, Int(row.text("stops_used")), name)
                XCTAssertEqual(m.skippedStops.map(String.init).joined(separator: ","), row.text("skipped"), name)
                let legs = row.text("legs").isEmpty ? [] : row.text("legs").split(separator: ";").map(String.init)
                XCTAssertEqual(m.legs.count, legs.count, name)
                for (leg, spec) in zip(m.legs, legs) {
                    let (ends, dist) = (spec.split(separator: "=")[0], Double(spec.split(separator: "=")[1])!)
                    let parts = ends.split(separator: ">").map { Int($0)! }
                    XCTAssertEqual(leg.from ?? -1, parts[0], name)
                    XCTAssertEqual(leg.to ?? -1, parts[1], name)
                    XCTAssertEqual(leg.distance, dist, accuracy: 1e-12 * max(1, dist), name)
                }
            } catch {
                XCTAssertEqual(statusName(error.code), row.text("status"), name)
            }
        }
    }

    func testGoldenEta() throws {
        for row in try Golden.rows("eta.tsv") {
            do {
                let m = try etaMinutes(distance: row.double("distance"), speedPerHour: row.double("speed_per_hour"),
                                       unit: unit(row.text("unit")), detourFactor: row.double("detour"))
                XCTAssertEqual("OK", row.text("status"))
                XCTAssertEqual(m, Int64(row.text("minutes")))
            } catch {
                XCTAssertEqual(statusName(error.code), row.text("status"), "\(row)")
            }
        }
    }
}
