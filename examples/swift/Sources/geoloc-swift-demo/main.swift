// The Swift door in a dozen lines: the same answers as the C host, from the Swift API directly.
import GeoLoc

do {
    let home = try Coordinate(parsing: "38.321991,-88.867400")
    let newYork = try Coordinate(latitude: 40.7128, longitude: -74.006)
    print("home:", home.formatted(.readable))
    print("to New York:", try distanceText(meters: distance(from: home, to: newYork)))

    let trip = try mileage(home: "38.321991,-88.867400",
                           stops: ["38.525050,-89.133404", "38.626995,-88.945610", "oops"])
    print("mileage:", trip.text, "miles; skipped stops:", trip.skippedStops)
    print("ETA at 55 mph, roads 1.3x:", try etaMinutes(distance: trip.total, speedPerHour: 55, unit: .miles, detourFactor: 1.3), "min")

    print(try weatherCondition(code: WeatherCode(63), temperature: 45.4))
    print(try weatherCondition(code: WeatherCode(0), temperature: 22.2, given: .celsius, shown: .fahrenheit, daylight: .day))

    let place: AddressComponents = ["city": "Springfield", "state": "Illinois", "country_code": "US"]
    print(formatAddress(place, style: .cityState))
    print(formatAddress(place, style: .cityStateCountry))

    print("on WGS84:", try distance(from: home, to: newYork, model: .wgs84, unit: .miles), "miles")

    // Towns near home and "where was I", from the GeoNames gazetteer shipped with libgeoloc.
    let towns = try Gazetteer.shipped()
    for m in try towns.places.within(10, .miles, of: home, limit: 3) {
        print("near home:", towns.places.name(at: m.index), try distanceText(meters: m.distance * 1609.344))
    }
    print("where:", try towns.reverse(Coordinate(latitude: 39.80, longitude: -89.64)).formatted())

    _ = try Coordinate(parsing: "91,0")
} catch {
    print("error (\(error.code)):", error.message)
}
