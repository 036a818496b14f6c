-- Converts a layout (layouts/*.lua) to the plain text both drivers read.
-- Usage: steer-lua to_text.lua layouts/NAME.lua > NAME.txt   (any Lua 5.1-5.4 works too)
local path = assert(arg[1], "usage: to_text.lua layouts/NAME.lua")
local dir = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = dir .. "/?.lua;" .. package.path
local L = dofile(path)
local f = string.format
local out = {}
out[#out + 1] = "heldout-layout 1"
out[#out + 1] = "name " .. L.name
out[#out + 1] = f("dt %.17g", L.dt)
out[#out + 1] = f("time_limit %.17g", L.time_limit)
out[#out + 1] = f("rvo %.17g %d %.17g %.17g", L.neighbour_dist, L.max_neighbours, L.time_horizon,
  L.obstacle_time_horizon)
out[#out + 1] = f("agents %d", #L.agents)
for _, a in ipairs(L.agents) do
  out[#out + 1] = f("%.17g %.17g %.17g %.17g %.17g %.17g %.17g", a.x, a.y, a.gx, a.gy, a.r, a.speed, a.goal_radius)
end
out[#out + 1] = f("polygons %d", #L.polygons)
for _, p in ipairs(L.polygons) do
  -- counterclockwise, as RVO2 wants
  local area = 0
  for i = 1, #p do
    local a, b = p[i], p[i % #p + 1]
    area = area + a[1] * b[2] - b[1] * a[2]
  end
  local line = { tostring(#p) }
  for k = 1, #p do
    local v = area > 0 and p[k] or p[#p + 1 - k]
    line[#line + 1] = f("%.17g %.17g", v[1], v[2])
  end
  out[#out + 1] = table.concat(line, " ")
end
io.write(table.concat(out, "\n"), "\n")
