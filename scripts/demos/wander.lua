-- wander.lua: thirty wanderers in a walled yard; the first one is traced,
-- so with D the viewer shows its wander circle and the target on it.
local steer = require "steer"

local walls = steer.obstacle_avoidance{ lookahead = 3, avoid_distance = 2, rays = "whiskers" }

return {
  roles = {
    wanderer = steer.priority{ walls, steer.wander{ wander_offset = 3, wander_radius = 1.5, wander_rate = 0.3 } },
  },
  setup = function(world)
    world:add_polyline{ { -30, -20 }, { 30, -20 }, { 30, 20 }, { -30, 20 }, loop = true }
    for i = 0, 29 do
      local a = world:spawn{ x = (i % 6) * 8 - 20, y = (i // 6) * 7 - 14, orientation = i, role = "wanderer",
                             max_speed = 3 }
      if i == 0 then a.trace = true end
    end
  end,
}
