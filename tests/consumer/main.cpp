// A C++ consumer of the installed library: the public headers compile as
// C++ (no compound literals) and link as C. Pursue a wandering agent.
#include <cstdio>

#include <steer/steer.h>

int main()
{
    steer_world_def wd = steer_default_world_def();
    steer_world *w = steer_world_create(&wd);
    steer_behaviour_def wander_def = steer_default_behaviour_def(STEER_WANDER);
    steer_behaviour *wander = steer_behaviour_create(&wander_def);
    steer_agent_def ad = steer_default_agent_def();
    ad.state.position = steer_v2(10.0f, 0.0f);
    ad.behaviour = wander;
    steer_agent_id prey = steer_agent_create(w, &ad);

    steer_behaviour_def pursue_def = steer_default_behaviour_def(STEER_PURSUE);
    pursue_def.target.kind = STEER_TARGET_AGENT;
    pursue_def.target.agent = prey;
    steer_behaviour *pursue = steer_behaviour_create(&pursue_def);
    steer_agent_def hd = steer_default_agent_def();
    hd.limits.max_speed = 8.0f;
    hd.behaviour = pursue;
    steer_agent_id hunter = steer_agent_create(w, &hd);
    steer_behaviour_release(wander);
    steer_behaviour_release(pursue);

    float start = steer_distance(steer_agent_get_position(w, hunter), steer_agent_get_position(w, prey));
    for (int i = 0; i < 120; ++i) steer_world_step(w, 1.0f / 60.0f);
    float end = steer_distance(steer_agent_get_position(w, hunter), steer_agent_get_position(w, prey));
    steer_vec2 h = steer_heading(steer_agent_get_orientation(w, hunter));
    std::printf("consumer_cpp: distance %.3f -> %.3f, heading (%.3f, %.3f), %s\n", (double)start, (double)end,
                (double)h.x, (double)h.y, steer_behaviour_type_name(STEER_PURSUE));
    bool ok = end < start && steer_clamp_length(steer_v2(3.0f, 4.0f), 1.0f).x > 0.59f;
    steer_world_destroy(w);
    return ok ? 0 : 1;
}
