-- Lifetime: behaviours live while used, proxies borrow, collected worlds
-- leave raising proxies behind (never dangling ones).
local steer = require "steer"
local support = require "support"
local err = support.err

local function collect()
  collectgarbage(); collectgarbage()
end

describe("lifetime", function()
  it("keeps a behaviour alive while an agent uses it", function()
    local w = steer.world{}
    local a = w:spawn{ steering = steer.seek{ target = { 10, 0 } } }
    collect()
    w:step(0.1)
    assert.is_true(a.vx > 0)
    assert.are.equal("seek", a.steering.type)
    assert.are.equal(a.steering, a.steering) -- the same userdata each time
  end)

  it("keeps children alive while a combinator uses them", function()
    local w = steer.world{}
    local a = w:spawn{}
    local flock = steer.blend{ { steer.seek{ target = { 3, 4 } }, weight = 1 },
                               { steer.priority{ steer.flee{ target = { 3, 4 } } }, weight = 0.5 } }
    collect()
    local lx, ly = flock:get_steering(a)
    assert.is_near(3, lx, 1e-5); assert.is_near(4, ly, 1e-5)
    assert.are.equal("seek", flock.children[1][1].type)
    assert.are.equal("flee", flock.children[2][1].children[1].type)
  end)

  it("keeps a Lua behaviour (and its function) alive while an agent uses it", function()
    local w = steer.world{}
    local a = w:spawn{}
    a.steering = steer.behaviour(function() return 1, 0, 0 end)
    collect()
    for _ = 1, 3 do w:step(0.1) collect() end
    assert.is_true(a.vx > 0)
  end)

  it("never removes an agent when its proxy is collected", function()
    local w = steer.world{}
    for i = 1, 100 do w:spawn{ x = i } end
    collect()
    assert.are.equal(100, w:count())
    local first
    for a in w:agents() do first = first or a end
    assert.is_true(first:alive())
  end)

  it("lets a behaviour go once nothing uses it", function()
    local w = steer.world{}
    local a = w:spawn{}
    local weak = setmetatable({}, { __mode = "v" })
    weak[1] = steer.seek{}
    a.steering = weak[1]
    collect()
    assert.is_not_nil(weak[1])
    a.steering = nil
    collect()
    assert.is_nil(weak[1])
    weak[1] = steer.seek{}
    a.steering = weak[1]
    a:remove()
    collect()
    assert.is_nil(weak[1])
  end)

  it("destroys a collected world; its agents' proxies raise", function()
    local a, s
    do
      local w = steer.world{}
      a = w:spawn{}
      s = steer.seek{ target = a }
    end
    collect()
    assert.is_false(a:alive())
    assert.are.equal("attempt to use an agent of a closed world", err(function() return a.x end))
    assert.are.equal("attempt to use an agent of a closed world", err(function() s:get_steering(a) end))
    assert.are.equal("attempt to use an agent of a closed world", err(function() s.target = a end))
  end)

  it("survives a world collected inside get_steering", function()
    local a = steer.world{}:spawn{} -- nothing else holds the world
    local b = steer.behaviour(function()
      collect()
      return 1, 2, 3
    end)
    local lx, ly, ang = b:get_steering(a)
    assert.are.same({ 1, 2, 3 }, { lx, ly, ang })
    collect()
    assert.are.equal("attempt to use an agent of a closed world", err(function() return a.x end))
  end)

  it("keeps stepping after many worlds and behaviours come and go", function()
    local keep = steer.world{}
    -- the flock's behaviour is made in a function, so that only the agents refer to it
    local function spawn_flock()
      local boid = steer.blend{ { steer.separation{}, weight = 2 }, { steer.cohesion{}, weight = 1 } }
      for i = 1, 50 do keep:spawn{ x = i % 7, y = math.floor(i / 7), steering = boid } end
    end
    spawn_flock()
    for round = 1, 20 do
      local w = steer.world{}
      for i = 1, 20 do w:spawn{ x = i, steering = steer.seek{ target = { round, 0 } } } end
      w:step(0.1)
      if round % 2 == 0 then w:close() end
      keep:step(1 / 60)
      collect()
    end
    assert.are.equal(50, keep:count())
  end)
end)
