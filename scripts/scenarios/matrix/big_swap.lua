-- Two groups of 16 big bodies (4 rows, 4 deep, radius 1.5 to 2) pass
-- through each other head-on in the open, at the bigstep settings.
return assert(loadfile((... or "") .. "matrix/big_groups.lua"))(..., "swap", 4, 4, 0)
