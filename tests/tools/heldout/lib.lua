-- Helpers for the held-out layouts: a layout is a plain table (see README.md).
-- Placement is deterministic: each layout has its own fixed generator seed.
local lib = {}

-- Park-Miller generator: the same sequence under every Lua.
function lib.rng(seed)
  local s = seed % 2147483647
  if s <= 0 then s = s + 2147483646 end
  return function(a, b)
    s = (s * 48271) % 2147483647
    local u = (s - 1) / 2147483646
    if a then return a + (b - a) * u end
    return u
  end
end

function lib.new(t)
  return {
    name = assert(t.name), dt = t.dt or 0.1, time_limit = assert(t.time_limit),
    neighbour_dist = t.neighbour_dist or 15, max_neighbours = t.max_neighbours or 10,
    time_horizon = t.time_horizon or 5, obstacle_time_horizon = t.obstacle_time_horizon or 5,
    agents = {}, polygons = {},
  }
end

-- A solid axis-aligned box as a convex polygon, counterclockwise.
function lib.box(L, x1, y1, x2, y2)
  L.polygons[#L.polygons + 1] = { { x1, y1 }, { x2, y1 }, { x2, y2 }, { x1, y2 } }
end

function lib.polygon(L, pts)
  L.polygons[#L.polygons + 1] = pts
end

-- Goal radius: 1 m, or the agent's radius when larger, unless given.
function lib.agent(L, a)
  local r = a.r or 0.5
  L.agents[#L.agents + 1] = {
    x = a.x, y = a.y, gx = a.gx, gy = a.gy, r = r, speed = a.speed or 1.3,
    goal_radius = a.goal_radius or math.max(1, r),
  }
  return L.agents[#L.agents]
end

-- Signed distance from a point to a convex polygon (negative inside).
local function polygon_distance(pts, x, y)
  local n, inside, best = #pts, true, math.huge
  local area = 0
  for i = 1, n do
    local a, b = pts[i], pts[i % n + 1]
    area = area + a[1] * b[2] - b[1] * a[2]
  end
  local sign = area > 0 and 1 or -1
  for i = 1, n do
    local a, b = pts[i], pts[i % n + 1]
    local ex, ey = b[1] - a[1], b[2] - a[2]
    local px, py = x - a[1], y - a[2]
    if sign * (ex * py - ey * px) < 0 then inside = false end
    local t = math.max(0, math.min(1, (px * ex + py * ey) / (ex * ex + ey * ey)))
    local dx, dy = px - t * ex, py - t * ey
    best = math.min(best, math.sqrt(dx * dx + dy * dy))
  end
  return inside and -best or best
end
lib.polygon_distance = polygon_distance

-- True when a body of radius r at (x, y) keeps `gap` clear of every placed agent and polygon.
function lib.free(L, x, y, r, gap, list)
  for _, a in ipairs(list or L.agents) do
    local ax, ay = a.x, a.y
    local dx, dy = ax - x, ay - y
    if dx * dx + dy * dy < (a.r + r + gap) ^ 2 then return false end
  end
  for _, p in ipairs(L.polygons) do
    if polygon_distance(p, x, y) < r + gap then return false end
  end
  return true
end

-- A random free point for a body of radius r in the box; an error when none is found.
function lib.place(L, rng, x1, y1, x2, y2, r, gap, list)
  for _ = 1, 100000 do
    local x, y = rng(x1 + r, x2 - r), rng(y1 + r, y2 - r)
    if lib.free(L, x, y, r, gap or 0.1, list) then return x, y end
  end
  error(L.name .. ": cannot place a body of radius " .. r)
end

-- A random free goal point (goals keep `gap` between bodies too), kept in `goals`.
function lib.place_goal(L, rng, goals, x1, y1, x2, y2, r, gap)
  for _ = 1, 100000 do
    local x, y = rng(x1 + r, x2 - r), rng(y1 + r, y2 - r)
    local ok = true
    for _, g in ipairs(goals) do
      if (g.x - x) ^ 2 + (g.y - y) ^ 2 < (g.r + r + (gap or 0.2)) ^ 2 then ok = false break end
    end
    for _, p in ipairs(L.polygons) do
      if ok and polygon_distance(p, x, y) < r + 0.05 then ok = false end
    end
    if ok then
      goals[#goals + 1] = { x = x, y = y, r = r }
      return x, y
    end
  end
  error(L.name .. ": cannot place a goal of radius " .. r)
end

-- 1.3 x the hexagonal-packing radius of n discs of radius r, plus one radius.
function lib.gather_radius(n, r)
  return 1.3 * 1.05 * r * math.sqrt(n) + r
end

return lib
