-- A group of 40 bodies of radius 1.75 ordered to one point and kept
-- (`gather`'s layout, distances times 3.5) at the bigstep settings: the
-- heap round a shared point, where the one on it and those pressing in meet
-- at 0.5 m a step.
local c = assert(loadfile((... or "") .. "matrix/gather.lua"))(40, 1.75)
c.bigstep = true
return c
