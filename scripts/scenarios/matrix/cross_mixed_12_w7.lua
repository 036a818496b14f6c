-- Crossing streams with mixed radii: 12 agents a stream, streets 7 m wide (cross_mixed.lua).
return assert(loadfile((... or "") .. "matrix/cross_mixed.lua"))(..., 12, 7)
