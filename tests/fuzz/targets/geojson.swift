// libFuzzer target: GeoJSON, both readers: the place loader (geoloc_places_parse_geojson, the
// library's own JSON reader) and regions (geoloc_region_from_geojson, GEOS's reader).
import CGeoLoc

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let chars = UnsafeRawPointer(data).assumingMemoryBound(to: CChar.self)
    var places: OpaquePointer?
    var options = geoloc_load_options()
    options.strict = size % 2 == 1
    let st = geoloc_places_parse_geojson(chars, size, &options, &places)
    expectMessage(st)
    if st == GEOLOC_OK, let places {
        exercise(places, attribute: Array("name".utf8CString))
    } else {
        precondition(places == nil, "a failed load wrote its output")
    }
    let text = cText(data, size)
    var region: OpaquePointer?
    let rs = geoloc_region_from_geojson(text, &region)
    expectMessage(rs)
    if rs == GEOLOC_OK, let region {
        var inside = false
        precondition(geoloc_region_contains(region, geoloc_coord(lat: 0, lon: 0), &inside) == GEOLOC_OK)
        geoloc_region_destroy(region)
    }
    return 0
}
