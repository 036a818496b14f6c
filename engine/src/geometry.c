// geometry.c: TEMPORARY placeholder until static geometry lands (issue 3).
#include "core.h"

void steer__geometry_destroy(struct steer_geometry *g) { (void)g; }
void steer__resolve_contacts(steer_world *w) { (void)w; }
bool steer__eval_obstacle_avoidance(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    (void)ctx; (void)d; (void)out;
    return false;
}
steer_shape_id steer_world_add_segment(steer_world *w, steer_vec2 a, steer_vec2 b) { (void)w; (void)a; (void)b; return steer_null_shape; }
steer_shape_id steer_world_add_polyline(steer_world *w, const steer_vec2 *p, int n, bool loop) { (void)w; (void)p; (void)n; (void)loop; return steer_null_shape; }
steer_shape_id steer_world_add_circle(steer_world *w, steer_vec2 c, float r) { (void)w; (void)c; (void)r; return steer_null_shape; }
steer_shape_id steer_world_add_box(steer_world *w, steer_vec2 a, steer_vec2 b) { (void)w; (void)a; (void)b; return steer_null_shape; }
steer_shape_id steer_world_add_polygon(steer_world *w, const steer_vec2 *p, int n) { (void)w; (void)p; (void)n; return steer_null_shape; }
void steer_shape_destroy(steer_world *w, steer_shape_id id) { (void)w; (void)id; }
bool steer_shape_is_valid(const steer_world *w, steer_shape_id id) { (void)w; (void)id; return false; }
steer_shape_type steer_shape_get_type(const steer_world *w, steer_shape_id id) { (void)w; (void)id; return STEER_SHAPE_SEGMENT; }
void steer_shape_set_category(steer_world *w, steer_shape_id id, uint32_t c) { (void)w; (void)id; (void)c; }
int steer_world_shape_count(const steer_world *w) { (void)w; return 0; }
bool steer_world_raycast(steer_world *w, steer_vec2 o, steer_vec2 d, float m, const steer_ray_filter *f, steer_ray_hit *h) { (void)w; (void)o; (void)d; (void)m; (void)f; (void)h; return false; }
void steer_world_raycast_all(steer_world *w, steer_vec2 o, steer_vec2 d, float m, const steer_ray_filter *f, steer_ray_fn *fn, void *c) { (void)w; (void)o; (void)d; (void)m; (void)f; (void)fn; (void)c; }
