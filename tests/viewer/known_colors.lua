-- known_colors.lua: three still agents for the colour check
-- (check_shot --colors): with --camera 0,0,10 at 320x240, world (x, y) is
-- pixel (160 + 10x, 120 - 10y). One red by agent.color, one blue by its
-- role's colour, one with neither (the viewer's own colour).
local steer = require "steer"

return {
  roles = { hare = steer.seek{ target = { 0, 0 } }, hound = steer.seek{ target = { 0, 0 } } },
  colors = { hare = "#2060ff" },
  setup = function(world)
    world:spawn{ x = -8, y = 0, radius = 1.5, max_speed = 0, role = "hound", color = "#ff2020" }
    world:spawn{ x = 0, y = 0, radius = 1.5, max_speed = 0, role = "hare" }
    world:spawn{ x = 8, y = 0, radius = 1.5, max_speed = 0, role = "hound" }
  end,
}
