-- The cross-build golden scene (tests/lua/golden_spec.lua pins its hash):
-- one scene with a bit of everything whose arithmetic a compiler or an
-- architecture could change (an anchored formation and a led one, a crowd
-- under reciprocal avoidance with contact resolution, obstacle avoidance
-- among shapes, wander, and a behaviour written in Lua). Shared by the spec
-- (busted, every build `make test` makes) and tests/lua/golden_check.lua
-- (plain Lua: the aarch64 build under qemu-user, `make test-aarch64`).
local steer = require "steer"

local golden = {}

--- the pinned world:hash("hex") after STEPS steps, for any worker count
golden.HASH = "c5337419cede3839" -- overlap21d: the closer's braking in step_radius (the scene steps at 1/60 s)
golden.STEPS = 240
golden.AGENTS = 52

--- the scene stepped STEPS times with `workers` workers: its hash and agent count
function golden.scene(workers)
  local world = steer.world{ seed = 20, workers = workers, resolve_agent_contacts = true }
  world:add_box(-4, 8, 4, 10)
  world:add_circle(12, -6, 2.5)
  world:add_wall(-20, -14, 20, -14)
  -- an anchored formation walking to a point, and one led by an agent
  local led_by = world:spawn{ x = -18, y = 0, max_speed = 2,
    steering = steer.arrive{ target = { 18, 4 }, target_radius = 0.5, slow_radius = 4 } }
  local members, followers = {}, {}
  for i = 1, 8 do members[i] = world:spawn{ x = -12 + i, y = -8 + (i % 3), max_speed = 4 } end
  for i = 1, 5 do followers[i] = world:spawn{ x = -16 - i, y = 3 + i * 0.7, max_speed = 4 } end
  steer.formation{ members = members, pattern = "v", spacing = 1.5,
    anchor = { x = -10, y = -8, max_speed = 1.5, max_acceleration = 4,
      steering = steer.arrive{ target = { 14, 12 }, slow_radius = 3 } } }
  steer.formation{ members = followers, pattern = "circle", spacing = 1.2, leader = led_by }
  -- a crowd crossing under reciprocal avoidance
  for i = 1, 24 do
    local y = (i - 12) * 1.1
    local goal = { (i % 2 == 0) and -16 or 16, -y }
    world:spawn{ x = (i % 2 == 0) and 16 or -16, y = y, radius = 0.45, max_speed = 1.6, max_acceleration = 8,
      steering = steer.reciprocal_avoidance{ preferred = steer.arrive{ target = goal, slow_radius = 2 },
        time_horizon = 2, radius = 5 } }
  end
  -- wanderers avoiding the shapes
  local wanderer = steer.priority{
    steer.obstacle_avoidance{ lookahead = 3, avoid_distance = 1.5, rays = "whiskers" },
    steer.wander{ wander_offset = 2, wander_radius = 1, wander_rate = 1.5 },
  }
  for i = 1, 10 do world:spawn{ x = -6 + i * 1.3, y = 6 - (i % 4), max_speed = 3, steering = wanderer } end
  -- a behaviour written in Lua: circle the origin
  local circler = steer.behaviour(function(agent, _)
    local x, y = agent.x, agent.y
    return -y - 0.2 * x, x - 0.2 * y, 0
  end)
  for i = 1, 4 do world:spawn{ x = 3 * i, y = -3, max_speed = 2.5, steering = circler } end
  for _ = 1, golden.STEPS do world:step(1 / 60) end
  return world:hash("hex"), world:count()
end

return golden
