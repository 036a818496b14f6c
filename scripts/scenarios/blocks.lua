-- Four groups of 25 cross between four square blocks (10 m sides, streets
-- 8 m wide through the middle), each to the opposite side; the leading
-- agents go furthest.
local agents = {}
for i = 0, 24 do
  local r = i // 5
  local a, b, g = (i % 5 - 2) * 1.4, -26 - r * 1.4, 26 + (4 - r) * 1.4
  agents[#agents + 1] = { x = a, y = b, gx = a, gy = g }
  agents[#agents + 1] = { x = -a, y = -b, gx = -a, gy = -g }
  agents[#agents + 1] = { x = b, y = -a, gx = g, gy = -a }
  agents[#agents + 1] = { x = -b, y = a, gx = -g, gy = a }
end
return {
  time_limit = 200, agents = agents,
  boxes = { { 4, 4, 14, 14 }, { -14, 4, -4, 14 }, { -14, -14, -4, -4 }, { 4, -14, 14, -4 } },
}
