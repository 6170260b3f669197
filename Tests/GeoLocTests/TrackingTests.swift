// Tracking: the fix filter and stop detection, geofence monitoring, tracks.
#if canImport(Glibc)
import Glibc
#endif
@testable import GeoLoc
import XCTest

/// A fix dx meters east and dy meters north of (lat0, lon0).
private func at(_ lat0: Double, _ lon0: Double, _ dx: Double, _ dy: Double, t: Double, acc: Double = 5) -> Fix {
    let m = Earth.meanRadius * Double.pi / 180
    return Fix(latitude: lat0 + dy / m, longitude: lon0 + dx / (m * cos(lat0 * Double.pi / 180)), time: t, accuracy: acc)
}

final class TrackingTests: XCTestCase {
    // MARK: Filter

    func testFilterRulesAndReasons() throws {
        var o = FilterOptions(activity: .fitness)
        o.stopRadius = 0
        let f = try FixFilter(options: o)
        XCTAssertEqual(try f.process([]), [])
        let (a, b) = (48.0, 11.0)
        let d = try f.process([
            at(a, b, 0, 0, t: 100), at(a, b, 10, 0, t: 105), at(a, b, 12, 0, t: 105), at(a, b, 30, 0, t: 104),
            at(a, b, 20, 0, t: 110, acc: 50), at(a, b, 2000, 0, t: 111), at(a, b, 13, 0, t: 112), at(a, b, 40, 0, t: 115),
        ])
        XCTAssertEqual(d.map(\.verdict), [.kept, .kept, .droppedTime, .droppedTime, .droppedAccuracy, .droppedJump,
                                          .droppedDistance, .kept])
        XCTAssertTrue(d.allSatisfy { $0.motion == .none })
        assertThrows(.outOfRange) { () throws(GeoLocError) in try f.process([at(a, b, 0, 0, t: 200, acc: -1)]) }
        assertThrows(.notFinite) { () throws(GeoLocError) in try f.process([Fix(latitude: .nan, longitude: 0, time: 1)]) }
        // One fix, then identical times.
        let g = FixFilter(activity: .other)
        XCTAssertEqual(try g.process([at(0, 0, 0, 0, t: 7)]).map(\.verdict), [.kept])
        XCTAssertEqual(try g.process([at(0, 0, 50, 0, t: 7), at(0, 0, 100, 0, t: 7)]).map(\.verdict), [.droppedTime, .droppedTime])
    }

    func testStopAndGo() throws {
        var fixes: [Fix] = []
        let (a, b) = (-33.9, 151.2)
        for i in 0..<10 { fixes.append(at(a, b, 15 * Double(i), 0, t: 10 * Double(i))) }
        for i in 1...15 {
            fixes.append(at(a, b, 135 + Double(i % 3 - 1) * 14, (i % 2 == 1 ? 1 : -1) * 12, t: 90 + 20 * Double(i), acc: 8))
        }
        for i in 1...5 { fixes.append(at(a, b, 135 + 40 * Double(i), 0, t: 390 + 20 * Double(i))) }
        let f = FixFilter(activity: .fitness)
        let d = try f.process(fixes)
        XCTAssertEqual(d.indices.filter { d[$0].motion == .stopped }, [15])
        XCTAssertEqual(d.indices.filter { d[$0].motion == .moving }, [25])
        // Saved and restored at every fix: the same decisions.
        var g = FixFilter(activity: .fitness)
        var d2: [FixDecision] = []
        for fix in fixes {
            d2 += try g.process([fix])
            let bytes = g.saved()
            g = try FixFilter(restoring: bytes)
        }
        XCTAssertEqual(d, d2)
    }

    // MARK: Monitor

    func testHysteresisDwellAndOrder() throws {
        let (a, b) = (51.5, -0.12)
        let fences = try Geofences(circles: [
            CircleFence(id: "park", center: try Coordinate(latitude: a, longitude: b), radius: 100),
            CircleFence(id: "inner", center: try Coordinate(latitude: a, longitude: b), radius: 60),
        ])
        let m = try GeofenceMonitor(fences: fences, options: MonitorOptions(loiteringTime: 60))
        // Jitter straddling the boundary: nothing.
        let jitter = (0..<20).map { at(a, b, 100 + ($0 % 2 == 0 ? -8 : 8), 0, t: Double($0), acc: 10) }
        XCTAssertEqual(try m.process(jitter), [])
        let e = try m.process([at(a, b, 0, 0, t: 30), at(a, b, 0, 0, t: 90), at(a, b, 300, 0, t: 100)])
        XCTAssertEqual(e, [
            GeofenceEvent(fix: 0, region: 0, time: 30, transition: .enter),
            GeofenceEvent(fix: 0, region: 1, time: 30, transition: .enter),
            GeofenceEvent(fix: 1, region: 0, time: 90, transition: .dwell),
            GeofenceEvent(fix: 1, region: 1, time: 90, transition: .dwell),
            GeofenceEvent(fix: 2, region: 0, time: 100, transition: .exit),
            GeofenceEvent(fix: 2, region: 1, time: 100, transition: .exit),
        ])
        assertThrows(.outOfRange) { () throws(GeoLocError) in try m.process([at(a, b, 0, 0, t: 99)]) }
        XCTAssertEqual(try m.process([]), [])
    }

    func testAntimeridianAndPole() throws {
        let fences = try Geofences(
            circles: [
                CircleFence(id: "dateline", center: try Coordinate(latitude: 0, longitude: 179.9995), radius: 200),
                CircleFence(id: "pole", center: try Coordinate(latitude: 90, longitude: 0), radius: 1000),
            ],
            polygons: [PolygonFence(id: "square", vertices: [
                try Coordinate(latitude: 10, longitude: 179.99), try Coordinate(latitude: 10, longitude: -179.99),
                try Coordinate(latitude: 10.02, longitude: -179.99), try Coordinate(latitude: 10.02, longitude: 179.99),
            ])])
        let m = try GeofenceMonitor(fences: fences)
        let pts: [(Double, Double)] = [(0, -179.9995), (0, 179.996), (89.995, 0), (89.995, 180), (89.98, -90),
                                       (10.01, 180), (10.01, -179.995), (10.01, -179.9)]
        let fixes = pts.enumerated().map { Fix(latitude: $1.0, longitude: $1.1, time: Double($0), accuracy: 5) }
        let e = try m.process(fixes).map { [$0.fix, $0.region, Int($0.transition.rawValue)] }
        XCTAssertEqual(e, [[0, 0, 0], [1, 0, 2], [2, 1, 0], [4, 1, 2], [5, 2, 0], [7, 2, 2]])
    }

    func testManyRegionsAgainstBruteForceAndSavedState() throws {
        var rng = SplitMix64(seed: 10)
        let (a, b) = (40.7, -74.0)
        var circles: [CircleFence] = []
        for i in 0..<2000 {
            let p = at(a, b, rng.uniform(-10000, 10000), rng.uniform(-10000, 10000), t: 0)
            circles.append(CircleFence(id: "c\(i)", center: try Coordinate(latitude: p.latitude, longitude: p.longitude),
                                       radius: rng.unit() < 0.01 ? 3000 : rng.uniform(30, 430)))
        }
        let fences = try Geofences(circles: circles)
        var fixes: [Fix] = []
        var (x, y) = (0.0, 0.0)
        for i in 0..<2000 {
            x += rng.uniform(-60, 60); y += rng.uniform(-60, 60)
            fixes.append(at(a, b, x, y, t: Double(i * 10), acc: rng.uniform(0, 20)))
        }
        let o = MonitorOptions(accuracyFactor: 1.5, enterMargin: 3, exitMargin: 7, loiteringTime: 120)
        let all = try GeofenceMonitor(fences: fences, options: o).process(fixes)
        // Brute force over every region.
        var inside = [Bool](repeating: false, count: circles.count), since = [Double](repeating: 0, count: circles.count)
        var dwelled = inside
        var want: [GeofenceEvent] = []
        for (i, f) in fixes.enumerated() {
            let s = o.accuracyFactor * f.accuracy
            for (r, c) in circles.enumerated() {
                let d = haversineDistance(lat1: f.latitude, lon1: f.longitude, lat2: c.center.latitude, lon2: c.center.longitude) - c.radius
                if !inside[r] && d + s <= -o.enterMargin {
                    inside[r] = true; since[r] = f.time; dwelled[r] = false
                    want.append(GeofenceEvent(fix: i, region: r, time: f.time, transition: .enter))
                } else if inside[r] && d - s >= o.exitMargin {
                    inside[r] = false
                    want.append(GeofenceEvent(fix: i, region: r, time: f.time, transition: .exit))
                } else if inside[r] && !dwelled[r] && f.time - since[r] >= o.loiteringTime {
                    dwelled[r] = true
                    want.append(GeofenceEvent(fix: i, region: r, time: f.time, transition: .dwell))
                }
            }
        }
        XCTAssertEqual(all, want)
        XCTAssertGreaterThan(all.count, 50)
        // Interrupted at fix 777, saved and restored: the same events.
        let first = try GeofenceMonitor(fences: fences, options: o)
        var split = try first.process(Array(fixes[..<777]))
        let bytes = first.saved()
        let second = try GeofenceMonitor(fences: fences, restoring: bytes)
        split += try second.process(Array(fixes[777...])).map {
            GeofenceEvent(fix: $0.fix + 777, region: $0.region, time: $0.time, transition: $0.transition)
        }
        XCTAssertEqual(split, all)
        // Corruption is an error.
        for k in stride(from: 0, to: bytes.count, by: 3) {
            var bad = bytes
            bad[k] ^= 0x80
            assertThrows(.parse) { () throws(GeoLocError) in
                try GeofenceMonitor(fences: fences, restoring: bad)
            }
        }
    }

    // MARK: Tracks

    func testSimplifyBound() throws {
        var rng = SplitMix64(seed: 3)
        var pts: [Coordinate] = []
        var (x, y, h) = (0.0, 0.0, 0.0)
        for _ in 0..<3000 {
            h += rng.uniform(-0.3, 0.3)
            x += 10 * cos(h); y += 10 * sin(h)
            let f = at(-45, 170, x, y, t: 0)
            pts.append(try Coordinate(latitude: f.latitude, longitude: f.longitude))
        }
        for tol in [0.0, 2.0, 25.0] {
            let kept = try Track.simplify(pts, tolerance: tol)
            XCTAssertEqual(kept.first, 0)
            XCTAssertEqual(kept.last, pts.count - 1)
            for (k0, k1) in zip(kept, kept.dropFirst()) {
                for i in (k0 + 1)..<k1 {
                    XCTAssertLessThanOrEqual(Track.distanceToArc(pts[i], pts[k0], pts[k1]), tol + 1e-6)
                }
            }
        }
        XCTAssertEqual(try Track.simplify([], tolerance: 1), [])
        XCTAssertEqual(try Track.simplify([pts[0]], tolerance: 1), [0])
        assertThrows(.outOfRange) { () throws(GeoLocError) in try Track.simplify(pts, tolerance: -1) }
    }

    func testStatsResampleStays() throws {
        var f = [at(0, 0, 0, 0, t: 0), at(0, 0, 100, 0, t: 50), at(0, 0, 100, 0, t: 100), at(0, 0, 400, 0, t: 150)]
        f[0].altitude = 10; f[3].altitude = 4
        let s = try Track.stats(f)
        XCTAssertEqual(s.length, 400, accuracy: 0.01)
        XCTAssertEqual(s.movingTime, 100)
        XCTAssertEqual(s.maxSpeed, 6, accuracy: 1e-3)
        XCTAssertEqual(s.elevationLoss, 6)
        XCTAssertEqual(s.elevationGain, 0)
        let r = try Track.resample(f, step: .distance(150))
        XCTAssertEqual(r.count, 4)  // 0, 150, 300, 400
        XCTAssertEqual(r[1].time, 100 + 50.0 / 6, accuracy: 1e-6)  // 50 m into the 300 m leg of 50 s
        XCTAssertEqual(try Track.resample(f, step: .time(50)).map(\.time), [0, 50, 100, 150])
        XCTAssertEqual(try Track.stayPoints(f, distance: 10, time: 30).map { [$0.first, $0.last] }, [[1, 2]])
        XCTAssertEqual(try Track.stats([]), TrackStats())
    }

    // MARK: Files

    func testGPXAndGeoJSONRoundTripAndBadPoints() throws {
        var f = [at(39.8, -89.65, 0, 0, t: 1_777_644_000), at(39.8, -89.65, 10, 3, t: 1_777_644_010.5)]
        f[0].altitude = 180.5
        let gpx = try TrackFormat.gpx(f, name: "walk & talk")
        XCTAssertTrue(gpx.contains("<name>walk &amp; talk</name>"))
        XCTAssertTrue(gpx.contains("<time>2026-05-01T14:00:10.500Z</time>"))
        let back = try TrackFormat.readGPX(text: gpx)
        XCTAssertEqual(back.fixes.count, 2)
        XCTAssertTrue(back.timed)
        XCTAssertEqual(back.fixes[1].time, f[1].time)
        XCTAssertEqual(back.fixes[0].altitude, 180.5)
        XCTAssertEqual(back.fixes[1].latitude, f[1].latitude, accuracy: 5e-9)
        let json = try TrackFormat.geoJSON(f)
        let back2 = try TrackFormat.readGeoJSON(text: json)
        XCTAssertEqual(back2.fixes.map(\.time), f.map(\.time))
        let bad = "<gpx><trk><trkseg><trkpt lat='1' lon='2'/>\n<trkpt lat='1' lon='east'/></trkseg></trk></gpx>"
        let r = try TrackFormat.readGPX(text: bad)
        XCTAssertEqual(r.fixes.count, 1)
        XCTAssertEqual(r.issues, [LoadIssue(record: 1, reason: "trkpt 1 (line 2): lon \"east\" is not a decimal number")])
        XCTAssertFalse(r.timed)
        assertThrows(.parse) { () throws(GeoLocError) in
            try TrackFormat.readGPX(text: "<gpx><trk></gpx>")
        }
    }
}
