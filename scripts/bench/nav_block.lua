-- The issue 22 figure "a goal behind a 30 x 10 m block", with what exists so
-- far: world:find_path + follow_path for one agent, a shared flow field +
-- follow_flow_field inside reciprocal_avoidance for a group of 10 (no
-- per-unit stop points yet: a member has arrived within 2.5 m of the goal).
-- Prints each arrival time over the shortest-path time (the exact path
-- length / max_speed). Run: steer-lua scripts/bench/nav_block.lua
local steer = require "steer"

local MAX_SPEED, DT = 5, 1 / 60

local function arrival_time(world, agents, goal_of, limit, within)
  local arrived, t = {}, 0
  while t < limit do
    world:step(DT)
    t = t + DT
    local all = true
    for i, a in ipairs(agents) do
      if not arrived[i] then
        local gx, gy = goal_of(i)
        if math.sqrt((a.x - gx) ^ 2 + (a.y - gy) ^ 2) < within and math.sqrt(a.vx ^ 2 + a.vy ^ 2) < 0.5 then
          arrived[i] = t
        else
          all = false
        end
      end
    end
    if all then break end
  end
  local worst = 0
  for i = 1, #agents do worst = math.max(worst, arrived[i] or math.huge) end
  return worst
end

print("offset  one agent (find_path + follow_path)  group of 10 (flow field in reciprocal_avoidance)")
for offset = 0, 20, 5 do
  -- one agent
  local w = steer.world{}
  w:add_box(-15, -5, 15, 5)
  local from, to = { offset, -15 }, { 0, 15 }
  local path = assert(w:find_path{ from = from, to = to, radius = 0.5 })
  local a = w:spawn{ x = from[1], y = from[2], max_speed = MAX_SPEED, max_acceleration = 20,
                     steering = steer.follow_path{ path = path, path_offset = 1 } }
  local best = path.length / MAX_SPEED
  local t1 = arrival_time(w, { a }, function() return to[1], to[2] end, 120, 0.5)

  -- ten agents down one field, each to its own stop point round the goal
  local g = steer.world{}
  g:add_box(-15, -5, 15, 5)
  local field = g:flow_field{ goal = to, radius = 0.5, cell = 0.5, bounds = { -40, -40, 40, 40 } }
  local follow = steer.reciprocal_avoidance{
    preferred = steer.follow_flow_field{ field = field, target_radius = 2 }, time_horizon = 2 }
  local agents = {}
  for i = 1, 10 do
    agents[i] = g:spawn{ x = offset + (i - 5.5) * 1.2, y = -15, max_speed = MAX_SPEED, max_acceleration = 20,
                         steering = follow }
  end
  local t10 = arrival_time(g, agents, function() return to[1], to[2] end, 300, 2.5)
  print(string.format("%5.0f m  %.2f x shortest (%.1f s)               %s", offset, t1 / best, t1,
                      t10 < math.huge and string.format("%.2f x shortest (%.1f s)", t10 / best, t10)
                        or "not all arrived in 300 s"))
end
