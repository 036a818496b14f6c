-- fit_scene.lua: agents near the origin, a box and a patrol path far from
-- them (the viewer's fit must frame all three: check_shot --fit).
local steer = require "steer"

local route = steer.path{ { -40, -30 }, { -40, 30 }, { -20, 30 } }
return {
  roles = { still = steer.seek{ target = { 0, 0 } } },
  setup = function(world)
    world:add_box(55, 30, 65, 40)
    for i = 1, 3 do world:spawn{ x = i * 2, y = 0, max_speed = 0, role = "still" } end
    world:spawn{ x = -40, y = -30, max_speed = 0, steering = steer.follow_path{ path = route } }
  end,
}
