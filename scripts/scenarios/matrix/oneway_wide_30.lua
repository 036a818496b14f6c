-- One-way hallway: 30 large agents (radius 0.6) packed tight (pitch 1.1) in a hallway 6 m wide (oneway.lua).
return assert(loadfile((... or "") .. "matrix/oneway.lua"))(..., 30, 6, 0.6, "packed", "own", "straight", 1.1)
