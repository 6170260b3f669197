#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The rules of one IANA time zone ("America/Chicago"): its UTC offset, daylight saving time
/// and abbreviation at any instant, and local dates and times read back to instants.
///
/// The rules come from the IANA data compiled in TZif (RFC 8536): the transitions it lists, and
/// after the last of them the POSIX TZ rule of its footer ("CST6CDT,M3.2.0,M11.1.0"). Zones are
/// immutable and shared: ``named(_:)`` gives every caller the same object, which any number of
/// threads may use at once.
///
/// Instants are Unix seconds (no leap seconds), from ``minLocalTimeInstant`` to
/// ``maxLocalTimeInstant`` (the years 1 to 9999 UTC). Before a zone's first transition its
/// first local time type is in force (RFC 8536; in the IANA data, the local mean time).
public final class ZoneRules: Sendable {
    /// The zone's name, as it was asked for ("America/Chicago", "US/Central").
    public let name: String
    /// The version of the IANA data the rules come from ("2026f"); "" when unknown.
    public let version: String
    /// Transition instants, strictly ascending: those of the data, then those the footer's rule
    /// gives through 2100 (so that nearly every lookup is one binary search).
    let times: [Int64]
    /// The type in force from each transition on (an index into `types`).
    let typeOf: [UInt16]
    /// The local time types: the data's, then the footer's standard and daylight saving types.
    @_spi(CABI) public let types: [LocalTimeType]
    /// The footer's rule, in force after the last transition; nil when the last transition's
    /// type stays in force.
    let footer: PosixTimeZone?
    let footerStd: Int
    let footerDst: Int

    /// The footer's transitions are listed through the end of this year.
    static let expandedThroughYear: Int64 = 2100

    /// Rules from the contents of a TZif file.
    /// - Throws: `.parse` for a malformed file (the message says what is wrong),
    ///   `.unsupported` for leap-second ("right/") data.
    public convenience init(tzif bytes: UnsafeRawBufferPointer, name: String = "") throws(GeoLocError) {
        try self.init(name: name, version: "", data: TZif.parse(bytes))
    }

    /// Rules from a TZif file's checked contents.
    init(name: String, version: String, data: TZifData) throws(GeoLocError) {
        self.name = name
        self.version = version
        var types = data.types
        var times = data.transitions
        var typeOf = data.transitionTypes.map { UInt16($0) }
        var footer: PosixTimeZone? = nil
        var std = 0, dst = 0
        if !data.footer.isEmpty {
            let f = try PosixTimeZone(parsing: data.footer)
            std = ZoneRules.index(of: f.std, in: &types)
            dst = f.dst.map { ZoneRules.index(of: $0, in: &types) } ?? std
            footer = f
        }
        // The footer's transitions through 2100, after the data's last transition (the instant
        // after which the footer rules, as Python's zoneinfo reads it).
        if let f = footer, let last = times.last {
            let footerType = { (t: Int64) -> Int in f.isDST(at: t) ? dst : std }
            var current = Int(typeOf[typeOf.count - 1])
            let first = footerType(last + 1)
            if types[first] != types[current] {
                times.append(last + 1)
                typeOf.append(UInt16(first))
                current = first
            }
            let limit = Civil.days(year: ZoneRules.expandedThroughYear + 1, month: 1, day: 1) * 86400 - 1
            var u = times[times.count - 1]
            while let c = f.nextChange(after: u, limit: limit) {
                let k = footerType(c)
                if types[k] != types[current] {
                    times.append(c)
                    typeOf.append(UInt16(k))
                    current = k
                }
                u = c
            }
        }
        self.times = times
        self.typeOf = typeOf
        self.types = types
        self.footer = footer
        self.footerStd = std
        self.footerDst = dst
    }

    /// The index of `type` in `types`, appended when it is not there.
    private static func index(of type: LocalTimeType, in types: inout [LocalTimeType]) -> Int {
        if let k = types.firstIndex(of: type) { return k }
        types.append(type)
        return types.count - 1
    }

    /// The shared rules of the zone `name` (an IANA name such as "America/Chicago", a link such
    /// as "US/Central", or "UTC"; a name that matches no zone exactly is matched without regard
    /// to ASCII case), from ``ZoneRulesDatabase/shared()``.
    /// - Throws: `.notFound` for an unknown zone, `.invalidArgument` for a name that cannot be
    ///   an IANA name, and the errors of ``ZoneRulesDatabase/shared()``.
    public static func named(_ name: String) throws(GeoLocError) -> ZoneRules {
        try ZoneRulesDatabase.shared().rules(named: name)
    }

    // MARK: - Lookups

    /// The index of the type in force at `t` (any Int64).
    @inline(__always)
    func typeIndex(at t: Int64) -> Int {
        let n = times.count
        if n == 0 { return footer == nil ? 0 : footerType(at: t) }
        if t < times[0] { return 0 }
        if t > times[n - 1] { return footer == nil ? Int(typeOf[n - 1]) : footerType(at: t) }
        var lo = 0, hi = n - 1  // times[lo] <= t < times[hi + 1]
        while lo < hi {
            let mid = (lo + hi + 1) >> 1
            if times[mid] <= t { lo = mid } else { hi = mid - 1 }
        }
        return Int(typeOf[lo])
    }

    private func footerType(at t: Int64) -> Int {
        footer.unsafelyUnwrapped.isDST(at: t) ? footerDst : footerStd
    }

    /// The first instant after `t` and at most `limit` at which the type's value changes.
    func nextChange(after t: Int64, from current: Int, limit: Int64) -> Int64? {
        let now = types[current]
        let n = times.count
        var lo = 0, hi = n  // the first index with times[index] > t
        while lo < hi {
            let mid = (lo + hi) >> 1
            if times[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        var j = lo
        while j < n {
            if times[j] > limit { return nil }
            if types[Int(typeOf[j])] != now { return times[j] }
            j += 1
        }
        guard let f = footer else { return nil }
        var u = n > 0 ? max(t, times[n - 1]) : t
        while let c = f.nextChange(after: u, limit: limit) {
            if types[footerType(at: c)] != now { return c }
            u = c
        }
        return nil
    }

    /// The local time at `t` (Unix seconds).
    /// - Throws: `.outOfRange` for an instant outside the years 1 to 9999 UTC.
    public func localTime(at t: Int64) throws(GeoLocError) -> LocalTime {
        try checkInstant(t)
        let k = typeIndex(at: t)
        return makeLocalTime(t, types[k], k, next: nextChange(after: t, from: k, limit: maxLocalTimeInstant))
    }

    /// The UTC offset at `t`, seconds east of UTC.
    public func utcOffset(at t: Int64) throws(GeoLocError) -> Int32 {
        try checkInstant(t)
        return types[typeIndex(at: t)].utcOffset
    }

    /// The first instant after `t` at which the offset, the daylight saving flag or the
    /// abbreviation changes; nil when none does up to ``maxLocalTimeInstant``.
    public func nextTransition(after t: Int64) throws(GeoLocError) -> Int64? {
        try checkInstant(t)
        return nextChange(after: t, from: typeIndex(at: t), limit: maxLocalTimeInstant)
    }

    /// The local times of many instants (Unix seconds, each rounded down to a whole second),
    /// given to `body` in order with their index. Every time is checked before the first is
    /// given: one that is NaN, infinite or outside the years 1 to 9999 fails the call, naming
    /// its index ("times[3]: ..."). Consecutive times between the same two transitions (a track
    /// in time order) cost one comparison each.
    public func localTimes(
        _ times: UnsafeBufferPointer<Double>, _ body: (Int, LocalTime) throws(GeoLocError) -> Void
    ) throws(GeoLocError) {
        try ZoneRules.checkTimes(times)
        var from = Int64.max, until = Int64.min, k = 0
        var next: Int64? = nil
        for (i, t) in times.enumerated() {
            let s = Int64(t.rounded(.down))
            if !(s >= from && s < until) {
                k = typeIndex(at: s)
                next = nextChange(after: s, from: k, limit: maxLocalTimeInstant)
                from = s
                until = next ?? Int64.max
            }
            try body(i, makeLocalTime(s, types[k], k, next: next))
        }
    }

    /// Checks instants given as Unix seconds in doubles: each finite and within the years 1 to
    /// 9999 UTC, else the error names its index ("times[3]: ...").
    public static func checkTimes(_ times: UnsafeBufferPointer<Double>, name: String = "times") throws(GeoLocError) {
        for (i, t) in times.enumerated() {
            guard t.isFinite else { throw GeoLocError(.notFinite, "\(name)[\(i)] is \(show(t))") }
            guard t >= Double(minLocalTimeInstant) && t < Double(maxLocalTimeInstant) + 1 else {
                throw GeoLocError(
                    .outOfRange,
                    "\(name)[\(i)]: \(show(t)) is outside [\(minLocalTimeInstant), \(maxLocalTimeInstant)] (the years 1 to 9999 UTC)")
            }
        }
    }

    /// The local times of many instants, as ``localTimes(_:_:)``.
    public func localTimes(at times: [Double]) throws(GeoLocError) -> [LocalTime] {
        var out: [LocalTime] = []
        out.reserveCapacity(times.count)
        try times.withUnsafeBufferPointer { (b: UnsafeBufferPointer<Double>) throws(GeoLocError) in
            try localTimes(b) { (_: Int, lt: LocalTime) throws(GeoLocError) in out.append(lt) }
        }
        return out
    }

    /// The local date of each instant (a fix's day in the zone: what a diary groups by), as
    /// ``localTimes(_:_:)``.
    public func localDates(at times: [Double]) throws(GeoLocError) -> [LocalDate] {
        var out: [LocalDate] = []
        out.reserveCapacity(times.count)
        try times.withUnsafeBufferPointer { (b: UnsafeBufferPointer<Double>) throws(GeoLocError) in
            try localTimes(b) { (_: Int, lt: LocalTime) throws(GeoLocError) in
                out.append(lt.dateTime.date)
            }
        }
        return out
    }

    // MARK: - Local to instants

    /// Reads a local date and time back to instants: once, twice (the clocks were set back over
    /// it) or never (they were set forward over it), reported as such, never guessed.
    /// - Throws: `.outOfRange` for a field outside its range (year 1 ... 9999, a real day of
    ///   its month, hour 0 ... 23, minute and second 0 ... 59) or a local time whose instants
    ///   fall outside the years 1 to 9999 UTC.
    public func instants(for local: LocalDateTime) throws(GeoLocError) -> LocalInstants {
        let l = try local.localSeconds()
        // Offsets are below 26 hours: every instant that can show `l` lies within a day of it.
        let window: Int64 = 2 * 86400
        var offsets: [Int32] = [types[typeIndex(at: l - window)].utcOffset]
        var changes: [Int64] = []
        var u = l - window
        var current = typeIndex(at: u)
        while let c = nextChange(after: u, from: current, limit: l + window) {
            current = typeIndex(at: c)
            changes.append(c)
            if !offsets.contains(types[current].utcOffset) { offsets.append(types[current].utcOffset) }
            u = c
        }
        var found: [Int64] = []
        for o in offsets {
            let t = l - Int64(o)
            if t >= minLocalTimeInstant && t <= maxLocalTimeInstant && types[typeIndex(at: t)].utcOffset == o {
                found.append(t)
            }
        }
        found.sort()
        if let first = found.first, let last = found.last {
            let before = types[typeIndex(at: first)].utcOffset
            if first == last {
                return LocalInstants(kind: .unique, before: first, after: first, offsetBefore: before, offsetAfter: before, transition: nil)
            }
            let transition = changes.first { $0 > first && $0 <= last }
            return LocalInstants(
                kind: .ambiguous, before: first, after: last, offsetBefore: before,
                offsetAfter: types[typeIndex(at: last)].utcOffset, transition: transition)
        }
        for c in changes {
            let before = Int64(types[typeIndex(at: c - 1)].utcOffset)
            let after = Int64(types[typeIndex(at: c)].utcOffset)
            if c + before <= l && l < c + after {
                let a = l - before, b = l - after
                guard a >= minLocalTimeInstant && a <= maxLocalTimeInstant && b >= minLocalTimeInstant && b <= maxLocalTimeInstant else { break }
                return LocalInstants(
                    kind: .skipped, before: a, after: b, offsetBefore: Int32(before), offsetAfter: Int32(after), transition: c)
            }
        }
        throw GeoLocError(.outOfRange, "local time \(local.text) in \(name) is outside the years 1 to 9999 UTC")
    }
}
