-- One-way hallway: 60 small agents (radius 0.3) streaming in along a hallway 3 m wide (oneway.lua).
return assert(loadfile((... or "") .. "matrix/oneway.lua"))(..., 60, 3, 0.3, "stream", "own", "straight")
