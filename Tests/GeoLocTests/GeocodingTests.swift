@testable import GeoLoc
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Offline reverse geocoding with the shipped GeoNames gazetteer.
final class GeocodingTests: XCTestCase {
    static let fixtures = String(#filePath.dropLast("Tests/GeoLocTests/GeocodingTests.swift".count)) + "tests/places/"


    func reverse(_ lat: Double, _ lon: Double) throws -> ReverseGeocode {
        try Gazetteer.shipped().reverse(Coordinate(latitude: lat, longitude: lon))
    }

    func testShippedLoads() throws {
        let g = try Gazetteer.shipped()
        XCTAssertEqual(g.places.count, 170_391)
        XCTAssertEqual(
            g.places.attributeNames,
            ["country_code", "admin1_code", "admin1_name", "admin2_name", "population", "country_name", "locality_id"])
        XCTAssertTrue(try Gazetteer.shipped() === g, "loaded once, shared")
        XCTAssertEqual(g.places.id(at: 0), "3038832")
        XCTAssertEqual(g.places.name(at: 0), "Vila")
        XCTAssertEqual(g.places.attribute("country_name", at: 0), "Andorra")
    }

    func testSpringfieldIllinois() throws {
        let r = try reverse(39.80, -89.64)
        XCTAssertEqual(r.formatted(), "Springfield, IL")
        XCTAssertEqual(r.formatted(.cityState), "Springfield, IL")
        XCTAssertEqual(r.formatted(.cityStateCountry), "Springfield, Illinois, United States")
        XCTAssertEqual(r.formatted(.oneLine), "Springfield IL")
        XCTAssertEqual(r.name, "Springfield")
        XCTAssertEqual(r.admin1Code, "IL")
        XCTAssertEqual(r.admin1Name, "Illinois")
        XCTAssertEqual(r.admin2Name, "Sangamon County")
        XCTAssertEqual(r.countryCode, "US")
        XCTAssertEqual(r.countryName, "United States")
        XCTAssertEqual(r.distance, 370.17, accuracy: 0.01)
        let g = try Gazetteer.shipped()
        XCTAssertEqual(g.places.id(at: r.index), "4250542")
        XCTAssertEqual(g.places.attribute("population", at: r.index).map { Int($0)! > 100_000 }, true)
        let c = r.components
        XCTAssertEqual(c[.city], "Springfield")
        XCTAssertEqual(c[.state], "Illinois")
        XCTAssertEqual(c[.stateCode], "IL")
        XCTAssertEqual(c[.county], "Sangamon County")
        XCTAssertEqual(c[.countryCode], "US")
        XCTAssertNil(c[.road])
        // The other Springfield.
        XCTAssertEqual(try reverse(37.2, -93.3).formatted(.cityStateCountry), "Springfield, Missouri, United States")
    }

    /// tests/golden/reverse_geocode.tsv: "City, State" in 34 countries, checked against the
    /// sources by tools/check_reverse_geocode.py; max_distance_m "inf" asks for no limit.
    func testGoldenTable() throws {
        let rows = try Golden.rows("reverse_geocode.tsv", columns: ["lat", "lon", "style", "max_distance_m", "name", "text"])
        var countries = Set<String>()
        for row in rows {
            let (lat, lon, styleName) = (row.double("lat"), row.double("lon"), row.text("style"))
            XCTAssertTrue(styleName == "CITY_STATE" || styleName == "CITY_STATE_COUNTRY", styleName)
            let style: AddressStyle = styleName == "CITY_STATE" ? .cityState : .cityStateCountry
            var options = ReverseGeocodeOptions()
            if !row.text("max_distance_m").isEmpty { options.maxDistance = row.double("max_distance_m") }
            let r = try Gazetteer.shipped().reverse(Coordinate(latitude: lat, longitude: lon), options: options)
            XCTAssertEqual(r.name, row.text("name"), "\(lat),\(lon)")
            XCTAssertEqual(r.hasLocality, !row.text("name").isEmpty, "\(lat),\(lon)")
            XCTAssertEqual(r.formatted(style), row.text("text"), "\(lat),\(lon) \(styleName)")
            countries.insert(r.countryCode)
        }
        XCTAssertEqual(rows.count, 76)
        XCTAssertGreaterThanOrEqual(countries.count, 20)
    }

    /// Issue 20: the nine cities at their usual centres read as the city, with the section as the
    /// sub-locality.
    func testCityCentresReadAsTheCity() throws {
        let cases: [(Double, Double, String, String, String)] = [
            (41.8781, -87.6298, "Chicago, IL", "Chicago Loop", "Chicago Loop, Chicago, IL"),
            (43.6532, -79.3832, "Toronto, ON", "Bay Street Corridor", "Bay Street Corridor, Toronto, ON"),
            (48.8566, 2.3522, "Paris, Île-de-France", "Paris 04 Hôtel-de-Ville", "Paris 04 Hôtel-de-Ville, Paris, Île-de-France"),
            (-23.5505, -46.6333, "São Paulo, SP", "Se", "Se, São Paulo, SP"),
            (52.52, 13.405, "Berlin, State of Berlin", "Mitte", "Mitte, Berlin, State of Berlin"),
            (37.7749, -122.4194, "San Francisco, CA", "", "San Francisco, CA"),
            (41.0082, 28.9784, "Istanbul", "Sultanahmet", "Sultanahmet, Istanbul"),
            (48.2082, 16.3738, "Vienna", "", "Vienna"),
            (40.7128, -74.0060, "New York City, NY", "", "New York City, NY"),
        ]
        let g = try Gazetteer.shipped()
        for (lat, lon, text, sub, long) in cases {
            let c = try Coordinate(latitude: lat, longitude: lon)
            let r = try g.reverse(c)
            XCTAssertEqual(r.formatted(), text)
            XCTAssertEqual(r.subLocality, sub, text)
            XCTAssertEqual(r.formatted(subLocality: true), long)
            XCTAssertTrue(r.hasLocality && r.withinReach, text)
            XCTAssertEqual(try g.reverseText(c, style: .cityState, options: .init(subLocality: true)).text, long)
            XCTAssertEqual(try g.reverseText(c).text, text)
        }
        let loop = try g.reverse(Coordinate(latitude: 41.8781, longitude: -87.6298))
        XCTAssertEqual(g.places.id(at: loop.index), "4887398")
        XCTAssertEqual(loop.distance, 3_543, accuracy: 10)  // to Chicago's point
        XCTAssertEqual(loop.nearestDistance, 724, accuracy: 10)  // to Chicago Loop's
        XCTAssertEqual(loop.nearestIndex, loop.subLocalityIndex)
        XCTAssertEqual(loop.reach, 6 * 2_664_452.0.squareRoot(), accuracy: 1)
    }

    /// Issue 20: far from every place, no locality; the region and country alone within the
    /// country reach; the old answer with no maximum.
    func testNoLocality() throws {
        let g = try Gazetteer.shipped()
        let pacific = try Coordinate(latitude: -30, longitude: -140)
        var r = try g.reverse(pacific)
        XCTAssertFalse(r.hasLocality)
        XCTAssertEqual(r.name, "")
        XCTAssertEqual(r.formatted(), "")
        XCTAssertEqual(r.countryCode, "")
        XCTAssertGreaterThan(r.distance, 200_000)
        XCTAssertTrue(try g.reverseText(pacific).text.isEmpty)
        let m = try g.locality(at: pacific)
        XCTAssertNil(m.locality)
        XCTAssertFalse(m.inCountry)
        // In the Nevada desert, 60-odd km from the nearest town: Nevada alone.
        let desert = try Coordinate(latitude: 40.0, longitude: -117.0)
        r = try g.reverse(desert, options: .init(maxDistance: 10_000))
        XCTAssertFalse(r.hasLocality)
        XCTAssertEqual(r.formatted(), "Nevada, United States")
        XCTAssertEqual(r.formatted(.cityStateCountry), "Nevada, United States")
        XCTAssertEqual(r.countryCode, "US")
        XCTAssertEqual(try g.reverseText(desert, style: .cityState, options: .init(maxDistance: 10_000)).text, "Nevada, United States")
        XCTAssertEqual(try g.reverse(desert, options: .init(maxDistance: 10_000, countryReach: 0)).formatted(), "")
        // No limit: the nearest place's locality however far.
        r = try g.reverse(pacific, options: .init(maxDistance: .infinity))
        XCTAssertTrue(r.hasLocality)
        XCTAssertFalse(r.withinReach)
        XCTAssertFalse(r.name.isEmpty)
        assertThrows(.notFinite) { () throws(GeoLocError) in _ = try g.reverse(pacific, options: .init(maxDistance: .nan)) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in _ = try g.reverse(pacific, options: .init(maxDistance: -1)) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in _ = try g.reverse(pacific, options: .init(countryReach: -1)) }
    }

    /// Issue 20: the locality reference set (tests/golden/reverse_geocode_localities.tsv, made
    /// without the library), scored; bench/places/score_localities.py prints the same figures
    /// beside reverse_geocoder's.
    func testLocalityReferenceSet() throws {
        let rows = try Golden.rows(
            "reverse_geocode_localities.tsv", columns: ["kind", "lat", "lon", "expect_id", "name", "country", "population", "how"])
        let g = try Gazetteer.shipped()
        var score: [String: (Int, Int)] = [:]
        for row in rows {
            let m = try g.locality(at: Coordinate(latitude: row.double("lat"), longitude: row.double("lon")))
            let got = m.locality.map { g.places.id(at: $0) } ?? ""
            let (a, b) = score[row.text("kind"), default: (0, 0)]
            score[row.text("kind")] = (a + (got == row.text("expect_id") ? 1 : 0), b + 1)
        }
        Self.checkReferenceScores(score.mapValues { ($0.0, $0.1) })
    }

    /// The shares each door must reach on the reference set (the measured ones, rounded down).
    static func checkReferenceScores(_ score: [String: (Int, Int)], file: StaticString = #filePath, line: UInt = #line) {
        let least: [String: Double] = ["centre": 0.99, "ring1": 0.99, "ring3": 0.98, "town": 1, "far": 1, "named": 1]
        for (kind, share) in least {
            guard let (a, b) = score[kind] else { XCTFail("no \(kind) rows", file: file, line: line); continue }
            XCTAssertGreaterThanOrEqual(Double(a) / Double(b), share, "\(kind): \(a) of \(b)", file: file, line: line)
        }
    }

    func testNativeNamesAndRegions() throws {
        let sp = try reverse(-23.5465, -46.63511)
        XCTAssertEqual(sp.name, "São Paulo")
        XCTAssertEqual(sp.admin1Name, "São Paulo")
        XCTAssertEqual(sp.admin1Code, "27")  // GeoNames' code: kept, but not written
        XCTAssertNil(sp.components[.stateCode])
        XCTAssertEqual(sp.countryName, "Brazil")
        XCTAssertEqual(sp.formatted(), "São Paulo, SP")
        let dc = try reverse(38.89611, -77.03537)
        XCTAssertEqual(dc.admin1Code, "DC")
        XCTAssertEqual(dc.admin1Name, "District of Columbia")
        XCTAssertEqual(dc.formatted(), "Washington, DC")
        XCTAssertEqual(try reverse(35.6905, 139.69271).formatted(), "Tokyo")
        XCTAssertEqual(try reverse(47.36767, 8.551).admin2Name, "Bezirk Zürich")
        // Current first-level divisions: Hauts-de-France (2016), not Picardie.
        XCTAssertEqual(try reverse(49.894, 2.2957).admin1Name, "Hauts-de-France")
    }

    func testOceansPolesAndTheAntimeridian() throws {
        // With no maximum distance: the nearest town, however far.
        let g = try Gazetteer.shipped()
        func reverse(_ lat: Double, _ lon: Double) throws -> ReverseGeocode {
            try g.reverse(Coordinate(latitude: lat, longitude: lon), options: .init(maxDistance: .infinity))
        }
        var r = try reverse(30, -40)
        XCTAssertEqual(r.formatted(.cityStateCountry), "Lajes das Flores, Azores, Portugal")
        XCTAssertEqual(r.distance, 1_316_758, accuracy: 1)
        XCTAssertFalse(try self.reverse(30, -40).hasLocality, "no locality by default")
        r = try reverse(90, 0)
        XCTAssertEqual(r.formatted(), "Longyearbyen, Svalbard")
        XCTAssertEqual(r.formatted(.cityStateCountry), "Longyearbyen, Svalbard, Svalbard and Jan Mayen")
        XCTAssertEqual(try reverse(90, 123).index, r.index, "every longitude is the pole")
        r = try reverse(-90, 0)
        XCTAssertEqual(r.formatted(), "Puerto Williams, Region of Magallanes")
        XCTAssertEqual(r.formatted(.cityStateCountry), "Puerto Williams, Region of Magallanes, Chile")
        XCTAssertEqual(r.distance, 3_899_217, accuracy: 1)
        XCTAssertEqual(try reverse(-90, -77).index, r.index)
        // Across the antimeridian: the nearest place may be on the other side.
        let east = try self.reverse(-16.5, -179.99)
        let west = try self.reverse(-16.5, 179.99)
        XCTAssertEqual(east.countryCode, "FJ")
        XCTAssertEqual(west.countryCode, "FJ")
        XCTAssertEqual(try self.reverse(-16.5, 180).index, try self.reverse(-16.5, -180).index)
    }

    func testWGS84IsPassedThrough() throws {
        let g = try Gazetteer.shipped()
        let c = try Coordinate(latitude: 39.80, longitude: -89.64)
        do {
            let r = try g.reverse(c, model: .wgs84)
            XCTAssertEqual(r.name, "Springfield")
        } catch {
            XCTAssertEqual(error.code, .unsupported)
        }
    }

    /// 2,000 seeded points near real places (and 200 anywhere) agree with an exhaustive search:
    /// every place measured with `haversineDistance`, ties to the smaller index. The search
    /// sweeps outwards from the point in latitude order and stops where the latitude difference
    /// alone rules out anything nearer; 21 points are also checked against every place.
    func testAgreesWithExhaustiveSearch() throws {
        let g = try Gazetteer.shipped()
        let s = g.places
        let n = s.count
        var lat = [Double](repeating: 0, count: n)
        var lon = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let c = s.coordinate(at: i)
            lat[i] = c.latitude
            lon[i] = c.longitude
        }
        let order = (0..<n).sorted { lat[$0] < lat[$1] || (lat[$0] == lat[$1] && $0 < $1) }
        let sortedLat = order.map { lat[$0] }
        let metersPerDegree = Earth.meanRadius * .pi / 180

        func sweep(_ c: Coordinate) -> (Int, Double) {
            var lo = 0
            var hi = n
            while lo < hi {
                let mid = (lo + hi) / 2
                if sortedLat[mid] < c.latitude { lo = mid + 1 } else { hi = mid }
            }
            var best = (index: Int.max, distance: Double.infinity)
            func consider(_ k: Int) {
                let i = order[k]
                let d = haversineDistance(lat1: c.latitude, lon1: c.longitude, lat2: lat[i], lon2: lon[i])
                if d < best.distance || (d == best.distance && i < best.index) { best = (i, d) }
            }
            var up = lo
            var down = lo - 1
            while up < n || down >= 0 {
                if up < n {
                    if abs(sortedLat[up] - c.latitude) * metersPerDegree * (1 - 1e-9) > best.distance {
                        up = n
                    } else {
                        consider(up)
                        up += 1
                    }
                }
                if down >= 0 {
                    if abs(sortedLat[down] - c.latitude) * metersPerDegree * (1 - 1e-9) > best.distance {
                        down = -1
                    } else {
                        consider(down)
                        down -= 1
                    }
                }
            }
            return best
        }

        func everyPlace(_ c: Coordinate) -> (Int, Double) {
            var best = (index: -1, distance: Double.infinity)
            for i in 0..<n {
                let d = haversineDistance(lat1: c.latitude, lon1: c.longitude, lat2: lat[i], lon2: lon[i])
                if d < best.distance { best = (i, d) }
            }
            return best
        }

        var rng = SplitMix64(seed: 0x6EA2_0001)
        var points: [Coordinate] = []
        for _ in 0..<2_000 {
            let i = rng.int(n)
            let dlat = (rng.unit() - 0.5) * 0.6
            let dlon = (rng.unit() - 0.5) * 0.6
            points.append(try Coordinate(latitude: min(90, max(-90, lat[i] + dlat)), longitude: lon[i] + dlon))
        }
        for _ in 0..<200 {
            points.append(try Coordinate(latitude: asin(rng.unit() * 2 - 1) * 180 / .pi, longitude: rng.unit() * 360 - 180))
        }
        // Exact ties: the places that share their position with another (the smaller index wins).
        var seen: [Coordinate: Int] = [:]
        var shared = 0
        for i in 0..<n where shared < 100 {
            let c = s.coordinate(at: i)
            if seen[c] != nil {
                points.append(c)
                shared += 1
            } else {
                seen[c] = i
            }
        }
        XCTAssertEqual(shared, 37)  // every place of the shipped data at another's position
        var mismatches = 0
        for (k, c) in points.enumerated() {
            let m = try g.locality(at: c, options: .init(maxDistance: .infinity))
            let r = (index: m.nearest, distance: m.nearestDistance)
            let (index, d) = sweep(c)
            if k % 110 == 0 {
                let full = everyPlace(c)
                XCTAssertEqual(full.0, index, "sweep vs every place at \(c)")
                XCTAssertEqual(full.1, d)
            }
            if r.index != index {
                mismatches += 1
                XCTFail("\(c): reverse gave #\(r.index) at \(r.distance) m, exhaustive #\(index) at \(d) m")
            }
            XCTAssertEqual(r.distance, d, accuracy: d * 1e-12 + 1e-9, "\(c)")
        }
        XCTAssertEqual(mismatches, 0)
    }

    /// A gazetteer's nearest-place search ranks places by their chords in single precision and
    /// measures only those within the floats' error of the least (`LeafFloats`): places a few
    /// meters apart (several measured), 40 at one position (more than it measures: the exact
    /// search answers), and points on places, between close pairs and anywhere agree with an
    /// exhaustive search (every place by `haversineDistance`, ties to the smaller index), as do
    /// the set's own nearest search (over the doubles) and the many-points form.
    func testNearestPlaceOverFloatsAgreesWithExhaustiveSearch() throws {
        var rng = SplitMix64(seed: 0x6EA2_0002)
        var places: [Place] = []
        func add(_ lat: Double, _ lon: Double) {
            let c = try! Coordinate(latitude: lat, longitude: lon)
            places.append(Place(coordinate: c, id: "\(places.count)", name: "P\(places.count)", attributes: ["cc": "US"]))
        }
        let metersPerDegree = Earth.meanRadius * .pi / 180
        for _ in 0..<600 {
            // A cluster of 2 to 6 within 20 m, near the United States.
            let lat = 30 + rng.unit() * 15, lon = -120 + rng.unit() * 40
            for _ in 0..<(2 + rng.int(5)) {
                let r = rng.unit() * 20 / metersPerDegree
                add(lat + r * (rng.unit() - 0.5), lon + r * (rng.unit() - 0.5))
            }
        }
        let firstOfForty = places.count
        for _ in 0..<40 { add(40.5, -100.25) }
        for _ in 0..<1_000 { add(asin(rng.unit() * 2 - 1) * 180 / .pi, rng.unit() * 360 - 180) }
        let g = try Gazetteer(places: PlaceSet(places))
        XCTAssertNotNil(g.places.kdtree.leafFloats)
        let coords = places.map(\.coordinate)

        var points: [Coordinate] = [try Coordinate(latitude: 40.5, longitude: -100.25)]
        for _ in 0..<400 {
            let a = coords[rng.int(coords.count)]
            points.append(a)
            // Between a place and its neighbour in the list (the same cluster, most often).
            let i = rng.int(coords.count - 1)
            points.append(try Coordinate(
                latitude: (coords[i].latitude + coords[i + 1].latitude) / 2,
                longitude: (coords[i].longitude + coords[i + 1].longitude) / 2))
            points.append(try Coordinate(
                latitude: a.latitude + (rng.unit() - 0.5) * 1e-3, longitude: a.longitude + (rng.unit() - 0.5) * 1e-3))
            points.append(try Coordinate(latitude: asin(rng.unit() * 2 - 1) * 180 / .pi, longitude: rng.unit() * 360 - 180))
        }
        let many = try g.nearestPlaces(to: points)
        for (k, p) in points.enumerated() {
            var best = (index: -1, distance: Double.infinity)
            for (i, c) in coords.enumerated() {
                let d = haversineDistance(lat1: p.latitude, lon1: p.longitude, lat2: c.latitude, lon2: c.longitude)
                if d < best.distance { best = (i, d) }
            }
            let expected = PlaceMatch(index: best.index, distance: best.distance)
            XCTAssertEqual(try g.nearestPlace(to: p), expected, "\(p)")
            XCTAssertEqual(many[k], expected, "\(p)")
            XCTAssertEqual(try g.places.nearest(to: p, count: 1), [expected], "\(p)")
        }
        // The 40 at one position: the first of them, at 0 m.
        XCTAssertEqual(try g.nearestPlace(to: points[0]), PlaceMatch(index: firstOfForty, distance: 0))
    }

    // MARK: - Other gazetteers, errors

    func testReverseGeocoderFormatFile() throws {
        // rg_cities1000.csv's own columns: lat, lon, name, admin1, admin2, cc.
        let g = try Gazetteer(path: Self.fixtures + "rg_sample.csv")
        XCTAssertEqual(g.places.count, 4)
        let any = ReverseGeocodeOptions(maxDistance: .infinity)  // four places: far apart
        let r = try g.reverse(Coordinate(latitude: 39.7, longitude: -89.5))
        XCTAssertEqual(r.admin1Code, "")
        XCTAssertEqual(r.formatted(), "Springfield, IL")  // the formatter derives the code
        XCTAssertEqual(r.formatted(.cityStateCountry), "Springfield, Illinois, United States")
        XCTAssertEqual(try g.reverse(Coordinate(latitude: 37, longitude: -93)).formatted(), "Springfield, MO")
        XCTAssertEqual(try g.reverse(Coordinate(latitude: 50, longitude: 3), options: any).formatted(.cityStateCountry), "Paris, Ile-de-France, France")
        XCTAssertEqual(try g.reverse(Coordinate(latitude: 44, longitude: -80), options: any).formatted(), "Toronto, ON")
        // No population column: every place reaches 0 m, so a point's own surroundings are 2 km.
        XCTAssertFalse(try g.reverse(Coordinate(latitude: 44, longitude: -80)).hasLocality)
    }

    func testInitChecksThePlaces() throws {
        let c = try Coordinate(latitude: 1, longitude: 2)
        assertThrows(.invalidArgument) { () throws(GeoLocError) in
            try Gazetteer(places: PlaceSet([Place(coordinate: c, id: "a", name: "A")]))
        }
        assertThrows(.invalidArgument) { () throws(GeoLocError) in
            try Gazetteer(places: PlaceSet.load(csv: "lat,lon,name,country_code\n").places)
        }
        assertThrows(.invalidArgument) { () throws(GeoLocError) in
            try Gazetteer(places: PlaceSet.load(csv: "lat,lon,country_code\n1,2,US\n").places)
        }
        let g = try Gazetteer(places: PlaceSet([Place(coordinate: c, id: "a", name: "A", attributes: ["cc": "FR"])]))
        let r = try g.reverse(Coordinate(latitude: 0, longitude: 0), options: .init(maxDistance: .infinity))
        var expected = ReverseGeocode(index: 0, distance: r.distance, name: "A", admin1Code: "", admin1Name: "", admin2Name: "", countryCode: "FR")
        expected.withinReach = false
        XCTAssertEqual(r, expected)
        XCTAssertEqual(r.countryName, "")
        XCTAssertEqual(r.formatted(), "A")
        XCTAssertEqual(r.formatted(.cityStateCountry), "A, France")
        assertThrows(.notFound) { () throws(GeoLocError) in try Gazetteer(path: Self.fixtures + "missing.tsv") }
        assertThrows(.invalidArgument) { () throws(GeoLocError) in try Gazetteer(path: Self.fixtures + "places.csv") }
    }

    func testShippedSearchPaths() throws {
        let source = String(#filePath.dropLast("Tests/GeoLocTests/GeocodingTests.swift".count)) + "data/gazetteer/cities1000.tsv"
        unsetenv("GEOLOC_GAZETTEER")
        var paths = Gazetteer.shippedSearchPaths
        XCTAssertEqual(paths.last, source)
        XCTAssertGreaterThanOrEqual(paths.count, 3)
        for p in paths.dropLast() {
            // An install's share/geoloc, or the file beside the binary (a library copied into
            // the Python package).
            XCTAssertTrue(p.hasPrefix("/") && p.hasSuffix("/cities1000.tsv") && !p.contains(".."), p)
        }
        // The directory of this test binary, by dladdr.
        XCTAssertTrue(paths.contains { $0.hasSuffix("/share/geoloc/cities1000.tsv") })
        setenv("GEOLOC_GAZETTEER", "/somewhere/else.tsv", 1)
        defer { unsetenv("GEOLOC_GAZETTEER") }
        paths = Gazetteer.shippedSearchPaths
        XCTAssertEqual(paths.first, "/somewhere/else.tsv")
        XCTAssertEqual(paths.last, source)
        // Once loaded, the shipped gazetteer stays.
        XCTAssertEqual(try Gazetteer.shipped().places.count, 170_391)
    }

    func testShippedFromManyThreads() throws {
        final class Job: @unchecked Sendable {
            var gazetteer: Gazetteer?
            var name = ""
        }
        let jobs = (0..<4).map { _ in Job() }
        var threads: [pthread_t] = []
        for job in jobs {
            var t = pthread_t()
            let arg = Unmanaged.passRetained(job).toOpaque()
            let rc = pthread_create(&t, nil, { arg in
                let job = Unmanaged<Job>.fromOpaque(arg!).takeRetainedValue()
                job.gazetteer = try? Gazetteer.shipped()
                job.name = (try? job.gazetteer?.reverse(Coordinate(latitude: 39.80, longitude: -89.64)).formatted()) ?? ""
                return nil
            }, arg)
            XCTAssertEqual(rc, 0)
            threads.append(t)
        }
        for t in threads { pthread_join(t, nil) }
        let g = try Gazetteer.shipped()
        for job in jobs {
            XCTAssertTrue(job.gazetteer === g)
            XCTAssertEqual(job.name, "Springfield, IL")
        }
    }

    // MARK: - Many points, and the kept texts

    /// n fixed points: a third uniform on the sphere, the rest within about 5 km of a place of
    /// the gazetteer, and the poles and the antimeridian.
    static func testPoints(_ places: PlaceSet, _ n: Int, seed: UInt64) -> [Coordinate] {
        var state = seed
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / 9007199254740992.0
        }
        var out: [Coordinate] = []
        for i in 0..<n {
            if i % 3 == 0 {
                out.append(try! Coordinate(latitude: asin(2 * next() - 1) * 180 / .pi, longitude: 360 * next() - 180))
            } else {
                let c = places.coordinate(at: Int(next() * Double(places.count)))
                let lat = Swift.max(-90, Swift.min(90, c.latitude + 0.09 * (next() - 0.5)))
                out.append(try! Coordinate(latitude: lat, longitude: c.longitude + 0.09 * (next() - 0.5)))
            }
        }
        let fixed = [(90.0, 0.0), (-90, 0), (0, 180), (-17, -180)]
        for (i, (lat, lon)) in fixed.enumerated() where i < n { out[i] = try! Coordinate(latitude: lat, longitude: lon) }
        return out
    }

    func testManyPointsEqualOneByOne() throws {
        let g = try Gazetteer.shipped()
        let points = Self.testPoints(g.places, 300, seed: 11)
        let many = try g.nearestPlaces(to: points)
        XCTAssertEqual(many.count, points.count)
        for (p, m) in zip(points, many) {
            let r = try g.reverse(p)
            XCTAssertEqual(PlaceMatch(index: r.nearestIndex, distance: r.nearestDistance), m)
        }
        for style in AddressStyle.allCases {
            let texts = try g.reverseText(points, style: style)
            XCTAssertEqual(texts.count, points.count)
            for (i, p) in points.enumerated() {
                let r = try g.reverse(p)
                XCTAssertEqual(texts[i], r.formatted(style), "\(style) at \(p)")
                let one = try g.reverseText(p, style: style)
                XCTAssertEqual(one.place, PlaceMatch(index: r.index, distance: r.distance))
                XCTAssertEqual(one.text, texts[i])
                if r.hasLocality { XCTAssertEqual(try g.text(ofPlace: r.index, style: style), texts[i]) }
                let sub = try g.reverseText(p, style: style, options: .init(subLocality: true)).text
                XCTAssertEqual(sub, r.formatted(style, subLocality: true))
            }
        }
        XCTAssertEqual(try g.nearestPlaces(to: []), [])
        XCTAssertEqual(try g.reverseText([], style: .cityState), [])
        XCTAssertThrowsError(try g.text(ofPlace: -1)) { XCTAssertEqual(($0 as? GeoLocError)?.code, .outOfRange) }
        XCTAssertThrowsError(try g.text(ofPlace: g.places.count)) { XCTAssertEqual(($0 as? GeoLocError)?.code, .outOfRange) }
    }

    func testManyPointsAreTheBruteForceNearest() throws {
        let g = try Gazetteer.shipped()
        let s = g.places
        let coords = (0..<s.count).map { s.coordinate(at: $0) }
        let points = Self.testPoints(s, 24, seed: 5)
        let many = try g.nearestPlaces(to: points)
        for (p, m) in zip(points, many) {
            var best = -1
            var bestD = Double.infinity
            for (j, c) in coords.enumerated() {
                let d = try distance(from: p, to: c, model: .sphere, unit: .meters)
                if d < bestD { bestD = d; best = j }
            }
            XCTAssertEqual(m, PlaceMatch(index: best, distance: bestD), "\(p)")
        }
    }

    func testKeptTextsFromManyThreads() throws {
        // A gazetteer of its own over the shipped places: no text is kept yet.
        let g = try Gazetteer(places: try Gazetteer.shipped().places)
        let points = Self.testPoints(g.places, 200, seed: 3)
        final class Job: @unchecked Sendable {
            let g: Gazetteer
            let points: [Coordinate]
            var texts: [String] = []
            init(_ g: Gazetteer, _ points: [Coordinate]) { self.g = g; self.points = points }
        }
        let jobs = (0..<4).map { _ in Job(g, points) }
        var threads: [pthread_t] = []
        for job in jobs {
            var t = pthread_t()
            let arg = Unmanaged.passRetained(job).toOpaque()
            let rc = pthread_create(&t, nil, { arg in
                let job = Unmanaged<Job>.fromOpaque(arg!).takeRetainedValue()
                job.texts = (try? job.g.reverseText(job.points, style: .cityStateCountry)) ?? []
                return nil
            }, arg)
            XCTAssertEqual(rc, 0)
            threads.append(t)
        }
        for t in threads { pthread_join(t, nil) }
        let want = try points.map { try g.reverse($0).formatted(.cityStateCountry) }
        for job in jobs { XCTAssertEqual(job.texts, want) }
    }
}
