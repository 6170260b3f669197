# Debian packages of the CMake install (cpack -G DEB in the build folder; scripts/deb):
#   libgeoloc0      the Runtime component: libgeoloc.so.0 and the shipped gazetteer
#                   (share/geoloc/cities1000.tsv); depends on the GEOS C runtime
#   libgeoloc-dev   the Development component: geoloc.h, the libgeoloc.so link, geoloc.pc and
#                   the CMake package; depends on libgeoloc0 of the same version and on
#                   libgeos-dev (the CMake package finds GEOS, and the linker needs libgeos_c)
# Installed under /usr (CPACK_PACKAGING_INSTALL_PREFIX), so pkg-config and find_package find
# them with no extra paths.
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "libgeoloc")
set(CPACK_PACKAGE_VENDOR "libgeoloc")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_CONTACT "libgeoloc maintainers <libgeoloc@localhost>")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL Runtime Development)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "libs")
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME "libgeoloc${PROJECT_VERSION_MAJOR}")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION "libs")
# dpkg-shlibdeps states the runtime dependencies from the library's DT_NEEDED entries: the GEOS
# C runtime (libgeos-c1v5), libstdc++, libgcc, libc.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
"embeddable location library (runtime)
 Distance and WGS84 geodesics, mileage, place search, reverse geocoding on the
 shipped GeoNames gazetteer (CC BY 4.0), coordinate and address text, weather
 codes, through a C interface. This package has the shared library and the
 gazetteer.")

set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME "libgeoloc-dev")
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION "libdevel")
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS
    "libgeoloc${PROJECT_VERSION_MAJOR} (= ${PROJECT_VERSION}-1), libgeos-dev (>= 3.11)")
set(CPACK_DEBIAN_DEVELOPMENT_DESCRIPTION
"embeddable location library (development files)
 The C header geoloc.h, the link to the shared library, geoloc.pc for
 pkg-config and the CMake package (find_package(geoloc)).")

include(CPack)
