-- steer.navigate, world:move_group, agent.stuck, nav_bounds and the
-- navigation's debug layers through the Lua API (engine/src/navigate.c
-- planning through bindings/nav_sync.c's planner over steer::nav).
local steer = require "steer"
local support = require "support"
local err = support.err

local DT = 1 / 30

-- Step until every agent's plan says "arrived" (or the time runs out):
-- the seconds it took, or nil.
local function run_until_arrived(w, agents, seconds)
  for i = 1, math.floor(seconds / DT) do
    w:step(DT)
    local all = true
    for _, a in ipairs(agents) do
      local p = a:plan()
      if not p or p.status ~= "arrived" then all = false break end
    end
    if all then return i * DT end
  end
  return nil
end

local function distance(a, x, y) return math.sqrt((a.x - x) ^ 2 + (a.y - y) ^ 2) end

describe("steer.navigate", function()
  it("gets round a block to a goal behind it within 1.3 x the shortest path's time", function()
    for _, offset in ipairs({ 0, 10, 20 }) do
      local w = steer.world{}
      w:add_box(-15, -5, 15, 5)
      local a = w:spawn{ x = 0, y = -20, max_speed = 5, max_acceleration = 10,
        steering = steer.navigate{ target = { offset, 20 } } }
      local path = assert(w:find_path{ from = { 0, -20 }, to = { offset, 20 }, radius = 0.5 })
      local t = assert(run_until_arrived(w, { a }, 60), "did not arrive")
      assert.is_true(t <= 1.3 * path.length / 5, ("offset %g: %.2f s for %.2f m"):format(offset, t, path.length))
      assert.is_true(distance(a, offset, 20) <= 0.25)
      assert.is_false(a.stuck)
    end
  end)

  it("plans once per agent, keeps the plan in the agent, and reports it", function()
    local w = steer.world{}
    w:add_box(-15, -5, 15, 5)
    local nav = steer.navigate{ target = { 0, 20 } }
    local a = w:spawn{ x = -3, y = -20, steering = nav }
    local b = w:spawn{ x = 3, y = -20, steering = nav }
    assert.is_nil(a:plan()) -- not planned before a step
    w:step(DT)
    local pa, pb = a:plan(), b:plan()
    assert.are.equal("following", pa.status)
    assert.are.equal(1, pa.replans)
    assert.are.same({ -3, -20 }, pa.points[1])
    assert.are.same({ 0, 20 }, pa.points[#pa.points])
    assert.are.same({ 3, -20 }, pb.points[1])
    assert.are.equal(0.5, pa.radius)
    for _ = 1, 30 do w:step(DT) end
    assert.are.equal(1, a:plan().replans) -- nothing moved: no replan
  end)

  it("replans when its target agent moves beyond replan_distance, not before", function()
    local w = steer.world{}
    w:add_box(-15, -5, 15, 5)
    local target = w:spawn{ x = 0, y = 20 }
    local a = w:spawn{ x = 0, y = -20, steering = steer.navigate{ target = target, replan_distance = 3 } }
    w:step(DT)
    target:set_position(1, 20) -- within 3 m: the route's end follows it
    w:step(DT)
    local p = a:plan()
    assert.are.equal(1, p.replans)
    assert.are.same({ 1, 20 }, p.points[#p.points])
    target:set_position(10, 20)
    w:step(DT)
    assert.are.equal(2, a:plan().replans)
    assert.are.same({ 10, 20 }, a:plan().goal)
  end)

  it("replans when shapes change, round the new shape", function()
    local w = steer.world{}
    local a = w:spawn{ x = 0, y = -20, steering = steer.navigate{ target = { 0, 20 } } }
    w:step(DT)
    assert.are.equal(2, #a:plan().points) -- open ground: straight
    w:add_box(-15, -5, 15, 5)
    w:step(DT)
    local p = a:plan()
    assert.are.equal(2, p.replans)
    assert.is_true(#p.points >= 4)
    assert.truthy(run_until_arrived(w, { a }, 60))
  end)

  it("works as reciprocal_avoidance's preferred behaviour: two groups cross round the block", function()
    local w = steer.world{}
    w:add_box(-15, -5, 15, 5)
    local agents = {}
    for i = 0, 5 do
      local x = -5 + 2 * i
      agents[#agents + 1] = w:spawn{ x = x, y = -20,
        steering = steer.reciprocal_avoidance{ preferred = steer.navigate{ target = { -x, 20 } } } }
      agents[#agents + 1] = w:spawn{ x = x, y = 20,
        steering = steer.reciprocal_avoidance{ preferred = steer.navigate{ target = { -x, -20 } } } }
    end
    assert.truthy(run_until_arrived(w, agents, 90), "not all arrived")
  end)

  it("works inside blends and priorities", function()
    local w = steer.world{}
    w:add_box(-15, -5, 15, 5)
    local a = w:spawn{ x = 0, y = -20, steering = steer.blend{
      steer.navigate{ target = { 0, 20 } }, steer.look_where_you_are_going{} } }
    local b = w:spawn{ x = 4, y = -20, steering = steer.priority{
      steer.separation{ radius = 1 }, steer.navigate{ target = { 4, 20 } } } }
    assert.truthy(run_until_arrived(w, { a, b }, 60))
  end)

  it("steers a formation's anchor round the block", function()
    local w = steer.world{}
    w:add_box(-15, -5, 15, 5)
    local f = steer.formation{ world = w, pattern = "grid", spacing = 2,
      anchor = { x = 0, y = -20, max_speed = 3,
        steering = steer.navigate{ target = { 0, 20 }, radius = 2.5 } } }
    local members = {}
    for i = 1, 4 do
      members[i] = w:spawn{ x = -3 + 2 * i, y = -22 }
      members[i].steering = steer.reciprocal_avoidance{ preferred = f:behaviour() }
      f:add(members[i])
    end
    for _ = 1, 60 / DT do w:step(DT) end
    local ax, ay = f:anchor()
    assert.is_true(math.abs(ax) < 0.5 and math.abs(ay - 20) < 0.5, ("anchor at %g, %g"):format(ax, ay))
    for _, m in ipairs(members) do assert.is_true(m.y > 10, "a member stayed behind") end
  end)

  it("keeps its plan across a hot reload of a tree of the same shape, not across a new tree", function()
    local w = steer.world{}
    w:add_box(-15, -5, 15, 5)
    local a = w:spawn{ x = 0, y = -20,
      steering = steer.reciprocal_avoidance{ preferred = steer.navigate{ target = { 0, 20 } } } }
    for _ = 1, 30 do w:step(DT) end
    local before = a:plan()
    a:set_steering(steer.reciprocal_avoidance{ preferred = steer.navigate{ target = { 0, 20 } } }, true)
    w:step(DT)
    local kept = a:plan()
    assert.are.equal(before.replans, kept.replans)
    assert.are.equal(before.next, kept.next)
    a:set_steering(steer.reciprocal_avoidance{ preferred = steer.navigate{ target = { 0, 20 } } })
    w:step(DT)
    assert.are.equal(before.replans + 1, a:plan().replans)
    a.steering = nil
    assert.is_nil(a:plan())
  end)

  it("gives the same bits for any worker count", function()
    local hashes = {}
    for workers = 1, 3 do
      local w = steer.world{ workers = workers }
      w:add_box(-15, -5, 15, 5)
      w:add_circle(20, 0, 3)
      for i = 0, 11 do
        w:spawn{ x = -12 + 2 * i, y = -20 + (i % 3),
          steering = steer.reciprocal_avoidance{ preferred = steer.navigate{ target = { 12 - 2 * i, 20 } } } }
      end
      for _ = 1, 150 do w:step(DT) end
      hashes[workers] = w:hash()
    end
    assert.are.equal(hashes[1], hashes[2])
    assert.are.equal(hashes[1], hashes[3])
  end)

  it("reports a goal it cannot reach, and is stuck after stuck_time", function()
    local w = steer.world{}
    -- a closed room round the goal
    w:add_polyline{ { -5, -5 }, { 5, -5 }, { 5, 5 }, { -5, 5 }, loop = true }
    local a = w:spawn{ x = 0, y = -20, steering = steer.navigate{ target = { 0, 0 }, stuck_time = 2 } }
    w:step(DT)
    local p = a:plan()
    assert.are.equal("failed", p.status)
    assert.are.equal("no path from (0, -20) to (0, 0) for radius 0.5", p.message)
    assert.is_false(a.stuck)
    for _ = 1, 61 do w:step(DT) end
    assert.is_true(a.stuck)
    -- a goal inside a shape, a radius larger than any gap
    local b = w:spawn{ x = 10, y = -20, steering = steer.navigate{ target = { 5, 0 } } }
    w:step(DT)
    assert.matches("goal %(5, 0%) is inside a shape or closer than 0.5 to one", b:plan().message)
    local walled = steer.world{ nav_bounds = { -30, -30, 30, 30 } }
    walled:add_box(-40, -1, 10, 1)
    walled:add_box(15, -1, 19, 1)
    walled:add_box(21, -1, 40, 1)
    local c = walled:spawn{ x = 20, y = -20, steering = steer.navigate{ target = { 20, 20 }, radius = 3 } }
    local d = walled:spawn{ x = 20, y = -20, steering = steer.navigate{ target = { 20, 20 }, radius = 0.5 } }
    walled:step(DT)
    assert.are.equal("failed", c:plan().status)
    assert.are.equal("following", d:plan().status)
    -- a target beyond the coordinates navigation takes: a failed plan, never a crash
    local far = w:spawn{ x = 0, y = -30, steering = steer.navigate{ target = { 1e7, 0 } } }
    w:step(DT)
    assert.are.equal("failed", far:plan().status)
    assert.is_true(#far:plan().message > 0)
    assert.matches("within %[%-1e6, 1e6%]", err(function() far.goal = { 1e7, 0 } end))
    assert.matches("goal", err(function() far.goal = { 0 / 0, 0 } end))
    assert.matches("no path", c:plan().message)
  end)

  it("is stuck when it makes no progress, and not once it moves on", function()
    local w = steer.world{}
    local a = w:spawn{ x = 0, y = 0, max_speed = 0, steering = steer.navigate{ target = { 20, 0 }, stuck_time = 1 } }
    for _ = 1, 29 do w:step(DT) end
    assert.is_false(a.stuck)
    for _ = 1, 2 do w:step(DT) end
    assert.is_true(a.stuck)
    a.max_speed = 5
    for _ = 1, 10 do w:step(DT) end
    assert.is_false(a.stuck)
    assert.are.equal(false, w:spawn{}.stuck)
  end)

  it("refuses bad options with the field's name", function()
    assert.matches("replan_distance", err(steer.navigate, { replan_distance = 0 }))
    assert.matches("stuck_time", err(steer.navigate, { stuck_time = -1 }))
    assert.matches("radius", err(steer.navigate, { radius = 0 / 0 }))
    assert.matches("target", err(steer.navigate, { target = { 0 / 0, 1 } }))
    local nav = steer.navigate{}
    assert.is_nil(nav.radius)
    nav.radius = 2
    assert.are.equal(2, nav.radius)
  end)

  it("plans with the agent's own mask: a wall on a layer it does not see is not there (issue 26)", function()
    local function walk(mask, layer)
      local w = steer.world{}
      local wall = w:add_box(-0.5, -8, 0.5, 8, { layer = 2 })
      if layer then wall.layer = layer end
      local a = w:spawn{ x = -10, y = 0, mask = mask, max_speed = 5, max_acceleration = 10,
        steering = steer.navigate{ target = { 10, 0 } } }
      local widest = 0
      for _ = 1, math.floor(20 / DT) do
        w:step(DT)
        widest = math.max(widest, math.abs(a.y))
      end
      return a, widest, w
    end
    local through, through_widest, w1 = walk(1)
    assert.are.equal(2, #through:plan().points)
    assert.is_true(through_widest < 0.01, "straight through: |y| reached " .. through_widest)
    assert.is_true(distance(through, 10, 0) <= 0.25)
    local round, round_widest, w2 = walk(3)
    assert.is_true(#round:plan().points > 2)
    assert.is_true(round_widest > 8, "round the wall: |y| reached only " .. round_widest)
    assert.is_true(distance(round, 10, 0) <= 0.25)
    -- the wall moved onto layer 1 after it was made: mask 1 goes round it too
    local moved, moved_widest, w3 = walk(1, 1)
    assert.is_true(#moved:plan().points > 2 and moved_widest > 8)
    assert.is_true(distance(moved, 10, 0) <= 0.25)
    w1:close(); w2:close(); w3:close()
  end)

  it("replans when a shape's layer changes", function()
    local w = steer.world{}
    local wall = w:add_box(-0.5, -8, 0.5, 8)
    local a = w:spawn{ x = -10, y = 0, mask = 1, steering = steer.navigate{ target = { 10, 0 } } }
    w:step(DT)
    assert.is_true(#a:plan().points > 2)
    wall.layer = 1 -- unchanged: no replan
    w:step(DT)
    assert.are.equal(1, a:plan().replans)
    wall.layer = 2
    w:step(DT)
    assert.are.equal(2, a:plan().replans)
    assert.are.equal(2, #a:plan().points)
  end)

  it("refuses a tree with two navigates when it is built (an agent keeps one plan)", function()
    local a, b = steer.navigate{ target = { 10, 0 } }, steer.navigate{ target = { -10, 0 } }
    assert.matches("bad argument #1 to '[%w.]*blend' %(would hold more than one navigate",
      err(steer.blend, { a, b }))
    assert.matches("more than one navigate", err(steer.priority, { a, a }))
    local inner = steer.priority{}
    local tree = steer.blend{ a, inner }
    assert.matches("bad property 'children' of steer%.Priority %(would hold more than one navigate",
      err(function() inner.children = { b } end))
    -- a formation's anchor steering and an avoidance around one navigate are fine
    assert.is_not_nil(steer.reciprocal_avoidance{ preferred = tree })
  end)
end)

describe("world:move_group", function()
  it("gives each unit its own stop point and they arrive and settle", function()
    local w = steer.world{}
    w:add_box(-15, -5, 15, 5)
    local units = {}
    for i = 0, 29 do
      units[#units + 1] = w:spawn{ x = -10 + (i % 10) * 2, y = -25 - math.floor(i / 10) * 2 }
    end
    local stops = assert(w:move_group{ agents = units, to = { 0, 20 } })
    assert.are.equal(30, #stops)
    for i = 1, #stops do
      for j = i + 1, #stops do
        local d = math.sqrt((stops[i][1] - stops[j][1]) ^ 2 + (stops[i][2] - stops[j][2]) ^ 2)
        assert.is_true(d >= 4.4 * 0.5 - 1e-4)
      end
      assert.are.same(stops[i], units[i].goal)
    end
    assert.truthy(run_until_arrived(w, units, 120), "not all settled")
    -- 6 s to settle: with the paths' corners set against the exact shapes
    -- (issue 22), units jostled after all arrived are back within 0.25 m of
    -- their points after 4.5 s and stay there (checked for 20 s); at 2 and
    -- 4 s one of 30 was still 1.1 m off
    for _ = 1, 180 do w:step(DT) end
    -- units of the group may have exchanged stop points on the way: each
    -- settles at its own goal, and the goals are the stops, each once
    local taken = {}
    for _, u in ipairs(units) do
      local goal = u.goal
      assert.is_true(distance(u, goal[1], goal[2]) < 0.5)
      assert.is_false(u.stuck)
      local at
      for i, s in ipairs(stops) do
        if s[1] == goal[1] and s[2] == goal[2] then at = i end
      end
      assert.truthy(at, "a goal that is not a stop point")
      assert.is_nil(taken[at], "two units with one stop point")
      taken[at] = true
    end
  end)

  it("sends the units nearest the goal furthest in", function()
    local w = steer.world{}
    local near = w:spawn{ x = 0, y = 5 }
    local far = w:spawn{ x = 0, y = -30 }
    local stops = assert(w:move_group{ agents = { far, near }, to = { 0, 10 }, spacing = 2 })
    assert.are.same({ 0, 10 }, stops[2])
  end)

  it("keeps the agent's own navigate, and its goal can be read and cleared", function()
    local w = steer.world{}
    local nav = steer.navigate{}
    local a = w:spawn{ steering = nav }
    assert.is_nil(a.goal)
    w:move_group{ agents = { a }, to = { 5, 5 } }
    assert.are.equal(nav, a.steering)
    assert.are.same({ 5, 5 }, a.goal)
    a.goal = { 1, 2 }
    assert.are.same({ 1, 2 }, a.goal)
    w:step(DT)
    assert.are.same({ 1, 2 }, a:plan().goal)
    a.goal = nil
    w:step(DT)
    assert.are.equal("no_goal", a:plan().status)
  end)

  it("refuses bad orders clearly", function()
    local w = steer.world{ nav_bounds = { -50, -50, 50, 50 } }
    w:add_box(-5, -5, 5, 5)
    local a, b = w:spawn{ x = 0, y = -20 }, w:spawn{ x = 2, y = -20 }
    local none, msg = w:move_group{ agents = { a, b }, to = { 0, 0 } }
    assert.is_nil(none)
    assert.are.equal("goal (0, 0) is inside a shape or closer than 0.5 to one", msg)
    assert.matches("to.*nav_bounds {%-50, %-50, 50, 50}", err(w.move_group, w, { agents = { a }, to = { 60, 0 } }))
    assert.matches("'to'", err(w.move_group, w, { agents = { a }, to = { 0 / 0, 0 } }))
    assert.matches("agents%[2%].*listed twice", err(w.move_group, w, { agents = { a, a }, to = { 0, 20 } }))
    assert.matches("agents%[1%].*agent of this world", err(w.move_group, w, { agents = { 3 }, to = { 0, 20 } }))
    assert.matches("agents.*at least one", err(w.move_group, w, { agents = {}, to = { 0, 20 } }))
    assert.matches("spacing", err(w.move_group, w, { agents = { a }, to = { 0, 20 }, spacing = -1 }))
    assert.matches("unknown", err(w.move_group, w, { agents = { a }, to = { 0, 20 }, speed = 1 }))
    local own = w:spawn{ x = 4, y = -20, steering = steer.navigate{ target = { 1, 1 } } }
    assert.matches("agents%[1%].*target of its own", err(w.move_group, w, { agents = { own }, to = { 0, 20 } }))
    -- a small closed room holds one stop point
    w:add_polyline{ { 20, 20 }, { 24, 20 }, { 24, 24 }, { 20, 24 }, loop = true }
    local room, why = w:move_group{ agents = { a, b }, to = { 22, 22 } }
    assert.is_nil(room)
    assert.are.equal("no room for 2 agents round (22, 22) with spacing 2.2", why)
    assert.matches("nav_bounds", err(function() a.goal = { 0, 99 } end))
  end)
end)

describe("nav_bounds", function()
  it("is read back, limits plans, and refuses a bad box", function()
    local w = steer.world{ nav_bounds = { -50, -40, 50, 40 } }
    assert.are.same({ -50, -40, 50, 40 }, w.nav_bounds)
    assert.is_nil(steer.world{}.nav_bounds)
    local a = w:spawn{ steering = steer.navigate{ target = { 0, 45 } } }
    w:step(DT)
    assert.are.equal("failed", a:plan().status)
    assert.matches("outside", a:plan().message)
    assert.matches("nav_bounds.*x1 < x2", err(steer.world, { nav_bounds = { 1, 0, 0, 1 } }))
    assert.matches("nav_bounds", err(steer.world, { nav_bounds = { 0, 0, 1 } }))
    assert.matches("nav_bounds", err(steer.world, { nav_bounds = { 0, 0 / 0, 1, 1 } }))
    -- four values and nothing else (a margin or a name was silently dropped)
    local extra = { nav_bounds = { 0, 0, 1, 1, margin = 1 } }
    assert.matches("nav_bounds.*must be {x1, y1, x2, y2}", err(steer.world, extra))
  end)
end)

describe("the navigation's debug layers", function()
  it("draws the mesh, traced routes, flow arrows and stuck agents", function()
    local w = steer.world{}
    w:add_box(-15, -5, 15, 5)
    local a = w:spawn{ x = 0, y = -20, steering = steer.navigate{ target = { 0, 20 } } }
    local stuck = w:spawn{ x = 30, y = 0, max_speed = 0,
      steering = steer.navigate{ target = { 40, 0 }, stuck_time = 0.1 } }
    a.trace = true
    assert(w:flow_field{ goal = { 0, 20 }, cell = 2, bounds = { -30, -30, 30, 30 } })
    for _ = 1, 10 do w:step(DT) end
    assert.is_true(stuck.stuck)
    local function count(flags)
      local n = { polygon = 0, segment = 0, circle = 0, arrow = 0 }
      w:draw{ flags = flags,
        polygon = function() n.polygon = n.polygon + 1 end,
        segment = function() n.segment = n.segment + 1 end,
        circle = function() n.circle = n.circle + 1 end,
        arrow = function() n.arrow = n.arrow + 1 end }
      return n
    end
    assert.is_true(count{ "nav_mesh" }.polygon > 4)
    assert.is_true(count{ "routes" }.segment >= 3)
    assert.is_true(count{ "flow" }.arrow > 100)
    assert.are.equal(1, count{ "stuck" }.circle)
    assert.are.equal(0, count{ "shapes" }.circle)
    assert.matches("'nav_mesh', 'routes', 'flow' or 'stuck'", err(w.draw, w, { flags = { "mesh" } }))
  end)
end)
