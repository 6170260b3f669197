/*
 * check.h -- the tiny check kit of the C tests: counts passes and failures, prints every
 * failure with file:line, and exits non-zero when anything failed. No framework.
 *
 * CHECK(cond)                   a condition
 * CHECK_STR(got, want)          two C strings are equal (NULL-safe)
 * CHECK_OK(call)                the call returns GEOLOC_OK
 * CHECK_ERR(status, call)       the call returns `status`, and it is the call that sets
 *                               geoloc_last_error() to a non-empty message (see below)
 *
 * Set GEOLOC_TEST_VERBOSE=1 in the environment to print every error message checked.
 */
#ifndef GEOLOC_TEST_CHECK_H
#define GEOLOC_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geoloc.h"

static int check_passed;
static int check_failed;

static inline int check_verbose(void)
{
    static int verbose = -1;
    if (verbose < 0) {
        const char *v = getenv("GEOLOC_TEST_VERBOSE");
        verbose = v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
    }
    return verbose;
}

static inline int check_report(int ok, const char *file, int line, const char *what)
{
    if (ok) {
        check_passed++;
    } else {
        check_failed++;
        fprintf(stderr, "%s:%d: FAILED: %s\n", file, line, what);
    }
    return ok;
}

#define CHECK(cond) check_report((cond) ? 1 : 0, __FILE__, __LINE__, #cond)

static inline int check_str_(const char *got, const char *want, const char *file, int line,
                      const char *expr)
{
    int ok = (got == NULL && want == NULL) ||
             (got != NULL && want != NULL && strcmp(got, want) == 0);
    if (!check_report(ok, file, line, expr)) {
        fprintf(stderr, "    got:  %s%s%s\n    want: %s%s%s\n", got ? "\"" : "",
                got ? got : "(NULL)", got ? "\"" : "", want ? "\"" : "", want ? want : "(NULL)",
                want ? "\"" : "");
    }
    return ok;
}

#define CHECK_STR(got, want) check_str_((got), (want), __FILE__, __LINE__, #got " == " #want)

/* The C name of a status without its GEOLOC_ prefix ("OK", "E_PARSE", ...), or NULL. */
static inline const char *status_name(geoloc_status s)
{
    static const char *const names[] = {
        "OK",        "E_NULL_ARGUMENT",  "E_NOT_FINITE", "E_OUT_OF_RANGE",  "E_INVALID_ARGUMENT",
        "E_PARSE",   "E_BUFFER_TOO_SMALL", "E_INVALID_UTF8", "E_COUNT_TOO_LARGE", "E_NO_HOME",
        "E_HOME_INVALID", "E_UNKNOWN_CODE", "E_NOT_FOUND", "E_UNSUPPORTED", "E_NO_MEMORY",
        "E_INTERNAL",
    };
    unsigned u = (unsigned)s;
    return u < sizeof names / sizeof names[0] ? names[u] : NULL;
}

static inline int check_ok_(geoloc_status s, const char *file, int line, const char *expr)
{
    int ok = s == GEOLOC_OK;
    if (!check_report(ok, file, line, expr)) {
        fprintf(stderr, "    status %s (%d), last error \"%s\"\n",
                status_name(s) ? status_name(s) : "?", (int)s, geoloc_last_error());
    }
    return ok;
}

#define CHECK_OK(call) check_ok_((call), __FILE__, __LINE__, #call)

/*
 * Error checks. A successful call does not clear geoloc_last_error(), so "the message is not
 * empty" alone would pass on a stale message. CHECK_ERR therefore makes the call twice, after
 * leaving a different sentinel message each time: only a call that writes its own message ends
 * both times with the same text (the functions are pure, so both calls say the same thing).
 */
static inline void check_set_sentinel(int which)
{
    geoloc_coord c;
    (void)geoloc_coord_parse(which ? "check-sentinel-b" : "check-sentinel-a", &c);
}

static inline int check_err_(geoloc_status want, geoloc_status s1, geoloc_status s2, const char *msg1,
                      const char *msg2, const char *file, int line, const char *expr)
{
    int ok = s1 == want && s2 == want && msg1[0] != '\0' && msg2 != NULL &&
             strcmp(msg1, msg2) == 0;
    if (!check_report(ok, file, line, expr)) {
        fprintf(stderr, "    want %s, got %s then %s; messages \"%s\" then \"%s\"\n",
                status_name(want) ? status_name(want) : "?",
                status_name(s1) ? status_name(s1) : "?", status_name(s2) ? status_name(s2) : "?",
                msg1, msg2 ? msg2 : "(NULL)");
    } else if (check_verbose()) {
        printf("    %-20s %s\n", status_name(want), msg1);
    }
    return ok;
}

#define CHECK_ERR(want, call)                                                                  \
    do {                                                                                       \
        geoloc_status check_s1_, check_s2_;                                                    \
        char check_m1_[1024];                                                                  \
        check_set_sentinel(0);                                                                 \
        check_s1_ = (call);                                                                    \
        snprintf(check_m1_, sizeof check_m1_, "%s", geoloc_last_error());                     \
        check_set_sentinel(1);                                                                 \
        check_s2_ = (call);                                                                    \
        check_err_((want), check_s1_, check_s2_, check_m1_, geoloc_last_error(), __FILE__,     \
                   __LINE__, #call);                                                           \
    } while (0)

/* Prints the tally and gives the exit status. */
static inline int check_summary(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
    return check_failed == 0 ? 0 : 1;
}

#endif /* GEOLOC_TEST_CHECK_H */
