-- Findings of the adversarial fuzz campaign (issue 9) reachable from Lua,
-- each with the snippet that reproduced it.
local steer = require "steer"
local support = require "support"
local err = support.err

local function finite(...)
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    if v ~= v or v == math.huge or v == -math.huge then return false end
  end
  return true
end

describe("fuzz findings", function()
  it("6: follow_path with path_offset = 2e38 steers to the end of the path", function()
    local w = steer.world{}
    local path = w:path{ { 0, 0 }, { 10, 0 }, { 10, 10 } }
    local a = w:spawn{ x = 2, y = 1, steering = steer.follow_path{ path = path, path_offset = 2e38 } }
    for _ = 1, 60 do w:step(1 / 30) end
    assert.is_true(finite(a:position()))
    assert.is_true(a.x > 5 and a.y > 2)
  end)

  it("7: blend weights of any finite size give the right answer", function()
    local w = steer.world{}
    local a = w:spawn{}
    local seek = steer.seek{ target = { 10, 0 } }
    for _, weight in ipairs{ 1e19, 1e38, 3.4e38 } do
      local lx, ly, angular = steer.blend{ { seek, weight = weight } }:get_steering(a)
      assert.are.equal(10, lx)
      assert.are.equal(0, ly)
      assert.are.equal(0, angular)
    end
    a.steering = steer.blend{ { seek, weight = 1e38 } }
    w:step(1 / 60)
    assert.is_true(finite(a:last_steering()))
    local strong = w:spawn{ max_acceleration = 1e30 }
    local lx = steer.blend{ seek, seek }:get_steering(strong)
    assert.is_true(lx > 0.99e30 and lx < 1.0001e30) -- the limit (as a float), not 2e30
  end)

  it("11: numbers past the float range say so", function()
    assert.are.equal("bad argument #1 to 'seek' (field 'max_speed' must be at most 3e38 in magnitude, got 3.4e+38)",
                     err(function() return steer.seek{ max_speed = 3.4e38 } end))
    assert.are.equal("bad argument #1 to 'seek' (field 'max_speed' must be at most 3.4e38 in magnitude, got 1e+39)",
                     err(function() return steer.seek{ max_speed = 1e39 } end))
    assert.is_not_nil(steer.seek{ max_speed = 3e38 })
  end)

  it("12: equal radii set one after the other are accepted", function()
    local a = steer.arrive{}
    a.target_radius = 0.1
    a.slow_radius = 0.1
    assert.are.equal(0.1, a.slow_radius)
    assert.are.equal(0.1, a.target_radius)
  end)

  it("14: a Lua behaviour's empty error or failing __tostring is described, with its agent", function()
    local w = steer.world{}
    w:spawn{ key = 42, steering = steer.behaviour(function() error("") end) }
    local e = err(function() w:step(0.1) end)
    assert.are.equal("(a Lua behaviour raised an empty error message)", e:match("^[^\n]*"):gsub("^.-:%d+: ", ""))
    assert.truthy(e:find("\n(in the Lua behaviour of the agent with key 42)\n", 1, true))
    w:close()
    w = steer.world{}
    local bad = setmetatable({}, { __tostring = function() error("boom") end })
    w:spawn{ steering = steer.behaviour(function() error(bad) end) }
    assert.are.equal("(error object is a table value whose __tostring failed)",
                     err(function() w:step(0.1) end):match("^[^\n]*"))
    assert.are.equal("bad argument #1 to 'blend' (field '[1][1]' must be a behaviour, got nil)",
                     err(function() return steer.blend{ { nil, weight = 1 } } end))
  end)

  it("issue 20, 9: a path spanning 3e38 m is refused (its param was NaN), one within the bounds works", function()
    assert.are.equal("bad argument #1 to 'path' (field '[1]' must have coordinates within [-1e30, 1e30])",
                     err(function() return steer.path{ { -1.5e38, 0 }, { 1.5e38, 0 } } end))
    local path = steer.path{ { -1e30, 0 }, { 1e30, 1 } }
    assert.is_true(finite(path.length, path:param(0, 0), path:position(3)))
    local w = steer.world{}
    local a = w:spawn{ steering = steer.follow_path{ path = path } }
    for _ = 1, 10 do w:step(1 / 30) end
    assert.is_true(finite(a.x, a.y, a.vx, a.vy))
  end)
end)
