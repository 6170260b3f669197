#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeoLocKernels

/// A zone of a ``TimeZoneMap``: its number in the map (`0..<map.count`, in code-point order of
/// the names).
public struct TimeZoneID: Hashable, Comparable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static func < (a: TimeZoneID, b: TimeZoneID) -> Bool { a.rawValue < b.rawValue }
}

extension TimeZoneMap {
    /// The zone at `c`: exact to the source's polygons (the same answer as timezonefinder with
    /// its full-precision data, to the 1e-7 degree grid a coordinate is truncated to), with
    /// these rules where the polygons do not settle it:
    /// - a point on a border (on a polygon edge, to 1e-7 degree) counts as west of it, and on a
    ///   vertex as below it (the rule of a ray cast east, timezonefinder's); so longitude -180
    ///   (the date line) is looked up as +180, and the South Pole 1e-7 degree north of it;
    /// - where polygons of several zones overlap (disputed areas, slivers along some borders),
    ///   the zone of smallest total area;
    /// - where no polygon covers the point (specks where the nautical zones meet a coast), the
    ///   nautical zone of its longitude.
    /// Longitude 180 is longitude -180 (a `Coordinate`'s range). No allocation, no lock (the
    /// first lookup that reads a block of the map's borders checks that block: a few
    /// microseconds, once per block and process).
    /// - Throws: `.parse` only for a damaged map file: a block of its borders that does not
    ///   match its checksum, or a file forged to pass its checksums with an entry out of range.
    @inline(__always)
    public func zone(at c: Coordinate) throws(GeoLocError) -> TimeZoneID {
        try zone(latitude: c.latitude, longitude: c.longitude)
    }

    /// The zone's name, such as "America/Chicago" or "Etc/GMT-5".
    public func name(_ zone: TimeZoneID) -> String { names[Int(zone.rawValue)] }

    /// The zone named `name` (an exact IANA name as the map has it), or nil.
    public func zone(named name: String) -> TimeZoneID? { index[name].map { TimeZoneID(rawValue: UInt16($0)) } }

    /// For a nautical zone (`Etc/GMT±N`, `Etc/GMT`, `Etc/UTC`), its offset from UTC in hours as
    /// people read it: +5 for `Etc/GMT-5` (the IANA name carries the POSIX sign, the opposite);
    /// nil for any other zone (its offset depends on the date: see local time).
    public func nauticalOffsetHours(_ zone: TimeZoneID) -> Int? {
        let entry = UInt64(littleEndian: zoneTable[Int(zone.rawValue)])
        guard (entry >> 48) & 0xFF == 1 else { return nil }
        return Int(Int8(truncatingIfNeeded: entry >> 56))
    }

    /// The nautical zone of a longitude: 15 degrees wide, centred on multiples of 15 (Etc/GMT
    /// for [-7.5, 7.5), Etc/GMT-12 east of 172.5, Etc/GMT+12 west of -172.5).
    @inline(__always)
    func nauticalZone(_ longitude: Double) -> TimeZoneID {
        let h = Int(((longitude + 7.5) / 15).rounded(.down)).clamped(-12, 12)
        return TimeZoneID(rawValue: nautical[h + 12])
    }

    /// The zones of `n` points given as latitude, longitude pairs (2n degrees), into `out`.
    /// Every point is checked first (finite, latitude within ±90); nothing is written unless all
    /// pass. `name` names the array in messages.
    public func zones(degrees: UnsafeBufferPointer<Double>, count n: Int, into out: UnsafeMutablePointer<UInt16>,
                      name: String = "points") throws(GeoLocError) {
        precondition(degrees.count >= 2 * n)
        try CoordinateArray.check(degrees, n, name)
        for i in 0..<n {
            do {
                out[i] = try zone(latitude: degrees[2 * i], longitude: normalizedLongitude(degrees[2 * i + 1])).rawValue
            } catch {
                throw GeoLocError(error.code, "\(name)[\(i)]: \(error.message)")
            }
        }
    }

    /// The zone at a checked latitude and a longitude in [-180, 180).
    @inline(__always)
    func zone(latitude: Double, longitude: Double) throws(GeoLocError) -> TimeZoneID {
        // timezonefinder's grid: truncated toward zero, then shifted to start at 0. A point on
        // the date line itself (-180) is looked up at +180: a point on a border counts as west
        // of it, and west of -180 is the east end of the map. The South Pole, on the border of
        // every Antarctic polygon, is looked up 1e-7 degree north of it (a point on a border
        // counts as below it, and below -90 is nothing).
        var qx = Int(Int64(longitude * 1e7) &+ TimeZoneFile.xShift)
        var qy = Int(Int64(latitude * 1e7) &+ TimeZoneFile.yShift)
        if qx == 0 { qx = 2 * Int(TimeZoneFile.xShift) }
        if qy == 0 { qy = 1 }
        var shift = layout.rootShift
        var x0 = (qx &>> shift) &<< shift
        var y0 = (qy &>> shift) &<< shift
        // The header's grid covers every query (checked when the map was opened).
        let e = UInt32(littleEndian: root[(qy &>> shift) &* layout.columns &+ (qx &>> shift)])
        var kind = e &>> 30
        var value = Int(e & 0x3FFF_FFFF)
        while kind == 1 {
            // Each step halves the cell twice; leaves are at least 2^4 units wide.
            guard value < layout.nodeCount, shift >= 6 else { throw corrupted() }
            shift &-= 2
            let cx = (qx &- x0) &>> shift, cy = (qy &- y0) &>> shift
            x0 &+= cx &<< shift
            y0 &+= cy &<< shift
            let at = 40 &* value
            let child = UInt16(littleEndian: nodes.loadUnaligned(fromByteOffset: at &+ 8 &+ 2 &* (4 &* cy &+ cx), as: UInt16.self))
            kind = UInt32(child &>> 14)
            value = Int(child & 0x3FFF)
            if kind == 1 {
                value &+= Int(UInt32(littleEndian: nodes.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
            } else if kind == 2 {
                value &+= Int(UInt32(littleEndian: nodes.loadUnaligned(fromByteOffset: at &+ 4, as: UInt32.self)))
            }
        }
        switch kind {
        case 0:
            guard value < layout.zoneCount else { throw corrupted() }
            return TimeZoneID(rawValue: UInt16(truncatingIfNeeded: value))
        case 3: return nauticalZone(longitude)
        default:
            guard value < layout.leafBytes else { throw corrupted() }
            return try leafZone(value, qx, qy, x0, y0, shift, longitude)
        }
    }

    private func corrupted() -> GeoLocError { GeoLocError(.parse, "corrupted time-zone map: an entry is out of range") }

    @inline(__always)
    func unzigzag(_ v: UInt64) -> Int { Int(truncatingIfNeeded: v &>> 1) ^ (0 &- Int(truncatingIfNeeded: v & 1)) }

    /// Whether the edge's x on row `qy` is at least `x2q / 2` (coordinates in 1e-7 units; the
    /// row test holds, so qy is within the edge's rows).
    @inline(__always)
    private func eastOf(_ x1: Int, _ y1: Int, _ x2: Int, _ y2: Int, doubled x2q: Int, _ qy: Int) -> Bool {
        // (x2 - x1)(qy - y1) - (x - x1)(y2 - y1), doubled, in 128 bits.
        let a = (x2 &- x1).multipliedFullWidth(by: 2 &* (qy &- y1))
        let b = (x2q &- 2 &* x1).multipliedFullWidth(by: y2 &- y1)
        let aGEb = a.high > b.high || (a.high == b.high && a.low >= b.low)
        let aLEb = a.high < b.high || (a.high == b.high && a.low <= b.low)
        return y2 > y1 ? aGEb : aLEb
    }

    private func leafZone(_ offset: Int, _ qx: Int, _ qy: Int, _ x0: Int, _ y0: Int, _ shift: Int,
                          _ longitude: Double) throws(GeoLocError) -> TimeZoneID {
        let block = offset &>> TimeZoneFile.blockShift
        if glk_load_acquire(checked + block) == nil { try checkBlock(block) }
        // The record starts in a block that passed its checks: every read of it stays within
        // the record (checkRecord decoded it in full), so the reader need not clamp its loads.
        var r = LeafBits(leaves, Int.max, offset &* 8)
        let nz = Int(r.take(6)) &+ 1
        let zonesAt = r.pos
        r.pos &+= nz &* layout.zoneBits
        var m = r.mask(nz)
        let nt = Int(r.take(5))
        // The crossings are sorted by row: read up to the first above the point's row.
        let crossingsEnd = r.pos &+ nt &* (shift &+ nz)
        for _ in 0..<nt {
            let t = y0 &+ Int(r.take(shift))
            if t > qy { break }
            m ^= r.mask(nz)
        }
        r.pos = crossingsEnd
        let xr2 = 2 &* (x0 &+ (1 &<< shift)) &- 1
        let qx2 = 2 &* qx
        // Row tests in the vertices' units (1e-6 degree): qy > 10 y exactly when y <= qyU.
        let qyU = (qy &- 1) / 10
        let row = Int(truncatingIfNeeded: (qy &- y0) &>> (shift &- 4))
        let nb = Int(r.take(10))
        let bx = x0 / 10, by = y0 / 10
        var px = 0, py = 0
        var cm: UInt64 = 0
        var kx = 0, ky = 0
        var mkx: UInt64 = 0, mky: UInt64 = 0
        for _ in 0..<nb {
            var ox = bx, oy = by
            if r.take(1) != 0 {
                ox = px
                oy = py
            } else {
                cm = r.mask(nz)
                kx = Int(r.take(5))
                ky = Int(r.take(5))
                mkx = (1 &<< UInt64(kx)) &- 1
                mky = (1 &<< UInt64(ky)) &- 1
            }
            let head = r.take(14)
            let k = Int(head & 63) &+ 1
            let lo = Int((head &>> 6) & 15), hi = Int(head &>> 10)
            var w = Int(r.take(5))
            var x = ox &+ unzigzag(r.take(w))
            w = Int(r.take(5))
            var y = oy &+ unzigzag(r.take(w))
            px = x
            py = y
            w = Int(r.take(5))
            let n = Int(r.take(w))
            if row < lo || row > hi {
                r.pos &+= n
                continue
            }
            var below = y <= qyU
            var dx = 0, dy = 0
            for _ in 0..<k {
                let (ux, uy) = r.rice2(kx, mkx, ky, mky)
                dx &+= unzigzag(ux)
                dy &+= unzigzag(uy)
                let xa = x, ya = y
                x &+= dx
                y &+= dy
                let nowBelow = y <= qyU
                if below != nowBelow {
                    // Crossed between the point and the east side: x_e >= qx and not x_e >= xr.
                    let x1 = 10 &* xa, y1 = 10 &* ya, x2 = 10 &* x, y2 = 10 &* y
                    let lo = Swift.min(x1, x2), hi = Swift.max(x1, x2)
                    let atOrEast = qx <= lo ? true : qx > hi ? false : eastOf(x1, y1, x2, y2, doubled: qx2, qy)
                    let pastSide = 2 &* hi < xr2 ? false : 2 &* lo > xr2 ? true : eastOf(x1, y1, x2, y2, doubled: xr2, qy)
                    if atOrEast != pastSide { m ^= cm }
                }
                below = nowBelow
            }
        }
        m &= nz == 64 ? ~0 : (1 &<< UInt64(nz)) &- 1
        if m == 0 { return nauticalZone(longitude) }
        var best = -1
        var bestRank = Int.max
        while m != 0 {
            let i = m.trailingZeroBitCount
            m &= m &- 1
            var at = LeafBits(leaves, Int.max, zonesAt &+ i &* layout.zoneBits)
            let z = Int(at.take(layout.zoneBits))
            guard z < layout.zoneCount else { throw corrupted() }
            let rank = Int(ranks[z])
            if rank < bestRank || (rank == bestRank && z < best) {
                best = z
                bestRank = rank
            }
        }
        return TimeZoneID(rawValue: UInt16(truncatingIfNeeded: best))
    }
}

/// A reader of the leaf section's bit stream, least significant bit first. Every load is of 8
/// bytes at a byte no further than the end of the records, and the section has 8 zero bytes
/// (at least) after them: whatever a record holds, no read leaves the section.
struct LeafBits {
    let base: UnsafeRawPointer
    let limit: Int
    var pos: Int

    @inline(__always)
    init(_ base: UnsafeRawPointer, _ limit: Int, _ pos: Int) {
        self.base = base
        self.limit = limit
        self.pos = pos
    }

    /// The 57 bits (at least) from `pos` on, in the low bits.
    @inline(__always)
    private func window() -> UInt64 {
        let byte = Swift.min(pos &>> 3, limit)
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: byte, as: UInt64.self)) &>> UInt64(pos & 7)
    }

    /// `width` bits (0...57).
    @inline(__always)
    mutating func take(_ width: Int) -> UInt64 {
        let v = window() & ((1 &<< UInt64(width)) &- 1)
        pos &+= width
        return v
    }

    /// A local mask of `nz` (1...64) bits.
    @inline(__always)
    mutating func mask(_ nz: Int) -> UInt64 {
        if nz <= 57 { return take(nz) }
        let low = take(32)
        return low | take(nz &- 32) &<< 32
    }

    /// A Rice code with parameter k (0...31; `mk` = 2^k - 1): q zero bits, a one, k bits; the
    /// escape (q = 15) is followed by 32 bits. q + 1 + k <= 46 fits the window.
    @inline(__always)
    mutating func rice(_ k: Int, _ mk: UInt64) -> UInt64 {
        let w = window()
        let q = w.trailingZeroBitCount
        if _fastPath(q < 15) {
            pos &+= q &+ 1 &+ k
            return UInt64(truncatingIfNeeded: q) &<< UInt64(k) | (w &>> UInt64(q &+ 1)) & mk
        }
        pos &+= 16
        return take(32)
    }

    /// Two Rice codes in a row (parameters kx then ky), from one load of the window when both
    /// fit in it (the usual case), else one at a time.
    @inline(__always)
    mutating func rice2(_ kx: Int, _ mkx: UInt64, _ ky: Int, _ mky: UInt64) -> (UInt64, UInt64) {
        let w = window()
        let q1 = w.trailingZeroBitCount
        if _fastPath(q1 < 15) {
            let used = q1 &+ 1 &+ kx
            let v1 = UInt64(truncatingIfNeeded: q1) &<< UInt64(kx) | (w &>> UInt64(q1 &+ 1)) & mkx
            let w2 = w &>> UInt64(used)
            let q2 = w2.trailingZeroBitCount
            // The window holds 57 valid bits at least; zeros shifted in past them make q2 long.
            if _fastPath(q2 < 15 && used &+ q2 &+ 1 &+ ky <= 57) {
                pos &+= used &+ q2 &+ 1 &+ ky
                return (v1, UInt64(truncatingIfNeeded: q2) &<< UInt64(ky) | (w2 &>> UInt64(q2 &+ 1)) & mky)
            }
            pos &+= used
            return (v1, rice(ky, mky))
        }
        let v1 = rice(kx, mkx)
        return (v1, rice(ky, mky))
    }
}

extension Int {
    @inline(__always)
    fileprivate func clamped(_ low: Int, _ high: Int) -> Int { Swift.min(Swift.max(self, low), high) }
}
