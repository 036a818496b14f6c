-- A group ordered to one point and kept there: `n` agents of radius `r`
-- scattered on a ring 12 to 24 m (times r/0.5) around the origin (positions
-- from a fixed stream, not the world seed) all head for the origin. The
-- runner measures how they settle, then orders them to a new point.
local n, r = ...
n, r = tonumber(n) or 100, tonumber(r) or 0.5
local agents = {}
local s = 12345
local function rnd() s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648 end
local scale = r / 0.5
for i = 1, n do
  local a = 2 * math.pi * (i - 1) / n + 0.1 * rnd()
  local d = (12 + 12 * ((i * 37) % n) / n) * scale
  agents[#agents + 1] = { x = d * math.cos(a), y = d * math.sin(a), gx = 0, gy = 0, radius = r }
end
return { family = "gather", mode = "gather", time_limit = 90 * scale, agents = agents }
