// The C ABI of address formatting and the state and country look-ups: each function checks the
// pointers, counts, enum values and UTF-8, calls the Swift core, and maps failures to a status.
// The names and codes handed back are StaticString literals of the generated tables, so they
// live as long as the process.
import CGeoLoc
@_spi(CABI) import GeoLoc

@c @implementation
public func geoloc_address_format(
    _ parts: UnsafePointer<geoloc_address_part>?, _ n: Int, _ style: geoloc_address_style,
    _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    geoloc_address_format_with(parts, n, style, 0, buf, cap, needed)
}

@c @implementation
public func geoloc_address_format_with(
    _ parts: UnsafePointer<geoloc_address_part>?, _ n: Int, _ style: geoloc_address_style, _ flags: UInt32,
    _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    textResult(buf, cap, needed) { () throws(GeoLocError) in
        let parts = try inputArray(parts, n, "parts")
        return try formatted(
            parts.count, key: { parts[$0].key }, { "parts[\($0)].key" }, value: { parts[$0].value },
            { "parts[\($0)].value" }, style, flags)
    }
}

@c @implementation
public func geoloc_address_format_kv(
    _ keys: UnsafePointer<UnsafePointer<CChar>?>?, _ values: UnsafePointer<UnsafePointer<CChar>?>?, _ n: Int,
    _ style: geoloc_address_style, _ flags: UInt32,
    _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    textResult(buf, cap, needed) { () throws(GeoLocError) in
        let keys = try inputArray(keys, n, "keys")
        let values = try inputArray(values, n, "values")
        return try formatted(
            keys.count, key: { keys[$0] }, { "keys[\($0)]" }, value: { values[$0] }, { "values[\($0)]" }, style, flags)
    }
}

/// The components of n (key, value) C strings, formatted: every key checked for NULL first, then
/// the style and flags, then each text's UTF-8 (a NULL value is an absent one). `keyName` and
/// `valueName` name entry i in messages.
private func formatted(
    _ n: Int, key: (Int) -> UnsafePointer<CChar>?, _ keyName: (Int) -> String, value: (Int) -> UnsafePointer<CChar>?,
    _ valueName: (Int) -> String, _ style: geoloc_address_style, _ flags: UInt32
) throws(GeoLocError) -> String {
    for i in 0..<n where key(i) == nil { throw GeoLocError(.nullArgument, "\(keyName(i)) is NULL") }
    let (s, abbreviate) = try addressStyleAndFlags(style, flags)
    var components = AddressComponents()
    for i in 0..<n {
        let k = try readText(key(i), keyName(i))
        // A NULL value is an absent one; it is still read when given, to refuse bad UTF-8.
        let v: String? = value(i) == nil ? nil : try readText(value(i), valueName(i))
        components.add(k, v)
    }
    return components.formatted(s, abbreviate: abbreviate)
}


/// The style, then the flags (GEOLOC_ADDRESS_ABBREVIATE; any other bit is refused).
private func addressStyleAndFlags(_ style: geoloc_address_style, _ flags: UInt32) throws(GeoLocError) -> (AddressStyle, Bool) {
    let s = try decode(style.rawValue, as: AddressStyle.self, "style")
    let known = UInt32(GEOLOC_ADDRESS_ABBREVIATE)
    guard flags & ~known == 0 else {
        throw GeoLocError(.invalidArgument, "flags has unknown bits 0x\(String(flags & ~known, radix: 16))")
    }
    return (s, flags & known != 0)
}

@c @implementation
public func geoloc_us_state_code(
    _ name: UnsafePointer<CChar>?, _ code: UnsafeMutablePointer<UnsafePointer<CChar>?>?
) -> geoloc_status {
    staticTextResult(name, "name", code, "code", missing: { "\(quote($0)) is not the name or code of a US state, DC or territory" }) {
        USState.staticCode(for: $0)
    }
}

@c @implementation
public func geoloc_us_state_name(
    _ code: UnsafePointer<CChar>?, _ name: UnsafeMutablePointer<UnsafePointer<CChar>?>?
) -> geoloc_status {
    staticTextResult(code, "code", name, "name", missing: { "\(quote($0)) is not the code or name of a US state, DC or territory" }) {
        USState.staticName(for: $0)
    }
}

@c @implementation
public func geoloc_country_name(
    _ code: UnsafePointer<CChar>?, _ name: UnsafeMutablePointer<UnsafePointer<CChar>?>?
) -> geoloc_status {
    staticTextResult(code, "code", name, "name", missing: { "\(quote($0)) is not a known ISO 3166-1 alpha-2 country code" }) {
        Country.staticName(forCode: $0)
    }
}
