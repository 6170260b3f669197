@_spi(CABI) @_spi(Testing) @testable import GeoLoc
import Foundation
import XCTest

/// Time beside the other capabilities: the zones of a reverse geocode (tests/golden/
/// locality_zones.tsv: places and points on both sides of zone borders, the zone at each point
/// from timezonefinder's full-precision boundaries, GeoNames' own column for the places), local
/// times at many points, and the local days of a track.
final class TimeBesideTests: XCTestCase {
    func testLocalityZonesGolden() throws {
        let map = try TimeZoneMap.shipped()
        let g = try Gazetteer.shipped()
        let rows = try Golden.rows("locality_zones.tsv", columns: ["case", "lat", "lon", "geonameid", "zone", "geonames_zone"])
        XCTAssertGreaterThan(rows.count, 250)
        var differ = 0
        for row in rows {
            let c = try Coordinate(latitude: row.double("lat"), longitude: row.double("lon"))
            let (m, z) = try g.locality(at: c, timezones: map)
            XCTAssertEqual(m, try g.locality(at: c), row.text("case"))
            XCTAssertEqual(map.name(z.zone), row.text("zone"), "\(row.text("case")) \(c)")
            XCTAssertEqual(z.placeZone, try map.zone(at: g.places.coordinate(at: m.named)))
            if z.zone != z.placeZone { differ += 1 }
            if !row.text("geonameid").isEmpty, let l = m.locality {
                XCTAssertEqual(g.places.id(at: l), row.text("geonameid"))
                XCTAssertEqual(z.placeZone, z.zone)
                if row.text("geonames_zone") == row.text("zone") { XCTAssertEqual(map.name(z.placeZone), row.text("geonames_zone")) }
            }
        }
        XCTAssertGreaterThanOrEqual(differ, 20, "the border rows: the point's zone and the named town's differ")
    }

    func testLocalTimesAtManyPoints() throws {
        let map = try TimeZoneMap.shipped()
        var points: [Coordinate] = []
        var instants: [Double] = []
        var x: UInt64 = 88172645463325252
        for _ in 0..<1000 {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            let lat = Double(x % 1_800_000) / 10_000 - 90
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            let lon = Double(x % 3_600_000) / 10_000 - 180
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            points.append(try Coordinate(latitude: lat, longitude: lon))
            instants.append(-2_208_988_800 + Double(x % 6_311_390_400) + 0.5)
        }
        let many = try map.localTimes(at: points, instants: instants)
        for i in 0..<points.count {
            XCTAssertEqual(many[i], try map.localTime(at: points[i], instant: Int64(instants[i].rounded(.down))))
        }
        XCTAssertThrowsError(try map.localTimes(at: points, instants: [0])) { XCTAssertEqual(($0 as? GeoLocError)?.code, .invalidArgument) }
        var bad = instants
        bad[7] = .nan
        XCTAssertThrowsError(try map.localTimes(at: points, instants: bad)) {
            XCTAssertEqual(($0 as? GeoLocError)?.code, .notFinite)
            XCTAssertTrue(($0 as? GeoLocError)?.message.contains("times[7]") ?? false)
        }
        XCTAssertEqual(try map.localTimes(at: [], instants: []), [])
    }

    func testTrackLocalDays() throws {
        let map = try TimeZoneMap.shipped()
        let t0 = 1_782_874_800.0, t6 = 1_782_900_000.0
        let rows: [(Double, Double, Double)] = [
            (41.8781, -87.6298, t0), (41.88, -87.60, t0 + 1800), (41.89, -87.55, t0 + 9000), (41.90, -87.50, .nan),
            (39.7684, -86.1581, t0 + 10800), (27.7172, 85.324, .nan), (27.7172, 85.325, t6), (27.72, 85.33, t6 + 30000),
            (27.73, 85.34, t6 + 30100),
        ]
        let fixes = rows.map { Fix(latitude: $0.0, longitude: $0.1, time: $0.2, accuracy: 5) }
        let days = try map.localDays(of: fixes, segments: [0..<5, 5..<9])
        XCTAssertEqual(days.map(\.date), [LocalDate(year: 2026, month: 6, day: 30), LocalDate(year: 2026, month: 7, day: 1),
                                          LocalDate(year: 2026, month: 7, day: 2)])
        XCTAssertEqual(days.map(\.weekday), [2, 3, 4])
        XCTAssertEqual(days.map(\.fixCount), [2, 5, 2])
        XCTAssertEqual(days.map(\.firstFix), [0, 2, 7])
        XCTAssertEqual(days.map(\.duration), [9000, 30000, 100])
        func leg(_ i: Int) -> Double {
            Coordinate(checkedLatitude: rows[i].0, longitude: rows[i].1).distance(
                to: Coordinate(checkedLatitude: rows[i + 1].0, longitude: rows[i + 1].1), model: .sphere, unit: .meters)
        }
        XCTAssertEqual(days[0].length, leg(0) + leg(1), accuracy: 1e-6)
        XCTAssertEqual(days[1].length, leg(2) + leg(3) + leg(5) + leg(6), accuracy: 1e-6)
        XCTAssertEqual(days[2].length, leg(7), accuracy: 1e-6)
        let timed = fixes.filter { !$0.time.isNaN }
        let times = try map.localTimes(of: timed)
        XCTAssertEqual(times.map(\.zone), ["America/Chicago", "America/Chicago", "America/Chicago", "America/Indiana/Indianapolis",
                                           "Asia/Kathmandu", "Asia/Kathmandu", "Asia/Kathmandu"])
        XCTAssertEqual(times.map(\.localTime.abbreviation).prefix(4), ["CDT", "CDT", "CDT", "EDT"])
        XCTAssertThrowsError(try map.localTimes(of: fixes))
        XCTAssertThrowsError(try map.localDays(of: fixes, segments: [5..<9, 0..<5]))
    }
}
