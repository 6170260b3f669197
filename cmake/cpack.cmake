# Debian packages of the CMake install (cpack -G DEB in the build folder; scripts/deb):
#   libgeoloc0      the Runtime component: libgeoloc.so.0 in the multiarch library folder
#                   (/usr/lib/<multiarch>) and the data files (GEOLOC_DATA_FILES: the saved
#                   gazetteer, /usr/share/geoloc/cities1000.places); depends on what
#                   dpkg-shlibdeps finds the library needs (the GEOS C runtime, libc, libgcc,
#                   libstdc++)
#   libgeoloc-dev   the Development component: geoloc.h, the libgeoloc.so link, geoloc.pc and
#                   the CMake package; depends on libgeoloc0 of the same version only (the
#                   header includes nothing but <stddef.h>, <stdint.h>, <stdbool.h>, and a
#                   program links libgeoloc alone: GEOS is the library's private, shared
#                   dependency, found at run time through libgeoloc0's own dependency)
# Each has /usr/share/doc/<package>/copyright (DEP-5: cmake/debian/copyright.in) and
# changelog.Debian.gz, added by cmake/debian/docs.cmake. scripts/test_deb installs both, builds
# consumers against them and runs lintian (README: the warnings it leaves).
# Installed under /usr (CPACK_PACKAGING_INSTALL_PREFIX), so pkg-config and find_package find
# them with no extra paths.
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "libgeoloc")
set(CPACK_PACKAGE_VENDOR "libgeoloc")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
# The synopsis of both packages (under 80 characters); each one's description follows it.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "embeddable location library: distances, places, geocoding, tracks")
set(CPACK_PACKAGE_CONTACT "libgeoloc maintainers <maintainers@libgeoloc.org>")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL Runtime Development)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "libs")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/libgeoloc/libgeoloc")
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
# Stripped as Debian's dh_strip would (the symbols are in the build tree's copy).
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME "libgeoloc${PROJECT_VERSION_MAJOR}")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION "libs")
# dpkg-shlibdeps states the runtime dependencies from the library's DT_NEEDED entries: the GEOS
# C runtime (libgeos-c1v5), libstdc++, libgcc, libc. The shlibs file lets packages built against
# this one depend on it by soname, and the ldconfig trigger runs ldconfig on install.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY "=")
# ldconfig through the trigger (Debian policy 8.1.1), not from maintainer scripts: CPack writes
# postinst/postrm calling ldconfig unless the package brings its own (which do nothing).
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA
    "${PROJECT_SOURCE_DIR}/cmake/debian/triggers" "${PROJECT_SOURCE_DIR}/cmake/debian/postinst"
    "${PROJECT_SOURCE_DIR}/cmake/debian/postrm")
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
"Distance and WGS84 geodesics, mileage and the best order of a day's stops,
place search, offline reverse geocoding on the shipped GeoNames gazetteer
(CC BY 4.0), fix filtering, geofences, GPX tracks, coordinate and address
text and weather codes, through a C interface.

This package has the shared library and its data files.")

set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME "libgeoloc-dev")
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION "libdevel")
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS "libgeoloc${PROJECT_VERSION_MAJOR} (= ${PROJECT_VERSION}-1)")
set(CPACK_DEBIAN_DEVELOPMENT_DESCRIPTION
"Distance and WGS84 geodesics, mileage and the best order of a day's stops,
place search, offline reverse geocoding, fix filtering, geofences and GPX
tracks, through a C interface.

This package has the development files: the C header geoloc.h, the link to
the shared library, geoloc.pc for pkg-config and the CMake package
(find_package(geoloc)).")

# The copyright file and the changelog of every package (cmake/debian/docs.cmake).
# (CPACK_-prefixed: CPack passes only those to its scripts, through CPackConfig.cmake.)
set(CPACK_GEOLOC_DEBIAN_DOCS "${PROJECT_BINARY_DIR}/debian")
configure_file("${PROJECT_SOURCE_DIR}/cmake/debian/copyright.in" "${CPACK_GEOLOC_DEBIAN_DOCS}/copyright" @ONLY)
configure_file("${PROJECT_SOURCE_DIR}/cmake/debian/changelog.in" "${CPACK_GEOLOC_DEBIAN_DOCS}/changelog.Debian" @ONLY)
set(CPACK_GEOLOC_DEBIAN_PACKAGES "Runtime=libgeoloc${PROJECT_VERSION_MAJOR}" "Development=libgeoloc-dev")
set(CPACK_PRE_BUILD_SCRIPTS "${PROJECT_SOURCE_DIR}/cmake/debian/docs.cmake")

include(CPack)
