-- 60 agents in a room leave through a 2.4 m gap in the wall at x = 0 (a
-- waypoint past the gap, passed once through it, then a goal on the far
-- side), as bottleneck_500 on a smaller scale. The goals are 2.5 m apart, so
-- that agents standing on them leave room to walk between them.
local agents = {}
for i = 0, 59 do
  local col, row = i // 12, i % 12
  local x, y = -3 - col * 1.2, (row - 5.5) * 1.5
  agents[#agents + 1] = { x = x, y = y, wx = 1.5, wy = 0, past_x = 0.6,
    gx = 8 + (4 - col) * 2.5, gy = (row - 5.5) * 2.5 }
end
return {
  small = true, time_limit = 150, agents = agents,
  walls = { { 0, -40, 0, -1.2 }, { 0, 1.2, 0, 40 } },
}
