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
