-- flock.lua: `steer-bench flock --lua` for any interpreter with steer.so on
-- its cpath (LuaJIT, 5.3, 5.4): the same flock (same hash line as
-- steer-bench's, so the two can be compared), built in Lua and stepped
-- by world:step; then the cost of one call of a behaviour written in Lua.
--   LUA_CPATH="build/bindings/lua-luajit/?.so;;" luajit tests/bench/flock.lua 20000 50
--   build/tests/steer-bench flock --agents 20000 --steps 50        (the C-built flock)
local steer = require "steer"
local n, steps = tonumber(arg[1]) or 20000, tonumber(arg[2]) or 50
local name = rawget(_G, "jit") and rawget(_G, "jit").version or _VERSION

-- bench_flock_spawn's generator: a 64-bit LCG, top 24 bits. 5.3 on: wrapping
-- integers; LuaJIT: the FFI's uint64_t (5.1 and 5.2 have neither).
local next_unit
if math.type then
  local s, A, C = 12345, 6364136223846793005, 1442695040888963407
  -- (compiled only here: the syntax is 5.3's)
  local src = "local s, A, C = ... return function() s = s * A + C; return (s >> 40) / 16777216 end"
  next_unit = assert(load(src))(s, A, C)
elseif rawget(_G, "jit") then
  local ffi, bit = require "ffi", require "bit"
  local u64 = ffi.typeof("uint64_t")
  local s = u64(12345)
  local A = u64(0x5851F42D) * 0x100000000 + 0x4C957F2D -- 6364136223846793005
  local C = u64(0x14057B7E) * 0x100000000 + 0xF767814F -- 1442695040888963407
  next_unit = function() s = s * A + C; return tonumber(bit.rshift(s, 40)) / 16777216 end
else
  print(name .. ": no 64-bit integers, no flock (LuaJIT or Lua 5.3+)")
  os.exit(0)
end

-- bench_flock_side(n) = sqrtf((float)n * STEER_PI * 2 * 2 / 10), each step rounded to a float (TARGET_NEIGHBOURS 10)
local to_float
if string.pack then
  to_float = function(x) return (string.unpack("f", string.pack("f", x))) end
else
  local ffi = require "ffi"
  local box = ffi.new("float[1]")
  to_float = function(x) box[0] = x; return tonumber(box[0]) end
end
local pi = 3.1415927410125732 -- STEER_PI as a float
local side = to_float(math.sqrt(to_float(to_float(to_float(to_float(n) * pi) * 2) * 2 / 10)))
local world = steer.world{ cell_size = 2, capacity = n }
local flock = steer.blend{
  { steer.separation{ radius = 2 }, weight = 2 },
  { steer.cohesion{ radius = 2 }, weight = 1 },
  { steer.alignment{ radius = 2 }, weight = 1 },
}
for _ = 1, n do
  local u, v = next_unit(), next_unit()
  local a = next_unit() * 2 * pi
  local hx, hy = steer.heading(a)
  world:spawn{ x = u * side, y = v * side, vx = hx * 2, vy = hy * 2, steering = flock }
end
-- the clock of steer-bench (CLOCK_MONOTONIC) where the FFI reaches it, so
-- the two compare on a loaded machine; else CPU time (os.clock)
local now = os.clock
if rawget(_G, "jit") then
  local ffi = require "ffi"
  pcall(ffi.cdef, "struct steer_timespec { long tv_sec; long tv_nsec; };"
    .. "int clock_gettime(int clk, struct steer_timespec *ts);")
  local ts = ffi.new("struct steer_timespec")
  now = function() ffi.C.clock_gettime(1, ts); return tonumber(ts.tv_sec) + tonumber(ts.tv_nsec) * 1e-9 end
end
world:step(1 / 60) -- warm-up, as bench_flock_run
local t0 = now()
for _ = 1, steps do world:step(1 / 60) end
local t = now() - t0
print(string.format("flock_lua (%s) agents=%d steps=%d ns_per_agent_step=%.1f hash=%s",
  name, n, steps, t * 1e9 / (n * steps), world:hash("hex")))

-- one call of a Lua behaviour: a step where every agent calls one, minus
-- the same step without behaviours (bench_lua.c's call_script)
local function calls(m, k, lua)
  local w = steer.world{ capacity = m }
  local b = lua and steer.behaviour(function() return 1, 0, 0 end) or nil
  for i = 1, m do w:spawn{ x = i * 10, y = 0, steering = b } end
  w:step(1 / 60)
  local c0 = now()
  for _ = 1, k do w:step(1 / 60) end
  return now() - c0
end
local m, k = 20000, 20
local with, without = calls(m, k, true), calls(m, k, false)
local per = 1e9 / (m * k)
print(string.format("lua_behaviour (%s) agents=%d steps=%d ns_per_call=%.1f "
  .. "(step with it %.1f, without %.1f ns per agent)", name, m, k, (with - without) * per, with * per, without * per))
