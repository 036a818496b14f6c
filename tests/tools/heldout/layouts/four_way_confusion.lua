-- SteerSuite's four-way confusion: four groups of 10 cross a plus-shaped junction of 8 m streets.
local lib = require "lib"
local L = lib.new{ name = "four_way_confusion", dt = 0.1, time_limit = 120 }
lib.box(L, -22, 4, -4, 22)
lib.box(L, 4, 4, 22, 22)
lib.box(L, -22, -22, -4, -4)
lib.box(L, 4, -22, 22, -4)
local rng = lib.rng(1010)
local regions = { { -21, -4, -9, 4 }, { 9, -4, 21, 4 }, { -4, -21, 4, -9 }, { -4, 9, 4, 21 } }
for i = 1, 40 do
  local g = regions[(i - 1) % 4 + 1]
  local x, y = lib.place(L, rng, g[1], g[2], g[3], g[4], 0.5, 0.3)
  lib.agent(L, { x = x, y = y, gx = -x, gy = -y, speed = rng(1.2, 1.5) })
end
return L
