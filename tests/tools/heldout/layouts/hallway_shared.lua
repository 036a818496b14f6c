-- Two-way hallway where each group of 30 walks to one shared goal point at the far end.
local lib = require "lib"
local L = lib.new{ name = "hallway_shared", dt = 0.1, time_limit = 240 }
lib.box(L, -25, 2.5, 25, 3.5)
lib.box(L, -25, -3.5, 25, -2.5)
local rng = lib.rng(303)
for i = 1, 60 do
  local x1, x2, gx = -23, -10, 22
  if i % 2 == 0 then x1, x2, gx = 10, 23, -22 end
  local x, y = lib.place(L, rng, x1, -2.5, x2, 2.5, 0.5)
  lib.agent(L, { x = x, y = y, gx = gx, gy = 0, speed = rng(1.2, 1.5) })
end
return L
