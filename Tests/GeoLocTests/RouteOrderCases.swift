import Foundation
@testable import GeoLoc

/// The shared stop-ordering instances of tests/route, read for the route tests.
enum RouteCases {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("tests/route")

    struct Instance {
        let name: String
        let home: Coordinate
        let stops: [Coordinate]
        let given: Double, closed: Double, openAny: Double, openEnd: Double
    }

    static func all() throws -> [Instance] {
        let text = try String(contentsOf: directory.appendingPathComponent("optimal.csv"), encoding: .utf8)
        var out: [Instance] = []
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let f = line.split(separator: ",").map(String.init)
            let points = try String(contentsOf: directory.appendingPathComponent("instances/\(f[0]).csv"), encoding: .utf8)
                .split(whereSeparator: \.isNewline).dropFirst().map { row -> Coordinate in
                    let p = row.split(separator: ",")
                    return try Coordinate(latitude: Double(p[1])!, longitude: Double(p[2])!)
                }
            out.append(Instance(name: f[0], home: points[0], stops: Array(points.dropFirst()),
                                given: Double(f[2])!, closed: Double(f[3])!, openAny: Double(f[5])!, openEnd: Double(f[7])!))
        }
        return out
    }
}
