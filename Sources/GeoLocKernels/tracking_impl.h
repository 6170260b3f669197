/*
 * tracking_impl.h -- one instance of the farthest-point scan, included by tracking.c once per
 * instruction set with KSUF(name), KTARGET and KW (lanes) defined (and #undefs them at its end).
 *
 * For the points i in [a, b) (unit vectors in xs, ys, zs), with the arc's frame
 * frame = {A, B, n, ta, tb} (15 doubles: the ends, the unit normal, the tangents at A and back at
 * B): points with P.ta >= 0 and P.tb >= 0 project inside the arc and are measured by s^2 = (P.n)^2,
 * the others by the squared chord to the nearer end. best[0], at[0] is the largest s^2 and its
 * point, best[1], at[1] the largest chord^2 (-1 and SIZE_MAX when none); ties keep the first point.
 */

#include "lanes_impl.h"

KTARGET static void KSUF(glk_dp_farthest)(const double *xs, const double *ys, const double *zs, size_t a, size_t b,
                                           const double *f, double *best, size_t *at)
{
    const double Ax = f[0], Ay = f[1], Az = f[2], Bx = f[3], By = f[4], Bz = f[5];
    const double nx = f[6], ny = f[7], nz = f[8];
    const double tax = f[9], tay = f[10], taz = f[11], tbx = f[12], tby = f[13], tbz = f[14];
    KV minus = (KV){0} - 1.0;
    KV bs = minus, bc = minus, bsi = minus, bci = minus, idx;
    for (int j = 0; j < KW; j++) idx[j] = (double)(a + (size_t)j);
    size_t i = a;
    for (; i + KW <= b; i += KW) {
        KV px, py, pz;
        memcpy(&px, xs + i, sizeof px);
        memcpy(&py, ys + i, sizeof py);
        memcpy(&pz, zs + i, sizeof pz);
        KV fa = px * tax + py * tay + pz * taz;
        KV fb = px * tbx + py * tby + pz * tbz;
        KV s = px * nx + py * ny + pz * nz;
        KM inside = (fa >= 0) & (fb >= 0);
        KV s2 = KSUF(sel)(inside, s * s, minus);
        KV dax = px - Ax, day = py - Ay, daz = pz - Az;
        KV dbx = px - Bx, dby = py - By, dbz = pz - Bz;
        KV ca = dax * dax + day * day + daz * daz, cb = dbx * dbx + dby * dby + dbz * dbz;
        KV c2 = KSUF(sel)(inside, minus, KSUF(sel)(ca < cb, ca, cb));
        KM ms = s2 > bs, mc = c2 > bc;
        bs = KSUF(sel)(ms, s2, bs);
        bsi = KSUF(sel)(ms, idx, bsi);
        bc = KSUF(sel)(mc, c2, bc);
        bci = KSUF(sel)(mc, idx, bci);
        idx = idx + (double)KW;
    }
    double s2best = -1, c2best = -1;
    size_t s2at = (size_t)-1, c2at = (size_t)-1;
    for (int j = 0; j < KW; j++) {
        if (bs[j] > s2best || (bs[j] == s2best && bs[j] >= 0 && (size_t)bsi[j] < s2at)) { s2best = bs[j]; s2at = (size_t)bsi[j]; }
        if (bc[j] > c2best || (bc[j] == c2best && bc[j] >= 0 && (size_t)bci[j] < c2at)) { c2best = bc[j]; c2at = (size_t)bci[j]; }
    }
    for (; i < b; i++) {
        double px = xs[i], py = ys[i], pz = zs[i];
        double fa = px * tax + py * tay + pz * taz, fb = px * tbx + py * tby + pz * tbz;
        if (fa >= 0 && fb >= 0) {
            double s = px * nx + py * ny + pz * nz;
            if (s * s > s2best) { s2best = s * s; s2at = i; }
        } else {
            double dax = px - Ax, day = py - Ay, daz = pz - Az, dbx = px - Bx, dby = py - By, dbz = pz - Bz;
            double ca = dax * dax + day * day + daz * daz, cb = dbx * dbx + dby * dby + dbz * dbz;
            double c2 = ca < cb ? ca : cb;
            if (c2 > c2best) { c2best = c2; c2at = i; }
        }
    }
    best[0] = s2best;
    at[0] = s2at;
    best[1] = c2best;
    at[1] = c2at;
}

/* The whole Douglas-Peucker over the n unit vectors: keep[0] = keep[n - 1] = 1 and keep[i] = 1 for
 * every point the recursion keeps at the threshold g_tol on 1 - cos(angle); the same recursion
 * as Track.simplify's Swift loop. `stack` has room for 2 * n entries. Returns the
 * number kept. */
KTARGET static size_t KSUF(glk_dp_run)(const double *xs, const double *ys, const double *zs, size_t n, double g_tol,
                                      unsigned char *keep, size_t *stack)
{
    size_t top = 0, kept = 2;
    keep[0] = keep[n - 1] = 1;
    stack[top++] = 0;
    stack[top++] = n - 1;
    while (top > 0) {
        size_t b = stack[--top], a = stack[--top];
        if (b - a < 2) continue;
        double A[3] = {xs[a], ys[a], zs[a]}, B[3] = {xs[b], ys[b], zs[b]};
        double nx = A[1] * B[2] - A[2] * B[1], ny = A[2] * B[0] - A[0] * B[2], nz = A[0] * B[1] - A[1] * B[0];
        double len = __builtin_sqrt(nx * nx + ny * ny + nz * nz);
        double best[2] = {-1, -1};
        size_t at[2] = {(size_t)-1, (size_t)-1};
        if (len > 1e-15) {
            nx /= len; ny /= len; nz /= len;
            double f[15] = {A[0], A[1], A[2], B[0], B[1], B[2], nx, ny, nz,
                            ny * A[2] - nz * A[1], nz * A[0] - nx * A[2], nx * A[1] - ny * A[0],
                            B[1] * nz - B[2] * ny, B[2] * nx - B[0] * nz, B[0] * ny - B[1] * nx};
            KSUF(glk_dp_farthest)(xs, ys, zs, a + 1, b, f, best, at);
        } else {
            for (size_t i = a + 1; i < b; i++) {
                double dx = xs[i] - A[0], dy = ys[i] - A[1], dz = zs[i] - A[2];
                double c2 = dx * dx + dy * dy + dz * dz;
                if (c2 > best[1]) { best[1] = c2; at[1] = i; }
            }
        }
        double gs = best[0] < 0 ? -1 : best[0] / (1 + __builtin_sqrt(1 - (best[0] < 1 ? best[0] : 1)));
        double gc = best[1] < 0 ? -1 : best[1] / 2;
        double g = gs >= gc ? gs : gc;
        size_t i = gs >= gc ? at[0] : at[1];
        if (g > g_tol) {
            keep[i] = 1;
            kept++;
            stack[top++] = i;
            stack[top++] = b;
            stack[top++] = a;
            stack[top++] = i;
        }
    }
    return kept;
}

#undef KV
#undef KM
#undef KSUF
#undef KTARGET
#undef KW
