-- Agents evenly on a circle, each walking to the antipode: every straight
-- path crosses every other at the centre. `n` and `r` are set by the cases
-- that use this layout (circle_12, circle_20, circle_250).
return function(n, r)
  local agents = {}
  for i = 0, n - 1 do
    local a = 2 * math.pi * i / n
    local x, y = r * math.cos(a), r * math.sin(a)
    agents[#agents + 1] = { x = x, y = y, gx = -x, gy = -y }
  end
  return agents
end
