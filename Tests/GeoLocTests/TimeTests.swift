// Time: local time from the IANA rules (TZif, the compiled rules file, the database), checked
// against Python's zoneinfo (tests/time/zoneinfo.txt, tools/gen_time_cases.py).
#if canImport(Glibc)
import Glibc
#endif
@testable @_spi(CABI) @_spi(Testing) import GeoLoc
import XCTest

// MARK: - Local time

private let repoRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Tests/GeoLocTests/TimeTests.swift
    return parts.joined(separator: "/")
}()

/// The shipped rules alone, as on a machine without /usr/share/zoneinfo.
private let shippedOnly: ZoneRulesDatabase = {
    try! ZoneRulesDatabase(compiledFile: repoRoot + "/data/time/zoneinfo.rules", systemDirectory: nil)
}()

private func zone(_ name: String) -> ZoneRules { try! shippedOnly.rules(named: name) }

/// The UTC fields of `t` by the C library (an oracle apart from the library's calendar).
private func utcFields(_ t: Int64) -> [Int] {
    var time = time_t(t)
    var tm = tm()
    gmtime_r(&time, &tm)
    return [Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1, Int(tm.tm_mday), Int(tm.tm_hour), Int(tm.tm_min), Int(tm.tm_sec),
            tm.tm_wday == 0 ? 7 : Int(tm.tm_wday), Int(tm.tm_yday) + 1]
}

private func fields(_ lt: LocalTime) -> [Int] {
    [lt.year, lt.month, lt.day, lt.hour, lt.minute, lt.second, lt.weekday, lt.dayOfYear]
}

/// One zone of tests/time/zoneinfo.txt.
private struct ZoneinfoZone {
    var name: String
    /// (from, offset, dst, abbreviation): the first is the state at 1970-01-01T00:00Z.
    var states: [(Int64, Int32, Bool, String)] = []
    var samples: [(Int64, Int32, Bool, String)] = []

    func state(at t: Int64) -> (Int32, Bool, String) {
        var k = 0
        while k + 1 < states.count && states[k + 1].0 <= t { k += 1 }
        return (states[k].1, states[k].2, states[k].3)
    }
}

private let zoneinfoTable: (zones: [ZoneinfoZone], links: [(String, String)]) = {
    var zones: [ZoneinfoZone] = []
    var links: [(String, String)] = []
    let f = fopen(repoRoot + "/tests/time/zoneinfo.txt", "r")!
    defer { fclose(f) }
    var line: UnsafeMutablePointer<CChar>? = nil
    var cap = 0
    while getline(&line, &cap, f) > 0 {
        let p = String(cString: line!).split(separator: " ").map { String($0.filter { $0 != "\n" }) }
        switch p.first {
        case "Z": zones.append(ZoneinfoZone(name: p[1]))
        case "S": zones[zones.count - 1].states.append((Int64(p[1])!, Int32(p[2])!, p[3] == "1", p[4]))
        case "P": zones[zones.count - 1].samples.append((Int64(p[1])!, Int32(p[2])!, p[3] == "1", p[4]))
        case "L": links.append((p[1], p[2]))
        default: break
        }
    }
    free(line)
    return (zones, links)
}()

private let end2037: Int64 = 2_145_916_800  // 2038-01-01T00:00:00Z

final class TimeTests: XCTestCase {
    /// Every zone at every transition of 1970-2037 and the hour around it, the far past and the
    /// far future, as Python's zoneinfo (tzdata 2026.6, IANA 2026f) gives them.
    func testEveryZoneAgainstZoneinfo() throws {
        let (zones, links) = zoneinfoTable
        XCTAssertEqual(zones.count, 345)
        XCTAssertEqual(zones.count + links.count, shippedOnly.names.count)
        var checked = 0
        for z in zones {
            let rules = try shippedOnly.rules(named: z.name)
            func expect(_ t: Int64, _ want: (Int32, Bool, String), _ what: String) {
                let lt = try! rules.localTime(at: t)
                guard lt.utcOffset == want.0, lt.isDST == want.1, lt.abbreviation == want.2 else {
                    XCTFail("\(z.name) at \(t) (\(what)): \(lt.utcOffset) \(lt.isDST) \(lt.abbreviation), zoneinfo \(want)")
                    return
                }
                XCTAssertEqual(fields(lt), utcFields(t + Int64(want.0)), "\(z.name) at \(t)")
                checked += 1
            }
            for (k, s) in z.states.enumerated() {
                let t = s.0
                for d: Int64 in [-3600, -1800, -1, 0, 1, 1800, 3599] where t + d >= 0 && t + d < end2037 {
                    expect(t + d, z.state(at: t + d), "transition \(k) \(d >= 0 ? "+" : "")\(d)")
                }
                // The next transition after each one (and after the second before it) is the next row.
                if k > 0 { XCTAssertEqual(try rules.nextTransition(after: t - 1), t, "\(z.name) transition \(k)") }
                let next = try rules.nextTransition(after: t)
                if k + 1 < z.states.count {
                    XCTAssertEqual(next, z.states[k + 1].0, "\(z.name) after transition \(k)")
                } else {
                    XCTAssertTrue(next == nil || next! >= end2037, "\(z.name): a transition at \(next!) zoneinfo does not see")
                }
                // Every local time in a gap or a fold reads back as zoneinfo's fold=0 and fold=1.
                if k > 0 && z.states[k - 1].1 != s.1 {
                    let ob = Int64(z.states[k - 1].1), oa = Int64(s.1)
                    for local in [t + min(ob, oa), t + (ob + oa) / 2, t + max(ob, oa) - 1] {
                        let f = utcFields(local)
                        let r = try rules.instants(for: LocalDateTime(year: f[0], month: f[1], day: f[2], hour: f[3], minute: f[4], second: f[5]))
                        XCTAssertEqual(r.kind, oa > ob ? .skipped : .ambiguous, "\(z.name) local \(local)")
                        XCTAssertEqual([r.before, r.after], [local - ob, local - oa], "\(z.name) local \(local)")
                        XCTAssertEqual(r.transition, t)
                        XCTAssertEqual([Int64(r.offsetBefore), Int64(r.offsetAfter)], [ob, oa])
                    }
                    // The second before the gap or fold: once.
                    let f = utcFields(t + min(ob, oa) - 1)
                    let once = try rules.instants(for: LocalDateTime(year: f[0], month: f[1], day: f[2], hour: f[3], minute: f[4], second: f[5]))
                    if t - z.states[k - 1].0 > 2 * 86400 {
                        XCTAssertEqual(once.kind, .unique, "\(z.name) before transition \(k)")
                        XCTAssertEqual(once.instant, oa > ob ? t - 1 : t + min(ob, oa) - 1 - ob)
                    }
                }
            }
            for s in z.samples { expect(s.0, (s.1, s.2, s.3), "sample") }
        }
        // Links read the same rules as their zone.
        let byName = Dictionary(uniqueKeysWithValues: zones.map { ($0.name, $0) })
        for (link, target) in links {
            let rules = try shippedOnly.rules(named: link)
            XCTAssertEqual(rules.name, link)
            for s in byName[target]!.states + byName[target]!.samples {
                let lt = try rules.localTime(at: s.0)
                XCTAssertTrue(lt.utcOffset == s.1 && lt.isDST == s.2 && lt.abbreviation == s.3, "\(link) at \(s.0)")
            }
        }
        XCTAssertGreaterThan(checked, 100_000)
    }

    func testNewYork() throws {
        let ny = zone("America/New_York")
        // 2026-03-08 02:00 EST -> 03:00 EDT (07:00Z); 2026-11-01 02:00 EDT -> 01:00 EST (06:00Z).
        XCTAssertEqual(try ny.nextTransition(after: 1_767_225_600), 1_772_953_200)
        XCTAssertEqual(try ny.nextTransition(after: 1_772_953_200), 1_793_512_800)
        let winter = try ny.localTime(at: 1_772_953_199)
        XCTAssertEqual([winter.hour, winter.minute, winter.second], [1, 59, 59])
        XCTAssertEqual(winter.formatted(.seconds), "2026-03-08 01:59:59 EST")
        let summer = try ny.localTime(at: 1_772_953_200)
        XCTAssertEqual(summer.formatted(.iso8601), "2026-03-08T03:00:00-04:00")
        XCTAssertTrue(summer.isDST)
        XCTAssertEqual(summer.weekday, 7)
        // 02:30 on 2026-03-08 never happened; 01:30 on 2026-11-01 happened twice.
        let skipped = try ny.instants(for: LocalDateTime(year: 2026, month: 3, day: 8, hour: 2, minute: 30))
        XCTAssertEqual(skipped.kind, .skipped)
        XCTAssertNil(skipped.instant)
        XCTAssertEqual(skipped.transition, 1_772_953_200)
        XCTAssertEqual(skipped.before, 1_772_955_000)  // read as EST: 07:30Z, 03:30 EDT
        XCTAssertEqual(skipped.after, 1_772_951_400)  // read as EDT: 06:30Z, 01:30 EST
        let twice = try ny.instants(for: LocalDateTime(year: 2026, month: 11, day: 1, hour: 1, minute: 30))
        XCTAssertEqual(twice.kind, .ambiguous)
        XCTAssertEqual([twice.before, twice.after], [1_793_511_000, 1_793_514_600])
        XCTAssertEqual([twice.offsetBefore, twice.offsetAfter], [-14400, -18000])
        let once = try ny.instants(for: LocalDateTime(year: 2026, month: 11, day: 24, hour: 9, minute: 5))
        XCTAssertEqual(once.kind, .unique)
        XCTAssertEqual(once.instant, 1_795_529_100)
        // The far past (local mean time, -4:56:02) and the far future (the footer's rules).
        let lmt = try ny.localTime(at: -5_364_619_200)
        XCTAssertEqual(lmt.formatted(.iso8601), "1800-01-01T07:03:58-04:56:02")
        XCTAssertEqual(lmt.abbreviation, "LMT")
        XCTAssertEqual(try ny.localTime(at: maxLocalTimeInstant).formatted(.seconds), "9999-12-31 18:59:59 EST")
        XCTAssertNil(try ny.localTime(at: maxLocalTimeInstant).nextTransition)
        XCTAssertEqual(try ny.localTime(at: 4_108_708_800).formatted(), "2100-03-14 08:00 EDT")
        XCTAssertEqual(try ny.localTime(at: 32_516_769_600).formatted(), "3000-06-01 08:00 EDT")
    }

    func testLondonLordHoweTehranSantiagoChathamCasablanca() throws {
        func states(_ name: String, _ t: Int64) throws -> [String] {
            let z = zone(name)
            return [try z.localTime(at: t - 1).formatted(.iso8601) + " " + z.localTime(at: t - 1).abbreviation,
                    try z.localTime(at: t).formatted(.iso8601) + " " + z.localTime(at: t).abbreviation]
        }
        XCTAssertEqual(try states("Europe/London", 1_774_746_000), ["2026-03-29T00:59:59+00:00 GMT", "2026-03-29T02:00:00+01:00 BST"])
        XCTAssertEqual(try states("Europe/London", 1_792_890_000), ["2026-10-25T01:59:59+01:00 BST", "2026-10-25T01:00:00+00:00 GMT"])
        // Lord Howe: half an hour of daylight saving time.
        XCTAssertEqual(try states("Australia/Lord_Howe", 1_775_314_800), ["2026-04-05T01:59:59+11:00 +11", "2026-04-05T01:30:00+10:30 +1030"])
        XCTAssertEqual(try states("Australia/Lord_Howe", 1_791_041_400), ["2026-10-04T01:59:59+10:30 +1030", "2026-10-04T02:30:00+11:00 +11"])
        let fold = try zone("Australia/Lord_Howe").instants(for: LocalDateTime(year: 2026, month: 4, day: 5, hour: 1, minute: 45))
        XCTAssertEqual(fold.kind, .ambiguous)
        XCTAssertEqual(fold.after - fold.before, 1800)
        let gap = try zone("Australia/Lord_Howe").instants(for: LocalDateTime(year: 2026, month: 10, day: 4, hour: 2, minute: 15))
        XCTAssertEqual(gap.kind, .skipped)
        XCTAssertEqual(gap.before - gap.after, 1800)
        // Tehran: +0330, with daylight saving time until 2022.
        XCTAssertEqual(try states("Asia/Tehran", 1_616_358_600), ["2021-03-21T23:59:59+03:30 +0330", "2021-03-22T01:00:00+04:30 +0430"])
        XCTAssertEqual(try zone("Asia/Tehran").text(at: 1_795_550_709), "2026-11-24 23:35 +0330")
        XCTAssertNil(try zone("Asia/Tehran").nextTransition(after: 1_700_000_000))
        // Santiago: the change at midnight of Saturday (24:00).
        XCTAssertEqual(try states("America/Santiago", 1_775_358_000), ["2026-04-04T23:59:59-03:00 -03", "2026-04-04T23:00:00-04:00 -04"])
        XCTAssertEqual(try states("America/Santiago", 1_788_667_200), ["2026-09-05T23:59:59-04:00 -04", "2026-09-06T01:00:00-03:00 -03"])
        // Chatham: +1245 and +1345.
        XCTAssertEqual(try states("Pacific/Chatham", 1_790_431_200), ["2026-09-27T02:44:59+12:45 +1245", "2026-09-27T03:45:00+13:45 +1345"])
        // Casablanca: +01 with Ramadan at +00 (marked as daylight saving time), until 2026's change.
        XCTAssertEqual(try states("Africa/Casablanca", 1_771_120_800), ["2026-02-15T02:59:59+01:00 +01", "2026-02-15T02:00:00+00:00 +00"])
        XCTAssertTrue(try zone("Africa/Casablanca").localTime(at: 1_771_120_800).isDST)
        XCTAssertEqual(try states("Africa/Casablanca", 1_789_866_000), ["2026-09-20T01:59:59+01:00 +01", "2026-09-20T01:00:00+00:00 +00"])
        // Dublin: winter is the daylight saving time of the IANA data.
        XCTAssertTrue(try zone("Europe/Dublin").localTime(at: 1_767_225_600).isDST)
        XCTAssertFalse(try zone("Europe/Dublin").localTime(at: 1_780_000_000).isDST)
    }

    func testTextAndFields() throws {
        let chicago = zone("America/Chicago")
        let t: Int64 = 1_795_550_709  // 2026-11-24T20:05:09Z
        XCTAssertEqual(try chicago.text(at: t), "2026-11-24 14:05 CST")
        XCTAssertEqual(try chicago.text(at: t, style: .seconds), "2026-11-24 14:05:09 CST")
        XCTAssertEqual(try chicago.text(at: t, style: .iso8601), "2026-11-24T14:05:09-06:00")
        XCTAssertEqual(try chicago.text(at: t, style: .twelveHour), "2:05 PM CST")
        XCTAssertEqual(try chicago.text(at: t - 14 * 3600, style: .twelveHour), "12:05 AM CST")
        XCTAssertEqual(try chicago.text(at: t - 2 * 3600, style: .twelveHour), "12:05 PM CST")
        XCTAssertEqual(try zone("UTC").text(at: 0, style: .iso8601), "1970-01-01T00:00:00+00:00")
        XCTAssertEqual(try zone("Asia/Kolkata").text(at: 0), "1970-01-01 05:30 IST")
        let lt = try chicago.localTime(at: t)
        XCTAssertEqual([lt.weekday, lt.dayOfYear, Int(lt.utcOffset)], [2, 328, -21600])
        XCTAssertEqual(lt.dateTime, LocalDateTime(year: 2026, month: 11, day: 24, hour: 14, minute: 5, second: 9))
        // The ends of the range, and beyond it.
        XCTAssertEqual(try zone("Pacific/Kiritimati").localTime(at: maxLocalTimeInstant).year, 10000)
        XCTAssertEqual(try zone("Pacific/Kiritimati").text(at: maxLocalTimeInstant), "10000-01-01 13:59 +14")
        XCTAssertEqual(try zone("America/Los_Angeles").localTime(at: minLocalTimeInstant).year, 0)
        assertThrows(.outOfRange) { () throws(GeoLocError) in try chicago.localTime(at: maxLocalTimeInstant + 1) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try chicago.localTime(at: minLocalTimeInstant - 1) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try chicago.instants(for: LocalDateTime(year: 2026, month: 2, day: 29)) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try chicago.instants(for: LocalDateTime(year: 2026, month: 1, day: 1, hour: 24)) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try chicago.instants(for: LocalDateTime(year: 0, month: 1, day: 1)) }
        XCTAssertEqual(try chicago.instants(for: LocalDateTime(year: 2028, month: 2, day: 29)).kind, .unique)
    }

    func testBatchAndLocalDates() throws {
        let ny = zone("America/New_York")
        // A track across the 2026 fall-back and around midnight, in time order, then shuffled.
        var times: [Double] = []
        for k in 0..<500 { times.append(1_793_490_000 + Double(k) * 97.25) }
        var rng = SplitMix64(seed: 23)
        var shuffled = times
        shuffled.shuffle(using: &rng)
        for input in [times, shuffled] {
            let batch = try ny.localTimes(at: input)
            for (t, lt) in zip(input, batch) { XCTAssertEqual(lt, try ny.localTime(at: Int64(t.rounded(.down)))) }
            let dates = try ny.localDates(at: input)
            XCTAssertEqual(dates.map(\.text), batch.map { LocalDate(year: $0.year, month: $0.month, day: $0.day).text })
        }
        XCTAssertEqual(try ny.localDates(at: [1_793_512_799.9, -0.5]).map(\.text), ["2026-11-01", "1969-12-31"])
        assertThrows(.notFinite, { () throws(GeoLocError) in try ny.localTimes(at: [0, .nan]) }, message: "times[1] is nan")
        assertThrows(.outOfRange) { () throws(GeoLocError) in try ny.localTimes(at: [0, 1e300]) }
        XCTAssertEqual(try ny.localTimes(at: []), [])
    }

    // MARK: - Names and the database

    func testNamesAndDatabase() throws {
        XCTAssertEqual(shippedOnly.version, "2026f")
        XCTAssertEqual(shippedOnly.source, .compiled(path: repoRoot + "/data/time/zoneinfo.rules"))
        XCTAssertTrue(shippedOnly.names.contains("America/Chicago") && shippedOnly.names.contains("US/Central"))
        XCTAssertEqual(try shippedOnly.rules(named: "america/chicago").name, "America/Chicago")
        XCTAssertTrue(try shippedOnly.rules(named: "America/Chicago") === shippedOnly.rules(named: "America/Chicago"))
        assertThrows(.notFound) { () throws(GeoLocError) in try shippedOnly.rules(named: "Mars/Olympus_Mons") }
        for bad in ["", "../etc/passwd", "/etc/passwd", "America//Chicago", "America/", "a/./b", "-x", "Am\u{e9}rica/Chicago", "a b"] {
            assertThrows(.invalidArgument) { () throws(GeoLocError) in try shippedOnly.rules(named: bad) }
        }
        XCTAssertTrue(ZoneRulesDatabase.isNewer("2026g", than: "2026f"))
        XCTAssertTrue(ZoneRulesDatabase.isNewer("2027a", than: "2026z"))
        XCTAssertTrue(ZoneRulesDatabase.isNewer("2026za", than: "2026z"))
        XCTAssertFalse(ZoneRulesDatabase.isNewer("2026f", than: "2026f"))
        XCTAssertFalse(ZoneRulesDatabase.isNewer("", than: "2026f"))
        XCTAssertFalse(ZoneRulesDatabase.isNewer("2025b", than: "2026f"))
        // The shared database finds the shipped rules from the source tree.
        let shared = try ZoneRulesDatabase.shared()
        XCTAssertFalse(shared.names.isEmpty)
        XCTAssertEqual(try ZoneRules.named("Europe/Paris").name, "Europe/Paris")
    }

    /// A system directory with a newer release is read first; an older one only for what the
    /// compiled rules lack.
    func testSystemDirectoryWhenNewer() throws {
        let dir = "/tmp/geoloc-zoneinfo-\(getpid())"
        mkdir(dir, 0o755)
        mkdir(dir + "/America", 0o755)
        defer {
            for f in ["tzdata.zi", "America/New_York", "Test_Zone"] { unlink(dir + "/" + f) }
            rmdir(dir + "/America")
            rmdir(dir)
        }
        let fixed = tzif(types: [(18000, false, "ABC")], transitions: [], footer: "ABC-5")
        write(dir + "/America/New_York", fixed)
        write(dir + "/Test_Zone", fixed)
        let file = repoRoot + "/data/time/zoneinfo.rules"
        for (release, systemFirst) in [("2999a", true), ("2020a", false)] {
            write(dir + "/tzdata.zi", Array("# version \(release)\nZ Test_Zone 5 - ABC\nL Test_Zone Test/Link\n".utf8))
            let db = try ZoneRulesDatabase(compiledFile: file, systemDirectory: dir)
            XCTAssertEqual(db.version, systemFirst ? release : "2026f")
            XCTAssertEqual(db.systemVersion, release)
            XCTAssertEqual(try db.rules(named: "America/New_York").text(at: 0), systemFirst ? "1970-01-01 05:00 ABC" : "1969-12-31 19:00 EST")
            XCTAssertEqual(try db.rules(named: "Test_Zone").text(at: 0), "1970-01-01 05:00 ABC")
            XCTAssertEqual(try db.rules(named: "Europe/Paris").text(at: 0), "1970-01-01 01:00 CET")
            XCTAssertEqual(db.names.contains("Test_Zone"), systemFirst)
        }
        // No compiled file: the directory alone.
        let alone = try ZoneRulesDatabase(compiledFile: nil, systemDirectory: dir)
        XCTAssertEqual(alone.source, .system(directory: dir))
        assertThrows(.notFound) { () throws(GeoLocError) in try alone.rules(named: "Europe/Paris") }
        assertThrows(.notFound) { () throws(GeoLocError) in try ZoneRulesDatabase(compiledFile: nil, systemDirectory: nil) }
    }

    /// The system's own TZif files read as the compiled rules do where both releases agree.
    func testSystemFilesAgree() throws {
        guard access("/usr/share/zoneinfo/America/New_York", R_OK) == 0 else { throw XCTSkip("no /usr/share/zoneinfo") }
        let system = try ZoneRulesDatabase(compiledFile: nil, systemDirectory: "/usr/share/zoneinfo")
        for name in ["America/New_York", "Europe/London", "Australia/Lord_Howe", "Pacific/Chatham", "Asia/Kolkata"] {
            let a = try system.rules(named: name), b = zone(name)
            var t: Int64 = 0
            while t < 1_700_000_000 {
                XCTAssertEqual(try a.localTime(at: t), try b.localTime(at: t), "\(name) at \(t)")
                t += 86400 * 7 + 3607
            }
        }
        guard access("/usr/share/zoneinfo/right/UTC", R_OK) == 0 else { return }
        assertThrows(.unsupported) { () throws(GeoLocError) in
            let bytes = try readRegularFile("/usr/share/zoneinfo/right/UTC", limit: 1 << 20)
            return try bytes.withUnsafeBytes { b in Result { () throws(GeoLocError) in try ZoneRules(tzif: b) } }.get()
        }
    }
}

// MARK: - TZif files made here

/// A version 2 TZif file: an empty version 1 block, then the 64-bit data and the footer.
func tzif(types: [(Int32, Bool, String)], transitions: [(Int64, UInt8)], footer: String, version: UInt8 = 0x32) -> [UInt8] {
    var chars: [UInt8] = []
    var at: [Int] = []
    for t in types {
        at.append(chars.count)
        chars += Array(t.2.utf8) + [0]
    }
    func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
    func header(_ timecnt: Int, _ typecnt: Int, _ charcnt: Int) -> [UInt8] {
        Array("TZif".utf8) + [version] + [UInt8](repeating: 0, count: 15) + be32(0) + be32(0) + be32(0)
            + be32(UInt32(timecnt)) + be32(UInt32(typecnt)) + be32(UInt32(charcnt))
    }
    var out = header(0, 1, 1) + [0, 0, 0, 0, 0, 0] + [0]
    out += header(transitions.count, types.count, chars.count)
    for (t, _) in transitions { out += be32(UInt32(truncatingIfNeeded: t >> 32)) + be32(UInt32(truncatingIfNeeded: t)) }
    out += transitions.map(\.1)
    for (k, t) in types.enumerated() { out += be32(UInt32(bitPattern: t.0)) + [t.1 ? 1 : 0, UInt8(at[k])] }
    out += chars
    out += [10] + Array(footer.utf8) + [10]
    return out
}

private func write(_ path: String, _ bytes: [UInt8]) {
    let f = fopen(path, "wb")!
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
    fclose(f)
}

// MARK: - The parsers

final class TimeParserTests: XCTestCase {
    private let valid = tzif(
        types: [(-21036, false, "LMT"), (-18000, false, "EST"), (-14400, true, "EDT")],
        transitions: [(-2_717_650_800, 1), (9_972_000, 2), (25_693_200, 1)], footer: "EST5EDT,M3.2.0,M11.1.0")

    private func parse(_ bytes: [UInt8]) throws(GeoLocError) -> ZoneRules {
        try bytes.withUnsafeBytes { b in Result { () throws(GeoLocError) in try ZoneRules(tzif: b, name: "test") } }.get()
    }

    func testMadeFiles() throws {
        let z = try parse(valid)
        XCTAssertEqual(try z.text(at: 0), "1969-12-31 19:00 EST")
        XCTAssertEqual(try z.text(at: -3_000_000_000), "1874-12-07 12:49 LMT")
        XCTAssertEqual(try z.text(at: 1_795_550_709), "2026-11-24 15:05 EST")
        XCTAssertEqual(try z.text(at: 1_780_000_000), "2026-05-28 16:26 EDT")
        // Version 1: 32-bit times, no footer.
        var v1: [UInt8] = Array("TZif".utf8) + [UInt8](repeating: 0, count: 16)
        v1 += [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 8]
        v1 += [0, 0, 0, 100] + [1] + [0, 0, 0, 0, 0, 0] + [0, 0, 14, 16, 1, 4] + Array("UTC\0ABC\0".utf8)
        let z1 = try parse(v1)
        XCTAssertEqual(try z1.text(at: 99), "1970-01-01 00:01 UTC")
        XCTAssertEqual(try z1.text(at: 100), "1970-01-01 01:01 ABC")
        XCTAssertNil(try z1.nextTransition(after: 100))
        // Versions 3 and 4, and a later version read as 4; no transitions and no footer.
        for v: UInt8 in [0x33, 0x34, 0x39] {
            XCTAssertEqual(try parse(tzif(types: [(3600, false, "ABC")], transitions: [], footer: "", version: v)).text(at: 0), "1970-01-01 01:00 ABC")
        }
        // RFC 8536's extensions: a rule at hour 25 and a negative hour (as Gaza's, Godthab's).
        let ext = try parse(tzif(types: [(7200, false, "EET")], transitions: [(0, 0)], footer: "EET-2EEST,M3.4.4/50,M10.4.4/-1"))
        // M3.4.4/50: 50 hours after the fourth Thursday of March began, Saturday 02:00.
        XCTAssertEqual(try ext.text(at: 1_774_656_000), "2026-03-28 03:00 EEST")
        XCTAssertEqual(try ext.text(at: 1_774_655_999), "2026-03-28 01:59 EET")
        // M10.4.4/-1: an hour before the fourth Thursday of October began (Wednesday 23:00 EEST).
        XCTAssertEqual(try ext.text(at: 1_792_612_800), "2026-10-21 22:00 EET")
        XCTAssertEqual(try ext.text(at: 1_792_612_799), "2026-10-21 22:59 EEST")
    }

    func testMalformedFiles() {
        func refuses(_ bytes: [UInt8], _ code: GeoLocError.Code = .parse, file: StaticString = #filePath, line: UInt = #line) {
            assertThrows(code, { () throws(GeoLocError) in try parse(bytes) }, file: file, line: line)
        }
        // Every prefix of a valid file is refused, with a message.
        for n in 0..<valid.count { refuses(Array(valid.prefix(n))) }
        refuses(valid + [0])
        var bad = valid
        bad[0] = 0x58
        refuses(bad)
        bad = valid
        bad[4] = 0x31
        refuses(bad)
        // The 64-bit block starts after the empty version 1 block (44 + 7 bytes).
        let h = 51, data = 51 + 44
        bad = valid
        bad[h + 39] = 0  // no types
        refuses(bad)
        bad = valid
        bad[data + 8] = 0x80  // the second transition before the first
        refuses(bad)
        bad = valid
        bad[data + 24] = 3  // a type that does not exist
        refuses(bad)
        bad = valid
        bad[data + 27] = 0x7F  // an offset beyond 26 hours
        refuses(bad)
        bad = valid
        bad[data + 27 + 4] = 2  // a DST flag of 2
        refuses(bad)
        bad = valid
        bad[data + 27 + 5] = 200  // an abbreviation beyond the bytes
        refuses(bad)
        bad = valid
        bad[data + 27 + 18 + 3] = 0x2A  // "LMT" -> "LMT*" ... its NUL replaced
        refuses(bad)
        let n = valid.count
        bad = valid
        bad[n - 1] = 0x41  // no closing newline
        refuses(bad)
        refuses(tzif(types: [(0, false, "UTC")], transitions: [], footer: "UTC0X"))
        refuses(tzif(types: [(0, false, "UTC")], transitions: [], footer: "EST5EDT"))
        refuses(tzif(types: [(0, false, "UTC")], transitions: [], footer: "<AB>0"))
        refuses(tzif(types: [(0, false, "UTC")], transitions: [], footer: "ABC25"))
        refuses(tzif(types: [(0, false, "UTC")], transitions: [], footer: "ABC5DEF,M13.1.0,M1.1.0"))
        refuses(tzif(types: [(0, false, "UTC")], transitions: [], footer: "ABC5DEF,J366,J1"))
        refuses(tzif(types: [(0, false, "UTC")], transitions: [], footer: "ABC5DEF,J1/168,J2"))
        refuses(tzif(types: [(0, false, "ABCDEFGHIJK")], transitions: [], footer: ""))
        refuses(tzif(types: [(0, false, "A B")], transitions: [], footer: ""))
        // Leap seconds: well formed, but not Unix seconds.
        var leap = tzif(types: [(0, false, "UTC")], transitions: [], footer: "UTC0")
        leap[data - 44 + 31] = 1
        leap.insert(contentsOf: [0, 0, 0, 0, 4, 0x4E, 0x4A, 0x80, 0, 0, 0, 1], at: leap.count - 6)
        refuses(leap, .unsupported)
        // Any one byte changed: refused or read, never a trap.
        for i in 0..<valid.count {
            for x: UInt8 in [0x01, 0x80, 0xFF] {
                bad = valid
                bad[i] ^= x
                _ = try? parse(bad)
            }
        }
    }

    func testCompiledFileChecks() throws {
        let bytes = try readRegularFile(repoRoot + "/data/time/zoneinfo.rules", limit: 1 << 24)
        func open(_ b: [UInt8]) throws(GeoLocError) -> ZoneRulesDatabase {
            try b.withUnsafeBytes { r in Result { () throws(GeoLocError) in try ZoneRulesDatabase(rulesFileBytes: r) } }.get()
        }
        XCTAssertEqual(try open(bytes).names.count, 598)
        // Any changed byte fails the checksum; a truncated file says so.
        var rng = SplitMix64(seed: 8536)
        for _ in 0..<200 {
            var b = bytes
            b[rng.int(b.count)] ^= UInt8(1 + rng.int(255))
            assertThrows(.parse) { () throws(GeoLocError) in try open(b) }
        }
        assertThrows(.parse, { () throws(GeoLocError) in try open(Array(bytes.prefix(1000))) })
        assertThrows(.parse, { () throws(GeoLocError) in try open(Array(bytes.prefix(100))) })
        var newer = bytes
        newer[8] = 2
        assertThrows(.unsupported) { () throws(GeoLocError) in try open(newer) }
        // Changed and resealed: refused by the checks behind the checksum, or read; never a trap,
        // and every zone of a file that opens answers.
        var refused = 0
        for k in 0..<400 {
            var b = bytes
            let at = k < 200 ? 128 + rng.int(4000) : rng.int(b.count)
            b[at] ^= UInt8(1 + rng.int(255))
            b.withUnsafeMutableBytes { ZoneRulesDatabase.resealRulesFile($0) }
            do {
                let db = try open(b)
                for name in db.names.prefix(8) {
                    if let z = try? db.rules(named: name) { _ = try z.localTime(at: 1_800_000_000) }
                }
            } catch {
                XCTAssertEqual(error.code, .parse, error.message)
                refused += 1
            }
        }
        XCTAssertGreaterThan(refused, 100)
    }
}
