// The POSIX TZ string of a TZif footer (RFC 8536 section 3.3, POSIX.1-2017 section 8.3, with
// RFC 8536's extensions: transition hours from -167 to 167): the rule for instants after a
// zone's last transition, such as "CST6CDT,M3.2.0,M11.1.0" or "<+0330>-3:30".

/// A parsed TZ string: a standard type, and optionally a daylight saving type with the yearly
/// rules that start and end it.
struct PosixTimeZone: Equatable {
    /// The date of a yearly transition.
    enum Day: Equatable {
        /// `Jn`: day n (1 ... 365) of the year, February 29 never counted.
        case julian(Int)
        /// `n`: day n (0 ... 365) of the year counted from 0, February 29 counted.
        case ordinal(Int)
        /// `Mm.w.d`: weekday d (0 Sunday ... 6) of week w (1 ... 5, 5 the last) of month m.
        case weekday(month: Int, week: Int, day: Int)
    }

    struct Rule: Equatable {
        var day: Day
        /// Seconds after the day's local midnight (-167 h ... 167 h; 2:00 by default).
        var time: Int64
    }

    var std: LocalTimeType
    var dst: LocalTimeType?
    var start = Rule(day: .julian(1), time: 0)
    var end = Rule(day: .julian(1), time: 0)

    // MARK: - Parsing

    /// Parses `text` (ASCII). Throws `.parse` with what was wrong.
    init(parsing text: String) throws(GeoLocError) {
        var p = Scanner(Array(text.utf8))
        let stdName = try p.name("standard time")
        let stdOffset = try p.offset("the standard offset")
        std = LocalTimeType(utcOffset: Int32(-stdOffset), isDST: false, abbreviation: stdName)
        if p.atEnd { return }
        let dstName = try p.name("daylight saving time")
        var dstOffset = stdOffset - 3600
        if let c = p.peek, c != 44 {  // ","
            dstOffset = try p.offset("the daylight saving offset")
        }
        dst = LocalTimeType(utcOffset: Int32(-dstOffset), isDST: true, abbreviation: dstName)
        guard p.take(44) else { throw p.error("no rules follow the daylight saving time") }
        start = try p.rule()
        guard p.take(44) else { throw p.error("the end rule is missing") }
        end = try p.rule()
        guard p.atEnd else { throw p.error("unexpected text after the rules") }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var i = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { i == bytes.count }
        var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

        mutating func take(_ c: UInt8) -> Bool {
            if peek == c {
                i += 1
                return true
            }
            return false
        }

        func error(_ what: String) -> GeoLocError {
            GeoLocError(.parse, "TZ string \"\(String(decoding: bytes.prefix(80), as: UTF8.self))\": \(what) (at byte \(i))")
        }

        /// An abbreviation: 3 or more letters, or `<...>` of 3 or more letters, digits, '+', '-'
        /// (at most 10: what the library's local times carry).
        mutating func name(_ what: String) throws(GeoLocError) -> String {
            var name: [UInt8] = []
            if take(60) {  // "<"
                while let c = peek, c != 62 {
                    guard isAlphanumeric(c) || c == 43 || c == 45 else { throw error("bad character in the \(what) abbreviation") }
                    name.append(c)
                    i += 1
                }
                guard take(62) else { throw error("the \(what) abbreviation has no closing '>'") }
            } else {
                while let c = peek, isLetter(c) {
                    name.append(c)
                    i += 1
                }
            }
            guard name.count >= 3 else { throw error("the \(what) abbreviation is shorter than 3 characters") }
            guard name.count <= maxAbbreviationBytes else { throw error("the \(what) abbreviation is longer than \(maxAbbreviationBytes) characters") }
            return String(decoding: name, as: UTF8.self)
        }

        /// `[+|-]hh[:mm[:ss]]`, hours up to `maxHours`, in seconds.
        mutating func clock(_ what: String, maxHours: Int64) throws(GeoLocError) -> Int64 {
            var sign: Int64 = 1
            if take(45) { sign = -1 } else { _ = take(43) }
            let h = try number(what, maxDigits: 3)
            guard h <= maxHours else { throw error("\(what): hour \(h) is above \(maxHours)") }
            var m: Int64 = 0, s: Int64 = 0
            if take(58) {
                m = try number(what, maxDigits: 2)
                if take(58) { s = try number(what, maxDigits: 2) }
            }
            guard m <= 59 && s <= 59 else { throw error("\(what): minutes and seconds must be below 60") }
            return sign * (h * 3600 + m * 60 + s)
        }

        /// A UTC offset, POSIX's way (hours west of UTC positive), at most 24:59:59.
        mutating func offset(_ what: String) throws(GeoLocError) -> Int64 {
            try clock(what, maxHours: 24)
        }

        mutating func number(_ what: String, maxDigits: Int) throws(GeoLocError) -> Int64 {
            var v: Int64 = 0
            var n = 0
            while let c = peek, c >= 48 && c <= 57 {
                guard n < maxDigits else { throw error("\(what): too many digits") }
                v = v * 10 + Int64(c - 48)
                n += 1
                i += 1
            }
            guard n > 0 else { throw error("\(what): a number is missing") }
            return v
        }

        mutating func rule() throws(GeoLocError) -> Rule {
            let day: Day
            if take(77) {  // "M"
                let m = try number("the rule's month", maxDigits: 2)
                guard take(46) else { throw error("'.' expected after the month") }
                let w = try number("the rule's week", maxDigits: 1)
                guard take(46) else { throw error("'.' expected after the week") }
                let d = try number("the rule's weekday", maxDigits: 1)
                guard m >= 1 && m <= 12, w >= 1 && w <= 5, d <= 6 else {
                    throw error("M\(m).\(w).\(d) is not a month 1-12, week 1-5 and weekday 0-6")
                }
                day = .weekday(month: Int(m), week: Int(w), day: Int(d))
            } else if take(74) {  // "J"
                let n = try number("the rule's day", maxDigits: 3)
                guard n >= 1 && n <= 365 else { throw error("J\(n) is not a day 1-365") }
                day = .julian(Int(n))
            } else {
                let n = try number("the rule's day", maxDigits: 3)
                guard n <= 365 else { throw error("day \(n) is not a day 0-365") }
                day = .ordinal(Int(n))
            }
            var time: Int64 = 7200
            if take(47) { time = try clock("the rule's time", maxHours: 167) }
            return Rule(day: day, time: time)
        }

        func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 97 && (c | 0x20) <= 122 }
        func isAlphanumeric(_ c: UInt8) -> Bool { isLetter(c) || (c >= 48 && c <= 57) }
    }

    // MARK: - Evaluation

    /// The instant of a rule's transition in `year`: the rule's local time read with `offset`
    /// (the offset in force before the transition).
    func instant(_ rule: Rule, year: Int64, offset: Int32) -> Int64 {
        let yearStart = Civil.days(year: year, month: 1, day: 1)
        var days: Int64
        switch rule.day {
        case .julian(let n):
            days = yearStart + Int64(n - 1) + (n >= 60 && Civil.isLeap(year) ? 1 : 0)
        case .ordinal(let n):
            days = yearStart + Int64(n)
        case .weekday(let month, let week, let weekday):
            let first = Civil.days(year: year, month: month, day: 1)
            let firstWeekday = Civil.weekday(first) % 7  // 0 Sunday
            var day = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            if day > Civil.daysInMonth(year, month) { day -= 7 }
            days = first + Int64(day - 1)
        }
        return days * 86400 + rule.time - Int64(offset)
    }

    /// The yearly events of daylight saving time around `year`: (instant, is DST after), the
    /// years in order and each year's start before its end, sorted stably by instant, so that
    /// of events at one instant the last says what follows.
    private func events(years: ClosedRange<Int64>, into out: inout [(Int64, Bool)]) {
        guard let dst else { return }
        out.removeAll(keepingCapacity: true)
        for y in years {
            out.append((instant(start, year: y, offset: std.utcOffset), true))
            out.append((instant(end, year: y, offset: dst.utcOffset), false))
        }
        // Insertion sort: stable, and the events are nearly in order.
        for k in 1..<out.count {
            let e = out[k]
            var j = k
            while j > 0 && out[j - 1].0 > e.0 {
                out[j] = out[j - 1]
                j -= 1
            }
            out[j] = e
        }
    }

    /// The year whose events decide an instant's state: that of the instant on standard time.
    private func year(of t: Int64) -> Int64 {
        Civil.date(Civil.floorDiv(t + Int64(std.utcOffset), 86400).0).year
    }

    /// Whether daylight saving time is in force at `t`.
    func isDST(at t: Int64) -> Bool {
        guard dst != nil else { return false }
        let y = year(of: t)
        var list: [(Int64, Bool)] = []
        list.reserveCapacity(8)
        events(years: (y - 2)...(y + 1), into: &list)
        var state = false
        for (at, isDST) in list where at <= t { state = isDST }
        return state
    }

    /// The first instant after `t` (and at most `limit`) at which daylight saving time starts
    /// or ends; nil when none does (no daylight saving time, or rules under which it never
    /// changes within 1,000 years).
    func nextChange(after t: Int64, limit: Int64) -> Int64? {
        guard dst != nil, t < limit else { return nil }
        let state = isDST(at: t)
        var y = year(of: t) - 1
        let lastYear = y + 1000
        var list: [(Int64, Bool)] = []
        list.reserveCapacity(10)
        while y <= lastYear {
            // Four years at a time, with the year before so that coincident events of
            // consecutive years keep their order.
            events(years: (y - 1)...(y + 3), into: &list)
            var k = 0
            while k < list.count {
                let at = list[k].0
                var after = list[k].1
                var j = k + 1
                while j < list.count && list[j].0 == at {
                    after = list[j].1
                    j += 1
                }
                if at > t && after != state {
                    return at <= limit ? at : nil
                }
                if at > limit { return nil }
                k = j
            }
            y += 4
        }
        return nil
    }
}

/// The longest abbreviation the library keeps (the C struct's field holds 10 bytes and a NUL).
let maxAbbreviationBytes = 10
