-- wall_ends.lua: walls' ends and blocks' corners ahead (issue 21, wallend21;
-- docs/crowds/wallend21.md). Agents with reciprocal_avoidance around arrive
-- (time horizon 2 s, max speed 1.5, acceleration 15, dt 0.1) at obstacle
-- time horizons of 1 and 5 s:
--   pass:  one agent on a straight line that passes a wall's end (or a
--          block's corner) with clearance c (body to end), at angles;
--   door:  a file of 6 through a 1.6 m doorway, and 4 against 4 through a
--          2.4 m one;
--   turn:  9 agents in a block turn round a block's corner to goals beyond it.
-- Per case: the least speed while the end is within 4 m (pass), the time to
-- the goal over the straight-line time at full speed, the largest swerve off
-- the line (pass), agents home, contact episodes, the deepest penetration
-- of a body into a shape (mm; the 0.05 m clearance keeps it at 0).
--
--   steer-lua scripts/scenarios/wall_ends.lua [--check] [--seed n]
-- --check: a passer (the end on its left, or 0.6 m clear on its right)
-- keeps 95% of its speed, reaches its goal within 1.1 times the straight
-- time; the corner turned by all; no body in a shape by over 1 mm, no two
-- overlapping by 5 cm, no contact in the files. The doors' agents home are
-- printed, not checked: a two-way door with arrive jams on main too (the
-- jam of issue 21), and the last of the file of 6 at the 5 s horizon leans
-- into the wall below the door in some world seeds (the side bias, below),
-- as 2 of main's do in others (docs/crowds/wallend21.md). The swerve is
-- printed, not checked (the side bias).
local steer = require "steer"

local check, seed = false, 1
do
  local k = 1
  while arg and arg[k] do
    if arg[k] == "--check" then check = true
    elseif arg[k] == "--seed" and tonumber(arg[k + 1]) then seed = tonumber(arg[k + 1]); k = k + 1
    else error("usage: wall_ends.lua [--check] [--seed n]") end
    k = k + 1
  end
end

local DT, R, SPEED, ACCEL = 0.1, 0.5, 1.5, 15

local function brain(gx, gy, tobs, seek)
  local pref = seek and steer.seek{ target = { gx, gy } }
    or steer.arrive{ target = { gx, gy }, target_radius = 0.1, slow_radius = 2, time_to_target = 0.5 }
  return steer.reciprocal_avoidance{ preferred = pref, radius = 6, time_horizon = 2,
    obstacle_time_horizon = tobs, max_neighbours = 10 }
end

-- distance from (x, y) to the segment (x1, y1)-(x2, y2)
local function seg_dist(x, y, s)
  local x1, y1, x2, y2 = s[1], s[2], s[3], s[4]
  local ex, ey = x2 - x1, y2 - y1
  local t = math.max(0, math.min(1, ((x - x1) * ex + (y - y1) * ey) / (ex * ex + ey * ey)))
  local dx, dy = x - (x1 + ex * t), y - (y1 + ey * t)
  return math.sqrt(dx * dx + dy * dy)
end

local function box_dist(x, y, b)
  local dx = math.max(b[1] - x, 0, x - b[3])
  local dy = math.max(b[2] - y, 0, y - b[4])
  if dx > 0 or dy > 0 then return math.sqrt(dx * dx + dy * dy) end
  return -math.min(x - b[1], b[3] - x, y - b[2], b[4] - y)
end

-- Runs a case: walls (segments), boxes, agents {x, y, gx, gy}; `watch` (x, y)
-- a point whose 4 m neighbourhood the least speed is taken in.
local function run(case, tobs)
  local world = steer.world{ seed = seed, cell_size = 6 }
  for _, s in ipairs(case.walls or {}) do world:add_wall(s[1], s[2], s[3], s[4]) end
  for _, b in ipairs(case.boxes or {}) do world:add_box(b[1], b[2], b[3], b[4]) end
  local agents = {}
  for i, a in ipairs(case.agents) do
    agents[i] = { def = a, h = world:spawn{ x = a[1], y = a[2], radius = R, max_speed = SPEED,
      max_acceleration = ACCEL, key = i, steering = brain(a[3], a[4], tobs, case.seek) } }
  end
  local t, home, vmin, swerve, pen, contacts, ratio, deepest = 0, 0, math.huge, 0, 0, 0, 0, 0
  local touching = {}
  local limit = case.limit or 60
  while t < limit and home < #agents do
    world:step(DT); t = t + DT
    home = 0
    for i, a in ipairs(agents) do
      local x, y = a.h:position()
      local d = a.def
      if not a.home and (x - d[3]) ^ 2 + (y - d[4]) ^ 2 < 0.25 then
        a.home = t
        local straight = math.sqrt((d[3] - d[1]) ^ 2 + (d[4] - d[2]) ^ 2) / SPEED
        ratio = math.max(ratio, t / straight)
      end
      if a.home then home = home + 1 end
      if case.watch and not a.home then
        local wx, wy = case.watch[1], case.watch[2]
        if (x - wx) ^ 2 + (y - wy) ^ 2 < 16 then
          local vx, vy = a.h:velocity()
          vmin = math.min(vmin, math.sqrt(vx * vx + vy * vy))
        end
        -- off the straight line start -> goal
        local ex, ey = d[3] - d[1], d[4] - d[2]
        local len = math.sqrt(ex * ex + ey * ey)
        swerve = math.max(swerve, math.abs(((x - d[1]) * ey - (y - d[2]) * ex) / len))
      end
      for _, s in ipairs(case.walls or {}) do pen = math.max(pen, R - seg_dist(x, y, s)) end
      for _, b in ipairs(case.boxes or {}) do pen = math.max(pen, R - box_dist(x, y, b)) end
      for j = i + 1, #agents do
        local ox, oy = agents[j].h:position()
        local k = i * 1000 + j
        local depth = 2 * R - math.sqrt((x - ox) ^ 2 + (y - oy) ^ 2)
        deepest = math.max(deepest, depth)
        local over = depth > 1e-3
        if over and not touching[k] then contacts = contacts + 1 end
        touching[k] = over
      end
    end
  end
  return { home = home, n = #agents, vmin = vmin, ratio = home == #agents and ratio or math.huge,
    swerve = swerve, pen = math.max(pen, 0), contacts = contacts, deepest = deepest, t = t }
end

local cases = {}
-- one agent passes the end of a wall (0, 0)-(0, -20) above it (the end on
-- its right), crossing the wall's line at (0, R + c), heading at `deg`
-- degrees; the same mirrored (the wall (0, 0)-(0, 20), the end on its left);
-- then the corner of a block [0, 12] x [-12, 0] along its top face from
-- outside. (The side bias leans an agent by up to ~0.15 rad to its right
-- near any shape: arrive keeps 80% of the velocity a step and the bias
-- turns it 0.03 rad; so an end on the right needs more clearance: checked
-- from c = 0.6 m.)
for _, c in ipairs({ 0.15, 0.3, 0.6, 1.0 }) do
  for _, side in ipairs({ 1, -1 }) do
    for _, deg in ipairs({ -30, 0, 30 }) do
      local a, y0 = math.rad(deg * side), side * (R + c)
      local ux, uy = math.cos(a), math.sin(a)
      local where = side > 0 and "right" or "left"
      cases[#cases + 1] = { name = string.format("pass end on %s c=%.2f %+d deg", where, c, deg),
        pass = side < 0 or c >= 0.6, walls = { { 0, 0, 0, -20 * side } }, watch = { 0, 0 },
        agents = { { -8 * ux, y0 - 8 * uy, 8 * ux, y0 + 8 * uy } } }
    end
  end
  cases[#cases + 1] = { name = string.format("pass block corner c=%.2f", c), pass = c >= 0.6,
    boxes = { { 0, -12, 12, 0 } }, watch = { 0, 0 },
    agents = { { -8, R + c, 16, R + c } } }
end
-- a file of 6 through a 1.6 m door in the wall x = 0, from the left
do
  local agents = {}
  for i = 0, 5 do agents[#agents + 1] = { -3 - 1.4 * i, 0.2, 4 + 1.4 * (5 - i), 0.2 } end
  cases[#cases + 1] = { name = "door 1.6 m, file of 6", file = true, door = true, limit = 80,
    walls = { { 0, -10, 0, -0.8 }, { 0, 0.8, 0, 10 } }, agents = agents }
end
-- 4 against 4 through a 2.4 m door, each on its own right
do
  local agents = {}
  for i = 0, 3 do
    agents[#agents + 1] = { -3 - 1.5 * i, -0.5, 4 + 1.5 * (3 - i), -0.5 }
    agents[#agents + 1] = { 3 + 1.5 * i, 0.5, -4 - 1.5 * (3 - i), 0.5 }
  end
  cases[#cases + 1] = { name = "door 2.4 m, 4 against 4", file = true, door = true, limit = 80,
    walls = { { 0, -10, 0, -1.2 }, { 0, 1.2, 0, 10 } }, agents = agents }
end
-- 6 against 6 through a 1.6 m door, on lanes across the whole width
do
  local agents = {}
  for i = 0, 5 do
    local y = (i % 3 - 1) * 1.2 + 0.3 * (i // 3)
    agents[#agents + 1] = { -3 - 1.6 * i, y, 6 + 1.6 * (5 - i), y }
    agents[#agents + 1] = { 3.5 + 1.6 * i, -y, -6 - 1.6 * (5 - i), -y }
  end
  cases[#cases + 1] = { name = "door 1.6 m, 6 against 6", file = true, door = true, limit = 120,
    walls = { { 0, -10, 0, -0.8 }, { 0, 0.8, 0, 10 } }, agents = agents }
end
-- 9 in a block turn round the corner (0, 0) of the block [0, 20] x [0, 20]:
-- from the left of it to below it
do
  local agents = {}
  for i = 0, 2 do
    for j = 0, 2 do
      agents[#agents + 1] = { -1.5 - 1.4 * i, 6 + 1.4 * j, 6 + 1.4 * j, -1.5 - 1.4 * i }
    end
  end
  cases[#cases + 1] = { name = "turn block corner, 9", file = true, limit = 80,
    boxes = { { 0, 0, 20, 20 } }, agents = agents }
end

-- the files again with seek (no slowing down near the goal)
for i = 1, #cases do
  local c = cases[i]
  if c.file then
    local copy = {}
    for k, v in pairs(c) do copy[k] = v end
    copy.name, copy.seek = c.name .. ", seek", true
    cases[#cases + 1] = copy
  end
end

local failed, door_home, door_n = 0, 0, 0
print(string.format("%-34s %5s | %6s %6s %6s %6s %5s %6s %6s", "case", "tobs", "home", "vmin", "t/t0", "swerve",
  "cont", "ovl cm", "pen mm"))
for _, case in ipairs(cases) do
  for _, tobs in ipairs({ 1, 5 }) do
    local r = run(case, tobs)
    local bad = {}
    if r.home < r.n and not case.door then bad[#bad + 1] = "home" end
    if r.pen > 1e-3 then bad[#bad + 1] = "pen" end
    if case.pass and r.vmin < 0.95 * SPEED then bad[#bad + 1] = "speed" end
    if case.pass and r.ratio > 1.1 then bad[#bad + 1] = "time" end
    if case.file and r.contacts > 0 then bad[#bad + 1] = "contacts" end
    if r.deepest > 0.05 then bad[#bad + 1] = "overlap" end
    print(string.format("%-34s %5g | %2d/%-3d %6.2f %6.2f %6.2f %5d %6.1f %6.1f %s", case.name, tobs, r.home, r.n,
      r.vmin == math.huge and 0 or r.vmin, r.ratio, r.swerve, r.contacts, r.deepest * 100, r.pen * 1000,
      #bad > 0 and ("FAIL " .. table.concat(bad, ",")) or ""))
    if case.door then door_home, door_n = door_home + r.home, door_n + r.n end
    if #bad > 0 then failed = failed + 1 end
  end
end
print(string.format("doors: %d of %d home", door_home, door_n))
if check and failed > 0 then
  io.stderr:write(string.format("wall_ends: %d runs failed\n", failed))
  os.exit(1)
end
