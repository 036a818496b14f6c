-- SteerSuite's oncoming groups: two blocks of 8 walk into each other in the open.
local lib = require "lib"
local L = lib.new{ name = "oncoming_groups", dt = 0.1, time_limit = 60 }
for row = 0, 3 do
  for col = 0, 1 do
    local y = -2.1 + 1.4 * row
    lib.agent(L, { x = -12 - 1.4 * col, y = y, gx = 12 + 1.4 * col, gy = y, speed = 1.3 + 0.05 * row })
    lib.agent(L, { x = 12 + 1.4 * col, y = y + 0.3, gx = -12 - 1.4 * col, gy = y + 0.3, speed = 1.3 + 0.05 * col })
  end
end
return L
