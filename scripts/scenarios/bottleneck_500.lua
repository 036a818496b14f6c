-- 500 agents in a room leave through a 2.4 m gap in the wall at x = 0
-- (a waypoint past the gap, passed once through it, then a goal on the
-- far side). The first through
-- go furthest, so that those who arrived never stand in the way.
local agents = {}
for i = 0, 499 do
  local col, row = i // 25, i % 25
  local x, y = -3 - col * 1.2, (row - 12) * 1.5
  agents[#agents + 1] = { x = x, y = y, wx = 1.5, wy = 0, past_x = 0.6, gx = 8 + (19 - col) * 1.5, gy = y }
end
return {
  time_limit = 600, agents = agents,
  walls = { { 0, -40, 0, -1.2 }, { 0, 1.2, 0, 40 } },
}
