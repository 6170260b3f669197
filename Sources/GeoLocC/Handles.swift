// The handles of the C ABI, shared by every capability that hands one out (place sets, regions,
// the gazetteer, tracking's filters, geofence sets, monitors and tracks). A handle is a small C-allocated header: a tag word that says what kind of
// handle it is (or that it was destroyed) and the retained Swift object. Every entry reads the
// tag before it touches the object, so a wrong handle type, a use after destroy and a double
// destroy are caught while the header is still readable: destroy poisons the tag and keeps the
// header in a quarantine of the most recently destroyed handles instead of freeing it at once.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CGeoLoc
@_spi(CABI) import GeoLoc

/// A handle whose object keeps what its loader skipped (a place set, a track): the issues kept
/// (at most GEOLOC_LOAD_MAX_ISSUES) and how many the loader found in all. Their accessors are
/// `issueCount`, `issueTotal` and `issue`.
protocol LoadedHandle: AnyObject {
    var issues: [LoadIssue] { get }
    var issueTotal: Int { get }
}

/// What a geoloc_places handle holds: the set and the records its loader skipped.
final class PlacesHandle: LoadedHandle {
    let set: PlaceSet
    let issues: [LoadIssue]
    let issueTotal: Int
    init(_ set: PlaceSet, issues: [LoadIssue] = [], issueTotal: Int = 0) {
        self.set = set
        self.issues = issues
        self.issueTotal = issueTotal
    }
}

/// What a geoloc_gazetteer handle holds: the gazetteer and the places view handed out by
/// geoloc_gazetteer_places (a handle of kind `.placesView`, owned here: it lives as long as the
/// gazetteer handle, and is poisoned with it).
final class GazetteerHandle {
    let gazetteer: Gazetteer
    let places: PlacesHandle
    let view: UnsafeMutablePointer<HandleHeader>
    init(_ gazetteer: Gazetteer) {
        self.gazetteer = gazetteer
        self.places = PlacesHandle(gazetteer.places)
        // Borrowed, not retained: this object keeps `places` alive for as long as the view lives.
        self.view = newHeader(.placesView, Unmanaged.passUnretained(places).toOpaque())
    }
    deinit { retire(view) }
}

/// The kinds of handle, as the tag word at the start of each header. The values are arbitrary
/// 64-bit words ("GLPLACES", ...) unlikely to be found at the start of memory that is not a
/// libgeoloc handle.
enum HandleKind: UInt64 {
    case places = 0x474C_504C_4143_4553      // "GLPLACES"
    case placesView = 0x474C_504C_5649_4557  // "GLPLVIEW": the gazetteer's set, not destroyable
    case region = 0x474C_5245_4749_4F4E      // "GLREGION"
    case gazetteer = 0x474C_4741_5A45_5454   // "GLGAZETT"
    case filter = 0x474C_4649_4C54_4552      // "GLFILTER": a geoloc_fix_filter
    case geofences = 0x474C_4645_4E43_4553   // "GLFENCES": a geoloc_geofences
    case monitor = 0x474C_4D4F_4E49_5452     // "GLMONITR": a geoloc_monitor
    case track = 0x474C_5452_4143_4B21       // "GLTRACK!": a geoloc_track
    case search = 0x474C_5345_4152_4348      // "GLSEARCH": a geoloc_search
    case timezones = 0x474C_545A_4F4E_4553   // "GLTZONES": a geoloc_timezones (section 9, Time)
    case destroyed = 0x474C_4445_4144_2121   // "GLDEAD!!"

    var name: String {
        switch self {
        case .places: return "a place set"
        case .placesView: return "a gazetteer's place set"
        case .region: return "a region"
        case .gazetteer: return "a gazetteer"
        case .filter: return "a fix filter"
        case .geofences: return "a geofence set"
        case .monitor: return "a monitor"
        case .track: return "a track"
        case .search: return "a place search"
        case .timezones: return "a time-zone map"
        case .destroyed: return "a destroyed handle"
        }
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
final class TrackHandle: LoadedHandle {
    let load: TrackLoad
    init(_ load: TrackLoad) { self.load = load }
    var issues: [LoadIssue] { load.issues }
    var issueTotal: Int { load.issueTotal }
}

/// The memory a handle points at.
struct HandleHeader {
    var tag: UInt64
    var object: UnsafeMutableRawPointer?
}

private func newHeader(_ kind: HandleKind, _ object: UnsafeMutableRawPointer) -> UnsafeMutablePointer<HandleHeader> {
    let p = UnsafeMutablePointer<HandleHeader>.allocate(capacity: 1)
    p.initialize(to: HandleHeader(tag: kind.rawValue, object: object))
    return p
}

/// A new handle of `kind` holding a retained `object`.
@inline(__always)
func retained(_ object: AnyObject, _ kind: HandleKind) -> OpaquePointer {
    OpaquePointer(newHeader(kind, Unmanaged.passRetained(object).toOpaque()))
}

/// The object behind a handle, checked: NULL is `.nullArgument`; a destroyed handle or one of
/// another kind is `.invalidArgument`. `.places` also accepts the gazetteer's places view.
@inline(__always)
func borrow<T: AnyObject>(
    _ p: OpaquePointer?, _ kind: HandleKind, as: T.Type, _ what: String
) throws(GeoLocError) -> T {
    guard let p else { throw GeoLocError(.nullArgument, "\(what) is NULL") }
    let header = UnsafeMutablePointer<HandleHeader>(p)
    let tag = header.pointee.tag
    guard tag == kind.rawValue || (kind == .places && tag == HandleKind.placesView.rawValue),
        let object = header.pointee.object
    else { throw misuse(tag, expected: kind, what) }
    return Unmanaged<T>.fromOpaque(object).takeUnretainedValue()
}

/// The shape of a handle's method, check, call, map: borrow the handle (named `what`), then
/// `body` with its object (which checks the other arguments, calls and maps).
func withHandle<T: AnyObject>(
    _ p: OpaquePointer?, _ kind: HandleKind, as: T.Type, _ what: String, _ body: (T) throws(GeoLocError) -> geoloc_status
) -> geoloc_status {
    guarded { () throws(GeoLocError) in try body(try borrow(p, kind, as: T.self, what)) }
}

/// The shape of a handle's text accessor: the caller's buffer checked first (as `textResult`
/// does), then the handle (named `what`) borrowed and `text` read from its object.
func textAnswer<T: AnyObject>(
    _ p: OpaquePointer?, _ kind: HandleKind, as: T.Type, _ what: String, _ buf: UnsafeMutablePointer<CChar>?,
    _ cap: Int, _ needed: UnsafeMutablePointer<Int>?, _ text: (T) throws(GeoLocError) -> String
) -> geoloc_status {
    textResult(buf, cap, needed) { () throws(GeoLocError) in try text(try borrow(p, kind, as: T.self, what)) }
}

/// The shape of a handle's accessor, check, call, map: borrow the handle (named `what`), require
/// the out-pointer (named `outName`), deliver what `value` reads from the object.
func answer<T: AnyObject, R: CResult>(
    _ p: OpaquePointer?, _ kind: HandleKind, as: T.Type, _ what: String,
    _ out: UnsafeMutablePointer<R>?, _ outName: String, _ value: (T) throws(GeoLocError) -> R
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let object = try borrow(p, kind, as: T.self, what)
        let out = try required(out, outName)
        try deliver(try value(object), to: out, outName)
        return GEOLOC_OK
    }
}

/// The issue accessors of a loaded handle (`geoloc_places_issue_count` and the track's): how
/// many issues were kept.
func issueCount<T: LoadedHandle>(
    _ p: OpaquePointer?, _ kind: HandleKind, as: T.Type, _ what: String, _ count: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    answer(p, kind, as: T.self, what, count, "count") { $0.issues.count }
}

/// How many issues the loader found, kept or not (`geoloc_places_issue_total`, the track's).
func issueTotal<T: LoadedHandle>(
    _ p: OpaquePointer?, _ kind: HandleKind, as: T.Type, _ what: String, _ total: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    answer(p, kind, as: T.self, what, total, "total") { $0.issueTotal }
}

/// Issue i of a loaded handle (`geoloc_places_issue`, the track's): the handle, the buffer's
/// pointers, then the index; the record number (optional) and the reason as text.
func issue<T: LoadedHandle>(
    _ p: OpaquePointer?, _ kind: HandleKind, as: T.Type, _ what: String, _ i: Int, _ record: UnsafeMutablePointer<Int>?,
    _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?
) -> geoloc_status {
    withHandle(p, kind, as: T.self, what) { (h) throws(GeoLocError) in
        try outputBuffer(buf, cap, needed)
        let i = try index(i, h.issues.count, "issue")
        try deliver(h.issues[i].record, toOptional: record, "record")
        return writeText(h.issues[i].reason, buf, cap, needed)
    }
}

/// The shape of a constructor: require `out` first, then make the object (which checks its
/// arguments) and hand out a new handle of `kind` holding it.
func create(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ kind: HandleKind, _ make: () throws(GeoLocError) -> AnyObject
) -> geoloc_status {
    guarded { () throws(GeoLocError) in
        let out = try required(out, "out")
        try deliver(retained(try make(), kind), to: out)
        return GEOLOC_OK
    }
}

/// Where a loader thunk reads from: a file (its `path`) or the caller's `text` of `len` bytes.
enum LoadSource {
    case file(UnsafePointer<CChar>?)
    case text(UnsafePointer<CChar>?, Int)
}

/// What a loader parses: the path of a file, or the caller's bytes.
enum LoadInput {
    case file(String)
    case bytes(UnsafeRawBufferPointer)
}

/// The shape of every loader thunk (place sets and tracks, from a file or from text), in the
/// order of their parameters: `out` required, then the source (a path NULL or not UTF-8, text
/// NULL with a length), then `options` (the format, the load options and limits), then `parse`
/// with both, and a new handle of `kind` holding what it made.
func load<Options>(
    _ source: LoadSource, _ out: UnsafeMutablePointer<OpaquePointer?>?, _ kind: HandleKind,
    options: () throws(GeoLocError) -> Options, parse: (LoadInput, Options) throws(GeoLocError) -> AnyObject
) -> geoloc_status {
    create(out, kind) { () throws(GeoLocError) in
        let input: LoadInput = switch source {
        case .file(let path): .file(try readText(path, "path"))
        case .text(let text, let len): .bytes(try byteSpan(text, len, "text"))
        }
        return try parse(input, try options())
    }
}

private func misuse(_ tag: UInt64, expected: HandleKind, _ what: String) -> GeoLocError {
    switch HandleKind(rawValue: tag) {
    case .destroyed?:
        return GeoLocError(.invalidArgument, "\(what) was destroyed")
    case let other?:
        return GeoLocError(.invalidArgument, "\(what) is \(other.name), not \(expected.name)")
    case nil:
        return GeoLocError(.invalidArgument, "\(what) is not a libgeoloc handle")
    }
}

/// Destroys a handle of `kind`: NULL is ignored; a destroyed handle, the gazetteer's places view
/// or a handle of another kind is left alone and the calling thread's last error says why.
func release(_ p: OpaquePointer?, _ kind: HandleKind, _ what: String) {
    guard let p else { return }
    let header = UnsafeMutablePointer<HandleHeader>(p)
    guard header.pointee.tag == kind.rawValue, let object = header.pointee.object else {
        let tag = header.pointee.tag
        if tag == HandleKind.placesView.rawValue && kind == .places {
            setLastError("\(what) belongs to its gazetteer and is freed by geoloc_gazetteer_destroy")
        } else {
            setLastError(misuse(tag, expected: kind, what).message)
        }
        return
    }
    retire(header)
    Unmanaged<AnyObject>.fromOpaque(object).release()
}

// MARK: - The quarantine

/// How many destroyed headers are kept before the oldest is freed (16 bytes each): a double
/// destroy or a use after destroy is caught while fewer than this many handles were destroyed
/// after it, process-wide.
let quarantineSize = 4096

private struct Quarantine {
    var lock = pthread_mutex_t()
    var slots = [UnsafeMutablePointer<HandleHeader>?](repeating: nil, count: quarantineSize)
    var next = 0
}

nonisolated(unsafe) private let quarantine: UnsafeMutablePointer<Quarantine> = {
    let q = UnsafeMutablePointer<Quarantine>.allocate(capacity: 1)
    q.initialize(to: Quarantine())
    pthread_mutex_init(&q.pointee.lock, nil)
    return q
}()

/// Poisons a header and puts it in the quarantine, freeing the one it displaces.
private func retire(_ header: UnsafeMutablePointer<HandleHeader>) {
    header.pointee.tag = HandleKind.destroyed.rawValue
    header.pointee.object = nil
    let q = quarantine
    pthread_mutex_lock(&q.pointee.lock)
    let old = q.pointee.slots[q.pointee.next]
    q.pointee.slots[q.pointee.next] = header
    q.pointee.next = (q.pointee.next + 1) % quarantineSize
    pthread_mutex_unlock(&q.pointee.lock)
    old?.deallocate()
}
