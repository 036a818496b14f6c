-- Two groups meeting head-on in a hallway (issue 21, twoway21): a hallway
-- `width` m wide and 2 * `half` m long between two walls; `n` agents each
-- way start as a loose group (at random places from the world seed, at
-- least 1.1 m apart) filling the hallway's width at one end, and walk to
-- the other. Each agent heads for its own goal 4 m beyond the far end on
-- its own lane and leaves the world there; with `shared`, every agent of
-- a group heads for one point on the axis there instead. Unlike
-- `corridor` the two directions meet as two blocks, all at once, and
-- unlike `hallway_shared` the hallway is only a few bodies wide.
local args = { ... }
local n, width, half = tonumber(args[2]) or 20, tonumber(args[3]) or 4, tonumber(args[4]) or 14
local shared = args[5] == "shared"
local function generate(rnd, apart)
  local agents, placed = {}, {}
  -- the group's depth: about 2.6 m^2 an agent across the hallway's width
  local depth = 2.6 * n / (width - 0.1)
  for i = 1, 2 * n do
    local side = i % 2 == 1 and -1 or 1 -- -1: starts left, walks +x
    while true do
      local x = side * (half - 1 - rnd() * depth)
      local y = (rnd() - 0.5) * (width - 1.3)
      if apart(placed, x, y, 1.1 * 1.1) then
        placed[#placed + 1] = { x, y }
        agents[#agents + 1] = { x = x, y = y, gx = -side * (half + 4), gy = shared and 0 or y }
        break
      end
    end
  end
  return agents
end
return {
  family = "twoway", mode = "exit", time_limit = 60 + 4 * half + 2 * n, generate = generate,
  walls = { { -half, -width / 2, half, -width / 2 }, { -half, width / 2, half, width / 2 } },
}
