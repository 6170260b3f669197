// libFuzzer target: address components. Each input line is one "key=value" component for
// geoloc_address_format in every style; each line is also a state or country name or code.
import CGeoLoc

#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let lines = bytes.split(separator: 10, omittingEmptySubsequences: false).prefix(32)
        .map { $0.map { CChar(bitPattern: $0) } + [0] }
    withArrayOfCStrings(lines) { ptrs in
        var parts: [geoloc_address_part] = []
        for p in ptrs {
            guard let p else { continue }
            // "key=value" becomes the key and the value (the copy is ours to cut); a line without
            // "=" is a key with itself as the value.
            let eq = strchr(p, 61)
            eq?.pointee = 0
            parts.append(geoloc_address_part(key: p, value: eq.map { UnsafePointer($0 + 1) } ?? p))
            var name: UnsafePointer<CChar>?
            for f in [geoloc_us_state_code, geoloc_us_state_name, geoloc_country_name] {
                let st = f(p, &name)
                expectMessage(st)
                if st == GEOLOC_OK { precondition(name != nil && strlen(name!) > 0) }
            }
        }
        for style in 0..<5 {
            let st = geoloc_address_style(rawValue: UInt32(style))
            _ = readText({ geoloc_address_format(parts, parts.count, st, $0, $1, $2) })
        }
    }
    return 0
}
