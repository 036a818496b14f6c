-- A goal point used as an exit: three columns of `per` agents, 2.5 m apart
-- along each, converge on one point from three sides at 45 degrees apart
-- and leave the world on arrival. Unhindered they would arrive at about
-- three agents every 2.5 m / 1.5 m/s; the exit should pass them at about
-- that rate.
local per = tonumber((...)) or 20
local agents = {}
for lane = -1, 1 do
  local a = math.pi + lane * math.pi / 4
  local ca, sa = math.cos(a), math.sin(a)
  for i = 0, per - 1 do
    local d = 6 + i * 2.5
    agents[#agents + 1] = { x = ca * d, y = sa * d, gx = 0, gy = 0 }
  end
end
return { family = "exit", mode = "exit", time_limit = 40 + 4 * per, agents = agents }
