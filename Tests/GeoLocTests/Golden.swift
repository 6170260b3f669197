import Foundation
import GeoLoc
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

/// Names of the golden files' columns, as every golden test reads them.
extension XCTestCase {
    func statusName(_ code: GeoLocError.Code?) -> String {
        guard let code else { return "OK" }
        switch code {
        case .nullArgument: return "E_NULL_ARGUMENT"
        case .notFinite: return "E_NOT_FINITE"
        case .outOfRange: return "E_OUT_OF_RANGE"
        case .invalidArgument: return "E_INVALID_ARGUMENT"
        case .parse: return "E_PARSE"
        case .bufferTooSmall: return "E_BUFFER_TOO_SMALL"
        case .invalidUTF8: return "E_INVALID_UTF8"
        case .countTooLarge: return "E_COUNT_TOO_LARGE"
        case .noHome: return "E_NO_HOME"
        case .homeInvalid: return "E_HOME_INVALID"
        case .unknownCode: return "E_UNKNOWN_CODE"
        case .notFound: return "E_NOT_FOUND"
        case .unsupported: return "E_UNSUPPORTED"
        case .noMemory: return "E_NO_MEMORY"
        case .internalError: return "E_INTERNAL"
        case .noLocality: return "E_NO_LOCALITY"
        case .windowsMissed: return "E_WINDOWS_MISSED"
        }
    }

    func unit(_ name: String) -> DistanceUnit {
        switch name {
        case "METERS": return .meters
        case "KILOMETERS": return .kilometers
        case "MILES": return .miles
        case "NAUTICAL_MILES": return .nauticalMiles
        case "FEET": return .feet
        default: XCTFail("unknown unit \(name)"); return .meters
        }
    }
}
