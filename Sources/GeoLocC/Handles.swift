// The handles of the C ABI, shared by every capability that hands one out (place sets, regions,
// the gazetteer, tracking's filters, geofence sets, monitors and tracks). A handle is a retained Swift object (Unmanaged) passed as an opaque pointer;
// destroy releases it.
import CGeoLoc
@_spi(CABI) import GeoLoc

/// What a geoloc_places handle holds: the set and the records its loader skipped.
final class PlacesHandle {
    let set: PlaceSet
    let issues: [LoadIssue]
    init(_ set: PlaceSet, issues: [LoadIssue] = []) {
        self.set = set
        self.issues = issues
    }
}

/// What a geoloc_gazetteer handle holds: the gazetteer and the places view handed out by
/// geoloc_gazetteer_places (owned here, so it lives as long as the gazetteer handle).
final class GazetteerHandle {
    let gazetteer: Gazetteer
    let places: PlacesHandle
    init(_ gazetteer: Gazetteer) {
        self.gazetteer = gazetteer
        self.places = PlacesHandle(gazetteer.places)
    }
}

/// What a geoloc_monitor handle holds: the monitor and the scratch array its batches' events
/// are gathered in (a geoloc_fix_filter and a geoloc_geofences handle are the core's objects
/// themselves).
final class MonitorHandle {
    let monitor: GeofenceMonitor
    var events: [GeofenceEvent] = []
    init(_ monitor: GeofenceMonitor) { self.monitor = monitor }
}

/// What a geoloc_track handle holds: a track read from a file.
final class TrackHandle {
    let load: TrackLoad
    init(_ load: TrackLoad) { self.load = load }
}

@inline(__always)
func retained(_ object: AnyObject) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(object).toOpaque())
}

@inline(__always)
func borrow<T: AnyObject>(_ p: OpaquePointer?, as: T.Type, _ what: String) throws(GeoLocError) -> T {
    guard let p else { throw GeoLocError(.nullArgument, "\(what) is NULL") }
    return Unmanaged<T>.fromOpaque(UnsafeRawPointer(p)).takeUnretainedValue()
}

@inline(__always)
func release(_ p: OpaquePointer?) {
    guard let p else { return }
    Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(p)).release()
}
