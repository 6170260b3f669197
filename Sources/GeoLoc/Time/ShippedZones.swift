#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The time-zone map libgeoloc ships: data/time/timezones.zones (tools/gen_timezones.py), found
// where the shipped gazetteer is found, opened once per process.

private let shippedFileName = "timezones.zones"

extension TimeZoneMap {
    /// The shipped map (timezone-boundary-builder 2026c, ODbL 1.0), opened on first use and
    /// shared by every caller and thread for the life of the process. A failed search is not
    /// remembered: a later call looks again.
    /// - Throws: `.notFound` naming every path of ``shippedSearchPaths`` tried when none holds
    ///   the file; a file that is there but is not a valid map fails with its own error.
    public static func shipped() throws(GeoLocError) -> TimeZoneMap {
        try shippedMap.get()
    }

    /// Where ``shipped()`` looks for timezones.zones, in order:
    /// 1. `$GEOLOC_TIMEZONES`, when set (the path of the file itself);
    /// 2. `<dir>/../share/geoloc/`, `<dir>/../../share/geoloc/` and `<dir>/`, where `<dir>` is the
    ///    directory of the binary that holds this code (an install puts the data in
    ///    `<prefix>/share/geoloc/`; the Python package keeps it beside libgeoloc.so): the
    ///    directories where ``Gazetteer/shippedSearchPaths`` looks for the gazetteer;
    /// 3. data/time/timezones.zones of the source tree this code was built from.
    public static var shippedSearchPaths: [String] {
        var paths: [String] = []
        if let value = getenv("GEOLOC_TIMEZONES"), value[0] != 0 {
            paths.append(String(cString: value))
        }
        let fromEnvironment = getenv("GEOLOC_GAZETTEER").map { $0[0] != 0 } == true
        for (k, path) in Gazetteer.shippedSearchPaths.enumerated() where !(k == 0 && fromEnvironment) {
            guard let slash = path.lastIndex(of: "/") else { continue }
            let dir = String(path[..<slash])
            if dir.hasSuffix("/data/gazetteer") {
                paths.append(String(dir.dropLast("gazetteer".utf8.count)) + "time/" + shippedFileName)
            } else {
                paths.append(dir + "/" + shippedFileName)
            }
        }
        var seen: Set<String> = []
        return paths.filter { seen.insert($0).inserted }
    }
}

/// The shipped map, opened once under a lock.
private final class ShippedMap: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private var value: TimeZoneMap?

    init() {
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
    }

    func get() throws(GeoLocError) -> TimeZoneMap {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if let value { return value }
        var tried: [String] = []
        for path in TimeZoneMap.shippedSearchPaths {
            do {
                let map = try TimeZoneMap.open(path)
                value = map
                return map
            } catch {
                guard error.code == .notFound else { throw error }
                tried.append(path)
            }
        }
        throw GeoLocError(
            .notFound,
            "the shipped time-zone map (\(shippedFileName)) was not found; tried \(tried.joined(separator: ", ")) "
                + "(set GEOLOC_TIMEZONES to the file's path)")
    }
}

private let shippedMap = ShippedMap()
