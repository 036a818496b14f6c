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
