@_spi(CABI) @testable import GeoLoc
import XCTest

/// The CSV and GeoJSON loaders: syntax, column sniffing, every kind of bad row with where it
/// is, strict mode, files.
final class PlaceLoadTests: XCTestCase {
    /// tests/places/ of this source tree.
    static let fixtures = String(#filePath.dropLast("Tests/GeoLocTests/PlaceLoadTests.swift".count)) + "tests/places/"


    func csv(_ bytes: [UInt8], _ options: LoadOptions = .init()) throws(GeoLocError) -> PlaceLoad {
        var result: Result<PlaceLoad, GeoLocError>!
        bytes.withUnsafeBytes { b in
            result = Result { () throws(GeoLocError) in try PlaceSet.load(csv: b, options: options) }
        }
        return try result.get()
    }

    func geoJSON(_ bytes: [UInt8], _ options: LoadOptions = .init()) throws(GeoLocError) -> PlaceLoad {
        var result: Result<PlaceLoad, GeoLocError>!
        bytes.withUnsafeBytes { b in
            result = Result { () throws(GeoLocError) in try PlaceSet.load(geoJSON: b, options: options) }
        }
        return try result.get()
    }

    func names(_ s: PlaceSet) -> [String] { (0..<s.count).map { s.name(at: $0) } }
    func ids(_ s: PlaceSet) -> [String] { (0..<s.count).map { s.id(at: $0) } }

    // MARK: - CSV syntax

    func testQuotedFieldsEscapesAndEmbeddedNewlines() throws {
        let text = #"""
            id,name,lat,lon,note
            a,"Springfield, Illinois",39.8,-89.6,"say ""hi"""
            b,"two
            lines",1,2,
            c,plain"quote,3,4,"x,y"
            d,"",5,6,""
            """#
        let load = try PlaceSet.load(csv: text)
        XCTAssertEqual(load.issues, [])
        let s = load.places
        XCTAssertEqual(s.count, 4)
        XCTAssertEqual(s.attributeNames, ["note"])
        XCTAssertEqual(ids(s), ["a", "b", "c", "d"])
        XCTAssertEqual(names(s), ["Springfield, Illinois", "two\nlines", "plain\"quote", ""])
        XCTAssertEqual(s.attribute("note", at: 0), "say \"hi\"")
        XCTAssertNil(s.attribute("note", at: 1))  // an empty field is an absent value
        XCTAssertEqual(s.attribute("note", at: 2), "x,y")
        XCTAssertNil(s.attribute("note", at: 3))
        XCTAssertEqual(s.coordinate(at: 0), try Coordinate(latitude: 39.8, longitude: -89.6))
    }

    func testCRLFAndByteOrderMark() throws {
        let text = "\u{FEFF}lat,lon,name\r\n1,2,a\r\n3,4,\"b\r\nc\"\r\n5,6,\"\"\"q\"\"\"\r\n\r\n"
        let load = try PlaceSet.load(csv: text)
        XCTAssertEqual(load.issues, [])
        XCTAssertEqual(names(load.places), ["a", "b\r\nc", "\"q\""])
        XCTAssertEqual(ids(load.places), ["1", "2", "3"])
        // A bad row after the embedded line break is on line 5.
        let bad = try PlaceSet.load(csv: "\u{FEFF}lat,lon,name\r\n1,2,a\r\n3,4,\"b\r\nc\"\r\n5,x,d\r\n")
        XCTAssertEqual(bad.issues, [LoadIssue(record: 5, reason: "longitude \"x\" is not a decimal number")])
    }

    func testNoTrailingNewlineAndTrailingDelimiter() throws {
        let s = try PlaceSet.load(csv: "lat,lon,a,b\n1,2,x,\n3,4,,y").places
        XCTAssertEqual(s.count, 2)
        XCTAssertEqual(s.attribute("a", at: 0), "x")
        XCTAssertNil(s.attribute("b", at: 0))
        XCTAssertNil(s.attribute("a", at: 1))
        XCTAssertEqual(s.attribute("b", at: 1), "y")
        // A delimiter that ends the input ends a last, empty field.
        XCTAssertEqual(try PlaceSet.load(csv: "lat,lon,a\n1,2,").places.count, 1)
        // A CR that ends the input is a line break.
        XCTAssertEqual(try PlaceSet.load(csv: "lat,lon\r\n1,2\r").places.coordinate(at: 0).longitude, 2)
        XCTAssertEqual(try PlaceSet.load(csv: "lat,lon,name\r\n1,2,\"x\"\r").places.name(at: 0), "x")
    }

    func testEveryBadRowWithItsLine() throws {
        var bytes = Array("""
            name,lat,lon,extra
            ok,1,2,x
            few,1,2
            many,1,2,x,y
            nolat,,2,x
            junk,12abc,2,x
            hex,0x10,2,x
            inf,inf,2,x
            nan,1,nan,x
            huge,1e999,2,x
            north,91,2,x
            "multi
            line",1,2,x
            nolon,1, ,x
            quote,"1"x,2,x

            """.utf8)
        bytes += Array("utf8,1,2,".utf8) + [0xFF, 0x41] + Array("\n".utf8)
        bytes += Array("overlong,1,2,".utf8) + [0xC0, 0xAF] + Array("\n".utf8)
        bytes += Array("surrogate,1,2,".utf8) + [0xED, 0xA0, 0x80] + Array("\n".utf8)
        bytes += Array("ok2,-1.5,+3.25,y\nopen,\"1,2,x\n".utf8)
        let load = try csv(bytes)
        XCTAssertEqual(load.issues, [
            LoadIssue(record: 3, reason: "has 3 fields, the header has 4"),
            LoadIssue(record: 4, reason: "has 5 fields, the header has 4"),
            LoadIssue(record: 5, reason: "has no latitude"),
            LoadIssue(record: 6, reason: "latitude \"12abc\" is not a decimal number"),
            LoadIssue(record: 7, reason: "latitude \"0x10\" is not a decimal number"),
            LoadIssue(record: 8, reason: "latitude \"inf\" is not a decimal number"),
            LoadIssue(record: 9, reason: "longitude \"nan\" is not a decimal number"),
            LoadIssue(record: 10, reason: "latitude 1e999 is not finite"),
            LoadIssue(record: 11, reason: "latitude 91 is outside [-90, 90]"),
            LoadIssue(record: 14, reason: "has no longitude"),
            LoadIssue(record: 15, reason: "has text after a closing quote"),
            LoadIssue(record: 16, reason: "is not valid UTF-8"),
            LoadIssue(record: 17, reason: "is not valid UTF-8"),
            LoadIssue(record: 18, reason: "is not valid UTF-8"),
            LoadIssue(record: 20, reason: "has an unterminated quoted field"),
        ])
        let s = load.places
        XCTAssertEqual(names(s), ["ok", "multi\nline", "ok2"])
        // Without an id column the id is the record's number (bad records counted).
        XCTAssertEqual(ids(s), ["1", "11", "17"])
        XCTAssertEqual(s.coordinate(at: 2), try Coordinate(latitude: -1.5, longitude: 3.25))
        XCTAssertEqual(s.attributeNames, ["extra"])

        // Strict: the first bad row fails the load, with the count of the others.
        assertThrows(.parse, { () throws(GeoLocError) in try csv(bytes, LoadOptions(strict: true)) },
                     message: "line 3: has 3 fields, the header has 4 (and 14 more bad rows)")
        assertThrows(.invalidUTF8, { () throws(GeoLocError) in
            try csv(Array("name,lat,lon\n".utf8) + [0xFF] + Array(",1,2\nb,x,2\n".utf8), LoadOptions(strict: true))
        }, message: "line 2: is not valid UTF-8 (and 1 more bad row)")
        assertThrows(.parse, { () throws(GeoLocError) in
            try PlaceSet.load(csv: "lat,lon\n1,2\n1,200\n95,0\n", options: LoadOptions(strict: true))
        }, message: "line 4: latitude 95 is outside [-90, 90]")
        XCTAssertEqual(try PlaceSet.load(csv: "lat,lon\n1,2\n", options: LoadOptions(strict: true)).places.count, 1)
    }

    func testStrictNumberGrammar() throws {
        let good: [(String, Double)] = [
            ("12.5", 12.5), ("+12.5", 12.5), ("-12.5", -12.5), (" 12.5\t", 12.5), (".5", 0.5), ("5.", 5),
            ("1e1", 10), ("1E+1", 10), ("-2.5e-1", -0.25), ("0", 0), ("00012", 12), ("89.99999999999999999999", 90),
            ("1234567890123456789012e-21", 1.234567890123456789012), ("0.000000000000000000000000001e27", 1),
        ]
        for (text, value) in good {
            let load = try PlaceSet.load(csv: "lat,lon\n\(text),0\n")
            XCTAssertEqual(load.issues, [], text)
            XCTAssertEqual(load.places.coordinate(at: 0).latitude, value, text)
        }
        for text in ["12abc", "0x1A", "inf", "-inf", "nan", "NaN", "1,5", "1e", "e5", ".", "+", "--1", "1..2", "1e1.5", "1 2", "١٢"] {
            let load = try PlaceSet.load(csv: "lat,lon\n\"\(text)\",0\n")
            XCTAssertEqual(load.issues, [LoadIssue(record: 2, reason: "latitude \(quote(text)) is not a decimal number")], text)
        }
        XCTAssertEqual(try PlaceSet.load(csv: "lat,lon\n-1e400,0\n").issues, [LoadIssue(record: 2, reason: "latitude -1e400 is not finite")])
        XCTAssertEqual(try PlaceSet.load(csv: "lat,lon\n1e-400,0\n").places.coordinate(at: 0).latitude, 0)
    }

    /// The decimal reader rounds as the standard library does, on its fast path and off it.
    func testDecimalReadingIsCorrectlyRounded() throws {
        var g = SplitMix64(seed: 42)
        for _ in 0..<20_000 {
            var digits = ""
            let n = 1 + g.int(25)
            for _ in 0..<n { digits += String(g.int(10)) }
            let point = g.int(n + 1)
            var text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
            if g.int(3) == 0 { text += "e" + String(g.int(60) - 30) }
            if g.int(2) == 0 { text = "-" + text }
            var bytes = Array(text.utf8)
            let read = bytes.withUnsafeMutableBufferPointer { readDecimal(UnsafePointer($0.baseAddress!), 0, $0.count) }
            guard case .value(let v) = read else { return XCTFail("\(text) not read") }
            XCTAssertEqual(v.bitPattern, Double(text)!.bitPattern, text)
            bytes = []
        }
    }

    /// Random rows written with RFC 4180 quoting (fields with delimiters, quotes, CR, LF,
    /// non-ASCII text, of every length around the 8-byte steps of the scanner) read back as
    /// they were, with comma and tab, LF and CRLF.
    func testRandomRoundTrip() throws {
        var g = SplitMix64(seed: 99)
        let alphabet: [String] = ["a", "b", "Z", "0", "7", " ", ",", "\t", "\"", "\n", "\r", "é", "東", "😀", ";", "x"]
        for (delimiter, lineEnd) in [(",", "\n"), ("\t", "\r\n"), (",", "\r\n"), ("\t", "\n")] {
            var rows: [(Double, Double, String, String, String?)] = []
            var text = ["lat", "lon", "name", "id", "note"].joined(separator: delimiter) + lineEnd
            func field(_ s: String) -> String {
                let needsQuotes = s.contains(delimiter) || s.contains("\"") || s.contains("\n") || s.contains("\r") || s.hasPrefix("\"")
                return needsQuotes ? "\"" + s.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\"" : s
            }
            for _ in 0..<2_000 {
                func random() -> String { String((0..<g.int(20)).map { _ in alphabet[g.int(alphabet.count)] }.joined()) }
                let lat = Double(g.int(180_000_001) - 90_000_000) / 1e6
                let lon = Double(g.int(360_000_000) - 180_000_000) / 1e6
                let name = random()
                let id = "id" + random()
                let note: String? = g.int(4) == 0 ? nil : "n" + random()
                rows.append((lat, lon, name, id, note))
                text += ["\(lat)", "\(lon)", field(name), field(id), field(note ?? "")].joined(separator: delimiter) + lineEnd
            }
            let load = try PlaceSet.load(csv: text)
            XCTAssertEqual(load.issues, [], "delimiter \(delimiter.utf8.first!)")
            let s = load.places
            XCTAssertEqual(s.count, rows.count)
            for (i, row) in rows.enumerated() where i < s.count {
                XCTAssertEqual(s.coordinate(at: i).latitude, row.0)
                XCTAssertEqual(s.coordinate(at: i).longitude, row.1)
                XCTAssertEqual(s.name(at: i), row.2)
                XCTAssertEqual(s.id(at: i), row.3)
                XCTAssertEqual(s.attribute("note", at: i), row.4)
            }
        }
    }

    func testLongitudesAreReduced() throws {
        let s = try PlaceSet.load(csv: "lat,lon\n0,180\n0,190\n0,-180\n0,540.5\n0,-1e6\n").places
        XCTAssertEqual((0..<s.count).map { s.coordinate(at: $0).longitude }, [-180, -170, -180, -179.5, normalizedLongitude(-1e6)])
    }

    // MARK: - CSV columns

    func testColumnSniffing() throws {
        func columns(_ header: String, _ row: String, _ options: LoadOptions = .init()) throws -> (Coordinate, String, String, [String]) {
            let load = try PlaceSet.load(csv: header + "\n" + row + "\n", options: options)
            XCTAssertEqual(load.issues, [])
            let s = load.places
            return (s.coordinate(at: 0), s.id(at: 0), s.name(at: 0), s.attributeNames)
        }
        var r = try columns("Name,Latitude,Longitude,ID", "x,1,2,7")
        XCTAssertEqual(r.0, try Coordinate(latitude: 1, longitude: 2))
        XCTAssertEqual(r.1, "7")
        XCTAssertEqual(r.2, "x")
        XCTAssertEqual(r.3, [])
        r = try columns("LNG,LAT,title,geonameid,pop", "2,1,t,99,5")
        XCTAssertEqual(r.0, try Coordinate(latitude: 1, longitude: 2))
        XCTAssertEqual(r.1, "99")
        XCTAssertEqual(r.2, "t")
        XCTAssertEqual(r.3, ["pop"])
        r = try columns("x,y,place_id", "2,1,p")
        XCTAssertEqual(r.0, try Coordinate(latitude: 1, longitude: 2))
        XCTAssertEqual(r.1, "p")
        XCTAssertEqual(r.3, [])
        r = try columns("lat,long,name,title", "1,2,n,t")
        XCTAssertEqual(r.2, "n")
        XCTAssertEqual(r.3, ["title"])
        // "lat" wins over "latitude", which becomes an attribute.
        r = try columns("latitude,lat,lon", "5,1,2")
        XCTAssertEqual(r.0.latitude, 1)
        XCTAssertEqual(r.3, ["latitude"])
        // Options name the columns (exactly, else without regard to case).
        r = try columns("a,b,c,d,e", "1,2,3,4,5", LoadOptions(latitudeColumn: "B", longitudeColumn: "a", idColumn: "e", nameColumn: "c"))
        XCTAssertEqual(r.0, try Coordinate(latitude: 2, longitude: 1))
        XCTAssertEqual(r.1, "5")
        XCTAssertEqual(r.2, "3")
        XCTAssertEqual(r.3, ["d"])
    }

    func testHeaderErrors() {
        assertThrows(.invalidArgument, { () throws(GeoLocError) in try PlaceSet.load(csv: "name,lon\nx,1\n") },
                     message: "the header has no latitude column (lat, latitude or y, or LoadOptions.latitudeColumn); its columns are \"name\", \"lon\"")
        assertThrows(.invalidArgument, { () throws(GeoLocError) in try PlaceSet.load(csv: "lat,name\n1,x\n") })
        assertThrows(.invalidArgument, { () throws(GeoLocError) in try PlaceSet.load(csv: "lat,lon,a,a\n1,2,3,4\n") },
                     message: "the header names the column \"a\" twice")
        assertThrows(.invalidArgument, { () throws(GeoLocError) in
            try PlaceSet.load(csv: "lat,lon\n1,2\n", options: LoadOptions(nameColumn: "label"))
        }, message: "the header has no column \"label\" (LoadOptions.nameColumn); its columns are \"lat\", \"lon\"")
        assertThrows(.invalidArgument, { () throws(GeoLocError) in
            try PlaceSet.load(csv: "lat,lon\n1,2\n", options: LoadOptions(idColumn: "lat"))
        })
        assertThrows(.invalidArgument, { () throws(GeoLocError) in
            try PlaceSet.load(csv: "lat,lon\n1,2\n", options: LoadOptions(delimiter: 34))
        })
        assertThrows(.invalidArgument, { () throws(GeoLocError) in
            try PlaceSet.load(csv: "lat,lon\n1,2\n", options: LoadOptions(delimiter: 0xE9))
        })
        assertThrows(.invalidUTF8, { () throws(GeoLocError) in try csv(Array("lat,lon,".utf8) + [0xFF] + Array("\n1,2,3\n".utf8)) })
        assertThrows(.parse, { () throws(GeoLocError) in try PlaceSet.load(csv: "lat,lon,\"name\n1,2,3\n") },
                     message: "line 1: the header has an unterminated quoted field")
    }

    func testEmptyInputs() throws {
        for text in ["", "\u{FEFF}", "\n\n", "lat,lon", "lat,lon\n", "lat,lon,name\r\n\r\n"] {
            let load = try PlaceSet.load(csv: text)
            XCTAssertEqual(load.places.count, 0, text)
            XCTAssertEqual(load.issues, [], text)
        }
        XCTAssertEqual(try PlaceSet.load(csv: "lat,lon,a,b\n").places.attributeNames, ["a", "b"])
        XCTAssertEqual(try csv([]).places.count, 0)
        // Blank lines between rows are skipped; line numbers still count them.
        let load = try PlaceSet.load(csv: "lat,lon\n\n1,2\n\nx,2\n")
        XCTAssertEqual(load.places.count, 1)
        XCTAssertEqual(load.issues, [LoadIssue(record: 5, reason: "latitude \"x\" is not a decimal number")])
    }

    func testDelimiters() throws {
        // Sniffed: a tab in the header line and no comma.
        var s = try PlaceSet.load(csv: "name\tlat\tlon\tnote\nA, B\t1\t2\tx,y\n").places
        XCTAssertEqual(names(s), ["A, B"])
        XCTAssertEqual(s.attribute("note", at: 0), "x,y")
        // A header with both stays comma-separated.
        s = try PlaceSet.load(csv: "name,lat,lon,\"a\tb\"\nx,1,2,3\n").places
        XCTAssertEqual(s.attributeNames, ["a\tb"])
        // Any ASCII byte by option; quoting works the same.
        s = try PlaceSet.load(csv: "name;lat;lon\n\"a;b\";1,5;2\nc;3;4\n", options: LoadOptions(delimiter: UInt8(ascii: ";"))).places
        XCTAssertEqual(names(s), ["c"])
        let load = try PlaceSet.load(csv: "name;lat;lon\n\"a;b\";1.5;2\n", options: LoadOptions(delimiter: UInt8(ascii: ";")))
        XCTAssertEqual(names(load.places), ["a;b"])
    }

    func testFixtureFiles() throws {
        let load = try PlaceSet.load(csvFile: Self.fixtures + "places.csv")
        XCTAssertEqual(load.issues, [LoadIssue(record: 7, reason: "latitude \"abc\" is not a decimal number")])
        let s = load.places
        XCTAssertEqual(ids(s), ["p1", "p2", "p3", "p5"])
        XCTAssertEqual(names(s), ["Springfield, Illinois", "Chicago", "Multi\nLine", "Edge"])
        XCTAssertEqual(s.attributeNames, ["population", "note"])
        XCTAssertEqual(s.attribute("note", at: 0), "the \"Land of Lincoln\" capital")
        XCTAssertEqual(s.attribute("note", at: 2), "a\nb")
        XCTAssertNil(s.attribute("population", at: 2))
        XCTAssertEqual(s.coordinate(at: 3), try Coordinate(latitude: -90, longitude: -180))

        let tsv = try PlaceSet.load(csvFile: Self.fixtures + "places.tsv").places
        XCTAssertEqual(ids(tsv), ["5128581", "2643743"])
        XCTAssertEqual(names(tsv), ["New York City", "London"])
        XCTAssertEqual(tsv.attributeNames, ["country_code"])
        XCTAssertEqual(tsv.attribute("country_code", at: 1), "GB")

        assertThrows(.parse, { () throws(GeoLocError) in
            try PlaceSet.load(csvFile: Self.fixtures + "places.csv", options: LoadOptions(strict: true))
        }, message: Self.fixtures + "places.csv: line 7: latitude \"abc\" is not a decimal number")
    }

    func testFileErrors() {
        let missing = Self.fixtures + "no-such-file.csv"
        assertThrows(.notFound, { () throws(GeoLocError) in try PlaceSet.load(csvFile: missing) }, message: missing + ": no such file")
        assertThrows(.notFound, { () throws(GeoLocError) in try PlaceSet.load(geoJSONFile: missing) })
        assertThrows(.notFound, { () throws(GeoLocError) in try PlaceSet.load(csvFile: Self.fixtures + "places.csv/x") })
        assertThrows(.invalidArgument, { () throws(GeoLocError) in try PlaceSet.load(csvFile: Self.fixtures) },
                     message: Self.fixtures + ": Is a directory")
        assertThrows(.notFound, { () throws(GeoLocError) in try PlaceSet.load(csvFile: "") })
    }

    // MARK: - GeoJSON

    func testGeoJSONFixture() throws {
        let load = try PlaceSet.load(geoJSONFile: Self.fixtures + "places.geojson")
        XCTAssertEqual(load.issues, [
            LoadIssue(record: 2, reason: "has a null geometry"),
            LoadIssue(record: 3, reason: "has a \"LineString\" geometry, not a Point"),
        ])
        let s = load.places
        XCTAssertEqual(ids(s), ["paris", "2", "4"])
        XCTAssertEqual(names(s), ["Paris", "Berlin", "Tōkyō"])
        XCTAssertEqual(s.attributeNames, ["population", "capital", "tags", "extra", "website", "note"])
        XCTAssertEqual(s.coordinate(at: 0), try Coordinate(latitude: 48.85341, longitude: 2.3488))
        XCTAssertEqual(s.coordinate(at: 1), try Coordinate(latitude: 52.52437, longitude: 13.41053))
        XCTAssertEqual(s[0].attributes, ["population": "2138551", "capital": "true", "tags": "[\"city\",\"capital\"]"])
        XCTAssertEqual(s[1].attributes, ["population": "3426354", "capital": "true", "website": "https://berlin.de"])
        XCTAssertEqual(s.attribute("note", at: 2), "🗼 tower")
    }

    func testGeoJSONPropertiesOfEveryType() throws {
        let text = #"""
            {"type":"Feature","geometry":{"type":"Point","coordinates":[-89.64,39.8]},
             "properties":{"s":"text","e":"a\"b\\c\/d\b\f\n\r\t\u00e9\u0001","i":-0,"f":1.50,"x":1E+2,
               "t":true,"no":false,"n":null,"a":[1, "two", [3], {}],"o":{"k": {"deep": [null, true]}, "q": "\u0022"},
               "empty":"","dup":1,"dup":2,"nd":null,"nd":"x"}}
            """#
        let load = try PlaceSet.load(geoJSON: text)
        XCTAssertEqual(load.issues, [])
        let s = load.places
        XCTAssertEqual(s.count, 1)
        XCTAssertEqual(s.id(at: 0), "0")
        XCTAssertEqual(s.name(at: 0), "")
        XCTAssertEqual(s.attributeNames, ["s", "e", "i", "f", "x", "t", "no", "n", "a", "o", "empty", "dup", "nd"])
        XCTAssertEqual(s.attribute("s", at: 0), "text")
        XCTAssertEqual(s.attribute("e", at: 0), "a\"b\\c/d\u{8}\u{C}\n\r\té\u{1}")
        XCTAssertEqual(s.attribute("i", at: 0), "-0")
        XCTAssertEqual(s.attribute("f", at: 0), "1.50")
        XCTAssertEqual(s.attribute("x", at: 0), "1E+2")
        XCTAssertEqual(s.attribute("t", at: 0), "true")
        XCTAssertEqual(s.attribute("no", at: 0), "false")
        XCTAssertNil(s.attribute("n", at: 0))
        XCTAssertEqual(s.attribute("a", at: 0), #"[1,"two",[3],{}]"#)
        XCTAssertEqual(s.attribute("o", at: 0), #"{"k":{"deep":[null,true]},"q":"\""}"#)
        XCTAssertEqual(s.attribute("empty", at: 0), "")
        XCTAssertEqual(s.attribute("dup", at: 0), "1")  // the first of a repeated key
        XCTAssertNil(s.attribute("nd", at: 0))
        // Control characters in compact JSON are escaped.
        let nested = try PlaceSet.load(geoJSON: #"""
            {"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"o":["\u0001\n\\"]}}
            """#).places
        XCTAssertEqual(nested.attribute("o", at: 0), #"["\u0001\n\\"]"#)
    }

    func testGeoJSONIdsAndNames() throws {
        func point(_ lon: Double, _ lat: Double) -> String { #""geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]}"# }
        let text = """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","id":"a","properties":{"name":"A","code":"ca"},\(point(1, 1))},
              {"type":"Feature","id":12.5,"properties":{"name":"B","code":"cb"},\(point(2, 2))},
              {"type":"Feature","properties":{"title":"C","code":"cc"},\(point(3, 3))},
              {"type":"Feature","id":null,"properties":{"name":7,"code":5},\(point(4, 4))},
              {"type":"Feature","properties":{"code":true},\(point(5, 5))},
              {"type":"Feature",\(point(6, 6))}
            ]}
            """
        var s = try PlaceSet.load(geoJSON: text).places
        XCTAssertEqual(ids(s), ["a", "12.5", "2", "3", "4", "5"])
        XCTAssertEqual(names(s), ["A", "B", "", "7", "", ""])  // "name" is present, so "title" is an attribute
        XCTAssertEqual(s.attributeNames, ["code", "title"])
        XCTAssertEqual(s.attribute("title", at: 2), "C")
        s = try PlaceSet.load(geoJSON: text, options: LoadOptions(idColumn: "code", nameColumn: "title")).places
        // The named id property wins over the feature's "id" member (the header's contract).
        XCTAssertEqual(ids(s), ["ca", "cb", "cc", "5", "4", "5"])
        XCTAssertEqual(names(s), ["", "", "C", "", "", ""])
        XCTAssertEqual(s.attributeNames, ["name"])
        // "title" names the places when no feature has "name".
        s = try PlaceSet.load(geoJSON: #"{"type":"Feature","properties":{"title":"T"},\#(point(0, 0))}"#).places
        XCTAssertEqual(names(s), ["T"])
        XCTAssertEqual(s.attributeNames, [])
    }

    func testGeoJSONBadFeatures() throws {
        let features = [
            #"5"#,
            #"{"geometry":{"type":"Point","coordinates":[0,0]}}"#,
            #"{"type":"Thing","geometry":{"type":"Point","coordinates":[0,0]}}"#,
            #"{"type":"Feature"}"#,
            #"{"type":"Feature","geometry":[0,0]}"#,
            #"{"type":"Feature","geometry":{"coordinates":[0,0]}}"#,
            #"{"type":"Feature","geometry":{"type":"MultiPoint","coordinates":[[0,0]]}}"#,
            #"{"type":"Feature","geometry":{"type":"Point"}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1]}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":["1","2"]}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,91]}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1e999,0]}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,-1e400]}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":"x"}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[190,-90, 5, 6]},"properties":null}"#,
        ]
        let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}"
        let load = try PlaceSet.load(geoJSON: text)
        XCTAssertEqual(load.issues, [
            LoadIssue(record: 0, reason: "is a number, not a Feature object"),
            LoadIssue(record: 1, reason: "has no \"type\""),
            LoadIssue(record: 2, reason: "has the type \"Thing\", not \"Feature\""),
            LoadIssue(record: 3, reason: "has no geometry"),
            LoadIssue(record: 4, reason: "has a geometry that is an array, not an object"),
            LoadIssue(record: 5, reason: "has a geometry without a \"type\""),
            LoadIssue(record: 6, reason: "has a \"MultiPoint\" geometry, not a Point"),
            LoadIssue(record: 7, reason: "has a Point without a \"coordinates\" array"),
            LoadIssue(record: 8, reason: "has Point coordinates that are not [longitude, latitude] numbers"),
            LoadIssue(record: 9, reason: "has Point coordinates that are not [longitude, latitude] numbers"),
            LoadIssue(record: 10, reason: "has a latitude 91 outside [-90, 90]"),
            LoadIssue(record: 11, reason: "has a longitude 1e999 that is not finite"),
            LoadIssue(record: 12, reason: "has a latitude -1e400 that is not finite"),
            LoadIssue(record: 13, reason: "has properties that are a string, not an object"),
        ])
        XCTAssertEqual(load.places.count, 1)
        XCTAssertEqual(load.places.id(at: 0), "14")
        XCTAssertEqual(load.places.coordinate(at: 0), try Coordinate(latitude: -90, longitude: -170))
        assertThrows(.parse, { () throws(GeoLocError) in try PlaceSet.load(geoJSON: text, options: LoadOptions(strict: true)) },
                     message: "feature 0: is a number, not a Feature object (and 13 more bad features)")
        // An empty collection is fine.
        XCTAssertEqual(try PlaceSet.load(geoJSON: #"{"features":[],"type":"FeatureCollection"}"#).places.count, 0)
    }

    func testGeoJSONDocumentErrors() {
        func fails(_ text: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
            assertThrows(.parse, { () throws(GeoLocError) in try PlaceSet.load(geoJSON: text) }, message: message, file: file, line: line)
        }
        fails("[]", "the document is an array, not a GeoJSON FeatureCollection or Feature")
        fails(#"{"type":"Point","coordinates":[0,0]}"#, "the document is a GeoJSON \"Point\", not a FeatureCollection or Feature")
        fails(#"{"features":[]}"#, "the document has no \"type\"; expected a GeoJSON FeatureCollection or Feature")
        fails(#"{"type":"FeatureCollection","features":{}}"#, "the FeatureCollection has no \"features\" array")
    }

    func testMalformedJSONNamesWhere() {
        func fails(_ text: String, _ message: String, _ code: GeoLocError.Code = .parse, file: StaticString = #filePath, line: UInt = #line) {
            assertThrows(code, { () throws(GeoLocError) in try PlaceSet.load(geoJSON: text) }, message: message, file: file, line: line)
        }
        fails("{\"type\": \"FeatureCollection\",\n \"features\": [1, 2,]}",
              "malformed JSON at byte 49 (line 2, column 20): expected a value, found ']'")
        fails("", "malformed JSON at byte 0 (line 1, column 1): the document is empty")
        fails("  \n ", "malformed JSON at byte 4 (line 2, column 2): the document is empty")
        fails("{\"a\":1,}", "malformed JSON at byte 7 (line 1, column 8): expected a string key, found '}'")
        fails("{\"a\" 1}", "malformed JSON at byte 5 (line 1, column 6): expected ':' after the key, found '1'")
        fails("{\"a\":1 \"b\":2}", "malformed JSON at byte 7 (line 1, column 8): expected ',' or '}', found '\"'")
        fails("[1 2]", "malformed JSON at byte 3 (line 1, column 4): expected ',' or ']', found '2'")
        fails("{\"é\":\"ü\" x", "malformed JSON at byte 11 (line 1, column 10): expected ',' or '}', found 'x'")
        fails("{} x", "malformed JSON at byte 3 (line 1, column 4): unexpected 'x' after the document")
        fails("{\"a\":[1,2", "malformed JSON at byte 9 (line 1, column 10): the document ends inside an array")
        fails("{\"a\":\"abc", "malformed JSON at byte 5 (line 1, column 6): the string is not closed")
        fails("{\"a\":01}", "malformed JSON at byte 5 (line 1, column 6): a number must not start with 0 followed by a digit")
        fails("{\"a\":-}", "malformed JSON at byte 5 (line 1, column 6): '-' must be followed by a digit")
        fails("{\"a\":1.}", "malformed JSON at byte 7 (line 1, column 8): a digit must follow the decimal point")
        fails("{\"a\":1e}", "malformed JSON at byte 7 (line 1, column 8): a digit must follow the exponent")
        fails("{\"a\":+1}", "malformed JSON at byte 5 (line 1, column 6): expected a value, found '+'")
        fails("{\"a\":tru}", "malformed JSON at byte 5 (line 1, column 6): expected a value, found 't'")
        fails("{\"a\":NaN}", "malformed JSON at byte 5 (line 1, column 6): expected a value, found 'N'")
        fails("{\"a\":'x'}", "malformed JSON at byte 5 (line 1, column 6): expected a value, found '''")
        fails("{\"a\":\"x\ty\"}", "malformed JSON at byte 7 (line 1, column 8): a control character (0x9) must be escaped in a string")
        fails("{\"a\":\"\\x\"}", "malformed JSON at byte 6 (line 1, column 7): 'x' is not an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
        fails("{\"a\":\"\\u12G4\"}", "malformed JSON at byte 6 (line 1, column 7): \\u must be followed by four hex digits")
        fails("{\"a\":\"\\ud83d\"}", "malformed JSON at byte 6 (line 1, column 7): \\uD83D is a high surrogate without a low one after it")
        fails("{\"a\":\"\\ud83d\\u0041\"}", "malformed JSON at byte 6 (line 1, column 7): \\uD83D is a high surrogate without a low one after it")
        fails("{\"a\":\"\\ude00\"}", "malformed JSON at byte 6 (line 1, column 7): \\uDE00 is a low surrogate without a high one")
        fails("{\"a\":\"\\ud83d\\ud83d\"}", "malformed JSON at byte 6 (line 1, column 7): \\uD83D is a high surrogate without a low one after it")
        assertThrows(.invalidUTF8, { () throws(GeoLocError) in
            try geoJSON(Array("{\"a\":\"".utf8) + [0xC3, 0x28] + Array("\"}".utf8))
        }, message: "invalid UTF-8 in JSON at byte 6 (line 1, column 7): the bytes are not UTF-8")
        assertThrows(.invalidUTF8, { () throws(GeoLocError) in
            try geoJSON(Array("{\"a\":\"".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("\"}".utf8))
        })
        assertThrows(.parse, { () throws(GeoLocError) in try geoJSON(Array("{\"a\":".utf8) + [0xFF] + Array("}".utf8)) },
                     message: "malformed JSON at byte 5 (line 1, column 6): expected a value, found byte 0xFF")
        // A file's path starts the message.
        assertThrows(.parse, { () throws(GeoLocError) in try PlaceSet.load(geoJSONFile: Self.fixtures + "places.csv") },
                     message: Self.fixtures + "places.csv: malformed JSON at byte 0 (line 1, column 1): expected a value, found 'i'")
    }

    func testSurrogatePairsAndByteOrderMark() throws {
        let text = "\u{FEFF}" + #"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"name":"\ud83d\ude00 \uD834\uDD1E \u00e9 é"}}"#
        let s = try PlaceSet.load(geoJSON: text).places
        XCTAssertEqual(s.name(at: 0), "😀 𝄞 é é")
    }

    func testNestingDepthLimit() throws {
        // 512 levels (the document, properties, then 510 arrays) read; 513 do not.
        func document(arrays: Int) -> String {
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"a":"#
                + String(repeating: "[", count: arrays) + String(repeating: "]", count: arrays) + "}}"
        }
        let s = try PlaceSet.load(geoJSON: document(arrays: 510)).places
        XCTAssertEqual(s.attribute("a", at: 0), String(repeating: "[", count: 510) + String(repeating: "]", count: 510))
        assertThrows(.parse, { () throws(GeoLocError) in try PlaceSet.load(geoJSON: document(arrays: 511)) },
                     message: "malformed JSON at byte 594 (line 1, column 595): arrays and objects nest deeper than 512 levels")
        // Hostile depth fails fast, without recursion.
        assertThrows(.parse, { () throws(GeoLocError) in try PlaceSet.load(geoJSON: String(repeating: "[", count: 1_000_000)) })
        assertThrows(.parse, { () throws(GeoLocError) in try PlaceSet.load(geoJSON: String(repeating: "{\"a\":", count: 100_000)) })
    }

    func testLargeGeoJSONRoundTrip() throws {
        // 20,000 features written and read back: positions exact, attributes as written.
        var g = SplitMix64(seed: 7)
        var parts: [String] = []
        var expected: [(Double, Double)] = []
        for i in 0..<20_000 {
            let lat = Double(g.int(180_000_001) - 90_000_000) / 1e6
            let lon = Double(g.int(360_000_000) - 180_000_000) / 1e6
            expected.append((lat, lon))
            parts.append(#"{"type":"Feature","id":\#(i),"geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]},"properties":{"name":"p\#(i)","rank":\#(i % 7)}}"#)
        }
        let load = try PlaceSet.load(geoJSON: #"{"type":"FeatureCollection","features":["# + parts.joined(separator: ",") + "]}")
        XCTAssertEqual(load.issues, [])
        XCTAssertEqual(load.places.count, 20_000)
        for i in stride(from: 0, to: 20_000, by: 997) {
            XCTAssertEqual(load.places.coordinate(at: i).latitude, expected[i].0)
            XCTAssertEqual(load.places.coordinate(at: i).longitude, expected[i].1)
            XCTAssertEqual(load.places.id(at: i), String(i))
            XCTAssertEqual(load.places.name(at: i), "p\(i)")
            XCTAssertEqual(load.places.attribute("rank", at: i), String(i % 7))
        }
    }
}

