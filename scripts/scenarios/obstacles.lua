-- Six agents cross a field with a circle, a box and a polygon in the way.
local agents = {}
for i = 0, 5 do
  local y = (i - 2.5) * 3
  agents[#agents + 1] = { x = -20, y = y, gx = 20, gy = -y * 0.5 }
end
return {
  small = true, time_limit = 80, agents = agents,
  circles = { { -6, 2.5, 2 } },
  boxes = { { 2, -6, 5, -2 } },
  polygons = { { { 8, 3 }, { 11, 5 }, { 10, 8 } } },
}
