// swift-tools-version: 6.0
// A Swift host over the GeoLoc module: another package depending on libgeoloc and importing it.
// A real project names the package by URL and version; this one uses the source tree it sits in.
import PackageDescription

let package = Package(
    name: "geoloc-swift-demo",
    dependencies: [.package(name: "geoloc", path: "../..")],
    targets: [
        .executableTarget(name: "geoloc-swift-demo", dependencies: [.product(name: "GeoLoc", package: "geoloc")]),
    ]
)
