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
//
// The rest of the capability, one concern a file: AddressSubdivisions.swift (US states,
// subdivision and county codes), AddressShortForms.swift (the one-line, "City, State" and
// "City, State, Country" forms), AddressPostal.swift (the postal form: its data and steps),
// AddressPostalText.swift (templates and the text clean-up), AddressPattern.swift (the small
// regular-expression engine the rules need), Address+Fuzz.swift (the fuzz target's entry points).

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
func trimmedValue(_ s: some StringProtocol) -> String {
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

// MARK: - Countries

/// Country names from ISO 3166-1 alpha-2 codes (OpenCage's country_codes.yaml).
public enum Country {
    /// Every entry as (code, English short name), in the data's order.
    public static var all: [(code: String, name: String)] {
        textEntries(countryTable)
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
