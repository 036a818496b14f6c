-- Four streams cross in the junction between four blocks (40 m sides,
-- streets 10 m wide): each stream is `per` agents in a column three wide,
-- every fifth agent of radius 2 (the rest 0.5), heading for one shared
-- point on the far side of the junction, where it leaves the world.
local per = tonumber((...)) or 25
local agents = {}
local function stream(ax, ay, sx, sy)
  -- (ax, ay): along the street towards the junction; (sx, sy): across
  for i = 0, per - 1 do
    local row, lane = i // 3, i % 3
    local big = i % 5 == 4
    local back = 9 + row * 2.6
    local side = (lane - 1) * 2.6
    agents[#agents + 1] = { x = -ax * back + sx * side, y = -ay * back + sy * side,
      gx = ax * 26, gy = ay * 26, radius = big and 2 or 0.5 }
  end
end
stream(1, 0, 0, 1); stream(-1, 0, 0, -1); stream(0, 1, -1, 0); stream(0, -1, 1, 0)
return {
  family = "crossing", mode = "exit", time_limit = 150 + 8 * per, agents = agents,
  boxes = { { 5, 5, 45, 45 }, { -45, 5, -5, 45 }, { -45, -45, -5, -5 }, { 5, -45, 45, -5 } },
}
