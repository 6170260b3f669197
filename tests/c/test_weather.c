/*
 * test_weather.c -- the C door's tests of weather codes: labels, documented codes,
 * "Rain, 45°F", and the golden weather cases.
 *
 *   usage: test_weather GOLDEN_DIR
 *
 * Plain C, no framework: see check.h. Exit status 0 when every check passed.
 */
#include "golden.h"
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geoloc.h"
#include "check.h"
#include "common.h"

/* ---------------------------------------------------------------------------------------------
 * Weather
 * ------------------------------------------------------------------------------------------- */

static const struct {
    int32_t code;
    const char *label;
} WEATHER_LABELS[] = {
    {0, "Clear"},
    {1, "Mainly Clear"},
    {2, "Partly Cloudy"},
    {3, "Overcast"},
    {45, "Foggy"},
    {48, "Foggy"},
    {51, "Light Drizzle"},
    {53, "Drizzle"},
    {55, "Heavy Drizzle"},
    {56, "Light Freezing Drizzle"},
    {57, "Heavy Freezing Drizzle"},
    {61, "Light Rain"},
    {63, "Rain"},
    {65, "Heavy Rain"},
    {66, "Light Freezing Rain"},
    {67, "Heavy Freezing Rain"},
    {71, "Light Snow"},
    {73, "Snow"},
    {75, "Heavy Snow"},
    {77, "Snow Grains"},
    {80, "Rain Showers"},
    {81, "Heavy Showers"},
    {82, "Violent Showers"},
    {85, "Snow Showers"},
    {86, "Heavy Snow Showers"},
    {95, "Thunderstorm"},
    {96, "Thunderstorm with Hail"},
    {99, "Thunderstorm with Heavy Hail"},
};

static const int32_t UNKNOWN_CODES[] = {-1, 4, 44, 50, 100, 1000, INT32_MAX, INT32_MIN};

static void test_weather_label(void)
{
    const char *label;
    size_t i;

    for (i = 0; i < COUNT_OF(WEATHER_LABELS); i++) {
        int32_t code = WEATHER_LABELS[i].code;
        const char *day_label = code == 0 ? "Sunny" : code == 1 ? "Mainly Sunny" : WEATHER_LABELS[i].label;
        label = NULL;
        CHECK_OK(geoloc_weather_label(code, GEOLOC_DAYLIGHT_UNKNOWN, &label));
        CHECK_STR(label, WEATHER_LABELS[i].label);
        label = NULL;
        CHECK_OK(geoloc_weather_label(code, GEOLOC_DAYLIGHT_NIGHT, &label));
        CHECK_STR(label, WEATHER_LABELS[i].label);
        label = NULL;
        CHECK_OK(geoloc_weather_label(code, GEOLOC_DAYLIGHT_DAY, &label));
        CHECK_STR(label, day_label);
    }
    /* Every other code from -10 to 110 is unknown: soft failure with "Unknown". */
    {
        int32_t code;
        for (code = -10; code <= 110; code++) {
            int documented = 0;
            for (i = 0; i < COUNT_OF(WEATHER_LABELS); i++) documented |= WEATHER_LABELS[i].code == code;
            if (documented) continue;
            label = NULL;
            CHECK(geoloc_weather_label(code, GEOLOC_DAYLIGHT_UNKNOWN, &label) == GEOLOC_E_UNKNOWN_CODE);
            CHECK_STR(label, "Unknown");
        }
    }
    for (i = 0; i < COUNT_OF(UNKNOWN_CODES); i++) {
        label = NULL;
        CHECK_ERR(GEOLOC_E_UNKNOWN_CODE, geoloc_weather_label(UNKNOWN_CODES[i], GEOLOC_DAYLIGHT_DAY, &label));
        CHECK_STR(label, "Unknown");
    }
    label = "untouched";
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_weather_label(63, GEOLOC_DAYLIGHT_UNKNOWN, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_weather_label(4, INVALID_DAYLIGHT, NULL));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_weather_label(63, INVALID_DAYLIGHT, &label));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_weather_label(63, (geoloc_daylight)-1, &label));
    /* A hard failure wins over the soft one. */
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_weather_label(4, INVALID_DAYLIGHT, &label));
    CHECK_STR(label, "untouched");
}

static void test_weather_code_documented(void)
{
    int32_t code;
    size_t i;
    int documented_count = 0;
    for (i = 0; i < COUNT_OF(WEATHER_LABELS); i++) CHECK(geoloc_weather_code_documented(WEATHER_LABELS[i].code));
    for (code = -1000; code <= 1000; code++) documented_count += geoloc_weather_code_documented(code) ? 1 : 0;
    CHECK(documented_count == 28);
    for (i = 0; i < COUNT_OF(UNKNOWN_CODES); i++) CHECK(!geoloc_weather_code_documented(UNKNOWN_CODES[i]));
    /* It agrees with geoloc_weather_label's soft failure. */
    for (code = -5; code <= 105; code++) {
        const char *label;
        geoloc_status s = geoloc_weather_label(code, GEOLOC_DAYLIGHT_UNKNOWN, &label);
        CHECK((s == GEOLOC_OK) == geoloc_weather_code_documented(code));
    }
}

struct weather_args {
    int32_t code;
    double temperature;
    geoloc_temp_unit given, shown;
    geoloc_daylight daylight;
};

static geoloc_status call_weather_condition(const void *ctx, char *buf, size_t cap, size_t *needed)
{
    const struct weather_args *a = ctx;
    return geoloc_weather_condition(a->code, a->temperature, a->given, a->shown, a->daylight, buf,
                                    cap, needed);
}

static void test_weather_condition(void)
{
    static const struct {
        struct weather_args args;
        const char *want;
    } cases[] = {
        {{63, 45.4, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN}, "Rain, 45°F"},
        {{0, 72.0, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_DAY}, "Sunny, 72°F"},
        {{0, 72.0, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_NIGHT}, "Clear, 72°F"},
        {{3, 0.0, GEOLOC_TEMP_CELSIUS, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN}, "Overcast, 32°F"},
        {{73, 212.0, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_CELSIUS, GEOLOC_DAYLIGHT_UNKNOWN}, "Snow, 100°C"},
        {{95, 44.5, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN}, "Thunderstorm, 45°F"},
        {{71, -0.4, GEOLOC_TEMP_CELSIUS, GEOLOC_TEMP_CELSIUS, GEOLOC_DAYLIGHT_UNKNOWN}, "Light Snow, 0°C"},
        {{71, -0.5, GEOLOC_TEMP_CELSIUS, GEOLOC_TEMP_CELSIUS, GEOLOC_DAYLIGHT_UNKNOWN}, "Light Snow, -1°C"},
        {{45, -273.15, GEOLOC_TEMP_CELSIUS, GEOLOC_TEMP_CELSIUS, GEOLOC_DAYLIGHT_UNKNOWN}, "Foggy, -273°C"},
        {{45, -459.67, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN}, "Foggy, -460°F"},
        {{2, 1000000.0, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN}, "Partly Cloudy, 1000000°F"},
    };
    struct weather_args unknown = {4, 72.0, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN};
    char buf[64];
    size_t needed = 0, i;

    for (i = 0; i < COUNT_OF(cases); i++) {
        CHECK_TEXT_CONTRACT(call_weather_condition, &cases[i].args, GEOLOC_OK, cases[i].want);
    }
    /* Unknown codes: soft failure, the text written with "Unknown". */
    CHECK_TEXT_CONTRACT(call_weather_condition, &unknown, GEOLOC_E_UNKNOWN_CODE, "Unknown, 72°F");
    for (i = 0; i < COUNT_OF(UNKNOWN_CODES); i++) {
        buf[0] = '\0';
        CHECK_ERR(GEOLOC_E_UNKNOWN_CODE, geoloc_weather_condition(UNKNOWN_CODES[i], 72.0, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_DAY, buf, sizeof buf, &needed));
        CHECK_STR(buf, "Unknown, 72°F");
    }

    strcpy(buf, "untouched");
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_weather_condition(63, nan_value(), GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_weather_condition(63, INFINITY, GEOLOC_TEMP_CELSIUS, GEOLOC_TEMP_CELSIUS, GEOLOC_DAYLIGHT_UNKNOWN, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_weather_condition(63, -INFINITY, GEOLOC_TEMP_CELSIUS, GEOLOC_TEMP_CELSIUS, GEOLOC_DAYLIGHT_UNKNOWN, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_weather_condition(63, -273.16, GEOLOC_TEMP_CELSIUS, GEOLOC_TEMP_CELSIUS, GEOLOC_DAYLIGHT_UNKNOWN, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_weather_condition(63, -459.68, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_CELSIUS, GEOLOC_DAYLIGHT_UNKNOWN, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_weather_condition(63, 1000000.5, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_weather_condition(63, 45.0, INVALID_TEMP_UNIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_weather_condition(63, 45.0, GEOLOC_TEMP_FAHRENHEIT, INVALID_TEMP_UNIT, GEOLOC_DAYLIGHT_UNKNOWN, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_weather_condition(63, 45.0, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, INVALID_DAYLIGHT, buf, sizeof buf, &needed));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_weather_condition(63, 45.0, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN, buf, sizeof buf, NULL));
    CHECK_STR(buf, "untouched");
    /* An unknown code with a buffer too small reports the buffer. */
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_weather_condition(4, 72.0, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_TEMP_FAHRENHEIT, GEOLOC_DAYLIGHT_UNKNOWN, buf, 4, &needed));
    CHECK(needed == strlen("Unknown, 72°F") + 1 && buf[0] == '\0');
}

/* ---------------------------------------------------------------------------------------------
 * The shared golden cases of this capability (tests/golden)
 * ------------------------------------------------------------------------------------------- */

static void row_weather(char **f)
{
    int32_t code = (int32_t)integer(f[0]);
    geoloc_daylight daylight = daylight_of(f[4]);
    geoloc_status want = status_of(f[5]);
    /* "Unknown" is the label of every undocumented code, a soft failure of its own. */
    geoloc_status want_label = f[6] != NULL && strcmp(f[6], "Unknown") == 0 ? GEOLOC_E_UNKNOWN_CODE : GEOLOC_OK;
    const char *label = NULL;
    char buf[128];
    size_t needed = 0;
    geoloc_status s = geoloc_weather_label(code, daylight, &label);

    CHECK_STATUS(s, want_label);
    ROW_CHECK_STR(label, f[6]);
    s = geoloc_weather_condition(code, number(f[1]), temp_unit_of(f[2]), temp_unit_of(f[3]), daylight,
                                 buf, sizeof buf, &needed);
    CHECK_STATUS(s, want);
    check_message(s);
    if (s == want && (want == GEOLOC_OK || want == GEOLOC_E_UNKNOWN_CODE)) ROW_CHECK_STR(buf, f[7]);
}

int main(int argc, char **argv)
{
    const struct golden_file files[] = {
        {"weather.tsv", "code\ttemperature\tgiven\tshown\tdaylight\tstatus\tlabel\ttext", row_weather,
         NULL},
    };
    int failed_files;

    /* One stream order for CTest's merged log: failures next to what they belong to. */
    setvbuf(stdout, NULL, _IONBF, 0);
    test_weather_label();
    test_weather_code_documented();
    test_weather_condition();
    failed_files = golden_run(argc, argv, files, sizeof files / sizeof files[0]);
    (void)failed_files;
    return check_summary("test_weather");
}
