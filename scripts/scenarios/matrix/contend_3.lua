-- Three agents 0.65 m around one point (120 degrees apart), all sent to it.
local agents = {}
for i = 0, 2 do
  local a = i * 2 * math.pi / 3 + 0.3
  agents[#agents + 1] = { x = 0.65 * math.cos(a), y = 0.65 * math.sin(a), gx = 0, gy = 0 }
end
return { family = "contend", mode = "contend", time_limit = 40, agents = agents }
