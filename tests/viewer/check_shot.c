// check_shot: the screenshot of tests/viewer/known_scene.lua has agent
// pixels where the world-to-screen transform puts the agents, and
// background elsewhere. Compared with a tolerance (a few pixels around each
// expected place, a colour distance), not a hash.
//   check_shot shot.png
//   check_shot --red-status shot.png   (the HUD shows an error line in red)
//   check_shot --colors shot.png       (tests/viewer/known_colors.lua: agent.color, a role's colour)
//   check_shot --bright-at X Y shot.png (an agent drawn around pixel X, Y)
//   check_shot --selection-centred shot.png (the selection ring's centre at the picture's)
//   check_shot --fit shot.png           (tests/viewer/fit_scene.lua: the box, the path and the agents in view)
#include <SDL.h>
#include <SDL_image.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

static SDL_Surface *shot;

static void pixel(int x, int y, int *r, int *g, int *b)
{
    const Uint8 *p = (const Uint8 *)shot->pixels + y * shot->pitch + x * 4;
    Uint8 cr, cg, cb;
    SDL_GetRGB(*(const Uint32 *)p, shot->format, &cr, &cg, &cb);
    *r = cr, *g = cg, *b = cb;
}

// Bright pixels (agents are drawn light on a dark background) within tol
// pixels of (x, y).
static int bright_near(int x, int y, int tol)
{
    int n = 0;
    for (int dy = -tol; dy <= tol; ++dy) {
        for (int dx = -tol; dx <= tol; ++dx) {
            int px = x + dx, py = y + dy, r, g, b;
            if (px < 0 || py < 0 || px >= shot->w || py >= shot->h) continue;
            pixel(px, py, &r, &g, &b);
            n += r + g + b > 300;
        }
    }
    return n;
}

// Red text in the HUD's corner (the viewer's error line).
static int red_status(void)
{
    int n = 0;
    for (int y = 0; y < 90 && y < shot->h; ++y) {
        for (int x = 0; x < shot->w; ++x) {
            int r, g, b;
            pixel(x, y, &r, &g, &b);
            n += r > 200 && g < 120 && b < 120;
        }
    }
    printf("red HUD pixels: %d: %s\n", n, n >= 30 ? "red status ok" : "FAIL");
    return n >= 30 ? 0 : 1;
}

// The mean colour of the pixels around (x, y) that are not background.
static void mean_near(int x, int y, int tol, int *r, int *g, int *b)
{
    long sr = 0, sg = 0, sb = 0, n = 0;
    for (int dy = -tol; dy <= tol; ++dy) {
        for (int dx = -tol; dx <= tol; ++dx) {
            int pr, pg, pb;
            pixel(x + dx, y + dy, &pr, &pg, &pb);
            if (pr + pg + pb < 120) continue; // background (24, 26, 32)
            sr += pr, sg += pg, sb += pb, ++n;
        }
    }
    *r = n ? (int)(sr / n) : 0, *g = n ? (int)(sg / n) : 0, *b = n ? (int)(sb / n) : 0;
}

// known_colors.lua at --camera 0,0,10: red at (-8, 0), blue at (0, 0), and
// the third agent neither of them.
static int colors(void)
{
    int r, g, b, failures = 0;
    mean_near(80, 120, 3, &r, &g, &b);
    printf("agent.color '#ff2020': mean (%d, %d, %d)\n", r, g, b);
    failures += !(r > 200 && g < 80 && b < 80);
    mean_near(160, 120, 3, &r, &g, &b);
    printf("colors.hare '#2060ff': mean (%d, %d, %d)\n", r, g, b);
    failures += !(b > 200 && r < 80 && g > 60 && g < 140);
    mean_near(240, 120, 3, &r, &g, &b);
    printf("no colour: mean (%d, %d, %d)\n", r, g, b);
    failures += !(r + g + b > 300) || (r > 200 && g < 80) || (b > 200 && r < 80);
    printf("%s\n", failures ? "FAIL" : "colors ok");
    return failures ? 1 : 0;
}

// Pixels within a small distance of colour (r, g, b).
static int count_color(int r, int g, int b)
{
    int n = 0;
    for (int y = 0; y < shot->h; ++y) {
        for (int x = 0; x < shot->w; ++x) {
            int pr, pg, pb;
            pixel(x, y, &pr, &pg, &pb);
            n += abs(pr - r) + abs(pg - g) + abs(pb - b) < 24;
        }
    }
    return n;
}

// fit_scene.lua framed: the box's outline (the shapes' colour), the path
// (the paths' colour) and agents, and nothing of them on the border rows
// and columns (not clipped).
static int fit(void)
{
    int shape = count_color(0x8c, 0x9a, 0xa8), path = count_color(0x4a, 0x90, 0xd9), border = 0;
    for (int x = 0; x < shot->w; ++x) border += bright_near(x, 0, 0) + bright_near(x, shot->h - 1, 0);
    for (int y = 0; y < shot->h; ++y) border += bright_near(0, y, 0) + bright_near(shot->w - 1, y, 0);
    printf("shape pixels %d, path pixels %d, bright border pixels %d\n", shape, path, border);
    bool ok = shape >= 20 && path >= 20 && border == 0;
    printf("%s\n", ok ? "fit ok" : "FAIL");
    return ok ? 0 : 1;
}

// The selection ring (yellow) has its centre within 4 px of the picture's.
static int selection_centred(void)
{
    long sx = 0, sy = 0, n = 0;
    for (int y = 0; y < shot->h; ++y) {
        for (int x = 0; x < shot->w; ++x) {
            int r, g, b;
            pixel(x, y, &r, &g, &b);
            if (r > 235 && g > 235 && b < 60) sx += x, sy += y, ++n; // 0xffff00, not the steering arrow (0xffd23a)
        }
    }
    if (n < 10) {
        printf("FAIL: no selection ring (%ld yellow pixels)\n", n);
        return 1;
    }
    double cx = (double)sx / (double)n, cy = (double)sy / (double)n;
    bool ok = fabs(cx - shot->w * 0.5) <= 4.0 && fabs(cy - shot->h * 0.5) <= 4.0;
    printf("selection ring centre (%.1f, %.1f) in %dx%d: %s\n", cx, cy, shot->w, shot->h, ok ? "centred ok" : "FAIL");
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--selection-centred") == 0) {
        SDL_Surface *loaded = IMG_Load(argv[2]);
        if (loaded == NULL) return 1;
        shot = SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_ARGB8888, 0);
        SDL_FreeSurface(loaded);
        return selection_centred();
    }
    if (argc == 5 && strcmp(argv[1], "--bright-at") == 0) {
        SDL_Surface *loaded = IMG_Load(argv[4]);
        if (loaded == NULL) return 1;
        shot = SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_ARGB8888, 0);
        SDL_FreeSurface(loaded);
        int x = atoi(argv[2]), y = atoi(argv[3]), n = bright_near(x, y, 3);
        printf("bright pixels around (%d, %d): %d: %s\n", x, y, n, n >= 10 ? "bright ok" : "FAIL");
        return n >= 10 ? 0 : 1;
    }
    bool fitted = argc == 3 && strcmp(argv[1], "--fit") == 0;
    bool red = argc == 3 && strcmp(argv[1], "--red-status") == 0;
    bool colored = argc == 3 && strcmp(argv[1], "--colors") == 0;
    if (argc != 2 && !red && !colored && !fitted) return 2;
    SDL_Surface *loaded = IMG_Load(argv[argc - 1]);
    if (loaded == NULL) {
        fprintf(stderr, "check_shot: cannot read %s: %s\n", argv[argc - 1], IMG_GetError());
        return 1;
    }
    shot = SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_ARGB8888, 0);
    SDL_FreeSurface(loaded);
    if (red) return red_status();
    if (colored) return colors();
    if (fitted) return fit();
    int failures = 0;
    if (shot->w != 320 || shot->h != 240) {
        fprintf(stderr, "check_shot: %dx%d, expected 320x240\n", shot->w, shot->h);
        return 1;
    }
    // the agents of known_scene.lua, camera 0,0 at 10 px/m
    static const float agents[][2] = {{-10, 5}, {0, 0}, {8, -6}, {12, 8}};
    for (int i = 0; i < 4; ++i) {
        int x = (int)(160 + 10 * agents[i][0]), y = (int)(120 - 10 * agents[i][1]);
        int n = bright_near(x, y, 3);
        printf("agent %d at pixel (%d, %d): %d bright pixels\n", i, x, y, n);
        if (n < 10) ++failures;
    }
    // background: midway between agents and in the corners
    static const int empty[][2] = {{110, 60}, {240, 200}, {20, 220}, {300, 20}, {60, 180}, {200, 100}};
    for (int i = 0; i < 6; ++i) {
        int n = bright_near(empty[i][0], empty[i][1], 3);
        printf("background at (%d, %d): %d bright pixels\n", empty[i][0], empty[i][1], n);
        if (n != 0) ++failures;
    }
    SDL_FreeSurface(shot);
    printf("%s\n", failures ? "FAIL" : "ok");
    return failures ? 1 : 0;
}
