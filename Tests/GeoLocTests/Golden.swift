import Foundation
import XCTest

/// Reads the golden case files shared by the Swift, C and Python tests (tests/golden/README.md).
enum Golden {
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("tests/golden")

    /// A row: column name -> field; `nil` for `<NULL>`.
    typealias Row = [String: String?]

    /// The rows of a golden file; `columns`, when given, must be its header row exactly.
    static func rows(
        _ name: String, columns: [String]? = nil, file: StaticString = #filePath, line: UInt = #line
    ) throws -> [Row] {
        let url = directory.appendingPathComponent(name)
        let text = try String(contentsOf: url, encoding: .utf8)
        var header: [String]?
        var rows: [Row] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) where !raw.hasPrefix("#") {
            let fields = raw.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard let h = header else {
                if let columns { XCTAssertEqual(fields, columns, "\(name): header row", file: file, line: line) }
                header = fields
                continue
            }
            XCTAssertEqual(fields.count, h.count, "\(name): row \(raw)", file: file, line: line)
            var row: Row = [:]
            for (k, v) in zip(h, fields) { row[k] = unescape(v) }
            rows.append(row)
        }
        XCTAssertFalse(rows.isEmpty, "\(name) has no rows", file: file, line: line)
        return rows
    }

    static func unescape(_ field: String) -> String? {
        if field == "<NULL>" { return nil }
        var out = ""
        var escaped = false
        for c in field {
            if escaped {
                switch c {
                case "t": out.append("\t")
                case "n": out.append("\n")
                default: out.append(c)
                }
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return out
    }
}

extension Dictionary where Key == String, Value == String? {
    /// The field, "" for a missing column, nil for <NULL>.
    func field(_ key: String) -> String? { self[key] ?? "" }
    func text(_ key: String) -> String { (self[key] ?? "") ?? "" }
    func double(_ key: String) -> Double { Double(text(key)) ?? .nan }
}
