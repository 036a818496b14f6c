-- Script state that outlives a chunk: agent.data and world.data (plain
-- values), lookups by key, role and tag, world:formations() and
-- agent.formation (docs/lua-api.md, "Script state"; docs/embedding.md,
-- "State across reload and reset").
local steer = require "steer"
local support = require "support"
local err = support.err

local PLAIN = "must hold plain values only (nil, booleans, numbers, strings, tables of them): "

describe("agent.data and world.data", function()
  it("are tables made on first use, kept while the agent or world lives", function()
    local w = steer.world{}
    local a, b = w:spawn{ x = 1 }, w:spawn{ x = 2 }
    assert.are.same({}, a.data)
    a.data.hp = 5
    a.data.path = { 1, 2, { x = 3 } }
    assert.are.equal(5, a.data.hp)
    assert.are.equal(a.data, a.data) -- the same table every time
    assert.is_nil(b.data.hp)
    w.data.wave = 2
    assert.are.equal(2, w.data.wave)
    -- a whole table, checked when given
    a.data = { hp = 9, seen = { [1] = true, [2.5] = "x", [false] = 0 } }
    assert.are.equal(9, a.data.hp)
    w.data = { wave = 3 }
    assert.are.equal(3, w.data.wave)
    -- nil: an empty table at the next read
    a.data = nil
    assert.are.same({}, a.data)
    -- a proxy collected and made again finds the same data
    w:spawn{ x = 3 }.data.tag = "kept"
    collectgarbage()
    collectgarbage()
    local found
    for agent in w:agents() do if agent.data.tag then found = agent end end
    assert.are.equal(3, found.x)
  end)

  it("refuse what a snapshot could not save, naming where", function()
    local w = steer.world{}
    local a, b = w:spawn{}, w:spawn{}
    assert.are.equal("bad property 'data' of steer.Agent (" .. PLAIN .. "data.leader is a steer.Agent "
                     .. "(keep agent.key and find it with world:find{ key = k }))",
                     err(function() a.data = { leader = b } end))
    local t = { list = {} }
    t.list[2] = t
    assert.are.equal("bad property 'data' of steer.Agent (" .. PLAIN .. "data.list[2] contains itself (a cycle))",
                     err(function() a.data = t end))
    assert.are.equal("bad property 'data' of steer.World (" .. PLAIN .. "data.f is a function)",
                     err(function() w.data = { f = print } end))
    assert.are.equal("bad property 'data' of steer.World (" .. PLAIN .. "data.x is a table with a metatable)",
                     err(function() w.data = { x = setmetatable({}, {}) } end))
    assert.are.equal("bad property 'data' of steer.Agent (" .. PLAIN .. "data has a key that is a table)",
                     err(function() a.data = { [{}] = 1 } end))
    assert.are.equal("bad property 'data' of steer.Agent (must be a table or nil, got 5)",
                     err(function() a.data = 5 end))
    local deep = {}
    local cur = deep
    for _ = 1, 70 do cur.next = {}; cur = cur.next end
    assert.is_truthy(err(function() w.data = deep end):find("nests tables too deep (64 levels)", 1, true))
    -- shared (not cyclic) tables are plain
    local shared = { 1 }
    a.data = { one = shared, two = shared }
    assert.are.equal(a.data.one, a.data.two)
    -- refused values changed nothing
    assert.are.same({ 1 }, a.data.one)
  end)

  it("go with the agent and with the world", function()
    local w = steer.world{}
    local a = w:spawn{}
    a.data.hp = 1
    a:remove()
    assert.are.equal("attempt to use a removed agent", err(function() return a.data end))
    local fresh = w:spawn{} -- may take the removed agent's slot
    assert.is_nil(fresh.data.hp)
    w:close()
    assert.are.equal("attempt to use a closed world", err(function() return w.data end))
  end)
end)

describe("lookups", function()
  local function world3()
    local w = steer.world{}
    local a = w:spawn{ x = 1, role = "guard", tag = "red" }
    local b = w:spawn{ x = 2, role = "guard", key = 7 }
    local c = w:spawn{ x = 3, role = "scout", tag = "red" }
    return w, a, b, c
  end

  it("world:find{ key, role, tag } gives the match with the lowest key", function()
    local w, a, b, c = world3()
    assert.are.equal(b, w:find{ key = 7 })
    assert.are.equal(a, w:find{ role = "guard" })
    assert.are.equal(c, w:find{ role = "scout", tag = "red" })
    assert.are.equal(a, w:find{ tag = "red" })
    assert.is_nil(w:find{ key = 99 })
    assert.is_nil(w:find{ role = "guard", key = 3 })
    assert.are.equal(a, w:find{})
    c.role = "guard"
    assert.are.equal(c, w:find{ role = "guard", tag = "red", key = c.key })
    assert.are.equal("bad argument #1 to 'find' (unknown field 'name')", err(function() w:find{ name = "x" } end))
    assert.are.equal("bad argument #1 to 'find' (field 'key' must be a positive integer, got 0)",
                     err(function() w:find{ key = 0 } end))
    assert.are.equal("bad argument #1 to 'find' (field 'role' must be a string, got 1)",
                     err(function() w:find{ role = 1 } end))
  end)

  it("world:agents{ role, tag, key } iterates the matches", function()
    local w, a, b, c = world3()
    local function list(filter)
      local out = {}
      for agent in w:agents(filter) do out[#out + 1] = agent.x end
      table.sort(out)
      return out
    end
    assert.are.same({ 1, 2 }, list{ role = "guard" })
    assert.are.same({ 1, 3 }, list{ tag = "red" })
    assert.are.same({ 2 }, list{ key = 7 })
    assert.are.same({}, list{ role = "medic" })
    assert.are.same({ 1, 2, 3 }, list())
    -- removing the current agent skips nothing
    for agent in w:agents{ role = "guard" } do agent:remove() end
    assert.are.same({ 3 }, list())
    assert.are.equal(c, w:find{ role = "scout" })
    assert.is_false(a:alive() or b:alive())
  end)
end)

describe("world:formations() and agent.formation", function()
  it("find a formation again, with its Lua values, once every handle was dropped", function()
    local w = steer.world{}
    local leader = w:spawn{ x = 0, y = 0 }
    local m1, m2 = w:spawn{ x = -1 }, w:spawn{ x = -2 }
    local outsider = w:spawn{ x = 5 }
    do
      local f = steer.formation{ leader = leader, members = { m1 },
                                 pattern = function(i) return -3 * i, 0 end }
      assert.are.equal(f, m1.formation)
    end
    collectgarbage()
    collectgarbage()
    local list = w:formations()
    assert.are.equal(1, #list)
    local f = list[1]
    assert.are.equal(f, m1.formation)
    assert.is_nil(leader.formation) -- it leads, it is no member
    assert.is_nil(outsider.formation)
    -- the pattern function is still there: a new member gets its slot
    f:add(m2)
    local x = f:slot_target(2)
    assert.is_near(-6, x, 1e-5)
    -- joining another formation names the way out
    local msg = err(function() steer.formation{ leader = outsider, members = { m2 } } end)
    assert.is_truthy(msg:find("is already a member of another formation (agent.formation: remove it there first",
                              1, true), msg)
    assert.are.equal(1, #w:formations()) -- the failed one left nothing behind
    m2.formation:remove(m2)
    local g = steer.formation{ leader = outsider, members = { m2 } }
    assert.are.equal(g, m2.formation)
    list = w:formations()
    assert.are.equal(2, #list)
    assert.are.equal(f, list[1])
    assert.are.equal(g, list[2])
    f:destroy()
    assert.are.same({ g }, w:formations())
    assert.is_nil(m1.formation)
    assert.are.equal("property 'formation' of steer.Agent is read-only", err(function() m1.formation = g end))
  end)
end)
