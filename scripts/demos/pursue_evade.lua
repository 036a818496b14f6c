-- pursue_evade.lua: a red hare wanders around its home and evades the
-- nearest hound once it is inside its panic radius (evade, panic_radius);
-- four hounds pursue it with prediction (max_prediction), two naive ones
-- only seek where it is now. A hound that comes within 1 m catches it, and
-- the hare starts again at home.
local steer = require "steer"

local hare, home = nil, { 0, 0 }
local pursue = steer.pursue{ max_prediction = 1.5 }
local chase = steer.seek{}
local evade = steer.evade{ max_prediction = 0.5, panic_radius = 8 }
local catches = 0

return {
  roles = {
    hare = function()
      return steer.blend{
        { steer.wander{ wander_offset = 3, wander_radius = 2 }, weight = 1 },
        { steer.arrive{ target = home, slow_radius = 30 }, weight = 0.4 },
        { evade, weight = 2 },
      }
    end,
    hound = steer.blend{ { pursue, weight = 1 }, { steer.separation{ radius = 2 }, weight = 2 } },
    naive = steer.blend{ { chase, weight = 1 }, { steer.separation{ radius = 2 }, weight = 2 } },
  },
  -- the roles' colours in the viewer: a red hare, brown hounds, grey naive ones
  colors = { hare = "#e03c31", hound = "#a0703c", naive = "#9a9a9a" },
  setup = function(world)
    catches = 0
    -- (no face_velocity: wander turns the hare by its orientation, which
    -- face_velocity would overwrite with the velocity: it would run straight)
    hare = world:spawn{ x = 0, y = 0, role = "hare", max_speed = 4.2 }
    for i = 0, 3 do world:spawn{ x = -25 + i * 3, y = -20, role = "hound", max_speed = 4.5, face_velocity = true } end
    for i = 0, 1 do world:spawn{ x = 25 - i * 3, y = -20, role = "naive", max_speed = 4.5, face_velocity = true } end
    pursue.target = hare
    chase.target = hare
    hare.trace = true
  end,
  update = function(world)
    if not (hare and hare:alive()) then return end
    -- the hare evades the nearest hound; within 1 m it is caught
    local nearest, d2 = nil, math.huge
    for a in world:agents() do
      if a.role == "hound" or a.role == "naive" then
        local d = (a.x - hare.x) ^ 2 + (a.y - hare.y) ^ 2
        if d < d2 then nearest, d2 = a, d end
      end
    end
    evade.target = nearest
    if d2 < 1 then
      catches = catches + 1
      print(("caught by a %s hound (%d)"):format(nearest.role == "hound" and "pursuing" or "naive", catches))
      hare:set_position(home[1], home[2])
      hare:set_velocity(0, 0)
    end
  end,
  on_reload = function()
    pursue.target = hare
    chase.target = hare
  end,
}
