-- Two groups of 12 meeting head-on in a hallway 3 m wide and 32 m long, one
-- shared goal point per group (twoway.lua; docs/crowds/twowaylarge21.md).
return assert(loadfile((... or "") .. "matrix/twoway.lua"))(..., 12, 3, 16, "shared")
