-- SteerSuite's random scenarios: a walled 30 x 30 room with four convex obstacles, 50 agents of
-- radius 0.4 to 0.6 from random starts to random goals.
local lib = require "lib"
local L = lib.new{ name = "random_room", dt = 0.1, time_limit = 150 }
lib.box(L, -16, 15, 16, 16)
lib.box(L, -16, -16, 16, -15)
lib.box(L, -16, -15, -15, 15)
lib.box(L, 15, -15, 16, 15)
lib.box(L, -8, 3, -3, 7)
lib.polygon(L, { { 4, 4 }, { 9, 5 }, { 6, 9 } })
lib.polygon(L, { { -7, -5 }, { -4, -8 }, { -1, -6 }, { -2, -2 }, { -6, -2 } })
lib.box(L, 5, -9, 7, -2)
local rng = lib.rng(1212)
local goals = {}
for _ = 1, 50 do
  local r = rng(0.4, 0.6)
  local x, y = lib.place(L, rng, -15, -15, 15, 15, r)
  local gx, gy = lib.place_goal(L, rng, goals, -15, -15, 15, 15, r)
  lib.agent(L, { x = x, y = y, gx = gx, gy = gy, r = r, speed = rng(1.2, 1.5) })
end
return L
