// The folding of place search: the key a name or a query is compared by. Case folded, accents
// and other marks removed from Latin, Greek and Cyrillic, punctuation and spaces as single
// spaces, apostrophes removed; other scripts as written. The tables are Unicode's own
// (SearchFoldTables.swift, made by tools/gen_search_fold.py, whose docstring has the rules).

/// Folded text: UTF-8 bytes, no leading or trailing space, no two spaces in a row.
enum SearchFold {
    /// `text`'s folded key ("São Paulo" -> "sao paulo", "ZÜRICH" -> "zurich", "Київ" -> "киив",
    /// "St.-Louis" -> "st louis", "北京" -> "北京").
    static func key(_ text: some StringProtocol) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var s = String(text)
        s.withUTF8 { append(to: &out, $0) }
        return out
    }

    /// Appends the folding of valid UTF-8 `bytes` to `out` (after what it holds; with `join`, and
    /// when both have text, a space between them).
    static func append(to out: inout [UInt8], _ bytes: UnsafeBufferPointer<UInt8>, join: Bool = false) {
        let base = out.count
        var pendingSpace = join && base > 0
        var i = 0
        let n = bytes.count
        @inline(__always) func put(_ b: UInt8) {
            if pendingSpace {
                if out.count > (join ? 0 : base) { out.append(0x20) }
                pendingSpace = false
            }
            out.append(b)
        }
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                i += 1
                switch b {
                case 0x61...0x7A, 0x30...0x39: put(b)
                case 0x41...0x5A: put(b | 0x20)
                case 0x27, 0x60: continue  // ' and ` are removed
                default: pendingSpace = true
                }
                continue
            }
            // One scalar of valid UTF-8.
            var scalar: UInt32
            var len: Int
            if b < 0xE0 {
                scalar = UInt32(b & 0x1F); len = 2
            } else if b < 0xF0 {
                scalar = UInt32(b & 0x0F); len = 3
            } else {
                scalar = UInt32(b & 0x07); len = 4
            }
            if i + len > n { break }  // not valid UTF-8: the rest is ignored
            for k in 1..<len { scalar = (scalar << 6) | UInt32(bytes[i + k] & 0x3F) }
            let start = i
            i += len
            switch foldOf(scalar) {
            case .keep:
                for k in start..<(start + len) { put(bytes[k]) }
            case .separator:
                pendingSpace = true
            case .remove:
                continue
            case .replace(let offset, let count):
                searchFoldBytes.withUnsafeBufferPointer { r in
                    for k in offset..<(offset + count) {
                        if r[k] == 0x20 { pendingSpace = true } else { put(r[k]) }
                    }
                }
            }
        }
    }

    enum Fold: Equatable {
        case keep, separator, remove
        case replace(Int, Int)
    }

    /// What one non-ASCII scalar becomes.
    @inline(__always)
    static func foldOf(_ scalar: UInt32) -> Fold {
        searchFoldRanges.withUnsafeBufferPointer { r -> Fold in
            // The last range whose first scalar is at most `scalar`.
            var lo = 0
            var hi = r.count / 3
            while lo < hi {
                let mid = (lo + hi) >> 1
                if r[3 * mid] <= scalar { lo = mid + 1 } else { hi = mid }
            }
            guard lo > 0 else { return .keep }
            let k = 3 * (lo - 1)
            guard scalar <= r[k + 1] else { return .keep }
            switch r[k + 2] {
            case 0xFFFF_FFFF: return .separator
            case 0xFFFF_FFFE: return .remove
            case let code: return .replace(Int(code >> 8), Int(code & 0xFF))
            }
        }
    }
}
