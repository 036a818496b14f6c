-- A two-way doorway (issue 21, twoway21): two rooms 10 m square side by side,
-- the wall between them with one door `door` m wide in its middle; `n`
-- agents in each room (at random places from the world seed, at least
-- 1.5 m apart and 1 m from the walls) each head for their own goal in the
-- other room and stay there. Each goal lies on the straight line from the
-- start through the door's middle (0.6 to 1.4 times as far beyond it, at
-- least 2 m from the other goals), so that no agent needs a path: all of
-- them meet in the door.
local args = { ... }
local n, door = tonumber(args[2]) or 10, tonumber(args[3]) or 1.6
local function generate(rnd, apart)
  local agents, starts, goals = {}, {}, {}
  local function draw(list, side, gap)
    while true do
      local x = side * (1.2 + rnd() * 7.6)
      local y = (rnd() - 0.5) * 8
      if apart(list, x, y, gap * gap) then list[#list + 1] = { x, y }; return x, y end
    end
  end
  for i = 1, 2 * n do
    local side = i % 2 == 1 and -1 or 1
    local x, y = draw(starts, side, 1.5)
    local gx, gy
    local tries = 0
    repeat
      tries = tries + 1
      local k = 0.6 + 0.8 * rnd()
      gx, gy = -k * x, -k * y
      -- (after many draws, 1.2 m will do)
      local inside = math.abs(gx) > 1 and math.abs(gx) < 9 and math.abs(gy) < 4
      local ok = inside and apart(goals, gx, gy, tries < 100 and 4 or 1.44)
    until ok
    goals[#goals + 1] = { gx, gy }
    agents[#agents + 1] = { x = x, y = y, gx = gx, gy = gy }
  end
  return agents
end
local d = door / 2
return {
  family = "twoway", mode = "keep", time_limit = 120 + 6 * n, generate = generate,
  walls = { { -10, -5, 10, -5 }, { -10, 5, 10, 5 }, { -10, -5, -10, 5 }, { 10, -5, 10, 5 },
    { 0, -5, 0, -d }, { 0, d, 0, 5 } },
}
