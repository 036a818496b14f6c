-- formations.lua: line, V and circle formations following a leader that
-- chases the mouse, and a two-level squad with roles whose anchor walks a
-- path and waits for stragglers (docs/lua-api.md, Formations).
--
--   steer-lua scripts/demos/formations.lua     (headless: a scripted mouse; prints)
--
-- As a host script (steer-viewer, steer-run) it returns setup and update;
-- update reads the mouse as the host gives it: input.x, input.y (world units).
local steer = require "steer"

local demo = {}
local formations, leaders, squad

local function member(world, x, y, role)
  return world:spawn{ x = x, y = y, role = role, max_speed = 7, max_acceleration = 25, max_rotation = 6,
                      max_angular_acceleration = 40 }
end

function demo.setup(world)
  formations, leaders = {}, {}
  -- three groups of five, each behind its own leader; the leaders arrive
  -- at the mouse, offset so that the groups do not overlap
  for k, pattern in ipairs{ "line", "v", "circle" } do
    local leader = world:spawn{ x = (k - 2) * 15, y = 0, max_speed = 3, max_acceleration = 8, face_velocity = true }
    leader.steering = steer.arrive{ target = { (k - 2) * 15, 0 }, target_radius = 0.3, slow_radius = 4 }
    local members = {}
    for i = 1, 5 do members[i] = member(world, (k - 2) * 15 + i - 3, -6) end
    formations[k] = steer.formation{ pattern = pattern, leader = leader, members = members, spacing = 2 }
    leaders[k] = leader
  end
  -- the squad: shields in front, archers behind, a healer in the middle;
  -- its anchor walks a square path; a wall stands in the way of some
  world:add_wall(-5, 32, -2.2, 32)
  local route = world:path{ { 0, 20 }, { 0, 50 }, { 30, 50 }, { 30, 20 }, loop = true }
  local roles = { "shield", "shield", "archer", "archer", "archer", "healer" }
  local members = {}
  for i, role in ipairs(roles) do members[i] = member(world, i * 1.5 - 5, 15, role) end
  squad = steer.formation{
    world = world,
    anchor = { x = 0, y = 20, path = route, max_speed = 2 },
    pattern = { { -1.5, 1.5 }, { 1.5, 1.5 }, { -3, -2 }, { 0, -2 }, { 3, -2 }, { 0, 0 } },
    slot_roles = { "shield", "shield", "archer", "archer", "archer", "healer" },
    costs = { archer = { shield = math.huge, healer = 5 }, healer = { shield = math.huge }, shield = { archer = 3 } },
    members = members,
    steering = false, -- each member blends its slot with obstacle avoidance
  }
  local brain = steer.priority{
    steer.obstacle_avoidance{ lookahead = 2, avoid_distance = 1.5, rays = "whiskers" },
    squad:behaviour(),
    epsilon = 1e-3,
  }
  for _, a in ipairs(members) do a.steering = brain end
end

function demo.update(_, _, input)
  -- (after a hot reload, setup has not run in this version: nothing to drive)
  if input and input.x and leaders then
    for k, leader in ipairs(leaders) do
      leader.steering.target = { input.x + (k - 2) * 15, input.y }
    end
  end
end

-- worst distance of a member from its slot
local function spread(f)
  local worst = 0
  for _, a in ipairs(f.members) do
    local s = f:slot_of(a)
    if s then
      local x, y = f:slot_target(s)
      worst = math.max(worst, math.sqrt((x - a.x) ^ 2 + (y - a.y) ^ 2))
    end
  end
  return worst
end

-- headless: a mouse that circles, 30 s at 60 Hz, a report every 5 s
if arg and arg[0] and arg[0]:match("formations%.lua$") then
  local world = steer.world{ seed = 12 }
  demo.setup(world)
  local dt = 1 / 60
  for step = 1, 1800 do
    local t = step * dt
    demo.update(world, dt, { x = 12 * math.sin(t * 0.3), y = 12 * math.cos(t * 0.3) - 12 })
    world:step(dt)
    if step % 300 == 0 then
      local ax, ay, _, moderation = squad:anchor()
      print(("t=%4.1fs  line %.2f m  v %.2f m  circle %.2f m  squad %.2f m (anchor %.1f, %.1f, speed x%.2f, cost %.1f)")
        :format(t, spread(formations[1]), spread(formations[2]), spread(formations[3]), spread(squad), ax, ay,
                moderation, squad:total_cost()))
    end
  end
  print(("world hash after %d steps: %x"):format(1800, world:hash()))
end

return demo
