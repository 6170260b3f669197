/// The one error type of libgeoloc: a stable code and a message that says what was wrong.
///
/// The codes are the numbers of the C interface's `geoloc_status`; they never change and are
/// never reused.
public struct GeoLocError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure it was. `rawValue` is the C `geoloc_status`.
    public enum Code: Int32, Sendable, CaseIterable {
        case nullArgument = 1
        case notFinite = 2
        case outOfRange = 3
        case invalidArgument = 4
        case parse = 5
        case bufferTooSmall = 6
        case invalidUTF8 = 7
        case countTooLarge = 8
        case noHome = 9
        case homeInvalid = 10
        case unknownCode = 11
        case notFound = 12
        case unsupported = 13
        case noMemory = 14
        case internalError = 15
        case noLocality = 16
        case windowsMissed = 17

        /// A short static description, the same text as `geoloc_status_string`.
        public var summary: StaticString {
            switch self {
            case .nullArgument: return "a required pointer was NULL"
            case .notFinite: return "a number was NaN or infinite"
            case .outOfRange: return "a value was outside its range"
            case .invalidArgument: return "an argument was not one of its documented values"
            case .parse: return "text could not be parsed"
            case .bufferTooSmall: return "the buffer was too small"
            case .invalidUTF8: return "text was not valid UTF-8"
            case .countTooLarge: return "a count was too large"
            case .noHome: return "no home location is set"
            case .homeInvalid: return "the home location is malformed"
            case .unknownCode: return "unknown weather code"
            case .notFound: return "not found"
            case .unsupported: return "not supported in this version"
            case .noMemory: return "out of memory"
            case .internalError: return "internal error"
            case .noLocality: return "no locality near the point"
            case .windowsMissed: return "no order meets every time window"
            }
        }
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

/// The largest element count any batch operation accepts (2^30), as `GEOLOC_MAX_COUNT`.
public let maxCount = 1 << 30

/// Checks a count against `maxCount` and returns it. A C `size_t` above `Int.max` arrives
/// negative; the message shows it as the caller's unsigned value.
@_spi(CABI)
@inline(__always)
public func checkCount(_ n: Int, _ what: String = "count") throws(GeoLocError) -> Int {
    if n < 0 || n > maxCount {
        throw GeoLocError(
            .countTooLarge, "\(what) \(UInt(bitPattern: n)) is larger than GEOLOC_MAX_COUNT (\(maxCount))")
    }
    return n
}

/// A number as a message shows it: the shortest text that reads back as the same value, without
/// a trailing ".0" (91, not 91.0; 1e+300 stays as it is).
@_spi(CABI)
public func show(_ v: Double) -> String {
    let text = "\(v)"
    return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
}
