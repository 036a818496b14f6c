-- luacheck (Debian: lua-check) over every Lua file of scripts/, tests/ and
-- demos/: the ctest lint.luacheck, run by `make test`. Fix the code, not this
-- file; only documented globals belong here.
std = "lua54"
max_line_length = 120

-- busted specs: describe, it, assert.are.equal, ...
files["tests/**/*_spec.lua"] = { std = "+busted" }
files["tests/lua/support.lua"] = { std = "+busted" }

-- scripts run by the script host see the module as the global `steer`, in
-- the sandbox too (issue 10, docs/embedding.md); `require "steer"` also works
files["scripts/**/*.lua"] = { read_globals = { "steer", "camera" } }
-- the script host's camera{ x, y, zoom, span, fit } (docs/embedding.md, "Camera")
files["tests/viewer/camera_call.lua"] = { read_globals = { "camera" } }

-- the reload test's broken version: a syntax error on purpose (the viewer
-- must show it and keep running)
exclude_files = { "tests/viewer/reload_broken.lua" }

-- the LÖVE game (LuaJIT): it defines love.load, love.update, love.draw, ...
files["demos/love/**/*.lua"] = { std = "luajit", globals = { "love" } }
