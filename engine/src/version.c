// version.c: the library's version, from the header CMake generates
// (engine/include/steer/version.h.in), so it is the project version.
#include "steer/steer.h"

const char *steer_version(void) { return STEER_VERSION_STRING; }
