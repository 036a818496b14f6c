-- 250 agents on a circle of radius 60 m swapping to the antipodes.
local dir = ... -- the scenario directory (run.lua passes it)
return { time_limit = 200, agents = dofile(dir .. "circle.lua")(250, 60) }
