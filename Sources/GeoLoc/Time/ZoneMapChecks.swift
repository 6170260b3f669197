import GeoLocKernels

// The checks of a time-zone map that a forged file, resealed to pass its checksums, must pass
// before a lookup relies on what it reads (the format is at the top of TimeZoneFile.swift):
// the index when a lookup first reads the borders (every entry of the root grid and the nodes: zones below the
// zone count, nodes numbered in the order their cells are met, each once, none deeper than a
// leaf can be, leaf records in range and in the order of the leaf section), and each block of
// the leaf section the first time a lookup reads it: its checksum, then every leaf record that
// starts in it, decoded in full against the cell the index gives it, its east-side crossings
// recomputed from its edges.

extension TimeZoneFile {
    /// Every leaf record of a map in the order of the leaf section, with its cell: what the
    /// checks of a block need. Built, and the index checked, by the first check of a block.
    struct LeafIndex {
        /// Byte offsets of the records in the leaf section, increasing.
        let offsets: [UInt32]
        /// Each record's cell [x0, x0 + 2^h) x [y0, y0 + 2^h): x0 >> 4 in bits 0-27, y0 >> 4 in
        /// bits 28-55, h in bits 56-60.
        let cells: [UInt64]
        /// The first record of each block of the leaf section (one entry more than the blocks).
        let firstOfBlock: [UInt32]

        static func pack(_ x0: Int, _ y0: Int, _ h: Int) -> UInt64 {
            UInt64(x0 &>> 4) | UInt64(y0 &>> 4) &<< 28 | UInt64(h) &<< 56
        }

        static func unpack(_ c: UInt64) -> (x0: Int, y0: Int, h: Int) {
            (Int(c & 0xFFF_FFFF) &<< 4, Int((c &>> 28) & 0xFFF_FFFF) &<< 4, Int(c &>> 56))
        }

        init(_ layout: Layout, _ base: UnsafeRawPointer) throws(GeoLocError) {
            func bad(_ what: String) -> GeoLocError { GeoLocError(.parse, "corrupted time-zone map: \(what)") }
            let cols = layout.columns, rows = layout.rows, s0 = layout.rootShift
            let n = layout.nodeCount, l = layout.leafBytes, z = layout.zoneCount
            // Cells fit the packing (the real grid: 3.6e9 x 1.8e9 units).
            guard Int64(cols) << Int64(s0) <= 1 << 32, Int64(rows) << Int64(s0) <= 1 << 32 else {
                throw bad("its root grid is far larger than the Earth")
            }
            let root = base + layout.root
            let nodes = base + layout.nodes
            var nodeCells = [UInt64](repeating: 0, count: n)
            var nextNode = 0
            var offsets: [UInt32] = []
            var cells: [UInt64] = []
            offsets.reserveCapacity(Swift.min(6 * n + cols * rows, 1 << 22))
            cells.reserveCapacity(Swift.min(6 * n + cols * rows, 1 << 22))
            var last = -1
            @inline(__always) func leaf(_ off: Int, _ x0: Int, _ y0: Int, _ h: Int) -> Bool {
                guard off < l, off > last else { return false }
                last = off
                offsets.append(UInt32(truncatingIfNeeded: off))
                cells.append(Self.pack(x0, y0, h))
                return true
            }
            for k in 0..<(cols * rows) {
                let e = UInt32(littleEndian: root.loadUnaligned(fromByteOffset: 4 * k, as: UInt32.self))
                let value = Int(e & 0x3FFF_FFFF)
                let x0 = (k % cols) << s0, y0 = (k / cols) << s0
                switch e >> 30 {
                case 0:
                    guard value < z else { throw bad("root cell \(k): zone \(value) is not below the zone count \(z)") }
                case 1:
                    guard value == nextNode, value < n else { throw bad("root cell \(k): node \(value) is out of order or range") }
                    nodeCells[value] = Self.pack(x0, y0, s0)
                    nextNode += 1
                case 2:
                    guard leaf(value, x0, y0, s0) else { throw bad("root cell \(k): leaf record at byte \(value) is out of order or range") }
                default:
                    guard value == 0 else { throw bad("root cell \(k): a gap with a value") }
                }
            }
            for node in 0..<n {
                guard node < nextNode else { throw bad("node \(node) belongs to no cell") }
                let (x0, y0, h) = Self.unpack(nodeCells[node])
                guard h >= 6 else { throw bad("node \(node) is deeper than a leaf can be") }
                let ch = h - 2
                let at = 40 * node
                let first = Int(UInt32(littleEndian: nodes.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
                let leafBase = Int(UInt32(littleEndian: nodes.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self)))
                for c in 0..<16 {
                    let e = UInt16(littleEndian: nodes.loadUnaligned(fromByteOffset: at + 8 + 2 * c, as: UInt16.self))
                    let value = Int(e & 0x3FFF)
                    let x = x0 + (c & 3) << ch, y = y0 + (c >> 2) << ch
                    switch e >> 14 {
                    case 0:
                        guard value < z else { throw bad("node \(node), child \(c): zone \(value) is not below the zone count \(z)") }
                    case 1:
                        guard first + value == nextNode, nextNode < n else {
                            throw bad("node \(node), child \(c): node \(first + value) is out of order or range")
                        }
                        nodeCells[nextNode] = Self.pack(x, y, ch)
                        nextNode += 1
                    case 2:
                        guard leaf(leafBase + value, x, y, ch) else {
                            throw bad("node \(node), child \(c): leaf record at byte \(leafBase + value) is out of order or range")
                        }
                    default:
                        guard value == 0 else { throw bad("node \(node), child \(c): a gap with a value") }
                    }
                }
            }
            guard nextNode == n else { throw bad("\(n - nextNode) of its nodes belong to no cell") }
            var firstOfBlock = [UInt32](repeating: 0, count: layout.blocks + 1)
            var i = 0
            for b in 0...layout.blocks {
                while i < offsets.count && Int(offsets[i]) < b << TimeZoneFile.blockShift { i += 1 }
                firstOfBlock[b] = UInt32(i)
            }
            self.offsets = offsets
            self.cells = cells
            self.firstOfBlock = firstOfBlock
        }
    }
}

extension TimeZoneFile {
    /// A leaf index, or the error the checks of the index found, as published in a map's slot.
    final class LeafIndexBox {
        let result: Result<LeafIndex, GeoLocError>
        init(_ result: Result<LeafIndex, GeoLocError>) { self.result = result }
    }
}

extension TimeZoneMap {
    /// The leaf index, built (and the whole index checked) by the first call in the map's life,
    /// which publishes it, or the error it found, for every later call (threads may race to
    /// build it: one copy wins, the others are freed). Opening does not build it, so a map opens
    /// in the time of its index's checksum; the first lookup that reads a block of the borders
    /// pays for it (about 21 M instructions, 1.4 MB).
    func leafIndex() throws(GeoLocError) -> TimeZoneFile.LeafIndex {
        if let p = glk_load_acquire(indexSlot) {
            return try Unmanaged<TimeZoneFile.LeafIndexBox>.fromOpaque(p).takeUnretainedValue().result.get()
        }
        let built: Result<TimeZoneFile.LeafIndex, GeoLocError>
        do {
            built = .success(try TimeZoneFile.LeafIndex(layout, mapping.base))
        } catch {
            built = .failure(error)
        }
        let box = Unmanaged.passRetained(TimeZoneFile.LeafIndexBox(built))
        if glk_publish(indexSlot, box.toOpaque()) == 0 {
            box.release()
            return try Unmanaged<TimeZoneFile.LeafIndexBox>.fromOpaque(glk_load_acquire(indexSlot)!).takeUnretainedValue().result.get()
        }
        return try built.get()
    }

    /// Checks block `k` of the leaf section, its checksum then every leaf record that starts in
    /// it, and publishes that it passed (threads may race to check a block: each gets the same
    /// answer).
    @inline(never)
    func checkBlock(_ k: Int) throws(GeoLocError) {
        let sum = UInt64(littleEndian: sums.loadUnaligned(fromByteOffset: 8 * k, as: UInt64.self))
        guard TimeZoneFile.blockChecksum(leaves + (k << TimeZoneFile.blockShift), block: k) == sum else {
            throw GeoLocError(.parse, "corrupted time-zone map: block \(k) of its borders does not match its checksum")
        }
        let index = try leafIndex()
        // The crossings of a record, stored and recomputed: one pair of buffers for the block.
        var stored: [(t: Int, mask: UInt64)] = []
        var crossings: [(t: Int, mask: UInt64)] = []
        stored.reserveCapacity(64)
        crossings.reserveCapacity(64)
        for i in Int(index.firstOfBlock[k])..<Int(index.firstOfBlock[k + 1]) {
            try checkRecord(i, index, &stored, &crossings)
        }
        _ = glk_publish(checked + k, UnsafeMutableRawPointer(mutating: leaves))
    }

    /// Decodes leaf record `i` in full and checks what a lookup relies on: its zones below the
    /// zone count and increasing, its east-side crossings sorted, every piece flipping some zone,
    /// every block continuing the block before where it says so, its vertices on the Earth, its
    /// edges touching its cell, its row span the sixteenths its vertices lie in, its bit count
    /// the bits its edges take, and the record within its bytes (up to the next record or the
    /// end of its block).
    func checkRecord(_ i: Int, _ leafIndex: TimeZoneFile.LeafIndex, _ stored: inout [(t: Int, mask: UInt64)],
                     _ crossings: inout [(t: Int, mask: UInt64)]) throws(GeoLocError) {
        let start = Int(leafIndex.offsets[i])
        let next = i + 1 < leafIndex.offsets.count ? Int(leafIndex.offsets[i + 1]) : layout.leafBytes
        let end = Swift.min(next, ((start >> TimeZoneFile.blockShift) + 1) << TimeZoneFile.blockShift)
        let (x0, y0, h) = TimeZoneFile.LeafIndex.unpack(leafIndex.cells[i])
        func bad(_ what: String) -> GeoLocError {
            GeoLocError(.parse, "corrupted time-zone map: the leaf record at byte \(start) of its borders: \(what)")
        }
        var r = LeafBits(leaves, layout.leafBytes, start * 8)
        let limit = end * 8
        let nz = Int(r.take(6)) + 1
        var previous = -1
        for _ in 0..<nz {
            let zone = Int(r.take(layout.zoneBits))
            guard zone < layout.zoneCount else { throw bad("zone \(zone) is not below the zone count \(layout.zoneCount)") }
            guard zone > previous else { throw bad("its zones are not increasing") }
            previous = zone
        }
        _ = r.mask(nz)
        let nt = Int(r.take(5))
        var lastT = -1
        stored.removeAll(keepingCapacity: true)
        for _ in 0..<nt {
            let t = Int(r.take(h))
            guard t >= lastT else { throw bad("its east-side crossings are not sorted") }
            lastT = t
            stored.append((y0 + t, r.mask(nz)))
        }
        let nb = Int(r.take(10))
        let size = 1 << h
        // The crossings of the east side x = xr = x0 + size - 1/2 that the edges give (with the
        // generator's rule, eastSideCrossing), to compare with the stored ones.
        let xr2 = 2 * (x0 + size) - 1
        crossings.removeAll(keepingCapacity: true)
        var cm: UInt64 = 0
        let bx = x0 / 10, by = y0 / 10
        var px = 0, py = 0, lx = 0, ly = 0
        var kx = 0, ky = 0
        var mkx: UInt64 = 0, mky: UInt64 = 0
        @inline(__always) func onEarth(_ x: Int, _ y: Int) -> Bool {
            x >= 0 && x <= 2 * Int(TimeZoneFile.xShift) / 10 && y >= 0 && y <= 2 * Int(TimeZoneFile.yShift) / 10
        }
        @inline(__always) func sixteenth(_ yU: Int) -> Int { Swift.min(Swift.max((10 * yU - y0) >> (h - 4), 0), 15) }
        for j in 0..<nb {
            guard r.pos <= limit else { throw bad("it runs past its end (byte \(end))") }
            var ox = bx, oy = by
            let continues = r.take(1) != 0
            if continues {
                guard j > 0 else { throw bad("its first block continues no piece") }
                ox = px
                oy = py
            } else {
                cm = r.mask(nz)
                guard cm != 0 else { throw bad("block \(j): its piece flips no zone") }
                kx = Int(r.take(5))
                ky = Int(r.take(5))
                mkx = (1 << UInt64(kx)) - 1
                mky = (1 << UInt64(ky)) - 1
            }
            let head = r.take(14)
            let k = Int(head & 63) + 1
            let lo = Int((head >> 6) & 15), hi = Int(head >> 10)
            var w = Int(r.take(5))
            var x = ox + unzigzag(r.take(w))
            w = Int(r.take(5))
            var y = oy + unzigzag(r.take(w))
            px = x
            py = y
            guard onEarth(x, y) else { throw bad("block \(j): a vertex lies off the Earth") }
            if continues {
                guard x == lx, y == ly else { throw bad("block \(j) does not start where the block before ends") }
            }
            w = Int(r.take(5))
            let n = Int(r.take(w))
            let body = r.pos
            var minY = y, maxY = y
            var x1 = x, y1 = y
            var dx = 0, dy = 0
            for _ in 0..<k {
                dx += unzigzag(r.rice(kx, mkx))
                dy += unzigzag(r.rice(ky, mky))
                x += dx
                y += dy
                guard onEarth(x, y), r.pos <= limit else { throw bad("block \(j): a vertex lies off the Earth or past the record") }
                // The edge touches the closed box [x0 - 1, x0 + size] x [y0 - 1, y0 + size].
                guard 10 * Swift.max(x1, x) >= x0 - 1, 10 * Swift.min(x1, x) <= x0 + size,
                      10 * Swift.max(y1, y) >= y0 - 1, 10 * Swift.min(y1, y) <= y0 + size
                else { throw bad("block \(j): an edge lies outside its cell") }
                if 20 * Swift.min(x1, x) < xr2 && 20 * Swift.max(x1, x) > xr2 {
                    let t = Self.eastSideCrossing(10 * x1, 10 * y1, 10 * x, 10 * y, xr2)
                    if t > y0 && t < y0 + size { crossings.append((t, cm)) }
                }
                minY = Swift.min(minY, y)
                maxY = Swift.max(maxY, y)
                x1 = x
                y1 = y
            }
            guard r.pos - body == n else { throw bad("block \(j): its bit count \(n) is not the \(r.pos - body) its edges take") }
            guard sixteenth(minY) == lo, sixteenth(maxY) == hi else {
                throw bad("block \(j): its row span \(lo)...\(hi) is not its vertices' \(sixteenth(minY))...\(sixteenth(maxY))")
            }
            lx = x
            ly = y
        }
        guard r.pos <= limit else { throw bad("it runs past its end (byte \(end))") }
        // The rows' masks on the east side are what a lookup starts from: the stored crossings
        // must flip the same zones at the same rows as the edges do (compared as the XOR of the
        // masks at each row, rows whose flips cancel left out).
        crossings.sort { $0.t < $1.t }
        guard Self.sameFlips(stored, crossings) else {
            throw bad("its east-side crossings do not match its edges (\(nt) stored, \(crossings.count) from the edges)")
        }
    }

    /// Whether two lists of crossings, each in increasing rows, flip the same zones at the same
    /// rows: compared row by row as the XOR of each row's masks, rows whose flips cancel left out.
    static func sameFlips(_ a: [(t: Int, mask: UInt64)], _ b: [(t: Int, mask: UInt64)]) -> Bool {
        // The next row at or after `i` whose masks do not cancel, its XOR, and where it ends.
        func next(_ l: [(t: Int, mask: UInt64)], _ i: inout Int) -> (t: Int, mask: UInt64)? {
            while i < l.count {
                let t = l[i].t
                var m: UInt64 = 0
                while i < l.count && l[i].t == t {
                    m ^= l[i].mask
                    i += 1
                }
                if m != 0 { return (t, m) }
            }
            return nil
        }
        var i = 0, j = 0
        while true {
            let x = next(a, &i), y = next(b, &j)
            guard let x, let y else { return x == nil && y == nil }
            guard x.t == y.t, x.mask == y.mask else { return false }
        }
    }

    /// The row at which the edge (x1, y1)-(x2, y2) (1e-7 units, x1 != x2, crossing x = xr2 / 2)
    /// flips the parity of a ray cast east from x = xr2 / 2: the first row whose point on that
    /// line is on the edge's other side under the row rule (an edge counts on row y when y is in
    /// (min(y1, y2), max(y1, y2)], a point on it counts as west). tools/gen_timezones.py
    /// (thresholds) computes the same.
    static func eastSideCrossing(_ x1: Int, _ y1: Int, _ x2: Int, _ y2: Int, _ xr2: Int) -> Int {
        if y1 == y2 { return y1 + 1 }
        // y_c = y1 + (xr - x1)(y2 - y1) / (x2 - x1) = num / den, exactly.
        var num = 2 * Int128(y1) * Int128(x2 - x1) + Int128(xr2 - 2 * x1) * Int128(y2 - y1)
        var den = 2 * Int128(x2 - x1)
        if den < 0 {
            num = -num
            den = -den
        }
        var floor = num / den
        let exact = floor * den == num
        if !exact && num < 0 { floor -= 1 }
        if exact {
            let slopeUp = (y2 > y1) == (x2 > x1)
            return Int(slopeUp ? floor : floor + 1)
        }
        return Int(floor + 1)
    }
}
