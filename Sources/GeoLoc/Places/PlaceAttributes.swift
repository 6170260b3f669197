#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The attribute columns of a place set: each distinct value stored once per column (the column's
// dictionary), and per place one small value number. A gazetteer's country, region and county
// names repeat across thousands of places; this keeps one copy of each.

/// One attribute column: its distinct values, in order of first appearance, and the value number
/// of every place (0: the place has no value; j + 1: value j).
///
/// While places are appended the numbers are 32-bit and a hash table finds a value already
/// stored; `freeze()` (when the set is built) narrows the numbers to the fewest bytes that hold
/// them (1, 2 or 4: `width`) and frees the table. A column of a place file views the file's
/// arrays, in the same form (`PlaceFile.swift`).
struct AttributeColumn {
    /// The distinct values' UTF-8 bytes, one after another.
    var text: GrowableBuffer<UInt8>
    /// `ends[j]`: where value j ends in `text` (it starts at `ends[j - 1]`, 0 for the first).
    var ends: GrowableBuffer<UInt32>
    /// The places' value numbers, `width` bytes each (native byte order, little-endian in files).
    var numbers: UnsafeMutableRawPointer
    var width: Int
    /// Places numbered so far, and room for how many (at the current width).
    var count = 0
    var capacity: Int
    /// While appending: open addressing over value numbers (0 = empty slot), `mask + 1` slots.
    var slots: UnsafeMutablePointer<UInt32>?
    var mask = 0

    /// An empty column, ready to append to.
    init() {
        text = GrowableBuffer(capacity: 64)
        ends = GrowableBuffer(capacity: 16)
        capacity = 16
        width = 4
        numbers = .allocate(byteCount: 4 * capacity, alignment: 8)
        mask = 63
        slots = .allocate(capacity: mask + 1)
        slots.unsafelyUnwrapped.initialize(repeating: 0, count: mask + 1)
    }

    /// A read-only view of a file's column (checked by `PlaceFile`: every number at most
    /// `values`, the ends nondecreasing and ending at `textBytes`).
    init(viewingText text: UnsafePointer<UInt8>, textBytes: Int, ends: UnsafePointer<UInt32>, values: Int,
         numbers: UnsafeRawPointer, width: Int, count: Int) {
        self.text = GrowableBuffer(viewing: text, count: textBytes)
        self.ends = GrowableBuffer(viewing: ends, count: values)
        self.numbers = UnsafeMutableRawPointer(mutating: numbers)
        self.width = width
        self.count = count
        capacity = count
        slots = nil
    }

    /// The fewest bytes per number that hold the numbers 0...values.
    static func width(values: Int) -> Int {
        values <= 0xFF ? 1 : values <= 0xFFFF ? 2 : 4
    }

    /// Frees what the column owns (not for a file's view).
    func deallocate() {
        text.deallocate()
        ends.deallocate()
        numbers.deallocate()
        slots?.deallocate()
    }

    func copy() -> AttributeColumn {
        var c = AttributeColumn()
        c.text.deallocate()
        c.ends.deallocate()
        c.numbers.deallocate()
        c.slots?.deallocate()
        c.text = text.copy()
        c.ends = ends.copy()
        c.width = width
        c.count = count
        c.capacity = Swift.max(count, 16)
        c.numbers = .allocate(byteCount: width * c.capacity, alignment: 8)
        c.numbers.copyMemory(from: numbers, byteCount: width * count)
        if let slots {
            c.mask = mask
            c.slots = .allocate(capacity: mask + 1)
            c.slots.unsafelyUnwrapped.initialize(from: slots, count: mask + 1)
        } else {
            c.slots = nil
            c.mask = 0
        }
        return c
    }

    /// The number of distinct values.
    var values: Int { ends.count }

    /// The value number of place `i`.
    @inline(__always)
    func number(at i: Int) -> Int {
        switch width {
        case 1: return Int(numbers.load(fromByteOffset: i, as: UInt8.self))
        case 2: return Int(numbers.load(fromByteOffset: 2 * i, as: UInt16.self))
        default: return Int(numbers.load(fromByteOffset: 4 * i, as: UInt32.self))
        }
    }

    /// Value j's bytes.
    @inline(__always)
    func value(_ j: Int) -> UnsafeRawBufferPointer {
        let start = j == 0 ? 0 : Int(ends.base[j - 1])
        return UnsafeRawBufferPointer(start: text.base + start, count: Int(ends.base[j]) - start)
    }

    /// Place `i`'s value, `nil` when it has none.
    @inline(__always)
    func value(at i: Int) -> UnsafeRawBufferPointer? {
        let v = number(at: i)
        return v == 0 ? nil : value(v - 1)
    }

    /// Makes room for `n` more places (while appending).
    mutating func reserve(_ n: Int) {
        guard count + n > capacity else { return }
        let bigger = Swift.max(count + n, 2 * capacity)
        let p = UnsafeMutableRawPointer.allocate(byteCount: width * bigger, alignment: 8)
        p.copyMemory(from: numbers, byteCount: width * count)
        numbers.deallocate()
        numbers = p
        capacity = bigger
    }

    /// Appends the next place's value (`nil`: none). Only while appending (32-bit numbers).
    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer?) {
        let v = bytes.map { intern($0) } ?? 0
        if count == capacity { reserve(1) }
        numbers.storeBytes(of: UInt32(truncatingIfNeeded: v), toByteOffset: 4 * count, as: UInt32.self)
        count += 1
    }

    /// The number of `bytes` among the values (j + 1), stored first if new.
    mutating func intern(_ bytes: UnsafeRawBufferPointer) -> Int {
        if 2 * (values + 1) > mask + 1 { rehash(slots: 2 * (mask + 1)) }
        let table = slots.unsafelyUnwrapped
        var s = Int(truncatingIfNeeded: AttributeColumn.hash(bytes)) & mask
        while true {
            let v = Int(table[s])
            if v == 0 { break }
            let stored = value(v - 1)
            if stored.count == bytes.count && (bytes.count == 0 || memcmp(stored.baseAddress!, bytes.baseAddress!, bytes.count) == 0) {
                return v
            }
            s = (s + 1) & mask
        }
        text.reserve(bytes.count)
        if let from = bytes.baseAddress, bytes.count > 0 {
            UnsafeMutableRawPointer(text.base + text.count).copyMemory(from: from, byteCount: bytes.count)
            text.count += bytes.count
        }
        ends.append(UInt32(truncatingIfNeeded: text.count))
        table[s] = UInt32(truncatingIfNeeded: values)
        return values
    }

    private mutating func rehash(slots n: Int) {
        slots?.deallocate()
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
        table.initialize(repeating: 0, count: n)
        mask = n - 1
        for j in 0..<values {
            var s = Int(truncatingIfNeeded: AttributeColumn.hash(value(j))) & mask
            while table[s] != 0 { s = (s + 1) & mask }
            table[s] = UInt32(truncatingIfNeeded: j + 1)
        }
        slots = table
    }

    /// FNV-1a over the bytes, then a final mix (the table's index is the low bits).
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        h ^= h >> 29
        h = h &* 0xBF58_476D_1CE4_E5B9
        return h ^ (h >> 32)
    }

    /// Ends appending: the numbers narrowed to `width(values:)` bytes, the hash table freed.
    mutating func freeze() {
        slots?.deallocate()
        slots = nil
        mask = 0
        let w = AttributeColumn.width(values: values)
        guard w != width else { return }
        let p = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(w * count, 1), alignment: 8)
        for i in 0..<count {
            let v = numbers.load(fromByteOffset: 4 * i, as: UInt32.self)
            if w == 1 {
                p.storeBytes(of: UInt8(truncatingIfNeeded: v), toByteOffset: i, as: UInt8.self)
            } else {
                p.storeBytes(of: UInt16(truncatingIfNeeded: v), toByteOffset: 2 * i, as: UInt16.self)
            }
        }
        numbers.deallocate()
        numbers = p
        width = w
        capacity = count
    }
}
