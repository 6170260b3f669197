# Run by CPack (CPACK_PRE_BUILD_SCRIPTS) after it has installed each component into its staging
# folder and before it builds the .deb files: puts the Debian documents every binary package
# must carry into /usr/share/doc/<package>/ of each one -- the DEP-5 copyright file (the
# library's, GeoNames' and the address-formatting data's licences) and changelog.Debian.gz
# (gzip -9n: no name, no time stamp, so the package builds the same twice).
# Reads CPACK_GEOLOC_DEBIAN_DOCS (the configured copyright and changelog) and
# CPACK_GEOLOC_DEBIAN_PACKAGES (component=package pairs) from CPackConfig.cmake.
file(GLOB _staged LIST_DIRECTORIES true "${CPACK_TEMPORARY_DIRECTORY}/*")
if(NOT CPACK_GEOLOC_DEBIAN_PACKAGES OR NOT IS_DIRECTORY "${CPACK_GEOLOC_DEBIAN_DOCS}")
    message(FATAL_ERROR "CPACK_GEOLOC_DEBIAN_PACKAGES / CPACK_GEOLOC_DEBIAN_DOCS are not set")
endif()
foreach(pair ${CPACK_GEOLOC_DEBIAN_PACKAGES})
    string(REPLACE "=" ";" pair "${pair}")
    list(GET pair 0 component)
    list(GET pair 1 package)
    set(root "${CPACK_TEMPORARY_DIRECTORY}/${component}")
    if(NOT IS_DIRECTORY "${root}")
        message(FATAL_ERROR "no staging folder for ${component} in ${CPACK_TEMPORARY_DIRECTORY}: ${_staged}")
    endif()
    set(doc "${root}${CPACK_PACKAGING_INSTALL_PREFIX}/share/doc/${package}")
    file(MAKE_DIRECTORY "${doc}")
    file(COPY_FILE "${CPACK_GEOLOC_DEBIAN_DOCS}/copyright" "${doc}/copyright")
    file(COPY_FILE "${CPACK_GEOLOC_DEBIAN_DOCS}/changelog.Debian" "${doc}/changelog.Debian")
    execute_process(COMMAND gzip -9nf "${doc}/changelog.Debian" RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "gzip -9n ${doc}/changelog.Debian failed (${rc})")
    endif()
    file(CHMOD "${doc}/copyright" "${doc}/changelog.Debian.gz" PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
endforeach()
