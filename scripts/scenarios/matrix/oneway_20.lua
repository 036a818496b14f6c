-- One-way hallway, small: 20 agents packed in a hallway 3 m wide, each to its own goal (oneway.lua).
return assert(loadfile((... or "") .. "matrix/oneway.lua"))(..., 20, 3, 0.5, "packed", "own", "straight")
