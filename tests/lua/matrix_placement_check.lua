-- matrix_placement_check.lua <matrix.lua>: a layout whose generator cannot
-- place its agents (more of them than the room holds at their spacing) ends
-- the matrix with an error naming the layout and the world seed, not a
-- hang (matrix.lua bounds the random draws of one layout's generation).
local matrix = arg[1]
assert(matrix, "usage: matrix_placement_check.lua <matrix.lua>")

local check, failures = require("support").checker()

local dir = os.tmpname()
os.remove(dir)
assert(os.execute(string.format("mkdir -p %q", dir .. "/matrix")))
local f = assert(io.open(dir .. "/matrix/crammed.lua", "w"))
-- 50 agents 2 m apart in a 4 m square: rejection sampling never ends
f:write([[
local function generate(rnd, apart)
  local agents, placed = {}, {}
  for _ = 1, 50 do
    local x, y
    repeat x, y = rnd() * 4, rnd() * 4 until apart(placed, x, y, 4)
    placed[#placed + 1] = { x, y }
    agents[#agents + 1] = { x = x, y = y, gx = x, gy = y + 10 }
  end
  return agents
end
return { family = "random", mode = "keep", time_limit = 10, generate = generate }
]])
f:close()

local ok, err = pcall(assert(loadfile(matrix))(), { "--matrix", "--seeds", "3", "--pref", "arrive", "--tau", "2",
  "--accel", "10", "--dt", "0.1", "crammed" }, dir .. "/")
os.execute(string.format("rm -rf %q", dir))
check(not ok, "the matrix ran a layout whose agents cannot be placed")
check(tostring(err):find("layout crammed, world seed 3: ten million random draws did not place every agent", 1, true),
  "the error does not name the layout and the seed: %s", tostring(err))
if failures() > 0 then os.exit(1) end
print("matrix placement ok")
