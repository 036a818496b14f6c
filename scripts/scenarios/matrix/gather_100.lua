-- 100 agents of radius 0.5 ordered to one point and kept.
return assert(loadfile((... or "") .. "matrix/gather.lua"))(100, 0.5)
