-- camera_call.lua: setup asks the viewer's camera for (100, 50) at
-- 10 px/m, where the only agent stands (check_shot --bright-at 160 120 at
-- 320x240); the bad calls raise named errors; steer-run ignores the call.
local steer = require "steer"

return {
  roles = { still = steer.seek{ target = { 0, 0 } } },
  setup = function(world)
    world:spawn{ x = 100, y = 50, radius = 1, max_speed = 0, role = "still" }
    world:spawn{ x = 0, y = 0, radius = 1, max_speed = 0, role = "still" }
    camera{ x = 100, y = 50, zoom = 10 }
    for _, bad in ipairs{ { zoom = -1 }, { x = 1 }, { fit = true, zoom = 2 }, { zom = 2 }, { zoom = 1, span = 3 } } do
      local ok, msg = pcall(camera, bad)
      print("camera refused: " .. tostring(not ok) .. ": " .. tostring(msg))
    end
  end,
}
