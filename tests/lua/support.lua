-- support.lua: helpers shared by the specs (on LUA_PATH through ctest).
local support = {}

--- What differs between the Lua versions the specs run under (docs/lua-api.md,
--- "Lua versions"): the specs branch on these, they skip nothing.
support.lua = {
  name = rawget(_G, "jit") and rawget(_G, "jit").version or _VERSION, -- "LuaJIT 2.1.0-beta3", "Lua 5.4"
  integers = math.type ~= nil,           -- 5.3 on: an integer subtype (3 and 3.0 print differently)
  close = _VERSION == "Lua 5.4",         -- `local x <close>` calls __close
  -- the words of a yield from a Lua behaviour inside world:step
  yield_message = rawget(_G, "jit") and "attempt to yield across C-call boundary"
    or _VERSION == "Lua 5.1" and "attempt to yield across metamethod/C-call boundary"
    or "attempt to yield across a C-call boundary",
}

--- load of a string chunk (5.1: loadstring)
support.load = rawget(_G, "loadstring") or load

--- The message of the error f(...) raises, without its "file:line: " prefix.
function support.err(f, ...)
  local ok, e = pcall(f, ...)
  assert(not ok, "expected an error, got none")
  return (tostring(e):gsub("^[^\n]-:%d+: ", "", 1))
end

--- The limits of the engine's C behaviour tests (tests/c/fixture.h).
function support.limits(t)
  t = t or {}
  t.max_speed = t.max_speed or 5
  t.max_acceleration = t.max_acceleration or 10
  t.max_rotation = t.max_rotation or math.pi
  t.max_angular_acceleration = t.max_angular_acceleration or 100
  return t
end

--- Spawn at (x, y) with velocity (vx, vy) and the test limits.
function support.spawn(world, x, y, vx, vy, extra)
  local t = support.limits(extra)
  t.x, t.y, t.vx, t.vy = x, y, vx or 0, vy or 0
  return world:spawn(t)
end

--- For the check scripts (not specs): check(ok, fmt, ...) writes the
--- message to stderr when ok is false, and failures() counts them.
function support.checker()
  local count = 0
  local function check(ok, fmt, ...)
    if not ok then
      count = count + 1
      io.stderr:write(string.format(fmt, ...), "\n")
    end
  end
  return check, function() return count end
end

return support
