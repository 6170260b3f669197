/* A consumer of the installed libgeoloc: the distance from Mount Vernon, IL to Carbondale, and
 * the nearest town to a point from the gazetteer installed with the library. */
#include <geoloc.h>
#include <stdio.h>

int main(void)
{
    geoloc_coord mount_vernon, carbondale;
    char text[32];
    size_t needed;
    double meters;
    geoloc_status s;

    if ((s = geoloc_coord_parse("38.321991,-88.867400", &mount_vernon)) != GEOLOC_OK ||
        (s = geoloc_coord_parse("37.727270,-89.216760", &carbondale)) != GEOLOC_OK ||
        (s = geoloc_distance(mount_vernon, carbondale, GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS,
                             &meters)) != GEOLOC_OK ||
        (s = geoloc_distance_text(meters, GEOLOC_UNIT_MILES, text, sizeof text, &needed)) !=
            GEOLOC_OK) {
        fprintf(stderr, "%s: %s\n", geoloc_status_string(s), geoloc_last_error());
        return 1;
    }
    printf("libgeoloc %s: Mount Vernon to Carbondale is %s\n", geoloc_version(), text);

    {
        geoloc_gazetteer *towns = NULL;
        char where[128];
        geoloc_coord point = {39.80, -89.64};
        if ((s = geoloc_gazetteer_open(NULL, &towns)) != GEOLOC_OK ||
            (s = geoloc_reverse_geocode(towns, point, GEOLOC_ADDRESS_CITY_STATE, where, sizeof where,
                                        &needed, NULL)) != GEOLOC_OK) {
            fprintf(stderr, "%s: %s\n", geoloc_status_string(s), geoloc_last_error());
            geoloc_gazetteer_destroy(towns);
            return 1;
        }
        printf("the nearest town to 39.80,-89.64 is %s\n", where);
        geoloc_gazetteer_destroy(towns);
    }
    return 0;
}
