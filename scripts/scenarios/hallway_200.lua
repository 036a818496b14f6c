-- Two-way traffic: 100 agents each way along a hallway 14 m wide, each
-- direction in four lanes between the other's. The leading agents go
-- furthest, so that those who arrived never stand in the way.
local agents = {}
for i = 0, 99 do
  local col, row = i // 4, i % 4
  local y = -5.25 + row * 3
  agents[#agents + 1] = { x = -10 - col * 2, y = y, gx = 40 + (24 - col) * 2, gy = y }
  agents[#agents + 1] = { x = 10 + col * 2, y = y + 1.5, gx = -40 - (24 - col) * 2, gy = y + 1.5 }
end
return {
  time_limit = 300, agents = agents,
  walls = { { -100, -7, 100, -7 }, { -100, 7, 100, 7 } },
}
