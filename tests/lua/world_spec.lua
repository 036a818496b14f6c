-- steer.world, spawn, step, queries, and agents' properties and methods.
local steer = require "steer"
local support = require "support"
local err = support.err

describe("steer.world", function()
  it("takes its options and exposes them as properties", function()
    local w = steer.world{ seed = 7, integrator = "newton", cell_size = 2, capacity = 10, resolve_contacts = true }
    assert.are.equal("steer.World", getmetatable(w))
    assert.are.equal("newton", w.integrator)
    assert.are.equal(2, w.cell_size)
    assert.are.equal(true, w.resolve_contacts)
    assert.are.equal(0, w.steps)
    w.integrator = "euler"; w.cell_size = 4; w.resolve_contacts = false
    assert.are.equal("euler", w.integrator)
    assert.are.equal(4, w.cell_size)
    assert.are.equal(false, w.resolve_contacts)
    w:step(0.1)
    assert.are.equal(1, w.steps)
    assert.are.equal("steer.World{agents=0, steps=1}", tostring(w))
  end)

  it("checks every option", function()
    assert.are.equal("bad argument #1 to 'world' (field 'integrator' must be one of 'euler', 'newton', got 'verlet')",
                     err(function() return steer.world{ integrator = "verlet" } end))
    assert.are.equal("bad argument #1 to 'world' (field 'cell_size' must be a positive number, got 0)",
                     err(function() return steer.world{ cell_size = 0 } end))
    -- a cell size outside [1 mm, 1e9 m] would break the grid arithmetic (issue 9)
    assert.are.equal("bad argument #1 to 'world' (field 'cell_size' must be in [0.001, 1e9], got 1e-45)",
                     err(function() return steer.world{ cell_size = 1e-45 } end))
    assert.are.equal("bad argument #1 to 'world' (field 'cell_size' must be in [0.001, 1e9], got 2000000000"
                     .. (support.lua.integers and ".0)" or ")"),
                     err(function() return steer.world{ cell_size = 2e9 } end))
    assert.are.equal(0.001, steer.world{ cell_size = 0.001 }.cell_size)
    assert.are.equal(1e9, steer.world{ cell_size = 1e9 }.cell_size)
    assert.are.equal("bad argument #1 to 'world' (field 'seed' must be an integer, got 1.5)",
                     err(function() return steer.world{ seed = 1.5 } end))
    assert.are.equal("bad argument #1 to 'world' (unknown field 'sed')",
                     err(function() return steer.world{ sed = 1 } end))
    local w = steer.world{}
    assert.are.equal("bad property 'cell_size' of steer.World (must be a finite number, got inf)",
                     err(function() w.cell_size = math.huge end))
    assert.are.equal("bad property 'cell_size' of steer.World (must be in [0.001, 1e9], got 0.0001)",
                     err(function() w.cell_size = 1e-4 end))
    assert.are.equal(4, w.cell_size)
    assert.are.equal("steer.World has no property 'gravity'", err(function() return w.gravity end))
    assert.are.equal("property 'steps' of steer.World is read-only", err(function() w.steps = 3 end))
  end)

  it("steps with dt checked, and names a bad self", function()
    local w = steer.world{}
    assert.are.equal("bad argument #1 to 'step' (must be a non-negative number, got -1)",
                     err(function() w:step(-1) end))
    assert.are.equal("bad argument #1 to 'step' (must be a finite number, got nan)", err(function() w:step(0 / 0) end))
    assert.are.equal("bad argument #1 to 'step' (must be at most 10000, got 20000)", err(function() w:step(20000) end))
    assert.are.equal("bad argument #1 to 'step' (number expected, got no value)", err(function() w:step() end))
    local t = { step = w.step }
    assert.are.equal("calling 'step' on bad self (steer.World expected, got table)", err(function() t:step(1) end))
  end)
end)

describe("world:spawn", function()
  it("maps every option to the agent", function()
    local w = steer.world{}
    local b = steer.seek{ target = { 1, 1 } }
    local a = w:spawn{ x = 1, y = 2, orientation = 0.5, vx = 0.25, vy = -0.5, rotation = 0.125, radius = 0.75,
                       max_speed = 6, max_acceleration = 20, max_rotation = 3, max_angular_acceleration = 7,
                       drag = 0.5, kinematic = true, face_velocity = true, steering = b, role = "guard",
                       tag = "red", key = 42 }
    assert.are.equal(1, a.x); assert.are.equal(2, a.y)
    assert.are.equal(0.5, a.orientation)
    assert.are.equal(0.25, a.vx); assert.are.equal(-0.5, a.vy)
    assert.are.equal(0.125, a.rotation)
    assert.are.equal(0.75, a.radius); assert.are.equal(6, a.max_speed)
    assert.are.equal(20, a.max_acceleration); assert.are.equal(3, a.max_rotation)
    assert.are.equal(7, a.max_angular_acceleration); assert.are.equal(0.5, a.drag)
    assert.are.equal(true, a.kinematic); assert.are.equal(true, a.face_velocity)
    assert.are.equal(b, a.steering)
    assert.are.equal("guard", a.role); assert.are.equal("red", a.tag)
    assert.are.equal(42, a.key)
    assert.is_near(math.sqrt(0.25 ^ 2 + 0.5 ^ 2), a.speed, 1e-6)
  end)

  it("uses the engine's defaults", function()
    local w = steer.world{}
    local a = w:spawn{}
    assert.are.equal(0, a.x); assert.are.equal(0, a.y)
    assert.are.equal(0.5, a.radius); assert.are.equal(5, a.max_speed); assert.are.equal(10, a.max_acceleration)
    assert.is_near(math.pi, a.max_rotation, 1e-6); assert.is_near(2 * math.pi, a.max_angular_acceleration, 1e-6)
    assert.are.equal(0, a.drag); assert.are.equal(false, a.kinematic)
    assert.is_nil(a.steering); assert.is_nil(a.role); assert.is_nil(a.tag)
    assert.are.equal(1, a.key)
  end)

  it("rejects misspelled, mistyped and non-finite fields", function()
    local w = steer.world{}
    assert.are.equal("bad argument #1 to 'spawn' (unknown field 'max_sped')",
                     err(function() w:spawn{ max_sped = 3 } end))
    assert.are.equal("bad argument #1 to 'spawn' (unknown field [1])", err(function() w:spawn{ 1 } end))
    assert.are.equal("bad argument #1 to 'spawn' (field 'x' must be a finite number, got nan)",
                     err(function() w:spawn{ x = 0 / 0 } end))
    assert.are.equal("bad argument #1 to 'spawn' (field 'vy' must be a finite number, got inf)",
                     err(function() w:spawn{ vy = math.huge } end))
    assert.are.equal("bad argument #1 to 'spawn' (field 'y' must be at most 3.4e38 in magnitude, got 1e+300)",
                     err(function() w:spawn{ y = 1e300 } end))
    assert.are.equal("bad argument #1 to 'spawn' (field 'x' must be a number, got '1')",
                     err(function() w:spawn{ x = "1" } end))
    assert.are.equal("bad argument #1 to 'spawn' (field 'max_speed' must be a non-negative number, got -1)",
                     err(function() w:spawn{ max_speed = -1 } end))
    assert.are.equal("bad argument #1 to 'spawn' (field 'drag' must be at most 1e30, got 1e+31)",
                     err(function() w:spawn{ drag = 1e31 } end))
    assert.are.equal("bad argument #1 to 'spawn' (field 'kinematic' must be a boolean, got 1)",
                     err(function() w:spawn{ kinematic = 1 } end))
    assert.are.equal("bad argument #1 to 'spawn' (field 'steering' must be a behaviour, got table)",
                     err(function() w:spawn{ steering = {} } end))
    assert.are.equal("bad argument #1 to 'spawn' (field 'role' must be a string, got 3)",
                     err(function() w:spawn{ role = 3 } end))
    assert.are.equal("bad argument #1 to 'spawn' (table expected, got number)", err(function() w:spawn(3) end))
    assert.are.equal(0, w:count())
  end)
end)

describe("queries", function()
  it("count, agents, query and hash", function()
    local w = steer.world{ seed = 1 }
    local spawned = {}
    for i = 1, 10 do spawned[i] = w:spawn{ x = i, y = 0 } end
    assert.are.equal(10, w:count())
    local seen = {}
    for a in w:agents() do seen[a] = true end
    for i = 1, 10 do assert.is_true(seen[spawned[i]]) end
    -- removing the current agent while iterating skips nothing
    local n = 0
    for a in w:agents() do
      n = n + 1
      if a.x % 2 == 0 then a:remove() end
    end
    assert.are.equal(10, n)
    assert.are.equal(5, w:count())
    local near = w:query(3, 0, 2.5) -- x = 1, 3, 5 are left within 2.5 of (3, 0)
    assert.are.equal(3, #near)
    for _, a in ipairs(near) do assert.is_true(a == spawned[1] or a == spawned[3] or a == spawned[5]) end
    assert.are.equal(1, #w:query(3, 0, 2)) -- distance < radius: x = 1 and 5 are out
    assert.are.equal(0, #w:query(100, 100, 1))
    assert.are.equal("bad argument #3 to 'query' (must be a non-negative number, got -1)",
                     err(function() w:query(0, 0, -1) end))
    -- the hash: same state, same number
    local function build()
      local v = steer.world{ seed = 4 }
      for i = 1, 20 do v:spawn{ x = i, y = i % 3, steering = steer.wander{} } end
      for _ = 1, 10 do v:step(1 / 60) end
      return v:hash()
    end
    local function build_hex()
      local v = steer.world{ seed = 4 }
      for i = 1, 20 do v:spawn{ x = i, y = i % 3, steering = steer.wander{} } end
      for _ = 1, 10 do v:step(1 / 60) end
      return v:hash("hex")
    end
    assert.are.equal(build(), build())
    assert.are.equal("number", type(build()))
    -- an integer from 5.3 on; before, a double (the 64 bits rounded): the
    -- hexadecimal form is exact under every version
    if support.lua.integers then assert.are.equal("integer", math.type(build())) end
    assert.are.equal(build_hex(), build_hex())
    assert.truthy(build_hex():match("^%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x$"))
    assert.are.equal(w:hash(), w:hash(nil))
    assert.are.equal("bad argument #1 to 'hash' (must be one of 'integer', 'hex', got 'hexa')",
                     err(function() w:hash("hexa") end))
  end)

  it("steps on several workers with the same bits, Lua behaviours included", function()
    assert.are.equal(1, steer.world{}.workers)
    assert.are.equal("bad argument #1 to 'world' (field 'workers' must be an integer in [1, 64], got 0)",
                     err(function() return steer.world{ workers = 0 } end))
    assert.are.equal("bad argument #1 to 'world' (field 'workers' must be an integer in [1, 64], got 2.5)",
                     err(function() return steer.world{ workers = 2.5 } end))
    assert.are.equal("property 'workers' of steer.World is read-only", err(function() steer.world{}.workers = 2 end))
    local calls = 0
    local orbit = steer.behaviour(function(agent)
      calls = calls + 1
      return -agent.y, agent.x
    end)
    local function build(workers)
      local v = steer.world{ seed = 3, workers = workers }
      assert.are.equal(workers, v.workers)
      local flock = steer.blend{ { steer.separation{}, weight = 2 }, { steer.cohesion{}, weight = 0.5 },
                                 { steer.wander{}, weight = 1 } }
      for i = 1, 600 do
        v:spawn{ x = (i % 30) * 0.7, y = math.floor(i / 30) * 0.7, steering = i % 50 == 0 and orbit or flock }
      end
      for _ = 1, 20 do v:step(1 / 60) end
      return v:hash()
    end
    local one = build(1)
    assert.are.equal(12 * 20, calls)
    for workers = 2, 4 do assert.are.equal(one, build(workers)) end
    assert.are.equal(4 * 12 * 20, calls)
  end)

  it("returns many agents from a query", function()
    local w = steer.world{}
    for i = 1, 300 do w:spawn{ x = (i % 17) * 0.1, y = math.floor(i / 17) * 0.1 } end
    assert.are.equal(300, #w:query(0.8, 0.8, 10))
  end)
end)
