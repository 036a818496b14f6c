// log.c: the host of a Lua state, its log lines and its error slot
// (last_error). The floor every other host file stands on: it calls
// nothing of the host.
#include "host_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

steer_host *steer_host__of(lua_State *L)
{
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return ud;
}

void steer_host__log(steer_host *host, steer_host_log_level level, const char *fmt, ...)
{
    if (host->def.log == NULL) return;
    char line[HOST_ERROR_MAX + 256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    host->def.log(host->def.log_context, level, line);
}

// Keep `file:line: message`: tracebacks of Lua behaviours are cut off.
void steer_host__set_error(steer_host *host, const char *msg)
{
    if (msg == NULL) msg = "unknown error";
    size_t n = strcspn(msg, "\n");
    if (n >= sizeof host->error) n = sizeof host->error - 1;
    memcpy(host->error, msg, n);
    host->error[n] = '\0';
    host->has_error = true;
}
