-- Big bodies at a long step (`run.lua --matrix`'s bigstep settings: dt
-- 0.25 s, max speed 2 m/s; docs/crowds/bigstep21.md). Groups in the open,
-- each agent to its own goal across the middle, kept on arrival; bodies of
-- radius 1.5 to 2 (drawn from the world seed), every `small`-th of radius
-- 0.5 (0: none), placed on a grid 5.2 m apart with up to 0.3 m of jitter (goals at least
-- 4.6 m apart: two bodies of radius 2 and their clearance).
-- Kinds: `swap` (two groups of rows x deep meet head-on and pass through
-- each other: the groups_oncoming family) and `cross` (four groups from
-- the four sides: the four_way family; east-west and north-south meet
-- head-on in the middle as well as crossing).
-- `shared` (argument 6): each group heads for one point instead, on the
-- far side 10 m beyond the middle, and leaves the world there (an exit:
-- the junction family without the blocks).
-- Arguments (after the directory): kind, rows, deep, small, shared.
local args = { ... }
local kind, rows, deep = args[2] or "swap", tonumber(args[3]) or 4, tonumber(args[4]) or 4
local small, shared = tonumber(args[5]) or 0, args[6] == "shared"
local PITCH, NEAR = 5.2, 10
local function generate(rnd)
  local agents = {}
  local function group(ax, ay, sx, sy, shift)
    -- (ax, ay): towards the middle; (sx, sy): across
    for j = 0, deep - 1 do
      for i = 0, rows - 1 do
        local back = NEAR + j * PITCH + 0.6 * (rnd() - 0.5)
        local side = (i - (rows - 1) / 2) * PITCH + shift + 0.6 * (rnd() - 0.5)
        local r = 1.5 + 0.5 * rnd()
        if small > 0 and (#agents + 1) % small == 0 then r = 0.5 end
        local ahead = shared and NEAR or NEAR + (deep - 1 - j) * PITCH
        local across = shared and 0 or side
        agents[#agents + 1] = { x = -ax * back + sx * side, y = -ay * back + sy * side, radius = r,
          gx = ax * ahead + sx * across, gy = ay * ahead + sy * across }
      end
    end
  end
  group(1, 0, 0, 1, 0); group(-1, 0, 0, -1, 0.5)
  if kind == "cross" then group(0, 1, -1, 0, 0.25); group(0, -1, 1, 0, 0.75) end
  return agents
end
return { family = kind == "cross" and "crossing" or "twoway", mode = shared and "exit" or "keep", bigstep = true,
  time_limit = 120,
  generate = generate }
