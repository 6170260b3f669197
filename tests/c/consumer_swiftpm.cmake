# The README's Swift dependency line, resolved in a scratch package, for CTest:
#
#   cmake -DSOURCE=<repo> -DBINARY=<scratch> -DSWIFT=<swift> -DVERSION=X.Y.Z -P consumer_swiftpm.cmake
#
# A Swift user copies the README's `.package(url: "<home>", ...)` line into their Package.swift.
# This makes that package: the line exactly as the README has it, the product GeoLoc, and
# `swift package resolve`. The home URL is served from a bare copy of this repository's
# committed HEAD (git's url.<copy>.insteadOf <home>, set in the environment only), with HEAD as
# its `main`; then scripts/release writes the tag VERSION in a clone of it, and a second
# package that depends `from: "VERSION"` resolves to that tag: what users get once a release
# is tagged. (Resolution only: the example host geoloc.example.swift builds against the tree.)
cmake_minimum_required(VERSION 3.25)

file(READ "${SOURCE}/README.md" readme)
string(REGEX MATCH "\\.package\\(url: \"([^\"]+)\", (from: \"[0-9.]+\"|branch: \"[^\"]+\")\\)" line "${readme}")
if(NOT line)
    message(FATAL_ERROR "README.md has no `.package(url: \"...\", from:/branch: ...)` line")
endif()
set(home "${CMAKE_MATCH_1}")
message(STATUS "README's dependency line: ${line}")

file(REMOVE_RECURSE "${BINARY}")
file(MAKE_DIRECTORY "${BINARY}")
find_program(GIT git REQUIRED)
function(run)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
    endif()
endfunction()
execute_process(COMMAND "${GIT}" -C "${SOURCE}" rev-parse HEAD OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${SOURCE} is not a git repository")
endif()
set(served "${BINARY}/served.git")
run("${GIT}" clone -q --bare --no-tags "${SOURCE}" "${served}")
run("${GIT}" --git-dir=${served} update-ref refs/heads/main "${head}")
run("${GIT}" --git-dir=${served} symbolic-ref HEAD refs/heads/main)
# git (and so SwiftPM) fetches the home URL from the bare copy; nothing else changes.
set(ENV{GIT_CONFIG_COUNT} 1)
set(ENV{GIT_CONFIG_KEY_0} "url.file://${served}.insteadOf")
set(ENV{GIT_CONFIG_VALUE_0} "${home}")

function(resolve name dependency)
    set(dir "${BINARY}/${name}")
    file(MAKE_DIRECTORY "${dir}/Sources/App")
    file(WRITE "${dir}/Package.swift" "// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: \"App\",
    dependencies: [
        ${dependency},
    ],
    targets: [
        .executableTarget(name: \"App\", dependencies: [.product(name: \"GeoLoc\", package: \"libgeoloc\")]),
    ]
)
")
    file(WRITE "${dir}/Sources/App/main.swift" "import GeoLoc\nprint(try distanceText(meters: distance(from: Coordinate(latitude: 38.32, longitude: -88.87), to: Coordinate(latitude: 40.71, longitude: -74.01))))\n")
    execute_process(
        COMMAND "${SWIFT}" package resolve --package-path "${dir}" --scratch-path "${dir}/.build"
                --cache-path "${BINARY}/cache" --config-path "${BINARY}/config" --security-path "${BINARY}/security"
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "swift package resolve failed for ${dependency} (${rc}):\n${out}\n${err}")
    endif()
    file(READ "${dir}/Package.resolved" resolved)
    message(STATUS "${name}: resolved ${dependency}:\n${resolved}")
    set(resolved "${resolved}" PARENT_SCOPE)
endfunction()

# 1. The README's line as it is.
resolve(readme "${line}")
if(NOT resolved MATCHES "${head}")
    message(FATAL_ERROR "the README's line did not resolve to this tree's HEAD ${head}")
endif()

# 2. A release: scripts/release writes the tag; `from:` then resolves to it. (The tagger's name
# is the test's, whatever git identity the machine has.)
set(ENV{GIT_COMMITTER_NAME} "libgeoloc test")
set(ENV{GIT_COMMITTER_EMAIL} "test@libgeoloc.invalid")
set(clone "${BINARY}/release-clone")
run("${GIT}" clone -q "${served}" "${clone}")
run(bash "${clone}/scripts/release" "${VERSION}")
run("${GIT}" -C "${clone}" push -q origin "refs/tags/${VERSION}")
resolve(tagged ".package(url: \"${home}\", from: \"${VERSION}\")")
if(NOT resolved MATCHES "\"version\" : \"${VERSION}\"")
    message(FATAL_ERROR "`from: \"${VERSION}\"` did not resolve to the tag ${VERSION}")
endif()
