-- steer on a held-out layout through the public Lua API, as docs/crowds.md's "A crowd brain":
-- reciprocal_avoidance around arrive{ slow_radius = 2, time_to_target = 0.5 } (or seek), RVO2's
-- settings one to one, max_acceleration 100 x max speed (HELDOUT_ACCEL=k: k x max speed), contact resolution off.
-- Usage: steer-lua steer_driver.lua LAYOUT.txt SEED arrive|seek | measure_stream LAYOUT.txt steer PREF SEED
-- Writes the start and every step's positions (2N little-endian floats a record) to stdout.
local steer = require "steer"
local path, seed, pref = arg[1], tonumber(arg[2]), arg[3]
assert(path and seed and (pref == "arrive" or pref == "seek"), "usage: steer_driver.lua LAYOUT.txt SEED arrive|seek")
local accel = tonumber(os.getenv("HELDOUT_ACCEL") or "100")
assert(accel and accel > 0, "HELDOUT_ACCEL: expected a positive number (max acceleration in max speeds a second)")

local words = {}
for w in assert(io.open(path)):read("a"):gmatch("%S+") do words[#words + 1] = w end
local pos = 1
local function word(expect)
  local w = words[pos]
  pos = pos + 1
  if expect then assert(w == expect, path .. ": expected " .. expect .. ", got " .. tostring(w)) end
  return w
end
local function num()
  local v = assert(tonumber(word()), path .. ": expected a number")
  return v
end

word("heldout-layout"); assert(num() == 1)
word("name"); local name = word()
word("dt"); local dt = num()
word("time_limit"); local time_limit = num()
word("rvo")
local neighbour_dist, max_neighbours, time_horizon, obstacle_time_horizon = num(), num(), num(), num()

local world = steer.world{ seed = seed, cell_size = neighbour_dist, resolve_agent_contacts = false }
local agents = {}
word("agents")
local n = num()
local specs = {}
for i = 1, n do
  specs[i] = { x = num(), y = num(), gx = num(), gy = num(), r = num(), speed = num(), goal_r = num() }
end
word("polygons")
for _ = 1, num() do
  local pts = {}
  for k = 1, num() do pts[k] = { num(), num() } end
  world:add_polygon(pts)
end
for i, s in ipairs(specs) do
  local walk
  if pref == "arrive" then
    walk = steer.arrive{ target = { s.gx, s.gy }, slow_radius = 2, time_to_target = 0.5 }
  else
    walk = steer.seek{ target = { s.gx, s.gy } }
  end
  local brain = steer.reciprocal_avoidance{
    preferred = walk, radius = neighbour_dist, max_neighbours = max_neighbours,
    time_horizon = time_horizon, obstacle_time_horizon = obstacle_time_horizon,
  }
  agents[i] = world:spawn{
    x = s.x, y = s.y, radius = s.r, max_speed = s.speed, max_acceleration = accel * s.speed,
    key = i, steering = brain,
  }
end

io.stdout:setvbuf("full")
local fmt = "<" .. string.rep("f", 2 * n)
local buf = {}
local function record()
  for i = 1, n do
    local a = agents[i]
    buf[2 * i - 1], buf[2 * i] = a.x, a.y
  end
  io.stdout:write(string.pack(fmt, table.unpack(buf, 1, 2 * n)))
end
record()
local steps = math.floor(time_limit / dt + 0.5)
for _ = 1, steps do
  world:step(dt)
  record()
end
io.stdout:flush()
io.stderr:write(string.format("%s seed %d %s: %d steps, hash %s\n", name, seed, pref, steps, world:hash("hex")))
