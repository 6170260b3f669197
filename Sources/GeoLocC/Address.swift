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
    guarded { () throws(GeoLocError) in
        _ = try required(needed, "needed")
        let n = try checkCount(n, "n")
        guard n == 0 || parts != nil else { throw GeoLocError(.nullArgument, "parts is NULL with n = \(n)") }
        for i in 0..<n where parts![i].key == nil {
            throw GeoLocError(.nullArgument, "parts[\(i)].key is NULL")
        }
        let (s, abbreviate) = try addressStyleAndFlags(style, flags)
        var components = AddressComponents()
        for i in 0..<n {
            let part = parts![i]
            let key = try readText(part.key, "parts[\(i)].key")
            // A NULL value is an absent one; it is still read when given, to refuse bad UTF-8.
            let value: String? = part.value == nil ? nil : try readText(part.value, "parts[\(i)].value")
            components.add(key, value)
        }
        return writeText(components.formatted(s, abbreviate: abbreviate), buf, cap, needed)
    }
}

@c @implementation
public func geoloc_address_format_kv(
    _ keys: UnsafePointer<UnsafePointer<CChar>?>?, _ values: UnsafePointer<UnsafePointer<CChar>?>?, _ n: Int,
    _ style: geoloc_address_style, _ flags: UInt32,
    _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        _ = try required(needed, "needed")
        let n = try checkCount(n, "n")
        guard n == 0 || keys != nil else { throw GeoLocError(.nullArgument, "keys is NULL with n = \(n)") }
        guard n == 0 || values != nil else { throw GeoLocError(.nullArgument, "values is NULL with n = \(n)") }
        for i in 0..<n where keys![i] == nil {
            throw GeoLocError(.nullArgument, "keys[\(i)] is NULL")
        }
        let (s, abbreviate) = try addressStyleAndFlags(style, flags)
        var components = AddressComponents()
        for i in 0..<n {
            let key = try readText(keys![i], "keys[\(i)]")
            let value: String? = values![i] == nil ? nil : try readText(values![i], "values[\(i)]")
            components.add(key, value)
        }
        return writeText(components.formatted(s, abbreviate: abbreviate), buf, cap, needed)
    }
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
    guarded { () throws(GeoLocError) in
        let code = try required(code, "code")
        let text = try readText(name, "name")
        guard let found = USState.staticCode(for: text) else {
            throw GeoLocError(.notFound, "\(quote(text)) is not the name or code of a US state, DC or territory")
        }
        try deliver(cString(found), to: code, "code")
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_us_state_name(
    _ code: UnsafePointer<CChar>?, _ name: UnsafeMutablePointer<UnsafePointer<CChar>?>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let name = try required(name, "name")
        let text = try readText(code, "code")
        guard let found = USState.staticName(for: text) else {
            throw GeoLocError(.notFound, "\(quote(text)) is not the code or name of a US state, DC or territory")
        }
        try deliver(cString(found), to: name, "name")
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_country_name(
    _ code: UnsafePointer<CChar>?, _ name: UnsafeMutablePointer<UnsafePointer<CChar>?>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let name = try required(name, "name")
        let text = try readText(code, "code")
        guard let found = Country.staticName(forCode: text) else {
            throw GeoLocError(.notFound, "\(quote(text)) is not a known ISO 3166-1 alpha-2 country code")
        }
        try deliver(cString(found), to: name, "name")
        return GEOLOC_OK
    }
}
