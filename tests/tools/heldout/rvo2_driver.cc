// RVO2 on a held-out layout, as RVO2's examples drive it: each step the preferred velocity points
// at the goal at max speed, shortened to reach it in one step, perturbed by up to 1e-4 m/s (seeded).
// Usage: rvo2_driver LAYOUT.txt SEED   (prints one measurement line)
#include <cmath>
#include <cstdint>
#include <vector>

#include "RVO.h"
#include "measure.h"

static uint64_t state;
static double uniform() {  // splitmix64
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: rvo2_driver LAYOUT.txt SEED\n");
        return 2;
    }
    hl_layout L;
    hl_read_layout(argv[1], &L);
    int seed = atoi(argv[2]);
    state = (uint64_t)seed * 0x2545F4914F6CDD1Dull;
    RVO::RVOSimulator sim;
    sim.setTimeStep((float)L.dt);
    for (int i = 0; i < L.n; i++) {
        const hl_agent &a = L.a[i];
        sim.addAgent(RVO::Vector2((float)a.x, (float)a.y), (float)L.neighbour_dist, (std::size_t)L.max_neighbours,
                     (float)L.time_horizon, (float)L.obstacle_time_horizon, (float)a.r, (float)a.speed);
    }
    for (int k = 0; k < L.np; k++) {
        std::vector<RVO::Vector2> v;
        for (int j = 0; j < L.p[k].n; j++)
            v.push_back(RVO::Vector2((float)L.p[k].v[2 * j], (float)L.p[k].v[2 * j + 1]));
        sim.addObstacle(v);
    }
    sim.processObstacles();
    hl_measure m;
    hl_measure_init(&m, &L);
    std::vector<double> xy(2 * (size_t)L.n);
    const long steps = lround(L.time_limit / L.dt);
    const float dt = (float)L.dt;
    for (long k = 0; k <= steps; k++) {
        if (k > 0) {
            for (int i = 0; i < L.n; i++) {
                RVO::Vector2 to = RVO::Vector2((float)L.a[i].gx, (float)L.a[i].gy) - sim.getAgentPosition(i);
                float dist = RVO::abs(to), speed = (float)L.a[i].speed;
                RVO::Vector2 pref(0.0F, 0.0F);
                if (dist > 0.0F) pref = dist < speed * dt ? to / dt : to * (speed / dist);
                double angle = uniform() * 2.0 * M_PI, len = uniform() * 1e-4;
                pref = pref + RVO::Vector2((float)(len * std::cos(angle)), (float)(len * std::sin(angle)));
                sim.setAgentPrefVelocity(i, pref);
            }
            sim.doStep();
        }
        for (int i = 0; i < L.n; i++) {
            xy[2 * i] = sim.getAgentPosition(i).x();
            xy[2 * i + 1] = sim.getAgentPosition(i).y();
        }
        hl_measure_step(&m, (double)k * L.dt, xy.data());
    }
    hl_measure_print(&m, stdout, "rvo2", "-", seed);
    return 0;
}
