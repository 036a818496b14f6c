-- 12 agents on a circle of radius 10 m swapping to the antipodes.
return { small = true, time_limit = 60, agents = dofile(SCENARIO_DIR .. "circle.lua")(12, 10) }
