-- One-way hallway: 40 agents packed in a hallway 4 m wide, closed at the far end, walk 20 m
-- down it as a block and stay there, each at its slot (oneway.lua).
return assert(loadfile((... or "") .. "matrix/oneway.lua"))(..., 40, 4, 0.5, "packed", "park", "straight")
