-- Four streams of 20 cross the junction of 10 m streets between four large blocks; 4 of each
-- stream have radius 2 (1.2 m/s), the rest 0.5.
local lib = require "lib"
local L = lib.new{ name = "junction_mixed", dt = 0.1, time_limit = 200 }
lib.box(L, -35, 5, -5, 35)
lib.box(L, 5, 5, 35, 35)
lib.box(L, -35, -35, -5, -5)
lib.box(L, 5, -35, 35, -5)
local rng = lib.rng(1616)
local regions = { { -34, -5, -10, 5 }, { 10, -5, 34, 5 }, { -5, -34, 5, -10 }, { -5, 10, 5, 34 } }
for i = 1, 80 do
  local g = regions[(i - 1) % 4 + 1]
  local big = i <= 16
  local r = big and 2 or 0.5
  local x, y = lib.place(L, rng, g[1], g[2], g[3], g[4], r, 0.3)
  lib.agent(L, { x = x, y = y, gx = -x, gy = -y, r = r, speed = big and 1.2 or rng(1.2, 1.5) })
end
return L
