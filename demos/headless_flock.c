// steer-flock: a headless flock (until the SDL2 viewer exists). 200 boids
// flock around a wandering leader they pursue; prints what happened.
#include <stdio.h>

#include "steer/steer.h"

int main(void)
{
    steer_world_def wd = steer_default_world_def();
    wd.seed = 7;
    wd.cell_size = 8.0f;
    steer_world *w = steer_world_create(&wd);

    steer_behaviour_def wander_def = steer_default_behaviour_def(STEER_WANDER);
    steer_behaviour *wander = steer_behaviour_create(&wander_def);
    steer_agent_def ld = steer_default_agent_def();
    ld.limits.max_speed = 3.0f;
    ld.behaviour = wander;
    steer_agent_id leader = steer_agent_create(w, &ld);

    steer_behaviour_def sep = steer_default_behaviour_def(STEER_SEPARATION);
    steer_behaviour_def coh = steer_default_behaviour_def(STEER_COHESION);
    steer_behaviour_def ali = steer_default_behaviour_def(STEER_ALIGNMENT);
    steer_behaviour_def pur = steer_default_behaviour_def(STEER_PURSUE);
    pur.target = (steer_target){.kind = STEER_TARGET_AGENT, .agent = leader};
    steer_behaviour_def lwyg = steer_default_behaviour_def(STEER_LOOK_WHERE_YOU_ARE_GOING);
    steer_child parts[5] = {
        {steer_behaviour_create(&sep), 3.0f}, {steer_behaviour_create(&coh), 1.0f},
        {steer_behaviour_create(&ali), 1.0f}, {steer_behaviour_create(&pur), 0.5f},
        {steer_behaviour_create(&lwyg), 1.0f},
    };
    steer_behaviour_def bd = steer_default_behaviour_def(STEER_BLEND);
    bd.children = parts;
    bd.child_count = 5;
    steer_behaviour *boid = steer_behaviour_create(&bd);
    for (int i = 0; i < 5; ++i) steer_behaviour_release(parts[i].behaviour);

    steer_agent_def d = steer_default_agent_def();
    d.behaviour = boid;
    for (int i = 0; i < 200; ++i) {
        d.state.position = steer_v2((float)(i % 20) * 1.5f - 15.0f, (float)(i / 20) * 1.5f - 25.0f);
        steer_agent_create(w, &d);
    }
    printf("steer-flock: 200 boids pursue a wandering leader (10 s at 60 Hz)\n");
    for (int s = 0; s <= 600; ++s) {
        if (s % 120 == 0) {
            // centre of the flock, its spread and mean speed
            int n = steer_world_agent_count(w);
            steer_vec2 c = {0, 0};
            float speed = 0.0f, spread = 0.0f;
            for (int i = 1; i < n; ++i) {
                steer_kinematic k = steer_agent_get_state(w, steer_world_agent_at(w, i));
                c = steer_add(c, k.position);
                speed += steer_length(k.velocity);
            }
            c = steer_scale(c, 1.0f / (float)(n - 1));
            for (int i = 1; i < n; ++i) spread += steer_distance(steer_agent_get_position(w, steer_world_agent_at(w, i)), c);
            steer_vec2 lp = steer_agent_get_position(w, leader);
            printf("t=%4.1fs leader=(%6.2f,%6.2f) flock centre=(%6.2f,%6.2f) mean spread=%5.2f m mean speed=%4.2f m/s\n",
                   (double)s / 60.0, (double)lp.x, (double)lp.y, (double)c.x, (double)c.y,
                   (double)(spread / (float)(n - 1)), (double)(speed / (float)(n - 1)));
        }
        steer_world_step(w, 1.0f / 60.0f);
    }
    printf("world hash after 601 steps: %016llx\n", (unsigned long long)steer_world_hash(w));
    steer_behaviour_release(boid);
    steer_behaviour_release(wander);
    steer_world_destroy(w);
    return 0;
}
