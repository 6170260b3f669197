/*
 * header_c99.c -- geoloc.h compiles as strict C99 (-std=c99 -Wall -Wextra -Werror -pedantic)
 * and its declarations can be used from it. Built as part of the build; running it checks that
 * the header and the loaded library agree on the version.
 */
#include "geoloc.h"

#include <stdio.h>
#include <string.h>

int main(void)
{
    geoloc_coord a = {38.321991, -88.8674};
    geoloc_coord b = {40.7128, -74.006};
    geoloc_mileage_result result;
    geoloc_leg leg;
    geoloc_address_part part;
    geoloc_unit unit = GEOLOC_UNIT_MILES;
    geoloc_model model = GEOLOC_MODEL_SPHERE;
    geoloc_status status;
    double miles = 0.0;
    size_t max_count = GEOLOC_MAX_COUNT;
    char buf[64];
    size_t needed = 0;

    part.key = "city";
    part.value = "Springfield";
    leg.from = -1;
    leg.to = 0;
    leg.distance = 0.0;
    memset(&result, 0, sizeof result);
    (void)part;
    (void)leg;
    (void)max_count;

    if (strcmp(geoloc_version(), GEOLOC_VERSION_STRING) != 0) {
        fprintf(stderr, "header %s, library %s\n", GEOLOC_VERSION_STRING, geoloc_version());
        return 1;
    }
    status = geoloc_distance(a, b, model, unit, &miles);
    if (status != GEOLOC_OK || miles < 800.0 || miles > 810.0) {
        fprintf(stderr, "distance: %s %s\n", geoloc_status_string(status), geoloc_last_error());
        return 1;
    }
    status = geoloc_coord_format(a, GEOLOC_COORD_READABLE, buf, sizeof buf, &needed);
    if (status != GEOLOC_OK) return 1;
    printf("C99: libgeoloc %s, %s to New York: %.1f miles\n", geoloc_version(), buf, miles);
    return 0;
}
