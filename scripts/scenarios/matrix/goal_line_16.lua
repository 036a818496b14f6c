-- Goal lines 0.7 m apart: 8 agents each way through a hallway 16 m long (goal_line.lua).
return assert(loadfile((... or "") .. "matrix/goal_line.lua"))(..., 8, 0.7, 8)
