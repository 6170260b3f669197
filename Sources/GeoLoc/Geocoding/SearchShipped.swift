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
        if let path = ShippedData.environmentPath("GEOLOC_SEARCH_INDEX") { paths.append(path) }
        for dir in shippedDirectories() { paths.append(dir + shippedIndexName) }
        var seen: Set<String> = []
        return paths.filter { seen.insert($0).inserted }
    }

    /// The directories (with a trailing slash) of the gazetteer's search paths: the directory of
    /// `$GEOLOC_GAZETTEER` when set, then the shipped data's (Core/ShippedData.swift).
    fileprivate static func shippedDirectories() -> [String] {
        var dirs: [String] = []
        if let path = ShippedData.environmentPath("GEOLOC_GAZETTEER"), let slash = path.lastIndex(of: "/") {
            dirs.append(String(path[...slash]))
        }
        for dir in ShippedData.directories(sourceFolder: "gazetteer") where !dirs.contains(dir) { dirs.append(dir) }
        return dirs
    }
}

/// The shipped search: the first saved index that opens and fits the shipped gazetteer, else one
/// built from the names found first.
private func openShippedSearch() throws(GeoLocError) -> PlaceSearch {
    let g = try Gazetteer.shipped()
    for path in PlaceSearch.shippedIndexPaths {
        if let s = try? PlaceSearch(gazetteer: g, indexPath: path) { return s }
    }
    let dirs = PlaceSearch.shippedDirectories() + [ShippedData.sourceTreeDirectory("search")]
    func first(_ name: String) -> String? {
        dirs.map { $0 + name }.first { access($0, R_OK) == 0 }
    }
    return try PlaceSearch(gazetteer: g, alternateNames: first(namesName), countries: first(countriesName))
}

/// The shipped search, made once per process.
private let shippedSearch = OncePerProcess(openShippedSearch)
