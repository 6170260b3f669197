import GeoLoc
import XCTest

/// The shared golden cases, through the Swift API.
final class GoldenTests: XCTestCase {
    func statusName(_ code: GeoLocError.Code?) -> String {
        guard let code else { return "OK" }
        switch code {
        case .nullArgument: return "E_NULL_ARGUMENT"
        case .notFinite: return "E_NOT_FINITE"
        case .outOfRange: return "E_OUT_OF_RANGE"
        case .invalidArgument: return "E_INVALID_ARGUMENT"
        case .parse: return "E_PARSE"
        case .bufferTooSmall: return "E_BUFFER_TOO_SMALL"
        case .invalidUTF8: return "E_INVALID_UTF8"
        case .countTooLarge: return "E_COUNT_TOO_LARGE"
        case .noHome: return "E_NO_HOME"
        case .homeInvalid: return "E_HOME_INVALID"
        case .unknownCode: return "E_UNKNOWN_CODE"
        case .notFound: return "E_NOT_FOUND"
        case .unsupported: return "E_UNSUPPORTED"
        case .noMemory: return "E_NO_MEMORY"
        case .internalError: return "E_INTERNAL"
        }
    }

    func unit(_ name: String) -> DistanceUnit {
        switch name {
        case "METERS": return .meters
        case "KILOMETERS": return .kilometers
        case "MILES": return .miles
        case "NAUTICAL_MILES": return .nauticalMiles
        case "FEET": return .feet
        default: XCTFail("unknown unit \(name)"); return .meters
        }
    }

    func testCoordParse() throws {
        for row in try Golden.rows("coord_parse.tsv") {
            let input = row.text("input")
            do {
                let c = try Coordinate(parsing: input)
                XCTAssertEqual("OK", row.text("status"), "input \(input.debugDescription)")
                XCTAssertEqual(c.latitude, row.double("lat"), "input \(input.debugDescription)")
                XCTAssertEqual(c.longitude, row.double("lon"), "input \(input.debugDescription)")
                XCTAssertEqual(c.latitude.sign, row.double("lat").sign, "input \(input.debugDescription)")
            } catch {
                XCTAssertEqual(statusName(error.code), row.text("status"), "input \(input.debugDescription): \(error.message)")
                XCTAssertFalse(error.message.isEmpty)
            }
        }
    }

    func testCoordFormat() throws {
        for row in try Golden.rows("coord_format.tsv") {
            let c = try Coordinate(latitude: row.double("lat"), longitude: row.double("lon"))
            let style: CoordinateStyle = row.text("style") == "COMPACT" ? .compact : .readable
            XCTAssertEqual(c.formatted(style), row.text("expected"))
        }
    }

    func testDistance() throws {
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

    func testDistanceText() throws {
        for row in try Golden.rows("distance_text.tsv") {
            XCTAssertEqual(try distanceText(meters: row.double("meters"), unit: unit(row.text("unit"))), row.text("expected"))
        }
    }

    func testMileage() throws {
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

    func testEta() throws {
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

    func testWeather() throws {
        for row in try Golden.rows("weather.tsv") {
            let code = WeatherCode(Int(row.text("code"))!)
            let daylight: Daylight = ["UNKNOWN": .unknown, "DAY": .day, "NIGHT": .night][row.text("daylight")]!
            let given: TemperatureUnit = row.text("given") == "C" ? .celsius : .fahrenheit
            let shown: TemperatureUnit = row.text("shown") == "C" ? .celsius : .fahrenheit
            XCTAssertEqual(code.label(daylight: daylight), row.text("label"))
            XCTAssertEqual(code.isDocumented, row.text("status") != "E_UNKNOWN_CODE")
            do {
                let text = try weatherCondition(code: code, temperature: row.double("temperature"), given: given,
                                                shown: shown, daylight: daylight)
                XCTAssertEqual(text, row.text("text"))
                XCTAssertTrue(row.text("status") == "OK" || row.text("status") == "E_UNKNOWN_CODE")
            } catch {
                XCTAssertEqual(statusName(error.code), row.text("status"), "\(row)")
            }
        }
    }
}
