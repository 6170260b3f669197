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
        guard let k = AddressKey(named: key), values[k] == nil, let value else { return false }
        let v = trimmedValue(value)
        guard !v.isEmpty else { return false }
        values[k] = v
        if k == .unit { unitWord = unitDesignator(forAlias: key) }
        return true
    }

    /// The value of a canonical key. Setting replaces the value (trimmed); setting nil or an
    /// empty value removes it.
    public subscript(key: AddressKey) -> String? {
        get { values[key] }
        set {
            let v = newValue.map(trimmedValue) ?? ""
            values[key] = v.isEmpty ? nil : v
            if key == .unit { unitWord = nil }
        }
    }

    /// The value of a key given by name (canonical or alias, any case); nil for an unknown key.
    /// Setting an unknown key does nothing.
    public subscript(key: String) -> String? {
        get { AddressKey(named: key).flatMap { values[$0] } }
        set {
            guard let k = AddressKey(named: key) else { return }
            self[k] = newValue
            if k == .unit, values[k] != nil { unitWord = unitDesignator(forAlias: key) }
        }
    }

    /// Whether no component has a value.
    public var isEmpty: Bool { values.isEmpty }

    /// The address as text in the given style; see ``AddressStyle``.
    public func formatted(_ style: AddressStyle) -> String {
        switch style {
        case .oneLine: return oneLineText(self)
        case .cityState: return cityStateText(self)
        case .cityStateCountry: return cityStateCountryText(self)
        case .postal: return postalText(self)
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
    /// "Springfield, IL": city and state code. A US state name gives its code (also when no
    /// country is given), and a known US code is written in upper case; elsewhere a state
    /// without a code is written by name ("Toronto, Ontario", "Paris, Île-de-France"). Either
    /// alone when the other is missing; "" when both are.
    case cityState = 1
    /// "Springfield, Illinois, United States": city, state name and country name, joined by
    /// ", ", missing ones skipped. A state given as a code is written by name (for the US, Canada,
    /// the UK, Germany and France); the country comes from the country code when no country name
    /// is given.
    case cityStateCountry = 2
    /// The multi-line postal form of the address's country (lines joined by "\n", no trailing
    /// newline): country-specific for US, CA, GB, DE, FR and JP, a generic form elsewhere.
    case postal = 3
}

/// The address as text in the given style; the same as `components.formatted(style)`.
public func formatAddress(_ components: AddressComponents, style: AddressStyle) -> String {
    components.formatted(style)
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

private let subdivisionIndexes: [String: SubdivisionIndex] = {
    var out: [String: SubdivisionIndex] = [:]
    for (country, rows) in subdivisionTable {
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
}()

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

private func cityStateText(_ c: AddressComponents) -> String {
    let cc = resolvedCountryCode(c)
    var region = c[.stateCode] ?? c[.state]
    // The US writes the code: derive it from a name, and upper-case a known code. No country
    // counts as the US here (geoloc.h: "derived from the state name for the US").
    if let text = region, cc == nil || cc == "US", let code = USState.code(for: text) {
        region = code
    }
    return [c[.city], region].compactMap { $0 }.joined(separator: ", ")
}

private func cityStateCountryText(_ c: AddressComponents) -> String {
    let cc = resolvedCountryCode(c)
    var region: String? = nil
    if let state = c[.state] {
        // A state given as a code is written by name; a name is kept as given.
        region = subdivision(code: state, in: cc)?.name ?? state
    } else if let code = c[.stateCode] {
        region = subdivision(code, in: cc)?.name ?? code
    }
    var country = c[.country]
    if country == nil, let code = c[.countryCode] {
        let cc = Country.normalizedCode(code) ?? Country.code(forName: code)
        country = cc.flatMap { Country.name(forCode: $0) }
    }
    return [c[.city], region, country].compactMap { $0 }.joined(separator: ", ")
}

// MARK: - Postal form: data

/// One country's postal form (countries/worldwide.yaml).
struct PostalFormatData: Sendable {
    /// The Mustache template used when the road or the postcode is known.
    var template: String
    /// The template used when neither is known.
    var fallback: String
    /// Component replacements applied before rendering.
    var replace: [ReplaceRuleData]
    /// Text replacements applied after rendering.
    var postformat: [PostformatRule]
}

/// A `replace` rule: `pattern` (a regular expression of the small subset ``MiniRegex`` reads)
/// replaced by `replacement` in every component, or only in component `key` when it is set (and
/// there the value equal to `pattern` is replaced whole first, as the reference formatter does).
struct ReplaceRuleData: Sendable {
    var key: String?
    var pattern: String
    var replacement: String
}

/// A `postformat_replace` rule.
enum PostformatRule: Sendable {
    /// The first match of the pattern (``MiniRegex``) replaced by literal text.
    case pattern(String, String)
    /// Canada: `" ([A-Za-z]{2}) ([A-Za-z]\d[A-Za-z])(\d[A-Za-z]\d)\n"` -> `" $1 $2 $3\n"`, the
    /// postcode after the province code split as "A1A 1A1". Written by hand.
    case canadianPostcode
    /// Japan: `" (\d{3})(\d{4})\n"` -> `" $1-$2\n"`, a seven-digit postcode written "100-0001".
    /// Written by hand.
    case japanesePostcode
}

/// A template, parsed.
private indirect enum TemplateNode: Sendable {
    case text([Unicode.Scalar])
    case variable(String)
    /// `{{#first}} a || b {{/first}}`: the first non-empty alternative.
    case first([TemplateNode])
}

/// A postal form ready to use: templates parsed, patterns compiled.
private struct CompiledPostalFormat: Sendable {
    var template: [TemplateNode]
    var fallback: [TemplateNode]
    var replace: [(key: String?, exact: String, keyed: MiniRegex?, whole: MiniRegex?, replacement: [Unicode.Scalar])]
    var postformat: [CompiledPostformatRule]
}

private enum CompiledPostformatRule: Sendable {
    case pattern(MiniRegex, [Unicode.Scalar])
    case canadianPostcode
    case japanesePostcode
}

private let compiledPostalFormats: [String: CompiledPostalFormat] = {
    var out: [String: CompiledPostalFormat] = [:]
    for (country, data) in postalFormatTable {
        var replace: [(key: String?, exact: String, keyed: MiniRegex?, whole: MiniRegex?, replacement: [Unicode.Scalar])] = []
        for rule in data.replace {
            // A keyed rule "state=..." is a plain pattern (the whole text) for the other components.
            let whole = rule.key.map { $0 + "=" + rule.pattern } ?? rule.pattern
            replace.append((
                key: rule.key, exact: rule.pattern,
                keyed: rule.key == nil ? nil : MiniRegex(rule.pattern), whole: MiniRegex(whole),
                replacement: Array(rule.replacement.unicodeScalars)
            ))
        }
        let postformat: [CompiledPostformatRule] = data.postformat.compactMap { rule in
            switch rule {
            case .pattern(let p, let r): return MiniRegex(p).map { .pattern($0, Array(r.unicodeScalars)) }
            case .canadianPostcode: return .canadianPostcode
            case .japanesePostcode: return .japanesePostcode
            }
        }
        out[country] = CompiledPostalFormat(
            template: parseTemplate(data.template), fallback: parseTemplate(data.fallback),
            replace: replace, postformat: postformat)
    }
    return out
}()

/// Whether every replace and post-format pattern of the tables compiled (checked by the tests;
/// a pattern that does not compile is skipped).
func postalPatternsCompile() -> Bool {
    for (_, data) in postalFormatTable {
        for rule in data.replace {
            if MiniRegex(rule.pattern) == nil { return false }
            if let key = rule.key, MiniRegex(key + "=" + rule.pattern) == nil { return false }
        }
        for case .pattern(let p, _) in data.postformat where MiniRegex(p) == nil { return false }
    }
    return true
}

// MARK: - Postal form: the steps

private func postalText(_ c: AddressComponents) -> String {
    let cc = resolvedCountryCode(c)
    let streetUnit = cc == "US" || cc == "CA"

    // Our keys onto the template's components. The neighbourhood is both OpenCage's
    // neighbourhood and its suburb (suburb is an alias of neighbourhood there, and the templates
    // name either). The unit goes on the road line in the US and Canada ("123 Main St Apt 4"),
    // and elsewhere on the line above the street (the template's house line), as "Flat 2" in
    // the UK or "Appartement 12" in France are written.
    var ctx: [String: String] = [:]
    ctx["house_number"] = c[.houseNumber]
    ctx["road"] = c[.road]
    if let unit = c.unitText {
        if streetUnit, let road = ctx["road"] {
            ctx["road"] = road + " " + unit
        } else {
            ctx["house"] = unit
        }
    }
    ctx["neighbourhood"] = c[.neighbourhood]
    ctx["suburb"] = c[.neighbourhood]
    ctx["city"] = c[.city]
    ctx["county"] = c[.county]
    ctx["state"] = c[.state]
    ctx["state_code"] = c[.stateCode]
    ctx["postcode"] = c[.postcode]
    // The country line: the country as given, else the table's name of the country code.
    ctx["country"] = c[.country] ?? cc.flatMap { Country.name(forCode: $0) }
    ctx["country_code"] = cc

    sanityClean(&ctx)
    // OpenCage reads state_code as an alias of state.
    if ctx["state"] == nil, let code = ctx["state_code"] { ctx["state"] = code }

    let format = cc.flatMap { compiledPostalFormats[$0] } ?? compiledPostalFormats["default"]!
    let minimal = ctx["road"] != nil || ctx["postcode"] != nil
    let template = minimal ? format.template : format.fallback

    fixCountry(&ctx)
    applyReplacements(&ctx, format.replace)
    addStateCode(&ctx)

    var text = renderTemplate(template, ctx)
    text = cleanText(text)
    text = postformat(text, format.postformat)
    text = cleanText(text)
    // cleanText ends the text with a newline; the result has none, and no empty line.
    return text.split(separator: "\n", omittingEmptySubsequences: true).joined(separator: "\n")
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

private func applyReplacements(
    _ ctx: inout [String: String],
    _ rules: [(key: String?, exact: String, keyed: MiniRegex?, whole: MiniRegex?, replacement: [Unicode.Scalar])]
) {
    guard !rules.isEmpty else { return }
    for key in ctx.keys.sorted() {
        guard var value = ctx[key] else { continue }
        for rule in rules {
            if let ruleKey = rule.key, ruleKey == key {
                if value == rule.exact {
                    value = String(String.UnicodeScalarView(rule.replacement))
                } else if let re = rule.keyed {
                    value = re.replacingFirstMatch(in: value, with: rule.replacement)
                }
            } else if let re = rule.whole {
                value = re.replacingFirstMatch(in: value, with: rule.replacement)
            }
        }
        ctx[key] = value
    }
}

/// Adds the state code from the state name, or expands a state given as a code to its name, by
/// the country's subdivision table (the reference formatter's `_add_code`). A state code that
/// differs from the state is kept as it is. "Washington, D.C." becomes the District of Columbia.
private func addStateCode(_ ctx: inout [String: String]) {
    guard let cc = ctx["country_code"], let state = ctx["state"], !state.isEmpty else { return }
    if let code = ctx["state_code"], code != state { return }
    if let index = subdivisionIndexes[cc] {
        let key = state.lowercased()
        if let entry = index.names[key] {
            ctx["state_code"] = entry.code
        } else if let entry = index.codes[key] {
            ctx["state"] = entry.name
            ctx["state_code"] = entry.code
        }
    }
    if cc == "US", ctx["state_code"] == nil, isWashingtonDC(state) {
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

private func renderTemplate(_ nodes: [TemplateNode], _ ctx: [String: String]) -> String {
    var out: [Unicode.Scalar] = []
    render(nodes, ctx, into: &out)
    return String(String.UnicodeScalarView(out))
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
private func cleanText(_ text: String) -> String {
    var s = Array(text.unicodeScalars)
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
    var lines = perlSplit(s, on: "\n")
    var seenLines = Set<[Unicode.Scalar]>()
    var kept: [[Unicode.Scalar]] = []
    for raw in lines {
        let line = trimmed(raw, isHorizontalSpace)
        guard seenLines.insert(line).inserted else { continue }
        var seenWords = Set<[Unicode.Scalar]>()
        var words: [[Unicode.Scalar]] = []
        for rawWord in perlSplit(line, on: ",") {
            let w = trimmed(rawWord, isHorizontalSpace)
            if !isNewYork(w) {
                guard seenWords.insert(w).inserted else { continue }
            }
            words.append(w)
        }
        kept.append(Array(words.joined(separator: [",", " "])))
    }
    lines = kept
    var out = Array(lines.joined(separator: ["\n"]))
    out = trimmed(out, isSpace)
    out.append("\n")
    return String(String.UnicodeScalarView(out))
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
private func postformat(_ text: String, _ rules: [CompiledPostformatRule]) -> String {
    let s = Array(text.unicodeScalars)
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
    var seen = Set<[Unicode.Scalar]>()
    var kept: [[Unicode.Scalar]] = []
    for raw in pieces {
        let piece = Array(raw[runEnd(raw, 0, isSpace)...])
        let first = seen.insert(piece).inserted
        if !first && !isNewYork(piece) { continue }
        kept.append(piece)
    }
    var out = Array(kept.joined(separator: [",", " "]))

    for rule in rules {
        switch rule {
        case .pattern(let re, let replacement):
            if let m = re.firstMatch(in: out) {
                out.replaceSubrange(m, with: replacement)
            }
        case .canadianPostcode:
            // " XX A1A1A1\n" -> " XX A1A 1A1\n"
            for j in out.indices where j + 10 < out.count {
                if out[j] == " ", isASCIILetter(out[j + 1]), isASCIILetter(out[j + 2]), out[j + 3] == " ",
                    isASCIILetter(out[j + 4]), isDigit(out[j + 5]), isASCIILetter(out[j + 6]),
                    isDigit(out[j + 7]), isASCIILetter(out[j + 8]), isDigit(out[j + 9]), out[j + 10] == "\n"
                {
                    out.insert(" ", at: j + 7)
                    break
                }
            }
        case .japanesePostcode:
            // " 1000001\n" -> " 100-0001\n"
            for j in out.indices where j + 8 < out.count {
                if out[j] == " ", out[(j + 1)...(j + 7)].allSatisfy(isDigit), out[j + 8] == "\n" {
                    out.insert("-", at: j + 4)
                    break
                }
            }
        }
    }
    return String(String.UnicodeScalarView(out))
}

// MARK: - A small regular-expression engine

/// The regular expressions of the `replace` and `postformat_replace` rules: literals, the
/// escapes `\d` `\w` `\s` (Perl's Unicode classes) and escaped punctuation, `.`, groups `( )`,
/// the quantifiers `?` `*` `+` (greedy, with backtracking), and the anchors `^` (start of text)
/// and `$` (end of text, or before a newline that ends it, as in Perl). Character classes,
/// counted repetition, alternation and back-references are not supported: a pattern that uses
/// them does not compile (tools/gen_address_data.py refuses them too).
struct MiniRegex: Sendable {
    fileprivate indirect enum Node: Sendable {
        case scalar(Unicode.Scalar)
        case digit, word, space, any
        case start, end
        case group([Node])
        case repeated(Node, min: Int, max: Int)
    }

    fileprivate let nodes: [Node]

    init?(_ pattern: String) {
        let s = Array(pattern.unicodeScalars)
        var i = 0
        func parseSequence(inGroup: Bool) -> [Node]? {
            var nodes: [Node] = []
            while i < s.count {
                let c = s[i]
                var atom: Node
                switch c {
                case "\\":
                    guard i + 1 < s.count else { return nil }
                    let e = s[i + 1]
                    i += 2
                    switch e {
                    case "d": atom = .digit
                    case "w": atom = .word
                    case "s": atom = .space
                    case "n": atom = .scalar("\n")
                    case "t": atom = .scalar("\t")
                    default:
                        guard !isWord(e) else { return nil }
                        atom = .scalar(e)
                    }
                case "(":
                    i += 1
                    guard let inner = parseSequence(inGroup: true), i < s.count, s[i] == ")" else { return nil }
                    i += 1
                    atom = .group(inner)
                case ")":
                    return inGroup ? nodes : nil
                case "^":
                    i += 1
                    nodes.append(.start)
                    continue
                case "$":
                    i += 1
                    nodes.append(.end)
                    continue
                case ".":
                    i += 1
                    atom = .any
                case "[", "]", "{", "}", "|", "?", "*", "+":
                    return nil
                default:
                    i += 1
                    atom = .scalar(c)
                }
                if i < s.count, s[i] == "?" || s[i] == "*" || s[i] == "+" {
                    let q = s[i]
                    i += 1
                    atom = .repeated(atom, min: q == "+" ? 1 : 0, max: q == "?" ? 1 : Int.max)
                }
                nodes.append(atom)
            }
            return inGroup ? nil : nodes
        }
        guard let nodes = parseSequence(inGroup: false) else { return nil }
        self.nodes = nodes
    }

    /// The leftmost match in `s`.
    func firstMatch(in s: [Unicode.Scalar]) -> Range<Int>? {
        var lastStart = s.count
        if case .start = nodes.first { lastStart = 0 }
        var start = 0
        while start <= lastStart {
            if case .scalar(let c) = nodes.first, start < s.count, s[start] != c {
                start += 1
                continue
            }
            if let end = Self.match(nodes[...], s, start, { $0 }) { return start..<end }
            start += 1
        }
        return nil
    }

    /// `s` with its first match replaced by `replacement`.
    func replacingFirstMatch(in s: String, with replacement: [Unicode.Scalar]) -> String {
        var scalars = Array(s.unicodeScalars)
        guard let m = firstMatch(in: scalars) else { return s }
        scalars.replaceSubrange(m, with: replacement)
        return String(String.UnicodeScalarView(scalars))
    }

    private static func matches(_ node: Node, _ c: Unicode.Scalar) -> Bool {
        switch node {
        case .scalar(let x): return x == c
        case .digit: return isDigit(c)
        case .word: return isWord(c)
        case .space: return isSpace(c)
        case .any: return c != "\n"
        default: return false
        }
    }

    /// Matches `nodes` at `i`, then the continuation `k`; the end of the whole match or nil.
    private static func match(
        _ nodes: ArraySlice<Node>, _ s: [Unicode.Scalar], _ i: Int, _ k: (Int) -> Int?
    ) -> Int? {
        guard let node = nodes.first else { return k(i) }
        let rest = nodes.dropFirst()
        switch node {
        case .start:
            return i == 0 ? match(rest, s, i, k) : nil
        case .end:
            return i == s.count || (i == s.count - 1 && s[i] == "\n") ? match(rest, s, i, k) : nil
        case .group(let inner):
            return match(inner[...], s, i) { j in match(rest, s, j, k) }
        case .repeated(let atom, let min, let max):
            func attempt(_ count: Int, _ i: Int) -> Int? {
                if count < max,
                    let r = match([atom][...], s, i, { j in j > i ? attempt(count + 1, j) : nil })
                {
                    return r
                }
                return count >= min ? match(rest, s, i, k) : nil
            }
            return attempt(0, i)
        default:
            guard i < s.count, matches(node, s[i]) else { return nil }
            return match(rest, s, i + 1, k)
        }
    }
}
