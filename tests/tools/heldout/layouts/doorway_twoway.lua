-- SteerSuite's two-way doorway: two walled rooms joined by a 1.6 m door, 10 agents cross each way.
local lib = require "lib"
local L = lib.new{ name = "doorway_twoway", dt = 0.1, time_limit = 150 }
lib.box(L, -11, 10, 11, 11)
lib.box(L, -11, -11, 11, -10)
lib.box(L, -11, -10, -10, 10)
lib.box(L, 10, -10, 11, 10)
lib.box(L, -0.25, 0.8, 0.25, 10)
lib.box(L, -0.25, -10, 0.25, -0.8)
local rng = lib.rng(404)
for i = 1, 20 do
  local x1, x2 = -9, -2
  if i % 2 == 0 then x1, x2 = 2, 9 end
  local x, y = lib.place(L, rng, x1, -5, x2, 5, 0.5, 0.3)
  lib.agent(L, { x = x, y = y, gx = -x, gy = y, speed = rng(1.2, 1.5) })
end
return L
