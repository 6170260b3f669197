// The C ABI of weather codes (Sources/GeoLoc/Weather): labels and "Rain, 45°F". Each function
// checks its arguments, calls the core and maps every error to a status.
import CGeoLoc
@_spi(CABI) import GeoLoc

// MARK: - Weather

@c @implementation
public func geoloc_weather_label(
    _ code: Int32, _ daylight: geoloc_daylight, _ label: UnsafeMutablePointer<UnsafePointer<CChar>?>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let label = try required(label, "label")
        let d = try decode(daylight.rawValue, as: Daylight.self, "daylight")
        guard let text = WeatherCode.staticLabel(Int(code), d) else {
            try deliver(cString("Unknown"), to: label, "label")
            throw GeoLocError(.unknownCode, "weather code \(code) is not a documented WMO code")
        }
        try deliver(cString(text), to: label, "label")
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_weather_code_documented(_ code: Int32) -> Bool {
    WeatherCode(Int(code)).isDocumented
}

@c @implementation
public func geoloc_weather_condition(
    _ code: Int32, _ temperature: Double, _ given: geoloc_temp_unit, _ shown: geoloc_temp_unit,
    _ daylight: geoloc_daylight, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        _ = try required(needed, "needed")
        let g = try decode(given.rawValue, as: TemperatureUnit.self, "temperature unit")
        let s = try decode(shown.rawValue, as: TemperatureUnit.self, "temperature unit")
        let d = try decode(daylight.rawValue, as: Daylight.self, "daylight")
        let wc = WeatherCode(Int(code))
        let text = try weatherCondition(code: wc, temperature: temperature, given: g, shown: s, daylight: d)
        let st = writeText(text, buf, cap, needed)
        if st == GEOLOC_OK && !wc.isDocumented {
            return fail(.unknownCode, "weather code \(code) is not a documented WMO code")
        }
        return st
    }
}
