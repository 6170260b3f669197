// The proleptic Gregorian calendar on day numbers: local dates (Time) and ISO 8601 times of
// tracks (Tracking) count days the same way.

/// The proleptic Gregorian calendar on day numbers counted from 1970-01-01 (H. Hinnant's
/// era-based algorithms: exact for every Int64 day a year of Int64 can name).
enum Civil {
    @inline(__always)
    static func isLeap(_ y: Int64) -> Bool { y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }

    static func daysInMonth(_ y: Int64, _ m: Int) -> Int {
        switch m {
        case 2: return isLeap(y) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the date (month 1 ... 12, day 1 ... 31; not checked).
    @inline(__always)
    static func days(year: Int64, month: Int, day: Int) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date of a day number.
    @inline(__always)
    static func date(_ days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), Int(m), Int(d))
    }

    /// ISO weekday of a day number: 1 Monday ... 7 Sunday (1970-01-01 was a Thursday).
    @inline(__always)
    static func weekday(_ days: Int64) -> Int {
        let r = Int((days + 3) % 7)
        return (r < 0 ? r + 7 : r) + 1
    }

    /// Floor division and its non-negative remainder.
    @inline(__always)
    static func floorDiv(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b, r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }
}
