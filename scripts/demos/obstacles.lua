-- obstacles.lua: wanderers in a small maze: obstacle and wall avoidance with
-- whiskers (the first agent traced: its rays and hits show with D).
local steer = require "steer"

return {
  roles = {
    explorer = steer.priority{
      steer.obstacle_avoidance{ lookahead = 3, avoid_distance = 1.5, rays = "whiskers" },
      steer.wander{ wander_offset = 2, wander_radius = 1, wander_rate = 0.3 },
    },
  },
  setup = function(world)
    world:add_polyline{ { -24, -16 }, { 24, -16 }, { 24, 16 }, { -24, 16 }, loop = true }
    world:add_wall(-12, -16, -12, 6)
    world:add_wall(0, 16, 0, -4)
    world:add_wall(12, -16, 12, 6)
    world:add_circle(-18, 8, 2)
    world:add_box(4, -12, 8, -8)
    world:add_polygon{ { 16, 10 }, { 21, 9 }, { 19, 13 } }
    -- a 4 x 3 grid between the walls, every agent 2 m or more from any
    -- shape (the old grid put two on the box's and the circle's edges)
    for i = 0, 11 do
      local a = world:spawn{ x = -22 + (i % 4) * 12, y = -12 + (i // 4) * 10, orientation = i * 0.7,
                             role = "explorer", max_speed = 3 }
      if i == 0 then a.trace = true end
    end
  end,
}
