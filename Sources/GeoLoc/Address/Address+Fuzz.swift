// The address rules' engines as the fuzz target reaches them (tests/fuzz/targets/
// address_rules.swift): not part of the API.

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
