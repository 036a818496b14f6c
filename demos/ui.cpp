// ui.cpp: the viewer's panels with Dear ImGui (Debian's libimgui-dev 1.86,
// its SDL2 platform backend): HUD, help overlay, the inspector of the
// selected agent's arbitration and live tuning of its tree's parameters.
// ImGui is drawn through SDL_Renderer with the small backend below
// (SDL_RenderGeometryRaw), because Debian's ImGui ships no SDL_Renderer
// backend and OpenGL would lose the headless software renderer.
#include <imgui.h>
#include <imgui_internal.h> // the windows on screen (popups included), for the panels' rectangles
#include <backends/imgui_impl_sdl.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <string>
#include <vector>

#include "tune.h"
#include "viewer.h"

static SDL_Texture *font_texture = nullptr;
static SDL_Renderer *ui_renderer = nullptr;
static std::string tune_error; // the refusal of the last edit, as Lua words it
// --dump-ui (tests): this frame, every panel line and widget goes to stdout
// as "inspector: ...", labels that do not fit their panel are counted
static bool dumping;
static int labels_cut;

// After a labelled widget: its label must end inside the panel.
static void check_label(const char *label, const char *shown)
{
    float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    bool cut = ImGui::GetItemRectMax().x > right + 0.5f;
    labels_cut += cut;
    if (dumping) {
        const char *end = strstr(label, "##");
        printf("inspector: %.*s = %s%s\n", end ? (int)(end - label) : (int)strlen(label), label, shown,
               cut ? "   (label cut)" : "");
    }
}

/* ---- renderer backend: ImGui's draw lists through SDL_RenderGeometryRaw ---------------- */

static void render_draw_data(ImDrawData *data)
{
    SDL_Rect saved_clip;
    SDL_bool had_clip = SDL_RenderIsClipEnabled(ui_renderer);
    SDL_RenderGetClipRect(ui_renderer, &saved_clip);
    for (int n = 0; n < data->CmdListsCount; ++n) {
        const ImDrawList *list = data->CmdLists[n];
        const ImDrawVert *vtx = list->VtxBuffer.Data;
        const ImDrawIdx *idx = list->IdxBuffer.Data;
        for (int c = 0; c < list->CmdBuffer.Size; ++c) {
            const ImDrawCmd *cmd = &list->CmdBuffer[c];
            if (cmd->UserCallback) {
                cmd->UserCallback(list, cmd);
                continue;
            }
            ImVec2 o = data->DisplayPos;
            SDL_Rect r = {(int)(cmd->ClipRect.x - o.x), (int)(cmd->ClipRect.y - o.y),
                          (int)(cmd->ClipRect.z - cmd->ClipRect.x), (int)(cmd->ClipRect.w - cmd->ClipRect.y)};
            if (r.w <= 0 || r.h <= 0) continue;
            SDL_RenderSetClipRect(ui_renderer, &r);
            const ImDrawVert *v = vtx + cmd->VtxOffset;
            // ImU32 colours are R, G, B, A bytes in memory: SDL_Color's layout
            SDL_RenderGeometryRaw(ui_renderer, (SDL_Texture *)cmd->GetTexID(), &v->pos.x, (int)sizeof(ImDrawVert),
                                  (const SDL_Color *)&v->col, (int)sizeof(ImDrawVert), &v->uv.x,
                                  (int)sizeof(ImDrawVert), list->VtxBuffer.Size - (int)cmd->VtxOffset,
                                  idx + cmd->IdxOffset, (int)cmd->ElemCount, (int)sizeof(ImDrawIdx));
        }
    }
    SDL_RenderSetClipRect(ui_renderer, had_clip ? &saved_clip : nullptr);
}

bool ui_init(viewer *v)
{
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO &io = ImGui::GetIO();
    io.IniFilename = nullptr; // deterministic layout, no file next to the script
    // panels move by their title bar only: a click or drag on a panel's
    // content (a value, blank space) never moves it off what it covered
    io.ConfigWindowsMoveFromTitleBarOnly = true;
    ImGui::StyleColorsDark();
    if (!ImGui_ImplSDL2_InitForSDLRenderer(v->window)) return false;
    ui_renderer = v->renderer;
    unsigned char *pixels;
    int w, h;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    font_texture = SDL_CreateTexture(ui_renderer, SDL_PIXELFORMAT_ABGR8888, SDL_TEXTUREACCESS_STATIC, w, h);
    if (font_texture == nullptr) return false;
    SDL_UpdateTexture(font_texture, nullptr, pixels, 4 * w);
    SDL_SetTextureBlendMode(font_texture, SDL_BLENDMODE_BLEND);
    io.Fonts->SetTexID((ImTextureID)font_texture);
    return true;
}

void ui_shutdown(void)
{
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    if (font_texture) SDL_DestroyTexture(font_texture);
    font_texture = nullptr;
}

// The windows as drawn in the last frame (what the user clicks on: the
// panels, an open combo's popup, a tooltip): their screen rectangles, x0,
// y0, x1, y1.
static std::vector<ImVec4> panel_rects;

static void note_panels(void)
{
    panel_rects.clear();
    ImGuiContext *g = ImGui::GetCurrentContext();
    for (int i = 0; i < g->Windows.Size; ++i) {
        const ImGuiWindow *w = g->Windows[i];
        if (!w->Active || w->Hidden) continue;
        panel_rects.push_back(ImVec4(w->Pos.x, w->Pos.y, w->Pos.x + w->Size.x, w->Pos.y + w->Size.y));
    }
}

bool ui_over_panel(float x, float y)
{
    for (const ImVec4 &r : panel_rects) {
        if (x >= r.x && y >= r.y && x < r.z && y < r.w) return true;
    }
    return false;
}

bool ui_event(const SDL_Event *e, bool *mouse_taken, bool *keyboard_taken)
{
    ImGui_ImplSDL2_ProcessEvent(e);
    ImGuiIO &io = ImGui::GetIO();
    // ImGui's WantCaptureMouse is the previous frame's hover: a click that
    // arrives with the mouse just moved onto a panel would fall through to
    // the world. Where the event happened, against the panels on screen,
    // decides; a drag that started on a widget keeps the mouse.
    int x, y;
    if (e->type == SDL_MOUSEBUTTONDOWN || e->type == SDL_MOUSEBUTTONUP) x = e->button.x, y = e->button.y;
    else if (e->type == SDL_MOUSEMOTION) x = e->motion.x, y = e->motion.y;
    else SDL_GetMouseState(&x, &y);
    // a press or the wheel belongs to whatever is under it; a motion or a
    // release continues a drag that started on a widget
    bool starts = e->type == SDL_MOUSEBUTTONDOWN || e->type == SDL_MOUSEWHEEL;
    *mouse_taken = ui_over_panel((float)x, (float)y) || (!starts && io.WantCaptureMouse && ImGui::IsAnyItemActive());
    *keyboard_taken = io.WantCaptureKeyboard || io.WantTextInput;
    return *mouse_taken || *keyboard_taken;
}

static ImVec4 color_of(uint32_t c)
{
    return ImVec4((float)(c >> 24) / 255.0f, (float)((c >> 16) & 255) / 255.0f, (float)((c >> 8) & 255) / 255.0f, 1.0f);
}

/* ---- HUD and help ------------------------------------------------------------------------ */

static void hud(viewer *v)
{
    steer_world *w = steer_host_world(v->host);
    ImGui::SetNextWindowPos(ImVec2(8, 8));
    ImGui::SetNextWindowBgAlpha(0.6f);
    ImGui::Begin("HUD", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav);
    ImGui::Text("%s   %.0f fps   agents %d   step %.2f ms   draw %.2f ms%s", v->script, v->fps,
                w ? steer_world_agent_count(w) : 0, v->step_ms, v->draw_ms, v->paused ? "   PAUSED" : "");
    bool recent = SDL_GetTicks() - v->status_ticks < 4000;
    if (v->last_error[0] != '\0') {
        ImGui::TextColored(ImVec4(1.0f, 0.3f, 0.3f, 1.0f), "%s", v->last_error);
    } else if (recent) {
        char line[600];
        viewer_status_line(v, line, sizeof line);
        ImGui::TextColored(ImVec4(0.4f, 1.0f, 0.4f, 1.0f), "%s", line);
    }
    ImGui::TextDisabled("H: help   D: debug layers %s", v->debug ? "(on)" : "(off)");
    ImGui::End();
}

static void help(viewer *v)
{
    if (!v->help) return;
    ImGui::SetNextWindowPos(ImVec2((float)v->width * 0.5f, (float)v->height * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowFocus(); // over the inspector
    ImGui::Begin("Help", &v->help, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse);
    static const char *const keys[][2] = {
        {"space", "pause / run"}, {".", "one step (pauses)"}, {"R", "reset: fresh world, setup() again, fit"},
        {"F5", "reload the script now (saving it reloads too)"},
        {"F6 / F9", "quick save to quicksave.snap / load it"}, {"D", "debug layers of traced agents"},
        {"F", "camera: fit agents, shapes and paths"}, {"C", "camera: follow the selected agent"},
        {"H", "this help"}, {"Esc", "quit"}, {"left click", "select an agent (inspector, traced)"},
        {"right/middle drag", "pan"}, {"wheel", "zoom around the mouse"},
    };
    for (auto &k : keys) {
        ImGui::TextColored(ImVec4(1, 0.85f, 0.4f, 1), "%-18s", k[0]);
        ImGui::SameLine();
        ImGui::TextUnformatted(k[1]);
    }
    // the debug layers' colours, from the engine's palette
    ImGui::Separator();
    ImGui::TextUnformatted("debug layers (D), traced agents:");
    for (int i = 0; i < STEER_DEBUG_PALETTE_COUNT; ++i) {
        ImGui::ColorButton(steer_debug_palette_name((steer_debug_palette_entry)i),
                           color_of(steer_debug_palette((steer_debug_palette_entry)i)), ImGuiColorEditFlags_NoTooltip,
                           ImVec2(12, 12));
        ImGui::SameLine();
        ImGui::TextUnformatted(steer_debug_palette_name((steer_debug_palette_entry)i));
        if (dumping) printf("legend: %s\n", steer_debug_palette_name((steer_debug_palette_entry)i));
    }
    ImGui::End();
}

/* ---- inspector and tuning ------------------------------------------------------------------- */

struct live_node {
    steer_behaviour *b;
    int depth;
    steer_behaviour *parent; ///< nullptr for the root
    int index;               ///< among the parent's children
};

// The agent's current tree in preorder (the trace's order), bounded.
static void walk(steer_behaviour *b, int depth, steer_behaviour *parent, int index, std::vector<live_node> &out)
{
    if (b == nullptr || out.size() >= 256) return;
    out.push_back({b, depth, parent, index});
    int n = steer_behaviour_child_count(b);
    for (int i = 0; i < n; ++i) walk(steer_behaviour_get_child(b, i).behaviour, depth + 1, b, i, out);
}

static bool edited; // a widget changed something this frame (paused: preview again)

// The next widget leaves room for its label (right of it) inside the panel,
// however deep the node is indented.
static void fit_width(const char *label)
{
    float label_w = ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().ItemInnerSpacing.x;
    float w = ImGui::GetContentRegionAvail().x - label_w;
    ImGui::SetNextItemWidth(w > 60.0f ? w : 60.0f);
}

// The node's parameters as widgets; a change goes through tune_set, a
// refusal shows the message Lua would give.
static void edit_params(steer_behaviour *b, int id)
{
    steer_behaviour_type type = steer_behaviour_get_type(b);
    int n = steer_behaviour_param_count(type);
    for (int i = 0; i < n; ++i) {
        const steer_param_info *p = steer_behaviour_param(type, i);
        double v = steer_behaviour_get_param(b, p);
        char label[128];
        snprintf(label, sizeof label, "%s (%s)##%d_%d", p->name, p->unit ? p->unit : "", id, i);
        double next = v;
        bool changed = false;
        fit_width(label);
        if (p->kind == STEER_PARAM_BOOL) {
            bool on = v != 0.0;
            changed = ImGui::Checkbox(label, &on);
            next = on ? 1.0 : 0.0;
        } else if (p->kind == STEER_PARAM_ENUM) {
            int k = (int)v, count = 0;
            while (p->choices[count]) ++count;
            changed = ImGui::Combo(label, &k, p->choices, count);
            next = k;
        } else {
            float f = (float)v;
            float speed = fabsf(f) > 1.0f ? fabsf(f) * 0.01f : 0.01f;
            // a limit override below 0 takes the agent's limit: say so (drag right to set one)
            bool inherited = p->kind == STEER_PARAM_LIMIT && f < 0.0f;
            // no clamping here: a refused value shows the engine's reason
            changed = ImGui::DragFloat(label, &f, inherited ? 0.05f : speed, 0.0f, 0.0f,
                                       inherited ? "inherited" : "%.3f");
            next = f;
        }
        char shown[64];
        if (p->kind == STEER_PARAM_LIMIT && v < 0.0) snprintf(shown, sizeof shown, "inherited");
        else if (p->kind == STEER_PARAM_ENUM) snprintf(shown, sizeof shown, "%s", p->choices[(int)v]);
        else snprintf(shown, sizeof shown, "%.3f", v);
        check_label(label, shown);
        if (!changed) continue;
        char why[512];
        if (tune_set(b, p, next, why, sizeof why)) tune_error.clear();
        else tune_error = why;
        edited = true;
    }
}

// A reflected definition field as a widget (the same widgets as a
// behaviour's parameters); true when the user changed it, with the new value.
static bool field_widget(const steer_field_info *f, double v, const char *label, double *next)
{
    fit_width(label);
    if (f->kind == STEER_FIELD_BOOL) {
        bool on = v != 0.0;
        bool changed = ImGui::Checkbox(label, &on);
        *next = on ? 1.0 : 0.0;
        return changed;
    }
    if (f->kind == STEER_FIELD_ENUM) {
        int k = (int)v, count = 0;
        while (f->choices[count]) ++count;
        bool changed = ImGui::Combo(label, &k, f->choices, count);
        *next = k;
        return changed;
    }
    if (f->kind == STEER_FIELD_BITS) {
        // layers and masks, in hexadecimal
        ImU32 bits = (ImU32)v;
        bool changed = ImGui::InputScalar(label, ImGuiDataType_U32, &bits, NULL, NULL, "%08X",
                                          ImGuiInputTextFlags_CharsHexadecimal);
        *next = (double)bits;
        return changed;
    }
    float x = (float)v;
    float speed = fabsf(x) > 1.0f ? fabsf(x) * 0.01f : 0.01f;
    bool changed = ImGui::DragFloat(label, &x, speed, 0.0f, 0.0f, "%.3f"); // refusals show the reason
    *next = x;
    return changed;
}

// The live fields of the world and of the selected agent, from the engine's
// reflected definitions, set through the tuner as Lua would set them.
static void edit_live_fields(steer_world *w, steer_agent_id id)
{
    if (dumping) ImGui::SetNextItemOpen(true);
    if (ImGui::CollapsingHeader("world")) {
        steer_world_def d;
        steer_world_get_def(w, &d);
        for (int i = 0; i < steer_def_field_count(STEER_DEF_WORLD); ++i) {
            const steer_field_info *f = steer_def_field(STEER_DEF_WORLD, i);
            char label[128], why[512];
            double next;
            snprintf(label, sizeof label, "%s (%s)##world%d", f->name, f->unit, i);
            if (!f->live) continue;
            bool changed = field_widget(f, steer_def_get_field(&d, f), label, &next);
            check_label(label, "");
            if (!changed) continue;
            edited = true;
            if (tune_set_world(w, f, next, why, sizeof why)) tune_error.clear();
            else tune_error = why;
        }
    }
    if (dumping) ImGui::SetNextItemOpen(true);
    if (ImGui::CollapsingHeader("agent")) {
        steer_agent_def d;
        steer_agent_get_def(w, id, &d);
        for (int i = 0; i < steer_def_field_count(STEER_DEF_AGENT); ++i) {
            const steer_field_info *f = steer_def_field(STEER_DEF_AGENT, i);
            char label[128], why[512];
            double next;
            snprintf(label, sizeof label, "%s (%s)##agent%d", f->name, f->unit, i);
            if (!f->live) continue;
            bool changed = field_widget(f, steer_def_get_field(&d, f), label, &next);
            check_label(label, "");
            if (!changed) continue;
            edited = true;
            if (tune_set_agent(w, id, f, next, why, sizeof why)) tune_error.clear();
            else tune_error = why;
        }
    }
}

static void inspector(viewer *v)
{
    steer_world *w = steer_host_world(v->host);
    if (w == nullptr || !steer_agent_is_valid(w, v->selected)) return;
    steer_agent_id id = v->selected;
    ImGui::SetNextWindowPos(ImVec2((float)v->width - 470.0f, 8.0f), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(460.0f, (float)v->height - 16.0f), ImGuiCond_FirstUseEver);
    ImGui::Begin("Inspector");
    ImGui::PushTextWrapPos(0.0f); // long lines wrap at the panel's edge instead of being cut
    steer_kinematic s = steer_agent_get_state(w, id);
    steer_steering last = steer_agent_get_last_steering(w, id);
    ImGui::Text("agent %u  at (%.2f, %.2f)  orientation %.2f rad", id.index, s.position.x, s.position.y, s.orientation);
    ImGui::Text("velocity (%.2f, %.2f)  speed %.2f m/s", s.velocity.x, s.velocity.y,
                sqrtf(s.velocity.x * s.velocity.x + s.velocity.y * s.velocity.y));
    ImGui::Text("steering (%.2f, %.2f)  |a| %.2f  angular %.2f", last.linear.x, last.linear.y,
                sqrtf(last.linear.x * last.linear.x + last.linear.y * last.linear.y), last.angular);
    edit_live_fields(w, id);
    ImGui::Separator();
    std::vector<live_node> live;
    // paused since the agent was traced: a preview fills its trace (and after an edit)
    if (v->paused && (edited || steer_agent_trace_node_count(w, id) == 0)) steer_agent_trace_preview(w, id, 1.0f / 60.0f);
    edited = false;
    walk(steer_agent_get_behaviour(w, id), 0, nullptr, 0, live);
    int traced = steer_agent_trace_node_count(w, id);
    std::vector<steer_trace_node> trace((size_t)traced);
    for (int i = 0; i < traced; ++i) steer_agent_trace_node(w, id, i, &trace[(size_t)i]);
    std::vector<bool> used((size_t)traced, false);
    if (!tune_error.empty()) ImGui::TextColored(ImVec4(1, 0.3f, 0.3f, 1), "%s", tune_error.c_str());
    ImGui::TextDisabled("output = what a node asked for; x w = its share in a blend");
    for (size_t k = 0; k < live.size(); ++k) {
        steer_behaviour *b = live[k].b;
        // this node's record in the last traced step (same node at the same depth)
        const steer_trace_node *t = nullptr;
        for (int i = 0; i < traced; ++i) {
            if (!used[(size_t)i] && trace[(size_t)i].behaviour == b && trace[(size_t)i].depth == live[k].depth) {
                used[(size_t)i] = true;
                t = &trace[(size_t)i];
                break;
            }
        }
        ImGui::PushID((int)k);
        ImGui::Indent((float)live[k].depth * 14.0f);
        const char *name = steer_behaviour_type_name(steer_behaviour_get_type(b));
        ImVec4 colour = ImVec4(0.9f, 0.9f, 0.9f, 1);
        char line[256];
        if (t == nullptr) {
            snprintf(line, sizeof line, "%s   (not evaluated)", name);
            colour = ImVec4(0.5f, 0.5f, 0.5f, 1);
        } else {
            const steer_trace_node *parent = t->parent >= 0 ? &trace[(size_t)t->parent] : nullptr;
            if (parent != nullptr && parent->type == STEER_BLEND) colour = color_of(steer_debug_child_color(t->child_index));
            float len = sqrtf(t->output.linear.x * t->output.linear.x + t->output.linear.y * t->output.linear.y);
            if (!t->has_output) snprintf(line, sizeof line, "%s   no steering", name);
            else if (parent != nullptr && parent->type == STEER_BLEND)
                snprintf(line, sizeof line, "%s   |a| %.2f  ang %.2f   x w %.2f = %.2f", name, len, t->output.angular,
                         t->weight, len * t->weight);
            else snprintf(line, sizeof line, "%s   |a| %.2f  ang %.2f", name, len, t->output.angular);
            if (parent != nullptr && parent->type == STEER_PRIORITY) {
                bool won = t->child_index == parent->winner_linear;
                colour = won ? ImVec4(0.3f, 1.0f, 0.6f, 1) : ImVec4(0.6f, 0.6f, 0.6f, 1);
            }
        }
        if (dumping) ImGui::SetNextItemOpen(true);
        bool open = ImGui::TreeNodeEx("node", ImGuiTreeNodeFlags_DefaultOpen * 0, "%s", "");
        ImGui::SameLine();
        ImGui::TextColored(colour, "%s", line);
        if (dumping) printf("inspector: node %s\n", line);
        if (t != nullptr && t->type == STEER_PRIORITY && t->winner_linear >= 0) {
            ImGui::TextColored(ImVec4(0.3f, 1.0f, 0.6f, 1), "  linear from group %d (%s), angular from group %d%s",
                               t->winner_linear + 1,
                               t->fallback_linear ? "none above epsilon: the last that steered" : "first above epsilon",
                               t->winner_angular + 1, t->fallback_angular ? " (fallback)" : "");
        }
        if (open) {
            // a blend child's weight, editable like a parameter
            if (live[k].parent != nullptr && steer_behaviour_get_type(live[k].parent) == STEER_BLEND) {
                float wgt = steer_behaviour_get_child(live[k].parent, live[k].index).weight;
                char label[64], shown[32], why[512];
                snprintf(label, sizeof label, "weight (in the blend)##w%d", (int)k);
                snprintf(shown, sizeof shown, "%.3f", wgt);
                fit_width(label);
                bool changed = ImGui::DragFloat(label, &wgt, 0.01f, 0.0f, 0.0f, "%.3f");
                check_label(label, shown);
                if (changed) {
                    edited = true;
                    if (tune_set_weight(live[k].parent, live[k].index, wgt, why, sizeof why)) tune_error.clear();
                    else tune_error = why;
                }
            }
            edit_params(b, (int)k);
            if (ImGui::SmallButton("copy as Lua")) {
                char lua[2048];
                tune_as_lua(b, lua, sizeof lua);
                SDL_SetClipboardText(lua);
            }
            ImGui::TreePop();
        }
        ImGui::Unindent((float)live[k].depth * 14.0f);
        ImGui::PopID();
    }
    ImGui::PopTextWrapPos();
    ImGui::End();
}

void ui_frame(viewer *v)
{
    ImGui_ImplSDL2_NewFrame();
    ImGui::NewFrame();
    dumping = v->dump_ui;
    labels_cut = 0;
    hud(v);
    inspector(v);
    help(v);
    if (dumping) printf("inspector: %d labels cut\n", labels_cut);
    dumping = false;
    ImGui::Render();
    note_panels();
    render_draw_data(ImGui::GetDrawData());
}
