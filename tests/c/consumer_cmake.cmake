# Builds examples/consumer against an installed libgeoloc with find_package(geoloc) and runs it:
#
#   cmake -DSOURCE=examples/consumer -DBINARY=work-dir -DPREFIX=install-prefix
#         -DGENERATOR=Ninja -DMAKE_PROGRAM=ninja -DC_COMPILER=cc -P consumer_cmake.cmake
cmake_minimum_required(VERSION 3.25)

function(run)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    string(JOIN " " shown ${ARGN})
    message("$ ${shown}\n${out}${err}")
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "failed (${rc})")
    endif()
    set(run_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${BINARY}")
run("${CMAKE_COMMAND}" -S "${SOURCE}" -B "${BINARY}" -G "${GENERATOR}"
    "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}"
    "-DCMAKE_C_COMPILER=${C_COMPILER}"
    "-DCMAKE_PREFIX_PATH=${PREFIX}"
    # Only the installed package may be found, never the build tree.
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
    -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
run("${CMAKE_COMMAND}" --build "${BINARY}")
run("${BINARY}/geoloc-consumer")
if(NOT run_output MATCHES "libgeoloc [0-9]+\\.[0-9]+\\.[0-9]+: Mount Vernon to Carbondale is 45\\.3 miles\nthe nearest town to 39\\.80,-89\\.64 is Springfield, IL\n")
    message(FATAL_ERROR "unexpected output")
endif()
file(READ "${BINARY}/CMakeCache.txt" cache)
if(NOT cache MATCHES "geoloc_DIR:PATH=([^\n]*)")
    message(FATAL_ERROR "geoloc_DIR is not in the consumer's cache")
endif()
message(STATUS "found geoloc in ${CMAKE_MATCH_1}")
string(FIND "${CMAKE_MATCH_1}" "${PREFIX}" at)
if(NOT at EQUAL 0)
    message(FATAL_ERROR "the consumer found geoloc outside the install prefix ${PREFIX}")
endif()
