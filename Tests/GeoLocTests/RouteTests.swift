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

/// The best order of a day's stops: the shared instances' proven optima, brute force over every
/// order for small asymmetric matrices, and every bad input.
final class StopOrderTests: XCTestCase {
    func testExactOnTheSharedTownInstances() throws {
        var checked = 0
        for inst in try RouteCases.all() where inst.stops.count <= 16 {
            let closed = try bestOrder(home: inst.home, stops: inst.stops)
            XCTAssertTrue(closed.provenOptimal)
            XCTAssertEqual(closed.total, inst.closed, accuracy: 1e-3, inst.name)
            XCTAssertEqual(closed.givenTotal, inst.given, accuracy: 1e-3, inst.name)
            XCTAssertEqual(Set(closed.order), Set(0..<inst.stops.count))
            XCTAssertEqual(closed.legs.count, inst.stops.count + 1)
            let open = try bestOrder(home: inst.home, stops: inst.stops, end: .anywhere)
            XCTAssertEqual(open.total, inst.openAny, accuracy: 1e-3, inst.name)
            XCTAssertEqual(open.legs.count, inst.stops.count)
            let fixed = try bestOrder(home: inst.home, stops: inst.stops, end: .stop(inst.stops.count - 1))
            XCTAssertEqual(fixed.total, inst.openEnd, accuracy: 1e-3, inst.name)
            XCTAssertEqual(fixed.order.last, inst.stops.count - 1)
            // The legs are the route's own distances.
            let path = [inst.home] + fixed.order.map { inst.stops[$0] }
            XCTAssertEqual(try routeLength(path).total, fixed.total, accuracy: 1e-6)
            checked += 1
        }
        XCTAssertEqual(checked, 100)
    }

    func testHeuristicWithinATenthOfAPercentAtOneHundredStops() throws {
        for inst in try RouteCases.all() where inst.stops.count == 100 {
            let r = try bestOrder(home: inst.home, stops: inst.stops)
            XCTAssertFalse(r.provenOptimal)
            XCTAssertLessThanOrEqual(r.total, inst.closed * 1.001, inst.name)
            XCTAssertGreaterThanOrEqual(r.total, inst.closed * (1 - 1e-12), inst.name)
            XCTAssertEqual(Set(r.order), Set(0..<100))
            let open = try bestOrder(home: inst.home, stops: inst.stops, end: .anywhere)
            XCTAssertLessThanOrEqual(open.total, inst.openAny * 1.001, inst.name)
            let fixed = try bestOrder(home: inst.home, stops: inst.stops, end: .stop(99))
            XCTAssertLessThanOrEqual(fixed.total, inst.openEnd * 1.001, inst.name)
            XCTAssertEqual(fixed.order.last, 99)
        }
    }

    /// Every order of up to 7 stops (8 nodes), against the exact search and the heuristic.
    func testAsymmetricMatrixAgainstBruteForce() throws {
        var rng = SplitMix64(state: 9)
        for n in 0...7 {
            for _ in 0..<4 {
                let size = n + 1
                var m = [Double](repeating: 0, count: size * size)
                for i in 0..<size { for j in 0..<size where i != j { m[i * size + j] = Double(rng.next() % 1000) / 10 } }
                if n >= 2 { m[1 * size + 2] = 0 }  // a zero entry is ordinary
                for end in [RouteEnd.home, .anywhere] + (n > 0 ? [RouteEnd.stop(n - 1)] : []) {
                    let want = bruteForce(m, size: size, end: end)
                    let exact = try bestOrder(costs: m, end: end, options: StopOrderOptions(mode: .exact))
                    XCTAssertEqual(exact.total, want, accuracy: 1e-9, "n \(n) \(end)")
                    XCTAssertTrue(exact.provenOptimal)
                    let heur = try bestOrder(costs: m, end: end, options: StopOrderOptions(mode: .heuristic, iterations: 300))
                    XCTAssertEqual(heur.total, want, accuracy: 1e-9, "heuristic n \(n) \(end)")
                    if case .stop(let e) = end, n > 0 { XCTAssertEqual(exact.order.last, e) }
                }
            }
        }
    }

    /// Partition crossover (`LinKernighan.crossover`) on 400 points: a locally optimal tour
    /// kicked by double bridges and merged with the unkicked one, given in either direction,
    /// comes back no longer than the better parent, and here exactly as long (each bridge is a
    /// component of the difference that can be switched alone); merged the other way round the
    /// better tour stays as it is.
    func testCrossoverTakesTheShorterComponents() throws {
        var rng = SplitMix64(state: 400)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        let size = 400
        let pts = (0..<size).map { _ in (unit() * 1000, unit() * 1000) }
        var d = [Double](repeating: 0, count: size * size)
        for i in 0..<size {
            for j in 0..<size {
                let dx = pts[i].0 - pts[j].0, dy = pts[i].1 - pts[j].1
                d[i * size + j] = (dx * dx + dy * dy).squareRoot()
            }
        }
        SymmetricCosts.with(d, size: size, end: .home) { costs in
            var search = LinKernighan(costs, seed: 3)
            defer { search.free() }
            let good = search.run(kicks: 300, deadline: nil)
            let best = search.length(of: good)
            for reversed in [false, true] {
                search.load(good)
                for p in [20, 150, 290] { search.reorderSegments(p, 5, 7, 6) }
                let kicked = search.length()
                XCTAssertGreaterThan(kicked, best)
                search.crossover(reversed ? Array(good.reversed()) : good)
                XCTAssertEqual(search.length(), best, accuracy: 1e-6 * best, "reversed \(reversed)")
            }
            // The better tour merged with a worse one stays as it is.
            search.load(good)
            var worse = good
            worse[10...30].reverse()
            XCTAssertGreaterThan(search.length(of: worse), best)
            search.crossover(worse)
            XCTAssertEqual(search.length(), best, accuracy: 1e-9 * best)
        }
    }

    /// The bounded exact search (`boundedHeldKarp`, states dropped by a 1-tree bound under a
    /// heuristic tour) against the plain table (`heldKarp`) on 12 to 14 stops: points spread and
    /// in clusters, costs with many ties, one-way costs, every kind of end (through the same
    /// closed costs the solver builds), with a good and with a poor known tour. Equal lengths.
    func testBoundedExactAgainstThePlainTable() throws {
        var rng = SplitMix64(state: 22)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        for trial in 0..<24 {
            let n = 12 + trial % 3
            let size = n + 1
            var x = [Double](), y = [Double]()
            let centres = (0..<3).map { _ in (unit() * 100, unit() * 100) }
            for _ in 0..<size {
                if trial % 3 == 1 {
                    let c = centres[Int(rng.next() % 3)]
                    x.append(c.0 + unit() * 4); y.append(c.1 + unit() * 4)
                } else {
                    x.append(unit() * 100); y.append(unit() * 100)
                }
            }
            var m = [Double](repeating: 0, count: size * size)
            for i in 0..<size {
                for j in 0..<size where i != j {
                    var d = ((x[i] - x[j]) * (x[i] - x[j]) + (y[i] - y[j]) * (y[i] - y[j])).squareRoot()
                    if trial % 3 == 2 { d = (d / 20).rounded() }  // many ties
                    if trial % 4 == 3 { d *= 0.7 + 0.6 * unit() }  // one-way
                    m[i * size + j] = d
                }
            }
            for kind in 0..<3 {
                var w = m
                if kind == 1 { for i in 1..<size { w[i * size] = 0 } }  // open: a free return
                if kind == 2 { for i in 1..<size { w[i * size] = i == 5 ? 0 : 1e6 } }  // ends at stop 4
                let plain = heldKarp(w, size: size)
                func length(_ t: [Int32]) -> Double {
                    (0..<size).reduce(0.0) { $0 + w[Int(t[$1]) * size + Int(t[($1 + 1) % size])] }
                }
                let good = try bestOrder(costs: w, end: .home, options: StopOrderOptions(mode: .heuristic, iterations: 5))
                let poor = [Int32](0..<Int32(size))
                for upper in [[Int32(0)] + good.order.map { Int32($0 + 1) }, poor] {
                    let t = boundedHeldKarp(w, size: size, upper: upper, stateCap: .max) ?? []
                    XCTAssertEqual(Set(t), Set(0..<Int32(size)), "trial \(trial) kind \(kind)")
                    XCTAssertEqual(t[0], 0)
                    XCTAssertEqual(length(t), length(plain), accuracy: 1e-9 * length(plain), "trial \(trial) kind \(kind)")
                }
            }
        }
    }

    /// Auto mode from 17 to `autoProofLimit` stops: the capped exact search answers, proven,
    /// no longer than the exact search (17, 18) or a long heuristic search (20 to 24), for every
    /// kind of end; one-way costs above `exactLimit` go to the heuristic, unproven.
    func testAutoProvesOptimalityUpToTheProofLimit() throws {
        var rng = SplitMix64(state: 23)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        var proven = 0, tried = 0
        for n in [17, 18, 20, 22, 24] {
            for trial in 0..<2 {
                let home = try Coordinate(latitude: 40 + unit(), longitude: -90 + unit())
                let stops = try (0..<n).map { _ in try Coordinate(latitude: 40 + unit(), longitude: -90 + unit()) }
                for end in [RouteEnd.home, .anywhere, .stop(n / 2)] {
                    let auto = try bestOrder(home: home, stops: stops, end: end)
                    let long = try bestOrder(home: home, stops: stops, end: end,
                                             options: StopOrderOptions(mode: .heuristic, iterations: 1_000))
                    XCTAssertEqual(Set(auto.order), Set(0..<n))
                    if case .stop(let e) = end { XCTAssertEqual(auto.order.last, e) }
                    XCTAssertLessThanOrEqual(auto.total, long.total * (1 + 1e-12), "n \(n) trial \(trial) \(end)")
                    if n <= 18 {
                        let exact = try bestOrder(home: home, stops: stops, end: end, options: StopOrderOptions(mode: .exact))
                        XCTAssertEqual(auto.total, exact.total, accuracy: 1e-9 * exact.total)
                    }
                    tried += 1
                    if auto.provenOptimal { proven += 1 }
                }
            }
        }
        // The cap may stop a search on a hard problem, but not on most.
        XCTAssertGreaterThanOrEqual(proven, tried * 3 / 4, "\(proven) of \(tried) proven")
        // One-way costs: proven up to exactLimit, the heuristic above.
        for n in [18, 20] {
            let size = n + 1
            var m = [Double](repeating: 0, count: size * size)
            for i in 0..<size { for j in 0..<size where i != j { m[i * size + j] = 1 + unit() * 100 } }
            let r = try bestOrder(costs: m)
            if n > StopOrder.exactLimit { XCTAssertFalse(r.provenOptimal) }
            if n <= StopOrder.exactLimit {
                let exact = try bestOrder(costs: m, options: StopOrderOptions(mode: .exact))
                XCTAssertEqual(r.total, exact.total, accuracy: 1e-9 * exact.total)
            }
        }
    }

    func bruteForce(_ m: [Double], size: Int, end: RouteEnd) -> Double {
        let n = size - 1
        var best = Double.infinity
        var perm = Array(0..<n)
        func cost(_ p: [Int]) -> Double {
            var s = 0.0, prev = 0
            for x in p { s += m[prev * size + x + 1]; prev = x + 1 }
            if end == .home { s += m[prev * size] }
            return s
        }
        func go(_ k: Int) {
            if k == n {
                if case .stop(let e) = end, perm.last != e { return }
                best = min(best, cost(perm))
                return
            }
            for i in k..<n {
                perm.swapAt(k, i)
                go(k + 1)
                perm.swapAt(k, i)
            }
        }
        go(0)
        return n == 0 ? 0 : best
    }

    func testSmallAndDegenerateInputs() throws {
        let home = try Coordinate(latitude: 38.3, longitude: -88.9)
        let a = try Coordinate(latitude: 38.5, longitude: -89.1)
        let none = try bestOrder(home: home, stops: [])
        XCTAssertEqual(none.order, []); XCTAssertEqual(none.total, 0); XCTAssertTrue(none.provenOptimal)
        let one = try bestOrder(home: home, stops: [a], unit: .miles)
        XCTAssertEqual(one.order, [0]); XCTAssertEqual(one.legs.count, 2)
        XCTAssertEqual(one.total, 2 * a.distance(to: home, model: .sphere, unit: .miles), accuracy: 1e-12)
        let two = try bestOrder(home: home, stops: [a, a], end: .anywhere)
        XCTAssertEqual(Set(two.order), [0, 1]); XCTAssertEqual(two.legs[1], 0)
        // Many stops on one spot, beside others, through the heuristic.
        var stops = [Coordinate](repeating: a, count: 30)
        for i in 0..<30 { stops.append(try Coordinate(latitude: 38 + Double(i) / 30, longitude: -89)) }
        let r = try bestOrder(home: home, stops: stops, options: StopOrderOptions(mode: .heuristic))
        XCTAssertEqual(Set(r.order), Set(0..<60))
        XCTAssertLessThanOrEqual(r.total, r.givenTotal + 1e-9)
        // WGS84: the legs are geodesics.
        let g = try bestOrder(home: home, stops: [a], model: .wgs84)
        XCTAssertEqual(g.legs[0], geodesicInverse(from: home, to: a).distance, accuracy: 1e-9)
        // Deterministic for a seed.
        let s1 = try bestOrder(home: home, stops: stops, options: StopOrderOptions(mode: .heuristic, seed: 7))
        let s2 = try bestOrder(home: home, stops: stops, options: StopOrderOptions(mode: .heuristic, seed: 7))
        XCTAssertEqual(s1, s2)
    }

    func testAboveTheMatrixLimitLegsAndMatrixPaths() throws {
        // Above 256 stops the search's sphere matrix comes from the batch haversine; each leg is
        // still one `distance`, bit for bit, on both models and for every kind of route.
        var rng = SplitMix64(seed: 256)
        func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * Double(rng.next() >> 11) / 0x1p53 }
        let pts = try (0...300).map { _ in try Coordinate(latitude: uniform(30, 45), longitude: uniform(-120, -75)) }
        let home = pts[0], stops = Array(pts[1...])
        for model in [EarthModel.sphere, .wgs84] {
            for end in [RouteEnd.home, .anywhere, .stop(17)] {
                let r = try bestOrder(home: home, stops: stops, end: end, model: model,
                                      options: StopOrderOptions(iterations: 500))
                XCTAssertEqual(r.order.sorted(), Array(0..<300))
                let path = [home] + r.order.map { stops[$0] } + (end == .home ? [home] : [])
                XCTAssertEqual(r.legs, zip(path, path.dropFirst()).map { $0.distance(to: $1, model: model, unit: .meters) })
                if end == .stop(17) { XCTAssertEqual(r.order.last, 17) }
            }
        }
        // A symmetric matrix searched in place (nothing to change) or copied (a diagonal, free
        // returns): the same order.
        let n = 281
        var m = [Double](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in 0..<n where i != j { m[i * n + j] = pts[i].distance(to: pts[j], model: .sphere, unit: .meters) }
        }
        for end in [RouteEnd.home, .anywhere] {
            var changed = m
            for i in 0..<n { changed[i * n + i] = 7 }
            if end == .anywhere { for i in 1..<n { changed[i * n] = 0 } }
            let options = StopOrderOptions(iterations: 400, seed: 3)
            XCTAssertEqual(try bestOrder(costs: m, end: end, options: options).order,
                           try bestOrder(costs: changed, end: end, options: options).order)
        }
    }

    func testBadInput() throws {
        let home = try Coordinate(latitude: 0, longitude: 0)
        let stops = (0..<20).map { try! Coordinate(latitude: Double($0) / 10, longitude: 0) }
        assertThrows(.countTooLarge) { () throws(GeoLocError) in
            _ = try bestOrder(home: home, stops: stops, options: StopOrderOptions(mode: .exact)) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in _ = try bestOrder(home: home, stops: stops, end: .stop(20)) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in _ = try bestOrder(home: home, stops: stops, end: .stop(-1)) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in
            _ = try bestOrder(home: home, stops: stops, options: StopOrderOptions(iterations: 0)) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in
            _ = try bestOrder(home: home, stops: stops, options: StopOrderOptions(timeLimit: 0)) }
        assertThrows(.notFinite) { () throws(GeoLocError) in
            _ = try bestOrder(home: home, stops: stops, options: StopOrderOptions(timeLimit: .nan)) }
        assertThrows(.invalidArgument) { () throws(GeoLocError) in _ = try bestOrder(costs: [0, 1, 2]) }
        assertThrows(.notFinite) { () throws(GeoLocError) in _ = try bestOrder(costs: [0, 1, .nan, 0]) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in _ = try bestOrder(costs: [0, -1, 1, 0]) }
        // The diagonal is ignored.
        XCTAssertEqual(try bestOrder(costs: [.nan, 2, 3, -1]).total, 5)
        let many = [Coordinate](repeating: home, count: StopOrder.maxStops + 1)
        assertThrows(.countTooLarge) { () throws(GeoLocError) in _ = try bestOrder(home: home, stops: many) }
    }
}
