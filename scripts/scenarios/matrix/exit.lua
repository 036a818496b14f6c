-- A goal point used as an exit: three columns of `per` agents of radius `r`
-- (default 0.5), 2.5 m apart (times r/0.5) along each, converge on one point
-- from three sides at 45 degrees apart and leave the world on arrival.
-- Unhindered they would arrive at about three agents every 2.5 m / 1.5 m/s
-- (times r/0.5); the exit should pass them at about that rate.
local per, r = ...
per, r = tonumber(per) or 20, tonumber(r) or 0.5
local scale = r / 0.5
local agents = {}
for lane = -1, 1 do
  local a = math.pi + lane * math.pi / 4
  local ca, sa = math.cos(a), math.sin(a)
  for i = 0, per - 1 do
    local d = (6 + i * 2.5) * scale
    agents[#agents + 1] = { x = ca * d, y = sa * d, gx = 0, gy = 0, radius = r }
  end
end
return { family = "exit", mode = "exit", time_limit = (40 + 4 * per) * scale, agents = agents }
