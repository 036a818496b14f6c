-- fuzz_lua.lua: a seeded op-sequence fuzzer for the steer Lua API.
--
--   steer-lua fuzz_lua.lua --seed N [--count K] [--ops N] [--avoid-known|--no-avoid-known]
--   steer-lua fuzz_lua.lua --seconds S [--ops N] [--timeout T]
--
-- Each seed drives a fresh random sequence of API calls (worlds, agents,
-- behaviours of every type, combinators, Lua behaviours that spawn and remove
-- from inside a step, shapes, rays, paths, collection, closing) with valid,
-- extreme and invalid values. Every call runs under pcall: errors are fine,
-- crashes are not. After every operation the invariants are checked (all
-- agent state finite, speed <= max_speed after a step, orientation in
-- (-pi, pi], world:count() equal to the fuzzer's own count, removed agents'
-- handles raise, ray hits and previews finite, a preview changes nothing);
-- a broken one prints the seed, the op index and the replay command, and the
-- exit status is 1. --seconds runs fresh seeds, each in its own process (so a
-- crash or a hang is caught too), until the time is up.
--
-- --avoid-known (the default) steers around the open defects of issue 9 so
-- that the suite is green before their fixes land; see KNOWN below.
local steer = require "steer"

local KNOWN = [[
--avoid-known steers around these open findings of issue 9:
  #1  nesting through .children: combinator depth capped at 150
  #2  shared sub-trees: expanded tree size capped at 512 (sharing depth 9; evaluating
      bigger shared trees from Lua agents makes a seed take seconds)
  #3,4 denormal ray directions: rays with 0 < |direction| < 1e-18 are skipped
  #5  contact resolution near surfaces: coordinates with 0 < |v| < 1e-30 become 0,
      and worlds with resolve_contacts = true get no agent spawned at a circle centre
  #6  follow_path path_offset: |path_offset| capped at 1e37
  #7  blend weight overflow: |weight| capped at 1e3, Lua behaviours return at most 1e15
  #10 tiny cell_size: cell_size below 1e-30 is not tried
  #13 get_steering of a Lua behaviour: no world change is tried from inside it
(#8, #9, #11, #12, #14 are not avoided: #9 is C only, the others do not break an invariant here)]]

local opts = { seed = nil, count = 1, ops = 2000, seconds = nil, avoid = false, timeout = 120,
  verbose = false }
do
  local i = 1
  while i <= #arg do
    local a = arg[i]
    if a == "--seed" then opts.seed = math.tointeger(tonumber(arg[i + 1])); i = i + 1
    elseif a == "--count" then opts.count = math.tointeger(tonumber(arg[i + 1])); i = i + 1
    elseif a == "--ops" then opts.ops = math.tointeger(tonumber(arg[i + 1])); i = i + 1
    elseif a == "--seconds" then opts.seconds = tonumber(arg[i + 1]); i = i + 1
    elseif a == "--timeout" then opts.timeout = tonumber(arg[i + 1]); i = i + 1
    elseif a == "--avoid-known" then opts.avoid = true
    elseif a == "--no-avoid-known" then opts.avoid = false
    elseif a == "--verbose" then opts.verbose = true
    elseif a == "--known" then print(KNOWN); os.exit(0)
    else
      io.stderr:write("usage: fuzz_lua.lua (--seed N [--count K] | --seconds S) [--ops N] [--avoid-known]"
        .. " [--verbose] [--known]\n")
      os.exit(2)
    end
    i = i + 1
  end
  if not opts.ops or (not opts.seed and not opts.seconds) or not opts.count then
    io.stderr:write("fuzz_lua.lua: give --seed N or --seconds S (and integer --ops, --count)\n")
    os.exit(2)
  end
end

local TRACE = os.getenv("FUZZ_TRACE") -- each operation's index and name on stderr
local INTERP = arg[-1] or "steer-lua"
local SCRIPT = arg[0]
local function replay_command(seed)
  return string.format("%s %s --seed %d --ops %d%s", INTERP, SCRIPT, seed, opts.ops,
    opts.avoid and " --avoid-known" or "")
end

local R = math.random
local function chance(p) return R() < p end
local function pick(t) return t[R(#t)] end
local FLT_MAX = 3.4028234663852886e38
local PI_F = 3.1415927410125732 -- float(pi): the engine wraps into (-PI_F, PI_F]
local NAN = 0 / 0

local function finite(x) return type(x) == "number" and x == x and x > -math.huge and x < math.huge end

local EXTREME = { 0, -0.0, 1e-45, -1e-45, 1.4e-45, 1e-40, 1e-38, 1e-30, 1e-7, 3.4e38, -3.4e38, FLT_MAX,
  -FLT_MAX, 1e30, -1e30, 1e20, 2 ^ 24 + 1, 2 ^ 53, math.maxinteger, math.mininteger, 2 ^ 63, 1e300, -1e300,
  math.pi, -math.pi, 2 * math.pi, 1, -1, 0.5, 1e15, -1e15, 1e16 }
local INVALID = { NAN, -NAN, math.huge, -math.huge, "1", "abc", true, false, {}, function() end }

-- the per-seed state (reset by run_seed)
local S

local function violation(fmt, ...)
  if not S.violation then S.violation = string.format(fmt, ...) end
end

-- A number for a field: mostly plain, some extreme, some invalid of any type.
local function any_value()
  local r = R()
  if r < 0.5 then return (R() * 2 - 1) * pick { 1, 10, 100 }
  elseif r < 0.6 then return R(-5, 20)
  elseif r < 0.85 then return pick(EXTREME)
  elseif r < 0.97 then return pick(INVALID)
  else return nil end
end

-- Coordinates: as any_value, but known defect #5 avoided (tiny non-zero -> 0).
local function coord()
  local v = any_value()
  if opts.avoid and type(v) == "number" and v ~= 0 and math.abs(v) < 1e-30 then v = 0 end
  return v
end
local function small() return (R() * 2 - 1) * 20 end

local ROLES = { "shield", "archer", "scout" } -- agent roles and formation slot roles

local FIELD_KIND = {
  target = "target", radius = "pos", time_to_target = "pos", target_radius = "nonneg", slow_radius = "slow",
  orientation = "finite", max_prediction = "pos", arrive_on_overshoot = "bool", wander_offset = "finite",
  wander_radius = "nonneg", wander_rate = "nonneg", path = "path", path_offset = "path_offset",
  predict_time = "nonneg", decay_coefficient = "pos", law = { "inverse_square", "linear" },
  cone_threshold = "cos", panic_radius = "pos", lookahead = "pos", avoid_distance = "nonneg",
  rays = { "single", "whiskers", "parallel" }, whisker_angle = "angle", whisker_scale = "unit",
  scale_lookahead = "bool", max_speed = "nonneg", max_acceleration = "nonneg", max_rotation = "nonneg",
  max_angular_acceleration = "nonneg", epsilon = "nonneg",
  preferred = "behaviour", time_horizon = "pos", obstacle_time_horizon = "pos", max_neighbours = "neighbours",
}
local LIMIT_FIELDS = { "max_speed", "max_acceleration", "max_rotation", "max_angular_acceleration" }
local FACE = { "target_radius", "slow_radius", "time_to_target" }
local function cat(a, b)
  local t = {}
  for _, v in ipairs(a) do t[#t + 1] = v end
  for _, v in ipairs(b) do t[#t + 1] = v end
  return t
end
-- an array (not a map) so that the order of draws is the same in every run
local TYPES = {
  { "kinematic_seek", { "target" } }, { "kinematic_flee", { "target" } },
  { "kinematic_arrive", { "target", "radius", "time_to_target" } }, { "kinematic_wander", {} },
  { "seek", { "target" } }, { "flee", { "target", "panic_radius" } },
  { "arrive", cat({ "target" }, FACE) }, { "align", cat({ "target", "orientation" }, FACE) },
  { "velocity_match", { "target", "time_to_target" } },
  { "pursue", cat({ "target", "max_prediction", "arrive_on_overshoot" }, FACE) },
  { "evade", { "target", "max_prediction", "panic_radius" } }, { "face", cat({ "target" }, FACE) },
  { "look_where_you_are_going", FACE },
  { "wander", cat({ "wander_offset", "wander_radius", "wander_rate" }, FACE) },
  { "follow_path", cat({ "path", "path_offset", "predict_time" }, FACE) },
  { "separation", { "radius", "decay_coefficient", "law" } }, { "cohesion", { "radius" } },
  { "alignment", { "radius", "time_to_target" } }, { "collision_avoidance", { "radius", "cone_threshold" } },
  { "obstacle_avoidance",
    { "lookahead", "avoid_distance", "rays", "whisker_angle", "whisker_scale", "scale_lookahead" } },
  { "reciprocal_avoidance", { "preferred", "radius", "time_horizon", "obstacle_time_horizon", "max_neighbours" } },
}
local ALL_FIELDS = {}
for _, t in ipairs(TYPES) do for _, f in ipairs(t[2]) do ALL_FIELDS[#ALL_FIELDS + 1] = f end end
for _, f in ipairs(LIMIT_FIELDS) do ALL_FIELDS[#ALL_FIELDS + 1] = f end

local function misspell(name)
  local i = R(#name)
  local r = R(3)
  if r == 1 then return name:sub(1, i - 1) .. name:sub(i + 1)
  elseif r == 2 then return name .. "s"
  else return name:sub(1, i - 1) .. string.char(R(97, 122)) .. name:sub(i + 1) end
end

local function live_agent()
  local ws = {}
  for _, W in ipairs(S.worlds) do if #W.agents > 0 then ws[#ws + 1] = W end end
  if #ws == 0 then return nil end
  local W = pick(ws)
  return pick(W.agents), W
end
local function some_agent()
  if #S.removed > 0 and chance(0.15) then return pick(S.removed) end
  return live_agent()
end

local function path_points()
  local n = chance(0.1) and R(0, 3) or R(2, 8)
  local pts = {}
  for i = 1, n do
    if chance(0.9) then pts[i] = { small(), small() }
    elseif chance(0.5) then pts[i] = { x = coord(), y = coord() }
    else pts[i] = { coord(), coord() } end
  end
  if n >= 2 and chance(0.1) then pts[2] = pts[1] end -- consecutive duplicates are refused
  return pts
end

local function value_for(kind)
  if type(kind) == "table" then
    if chance(0.9) then return pick(kind) end
    return chance(0.5) and "cubic" or any_value()
  end
  if chance(0.3) then
    local v = any_value()
    if kind == "path_offset" and opts.avoid and finite(v) and math.abs(v) > 1e37 then v = 1e37 end
    return v
  end
  if kind == "pos" then return R() * 10 + 0.01
  elseif kind == "nonneg" then return R() * 10
  elseif kind == "slow" then return R() * 10 + 3
  elseif kind == "finite" or kind == "path_offset" then return small()
  elseif kind == "bool" then return chance(0.5)
  elseif kind == "cos" then return chance(0.2) and nil or R() * 2 - 1
  elseif kind == "angle" then return R() * 1.5
  elseif kind == "unit" then return R() * 0.99 + 0.01
  elseif kind == "target" then
    local r = R()
    if r < 0.4 then return { small(), small() }
    elseif r < 0.5 then return { x = small(), y = small() }
    elseif r < 0.85 then return (some_agent()) or { 0, 0 }
    else return pick { false, "agent", { 1 }, { coord(), coord() }, nil } end
  elseif kind == "path" then
    if #S.paths > 0 and chance(0.9) then return pick(S.paths) end
    return chance(0.5) and { 1, 2 } or nil
  elseif kind == "behaviour" then
    return S.some_behaviour()
  elseif kind == "neighbours" then
    return chance(0.9) and R(1, 64) or pick { 0, 65, 1.5, -1 }
  end
  return any_value()
end

-- Behaviour metadata for --avoid-known (#1, #2): nesting depth and expanded
-- size, measured through the .children property, memoised per measurement.
local function measure(b, memo)
  memo = memo or {}
  if memo[b] then return memo[b][1], memo[b][2] end
  local ok, children = pcall(function() return b.children end)
  local depth, size = 1, 1
  if ok and type(children) == "table" then
    for _, c in ipairs(children) do
      local cb = type(c) == "table" and c[1] or c
      if cb ~= nil then
        local d, s = measure(cb, memo)
        if d + 1 > depth then depth = d + 1 end
        size = size + s
      end
    end
  end
  memo[b] = { depth, size }
  return depth, size
end
local MAX_DEPTH_AVOID, MAX_SIZE_AVOID = 150, 512

local function add_behaviour(b)
  if #S.behaviours < 40 then S.behaviours[#S.behaviours + 1] = b
  else S.behaviours[R(#S.behaviours)] = b end
end
local function some_behaviour()
  if #S.behaviours == 0 or chance(0.05) then return pick { nil, 1, "seek", {} } end
  return pick(S.behaviours)
end
-- (value_for is defined above some_behaviour and reaches it through S)

local function weight()
  local w = chance(0.7) and R() * 4 - 1 or any_value()
  if opts.avoid and finite(w) and math.abs(w) > 1e3 then w = 1e3 end
  return w
end

-- Children list in the constructor's form: b, {b, weight = w}, or junk.
local function child_list(n)
  local list = {}
  for i = 1, n do
    local b = some_behaviour()
    local r = R()
    if r < 0.45 then list[i] = b
    elseif r < 0.9 then list[i] = { b, weight = weight() }
    elseif r < 0.95 then list[i] = { b, wieght = 1 }
    else list[i] = pick { 1, "x", true, { nil, weight = 1 } } end
  end
  return list
end

-- Would these children make a tree beyond the --avoid-known caps?
local function too_big(list)
  if not opts.avoid then return false end
  local memo, depth, size = {}, 1, 1
  for _, c in ipairs(list) do
    local b = type(c) == "table" and c[1] or c
    if type(b) == "userdata" then
      local d, s = measure(b, memo)
      if d + 1 > depth then depth = d + 1 end
      size = size + s
    end
  end
  return depth > MAX_DEPTH_AVOID or size > MAX_SIZE_AVOID
end

local function note_children(list)
  for _, c in ipairs(list) do
    local b = type(c) == "table" and c[1] or c
    if type(b) == "userdata" then S.has_parent[b] = true end
  end
end

---------------------------------------------------------------------------------------------
-- contexts: which worlds are stepping, and previews in progress
local function world_busy(W)
  for _, c in ipairs(S.ctx) do if c.W == W then return c.kind end end
  return nil
end
local function in_preview()
  for _, c in ipairs(S.ctx) do if c.kind == "get" then return true end end
  return false
end
local function any_stepping()
  for _, c in ipairs(S.ctx) do if c.kind == "step" then return true end end
  return false
end

local function forget_agent(W, a)
  W.removal_pending = true -- formations drop removed members at the next step
  for i, x in ipairs(W.agents) do
    if x == a then table.remove(W.agents, i) break end
  end
  if #S.removed < 60 then S.removed[#S.removed + 1] = a else S.removed[R(#S.removed)] = a end
end

local function close_world_record(W)
  for i, x in ipairs(S.worlds) do if x == W then table.remove(S.worlds, i) break end end
  for _, a in ipairs(W.agents) do
    if #S.removed < 60 then S.removed[#S.removed + 1] = a else S.removed[R(#S.removed)] = a end
  end
  W.agents = {}
  W.closed = true
end

-- A world change tried from a Lua behaviour. `busy` is how the world is in use.
local function mutate_from_callback(W)
  local busy = world_busy(W)
  -- #13: previews let Lua behaviours change the world (known, avoided)
  if opts.avoid and in_preview() then return end
  local r = R(8)
  local ok, what
  if r == 1 then
    what = "spawn"
    local a
    ok, a = pcall(W.w.spawn, W.w, { x = small(), y = small() })
    if ok then W.count = W.count + 1; W.agents[#W.agents + 1] = a; S.owner[a] = W end
  elseif r == 2 and #W.agents > 0 then
    what = "remove"
    local a = pick(W.agents)
    ok = pcall(a.remove, a)
    if ok then W.count = W.count - 1; forget_agent(W, a) end
  elseif r == 3 and #W.agents > 0 then
    what = "set_position"
    local a = pick(W.agents)
    ok = pcall(a.set_position, a, small(), small())
  elseif r == 4 and #W.agents > 0 then
    what = "steering"
    local a = pick(W.agents)
    ok = pcall(function() a.steering = some_behaviour() end)
  elseif r == 5 then
    what = "step"
    if busy or #S.ctx > 3 then
      ok = pcall(W.w.step, W.w, 1 / 60)
    else
      S.step_world(W, 1 / 60)
      return
    end
  elseif r == 6 then
    what = "close"
    ok = pcall(W.w.close, W.w)
    if ok then close_world_record(W) end
  elseif r == 7 and #S.formations > 0 then
    -- a formation's members or properties (refused while its world steps)
    local F = pick(S.formations)
    if F.W ~= W or F.destroyed then return end
    local q = R(3)
    if q == 1 and #W.agents > 0 then what = "formation add"; ok = pcall(function() F.f:add(pick(W.agents)) end)
    elseif q == 2 then what = "formation spacing"; ok = pcall(function() F.f.spacing = R() * 3 + 0.5 end)
    else what = "formation reassign"; ok = pcall(function() F.f:reassign() end) end
    if ok and busy ~= "step" then return end -- a change outside a step is fine and not counted
  else
    what = "cell_size"
    ok = pcall(function() W.w.cell_size = 2 end)
  end
  if ok and busy then
    violation("a Lua behaviour changed a world (%s) while it was %s", what,
      busy == "step" and "stepping" or "previewed by get_steering")
  end
  if ok then S.mutations = S.mutations + 1 end
end

local function callback_body(agent)
  S.calls = S.calls + 1
  if S.calls > 3000 then return 0.5, 0.5 end
  local r = R(100)
  if r <= 5 then
    error(pick { "fuzz error", "", setmetatable({}, { __tostring = function() error("bad tostring") end }), 42 })
  elseif r <= 25 then
    local ctx = S.ctx[#S.ctx]
    local W = ctx and ctx.W
    if chance(0.3) or not W then W = pick(S.worlds) end
    if W then mutate_from_callback(W) end
  elseif r <= 35 then
    -- no behaviour may change while a world steps or is previewed (lua-api.md)
    local b = some_behaviour()
    local f = pick(ALL_FIELDS)
    local ok = pcall(function() b[f] = value_for(FIELD_KIND[f], f) end)
    if ok and type(b) == "userdata" and (any_stepping() or in_preview() and not opts.avoid) then
      violation("%s.%s changed from a Lua behaviour mid-step", tostring(b.type), f)
    end
  elseif r <= 40 and #S.ctx < 4 then
    local b = some_behaviour()
    local a, W = live_agent()
    if a and type(b) == "userdata" then S.preview(b, a, W) end
  elseif r <= 45 then
    pcall(function()
      local _ = agent.x + agent.vx + agent.orientation + agent.speed + agent.max_speed
      local t = agent.steering
      return t
    end)
  elseif r <= 48 then
    collectgarbage("step")
  elseif r >= 90 then
    -- a new, unattached behaviour built during a step simply works
    local kind = pick { "seek", "arrive", "blend", "priority", "reciprocal_avoidance" }
    local seek = steer.seek { target = { 1, 2 } }
    local ok, err
    if kind == "blend" then ok, err = pcall(steer.blend, { seek, { seek, weight = 2 } })
    elseif kind == "priority" then ok, err = pcall(steer.priority, { seek, steer.wander {} })
    elseif kind == "reciprocal_avoidance" then ok, err = pcall(steer.reciprocal_avoidance, { preferred = seek })
    else ok, err = pcall(steer[kind], { target = { 3, 4 } }) end
    if not ok then violation("building a %s in a Lua behaviour raised: %s", kind, tostring(err)) end
  elseif r <= 52 then
    local b = some_behaviour()
    pcall(function() b.children = child_list(1) end)
    if any_stepping() then
      -- children must not change while any world steps (the binding refuses)
      local ok = pcall(function() b.children = {} end)
      if ok and type(b) == "userdata" and (b.type == "blend" or b.type == "priority") then
        violation("a combinator's children changed while a world was stepping")
      end
    end
  end
  local out = R(10)
  if out <= 6 then return small(), small(), chance(0.5) and small() or nil
  elseif out == 7 then return nil
  elseif out == 9 then return "x", {}
  end
  local lx, ly, la = any_value(), any_value(), any_value()
  if out == 10 then lx, ly, la = 1e38, -1e38, 1e38 end
  if opts.avoid then
    -- #7: huge outputs overflow a blend's weighted sum
    if finite(lx) and math.abs(lx) > 1e15 then lx = 1e15 end
    if finite(ly) and math.abs(ly) > 1e15 then ly = 1e15 end
    if finite(la) and math.abs(la) > 1e15 then la = 1e15 end
  end
  return lx, ly, la
end

local function make_lua_behaviour()
  local ok, b = pcall(steer.behaviour, function(agent) return callback_body(agent) end)
  if ok then add_behaviour(b) end
  if chance(0.05) then pcall(steer.behaviour, pick { 1, "f", nil, {} }) end
end

---------------------------------------------------------------------------------------------
-- invariants

local function check_removed()
  for _, a in ipairs(S.removed) do
    local ok = pcall(function() return a.x end)
    if ok then violation("a removed agent's handle did not raise on .x") end
    local ok2, alive = pcall(a.alive, a)
    if not ok2 then violation("alive() raised on a removed agent: %s", tostring(alive))
    elseif alive then violation("alive() is true for a removed agent") end
  end
end

-- A behaviour tree as text, for failure reports.
local function describe(b, depth)
  depth = depth or 0
  if depth > 4 then return "..." end
  local ok, text = pcall(tostring, b)
  if not ok then return "?" end
  local okc, children = pcall(function() return b.children end)
  if okc and type(children) == "table" then
    local parts = {}
    for _, c in ipairs(children) do
      parts[#parts + 1] = string.format("{%s, weight=%s}", describe(c[1], depth + 1), tostring(c.weight))
    end
    text = text .. "[" .. table.concat(parts, ", ") .. "]"
  end
  return text
end
local function describe_agent(a)
  local ok, text = pcall(function()
    return string.format("%s vx=%.9g vy=%.9g o=%.9g rot=%.9g radius=%s max_speed=%s max_acc=%s max_rot=%s"
      .. " max_ang=%s drag=%s kinematic=%s face=%s steering=%s",
      tostring(a), a.vx, a.vy, a.orientation, a.rotation, a.radius, a.max_speed, a.max_acceleration, a.max_rotation,
      a.max_angular_acceleration, a.drag, a.kinematic, a.face_velocity, describe(a.steering))
  end)
  return ok and text or "?"
end

local function check_agent(a, W)
  local x, y, vx, vy = a.x, a.y, a.vx, a.vy
  local o, rot, ms = a.orientation, a.rotation, a.max_speed
  local values = { x, y, vx, vy, o, rot, ms }
  for i, name in ipairs { "x", "y", "vx", "vy", "orientation", "rotation", "max_speed" } do
    if not finite(values[i]) then
      violation("agent %s is not finite: %s (%s, world resolve_contacts=%s)", name, tostring(values[i]),
        describe_agent(a), tostring(W.w.resolve_contacts))
    end
  end
  if not (o > -PI_F and o <= PI_F) then violation("orientation %.17g outside (-pi, pi]", o) end
  if not W.dirty then
    local speed = math.sqrt(vx * vx + vy * vy)
    if speed > ms * (1 + 1e-5) + 1e-30 then
      violation("speed %.9g above max_speed %.9g after a step (%s%s)", speed, ms, describe_agent(a),
        W.rigid and ", a world with a rigid formation" or "")
    end
  end
  local lx, ly, la = a:last_steering()
  if not (finite(lx) and finite(ly) and finite(la)) then
    violation("last_steering not finite: %s %s %s (agent %s)", tostring(lx), tostring(ly),
      tostring(la), describe_agent(a))
  end
  if not a:alive() then violation("alive() false for a live agent") end
end

local function check_world(W)
  local ok, err = pcall(function()
    local n = W.w:count()
    if n ~= W.count then violation("world:count() = %d, the fuzzer counts %d", n, W.count) end
    local seen = 0
    for a in W.w:agents() do
      seen = seen + 1
      check_agent(a, W)
    end
    if seen ~= n then violation("world:agents() visits %d agents, count() = %d", seen, n) end
    local h = W.w:hash()
    if math.type(h) ~= "integer" then violation("hash is not an integer") end
  end)
  if not ok then violation("checking a live world raised: %s", tostring(err)) end
end

local function check_all()
  for _, W in ipairs(S.worlds) do check_world(W) end
  check_removed()
  S.check_formations()
end

---------------------------------------------------------------------------------------------
-- operations

local function new_world()
  local o = {}
  if chance(0.8) then o.seed = chance(0.9) and R(0, 1000) or pick { -1, 2 ^ 63, 1.5, "x", math.maxinteger } end
  if chance(0.3) then o.integrator = pick { "euler", "newton", "verlet", 1 } end
  if chance(0.3) then
    local c = chance(0.6) and R() * 8 + 0.1 or any_value()
    if opts.avoid and finite(c) and c > 0 and c < 1e-30 then c = 1e-30 end
    o.cell_size = c
  end
  if chance(0.2) then o.capacity = pick { 0, 1, 5, 1000, -1, 2 ^ 40, 1.5 } end
  if chance(0.4) then o.resolve_contacts = chance(0.8) or "yes" end
  if chance(0.3) then o.resolve_agent_contacts = chance(0.9) or 1 end
  if chance(0.6) then o.workers = chance(0.95) and R(1, 4) or pick { 0, 65, 1.5, "2", -1 } end
  if chance(0.05) then o[misspell("cell_size")] = 1 end
  local ok, w = pcall(steer.world, o)
  if ok then
    S.worlds[#S.worlds + 1] = { w = w, agents = {}, shapes = {}, circles = {}, count = 0, dirty = false,
      formations = {} }
    return
  end
end

local AGENT_OPTS = { "x", "y", "orientation", "vx", "vy", "rotation", "radius", "max_speed",
  "max_acceleration", "max_rotation", "max_angular_acceleration", "drag", "kinematic", "face_velocity",
  "steering", "role", "tag", "key" }

local function agent_value(f, clean)
  if f == "kinematic" or f == "face_velocity" then return chance(0.9) and chance(0.5) or any_value() end
  if f == "steering" then return some_behaviour() end
  if f == "role" then return chance(0.8) and pick(ROLES) or pick { "", 1, true } end
  if f == "tag" then return chance(0.8) and pick { "hero", "boid", "" } or any_value() end
  if f == "key" then return chance(0.7) and R(1, 1 << 40) or any_value() end
  if f == "x" or f == "y" then return (clean or chance(0.7)) and small() or coord() end
  if clean or chance(0.7) then
    if f == "max_speed" or f == "max_acceleration" then return R() * 20 end
    return R() * 5
  end
  return any_value()
end

local function spawn(W)
  if W.count > 80 then return end
  local o = {}
  local clean = chance(0.7)
  for _, f in ipairs(AGENT_OPTS) do
    if chance(f == "steering" and 0.8 or 0.25) then o[f] = agent_value(f, clean) end
  end
  if clean and type(o.steering) ~= "userdata" then o.steering = nil end
  if clean and o.key then o.key = nil end
  if chance(0.03) then o[misspell(pick(AGENT_OPTS))] = 1 end
  local ok, a = pcall(W.w.spawn, W.w, o)
  if ok then
    W.count = W.count + 1
    W.agents[#W.agents + 1] = a
    S.owner[a] = W
  end
end

local AGENT_PROPS = { "radius", "max_speed", "max_acceleration", "max_rotation", "max_angular_acceleration",
  "drag", "kinematic", "face_velocity", "steering", "role", "tag", "x", "speed", "key", "hp" }

local function agent_op()
  local a, W = some_agent()
  if not a then return end
  local r = R(12)
  if r <= 4 then
    local f = pick(AGENT_PROPS)
    if f == "hp" and chance(0.5) then f = misspell(pick(AGENT_PROPS)) end
    pcall(function() a[f] = agent_value(f) end)
    if W and (f == "max_speed" or f:find("max_sp")) then W.dirty = true end
    if W and f == "kinematic" then W.dirty = true end
  elseif r == 5 then
    pcall(a.set_position, a, coord(), coord())
  elseif r == 6 then
    pcall(a.set_velocity, a, chance(0.7) and small() or any_value(), any_value())
    if W then W.dirty = true end
  elseif r == 7 then
    pcall(a.set_orientation, a, any_value(), chance(0.5) and any_value() or nil)
  elseif r == 8 then
    pcall(a.set_steering, a, some_behaviour(), chance(0.5))
  elseif r == 9 then
    local ok = pcall(a.remove, a)
    if W and ok then W.count = W.count - 1; forget_agent(W, a) end
  elseif r == 10 then
    for _, m in ipairs { "position", "velocity", "heading", "last_steering", "alive" } do
      local res = table.pack(pcall(a[m], a))
      if res[1] and W then
        for i = 2, res.n do
          if type(res[i]) == "number" and not finite(res[i]) then violation("agent:%s() not finite", m) end
        end
      end
    end
  elseif r == 11 then
    -- wrong self
    pcall(a.set_position, pick { {}, 1, some_behaviour() }, 1, 2)
  else
    local ok, s = pcall(tostring, a)
    if not ok then violation("tostring(agent) raised: %s", tostring(s)) end
  end
end

local function new_behaviour()
  local t = pick(TYPES)
  local o = {}
  for _, f in ipairs(t[2]) do
    if chance(0.6) then o[f] = value_for(FIELD_KIND[f], f) end
  end
  for _, f in ipairs(LIMIT_FIELDS) do
    if chance(0.05) then o[f] = value_for("nonneg", f) end
  end
  if chance(0.05) then o[misspell(pick(ALL_FIELDS))] = 1 end
  if chance(0.03) then o[pick(ALL_FIELDS)] = value_for(FIELD_KIND[pick(ALL_FIELDS)]) end
  local ok, b = pcall(steer[t[1]], chance(0.98) and o or pick { 1, "x", nil })
  if ok then add_behaviour(b) end
end

local function behaviour_prop()
  local b = some_behaviour()
  if type(b) ~= "userdata" then return end
  local f = chance(0.9) and pick(ALL_FIELDS) or pick { "type", "children", "bogus", misspell(pick(ALL_FIELDS)) }
  if chance(0.5) then
    local v = value_for(FIELD_KIND[f] or "finite", f)
    local ok = pcall(function() b[f] = v end)
    if ok and finite(v) then
      local ok2, back = pcall(function() return b[f] end)
      if ok2 and type(back) == "number" and not finite(back) then
        violation("%s.%s = %.17g reads back %s", tostring(b.type), f, v, tostring(back))
      end
    end
  else
    pcall(function() return b[f] end)
  end
  if chance(0.1) then pcall(tostring, b) end
end

local function new_combinator()
  local kind = chance(0.5) and "blend" or "priority"
  local list = child_list(R(0, 4))
  if too_big(list) then return end
  if kind == "priority" and chance(0.4) then list.epsilon = value_for("nonneg") end
  if chance(0.1) then list[pick(LIMIT_FIELDS)] = value_for("nonneg") end
  if chance(0.03) then list.epsilom = 1 end
  local ok, b = pcall(steer[kind], list)
  if ok then note_children(list); add_behaviour(b) end
end

local function set_children()
  local b = some_behaviour()
  if type(b) ~= "userdata" then return end
  if chance(0.3) then
    local ok, c = pcall(function() return b.children end)
    if ok and c ~= nil and type(c) ~= "table" then violation(".children read back a %s", type(c)) end
    return
  end
  if opts.avoid and S.has_parent[b] then return end
  local list = child_list(R(0, 3))
  if chance(0.1) then list = { b } end -- itself: refused
  if too_big(list) then return end
  local ok = pcall(function() b.children = list end)
  if ok then note_children(list) end
end

-- Deep nesting, one level at a time through .children (#1).
local function deep_chain()
  local levels = opts.avoid and R(1, MAX_DEPTH_AVOID - 2) or (chance(0.1) and R(1000, 30000) or R(1, 400))
  local ok, top = pcall(steer.blend, {})
  if not ok then return end
  local b = top
  for _ = 1, levels do
    local okn, nb = pcall(steer.blend, { steer.seek { target = { 1, 0 } } })
    if not okn then break end
    if not pcall(function() b.children = { nb } end) then break end
    b = nb
  end
  add_behaviour(top)
end

-- Shared sub-trees: b = blend{b, b} k times (#2).
local function doubling()
  local k = opts.avoid and R(1, 12) or R(1, 30)
  local b = some_behaviour()
  if type(b) ~= "userdata" then return end
  if opts.avoid then
    local _, s = measure(b)
    if s * (1 << k) > MAX_SIZE_AVOID or S.has_parent[b] and false then return end
  end
  for _ = 1, k do
    local ok, nb = pcall(steer.blend, { b, { b, weight = weight() } })
    if not ok then break end
    S.has_parent[b] = true
    b = nb
  end
  add_behaviour(b)
end

local function step_world(W, dt)
  local before = W.w.steps
  S.ctx[#S.ctx + 1] = { W = W, kind = "step" }
  local ok, err = pcall(W.w.step, W.w, dt)
  table.remove(S.ctx)
  if W.closed then return end
  local okc, after = pcall(function() return W.w.steps end)
  if okc and after ~= before then
    W.dirty = false; W.removal_pending = false
    S.steps = S.steps + 1; S.agent_steps = S.agent_steps + W.count
  end
  if opts.verbose and not ok then print("  step: " .. tostring(err):match("[^\n]*")) end
end

local function preview(b, a, W)
  local hash_before = W and not W.closed and W.w:hash()
  local m = S.mutations
  S.ctx[#S.ctx + 1] = { W = W, kind = "get" }
  local res = table.pack(pcall(b.get_steering, b, a, chance(0.8) and nil or any_value()))
  table.remove(S.ctx)
  if res[1] then
    if res[2] ~= nil then
      for i = 2, 4 do
        if not finite(res[i]) then
          violation("get_steering of a %s returned %s", tostring(b.type), tostring(res[i]))
        end
      end
    end
  end
  if hash_before and not W.closed and S.mutations == m then
    local ok, h = pcall(W.w.hash, W.w)
    if ok and h ~= hash_before then violation("get_steering of a %s changed the world", tostring(b.type)) end
  end
end

local function ray(W)
  local x, y, dx, dy = coord(), coord(), coord(), coord()
  if chance(0.6) then x, y, dx, dy = small(), small(), small(), small() end
  if chance(0.1) then dx, dy = pick { 1e-45, 1e-40, 0, -0.0, 1e-20 }, pick { 0, 1e-45 } end
  if opts.avoid and finite(dx) and finite(dy) then
    local len = math.sqrt(dx * dx + dy * dy)
    if len > 0 and len < 1e-18 then return end -- #3, #4
  end
  local maxd = chance(0.7) and R() * 50 or any_value()
  local filter
  if chance(0.4) then
    filter = { mask = chance(0.8) and R(0, 7) or any_value(), agents = chance(0.5),
      ignore = chance(0.3) and (some_agent()) or nil }
    if chance(0.05) then filter.agent = true end
  end
  local res = table.pack(pcall(W.w.raycast, W.w, x, y, dx, dy, maxd, filter))
  if res[1] and res[2] ~= nil then
    local nx, ny, d, hit = res[4], res[5], res[6], res[7]
    for i = 2, 6 do
      if not finite(res[i]) then violation("raycast returned a non-finite value %s (#%d)", tostring(res[i]), i - 1) end
    end
    if finite(d) and (d < 0 or d > maxd * (1 + 1e-6)) then violation("ray hit distance %g outside [0, %g]", d, maxd) end
    if finite(nx) and finite(ny) and math.abs(math.sqrt(nx * nx + ny * ny) - 1) > 1e-3 then
      violation("ray normal (%g, %g) is not a unit vector", nx, ny)
    end
    if hit == nil then violation("ray hit without a hit object")
    else
      local ok, alive = pcall(hit.alive, hit)
      if not ok or not alive then violation("ray hit a dead %s", tostring(hit)) end
    end
  end
end

local function shape_op(W)
  local r = R(7)
  local ok, s
  if r == 1 then ok, s = pcall(W.w.add_wall, W.w, coord(), coord(), coord(), coord())
  elseif r == 2 then
    local cx, cy, rad = coord(), coord(), chance(0.7) and R() * 3 or any_value()
    if chance(0.6) then cx, cy = small(), small() end
    ok, s = pcall(W.w.add_circle, W.w, cx, cy, rad)
    if ok then W.circles[#W.circles + 1] = { cx, cy } end
  elseif r == 3 then
    if chance(0.6) then ok, s = pcall(W.w.add_box, W.w, small(), small(), small(), small())
    else ok, s = pcall(W.w.add_box, W.w, coord(), coord(), coord(), coord()) end
  elseif r == 4 then
    local n = R(1, 18)
    local pts = {}
    if chance(0.7) then
      local cx, cy, rad = small(), small(), chance(0.8) and R() * 4 + 0.01 or coord()
      if type(rad) ~= "number" then rad = 1 end
      for i = 1, n do
        local t = 2 * math.pi * i / n
        pts[i] = { cx + rad * math.cos(t), cy + rad * math.sin(t) }
      end
    else
      for i = 1, n do pts[i] = { coord(), coord() } end
    end
    ok, s = pcall(W.w.add_polygon, W.w, chance(0.97) and pts or pick { 1, {}, { 1, 2 } })
  elseif r == 5 then
    local pts = path_points()
    pts.loop = chance(0.5)
    ok, s = pcall(W.w.add_polyline, W.w, pts)
  elseif r == 6 and #W.shapes > 0 then
    local sh = pick(W.shapes)
    local q = R(4)
    if q == 1 then pcall(sh.remove, sh)
    elseif q == 2 then pcall(sh.set_category, sh, chance(0.7) and R(0, 7) or any_value())
    elseif q == 3 then pcall(function() return sh.type, sh:alive(), sh == pick(W.shapes) end)
    else pcall(tostring, sh) end
  else
    ray(W)
  end
  if ok and s then
    if #W.shapes < 40 then W.shapes[#W.shapes + 1] = s else W.shapes[R(#W.shapes)] = s end
  end
end

local function path_op()
  local pts = path_points()
  if chance(0.3) then pts.loop = chance(0.8) and chance(0.5) or any_value() end
  local W = pick(S.worlds)
  local ok, p
  if W and chance(0.5) then ok, p = pcall(W.w.path, W.w, pts) else ok, p = pcall(steer.path, pts) end
  if ok then
    if #S.paths < 10 then S.paths[#S.paths + 1] = p else S.paths[R(#S.paths)] = p end
    local ok2, err = pcall(function()
      local len = p.length
      if not finite(len) or len <= 0 then violation("path length %s", tostring(len)) end
      local _, _, _ = #p, p.loop, p:point(1)
      local d = small() * 3
      local px, py = p:position(d)
      if not (finite(px) and finite(py)) then violation("path:position(%g) not finite", d) end
      local t = p:param(small(), small())
      if not finite(t) then violation("path:param not finite") end
    end)
    if not ok2 then violation("reading a valid path raised: %s", tostring(err)) end
  end
  if chance(0.2) and #S.paths > 0 then
    local q = pick(S.paths)
    pcall(q.position, q, any_value()); pcall(q.param, q, any_value(), any_value()); pcall(q.point, q, any_value())
  end
end

local function world_prop(W)
  local f = pick { "integrator", "cell_size", "resolve_contacts", "resolve_agent_contacts", "steps", "workers",
    "sped", "cell_sise" }
  local v
  if f == "integrator" then v = pick { "euler", "newton", "rk4", 1 }
  elseif f == "cell_size" then
    v = chance(0.6) and R() * 8 + 0.05 or any_value()
    if opts.avoid and finite(v) and v > 0 and v < 1e-30 then v = 1e-30 end
  elseif f == "resolve_contacts" then v = chance(0.9) and chance(0.5) or any_value()
  else v = any_value() end
  if chance(0.7) then pcall(function() W.w[f] = v end) else pcall(function() return W.w[f] end) end
end

local function world_reads(W)
  local r = R(5)
  if r == 1 then
    local ok, list = pcall(W.w.query, W.w, coord(), coord(), chance(0.7) and R() * 30 or any_value())
    if ok then
      if #list > W.count then violation("query returned %d agents of %d", #list, W.count) end
      for _, a in ipairs(list) do if not a:alive() then violation("query returned a dead agent") end end
    end
  elseif r == 2 then
    -- removal while iterating
    local ok, err = pcall(function()
      for a in W.w:agents() do
        if chance(0.2) then
          a:remove()
          W.count = W.count - 1
          forget_agent(W, a)
        end
      end
    end)
    if not ok then violation("removing while iterating raised: %s", tostring(err)) end
  elseif r == 3 then
    -- drop the fuzzer's proxies, collect, find the agents again
    W.agents = {}
    collectgarbage("collect")
    for a in W.w:agents() do W.agents[#W.agents + 1] = a; S.owner[a] = W end
  elseif r == 4 then
    pcall(W.w.step, pick { {}, 1, some_behaviour() }, 1 / 60) -- bad self
    pcall(W.w.spawn, W.w, pick { 1, "x", true })
  else
    pcall(tostring, W.w)
  end
end

local function collect_op()
  local r = R(6)
  if r == 1 and #S.behaviours > 0 then
    for _ = 1, R(1, #S.behaviours) do table.remove(S.behaviours, R(#S.behaviours)) end
  elseif r == 2 and #S.worlds > 0 and chance(0.5) then
    -- drop a world without closing it; keep a few of its proxies
    local W = table.remove(S.worlds, R(#S.worlds))
    for i = #S.formations, 1, -1 do
      if S.formations[i].W == W then
        if chance(0.3) then S.orphan_formations[#S.orphan_formations + 1] = S.formations[i].f end
        table.remove(S.formations, i)
      end
    end
    for _, a in ipairs(W.agents) do if chance(0.3) then S.orphans[#S.orphans + 1] = a end end
    for _, s in ipairs(W.shapes) do if chance(0.3) then S.orphans[#S.orphans + 1] = s end end
  elseif r == 3 then
    S.paths = {}
  elseif r == 4 then
    S.removed = {}
    S.orphans = {}
    S.orphan_formations = {}
  elseif r == 5 then
    for _, W in ipairs(S.worlds) do if #W.shapes > 0 and chance(0.5) then W.shapes = {} end end
  end
  collectgarbage(chance(0.7) and "collect" or "step")
  for _, f in ipairs(S.orphan_formations) do
    -- a formation of a dropped (maybe collected) world: reads work or raise
    pcall(function() return f.slot_count, f.members end)
    local ok, err = pcall(tostring, f)
    if not ok then violation("tostring of an orphaned formation raised: %s", tostring(err)) end
  end
  for _, o in ipairs(S.orphans) do
    pcall(function() return o.x end)
    local ok, err = pcall(o.alive, o)
    if not ok then violation("alive() raised on an orphaned proxy: %s", tostring(err)) end
  end
end

local function close_op()
  local W = pick(S.worlds)
  if not W then return end
  local ok, err = pcall(W.w.close, W.w)
  if not ok then violation("closing a world raised: %s", tostring(err)) return end
  close_world_record(W)
  local ok2 = pcall(W.w.count, W.w)
  if ok2 then violation("a closed world's count() did not raise") end
  pcall(W.w.close, W.w) -- closing twice is harmless
  if chance(0.3) then W.w = nil; collectgarbage() end
end

-- Module functions with any value: finite in, finite out.
local function module_op()
  local a, b = any_value(), any_value()
  local ok, x, y = pcall(steer.heading, a)
  if ok and finite(a) and not (finite(x) and finite(y)) then violation("steer.heading(%.17g) not finite", a) end
  local ok2, o = pcall(steer.orientation_of, a, b)
  if ok2 then
    if finite(a) and finite(b) and not finite(o) then
      violation("steer.orientation_of(%.17g, %.17g) not finite", a, b)
    end
    if finite(o) and not (o > -PI_F and o <= PI_F) then violation("steer.orientation_of gave %.17g", o) end
  end
end

---------------------------------------------------------------------------------------------
-- formations (issue 20): members, leaders, anchors, costs, removal, sub-formations

local PATTERNS = { "line", "column", "v", "circle", "defensive_circle", "grid" }

local function fpattern()
  local r = R(10)
  if r <= 6 then return pick(PATTERNS) end
  if r <= 8 then
    local t = {}
    for i = 1, (chance(0.05) and 0 or R(1, 12)) do
      local dx, dy = small(), small()
      if chance(0.1) then dx = coord() end
      t[i] = chance(0.5) and { dx, dy } or { dx, dy, chance(0.8) and small() or any_value() }
    end
    if chance(0.05) then t[#t + 1] = pick { 1, "x", {} } end
    return t
  end
  if r == 9 then
    return function(i, n)
      if chance(0.03) then error("pattern error") end
      if chance(0.03) then return "x" end
      local dx = (i - (n + 1) / 2) * 2
      if chance(0.05) then dx = any_value() end
      return dx, -2, chance(0.5) and small() or nil
    end
  end
  return pick { "wedge", 1, true }
end

local function fslot_roles()
  local r = R(6)
  if r <= 3 then
    local t = {}
    for i = 1, R(0, 10) do t[i] = pick(ROLES) end
    return t
  elseif r == 4 then
    return function()
      if chance(0.03) then error("slot_roles error") end
      return chance(0.97) and pick(ROLES) or 7
    end
  elseif r == 5 then return nil end
  return pick { 1, "x", { 1, 2 } }
end

local function cost_number()
  if chance(0.75) then return R() * 10 end
  return pick { math.huge, -1, 0, 1e300, -1e300, NAN, -math.huge, 3e38, -3e38, "x", true }
end

local function fcosts()
  local r = R(8)
  if r <= 4 then
    local t = {}
    for _, a in ipairs(ROLES) do
      if chance(0.6) then
        t[a] = {}
        for _, b in ipairs(ROLES) do if chance(0.5) then t[a][b] = cost_number() end end
      end
    end
    if chance(0.05) then t[pick(ROLES)] = pick { 5, "x", true } end
    return t
  elseif r == 5 then
    return function(member, slot)
      if chance(0.02) then error("costs error") end
      if chance(0.02) then
        -- removing a member while the costs are evaluated (refused: issue 20 #10)
        local W = S.owner[member]
        if W and pcall(member.remove, member) then W.count = W.count - 1; S.forget_agent(W, member) end
      end
      return chance(0.95) and R() * 5 + (tonumber(slot) or 0) or cost_number()
    end
  elseif r == 6 then return nil end
  return pick { 5, "x", { shield = 5 } }
end

local function fanchor()
  local a = { x = chance(0.9) and small() or coord(), y = small() }
  if chance(0.3) then a.orientation = chance(0.8) and small() or any_value() end
  local r = R(5)
  if r == 1 then a.target = chance(0.5) and { small(), small() } or (some_agent())
  elseif r == 2 then a.path = (#S.paths > 0 and chance(0.9)) and pick(S.paths) or 1
  elseif r == 3 then a.steering = some_behaviour() end
  if chance(0.3) then a.max_speed = chance(0.8) and R() * 5 or any_value() end
  if chance(0.2) then a.max_acceleration = chance(0.8) and R() * 10 or any_value() end
  if chance(0.2) then a.max_rotation = chance(0.8) and R() * 4 or any_value() end
  if chance(0.03) then a.colour = 1 end
  return a
end

local function some_member_agent(W)
  if #W.agents > 0 and chance(0.93) then return pick(W.agents) end
  return (some_agent()) or pick { 1, "x" }
end

-- A formation error is fine; "not enough memory" is what an engine assertion
-- reached from Lua looks like in an optimised build (#10).
local function formation_error(what, err)
  if tostring(err):find("not enough memory", 1, true) then violation("%s raised %s", what, tostring(err)) end
end

local function new_formation()
  local W = pick(S.worlds)
  if not W then return end
  local o = {}
  if #W.agents > 0 and chance(0.8) then
    o.members = {}
    for i = 1, R(0, math.min(#W.agents, 12)) do o.members[i] = some_member_agent(W) end
  end
  if #W.agents > 0 and chance(0.5) then o.leader = some_member_agent(W)
  elseif chance(0.7) then o.anchor = fanchor() end
  if chance(0.05) then o.anchor = fanchor() end -- with a leader: refused
  if (not o.members and not o.leader) or chance(0.1) then o.world = chance(0.95) and W.w or 1 end
  if chance(0.7) then o.pattern = fpattern() end
  if chance(0.4) then o.spacing = chance(0.8) and R() * 4 + 0.1 or any_value() end
  if chance(0.3) then o.motion = chance(0.95) and pick { "steer", "rigid", "emergent" } or "fly" end
  if chance(0.3) then o.assignment = chance(0.95) and pick { "optimal", "ordered" } or "best" end
  if chance(0.4) then o.slot_roles = fslot_roles() end
  if chance(0.4) then o.costs = fcosts() end
  if chance(0.2) then o.distance_weight = chance(0.8) and R() * 3 or any_value() end
  if chance(0.2) then o.moderation_distance = chance(0.8) and R() * 3 + 0.1 or any_value() end
  if chance(0.2) then o.steering = chance(0.9) and chance(0.5) or 1 end
  if chance(0.03) then o[misspell("spacing")] = 1 end
  local ok, f = pcall(steer.formation, o)
  if not ok then formation_error("steer.formation", f) return end
  -- its world: the leader's, else the first member's, else `world`
  local first = o.leader or (o.members and o.members[1])
  if first ~= nil then W = S.owner[first] or W end
  local F = { f = f, W = W, leader = o.leader }
  S.formations[#S.formations + 1] = F
  W.has_formation = true
  if o.motion == "rigid" then W.rigid = true end
  if chance(0.3) then add_behaviour(f:behaviour()) end
end

local function formation_value(prop)
  if prop == "pattern" then return fpattern()
  elseif prop == "spacing" then return chance(0.8) and R() * 4 + 0.1 or any_value()
  elseif prop == "motion" then return chance(0.95) and pick { "steer", "rigid", "emergent" } or "fly"
  elseif prop == "assignment" then return chance(0.95) and pick { "optimal", "ordered" } or 2
  elseif prop == "slot_roles" then return fslot_roles()
  elseif prop == "costs" then return fcosts()
  elseif prop == "distance_weight" then return chance(0.8) and R() * 3 or any_value()
  elseif prop == "moderation_distance" then return chance(0.8) and R() * 3 + 0.1 or any_value()
  end
  return any_value()
end

local function formation_op()
  local F = pick(S.formations)
  if not F then return end
  local f, W = F.f, F.W
  -- f:m(...) under pcall (indexing a destroyed formation raises too)
  local function call(m, ...)
    local args = table.pack(...)
    return pcall(function() return f[m](f, table.unpack(args, 1, args.n)) end)
  end
  if TRACE then
    local okm, members = pcall(function() return F.f.members end)
    local parts = {}
    if okm then
      for _, m in ipairs(members) do parts[#parts + 1] = tostring(m) .. (m:alive() and "" or " (removed)") end
    end
    pcall(function()
      io.stderr:write(string.format("  motion %s pattern %s spacing %s assignment %s dw %s md %s anchor %s\n", f.motion,
        type(f.pattern) == "table" and "{...}" or tostring(f.pattern), f.spacing, f.assignment, f.distance_weight,
        f.moderation_distance, table.concat({ f:anchor() }, " ")))
    end)
    io.stderr:write(string.format("  %s leader %s members %s\n", tostring(F.f),
      F.leader and tostring(F.leader) .. (F.leader:alive() and "" or " (removed)") or "none",
      table.concat(parts, ", ")))
  end
  local r = R(16)
  local ok, err, what
  if r <= 3 then
    what = "add"
    ok, err = call("add", some_member_agent(W))
  elseif r <= 5 then
    what = "remove"
    local okm, members = pcall(function() return f.members end)
    local a = (okm and #members > 0 and chance(0.85)) and pick(members) or some_member_agent(W)
    ok, err = call("remove", a)
  elseif r <= 7 then
    what = pick { "pattern", "spacing", "motion", "assignment", "slot_roles", "costs", "distance_weight",
      "moderation_distance", "members", "slot_count", "bogus" }
    local v = formation_value(what)
    ok, err = pcall(function() f[what] = v end)
    if ok and what == "motion" and v == "rigid" then W.rigid = true end
  elseif r == 8 then
    what = "leader"
    local a = nil
    if chance(0.7) then a = some_member_agent(W) end
    ok, err = pcall(function() f.leader = a end)
    if ok then F.leader = a end
  elseif r == 9 then
    -- a sub-formation: one of the members leads a formation of its own
    what = "sub-formation"
    local okm, members = pcall(function() return f.members end)
    if okm and #members > 0 and #W.agents > 0 then
      local lead = pick(members)
      local sub = {}
      for i = 1, R(1, 4) do sub[i] = some_member_agent(W) end
      local g
      ok, g = pcall(steer.formation, { leader = lead, members = sub, pattern = pick(PATTERNS),
        motion = chance(0.5) and "emergent" or "steer", spacing = R() * 2 + 0.5 })
      if ok then S.formations[#S.formations + 1] = { f = g, W = W, leader = lead } else err = g end
    end
  elseif r == 10 then
    what = "reads"
    ok, err = pcall(function()
      local okm, members = pcall(function() return f.members end)
      if okm then
        for _, m in ipairs(members) do
          local s = f:slot_of(m)
          if s then
            local x, y, o = f:slot_target(s)
            if x and not (finite(x) and finite(y) and finite(o)) then
              violation("slot_target(%d) not finite: %s %s %s", s, tostring(x), tostring(y), tostring(o))
            end
          end
          f:followed(m)
        end
      end
      local c = f:total_cost()
      if c ~= c then violation("total_cost is NaN") end
      local ax, ay, ao, am = f:anchor()
      if not (finite(ax) and finite(ay) and finite(ao) and finite(am)) then
        violation("anchor() not finite: %s %s %s %s", tostring(ax), tostring(ay), tostring(ao), tostring(am))
      end
      return tostring(f), f.pattern, f.costs, f.slot_roles, f.leader, f.slot_count, f:slot_holder(R(0, 5))
    end)
  elseif r == 11 then
    what = "reassign"
    ok, err = call("reassign")
  elseif r == 12 then
    what = "behaviour"
    local okb, b = call("behaviour")
    if okb then
      add_behaviour(b)
      local a = #W.agents > 0 and pick(W.agents)
      if a then pcall(function() a.steering = b end) end
    end
  elseif r == 13 then
    what = "role"
    local a = #W.agents > 0 and pick(W.agents)
    if a then pcall(function() a.role = chance(0.9) and pick(ROLES) or any_value() end) end
  elseif r == 14 and chance(0.3) then
    what = "destroy"
    ok, err = call("destroy")
    if ok then F.destroyed = true end
  else
    what = "slot_of"
    call("slot_of", some_member_agent(W))
    call("slot_target", pick { 0, 1, 2, 100, -1, NAN, "x" })
  end
  if TRACE then
    io.stderr:write(string.format("  formation %s: %s %s\n", tostring(what), tostring(ok), tostring(err)))
  end
  if ok == false then formation_error("formation " .. what, err) end
end

-- Formation invariants: members alive after a step, distinct slots in
-- range, slot_holder agrees with slot_of, an agent in one formation at most,
-- a destroyed formation (or one of a closed world) raises.
local function check_formations()
  local member_of = {}
  for _, F in ipairs(S.formations) do
    local f, W = F.f, F.W
    local ok, members = pcall(function() return f.members end)
    if F.destroyed or W.closed then
      if ok then
        violation("a %s still reads its members",
          F.destroyed and "destroyed formation" or "formation of a closed world")
      end
    elseif not ok then
      violation("reading a live formation's members raised: %s", tostring(members))
    else
      local n = f.slot_count
      local taken = {}
      for _, m in ipairs(members) do
        if m:alive() then
          if member_of[m] then violation("%s is a member of two formations", tostring(m)) end
          member_of[m] = F
          local s = f:slot_of(m)
          if s ~= nil then
            if math.type(s) ~= "integer" or s < 1 or s > n then
              violation("slot_of gave %s of %d slots", tostring(s), n)
            end
            if taken[s] then violation("two members hold slot %d", s) end
            taken[s] = true
            if f:slot_holder(s) ~= m then violation("slot_holder(%d) is not the member whose slot_of it is", s) end
          end
        elseif not W.removal_pending then
          violation("a removed agent is still a member after a step")
        end
      end
    end
  end
end

---------------------------------------------------------------------------------------------
-- determinism (issue 20): one random scene (formations, reciprocal avoidance,
-- obstacle avoidance, wander, a Lua behaviour, contacts) built with 1 to 4
-- workers and agents spawned in either order (same keys) must give the same
-- hash after the same steps.

local function scene_description()
  local D = { seed = R(0, 1000), integrator = pick { "euler", "newton" }, cell_size = pick { 1, 2, 4, 7.5 },
    resolve_contacts = chance(0.5), resolve_agent_contacts = chance(0.5), steps = R(5, 40), agents = {},
    shapes = {}, formations = {} }
  for i = 1, R(0, 4) do
    D.shapes[i] = { pick { "circle", "box", "wall" }, small(), small(), R() * 3 + 0.5, R() * 3 + 0.5 }
  end
  local n = R(2, 36)
  for i = 1, n do
    D.agents[i] = { key = 1000 + i, x = small(), y = small(), vx = small() * 0.1, vy = small() * 0.1,
      radius = R() * 0.8 + 0.1, max_speed = R() * 4 + 0.5, kind = R(1, 8), tx = small(), ty = small(),
      target = R(1, n), role = pick(ROLES), kinematic = chance(0.1) }
  end
  local free = {}
  for i = 1, n do free[i] = i end
  for k = 1, R(0, 2) do
    local F = { pattern = pick(PATTERNS), motion = pick { "steer", "steer", "rigid", "emergent" },
      assignment = pick { "optimal", "optimal", "ordered" }, spacing = R() * 2 + 0.5, members = {},
      slot_roles = chance(0.5) and { pick(ROLES), pick(ROLES), pick(ROLES) } or nil,
      costs = chance(0.5) and { shield = { archer = R() * 5, scout = math.huge } } or nil }
    if chance(0.5) and #free > 0 then
      F.leader = table.remove(free, R(#free))
    else
      F.anchor = { x = small(), y = small(), target = { small(), small() }, max_speed = R() * 3 + 0.5 }
    end
    for _ = 1, R(0, math.min(#free, 8)) do F.members[#F.members + 1] = table.remove(free, R(#free)) end
    D.formations[k] = F
  end
  if #D.formations == 2 and D.formations[1].members[1] and not D.formations[2].leader then
    -- a member of the first formation leads the second (a sub-formation)
    D.formations[2].anchor = nil
    D.formations[2].leader = D.formations[1].members[1]
  end
  return D
end

local function lua_orbit(agent)
  local lx, ly = agent:last_steering() -- the step before's, whatever the workers (item 8)
  return -agent.y * 0.3 + lx * 0.1, agent.x * 0.3 + ly * 0.1, 0
end

local function build_scene(D, workers, reverse)
  local w = steer.world { seed = D.seed, integrator = D.integrator, cell_size = D.cell_size, workers = workers,
    resolve_contacts = D.resolve_contacts, resolve_agent_contacts = D.resolve_agent_contacts }
  for _, s in ipairs(D.shapes) do
    if s[1] == "circle" then w:add_circle(s[2], s[3], s[4])
    elseif s[1] == "box" then w:add_box(s[2], s[3], s[2] + s[4], s[3] + s[5])
    else w:add_wall(s[2], s[3], s[2] + s[4], s[3] - s[5]) end
  end
  local agents, n = {}, #D.agents
  for j = 1, n do
    local i = reverse and n + 1 - j or j
    local A = D.agents[i]
    agents[i] = w:spawn { key = A.key, x = A.x, y = A.y, vx = A.vx, vy = A.vy, radius = A.radius,
      max_speed = A.max_speed, role = A.role, kinematic = A.kinematic }
  end
  local orbit = steer.behaviour(lua_orbit)
  for i, A in ipairs(D.agents) do
    local goal = { A.tx, A.ty }
    local k, b = A.kind, orbit
    if k == 1 then b = steer.seek { target = goal }
    elseif k == 2 then b = steer.arrive { target = goal, slow_radius = 3 }
    elseif k == 3 then b = steer.wander { wander_rate = 0.8 }
    elseif k == 4 then b = steer.reciprocal_avoidance { preferred = steer.arrive { target = goal, slow_radius = 2 },
      radius = 5, time_horizon = 2 }
    elseif k == 5 then b = steer.priority { steer.obstacle_avoidance { lookahead = 3, rays = "whiskers" },
      steer.wander {} }
    elseif k == 6 then b = steer.blend { { steer.separation { radius = 2 }, weight = 2 },
      { steer.pursue { target = agents[A.target] }, weight = 1 } }
    elseif k == 8 then b = steer.blend { { orbit, weight = 0.5 }, { steer.cohesion { radius = 6 }, weight = 1 } } end
    agents[i].steering = b
  end
  for _, F in ipairs(D.formations) do
    local members = {}
    -- the optimal assignment does not depend on the order of joining
    for j = 1, #F.members do
      local jj = (reverse and F.assignment == "optimal") and #F.members + 1 - j or j
      members[j] = agents[F.members[jj]]
    end
    local ok, err = pcall(steer.formation, { members = members, world = w, pattern = F.pattern, motion = F.motion,
      assignment = F.assignment, spacing = F.spacing, slot_roles = F.slot_roles, costs = F.costs,
      leader = F.leader and agents[F.leader] or nil, anchor = F.anchor })
    -- a costs table forbidding every slot to someone is refused: the same in every build
    if not ok and not tostring(err):find("forbid", 1, true) then error(err) end
  end
  local errs = 0
  for _ = 1, D.steps do
    if not pcall(w.step, w, 1 / 60) then errs = errs + 1 end
  end
  local h, c = w:hash("hex"), w:count()
  w:close()
  return h, c, errs
end

local function determinism_op()
  local D = scene_description()
  local ok, h1, c1 = pcall(build_scene, D, 1, false)
  if not ok then violation("building the determinism scene raised: %s", tostring(h1)) return end
  for _ = 1, 2 do
    local workers, reverse = R(1, 4), chance(0.5)
    local ok2, h2, c2 = pcall(build_scene, D, workers, reverse)
    if not ok2 then violation("building the determinism scene raised: %s", tostring(h2)) return end
    if h2 ~= h1 or c2 ~= c1 then
      violation("determinism: 1 worker in spawn order gives %s (%d agents), %d workers%s give %s (%d agents)"
        .. " (%d agents, %d formations, %d steps)", h1, c1, workers, reverse and " in reverse order" or "", h2, c2,
        #D.agents, #D.formations, D.steps)
      return
    end
  end
end

local OPS = {
  { 1, module_op, "module" },
  { 4, function() if #S.worlds < 3 or #S.worlds < 5 and chance(0.1) then new_world() end end, "world" },
  { 20, function() local W = pick(S.worlds) if W then for _ = 1, R(1, 4) do spawn(W) end end end, "spawn" },
  { 14, agent_op, "agent" },
  { 12, new_behaviour, "behaviour" },
  { 8, behaviour_prop, "behaviour_prop" },
  { 5, new_combinator, "combinator" },
  { 3, set_children, "children" },
  { 1, deep_chain, "deep_chain" },
  { 1, doubling, "doubling" },
  { 3, make_lua_behaviour, "lua_behaviour" },
  { 6, function()
      local b = some_behaviour()
      local a, W = some_agent()
      if type(b) == "userdata" and a then S.preview(b, a, W and S.owner[a] or W) end
    end, "get_steering" },
  { 14, function()
      local W = pick(S.worlds)
      if not W then return end
      local dt = chance(0.85) and pick { 1 / 60, 1 / 60, 0.1, 0.5 } or pick { 0, 1, 1e4, 1e-45, -1, NAN, 1e5, "x" }
      if TRACE then io.stderr:write(string.format("  step dt %s\n", tostring(dt))) end
      S.step_world(W, dt)
    end, "step" },
  { 8, function() local W = pick(S.worlds) if W then shape_op(W) end end, "shape" },
  { 5, function() local W = pick(S.worlds) if W then ray(W) end end, "ray" },
  { 3, path_op, "path" },
  { 3, function() local W = pick(S.worlds) if W then world_prop(W) end end, "world_prop" },
  { 4, function() local W = pick(S.worlds) if W then world_reads(W) end end, "world_reads" },
  { 3, collect_op, "collect" },
  { 1, close_op, "close" },
  { 4, new_formation, "formation" },
  { 10, formation_op, "formation_op" },
  { 1, determinism_op, "determinism" },
}
local TOTAL_WEIGHT = 0
for _, op in ipairs(OPS) do TOTAL_WEIGHT = TOTAL_WEIGHT + op[1] end
local function pick_op()
  local r = R(TOTAL_WEIGHT)
  for _, op in ipairs(OPS) do
    r = r - op[1]
    if r <= 0 then return op end
  end
end

-- Run one seed; returns true when every invariant held.
local function run_seed(seed)
  math.randomseed(seed)
  S = { worlds = {}, behaviours = {}, paths = {}, removed = {}, orphans = {}, ctx = {}, calls = 0, mutations = 0,
    steps = 0, agent_steps = 0,
    owner = setmetatable({}, { __mode = "k" }), has_parent = setmetatable({}, { __mode = "k" }),
    step_world = step_world, preview = preview, some_behaviour = some_behaviour, forget_agent = forget_agent,
    check_formations = check_formations, formations = {}, orphan_formations = {} }
  local last
  for i = 1, opts.ops do
    S.calls = 0
    local op = pick_op()
    last = op[3]
    if TRACE then io.stderr:write(string.format("op %d %s\n", i, last)) end
    local ok, err = pcall(op[2])
    if not ok then violation("the fuzzer's op '%s' raised: %s", op[3], tostring(err)) end
    if not S.violation then check_all() end
    if S.violation then
      print(string.format("FAIL seed %d op %d (%s): %s", seed, i, last, S.violation))
      print("replay: " .. replay_command(seed))
      return false
    end
    if opts.verbose and i % 100 == 0 then print(string.format("seed %d op %d", seed, i)) end
  end
  if opts.verbose then
    local n, b = 0, #S.behaviours
    for _, W in ipairs(S.worlds) do n = n + W.count end
    print(string.format("seed %d: %d steps (%d agent-steps), %d worlds, %d agents, %d behaviours, %d paths",
      seed, S.steps, S.agent_steps, #S.worlds, n, b, #S.paths))
  end
  -- end of the run: close or drop everything, in a random order
  for _, W in ipairs(S.worlds) do if chance(0.5) then pcall(W.w.close, W.w) end end
  S = nil
  collectgarbage("collect")
  return true
end

if opts.seconds then
  local deadline = os.time() + opts.seconds
  local seed = (os.time() * 1000 + math.floor(os.clock() * 1000)) % 1000000007
  local runs, failures, first = 0, 0, seed + 1
  local has_timeout = os.execute("command -v timeout >/dev/null 2>&1")
  while os.time() < deadline do
    seed = seed + 1
    local cmd = replay_command(seed)
    local log = "/tmp/fuzz_lua." .. seed .. ".log"
    local full = (has_timeout and ("timeout -s KILL " .. opts.timeout .. " ") or "") .. cmd .. " >" .. log .. " 2>&1"
    local ok, how, code = os.execute(full)
    runs = runs + 1
    if ok then
      -- an engine assertion reached from Lua prints this line (and aborts a Debug build)
      local f = io.open(log)
      local text = f and f:read("a") or ""
      if f then f:close() end
      if text:find("steer: assertion failed", 1, true) then ok, how, code = false, "assertion", 0 end
    end
    if not ok then
      failures = failures + 1
      print(string.format("FAIL seed %d (%s %s): %s", seed, how, tostring(code), cmd))
      local f = io.open("/tmp/fuzz_lua." .. seed .. ".log")
      if f then
        local text = f:read("a"); f:close()
        io.write((text:gsub("\n*$", "\n")):sub(1, 3000))
      end
    else
      os.remove("/tmp/fuzz_lua." .. seed .. ".log")
    end
  end
  print(string.format("fuzz_lua: %d seeds (%d..%d) x %d ops, %d failing", runs, first, seed, opts.ops, failures))
  os.exit(failures == 0 and 0 or 1)
end

local failed = 0
for seed = opts.seed, opts.seed + opts.count - 1 do
  if not run_seed(seed) then failed = failed + 1 end
end
print(string.format("fuzz_lua: seeds %d..%d x %d ops, %d failing%s", opts.seed, opts.seed + opts.count - 1,
  opts.ops, failed, opts.avoid and " (known findings avoided)" or ""))
os.exit(failed == 0 and 0 or 1)
