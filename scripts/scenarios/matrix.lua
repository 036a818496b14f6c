-- matrix.lua: the crowd matrix (docs/crowds.md, "The matrix (issue 21)"), run by
-- `run.lua --matrix`. Every layout of scripts/scenarios/matrix/ over world
-- seeds, preferred behaviours (arrive, seek; navigate by --pref only), time horizons, max
-- accelerations (times max speed), steps and obstacle time horizons (1 s
-- unless --tau-obst says otherwise; `tau`: the agents' time horizon), each
-- with contact resolution off and on; one table row per setting (worst case over seeds and the two
-- contact settings) and a summary per layout; with --markdown the summaries
-- again as a Markdown table (the same cells). The bigstep layouts (BIG_LAYOUTS)
-- run at their own settings (BIG: big bodies at a long step), as does any
-- layout with --bigstep, and print the contact episodes summed over the runs.
local steer = require "steer"

local CONTACT, ARRIVED = 1e-3, 0.5
local FULL = { seeds = { 1, 2, 3, 4, 5 }, prefs = { "arrive", "seek" }, taus = { 1, 2, 5 },
  accels = { 3, 10, 100 }, dts = { 0.05, 0.1 }, tobs = { 1 }, speed = 1.5 }
-- The bigstep settings (--bigstep, and the layouts that set `bigstep`): a
-- long step and fast big bodies, as a user of RVO2's published example
-- settings would run them (dt 0.25 s, max speed 2 m/s, neighbours within
-- 15 m, 10 of them, obstacle horizon equal to the agents' horizon of 5 or
-- 10 s); RVO2 has no acceleration limit, so 10 and 100 times the max speed
-- (docs/crowds/bigstep21.md).
local BIG = { seeds = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, prefs = { "arrive", "seek" }, taus = { 5, 10 },
  accels = { 10, 100 }, dts = { 0.25 }, tobs = { "tau" }, speed = 2, neighbour_radius = 15 }
local SMALL = { "contend_2", "contend_3", "hallway_shared_20", "junction_20", "exit_12", "gather_12",
  "kinematic", "random_12", "corridor_16", "twoway_16", "goal_line_16", "oneway_20" }
local LARGE = { "hallway_shared", "junction", "exit", "exit_r2", "gather_100", "gather_r2", "random_60", "corridor",
  "twoway_50", "twoway_shared_40", "twoway_door_20", "goal_line_40", "oneway_40", "oneway_shared_40",
  "oneway_narrow_40", "oneway_bend_40", "oneway_stream_60", "oneway_wide_30", "oneway_thin_30", "oneway_park_40",
  "oneway_keep_40" }
-- the layouts at the bigstep settings (docs/crowds/bigstep21.md)
local BIG_LAYOUTS = { "big_junction", "big_gather", "big_cross", "big_swap" }

-- True when (x, y) is at least sqrt(d2) m from every point of `list` (the
-- layouts' random placements: matrix.lua's own, and each generator's, which
-- gets it as its second argument).
local function apart(list, x, y, d2)
  for _, p in ipairs(list) do
    if (p[1] - x) ^ 2 + (p[2] - y) ^ 2 < d2 then return false end
  end
  return true
end

local function load_layout(dir, name, seed)
  local c = assert(loadfile(dir .. "matrix/" .. name .. ".lua"))(dir)
  -- a generator from the world seed for the layouts drawn at random
  local s, drawn = seed * 7919 + 17, 0
  local function rnd()
    -- (a placement by rejection that cannot finish: a clear error, not a hang)
    drawn = drawn + 1
    if drawn > 1e7 then
      error(("layout %s, world seed %d: ten million random draws did not place every agent"
        .. " (more agents than the room holds at their spacing?)"):format(name, seed), 0)
    end
    s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648
  end
  if c.generate then c.agents = c.generate(rnd, apart) end
  if c.random then
    -- starts and goals from the world seed, at least 2.5 m apart
    local function draw(list)
      while true do
        local x, y = (rnd() - 0.5) * c.random.side, (rnd() - 0.5) * c.random.side
        if apart(list, x, y, 2.5 * 2.5) then list[#list + 1] = { x, y }; return x, y end
      end
    end
    local starts, goals = {}, {}
    c.agents = {}
    for _ = 1, c.random.n do
      local x, y = draw(starts)
      local gx, gy = draw(goals)
      c.agents[#c.agents + 1] = { x = x, y = y, gx = gx, gy = gy }
    end
  end
  return c
end

local function preferred(kind, kinematic, gx, gy)
  if kinematic then
    if kind == "seek" then return steer.kinematic_seek{ target = { gx, gy } } end
    return steer.kinematic_arrive{ target = { gx, gy }, radius = 0.1, time_to_target = 0.5 }
  end
  if kind == "seek" then return steer.seek{ target = { gx, gy } } end
  if kind == "navigate" then
    return steer.navigate{ target = { gx, gy }, target_radius = 0.1, slow_radius = 2, time_to_target = 0.5 }
  end
  return steer.arrive{ target = { gx, gy }, target_radius = 0.1, slow_radius = 2, time_to_target = 0.5 }
end

-- One run of one layout with one setting. Returns the metrics.
local function run_one(c, s)
  local world = steer.world{ seed = s.seed, cell_size = 6, resolve_agent_contacts = s.contacts,
    resolve_contacts = s.contacts }
  for _, w in ipairs(c.walls or {}) do world:add_wall(w[1], w[2], w[3], w[4]) end
  for _, b in ipairs(c.boxes or {}) do world:add_box(b[1], b[2], b[3], b[4]) end
  local maxr, list, by_key = 0.5, {}, {}
  for _, d in ipairs(c.agents) do maxr = math.max(maxr, d.radius or 0.5) end
  for k, d in ipairs(c.agents) do
    local r = d.radius or 0.5
    local pref = preferred(s.pref, d.kinematic, d.gx, d.gy)
    local brain = pref
    if not d.player then
      brain = steer.reciprocal_avoidance{ preferred = pref,
        radius = s.neighbour_radius or math.max(6, 2 * s.speed * s.tau + 2 * maxr),
        time_horizon = s.tau, obstacle_time_horizon = s.tobs == "tau" and s.tau or s.tobs, max_neighbours = 10 }
    end
    local agent = world:spawn{ x = d.x, y = d.y, radius = r, max_speed = d.player and 1 or s.speed,
      max_acceleration = s.accel * s.speed, kinematic = d.kinematic or false, steering = brain, key = k }
    local e = { agent = agent, d = d, r = r, pref = pref, key = k, vx = 0, vy = 0, player = d.player }
    list[#list + 1] = e
    by_key[k] = e
  end
  local n = 0
  for _, e in ipairs(list) do if not e.player then n = n + 1 end end
  local m = { agents = n, home = 0, contacts = 0, overlap = 0, wait = 0, jam_dv = 0, jam_v = 0, arrivals = {} }
  local touching = {}
  local t, dt = 0, s.dt
  local gather = c.mode == "gather"
  local rhex = gather and 1.05 * list[1].r * math.sqrt(n) or 0
  local window = nil
  local holder, settle = nil, 0
  local function sample(record_jam)
    local now = {}
    local live = 0
    for _, e in ipairs(list) do
      if e.agent:alive() then
        live = live + 1
        local a = e.agent
        local x, y = a:position()
        local vx, vy = a:velocity()
        e.x, e.y = x, y
        local near = 0
        for _, o in ipairs(world:query(x, y, e.r + maxr + 0.5)) do
          local f = by_key[o.key]
          if f ~= e then
            local ox, oy = o:position()
            local dist = math.sqrt((x - ox) ^ 2 + (y - oy) ^ 2)
            local overlap = e.r + f.r - dist
            if dist < e.r + f.r + 0.5 then near = near + 1 end
            if o.key > e.key then
              if overlap > m.overlap then m.overlap = overlap end
              if window and overlap > window.overlap then window.overlap = overlap end
              if overlap > CONTACT then
                local pair = e.key * 65536 + o.key
                now[pair] = true
                if not touching[pair] then m.contacts = m.contacts + 1 end
              end
            end
          end
        end
        if record_jam and not e.done and near >= 3 then
          m.jam_dv = m.jam_dv + math.sqrt((vx - e.vx) ^ 2 + (vy - e.vy) ^ 2)
          m.jam_v = m.jam_v + math.sqrt(vx * vx + vy * vy)
        end
        e.vx, e.vy = vx, vy
      end
    end
    touching = now
    return live
  end
  -- phase 1: until everyone is home (joined, for a gathering) or time is up
  local remaining = n
  while t < c.time_limit and remaining > 0 do
    world:step(dt)
    t = t + dt
    sample(not gather)
    for _, e in ipairs(list) do
      if not e.player and not e.done and e.agent:alive() then
        local dist = math.sqrt((e.x - e.d.gx) ^ 2 + (e.y - e.d.gy) ^ 2)
        if gather then
          if dist <= 1.3 * rhex then e.done = true end
        elseif dist < ARRIVED then
          e.done = true
          m.arrivals[#m.arrivals + 1] = t
          if c.mode == "exit" then e.agent:remove() end
          if c.mode == "contend" then holder = holder or e; m.first = m.first or t end
        end
        if e.done then remaining = remaining - 1; m.home = m.home + 1 end
      end
    end
    if c.mode == "contend" then
      for _, e in ipairs(list) do
        if e ~= holder and math.sqrt(e.vx * e.vx + e.vy * e.vy) >= 0.02 then settle = t end
      end
      -- run on for 20 s after the first arrival, to watch the others stop
      if holder and t >= m.first + 20 then break end
      remaining = 1
    end
  end
  m.time = t
  if c.mode == "contend" then
    m.settle = settle
    m.first = m.first or math.huge
  elseif #m.arrivals > 0 then
    -- the longest wait for an arrival, from the first on, while agents remain
    local last = m.arrivals[1]
    for _, a in ipairs(m.arrivals) do m.wait = math.max(m.wait, a - last); last = a end
    if m.home < n then m.wait = math.max(m.wait, t - last) end
  end
  if gather and remaining == 0 then
    -- phase 2: settle for 15 s, then 60 s of watching speeds
    local joined_last = t
    local sum_mean, steps = 0, 0
    m.mean_speed, m.max_speed = 0, 0
    while t < joined_last + 75 do
      world:step(dt)
      t = t + dt
      if t > joined_last + 15 and not window then window = { overlap = 0 } end
      sample(false)
      if window then
        local sum, top = 0, 0
        for _, e in ipairs(list) do
          local sp = math.sqrt(e.vx * e.vx + e.vy * e.vy)
          sum, top = sum + sp, math.max(top, sp)
        end
        m.mean_speed = math.max(m.mean_speed, sum / n)
        m.max_speed = math.max(m.max_speed, top)
        sum_mean, steps = sum_mean + sum / n, steps + 1
      end
    end
    m.rest_overlap = window.overlap
    -- spread and rest gaps of the heap as it stands
    m.spread, m.gap = 0, 0
    for _, e in ipairs(list) do
      m.spread = math.max(m.spread, math.sqrt(e.x * e.x + e.y * e.y) / rhex)
      local nearest = math.huge
      for _, f in ipairs(list) do
        if f ~= e then nearest = math.min(nearest, math.sqrt((e.x - f.x) ^ 2 + (e.y - f.y) ^ 2) - e.r - f.r) end
      end
      m.gap = math.max(m.gap, nearest)
    end
    -- phase 3: a new order 20 m away; time until the mean speed is half the max speed
    for _, e in ipairs(list) do e.pref.target = { 20 * e.r / 0.5, 0 } end
    local t0 = t
    m.restart = math.huge
    while t < t0 + 10 do
      world:step(dt)
      t = t + dt
      sample(false)
      local sum = 0
      for _, e in ipairs(list) do sum = sum + math.sqrt(e.vx * e.vx + e.vy * e.vy) end
      if sum / n >= 0.5 * s.speed then m.restart = t - t0; break end
    end
  end
  m.jam = m.jam_v > 0 and m.jam_dv / m.jam_v or 0
  world:close()
  return m
end

-- The targets of issue 21 that apply to a layout's run; a list of failures.
-- Stated reasons: with `seek` an agent has no way to stop (alone, it
-- oscillates through its goal), so the settling targets of a gathering and
-- the stopping of the losers of a contention apply to `arrive` (and to
-- `navigate`, which brakes as arrive does) only; of
-- agents contending for one spot only one can hold it.
local function failures(name, c, m, contacts, pref, speed)
  local f = {}
  local function need(ok, what) if not ok then f[#f + 1] = what end end
  if c.mode == "contend" then
    local straight = 6 / speed
    if name == "contend_2" then need(m.first <= straight + 3, "first") end
    if name == "contend_3" then need(m.first <= 5, "first") end
    if pref ~= "seek" then need(m.settle <= m.first + 5, "settle") end
  else
    need(m.home == m.agents, "home")
  end
  if m.agents < 20 then need(m.contacts == 0, "contacts") end
  need(m.overlap <= (contacts and 0.01 or 0.05), "overlap")
  if c.mode ~= "contend" and c.mode ~= "gather" then need(m.wait <= 30, "wait") end
  need(m.jam < 0.5, "jam")
  if c.mode == "gather" and m.mean_speed and pref ~= "seek" then
    -- rest and spread: issue 21 states them for 100 agents sent to one point; smaller heaps (gather_12,
    -- gather_r2, big_gather) are judged on their overlap and gaps at rest and the restart
    if m.agents >= 100 then
      need(m.mean_speed < 0.02 and m.max_speed < 0.05, "rest")
      need(m.spread <= 1.3, "spread")
    end
    need(m.rest_overlap <= 0.01, "rest_overlap")
    need(m.gap <= 0.05, "gap")
    need(m.restart <= 3, "restart")
  end
  return f
end

-- Targets not met yet (docs/crowds.md, "The families: what holds and what does not"): --check
-- passes a layout whose failures are all listed here, and prints them.
-- The rest of the targets are held: a regression on them fails the check.
local function set(...) local t = {}; for _, k in ipairs({ ... }) do t[k] = true end; return t end
local NOT_YET = {
  junction_20 = set("wait"),                  -- a 30 s wait in 6 runs of 360 since the braking (12 before it; 6
                                              -- before the lean, 14 before the
                                              -- sideways keep-right step); every agent home since wallend21
                                              -- (docs/crowds/wallend21.md)
  gather_12 = set("gap"),                     -- 2 runs of 360 on 75d552e (8 with the nearer one goes first, 4
                                              -- before it, 2 before the wish's horizon; 4 just before the room
                                              -- rules): the heap still slides and keeps the clearance
                                              -- (docs/crowds/settle21c.md, docs/crowds/exit21b.md)
  -- the large layouts: the full matrix at 2e6a5d6 (docs/crowds.md, "The large layouts over the full matrix
  -- (world seeds 1 to 5)"), runs ok of 360 and the targets missed (runs): hallway_shared 214 (home 145,
  -- wait 20, overlap 1), junction 269 (wait 90, home 28, overlap 1), exit 170 (home 190), gather_100 268
  -- (rest 89, gap 10), gather_r2 350 (gap 8, contacts 2), corridor 358 (wait 2); only those targets listed.
  -- Since the wish's horizon (arrive at dt 0.05 rerun): hallway_shared 276, junction 275, exit 182,
  -- gather_100 298, gather_r2 348; since the nearer one goes first at a shared point (docs/crowds/exit21b.md):
  -- hallway_shared 342, junction 273, exit 310 (home 50), gather_100 312 (rest 48; its gap met since),
  -- gather_r2 348 (gap 5, contacts 7)
  hallway_shared = set("home", "wait", "overlap"),
  junction = set("home", "wait", "overlap"),
  exit = set("home"),                 -- 358 of 360 since the nearer keeps its way in a standoff (314 before;
                                      -- docs/crowds/exitgate21.md): home missed in two runs (arrive, horizon 2,
                                      -- acceleration 100, dt 0.1: 57 of 60 home at worst)
  exit_r2 = set("home", "wait"),      -- 80 of 216 runs at world seeds 1 to 3 (home 48, wait 134; `exit` 192): a heap of
                                      -- radius-2 bodies settles round one that is on the point (under its body)
                                      -- but not within the 0.5 m that removes it (docs/crowds/junction21.md);
                                      -- over the full matrix 158 of 360 (home 72, wait 198; none of 12 home at worst);
                                      -- 166 (home 68, wait 188) since the nearer keeps its way in a standoff;
                                      -- 160 since the braking (its seekers at acceleration 3: crowds.md)
  gather_100 = set("rest"),           -- 299 of 360 (rest 61) since the nearer keeps its way in a standoff (312,
                                      -- rest 48): as any reorder of the first arrivals' standoffs
                                      -- (docs/crowds/exitgate21.md)
  gather_r2 = set("gap", "contacts"),
  corridor = set("wait"),             -- agent horizon 1 s at dt 0.1: a head-on jam (9 of 40 home at the
                                              -- --quick corners); with --tau-obst 5 at every agent horizon
  -- two groups head-on in a hallway a few bodies wide (docs/crowds/twoway21.md): the groups meet
  -- before the side bias has sorted them into lanes and lock into one block three across
  -- keeping right by the relayed opposition (docs/crowds/relay21.md) drains most of them: twoway_16 314 of
  -- 360 runs ok (194 before), no jam; 2 runs with a contact (0.9 cm); 323 since the sideways step (1 contact,
  -- 0.5 cm); 322 and no contact with the step's travel (docs/crowds/overlap21.md); 345 since a seek or an
  -- arrive leans alike (docs/crowds/seek21.md: seek 143 -> 167 of 180), with a contact in 2 runs (1.7 cm);
  -- 344 and 3 since the lean is taken back along a wall (docs/crowds/door21.md); 359 and 1 (1.7 cm), every
  -- agent home in every run, since a held-up opposed seek does not press ahead (docs/crowds/seeklock21.md)
  twoway_16 = set("contacts"),
  goal_line_16 = set("home", "wait"),         -- 352 since the braking (home 2, wait 8; docs/crowds.md, "The
                                              -- small layouts"); 354 of 360 runs ok on 75d552e (home missed in 4,
                                              -- a wait in 6);
                                              -- 358 since an agent held off its spot makes room for one bound
                                              -- elsewhere, before a parked agent steps aside faster
                                              -- (world seeds 1 to 15: 1,058 of 1,080, home missed in 10)
                                              -- (docs/crowds/goalline21.md; 350 and home missed in 8 before,
                                              -- 348 since parked agents make room for a goal among them,
                                              -- docs/crowds/room21b.md; 282 before, 270 before the lean, 288
                                              -- with the turn, 254 before keeping right)
  -- the full matrix at 2e6a5d6 (360 runs each): runs ok, the worst run's agents home (at seeds 1 / 2 at
  -- c8173f1, before seeklock21, in brackets); every agent home in every run of the first two since a
  -- held-up opposed seek does not press ahead (docs/crowds/seeklock21.md); the overlap left was `seek` at
  -- an acceleration of 3 times the max speed, dt 0.1, and every run of the two (and of goal_line_40) is
  -- under 5 cm since the closer's step radius counts its braking distance (docs/crowds/overlap21d.md: 5.9,
  -- 5.3 and 5.6 cm -> 2.2, 1.8 and 2.9 in those runs)
  twoway_50 = set("wait"),                   -- 352, 50 of 50 (67 / 66, 0 of 50); up to 6.6 cm in 5 runs (since
                                             -- the recoil, docs/crowds/bounce21.md: 5.9 cm in 1 of the 60 at
                                             -- acceleration 3, dt 0.1; 4 before)
                                             -- (twoway_shared_40, no longer listed: 357, 40 of 40 (61 / 69, 3
                                             -- of 40); up to 5.9 cm in 3 runs before the braking)
  twoway_door_20 = set("home", "wait", "overlap"), -- 0, 3 of 20 (RVO2: 8 to 13): agents pushed aside stand at the
                                             -- middle wall with their goal behind it; with routes (--pref
                                             -- navigate) 62 of 180 runs ok (docs/crowds.md, "The matrix"); since
                                             -- the recoil one run (seek, horizon 1, acceleration 100, dt 0.05,
                                             -- seed 1) squeezes an agent onto one at rest at the middle wall:
                                             -- 16.0 cm (docs/crowds.md, "Since the recoil")
  goal_line_40 = set("home", "wait"),        -- 297, 39 of 40 (59 / 62; RVO2: 40); up to 6.4 cm in 5 runs;
                                             -- 287 at 3afee14 (home 18, wait 72, 5.6 cm in 1), 310 since an
                                             -- agent held off its spot makes room (home 9, wait 49; the last
                                             -- agents into the line: docs/crowds/goalline21.md), though at
                                             -- seeds 6 to 10 332 before, 305 since (11 to 15: 305, 322); 311 at
                                             -- a02ab07, 322 since the braking (docs/crowds.md, "today")
  -- one-way hallways (docs/crowds/oneway21.md). Kept at their own goals in the open past the end, goals
  -- 1.2 m apart: latecomers stop at rest against two agents parked at theirs (38 of 48 runs ok at the
  -- centre, 262 of 360 over the full matrix); since parked agents make room (crowds/parked21.md) 352 of
  -- 360, 39 of 40 home at worst (home missed in 2 runs, wait in 8); 348 at 2e6a5d6, 38 of 40 home at worst
  -- (home missed in 6 runs, wait in 12); 352 since an agent held off its spot makes room (goalline21: every
  -- agent home, wait missed in 8)
  oneway_keep_40 = set("home", "wait"),
  -- oneway_narrow_40 and oneway_bend_40: every target held since an agent moving against its wish takes more
  -- of the avoidance with one closing on it from behind (docs/crowds/bounce21.md: 360 of 360 runs ok each);
  -- at 2e6a5d6 357 and 359, up to 7.0 and 5.1 cm at an acceleration of 3 times the max speed, dt 0.1 (351 and
  -- 9.3 / 9.7 cm before the step's travel)
  -- oneway_park_40: 360 of 360 at 2e6a5d6 (358 before the step's travel: a 35.5 s wait in 2); 358 since the
  -- recoil: the last agent (seek, horizon 5, acceleration 3, dt 0.1, seed 2) pushed back into the hallway
  -- waits 61.5 s (docs/crowds.md, "Since the recoil"); 356 since an agent held off its spot makes room
  -- (goalline21: the same setting at seed 3 waits 32.4 s against 25.2; docs/crowds/goalline21.md)
  oneway_park_40 = set("wait"),
  -- the bigstep layouts (dt 0.25 s, max speed 2 m/s, radius 1.5 to 2; docs/crowds/bigstep21.md), main at
  -- 3afee14 over world seeds 1 to 10 (160 runs each). Overlap: a body moves 0.5 m a step, and an
  -- overlap opened in one step is taken back over the next ones, 8 to 20 cm deep with contact resolution off
  -- (at most 1.5 cm with it on) in every layout; a target issue 21 set at dt 0.05 and 0.1.
  big_junction = set("home", "wait", "overlap"), -- 74 runs ok: 35 of 40 home at worst (home missed in 7
                                                 -- runs, wait in 10); not traced
  big_gather = set("gap", "overlap", "rest_overlap"), -- 52: the heap rests with up to 0.47 m between
                                                 -- bodies (gap missed in 80: the clearance of radius 1.75;
                                                 -- gather_r2 lists it too), 37 runs over 1 cm at rest:
                                                 -- at dt 0.25 an arrive from rest asks for more than
                                                 -- settling allows; reading the ask over 0.1 s settles it
                                                 -- (gap in 9) but doubles the contacts (not landed,
                                                 -- docs/crowds/bigrest21.md)
  big_cross = set("home", "wait", "overlap"),    -- 124: a big body left beside its group's exit (31 of 36
                                                 -- home at worst, in 1 run); not traced
  big_swap = set("home", "wait", "overlap"),     -- 93: 30 of 32 home at worst (home missed in 14 runs, a
                                                 -- jam of 0.33); 96 since a parked agent steps aside
                                                 -- faster for one that wants past it (home missed in
                                                 -- 8, all seekers orbiting the middle of their grid
                                                 -- of goals; docs/crowds/bigswap21.md)
}

local function fmt(x) if x == math.huge then return "inf" end return string.format("%.3f", x) end

local EXTRAS = { "first", "settle", "mean_v", "max_v", "spread", "gap", "restart" }

-- The extras (first, settle, ...) that a tally has, as "k=v" words.
local function extras_text(extra)
  local words = {}
  for _, k in ipairs(EXTRAS) do
    if extra[k] then words[#words + 1] = k .. "=" .. fmt(extra[k]) end
  end
  return table.concat(words, " ")
end

-- The cells of a layout's summary (one row a layout), formatted once: the
-- text table and the Markdown table (--markdown) print these same strings,
-- so the two cannot disagree. `missed` lists each target missed with the
-- number of runs that missed it; `held` those of them not in NOT_YET (a
-- regression: --check fails on them).
local function summary_cells(name, sum)
  local missed, held = {}, {}
  local keys = {}
  for k in pairs(sum.fails) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do
    missed[#missed + 1] = k .. ":" .. sum.fails[k]
    if not (NOT_YET[name] and NOT_YET[name][k]) then held[#held + 1] = k end
  end
  return { layout = name, home = string.format("%4d", sum.home), agents = string.format("%-4d", sum.agents),
    contacts = string.format("%5d", sum.contacts), off = string.format("%6.3f", sum.off),
    on = string.format("%6.3f", sum.on), wait = string.format("%6.1f", sum.wait), jam = string.format("%5.2f", sum.jam),
    ok = string.format("%d/%d", sum.ok, sum.runs), extra = extras_text(sum.extra), missed = missed, held = held }
end

local function trim(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end

-- A selection's settings in words (the table's caption): max speed and
-- neighbour radius only where they are not the matrix's.
local function describe(sel, sep)
  local t = string.format("world seeds %s; preferred %s; time horizon %s s; max acceleration %s x max speed; "
    .. "dt %s s; obstacle time horizon %s s", table.concat(sel.seeds, sep), table.concat(sel.prefs, sep),
    table.concat(sel.taus, sep), table.concat(sel.accels, sep), table.concat(sel.dts, sep),
    table.concat(sel.tobs, sep))
  if sel.speed ~= FULL.speed or sel.neighbour_radius then
    t = t .. string.format("; max speed %g m/s; neighbour radius %s", sel.speed,
      sel.neighbour_radius and (sel.neighbour_radius .. " m") or "2 x max speed x horizon + 2 x largest radius")
  end
  return t
end

-- The contact episodes table (the bigstep layouts, or --episodes): for
-- each behaviour and contact resolution off and on, over every run of the
-- layout: runs, agents home of agents, contact episodes summed and the most
-- in one run, the deepest overlap. As text lines, or Markdown rows.
local function episode_lines(name, prefs, eps, md)
  local out = {}
  for _, pref in ipairs(prefs) do
    for _, contacts in ipairs({ false, true }) do
      local e = eps[pref][contacts]
      local fmt_line = md and "| `%s` | %s | %s | %d | %d of %d | %d | %d | %.3f |"
        or "episodes %-14s %-6s contacts %-3s runs %3d home %5d of %-5d episodes %6d most %5d deepest %.3f"
      out[#out + 1] = string.format(fmt_line, name, pref, contacts and "on" or "off", e.runs, e.home, e.agents,
        e.sum, e.most, e.deep)
    end
  end
  return out
end

-- The summary as a Markdown table (docs/crowds.md): one row a layout, the
-- cells of summary_cells with the text table's padding taken off.
local function markdown(rows)
  print("")
  print("Matrix: " .. rows[1].settings .. "; contact resolution off and on.")
  local seen = { [rows[1].settings] = true }
  for _, c in ipairs(rows) do
    if not seen[c.settings] then
      seen[c.settings] = true
      local list = {}
      for _, o in ipairs(rows) do if o.settings == c.settings then list[#list + 1] = "`" .. o.layout .. "`" end end
      print(table.concat(list, ", ") .. ": " .. c.settings .. ".")
    end
  end
  print("")
  print("| layout | ok (runs meeting every target) | home (worst) | contacts (most) | overlap off / on m | "
    .. "wait s | jam | extras (worst; settling: the `arrive` runs) | targets missed (runs) | all missed in NOT_YET |")
  print("|---|---|---|---:|---|---:|---:|---|---|---|")
  local episodes = {}
  for _, c in ipairs(rows) do
    local not_yet = "-"
    if #c.missed > 0 then not_yet = #c.held == 0 and "yes" or ("**no: " .. table.concat(c.held, ", ") .. "**") end
    print(string.format("| `%s` | %s | %s of %s | %s | %s / %s | %s | %s | %s | %s | %s |", c.layout, c.ok,
      trim(c.home), trim(c.agents), trim(c.contacts), trim(c.off), trim(c.on), trim(c.wait), trim(c.jam),
      c.extra ~= "" and c.extra or "-", #c.missed > 0 and table.concat(c.missed, " ") or "-",
      not_yet))
    for _, line in ipairs(c.episodes or {}) do episodes[#episodes + 1] = line end
  end
  if #episodes > 0 then
    print("")
    print("Contact episodes over the runs (the settings above):")
    print("")
    print("| layout | preferred | contact resolution | runs | home | contact episodes (sum) | most in a run | "
      .. "deepest overlap m |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for _, line in ipairs(episodes) do print(line) end
  end
end

-- Worst cases over runs: a setting's row, a behaviour's and a layout's summary.
local function new_tally()
  return { home = math.huge, contacts = 0, off = 0, on = 0, wait = 0, jam = 0, ok = 0, runs = 0, extra = {} }
end

-- Tally t takes row's worst cases; its settling extras only when `settling`
-- (the first arrival always).
local function merge(t, row, settling)
  t.home = math.min(t.home, row.home)
  t.contacts = math.max(t.contacts, row.contacts)
  t.off, t.on = math.max(t.off, row.off), math.max(t.on, row.on)
  t.wait, t.jam = math.max(t.wait, row.wait), math.max(t.jam, row.jam)
  t.ok, t.runs = t.ok + row.ok, t.runs + row.runs
  for k, v in pairs(row.extra) do
    if settling or k == "first" then t.extra[k] = math.max(t.extra[k] or -math.huge, v) end
  end
end

-- Every combination of the selected horizons, accelerations, steps and
-- obstacle horizons, in the table's order.
local function settings(sel)
  local list = {}
  for _, tau in ipairs(sel.taus) do
    for _, accel in ipairs(sel.accels) do
      for _, dt in ipairs(sel.dts) do
        for _, tobs in ipairs(sel.tobs) do list[#list + 1] = { tau = tau, accel = accel, dt = dt, tobs = tobs } end
      end
    end
  end
  return list
end

-- One setting of one layout over the seeds (sel.seeds), contact
-- resolution off and on: its row (worst cases) and the number of agents;
-- each target missed is counted into `fails`, each run into `eps` (the
-- contact episodes table: eps[pref][contacts]).
local function run_setting(dir, name, pref, s, sel, fails, eps)
  local row, agents = new_tally(), 0
  local function worst(k, v) if v then row.extra[k] = math.max(row.extra[k] or -math.huge, v) end end
  for _, seed in ipairs(sel.seeds) do
    for _, contacts in ipairs({ false, true }) do
      local c = load_layout(dir, name, seed)
      local m = run_one(c, { seed = seed, pref = pref, tau = s.tau, accel = s.accel, dt = s.dt, tobs = s.tobs,
        contacts = contacts, speed = sel.speed, neighbour_radius = sel.neighbour_radius })
      agents = m.agents
      local e = eps[pref][contacts]
      e.runs, e.home, e.agents = e.runs + 1, e.home + m.home, e.agents + m.agents
      e.sum, e.most, e.deep = e.sum + m.contacts, math.max(e.most, m.contacts), math.max(e.deep, m.overlap)
      local f = failures(name, c, m, contacts, pref, sel.speed)
      row.runs = row.runs + 1
      if #f == 0 then row.ok = row.ok + 1 end
      for _, w in ipairs(f) do fails[w] = (fails[w] or 0) + 1 end
      row.home = math.min(row.home, m.home)
      row.contacts = math.max(row.contacts, m.contacts)
      if contacts then row.on = math.max(row.on, m.overlap) else row.off = math.max(row.off, m.overlap) end
      row.wait = math.max(row.wait, m.wait)
      row.jam = math.max(row.jam, m.jam)
      worst("first", m.first); worst("settle", m.settle); worst("mean_v", m.mean_speed)
      worst("max_v", m.max_speed); worst("spread", m.spread); worst("gap", m.gap)
      worst("restart", m.restart)
    end
  end
  return row, agents
end

-- The selection of one layout: the matrix's settings (FULL) or the bigstep
-- ones (--bigstep, or a layout that sets `bigstep`), each overridden by the
-- options given; --quick takes the corners (one seed, the extremes of the
-- horizons and accelerations).
local function ends(list)
  if #list == 1 then return { list[1] } end
  return { list[1], list[#list] }
end

local function selection(base, given, quick)
  local sel = {}
  for k, v in pairs(base) do sel[k] = v end
  for k, v in pairs(given) do sel[k] = v end
  if quick then sel.seeds, sel.taus, sel.accels = { sel.seeds[1] }, ends(sel.taus), ends(sel.accels) end
  return sel
end

return function(args, dir)
  local given = {}
  local names, check, detail, quick, md, bigstep, episodes, max_episodes = {}, false, false, false, false, false,
    false, nil
  local i = 1
  local function list_of(s, f)
    local t = {}
    for v in s:gmatch("[^,]+") do t[#t + 1] = f(v) end
    return t
  end
  while args[i] do
    local a = args[i]
    if a == "--seeds" then given.seeds = list_of(args[i + 1], tonumber); i = i + 1
    elseif a == "--pref" then
      given.prefs = list_of(args[i + 1], function(v)
        if v ~= "arrive" and v ~= "seek" and v ~= "navigate" then
          error("--pref: '" .. v .. "' is not arrive, seek or navigate", 0)
        end
        return v
      end)
      i = i + 1
    elseif a == "--tau" then given.taus = list_of(args[i + 1], tonumber); i = i + 1
    elseif a == "--accel" then given.accels = list_of(args[i + 1], tonumber); i = i + 1
    elseif a == "--dt" then given.dts = list_of(args[i + 1], tonumber); i = i + 1
    elseif a == "--tau-obst" then
      -- a number of seconds, or `tau`: the agents' time horizon
      given.tobs = list_of(args[i + 1], function(v)
        local t = v == "tau" and v or tonumber(v)
        if not t or (t ~= "tau" and t <= 0) then
          error("--tau-obst: '" .. v .. "' is not a positive number or tau", 0)
        end
        return t
      end)
      i = i + 1
    elseif a == "--small" then for _, n in ipairs(SMALL) do names[#names + 1] = n end
    elseif a == "--large" then for _, n in ipairs(LARGE) do names[#names + 1] = n end
    elseif a == "--big" then
      for _, n in ipairs(BIG_LAYOUTS) do names[#names + 1] = n end
    elseif a == "--bigstep" then bigstep = true
    elseif a == "--episodes" then episodes = true
    elseif a == "--max-episodes" then
      -- --check also fails when a layout's contact episodes, summed over its
      -- runs with contact resolution off, exceed this
      max_episodes = math.tointeger(tonumber(args[i + 1]))
      if not max_episodes or max_episodes < 0 then
        error("--max-episodes: '" .. tostring(args[i + 1]) .. "' is not a whole number 0 or more", 0)
      end
      i = i + 1
    elseif a == "--quick" then quick = true
    elseif a == "--check" then check = true
    elseif a == "--detail" then detail = true
    elseif a == "--markdown" then md = true
    elseif a == "--if-env" then
      -- the large layouts under ctest: skipped (77) unless STEER_SCENARIOS is set
      if not os.getenv("STEER_SCENARIOS") then print("skipped: set STEER_SCENARIOS=1 (make scenarios)"); os.exit(77) end
    elseif a ~= "--matrix" then names[#names + 1] = a end
    i = i + 1
  end
  if #names == 0 then
    for _, list in ipairs({ SMALL, LARGE, BIG_LAYOUTS }) do
      for _, n in ipairs(list) do names[#names + 1] = n end
    end
  end
  print("columns: home (worst run) / agents; contact episodes (most); deepest overlap m, contact resolution off / on;")
  print("longest wait for an arrival s; jam velocity change per step over mean speed; ok: runs meeting every target")
  local bad, rows, shown = {}, {}, nil
  for _, name in ipairs(names) do
    -- (the layout's own table, before any agent is drawn)
    local big = bigstep or assert(loadfile(dir .. "matrix/" .. name .. ".lua"))(dir).bigstep
    local sel = selection(big and BIG or FULL, given, quick)
    local settings_text = describe(sel, ",")
    if settings_text ~= shown then
      shown = settings_text
      print("matrix: " .. settings_text)
      print(string.format("%-18s %-6s %4s %4s %5s %4s | %9s %5s %13s %6s %5s %s", "layout", "pref", "tau", "acc",
        "dt", "tobs", "home", "cont", "overlap", "wait", "jam", "ok   extra"))
    end
    local sum = new_tally()
    sum.fails, sum.agents = {}, 0
    local eps = {}
    for _, pref in ipairs(sel.prefs) do
      eps[pref] = {}
      for _, contacts in ipairs({ false, true }) do
        eps[pref][contacts] = { runs = 0, home = 0, agents = 0, sum = 0, most = 0, deep = 0 }
      end
    end
    for _, pref in ipairs(sel.prefs) do
      local psum = new_tally()
      for _, s in ipairs(settings(sel)) do
        local row, agents = run_setting(dir, name, pref, s, sel, sum.fails, eps)
        sum.agents = agents
        if detail then
          print(string.format("%-18s %-6s %4g %4g %5g %4s | %4d / %-4d %5d %6.3f/%6.3f %6.1f %5.2f %2d/%-2d %s",
            name, pref, s.tau, s.accel, s.dt, tostring(s.tobs), row.home, agents, row.contacts, row.off, row.on,
            row.wait, row.jam, row.ok, row.runs, extras_text(row.extra)))
        end
        -- a layout's summary keeps the settling figures of the runs whose
        -- targets apply to them (`arrive`, `navigate`: see failures); the rows per
        -- behaviour keep all
        merge(psum, row, true)
        merge(sum, row, pref ~= "seek")
        io.stdout:flush()
      end
      print(string.format("%-18s %-6s %4s %4s %5s %4s | %4d / %-4d %5d %6.3f/%6.3f %6.1f %5.2f %d/%d %s",
        name, pref, "all", "", "", "",
        psum.home, sum.agents, psum.contacts, psum.off, psum.on, psum.wait, psum.jam, psum.ok, psum.runs,
        extras_text(psum.extra)))
    end
    local cells = summary_cells(name, sum)
    cells.settings = describe(sel, ", ")
    rows[#rows + 1] = cells
    print(string.format("%-18s %-6s %4s %4s %5s %4s | %s / %s %s %s/%s %s %s %s %s%s",
      name, "all", "", "", "", "", cells.home, cells.agents, cells.contacts, cells.off, cells.on, cells.wait, cells.jam,
      cells.ok, cells.extra, #cells.missed > 0 and ("  failed " .. table.concat(cells.missed, " ")) or ""))
    if big or episodes then
      for _, line in ipairs(episode_lines(name, sel.prefs, eps, false)) do print(line) end
      cells.episodes = episode_lines(name, sel.prefs, eps, true)
    end
    io.stdout:flush()
    for _, k in ipairs(cells.held) do bad[#bad + 1] = name .. ":" .. k end
    if max_episodes then
      local off = 0
      for _, pref in ipairs(sel.prefs) do off = off + eps[pref][false].sum end
      print(string.format("episodes %-14s contact resolution off, all runs: %d (at most %d asked)", name, off,
        max_episodes))
      if off > max_episodes then bad[#bad + 1] = name .. ":episodes" end
    end
  end
  if md then markdown(rows) end
  if check and #bad > 0 then
    io.stderr:write("FAILED targets in: ", table.concat(bad, ", "), "\n")
    os.exit(1)
  end
end
