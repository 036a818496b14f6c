// steer-bench rays: placeholder until static geometry lands (issue 3).
#include "bench.h"

#include <stdio.h>

int bench_rays(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "steer-bench rays: not built yet\n");
    return 2;
}
