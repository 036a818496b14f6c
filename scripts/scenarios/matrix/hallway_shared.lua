-- Two-way hallway, one shared goal point per group: two blocks of agents
-- (10 rows by `cols` columns, 1.3 m apart) fill most of a hallway 14 m wide
-- and walk head-on; every agent of a group heads for the same point near
-- the far end, and leaves the world there (a door). The groups have to
-- pass through each other and then funnel into one point each.
local cols = tonumber((...)) or 10
local agents = {}
for c = 0, cols - 1 do
  for r = 0, 9 do
    local y = (r - 4.5) * 1.3
    agents[#agents + 1] = { x = -8 - c * 1.3, y = y, gx = 30, gy = 0 }
    agents[#agents + 1] = { x = 8 + c * 1.3, y = y + 0.01, gx = -30, gy = 0 }
  end
end
return {
  family = "crossing", mode = "exit", time_limit = 120 + 16 * cols, agents = agents,
  walls = { { -40, -7, 40, -7 }, { -40, 7, 40, 7 } },
}
