-- seek_flee_arrive.lua: kinematic (left column) against steering (right
-- column) seek, flee and arrive, side by side. The target is the mouse:
-- kinematic agents jump to full speed, steering ones accelerate and arrive
-- slows down inside slow_radius. Fleeing agents that leave come back.
--   steer-viewer scripts/demos/seek_flee_arrive.lua
local steer = require "steer"

local target = { 0, 0 }
local roles = {
  kinematic_seek = steer.kinematic_seek{ target = target },
  kinematic_flee = steer.kinematic_flee{ target = target },
  kinematic_arrive = steer.kinematic_arrive{ target = target, radius = 1 },
  seek = steer.seek{ target = target },
  flee = steer.flee{ target = target },
  arrive = steer.arrive{ target = target, slow_radius = 5 },
}

return {
  roles = roles,
  setup = function(world)
    for i, kind in ipairs{ "seek", "flee", "arrive" } do
      local y = 12 - 12 * (i - 1)
      world:spawn{ x = -10, y = y, role = "kinematic_" .. kind, kinematic = true, face_velocity = true, max_speed = 4 }
      world:spawn{ x = 10, y = y, role = kind, face_velocity = true, max_speed = 4 }
    end
  end,
  update = function(world, _, input)
    target[1], target[2] = input.x, input.y
    for _, b in pairs(roles) do b.target = target end
    for agent in world:agents() do
      if math.abs(agent.x) > 40 or math.abs(agent.y) > 40 then agent:set_position(0, 0) end
    end
  end,
}
