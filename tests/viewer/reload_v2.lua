-- reload_v1.lua: the second version (a parameter changed) of the script the reload test edits.
local steer = require "steer"
local speed = 7
return {
  roles = { walker = steer.wander{ wander_rate = 0.2 } },
  setup = function(world)
    for i = 1, 10 do world:spawn{ x = i, y = 0, role = "walker", max_speed = speed } end
    print("version one, max_speed=" .. speed)
  end,
  on_reload = function(world)
    for agent in world:agents() do agent.max_speed = speed end
    print("reloaded, max_speed=" .. speed)
  end,
}
