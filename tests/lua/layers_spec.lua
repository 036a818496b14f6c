-- Layers, masks and floors through the Lua API (docs/lua-api.md, layers and
-- floors); the engine's side, consumer by consumer, is tests/c/test_layers.c.
local steer = require "steer"
local support = require "support"
local err = support.err
local BITS = "must be a 32-bit mask (an integer in [0, 2^32 - 1])"

describe("layers and floors", function()
  it("are spawn options and agent properties, defaults as before", function()
    local w = steer.world{}
    local a = w:spawn{}
    assert.are.equal(1, a.layer)
    assert.are.equal(0xFFFFFFFF, a.mask)
    assert.are.equal(0, a.z)
    assert.are.equal(0, a.height)
    local b = w:spawn{ layer = 6, mask = 0x80000001, z = -2.5, height = 1.75 }
    assert.are.equal(6, b.layer)
    assert.are.equal(0x80000001, b.mask)
    assert.are.equal(-2.5, b.z)
    assert.are.equal(1.75, b.height)
    b.layer, b.mask, b.z, b.height = 2, 3, 4, 5
    assert.are.same({ 2, 3, 4, 5 }, { b.layer, b.mask, b.z, b.height })
  end)

  it("refuses bad layers, masks and extents, naming the field", function()
    local w = steer.world{}
    assert.are.equal("bad argument #1 to 'spawn' (field 'layer' " .. BITS .. ", got -1)",
                     err(function() w:spawn{ layer = -1 } end))
    assert.are.equal("bad argument #1 to 'spawn' (field 'mask' " .. BITS .. ", got 4294967296)",
                     err(function() w:spawn{ mask = 0x100000000 } end))
    assert.are.equal("bad argument #1 to 'spawn' (field 'height' must be a non-negative number, got -1)",
                     err(function() w:spawn{ height = -1 } end))
    assert.are.equal("bad argument #1 to 'spawn' (field 'z' must be a finite number, got nan)",
                     err(function() w:spawn{ z = 0 / 0 } end))
    local a = w:spawn{}
    assert.are.equal("bad property 'mask' of steer.Agent (" .. BITS .. ", got 1.5)",
                     err(function() a.mask = 1.5 end))
  end)

  it("takes a shape's layer and extent as its constructor's last argument", function()
    local w = steer.world{}
    local box = w:add_box(0, 0, 1, 1, { layer = 2, z = 3, height = 2.5 })
    assert.are.same({ 2, 3, 2.5 }, { box.layer, box.z, box.height })
    local wall = w:add_wall(0, 0, 1, 0, { layer = 4 })
    assert.are.same({ 4, 0, 0 }, { wall.layer, wall.z, wall.height })
    assert.are.equal(8, w:add_circle(0, 0, 1, { layer = 8 }).layer)
    assert.are.equal(16, w:add_polygon({ { 0, 0 }, { 1, 0 }, { 0, 1 } }, { layer = 16 }).layer)
    local chain = w:add_polyline({ { 0, 0 }, { 1, 0 }, { 1, 1 }, loop = true }, { z = 1, height = 1 })
    assert.are.same({ 1, 1, 1 }, { chain.layer, chain.z, chain.height })
    -- properties; set_category is the same as layer
    wall.layer, wall.z, wall.height = 32, -1, 2
    assert.are.same({ 32, -1, 2 }, { wall.layer, wall.z, wall.height })
    wall:set_category(64)
    assert.are.equal(64, wall.layer)
    assert.are.equal("steer.Shape has no writable property 'type'", err(function() wall.type = "box" end))
  end)

  it("refuses unknown options and arguments after them, adding no shape", function()
    local w = steer.world{}
    assert.are.equal("bad argument #5 to 'add_box' (unknown field 'layers')",
                     err(function() w:add_box(0, 0, 1, 1, { layers = 2 }) end))
    assert.are.equal("bad argument #5 to 'add_box' (must be an options table {layer =, z =, height =} or nil)",
                     err(function() w:add_box(0, 0, 1, 1, 2) end))
    assert.are.equal("bad argument #6 to 'add_box' (no argument expected after the options table)",
                     err(function() w:add_box(0, 0, 1, 1, {}, 3) end))
    assert.are.equal("bad argument #5 to 'add_wall' (field 'height' must be a non-negative number, got -2)",
                     err(function() w:add_wall(0, 0, 1, 0, { height = -2 }) end))
    assert.are.equal("bad argument #4 to 'add_circle' (field 'layer' " .. BITS .. ", got true)",
                     err(function() w:add_circle(0, 0, 1, { layer = true }) end))
    assert.are.equal("bad argument #2 to 'add_polygon' (unknown field 'loop')",
                     err(function() w:add_polygon({ { 0, 0 }, { 1, 0 }, { 0, 1 } }, { loop = true }) end))
    assert.are.equal("bad argument #3 to 'add_polyline' (no argument expected after the options table)",
                     err(function() w:add_polyline({ { 0, 0 }, { 1, 0 } }, nil, 1) end))
    assert.is_nil(w:raycast(-5, 0.5, 1, 0, 100)) -- none of them was added
  end)

  it("filters world:query and world:raycast by mask and band", function()
    local w = steer.world{}
    local a = w:spawn{ x = 0, y = 0 }
    local b = w:spawn{ x = 1, y = 0, layer = 2 }
    local c = w:spawn{ x = 0, y = 1, z = 3, height = 1 }
    assert.are.equal(3, #w:query(0, 0, 5))
    assert.are.equal(2, #w:query(0, 0, 5, { mask = 1 }))
    local only = w:query(0, 0, 5, { mask = 1, z = 0, height = 1 })
    assert.are.equal(1, #only)
    assert.are.equal(a, only[1])
    local up = w:query(0, 0, 5, { z = 2.5, height = 1, ignore = a })
    assert.are.equal(1, #up)
    assert.are.equal(c, up[1])
    assert.are.equal(b, w:query(0, 0, 5, { z = 0, ignore = a })[1]) -- z alone: the plane z = 0
    assert.are.equal("bad argument #4 to 'query' (unknown field 'agents')",
                     err(function() w:query(0, 0, 5, { agents = true }) end))
    assert.are.equal("bad argument #5 to 'query' (no argument expected after the filter table)",
                     err(function() w:query(0, 0, 5, {}, 1) end))

    local wall = w:add_wall(5, -10, 5, 10, { z = 10, height = 1 })
    assert.are.equal(wall, select(6, w:raycast(0, -5, 1, 0, 100)))
    assert.is_nil(w:raycast(0, -5, 1, 0, 100, { z = 0, height = 2 }))
    assert.are.equal(wall, select(6, w:raycast(0, -5, 1, 0, 100, { z = 9, height = 1 })))
    -- agents: by layer and band too
    assert.are.equal(b, select(6, w:raycast(-3, 0, 1, 0, 100, { agents = true, ignore = a })))
    assert.are.equal(wall, select(6, w:raycast(-3, 0, 1, 0, 100, { agents = true, ignore = a, mask = 1 })))
    assert.are.equal("bad argument #6 to 'raycast' (field 'mask' " .. BITS .. ", got -1)",
                     err(function() w:raycast(0, 0, 1, 0, 1, { mask = -1 }) end))
  end)

  it("keeps agents on two floors apart, and a mask hides a layer", function()
    local w = steer.world{ resolve_agent_contacts = true }
    local low = w:spawn{ x = 0, y = 0, z = 0, height = 2, mask = 1 }
    local high = w:spawn{ x = 0.3, y = 0, z = 3, height = 2 }
    local ghost = w:spawn{ x = -0.3, y = 0, layer = 2, mask = 2 }
    local before = { low.x, high.x, ghost.x }
    w:step(1 / 60)
    -- overlapping in x and y, but nobody sees anybody: nobody was pushed
    assert.are.same(before, { low.x, high.x, ghost.x })
    high.z = 0 -- down the ramp: now low and high meet
    w:step(1 / 60)
    assert.is_true(high.x - low.x > 0.99)
  end)
end)

describe("priority", function()
  it("is a spawn option and an agent property, any finite number", function()
    local w = steer.world{}
    assert.are.equal(0, w:spawn{}.priority)
    local hero = w:spawn{ priority = 10 }
    assert.are.equal(10, hero.priority)
    hero.priority = -2.5
    assert.are.equal(-2.5, hero.priority)
    assert.are.equal("bad argument #1 to 'spawn' (field 'priority' must be a finite number, got inf)",
                     err(function() w:spawn{ priority = 1 / 0 } end))
  end)

  it("lets a high-priority avoider keep its way through a lower one", function()
    local function run(priority)
      local w = steer.world{}
      local east = steer.reciprocal_avoidance{ preferred = steer.seek{ target = { 20, 0 } } }
      local west = steer.reciprocal_avoidance{ preferred = steer.seek{ target = { -20, 0.1 } } }
      local a = w:spawn{ x = -5, y = 0, vx = 5, steering = east, priority = priority }
      w:spawn{ x = 5, y = 0.1, vx = -5, steering = west }
      local swerve = 0
      for _ = 1, 300 do
        w:step(1 / 60)
        swerve = math.max(swerve, math.abs(a.y))
      end
      return swerve
    end
    local equal, high = run(0), run(5)
    assert.is_true(equal > 0.3)
    assert.is_true(high < 0.05)
  end)
end)
