-- run.lua: the crowd scenario suite (docs/crowds.md). One line a case plus a
-- total, so that two versions or two brains can be compared:
--
--   steer-lua scripts/scenarios/run.lua [--brain notes|orca|contacts] [--small] [--check] [--seed n] [case ...]
--   steer-lua scripts/scenarios/run.lua --matrix [--small|--large|--big] [--quick] [--check] [--detail]
--     [--markdown] [--seeds 1,2] [--pref arrive,seek,navigate] [--tau 1,2,5] [--accel 3,10,100] [--dt 0.05,0.1]
--     [--tau-obst 1,5,tau] [--bigstep] [--episodes] [--max-episodes n] [layout ...]
--
-- --matrix runs the layouts of matrix/ over the matrix of settings (matrix.lua);
-- --pref navigate runs the layouts with `navigate` (a route round the walls) as the
-- preferred behaviour instead of a straight line (not in the default matrix);
-- --tau-obst sets the obstacle time horizons (default 1 s; `tau`: the agents' horizon);
-- --markdown prints, after the text table, its summary rows as a Markdown table.
-- --big runs the bigstep layouts (big bodies) at their own settings (dt 0.25 s,
-- max speed 2 m/s, horizons 5 and 10 s, world seeds 1 to 10); --bigstep runs any
-- layout at those; either prints the contact episodes table (also --episodes);
-- --max-episodes n makes --check fail when a layout's contact episodes with
-- contact resolution off, summed over its runs, exceed n (docs/crowds/bigstep21.md).
--
-- Brains: `notes` is the notes' behaviours alone (priority of obstacle
-- avoidance, then a blend of arrive, separation and collision avoidance);
-- `orca` is reciprocal_avoidance around arrive; `contacts` is orca with the
-- world's resolve_agent_contacts. --small runs the cases of the ctest;
-- --check exits non-zero unless every agent arrives, cases of fewer than
-- 20 agents have no contact, and no overlap reaches 5 cm. --seed sets the
-- world's seed (default 1: the side bias's noise; a case's layout is fixed).
--
-- Metrics: arrived (within 0.5 m of the goal), mean completion time of the
-- arrived, contact episodes (a pair starting to overlap by more than 1 mm),
-- agent-obstacle penetrations (an agent starting to be more than 1 mm
-- inside a shape), the deepest agent overlap, and the mean path length of
-- the arrived over their straight-line distance.
local steer = require "steer"

local script = arg and arg[0] or "scripts/scenarios/run.lua"
local scenario_dir = script:match("^(.*[/\\])") or "./"

-- the matrix of issue 21 (matrix.lua): run.lua --matrix [--small|--large] [--quick] [--check] ...
for _, a in ipairs(arg or {}) do
  if a == "--matrix" then
    assert(loadfile(scenario_dir .. "matrix.lua"))()(arg, scenario_dir)
    return
  end
end
-- a case file gets the directory as its argument (the circles share a layout)
local function load_case(name) return assert(loadfile(scenario_dir .. name .. ".lua"))(scenario_dir) end

local CASES = { "pair_oncoming", "pair_crossing", "groups_oncoming", "four_way", "circle_12", "circle_20",
  "doorway", "obstacles", "bottleneck_60", "circle_250", "bottleneck_500", "hallway_200", "blocks" }
local DT, RADIUS, SPEED, ACCEL = 0.1, 0.5, 1.5, 10
local CONTACT, ARRIVED = 1e-3, 0.5

local brain_name, small, check, chosen, seed = "orca", false, false, {}, 1
local i = 1
while arg and arg[i] do
  local a = arg[i]
  if a == "--brain" then brain_name = arg[i + 1]; i = i + 1
  elseif a == "--seed" then
    seed = math.tointeger(tonumber(arg[i + 1]))
    assert(seed and seed >= 0, "--seed must be a whole number 0 or more, got " .. tostring(arg[i + 1]))
    i = i + 1
  elseif a == "--small" then small = true
  elseif a == "--check" then check = true
  else chosen[#chosen + 1] = a end
  i = i + 1
end
assert(brain_name == "notes" or brain_name == "orca" or brain_name == "contacts",
  "--brain must be notes, orca or contacts")

-- The agent's brain for a goal; returns the behaviour and its arrive (whose
-- target the runner moves from the waypoint to the goal).
local function brain(has_obstacles)
  local arrive = steer.arrive{ target = { 0, 0 }, target_radius = 0.1, slow_radius = 2, time_to_target = 0.5 }
  if brain_name == "notes" then
    local blend = steer.blend{
      { arrive, weight = 1 },
      { steer.separation{ radius = 1.5 }, weight = 2 },
      { steer.collision_avoidance{ radius = 6 }, weight = 2 },
    }
    if not has_obstacles then return blend, arrive end
    local avoid = steer.obstacle_avoidance{ lookahead = 3, avoid_distance = 1.5, rays = "whiskers" }
    return steer.priority{ avoid, blend }, arrive
  end
  return steer.reciprocal_avoidance{ preferred = arrive, radius = 6, time_horizon = 2,
    obstacle_time_horizon = 1, max_neighbours = 10 }, arrive
end

-- Distance from (x, y) to a static shape of the case (negative inside).
local function seg_dist(x, y, x1, y1, x2, y2)
  local ex, ey = x2 - x1, y2 - y1
  local t = math.max(0, math.min(1, ((x - x1) * ex + (y - y1) * ey) / (ex * ex + ey * ey)))
  local dx, dy = x - (x1 + ex * t), y - (y1 + ey * t)
  return math.sqrt(dx * dx + dy * dy)
end
local function shape_distances(c)
  local list = {}
  for _, w in ipairs(c.walls or {}) do
    list[#list + 1] = function(x, y) return seg_dist(x, y, w[1], w[2], w[3], w[4]) end
  end
  for _, s in ipairs(c.circles or {}) do
    list[#list + 1] = function(x, y) return math.sqrt((x - s[1]) ^ 2 + (y - s[2]) ^ 2) - s[3] end
  end
  for _, b in ipairs(c.boxes or {}) do
    list[#list + 1] = function(x, y)
      local dx = math.max(b[1] - x, x - b[3]); local dy = math.max(b[2] - y, y - b[4])
      if dx <= 0 and dy <= 0 then return math.max(dx, dy) end
      return math.sqrt(math.max(dx, 0) ^ 2 + math.max(dy, 0) ^ 2)
    end
  end
  for _, p in ipairs(c.polygons or {}) do
    -- convex, either winding: inside when on the same side of every edge
    list[#list + 1] = function(x, y)
      local best, inside, sign = math.huge, true, nil
      for k = 1, #p do
        local a, b = p[k], p[k % #p + 1]
        best = math.min(best, seg_dist(x, y, a[1], a[2], b[1], b[2]))
        local cr = (b[1] - a[1]) * (y - a[2]) - (b[2] - a[2]) * (x - a[1])
        local s = cr >= 0
        if sign == nil then sign = s elseif sign ~= s then inside = false end
      end
      return inside and -best or best
    end
  end
  return list
end

local function run_case(name)
  local c = load_case(name)
  local world = steer.world{ seed = seed, cell_size = 6, resolve_agent_contacts = brain_name == "contacts",
    resolve_contacts = brain_name == "contacts" }
  for _, w in ipairs(c.walls or {}) do world:add_wall(w[1], w[2], w[3], w[4]) end
  for _, s in ipairs(c.circles or {}) do world:add_circle(s[1], s[2], s[3]) end
  for _, b in ipairs(c.boxes or {}) do world:add_box(b[1], b[2], b[3], b[4]) end
  for _, p in ipairs(c.polygons or {}) do world:add_polygon(p) end
  local shapes = shape_distances(c)
  local has_obstacles = #shapes > 0
  local list = {}
  for k, d in ipairs(c.agents) do
    local b, arrive = brain(has_obstacles)
    local first = d.wx and { d.wx, d.wy } or { d.gx, d.gy }
    arrive.target = first
    local agent = world:spawn{ x = d.x, y = d.y, radius = RADIUS, max_speed = SPEED, max_acceleration = ACCEL,
      steering = b, key = k }
    list[k] = { agent = agent, arrive = arrive, d = d, waypoint = d.wx ~= nil, px = d.x, py = d.y, path = 0,
      straight = math.sqrt((d.gx - d.x) ^ 2 + (d.gy - d.y) ^ 2) }
  end
  local n = #list
  local touching, inside = {}, {}
  local contacts, penetrations, max_overlap, t = 0, 0, 0, 0
  local arrived, time_sum = 0, 0
  while t < c.time_limit and arrived < n do
    world:step(DT)
    t = t + DT
    local now = {}
    for _, e in ipairs(list) do
      local a = e.agent
      local x, y = a:position()
      if not e.done then
        e.path = e.path + math.sqrt((x - e.px) ^ 2 + (y - e.py) ^ 2)
        -- the waypoint is passed within 1 m of it, or once past the wall
        if e.waypoint and ((x - e.d.wx) ^ 2 + (y - e.d.wy) ^ 2 < 1.0 or (e.d.past_x and x > e.d.past_x)) then
          e.waypoint = false
          e.arrive.target = { e.d.gx, e.d.gy }
        elseif not e.waypoint and (x - e.d.gx) ^ 2 + (y - e.d.gy) ^ 2 < ARRIVED * ARRIVED then
          e.done = true
          arrived = arrived + 1
          time_sum = time_sum + t
        end
      end
      e.px, e.py = x, y
      for _, other in ipairs(world:query(x, y, 2 * RADIUS)) do
        if other.key > a.key then
          local ox, oy = other:position()
          local overlap = 2 * RADIUS - math.sqrt((x - ox) ^ 2 + (y - oy) ^ 2)
          if overlap > max_overlap then max_overlap = overlap end
          if overlap > CONTACT then
            local pair = a.key * 65536 + other.key
            now[pair] = true
            if not touching[pair] then contacts = contacts + 1 end
          end
        end
      end
      for s, dist in ipairs(shapes) do
        local id = a.key * 256 + s
        local deep = RADIUS - dist(x, y) > CONTACT
        if deep and not inside[id] then penetrations = penetrations + 1 end
        inside[id] = deep or nil
      end
    end
    touching = now
  end
  local ratio, counted = 0, 0
  for _, e in ipairs(list) do
    if e.done then ratio, counted = ratio + e.path / e.straight, counted + 1 end
  end
  world:close()
  return { name = name, agents = n, arrived = arrived, time = arrived > 0 and time_sum / arrived or 0,
    contacts = contacts, penetrations = penetrations, overlap = max_overlap,
    ratio = counted > 0 and ratio / counted or 0, small = c.small }
end

local names = #chosen > 0 and chosen or CASES
local total = { agents = 0, arrived = 0, contacts = 0, penetrations = 0, overlap = 0 }
local failed = {}
print(string.format("brain=%s seed=%d dt=%g radius=%g max_speed=%g", brain_name, seed, DT, RADIUS, SPEED))
for _, name in ipairs(names) do
  local c = load_case(name)
  if not small or c.small then
    local r = run_case(name)
    print(string.format("%-16s agents=%d arrived=%d mean_time=%.1f contacts=%d penetrations=%d "
      .. "max_overlap=%.3f path_ratio=%.3f", r.name, r.agents, r.arrived, r.time, r.contacts, r.penetrations,
      r.overlap, r.ratio))
    total.agents = total.agents + r.agents
    total.arrived = total.arrived + r.arrived
    total.contacts = total.contacts + r.contacts
    total.penetrations = total.penetrations + r.penetrations
    total.overlap = math.max(total.overlap, r.overlap)
    if r.arrived < r.agents then failed[#failed + 1] = r.name .. ": not every agent arrived" end
    if r.agents < 20 and r.contacts > 0 then failed[#failed + 1] = r.name .. ": contacts" end
    if r.overlap >= 0.05 then failed[#failed + 1] = r.name .. ": overlap of 5 cm or more" end
  end
end
print(string.format("%-16s agents=%d arrived=%d contacts=%d penetrations=%d max_overlap=%.3f", "total",
  total.agents, total.arrived, total.contacts, total.penetrations, total.overlap))
if check and #failed > 0 then
  for _, f in ipairs(failed) do io.stderr:write("FAILED ", f, "\n") end
  os.exit(1)
end
