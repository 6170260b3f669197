#!/usr/bin/env python3
"""Writes Sources/GeoLoc/Geocoding/SearchFoldTables.swift: the Unicode folding of place search.

    python3 tools/gen_search_fold.py [--ucd DIR] [-o OUTPUT] [--check]

Source: the Unicode Character Database as Debian's `unicode-data` package installs it
(/usr/share/unicode; version 15.0.0-1 in Debian 12, Unicode 15.0.0). The files read are
UnicodeData.txt (general categories, decompositions, character names), CaseFolding.txt (full
case folding, statuses C and F) and Scripts.txt. The generator fails when the files are not
Unicode 15.0.0, so a data update is a deliberate change of the pinned version below. Python's
own `unicodedata` module is not used: the tables come from the files, whatever Python runs this.

What folding does to one Unicode scalar (the search's `fold`, SearchFold.swift, applies it to
every scalar of a name or a query, then collapses runs of separators into one space and trims
the ends):

1. Scalars of the Latin, Greek and Cyrillic scripts, the Common and Inherited scripts' letters,
   and the compatibility forms (fullwidth and halfwidth forms, ligatures: anything with a
   <compat>, <wide>, <narrow>, <font>, <super>, <sub>, <square>, <fraction> or <circle>
   decomposition) are case folded (CaseFolding.txt, C and F: "ß" -> "ss", "Σ"/"ς" -> "σ"),
   decomposed (UnicodeData.txt's canonical and compatibility decompositions, recursively), and
   their combining marks (general category Mn) removed: "É" -> "e", "ё" -> "е", "ά" -> "α",
   "ﬁ" -> "fi", "Ｚ" -> "z". A Latin letter without a decomposition that Unicode names
   "LATIN ... LETTER X WITH ..." (a stroke, bar, hook, ... : "Ł", "ø", "đ", "ħ") folds as the
   letter it names, "x". Six Latin letters that are written as two in plain text get their
   usual spelling: AE -> "ae", OE -> "oe", ETH -> "d", THORN -> "th", DOTLESS I -> "i",
   DOTLESS J -> "j"; KRA -> "q" as Greenlandic now writes it.
2. Other scripts' letters (CJK, Arabic, Devanagari, Hangul, kana, ...) are matched as written:
   case folded where the script has case (Armenian, Georgian, Cherokee, ...), never decomposed,
   their marks kept ("北京", "が", "मुंबई" stay as they are).
3. Apostrophes and the modifier letters used as apostrophes (' ’ ‘ ` ´ ʼ ʻ ʹ ʽ ′) are removed:
   "Val-d'Or" and "Val-dOr" fold alike, as do "Kʻiew" and "Kiew".
4. Every other scalar that is not a letter, digit or mark (punctuation, symbols, spaces,
   controls; general categories P*, S*, Z*, C*) is a separator: "Saint-Denis", "Saint Denis" and
   "Saint.Denis" fold alike, "St. Louis" is "st louis".

The Swift file holds one sorted table of ranges: (first scalar, last scalar, what it becomes),
"what" being a separator, removed, or a single scalar's replacement (UTF-8 bytes in a second
table). Scalars outside every range stay as they are.
"""

import argparse
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(REPO, "Sources", "GeoLoc", "Geocoding", "SearchFoldTables.swift")
UNICODE_VERSION = "15.0.0"
DEBIAN_PACKAGE = "unicode-data 15.0.0-1"

APOSTROPHES = [0x0027, 0x2019, 0x2018, 0x0060, 0x00B4, 0x02BC, 0x02BB, 0x02B9, 0x02BD, 0x2032]
# Latin letters with no decomposition and no "WITH" in their names, spelt as plain text does.
LATIN_SPELLING = {
    "LATIN SMALL LETTER AE": "ae", "LATIN CAPITAL LETTER AE": "ae",
    "LATIN SMALL LIGATURE OE": "oe", "LATIN CAPITAL LIGATURE OE": "oe",
    "LATIN SMALL LETTER ETH": "d", "LATIN CAPITAL LETTER ETH": "d",
    "LATIN SMALL LETTER THORN": "th", "LATIN CAPITAL LETTER THORN": "th",
    "LATIN SMALL LETTER DOTLESS I": "i", "LATIN SMALL LETTER DOTLESS J": "j",
    "LATIN SMALL LETTER KRA": "q",
}
FOLDED_SCRIPTS = {"Latin", "Greek", "Cyrillic"}
COMPAT_TAGS = {"<compat>", "<wide>", "<narrow>", "<font>", "<super>", "<sub>", "<square>", "<fraction>", "<circle>"}


def read_ucd(ucd):
    with open(os.path.join(ucd, "ReadMe.txt"), encoding="utf-8") as f:
        readme = f.read()
    with open(os.path.join(ucd, "Scripts.txt"), encoding="utf-8") as f:
        first = f.readline()
    if f"Scripts-{UNICODE_VERSION}" not in first:
        sys.exit(f"gen_search_fold: {ucd} is not Unicode {UNICODE_VERSION} ({first.strip()}); update the pin deliberately")
    del readme
    names, cats, decomp = {}, {}, {}
    with open(os.path.join(ucd, "UnicodeData.txt"), encoding="utf-8") as f:
        rows = [line.rstrip("\n").split(";") for line in f]
    k = 0
    while k < len(rows):
        r = rows[k]
        cp = int(r[0], 16)
        if r[1].endswith(", First>"):  # a range (CJK ideographs, Hangul syllables, ...)
            last = int(rows[k + 1][0], 16)
            for c in range(cp, last + 1):
                cats[c] = r[2]
            k += 2
            continue
        names[cp] = r[1]
        cats[cp] = r[2]
        if r[5]:
            parts = r[5].split()
            tag = parts[0] if parts[0].startswith("<") else None
            seq = [int(x, 16) for x in (parts[1:] if tag else parts)]
            decomp[cp] = (tag, seq)
        k += 1
    fold = {}
    with open(os.path.join(ucd, "CaseFolding.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.split("#")[0].strip()
            if not line:
                continue
            code, status, mapping = [x.strip() for x in line.split(";")[:3]]
            if status in ("C", "F"):
                fold[int(code, 16)] = [int(x, 16) for x in mapping.split()]
    scripts = {}
    with open(os.path.join(ucd, "Scripts.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.split("#")[0].strip()
            if not line:
                continue
            rng, script = [x.strip() for x in line.split(";")]
            lo, _, hi = rng.partition("..")
            for c in range(int(lo, 16), int(hi or lo, 16) + 1):
                scripts[c] = script
    return names, cats, decomp, fold, scripts


def build(ucd):
    names, cats, decomp, casefold, scripts = read_ucd(ucd)
    by_name = {v: k for k, v in names.items()}

    def decomposes(c):
        tag, _ = decomp.get(c, (None, None))
        if c not in decomp:
            return False
        script = scripts.get(c, "Unknown")
        if script in FOLDED_SCRIPTS:
            return tag is None or tag in COMPAT_TAGS
        if script in ("Common", "Inherited"):
            # Compatibility forms (fullwidth Latin, ligatures, circled letters) and letters.
            return tag in COMPAT_TAGS or (tag is None and cats.get(c, "Cn")[0] == "L")
        return False

    def expand(c, depth=0):
        """Case fold, decompose (Latin, Greek, Cyrillic, compatibility forms), drop marks."""
        if depth > 8:
            raise RuntimeError(f"U+{c:04X}: decomposition too deep")
        out = []
        for f in casefold.get(c, [c]):
            if decomposes(f):
                for d in decomp[f][1]:
                    out.extend(expand(d, depth + 1))
                continue
            cat = cats.get(f, "Cn")
            if cat == "Mn" and (scripts.get(f) in FOLDED_SCRIPTS or scripts.get(f) == "Inherited"):
                continue
            name = names.get(f, "")
            if name.startswith("LATIN ") and f not in decomp:
                if name in LATIN_SPELLING:
                    out.extend(ord(x) for x in LATIN_SPELLING[name])
                    continue
                if " WITH " in name:
                    base = name.split(" WITH ")[0]
                    small = base.replace("CAPITAL LETTER", "SMALL LETTER")
                    target = by_name.get(small)
                    if target is not None and target != f and " " not in small.split("LETTER ")[-1]:
                        out.extend(expand(target, depth + 1))
                        continue
            out.append(f)
        return out

    mapping = {}
    for c in range(0x110000):
        if 0xD800 <= c <= 0xDFFF:
            continue
        cat = cats.get(c, "Cn")
        if c in APOSTROPHES:
            mapping[c] = "remove"
            continue
        if cat[0] in "PSZC" and not (0x30 <= c <= 0x39):
            if cat == "Cn":
                continue  # unassigned: kept as written
            mapping[c] = "sep"
            continue
        # Letters, digits, marks: fold only what the rules above touch.
        script = scripts.get(c, "Unknown")
        touched = c in casefold or decomposes(c) or (cat == "Mn" and (script in FOLDED_SCRIPTS or script == "Inherited")) \
            or (names.get(c, "").startswith("LATIN ") and c not in decomp)
        if not touched:
            continue
        seq = expand(c)
        # A separator or apostrophe produced by a compatibility decomposition keeps its meaning.
        cleaned = []
        for s in seq:
            if s in APOSTROPHES:
                continue
            if cats.get(s, "Cn")[0] in "PSZC" and not (0x30 <= s <= 0x39):
                cleaned.append(0x20)
            else:
                cleaned.append(s)
        if cleaned == [c]:
            continue
        mapping[c] = "".join(chr(s) for s in cleaned)
    # Ranges: runs of consecutive scalars with the same "sep"/"remove" meaning; one entry each
    # for replacements.
    entries = []
    for c in sorted(mapping):
        v = mapping[c]
        if v in ("sep", "remove") and entries and entries[-1][1] == c - 1 and entries[-1][2] == v:
            entries[-1][1] = c
        else:
            entries.append([c, c, v])
    return entries, mapping


def render(entries):
    blob = bytearray()
    table = []
    for lo, hi, v in entries:
        if v == "sep":
            code = 0xFFFF_FFFF
        elif v == "remove":
            code = 0xFFFF_FFFE
        else:
            b = v.encode("utf-8")
            if len(b) > 255 or len(blob) >= 1 << 24:
                raise RuntimeError("replacement table too large")
            code = (len(blob) << 8) | len(b)
            blob += b
        table.append((lo, hi, code))
    lines = [
        "// Generated by tools/gen_search_fold.py from the Unicode Character Database " + UNICODE_VERSION,
        "// (Debian " + DEBIAN_PACKAGE + ": UnicodeData.txt, CaseFolding.txt, Scripts.txt). Do not edit.",
        "// The rules are in the generator's docstring and in include/geoloc.h (section 7, search).",
        "",
        "/// The Unicode version of the folding tables.",
        f'let searchFoldUnicodeVersion = "{UNICODE_VERSION}"',
        "",
        "/// Sorted, disjoint ranges of scalars, three numbers each: the first scalar, the last, and",
        "/// what each becomes: 0xFFFFFFFF a separator, 0xFFFFFFFE removed, else a replacement (one",
        "/// scalar per range) as the offset into ``searchFoldBytes`` shifted left 8 bits, plus its",
        "/// length in bytes.",
        f"let searchFoldRanges: [UInt32] = [",
    ]
    row = []
    for lo, hi, code in table:
        row.append(f"0x{lo:X}, 0x{hi:X}, 0x{code:X},")
        if len(row) == 4:
            lines.append("    " + " ".join(row))
            row = []
    if row:
        lines.append("    " + " ".join(row))
    lines.append("]")
    lines.append("")
    lines.append("/// The UTF-8 bytes of the replacements.")
    lines.append("let searchFoldBytes: [UInt8] = [")
    for i in range(0, len(blob), 16):
        lines.append("    " + " ".join(f"0x{b:02X}," for b in blob[i:i + 16]))
    lines.append("]")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ucd", default="/usr/share/unicode", help="the UCD folder (default: %(default)s, Debian's unicode-data)")
    ap.add_argument("-o", "--output", default=OUT)
    ap.add_argument("--check", action="store_true", help="exit 1 if the file in the tree differs")
    ap.add_argument("--dump", action="store_true", help="print every scalar's folding (for review)")
    args = ap.parse_args()
    if not os.path.exists(os.path.join(args.ucd, "UnicodeData.txt")):
        sys.exit(f"gen_search_fold: no UnicodeData.txt in {args.ucd}: apt-get install unicode-data")
    entries, mapping = build(args.ucd)
    if args.dump:
        for c in sorted(mapping):
            v = mapping[c]
            print(f"U+{c:04X}\t{chr(c)!r}\t{v!r}")
        return 0
    text = render(entries)
    if args.check:
        with open(args.output, encoding="utf-8") as f:
            same = f.read() == text
        print(f"{args.output}: {'up to date' if same else 'differs from the tables'}")
        return 0 if same else 1
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"{args.output}: {len(entries)} ranges, {len(mapping)} scalars folded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
