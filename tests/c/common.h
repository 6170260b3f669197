/*
 * common.h -- what the C door's tests of every capability share: a few places, the invalid enum
 * values and counts, bad UTF-8, a relative comparison, and the text-buffer contract that every
 * function writing text keeps (CHECK_TEXT_CONTRACT).
 */
#ifndef GEOLOC_TEST_COMMON_H
#define GEOLOC_TEST_COMMON_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geoloc.h"
#include "check.h"

#define GEOLOC_TEST_UNUSED __attribute__((unused))

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Coordinates of the tour: Mount Vernon IL (home) and towns around it. */
static const GEOLOC_TEST_UNUSED geoloc_coord MOUNT_VERNON = {38.321991, -88.8674};
static const GEOLOC_TEST_UNUSED geoloc_coord NEW_YORK = {40.7128, -74.006};

#define INVALID_UNIT ((geoloc_unit)99)
#define INVALID_MODEL ((geoloc_model)99)
#define INVALID_STYLE ((geoloc_coord_style)99)
#define INVALID_DAYLIGHT ((geoloc_daylight)99)
#define INVALID_TEMP_UNIT ((geoloc_temp_unit)99)
#define INVALID_ADDRESS_STYLE ((geoloc_address_style)99)

static const GEOLOC_TEST_UNUSED size_t HUGE_COUNTS[] = {(size_t)-1, GEOLOC_MAX_COUNT + 1};

/* Texts that are not valid UTF-8: a stray byte, a lead byte without its continuation, and an
 * overlong encoding of '/'. */
static const GEOLOC_TEST_UNUSED char *const BAD_UTF8[] = {"\xff", "\xc3\x28", "\xc0\xaf"};

static inline int close_rel(double got, double want, double rel)
{
    double scale = fabs(want) > 1e-300 ? fabs(want) : 1e-300;
    return fabs(got - want) <= rel * scale + 1e-9;
}

static inline double nan_value(void) { return NAN; }

/* ---------------------------------------------------------------------------------------------
 * The buffer contract, shared by every function that writes text
 * ------------------------------------------------------------------------------------------- */

typedef geoloc_status (*text_call)(const void *ctx, char *buf, size_t cap, size_t *needed);

/*
 * Checks a text-writing call against the header's buffer contract: a size query (NULL, 0),
 * cap 0 with a buffer (untouched), cap 1 and needed-1 ("" written, BUFFER_TOO_SMALL), exactly
 * needed and more (the text, nothing written past it), buf NULL with cap > 0, needed NULL.
 * `ok_status` is what a call with enough room returns (GEOLOC_OK, or a soft failure's status).
 */
static inline void check_text_contract_(const char *file, int line, text_call call, const void *ctx,
                                 geoloc_status ok_status, const char *want)
{
    int failed_before = check_failed;
    size_t n = strlen(want) + 1;
    size_t needed = (size_t)-1;
    char buf[512];

    /* The size query. */
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, call(ctx, NULL, 0, &needed));
    CHECK(needed == n);

    /* cap 0 with a buffer: the buffer is not touched. */
    memset(buf, 'X', sizeof buf);
    needed = 0;
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, call(ctx, buf, 0, &needed));
    CHECK(needed == n);
    CHECK(buf[0] == 'X');

    /* cap 1: "" is written. */
    memset(buf, 'X', sizeof buf);
    needed = 0;
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, call(ctx, buf, 1, &needed));
    CHECK(needed == n);
    CHECK(buf[0] == '\0' && buf[1] == 'X');

    /* One byte short: "" is written and nothing else. */
    if (n > 2) {
        memset(buf, 'X', sizeof buf);
        needed = 0;
        CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, call(ctx, buf, n - 1, &needed));
        CHECK(needed == n);
        CHECK(buf[0] == '\0' && buf[1] == 'X');
    }

    /* Exactly enough: the text, and nothing past its NUL. */
    if (n < sizeof buf) {
        memset(buf, 'X', sizeof buf);
        needed = 0;
        if (ok_status == GEOLOC_OK) {
            CHECK_OK(call(ctx, buf, n, &needed));
        } else {
            CHECK_ERR(ok_status, call(ctx, buf, n, &needed));
        }
        CHECK(needed == n);
        CHECK_STR(buf, want);
        CHECK(buf[n] == 'X');

        /* More than enough. */
        memset(buf, 'X', sizeof buf);
        needed = 0;
        CHECK(call(ctx, buf, sizeof buf, &needed) == ok_status);
        CHECK(needed == n);
        CHECK_STR(buf, want);
    }

    /* NULL buffer with a capacity, and NULL needed. */
    needed = 0;
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, call(ctx, NULL, 8, &needed));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, call(ctx, buf, sizeof buf, NULL));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, call(ctx, NULL, 0, NULL));

    if (check_failed != failed_before) {
        fprintf(stderr, "    (buffer contract checked from %s:%d, text \"%s\")\n", file, line, want);
    }
}

#define CHECK_TEXT_CONTRACT(call, ctx, ok_status, want)                                        \
    check_text_contract_(__FILE__, __LINE__, (call), (ctx), (ok_status), (want))


/* Points around the tour, as an (n, 2) array of doubles (the layout the header promises). */
static const GEOLOC_TEST_UNUSED double TOUR_POINTS[6][2] = {
    {38.525050, -89.133404}, /* Centralia */
    {38.626995, -88.945610}, /* Salem */
    {37.730604, -88.933138}, /* Marion */
    {37.727270, -89.216760}, /* Carbondale */
    {37.996990, -88.920070}, /* Benton */
    {-33.8568, 151.2153},    /* far away */
};

#endif /* GEOLOC_TEST_COMMON_H */
