// Track files through the Swift door (issue 21): each finding a regression test named after it,
// and the real-device corpus (tests/tracks) against gpxpy 1.6.2's reading of it.
#if canImport(Glibc)
import Glibc
#endif
@testable import GeoLoc
import XCTest

final class TrackFilesTests: XCTestCase {
    private func gpx(_ text: String) throws -> TrackLoad { try TrackFormat.readGPX(text: text) }

    private func bytes(_ b: [UInt8]) throws(GeoLocError) -> TrackLoad {
        let r: Result<TrackLoad, GeoLocError> = b.withUnsafeBytes { raw in
            do throws(GeoLocError) { return .success(try TrackFormat.readGPX(raw)) } catch { return .failure(error) }
        }
        return try r.get()
    }

    func testSegmentsAreLost() throws {
        let t = try gpx("""
            <gpx><trk><name>Two rides</name>
            <trkseg><trkpt lat='45.0' lon='7.0'><time>2026-05-01T10:00:00Z</time></trkpt>
            <trkpt lat='45.001' lon='7.0'><time>2026-05-01T10:01:00Z</time></trkpt></trkseg>
            <trkseg><trkpt lat='46.0' lon='7.0'><time>2026-05-02T10:00:00Z</time></trkpt>
            <trkpt lat='46.0' lon='7.001'><time>2026-05-02T10:00:20Z</time></trkpt></trkseg></trk></gpx>
            """)
        XCTAssertEqual(t.segments.map(\.range), [0..<2, 2..<4])
        XCTAssertEqual(t.segmentOfPoint, [0, 0, 1, 1])
        XCTAssertEqual(t.pathNames, ["Two rides"])
        let m = try t.stats()
        let a = try distance(from: Coordinate(checkedLatitude: 45, longitude: 7), to: Coordinate(checkedLatitude: 45.001, longitude: 7))
        XCTAssertEqual(m.segments[0].length, a, accuracy: 1e-9)
        XCTAssertEqual(m.whole.duration, 80)
        XCTAssertEqual(m.whole.length, m.segments[0].length + m.segments[1].length)
        XCTAssertEqual(try Track.stats(t.fixes).duration, 86420)  // one run: the gap measured
    }

    func testEmptyEleDropsThePoint() throws {
        let t = try gpx("<gpx><trk><trkseg><trkpt lat='1' lon='2'><ele/></trkpt><trkpt lat='1' lon='3'><ele></ele><time/></trkpt>"
            + "</trkseg></trk></gpx>")
        XCTAssertEqual(t.points.count, 2)
        XCTAssertTrue(t.issues.isEmpty)
        XCTAssertTrue(t.points.altitude(0).isNaN && t.points.altitude(1).isNaN && t.points.time(1).isNaN)
    }

    func testPointsWithoutTimeAreDropped() throws {
        let t = try gpx("<gpx><trk><trkseg><trkpt lat='10' lon='20'><time>2026-01-01T00:00:00Z</time></trkpt>"
            + "<trkpt lat='10.001' lon='20'/><trkpt lat='10.002' lon='20'><time>2026-01-01T00:01:00Z</time></trkpt>"
            + "</trkseg></trk></gpx>")
        XCTAssertEqual(t.points.count, 3)
        XCTAssertTrue(t.timed && t.points.time(1).isNaN)
        let s = try t.stats().whole
        XCTAssertEqual([s.pointCount, s.timedCount], [3, 2])
        XCTAssertEqual(s.duration, 60)
        XCTAssertEqual(s.timedLength, s.length)
    }

    func testRoutesAndWaypointsAreIgnored() throws {
        let t = try gpx("""
            <gpx><wpt lat='48.1' lon='11.5'><time>2026-03-01T08:00:00Z</time><name>Start</name></wpt>
            <rte><name>loop</name><rtept lat='48.1' lon='11.5'><name>left</name></rtept><rtept lat='48.2' lon='11.6'/></rte></gpx>
            """)
        XCTAssertEqual(t.segments, [TrackSegment(first: 0, count: 2, path: 0, kind: .route)])
        XCTAssertEqual(t.fixes.count, 2)
        XCTAssertEqual(t.pathNames, ["loop"])
        XCTAssertEqual(t.points.name(0), "left")
        XCTAssertNil(t.points.name(1))
        XCTAssertEqual(t.waypoints.count, 1)
        XCTAssertEqual(t.waypoints.name(0), "Start")
        XCTAssertEqual(t.waypoints.time(0), 1_772_352_000)
    }

    func testDeclaredEncodingIsRefused() throws {
        let latin1: [UInt8] = Array("<?xml version='1.0' encoding='ISO-8859-1'?><gpx><wpt lat='1' lon='2'><name>Caf".utf8) + [0xE9]
            + Array("</name></wpt></gpx>".utf8)
        XCTAssertEqual(try bytes(latin1).waypoints.name(0), "Café")
        var utf16: [UInt8] = [0xFF, 0xFE]
        for u in "<gpx><wpt lat='1' lon='2'><name>Kraków</name></wpt></gpx>".utf16 { utf16 += [UInt8(u & 0xFF), UInt8(u >> 8)] }
        XCTAssertEqual(try bytes(utf16).waypoints.name(0), "Kraków")
        assertThrows(.unsupported) { () throws(GeoLocError) in try self.bytes(Array("<?xml version='1.0' encoding='KOI8-R'?><gpx/>".utf8)) }
        assertThrows(.invalidUTF8) { () throws(GeoLocError) in try self.bytes(Array("<gpx>".utf8) + [0xE9] + Array("</gpx>".utf8)) }
    }

    func testExtensionsIgnoredEntitiesRefused() throws {
        let t = try gpx("<gpx><trk><trkseg><trkpt lat='1' lon='2'><extensions><ele>9</ele></extensions></trkpt></trkseg></trk></gpx>")
        XCTAssertTrue(t.points.altitude(0).isNaN)
        assertThrows(.parse) { () throws(GeoLocError) in try TrackFormat.readGPX(text: "<!DOCTYPE gpx [<!ENTITY a 'b'>]><gpx/>") }
    }

    func testTrackLoadsKeepEveryIssue() throws {
        let t = try gpx("<gpx><trk><trkseg>" + String(repeating: "<trkpt lat='x' lon='1'/>", count: 1200) + "</trkseg></trk></gpx>")
        XCTAssertEqual(t.issues.count, 1000)
        XCTAssertEqual(t.issueTotal, 1200)
    }

    /// Every track loader of the Swift door, by name: with the default limits and with tight ones.
    private let fileLoaders: [(String, (String) throws(GeoLocError) -> TrackLoad)] = {
        let tight = LoadOptions(maxIssues: 1, maxBytes: 4096, maxRecords: 10)
        return [
            ("readGPX(file:)", { (p) throws(GeoLocError) in try TrackFormat.readGPX(file: p) }),
            ("readGeoJSON(file:)", { (p) throws(GeoLocError) in try TrackFormat.readGeoJSON(file: p) }),
            ("readGPX(file:options:)", { (p) throws(GeoLocError) in try TrackFormat.readGPX(file: p, options: tight) }),
            ("readGeoJSON(file:options:)", { (p) throws(GeoLocError) in try TrackFormat.readGeoJSON(file: p, options: tight) }),
        ]
    }()

    /// A FIFO, /dev/zero, /dev/urandom and a directory through every track loader: refused at
    /// once (a hang would stop the run, which is the failure; no timing asserted), in bounded
    /// memory.
    func testFilesThatAreNotFiles() {
        var template = Array("/tmp/geoloc-swift-track-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let fifo = dir + "/fifo.gpx"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo); rmdir(dir) }
        var before = rusage(), after = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &before)
        for (name, load) in fileLoaders {
            for path in [fifo, "/dev/zero", "/dev/urandom", dir] {
                do {
                    _ = try load(path)
                    XCTFail("\(name)(\(path)) loaded")
                } catch {
                    XCTAssertEqual(error.code, .invalidArgument, "\(name)(\(path)): \(error.message)")
                    XCTAssertTrue(error.message.contains(path == dir ? "Is a directory" : "not a regular file"), error.message)
                }
            }
        }
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &after)
        XCTAssertLessThan(after.ru_maxrss - before.ru_maxrss, 256 * 1024)  // kB
    }

    /// Issue 21 item 2: a byte limit, a record limit and an issue cap on every load,
    /// caller-settable: the record and byte limits refuse with a message naming the limit, from
    /// memory and from a file, in both formats.
    func testTrackLoadLimits() throws {
        // 5 GPX records (3 trkpt, one unusable, 1 rtept, 1 wpt) with 3 issues; 4 GeoJSON records
        // (3 positions, 1 Point feature) with 2.
        let gpxDoc = """
            <gpx><wpt lat='1' lon='1'/><trk><trkseg><trkpt lat='1' lon='2'><ele>x</ele></trkpt>\
            <trkpt lat='bad' lon='2'/><trkpt lat='1.1' lon='2'><time>never</time></trkpt></trkseg></trk>\
            <rte><rtept lat='3' lon='4'/></rte></gpx>
            """
        let jsonDoc = """
            {"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":\
            {"type":"LineString","coordinates":[[2,1,"x"],[2,91],[2,1.1]]}},{"type":"Feature",\
            "properties":{"name":"P"},"geometry":{"type":"Point","coordinates":[4,3]}}]}
            """
        for (doc, records, issues, isGPX) in [(gpxDoc, 5, 3, true), (jsonDoc, 4, 2, false)] {
            let path = "/tmp/geoloc-swift-limits-\(getpid())" + (isGPX ? ".gpx" : ".json")
            let f = fopen(path, "w")!
            fputs(doc, f)
            fclose(f)
            defer { unlink(path) }
            let len = doc.utf8.count
            let loads: [(String, (LoadOptions) throws(GeoLocError) -> TrackLoad)] = [
                ("text", { (o) throws(GeoLocError) in
                    try isGPX ? TrackFormat.readGPX(text: doc, options: o) : TrackFormat.readGeoJSON(text: doc, options: o)
                }),
                ("file", { (o) throws(GeoLocError) in
                    try isGPX ? TrackFormat.readGPX(file: path, options: o) : TrackFormat.readGeoJSON(file: path, options: o)
                }),
            ]
            for (from, load) in loads {
                let all = try load(LoadOptions(maxBytes: len, maxRecords: records))
                XCTAssertEqual(all.issueTotal, issues, from)
                XCTAssertEqual(all.issues.count, issues, from)
                do {
                    _ = try load(LoadOptions(maxBytes: len - 1))
                    XCTFail("\(from): max_bytes \(len - 1) loaded")
                } catch {
                    XCTAssertEqual(error.code, .countTooLarge, error.message)
                    XCTAssertTrue(error.message.contains("max_bytes \(len - 1)"), error.message)
                }
                do {
                    _ = try load(LoadOptions(maxRecords: records - 1))
                    XCTFail("\(from): max_records \(records - 1) loaded")
                } catch {
                    XCTAssertEqual(error.code, .countTooLarge, error.message)
                    XCTAssertTrue(error.message.contains("max_records \(records - 1)"), error.message)
                }
                let capped = try load(LoadOptions(maxIssues: 1))
                XCTAssertEqual(capped.issues.count, 1, from)
                XCTAssertEqual(capped.issueTotal, issues, from)
                assertThrows(.parse) { () throws(GeoLocError) in try load(LoadOptions(strict: true, maxBytes: len)) }
            }
        }
    }

    /// "GeoJSON track loads: max_records must bound memory": the positions are counted before
    /// the document is built, and that count never refuses what the reader admits: documents
    /// whose positions hide among members the reader ignores, each at every limit from 0 to its
    /// count + 1 (the same documents as tests/c/test_track_files.c), and a chunked count of a long
    /// line that stops at the limit.
    func testGeoJSONMaxRecordsBoundsMemory() throws {
        let docs: [(String, Int)] = [
            (#"{"type":"LineString","bbox":[1,2,3,4],"coordinates":[[1,2],[3,4],[5,6]]}"#, 3),
            (#"{"coordinates":[[1,2],[3,4],[5,6],[7,8]],"type":"LineString","coordinates":[[1,2]]}"#, 4),
            (#"{"type":"MultiLineString","coordinates":[[[1,2],[3,4]],[],[[5,6],[7,"x"],[9,10]]]}"#, 5),
            (#"{"type":"Feature","properties":{"coordinates":[[1,2],[3,4],[5,6]],"geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]}},"coordinates":[[9,9],[9,9],[9,9],[9,9]],"geometry":{"coordinates":[[1,2],[3,4]],"type":"LineString"}}"#, 2),
            (#"{"features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"time":"2026-01-01T00:00:00Z"}},{"type":"Feature","properties":{"times":[1,2,3]},"geometry":{"type":"LineString","coordinates":[[1,2],[3,4],[5,6]]}},{"type":"Feature","geometry":{"type":"MultiLineString","coordinates":[[[1,2]],[[3,4],[5,6]]]}}],"type":"FeatureCollection","bbox":[0,0,9,9]}"#, 7),
            (#"{"type":"Feature","geometry":{"type":"LineString","\u0063oordinates":[[1,2]],"coordinates":[[1,2],[3,4],[5,6]]},"properties":{"name":"\"coordinates\": [["}}"#, 1),
        ]
        for (d, (doc, records)) in docs.enumerated() {
            for limit in 0...(records + 1) {
                do {
                    _ = try TrackFormat.readGeoJSON(text: doc, options: LoadOptions(maxRecords: limit))
                    XCTAssertGreaterThanOrEqual(limit, records, "document \(d) loaded at max_records \(limit)")
                } catch {
                    XCTAssertEqual(error.code, .countTooLarge, "document \(d): \(error.message)")
                    XCTAssertLessThan(limit, records, "document \(d) refused at max_records \(limit): \(error.message)")
                }
            }
        }
        // A line of 100,000 positions fed in chunks of 7 bytes: past 1,000 within the first
        // 1,001 positions' bytes.
        var long = #"{"type":"LineString","coordinates":["#
        for i in 0..<100_000 { long += (i > 0 ? "," : "") + "[7.\(i % 1000),45.5]" }
        long += "]}"
        let bytes = Array(long.utf8)
        var counter = GeoJSONPositionCount(limit: 1000)
        var at = 0
        while at < bytes.count {
            let k = min(7, bytes.count - at)
            if bytes[at..<(at + k)].withUnsafeBytes({ counter.feed($0) }) { break }
            at += k
        }
        XCTAssertTrue(counter.exceeded)
        XCTAssertEqual(counter.count, 1001)
        XCTAssertLessThan(at, 1001 * 14 + 40)
        var whole = GeoJSONPositionCount(limit: 200_000)
        XCTAssertFalse(bytes.withUnsafeBytes { whole.feed($0) })
        XCTAssertEqual(whole.count, 100_000)
    }

    func testNonFiniteWithOK() throws {
        let times = [Fix(latitude: 0, longitude: 0, time: -1e308), Fix(latitude: 0, longitude: 0.001, time: 1e308)]
        assertThrows(.outOfRange) { () throws(GeoLocError) in try Track.stats(times) }
        let ele = [Fix(latitude: 0, longitude: 0, time: 0, altitude: 1e308), Fix(latitude: 0, longitude: 0.001, time: 1, altitude: -1e308)]
        assertThrows(.outOfRange) { () throws(GeoLocError) in try Track.stats(ele) }
        let fast = [Fix(latitude: 0, longitude: 0, time: 0), Fix(latitude: 0, longitude: 1, time: 5e-324)]
        assertThrows(.outOfRange) { () throws(GeoLocError) in try Track.stats(fast) }
        let r = try Track.resample(ele, step: .time(0.1))
        XCTAssertTrue(r.allSatisfy { $0.altitude.isFinite })
        XCTAssertEqual(r[5].altitude, 0)
    }

    func testGeoJSONMultiLineStringSegments() throws {
        let t = try TrackFormat.readGeoJSON(text: """
            {"type":"Feature","properties":{"name":"Day 1","coordTimes":[[1,null],[100,160]]},
             "geometry":{"type":"MultiLineString","coordinates":[[[2,1,5],[2,1.001,null]],[[3,1],[3,1.001,7]]]}}
            """)
        XCTAssertEqual(t.segments.map(\.range), [0..<2, 2..<4])
        XCTAssertEqual(t.pathNames, ["Day 1"])
        XCTAssertTrue(t.points.time(1).isNaN && t.points.altitude(1).isNaN)
        XCTAssertEqual(try t.stats().segments.map(\.duration), [0, 60])
    }

    /// Streaming from a file gives what memory gives, across the reader's chunks.
    func testFileAndMemoryAgree() throws {
        var doc = "<?xml version='1.0' encoding='ISO-8859-1'?><gpx><!--" + String(repeating: "c", count: 70_000) + "--><trk><trkseg>"
        for i in 0..<5000 { doc += "<trkpt lat='\(i % 80).25' lon='&#49;\(i)'><name>n&amp;\(i)</name></trkpt>\n" }
        doc += "</trkseg></trk></gpx>"
        let path = "/tmp/geoloc-swift-\(getpid()).gpx"
        let f = fopen(path, "w")!
        fputs(doc, f)
        fclose(f)
        defer { unlink(path) }
        let a = try TrackFormat.readGPX(file: path), b = try gpx(doc)
        XCTAssertEqual(a.points.count, 5000)
        XCTAssertEqual(a.fixes, b.fixes)
        XCTAssertEqual(a.points.name(4999), "n&4999")
        XCTAssertEqual(a.points.longitude(4999), 14999)
    }

    func testCorpusAgainstGPXPy() throws {
        let root = URLPath.repo + "/tests/tracks"
        guard let f = fopen(root + "/corpus.tsv", "r") else { return XCTFail("no corpus.tsv") }
        defer { fclose(f) }
        var loads: [String: (TrackLoad, TrackMeasure)] = [:]
        var rows = 0
        var line = [CChar](repeating: 0, count: 2048)
        while fgets(&line, Int32(line.count), f) != nil {
            let text = String(cString: line).trimmingCharacters(in: "\n")
            if text.hasPrefix("#") || text.hasPrefix("file\t") { continue }
            let c = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard c.count == 16 else { XCTFail(text); continue }
            if loads[c[0]] == nil {
                let t = try TrackFormat.readGPX(file: root + "/gpx/" + c[0], strict: true)
                loads[c[0]] = (t, try t.stats())
            }
            let (t, m) = loads[c[0]]!
            rows += 1
            let pts: TrackPoints, range: Range<Int>, s: TrackStats?
            if c[1] == "waypoints" {
                pts = t.waypoints; range = 0..<t.waypoints.count; s = nil
            } else {
                let kind: SegmentKind = c[1] == "route" ? .route : .track
                let k = t.segments.indices.filter { t.segments[$0].kind == kind }[Int(c[2])!]
                pts = t.points; range = t.segments[k].range; s = m.segments[k]
            }
            XCTAssertEqual(range.count, Int(c[3]), text)
            XCTAssertEqual(range.filter { !pts.time($0).isNaN }.count, Int(c[4]), text)
            XCTAssertEqual(range.reduce(0) { $0 + pts.latitude($1) }, Double(c[10])!, accuracy: 1e-6, text)
            XCTAssertEqual(range.reduce(0) { $0 + pts.longitude($1) }, Double(c[11])!, accuracy: 1e-6, text)
            XCTAssertEqual(range.reduce(0) { $0 + (pts.altitude($1).isNaN ? 0 : pts.altitude($1)) }, Double(c[12])!, accuracy: 1e-4, text)
            if let s {
                XCTAssertEqual(s.length, Double(c[5])!, accuracy: 1e-6 + 1e-9 * Double(c[5])!, text)
                XCTAssertEqual(s.duration, Double(c[6])!, accuracy: 1e-3, text)
                XCTAssertEqual(s.elevationGain, Double(c[7])!, accuracy: 1e-6 + 1e-9 * Double(c[7])!, text)
                XCTAssertEqual(s.elevationLoss, Double(c[8])!, accuracy: 1e-6 + 1e-9 * Double(c[8])!, text)
                XCTAssertEqual(s.backwardSteps, Int(c[15]), text)
            }
        }
        XCTAssertGreaterThanOrEqual(loads.count, 20)
        XCTAssertGreaterThanOrEqual(rows, 60)
    }
}

private enum URLPath {
    /// The repository: three folders above this file.
    static var repo: String {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let c = s.last, set.contains(c) { s = s.dropLast() }
        return String(s)
    }
}
