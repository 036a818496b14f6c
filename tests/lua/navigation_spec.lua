-- Navigation through the Lua API (bindings/wrap_nav.c over steer::nav):
-- find_path, flow fields, follow_flow_field, shapes added and removed.
local steer = require "steer"
local support = require "support"
local err = support.err

local function length(path)
  local total, px, py = 0, path:point(1)
  for i = 2, #path do
    local x, y = path:point(i)
    total = total + math.sqrt((x - px) ^ 2 + (y - py) ^ 2)
    px, py = x, y
  end
  return total
end

describe("world:find_path", function()
  it("goes round a block, within 2% of the shortest path, keeping the radius", function()
    local w = steer.world{}
    w:add_box(-15, -5, 15, 5)
    local path = assert(w:find_path{ from = { 0, -12 }, to = { 0, 12 }, radius = 0.5 })
    assert.are.equal("steer.Path", getmetatable(path))
    assert.is_true(#path >= 4)
    local x1, y1 = path:point(1)
    local xn, yn = path:point(#path)
    assert.are.same({ 0, -12, 0, 12 }, { x1, y1, xn, yn })
    -- tangent to the corner's circle, round its arc, along the side: 44.22 m
    assert.is_true(path.length <= 44.22 * 1.02 and path.length >= 44.22 * 0.99)
    assert.is_true(math.abs(path.length - length(path)) < 1e-4)
    -- every corner keeps the radius - 5 cm from the box (its distance to the
    -- box: corners round the box's own corner lie on the arc, not the square)
    for i = 1, #path do
      local x, y = path:point(i)
      local dx, dy = math.max(math.abs(x) - 15, 0), math.max(math.abs(y) - 5, 0)
      assert.is_true(math.sqrt(dx * dx + dy * dy) >= 0.45)
    end
  end)

  it("is the straight segment when nothing is in the way, from agents too", function()
    local w = steer.world{}
    w:add_circle(50, 50, 3)
    local a = w:spawn{ x = 0, y = 0 }
    local b = w:spawn{ x = 30, y = 0 }
    local path = assert(w:find_path{ from = a, to = b })
    assert.are.equal(2, #path)
    assert.are.equal(30, path.length)
  end)

  it("follows the shapes as they are added and removed", function()
    local w = steer.world{}
    w:add_box(-20, 1, 20, 3)
    w:add_box(-20, -3, 20, -1)
    w:add_box(-22, -3, -20, 3)
    local open = assert(w:find_path{ from = { -18, 0 }, to = { -18, 10 } })
    local plug = w:add_box(18, -1, 20, 1)
    local none, msg = w:find_path{ from = { -18, 0 }, to = { -18, 10 } }
    assert.is_nil(none)
    assert.are.equal("no path from (-18, 0) to (-18, 10) for radius 0.5", msg)
    plug:remove()
    local again = assert(w:find_path{ from = { -18, 0 }, to = { -18, 10 } })
    assert.are.equal(open.length, again.length)
    -- a polyline's links are walls too
    w:add_polyline{ { 24, -5 }, { 24, 5 }, { 28, 5 } }
    local round = assert(w:find_path{ from = { -18, 0 }, to = { 26, 0 } })
    assert.is_true(round.length > 44 + 4 and #round >= 4)
  end)

  it("answers nil and a message for an end inside a shape, errors for bad input", function()
    local w = steer.world{}
    w:add_circle(0, 0, 2)
    local none, msg = w:find_path{ from = { -5, 0 }, to = { 1, 0 } }
    assert.is_nil(none)
    assert.are.equal("goal (1, 0) is inside a shape or closer than 0.5 to one", msg)
    assert.are.equal("bad argument #1 to 'find_path' (field 'from' must be a point of finite numbers)",
                     err(function() w:find_path{ from = { 0 / 0, 0 }, to = { 1, 1 } } end))
    assert.are.equal("bad argument #1 to 'find_path' (unknown field 'radiu')",
                     err(function() w:find_path{ from = { 5, 0 }, to = { 1, 1 }, radiu = 2 } end))
    assert.are.equal("bad argument #1 to 'find_path' (field 'radius' must be a positive number, got -1)",
                     err(function() w:find_path{ from = { 5, 0 }, to = { 9, 9 }, radius = -1 } end))
    assert.are.equal("bad argument #1 to 'find_path' (field 'radius' must be at most 100)",
                     err(function() w:find_path{ from = { 5, 0 }, to = { 9, 9 }, radius = 1000 } end))
  end)
end)

describe("flow fields", function()
  it("lead many agents round a block to the goal", function()
    local w = steer.world{}
    w:add_box(-15, -5, 15, 5)
    local field = assert(w:flow_field{ goal = { 0, 12 }, radius = 0.5, cell = 0.5, bounds = { -30, -30, 30, 30 } })
    assert.are.equal("steer.FlowField", getmetatable(field))
    assert.are.same({ 0, 12 }, { field:goal() })
    assert.are.same({ 120, 120, 0.5, -30, -30 }, { field:grid() })
    assert.is_true(math.abs(field:distance(0, -12) - 44.22) < 44.22 * 0.06)
    assert.are.equal(math.huge, field:distance(0, 0)) -- inside the block
    local follow = steer.follow_flow_field{ field = field }
    local agents = {}
    for i = 1, 8 do
      agents[i] = w:spawn{ x = -14 + 4 * i, y = -14, max_speed = 5, max_acceleration = 20, steering = follow }
    end
    for _ = 1, 60 * 30 do w:step(1 / 60) end
    for _, a in ipairs(agents) do
      assert.is_true(math.sqrt(a.x ^ 2 + (a.y - 12) ^ 2) < 1.0)
    end
  end)

  it("are the same bits every time", function()
    local w = steer.world{}
    w:add_circle(3, 3, 2)
    local f1 = w:flow_field{ goal = { 9, 9 }, cell = 0.25, bounds = { 0, 0, 10, 10 } }
    local f2 = w:flow_field{ goal = { 9, 9 }, cell = 0.25, bounds = { 0, 0, 10, 10 } }
    for x = 0.1, 10, 0.7 do
      for y = 0.1, 10, 0.7 do
        assert.are.equal(f1:distance(x, y), f2:distance(x, y))
        assert.are.same({ f1:direction(x, y) }, { f2:direction(x, y) })
      end
    end
  end)

  it("refuses what it cannot make", function()
    local w = steer.world{}
    w:add_box(0, 0, 4, 4)
    local none, msg = w:flow_field{ goal = { 10, 10 }, cell = 0.01, bounds = { 0, 0, 100, 100 } }
    assert.is_nil(none)
    assert.are.equal("a field of 10000 x 10000 cells is more than the 4194304 cells allowed", msg)
    none, msg = w:flow_field{ goal = { 2, 2 }, bounds = { 0, 0, 100, 100 } }
    assert.is_nil(none)
    assert.are.equal("goal (2, 2) is inside a shape or closer than 0.5 to one", msg)
    assert.are.equal("bad argument #1 to 'flow_field' (field 'bounds' must be a table {x1, y1, x2, y2}, got nil)",
                     err(function() w:flow_field{ goal = { 10, 10 } } end))
    assert.are.equal("bad argument #1 to 'follow_flow_field' (field 'field' must be a steer.FlowField, got 3)",
                     err(function() steer.follow_flow_field{ field = 3 } end))
  end)

  it("takes a mask: only shapes on a layer it meets are in the way (issue 26)", function()
    local w = steer.world{}
    w:add_box(-0.5, -8, 0.5, 8, { layer = 2 })
    local straight = assert(w:find_path{ from = { -10, 0 }, to = { 10, 0 }, mask = 1 })
    assert.are.equal(2, #straight)
    local round = assert(w:find_path{ from = { -10, 0 }, to = { 10, 0 }, mask = 3 })
    assert.is_true(#round > 2 and round.length > 21)
    local default = assert(w:find_path{ from = { -10, 0 }, to = { 10, 0 } })
    assert.are.equal(round.length, default.length)
    local open = assert(w:flow_field{ goal = { 10, 0 }, cell = 0.5, bounds = { -12, -12, 12, 12 }, mask = 1 })
    local closed = assert(w:flow_field{ goal = { 10, 0 }, cell = 0.5, bounds = { -12, -12, 12, 12 }, mask = 2 })
    assert.is_true(open:distance(-10, 0) < 20.5)
    assert.is_true(closed:distance(-10, 0) > 21)
    local BITS = "must be a 32-bit mask (an integer in [0, 2^32 - 1])"
    assert.are.equal("bad argument #1 to 'find_path' (field 'mask' " .. BITS .. ", got 1.5)",
      err(function() w:find_path{ from = { -10, 0 }, to = { 10, 0 }, mask = 1.5 } end))
    assert.are.equal("bad argument #1 to 'flow_field' (field 'mask' " .. BITS .. ", got -1)",
      err(function() w:flow_field{ goal = { 10, 0 }, bounds = { -12, -12, 12, 12 }, mask = -1 } end))
  end)
end)
