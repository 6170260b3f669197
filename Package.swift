// swift-tools-version: 6.0
//
// libgeoloc: the Swift core (`GeoLoc`, for Swift callers) and the C ABI (`geoloc`, the dynamic
// library C, C++ and Python load). No Foundation in either library target.
import PackageDescription

// The export list sits beside this manifest; the linker needs its absolute path.
let packageRoot = String(#filePath.dropLast("/Package.swift".count))

let package = Package(
    name: "geoloc",
    products: [
        // The module Swift callers import. Plain target, no unsafe flags, so other packages can
        // depend on it by version.
        .library(name: "GeoLoc", targets: ["GeoLoc"]),
        // libgeoloc.so: the C ABI. Exports only geoloc_* (version script; lld, since gold leaves a few
        // hidden Swift metadata symbols in .dynsym) and links
        // the Swift runtime statically, so a C host needs no Swift toolchain.
        .library(name: "geoloc", type: .dynamic, targets: ["GeoLocC"]),
    ],
    targets: [
        // GEOS's reentrant C API (Debian libgeos-dev), for polygons only: the regions of place
        // sets (the place index is libgeoloc's own kd-tree; geofences test polygons themselves).
        .systemLibrary(
            name: "CGEOS",
            pkgConfig: "geos",
            providers: [.apt(["libgeos-dev"])]
        ),
        // C kernels, one file per capability (the batch haversine, Douglas-Peucker) for AVX2 and
        // AVX-512 chosen at run time (C: a function can carry its own instruction set, a Swift
        // module cannot), and the gazetteer cache's atomics.
        .target(name: "GeoLocKernels"),
        .target(name: "GeoLoc", dependencies: ["CGEOS", "GeoLocKernels"]),
        // The public header, seen by the thunks as a Clang module (include/module.modulemap).
        .systemLibrary(name: "CGeoLoc", path: "include"),
        .target(
            name: "GeoLocC",
            dependencies: ["GeoLoc", "CGeoLoc"],
            linkerSettings: [
                .unsafeFlags([
                    "-static-stdlib",
                    "-use-ld=lld",
                    "-Xlinker", "--version-script=\(packageRoot)/cmake/geoloc.map",
                ]),
            ]
        ),
        .testTarget(
            name: "GeoLocTests",
            dependencies: ["GeoLoc"]
        ),
    ]
)
