/*
 * test_route_windows.c -- the C door's tests of the best order's budgets and bounds (issue 21's
 * route findings) and of the best order with opening hours (issue 22): every order brute-forced
 * up to 9 stops, with windows, service times, a departure and a deadline, for every route kind.
 *
 *   usage: test_route_windows
 *
 * Plain C, no framework: see check.h. Exit status 0 when every check passed.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "geoloc.h"
#include "check.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int is_permutation(const size_t *order, size_t n)
{
    char *seen = calloc(n ? n : 1, 1);
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        if (order[i] >= n || seen[order[i]]) ok = 0;
        else seen[order[i]] = 1;
    }
    free(seen);
    return ok;
}

/* Issue 21: costs of 1e308 gave OK with total inf, text "inf" and order {0,0,0}. */
static void test_issue21_huge_costs_refused_with_the_bound(void)
{
    double m[16];
    size_t order[3], needed;
    geoloc_order_result r;
    for (int i = 0; i < 16; i++) m[i] = (i % 5 == 0) ? 0 : 1e308;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_best_order_matrix(m, 4, 4, GEOLOC_ROUTE_END_HOME, 0, NULL, order, 3,
                                                              NULL, 0, &needed, &r));
    CHECK(strstr(geoloc_last_error(), "1e+300") != NULL);
    /* At the bound, the sums stay finite and the order is a permutation. */
    for (int i = 0; i < 16; i++) m[i] = (i % 5 == 0) ? 0 : GEOLOC_ORDER_MAX_COST;
    for (int end = 0; end < 3; end++) {
        geoloc_order_options o = {GEOLOC_ORDER_HEURISTIC, 50, 0, 1};
        CHECK_OK(geoloc_best_order_matrix(m, 4, 4, (geoloc_route_end)end, 2, NULL, order, 3, NULL, 0, &needed, &r));
        CHECK(isfinite(r.total) && isfinite(r.given_total) && is_permutation(order, 3));
        CHECK(strcmp(r.text, "inf") != 0);
        CHECK_OK(geoloc_best_order_matrix(m, 4, 4, (geoloc_route_end)end, 2, &o, order, 3, NULL, 0, &needed, &r));
        CHECK(isfinite(r.total) && is_permutation(order, 3));
    }
}

/* Random stops in a box, for the budget tests. */
static geoloc_coord *random_stops(size_t n, unsigned seed)
{
    geoloc_coord *p = malloc(sizeof *p * n);
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        p[i].lat = 30 + (seed >> 8) % 100000 / 10000.0;
        seed = seed * 1103515245u + 12345u;
        p[i].lon = -100 + (seed >> 8) % 100000 / 5000.0;
    }
    return p;
}

/* Issue 21: a time limit of 1e-9 s ran 4.1 s at 4,096 stops (the clock started after the first
 * tour and local search). No timing assertion: the time is printed, the answer checked. */
static void test_issue21_tiny_time_limit_counts_from_the_call(void)
{
    size_t n = 4096, needed;
    geoloc_coord *stops = random_stops(n + 1, 7);
    size_t *order = malloc(sizeof *order * n);
    geoloc_order_result r;
    geoloc_order_options o = {GEOLOC_ORDER_AUTO, 0, 1e-9, 1};
    double t0 = now_s();
    CHECK_OK(geoloc_best_order(stops[0], stops + 1, n, GEOLOC_ROUTE_END_HOME, 0, GEOLOC_MODEL_SPHERE,
                               GEOLOC_UNIT_METERS, &o, order, n, NULL, 0, &needed, &r));
    printf("  time limit 1e-9 s at 4,096 stops: returned after %.3f s\n", now_s() - t0);
    CHECK(is_permutation(order, n) && isfinite(r.total) && r.total > 0);
    free(order);
    free(stops);
}

/* Issue 21: a time limit alone only cut the default iteration count; now it runs until the time
 * (the search never returns before its limit when no iteration count is given). */
static void test_issue21_time_limit_alone_runs_until_that_time(void)
{
    size_t n = 60, order[60], needed;
    geoloc_coord *stops = random_stops(n + 1, 11);
    geoloc_order_result r, d;
    geoloc_order_options o = {GEOLOC_ORDER_HEURISTIC, 0, 0.25, 1};
    double t0 = now_s(), spent;
    CHECK_OK(geoloc_best_order(stops[0], stops + 1, n, GEOLOC_ROUTE_END_HOME, 0, GEOLOC_MODEL_SPHERE,
                               GEOLOC_UNIT_METERS, &o, order, n, NULL, 0, &needed, &r));
    spent = now_s() - t0;
    CHECK(spent >= 0.25);
    CHECK(is_permutation(order, n));
    /* No worse than the default search (which it includes, as the same seed starts it). */
    CHECK_OK(geoloc_best_order(stops[0], stops + 1, n, GEOLOC_ROUTE_END_HOME, 0, GEOLOC_MODEL_SPHERE,
                               GEOLOC_UNIT_METERS, NULL, order, n, NULL, 0, &needed, &d));
    CHECK(r.total <= d.total * (1 + 1e-9));
    /* The caps of the header. */
    o.time_limit_s = 0;
    o.iterations = GEOLOC_ORDER_MAX_ITERATIONS + 1LL;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_best_order(stops[0], stops + 1, n, GEOLOC_ROUTE_END_HOME, 0,
                                                       GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &o, order, n, NULL,
                                                       0, &needed, &r));
    o.iterations = 0;
    o.time_limit_s = GEOLOC_ORDER_MAX_TIME_LIMIT_S * 2;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_best_order(stops[0], stops + 1, n, GEOLOC_ROUTE_END_HOME, 0,
                                                       GEOLOC_MODEL_SPHERE, GEOLOC_UNIT_METERS, &o, order, n, NULL,
                                                       0, &needed, &r));
    free(stops);
}

/* ---------------------------------------------------------------------------------------------
 * Opening hours against every order
 * ------------------------------------------------------------------------------------------- */

typedef struct {
    int n;
    double t[100];
    geoloc_time_window w[9];
    double service[9];
    double departure, return_by;
} problem;

/* (lateness, travel) of an order, as the header defines them. */
static void evaluate(const problem *p, const int *perm, int end, double *late, double *travel)
{
    int size = p->n + 1, prev = 0;
    double time = p->departure;
    *late = 0;
    *travel = 0;
    for (int i = 0; i < p->n; i++) {
        int node = perm[i] + 1;
        double leg = p->t[prev * size + node], arrival = time + leg;
        *travel += leg;
        if (arrival > p->w[perm[i]].latest) *late += arrival - p->w[perm[i]].latest;
        time = (arrival > p->w[perm[i]].earliest ? arrival : p->w[perm[i]].earliest) + p->service[perm[i]];
        prev = node;
    }
    if (end == 0 && p->n > 0) {
        *travel += p->t[prev * size];
        time += p->t[prev * size];
    }
    if (time > p->return_by) *late += time - p->return_by;
}

static int next_permutation(int *perm, int n)
{
    int i = n - 2, j, t;
    while (i >= 0 && perm[i] > perm[i + 1]) i--;
    if (i < 0) return 0;
    j = n - 1;
    while (perm[j] < perm[i]) j--;
    t = perm[i]; perm[i] = perm[j]; perm[j] = t;
    for (j = i + 1, t = n - 1; j < t; j++, t--) { int u = perm[j]; perm[j] = perm[t]; perm[t] = u; }
    return 1;
}

/* The best (lateness, travel) over every order, lateness first. */
static void brute_force(const problem *p, int end, double *late, double *travel)
{
    int perm[9];
    for (int i = 0; i < p->n; i++) perm[i] = i;
    *late = INFINITY;
    *travel = INFINITY;
    do {
        double l, c;
        if (end == 2 && p->n > 0 && perm[p->n - 1] != p->n - 1) continue;
        evaluate(p, perm, end, &l, &c);
        if (l < *late - 1e-9 || (fabs(l - *late) <= 1e-9 && c < *travel)) {
            *late = l;
            *travel = c;
        }
    } while (next_permutation(perm, p->n));
}

static unsigned rnd(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return (*seed >> 8) & 0xFFFFFF;
}

static void make_problem(problem *p, int n, unsigned *seed, int tightness)
{
    int size = n + 1;
    double x[10], y[10];
    p->n = n;
    for (int i = 0; i < size; i++) { x[i] = rnd(seed) % 1000 / 10.0; y[i] = rnd(seed) % 1000 / 10.0; }
    for (int i = 0; i < size; i++)
        for (int j = 0; j < size; j++) {
            double d = hypot(x[i] - x[j], y[i] - y[j]);
            /* One-way streets now and then. */
            p->t[i * size + j] = i == j ? 0 : d + ((rnd(seed) % 4 == 0) ? rnd(seed) % 20 : 0);
        }
    p->departure = 100;
    p->return_by = tightness == 3 ? 500 : INFINITY;
    for (int i = 0; i < n; i++) {
        double open = 100 + rnd(seed) % 600, width = tightness == 0 ? 1e6 : 30 + rnd(seed) % (tightness == 1 ? 300 : 80);
        p->w[i].earliest = rnd(seed) % 5 == 0 ? -INFINITY : open;
        p->w[i].latest = rnd(seed) % 7 == 0 ? INFINITY : open + width;
        p->service[i] = rnd(seed) % 15;
    }
}

static void check_schedule(const problem *p, int end, const size_t *order, const geoloc_stop_visit *v,
                           const geoloc_schedule_result *r)
{
    int perm[9], ok = 1;
    double late, travel;
    for (int i = 0; i < p->n; i++) perm[i] = (int)order[i];
    CHECK(is_permutation(order, (size_t)p->n));
    evaluate(p, perm, end, &late, &travel);
    CHECK(fabs(late - r->lateness) <= 1e-6 && fabs(travel - r->travel) <= 1e-6);
    CHECK((r->lateness == 0) == r->feasible);
    for (int i = 0; i < p->n; i++) {
        if (v[i].stop != order[i] || v[i].departure < v[i].arrival + v[i].wait - 1e-9 || v[i].wait < 0) ok = 0;
        if (v[i].lateness > 0 && v[i].arrival <= p->w[order[i]].latest) ok = 0;
    }
    CHECK(ok);
}

static void test_windows_against_every_order(void)
{
    unsigned seed = 2026;
    int exact_hits = 0, cases = 0, infeasible = 0, late_matches = 0;
    for (int n = 0; n <= 9; n++) {
        for (int rep = 0; rep < (n <= 6 ? 6 : 3); rep++) {
            problem p;
            make_problem(&p, n, &seed, rep % 4);
            for (int end = 0; end < (n ? 3 : 2); end++) {
                size_t order[9], needed;
                geoloc_stop_visit v[9];
                double legs[10];
                geoloc_schedule_result r;
                double late, travel;
                geoloc_status s;
                brute_force(&p, end, &late, &travel);
                s = geoloc_best_order_windows(p.t, (size_t)n + 1, (size_t)n + 1, p.w, p.service, p.departure,
                                              p.return_by, (geoloc_route_end)end, (size_t)n - 1, NULL, order, v, 9,
                                              legs, 10, &needed, &r);
                cases++;
                if (late <= 1e-9) {
                    /* Feasible: OK, proven optimal, at the brute force's travel. */
                    CHECK(s == GEOLOC_OK);
                    if (!CHECK(r.feasible && r.proven_optimal && fabs(r.travel - travel) <= 1e-6))
                        printf("    n %d end %d tightness %d: feasible %d proven %d travel %.6f, brute force %.6f\n", n, end,
                               rep % 4, r.feasible, r.proven_optimal, r.travel, travel);
                    if (r.proven_optimal && fabs(r.travel - travel) <= 1e-6) exact_hits++;
                } else {
                    /* No order meets every window: the soft status, never a silent violation. */
                    infeasible++;
                    CHECK(s == GEOLOC_E_WINDOWS_MISSED);
                    CHECK(!r.feasible && r.missed > 0 && r.lateness >= late - 1e-6);
                    if (fabs(r.lateness - late) <= 1e-6) late_matches++;
                }
                check_schedule(&p, end, order, v, &r);
                CHECK(needed == (size_t)(n == 0 ? 0 : (end == 0 ? n + 1 : n)));
            }
        }
    }
    printf("  windows: %d cases, %d proven optimal and equal to the brute force, %d infeasible "
           "(%d at the least lateness)\n", cases, exact_hits, infeasible, late_matches);
    CHECK(late_matches == infeasible);
}

static void test_windows_coords_and_errors(void)
{
    geoloc_coord home = {38.321991, -88.8674};
    geoloc_coord stops[3] = {{38.525050, -89.133404}, {37.730604, -88.933138}, {38.626995, -88.945610}};
    geoloc_time_window w[3] = {{-INFINITY, INFINITY}, {36000, 39600}, {-INFINITY, INFINITY}};
    double service[3] = {600, 900, 300}, t[16] = {0};
    size_t order[3], needed;
    geoloc_stop_visit v[3];
    geoloc_schedule_result r;
    /* 25 m/s, leaving at 8:00: the stop open 10:00-11:00 is met (after a wait if need be). */
    CHECK_OK(geoloc_best_order_windows_coords(home, stops, 3, 25, GEOLOC_MODEL_SPHERE, w, service, 28800, INFINITY,
                                              GEOLOC_ROUTE_END_HOME, 0, NULL, order, v, 3, NULL, 0, &needed, &r));
    CHECK(r.feasible && r.proven_optimal && is_permutation(order, 3));
    for (int i = 0; i < 3; i++)
        if (order[i] == 1) CHECK(v[i].arrival <= 39600 && v[i].arrival + v[i].wait >= 36000);
    /* The bad inputs. */
    w[1].latest = 1000;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_best_order_windows_coords(home, stops, 3, 25, GEOLOC_MODEL_SPHERE, w,
                                                                       service, 0, INFINITY, GEOLOC_ROUTE_END_HOME,
                                                                       0, NULL, order, v, 3, NULL, 0, &needed, &r));
    w[1].latest = NAN;
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_best_order_windows_coords(home, stops, 3, 25, GEOLOC_MODEL_SPHERE, w,
                                                                     service, 0, INFINITY, GEOLOC_ROUTE_END_HOME,
                                                                     0, NULL, order, v, 3, NULL, 0, &needed, &r));
    w[1].latest = 39600;
    service[0] = -1;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_best_order_windows_coords(home, stops, 3, 25, GEOLOC_MODEL_SPHERE, w,
                                                                       service, 0, INFINITY, GEOLOC_ROUTE_END_HOME,
                                                                       0, NULL, order, v, 3, NULL, 0, &needed, &r));
    service[0] = 0;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_best_order_windows_coords(home, stops, 3, 0, GEOLOC_MODEL_SPHERE, w,
                                                                       service, 0, INFINITY, GEOLOC_ROUTE_END_HOME,
                                                                       0, NULL, order, v, 3, NULL, 0, &needed, &r));
    CHECK_ERR(GEOLOC_E_NOT_FINITE, geoloc_best_order_windows_coords(home, stops, 3, 25, GEOLOC_MODEL_SPHERE, w,
                                                                     service, INFINITY, INFINITY,
                                                                     GEOLOC_ROUTE_END_HOME, 0, NULL, order, v, 3,
                                                                     NULL, 0, &needed, &r));
    CHECK_ERR(GEOLOC_E_NULL_ARGUMENT, geoloc_best_order_windows_coords(home, stops, 3, 25, GEOLOC_MODEL_SPHERE, w,
                                                                        service, 0, INFINITY,
                                                                        GEOLOC_ROUTE_END_HOME, 0, NULL, order, v, 3,
                                                                        NULL, 0, NULL, &r));
    CHECK_ERR(GEOLOC_E_BUFFER_TOO_SMALL, geoloc_best_order_windows_coords(home, stops, 3, 25, GEOLOC_MODEL_SPHERE,
                                                                           w, service, 0, INFINITY,
                                                                           GEOLOC_ROUTE_END_HOME, 0, NULL, order, v,
                                                                           2, NULL, 0, &needed, &r));
    /* A matrix of 1e308 travel times is refused with the bound (issue 21's rule, here too). */
    for (int i = 0; i < 16; i++) t[i] = i % 5 == 0 ? 0 : 1e308;
    CHECK_ERR(GEOLOC_E_OUT_OF_RANGE, geoloc_best_order_windows(t, 4, 4, NULL, NULL, 0, INFINITY,
                                                                GEOLOC_ROUTE_END_HOME, 0, NULL, order, v, 3, NULL, 0,
                                                                &needed, &r));
    CHECK(strstr(geoloc_last_error(), "1e+300") != NULL);
    /* An impossible deadline: the soft status, the result written. */
    for (int i = 0; i < 16; i++) t[i] = i % 5 == 0 ? 0 : 10;
    CHECK(geoloc_best_order_windows(t, 4, 4, NULL, NULL, 0, 5, GEOLOC_ROUTE_END_HOME, 0, NULL, order, v, 3, NULL, 0,
                                    &needed, &r) == GEOLOC_E_WINDOWS_MISSED);
    CHECK(!r.feasible && r.missed == 1 && fabs(r.lateness - 35) < 1e-9 && is_permutation(order, 3));
    CHECK(strcmp(geoloc_status_string(GEOLOC_E_WINDOWS_MISSED), "unknown status") != 0);
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    test_issue21_huge_costs_refused_with_the_bound();
    test_issue21_time_limit_alone_runs_until_that_time();
    test_issue21_tiny_time_limit_counts_from_the_call();
    test_windows_against_every_order();
    test_windows_coords_and_errors();
    return check_summary("test_route_windows");
}
