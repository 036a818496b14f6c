-- input_probe.lua: the Xvfb input test's script (xvfb_input.sh). Prints
-- what reaches update: each click (input.pressed/released.buttons), the
-- presses of A and how long it was held, and any viewer key that leaked
-- into input.keys. With --camera 0,0,10 at 800x600, world (x, y) is pixel
-- (400 + 10x, 300 - 10y): the traced agent at pixel (100, 300), the other
-- under the inspector at (550, 300).
local steer = require "steer"

local held, presses = 0, 0
return {
  roles = { still = steer.seek{ target = { 0, 0 } } },
  setup = function(world)
    world:spawn{ x = -30, y = 0, radius = 1, max_speed = 0, role = "still" }.trace = true
    world:spawn{ x = 15, y = 0, radius = 1, max_speed = 0, role = "still" }
  end,
  update = function(_, _, input)
    if input.pressed.buttons ~= 0 then
      print(("script: pressed %d at %.0f %.0f"):format(input.pressed.buttons, input.x, input.y))
    end
    if input.released.buttons ~= 0 then print(("script: released %d"):format(input.released.buttons)) end
    if input.pressed.keys.a then presses = presses + 1; print("script: a pressed " .. presses) end
    if input.keys.a then
      held = held + 1
      if held == 10 then print("script: a held 10 updates") end
    end
    if input.released.keys.a then print(("script: a released after %d updates, %d press(es)"):format(held, presses)) end
    for _, k in ipairs{ "space", "d", "h", "r", "f", "c", "escape" } do
      if input.keys[k] or input.pressed.keys[k] then print("script: LEAKED viewer key " .. k) end
    end
  end,
}
