/* The held-out comparison's one measurement, shared by both drivers (C11 and C++).
 * Every step: home (the centre once within the agent's goal radius), last arrival, contact
 * episodes (a pair starting to overlap by more than 1 mm, all pairs through a uniform grid),
 * the deepest body-body and body-polygon overlaps. Header-only: include it once per program. */
#ifndef HELDOUT_MEASURE_H
#define HELDOUT_MEASURE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HL_MAX_POLY_POINTS 16

typedef struct { double x, y, gx, gy, r, speed, goal_r; } hl_agent;
typedef struct { int n; double v[2 * HL_MAX_POLY_POINTS]; } hl_poly;
typedef struct {
    char name[64];
    double dt, time_limit, neighbour_dist, time_horizon, obstacle_time_horizon;
    int max_neighbours, n, np;
    hl_agent *a;
    hl_poly *p;
} hl_layout;

static void hl_fail(const char *what, const char *path) {
    fprintf(stderr, "heldout: %s: %s\n", path, what);
    exit(2);
}

static void hl_expect(FILE *f, const char *word, const char *path) {
    char buf[64];
    if (fscanf(f, "%63s", buf) != 1 || strcmp(buf, word) != 0) hl_fail(word, path);
}

static void hl_read_layout(const char *path, hl_layout *L) {
    FILE *f = fopen(path, "r");
    int version = 0;
    if (!f) hl_fail("cannot open", path);
    memset(L, 0, sizeof *L);
    hl_expect(f, "heldout-layout", path);
    if (fscanf(f, "%d", &version) != 1 || version != 1) hl_fail("version", path);
    hl_expect(f, "name", path);
    if (fscanf(f, "%63s", L->name) != 1) hl_fail("name", path);
    hl_expect(f, "dt", path);
    if (fscanf(f, "%lf", &L->dt) != 1 || !(L->dt > 0)) hl_fail("dt", path);
    hl_expect(f, "time_limit", path);
    if (fscanf(f, "%lf", &L->time_limit) != 1) hl_fail("time_limit", path);
    hl_expect(f, "rvo", path);
    if (fscanf(f, "%lf %d %lf %lf", &L->neighbour_dist, &L->max_neighbours, &L->time_horizon,
               &L->obstacle_time_horizon) != 4) hl_fail("rvo", path);
    hl_expect(f, "agents", path);
    if (fscanf(f, "%d", &L->n) != 1 || L->n <= 0) hl_fail("agents", path);
    L->a = (hl_agent *)calloc((size_t)L->n, sizeof *L->a);
    for (int i = 0; i < L->n; i++) {
        hl_agent *a = &L->a[i];
        if (fscanf(f, "%lf %lf %lf %lf %lf %lf %lf", &a->x, &a->y, &a->gx, &a->gy, &a->r, &a->speed,
                   &a->goal_r) != 7) hl_fail("agent line", path);
    }
    hl_expect(f, "polygons", path);
    if (fscanf(f, "%d", &L->np) != 1 || L->np < 0) hl_fail("polygons", path);
    L->p = (hl_poly *)calloc((size_t)(L->np ? L->np : 1), sizeof *L->p);
    for (int k = 0; k < L->np; k++) {
        hl_poly *p = &L->p[k];
        if (fscanf(f, "%d", &p->n) != 1 || p->n < 3 || p->n > HL_MAX_POLY_POINTS) hl_fail("polygon", path);
        for (int j = 0; j < 2 * p->n; j++)
            if (fscanf(f, "%lf", &p->v[j]) != 1) hl_fail("polygon point", path);
    }
    fclose(f);
}

/* Signed distance from (x, y) to a convex counterclockwise polygon: negative inside. */
static double hl_poly_distance(const hl_poly *p, double x, double y) {
    double best = INFINITY;
    int inside = 1;
    for (int i = 0; i < p->n; i++) {
        int j = (i + 1) % p->n;
        double ax = p->v[2 * i], ay = p->v[2 * i + 1];
        double ex = p->v[2 * j] - ax, ey = p->v[2 * j + 1] - ay;
        double px = x - ax, py = y - ay;
        if (ex * py - ey * px < 0) inside = 0;
        double t = (px * ex + py * ey) / (ex * ex + ey * ey);
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        double dx = px - t * ex, dy = py - t * ey, d = sqrt(dx * dx + dy * dy);
        if (d < best) best = d;
    }
    return inside ? -best : best;
}

typedef struct {
    const hl_layout *L;
    unsigned char *home;
    int home_count;
    double last, deep_body, deep_poly, max_r;
    long contacts, steps;
    uint64_t *prev, *cur;
    size_t nprev, ncur, cap;
    int *order, *cell_of, *cell_start, *fill;
    size_t cells_cap;
} hl_measure;

static void hl_measure_init(hl_measure *m, const hl_layout *L) {
    memset(m, 0, sizeof *m);
    m->L = L;
    m->last = -1;
    m->home = (unsigned char *)calloc((size_t)L->n, 1);
    m->cap = 1024;
    m->prev = (uint64_t *)malloc(m->cap * sizeof(uint64_t));
    m->cur = (uint64_t *)malloc(m->cap * sizeof(uint64_t));
    m->order = (int *)malloc((size_t)L->n * sizeof(int));
    m->cell_of = (int *)malloc((size_t)L->n * sizeof(int));
    for (int i = 0; i < L->n; i++)
        if (L->a[i].r > m->max_r) m->max_r = L->a[i].r;
}

static int hl_cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void hl_push_pair(hl_measure *m, int i, int j) {
    if (m->ncur == m->cap) {
        m->cap *= 2;
        m->cur = (uint64_t *)realloc(m->cur, m->cap * sizeof(uint64_t));
        m->prev = (uint64_t *)realloc(m->prev, m->cap * sizeof(uint64_t));
    }
    int lo = i < j ? i : j, hi = i < j ? j : i;
    m->cur[m->ncur++] = ((uint64_t)lo << 32) | (uint32_t)hi;
}

/* One step's positions (xy[2i], xy[2i+1]) at time t. */
static void hl_measure_step(hl_measure *m, double t, const double *xy) {
    const hl_layout *L = m->L;
    const int n = L->n;
    m->steps++;
    for (int i = 0; i < n; i++) {
        const hl_agent *a = &L->a[i];
        double dx = xy[2 * i] - a->gx, dy = xy[2 * i + 1] - a->gy;
        if (!m->home[i] && dx * dx + dy * dy <= a->goal_r * a->goal_r) {
            m->home[i] = 1;
            m->home_count++;
            m->last = t;
        }
        for (int k = 0; k < L->np; k++) {
            double over = a->r - hl_poly_distance(&L->p[k], xy[2 * i], xy[2 * i + 1]);
            if (over > m->deep_poly) m->deep_poly = over;
        }
    }
    /* uniform grid of cells 2 x the largest radius: counting sort of the agents */
    double cs = 2 * m->max_r + 1e-6, minx = xy[0], miny = xy[1], maxx = xy[0], maxy = xy[1];
    for (int i = 1; i < n; i++) {
        if (xy[2 * i] < minx) minx = xy[2 * i];
        if (xy[2 * i] > maxx) maxx = xy[2 * i];
        if (xy[2 * i + 1] < miny) miny = xy[2 * i + 1];
        if (xy[2 * i + 1] > maxy) maxy = xy[2 * i + 1];
    }
    while (((maxx - minx) / cs + 1) * ((maxy - miny) / cs + 1) > 4.0 * n + 4096) cs *= 2;
    int nx = (int)((maxx - minx) / cs) + 1, ny = (int)((maxy - miny) / cs) + 1;
    size_t cells = (size_t)nx * (size_t)ny;
    if (cells + 1 > m->cells_cap) {
        free(m->cell_start);
        free(m->fill);
        m->cells_cap = cells + 1;
        m->cell_start = (int *)malloc(m->cells_cap * sizeof(int));
        m->fill = (int *)malloc(m->cells_cap * sizeof(int));
    }
    memset(m->cell_start, 0, (cells + 1) * sizeof(int));
    for (int i = 0; i < n; i++) {
        int cx = (int)((xy[2 * i] - minx) / cs), cy = (int)((xy[2 * i + 1] - miny) / cs);
        m->cell_of[i] = cy * nx + cx;
        m->cell_start[m->cell_of[i] + 1]++;
    }
    for (size_t c = 0; c < cells; c++) m->cell_start[c + 1] += m->cell_start[c];
    memcpy(m->fill, m->cell_start, cells * sizeof(int));
    for (int i = 0; i < n; i++) m->order[m->fill[m->cell_of[i]]++] = i;
    m->ncur = 0;
    for (int i = 0; i < n; i++) {
        int cx = m->cell_of[i] % nx, cy = m->cell_of[i] / nx;
        for (int oy = -1; oy <= 1; oy++) {
            for (int ox = -1; ox <= 1; ox++) {
                int x = cx + ox, y = cy + oy;
                if (x < 0 || y < 0 || x >= nx || y >= ny) continue;
                int c = y * nx + x;
                for (int s = m->cell_start[c]; s < m->cell_start[c + 1]; s++) {
                    int j = m->order[s];
                    if (j <= i) continue;
                    double dx = xy[2 * j] - xy[2 * i], dy = xy[2 * j + 1] - xy[2 * i + 1];
                    double over = L->a[i].r + L->a[j].r - sqrt(dx * dx + dy * dy);
                    if (over > m->deep_body) m->deep_body = over;
                    if (over > 1e-3) hl_push_pair(m, i, j);
                }
            }
        }
    }
    qsort(m->cur, m->ncur, sizeof(uint64_t), hl_cmp_u64);
    size_t p = 0;
    for (size_t c = 0; c < m->ncur; c++) {
        while (p < m->nprev && m->prev[p] < m->cur[c]) p++;
        if (p == m->nprev || m->prev[p] != m->cur[c]) m->contacts++;
    }
    uint64_t *swap = m->prev;
    m->prev = m->cur;
    m->cur = swap;
    m->nprev = m->ncur;
}

static void hl_measure_print(const hl_measure *m, FILE *out, const char *engine, const char *pref, int seed) {
    char last[32] = "-";
    if (m->last >= 0) snprintf(last, sizeof last, "%.2f", m->last);
    fprintf(out, "engine=%s pref=%s layout=%s seed=%d agents=%d home=%d contacts=%ld body_cm=%.1f poly_cm=%.1f "
            "last=%s steps=%ld\n", engine, pref, m->L->name, seed, m->L->n, m->home_count, m->contacts,
            100 * m->deep_body, 100 * m->deep_poly, last, m->steps);
}

#endif
