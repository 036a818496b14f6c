// check_shot: the screenshot of tests/viewer/known_scene.lua has agent
// pixels where the world-to-screen transform puts the agents, and
// background elsewhere. Compared with a tolerance (a few pixels around each
// expected place, a colour distance), not a hash.
//   check_shot shot.png
//   check_shot --red-status shot.png   (the HUD shows an error line in red)
//   check_shot --colors shot.png       (tests/viewer/known_colors.lua: agent.color, a role's colour)
#include <SDL.h>
#include <SDL_image.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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

int main(int argc, char **argv)
{
    bool red = argc == 3 && strcmp(argv[1], "--red-status") == 0;
    bool colored = argc == 3 && strcmp(argv[1], "--colors") == 0;
    if (argc != 2 && !red && !colored) return 2;
    SDL_Surface *loaded = IMG_Load(argv[argc - 1]);
    if (loaded == NULL) {
        fprintf(stderr, "check_shot: cannot read %s: %s\n", argv[argc - 1], IMG_GetError());
        return 1;
    }
    shot = SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_ARGB8888, 0);
    SDL_FreeSurface(loaded);
    if (red) return red_status();
    if (colored) return colors();
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
