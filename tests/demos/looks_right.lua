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

-- Orientation of a direction, the engine's convention (heading = (sin a, cos a)).
local function orientation_of(x, y) return math.atan(x, y) end
local function angle_diff(a, b) return math.abs((a - b + math.pi) % (2 * math.pi) - math.pi) end

-- Distance from a point to a polyline (closed when loop).
local function to_polyline(points, loop, x, y)
  local best = math.huge
  local n = #points
  for i = 1, loop and n or n - 1 do
    local a, b = points[i], points[i % n + 1]
    local ex, ey = b[1] - a[1], b[2] - a[2]
    local t = math.max(0, math.min(1, ((x - a[1]) * ex + (y - a[2]) * ey) / (ex * ex + ey * ey)))
    best = math.min(best, dist(x, y, a[1] + ex * t, a[2] + ey * t))
  end
  return best
end

-- A running mean.
local function mean() return { sum = 0, n = 0, add = function(m, v) m.sum, m.n = m.sum + v, m.n + 1 end,
                               get = function(m) return m.n > 0 and m.sum / m.n or 0 end } end

-- align_match: over the last 10 s the followers move with the leader (mean
-- velocity difference under a quarter of its speed) and face its way (mean
-- orientation difference under 0.2 rad), wherever they are.
local am = { dv = mean(), da = mean(), speed = mean() }
checks.align_match = {
  seconds = 30,
  every = function(world, t)
    if t < 20 then return end
    local leader = by_role(world, "leader")[1]
    am.speed:add(leader.speed)
    for _, a in ipairs(by_role(world, "follower")) do
      am.dv:add(dist(a.vx, a.vy, leader.vx, leader.vy))
      am.da:add(angle_diff(a.orientation, leader.orientation))
    end
  end,
  final = function()
    local dv, da, speed = am.dv:get(), am.da:get(), am.speed:get()
    return speed > 1 and dv < 0.25 * speed and da < 0.2,
      ("leader %.2f m/s; followers' velocity %.2f m/s off it, orientation %.3f rad off it (means over 20-30 s)")
        :format(speed, dv, da)
  end,
}

-- arbitration: the group follows the orbiting target (mean distance under
-- 6 m over the last 20 s), keeps apart (no two centres closer than 0.9 m:
-- bodies are 1 m across, separation 2.5 m) and never enters a pillar.
local arb = { off = mean(), closest = math.huge, inside = { frames = 0, most = 0 } }
checks.arbitration = {
  seconds = 30,
  every = function(world, t)
    count_inside(world, arb.inside)
    local agents = by_role(world, "agent")
    for i, a in ipairs(agents) do
      if t >= 10 then arb.off:add(dist(a.x, a.y, 16 * math.cos(t * 0.3), 9 * math.sin(t * 0.3))) end
      for j = i + 1, #agents do arb.closest = math.min(arb.closest, dist(a.x, a.y, agents[j].x, agents[j].y)) end
    end
  end,
  final = function()
    local off = arb.off:get()
    return off < 6 and arb.closest > 0.9 and arb.inside.frames == 0,
      ("mean %.2f m from the target, closest pair %.2f m, inside a pillar on %d frames")
        :format(off, arb.closest, arb.inside.frames)
  end,
}

-- crowds: two crowds swap places with reciprocal avoidance: after 30 s
-- every agent has crossed (it is past x = 10 on the far side, its goal at
-- x = 24 to 29), and no two bodies overlapped by more than 5 cm on any frame
-- (the notes' collision avoidance and separation pushed 23 cm into each other).
-- (The last agent 11.2 m past the middle at 30 s since keeping right became a
-- sideways step, 12.8 m before, 21.0 m before keeping right; docs/crowds.md.)
local crowd = { overlap = 0, goals = {} }
checks.crowds = {
  seconds = 30,
  start = function(world)
    for a in world:agents() do crowd.goals[a.key] = { -a.x, a.y } end
  end,
  every = function(world)
    for a in world:agents() do
      for _, b in ipairs(world:query(a.x, a.y, a.radius * 2)) do
        if b ~= a then crowd.overlap = math.max(crowd.overlap, a.radius + b.radius - dist(a.x, a.y, b.x, b.y)) end
      end
    end
  end,
  final = function(world)
    local behind, n, off = math.huge, 0, 0
    for a in world:agents() do
      local g = crowd.goals[a.key]
      -- how far past the middle towards its goal, and how far from the goal
      behind, n = math.min(behind, a.x * (g[1] > 0 and 1 or -1)), n + 1
      off = off + dist(a.x, a.y, g[1], g[2]) / 120
    end
    return n == 120 and behind > 10 and crowd.overlap < 0.05,
      ("%d agents, the last %.2f m past the middle, %.2f m from their goals on average; deepest overlap %.3f m")
        :format(n, behind, off, crowd.overlap)
  end,
}

-- face: the turrets point at the mouse (circling slowly) within 0.1 rad;
-- the runners look where they are going (within 0.2 rad on average) at
-- more than half their speed.
local face_mouse = function(t) return 10 * math.cos(t * 0.2), 8 * math.sin(t * 0.2) end
local fc = { turret = mean(), runner = mean(), speed = mean() }
checks.face = {
  seconds = 30,
  mouse = face_mouse,
  every = function(world, t)
    if t < 10 then return end
    local mx, my = face_mouse(t - 1 / 60)
    for _, a in ipairs(by_role(world, "turret")) do
      fc.turret:add(angle_diff(a.orientation, orientation_of(mx - a.x, my - a.y)))
    end
    for _, a in ipairs(by_role(world, "runner")) do
      fc.runner:add(angle_diff(a.orientation, orientation_of(a.vx, a.vy)))
      fc.speed:add(a.speed)
    end
  end,
  final = function()
    local turret, runner, speed = fc.turret:get(), fc.runner:get(), fc.speed:get()
    return turret < 0.1 and runner < 0.2 and speed > 2.5,
      ("turrets %.3f rad off the mouse, runners %.3f rad off their velocity at %.2f m/s (means over 10-30 s)")
        :format(turret, runner, speed)
  end,
}

-- path_following: every follower stays within 5 m of the path over the last
-- 20 s (path_offset 2 at 6 m/s cuts the sharp corners by up to 4 m) at more
-- than half its speed.
local route = { { -30, -15 }, { -10, 15 }, { 0, -10 }, { 10, 15 }, { 30, -15 }, { 0, -20 } }
local pf = { off = 0, speed = mean() }
checks.path_following = {
  seconds = 30,
  every = function(world, t)
    if t < 10 then return end
    for a in world:agents() do
      pf.off = math.max(pf.off, to_polyline(route, true, a.x, a.y))
      pf.speed:add(a.speed)
    end
  end,
  final = function()
    local speed = pf.speed:get()
    return pf.off < 5 and speed > 3,
      ("every agent within %.2f m of the path, mean speed %.2f m/s (max 6; over 10-30 s)"):format(pf.off, speed)
  end,
}

-- pursue_evade: the hounds catch up with the hare (one within 2 m at some
-- time) and the hare runs from the nearest hound while it is within its
-- panic radius (velocity away from it on 80% of those frames or more); the
-- hare is red, as the demo says (its role's colour: red well above green and
-- blue).
local pe = { closest = math.huge, near = 0, away = 0, red = false }
local function is_red(c)
  if type(c) ~= "string" then return false end
  local r, g, b = tonumber(c:sub(2, 3), 16), tonumber(c:sub(4, 5), 16), tonumber(c:sub(6, 7), 16)
  return r >= 160 and r >= 2 * g and r >= 2 * b
end
checks.pursue_evade = {
  seconds = 30,
  every = function(world)
    local hare = by_role(world, "hare")[1]
    pe.red = is_red(hare.color)
    local nearest, d = nil, math.huge
    for _, role in ipairs{ "hound", "naive" } do
      for _, h in ipairs(by_role(world, role)) do
        local dh = dist(h.x, h.y, hare.x, hare.y)
        if dh < d then nearest, d = h, dh end
      end
    end
    pe.closest = math.min(pe.closest, d)
    if d < 8 then
      pe.near = pe.near + 1
      if hare.vx * (hare.x - nearest.x) + hare.vy * (hare.y - nearest.y) > 0 then pe.away = pe.away + 1 end
    end
  end,
  final = function()
    local share = pe.near > 0 and pe.away / pe.near or 0
    return pe.closest < 2 and pe.near > 0 and share > 0.8 and pe.red,
      ("closest hound %.2f m; a hound within 8 m on %d frames, the hare running away on %.0f%% of them; %s hare")
        :format(pe.closest, pe.near, share * 100, pe.red and "a red" or "NOT a red")
  end,
}

-- seek_flee_arrive: the target (the mouse) is held at (4, 2). Both arrive
-- agents end at rest on it (kinematic_arrive stops at its 1 m radius); both seek agents pass through it; both flee
-- agents head away from it on nearly every frame.
local sfa = { seek_pass = {}, flee = mean() }
checks.seek_flee_arrive = {
  seconds = 30,
  mouse = function() return 4, 2 end,
  every = function(world)
    for a in world:agents() do
      local r = a.role
      if r:match("seek$") and dist(a.x, a.y, 4, 2) < 1 then sfa.seek_pass[r] = true end
      if r:match("flee$") and a.speed > 0 then
        sfa.flee:add((a.vx * (a.x - 4) + a.vy * (a.y - 2)) > 0 and 1 or 0)
      end
    end
  end,
  final = function(world)
    local arrive_off, arrive_speed = 0, 0
    for a in world:agents() do
      if a.role:match("arrive$") then
        arrive_off, arrive_speed = math.max(arrive_off, dist(a.x, a.y, 4, 2)), math.max(arrive_speed, a.speed)
      end
    end
    local passed = (sfa.seek_pass.seek and 1 or 0) + (sfa.seek_pass.kinematic_seek and 1 or 0)
    local away = sfa.flee:get()
    return arrive_off < 1.1 and arrive_speed < 0.05 and passed == 2 and away > 0.95,
      ("arrivers %.2f m from the target at %.3f m/s; %d of 2 seekers reached it; fleers moving away on %.1f%% of "
        .. "frames"):format(arrive_off, arrive_speed, passed, away * 100)
  end,
}

-- wander: the wanderers keep walking (mean speed above half of max), stay
-- in the yard, and wander: each one turns through more than a full circle
-- over the run and none is inside a wall's far side.
local wd = { speed = mean(), turned = {}, last = {} }
checks.wander = {
  seconds = 30,
  every = function(world)
    for a in world:agents() do
      wd.speed:add(a.speed)
      local last = wd.last[a.key]
      if last then wd.turned[a.key] = (wd.turned[a.key] or 0) + angle_diff(a.orientation, last) end
      wd.last[a.key] = a.orientation
    end
  end,
  final = function(world)
    local out, least = 0, math.huge
    for a in world:agents() do
      if math.abs(a.x) > 30 or math.abs(a.y) > 20 then out = out + 1 end
      least = math.min(least, wd.turned[a.key] or 0)
    end
    local speed = wd.speed:get()
    return speed > 1.5 and out == 0 and least > 2 * math.pi,
      ("mean speed %.2f m/s (max 3), %d outside the yard, the straightest turned %.1f rad in all")
        :format(speed, out, least)
  end,
}

-- showcase: the boids follow the wandering leader (their mean distance to
-- it under 12 m over the last 20 s), fly aligned (local order above 0.8),
-- never enter a pillar; the patrol keeps to its square (within 4 m).
local square = { { -42, -42 }, { 42, -42 }, { 42, 42 }, { -42, 42 } }
local sc = { off = mean(), patrol = 0, inside = { frames = 0, most = 0 } }
checks.showcase = {
  seconds = 30,
  every = function(world, t)
    count_inside(world, sc.inside)
    if t < 10 then return end
    local leader = by_role(world, "leader")[1]
    for _, b in ipairs(by_role(world, "boid")) do sc.off:add(dist(b.x, b.y, leader.x, leader.y)) end
    for _, p in ipairs(by_role(world, "patrol")) do
      sc.patrol = math.max(sc.patrol, to_polyline(square, true, p.x, p.y))
    end
  end,
  final = function(world)
    local boids = by_role(world, "boid")
    local order, off = local_order(world, boids, 8), sc.off:get()
    return off < 12 and order > 0.8 and sc.inside.frames == 0 and sc.patrol < 4,
      ("boids %.2f m from the leader on average, local heading order %.3f, inside a pillar on %d frames; "
        .. "patrol within %.2f m of its square"):format(off, order, sc.inside.frames, sc.patrol)
  end,
}

-- rts: the two squads' opening orders take them through the wall's gaps to
-- the other side: after 30 s at least two thirds of the 36 units have
-- arrived at their stop points (the rest on their way), no plan failed, no
-- unit is stuck, and no unit's centre was ever inside a solid.
local rts_inside = { frames = 0, most = 0 }
checks.rts = {
  seconds = 30,
  every = function(world) count_inside(world, rts_inside) end,
  final = function(world)
    local arrived, failed, stuck, n = 0, 0, 0, 0
    for a in world:agents() do
      local p = a:plan()
      n = n + 1
      if p and p.status == "arrived" then arrived = arrived + 1 end
      if not p or p.status == "failed" then failed = failed + 1 end
      if a.stuck then stuck = stuck + 1 end
    end
    return n == 36 and arrived >= 24 and failed == 0 and stuck == 0 and rts_inside.frames == 0,
      ("%d of %d units arrived, %d without a plan or failed, %d stuck, inside a solid on %d frames")
        :format(arrived, n, failed, stuck, rts_inside.frames)
  end,
}

local check = assert(checks[name], "looks_right.lua: no check for " .. name)
local frame, dt_sum = 0, 0
local input = { x = 0, y = 0, buttons = 0, keys = {} }

return {
  roles = demo.roles,
  colors = demo.colors,
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
