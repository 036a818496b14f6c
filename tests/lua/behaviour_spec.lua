-- Every constructor and every option/property of every behaviour, built from
-- the contract in shared/DESIGN.md (names and the notes' defaults).
local steer = require "steer"
local support = require "support"
local err = support.err

local ALIGN = { target_radius = 0.01, slow_radius = 0.5, time_to_target = 0.1 }
local function with(base, extra)
  local t = {}
  for k, v in pairs(base) do t[k] = v end
  for k, v in pairs(extra or {}) do t[k] = v end
  return t
end

-- constructor -> class, its options and their defaults (limits are added below)
local catalogue = {
  kinematic_seek = { "steer.KinematicSeek", {}, target = true },
  kinematic_flee = { "steer.KinematicFlee", {}, target = true },
  kinematic_arrive = { "steer.KinematicArrive", { radius = 1, time_to_target = 0.25 }, target = true },
  kinematic_wander = { "steer.KinematicWander", {} },
  seek = { "steer.Seek", {}, target = true },
  flee = { "steer.Flee", {}, target = true, optional = { panic_radius = true } },
  arrive = { "steer.Arrive", { target_radius = 0.5, slow_radius = 3, time_to_target = 0.1 }, target = true },
  align = { "steer.Align", with(ALIGN, { orientation = 0 }), target = true },
  velocity_match = { "steer.VelocityMatch", { time_to_target = 0.1 }, target = true },
  pursue = { "steer.Pursue", { max_prediction = 1, arrive_on_overshoot = false, target_radius = 0.5,
                               slow_radius = 3, time_to_target = 0.1 }, target = true },
  evade = { "steer.Evade", { max_prediction = 1 }, target = true, optional = { panic_radius = true } },
  face = { "steer.Face", ALIGN, target = true },
  look_where_you_are_going = { "steer.LookWhereYouAreGoing", ALIGN },
  wander = { "steer.Wander", with(ALIGN, { wander_offset = 2, wander_radius = 1, wander_rate = 0.5 }) },
  follow_path = { "steer.FollowPath", { path_offset = 1, predict_time = 0, target_radius = 0.5,
                                        slow_radius = 3, time_to_target = 0.1 } },
  separation = { "steer.Separation", { radius = 2, decay_coefficient = 10, law = "inverse_square" } },
  cohesion = { "steer.Cohesion", { radius = 8 } },
  alignment = { "steer.Alignment", { radius = 8, time_to_target = 0.1 } },
  collision_avoidance = { "steer.CollisionAvoidance", { radius = 8 }, optional = { cone_threshold = true } },
  obstacle_avoidance = { "steer.ObstacleAvoidance", { lookahead = 4, avoid_distance = 2, rays = "single",
                                                     whisker_angle = 0.5, whisker_scale = 0.5,
                                                     scale_lookahead = false } },
}
local LIMITS = { "max_speed", "max_acceleration", "max_rotation", "max_angular_acceleration" }

-- a valid value different from the default, and an invalid one with its phrase
local good = {
  radius = 3, target_radius = 0.25, slow_radius = 4, time_to_target = 0.5, orientation = 1.5,
  max_prediction = 2, arrive_on_overshoot = true, wander_offset = 3, wander_radius = 2,
  wander_rate = 0.25, path_offset = 2, predict_time = 0.5, decay_coefficient = 5, law = "linear",
  cone_threshold = 0.25, panic_radius = 6, lookahead = 6, avoid_distance = 1, rays = "whiskers", whisker_angle = 0.75,
  whisker_scale = 0.75, scale_lookahead = true, epsilon = 0.01, max_speed = 7, max_acceleration = 12,
  max_rotation = 2, max_angular_acceleration = 20,
}
local bad = {
  radius = { -1, "must be a positive number, got -1" },
  target_radius = { -1, "must be a non-negative number, got -1" },
  slow_radius = { 0, "must be a positive number, got 0" },
  time_to_target = { 0, "must be a positive number, got 0" },
  orientation = { 0 / 0, "must be a finite number, got nan" },
  max_prediction = { -2, "must be a positive number, got -2" },
  arrive_on_overshoot = { 1, "must be a boolean, got 1" },
  wander_offset = { math.huge, "must be a finite number, got inf" },
  wander_radius = { -1, "must be a non-negative number, got -1" },
  wander_rate = { -1, "must be a non-negative number, got -1" },
  path_offset = { -math.huge, "must be a finite number, got -inf" },
  predict_time = { -1, "must be a non-negative number, got -1" },
  decay_coefficient = { 0, "must be a positive number, got 0" },
  law = { "cubic", "must be one of 'inverse_square', 'linear', got 'cubic'" },
  cone_threshold = { 2, "must be a number in [-1, 1], got 2" },
  panic_radius = { 0, "must be a positive number, got 0" },
  lookahead = { 0, "must be a positive number, got 0" },
  avoid_distance = { -1, "must be a non-negative number, got -1" },
  rays = { "laser", "must be one of 'single', 'whiskers', 'parallel', got 'laser'" },
  whisker_angle = { 2, "must be at most pi/2, got 2" },
  whisker_scale = { 1.5, "must be a number in (0, 1], got 1.5" },
  scale_lookahead = { "yes", "must be a boolean, got 'yes'" },
  epsilon = { -1, "must be a non-negative number, got -1" },
  max_speed = { -1, "must be a non-negative number, got -1" },
  max_acceleration = { "fast", "must be a non-negative number, got 'fast'" },
  max_rotation = { 0 / 0, "must be a finite number, got nan" },
  max_angular_acceleration = { true, "must be a non-negative number, got true" },
}

local function near(a, b) return math.abs(a - b) < 1e-6 end

-- steer.<name>(opts) called by name, so error messages name the function
-- (a call through steer[name] is reported as '?', as for any Lua function)
local function make(name, opts)
  return assert(support.load("local steer, opts = ...; return steer." .. name .. "(opts)", "=make"))(steer, opts)
end

describe("behaviour constructors", function()
  for name, entry in pairs(catalogue) do
    local class, defaults = entry[1], entry[2]
    describe(name, function()
      it("makes a " .. class .. " with the notes' defaults", function()
        local b = steer[name]{}
        assert.are.equal(class, getmetatable(b)) -- locked: the class name
        assert.are.equal(name, b.type)
        assert.truthy(tostring(b):find(class .. "{", 1, true))
        for option, default in pairs(defaults) do
          local v = b[option]
          if type(default) == "number" then
            assert.is_true(near(v, default), option .. " = " .. tostring(v))
          else
            assert.are.equal(default, v, option)
          end
        end
        for _, limit in ipairs(LIMITS) do assert.is_nil(b[limit], limit .. " inherits") end
        for option in pairs(entry.optional or {}) do assert.is_nil(b[option]) end
      end)

      it("takes every option in its table and reads it back", function()
        local opts = {}
        for option in pairs(defaults) do opts[option] = good[option] end
        for option in pairs(entry.optional or {}) do opts[option] = good[option] end
        for _, limit in ipairs(LIMITS) do opts[limit] = good[limit] end
        local b = steer[name](opts)
        for option, v in pairs(opts) do assert.are.equal(v, b[option], option) end
      end)

      it("has every option as a live, typed property", function()
        local b = steer[name]{}
        local options = {}
        for option in pairs(defaults) do options[#options + 1] = option end
        for option in pairs(entry.optional or {}) do options[#options + 1] = option end
        for _, limit in ipairs(LIMITS) do options[#options + 1] = limit end
        table.sort(options, function(x, y) return x == "slow_radius" or (y ~= "slow_radius" and x < y) end)
        for _, option in ipairs(options) do
          b[option] = good[option]
          assert.are.equal(good[option], b[option], option)
          local value, phrase = bad[option][1], bad[option][2]
          assert.are.equal(("bad property '%s' of %s (%s)"):format(option, class, phrase),
                           err(function() b[option] = value end))
          assert.are.equal(good[option], b[option], option .. " unchanged after a refused value")
        end
        for _, limit in ipairs(LIMITS) do
          b[limit] = nil
          assert.is_nil(b[limit])
        end
      end)

      it("rejects a bad option naming the field", function()
        for option in pairs(defaults) do
          local value, phrase = bad[option][1], bad[option][2]
          local msg = err(make, name, { [option] = value })
          assert.are.equal(("bad argument #1 to '%s' (field '%s' %s)"):format(name, option, phrase), msg)
        end
      end)

      it("rejects unknown fields and properties", function()
        assert.are.equal(("bad argument #1 to '%s' (unknown field 'max_sped')"):format(name),
                         err(make, name, { max_sped = 1 }))
        local b = steer[name]{}
        assert.are.equal(class .. " has no property 'max_sped'", err(function() return b.max_sped end))
        assert.are.equal(class .. " has no property 'max_sped'", err(function() b.max_sped = 1 end))
        if not entry.target then
          assert.are.equal(("bad argument #1 to '%s' (unknown field 'target')"):format(name),
                           err(make, name, { target = { 1, 2 } }))
        end
      end)
    end)
  end
end)

describe("the exact messages", function()
  it("pins the issue's examples", function()
    assert.are.equal("bad argument #1 to 'arrive' (field 'slow_radius' must be a positive number, got -3)",
                     err(function() return steer.arrive{ slow_radius = -3 } end))
    assert.are.equal("bad argument #1 to 'arrive' (field 'target_radius' must not exceed slow_radius (4), got 5)",
                     err(function() return steer.arrive{ target_radius = 5, slow_radius = 4 } end))
    assert.are.equal("bad argument #1 to 'arrive' (field 'slow_radius' must not be less "
                     .. "than target_radius (0.5), got 0.2)",
                     err(function() return steer.arrive{ slow_radius = 0.2 } end))
    assert.are.equal("bad argument #1 to 'arrive' (field 'target_radius' must not exceed slow_radius (3), got 5)",
                     err(function() return steer.arrive{ target_radius = 5 } end))
    assert.are.equal("bad argument #1 to 'separation' (field 'law' must be one of "
                     .. "'inverse_square', 'linear', got 'cubic')",
                     err(function() return steer.separation{ law = "cubic" } end))
    assert.are.equal("bad argument #1 to 'arrive' (field 'time_to_target' must be a number, got 'x')",
                     err(function() return steer.arrive{ time_to_target = "x" } end))
    assert.are.equal("bad argument #1 to 'arrive' (field 'time_to_target' must be a number, got table)",
                     err(function() return steer.arrive{ time_to_target = {} } end))
    assert.are.equal("bad argument #1 to 'arrive' (table expected, got number)",
                     err(function() return steer.arrive(3) end))
    local b = steer.arrive{ target_radius = 1 }
    assert.are.equal("bad property 'slow_radius' of steer.Arrive (must not be less than target_radius (1), got 0.5)",
                     err(function() b.slow_radius = 0.5 end))
    assert.are.equal("property 'type' of steer.Arrive is read-only", err(function() b.type = "seek" end))
    assert.are.equal("calling 'get_steering' on bad self (steer behaviour expected, got table)",
                     err(function() local t = { get_steering = b.get_steering }; return t:get_steering() end))
  end)
end)

describe("targets", function()
  it("are agents or points, read back as given", function()
    local w = steer.world{}
    local hero = w:spawn{ x = 1, y = 2 }
    local s = steer.seek{ target = hero }
    assert.are.equal(hero, s.target)
    s.target = { 3, 4 }
    assert.are.same({ 3, 4 }, s.target)
    s.target = { x = 5, y = 6 }
    assert.are.same({ 5, 6 }, s.target)
    s.target = nil
    assert.is_nil(s.target)
    assert.are.equal("bad property 'target' of steer.Seek (must be an agent or a point {x, y}, got 3)",
                     err(function() s.target = 3 end))
    assert.are.equal("bad argument #1 to 'seek' (field 'target' must be a point of finite numbers)",
                     err(function() return steer.seek{ target = { 0 / 0, 1 } } end))
    assert.are.equal("bad argument #1 to 'align' (field 'target' must be an agent (align to "
                     .. "a fixed angle with 'orientation'), got table)",
                     err(function() return steer.align{ target = { 1, 2 } } end))
    hero:remove()
    assert.are.equal("attempt to use a removed agent", err(function() s.target = hero end))
  end)

  -- every 2-D point read from Lua goes through one checker (bindings/laux.c):
  -- exactly two numbers, so a third value is an error, not dropped
  it("are points of exactly two numbers, wherever a point is read", function()
    local two = "must be a point {x, y} of two numbers, got "
    local shape = "must be a point {x, y} or {x = x, y = y}"
    assert.are.equal("bad argument #1 to 'seek' (field 'target' " .. two .. "3 values)",
                     err(function() return steer.seek{ target = { 1, 2, 3 } } end))
    assert.are.equal("bad argument #1 to 'seek' (field 'target' " .. two .. "1 value)",
                     err(function() return steer.seek{ target = { 1 } } end))
    assert.are.equal("bad argument #1 to 'seek' (field 'target' " .. shape .. ", got an empty table)",
                     err(function() return steer.seek{ target = {} } end))
    assert.are.equal("bad argument #1 to 'arrive' (field 'target' " .. shape .. " of two numbers, got 'a' at [2])",
                     err(function() return steer.arrive{ target = { 1, "a" } } end))
    assert.are.equal("bad argument #1 to 'seek' (field 'target' " .. shape .. ", got an extra field 'z')",
                     err(function() return steer.seek{ target = { x = 1, y = 2, z = 3 } } end))
    assert.are.equal("bad argument #1 to 'seek' (field 'target' " .. shape .. " of two numbers, got nil at y)",
                     err(function() return steer.seek{ target = { x = 1 } } end))
    assert.are.equal("bad argument #1 to 'seek' (field 'target' " .. shape .. ", not both)",
                     err(function() return steer.seek{ target = { 1, 2, x = 3 } } end))
    assert.are.equal("bad argument #1 to 'seek' (field 'target' " .. shape .. ", got an extra key [3])",
                     err(function() return steer.seek{ target = { [1] = 1, [3] = 2 } } end))
    local s = steer.flee{}
    assert.are.equal("bad property 'target' of steer.Flee (" .. two .. "3 values)",
                     err(function() s.target = { 1, 2, 3 } end))
    -- the same checker reads paths, polygons, goals, navigation and anchor points
    local w = steer.world{}
    local a = w:spawn{}
    assert.are.equal("bad property 'goal' of steer.Agent (" .. two .. "3 values)",
                     err(function() a.goal = { 1, 2, 3 } end))
    assert.are.equal("bad argument #1 to 'path' (field '[2]' " .. two .. "3 values)",
                     err(function() return steer.path{ { 0, 0 }, { 1, 1, 0 } } end))
    assert.are.equal("bad argument #1 to 'add_polygon' (field '[3]' " .. two .. "3 values)",
                     err(function() w:add_polygon{ { 0, 0 }, { 1, 0 }, { 0, 1, 1 } } end))
    assert.are.equal("bad argument #1 to 'find_path' (field 'to' " .. two .. "3 values)",
                     err(function() w:find_path{ from = { 0, 0 }, to = { 1, 1, 1 } } end))
    assert.are.equal("bad argument #1 to 'flow_field' (field 'bounds' must be a table {x1, y1, x2, y2}, got 5 values)",
                     err(function() w:flow_field{ goal = { 1, 1 }, bounds = { 0, 0, 5, 5, 1 } } end))
    assert.are.equal("bad argument #1 to 'formation' (field 'anchor.target' " .. two .. "3 values)",
                     err(function() return steer.formation{ world = w, anchor = { target = { 1, 2, 3 } } } end))
    assert.are.equal("bad argument #1 to 'formation' (field 'pattern[1]' must be an offset "
                     .. "{dx, dy[, orientation]}, got 4 values)",
                     err(function() return steer.formation{ world = w, pattern = { { 1, 2, 0, 5 } } } end))
    -- finite in Lua but an infinity as a float: the limit every number has
    assert.are.equal("bad argument #1 to 'seek' (field 'target' must be a point of numbers at most 3.4e38 "
                     .. "in magnitude, got 1e+39)", err(function() return steer.seek{ target = { 1e39, 0 } } end))
    -- the documented forms still work: {x, y}, {x = , y = }, offsets with an orientation
    assert.are.same({ 1, 2 }, steer.seek{ target = { x = 1, y = 2 } }.target)
    assert.is_truthy(steer.formation{ world = w, pattern = { { 1, 2, 0.5 }, { -1, 2 } } })
    w:close()
  end)
end)

describe("follow_path", function()
  it("takes a path made by world:path or steer.path", function()
    local w = steer.world{}
    local p = w:path{ { 0, 0 }, { 10, 0 }, { 10, 10 }, loop = true }
    local f = steer.follow_path{ path = p, path_offset = 2 }
    assert.are.equal(p, f.path)
    assert.are.equal(3, #p)
    assert.are.equal(true, p.loop)
    assert.is_true(near(p.length, 10 + 10 + math.sqrt(200)))
    local x, y = p:point(2)
    assert.are.equal(10, x); assert.are.equal(0, y)
    x, y = p:position(15)
    assert.are.equal(10, x); assert.are.equal(5, y)
    assert.is_true(near(p:param(5, 1), 5))
    f.path = steer.path{ { 0, 0 }, { 1, 0 } }
    assert.are.equal(2, #f.path)
    assert.are.equal("bad argument #1 to 'path' (field '[2]' repeats the point before it)",
                     err(function() return steer.path{ { 0, 0 }, { 0, 0 } } end))
    assert.are.equal("bad argument #1 to 'path' (a path needs at least 2 points, got 1)",
                     err(function() return steer.path{ { 0, 0 } } end))
    assert.are.equal("bad argument #1 to 'path' (unknown field 'looped')",
                     err(function() return w:path{ { 0, 0 }, { 1, 1 }, looped = true } end))
    assert.are.equal("bad property 'path' of steer.FollowPath (must be a path or nil, got table)",
                     err(function() f.path = { { 0, 0 }, { 1, 0 } } end))
  end)
end)

describe("combinators", function()
  it("blend a list of {behaviour, weight = w}", function()
    local s, c = steer.separation{ radius = 2 }, steer.cohesion{ radius = 8 }
    local b = steer.blend{ { s, weight = 2 }, { c, weight = 1 }, steer.alignment{}, max_acceleration = 30 }
    assert.are.equal("steer.Blend", getmetatable(b))
    local ch = b.children
    assert.are.equal(3, #ch)
    assert.are.equal(s, ch[1][1]); assert.are.equal(2, ch[1].weight)
    assert.are.equal(c, ch[2][1]); assert.are.equal(1, ch[3].weight)
    assert.are.equal(30, b.max_acceleration)
    b.children = { { c, weight = 0.5 } }
    assert.are.equal(1, #b.children)
    assert.are.equal(0.5, b.children[1].weight)
  end)

  it("priority takes behaviours and epsilon, nestable", function()
    local flock = steer.blend{ { steer.separation{}, weight = 2 } }
    local p = steer.priority{ steer.obstacle_avoidance{}, flock, epsilon = 1e-3 }
    assert.is_true(near(p.epsilon, 1e-3))
    assert.are.equal(flock, p.children[2])
    local outer = steer.blend{ { p, weight = 1 } }
    assert.are.equal(p, outer.children[1][1])
  end)

  it("refuse bad items, unknown fields and cycles", function()
    local s = steer.seek{}
    assert.are.equal("bad argument #1 to 'blend' (field '[1]' has an unknown field 'wieght')",
                     err(function() return steer.blend{ { s, wieght = 2 } } end))
    assert.are.equal("bad argument #1 to 'blend' (field '[2]' must be a behaviour or {behaviour, weight = w}, got 3)",
                     err(function() return steer.blend{ s, 3 } end))
    assert.are.equal("bad argument #1 to 'blend' (field '[1].weight' must be a finite number, got nan)",
                     err(function() return steer.blend{ { s, weight = 0 / 0 } } end))
    assert.are.equal("bad argument #1 to 'priority' (field '[1]' must be a behaviour, got table)",
                     err(function() return steer.priority{ { s } } end))
    assert.are.equal("bad argument #1 to 'priority' (unknown field 'epsilom')",
                     err(function() return steer.priority{ s, epsilom = 1 } end))
    assert.are.equal("bad argument #1 to 'priority' (field 'epsilon' must be a non-negative number, got -1)",
                     err(function() return steer.priority{ s, epsilon = -1 } end))
    local a = steer.blend{ s }
    local b = steer.priority{ a }
    assert.are.equal("bad property 'children' of steer.Blend (a behaviour cannot contain itself)",
                     err(function() a.children = { b } end))
    assert.are.equal("bad property 'children' of steer.Blend (a behaviour cannot contain itself)",
                     err(function() a.children = { a } end))
    assert.are.equal("bad property 'children[1]' of steer.Priority (must be a behaviour, got 1)",
                     err(function() b.children = { 1 } end))
  end)

  it("refuse nesting deeper than 200", function()
    local b = steer.seek{}
    for _ = 1, 199 do b = steer.blend{ b } end
    assert.are.equal("bad argument #1 to 'blend' (would nest more than 200 levels deep)",
                     err(function() return steer.blend{ b } end))
  end)

  it("hold the nesting limit however the tree is built (the children property)", function()
    -- grown from the bottom, one level at a time: every ancestor deepens;
    -- then stepped, in a function so that only the world holds the tree after
    local function grow_and_step()
      local top = steer.blend{}
      local b, levels = top, 1
      local message
      for _ = 1, 20000 do
        local nb = steer.blend{ steer.seek{ target = { 1, 0 } } }
        local ok = pcall(function() b.children = { nb } end)
        if not ok then message = err(function() b.children = { nb } end) break end
        b, levels = nb, levels + 1
      end
      local w = steer.world{}
      w:spawn{ steering = top }
      w:step(1 / 60)
      return w, levels, message
    end
    local w, levels, message = grow_and_step()
    assert.are.equal("bad property 'children' of steer.Blend (would nest more than 200 levels deep)", message)
    assert.are.equal(199, levels)
    w:close()
    collectgarbage()
  end)

  it("refuse shared sub-trees that unfold past 1024 nodes, in linear time", function()
    local b = steer.seek{}
    local message
    for _ = 1, 30 do
      local ok, e = pcall(function() return steer.blend{ b, b } end)
      if not ok then message = err(function() return steer.blend{ b, b } end) break end
      b = e
    end
    assert.are.equal("bad argument #1 to 'blend' (would make a tree of more than 1024 nodes " ..
                     "(shared behaviours count once per use))", message)
    -- the same through the property, and the check is linear: 30 doublings
    -- of sharing below the limit's reach stay instant
    local chain = steer.seek{}
    for _ = 1, 9 do chain = steer.blend{ chain, chain } end
    local top = steer.blend{}
    assert.truthy(err(function() top.children = { chain, chain, chain } end):find("more than 1024 nodes", 1, true))
  end)

  it("refuse trees needing more per-agent memory than an agent has", function()
    local wanders = {}
    for i = 1, 9 do wanders[i] = steer.wander{} end
    assert.are.equal("bad argument #1 to 'blend' (would need more than 8 floats of per-agent memory " ..
                     "(wander, follow_path and obstacle_avoidance take 1 each))",
                     err(function() return steer.blend(wanders) end))
  end)

  it("name the behaviour of a {behaviour, weight} entry", function()
    assert.are.equal("bad argument #1 to 'blend' (field '[1][1]' must be a behaviour, got nil)",
                     err(function() return steer.blend{ { nil, weight = 1 } } end))
  end)
end)
