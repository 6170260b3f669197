@testable @_spi(Testing) import GeoLoc
import Foundation
import XCTest

/// Finding places by name (PlaceSearch) on the shipped gazetteer and its index, the folding, the
/// query grammar and the reference set tests/golden/search.tsv.
final class SearchTests: XCTestCase {
    static let golden = String(#filePath.dropLast("Tests/GeoLocTests/SearchTests.swift".count)) + "tests/golden/search.tsv"

    func first(_ q: String, _ o: SearchOptions = SearchOptions()) throws -> SearchCandidate? {
        try PlaceSearch.shipped().search(q, options: o).first
    }

    func testFolding() {
        func f(_ s: String) -> String { String(decoding: SearchFold.key(s), as: UTF8.self) }
        XCTAssertEqual(f("São Paulo"), "sao paulo")
        XCTAssertEqual(f("ZÜRICH"), "zurich")
        XCTAssertEqual(f("Straße"), "strasse")
        XCTAssertEqual(f("Łódź"), "lodz")
        XCTAssertEqual(f("Ærøskøbing"), "aeroskobing")
        XCTAssertEqual(f("Київ"), "киів")  // Ukrainian ї is і with a diaeresis
        XCTAssertEqual(f("Ἀθῆναι"), "αθηναι")
        XCTAssertEqual(f("ΣΟΦΊΑ"), "σοφια")
        XCTAssertEqual(f("  Saint-Denis  "), "saint denis")
        XCTAssertEqual(f("St. Louis"), "st louis")
        XCTAssertEqual(f("Val-d'Or"), "val dor")
        XCTAssertEqual(f("Val-d’Or"), "val dor")
        XCTAssertEqual(f("北京"), "北京")
        XCTAssertEqual(f("ＴＯＫＹＯ"), "tokyo")
        XCTAssertEqual(f("Þórshöfn"), "thorshofn")
        XCTAssertEqual(f("İstanbul"), "istanbul")
        XCTAssertEqual(f("ムンバイ"), "ムンバイ")
        XCTAssertEqual(f("मुंबई"), "मुंबई")
        XCTAssertEqual(f("...,"), "")
    }

    func testQueryGrammar() throws {
        XCTAssertNil(try SearchQuery.parse(""))
        XCTAssertNil(try SearchQuery.parse(" , , "))
        let q = try XCTUnwrap(SearchQuery.parse(" Springfield ,IL, , United States"))
        XCTAssertEqual(String(decoding: q.name, as: UTF8.self), "springfield")
        XCTAssertEqual(q.qualifiers.map { String(decoding: $0, as: UTF8.self) }, ["il", "united states"])
        XCTAssertThrowsError(try SearchQuery.parse(String(repeating: "a", count: 1025)))
        XCTAssertThrowsError(try SearchQuery.parse("a" + String(repeating: ",b", count: 9)))
        XCTAssertNotNil(try SearchQuery.parse("a" + String(repeating: ",b", count: 8)))
    }

    func testExamples() throws {
        let cases: [(String, Int64)] = [
            ("Munich", 2867714), ("München", 2867714), ("Kyiv", 703448), ("Kiev", 703448), ("Київ", 703448),
            ("Mumbai", 1275339), ("Bombay", 1275339), ("Beijing", 1816670), ("北京", 1816670), ("Cologne", 2886242),
            ("Köln", 2886242), ("sao paulo", 3448439), ("ZURICH", 2657896), ("Springfield, IL", 4250542),
            ("Springfield, Illinois, United States", 4250542), ("Springfield IL", 4250542), ("sprinfield, il", 4250542),
            ("Springfield", 4409896), ("Paris", 2988507), ("Paris, TX", 4717560), ("Toronto, ON", 6167865),
            ("London, Ontario", 6058560), ("Berlin, Deutschland", 2950159),
        ]
        for (q, id) in cases { XCTAssertEqual(try first(q)?.geonameID, id, q) }
        let kiev = try XCTUnwrap(first("Kiev"))
        XCTAssertEqual(kiev.name, "Kyiv")
        XCTAssertTrue(kiev.matchedAlternate)
        XCTAssertEqual(kiev.matchedName, "kiev")
        XCTAssertEqual(kiev.match, .exact)
        let typo = try XCTUnwrap(first("Sprignfield, IL"))
        XCTAssertEqual(typo.match, .typo)
        XCTAssertEqual(typo.edits, 1)
        XCTAssertLessThan(typo.score, 0.75)
        XCTAssertEqual(try PlaceSearch.shipped().search("Qxzvbnmwq"), [])
    }

    func testPrefixAndBias() throws {
        var o = SearchOptions(prefix: true, near: try Coordinate(latitude: 39.78, longitude: -89.65))
        XCTAssertEqual(try first("spri", o)?.geonameID, 4250542)
        o = SearchOptions(near: try Coordinate(latitude: 39.78, longitude: -89.65))
        XCTAssertEqual(try first("Springfield", o)?.geonameID, 4250542)
        o = SearchOptions(country: "US")
        XCTAssertEqual(try first("Paris", o)?.geonameID, 4717560)
        let all = try PlaceSearch.shipped().search("Springfield", options: SearchOptions(limit: 20, minimumScore: 0))
        XCTAssertEqual(all.count, 20)
        for (a, b) in zip(all, all.dropFirst()) {
            XCTAssertTrue(a.score > b.score || (a.score == b.score && a.population >= b.population))
        }
        XCTAssertThrowsError(try PlaceSearch.shipped().search("x", options: SearchOptions(limit: 0)))
        XCTAssertThrowsError(try PlaceSearch.shipped().search("x", options: SearchOptions(minimumScore: .nan)))
        XCTAssertThrowsError(try PlaceSearch.shipped().search("x", options: SearchOptions(maxEdits: 3)))
    }

    func testSaveAndOpen() throws {
        let s = try PlaceSearch.shipped()
        let path = "/tmp/geoloc-search-test-\(getpid()).search"
        defer { unlink(path) }
        try s.save(to: path)
        let t = try PlaceSearch(gazetteer: s.gazetteer, indexPath: path)
        XCTAssertEqual(try t.search("Sprignfield"), try s.search("Sprignfield"))
        XCTAssertLessThanOrEqual(t.indexBytes, 30_000_000)
        // A small gazetteer: the shipped index does not fit it.
        var b = PlaceSetBuilder(attributeNames: ["country_code", "population"])
        try b.append(Coordinate(latitude: 47.37, longitude: 8.54), id: "1", name: "Zürich", attributes: ["CH", "400000"])
        let g = try Gazetteer(places: b.build())
        XCTAssertThrowsError(try PlaceSearch(gazetteer: g, indexPath: path)) { e in
            XCTAssertEqual((e as? GeoLocError)?.code, .invalidArgument)
        }
        let own = try PlaceSearch(gazetteer: g)
        XCTAssertEqual(try own.search("zurich, ch").first?.index, 0)
        XCTAssertEqual(try own.search("Zurihc").first?.match, .typo)
    }

    /// A resealed index whose keys are out of order is refused (a binary search over them would
    /// miss names the file holds); an index of format version 1 is refused as unsupported.
    func testForgedKeysOutOfOrder() throws {
        var b = PlaceSetBuilder(attributeNames: ["country_code", "population"])
        try b.append(Coordinate(latitude: 39.8, longitude: -89.6), id: "1", name: "Springfield", attributes: ["US", "114394"])
        try b.append(Coordinate(latitude: 47.37, longitude: 8.54), id: "2", name: "Zürich", attributes: ["CH", "341730"])
        try b.append(Coordinate(latitude: 50.45, longitude: 30.52), id: "3", name: "Kyiv", attributes: ["UA", "2952301"])
        let g = try Gazetteer(places: b.build())
        let path = "/tmp/geoloc-search-forged-\(getpid()).search"
        defer { unlink(path) }
        try PlaceSearch(gazetteer: g).save(to: path)
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let keys = Array("kyivspringfield".utf8)
        let at = try XCTUnwrap((128..<(original.count - keys.count)).first { original[$0..<($0 + keys.count)].elementsEqual(keys) })
        func open(_ bytes: [UInt8]) throws -> PlaceSearch {
            var forged = bytes
            forged.withUnsafeMutableBytes { PlaceSearch.resealIndex($0) }
            try writeFileAtomically(path, forged.withUnsafeBytes { UnsafeRawBufferPointer($0) })
            return try PlaceSearch(gazetteer: g, indexPath: path)
        }
        XCTAssertEqual(try open(original).search("Kyiv").first?.index, 2)
        var forged = original
        forged.replaceSubrange(at..<(at + 4), with: Array("zzzz".utf8))  // the first key now sorts after the second
        XCTAssertThrowsError(try open(forged)) { e in
            XCTAssertEqual((e as? GeoLocError)?.code, .parse)
            XCTAssertTrue("\(e)".contains("not after"), "\(e)")
        }
        var old = original
        old[8] = 1
        XCTAssertThrowsError(try open(old)) { e in XCTAssertEqual((e as? GeoLocError)?.code, .unsupported) }
    }

    /// The reference set: each group at its goal.
    func testReferenceSet() throws {
        let goals = ["exact": 99.0, "city_st": 99, "city_state": 99, "city_country": 99, "city_state_country": 99,
                     "alternate": 97, "accents_case": 97, "typo1": 95, "typo2": 85, "prefix": 98]
        var tally: [String: (Int, Int)] = [:]
        let s = try PlaceSearch.shipped()
        let text = try XCTUnwrap(readWholeFile(SearchTests.golden))
        var header = true
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            if header { header = false; continue }
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 5, let id = Int64(f[3]), let rank = Int(f[4]) else { continue }
            let got = try s.search(f[1], options: SearchOptions(prefix: f[2] == "prefix"))
            let ok = got.prefix(rank).contains { $0.geonameID == id }
            var t = tally[f[0], default: (0, 0)]
            t.0 += ok ? 1 : 0
            t.1 += 1
            tally[f[0]] = t
        }
        for (group, goal) in goals {
            let (passed, total) = tally[group] ?? (0, 0)
            XCTAssertGreaterThan(total, 0, group)
            XCTAssertGreaterThanOrEqual(100.0 * Double(passed) / Double(max(total, 1)), goal, "\(group): \(passed)/\(total)")
        }
    }
}

/// The text of the file at `path`, read as the loaders read a file (Core's `LoadedFile`).
private func readWholeFile(_ path: String) -> String? {
    guard let file = try? LoadedFile(path: path) else { return nil }
    defer { file.release() }
    return String(decoding: file.bytes, as: UTF8.self)
}
