-- host_demo.lua: a script for the script host (steer-run, the viewer).
-- Edit it while `steer-run --watch scripts/host_demo.lua` runs: change a
-- number in `roles` and save; the agents keep their places and memory.
local steer = require "steer"

return {
  roles = {
    -- a behaviour: every agent of the role shares it
    wanderer = steer.wander{ wander_offset = 3, wander_radius = 2, wander_rate = 0.4 },
    -- a function: one behaviour per agent, made at spawn and on reload
    follower = function(agent)
      -- every other follower wanders a little more
      local restless = agent.key % 2 == 0
      return steer.blend{
        { steer.separation{ radius = 2 }, weight = 2 },
        { steer.cohesion{ radius = 8 }, weight = 1 },
        { steer.wander{ wander_rate = restless and 0.4 or 0.2 }, weight = 0.5 },
      }
    end,
  },
  setup = function(world)
    world:spawn{ x = 0, y = 0, role = "wanderer", max_speed = 3 }
    for i = 1, 20 do
      world:spawn{ x = (i % 5) * 2 - 4, y = (i // 5) * 2 - 4, role = "follower" }
    end
    print("spawned " .. world:count() .. " agents")
  end,
  update = function(world, _, input)
    -- N (in the viewer) adds a follower at the mouse: once per press, however
    -- long it is held (input.pressed; space is the viewer's pause key)
    if input.pressed.keys.n then world:spawn{ x = input.x, y = input.y, role = "follower" } end
  end,
  on_reload = function(world)
    print("reloaded with " .. world:count() .. " agents")
  end,
}
