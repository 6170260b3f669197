#!/usr/bin/env python3
"""Writes Sources/GeoLoc/Address/Generated/AddressData.swift from the OpenCage address-formatting configuration.

    python3 tools/gen_address_data.py [CONF_DIR] [-o OUTPUT]

CONF_DIR is the data's `conf` folder; by default `../shared/data/address-formatting/conf`
relative to the repository root. The data is OpenCageData/address-formatting (MIT licence; the
licence text and attribution are in data/address-formatting/).

What is taken:
  - state_codes.yaml: US states, DC, territories and freely associated states (the US table of
    libgeoloc's state look-ups), and the subdivision codes of the countries that have their own
    postal form (used to add or expand state codes as the reference formatter does);
  - country_codes.yaml: ISO 3166-1 alpha-2 codes with the English short name from each line's
    comment (a parenthesised part is dropped from the name and kept as another name that
    identifies the country, "Türkiye (Turkey)" -> "Türkiye" and "Turkey");
  - countries/worldwide.yaml: the address and fallback templates, `replace` rules and
    `postformat_replace` rules of US, CA, GB, DE, FR, JP and `default`.

The `replace` and `postformat_replace` patterns must fit the small regular-expression subset the
Swift engine implements (literals, escapes \\d \\w \\s and escaped punctuation, `.`, groups,
`?` `*` `+`, anchors `^` `$`; literal replacements). The two postcode rules that need more (CA:
"A1A1A1" -> "A1A 1A1", JP: "1000001" -> "100-0001") are recognised here and emitted as markers
for hand-written code. Anything else makes the generator fail, so a data update cannot slip
through unnoticed.
"""

import argparse
import os
import re
import sys

import yaml

SOURCE_REPO = "OpenCageData/address-formatting"
SOURCE_COMMIT = "28c47f9daeaeb55213c439ec7c31c247bfe76321"

# The countries with their own postal form (geoloc.h), plus the generic one.
POSTAL_COUNTRIES = ["US", "CA", "GB", "DE", "FR", "JP"]

# Countries whose subdivision codes the engine uses (state code <-> name in the postal form).
SUBDIVISION_COUNTRIES = ["US", "CA", "GB", "DE", "FR", "JP"]

# The postformat rules implemented by hand in Address.swift (exact pattern text -> marker).
HAND_WRITTEN_POSTFORMAT = {
    (" ([A-Za-z]{2}) ([A-Za-z]\\d[A-Za-z])(\\d[A-Za-z]\\d)\n", " $1 $2 $3\n"): ".canadianPostcode",
    (" (\\d{3})(\\d{4})\n", " $1-$2\n"): ".japanesePostcode",
}

# Other names by which callers commonly give a country, written by hand (not from the data).
# Matched without regard to case, like the table's own names.
EXTRA_COUNTRY_NAMES = [
    ("USA", "US"),
    ("U.S.A.", "US"),
    ("U.S.", "US"),
    ("United States of America", "US"),
    ("UK", "GB"),
    ("U.K.", "GB"),
    ("Great Britain", "GB"),
    ("Britain", "GB"),
    ("England", "GB"),
    ("Scotland", "GB"),
    ("Wales", "GB"),
    ("Northern Ireland", "GB"),
    ("Deutschland", "DE"),
    ("Federal Republic of Germany", "DE"),
    ("Bundesrepublik Deutschland", "DE"),
    ("République française", "FR"),
    ("French Republic", "FR"),
    ("Nippon", "JP"),
    ("Nihon", "JP"),
    ("日本", "JP"),
    ("Czechia", "CZ"),
    ("Russian Federation", "RU"),
    ("Republic of Korea", "KR"),
    ("Korea", "KR"),
    ("Holland", "NL"),
]

ALLOWED_ESCAPES = set("dws().\\-/,:'$^+*?")


def swift_string(s):
    """A Swift string literal for s (UTF-8 kept as is, control characters escaped)."""
    out = ['"']
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\u{%X}" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def check_pattern(pattern, where):
    """Fails unless pattern fits the Swift engine's regular-expression subset."""
    i = 0
    depth = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            if i + 1 >= len(pattern) or pattern[i + 1] not in ALLOWED_ESCAPES:
                sys.exit("%s: unsupported escape in %r" % (where, pattern))
            i += 2
            continue
        if c in "[]{}|":
            sys.exit("%s: unsupported construct %r in %r" % (where, c, pattern))
        if c == "(":
            if pattern.startswith("(?", i):
                sys.exit("%s: unsupported group in %r" % (where, pattern))
            depth += 1
        elif c == ")":
            depth -= 1
            if depth < 0:
                sys.exit("%s: unbalanced ) in %r" % (where, pattern))
        i += 1
    if depth != 0:
        sys.exit("%s: unbalanced ( in %r" % (where, pattern))


def check_replacement(replacement, where):
    if "$" in replacement or "\\" in replacement:
        sys.exit("%s: replacement %r refers to groups; only literal replacements are supported" % (where, replacement))


def country_names(path):
    """[(code, name, other names)] from the comments of country_codes.yaml, in file order."""
    rows = []
    seen = set()
    line_re = re.compile(r'^"?([A-Z]{2})"?:\s*#\s*(.+?)\s*$')
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = line_re.match(line)
            if not m:
                continue
            code, comment = m.group(1), m.group(2)
            if code in seen:
                sys.exit("country_codes.yaml: %s twice" % code)
            seen.add(code)
            others = []
            pm = re.match(r"^(.*?)\s*\((.+)\)$", comment)
            if pm:
                name = pm.group(1)
                if pm.group(2).lower() != "country":  # "Georgia (country)"
                    others.append(pm.group(2))
            else:
                name = comment
            rows.append((code, name, others))
    # Cross-check the codes against the YAML itself.
    with open(path, encoding="utf-8") as f:
        codes = set(yaml.safe_load(f).keys())
    if codes != seen:
        sys.exit("country_codes.yaml: codes without a name comment: %s" % sorted(codes - seen))
    return rows


def subdivisions(table, cc):
    """[(code, [default name, other names...])] for one country of state_codes.yaml."""
    out = []
    for code, value in (table.get(cc) or {}).items():
        if isinstance(value, dict):
            names = [value["default"]] + [v for k, v in value.items() if k != "default"]
        else:
            names = [value]
        out.append((str(code), [str(n) for n in names]))
    return out


def postal_format(cc, config, default):
    """Swift source of one PostalFormatData."""
    template = config.get("address_template")
    if template is None:
        sys.exit("worldwide.yaml: %s has no address_template" % cc)
    fallback = config.get("fallback_template", default.get("fallback_template"))
    replace = []
    for pattern, replacement in config.get("replace", []) or []:
        where = "worldwide.yaml %s replace" % cc
        m = re.match(r"^([a-z_]+)=(.*)$", pattern, re.S)
        key, body = (m.group(1), m.group(2)) if m else (None, pattern)
        check_pattern(body, where)
        check_replacement(replacement, where)
        replace.append("ReplaceRuleData(key: %s, pattern: %s, replacement: %s)" % (
            "nil" if key is None else swift_string(key), swift_string(body), swift_string(replacement)))
    postformat = []
    for pattern, replacement in config.get("postformat_replace", []) or []:
        where = "worldwide.yaml %s postformat_replace" % cc
        marker = HAND_WRITTEN_POSTFORMAT.get((pattern, replacement))
        if marker:
            postformat.append(marker)
            continue
        check_pattern(pattern, where)
        check_replacement(replacement, where)
        postformat.append(".pattern(%s, %s)" % (swift_string(pattern), swift_string(replacement)))
    lines = ["PostalFormatData("]
    lines.append("        template: %s," % swift_string(template))
    lines.append("        fallback: %s," % swift_string(fallback))
    if replace:
        lines.append("        replace: [")
        lines.extend("            %s," % r for r in replace)
        lines.append("        ],")
    else:
        lines.append("        replace: [],")
    if postformat:
        lines.append("        postformat: [")
        lines.extend("            %s," % r for r in postformat)
        lines.append("        ]")
    else:
        lines.append("        postformat: []")
    lines.append("    )")
    return "\n".join(lines)


def generate(conf):
    with open(os.path.join(conf, "state_codes.yaml"), encoding="utf-8") as f:
        state_codes = yaml.safe_load(f)
    with open(os.path.join(conf, "countries", "worldwide.yaml"), encoding="utf-8") as f:
        worldwide = yaml.safe_load(f)
    countries = country_names(os.path.join(conf, "country_codes.yaml"))
    country_codes = {c for c, _, _ in countries}

    out = []
    w = out.append
    w("// AddressData.swift -- GENERATED by tools/gen_address_data.py; do not edit by hand, rerun the")
    w("// generator instead.")
    w("//")
    w("// Data: %s at commit %s:" % (SOURCE_REPO, SOURCE_COMMIT))
    w("// conf/state_codes.yaml, conf/country_codes.yaml and conf/countries/worldwide.yaml.")
    w("// Copyright (c) 2020 OpenCage GmbH, under the MIT licence: see data/address-formatting/LICENSE.txt")
    w("// and data/address-formatting/README.md. The engine that uses these tables is Address.swift.")
    w("")

    # US states.
    us = subdivisions(state_codes, "US")
    w("/// US states, DC, territories and freely associated states with their USPS codes, in the")
    w("/// order of state_codes.yaml (%d entries)." % len(us))
    w("let usStateTable: [(code: StaticString, name: StaticString)] = [")
    for code, names in us:
        if len(names) != 1:
            sys.exit("state_codes.yaml US %s: expected one name" % code)
        w("    (%s, %s)," % (swift_string(code), swift_string(names[0])))
    w("]")
    w("")

    # Subdivisions of the postal countries.
    w("/// Subdivision codes and names of the countries with their own postal form (state_codes.yaml):")
    w("/// the default name first, then names in other languages.")
    w("let subdivisionTable: [String: [(code: String, names: [String])]] = [")
    for cc in SUBDIVISION_COUNTRIES:
        rows = subdivisions(state_codes, cc)
        if not rows:
            continue
        w("    %s: [" % swift_string(cc))
        for code, names in rows:
            w("        (%s, [%s])," % (swift_string(code), ", ".join(swift_string(n) for n in names)))
        w("    ],")
    w("]")
    w("")

    # Countries.
    w("/// ISO 3166-1 alpha-2 codes and English short names (country_codes.yaml), in file order")
    w("/// (%d entries; XC and XK are user-assigned codes the data includes)." % len(countries))
    w("let countryTable: [(code: StaticString, name: StaticString)] = [")
    for code, name, _ in countries:
        w("    (%s, %s)," % (swift_string(code), swift_string(name)))
    w("]")
    w("")
    w("/// Other names that identify a country: the parenthesised names of country_codes.yaml, then a")
    w("/// short hand-written list of common alternatives (tools/gen_address_data.py).")
    w("let countryAliasTable: [(name: String, code: String)] = [")
    for code, _, others in countries:
        for other in others:
            w("    (%s, %s)," % (swift_string(other), swift_string(code)))
    for name, code in EXTRA_COUNTRY_NAMES:
        if code not in country_codes:
            sys.exit("alias %r: unknown code %s" % (name, code))
        w("    (%s, %s)," % (swift_string(name), swift_string(code)))
    w("]")
    w("")

    # Postal formats.
    default = worldwide["default"]
    w("/// Postal templates and rules (countries/worldwide.yaml) of the countries with their own form")
    w("/// and of `default`. A missing fallback template is the default one, as the reference")
    w("/// formatter does.")
    w("let postalFormatTable: [String: PostalFormatData] = [")
    for cc in ["default"] + POSTAL_COUNTRIES:
        config = worldwide.get(cc)
        if config is None:
            sys.exit("worldwide.yaml: no %s" % cc)
        if "use_country" in config:
            sys.exit("worldwide.yaml: %s uses another country's form; not supported" % cc)
        w("    %s: %s," % (swift_string(cc), postal_format(cc, config, default)))
    w("]")
    return "\n".join(out) + "\n"


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("conf", nargs="?",
                        default=os.path.join(root, "..", "shared", "data", "address-formatting", "conf"),
                        help="the address-formatting conf folder")
    parser.add_argument("-o", "--output", default=os.path.join(root, "Sources", "GeoLoc", "Address", "Generated", "AddressData.swift"))
    args = parser.parse_args()
    text = generate(os.path.normpath(args.conf))
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    print("wrote %s" % os.path.relpath(args.output))


if __name__ == "__main__":
    main()
