-- known_scene.lua: agents that stand still at known places (max_speed 0),
-- for the screenshot test (tests/viewer/check_shot.c): with the camera
-- --camera 0,0,10 at 320x240, world (x, y) is pixel (160 + 10x, 120 - 10y).
local steer = require "steer"

return {
  roles = { still = steer.seek{ target = { 0, 0 } } },
  setup = function(world)
    for _, p in ipairs{ { -10, 5 }, { 0, 0 }, { 8, -6 }, { 12, 8 } } do
      world:spawn{ x = p[1], y = p[2], radius = 0.8, max_speed = 0, role = "still" }
    end
  end,
}
