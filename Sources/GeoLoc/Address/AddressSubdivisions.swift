// US state codes and names, and the subdivision (state, province) and county codes of every
// country the address data knows, looked up by code or by name.

// MARK: - US states

/// The US states, DC, territories (AS, GU, MP, PR, VI, UM) and freely associated states (FM,
/// MH, PW) with their two-letter USPS codes, as OpenCage's state_codes.yaml has them.
public enum USState {
    /// Every entry as (code, name), in the data's order.
    public static var all: [(code: String, name: String)] {
        textEntries(usStateTable)
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

/// The entries of a table of static (code, name) text as strings, in the table's order (the
/// `all` of ``USState`` and ``Country``).
func textEntries(_ table: [(code: StaticString, name: StaticString)]) -> [(code: String, name: String)] {
    table.map { (String(describing: $0.code), String(describing: $0.name)) }
}

/// Lower case, surrounding whitespace trimmed, inner runs of whitespace as one space.
func collapsedLowercase(_ s: some StringProtocol) -> String {
    trimmedValue(s).lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
}

// MARK: - Subdivisions (states, provinces)

struct SubdivisionIndex: Sendable {
    /// Lower-cased name (any language) -> (code, default name).
    var names: [String: (code: String, name: String)] = [:]
    /// Lower-cased code -> (code, default name).
    var codes: [String: (code: String, name: String)] = [:]

    /// By name, else by code.
    func entry(_ key: String) -> (code: String, name: String)? { names[key] ?? codes[key] }
}

let subdivisionIndexes: [String: SubdivisionIndex] = makeIndexes(subdivisionTable)
let countyIndexes: [String: SubdivisionIndex] = makeIndexes(countyTable)

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
func subdivision(_ text: String, in country: String?) -> (code: String, name: String)? {
    let key = collapsedLowercase(text)
    if let country { return subdivisionIndexes[country]?.entry(key) }
    return subdivisionIndexes["US"]?.entry(key) ?? subdivisionIndexes["CA"]?.entry(key)
}

/// The subdivision a code stands for (codes only).
func subdivision(code text: String, in country: String?) -> (code: String, name: String)? {
    let key = collapsedLowercase(text)
    if let country { return subdivisionIndexes[country]?.codes[key] }
    return subdivisionIndexes["US"]?.codes[key] ?? subdivisionIndexes["CA"]?.codes[key]
}
