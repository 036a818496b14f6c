-- looks_right.lua: runs a demo script through the script host and checks
-- that it looks like what its name says (issue 24). One ctest per demo:
--
--   STEER_DEMO=scripts/demos/flocking.lua steer-run --trusted tests/demos/looks_right.lua --steps 1801
--
-- The demo's roles, setup, update and on_reload are the host's; this
-- script only feeds its update a scripted mouse, measures the world while it
-- runs and, at the demo's check time, prints the figures and "looks right",
-- or raises "looks wrong: ..." (steer-run prints it as an error line).
-- Trusted: os.getenv and loadfile of a path outside this script's directory.
local demo_path = assert(os.getenv("STEER_DEMO"), "looks_right.lua: set STEER_DEMO to a demo script")
local name = assert(demo_path:match("([%w_]+)%.lua$"), "looks_right.lua: STEER_DEMO is not a .lua file")
-- the demo's chunk in this version's environment (the host's require and print)
local demo = assert(loadfile(demo_path, "t", _ENV))()

local function by_role(world, role)
  local list = {}
  for a in world:agents() do
    if a.role == role then list[#list + 1] = a end
  end
  table.sort(list, function(p, q) return p.key < q.key end)
  return list
end

local function mean_speed(list)
  local s = 0
  for _, a in ipairs(list) do s = s + a.speed end
  return s / #list
end

-- Mean over agents of |mean unit velocity| of the agents within `radius`
-- (itself included): 1 when every neighbourhood heads one way.
local function local_order(world, list, radius)
  local total = 0
  for _, a in ipairs(list) do
    local sx, sy, n = 0, 0, 0
    for _, b in ipairs(world:query(a.x, a.y, radius)) do
      local s = b.speed
      if s > 0 then sx, sy, n = sx + b.vx / s, sy + b.vy / s, n + 1 end
    end
    if n > 0 then total = total + math.sqrt(sx * sx + sy * sy) / n end
  end
  return total / #list
end

local function dist(ax, ay, bx, by) return math.sqrt((ax - bx) ^ 2 + (ay - by) ^ 2) end

-- True when the agent's centre is inside a solid (circle, box, polygon): a
-- ray from a point strictly inside one hits at distance 0 whichever way it
-- goes (docs/geometry.md); from outside, rays of length 0 hit nothing
-- (unless the centre lies exactly on a wall).
local function inside_solid(world, a)
  return world:raycast(a.x, a.y, 1, 0, 0) ~= nil and world:raycast(a.x, a.y, -1, 0, 0) ~= nil
end

-- Agents inside a solid now (counts frames and the worst moment).
local function count_inside(world, tally)
  local n = 0
  for a in world:agents() do
    if inside_solid(world, a) then n = n + 1 end
  end
  if n > 0 then tally.frames = tally.frames + 1 end
  tally.most = math.max(tally.most, n)
end

local checks = {}

-- flocking: after 30 s the boids fly (mean speed above half of max), their
-- neighbourhoods head one way (local order above 0.8) and the arena holds
-- them (none farther than 120 m from the centre; spawned within 58 m).
checks.flocking = {
  seconds = 30,
  final = function(world)
    local boids = by_role(world, "boid")
    local speed, order = mean_speed(boids), local_order(world, boids, 6)
    local far = 0
    for _, b in ipairs(boids) do far = math.max(far, math.sqrt(b.x ^ 2 + b.y ^ 2)) end
    local max_speed = boids[1].max_speed
    return speed > 0.5 * max_speed and order > 0.8 and far < 120,
      ("boids=%d mean speed %.2f m/s (max %.1f) local heading order %.3f, farthest %.1f m from the centre")
        :format(#boids, speed, max_speed, order, far)
  end,
}

-- formations: the three leaders arrive where the mouse points (circling
-- for 20 s, then held at (6, -10)); each group's five members stand still
-- around their leader, within 6 m of it and at least 1.5 m apart (slots 2 m
-- apart, not a clump); the squad walks its path together. Agents by key:
-- leaders 1, 7, 13, their members the five keys after each; the squad 19-24.
checks.formations = {
  seconds = 30,
  mouse = function(t)
    if t < 20 then return 12 * math.sin(t * 0.3), 12 * math.cos(t * 0.3) - 12 end
    return 6, -10
  end,
  final = function(world)
    local by_key = {}
    for a in world:agents() do by_key[a.key] = a end
    local leader_off, member_off, gap, member_speed = 0, 0, math.huge, 0
    for k = 1, 3 do
      local first = 1 + (k - 1) * 6
      local leader = by_key[first]
      leader_off = math.max(leader_off, dist(leader.x, leader.y, 6 + (k - 2) * 15, -10))
      for m = 1, 5 do
        local a = by_key[first + m]
        member_off = math.max(member_off, dist(a.x, a.y, leader.x, leader.y))
        member_speed = math.max(member_speed, a.speed)
        for n = m + 1, 5 do gap = math.min(gap, dist(a.x, a.y, by_key[first + n].x, by_key[first + n].y)) end
      end
    end
    local cx, cy, squad_spread, squad_speed = 0, 0, 0, 0
    for key = 19, 24 do cx, cy = cx + by_key[key].x / 6, cy + by_key[key].y / 6 end
    for key = 19, 24 do
      squad_spread = math.max(squad_spread, dist(by_key[key].x, by_key[key].y, cx, cy))
      squad_speed = squad_speed + by_key[key].speed / 6
    end
    local ok = leader_off < 1 and member_off < 6 and gap > 1.5 and member_speed < 0.2 and squad_spread < 5
      and squad_speed > 0.5
    return ok, ("leaders %.2f m from the mouse's points; members within %.2f m of their leader, %.2f m apart or more, "
      .. "at most %.2f m/s; squad within %.2f m of its centre at %.2f m/s"):format(leader_off, member_off, gap,
      member_speed, squad_spread, squad_speed)
  end,
}

-- obstacles: no wanderer's centre is ever inside a solid (the box, circle,
-- triangle), none leaves the maze's outline, and they keep wandering (mean
-- speed over the run above half of max).
local obstacles_inside = { frames = 0, most = 0 }
local obstacles_speed = { sum = 0, n = 0 }
checks.obstacles = {
  seconds = 30,
  every = function(world)
    count_inside(world, obstacles_inside)
    for a in world:agents() do
      obstacles_speed.sum, obstacles_speed.n = obstacles_speed.sum + a.speed, obstacles_speed.n + 1
    end
  end,
  final = function(world)
    local out = 0
    for a in world:agents() do
      if math.abs(a.x) > 24 or math.abs(a.y) > 16 then out = out + 1 end
    end
    local speed = obstacles_speed.sum / obstacles_speed.n
    return obstacles_inside.frames == 0 and out == 0 and speed > 1.5,
      ("agents inside a solid on %d frames (at most %d at once), %d outside the maze, mean speed %.2f m/s (max 3)")
        :format(obstacles_inside.frames, obstacles_inside.most, out, speed)
  end,
}

local check = assert(checks[name], "looks_right.lua: no check for " .. name)
local frame, dt_sum = 0, 0
local input = { x = 0, y = 0, buttons = 0, keys = {} }

return {
  roles = demo.roles,
  setup = function(world)
    frame, dt_sum = 0, 0
    if demo.setup then demo.setup(world) end
    if check.start then check.start(world) end
  end,
  on_reload = demo.on_reload,
  update = function(world, dt, host_input)
    -- the world has stepped `frame` times when update runs for frame + 1
    if check.mouse then
      input.x, input.y, input.buttons = check.mouse(dt_sum)
      input.buttons = input.buttons or 0
    else
      input.x, input.y, input.buttons = host_input.x, host_input.y, host_input.buttons
    end
    if check.every and frame > 0 then check.every(world, dt_sum) end
    if frame == math.floor(check.seconds / dt + 0.5) then
      local ok, figures = check.final(world)
      if not ok then error(("looks wrong: %s after %.1f s: %s"):format(name, dt_sum, figures), 0) end
      print(("looks right: %s after %.1f s: %s"):format(name, dt_sum, figures))
    end
    if demo.update then demo.update(world, dt, input) end
    frame, dt_sum = frame + 1, dt_sum + dt
  end,
}
