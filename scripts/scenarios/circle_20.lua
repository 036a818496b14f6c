-- 20 agents on a circle of radius 10 m swapping to the antipodes (the
-- symmetric layout where plain ORCA deadlocks).
return { small = true, time_limit = 80, agents = dofile(SCENARIO_DIR .. "circle.lua")(20, 10) }
