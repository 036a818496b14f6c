-- 20 agents on a circle of radius 10 m swapping to the antipodes (the
-- symmetric layout where plain ORCA deadlocks).
local dir = ... -- the scenario directory (run.lua passes it)
return { small = true, time_limit = 80, agents = dofile(dir .. "circle.lua")(20, 10) }
