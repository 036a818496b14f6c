-- face.lua: turrets face the mouse (face); runners on a loop look where
-- they are going (look_where_you_are_going) instead of snapping to it.
local steer = require "steer"

local mouse = { 0, 0 }
local face = steer.face{ target = mouse }

return {
  roles = {
    turret = face,
    runner = function()
      local loop = steer.path{ { -20, -12 }, { 20, -12 }, { 20, 12 }, { -20, 12 }, loop = true }
      return steer.blend{
        { steer.follow_path{ path = loop, path_offset = 2 }, weight = 1 },
        { steer.look_where_you_are_going{}, weight = 1 },
      }
    end,
  },
  setup = function(world)
    for i = 0, 4 do world:spawn{ x = -16 + i * 8, y = 0, role = "turret", max_speed = 0, radius = 1 } end
    for i = 0, 5 do world:spawn{ x = -20 + i * 7, y = -12, role = "runner", max_speed = 5 } end
  end,
  update = function(_, _, input)
    mouse[1], mouse[2] = input.x, input.y
    face.target = mouse
  end,
}
