-- Two groups of 25 meeting head-on in a hallway 4 m wide and 44 m long (twoway.lua).
return assert(loadfile((... or "") .. "matrix/twoway.lua"))(..., 25, 4, 22)
