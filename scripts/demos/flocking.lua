-- flocking.lua: 2,000 boids: separation, cohesion and alignment blended; a
-- little wander keeps each one flying forward, and a gentle seek towards the
-- centre turns the flock back into a round arena.
--
-- Spawned on an even disc (the golden angle) with neighbours 2.3 m apart,
-- outside the separation radius, so the flock does not start by exploding.
-- The centre pull is a seek, not an arrive: an arrive brakes every boid
-- inside its target radius and the flock stalls (issue 24: 0.25 m/s).
-- tests/demos/looks_right.lua checks it after 30 s: mean speed above half of
-- max_speed and local heading order above 0.8.
local steer = require "steer"

return {
  roles = {
    boid = steer.blend{
      { steer.separation{ radius = 1.5 }, weight = 2.5 },
      { steer.cohesion{ radius = 6 }, weight = 1 },
      { steer.alignment{ radius = 6 }, weight = 1 },
      { steer.wander{ wander_offset = 3, wander_radius = 1, wander_rate = 0.2 }, weight = 0.3 },
      { steer.seek{ target = { 0, 0 } }, weight = 0.35 },
      { steer.look_where_you_are_going{}, weight = 1 },
    },
  },
  setup = function(world)
    for i = 0, 1999 do
      local a = i * 2.399963 -- golden angle: an even disc of boids
      local r = math.sqrt(i) * 1.3
      world:spawn{ x = r * math.cos(a), y = r * math.sin(a), orientation = a,
                   vx = math.sin(a) * 2, vy = math.cos(a) * 2,
                   role = "boid", max_speed = 4, max_acceleration = 8, key = i + 1 }
    end
  end,
}
