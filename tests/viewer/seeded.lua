-- seeded.lua: a scene the seed changes twice over, for the viewer's --seed
-- test: math.random places the agents (the host seeds it from the world's
-- seed) and wander draws from the world's random streams.
local steer = require "steer"

return {
  roles = { walker = steer.wander{ wander_offset = 2, wander_radius = 1.5, wander_rate = 0.6 } },
  setup = function(world)
    for _ = 1, 12 do
      world:spawn{ x = math.random() * 20 - 10, y = math.random() * 20 - 10, role = "walker", max_speed = 3 }
    end
  end,
}
