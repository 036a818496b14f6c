/* Reads a layout and a stream of steps (per step 2N little-endian 32-bit floats: x, y of each
 * agent in layout order; the first record is the start) and prints the measurement line.
 * Usage: steer-lua steer_driver.lua ... | measure_stream LAYOUT.txt ENGINE PREF SEED */
#include "measure.h"

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: measure_stream LAYOUT.txt ENGINE PREF SEED < steps\n");
        return 2;
    }
    hl_layout L;
    hl_measure m;
    hl_read_layout(argv[1], &L);
    hl_measure_init(&m, &L);
    float *buf = (float *)malloc((size_t)L.n * 2 * sizeof(float));
    double *xy = (double *)malloc((size_t)L.n * 2 * sizeof(double));
    long k = 0;
    while (fread(buf, sizeof(float), (size_t)L.n * 2, stdin) == (size_t)L.n * 2) {
        for (int i = 0; i < 2 * L.n; i++) xy[i] = buf[i];
        hl_measure_step(&m, (double)k * L.dt, xy);
        k++;
    }
    long expected = lround(L.time_limit / L.dt) + 1;
    if (k != expected) {
        fprintf(stderr, "measure_stream: %s: %ld records, expected %ld\n", L.name, k, expected);
        return 1;
    }
    hl_measure_print(&m, stdout, argv[2], argv[3], atoi(argv[4]));
    return 0;
}
