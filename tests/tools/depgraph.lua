-- depgraph.lua: the boundaries of issue 19, checked on the built objects.
--
--   lua depgraph.lua cycles LABEL OBJ...
--       an edge A -> B when object A uses a symbol object B defines; fails
--       (exit 1) when the graph has a cycle of two or more files and prints
--       each strongly connected component with the symbols on its edges.
--   lua depgraph.lua apart PATTERN LABEL OBJ...
--       fails when an object whose name matches PATTERN uses a symbol defined
--       by another object matching PATTERN (e.g. "wrap_": no wrap file uses
--       another's symbols).
--   lua depgraph.lua exports SHARED_LIB
--       fails when the shared library's dynamic table defines a symbol that is
--       not a public "steer_" one (internal "steer__" names count as leaks).
--   lua depgraph.lua prefixes PREFIXES STATIC_LIB...
--       fails when a static library defines a global symbol whose name starts
--       with none of PREFIXES (a comma-separated list).
--   lua depgraph.lua forbid PATTERN LABEL OBJ...
--       fails when an object uses (leaves undefined) a symbol matching the
--       Lua PATTERN (e.g. "^steer_lua__": the host uses only the module's
--       public functions).
--   lua depgraph.lua lines MAX FILE...
--       fails when a source file has more than MAX lines.
--   lua depgraph.lua count WORD MAX FILE...
--       fails when WORD occurs more than MAX times in the files together.
--   lua depgraph.lua edges LABEL OBJ...
--       prints the graph (one "A -> B: sym, sym" line per edge), for reading.
-- Object names are shown without directories and the ".c.o" suffix.

local function shell_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function nm(args, path)
  local p = assert(io.popen("nm " .. args .. " " .. shell_quote(path) .. " 2>/dev/null"))
  local out = p:read("a")
  p:close()
  return out
end

local function short(path)
  return (path:match("[^/]+$") or path):gsub("%.c%.o$", ""):gsub("%.cpp%.o$", ""):gsub("%.o$", "")
end

-- defined globals and undefined references of each object
local function read_objects(paths)
  local objs, definer = {}, {}
  for _, path in ipairs(paths) do
    local o = { name = short(path), defs = {}, refs = {} }
    for line in nm("", path):gmatch("[^\n]+") do
      local kind, sym = line:match("^%s*[%x]*%s+(%a)%s+(%S+)$")
      if kind then
        if kind == "U" then o.refs[#o.refs + 1] = sym
        elseif kind:match("%u") then o.defs[sym] = true; definer[sym] = o.name end
      end
    end
    objs[#objs + 1] = o
  end
  return objs, definer
end

local function build_edges(objs, definer)
  local edges = {} -- edges[a][b] = { sym, ... }
  for _, o in ipairs(objs) do
    edges[o.name] = edges[o.name] or {}
    for _, sym in ipairs(o.refs) do
      local d = definer[sym]
      if d and d ~= o.name then
        local t = edges[o.name][d] or {}
        edges[o.name][d] = t
        t[#t + 1] = sym
      end
    end
  end
  return edges
end

local function sorted_keys(t)
  local k = {}
  for key in pairs(t) do k[#k + 1] = key end
  table.sort(k)
  return k
end

-- Tarjan's strongly connected components
local function components(edges)
  local index, low, on, stack, out, n = {}, {}, {}, {}, {}, 0
  local function visit(v)
    n = n + 1; index[v] = n; low[v] = n
    stack[#stack + 1] = v; on[v] = true
    for _, w in ipairs(sorted_keys(edges[v] or {})) do
      if not index[w] then visit(w); low[v] = math.min(low[v], low[w])
      elseif on[w] then low[v] = math.min(low[v], index[w]) end
    end
    if low[v] == index[v] then
      local c = {}
      repeat local w = table.remove(stack); on[w] = nil; c[#c + 1] = w until w == v
      table.sort(c)
      out[#out + 1] = c
    end
  end
  for _, v in ipairs(sorted_keys(edges)) do if not index[v] then visit(v) end end
  return out
end

local function edge_line(edges, a, b)
  local syms = edges[a][b]
  table.sort(syms)
  local shown = {}
  for i = 1, math.min(#syms, 6) do shown[i] = syms[i] end
  return string.format("  %s -> %s: %s%s", a, b, table.concat(shown, ", "), #syms > 6 and ", ..." or "")
end

local cmd = arg[1]
if cmd == "cycles" or cmd == "edges" then
  local label = arg[2]
  local paths = table.move(arg, 3, #arg, 1, {})
  local edges = build_edges(read_objects(paths))
  if cmd == "edges" then
    for _, a in ipairs(sorted_keys(edges)) do
      for _, b in ipairs(sorted_keys(edges[a])) do print(edge_line(edges, a, b)) end
    end
    os.exit(0)
  end
  local bad = 0
  for _, c in ipairs(components(edges)) do
    if #c > 1 then
      bad = bad + 1
      print(string.format("%s: a cycle through %d files: %s", label, #c, table.concat(c, " ")))
      local inside = {}
      for _, v in ipairs(c) do inside[v] = true end
      for _, a in ipairs(c) do
        for _, b in ipairs(sorted_keys(edges[a])) do
          if inside[b] then print(edge_line(edges, a, b)) end
        end
      end
    end
  end
  print(string.format("%s: %d files, %d cycles", label, #paths, bad))
  os.exit(bad == 0 and 0 or 1)
elseif cmd == "apart" then
  local pattern, label = arg[2], arg[3]
  local paths = table.move(arg, 4, #arg, 1, {})
  local edges = build_edges(read_objects(paths))
  local bad = 0
  for _, a in ipairs(sorted_keys(edges)) do
    for _, b in ipairs(sorted_keys(edges[a])) do
      if a:find(pattern) and b:find(pattern) then
        bad = bad + 1
        print(label .. ": " .. edge_line(edges, a, b):gsub("^%s+", ""))
      end
    end
  end
  print(string.format("%s: %d uses between files matching '%s'", label, bad, pattern))
  os.exit(bad == 0 and 0 or 1)
elseif cmd == "exports" then
  local bad, n = 0, 0
  for line in nm("-D --defined-only", arg[2]):gmatch("[^\n]+") do
    local kind, sym = line:match("^%s*[%x]*%s+(%a)%s+(%S+)$")
    if kind and kind:match("[TDBRV]") then
      n = n + 1
      if not sym:match("^steer_%w") then bad = bad + 1; print("exported, not public: " .. sym) end
    end
  end
  print(string.format("%s: %d exported symbols, %d not public", short(arg[2]), n, bad))
  os.exit(bad == 0 and 0 or 1)
elseif cmd == "prefixes" then
  local prefixes = {}
  for p in arg[2]:gmatch("[^,]+") do prefixes[#prefixes + 1] = p end
  local bad, n = 0, 0
  for i = 3, #arg do
    for line in nm("--defined-only -g", arg[i]):gmatch("[^\n]+") do
      local kind, sym = line:match("^%s*[%x]*%s+(%a)%s+(%S+)$")
      if kind and kind:match("[TDBRVW]") then
        n = n + 1
        local ok = false
        for _, p in ipairs(prefixes) do if sym:sub(1, #p) == p then ok = true end end
        if not ok then bad = bad + 1; print(short(arg[i]) .. ": global without the prefix: " .. sym) end
      end
    end
  end
  print(string.format("%d global symbols, %d without a prefix (%s)", n, bad, arg[2]))
  os.exit(bad == 0 and 0 or 1)
elseif cmd == "forbid" then
  local pattern, label = arg[2], arg[3]
  local objs = read_objects(table.move(arg, 4, #arg, 1, {}))
  local bad = 0
  for _, o in ipairs(objs) do
    for _, sym in ipairs(o.refs) do
      if sym:find(pattern) then bad = bad + 1; print(label .. ": " .. o.name .. " uses " .. sym) end
    end
  end
  print(string.format("%s: %d uses of symbols matching '%s'", label, bad, pattern))
  os.exit(bad == 0 and 0 or 1)
elseif cmd == "lines" then
  local max, bad = tonumber(arg[2]), 0
  for i = 3, #arg do
    local n = 0
    for _ in io.lines(arg[i]) do n = n + 1 end
    if n > max then bad = bad + 1; print(string.format("%s: %d lines (at most %d)", arg[i], n, max)) end
  end
  print(string.format("%d files, %d over %d lines", #arg - 2, bad, max))
  os.exit(bad == 0 and 0 or 1)
elseif cmd == "count" then
  local word, max, total = arg[2], tonumber(arg[3]), 0
  for i = 4, #arg do
    local f = assert(io.open(arg[i]))
    local text = f:read("a")
    f:close()
    local n = select(2, text:gsub(word:gsub("%p", "%%%0"), ""))
    if n > 0 then print(string.format("%s: %d", arg[i], n)) end
    total = total + n
  end
  print(string.format("'%s' %d times in %d files (at most %d)", word, total, #arg - 3, max))
  os.exit(total <= max and 0 or 1)
else
  io.stderr:write("usage: lua depgraph.lua cycles|edges|apart|exports|prefixes|forbid|lines|count ...\n"
    .. "(see the file's opening comment)\n")
  os.exit(2)
end
