// libFuzzer target: TZif files (geoloc_tzif_local_time, ZoneRules(tzif:)). The bytes as a file:
// refused with a message, or rules whose every answer keeps its promises: local fields in
// range and agreeing with the offset, next transitions after the instant and changing
// something, and every local date and time read back to instants that show it (or, for a
// skipped one, a gap around it). Built by tests/fuzz/run; the corpus holds TZif files of the
// IANA data (public domain) and made ones.
import CGeoLoc
@_spi(CABI) import GeoLoc

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    var out = geoloc_local_time()
    let st = geoloc_tzif_local_time(data, size, 1_795_550_709, &out)
    expectMessage(st)
    let rules: ZoneRules
    do {
        rules = try ZoneRules(tzif: UnsafeRawBufferPointer(start: data, count: size), name: "fuzz")
    } catch {
        precondition(st != GEOLOC_OK && !error.message.isEmpty, "the C and Swift doors disagree on a TZif file")
        return 0
    }
    precondition(st == GEOLOC_OK, "the C door refused a TZif file the core reads")
    precondition(out.abbreviation.0 != 0, "an empty abbreviation")
    var t: Int64 = minLocalTimeInstant
    for probe in [minLocalTimeInstant, -5_000_000_000, -1, 0, 1_795_550_709, 4_102_444_800, maxLocalTimeInstant] {
        check(rules, probe)
    }
    // The transitions from the far past on, a few dozen of them.
    for _ in 0..<40 {
        guard let next = try! rules.nextTransition(after: t) else { break }
        precondition(next > t, "a next transition not after the instant")
        let a = try! rules.localTime(at: next - 1), b = try! rules.localTime(at: next)
        precondition(a.utcOffset != b.utcOffset || a.isDST != b.isDST || a.abbreviation != b.abbreviation,
                     "a transition that changes nothing")
        check(rules, next)
        t = next
    }
    return 0
}

/// The local time at `t` and its fields; the local date and time read back.
private func check(_ rules: ZoneRules, _ t: Int64) {
    let lt = try! rules.localTime(at: t)
    precondition(lt.month >= 1 && lt.month <= 12 && lt.day >= 1 && lt.day <= 31 && lt.hour < 24 && lt.minute < 60
                 && lt.second < 60 && lt.weekday >= 1 && lt.weekday <= 7 && lt.dayOfYear >= 1 && lt.dayOfYear <= 366)
    precondition(abs(Int(lt.utcOffset)) < 26 * 3600)
    precondition(lt.nextTransition.map { $0 > t } ?? true)
    guard lt.year >= 1 && lt.year <= 9999 else { return }
    let local = lt.dateTime
    guard let r = try? rules.instants(for: local) else { return }
    switch r.kind {
    case .unique, .ambiguous:
        precondition(r.before <= r.after)
        precondition(r.before == t || r.after == t || r.kind == .ambiguous, "the instant does not read back")
        for u in [r.before, r.after] {
            precondition(try! rules.localTime(at: u).dateTime == local, "an instant that does not show the local time")
        }
    case .skipped:
        preconditionFailure("a local time the clocks showed reported as skipped")
    }
}
