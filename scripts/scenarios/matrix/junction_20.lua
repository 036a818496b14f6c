-- The junction with five agents a stream (one of radius 2 in each).
return assert(loadfile((... or "") .. "matrix/junction.lua"))(5)
