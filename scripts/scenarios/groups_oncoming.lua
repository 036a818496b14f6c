-- Two groups of eight (4 x 2, 1.5 m apart) walking through each other.
local agents = {}
for i = 0, 3 do
  for j = 0, 1 do
    local y = (i - 1.5) * 1.5
    agents[#agents + 1] = { x = -12 - j * 1.5, y = y, gx = 12 + j * 1.5, gy = y }
    agents[#agents + 1] = { x = 12 + j * 1.5, y = y, gx = -12 - j * 1.5, gy = y }
  end
end
return { small = true, time_limit = 60, agents = agents }
