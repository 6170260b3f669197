# Compiles examples/pkgconfig/hello.c with `cc $(pkg-config --cflags --libs geoloc)` against an
# installed libgeoloc and runs it:
#
#   cmake -DSOURCE=examples/pkgconfig/hello.c -DBINARY=work-dir -DPREFIX=install-prefix
#         -DLIBDIR=lib -DPKG_CONFIG=pkg-config -DC_COMPILER=cc -DVERSION=0.1.0
#         -P consumer_pkgconfig.cmake
cmake_minimum_required(VERSION 3.25)

function(run)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    string(JOIN " " shown ${ARGN})
    message("$ ${shown}\n${out}\n${err}")
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "failed (${rc})")
    endif()
    set(run_output "${out}" PARENT_SCOPE)
endfunction()

set(env "${CMAKE_COMMAND}" -E env "PKG_CONFIG_PATH=${PREFIX}/${LIBDIR}/pkgconfig"
        PKG_CONFIG_SYSROOT_DIR=)

run(${env} "${PKG_CONFIG}" --modversion geoloc)
if(NOT run_output STREQUAL VERSION)
    message(FATAL_ERROR "pkg-config says version ${run_output}, want ${VERSION}")
endif()
run(${env} "${PKG_CONFIG}" --cflags --libs geoloc)
separate_arguments(flags UNIX_COMMAND "${run_output}")
if(NOT run_output MATCHES "-I${PREFIX}/" OR NOT run_output MATCHES "-L${PREFIX}/" OR NOT run_output MATCHES "-lgeoloc")
    message(FATAL_ERROR "pkg-config flags do not point into ${PREFIX}: ${run_output}")
endif()

file(REMOVE_RECURSE "${BINARY}")
file(MAKE_DIRECTORY "${BINARY}")
run("${C_COMPILER}" "${SOURCE}" -o "${BINARY}/hello" ${flags})
run("${CMAKE_COMMAND}" -E env "LD_LIBRARY_PATH=${PREFIX}/${LIBDIR}" "${BINARY}/hello")
if(NOT run_output MATCHES "libgeoloc ${VERSION}")
    message(FATAL_ERROR "unexpected output")
endif()
