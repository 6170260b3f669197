/*
 * test_geocoding.c -- the C door's tests of offline reverse geocoding on the shipped
 * gazetteer (GEOLOC_GAZETTEER names the file in CTest): "City, State" and its longer form, the
 * place-only call, buffers, every class of bad argument, and the golden table
 * tests/golden/reverse_geocode.tsv.
 *
 *   usage: test_geocoding GOLDEN_DIR
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

static geoloc_gazetteer *gazetteer;

/* ---------------------------------------------------------------------------------------------
 * Reverse geocoding on the shipped gazetteer
 * ------------------------------------------------------------------------------------------- */


static void test_reverse_geocode(void)
{
    const geoloc_places *gp = NULL;
    geoloc_gazetteer *other = (geoloc_gazetteer *)&other;
    geoloc_gazetteer *const sentinel = other;
    geoloc_match place = {0, -1};
    char buf[256];
    size_t needed = 0, count = 0;
    const geoloc_coord springfield = {39.80, -89.64};

    if (!CHECK_OK(geoloc_gazetteer_open(NULL, &gazetteer))) return;
    CHECK_OK(geoloc_gazetteer_places(gazetteer, &gp));
    CHECK_OK(geoloc_places_count(gp, &count));
    CHECK(count > 100000);
    CHECK_OK(geoloc_reverse_geocode(gazetteer, springfield, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, &needed, &place));
    CHECK_STR(buf, "Springfield, IL");
    CHECK(place.distance >= 0 && place.distance < 5000);
    CHECK_OK(geoloc_places_name(gp, place.index, buf, sizeof buf, &needed));
    CHECK_STR(buf, "Springfield");
    CHECK_OK(geoloc_places_attribute(gp, place.index, "admin1_code", buf, sizeof buf, &needed));
    CHECK_STR(buf, "IL");
    CHECK_OK(geoloc_places_attribute(gp, place.index, "country_code", buf, sizeof buf, &needed));
    CHECK_STR(buf, "US");
    CHECK_OK(geoloc_places_attribute(gp, place.index, "country_name", buf, sizeof buf, &needed));
    CHECK_STR(buf, "United States");
    CHECK(count == 170391);
    /* Native names in UTF-8, and the country's name. */
    CHECK_OK(geoloc_reverse_geocode(gazetteer, (geoloc_coord){-23.5465, -46.63511}, GEOLOC_ADDRESS_CITY_STATE, buf,
                                    sizeof buf, &needed, &place));
    CHECK_STR(buf, "S\xc3\xa3o Paulo, SP");
    CHECK_OK(geoloc_places_attribute(gp, place.index, "admin1_name", buf, sizeof buf, &needed));
    CHECK_STR(buf, "S\xc3\xa3o Paulo");
    CHECK_OK(geoloc_places_attribute(gp, place.index, "country_name", buf, sizeof buf, &needed));
    CHECK_STR(buf, "Brazil");
    CHECK_OK(geoloc_reverse_geocode(gazetteer, springfield, GEOLOC_ADDRESS_CITY_STATE_COUNTRY, buf, sizeof buf, &needed, NULL));
    CHECK_STR(buf, "Springfield, Illinois, United States");
    /* The size query still reports the place. */
    place.index = 0;
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_reverse_geocode(gazetteer, springfield, GEOLOC_ADDRESS_CITY_STATE, NULL, 0, &needed, &place));
    CHECK(needed == strlen("Springfield, IL") + 1 && place.index != 0);
    /* The place only: no text, no buffer, no needed. */
    {
        geoloc_match only = {0, -1};
        CHECK_OK(geoloc_reverse_geocode(gazetteer, springfield, GEOLOC_ADDRESS_CITY_STATE, NULL, 0, NULL, &only));
        CHECK(only.index == place.index && only.distance == place.distance);
        CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode(gazetteer, springfield, GEOLOC_ADDRESS_CITY_STATE, NULL, 0, NULL, NULL));
        CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode(gazetteer, springfield, GEOLOC_ADDRESS_CITY_STATE, buf, 0, NULL, &only));
    }
    /* The pole and the middle of the Pacific still have a nearest place. */
    CHECK_OK(geoloc_reverse_geocode(gazetteer, (geoloc_coord){90, 0}, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, &needed, NULL));
    CHECK_OK(geoloc_reverse_geocode(gazetteer, (geoloc_coord){-30, -140}, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, &needed, NULL));

    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode(NULL, springfield, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, &needed, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_reverse_geocode(gazetteer, springfield, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, NULL, NULL));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_reverse_geocode(gazetteer, springfield, (geoloc_address_style)99, buf, sizeof buf, &needed, NULL));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_reverse_geocode(gazetteer, (geoloc_coord){0, INFINITY}, GEOLOC_ADDRESS_CITY_STATE, buf, sizeof buf, &needed, NULL));
    CHECK_ERR(GEOLOC_E_NOT_FOUND, geoloc_gazetteer_open("/nonexistent/gazetteer.tsv", &other));
    CHECK_ERR(GEOLOC_E_INVALID_UTF8, geoloc_gazetteer_open("\xff", &other));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_gazetteer_open(NULL, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_gazetteer_places(gazetteer, NULL));
    CHECK(other == sentinel);
    /* A second handle on the shipped gazetteer shares its data. */
    if (CHECK_OK(geoloc_gazetteer_open(NULL, &other))) {
        const geoloc_places *gp2 = NULL;
        size_t count2 = 0;
        CHECK_OK(geoloc_gazetteer_places(other, &gp2));
        CHECK_OK(geoloc_places_count(gp2, &count2));
        CHECK(count2 == count);
        geoloc_gazetteer_destroy(other);
    }
    geoloc_gazetteer_destroy(NULL);
}

/* Issue 13 (hardening): the gazetteer's borrowed place set cannot be destroyed by the caller,
 * and is a destroyed handle once its gazetteer is. */
static void test_borrowed_places(void)
{
    geoloc_gazetteer *g = NULL;
    const geoloc_places *gp = NULL;
    size_t count = 0;
    char buf[8];
    size_t needed;

    if (!CHECK_OK(geoloc_gazetteer_open(NULL, &g))) return;
    CHECK_OK(geoloc_gazetteer_places(g, &gp));
    geoloc_places_destroy((geoloc_places *)gp);
    CHECK_STR(geoloc_last_error(), "places belongs to its gazetteer and is freed by geoloc_gazetteer_destroy");
    CHECK_OK(geoloc_places_count(gp, &count));
    CHECK(count > 100000);
    CHECK_OK(geoloc_reverse_geocode(g, MOUNT_VERNON, GEOLOC_ADDRESS_CITY_STATE, NULL, 0, NULL,
                                    &(geoloc_match){0, 0}));
    /* The wrong handle type, both ways. */
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT,
              geoloc_reverse_geocode((const geoloc_gazetteer *)gp, MOUNT_VERNON, GEOLOC_ADDRESS_CITY_STATE, buf,
                                     sizeof buf, &needed, NULL));
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_count((const geoloc_places *)g, &count));
    geoloc_gazetteer_destroy(g);
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_places_count(gp, &count));
    CHECK_STR(geoloc_last_error(), "places was destroyed");
    CHECK_ERR(GEOLOC_E_INVALID_ARGUMENT, geoloc_gazetteer_places(g, &gp));
    geoloc_gazetteer_destroy(g);
    CHECK_STR(geoloc_last_error(), "gazetteer was destroyed");
}

/* ---------------------------------------------------------------------------------------------
 * The shared golden cases (tests/golden/reverse_geocode.tsv)
 * ------------------------------------------------------------------------------------------- */

static geoloc_gazetteer *golden_gazetteer;

static void row_reverse_geocode(char **f)
{
    const geoloc_places *gp = NULL;
    geoloc_match place = {0, -1};
    char buf[512];
    size_t needed = 0;
    geoloc_coord c = {number(f[0]), number(f[1])};
    geoloc_address_style style = address_style_of(f[2]);

    if (row_bad_value || golden_gazetteer == NULL) return;
    if (CHECK_OK(geoloc_reverse_geocode(golden_gazetteer, c, style, buf, sizeof buf, &needed, &place))) {
        ROW_CHECK_STR(buf, f[4]);
    }
    CHECK_OK(geoloc_gazetteer_places(golden_gazetteer, &gp));
    if (CHECK_OK(geoloc_places_name(gp, place.index, buf, sizeof buf, &needed))) {
        ROW_CHECK_STR(buf, f[3]);
    }
}

int main(int argc, char **argv)
{
    const struct golden_file files[] = {
        {"reverse_geocode.tsv", "lat\tlon\tstyle\tname\ttext", row_reverse_geocode, NULL},
    };

    setvbuf(stdout, NULL, _IONBF, 0);
    test_reverse_geocode();
    geoloc_gazetteer_destroy(gazetteer);
    test_borrowed_places();
    if (CHECK_OK(geoloc_gazetteer_open(NULL, &golden_gazetteer))) {
        golden_run(argc, argv, files, sizeof files / sizeof files[0]);
        geoloc_gazetteer_destroy(golden_gazetteer);
    }
    return check_summary("test_geocoding");
}
