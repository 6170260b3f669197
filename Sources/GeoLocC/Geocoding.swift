// The C ABI of offline reverse geocoding (Sources/GeoLoc/Geocoding): the gazetteer handle and
// "City, State" for a coordinate. Every function checks its arguments, calls the core, and maps
// every error to a status.
import CGeoLoc
@_spi(CABI) import GeoLoc

// MARK: - Gazetteer

@c @implementation
public func geoloc_gazetteer_open(_ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> geoloc_status {
    create(out, .gazetteer) { () throws(GeoLocError) in
        let g = if let path { try Gazetteer(path: try readText(path, "path")) } else { try Gazetteer.shipped() }
        return GazetteerHandle(g)
    }
}

@c @implementation
public func geoloc_gazetteer_destroy(_ gazetteer: OpaquePointer?) {
    release(gazetteer, .gazetteer, "gazetteer")
}

@c @implementation
public func geoloc_gazetteer_places(
    _ gazetteer: OpaquePointer?, _ places: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    answer(gazetteer, .gazetteer, as: GazetteerHandle.self, "gazetteer", places, "places") { OpaquePointer($0.view) }
}

@c @implementation
public func geoloc_reverse_geocode(
    _ gazetteer: OpaquePointer?, _ c: geoloc_coord, _ style: geoloc_address_style, _ buf: UnsafeMutablePointer<CChar>?,
    _ cap: Int, _ needed: UnsafeMutablePointer<Int>?, _ place: UnsafeMutablePointer<geoloc_match>?
) -> geoloc_status {
    withHandle(gazetteer, .gazetteer, as: GazetteerHandle.self, "gazetteer") { (g) throws(GeoLocError) in
        let textAsked = !(buf == nil && cap == 0 && needed == nil)
        if textAsked { try outputBuffer(buf, cap, needed) } else { _ = try required(place, "place (no text is asked for)") }
        let s = try decode(style.rawValue, as: AddressStyle.self, "style")
        let m = try g.gazetteer.locality(at: try coordinate(c))
        try deliver(geoloc_match(index: m.named, distance: m.distance), toOptional: place, "place")
        // The locality's text is formatted once per gazetteer and style, then copied.
        if textAsked {
            let status = writeText(utf8: try g.gazetteer.textBytes(m, s, subLocality: false), buf, cap, needed)
            if status != GEOLOC_OK { return status }
        }
        return noLocality(m, c)
    }
}

@c @implementation
public func geoloc_reverse_geocode_locality(
    _ gazetteer: OpaquePointer?, _ c: geoloc_coord, _ style: geoloc_address_style,
    _ options: UnsafePointer<geoloc_reverse_options>?, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?, _ out: UnsafeMutablePointer<geoloc_locality>?
) -> geoloc_status {
    withHandle(gazetteer, .gazetteer, as: GazetteerHandle.self, "gazetteer") { (g) throws(GeoLocError) in
        let textAsked = !(buf == nil && cap == 0 && needed == nil)
        if textAsked { try outputBuffer(buf, cap, needed) } else { _ = try required(out, "out (no text is asked for)") }
        let s = try decode(style.rawValue, as: AddressStyle.self, "style")
        let o = try reverseOptions(options)
        let m = try g.gazetteer.locality(at: try coordinate(c), options: o)
        try deliver(cLocality(m), toOptional: out, "out")
        if textAsked {
            let status = writeText(utf8: try g.gazetteer.textBytes(m, s, subLocality: o.subLocality), buf, cap, needed)
            if status != GEOLOC_OK { return status }
        }
        return noLocality(m, c)
    }
}

@c @implementation
public func geoloc_reverse_geocode_many(
    _ gazetteer: OpaquePointer?, _ points: UnsafePointer<geoloc_coord>?, _ n: Int,
    _ indices: UnsafeMutablePointer<Int>?, _ distances: UnsafeMutablePointer<Double>?
) -> geoloc_status {
    withHandle(gazetteer, .gazetteer, as: GazetteerHandle.self, "gazetteer") { (g) throws(GeoLocError) in
        let n = try inputArray(points, n, "points").count
        guard n > 0 else { return GEOLOC_OK }
        // Every point is checked before the first result is written.
        try g.gazetteer.localities(degrees: degrees(points, n), count: n, name: "points", options: ReverseGeocodeOptions()) {
            (i: Int, m: LocalityMatch) throws(GeoLocError) in
            indices?[i] = m.named
            distances?[i] = m.distance
        }
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_reverse_geocode_localities(
    _ gazetteer: OpaquePointer?, _ points: UnsafePointer<geoloc_coord>?, _ n: Int,
    _ options: UnsafePointer<geoloc_reverse_options>?, _ out: UnsafeMutablePointer<geoloc_locality>?
) -> geoloc_status {
    withHandle(gazetteer, .gazetteer, as: GazetteerHandle.self, "gazetteer") { (g) throws(GeoLocError) in
        let n = try inputArray(points, n, "points").count
        _ = try outputArray(out, n, "out")
        let o = try reverseOptions(options)
        guard n > 0, let out else { return GEOLOC_OK }
        try g.gazetteer.localities(degrees: degrees(points, n), count: n, name: "points", options: o) {
            (i: Int, m: LocalityMatch) throws(GeoLocError) in
            let r = cLocality(m)
            try checkFinite(r, "out[\(i)]")
            out[i] = r
        }
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_reverse_geocode_many_text(
    _ gazetteer: OpaquePointer?, _ points: UnsafePointer<geoloc_coord>?, _ n: Int, _ style: geoloc_address_style,
    _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?,
    _ offsets: UnsafeMutablePointer<Int>?, _ indices: UnsafeMutablePointer<Int>?,
    _ distances: UnsafeMutablePointer<Double>?
) -> geoloc_status {
    manyText(gazetteer, points, n, style, nil, buf, cap, needed, offsets, keep: indices != nil || distances != nil) {
        i, m in
        indices?[i] = m.named
        distances?[i] = m.distance
    }
}

@c @implementation
public func geoloc_reverse_geocode_many_text_options(
    _ gazetteer: OpaquePointer?, _ points: UnsafePointer<geoloc_coord>?, _ n: Int, _ style: geoloc_address_style,
    _ options: UnsafePointer<geoloc_reverse_options>?, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?, _ offsets: UnsafeMutablePointer<Int>?,
    _ out: UnsafeMutablePointer<geoloc_locality>?
) -> geoloc_status {
    manyText(gazetteer, points, n, style, options, buf, cap, needed, offsets, keep: out != nil) { i, m in
        out?[i] = cLocality(m)
    }
}

/// The texts of n points' localities into one buffer (geoloc_reverse_geocode_many_text and its
/// form with options), `each` writing the other outputs of point i once the texts fit (called
/// only when `keep`: the matches are kept for it).
private func manyText(
    _ gazetteer: OpaquePointer?, _ points: UnsafePointer<geoloc_coord>?, _ n: Int, _ style: geoloc_address_style,
    _ options: UnsafePointer<geoloc_reverse_options>?, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int,
    _ needed: UnsafeMutablePointer<Int>?, _ offsets: UnsafeMutablePointer<Int>?, keep: Bool,
    _ each: (Int, LocalityMatch) -> Void
) -> geoloc_status {
    withHandle(gazetteer, .gazetteer, as: GazetteerHandle.self, "gazetteer") { (g) throws(GeoLocError) in
        let n = try inputArray(points, n, "points").count
        try outputBuffer(buf, cap, needed)
        let needed = needed!
        let s = try decode(style.rawValue, as: AddressStyle.self, "style")
        let o = try reverseOptions(options)
        // The texts one after another with their NULs, in a scratch buffer written in order (the
        // caller's is written only once they all fit, in one copy), where each starts, and the
        // matches `each` needs: nothing else is kept of a point.
        var texts = TextRun(capacity: 32 * Swift.max(n, 1))
        let starts: UnsafeMutablePointer<Int>? = offsets == nil ? nil : .allocate(capacity: Swift.max(n, 1))
        let found: UnsafeMutablePointer<LocalityMatch>? = keep ? .allocate(capacity: Swift.max(n, 1)) : nil
        var made = 0
        defer {
            texts.deallocate()
            starts?.deallocate()
            found?.deinitialize(count: made)
            found?.deallocate()
        }
        let gz = g.gazetteer
        try gz.localities(degrees: degrees(points, n), count: n, name: "points", options: o) {
            (i: Int, m: LocalityMatch) throws(GeoLocError) in
            if let found {
                (found + i).initialize(to: m)
                made += 1
            }
            starts?[i] = texts.count
            // The cached text is followed by its NUL in memory: one copy of count + 1 bytes.
            let text = try gz.textBytes(m, s, subLocality: o.subLocality)
            texts.append(text.baseAddress!, text.count + 1)
        }
        let size = texts.count
        needed.pointee = size
        // size_t arrives as Int: a capacity above Int.max is negative here and is certainly enough.
        guard cap < 0 || cap >= size else {
            if let buf, cap != 0 { buf.pointee = 0 }
            throw GeoLocError(.bufferTooSmall, "the \(n) texts need \(size) bytes but the buffer holds \(cap)")
        }
        guard n > 0, let buf else { return GEOLOC_OK }
        UnsafeMutableRawPointer(buf).copyMemory(from: texts.base, byteCount: size)
        if let offsets, let starts { offsets.update(from: starts, count: n) }
        if let found { for i in 0..<n { each(i, found[i]) } }
        return GEOLOC_OK
    }
}

/// Bytes appended one run after another into memory of its own, grown by doubling.
private struct TextRun {
    private(set) var base: UnsafeMutableRawPointer
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(byteCount: capacity, alignment: 16)
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeRawPointer, _ n: Int) {
        if count + n > capacity { grow(count + n) }
        (base + count).copyMemory(from: bytes, byteCount: n)
        count += n
    }

    @inline(never)
    private mutating func grow(_ least: Int) {
        capacity = Swift.max(2 * capacity, least)
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        bigger.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = bigger
    }

    func deallocate() { base.deallocate() }
}

/// The caller's options (NULL: the defaults), checked; members beyond struct_size take their defaults.
func reverseOptions(_ p: UnsafePointer<geoloc_reverse_options>?) throws(GeoLocError) -> ReverseGeocodeOptions {
    var o = ReverseGeocodeOptions()
    guard let p else { return o }
    let size = p.pointee.struct_size
    // size_t arrives as Int: above Int.max (SIZE_MAX) is negative, and as large as the struct.
    guard size < 0 || size >= MemoryLayout<Int>.size else {
        throw GeoLocError(
            .invalidArgument, "options->struct_size \(UInt(bitPattern: size)) is smaller than a size_t; set it to sizeof(geoloc_reverse_options)")
    }
    func has<T>(_ path: KeyPath<geoloc_reverse_options, T>) -> Bool {
        size < 0 || size >= MemoryLayout<geoloc_reverse_options>.offset(of: path)! + MemoryLayout<T>.size
    }
    if has(\.max_distance_m) {
        let v = p.pointee.max_distance_m
        if v.isNaN { throw GeoLocError(.notFinite, "options->max_distance_m is NaN") }
        if v < 0 { throw GeoLocError(.outOfRange, "options->max_distance_m \(v) is negative") }
        if v != 0 { o.maxDistance = v }
    }
    if has(\.country_reach_m) {
        let v = p.pointee.country_reach_m
        if v.isNaN { throw GeoLocError(.notFinite, "options->country_reach_m is NaN") }
        if v != 0 { o.countryReach = v < 0 ? 0 : v }
    }
    if has(\.sublocality) { o.subLocality = p.pointee.sublocality }
    return o
}

func cLocality(_ m: LocalityMatch) -> geoloc_locality {
    geoloc_locality(
        locality: m.locality ?? Int(bitPattern: UInt.max), distance_m: m.distance,
        sublocality: m.subLocality ?? Int(bitPattern: UInt.max), nearest: m.nearest,
        nearest_distance_m: m.nearestDistance, reach_m: m.reach, within_reach: m.withinReach,
        in_country: m.locality != nil || m.inCountry)
}

/// GEOLOC_OK, or the soft GEOLOC_E_NO_LOCALITY with its message.
private func noLocality(_ m: LocalityMatch, _ c: geoloc_coord) -> geoloc_status {
    guard m.locality == nil else { return GEOLOC_OK }
    return fail(.noLocality, "no locality at \(c.lat), \(c.lon): the nearest place is \(Int(m.nearestDistance.rounded())) m away")
}

// MARK: - Search by name
//
// geoloc_search_*: a gazetteer with a search index of its names (Sources/GeoLoc/Geocoding/Search*.swift).

/// What a geoloc_search handle holds: the search and the gazetteer handle handed out by
/// geoloc_search_gazetteer (owned here).
final class SearchHandle {
    let search: PlaceSearch
    let gazetteer: OpaquePointer
    init(_ search: PlaceSearch) {
        self.search = search
        gazetteer = retained(GazetteerHandle(search.gazetteer), .gazetteer)
    }
    deinit { release(gazetteer, .gazetteer, "the search's gazetteer") }
}

/// The gazetteer a search call names: a handle's, or the shipped one for NULL.
private func searchGazetteer(_ p: OpaquePointer?) throws(GeoLocError) -> Gazetteer {
    guard let p else { return try Gazetteer.shipped() }
    return try borrow(p, .gazetteer, as: GazetteerHandle.self, "gazetteer").gazetteer
}

/// C options, checked, as the core's.
private func searchOptions(_ p: UnsafePointer<geoloc_search_options>?) throws(GeoLocError) -> SearchOptions {
    guard let o = p?.pointee else { return SearchOptions() }
    var s = SearchOptions()
    guard o.limit >= 1 && o.limit <= 1000 else { throw GeoLocError(.outOfRange, "options->limit \(UInt(bitPattern: o.limit)) is outside 1...1000") }
    s.limit = o.limit
    guard o.min_score.isFinite else { throw GeoLocError(.notFinite, "options->min_score is not finite") }
    guard o.min_score >= 0 && o.min_score <= 1 else { throw GeoLocError(.outOfRange, "options->min_score \(o.min_score) is outside [0, 1]") }
    s.minimumScore = o.min_score
    s.prefix = o.prefix
    if o.has_near { s.near = try coordinate(o.near, "options->near") }
    s.country = try optionalText(o.country, "options->country")
    guard o.max_edits >= -1 && o.max_edits <= 2 else { throw GeoLocError(.outOfRange, "options->max_edits \(o.max_edits) is outside -1...2") }
    s.maxEdits = o.max_edits < 0 ? nil : Int(o.max_edits)
    return s
}

@inline(__always)
private func searchResult(_ s: PlaceSearch, _ h: SearchHit) -> geoloc_search_result {
    let places = s.gazetteer.places
    let c = places.coordinate(at: h.place)
    return geoloc_search_result(
        index: h.place, geonames_id: Int64(places.id(at: h.place)) ?? 0, coord: geoloc_coord(lat: c.latitude, lon: c.longitude),
        population: s.population(ofPlace: h.place), score: h.score,
        match: geoloc_search_match(rawValue: UInt32(h.match.rawValue)), edits: Int32(h.edits), alternate: h.alternate,
        name_key: h.key)
}

@c @implementation
public func geoloc_search_options_default(_ options: UnsafeMutablePointer<geoloc_search_options>?) {
    guard let options else { return }
    let d = SearchOptions()
    options.pointee = geoloc_search_options(
        limit: d.limit, min_score: d.minimumScore, prefix: d.prefix, has_near: false, near: geoloc_coord(lat: 0, lon: 0),
        country: nil, max_edits: -1)
}

@c @implementation
public func geoloc_search_open(
    _ gazetteer: OpaquePointer?, _ indexPath: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let out = try required(out, "out")
        let path = try optionalText(indexPath, "index_path")
        let s: PlaceSearch
        if let path {
            s = try PlaceSearch(gazetteer: try searchGazetteer(gazetteer), indexPath: path)
        } else if gazetteer == nil {
            s = try PlaceSearch.shipped()
        } else {
            let g = try searchGazetteer(gazetteer)
            let shipped = try? Gazetteer.shipped()
            s = shipped === g ? try PlaceSearch.shipped() : try PlaceSearch(gazetteer: g)
        }
        out.pointee = retained(SearchHandle(s), .search)
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_search_build(
    _ gazetteer: OpaquePointer?, _ alternateNames: UnsafePointer<CChar>?, _ countries: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let out = try required(out, "out")
        let names = try optionalText(alternateNames, "alternate_names")
        let countryFile = try optionalText(countries, "countries")
        let s = try PlaceSearch(gazetteer: try searchGazetteer(gazetteer), alternateNames: names, countries: countryFile)
        out.pointee = retained(SearchHandle(s), .search)
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_search_save(_ search: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> geoloc_status {
    withHandle(search, .search, as: SearchHandle.self, "search") { (h) throws(GeoLocError) in
        try h.search.save(to: try readText(path, "path"))
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_search_destroy(_ search: OpaquePointer?) {
    release(search, .search, "search")
}

@c @implementation
public func geoloc_search_gazetteer(_ search: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> geoloc_status {
    withHandle(search, .search, as: SearchHandle.self, "search") { (h) throws(GeoLocError) in
        let out = try required(out, "out")
        out.pointee = h.gazetteer
        return GEOLOC_OK
    }
}

@c @implementation
public func geoloc_search_find(
    _ search: OpaquePointer?, _ query: UnsafePointer<CChar>?, _ options: UnsafePointer<geoloc_search_options>?,
    _ results: UnsafeMutablePointer<geoloc_search_result>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    withHandle(search, .search, as: SearchHandle.self, "search") { (h) throws(GeoLocError) in
        let query = try required(query, "query")
        let count = try required(count, "count")
        if results == nil && cap != 0 { throw GeoLocError(.nullArgument, "results is NULL but cap is \(UInt(bitPattern: cap))") }
        let o = try searchOptions(options)
        let start = UnsafeRawPointer(query).assumingMemoryBound(to: UInt8.self)
        var length = 0
        while length < SearchQuery_maxBytesPlusOne && start[length] != 0 { length += 1 }
        let bytes = UnsafeBufferPointer(start: start, count: length)
        try PlaceSearch.checkQuery(bytes, "query")
        let hits = try h.search.rank(bytes, o)
        count.pointee = hits.count
        guard cap < 0 || cap >= hits.count else {
            throw GeoLocError(.bufferTooSmall, "the \(hits.count) results need cap \(hits.count) but cap is \(cap)")
        }
        for (i, hit) in hits.enumerated() { results![i] = searchResult(h.search, hit) }
        return GEOLOC_OK
    }
}

/// One more than a query's longest length: a longer query is refused without reading past it.
private let SearchQuery_maxBytesPlusOne = 1025

@c @implementation
public func geoloc_search_find_many(
    _ search: OpaquePointer?, _ queries: UnsafePointer<CChar>?, _ width: Int, _ n: Int,
    _ options: UnsafePointer<geoloc_search_options>?, _ results: UnsafeMutablePointer<geoloc_search_result>?,
    _ perQuery: Int, _ counts: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    withHandle(search, .search, as: SearchHandle.self, "search") { (h) throws(GeoLocError) in
        let n = try checkCount(n, "n")
        let o = try searchOptions(options)
        guard n > 0 else { return GEOLOC_OK }
        guard let queries else { throw GeoLocError(.nullArgument, "queries is NULL with n = \(n)") }
        guard let results else { throw GeoLocError(.nullArgument, "results is NULL with n = \(n)") }
        guard let counts else { throw GeoLocError(.nullArgument, "counts is NULL with n = \(n)") }
        guard width >= 0 else { throw GeoLocError(.outOfRange, "width \(UInt(bitPattern: width)) is too large") }
        guard perQuery > 0 else { throw GeoLocError(.outOfRange, "per_query is \(perQuery) with n = \(n)") }
        let (total, overflow) = n.multipliedReportingOverflow(by: perQuery)
        let (span, overflow2) = n.multipliedReportingOverflow(by: Swift.max(width, 1))
        guard !overflow, !overflow2, total <= Int.max / MemoryLayout<geoloc_search_result>.stride else {
            throw GeoLocError(.countTooLarge, "n * per_query or n * width is too large")
        }
        _ = span
        let base = UnsafeRawPointer(queries).assumingMemoryBound(to: UInt8.self)
        func query(_ i: Int) -> UnsafeBufferPointer<UInt8> {
            let p = base + i * width
            var len = 0
            while len < width && p[len] != 0 { len += 1 }
            return UnsafeBufferPointer(start: p, count: len)
        }
        // Every query is checked before anything is written.
        for i in 0..<n { try PlaceSearch.checkQuery(query(i), "queries[\(i)]") }
        var limited = o
        limited.limit = Swift.min(o.limit, perQuery)
        for i in 0..<n {
            let hits = try h.search.rank(query(i), limited)
            for (j, hit) in hits.enumerated() { results[i * perQuery + j] = searchResult(h.search, hit) }
            counts[i] = hits.count
        }
        return GEOLOC_OK
    }
}

/// geoloc_search_field: the place's own fields (0 ... 4, as `placeText` numbers them), then the
/// name that matched.
private enum SearchField: Int32 {
    case name = 0, region = 1, regionCode = 2, countryCode = 3, country = 4, matchedName = 5
}

@c @implementation
public func geoloc_search_text(
    _ search: OpaquePointer?, _ result: UnsafePointer<geoloc_search_result>?, _ field: geoloc_search_field,
    _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    withHandle(search, .search, as: SearchHandle.self, "search") { (h) throws(GeoLocError) in
        let r = try required(result, "result").pointee
        try outputBuffer(buf, cap, needed)
        let s = h.search
        guard r.index >= 0 && r.index < s.gazetteer.places.count else {
            throw GeoLocError(.outOfRange, "result->index \(UInt(bitPattern: r.index)) is outside 0..<\(s.gazetteer.places.count)")
        }
        guard r.name_key >= 0 && r.name_key < s.nameCount else {
            throw GeoLocError(.outOfRange, "result->name_key \(UInt(bitPattern: r.name_key)) is outside 0..<\(s.nameCount)")
        }
        let f = try decode(field.rawValue, as: SearchField.self, "field")
        let text: String
        if f == .matchedName {
            text = try s.keyText(r.name_key)
        } else {
            text = s.placeText(r.index, field: Int(f.rawValue))
        }
        return writeText(text, buf, cap, needed)
    }
}
