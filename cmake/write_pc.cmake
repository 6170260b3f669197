# Writes geoloc.pc at install time, so its prefix is the one given to `cmake --install --prefix`
# (or CMAKE_INSTALL_PREFIX). Run from the install script with -D-style variables set there:
#   GEOLOC_PC_TEMPLATE   the configured template (cmake/geoloc.pc.in with the project filled in)
#   GEOLOC_PC_OUTPUT     where to write geoloc.pc
#   GEOLOC_PC_LIBDIR_REL / GEOLOC_PC_INCLUDEDIR_REL  CMAKE_INSTALL_LIBDIR / INCLUDEDIR
set(GEOLOC_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
foreach(kind LIBDIR INCLUDEDIR)
    if(IS_ABSOLUTE "${GEOLOC_PC_${kind}_REL}")
        set(GEOLOC_PC_${kind} "${GEOLOC_PC_${kind}_REL}")
    else()
        set(GEOLOC_PC_${kind} "\${prefix}/${GEOLOC_PC_${kind}_REL}")
    endif()
endforeach()
configure_file("${GEOLOC_PC_TEMPLATE}" "${GEOLOC_PC_OUTPUT}" @ONLY)
