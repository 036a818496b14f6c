-- flocking.lua: 2,000 boids: separation, cohesion and alignment blended,
-- kept in a round arena by a gentle arrive towards its centre.
local steer = require "steer"

return {
  roles = {
    boid = steer.blend{
      { steer.separation{ radius = 1.5 }, weight = 2.5 },
      { steer.cohesion{ radius = 6 }, weight = 1 },
      { steer.alignment{ radius = 6 }, weight = 1 },
      { steer.arrive{ target = { 0, 0 }, slow_radius = 80, target_radius = 40 }, weight = 0.5 },
      { steer.look_where_you_are_going{}, weight = 1 },
    },
  },
  setup = function(world)
    for i = 0, 1999 do
      local a = i * 2.399963 -- golden angle: an even disc of boids
      local r = math.sqrt(i) * 1.2
      world:spawn{ x = r * math.cos(a), y = r * math.sin(a), orientation = a,
                   vx = math.sin(a) * 2, vy = math.cos(a) * 2,
                   role = "boid", max_speed = 4, max_acceleration = 8, key = i + 1 }
    end
  end,
}
