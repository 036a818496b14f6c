-- LuaRocks package of the `steer` Lua module from the development tree
-- (whatever the checkout holds), built with the project's CMake build:
--   luarocks --lua-version=5.4 make (or 5.1, 5.3; LuaJIT: 5.1) --tree <dir> steer-scm-1.rockspec
-- steer-<version>-1.rockspec is the one for the release in CMakeLists.txt.
rockspec_format = "3.0"
package = "steer"
version = "scm-1"
source = {
   -- No public repository yet: `luarocks make` builds the checkout it runs
   -- in and never fetches this. Set the repository's URL when there is one.
   url = ".",
}
description = {
   summary = "Steering behaviours for game AI: a C11 engine with Lua bindings (5.1, LuaJIT, 5.2, 5.3, 5.4)",
   detailed = [[
steer moves agents with the classic steering behaviours (seek, arrive, pursue,
wander, path following, separation, obstacle avoidance...), composed with
weighted blends and priorities. The engine is C11; every behaviour is a C
object that Lua sees as userdata with live, typed properties. The rock
installs the `steer` C module and its Lua language-server annotations.
]],
   -- no public home page yet
   homepage = "",
   license = "MIT",
   labels = { "gameai", "steering", "ai" },
}
dependencies = {
   -- one source for Lua 5.1, LuaJIT 2.1, 5.2, 5.3 and 5.4 (bindings/compat.h;
   -- before 5.3 it needs lua-compat-5.3's header, Debian's lua-compat53-dev)
   "lua >= 5.1, < 5.5",
}
build = {
   type = "cmake",
   variables = {
      CMAKE_BUILD_TYPE = "Release",
      CMAKE_INSTALL_PREFIX = "$(PREFIX)",
      -- the Lua module only: no tests, demos, benchmark or C library install
      BUILD_SHARED_LIBS = "OFF",
      STEER_BUILD_TESTS = "OFF",
      STEER_BUILD_DEMOS = "OFF",
      STEER_BUILD_BENCH = "OFF",
      STEER_INSTALL_ENGINE = "OFF",
      STEER_INSTALL_LUA_CMOD_DIR = "$(LIBDIR)",
      LUA_INCLUDE_DIR = "$(LUA_INCDIR)",
      -- steer.so for the Lua LuaRocks runs: the version of its lua.h
      STEER_LUA = "auto",
      STEER_LUA_INCLUDE_DIR = "$(LUA_INCDIR)",
   },
}
