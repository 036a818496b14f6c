// orca_lines.h: the half-planes ORCA's neighbours impose (reciprocal.c):
// agent_line for one neighbour, and steer__orca_agent_lines (orca_lines.c)
// for a list of them, four or eight at a time, with the same bits.
#ifndef STEER_ORCA_LINES_H
#define STEER_ORCA_LINES_H

#include "core.h"
#include "orca_lp.h"

// The half-plane B imposes on A: relative position and velocity (B - A and
// A - B), combined radius, horizon tau, the step dt, A's velocity.
static STEER_ALWAYS_INLINE orca_line agent_line(steer_vec2 rel_pos, steer_vec2 rel_vel, float r, float inv_tau, float inv_dt,
                            steer_vec2 v, float share)
{
    orca_line line;
    steer_vec2 u;
    float dist2 = steer_length_sq(rel_pos), r2 = r * r;
    if (dist2 > r2) {
        // w: from the cut-off disc's centre to the relative velocity
        steer_vec2 w = steer_sub(rel_vel, steer_scale(rel_pos, inv_tau));
        float w2 = steer_length_sq(w), wdot = steer_dot(w, rel_pos);
        if (wdot < 0.0f && wdot * wdot > r2 * w2) {
            // nearest boundary point is on the cut-off disc
            float wl = sqrtf(w2);
            steer_vec2 unit = steer_scale(w, 1.0f / wl);
            line.dir = steer_v2(unit.y, -unit.x);
            u = steer_scale(unit, r * inv_tau - wl);
        } else {
            // on a leg of the cone: the side w lies on
            float leg = sqrtf(dist2 - r2), inv = 1.0f / dist2;
            if (rel_pos.x * w.y - rel_pos.y * w.x > 0.0f) {
                line.dir = steer_v2((rel_pos.x * leg - rel_pos.y * r) * inv, (rel_pos.x * r + rel_pos.y * leg) * inv);
            } else {
                line.dir = steer_v2(-(rel_pos.x * leg + rel_pos.y * r) * inv, -(-rel_pos.x * r + rel_pos.y * leg) * inv);
            }
            u = steer_sub(steer_scale(line.dir, steer_dot(rel_vel, line.dir)), rel_vel);
        }
    } else {
        // already overlapping: separate within this step (the cut-off disc
        // of horizon dt)
        steer_vec2 w = steer_sub(rel_vel, steer_scale(rel_pos, inv_dt));
        float wl = steer_length(w);
        steer_vec2 unit = wl > 0.0f ? steer_scale(w, 1.0f / wl) : steer_v2(0.0f, -1.0f);
        if (wl == 0.0f && dist2 > 0.0f) unit = steer_scale(rel_pos, -1.0f / sqrtf(dist2));
        line.dir = steer_v2(unit.y, -unit.x);
        u = steer_scale(unit, r * inv_dt - wl);
    }
    line.point = steer_mul_add(v, u, share);
    return line;
}

/// What agent_line takes for each of an agent's neighbours, one array a
/// field, with room past the last neighbour for a group of eight.
#define ORCA_PAIRS_ROOM (STEER_MAX_AVOID_NEIGHBOURS + 8)
typedef struct orca_pairs {
    float rx[ORCA_PAIRS_ROOM], ry[ORCA_PAIRS_ROOM]; ///< relative position, B - A
    float vx[ORCA_PAIRS_ROOM], vy[ORCA_PAIRS_ROOM]; ///< relative velocity, A - B
    float r[ORCA_PAIRS_ROOM];                       ///< combined radius
    float share[ORCA_PAIRS_ROOM];                   ///< A's share of the avoidance
} orca_pairs;

/// out[i] = agent_line(pair i, inv_tau, inv_dt, v) for i < k (k at most
/// STEER_MAX_AVOID_NEIGHBOURS): eight at a time with AVX2, four with SSE2,
/// else one by one; the same IEEE operations in the same order on every
/// path, so the same bits (tests/c/test_kernel.c).
void steer__orca_agent_lines(const orca_pairs *in, int k, float inv_tau, float inv_dt, steer_vec2 v, orca_line *out);

/// The widest path used: 2 AVX2, 1 SSE2, 0 one by one (as far as the CPU
/// allows; for tests).
void steer__orca_lines_limit(int level);

#endif
