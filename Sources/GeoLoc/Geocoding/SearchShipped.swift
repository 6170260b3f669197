#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The search index of the shipped gazetteer: `cities1000.search`, built by the build from the
// gazetteer and data/search/ (tools/save_search.c), found beside the gazetteer's files.

private let shippedIndexName = "cities1000.search"
private let namesName = "alternate_names.tsv"
private let countriesName = "countries.tsv"

/// data/search/ of the source tree this file was compiled from.
private let sourceTreeSearchData: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(4)  // Sources/GeoLoc/Geocoding/SearchShipped.swift
    return parts.joined(separator: "/") + "/data/search/"
}()

extension PlaceSearch {
    /// The shipped gazetteer (``Gazetteer/shipped()``) with its search index, opened on first use
    /// and shared by every caller and thread for the life of the process.
    ///
    /// The index is the first of ``shippedIndexPaths`` that opens and fits the gazetteer; when
    /// none does, it is built in memory (about a second) from the alternate names beside the
    /// gazetteer or in the source tree's data/search/, else from the places' own names alone.
    /// - Throws: the errors of ``Gazetteer/shipped()``.
    public static func shipped() throws(GeoLocError) -> PlaceSearch {
        try shippedSearch.get()
    }

    /// Where ``shipped()`` looks for the index, in order: `$GEOLOC_SEARCH_INDEX` when set, then
    /// `cities1000.search` in each directory of ``Gazetteer/shippedSearchPaths``.
    public static var shippedIndexPaths: [String] {
        var paths: [String] = []
        if let value = getenv("GEOLOC_SEARCH_INDEX"), value[0] != 0 { paths.append(String(cString: value)) }
        for dir in shippedDirectories() { paths.append(dir + shippedIndexName) }
        var seen: Set<String> = []
        return paths.filter { seen.insert($0).inserted }
    }

    /// The directories (with a trailing slash) of the gazetteer's search paths.
    fileprivate static func shippedDirectories() -> [String] {
        var dirs: [String] = []
        for p in Gazetteer.shippedSearchPaths {
            guard let slash = p.lastIndex(of: "/") else { continue }
            let dir = String(p[...slash])
            if !dirs.contains(dir) { dirs.append(dir) }
        }
        return dirs
    }
}

/// The shipped search, made once under a lock.
private final class ShippedSearch: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private var value: PlaceSearch?

    init() {
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
    }

    func get() throws(GeoLocError) -> PlaceSearch {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if let value { return value }
        let g = try Gazetteer.shipped()
        for path in PlaceSearch.shippedIndexPaths {
            if let s = try? PlaceSearch(gazetteer: g, indexPath: path) {
                value = s
                return s
            }
        }
        // No saved index fits: build one from the names found first.
        let dirs = PlaceSearch.shippedDirectories() + [sourceTreeSearchData]
        func first(_ name: String) -> String? {
            dirs.map { $0 + name }.first { access($0, R_OK) == 0 }
        }
        let s = try PlaceSearch(gazetteer: g, alternateNames: first(namesName), countries: first(countriesName))
        value = s
        return s
    }
}

private let shippedSearch = ShippedSearch()
