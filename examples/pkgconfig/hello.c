/*
 * Built with pkg-config against an installed libgeoloc:
 *
 *   cc hello.c $(pkg-config --cflags --libs geoloc) -o hello && ./hello
 */
#include <geoloc.h>
#include <stdio.h>

int main(void)
{
    char text[64];
    size_t needed;
    geoloc_status s = geoloc_weather_condition(63, 45.4, GEOLOC_TEMP_FAHRENHEIT,
                                               GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN,
                                               text, sizeof text, &needed);
    if (s != GEOLOC_OK) {
        fprintf(stderr, "%s: %s\n", geoloc_status_string(s), geoloc_last_error());
        return 1;
    }
    printf("hello from libgeoloc %s: %s\n", geoloc_version(), text);
    return 0;
}
