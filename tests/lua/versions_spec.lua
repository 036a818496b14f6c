-- The Lua versions steer.so runs under (Lua 5.1, LuaJIT 2.1, 5.2, 5.3, 5.4):
-- one spec per row of docs/lua-api.md's "Lua versions" table, and the same
-- world hash after the same script under every one of them.
local steer = require "steer"
local support = require "support"

local root = debug.getinfo(1, "S").source:match("^@(.*)/tests/lua/[^/]*$") or "."
local scene = assert(loadfile(root .. "/demos/love/scene.lua"))()
local think = assert(loadfile(root .. "/demos/love/think.lua"))()

-- world:hash("hex") after 600 frames of demos/love/scene.lua, measured
-- under lua5.4; the LÖVE test (demos/love) checks the same digits
local SCENE_HASH = "9bb13d59b482520e"

describe("steer under " .. support.lua.name, function()
  it("gives the same world hash for the same script as every other Lua", function()
    local hash, s = scene.run(steer, think, 600)
    assert.are.equal(80 + 1, s.world:count())
    assert.are.equal(SCENE_HASH, hash)
  end)

  it("integers: a subtype from 5.3 on, doubles before", function()
    local w = steer.world{}
    w:spawn{}
    if support.lua.integers then
      assert.are.equal("integer", math.type(w:count()))
      assert.are.equal("integer", math.type(w:hash()))
      assert.are.equal("steer.World{agents=1, steps=0}", tostring(w))
    else
      -- an integral double; the 64-bit hash is rounded to 53 bits: use hash("hex")
      assert.are.equal(1, w:count())
      assert.are.equal(math.floor(w:hash()), w:hash())
      assert.are.equal("steer.World{agents=1, steps=0}", tostring(w))
    end
    assert.are.equal(16, #w:hash("hex"))
    assert.are.equal("bad argument #1 to 'hash' (must be one of 'integer', 'hex', got 'dec')",
                     support.err(function() return w:hash("dec") end))
  end)

  it("__gc: proxies are userdata, collected in every version (tables get no __gc before 5.2)", function()
    local a
    do
      local w = steer.world{}
      a = w:spawn{}
    end
    collectgarbage(); collectgarbage()
    assert.is_false(a:alive())
    assert.are.equal("userdata", type(a))
  end)
end)
