-- annotations_check.lua <annotations> <lua-api.md>: the language-server
-- annotations (bindings/library/steer.lua, generated) describe exactly the
-- module that `require "steer"` loads, and docs/lua-api.md names the same
-- things. Run by steer-lua and by lua5.4 with the build's steer.so.
--
-- The module side is read from the module itself: its fields, the class
-- metatables in the registry (named "steer.X"), and each class's __index
-- closure, whose upvalues are its method table and its property set
-- (bindings/laux.h). Annotation classes named steer.*Options or steer.*Base
-- describe tables and shared members and have no metatable.
local steer = require "steer"

local annotations_path, docs_path = arg[1], arg[2]
assert(annotations_path and docs_path, "usage: annotations_check.lua <steer.lua> <lua-api.md>")

local failures = 0
local function fail(fmt, ...)
  failures = failures + 1
  io.stderr:write(string.format(fmt, ...), "\n")
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

-- Compare two name sets both ways.
local function compare(what, module_names, annotated_names)
  for _, name in ipairs(sorted_keys(module_names)) do
    if not annotated_names[name] then fail("%s: '%s' is in the module but not in the annotations", what, name) end
  end
  for _, name in ipairs(sorted_keys(annotated_names)) do
    if not module_names[name] then fail("%s: '%s' is annotated but not in the module", what, name) end
  end
end

---------------------------------------------------------------- annotations

local function parse_annotations(path)
  local ann = { classes = {}, module = {}, options = {} }
  local current, locals, pending_options = nil, {}, nil
  for line in io.lines(path) do
    local cname, base = line:match("^%-%-%-@class%s+([%w_.]+)%s*:?%s*([%w_.]*)")
    if cname then
      current = { name = cname, base = base ~= "" and base or nil, fields = {}, methods = {} }
      ann.classes[cname] = current
    end
    local field = line:match("^%-%-%-@field%s+([%a_][%w_]*)")
    if field and current then current.fields[field] = true end
    local opts = line:match("^%-%-%-@param%s+[%w_]+%??%s+(steer%.[%w_]+Options)")
    if opts then pending_options = opts end
    local lname = line:match("^local%s+([%w_]+)%s*=%s*{}")
    if lname and current then locals[lname] = current end
    local fn = line:match("^function%s+steer%.([%w_]+)%(")
    local recv, method = line:match("^function%s+([%w_]+)[:.]([%w_]+)%(")
    if fn then
      ann.module[fn] = "function"
      if pending_options then ann.options[#ann.options + 1] = { fn = "steer." .. fn, class = pending_options } end
    elseif recv then
      local cls = locals[recv]
      if not cls then
        fail("annotations: method %s:%s of no class", recv, method)
      else
        cls.methods[method] = true
        if pending_options then
          ann.options[#ann.options + 1] = { fn = cls.name .. ":" .. method, class = pending_options }
        end
      end
    end
    if fn or recv then pending_options = nil end
    local value = line:match("^steer%.([%w_]+)%s*=")
    if value then ann.module[value] = "value" end
  end
  return ann
end

local ann = parse_annotations(annotations_path)

-- A class's annotated fields and methods, its base's included.
local function annotated_members(cls)
  local fields, methods = {}, {}
  while cls do
    for k in pairs(cls.fields) do fields[k] = true end
    for k in pairs(cls.methods) do methods[k] = true end
    cls = cls.base and ann.classes[cls.base]
  end
  return fields, methods
end

-- The file's structure: Lua that compiles, `---@meta steer` first, the
-- module returned last, and every steer.* type it names declared in it.
do
  local text = assert(io.open(annotations_path)):read("a")
  local chunk, err = load(text, "@" .. annotations_path, "t")
  if not chunk then fail("structure: does not compile: %s", err) end
  if not text:match("^%-%-%-@meta steer\n") then fail("structure: the first line is not '---@meta steer'") end
  if not text:match("\nreturn steer%s*$") then fail("structure: the last line is not 'return steer'") end
  local declared = {}
  for name in text:gmatch("\n%-%-%-@class%s+([%w_.]+)") do
    if declared[name] then fail("structure: class %s declared twice", name) end
    declared[name] = true
  end
  for name in text:gmatch("\n%-%-%-@alias%s+([%w_.]+)") do declared[name] = true end
  for line in text:gmatch("[^\n]+") do
    if line:match("^%-%-%-@field") or line:match("^%-%-%-@param") or line:match("^%-%-%-@return")
      or line:match("^%-%-%-@alias") or line:match("^%-%-%-@class") then
      for name in line:gmatch("steer%.[%a_][%w_.]*") do
        name = name:gsub("%.$", "")
        if not declared[name] and not line:match("`" .. name:gsub("%.", "%%.")) then
          fail("structure: %s names the undeclared type %s", line, name)
        end
      end
    end
  end
end

---------------------------------------------------------------- the module

local module_fields = {}
for k, v in pairs(steer) do module_fields[k] = type(v) == "function" and "function" or "value" end
compare("module field", module_fields, ann.module)
for name, kind in pairs(module_fields) do
  if ann.module[name] and ann.module[name] ~= kind then
    fail("module field: steer.%s is a %s in the module but a %s in the annotations", name, kind, ann.module[name])
  end
end

local classes = {}
for name, mt in pairs(debug.getregistry()) do
  if type(name) == "string" and name:match("^steer%.") and type(mt) == "table" and rawget(mt, "__name") == name then
    classes[name] = mt
  end
end
local annotated_classes = {}
for name in pairs(ann.classes) do
  if name:match("^steer%.") and not name:match("Options$") and not name:match("Base$") then
    annotated_classes[name] = true
  end
end
compare("class", classes, annotated_classes)

local checked_members = 0
for _, name in ipairs(sorted_keys(classes)) do
  local index = rawget(classes[name], "__index")
  local _, methods = debug.getupvalue(index, 1)
  local _, properties = debug.getupvalue(index, 2)
  if type(methods) ~= "table" or type(properties) ~= "table" then
    fail("class %s: __index has no method table and property set as upvalues 1 and 2", name)
  elseif ann.classes[name] then
    local fields, annotated_methods = annotated_members(ann.classes[name])
    compare(name .. " method", methods, annotated_methods)
    compare(name .. " property", properties, fields)
    for _ in pairs(methods) do checked_members = checked_members + 1 end
    for _ in pairs(properties) do checked_members = checked_members + 1 end
  end
end

-- Every annotated option is accepted by its function: a value of the wrong
-- type draws a complaint about the field, never "unknown field". (A made-up
-- name must draw "unknown field", or the probe proves nothing.)
local world = steer.world {}
local path_points = { { 0, 0 }, { 1, 0 } }
local callers = {
  ["steer.world"] = function(o) return steer.world(o) end,
  ["steer.path"] = function(o) return steer.path(o) end,
  ["steer.World:spawn"] = function(o) return world:spawn(o) end,
  ["steer.World:draw"] = function(o) return world:draw(o) end,
  ["steer.World:path"] = function(o) return world:path(o) end,
  ["steer.World:find_path"] = function(o) return world:find_path(o) end,
  ["steer.World:flow_field"] = function(o) return world:flow_field(o) end,
  ["steer.World:move_group"] = function(o) return world:move_group(o) end,
  ["steer.World:add_polyline"] = function(o, class)
    if class == "steer.ShapeOptions" then return world:add_polyline(path_points, o) end
    return world:add_polyline(o)
  end,
  ["steer.World:add_polygon"] = function(o) return world:add_polygon({ { 0, 0 }, { 1, 0 }, { 0, 1 } }, o) end,
  ["steer.World:add_wall"] = function(o) return world:add_wall(0, 0, 1, 0, o) end,
  ["steer.World:add_circle"] = function(o) return world:add_circle(0, 0, 1, o) end,
  ["steer.World:add_box"] = function(o) return world:add_box(0, 0, 1, 1, o) end,
  ["steer.World:raycast"] = function(o) return world:raycast(0, 0, 1, 0, 1, o) end,
  ["steer.World:agents"] = function(o) return world:agents(o) end,
  ["steer.World:find"] = function(o) return world:find(o) end,
  ["steer.World:query"] = function(o) return world:query(0, 0, 1, o) end,
  ["steer.world_from_snapshot"] = function(o) return steer.world_from_snapshot(world:snapshot(), nil, o) end,
}
local base_tables = { ["steer.PathOptions"] = path_points }
local probe = coroutine.create(function() end) -- no option accepts a thread
local probed = 0
for _, entry in ipairs(ann.options) do
  local call = callers[entry.fn]
  if not call and entry.fn:match("^steer%.[%w_]+$") then
    local f = steer[entry.fn:sub(7)]
    call = function(o) return f(o) end
  end
  if not call then
    fail("options: no way to call %s in this test (add it to callers)", entry.fn)
  else
    local function try(key)
      local o = {}
      for i, v in ipairs(base_tables[entry.class] or {}) do o[i] = v end
      o[key] = probe
      local ok, err = pcall(call, o, entry.class)
      return ok, tostring(err)
    end
    local ok, err = try("zz_not_an_option")
    if ok or not err:find("unknown field", 1, true) then
      fail("options: %s accepts a made-up option (%s)", entry.fn, err)
    end
    for _, field in ipairs(sorted_keys(ann.classes[entry.class].fields)) do
      ok, err = try(field)
      if not ok and err:find("unknown field", 1, true) then
        fail("options: %s is annotated as an option of %s but refused: %s", field, entry.fn, err)
      end
      probed = probed + 1
    end
  end
end
world:close()

---------------------------------------------------------------- the reference

local docs = assert(io.open(docs_path)):read("a")
local function documented(name) return docs:find("%f[%w_]" .. name:gsub("%.", "%%.") .. "%f[^%w_]") ~= nil end

for name in pairs(ann.module) do
  -- behaviour constructors are listed by name in the reference's table
  if not documented("steer." .. name) and not docs:find("`" .. name .. "`", 1, true) then
    fail("docs: steer.%s is not in %s", name, docs_path)
  end
end
for name in pairs(annotated_classes) do
  if not documented(name) then fail("docs: %s is not in %s", name, docs_path) end
end
for _, cls in pairs(ann.classes) do
  if cls.name:match("^steer%.") then
    for m in pairs(cls.methods) do
      if not docs:find(":" .. m .. "[%({]") then fail("docs: method %s:%s is not in %s", cls.name, m, docs_path) end
    end
    for f in pairs(cls.fields) do
      if not documented(f) then fail("docs: %s.%s is not in %s", cls.name, f, docs_path) end
    end
  end
end
-- and the other way: what the reference calls steer.x and x:method()
local all_methods = {}
for _, cls in pairs(ann.classes) do
  for m in pairs(cls.methods) do all_methods[m] = true end
end
local files = { so = true, lua = true } -- file names: `steer.so`, `library/steer.lua`
for name in docs:gmatch("%f[%w_]steer%.([%a_][%w_]*)") do
  if not files[name] and not ann.module[name] and not ann.classes["steer." .. name] then
    fail("docs: steer.%s is in %s but not in the annotations", name, docs_path)
  end
end
for recv, m in docs:gmatch("%f[%w_]([%a_][%w_]*):([%a_][%w_]*)[%({]") do
  if not all_methods[m] then fail("docs: %s:%s is in %s but not in the annotations", recv, m, docs_path) end
end
-- every name the reference sets in code (`name`) is a field, option, method,
-- function, parameter or result name of the annotations, a Lua global
-- (`tostring`), a metamethod (`__tostring`) or a name of the C API
-- (`steer_world_step`, `luaopen_steer`)
local annotated_words = { steer = true }
local annotations_text = assert(io.open(annotations_path)):read("a")
for pattern in pairs { ["@field%s+([%a_][%w_]*)"] = 1, ["@param%s+([%a_][%w_]*)"] = 1,
                       ["@return%s+[^%s]+%s+([%a_][%w_]*)"] = 1, ["\nfunction%s+[%w_]+[.:]([%w_]+)"] = 1 } do
  for name in annotations_text:gmatch(pattern) do annotated_words[name] = true end
end
local seen = {}
for name in docs:gmatch("`([%a_][%w_]*)`") do
  if not seen[name] and not annotated_words[name] and _G[name] == nil
    and not name:match("^__") and not name:match("^steer_") and not name:match("^luaopen_") then
    fail("docs: `%s` is in %s but names nothing in the annotations", name, docs_path)
  end
  seen[name] = true
end

print(string.format("annotations: %d module fields, %d classes, %d methods and properties, "
  .. "%d options probed; %d failures",
  #sorted_keys(module_fields), #sorted_keys(classes), checked_members, probed, failures))
os.exit(failures == 0 and 0 or 1)
