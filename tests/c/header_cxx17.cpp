/*
 * header_cxx17.cpp -- geoloc.h compiles as strict C++17 (-std=c++17 -Wall -Wextra -Werror
 * -pedantic), its declarations have C linkage, and they can be used from C++.
 */
#include "geoloc.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

static_assert(std::is_standard_layout<geoloc_coord>::value, "geoloc_coord is plain data");
static_assert(sizeof(geoloc_coord) == 2 * sizeof(double), "geoloc_coord is double[2]");
static_assert(std::is_trivially_copyable<geoloc_mileage_result>::value, "plain data");
static_assert(GEOLOC_VERSION_NUMBER ==
                  GEOLOC_VERSION_MAJOR * 10000 + GEOLOC_VERSION_MINOR * 100 + GEOLOC_VERSION_PATCH,
              "version number");

int main()
{
    // Function pointers with the declared C types.
    geoloc_status (*distance)(geoloc_coord, geoloc_coord, geoloc_model, geoloc_unit, double *) =
        &geoloc_distance;
    const char *(*status_string)(geoloc_status) = &geoloc_status_string;

    geoloc_coord a{38.321991, -88.8674};
    geoloc_coord b{38.525050, -89.133404};
    double km = 0.0;
    geoloc_status s = distance(a, b, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_KILOMETERS, &km);
    if (s != GEOLOC_OK) {
        std::fprintf(stderr, "%s: %s\n", status_string(s), geoloc_last_error());
        return 1;
    }

    std::string text;
    std::size_t needed = 0;
    if (geoloc_distance_text(km * 1000.0, GEOLOC_UNIT_KILOMETERS, nullptr, 0, &needed) !=
        GEOLOC_E_BUFFER_TOO_SMALL) {
        return 1;
    }
    text.resize(needed);
    if (geoloc_distance_text(km * 1000.0, GEOLOC_UNIT_KILOMETERS, &text[0], text.size(), &needed) !=
        GEOLOC_OK) {
        return 1;
    }
    text.resize(needed - 1);
    if (std::strcmp(geoloc_version(), GEOLOC_VERSION_STRING) != 0) return 1;
    std::printf("C++17: libgeoloc %s, Mount Vernon to Centralia: %s\n", geoloc_version(), text.c_str());
    return 0;
}
