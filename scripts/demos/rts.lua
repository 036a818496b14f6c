-- rts.lua: RTS orders through a walled map (issue 22). Two squads start on
-- either side of a wall with two gaps and swap sides. Left button: click a
-- unit, or drag a box, to select (selected units are traced: D shows their
-- routes and the navigation mesh); right button: send the selection there
-- (every unit when none is selected). Each unit gets its own stop point
-- round the click (world:move_group) and navigates to it round the walls
-- (steer.navigate inside reciprocal_avoidance). Stuck units get a red ring.
-- Run headless (steer-lua rts.lua) it sends the army across the map twice
-- and checks that every unit arrives.
local steer = require "steer"

local demo = {}
local BOUNDS = { -60, -40, 60, 40 }

demo.roles = {
  unit = steer.blend{
    steer.reciprocal_avoidance{ preferred = steer.navigate{}, radius = 6, time_horizon = 1.5 },
    steer.look_where_you_are_going{},
  },
}

-- the map: a wall across the middle with two gaps, and blocks on both sides
local function build(world)
  world:add_polyline{ { -60, -40 }, { 60, -40 }, { 60, 40 }, { -60, 40 }, loop = true }
  world:add_box(-1, -40, 1, -14)
  world:add_box(-1, -8, 1, 8)
  world:add_box(-1, 14, 1, 40)
  world:add_box(18, -22, 30, -12)
  world:add_box(16, 8, 22, 28)
  world:add_circle(-24, 14, 4)
  world:add_box(-36, -26, -20, -21)
end

-- send these units to (x, y): each its own stop point
local function send(world, units, x, y)
  return world:move_group{ agents = units, to = { x, y } }
end

function demo.setup(world)
  build(world)
  local west, east = {}, {}
  for i = 0, 35 do
    local side = i < 18 and -1 or 1
    local k = i % 18
    local u = world:spawn{ x = side * (52 - (k % 6) * 2.5), y = -6 + (k // 6) * 2.5, role = "unit", max_speed = 4,
                           max_acceleration = 8, key = i + 1 }
    table.insert(side < 0 and west or east, u)
  end
  west[1].trace = true
  -- the opening orders: the squads swap sides through the gaps
  send(world, west, 44, 20)
  send(world, east, -44, -20)
end

-- the agents matching a filter, in the order of their keys
local function list(world, filter)
  local out = {}
  for a in world:agents(filter) do out[#out + 1] = a end
  table.sort(out, function(p, q) return p.key < q.key end)
  return out
end

-- the left button's edges are tracked here (input gives its level)
local was_down, right_was_down, drag = false, false, nil

local function select_in(world, x1, y1, x2, y2)
  local lx, hx, ly, hy = math.min(x1, x2), math.max(x1, x2), math.min(y1, y2), math.max(y1, y2)
  if hx - lx < 0.5 and hy - ly < 0.5 then lx, hx, ly, hy = lx - 0.8, hx + 0.8, ly - 0.8, hy + 0.8 end
  local picked = {}
  for _, u in ipairs(list(world, { role = "unit" })) do
    u.tag = nil
    u.trace = false
    if u.x >= lx and u.x <= hx and u.y >= ly and u.y <= hy then
      u.tag = "selected"
      u.trace = true
      picked[#picked + 1] = u
    end
  end
  return picked
end

-- send the selection (or every unit when none is selected) to (x, y)
function demo.order(world, x, y)
  local units = list(world, { tag = "selected" })
  if #units == 0 then units = list(world, { role = "unit" }) end
  if x < BOUNDS[1] + 1 or x > BOUNDS[3] - 1 or y < BOUNDS[2] + 1 or y > BOUNDS[4] - 1 then return nil, "off the map" end
  return send(world, units, x, y)
end

function demo.update(world, _, input)
  if not input or not input.buttons then return end
  local down, right = input.buttons & 1 == 1, input.buttons & 2 == 2
  if down and not was_down then drag = { input.x, input.y } end
  if not down and was_down and drag then
    select_in(world, drag[1], drag[2], input.x, input.y)
    drag = nil
  end
  if right and not right_was_down then demo.order(world, input.x, input.y) end
  was_down, right_was_down = down, right
end

-- headless: two orders across the map; every unit must arrive
if arg and arg[0] and arg[0]:match("rts%.lua$") then
  local world = steer.world{ seed = 3, nav_bounds = BOUNDS }
  demo.setup(world)
  for _, u in ipairs(list(world, { role = "unit" })) do u.steering = demo.roles.unit end
  local dt = 1 / 30
  local ok = true
  for _, goal in ipairs({ { 44, 0 }, { -44, 24 } }) do
    assert(demo.order(world, goal[1], goal[2]))
    local arrived, t = 0, 0
    local units = list(world, { role = "unit" })
    while t < 120 and arrived < #units do
      world:step(dt)
      t = t + dt
      arrived = 0
      for _, u in ipairs(units) do
        if u:plan().status == "arrived" then arrived = arrived + 1 end
      end
    end
    print(("order to (%g, %g): %d of %d arrived in %.1f s"):format(goal[1], goal[2], arrived, #units, t))
    ok = ok and arrived == #units
  end
  print(ok and "rts ok" or "rts FAILED")
  if not ok then os.exit(1) end
end

return demo
