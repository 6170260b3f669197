/*
 * address.c -- the example host's Address: the address forms (see examples/geoloc-demo.c).
 */
#include "demo.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_address(geoloc_address_style style, char **items, size_t n)
{
    geoloc_address_part parts[64];
    char text[TEXT_CAP * 2];
    size_t needed, i;
    geoloc_status s;
    if (n > 64) return usage();
    for (i = 0; i < n; i++) {
        if (!parse_part(items[i], &parts[i])) return usage();
    }
    s = geoloc_address_format(parts, n, style, text, sizeof text, &needed);
    if (s != GEOLOC_OK) return report("address", s);
    printf("%s\n", text);
    return 0;
}

int tour_addresses(const struct table *addresses)
{
    static const char *const style_names[] = {"one line", "City, State", "City, State, Country", "postal"};
    size_t i;
    printf("\n== Addresses: components in, the usual forms out\n");
    for (i = 0; i < addresses->rows; i++) {
        geoloc_address_part parts[16];
        char items[MAX_FIELD], *item = items;
        size_t n = 0;
        int style;
        snprintf(items, sizeof items, "%s", addresses->cell[i][1]);
        while (item != NULL && n < 16) {
            char *sep = strstr(item, " | ");
            if (sep != NULL) *sep = '\0';
            if (!parse_part(item, &parts[n++])) {
                fprintf(stderr, "%s: addresses.tsv row %zu is malformed\n", program, i + 1);
                return 1;
            }
            item = sep != NULL ? sep + 3 : NULL;
        }
        printf("  %s\n", addresses->cell[i][0]);
        for (style = GEOLOC_ADDRESS_ONE_LINE; style <= GEOLOC_ADDRESS_POSTAL; style++) {
            char text[TEXT_CAP * 2];
            size_t needed;
            geoloc_status s = geoloc_address_format(parts, n, (geoloc_address_style)style, text, sizeof text, &needed);
            if (s != GEOLOC_OK) return report("address", s);
            if (style == GEOLOC_ADDRESS_POSTAL) {
                printf("    %s:\n", style_names[style]);
                print_indented("      ", text);
            } else {
                printf("    %-21s %s\n", style_names[style], text);
            }
        }
    }
    return 0;
}
