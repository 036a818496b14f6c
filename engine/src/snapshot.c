// snapshot.c: world snapshots (docs/engine.md, Snapshots): the header, the
// world's settings, the agents' slots and columns (every column of the
// store's table that holds agent state, by name), the paths and the
// behaviour graph (shared nodes once, parameters by their reflected names,
// callback behaviours by name); shapes and formations are
// snapshot_parts.c's. Restoring builds a new world that steps to the same
// bits; whatever the bytes, it refuses with a message rather than assert.
#include "behaviour.h"
#include "formation.h"
#include "geometry.h"
#include "snapshot.h"
#include "store.h"
#include "trace.h"

static const char magic[8] = {'S', 'T', 'E', 'E', 'R', 'S', 'N', 'P'};
/// Bumped whenever the layout below changes.
/// 2: navigate's plans and the agents' own goals (after the agents' columns,
/// and after each formation's anchor state).
/// 3: the world's next move_group order id (after next_key).
/// 4: the agents' settling state in a column of its own (`rest`, 20
/// bytes), the course 12 bytes (world.h, orca_rest).
enum { SNAP_FORMAT = 4 };
/// Most nodes of a snapshot's behaviour graph and points of a path it holds.
enum { SNAP_MAX_OBJECTS = 1 << 26 };

static uint64_t checksum(const unsigned char *p, size_t n)
{
    uint64_t h = 0xCBF29CE484222325ull; // FNV-1a
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001B3ull;
    return h;
}

static void set_error(steer_snapshot_error *e, const char *fmt, const char *arg)
{
    if (e != NULL) snprintf(e->message, sizeof e->message, fmt, arg);
}

/* ---- the objects a world refers to ----------------------------------------------------- */

static void refs_free(snap_refs *refs)
{
    steer__free(refs->paths);
    steer__free(refs->behaviours);
    steer__free(refs->keys);
    steer__free(refs->values);
    memset(refs, 0, sizeof *refs);
}

// List an object (a path or behaviour) under index `value`; false when memory ran out.
static bool refs_insert(snap_refs *refs, const void *object, int value)
{
    size_t used = (size_t)refs->path_count + (size_t)refs->behaviour_count;
    if (2 * (used + 1) > refs->table_size) {
        size_t size = refs->table_size > 0 ? 2 * refs->table_size : 64;
        const void **keys = steer__alloc(sizeof *keys * size);
        int *values = steer__alloc(sizeof *values * size);
        if (keys == NULL || values == NULL) {
            steer__free(keys);
            steer__free(values);
            return false;
        }
        memset(keys, 0, sizeof *keys * size);
        for (size_t k = 0; k < refs->table_size; ++k) {
            if (refs->keys[k] == NULL) continue;
            size_t h = snap_hash_ptr(refs->keys[k], size - 1);
            while (keys[h] != NULL) h = (h + 1) & (size - 1);
            keys[h] = refs->keys[k], values[h] = refs->values[k];
        }
        steer__free(refs->keys);
        steer__free(refs->values);
        refs->keys = keys, refs->values = values, refs->table_size = size;
    }
    size_t h = snap_hash_ptr(object, refs->table_size - 1);
    while (refs->keys[h] != NULL) h = (h + 1) & (refs->table_size - 1);
    refs->keys[h] = object, refs->values[h] = value;
    return true;
}

// Room for one more in a list of n (doubling).
static bool room_for(void **list, size_t item, int n)
{
    if (n == 0 || (n & (n - 1)) == 0) return steer__grow(list, item, (size_t)(n > 0 ? 2 * n : 16));
    return true;
}

static bool list_path(snap_refs *refs, steer_path *p)
{
    if (p == NULL || snap_ref_of(refs, p) != 0) return true;
    if (!room_for((void **)&refs->paths, sizeof *refs->paths, refs->path_count)) return false;
    refs->paths[refs->path_count] = p;
    return refs_insert(refs, p, refs->path_count++);
}

// Children before their parents (the order a restore creates them in);
// shared nodes once. The recursion is as deep as the tree (at most
// STEER_MAX_TREE_DEPTH). Returns NULL, or why the world cannot be saved.
static const char *list_behaviour(snap_refs *refs, steer_behaviour *b)
{
    if (b == NULL || snap_ref_of(refs, b) != 0) return NULL;
    for (int i = 0; i < b->def.child_count; ++i) {
        const char *err = list_behaviour(refs, b->children[i].behaviour);
        if (err != NULL) return err;
    }
    if (b->def.type == STEER_CALLBACK && b->name == NULL)
        return "a callback behaviour has no name (steer_behaviour_set_name; in Lua, steer.behaviour{ name = ..., fn })";
    if (!list_path(refs, b->def.path) ||
        !room_for((void **)&refs->behaviours, sizeof *refs->behaviours, refs->behaviour_count))
        return "not enough memory";
    refs->behaviours[refs->behaviour_count] = b;
    if (!refs_insert(refs, b, refs->behaviour_count++)) return "not enough memory";
    return NULL;
}

static const char *list_objects(const steer_world *w, snap_refs *refs)
{
    for (int i = 0; i < w->count; ++i) {
        const char *err = list_behaviour(refs, w->behaviour[i]);
        if (err != NULL) return err;
    }
    const struct steer_formations *fs = w->formations;
    for (int k = 0; fs != NULL && k < fs->count; ++k) {
        const formation *f = &fs->items[k];
        if (!f->alive) continue;
        const char *err = list_behaviour(refs, f->def.anchor_behaviour);
        if (err != NULL) return err;
        if (!list_path(refs, f->def.anchor_path)) return "not enough memory";
    }
    return NULL;
}

/* ---- writing ------------------------------------------------------------------------- */

static void write_target(snap_writer *o, const steer_target *t)
{
    snap_u8(o, (uint32_t)t->kind);
    snap_vec2(o, t->point);
    snap_u32(o, t->agent.index), snap_u32(o, t->agent.generation);
}

static void write_behaviour(snap_writer *o, const snap_refs *refs, const steer_behaviour *b)
{
    const steer_behaviour_def *d = &b->def;
    snap_u8(o, (uint32_t)d->type);
    snap_str(o, b->name);
    write_target(o, &d->target);
    snap_u32(o, (uint32_t)snap_ref_of(refs, d->path));
    snap_u32(o, d->formation.index), snap_u32(o, d->formation.generation);
    int n = steer_behaviour_param_count(d->type);
    snap_u32(o, (uint32_t)n);
    for (int i = 0; i < n; ++i) {
        const steer_param_info *p = steer_behaviour_param(d->type, i);
        snap_str(o, p->name);
        // an unset optional value as steer_param_set unsets it; an inherited limit is -1
        snap_f64(o, p->kind == STEER_PARAM_OPTIONAL && !steer_param_is_set(d, p) ? -2.0 : steer_param_get(d, p));
    }
    snap_u32(o, (uint32_t)d->child_count);
    for (int i = 0; i < d->child_count; ++i) {
        snap_u32(o, (uint32_t)snap_ref_of(refs, b->children[i].behaviour) - 1);
        snap_f32(o, b->children[i].weight);
    }
}

// The columns a snapshot holds: agent state (not a stage's scratch), and
// of the pointers only the behaviour (the host's user data is not saved).
static bool column_saved(const store_column_info *c)
{
    return c->moves && (c->word > 0 || strcmp(c->name, "behaviour") == 0);
}

static void write_payload(snap_writer *o, const steer_world *w, const snap_refs *refs, const steer_snapshot_def *def)
{
    // the host's data first (steer_snapshot_host_data finds it there)
    snap_u64(o, def != NULL ? (uint64_t)def->host_size : 0);
    if (def != NULL) snap_put(o, def->host_data, def->host_size);
    // the world
    snap_u64(o, w->def.seed);
    snap_u32(o, (uint32_t)w->def.integrator);
    snap_f32(o, w->def.cell_size);
    snap_u8(o, w->def.resolve_contacts), snap_u8(o, w->def.resolve_agent_contacts);
    snap_u64(o, w->steps), snap_u64(o, w->next_key);
    snap_u32(o, w->next_group);
    snap_u32(o, (uint32_t)w->capacity);
    snap_u32(o, (uint32_t)w->callback_errors);
    // agent slots
    snap_u32(o, (uint32_t)w->slot_count), snap_u32(o, (uint32_t)w->slot_capacity), snap_u32(o, w->free_slot);
    for (int s = 0; s < w->slot_count; ++s) {
        snap_u32(o, w->slots[s].generation), snap_u32(o, w->slots[s].dense), snap_u8(o, w->slots[s].alive);
    }
    // paths, then behaviours (children first)
    snap_u32(o, (uint32_t)refs->path_count);
    for (int k = 0; k < refs->path_count; ++k) {
        const steer_path *p = refs->paths[k];
        int n = steer_path_point_count(p);
        snap_u8(o, steer_path_is_loop(p));
        snap_u32(o, (uint32_t)n);
        for (int i = 0; i < n; ++i) snap_vec2(o, steer_path_point(p, i));
    }
    snap_u32(o, (uint32_t)refs->behaviour_count);
    for (int k = 0; k < refs->behaviour_count; ++k) write_behaviour(o, refs, refs->behaviours[k]);
    // agents: every saved column, by name, in dense order
    snap_u32(o, (uint32_t)w->count);
    int saved = 0;
    for (int c = 0; c < steer__store_column_count(); ++c) saved += column_saved(steer__store_column_info(c));
    snap_u32(o, (uint32_t)saved);
    for (int c = 0; c < steer__store_column_count(); ++c) {
        const store_column_info *ci = steer__store_column_info(c);
        if (!column_saved(ci)) continue;
        snap_str(o, ci->name);
        snap_u32(o, (uint32_t)ci->size), snap_u8(o, (uint32_t)ci->word);
        if (ci->word > 0) {
            snap_words(o, steer__store_column_data(w, c), (size_t)w->count, ci->size, ci->word);
        } else {
            for (int i = 0; i < w->count; ++i) snap_u32(o, (uint32_t)snap_ref_of(refs, w->behaviour[i]));
        }
    }
    // navigate's plans (a column of pointers): each agent's, in dense order
    for (int i = 0; i < w->count; ++i) steer__snapshot_write_plan(o, w->plan[i], w->behaviour[i], refs);
    steer__snapshot_write_shapes(o, w);
    steer__snapshot_write_formations(o, w, refs);
}

static size_t header_size(void) { return sizeof magic + 4 + 4 + strlen(STEER_VERSION_STRING) + 8 + 8; }

bool steer_world_snapshot(const steer_world *w, const steer_snapshot_def *def, void *buffer, size_t capacity,
                          size_t *size, steer_snapshot_error *error)
{
    if (size != NULL) *size = 0;
    if (!STEER_CHECK(w != NULL && size != NULL && (capacity == 0 || buffer != NULL))) return false;
    if (!STEER_CHECK(def == NULL || (def->cookie == STEER_COOKIE && (def->host_size == 0 || def->host_data != NULL))))
        return false;
    if (w->stepping) {
        set_error(error, "%s", "a world cannot be saved while it steps");
        return false;
    }
    // formations assign lazily: settle them, as a step or a read would
    // (the same assignment the next step makes; nothing the step reads changes)
    steer__formation_step_settle((steer_world *)w);
    // and the shapes' broadphase built (removed shapes' parts dropped), as
    // a ray cast would: a restored world starts with it built
    steer__geometry_ready((steer_world *)w);
    snap_refs refs;
    memset(&refs, 0, sizeof refs);
    const char *err = list_objects(w, &refs);
    if (err != NULL) {
        set_error(error, "cannot save the world: %s", err);
        refs_free(&refs);
        return false;
    }
    const size_t head = header_size();
    snap_writer o = {capacity > head ? (unsigned char *)buffer + head : NULL, capacity > head ? capacity - head : 0, 0};
    write_payload(&o, w, &refs, def);
    refs_free(&refs);
    *size = head + o.len;
    if (*size > capacity) return false;
    snap_writer h = {buffer, head, 0};
    snap_put(&h, magic, sizeof magic);
    snap_u32(&h, SNAP_FORMAT);
    snap_str(&h, STEER_VERSION_STRING);
    snap_u64(&h, o.len);
    snap_u64(&h, checksum(o.buf, o.len));
    return true;
}

/* ---- reading: the header ----------------------------------------------------------------- */

// Check the header; on success r reads the payload.
static bool read_header(snap_reader *r, const void *bytes, size_t size, steer_snapshot_error *error)
{
    *r = (snap_reader){bytes, size, 0, true, "the header", error};
    if (bytes == NULL || size < sizeof magic || memcmp(bytes, magic, sizeof magic) != 0)
        return snap_fail(r, "not a steer snapshot (it does not start with STEERSNP)");
    r->pos = sizeof magic;
    uint32_t format = snap_ru32(r);
    if (r->ok && format != SNAP_FORMAT)
        return snap_fail(r, "snapshot format %u: this engine (steer %s) reads format %d", format, STEER_VERSION_STRING,
                         SNAP_FORMAT);
    char version[64];
    snap_rstr(r, version, sizeof version);
    if (r->ok && strcmp(version, STEER_VERSION_STRING) != 0)
        return snap_fail(r, "snapshot written by steer %s: this engine is steer %s (snapshots restore on the same "
                            "engine version)", version, STEER_VERSION_STRING);
    uint64_t payload = snap_ru64(r), sum = snap_ru64(r);
    if (!r->ok) return false;
    if (payload != size - r->pos)
        return snap_fail(r, "truncated snapshot: %zu bytes where the header says %llu", size,
                         (unsigned long long)(payload + r->pos));
    if (checksum(r->bytes + r->pos, (size_t)payload) != sum)
        return snap_fail(r, "damaged snapshot: its checksum does not match its bytes");
    return true;
}

// The host data (after the header); r then reads the world.
static bool read_host(snap_reader *r, const void **host, size_t *host_size)
{
    r->part = "the host data";
    uint64_t n = snap_ru64(r);
    if (!r->ok) return false;
    if (n > r->size - r->pos) return snap_fail(r, "damaged snapshot: the host data is longer than the snapshot");
    *host = r->bytes + r->pos, *host_size = (size_t)n;
    r->pos += (size_t)n;
    return true;
}

bool steer_snapshot_host_data(const void *bytes, size_t size, const void **host, size_t *host_size,
                              steer_snapshot_error *error)
{
    if (!STEER_CHECK(host != NULL && host_size != NULL)) return false;
    *host = NULL, *host_size = 0;
    snap_reader r;
    return read_header(&r, bytes, size, error) && read_host(&r, host, host_size);
}

/* ---- reading: the world -------------------------------------------------------------------- */

static bool restore_def_ok(snap_reader *r, const steer_restore_def *d)
{
    if (d->cookie != STEER_COOKIE) return snap_fail(r, "the restore definition was not made by steer_default_restore_def");
    if (d->worker_count < 1 || d->worker_count > STEER_MAX_WORKERS)
        return snap_fail(r, "worker_count must be in [1, %d]", STEER_MAX_WORKERS);
    if ((d->enqueue_task == NULL) != (d->finish_task == NULL))
        return snap_fail(r, "enqueue_task and finish_task go together");
    return true;
}

static steer_world *read_world(snap_reader *r, const steer_restore_def *rd)
{
    r->part = "the world";
    steer_world_def d = steer_default_world_def();
    d.seed = snap_ru64(r);
    uint32_t integrator = snap_ru32(r);
    d.cell_size = snap_rf32(r);
    d.resolve_contacts = snap_rbool(r), d.resolve_agent_contacts = snap_rbool(r);
    uint64_t steps = snap_ru64(r), next_key = snap_ru64(r);
    uint32_t next_group = snap_ru32(r);
    uint32_t capacity = snap_ru32(r), callback_errors = snap_ru32(r);
    SNAP_NEED(r, integrator <= STEER_INTEGRATOR_NEWTON, "the integrator is unknown");
    SNAP_NEED(r, steer_cell_size_is_valid(d.cell_size), "the cell size is out of range");
    SNAP_NEED(r, next_group != 0, "the next move_group order's id is 0");
    // capacity decides the neighbour grid's table (and so the bits): kept,
    // but a capacity far beyond what the snapshot holds is refused
    SNAP_NEED(r, capacity >= 1 && capacity <= STEER_MAX_AGENT_CAPACITY &&
                     (capacity <= 65536 || capacity <= (r->size - r->pos) / 16),
              "the agent capacity is out of range");
    if (!r->ok) return NULL;
    d.integrator = (steer_integrator)integrator;
    d.agent_capacity = (int)capacity;
    d.worker_count = rd->worker_count;
    d.enqueue_task = rd->enqueue_task, d.finish_task = rd->finish_task, d.user_task_context = rd->user_task_context;
    steer_world *w = steer_world_create(&d);
    if (w == NULL) {
        snap_fail(r, "not enough memory for a world of %u agents", capacity);
        return NULL;
    }
    w->steps = steps, w->next_key = next_key, w->next_group = next_group, w->callback_errors = (int)callback_errors;
    return w;
}

static bool read_slots(snap_reader *r, steer_world *w)
{
    r->part = "the agent slots";
    int n = snap_rcount(r, 9, STEER_MAX_AGENT_CAPACITY);
    int cap = (int)snap_ru32(r);
    w->free_slot = snap_ru32(r);
    if (!SNAP_NEED(r, cap >= n && cap <= (n > 64 ? 2 * n : 64), "the slot capacity is out of range")) return false;
    if (cap > 0 && !STEER_GROW(w->slots, cap)) return snap_fail(r, "not enough memory for the agent slots");
    w->slot_capacity = cap;
    for (int s = 0; s < n && r->ok; ++s) {
        w->slots[s].generation = snap_ru32(r), w->slots[s].dense = snap_ru32(r), w->slots[s].alive = snap_rbool(r);
        w->slot_count = s + 1;
    }
    return r->ok;
}

static bool read_paths(snap_reader *r, snap_refs *refs)
{
    r->part = "the paths";
    int n = snap_rcount(r, 5, SNAP_MAX_OBJECTS);
    if (n > 0 && (refs->paths = steer__alloc(sizeof *refs->paths * (size_t)n)) == NULL)
        return snap_fail(r, "not enough memory for the paths");
    for (int k = 0; k < n && r->ok; ++k) {
        steer_path_def d = steer_default_path_def();
        d.loop = snap_rbool(r);
        d.count = snap_rcount(r, 8, SNAP_MAX_OBJECTS);
        steer_vec2 *points = steer__alloc(sizeof *points * (size_t)(d.count > 0 ? d.count : 1));
        if (points == NULL) return snap_fail(r, "not enough memory for the paths");
        for (int i = 0; i < d.count; ++i) points[i] = snap_rvec2(r);
        d.points = points;
        if (r->ok && !steer_path_def_is_valid(&d)) snap_fail(r, "damaged snapshot: path %d is not a valid path", k + 1);
        steer_path *p = r->ok ? steer_path_create(&d) : NULL;
        steer__free(points);
        if (r->ok && p == NULL) return snap_fail(r, "not enough memory for the paths");
        if (p != NULL) refs->paths[refs->path_count++] = p;
    }
    return r->ok;
}

static bool takes_children(steer_behaviour_type t)
{
    return t == STEER_BLEND || t == STEER_PRIORITY || t == STEER_RECIPROCAL_AVOIDANCE;
}

// The parameters as read, checked as steer_behaviour_create checks them
// (all at once: the cross-field rules need the others).
static bool params_ok(snap_reader *r, const steer_behaviour_def *d, int k)
{
    char buf[128];
    int n = steer_behaviour_param_count(d->type);
    for (int i = 0; i < n && r->ok; ++i) {
        const steer_param_info *p = steer_behaviour_param(d->type, i);
        if (!steer_param_is_set(d, p)) continue;
        const char *msg = steer_param_check(d, p, steer_param_get(d, p), buf, sizeof buf);
        if (msg != NULL)
            snap_fail(r, "damaged snapshot: behaviour %d ('%s'): %s %s", k + 1, steer_behaviour_type_name(d->type), p->name, msg);
    }
    return r->ok;
}

// Behaviour k: its definition, children (earlier behaviours) and name.
static steer_behaviour *read_behaviour(snap_reader *r, const snap_refs *refs, int k, const steer_restore_def *rd)
{
    char name[STEER_MAX_BEHAVIOUR_NAME + 1], pname[64];
    uint32_t type = snap_ru8(r);
    snap_rstr(r, name, sizeof name);
    if (!SNAP_NEED(r, type < STEER_BEHAVIOUR_TYPE_COUNT, "its type is unknown")) return NULL;
    steer_behaviour_def d = steer_default_behaviour_def((steer_behaviour_type)type);
    uint32_t kind = snap_ru8(r);
    d.target.kind = (steer_target_kind)kind;
    d.target.point = snap_rvec2(r);
    d.target.agent.index = snap_ru32(r), d.target.agent.generation = snap_ru32(r);
    uint32_t path = snap_ru32(r);
    d.formation.index = snap_ru32(r), d.formation.generation = snap_ru32(r);
    SNAP_NEED(r, kind <= STEER_TARGET_AGENT && steer_vec2_is_finite(d.target.point), "its target is out of range");
    SNAP_NEED(r, path <= (uint32_t)refs->path_count, "it refers to a path the snapshot lacks");
    int np = snap_rcount(r, 12, 64);
    for (int i = 0; i < np && r->ok; ++i) {
        snap_rstr(r, pname, sizeof pname);
        double v = snap_rf64(r);
        const steer_param_info *p = r->ok ? steer_behaviour_find_param(d.type, pname) : NULL;
        if (r->ok && p == NULL)
            snap_fail(r, "snapshot's behaviour %d ('%s') has a parameter '%s' this engine does not know", k + 1,
                      steer_behaviour_type_name(d.type), pname);
        else if (r->ok && isnan(v))
            snap_fail(r, "damaged snapshot: behaviour %d ('%s'): %s is NaN", k + 1, steer_behaviour_type_name(d.type), pname);
        else if (r->ok)
            steer_param_set(&d, p, p->kind == STEER_PARAM_LIMIT && v < 0.0 ? -1.0 : v);
    }
    if (!r->ok || !params_ok(r, &d, k)) return NULL;
    int nc = snap_rcount(r, 8, STEER_MAX_TREE_NODES);
    steer_child kids[STEER_MAX_TREE_NODES];
    for (int i = 0; i < nc && r->ok; ++i) {
        uint32_t c = snap_ru32(r);
        kids[i].weight = snap_rf32(r);
        if (SNAP_NEED(r, c < (uint32_t)k && isfinite(kids[i].weight), "a child is out of range"))
            kids[i].behaviour = refs->behaviours[c];
    }
    if (!r->ok) return NULL;
    if (!SNAP_NEED(r, nc == 0 || takes_children(d.type), "a behaviour of its type has children")) return NULL;
    if (!SNAP_NEED(r, d.type != STEER_RECIPROCAL_AVOIDANCE || nc == 1, "reciprocal_avoidance needs one child")) return NULL;
    char buf[160];
    const char *err = steer_behaviour_check_children(NULL, kids, nc, buf, sizeof buf);
    if (err != NULL) {
        snap_fail(r, "damaged snapshot: behaviour %d: its children %s", k + 1, err);
        return NULL;
    }
    d.children = kids, d.child_count = nc;
    d.path = path > 0 ? refs->paths[path - 1] : NULL;
    if (d.type == STEER_CALLBACK) {
        if (!SNAP_NEED(r, name[0] != '\0', "a callback behaviour has no name")) return NULL;
        if (rd->resolve == NULL || !rd->resolve(name, &d, rd->resolve_context) || d.callback == NULL) {
            if (d.release != NULL) d.release(d.context);
            snap_fail(r, "the snapshot needs the behaviour '%s', which the host does not provide", name);
            return NULL;
        }
    }
    steer_behaviour *b = steer_behaviour_create(&d);
    if (b == NULL && d.release != NULL) d.release(d.context);
    if (b != NULL && name[0] != '\0' && !steer_behaviour_set_name(b, name)) {
        steer_behaviour_release(b);
        b = NULL;
    }
    if (b == NULL) snap_fail(r, "not enough memory for the behaviours");
    return b;
}

static bool read_behaviours(snap_reader *r, snap_refs *refs, const steer_restore_def *rd)
{
    r->part = "the behaviours";
    int n = snap_rcount(r, 34, SNAP_MAX_OBJECTS);
    if (n > 0 && (refs->behaviours = steer__alloc(sizeof *refs->behaviours * (size_t)n)) == NULL)
        return snap_fail(r, "not enough memory for the behaviours");
    for (int k = 0; k < n && r->ok; ++k) {
        steer_behaviour *b = read_behaviour(r, refs, k, rd);
        if (b != NULL) refs->behaviours[refs->behaviour_count++] = b;
    }
    return r->ok;
}

static int column_named(const char *name)
{
    for (int c = 0; c < steer__store_column_count(); ++c) {
        if (strcmp(steer__store_column_info(c)->name, name) == 0) return c;
    }
    return -1;
}

static bool agents_ok(snap_reader *r, steer_world *w)
{
    for (int i = 0; i < w->count; ++i) {
        const float *mem = w->memory[i].value;
        bool finite = steer_vec2_is_finite(w->out[i].linear) && isfinite(w->out[i].angular);
        for (int k = 0; k < STEER_MAX_TREE_MEMORY; ++k) finite = finite && isfinite(mem[k]);
        uint32_t s = w->slot_of[i];
        if (!SNAP_NEED(r, steer__agent_kinematic_is_valid(&w->state[i]) && steer__agent_limits_are_valid(&w->limits[i]) && finite,
                       "an agent's state, limits or memory is out of range") ||
            !SNAP_NEED(r, s < (uint32_t)w->slot_count && w->slots[s].alive && w->slots[s].dense == (uint32_t)i,
                       "an agent's slot is not its own"))
            return false;
    }
    int alive = 0, dead = 0, seen = 0;
    for (int s = 0; s < w->slot_count; ++s) {
        alive += w->slots[s].alive, dead += !w->slots[s].alive;
        if (!SNAP_NEED(r, w->slots[s].generation != 0, "a slot's generation is 0")) return false;
    }
    if (!SNAP_NEED(r, alive == w->count, "the live slots and the agents differ")) return false;
    for (uint32_t s = w->free_slot; s != 0 && seen <= dead; s = w->slots[s - 1].dense, ++seen) {
        if (!SNAP_NEED(r, s <= (uint32_t)w->slot_count && !w->slots[s - 1].alive, "the free slots do not form a list"))
            return false;
    }
    return SNAP_NEED(r, seen == dead, "the free slots do not form a list");
}

static bool read_agents(snap_reader *r, steer_world *w, const snap_refs *refs)
{
    r->part = "the agents";
    int n = snap_rcount(r, 0, w->capacity);
    if (!r->ok) return false;
    memset(w->behaviour, 0, sizeof *w->behaviour * (size_t)n);
    memset(w->plan, 0, sizeof *w->plan * (size_t)n); // read after the columns (read_plans)
    memset(w->user_data, 0, sizeof *w->user_data * (size_t)n); // the embedder's, not saved: NULL
    w->count = n; // from here on the world releases the behaviours read
    ++w->trees_version;
    int ncol = snap_rcount(r, 9, 64);
    bool seen[64] = {false};
    char name[64];
    for (int k = 0; k < ncol && r->ok; ++k) {
        snap_rstr(r, name, sizeof name);
        uint32_t size = snap_ru32(r), word = snap_ru8(r);
        int c = r->ok ? column_named(name) : -1;
        if (c < 0) {
            snap_fail(r, "the snapshot holds agents' '%s', which this engine does not have", name);
            break;
        }
        const store_column_info *ci = steer__store_column_info(c);
        if (!SNAP_NEED(r, ci->size == size && (uint32_t)ci->word == word && !seen[c], "a column differs from this engine's"))
            break;
        seen[c] = true;
        if (word > 0) {
            snap_rwords(r, steer__store_column_data(w, c), (size_t)n, size, (int)word);
            continue;
        }
        for (int i = 0; i < n && r->ok; ++i) {
            uint32_t b = snap_ru32(r);
            if (SNAP_NEED(r, b <= (uint32_t)refs->behaviour_count, "an agent's behaviour is missing"))
                w->behaviour[i] = b > 0 ? steer_behaviour_retain(refs->behaviours[b - 1]) : NULL;
        }
    }
    for (int c = 0; c < steer__store_column_count() && r->ok; ++c) {
        if (column_saved(steer__store_column_info(c)) && !seen[c])
            snap_fail(r, "the snapshot lacks the agents' '%s' (written by another engine)", steer__store_column_info(c)->name);
    }
    return r->ok && agents_ok(r, w);
}

// Each agent's plan, after the columns (its behaviour known).
static bool read_plans(snap_reader *r, steer_world *w, const snap_refs *refs)
{
    r->part = "the plans";
    for (int i = 0; i < w->count && r->ok; ++i) steer__snapshot_read_plan(r, &w->plan[i], w->behaviour[i], refs);
    return r->ok;
}

static bool read_payload(snap_reader *r, steer_world **out, snap_refs *refs, const steer_restore_def *rd)
{
    const void *host;
    size_t host_size;
    if (!read_host(r, &host, &host_size)) return false;
    steer_world *w = read_world(r, rd);
    if (w == NULL) return false;
    *out = w;
    if (!read_slots(r, w) || !read_paths(r, refs) || !read_behaviours(r, refs, rd) || !read_agents(r, w, refs) ||
        !read_plans(r, w, refs) || !steer__snapshot_read_shapes(r, w) || !steer__snapshot_read_formations(r, w, refs))
        return false;
    if (r->pos != r->size) return snap_fail(r, "damaged snapshot: %zu bytes follow its end", r->size - r->pos);
    // traces are buffers of their own: the flag comes back, the buffer is made
    for (int i = 0; i < w->count; ++i) {
        if (!(w->flags[i] & AGENT_TRACE)) continue;
        w->flags[i] &= (uint8_t)~AGENT_TRACE;
        if (!steer_agent_set_trace(w, steer__store_id_of(w, i), true)) return snap_fail(r, "not enough memory for a trace");
    }
    // the counts of agents off the default layers and floors (and priority)
    steer__agent_recount(w);
    // the shapes' broadphase is built now, outside any step (as a query would)
    steer__geometry_ready(w);
    w->grid.dirty = true;
    ++w->limits_version;
    return true;
}

steer_world *steer_world_restore(const void *bytes, size_t size, const steer_restore_def *def,
                                 steer_snapshot_error *error)
{
    steer_restore_def defaults = steer_default_restore_def();
    if (def == NULL) def = &defaults;
    snap_reader r;
    if (!read_header(&r, bytes, size, error)) return NULL;
    if (!restore_def_ok(&r, def)) return NULL;
    snap_refs refs;
    memset(&refs, 0, sizeof refs);
    steer_world *w = NULL;
    bool ok = read_payload(&r, &w, &refs, def);
    // the new world holds what it uses; the lists' own references go
    for (int k = 0; k < refs.behaviour_count; ++k) steer_behaviour_release(refs.behaviours[k]);
    for (int k = 0; k < refs.path_count; ++k) steer_path_release(refs.paths[k]);
    refs_free(&refs);
    if (!ok) {
        steer_world_destroy(w);
        return NULL;
    }
    return w;
}
