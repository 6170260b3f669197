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
    """Fails unless Python's re compiles the pattern (the Swift engine reads the same Perl subset:
    literals, escapes, classes, groups, alternation, greedy and lazy quantifiers, anchors)."""
    try:
        re.compile(pattern)
    except re.error as e:
        sys.exit("%s: %r: %s" % (where, pattern, e))
    if "(?" in pattern.replace("(?:", ""):
        sys.exit("%s: unsupported group in %r" % (where, pattern))


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
    fallback = config.get("fallback_template")
    replace = []
    for pattern, replacement in config.get("replace", []) or []:
        where = "worldwide.yaml %s replace" % cc
        m = re.match(r"^([a-z_]+)=(.*)$", pattern, re.S)
        key, body = (m.group(1), m.group(2)) if m else (None, pattern)
        check_pattern(pattern, where)
        replace.append("ReplaceRuleData(key: %s, pattern: %s, replacement: %s)" % (
            "nil" if key is None else swift_string(key), swift_string(body), swift_string(str(replacement))))
    postformat = []
    for pattern, replacement in config.get("postformat_replace", []) or []:
        check_pattern(pattern, "worldwide.yaml %s postformat_replace" % cc)
        postformat.append("(%s, %s)" % (swift_string(pattern), swift_string(str(replacement))))
    opt = lambda v: "nil" if v is None else swift_string(str(v))
    lines = ["PostalFormatData("]
    lines.append("        template: %s," % opt(template))
    lines.append("        fallback: %s," % opt(fallback))
    for name, rows in (("replace", replace), ("postformat", postformat)):
        if rows:
            lines.append("        %s: [" % name)
            lines.extend("            %s," % r for r in rows)
            lines.append("        ],")
        else:
            lines.append("        %s: []," % name)
    lines.append("        useCountry: %s, changeCountry: %s, addComponent: %s" % (
        opt(config.get("use_country")), opt(config.get("change_country")), opt(config.get("add_component"))))
    lines.append("    )")
    return "\n".join(lines)


def generate(conf):
    with open(os.path.join(conf, "state_codes.yaml"), encoding="utf-8") as f:
        state_codes = yaml.safe_load(f)
    with open(os.path.join(conf, "countries", "worldwide.yaml"), encoding="utf-8") as f:
        worldwide = yaml.safe_load(f)
    with open(os.path.join(conf, "county_codes.yaml"), encoding="utf-8") as f:
        county_codes = yaml.safe_load(f)
    with open(os.path.join(conf, "country2lang.yaml"), encoding="utf-8") as f:
        country2lang = yaml.safe_load(f)
    with open(os.path.join(conf, "components.yaml"), encoding="utf-8") as f:
        components = list(yaml.safe_load_all(f))
    abbreviations = {}
    folder = os.path.join(conf, "abbreviations")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".yaml"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                abbreviations[name[:-5].lower()] = yaml.safe_load(f) or {}
    countries = country_names(os.path.join(conf, "country_codes.yaml"))
    country_codes = {c for c, _, _ in countries}

    out = []
    w = out.append
    w("// AddressData.swift -- GENERATED by tools/gen_address_data.py; do not edit by hand, rerun the")
    w("// generator instead.")
    w("//")
    w("// Data: %s at commit %s:" % (SOURCE_REPO, SOURCE_COMMIT))
    w("// conf/state_codes.yaml, county_codes.yaml, country_codes.yaml, country2lang.yaml,")
    w("// components.yaml, abbreviations/*.yaml and countries/worldwide.yaml.")
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
    w("/// Subdivision codes and names of every country of state_codes.yaml:")
    w("/// the default name first, then names in other languages.")
    w("let subdivisionTable: [String: [(code: String, names: [String])]] = [")
    for cc in sorted(state_codes):
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

    # Counties.
    w("/// County codes and names (county_codes.yaml): the default name first, then others.")
    w("let countyTable: [String: [(code: String, names: [String])]] = [")
    for cc in sorted(county_codes):
        w("    %s: [" % swift_string(cc))
        for code, names in subdivisions(county_codes, cc):
            w("        (%s, [%s])," % (swift_string(code), ", ".join(swift_string(n) for n in names)))
        w("    ],")
    w("]")
    w("")

    # Components.
    w("/// The components of components.yaml in file order: (name, aliases). An alias fills its")
    w("/// component only when that is empty, in this order.")
    w("let componentTable: [(name: String, aliases: [String])] = [")
    for c in components:
        w("    (%s, [%s])," % (swift_string(c["name"]), ", ".join(swift_string(a) for a in c.get("aliases") or [])))
    w("]")
    w("")

    # Languages.
    w("/// The languages of each country (country2lang.yaml), ISO 639-1, most used first.")
    w("let countryLanguageTable: [String: [String]] = [")
    for cc in sorted(country2lang):
        langs = [l.strip().lower() for l in str(country2lang[cc]).split(",") if l.strip()]
        w("    %s: [%s]," % (swift_string(cc), ", ".join(swift_string(l) for l in langs)))
    w("]")
    w("")

    # Abbreviations.
    w("/// Abbreviations by language (abbreviations/*.yaml): language -> [(component, long, short)].")
    w("let abbreviationTable: [String: [(component: String, long: String, short: String)]] = [")
    for lang in sorted(abbreviations):
        w("    %s: [" % swift_string(lang))
        for comp, table in abbreviations[lang].items():
            for long, short in (table or {}).items():
                w("        (%s, %s, %s)," % (swift_string(comp), swift_string(str(long)), swift_string(str(short))))
        w("    ],")
    w("]")
    w("")

    # Postal formats.
    default = worldwide["default"]
    w("/// Postal templates and rules (countries/worldwide.yaml) of every country and territory and of")
    w("/// `default`, with the keys `use_country`, `change_country` and `add_component` as given.")
    w("let postalFormatTable: [String: PostalFormatData] = [")
    for cc in sorted(k for k, v in worldwide.items() if isinstance(v, dict) and (k == "default" or re.match(r"^[A-Z]{2}$", k))):
        config = worldwide[cc]
        if config.get("address_template") is None and config.get("use_country") is None:
            sys.exit("worldwide.yaml: %s has neither a template nor use_country" % cc)
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
