// What the XCTest files share: one seeded generator and one check of thrown errors.
#if canImport(Glibc)
import Glibc
#endif
@testable import GeoLoc
import XCTest

/// A seeded SplitMix64: the same numbers on every platform and run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    init(state: UInt64) { self.state = state }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
    mutating func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * unit() }
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    /// A latitude uniform over the sphere's area, in degrees.
    mutating func latitude() -> Double { asin(2 * unit() - 1) * (180 / Double.pi) }
    /// +1 or -1.
    mutating func sign() -> Double { next() & 1 == 0 ? 1 : -1 }
}

extension XCTestCase {
    /// The body throws `code` with a message (and, when given, exactly `message`).
    func assertThrows<T>(
        _ code: GeoLocError.Code, _ body: () throws(GeoLocError) -> T, message: String? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        do {
            let v = try body()
            XCTFail("expected \(code), got \(v)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.code, code, error.message, file: file, line: line)
            if let message { XCTAssertEqual(error.message, message, file: file, line: line) }
            XCTAssertFalse(error.message.isEmpty, file: file, line: line)
        }
    }
}
