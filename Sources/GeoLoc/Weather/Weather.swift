/// Whether it is day or night at the place (Open-Meteo's `is_day`). `rawValue` is the C
/// `geoloc_daylight`.
public enum Daylight: Int32, Sendable, CaseIterable {
    /// Not known: the smart-field design's labels ("Clear", "Mainly Clear").
    case unknown = 0
    /// Day: codes 0 and 1 read "Sunny" and "Mainly Sunny"; the rest are unchanged.
    case day = 1
    /// Night: the same labels as `.unknown`.
    case night = 2
}

/// Temperature scales. `rawValue` is the C `geoloc_temp_unit`.
public enum TemperatureUnit: Int32, Sendable, CaseIterable {
    case celsius = 0
    case fahrenheit = 1

    public var symbol: String { self == .celsius ? "°C" : "°F" }

    /// Absolute zero in this scale.
    public var absoluteZero: Double { self == .celsius ? -273.15 : -459.67 }

    /// Converts `value` from this scale to `unit`.
    public func convert(_ value: Double, to unit: TemperatureUnit) -> Double {
        if self == unit { return value }
        return self == .celsius ? value * 9 / 5 + 32 : (value - 32) * 5 / 9
    }
}

/// A WMO weather interpretation code (WMO 4677) as Open-Meteo publishes them.
public struct WeatherCode: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// Every code Open-Meteo documents, ascending.
    public static let documented: [WeatherCode] =
        [0, 1, 2, 3, 45, 48, 51, 53, 55, 56, 57, 61, 63, 65, 66, 67, 71, 73, 75, 77, 80, 81, 82, 85, 86, 95, 96, 99]
        .map(WeatherCode.init(rawValue:))

    /// Whether a published table documents this code.
    public var isDocumented: Bool { Self.staticLabel(rawValue, .unknown) != nil }

    /// The label, e.g. "Rain"; "Unknown" for an undocumented code (as the smart-field design).
    /// The design's own labels are kept exactly; the nine codes it leaves out (56, 57, 66, 67, 77,
    /// 82, 85, 86, 99) have labels in the same style.
    public func label(daylight: Daylight = .unknown) -> String {
        String(describing: Self.staticLabel(rawValue, daylight) ?? "Unknown")
    }

    /// The same labels as static text, for the C interface. `nil` for an undocumented code.
    public static func staticLabel(_ code: Int, _ daylight: Daylight) -> StaticString? {
        switch code {
        case 0: return daylight == .day ? "Sunny" : "Clear"
        case 1: return daylight == .day ? "Mainly Sunny" : "Mainly Clear"
        case 2: return "Partly Cloudy"
        case 3: return "Overcast"
        case 45, 48: return "Foggy"
        case 51: return "Light Drizzle"
        case 53: return "Drizzle"
        case 55: return "Heavy Drizzle"
        case 56: return "Light Freezing Drizzle"
        case 57: return "Heavy Freezing Drizzle"
        case 61: return "Light Rain"
        case 63: return "Rain"
        case 65: return "Heavy Rain"
        case 66: return "Light Freezing Rain"
        case 67: return "Heavy Freezing Rain"
        case 71: return "Light Snow"
        case 73: return "Snow"
        case 75: return "Heavy Snow"
        case 77: return "Snow Grains"
        case 80: return "Rain Showers"
        case 81: return "Heavy Showers"
        case 82: return "Violent Showers"
        case 85: return "Snow Showers"
        case 86: return "Heavy Snow Showers"
        case 95: return "Thunderstorm"
        case 96: return "Thunderstorm with Hail"
        case 99: return "Thunderstorm with Heavy Hail"
        default: return nil
        }
    }
}

/// The weather-conditions text `"Rain, 45°F"`: label, comma, the temperature converted from
/// `given` to `shown` and rounded half away from zero to a whole degree (the design's
/// `Int(temperature.rounded())`), and the scale.
/// - Parameters:
///   - temperature: finite, not below absolute zero, at most 1,000,000, in `given`.
/// - Throws: `.notFinite`, `.outOfRange`. An undocumented code is not an error here: its label
///   is "Unknown" (check `WeatherCode.isDocumented`).
public func weatherCondition(
    code: WeatherCode, temperature: Double, given: TemperatureUnit = .fahrenheit,
    shown: TemperatureUnit? = nil, daylight: Daylight = .unknown
) throws(GeoLocError) -> String {
    guard temperature.isFinite else { throw GeoLocError(.notFinite, "temperature \(show(temperature)) is not finite") }
    guard temperature >= given.absoluteZero else {
        throw GeoLocError(.outOfRange, "temperature \(show(temperature))\(given.symbol) is below absolute zero")
    }
    guard temperature <= 1_000_000 else {
        throw GeoLocError(.outOfRange, "temperature \(show(temperature))\(given.symbol) is above 1,000,000")
    }
    let target = shown ?? given
    var whole = Int(given.convert(temperature, to: target).rounded(.toNearestOrAwayFromZero))
    if whole == 0 { whole = 0 }  // no "-0"
    return "\(code.label(daylight: daylight)), \(whole)\(target.symbol)"
}
