-- Kinematic avoiders (velocity set directly, RVO2's way): four groups of
-- four cross through one square, each agent to its own mirror point, and
-- a player-driven kinematic agent (no reciprocal avoidance: the others
-- must avoid it fully) walks across at 1 m/s.
local agents = {}
for i = 0, 3 do
  local a = (i - 1.5) * 1.5
  agents[#agents + 1] = { x = -10, y = a, gx = 10, gy = a, kinematic = true }
  agents[#agents + 1] = { x = 10, y = -a, gx = -10, gy = -a, kinematic = true }
  agents[#agents + 1] = { x = a, y = -10, gx = a, gy = 10, kinematic = true }
  agents[#agents + 1] = { x = -a, y = 10, gx = -a, gy = -10, kinematic = true }
end
agents[#agents + 1] = { x = -14, y = -14, gx = 14, gy = 14, kinematic = true, player = true }
return { family = "kinematic", mode = "keep", time_limit = 60, agents = agents }
