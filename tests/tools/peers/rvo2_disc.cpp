// tests/tools/peers/rvo2_disc.cpp: RVO2 (github.com/snape/RVO2) on the scene
// of `steer-bench crowd --scene disc`, for a same-run comparison (issue 25).
// The scene: a lattice disc (5 m spacing), radius 1.5, max speed 2, dt 0.25,
// neighbour distance 15, 10 neighbours, both horizons 10 s, the preferred
// velocity the goal vector (minus the start) clipped to 1 m/s, agents at
// rest; times STEPS steps after one warm-up step and SKIP more.
// Not built by CMake: with a checkout of RVO2 at $RVO2 (its src/),
//   g++ -std=c++11 -O2 -DNDEBUG -DRVO_STATIC_DEFINE -I$RVO2/src -o rvo2_disc tests/tools/peers/rvo2_disc.cpp $RVO2/src/*.cc
//   ./rvo2_disc AGENTS STEPS SKIP   (steer: steer-bench crowd --scene disc --agents AGENTS --steps STEPS --skip SKIP)
#include <RVO.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>
static double now(clockid_t c) { timespec t; clock_gettime(c, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 10000, steps = argc > 2 ? atol(argv[2]) : 20, skip = argc > 3 ? atol(argv[3]) : 0;
  const float S = 5.0f;
  RVO::RVOSimulator sim;
  sim.setTimeStep(0.25f);
  sim.setAgentDefaults(15.0f, 10, 10.0f, 10.0f, 1.5f, 2.0f);
  std::vector<RVO::Vector2> goals;
  float disc = S * std::sqrt((float)n / 3.14159265f) + S;
  int half = (int)(disc / S) + 1;
  long made = 0;
  for (float r = 0.0f; made < n && r <= disc; r += S)
    for (int iy = -half; iy <= half && made < n; ++iy)
      for (int ix = -half; ix <= half && made < n; ++ix) {
        RVO::Vector2 p(ix * S, iy * S);
        float len = RVO::abs(p);
        if (len < r || len >= r + S) continue;
        sim.addAgent(p);
        goals.push_back(-p);
        ++made;
      }
  auto pref = [&]() {
    for (size_t i = 0; i < sim.getNumAgents(); ++i) {
      RVO::Vector2 g = goals[i] - sim.getAgentPosition(i);
      if (RVO::absSq(g) > 1.0f) g = RVO::normalize(g);
      sim.setAgentPrefVelocity(i, g);
    }
  };
  pref(); sim.doStep();
  for (long s = 0; s < skip; ++s) { pref(); sim.doStep(); }
  double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
  for (long s = 0; s < steps; ++s) { pref(); sim.doStep(); }
  double t1 = now(CLOCK_MONOTONIC), c1 = now(CLOCK_PROCESS_CPUTIME_ID);
  double sp = 0; for (size_t i = 0; i < sim.getNumAgents(); ++i) sp += RVO::abs(sim.getAgentVelocity(i));
  printf("rvo2 disc agents=%ld skip=%ld steps=%ld ns_per_agent_step=%.1f cpu_ns=%.1f mean_speed=%.3f\n", made, skip, steps,
         (t1 - t0) * 1e9 / (made * steps), (c1 - c0) * 1e9 / (made * steps), sp / made);
}
