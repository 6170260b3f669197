// libFuzzer target: the compiled zone rules file (data/time/zoneinfo.rules). The bytes as a
// file of their own, and the shipped file with the bytes as (offset, xor) edits and a cut,
// opened as it is (the checksum must refuse it) and resealed (a fresh checksum: the checks
// behind it must refuse it, or give a database whose every zone answers). Built by
// tests/fuzz/run.
import CGeoLoc
@_spi(Testing) import GeoLoc

#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    open(bytes)
    guard bytes.count >= 3, !shipped.isEmpty else { return 0 }
    var file = shipped
    var k = 1
    while k + 2 < bytes.count {
        // Edits mostly in the header and the first sections, where the counts and indices are.
        let raw = Int(bytes[k]) | Int(bytes[k + 1]) << 8
        let offset = bytes[0] & 1 == 0 ? raw % min(file.count, 8192) : raw * 4 % file.count
        file[offset] ^= bytes[k + 2]
        k += 3
    }
    if bytes[0] & 0x80 != 0 { file.removeLast(Int(bytes[bytes.count - 1]) % file.count) }
    if file != shipped { precondition(open(file) == false, "an edited rules file passed its checksum") }
    file.withUnsafeMutableBytes { ZoneRulesDatabase.resealRulesFile($0) }
    open(file)
    return 0
}

/// The shipped rules file of the source tree.
private let shipped: [UInt8] = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(4)  // tests/fuzz/targets/time_rules.swift
    let path = parts.joined(separator: "/") + "/data/time/zoneinfo.rules"
    return readFile(path)
}()

/// Opens rules-file bytes: a refusal has a message; a database answers for every zone.
@discardableResult
private func open(_ bytes: [UInt8]) -> Bool {
    let db: ZoneRulesDatabase
    do {
        db = try bytes.withUnsafeBytes { b in Result { () throws(GeoLocError) in try ZoneRulesDatabase(rulesFileBytes: b) } }.get()
    } catch {
        precondition(!error.message.isEmpty && (error.code == .parse || error.code == .unsupported))
        return false
    }
    // Eight names across the file (every zone would make a run take a tenth of a second).
    for k in stride(from: 0, to: db.names.count, by: max(1, db.names.count / 8)) {
        guard let rules = try? db.rules(named: db.names[k]) else { continue }
        for t: Int64 in [minLocalTimeInstant, 0, 1_795_550_709, maxLocalTimeInstant] {
            let lt = try! rules.localTime(at: t)
            precondition(lt.hour < 24 && abs(Int(lt.utcOffset)) < 26 * 3600 && !lt.abbreviation.isEmpty)
            precondition(lt.nextTransition.map { $0 > t } ?? true)
        }
        _ = try? rules.instants(for: LocalDateTime(year: 2026, month: 3, day: 8, hour: 2, minute: 30))
    }
    return true
}
