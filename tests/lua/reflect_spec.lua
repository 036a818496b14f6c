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

-- The reflected fields among the options (the binding's own have no rule to try).
local function reflected(list)
  local out = {}
  for _, f in ipairs(list) do
    if f.reflected then out[#out + 1] = f end
  end
  return out
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
        assert.are.equal("boolean", type(f.live))
        assert.are.equal("boolean", type(f.reflected))
        if f.reflected then
          assert.is_truthy(({ number = 1, boolean = 1, string = 1, integer = 1 })[f.type], f.name)
          if f.type == "string" then assert.is_true(#f.choices >= 2, f.name) end
        else
          assert.are.equal("string", type(f.type), f.name) -- every binding option has a type
        end
      end
    end
    local names = {}
    for _, f in ipairs(steer.options("world")) do names[f.name] = f end
    assert.are.equal(0.001, round(names.cell_size.min))
    assert.are.equal(1e9, names.cell_size.max)
    assert.are.equal(64, names.workers.max)
    assert.is_true(names.integrator.live)
    assert.is_false(names.seed.live)
    assert.are.equal("bad argument #1 to 'options' (must be one of 'world', 'agent', 'formation', got 'arrive')",
                     err(function() steer.options("arrive") end))
    assert.are.equal("bad argument #1 to 'options' (must be one of 'world', 'agent', 'formation', got nil)",
                     err(function() steer.options() end))
  end)

  it("sets every world option from Lua, and the live ones as properties", function()
    for _, f in ipairs(reflected(steer.options("world"))) do
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
    for _, f in ipairs(reflected(steer.options("agent"))) do
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
    for _, f in ipairs(reflected(steer.options("formation"))) do
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

  it("lists the binding's own options too, each one its constructor takes", function()
    local by_name = {}
    for _, f in ipairs(steer.options("world")) do by_name[f.name] = f end
    assert.are.same({ name = "nav_bounds", type = "table", live = true, reflected = false }, by_name.nav_bounds)
    local formation = {}
    for _, f in ipairs(steer.options("formation")) do formation[f.name] = f end
    assert.are.same({ "line", "column", "v", "circle", "defensive_circle", "grid" }, formation.pattern.choices)
    assert.is_false(formation.anchor.live)
    -- every option listed is one its constructor reads: a wrong value is
    -- refused by that field's name, never as an unknown field
    local w = steer.world{}
    local constructors = {
      world = function(o) return steer.world(o) end,
      agent = function(o) return w:spawn(o) end,
      formation = function(o)
        if o.world == nil then o.world = w end
        return steer.formation(o)
      end,
    }
    for kind, make in pairs(constructors) do
      for _, f in ipairs(steer.options(kind)) do
        if not f.reflected then
          local bad = f.type == "boolean" and 5 or true
          local anchor_field = f.name:match("^anchor%.(.+)$")
          local options = anchor_field and { anchor = { [anchor_field] = bad } } or { [f.name] = bad }
          local ok, msg = pcall(make, options)
          assert.is_false(ok, f.name)
          assert.is_truthy(msg:find("(field '" .. f.name .. "' ", 1, true), msg)
        end
      end
    end
    -- live: a property of the object too; the others are not (or are methods)
    local objects = { world = w, agent = w:spawn{}, formation = steer.formation{ world = w } }
    for kind, object in pairs(objects) do
      for _, f in ipairs(steer.options(kind)) do
        if not f.reflected and not f.name:find(".", 1, true) then
          local ok, value = pcall(function() return object[f.name] end)
          if f.live then
            assert.is_true(ok, kind .. "." .. f.name)
          else
            assert.is_true(not ok or type(value) == "function", kind .. "." .. f.name)
          end
        end
      end
    end
    w:close()
  end)

  -- docs/lua-api.md's option tables of steer.world{}, world:spawn{} and
  -- steer.formation{} against steer.options, both ways
  it("names the options docs/lua-api.md documents, and no others", function()
    local root = debug.getinfo(1, "S").source:match("^@(.*)/tests/lua/[^/]*$") or "."
    local file = assert(io.open(root .. "/docs/lua-api.md"))
    local text = file:read("*a") -- "*a": Lua 5.1 and LuaJIT too
    file:close()
    -- the first column of the table that starts after the marker
    local function documented(marker)
      local at = assert(text:find(marker, 1, true), marker)
      local names, started = {}, false
      for line in text:sub(at):gmatch("([^\n]*)\n") do
        if line:match("^|") then
          started = true
          local first = line:match("^|([^|]*)|")
          for name in first:gmatch("`([%w_]+)`") do names[name] = true end
        elseif started then
          break
        end
      end
      return names
    end
    local tables = {
      world = documented("## Worlds: `steer.world{...}`"),
      agent = documented("**`world:spawn{...}` -> agent.**"),
      formation = documented("| option | meaning (default) |"),
    }
    -- the anchor's own fields ("anchor.x"), named in the anchor row's text
    local anchor_row = assert(text:match("\n| `anchor` |([^\n]*)"))
    local anchor_docs, anchor_listed = {}, {}
    for name in anchor_row:gmatch("`([%w_]+)`") do anchor_docs[name] = true end
    for _, f in ipairs(steer.options("formation")) do
      local sub = f.name:match("^anchor%.(.+)$")
      if sub then
        anchor_listed[sub] = true
        assert.is_true(anchor_docs[sub] == true, "'" .. f.name .. "' is not in docs/lua-api.md's anchor row")
      end
    end
    for name in pairs(anchor_docs) do
      assert.is_true(anchor_listed[name] == true,
                     "anchor field '" .. name .. "' of docs/lua-api.md is not in steer.options")
    end
    for kind, docs in pairs(tables) do
      local listed = {}
      for _, f in ipairs(steer.options(kind)) do
        local top = f.name:match("^([%w_]+)")
        listed[top] = true
        assert.is_true(docs[top] == true, kind .. " option '" .. f.name .. "' is not in docs/lua-api.md")
      end
      for name in pairs(docs) do
        assert.is_true(listed[name] == true,
                       kind .. " option '" .. name .. "' of docs/lua-api.md is not in steer.options")
      end
    end
  end)
end)
