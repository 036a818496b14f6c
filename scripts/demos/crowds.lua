-- crowds.lua: two crowds cross a square in opposite directions, each agent
-- arriving at its own goal while avoiding collisions (collision_avoidance)
-- and keeping its distance (separation). R starts the crossing again.
local steer = require "steer"

local function walker(goal_x)
  return function(agent)
    return steer.priority{
      steer.blend{
        { steer.collision_avoidance{ radius = 6 }, weight = 1 },
        { steer.separation{ radius = 1.4 }, weight = 2 },
      },
      steer.blend{
        { steer.arrive{ target = { goal_x, agent.y }, slow_radius = 4 }, weight = 1 },
        { steer.separation{ radius = 1.4 }, weight = 2 },
      },
      epsilon = 0.5,
    }
  end
end

return {
  roles = { east = walker(24), west = walker(-24) },
  setup = function(world)
    for i = 0, 59 do
      local row, col = i % 15, i // 15
      world:spawn{ x = -24 - col * 1.6, y = -14 + row * 2 + col * 0.5, role = "east", max_speed = 2.5,
                   face_velocity = true }
      world:spawn{ x = 24 + col * 1.6, y = -14 + row * 2 + col * 0.7, role = "west", max_speed = 2.5,
                   face_velocity = true }
    end
  end,
}
