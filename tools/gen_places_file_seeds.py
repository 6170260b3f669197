"""Seeds of the places_file fuzz target (tests/fuzz/corpus/places_file/forged_*): the forged
files of the forged-place-file tests, written in the target's edit form so that the target
reseals them and the checks behind the checksum are what it reaches.

The target's input (tests/fuzz/targets/places_file.swift): byte 0 picks a template (0: 100 places
saved as version 2, 1: the same bytes as version 1, 2: five places with two attribute columns,
3: the same with numbered ids, 4 and 5: the version 1 fixtures), then (offset low, offset high,
xor) triples edit it; bit 7 of byte 0 would cut the file (not used here). Each seed below is one
forgery: an edit that does not depend on the byte it changes (a sign, an exponent, a count's
high byte), or one made against the template's bytes, which this script makes as the target does
(the same points, through the Python door) and checks.

    GEOLOC_LIBRARY=build/libgeoloc.so python3 tools/gen_places_file_seeds.py
"""

from __future__ import annotations

import math
import os
import struct
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from geoloc import Places  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "fuzz", "corpus", "places_file")


def template_100():
    """Template 0: the target's 100 places (its generator, seed 21), ids and names "Place i"."""
    mask, g, points = (1 << 64) - 1, 21, []
    for _ in range(100):
        g = (g * 6364136223846793005 + 1442695040888963407) & mask
        u = (g >> 11) * 2.0 ** -53
        g = (g * 6364136223846793005 + 1442695040888963407) & mask
        points.append((math.asin(2 * u - 1) * 180 / math.pi, (g >> 11) * 2.0 ** -53 * 360 - 180))
    records = [{"lat": a, "lon": b, "id": "Place %d" % i, "name": "Place %d" % i} for i, (a, b) in enumerate(points)]
    with tempfile.TemporaryDirectory() as d, Places.from_records(records) as p:
        p.save(os.path.join(d, "t.places"))
        return open(os.path.join(d, "t.places"), "rb").read()


def sections(b):
    """Where the sections of a file without attributes start."""
    n, bucket = struct.unpack_from("<Q", b, 24)[0], struct.unpack_from("<I", b, 20)[0]
    depth = 0
    while (n + (1 << depth) - 1) >> depth > bucket:
        depth += 1
    m, at, out = (1 << depth) - 1, 128, {}
    for name, size in [("points", 32 * n), ("latlon", 16 * n), ("ids", 4 * n), ("positions", 4 * n),
                       ("gaps", 16 * m), ("dims", m), ("ends", 8 * n), ("text", 0)]:
        at = (at + 63) & ~63
        out[name] = at
        at += size
    return out


def main():
    t = template_100()
    s = sections(t)
    assert len(t) <= 0xFFFF and t[s["text"]:s["text"] + 14] == b"Place 0Place 0", "the target's template changed"
    text = s["text"]
    # (name, [(offset, xor)]), for templates 0 and 1 alike.
    forgeries = [
        ("vector_sign", [(s["points"] + 32 * 10 + 7, 0x80)]),           # x of tree position 10
        ("cosine", [(s["points"] + 32 * 10 + 30, 0x01)]),               # its cos latitude, 2^-4 off
        ("latitude_sign", [(s["latlon"] + 16 * 5 + 7, 0x80)]),
        ("latitude_huge", [(s["latlon"] + 16 * 5 + 7, 0x07)]),         # exponent + 2^8
        ("ids_repeat", [(s["ids"] + 4, 0x01)]),
        ("ids_negative", [(s["ids"] + 8 + 3, 0x80)]),
        ("positions_range", [(s["positions"] + 28 + 1, 0x01)]),
        ("dims_range", [(s["dims"], 0x04)]),
        ("dims_swap", [(s["dims"] + 4, 0x03)]),
        ("gap_low_sign", [(s["gaps"] + 7, 0x80)]),
        ("gap_high_sign", [(s["gaps"] + 15, 0x80)]),
        ("box_sign", [(88 + 7, 0x80)]),
        ("box_low_sign", [(64 + 7, 0x80)]),
        ("count_overflow", [(24 + 7, 0x40)]),
        ("count_off_by_one", [(24, 0x01)]),
        ("attribute_count", [(32, 0x01)]),
        ("text_size", [(40 + 5, 0x01)]),
        ("names_size", [(48 + 7, 0xFF)]),
        ("flags", [(112, 0x02)]),
        ("leaf_size", [(20, t[20])]),
        ("ends_past", [(s["ends"] + 40 + 3, 0xFF)]),
        ("ends_last", [(s["ends"] + 4 * 199, 0x01)]),
        ("nul_in_id", [(text + 2, ord("a"))]),
        ("utf8_lead", [(text + 3, 0x80)]),
        # "é" across the id and the name of place 0.
        ("split_character", [(text + 6, ord("0") ^ 0xC3), (text + 7, ord("P") ^ 0xA9)]),
    ]
    os.makedirs(OUT, exist_ok=True)
    for version, template in [(2, 0), (1, 1)]:
        for name, edits in forgeries:
            seed = bytes([template]) + b"".join(struct.pack("<HB", at, x) for at, x in edits)
            with open(os.path.join(OUT, "forged_v%d_%s" % (version, name)), "wb") as f:
                f.write(seed)
    # Templates 2 and 3 (attribute columns; the column table starts at byte 128): counts of
    # values and value bytes beyond the places and the file.
    for template in (2, 3):
        for name, edits in [("values_count", [(128 + 4, 0x01)]), ("values_bytes", [(136 + 5, 0x01)]),
                            ("values_count_small", [(128, 0x01)])]:
            seed = bytes([template]) + b"".join(struct.pack("<HB", at, x) for at, x in edits)
            with open(os.path.join(OUT, "forged_columns%d_%s" % (template, name)), "wb") as f:
                f.write(seed)
    print("wrote %d seeds to %s" % (2 * len(forgeries) + 6, OUT))


if __name__ == "__main__":
    main()
