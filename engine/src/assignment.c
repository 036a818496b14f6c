// assignment.c: exact minimum-cost assignment of rows (members) to columns
// (slots), the Hungarian method with potentials (Kuhn-Munkres in the
// shortest-augmenting-path form), O(rows^2 * cols). The notes call slot
// assignment an NP-complete optimisation; with one member per slot and
// costs that add up, it is the linear assignment problem, solved exactly.
#include "core.h"

#include <math.h>

typedef struct assign_scratch {
    double *u, *v, *minv;
    int *p, *way;
    unsigned char *used;
} assign_scratch;

static size_t align8(size_t n) { return (n + 7u) & ~(size_t)7u; }

size_t steer_assignment_scratch_size(int rows, int cols)
{
    size_t r = (size_t)(rows > 0 ? rows : 0) + 1, c = (size_t)(cols > 0 ? cols : 0) + 1;
    return align8(sizeof(double) * r) + 2 * align8(sizeof(double) * c) + 2 * align8(sizeof(int) * c) +
           align8(c);
}

static assign_scratch carve(void *mem, int rows, int cols)
{
    size_t r = (size_t)rows + 1, c = (size_t)cols + 1;
    char *p = mem;
    assign_scratch s;
    s.u = (double *)p, p += align8(sizeof(double) * r);
    s.v = (double *)p, p += align8(sizeof(double) * c);
    s.minv = (double *)p, p += align8(sizeof(double) * c);
    s.p = (int *)p, p += align8(sizeof(int) * c);
    s.way = (int *)p, p += align8(sizeof(int) * c);
    s.used = (unsigned char *)p;
    return s;
}

double steer_assign_optimal(const float *cost, int rows, int cols, int *row_to_col, void *scratch)
{
    if (!STEER_CHECK(cost != NULL || rows == 0)) return 0.0;
    if (!STEER_CHECK(rows >= 0 && rows <= cols && (rows == 0 || row_to_col != NULL))) return 0.0;
    if (rows == 0) return 0.0;
    void *owned = NULL;
    if (scratch == NULL) {
        scratch = owned = steer__alloc(steer_assignment_scratch_size(rows, cols));
        if (scratch == NULL) {
            for (int i = 0; i < rows; ++i) row_to_col[i] = -1;
            return 0.0;
        }
    }
    // Forbidden pairs (INFINITY) cost more than every allowed assignment
    // together: the optimum first uses as few of them as it can, then
    // minimises the allowed cost. In double, so the sum stays exact enough.
    double biggest = 0.0;
    for (int k = 0; k < rows * cols; ++k) {
        if (isfinite(cost[k]) && fabs(cost[k]) > biggest) biggest = fabs(cost[k]);
    }
    const double forbidden = (biggest + 1.0) * 4.0 * (double)(rows + 1);
    assign_scratch s = carve(scratch, rows, cols);
    for (int i = 0; i <= rows; ++i) s.u[i] = 0.0;
    for (int j = 0; j <= cols; ++j) {
        s.v[j] = 0.0;
        s.p[j] = 0;
        s.way[j] = 0;
    }
    // rows are 1-based below; column 0 is the virtual start of each search
    for (int i = 1; i <= rows; ++i) {
        s.p[0] = i;
        int j0 = 0;
        for (int j = 0; j <= cols; ++j) {
            s.minv[j] = INFINITY;
            s.used[j] = 0;
        }
        do {
            s.used[j0] = 1;
            int i0 = s.p[j0], j1 = 0;
            double delta = INFINITY;
            const float *row = cost + (size_t)(i0 - 1) * (size_t)cols;
            // lowest column first, strict <: ties resolve the same way every time
            for (int j = 1; j <= cols; ++j) {
                if (s.used[j]) continue;
                double c = isfinite(row[j - 1]) ? (double)row[j - 1] : forbidden;
                double cur = c - s.u[i0] - s.v[j];
                if (cur < s.minv[j]) {
                    s.minv[j] = cur;
                    s.way[j] = j0;
                }
                if (s.minv[j] < delta) {
                    delta = s.minv[j];
                    j1 = j;
                }
            }
            for (int j = 0; j <= cols; ++j) {
                if (s.used[j]) {
                    s.u[s.p[j]] += delta;
                    s.v[j] -= delta;
                } else {
                    s.minv[j] -= delta;
                }
            }
            j0 = j1;
        } while (s.p[j0] != 0);
        // augment along the path found
        do {
            int j1 = s.way[j0];
            s.p[j0] = s.p[j1];
            j0 = j1;
        } while (j0 != 0);
    }
    double total = 0.0;
    for (int i = 0; i < rows; ++i) row_to_col[i] = -1;
    for (int j = 1; j <= cols; ++j) {
        int i = s.p[j];
        if (i == 0) continue;
        float c = cost[(size_t)(i - 1) * (size_t)cols + (size_t)(j - 1)];
        if (!isfinite(c)) continue; // only forbidden columns were left for this row
        row_to_col[i - 1] = j - 1;
        total += c;
    }
    steer__free(owned);
    return total;
}
