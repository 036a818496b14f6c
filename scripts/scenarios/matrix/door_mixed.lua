-- A two-way door with mixed radii (issue 21, regress21): a wall across a
-- hall 12 m wide, one door `door` m wide centred `at` m off the hall's
-- middle; `n` agents on each side at
-- random places (at least 1.4 m from the wall, 2 m apart), each of its own
-- radius between 0.3 and 0.8 m, each heading for its own random point on
-- the far side whose straight line from the start passes the door (clear
-- of its jambs by the agent's radius, anywhere across it), where it leaves
-- the world. Unlike `twoway_door` (goals on the line through the door's
-- middle, one radius, agents kept), the lines cross in the door at every
-- angle, the door may be off the middle, and the sizes mix.
local args = { ... }
local n, door, at = tonumber(args[2]) or 6, tonumber(args[3]) or 2, tonumber(args[4]) or 0
local H = 6
local function generate(rnd, apart)
  local agents, starts, goals = {}, {}, {}
  local function draw(list, side)
    while true do
      local x, y = side * (1.4 + rnd() * 8), (rnd() - 0.5) * (2 * H - 2)
      if apart(list, x, y, 4) then list[#list + 1] = { x, y }; return x, y end
    end
  end
  for i = 1, 2 * n do
    local side = i % 2 == 1 and -1 or 1
    local r = 0.3 + 0.5 * rnd()
    local x, y, gx, gy
    repeat
      -- (a start and a goal whose straight line passes the door)
      x, y = draw(starts, side)
      gx, gy = side * -(1.4 + rnd() * 8), (rnd() - 0.5) * (2 * H - 2)
      local cross = y + (gy - y) * x / (x - gx)
      local ok = math.abs(cross - at) < door / 2 - r and apart(goals, gx, gy, 4)
      if not ok then starts[#starts] = nil end
    until ok
    goals[#goals + 1] = { gx, gy }
    agents[#agents + 1] = { x = x, y = y, gx = gx, gy = gy, radius = r }
  end
  return agents
end
return {
  family = "twoway", mode = "exit", time_limit = 120 + 6 * n, generate = generate,
  walls = { { -10, -H, 10, -H }, { -10, H, 10, H }, { -10, -H, -10, H }, { 10, -H, 10, H },
    { 0, -H, 0, at - door / 2 }, { 0, at + door / 2, 0, H } },
}
