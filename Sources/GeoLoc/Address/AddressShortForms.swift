// The short forms of an address: one line ("123 Main St Springfield IL"), "City, State" and
// "City, State, Country", from the components a gazetteer or a caller gives.

// MARK: - One line, city and state

func oneLineText(_ c: AddressComponents) -> String {
    [c[.houseNumber], c[.road], c[.city], c[.stateCode] ?? c[.state]].compactMap { $0 }.joined(separator: " ")
}

/// The place of the short styles, from the same components as the postal form: the components
/// by the data's names with the aliases filled in the data's order, so the caller's key order
/// never matters.
struct ShortPlace {
    /// The settlement: the first of city, town, village, hamlet, municipality, county,
    /// state_district, suburb, neighbourhood (a broader component before a neighbourhood).
    var city: String?
    /// The first-level region's name (the state, province or territory; never `region`).
    var regionName: String?
    /// Its code, when the data knows one (state_codes.yaml) or one was given.
    var regionCode: String?
    /// The country code, when known.
    var countryCode: String?
    /// The country's name: as given, else from the code.
    var countryName: String?
}

private let shortCityOrder = ["city", "town", "village", "hamlet", "municipality", "county", "state_district", "suburb", "neighbourhood"]

/// For the short styles: each component they read, then its aliases in the data's order (an
/// alias counts only when the component is empty, as in the postal form).
private let shortLookup: [String: [String]] = {
    var out: [String: [String]] = [:]
    for name in shortCityOrder + ["state", "state_code", "country", "country_code"] {
        out[name] = [name] + (componentTable.first(where: { $0.name == name })?.aliases ?? [])
    }
    return out
}()

func shortPlace(_ c: AddressComponents) -> ShortPlace {
    let pairs = c.dataPairs
    func value(_ name: String) -> String? {
        for key in shortLookup[name] ?? [name] {
            if let v = pairs[key] { return v }
        }
        return nil
    }
    // state_code is an alias of state: the state is read without it, the code on its own.
    let ctx: [String: String?] = [
        "country": value("country"), "country_code": value("country_code"),
        "state": pairs["state"] ?? pairs["province"] ?? pairs["territory"], "state_code": pairs["state_code"],
    ]
    var p = ShortPlace()
    p.city = shortCityOrder.lazy.compactMap { value($0) }.first
    var cc = resolvedCountryCode(c)
    if cc == nil, let code = ctx["country_code"] ?? nil { cc = Country.normalizedCode(code) }
    p.countryCode = cc
    p.countryName = (ctx["country"] ?? nil) ?? cc.flatMap { Country.name(forCode: $0) }
    let state = ctx["state"] ?? nil
    let code = ctx["state_code"] ?? nil
    if let state {
        if let entry = subdivision(state, in: cc) {
            p.regionCode = entry.code
            // A name is kept as given; a code is written by the table's name.
            p.regionName = subdivision(code: state, in: cc) != nil && collapsedLowercase(state) == entry.code.lowercased() ? entry.name : state
        } else if cc == "US" || cc == nil, isWashingtonDC(state) {
            p.regionCode = "DC"
            p.regionName = "District of Columbia"
        } else {
            p.regionName = state
            p.regionCode = code.flatMap { $0 == state ? nil : $0 }
        }
        if let code, code != state { p.regionCode = code }
    } else if let code {
        if let entry = subdivision(code, in: cc) {
            p.regionCode = entry.code
            p.regionName = entry.name
        } else {
            p.regionCode = code
        }
    }
    return p
}

/// The countries where the region is written by its code: those whose postal template writes
/// `state_code` (countries/worldwide.yaml; US, CA, AU, BR, MX, CO, VE, CN, FM, MH), and a
/// place with no country (read as the US, as before).
let regionCodeCountries: Set<String> = {
    var out = Set<String>()
    for (cc, data) in postalFormatTable {
        if let t = data.template, t.contains("{{{state_code}}}") { out.insert(cc) }
    }
    return out
}()

/// Comparable text: lower case, dots and surrounding space removed.
private func foldedForRepeat(_ s: String) -> String {
    collapsedLowercase(s).replacingOccurrences(".", "")
}

private extension String {
    func replacingOccurrences(_ a: Character, _ b: String) -> String {
        var out = ""
        for ch in self { if ch == a { out += b } else { out.append(ch) } }
        return out
    }
}

/// The city without trailing ", "-pieces that repeat the region ("Washington, D.C." with DC is
/// "Washington"), and whether what is left is the region itself ("Tokyo" in Tokyo).
private func cityWithoutRegion(_ city: String, _ names: [String]) -> (city: String, same: Bool) {
    let folded = Set(names.map(foldedForRepeat))
    var pieces = city.split(separator: ",").map { trimmedValue($0) }
    while pieces.count > 1, let last = pieces.last, folded.contains(foldedForRepeat(last)) { pieces.removeLast() }
    let text = pieces.joined(separator: ", ")
    return (text, folded.contains(foldedForRepeat(text)))
}

func cityStateText(_ c: AddressComponents) -> String {
    let p = shortPlace(c)
    let useCode = p.countryCode.map { regionCodeCountries.contains($0) } ?? true
    var region = useCode ? (p.regionCode ?? p.regionName) : (p.regionName ?? p.regionCode)
    if useCode, let r = region, p.regionCode == nil, p.countryCode == nil || p.countryCode == "US",
       let code = USState.code(for: r) {
        region = code
    }
    guard var city = p.city else { return region ?? "" }
    if let r = region {
        let (rest, same) = cityWithoutRegion(city, [r, p.regionName, p.regionCode].compactMap { $0 })
        city = rest
        // A region written by its code repeats only that code: "São Paulo, SP", as the postal
        // template writes "São Paulo - SP"; by its name, "Tokyo" in Tokyo is one place.
        if same && (!useCode || p.regionCode == nil || foldedForRepeat(city) == foldedForRepeat(r)) { return city }
    }
    return [city, region].compactMap { $0 }.joined(separator: ", ")
}

func cityStateCountryText(_ c: AddressComponents) -> String {
    let p = shortPlace(c)
    var parts: [String] = []
    var region = p.regionName ?? p.regionCode
    if var city = p.city {
        if let r = region {
            let (rest, same) = cityWithoutRegion(city, [r, p.regionCode].compactMap { $0 })
            city = rest
            if same { region = nil }
        }
        parts.append(city)
    }
    if let r = region { parts.append(r) }
    if let country = p.countryName, !parts.contains(where: { foldedForRepeat($0) == foldedForRepeat(country) }) {
        parts.append(country)
    }
    return parts.joined(separator: ", ")
}
