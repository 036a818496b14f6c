-- scene.lua: the LÖVE game's world (main.lua), also run by the specs under
-- every Lua (tests/lua/versions_spec.lua) and by the LÖVE test: the same
-- script gives the same world hash in Lua 5.1, LuaJIT, 5.3 and 5.4. Plain
-- Lua 5.1 syntax; only arithmetic in Lua (no math.sin: libraries differ).
local scene = {}
scene.__index = scene

--- The world: pillars, a kinematic cursor the flock pursues (the mouse in
--- the game, a scripted square in the tests) and 80 boids; the first 8 also
--- run the Lua behaviour of think.lua (hot-reloaded by the game).
function scene.new(steer, think)
  local s = setmetatable({ steer = steer, think = think, frame = 0 }, scene)
  local world = steer.world{ seed = 23 }
  s.world = world
  for px = -24, 24, 16 do
    for py = -16, 16, 16 do world:add_circle(px, py, 1.5) end
  end
  s.cursor = world:spawn{ x = 0, y = 0, kinematic = true, radius = 0.5 }
  local avoid = steer.obstacle_avoidance{ lookahead = 4, avoid_distance = 2, rays = "whiskers" }
  -- the Lua behaviour calls whatever s.think is now (hot reload swaps it)
  local lua_part = steer.behaviour(function(agent, dt) return s.think(agent, dt, s.cursor) end)
  local flock = {
    { steer.separation{ radius = 2 }, weight = 3 },
    { steer.cohesion{ radius = 8 }, weight = 1 },
    { steer.alignment{ radius = 8 }, weight = 1 },
    { steer.pursue{ target = s.cursor, max_prediction = 1, slow_radius = 6 }, weight = 1 },
    { steer.look_where_you_are_going{}, weight = 1 },
  }
  s.boid = steer.priority{ avoid, steer.blend(flock), epsilon = 1e-3 }
  local thinker = {}
  for i = 1, #flock do thinker[i] = flock[i] end
  thinker[#thinker + 1] = { lua_part, weight = 2 }
  s.thinker = steer.priority{ avoid, steer.blend(thinker), epsilon = 1e-3 }
  for i = 0, 79 do
    local x, y = (i % 10) * 1.5 - 7, math.floor(i / 10) * 1.5 - 30
    local a = world:spawn{ x = x, y = y, max_speed = 6, max_acceleration = 12,
                           steering = i < 8 and s.thinker or s.boid }
    if i == 0 then a.trace = true; s.traced = a end
  end
  return s
end

--- The scripted cursor: a 40 x 24 m rectangle walked in 16 s (arithmetic only).
function scene.cursor_at(frame)
  local t = (frame % 960) / 960 * 128 -- metres along the perimeter
  if t < 40 then return t - 20, -12 end
  if t < 64 then return 20, t - 40 - 12 end
  if t < 104 then return 20 - (t - 64), 12 end
  return -20, 12 - (t - 104)
end

--- One frame: the cursor to (x, y) (default: the script), then a step of 1/60 s.
function scene:update(x, y)
  self.frame = self.frame + 1
  if not x then x, y = scene.cursor_at(self.frame) end
  self.cursor:set_position(x, y)
  self.world:step(1 / 60)
end

--- The world hash after 600 scripted frames, as 16 hex digits.
function scene.run(steer, think, frames)
  local s = scene.new(steer, think)
  for _ = 1, frames or 600 do s:update() end
  return s.world:hash("hex"), s
end

return scene
