// bind.h: the module's private header under its old name, for the script
// host until it uses only steer/steer_lua.h (see runtime.h).
#ifndef STEER_BIND_H
#define STEER_BIND_H

#include "runtime.h"

#endif
