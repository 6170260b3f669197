"""What the tests that forge data files share: the checksum every data file of the library carries
at bytes 120..127 of its 128-byte header (the place file, the search index, the time-zone map; as
Sources/GeoLoc/Core/MappedFile.swift computes it), and resealing an edited file with it, as a
forger would."""

from __future__ import annotations

MASK = (1 << 64) - 1


def _step(lane: int, word: int) -> int:
    x = ((lane ^ word) * 0x9FB21C651E98DF25) & MASK
    return x ^ (x >> 32)


def checksum(b: bytes | bytearray, seed: int = 0, sealed: bool = True) -> int:
    """The data file checksum: four lanes over the little-endian 8-byte words (bytes 120..127,
    where it is stored, read as 0 unless `sealed` is false), the tail in lane 4, folded with the
    length. A time-zone map's leaf block: `seed` its number, `sealed` false."""
    n = len(b)
    lanes = [v ^ seed for v in (0x243F6A8885A308D3, 0x13198A2E03707344, 0xA4093822299F31D0, 0x082EFA98EC4E6C89)]
    words = [0 if sealed and i == 120 else int.from_bytes(b[i:i + 8], "little") for i in range(0, n - n % 8, 8)]
    full = (n // 32) * 4
    for k, w in enumerate(words[:full]):
        lanes[k % 4] = _step(lanes[k % 4], w)
    for k, w in enumerate(words[full:]):
        lanes[k] = _step(lanes[k], w)
    if n % 8:
        lanes[3] = _step(lanes[3], int.from_bytes(b[n - n % 8:], "little"))
    h = _step(n, lanes[0])
    for lane in lanes[1:]:
        h = _step(h, lane)
    return _step(h, 0x5851F42D4C957F2D)


def reseal(b: bytes | bytearray) -> bytes:
    """A copy of `b` with a fresh checksum at bytes 120..127."""
    out = bytearray(b)
    out[120:128] = checksum(out).to_bytes(8, "little")
    return bytes(out)
