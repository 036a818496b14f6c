-- Four groups of 25 cross between four square blocks (10 m sides, streets
-- 8 m wide through the middle), each to the opposite side.
local agents = {}
for i = 0, 24 do
  local a, b = (i % 5 - 2) * 1.4, -26 - (i // 5) * 1.4
  agents[#agents + 1] = { x = a, y = b, gx = a, gy = -b }
  agents[#agents + 1] = { x = -a, y = -b, gx = -a, gy = b }
  agents[#agents + 1] = { x = b, y = -a, gx = -b, gy = -a }
  agents[#agents + 1] = { x = -b, y = a, gx = b, gy = a }
end
return {
  time_limit = 200, agents = agents,
  boxes = { { 4, 4, 14, 14 }, { -14, 4, -4, 14 }, { -14, -14, -4, -4 }, { 4, -14, 14, -4 } },
}
