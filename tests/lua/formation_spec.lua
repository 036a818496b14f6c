-- Formations from Lua: the contract of issue 12 (names, live properties,
-- roles and costs, Lua patterns) and the exact error messages.
local steer = require "steer"
local support = require "support"
local err = support.err

local function squad(world, n, extra)
  local t = {}
  for i = 1, n do
    local o = { x = i * 2, y = -4, max_speed = 8, max_acceleration = 30 }
    for k, v in pairs(extra or {}) do o[k] = v end
    t[i] = world:spawn(o)
  end
  return t
end

local function worst_error(f)
  local worst = 0
  for _, a in ipairs(f.members) do
    local x, y = f:slot_target(f:slot_of(a))
    worst = math.max(worst, math.sqrt((x - a.x) ^ 2 + (y - a.y) ^ 2))
  end
  return worst
end

describe("steer.formation", function()
  local world, hero
  before_each(function()
    world = steer.world{ seed = 3 }
    hero = world:spawn{ x = 0, y = 0, max_speed = 2 }
  end)

  it("gives every member a slot and its behaviour, and members reach their slots", function()
    for _, pattern in ipairs{ "line", "column", "v", "circle", "defensive_circle", "grid" } do
      local w = steer.world{ seed = 1 }
      local leader = w:spawn{ x = 0, y = 0 }
      local f = steer.formation{ pattern = pattern, leader = leader, members = squad(w, 5), spacing = 2 }
      local seen = {}
      for _, a in ipairs(f.members) do
        local s = f:slot_of(a)
        assert.is_number(s)
        assert.is_nil(seen[s])
        seen[s] = true
        assert.are.equal(f:behaviour(), a.steering)
      end
      for _ = 1, 300 do w:step(1 / 60) end
      assert.is_true(worst_error(f) < 0.5, pattern)
    end
  end)

  it("has live properties", function()
    local f = steer.formation{ leader = hero, members = squad(world, 3) }
    assert.are.equal("line", f.pattern)
    assert.are.equal(2, f.spacing)
    assert.are.equal("steer", f.motion)
    assert.are.equal("optimal", f.assignment)
    assert.are.equal(hero, f.leader)
    f.spacing = 3
    assert.are.equal(3, f.spacing)
    assert.are.equal(-3, select(2, f:slot_target(1)))
    f.pattern = "column"
    assert.are.equal("column", f.pattern)
    assert.are.equal(3, f.slot_count)
    f.pattern = { { 0, -1 }, { 1, -1, 0.5 }, { -1, -1 }, { 0, -2 } }
    assert.are.equal(4, f.slot_count)
    f.pattern = function(i, n) return i - (n + 1) / 2, -2, 0 end
    assert.are.equal(3, f.slot_count)
    local x, y = f:slot_target(1)
    assert.are.equal(-1, x)
    assert.are.equal(-2, y)
    f.motion = "rigid"
    world:step(1 / 60)
    local a = f:slot_holder(2)
    local sx, sy = f:slot_target(2)
    assert.is_true(math.abs(a.x - sx) < 1e-4 and math.abs(a.y - sy) < 1e-4)
    f.assignment = "ordered"
    assert.are.equal(1, f:slot_of(f.members[1]))
    assert.are.equal(3, f:slot_of(f.members[3]))
  end)

  it("assigns by roles and costs, never into a forbidden slot", function()
    local shield = world:spawn{ x = 5, y = -2, role = "shield" }
    local a1 = world:spawn{ x = 0, y = -2, role = "archer" }
    local a2 = world:spawn{ x = -5, y = -2, role = "archer" }
    local f = steer.formation{
      pattern = "line", leader = hero, members = { a1, a2, shield },
      slot_roles = { "shield", "archer", "archer" },
      costs = { archer = { shield = math.huge } },
    }
    assert.are.equal(1, f:slot_of(shield))
    assert.are_not.equal(1, f:slot_of(a1))
    assert.are_not.equal(1, f:slot_of(a2))
    assert.is_true(f:total_cost() < math.huge)
    -- a costs function, evaluated by the bindings when the shape changes
    f.costs = function(member, slot) return member == a2 and slot == 1 and 0 or 100 end
    f.distance_weight = 0
    assert.are.equal(1, f:slot_of(a2))
    f.slot_roles = function(i, n) return i == n and "rear" or nil end
    assert.are.equal(3, f.slot_count)
  end)

  it("adds and removes members, reassigning", function()
    local f = steer.formation{ pattern = "circle", leader = hero, members = squad(world, 3) }
    local extra = world:spawn{ x = 9, y = 9 }
    f:add(extra)
    assert.are.equal(4, f.slot_count)
    assert.is_number(f:slot_of(extra))
    assert.is_true(f:remove(extra))
    assert.is_nil(f:slot_of(extra))
    assert.is_false(f:remove(extra))
    assert.are.equal(3, #f.members)
    -- a member whose agent is removed from the world leaves at the next step
    local gone = f.members[1]
    gone:remove()
    world:step(1 / 60)
    assert.are.equal(2, #f.members)
  end)

  it("keeps an emergent formation a tree", function()
    local f = steer.formation{ pattern = "v", leader = hero, motion = "emergent", members = squad(world, 6) }
    for _, a in ipairs(f.members) do
      local hops, b = 0, a
      while b ~= hero and hops < 10 do
        b = f:followed(b)
        hops = hops + 1
      end
      assert.are.equal(hero, b)
    end
  end)

  it("moves a two-level formation's anchor towards its target", function()
    local f = steer.formation{ world = world, pattern = "grid", members = squad(world, 4),
                               anchor = { x = 0, y = 0, target = { 0, 30 }, max_speed = 2 } }
    for _ = 1, 120 do world:step(1 / 60) end
    local _, y, _, moderation = f:anchor()
    assert.is_true(y > 0.5)
    assert.is_true(moderation > 0 and moderation <= 1)
  end)

  it("steers an anchor with a behaviour", function()
    local f = steer.formation{ world = world, pattern = "line", members = squad(world, 3),
                               anchor = { x = 0, y = 0, steering = steer.arrive{ target = { 20, 0 } }, max_speed = 2 } }
    for _ = 1, 300 do world:step(1 / 60) end
    local x, y, o = f:anchor()
    assert.is_true(x > 5 and math.abs(y) < 0.5, x)
    assert.is_true(math.abs(o - math.pi / 2) < 0.1, o)
    assert.are.equal("bad argument #1 to 'formation' (field 'anchor.steering' must not contain a Lua behaviour "
      .. "or a formation slot)",
      err(function()
        steer.formation{ world = world, anchor = { steering = steer.blend{ steer.behaviour(function() end) } } }
      end))
  end)

  it("refuses formations leading each other in a cycle", function()
    local sub = world:spawn{}
    local top = steer.formation{ leader = hero, members = { sub } }
    local low = steer.formation{ leader = sub, members = squad(world, 2), motion = "emergent" }
    assert.are.equal("bad argument #1 to 'add' (would make formations lead each other in a cycle)",
      err(function() low:add(hero) end))
    assert.are.equal("bad property 'leader' of steer.Formation (would make formations lead each other in a cycle)",
      err(function() top.leader = low.members[1] end))
    assert.are.equal("bad property 'leader' of steer.Formation (must not be a member of the formation)",
      err(function() top.leader = sub end))
  end)

  it("pins its error messages", function()
    assert.are.equal("bad argument #1 to 'formation' (field 'pattern' must be one of 'line', 'column', 'v', "
      .. "'circle', 'defensive_circle', 'grid', a list of offsets or a function, got 'wedge')",
      err(function() steer.formation{ pattern = "wedge", leader = hero } end))
    assert.are.equal("bad argument #1 to 'formation' (unknown field 'pattern_')",
      err(function() steer.formation{ pattern_ = "v", leader = hero } end))
    assert.are.equal("bad argument #1 to 'formation' (field 'spacing' must be a positive number, got -2)",
      err(function() steer.formation{ leader = hero, spacing = -2 } end))
    assert.are.equal("bad argument #1 to 'formation' (field 'assignment' must be one of 'optimal', 'ordered', "
      .. "got 'greedy')",
      err(function() steer.formation{ leader = hero, assignment = "greedy" } end))
    local dead = world:spawn{}
    dead:remove()
    assert.are.equal("bad argument #1 to 'formation' (field 'leader' must be a live agent, got a removed agent)",
      err(function() steer.formation{ leader = dead } end))
    assert.are.equal("bad argument #1 to 'formation' (field 'pattern' must give numbers dx, dy[, orientation] "
      .. "(slot 1 of 1), got 'x')",
      err(function() steer.formation{ leader = hero, pattern = function() return "x", 1 end } end))
    local f = steer.formation{ leader = hero, members = squad(world, 2) }
    assert.are.equal("bad property 'pattern' of steer.Formation (must give numbers dx, dy[, orientation] "
      .. "(slot 1 of 2), got nil)",
      err(function() f.pattern = function() end end))
    assert.are.equal("bad property 'spacing' of steer.Formation (must be a positive number, got 0)",
      err(function() f.spacing = 0 end))
    assert.are.equal("bad property 'motion' of steer.Formation (must be one of 'steer', 'rigid', 'emergent', "
      .. "got 'fly')",
      err(function() f.motion = "fly" end))
    assert.are.equal("bad argument #1 to 'add' (is already a member of a formation)",
      err(function() f:add(f.members[1]) end))
    assert.are.equal("bad argument #1 to 'add' (must not be the formation's leader)",
      err(function() f:add(hero) end))
    local archer = world:spawn{ role = "archer" }
    local g = steer.formation{ leader = hero, pattern = { { 0, -2 } }, slot_roles = { "shield" },
                               costs = { archer = { shield = math.huge } } }
    assert.are.equal("bad argument #1 to 'add' (has role 'archer', forbidden in every slot)",
      err(function() g:add(archer) end))
    assert.is_nil(g:slot_of(archer))
    assert.are.equal("bad argument #1 to 'formation' (field 'costs' forbid every slot to a member with role 'archer')",
      err(function()
        steer.formation{ leader = hero, members = { archer }, pattern = { { 0, -2 } }, slot_roles = { "shield" },
                         costs = { archer = { shield = math.huge } } }
      end))
    assert.are.equal("steer.Formation has no property 'colour'", err(function() return f.colour end))
  end)
end)

describe("steer.formation costs", function()
  -- every entry of a costs table is checked, at construction, on assignment
  -- and again when a change of members re-reads it (a table is shared: the
  -- script may have changed it since); nothing unchecked reaches the engine
  local shape = "must be a table costs[member_role][slot_role] of numbers in [-3e38, 3e38] or math.huge (forbidden); "
  local function build(costs)
    local world = steer.world{}
    local ms = { world:spawn{ x = 1 }, world:spawn{ x = 2 } }
    return err(function() steer.formation{ members = ms, slot_roles = { "s", "s" }, costs = costs } end)
  end
  it("refuses a malformed table or a bad cost with the entry it names", function()
    local cases = {
      { { a = 5 }, "costs['a'] is not, got 5" },
      { { a = { s = 0 / 0 } }, "costs['a']['s'] is not, got nan" },
      { { a = { s = -math.huge } }, "costs['a']['s'] is not, got -inf" },
      { { a = { s = -1e300 } }, "costs['a']['s'] is not, got -1e+300" },
      { { a = { s = 1e300 } }, "costs['a']['s'] is not, got 1e+300" },
      { { a = { s = "x" } }, "costs['a']['s'] is not, got 'x'" },
      { { a = { s = true } }, "costs['a']['s'] is not, got true" },
      { { [1] = { s = 1 } }, "a key of costs is not a role name, got 1" },
      { { a = { [2] = 1 } }, "a key of costs['a'] is not a role name, got 2" },
    }
    for _, c in ipairs(cases) do
      assert.are.equal("bad argument #1 to 'formation' (field 'costs' " .. shape .. c[2] .. ")", build(c[1]))
    end
  end)
  it("accepts numbers in range and math.huge, and checks a table changed after it was set", function()
    local world = steer.world{}
    local ms = { world:spawn{ x = 1 }, world:spawn{ x = 2 } }
    local f = steer.formation{ members = ms, slot_roles = { "s", "t" }, costs = { a = { s = math.huge, t = -3e38 } } }
    assert.are.equal("bad property 'costs' of steer.Formation (" .. shape .. "costs['a'] is not, got 5)",
      err(function() f.costs = { a = 5 } end))
    local t = { a = { s = 1 } }
    f.costs = t
    t.a = 5
    assert.are.equal("bad argument #1 to 'add' (field 'costs' " .. shape .. "costs['a'] is not, got 5)",
      err(function() f:add(world:spawn{ x = 3 }) end))
  end)
end)

describe("steer.formation levels", function()
  it("lets a member of an anchored formation lead a sub-formation", function()
    local world = steer.world{}
    local captain, other = world:spawn{ x = 0, y = -1 }, world:spawn{ x = 2, y = -1 }
    local top = steer.formation{ members = { captain, other }, anchor = { x = 0, y = 0, target = { 0, 30 } } }
    local followers = {}
    for i = 1, 3 do followers[i] = world:spawn{ x = i, y = -4 } end
    local sub = steer.formation{ leader = captain, members = followers, pattern = "v" }
    assert.are.equal(3, #sub.members)
    sub.leader = nil
    sub.leader = captain
    for _ = 1, 300 do world:step(1 / 60) end
    assert.is_true(captain.y > 3)
    assert.are.equal(2, #top.members)
  end)
end)

describe("steer.formation limits", function()
  it("works on when its leader left the world, until it gets another", function()
    local world = steer.world{}
    local leader = world:spawn{ x = 0, y = 0 }
    local f = steer.formation{ leader = leader, members = squad(world, 2) }
    leader:remove()
    world:step(0.1)
    assert.is_nil(f.leader)
    f.spacing = 3
    f:add(world:spawn{ x = 9 })
    f.pattern = "v"
    assert.are.equal(3, #f.members)
    assert.is_nil((f:slot_target(1)))
    f.leader = world:spawn{ x = 1 }
    assert.is_not_nil((f:slot_target(1)))
  end)

  it("refuses spacing, offsets and role names the engine would refuse, by name", function()
    local world = steer.world{}
    local function make(opts)
      opts.members = opts.members or squad(world, 1)
      return err(function() steer.formation(opts) end)
    end
    assert.are.equal("bad argument #1 to 'formation' (field 'spacing' must be at most 1e15, got 1e+20)",
      make{ spacing = 1e20 })
    assert.are.equal("bad argument #1 to 'formation' (field 'pattern[1]' must be an offset {dx, dy[, orientation]} "
      .. "with dx and dy within [-1e15, 1e15] m, got -2e+15)", make{ pattern = { { -2e15, 0 } } })
    assert.are.equal("bad argument #1 to 'formation' (field 'pattern' must give numbers dx, dy[, orientation] "
      .. "(slot 1 of 1) within [-1e15, 1e15] m, got 1e+17)", make{ pattern = function() return 0, 1e17 end })
    local f = steer.formation{ members = squad(world, 1), pattern = { { 0, 0 } } }
    assert.are.equal("bad property 'spacing' of steer.Formation (must be at most 1e15, got 1e+16)",
      err(function() f.spacing = 1e16 end))
    local costs = {}
    for i = 1, 5000 do costs["m" .. i] = { s = 1 } end
    assert.are.equal("a formation takes at most 4095 different role names (its slot roles, costs and members' "
      .. "roles), got more", err(function() f.costs = costs end))
    assert.is_nil(f.costs)
    f.costs = { m1 = { s = 1 } }
    assert.are.equal(1, #f.members)
  end)

  it("refuses an anchor target of another world", function()
    -- hold the other world: a collected world removes its agents, and the error would then be about that
    local elsewhere = steer.world{}
    local other = elsewhere:spawn{ x = 5 }
    assert.are.equal("bad argument #1 to 'formation' (field 'anchor.target' must be an agent of the formation's world)",
      err(function() steer.formation{ world = steer.world{}, anchor = { target = other } } end))
    assert.is_true(other:alive())
  end)

  it("refuses world changes from its Lua functions while they run", function()
    local world = steer.world{}
    local ms = squad(world, 3)
    local message = "attempt to modify a world while a formation's pattern, slot_roles or costs function runs"
    assert.are.equal(message, err(function()
      steer.formation{ members = ms, costs = function() ms[3]:remove() return 1 end }
    end))
    local f = steer.formation{ members = ms }
    assert.are.equal(message, err(function() f.costs = function() f:remove(ms[3]) return 1 end end))
    assert.are.equal(message, err(function() f.pattern = function(i) world:spawn{} return i, 0 end end))
    assert.are.equal(message, err(function() f.slot_roles = function() ms[1]:set_position(5, 5) end end))
    assert.are.equal(3, #f.members)
    assert.are.equal(3, world:count())
    -- and the world is open again afterwards
    f:remove(ms[3])
    ms[3]:remove()
    assert.are.equal(2, world:count())
  end)
end)

describe("steer.formation lifetime", function()
  it("belongs to its world: collecting the proxy keeps it, closing the world ends it", function()
    local world = steer.world{}
    local hero = world:spawn{}
    local m = world:spawn{ x = 3, y = -3 }
    do
      local f = steer.formation{ leader = hero, members = { m } }
      assert.is_not_nil(f)
    end
    collectgarbage()
    collectgarbage()
    for _ = 1, 60 do world:step(1 / 60) end
    -- still steered by the formation's behaviour (the line's only slot is 2 m behind)
    assert.is_true(math.abs(m.x) < 0.5 and math.abs(m.y + 2) < 0.5)
    local f = steer.formation{ leader = hero }
    f:destroy()
    assert.are.equal("attempt to use a destroyed formation", err(function() f:slot_of(m) end))
    local g = steer.formation{ leader = hero }
    world:close()
    assert.are.equal("attempt to use a closed world", err(function() return g.spacing end))
    assert.are.equal("steer.Formation (destroyed)", tostring(g))
  end)
end)

describe("steer.formation while a world steps", function()
  it("refuses changes from a Lua behaviour", function()
    local world = steer.world{}
    local hero = world:spawn{}
    local f = steer.formation{ leader = hero, members = { world:spawn{} } }
    local outsider = world:spawn{}
    local tries = {
      function() f:add(outsider) end,
      function() f:remove(f.members[1]) end,
      function() f.spacing = 3 end,
      function() f.pattern = "v" end,
      function() f:reassign() end,
      function() f:destroy() end,
    }
    for _, try in ipairs(tries) do
      local trier = world:spawn{ steering = steer.behaviour(function() try() end) }
      local msg = err(function() world:step(1 / 60) end)
      assert.is_truthy(msg:find("attempt to modify a world while it is stepping", 1, true), msg)
      trier:remove()
    end
    assert.are.equal(1, #f.members)
    assert.are.equal(2, f.spacing)
  end)
end)

describe("steer.formation after an error", function()
  it("undoes what a failing Lua function left half done", function()
    local world = steer.world{}
    local hero = world:spawn{}
    local a, b = world:spawn{}, world:spawn{}
    local fails = function(_, n) if n > 1 then error("no room") end return 0, -2 end
    assert.has_error(function() steer.formation{ leader = hero, members = { a, b }, pattern = fails } end)
    -- the members were let go with the half-made formation
    local f = steer.formation{ leader = hero, members = { a }, pattern = fails }
    assert.has_error(function() f:add(b) end)
    assert.is_nil(f:slot_of(b))
    assert.are.equal(1, #f.members)
    assert.has_error(function() f.pattern = function() error("bad") end end)
    assert.are.equal(fails, f.pattern)
    f.pattern = "v"
    f:add(b)
    assert.are.equal(2, f.slot_count)
  end)
end)
