@testable import GeoLoc
import XCTest

/// Weather codes: the seed's labels and "Rain, 45°F"; the golden weather cases.
final class WeatherTests: XCTestCase {
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

    func testGoldenWeather() throws {
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
