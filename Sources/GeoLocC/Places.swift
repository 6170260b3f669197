// The C ABI of place sets (Sources/GeoLoc/Places): creating, loading, saving, opening and reading
// sets. Their queries and regions are in Places+Queries.swift. Every function checks its
// arguments, calls the core, and maps every error to a status.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CGeoLoc
@_spi(CABI) import GeoLoc

// MARK: - Creating and loading

@c @implementation
public func geoloc_places_create(
    _ coords: UnsafePointer<geoloc_coord>?, _ ids: UnsafePointer<UnsafePointer<CChar>?>?,
    _ names: UnsafePointer<UnsafePointer<CChar>?>?, _ n: Int,
    _ attrNames: UnsafePointer<UnsafePointer<CChar>?>?, _ nAttrs: Int,
    _ attrValues: UnsafePointer<UnsafePointer<CChar>?>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    create(out, .places) { () throws(GeoLocError) in
        let n = try inputArray(coords, n, "coords").count
        let k = try inputArray(attrNames, nAttrs, "attr_names", count: "n_attrs").count
        let (total, overflow) = n.multipliedReportingOverflow(by: k)
        if overflow || total > maxCount {
            throw GeoLocError(.countTooLarge, "n * n_attrs (\(n) * \(k)) is larger than \(maxCount)")
        }
        var attributeNames: [String] = []
        attributeNames.reserveCapacity(k)
        for j in 0..<k {
            guard let s = try optionalText(attrNames![j], "attr_names[\(j)]") else {
                throw GeoLocError(.nullArgument, "attr_names[\(j)] is NULL")
            }
            attributeNames.append(s)
        }
        // Every coordinate checked first (the first bad one named), without a copy of them.
        let latLon = degrees(coords, n)
        for i in 0..<n {
            do throws(GeoLocError) {
                _ = try Coordinate(latitude: latLon[2 * i], longitude: latLon[2 * i + 1])
            } catch {
                throw GeoLocError(error.code, "coords[\(i)]: \(error.message)")
            }
        }
        // Without ids, a place's id is its 1-based number: not stored, nor made.
        var builder = PlaceSetBuilder(attributeNames: attributeNames, numberedIDs: ids == nil)
        builder.reserveCapacity(n)
        var values = [String?](repeating: nil, count: k)
        for i in 0..<n {
            let id = ids == nil ? "" : try optionalText(ids?[i], "ids[\(i)]") ?? String(i + 1)
            let name = try optionalText(names?[i], "names[\(i)]") ?? ""
            if let attrValues {
                for j in 0..<k {
                    values[j] = try optionalText(attrValues[i * k + j], "attr_values[\(i * k + j)]")
                }
            }
            try builder.append(
                Coordinate(latitude: latLon[2 * i], longitude: latLon[2 * i + 1]), id: id, name: name, attributes: values)
        }
        return PlacesHandle(try builder.build())
    }
}

/// geoloc_load_format.
private enum Format: Int32 { case csv = 0, geoJSON = 1 }

private func format(_ f: geoloc_load_format) throws(GeoLocError) -> Format {
    try decode(f.rawValue, as: Format.self, "format")
}

/// A place set loaded from `source` in the format `format` gives (checked after the source).
private func load(
    _ source: LoadSource, _ format: () throws(GeoLocError) -> Format, _ options: UnsafePointer<geoloc_load_options>?,
    _ limits: UnsafePointer<geoloc_load_limits>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    load(source, out, .places) { () throws(GeoLocError) in
        (try format(), try loadOptions(options, limits))
    } parse: { (input, f) throws(GeoLocError) in
        let (format, o) = f
        let r = switch (format, input) {
        case (.csv, .file(let path)): try PlaceSet.load(csvFile: path, options: o)
        case (.csv, .bytes(let bytes)): try PlaceSet.load(csv: bytes, options: o)
        case (.geoJSON, .file(let path)): try PlaceSet.load(geoJSONFile: path, options: o)
        case (.geoJSON, .bytes(let bytes)): try PlaceSet.load(geoJSON: bytes, options: o)
        }
        return PlacesHandle(r.places, issues: r.issues, issueTotal: r.issueTotal)
    }
}

@c @implementation
public func geoloc_places_load_limited(
    _ path: UnsafePointer<CChar>?, _ f: geoloc_load_format, _ options: UnsafePointer<geoloc_load_options>?,
    _ limits: UnsafePointer<geoloc_load_limits>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    load(.file(path), { () throws(GeoLocError) in try format(f) }, options, limits, out)
}

@c @implementation
public func geoloc_places_parse_limited(
    _ text: UnsafePointer<CChar>?, _ len: Int, _ f: geoloc_load_format, _ options: UnsafePointer<geoloc_load_options>?,
    _ limits: UnsafePointer<geoloc_load_limits>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    load(.text(text, len), { () throws(GeoLocError) in try format(f) }, options, limits, out)
}

@c @implementation
public func geoloc_places_load_csv(
    _ path: UnsafePointer<CChar>?, _ options: UnsafePointer<geoloc_load_options>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    load(.file(path), { .csv }, options, nil, out)
}

@c @implementation
public func geoloc_places_parse_csv(
    _ text: UnsafePointer<CChar>?, _ len: Int, _ options: UnsafePointer<geoloc_load_options>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    load(.text(text, len), { .csv }, options, nil, out)
}

@c @implementation
public func geoloc_places_load_geojson(
    _ path: UnsafePointer<CChar>?, _ options: UnsafePointer<geoloc_load_options>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    load(.file(path), { .geoJSON }, options, nil, out)
}

@c @implementation
public func geoloc_places_parse_geojson(
    _ text: UnsafePointer<CChar>?, _ len: Int, _ options: UnsafePointer<geoloc_load_options>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    load(.text(text, len), { .geoJSON }, options, nil, out)
}

@c @implementation
public func geoloc_places_save(_ places: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> geoloc_status {
    withHandle(places, .places, as: PlacesHandle.self, "places") { (h) throws(GeoLocError) in
        let file = try readText(path, "path")
        if file.isEmpty { throw GeoLocError(.invalidArgument, "path is empty") }
        try h.set.save(to: file)
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_places_open(_ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> geoloc_status {
    create(out, .places) { () throws(GeoLocError) in
        let file = try readText(path, "path")
        return PlacesHandle(try PlaceSet.open(file))
    }
}

@c @implementation
public func geoloc_places_destroy(_ places: OpaquePointer?) {
    release(places, .places, "places")
}

// MARK: - Reading a set

@c @implementation
public func geoloc_places_count(_ places: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?) -> geoloc_status {
    answer(places, .places, as: PlacesHandle.self, "places", count, "count") { $0.set.count }
}

@c @implementation
public func geoloc_places_issue_count(_ places: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?) -> geoloc_status {
    issueCount(places, .places, as: PlacesHandle.self, "places", count)
}

@c @implementation
public func geoloc_places_issue_total(_ places: OpaquePointer?, _ total: UnsafeMutablePointer<Int>?) -> geoloc_status {
    issueTotal(places, .places, as: PlacesHandle.self, "places", total)
}

@c @implementation
public func geoloc_places_issue(
    _ places: OpaquePointer?, _ i: Int, _ record: UnsafeMutablePointer<Int>?, _ buf: UnsafeMutablePointer<CChar>?,
    _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    issue(places, .places, as: PlacesHandle.self, "places", i, record, buf, cap, needed)
}

@c @implementation
public func geoloc_places_coord(
    _ places: OpaquePointer?, _ i: Int, _ out: UnsafeMutablePointer<geoloc_coord>?
) -> geoloc_status {
    withHandle(places, .places, as: PlacesHandle.self, "places") { (h) throws(GeoLocError) in
        let out = try required(out, "out")
        let c = h.set.coordinate(at: try index(i, h.set.count, "place"))
        try deliver(geoloc_coord(lat: c.latitude, lon: c.longitude), to: out, "out")
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_places_coords(
    _ places: OpaquePointer?, _ out: UnsafeMutablePointer<geoloc_coord>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    withHandle(places, .places, as: PlacesHandle.self, "places") { (h) throws(GeoLocError) in
        let results = try CallerArray(out, cap, count, needed: "count")
        return try results.fill(h.set.count, partial: true, "the set has \(h.set.count) places") {
            let c = h.set.coordinate(at: $0)
            return geoloc_coord(lat: c.latitude, lon: c.longitude)
        }
    }
}

/// The common shape of the text accessors of a place.
private func placeText(
    _ places: OpaquePointer?, _ i: Int, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?, _ text: (PlaceSet, Int) -> String
) -> geoloc_status {
    withHandle(places, .places, as: PlacesHandle.self, "places") { (h) throws(GeoLocError) in
        try outputBuffer(buf, cap, needed)
        let i = try index(i, h.set.count, "place")
        return writeText(text(h.set, i), buf, cap, needed)
    }
}

@c @implementation
public func geoloc_places_id(
    _ places: OpaquePointer?, _ i: Int, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    placeText(places, i, buf, cap, needed) { $0.id(at: $1) }
}

@c @implementation
public func geoloc_places_name(
    _ places: OpaquePointer?, _ i: Int, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    placeText(places, i, buf, cap, needed) { $0.name(at: $1) }
}

/// The common shape of the bulk text accessors: the texts of places first..<first + count, each
/// NUL-terminated, one after another.
private func placeTexts(
    _ places: OpaquePointer?, _ first: Int, _ count: Int, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?, _ text: (PlaceSet, Int) -> String
) -> geoloc_status {
    withHandle(places, .places, as: PlacesHandle.self, "places") { (h) throws(GeoLocError) in
        try outputBuffer(buf, cap, needed)
        let count = try checkCount(count, "count")
        let n = h.set.count
        guard first >= 0 && first <= n && count <= n - first else {
            throw GeoLocError(
                .outOfRange, "first \(UInt(bitPattern: first)) + count \(count) is beyond the set of \(n) places")
        }
        return writeTexts(count, { text(h.set, first + $0) }, buf, cap, needed)
    }
}

@c @implementation
public func geoloc_places_ids(
    _ places: OpaquePointer?, _ first: Int, _ count: Int, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    placeTexts(places, first, count, buf, cap, needed) { $0.id(at: $1) }
}

@c @implementation
public func geoloc_places_names(
    _ places: OpaquePointer?, _ first: Int, _ count: Int, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    placeTexts(places, first, count, buf, cap, needed) { $0.name(at: $1) }
}

@c @implementation
public func geoloc_places_attribute_count(_ places: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?) -> geoloc_status {
    answer(places, .places, as: PlacesHandle.self, "places", count, "count") { $0.set.attributeNames.count }
}

@c @implementation
public func geoloc_places_attribute_name(
    _ places: OpaquePointer?, _ j: Int, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    withHandle(places, .places, as: PlacesHandle.self, "places") { (h) throws(GeoLocError) in
        try outputBuffer(buf, cap, needed)
        let names = h.set.attributeNames
        return writeText(names[try index(j, names.count, "attribute")], buf, cap, needed)
    }
}

@c @implementation
public func geoloc_places_attribute(
    _ places: OpaquePointer?, _ i: Int, _ name: UnsafePointer<CChar>?, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    withHandle(places, .places, as: PlacesHandle.self, "places") { (h) throws(GeoLocError) in
        try outputBuffer(buf, cap, needed)
        let key = try readText(name, "name")
        let i = try index(i, h.set.count, "place")
        guard let column = h.set.index(ofAttribute: key) else {
            throw GeoLocError(.notFound, "the set has no attribute \(quote(key))")
        }
        guard let value = h.set.attribute(column: column, at: i) else {
            throw GeoLocError(.notFound, "place \(i) has no value for \(quote(key))")
        }
        return writeText(value, buf, cap, needed)
    }
}
