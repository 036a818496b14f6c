-- A two-way door with mixed radii: 6 agents a side, a door 1.8 m wide in the middle (door_mixed.lua).
return assert(loadfile((... or "") .. "matrix/door_mixed.lua"))(..., 6, 1.8, 0)
