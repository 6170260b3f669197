// Local time: what a zone's clocks show at an instant, a local date and time read back to
// instants, and the proleptic Gregorian calendar arithmetic both need (days since 1970-01-01,
// no Foundation).

/// The instants local time is computed for: 0001-01-01T00:00:00Z through 9999-12-31T23:59:59Z
/// in Unix seconds (the range of Python's `datetime` and of four-digit ISO 8601 years).
public let minLocalTimeInstant: Int64 = -62_135_596_800
public let maxLocalTimeInstant: Int64 = 253_402_300_799

/// One local time type of a zone: its offset from UTC, whether it is daylight saving time and
/// its abbreviation ("CST", "+0330").
public struct LocalTimeType: Sendable, Equatable, Hashable {
    /// Seconds east of UTC (Chicago in winter: -21600).
    public var utcOffset: Int32
    /// Whether this is daylight saving (summer) time. Ireland's winter time (GMT) is marked as
    /// daylight saving time by the IANA data (its standard time is the summer's IST).
    public var isDST: Bool
    /// The abbreviation, 1 to 10 ASCII letters, digits, '+' or '-' ("CST", "CEST", "+0330").
    public var abbreviation: String

    public init(utcOffset: Int32, isDST: Bool, abbreviation: String) {
        self.utcOffset = utcOffset
        self.isDST = isDST
        self.abbreviation = abbreviation
    }
}

/// What a zone's clocks show at an instant.
public struct LocalTime: Sendable, Equatable {
    /// The instant, Unix seconds (seconds since 1970-01-01T00:00:00Z, without leap seconds).
    public var instant: Int64
    /// The zone's local time type in force at the instant (its offset, daylight saving flag and
    /// abbreviation), also read as ``utcOffset``, ``isDST`` and ``abbreviation``.
    public var type: LocalTimeType
    /// The local date and time (the calendar is the proleptic Gregorian one; year 0 or 10000 at
    /// the ends of the instant range), also read as ``year`` ... ``second``.
    public var dateTime: LocalDateTime
    /// ISO 8601: 1 Monday ... 7 Sunday.
    public var weekday: Int
    /// 1 ... 366.
    public var dayOfYear: Int
    /// The first instant after this one at which the offset, the daylight saving flag or the
    /// abbreviation changes; nil when none does up to ``maxLocalTimeInstant``.
    public var nextTransition: Int64?
    /// Which of the zone's types this is (an index into its types).
    @_spi(CABI) public var typeIndex: Int

    /// Equal local times: every field but the index of the type (two zones, or two readings of
    /// one zone, may number the same type differently).
    public static func == (a: LocalTime, b: LocalTime) -> Bool {
        a.instant == b.instant && a.type == b.type && a.dateTime == b.dateTime && a.weekday == b.weekday && a.dayOfYear == b.dayOfYear
            && a.nextTransition == b.nextTransition
    }

    /// The fields of ``type``: seconds east of UTC at the instant, whether daylight saving time
    /// is in force, the abbreviation ("CST", "+0330").
    public var utcOffset: Int32 { get { type.utcOffset } set { type.utcOffset = newValue } }
    public var isDST: Bool { get { type.isDST } set { type.isDST = newValue } }
    public var abbreviation: String { get { type.abbreviation } set { type.abbreviation = newValue } }

    /// The fields of ``dateTime``.
    public var year: Int { get { dateTime.year } set { dateTime.year = newValue } }
    public var month: Int { get { dateTime.month } set { dateTime.month = newValue } }
    public var day: Int { get { dateTime.day } set { dateTime.day = newValue } }
    public var hour: Int { get { dateTime.hour } set { dateTime.hour = newValue } }
    public var minute: Int { get { dateTime.minute } set { dateTime.minute = newValue } }
    public var second: Int { get { dateTime.second } set { dateTime.second = newValue } }
}

/// A date on a zone's calendar (the proleptic Gregorian one).
public struct LocalDate: Sendable, Hashable, Comparable {
    public var year: Int
    /// 1 ... 12.
    public var month: Int
    /// 1 ... 31.
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    public static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// "2026-11-24".
    public var text: String { "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))" }
}

/// A date and time on a zone's clocks (no zone, no offset): what ``ZoneRules/instants(for:)``
/// reads back to instants.
public struct LocalDateTime: Sendable, Equatable, Hashable {
    /// The date, also read as ``year``, ``month`` and ``day``.
    public var date: LocalDate
    /// 0 ... 23.
    public var hour: Int
    /// 0 ... 59.
    public var minute: Int
    /// 0 ... 59.
    public var second: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.init(date: LocalDate(year: year, month: month, day: day), hour: hour, minute: minute, second: second)
    }

    public init(date: LocalDate, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The fields of ``date``.
    public var year: Int { get { date.year } set { date.year = newValue } }
    public var month: Int { get { date.month } set { date.month = newValue } }
    public var day: Int { get { date.day } set { date.day = newValue } }

    /// Checks the fields: year 1 ... 9999, a real day of its month, hour 0 ... 23, minute and
    /// second 0 ... 59. Returns the seconds since 1970-01-01T00:00 on the same clock.
    func localSeconds() throws(GeoLocError) -> Int64 {
        guard year >= 1 && year <= 9999 else { throw GeoLocError(.outOfRange, "year \(year) is outside [1, 9999]") }
        guard month >= 1 && month <= 12 else { throw GeoLocError(.outOfRange, "month \(month) is outside [1, 12]") }
        let last = Civil.daysInMonth(Int64(year), month)
        guard day >= 1 && day <= last else {
            throw GeoLocError(.outOfRange, "day \(day) is outside [1, \(last)] for \(pad(year, 4))-\(pad(month, 2))")
        }
        guard hour >= 0 && hour <= 23 else { throw GeoLocError(.outOfRange, "hour \(hour) is outside [0, 23]") }
        guard minute >= 0 && minute <= 59 else { throw GeoLocError(.outOfRange, "minute \(minute) is outside [0, 59]") }
        guard second >= 0 && second <= 59 else { throw GeoLocError(.outOfRange, "second \(second) is outside [0, 59]") }
        return Civil.days(year: Int64(year), month: month, day: day) * 86400
            + Int64(hour * 3600 + minute * 60 + second)
    }
}

/// How a local date and time reads back to instants.
public struct LocalInstants: Sendable, Equatable {
    public enum Kind: Int32, Sendable {
        /// The clocks showed it once.
        case unique = 0
        /// The clocks showed it twice: they were set back over it (the end of daylight saving
        /// time, or a zone moving west).
        case ambiguous = 1
        /// The clocks never showed it: they were set forward over it.
        case skipped = 2
    }

    public var kind: Kind
    /// The local time read with the offset in force before the transition (Python's `fold=0`):
    /// for `.unique` the instant; for `.ambiguous` the first occurrence; for `.skipped` an
    /// instant after the transition (the clocks showed this local time plus the gap then).
    public var before: Int64
    /// The local time read with the offset in force after the transition (`fold=1`): for
    /// `.unique` the same instant; for `.ambiguous` the second occurrence; for `.skipped` an
    /// instant before the transition.
    public var after: Int64
    /// The UTC offsets before and after the transition (for `.unique` both the one offset).
    public var offsetBefore: Int32
    public var offsetAfter: Int32
    /// The instant of the transition (nil for `.unique`).
    public var transition: Int64?

    /// The instant when the local time is unique, nil otherwise.
    public var instant: Int64? { kind == .unique ? before : nil }
}

/// `value` in decimal, zero-padded to `width` digits.
func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value < 0 ? -value : value)
    let zeros = width > digits.utf8.count ? String(repeating: "0", count: width - digits.utf8.count) : ""
    return (value < 0 ? "-" : "") + zeros + digits
}

/// The local time of `instant` in a type, with the next transition already known.
func makeLocalTime(_ instant: Int64, _ type: LocalTimeType, _ typeIndex: Int, next: Int64?) -> LocalTime {
    let local = instant + Int64(type.utcOffset)
    let (days, secs) = Civil.floorDiv(local, 86400)
    let (y, m, d) = Civil.date(days)
    let s = Int(secs)
    let dayOfYear = Int(days - Civil.days(year: y, month: 1, day: 1)) + 1
    return LocalTime(
        instant: instant, type: type,
        dateTime: LocalDateTime(year: Int(y), month: m, day: d, hour: s / 3600, minute: s / 60 % 60, second: s % 60),
        weekday: Civil.weekday(days), dayOfYear: dayOfYear, nextTransition: next, typeIndex: typeIndex)
}

/// Checks an instant against the range local time is computed for.
@inline(__always)
func checkInstant(_ t: Int64, _ what: @autoclosure () -> String = "instant") throws(GeoLocError) {
    guard t >= minLocalTimeInstant && t <= maxLocalTimeInstant else {
        throw GeoLocError(
            .outOfRange,
            "\(what()) \(t) is outside [\(minLocalTimeInstant), \(maxLocalTimeInstant)] (the years 1 to 9999 UTC)")
    }
}
