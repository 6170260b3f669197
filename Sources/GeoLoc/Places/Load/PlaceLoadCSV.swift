#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The CSV (and TSV) loader: RFC 4180 records read straight from the bytes, each row handed to
// the place set builder as raw UTF-8 slices, so the hot path allocates nothing per field.

/// One field of a record: its content `p[start..<end]` (inside the quotes for a quoted field),
/// with `""` pairs still in it when `escaped`.
struct CSVField {
    var start: Int
    var end: Int
    var escaped: Bool
}

/// Reads records one at a time.
struct CSVReader {
    /// What was wrong with a record's syntax.
    enum Problem {
        case none
        case unterminatedQuote
        case textAfterQuote
    }

    let p: UnsafePointer<UInt8>
    let end: Int
    let delimiter: UInt8
    /// The next byte to read.
    var i: Int
    /// The 1-based line number of byte `i`.
    var line = 1
    /// The fields of the record last read.
    var fields: [CSVField] = []
    /// The delimiter and LF in every byte of a word, for `nextStop`.
    private let delimiters: UInt64
    private static let lineFeeds: UInt64 = 0x0A0A_0A0A_0A0A_0A0A

    init(_ p: UnsafePointer<UInt8>, start: Int, end: Int, delimiter: UInt8) {
        self.p = p
        self.i = start
        self.end = end
        self.delimiter = delimiter
        delimiters = 0x0101_0101_0101_0101 &* UInt64(delimiter)
        fields.reserveCapacity(16)
    }

    /// Reads the next record into `fields`. Returns nil at the end of the input, else the line
    /// the record starts on, its byte range and any syntax problem. A record with a problem
    /// ends at the end of the line its problem is on.
    mutating func next() -> (line: Int, start: Int, end: Int, problem: Problem)? {
        guard i < end else { return nil }
        fields.removeAll(keepingCapacity: true)
        let startLine = line
        let start = i
        let stop = delimiter
        while true {
            if p[i] == 34 {
                // Quoted: runs to the next quote that is not doubled.
                i += 1
                let contentStart = i
                var escaped = false
                var closed = false
                while i < end {
                    let b = p[i]
                    if b == 34 {
                        if i + 1 < end && p[i + 1] == 34 {
                            escaped = true
                            i += 2
                            continue
                        }
                        closed = true
                        break
                    }
                    if b == 10 { line += 1 }
                    i += 1
                }
                fields.append(CSVField(start: contentStart, end: i, escaped: escaped))
                guard closed else { return (startLine, start, i, .unterminatedQuote) }
                i += 1  // the closing quote
                if i == end { return (startLine, start, i, .none) }
                let b = p[i]
                if b == stop {
                    i += 1
                    if i == end {  // a delimiter ends the input: one more, empty field
                        fields.append(CSVField(start: i, end: i, escaped: false))
                        return (startLine, start, i, .none)
                    }
                    continue
                }
                if b == 10 {
                    i += 1
                    line += 1
                    return (startLine, start, i - 1, .none)
                }
                if b == 13 && (i + 1 == end || p[i + 1] == 10) {  // CRLF, or a CR that ends the input
                    let recordEnd = i
                    i = min(i + 2, end)
                    line += 1
                    return (startLine, start, recordEnd, .none)
                }
                // Text after the closing quote: the record is bad up to the end of this line.
                while i < end && p[i] != 10 { i += 1 }
                let recordEnd = i
                if i < end {
                    i += 1
                    line += 1
                }
                return (startLine, start, recordEnd, .textAfterQuote)
            }
            // Unquoted: runs to the delimiter or the end of the line; quotes inside are data.
            let fieldStart = i
            i = nextStop(from: i)
            if i < end && p[i] == stop {
                fields.append(CSVField(start: fieldStart, end: i, escaped: false))
                i += 1
                if i == end {
                    fields.append(CSVField(start: i, end: i, escaped: false))
                    return (startLine, start, i, .none)
                }
                continue
            }
            // LF or the end of the input; a CR before either belongs to the line break.
            var fieldEnd = i
            if fieldEnd > fieldStart && p[fieldEnd - 1] == 13 { fieldEnd -= 1 }
            fields.append(CSVField(start: fieldStart, end: fieldEnd, escaped: false))
            let recordEnd = i
            if i < end {
                i += 1
                line += 1
            }
            return (startLine, start, recordEnd, .none)
        }
    }

    /// The first delimiter or LF at or after `start`, or `end`. Eight bytes at a time: a byte
    /// equal to the one sought is zero after an XOR, and `(x - 0x01..) & ~x & 0x80..` marks
    /// the first zero byte exactly (later marks may be false, so only the lowest is used).
    @inline(__always)
    private func nextStop(from start: Int) -> Int {
        var j = start
        let raw = UnsafeRawPointer(p)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while j + 8 <= end {
            let w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: j, as: UInt64.self))
            let a = w ^ delimiters
            let b = w ^ CSVReader.lineFeeds
            let marks = ((a &- ones) & ~a | (b &- ones) & ~b) & highs
            if marks != 0 { return j + marks.trailingZeroBitCount >> 3 }
            j += 8
        }
        let d = delimiter
        while j < end && p[j] != d && p[j] != 10 { j += 1 }
        return j
    }

    /// Whether the record last read is a blank line.
    var isBlank: Bool {
        fields.count == 1 && fields[0].start == fields[0].end && !(fields[0].start > 0 && p[fields[0].start - 1] == 34)
    }

    /// A field's text, `""` pairs undone (for the header and for messages).
    func string(_ f: CSVField) -> String {
        guard f.escaped else { return utf8Text(p, f.start, f.end) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(f.end - f.start)
        var k = f.start
        while k < f.end {
            bytes.append(p[k])
            k += p[k] == 34 ? 2 : 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

enum CSVLoader {
    static func load(_ bytes: UnsafeRawBufferPointer, options: LoadOptions, source: String?) throws(GeoLocError) -> PlaceLoad {
        let at = source.map { $0 + ": " } ?? ""
        try options.admitBytes(bytes.count, at: at)
        if let d = options.delimiter, d >= 0x80 || d == 34 || d == 10 || d == 13 {
            throw GeoLocError(.invalidArgument, "the delimiter must be an ASCII byte other than '\"', CR and LF (got \(d))")
        }
        guard let base = bytes.baseAddress, bytes.count > 0 else { throw noHeader(at) }
        let p = base.assumingMemoryBound(to: UInt8.self)
        let end = bytes.count
        var start = 0
        if end >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF { start = 3 }

        let delimiter = options.delimiter ?? sniffDelimiter(p, start, end)
        var reader = CSVReader(p, start: start, end: end, delimiter: delimiter)

        // The header: the first record that is not a blank line.
        var headerRecord: (line: Int, start: Int, end: Int, problem: CSVReader.Problem)?
        while let r = reader.next() {
            if r.problem == .none && reader.isBlank { continue }
            headerRecord = r
            break
        }
        guard let h = headerRecord else { throw noHeader(at) }
        switch h.problem {
        case .unterminatedQuote:
            throw GeoLocError(.parse, "\(at)line \(h.line): the header has an unterminated quoted field")
        case .textAfterQuote:
            throw GeoLocError(.parse, "\(at)line \(h.line): the header has text after a closing quote")
        case .none: break
        }
        guard isValidUTF8(p, h.start, h.end) else {
            throw GeoLocError(.invalidUTF8, "\(at)line \(h.line): the header is not valid UTF-8")
        }
        if memchr(p + h.start, 0, h.end - h.start) != nil {
            throw GeoLocError(.parse, "\(at)line \(h.line): the header has a NUL byte")
        }
        let header = reader.fields.map { reader.string($0) }
        let columns = try CSVColumns(header: header, options: options, at: at)

        var builder = PlaceSetBuilder(attributeNames: columns.attributes.map { header[$0] })
        builder.reserveCapacity(min(estimatedRows(p, reader.i, end), max(options.maxPlaces, 0)))
        var log = IssueLog(options)
        let columnCount = header.count
        let attributeColumns = columns.attributes
        let attributes = UnsafeMutableBufferPointer<UnsafeRawBufferPointer?>.allocate(capacity: max(attributeColumns.count, 1))
        defer { attributes.deallocate() }
        let numberText = UnsafeMutablePointer<UInt8>.allocate(capacity: 24)
        defer { numberText.deallocate() }
        var scratch = CSVScratch()
        defer { scratch.release() }
        var recordNumber = 0

        while let r = reader.next() {
            if r.problem == .none && reader.isBlank { continue }
            recordNumber += 1
            try log.admitRecord(at: at)
            switch r.problem {
            case .unterminatedQuote:
                log.add(r.line, "has an unterminated quoted field")
                continue
            case .textAfterQuote:
                log.add(r.line, "has text after a closing quote")
                continue
            case .none: break
            }
            let fields = reader.fields
            if fields.count != columnCount {
                log.add(r.line, "has \(fields.count) field\(fields.count == 1 ? "" : "s"), the header has \(columnCount)")
                continue
            }
            if !isValidUTF8(p, r.start, r.end) {
                log.add(r.line, "is not valid UTF-8", code: .invalidUTF8)
                continue
            }
            if memchr(p + r.start, 0, r.end - r.start) != nil {
                log.add(r.line, "has a NUL byte")
                continue
            }
            let latField = fields[columns.latitude]
            let lonField = fields[columns.longitude]
            let lat: Double
            let lon: Double
            switch coordinate(latField, p) {
            case .value(let v): lat = v
            case let other:
                log.add(r.line, reason(other, "latitude", latField, reader))
                continue
            }
            switch coordinate(lonField, p) {
            case .value(let v): lon = v
            case let other:
                log.add(r.line, reason(other, "longitude", lonField, reader))
                continue
            }
            guard lat >= -90 && lat <= 90 else {
                log.add(r.line, "latitude \(show(lat)) is outside [-90, 90]")
                continue
            }
            guard log.accepting else { continue }

            // Raw slices for the builder; quoted fields with "" pairs are undone into scratch.
            scratch.reset(capacity: r.end - r.start)
            let id: UnsafeRawBufferPointer
            if let c = columns.id {
                id = scratch.bytes(fields[c], p)
            } else {
                id = decimalText(recordNumber, numberText)
            }
            let name = columns.name.map { scratch.bytes(fields[$0], p) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
            for (k, c) in attributeColumns.enumerated() {
                let f = fields[c]
                attributes[k] = f.start == f.end ? nil : scratch.bytes(f, p)
            }
            try options.admitPlace(after: builder.count, at: at)
            try builder.append(
                Coordinate(checkedLatitude: lat, longitude: lon), id: id, name: name,
                attributes: UnsafeBufferPointer(start: attributes.baseAddress, count: attributeColumns.count))
        }
        try log.check(source: source, where: { "line \($0)" }, noun: "row")
        return PlaceLoad(places: try builder.build(), issues: log.issues, issueTotal: log.total)
    }

    /// Empty or blank-only input has no latitude column either: the same error as any header
    /// without one.
    static func noHeader(_ at: String) -> GeoLocError {
        GeoLocError(.invalidArgument, "\(at)the input has no header row, so no latitude or longitude column")
    }

    /// A tab when the first line has a tab and no comma, else a comma.
    static func sniffDelimiter(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> UInt8 {
        var tab = false
        var comma = false
        var i = start
        while i < end && p[i] != 10 {
            if p[i] == 9 { tab = true } else if p[i] == 44 { comma = true }
            i += 1
        }
        return tab && !comma ? 9 : 44
    }

    /// About how many records follow: the line breaks left.
    static func estimatedRows(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var n = 0
        var i = start
        while i < end {
            guard let hit = memchr(p + i, 10, end - i) else { break }
            i = UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self) - p + 1
            n += 1
        }
        return n + 1
    }

    /// A coordinate field read as a strict decimal; a field with `""` in it is not a number.
    @inline(__always)
    static func coordinate(_ f: CSVField, _ p: UnsafePointer<UInt8>) -> DecimalRead {
        f.escaped ? .malformed : readDecimal(p, f.start, f.end)
    }

    static func reason(_ read: DecimalRead, _ what: String, _ f: CSVField, _ reader: CSVReader) -> String {
        switch read {
        case .empty: return "has no \(what)"
        case .infinite: return "\(what) \(reader.string(f)) is not finite"
        case .malformed, .value: return "\(what) \(quote(reader.string(f))) is not a decimal number"
        }
    }

    /// `n` in decimal, written into `buffer` (24 bytes).
    static func decimalText(_ n: Int, _ buffer: UnsafeMutablePointer<UInt8>) -> UnsafeRawBufferPointer {
        var k = 24
        var v = n
        repeat {
            k -= 1
            buffer[k] = UInt8(48 + v % 10)
            v /= 10
        } while v > 0
        return UnsafeRawBufferPointer(start: buffer + k, count: 24 - k)
    }
}

/// Where the columns of a header are.
struct CSVColumns {
    var latitude: Int
    var longitude: Int
    var id: Int?
    var name: Int?
    /// The other columns, in header order.
    var attributes: [Int]

    static let latitudeNames = ["lat", "latitude", "y"]
    static let longitudeNames = ["lon", "lng", "long", "longitude", "x"]
    static let idNames = ["id", "geonameid", "place_id"]
    static let nameNames = ["name", "title"]

    init(header: [String], options: LoadOptions, at: String) throws(GeoLocError) {
        var seen: Set<String> = []
        for name in header where !seen.insert(name).inserted {
            throw GeoLocError(.invalidArgument, "\(at)the header names the column \(quote(name)) twice")
        }
        var taken: [Int] = []
        func find(_ option: String?, _ optionName: String, _ usual: [String]) throws(GeoLocError) -> Int? {
            if let wanted = option {
                let hit = header.firstIndex(of: wanted)
                    ?? header.firstIndex { equalIgnoringASCIICase(String(trimmed($0)), wanted) }
                guard let i = hit else {
                    throw GeoLocError(
                        .invalidArgument,
                        "\(at)the header has no column \(quote(wanted)) (LoadOptions.\(optionName)); "
                            + "its columns are \(CSVColumns.list(header))")
                }
                if taken.contains(i) {
                    throw GeoLocError(
                        .invalidArgument, "\(at)the column \(quote(header[i])) is asked for twice (LoadOptions.\(optionName))")
                }
                taken.append(i)
                return i
            }
            for name in usual {
                let hit = header.indices.first { !taken.contains($0) && equalIgnoringASCIICase(String(trimmed(header[$0])), name) }
                if let i = hit {
                    taken.append(i)
                    return i
                }
            }
            return nil
        }
        guard let lat = try find(options.latitudeColumn, "latitudeColumn", CSVColumns.latitudeNames) else {
            throw GeoLocError(
                .invalidArgument,
                "\(at)the header has no latitude column (lat, latitude or y, or LoadOptions.latitudeColumn); "
                    + "its columns are \(CSVColumns.list(header))")
        }
        guard let lon = try find(options.longitudeColumn, "longitudeColumn", CSVColumns.longitudeNames) else {
            throw GeoLocError(
                .invalidArgument,
                "\(at)the header has no longitude column (lon, lng, long, longitude or x, or "
                    + "LoadOptions.longitudeColumn); its columns are \(CSVColumns.list(header))")
        }
        latitude = lat
        longitude = lon
        id = try find(options.idColumn, "idColumn", CSVColumns.idNames)
        name = try find(options.nameColumn, "nameColumn", CSVColumns.nameNames)
        attributes = header.indices.filter { !taken.contains($0) }
    }

    static func list(_ header: [String]) -> String {
        header.isEmpty ? "(none)" : header.map { quote($0) }.joined(separator: ", ")
    }
}

/// A growable byte buffer for fields whose `""` pairs must be undone. Slices handed out stay
/// valid until the next `reset`.
struct CSVScratch {
    private var base: UnsafeMutablePointer<UInt8>?
    private var capacity = 0
    private var used = 0

    /// Empties the buffer and makes room for `capacity` bytes.
    mutating func reset(capacity wanted: Int) {
        used = 0
        if wanted > capacity {
            base?.deallocate()
            capacity = max(wanted, 2 * capacity, 256)
            base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        }
    }

    /// The field's content: the input itself, or for an escaped field a copy without the
    /// doubled quotes (room for it was made by `reset`).
    @inline(__always)
    mutating func bytes(_ f: CSVField, _ p: UnsafePointer<UInt8>) -> UnsafeRawBufferPointer {
        guard f.escaped else { return UnsafeRawBufferPointer(start: p + f.start, count: f.end - f.start) }
        let out = base! + used
        var n = 0
        var k = f.start
        while k < f.end {
            out[n] = p[k]
            n += 1
            k += p[k] == 34 ? 2 : 1
        }
        used += n
        return UnsafeRawBufferPointer(start: out, count: n)
    }

    func release() { base?.deallocate() }
}
