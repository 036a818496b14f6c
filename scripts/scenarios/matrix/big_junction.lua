-- Crossing streams round blocks at the bigstep settings: cross_mixed's
-- four streams of 10 through the junction of four blocks, streets 12 m wide,
-- every radius drawn between 1.5 and 2 m (own goals, leaving on arrival).
local c = assert(loadfile((... or "") .. "matrix/cross_mixed.lua"))(..., 10, 12, 1.5, 2)
c.bigstep = true
return c
