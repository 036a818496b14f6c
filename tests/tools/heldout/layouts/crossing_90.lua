-- SteerSuite's crossing: two groups of 25 cross at 90 degrees in the open.
local lib = require "lib"
local L = lib.new{ name = "crossing_90", dt = 0.1, time_limit = 120 }
local rng = lib.rng(909)
for i = 1, 50 do
  if i % 2 == 1 then
    local x, y = lib.place(L, rng, -26, -6, -14, 6, 0.5, 0.3)
    lib.agent(L, { x = x, y = y, gx = x + 40, gy = y, speed = rng(1.2, 1.5) })
  else
    local x, y = lib.place(L, rng, -6, -26, 6, -14, 0.5, 0.3)
    lib.agent(L, { x = x, y = y, gx = x, gy = y + 40, speed = rng(1.2, 1.5) })
  end
end
return L
