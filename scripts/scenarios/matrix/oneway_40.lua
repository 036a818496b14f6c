-- One-way hallway: 40 agents packed in a hallway 4 m wide, each to its own goal (oneway.lua).
return assert(loadfile((... or "") .. "matrix/oneway.lua"))(..., 40, 4, 0.5, "packed", "own", "straight")
