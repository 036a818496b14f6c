-- Two groups of 8 meeting head-on in a hallway 3 m wide and 24 m long (twoway.lua).
return assert(loadfile((... or "") .. "matrix/twoway.lua"))(..., 8, 3, 12)
