-- showcase.lua: the main job (`make demo` opens it in steer-viewer). A
-- wandering leader crosses a field of pillars; 120 boids flock behind it,
-- pursuing it, avoiding each other and the pillars; a patrol follows a path
-- around the field. One boid is traced: press D to see its arbitration,
-- click it for the inspector. Runs headless too: steer-run scripts/showcase.lua
local steer = require "steer"

local avoid = steer.obstacle_avoidance{ lookahead = 4, avoid_distance = 2, rays = "whiskers" }
local pursue = steer.pursue{ max_prediction = 1, arrive_on_overshoot = true, slow_radius = 6 }
local leader
local patrol_path = steer.path{ { -42, -42 }, { 42, -42 }, { 42, 42 }, { -42, 42 }, loop = true }

return {
  roles = {
    leader = steer.priority{ avoid, steer.wander{ wander_offset = 3, wander_radius = 2, wander_rate = 0.4 } },
    boid = steer.priority{
      avoid,
      -- too close to another boid (bodies are 1 m across): make room first
      steer.separation{ radius = 1.2 },
      steer.blend{
        { steer.separation{ radius = 2 }, weight = 3 },
        { steer.cohesion{ radius = 8 }, weight = 1 },
        { steer.alignment{ radius = 8 }, weight = 1 },
        { pursue, weight = 0.5 },
        { steer.look_where_you_are_going{}, weight = 1 },
      },
      epsilon = 1e-3,
    },
    patrol = steer.blend{
      { steer.follow_path{ path = patrol_path, path_offset = 3, predict_time = 0.3 }, weight = 1 },
      { steer.separation{ radius = 2 }, weight = 2 },
      { steer.look_where_you_are_going{}, weight = 1 },
    },
  },
  setup = function(world)
    -- a field of pillars, every 12 m
    local pillars = {}
    for px = -36, 36, 12 do
      for py = -36, 36, 12 do
        if (px // 12 + py // 12) % 2 == 0 and not (px == 0 and py == 0) then
          world:add_circle(px, py, 1.5)
          pillars[#pillars + 1] = { px, py }
        end
      end
    end
    local function clear_of_pillars(x, y)
      for _, p in ipairs(pillars) do
        if (x - p[1]) ^ 2 + (y - p[2]) ^ 2 < 2.5 ^ 2 then return false end
      end
      return true
    end
    leader = world:spawn{ x = 0, y = 0, max_speed = 3, max_acceleration = 6, role = "leader", radius = 0.8 }
    -- 120 boids on a lattice south of the leader, none inside a pillar
    local placed, cell = 0, 0
    while placed < 120 do
      local x, y = (cell % 12) * 1.5 - 8, (cell // 12) * 1.5 - 30
      cell = cell + 1
      if clear_of_pillars(x, y) then
        local b = world:spawn{ x = x, y = y, role = "boid" }
        if placed == 0 then b.trace = true end
        placed = placed + 1
      end
    end
    for i = 0, 9 do world:spawn{ x = -42 + i * 3, y = -42, role = "patrol", max_speed = 4 } end
    pursue.target = leader
  end,
  on_reload = function() pursue.target = leader end,
}
