-- 250 agents on a circle of radius 60 m swapping to the antipodes.
return { time_limit = 200, agents = dofile(SCENARIO_DIR .. "circle.lua")(250, 60) }
