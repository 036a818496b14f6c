-- Two-way corridor of individual agents (issue 21, corridor21): a corridor
-- 4.6 m wide between two walls, `n` agents each way at random places along
-- their half (random lanes across the corridor, from the world seed, at least
-- 1.3 m apart), each heading for its own goal 6 m beyond the far end on its
-- own lane, where it leaves the world. No group walks as a block: the two
-- directions meet one by one over the whole length and have to sort
-- themselves into lanes between the walls.
local args = { ... }
local n, long = tonumber(args[1]) or 20, tonumber(args[2])
local half = long or 4 + n -- the corridor runs from -half to half (m)
local width = 4.6
local function generate(rnd, apart)
  local agents, placed = {}, {}
  for i = 1, 2 * n do
    local side = i % 2 == 1 and -1 or 1 -- -1: starts left, walks +x
    while true do
      local x = side * (2 + rnd() * (half - 3))
      local y = (rnd() - 0.5) * (width - 1.4)
      if apart(placed, x, y, 1.3 * 1.3) then
        placed[#placed + 1] = { x, y }
        agents[#agents + 1] = { x = x, y = y, gx = -side * (half + 6), gy = y }
        break
      end
    end
  end
  return agents
end
return {
  family = "corridor", mode = "exit", time_limit = 60 + 4 * half, generate = generate,
  walls = { { -half, -width / 2, half, -width / 2 }, { -half, width / 2, half, width / 2 } },
}
