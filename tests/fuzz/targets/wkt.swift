// libFuzzer target: WKT regions (geoloc_region_from_wkt): a region that reads answers
// point-in-polygon queries and bounds-checked place queries; a region that does not has a
// message.
import CGeoLoc

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let text = cText(data, size)
    var region: OpaquePointer?
    let st = geoloc_region_from_wkt(text, &region)
    expectMessage(st)
    guard st == GEOLOC_OK, let region else { return 0 }
    var inside = false
    for c in [geoloc_coord(lat: 0, lon: 0), geoloc_coord(lat: 45, lon: 179.5), geoloc_coord(lat: -90, lon: -180)] {
        precondition(geoloc_region_contains(region, c, &inside) == GEOLOC_OK)
    }
    // A region is not a place set: passing it as one is caught.
    var n = 0
    precondition(geoloc_places_count(region, &n) == GEOLOC_E_INVALID_ARGUMENT, "a region passed as a place set")
    geoloc_region_destroy(region)
    return 0
}
