-- RVO2's Blocks example: 4 groups of 25 (radius 2, 2 m/s) cross diagonally round 4 blocks; dt 0.25.
local lib = require "lib"
local L = lib.new{ name = "blocks_100", dt = 0.25, time_limit = 300 }
lib.box(L, -40, 10, -10, 40)
lib.box(L, 10, 10, 40, 40)
lib.box(L, 10, -40, 40, -10)
lib.box(L, -40, -40, -10, -10)
for i = 0, 4 do
  for j = 0, 4 do
    local a, b = 55 + i * 10, 55 + j * 10
    lib.agent(L, { x = a, y = b, gx = -75, gy = -75, r = 2, speed = 2 })
    lib.agent(L, { x = -a, y = b, gx = 75, gy = -75, r = 2, speed = 2 })
    lib.agent(L, { x = a, y = -b, gx = -75, gy = 75, r = 2, speed = 2 })
    lib.agent(L, { x = -a, y = -b, gx = 75, gy = 75, r = 2, speed = 2 })
  end
end
return L
