// Consumer of the installed library: seek a point for a second, print where.
#include <stdio.h>
#include <string.h>

#include <steer/steer.h>

int main(void)
{
    steer_world_def wd = steer_default_world_def();
    steer_world *w = steer_world_create(&wd);
    steer_behaviour_def sd = steer_default_behaviour_def(STEER_SEEK);
    sd.target = (steer_target){.kind = STEER_TARGET_POINT, .point = {10.0f, 0.0f}};
    steer_behaviour *seek = steer_behaviour_create(&sd);
    steer_agent_def ad = steer_default_agent_def();
    ad.behaviour = seek;
    steer_agent_id a = steer_agent_create(w, &ad);
    steer_behaviour_release(seek);
    for (int i = 0; i < 60; ++i) steer_world_step(w, 1.0f / 60.0f);
    steer_vec2 p = steer_agent_get_position(w, a);
    printf("consumer: x=%.3f y=%.3f\n", (double)p.x, (double)p.y);
    // the installed version.h and the installed library are the same version
    printf("consumer: steer %s (headers %s)\n", steer_version(), STEER_VERSION_STRING);
    int ok = p.x > 1.0f && p.y == 0.0f && strcmp(steer_version(), STEER_VERSION_STRING) == 0;
    steer_world_destroy(w);
    return ok ? 0 : 1;
}
