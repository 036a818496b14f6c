-- Crossing streams with mixed radii: 25 agents a stream, streets 10 m wide (cross_mixed.lua).
return assert(loadfile((... or "") .. "matrix/cross_mixed.lua"))(..., 25, 10)
