-- Goal lines 0.6 m apart: 20 agents each way through a hallway 32 m long (goal_line.lua).
return assert(loadfile((... or "") .. "matrix/goal_line.lua"))(..., 20, 0.6, 16)
