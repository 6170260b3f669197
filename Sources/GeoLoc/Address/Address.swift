// Address text: "123 Main St Springfield IL", "Springfield, IL", "Springfield, Illinois, United
// States" and the multi-line postal form of a country, from address components given as
// key/value pairs. Plus the look-ups behind them: US state codes and names, country names.
//
// The postal form follows the OpenCage address-formatting data (templates and rules compiled into
// AddressData.swift by tools/gen_address_data.py) and the steps of its reference formatter:
// choose the country's template, or its fallback when neither road nor postcode is known; clean
// the components; add or expand the state code; render the Mustache template; remove duplicates;
// apply the country's post-format rules; clean the text. Only the standard library is used: the
// template renderer, the text clean-up and the few regular expressions the six countries' rules
// need are implemented here.

// MARK: - Components

/// Address components: what a geocoder or a placemark gives, as key/value pairs.
///
/// Keys are matched without regard to ASCII case, and `_`, `-`, `.` and spaces in them are
/// ignored, so `postal_code`, `postalCode` and `Postal-Code` are one key. The canonical keys are
/// those of ``AddressKey``; each has aliases (see ``AddressKey/init(named:)``). A key that is not known is
/// ignored. A value is trimmed of surrounding whitespace, and an empty value counts as absent.
/// When the same key (or two aliases of one key) comes twice, the first non-empty value wins.
public struct AddressComponents: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    private var values = KeyedValues()
    /// The word written before a unit value that starts with a digit, from the alias it came by.
    private var unitWord: String?
    /// Every component given, by the data's names (see ``add(_:_:)``).
    private var pairs: [String: String] = [:]

    /// No components.
    public init() {}

    /// Components from key/value pairs, in order: unknown keys are ignored, nil and empty values
    /// are absent, and the first non-empty value of a key wins.
    public init(_ pairs: [(String, String?)]) {
        for (key, value) in pairs { add(key, value) }
    }

    /// `AddressComponents(["road": "Main St", "city": "Springfield"])`, in the literal's order,
    /// with the rules of ``init(_:)-([(String,String?)])``.
    public init(_ pairs: KeyValuePairs<String, String?>) {
        for (key, value) in pairs { add(key, value) }
    }

    /// `let c: AddressComponents = ["road": "Main St", "city": "Springfield"]`, in the literal's
    /// order, with the rules of ``init(_:)-([(String,String?)])``.
    public init(dictionaryLiteral elements: (String, String?)...) {
        self.init(elements)
    }

    /// Adds a value unless the key already has one. Returns whether the value was stored: false
    /// for an unknown key, a nil or empty value, or a key that already has a value.
    @discardableResult
    public mutating func add(_ key: String, _ value: String?) -> Bool {
        guard let value else { return false }
        let v = trimmedValue(value)
        guard !v.isEmpty else { return false }
        var stored = false
        let k = AddressKey(named: key)
        if let k, values[k] == nil {
            values[k] = v
            if k == .unit { unitWord = unitDesignator(forAlias: key) }
            stored = true
        }
        // The postal form's view: the data's component names (components.yaml) as given; other
        // known keys under their canonical name; keys nobody knows as given (the attention line)
        // when written as the data writes names (lower-case letters, digits and `_`), else
        // dropped, as the reference formatter does ("ISO3166-2-lvl4" is no part of an address).
        let name = dataKeyName(key)
        let dataKey = isDataComponentName(name) ? name : (k?.rawValue ?? (isPlainKeyName(key) ? name : ""))
        if !dataKey.isEmpty, pairs[dataKey] == nil {
            pairs[dataKey] = v
            stored = true
        }
        return stored
    }

    /// The components by the data's names, as the postal form reads them.
    var dataPairs: [String: String] { pairs }

    /// The value of a canonical key: the one the address forms use, chosen in the data's order
    /// whatever the order the components were given in (`.city` is the city, else the town,
    /// village, hamlet, municipality...; `.state` the state, else the province or territory),
    /// else the first value given under one of the key's other aliases (`region` for `.state`).
    /// Setting replaces the key's own value (trimmed); setting nil or an empty value removes it
    /// (a value given under an alias stays).
    public subscript(key: AddressKey) -> String? {
        get {
            for name in dataReadOrder[key.slot] {
                if let v = pairs[name] { return v }
            }
            return values[key]
        }
        set {
            let v = newValue.map(trimmedValue) ?? ""
            values[key] = v.isEmpty ? nil : v
            pairs[key.rawValue] = v.isEmpty ? nil : v
            if key == .unit { unitWord = nil }
        }
    }

    /// The value of a key given by name (canonical or alias, any case); nil for an unknown key.
    /// Setting an unknown key does nothing.
    public subscript(key: String) -> String? {
        get { AddressKey(named: key).flatMap { values[$0] } }
        set {
            guard let k = AddressKey(named: key) else { return }
            // The value under this very name goes too (town= with .city), so that it no longer
            // stands behind the key.
            let name = dataKeyName(key)
            if name != k.rawValue, isDataComponentName(name) { pairs[name] = nil }
            self[k] = newValue
            if k == .unit, values[k] != nil { unitWord = unitDesignator(forAlias: key) }
        }
    }

    /// Whether no component has a value.
    public var isEmpty: Bool { values.isEmpty }

    /// The address as text in the given style; see ``AddressStyle``.
    ///
    /// With `abbreviate`, the postal form abbreviates its components by the languages of the
    /// address's country (the data's abbreviations: "Avenue" -> "Ave" in English, "Straße" ->
    /// "Str." in German, "Boulevard" -> "Bd" in French); a word is abbreviated where it starts
    /// the value or follows white space, and ends at a word boundary. Off by default; the other
    /// styles are not abbreviated.
    public func formatted(_ style: AddressStyle, abbreviate: Bool = false) -> String {
        switch style {
        case .oneLine: return oneLineText(self)
        case .cityState: return cityStateText(self)
        case .cityStateCountry: return cityStateCountryText(self)
        case .postal: return postalText(self, abbreviate: abbreviate)
        }
    }

    /// The unit as written on the street line: a value that starts with a digit gets a word
    /// ("Apt 4" from apartment=4, "Suite 200" from suite=200, "Flat 2" from flat=2, else
    /// "Unit 4"); any other value ("Apt 4", "#4", "PH") is written as given.
    var unitText: String? {
        guard let unit = values[.unit] else { return nil }
        guard let first = unit.unicodeScalars.first, isDigit(first) else { return unit }
        return (unitWord ?? "Unit") + " " + unit
    }
}

/// One optional value per address key, in a fixed array indexed by the key: no hashing, one
/// allocation (the formatter builds components on hot paths such as reverse geocoding).
private struct KeyedValues: Sendable, Equatable {
    private var slots = [String?](repeating: nil, count: 11)

    subscript(key: AddressKey) -> String? {
        get { slots[key.slot] }
        set { slots[key.slot] = newValue }
    }

    var isEmpty: Bool { slots.allSatisfy { $0 == nil } }
}

/// For each key (by slot), the components of the data that give its value, in the data's order:
/// the component, its aliases (components.yaml), then the broader or narrower components the
/// templates try after it.
private let dataReadOrder: [[String]] = {
    func withAliases(_ names: [String]) -> [String] {
        names.flatMap { name in [name] + (componentTable.first(where: { $0.name == name })?.aliases ?? []) }
    }
    var out = [[String]](repeating: [], count: AddressKey.allCases.count)
    for key in AddressKey.allCases {
        let names: [String]
        switch key {
        case .houseNumber: names = withAliases(["house_number"])
        case .road: names = withAliases(["road"])
        case .unit: names = ["unit"]
        case .neighbourhood: names = withAliases(["neighbourhood"]).filter { $0 != "district" }
        case .city: names = withAliases(["city", "town", "village", "hamlet", "municipality", "postal_city"])
        case .county: names = withAliases(["county", "state_district"]) + ["district"]
        case .state: names = ["state", "province", "territory"]
        case .stateCode: names = ["state_code"]
        case .postcode: names = withAliases(["postcode"])
        case .country: names = withAliases(["country"])
        case .countryCode: names = ["country_code"]
        }
        var seen = Set<String>()
        out[key.slot] = names.filter { seen.insert($0).inserted }
    }
    return out
}()

extension AddressKey {
    /// The key's position in KeyedValues.
    fileprivate var slot: Int {
        switch self {
        case .houseNumber: 0
        case .road: 1
        case .unit: 2
        case .neighbourhood: 3
        case .city: 4
        case .county: 5
        case .state: 6
        case .stateCode: 7
        case .postcode: 8
        case .country: 9
        case .countryCode: 10
        }
    }
}

/// The canonical address keys. `rawValue` is the key's name in the C interface.
public enum AddressKey: String, Sendable, CaseIterable {
    case houseNumber = "house_number"
    case road
    /// Apartment, suite, flat or unit.
    case unit
    case neighbourhood
    case city
    case county
    case state
    case stateCode = "state_code"
    case postcode
    case country
    case countryCode = "country_code"

    /// The key a name stands for: a canonical name or an alias, without regard to ASCII case,
    /// ignoring `_`, `-`, `.` and spaces; nil for an unknown name.
    ///
    /// The aliases follow OpenCage's components.yaml where its components fit these keys, plus
    /// the property names of Apple's CLPlacemark and Google's address types:
    /// - houseNumber: street_number, housenumber, subThoroughfare
    /// - road: street, street_name, thoroughfare, route, footway, path, pedestrian, square
    /// - unit: apartment, apt, suite, flat, unit_number, subpremise
    /// - neighbourhood: neighborhood, suburb, subLocality, city_district, quarter, borough,
    ///   city_block, residential, commercial, industrial, houses, subdistrict, subdivision, ward
    /// - city: town, township, village, hamlet, locality, municipality,
    ///   local_administrative_area, postal_city, postal_town, commune (OpenCage keeps villages,
    ///   hamlets and municipalities apart, and files "locality" under hamlet; this library has
    ///   one place level, so they all name the city; a French commune is a municipality)
    /// - county: department, state_district, district, subAdministrativeArea,
    ///   administrative_area_level_2 (OpenCage files "district" under state_district for most
    ///   countries)
    /// - state: province, region, territory, administrative_area, administrativeArea,
    ///   administrative_area_level_1
    /// - stateCode: province_code, region_code (OpenCage treats state_code as an alias of
    ///   state; here it is its own key, and the postal form does the same as OpenCage with it)
    /// - postcode: postal_code, post_code, partial_postcode, zip, zipcode, zip_code
    /// - country: country_name
    /// - countryCode: iso_country_code, ISOcountryCode
    public init?(named name: some StringProtocol) {
        guard let key = addressKeyAliases[normalizedKeyName(name)] else { return nil }
        self = key
    }
}

/// The text forms of an address. `rawValue` is the C `geoloc_address_style`.
public enum AddressStyle: Int32, Sendable, CaseIterable {
    /// "123 Main St Springfield IL": house number, road, city and state code (else state),
    /// joined by single spaces, missing ones skipped, as CLPlacemark's subThoroughfare,
    /// thoroughfare, locality and administrativeArea are joined.
    case oneLine = 0
    /// "Springfield, IL": the settlement (city, else town, village, hamlet, municipality, county,
    /// state_district, suburb, neighbourhood, after the data's aliases) and the first-level
    /// region (state, province, territory; never `region`). The region is written by its code
    /// in ``regionCodeCountries`` (the countries whose postal template writes the code) and when
    /// no country is known, by name elsewhere ("Toronto, ON", "München, Bayern"); no repeat when
    /// the city is the region ("Tokyo"; "Washington, DC" from "Washington, D.C."). Either alone
    /// when the other is missing; "" when both are.
    case cityState = 1
    /// "Springfield, Illinois, United States": city, state name and country name, joined by
    /// ", ", missing ones skipped. A state given as a code is written by name (for the US, Canada,
    /// the UK, Germany and France); the country comes from the country code when no country name
    /// is given.
    case cityStateCountry = 2
    /// The multi-line postal form of the address's country (lines joined by "\n", no trailing
    /// newline), for every country and territory of the address-formatting data. The country
    /// line is the `country` component as given: a country code alone chooses the form but
    /// writes no country line, as the reference formatter and Apple's postal formatter do.
    case postal = 3
}

/// The address as text in the given style; the same as `components.formatted(style, abbreviate:)`.
public func formatAddress(_ components: AddressComponents, style: AddressStyle, abbreviate: Bool = false) -> String {
    components.formatted(style, abbreviate: abbreviate)
}

// MARK: - Keys

/// A key name reduced for matching: ASCII lower case, without `_`, `-`, `.` and spaces.
private func normalizedKeyName(_ name: some StringProtocol) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(name.utf8.count)
    for b in name.utf8 {
        switch b {
        case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: " "), UInt8(ascii: "\t"):
            continue
        case UInt8(ascii: "A")...UInt8(ascii: "Z"):
            bytes.append(b + 32)
        default:
            bytes.append(b)
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}

private let addressKeyAliases: [String: AddressKey] = {
    let table: [(AddressKey, [String])] = [
        (.houseNumber, ["house_number", "street_number", "housenumber", "subThoroughfare"]),
        (.road, ["road", "street", "street_name", "thoroughfare", "route", "footway", "path", "pedestrian", "square"]),
        (.unit, ["unit", "unit_number", "apartment", "apt", "suite", "flat", "subpremise"]),
        (.neighbourhood, [
            "neighbourhood", "neighborhood", "suburb", "subLocality", "city_district", "quarter", "borough",
            "city_block", "residential", "commercial", "industrial", "houses", "subdistrict", "subdivision", "ward",
        ]),
        (.city, [
            "city", "town", "township", "village", "hamlet", "locality", "municipality", "local_administrative_area",
            "postal_city", "postal_town", "commune",
        ]),
        (.county, ["county", "department", "state_district", "district", "subAdministrativeArea", "administrative_area_level_2"]),
        (.state, ["state", "province", "region", "territory", "administrative_area", "administrative_area_level_1"]),
        (.stateCode, ["state_code", "province_code", "region_code"]),
        (.postcode, ["postcode", "postal_code", "post_code", "partial_postcode", "zip", "zipcode", "zip_code"]),
        (.country, ["country", "country_name"]),
        (.countryCode, ["country_code", "iso_country_code", "ISOcountryCode"]),
    ]
    var map: [String: AddressKey] = [:]
    for (key, names) in table {
        for name in names { map[normalizedKeyName(name)] = key }
    }
    return map
}()

/// The word for a bare unit number, from the alias the unit was given by.
private func unitDesignator(forAlias key: some StringProtocol) -> String? {
    switch normalizedKeyName(key) {
    case "apartment", "apt": return "Apt"
    case "suite": return "Suite"
    case "flat": return "Flat"
    default: return nil
    }
}

/// Whether a key is written only with lower-case ASCII letters, digits and `_`.
private func isPlainKeyName(_ key: String) -> Bool {
    !key.isEmpty && key.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
}

/// A key as the data writes its component names: lower case, spaces and hyphens as `_`.
private func dataKeyName(_ key: String) -> String {
    var out = ""
    for c in trimmedValue(key).lowercased().unicodeScalars {
        out.unicodeScalars.append(c == " " || c == "-" ? "_" : c)
    }
    return out
}

/// Trims whitespace (any Unicode white space, line breaks included) at both ends.
private func trimmedValue(_ s: some StringProtocol) -> String {
    let scalars = s.unicodeScalars
    var start = scalars.startIndex
    var end = scalars.endIndex
    func isWhite(_ c: Unicode.Scalar) -> Bool {
        c.isASCII ? (c == " " || (c.value >= 0x09 && c.value <= 0x0D)) : c.properties.isWhitespace
    }
    while start < end && isWhite(scalars[start]) { start = scalars.index(after: start) }
    while end > start && isWhite(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
    if start == scalars.startIndex && end == scalars.endIndex, let whole = s as? String { return whole }
    return String(String.UnicodeScalarView(scalars[start..<end]))
}

// MARK: - US states

/// The US states, DC, territories (AS, GU, MP, PR, VI, UM) and freely associated states (FM,
/// MH, PW) with their two-letter USPS codes, as OpenCage's state_codes.yaml has them.
public enum USState {
    /// Every entry as (code, name), in the data's order.
    public static var all: [(code: String, name: String)] {
        usStateTable.map { (String(describing: $0.code), String(describing: $0.name)) }
    }

    /// The code of a state, DC or territory from its name, without regard to case ("Illinois" ->
    /// "IL", "district of columbia" -> "DC"). A valid code is accepted too and returned in upper
    /// case. "Washington, D.C." gives "DC", and a leading "United States" or "U.S." reads as
    /// "US" ("United States Virgin Islands" -> "VI"). Surrounding whitespace is ignored.
    public static func code(for nameOrCode: some StringProtocol) -> String? {
        staticCode(for: nameOrCode).map { String(describing: $0) }
    }

    /// The name of a state, DC or territory from its code, without regard to case ("il" ->
    /// "Illinois"). A valid name is accepted too and returned as spelled in the table.
    public static func name(for codeOrName: some StringProtocol) -> String? {
        staticName(for: codeOrName).map { String(describing: $0) }
    }

    /// ``code(for:)`` as static text (for the C interface).
    public static func staticCode(for nameOrCode: some StringProtocol) -> StaticString? {
        index(of: nameOrCode).map { usStateTable[$0].code }
    }

    /// ``name(for:)`` as static text (for the C interface).
    public static func staticName(for codeOrName: some StringProtocol) -> StaticString? {
        index(of: codeOrName).map { usStateTable[$0].name }
    }

    private static let indexByKey: [String: Int] = {
        var map: [String: Int] = [:]
        for (i, entry) in usStateTable.enumerated() {
            map[String(describing: entry.code).lowercased()] = i
            map[String(describing: entry.name).lowercased()] = i
        }
        return map
    }()

    static func index(of text: some StringProtocol) -> Int? {
        let key = collapsedLowercase(text)
        if let i = indexByKey[key] { return i }
        // Variants the reference formatter knows: "Washington, D.C.", "United States ...".
        if key == "washington dc" || key == "washington, dc" || key == "washington d.c." || key == "washington, d.c."
            || key == "d.c." {
            return indexByKey["dc"]
        }
        for prefix in ["united states ", "u.s. "] where key.hasPrefix(prefix) {
            return indexByKey["us " + key.dropFirst(prefix.count)]
        }
        return nil
    }
}

/// Lower case, surrounding whitespace trimmed, inner runs of whitespace as one space.
private func collapsedLowercase(_ s: some StringProtocol) -> String {
    trimmedValue(s).lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
}

// MARK: - Countries

/// Country names from ISO 3166-1 alpha-2 codes (OpenCage's country_codes.yaml).
public enum Country {
    /// Every entry as (code, English short name), in the data's order.
    public static var all: [(code: String, name: String)] {
        countryTable.map { (String(describing: $0.code), String(describing: $0.name)) }
    }

    /// The English short name from an alpha-2 code, without regard to case ("US" -> "United
    /// States", "gb" -> "United Kingdom"). "UK", the code reserved for the United Kingdom, is
    /// read as "GB". Surrounding whitespace is ignored.
    public static func name(forCode code: some StringProtocol) -> String? {
        staticName(forCode: code).map { String(describing: $0) }
    }

    /// ``name(forCode:)`` as static text (for the C interface).
    public static func staticName(forCode code: some StringProtocol) -> StaticString? {
        normalizedCode(code).flatMap { indexByCode[$0] }.map { countryTable[$0].name }
    }

    /// The alpha-2 code of a country from its name or another common name, without regard to
    /// case ("Germany", "Deutschland", "USA", "United States of America"); a code is accepted
    /// too. Nil when the name is not known.
    public static func code(forName name: some StringProtocol) -> String? {
        codeByName[collapsedLowercase(name)]
    }

    /// The upper-case code if `code` is a known alpha-2 code ("UK" as "GB").
    static func normalizedCode(_ code: some StringProtocol) -> String? {
        let t = trimmedValue(code)
        guard t.utf8.count == 2, t.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) else { return nil }
        let upper = String(decoding: t.utf8.map { $0 & ~0x20 }, as: UTF8.self)
        let code = upper == "UK" ? "GB" : upper
        return indexByCode[code] == nil ? nil : code
    }

    private static let indexByCode: [String: Int] = {
        var map: [String: Int] = [:]
        for (i, entry) in countryTable.enumerated() { map[String(describing: entry.code)] = i }
        return map
    }()

    private static let codeByName: [String: String] = {
        var map: [String: String] = [:]
        for entry in countryTable {
            let code = String(describing: entry.code)
            map[code.lowercased()] = code
            map[collapsedLowercase(String(describing: entry.name))] = code
        }
        map["uk"] = "GB"
        for (name, code) in countryAliasTable where map[collapsedLowercase(name)] == nil {
            map[collapsedLowercase(name)] = code
        }
        return map
    }()
}

/// The English short name of a country from its ISO 3166-1 alpha-2 code; see
/// ``Country/name(forCode:)``.
public func countryName(forCode code: some StringProtocol) -> String? {
    Country.name(forCode: code)
}

/// The country of the components: the country code when it is a known alpha-2 code, else a
/// country named by the country code field ("USA") or by the country field; nil if none is known.
func resolvedCountryCode(_ c: AddressComponents) -> String? {
    if let code = c[.countryCode] {
        if let cc = Country.normalizedCode(code) { return cc }
        if let cc = Country.code(forName: code) { return cc }
    }
    if let name = c[.country], let cc = Country.code(forName: name) { return cc }
    return nil
}

// MARK: - Subdivisions (states, provinces)

private struct SubdivisionIndex: Sendable {
    /// Lower-cased name (any language) -> (code, default name).
    var names: [String: (code: String, name: String)] = [:]
    /// Lower-cased code -> (code, default name).
    var codes: [String: (code: String, name: String)] = [:]

    /// By name, else by code.
    func entry(_ key: String) -> (code: String, name: String)? { names[key] ?? codes[key] }
}

private let subdivisionIndexes: [String: SubdivisionIndex] = makeIndexes(subdivisionTable)
private let countyIndexes: [String: SubdivisionIndex] = makeIndexes(countyTable)

private func makeIndexes(_ table: [String: [(code: String, names: [String])]]) -> [String: SubdivisionIndex] {
    var out: [String: SubdivisionIndex] = [:]
    for (country, rows) in table {
        var index = SubdivisionIndex()
        for row in rows {
            let entry = (code: row.code, name: row.names[0])
            index.codes[row.code.lowercased()] = entry
            for name in row.names where index.names[name.lowercased()] == nil {
                index.names[name.lowercased()] = entry
            }
        }
        out[country] = index
    }
    return out
}

/// The subdivision a name or code stands for, in the country's table; without a country, in the
/// US table and then the Canadian one (their names and codes do not overlap).
private func subdivision(_ text: String, in country: String?) -> (code: String, name: String)? {
    let key = collapsedLowercase(text)
    if let country { return subdivisionIndexes[country]?.entry(key) }
    return subdivisionIndexes["US"]?.entry(key) ?? subdivisionIndexes["CA"]?.entry(key)
}

/// The subdivision a code stands for (codes only).
private func subdivision(code text: String, in country: String?) -> (code: String, name: String)? {
    let key = collapsedLowercase(text)
    if let country { return subdivisionIndexes[country]?.codes[key] }
    return subdivisionIndexes["US"]?.codes[key] ?? subdivisionIndexes["CA"]?.codes[key]
}

// MARK: - One line, city and state

private func oneLineText(_ c: AddressComponents) -> String {
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

private func cityStateText(_ c: AddressComponents) -> String {
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

private func cityStateCountryText(_ c: AddressComponents) -> String {
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

// MARK: - Postal form: data

/// One country's postal form (countries/worldwide.yaml).
struct PostalFormatData: Sendable {
    /// The Mustache template used when the road or the postcode is known; nil for a territory
    /// that uses another country's form.
    var template: String?
    /// The template used when neither is known; nil for the default one.
    var fallback: String?
    /// Component replacements applied before rendering.
    var replace: [ReplaceRuleData]
    /// Text replacements applied after rendering: (pattern, replacement with `$1`...).
    var postformat: [(String, String)]
    /// `use_country`: the code whose form (template and rules) this territory uses.
    var useCountry: String?
    /// `change_country`: the country line then written (`$state` and the like name a component).
    var changeCountry: String?
    /// `add_component`: "key=value" added to the components.
    var addComponent: String?
}

/// A `replace` rule: the first match of `pattern` (a regular expression, ``MiniRegex``, matched
/// without regard to case) replaced by `replacement` in every component or, when `key` is set,
/// in that component only, where a value equal to `pattern` is replaced whole.
struct ReplaceRuleData: Sendable {
    var key: String?
    var pattern: String
    var replacement: String
}

/// A template, parsed.
private indirect enum TemplateNode: Sendable {
    case text([Unicode.Scalar])
    case variable(String)
    /// `{{#first}} a || b {{/first}}`: the first non-empty alternative.
    case first([TemplateNode])
}

private typealias CompiledReplace = (key: String?, exact: String, regex: MiniRegex?, replacement: [Unicode.Scalar])

/// A postal form ready to use: templates parsed, patterns compiled.
private struct CompiledPostalFormat: Sendable {
    var template: [TemplateNode]
    var fallback: [TemplateNode]
    var replace: [CompiledReplace]
    var postformat: [(MiniRegex, [Unicode.Scalar])]
}

/// The compiled forms, by country code (and "default"), parsed once on first use. A territory
/// with `use_country` has no entry of its own.
private let compiledPostalFormats: [String: CompiledPostalFormat] = {
    var out: [String: CompiledPostalFormat] = [:]
    let defaultFallback = postalFormatTable["default"]?.fallback ?? ""
    for (country, data) in postalFormatTable {
        guard let template = data.template else { continue }
        let replace: [CompiledReplace] = data.replace.map { rule in
            (key: rule.key, exact: rule.pattern, regex: MiniRegex(rule.pattern, ignoringCase: true),
             replacement: Array(rule.replacement.unicodeScalars))
        }
        let postformat: [(MiniRegex, [Unicode.Scalar])] = data.postformat.compactMap { rule in
            MiniRegex(rule.0).map { ($0, Array(rule.1.unicodeScalars)) }
        }
        out[country] = CompiledPostalFormat(
            template: parseTemplate(template), fallback: parseTemplate(data.fallback ?? defaultFallback),
            replace: replace, postformat: postformat)
    }
    return out
}()

/// Whether every replace and post-format pattern of the tables compiled (checked by the tests;
/// a pattern that does not compile is skipped).
func postalPatternsCompile() -> Bool {
    for (_, data) in postalFormatTable {
        for rule in data.replace where MiniRegex(rule.pattern, ignoringCase: true) == nil { return false }
        for rule in data.postformat where MiniRegex(rule.0) == nil { return false }
        if let use = data.useCountry, postalFormatTable[use]?.template == nil { return false }
    }
    return true
}

/// Component names and aliases of components.yaml: alias -> component, and every name known.
private let componentAliases: [(alias: String, name: String)] = componentTable.flatMap { row in
    row.aliases.map { (alias: $0, name: row.name) }
}
/// The countries where "district" names a neighbourhood (a small district); elsewhere it names a
/// state district, as the reference formatter reads the data.
private let smallDistrictCountries: Set<String> = ["BR", "CR", "ES", "NI", "PY", "RO", "TG", "TM", "XK"]
/// The alias order with "district" moved to the end of the neighbourhood's aliases.
private let smallDistrictAliases = componentAliases.filter { $0.alias != "district" } + [(alias: "district", name: "neighbourhood")]
/// The alias order with "district" an alias of state_district (after any of its own).
private let largeDistrictAliases = componentAliases.filter { $0.alias != "district" } + [(alias: "district", name: "state_district")]
/// Alias -> (its component, its place in the alias order), for each of the three orders.
private func aliasIndex(_ order: [(alias: String, name: String)]) -> [String: (name: String, rank: Int)] {
    var out: [String: (name: String, rank: Int)] = [:]
    for (rank, pair) in order.enumerated() where out[pair.alias] == nil { out[pair.alias] = (pair.name, rank) }
    return out
}
private let componentAliasIndex = aliasIndex(componentAliases)
private let smallDistrictAliasIndex = aliasIndex(smallDistrictAliases)
private let largeDistrictAliasIndex = aliasIndex(largeDistrictAliases)
private let knownComponentNames: Set<String> = {
    var names = Set(componentTable.map(\.name))
    for row in componentTable { names.formUnion(row.aliases) }
    // The unit (placed on the road or house line before this check) is no component of the
    // data; "attention" is not one either: a given attention line goes with the other unknown
    // components.
    names.insert("unit")
    return names
}()

/// Whether `name` (lower case) is a component or alias of the data.
func isDataComponentName(_ name: String) -> Bool { knownComponentNames.contains(name) }

// MARK: - Postal form: the steps

/// The components as the template sees them, keyed by the data's names, before the steps.
private func postalContext(_ c: AddressComponents) -> [String: String] {
    var ctx = c.dataPairs
    ctx["unit"] = nil
    return ctx
}

/// The country code of the components (`_determine_country_code`): a two-letter code ("UK" read
/// as GB), else the country named by the code or country field.
private func postalCountryCode(_ ctx: [String: String], _ c: AddressComponents) -> String? {
    if let code = ctx["country_code"] {
        let t = trimmedValue(code)
        if t.unicodeScalars.count == 2, t.unicodeScalars.allSatisfy(isASCIILetter) {
            let upper = t.uppercased()
            return upper == "UK" ? "GB" : upper
        }
    }
    return resolvedCountryCode(c)
}

private func postalText(_ c: AddressComponents, abbreviate: Bool = false) -> String {
    var ctx = postalContext(c)
    var cc = postalCountryCode(ctx, c)

    // A territory that uses another country's form: its country line (`change_country`, whose
    // `$name` is a component as given) and the state it adds (`add_component`, a state only).
    if let code = cc, let data = postalFormatTable[code], let use = data.useCountry {
        if let change = data.changeCountry { ctx["country"] = substituteComponent(change, ctx) }
        if let add = data.addComponent, let eq = add.firstIndex(of: "="), add[..<eq] == "state" {
            ctx["state"] = String(add[add.index(after: eq)...])
        }
        cc = use
    }
    // Territories given as a state of the Netherlands.
    if cc == "NL", let state = ctx["state"] {
        let lower = state.lowercased()
        if lower == "curaçao" {
            cc = "CW"; ctx["country"] = "Curaçao"
        } else if lower.hasPrefix("sint maarten") {
            cc = "SX"; ctx["country"] = "Sint Maarten"
        } else if lower.hasPrefix("aruba") {
            cc = "AW"; ctx["country"] = "Aruba"
        }
    }
    if let cc { ctx["country_code"] = cc }

    sanityClean(&ctx)

    // Aliases fill their component only when it is empty, in the data's order ("district" is a
    // neighbourhood in a few countries and a state district elsewhere).
    let aliases = cc.map { cc in smallDistrictCountries.contains(cc) ? smallDistrictAliasIndex : largeDistrictAliasIndex }
        ?? componentAliasIndex
    var filled: [(name: String, rank: Int, value: String)] = []
    for (key, value) in ctx {
        guard let (name, rank) = aliases[key], ctx[name] == nil else { continue }
        if let k = filled.firstIndex(where: { $0.name == name }) {
            if rank < filled[k].rank { filled[k] = (name, rank, value) }
        } else {
            filled.append((name, rank, value))
        }
    }
    for f in filled { ctx[f.name] = f.value }
    // The unit goes on the road line in the US and Canada ("123 Main St Apt 4"), and elsewhere on
    // the house line above the street, as "Flat 2" in the UK or "Appartement 12" in France.
    if let unit = c.unitText {
        if cc == "US" || cc == "CA", let road = ctx["road"] {
            ctx["road"] = road + " " + unit
        } else {
            ctx["house"] = ctx["house"].map { $0 + ", " + unit } ?? unit
        }
    }
    // The country line is the country as given: a country code alone chooses the form but writes
    // no country line, as the reference formatter and Apple's postal formatter do (a letter posted
    // within the country carries none; pass `country` for the international form).

    let format = cc.flatMap { compiledPostalFormats[$0] } ?? compiledPostalFormats["default"]!
    let minimal = ctx["road"] != nil || ctx["postcode"] != nil
    let template = minimal ? format.template : format.fallback

    fixCountry(&ctx)
    applyReplacements(&ctx, format.replace)
    addCode(&ctx, "state", subdivisionIndexes)
    addCode(&ctx, "county", countyIndexes)

    // Components the data does not know (a given attention line among them) make the attention
    // line, by key.
    var unknown: [String] = []
    for key in ctx.keys where !knownComponentNames.contains(key) { unknown.append(key) }
    if !unknown.isEmpty {
        ctx["attention"] = unknown.sorted().compactMap { ctx[$0] }.joined(separator: ", ")
    }

    if abbreviate, let cc = ctx["country_code"] { abbreviateComponents(&ctx, country: cc) }

    var text = renderPostal(template, ctx, format)
    // A house number is written with its street or a named place, never alone on a line.
    if ctx["road"] == nil, let number = ctx["house_number"],
       text.split(separator: "\n").contains(where: { $0 == number }) {
        ctx["house_number"] = nil
        text = renderPostal(template, ctx, format)
    }
    return text
}

/// Renders a template with the components, then the clean-up, the country's post-format rules
/// and the clean-up again; lines joined by "\n", no empty line, no trailing newline.
private func renderPostal(_ template: [TemplateNode], _ ctx: [String: String], _ format: CompiledPostalFormat) -> String {
    var text = renderTemplate(template, ctx)
    text = cleanText(text)
    text = postformat(text, format.postformat)
    text = cleanText(text)
    // cleanText ends the text with a newline; the result has none, and no empty line.
    var out = String.UnicodeScalarView()
    var lineStart = true
    for c in text {
        if c == "\n" {
            lineStart = true
        } else {
            if lineStart, !out.isEmpty { out.append("\n") }
            lineStart = false
            out.append(c)
        }
    }
    return String(out)
}

/// The abbreviations of each language (abbreviations/*.yaml), by component: (long, short) as
/// scalars, in the data's order.
private let compiledAbbreviations: [String: [String: [(long: [Unicode.Scalar], short: [Unicode.Scalar])]]] = {
    var out: [String: [String: [(long: [Unicode.Scalar], short: [Unicode.Scalar])]]] = [:]
    for (lang, rows) in abbreviationTable {
        var byComponent: [String: [(long: [Unicode.Scalar], short: [Unicode.Scalar])]] = [:]
        for row in rows where !row.long.isEmpty {
            byComponent[row.component, default: []].append((Array(row.long.unicodeScalars), Array(row.short.unicodeScalars)))
        }
        out[lang] = byComponent
    }
    return out
}()

/// Abbreviates the components by the country's languages (country2lang.yaml), as the reference
/// formatter does: for each language, each component it has words for, and each word, the first
/// place where the word starts the value or follows white space and ends at a word boundary is
/// replaced by its short form ("Avenue" -> "Ave", "Platz der Republik" -> "Pl der Republik";
/// "Willy-Brandt-Platz" is left as it is). Case matters.
private func abbreviateComponents(_ ctx: inout [String: String], country cc: String) {
    guard let langs = countryLanguageTable[cc] else { return }
    for lang in langs {
        guard let table = compiledAbbreviations[lang] else { continue }
        for (component, words) in table {
            guard let value = ctx[component] else { continue }
            var s = Array(value.unicodeScalars)
            var changed = false
            for (long, short) in words {
                if let at = abbreviationSite(s, long) {
                    s.replaceSubrange(at..<(at + long.count), with: short)
                    changed = true
                }
            }
            if changed { ctx[component] = String(String.UnicodeScalarView(s)) }
        }
    }
}

/// The first index where `word` occurs in `s` at the start or after white space, and ends at a
/// word boundary (Perl's `(^|\s)word\b`).
private func abbreviationSite(_ s: [Unicode.Scalar], _ word: [Unicode.Scalar]) -> Int? {
    guard word.count <= s.count, let first = word.first else { return nil }
    let lastIsWord = isWord(word[word.count - 1])
    var i = 0
    while i + word.count <= s.count {
        if s[i] == first, i == 0 || isSpace(s[i - 1]) {
            var j = 1
            while j < word.count, s[i + j] == word[j] { j += 1 }
            if j == word.count {
                let end = i + word.count
                let nextIsWord = end < s.count && isWord(s[end])
                if lastIsWord != nextIsWord { return i }
            }
        }
        i += 1
    }
    return nil
}

/// `change_country`'s text with `$name` replaced by that component (or removed).
private func substituteComponent(_ text: String, _ ctx: [String: String]) -> String {
    guard let dollar = text.firstIndex(of: "$") else { return text }
    var end = text.index(after: dollar)
    while end < text.endIndex, text[end].isLetter || text[end] == "_" { end = text.index(after: end) }
    let name = String(text[text.index(after: dollar)..<end])
    return trimmedValue(String(text[..<dollar]) + (ctx[name] ?? "") + String(text[end...]))
}

/// Drops values that cannot be part of an address, as the reference formatter does: a postcode
/// longer than 20 characters or a range ("12345;12346"; "12345,12346" keeps the first), values
/// without a letter or digit, values with a URL.
private func sanityClean(_ ctx: inout [String: String]) {
    if let postcode = ctx["postcode"] {
        let s = Array(postcode.unicodeScalars)
        if s.count > 20 {
            ctx["postcode"] = nil
        } else if hasDigitRange(s, separator: ";") {
            ctx["postcode"] = nil
        } else if s.count >= 11, s[0..<5].allSatisfy(isDigit), s[5] == ",", s[6..<11].allSatisfy(isDigit) {
            ctx["postcode"] = String(String.UnicodeScalarView(s[0..<5]))
        }
    }
    for (key, value) in ctx {
        if !value.unicodeScalars.contains(where: isWord) || containsURL(value) {
            ctx[key] = nil
        }
    }
}

/// Whether `s` contains "http://" or "https://" (`m|https?://|`).
private func containsURL(_ s: String) -> Bool {
    let u = Array(s.utf8)
    let http = Array("http".utf8)
    var i = 0
    while i + 7 <= u.count {
        if u[i] == http[0], u[i + 1] == http[1], u[i + 2] == http[2], u[i + 3] == http[3] {
            var j = i + 4
            if u[j] == UInt8(ascii: "s") { j += 1 }
            if j + 3 <= u.count, u[j] == UInt8(ascii: ":"), u[j + 1] == UInt8(ascii: "/"), u[j + 2] == UInt8(ascii: "/") {
                return true
            }
        }
        i += 1
    }
    return false
}

/// Whether `s` contains digits, the separator, digits.
private func hasDigitRange(_ s: [Unicode.Scalar], separator: Unicode.Scalar) -> Bool {
    for i in s.indices where s[i] == separator {
        if i > 0, isDigit(s[i - 1]), i + 1 < s.count, isDigit(s[i + 1]) { return true }
    }
    return false
}

/// A country given as a number with a state: the reference formatter takes the state as the
/// country.
private func fixCountry(_ ctx: inout [String: String]) {
    guard let country = ctx["country"], let state = ctx["state"], looksLikeNumber(country) else { return }
    ctx["country"] = state
    ctx["state"] = nil
}

/// Perl's looks_like_number, near enough: a decimal number with optional sign, point and
/// exponent, or Inf/Infinity/NaN.
private func looksLikeNumber(_ s: String) -> Bool {
    let t = trimmedValue(s)
    let lower = t.lowercased()
    var body = Substring(lower)
    if body.hasPrefix("+") || body.hasPrefix("-") { body = body.dropFirst() }
    if body == "inf" || body == "infinity" || body == "nan" { return true }
    var digits = 0
    var i = body.startIndex
    while i < body.endIndex, body[i].isASCII, body[i].isNumber { digits += 1; i = body.index(after: i) }
    if i < body.endIndex, body[i] == "." {
        i = body.index(after: i)
        while i < body.endIndex, body[i].isASCII, body[i].isNumber { digits += 1; i = body.index(after: i) }
    }
    guard digits > 0 else { return false }
    if i < body.endIndex, body[i] == "e" {
        i = body.index(after: i)
        if i < body.endIndex, body[i] == "+" || body[i] == "-" { i = body.index(after: i) }
        var exp = 0
        while i < body.endIndex, body[i].isASCII, body[i].isNumber { exp += 1; i = body.index(after: i) }
        guard exp > 0 else { return false }
    }
    return i == body.endIndex
}

/// The country's `replace` rules on every component but the country code and the house number,
/// in order: a rule for one component ("state=...") replaces a value equal to its text whole,
/// else its first match; a rule for every component replaces its first match. Patterns ignore
/// case, as the reference formatter compiles them.
private func applyReplacements(_ ctx: inout [String: String], _ rules: [CompiledReplace]) {
    guard !rules.isEmpty else { return }
    for key in ctx.keys where key != "country_code" && key != "house_number" {
        guard var value = ctx[key] else { continue }
        var changed = false
        for rule in rules {
            if let ruleKey = rule.key {
                guard ruleKey == key else { continue }
                if value == rule.exact {
                    value = String(String.UnicodeScalarView(rule.replacement))
                    changed = true
                    continue
                }
            }
            if let re = rule.regex, let replaced = re.replacingFirstMatchIfAny(in: value, with: rule.replacement) {
                value = replaced
                changed = true
            }
        }
        if changed { ctx[key] = value }
    }
}

/// Adds the code of the state (or county) from its name, or expands one given as a code to its
/// name, by the country's table (the reference formatter's `_add_code`). A code that differs
/// from the name is kept as it is. "Washington, D.C." becomes the District of Columbia.
private func addCode(_ ctx: inout [String: String], _ keyname: String, _ indexes: [String: SubdivisionIndex]) {
    let codeKey = keyname + "_code"
    guard let cc = ctx["country_code"], let value = ctx[keyname], !value.isEmpty else { return }
    if let code = ctx[codeKey], code != value { return }
    if let index = indexes[cc] {
        let key = value.lowercased()
        if let entry = index.names[key] {
            ctx[codeKey] = entry.code
        } else if let entry = index.codes[key] {
            ctx[keyname] = entry.name
            ctx[codeKey] = entry.code
        } else if keyname == "state", cc == "US", key.hasPrefix("united states") {
            let variant = "us" + key.dropFirst("united states".count)
            if let entry = index.names[variant] {
                ctx[codeKey] = entry.code
            }
        }
    }
    if keyname == "state", cc == "US", ctx["state_code"] == nil || ctx["state_code"] == value, isWashingtonDC(value) {
        ctx["state_code"] = "DC"
        ctx["state"] = "District of Columbia"
        ctx["city"] = "Washington"
    }
}

/// `/^washington,? d\.?c\.?/i`
private func isWashingtonDC(_ s: String) -> Bool {
    var rest = Substring(s.lowercased())
    guard rest.hasPrefix("washington") else { return false }
    rest = rest.dropFirst("washington".count)
    if rest.hasPrefix(",") { rest = rest.dropFirst() }
    guard rest.hasPrefix(" d") else { return false }
    rest = rest.dropFirst(2)
    if rest.hasPrefix(".") { rest = rest.dropFirst() }
    return rest.hasPrefix("c")
}

// MARK: - Postal form: templates

/// Parses the Mustache subset of the templates: `{{{name}}}` and `{{#first}} ... {{/first}}`
/// (other tags are kept as text).
private func parseTemplate(_ template: String) -> [TemplateNode] {
    let s = Array(template.unicodeScalars)
    var i = 0
    func starts(_ prefix: String, at i: Int) -> Bool {
        var j = i
        for p in prefix.unicodeScalars {
            guard j < s.count, s[j] == p else { return false }
            j += 1
        }
        return true
    }
    func parse(untilClose: Bool) -> [TemplateNode] {
        var nodes: [TemplateNode] = []
        var text: [Unicode.Scalar] = []
        func flush() {
            if !text.isEmpty { nodes.append(.text(text)); text = [] }
        }
        while i < s.count {
            if starts("{{{", at: i) {
                var j = i + 3
                var name = ""
                while j < s.count, !starts("}}}", at: j) { name.unicodeScalars.append(s[j]); j += 1 }
                if j < s.count {
                    flush()
                    nodes.append(.variable(name.trimmingWhitespace()))
                    i = j + 3
                    continue
                }
            } else if starts("{{#first}}", at: i) {
                flush()
                i += "{{#first}}".unicodeScalars.count
                nodes.append(.first(parse(untilClose: true)))
                continue
            } else if untilClose, starts("{{/first}}", at: i) {
                i += "{{/first}}".unicodeScalars.count
                flush()
                return nodes
            }
            text.append(s[i])
            i += 1
        }
        flush()
        return nodes
    }
    return parse(untilClose: false)
}

private extension String {
    func trimmingWhitespace() -> String { trimmedValue(self) }
}

private func render(_ nodes: [TemplateNode], _ ctx: [String: String], into out: inout [Unicode.Scalar]) {
    for node in nodes {
        switch node {
        case .text(let t):
            out.append(contentsOf: t)
        case .variable(let name):
            if let v = ctx[name] { out.append(contentsOf: v.unicodeScalars) }
        case .first(let children):
            var inner: [Unicode.Scalar] = []
            render(children, ctx, into: &inner)
            out.append(contentsOf: selectFirst(inner))
        }
    }
}

private func renderTemplate(_ nodes: [TemplateNode], _ ctx: [String: String]) -> [Unicode.Scalar] {
    var out: [Unicode.Scalar] = []
    out.reserveCapacity(256)
    render(nodes, ctx, into: &out)
    return out
}

/// The first non-empty alternative of "a || b || c", whitespace around each trimmed.
private func selectFirst(_ s: [Unicode.Scalar]) -> [Unicode.Scalar] {
    var start = 0
    var i = 0
    func piece(_ a: Int, _ b: Int) -> ArraySlice<Unicode.Scalar> {
        var a = a, b = b
        while a < b, isSpace(s[a]) { a += 1 }
        while b > a, isSpace(s[b - 1]) { b -= 1 }
        return s[a..<b]
    }
    while i + 1 < s.count {
        if s[i] == "|" && s[i + 1] == "|" {
            let p = piece(start, i)
            if !p.isEmpty { return Array(p) }
            i += 2
            start = i
        } else {
            i += 1
        }
    }
    return Array(piece(start, s.count))
}

// MARK: - Postal form: clean-up

/// Perl's `\s` (Unicode white space).
@inline(__always)
private func isSpace(_ c: Unicode.Scalar) -> Bool {
    switch c.value {
    case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
    default: return false
    }
}

/// Perl's `\h` (horizontal white space).
@inline(__always)
private func isHorizontalSpace(_ c: Unicode.Scalar) -> Bool {
    switch c.value {
    case 0x09, 0x20, 0xA0, 0x1680, 0x180E, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: return true
    default: return false
    }
}

/// Perl's `\d` (a decimal digit in any script).
@inline(__always)
private func isDigit(_ c: Unicode.Scalar) -> Bool {
    c.properties.generalCategory == .decimalNumber
}

/// Perl's `\w` (letter, mark, digit or connector punctuation).
@inline(__always)
private func isWord(_ c: Unicode.Scalar) -> Bool {
    let p = c.properties
    if p.isAlphabetic { return true }
    switch p.generalCategory {
    case .decimalNumber, .nonspacingMark, .spacingMark, .enclosingMark, .connectorPunctuation: return true
    default: return false
    }
}

/// The simple lower-case mapping of a scalar (itself when it has none of one scalar).
@inline(__always)
private func lowerScalar(_ c: Unicode.Scalar) -> Unicode.Scalar {
    if c.isASCII { return c.value >= 0x41 && c.value <= 0x5A ? Unicode.Scalar(c.value + 32)! : c }
    guard c.properties.changesWhenLowercased else { return c }
    let m = c.properties.lowercaseMapping.unicodeScalars
    return m.count == 1 ? m.first! : c
}

/// The simple upper-case mapping of a scalar (itself when it has none of one scalar).
@inline(__always)
private func upperScalar(_ c: Unicode.Scalar) -> Unicode.Scalar {
    if c.isASCII { return c.value >= 0x61 && c.value <= 0x7A ? Unicode.Scalar(c.value - 32)! : c }
    guard c.properties.changesWhenUppercased else { return c }
    let m = c.properties.uppercaseMapping.unicodeScalars
    return m.count == 1 ? m.first! : c
}

@inline(__always)
private func isASCIILetter(_ c: Unicode.Scalar) -> Bool {
    (c.value | 0x20) >= 0x61 && (c.value | 0x20) <= 0x7A
}

/// One left-to-right pass of a global substitution: at each position `match` may return the end
/// of a match and its replacement.
private func substituteAll(
    _ s: [Unicode.Scalar], _ match: ([Unicode.Scalar], Int) -> (end: Int, with: [Unicode.Scalar])?
) -> [Unicode.Scalar] {
    // Most passes find nothing: copy only from the first match on.
    var i = 0
    while i < s.count, match(s, i).map({ $0.end <= i }) ?? true { i += 1 }
    if i == s.count { return s }
    var out: [Unicode.Scalar] = []
    out.reserveCapacity(s.count)
    out.append(contentsOf: s[0..<i])
    while i < s.count {
        if let m = match(s, i), m.end > i {
            out.append(contentsOf: m.with)
            i = m.end
        } else {
            out.append(s[i])
            i += 1
        }
    }
    return out
}

/// The end of the run of scalars from `i` that satisfy `p`.
@inline(__always)
private func runEnd(_ s: [Unicode.Scalar], _ i: Int, _ p: (Unicode.Scalar) -> Bool) -> Int {
    var j = i
    while j < s.count, p(s[j]) { j += 1 }
    return j
}

/// The reference formatter's `_clean`: commas and white space tidied, duplicate lines and
/// duplicate comma-separated parts within a line removed ("New York, New York" excepted), the
/// text trimmed and ended with one newline.
private func cleanText(_ text: [Unicode.Scalar]) -> [Unicode.Scalar] {
    var s = text
    // s/&#39;/'/g
    let apos = Array("&#39;".unicodeScalars)
    s = substituteAll(s) { s, i in
        s[i] == "&" && i + apos.count <= s.count && Array(s[i..<(i + apos.count)]) == apos ? (i + apos.count, ["'"]) : nil
    }
    // s/[\},\s]+$//  and  s/^[,\s]+//
    while let last = s.last, last == "}" || last == "," || isSpace(last) { s.removeLast() }
    let lead = runEnd(s, 0) { $0 == "," || isSpace($0) }
    s.removeFirst(lead)
    // s/^- //
    if s.count >= 2, s[0] == "-", s[1] == " " { s.removeFirst(2) }
    // s/,\s*,/, /g
    s = substituteAll(s) { s, i in
        guard s[i] == "," else { return nil }
        let j = runEnd(s, i + 1, isSpace)
        return j < s.count && s[j] == "," ? (j + 1, [",", " "]) : nil
    }
    // s/\h+,\h+/, /g
    s = substituteAll(s) { s, i in
        guard isHorizontalSpace(s[i]) else { return nil }
        let j = runEnd(s, i, isHorizontalSpace)
        guard j + 1 < s.count, s[j] == ",", isHorizontalSpace(s[j + 1]) else { return nil }
        return (runEnd(s, j + 1, isHorizontalSpace), [",", " "])
    }
    // s/\h\h+/ /g
    s = substituteAll(s) { s, i in
        guard i + 1 < s.count, isHorizontalSpace(s[i]), isHorizontalSpace(s[i + 1]) else { return nil }
        return (runEnd(s, i, isHorizontalSpace), [" "])
    }
    // s/\h\n/\n/g
    s = substituteAll(s) { s, i in
        i + 1 < s.count && isHorizontalSpace(s[i]) && s[i + 1] == "\n" ? (i + 2, ["\n"]) : nil
    }
    // s/\n,/\n/g
    s = substituteAll(s) { s, i in i + 1 < s.count && s[i] == "\n" && s[i + 1] == "," ? (i + 2, ["\n"]) : nil }
    // s/,,+/,/g
    s = substituteAll(s) { s, i in
        i + 1 < s.count && s[i] == "," && s[i + 1] == "," ? (runEnd(s, i) { $0 == "," }, [","]) : nil
    }
    // s/,\n/\n/g
    s = substituteAll(s) { s, i in i + 1 < s.count && s[i] == "," && s[i + 1] == "\n" ? (i + 2, ["\n"]) : nil }
    // s/\n\h+/\n/g
    s = substituteAll(s) { s, i in
        i + 1 < s.count && s[i] == "\n" && isHorizontalSpace(s[i + 1]) ? (runEnd(s, i + 1, isHorizontalSpace), ["\n"]) : nil
    }
    // s/\n\n+/\n/g
    s = substituteAll(s) { s, i in
        i + 1 < s.count && s[i] == "\n" && s[i + 1] == "\n" ? (runEnd(s, i) { $0 == "\n" }, ["\n"]) : nil
    }

    // Duplicate lines, then duplicate parts within each line.
    // (An address has a few lines of a few parts: a linear search beats hashing.)
    var lines = perlSplit(s, on: "\n")
    var seenLines: [[Unicode.Scalar]] = []
    var kept: [[Unicode.Scalar]] = []
    for raw in lines {
        let line = trimmed(raw, isHorizontalSpace)
        guard !seenLines.contains(line) else { continue }
        seenLines.append(line)
        guard line.contains(",") else { kept.append(line); continue }
        var seenWords: [[Unicode.Scalar]] = []
        var words: [[Unicode.Scalar]] = []
        for rawWord in perlSplit(line, on: ",") {
            let w = trimmed(rawWord, isHorizontalSpace)
            if !isNewYork(w) {
                guard !seenWords.contains(w) else { continue }
                seenWords.append(w)
            }
            words.append(w)
        }
        kept.append(Array(words.joined(separator: [",", " "])))
    }
    lines = kept
    var out = Array(lines.joined(separator: ["\n"]))
    out = trimmed(out, isSpace)
    out.append("\n")
    return out
}

/// Perl's `split`: leading empty fields kept, trailing empty fields dropped.
private func perlSplit(_ s: [Unicode.Scalar], on separator: Unicode.Scalar) -> [[Unicode.Scalar]] {
    var fields = s.split(separator: separator, omittingEmptySubsequences: false).map(Array.init)
    while let last = fields.last, last.isEmpty { fields.removeLast() }
    return fields
}

private func trimmed(_ s: [Unicode.Scalar], _ p: (Unicode.Scalar) -> Bool) -> [Unicode.Scalar] {
    var a = 0, b = s.count
    while a < b, p(s[a]) { a += 1 }
    while b > a, p(s[b - 1]) { b -= 1 }
    return Array(s[a..<b])
}

private func isNewYork(_ w: [Unicode.Scalar]) -> Bool {
    w.count == 8 && String(String.UnicodeScalarView(w)).lowercased() == "new york"
}

/// The reference formatter's `_postformat`: duplicate ", "-separated parts removed, then the
/// country's rules, each replacing its first match.
private func postformat(_ s: [Unicode.Scalar], _ rules: [(MiniRegex, [Unicode.Scalar])]) -> [Unicode.Scalar] {
    // split(/, /): pieces, leading white space removed, duplicates dropped ("New York" kept).
    var pieces: [[Unicode.Scalar]] = []
    var start = 0
    var i = 0
    while i + 1 < s.count {
        if s[i] == ",", s[i + 1] == " " {
            pieces.append(Array(s[start..<i]))
            i += 2
            start = i
        } else {
            i += 1
        }
    }
    pieces.append(Array(s[start..<s.count]))
    while let last = pieces.last, last.isEmpty { pieces.removeLast() }
    var kept: [[Unicode.Scalar]] = []
    for raw in pieces {
        let piece = Array(raw[runEnd(raw, 0, isSpace)...])
        if kept.contains(piece) && !isNewYork(piece) { continue }
        kept.append(piece)
    }
    var text = pieces.count == 1 ? kept.first ?? [] : Array(kept.joined(separator: [",", " "]))
    for (re, replacement) in rules {
        if let replaced = re.replacingFirstMatchIfAny(inScalars: text, with: replacement) { text = replaced }
    }
    return text
}

// MARK: - A small regular-expression engine

/// The regular expressions of the `replace` and `postformat_replace` rules, with Perl's meaning:
/// literals; the escapes `\d` `\w` `\s` `\D` `\W` `\S` (Unicode classes), `\b`, `\n`, `\t` and
/// escaped punctuation; `.` (any character but newline); classes `[...]` and `[^...]` with
/// ranges and escapes; groups `( )` (capturing) and `(?: )`; alternation `|`; the quantifiers
/// `?` `*` `+` `{n}` `{n,}` `{n,m}`, greedy or lazy (a following `?`), with backtracking; the
/// anchors `^` (start of text) and `$` (end of text, or before a newline that ends it). A
/// replacement may name groups as `$1`...`$9`. Any other construct does not compile.
struct MiniRegex: Sendable {
    /// The deepest nesting of a match (about 1 KB of stack each level takes at most).
    static let maxMatchDepth = 1_000

    fileprivate indirect enum Node: Sendable {
        case scalar(Unicode.Scalar)
        case any
        case set([ClassItem], negated: Bool)
        case start, end, boundary
        case group([[Node]], capture: Int?)
        case repetition(Node, min: Int, max: Int, lazy: Bool)
    }

    fileprivate enum ClassItem: Sendable {
        case range(Unicode.Scalar, Unicode.Scalar)
        case digit(Bool), word(Bool), space(Bool)

        func contains(_ c: Unicode.Scalar, ignoringCase: Bool) -> Bool {
            switch self {
            case .range(let a, let b):
                if a <= c && c <= b { return true }
                guard ignoringCase else { return false }
                let l = lowerScalar(c), u = upperScalar(c)
                return (a <= l && l <= b) || (a <= u && u <= b)
            case .digit(let yes): return isDigit(c) == yes
            case .word(let yes): return isWord(c) == yes
            case .space(let yes): return isSpace(c) == yes
            }
        }
    }

    private let alternatives: [[Node]]
    private let groupCount: Int
    private let ignoringCase: Bool

    /// Nil when the pattern uses a construct outside the subset or is malformed. With
    /// `ignoringCase`, letters match their other case (Perl's `/i`, by simple case mappings).
    init?(_ pattern: String, ignoringCase: Bool = false) {
        self.ignoringCase = ignoringCase
        let p = Array(pattern.unicodeScalars)
        var i = 0
        var groups = 0

        func escapeItem(_ c: Unicode.Scalar) -> ClassItem {
            switch c {
            case "d": return .digit(true)
            case "D": return .digit(false)
            case "w": return .word(true)
            case "W": return .word(false)
            case "s": return .space(true)
            case "S": return .space(false)
            case "n": return .range("\n", "\n")
            case "t": return .range("\t", "\t")
            default: return .range(c, c)
            }
        }
        func isLetterEscapeUnknown(_ c: Unicode.Scalar) -> Bool {
            (c.properties.isAlphabetic || isDigit(c)) && !"dDwWsSntb".unicodeScalars.contains(c)
        }
        func parseNumber() -> Int? {
            var n: Int?
            while i < p.count, p[i].value >= 48, p[i].value <= 57, (n ?? 0) < 10_000 {
                n = (n ?? 0) * 10 + Int(p[i].value - 48)
                i += 1
            }
            return n
        }
        func parseAlternatives() -> [[Node]]? {
            var alts: [[Node]] = []
            var seq: [Node] = []
            while i < p.count {
                let c = p[i]
                if c == ")" { break }
                if c == "|" { alts.append(seq); seq = []; i += 1; continue }
                var node: Node
                switch c {
                case "(":
                    i += 1
                    var capture: Int?
                    if i + 1 < p.count, p[i] == "?", p[i + 1] == ":" {
                        i += 2
                    } else if i < p.count, p[i] == "?" {
                        return nil
                    } else {
                        groups += 1
                        capture = groups
                    }
                    guard let inner = parseAlternatives(), i < p.count, p[i] == ")" else { return nil }
                    i += 1
                    node = .group(inner, capture: capture)
                case "[":
                    i += 1
                    var negated = false
                    if i < p.count, p[i] == "^" { negated = true; i += 1 }
                    var items: [ClassItem] = []
                    var first = true
                    while i < p.count, p[i] != "]" || first {
                        first = false
                        var lo: ClassItem
                        if p[i] == "\\" {
                            guard i + 1 < p.count, !isLetterEscapeUnknown(p[i + 1]) || p[i + 1] == "b" else { return nil }
                            lo = p[i + 1] == "b" ? .range("\u{8}", "\u{8}") : escapeItem(p[i + 1])
                            i += 2
                        } else {
                            lo = .range(p[i], p[i])
                            i += 1
                        }
                        if case .range(let a, _) = lo, i + 1 < p.count, p[i] == "-", p[i + 1] != "]" {
                            var b = p[i + 1]
                            i += 2
                            if b == "\\" {
                                guard i < p.count else { return nil }
                                b = p[i]
                                i += 1
                            }
                            guard a <= b else { return nil }
                            lo = .range(a, b)
                        }
                        items.append(lo)
                    }
                    guard i < p.count else { return nil }
                    i += 1
                    node = .set(items, negated: negated)
                case "\\":
                    guard i + 1 < p.count else { return nil }
                    let e = p[i + 1]
                    i += 2
                    if e == "b" {
                        node = .boundary
                    } else if isLetterEscapeUnknown(e) {
                        return nil
                    } else {
                        let item = escapeItem(e)
                        if case .range(let a, let b) = item, a == b {
                            node = .scalar(ignoringCase ? lowerScalar(a) : a)
                        } else {
                            node = .set([item], negated: false)
                        }
                    }
                case ".": node = .any; i += 1
                case "^": node = .start; i += 1
                case "$": node = .end; i += 1
                case "?", "*", "+", "{", "]", "}": return nil
                default: node = .scalar(ignoringCase ? lowerScalar(c) : c); i += 1
                }
                // Quantifier.
                if i < p.count {
                    var range: (Int, Int)?
                    switch p[i] {
                    case "?": range = (0, 1); i += 1
                    case "*": range = (0, Int.max); i += 1
                    case "+": range = (1, Int.max); i += 1
                    case "{":
                        let save = i
                        i += 1
                        if let lo = parseNumber() {
                            var hi = lo
                            if i < p.count, p[i] == "," {
                                i += 1
                                hi = parseNumber() ?? Int.max
                            }
                            if i < p.count, p[i] == "}", lo <= hi {
                                i += 1
                                range = (lo, hi)
                            } else { return nil }
                        } else { i = save; return nil }
                    default: break
                    }
                    if let (lo, hi) = range {
                        switch node {
                        case .start, .end, .boundary: return nil
                        default: break
                        }
                        var lazy = false
                        if i < p.count, p[i] == "?" { lazy = true; i += 1 }
                        if i < p.count, "?*+{".unicodeScalars.contains(p[i]) { return nil }
                        node = .repetition(node, min: lo, max: hi, lazy: lazy)
                    }
                }
                seq.append(node)
            }
            alts.append(seq)
            return alts
        }
        guard let alts = parseAlternatives(), i == p.count else { return nil }
        alternatives = alts
        groupCount = groups
        anchored = alts.allSatisfy { alt in
            if case .start? = alt.first { return true }
            return false
        }
        // The longest run of literal scalars every match contains (only a pattern of one
        // alternative has one): a text without it is not searched.
        var best: [Unicode.Scalar] = []
        if alts.count == 1 {
            var run: [Unicode.Scalar] = []
            for node in alts[0] {
                if case .scalar(let c) = node {
                    run.append(c)
                } else {
                    if run.count > best.count { best = run }
                    run = []
                }
            }
            if run.count > best.count { best = run }
        }
        requiredLiteral = best
    }

    /// Whether every alternative starts with `^` (a match can only start at 0).
    private let anchored: Bool
    /// Scalars every match contains in this order (lower case when ignoring case).
    private let requiredLiteral: [Unicode.Scalar]

    /// Whether `s` contains the required literal.
    private func mayMatch(_ s: [Unicode.Scalar]) -> Bool {
        let lit = requiredLiteral
        guard let first = lit.first else { return true }
        guard lit.count <= s.count else { return false }
        var i = 0
        let last = s.count - lit.count
        while i <= last {
            let c = ignoringCase ? lowerScalar(s[i]) : s[i]
            if c == first {
                var j = 1
                while j < lit.count {
                    let d = ignoringCase ? lowerScalar(s[i + j]) : s[i + j]
                    if d != lit[j] { break }
                    j += 1
                }
                if j == lit.count { return true }
            }
            i += 1
        }
        return false
    }

    /// The first (leftmost) match and its groups' ranges (index 0 the whole match).
    func firstMatch(in s: [Unicode.Scalar]) -> [Range<Int>?]? {
        guard mayMatch(s) else { return nil }
        let state = MatchState(s, groups: groupCount, ignoringCase: ignoringCase)
        for startAt in 0...(anchored ? 0 : s.count) {
            // Every capture is undone when the rest of its match fails, so after a failed start
            // the captures are all unset again.
            var endAt = -1
            if MiniRegex.matchAlternatives(alternatives, capture: nil, startAt, state, { j in endAt = j; return true }) {
                var out: [Range<Int>?] = [startAt..<endAt]
                for g in 1...max(groupCount, 1) where g <= groupCount {
                    let a = state.caps[2 * g], b = state.caps[2 * g + 1]
                    out.append(a >= 0 && b >= a ? a..<b : nil)
                }
                return out
            }
        }
        return nil
    }

    /// `s` with its first match replaced: `$1`...`$9` in the replacement are the groups' text
    /// (empty for a group that did not take part).
    func replacingFirstMatch(in s: String, with replacement: [Unicode.Scalar]) -> String {
        replacingFirstMatchIfAny(in: s, with: replacement) ?? s
    }

    /// ``replacingFirstMatch(in:with:)``, nil when nothing matches.
    func replacingFirstMatchIfAny(in s: String, with replacement: [Unicode.Scalar]) -> String? {
        replacingFirstMatchIfAny(inScalars: Array(s.unicodeScalars), with: replacement).map { String(String.UnicodeScalarView($0)) }
    }

    /// ``replacingFirstMatch(in:with:)`` on scalars, nil when nothing matches.
    func replacingFirstMatchIfAny(inScalars u: [Unicode.Scalar], with replacement: [Unicode.Scalar]) -> [Unicode.Scalar]? {
        guard let m = firstMatch(in: u), let whole = m[0] else { return nil }
        var r: [Unicode.Scalar] = []
        var i = 0
        while i < replacement.count {
            let c = replacement[i]
            if c == "$", i + 1 < replacement.count, isDigit(replacement[i + 1]) {
                let g = Int(replacement[i + 1].value - 48)
                if g < m.count, let range = m[g] { r.append(contentsOf: u[range]) }
                i += 2
                continue
            }
            r.append(c)
            i += 1
        }
        var out = u
        out.replaceSubrange(whole, with: r)
        return out
    }

    private final class MatchState {
        let s: [Unicode.Scalar]
        var caps: [Int]
        var steps = 0
        var depth = 0
        let ignoringCase: Bool
        init(_ s: [Unicode.Scalar], groups: Int, ignoringCase: Bool) {
            self.s = s
            self.ignoringCase = ignoringCase
            caps = [Int](repeating: -1, count: 2 * (groups + 1))
        }
    }

    private static func matchAlternatives(
        _ alts: [[Node]], capture: Int?, _ i: Int, _ st: MatchState, _ k: (Int) -> Bool
    ) -> Bool {
        for alt in alts {
            let ok = matchSequence(alt, 0, i, st) { j in
                guard let g = capture else { return k(j) }
                let a = st.caps[2 * g], b = st.caps[2 * g + 1]
                st.caps[2 * g] = i
                st.caps[2 * g + 1] = j
                if k(j) { return true }
                st.caps[2 * g] = a
                st.caps[2 * g + 1] = b
                return false
            }
            if ok { return true }
        }
        return false
    }

    private static func matchSequence(_ seq: [Node], _ at: Int, _ i: Int, _ st: MatchState, _ k: (Int) -> Bool) -> Bool {
        if at == seq.count { return k(i) }
        return matchNode(seq[at], i, st) { j in matchSequence(seq, at + 1, j, st, k) }
    }

    private static func matchNode(_ node: Node, _ i: Int, _ st: MatchState, _ k: (Int) -> Bool) -> Bool {
        st.steps += 1
        st.depth += 1
        defer { st.depth -= 1 }
        // Bounds on the work and on the stack for one text (each step of a match nests a call): a
        // match that would need more is treated as no match, so a rule never applies to a text
        // with a run of more than about a thousand characters under one repetition.
        if st.steps > 1_000_000 || st.depth > MiniRegex.maxMatchDepth { return false }
        let s = st.s
        switch node {
        case .scalar(let c):
            return i < s.count && (s[i] == c || (st.ignoringCase && lowerScalar(s[i]) == c)) && k(i + 1)
        case .any:
            return i < s.count && s[i] != "\n" && k(i + 1)
        case .set(let items, let negated):
            guard i < s.count else { return false }
            let c = s[i]
            return items.contains(where: { $0.contains(c, ignoringCase: st.ignoringCase) }) != negated && k(i + 1)
        case .start:
            return i == 0 && k(i)
        case .end:
            return (i == s.count || (i == s.count - 1 && s[i] == "\n")) && k(i)
        case .boundary:
            let before = i > 0 && isWord(s[i - 1])
            let after = i < s.count && isWord(s[i])
            return before != after && k(i)
        case .group(let alts, let capture):
            return matchAlternatives(alts, capture: capture, i, st, k)
        case .repetition(let inner, let lo, let hi, let lazy):
            func more(_ count: Int, _ j: Int) -> Bool {
                if lazy {
                    if count >= lo, k(j) { return true }
                    return count < hi && matchNode(inner, j, st) { e in e != j && more(count + 1, e) }
                }
                if count < hi, matchNode(inner, j, st, { e in (e != j || count < lo) && more(count + 1, e) }) {
                    return true
                }
                return count >= lo && k(j)
            }
            return more(0, i)
        }
    }
}

// MARK: - Entry points for the fuzz target

/// The address rules' own engines, reachable by the fuzz target (tests/fuzz/targets/
/// address_rules.swift): not part of the API.
@_spi(Fuzz)
public enum AddressRulesProbe {
    /// Compiles `pattern` (with and without case) and replaces its first match in `text`; nil
    /// when the pattern does not compile.
    public static func replace(pattern: String, in text: String, with replacement: String, ignoringCase: Bool) -> String? {
        MiniRegex(pattern, ignoringCase: ignoringCase)?.replacingFirstMatch(in: text, with: Array(replacement.unicodeScalars))
    }

    /// Parses `template` as a postal template and renders it with `components`, then cleans the
    /// text as the postal form does.
    public static func render(template: String, _ components: [String: String]) -> String {
        let text = cleanText(renderTemplate(parseTemplate(template), components))
        return String(String.UnicodeScalarView(text))
    }

    /// Abbreviates the components as the postal form's option does.
    public static func abbreviate(_ components: [String: String], country: String) -> [String: String] {
        var c = components
        abbreviateComponents(&c, country: country)
        return c
    }
}
