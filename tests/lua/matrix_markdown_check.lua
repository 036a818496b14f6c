-- matrix_markdown_check.lua <steer-lua> <run.lua>: `run.lua --matrix --markdown`
-- prints the matrix's summary as a Markdown table (docs/crowds.md) whose
-- cells are the text table's summary rows, number for number. Runs one
-- small layout at one setting of the matrix (the centre, `arrive`).
local exe, runner = arg[1], arg[2]
assert(exe and runner, "usage: matrix_markdown_check.lua <steer-lua> <run.lua>")

local check, failures = require("support").checker()

local layouts = { "gather_12", "contend_3", "random_12" }
local cmd = string.format("%q %q --matrix --seeds 1 --pref arrive --tau 2 --accel 10 --dt 0.1 --check --markdown %s",
  exe, runner, table.concat(layouts, " "))
local p = assert(io.popen(cmd .. " 2>&1"))
local out = p:read("a")
local ok = p:close()
check(ok, "the run failed (--check: a held target missed?):\n%s", out)

local function trim(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end
local function cells_of(line)
  local cells = {}
  for c in line:gmatch("|([^|]*)") do cells[#cells + 1] = trim(c) end
  cells[#cells] = nil -- the empty cell after the closing bar
  return cells
end

-- the text table's summary rows (one per layout, behaviour "all")
local text = {}
for line in out:gmatch("[^\n]+") do
  local name, rest = line:match("^(%S+)%s+all%s+|%s*(.*)$")
  if name then
    local home, agents, contacts, off, on, wait, jam, okr, tail =
      rest:match("^(%d+) / (%d+)%s+(%d+)%s+([%d.]+)/%s*([%d.]+)%s+([%d.]+)%s+([%d.]+)%s+(%d+/%d+)%s*(.-)%s*$")
    check(home ~= nil, "text summary row not understood: %s", line)
    local extra, missed = tail, ""
    local a, b = tail:match("^(.-)%s*failed (.*)$")
    if a then extra, missed = a, b end
    text[name] = { home = home, agents = agents, contacts = contacts, off = off, on = on, wait = wait, jam = jam,
      ok = okr, extra = extra, missed = missed }
  end
end

-- the Markdown table: a caption, the header, the alignment row, one row a layout
local md, header, align = {}, nil, nil
for line in out:gmatch("[^\n]+") do
  if line:match("^| layout |") then header = cells_of(line)
  elseif line:match("^|%-%-%-") then align = cells_of(line)
  elseif line:match("^| `") then md[#md + 1] = cells_of(line) end
end
local caption = "\nMatrix: world seeds 1; preferred arrive; time horizon 2 s; max acceleration 10 x max speed; dt 0.1 s"
check(out:find(caption, 1, true) ~= nil, "no caption naming the settings before the Markdown table")
check(header and #header == 10, "the header has %s cells, not 10", header and #header or "no")
check(align and #align == 10, "the alignment row has %s cells, not 10", align and #align or "no")
check(#md == #layouts, "%d Markdown rows for %d layouts", #md, #layouts)
for i, row in ipairs(md) do
  check(#row == 10, "row %d has %d cells, not 10", i, #row)
  local name = row[1]:match("^`(.-)`$")
  check(name == layouts[i], "row %d is %s, not %s", i, tostring(name), layouts[i])
  local t = text[name]
  check(t ~= nil, "no text summary row for %s", tostring(name))
  if t then
    local function same(got, want, what) check(got == want, "%s %s: Markdown %q, text %q", name, what, got, want) end
    same(row[2], t.ok, "ok")
    same(row[3], t.home .. " of " .. t.agents, "home")
    same(row[4], t.contacts, "contacts")
    same(row[5], t.off .. " / " .. t.on, "overlap")
    same(row[6], t.wait, "wait")
    same(row[7], t.jam, "jam")
    same(row[8], t.extra ~= "" and t.extra or "-", "extras")
    same(row[9], t.missed ~= "" and t.missed or "-", "missed")
    -- --check passed, so every target missed is in NOT_YET
    same(row[10], t.missed ~= "" and "yes" or "-", "NOT_YET")
  end
end
-- the figures are real: gather_12 has settling extras, contend_3 its first arrival
check(md[1] and md[1][8]:match("^mean_v=%d") ~= nil, "gather_12 without its settling figures: %s",
  md[1] and md[1][8] or "")
check(md[2] and md[2][8]:match("^first=%d") ~= nil, "contend_3 without its first arrival: %s", md[2] and md[2][8] or "")

if failures() > 0 then
  io.stderr:write(out, "\n")
  os.exit(1)
end
print("matrix markdown ok")
