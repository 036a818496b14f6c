-- pursue_evade.lua: a red hare wanders and evades; hounds pursue it with
-- prediction (max_prediction); a second hound only seeks where it is now.
local steer = require "steer"

local hare, home = nil, { 0, 0 }
local pursue = steer.pursue{ max_prediction = 1.5 }
local chase = steer.seek{}

return {
  roles = {
    hare = function()
      return steer.blend{
        { steer.wander{ wander_offset = 3, wander_radius = 2 }, weight = 1 },
        { steer.arrive{ target = home, slow_radius = 30 }, weight = 0.4 },
      }
    end,
    hound = steer.blend{ { pursue, weight = 1 }, { steer.separation{ radius = 2 }, weight = 2 } },
    naive = steer.blend{ { chase, weight = 1 }, { steer.separation{ radius = 2 }, weight = 2 } },
  },
  setup = function(world)
    hare = world:spawn{ x = 0, y = 0, role = "hare", max_speed = 4.5, face_velocity = true }
    for i = 0, 3 do world:spawn{ x = -25 + i * 3, y = -20, role = "hound", max_speed = 4, face_velocity = true } end
    for i = 0, 1 do world:spawn{ x = 25 - i * 3, y = -20, role = "naive", max_speed = 4, face_velocity = true } end
    pursue.target = hare
    chase.target = hare
    hare.trace = true
  end,
  on_reload = function()
    pursue.target = hare
    chase.target = hare
  end,
}
