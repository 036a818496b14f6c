-- arbitration.lua: blending and priorities, for the inspector. The traced
-- agent (click it) runs a priority: avoid the pillars first, then a blend of
-- seek (to the mouse), separation and wander. The inspector shows each
-- child's output, its weight, and which group won; tune a weight and watch.
local steer = require "steer"

local mouse = { 10, 0 }
local time = 0
local seek = steer.arrive{ target = mouse, slow_radius = 4 }

return {
  roles = {
    agent = steer.priority{
      steer.obstacle_avoidance{ lookahead = 3, avoid_distance = 2, rays = "whiskers" },
      steer.blend{
        { seek, weight = 1 },
        { steer.separation{ radius = 2.5 }, weight = 3 },
        { steer.wander{ wander_offset = 2, wander_radius = 1 }, weight = 0.3 },
        { steer.look_where_you_are_going{}, weight = 1 },
      },
      epsilon = 1e-3,
    },
  },
  setup = function(world)
    -- the viewer's camera: the whole orbit in view (steer-run ignores it)
    camera{ x = 0, y = 0, span = 26 }
    for x = -12, 12, 8 do world:add_circle(x, 0, 1.5) end
    for i = 0, 7 do
      local a = world:spawn{ x = -16 + (i % 4) * 2, y = -8 + (i // 4) * 2, role = "agent", max_speed = 4 }
      if i == 0 then a.trace = true end
    end
  end,
  update = function(_, dt, input)
    -- hold the left button to lead the group with the mouse; else the
    -- target orbits the pillars slowly
    time = time + dt
    if input.buttons & 1 == 1 then mouse[1], mouse[2] = input.x, input.y
    else mouse[1], mouse[2] = 16 * math.cos(time * 0.3), 9 * math.sin(time * 0.3) end
    seek.target = mouse
  end,
}
