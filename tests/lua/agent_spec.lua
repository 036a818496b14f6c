-- Agents: properties, methods, identity, removal and closed worlds.
local steer = require "steer"
local support = require "support"
local err = support.err

describe("agents", function()
  it("are one proxy per agent", function()
    local w = steer.world{}
    local a = w:spawn{ x = 1 }
    local seen = {}
    for b in w:agents() do seen[#seen + 1] = b end
    assert.are.equal(a, seen[1])
    assert.is_true(rawequal(a, seen[1]))
    local set = { [a] = "hero" }
    assert.are.equal("hero", set[w:query(1, 0, 0.5)[1]])
    assert.are.equal("steer.Agent", getmetatable(a))
    -- floats print with ".0" from 5.3 on
    assert.are.equal(support.lua.integers and "steer.Agent{key=1, x=1.0, y=0.0}" or "steer.Agent{key=1, x=1, y=0}",
                     tostring(a))
  end)

  it("read and write their properties", function()
    local w = steer.world{}
    local a = w:spawn{ x = 1, y = 2, vx = 3, vy = 4 }
    local x, y = a:position()
    assert.are.equal(1, x); assert.are.equal(2, y)
    local vx, vy = a:velocity()
    assert.are.equal(3, vx); assert.are.equal(4, vy)
    assert.are.equal(5, a.speed)
    local limits = { "radius", "max_speed", "max_acceleration", "max_rotation", "max_angular_acceleration", "drag" }
    for _, name in ipairs(limits) do
      a[name] = 0.25
      assert.are.equal(0.25, a[name], name)
      assert.are.equal(("bad property '%s' of steer.Agent (must be a non-negative number, got -1)"):format(name),
                       err(function() a[name] = -1 end))
      assert.are.equal(("bad property '%s' of steer.Agent (must be a finite number, got nan)"):format(name),
                       err(function() a[name] = 0 / 0 end))
    end
    a.kinematic = true; assert.are.equal(true, a.kinematic)
    a.face_velocity = true; assert.are.equal(true, a.face_velocity)
    a.role = "boid"; a.tag = "blue"
    assert.are.equal("boid", a.role); assert.are.equal("blue", a.tag)
    a.role = nil; assert.is_nil(a.role)
    assert.are.equal("bad property 'tag' of steer.Agent (must be a string or nil, got 1)",
                     err(function() a.tag = 1 end))
    for _, name in ipairs({ "x", "y", "vx", "vy", "orientation", "rotation", "speed", "key" }) do
      assert.are.equal(("property '%s' of steer.Agent is read-only"):format(name), err(function() a[name] = 1 end))
    end
    assert.are.equal("steer.Agent has no property 'hp'", err(function() return a.hp end))
    assert.are.equal("steer.Agent has no property 'hp'", err(function() a.hp = 1 end))
  end)

  it("have a presentation colour, '#rrggbb' or nil, that world:draw reports", function()
    local w = steer.world{}
    local a = w:spawn{ x = 1, color = "#E04030" }
    assert.are.equal("#e04030", a.color)
    local b = w:spawn{ x = 2 }
    assert.is_nil(b.color)
    b.color = "#00ff7f"; assert.are.equal("#00ff7f", b.color)
    b.color = nil; assert.is_nil(b.color)
    for _, bad in ipairs({ "red", "#fff", "#12345g", "#1234567" }) do
      assert.are.equal(("bad property 'color' of steer.Agent (must be a colour '#rrggbb', got '%s')"):format(bad),
                       err(function() b.color = bad end))
    end
    assert.are.equal("bad property 'color' of steer.Agent (must be a colour '#rrggbb', got table)",
                     err(function() b.color = { 1, 0, 0 } end))
    assert.are.equal("bad argument #1 to 'spawn' (field 'color' must be a colour '#rrggbb', got 7)",
                     err(function() w:spawn{ color = 7 } end))
    -- the debug draw gives each agent its colour (the engine's grey without one)
    local seen = {}
    w:draw{ solid_circle = function(x, _, _, _, r, g, bl)
      seen[#seen + 1] = ("%g %d %d %d"):format(x, math.floor(r * 255 + 0.5), math.floor(g * 255 + 0.5),
                                               math.floor(bl * 255 + 0.5))
    end }
    table.sort(seen)
    assert.are.same({ "1 224 64 48", "2 208 208 208" }, seen)
    -- a removed agent's slot goes to the next agent without its colour
    a:remove()
    assert.is_nil(w:spawn{ x = 3 }.color)
    -- the colour is not state: the world's hash ignores it
    local w1, w2 = steer.world{}, steer.world{}
    w1:spawn{ x = 1 }; w2:spawn{ x = 1, color = "#ff0000" }
    assert.are.equal(w1:hash(), w2:hash())
  end)

  it("clamps a set velocity to max_speed, so no speed overflows", function()
    -- (issue 20: a velocity of 3e38 on each axis had an infinite speed, and
    -- the next step's clamp turned it into NaN for ever)
    local w = steer.world{}
    local a = w:spawn{ max_speed = 4, steering = steer.seek{ target = { 10, 0 } } }
    a:set_velocity(3e38, 3e38)
    assert.is_true(math.abs(a.speed - 4) < 1e-5)
    assert.is_near(a.vx, a.vy, 1e-6)
    for _ = 1, 10 do w:step(1 / 60) end
    assert.is_true(a.speed <= 4 and a.x == a.x and a.vx == a.vx)
    a:set_velocity(1, -2) -- under the limit: unchanged
    assert.are.equal(1, a.vx); assert.are.equal(-2, a.vy)
  end)

  it("set position, velocity, orientation and steering", function()
    local w = steer.world{}
    local a = w:spawn{ max_speed = 100 }
    a:set_position(5, 6); a:set_velocity(-1, 2); a:set_orientation(4)
    assert.are.equal(5, a.x); assert.are.equal(6, a.y)
    assert.are.equal(-1, a.vx); assert.are.equal(2, a.vy)
    assert.is_near(4 - 2 * math.pi, a.orientation, 1e-6) -- wrapped into (-pi, pi]
    assert.are.equal("bad argument #2 to 'set_position' (must be a finite number, got inf)",
                     err(function() a:set_position(1, math.huge) end))
    assert.are.equal("bad argument #1 to 'set_velocity' (number expected, got nil)",
                     err(function() a:set_velocity(nil, 1) end))
    local b = steer.seek{ target = { 0, 0 } }
    a.steering = b
    assert.are.equal(b, a.steering)
    a:set_steering(nil)
    assert.is_nil(a.steering)
    a:set_steering(b, true)
    assert.are.equal(b, a.steering)
    assert.are.equal("bad property 'steering' of steer.Agent (must be a behaviour or nil, got 'seek')",
                     err(function() a.steering = "seek" end))
    w:step(0.1)
    local lx, ly = a:last_steering()
    assert.is_near(-10 * 5 / math.sqrt(61), lx, 1e-4)
    assert.is_near(-10 * 6 / math.sqrt(61), ly, 1e-4)
  end)

  it("raise once removed", function()
    local w = steer.world{}
    local a = w:spawn{}
    local b = w:spawn{}
    a:remove()
    assert.is_false(a:alive())
    assert.is_true(b:alive())
    assert.are.equal("steer.Agent{removed}", tostring(a))
    assert.are.equal("attempt to use a removed agent", err(function() return a.x end))
    assert.are.equal("attempt to use a removed agent", err(function() a:position() end))
    assert.are.equal("attempt to use a removed agent", err(function() a.max_speed = 1 end))
    assert.are.equal("attempt to use a removed agent", err(function() a:remove() end))
    assert.are.equal("attempt to use a removed agent", err(function() steer.seek{}:get_steering(a) end))
    -- the slot is reused: the old proxy stays stale, the new agent gets its own
    local c = w:spawn{}
    assert.are_not.equal(a, c)
    assert.are.equal("attempt to use a removed agent", err(function() return a.x end))
    assert.is_true(c:alive())
    assert.are.equal(2, w:count())
  end)

  it("raise once their world is closed", function()
    local w = steer.world{}
    local a = w:spawn{}
    w:close()
    w:close() -- closing twice is harmless
    assert.is_false(a:alive())
    assert.are.equal("attempt to use an agent of a closed world", err(function() return a.x end))
    assert.are.equal("attempt to use a closed world", err(function() w:step(0.1) end))
    assert.are.equal("attempt to use a closed world", err(function() return w:count() end))
    assert.are.equal("steer.World{closed}", tostring(w))
  end)

  it("close with a to-be-closed variable (before 5.4: world:close())", function()
    local a
    if support.lua.close then
      -- compiled only where the syntax exists
      local chunk = "local steer = ...; local a; do local w <close> = steer.world{}; a = w:spawn{} end; return a"
      a = assert(support.load(chunk))(steer)
    else
      local w = steer.world{}
      a = w:spawn{}
      w:close()
    end
    assert.are.equal("attempt to use an agent of a closed world", err(function() return a.x end))
  end)
end)
