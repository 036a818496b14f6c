-- One-way hallway: 40 agents packed in a hallway 4 m wide, each to its own goal in the open past
-- the far end, where it stays (later ones pass those already there) (oneway.lua).
return assert(loadfile((... or "") .. "matrix/oneway.lua"))(..., 40, 4, 0.5, "packed", "own", "straight", 1.3, "keep")
