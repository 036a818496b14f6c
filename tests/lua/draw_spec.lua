-- world:draw and agent:trace_tree (the C side's equality: lua.draw_vs_c)
local steer = require "steer"
local support = require "support"
local err = support.err

local function scene()
  local w = steer.world{ seed = 3 }
  w:add_circle(0, 6, 1)
  local target = w:spawn{ x = 0, y = 10 }
  local b = steer.priority{
    steer.obstacle_avoidance{},
    steer.blend{ { steer.seek{ target = target }, weight = 2 }, { steer.separation{}, weight = 1 } },
  }
  local a = w:spawn{ x = 0, y = 0, steering = b }
  a.trace = true
  for _ = 1, 5 do w:step(1 / 60) end
  return w, a
end

describe("world:draw", function()
  it("reports primitives with colours in [0, 1] and honours the flags", function()
    local w = scene()
    local n, kinds = 0, {}
    local function count(kind) return function(...) n = n + 1; kinds[kind] = select("#", ...) end end
    w:draw{ segment = count("segment"), circle = count("circle"), solid_circle = count("solid_circle"),
            arrow = count("arrow"), transform = count("transform"), polygon = count("polygon"),
            solid_polygon = count("solid_polygon"), point = count("point") }
    assert.is_true(n > 0)
    assert.are.equal(8, kinds.solid_circle) -- x, y, radius, orientation, r, g, b, a
    assert.are.equal(3, kinds.transform)
    local only = 0
    w:draw{ solid_circle = function(_, _, _, _, r, g, b, a)
      only = only + 1
      assert.is_true(r >= 0 and r <= 1 and g >= 0 and g <= 1 and b >= 0 and b <= 1 and a >= 0 and a <= 1)
    end, flags = { "agents" } }
    assert.are.equal(2, only) -- the two agents, no shapes
  end)

  it("raises a callback's error after drawing, and refuses changes and misspellings", function()
    local w = scene()
    assert.are.equal("boom", err(function() w:draw{ transform = function() error("boom", 0) end } end))
    assert.are.equal("attempt to modify a world while it is drawn",
                     err(function() w:draw{ transform = function() w:spawn{} end } end))
    assert.are.equal(2, w:count())
    assert.are.equal("bad argument #1 to 'draw' (unknown field 'segmnet')",
                     err(function() return w:draw{ segmnet = print } end))
    assert.are.equal("bad argument #1 to 'draw' (field 'flags' must list 'shapes', 'agents', 'paths', 'velocity', "
                     .. "'steering', 'tree', 'rays', 'marks', 'nav_mesh', 'routes', 'flow' or 'stuck', got 'all')",
                     err(function() return w:draw{ flags = { "all" } } end))
    w:step(1 / 60) -- and the world goes on
  end)
end)

describe("agent:trace_tree", function()
  it("gives the traced agent's last evaluation: types, weights, outputs, the winning group", function()
    local w, a = scene()
    local t = a:trace_tree()
    assert.are.equal("priority", t.type)
    assert.are.equal(false, t.truncated)
    assert.are.equal(2, #t.children)
    assert.are.equal("obstacle_avoidance", t.children[1].type)
    local blend = t.children[2]
    assert.are.equal("blend", blend.type)
    assert.are.equal("seek", blend.children[1].type)
    assert.are.equal(2, blend.children[1].weight)
    assert.are.equal(2, t.winner_linear) -- the blend steered, avoidance did not
    local lx, ly = a:last_steering()
    assert.is_true(math.abs(t.output[1] - lx) < 1e-4 and math.abs(t.output[2] - ly) < 1e-4)
    assert.is_nil(w:spawn{}:trace_tree()) -- untraced
  end)
end)
