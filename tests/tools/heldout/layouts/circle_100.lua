-- RVO2's Circle example at 100 agents: radius 1.5, 2 m/s, on a circle of 80 m (about RVO2's 5 m
-- spacing), each to the antipode; horizons 10 s and 10 s, dt 0.25.
local lib = require "lib"
local L = lib.new{ name = "circle_100", dt = 0.25, time_limit = 300, time_horizon = 10, obstacle_time_horizon = 10 }
for i = 0, 99 do
  local a = i * 2 * math.pi / 100
  local x, y = 80 * math.cos(a), 80 * math.sin(a)
  lib.agent(L, { x = x, y = y, gx = -x, gy = -y, r = 1.5, speed = 2 })
end
return L
