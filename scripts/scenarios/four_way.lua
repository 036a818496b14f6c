-- Four groups of four, from the four sides, crossing in the middle.
local agents = {}
for i = 0, 3 do
  local o = (i - 1.5) * 1.5
  agents[#agents + 1] = { x = -15, y = o, gx = 15, gy = o }
  agents[#agents + 1] = { x = 15, y = o + 0.3, gx = -15, gy = o + 0.3 }
  agents[#agents + 1] = { x = o, y = -15, gx = o, gy = 15 }
  agents[#agents + 1] = { x = o + 0.3, y = 15, gx = o + 0.3, gy = -15 }
end
return { small = true, time_limit = 60, agents = agents }
