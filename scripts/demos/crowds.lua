-- crowds.lua: two crowds cross a square in opposite directions, each agent
-- arriving at its own goal (its start mirrored: the crowds swap places)
-- while avoiding the others with reciprocal
-- avoidance (ORCA, docs/crowds.md): each takes its share of every
-- avoidance, so the crowds pass through each other without pushing. R starts
-- the crossing again.
local steer = require "steer"

local function walker(agent)
  return steer.reciprocal_avoidance{
    preferred = steer.arrive{ target = { -agent.x, agent.y }, slow_radius = 4, time_to_target = 0.5 },
    radius = 6,
    time_horizon = 2,
  }
end

return {
  roles = { east = walker, west = walker },
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
