-- Two groups of 30 meeting head-on in a hallway 6 m wide and 48 m long
-- (twoway.lua; docs/crowds/twowaylarge21.md: five bodies across, room for lanes).
return assert(loadfile((... or "") .. "matrix/twoway.lua"))(..., 30, 6, 24)
