// ISO 8601 times as GPX and GeoJSON tracks write them, read and written.

// MARK: - ISO 8601 times

/// Seconds since 1970-01-01T00:00:00Z from `YYYY-MM-DDTHH:MM:SS[.fff][Z|±HH:MM]` (no zone:
/// UTC; blanks around it allowed); nil for anything else.
func parseISOTime(_ text: [UInt8]) -> Double? {
    text.withUnsafeBufferPointer { parseISOTime($0) }
}

/// As parseISOTime(_: [UInt8]), from bytes in place.
func parseISOTime(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
    var s = 0, e = text.count
    while s < e && (text[s] == 32 || text[s] == 9 || text[s] == 10 || text[s] == 13) { s += 1 }
    while e > s && (text[e - 1] == 32 || text[e - 1] == 9 || text[e - 1] == 10 || text[e - 1] == 13) { e -= 1 }
    var i = s
    func digits(_ n: Int) -> Int? {
        guard e - i >= n else { return nil }
        var v = 0
        for k in 0..<n {
            let d = Int(text[i + k]) - 48
            guard d >= 0 && d <= 9 else { return nil }
            v = v * 10 + d
        }
        i += n
        return v
    }
    func expect(_ c: UInt8) -> Bool {
        guard i < e && text[i] == c else { return false }
        i += 1
        return true
    }
    guard let y = digits(4), expect(45), let mo = digits(2), expect(45), let d = digits(2) else { return nil }
    guard i < e && (text[i] == 84 || text[i] == 116 || text[i] == 32) else { return nil }
    i += 1
    guard let h = digits(2), expect(58), let mi = digits(2), expect(58), let sec = digits(2) else { return nil }
    var fraction = 0.0
    if i < e && (text[i] == 46 || text[i] == 44) {
        i += 1
        let start = i
        var units = 0, scale = 1.0
        while i < e, text[i] >= 48 && text[i] <= 57 {
            if i - start < 15 {
                units = units * 10 + Int(text[i] - 48)
                scale *= 10
            }
            i += 1
        }
        guard i > start else { return nil }
        fraction = Double(units) / scale
    }
    var offset = 0
    if i < e && (text[i] == 90 || text[i] == 122) {
        i += 1
    } else if i < e && (text[i] == 43 || text[i] == 45) {
        let sign = text[i] == 45 ? -1 : 1
        i += 1
        guard let oh = digits(2) else { return nil }
        _ = expect(58)
        guard let om = digits(2), oh <= 23, om <= 59 else { return nil }
        offset = sign * (oh * 3600 + om * 60)
    }
    guard i == e else { return nil }
    guard mo >= 1 && mo <= 12 && d >= 1 && h <= 23 && mi <= 59 && sec <= 60 else { return nil }
    guard d <= Civil.daysInMonth(Int64(y), mo) else { return nil }
    let days = Int(Civil.days(year: Int64(y), month: mo, day: d))
    return Double(days * 86400 + h * 3600 + mi * 60 + sec - offset) + fraction
}

/// A time in seconds since 1970-01-01 UTC as ISO 8601 UTC, milliseconds shown when not whole.
func isoTime(_ t: Double) throws(GeoLocError) -> String {
    let ms = (t * 1000).rounded()
    guard ms.isFinite, abs(ms) < 1e15 else { throw GeoLocError(.outOfRange, "time \(show(t)) is outside the years 0 ... 9999") }
    var whole = Int(ms) / 1000
    var milli = Int(ms) % 1000
    if milli < 0 { milli += 1000; whole -= 1 }
    var days = whole / 86400
    var rest = whole % 86400
    if rest < 0 { rest += 86400; days -= 1 }
    let date = Civil.date(Int64(days))
    let (y, m, d) = (Int(date.year), date.month, date.day)
    guard y >= 0 && y <= 9999 else { throw GeoLocError(.outOfRange, "time \(show(t)) is outside the years 0 ... 9999") }
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    var s = (y < 1000 ? String(repeating: "0", count: 4 - String(y).count) : "") + "\(y)-\(two(m))-\(two(d))T"
    s += "\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))"
    if milli != 0 { s += "." + (milli < 10 ? "00" : milli < 100 ? "0" : "") + "\(milli)" }
    return s + "Z"
}
