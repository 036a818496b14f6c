-- SteerSuite's wall squeeze: three walk along a wall in file, two (one of radius 0.7) come the other way.
local lib = require "lib"
local L = lib.new{ name = "wall_squeeze", dt = 0.1, time_limit = 60 }
lib.box(L, -15, -1, 15, 0)
lib.agent(L, { x = -10, y = 0.7, gx = 10, gy = 0.7, speed = 1.3 })
lib.agent(L, { x = -8.6, y = 0.7, gx = 11.4, gy = 0.7, speed = 1.3 })
lib.agent(L, { x = -7.2, y = 0.7, gx = 12.8, gy = 0.7, speed = 1.3 })
lib.agent(L, { x = 7, y = 0.8, gx = -10, gy = 0.8, r = 0.7, speed = 1.4 })
lib.agent(L, { x = 8.6, y = 0.7, gx = -11.6, gy = 0.7, speed = 1.2 })
return L
