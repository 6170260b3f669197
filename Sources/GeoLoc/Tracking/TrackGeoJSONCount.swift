// Counting a GeoJSON track's positions before it is parsed, so that `maxRecords` bounds the
// memory of a load and not only its output: `readGeoJSON` builds a token document of the whole
// input (about twice its size) before it reaches its first position, so a 50 MB file refused at
// 1,000 positions would otherwise cost 150 MB first.
//
// The count is one pass over the bytes, a chunk at a time (a file is read through a 64 KiB
// buffer, never whole), with a few dozen bytes of state: the containers on the paths the reader
// looks at (the root; its `geometry`; its `features` and each one's `geometry`; a geometry's
// `coordinates` and their members), the first `type`, `coordinates`, `geometry` and `features`
// member of each (as `JSONDocument.member` takes the first), and a depth for everything else.
// It counts what `readGeoJSON` admits as records: a Point's one position, a LineString's
// members, a MultiLineString's members' members (every member an array), in the geometries the
// root's type selects (the root itself, its `geometry`, or each feature's). It never counts more
// than the reader would: a name written with escapes, a type it does not know, or malformed
// JSON count nothing (the reader then refuses or counts them itself), so a file is refused here
// only when the reader would refuse it too, for its positions or for an error that comes
// first in the file.

struct GeoJSONPositionCount {
    /// What a container on a path the reader looks at is.
    private enum Role: UInt8 {
        case root, features, feature, geometry, coordinates, line, other
    }
    /// Which geometry a tracked geometry object is: the root itself, the root's `geometry`, or a
    /// feature's of the root's `features`.
    private enum Place: Int { case bare = 0, feature = 1, collection = 2 }
    /// What a geometry's `type` names.
    private enum Kind: UInt8 { case unknown, point, line, multiLine, other }
    /// Member names (bits of `seen`) and `type` values the count reads.
    private enum Name: UInt8 { case none, type, coordinates, geometry, features }

    private struct Frame {
        var role: Role
        /// The tracked geometry this container belongs to (geometry, coordinates and line).
        var place: Place = .bare
        var object = false
        var expectKey = false
        var seen: UInt8 = 0
        var key: Name = .none
    }

    /// The geometry being read at each place: its type and counts.
    private struct Geometry {
        var kind: Kind = .unknown
        var hasCoordinates = false
        var members = 0
        var membersOfMembers = 0
        var allMembersArrays = true
        /// Positions the reader would admit for this geometry, as far as known.
        var records: Int {
            switch kind {
            case .point: return hasCoordinates ? 1 : 0
            case .line: return members
            case .multiLine: return allMembersArrays ? membersOfMembers : 0
            case .unknown, .other: return 0
            }
        }
    }

    /// The root's type: a FeatureCollection, a Feature, or (anything else) a bare geometry;
    /// `opaque`: written with escapes, not counted.
    private enum RootKind { case unknown, collection, feature, geometry, opaque }

    private var stack: [Frame] = []
    /// Containers below a container the count does not look into.
    private var untracked = 0
    private var geometries = [Geometry](repeating: Geometry(), count: 3)
    /// Positions of the collection's closed feature geometries.
    private var collectionDone = 0
    private var rootKind = RootKind.unknown
    private var rootOpen = false

    // The lexical state, kept across chunks.
    private var inString = false
    private var escape = false
    private var inScalar = false
    /// The first bytes of the string being read when it may be a name or type the count reads.
    private var text: [UInt8] = []
    private var capturing = false
    /// The string being read holds an escape: the reader decodes it, so it may name anything.
    private var escaped = false

    let limit: Int

    init(limit: Int) {
        self.limit = limit
        stack.reserveCapacity(8)
        text.reserveCapacity(24)
    }

    /// The positions the reader would admit, as far as the bytes seen so far tell.
    var count: Int {
        switch rootKind {
        case .collection: return collectionDone + geometries[Place.collection.rawValue].records
        case .feature: return geometries[Place.feature.rawValue].records
        case .geometry: return geometries[Place.bare.rawValue].records
        case .unknown, .opaque: return 0
        }
    }

    /// Whether the positions seen so far are more than `limit`.
    var exceeded: Bool { count > limit }

    /// Reads the next bytes of the document; returns `true` once the count is past the limit.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let p = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return exceeded }
        let n = bytes.count
        var i = 0
        while i < n {
            let c = p[i]
            i += 1
            if inString {
                if escape {
                    escape = false
                } else if c == UInt8(ascii: "\\") {
                    escape = true
                    escaped = true
                } else if c == UInt8(ascii: "\"") {
                    inString = false
                    endString()
                } else if capturing {
                    if text.count < 24 { text.append(c) } else { capturing = false; text.removeAll(keepingCapacity: true) }
                }
                continue
            }
            if inScalar {
                switch c {
                case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: " "), UInt8(ascii: "\t"),
                    UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ":"), UInt8(ascii: "\""), UInt8(ascii: "["),
                    UInt8(ascii: "{"):
                    inScalar = false
                default: continue
                }
            }
            switch c {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                break
            case UInt8(ascii: ","):
                if untracked == 0, !stack.isEmpty, stack[stack.count - 1].object {
                    stack[stack.count - 1].expectKey = true
                    stack[stack.count - 1].key = .none
                }
            case UInt8(ascii: ":"):
                if untracked == 0, !stack.isEmpty { stack[stack.count - 1].expectKey = false }
            case UInt8(ascii: "\""):
                inString = true
                startString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                open(object: c == UInt8(ascii: "{"))
                if exceeded { return true }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                close()
                if exceeded { return true }
            default:
                inScalar = true
                value(scalar: true)
                if exceeded { return true }
            }
        }
        return exceeded
    }

    // MARK: values

    /// Whether the string starting now is a member name of a tracked object.
    private var atKey: Bool {
        untracked == 0 && !stack.isEmpty && stack[stack.count - 1].object && stack[stack.count - 1].expectKey
    }

    private mutating func startString() {
        text.removeAll(keepingCapacity: true)
        escaped = false
        if atKey {
            capturing = true
            return
        }
        // A value: a `type` of a tracked geometry (or of the root) is read.
        capturing = untracked == 0 && !stack.isEmpty && stack[stack.count - 1].object
            && stack[stack.count - 1].key == .type
        value(scalar: false)
    }

    private mutating func endString() {
        defer { capturing = false }
        guard untracked == 0, !stack.isEmpty else { return }
        let top = stack.count - 1
        if stack[top].object && stack[top].expectKey {
            // A member name: the first of each name the count reads.
            var name = Name.none
            if escaped {
                // It may be any name the count reads: the first of each is taken, so none of
                // them is counted in this object any more (counting less is safe, more is not).
                stack[top].seen = 0xFF
                stack[top].key = .none
                stack[top].expectKey = false
                return
            }
            if capturing {
                switch text {
                case Array("type".utf8): name = .type
                case Array("coordinates".utf8): name = .coordinates
                case Array("geometry".utf8): name = .geometry
                case Array("features".utf8): name = .features
                default: break
                }
            }
            if name != .none {
                let bit = UInt8(1) << name.rawValue
                if stack[top].seen & bit != 0 { name = .none } else { stack[top].seen |= bit }
            }
            stack[top].key = name
            stack[top].expectKey = false
            return
        }
        guard capturing, stack[top].key == .type else { return }
        let role = stack[top].role
        if escaped {
            // A type written with escapes: counted as nothing.
            if role == .root { rootKind = .opaque }
            if role == .root || role == .geometry {
                geometries[(role == .root ? Place.bare : stack[top].place).rawValue].kind = .other
            }
            return
        }
        if role == .root {
            switch text {
            case Array("FeatureCollection".utf8): rootKind = .collection
            case Array("Feature".utf8): rootKind = .feature
            default: rootKind = .geometry
            }
        }
        if role == .root || role == .geometry {
            let place = role == .root ? Place.bare : stack[top].place
            switch text {
            case Array("Point".utf8): geometries[place.rawValue].kind = .point
            case Array("LineString".utf8): geometries[place.rawValue].kind = .line
            case Array("MultiLineString".utf8): geometries[place.rawValue].kind = .multiLine
            default: geometries[place.rawValue].kind = .other
            }
        }
    }

    /// A value starts (`scalar`: a number, true, false or null; otherwise a string); containers
    /// go through `open`. Counts the members of coordinates and lines.
    private mutating func value(scalar: Bool) {
        guard untracked == 0, let top = stack.last else {
            if stack.isEmpty && untracked == 0 && rootKind == .unknown { rootKind = .geometry }
            return
        }
        switch top.role {
        case .coordinates:
            geometries[top.place.rawValue].members += 1
            geometries[top.place.rawValue].allMembersArrays = false
        case .line:
            geometries[top.place.rawValue].membersOfMembers += 1
        default:
            break
        }
        _ = scalar
    }

    private mutating func open(object: Bool) {
        if untracked > 0 {
            untracked += 1
            return
        }
        guard let top = stack.last else {
            if object && !rootOpen {
                rootOpen = true
                stack.append(Frame(role: .root, object: true, expectKey: true))
            } else {
                // Not an object, or a second document: the reader refuses it.
                rootKind = rootKind == .unknown ? .geometry : rootKind
                untracked = 1
            }
            return
        }
        var role = Role.other
        var place = top.place
        switch (top.role, top.key, object) {
        case (.root, .features, false):
            role = .features
        case (.root, .geometry, true):
            role = .geometry
            place = .feature
            geometries[Place.feature.rawValue] = Geometry()
        case (.features, _, true):
            role = .feature
        case (.feature, .geometry, true):
            role = .geometry
            place = .collection
            geometries[Place.collection.rawValue] = Geometry()
        case (.root, .coordinates, false):
            role = .coordinates
            place = .bare
            geometries[Place.bare.rawValue].hasCoordinates = true
        case (.geometry, .coordinates, false):
            role = .coordinates
            geometries[place.rawValue].hasCoordinates = true
        case (.coordinates, _, _):
            geometries[place.rawValue].members += 1
            if object { geometries[place.rawValue].allMembersArrays = false } else { role = .line }
        case (.line, _, _):
            geometries[place.rawValue].membersOfMembers += 1
        default:
            break
        }
        if role == .other {
            untracked = 1
            return
        }
        stack.append(Frame(role: role, place: place, object: object, expectKey: object))
    }

    private mutating func close() {
        if untracked > 0 {
            untracked -= 1
            return
        }
        guard let top = stack.popLast() else { return }
        if top.role == .geometry && top.place == .collection {
            // A feature's geometry is done: its positions join the collection's.
            collectionDone += geometries[Place.collection.rawValue].records
            geometries[Place.collection.rawValue] = Geometry()
        }
    }

    // MARK: inputs

    /// Whether `size` bytes could hold more than `limit` positions (a position takes at least
    /// two bytes: `0,`), so that counting them can refuse the input.
    static func worthCounting(size: Int, limit: Int) -> Bool { limit < size / 2 }

    /// The error of too many positions: `IssueLog.admitRecord`'s.
    static func tooMany(at: String, limit: Int) -> GeoLocError {
        GeoLocError(.countTooLarge, "\(at)the input has more records than the load allows (max_records \(limit))")
    }

    /// Whether `bytes` hold more than `limit` positions (see the top of the file).
    static func exceeds(_ bytes: UnsafeRawBufferPointer, limit: Int) -> Bool {
        var counter = GeoJSONPositionCount(limit: limit)
        return counter.feed(bytes)
    }

    /// Whether the file at `path` holds more than `limit` positions, read 64 KiB at a time.
    /// - Throws: the errors of `RegularFile`.
    /// A file of more than `maxBytes` is left to the load to refuse (false). `counted`: the
    /// bytes read (a file that changes before it is loaded is counted again from memory).
    static func exceeds(file path: String, limit: Int, maxBytes: Int, counted: inout Int) throws(GeoLocError) -> Bool {
        counted = -1
        let file = try RegularFile(path: path)
        defer { file.close() }
        guard file.size <= maxBytes, worthCounting(size: file.size, limit: limit) else { return false }
        counted = 0
        let size = 1 << 16
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var counter = GeoJSONPositionCount(limit: limit)
        while true {
            let got = try file.read(buffer, size)
            if got <= 0 { return counter.exceeded }
            counted += got
            if counter.feed(UnsafeRawBufferPointer(start: buffer, count: got)) { return true }
        }
    }
}
