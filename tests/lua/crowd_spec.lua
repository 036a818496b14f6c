-- steer.reciprocal_avoidance and the world's resolve_agent_contacts: options,
-- live properties, the preferred child, pinned error messages.
local steer = require "steer"
local support = require "support"
local err = support.err

describe("steer.reciprocal_avoidance", function()
  it("wraps its preferred behaviour, with the defaults", function()
    local arrive = steer.arrive{ target = { 10, 0 } }
    local r = steer.reciprocal_avoidance{ preferred = arrive }
    assert.are.equal("steer.ReciprocalAvoidance", getmetatable(r))
    assert.are.equal("reciprocal_avoidance", r.type)
    assert.are.equal(arrive, r.preferred)
    assert.are.equal(2, r.time_horizon)
    assert.are.equal(1, r.obstacle_time_horizon)
    assert.are.equal(10, r.max_neighbours)
    assert.are.equal(10, r.radius)
    assert.is_nil(r.max_speed)
  end)

  it("has live properties", function()
    local r = steer.reciprocal_avoidance{ preferred = steer.seek{ target = { 1, 0 } }, time_horizon = 3,
      obstacle_time_horizon = 0.5, max_neighbours = 4, radius = 6 }
    assert.are.equal(3, r.time_horizon)
    r.time_horizon = 5
    r.max_neighbours = 64
    r.radius = 12
    assert.are.equal(5, r.time_horizon)
    assert.are.equal(64, r.max_neighbours)
    assert.are.equal(12, r.radius)
    local other = steer.arrive{ target = { 0, 5 } }
    r.preferred = other
    assert.are.equal(other, r.preferred)
  end)

  it("pins its error messages", function()
    assert.are.equal("bad argument #1 to 'reciprocal_avoidance' (field 'preferred' must be a behaviour, got nil)",
      err(function() steer.reciprocal_avoidance{} end))
    assert.are.equal("bad argument #1 to 'reciprocal_avoidance' (field 'preferred' must be a behaviour, got 3)",
      err(function() steer.reciprocal_avoidance{ preferred = 3 } end))
    local seek = steer.seek{}
    assert.are.equal(
      "bad argument #1 to 'reciprocal_avoidance' (field 'time_horizon' must be a positive number, got 0)",
      err(function() steer.reciprocal_avoidance{ preferred = seek, time_horizon = 0 } end))
    assert.are.equal("bad argument #1 to 'reciprocal_avoidance' "
      .. "(field 'max_neighbours' must be a whole number in [1, 64], got 2.5)",
      err(function() steer.reciprocal_avoidance{ preferred = seek, max_neighbours = 2.5 } end))
    assert.are.equal("bad argument #1 to 'reciprocal_avoidance' "
      .. "(field 'max_neighbours' must be a whole number in [1, 64], got 65)",
      err(function() steer.reciprocal_avoidance{ preferred = seek, max_neighbours = 65 } end))
    assert.are.equal("bad argument #1 to 'reciprocal_avoidance' (unknown field 'horizon')",
      err(function() steer.reciprocal_avoidance{ preferred = seek, horizon = 2 } end))
    local r = steer.reciprocal_avoidance{ preferred = seek }
    assert.are.equal("bad property 'preferred' of steer.ReciprocalAvoidance (must be a behaviour, got nil)",
      err(function() r.preferred = nil end))
    assert.are.equal("bad property 'preferred' of steer.ReciprocalAvoidance (a behaviour cannot contain itself)",
      err(function() r.preferred = r end))
    local outer = steer.priority{ r }
    assert.are.equal("bad property 'preferred' of steer.ReciprocalAvoidance (a behaviour cannot contain itself)",
      err(function() r.preferred = outer end))
  end)

  it("steers a head-on pair past each other, from priorities and blends too", function()
    local world = steer.world{ seed = 3 }
    local function brain(x)
      return steer.priority{ steer.reciprocal_avoidance{ preferred = steer.arrive{ target = { x, 0 },
        target_radius = 0.1, slow_radius = 2 }, radius = 6 } }
    end
    local a = world:spawn{ x = -8, y = 0, max_speed = 1.5, steering = brain(8) }
    local b = world:spawn{ x = 8, y = 0, max_speed = 1.5, steering = steer.blend{ brain(-8) } }
    local closest = math.huge
    for _ = 1, 200 do
      world:step(0.1)
      local ax, ay = a:position()
      local bx, by = b:position()
      closest = math.min(closest, math.sqrt((ax - bx) ^ 2 + (ay - by) ^ 2))
    end
    assert.is_true(closest >= 1)
    assert.is_true(math.abs(a.x - 8) < 0.5 and math.abs(b.x + 8) < 0.5)
  end)

  it("refuses changes while a world steps", function()
    local world = steer.world{}
    local r = steer.reciprocal_avoidance{ preferred = steer.seek{ target = { 1, 0 } } }
    local probe = steer.behaviour(function()
      r.preferred = steer.seek{}
    end)
    world:spawn{ steering = steer.blend{ probe, r } }
    local e = err(world.step, world, 0.1)
    assert.are.equal("attempt to change the preferred of a behaviour while a world is stepping",
      e:match("^[^\n]*"))
  end)
end)

describe("world resolve_agent_contacts", function()
  it("is an option and a property, off by default", function()
    assert.is_false(steer.world{}.resolve_agent_contacts)
    local world = steer.world{ resolve_agent_contacts = true }
    assert.is_true(world.resolve_agent_contacts)
    world.resolve_agent_contacts = false
    assert.is_false(world.resolve_agent_contacts)
    assert.are.equal("bad argument #1 to 'world' (field 'resolve_agent_contacts' must be a boolean, got 1)",
      err(function() steer.world{ resolve_agent_contacts = 1 } end))
  end)

  it("separates two overlapping agents by half the overlap each", function()
    local world = steer.world{ resolve_agent_contacts = true }
    local a = world:spawn{ x = 0, y = 0 }
    local b = world:spawn{ x = 0.6, y = 0 }
    world:step(0.1)
    assert.is_true(math.abs(a.x + 0.2) < 1e-6 and math.abs(b.x - 0.8) < 1e-6)
  end)
end)
