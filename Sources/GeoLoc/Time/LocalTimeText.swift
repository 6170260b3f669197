// Local times as text: "2026-11-24 14:05 CST" and its siblings.

/// How a local time is written. The raw values are the C `geoloc_time_style` values.
public enum LocalTimeStyle: Int32, Sendable, CaseIterable {
    /// "2026-11-24 14:05 CST": date, 24-hour time to the minute, abbreviation.
    case minutes = 0
    /// "2026-11-24 14:05:09 CST": to the second.
    case seconds = 1
    /// "2026-11-24T14:05:09-06:00": ISO 8601 / RFC 3339 with the UTC offset ("+00:00" for UTC;
    /// an offset with seconds, as local mean times have, is written "-05:50:36").
    case iso8601 = 2
    /// "2:05 PM CST": 12-hour time and abbreviation, without the date.
    case twelveHour = 3
}

extension LocalTime {
    /// The local time as text in `style` (years are written with at least four digits).
    public func formatted(_ style: LocalTimeStyle = .minutes) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(32)
        func digits(_ v: Int, _ width: Int) {
            var buf: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0)
            var n = 0
            var x = v
            withUnsafeMutableBytes(of: &buf) { b in
                repeat {
                    b[n] = UInt8(48 + x % 10)
                    x /= 10
                    n += 1
                } while (x > 0 || n < width) && n < 6
                for k in stride(from: n - 1, through: 0, by: -1) { out.append(b[k]) }
            }
        }
        if style != .twelveHour {
            digits(year, 4)
            out.append(45)
            digits(month, 2)
            out.append(45)
            digits(day, 2)
            out.append(style == .iso8601 ? 84 : 32)
            digits(hour, 2)
        } else {
            digits(hour % 12 == 0 ? 12 : hour % 12, 1)
        }
        out.append(58)
        digits(minute, 2)
        if style == .seconds || style == .iso8601 {
            out.append(58)
            digits(second, 2)
        }
        switch style {
        case .iso8601:
            out.append(contentsOf: offsetText(utcOffset).utf8)
        case .twelveHour:
            out.append(contentsOf: hour < 12 ? [32, 65, 77, 32] : [32, 80, 77, 32])  // " AM ", " PM "
            out.append(contentsOf: abbreviation.utf8)
        default:
            out.append(32)
            out.append(contentsOf: abbreviation.utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension LocalDateTime {
    /// "2026-11-24 14:05:09".
    public var text: String {
        "\(date.text) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
    }
}

extension ZoneRules {
    /// The local time at `t` as text ("2026-11-24 14:05 CST").
    public func text(at t: Int64, style: LocalTimeStyle = .minutes) throws(GeoLocError) -> String {
        try localTime(at: t).formatted(style)
    }
}

/// "+05:30", "-06:00", "+00:00", "-05:50:36".
func offsetText(_ offset: Int32) -> String {
    let a = Int(offset < 0 ? -offset : offset)
    var text = (offset < 0 ? "-" : "+") + pad(a / 3600, 2) + ":" + pad(a / 60 % 60, 2)
    if a % 60 != 0 { text += ":" + pad(a % 60, 2) }
    return text
}
