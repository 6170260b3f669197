# Installs the build into a fresh prefix and checks what lands there, for CTest:
#
#   cmake -DBUILD_DIR=build -DPREFIX=/tmp/p -DLIBDIR=lib -DINCLUDEDIR=include -DCONFIG=Release
#         -DVERSION=0.1.0 -DSOVERSION=0 -P install_prefix.cmake
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE "${PREFIX}")
execute_process(
    COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}" --config "${CONFIG}"
    RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install failed (${rc})")
endif()

set(problems "")
foreach(f
        "${LIBDIR}/libgeoloc.so.${VERSION}"
        "${LIBDIR}/libgeoloc.so.${SOVERSION}"
        "${LIBDIR}/libgeoloc.so"
        "${INCLUDEDIR}/geoloc.h"
        "${LIBDIR}/pkgconfig/geoloc.pc"
        "${LIBDIR}/cmake/geoloc/geolocConfig.cmake"
        "${LIBDIR}/cmake/geoloc/geolocConfigVersion.cmake"
        "${LIBDIR}/cmake/geoloc/geolocTargets.cmake"
        "share/geoloc/cities1000.places")
    if(NOT EXISTS "${PREFIX}/${f}")
        string(APPEND problems "missing: ${f}\n")
    endif()
endforeach()
foreach(link "libgeoloc.so" "libgeoloc.so.${SOVERSION}")
    if(NOT IS_SYMLINK "${PREFIX}/${LIBDIR}/${link}")
        string(APPEND problems "not a symlink: ${LIBDIR}/${link}\n")
    endif()
endforeach()
# Only the header is installed: the module map is for the library's own Swift build.
file(GLOB_RECURSE headers RELATIVE "${PREFIX}" "${PREFIX}/${INCLUDEDIR}/*")
if(NOT headers STREQUAL "${INCLUDEDIR}/geoloc.h")
    string(APPEND problems "the include folder should hold geoloc.h only, it holds: ${headers}\n")
endif()
# The pkg-config file names the prefix it was installed to.
file(READ "${PREFIX}/${LIBDIR}/pkgconfig/geoloc.pc" pc)
if(NOT pc MATCHES "prefix=${PREFIX}\n")
    string(APPEND problems "geoloc.pc does not name the install prefix ${PREFIX}:\n${pc}\n")
endif()
# One gazetteer form installed: the saved one (the TSV is the source, not installed).
if(EXISTS "${PREFIX}/share/geoloc/cities1000.tsv")
    string(APPEND problems "share/geoloc/cities1000.tsv should not be installed (only the saved form)\n")
endif()
# The CMake package asks for no GEOS package and puts GEOS in no link interface: a consumer
# needs no GEOS development files (geoloc.consumer.cmake builds without GEOS's CMake package;
# the exported IMPORTED_LINK_DEPENDENT_LIBRARIES hint, for -rpath-link, is ignored then).
file(GLOB _targets "${PREFIX}/${LIBDIR}/cmake/geoloc/*.cmake")
foreach(f ${_targets})
    file(READ "${f}" text)
    if(text MATCHES "find_dependency\\(GEOS|INTERFACE_LINK_LIBRARIES[^\n]*GEOS")
        string(APPEND problems "${f} needs GEOS\n")
    endif()
endforeach()
if(problems)
    message(FATAL_ERROR "${problems}")
endif()
file(GLOB_RECURSE installed RELATIVE "${PREFIX}" LIST_DIRECTORIES false "${PREFIX}/*")
string(REPLACE ";" "\n  " installed "${installed}")
message(STATUS "installed into ${PREFIX}:\n  ${installed}")
