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
        ShippedData.searchPaths(shippedFileName, environment: "GEOLOC_TIMEZONES", sourceFolder: "time")
    }
}

/// The shipped map: the first of ``TimeZoneMap/shippedSearchPaths`` that is there.
private func openShippedMap() throws(GeoLocError) -> TimeZoneMap {
    var tried: [String] = []
    for path in TimeZoneMap.shippedSearchPaths {
        do {
            return try TimeZoneMap.open(path)
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

/// The shipped map, opened once per process.
private let shippedMap = OncePerProcess(openShippedMap)
