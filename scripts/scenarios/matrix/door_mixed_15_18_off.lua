-- A two-way door with mixed radii: 15 agents a side, a door 1.8 m wide -3 m off the middle (door_mixed.lua).
return assert(loadfile((... or "") .. "matrix/door_mixed.lua"))(..., 15, 1.8, -3)
