import Foundation
import XCTest

@testable import GeoLoc

final class AddressTests: XCTestCase {
    private let springfield: AddressComponents = [
        "house_number": "123", "road": "Main St", "city": "Springfield", "state": "Illinois",
        "postcode": "62701", "country_code": "US",
    ]

    // MARK: Styles

    func testStyleRawValuesAreTheCEnum() {
        XCTAssertEqual(AddressStyle.allCases.map(\.rawValue), [0, 1, 2, 3])
        XCTAssertEqual(AddressStyle(rawValue: 3), .postal)
        XCTAssertNil(AddressStyle(rawValue: 4))
    }

    func testOneLine() {
        XCTAssertEqual(springfield.formatted(.oneLine), "123 Main St Springfield Illinois")
        var c = springfield
        c[.stateCode] = "IL"
        XCTAssertEqual(c.formatted(.oneLine), "123 Main St Springfield IL")
        XCTAssertEqual(formatAddress(c, style: .oneLine), "123 Main St Springfield IL")
        XCTAssertEqual(AddressComponents(["road": "Main St", "city": "Springfield"]).formatted(.oneLine), "Main St Springfield")
        XCTAssertEqual(AddressComponents(["house_number": "42", "state_code": "TX"]).formatted(.oneLine), "42 TX")
        // Unit, postcode and country are not part of the one-line form.
        XCTAssertEqual(AddressComponents(["unit": "4", "postcode": "1", "country": "France"]).formatted(.oneLine), "")
    }

    func testCityState() {
        XCTAssertEqual(springfield.formatted(.cityState), "Springfield, IL")
        XCTAssertEqual(AddressComponents(["city": "Springfield", "state_code": "IL"]).formatted(.cityState), "Springfield, IL")
        XCTAssertEqual(AddressComponents(["city": "Springfield", "state_code": "il", "country": "USA"]).formatted(.cityState), "Springfield, IL")
        XCTAssertEqual(AddressComponents(["city": "Austin", "state": "texas"]).formatted(.cityState), "Austin, TX")
        XCTAssertEqual(AddressComponents(["city": "Toronto", "province": "Ontario", "country_code": "CA"]).formatted(.cityState), "Toronto, ON")
        XCTAssertEqual(AddressComponents(["city": "Toronto", "province_code": "ON", "country_code": "CA"]).formatted(.cityState), "Toronto, ON")
        XCTAssertEqual(AddressComponents(["city": "Halifax", "province": "Nova Scotia"]).formatted(.cityState), "Halifax, NS")
        XCTAssertEqual(AddressComponents(["city": "千代田区", "state": "東京都", "country_code": "JP"]).formatted(.cityState), "千代田区, 東京都")
        XCTAssertEqual(
            AddressComponents(["city": "Paris", "state": "Île-de-France", "country_code": "FR"]).formatted(.cityState),
            "Paris, Île-de-France")
        // Where the postal template writes names, a name stays a name and a known code is written
        // by name (the region's model is the same for every country: the data decides).
        XCTAssertEqual(AddressComponents(["city": "Montevideo", "state": "Florida", "country_code": "UY"]).formatted(.cityState), "Montevideo, Florida")
        XCTAssertEqual(AddressComponents(["city": "München", "state_code": "BY", "country_code": "DE"]).formatted(.cityState), "München, Bayern")
        XCTAssertEqual(AddressComponents(["city": "Springfield"]).formatted(.cityState), "Springfield")
        XCTAssertEqual(AddressComponents(["state": "Illinois"]).formatted(.cityState), "IL")
        XCTAssertEqual(AddressComponents(["city": "Washington", "state": "Washington, D.C."]).formatted(.cityState), "Washington, DC")
        XCTAssertEqual(AddressComponents(["city": "X", "state": "Nowhere", "country_code": "US"]).formatted(.cityState), "X, Nowhere")
        XCTAssertEqual(AddressComponents(["road": "Main St"]).formatted(.cityState), "")
    }

    func testCityStateCountry() {
        XCTAssertEqual(springfield.formatted(.cityStateCountry), "Springfield, Illinois, United States")
        XCTAssertEqual(
            AddressComponents(["city": "Springfield", "state_code": "IL", "country_code": "US"]).formatted(.cityStateCountry),
            "Springfield, Illinois, United States")
        XCTAssertEqual(
            AddressComponents(["city": "Springfield", "state": "IL", "country": "U.S.A."]).formatted(.cityStateCountry),
            "Springfield, Illinois, U.S.A.")
        XCTAssertEqual(
            AddressComponents(["city": "München", "state_code": "BY", "country_code": "de"]).formatted(.cityStateCountry),
            "München, Bayern, Germany")
        XCTAssertEqual(
            AddressComponents(["city": "Cardiff", "state": "WLS", "country_code": "UK"]).formatted(.cityStateCountry),
            "Cardiff, Wales, United Kingdom")
        XCTAssertEqual(AddressComponents(["city": "Atlantis", "country_code": "ZZ"]).formatted(.cityStateCountry), "Atlantis")
        XCTAssertEqual(AddressComponents(["country_code": "BR"]).formatted(.cityStateCountry), "Brazil")
        XCTAssertEqual(AddressComponents(["country_code": "USA"]).formatted(.cityStateCountry), "United States")
        XCTAssertEqual(AddressComponents(["state": "Texas"]).formatted(.cityStateCountry), "Texas")
        XCTAssertEqual(AddressComponents(["postcode": "62701"]).formatted(.cityStateCountry), "")
    }

    // MARK: Postal forms

    func testPostalUS() {
        XCTAssertEqual(springfield.formatted(.postal), "123 Main St\nSpringfield, IL 62701")
        var c = springfield
        c["apartment"] = "4"
        XCTAssertEqual(c.formatted(.postal), "123 Main St Apt 4\nSpringfield, IL 62701")
        c["suite"] = "200"
        XCTAssertEqual(c.formatted(.postal), "123 Main St Suite 200\nSpringfield, IL 62701")
        c[.unit] = "200"
        XCTAssertEqual(c.formatted(.postal), "123 Main St Unit 200\nSpringfield, IL 62701")
        c[.unit] = "#5"
        XCTAssertEqual(c.formatted(.postal), "123 Main St #5\nSpringfield, IL 62701")
        // Neither road nor postcode: the fallback template writes the state's name.
        XCTAssertEqual(
            AddressComponents(["city": "Springfield", "state": "IL", "country_code": "US"]).formatted(.postal),
            "Springfield, Illinois")
        XCTAssertEqual(
            AddressComponents([
                "house_number": "1600", "road": "Pennsylvania Avenue NW", "state": "Washington DC", "postcode": "20500",
                "country": "US",
            ]).formatted(.postal),
            "1600 Pennsylvania Avenue NW\nWashington, DC 20500\nUnited States of America")
        XCTAssertEqual(
            AddressComponents(["road": "Main St", "city": "Charlotte Amalie", "state": "USVI", "country_code": "US"]).formatted(.postal),
            "Main St\nCharlotte Amalie, VI")
    }

    func testPostalCanada() {
        let c: AddressComponents = [
            "house_number": "1", "road": "Yonge St", "city": "Toronto", "province": "Ontario", "postal_code": "M5E1E5",
            "country_code": "CA",
        ]
        XCTAssertEqual(c.formatted(.postal), "1 Yonge St\nToronto, ON M5E 1E5")
        var d = c
        d["postcode"] = "M5E 1E5"
        XCTAssertEqual(d.formatted(.postal), "1 Yonge St\nToronto, ON M5E 1E5")
        d["unit"] = "1200"
        XCTAssertEqual(d.formatted(.postal), "1 Yonge St Unit 1200\nToronto, ON M5E 1E5")
        XCTAssertEqual(
            AddressComponents(["road": "Rue Sherbrooke", "city": "Montréal", "province": "Québec", "postcode": "h3a3r2", "country": "Canada"])
                .formatted(.postal),
            "Rue Sherbrooke\nMontréal, QC h3a 3r2\nCanada")
    }

    func testPostalUK() {
        XCTAssertEqual(
            AddressComponents(["house_number": "10", "road": "Downing Street", "city": "London", "postcode": "SW1A 2AA", "country_code": "GB"])
                .formatted(.postal),
            "10 Downing Street\nLondon\nSW1A 2AA")
        XCTAssertEqual(
            AddressComponents(["flat": "2", "house_number": "221B", "road": "Baker Street", "town": "London", "postcode": "NW1 6XE", "country": "UK"])
                .formatted(.postal),
            "Flat 2\n221B Baker Street\nLondon\nNW1 6XE\nUK")
        XCTAssertEqual(
            AddressComponents(["road": "Whitehall", "county": "Greater London", "postcode": "SW1A 2HB", "country_code": "uk"]).formatted(.postal),
            "Whitehall\nLondon\nSW1A 2HB")
        XCTAssertEqual(
            AddressComponents(["road": "High St", "county": "County of Kent", "postcode": "CT1 1AA", "country_code": "GB"]).formatted(.postal),
            "High St\nKent\nCT1 1AA")
    }

    func testPostalGermany() {
        XCTAssertEqual(
            AddressComponents(["road": "Unter den Linden", "house_number": "77", "postcode": "10117", "city": "Berlin", "state": "Berlin", "country_code": "DE"])
                .formatted(.postal),
            "Unter den Linden 77\n10117 Berlin")
        XCTAssertEqual(
            AddressComponents(["county": "Landkreis München", "state": "BY", "country_code": "DE"]).formatted(.postal),
            "München\nBayern")
        XCTAssertEqual(
            AddressComponents(["city": "Berlin", "state": "Berlin", "country_code": "DE"]).formatted(.postal),
            "Berlin")
    }

    func testPostalFrance() {
        XCTAssertEqual(
            AddressComponents(["house_number": "99", "road": "Rue de Rivoli", "postcode": "75001", "city": "Paris", "country_code": "FR"])
                .formatted(.postal),
            "99 Rue de Rivoli\n75001 Paris")
        XCTAssertEqual(
            AddressComponents(["house_number": "11", "road": "Avenue Foch", "postcode": "75116", "city": "Paris 16e Arrondissement", "country": "France"])
                .formatted(.postal),
            "11 Avenue Foch\n75116 Paris\nFrance")
    }

    func testPostalJapan() {
        XCTAssertEqual(
            AddressComponents(["house_number": "1-9-1", "road": "Marunouchi", "city": "Chiyoda", "state": "Tokyo", "postcode": "1000005", "country_code": "JP"])
                .formatted(.postal),
            "1-9-1 Marunouchi\nChiyoda, Tokyo 100-0005")
        XCTAssertEqual(
            AddressComponents(["road": "Kasumigaseki", "city": "Chiyoda", "state": "Tokyo", "postcode": "100-8919", "country": "Japan"])
                .formatted(.postal),
            "Kasumigaseki\nChiyoda, Tokyo 100-8919\nJapan")
    }

    func testPostalGeneric() {
        XCTAssertEqual(
            AddressComponents(["road": "Via del Corso", "house_number": "1", "postcode": "00186", "city": "Roma", "country_code": "IT"])
                .formatted(.postal),
            "Via del Corso 1\n00186 Roma")
        XCTAssertEqual(
            AddressComponents(["road": "Main St", "house_number": "5", "city": "Springfield", "postcode": "62701"]).formatted(.postal),
            "Main St 5\n62701 Springfield")
        XCTAssertEqual(AddressComponents(["city": "Roma", "state": "Lazio", "country_code": "IT"]).formatted(.postal), "Roma\nLazio")
        XCTAssertEqual(AddressComponents(["country_code": "DE"]).formatted(.postal), "")
        XCTAssertEqual(AddressComponents(["country": "Narnia"]).formatted(.postal), "Narnia")
    }

    func testPostalCleanUp() {
        // A postcode range is dropped; "12345,67890" keeps the first; values without a letter or
        // digit are dropped.
        var c: AddressComponents = ["road": "Main St", "city": "Springfield", "state_code": "IL", "postcode": "62701;62702", "country_code": "US"]
        XCTAssertEqual(c.formatted(.postal), "Main St\nSpringfield, IL")
        c["postcode"] = "62701,62702"
        XCTAssertEqual(c.formatted(.postal), "Main St\nSpringfield, IL 62701")
        c["house_number"] = "-"
        XCTAssertEqual(c.formatted(.postal), "Main St\nSpringfield, IL 62701")
        c["city"] = "Town of Hempstead"
        XCTAssertEqual(c.formatted(.postal), "Main St\nHempstead, IL 62701")
        for style in AddressStyle.allCases {
            let text = springfield.formatted(style)
            XCTAssertFalse(text.hasSuffix("\n"), "\(style)")
            XCTAssertFalse(text.contains("\n\n"), "\(style)")
            XCTAssertFalse(text.contains("  "), "\(style)")
        }
    }

    func testEveryPatternCompiles() {
        XCTAssertTrue(postalPatternsCompile())
        for cc in ["default", "US", "CA", "GB", "DE", "FR", "JP"] {
            XCTAssertNotNil(postalFormatTable[cc], cc)
        }
    }

    func testMiniRegex() throws {
        func replace(_ pattern: String, _ text: String, _ with: String = "<>") throws -> String {
            let re = try XCTUnwrap(MiniRegex(pattern), pattern)
            return re.replacingFirstMatch(in: text, with: Array(with.unicodeScalars))
        }
        XCTAssertEqual(try replace("^County( of)? ", "County of Kent"), "<>Kent")
        XCTAssertEqual(try replace("^County( of)? ", "County Durham"), "<>Durham")
        XCTAssertEqual(try replace("^County( of)? ", "The County of X"), "The County of X")
        XCTAssertEqual(try replace("Paris (\\d+)(\\w+) Arrondissement$", "Paris 16e Arrondissement"), "<>")
        XCTAssertEqual(try replace("^Stadtbezirk (\\d+)", "Stadtbezirk 12 Nord"), "<> Nord")
        XCTAssertEqual(try replace("\\(eaux territoriales\\)", "X (eaux territoriales)"), "X <>")
        XCTAssertEqual(try replace("\nUS$", "a\nUS\n"), "a<>\n")
        XCTAssertEqual(try replace("\nUS$", "a\nUSA\n"), "a\nUSA\n")
        XCTAssertEqual(try replace("a+b", "caaab"), "c<>")
        XCTAssertEqual(try replace("a.c", "abc"), "<>")
        XCTAssertEqual(try replace("[abc]+", "xxbcay"), "xx<>y")
        XCTAssertEqual(try replace("[^,]+$", "a, b, c"), "a, b,<>")
        XCTAssertEqual(try replace("a{2}", "aaaa"), "<>aa")
        XCTAssertEqual(try replace("\\d{2,3}", "1 12345"), "1 <>45")
        XCTAssertEqual(try replace("cat|dog", "hotdog"), "hot<>")
        XCTAssertEqual(try replace("(?:ab)+c", "xababc"), "x<>")
        XCTAssertEqual(try replace("a.*?b", "aXbYb"), "<>Yb")
        XCTAssertEqual(try replace("\\bst\\b", "first st"), "first <>")
        XCTAssertEqual(try replace("(\\d{4})(\\w{2})", "1012JS", "$1 $2"), "1012 JS")
        XCTAssertEqual(try replace("(x)?y", "y", "[$1]"), "[]")
        // A long run under one repetition is no match (bounded stack), never a crash.
        XCTAssertEqual(try replace("\\n(\\d{4}) ([^,]*)\n", "\n1234 " + String(repeating: "b", count: 200_000) + "\n").count, 200_007)
        let longCity = AddressComponents(["road": "Rue", "postcode": "75001", "city": "Paris 1" + String(repeating: "e", count: 200_000), "country_code": "FR"])
        XCTAssertTrue(longCity.formatted(.postal).hasPrefix("Rue\n75001 Paris 1eee"))
        XCTAssertNil(MiniRegex("(?i)a"))
        XCTAssertNil(MiniRegex("a**"))
        XCTAssertNil(MiniRegex("[a"))
        XCTAssertNil(MiniRegex("\\p{L}"))
        XCTAssertNil(MiniRegex("(a"))
        XCTAssertNil(MiniRegex("a)"))
    }

    // MARK: Keys

    func testAliases() {
        let expected: [(String, AddressKey)] = [
            ("house_number", .houseNumber), ("street_number", .houseNumber), ("housenumber", .houseNumber),
            ("subThoroughfare", .houseNumber),
            ("road", .road), ("street", .road), ("street_name", .road), ("thoroughfare", .road), ("route", .road),
            ("footway", .road), ("pedestrian", .road),
            ("unit", .unit), ("apartment", .unit), ("apt", .unit), ("suite", .unit), ("flat", .unit), ("subpremise", .unit),
            ("neighbourhood", .neighbourhood), ("neighborhood", .neighbourhood), ("suburb", .neighbourhood),
            ("subLocality", .neighbourhood), ("city_district", .neighbourhood), ("quarter", .neighbourhood),
            ("city", .city), ("town", .city), ("village", .city), ("hamlet", .city), ("locality", .city),
            ("municipality", .city), ("township", .city), ("postal_city", .city), ("commune", .city),
            ("county", .county), ("department", .county), ("state_district", .county), ("district", .county),
            ("subAdministrativeArea", .county),
            ("state", .state), ("province", .state), ("region", .state), ("territory", .state),
            ("administrative_area", .state), ("administrativeArea", .state), ("administrative_area_level_1", .state),
            ("state_code", .stateCode), ("province_code", .stateCode),
            ("postcode", .postcode), ("postal_code", .postcode), ("postalCode", .postcode), ("zip", .postcode),
            ("zipcode", .postcode), ("zip_code", .postcode), ("post_code", .postcode),
            ("country", .country), ("country_name", .country),
            ("country_code", .countryCode), ("ISOcountryCode", .countryCode), ("iso_country_code", .countryCode),
        ]
        for (name, key) in expected {
            XCTAssertEqual(AddressKey(named: name), key, name)
        }
        for key in AddressKey.allCases {
            XCTAssertEqual(AddressKey(named: key.rawValue), key)
        }
        let c: AddressComponents = [
            "street_number": "350", "street": "Fifth Avenue", "town": "New York", "state": "New York", "zip": "10118",
            "country_name": "United States",
        ]
        XCTAssertEqual(c[.houseNumber], "350")
        XCTAssertEqual(c["house_number"], "350")
        XCTAssertEqual(c["housenumber"], "350")
        XCTAssertEqual(c.formatted(.postal), "350 Fifth Avenue\nNew York, NY 10118\nUnited States of America")
    }

    func testUnknownKeysGoToTheAttentionLine() {
        var c = AddressComponents([("name", "Home"), ("favourite_colour", "blue"), ("city", "Springfield"), ("", "x")])
        XCTAssertNotEqual(c, AddressComponents([("city", "Springfield")]))
        XCTAssertNil(c["name"])
        c["name"] = "Office"
        XCTAssertNil(c["name"])
        XCTAssertTrue(c.add("colour", "red"))
        XCTAssertNil(AddressKey(named: "colour"))
        XCTAssertNil(AddressKey(named: ""))
        // Sorted by key: colour, favourite_colour, name.
        XCTAssertEqual(c.formatted(.postal), "red, blue, Home\nSpringfield")
        for style in [AddressStyle.oneLine, .cityState, .cityStateCountry] {
            XCTAssertEqual(AddressComponents([("foo", "bar")]).formatted(style), "", "\(style)")
        }
        XCTAssertEqual(AddressComponents([("foo", "bar")]).formatted(.postal), "bar")
    }

    func testKeysIgnoreCaseAndSeparators() {
        let c = AddressComponents([("HOUSE_NUMBER", "5"), ("Street", "Elm St"), ("TOWN", "Salem"), ("Region", "OR")])
        XCTAssertEqual(c.formatted(.oneLine), "5 Elm St Salem OR")
        XCTAssertEqual(AddressKey(named: "Postal-Code"), .postcode)
        XCTAssertEqual(AddressKey(named: "postal code"), .postcode)
        XCTAssertEqual(AddressKey(named: "STATE_CODE"), .stateCode)
        XCTAssertEqual(c["town"], "Salem")
        XCTAssertEqual(c["CITY"], "Salem")
    }

    func testFirstNonEmptyValueWins() {
        var c = AddressComponents([("city", ""), ("city", nil), ("city", "  "), ("town", "Springfield"), ("city", "Shelbyville")])
        // The accessor and the forms choose by the data's order (city before town), not by the
        // order given.
        XCTAssertEqual(c[.city], "Shelbyville")
        XCTAssertTrue(c.add("village", "Capital City"))
        XCTAssertTrue(c.add("state_code", " IL "))
        XCTAssertEqual(c.formatted(.cityState), "Shelbyville, IL")
        // Setting replaces; setting nil or "" removes (by an alias's name: that value too).
        c[.city] = "Ogdenville"
        XCTAssertEqual(c[.city], "Ogdenville")
        c["town"] = ""
        XCTAssertEqual(c[.city], "Capital City")
        c["village"] = nil
        XCTAssertNil(c[.city])
        c[.stateCode] = nil
        XCTAssertTrue(c.isEmpty)
    }

    func testValuesAreTrimmed() {
        let c = AddressComponents([("city", "  Springfield\t"), ("state_code", "\nIL "), ("road", "\u{3000}Main St\u{00A0}")])
        XCTAssertEqual(c[.city], "Springfield")
        XCTAssertEqual(c[.road], "Main St")
        XCTAssertEqual(c.formatted(.cityState), "Springfield, IL")
    }

    func testEmptyInput() {
        let empty = AddressComponents()
        XCTAssertTrue(empty.isEmpty)
        XCTAssertEqual(empty, AddressComponents([]))
        XCTAssertEqual(empty, [:] as AddressComponents)
        for style in AddressStyle.allCases {
            XCTAssertEqual(empty.formatted(style), "", "\(style)")
            XCTAssertEqual(AddressComponents([("city", ""), ("road", nil)]).formatted(style), "", "\(style)")
        }
    }

    // MARK: States and countries

    func testUSStatesBothWays() {
        let all = USState.all
        XCTAssertEqual(all.count, 60)  // 50 states, DC, 6 territories, 3 freely associated states
        XCTAssertEqual(Set(all.map(\.code)).count, all.count)
        XCTAssertEqual(Set(all.map(\.name)).count, all.count)
        for code in ["DC", "AS", "GU", "MP", "PR", "VI", "UM", "FM", "MH", "PW"] {
            XCTAssertTrue(all.contains { $0.code == code }, code)
        }
        for (code, name) in all {
            XCTAssertEqual(USState.code(for: name), code)
            XCTAssertEqual(USState.code(for: name.lowercased()), code)
            XCTAssertEqual(USState.code(for: name.uppercased()), code)
            XCTAssertEqual(USState.code(for: code), code)
            XCTAssertEqual(USState.code(for: code.lowercased()), code)
            XCTAssertEqual(USState.name(for: code), name)
            XCTAssertEqual(USState.name(for: code.lowercased()), name)
            XCTAssertEqual(USState.name(for: name.uppercased()), name)
            XCTAssertEqual(USState.staticCode(for: name).map { "\($0)" }, code)
            XCTAssertEqual(USState.staticName(for: code).map { "\($0)" }, name)
        }
        XCTAssertEqual(USState.code(for: "Illinois"), "IL")
        XCTAssertEqual(USState.code(for: "district of columbia"), "DC")
        XCTAssertEqual(USState.code(for: "Puerto Rico"), "PR")
        XCTAssertEqual(USState.name(for: "il"), "Illinois")
    }

    func testUSStateVariants() {
        XCTAssertEqual(USState.code(for: "Washington, D.C."), "DC")
        XCTAssertEqual(USState.code(for: "Washington DC"), "DC")
        XCTAssertEqual(USState.code(for: "Washington"), "WA")
        XCTAssertEqual(USState.code(for: "United States Virgin Islands"), "VI")
        XCTAssertEqual(USState.code(for: "U.S. Virgin Islands"), "VI")
        XCTAssertEqual(USState.code(for: "  New   York "), "NY")
        XCTAssertNil(USState.code(for: "Atlantis"))
        XCTAssertNil(USState.code(for: ""))
        XCTAssertNil(USState.code(for: "ZZ"))
        XCTAssertNil(USState.name(for: "ON"))
    }

    func testCountryNames() {
        XCTAssertEqual(countryName(forCode: "US"), "United States")
        XCTAssertEqual(countryName(forCode: "gb"), "United Kingdom")
        XCTAssertEqual(countryName(forCode: "UK"), "United Kingdom")
        XCTAssertEqual(countryName(forCode: "de"), "Germany")
        XCTAssertEqual(countryName(forCode: "JP"), "Japan")
        XCTAssertEqual(countryName(forCode: "GE"), "Georgia")
        XCTAssertEqual(countryName(forCode: "TR"), "Türkiye")
        XCTAssertEqual(countryName(forCode: "CI"), "Côte d'Ivoire")
        XCTAssertEqual(countryName(forCode: "CC"), "Cocos (Keeling) Islands")
        XCTAssertNil(countryName(forCode: "ZZ"))
        XCTAssertNil(countryName(forCode: ""))
        XCTAssertNil(countryName(forCode: "USA"))
        XCTAssertNil(countryName(forCode: "United States"))
        XCTAssertEqual(Country.code(forName: "Turkey"), "TR")
        XCTAssertEqual(Country.code(forName: "united states of america"), "US")
        XCTAssertEqual(Country.code(forName: "Deutschland"), "DE")
        XCTAssertEqual(Country.code(forName: "uk"), "GB")
        XCTAssertNil(Country.code(forName: "Narnia"))
        let all = Country.all
        XCTAssertGreaterThan(all.count, 240)
        XCTAssertEqual(Set(all.map(\.code)).count, all.count)
        for (code, name) in all {
            XCTAssertEqual(countryName(forCode: code), name)
            XCTAssertEqual(countryName(forCode: code.lowercased()), name)
            XCTAssertEqual(Country.staticName(forCode: code).map { "\($0)" }, name)
            XCTAssertEqual(Country.code(forName: name), code, name)
            XCTAssertFalse(name.hasSuffix(")"), name)  // "Georgia (country)" is "Georgia"
        }
    }

    // MARK: The data's order

    func testAccessorsReadTheDataOrder() {
        // Several city-like keys: the city wins whatever the order given, then the town.
        let a = AddressComponents([("village", "Vil"), ("town", "Town"), ("city", "City")])
        let b = AddressComponents([("city", "City"), ("town", "Town"), ("village", "Vil")])
        XCTAssertEqual(a[.city], "City")
        XCTAssertEqual(b[.city], "City")
        XCTAssertEqual(AddressComponents([("hamlet", "H"), ("village", "V"), ("town", "T")])[.city], "T")
        XCTAssertEqual(AddressComponents([("city_district", "CD"), ("suburb", "S")])[.neighbourhood], "S")
        XCTAssertEqual(AddressComponents([("street", "Elm St"), ("road", "Main St")])[.road], "Main St")
        // region is the state only when no state, province or territory is given.
        XCTAssertEqual(AddressComponents([("region", "R"), ("province", "P")])[.state], "P")
        XCTAssertEqual(AddressComponents([("region", "R")])[.state], "R")
        // The one-line form reads the same values.
        XCTAssertEqual(AddressComponents([("town", "Kettering"), ("city", "Dayton"), ("state_code", "OH")]).formatted(.oneLine), "Dayton OH")
        // Setting a key replaces its own value; an alias given stays behind it.
        var c = AddressComponents([("town", "Town")])
        c[.city] = "City"
        XCTAssertEqual(c[.city], "City")
        c[.city] = nil
        XCTAssertEqual(c[.city], "Town")
    }

    func testAbbreviationOption() {
        let c = AddressComponents([("house_number", "123"), ("road", "Augusta Lane"), ("city", "Pueblo"),
                                   ("state", "Colorado"), ("postcode", "81001"), ("country_code", "us")])
        XCTAssertEqual(c.formatted(.postal, abbreviate: true), "123 Augusta Ln\nPueblo, CO 81001")
        XCTAssertEqual(c.formatted(.postal), "123 Augusta Lane\nPueblo, CO 81001")
        XCTAssertEqual(formatAddress(c, style: .oneLine, abbreviate: true), "123 Augusta Lane Pueblo Colorado")
        // A country with no abbreviations, and no country: unchanged.
        let jp = AddressComponents([("road", "Augusta Lane"), ("city", "Chiyoda"), ("postcode", "1000005"), ("country_code", "JP")])
        XCTAssertEqual(jp.formatted(.postal, abbreviate: true), jp.formatted(.postal))
        let none = AddressComponents([("road", "Augusta Lane"), ("city", "Pueblo"), ("postcode", "81001")])
        XCTAssertEqual(none.formatted(.postal, abbreviate: true), none.formatted(.postal))
    }

    // MARK: Golden files

    func testGoldenAddresses() throws {
        let rows = try Golden.rows("address.tsv", columns: ["name", "style", "parts", "expected"])
        XCTAssertGreaterThanOrEqual(rows.count, 40)
        var styles = Set<AddressStyle>()
        let names = ["ONE_LINE": AddressStyle.oneLine, "CITY_STATE": .cityState, "CITY_STATE_COUNTRY": .cityStateCountry, "POSTAL": .postal]
        for row in rows {
            let name = row.text("name")
            let abbreviate = row.text("style") == "POSTAL_ABBREVIATED"
            guard let style = abbreviate ? .postal : names[row.text("style")] else {
                XCTFail("\(name): unknown style \(row.text("style"))")
                continue
            }
            styles.insert(style)
            var pairs: [(String, String?)] = []
            if case let parts = row.text("parts"), !parts.isEmpty {
                for item in parts.components(separatedBy: " | ") {
                    guard let eq = item.firstIndex(of: "=") else {
                        XCTFail("\(name): part \(item) is not key=value")
                        continue
                    }
                    let value = String(item[item.index(after: eq)...])
                    pairs.append((String(item[..<eq]), value == "<NULL>" ? nil : value))
                }
            }
            XCTAssertEqual(formatAddress(AddressComponents(pairs), style: style, abbreviate: abbreviate), row.text("expected"), name)
        }
        XCTAssertEqual(styles, Set(AddressStyle.allCases))
    }

    func testGoldenUSStates() throws {
        let rows = try Golden.rows("us_states.tsv", columns: ["name", "code"])
        XCTAssertEqual(rows.count, USState.all.count)
        for row in rows {
            let name = row.text("name"), code = row.text("code")
            XCTAssertEqual(USState.code(for: name), code, name)
            XCTAssertEqual(USState.code(for: name.uppercased()), code, name)
            XCTAssertEqual(USState.name(for: code), name, code)
            XCTAssertEqual(USState.name(for: code.lowercased()), name, code)
        }
    }
}
