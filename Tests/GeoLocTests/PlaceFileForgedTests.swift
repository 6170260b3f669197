@_spi(CABI) @_spi(Testing) @testable import GeoLoc
import Foundation
#if canImport(GeoLocKernels)
import GeoLocKernels
#endif
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Forged place files (issue 21, "a place file is validated, not trusted"): files edited and then
/// resealed with a fresh checksum, as another program, a cache or a download could hand over.
/// Each finding of the issue is a test named after it: every forged file is refused with `.parse`
/// and a message that says what is wrong, where 0.3 opened it and answered wrongly.
///
/// The files: 100 places without attributes saved as they are (version 3, no unit vectors), the
/// same set as version 2 wrote it (its vectors stored) and those bytes as version 1 (without
/// attributes the layouts of 1 and 2 are the same: 0.3 opens them), and the fixtures
/// tests/places/gazetteer-v1.places and places-v1.places (saved by libgeoloc 0.3.0).
final class PlaceFileForgedTests: XCTestCase {
    static let fixtures = String(#filePath.dropLast("Tests/GeoLocTests/PlaceFileForgedTests.swift".count)) + "tests/places/"

    func c(_ lat: Double, _ lon: Double) -> Coordinate { try! Coordinate(latitude: lat, longitude: lon) }

    /// The 100 places (ids "p0"..., names "Place 0"...): [version 1 bytes, version 2 bytes,
    /// version 4 bytes (saved)]; `versions` 1, 2, 3 below are these three.
    lazy var base: [[UInt8]] = {
        var g = SplitMix64(seed: 21)
        var b = PlaceSetBuilder()
        for i in 0..<100 {
            try! b.append(c(g.latitude(), g.uniform(-180, 180)), id: "p\(i)", name: "Place \(i)", attributes: [])
        }
        let set = try! b.build()
        let path = NSTemporaryDirectory() + "geoloc-forged-\(getpid()).places"
        try! set.save(to: path)
        defer { unlink(path) }
        let v3 = [UInt8](try! Data(contentsOf: URL(fileURLWithPath: path)))
        let v2 = try! set.placeFileBytes(version: 2)
        var v1 = v2
        v1[8] = 1
        v1.withUnsafeMutableBytes { PlaceSet.resealPlaceFile($0) }
        return [v1, v2, v3]
    }()

    func layout(_ file: [UInt8]) -> PlaceFileLayout {
        func u64(_ at: Int) -> Int { (0..<8).reduce(0) { $0 | Int(file[at + $1]) << (8 * $1) } }
        return PlaceFileLayout(
            version: UInt32(file[8]), count: u64(24), attributes: 0, numberedIDs: false, bucket: Int(file[20]),
            textBytes: u64(40), namesBytes: u64(48))!
    }

    func find(_ text: String, in file: [UInt8]) -> Int {
        let t = Array(text.utf8)
        return (0...(file.count - t.count)).first { Array(file[$0..<($0 + t.count)]) == t }!
    }

    func putDouble(_ v: Double, _ at: Int, _ f: inout [UInt8]) {
        for k in 0..<8 { f[at + k] = UInt8(truncatingIfNeeded: v.bitPattern >> (8 * UInt64(k))) }
    }

    func double(_ at: Int, _ f: [UInt8]) -> Double {
        Double(bitPattern: (0..<8).reduce(UInt64(0)) { $0 | UInt64(f[at + $1]) << (8 * UInt64($1)) })
    }

    /// Each base file edited by `edit`, resealed and opened: `.parse`, a message with `says`.
    func refused(_ says: String, versions: [Int] = [1, 2, 3], file: StaticString = #filePath, line: UInt = #line,
                 _ edit: (inout [UInt8], PlaceFileLayout) -> Void) {
        for v in versions {
            var bytes = base[v - 1]
            edit(&bytes, layout(bytes))
            refused(bytes, says, file: file, line: line)
        }
    }

    func refused(_ bytes: [UInt8], _ says: String, file: StaticString = #filePath, line: UInt = #line) {
        var bytes = bytes
        bytes.withUnsafeMutableBytes { PlaceSet.resealPlaceFile($0) }
        bytes.withUnsafeBytes { raw in
            do throws(GeoLocError) {
                let s = try PlaceSet.open(fileBytes: raw)
                XCTFail("a forged file opened (\(s.count) places); expected \(says)", file: file, line: line)
            } catch {
                XCTAssertEqual(error.code, .parse, error.message, file: file, line: line)
                XCTAssertTrue(error.message.contains("corrupted place file") && error.message.contains(says),
                              "\(error.message) does not say \(says)", file: file, line: line)
            }
        }
    }

    func testForgedFilesStartFromFilesThatOpen() throws {
        XCTAssertEqual(base[2][8], UInt8(PlaceFile.version))
        XCTAssertGreaterThan(base[1].count, base[2].count + 32 * 100, "version 4 stores no vectors, positions or gaps")
        for v in [1, 2, 3] {
            var bytes = base[v - 1]
            bytes.withUnsafeMutableBytes { PlaceSet.resealPlaceFile($0) }
            XCTAssertEqual(bytes, base[v - 1])
            let s = try bytes.withUnsafeBytes { raw throws(GeoLocError) in try PlaceSet.open(fileBytes: raw) }
            XCTAssertEqual(s.count, 100)
            XCTAssertEqual(s.name(at: 57), "Place 57")
        }
    }

    /// 0.3: a NUL inside a name gave the C door `needed` 4 with strlen 2.
    func testForgedNulInsideAnIdOrNameIsRefused() {
        refused("the name of place 57 holds a NUL byte") { f, _ in f[find("Place 57", in: f) + 2] = 0 }
        refused("the id of place 42 holds a NUL byte") { f, _ in f[find("p42Place", in: f) + 1] = 0 }
    }

    /// 0.3: invalid UTF-8 reached a C caller as U+FFFD.
    func testForgedInvalidUTF8IsRefused() {
        // A stray byte, a lead byte alone, a surrogate, overlong forms, above U+10FFFF.
        for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80]] {
            refused("the name of place 57 is not valid UTF-8") { f, _ in
                let at = find("Place 57", in: f) + 4
                f.replaceSubrange(at..<(at + bad.count), with: bad)
            }
        }
        // Valid as a whole, but "é" split between the name of place 1 and the id of place 2.
        refused("the name of place 1 is not valid UTF-8") { f, _ in
            let at = find("p2Place 2", in: f)
            f[at - 1] = 0xC3
            f[at] = 0xA9
        }
    }

    /// 0.3: a gazetteer opened on such a file answered reverse geocoding "Spring" (needed 15).
    func testForgedGazetteerWithANulInANameIsRefused() throws {
        let fixture = PlaceFileForgedTests.fixtures + "gazetteer-v1.places"
        var f = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture)))
        XCTAssertEqual(f[8], 1)
        f[find("Springfield", in: f) + 6] = 0
        f.withUnsafeMutableBytes { PlaceSet.resealPlaceFile($0) }
        let path = NSTemporaryDirectory() + "geoloc-forged-gazetteer-\(getpid()).places"
        try Data(f).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        assertThrows(.parse) { () throws(GeoLocError) in _ = try Gazetteer(path: path) }
        do {
            _ = try Gazetteer(path: path)
        } catch {
            XCTAssertTrue(error.message.contains("the name of place 0 holds a NUL byte"), error.message)
        }
        let g = try Gazetteer(path: fixture)
        XCTAssertEqual(try g.text(ofPlace: try XCTUnwrap(g.places.nearest(to: c(39.8, -89.6)).first).index), "Springfield, IL")
    }

    /// 0.3: NaN or zeroed unit vectors made nearest return 0 results. Files of versions 1 and 2
    /// store vectors, checked against the coordinates; version 3 stores none to forge.
    func testForgedNanOrZeroedUnitVectorsAreRefused() {
        refused("does not match its coordinates", versions: [1, 2]) { f, l in putDouble(.nan, l.points + 32 * 10, &f) }
        refused("does not match its coordinates", versions: [1, 2]) { f, l in
            for k in 0..<4 { putDouble(0, l.points + 32 * 10 + 8 * k, &f) }
        }
        refused("does not match its coordinates", versions: [1, 2]) { f, l in
            putDouble(0.5 * double(l.points + 32 * 10 + 24, f), l.points + 32 * 10 + 24, &f)
        }
    }

    /// 0.3: bad split gaps or boxes made a 20,000 km `within` find 0 of 100. (Version 3 stores
    /// no gaps: they are derived from the derived vectors; its box is checked.)
    func testForgedSplitGapsOrBoxAreRefused() {
        XCTAssertEqual(layout(base[1]).internalCount, 7)
        let gap = "of the index does not bound the points below it"
        refused(gap, versions: [1, 2]) { f, l in putDouble(-2, l.gaps, &f) }       // the root's left half reaches past its gap
        refused(gap, versions: [1, 2]) { f, l in putDouble(2, l.gaps + 8, &f) }    // its right half starts before its gap
        refused(gap, versions: [1, 2]) { f, l in putDouble(.nan, l.gaps + 16, &f) }
        refused("node 0 of the index", versions: [1, 2]) { f, l in                 // low above high
            let low = double(l.gaps, f), high = double(l.gaps + 8, f)
            putDouble(high + 0.5, l.gaps, &f)
            putDouble(low, l.gaps + 8, &f)
        }
        refused("bounding box does not hold its points") { f, _ in for k in 0..<3 { putDouble(-1, 88 + 8 * k, &f) } }
        refused("bounding box does not hold its points") { f, _ in putDouble(.nan, 64, &f) }
    }

    /// 0.3: place 58 came first at 3,024 km when it is 11,242 km away (a search finds a place by
    /// its vector and measures it from its coordinates). Two places exchange coordinates: in
    /// versions 1 and 2 the tree still holds their vectors; in version 3 their derived vectors
    /// follow them into subtrees whose gaps do not bound them.
    func testForgedCoordinatesThatLeaveTheirVectorsAreRefused() {
        let exchange = { (f: inout [UInt8], l: PlaceFileLayout) in
            let p = l.latLon + 16 * 5, q = l.latLon + 16 * 80
            let a = Array(f[p..<(p + 16)])
            f.replaceSubrange(p..<(p + 16), with: f[q..<(q + 16)])
            f.replaceSubrange(q..<(q + 16), with: a)
        }
        refused("does not match its coordinates", versions: [1, 2], exchange)
        refused("of the index does not bound the points below it", versions: [3], exchange)
    }

    /// 0.3: a file whose index maps all say place 0 returned index 0 five times.
    func testForgedRepeatedPlaceIndexIsRefused() {
        refused("index maps repeat a place") { f, l in for k in 0..<(4 * l.count) { f[l.ids + k] = 0 } }
        refused("index maps repeat a place") { f, l in for k in 0..<4 { f[l.ids + 4 + k] = f[l.ids + k] } }
    }

    /// Attribute values (a column's values in version 2, the places' strings in version 1) and
    /// names.
    func testForgedAttributeTextIsRefused() throws {
        var b = PlaceSetBuilder(attributeNames: ["state"])
        for (i, v) in ["Ohio", "Illinois", "Ohio"].enumerated() {
            try b.append(c(Double(i), Double(2 * i)), id: "i\(i)", name: "n\(i)", attributes: [v])
        }
        let path = NSTemporaryDirectory() + "geoloc-forged-attributes-\(getpid()).places"
        try b.build().save(to: path)
        defer { unlink(path) }
        let v2 = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let v1 = [UInt8](try Data(contentsOf: URL(fileURLWithPath: PlaceFileForgedTests.fixtures + "places-v1.places")))
        for (bad, says) in [(UInt8(0), "holds a NUL byte"), (0xFF, "is not valid UTF-8")] {
            var f = v2
            f[find("Illinois", in: f) + 3] = bad
            refused(f, "value 1 of attribute \"state\" \(says)")
            f = v1
            f[find("Land of Lincoln", in: f) + 3] = bad
            refused(f, "the value of attribute \"note\" of place 0 \(says)")
        }
        var f = v2
        f[find("state", in: f) + 2] = 0
        refused(f, "attribute name 0 holds a NUL byte")
    }

    func putU64(_ v: UInt64, _ at: Int, _ f: inout [UInt8]) {
        for k in 0..<8 { f[at + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt64(k))) }
    }

    func putU32(_ v: UInt32, _ at: Int, _ f: inout [UInt8]) {
        for k in 0..<4 { f[at + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) }
    }

    /// Header counts that overflow a size or do not fit the file: refused before anything is
    /// allocated or read by them, naming the count.
    func testForgedCountsThatOverflowOrLeaveTheFileAreRefused() {
        let edits: [(Int, UInt64, String)] = [
            (24, 1 << 62, "its count of places (4611686018427387904) is larger than the file could hold"),
            (24, .max, "its count of places"),
            (24, 101, "its counts (101 places, 0 attribute columns"),
            (32, 1 << 40, "its count of attribute columns (1099511627776)"),
            (40, 1 << 40, "its text's size in bytes (1099511627776)"),
            (40, 8, "make a file of"),
            (48, .max, "its attribute names' size in bytes"),
            (112, 6, "unknown flags 0x6"),
        ]
        for (at, value, says) in edits {
            refused(says) { f, _ in putU64(value, at, &f) }
        }
        refused("its leaf size 0 is not in 1...4096") { f, _ in putU32(0, 20, &f) }
        refused("its leaf size 8192 is not in 1...4096") { f, _ in putU32(8192, 20, &f) }
        for v in [1, 2, 3] {
            var f = base[v - 1]
            putU64(UInt64(f.count + 64), 56, &f)
            opened(f, .parse, "truncated place file")
            f = base[v - 1]
            putU32(PlaceFile.version + 1, 8, &f)
            opened(f, .unsupported, "place file version 5 is newer than this library reads (4)")
        }
        // A version 3 or 4 header on a version 2 file (the vectors where those have none) and
        // the other way round: the sizes disagree.
        for v: UInt32 in [3, 4] {
            var f = base[1]
            putU32(v, 8, &f)
            refused(f, "make a file of \(base[2].count) bytes, not \(base[1].count)")
        }
        var f = base[2]
        putU32(2, 8, &f)
        refused(f, "make a file of \(base[1].count) bytes, not \(base[2].count)")
    }

    /// The bytes, resealed, opened: the error `code` with a message holding `says`.
    func opened(_ bytes: [UInt8], _ code: GeoLocError.Code, _ says: String, file: StaticString = #filePath, line: UInt = #line) {
        var bytes = bytes
        bytes.withUnsafeMutableBytes { PlaceSet.resealPlaceFile($0) }
        bytes.withUnsafeBytes { raw in
            do throws(GeoLocError) {
                _ = try PlaceSet.open(fileBytes: raw)
                XCTFail("a forged file opened; expected \(says)", file: file, line: line)
            } catch {
                XCTAssertEqual(error.code, code, error.message, file: file, line: line)
                XCTAssertTrue(error.message.contains(says), "\(error.message) does not say \(says)", file: file, line: line)
            }
        }
    }

    /// Tree indices, positions and split dimensions out of range; coordinates out of range.
    func testForgedTreeIndicesOutOfRangeAreRefused() {
        refused("the place index at tree position 2 (100) is out of range (100 places)") { f, l in putU32(100, l.ids + 8, &f) }
        refused("the place index at tree position 3 (-1) is out of range") { f, l in putU32(.max, l.ids + 12, &f) }
        // (Version 3 stores no positions: they are derived from the ids.)
        refused("the tree position of place 7 (2147483647) is out of range", versions: [1, 2]) { f, l in
            putU32(0x7FFF_FFFF, l.positions + 28, &f)
        }
        refused("node 4 of the index splits along dimension 3, not 0, 1 or 2") { f, l in f[l.dims + 4] = 3 }
        refused("a coordinate is out of range (91,") { f, l in putDouble(91, l.latLon + 16 * 9, &f) }
        refused("a coordinate is out of range") { f, l in putDouble(.infinity, l.latLon + 16 * 9 + 8, &f) }
    }

    /// String offsets that leave the text.
    func testForgedTextOffsetsAreRefused() {
        refused("the text's offsets are out of order (string 11 ends at") { f, l in putU32(.max, l.ends + 40, &f) }
        refused("its last string ends at") { f, l in
            let at = l.ends + 4 * (l.strings - 1)
            let end = (0..<4).reduce(UInt32(0)) { $0 | UInt32(f[at + $1]) << (8 * UInt32($1)) }
            putU32(end + 1, at, &f)
        }
    }

    /// The column table and column sections (version 3), and the names section, pointing outside the
    /// file or past their values.
    func testForgedAttributeTablesPointingOutsideAreRefused() throws {
        var b = PlaceSetBuilder(attributeNames: ["state"])
        for (i, v) in ["Ohio", "Illinois", "Ohio"].enumerated() {
            try b.append(c(Double(1 + 2 * i), Double(2 + 2 * i)), id: "i\(i)", name: "n\(i)", attributes: [v])
        }
        let path = NSTemporaryDirectory() + "geoloc-forged-tables-\(getpid()).places"
        try b.build().save(to: path)
        defer { unlink(path) }
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let l = try XCTUnwrap(PlaceFileLayout(
            version: PlaceFile.version, count: 3, attributes: 1, numberedIDs: false, bucket: Int(file[20]), textBytes: Int(file[40]),
            namesBytes: 9, valueCounts: [2], valueBytes: [12]))
        XCTAssertEqual(l.size, file.count)
        XCTAssertEqual(Array(file[l.values[0]..<(l.values[0] + 12)]), Array("OhioIllinois".utf8))
        func edited(_ edit: (inout [UInt8]) -> Void) -> [UInt8] {
            var f = file
            edit(&f)
            return f
        }
        refused(edited { putU64(4, l.columns, &$0) }, "attribute column 0 has 4 distinct values for 3 places")
        refused(edited { putU64(1 << 40, l.columns + 8, &$0) },
                "the values of attribute column 0 (1099511627776 bytes) are larger than the file")
        refused(edited { putU64(100, l.columns + 8, &$0) }, "the column table's sizes) make a file of")
        refused(edited { $0[l.numbers[0] + 1] = 200 }, "a value number of attribute column 0 (200) is out of range (2 values)")
        refused(edited { putU64(1000, l.valueEnds[0], &$0) }, "the values of attribute column 0 are out of order")
        refused(edited { putU32(11, l.valueEnds[0] + 4, &$0) }, "the values of attribute column 0 are out of order")
        refused(edited { putU32(200, l.names, &$0) }, "attribute name 0 (200 bytes) runs past the end of the names section")
        refused(edited { putU32(4, l.names, &$0) }, "1 bytes after the attribute names")
        refused(edited { $0[l.names + 5] = 0xC0 }, "attribute name 0 is not valid UTF-8")
    }

    /// The text check agrees with the standard library's UTF-8 validation (plus "no NUL") on
    /// every slice of mixed texts, and never names a byte past the end: a slice that ends where
    /// a 16-byte step ends once read the byte after it.
    func testTextCheckOnEverySlice() {
        let texts = [Array("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH".utf8), Array("Zürich São Paulo Łódź 東京 abcdefghijklmnop𝄞".utf8),
                     Array("abc\u{0}defghijklmnopqrstu".utf8), [0x61, 0x62, 0xC3, 0x28, 0x61, 0x62, 0xED, 0xA0, 0x80, 0xF4, 0x90, 0x80, 0x80]]
        for t in texts {
            for start in 0..<t.count {
                for end in start...t.count {
                    let slice = Array(t[start..<end]) + [0]  // a zero after it, as the padding of a file
                    let valid = String(validating: slice[..<(end - start)], as: UTF8.self).map { !$0.utf8.contains(0) } ?? false
                    let bad = slice.withUnsafeBufferPointer { PlaceFileCheck.utf8Problem($0.baseAddress!, count: end - start).bad }
                    XCTAssertEqual(bad == nil, valid, "\(slice)")
                    if let bad { XCTAssertLessThan(bad, end - start) }
                }
            }
        }
    }

    /// The check's polynomial vectors agree with the index's (libm's) within the tolerance over a
    /// grid of coordinates, the poles, the equator and the antimeridian: a genuine file opens.
    func testVectorCheckAcceptsEveryCoordinate() {
        var worst = 0
        for lat in stride(from: -90.0, through: 90.0, by: 0.37) {
            for lon in stride(from: -180.0, to: 180.0, by: 0.53) {
                let v = unitVector(latitude: lat, longitude: lon)
                let w = cos(lat * (Double.pi / 180))
                worst += PlaceFileCheck.vectorMismatch(SIMD4(v.x, v.y, v.z, w), latitude: lat, longitude: lon) ? 1 : 0
            }
        }
        XCTAssertEqual(worst, 0)
        for (lat, lon) in [(90.0, 0.0), (-90.0, 179.9), (0.0, -180.0), (0.0, 90.0), (0.0, -90.0), (45.0, 135.0)] {
            let v = unitVector(latitude: lat, longitude: lon)
            XCTAssertFalse(PlaceFileCheck.vectorMismatch(
                SIMD4(v.x, v.y, v.z, cos(lat * (Double.pi / 180))), latitude: lat, longitude: lon))
        }
    }

    /// The leaves' vector check at each instruction set this CPU runs (the C kernel
    /// `glk_place_vectors` above the baseline) finds the same first mismatch as the Swift check,
    /// place by place, and the same box: genuine vectors over a grid, each then forged in one
    /// place (NaN, zero, a component 1e-14 or 3e-15 off, cos latitude 1e-14 relative off, a
    /// coordinate moved) at every place of runs of 1 to 9 (every lane and tail).
    func testVectorCheckKernelAgreesWithTheSwiftCheck() {
        var points: [SIMD4<Double>] = [], latLon: [Double] = []
        var g = SplitMix64(seed: 7)
        for k in 0..<4000 {
            let lat = k < 8 ? [90.0, -90, 0, 0, 89.999, -0.0, 45, 1e-300][k] : g.latitude()
            let lon = k < 8 ? [0.0, 179.9, -180, 90, -90, 180 - 1e-9, -0.0, 135][k] : g.uniform(-180, 180)
            let v = unitVector(latitude: lat, longitude: lon)
            points.append(SIMD4(v.x, v.y, v.z, cos(lat * (Double.pi / 180))))
            latLon += [lat, lon]
        }
        let forgeries: [(inout SIMD4<Double>, inout Double) -> Void] = [
            { v, _ in v.x = .nan }, { v, _ in v = .zero }, { v, _ in v.y += 1e-14 }, { v, _ in v.z -= 3e-15 },
            { v, _ in v.w *= 1 + 1e-14 }, { _, lat in lat = lat > 0 ? lat - 0.001 : lat + 0.001 }, { v, _ in v.x += 1e-16 },
        ]
        func swiftFirst(_ p: [SIMD4<Double>], _ ll: [Double], _ lo: Int, _ n: Int) -> Int {
            (lo..<(lo + n)).first { PlaceFileCheck.vectorMismatch(p[$0], latitude: ll[2 * $0], longitude: ll[2 * $0 + 1]) }
                .map { $0 - lo } ?? n
        }
        func kernel(_ p: [SIMD4<Double>], _ ll: [Double], _ lo: Int, _ n: Int, _ box: inout [Double], level: Int) -> Int {
            #if canImport(GeoLocKernels)
            return p.withUnsafeBytes { pb in
                ll.withUnsafeBufferPointer { lb in
                    box.withUnsafeMutableBufferPointer { bb in
                        glk_place_vectors(
                            pb.baseAddress!.assumingMemoryBound(to: Double.self) + 4 * lo, lb.baseAddress! + 2 * lo, n,
                            PlaceFileCheck.vectorTolerance, PlaceFileCheck.cosineTolerance, bb.baseAddress!, Int32(level))
                    }
                }
            }
            #else
            return -1
            #endif
        }
        var box = [Double](repeating: 0, count: 6)
        for level in 1...max(VectorMath.supportedLevel, 1) {
            guard kernel(points, latLon, 0, 4, &box, level: level) >= 0 else { continue }  // no kernel here
            // Genuine: every place passes, and the box is the places' own.
            XCTAssertEqual(kernel(points, latLon, 0, points.count, &box, level: level), points.count)
            for d in 0..<3 {
                XCTAssertEqual(box[d], points.map { $0[d] }.min()!)
                XCTAssertEqual(box[3 + d], points.map { $0[d] }.max()!)
            }
            for n in 1...9 {
                for bad in 0..<n {
                    for (f, forge) in forgeries.enumerated() {
                        var p = points, ll = latLon
                        let lo = 100 * n + bad
                        forge(&p[lo + bad], &ll[2 * (lo + bad)])
                        XCTAssertEqual(kernel(p, ll, lo, n, &box, level: level), swiftFirst(p, ll, lo, n),
                                       "level \(level), run of \(n), forgery \(f) at \(bad)")
                    }
                }
            }
        }
    }

    // MARK: derived vectors (versions 3 and 4)

    /// Coordinates over the globe, the poles, the equator, the antimeridian and signed zeros.
    func derivationCoordinates(_ count: Int) -> [Double] {
        var latLon: [Double] = []
        var g = SplitMix64(seed: 11)
        let specials: [(Double, Double)] = [(90, 0), (-90, 179.9), (0, -180), (0, 90), (0, -90), (89.999, 180 - 1e-9),
                                            (-0.0, -0.0), (45, 135), (1e-300, -1e-300), (-45, -135), (12.5, 90.0000001)]
        for k in 0..<count {
            let (lat, lon) = k < specials.count ? specials[k] : (g.latitude(), g.uniform(-180, 180))
            latLon += [lat, lon]
        }
        return latLon
    }

    /// The C kernel `glk_place_derive` at each instruction set this CPU runs gives the Swift
    /// loop's vectors to the bit (no fused multiply-add on either side), at every place of runs
    /// of 1 to 9 (every lane and tail), and the same box, in both arithmetics; cos latitude is
    /// `VectorMath.latitudeCosine`'s exactly, and version 3's x and y take libm's cosine.
    func testDerivationKernelGivesTheSwiftLoopsBits() {
        let latLon = derivationCoordinates(4000)
        let n = latLon.count / 2
        for arithmetic in [PlaceVectors.Arithmetic.polynomial, .libmCosine] {
            func derive(_ lo: Int, _ count: Int, level: Int) -> ([SIMD4<UInt64>], SIMD3<Double>, SIMD3<Double>) {
                var out = [SIMD4<Double>](repeating: SIMD4(repeating: .nan), count: count)
                let box = latLon.withUnsafeBufferPointer { ll in
                    out.withUnsafeMutableBufferPointer {
                        PlaceVectors.derive(latLon: ll.baseAddress! + 2 * lo, count: count, into: $0.baseAddress!, arithmetic: arithmetic, level: level)
                    }
                }
                return (out.map { SIMD4($0.x.bitPattern, $0.y.bitPattern, $0.z.bitPattern, $0.w.bitPattern) }, box.low, box.high)
            }
            let (swift, low, high) = derive(0, n, level: 0)
            for i in 0..<n {
                let phi = latLon[2 * i] * (Double.pi / 180)
                XCTAssertEqual(swift[i].w, VectorMath.latitudeCosine(phi).bitPattern, "cos latitude of place \(i)")
                let v = unitVector(latitude: latLon[2 * i], longitude: latLon[2 * i + 1])
                let d = SIMD3(Double(bitPattern: swift[i].x), Double(bitPattern: swift[i].y), Double(bitPattern: swift[i].z)) - v
                // (The polynomial's cosine is within 2.1 ulp of the exact one, libm's within 0.5.)
                XCTAssertLessThanOrEqual(max(abs(d.x), abs(d.y), abs(d.z)), 8e-16, "place \(i) against libm's vector")
                if arithmetic == .libmCosine {
                    let s = VectorMath.sinPoly(SIMD4(phi, 0, 0, 0))
                    XCTAssertEqual(swift[i].z, s[0].bitPattern, "sin latitude of place \(i)")
                    let poly = PlaceVectors.vector(latitude: latLon[2 * i], longitude: latLon[2 * i + 1])
                    let c = cos(phi), pc = VectorMath.latitudeCosine(phi)
                    if pc != 0 {
                        XCTAssertEqual(Double(bitPattern: swift[i].x), c * (poly.x / pc), accuracy: 4e-16)
                    }
                }
            }
            var levels = 0
            for level in 1...max(VectorMath.supportedLevel, 1) where level <= VectorMath.supportedLevel {
                levels += 1
                let (kernel, kLow, kHigh) = derive(0, n, level: level)
                XCTAssertEqual(kernel, swift, "level \(level), \(arithmetic)")
                XCTAssertEqual(kLow, low)
                XCTAssertEqual(kHigh, high)
                for count in 1...9 {
                    for lo in [0, 3, 1000 + count, n - count] {
                        let (k, _, _) = derive(lo, count, level: level)
                        XCTAssertEqual(k, Array(swift[lo..<(lo + count)]), "level \(level), \(count) places from \(lo)")
                    }
                }
            }
            if VectorMath.supportedLevel > 0 { XCTAssertGreaterThan(levels, 0) }
        }
    }

    /// The library's cosine of a latitude (`VectorMath.latitudeCosine`, no libm call) against
    /// libm's `cos` and the exact cosine (`cos` of Float80, 11 more bits) over a sweep of
    /// latitudes, dense near 0 where the cosine is nearest 1: at most 2 ulp from libm's, at most
    /// 2.1 ulp from the exact value (libm: 0.52 over the same sweep). Its scalar and four-lane
    /// forms give the same bits.
    func testLatitudeCosineAgainstLibm() {
        var worstLibm = 0.0, worstExact = 0.0
        var latitudes: [Double] = (0...90_000).map { Double($0) * 1e-3 }
        latitudes += (0...20_000).map { Double($0) * 1e-7 }
        latitudes += [89.999999999, 90, 1e-300, 0.5e-8]
        for lat in latitudes {
            for phi in [lat * (Double.pi / 180), -lat * (Double.pi / 180)] {
                let c = VectorMath.latitudeCosine(phi)
                let ulp = cos(phi).ulp
                worstLibm = max(worstLibm, abs(c - cos(phi)) / ulp)
                #if arch(x86_64) && !os(Windows)
                let exact = cos(Float80(phi))
                worstExact = max(worstExact, Double(abs(Float80(c) - exact) / Float80(Double(exact).ulp)))
                #endif
                XCTAssertEqual(VectorMath.sinPoly(SIMD4(repeating: (VectorMath.pio2Hi - abs(phi)) + VectorMath.pio2Lo))[2].bitPattern,
                               c.bitPattern)
            }
        }
        XCTAssertLessThanOrEqual(worstLibm, 2.0)
        XCTAssertLessThanOrEqual(worstExact, 2.1)
    }

    /// tests/places/numbered-v3.places: 3,000 places uniform on the sphere (numbered ids) saved
    /// by libgeoloc 0.6.0, whose tree was built on x and y from libm's cosine: it opens (its
    /// vectors derived as 0.6 derived them), answers as the set built anew from its coordinates,
    /// index and distance to the bit, every distance `haversineDistance`'s; saved again it is a
    /// file of version 4 whose tree is built anew.
    func testVersion3FileOfLibgeoloc06AnswersAsItsPlaces() throws {
        let path = PlaceFileForgedTests.fixtures + "numbered-v3.places"
        let v3 = try PlaceSet.open(path)
        XCTAssertEqual(v3.count, 3000)
        XCTAssertEqual(v3.kdtree.derived?.treeArithmetic, .libmCosine)
        var b = PlaceSetBuilder()
        for i in 0..<v3.count { try b.append(v3.coordinate(at: i), id: "\(i + 1)", name: "", attributes: []) }
        let made = try b.build()
        let bytes = try v3.placeFileBytes(version: PlaceFile.version)
        let v4 = try bytes.withUnsafeBytes { raw throws(GeoLocError) in try PlaceSet.open(fileBytes: raw) }
        XCTAssertEqual(v4.kdtree.derived?.treeArithmetic, .polynomial)
        var g = SplitMix64(seed: 23)
        var answers = 0
        for k in 0..<400 {
            let q = k % 2 == 0 ? v3.coordinate(at: g.int(3000)) : c(g.latitude(), g.uniform(-180, 180))
            for ask in [{ (s: PlaceSet) in try s.nearest(to: q, count: 1) }, { try $0.nearest(to: q, count: 10) },
                        { try $0.within(500, .kilometers, of: q) }] {
                let a = try ask(v3), m = try ask(made), n = try ask(v4)
                XCTAssertEqual(a.map { $0.index }, m.map { $0.index })
                XCTAssertEqual(a.map { $0.index }, n.map { $0.index })
                XCTAssertEqual(a.map { $0.distance.bitPattern }, m.map { $0.distance.bitPattern })
                XCTAssertEqual(a.map { $0.distance.bitPattern }, n.map { $0.distance.bitPattern })
                answers += a.count
            }
            if let first = try v3.nearest(to: q, count: 1).first {
                let p = v3.coordinate(at: first.index)
                XCTAssertEqual(first.distance.bitPattern,
                               haversineDistance(lat1: q.latitude, lon1: q.longitude, lat2: p.latitude, lon2: p.longitude).bitPattern)
            }
        }
        XCTAssertGreaterThan(answers, 1000)
    }

    /// A set saved (version 4, and version 2: its stored vectors, their fourth lane the
    /// library's cosine on open) and opened again has the very vectors it was built with, in
    /// the same tree: every point to the bit, every tree position and gap.
    func testReopenedSetHasTheBuiltVectorsToTheBit() throws {
        let latLon = derivationCoordinates(5000)
        var b = PlaceSetBuilder()
        for i in 0..<(latLon.count / 2) { try b.append(c(latLon[2 * i], latLon[2 * i + 1]), id: "\(i)", name: "", attributes: []) }
        let built = try b.build()
        for version: UInt32 in [2, PlaceFile.version] {
            let bytes = try built.placeFileBytes(version: version)
            let opened = try bytes.withUnsafeBytes { raw throws(GeoLocError) in try PlaceSet.open(fileBytes: raw) }
            XCTAssertEqual(opened.kdtree.derived?.treeArithmetic, version == 2 ? nil : .polynomial)
            XCTAssertEqual(opened.kdtree.boxLow, built.kdtree.boxLow * SIMD4(1, 1, 1, 0))
            for p in 0..<built.count {
                let a = built.kdtree.points[p], o = opened.kdtree.points[p]
                XCTAssertEqual(SIMD4(a.x.bitPattern, a.y.bitPattern, a.z.bitPattern, a.w.bitPattern),
                               SIMD4(o.x.bitPattern, o.y.bitPattern, o.z.bitPattern, o.w.bitPattern), "version \(version), position \(p)")
                XCTAssertEqual(built.kdtree.ids[p], opened.kdtree.ids[p])
                XCTAssertEqual(built.kdtree.position(of: p), opened.kdtree.position(of: p))
            }
            for k in 0..<(2 * built.kdtree.internalCount) { XCTAssertEqual(built.kdtree.gaps[k], opened.kdtree.gaps[k], "gap \(k)") }
        }
    }

    /// The open's derivation of the whole tree by the C kernel (`glk_place_derive_tree`, at each
    /// instruction set this CPU runs) gives the Swift walk's vectors, gaps and box to the bit:
    /// on sets whose leaves hold 1 to 24 places (trees of 0 to 8 levels), and on the file of
    /// version 3 (x and y from libm's cosine).
    func testTreeDerivationKernelGivesTheWalksBits() throws {
        var sets: [PlaceSet] = [try PlaceSet.open(PlaceFileForgedTests.fixtures + "numbered-v3.places")]
        for n in [1, 24, 25, 100, 777, 5000] {
            let latLon = derivationCoordinates(n)
            var b = PlaceSetBuilder()
            for i in 0..<n { try b.append(c(latLon[2 * i], latLon[2 * i + 1]), id: "\(i)", name: "", attributes: []) }
            let bytes = try b.build().placeFileBytes(version: PlaceFile.version)
            sets.append(try bytes.withUnsafeBytes { raw throws(GeoLocError) in try PlaceSet.open(fileBytes: raw) })
        }
        var kernels = 0
        for set in sets {
            let t = set.kdtree, d = try XCTUnwrap(t.derived)
            let arithmetic = try XCTUnwrap(d.treeArithmetic)
            func derived(level: Int) throws -> ([UInt64], [UInt64]) {
                for p in 0..<t.count { d.points[p] = SIMD4(repeating: .nan) }
                for k in 0..<(2 * t.internalCount) { d.gaps[k] = .nan }
                try PlaceFileCheck.tree(t, derive: true, arithmetic: arithmetic, level: level)
                let points = (0..<t.count).flatMap { p in
                    [d.points[p].x.bitPattern, d.points[p].y.bitPattern, d.points[p].z.bitPattern, d.points[p].w.bitPattern]
                }
                return (points, (0..<(2 * t.internalCount)).map { d.gaps[$0].bitPattern })
            }
            let (points, gaps) = try derived(level: 0)
            for level in 1...max(VectorMath.supportedLevel, 1) where level <= VectorMath.supportedLevel {
                kernels += 1
                let (kPoints, kGaps) = try derived(level: level)
                XCTAssertEqual(kPoints, points, "\(t.count) places, level \(level)")
                XCTAssertEqual(kGaps, gaps, "\(t.count) places, level \(level)")
            }
        }
        if VectorMath.supportedLevel > 0 { XCTAssertGreaterThan(kernels, 0) }
    }

    /// A set opened from a file of version 4 makes its tree positions on their first use, by
    /// whichever threads ask at once (each coordinate asked from eight threads at the same time
    /// on a fresh set), and they are the built set's.
    func testTreePositionsMadeOnFirstUseByManyThreads() throws {
        let latLon = derivationCoordinates(20_000)
        var b = PlaceSetBuilder()
        for i in 0..<(latLon.count / 2) { try b.append(c(latLon[2 * i], latLon[2 * i + 1]), id: "\(i)", name: "", attributes: []) }
        let built = try b.build()
        let bytes = try built.placeFileBytes(version: PlaceFile.version)
        for _ in 0..<5 {
            let opened = try bytes.withUnsafeBytes { raw throws(GeoLocError) in try PlaceSet.open(fileBytes: raw) }
            let wrong = UnsafeMutablePointer<Int>.allocate(capacity: 8)
            defer { wrong.deallocate() }
            wrong.initialize(repeating: 0, count: 8)
            nonisolated(unsafe) let slots = wrong  // one slot per thread
            DispatchQueue.concurrentPerform(iterations: 8) { t in
                for i in stride(from: t, to: built.count, by: 3) where opened.coordinate(at: i) != built.coordinate(at: i) {
                    slots[t] += 1
                }
            }
            XCTAssertEqual((0..<8).map { wrong[$0] }, Array(repeating: 0, count: 8))
            for i in 0..<built.count { XCTAssertEqual(opened.kdtree.position(of: i), built.kdtree.position(of: i)) }
        }
    }

    /// The old format and the new answer alike on the shipped gazetteer: the file libgeoloc 0.5
    /// wrote (version 2, the vectors of libm's sine and cosine stored, the tree's gaps and box
    /// those vectors give) against version 4 (vectors derived on open), every query kind, each
    /// result's index and distance to the bit.
    func testOldAndNewFormatsAnswerAlikeOnTheGazetteer() throws {
        let set = try Gazetteer.shipped().places
        var v2 = try set.placeFileBytes(version: 2)
        let l = layout(v2, attributes: set.attributeNames.count)
        let n = set.count
        // The points as 0.5 made them (libm), then every node's gaps and the box from them.
        var points = [SIMD4<Double>](repeating: .zero, count: n)
        for p in 0..<n {
            let lat = double(l.latLon + 16 * p, v2), lon = double(l.latLon + 16 * p + 8, v2)
            let v = unitVector(latitude: lat, longitude: lon)
            points[p] = SIMD4(v.x, v.y, v.z, cos(lat * (Double.pi / 180)))
            for k in 0..<4 { putDouble(points[p][k], l.points + 32 * p + 8 * k, &v2) }
        }
        func box(node: Int, lo: Int, hi: Int) -> (SIMD3<Double>, SIMD3<Double>) {
            if node >= l.internalCount {
                var low = SIMD3(repeating: Double.infinity), high = SIMD3(repeating: -Double.infinity)
                for p in lo..<hi {
                    low = pointwiseMin(low, SIMD3(points[p].x, points[p].y, points[p].z))
                    high = pointwiseMax(high, SIMD3(points[p].x, points[p].y, points[p].z))
                }
                return (low, high)
            }
            let mid = lo + (hi - lo) / 2
            let left = box(node: 2 * node + 1, lo: lo, hi: mid), right = box(node: 2 * node + 2, lo: mid, hi: hi)
            let d = Int(v2[l.dims + node])
            putDouble(left.1[d], l.gaps + 16 * node, &v2)
            putDouble(right.0[d], l.gaps + 16 * node + 8, &v2)
            return (pointwiseMin(left.0, right.0), pointwiseMax(left.1, right.1))
        }
        let (low, high) = box(node: 0, lo: 0, hi: n)
        for k in 0..<3 {
            putDouble(low[k], 64 + 8 * k, &v2)
            putDouble(high[k], 88 + 8 * k, &v2)
        }
        v2.withUnsafeMutableBytes { PlaceSet.resealPlaceFile($0) }
        let v4 = try set.placeFileBytes(version: PlaceFile.version)
        let old = try v2.withUnsafeBytes { raw throws(GeoLocError) in try PlaceSet.open(fileBytes: raw) }
        let new = try v4.withUnsafeBytes { raw throws(GeoLocError) in try PlaceSet.open(fileBytes: raw) }
        XCTAssertTrue(old.kdtree.derived?.treeArithmetic == nil && new.kdtree.derived?.treeArithmetic == .polynomial)
        var differing = 0
        for p in 0..<n where points[p] != new.kdtree.points[p] { differing += 1 }
        XCTAssertGreaterThan(differing, 0, "libm's vectors and the derived ones differ in last bits: the comparison means something")
        // Queries: beside places (2 km Gaussian offsets), the places themselves, and anywhere.
        var g = SplitMix64(seed: 19)
        var queries: [Coordinate] = []
        for k in 0..<1500 {
            let p = set.coordinate(at: g.int(n))
            switch k % 3 {
            case 0: queries.append(p)
            case 1: queries.append(c(max(-90, min(90, p.latitude + g.uniform(-0.02, 0.02))), max(-180, min(179.99, p.longitude + g.uniform(-0.02, 0.02)))))
            default: queries.append(c(g.latitude(), g.uniform(-180, 180)))
            }
        }
        func same(_ a: [PlaceMatch], _ b: [PlaceMatch]) -> Bool {
            a.map { $0.index } == b.map { $0.index } && a.map { $0.distance.bitPattern } == b.map { $0.distance.bitPattern }
        }
        var answers = 0
        for q in queries {
            for k in [1, 10] {
                let a = try old.nearest(to: q, count: k, unit: .kilometers), b = try new.nearest(to: q, count: k, unit: .kilometers)
                XCTAssertTrue(same(a, b), "nearest \(k) to \(q)")
                answers += a.count
            }
            for r in [8.0, 80.0] {
                let a = try old.within(r, .kilometers, of: q), b = try new.within(r, .kilometers, of: q)
                XCTAssertTrue(same(a, b), "within \(r) km of \(q)")
                answers += a.count
            }
            let a = try old.nearest(to: q, count: 3, model: .wgs84), b = try new.nearest(to: q, count: 3, model: .wgs84)
            XCTAssertTrue(same(a, b), "nearest 3 (WGS84) to \(q)")
        }
        XCTAssertGreaterThan(answers, 100_000)
    }

    func layout(_ file: [UInt8], attributes a: Int) -> PlaceFileLayout {
        func u64(_ at: Int) -> Int { (0..<8).reduce(0) { $0 | Int(file[at + $1]) << (8 * $1) } }
        let counts = (0..<a).map { u64(128 + 16 * $0) }, bytes = (0..<a).map { u64(128 + 16 * $0 + 8) }
        return PlaceFileLayout(
            version: UInt32(file[8]), count: u64(24), attributes: a, numberedIDs: u64(112) == 1, bucket: Int(file[20]) | Int(file[21]) << 8,
            textBytes: u64(40), namesBytes: u64(48), valueCounts: counts, valueBytes: bytes)!
    }
}
