-- One-way hallway: 40 agents packed, a hallway 5 m wide narrowing to 2.5 m halfway (oneway.lua).
return assert(loadfile((... or "") .. "matrix/oneway.lua"))(..., 40, 5, 0.5, "packed", "own", "narrow")
