-- Goal lines packed closer than two bodies (issue 21, twoway21): a hallway
-- 4 m wide and 2 * `half` m long; `n` agents each way start at random
-- places (from the world seed) in its two ends and walk through it head-on;
-- each group's goals lie on a line across the open space 3 m beyond the far
-- end, `gap` m apart (less than a body's width: neighbours must stagger to
-- reach them), in the order the agents start across the hallway. Kept on
-- arrival.
local args = { ... }
local n, gap, half = tonumber(args[2]) or 8, tonumber(args[3]) or 0.7, tonumber(args[4]) or 8
local width = 4
local function generate(rnd, apart)
  local agents, placed = {}, { {}, {} }
  local depth = 2.6 * n / (width - 0.1)
  for s = 1, 2 do
    local side = s == 1 and -1 or 1
    local group = placed[s]
    while #group < n do
      local x = side * (half - 1 - rnd() * depth)
      local y = (rnd() - 0.5) * (width - 1.3)
      if apart(group, x, y, 1.1 * 1.1) then group[#group + 1] = { x, y } end
    end
    table.sort(group, function(a, b) return a[2] < b[2] end)
    for i, p in ipairs(group) do
      agents[#agents + 1] = { x = p[1], y = p[2], gx = -side * (half + 3), gy = (i - (n + 1) / 2) * gap }
    end
  end
  return agents
end
return {
  family = "twoway", mode = "keep", time_limit = 60 + 4 * half + 4 * n, generate = generate,
  walls = { { -half, -width / 2, half, -width / 2 }, { -half, width / 2, half, width / 2 } },
}
