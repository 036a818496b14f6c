-- Static geometry and rays through the Lua API (engine: geometry.c, raycast.c).
local steer = require "steer"
local support = require "support"
local err = support.err

describe("static geometry", function()
  it("adds walls, circles, boxes, polygons and polylines", function()
    local w = steer.world{}
    local wall = w:add_wall(0, 0, 10, 0)
    assert.are.equal("steer.Shape", getmetatable(wall))
    assert.are.equal("segment", wall.type)
    assert.are.equal("circle", w:add_circle(5, 5, 1).type)
    assert.are.equal("box", w:add_box(3, 3, 1, 1).type) -- corners in any order
    assert.are.equal("polygon", w:add_polygon{ { 0, 0 }, { 2, 0 }, { 1, 2 } }.type)
    assert.are.equal("polyline", w:add_polyline{ { 0, 0 }, { 1, 0 }, { 1, 1 }, loop = true }.type)
    assert.are.equal("steer.Shape{segment}", tostring(wall))
    assert.is_true(wall:alive())
    wall:remove()
    assert.is_false(wall:alive())
    assert.are.equal("attempt to use a removed shape", err(function() return wall.type end))
  end)

  it("checks every argument before the engine sees it", function()
    local w = steer.world{}
    assert.are.equal("bad arguments to 'add_wall' (the two points are the same)",
                     err(function() w:add_wall(1, 1, 1, 1) end))
    assert.are.equal("bad argument #3 to 'add_wall' (must be a finite number, got nan)",
                     err(function() w:add_wall(0, 0, 0 / 0, 1) end))
    assert.are.equal("bad argument #1 to 'add_wall' (must be within [-1e15, 1e15], got 1e+20)",
                     err(function() w:add_wall(1e20, 0, 0, 1) end))
    assert.are.equal("bad argument #3 to 'add_circle' (must be a positive number, got 0)",
                     err(function() w:add_circle(0, 0, 0) end))
    assert.are.equal("bad arguments to 'add_box' (the box is empty)", err(function() w:add_box(0, 0, 0, 5) end))
    assert.are.equal("bad argument #1 to 'add_polygon' (the polygon must be convex, with no three points in line)",
                     err(function() w:add_polygon{ { 0, 0 }, { 2, 0 }, { 1, 0.5 }, { 1, 2 } } end))
    assert.are.equal("bad argument #1 to 'add_polygon' (the polygon must be convex, with no three points in line)",
                     err(function() w:add_polygon{ { 0, 0 }, { 1, 0 }, { 2, 0 } } end))
    assert.are.equal("bad argument #1 to 'add_polygon' (must hold 3 to 16 points, got 2)",
                     err(function() w:add_polygon{ { 0, 0 }, { 1, 0 } } end))
    assert.are.equal("bad argument #1 to 'add_polygon' (field '[2]' must be a point {x, y}, got 3)",
                     err(function() w:add_polygon{ { 0, 0 }, 3, { 1, 1 } } end))
    assert.are.equal("bad argument #1 to 'add_polyline' (consecutive points must differ)",
                     err(function() w:add_polyline{ { 0, 0 }, { 0, 0 } } end))
    assert.are.equal("bad argument #1 to 'add_polyline' (a loop needs at least 3 distinct points)",
                     err(function() w:add_polyline{ { 0, 0 }, { 1, 0 }, loop = true } end))
    assert.are.equal("bad argument #1 to 'add_polyline' (unknown field 'closed')",
                     err(function() w:add_polyline{ { 0, 0 }, { 1, 0 }, closed = true } end))
    -- not a table at all (a segfault before the fuzzer found it)
    assert.are.equal("bad argument #1 to 'add_polygon' (table expected, got number)",
                     err(function() w:add_polygon(1) end))
    assert.are.equal("bad argument #1 to 'add_polyline' (table expected, got string)",
                     err(function() w:add_polyline("x") end))
    -- a loop whose last point repeats the first closes on its own
    assert.are.equal("polyline", w:add_polyline{ { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 0 }, loop = true }.type)
  end)
end)

describe("world:raycast", function()
  it("returns the hit point, normal, distance and what was hit", function()
    local w = steer.world{}
    local wall = w:add_wall(5, -10, 5, 10)
    local x, y, nx, ny, d, hit = w:raycast(0, 0, 1, 0, 100)
    assert.is_near(5, x, 1e-5); assert.is_near(0, y, 1e-5)
    assert.is_near(-1, nx, 1e-6); assert.is_near(0, ny, 1e-6)
    assert.is_near(5, d, 1e-5)
    assert.are.equal(wall, hit)
    assert.is_nil(w:raycast(0, 0, 1, 0, 4)) -- too short
    assert.is_nil(w:raycast(0, 0, -1, 0, 100)) -- the other way
    assert.is_nil(w:raycast(0, 0, 0, 0, 100)) -- a zero direction hits nothing
    -- a circle, with a direction that is not unit
    w:add_circle(0, 10, 2)
    local _, cy, _, cny, cd = w:raycast(0, 0, 0, 3, 100)
    assert.is_near(8, cy, 1e-4); assert.is_near(-1, cny, 1e-5); assert.is_near(8, cd, 1e-4)
  end)

  it("normalises the direction: max_distance is metres (docs/lua-api.md's line of sight)", function()
    local w = steer.world{}
    w:add_box(4, -1, 6, 1)
    local gx, gy, px, py = 0, 0, 10, 0
    local dx, dy = px - gx, py - gy
    local dist = math.sqrt(dx * dx + dy * dy)
    local hx, _, _, _, d = w:raycast(gx, gy, dx, dy, dist)
    assert.is_near(4, hx, 1e-5)
    assert.is_near(4, d, 1e-5) -- metres, not a fraction of (dx, dy)
    assert.is_nil(w:raycast(gx, gy, dx, dy, 1)) -- 1 m, not the whole segment
    assert.is_nil(w:raycast(0, 5, dx, dy, dist)) -- a clear line: nil
    local _, _, _, _, d2 = w:raycast(gx, gy, 1e-3 * dx, 1e-3 * dy, dist)
    assert.are.equal(d, d2) -- the length of (dx, dy) does not count
  end)

  it("filters by category, and can hit agents", function()
    local w = steer.world{}
    local wall = w:add_wall(5, -10, 5, 10)
    wall:set_category(2)
    assert.is_nil(w:raycast(0, 0, 1, 0, 100, { mask = 1 }))
    assert.is_not_nil(w:raycast(0, 0, 1, 0, 100, { mask = 2 }))
    local me = w:spawn{ x = 0, y = 0, radius = 0.5 }
    local other = w:spawn{ x = 3, y = 0, radius = 0.5 }
    local _, _, _, _, d, hit = w:raycast(0, 0, 1, 0, 100, { agents = true, ignore = me })
    assert.are.equal(other, hit)
    assert.is_near(2.5, d, 1e-5)
    assert.are.equal("bad argument #6 to 'raycast' (unknown field 'agent')",
                     err(function() w:raycast(0, 0, 1, 0, 100, { agent = true }) end))
    assert.are.equal("bad argument #5 to 'raycast' (must be a non-negative number, got -1)",
                     err(function() w:raycast(0, 0, 1, 0, -1) end))
  end)

  it("steers obstacle_avoidance away from a wall", function()
    local w = steer.world{}
    w:add_wall(3, -10, 3, 10)
    local a = w:spawn{ x = 0, y = 0, vx = 2, vy = 0 }
    local lx = steer.obstacle_avoidance{ lookahead = 4, avoid_distance = 2 }:get_steering(a)
    assert.is_not_nil(lx)
    assert.is_true(lx < 0) -- seeks a point off the wall, back towards -x
  end)

  it("gives one proxy per shape: a ray's shape is the wall it hit", function()
    local w = steer.world{}
    -- in a function, so that nothing refers to the proxies once it returns
    local function hit_the_wall()
      local wall = w:add_wall(3, -10, 3, 10)
      local names = { [wall] = "east wall" }
      local shape = select(6, w:raycast(0, 0, 1, 0, 100))
      assert.is_true(rawequal(wall, shape))
      assert.are.equal("east wall", names[shape])
    end
    hit_the_wall()
    -- a collected proxy is made again, still one per shape
    collectgarbage()
    local again = select(6, w:raycast(0, 0, 1, 0, 100))
    assert.is_true(rawequal(again, select(6, w:raycast(0, 1, 1, 0, 100))))
    -- a removed shape's slot reused by a new shape gets a new proxy
    again:remove()
    local circle = w:add_circle(5, 0, 1)
    assert.is_false(rawequal(again, circle))
    assert.is_true(rawequal(circle, select(6, w:raycast(0, 0, 1, 0, 100))))
  end)
end)

-- Extreme inputs from the fuzz campaign (issue 9): every ray ends, every hit
-- is finite with a unit normal facing the ray, and contacts stay finite.
describe("extreme inputs", function()
  local function unit_facing(nx, ny, dx, dy)
    assert.is_near(1, math.sqrt(nx * nx + ny * ny), 1e-5)
    local m = math.max(math.abs(dx), math.abs(dy))
    assert.is_true(nx * dx / m + ny * dy / m <= 1e-6)
  end

  it("ends a ray with a denormal direction and max_distance FLT_MAX", function()
    local w = steer.world{}
    for i = 0, 39 do w:add_circle((i % 8) * 4, math.floor(i / 8) * 4, 1) end
    assert.is_nil(w:raycast(2, 2, 1e-45, 0, 3.4028234663852886e38, { mask = 2 }))
    local x, y, nx, ny, d = w:raycast(2, 0, 1e-45, 0, 3.4028234663852886e38)
    assert.are.same({ 3, 0, -1, 0, 1 }, { x, y, nx, ny, d })
  end)

  it("hits with any nonzero direction, denormal or huge", function()
    local w = steer.world{}
    w:add_box(-1, -1, 1, 1)
    local x0, y0, nx0, ny0, d0 = w:raycast(0, 0, 1e-45, 0, 100)
    assert.are.same({ 0, 0, -1, 0, 0 }, { x0, y0, nx0, ny0, d0 })
    for _, add in ipairs{
      function(v) return v:add_wall(5, -1, 5, 1) end,
      function(v) return v:add_polyline{ { 5, -1 }, { 5, 0 }, { 5, 1 } } end,
      function(v) return v:add_box(5, -1, 6, 1) end,
      function(v) return v:add_polygon{ { 5, -1 }, { 6, 0 }, { 5, 1 } } end,
    } do
      local v = steer.world{}
      local shape = add(v)
      for _, d in ipairs{ { 1e-45, 0 }, { 3e-39, 1e-45 }, { 3.4e38, 0 } } do
        local x, y, nx, ny, dist, hit = v:raycast(0, 0.25, d[1], d[2], 100)
        assert.are.equal(shape, hit)
        assert.is_near(5, dist, 1e-5); assert.is_near(5, x, 1e-5); assert.is_near(0.25, y, 1e-5)
        unit_facing(nx, ny, d[1], d[2])
      end
    end
  end)

  it("gives unit normals from afar and inside huge agents", function()
    local w = steer.world{}
    w:add_circle(0, 0, 1)
    local _, _, nx, ny = w:raycast(-1e20, 0, 1, 0, 1e21)
    assert.are.same({ -1, 0 }, { nx, ny })
    local v = steer.world{}
    v:spawn{ x = 0, y = 0, radius = 1e30 }
    for _, r in ipairs{ { 0, 0, 1, 0 }, { 1e29, -1e29, 1e-45, -1e-45 }, { -3e30, 0, 1, 1e-10 } } do
      local x, y, ex, ey, d, hit = v:raycast(r[1], r[2], r[3], r[4], 3.4e38, { agents = true })
      assert.are.equal("steer.Agent", getmetatable(hit))
      assert.is_true(x == x and y == y and d >= 0 and d < math.huge)
      unit_facing(ex, ey, r[3], r[4])
    end
  end)

  it("keeps agents finite a denormal distance from a surface or at a centre", function()
    local w = steer.world{ resolve_contacts = true }
    w:add_wall(-10, 0, 10, 0)
    local a = w:spawn{ x = 0, y = 1e-40 }
    w:step(1 / 60)
    local x, y = a:position()
    assert.are.equal(0, x); assert.is_near(0.5, y, 1e-6)
    local shapes = {
      function(v) v:add_wall(-10, 0, 10, 0) end,
      function(v) v:add_polyline{ { -10, 0 }, { 0, 0 }, { 10, 0 } } end,
      function(v) v:add_circle(0, 0, 1) end,
      function(v) v:add_box(-1, -1, 1, 1) end,
      function(v) v:add_polygon{ { -1, -1 }, { 1, -1 }, { 0, 1 } } end,
      function(v) v:add_circle(1e-40, -1e-45, 1) end,
    }
    for _, add in ipairs(shapes) do
      for _, e in ipairs{ 0, 1e-45, -1e-45, 1e-40, 3e-39, -3e-39 } do
        local v = steer.world{ resolve_contacts = true }
        add(v)
        local b = v:spawn{ x = e, y = e }
        local c = v:spawn{ x = 0, y = e, vx = 1, vy = -1 }
        v:step(1 / 60); v:step(1 / 60)
        for _, agent in ipairs{ b, c } do
          local px, py = agent:position()
          local vx, vy = agent:velocity()
          for _, n in ipairs{ px, py, vx, vy } do assert.is_true(n == n and math.abs(n) < math.huge) end
        end
      end
    end
  end)
end)
