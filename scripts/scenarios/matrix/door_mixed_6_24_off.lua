-- A two-way door with mixed radii: 6 agents a side, a door 2.4 m wide 3 m off the middle (door_mixed.lua).
return assert(loadfile((... or "") .. "matrix/door_mixed.lua"))(..., 6, 2.4, 3)
