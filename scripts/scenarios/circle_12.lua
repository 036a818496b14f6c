-- 12 agents on a circle of radius 10 m swapping to the antipodes.
local dir = ... -- the scenario directory (run.lua passes it)
return { small = true, time_limit = 60, agents = dofile(dir .. "circle.lua")(12, 10) }
