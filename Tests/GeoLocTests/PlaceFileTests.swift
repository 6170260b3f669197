@_spi(Testing) @_spi(CABI) @testable import GeoLoc
import Foundation
import XCTest

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
        let layout = try XCTUnwrap(PlaceFileLayout(
            count: 5, attributes: 2, numberedIDs: false, bucket: UnitVectorTree.bucket,
            textBytes: Int(file[40]) | Int(file[41]) << 8, namesBytes: 4 + 2 + 4 + 6))
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
        refused("a position out of range") { put32(7, layout.positions + 8, &$0) }
        refused("a latitude above 90") { put64((90.5).bitPattern, layout.latLon, &$0) }
        refused("a NaN longitude") { put64(Double.nan.bitPattern, layout.latLon + 8, &$0) }
        refused("longitude 180") { put64((180.0).bitPattern, layout.latLon + 24, &$0) }
        refused("string ends out of order") { put32(1000, layout.ends, &$0) }
        refused("more places than bytes") { put64(6, 24, &$0) }
        refused("an unknown flag") { put64(2, 112, &$0) }
        refused("a leaf size of 0") { put32(0, 20, &$0) }
        refused("an attribute name that is not UTF-8") { $0[layout.names + 4] = 0xFF }
        // A duplicate attribute name: "ab" and "ac", the second made "ab".
        var b = PlaceSetBuilder(attributeNames: ["ab", "ac"])
        try b.append(c(1, 2), id: "i", name: "n", attributes: ["x", "y"])
        try b.build().save(to: directory + "/dup.places")
        var dup = try bytes(directory + "/dup.places")
        let names = try XCTUnwrap(PlaceFileLayout(
            count: 1, attributes: 2, numberedIDs: false, bucket: UnitVectorTree.bucket, textBytes: 4, namesBytes: 12)).names
        XCTAssertEqual(dup[names + 4 + 2 + 4 + 1], UInt8(ascii: "c"))
        dup[names + 4 + 2 + 4 + 1] = UInt8(ascii: "b")
        dup.withUnsafeMutableBytes { PlaceSet.resealPlaceFile($0) }
        dup.withUnsafeBytes { raw in
            assertThrows(.parse) { () throws(GeoLocError) in _ = try PlaceSet.open(fileBytes: raw) }
        }
        var newer = file
        put32(2, 8, &newer)
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
        let tsv = String(#filePath.dropLast("Tests/GeoLocTests/PlaceFileTests.swift".count)) + "data/gazetteer/cities1000.tsv"
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
