-- Ten agents pass a 2 m doorway in a wall at x = 0, one side to the other
-- (a waypoint in the doorway, then the goal).
local agents = {}
for i = 0, 9 do
  local y = (i % 5 - 2) * 1.6
  local x = -6 - (i // 5) * 1.6
  agents[#agents + 1] = { x = x, y = y, wx = 1, wy = 0, past_x = 0.6, gx = 8 + (i // 5) * 1.6, gy = y }
end
return {
  small = true, time_limit = 80, agents = agents,
  walls = { { 0, -15, 0, -1 }, { 0, 1, 0, 15 } },
}
