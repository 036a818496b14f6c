// steer-viewer: an SDL2 window on a script run by the script host
// (steer/host.h). Fixed 60 Hz simulation with an accumulator, batched
// drawing (one SDL_RenderGeometry call per frame for the world), the
// engine's debug draw, hot reload, and Dear ImGui panels (ui.cpp).
//
//   steer-viewer [SCRIPT] [--headless] [--frames N] [--screenshot out.png]
//                [--bench] [--size WxH] [--shot-key-dir DIR] [--poll]
//                [--camera X,Y,ZOOM] [--edit-at FRAME FILE]... [--no-ui]
//                [--debug] [--inspect] [--software] [--paused] [--show-help] [--dump-ui]
//                [--seed K] [--record FILE | --replay FILE]
//
// --seed K seeds the script's world (and math.random) as steer-run --seed
// does (0 by default): a headless run of N frames ends on the world
// steer-run SCRIPT --steps N --seed K ends on, and prints its hash.
// --record FILE writes the run to FILE (docs/embedding.md, "Record and
// replay"); --replay FILE plays a recording back instead of a script, with
// its own input, and pauses at its end or at the first frame that differs.
// --debug starts with the debug layers on; --inspect selects the first
// traced agent (the inspector opens on it); --software asks a window for
// SDL's software renderer; --paused starts paused (space runs);
// --show-help opens the help overlay; --dump-ui (tests) prints the panels'
// lines and widgets in the last frame (with --frames) and the status line.
// --shot-key-dir: the P key writes DIR/shot-NNN.png (the Xvfb test).
// --edit-at (tests of hot reload): at that frame, copy FILE over the script
// and keep running until the watcher has reacted (a reload or an error).
// Headless (--headless, or when no display opens): SDL's offscreen video
// driver (else dummy) and the software renderer; every frame advances
// exactly one simulation step, so a run is deterministic.
#include "viewer.h"

#include <SDL_image.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STEP (1.0f / 60.0f)

/* ---- batch: every triangle of a frame in one vertex array -------------------------- */

typedef struct batch {
    SDL_Vertex *v;
    int count, capacity;
} batch;

static batch B;
static viewer V;
static SDL_Surface *headless_surface; ///< the headless renderer's target
static bool selected_was_traced;      ///< the script traced the selected agent itself
static SDL_Event held_event;          ///< an event left for the next frame (type 0: none)
static long total_steps;              ///< simulation steps run (updates of the host or the replay)

static void batch_reserve(int more)
{
    if (B.count + more <= B.capacity) return;
    int cap = B.capacity ? B.capacity : 4096;
    while (cap < B.count + more) cap *= 2;
    SDL_Vertex *grown = realloc(B.v, sizeof *grown * (size_t)cap);
    if (grown == NULL) {
        fprintf(stderr, "steer-viewer: out of memory\n");
        exit(1);
    }
    B.v = grown;
    B.capacity = cap;
}

#define BG_R 24
#define BG_G 26
#define BG_B 32

// Colours are mixed with the background here and drawn opaque: SDL's
// software renderer fills opaque triangles directly but builds a temporary
// surface for every blended one (ten times slower with 10,000 agents).
static SDL_Color rgba(uint32_t c)
{
    int a = (int)(c & 255u);
    SDL_Color k = {(Uint8)(((int)(c >> 24) * a + BG_R * (255 - a)) / 255),
                   (Uint8)(((int)((c >> 16) & 255u) * a + BG_G * (255 - a)) / 255),
                   (Uint8)(((int)((c >> 8) & 255u) * a + BG_B * (255 - a)) / 255), 255};
    return k;
}

static void tri(float x0, float y0, float x1, float y1, float x2, float y2, SDL_Color c)
{
    batch_reserve(3);
    SDL_Vertex *v = B.v + B.count;
    v[0].position.x = x0, v[0].position.y = y0;
    v[1].position.x = x1, v[1].position.y = y1;
    v[2].position.x = x2, v[2].position.y = y2;
    for (int i = 0; i < 3; ++i) v[i].color = c, v[i].tex_coord.x = v[i].tex_coord.y = 0.0f;
    B.count += 3;
}

// A line as a thin quad (screen pixels).
static void line_px(float x0, float y0, float x1, float y1, float width, SDL_Color c)
{
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    if (len < 1e-3f) return;
    float nx = -dy / len * width * 0.5f, ny = dx / len * width * 0.5f;
    tri(x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, c);
    tri(x0 + nx, y0 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny, c);
}

// World to screen and back with the viewer's camera (y up in the world,
// down on screen).
static void viewer_to_screen(const viewer *v, float x, float y, float *sx, float *sy)
{
    *sx = (float)v->width * 0.5f + (x - v->cam_x) * v->zoom;
    *sy = (float)v->height * 0.5f - (y - v->cam_y) * v->zoom;
}

static void viewer_to_world(const viewer *v, float sx, float sy, float *x, float *y)
{
    *x = v->cam_x + (sx - (float)v->width * 0.5f) / v->zoom;
    *y = v->cam_y - (sy - (float)v->height * 0.5f) / v->zoom;
}

/* ---- debug draw callbacks: the engine reports, the batch draws ------------------------- */

static void w_line(steer_vec2 p, steer_vec2 q, SDL_Color c, float width)
{
    float x0, y0, x1, y1;
    viewer_to_screen(&V, p.x, p.y, &x0, &y0);
    viewer_to_screen(&V, q.x, q.y, &x1, &y1);
    line_px(x0, y0, x1, y1, width, c);
}

static int circle_sides(float r_px) { return r_px < 6.0f ? 8 : (r_px < 40.0f ? 16 : 40); }

static void dd_segment(steer_vec2 p, steer_vec2 q, steer_color c, void *ctx)
{
    (void)ctx;
    w_line(p, q, rgba(c), 1.5f);
}

static void dd_polygon(const steer_vec2 *p, int n, steer_color c, void *ctx)
{
    (void)ctx;
    for (int i = 0; i < n; ++i) w_line(p[i], p[(i + 1) % n], rgba(c), 1.5f);
}

static void dd_solid_polygon(const steer_vec2 *p, int n, steer_color c, void *ctx)
{
    (void)ctx;
    SDL_Color k = rgba((c & 0xffffff00u) | ((c & 255u) / 2));
    float x0, y0, x1, y1, x2, y2;
    viewer_to_screen(&V, p[0].x, p[0].y, &x0, &y0);
    for (int i = 1; i + 1 < n; ++i) {
        viewer_to_screen(&V, p[i].x, p[i].y, &x1, &y1);
        viewer_to_screen(&V, p[i + 1].x, p[i + 1].y, &x2, &y2);
        tri(x0, y0, x1, y1, x2, y2, k);
    }
    dd_polygon(p, n, c, ctx);
}

static void dd_circle(steer_vec2 o, float r, steer_color c, void *ctx)
{
    (void)ctx;
    int n = circle_sides(r * V.zoom);
    steer_vec2 prev = steer_v2(o.x + r, o.y);
    for (int i = 1; i <= n; ++i) {
        float a = 2.0f * STEER_PI * (float)i / (float)n;
        steer_vec2 p = steer_v2(o.x + r * cosf(a), o.y + r * sinf(a));
        w_line(prev, p, rgba(c), 1.5f);
        prev = p;
    }
}

static void dd_solid_circle(steer_vec2 o, float r, float orientation, steer_color c, void *ctx)
{
    (void)orientation;
    int n = circle_sides(r * V.zoom);
    SDL_Color k = rgba((c & 0xffffff00u) | ((c & 255u) / 2));
    float cx, cy;
    viewer_to_screen(&V, o.x, o.y, &cx, &cy);
    float rp = r * V.zoom, px = cx + rp, py = cy;
    for (int i = 1; i <= n; ++i) {
        float a = 2.0f * STEER_PI * (float)i / (float)n;
        float qx = cx + rp * cosf(a), qy = cy - rp * sinf(a);
        tri(cx, cy, px, py, qx, qy, k);
        px = qx, py = qy;
    }
    dd_circle(o, r, c, ctx);
}

static void dd_point(steer_vec2 p, float size, steer_color c, void *ctx)
{
    (void)ctx;
    float x, y, h = size * 0.5f;
    viewer_to_screen(&V, p.x, p.y, &x, &y);
    SDL_Color k = rgba(c);
    tri(x - h, y - h, x + h, y - h, x + h, y + h, k);
    tri(x - h, y - h, x + h, y + h, x - h, y + h, k);
}

static void dd_arrow(steer_vec2 o, steer_vec2 v, steer_color c, void *ctx)
{
    (void)ctx;
    float x0, y0, x1, y1;
    viewer_to_screen(&V, o.x, o.y, &x0, &y0);
    viewer_to_screen(&V, o.x + v.x, o.y + v.y, &x1, &y1);
    SDL_Color k = rgba(c);
    line_px(x0, y0, x1, y1, 2.0f, k);
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    if (len < 4.0f) return;
    dx /= len, dy /= len;
    float s = len < 24.0f ? len * 0.35f : 8.0f;
    tri(x1, y1, x1 - dx * s - dy * s * 0.5f, y1 - dy * s + dx * s * 0.5f, x1 - dx * s + dy * s * 0.5f,
        y1 - dy * s - dx * s * 0.5f, k);
}

/* ---- the world: shapes and paths through the debug draw, agents directly ---------------- */

// The colour of an agent without one of its own: agents of a role share the shape of their behaviour tree
// (a role function builds the same tree for each), so hash the types of the
// root and its children.
static uint32_t role_color(const steer_behaviour *b)
{
    static const uint32_t palette[8] = {0xf2f2f2ffu, 0xffb347ffu, 0x7fd1ffff, 0x9cff8aff,
                                        0xff7f9fffu, 0xd0a0ffffu, 0xffe066ffu, 0x66e0d0ffu};
    if (b == NULL) return 0x909090ffu;
    uint32_t h = 2166136261u ^ (uint32_t)steer_behaviour_get_type(b);
    int n = steer_behaviour_child_count(b);
    for (int i = 0; i < n && i < 8; ++i) {
        h = (h * 16777619u) ^ (uint32_t)steer_behaviour_get_type(steer_behaviour_get_child(b, i).behaviour);
    }
    h = (h * 16777619u) ^ (uint32_t)n;
    return palette[(h >> 7) % 8];
}

static void draw_agents(steer_world *w)
{
    int n = steer_world_agent_count(w);
    batch_reserve(n * 3);
    const steer_behaviour *last_b = NULL;
    uint32_t last_c = 0;
    SDL_Color colour = rgba(0xffffffffu);
    const float half_w = (float)V.width * 0.5f, half_h = (float)V.height * 0.5f;
    for (int i = 0; i < n; ++i) {
        steer_agent_id id = steer_world_agent_at(w, i);
        steer_kinematic s = steer_agent_get_state(w, id);
        float r = steer_agent_get_limits(w, id).radius * V.zoom;
        if (r < 2.5f) r = 2.5f; // zoomed far out: still a visible mark
        float cx = half_w + (s.position.x - V.cam_x) * V.zoom, cy = half_h - (s.position.y - V.cam_y) * V.zoom;
        if (cx < -r || cy < -r || cx > (float)V.width + r || cy > (float)V.height + r) continue;
        // the agent's colour (agent.color, a role's colors entry), else its tree's
        const steer_behaviour *b = steer_agent_get_behaviour(w, id);
        uint32_t own = steer_agent_get_color(w, id);
        if (own != 0) {
            if (own != last_c) colour = rgba(own), last_c = own, last_b = NULL;
        } else if (b != last_b || last_c != 0 || i == 0) {
            last_b = b, last_c = 0;
            colour = rgba(role_color(b));
        }
        // an oriented triangle, the nose along the heading (sin o, cos o);
        // screen y is down
        float c = sinf(s.orientation), sn = -cosf(s.orientation);
        float nx = cx + c * r * 1.4f, ny = cy + sn * r * 1.4f;
        float lx = cx - c * r * 0.9f - sn * r * 0.9f, ly = cy - sn * r * 0.9f + c * r * 0.9f;
        float rx = cx - c * r * 0.9f + sn * r * 0.9f, ry = cy - sn * r * 0.9f - c * r * 0.9f;
        SDL_Vertex *v = B.v + B.count;
        v[0].position.x = nx, v[0].position.y = ny;
        v[1].position.x = lx, v[1].position.y = ly;
        v[2].position.x = rx, v[2].position.y = ry;
        for (int k = 0; k < 3; ++k) v[k].color = colour, v[k].tex_coord.x = v[k].tex_coord.y = 0.0f;
        B.count += 3;
    }
}

static void draw_selection(steer_world *w)
{
    if (!steer_agent_is_valid(w, V.selected)) return;
    steer_vec2 p = steer_agent_get_position(w, V.selected);
    float r = steer_agent_get_limits(w, V.selected).radius;
    dd_circle(p, r * 1.8f + 2.0f / V.zoom, 0xffff00ffu, NULL);
}

static void draw_world(void)
{
    steer_world *w = steer_host_world(V.host);
    B.count = 0;
    steer_debug_draw d = steer_default_debug_draw();
    d.draw_segment = dd_segment;
    d.draw_polygon = dd_polygon;
    d.draw_solid_polygon = dd_solid_polygon;
    d.draw_circle = dd_circle;
    d.draw_solid_circle = dd_solid_circle;
    d.draw_point = dd_point;
    d.draw_arrow = dd_arrow;
    d.flags = STEER_DRAW_SHAPES | STEER_DRAW_PATHS | STEER_DRAW_STUCK;
    if (V.debug)
        d.flags |= STEER_DRAW_VELOCITY | STEER_DRAW_STEERING | STEER_DRAW_TREE | STEER_DRAW_RAYS | STEER_DRAW_MARKS |
                   STEER_DRAW_NAV_MESH | STEER_DRAW_ROUTES | STEER_DRAW_FLOW;
    if (w != NULL) {
        steer_world_draw(w, &d);
        draw_agents(w);
        draw_selection(w);
    }
    SDL_SetRenderDrawColor(V.renderer, BG_R, BG_G, BG_B, 255);
    SDL_RenderClear(V.renderer);
    SDL_SetRenderDrawBlendMode(V.renderer, SDL_BLENDMODE_NONE); // colours are pre-mixed (rgba)
    if (B.count > 0) SDL_RenderGeometry(V.renderer, NULL, B.v, B.count, NULL, 0);
}

/* ---- host, input, status ------------------------------------------------------------- */

static void set_status(const char *text, bool error)
{
    snprintf(V.status, sizeof V.status, "%s", text);
    V.status_error = error;
    V.status_ticks = SDL_GetTicks();
    if (error) snprintf(V.last_error, sizeof V.last_error, "%s", text);
}

void viewer_status_line(const viewer *v, char *out, size_t size)
{
    // the host's reload line names its version already ("... (version 2)")
    if (strstr(v->status, "(version ") != NULL || v->host == NULL) snprintf(out, size, "%s", v->status);
    else snprintf(out, size, "%s (version %d)", v->status, steer_host_version(v->host));
}

static void on_log(void *context, steer_host_log_level level, const char *line)
{
    (void)context;
    static const char *const prefix[] = {"", "steer-viewer: ", "warning: ", "error: "};
    printf("%s%s\n", prefix[level], line);
    fflush(stdout);
    if (level == STEER_HOST_LOG_ERROR) set_status(line, true);
    else if (level == STEER_HOST_LOG_INFO && (strstr(line, "reload") != NULL || strncmp(line, "loaded ", 7) == 0)) {
        // a reload, or a load that worked after a failed first one: the
        // old error no longer holds
        set_status(line, false);
        V.last_error[0] = '\0';
    }
}

/* ---- the script's input: levels and edges from events --------------------------------- */

// The script's key for an SDL scancode, or -1 (keys the host does not name).
static int host_key_of(SDL_Scancode sc)
{
    static const SDL_Scancode named[] = {SDL_SCANCODE_UP, SDL_SCANCODE_DOWN, SDL_SCANCODE_LEFT, SDL_SCANCODE_RIGHT,
                                         SDL_SCANCODE_SPACE, SDL_SCANCODE_RETURN, SDL_SCANCODE_ESCAPE, SDL_SCANCODE_LSHIFT};
    for (int i = 0; i < 8; ++i) {
        if (sc == named[i]) return i;
    }
    if (sc == SDL_SCANCODE_RSHIFT) return STEER_HOST_KEY_SHIFT;
    if (sc >= SDL_SCANCODE_A && sc <= SDL_SCANCODE_Z) return STEER_HOST_KEY_A + (int)(sc - SDL_SCANCODE_A);
    // SDL orders 1..9 then 0
    if (sc >= SDL_SCANCODE_1 && sc <= SDL_SCANCODE_0) return STEER_HOST_KEY_0 + ((int)(sc - SDL_SCANCODE_1) + 1) % 10;
    return -1;
}

// The viewer's own keys (help overlay): they never reach the script.
static bool viewer_key(SDL_Keycode k, bool shots)
{
    switch (k) {
    case SDLK_ESCAPE: case SDLK_SPACE: case SDLK_PERIOD: case SDLK_d: case SDLK_h: case SDLK_r: case SDLK_F5:
    case SDLK_f: case SDLK_c: case SDLK_F6: case SDLK_F9: return true;
    case SDLK_p: return shots; // --shot-key-dir only
    default: return false;
    }
}

static uint32_t button_bit(Uint8 b)
{
    return b == SDL_BUTTON_LEFT ? 1u : b == SDL_BUTTON_RIGHT ? 2u : b == SDL_BUTTON_MIDDLE ? 4u : 0u;
}

// What the script is told: the levels it saw go down (a key or button that
// went to a panel or to the viewer never does), and the edges since the
// last update.
static steer_host_input script_in;

static void input_key(const SDL_KeyboardEvent *e, bool to_script)
{
    int k = host_key_of(e->keysym.scancode);
    if (k < 0) return;
    uint64_t bit = 1ull << k;
    if (e->type == SDL_KEYDOWN) {
        if (!to_script || e->repeat || (script_in.keys & bit)) return;
        script_in.keys |= bit, script_in.keys_pressed |= bit;
    } else if (script_in.keys & bit) { // only the release of a press the script saw
        script_in.keys &= ~bit, script_in.keys_released |= bit;
    }
}

static void input_button(const SDL_MouseButtonEvent *e, bool to_script)
{
    uint32_t bit = button_bit(e->button);
    if (e->type == SDL_MOUSEBUTTONDOWN) {
        if (!to_script || (script_in.buttons & bit)) return;
        script_in.buttons |= bit, script_in.buttons_pressed |= bit;
    } else if (script_in.buttons & bit) {
        script_in.buttons &= ~bit, script_in.buttons_released |= bit;
    }
}

static steer_host_input gather_input(void)
{
    int mx, my;
    SDL_GetMouseState(&mx, &my);
    viewer_to_world(&V, (float)mx, (float)my, &script_in.mouse_x, &script_in.mouse_y);
    return script_in;
}

static void step_once(void)
{
    ++total_steps;
    if (V.replay != NULL) {
        // the recording's input, not the mouse's; the end or a divergence pauses
        int status = steer_replay_step(V.replay);
        if (status == 1) return;
        V.paused = true;
        char msg[sizeof V.status];
        if (status == 0)
            snprintf(msg, sizeof msg, "replay ended after %ld frames, identical", steer_replay_frame(V.replay));
        else
            snprintf(msg, sizeof msg, "replay diverges at frame %ld: %.400s", steer_replay_divergent_frame(V.replay),
                     steer_replay_error(V.replay));
        if (strcmp(msg, V.status) != 0) {
            printf("steer-viewer: %s\n", msg);
            fflush(stdout);
        }
        set_status(msg, status < 0);
        return;
    }
    steer_host_input in = gather_input();
    // the edges went to this update: the next one gets those after it
    script_in.buttons_pressed = script_in.buttons_released = 0;
    script_in.keys_pressed = script_in.keys_released = 0;
    if (steer_host_update(V.host, STEP, &in) != 0) {
        const char *e = steer_host_last_error(V.host);
        if (e != NULL) set_status(e, true);
    }
}

/* ---- camera: fit, follow, the script's requests ---------------------------------------- */

// The bounds of what the world draws (agents with their radius, shapes,
// followed paths), gathered through the debug draw's callbacks.
typedef struct bounds {
    float lx, ly, ux, uy;
} bounds;

static void grow(bounds *b, steer_vec2 p, float r)
{
    b->lx = fminf(b->lx, p.x - r), b->ly = fminf(b->ly, p.y - r);
    b->ux = fmaxf(b->ux, p.x + r), b->uy = fmaxf(b->uy, p.y + r);
}

static void b_segment(steer_vec2 p, steer_vec2 q, steer_color c, void *ctx)
{
    (void)c;
    grow(ctx, p, 0.0f), grow(ctx, q, 0.0f);
}

static void b_polygon(const steer_vec2 *p, int n, steer_color c, void *ctx)
{
    (void)c;
    for (int i = 0; i < n; ++i) grow(ctx, p[i], 0.0f);
}

static void b_circle(steer_vec2 o, float r, steer_color c, void *ctx)
{
    (void)c;
    grow(ctx, o, r);
}

static void b_solid_circle(steer_vec2 o, float r, float orientation, steer_color c, void *ctx)
{
    (void)orientation;
    b_circle(o, r, c, ctx);
}

// Frame everything the world draws (agents, shapes, paths), with a margin;
// 10 px/m around the origin for an empty world.
static void fit_camera(void)
{
    steer_world *w = steer_host_world(V.host);
    V.cam_x = V.cam_y = 0.0f;
    V.zoom = 10.0f;
    if (w == NULL || V.width <= 0 || V.height <= 0) return;
    bounds b = {1e30f, 1e30f, -1e30f, -1e30f};
    steer_debug_draw d = steer_default_debug_draw();
    d.draw_segment = b_segment;
    d.draw_polygon = b_polygon;
    d.draw_solid_polygon = b_polygon;
    d.draw_circle = b_circle;
    d.draw_solid_circle = b_solid_circle;
    d.draw_point = NULL, d.draw_arrow = NULL, d.draw_transform = NULL;
    d.flags = STEER_DRAW_SHAPES | STEER_DRAW_PATHS | STEER_DRAW_AGENTS;
    d.context = &b;
    steer_world_draw(w, &d);
    if (!(b.lx <= b.ux)) return;
    V.cam_x = 0.5f * (b.lx + b.ux), V.cam_y = 0.5f * (b.ly + b.uy);
    // 8% margin on each side, at least 4 m across
    float sx = (float)V.width / fmaxf((b.ux - b.lx) * 1.16f, 4.0f);
    float sy = (float)V.height / fmaxf((b.uy - b.ly) * 1.16f, 4.0f);
    V.zoom = fminf(fmaxf(fminf(sx, sy), 0.05f), 40.0f);
}

// A script's camera{...} (steer_host_def.camera): applied before the next
// draw (the load's fit comes first, so a setup's request wins).
static steer_host_camera camera_request;
static bool camera_requested;

static void on_camera(void *context, const steer_host_camera *c)
{
    (void)context;
    camera_request = *c;
    camera_requested = true;
}

static void apply_camera_request(void)
{
    if (!camera_requested) return;
    camera_requested = false;
    V.follow = false;
    if (camera_request.fit) fit_camera();
    if (camera_request.has_center) V.cam_x = camera_request.x, V.cam_y = camera_request.y;
    if (camera_request.has_zoom) V.zoom = fminf(fmaxf(camera_request.zoom, 0.05f), 400.0f);
    if (camera_request.has_span)
        V.zoom = fminf(fmaxf((float)(V.width < V.height ? V.width : V.height) / camera_request.span, 0.05f), 400.0f);
}

// C: the camera keeps the selected agent at the centre.
static void follow_selected(void)
{
    steer_world *w = steer_host_world(V.host);
    if (!V.follow || w == NULL) return;
    if (!steer_agent_is_valid(w, V.selected)) {
        V.follow = false;
        return;
    }
    steer_vec2 p = steer_agent_get_position(w, V.selected);
    V.cam_x = p.x, V.cam_y = p.y;
}

static void select_at(float sx, float sy)
{
    steer_world *w = steer_host_world(V.host);
    if (w == NULL) return;
    float x, y;
    viewer_to_world(&V, sx, sy, &x, &y);
    steer_agent_id ids[64];
    float radius = fmaxf(8.0f / V.zoom, 1.0f);
    int n = steer_world_query(w, steer_v2(x, y), radius, ids, 64);
    if (n > 64) n = 64;
    steer_agent_id best = steer_null_agent;
    float best_d = 1e30f;
    for (int i = 0; i < n; ++i) {
        steer_vec2 p = steer_agent_get_position(w, ids[i]);
        float d = (p.x - x) * (p.x - x) + (p.y - y) * (p.y - y);
        if (d < best_d) best_d = d, best = ids[i];
    }
    if (steer_agent_id_equal(best, V.selected)) return;
    if (steer_agent_is_valid(w, best)) printf("steer-viewer: selected agent %u\n", best.index);
    else printf("steer-viewer: selection cleared\n");
    fflush(stdout);
    // the previous selection goes back to what the script had asked for
    if (steer_agent_is_valid(w, V.selected) && !selected_was_traced) steer_agent_set_trace(w, V.selected, false);
    V.selected = best;
    // the inspector shows the selected agent's evaluation: trace it
    if (steer_agent_is_valid(w, best)) {
        selected_was_traced = steer_agent_get_trace(w, best);
        steer_agent_set_trace(w, best, true);
    }
}

static bool save_png(const char *path)
{
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, V.width, V.height, 32, SDL_PIXELFORMAT_ABGR8888);
    if (s == NULL) return false;
    bool ok = SDL_RenderReadPixels(V.renderer, NULL, SDL_PIXELFORMAT_ABGR8888, s->pixels, s->pitch) == 0 &&
              IMG_SavePNG(s, path) == 0;
    SDL_FreeSurface(s);
    if (!ok) fprintf(stderr, "steer-viewer: cannot write %s: %s\n", path, SDL_GetError());
    return ok;
}

/* ---- main ----------------------------------------------------------------------------- */

// A viewer key went down (not typed into a panel).
static void viewer_key_down(SDL_Keycode k, bool *running, bool *step_request, const char *shot_dir, bool *shot_request)
{
    switch (k) {
    case SDLK_ESCAPE: *running = false; break;
    case SDLK_SPACE: V.paused = !V.paused; break;
    case SDLK_PERIOD: *step_request = true, V.paused = true; break;
    case SDLK_d: V.debug = !V.debug; break;
    case SDLK_h: V.help = !V.help; break;
    case SDLK_r:
        if (V.replay != NULL) set_status("a replay cannot be reset", true);
        else if (steer_host_reset(V.host) == 0) set_status("reset", false);
        else set_status(steer_host_last_error(V.host), true);
        V.selected = steer_null_agent;
        V.follow = false;
        fit_camera(); // the fresh world's setup (then its camera request, if any)
        break;
    case SDLK_f:
        V.follow = false;
        fit_camera();
        set_status("camera: fit to everything", false);
        break;
    case SDLK_c:
        V.follow = !V.follow && steer_agent_is_valid(steer_host_world(V.host), V.selected);
        set_status(V.follow ? "camera: following the selected agent (C again: stop)"
                            : "camera: select an agent to follow it", false);
        break;
    case SDLK_F5:
        if (V.replay != NULL) set_status("a replay reloads when the recording did", true);
        else if (steer_host_reload(V.host) == 0) {
            set_status("reloaded (F5)", false);
            V.last_error[0] = '\0';
        } else {
            set_status(steer_host_last_error(V.host), true);
        }
        break;
    case SDLK_F6: // quick save: the world and the script's state (issue 26)
        if (steer_host_snapshot(V.host, "quicksave.snap") == 0) set_status("saved quicksave.snap (F6)", false);
        else set_status(steer_host_last_error(V.host), true);
        break;
    case SDLK_F9: // quick load: the script as it is now, from the saved world
        if (V.replay != NULL) set_status("a replay cannot load a snapshot", true);
        else if (steer_host_load_snapshot(V.host, V.script, "quicksave.snap") == 0)
            set_status("loaded quicksave.snap (F9)", false);
        else set_status(steer_host_last_error(V.host), true);
        V.selected = steer_null_agent;
        V.follow = false;
        break;
    case SDLK_p:
        if (shot_dir != NULL) *shot_request = true; // written after this frame's steps and drawing
        break;
    default: break;
    }
}

// Copy src over dst (the test's edit of a watched script).
static bool copy_file(const char *src, const char *dst)
{
    FILE *in = fopen(src, "rb");
    if (in == NULL) return false;
    FILE *out = fopen(dst, "wb");
    if (out == NULL) {
        fclose(in);
        return false;
    }
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
    fclose(in);
    return fclose(out) == 0;
}

// A frame count or index: decimal digits only, at most a billion.
static bool parse_count(const char *text, long *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno != 0 || text[0] == '-' || text[0] == '+' || v > 1000000000L) return false;
    *out = v;
    return true;
}

static int bad_count(const char *option, const char *text)
{
    fprintf(stderr, "steer-viewer: %s needs a frame count (0 to 1000000000), got '%s'\n", option, text);
    return 2;
}

static int usage(void)
{
    fprintf(stderr, "usage: steer-viewer [SCRIPT] [--headless] [--frames N] [--screenshot out.png] [--bench]\n"
                    "                    [--size WxH] [--shot-key-dir DIR] [--poll] [--no-ui]\n"
                    "                    [--camera X,Y,ZOOM] [--edit-at FRAME FILE]... [--debug] [--inspect]\n"
                    "                    [--software] [--paused] [--show-help] [--dump-ui]\n"
                    "                    [--seed K] [--record FILE | --replay FILE]\n");
    return 2;
}

static bool open_window(bool headless, bool software)
{
    if (headless) {
        // offscreen renders in memory; dummy is the fallback of older SDLs
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
        if (SDL_Init(SDL_INIT_VIDEO) != 0) {
            SDL_SetHint(SDL_HINT_VIDEODRIVER, "dummy");
            if (SDL_Init(SDL_INIT_VIDEO) != 0) return false;
        }
    } else if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        return false;
    }
    V.window = SDL_CreateWindow("steer-viewer", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, V.width, V.height,
                                headless ? SDL_WINDOW_HIDDEN : SDL_WINDOW_RESIZABLE);
    if (V.window == NULL) {
        SDL_Quit();
        return false;
    }
    if (headless) {
        // the software renderer straight into a surface of ours: a window
        // surface of the offscreen driver would be streamed through an
        // OpenGL renderer (Mesa's llvmpipe), 10x the cost of the drawing
        headless_surface = SDL_CreateRGBSurfaceWithFormat(0, V.width, V.height, 32, SDL_PIXELFORMAT_ARGB8888);
        V.renderer = headless_surface ? SDL_CreateSoftwareRenderer(headless_surface) : NULL;
        if (V.renderer == NULL) {
            SDL_DestroyWindow(V.window);
            SDL_Quit();
            return false;
        }
        return true;
    }
    // presents wait for the display's refresh (where the driver can); the
    // main loop caps at 60 frames a second besides (software, Xvfb)
    Uint32 flags = (software ? SDL_RENDERER_SOFTWARE : SDL_RENDERER_ACCELERATED) | SDL_RENDERER_PRESENTVSYNC;
    V.renderer = SDL_CreateRenderer(V.window, -1, flags);
    if (V.renderer == NULL) V.renderer = SDL_CreateRenderer(V.window, -1, SDL_RENDERER_SOFTWARE);
    if (V.renderer == NULL) {
        SDL_DestroyWindow(V.window);
        SDL_Quit();
        return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    const char *script = NULL, *screenshot = NULL, *shot_dir = NULL, *record = NULL, *replay = NULL;
    long frames = -1;
    enum { MAX_EDITS = 8 };
    long edit_frame[MAX_EDITS];
    const char *edit_file[MAX_EDITS];
    int edits = 0, next_edit = 0;
    bool fixed_camera = false, inspect = false, seed_given = false;
    uint64_t seed = 0;
    float cam[3] = {0.0f, 0.0f, 10.0f};
    bool headless = false, poll_watch = false, no_ui = false, software = false, dump_ui = false;
    V.width = 1280, V.height = 720;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "--headless") == 0) headless = true;
        else if (strcmp(a, "--bench") == 0) V.bench = true;
        else if (strcmp(a, "--poll") == 0) poll_watch = true;
        else if (strcmp(a, "--no-ui") == 0) no_ui = true;
        else if (strcmp(a, "--software") == 0) software = true;
        else if (strcmp(a, "--debug") == 0) V.debug = true;
        else if (strcmp(a, "--inspect") == 0) inspect = true;
        else if (strcmp(a, "--paused") == 0) V.paused = true;
        else if (strcmp(a, "--dump-ui") == 0) dump_ui = true;
        else if (strcmp(a, "--show-help") == 0) V.help = true;
        else if (strcmp(a, "--frames") == 0 && i + 1 < argc) {
            // a count: "abc" or "-3" was taken as 0 (or an endless run)
            if (!parse_count(argv[++i], &frames)) return bad_count(a, argv[i]);
        }
        else if (strcmp(a, "--screenshot") == 0 && i + 1 < argc) screenshot = argv[++i];
        else if (strcmp(a, "--shot-key-dir") == 0 && i + 1 < argc) shot_dir = argv[++i];
        else if (strcmp(a, "--record") == 0 && i + 1 < argc) record = argv[++i];
        else if (strcmp(a, "--replay") == 0 && i + 1 < argc) replay = argv[++i];
        else if (strcmp(a, "--seed") == 0 && i + 1 < argc) {
            // as steer-run reads it: decimal, 0x hexadecimal or 0 octal, all 64 bits
            char *end = NULL;
            errno = 0;
            seed = strtoull(argv[++i], &end, 0);
            if (*end != '\0' || errno != 0) return usage();
            seed_given = true;
        }
        else if (strcmp(a, "--camera") == 0 && i + 1 < argc) {
            if (sscanf(argv[++i], "%f,%f,%f", &cam[0], &cam[1], &cam[2]) != 3 || !(cam[2] > 0.0f)) return usage();
            fixed_camera = true;
        } else if (strcmp(a, "--edit-at") == 0 && i + 2 < argc && edits < MAX_EDITS) {
            if (!parse_count(argv[++i], &edit_frame[edits])) return bad_count(a, argv[i]);
            edit_file[edits++] = argv[++i];
        }
        else if (strcmp(a, "--size") == 0 && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &V.width, &V.height) != 2 || V.width < 64 || V.height < 64) return usage();
        } else if (a[0] == '-') return usage();
        else script = a;
    }
    // a recording holds its own seed
    if (record != NULL && replay != NULL) return usage();
    if (seed_given && replay != NULL) return usage();
    if (screenshot != NULL && frames < 0) {
        // the last frame of a run that has one (it was silently not written)
        fprintf(stderr, "steer-viewer: --screenshot needs --frames N (it saves the last frame)\n");
        return 2;
    }
    if (script == NULL) script = STEER_VIEWER_DEFAULT_SCRIPT;
    V.script = script;
    if (!headless && !open_window(false, software)) {
        fprintf(stderr, "steer-viewer: no display (%s): running headless\n", SDL_GetError());
        headless = true;
    }
    if (headless && !open_window(true, true)) {
        fprintf(stderr, "steer-viewer: cannot open even a headless renderer: %s\n", SDL_GetError());
        return 1;
    }
    V.headless = headless;

    bool loaded;
    if (replay != NULL) {
        steer_replay_options ro = steer_replay_default_options();
        ro.log = on_log;
        char err[1024];
        V.replay = steer_replay_open(replay, &ro, err, sizeof err);
        if (V.replay == NULL) {
            fprintf(stderr, "steer-viewer: %s\n", err);
            return 1;
        }
        V.host = steer_replay_host(V.replay);
        // the load (and whatever precedes the first frame) before the first draw
        loaded = steer_replay_step(V.replay) >= 0;
        V.script = replay;
    } else {
        steer_host_def hd = steer_host_default_def();
        hd.log = on_log;
        hd.camera = on_camera;
        hd.watch = poll_watch ? STEER_HOST_WATCH_POLL : STEER_HOST_WATCH_AUTO;
        hd.world.seed = seed;
        V.host = steer_host_create(&hd);
        if (V.host == NULL) {
            fprintf(stderr, "steer-viewer: cannot create the script host\n");
            return 1;
        }
        if (record != NULL) {
            if (steer_host_record(V.host, record, 1) != 0) {
                fprintf(stderr, "steer-viewer: %s\n", steer_host_last_error(V.host));
                return 1;
            }
            // the panel's live tuning changes behaviours behind the script's back
            printf("steer-viewer: recording to %s (live tuning in the panel is not part of it)\n", record);
        }
        loaded = steer_host_load(V.host, script) == 0;
    }
    if (!loaded) {
        const char *e = steer_host_last_error(V.host);
        set_status(e ? e : "cannot load the script", true);
        // the host logged its load failure (on_log printed it); a replay's
        // divergence it did not
        if (V.replay != NULL) fprintf(stderr, "error: %s\n", V.status);
        // headless runs are tests and captures: a script that does not load fails them
        if (headless) return 1;
    } else {
        set_status("loaded", false);
    }
    fit_camera();
    apply_camera_request(); // what setup asked for
    if (fixed_camera) V.cam_x = cam[0], V.cam_y = cam[1], V.zoom = cam[2];
    if (inspect) {
        // open the inspector on the first agent the script traces
        steer_world *w = steer_host_world(V.host);
        for (int i = 0; w != NULL && i < steer_world_agent_count(w); ++i) {
            steer_agent_id id = steer_world_agent_at(w, i);
            if (steer_agent_get_trace(w, id)) {
                V.selected = id;
                printf("steer-viewer: selected agent %u\n", id.index);
                break;
            }
        }
    }
    bool ui = !no_ui && ui_init(&V);

    Uint64 freq = SDL_GetPerformanceFrequency(), last = SDL_GetPerformanceCounter();
    double acc = 0.0, sum_step = 0.0, sum_draw = 0.0;
    long frame = 0, shots = 0;
    bool running = true, dragging = false;
    while (running && (frames < 0 || frame < frames)) {
        SDL_Event e;
        bool step_request = false, clicked = false, shot_request = false;
        // paused in a window: sleep until an event, or 100 ms (the watcher's
        // saves, the status line) instead of drawing the same frame at full speed
        if (V.paused && !headless && !V.bench && held_event.type == 0) SDL_WaitEventTimeout(NULL, 100);
        // one button press per frame: ImGui 1.86's SDL backend reads the
        // buttons once a frame, so two clicks in one frame would read as a
        // drag from the first to the second (moving a panel, dragging a
        // value); a second press waits for the next frame
        while (held_event.type != 0 || SDL_PollEvent(&e)) {
            if (held_event.type != 0) e = held_event, held_event.type = 0;
            if (e.type == SDL_MOUSEBUTTONDOWN) {
                if (clicked) {
                    held_event = e;
                    break;
                }
                clicked = true;
            }
            bool mouse_taken = false, keys_taken = false;
            if (ui) ui_event(&e, &mouse_taken, &keys_taken);
            if (e.type == SDL_KEYDOWN || e.type == SDL_KEYUP) {
                bool own = viewer_key(e.key.keysym.sym, shot_dir != NULL);
                input_key(&e.key, !keys_taken && !own);
                if (own && e.type == SDL_KEYDOWN && !keys_taken && !e.key.repeat)
                    viewer_key_down(e.key.keysym.sym, &running, &step_request, shot_dir, &shot_request);
            } else if (e.type == SDL_MOUSEBUTTONDOWN || e.type == SDL_MOUSEBUTTONUP) {
                // a click on a panel is the panel's: neither the world nor the script sees it
                input_button(&e.button, !mouse_taken);
                if (e.type == SDL_MOUSEBUTTONDOWN && !mouse_taken) {
                    if (e.button.button == SDL_BUTTON_LEFT) select_at((float)e.button.x, (float)e.button.y);
                    else dragging = true;
                } else if (e.type == SDL_MOUSEBUTTONUP && e.button.button != SDL_BUTTON_LEFT) {
                    dragging = false;
                }
            } else if (e.type == SDL_QUIT) {
                running = false;
            } else if (e.type == SDL_WINDOWEVENT && e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
                V.width = e.window.data1, V.height = e.window.data2;
            } else if (e.type == SDL_MOUSEMOTION && dragging) {
                V.cam_x -= (float)e.motion.xrel / V.zoom;
                V.cam_y += (float)e.motion.yrel / V.zoom;
                V.follow = false; // panning leaves the followed agent
            } else if (e.type == SDL_MOUSEWHEEL && !mouse_taken) {
                // zoom around the mouse: the world point under it stays put
                int mx, my;
                SDL_GetMouseState(&mx, &my);
                float wx, wy;
                viewer_to_world(&V, (float)mx, (float)my, &wx, &wy);
                V.zoom *= e.wheel.y > 0 ? 1.15f : 1.0f / 1.15f;
                V.zoom = fminf(fmaxf(V.zoom, 0.05f), 400.0f);
                float nx, ny;
                viewer_to_world(&V, (float)mx, (float)my, &nx, &ny);
                V.cam_x += wx - nx, V.cam_y += wy - ny;
            }
        }
        if (next_edit < edits && frame == edit_frame[next_edit]) {
            // a test edits the watched script: wait (bounded) for the watcher's
            // verdict, a new version or an error, before the next frame
            int version = steer_host_version(V.host);
            if (!copy_file(edit_file[next_edit], script)) fprintf(stderr, "steer-viewer: cannot copy %s\n", edit_file[next_edit]);
            printf("steer-viewer: frame %ld: edited %s\n", frame, script);
            ++next_edit;
            V.last_error[0] = '\0';
            for (int waited = 0; waited < 1000; ++waited) {
                // paused, the viewer applies a save without stepping (below)
                if (V.paused) steer_host_poll(V.host);
                else step_once();
                if (steer_host_version(V.host) != version || V.last_error[0] != '\0') break;
                SDL_Delay(10);
            }
        }
        Uint64 now = SDL_GetPerformanceCounter();
        double elapsed = (double)(now - last) / (double)freq;
        last = now;
        V.fps = V.fps * 0.9f + (float)(elapsed > 0 ? 1.0 / elapsed : 0.0) * 0.1f;

        // a save while paused shows on this frame (running, the update applies it)
        if (V.replay == NULL && V.paused) steer_host_poll(V.host);
        // fixed 60 Hz: headless and benchmark runs step once a frame (deterministic)
        long steps_before = total_steps;
        Uint64 t0 = SDL_GetPerformanceCounter();
        V.steps_this_frame = 0;
        if (headless || V.bench) {
            if (!V.paused || step_request) step_once(), V.steps_this_frame = 1;
        } else if (!V.paused) {
            acc += elapsed > 0.25 ? 0.25 : elapsed; // after a stall, do not spiral
            while (acc >= STEP) {
                step_once();
                acc -= STEP;
                ++V.steps_this_frame;
            }
        } else if (step_request) {
            step_once();
            V.steps_this_frame = 1;
        }
        Uint64 t1 = SDL_GetPerformanceCounter();
        if (!fixed_camera) apply_camera_request(); // (--camera: the test's camera stays)
        follow_selected();
        draw_world();
        if (shot_request) {
            // P (--shot-key-dir): what the window shows without the panels,
            // after the keys before it in this frame took effect ('.' stepped)
            char path[1024], tmp[1100];
            snprintf(path, sizeof path, "%s/shot-%03ld.png", shot_dir, shots++);
            snprintf(tmp, sizeof tmp, "%s.part", path);
            // whole or not at all: a watcher of DIR never reads half a file
            if (save_png(tmp)) rename(tmp, path);
            printf("steer-viewer: wrote %s\n", path);
            fflush(stdout);
        }
        V.dump_ui = dump_ui && frames >= 0 && frame == frames - 1;
        if (ui) ui_frame(&V);
        Uint64 t_drawn = SDL_GetPerformanceCounter();
        if (frames >= 0 && frame == frames - 1 && screenshot != NULL) {
            if (!save_png(screenshot)) return 1;
        }
        Uint64 t_present = SDL_GetPerformanceCounter();
        SDL_RenderPresent(V.renderer);
        // draw time: the world, the panels and the present (not the screenshot)
        Uint64 t2 = t1 + (t_drawn - t1) + (SDL_GetPerformanceCounter() - t_present);
        float step_ms = (float)((double)(t1 - t0) * 1000.0 / (double)freq);
        float draw_ms = (float)((double)(t2 - t1) * 1000.0 / (double)freq);
        // the HUD's step time: per simulation step, from the frames that ran steps
        long stepped = total_steps - steps_before;
        if (stepped > 0) {
            float per_step = step_ms / (float)stepped;
            V.step_ms = V.step_ms > 0.0f ? V.step_ms * 0.9f + per_step * 0.1f : per_step;
        }
        V.draw_ms = V.draw_ms * 0.9f + draw_ms * 0.1f;
        if (frame > 0) sum_step += step_ms, sum_draw += draw_ms; // frame 0 sizes buffers
        if (frame == 2) {
            // (tests wait for it before clicking: ImGui shows a new window from its second frame)
            printf("steer-viewer: panels drawn\n");
            fflush(stdout);
        }
        ++frame;
        // a window runs at most 60 frames a second (vsync alone may not
        // hold: the software renderer, Xvfb); headless runs and --bench do not wait
        if (!headless && !V.bench) {
            Uint64 spent = SDL_GetPerformanceCounter() - now;
            double left_ms = 1000.0 / 60.0 - (double)spent * 1000.0 / (double)freq;
            if (left_ms >= 1.0) SDL_Delay((Uint32)left_ms);
        }
    }
    if (V.bench && frame > 1) {
        steer_world *w = steer_host_world(V.host);
        printf("steer-viewer bench: frames=%ld agents=%d size=%dx%d renderer=%s step_ms=%.3f draw_ms=%.3f\n", frame,
               w ? steer_world_agent_count(w) : 0, V.width, V.height, headless ? "software" : "default",
               sum_step / (double)(frame - 1), sum_draw / (double)(frame - 1));
    }
    const char *err = steer_host_last_error(V.host);
    if (err != NULL) printf("steer-viewer: last error: %s\n", err);
    // the world's state as steer-run's summary line gives it (a headless run
    // of N frames and steer-run --steps N, same script and seed: same hash)
    steer_world *end_world = steer_host_world(V.host);
    if (end_world != NULL)
        printf("steer-viewer: agents=%d hash=%016" PRIx64 "\n", steer_world_agent_count(end_world),
               steer_world_hash(end_world));
    printf("steer-viewer: frames=%ld steps=%ld version=%d\n", frame, total_steps, steer_host_version(V.host));
    if (dump_ui) {
        char line[600];
        viewer_status_line(&V, line, sizeof line);
        printf("steer-viewer: status line: %s\n", line);
    }
    // a headless run (a test) fails when the script's update raised
    int rc = (headless && err != NULL && edits == 0) ? 1 : 0;
    if (ui) ui_shutdown();
    if (V.replay != NULL) {
        // a replay that differed fails the run (a test, a bisect script)
        if (steer_replay_divergent_frame(V.replay) >= 0) rc = 1;
        steer_replay_close(V.replay);
    } else {
        if (record != NULL && steer_host_record_end(V.host) != 0) {
            fprintf(stderr, "steer-viewer: %s\n", steer_host_last_error(V.host));
            rc = 1;
        }
        steer_host_destroy(V.host);
    }
    free(B.v);
    SDL_DestroyRenderer(V.renderer);
    SDL_FreeSurface(headless_surface);
    SDL_DestroyWindow(V.window);
    SDL_Quit();
    return rc;
}
