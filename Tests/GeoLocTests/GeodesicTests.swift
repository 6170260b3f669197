@testable import GeoLoc
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// WGS84 geodesics against GeographicLib (tests/golden/geodesic_*.tsv, made by
/// tools/gen_geodesic.py), and the invariants of the inverse and direct problems.
final class GeodesicTests: XCTestCase {
    /// GeographicLib's own accuracy claim for WGS84, 15 nm: the bound on every distance and
    /// position compared here.
    static let nm15 = 15e-9
    /// Half the meridian ellipse's circumference, pole to pole on WGS84 (GeographicLib): no
    /// geodesic is longer.
    static let halfMeridian = 20_003_931.458625447

    static let inverseColumns = ["case", "lat1", "lon1", "lat2", "lon2", "s12_m", "azi1_deg", "azi2_deg"]
    static let directColumns = ["case", "lat1", "lon1", "azi1", "s12_m", "lat2", "lon2", "azi2"]


    /// The difference of two angles in degrees, reduced to [0, 180].
    func angleGap(_ x: Double, _ y: Double) -> Double {
        abs(remainder(x - y, 360))
    }

    /// Where `a` and `b` are nearly the same point, the distance between them measured by the
    /// library's own inverse (a short line, far from any ill-conditioned case).
    func gap(_ a: Coordinate, _ b: Coordinate) -> Double {
        geodesicInverse(from: a, to: b).distance
    }

    /// |m12|, the reduced length of the geodesic from `a` (meters): how far the end point moves
    /// sideways per radian of change in the initial azimuth. Measured by the direct problem with
    /// the azimuth turned by 1e-6 rad (the second-order term adds at most about s12 * 1e-6,
    /// 20 m, to a value that is only used as a scale).
    func reducedLength(from a: Coordinate, azimuth: Double, distance: Double) throws -> Double {
        let turn = 1e-6
        let p = try geodesicDirect(from: a, azimuth: azimuth, distance: distance).destination
        let q = try geodesicDirect(from: a, azimuth: azimuth + turn * 180 / Double.pi, distance: distance).destination
        return gap(p, q) / turn
    }

    // MARK: golden cases

    func testInverseMatchesGeographicLib() throws {
        var worstDistance = 0.0, worstSideways = 0.0
        for row in try Golden.rows("geodesic_inverse.tsv", columns: Self.inverseColumns) {
            let label = "\(row.text("case")) \(row.text("lat1")),\(row.text("lon1")) -> \(row.text("lat2")),\(row.text("lon2"))"
            let a = try Coordinate(latitude: row.double("lat1"), longitude: row.double("lon1"))
            let b = try Coordinate(latitude: row.double("lat2"), longitude: row.double("lon2"))
            let got = geodesicInverse(from: a, to: b)
            let ds = abs(got.distance - row.double("s12_m"))
            worstDistance = max(worstDistance, ds)
            XCTAssertLessThanOrEqual(ds, Self.nm15, label)
            // The fast path and the model dispatch give the very same number.
            XCTAssertEqual(try distance(from: a, to: b, model: .wgs84), got.distance, label)
            // Azimuths. An error δα in α1 moves the far end sideways by |m12| δα (m12, the reduced
            // length, is at most s12), and by reciprocity the same holds for α2; so |m12| δα <=
            // 15 nm is the bound that matches the distance bound. δα s12 would be the same bound
            // for most lines, but not for nearly antipodal points: there m12 -> 0, α1 is
            // ill-conditioned (a tiny change of the points turns it a lot), and δα s12 reaches
            // 0.5 µm while the path itself agrees to nanometres.
            // Where m12 vanishes (identical points, exact antipodes) any azimuth of a family
            // fits; GeographicLib's choice is then checked as such, to 1e-9 degrees.
            let d1 = angleGap(got.initialAzimuth, row.double("azi1_deg"))
            let d2 = angleGap(got.finalAzimuth, row.double("azi2_deg"))
            let m12 = try reducedLength(from: a, azimuth: got.initialAzimuth, distance: got.distance)
            let sideways = max(d1, d2) * Double.pi / 180 * m12
            worstSideways = max(worstSideways, sideways)
            XCTAssertLessThanOrEqual(sideways, Self.nm15, "\(label): azimuths \(got.initialAzimuth) \(got.finalAzimuth)")
            if ["identical", "antipodal"].contains(row.text("case")) {
                XCTAssertLessThanOrEqual(max(d1, d2), 1e-9, "\(label): azimuths \(got.initialAzimuth) \(got.finalAzimuth)")
            }
            XCTAssertTrue(got.initialAzimuth >= -180 && got.initialAzimuth <= 180, label)
            XCTAssertTrue(got.finalAzimuth >= -180 && got.finalAzimuth <= 180, label)
        }
        print("geodesic_inverse.tsv: max |s12 - GeographicLib| = \(worstDistance) m, max |m12| dazi = \(worstSideways) m")
    }

    func testDirectMatchesGeographicLib() throws {
        var worstPosition = 0.0
        for row in try Golden.rows("geodesic_direct.tsv", columns: Self.directColumns) {
            let label = "\(row.text("case")) \(row.text("lat1")),\(row.text("lon1")) az \(row.text("azi1")) s \(row.text("s12_m"))"
            let start = try Coordinate(latitude: row.double("lat1"), longitude: row.double("lon1"))
            let got = try geodesicDirect(from: start, azimuth: row.double("azi1"), distance: row.double("s12_m"))
            let want = try Coordinate(latitude: row.double("lat2"), longitude: row.double("lon2"))
            // Position: the distance between the two end points, by the inverse (a short line).
            let error = gap(got.destination, want)
            worstPosition = max(worstPosition, error)
            XCTAssertLessThanOrEqual(error, Self.nm15, "\(label): got \(got.destination)")
            XCTAssertTrue(got.destination.longitude >= -180 && got.destination.longitude < 180, label)
            // The final azimuth is well-conditioned here (it does not depend on an iteration):
            // 1e-9 degrees, except at a pole, where it depends on the longitude convention.
            let tolerance = abs(row.double("lat2")) > 90 - 1e-9 ? 1e-6 : 1e-9
            XCTAssertLessThanOrEqual(angleGap(got.finalAzimuth, row.double("azi2")), tolerance, label)
        }
        print("geodesic_direct.tsv: max position error = \(worstPosition) m")
    }

    // MARK: special cases

    func testSpecialCases() throws {
        let northPole = try Coordinate(latitude: 90, longitude: 0)
        let southPole = try Coordinate(latitude: -90, longitude: 45)
        // Pole to pole: half the meridian.
        let poles = geodesicInverse(from: southPole, to: northPole)
        XCTAssertEqual(poles.distance, Self.halfMeridian, accuracy: Self.nm15)
        // Identical points, also when the longitudes differ only in name.
        for (p, q) in [((12.5, 30.0), (12.5, 30.0)), ((90, 0), (90, 135)), ((-90, 10), (-90, -170)), ((0, -180), (0, 180))] {
            let a = try Coordinate(latitude: p.0, longitude: p.1), b = try Coordinate(latitude: q.0, longitude: q.1)
            let r = geodesicInverse(from: a, to: b)
            XCTAssertEqual(r.distance, 0, "\(a) \(b)")
            XCTAssertEqual(r.distance.sign, .plus)
            XCTAssertTrue(r.initialAzimuth.isFinite && r.finalAzimuth.isFinite)
        }
        // Equatorial antipodes: over a pole, GeographicLib's convention (north, arriving south).
        let east = geodesicInverse(from: try Coordinate(latitude: 0, longitude: 0), to: try Coordinate(latitude: 0, longitude: 180))
        XCTAssertEqual(east.distance, Self.halfMeridian, accuracy: Self.nm15)
        XCTAssertEqual(east.initialAzimuth, 0)
        XCTAssertEqual(abs(east.finalAzimuth), 180)
        // Along the equator while the separation is at most (1 - f) 180 degrees: a λ12.
        let along = geodesicInverse(from: try Coordinate(latitude: 0, longitude: -10), to: try Coordinate(latitude: 0, longitude: 100))
        XCTAssertEqual(along.distance, 6_378_137 * 110 * Double.pi / 180, accuracy: Self.nm15)
        XCTAssertEqual(along.initialAzimuth, 90)
        XCTAssertEqual(along.finalAzimuth, 90)
        // Karney (2013), Table 3 and Table 2 (the paper's printed digits).
        let table3 = geodesicInverse(from: try Coordinate(latitude: -30, longitude: 0), to: try Coordinate(latitude: 29.9, longitude: 179.8))
        XCTAssertEqual(table3.distance, 19_989_832.827610, accuracy: 1e-6)
        XCTAssertEqual(table3.initialAzimuth, 161.890524736, accuracy: 1e-9)
        XCTAssertEqual(table3.finalAzimuth, 18.090737246, accuracy: 1e-9)
        let table2 = try geodesicDirect(from: try Coordinate(latitude: 40, longitude: 0), azimuth: 30, distance: 10_000_000)
        XCTAssertEqual(table2.destination.latitude, 41.79331020506, accuracy: 1e-11)
        XCTAssertEqual(table2.destination.longitude, 137.84490004377, accuracy: 1e-11)
        XCTAssertEqual(table2.finalAzimuth, 149.09016931807, accuracy: 1e-11)
    }

    func testDirectConventions() throws {
        let start = try Coordinate(latitude: -33.8568, longitude: 151.2153)
        // A negative distance goes backwards along the same geodesic.
        let ahead = try geodesicDirect(from: start, azimuth: 60, distance: 1_000_000)
        let back = try geodesicDirect(from: start, azimuth: 60, distance: -1_000_000)
        let reverse = try geodesicDirect(from: start, azimuth: 240, distance: 1_000_000)
        XCTAssertLessThanOrEqual(gap(back.destination, reverse.destination), Self.nm15)
        XCTAssertEqual(angleGap(back.finalAzimuth, reverse.finalAzimuth + 180), 0, accuracy: 1e-9)
        XCTAssertEqual(geodesicInverse(from: back.destination, to: ahead.destination).distance, 2_000_000, accuracy: Self.nm15)
        // Zero distance stays put; any finite azimuth is reduced.
        let stay = try geodesicDirect(from: start, azimuth: 1234.5, distance: 0)
        XCTAssertLessThanOrEqual(gap(stay.destination, start), 1e-9)
        XCTAssertEqual(angleGap(stay.finalAzimuth, 1234.5), 0, accuracy: 1e-9)
        let wrapped = try geodesicDirect(from: start, azimuth: 60 + 720, distance: 1_000_000)
        XCTAssertLessThanOrEqual(gap(wrapped.destination, ahead.destination), Self.nm15)
        // From a pole every azimuth heads south (north pole), along the meridian lon + azimuth
        // + 180 in GeographicLib's convention; the distance is what counts.
        let pole = try Coordinate(latitude: 90, longitude: 0)
        let down = try geodesicDirect(from: pole, azimuth: 0, distance: Self.halfMeridian / 2)
        XCTAssertEqual(geodesicInverse(from: pole, to: down.destination).distance, Self.halfMeridian / 2, accuracy: Self.nm15)
        // Round the world and back along a meridian: twice the half meridian returns.
        let round = try geodesicDirect(from: start, azimuth: 0, distance: 2 * Self.halfMeridian)
        XCTAssertLessThanOrEqual(gap(round.destination, start), Self.nm15)
    }

    func testDirectRejectsBadInput() throws {
        let start = try Coordinate(latitude: 10, longitude: 20)
        assertThrows(.notFinite) { () throws(GeoLocError) in try geodesicDirect(from: start, azimuth: .nan, distance: 1) }
        assertThrows(.notFinite) { () throws(GeoLocError) in try geodesicDirect(from: start, azimuth: .infinity, distance: 1) }
        assertThrows(.notFinite) { () throws(GeoLocError) in try geodesicDirect(from: start, azimuth: 0, distance: .nan) }
        assertThrows(.notFinite) { () throws(GeoLocError) in try geodesicDirect(from: start, azimuth: 0, distance: -.infinity) }
        // Huge but finite lengths still give a point.
        let far = try geodesicDirect(from: start, azimuth: 33, distance: 1e300)
        XCTAssertTrue(far.destination.latitude.isFinite && far.finalAzimuth.isFinite)
    }

    // MARK: other ellipsoids

    func testEllipsoidValidation() throws {
        let wgs84 = Ellipsoid.wgs84
        XCTAssertEqual(wgs84.equatorialRadius, 6_378_137)
        XCTAssertEqual(wgs84.flattening, 1 / 298.257223563)
        assertThrows(.notFinite) { () throws(GeoLocError) in try Ellipsoid(equatorialRadius: .nan, flattening: 0) }
        assertThrows(.notFinite) { () throws(GeoLocError) in try Ellipsoid(equatorialRadius: 1, flattening: .infinity) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try Ellipsoid(equatorialRadius: 0, flattening: 0) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try Ellipsoid(equatorialRadius: -1, flattening: 0) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try Ellipsoid(equatorialRadius: 1e301, flattening: 0) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try Ellipsoid(equatorialRadius: 1, flattening: 0.021) }
        assertThrows(.outOfRange) { () throws(GeoLocError) in try Ellipsoid(equatorialRadius: 1, flattening: -0.021) }
        XCTAssertNoThrow(try Ellipsoid(equatorialRadius: 1, flattening: 1.0 / 50))
        XCTAssertNoThrow(try Ellipsoid(equatorialRadius: 1, flattening: -1.0 / 50))
        // The extremes stay finite: a tiny ellipsoid and an enormous length, a huge one and
        // nearly antipodal points.
        let tiny = try Ellipsoid(equatorialRadius: 1e-300, flattening: 1.0 / 300)
        let start = try Coordinate(latitude: 10, longitude: 20)
        let far = try geodesicDirect(from: start, azimuth: 33, distance: 1e300, on: tiny)
        XCTAssertTrue(far.destination.latitude.isFinite && far.finalAzimuth.isFinite)
        let huge = try Ellipsoid(equatorialRadius: 1e300, flattening: -1.0 / 300)
        let across = geodesicInverse(from: start, to: try Coordinate(latitude: -10.1, longitude: -160.2), on: huge)
        XCTAssertTrue(across.distance.isFinite && across.distance > 3e300)
    }

    /// GeographicLib 2.1 (`Geodesic(a, f)`) on a prolate, a strongly flattened, a unit sphere and a
    /// mean-radius ellipsoid. At |f| = 1/50 both sides carry the same order-6 series, so this is
    /// a check of the code, not of the series' truncation error there.
    func testOtherEllipsoidsMatchGeographicLib() throws {
        typealias Inverse = (lat1: Double, lon1: Double, lat2: Double, lon2: Double, s12: Double, azi1: Double, azi2: Double)
        typealias Direct = (lat1: Double, lon1: Double, azi1: Double, s12: Double, lat2: Double, lon2: Double, azi2: Double)
        let cases: [(a: Double, f: Double, inverse: [Inverse], direct: [Direct])] = [
            (6_378_137, -1.0 / 150, [
                (10, 20, -30, 150, 14420676.440766342, 120.8078788784701, 77.99451629895972),
                (-30, 0, 29.9, 179.8, 20034539.77726376, 95.08875209506526, 84.29523751769045),
                (0, 0, 0.5, 179.7, 19994644.899573795, 70.50483730500818, 109.48891662088158),
                (45, 10, 45.001, 10.002, 192.5948112558283, 54.55560424186085, 54.55701846776463),
                (0, 0, 0, 179.5, 19981848.597392607, 90.0, 90.0),
                (-89, 0, 89.5, 180, 20049064.179784156, 0.0, 180.0),
            ], [
                (10, 20, 45, 1e7, 44.069763711615145, 119.56271775456955, 103.5573824012214),
                (-60, 0, 100, 3e6, -54.177712264248434, 49.96532539898465, 57.22548202719466),
            ]),
            (6_378_137, 1.0 / 50, [
                (10, 20, -30, 150, 14368002.737796381, 120.89335545954792, 76.3028799556709),
                (-30, 0, 29.9, 179.8, 19826187.87228142, 176.44961364203868, 3.5469204219026014),
                (0, 0, 0.5, 179.7, 19782950.58187712, 4.233849416105882, 175.76599546741323),
                (45, 10, 45.001, 10.002, 193.44516467045156, 55.283931984903845, 55.28534621080763),
                (0, 0, 0, 179.5, 19833754.666705854, 8.02335968823474, 171.97664031176527),
                (-89, 0, 89.5, 180, 19780844.225852914, 0.0, 180.0),
            ], [
                (10, 20, 45, 1e7, 44.49238651169831, 119.80108713123066, 104.70729208046475),
                (-60, 0, 100, 3e6, -54.369788421213016, 49.18808900978595, 57.864621752569924),
            ]),
            (1, 0, [
                (10, 20, -30, 150, 2.258853279219807, 120.81688263043421, 77.58114004902559),
                (-30, 0, 29.9, 179.8, 3.1381006779629392, 119.93756136661821, 59.96258970725132),
                (45, 10, 45.001, 10.002, 3.0229813530898823e-05, 54.73466750262951, 54.73608172853331),
                (0, 0, 0, 179.5, 3.1328660073298216, 90.0, 90.0),
            ], [
                (10, 20, 45, 1e7, 7.776464832763723, -177.46555328535837, 135.34567916622785),
            ]),
            (6_371_008.8, 1.0 / 300, [
                (-30, 0, 29.9, 179.8, 19967672.52244204, 161.80353293012945, 18.177632163494952),
                (0, 0, 0, 179.5, 19958591.57612195, 56.46472739751901, 123.53527260248099),
            ], [
                (-60, 0, 100, 3e6, -54.23393496380954, 49.717943399522056, 57.42921618962625),
            ]),
        ]
        for (a, f, inverse, direct) in cases {
            let e = try Ellipsoid(equatorialRadius: a, flattening: f)
            let scale = a / 6_378_137  // the tolerances are for an Earth-sized ellipsoid
            for c in inverse {
                let r = geodesicInverse(
                    from: try Coordinate(latitude: c.lat1, longitude: c.lon1),
                    to: try Coordinate(latitude: c.lat2, longitude: c.lon2), on: e)
                let label = "a \(a) f \(f): \(c)"
                XCTAssertEqual(r.distance, c.s12, accuracy: Self.nm15 * scale, label)
                XCTAssertLessThanOrEqual(angleGap(r.initialAzimuth, c.azi1), 1e-8, label)
                XCTAssertLessThanOrEqual(angleGap(r.finalAzimuth, c.azi2), 1e-8, label)
            }
            for c in direct {
                let r = try geodesicDirect(from: try Coordinate(latitude: c.lat1, longitude: c.lon1), azimuth: c.azi1, distance: c.s12, on: e)
                let want = try Coordinate(latitude: c.lat2, longitude: c.lon2)
                let label = "a \(a) f \(f): \(c)"
                XCTAssertLessThanOrEqual(geodesicInverse(from: r.destination, to: want, on: e).distance, Self.nm15 * scale, label)
                XCTAssertLessThanOrEqual(angleGap(r.finalAzimuth, c.azi2), 1e-9, label)
            }
        }
    }

    // MARK: properties


    /// 20,000 pairs from the hard families as well as uniform ones: finite results, symmetry,
    /// 0 <= s <= half the meridian, and the direct problem from the inverse's answer returning
    /// to the second point.
    func testInverseProperties() throws {
        var rng = SplitMix64(state: 0x6765_6F64_6573_6963)
        func lat() -> Double { asin(Double.random(in: -1...1, using: &rng)) * 180 / Double.pi }
        func lon() -> Double { Double.random(in: -180..<180, using: &rng) }
        var worstReturn = 0.0
        for i in 0..<20_000 {
            var lat1 = lat(), lon1 = lon(), lat2 = lat(), lon2 = lon()
            switch i % 8 {
            case 1:  // nearly antipodal
                lat2 = max(-90, min(90, -lat1 + Double.random(in: -0.5...0.5, using: &rng)))
                lon2 = lon1 + 180 - Double.random(in: 0...1, using: &rng)
            case 2:  // short, down to a millimetre
                let d = Double.random(in: -3...(-0.0), using: &rng)
                lat2 = max(-90, min(90, lat1 + pow(10, d) * Double.random(in: -1...1, using: &rng)))
                lon2 = lon1 + pow(10, d) * Double.random(in: -1...1, using: &rng)
            case 3:  // on the equator, often in the band beyond (1 - f) 180
                lat1 = 0
                lat2 = i % 16 == 3 ? 0 : Double.random(in: -1e-3...1e-3, using: &rng)
                lon2 = lon1 + 179 + Double.random(in: 0...1, using: &rng)
            case 4:  // meridional, same or facing longitudes
                lon2 = i % 16 == 4 ? lon1 : lon1 + 180
            case 5:  // near or at a pole
                lat1 = 90 - Double.random(in: 0...1, using: &rng) * Double(i % 3)
                lat2 = i % 2 == 0 ? -lat1 : lat2
            case 6:  // exact antipodes
                lat2 = -lat1
                lon2 = lon1 + 180
            default:
                break
            }
            let a = try Coordinate(latitude: lat1, longitude: lon1)
            let b = try Coordinate(latitude: lat2, longitude: lon2)
            let label = "\(a) -> \(b)"
            let ab = geodesicInverse(from: a, to: b)
            let ba = geodesicInverse(from: b, to: a)
            XCTAssertTrue(ab.distance.isFinite && ab.initialAzimuth.isFinite && ab.finalAzimuth.isFinite, label)
            XCTAssertGreaterThanOrEqual(ab.distance, 0, label)
            XCTAssertLessThanOrEqual(ab.distance, Self.halfMeridian * (1 + 1e-15), label)
            XCTAssertLessThanOrEqual(abs(ab.distance - ba.distance), 1e-9 * ab.distance, label)
            let end = try geodesicDirect(from: a, azimuth: ab.initialAzimuth, distance: ab.distance)
            let miss = gap(end.destination, b)
            worstReturn = max(worstReturn, miss)
            XCTAssertLessThanOrEqual(miss, Self.nm15, label)
            if miss > Self.nm15 { break }
        }
        print("round trip over 20,000 pairs: worst miss \(worstReturn) m")
    }

    // MARK: the Earth model everywhere

    func testWGS84ModelInEveryDistance() throws {
        let mountVernon = try Coordinate(parsing: "38.321991,-88.867400")
        let newYork = try Coordinate(parsing: "40.712800,-74.006000")
        let meters = geodesicInverse(from: mountVernon, to: newYork).distance
        for unit in DistanceUnit.allCases {
            XCTAssertEqual(try distance(from: mountVernon, to: newYork, model: .wgs84, unit: unit), meters / unit.meters)
        }
        // The sphere stays the default, and differs.
        XCTAssertNotEqual(try distance(from: mountVernon, to: newYork), meters)
        let points = [mountVernon, newYork, try Coordinate(latitude: -33.8568, longitude: 151.2153), try Coordinate(latitude: 90, longitude: 0)]
        let legs = try routeLength(points, closed: true, model: .wgs84, unit: .kilometers)
        XCTAssertEqual(legs.legs.count, 4)
        for (i, leg) in legs.legs.enumerated() {
            XCTAssertEqual(leg, geodesicInverse(from: points[i], to: points[(i + 1) % 4]).distance / 1000)
        }
        XCTAssertEqual(legs.total, legs.legs.reduce(0, +))
        let pairs = try distances(points, points.reversed(), model: .wgs84, unit: .miles)
        let fromFirst = try distances(from: points[0], to: points, model: .wgs84, unit: .miles)
        for i in 0..<4 {
            XCTAssertEqual(pairs[i], try distance(from: points[i], to: points[3 - i], model: .wgs84, unit: .miles))
            XCTAssertEqual(fromFirst[i], try distance(from: points[0], to: points[i], model: .wgs84, unit: .miles))
        }
        let m = try mileage(home: "38.321991,-88.867400", stops: ["40.712800,-74.006000"], model: .wgs84, unit: .miles)
        XCTAssertEqual(m.total, 2 * meters / 1609.344)
        XCTAssertEqual(m.legs.map(\.distance), [meters / 1609.344, meters / 1609.344])
    }

    func testWGS84BatchEqualsScalar() throws {
        var rng = SplitMix64(state: 42)
        let n = 500
        var a: [Double] = [], b: [Double] = [], coordsA: [Coordinate] = [], coordsB: [Coordinate] = []
        for i in 0..<n {
            // Raw longitudes outside [-180, 180) too: the batch reduces them as Coordinate does.
            let p = (Double.random(in: -90...90, using: &rng), Double.random(in: -540...540, using: &rng))
            let q = i % 5 == 0
                ? (-p.0, p.1 + 180 - Double.random(in: 0...0.5, using: &rng))
                : (Double.random(in: -90...90, using: &rng), Double.random(in: -180..<180, using: &rng))
            a += [p.0, p.1]
            b += [q.0, q.1]
            coordsA.append(try Coordinate(latitude: p.0, longitude: p.1))
            coordsB.append(try Coordinate(latitude: q.0, longitude: q.1))
        }
        var out = [Double](repeating: -1, count: n), many = [Double](repeating: -1, count: n)
        try a.withUnsafeBufferPointer { (pa) throws(GeoLocError) in
            try b.withUnsafeBufferPointer { (pb) throws(GeoLocError) in
                try out.withUnsafeMutableBufferPointer { (po) throws(GeoLocError) in
                    try BatchDistance.pairs(pa, pb, into: po, model: .wgs84, unit: .nauticalMiles)
                }
                try many.withUnsafeMutableBufferPointer { (po) throws(GeoLocError) in
                    try BatchDistance.oneToMany(coordsA[0], pb, into: po, model: .wgs84, unit: .nauticalMiles)
                }
            }
        }
        for i in 0..<n {
            XCTAssertEqual(out[i], try distance(from: coordsA[i], to: coordsB[i], model: .wgs84, unit: .nauticalMiles))
            XCTAssertEqual(many[i], try distance(from: coordsA[0], to: coordsB[i], model: .wgs84, unit: .nauticalMiles))
        }
        // Bad points are still reported before anything is written.
        let bad: [Double] = [0, 0, 91, 0]
        var two = [Double](repeating: -1, count: 2)
        assertThrows(.outOfRange) { () throws(GeoLocError) in
            try bad.withUnsafeBufferPointer { (pa) throws(GeoLocError) in
                try two.withUnsafeMutableBufferPointer { (po) throws(GeoLocError) in
                    try BatchDistance.pairs(pa, pa, into: po, model: .wgs84)
                }
            }
        }
        XCTAssertEqual(two, [-1, -1])
    }
}
