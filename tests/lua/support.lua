-- support.lua: helpers shared by the specs (on LUA_PATH through ctest).
local support = {}

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

return support
