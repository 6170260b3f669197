/*
 * weather.c -- the example host's Weather: WMO codes as "Rain, 45°F" (see examples/geoloc-demo.c).
 */
#include "demo.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_weather(int32_t code, double temperature, geoloc_temp_unit unit)
{
    char text[TEXT_CAP];
    size_t needed;
    geoloc_status s = geoloc_weather_condition(code, temperature, unit, unit, GEOLOC_DAYLIGHT_UNKNOWN,
                                               text, sizeof text, &needed);
    if (s == GEOLOC_OK || s == GEOLOC_E_UNKNOWN_CODE) printf("%s\n", text);
    return s == GEOLOC_OK ? 0 : report("weather", s);
}

int tour_weather(const struct table *weather)
{
    static const char *const daylight_names[] = {"UNKNOWN", "DAY", "NIGHT"};
    size_t i;
    printf("\n== Weather: WMO codes as words\n");
    for (i = 0; i < weather->rows; i++) {
        int32_t code;
        double temperature;
        geoloc_temp_unit given;
        geoloc_daylight daylight = GEOLOC_DAYLIGHT_UNKNOWN;
        char shown_f[TEXT_CAP], shown_c[TEXT_CAP];
        size_t needed;
        int k;
        geoloc_status s;
        if (!parse_int32(weather->cell[i][0], &code) || !parse_double(weather->cell[i][1], &temperature) ||
            !parse_temp_unit(weather->cell[i][2], &given)) {
            fprintf(stderr, "%s: weather.tsv row %zu is malformed\n", program, i + 1);
            return 1;
        }
        for (k = 0; k < 3; k++) {
            if (strcmp(weather->cell[i][3], daylight_names[k]) == 0) daylight = (geoloc_daylight)k;
        }
        s = geoloc_weather_condition(code, temperature, given, GEOLOC_TEMP_FAHRENHEIT, daylight, shown_f,
                                     sizeof shown_f, &needed);
        if (s != GEOLOC_OK && s != GEOLOC_E_UNKNOWN_CODE) return report("weather", s);
        s = geoloc_weather_condition(code, temperature, given, GEOLOC_TEMP_CELSIUS, daylight, shown_c,
                                     sizeof shown_c, &needed);
        if (s != GEOLOC_OK && s != GEOLOC_E_UNKNOWN_CODE) return report("weather", s);
        printf("  code %-3d %6s°%s %-8s %-26s %s\n", (int)code, weather->cell[i][1], weather->cell[i][2],
               weather->cell[i][3], shown_f, shown_c);
        if (s == GEOLOC_E_UNKNOWN_CODE) {
            printf("           (%s: %s)\n", geoloc_status_string(s), geoloc_last_error());
        }
    }
    return 0;
}
