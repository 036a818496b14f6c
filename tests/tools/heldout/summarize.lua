-- Prints the held-out comparison as Markdown from measurement lines (engine=... pref=... layout=...).
-- Usage: lua summarize.lua RVO2_RESULTS STEER_RESULTS   (any Lua 5.1-5.4, or steer-lua)
local rows = {}   -- rows[layout][engine/pref] = list of results
local agents = {}
for _, file in ipairs(arg) do
  for line in assert(io.open(file)):lines() do
    if line:match("^engine=") then
      local r = {}
      for k, v in line:gmatch("([%w_]+)=(%S+)") do r[k] = tonumber(v) or v end
      local key = r.engine == "rvo2" and "rvo2" or r.pref
      rows[r.layout] = rows[r.layout] or {}
      rows[r.layout][key] = rows[r.layout][key] or {}
      table.insert(rows[r.layout][key], r)
      agents[r.layout] = r.agents
    end
  end
end

local function median(list)
  if #list == 0 then return nil end
  table.sort(list)
  local m = (#list + 1) / 2
  return (list[math.floor(m)] + list[math.ceil(m)]) / 2
end

local function stats(list)
  if not list then return nil end
  local homes, contacts, lasts, body, poly = {}, {}, {}, 0, 0
  for _, r in ipairs(list) do
    homes[#homes + 1] = r.home
    contacts[#contacts + 1] = r.contacts
    if r.last ~= "-" then lasts[#lasts + 1] = r.last end
    body = math.max(body, r.body_cm)
    poly = math.max(poly, r.poly_cm)
  end
  local worst = math.huge
  for _, h in ipairs(homes) do worst = math.min(worst, h) end
  return { worst = worst, median = median(homes), contacts = median(contacts), body = body, poly = poly,
           last = median(lasts), seeds = #list }
end

local function fmt(x)
  if x == nil then return "-" end
  if x == math.floor(x) then return string.format("%d", x) end
  return string.format("%.1f", x)
end

local names = {}
for name in pairs(rows) do names[#names + 1] = name end
table.sort(names)
local engines = { { "rvo2", "RVO2" }, { "arrive", "steer arrive" }, { "seek", "steer seek" } }
local head = { "layout", "agents" }
for _, e in ipairs(engines) do
  head[#head + 1] = e[2] .. " home"
  head[#head + 1] = "contacts / cm / wall cm"
  head[#head + 1] = "last"
end
print("| " .. table.concat(head, " | ") .. " |")
print(string.rep("|---", #head) .. "|")
local total_agents, tw, tm = 0, {}, {}
for _, name in ipairs(names) do
  local cells = { name, fmt(agents[name]) }
  total_agents = total_agents + agents[name]
  for _, e in ipairs(engines) do
    local s = stats(rows[name][e[1]])
    if s then
      cells[#cells + 1] = fmt(s.worst) .. " / " .. fmt(s.median)
      cells[#cells + 1] = fmt(s.contacts) .. " / " .. string.format("%.1f / %.1f", s.body, s.poly)
      cells[#cells + 1] = s.last and string.format("%.0f", s.last) or "-"
      tw[e[1]] = (tw[e[1]] or 0) + s.worst
      tm[e[1]] = (tm[e[1]] or 0) + s.median
    else
      for _ = 1, 3 do cells[#cells + 1] = "-" end
    end
  end
  print("| " .. table.concat(cells, " | ") .. " |")
end
local cells = { "**total**", "**" .. total_agents .. "**" }
for _, e in ipairs(engines) do
  cells[#cells + 1] = tw[e[1]] and ("**" .. fmt(tw[e[1]]) .. " / " .. fmt(tm[e[1]]) .. "**") or "-"
  cells[#cells + 1] = ""
  cells[#cells + 1] = ""
end
print("| " .. table.concat(cells, " | ") .. " |")
