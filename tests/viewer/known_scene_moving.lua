-- known_scene_moving.lua: a few wanderers, one traced, for the Xvfb key test.
local steer = require "steer"

return {
  roles = { walker = steer.wander{ wander_offset = 2, wander_radius = 1.5, wander_rate = 0.3 } },
  setup = function(world)
    for i = 0, 5 do
      local a = world:spawn{ x = (i % 3) * 6 - 6, y = (i // 3) * 6 - 3, orientation = i, role = "walker",
                             max_speed = 3 }
      if i == 0 then a.trace = true end
    end
  end,
}
