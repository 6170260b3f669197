#!/usr/bin/env python3
"""Builds data/time/zoneinfo.rules, the compiled zone rules libgeoloc ships, from the pinned
PyPI package `tzdata` (the IANA time zone database compiled to TZif by its maintainers).

    python3 tools/gen_time_rules.py [--wheel tzdata-2026.6-py2.py3-none-any.whl] [--out FILE]

Without --wheel the pinned wheel is fetched with `pip download` into build/tzdata/ (never at
build or run time) and its SHA-256 checked. Every name the package lists (its `zones` file:
zones and links) is read from its TZif file (the 64-bit data block and the footer, RFC 8536);
names whose files are identical share one zone. The format is specified at the top of
Sources/GeoLoc/Time/ZoneRulesFile.swift; the checksum is every data file's
(Sources/GeoLoc/Core/MappedFile.swift, DataFileChecksum).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PIN = "tzdata==2026.6"
WHEEL = "tzdata-2026.6-py2.py3-none-any.whl"
WHEEL_SHA256 = "0a10eec6e13ef16b627fabed9a5f2ba61a62b1c67f327305f4e7e412a70b4aec"

MAGIC = b"GEOLOCTZ"
VERSION = 1
HEADER = 128
CHECKSUM_AT = 120
MASK = (1 << 64) - 1


def fetch_wheel() -> Path:
    """The pinned wheel in build/tzdata/, downloaded when missing, its hash checked."""
    folder = ROOT / "build" / "tzdata"
    path = folder / WHEEL
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
                        "-d", str(folder), PIN], check=True)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != WHEEL_SHA256:
        sys.exit(f"{path}: SHA-256 {digest}, not the pinned {WHEEL_SHA256}")
    return path


def parse_tzif(data: bytes, name: str):
    """(times, type indices, types [(offset, isdst, abbreviation)], footer) of a TZif file's
    64-bit block; a file that is not version 2+ is refused (the package's all are)."""
    if data[:4] != b"TZif" or data[4:5] not in (b"2", b"3", b"4"):
        sys.exit(f"{name}: not a TZif version 2+ file")

    def counts(at):
        return struct.unpack(">6l", data[at + 20:at + 44])

    isut, isstd, leap, timecnt, typecnt, charcnt = counts(0)
    at = 44 + timecnt * 5 + typecnt * 6 + charcnt + leap * 8 + isstd + isut
    if data[at:at + 4] != b"TZif":
        sys.exit(f"{name}: no second header")
    isut, isstd, leap, timecnt, typecnt, charcnt = counts(at)
    if leap:
        sys.exit(f"{name}: leap-second records")
    at += 44
    times = list(struct.unpack(f">{timecnt}q", data[at:at + 8 * timecnt]))
    at += 8 * timecnt
    indices = list(data[at:at + timecnt])
    at += timecnt
    raw = [struct.unpack(">lBB", data[at + 6 * k:at + 6 * k + 6]) for k in range(typecnt)]
    at += 6 * typecnt
    chars = data[at:at + charcnt]
    at += charcnt + isstd + isut
    types = []
    for offset, isdst, index in raw:
        end = chars.index(b"\0", index)
        types.append((offset, isdst, chars[index:end].decode("ascii")))
    if data[at:at + 1] != b"\n" or not data.endswith(b"\n"):
        sys.exit(f"{name}: no footer")
    footer = data[at + 1:-1].decode("ascii")
    if "\n" in footer:
        sys.exit(f"{name}: bytes after the footer")
    if any(b <= a for a, b in zip(times, times[1:])):
        sys.exit(f"{name}: transitions out of order")
    return times, indices, types, footer


def checksum(image: bytes) -> int:
    """PlaceFileChecksum: four lanes over the file's little-endian 8-byte words (the stored
    checksum read as 0), the tail in lane d, folded with the length."""
    mult = 0x9FB21C651E98DF25

    def step(lane, word):
        x = ((lane ^ word) * mult) & MASK
        return x ^ (x >> 32)

    n = len(image)
    lanes = [0x243F6A8885A308D3, 0x13198A2E03707344, 0xA4093822299F31D0, 0x082EFA98EC4E6C89]
    whole = n // 8
    words = list(struct.unpack(f"<{whole}Q", image[:whole * 8]))
    if whole > CHECKSUM_AT // 8:
        words[CHECKSUM_AT // 8] = 0
    i = 0
    # 32-byte rounds, then the remaining words in lanes a, b, c, then the tail in d.
    rounds = whole // 4
    for r in range(rounds):
        for k in range(4):
            lanes[k] = step(lanes[k], words[4 * r + k])
    i = rounds * 4
    lane = 0
    while i < whole:
        lanes[min(lane, 2)] = step(lanes[min(lane, 2)], words[i])
        lane += 1
        i += 1
    tail = image[whole * 8:]
    if tail:
        lanes[3] = step(lanes[3], int.from_bytes(tail, "little"))
    h = step(n, lanes[0])
    h = step(h, lanes[1])
    h = step(h, lanes[2])
    h = step(h, lanes[3])
    return step(h, 0x5851F42D4C957F2D)


def build(wheel: Path) -> tuple[bytes, str, int, int]:
    with zipfile.ZipFile(wheel) as z:
        init = z.read("tzdata/__init__.py").decode()
        release = next(line.split('"')[1] for line in init.splitlines() if line.startswith("IANA_VERSION"))
        names = sorted(z.read("tzdata/zones").decode().split(), key=lambda s: s.encode())
        files = {name: z.read(f"tzdata/zoneinfo/{name}") for name in names}

    zones: list[tuple] = []
    zone_of_content: dict[bytes, int] = {}
    name_rows = []
    for name in names:
        content = files[name]
        if content not in zone_of_content:
            zone_of_content[content] = len(zones)
            zones.append(parse_tzif(content, name))
        name_rows.append((name, zone_of_content[content]))

    text = bytearray()
    text_at: dict[str, int] = {}

    def put(s: str) -> tuple[int, int]:
        if s not in text_at:
            text_at[s] = len(text)
            text.extend(s.encode("ascii"))
        return text_at[s], len(s)

    names_section = bytearray()
    for name, zone in name_rows:
        offset, length = put(name)
        names_section += struct.pack("<3I", offset, length, zone)
    zones_section = bytearray()
    times_section = bytearray()
    indices_section = bytearray()
    types_section = bytearray()
    transitions = types = 0
    for times, indices, tys, footer in zones:
        f_offset, f_length = put(footer)
        zones_section += struct.pack("<6I", transitions, len(times), types, len(tys), f_offset, f_length)
        times_section += struct.pack(f"<{len(times)}q", *times)
        indices_section += bytes(indices)
        for offset, isdst, abbreviation in tys:
            a_offset, a_length = put(abbreviation)
            types_section += struct.pack("<iIBB2x", offset, a_offset, a_length, isdst)
        transitions += len(times)
        types += len(tys)

    image = bytearray(HEADER)
    for section in (names_section, zones_section, times_section, indices_section, types_section, text):
        image += bytes(-len(image) % 64)
        image += section
    struct.pack_into("<8sIIII", image, 0, MAGIC, VERSION, 0x01020304, HEADER, len(zones))
    struct.pack_into("<IIIIQ", image, 24, len(name_rows), transitions, types, len(text), len(image))
    struct.pack_into("16s", image, 48, release.encode("ascii"))
    struct.pack_into("<Q", image, CHECKSUM_AT, checksum(bytes(image)))
    return bytes(image), release, len(name_rows), len(zones)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wheel", type=Path, help="the tzdata wheel (default: the pinned one, fetched)")
    parser.add_argument("--out", type=Path, default=ROOT / "data" / "time" / "zoneinfo.rules")
    args = parser.parse_args()
    wheel = args.wheel or fetch_wheel()
    image, release, n_names, n_zones = build(wheel)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(image)
    print(f"{args.out}: IANA {release}, {n_names} names, {n_zones} zones, {len(image)} bytes")


if __name__ == "__main__":
    main()
