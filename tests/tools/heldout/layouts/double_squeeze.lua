-- SteerSuite's double squeeze: two pairs pass each other in a 2.4 m wide corridor.
local lib = require "lib"
local L = lib.new{ name = "double_squeeze", dt = 0.1, time_limit = 60 }
lib.box(L, -10, 1.2, 10, 2)
lib.box(L, -10, -2, 10, -1.2)
lib.agent(L, { x = -7, y = 0.4, gx = 13, gy = 1, speed = 1.3 })
lib.agent(L, { x = -8.5, y = -0.3, gx = 13, gy = -1, speed = 1.4 })
lib.agent(L, { x = 7, y = 0.2, gx = -13, gy = -1, speed = 1.35 })
lib.agent(L, { x = 8.5, y = -0.5, gx = -13, gy = 1, speed = 1.25 })
return L
