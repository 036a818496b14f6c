-- Two groups of 15 meeting head-on in a hallway 2.6 m wide and 36 m long
-- (twoway.lua; docs/crowds/twowaylarge21.md: two bodies across, one lane each way).
return assert(loadfile((... or "") .. "matrix/twoway.lua"))(..., 15, 2.6, 18)
