-- The reflected world, agent and formation definitions (steer.options):
-- every field listed is an option of its constructor, set from Lua, and the
-- live ones are properties of the object that read back what was set.
local steer = require "steer"
local support = require "support"
local err = support.err

-- A value the field accepts, other than its default.
local function good_value(f)
  if f.type == "boolean" then return true end
  if f.type == "string" then return f.choices[#f.choices] end
  if f.type == "integer" then
    if f.max then return f.min + 1 end
    return 7
  end
  if f.max and f.min > 0 then return f.min * 2 end
  return 2.5
end

-- A value the field refuses (nil: every number is fine).
local function bad_value(f)
  if f.type == "boolean" then return "yes" end
  if f.type == "string" then return "no such choice" end
  if f.type == "integer" then return 2.5 end
  if f.rule == "positive" or f.rule == "non-negative" then return -1 end
  return 1e300
end

local function round(x) return math.floor(x * 1000 + 0.5) / 1000 end

-- The value read back is the value set (numbers to three decimals).
local function same(v, got, name)
  if type(v) == "number" then assert.are.equal(round(v), round(got), name) else assert.are.equal(v, got, name) end
end

describe("steer.options", function()
  it("lists the fields of each definition with their rules", function()
    for _, kind in ipairs{ "world", "agent", "formation" } do
      local fields = steer.options(kind)
      assert.is_true(#fields > 4, kind)
      for _, f in ipairs(fields) do
        assert.are.equal("string", type(f.name))
        assert.is_truthy(({ number = 1, boolean = 1, string = 1, integer = 1 })[f.type], f.name)
        assert.are.equal("boolean", type(f.live))
        if f.type == "string" then assert.is_true(#f.choices >= 2, f.name) end
      end
    end
    local names = {}
    for _, f in ipairs(steer.options("world")) do names[f.name] = f end
    assert.are.equal(0.001, round(names.cell_size.min))
    assert.are.equal(1e9, names.cell_size.max)
    assert.are.equal(64, names.workers.max)
    assert.is_true(names.integrator.live)
    assert.is_false(names.seed.live)
    assert.has_error(function() steer.options("planet") end)
  end)

  it("sets every world option from Lua, and the live ones as properties", function()
    for _, f in ipairs(steer.options("world")) do
      local v = good_value(f)
      if f.name == "workers" then v = 2 end
      local w = steer.world{ [f.name] = v }
      if f.live then
        same(v, w[f.name], f.name)
        w[f.name] = v
      elseif f.name == "workers" then
        assert.are.equal(2, w.workers)
      end
      local bad = bad_value(f)
      local ok, msg = pcall(steer.world, { [f.name] = bad })
      assert.is_false(ok, f.name)
      assert.is_truthy(msg:find("(field '" .. f.name .. "' ", 1, true), msg)
      w:close()
    end
    assert.are.equal("bad argument #1 to 'world' (unknown field 'cell_sise')",
                     err(function() steer.world{ cell_sise = 1 } end))
  end)

  it("sets every agent option from Lua, and reads each back as a property", function()
    local w = steer.world{}
    for _, f in ipairs(steer.options("agent")) do
      local v = good_value(f)
      local a = w:spawn{ [f.name] = v }
      same(v, a[f.name], f.name)
      if f.live then
        a[f.name] = v
        local ok, msg = pcall(function() a[f.name] = bad_value(f) end)
        assert.is_false(ok, f.name)
        assert.is_truthy(msg:find("bad property '" .. f.name .. "' of steer.Agent (", 1, true), msg)
      else
        assert.are.equal("property '" .. f.name .. "' of steer.Agent is read-only",
                         err(function() a[f.name] = v end))
      end
      local ok, msg = pcall(w.spawn, w, { [f.name] = bad_value(f) })
      assert.is_false(ok, f.name)
      assert.is_truthy(msg:find("(field '" .. f.name .. "' ", 1, true), msg)
    end
    w:close()
  end)

  it("sets every formation option from Lua, the anchor's in its table", function()
    local w = steer.world{}
    for _, f in ipairs(steer.options("formation")) do
      local v = good_value(f)
      local options = { world = w }
      local anchor_field = f.name:match("^anchor%.(.+)$")
      if anchor_field then options.anchor = { [anchor_field] = v } else options[f.name] = v end
      local form = steer.formation(options)
      if f.live then
        same(v, form[f.name], f.name)
        form[f.name] = v
      end
      if anchor_field then options.anchor = { [anchor_field] = bad_value(f) } else options[f.name] = bad_value(f) end
      local ok, msg = pcall(steer.formation, options)
      assert.is_false(ok, f.name)
      assert.is_truthy(msg:find("(field '" .. f.name .. "' ", 1, true), msg)
      form:destroy()
    end
    w:close()
  end)
end)
