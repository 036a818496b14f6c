// The version: steer_version() (the library), STEER_VERSION_* (the headers)
// and the CMake project version (passed by tests/CMakeLists.txt) agree.
#include <stdio.h>
#include <string.h>

#include "steer/steer.h"
#include "test.h"

static void library_is_project_version(void)
{
    CHECK(strcmp(steer_version(), STEER_TEST_PROJECT_VERSION) == 0);
    CHECK(strcmp(steer_version(), STEER_VERSION_STRING) == 0);
}

static void parts_make_the_string(void)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%d.%d.%d", STEER_VERSION_MAJOR, STEER_VERSION_MINOR, STEER_VERSION_PATCH);
    CHECK(strcmp(buf, steer_version()) == 0);
}

int main(void)
{
    RUN(library_is_project_version);
    RUN(parts_make_the_string);
    return TEST_RESULT();
}
