#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The GeoJSON loader (RFC 7946): Point features of a FeatureCollection, or a single Feature,
// read from the tape of `JSONDocument`.

enum GeoJSONLoader {
    /// A feature that passed the checks.
    private struct Good {
        var index: Int
        var node: Int
        var properties: Int?
        var coordinate: Coordinate
    }

    /// Where the text of a value is: in the input, or in the arena of the current feature.
    private enum Slot {
        case none
        case input(start: Int, end: Int)
        case arena(start: Int, end: Int)
    }

    static func load(_ bytes: UnsafeRawBufferPointer, options: LoadOptions, source: String?) throws(GeoLocError) -> PlaceLoad {
        let at = source.map { $0 + ": " } ?? ""
        try options.admitBytes(bytes.count, at: at)
        let doc = try JSONDocument(bytes, source: source)
        let root = 0
        guard doc[root].kind == .object else {
            throw GeoLocError(
                .parse, "\(at)the document is \(kindName(doc[root].kind)), not a GeoJSON FeatureCollection or Feature")
        }
        guard let typeNode = doc.member(root, "type"), doc[typeNode].kind == .string else {
            throw GeoLocError(.parse, "\(at)the document has no \"type\"; expected a GeoJSON FeatureCollection or Feature")
        }
        var features: [Int] = []
        if doc.isString(typeNode, "FeatureCollection") {
            guard let list = doc.member(root, "features"), doc[list].kind == .array else {
                throw GeoLocError(.parse, "\(at)the FeatureCollection has no \"features\" array")
            }
            for (element, _) in doc.children(list) { features.append(element) }
        } else if doc.isString(typeNode, "Feature") {
            features = [root]
        } else {
            throw GeoLocError(
                .parse, "\(at)the document is a GeoJSON \(quote(doc.string(typeNode))), not a FeatureCollection or Feature")
        }

        // Pass 1: check every feature; collect the property names of the good ones in order.
        var log = IssueLog(options)
        var good: [Good] = []
        good.reserveCapacity(features.count)
        var keys = KeyTable()
        for (index, node) in features.enumerated() {
            try log.admitRecord(at: at)
            switch check(doc, node, index) {
            case .failure(let problem):
                log.add(index, problem.reason)
            case .success(let feature):
                good.append(feature)
                if let properties = feature.properties {
                    for (position, (k, _)) in doc.children(properties).enumerated() {
                        _ = keys.id(doc, k, position: position)
                    }
                }
            }
        }
        try log.check(source: source, where: { "feature \($0)" }, noun: "feature")
        if good.count > 0 { try options.admitPlace(after: good.count - 1, at: at) }

        // The properties used as name and id are not attributes.
        let nameKey = options.nameColumn ?? (keys.index["name"] != nil ? "name" : keys.index["title"] != nil ? "title" : nil)
        let idKey = options.idColumn
        // What each key is: -1 the name, -2 the id, else the attribute column.
        let nameRole = -1
        let idRole = -2
        var roles: [Int] = []
        var names: [String] = []
        for key in keys.keys {
            if key == nameKey {
                roles.append(nameRole)
            } else if key == idKey {
                roles.append(idRole)
            } else {
                roles.append(names.count)
                names.append(key)
            }
        }

        // Pass 2: hand the good features to the builder.
        var builder = PlaceSetBuilder(attributeNames: names)
        builder.reserveCapacity(good.count)
        var arena: [UInt8] = []
        var slots = [Slot](repeating: .none, count: names.count)
        var seen = [Bool](repeating: false, count: names.count)  // a repeated key keeps its first value
        let pointers = UnsafeMutableBufferPointer<UnsafeRawBufferPointer?>.allocate(capacity: max(names.count, 1))
        defer { pointers.deallocate() }
        var failure: GeoLocError?
        for feature in good {
            arena.removeAll(keepingCapacity: true)
            for k in slots.indices {
                slots[k] = .none
                seen[k] = false
            }
            var nameSlot = Slot.none
            var idSlot = Slot.none
            var nameSeen = false
            var idSeen = false
            if let properties = feature.properties {
                for (position, (k, v)) in doc.children(properties).enumerated() {
                    let role = roles[keys.id(doc, k, position: position)]
                    if role == nameRole {
                        if !nameSeen { nameSlot = value(doc, v, &arena) }
                        nameSeen = true
                    } else if role == idRole {
                        if !idSeen, doc[v].kind == .string || doc[v].kind == .number { idSlot = value(doc, v, &arena) }
                        idSeen = true
                    } else if !seen[role] {
                        slots[role] = value(doc, v, &arena)
                        seen[role] = true
                    }
                }
            }
            // The id: the property named by options.idColumn when the feature has it, else the
            // feature's "id" member, else the feature index.
            if case .none = idSlot, let id = doc.member(feature.node, "id"),
                doc[id].kind == .string || doc[id].kind == .number {
                idSlot = value(doc, id, &arena)
            }
            if case .none = idSlot {
                let start = arena.count
                arena.append(contentsOf: String(feature.index).utf8)
                idSlot = .arena(start: start, end: arena.count)
            }
            arena.withUnsafeBytes { arenaBytes in
                let a = arenaBytes.baseAddress
                let p = UnsafeRawPointer(doc.p)
                func bytes(_ s: Slot) -> UnsafeRawBufferPointer? {
                    switch s {
                    case .none: return nil
                    case let .input(start, end): return UnsafeRawBufferPointer(start: p + start, count: end - start)
                    case let .arena(start, end): return UnsafeRawBufferPointer(start: a! + start, count: end - start)
                    }
                }
                for k in slots.indices { pointers[k] = bytes(slots[k]) }
                let empty = UnsafeRawBufferPointer(start: nil, count: 0)
                do throws(GeoLocError) {
                    try builder.append(
                        feature.coordinate, id: bytes(idSlot) ?? empty, name: bytes(nameSlot) ?? empty,
                        attributes: UnsafeBufferPointer(start: pointers.baseAddress, count: slots.count))
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
        }
        return PlaceLoad(places: try builder.build(), issues: log.issues, issueTotal: log.total)
    }

    /// A value as attribute text: a string as it is, a number or boolean as written, an object
    /// or array as compact JSON; nil (`.none`) for null.
    private static func value(_ doc: JSONDocument, _ node: Int, _ arena: inout [UInt8]) -> Slot {
        let n = doc[node]
        switch n.kind {
        case .null:
            return .none
        case .string where !n.escaped, .number, .true, .false:
            return .input(start: Int(n.start), end: Int(n.end))
        case .string:
            let start = arena.count
            doc.appendString(node, to: &arena)
            return .arena(start: start, end: arena.count)
        case .array, .object:
            let start = arena.count
            doc.appendCompact(node, to: &arena)
            return .arena(start: start, end: arena.count)
        }
    }

    /// Checks a feature: a Feature object with a Point geometry at a valid position and
    /// properties that are an object or null.
    private static func check(_ doc: JSONDocument, _ node: Int, _ index: Int) -> Result<Good, FeatureProblem> {
        func bad(_ reason: String) -> Result<Good, FeatureProblem> { .failure(FeatureProblem(reason: reason)) }
        guard doc[node].kind == .object else { return bad("is \(kindName(doc[node].kind)), not a Feature object") }
        guard let type = doc.member(node, "type") else { return bad("has no \"type\"") }
        guard doc.isString(type, "Feature") else {
            return bad("has the type \(shownValue(doc, type)), not \"Feature\"")
        }
        guard let geometry = doc.member(node, "geometry") else { return bad("has no geometry") }
        switch doc[geometry].kind {
        case .null: return bad("has a null geometry")
        case .object: break
        case let kind: return bad("has a geometry that is \(kindName(kind)), not an object")
        }
        guard let gtype = doc.member(geometry, "type") else { return bad("has a geometry without a \"type\"") }
        guard doc.isString(gtype, "Point") else {
            return bad("has a \(shownValue(doc, gtype)) geometry, not a Point")
        }
        guard let position = doc.member(geometry, "coordinates"), doc[position].kind == .array else {
            return bad("has a Point without a \"coordinates\" array")
        }
        var numbers: [Int] = []
        for (e, _) in doc.children(position) {
            numbers.append(e)
            if numbers.count == 2 { break }
        }
        guard numbers.count == 2, doc[numbers[0]].kind == .number, doc[numbers[1]].kind == .number else {
            return bad("has Point coordinates that are not [longitude, latitude] numbers")
        }
        var values: [Double] = []
        for (k, what) in [(numbers[1], "latitude"), (numbers[0], "longitude")] {
            switch readDecimal(doc.p, Int(doc[k].start), Int(doc[k].end)) {
            case .value(let v): values.append(v)
            case .infinite: return bad("has a \(what) \(doc.rawText(k)) that is not finite")
            case .empty, .malformed: return bad("has a \(what) \(doc.rawText(k)) that is not a number")
            }
        }
        let (lat, lon) = (values[0], values[1])
        guard lat >= -90 && lat <= 90 else { return bad("has a latitude \(show(lat)) outside [-90, 90]") }
        var properties: Int?
        if let props = doc.member(node, "properties") {
            switch doc[props].kind {
            case .object: properties = props
            case .null: break
            case let kind: return bad("has properties that are \(kindName(kind)), not an object")
            }
        }
        let coordinate = Coordinate(checkedLatitude: lat, longitude: lon)
        return .success(Good(index: index, node: node, properties: properties, coordinate: coordinate))
    }

    /// The property names seen, each with a small number; a name at the same position as in the
    /// feature before is recognised by its bytes, without hashing.
    private struct KeyTable {
        var index: [String: Int] = [:]
        var keys: [String] = []
        private var recent: [(start: Int, count: Int, id: Int)] = []

        mutating func id(_ doc: JSONDocument, _ node: Int, position: Int) -> Int {
            let n = doc[node]
            let start = Int(n.start)
            let count = Int(n.end - n.start)
            if !n.escaped, position < recent.count {
                let r = recent[position]
                if r.count == count && (count == 0 || memcmp(doc.p + start, doc.p + r.start, count) == 0) { return r.id }
            }
            let key = doc.string(node)
            let id: Int
            if let known = index[key] {
                id = known
            } else {
                id = keys.count
                index[key] = id
                keys.append(key)
            }
            if !n.escaped {
                if position < recent.count {
                    recent[position] = (start, count, id)
                } else if position == recent.count && position < 256 {
                    recent.append((start, count, id))
                }
            }
            return id
        }
    }

    private struct FeatureProblem: Error {
        var reason: String
    }

    /// A string value quoted, anything else named by its kind.
    private static func shownValue(_ doc: JSONDocument, _ node: Int) -> String {
        doc[node].kind == .string ? quote(doc.string(node)) : kindName(doc[node].kind)
    }

    static func kindName(_ kind: JSONKind) -> String {
        switch kind {
        case .null: return "null"
        case .true, .false: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
