// The postal form of an address (the OpenCage address-formatting data compiled into
// AddressData.swift, and the steps of its reference formatter): the compiled data, then the
// steps: choose the template, clean the components, add or expand codes, abbreviate, render,
// post-format. Templates and the text clean-up are in AddressPostalText.swift.

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
indirect enum TemplateNode: Sendable {
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

func postalText(_ c: AddressComponents, abbreviate: Bool = false) -> String {
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
func abbreviateComponents(_ ctx: inout [String: String], country cc: String) {
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
func isWashingtonDC(_ s: String) -> Bool {
    var rest = Substring(s.lowercased())
    guard rest.hasPrefix("washington") else { return false }
    rest = rest.dropFirst("washington".count)
    if rest.hasPrefix(",") { rest = rest.dropFirst() }
    guard rest.hasPrefix(" d") else { return false }
    rest = rest.dropFirst(2)
    if rest.hasPrefix(".") { rest = rest.dropFirst() }
    return rest.hasPrefix("c")
}
