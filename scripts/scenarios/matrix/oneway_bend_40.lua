-- One-way hallway: 40 agents packed in a hallway 4 m wide that turns left by 45 degrees halfway (oneway.lua).
return assert(loadfile((... or "") .. "matrix/oneway.lua"))(..., 40, 4, 0.5, "packed", "own", "bend")
