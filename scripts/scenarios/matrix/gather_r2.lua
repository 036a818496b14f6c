-- 19 agents of radius 2 ordered to one point and kept.
return assert(loadfile((... or "") .. "matrix/gather.lua"))(19, 2)
