-- A group ordered to one point and kept there: 60 agents from 15-25 m all walk to (0, 0);
-- home within 1.3 x the hexagonal-packing radius plus one radius.
local lib = require "lib"
local L = lib.new{ name = "gather_60", dt = 0.1, time_limit = 120 }
local rng = lib.rng(1313)
local home = lib.gather_radius(60, 0.5)
local n = 0
while n < 60 do
  local x, y = lib.place(L, rng, -25, -25, 25, 25, 0.5, 0.5)
  local d = math.sqrt(x * x + y * y)
  if d >= 15 and d <= 25 then
    lib.agent(L, { x = x, y = y, gx = 0, gy = 0, speed = rng(1.2, 1.5), goal_radius = home })
    n = n + 1
  end
end
return L
