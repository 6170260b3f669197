// libFuzzer target: the address rules' own engines (regular expressions of the replace and
// post-format rules, the template renderer and clean-up, the abbreviations). Line 1 is a pattern,
// line 2 a text, line 3 a replacement; the whole input is also a template rendered with the
// other lines as components, and the text is abbreviated for a few countries.
@_spi(Fuzz) import GeoLoc

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let pattern = lines.first ?? ""
    let subject = lines.count > 1 ? lines[1] : ""
    let replacement = lines.count > 2 ? lines[2] : "$1"
    for ignoringCase in [false, true] {
        _ = AddressRulesProbe.replace(pattern: pattern, in: subject, with: replacement, ignoringCase: ignoringCase)
    }
    var components: [String: String] = [:]
    for (i, name) in ["road", "house_number", "city", "state", "postcode", "country"].enumerated() where i + 1 < lines.count {
        components[name] = lines[i + 1]
    }
    let rendered = AddressRulesProbe.render(template: text, components)
    precondition(rendered.hasSuffix("\n"), "the clean-up ends the text with a newline")
    for cc in ["US", "DE", "FR", "CA", "ES"] {
        _ = AddressRulesProbe.abbreviate(components, country: cc)
    }
    return 0
}
