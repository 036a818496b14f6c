-- SteerSuite's bottleneck squeeze: 50 agents leave a 20 x 20 room through a 2 m wide, 10 m long corridor.
local lib = require "lib"
local L = lib.new{ name = "bottleneck_squeeze", dt = 0.1, time_limit = 240 }
lib.box(L, -21, 10, 0, 11)
lib.box(L, -21, -11, 0, -10)
lib.box(L, -21, -10, -20, 10)
lib.box(L, -0.5, 1, 0, 10)
lib.box(L, -0.5, -10, 0, -1)
lib.box(L, 0, 1, 10, 1.5)
lib.box(L, 0, -1.5, 10, -1)
local rng = lib.rng(505)
local goals = {}
for _ = 1, 50 do
  local x, y = lib.place(L, rng, -19, -9, -3, 9, 0.5)
  local gx, gy = lib.place_goal(L, rng, goals, 14, -6, 26, 6, 0.5)
  lib.agent(L, { x = x, y = y, gx = gx, gy = gy, speed = rng(1.2, 1.5) })
end
return L
