-- One-way hallway (issue 21, oneway21): `n` agents of radius `r` walk the
-- same way through a hallway `width` m wide between two walls, 20 m long past
-- their start area. They start in the hallway's near end, either packed
-- (rows `pitch` body diameters apart, filling the width, jittered from the
-- world seed) or streaming (at random, at least 1.8 diameters apart, over a
-- start area 1.6 times the room that needs), and each heads for its own goal
-- beyond the far end, spread over a fan wider than the hallway (drawn from
-- the world seed, at least 2r + 0.2 m apart), where it leaves the world.
-- Goals: `own` (as said); `shared` (every agent heads for one point 4 m
-- past the end); `park` (each agent has a slot of the same block at the
-- hallway's far end, which is closed: the group walks 20 m down the hallway
-- as a block and stays); `parkmix` (the slots dealt out at random: agents
-- must pass others already parked; a sliding puzzle, no member uses it,
-- docs/crowds/oneway21.md). Shapes: `straight`; `narrow` (the hallway
-- narrows to half its width over 4 m, halfway along); `bend` (it turns left
-- by 45 degrees halfway along). Nobody comes the other way: whatever stops
-- the crowd is the crowd itself and the walls.
-- Arguments (after the directory): n, width, r, start (packed|stream), goal
-- (own|shared|park|parkmix), shape (straight|narrow|bend), pitch (packed:
-- centre spacing over 2r, default 1.3), `keep` (agents stay at their goals).
local args = { ... }
local n, width, r = tonumber(args[2]) or 40, tonumber(args[3]) or 4, tonumber(args[4]) or 0.5
local start, goal, shape = args[5] or "packed", args[6] or "own", args[7] or "straight"
local pitch = tonumber(args[8]) or 1.3
local keep = args[9] == "keep" -- agents stay at their goals (they leave the world there otherwise)
local long = 20 -- the hallway past the start area (m)
local across = math.floor((width - 2 * r - 0.2) / (2 * r * pitch)) + 1 -- agents a row (packed)
local depth = start == "packed" and math.ceil(n / across) * 2 * r * pitch
  or 1.6 * n * (1.8 * 2 * r) ^ 2 / (width - 2 * r - 0.2) -- the start area's length
local x0 = -depth - 1 -- the hallway's near end
local half = width / 2
-- the hallway's walls, and the far end's exit: position p, direction t (unit)
local walls, ex, ey, tx, ty
if shape == "narrow" then
  local m = long / 2
  walls = { { x0, -half, m - 2, -half }, { m - 2, -half, m + 2, -half / 2 }, { m + 2, -half / 2, long, -half / 2 },
    { x0, half, m - 2, half }, { m - 2, half, m + 2, half / 2 }, { m + 2, half / 2, long, half / 2 } }
  ex, ey, tx, ty = long, 0, 1, 0
elseif shape == "bend" then
  -- along +x to x = m, then 45 degrees to the left for long / 2 (a right
  -- angle hides the goals behind the inner wall: without a path, agents
  -- pressed against it from the first leg stay there)
  local m, c, sn, tn = long / 2, math.sqrt(0.5), math.sqrt(0.5), math.tan(math.pi / 8)
  local l2 = long / 2
  local cl, cr = m - half * sn + half * tn * c, m + half * sn - half * tn * c -- the walls' corners
  walls = { { x0, half, cl, half }, { cl, half, m - half * sn + l2 * c, half * c + l2 * sn },
    { x0, -half, cr, -half }, { cr, -half, m + half * sn + l2 * c, -half * c + l2 * sn } }
  ex, ey, tx, ty = m + l2 * c, l2 * sn, c, sn
else
  walls = { { x0, -half, long, -half }, { x0, half, long, half } }
  ex, ey, tx, ty = long, 0, 1, 0
end
-- the goals' fan past the far end: about twice the area their spacing needs
local fan_wide = math.max(2 * width, 8)
local fan_long = math.max(4, 2 * n * (2 * r + 0.2) ^ 2 / fan_wide)
local function generate(rnd, apart)
  local agents, placed, goals = {}, {}, {}
  local gap = 2 * r * pitch
  for i = 1, n do
    local x, y
    if start == "packed" then
      local row, col = math.floor((i - 1) / across), (i - 1) % across
      x = -1 - r - row * gap + (rnd() - 0.5) * 0.1 * gap
      y = (col - (across - 1) / 2) * gap + (rnd() - 0.5) * 0.1 * gap
    else
      repeat
        x = -1 - r - rnd() * (depth - 2 * r)
        y = (rnd() - 0.5) * (width - 2 * r - 0.2)
      until apart(placed, x, y, (1.8 * 2 * r) ^ 2)
    end
    placed[#placed + 1] = { x, y }
    local gx, gy
    if goal == "park" or goal == "parkmix" then
      -- kept at a slot of the block parked at the far end (filled later)
      gx, gy = nil, nil
    elseif goal == "shared" then
      gx, gy = ex + 4 * tx, ey + 4 * ty
    else
      -- its own goal from 3 m past the end on, across a fan 2 widths (at
      -- least 8 m) wide, at least 2r + 0.2 m from the others
      local a, b
      repeat
        a, b = 3 + rnd() * fan_long, (rnd() - 0.5) * fan_wide
      until apart(goals, a, b, (2 * r + 0.2) ^ 2)
      goals[#goals + 1] = { a, b }
      gx, gy = ex + a * tx - b * ty, ey + a * ty + b * tx
    end
    agents[#agents + 1] = { x = x, y = y, gx = gx, gy = gy, radius = r }
  end
  if goal == "park" or goal == "parkmix" then
    -- the slots: the start block moved down the hallway so that its front
    -- row stands 1 m short of the far end; with `parkmix` dealt out at
    -- random, so that agents have to pass others already parked
    local slots = {}
    for i = 1, #agents do slots[i] = i end
    if goal == "parkmix" then
      for i = #slots, 2, -1 do
        local j = 1 + math.floor(rnd() * i)
        slots[i], slots[j] = slots[j], slots[i]
      end
    end
    for i, a in ipairs(agents) do
      local row, col = math.floor((slots[i] - 1) / across), (slots[i] - 1) % across
      local u, v = long - 1 - r - row * gap, (col - (across - 1) / 2) * gap
      a.gx, a.gy = u, v
    end
  end
  return agents
end
local park = goal == "park" or goal == "parkmix"
assert(not park or shape == "straight", "oneway.lua: park and parkmix are for a straight hallway")
-- parked, the far end is closed (without, agents pushed out past it walk
-- round the walls' ends and stay behind them, their slots on the other side)
if park then walls[#walls + 1] = { long, -half, long, half } end
return { family = "oneway", mode = not (park or keep) and "exit" or nil, time_limit = 60 + 3 * (depth + long) + n,
  generate = generate, walls = walls }
