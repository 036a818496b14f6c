-- Crossing streams with mixed radii (issue 21, regress21): four streams of
-- `per` agents each cross in the junction between four blocks (streets
-- `width` m wide), each agent of its own radius, drawn from the world seed
-- between 0.3 and 2 m (most of them small: 0.3 + 1.7 u^2), two abreast (in
-- file where two do not fit) in a column along its street, each heading for its own point straight across
-- the junction on the far side, where it leaves the world. Unlike
-- `junction` nobody shares a goal and every size is present, so the
-- junction holds every pairing of sizes crossing at right angles, and each
-- stream meets the opposite one head-on in the middle.
local args = { ... }
local per, width = tonumber(args[2]) or 12, tonumber(args[3]) or 10
-- radii rmin + span u^2 (default 0.3 + 1.7 u^2; arguments 4 and 5: rmin, rmax)
local rmin = tonumber(args[4]) or 0.3
local span = args[5] and tonumber(args[5]) - rmin or 1.7
local w = width / 2
local function generate(rnd)
  local agents = {}
  local function stream(ax, ay, sx, sy)
    -- (ax, ay): along the street towards the junction; (sx, sy): across
    local back, i = w + 2, 0
    local function place(list, sides)
      local deep = 0
      for _, r in ipairs(list) do deep = math.max(deep, 2 * r + 0.4) end
      back = back + deep / 2
      for k, r in ipairs(list) do
        local side = sides[k]
        agents[#agents + 1] = { x = -ax * back + sx * side, y = -ay * back + sy * side, radius = r,
          gx = ax * (w + 12) + sx * side, gy = ay * (w + 12) + sy * side }
      end
      back = back + deep / 2
    end
    local pending = nil
    while i < per do
      local r = rmin + span * rnd() ^ 2
      i = i + 1
      if pending then
        -- two abreast at a quarter of the street from either side when
        -- both fit (0.3 m between them, 0.2 m from the blocks), else in file
        if pending + r + 0.3 <= w and math.max(pending, r) <= w / 2 - 0.2 then
          place({ pending, r }, { -w / 2, w / 2 })
        else
          place({ pending }, { 0 }); place({ r }, { 0 })
        end
        pending = nil
      else
        pending = r
      end
    end
    if pending then place({ pending }, { 0 }) end
  end
  stream(1, 0, 0, 1); stream(-1, 0, 0, -1); stream(0, 1, -1, 0); stream(0, -1, 1, 0)
  return agents
end
local e = w + 40
return {
  family = "crossing", mode = "exit", time_limit = 150 + 8 * per, generate = generate,
  boxes = { { w, w, e, e }, { -e, w, -w, e }, { -e, -e, -w, -w }, { w, -e, e, -w } },
}
