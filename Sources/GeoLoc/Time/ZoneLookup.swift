#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// Longitude 180 is longitude -180 (a `Coordinate`'s range). No allocation, no lock.
    /// - Throws: `.parse` only for a map file made to pass its checks with a leaf that names a
    ///   zone out of range.
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
        var qx = Int(Int64(longitude * 1e7) + TimeZoneFile.xShift)
        var qy = Int(Int64(latitude * 1e7) + TimeZoneFile.yShift)
        if qx == 0 { qx = 2 * Int(TimeZoneFile.xShift) }
        if qy == 0 { qy = 1 }
        var shift = rootShift
        var x0 = (qx >> shift) << shift
        var y0 = (qy >> shift) << shift
        let e = UInt32(littleEndian: root[(qy >> shift) * columns + (qx >> shift)])
        var kind = e >> 30
        var value = Int(e & 0x3FFF_FFFF)
        while kind == 1 {
            // Each step halves the cell twice: this ends within rootShift / 2 steps.
            guard shift >= 2 else { throw corrupted() }
            shift -= 2
            let cx = (qx - x0) >> shift, cy = (qy - y0) >> shift
            x0 += cx << shift
            y0 += cy << shift
            let at = 40 * value
            let child = UInt16(littleEndian: nodes.loadUnaligned(fromByteOffset: at + 8 + 2 * (4 * cy + cx), as: UInt16.self))
            kind = UInt32(child >> 14)
            value = Int(child & 0x3FFF)
            if kind == 1 {
                value += Int(UInt32(littleEndian: nodes.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
            } else if kind == 2 {
                value += Int(UInt32(littleEndian: nodes.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self)))
            }
        }
        switch kind {
        case 0: return TimeZoneID(rawValue: UInt16(truncatingIfNeeded: value))
        case 3: return nauticalZone(longitude)
        default:
            return try leafZone(value, qx, qy, x0, y0, shift, longitude)
        }
    }

    private func corrupted() -> GeoLocError { GeoLocError(.parse, "corrupted time-zone map: a leaf is out of range") }

    /// `width` bits (at most 57) at bit `pos` of the leaf section, least significant first. The
    /// load never passes the 8 zero bytes after the section, whatever `pos` is.
    @inline(__always)
    private func bits(_ pos: inout Int, _ width: Int) -> UInt64 {
        let byte = Swift.min(pos >> 3, leafBytes)
        let word = UInt64(littleEndian: leaves.loadUnaligned(fromByteOffset: byte, as: UInt64.self))
        let shift = UInt64(pos & 7)
        pos &+= width
        return (word >> shift) & ((1 << UInt64(width)) &- 1)
    }

    /// A local mask of `nz` (1...64) bits.
    @inline(__always)
    private func mask(_ pos: inout Int, _ nz: Int) -> UInt64 {
        if nz <= 56 { return bits(&pos, nz) }
        let low = bits(&pos, 32)
        return low | bits(&pos, nz - 32) << 32
    }

    /// A Rice code with parameter k (see the format): at most 15 + 1 + 32 bits.
    @inline(__always)
    private func rice(_ pos: inout Int, _ k: Int) -> UInt64 {
        let byte = Swift.min(pos >> 3, leafBytes)
        let word = UInt64(littleEndian: leaves.loadUnaligned(fromByteOffset: byte, as: UInt64.self)) >> UInt64(pos & 7)
        let q = Swift.min(word.trailingZeroBitCount, 15)
        if q == 15 {
            pos &+= 16
            return bits(&pos, 32)
        }
        // q + 1 + k <= 15 + 31 + 7 < 64: the value is in the same word unless k is large.
        if q + 1 + k + (pos & 7) <= 64 {
            pos &+= q + 1 + k
            return UInt64(q) << UInt64(k) | (word >> UInt64(q + 1)) & ((1 << UInt64(k)) &- 1)
        }
        pos &+= q + 1
        return UInt64(q) << UInt64(k) | bits(&pos, k)
    }

    @inline(__always)
    private func unzigzag(_ v: UInt64) -> Int { Int(bitPattern: UInt(v >> 1)) ^ -Int(bitPattern: UInt(v & 1)) }

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
        var p = offset &* 8
        let nz = Int(bits(&p, 6)) + 1
        let zonesAt = p
        p &+= nz &* zoneBits
        var m = mask(&p, nz)
        let nt = Int(bits(&p, 5))
        for _ in 0..<nt {
            let t = y0 &+ Int(bits(&p, shift))
            let tm = mask(&p, nz)
            if t <= qy { m ^= tm }
        }
        let size = 1 << shift
        let xr2 = 2 &* (x0 &+ size) &- 1
        let qx2 = 2 &* qx
        let nc = Int(bits(&p, 8))
        let bx = x0 / 10, by = y0 / 10
        for _ in 0..<nc {
            let k = Int(bits(&p, 8)) + 1
            let cm = mask(&p, nz)
            var w = Int(bits(&p, 5))
            var x = bx &+ unzigzag(bits(&p, w))
            w = Int(bits(&p, 5))
            var y = by &+ unzigzag(bits(&p, w))
            let kx = Int(bits(&p, 5)), ky = Int(bits(&p, 5))
            var x1 = 10 &* x, y1 = 10 &* y
            var dx = 0, dy = 0
            for _ in 0..<k {
                dx &+= unzigzag(rice(&p, kx))
                dy &+= unzigzag(rice(&p, ky))
                x &+= dx
                y &+= dy
                let x2 = 10 &* x, y2 = 10 &* y
                if (qy > y1) != (qy > y2) {
                    // Crossed between the point and the east side: x_e >= qx and not x_e >= xr.
                    let lo = Swift.min(x1, x2), hi = Swift.max(x1, x2)
                    let atOrEast = qx <= lo ? true : qx > hi ? false : eastOf(x1, y1, x2, y2, doubled: qx2, qy)
                    let pastSide = 2 &* hi < xr2 ? false : 2 &* lo > xr2 ? true : eastOf(x1, y1, x2, y2, doubled: xr2, qy)
                    if atOrEast != pastSide { m ^= cm }
                }
                x1 = x2
                y1 = y2
            }
        }
        if m == 0 { return nauticalZone(longitude) }
        var best = -1
        var bestRank = Int.max
        while m != 0 {
            let i = m.trailingZeroBitCount
            m &= m &- 1
            guard i < nz else { throw corrupted() }
            var at = zonesAt &+ i &* zoneBits
            let z = Int(bits(&at, zoneBits))
            guard z < zoneCount else { throw corrupted() }
            let r = Int(ranks[z])
            if r < bestRank || (r == bestRank && z < best) {
                best = z
                bestRank = r
            }
        }
        return TimeZoneID(rawValue: UInt16(best))
    }
}

extension Int {
    @inline(__always)
    fileprivate func clamped(_ low: Int, _ high: Int) -> Int { Swift.min(Swift.max(self, low), high) }
}
