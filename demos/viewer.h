// viewer.h: what the viewer's C side (viewer.c: window, simulation, batched
// drawing) shares with its Dear ImGui panels (ui.cpp: HUD, help, inspector,
// live tuning).
#ifndef STEER_VIEWER_H
#define STEER_VIEWER_H

#include <SDL.h>
#include <stdbool.h>

#include "steer/host.h"
#include "steer/steer.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The viewer's state, read by the panels.
typedef struct viewer {
    SDL_Window *window;
    SDL_Renderer *renderer;
    int width, height;
    steer_host *host;
    steer_replay *replay; ///< --replay: the recording drives the host (read-only)
    const char *script;
    bool headless, paused, debug, help, bench;
    bool dump_ui; ///< --dump-ui: this frame, the panels print their lines (tests)
    // camera: world point at the centre of the window, pixels per metre
    float cam_x, cam_y, zoom;
    bool follow; ///< the camera follows the selected agent (C)
    steer_agent_id selected;
    // figures of the last frame and their means
    float fps, step_ms, draw_ms;
    int steps_this_frame;
    // status line: the last reload (or error) and when it happened
    char status[512];
    bool status_error;
    uint32_t status_ticks;
    char last_error[1024]; ///< kept until the next good load or reload
} viewer;

/// The HUD's status line: the last reload's message (its version once).
void viewer_status_line(const viewer *v, char *out, size_t size);

/// The panels (ui.cpp). ui_event returns true when the UI took the event
/// (typing in a field, clicking a panel).
bool ui_init(viewer *v);
void ui_shutdown(void);
bool ui_event(const SDL_Event *e, bool *mouse_taken, bool *keyboard_taken);
/// A point (window pixels) on a panel drawn in the last frame.
bool ui_over_panel(float x, float y);
void ui_frame(viewer *v);

#ifdef __cplusplus
}
#endif

#endif
