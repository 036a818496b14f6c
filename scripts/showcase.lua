-- showcase.lua: the main job until the viewer exists. A wandering leader
-- crosses a field of pillars; 120 boids flock behind it, pursuing it,
-- avoiding each other and the pillars. Prints how the flock moves.
--
--   steer-lua scripts/showcase.lua            (what `make demo` runs)
--   LUA_CPATH="build/bindings/?.so;;" lua5.4 scripts/showcase.lua
local steer = require "steer"

local world = steer.world{ seed = 7, cell_size = 8 }

-- a field of pillars, every 12 m
for px = -36, 36, 12 do
  for py = -36, 36, 12 do
    if (px // 12 + py // 12) % 2 == 0 and not (px == 0 and py == 0) then
      world:add_circle(px, py, 1.5)
    end
  end
end

local avoid = steer.obstacle_avoidance{ lookahead = 4, avoid_distance = 2, rays = "whiskers" }

local leader = world:spawn{
  x = 0, y = 0, max_speed = 3, max_acceleration = 6,
  steering = steer.priority{ avoid, steer.wander{ wander_offset = 3, wander_radius = 2, wander_rate = 0.4 } },
}

local boid = steer.priority{
  avoid,
  -- too close to another boid (bodies are 1 m across): make room first
  steer.separation{ radius = 1.2 },
  steer.blend{
    { steer.separation{ radius = 2 }, weight = 3 },
    { steer.cohesion{ radius = 8 }, weight = 1 },
    { steer.alignment{ radius = 8 }, weight = 1 },
    { steer.pursue{ target = leader, max_prediction = 1, arrive_on_overshoot = true, slow_radius = 6 }, weight = 0.5 },
    { steer.look_where_you_are_going{}, weight = 1 },
  },
  epsilon = 1e-3,
}

for i = 0, 119 do
  world:spawn{ x = (i % 12) * 1.5 - 8, y = (i // 12) * 1.5 - 30, steering = boid }
end

local function report(t)
  local n, cx, cy, speed = 0, 0, 0, 0
  for agent in world:agents() do
    if agent ~= leader then
      n = n + 1
      cx, cy = cx + agent.x, cy + agent.y
      speed = speed + agent.speed
    end
  end
  cx, cy = cx / n, cy / n
  local spread, closest = 0, math.huge
  for agent in world:agents() do
    if agent ~= leader then
      spread = spread + math.sqrt((agent.x - cx) ^ 2 + (agent.y - cy) ^ 2)
      -- nearest other boid, through the neighbour grid
      for _, other in ipairs(world:query(agent.x, agent.y, 3)) do
        if other ~= agent and other ~= leader then
          closest = math.min(closest, math.sqrt((agent.x - other.x) ^ 2 + (agent.y - other.y) ^ 2))
        end
      end
    end
  end
  print(string.format("t=%5.1fs  leader (%6.1f,%6.1f)  flock centre (%6.1f,%6.1f)  spread %4.1f m  "
    .. "closest pair %4.2f m  mean speed %4.2f m/s",
    t, leader.x, leader.y, cx, cy, spread / n, closest, speed / n))
end

print(string.format("showcase: %d boids follow a wandering leader through %s pillars (30 s at 60 Hz)",
  world:count() - 1, "the"))
local dt = 1 / 60
for step = 0, 1800 do
  if step % 300 == 0 then report(step * dt) end
  world:step(dt)
end
print(string.format("world hash after 1801 steps: %s", tostring(world:hash())))
