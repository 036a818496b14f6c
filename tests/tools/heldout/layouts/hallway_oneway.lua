-- SteerSuite's one-way hallway: a 5 m wide corridor, 40 agents walking one way, each to its own goal.
local lib = require "lib"
local L = lib.new{ name = "hallway_oneway", dt = 0.1, time_limit = 120 }
lib.box(L, -25, 2.5, 25, 3.5)
lib.box(L, -25, -3.5, 25, -2.5)
local rng = lib.rng(101)
for _ = 1, 40 do
  local x, y = lib.place(L, rng, -24, -2.5, -5, 2.5, 0.5)
  lib.agent(L, { x = x, y = y, gx = x + 30, gy = y, speed = rng(1.2, 1.5) })
end
return L
