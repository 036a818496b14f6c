-- One-way hallway: 40 agents packed in a hallway 4 m wide, all to one point past the end (oneway.lua).
return assert(loadfile((... or "") .. "matrix/oneway.lua"))(..., 40, 4, 0.5, "packed", "shared", "straight")
