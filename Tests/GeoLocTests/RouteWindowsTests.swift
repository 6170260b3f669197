import XCTest
@_spi(CABI) @testable import GeoLoc

/// The best order's budgets and bounds (issue 21's route findings) and the best order with
/// opening hours (issue 22), against every order.
final class RouteWindowsTests: XCTestCase {
    func testIssue21HugeCostsRefusedWithTheBound() throws {
        var m = [Double](repeating: 1e308, count: 16)
        for i in 0..<4 { m[i * 4 + i] = 0 }
        XCTAssertThrowsError(try bestOrder(costs: m)) { error in
            let e = error as! GeoLocError
            XCTAssertEqual(e.code, .outOfRange)
            XCTAssertTrue(e.message.contains("1e+300"), e.message)
        }
        m = m.map { $0 == 0 ? 0 : StopOrder.maxCost }
        for end in [RouteEnd.home, .anywhere, .stop(2)] {
            let r = try bestOrder(costs: m, end: end)
            XCTAssertTrue(r.total.isFinite)
            XCTAssertEqual(r.order.sorted(), [0, 1, 2])
        }
    }

    func testIssue21TimeLimitAloneRunsUntilThatTime() throws {
        var rng = SystemRandomNumberGenerator()
        let stops = (0..<60).map { _ in try! Coordinate(latitude: .random(in: 30...40, using: &rng), longitude: .random(in: -100 ... -80, using: &rng)) }
        let start = monotonicSeconds()
        let r = try bestOrder(home: stops[0], stops: Array(stops.dropFirst()),
                              options: StopOrderOptions(mode: .heuristic, timeLimit: 0.2))
        XCTAssertGreaterThanOrEqual(monotonicSeconds() - start, 0.2)
        XCTAssertEqual(r.order.sorted(), Array(0..<59))
        XCTAssertThrowsError(try bestOrder(home: stops[0], stops: Array(stops.dropFirst()),
                                           options: StopOrderOptions(iterations: StopOrder.maxIterations + 1)))
    }

    /// (lateness, travel) of an order, as the header defines them.
    private func evaluate(_ t: [Double], _ w: [TimeWindow], _ service: [Double], _ end: RouteEnd, _ perm: [Int]) -> (Double, Double) {
        let size = w.count + 1
        var time = 100.0, prev = 0, late = 0.0, travel = 0.0
        for s in perm {
            let arrival = time + t[prev * size + s + 1]
            travel += t[prev * size + s + 1]
            late += max(0, arrival - w[s].latest)
            time = max(arrival, w[s].earliest) + service[s]
            prev = s + 1
        }
        if end == .home && !perm.isEmpty {
            travel += t[prev * size]
        }
        return (late, travel)
    }

    private func permutations(_ n: Int) -> [[Int]] {
        if n == 0 { return [[]] }
        return permutations(n - 1).flatMap { p in (0...p.count).map { i -> [Int] in var q = p; q.insert(n - 1, at: i); return q } }
    }

    func testWindowsAgainstEveryOrder() throws {
        var seed: UInt64 = 7
        func rnd() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        for n in 1...7 {
            for rep in 0..<3 {
                let size = n + 1
                let xy = (0..<size).map { _ in (rnd() * 100, rnd() * 100) }
                var t = [Double](repeating: 0, count: size * size)
                for i in 0..<size { for j in 0..<size where i != j {
                    t[i * size + j] = ((xy[i].0 - xy[j].0) * (xy[i].0 - xy[j].0) + (xy[i].1 - xy[j].1) * (xy[i].1 - xy[j].1)).squareRoot()
                        + (rnd() < 0.25 ? rnd() * 20 : 0)
                } }
                let w = (0..<n).map { _ -> TimeWindow in
                    let open = 100 + rnd() * 600
                    return TimeWindow(earliest: open, latest: open + 30 + rnd() * (rep == 1 ? 80 : 300))
                }
                let service = (0..<n).map { _ in rnd() * 15 }
                for end in [RouteEnd.home, .anywhere, .stop(n - 1)] {
                    var best = (Double.infinity, Double.infinity)
                    for p in permutations(n) {
                        if case .stop(let e) = end, p.last != e { continue }
                        let k = evaluate(t, w, service, end, p)
                        if k.0 < best.0 - 1e-9 || (abs(k.0 - best.0) <= 1e-9 && k.1 < best.1) { best = k }
                    }
                    let r = try bestOrder(travelTimes: t, windows: w, serviceTimes: service, departure: 100, end: end)
                    XCTAssertEqual(r.order.sorted(), Array(0..<n))
                    if best.0 <= 1e-9 {
                        XCTAssertTrue(r.feasible && r.provenOptimal)
                        XCTAssertEqual(r.travel, best.1, accuracy: 1e-6)
                    } else {
                        XCTAssertFalse(r.feasible)
                        XCTAssertEqual(r.lateness, best.0, accuracy: 1e-6)
                    }
                }
            }
        }
    }

    func testWindowsBadInput() {
        let t = [Double](repeating: 10, count: 9)
        XCTAssertThrowsError(try bestOrder(travelTimes: t, windows: [TimeWindow(earliest: 5, latest: 1), .always]))
        XCTAssertThrowsError(try bestOrder(travelTimes: t, windows: [.always]))
        XCTAssertThrowsError(try bestOrder(travelTimes: t, windows: [.always, .always], serviceTimes: [-1, 0]))
        XCTAssertThrowsError(try bestOrder(travelTimes: t, windows: [.always, .always], departure: .nan))
    }
}
