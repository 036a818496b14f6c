-- Two-way traffic: 100 agents each way along a hallway 10 m wide.
local agents = {}
for i = 0, 99 do
  local col, row = i // 6, i % 6
  local y = (row - 2.5) * 1.5
  agents[#agents + 1] = { x = -10 - col * 1.5, y = y, gx = 40 + col * 1.5, gy = y }
  agents[#agents + 1] = { x = 10 + col * 1.5, y = y + 0.4, gx = -40 - col * 1.5, gy = y + 0.4 }
end
return {
  time_limit = 200, agents = agents,
  walls = { { -70, -5, 70, -5 }, { -70, 5, 70, 5 } },
}
