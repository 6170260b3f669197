@testable import GeoLoc
import XCTest

/// Shared basics: coordinates (parsing, styles, checks), units, distance text, error codes; the
/// golden coordinate and distance-text cases.
final class CoreTests: XCTestCase {
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

    func testDistanceText() throws {
        // The mosque finder's String(format: "%.1f miles", d).
        XCTAssertEqual(try distanceText(meters: 8047), "5.0 miles")
        XCTAssertEqual(try distanceText(meters: 1609.344), "1.0 miles")
        XCTAssertEqual(try distanceText(meters: 5149.3, unit: .miles), "3.2 miles")
        XCTAssertEqual(try distanceText(meters: 1234, unit: .kilometers), "1.2 km")
        assertThrows(.outOfRange) { () throws(GeoLocError) in try distanceText(meters: -1) }
        assertThrows(.notFinite) { () throws(GeoLocError) in try distanceText(meters: .infinity) }
    }

    func testErrorCodesAreStable() {
        XCTAssertEqual(GeoLocError.Code.allCases.map(\.rawValue), Array(1...17))
        XCTAssertEqual(maxCount, 1 << 30)
    }

    func testGoldenCoordParse() throws {
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

    func testGoldenCoordFormat() throws {
        for row in try Golden.rows("coord_format.tsv") {
            let c = try Coordinate(latitude: row.double("lat"), longitude: row.double("lon"))
            let style: CoordinateStyle = row.text("style") == "COMPACT" ? .compact : .readable
            XCTAssertEqual(c.formatted(style), row.text("expected"))
        }
    }

    func testGoldenDistanceText() throws {
        for row in try Golden.rows("distance_text.tsv") {
            XCTAssertEqual(try distanceText(meters: row.double("meters"), unit: unit(row.text("unit"))), row.text("expected"))
        }
    }

    // Issue 13 (hardening): a result that is not finite is an error, never a value.
    func testConvertOverflowIsNotFinite() throws {
        assertThrows(.notFinite, { () throws(GeoLocError) in try convert(1e308, from: .nauticalMiles, to: .feet) },
                     message: "length 1e+308 nmi overflows to infinity in ft")
        assertThrows(.notFinite) { () throws(GeoLocError) in try convert(1.7e308, from: .kilometers, to: .meters) }
        // An intermediate overflow whose result is finite still converts.
        XCTAssertEqual(try convert(1.7e308, from: .kilometers, to: .miles), 1.7e308 * (1000 / 1609.344))
        XCTAssertEqual(try convert(-1e308, from: .meters, to: .kilometers), -1e305)
    }

    func testDistanceTextOverflowIsNotFinite() throws {
        assertThrows(.notFinite) { () throws(GeoLocError) in try distanceText(meters: 1e308, unit: .feet) }
        XCTAssertTrue(try distanceText(meters: 1e308, unit: .kilometers).hasSuffix("0.0 km"))
    }

    func testFormattedLongitudeStaysBelow180AfterRounding() throws {
        for lon in [179.9999995, -180.0000001, 539.9999999, 179.99999951, -180.0000004] {
            let c = try Coordinate(latitude: 1, longitude: lon)
            XCTAssertEqual(c.formatted(), "1.000000,-180.000000", "\(lon)")
        }
        XCTAssertEqual(try Coordinate(latitude: 1, longitude: 179.9999994).formatted(), "1.000000,179.999999")
        XCTAssertEqual(try Coordinate(latitude: 1, longitude: -179.9999996).formatted(), "1.000000,-180.000000")
    }

    func testHugeNumberMessageIsShort() {
        let digits = String(repeating: "1", count: 1_000_000)
        do {
            _ = try Coordinate(parsing: digits + ",1")
            XCTFail("parsed")
        } catch {
            XCTAssertEqual(error.code, .notFinite)
            XCTAssertLessThan(error.message.utf8.count, 200)
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// Loading files (Core/Files.swift, Core/Load.swift): every loader opens its file the same way
/// and under the same limits.
final class LoadingTests: XCTestCase {
    /// Every loader, by name.
    let loaders: [(String, (String) throws(GeoLocError) -> Void)] = [
        ("PlaceSet.open", { (p) throws(GeoLocError) in _ = try PlaceSet.open(p) }),
        ("PlaceSet.load(csvFile:)", { (p) throws(GeoLocError) in _ = try PlaceSet.load(csvFile: p) }),
        ("PlaceSet.load(geoJSONFile:)", { (p) throws(GeoLocError) in _ = try PlaceSet.load(geoJSONFile: p) }),
        ("TrackFormat.readGPX(file:)", { (p) throws(GeoLocError) in _ = try TrackFormat.readGPX(file: p) }),
        ("TrackFormat.readGeoJSON(file:)", { (p) throws(GeoLocError) in _ = try TrackFormat.readGeoJSON(file: p) }),
        ("Gazetteer(path:)", { (p) throws(GeoLocError) in _ = try Gazetteer(path: p) }),
    ]

    func temporaryDirectory() -> String {
        var template = Array("/tmp/geoloc-swift-test-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    /// Issue 21, "files that are not files": a FIFO blocked every loader forever, /dev/zero and
    /// /dev/urandom were read until memory ran out. Each is refused at once; no timing asserted
    /// (a hang would stop the run, which is the failure).
    func testFilesThatAreNotFiles() {
        let dir = temporaryDirectory()
        let fifo = dir + "/fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo); rmdir(dir) }
        for (name, load) in loaders {
            for path in ["/dev/zero", "/dev/urandom", fifo, dir] {
                do {
                    try load(path)
                    XCTFail("\(name)(\(path)) loaded")
                } catch {
                    XCTAssertEqual(error.code, .invalidArgument, "\(name)(\(path)): \(error.message)")
                    XCTAssertTrue(error.message.contains(path == dir ? "Is a directory" : "not a regular file"), error.message)
                }
            }
        }
    }

    func testMissingFileIsNotFound() {
        for (name, load) in loaders {
            do {
                try load("/nonexistent/geoloc/file")
                XCTFail(name)
            } catch {
                XCTAssertEqual(error.code, .notFound, "\(name): \(error.message)")
            }
        }
    }

    /// Issue 21: a byte limit and a record limit on every load.
    func testLoadLimitsBytesAndRecords() throws {
        let csv = "lat,lon,name\n1,2,a\n3,4,b\n5,6,c\nx,y,bad\n"
        let dir = temporaryDirectory()
        let path = dir + "/p.csv"
        defer { unlink(path); rmdir(dir) }
        let f = fopen(path, "w")!
        fputs(csv, f)
        fclose(f)
        let n = csv.utf8.count
        XCTAssertEqual(try PlaceSet.load(csvFile: path, options: LoadOptions(maxBytes: n)).places.count, 3)
        assertThrows(.countTooLarge) { () throws(GeoLocError) in
            try PlaceSet.load(csvFile: path, options: LoadOptions(maxBytes: n - 1))
        }
        assertThrows(.countTooLarge) { () throws(GeoLocError) in
            try PlaceSet.load(csv: csv, options: LoadOptions(maxBytes: 10))
        }
        XCTAssertEqual(try PlaceSet.load(csv: csv, options: LoadOptions(maxRecords: 4)).places.count, 3)
        assertThrows(.countTooLarge) { () throws(GeoLocError) in
            try PlaceSet.load(csv: csv, options: LoadOptions(maxRecords: 3))
        }
        XCTAssertEqual(LoadOptions().maxBytes, maxCount)
        XCTAssertEqual(LoadOptions().maxRecords, maxCount)
    }

    /// The issue log keeps at most its limit of issues and counts the rest (track loads kept
    /// every issue before the log's default became the load's).
    func testIssueLogIsBounded() {
        var log = IssueLog(strict: false)
        for i in 0..<5000 { log.add(i, "bad") }
        XCTAssertEqual(log.issues.count, LoadOptions.defaultMaxIssues)
        XCTAssertEqual(log.total, 5000)
    }

    /// The header every data file starts with, checked by Core (MappedFile.checkHeader): each
    /// refusal with its code and the format's name.
    func testDataFileHeaderChecks() throws {
        let magic = Array("GEOLOCZZ".utf8)
        func file(size: Int = 256, _ change: (UnsafeMutableRawBufferPointer) -> Void = { _ in }) -> [UInt8] {
            var b = [UInt8](repeating: 0, count: size)
            b.withUnsafeMutableBytes { p in
                for (k, m) in magic.enumerated() { p[k] = m }
                p.storeBytes(of: UInt32(2).littleEndian, toByteOffset: 8, as: UInt32.self)
                p.storeBytes(of: UInt32(0x0102_0304).littleEndian, toByteOffset: 12, as: UInt32.self)
                p.storeBytes(of: UInt32(128).littleEndian, toByteOffset: 16, as: UInt32.self)
                p.storeBytes(of: UInt64(size).littleEndian, toByteOffset: 24, as: UInt64.self)
                change(p)
                DataFileChecksum.seal(p)
            }
            return b
        }
        func check(_ bytes: [UInt8]) throws(GeoLocError) -> UInt32 {
            var made: Result<MappedFile, GeoLocError>!
            bytes.withUnsafeBytes { p in made = Result { () throws(GeoLocError) in try MappedFile(copying: p) } }
            let m = try made.get()
            return try m.checkHeader(magic: magic, versions: 1...2, sizeOffset: 24, name: "test file", plural: "test files")
        }
        XCTAssertEqual(try check(file()), 2)
        assertThrows(.parse, { () throws(GeoLocError) in try check(Array(file().prefix(100))) }, message: "not a libgeoloc test file")
        assertThrows(.unsupported) { () throws(GeoLocError) in try check(file { $0.storeBytes(of: UInt32(3), toByteOffset: 8, as: UInt32.self) }) }
        assertThrows(.parse) { () throws(GeoLocError) in try check(file { $0.storeBytes(of: UInt32(0), toByteOffset: 8, as: UInt32.self) }) }
        assertThrows(.unsupported) { () throws(GeoLocError) in
            try check(file { $0.storeBytes(of: UInt32(0x0403_0201), toByteOffset: 12, as: UInt32.self) })
        }
        assertThrows(.parse, { () throws(GeoLocError) in
            try check(file { $0.storeBytes(of: UInt64(300), toByteOffset: 24, as: UInt64.self) })
        }, message: "truncated test file: 256 bytes of the 300 its header gives")
        var changed = file()
        changed[200] ^= 1
        assertThrows(.parse, { () throws(GeoLocError) in try check(changed) }, message: "corrupted test file: the checksum does not match")
    }

    /// The shipped data's search paths: the environment's file first, the source tree's last; and
    /// the once-per-process cache remembers a value but not a failure.
    func testShippedDataPathsAndOncePerProcess() throws {
        setenv("GEOLOC_TEST_SHIPPED", "/somewhere/x.bin", 1)
        defer { unsetenv("GEOLOC_TEST_SHIPPED") }
        let paths = ShippedData.searchPaths("x.bin", environment: "GEOLOC_TEST_SHIPPED", sourceFolder: "time")
        XCTAssertEqual(paths.first, "/somewhere/x.bin")
        XCTAssertTrue(paths.last!.hasSuffix("/data/time/x.bin"), paths.last!)
        XCTAssertEqual(Set(paths).count, paths.count)
        XCTAssertTrue(paths.dropFirst().allSatisfy { $0.hasPrefix("/") && !$0.contains("/../") })
        XCTAssertEqual(ShippedData.searchPaths("x.bin", environment: nil, sourceFolder: "time"), Array(paths.dropFirst()))

        final class Box { let n: Int; init(_ n: Int) { self.n = n } }
        var calls = 0
        let once = OncePerProcess<Box> { () throws(GeoLocError) -> Box in
            calls += 1
            if calls == 1 { throw GeoLocError(.notFound, "not yet") }
            return Box(calls)
        }
        assertThrows(.notFound) { () throws(GeoLocError) in try once.get() }
        XCTAssertEqual(try once.get().n, 2)
        XCTAssertEqual(try once.get().n, 2)
        XCTAssertEqual(calls, 2)
    }
}
