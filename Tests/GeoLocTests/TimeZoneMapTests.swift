@_spi(CABI) @_spi(Testing) @testable import GeoLoc
import Foundation
import XCTest

/// Time: the zone at a point on the shipped map (checked against timezonefinder's
/// full-precision answers in tests/golden/timezones.tsv).
final class TimeZoneMapTests: XCTestCase {
    func map() throws -> TimeZoneMap { try TimeZoneMap.shipped() }

    func zone(_ lat: Double, _ lon: Double) throws -> String {
        let m = try map()
        return m.name(try m.zone(at: Coordinate(latitude: lat, longitude: lon)))
    }

    func testShippedMap() throws {
        let m = try map()
        XCTAssertTrue(try TimeZoneMap.shipped() === m, "opened once, shared")
        XCTAssertEqual(m.count, 444)
        XCTAssertEqual(m.dataVersion, "2026c")
        XCTAssertTrue(m.source.contains("ODbL"))
        XCTAssertEqual(m.names, m.names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        XCTAssertEqual(m.zone(named: "Europe/Berlin").map(m.name), "Europe/Berlin")
        XCTAssertNil(m.zone(named: "Europe/Nowhere"))
    }

    func testGoldenZones() throws {
        let m = try map()
        let rows = try Golden.rows("timezones.tsv", columns: ["case", "lat", "lon", "zone", "utc_offset_hours"])
        XCTAssertGreaterThan(rows.count, 250)
        for row in rows {
            let c = try Coordinate(latitude: row.double("lat"), longitude: row.double("lon"))
            let z = try m.zone(at: c)
            XCTAssertEqual(m.name(z), row.text("zone"), row.text("case"))
            let hours = row.text("utc_offset_hours")
            XCTAssertEqual(m.nauticalOffsetHours(z), hours.isEmpty ? nil : Int(hours), row.text("case"))
        }
    }

    func testPlacesAndRules() throws {
        XCTAssertEqual(try zone(41.8781, -87.6298), "America/Chicago")
        // Xinjiang: the source's Asia/Urumqi overlaps Asia/Shanghai; the smaller zone wins.
        XCTAssertEqual(try zone(43.8256, 87.6168), "Asia/Urumqi")
        XCTAssertEqual(try zone(39.9042, 116.4074), "Asia/Shanghai")
        // The sea, and the sign of the nautical zones: Etc/GMT-5 is UTC+5.
        let m = try map()
        let indian = try m.zone(at: Coordinate(latitude: 0, longitude: 75))
        XCTAssertEqual(m.name(indian), "Etc/GMT-5")
        XCTAssertEqual(m.nauticalOffsetHours(indian), 5)
        XCTAssertEqual(try zone(-10, -105), "Etc/GMT+7")
        XCTAssertNil(m.nauticalOffsetHours(try m.zone(at: Coordinate(latitude: 41.8781, longitude: -87.6298))))
        // The antimeridian on either side, the poles.
        XCTAssertEqual(try zone(10, 179.9999), "Etc/GMT-12")
        XCTAssertEqual(try zone(10, -179.9999), "Etc/GMT+12")
        XCTAssertEqual(try zone(-16.5, 179.9999), "Pacific/Fiji")
        XCTAssertEqual(try zone(-16.5, -179.9999), "Pacific/Fiji")
        XCTAssertEqual(try zone(-90, 0), "Antarctica/McMurdo")
        XCTAssertEqual(try zone(90, 123.456), "Etc/GMT-8")
        // A longitude outside [-180, 180) is reduced first.
        XCTAssertEqual(try zone(41.8781, -87.6298 + 360), "America/Chicago")
        // The nautical zone of a longitude (the gap rule).
        XCTAssertEqual(m.name(m.nauticalZone(7.4999)), "Etc/GMT")
        XCTAssertEqual(m.name(m.nauticalZone(7.5)), "Etc/GMT-1")
        XCTAssertEqual(m.name(m.nauticalZone(-7.5)), "Etc/GMT")
        XCTAssertEqual(m.name(m.nauticalZone(-7.5001)), "Etc/GMT+1")
        XCTAssertEqual(m.name(m.nauticalZone(179.99)), "Etc/GMT-12")
        XCTAssertEqual(m.name(m.nauticalZone(-180)), "Etc/GMT+12")
    }

    func testManyMatchesOne() throws {
        let m = try map()
        var rng = SystemRandomNumberGenerator()
        var degrees: [Double] = []
        for _ in 0..<5000 {
            degrees.append(Double.random(in: -90...90, using: &rng))
            degrees.append(Double.random(in: -200...200, using: &rng))
        }
        var out = [UInt16](repeating: 0, count: 5000)
        try degrees.withUnsafeBufferPointer { d in
            try out.withUnsafeMutableBufferPointer { try m.zones(degrees: d, count: 5000, into: $0.baseAddress!) }
        }
        for i in 0..<5000 {
            let c = try Coordinate(latitude: degrees[2 * i], longitude: degrees[2 * i + 1])
            XCTAssertEqual(out[i], try m.zone(at: c).rawValue)
        }
        degrees[2 * 17] = .nan
        XCTAssertThrowsError(try degrees.withUnsafeBufferPointer { d in
            try out.withUnsafeMutableBufferPointer { try m.zones(degrees: d, count: 5000, into: $0.baseAddress!) }
        }) { error in
            XCTAssertEqual((error as? GeoLocError)?.code, .notFinite)
            XCTAssertTrue("\(error)".contains("points[17]"))
        }
    }

    /// The shipped file's bytes.
    func shippedBytes() throws -> [UInt8] {
        let path = try XCTUnwrap(TimeZoneMap.shippedSearchPaths.first { FileManager.default.fileExists(atPath: $0) })
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func testForgedFiles() throws {
        let original = try shippedBytes()
        func open(_ bytes: [UInt8]) -> GeoLocError? {
            do {
                _ = try bytes.withUnsafeBytes { try TimeZoneMap.open(fileBytes: $0) }
                return nil
            } catch let e as GeoLocError {
                return e
            } catch {
                XCTFail("\(error)")
                return nil
            }
        }
        XCTAssertNil(open(original))
        XCTAssertEqual(open(Array(original.prefix(1000)))?.code, .parse)  // truncated
        XCTAssertTrue(open(Array(original.prefix(1000)))?.message.contains("truncated") ?? false)
        var changed = original
        changed[300] ^= 0x10  // in the index: refused on open
        XCTAssertTrue(open(changed)?.message.contains("checksum") ?? false)
        var newer = original
        newer[8] = 3
        XCTAssertEqual(open(newer)?.code, .unsupported)
        newer[8] = 1  // the format before the borders were checked a block at a time
        XCTAssertEqual(open(newer)?.code, .unsupported)
        XCTAssertTrue(open(newer)?.message.contains("gen_timezones") ?? false)
        // A byte of the borders changed: the map opens, and its block fails its checksum when
        // first read (verify() reads them all).
        var border = original
        border[border.count - 5000] ^= 0x10
        let damaged = try border.withUnsafeBytes { try TimeZoneMap.open(fileBytes: $0) }
        XCTAssertThrowsError(try damaged.verify()) { XCTAssertTrue(($0 as? GeoLocError)?.message.contains("checksum") ?? false) }
        // Made to pass the checksum: the other checks still refuse an entry out of range.
        var forged = original
        let rootAt = 128 + 0  // the zones section starts at the header's end
        _ = rootAt
        forged[20] = 0xFF  // the zone count
        forged.withUnsafeMutableBytes { TimeZoneMap.reseal($0) }
        XCTAssertEqual(open(forged)?.code, .parse)
        // Random changes, resealed: every open either fails or gives a map whose lookups are
        // total (a zone in range, or a parse error), never a crash.
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<40 {
            var f = original
            for _ in 0..<8 {
                let i = Int.random(in: 128..<f.count, using: &rng)
                f[i] = UInt8.random(in: 0...255, using: &rng)
            }
            f.withUnsafeMutableBytes { TimeZoneMap.reseal($0) }
            guard let m = try? f.withUnsafeBytes({ try TimeZoneMap.open(fileBytes: $0) }) else { continue }
            for _ in 0..<2000 {
                let c = try Coordinate(
                    latitude: Double.random(in: -90...90, using: &rng), longitude: Double.random(in: -180..<180, using: &rng))
                if let z = try? m.zone(at: c) { XCTAssertLessThan(Int(z.rawValue), m.count) }
            }
        }
    }

    /// Leaf records forged and resealed (the checksums pass): each inconsistent field is refused
    /// with .parse naming it, by verify() and by every lookup that reads the record.
    func testForgedLeafRecords() throws {
        let original = try shippedBytes()
        let m = try map()
        try m.verify()  // the shipped map passes every check
        let leavesAt = m.mapping.base.distance(to: m.leaves)
        let index = try m.leafIndex()
        // The first record with a block of edges and a crossing of its east side; the bit
        // offsets of its fields.
        var found: (record: Int, zone: Int, crossing: Int, head: Int, count: Int, countWidth: Int)?
        for i in 0..<index.offsets.count where found == nil {
            let (_, _, h) = TimeZoneFile.LeafIndex.unpack(index.cells[i])
            var r = LeafBits(m.leaves, m.layout.leafBytes, Int(index.offsets[i]) * 8)
            let nz = Int(r.take(6)) + 1
            let zone = r.pos
            r.pos += nz * m.layout.zoneBits
            _ = r.mask(nz)
            let nt = Int(r.take(5))
            guard nt > 0 else { continue }
            let crossing = r.pos + h  // the first crossing's mask
            r.pos += nt * (h + nz)
            guard r.take(10) > 0 else { continue }
            _ = r.take(1)
            _ = r.mask(nz)
            r.pos += 10
            let head = r.pos
            r.pos += 14
            for _ in 0..<2 { r.pos += Int(r.take(5)) }
            let w = Int(r.take(5))
            found = (i, zone, crossing, head, r.pos, w)
        }
        let f = try XCTUnwrap(found)
        let (x0, y0, h) = TimeZoneFile.LeafIndex.unpack(index.cells[f.record])
        let inside = try Coordinate(
            latitude: Double(y0 + (1 << h) / 2 - Int(TimeZoneFile.yShift)) * 1e-7,
            longitude: Double(x0 + (1 << h) / 2 - Int(TimeZoneFile.xShift)) * 1e-7)
        func put(_ bytes: inout [UInt8], bit: Int, width: Int, _ value: Int) {
            for b in 0..<width {
                let at = leavesAt * 8 + bit + b
                if (value >> b) & 1 == 1 { bytes[at >> 3] |= 1 << (at & 7) } else { bytes[at >> 3] &= ~(1 << (at & 7)) }
            }
        }
        func get(bit: Int, width: Int) -> Int {
            var r = LeafBits(m.leaves, m.layout.leafBytes, bit)
            return Int(r.take(width))
        }
        func refused(_ forge: (inout [UInt8]) -> Void, _ field: String, line: UInt = #line) throws {
            var bytes = original
            forge(&bytes)
            bytes.withUnsafeMutableBytes { TimeZoneMap.reseal($0) }
            let forged = try bytes.withUnsafeBytes { try TimeZoneMap.open(fileBytes: $0) }  // the index is sound
            for _ in 0..<2 {
                XCTAssertThrowsError(try forged.zone(at: inside), line: line) {
                    XCTAssertEqual(($0 as? GeoLocError)?.code, .parse, line: line)
                    XCTAssertTrue(($0 as? GeoLocError)?.message.contains(field) ?? false, "\($0)", line: line)
                }
            }
            XCTAssertThrowsError(try forged.verify(), line: line)
        }
        let start = Int(index.offsets[f.record]) * 8
        try refused({ put(&$0, bit: start + f.zone, width: m.layout.zoneBits, (1 << m.layout.zoneBits) - 1) }, "zone \((1 << m.layout.zoneBits) - 1) is not below")
        let lo = get(bit: start + f.head + 6, width: 4), hi = get(bit: start + f.head + 10, width: 4)
        try refused({ put(&$0, bit: start + f.head + 10, width: 4, hi == 15 ? lo == 0 ? 1 : 0 : 15) }, "row span")
        let n = get(bit: start + f.count, width: f.countWidth)
        try refused({ put(&$0, bit: start + f.count, width: f.countWidth, n ^ 1) }, "bit count")
        // One zone swapped for another on the east side (a valid mask, a valid row): the
        // crossings no longer match the edges.
        let flip = get(bit: start + f.crossing, width: 1)
        try refused({ put(&$0, bit: start + f.crossing, width: 1, flip ^ 1) }, "east-side crossings do not match its edges")
    }

    func testThreads() throws {
        let m = try map()
        let expected = try m.zone(at: Coordinate(latitude: 52.52, longitude: 13.405))
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<10_000 {
                XCTAssertEqual(try? m.zone(at: Coordinate(latitude: 52.52, longitude: 13.405)), expected)
            }
        }
    }
}

/// Local time at a point: the zone at the point, then its rules; against zoneinfo at real places
/// (tests/time/places.txt, from tools/gen_time_place_cases.py).
final class LocalTimeAtPointTests: XCTestCase {
    private static let placesFile: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/GeoLocTests/TimeZoneMapTests.swift
        return parts.joined(separator: "/") + "/tests/time/places.txt"
    }()

    func testPlacesAgainstZoneinfo() throws {
        let text = try String(contentsOfFile: Self.placesFile, encoding: .utf8)
        let sameRelease = try ZoneRulesDatabase.shared().version == "2026f"  // the table's tzdata
        var rows = 0
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            XCTAssertEqual(f.count, 17, String(line))
            guard f.count == 17 else { continue }
            rows += 1
            let c = try Coordinate(latitude: Double(f[1])!, longitude: Double(f[2])!)
            let t = Int64(f[4])!
            let got = try LocalTime.at(c, instant: t)
            XCTAssertEqual(got.zone, f[3], f[0])
            XCTAssertEqual(got.zoneID, try TimeZoneMap.shipped().zone(at: c))
            XCTAssertEqual(got.localTime, try ZoneRules.named(f[3]).localTime(at: t))
            XCTAssertEqual(try TimeZoneMap.shipped().rules(at: c).name, try ZoneRules.named(f[3]).name)
            guard sameRelease else { continue }
            let lt = got.localTime
            let want = [f[5], f[6], f[7]] + Array(f[8...15])
            let have = [String(lt.utcOffset), lt.isDST ? "1" : "0", lt.abbreviation, String(lt.year), String(lt.month),
                        String(lt.day), String(lt.hour), String(lt.minute), String(lt.second), String(lt.weekday),
                        String(lt.dayOfYear)]
            XCTAssertEqual(have, want, "\(f[0]) at \(t)")
            if f[16] != "?" { XCTAssertEqual(lt.nextTransition, Int64(f[16]), "\(f[0]) at \(t)") }
        }
        XCTAssertGreaterThanOrEqual(rows, 80)
    }

    func testByHand() throws {
        let t: Int64 = 1_795_550_709  // 2026-11-24T20:05:09Z
        let kathmandu = try LocalTime.at(Coordinate(latitude: 27.717245, longitude: 85.323961), instant: t)
        XCTAssertEqual(kathmandu.zone, "Asia/Kathmandu")
        XCTAssertEqual(kathmandu.localTime.utcOffset, 5 * 3600 + 45 * 60)
        XCTAssertEqual([kathmandu.localTime.day, kathmandu.localTime.hour, kathmandu.localTime.minute], [25, 1, 50])
        let sea = try LocalTime.at(Coordinate(latitude: 0, longitude: -150), instant: t)
        XCTAssertEqual(sea.zone, "Etc/GMT+10")
        XCTAssertEqual(sea.localTime.utcOffset, -36_000)
        XCTAssertEqual(try LocalTime.at(Coordinate(latitude: -5, longitude: 179.9), instant: t).zone, "Etc/GMT-12")
        XCTAssertEqual(try LocalTime.at(Coordinate(latitude: -5, longitude: -179.9), instant: t).zone, "Etc/GMT+12")
        XCTAssertThrowsError(try LocalTime.at(Coordinate(latitude: 0, longitude: 0), instant: maxLocalTimeInstant + 1)) {
            XCTAssertEqual(($0 as? GeoLocError)?.code, .outOfRange)
        }
        // Every zone of the map has rules.
        let m = try TimeZoneMap.shipped()
        for name in m.names { XCTAssertNoThrow(try ZoneRules.named(name), name) }
    }
}

