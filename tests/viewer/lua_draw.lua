-- lua_draw.lua: a viewer script that also draws through the Lua API: every
-- 20 frames it asks world:draw for the debug primitives (as a LÖVE game
-- does) and agent:trace_tree() for the traced agent's arbitration, and
-- prints what came back; ctest viewer.lua_draw checks the lines while the
-- viewer draws the same world through the C callbacks.
local steer = require "steer"

local frames = 0
local brain = steer.blend{
  { steer.seek{ target = { 8, 0 } }, weight = 1 },
  { steer.separation{ radius = 3 }, weight = 2 },
}

return {
  roles = { walker = brain },
  setup = function(world)
    world:add_box(2, -1, 3, 1)
    for i = 1, 6 do
      local a = world:spawn{ x = -6 + i, y = (i % 3) - 1, role = "walker" }
      a.trace = i == 1
    end
  end,
  update = function(world, _, _)
    frames = frames + 1
    if frames % 20 ~= 0 then return end
    local counts = { segment = 0, arrow = 0, circle = 0, solid_circle = 0, polygon = 0, solid_polygon = 0 }
    local function count(kind) return function() counts[kind] = counts[kind] + 1 end end
    world:draw{ segment = count("segment"), arrow = count("arrow"), circle = count("circle"),
      solid_circle = count("solid_circle"), polygon = count("polygon"), solid_polygon = count("solid_polygon") }
    local tree
    for a in world:agents() do
      if a.trace then tree = a:trace_tree() end
    end
    print(string.format("lua draw frame %d: segments=%d arrows=%d circles=%d polygons=%d tree=%s children=%d",
      frames, counts.segment, counts.arrow, counts.circle + counts.solid_circle,
      counts.polygon + counts.solid_polygon, tree and tree.type or "none", tree and #tree.children or 0))
  end,
}
