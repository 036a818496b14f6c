-- A two-way door with mixed radii: 15 agents a side, a door 2.4 m wide in the middle (door_mixed.lua).
return assert(loadfile((... or "") .. "matrix/door_mixed.lua"))(..., 15, 2.4, 0)
