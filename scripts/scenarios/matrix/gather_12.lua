-- 12 agents of radius 0.5 ordered to one point and kept.
return assert(loadfile((... or "") .. "matrix/gather.lua"))(12, 0.5)
