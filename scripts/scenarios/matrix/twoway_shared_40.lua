-- Two groups of 20 meeting head-on in a hallway 3.5 m wide and 40 m long,
-- each group heading for one shared point 4 m beyond the far end (twoway.lua).
return assert(loadfile((... or "") .. "matrix/twoway.lua"))(..., 20, 3.5, 20, "shared")
