-- One-way hallway: 30 small agents (radius 0.3) packed (pitch 1.2) in a hallway 2 m wide (oneway.lua).
return assert(loadfile((... or "") .. "matrix/oneway.lua"))(..., 30, 2, 0.3, "packed", "own", "straight", 1.2)
