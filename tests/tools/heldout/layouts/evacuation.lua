-- Evacuation: 50 agents leave a 20 x 20 room through one 1.5 m exit to goals outside.
local lib = require "lib"
local L = lib.new{ name = "evacuation", dt = 0.1, time_limit = 200 }
lib.box(L, -11, 10, 11, 11)
lib.box(L, -11, -11, 11, -10)
lib.box(L, -11, -10, -10, 10)
lib.box(L, 10, 0.75, 11, 10)
lib.box(L, 10, -10, 11, -0.75)
local rng = lib.rng(808)
local goals = {}
for _ = 1, 50 do
  local x, y = lib.place(L, rng, -10, -10, 8, 10, 0.5)
  local gx, gy = lib.place_goal(L, rng, goals, 14, -7, 26, 7, 0.5)
  lib.agent(L, { x = x, y = y, gx = gx, gy = gy, speed = rng(1.2, 1.5) })
end
return L
