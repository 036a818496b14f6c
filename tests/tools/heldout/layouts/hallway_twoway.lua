-- SteerSuite's two-way hallway: 30 agents each way in a 5 m corridor; goals mirror the starts.
local lib = require "lib"
local L = lib.new{ name = "hallway_twoway", dt = 0.1, time_limit = 180 }
lib.box(L, -25, 2.5, 25, 3.5)
lib.box(L, -25, -3.5, 25, -2.5)
local rng = lib.rng(202)
for i = 1, 60 do
  local x1, x2 = -23, -10
  if i % 2 == 0 then x1, x2 = 10, 23 end
  local x, y = lib.place(L, rng, x1, -2.5, x2, 2.5, 0.5)
  lib.agent(L, { x = x, y = y, gx = -x, gy = -y, speed = rng(1.2, 1.5) })
end
return L
