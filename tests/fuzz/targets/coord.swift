// libFuzzer target: coordinate text (geoloc_coord_parse) and its round trip through
// geoloc_coord_format; also the input's first 16 bytes as a raw coordinate to format.
import CGeoLoc

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let text = cText(data, size)
    var c = geoloc_coord()
    let st = geoloc_coord_parse(text, &c)
    expectMessage(st)
    if st == GEOLOC_OK {
        expectCoordinate(c)
        expectFormatted(c)
    }
    if size >= 16 {
        let raw = UnsafeRawPointer(data)
        let c = geoloc_coord(lat: raw.loadUnaligned(as: Double.self), lon: raw.loadUnaligned(fromByteOffset: 8, as: Double.self))
        var checked = geoloc_coord()
        if geoloc_coord_check(c, &checked) == GEOLOC_OK {
            expectCoordinate(checked)
            expectFormatted(c)
        }
    }
    return 0
}
