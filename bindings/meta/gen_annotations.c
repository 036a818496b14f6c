// gen_annotations: writes the Lua language-server definition file of the
// `steer` module (bindings/library/steer.lua) from two sources:
//   - the engine's reflected tables: behaviour parameters
//     (steer_behaviour_param_count, steer_behaviour_param,
//     steer_behaviour_type_name, the defaults of steer_default_behaviour_def):
//     every behaviour's options class, class and constructor; and the world,
//     agent and formation definitions (steer_def_field): the numeric options
//     of steer.world, world:spawn and steer.formation. No option can be
//     missing, renamed or mistyped;
//   - the hand-written part (bindings/meta/steer.meta.lua): everything not
//     reflected (world, agent, shape, path, module functions, combinators'
//     list syntax) plus `--@@` directive lines that this program consumes:
//       --@@ behaviours                   where the generated classes go
//       --@@ summary <type> <text>        one per behaviour type (required)
//       --@@ param <name> <text>          one per reflected parameter (required)
//       --@@ param <name>:<types> <text>  its description for those types only
//       --@@ option|property|field <types> <name> <lua type> <text>
//                                         what the binding adds to a type:
//                                         option = constructor only,
//                                         property = object only, field = both
//       --@@ manual <type>                its constructor is written by hand
//       --@@ def <world|agent|formation> [<prefix>]
//                                         where a definition's reflected fields
//                                         go, as options (prefix: a nested
//                                         table's, "anchor.")
//       --@@ doc <def>.<field> <text>     one per reflected definition field
//                                         (required); a text with "Default:"
//                                         keeps its own default
//     <types> is `*` or a comma-separated list of type names. `@VERSION@`
//     becomes steer_version().
// A type or parameter without its line, or a line naming nothing, fails the
// build: the annotations cannot drift from the engine.
//
// usage: gen_annotations <hand-written part> <output>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "steer/steer.h"

#define MAX_LINES 4096
#define MAX_DIRECTIVES 512
#define LINE_SIZE 1024
#define N_TYPES STEER_BEHAVIOUR_TYPE_COUNT

typedef enum { D_SUMMARY, D_PARAM, D_OPTION, D_PROPERTY, D_FIELD, D_MANUAL, D_DOC } directive_kind;

typedef struct directive {
    directive_kind kind;
    int line;             ///< 1-based, for messages
    bool types[N_TYPES];  ///< the types it applies to
    char name[64];        ///< parameter or field name
    char lua_type[192];   ///< option/property/field
    char text[LINE_SIZE]; ///< description
    bool specific;        ///< param: for the listed types only
    bool used;
} directive;

static const char *input_path;
static char *lines[MAX_LINES];
static int line_count;
static directive directives[MAX_DIRECTIVES];
static int directive_count;

static void fail(int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (line > 0) fprintf(stderr, "%s:%d: ", input_path, line);
    else fprintf(stderr, "%s: ", input_path);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static int type_of(const char *name)
{
    for (int t = 0; t < N_TYPES; ++t) {
        if (strcmp(steer_behaviour_type_name((steer_behaviour_type)t), name) == 0) return t;
    }
    return -1;
}

// "seek,flee" or "*" into a type mask.
static void parse_types(int line, char *list, bool *types)
{
    if (strcmp(list, "*") == 0) {
        for (int t = 0; t < N_TYPES; ++t) types[t] = true;
        return;
    }
    for (char *name = strtok(list, ","); name != NULL; name = strtok(NULL, ",")) {
        int t = type_of(name);
        if (t < 0) fail(line, "no behaviour type '%s'", name);
        types[t] = true;
    }
}

// Split off the next space-separated word of *s (NULL when none).
static char *word(char **s)
{
    while (**s == ' ') ++*s;
    if (**s == '\0') return NULL;
    char *w = *s;
    while (**s != '\0' && **s != ' ') ++*s;
    if (**s == ' ') *(*s)++ = '\0';
    return w;
}

static void copy(char *dst, size_t size, const char *src, int line)
{
    if (src == NULL) fail(line, "incomplete directive");
    if (strlen(src) >= size) fail(line, "directive field too long");
    strcpy(dst, src);
}

static void parse_directive(int line, char *rest)
{
    if (directive_count == MAX_DIRECTIVES) fail(line, "too many directives");
    directive *d = &directives[directive_count];
    memset(d, 0, sizeof *d);
    d->line = line;
    char *kind = word(&rest);
    if (kind == NULL) fail(line, "empty directive");
    if (strcmp(kind, "behaviours") == 0) return; // a placement, kept in the text
    if (strcmp(kind, "def") == 0) {
        if (rest > kind + 3) kind[3] = ' '; // a placement: the line as written, for main
        return;
    }
    if (strcmp(kind, "summary") == 0 || strcmp(kind, "manual") == 0) {
        d->kind = kind[0] == 's' ? D_SUMMARY : D_MANUAL;
        char *t = word(&rest);
        if (t == NULL) fail(line, "%s needs a type", kind);
        parse_types(line, t, d->types);
    } else if (strcmp(kind, "param") == 0) {
        d->kind = D_PARAM;
        copy(d->name, sizeof d->name, word(&rest), line);
        // name:types narrows it; a plain name is for every type
        char *colon = strchr(d->name, ':');
        if (colon != NULL) {
            *colon = '\0';
            parse_types(line, colon + 1, d->types);
            d->specific = true;
        } else {
            for (int t = 0; t < N_TYPES; ++t) d->types[t] = true;
        }
    } else if (strcmp(kind, "doc") == 0) {
        d->kind = D_DOC;
        copy(d->name, sizeof d->name, word(&rest), line);
        for (int t = 0; t < N_TYPES; ++t) d->types[t] = true;
    } else if (strcmp(kind, "option") == 0 || strcmp(kind, "property") == 0 || strcmp(kind, "field") == 0) {
        d->kind = kind[0] == 'o' ? D_OPTION : kind[1] == 'r' ? D_PROPERTY : D_FIELD;
        char *t = word(&rest);
        if (t == NULL) fail(line, "%s needs types", kind);
        parse_types(line, t, d->types);
        copy(d->name, sizeof d->name, word(&rest), line);
        copy(d->lua_type, sizeof d->lua_type, word(&rest), line);
    } else {
        fail(line, "unknown directive '%s'", kind);
    }
    while (*rest == ' ') ++rest;
    copy(d->text, sizeof d->text, rest, line);
    if (d->kind != D_MANUAL && d->text[0] == '\0') fail(line, "%s needs a description", kind);
    ++directive_count;
}

static void read_input(void)
{
    FILE *f = fopen(input_path, "r");
    if (f == NULL) fail(0, "cannot open: %s", strerror(errno));
    char buf[LINE_SIZE];
    while (fgets(buf, sizeof buf, f) != NULL) {
        size_t n = strlen(buf);
        if (n > 0 && buf[n - 1] != '\n' && !feof(f)) fail(line_count + 1, "line too long");
        while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r')) buf[--n] = '\0';
        if (line_count == MAX_LINES) fail(line_count, "too many lines");
        lines[line_count] = malloc(n + 1);
        if (lines[line_count] == NULL) fail(0, "out of memory");
        memcpy(lines[line_count], buf, n + 1);
        ++line_count;
        if (strncmp(buf, "--@@ ", 5) == 0) parse_directive(line_count, lines[line_count - 1] + 5);
    }
    fclose(f);
}

// The first directive of a kind for a type (and name); a type-specific one
// before a general one.
static const directive *find(directive_kind kind, int type, const char *name)
{
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < directive_count; ++i) {
            directive *d = &directives[i];
            if (d->kind != kind || d->specific != (pass == 0)) continue;
            if (type >= 0 && !d->types[type]) continue;
            if (name != NULL && strcmp(d->name, name) != 0) continue;
            d->used = true;
            return d;
        }
    }
    return NULL;
}

/* ---- values -------------------------------------------------------------------------- */

// The shortest decimal that reads back as the same float (0.1, not 0.100000001).
static void format_float(char *buf, size_t size, float v)
{
    if (v == (float)(long long)v && v > -1e15f && v < 1e15f) { // whole: 10, not 1e+01
        snprintf(buf, size, "%lld", (long long)v);
        return;
    }
    for (int prec = 1; prec <= 9; ++prec) {
        snprintf(buf, size, "%.*g", prec, (double)v);
        if (strtof(buf, NULL) == v) return;
    }
}

// The default of a parameter as Lua source ("0.5", "false", "\"linear\"", "nil").
static void format_default(char *buf, size_t size, const steer_behaviour_def *d, const steer_param_info *p)
{
    double v = steer_param_get(d, p);
    if (p->kind == STEER_PARAM_BOOL) snprintf(buf, size, "%s", v != 0.0 ? "true" : "false");
    else if (p->kind == STEER_PARAM_ENUM) snprintf(buf, size, "\"%s\"", p->choices[(int)v]);
    else if (p->kind == STEER_PARAM_LIMIT && !steer_param_is_set(d, p)) snprintf(buf, size, "nil (the agent's limit)");
    else if (p->kind == STEER_PARAM_OPTIONAL && !steer_param_is_set(d, p)) snprintf(buf, size, "nil (unset)");
    else format_float(buf, size, (float)v);
}

// The Lua type of a parameter's value; nullable ones get a `?` as properties.
static void format_lua_type(char *buf, size_t size, const steer_param_info *p, bool property)
{
    switch (p->kind) {
    case STEER_PARAM_BOOL: snprintf(buf, size, "boolean"); break;
    case STEER_PARAM_ENUM: {
        size_t n = 0;
        buf[0] = '\0';
        for (int i = 0; p->choices[i] != NULL; ++i)
            n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s\"%s\"", i > 0 ? "|" : "", p->choices[i]);
        break;
    }
    case STEER_PARAM_LIMIT:
    case STEER_PARAM_OPTIONAL: snprintf(buf, size, property ? "number?" : "number"); break;
    default: snprintf(buf, size, "number"); break;
    }
}

static const char *rule_text(const steer_param_info *p)
{
    if (p->kind == STEER_PARAM_BOOL || p->kind == STEER_PARAM_ENUM) return NULL;
    switch (p->rule) {
    case STEER_RULE_NONNEGATIVE: return ">= 0";
    case STEER_RULE_POSITIVE: return "> 0";
    case STEER_RULE_COSINE: return "in [-1, 1]";
    case STEER_RULE_UNIT: return "in (0, 1]";
    default: return "any finite number";
    }
}

/* ---- output ----------------------------------------------------------------------------- */

// "look_where_you_are_going" -> "LookWhereYouAreGoing"
static void class_name(char *buf, size_t size, int type)
{
    const char *n = steer_behaviour_type_name((steer_behaviour_type)type);
    size_t j = 0;
    bool up = true;
    for (; *n != '\0' && j + 1 < size; ++n) {
        if (*n == '_') {
            up = true;
            continue;
        }
        buf[j++] = up ? (char)toupper((unsigned char)*n) : *n;
        up = false;
    }
    buf[j] = '\0';
}

static void param_field(FILE *out, int type, const steer_param_info *p, bool property)
{
    const directive *doc = find(D_PARAM, type, p->name);
    if (doc == NULL) fail(0, "no '--@@ param %s <text>' line for the reflected parameter '%s' (of %s)", p->name,
                          p->name, steer_behaviour_type_name((steer_behaviour_type)type));
    steer_behaviour_def d = steer_default_behaviour_def((steer_behaviour_type)type);
    char lua_type[256], def[64];
    format_lua_type(lua_type, sizeof lua_type, p, property);
    format_default(def, sizeof def, &d, p);
    fprintf(out, "---@field %s%s %s %s", p->name, property ? "" : "?", lua_type, doc->text);
    if (p->unit != NULL && p->unit[0] != '\0') fprintf(out, " Unit: %s.", p->unit);
    fprintf(out, " Default: %s.", def);
    const char *rule = rule_text(p);
    if (rule != NULL) fprintf(out, " Range: %s.", rule);
    fputc('\n', out);
}

static void extra_fields(FILE *out, int type, bool property)
{
    for (int i = 0; i < directive_count; ++i) {
        directive *d = &directives[i];
        if (!d->types[type]) continue;
        if (d->kind != D_FIELD && d->kind != (property ? D_PROPERTY : D_OPTION)) continue;
        d->used = true;
        // an option is optional already: `target? steer.Target`, not `target? steer.Target?`
        bool index = d->name[0] == '[';
        int len = (int)strlen(d->lua_type);
        if (!property && len > 1 && d->lua_type[len - 1] == '?') --len;
        fprintf(out, "---@field %s%s %.*s %s\n", d->name, property || index ? "" : "?", len, d->lua_type, d->text);
    }
}

static void behaviour_section(FILE *out, int type)
{
    const char *name = steer_behaviour_type_name((steer_behaviour_type)type);
    char cls[64];
    class_name(cls, sizeof cls, type);
    const directive *summary = find(D_SUMMARY, type, NULL);
    if (summary == NULL) fail(0, "no '--@@ summary %s <text>' line for the behaviour type '%s'", name, name);
    int n = steer_behaviour_param_count((steer_behaviour_type)type);

    fprintf(out, "---Options of `steer.%s{...}`; the named ones are afterwards live properties of `steer.%s`.\n", name,
            cls);
    fprintf(out, "---@class steer.%sOptions\n", cls);
    extra_fields(out, type, false);
    for (int i = 0; i < n; ++i) param_field(out, type, steer_behaviour_param((steer_behaviour_type)type, i), false);
    fprintf(out, "\n");

    fprintf(out, "---%s\n", summary->text);
    fprintf(out, "---@class steer.%s: steer.BehaviourBase\n", cls);
    fprintf(out, "---@field type \"%s\" The constructor's name (read-only).\n", name);
    extra_fields(out, type, true);
    for (int i = 0; i < n; ++i) param_field(out, type, steer_behaviour_param((steer_behaviour_type)type, i), true);
    fprintf(out, "\n");

    if (find(D_MANUAL, type, NULL) != NULL) return; // written in the hand-written part
    fprintf(out, "---%s\n", summary->text);
    fprintf(out, "---@param options? steer.%sOptions\n", cls);
    fprintf(out, "---@return steer.%s\n", cls);
    fprintf(out, "function steer.%s(options) end\n\n", name);
}

/* ---- definitions' fields ------------------------------------------------------------------ */

static const char *const def_names[STEER_DEF_TYPE_COUNT] = {"world", "agent", "formation"};

// The default definition of a kind, in a buffer big enough for any of them.
static const void *default_def(steer_def_type t, void *buf)
{
    if (t == STEER_DEF_WORLD) *(steer_world_def *)buf = steer_default_world_def();
    else if (t == STEER_DEF_AGENT) *(steer_agent_def *)buf = steer_default_agent_def();
    else *(steer_formation_def *)buf = steer_default_formation_def();
    return buf;
}

// `--@@ def <kind> [<prefix>]`: the options of a definition's reflected fields.
static void def_fields(FILE *out, int line, char *rest)
{
    char *kind = word(&rest), *prefix = word(&rest);
    int t = 0;
    while (t < STEER_DEF_TYPE_COUNT && (kind == NULL || strcmp(def_names[t], kind) != 0)) ++t;
    if (t == STEER_DEF_TYPE_COUNT) fail(line, "no definition '%s'", kind != NULL ? kind : "");
    size_t plen = prefix != NULL ? strlen(prefix) : 0;
    union {
        steer_world_def w;
        steer_agent_def a;
        steer_formation_def f;
    } buf;
    const void *d = default_def((steer_def_type)t, &buf);
    for (int i = 0; i < steer_def_field_count((steer_def_type)t); ++i) {
        const steer_field_info *f = steer_def_field((steer_def_type)t, i);
        bool nested = strchr(f->name, '.') != NULL;
        if (prefix == NULL ? nested : strncmp(f->name, prefix, plen) != 0) continue;
        char full[128], type[256], value[64], lo[32], hi[32];
        snprintf(full, sizeof full, "%s.%s", def_names[t], f->name);
        const directive *doc = find(D_DOC, -1, full);
        if (doc == NULL) fail(line, "no '--@@ doc %s <text>' line for the reflected field '%s'", full, full);
        double v = steer_def_get_field(d, f);
        type[0] = '\0';
        switch (f->kind) {
        case STEER_FIELD_BOOL:
            snprintf(type, sizeof type, "boolean");
            snprintf(value, sizeof value, "%s", v != 0.0 ? "true" : "false");
            break;
        case STEER_FIELD_ENUM:
            for (size_t n = 0, c = 0; f->choices[c] != NULL; ++c)
                n += (size_t)snprintf(type + n, n < sizeof type ? sizeof type - n : 0, "%s\"%s\"", c > 0 ? "|" : "",
                                      f->choices[c]);
            snprintf(value, sizeof value, "\"%s\"", f->choices[(int)v]);
            break;
        case STEER_FIELD_INT:
        case STEER_FIELD_UINT64:
        case STEER_FIELD_BITS:
            snprintf(type, sizeof type, "integer");
            snprintf(value, sizeof value, "%lld", (long long)steer_def_get_integer(d, f));
            break;
        default:
            snprintf(type, sizeof type, "number");
            format_float(value, sizeof value, (float)v);
            break;
        }
        fprintf(out, "---@field %s? %s %s", f->name + plen, type, doc->text);
        if (f->unit[0] != '\0') fprintf(out, " Unit: %s.", f->unit);
        if (strstr(doc->text, "Default:") == NULL) fprintf(out, " Default: %s.", value);
        if (f->min < f->max)
            fprintf(out, " Range: %s to %s.", steer_format_limit(f->min, lo, sizeof lo),
                    steer_format_limit(f->max, hi, sizeof hi));
        fputc('\n', out);
    }
}

static void write_line(FILE *out, const char *line)
{
    const char *at = strstr(line, "@VERSION@");
    if (at == NULL) {
        fprintf(out, "%s\n", line);
        return;
    }
    fprintf(out, "%.*s%s%s\n", (int)(at - line), line, steer_version(), at + strlen("@VERSION@"));
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s <hand-written part> <output>\n", argv[0]);
        return 2;
    }
    input_path = argv[1];
    read_input();
    // write to a temporary name, so a failure never leaves a half file
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", argv[2]);
    FILE *out = fopen(tmp, "w");
    if (out == NULL) fail(0, "cannot write %s: %s", tmp, strerror(errno));
    bool placed = false;
    for (int i = 0; i < line_count; ++i) {
        // after `---@meta steer`, which stays the first line
        if (i == 1)
            fprintf(out, "-- Generated by bindings/meta/gen_annotations.c from the engine's reflected\n"
                         "-- parameter table and bindings/meta/steer.meta.lua: edit those, not this.\n");
        if (strncmp(lines[i], "--@@ ", 5) != 0) {
            write_line(out, lines[i]);
        } else if (strncmp(lines[i], "--@@ def ", 9) == 0) {
            char copy_of[LINE_SIZE];
            snprintf(copy_of, sizeof copy_of, "%s", lines[i] + 9);
            def_fields(out, i + 1, copy_of);
        } else if (strcmp(lines[i], "--@@ behaviours") == 0) {
            for (int t = 0; t < N_TYPES; ++t) behaviour_section(out, t);
            placed = true;
        }
    }
    if (!placed) fail(0, "no '--@@ behaviours' line");
    // a line that matched nothing is stale documentation
    for (int i = 0; i < directive_count; ++i) {
        if (!directives[i].used) fail(directives[i].line, "this directive matches no behaviour or parameter (or definition field)");
    }
    if (fclose(out) != 0 || rename(tmp, argv[2]) != 0) fail(0, "cannot write %s: %s", argv[2], strerror(errno));
    for (int i = 0; i < line_count; ++i) free(lines[i]);
    return 0;
}
